"""Type stubs for nimlab: exact values, closed forms and verdicts for scoring variants of Nim."""

from fractions import Fraction
from typing import Any, Iterator, Union

from . import candy as candy
from . import cash as cash
from . import certificates as certificates
from . import claims as claims
from . import mining as mining
from . import normal_play as normal_play
from . import octal as octal
from . import scoring as scoring
from . import study as study

__version__: str

#: An exact number: a Fraction, an int, or a string such as "7/2" (never a float).
Exact = Union[Fraction, int, str]
#: A parameter's range: "0..20", range(0, 21), (0, 20) with both ends included, or one int.
IntRange = Union[str, range, tuple[int, int], int]
#: A row of a table: column name to exact value (int, Fraction, str, bool, None, list, dict, Pwl).
Row = dict[str, Any]

class Pwl:
    """A piecewise-linear function of the bonus N with exact rational breakpoints."""

    def eval(self, n: Exact) -> Fraction:
        """The value at N."""
    def __call__(self, n: Exact) -> Fraction:
        """The value at N (the same as eval)."""
    def breakpoints(self) -> list[tuple[Fraction, Fraction]]:
        """The breakpoints (N, f(N)) from left to right."""
    def pieces(self) -> list[dict[str, Fraction | None]]:
        """The pieces: lo, hi (None for ∓∞), slope, intercept (f = intercept + slope·N)."""
    def tails(self) -> dict[str, Fraction]:
        """c_plus, right_slope, c_minus, left_slope."""
    def __eq__(self, other: object) -> bool: ...
    def _repr_latex_(self) -> str: ...

class Table:
    """A table of exact values with the command line's column names."""

    @property
    def columns(self) -> list[str]:
        """The column names, as the CLI's CSV header has them."""
    def rows(self) -> list[Row]:
        """Every row as a dict."""
    def column(self, name: str) -> list[Any]:
        """The values of one column, top to bottom (KeyError naming the columns if absent)."""
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Row: ...
    def __iter__(self) -> Iterator[Row]: ...
    def to_pandas(self) -> Any:
        """A pandas.DataFrame with the same columns (pandas is optional: nimlab[pandas])."""
    def to_csv(self) -> str:
        """The table as CSV, byte for byte what --format csv prints."""
    def render(self, format: str = "text") -> str:
        """The table as text, csv, json or md."""
    def _repr_html_(self) -> str: ...
