"""Certificates: replayed independently of the run that wrote them."""

from os import PathLike
from typing import Any, Union

def replay(path: Union[str, PathLike[str]]) -> dict[str, Any]:
    """valid, kind and statement; ValueError (REJECTED) when the certificate does not hold."""
