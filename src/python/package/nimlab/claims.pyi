"""The claims checker: claim files (TOML) to typed findings."""

from os import PathLike
from typing import Any, Optional, Sequence, Union

class Finding:
    """What checking one claim found."""

    @property
    def paper(self) -> str: ...
    @property
    def id(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def statement(self) -> str: ...
    @property
    def verdict(self) -> str:
        """HOLDS, PROVEN, FAILS, AMBIGUOUS or OPEN."""
    @property
    def range(self) -> str: ...
    @property
    def evidence(self) -> str: ...
    @property
    def counterexample(self) -> Optional[dict[str, Any]]: ...
    @property
    def correction(self) -> Optional[dict[str, Any]]: ...
    @property
    def proof(self) -> Optional[dict[str, Any]]: ...
    @property
    def tables(self) -> Optional[list[dict[str, Any]]]: ...
    def as_dict(self) -> dict[str, Any]: ...

def check(
    path: Union[str, PathLike[str]], deep: bool = False, only: Optional[Sequence[str]] = None
) -> list[Finding]:
    """Checks a claim file (`nimlab check FILE`)."""
def check_text(text: str, name: str = "<string>", deep: bool = False) -> list[Finding]:
    """Checks claims written as TOML text."""
def check_one(text: str, claim: str, name: str = "<string>", deep: bool = False) -> Finding:
    """Checks one claim (by id or label) of claims written as TOML text."""
