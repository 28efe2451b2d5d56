//! Discovery: closed forms across a whole *space* of one-parameter families, each form
//! re-verified beyond the data it was mined from, ranked by novelty — the question a researcher
//! asks of a table of exact values: which families have a closed form, what is it, and which of
//! them are new.
//!
//! **One family.** A game's space (see [`scoring`] and [`candy`]) hands over each family's
//! typed columns (the parameter k first, one row per member) on k = k₀..K₂, where the miner sees only k₀..K and
//! K₂ > K is the re-verification bound (twice the mined range by default). The miner
//! ([`crate::miner::mine_family`]) finds the payoff's closed form in (N, k) — a template
//! (zigzag, V, …) or breakpoints as a finite union of arithmetic progressions in N whose
//! numbers are periodic-linear in k — and periodic-linear forms of the scalar quantities. Then:
//! - the payoff form's *expression*, evaluated by the claims evaluator, is compared with every
//!   member from the form's first to K₂ at every breakpoint of the member and of the form's
//!   rebuild, the midpoints and one beyond each end, where two piecewise-linear functions agree
//!   exactly when they are equal; a member of the data it misses is a defect of the miner
//!   (reported, never hidden), one beyond the data breaks the form;
//! - each quantity's form is evaluated at every member up to K₂ and compared with the data.
//!
//! A form that passes both is re-verified on k ≤ K₂: still a finite check (HOLDS on that range,
//! not PROVEN), which the atlas says. A family is *covered* when its payoff form is re-verified;
//! for a game whose values are numbers, not functions of a bonus N (Candy Nim), when every
//! quantity's form is.
//!
//! **Anomalies.** A member of the data that breaks a pattern its neighbours follow (the
//! progressions miner's leave-one-out test) is listed with the least N where it differs: the
//! member's value and the form's.
//!
//! **Novelty.** A result is *new* when no claim of the registries given states a closed form for
//! the family (the game decides what states it: for Scoring Nim, an equation about the payoff
//! of a heap list that specialises to the family).
//!
//! **Reproducible.** Families are listed in the space's order and ranked by a total order on
//! their outcomes, so the same space gives byte-identical output on any number of threads.

pub mod candy;
pub mod cash;
mod document;
mod nim_sum;
pub mod scoring;
mod stated;
pub mod subtraction;

pub use document::{QuantityCall, Statements};
pub use nim_sum::ZeroSetWitness;

use std::fmt;
use std::sync::Arc;

use crate::claims::expr::Expr;
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::miner::FamilyOptions;
use crate::miner::{
    Anomaly, FamilyForms, IrregularTail, KLine, NoProgressionForm, PeriodicLinear, residue_index,
};
use crate::num::{IntRange, Pwl, Q};
use crate::report::context::{AtlasFinding, AtlasSection};
use crate::tables::mined::{
    Column, PWL_COLUMN, family_expr, family_forms_with, payoff_form_disagreement,
};

/// The data of one family of a space: its typed columns on k = k₀..K₂, of which the miner
/// sees k₀..`mined_to`.
#[derive(Clone, Debug)]
pub struct FamilyData {
    /// The family as written, e.g. `2k+1,2k,1`.
    pub name: String,
    /// The columns: the parameter first (consecutive integers), then the quantities and the
    /// piecewise-linear `payoff`.
    pub columns: Vec<(String, Column)>,
    /// The last member the miner sees.
    pub mined_to: i64,
    /// Whether a claim already states a form for the family.
    pub novelty: Novelty,
    /// The member's heaps as lines in the parameter (`k + 2, k, 1`): what the rendered atlas
    /// states its forms of.
    pub position: Vec<KLine>,
}

/// The re-verification bound of twice the mined range: K + (K − k₀ + 1).
pub fn twice(k: IntRange) -> i64 {
    k.end()
        .saturating_add(k.end().saturating_sub(k.start()).saturating_add(1))
}

/// Refuses a space's mined range `mined` of the parameter `param` outside 0..`max_param`, or a
/// re-verification bound `verify_to` below the range's end (the miner's data would be cut
/// short) or beyond `max_verify`, naming the bad flag and value. Every space shares these
/// checks, so that their messages read alike.
fn validate_mined(
    param: &str,
    mined: IntRange,
    max_param: i64,
    verify_to: i64,
    max_verify: i64,
) -> Result<()> {
    if mined.start() < 0 || mined.end() > max_param {
        return Err(Error::invalid(format!(
            "--{param} {mined}: the parameter runs over 0..{max_param}"
        )));
    }
    if verify_to < mined.end() || verify_to > max_verify {
        return Err(Error::invalid(format!(
            "--verify-to {verify_to}: re-verification runs from the mined range's end {} to at most {max_verify}",
            mined.end()
        )));
    }
    Ok(())
}

/// Whether a result is new.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "novelty", rename_all = "snake_case")]
pub enum Novelty {
    /// No claim of the registries consulted states a form for the family.
    New,
    /// These claims (`paper/id`) state a form for a family containing it.
    Known {
        /// The claims.
        claims: Vec<String>,
    },
    /// No registry was consulted.
    Unchecked,
}

impl Novelty {
    /// `new`, `known` or `unchecked`.
    pub fn word(&self) -> &'static str {
        match self {
            Novelty::New => "new",
            Novelty::Known { .. } => "known",
            Novelty::Unchecked => "unchecked",
        }
    }
}

/// Where a form and the data differ: at member k (and, for a function of N, at N), the form's
/// value and the member's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The member.
    pub member: i64,
    /// For a function of N, the least N found where they differ.
    pub at: Option<Q>,
    /// The form's value.
    pub form: Q,
    /// The member's value.
    pub data: Q,
}

impl Mismatch {
    /// The mismatch of a function of N.
    fn of(a: Anomaly) -> Mismatch {
        Mismatch {
            member: a.member,
            at: Some(a.at),
            form: a.form,
            data: a.data,
        }
    }

    /// In words: `at k = 20, N = 5/2: the form gives 3, the member 4`.
    fn text(&self, param: &str) -> String {
        let at = match &self.at {
            Some(n) => format!(", N = {n}"),
            None => String::new(),
        };
        format!(
            "at {param} = {}{at}: the form gives {}, the member {}",
            self.member, self.form, self.data
        )
    }
}

/// How a mined form fared against the members up to the re-verification bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormStatus {
    /// Every member from the form's first up to `to` is rebuilt exactly (anomalies of the
    /// data aside).
    Reverified {
        /// The last member checked.
        to: i64,
    },
    /// A member of the data is not rebuilt from the form's expression: the miner's fault.
    NotRebuilt(Box<Mismatch>),
    /// A member beyond the data breaks the form.
    BrokenBeyond(Box<Mismatch>),
}

impl FormStatus {
    /// Whether the form survived re-verification.
    pub fn holds(&self) -> bool {
        matches!(self, FormStatus::Reverified { .. })
    }

    /// In words: `HOLDS on k = 3..32`, `FAILS at k = 20: …`.
    pub fn text(&self, param: &str, from: i64) -> String {
        match self {
            FormStatus::Reverified { to } => format!("HOLDS on {param} = {from}..{to}"),
            FormStatus::NotRebuilt(m) => format!("NOT REBUILT on the data {}", m.text(param)),
            FormStatus::BrokenBeyond(m) => format!("FAILS beyond the data {}", m.text(param)),
        }
    }
}

/// What kind of payoff form was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PayoffKind {
    /// One of the miner's templates (a zigzag, a V, …), named.
    Template(String),
    /// Breakpoints as progressions in N, with the least period in the parameter and the
    /// number of progressions of each residue class.
    Progressions {
        /// The least period in k.
        period: usize,
        /// The number of progressions of each class.
        counts: Vec<usize>,
    },
}

impl fmt::Display for PayoffKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PayoffKind::Template(name) => f.write_str(name),
            PayoffKind::Progressions { period, counts } => {
                let counts = counts
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join("/");
                write!(f, "progressions ({counts}), period {period}")
            }
        }
    }
}

/// The payoff's closed form of a family, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PayoffOutcome {
    /// A form was mined.
    Found {
        /// Its kind.
        kind: PayoffKind,
        /// The first member it describes.
        from: i64,
        /// The formula in the claims' expression language (variables N and the parameter).
        formula: Expr,
        /// How it fared beyond the data.
        status: FormStatus,
        /// Members of the data that break it.
        anomalies: Vec<Anomaly>,
    },
    /// None was found, and why.
    NotFound {
        /// The miner's reason.
        reason: NoPayoffForm,
    },
    /// The game's values are numbers, not functions of a bonus N (Candy Nim's V, N_L, N_W):
    /// the family's result is its quantities' forms.
    NoPayoff,
}

/// A proof that a family has no payoff form of the miner's shapes, however far it is mined: the
/// game's space finds it (this layer only shows it).
pub trait Obstruction: fmt::Debug + Send + Sync {
    /// The reason in plain text, with the family's particulars.
    fn reason(&self) -> String;
    /// The reason without the family's particulars, shared by every family it stops.
    fn kind(&self) -> String;
    /// The family's witness, Markdown with `$…$` mathematics.
    fn witness_math(&self) -> String;
    /// The theorem, Markdown with `$…$` mathematics, the same for every family of the kind.
    fn theorem_math(&self) -> String;
    /// Its proof, Markdown with `$…$` mathematics.
    fn proof_math(&self) -> String;
}

/// An [`Obstruction`] held by a family's outcome; two are equal when their reasons are.
#[derive(Clone, Debug)]
pub struct Proven(pub Arc<dyn Obstruction>);

impl PartialEq for Proven {
    fn eq(&self, other: &Proven) -> bool {
        self.0.reason() == other.0.reason()
    }
}

impl Eq for Proven {}

impl fmt::Display for Proven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.reason())
    }
}

/// Why a family has no payoff form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoPayoffForm {
    /// The progressions miner found none; with the tail whose intercept is irregular, if one is.
    #[error("{why}{tail}", why = .0, tail = .1.as_ref().map(|t| format!("; {t}")).unwrap_or_default())]
    Progressions(NoProgressionForm, Option<IrregularTail>),
    /// Some member of the data has no payoff function.
    #[error("some member has no payoff function")]
    MemberWithoutPayoff,
    /// No form of the miner's shapes exists: proven, not a failure to find one.
    #[error("no form of the miner's shapes exists (proven): {0}")]
    NoneExists(Proven),
}

impl NoPayoffForm {
    /// The reason without the family's particulars, shared by every family it stops.
    pub fn kind(&self) -> String {
        match self {
            NoPayoffForm::Progressions(why, None) => why.kind().to_string(),
            NoPayoffForm::Progressions(why, Some(_)) => format!(
                "{}; a tail's intercept follows no periodic-linear form on the mined range either",
                why.kind()
            ),
            NoPayoffForm::MemberWithoutPayoff => self.to_string(),
            NoPayoffForm::NoneExists(proof) => proof.0.kind(),
        }
    }

    /// The table's status of a family stopped by this reason.
    pub fn status(&self) -> &'static str {
        match self {
            NoPayoffForm::NoneExists(_) => "NONE (proven)",
            NoPayoffForm::Progressions(..) | NoPayoffForm::MemberWithoutPayoff => "NONE",
        }
    }
}

/// A scalar quantity's periodic-linear form along the family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantityOutcome {
    /// The quantity's column name.
    pub name: String,
    /// Its form (`None`: no periodic-linear form on the data).
    pub fit: Option<PeriodicLinear>,
    /// How the form fared beyond the data (with `fit` only).
    pub status: Option<FormStatus>,
}

/// One family of the atlas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtlasEntry {
    /// The family as written.
    pub family: String,
    /// The first member and the last the miner saw.
    pub mined: (i64, i64),
    /// The payoff's closed form.
    pub payoff: PayoffOutcome,
    /// The quantities' forms.
    pub quantities: Vec<QuantityOutcome>,
    /// Whether a claim already states a form for it.
    pub novelty: Novelty,
    /// The member's heaps as lines in the parameter.
    pub position: Vec<KLine>,
}

impl AtlasEntry {
    /// Whether the family is proven to have no form of the miner's shapes.
    pub fn proven_without_form(&self) -> bool {
        matches!(
            &self.payoff,
            PayoffOutcome::NotFound {
                reason: NoPayoffForm::NoneExists(_)
            }
        )
    }

    /// Whether the family's closed form survived re-verification: the payoff's, or for a game
    /// without one every quantity's.
    pub fn covered(&self) -> bool {
        match &self.payoff {
            PayoffOutcome::Found { status, .. } => status.holds(),
            PayoffOutcome::NotFound { .. } => false,
            PayoffOutcome::NoPayoff => {
                !self.quantities.is_empty()
                    && self
                        .quantities
                        .iter()
                        .all(|q| q.status.as_ref().is_some_and(FormStatus::holds))
            }
        }
    }

    /// For a game without a payoff: the first member every quantity's form holds from (when
    /// each has one), the first quantity's form that failed and how, and the first quantity
    /// without a form.
    fn quantities_verdict(
        &self,
    ) -> (
        Option<i64>,
        Option<(&QuantityOutcome, &FormStatus)>,
        Option<&QuantityOutcome>,
    ) {
        let from = self
            .quantities
            .iter()
            .map(|q| q.fit.as_ref().map(|f| f.preperiod))
            .collect::<Option<Vec<i64>>>()
            .and_then(|v| v.into_iter().max());
        let failed = self
            .quantities
            .iter()
            .find_map(|q| q.status.as_ref().filter(|s| !s.holds()).map(|s| (q, s)));
        let missing = self.quantities.iter().find(|q| q.fit.is_none());
        (from, failed, missing)
    }

    /// The last member re-verified by every quantity's form.
    fn quantities_verified_to(&self) -> Option<i64> {
        self.quantities
            .iter()
            .map(|q| match q.status {
                Some(FormStatus::Reverified { to }) => Some(to),
                _ => None,
            })
            .collect::<Option<Vec<i64>>>()
            .and_then(|v| v.into_iter().min())
    }

    /// The rank of the entry in the atlas: new re-verified forms first, then known ones, then
    /// forms that failed, then families without one.
    fn rank(&self) -> u8 {
        if self.payoff == PayoffOutcome::NoPayoff {
            return match (self.covered(), &self.novelty) {
                (true, Novelty::Known { .. }) => 1,
                (true, _) => 0,
                (false, _) if self.quantities_verdict().1.is_some() => 2,
                (false, _) => 3,
            };
        }
        match (&self.payoff, &self.novelty) {
            (PayoffOutcome::Found { status, .. }, n) if status.holds() => match n {
                Novelty::Known { .. } => 1,
                _ => 0,
            },
            (PayoffOutcome::Found { .. }, _) => 2,
            (PayoffOutcome::NotFound { .. } | PayoffOutcome::NoPayoff, _) => 3,
        }
    }
}

/// A family of the space left out because it is another one with its parameter shifted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The family left out.
    pub family: String,
    /// The family it equals with the parameter shifted.
    pub same_as: String,
    /// The shift c: the family left out at k is `same_as` at k + c.
    pub shift: i64,
}

/// `part` of `all` in percent (0 of nothing is 0%).
fn percent(part: usize, all: usize) -> f64 {
    if all == 0 {
        0.0
    } else {
        100.0 * part as f64 / all as f64
    }
}

/// What a space's discovery gives back: its report in words (what `--format text` prints), its
/// table (every other format) and its rendered document (`--report DIR`).
pub trait AtlasView {
    /// The summary, then one line per entry.
    fn text(&self) -> String;
    /// One row per entry, in rank order.
    fn table(&self) -> Table;
    /// The space in words.
    fn space(&self) -> &str;
    /// The space in words with `$…$` mathematics, as the rendered atlas states it.
    fn space_math(&self) -> &str;
    /// What one row of [`AtlasView::table`] is about: "family" by default.
    fn row(&self) -> &'static str {
        "family"
    }
    /// The atlas's other tables, beside the one of [`AtlasView::table`] (the laws across a
    /// space, the families followed across a parameter), each with its name and what it holds
    /// in words: a report writes each as NAME.csv, and `--table NAME` prints one. None by
    /// default.
    fn more_tables(&self) -> Vec<(&'static str, &'static str, Table)> {
        Vec::new()
    }
    /// The rendered document's summary (sentences, Markdown with `$…$` mathematics) and its
    /// sections. By default no summary and one section with an item per row of
    /// [`AtlasView::table`], its non-empty cells as sentences.
    fn document(&self) -> (Vec<AtlasFinding>, Vec<AtlasSection>) {
        (Vec::new(), document::table_sections(&self.table()))
    }
}

impl AtlasView for Atlas {
    fn text(&self) -> String {
        Atlas::text(self)
    }

    fn table(&self) -> Table {
        Atlas::table(self)
    }

    fn space(&self) -> &str {
        &self.space
    }

    fn space_math(&self) -> &str {
        &self.space_math
    }

    fn document(&self) -> (Vec<AtlasFinding>, Vec<AtlasSection>) {
        document::atlas_sections(self)
    }
}

/// The atlas of a space: every family's outcome, ranked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atlas {
    /// The space in words.
    pub space: String,
    /// The space in words with `$…$` mathematics, as the rendered atlas states it.
    pub space_math: String,
    /// The parameter's name.
    pub param: String,
    /// The quantities whose forms the table shows, in order.
    pub quantities: Vec<String>,
    /// The entries, ranked (see [`AtlasEntry`]): new re-verified forms first.
    pub entries: Vec<AtlasEntry>,
    /// Families of the space left out as shifts of others.
    pub duplicates: Vec<Duplicate>,
    /// How the results read in the claims language (for [`AtlasView::document`]).
    pub statements: Statements,
}

/// `$2 \le k \le 16$` (`$k = 3$` for a single value): a range of the space's parameters as
/// mathematics, for [`AtlasView::space_math`].
pub(crate) fn range_math(name: &str, r: crate::num::IntRange) -> String {
    if r.start() == r.end() {
        format!("${name} = {}$", r.start())
    } else {
        format!("${} \\le {name} \\le {}$", r.start(), r.end())
    }
}

/// The columns of [`Atlas::table`] before the quantities' forms (one `<name>_form` column each)
/// and after them.
pub const ATLAS_COLUMNS: ([&str; 8], [&str; 2]) = (
    [
        "family",
        "mined",
        "payoff_form",
        "from",
        "status",
        "novelty",
        "known_claims",
        "anomalies",
    ],
    ["reason", "formula"],
);

impl Atlas {
    /// Ranks `entries` (stable: families of one rank keep the space's order).
    pub fn new(
        (space, space_math): (String, String),
        param: String,
        quantities: Vec<String>,
        mut entries: Vec<AtlasEntry>,
        duplicates: Vec<Duplicate>,
        statements: Statements,
    ) -> Atlas {
        entries.sort_by_key(AtlasEntry::rank);
        Atlas {
            space,
            space_math,
            param,
            quantities,
            entries,
            duplicates,
            statements,
        }
    }

    /// Whether the game's values are functions of a bonus N (some family has a payoff).
    pub fn has_payoff(&self) -> bool {
        self.entries
            .iter()
            .any(|e| e.payoff != PayoffOutcome::NoPayoff)
    }

    /// Families whose payoff form survived re-verification, and all families.
    pub fn coverage(&self) -> (usize, usize) {
        let covered = self.entries.iter().filter(|e| e.covered()).count();
        (covered, self.entries.len())
    }

    /// The families with a re-verified form that no claim states.
    pub fn new_results(&self) -> impl Iterator<Item = &AtlasEntry> {
        self.entries
            .iter()
            .filter(|e| e.covered() && e.novelty == Novelty::New)
    }

    /// The families proven to have no form of the miner's shapes.
    pub fn proven_without_form(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e.proven_without_form())
            .count()
    }

    /// Members of the data that break a pattern their family's other members follow.
    pub fn anomaly_count(&self) -> usize {
        self.entries
            .iter()
            .map(|e| match &e.payoff {
                PayoffOutcome::Found { anomalies, .. } => anomalies.len(),
                PayoffOutcome::NotFound { .. } | PayoffOutcome::NoPayoff => 0,
            })
            .sum()
    }

    /// The summary in words: the space, the coverage, the new results and the anomalies.
    pub fn summary(&self) -> String {
        let (covered, all) = self.coverage();
        let percent = percent(covered, all);
        let mut out = format!("space: {}\n", self.space);
        out.push_str(&format!(
            "families: {all} ({} more left out as shifts of these in {})\n",
            self.duplicates.len(),
            self.param
        ));
        let form = if self
            .entries
            .iter()
            .all(|e| e.payoff == PayoffOutcome::NoPayoff)
        {
            "every quantity's form"
        } else {
            "a payoff form"
        };
        out.push_str(&format!(
            "coverage: {covered} of {all} ({percent:.1}%) have {form} re-verified beyond the data\n"
        ));
        let proven = self.proven_without_form();
        if proven > 0 {
            out.push_str(&format!(
                "proven without a form: {proven} (no form of the miner's shapes exists, however far they are mined)\n"
            ));
        }
        out.push_str(&format!(
            "new: {} re-verified forms no claim states\n",
            self.new_results().count()
        ));
        let anomalies = self.anomaly_count();
        out.push_str(&format!("anomalies: {anomalies}\n"));
        out
    }

    /// One line per family (what `--format text` prints after the summary).
    pub fn text(&self) -> String {
        let p = &self.param;
        let mut out = self.summary();
        for e in &self.entries {
            let (k0, k1) = e.mined;
            let what = match &e.payoff {
                PayoffOutcome::Found {
                    kind,
                    from,
                    status,
                    anomalies,
                    ..
                } => {
                    let mut s = format!(
                        "{kind} from {p} = {from}, {}",
                        status.text(p, *from).replacen("HOLDS", "holds", 1)
                    );
                    for a in anomalies {
                        s.push_str(&format!(
                            "; anomaly at {p} = {}, N = {}: member {}, form {}",
                            a.member, a.at, a.data, a.form
                        ));
                    }
                    s
                }
                // A proven absence says so itself ("no form of the miner's shapes exists").
                PayoffOutcome::NotFound {
                    reason: reason @ NoPayoffForm::NoneExists(_),
                } => reason.to_string(),
                PayoffOutcome::NotFound { reason } => format!("no form: {reason}"),
                PayoffOutcome::NoPayoff => e
                    .quantities
                    .iter()
                    .map(|q| match (&q.fit, &q.status) {
                        (Some(f), Some(s)) => format!(
                            "{}, {}",
                            f.formulas_of_class(&q.name, p, residue_index(p)).join("; "),
                            s.text(p, f.preperiod).replacen("HOLDS", "holds", 1)
                        ),
                        _ => format!("{}: no form", q.name),
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            };
            out.push_str(&format!(
                "[{}] ({}) on {p} = {k0}..{k1}: {what}\n",
                e.novelty.word(),
                e.family
            ));
        }
        out
    }

    /// The table's columns: [`ATLAS_COLUMNS`] around one `<name>_form` per quantity.
    pub fn columns(&self) -> Vec<String> {
        let (before, after) = ATLAS_COLUMNS;
        let mut columns: Vec<String> = before.iter().map(|c| c.to_string()).collect();
        columns.extend(self.quantities.iter().map(|q| format!("{q}_form")));
        columns.extend(after.iter().map(|c| c.to_string()));
        columns
    }

    /// The atlas as a table ([`Atlas::columns`]), one row per family in rank order; the
    /// quantities' forms written with a fresh residue index (`c_plus(k = 2j) = 4j+2  (j ≥ 1)`).
    pub fn table(&self) -> Table {
        let p = &self.param;
        let index = residue_index(p);
        let columns = self.columns();
        let names: Vec<&str> = columns.iter().map(String::as_str).collect();
        let mut t = Table::new(&names);
        for e in &self.entries {
            // One formula per residue class (a list), and how the form fared when it failed.
            let quantity = |name: &str| -> Cell {
                let Some(q) = e.quantities.iter().find(|q| q.name == name) else {
                    return Cell::list("", "; ", "", Vec::<String>::new());
                };
                let mut items = Vec::new();
                if let (Some(fit), Some(status)) = (&q.fit, &q.status) {
                    items = fit.formulas_of_class(name, p, index);
                    if !status.holds() {
                        items.push(status.text(p, fit.preperiod));
                    }
                }
                Cell::list("", "; ", "", items)
            };
            let (kind, from, status, anomalies, reason, formula) = match &e.payoff {
                PayoffOutcome::Found {
                    kind,
                    from,
                    formula,
                    status,
                    anomalies,
                } => (
                    Cell::Text(kind.to_string()),
                    Cell::Int(*from),
                    status.text(p, *from),
                    anomalies.as_slice(),
                    String::new(),
                    formula.to_string(),
                ),
                PayoffOutcome::NotFound { reason } => (
                    Cell::Text("none".to_string()),
                    Cell::Text(String::new()),
                    reason.status().to_string(),
                    &[][..],
                    reason.to_string(),
                    String::new(),
                ),
                PayoffOutcome::NoPayoff => {
                    let (from, failed, missing) = e.quantities_verdict();
                    let status = match (e.covered(), failed, missing) {
                        (true, ..) => match (from, e.quantities_verified_to()) {
                            (Some(f), Some(to)) => FormStatus::Reverified { to }.text(p, f),
                            _ => "HOLDS".to_string(),
                        },
                        (false, Some((q, s)), _) => {
                            let f = q.fit.as_ref().map_or(e.mined.0, |f| f.preperiod);
                            format!("{}: {}", q.name, s.text(p, f))
                        }
                        (false, None, _) => "NONE".to_string(),
                    };
                    let reason = missing
                        .map(|q| format!("no periodic-linear form for {} on the data", q.name))
                        .unwrap_or_default();
                    (
                        Cell::Text("none (no payoff)".to_string()),
                        from.map_or(Cell::Text(String::new()), Cell::Int),
                        status,
                        &[][..],
                        reason,
                        String::new(),
                    )
                }
            };
            let claims = match &e.novelty {
                Novelty::Known { claims } => claims.clone(),
                _ => Vec::new(),
            };
            let mut row = vec![
                Cell::Text(e.family.clone()),
                Cell::Text(format!("{p} = {}..{}", e.mined.0, e.mined.1)),
                kind,
                from,
                Cell::Text(status),
                Cell::Text(e.novelty.word().to_string()),
                Cell::list("", "; ", "", claims),
                Cell::list("", "; ", "", anomalies.iter().map(|a| anomaly_cell(p, a))),
            ];
            row.extend(self.quantities.iter().map(|q| quantity(q)));
            row.extend([Cell::Text(reason), Cell::Text(formula)]);
            t.push(row);
        }
        t
    }
}

/// An anomaly as a record: member, N, the member's value and the form's.
fn anomaly_cell(param: &str, a: &Anomaly) -> Cell {
    Cell::record(
        vec![
            (param, Cell::Int(a.member)),
            ("N", Cell::Rational(a.at.clone())),
            ("member", Cell::Rational(a.data.clone())),
            ("form", Cell::Rational(a.form.clone())),
        ],
        format!(
            "{param} = {} at N = {}: member {}, form {}",
            a.member, a.at, a.data, a.form
        ),
    )
}

/// The first `n` rows of a column.
fn prefix(column: &Column, n: usize) -> Column {
    match column {
        Column::Int(v) => Column::Int(v[..n].to_vec()),
        Column::Exact(v) => Column::Exact(v[..n].to_vec()),
        Column::Pwl(v) => Column::Pwl(v[..n].to_vec()),
    }
}

/// Mines one family on its data and re-verifies what it finds on every member up to the last
/// row of its columns (see the module doc); of the scalar quantities, those named in
/// `quantities`.
pub fn discover_family(data: &FamilyData, quantities: &[String]) -> Result<AtlasEntry> {
    let (param, first_column) = data
        .columns
        .first()
        .ok_or_else(|| Error::invalid(format!("family {}: no columns", data.name)))?;
    let Column::Int(ks) = first_column else {
        return Err(Error::invalid(format!(
            "family {}: the first column is not the parameter",
            data.name
        )));
    };
    let first = *ks
        .first()
        .ok_or_else(|| Error::invalid(format!("family {}: no members", data.name)))?;
    let last = first + ks.len() as i64 - 1;
    if data.mined_to < first || data.mined_to > last {
        return Err(Error::invalid(format!(
            "family {}: the mined range {param} = {first}..{} is not within the data {first}..{last}",
            data.name, data.mined_to
        )));
    }
    let seen = (data.mined_to - first + 1) as usize;
    let mined: Vec<(String, Column)> = data
        .columns
        .iter()
        .map(|(n, c)| (n.clone(), prefix(c, seen)))
        .collect();
    // Every form is tested on the members beyond the data, so the data need only determine it.
    let forms = family_forms_with(
        &mined,
        &FamilyOptions {
            progressions_confirming: 0,
        },
    )?;
    let payoff = payoff_outcome(&forms, &data.columns, first, data.mined_to)?;
    let quantities = quantities
        .iter()
        .filter_map(|name| {
            let fit = forms.quantities.iter().find(|q| &q.name == name)?;
            let (_, column) = data.columns.iter().find(|(n, _)| n == name)?;
            let status = fit
                .fit
                .as_ref()
                .map(|f| quantity_status(f, column, first, data.mined_to));
            Some(QuantityOutcome {
                name: name.clone(),
                fit: fit.fit.clone(),
                status,
            })
        })
        .collect();
    Ok(AtlasEntry {
        family: data.name.clone(),
        mined: (first, data.mined_to),
        payoff,
        quantities,
        novelty: data.novelty.clone(),
        position: data.position.clone(),
    })
}

/// The payoff's outcome: the form of `forms` compared, through its expression, with every
/// member of the `payoff` column.
fn payoff_outcome(
    forms: &FamilyForms,
    columns: &[(String, Column)],
    first: i64,
    mined_to: i64,
) -> Result<PayoffOutcome> {
    let fs: &[Pwl] = match columns.iter().find(|(n, _)| n == PWL_COLUMN) {
        Some((_, Column::Pwl(fs))) => fs,
        _ => {
            return Ok(PayoffOutcome::NoPayoff);
        }
    };
    let p = &forms.param;
    let (kind, from, formula, anomalies) = if let Some(z) = &forms.closed {
        (
            PayoffKind::Template(z.kind.to_string()),
            z.from,
            family_expr(&z.form, "N", p),
            Vec::new(),
        )
    } else {
        match &forms.progressions {
            Some(Ok(form)) => (
                PayoffKind::Progressions {
                    period: form.period,
                    counts: (0..form.period as i64)
                        .map(|r| form.classes[r as usize].progressions.len())
                        .collect(),
                },
                form.from,
                form.expr("N", p),
                form.anomalies.clone(),
            ),
            Some(Err(why)) => {
                return Ok(PayoffOutcome::NotFound {
                    reason: NoPayoffForm::Progressions(why.clone(), forms.irregular_tail.clone()),
                });
            }
            None => {
                return Ok(PayoffOutcome::NotFound {
                    reason: NoPayoffForm::MemberWithoutPayoff,
                });
            }
        }
    };
    let status = match payoff_form_disagreement(forms, first, fs)? {
        None => FormStatus::Reverified {
            to: first + fs.len() as i64 - 1,
        },
        Some(a) if a.member <= mined_to => FormStatus::NotRebuilt(Box::new(Mismatch::of(a))),
        Some(a) => FormStatus::BrokenBeyond(Box::new(Mismatch::of(a))),
    };
    Ok(PayoffOutcome::Found {
        kind,
        from,
        formula,
        status,
        anomalies,
    })
}

/// A quantity's form compared with its column at every member from the form's start.
fn quantity_status(fit: &PeriodicLinear, column: &Column, first: i64, mined_to: i64) -> FormStatus {
    let values = column.numbers().unwrap_or_default();
    for (j, value) in values.iter().enumerate() {
        let k = first + j as i64;
        if k < fit.preperiod {
            continue;
        }
        let form = fit.eval(k);
        if &form != value {
            let a = Mismatch {
                member: k,
                at: None,
                form,
                data: value.clone(),
            };
            return if k <= mined_to {
                FormStatus::NotRebuilt(Box::new(a))
            } else {
                FormStatus::BrokenBeyond(Box::new(a))
            };
        }
    }
    FormStatus::Reverified {
        to: first + values.len() as i64 - 1,
    }
}
