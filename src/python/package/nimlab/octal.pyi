"""Stewart's scoring octal and subtraction games: G(n) with a bonus N, and their periods."""

from typing import Any, Optional, Sequence

from . import Exact, Table

def values(
    rules: Optional[str] = None,
    *,
    max_heap: int,
    subtract: Optional[Sequence[int]] = None,
    points: Optional[Sequence[Exact]] = None,
    bonus: Optional[Exact] = None,
) -> Table:
    """G(0), …, G(max_heap) (columns n, value)."""
def period(
    rules: Optional[str] = None,
    *,
    subtract: Optional[Sequence[int]] = None,
    points: Optional[Sequence[Exact]] = None,
    bonus: Optional[Exact] = None,
    max_heap: Optional[int] = None,
) -> dict[str, Any]:
    """The least preperiod and period of G(n), PROVEN, OBSERVED or NONE."""
def value(
    heaps: Sequence[int],
    rules: Optional[str] = None,
    *,
    subtract: Optional[Sequence[int]] = None,
    points: Optional[Sequence[Exact]] = None,
    bonus: Optional[Exact] = None,
    payoff: bool = False,
) -> dict[str, Any]:
    """The value G of a position at bonus N (with its payoff f_N as a Pwl when asked)."""
def outcome(
    heaps: Sequence[int],
    rules: Optional[str] = None,
    *,
    subtract: Optional[Sequence[int]] = None,
    points: Optional[Sequence[Exact]] = None,
    bonus: Optional[Exact] = None,
    score: Optional[Exact] = None,
) -> dict[str, Any]:
    """The outcome class with a score on the board, and the final scores."""
