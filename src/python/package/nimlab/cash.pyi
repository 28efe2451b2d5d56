"""NIM with Cash (Gasarch et al.): winners, thresholds, forms and win conditions."""

from typing import Any, Optional, Sequence

from . import IntRange, Table

def winner(
    set: Sequence[int], n: int, d: int, e: int, classify: bool = False
) -> dict[str, Any]:
    """Who wins (n; d, e) and why (with the thresholds and standings when classify)."""
def thresholds(set: Sequence[int], max_n: int, defined_only: bool = False) -> Table:
    """f^I, f^II, g^I, g^II by n, with the true least thresholds unless defined_only."""
def table(set: Sequence[int], max_n: int) -> Table:
    """Every state (n; d, e) with n, d, e ≤ max_n and its winner."""
def forms(set: Sequence[int], max_n: int = 2000) -> Table:
    """The certified closed forms of f^I and f^II, one row per residue line."""
def condition(set: Sequence[int], start_n: int = 200) -> dict[str, Any]:
    """The win condition on A-critical states, PROVEN: text and parts (a Table)."""
def survey(
    elements: IntRange, sizes: Optional[IntRange] = None, max_n: int = 400
) -> Table:
    """Every move set A ⊆ elements with its periods, forms and win condition's status."""
