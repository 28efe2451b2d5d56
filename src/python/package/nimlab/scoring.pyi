"""Scoring Nim (Oginuma–Shinoda): f_N(p) exactly as a function of the bonus N."""

from typing import Any, Optional, Sequence

from . import Exact, IntRange, Pwl, Table

def payoff(heaps: Sequence[int]) -> Pwl:
    """f_N(heaps) as an exact piecewise-linear function of N."""
def payoffs(
    positions: Sequence[Sequence[int]],
    bonus: Optional[str] = None,
    step: Optional[Exact] = None,
    method: str = "auto",
) -> Table:
    """The payoffs of several positions (on a bonus grid such as "0..10" when given)."""
def moves(heaps: Sequence[int], bonus: Optional[Exact] = None, all: bool = False) -> Table:
    """The optimal moves by region of N, or each move's value at one N."""
def line(heaps: Sequence[int], bonus: Exact) -> dict[str, Any]:
    """An optimal line at N: bonus, first_score, second_score, payoff and plies (a Table)."""
def limits(heaps: Sequence[int]) -> dict[str, Any]:
    """The tail constants c± and the position's Nim data."""
def family(
    family: str,
    ranges: dict[str, IntRange],
    bonus: Optional[str] = None,
    step: Optional[Exact] = None,
    method: str = "auto",
) -> Table:
    """An affine family such as "2k+1, 2k, 1" with each member's payoff."""
