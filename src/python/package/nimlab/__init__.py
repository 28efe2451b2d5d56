"""nimlab — exact values, closed forms and verdicts for scoring variants of Nim.

The engines of the Rust library nimlab, from Python: exact numbers as ``fractions.Fraction``,
piecewise-linear payoffs as :class:`Pwl`, tables as :class:`Table` (rows as dicts with the
command line's column names, ``to_pandas()`` when pandas is installed).

Submodules: ``scoring`` (Scoring Nim), ``octal`` (Stewart's scoring octal games),
``normal_play`` (Sprague–Grundy values of octal and hexadecimal codes), ``candy`` (Candy Nim),
``cash`` (NIM with Cash), ``mining`` (closed forms), ``claims`` (the claims checker), ``study``
(study files) and ``certificates`` (replay).

>>> import nimlab
>>> nimlab.scoring.payoff([5, 4, 2]).eval(0)
Fraction(3, 1)
"""

from ._nimlab import (
    Pwl,
    Table,
    __version__,
    candy,
    cash,
    certificates,
    claims,
    mining,
    normal_play,
    octal,
    scoring,
    study,
)

__all__ = [
    "Pwl",
    "Table",
    "__version__",
    "candy",
    "cash",
    "certificates",
    "claims",
    "mining",
    "normal_play",
    "octal",
    "scoring",
    "study",
]
