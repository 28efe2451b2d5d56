"""The Python binding against the command line: the same pieces, exact Fractions, ValueError.

Run after `pip install .` (with pytest) from the repository root; the command line is the
release binary `target/release/nimlab` (or `$NIMLAB_BIN`).
"""

import csv
import io
import os
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

import nimlab

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("NIMLAB_BIN", str(ROOT / "target" / "release" / "nimlab"))


def cli(*args):
    """Runs the command line and returns its standard output."""
    done = subprocess.run([BIN, *args], capture_output=True, text=True, check=True,
                          env={**os.environ, "NIMLAB_PROGRESS": "never"})
    return done.stdout


def exact(cell):
    return None if cell == "" else Fraction(cell)


@pytest.mark.parametrize("heaps", [[5, 4, 2], [3, 2, 1], [8, 7, 1], [6, 4, 1], [2, 2]])
def test_pieces_are_the_command_lines(heaps):
    f = nimlab.scoring.payoff(heaps)
    rows = list(csv.DictReader(io.StringIO(cli("scoring", "payoff", *map(str, heaps),
                                               "--format", "csv"))))
    # The DataFrame-ready dicts carry the CSV's column names and its exact values.
    assert [list(p) for p in f.pieces()] == [list(r) for r in rows]
    assert f.pieces() == [{k: exact(v) for k, v in r.items()} for r in rows]


def test_repr_prints_the_command_lines_pieces():
    text = cli("scoring", "payoff", "5", "4", "2").splitlines()
    table = text[1:text.index(next(l for l in text if l.startswith("breakpoints")))]
    shown = repr(nimlab.scoring.payoff([5, 4, 2])).splitlines()[1:]
    assert [l.rstrip() for l in shown] == [l.rstrip() for l in table]


def test_fractions_round_trip_exactly():
    f = nimlab.scoring.payoff([5, 4, 2])
    for n in [Fraction(7, 2), Fraction(-13, 3), Fraction(1, 1000003), 5, "-9/4"]:
        value = f.eval(n)
        assert isinstance(value, Fraction)
        # The piece containing n gives the same exact value.
        q = Fraction(n)
        piece = next(p for p in f.pieces()
                     if (p["lo"] is None or p["lo"] <= q) and (p["hi"] is None or q <= p["hi"]))
        assert value == piece["intercept"] + piece["slope"] * q
        assert f(n) == value
    grid = cli("scoring", "payoff", "5", "4", "2", "--bonus=-3..3", "--format", "csv")
    for row in csv.DictReader(io.StringIO(grid)):
        assert f.eval(Fraction(row["bonus"])) == Fraction(row["payoff"])
    tails = f.tails()
    assert (tails["c_plus"], tails["c_minus"]) == (Fraction(-3), Fraction(-3))


def test_bad_input_raises_value_error_naming_the_value():
    with pytest.raises(ValueError, match="heap -1"):
        nimlab.scoring.payoff([5, -1])
    f = nimlab.scoring.payoff([3, 2, 1])
    with pytest.raises(ValueError, match="0.5 is a float"):
        f.eval(0.5)
    with pytest.raises(ValueError, match="'7/x'"):
        f.eval("7/x")


def test_notebooks_get_latex():
    latex = nimlab.scoring.payoff([5, 4, 2])._repr_latex_()
    assert latex.startswith("$$f_N(5,4,2) = \\begin{cases}")
    assert "-3 - N & N \\le -4" in latex


def test_normal_play_is_the_command_lines():
    g = nimlab.normal_play.grundy("0.77", 120)
    rows = list(csv.DictReader(io.StringIO(cli("octal", "grundy", "0.77", "--max-heap", "120",
                                               "--format", "csv"))))
    assert g == [int(r["grundy"]) for r in rows]
    p = nimlab.normal_play.period("0.77")
    record = next(csv.DictReader(io.StringIO(cli("octal", "period", "--normal-play", "--rules",
                                                 "0.77", "--format", "csv"))))
    assert (p["preperiod"], p["period"], p["saltus"], p["status"]) == (71, 12, 0, "PROVEN")
    assert str(p["last_exceptional"]) == record["last_exceptional"]
    assert nimlab.normal_play.period("0.3F", max_heap=300)["saltus"] == 3
    with pytest.raises(ValueError, match="`0.7G`"):
        nimlab.normal_play.grundy("0.7G", 5)
