"""Certificates: replayed independently of the run that wrote them."""

from os import PathLike
from typing import Any, Optional, Union

def replay(path: Union[str, PathLike[str]], solver: Optional[str] = None) -> dict[str, Any]:
    """valid, kind and statement; ValueError (REJECTED) when the certificate does not hold.

    A directory from `nimlab prove --certificate` is replayed with a second solver."""
