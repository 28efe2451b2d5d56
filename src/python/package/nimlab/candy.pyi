"""Candy Nim (Mani et al.): V = N_L − N_W, families, strategies and allocations."""

from typing import Any, Optional, Sequence, Union

from . import IntRange, Table

def value(heaps: Sequence[int]) -> dict[str, Any]:
    """V, N_L, N_W of a position with an optimal line (a Table under "line")."""
def table(heaps: int, max_heap: int) -> Table:
    """Every P-position of `heaps` heaps of 1 to `max_heap` candies with V, N_L, N_W."""
def family(family: str, ranges: dict[str, IntRange]) -> Table:
    """An affine family such as "31, 32m, 32m+31" with V, N_L, N_W."""
def strategy(
    name: str,
    heaps: Sequence[int],
    f: Optional[Union[str, Sequence[int]]] = None,
    reading: str = "largest",
) -> dict[str, Any]:
    """The flip-flop or fractal strategy against the optimum (turns under "turns")."""
def allocation(*, candies: Optional[int] = None, max_candies: Optional[int] = None) -> Table:
    """The least and largest N_W over the P-positions of each even N candies."""
