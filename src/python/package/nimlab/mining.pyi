"""The miner: eventually periodic-linear closed forms, OBSERVED on the data given."""

from typing import Any, Sequence

from . import Exact, IntRange

def fit(
    values: Sequence[Exact], first: int = 0, confirming_periods: int = 2, name: str = "a"
) -> dict[str, Any]:
    """The least periodic-linear form of a(first), a(first+1), … (status OBSERVED or NONE)."""
def fit_family(game: str, family: str, ranges: dict[str, IntRange]) -> dict[str, Any]:
    """The closed forms along a one-parameter "scoring" or "candy" family: text and forms."""
