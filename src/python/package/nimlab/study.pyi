"""Studies: a research question as one TOML file, computed and rendered."""

from os import PathLike
from typing import Optional, Union

from . import Table

def tables(path: Union[str, PathLike[str]], memory_limit: int = ...) -> dict[str, Table]:
    """The study's tables by name (`nimlab study tables`)."""
def run(
    path: Union[str, PathLike[str]],
    output: Optional[Union[str, PathLike[str]]] = None,
    memory_limit: int = ...,
) -> dict[str, Union[str, bytes]]:
    """The study's rendered report files by name, installed into output/<name>/ when given."""
