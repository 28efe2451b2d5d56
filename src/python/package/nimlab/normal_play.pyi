"""Normal play: Sprague–Grundy values of octal and hexadecimal codes, and their periods."""

from typing import Any, Optional

def grundy(code: str, max_heap: int) -> list[int]:
    """g(0), …, g(max_heap) of a code such as "0.77", "0.3F" or "{4,5}"."""
def period(code: str, max_heap: Optional[int] = None) -> dict[str, Any]:
    """The least preperiod and period (and saltus) of the Grundy values."""
