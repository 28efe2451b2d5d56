//! Typed findings: what checking one claim found, as values a program can read, merge and
//! serialize — the claim, the verdict, the range and the points checked, a counterexample with
//! named coordinates and labelled values, a correction as an expression, the proof behind a
//! PROVEN, and the readings of an AMBIGUOUS claim.
//!
//! The one-line evidence of `nimlab check` and of the reports is a *rendering* of these fields
//! ([`Finding::evidence`]): an expression check's sentence is built from the counts, the
//! counterexample and the correction alone; a builtin's sentence is its own [`Wording`], literal
//! text with the finding's typed values in their places, so the numbers in the text are the
//! numbers in the fields.
//!
//! # Merging shards
//!
//! Two findings of one claim checked on disjoint parts of its range (shards of a sweep) combine
//! with [`Finding::merge`]:
//! - findings of different claims (paper, id, label or statement differ) are refused;
//! - the ranges are united (the parts of both, each once, left first), the point counts summed;
//! - any FAILS gives FAILS, with the smaller counterexample in the enumeration order (the
//!   coordinates compared in binder order, which is the order of a sweep whose intervals step
//!   upwards); its finding supplies the wording, correction text, fit and proof;
//! - otherwise the stronger verdict is kept, PROVEN over HOLDS over OPEN (an OPEN shard that
//!   checked nothing, or a shard only checked where a proof covers everything, takes nothing
//!   away from the other);
//! - corrections of both shards merge the same way (ranges united, counts summed, the smaller
//!   counterexample kept);
//! - AMBIGUOUS findings merge reading by reading, and must have the same readings in the same
//!   order; a finding with readings does not merge with one without;
//! - evidence tables describe a builtin's whole check and are the base finding's.
//!
//! Ties keep the left finding, so merging is associative: shards may be combined in any
//! grouping, and in any order when their counterexamples differ.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::expr::{Binder, Expr};
use super::value::Value;
use crate::miner::PeriodicLinear;
use crate::num::Q;

/// The five verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum VerdictKind {
    /// Checked at every point of a finite range.
    Holds,
    /// A replayed certificate covers everything beyond a window checked directly.
    Proven,
    /// A counterexample was found.
    Fails,
    /// Several readings, each with its own verdict.
    Ambiguous,
    /// No finite check settles it; evidence only.
    Open,
}

impl fmt::Display for VerdictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VerdictKind::Holds => "HOLDS",
            VerdictKind::Proven => "PROVEN",
            VerdictKind::Fails => "FAILS",
            VerdictKind::Ambiguous => "AMBIGUOUS",
            VerdictKind::Open => "OPEN",
        })
    }
}

impl VerdictKind {
    /// The strength of a verdict that found no counterexample: a proof covers more than a finite
    /// check, which says more than no check at all.
    fn strength(self) -> u8 {
        match self {
            VerdictKind::Proven => 3,
            VerdictKind::Holds => 2,
            VerdictKind::Open | VerdictKind::Ambiguous | VerdictKind::Fails => 1,
        }
    }
}

/// The claim a finding is about, as its file names it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimRef {
    /// The registry's paper.
    pub paper: String,
    /// The claim's id, unique in its file.
    pub id: String,
    /// The paper's label.
    pub label: String,
    /// The statement in words (the paper's words or a faithful paraphrase; mathematics in
    /// `$…$` spans).
    pub statement: String,
    /// What a reader is told beside the verdict.
    #[serde(default)]
    pub commentary: Commentary,
}

/// What a report says about a claim beside its verdict: the reader's context, not the check.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commentary {
    /// Why the claim fails, what its reading means, or what the correction changes (text with
    /// mathematics in `$…$` spans).
    pub note: Option<String>,
    /// What the paper itself says of the statement.
    pub in_paper: PaperStatus,
    /// How much the claim matters to a reader of the paper: findings are ranked by it.
    pub importance: Importance,
    /// Its place among the findings of equal importance (1 first); unranked ones follow in
    /// file order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
    /// The finding in one sentence, as a reader of the index should take it away (mathematics
    /// in `$…$` spans); shown beside the verdict, which it never replaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headline: Option<String>,
    /// How a counterexample's point is stated in the paper's terms: a point form (see
    /// `PointForm` in the typesetting module), checked when the claim file is read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<String>,
    /// What is wrong with the paper's proof when the statement itself is not at fault (text
    /// with mathematics in `$…$` spans): an erratum of the proof, listed with the errata,
    /// which never changes the verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_gap: Option<String>,
}

/// What the paper itself says of a statement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaperStatus {
    /// The paper asserts it (a theorem, lemma, remark or conjecture).
    #[default]
    Asserted,
    /// The paper itself says it is false (e.g. "Alas this is not true"): a failure found here is
    /// the paper's own, not an erratum.
    KnownFalse,
    /// Not the paper's: a result of the checker's own (a law found in the data, an identity
    /// across papers), listed among the new results with its verdict and range.
    NewResult,
}

/// How much a claim matters to a reader of the paper.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Importance {
    /// A main result, or a conjecture the paper highlights: an erratum here leads the report.
    Major,
    /// A lemma, proposition or remark.
    #[default]
    Normal,
    /// A worked example or a side remark.
    Minor,
}

impl fmt::Display for ClaimRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` ({}) of {}", self.id, self.label, self.paper)
    }
}

/// One part of the range a finding covers: the quantifiers as written (for display) and
/// parsed, each binder with its bounds as expressions (they may name earlier binders). A
/// builtin's range that is not a quantifier list ("9 listed states of A = {1,3,4}") has no
/// binders.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RangePart {
    /// As written, or as the builtin describes it.
    pub text: String,
    /// The quantifiers, parsed.
    pub binders: Vec<Binder>,
}

impl RangePart {
    /// A range described in words only.
    pub fn described(text: impl Into<String>) -> RangePart {
        RangePart {
            text: text.into(),
            binders: Vec::new(),
        }
    }
}

/// How many points a check evaluated, and how many it passed over (excluded by `where`, or
/// outside what a builtin's claim speaks about).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Points {
    /// Points checked.
    pub checked: u64,
    /// Points skipped.
    pub skipped: u64,
}

/// A value with what it is: the expression that gave it, or the builtin's name for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Labelled {
    /// What the value is.
    pub label: String,
    /// The claim file's expression that gave the value, when there is one: reports typeset it
    /// (helpers by their display forms) instead of showing the label's source text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expr: Option<Expr>,
    /// `expr` typeset (LaTeX without `$`, helpers in their display forms), which the evidence
    /// text shows instead of the claim file's source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub math: Option<String>,
    /// The value, exact.
    pub value: Value,
}

impl Labelled {
    /// A labelled value.
    pub fn new(label: impl Into<String>, value: impl Into<Value>) -> Labelled {
        Labelled {
            label: label.into(),
            expr: None,
            math: None,
            value: value.into(),
        }
    }

    /// What the evidence text calls the value: its expression as mathematics when it has one,
    /// else its label.
    pub fn shown(&self) -> String {
        self.math
            .as_ref()
            .map_or_else(|| self.label.clone(), |m| format!("${m}$"))
    }

    /// The value of the expression `expr`, labelled by its source text `label`.
    pub fn of_expr(label: impl Into<String>, expr: &Expr, value: impl Into<Value>) -> Labelled {
        Labelled {
            expr: Some(expr.unplaced()),
            ..Labelled::new(label, value)
        }
    }
}

/// Where a claim fails and what it found there.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    /// The point, as (name, value) pairs in the order of the range's binders (then any
    /// coordinate a builtin adds: a bonus N, a set S).
    pub point: Vec<(String, Value)>,
    /// What the claim says there, each value labelled (every component of a compared list).
    pub expected: Vec<Labelled>,
    /// What was found there, each value labelled.
    pub actual: Vec<Labelled>,
}

impl Counterexample {
    /// Typesets every labelled value's expression with the claim file's `defs`, so the
    /// evidence text never shows a helper's name.
    pub fn typeset(&mut self, defs: &super::eval::Definitions) {
        for l in self.expected.iter_mut().chain(self.actual.iter_mut()) {
            l.math = l.expr.as_ref().map(|e| super::typeset::expr_math(e, defs));
        }
    }

    /// The enumeration order of counterexamples of one claim: coordinates compared in order.
    fn order(&self, other: &Counterexample) -> Ordering {
        let values =
            |c: &Counterexample| c.point.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>();
        values(self).cmp(&values(other))
    }

    /// Whether every value carries a label and the counterexample says something: a point or a
    /// value.
    pub fn is_labelled(&self) -> bool {
        let named = self.point.iter().all(|(n, _)| !n.is_empty());
        let labelled = self
            .expected
            .iter()
            .chain(&self.actual)
            .all(|l| !l.label.is_empty());
        named
            && labelled
            && !(self.point.is_empty() && self.expected.is_empty() && self.actual.is_empty())
    }
}

/// A corrected statement checked where the claim failed: the expression that replaces the
/// claim's `expected`, and whether it holds on the range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Correction {
    /// As the claim file writes it (in the claim file's own helper names).
    pub text: String,
    /// As a reader sees it: LaTeX mathematics (without `$`), helpers in their display forms.
    pub math: String,
    /// The corrected closed form.
    pub expr: Expr,
    /// The range it was checked on.
    pub range: Vec<RangePart>,
    /// Points where it was checked and held.
    pub checked: u64,
    /// Where it fails too; `None` when it holds at every point checked.
    pub counterexample: Option<Counterexample>,
}

impl Correction {
    /// Whether the corrected statement holds on its whole range.
    pub fn holds(&self) -> bool {
        self.counterexample.is_none()
    }

    fn merge(self, other: Correction) -> Correction {
        let counterexample = smaller(self.counterexample, other.counterexample);
        Correction {
            range: union(self.range, other.range),
            checked: self.checked + other.checked,
            counterexample,
            ..self
        }
    }
}

/// The miner's closed form for the actual values of a failing claim over one integer variable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataFit {
    /// The range's variable.
    pub variable: String,
    /// The periodic-linear form the data fit.
    pub form: PeriodicLinear,
}

/// One class of positions of an induction proof as a reader sees it: which positions, and the
/// closed form of their payoff proven for every value of the class's parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProvenClass {
    /// The positions (`$…$` mathematics): `$(x,1)$, $x \ge 2$`.
    pub name: String,
    /// The payoff's form in the parameters and $N$ (LaTeX, without `$`).
    pub form: String,
}

/// How the sketch of an induction proof names its game's parts: the game whose recurrence the
/// forms satisfy supplies them (`crate::claims::induction::Game::words`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InductionWords {
    /// What the induction counts: "stones", "candies".
    pub unit: String,
    /// The value proven at a position p, as mathematics (without `$`): `f_N(p)`, `V(p)`.
    pub value: String,
    /// What a class's closed form gives: "its payoff in its parameters and $N$".
    pub form_of: String,
    /// The formulas the recurrence became, in words.
    pub formulas: String,
    /// For which values each form is proven: "every integer value of the parameters and every
    /// rational $N$".
    pub every: String,
}

/// What proves a PROVEN (or a refutation "for every n").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Proof {
    /// An eventual period proven by the octal prover: the window n = window_start ..
    /// window_start + window_len − 1 recurs one period later, and the recurrence's look-back
    /// carries it to every n.
    Period {
        /// The least period.
        period: usize,
        /// The least preperiod.
        preperiod: usize,
        /// First index of the recurring window.
        window_start: usize,
        /// The window's length.
        window_len: usize,
        /// The prover's argument in words.
        argument: String,
    },
    /// Every set of a family has a proven least period dividing a modulus, so both sides of an
    /// identity are constant in i beyond a bound, and i up to that bound covers every i ≥ 1.
    FamilyPeriods {
        /// Sets in the family.
        sets: usize,
        /// The largest i that had to be checked.
        i_needed: usize,
        /// The largest i that was checked (at least `i_needed`).
        i_checked: usize,
    },
    /// Closed forms f(Pk + r) = B_r k + c_r certified from n = `from` by a replayed
    /// certificate (Nim with Cash, Def 2.3).
    CertifiedForms {
        /// The move set A.
        set: Vec<u64>,
        /// The certificate's period P.
        period: usize,
        /// The forms hold for every n ≥ from.
        from: u64,
    },
    /// Closed forms on the classes of a closure of positions proven for every parameter and
    /// every bonus by induction on the number of stones, each step an SMT query found
    /// unsatisfiable; the claim's statement follows from the forms (`crate::claims::induction`).
    Induction {
        /// The forms file (its path from where the claim file was read).
        forms: String,
        /// What the forms file proves, in words.
        title: String,
        /// The classes, each with its proven form.
        classes: Vec<ProvenClass>,
        /// The game's recurrence the forms satisfy (LaTeX, without `$`).
        recurrence: String,
        /// The game's parts, as the sketch names them.
        words: Box<InductionWords>,
        /// How many obligations were discharged: the forms', and the statement's (the statement itself
        /// and each condition on its positions and variables that it relies on).
        obligations: usize,
        /// Where the statement is proven, as a phrase with `$…$` mathematics: "all integers
        /// $k, x$ with $k \ge 1,\ x \ge 2k + 2$ and every rational $N$".
        domain: String,
        /// Who found the obligations unsatisfiable, as a phrase: the solver, or nimlab's own
        /// refutation and the solver ([`crate::claims::induction::deciders`]).
        solver: String,
        /// The lemma proven from the forms in place of the claim's own formula, when that one
        /// is not linear arithmetic.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lemma: Option<ProvenLemma>,
    },
    /// A statement about the claim file's own definitions (no game value), proven for every
    /// value of its variables by SMT queries found unsatisfiable: the definitions unfolded into
    /// linear integer and real arithmetic, no induction (`crate::claims::induction`).
    Direct {
        /// How many obligations were discharged: the statement itself and each condition on
        /// its variables that it relies on.
        obligations: usize,
        /// Where the statement is proven, as a phrase with `$…$` mathematics.
        domain: String,
        /// Who found the obligations unsatisfiable, as a phrase.
        solver: String,
        /// The lemma proven in place of the claim's own formula, when that one is not linear
        /// arithmetic.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lemma: Option<ProvenLemma>,
    },
}

/// A lemma proven from closed forms in place of a claim's formula, and why the statement
/// follows from it ([`crate::claims::registry::Lemma`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProvenLemma {
    /// The lemma (LaTeX, without `$`).
    pub formula: String,
    /// The constraint on its variables beyond the claim's domain (LaTeX, without `$`); `None`
    /// when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    /// Why the statement follows (Markdown with `$…$` mathematics).
    pub follows: String,
}

impl Proof {
    /// Where the statement is proven beyond the range checked (an induction's domain, a
    /// phrase with `$…$` mathematics); `None` when the proof covers the range checked only.
    pub fn domain(&self) -> Option<&str> {
        match self {
            Proof::Induction { domain, .. } | Proof::Direct { domain, .. } => Some(domain),
            _ => None,
        }
    }

    /// `PROVEN, window 0..8: <argument>` for a period proof.
    fn text(&self) -> String {
        match self {
            Proof::Period {
                window_start,
                window_len,
                argument,
                ..
            } => format!(
                "PROVEN, window {window_start}..{}: {argument}",
                window_start + window_len - 1
            ),
            Proof::FamilyPeriods {
                sets,
                i_needed,
                i_checked,
            } => {
                format!("PROVEN for {sets} sets, i ≤ {i_checked} checked (i ≤ {i_needed} needed)")
            }
            Proof::CertifiedForms { period, from, .. } => {
                format!("PROVEN by forms of period {period} certified from n = {from}")
            }
            Proof::Induction {
                obligations,
                domain,
                words,
                ..
            } => format!(
                "PROVEN for {domain}, by induction on the number of {} ({obligations} SMT \
                 obligations unsatisfiable)",
                words.unit
            ),
            Proof::Direct {
                obligations,
                domain,
                ..
            } => format!(
                "PROVEN for {domain}, from the definitions ({} unsatisfiable)",
                plural(*obligations as u64, "SMT obligation")
            ),
        }
    }
}

/// One reading of a claim whose text admits several, with its own finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    /// The reading, in words.
    pub name: String,
    /// The statement exactly as printed: when it fails, the claim FAILS whatever the other
    /// readings do (they are the corrected statements).
    #[serde(default)]
    pub literal: bool,
    /// What it found.
    pub finding: Finding,
}

impl Reading {
    /// The statement exactly as printed (an equation in a free variable read as universal):
    /// when it fails, the claim FAILS.
    pub fn as_printed(name: impl Into<String>, finding: Finding) -> Reading {
        Reading {
            name: name.into(),
            literal: true,
            finding,
        }
    }

    /// A reading the printed text admits without being the statement exactly as printed (a
    /// quantifier supplied, a word taken one way).
    pub fn interpreted(name: impl Into<String>, finding: Finding) -> Reading {
        Reading {
            name: name.into(),
            literal: false,
            finding,
        }
    }
}

/// A statement over infinitely many instances (every finite set S, every pair of games)
/// checked instance by instance on a finite list of them, each instance settled for *all* of
/// its own points by a proof (a proven period, a replayed certificate). When every instance is
/// proven the verdict is HOLDS, "each instance proven": more than a finite check of each, less
/// than PROVEN, which needs an argument for every instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceProofs {
    /// What an instance is, in the plural ("sets S", "instances (O, P, m)").
    pub what: String,
    /// Instances in the range.
    pub total: u64,
    /// Instances proven for all of their points.
    pub proven: u64,
}

impl InstanceProofs {
    /// Whether every instance of the range is proven.
    pub fn all_proven(&self) -> bool {
        self.proven == self.total && self.total > 0
    }

    /// The verdict of a check that found no counterexample: HOLDS when every instance of the
    /// range is proven; otherwise OPEN. An existence statement such as "eventually periodic"
    /// cannot be checked on finitely many points of an instance, so an unproven instance counts
    /// for nothing either way, and a range with unsettled instances is not checked: calling it
    /// HOLDS on the proven part would round a partial check up.
    pub fn verdict(&self) -> VerdictKind {
        if self.all_proven() {
            VerdictKind::Holds
        } else {
            VerdictKind::Open
        }
    }

    /// `each instance proven (4095 sets S)`, or `20 of 63 instances proven, none refuted (43
    /// unsettled: neither proven nor refuted)`.
    pub fn text(&self) -> String {
        if self.all_proven() {
            format!("each instance proven ({} {})", self.total, self.what)
        } else if self.proven == 0 {
            format!("none of {} {} settled", self.total, self.what)
        } else {
            format!(
                "{} of {} {} proven, none refuted ({} unsettled: neither proven nor refuted)",
                self.proven,
                self.total,
                self.what,
                self.total - self.proven
            )
        }
    }

    fn merge(self, other: InstanceProofs) -> InstanceProofs {
        InstanceProofs {
            total: self.total + other.total,
            proven: self.proven + other.proven,
            ..self
        }
    }
}

/// What an expression check compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Asserted {
    /// A truth-valued expression (a counterexample is a point where it is false).
    Holds,
    /// `actual` against `expected`; a side compared component by component (a list literal)
    /// has one labelled value per component.
    Equal {
        /// The expected side is listed by component.
        expected_components: bool,
        /// The actual side is listed by component.
        actual_components: bool,
    },
}

/// What an expression check counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Points of a claim's range.
    Point,
    /// Rows of data.
    Row,
}

impl Unit {
    fn name(self) -> &'static str {
        match self {
            Unit::Point => "point",
            Unit::Row => "row",
        }
    }
}

/// How a value is written in a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    /// As messages show values: long numbers and lists cut to an excerpt, strings quoted.
    Short,
    /// Numbers and lists in full, strings without quotes.
    Plain,
    /// A list as a set, `{1,3,4}`.
    Set,
}

/// Which typed value a [`Phrase`] shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    /// The counterexample's coordinate.
    Coordinate(usize),
    /// The counterexample's expected value.
    Expected(usize),
    /// The counterexample's actual value.
    Actual(usize),
}

/// One piece of a builtin's sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phrase {
    /// Free text.
    Text(String),
    /// A value of the counterexample, as `name = value` when `named`.
    Value {
        /// Which value.
        slot: Slot,
        /// With its name or label.
        named: bool,
        /// How it is written.
        style: Style,
    },
    /// The points checked: `true at all 210 points (3 points skipped)`.
    Count,
    /// The proof: `PROVEN, window 0..8: …`.
    Proof,
    /// The readings: `reading "…": HOLDS (…); reading "…": FAILS (…)`.
    Readings,
    /// The instances proven: `each instance proven (4095 sets S)`.
    Instances,
}

/// How a finding's evidence is worded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wording {
    /// An expression check over its points (or a formula over rows of data): the sentence is
    /// built from the counts, the counterexample, the correction and the fit.
    Sweep {
        /// What the check counts.
        unit: Unit,
        /// What it compared.
        asserted: Asserted,
    },
    /// A builtin's sentence.
    Sentence(Vec<Phrase>),
}

/// What checking a claim found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The claim.
    pub claim: ClaimRef,
    /// The verdict.
    pub verdict: VerdictKind,
    /// The range checked, in parts (one for a single check; several after a merge or for the
    /// readings of a claim).
    pub range: Vec<RangePart>,
    /// Points checked and skipped, for checks that count them.
    pub points: Option<Points>,
    /// The first failing point (FAILS).
    pub counterexample: Option<Counterexample>,
    /// The claim's correction, checked where it failed.
    pub correction: Option<Correction>,
    /// The miner's closed form for the actual values, when they fit one.
    pub fit: Option<DataFit>,
    /// What proves a PROVEN (or a refutation for every n).
    pub proof: Option<Proof>,
    /// The readings of an AMBIGUOUS claim.
    pub readings: Vec<Reading>,
    /// Where a FAILS claim fails, along the range's first variable.
    #[serde(default)]
    pub extent: Option<FailureExtent>,
    /// A statement over infinitely many instances, each instance of the range proven.
    #[serde(default)]
    pub instances: Option<InstanceProofs>,
    /// Per-instance evidence too long for a sentence (one row per set, per game), shown after
    /// the sentence; the sentence keeps the counts and the conclusion.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<EvidenceTable>,
    /// How the evidence is worded.
    pub wording: Wording,
}

/// Evidence that lists many items (per set A, per game O): a small table instead of a run-on
/// sentence. Caption, column heads and cells are prose with mathematics in `$…$` spans.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceTable {
    /// What the table shows.
    pub caption: String,
    /// The column heads.
    pub columns: Vec<String>,
    /// The rows, one cell per column.
    pub rows: Vec<Vec<String>>,
}

impl EvidenceTable {
    /// An empty table with its caption and column heads.
    pub fn new(caption: impl Into<String>, columns: &[&str]) -> EvidenceTable {
        EvidenceTable {
            caption: caption.into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row; a row with a cell count other than the columns' is a bug of its builder.
    pub fn push(&mut self, row: Vec<String>) {
        assert_eq!(
            row.len(),
            self.columns.len(),
            "an evidence row has one cell per column"
        );
        self.rows.push(row);
    }

    /// `caption (3 rows)`: the table as one line of plain-text output shows it.
    pub fn compact(&self) -> String {
        format!(
            "{} ({})",
            self.caption,
            plural(self.rows.len() as u64, "row")
        )
    }
}

/// Where a claim fails along the first variable of its range: the values of that variable
/// with at least one failing point, and those at which every point held. Failures often form a
/// pattern ("fails for every k ≤ 3, holds from k = 4 on"), which one counterexample hides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureExtent {
    /// The range's first variable.
    pub variable: String,
    /// Its values with a failing point, in increasing order.
    pub failing: Vec<Value>,
    /// Its values at which every point held, in increasing order.
    pub holding: Vec<Value>,
    /// The range's other variables: a value of the first "fails" when some point with it does.
    #[serde(default)]
    pub others: Vec<String>,
}

impl FailureExtent {
    /// Where the claim fails, in words, or `None` when the first variable took one value only
    /// (the counterexample says it all):
    /// - `fails for every k on the range` (every value fails);
    /// - `fails for every k ≤ 3, holds from k = 4 on the range` (failures then successes);
    /// - `holds for every k ≤ 3, fails from k = 4 on the range`;
    /// - otherwise `fails at k ∈ {0..3, 7}, holds at the other 9 values of k`, the failing
    ///   values compressed into runs of consecutive values of the range.
    pub fn text(&self) -> Option<String> {
        let v = &self.variable;
        let (fails, holds) = (&self.failing, &self.holding);
        if fails.is_empty() || fails.len() + holds.len() < 2 {
            return None;
        }
        let show = |x: &Value| x.short().to_string();
        let (f_last, h_first) = (fails.last()?, holds.first());
        let (f_first, h_last) = (fails.first()?, holds.last());
        Some(match (h_first, h_last) {
            (None, _) => format!("fails for every {v} on the range"),
            (Some(h), _) if f_last < h => format!(
                "fails for every {v} ≤ {}, holds from {v} = {} on the range",
                show(f_last),
                show(h)
            ),
            (_, Some(h)) if h < f_first => format!(
                "holds for every {v} ≤ {}, fails from {v} = {} on the range",
                show(h),
                show(f_first)
            ),
            _ => format!(
                "fails at {v} ∈ {{{}}}, holds at the other {} of {v}",
                self.failing_runs().join(", "),
                if holds.len() == 1 {
                    "value".to_string()
                } else {
                    format!("{} values", holds.len())
                }
            ),
        })
    }

    /// The failing values as runs of values consecutive among all the values decided
    /// (`0..3`, `7`).
    fn failing_runs(&self) -> Vec<String> {
        let mut all: Vec<(&Value, bool)> = self
            .failing
            .iter()
            .map(|x| (x, true))
            .chain(self.holding.iter().map(|x| (x, false)))
            .collect();
        all.sort_by(|a, b| a.0.cmp(b.0));
        let mut runs: Vec<(&Value, &Value)> = Vec::new();
        let mut open: Option<(&Value, &Value)> = None;
        for (x, failing) in all {
            match (failing, open.as_mut()) {
                (true, Some(run)) => run.1 = x,
                (true, None) => open = Some((x, x)),
                (false, _) => runs.extend(open.take()),
            }
        }
        runs.extend(open);
        runs.iter()
            .map(|(a, b)| {
                if a == b {
                    a.short().to_string()
                } else {
                    format!("{}..{}", a.short(), b.short())
                }
            })
            .collect()
    }

    /// Both extents' values together (shards of one sweep): a value fails when it fails in
    /// either.
    fn merge(self, other: FailureExtent) -> FailureExtent {
        let mut failing = self.failing;
        failing.extend(other.failing);
        failing.sort();
        failing.dedup();
        let mut holding = self.holding;
        holding.extend(other.holding);
        holding.retain(|v| failing.binary_search(v).is_err());
        holding.sort();
        holding.dedup();
        FailureExtent {
            variable: self.variable,
            failing,
            holding,
            others: self.others,
        }
    }
}

/// Why two findings do not merge.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// The findings are about different claims.
    #[error("cannot merge findings of different claims: {left} and {right}")]
    DifferentClaims {
        /// The left finding's claim.
        left: Box<ClaimRef>,
        /// The right finding's claim.
        right: Box<ClaimRef>,
    },
    /// One finding has readings the other does not have.
    #[error("cannot merge findings of {claim}: the readings differ ({left:?} and {right:?})")]
    DifferentReadings {
        /// The claim.
        claim: Box<ClaimRef>,
        /// The left finding's readings.
        left: Vec<String>,
        /// The right finding's readings.
        right: Vec<String>,
    },
}

fn plural(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// `v` written in `style`.
fn styled(v: &Value, style: Style) -> String {
    match (style, v) {
        (Style::Short, v) => v.short().to_string(),
        (Style::Plain, Value::Str(s)) => s.to_string(),
        (Style::Set, Value::List(items)) => {
            let parts: Vec<String> = items.iter().map(|x| styled(x, Style::Plain)).collect();
            format!("{{{}}}", parts.join(","))
        }
        (_, v) => v.to_string(),
    }
}

/// ` at k = 6, m = 2` (empty for no point).
pub(super) fn at_point<S: AsRef<str>>(point: &[(S, Value)]) -> String {
    if point.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = point
        .iter()
        .map(|(n, v)| format!("{} = {}", n.as_ref(), v.short()))
        .collect();
    format!(" at {}", parts.join(", "))
}

/// One side of a compared pair, as messages show it: each component with its label, or the
/// whole value.
fn side(values: &[Labelled], components: bool) -> String {
    if components {
        format!("({})", named_values(values))
    } else {
        values
            .first()
            .map_or(String::new(), |l| l.value.short().to_string())
    }
}

/// The parts of `a`, then those of `b` not in `a`.
fn union(mut a: Vec<RangePart>, b: Vec<RangePart>) -> Vec<RangePart> {
    for part in b {
        if !a.contains(&part) {
            a.push(part);
        }
    }
    a
}

/// The earlier counterexample in the enumeration order (the left one on a tie).
fn smaller(a: Option<Counterexample>, b: Option<Counterexample>) -> Option<Counterexample> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.order(&a) == Ordering::Less { b } else { a }),
        (a, b) => a.or(b),
    }
}

impl Finding {
    /// A finding with no claim attached yet (the checker attaches it), no counterexample, no
    /// correction, no proof and no readings.
    pub fn new(verdict: VerdictKind, range: Vec<RangePart>, wording: Wording) -> Finding {
        Finding {
            claim: ClaimRef::default(),
            verdict,
            range,
            points: None,
            counterexample: None,
            correction: None,
            fit: None,
            proof: None,
            readings: Vec::new(),
            extent: None,
            instances: None,
            tables: Vec::new(),
            wording,
        }
    }

    /// The finding about `claim` (and so are its readings').
    pub fn about(mut self, claim: &ClaimRef) -> Finding {
        self.claim = claim.clone();
        self.readings = self
            .readings
            .into_iter()
            .map(|r| Reading {
                finding: r.finding.about(claim),
                ..r
            })
            .collect();
        self
    }

    /// A claim whose text admits several readings, each checked (the policy of
    /// data/claims/README.md, "Verdicts"):
    /// - FAILS when the reading marked literal (the statement as printed) fails, or when every
    ///   reading fails; the counterexample and the extent shown are the literal reading's, else
    ///   the first failing reading's, and the readings that hold are the corrected statements;
    /// - HOLDS (PROVEN) when every reading holds (is proven): what the text means does not
    ///   change what is true;
    /// - the literal reading's verdict when one is marked and it does not fail: the statement
    ///   as printed is that reading, and the others, shown beside it, are what it is not;
    /// - AMBIGUOUS otherwise: the readings disagree and the printed text does not decide.
    pub fn of_readings(range: Vec<RangePart>, readings: Vec<Reading>) -> Finding {
        let fails = |r: &&Reading| r.finding.verdict == VerdictKind::Fails;
        let literal_fails = readings.iter().filter(fails).find(|r| r.literal);
        let every_fails = !readings.is_empty() && readings.iter().all(|r| fails(&r));
        let proven = |r: &Reading| r.finding.verdict == VerdictKind::Proven;
        let holds = |r: &Reading| r.finding.verdict == VerdictKind::Holds || proven(r);
        let verdict = if literal_fails.is_some() || every_fails {
            VerdictKind::Fails
        } else if !readings.is_empty() && readings.iter().all(proven) {
            VerdictKind::Proven
        } else if !readings.is_empty() && readings.iter().all(holds) {
            VerdictKind::Holds
        } else if let Some(literal) = readings.iter().find(|r| r.literal) {
            literal.finding.verdict
        } else {
            VerdictKind::Ambiguous
        };
        let mut f = Finding::new(verdict, range, Wording::Sentence(vec![Phrase::Readings]));
        if verdict == VerdictKind::Fails {
            let shown = literal_fails.or_else(|| readings.iter().find(fails));
            f.counterexample = shown.and_then(|r| r.finding.counterexample.clone());
            f.extent = shown.and_then(|r| r.finding.extent.clone());
        }
        // A verdict the literal reading decided leads with that reading.
        let mut readings = readings;
        let decided_by_literal = !matches!(verdict, VerdictKind::Fails | VerdictKind::Ambiguous)
            && !readings.iter().all(holds);
        if decided_by_literal && let Some(at) = readings.iter().position(|r| r.literal) {
            let literal = readings.remove(at);
            readings.insert(0, literal);
        }
        // The readings' tables are shown once, after the readings, as the claim's.
        f.tables = readings
            .iter_mut()
            .flat_map(|r| std::mem::take(&mut r.finding.tables))
            .collect();
        f.readings = readings;
        f
    }

    /// Adds free text at the end of a builtin's sentence (a finding worded as a sweep keeps its
    /// wording: its text is built from its fields alone).
    pub fn push_text(&mut self, t: &str) {
        if let Wording::Sentence(pieces) = &mut self.wording {
            match pieces.last_mut() {
                Some(Phrase::Text(last)) => last.push_str(t),
                _ => pieces.push(Phrase::Text(t.to_string())),
            }
        }
    }

    /// The range as the verdict table shows it: its parts' texts joined by `; `.
    pub fn range_text(&self) -> String {
        self.range
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The evidence in one line, as the verdict table shows it. A failure of a statement the
    /// paper itself says is false is said to be the paper's own.
    pub fn evidence(&self) -> String {
        let body = self.evidence_body();
        if self.verdict == VerdictKind::Fails
            && self.claim.commentary.in_paper == PaperStatus::KnownFalse
        {
            format!("false, as the paper itself says: {body}")
        } else {
            body
        }
    }

    /// The evidence without the words about the claim's status in the paper (a reading's
    /// evidence, inside its claim's).
    fn evidence_body(&self) -> String {
        match &self.wording {
            Wording::Sweep { unit, asserted } => self.sweep_text(*unit, *asserted),
            Wording::Sentence(pieces) => pieces.iter().map(|p| self.piece_text(p)).collect(),
        }
    }

    fn sweep_text(&self, unit: Unit, asserted: Asserted) -> String {
        let Some(ce) = &self.counterexample else {
            let p = self.points.unwrap_or_default();
            if unit == Unit::Point && p.checked == 0 {
                return "no point of the range satisfies `where`: nothing was checked".to_string();
            }
            let mut s = format!("true at all {}", plural(p.checked, unit.name()));
            if let Some(proof @ (Proof::Induction { .. } | Proof::Direct { .. })) = &self.proof {
                s = format!("{}; checked directly: {s}", proof.text());
            }
            if p.skipped > 0 {
                s.push_str(&format!(
                    " ({} excluded by `where`)",
                    plural(p.skipped, "point")
                ));
            }
            return s;
        };
        let mut s = compared(ce, asserted);
        if let Some(extent) = self.extent.as_ref().and_then(FailureExtent::text) {
            s.push_str("; ");
            s.push_str(&extent);
        }
        if let Some(c) = &self.correction {
            s.push_str(&match &c.counterexample {
                None => format!(
                    "; the correction ${}$ holds at all {}",
                    c.math,
                    plural(c.checked, "point")
                ),
                Some(cx) => {
                    let values = match asserted {
                        Asserted::Holds => String::new(),
                        Asserted::Equal { .. } => format!(
                            ": expected {}, actual {}",
                            side(&cx.expected, false),
                            side(&cx.actual, false)
                        ),
                    };
                    format!(
                        "; the correction ${}$ fails too{}{values}",
                        c.math,
                        at_point(&cx.point)
                    )
                }
            });
        }
        if let Some(fit) = &self.fit {
            s.push_str(&format!(
                "; the data fit {}",
                fit.form.formulas_in("actual", &fit.variable).join("; ")
            ));
        }
        s
    }

    fn piece_text(&self, piece: &Phrase) -> String {
        match piece {
            Phrase::Text(t) => t.clone(),
            Phrase::Value { slot, named, style } => {
                let ce = self.counterexample.as_ref();
                let (name, value) = match *slot {
                    Slot::Coordinate(i) => ce.and_then(|c| c.point.get(i)).map(|(n, v)| (n, v)),
                    Slot::Expected(i) => ce
                        .and_then(|c| c.expected.get(i))
                        .map(|l| (&l.label, &l.value)),
                    Slot::Actual(i) => ce
                        .and_then(|c| c.actual.get(i))
                        .map(|l| (&l.label, &l.value)),
                }
                .expect("a sentence names only values of its own counterexample");
                if *named {
                    format!("{name} = {}", styled(value, *style))
                } else {
                    styled(value, *style)
                }
            }
            Phrase::Count => {
                let p = self.points.unwrap_or_default();
                let mut s = format!("true at all {}", plural(p.checked, "point"));
                if p.skipped > 0 {
                    s.push_str(&format!(" ({} skipped)", plural(p.skipped, "point")));
                }
                s
            }
            Phrase::Proof => self.proof.as_ref().map_or(String::new(), Proof::text),
            Phrase::Instances => self
                .instances
                .as_ref()
                .map_or(String::new(), InstanceProofs::text),
            Phrase::Readings => self
                .readings
                .iter()
                .map(|r| {
                    format!(
                        "reading \"{}\": {} ({})",
                        r.name,
                        r.finding.verdict,
                        r.finding.evidence_body()
                    )
                })
                .collect::<Vec<_>>()
                .join("; "),
        }
    }

    /// Combines two findings of one claim checked on disjoint parts of its range (see the
    /// module's rules); refuses findings of different claims or readings.
    pub fn merge(self, other: Finding) -> Result<Finding, MergeError> {
        if self.claim != other.claim {
            return Err(MergeError::DifferentClaims {
                left: Box::new(self.claim),
                right: Box::new(other.claim),
            });
        }
        let names = |f: &Finding| {
            f.readings
                .iter()
                .map(|r| r.name.clone())
                .collect::<Vec<_>>()
        };
        if names(&self) != names(&other) {
            return Err(MergeError::DifferentReadings {
                claim: Box::new(self.claim.clone()),
                left: names(&self),
                right: names(&other),
            });
        }
        let range = union(self.range.clone(), other.range.clone());
        let points = match (self.points, other.points) {
            (Some(a), Some(b)) => Some(Points {
                checked: a.checked + b.checked,
                skipped: a.skipped + b.skipped,
            }),
            (a, b) => a.or(b),
        };
        let readings = self
            .readings
            .iter()
            .cloned()
            .zip(other.readings.iter().cloned())
            .map(|(a, b)| {
                Ok(Reading {
                    finding: a.finding.merge(b.finding)?,
                    ..a
                })
            })
            .collect::<Result<Vec<_>, MergeError>>()?;
        let correction = match (self.correction.clone(), other.correction.clone()) {
            (Some(a), Some(b)) => Some(a.merge(b)),
            (a, b) => a.or(b),
        };
        let right_first = match (self.verdict, other.verdict) {
            (VerdictKind::Fails, VerdictKind::Fails) => {
                match (&self.counterexample, &other.counterexample) {
                    (Some(a), Some(b)) => b.order(a) == Ordering::Less,
                    (None, Some(_)) => true,
                    _ => false,
                }
            }
            (VerdictKind::Fails, _) => false,
            (_, VerdictKind::Fails) => true,
            (a, b) => b.strength() > a.strength(),
        };
        let extent = match (self.extent.clone(), other.extent.clone()) {
            (Some(a), Some(b)) => Some(a.merge(b)),
            (a, b) => a.or(b),
        };
        let instances = match (self.instances.clone(), other.instances.clone()) {
            (Some(a), Some(b)) => Some(a.merge(b)),
            (a, b) => a.or(b),
        };
        let base = if right_first { other } else { self };
        if !readings.is_empty() {
            // The readings decide the verdict, merged or not.
            let mut f = Finding::of_readings(range, readings);
            f.claim = base.claim;
            f.tables = base.tables;
            f.points = points;
            f.correction = correction;
            f.instances = instances;
            return Ok(f);
        }
        // The instances of every shard together decide between HOLDS and OPEN.
        let verdict = match (&instances, base.verdict) {
            (Some(i), VerdictKind::Holds | VerdictKind::Open) => i.verdict(),
            (_, v) => v,
        };
        Ok(Finding {
            verdict,
            range,
            points,
            correction,
            readings,
            extent,
            instances,
            ..base
        })
    }
}

/// `expected …, actual …` or `false at …`: an expression check's counterexample in words.
/// A side compared component by component names each component (`label = value`); a failed
/// truth-valued check says which part of it failed and the values that made it fail, when the
/// checker found them.
fn compared(ce: &Counterexample, asserted: Asserted) -> String {
    match asserted {
        Asserted::Holds => {
            let mut s = format!("false{}", at_point(&ce.point));
            // `expected` names the part of the statement that is false (a comparison, a
            // conjunct, a branch), `actual` what is true there; a bare "false" repeats the
            // statement and is not written out.
            let bare = ce.actual.len() == 1
                && ce.expected.len() == 1
                && ce.actual[0].label == ce.expected[0].label;
            if let (Some(e), false) = (ce.expected.first(), bare || ce.actual.is_empty()) {
                s.push_str(&format!(
                    ": expected {}, actual {}",
                    e.shown(),
                    named_values(&ce.actual)
                ));
            }
            s
        }
        Asserted::Equal {
            expected_components,
            actual_components,
        } => format!(
            "fails{}: expected {}, actual {}",
            at_point(&ce.point),
            side(&ce.expected, expected_components),
            side(&ce.actual, actual_components)
        ),
    }
}

/// `label = value, label = value`; a value whose label is its own text (a literal `14`,
/// `true`) is written once.
fn named_values(values: &[Labelled]) -> String {
    values
        .iter()
        .map(|l| {
            let v = l.value.short().to_string();
            match (&l.math, &l.value) {
                _ if l.label == v => v,
                // A number joins its expression in one formula: `$k + m = 1$`.
                (Some(m), Value::Num(_)) => format!("${m} = {v}$"),
                _ => format!("{} = {v}", l.shown()),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

// ------------------------------------------------------------------------------------------------
// Builtin sentences

/// A builtin's sentence under construction: literal text with typed values in their places.
/// The values become the finding's counterexample and the sentence its wording.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentence {
    pieces: Vec<Phrase>,
    counterexample: Counterexample,
}

impl Sentence {
    /// An empty sentence.
    pub fn new() -> Sentence {
        Sentence::default()
    }

    /// Free text.
    pub fn text(mut self, t: impl Into<String>) -> Sentence {
        let t = t.into();
        if let Some(Phrase::Text(last)) = self.pieces.last_mut() {
            last.push_str(&t);
        } else {
            self.pieces.push(Phrase::Text(t));
        }
        self
    }

    fn value(mut self, slot: Slot, named: bool, style: Style) -> Sentence {
        self.pieces.push(Phrase::Value { slot, named, style });
        self
    }

    /// A coordinate of the counterexample, written as its value.
    pub fn at(mut self, name: impl Into<String>, v: impl Into<Value>, style: Style) -> Sentence {
        let i = self.counterexample.point.len();
        self.counterexample.point.push((name.into(), v.into()));
        self.value(Slot::Coordinate(i), false, style)
    }

    /// A coordinate of the counterexample, written `name = value`.
    pub fn at_named(mut self, name: impl Into<String>, v: impl Into<Value>) -> Sentence {
        let i = self.counterexample.point.len();
        self.counterexample.point.push((name.into(), v.into()));
        self.value(Slot::Coordinate(i), true, Style::Plain)
    }

    /// An expected value, written as the value (or `label = value` when `named`).
    pub fn expected(
        mut self,
        label: impl Into<String>,
        v: impl Into<Value>,
        named: bool,
    ) -> Sentence {
        let i = self.counterexample.expected.len();
        self.counterexample.expected.push(Labelled::new(label, v));
        self.value(Slot::Expected(i), named, Style::Plain)
    }

    /// An actual value, written as the value (or `label = value` when `named`).
    pub fn actual(
        mut self,
        label: impl Into<String>,
        v: impl Into<Value>,
        named: bool,
    ) -> Sentence {
        let i = self.counterexample.actual.len();
        self.counterexample.actual.push(Labelled::new(label, v));
        self.value(Slot::Actual(i), named, Style::Plain)
    }

    /// A coordinate the sentence does not write (the text says it in words).
    pub fn point_unwritten(mut self, name: impl Into<String>, v: impl Into<Value>) -> Sentence {
        self.counterexample.point.push((name.into(), v.into()));
        self
    }

    /// An expected value the sentence does not write (the text says it in words).
    pub fn expected_unwritten(mut self, label: impl Into<String>, v: impl Into<Value>) -> Sentence {
        self.counterexample.expected.push(Labelled::new(label, v));
        self
    }

    /// An actual value the sentence does not write.
    pub fn actual_unwritten(mut self, label: impl Into<String>, v: impl Into<Value>) -> Sentence {
        self.counterexample.actual.push(Labelled::new(label, v));
        self
    }

    /// A piece the finding renders itself (the count, the proof, the readings).
    pub fn piece(mut self, p: Phrase) -> Sentence {
        self.pieces.push(p);
        self
    }

    /// Another sentence after this one, its values appended to this one's.
    pub fn then(mut self, other: Sentence) -> Sentence {
        let (np, ne, na) = (
            self.counterexample.point.len(),
            self.counterexample.expected.len(),
            self.counterexample.actual.len(),
        );
        for p in other.pieces {
            self = match p {
                Phrase::Text(t) => self.text(t),
                Phrase::Value { slot, named, style } => {
                    let slot = match slot {
                        Slot::Coordinate(i) => Slot::Coordinate(i + np),
                        Slot::Expected(i) => Slot::Expected(i + ne),
                        Slot::Actual(i) => Slot::Actual(i + na),
                    };
                    self.value(slot, named, style)
                }
                other => self.piece(other),
            };
        }
        let c = other.counterexample;
        self.counterexample.point.extend(c.point);
        self.counterexample.expected.extend(c.expected);
        self.counterexample.actual.extend(c.actual);
        self
    }

    /// The sentence in words, as a finding would show it.
    pub fn to_text(&self) -> String {
        self.clone()
            .finding(VerdictKind::Open, Vec::new())
            .evidence()
    }

    /// A finding worded by this sentence; its values are the counterexample of a FAILS.
    pub fn finding(self, verdict: VerdictKind, range: Vec<RangePart>) -> Finding {
        let mut f = Finding::new(verdict, range, Wording::Sentence(self.pieces));
        let c = self.counterexample;
        if verdict == VerdictKind::Fails || c != Counterexample::default() {
            f.counterexample = Some(c);
        }
        f
    }
}

// ------------------------------------------------------------------------------------------------
// Values in sentences and in JSON

impl From<Q> for Value {
    fn from(q: Q) -> Value {
        Value::Num(q)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Num(Q::int(n))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(t: &str) -> Value {
        Value::Str(Arc::from(t))
    }
}

impl From<String> for Value {
    fn from(t: String) -> Value {
        Value::Str(Arc::from(t))
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Value {
        Value::List(Arc::from(items))
    }
}

/// Values serialize exactly: a number as its `p/q` string (as [`Q`] does), a truth value as a
/// JSON boolean, a list as an array, a string as `{"str": …}` (so that it cannot be read back
/// as a number).
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Value::Num(q) => q.serialize(s),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Str(t) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("str", &**t)?;
                m.end()
            }
            Value::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for v in items.iter() {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        struct ValueVisitor;
        impl<'de> Visitor<'de> for ValueVisitor {
            type Value = Value;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number as \"p/q\", a boolean, a list or {\"str\": …}")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
                Ok(Value::Bool(b))
            }
            fn visit_str<E: de::Error>(self, t: &str) -> Result<Value, E> {
                t.parse::<Q>()
                    .map(Value::Num)
                    .map_err(|e| E::custom(format!("bad number \"{t}\": {e}")))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
                let mut items = Vec::new();
                while let Some(v) = seq.next_element::<Value>()? {
                    items.push(v);
                }
                Ok(Value::List(Arc::from(items)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
                let key: String = map
                    .next_key()?
                    .ok_or_else(|| de::Error::custom("expected {\"str\": …}"))?;
                if key != "str" {
                    return Err(de::Error::custom(format!(
                        "expected {{\"str\": …}}, found the key \"{key}\""
                    )));
                }
                let t: String = map.next_value()?;
                Ok(Value::Str(Arc::from(t)))
            }
        }
        d.deserialize_any(ValueVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(id: &str) -> ClaimRef {
        ClaimRef {
            paper: "t".into(),
            id: id.into(),
            label: id.to_uppercase(),
            statement: "s".into(),
            commentary: Commentary::default(),
        }
    }

    fn sweep() -> Wording {
        Wording::Sweep {
            unit: Unit::Point,
            asserted: Asserted::Holds,
        }
    }

    /// HOLDS on `range` with `checked` points.
    fn holds(range: &str, checked: u64) -> Finding {
        let mut f = Finding::new(
            VerdictKind::Holds,
            vec![RangePart::described(range)],
            sweep(),
        );
        f.points = Some(Points {
            checked,
            skipped: 1,
        });
        f.about(&claim("a"))
    }

    /// FAILS on `range` at k.
    fn fails(range: &str, k: i64) -> Finding {
        let mut f = Finding::new(
            VerdictKind::Fails,
            vec![RangePart::described(range)],
            sweep(),
        );
        f.points = Some(Points {
            checked: 2,
            skipped: 0,
        });
        f.counterexample = Some(Counterexample {
            point: vec![("k".into(), Value::from(k))],
            expected: vec![Labelled::new("k > 0", true)],
            actual: vec![Labelled::new("k > 0", false)],
        });
        f.about(&claim("a"))
    }

    fn proven(range: &str) -> Finding {
        let mut f = Sentence::new()
            .text("by ")
            .piece(Phrase::Proof)
            .finding(VerdictKind::Proven, vec![RangePart::described(range)]);
        f.proof = Some(Proof::CertifiedForms {
            set: vec![1, 3, 4],
            period: 7,
            from: 0,
        });
        f.about(&claim("a"))
    }

    fn open(range: &str) -> Finding {
        let mut f = holds(range, 0);
        f.verdict = VerdictKind::Open;
        f
    }

    #[test]
    fn holds_and_holds_sum_their_points_over_the_union_of_their_ranges() {
        let m = holds("k in 1..3", 3).merge(holds("k in 4..9", 6)).unwrap();
        assert_eq!(m.verdict, VerdictKind::Holds);
        assert_eq!(
            m.points,
            Some(Points {
                checked: 9,
                skipped: 2
            })
        );
        assert_eq!(m.range_text(), "k in 1..3; k in 4..9");
        assert_eq!(
            m.evidence(),
            "true at all 9 points (2 points excluded by `where`)"
        );
        // A range already covered is not listed twice.
        let again = m.clone().merge(holds("k in 4..9", 6)).unwrap();
        assert_eq!(again.range_text(), "k in 1..3; k in 4..9");
    }

    #[test]
    fn any_fails_gives_fails_at_the_first_counterexample_in_the_enumeration_order() {
        for m in [
            holds("k in 1..3", 3).merge(fails("k in 4..9", 5)).unwrap(),
            fails("k in 4..9", 5).merge(holds("k in 1..3", 3)).unwrap(),
        ] {
            assert_eq!(m.verdict, VerdictKind::Fails);
            assert_eq!(m.evidence(), "false at k = 5");
        }
        for m in [
            fails("k in 10..20", 12)
                .merge(fails("k in 4..9", 5))
                .unwrap(),
            fails("k in 4..9", 5)
                .merge(fails("k in 10..20", 12))
                .unwrap(),
        ] {
            assert_eq!(m.evidence(), "false at k = 5");
            assert_eq!(m.points.unwrap().checked, 4);
        }
    }

    #[test]
    fn a_proof_outranks_a_finite_check_which_outranks_no_check() {
        let m = holds("k in 1..3", 3).merge(proven("every k")).unwrap();
        assert_eq!(m.verdict, VerdictKind::Proven);
        assert_eq!(
            m.evidence(),
            "by PROVEN by forms of period 7 certified from n = 0"
        );
        let m = open("k in 4..6").merge(holds("k in 1..3", 3)).unwrap();
        assert_eq!(m.verdict, VerdictKind::Holds);
    }

    #[test]
    fn merging_is_associative() {
        let all = [
            holds("k in 1..3", 3),
            holds("k in 4..6", 3),
            fails("k in 7..9", 8),
            fails("k in 10..12", 10),
            proven("every k"),
            open("k in 13..14"),
        ];
        for a in &all {
            for b in &all {
                for c in &all {
                    let left = a
                        .clone()
                        .merge(b.clone())
                        .unwrap()
                        .merge(c.clone())
                        .unwrap();
                    let right = a
                        .clone()
                        .merge(b.clone().merge(c.clone()).unwrap())
                        .unwrap();
                    assert_eq!(left, right, "{a:?}\n{b:?}\n{c:?}");
                }
            }
        }
    }

    #[test]
    fn findings_of_different_claims_or_readings_do_not_merge() {
        let other = holds("k in 1..3", 3).about(&claim("b"));
        let e = holds("k in 1..3", 3).merge(other).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot merge findings of different claims: `a` (A) of t and `b` (B) of t"
        );
        let mut read = Finding::new(
            VerdictKind::Ambiguous,
            vec![RangePart::described("k in 1..3")],
            Wording::Sentence(vec![Phrase::Readings]),
        );
        read.readings = vec![Reading {
            name: "literal".into(),
            literal: false,
            finding: holds("k in 1..3", 3),
        }];
        let read = read.about(&claim("a"));
        let e = read.clone().merge(holds("k in 4..6", 3)).unwrap_err();
        assert!(matches!(e, MergeError::DifferentReadings { .. }), "{e}");
        // Readings merge one by one.
        let m = read.clone().merge(read).unwrap();
        assert_eq!(m.readings[0].finding.points.unwrap().checked, 6);
        assert_eq!(
            m.evidence(),
            "reading \"literal\": HOLDS (true at all 6 points (2 points excluded by `where`))"
        );
    }

    fn extent(failing: &[i64], holding: &[i64]) -> FailureExtent {
        let values = |v: &[i64]| v.iter().map(|&x| Value::from(x)).collect();
        FailureExtent {
            variable: "k".into(),
            failing: values(failing),
            holding: values(holding),
            others: Vec::new(),
        }
    }

    #[test]
    fn an_extent_says_where_the_failures_lie_along_the_first_variable() {
        let text = |f: &[i64], h: &[i64]| extent(f, h).text();
        assert_eq!(
            text(&[0, 1, 2, 3], &[4, 5, 6]).unwrap(),
            "fails for every k ≤ 3, holds from k = 4 on the range"
        );
        assert_eq!(
            text(&[4, 6], &[0, 2]).unwrap(),
            "holds for every k ≤ 2, fails from k = 4 on the range"
        );
        assert_eq!(
            text(&[1, 2, 3], &[]).unwrap(),
            "fails for every k on the range"
        );
        // Runs are consecutive among the values decided, whatever the step.
        assert_eq!(
            text(&[0, 2, 4, 10, 14, 16], &[6, 8, 12]).unwrap(),
            "fails at k ∈ {0..4, 10, 14..16}, holds at the other 3 values of k"
        );
        assert_eq!(
            text(&[2], &[1, 3]).unwrap(),
            "fails at k ∈ {2}, holds at the other 2 values of k"
        );
        assert_eq!(
            text(&[1, 3], &[2]).unwrap(),
            "fails at k ∈ {1, 3}, holds at the other value of k"
        );
        // One value decided, or none failing: nothing to add to the counterexample.
        assert_eq!(text(&[5], &[]), None);
        assert_eq!(text(&[], &[1, 2]), None);
    }

    #[test]
    fn a_failure_shows_its_extent_and_labels_each_compared_component() {
        let mut f = fails("k in 1..9", 5);
        f.extent = Some(extent(&[5, 6, 7, 8, 9], &[1, 2, 3, 4]));
        f.wording = Wording::Sweep {
            unit: Unit::Point,
            asserted: Asserted::Equal {
                expected_components: true,
                actual_components: false,
            },
        };
        f.counterexample = Some(Counterexample {
            point: vec![("k".into(), Value::from(5))],
            expected: vec![Labelled::new("k + 1", 6), Labelled::new("14", 14)],
            actual: vec![Labelled::new("g(k)", vec![Value::from(6), Value::from(13)])],
        });
        assert_eq!(
            f.evidence(),
            "fails at k = 5: expected (k + 1 = 6, 14), actual [6, 13]; holds for every k ≤ 4, \
             fails from k = 5 on the range"
        );
        // A truth-valued check names the part that failed and the values that made it fail.
        let mut f = fails("N in 1..9", 1);
        f.counterexample = Some(Counterexample {
            point: vec![("N".into(), Value::from(1))],
            expected: vec![Labelled::new("2m <= 9N", true)],
            actual: vec![
                Labelled::new("m", 9),
                Labelled::new("2m", 18),
                Labelled::new("9N", 9),
            ],
        });
        assert_eq!(
            f.evidence(),
            "false at N = 1: expected 2m <= 9N, actual m = 9, 2m = 18, 9N = 9"
        );
    }

    #[test]
    fn a_statement_the_paper_says_is_false_fails_as_the_paper_says() {
        let mut claim = claim("a");
        claim.commentary.in_paper = PaperStatus::KnownFalse;
        let f = fails("k in 4..9", 5).about(&claim);
        assert_eq!(
            f.evidence(),
            "false, as the paper itself says: false at k = 5"
        );
        // Only a failure is the paper's own; and a reading inside the claim is not repeated.
        assert_eq!(
            holds("k in 1..3", 3).about(&claim).evidence(),
            "true at all 3 points (1 point excluded by `where`)"
        );
        let f = Finding::of_readings(
            vec![RangePart::described("k in 4..9")],
            vec![Reading {
                name: "as printed".into(),
                literal: true,
                finding: fails("k in 4..9", 5),
            }],
        )
        .about(&claim);
        assert_eq!(
            f.evidence(),
            "false, as the paper itself says: reading \"as printed\": FAILS (false at k = 5)"
        );
    }

    fn reading(name: &str, literal: bool, finding: Finding) -> Reading {
        Reading {
            name: name.into(),
            literal,
            finding,
        }
    }

    #[test]
    fn readings_tables_are_shown_once_as_the_claims() {
        let mut table = EvidenceTable::new("Per set $A$", &["set $A$", "period"]);
        table.push(vec!["$\\lbrace 1\\rbrace$".into(), "2".into()]);
        assert_eq!(table.compact(), "Per set $A$ (1 row)");
        let mut printed = fails("k in 1..9", 7);
        printed.tables.push(table.clone());
        let f = Finding::of_readings(
            vec![RangePart::described("k in 1..9")],
            vec![
                Reading::as_printed("as printed", printed),
                Reading::interpreted("corrected", holds("k in 1..9", 9)),
            ],
        );
        assert_eq!(f.verdict, VerdictKind::Fails);
        assert_eq!(f.tables, vec![table.clone()]);
        assert!(f.readings.iter().all(|r| r.finding.tables.is_empty()));
        // A merge of shards keeps them once.
        let merged = f.clone().merge(f).unwrap();
        assert_eq!(merged.tables, vec![table]);
    }

    #[test]
    #[should_panic(expected = "one cell per column")]
    fn an_evidence_row_has_one_cell_per_column() {
        EvidenceTable::new("t", &["a", "b"]).push(vec!["1".into()]);
    }

    #[test]
    fn readings_decide_the_verdict_by_the_policy() {
        let range = || vec![RangePart::described("k in 1..9")];
        let verdict = |rs: Vec<Reading>| Finding::of_readings(range(), rs).verdict;
        // The printed statement failing: FAILS, whatever the others do; its counterexample.
        let f = Finding::of_readings(
            range(),
            vec![
                reading("corrected", false, holds("k in 1..9", 9)),
                reading("as printed", true, fails("k in 1..9", 7)),
            ],
        );
        assert_eq!(f.verdict, VerdictKind::Fails);
        assert_eq!(f.counterexample, fails("k in 1..9", 7).counterexample);
        // Every reading failing: FAILS, with the first reading's counterexample.
        let f = Finding::of_readings(
            range(),
            vec![
                reading("a", false, fails("k in 1..9", 3)),
                reading("b", false, fails("k in 1..9", 2)),
            ],
        );
        assert_eq!(f.verdict, VerdictKind::Fails);
        assert_eq!(f.counterexample, fails("k in 1..9", 3).counterexample);
        // The readings disagree and the printed one holds: the statement as printed HOLDS.
        assert_eq!(
            verdict(vec![
                reading("as printed", true, holds("k in 1..9", 9)),
                reading("b", false, fails("k in 1..9", 2)),
            ]),
            VerdictKind::Holds
        );
        // They disagree and none is the printed one: AMBIGUOUS.
        assert_eq!(
            verdict(vec![
                reading("a", false, holds("k in 1..9", 9)),
                reading("b", false, fails("k in 1..9", 2)),
            ]),
            VerdictKind::Ambiguous
        );
        // Every reading holds: what the text means does not matter.
        assert_eq!(
            verdict(vec![
                reading("a", false, holds("k in 1..9", 9)),
                reading("b", false, proven("every k")),
            ]),
            VerdictKind::Holds
        );
        assert_eq!(
            verdict(vec![reading("a", false, proven("every k"))]),
            VerdictKind::Proven
        );
        assert_eq!(
            verdict(vec![
                reading("a", false, holds("k in 1..9", 9)),
                reading("b", false, open("k in 1..9")),
            ]),
            VerdictKind::Ambiguous
        );
    }

    fn instances(proven: u64, total: u64) -> Finding {
        let ip = InstanceProofs {
            what: "sets S".into(),
            total,
            proven,
        };
        let mut f = Sentence::new()
            .piece(Phrase::Instances)
            .text(": checked")
            .finding(ip.verdict(), vec![RangePart::described("S")]);
        f.instances = Some(ip);
        f.about(&claim("a"))
    }

    #[test]
    fn every_instance_proven_holds_and_an_unsettled_one_leaves_it_open() {
        let all = instances(3, 3);
        assert_eq!(all.verdict, VerdictKind::Holds);
        assert_eq!(all.evidence(), "each instance proven (3 sets S): checked");
        let some = instances(1, 2);
        assert_eq!(some.verdict, VerdictKind::Open);
        assert_eq!(
            some.evidence(),
            "1 of 2 sets S proven, none refuted (1 unsettled: neither proven nor refuted): checked"
        );
        assert_eq!(instances(0, 2).verdict, VerdictKind::Open);
        assert_eq!(
            instances(0, 2).evidence(),
            "none of 2 sets S settled: checked"
        );
        // Shards: the instances of both count.
        let m = all.clone().merge(some).unwrap();
        assert_eq!(m.verdict, VerdictKind::Open);
        let i = m.instances.as_ref().unwrap();
        assert_eq!((i.proven, i.total), (4, 5));
        assert_eq!(
            all.clone().merge(instances(2, 2)).unwrap().verdict,
            VerdictKind::Holds
        );
        assert_eq!(instances(0, 0).verdict, VerdictKind::Open);
    }

    #[test]
    fn values_serialize_exactly_and_strings_stay_strings() {
        let v = Value::from(vec![
            Value::from(Q::frac(-7, 3)),
            Value::from("3"),
            Value::from(true),
            Value::from(vec![]),
        ]);
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, r#"["-7/3",{"str":"3"},true,[]]"#);
        assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), v);
        let e = serde_json::from_str::<Value>(r#"{"num":"1"}"#).unwrap_err();
        assert!(e.to_string().contains("\"num\""), "{e}");
        assert!(serde_json::from_str::<Value>(r#""1/0""#).is_err());
    }

    #[test]
    fn a_sentence_shifts_the_values_of_the_sentence_it_appends() {
        let said = Sentence::new()
            .text("at ")
            .at("k", Value::from(2), Style::Short)
            .text(": ")
            .then(
                Sentence::new()
                    .text("N = ")
                    .at("N", Value::from(Q::frac(1, 2)), Style::Plain)
                    .text(": expected ")
                    .expected("G(N)", Value::from(1), true)
                    .text(", actual ")
                    .actual("F(N)", Value::from(0), false),
            );
        let f = said.finding(VerdictKind::Fails, vec![]);
        assert_eq!(f.evidence(), "at 2: N = 1/2: expected G(N) = 1, actual 0");
        let ce = f.counterexample.unwrap();
        assert_eq!(ce.point.len(), 2);
        assert!(ce.is_labelled());
    }
}
