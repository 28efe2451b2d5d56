//! NIM with Cash (Gasarch et al.): structural claims checked in Rust.
//!
//! - `cash.wins_by`: who wins a listed state and *how* (normally, miserly; Def 1.10), by the win
//!   table and an exhaustive search over the other player's replies;
//! - `cash.appendix`: a printed table f(pk + i) = B_i k + c_i against Def 2.3, for every k;
//! - `cash.not_cash_periodic`: "A is not cash-periodic, even with an offset";
//! - `cash.closed_forms`: §9's conjectures about closed forms and win conditions for every A.
//!
//! Everything "for all n" rests on [`threshold_forms`]' certificate, replayed here with
//! [`replay_threshold_certificate`] before it is used: the certified forms f(Pk + r) = B_r k + c_r
//! hold for every n ≥ the certificate's start, and below it the values of [`thresholds`] (Def 2.3)
//! are compared directly. A statement about every finite A is never PROVEN here: on the listed
//! sets it HOLDS when a certificate settles each of them ("each instance proven"), is OPEN when
//! one is settled by nothing (or the statement is not precise enough to check), or FAILS with a
//! counterexample.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{Builtin, BuiltinRun, ambiguous, described, finding};
use crate::claims::finding::{
    EvidenceTable, Finding, InstanceProofs, Phrase, Proof, RangePart, Reading, Sentence, Style,
    VerdictKind,
};
use crate::claims::functions::cash::CashCache;
use crate::claims::value::Value;
use crate::error::{Error, Result};
use crate::games::cash::{
    Amount, CashPeriodicity, CashSet, CashTable, ThresholdForms, Thresholds, WinCondition, Winner,
    corresponding_state, g_thresholds, replay_threshold_certificate, threshold_forms, thresholds,
};
use crate::num::Q;
use crate::tables::cash::THRESHOLD_MATH as SEQ_MATH;
use crate::tables::mined::affine_math;

/// The builtins of this paper.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "cash.wins_by",
        about: "Def 1.10: who wins listed states (n; d, e) and how — \"any\", \"normally\", \
                \"miserly\" or \"miserly_or_normally\" (args set, cases)",
        expr_args: &[],
        run: wins_by,
    },
    Builtin {
        name: "cash.appendix",
        about: "a printed table f^I(pk + i), f^II(pk + i) = B_i k + c_i (k ≥ from_k) against \
                Def 2.3 for every k: direct below the certified forms, symbolic beyond \
                (args set, period, from_k, f1, f2)",
        expr_args: &[],
        run: appendix,
    },
    Builtin {
        name: "cash.not_cash_periodic",
        about: "A is not cash-periodic, even with an offset: a C^I or C^II growing along a \
                residue class of the certified forms, under both readings of C^I (args set)",
        expr_args: &[],
        run: not_cash_periodic,
    },
    Builtin {
        name: "cash.closed_forms",
        about: "§9: closed forms of f^I, f^II and win conditions for every finite A, judged on \
                listed sets through certified forms (args claim = one_slope_from_zero | \
                eventually_per_residue | win_condition, sets, max_n; for win_condition also \
                critical_n, deep_critical_n, table_in = the label of a claim that prints the table, \
                per_set = true when each set is an instance of the statement)",
        expr_args: &[],
        run: closed_forms,
    },
];

/// Memory a builtin may spend on one set's thresholds and fits (claim files carry no
/// --memory-limit; the win tables of `critical_states` use the same cap).
const BUILTIN_BYTES: u64 = 1 << 30;

/// Data behind the fits when `args.max_n` is not given (what `nimlab cash` uses for huge n).
const DEFAULT_MAX_N: i64 = 4000;

// ------------------------------------------------------------------------------------------------
// Arguments

fn set_of(v: &toml::Value, what: &str) -> Result<CashSet> {
    let items = v
        .as_array()
        .ok_or_else(|| Error::invalid(format!("{what} must be a list of move sizes")))?;
    let elements = items
        .iter()
        .map(|x| {
            x.as_integer()
                .and_then(|i| Amount::try_from(i).ok())
                .ok_or_else(|| Error::invalid(format!("{what}: {x} is not a move size ≥ 1")))
        })
        .collect::<Result<Vec<_>>>()?;
    CashSet::new(elements).map_err(|e| Error::invalid(format!("{what}: {e}")))
}

fn set_arg(run: &BuiltinRun<'_, '_>) -> Result<CashSet> {
    let v = run
        .args
        .get("set")
        .ok_or_else(|| Error::invalid("`args.set` (the move set A) must be given"))?;
    set_of(v, "`args.set`")
}

fn sets_arg(run: &BuiltinRun<'_, '_>) -> Result<Vec<CashSet>> {
    let items = run
        .args
        .get("sets")
        .and_then(|v| v.as_array())
        .filter(|a| !a.is_empty())
        .ok_or_else(|| Error::invalid("`args.sets` must be a non-empty list of move sets"))?;
    items
        .iter()
        .enumerate()
        .map(|(j, v)| set_of(v, &format!("`args.sets[{j}]`")))
        .collect()
}

fn amount_arg(run: &BuiltinRun<'_, '_>, key: &str, default: i64) -> Result<Amount> {
    let v = run.int_or(key, default)?;
    Amount::try_from(v).map_err(|_| Error::invalid(format!("`args.{key}` = {v} must be ≥ 0")))
}

fn max_n_arg(run: &BuiltinRun<'_, '_>) -> Result<Amount> {
    let n = amount_arg(run, "max_n", DEFAULT_MAX_N)?;
    if n < 16 {
        return Err(Error::invalid(format!(
            "`args.max_n` = {n} is too little data to fit closed forms"
        )));
    }
    Ok(n)
}

/// `p` pairs [B_i, c_i] (whole numbers, or rationals written "1/2").
fn lines_arg(run: &BuiltinRun<'_, '_>, key: &str, p: usize) -> Result<Vec<(Q, Q)>> {
    let bad = || {
        Error::invalid(format!(
            "`args.{key}` must list {p} pairs [B_i, c_i], one per residue i = 0..{}",
            p - 1
        ))
    };
    let items = run
        .args
        .get(key)
        .and_then(|v| v.as_array())
        .ok_or_else(bad)?;
    if items.len() != p {
        return Err(bad());
    }
    let q = |v: &toml::Value| -> Result<Q> {
        match v {
            toml::Value::Integer(i) => Ok(Q::int(*i)),
            toml::Value::String(s) => Ok(s.parse::<Q>()?),
            _ => Err(bad()),
        }
    };
    items
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([b, c]) => Ok((q(b)?, q(c)?)),
            _ => Err(bad()),
        })
        .collect()
}

// ------------------------------------------------------------------------------------------------
// Certified forms

/// The names of the two threshold sequences.
const SEQ: [&str; 2] = ["f^I", "f^II"];

/// Closed forms of f^I, f^II whose certificate has been replayed, with the values of Def 2.3.
struct Certified {
    forms: ThresholdForms,
    /// f^I, f^II, W for n ≤ at least the fitting range.
    th: Thresholds,
    /// The common period P of the certificate.
    period: usize,
    /// The forms hold for every n ≥ from.
    from: Amount,
}

impl Certified {
    /// Fits on n ≤ max_n, replays the certificate, and tabulates Def 2.3 up to `upto` too.
    fn new(set: &CashSet, max_n: Amount) -> Result<Certified> {
        // Refused before any work: the fit keeps every n ≤ max_n as exact rationals.
        crate::games::cash::check_threshold_budget(set, max_n, true, BUILTIN_BYTES)
            .map_err(|e| Error::invalid(format!("`args.max_n` = {max_n}: {e}")))?;
        let forms = threshold_forms(set, max_n)?;
        replay_threshold_certificate(set, &forms.certificate).map_err(|e| {
            Error::invalid(format!(
                "the certificate for A = {set} does not replay: {e}"
            ))
        })?;
        let from = Amount::try_from(forms.certificate.from)
            .map_err(|_| Error::invalid("the certificate starts below 0"))?;
        let period = forms.certificate.recurrence.period;
        let th = thresholds(set, max_n)?;
        let c = Certified {
            forms,
            th,
            period,
            from,
        };
        // The replay checks the base window and the certificate's own rules, not that those
        // rules are Def 2.3's for A: the forms must also equal the data on the whole fit.
        for (seq, name) in SEQ.iter().enumerate() {
            if let Some(n) = (from..=max_n).find(|&n| c.formula_at(seq, n) != c.value(seq, n)) {
                return Err(Error::invalid(format!(
                    "the certified forms for A = {set} give {name}({n}) = {}, Def 2.3 gives {}",
                    c.formula_at(seq, n),
                    c.value(seq, n)
                )));
            }
        }
        Ok(c)
    }

    /// Extends the table of Def 2.3 to at least n.
    fn ensure(&mut self, set: &CashSet, n: Amount) -> Result<()> {
        if (self.th.f1.len() as Amount) <= n {
            self.th = thresholds(set, n)?;
        }
        Ok(())
    }

    /// f^I (seq 0) or f^II (seq 1) at n, from Def 2.3 (n must be tabulated).
    fn value(&self, seq: usize, n: Amount) -> Q {
        let v = if seq == 0 {
            self.th.f1[n as usize]
        } else {
            self.th.f2[n as usize]
        };
        Q::int(v as i64)
    }

    /// The certified (slope, intercept) per period P at residue r.
    fn form(&self, seq: usize, r: usize) -> &(Q, Q) {
        &self.forms.certificate.formulas[seq][r % self.period]
    }

    /// The certified formula at any n (its value, true for n ≥ from).
    fn formula_at(&self, seq: usize, n: Amount) -> Q {
        let p = self.period as Amount;
        let (b, c) = self.form(seq, (n % p) as usize);
        &(b * &Q::int((n / p) as i64)) + c
    }

    /// The certified line of f(m·j + r) in j, for a modulus m that P divides and r < m.
    fn line_mod(&self, seq: usize, m: usize, r: usize) -> (Q, Q) {
        let (b, c) = self.form(seq, r);
        let per = Q::int((m / self.period) as i64);
        (b * &per, &(b * &Q::int((r / self.period) as i64)) + c)
    }

    /// The least k ≥ 0 from which f(m·k + r) = slope·k + intercept holds for every k (the line
    /// of [`line_mod`](Self::line_mod): certified from the certificate's start, and checked on
    /// the data below it).
    fn line_from(&self, seq: usize, m: usize, r: usize) -> i64 {
        let (b, c) = self.line_mod(seq, m, r);
        let m64 = m as i64;
        let mut k = ((self.from as i64 - r as i64) + m64 - 1)
            .div_euclid(m64)
            .max(0);
        while k > 0 {
            let n = (m64 * (k - 1) + r as i64) as Amount;
            if self.value(seq, n) != &(&b * &Q::int(k - 1)) + &c {
                break;
            }
            k -= 1;
        }
        k
    }

    /// The plain-game winner W(n) for any n, through its proven period.
    fn winner(&self, n: Amount) -> Winner {
        self.forms
            .plain_winner(&self.th.winner, &num_bigint::BigUint::from(n))
    }
}

/// The move set as a value (a coordinate of a counterexample, written as a set).
fn set_value(set: &CashSet) -> Value {
    Value::List(set.elements().iter().map(|&a| Value::int(a)).collect())
}

/// What proves statements "for every n" about A: its certified forms.
fn certified_proof(c: &Certified, set: &CashSet) -> Proof {
    Proof::CertifiedForms {
        set: set.elements().to_vec(),
        period: c.period,
        from: c.from,
    }
}

fn lcm(a: usize, b: usize) -> usize {
    a / num_integer::gcd(a, b) * b
}

/// `f^{\mathrm{I}}(16k + 3) = 10k + 5` (TeX, no `$`), with `k` as the variable.
fn line_tex(seq: usize, m: usize, r: usize, line: &(Q, Q)) -> String {
    format!(
        "{}({}) = {}",
        SEQ_MATH[seq],
        affine_math(&Q::int(m as i64), &Q::int(r as i64), "k"),
        affine_math(&line.0, &line.1, "k")
    )
}

/// [`line_tex`] as a `$…$` span.
fn line_text(seq: usize, m: usize, r: usize, line: &(Q, Q)) -> String {
    format!("${}$", line_tex(seq, m, r, line))
}

/// `11 \cdot 4 + 3` (TeX): a printed line at a given k.
fn applied(b: &Q, c: &Q, k: Amount) -> String {
    let tail = if *c < Q::zero() {
        format!(" - {}", -c)
    } else {
        format!(" + {c}")
    };
    format!(r"{b} \cdot {k}{tail}")
}

/// `$f^{\mathrm{I}}$`: a threshold sequence's name as a math span.
fn seq_name(seq: usize) -> String {
    format!("${}$", SEQ_MATH[seq])
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

// ------------------------------------------------------------------------------------------------
// cash.wins_by

/// How a case says the player wins.
#[derive(Clone, Copy, PartialEq, Eq)]
enum How {
    Any,
    Normally,
    Miserly,
    MiserlyOrNormally,
}

/// Whether `named` wins (n; d, e) by removing min A on every one of its turns, whatever the other
/// player does: it loses as soon as it cannot remove a₁ on its turn; the other player loses when
/// it has no legal move. Money ≥ n is capped at n (it is never all spent).
fn wins_miserly(set: &CashSet, n: Amount, d: Amount, e: Amount, named: Winner) -> bool {
    /// (stones, named's money, other's money, named to move).
    type State = (Amount, Amount, Amount, bool);
    fn go(set: &CashSet, s: State, memo: &mut HashMap<State, bool>) -> bool {
        if let Some(&w) = memo.get(&s) {
            return w;
        }
        let (n, mine, theirs, my_turn) = s;
        let a1 = set.min();
        let w = if my_turn {
            n >= a1 && mine >= a1 && go(set, (n - a1, mine - a1, theirs, false), memo)
        } else {
            set.elements()
                .iter()
                .take_while(|&&a| a <= n && a <= theirs)
                .all(|&a| go(set, (n - a, mine, theirs - a, true), memo))
        };
        memo.insert(s, w);
        w
    }
    let (d, e) = (d.min(n), e.min(n));
    let start = match named {
        Winner::I => (n, d, e, true),
        Winner::II => (n, e, d, false),
    };
    go(set, start, &mut HashMap::new())
}

/// `cash.wins_by`: every listed case (n; d, e) is won by the stated player in the stated way.
pub fn wins_by(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let set = set_arg(run)?;
    let cases = run
        .args
        .get("cases")
        .and_then(|v| v.as_array())
        .filter(|a| !a.is_empty())
        .ok_or_else(|| {
            Error::invalid("`args.cases` must list states { n, d, e, winner = \"I\"|\"II\", how }")
        })?
        .clone();
    let mut evidence = Vec::new();
    for (j, case) in cases.iter().enumerate() {
        let what = format!("`args.cases[{j}]`");
        let t = case
            .as_table()
            .ok_or_else(|| Error::invalid(format!("{what} must be a table")))?;
        let num = |k: &str| -> Result<Amount> {
            t.get(k)
                .and_then(toml::Value::as_integer)
                .and_then(|v| Amount::try_from(v).ok())
                .ok_or_else(|| Error::invalid(format!("{what}.{k} must be a whole number ≥ 0")))
        };
        let (n, d, e) = (num("n")?, num("d")?, num("e")?);
        let player = match t.get("winner").and_then(toml::Value::as_str) {
            Some("I") => Winner::I,
            Some("II") => Winner::II,
            _ => {
                return Err(Error::invalid(format!(
                    "{what}.winner must be \"I\" or \"II\""
                )));
            }
        };
        let how = match t.get("how").and_then(toml::Value::as_str).unwrap_or("any") {
            "any" => How::Any,
            "normally" => How::Normally,
            "miserly" => How::Miserly,
            "miserly_or_normally" => How::MiserlyOrNormally,
            other => {
                return Err(Error::invalid(format!(
                    "{what}.how must be \"any\", \"normally\", \"miserly\" or \
                     \"miserly_or_normally\", got \"{other}\""
                )));
            }
        };
        let engines = run.ev.engines().cache::<CashCache>();
        let w = engines.cash_winner(&set, n, d, e)?;
        // Def 1.10(1): the other player's money replaced by ∞ (money ≥ n).
        let normally = match player {
            Winner::I => engines.cash_winner(&set, n, d, n)? == Winner::I,
            Winner::II => engines.cash_winner(&set, n, n, e)? == Winner::II,
        } && w == player;
        let miserly = wins_miserly(&set, n, d, e, player);
        if miserly && w != player {
            return Err(Error::invalid(format!(
                "engine inconsistency: {player} wins ({n}; {d}, {e}) miserly, but the win \
                 table says {w} wins"
            )));
        }
        let mark = |b: bool| if b { "✓" } else { "✗" };
        let state = format!("({n}; {d}, {e})");
        let ways: Vec<&str> = [(normally, "normally"), (miserly, "miserly")]
            .iter()
            .filter(|(b, _)| *b)
            .map(|(_, s)| *s)
            .collect();
        let line = format!(
            "${state}$: $W^{{\\mathrm{{cash}}}} = \\mathrm{{{w}}}$, {player} normally {}, \
             miserly {}",
            mark(normally),
            mark(miserly)
        );
        let ok = match how {
            How::Any => w == player,
            How::Normally => normally,
            How::Miserly => miserly,
            How::MiserlyOrNormally => normally || miserly,
        };
        if !ok {
            let stated = match how {
                How::Any => String::new(),
                How::Normally => " normally".to_string(),
                How::Miserly => " miserly".to_string(),
                How::MiserlyOrNormally => " miserly or normally".to_string(),
            };
            let actual = if w == player {
                if ways.is_empty() {
                    format!("{w} wins, neither normally nor miserly")
                } else {
                    format!("{w} wins {}", ways.join(" and "))
                }
            } else {
                format!("{w} wins")
            };
            let mut said = Sentence::new()
                .text("fails at case ")
                .at("case", Value::int(j + 1), Style::Plain)
                .text(format!(" of {}, $A = {}$, (", cases.len(), set_tex(&set)))
                .at("n", Value::int(n), Style::Plain)
                .text("; ")
                .at("d", Value::int(d), Style::Plain)
                .text(", ")
                .at("e", Value::int(e), Style::Plain)
                .text("): expected ")
                .expected(
                    "the winner and how, as stated",
                    format!("{player} wins{stated}"),
                    false,
                )
                .text(", actual ")
                .actual(
                    "the winner and how ($W^{\\mathrm{cash}}$; normally, miserly)",
                    actual,
                    false,
                );
            if !evidence.is_empty() {
                said = said.text(format!("; before it: {}", evidence.join("; ")));
            }
            return Ok(said.finding(
                VerdictKind::Fails,
                described(format!(
                    "{} of $A = {}$",
                    plural(cases.len(), "listed state"),
                    set_tex(&set)
                )),
            ));
        }
        evidence.push(line);
    }
    Ok(finding(
        VerdictKind::Holds,
        described(format!(
            "{} of $A = {}$",
            plural(cases.len(), "listed state"),
            set_tex(&set)
        )),
        format!(
            "every case holds ($W^{{\\mathrm{{cash}}}}$ is the winner; normally: wins with the \
             other's money $\\infty$; miserly: always removing $a_1$ beats every reply): {}",
            evidence.join("; ")
        ),
    ))
}

// ------------------------------------------------------------------------------------------------
// cash.appendix

/// One printed entry f(pk + i) = B k + c found wrong.
struct Wrong {
    seq: usize,
    residue: usize,
    /// The first n = pk + i (k ≥ from_k) where it fails, with the printed and the true value.
    n: Amount,
    expected: Q,
    actual: Q,
}

/// Whose threshold f^I / f^II is along a residue class: the plain-game winner's (main) or the
/// other player's.
fn role(c: &Certified, seq: usize, p: usize, i: usize, from_k: Amount, upto: Amount) -> &str {
    let mut seen = BTreeSet::new();
    let mut n = p as Amount * from_k + i as Amount;
    while n <= upto {
        seen.insert(c.winner(n) == if seq == 0 { Winner::I } else { Winner::II });
        n += p as Amount;
    }
    match (seen.contains(&true), seen.contains(&false)) {
        (true, false) => "main",
        (false, true) => "other",
        _ => "mixed",
    }
}

/// A role of [`role`] in words.
fn role_words(role: &str) -> &'static str {
    match role {
        "main" => "of the plain-game winner",
        "other" => "of the plain-game loser",
        _ => "of the winner at some k, of the loser at others",
    }
}

/// `cash.appendix`: a printed table of f^I, f^II along the residues mod `period`, for k ≥
/// `from_k`, against Def 2.3 for every k.
pub fn appendix(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let set = set_arg(run)?;
    let p = usize::try_from(run.int_or("period", 0)?)
        .ok()
        .filter(|&p| (1..=10_000).contains(&p))
        .ok_or_else(|| Error::invalid("`args.period` must be a whole number in 1..10000"))?;
    let from_k = amount_arg(run, "from_k", 0)?;
    let printed = [lines_arg(run, "f1", p)?, lines_arg(run, "f2", p)?];
    let mut c = Certified::new(&set, max_n_arg(run)?)?;
    let big = lcm(p, c.period);
    let start = c.from.max(p as Amount * from_k);
    // Every residue class mod lcm(p, P) has two points in (start, end]: two lines that differ
    // agree at one k at most, so a wrong entry fails somewhere in the direct scan.
    let end = start + 2 * big as Amount;
    c.ensure(&set, end + p as Amount)?;
    let mut wrong: Vec<Wrong> = Vec::new();
    let mut right = [0usize; 2];
    let mut right_roles: BTreeMap<&str, usize> = BTreeMap::new();
    let mut wrong_roles: BTreeMap<&str, usize> = BTreeMap::new();
    // The wrong entries, one row each: a list is a table, not a sentence.
    let mut wrong_rows = EvidenceTable::new(
        "The printed entries that are wrong, each beside the certified line of Def 2.3",
        &["printed", "first wrong at", "by Def 2.3", "threshold"],
    );
    for (seq, table) in printed.iter().enumerate() {
        for (i, (b, k0)) in table.iter().enumerate() {
            let at = |k: Amount| &(b * &Q::int(k as i64)) + k0;
            // Direct: every k ≥ from_k with pk + i ≤ end.
            let mut first = None;
            let mut k = from_k;
            while p as Amount * k + i as Amount <= end {
                let n = p as Amount * k + i as Amount;
                let (x, a) = (at(k), c.value(seq, n));
                if x != a {
                    first = Some((n, x, a));
                    break;
                }
                k += 1;
            }
            // Symbolic, beyond the certificate's start: the printed line against the certified
            // one on every class mod lcm(p, P) inside residue i.
            let same = (i..big).step_by(p).all(|r| {
                let m = Q::int((big / p) as i64);
                let printed_line = (b * &m, &(b * &Q::int((r / p) as i64)) + k0);
                printed_line == c.line_mod(seq, big, r)
            });
            match (first, same) {
                (None, true) => {
                    right[seq] += 1;
                    *right_roles
                        .entry(role(&c, seq, p, i, from_k, end))
                        .or_default() += 1;
                }
                (Some((n, expected, actual)), _) => {
                    let whose = role(&c, seq, p, i, from_k, end);
                    *wrong_roles.entry(whose).or_default() += 1;
                    let certified = if big == p {
                        let line = c.line_mod(seq, p, i);
                        format!(
                            "{} ($k \\ge {}$)",
                            line_text(seq, p, i, &line),
                            c.line_from(seq, p, i)
                        )
                    } else {
                        format!(
                            "no single line: the certified forms have period ${}$",
                            c.period
                        )
                    };
                    wrong_rows.push(vec![
                        line_text(seq, p, i, &(b.clone(), k0.clone())),
                        format!("$k = {}$", (n - i as Amount) / p as Amount),
                        certified,
                        role_words(whose).to_string(),
                    ]);
                    wrong.push(Wrong {
                        seq,
                        residue: i,
                        n,
                        expected,
                        actual,
                    });
                }
                (None, false) => {
                    return Err(Error::invalid(format!(
                        "internal: {}({}k+{i}) differs from the certified line but agrees on \
                         every k up to n = {end}",
                        SEQ[seq], p
                    )));
                }
            }
        }
    }
    let range = described(format!(
        "every $k \\ge {from_k}$: directly for $n \\le {end}$, beyond by the forms of period \
         ${}$ certified for $n \\ge {}$ (certificate replayed)",
        c.period, c.from
    ));
    let roles = right_roles
        .iter()
        .map(|(r, n)| format!("{n} {}", role_words(r)))
        .collect::<Vec<_>>()
        .join(", ");
    let roles = format!("thresholds {roles}");
    // The printed table itself, one row per residue, so the statement need not list 2p lines.
    let period_k = affine_math(&Q::int(p as i64), &Q::zero(), "k");
    let mut printed_rows = EvidenceTable::new(
        format!(
            "The table as printed, for $k \\ge {from_k}$ (✗: a line that is wrong, given in the \
             next table)"
        ),
        &[
            "$i$",
            &format!("${}({period_k} + i)$", SEQ_MATH[0]),
            &format!("${}({period_k} + i)$", SEQ_MATH[1]),
        ],
    );
    for (i, lines) in printed[0].iter().zip(&printed[1]).enumerate() {
        let cell = |seq: usize| {
            let (b, k0) = if seq == 0 { lines.0 } else { lines.1 };
            let mark = if wrong.iter().any(|w| w.seq == seq && w.residue == i) {
                " ✗"
            } else {
                ""
            };
            format!("${}${mark}", affine_math(b, k0, "k"))
        };
        printed_rows.push(vec![format!("${i}$"), cell(0), cell(1)]);
    }
    if wrong.is_empty() {
        let mut f = finding(
            VerdictKind::Proven,
            range,
            format!(
                "all {} printed entries equal Def 2.3 for every $k \\ge {from_k}$ ({roles})",
                2 * p
            ),
        );
        f.tables.push(printed_rows);
        f.proof = Some(certified_proof(&c, &set));
        return Ok(f);
    }
    let first = wrong
        .iter()
        .min_by_key(|w| (w.n, w.seq))
        .expect("non-empty");
    let k = (first.n - first.residue as Amount) / p as Amount;
    let (b, k0) = &printed[first.seq][first.residue];
    let name = SEQ_MATH[first.seq];
    let mut said = Sentence::new()
        .text("fails at $n = ")
        .at("n", Value::int(first.n), Style::Plain)
        .text(format!("$ (${p}k + i$ with $k = "))
        .at("k", Value::int(k), Style::Plain)
        .text("$, $i = ")
        .at("i", Value::int(first.residue), Style::Plain)
        .text(format!(
            "$): the printed line gives ${name}(n) = {} = ",
            applied(b, k0, k)
        ))
        .expected(
            format!("${name}(n)$ as printed, ${}$", applied(b, k0, k)),
            first.expected.clone(),
            false,
        )
        .text("$, Def 2.3 gives $")
        .actual(
            format!("${name}(n)$ by Def 2.3"),
            first.actual.clone(),
            false,
        )
        .text("$");
    // One sentence; the wrong entries are the table's rows. The whole certified table is not
    // repeated here: a report shows it beside the printed one.
    let wrong_roles = wrong_roles
        .iter()
        .map(|(r, n)| format!("{n} {}", role_words(r)))
        .collect::<Vec<_>>()
        .join(", ");
    said = said.text(format!(
        "; {} of {} entries are wrong (thresholds {wrong_roles}; the table below), the other {} \
         hold for every $k \\ge {from_k}$ ({roles})",
        wrong.len(),
        2 * p,
        right[0] + right[1]
    ));
    if big == p {
        let from = (0..2)
            .flat_map(|s| (0..p).map(move |i| (s, i)))
            .map(|(s, i)| c.line_from(s, p, i))
            .max()
            .unwrap_or(0);
        said = said.text(format!(
            "; the certified table, line by line, holds for every $k \\ge {from}$ (PROVEN)"
        ));
    }
    let mut f = said.finding(VerdictKind::Fails, range);
    f.tables.push(printed_rows);
    f.tables.push(wrong_rows);
    f.proof = Some(certified_proof(&c, &set));
    Ok(f)
}

// ------------------------------------------------------------------------------------------------
// cash.not_cash_periodic

/// The readings of $C^{\mathrm I}$: as Lemma 4.5 needs it, and as printed in Def 4.4(1) (the
/// statement exactly as printed).
const READINGS: [(&str, bool); 2] = [
    (
        r"$C^{\mathrm I}$ as Lemma 4.5 needs it, $f^{\mathrm I}(n) - f^{\mathrm{II}}(n - a) - a$",
        false,
    ),
    (
        r"$C^{\mathrm I}$ as printed in Def 4.4(1), $f^{\mathrm I}(n) - f^{\mathrm I}(n - a) + a$",
        true,
    ),
];

/// A C that grows along a residue class of the certified forms.
struct Witness {
    which: &'static str,
    residue: usize,
    a: Amount,
    growth: Q,
}

/// The first (residue, a) at which `c_of` has a non-zero slope per period P.
fn witness(
    c: &Certified,
    set: &CashSet,
    which: &'static str,
    slope: impl Fn(usize, usize) -> Q,
) -> Option<Witness> {
    let p = c.period;
    (0..p).find_map(|r| {
        set.elements().iter().find_map(|&a| {
            let back = (r + p - (a as usize % p)) % p;
            let g = slope(r, back);
            (g != Q::zero()).then_some(Witness {
                which,
                residue: r,
                a,
                growth: g,
            })
        })
    })
}

/// The value of C at n under a reading: "C^II", "C^I" (Lemma 4.5's) or "C^I printed".
fn c_value(c: &Certified, which: &str, n: Amount, a: Amount) -> Q {
    let m = n - a;
    let aq = Q::int(a as i64);
    match which {
        "C^II" => &c.value(1, n) - &c.value(0, m),
        "C^I" => &(&c.value(0, n) - &c.value(1, m)) - &aq,
        _ => &(&c.value(0, n) - &c.value(0, m)) + &aq,
    }
}

/// The witness in words: C(Pk + r, a) as a line in k, computed from the two certified lines it
/// subtracts, and its first values in the certified range.
fn witness_text(c: &Certified, w: &Witness) -> String {
    let p = c.period as Amount;
    let pi = p as i64;
    // The least k with n − a = pk + r − a in the certified range.
    let k = (c.from + w.a)
        .saturating_sub(w.residue as Amount)
        .div_ceil(p);
    let values: Vec<String> = (k..k + 4)
        .map(|k| {
            let n = p * k + w.residue as Amount;
            format!("{}", c_value(c, w.which, n, w.a))
        })
        .collect();
    // C = f_s(n) − f_t(n − a) + sign·a with n = Pk + r, n − a = P(k + shift) + back.
    let (s, t, sign, name, def) = match w.which {
        "C^II" => (
            1,
            0,
            0,
            r"C^{\mathrm{II}}",
            r"f^{\mathrm{II}}(n) - f^{\mathrm{I}}(n - a)",
        ),
        "C^I" => (
            0,
            1,
            -1,
            r"C^{\mathrm{I}}",
            r"f^{\mathrm{I}}(n) - f^{\mathrm{II}}(n - a) - a",
        ),
        _ => (
            0,
            0,
            1,
            r"C^{\mathrm{I}}_{\mathrm{printed}}",
            r"f^{\mathrm{I}}(n) - f^{\mathrm{I}}(n - a) + a",
        ),
    };
    let r = w.residue as i64;
    let a = w.a as i64;
    let back = (r - a).rem_euclid(pi);
    let shift = (r - a - back).div_euclid(pi);
    let (b1, c1) = c.form(s, r as usize).clone();
    let (b2, c2) = c.form(t, back as usize).clone();
    // f_t(P(k + shift) + back) = b2·k + (b2·shift + c2)
    let c2k = &(&b2 * &Q::int(shift)) + &c2;
    let total_b = &b1 - &b2;
    let total_c = &(&c1 - &c2k) + &Q::int(sign * a);
    let paren = |b: &Q, c: &Q| {
        let t = affine_math(b, c, "k");
        if (b.is_zero() && *c >= Q::zero()) || (c.is_zero() && *b >= Q::zero()) {
            t
        } else {
            format!("({t})")
        }
    };
    let tail = match sign {
        0 => String::new(),
        1 => format!(" + {a}"),
        _ => format!(" - {a}"),
    };
    let arg = affine_math(&Q::int(pi), &Q::int(r), "k");
    let arg_back = if shift == 0 {
        String::new()
    } else {
        format!(
            ", where ${} = {pi}({}) + {back}$",
            affine_math(&Q::int(pi), &Q::int(r - a), "k"),
            affine_math(&Q::one(), &Q::int(shift), "k")
        )
    };
    format!(
        "${name}({arg}, {a}) = {} - {}{tail} = {}$ for every $k \\ge {k}$ (${name}(n, a) = {def}$, by \
         the certified lines {} and {}{arg_back}), so it changes by ${}$ per period \
         along $n \\equiv {} \\pmod{{{p}}}$: ${}$ at $k = {k}, \\dots, {}$",
        affine_math(&b1, &c1, "k"),
        paren(&b2, &c2k),
        affine_math(&total_b, &total_c, "k"),
        line_text(s, c.period, r as usize, &(b1.clone(), c1.clone())),
        line_text(t, c.period, back as usize, &(b2.clone(), c2.clone())),
        w.growth,
        w.residue,
        values.join(", "),
        k + 3
    )
}

/// `cash.not_cash_periodic`: A is not cash-periodic (Def 4.4(3)), even with an offset.
pub fn not_cash_periodic(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let set = set_arg(run)?;
    let mut c = Certified::new(&set, max_n_arg(run)?)?;
    c.ensure(&set, c.from + 6 * c.period as Amount + set.max())?;
    let slope = |seq_n: usize, seq_back: usize| {
        let c = &c;
        move |r: usize, back: usize| &c.form(seq_n, r).0 - &c.form(seq_back, back).0
    };
    let w2 = witness(&c, &set, "C^II", slope(1, 0));
    let w1 = witness(&c, &set, "C^I", slope(0, 1));
    let w1p = witness(&c, &set, "C^I printed", slope(0, 0));
    let engine = c.forms.cash_periodicity(&set, &c.th.winner);
    // The engine's C^I is Lemma 4.5's: it must agree with the first reading.
    let engine_not = matches!(engine, CashPeriodicity::NotPeriodic { .. });
    if engine_not != (w2.is_some() || w1.is_some()) {
        return Err(Error::invalid(format!(
            "engine inconsistency for A = {set}: cash_periodicity says {engine:?}, the slopes of \
             the certified forms say otherwise"
        )));
    }
    // C(n, a) looks back to n - a, so it is read off the forms once n - max A is in their
    // range: the range starts max A past the certificate's start.
    let range = described(format!(
        "every $n \\ge {}$, so that $n - a \\ge {}$ for every $a \\in A$ (forms of period ${}$ \
         certified from $n = {}$, certificate replayed)",
        c.from + set.max(),
        c.from,
        c.period,
        c.from
    ));
    let engine_text = match &engine {
        CashPeriodicity::NotPeriodic {
            residue,
            a,
            growth,
            which,
        } => format!(
            "the engine: not cash-periodic, even with an offset (PROVEN from the forms): \
             ${}(n, {a})$ grows by ${growth}$ per period along $n \\equiv {residue} \\pmod{{{}}}$",
            cash_math(which),
            c.period
        ),
        CashPeriodicity::Periodic { period, from } => format!(
            "the engine: cash-periodic with least period ${period}$ from $n = {from}$ (PROVEN \
             from the forms)"
        ),
    };
    let why = "a $C(\\cdot, a)$ taking infinitely many values along $n \\equiv r$ beyond any \
               offset, while cash-periodicity with period $m$ from any $n_0$ leaves it at most $m$ \
               values";
    let per_reading: Vec<Option<&Witness>> =
        vec![w2.as_ref().or(w1.as_ref()), w2.as_ref().or(w1p.as_ref())];
    match (per_reading[0], per_reading[1]) {
        (Some(a), Some(b)) => {
            let mut evidence = format!(
                "$A = {}$ is not cash-periodic, even with an offset, under both readings of \
                 $C^{{\\mathrm{{I}}}}$: {}",
                set_tex(&set),
                witness_text(&c, a)
            );
            if a.which != b.which {
                evidence.push_str(&format!(
                    r" (Lemma 4.5's $C^{{\mathrm{{I}}}}$); {}",
                    witness_text(&c, b)
                ));
            } else {
                evidence.push_str(r" ($C^{\mathrm{II}}$, the same under both readings)");
            }
            // The engine's own check agrees (tested above); saying so once is enough.
            evidence.push_str(&format!("; {why} (the engine's own check agrees)"));
            let mut f = finding(VerdictKind::Proven, range, evidence);
            f.proof = Some(certified_proof(&c, &set));
            Ok(f)
        }
        (None, None) => {
            let mut f = cash_periodic(
                &set,
                "every $C^{\\mathrm{I}}(\\cdot, a)$, $C^{\\mathrm{II}}(\\cdot, a)$ is constant \
                 along the residues of the certified forms (both readings of $C^{\\mathrm{I}}$): \
                 A = ",
            )
            .text(format!(" is cash-periodic; {engine_text}"))
            .finding(VerdictKind::Fails, range);
            f.proof = Some(certified_proof(&c, &set));
            Ok(f)
        }
        _ => {
            let readings = per_reading
                .iter()
                .zip(READINGS)
                .map(|(w, (name, printed))| {
                    let mut f = match w {
                        Some(w) => finding(
                            VerdictKind::Proven,
                            range.clone(),
                            format!("not cash-periodic: {}", witness_text(&c, w)),
                        ),
                        None => Sentence::new()
                            .text("every $C$ is constant along the residues of the certified forms")
                            .then(cash_periodic(&set, ""))
                            .finding(VerdictKind::Fails, range.clone()),
                    };
                    f.proof = Some(certified_proof(&c, &set));
                    if printed {
                        Reading::as_printed(name, f)
                    } else {
                        Reading::interpreted(name, f)
                    }
                })
                .collect();
            let mut f = ambiguous(range, readings);
            f.push_text(&format!("; {engine_text}"));
            Ok(f)
        }
    }
}

/// A counterexample to "A is not cash-periodic": the set, at which every C stays constant along
/// the residues (growth 0); `lead` is written before the set, which is written only when the
/// lead is not empty.
fn cash_periodic(set: &CashSet, lead: &str) -> Sentence {
    let growth = (
        r"the growth per period of every $C^{\mathrm{I}}(\cdot, a)$, $C^{\mathrm{II}}(\cdot, a)$",
        Value::from(0),
    );
    let s = Sentence::new()
        .expected_unwritten(r"the growth per period of some $C(\cdot, a)$", "non-zero")
        .actual_unwritten(growth.0, growth.1);
    if lead.is_empty() {
        s.point_unwritten("A", set_value(set))
    } else {
        s.text(lead).at("A", set_value(set), Style::Set)
    }
}

// ------------------------------------------------------------------------------------------------
// cash.closed_forms

/// What one set says about "∃ P, B, c_i: f(Pm + i) = Bm + c_i for all m ≥ 0".
enum OneSlope {
    /// Refuted for every P: two residues with different slopes per stone (proven).
    Slopes(Sentence),
    /// Refuted for every P: one slope, but the data below the certificate leave the line.
    Preperiod(Sentence),
    /// Holds with P = the certified period (proven).
    Holds(String),
}

fn one_slope(c: &Certified, set: &CashSet, seq: usize) -> OneSlope {
    let p = c.period;
    let fit = if seq == 0 { &c.forms.f1 } else { &c.forms.f2 };
    // Per-stone slopes of the fit's own lines (the fit's period divides P).
    let q = fit.period;
    let per_stone = |r: usize| &fit.lines[r].slope / &Q::int(q as i64);
    if let Some(r) = (1..q).find(|&r| per_stone(r) != per_stone(0)) {
        let show = |r: usize| {
            let line = (fit.lines[r].slope.clone(), fit.lines[r].intercept.clone());
            // With the least k from which the line holds (known when the fit's period is P).
            let from = if q == p {
                format!(" ($k \\ge {}$)", c.line_from(seq, q, r))
            } else {
                String::new()
            };
            format!("{}{from}", line_text(seq, q, r, &line))
        };
        let mut counts: BTreeMap<Q, usize> = BTreeMap::new();
        for l in &fit.lines {
            *counts.entry(l.slope.clone()).or_default() += 1;
        }
        let counts = counts
            .iter()
            .map(|(s, n)| format!("{n} with slope ${s}$"))
            .collect::<Vec<_>>()
            .join(", ");
        return OneSlope::Slopes(
            Sentence::new()
                .text("A = ")
                .at("A", set_value(set), Style::Set)
                .text(format!(
                    ": {} but {} (slopes per period ${q}$; the ${q}$ lines of {}: {counts}); \
                     a form with period $P$ and one slope $B$ would force \
                     ${f}(n + {q}P) - {f}(n) = {q}B$ for every $n$, while the certified forms \
                     ($n \\ge {}$) give different slopes times $P$",
                    show(0),
                    show(r),
                    seq_name(seq),
                    c.from,
                    f = SEQ_MATH[seq],
                ))
                .point_unwritten("r", Value::int(r))
                .expected_unwritten(
                    format!(
                        "the slope per period ${q}$ of ${}$ on the residue $0$",
                        SEQ_MATH[seq]
                    ),
                    fit.lines[0].slope.clone(),
                )
                .actual_unwritten(
                    format!(
                        "the slope per period ${q}$ of ${}$ on the residue $r$",
                        SEQ_MATH[seq]
                    ),
                    fit.lines[r].slope.clone(),
                ),
        );
    }
    // One slope: the certified formula, extended down to n = 0, is the only candidate.
    if let Some(n) = (0..c.from).find(|&n| c.formula_at(seq, n) != c.value(seq, n)) {
        return OneSlope::Preperiod(
            Sentence::new()
                .text("A = ")
                .at("A", set_value(set), Style::Set)
                .text(format!(
                    ": {} has one slope ${}$ per stone, but ${}(",
                    seq_name(seq),
                    per_stone(0),
                    SEQ_MATH[seq]
                ))
                .at("n", Value::int(n), Style::Plain)
                .text(") = ")
                .actual(
                    format!("${}(n)$ by Def 2.3", SEQ_MATH[seq]),
                    c.value(seq, n),
                    false,
                )
                .text(format!(
                    "$ while the certified forms ($n \\ge {}$) extended to $n = {n}$ give $",
                    c.from
                ))
                .expected(
                    "the certified forms extended to $n$",
                    c.formula_at(seq, n),
                    false,
                )
                .text(
                    "$ (a form from $m = 0$ with any period $P$ would have to be their extension)",
                ),
        );
    }
    OneSlope::Holds(format!(
        "$A = {}$: {} = the certified forms of period ${p}$ from $n = 0$ (one slope ${}$ per \
         stone)",
        set_tex(set),
        seq_name(seq),
        per_stone(0)
    ))
}

/// `cash.closed_forms`: §9's statements about every finite A, on the listed sets.
pub fn closed_forms(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let claim = run.text("claim")?.to_string();
    let sets = sets_arg(run)?;
    let max_n = max_n_arg(run)?;
    let range = described(format!(
        "{} (forms fitted on $n \\le {max_n}$, certificates replayed)",
        plural(sets.len(), "listed set")
    ));
    match claim.as_str() {
        "one_slope_from_zero" => one_slope_from_zero(&sets, max_n, range),
        "eventually_per_residue" => eventually_per_residue(&sets, max_n, range),
        "win_condition" => {
            let mut critical_n = amount_arg(run, "critical_n", 100)?;
            if run.deep {
                critical_n = amount_arg(run, "deep_critical_n", critical_n as i64)?;
            }
            // A claim whose table another claim already prints names that claim instead.
            let table_in = match run.args.get("table_in") {
                None => None,
                Some(v) => Some(v.as_str().ok_or_else(|| {
                    Error::invalid("`args.table_in` must be a claim's label, as a string")
                })?),
            };
            // "For every A there is a win condition" is an existence per set, settled by each
            // set's proven condition; "there is an algorithm" is not a statement about sets one
            // at a time, so no instance settles it.
            let per_set = match run.args.get("per_set") {
                None => false,
                Some(v) => v
                    .as_bool()
                    .ok_or_else(|| Error::invalid("`args.per_set` must be true or false"))?,
            };
            win_condition(&sets, max_n, critical_n, table_in, per_set, range)
        }
        other => Err(Error::invalid(format!(
            "`args.claim` must be \"one_slope_from_zero\", \"eventually_per_residue\" or \
             \"win_condition\", got \"{other}\""
        ))),
    }
}

/// §9 Conjecture 1: FAILS at the first listed set refuted (for every P), else HOLDS (each
/// instance proven) or OPEN (a set without a certificate).
fn one_slope_from_zero(sets: &[CashSet], max_n: Amount, range: Vec<RangePart>) -> Result<Finding> {
    let certify = |set: &CashSet| Certified::new(set, max_n);
    let mut refuted = Vec::new();
    let mut holds = Vec::new();
    let mut unknown = Vec::new();
    for set in sets {
        let c = match certify(set) {
            Ok(c) => c,
            Err(e) => {
                unknown.push(format!("$A = {}$: no certified form ({e})", set_tex(set)));
                continue;
            }
        };
        let mut set_holds = Vec::new();
        let mut set_refuted = None;
        for seq in 0..2 {
            match one_slope(&c, set, seq) {
                OneSlope::Slopes(t) | OneSlope::Preperiod(t) => {
                    set_refuted.get_or_insert(t);
                }
                OneSlope::Holds(t) => set_holds.push(t),
            }
        }
        match set_refuted {
            Some(t) => refuted.push(t),
            None => holds.push(set_holds.join("; ")),
        }
    }
    let mut rest = Vec::new();
    if !holds.is_empty() {
        rest.push(format!(
            "satisfied (PROVEN) by {}: {}",
            plural(holds.len(), "set"),
            holds.join("; ")
        ));
    }
    if !unknown.is_empty() {
        rest.push(unknown.join("; "));
    }
    let rest = if rest.is_empty() {
        String::new()
    } else {
        format!("; {}", rest.join("; "))
    };
    if let Some((first, others)) = refuted.split_first() {
        let others = if others.is_empty() {
            String::new()
        } else {
            let texts: Vec<String> = others.iter().map(Sentence::to_text).collect();
            format!("; refuted likewise: {}", texts.join("; "))
        };
        return Ok(Sentence::new()
            .text("refuted for every $P$ (PROVEN): ")
            .then(first.clone())
            .text(format!("{others}{rest}"))
            .finding(VerdictKind::Fails, range));
    }
    // Each set is settled by its certificate: every set certified and satisfying it is HOLDS,
    // each instance proven; a set without a certificate leaves it OPEN.
    let instances = InstanceProofs {
        what: "listed sets A".to_string(),
        total: sets.len() as u64,
        proven: holds.len() as u64,
    };
    let mut f = Sentence::new()
        .piece(Phrase::Instances)
        .text(format!(
            ": no listed set refutes it{rest}; other sets A are not covered"
        ))
        .finding(instances.verdict(), range);
    f.instances = Some(instances);
    Ok(f)
}

/// §9 Conjecture 2: every listed set with a certified form satisfies it; HOLDS, each instance
/// proven, when every listed set has one.
fn eventually_per_residue(
    sets: &[CashSet],
    max_n: Amount,
    range: Vec<RangePart>,
) -> Result<Finding> {
    let certify = |set: &CashSet| Certified::new(set, max_n);
    let mut proven = 0usize;
    let mut unknown = 0usize;
    // One row per set: the evidence of a list is a table, not a sentence.
    let mut table = EvidenceTable::new(
        "The closed forms per set: the least period $P$ of the certified forms, where they \
         start, and their slopes per period",
        &["$A$", "period $P$", "from $n$", "slopes"],
    );
    for set in sets {
        match certify(set) {
            Ok(c) => {
                let slopes: BTreeSet<Q> = c.forms.certificate.formulas[..]
                    .iter()
                    .flatten()
                    .map(|(b, _)| b.clone())
                    .collect();
                let slopes: Vec<String> = slopes.iter().map(Q::to_string).collect();
                proven += 1;
                table.push(vec![
                    format!("${}$", set_tex(set)),
                    format!("${}$", c.period),
                    format!("${}$", c.from),
                    format!("${}$", slopes.join(", ")),
                ]);
            }
            Err(e) => {
                unknown += 1;
                table.push(vec![
                    format!("${}$", set_tex(set)),
                    format!("none certified within $n \\le {max_n}$ ({e})"),
                    String::new(),
                    String::new(),
                ]);
            }
        }
    }
    let mut evidence = format!(
        "{proven} of {} listed sets PROVEN to have such forms (certificates replayed; the \
         table below)",
        sets.len(),
    );
    if unknown > 0 {
        evidence.push_str(&format!(
            "; {unknown} without a certified form (no finite refutation exists)"
        ));
    }
    evidence.push_str("; other sets A are not covered");
    // A closed form "from some n on" is settled for a set only by a certificate.
    let instances = InstanceProofs {
        what: "listed sets A".to_string(),
        total: sets.len() as u64,
        proven: proven as u64,
    };
    let mut f = super::instances_finding(instances, evidence, range);
    f.tables.push(table);
    Ok(f)
}

/// A set as mathematics, `$\lbrace 1, 4\rbrace$`.
fn set_math(set: &CashSet) -> String {
    format!("${}$", set_tex(set))
}

/// A set as TeX (no `$`), `\lbrace 1, 4\rbrace`.
fn set_tex(set: &CashSet) -> String {
    let parts: Vec<String> = set.elements().iter().map(|a| a.to_string()).collect();
    format!(r"\lbrace {}\rbrace", parts.join(", "))
}

/// §9 Conjectures 3 and 4: what a win condition would rest on, per listed set. The sentence gives
/// the counts; the table gives each set's certified forms, what its corresponding state decides
/// on the A-critical states, and the win condition proven for every n. With `per_set` (the
/// statement is "each A has one") it HOLDS on the sets whose condition is proven, the others
/// unsettled; otherwise (an algorithm for every A) no set settles it: OPEN.
fn win_condition(
    sets: &[CashSet],
    max_n: Amount,
    crit_n: Amount,
    table_in: Option<&str>,
    per_set: bool,
    range: Vec<RangePart>,
) -> Result<Finding> {
    let certify = |set: &CashSet| Certified::new(set, max_n);
    let mut table = EvidenceTable::new(
        format!(
            "Per listed set $A$: the certified forms of $f^{{\\mathrm I}}, \
             f^{{\\mathrm{{II}}}}$; whether the corresponding state decides the winner on the \
             $A$-critical states with $n \\le {crit_n}$; the win condition on the $A$-critical \
             states proven for every $n$ (nimlab cash condition): by induction from the start \
             shown, given the paper's Theorems 2.4 and 3.7 (checked, not proven), the win table \
             deciding the smaller $n$"
        ),
        &[
            "set $A$",
            "certified forms",
            "corresponding state",
            "win condition",
        ],
    );
    // (certified forms, decides, does not, untested, no states, not cash-periodic)
    let mut counts = [0usize; 6];
    let conditions = proven_win_conditions(sets);
    for (set, (condition, condition_proven)) in sets.iter().zip(&conditions) {
        let mut condition = condition.clone();
        let c = match certify(set) {
            Ok(c) => c,
            Err(e) => {
                table.push(vec![
                    set_math(set),
                    format!("none ({e})"),
                    "–".to_string(),
                    condition,
                ]);
                continue;
            }
        };
        counts[0] += 1;
        let forms = format!("period {} from $n = {}$", c.period, c.from);
        let critical = match c.forms.cash_periodicity(set, &c.th.winner) {
            CashPeriodicity::NotPeriodic {
                which, residue, a, ..
            } => {
                counts[5] += 1;
                if !condition_proven {
                    condition =
                        "none: not cash-periodic, so no corresponding-state condition".to_string();
                }
                format!(
                    "not cash-periodic: ${}(n, {a})$ grows along $n \\equiv {residue} \\pmod{{{}}}$",
                    cash_math(which),
                    c.period
                )
            }
            CashPeriodicity::Periodic { period, from } => {
                let from = from.max(0) as Amount;
                let at = format!("cash period {period} from $n = {from}$");
                match critical_states(set, &c.th, period as Amount, from, crit_n)? {
                    Critical::Decides(states, cs, repeated) if repeated > 0 => {
                        counts[1] += 1;
                        format!(
                            "decides ({at}: {states} states, {cs} corresponding states, \
                             {repeated} of them at several states)"
                        )
                    }
                    Critical::Decides(states, _, _) if states > 0 => {
                        counts[3] += 1;
                        format!("untested ({at}: {states} states, each with its own)")
                    }
                    // The window from the cash period's start to n = crit_n is empty: nothing
                    // was tested, which is not the same as no A-critical state existing.
                    Critical::Decides(..) if from as u64 > crit_n => {
                        counts[3] += 1;
                        format!(
                            "untested (cash period {period} from $n = {from}$, beyond the \
                             $n \\le {crit_n}$ checked)"
                        )
                    }
                    Critical::Decides(..) => {
                        counts[4] += 1;
                        format!("no $A$-critical state with $n \\le {crit_n}$ ({at})")
                    }
                    Critical::Conflict(text) => {
                        counts[2] += 1;
                        format!("does not decide ({text})")
                    }
                }
            }
        };
        table.push(vec![set_math(set), forms, critical, condition]);
    }
    let proven = conditions.iter().filter(|(_, p)| *p).count();
    let instances = InstanceProofs {
        what: "listed sets A".to_string(),
        total: sets.len() as u64,
        proven: proven as u64,
    };
    let scope = if per_set {
        format!("{}; other sets $A$ are not covered", instances.text())
    } else {
        "an algorithm for every finite $A$ is not a statement about the sets one at a time: \
         no finite check decides it"
            .to_string()
    };
    let evidence = format!(
        "(a) certified forms of $f^{{\\mathrm I}}, f^{{\\mathrm{{II}}}}$ for {} of {} sets; \
         (b) $g^{{\\mathrm I}}, g^{{\\mathrm{{II}}}}$ are closed forms for every $A$ (Def 3.1); \
         (c) on the $A$-critical states with $n \\le {crit_n}$ the corresponding state decides \
         the winner for {} and does not for {} (untested for {}, no $A$-critical state for \
         {}, not cash-periodic for {}); (d) a win condition on the $A$-critical states is PROVEN \
         for every $n$ for {proven} of {} sets; each set in {}; {scope}",
        counts[0],
        sets.len(),
        plural(counts[1], "set"),
        counts[2],
        counts[3],
        counts[4],
        counts[5],
        sets.len(),
        table_in.map_or_else(
            || "the table below".to_string(),
            |claim| format!("the table of {claim}")
        ),
    );
    let verdict = if per_set {
        instances.verdict()
    } else {
        VerdictKind::Open
    };
    let mut f = finding(verdict, range, evidence);
    if table_in.is_none() {
        f.tables.push(table);
    }
    Ok(f)
}

/// `C^I` or `C^II` as mathematics.
fn cash_math(which: &str) -> &'static str {
    if which == "C^II" {
        r"C^{\mathrm{II}}"
    } else {
        r"C^{\mathrm I}"
    }
}

/// Evidence (d) of §9 Conjectures 3 and 4: per set, the win condition on A-critical states
/// PROVEN for every n (`nimlab cash condition`) as a table cell, or why none was found, with
/// whether one was proven.
fn proven_win_conditions(sets: &[CashSet]) -> Vec<(String, bool)> {
    use rayon::prelude::*;
    sets.par_iter()
        // One task per set: some win conditions take far longer to find.
        .with_max_len(1)
        .map(|set| match WinCondition::find(set, 100, 1 << 30) {
            Ok(wc) if wc.boundaries.is_empty() => (
                format!("PROVEN: no $A$-critical state from $n = {}$", wc.proof.from),
                true,
            ),
            Ok(wc) => (
                format!(
                    "PROVEN for $n \\ge {}$: boundaries by $n \\bmod {}${}",
                    wc.proof.from,
                    wc.modulus,
                    if wc.edge.depth == 0 {
                        String::new()
                    } else {
                        format!(
                            ", edge layer $\\delta < {}$ by $n \\bmod {}$",
                            wc.edge.depth, wc.edge.modulus
                        )
                    }
                ),
                true,
            ),
            Err(e) => (format!("none found ({e})"), false),
        })
        .collect()
}

/// A corresponding state (i; b, b†) and a state (n; d, e).
type Cs = (Amount, i128, i128);
type State = (Amount, Amount, Amount);

/// Whether the corresponding state decides the A-critical states.
enum Critical {
    /// (states, distinct corresponding states, those met at two states or more): every
    /// corresponding state has one winner.
    Decides(usize, usize, usize),
    /// Two states with one corresponding state and different winners.
    Conflict(String),
}

/// The A-critical states (Def 4.1 with f^II) with from ≤ n ≤ max_n, as `nimlab cash critical`
/// examines them.
fn critical_states(
    set: &CashSet,
    th: &Thresholds,
    m: Amount,
    from: Amount,
    max_n: Amount,
) -> Result<Critical> {
    if from > max_n {
        return Ok(Critical::Decides(0, 0, 0));
    }
    let table = CashTable::solve(set, max_n, BUILTIN_BYTES)?;
    let mut seen: HashMap<Cs, (Winner, State, usize)> = HashMap::new();
    let mut states = 0usize;
    for n in from..=max_n {
        let k = n as usize;
        let (g1, g2) = g_thresholds(set, n);
        for d in g1..th.f1[k] {
            for e in g2..th.f2[k] {
                let w = table
                    .winner(n, d, e)
                    .ok_or_else(|| Error::invalid("state outside the table"))?;
                states += 1;
                let cs = corresponding_state(th, m, n, d, e);
                match seen.get_mut(&cs) {
                    Some((w0, at, _)) if *w0 != w => {
                        let (i, b, b2) = cs;
                        return Ok(Critical::Conflict(format!(
                            "corresponding state $({i}, {b}, {b2})$ at $({}, {}, {})$ and \
                             $({n}, {d}, {e})$ with different winners",
                            at.0, at.1, at.2
                        )));
                    }
                    Some((_, _, times)) => *times += 1,
                    None => {
                        seen.insert(cs, (w, (n, d, e), 1));
                    }
                }
            }
        }
    }
    let repeated = seen.values().filter(|(_, _, t)| *t > 1).count();
    Ok(Critical::Decides(states, seen.len(), repeated))
}
