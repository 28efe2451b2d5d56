"""Every engine, the miner, the claims checker, studies and certificates from Python, against
the command line: the same tables byte for byte (so the same column names and exact values),
ValueError naming the bad value, and Ctrl-C raising KeyboardInterrupt during a long solve.

Run after `pip install .` (with pytest and pandas) from the repository root; the command line
is the release binary `target/release/nimlab` (or `$NIMLAB_BIN`).
"""

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

import nimlab

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("NIMLAB_BIN", str(ROOT / "target" / "release" / "nimlab"))


def cli(*args):
    """Runs the command line and returns its standard output."""
    done = subprocess.run([BIN, *args], capture_output=True, text=True, check=True, cwd=ROOT,
                          env={**os.environ, "NIMLAB_PROGRESS": "never"})
    return done.stdout


# Each pair: the Python call, and the command line printing the same table as CSV.
TABLES = [
    (lambda: nimlab.scoring.moves([5, 4, 2]), ["scoring", "moves", "5", "4", "2"]),
    (lambda: nimlab.scoring.moves([5, 4, 2], bonus=Fraction(7, 2), all=True),
     ["scoring", "moves", "5", "4", "2", "--bonus", "7/2", "--all"]),
    (lambda: nimlab.scoring.line([5, 4, 2], 3)["plies"],
     ["scoring", "line", "5", "4", "2", "--bonus", "3"]),
    (lambda: nimlab.scoring.family("2k+1, 2k, 1", {"k": "1..6"}),
     ["scoring", "family", "2k+1,2k,1", "--k", "1..6"]),
    (lambda: nimlab.scoring.family("x, 2k, 1", {"k": range(1, 4), "x": (8, 10)}, bonus="-8..8"),
     ["scoring", "family", "x,2k,1", "--k", "1..3", "--x", "8..10", "--bonus=-8..8"]),
    (lambda: nimlab.octal.values("0.07", max_heap=40),
     ["octal", "values", "--rules", "0.07", "--max-heap", "40"]),
    (lambda: nimlab.octal.values(subtract=[2, 3], points=[1, "1/2"], max_heap=30, bonus=-2),
     ["octal", "values", "--subtract", "2,3", "--points", "1,1/2", "--max-heap", "30",
      "--bonus=-2"]),
    (lambda: nimlab.candy.value([31, 42, 53])["line"], ["candy", "value", "31", "42", "53"]),
    (lambda: nimlab.candy.table(3, 8), ["candy", "table", "--heaps", "3", "--max-heap", "8"]),
    (lambda: nimlab.candy.family("31, 32m, 32m+31", {"m": "1..6"}),
     ["candy", "family", "31,32m,32m+31", "--m", "1..6"]),
    (lambda: nimlab.candy.strategy("fractal", [7, 8, 15])["turns"],
     ["candy", "strategy", "fractal", "7", "8", "15"]),
    (lambda: nimlab.candy.allocation(max_candies=12),
     ["candy", "allocate", "--max-candies", "12"]),
    (lambda: nimlab.cash.thresholds([1, 4], 60),
     ["cash", "thresholds", "--set", "1,4", "--max-n", "60"]),
    (lambda: nimlab.cash.thresholds([3, 5, 6], 100, defined_only=True),
     ["cash", "thresholds", "--set", "3,5,6", "--max-n", "100", "--defined-only"]),
    (lambda: nimlab.cash.table([1, 3], 5), ["cash", "table", "--set", "1,3", "--max-n", "5"]),
    (lambda: nimlab.cash.forms([1, 3, 4]), ["mine", "cash", "--set", "1,3,4"]),
    (lambda: nimlab.cash.condition([1, 2])["parts"], ["cash", "condition", "--set", "1,2"]),
    (lambda: nimlab.cash.survey("1..4", max_n=200),
     ["cash", "survey", "--set-subsets-of", "1..4", "--max-n", "200"]),
    (lambda: nimlab.mining.fit_family("candy", "7, 8m, 8m+7", {"m": "1..12"})["forms"],
     ["mine", "family", "candy", "7,8m,8m+7", "--m", "1..12"]),
]


@pytest.mark.parametrize("call,args", TABLES, ids=[" ".join(a[:3]) for _, a in TABLES])
def test_tables_are_the_command_lines(call, args):
    table = call()
    assert table.to_csv() == cli(*args, "--format", "csv")
    # The rows' keys are the CSV header.
    header = cli(*args, "--format", "csv").splitlines()[0].split(",")
    assert table.columns == header
    assert all(list(row) == header for row in table)


def test_tables_render_as_the_command_line_in_every_format():
    t = nimlab.cash.thresholds([1, 4], 12)
    for fmt in ["text", "json", "md"]:
        assert t.render(fmt) == cli("cash", "thresholds", "--set", "1,4", "--max-n", "12",
                                    "--format", fmt)
    with pytest.raises(ValueError, match="xml"):
        t.render("xml")


@pytest.mark.parametrize("call,args", [
    (lambda: nimlab.scoring.limits([5, 4, 2]), ["scoring", "limits", "5", "4", "2"]),
    (lambda: nimlab.octal.period(subtract=[1, 3, 4]),
     ["octal", "period", "--subtract", "1,3,4"]),
    (lambda: nimlab.octal.value([7, 5], "0.26"), ["octal", "value", "--rules", "0.26", "7", "5"]),
    (lambda: nimlab.octal.value([13], subtract=[4, 5], payoff=True),
     ["octal", "value", "--subtract", "4,5", "13", "--payoff"]),
    (lambda: nimlab.octal.outcome([7, 5], "0.26", score=3),
     ["octal", "outcome", "--rules", "0.26", "7", "5", "--score", "3"]),
    (lambda: nimlab.normal_play.period("0.07"),
     ["octal", "period", "--normal-play", "--rules", "0.07"]),
    (lambda: nimlab.candy.value([1, 5, 16, 20]), ["candy", "value", "1", "5", "16", "20"]),
    (lambda: nimlab.candy.strategy("flip-flop", [7, 8, 15]),
     ["candy", "strategy", "flip-flop", "7", "8", "15"]),
    (lambda: nimlab.cash.winner([1, 3, 4], 14, 9, 9),
     ["cash", "winner", "--set", "1,3,4", "14", "9", "9"]),
    (lambda: nimlab.cash.winner([3, 5, 6, 10, 11], 10**30, 40, 37, classify=True),
     ["cash", "classify", "--set", "3,5,6,10,11", str(10**30), "40", "37"]),
])
def test_records_are_the_command_lines(call, args):
    """A one-row command as a dict: every value is the CLI's, exactly (compared with its JSON,
    where rationals are strings and nested tables arrays of objects)."""
    got = call()
    want = json.loads(cli(*args, "--format", "json"))[0]
    assert set(got) == set(want)
    for key, value in got.items():
        if key in ("n", "d", "e") and args[0] == "cash":
            # Numbers of any size are text in the CLI's table, ints in Python.
            assert str(value) == want[key]
        elif isinstance(value, nimlab.Pwl):
            # A payoff is a record of its knots and tail slopes in JSON.
            pieces = value.pieces()
            assert want[key]["left_slope"] == str(pieces[0]["slope"])
            assert want[key]["right_slope"] == str(pieces[-1]["slope"])
            assert [[str(x), str(y)] for x, y in value.breakpoints()] == want[key]["knots"]
        else:
            assert as_json(value) == want[key], key


def as_json(value):
    """A Python value as the CLI's JSON writes it."""
    if isinstance(value, nimlab.Table):
        return json.loads(value.render("json"))
    if isinstance(value, nimlab.Pwl):
        return value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    return value


def test_payoffs_table_matches_single_payoffs():
    t = nimlab.scoring.payoffs([[3, 2, 1], [5, 4, 2]], bonus="-3..3", step=Fraction(1, 2))
    assert t.columns == ["position", "bonus", "payoff"]
    assert len(t) == 2 * 13
    for row in t:
        assert nimlab.scoring.payoff(row["position"]).eval(row["bonus"]) == row["payoff"]
    # Without a grid, the payoff column holds the functions themselves.
    t = nimlab.scoring.payoffs([[5, 4, 2]])
    assert t[0]["payoff"] == nimlab.scoring.payoff([5, 4, 2])


def test_grundy_and_values_columns():
    assert nimlab.normal_play.grundy("0.77", 12) == [
        int(r["grundy"]) for r in csv.DictReader(io.StringIO(
            cli("octal", "grundy", "0.77", "--max-heap", "12", "--format", "csv")))]
    values = nimlab.octal.values("0.07", max_heap=10).column("value")
    assert all(isinstance(v, Fraction) for v in values)


def test_mining_fit_matches_mine_sequence(tmp_path):
    data = tmp_path / "seq.csv"
    values = [Fraction(n * n % 7, 3) if n < 5 else Fraction(3 * (n // 2) + n % 2, 2)
              for n in range(60)]
    data.write_text("n,a\n" + "".join(f"{n},{v}\n" for n, v in enumerate(values)))
    rows = list(csv.DictReader(io.StringIO(cli(
        "mine", "sequence", "--csv", str(data), "--index", "n", "--value", "a",
        "--format", "csv"))))
    fit = nimlab.mining.fit(values)
    assert fit["status"] == rows[0]["status"] == "OBSERVED"
    assert fit["period"] == int(rows[0]["period"])
    assert fit["preperiod"] == int(rows[0]["preperiod"])
    assert [(l["slope"], l["intercept"], l["formula"]) for l in fit["lines"]] == [
        (Fraction(r["slope"]), Fraction(r["intercept"]), r["formula"]) for r in rows]
    none = nimlab.mining.fit([1, 2, 4, 8, 16, 32, 64, 128])
    assert none["status"] == "NONE" and none["lines"] == []


def test_claims_check_matches_the_command_line():
    claims = ROOT / "data" / "claims" / "nim-with-cash.toml"
    rows = list(csv.DictReader(io.StringIO(cli(
        "check", str(claims), "--only", "ex-1.5-1,ex-1.11-1", "--format", "csv"))))
    findings = nimlab.claims.check(claims, only=["ex-1.5-1", "ex-1.11-1"])
    assert [(f.label, f.verdict, f.range, f.evidence) for f in findings] == [
        (r["label"], r["verdict"], r["range"], r["evidence"]) for r in rows]
    assert findings[0].as_dict()["claim"]["id"] == "ex-1.5-1"


def test_a_claim_string_is_checked_and_a_false_one_fails_with_its_counterexample():
    text = '''paper = "demo"
[[claim]]
id = "small-squares"
label = "Example"
statement = "k^2 < 50 for k in 0..10"
for = "k in 0..10"
holds = "k^2 < 50"
'''
    [finding] = nimlab.claims.check_text(text)
    assert finding.verdict == "FAILS"
    assert finding.counterexample is not None
    assert "k" in json.dumps(finding.counterexample)
    assert nimlab.claims.check_one(text, "small-squares").verdict == "FAILS"
    with pytest.raises(ValueError, match="no-such-claim"):
        nimlab.claims.check_one(text, "no-such-claim")


def test_study_tables_and_run_match_the_command_line(tmp_path):
    study = ROOT / "data" / "studies" / "example.toml"
    cli("study", "tables", str(study), "-o", str(tmp_path / "cli"), "--no-cache")
    tables = nimlab.study.tables(study)
    name = next((tmp_path / "cli").iterdir()).name
    for table_name, table in tables.items():
        assert table.to_csv() == (tmp_path / "cli" / name / f"{table_name}.csv").read_text()
    files = nimlab.study.run(study, output=tmp_path / "py")
    assert f"{name}.md" in files and f"{name}.tex" in files
    assert (tmp_path / "py" / name / f"{name}.md").read_text() == files[f"{name}.md"]


def test_certificates_replay_and_reject(tmp_path):
    cert = tmp_path / "cert.json"
    cli("mine", "cash", "--set", "1,3,4", "--certificate", str(cert))
    replayed = nimlab.certificates.replay(cert)
    assert replayed["valid"] and replayed["kind"] == "cash-thresholds"
    assert "{1,3,4}" in replayed["statement"]
    # A changed value must be caught by the replay, not trusted.
    doc = json.loads(cert.read_text())
    doc["certificate"]["base"][0][1] = "7"
    tampered = json.dumps(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(tampered)
    with pytest.raises(ValueError, match="REJECTED"):
        nimlab.certificates.replay(bad)


def test_an_induction_certificate_replays_from_python(tmp_path):
    cert = tmp_path / "cert"
    cli("prove", "data/proofs/candy-nim-block-2.toml", "--certificate", str(cert))
    replayed = nimlab.certificates.replay(cert)
    assert replayed["kind"] == "induction" and "cvc5" in replayed["statement"]
    assert "z3" in nimlab.certificates.replay(cert, solver="z3")["statement"]
    smt = sorted(cert.glob("*.smt2"))[0]
    smt.write_text(smt.read_text().replace("(assert", "(assert true)\n(assert", 1))
    with pytest.raises(ValueError, match="REJECTED"):
        nimlab.certificates.replay(cert)


def test_dataframes_have_the_command_lines_columns():
    pandas = pytest.importorskip("pandas")
    t = nimlab.cash.thresholds([1, 4], 20)
    df = t.to_pandas()
    assert isinstance(df, pandas.DataFrame)
    assert list(df.columns) == cli("cash", "thresholds", "--set", "1,4", "--max-n", "20",
                                   "--format", "csv").splitlines()[0].split(",")
    assert len(df) == 21
    # Exact values stay exact: rationals are Fractions, never floats.
    df = nimlab.scoring.payoffs([[5, 4, 2]], bonus="0..3", step=Fraction(1, 3)).to_pandas()
    assert all(isinstance(v, Fraction) for v in df["payoff"])
    assert df["payoff"].iloc[1] == nimlab.scoring.payoff([5, 4, 2]).eval(Fraction(1, 3))


@pytest.mark.parametrize("call,named", [
    (lambda: nimlab.scoring.moves([5, -4]), "-4"),
    (lambda: nimlab.scoring.family("2k+1, 2k, 1", {"k": "5..1"}), "5..1"),
    (lambda: nimlab.scoring.family("2k+1, 2q", {"k": "1..3"}), "q"),
    (lambda: nimlab.scoring.payoffs([[3, 2]], bonus="0..x"), "0..x"),
    (lambda: nimlab.scoring.line([3, 2], 0.5), "0.5"),
    (lambda: nimlab.octal.values("0.9", max_heap=10), "9"),
    (lambda: nimlab.octal.values(max_heap=10), "rules"),
    (lambda: nimlab.normal_play.grundy("0.7G", 10), "G"),
    (lambda: nimlab.candy.strategy("zigzag", [7, 8, 15]), "zigzag"),
    (lambda: nimlab.candy.strategy("fractal", [7, 8, 15], f=[1, 5]), "f(2) = 5"),
    (lambda: nimlab.candy.allocation(candies=7), "7"),
    (lambda: nimlab.candy.table(1, 5), "heaps = 1"),
    (lambda: nimlab.cash.winner([1, 2], 10, -3, 5), "d = -3"),
    (lambda: nimlab.cash.thresholds([], 10), "empty"),
    (lambda: nimlab.cash.survey("1..40"), "1..40"),
    (lambda: nimlab.mining.fit([1, 2.5]), "2.5"),
    (lambda: nimlab.mining.fit_family("chess", "k, 1", {"k": "1..3"}), "chess"),
    (lambda: nimlab.claims.check("no/such/file.toml"), "no/such/file.toml"),
    (lambda: nimlab.claims.check_text("paper = 3"), "paper"),
    (lambda: nimlab.certificates.replay("no/such/cert.json"), "no/such/cert.json"),
])
def test_bad_input_raises_value_error_naming_the_value(call, named):
    with pytest.raises(ValueError) as err:
        call()
    assert named in str(err.value)


def test_ctrl_c_interrupts_a_long_solve():
    """SIGINT during a minutes-long period search raises KeyboardInterrupt within a second.

    0.06 has no sparse space (the best split leaves over a third of its heaps rare), so its
    search to the default 2^20 heaps takes minutes; 0.16, used before, now ends in a second."""
    script = (
        "import sys, time, nimlab\n"
        "print('started', flush=True)\n"
        "t = time.monotonic()\n"
        "try:\n"
        "    nimlab.normal_play.period('0.06')\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', round(time.monotonic() - t, 1), flush=True)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.5)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert out.startswith("interrupted"), out
    assert time.monotonic() - sent < 5
