//! Discovery over NIM with Cash: every move set A ⊆ {1, …, M} at once, each with its thresholds'
//! closed forms PROVEN for all n, its cash-periodicity and its win condition on A-critical
//! states — the paper's §5–7 questions asked of a whole space of sets instead of {1, L} alone.
//!
//! **One set.** f^I and f^II (Def 2.1/2.3) are fitted as periodic-linear in n and proven for
//! every n ≥ n₀ by a certificate (the recurrence of the definitions checked on one window that
//! every larger n reduces to; [`crate::games::cash::certified_forms`], the data doubled until the
//! proof closes). From the proven forms follow, for all n: the period P of the forms, the
//! slopes B_i per period, and so the *rates* B_i/P — dollars per stone, the asymptotic price of
//! the game — and cash-periodicity (Def 4.4 with an offset: W and every C^I(·, a), C^II(·, a)
//! periodic, or a C that grows along a residue class, with the witness). For a cash-periodic set
//! the win condition on A-critical states (Player I wins iff b† ≥ h_i(b) on the corresponding
//! state) is found and PROVEN by induction ([`crate::games::cash::WinCondition`]). A set whose
//! forms do not close within the data bound says why; nothing is guessed.
//!
//! **Across the space.** Each quantity — the plain game's period, the forms' period, the least
//! rate — is fitted exactly as an affine function of (min A, max A) over the sets of each size,
//! over the rationals: a law such as `period = min A + max A` is reported with the number of sets
//! it covers, or with the first set that breaks it (an exact finite check, OBSERVED on the space,
//! never PROVEN).
//!
//! **Novelty.** A set's result is *known* when a claim states f^I, f^II (or a function of the
//! claim file built on them, such as the paper's f_A) of a move set that specialises to it — the
//! rule every space shares (see `stated`); the claim's range of its parameter (e.g. only even
//! L) is not consulted, so "known" may be generous, never "new".

use rayon::prelude::*;

use super::stated::{AffineHeap, HeapFamily, novelty, stated_families};
use super::{AtlasView, Novelty, percent};
use crate::claims::Registry;
use crate::claims::typeset::rational_math;
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::games::cash::across_members;
use crate::games::cash::{
    Amount, Boundary, CashPeriodicity, CashSet, CashTable, MAX_CONDITION_TABLE, WinCondition,
    across_start_data, certified_forms, threshold_bytes, thresholds,
};
use crate::miner::{
    AcrossAnalysis, AcrossFit, AcrossMember, InterceptsAcross, PeriodicLinear, Periodicity,
    across_analysis,
};
use crate::num::{IntRange, Q};
use crate::progress::Progress;
use crate::tables::across::across_forms;
use crate::tables::cash_across::{ACROSS_FUNCTIONS, SetFamily};
use crate::tables::cash_survey::survey_sets;
use crate::tables::mined::formulas_math;
use itertools::Itertools;

/// The functions whose equations state a set's thresholds.
const STATING: [&str; 2] = ["f1", "f2"];

/// Largest M: the space has 2^M − 1 sets.
pub const MAX_ELEMENT: Amount = 16;

/// The win table the win condition's search starts from (as `nimlab cash condition`).
const CONDITION_START_N: Amount = 200;

/// The one-parameter families the atlas follows past M: the paper's {1, L} (§5–7) and its
/// two neighbours.
pub const FAMILIES: [&str; 3] = ["1,L", "1,L,L+1", "L,L+1"];

/// The range of L the families are followed over by default.
pub const FAMILY_L: (i64, i64) = (2, 24);

/// The space of move sets A ⊆ {1, …, M} with |A| in a range, and the [`FAMILIES`] over a range
/// of L.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CashSpace {
    /// M: every element is at most this.
    pub max_element: Amount,
    /// The sizes |A| kept.
    pub sizes: IntRange,
    /// The values of L the [`FAMILIES`] are followed over; `None` leaves them out.
    pub family_l: Option<IntRange>,
}

impl Default for CashSpace {
    fn default() -> CashSpace {
        CashSpace {
            max_element: 10,
            sizes: IntRange::new(1, 10).expect("1 ≤ 10"),
            family_l: Some(IntRange::new(FAMILY_L.0, FAMILY_L.1).expect("2 ≤ 24")),
        }
    }
}

impl CashSpace {
    /// Refuses an empty or too large space, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if self.max_element == 0 || self.max_element > MAX_ELEMENT {
            return Err(Error::invalid(format!(
                "--max-element {}: M runs over 1..{MAX_ELEMENT} (the space has 2^M - 1 sets)",
                self.max_element
            )));
        }
        if self.sizes.start() < 1 || self.sizes.start() > self.max_element as i64 {
            return Err(Error::invalid(format!(
                "--sizes {}: the sizes |A| run over 1..{}",
                self.sizes, self.max_element
            )));
        }
        if let Some(l) = self.family_l
            && l.start() < 2
        {
            return Err(Error::invalid(format!(
                "--family-l {l}: L starts at 2 or more ({{1, L}} needs L ≠ 1)"
            )));
        }
        Ok(())
    }

    /// The sets of the space in the cash survey's order (binary counting of the element masks:
    /// by largest element, then the rest).
    pub fn sets(&self) -> Result<Vec<CashSet>> {
        survey_sets(IntRange::new(1, self.max_element as i64)?, Some(self.sizes))
    }

    /// The work before it starts: the sets, and the memory of the largest tables the workers
    /// hold at once (each worker: the win table the condition's search may grow to, and the
    /// data the forms of the set with the largest element are first fitted on).
    pub fn cost(&self, workers: usize) -> Result<CashSpaceCost> {
        self.validate()?;
        let largest = CashSet::new(vec![self.max_element])?;
        let per_worker = CashTable::bytes(MAX_CONDITION_TABLE)
            + threshold_bytes(across_start_data(&largest), true);
        Ok(CashSpaceCost {
            sets: self.sets()?.len(),
            bytes: per_worker * workers.max(1) as u128,
        })
    }

    /// The space in words.
    pub fn describe(&self) -> String {
        let sets = format!(
            "NIM with Cash move sets A of {{1..{}}} with |A| in {}",
            self.max_element, self.sizes
        );
        match self.family_l {
            Some(l) => format!(
                "{sets}, and the families {} over L = {l}",
                FAMILIES
                    .map(|f| format!("{{{}}}", f.replace(',', ", ")))
                    .join(", ")
            ),
            None => sets,
        }
    }

    /// [`CashSpace::describe`] with `$…$` mathematics, for the rendered atlas.
    pub fn describe_math(&self) -> String {
        let sets = format!(
            "NIM with Cash move sets $A \\subseteq \\lbrace 1, \\dots, {}\\rbrace$ with {}",
            self.max_element,
            super::range_math("\\lvert A\\rvert", self.sizes)
        );
        match self.family_l {
            Some(l) => format!(
                "{sets}, and the families {} over {}",
                FAMILIES
                    .map(|f| format!("$\\lbrace {}\\rbrace$", f.replace(',', ", ")))
                    .join(", "),
                super::range_math("L", l)
            ),
            None => sets,
        }
    }
}

/// The size of a cash space's work, known before any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CashSpaceCost {
    /// Sets.
    pub sets: usize,
    /// The estimated peak bytes.
    pub bytes: u128,
}

/// The win condition of a set's A-critical states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConditionOutcome {
    /// Found and PROVEN for every n ≥ `from`.
    Proven {
        /// q: the boundaries follow n mod q.
        modulus: usize,
        /// Each residue's boundary h_i.
        boundaries: Vec<Boundary>,
        /// p: the common period in b of the boundaries.
        b_period: u64,
        /// σ: how much the critical band widens per period in n.
        band_growth: i64,
        /// The depth of the layer near the poor edge stated apart (0: none).
        edge_depth: usize,
        /// The condition holds for every n ≥ this.
        from: u64,
    },
    /// The set is not cash-periodic: there is no corresponding state to state it on.
    NotCashPeriodic,
    /// The search gave up, and why.
    NotFound {
        /// The reason.
        reason: String,
    },
}

/// What is proven of one set.
#[derive(Clone, Debug)]
pub struct SetForms {
    /// The plain game's winner W_A: its least preperiod and period (proven by a window).
    pub plain: Periodicity,
    /// f^I's form.
    pub f1: PeriodicLinear,
    /// f^II's form.
    pub f2: PeriodicLinear,
    /// P: the period of the certificate (a multiple of both forms' and the plain game's).
    pub period: usize,
    /// The forms hold for every n ≥ this.
    pub from: i64,
    /// The distinct rates B_i/P of f^I and f^II, increasing: dollars per stone.
    pub rates: Vec<Q>,
    /// Cash-periodicity (Def 4.4, with an offset), decided from the forms.
    pub cash: CashPeriodicity,
    /// The win condition on A-critical states.
    pub condition: ConditionOutcome,
}

impl SetForms {
    /// Whether the win condition is proven with no boundary: no state is A-critical.
    fn condition_is_empty(&self) -> bool {
        matches!(&self.condition, ConditionOutcome::Proven { boundaries, .. } if boundaries.is_empty())
    }
}

/// A set's outcome.
#[derive(Clone, Debug)]
pub enum SetOutcome {
    /// The forms are PROVEN.
    Proven(Box<SetForms>),
    /// No proven form, and why.
    NotFound {
        /// The reason.
        reason: String,
    },
}

/// One set of the atlas.
#[derive(Clone, Debug)]
pub struct SetEntry {
    /// A.
    pub set: CashSet,
    /// What is proven of it.
    pub outcome: SetOutcome,
    /// Whether a claim already states its thresholds.
    pub novelty: Novelty,
}

impl SetEntry {
    /// The forms, when proven.
    pub fn forms(&self) -> Option<&SetForms> {
        match &self.outcome {
            SetOutcome::Proven(f) => Some(f),
            SetOutcome::NotFound { .. } => None,
        }
    }

    /// New proven results first, then known ones, then sets without a form.
    fn rank(&self) -> u8 {
        match (&self.outcome, &self.novelty) {
            (SetOutcome::Proven(_), Novelty::Known { .. }) => 1,
            (SetOutcome::Proven(_), _) => 0,
            (SetOutcome::NotFound { .. }, _) => 2,
        }
    }
}

/// A quantity of a set that laws across the space are sought for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetQuantity {
    /// The plain game's least period.
    PlainPeriod,
    /// The least period of the cash game (Def 4.4), for cash-periodic sets.
    CashPeriod,
    /// The least rate B_i/P.
    LeastRate,
    /// The greatest rate B_i/P.
    GreatestRate,
}

impl SetQuantity {
    /// Every quantity, in the atlas's order.
    pub const ALL: [SetQuantity; 4] = [
        SetQuantity::PlainPeriod,
        SetQuantity::CashPeriod,
        SetQuantity::LeastRate,
        SetQuantity::GreatestRate,
    ];

    /// The quantity's name.
    pub fn name(self) -> &'static str {
        match self {
            SetQuantity::PlainPeriod => "plain_period",
            SetQuantity::CashPeriod => "cash_period",
            SetQuantity::LeastRate => "least_rate",
            SetQuantity::GreatestRate => "greatest_rate",
        }
    }

    /// Its value for a set, when it has one.
    /// The quantity's symbol, TeX.
    pub fn symbol(self) -> &'static str {
        match self {
            SetQuantity::PlainPeriod => r"P_{\mathrm{plain}}",
            SetQuantity::CashPeriod => r"P_{\mathrm{cash}}",
            SetQuantity::LeastRate => r"r_{\min}",
            SetQuantity::GreatestRate => r"r_{\max}",
        }
    }

    fn of(self, f: &SetForms) -> Option<Q> {
        match self {
            SetQuantity::PlainPeriod => Some(Q::int(f.plain.period as i64)),
            SetQuantity::CashPeriod => match f.cash {
                CashPeriodicity::Periodic { period, .. } => Some(Q::int(period as i64)),
                CashPeriodicity::NotPeriodic { .. } => None,
            },
            SetQuantity::LeastRate => f.rates.first().cloned(),
            SetQuantity::GreatestRate => f.rates.last().cloned(),
        }
    }
}

/// A law across the sets of one size: the quantity as α + β·min A + γ·max A.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpaceLaw {
    /// The quantity.
    pub quantity: SetQuantity,
    /// The size |A| of the sets it is about.
    pub size: i64,
    /// The sets of that size with the quantity.
    pub sets: usize,
    /// The law, or why there is none.
    pub outcome: LawOutcome,
}

/// Whether a quantity is affine in (min A, max A) on the sets of one size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LawOutcome {
    /// It is, on every set: (α, β, γ).
    Affine([Q; 3]),
    /// The affine function through the first sets breaks at this set.
    Broken {
        /// The affine function fixed by the first sets, (α, β, γ).
        through: [Q; 3],
        /// The first set where it fails …
        set: CashSet,
        /// … the law's value there …
        law: Q,
        /// … and the set's.
        value: Q,
    },
    /// Too few sets to determine an affine function.
    Undetermined,
}

impl SpaceLaw {
    /// A broken law's witness in words: the law through the first sets and the set breaking it.
    fn break_text(&self) -> String {
        match &self.outcome {
            LawOutcome::Broken {
                through,
                set,
                law,
                value,
            } => format!(
                "size {}: {} through the first sets gives {law} at A = {set}, which has {value}",
                self.size,
                affine_text(through)
            ),
            LawOutcome::Affine(_) | LawOutcome::Undetermined => String::new(),
        }
    }

    /// An affine law as a sentence with mathematics, `$P_{\mathrm{plain}}(A) = 2\max A$ on every
    /// set of size 1 (5 sets).` (`None` for the other outcomes, which [`SpaceLaw::text`] words).
    pub fn math(&self) -> Option<String> {
        let LawOutcome::Affine(c) = &self.outcome else {
            return None;
        };
        Some(format!(
            "${}(A) = {}$ on every set of size {} ({} sets).",
            self.quantity.symbol(),
            affine_math3(c),
            self.size,
            self.sets
        ))
    }

    /// [`SpaceLaw::break_text`] with mathematics.
    fn break_math(&self) -> String {
        match &self.outcome {
            LawOutcome::Broken {
                through,
                set,
                law,
                value,
            } => format!(
                "size {}: ${}$ through the first sets gives ${}$ at $A = \\lbrace {}\\rbrace$, \
                 which has ${}$",
                self.size,
                affine_math3(through),
                rational_math(law),
                set.elements().iter().join(", "),
                rational_math(value)
            ),
            LawOutcome::Affine(_) | LawOutcome::Undetermined => String::new(),
        }
    }

    /// The law in words: `period = min A + max A (every set of size 2: 45)`.
    pub fn text(&self) -> String {
        let name = self.quantity.name();
        match &self.outcome {
            LawOutcome::Affine(c) => format!(
                "{name} = {} on every set of size {} ({} sets)",
                affine_text(c),
                self.size,
                self.sets
            ),
            LawOutcome::Broken { .. } => format!(
                "{name} is not affine in (min A, max A) on the sets of {}",
                self.break_text()
            ),
            LawOutcome::Undetermined => format!(
                "{name}: the sets of size {} do not determine an affine law ({} sets)",
                self.size, self.sets
            ),
        }
    }
}

/// [`affine_text`] in TeX: `2\max A - \min A + \tfrac{1}{2}`.
fn affine_math3(c: &[Q; 3]) -> String {
    affine_in_min_max(c, [r"\min A", r"\max A"], rational_math, "")
}

/// c₁·min A + c₂·max A + c₀ in words: `3·min A - max A + 2`.
fn affine_text(c: &[Q; 3]) -> String {
    affine_in_min_max(c, ["min A", "max A"], Q::to_string, "·")
}

/// c₁·x + c₂·y + c₀ with the variables `vars` = [x, y], each coefficient written by `number`
/// and joined to its variable by `times`; a zero term is left out, a unit coefficient unwritten.
fn affine_in_min_max(
    c: &[Q; 3],
    vars: [&str; 2],
    number: impl Fn(&Q) -> String,
    times: &str,
) -> String {
    let mut out = String::new();
    for (coef, var) in [(&c[1], vars[0]), (&c[2], vars[1]), (&c[0], "")] {
        if coef.is_zero() {
            continue;
        }
        let negative = coef.signum() < 0;
        let size = if negative { -coef } else { coef.clone() };
        let term = match (var.is_empty(), size == Q::one()) {
            (true, _) => number(&size),
            (false, true) => var.to_string(),
            (false, false) => format!("{}{times}{var}", number(&size)),
        };
        out.push_str(match (out.is_empty(), negative) {
            (true, false) => "",
            (true, true) => "-",
            (false, false) => " + ",
            (false, true) => " - ",
        });
        out.push_str(&term);
    }
    if out.is_empty() { "0".to_string() } else { out }
}

/// The atlas of a cash space.
#[derive(Clone, Debug)]
pub struct CashAtlas {
    /// The space in words.
    pub space: String,
    /// The space in words with `$…$` mathematics, as the rendered atlas states it.
    pub space_math: String,
    /// Every set, ranked: new proven results first (in the space's order within a rank).
    pub entries: Vec<SetEntry>,
    /// The laws across the space, by quantity then size.
    pub laws: Vec<SpaceLaw>,
    /// Each of the [`FAMILIES`] across L, in that order (empty when they are left out).
    pub families: Vec<FamilyAcross>,
}

/// One family of move sets followed across its parameter L: every member's forms PROVEN for
/// all n, and the second-level closed forms in L of its period, start, slope and intercepts
/// (OBSERVED on the range of L).
#[derive(Clone, Debug)]
pub struct FamilyAcross {
    /// The family, e.g. `{1, L}`.
    pub family: String,
    /// The range of L followed.
    pub l: IntRange,
    /// The analysis, or why the family was not followed.
    pub outcome: FamilyOutcome,
}

/// What following a family across L gave.
#[derive(Clone, Debug)]
pub enum FamilyOutcome {
    /// Every member's forms were proven; the pattern across L, and when some function's
    /// intercepts have no form along every L, the pattern along even and along odd L (step 2).
    Analysed {
        /// Along every L.
        all: Box<AcrossAnalysis>,
        /// Along even L, then odd L, when `all` leaves some intercepts without a form.
        by_parity: Vec<AcrossAnalysis>,
    },
    /// A member's forms could not be proven or its data would not fit: the reason.
    Refused(String),
}

impl FamilyAcross {
    /// The lines `nimlab mine across cash` prints for the family (along every L, then along
    /// each parity of L when that was needed).
    pub fn lines(&self) -> Vec<String> {
        match &self.outcome {
            FamilyOutcome::Refused(reason) => vec![format!("not followed: {reason}")],
            FamilyOutcome::Analysed { all, by_parity } => {
                let mut out = analysis_lines(all);
                for (a, parity) in by_parity.iter().zip(["even", "odd"]) {
                    out.push(format!("along {parity} L (step 2):"));
                    out.extend(analysis_lines(a).into_iter().map(|l| format!("  {l}")));
                }
                out
            }
        }
    }

    /// The family as an atlas item: each quantity's form typeset, with the range it was
    /// observed on.
    fn item(&self) -> crate::report::context::AtlasItem {
        let (first, last) = (self.l.start(), self.l.end());
        let title = format!(
            "$A = {}$, ${first} \\le L \\le {last}$",
            self.family
                .replace('{', "\\lbrace ")
                .replace('}', "\\rbrace")
        );
        let lines = match &self.outcome {
            FamilyOutcome::Refused(reason) => vec![format!("Not followed: {reason}.")],
            FamilyOutcome::Analysed { all, by_parity } => {
                let functions: Vec<(&str, &str)> = ACROSS_FUNCTIONS
                    .iter()
                    .map(|(_, name, symbol)| (*name, *symbol))
                    .collect();
                let forms = |a: &AcrossAnalysis| -> Vec<String> {
                    across_forms(a, "L", &functions)
                        .into_iter()
                        .flat_map(|f| f.formulas)
                        .collect()
                };
                let mut lines = forms(all);
                for (a, parity) in by_parity.iter().zip(["even", "odd"]) {
                    lines.push(format!("Along {parity} $L$:"));
                    lines.extend(forms(a));
                }
                lines
            }
        };
        crate::report::context::AtlasItem {
            title,
            formulas: Vec::new(),
            lines,
        }
    }
}

/// The lines of one analysis: the period, the start, the slope, then each function's
/// intercepts with their coefficients in L.
fn analysis_lines(a: &AcrossAnalysis) -> Vec<String> {
    let mut out = vec![a.period.text("period"), a.proven_from.text("proven_from")];
    out.push(match &a.slope {
        Some(fit) => fit.text("slope"),
        None => "slope: the slopes differ between residues for some L".to_string(),
    });
    for f in &a.functions {
        out.extend(
            f.across
                .text(&f.name)
                .lines()
                .map(|l| l.strip_prefix("  ").unwrap_or(l).to_string()),
        );
    }
    out
}

/// Follows each of [`FAMILIES`] over `l`: every member's forms proven (as `nimlab mine across
/// cash`), then the pattern across L. A family whose members cannot all be proven, or whose data
/// would not fit in `max_bytes`, is kept with the reason.
pub fn families_across(
    l: IntRange,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<Vec<FamilyAcross>> {
    let names: Vec<&str> = ACROSS_FUNCTIONS.iter().map(|(_, name, _)| *name).collect();
    FAMILIES
        .iter()
        .map(|written| {
            let family = written
                .parse()
                .map_err(|e| Error::invalid(format!("family {written}: {e}")))?;
            let family = SetFamily::new(family)?;
            let outcome = family
                .members(l, 1, max_bytes)
                .and_then(|sets| across_members(&sets, max_bytes, progress))
                .map_or_else(
                    |e| FamilyOutcome::Refused(e.to_string()),
                    |members| {
                        let all = Box::new(across_analysis(members.clone(), &names, 1));
                        // {1, L} has period 2 on odd L and L + 1 on even L: its intercept
                        // tables change shape at every step, but not along one parity.
                        let formless = all.functions.iter().any(|f| {
                            !matches!(
                                f.across,
                                InterceptsAcross::Whole(_) | InterceptsAcross::Forms { .. }
                            )
                        });
                        let by_parity = if formless {
                            [0, 1]
                                .map(|parity| {
                                    let along: Vec<AcrossMember> = members
                                        .iter()
                                        .filter(|m| m.l.rem_euclid(2) == parity)
                                        .cloned()
                                        .collect();
                                    across_analysis(along, &names, 2)
                                })
                                .into()
                        } else {
                            Vec::new()
                        };
                        FamilyOutcome::Analysed { all, by_parity }
                    },
                );
            Ok(FamilyAcross {
                family: format!("{{{}}}", written.replace(',', ", ")),
                l,
                outcome,
            })
        })
        .collect()
}

/// The columns of [`CashAtlas::table`].
pub const CASH_ATLAS_COLUMNS: [&str; 19] = [
    "set",
    "size",
    "status",
    "novelty",
    "known_claims",
    "plain_preperiod",
    "plain_period",
    "period",
    "proven_from",
    "rates",
    "cash_periodic",
    "cash_period",
    "cash_from",
    "not_periodic_because",
    "condition_status",
    "condition_modulus",
    "condition",
    "forms",
    "reason",
];

/// The columns of [`CashAtlas::families_table`]: one row per family, parity of L and quantity.
pub const CASH_FAMILY_COLUMNS: [&str; 8] = [
    "family",
    "l_from",
    "l_to",
    "along",
    "quantity",
    "closed_form",
    "form",
    "reason",
];

/// The columns of [`CashAtlas::laws_table`]: one row per quantity and size of set.
pub const CASH_LAW_COLUMNS: [&str; 10] = [
    "quantity",
    "size",
    "sets",
    "status",
    "constant",
    "min_coefficient",
    "max_coefficient",
    "broken_at",
    "law_value",
    "set_value",
];

/// The counts the atlas's summary states.
struct Tally {
    /// Sets with proven forms.
    proven: usize,
    /// All sets.
    all: usize,
    /// Proven sets that are cash-periodic.
    periodic: usize,
    /// Sets with a proven win condition.
    conditions: usize,
    /// Proven sets no claim states.
    new: usize,
}

impl CashAtlas {
    fn tally(&self) -> Tally {
        let (proven, all) = self.coverage();
        let forms: Vec<&SetForms> = self.entries.iter().filter_map(SetEntry::forms).collect();
        Tally {
            proven,
            all,
            periodic: forms
                .iter()
                .filter(|f| matches!(f.cash, CashPeriodicity::Periodic { .. }))
                .count(),
            conditions: forms
                .iter()
                .filter(|f| matches!(f.condition, ConditionOutcome::Proven { .. }))
                .count(),
            new: self
                .entries
                .iter()
                .filter(|e| e.forms().is_some() && e.novelty == Novelty::New)
                .count(),
        }
    }

    /// For each quantity with a size whose sets break an affine law, those sizes' laws.
    fn broken_laws(&self) -> Vec<(SetQuantity, Vec<&SpaceLaw>)> {
        SetQuantity::ALL
            .into_iter()
            .map(|quantity| {
                let broken = self
                    .laws
                    .iter()
                    .filter(|l| {
                        l.quantity == quantity && matches!(l.outcome, LawOutcome::Broken { .. })
                    })
                    .collect::<Vec<_>>();
                (quantity, broken)
            })
            .filter(|(_, broken)| !broken.is_empty())
            .collect()
    }

    /// Sets with proven forms, and all sets.
    pub fn coverage(&self) -> (usize, usize) {
        let proven = self.entries.iter().filter(|e| e.forms().is_some()).count();
        (proven, self.entries.len())
    }

    /// The summary: the space, the coverage, the new results, cash-periodicity, the win
    /// conditions, and the laws across the space.
    pub fn summary(&self) -> String {
        let Tally {
            proven,
            all,
            periodic,
            conditions,
            new,
        } = self.tally();
        let mut out = format!("space: {}\n", self.space);
        out.push_str(&format!(
            "sets: {all}; f^I and f^II PROVEN for all n on {proven} ({:.1}%)\n",
            percent(proven, all)
        ));
        out.push_str(&format!(
            "new: {new} sets whose proven thresholds no claim states\n"
        ));
        out.push_str(&format!(
            "cash-periodic: {periodic} of {proven}; win condition on A-critical states PROVEN for {conditions} of {periodic}\n"
        ));
        if let Some(first) = self.families.first() {
            out.push_str(&format!(
                "families across L = {}..{} (each member PROVEN for all n, the forms in L OBSERVED on the range):\n",
                first.l.start(),
                first.l.end()
            ));
            for f in &self.families {
                out.push_str(&format!("  A = {}:\n", f.family));
                for line in f.lines() {
                    out.push_str(&format!("    {line}\n"));
                }
            }
        }
        out.push_str("laws across the space (OBSERVED on it):\n");
        for law in self
            .laws
            .iter()
            .filter(|l| matches!(l.outcome, LawOutcome::Affine(_)))
        {
            out.push_str(&format!("  {}\n", law.text()));
        }
        // The sizes without an affine law, one line per quantity, with its first break.
        for (quantity, broken) in self.broken_laws() {
            let sizes = broken.iter().map(|l| l.size).join(", ");
            out.push_str(&format!(
                "  {} is not affine in (min A, max A) on the sets of size {sizes}; e.g. {}\n",
                quantity.name(),
                broken[0].break_text()
            ));
        }
        out
    }

    /// The summary, then one line per set.
    pub fn text(&self) -> String {
        let mut out = self.summary();
        for e in &self.entries {
            let what = match &e.outcome {
                SetOutcome::Proven(f) => {
                    let cash = match &f.cash {
                        CashPeriodicity::Periodic { period, from } => {
                            format!("cash-periodic with period {period} from n = {from}")
                        }
                        CashPeriodicity::NotPeriodic { .. } => {
                            format!("not cash-periodic: {}", not_periodic_text(f))
                        }
                    };
                    let condition = match &f.condition {
                        ConditionOutcome::Proven {
                            modulus, b_period, ..
                        } => format!(
                            "; win condition PROVEN (boundaries h_i, i = n mod {modulus}, period {b_period} in b)"
                        ),
                        ConditionOutcome::NotCashPeriodic => String::new(),
                        ConditionOutcome::NotFound { reason } => {
                            format!("; no win condition: {reason}")
                        }
                    };
                    format!(
                        "W_A period {} from n = {}; f^I, f^II period {}, PROVEN for n ≥ {}, rates {}; {cash}{condition}",
                        f.plain.period,
                        f.plain.preperiod,
                        f.period,
                        f.from,
                        rates_text(&f.rates)
                    )
                }
                SetOutcome::NotFound { reason } => format!("no proven form: {reason}"),
            };
            out.push_str(&format!("[{}] A = {}: {what}\n", e.novelty.word(), e.set));
        }
        out
    }

    /// One row per set in rank order ([`CASH_ATLAS_COLUMNS`]).
    pub fn table(&self) -> Table {
        let mut t = Table::new(&CASH_ATLAS_COLUMNS);
        let empty = || Cell::Text(String::new());
        for e in &self.entries {
            let claims = match &e.novelty {
                Novelty::Known { claims } => claims.clone(),
                _ => Vec::new(),
            };
            let mut row = vec![
                Cell::list("{", ",", "}", e.set.elements().iter().copied()),
                Cell::Int(e.set.elements().len() as i64),
            ];
            match &e.outcome {
                SetOutcome::Proven(f) => {
                    let (periodic, period, from, because) = match &f.cash {
                        CashPeriodicity::Periodic { period, from } => {
                            ("yes", Cell::Int(*period as i64), Cell::Int(*from), empty())
                        }
                        CashPeriodicity::NotPeriodic { .. } => {
                            ("no", empty(), empty(), Cell::Text(not_periodic_text(f)))
                        }
                    };
                    let (status, modulus, boundaries, reason) = match &f.condition {
                        ConditionOutcome::Proven {
                            modulus,
                            boundaries,
                            from,
                            ..
                        } => (
                            format!("PROVEN for n ≥ {from}"),
                            Cell::Int(*modulus as i64),
                            boundaries.iter().map(Boundary::compact).collect(),
                            String::new(),
                        ),
                        ConditionOutcome::NotCashPeriodic => (
                            "NONE (not cash-periodic)".into(),
                            empty(),
                            Vec::new(),
                            String::new(),
                        ),
                        ConditionOutcome::NotFound { reason } => {
                            ("NONE".into(), empty(), Vec::new(), reason.clone())
                        }
                    };
                    let mut forms = f.f1.formulas_in("f1", "k");
                    forms.extend(f.f2.formulas_in("f2", "k"));
                    row.extend([
                        Cell::Text("PROVEN".into()),
                        Cell::Text(e.novelty.word().into()),
                        Cell::list("", "; ", "", claims),
                        Cell::Int(f.plain.preperiod as i64),
                        Cell::Int(f.plain.period as i64),
                        Cell::Int(f.period as i64),
                        Cell::Int(f.from),
                        Cell::list("{", ",", "}", f.rates.iter().cloned()),
                        Cell::Text(periodic.into()),
                        period,
                        from,
                        because,
                        Cell::Text(status),
                        modulus,
                        Cell::list("", "; ", "", boundaries),
                        Cell::list("", "; ", "", forms),
                        Cell::Text(reason),
                    ]);
                }
                SetOutcome::NotFound { reason } => {
                    row.extend([
                        Cell::Text("NONE".into()),
                        Cell::Text(e.novelty.word().into()),
                        Cell::list("", "; ", "", claims),
                    ]);
                    row.extend((0..10).map(|_| empty()));
                    row.extend([
                        Cell::list("", "; ", "", Vec::<String>::new()),
                        Cell::list("", "; ", "", Vec::<String>::new()),
                        Cell::Text(reason.clone()),
                    ]);
                }
            }
            t.push(row);
        }
        t
    }
}

impl CashAtlas {
    /// One row per family, parity of L followed (`all`, then `even` and `odd` when the
    /// intercepts needed them) and quantity ([`CASH_FAMILY_COLUMNS`]): its form in L as text,
    /// OBSERVED on the range of L, or why there is none. A family that was not followed is one
    /// row with the reason.
    pub fn families_table(&self) -> Table {
        let mut t = Table::new(&CASH_FAMILY_COLUMNS);
        for fam in &self.families {
            let row = |along: &str, quantity: &str, form: Option<String>, reason: String| {
                vec![
                    Cell::Text(fam.family.clone()),
                    Cell::Int(fam.l.start()),
                    Cell::Int(fam.l.end()),
                    Cell::Text(along.to_string()),
                    Cell::Text(quantity.to_string()),
                    Cell::Bool(form.is_some()),
                    Cell::Text(form.unwrap_or_default()),
                    Cell::Text(reason),
                ]
            };
            let (all, by_parity) = match &fam.outcome {
                FamilyOutcome::Refused(reason) => {
                    t.push(row("all", "", None, reason.clone()));
                    continue;
                }
                FamilyOutcome::Analysed { all, by_parity } => (all, by_parity),
            };
            let analyses = std::iter::once(("all", all.as_ref()))
                .chain(["even", "odd"].into_iter().zip(by_parity.iter()));
            for (along, a) in analyses {
                let fit = |name: &str, fit: &AcrossFit| match fit {
                    AcrossFit::None => (None, "no closed form found across L".to_string()),
                    found => (Some(found.text(name)), String::new()),
                };
                for (name, f) in [("period", &a.period), ("proven_from", &a.proven_from)] {
                    let (form, reason) = fit(name, f);
                    t.push(row(along, name, form, reason));
                }
                let (form, reason) = match &a.slope {
                    Some(f) => fit("slope", f),
                    None => (None, "the slopes differ between residues for some L".into()),
                };
                t.push(row(along, "slope", form, reason));
                for f in &a.functions {
                    // The pattern's lines as one cell: a heading line ends in a colon, which
                    // stays; the function's name opens the text, and is the row's quantity.
                    let text = f
                        .across
                        .text(&f.name)
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .join("; ")
                        .replace(":; ", ": ");
                    let text = text
                        .strip_prefix(&format!("{}: ", f.name))
                        .map_or(text.clone(), str::to_string);
                    let (form, reason) = match f.across {
                        InterceptsAcross::NoForm | InterceptsAcross::ShapeChanges => (None, text),
                        _ => (Some(text), String::new()),
                    };
                    t.push(row(along, &f.name, form, reason));
                }
            }
        }
        t
    }

    /// One row per law across the space ([`CASH_LAW_COLUMNS`]): the quantity as
    /// α + β·min A + γ·max A on the sets of one size (OBSERVED on the space), or the first set
    /// breaking the affine function through the first sets, with both values.
    pub fn laws_table(&self) -> Table {
        let mut t = Table::new(&CASH_LAW_COLUMNS);
        let empty = || Cell::Text(String::new());
        for law in &self.laws {
            let mut row = vec![
                Cell::Text(law.quantity.name().to_string()),
                Cell::Int(law.size),
                Cell::Int(law.sets as i64),
            ];
            let coefficients = |c: &[Q; 3]| c.iter().map(|q| Cell::Rational(q.clone())).collect();
            match &law.outcome {
                LawOutcome::Affine(c) => {
                    row.push(Cell::Text("affine".into()));
                    row.extend::<Vec<Cell>>(coefficients(c));
                    row.extend([empty(), empty(), empty()]);
                }
                LawOutcome::Broken {
                    through,
                    set,
                    law,
                    value,
                } => {
                    row.push(Cell::Text("broken".into()));
                    row.extend::<Vec<Cell>>(coefficients(through));
                    row.push(Cell::list("{", ",", "}", set.elements().iter().copied()));
                    row.push(Cell::Rational(law.clone()));
                    row.push(Cell::Rational(value.clone()));
                }
                LawOutcome::Undetermined => {
                    row.push(Cell::Text("undetermined".into()));
                    row.extend([empty(), empty(), empty(), empty(), empty(), empty()]);
                }
            }
            t.push(row);
        }
        t
    }
}

impl AtlasView for CashAtlas {
    fn text(&self) -> String {
        CashAtlas::text(self)
    }

    fn table(&self) -> Table {
        CashAtlas::table(self)
    }

    fn space(&self) -> &str {
        &self.space
    }

    fn space_math(&self) -> &str {
        &self.space_math
    }

    fn row(&self) -> &'static str {
        "move set"
    }

    fn more_tables(&self) -> Vec<(&'static str, &'static str, Table)> {
        vec![
            (
                "families",
                "the families across $L$, one row per family, parity of $L$ and quantity",
                self.families_table(),
            ),
            (
                "laws",
                "the laws across the space, one row per quantity and size of $A$",
                self.laws_table(),
            ),
        ]
    }

    fn document(
        &self,
    ) -> (
        Vec<crate::report::context::AtlasFinding>,
        Vec<crate::report::context::AtlasSection>,
    ) {
        let summary = self.findings();
        let mut sections = Vec::new();
        if !self.families.is_empty() {
            sections.push(crate::report::context::AtlasSection {
                title: "Families across L".into(),
                intro: "Each member's thresholds are PROVEN for all $n$; the forms in $L$ of the \
                        period $P$, the start $n_0$, the slope per period $B$ and the intercepts \
                        $c_i$ of $f_A(Pk + i) = B_i k + c_i$ are OBSERVED on the range of $L$."
                    .into(),
                items: self.families.iter().map(FamilyAcross::item).collect(),
            });
        }
        sections.extend(self.set_sections());
        (summary, sections)
    }
}

impl CashAtlas {
    /// The summary as the document's findings, with mathematics: the coverage, the new results,
    /// cash-periodicity and the win conditions, then each law across the space.
    fn findings(&self) -> Vec<crate::report::context::AtlasFinding> {
        use crate::report::context::AtlasFinding;
        let Tally {
            proven,
            all,
            periodic,
            conditions,
            new,
        } = self.tally();
        let finding = |label: &str, text: String| AtlasFinding {
            label: label.to_string(),
            text,
        };
        let mut out = vec![
            finding(
                "Coverage",
                format!(
                    "$f^{{\\mathrm{{I}}}}$ and $f^{{\\mathrm{{II}}}}$ are PROVEN for all $n$ on \
                     {proven} of {all} sets ({:.1}%).",
                    percent(proven, all)
                ),
            ),
            finding(
                "Novelty",
                format!("{new} sets have proven thresholds that no claim states."),
            ),
            finding(
                "Cash-periodicity",
                format!(
                    "{periodic} of the {proven} proven sets are cash-periodic; the win condition \
                     on A-critical states is PROVEN for {conditions} of those {periodic}."
                ),
            ),
        ];
        out.extend(
            self.laws
                .iter()
                .filter_map(SpaceLaw::math)
                .map(|law| finding("Law (OBSERVED)", law)),
        );
        for (quantity, broken) in self.broken_laws() {
            let sizes = broken.iter().map(|l| l.size).join(", ");
            out.push(finding(
                "No law",
                format!(
                    "${}$ is not affine in $(\\min A, \\max A)$ on the sets of size {sizes}; \
                     e.g. {}.",
                    quantity.symbol(),
                    broken[0].break_math()
                ),
            ));
        }
        out
    }

    /// The sets as the document states them: the new results, the results whose novelty was
    /// not judged, the known ones, then the sets without a proven form.
    fn set_sections(&self) -> Vec<crate::report::context::AtlasSection> {
        use crate::report::context::AtlasSection;
        let proven = |keep: fn(&Novelty) -> bool| -> Vec<_> {
            self.entries
                .iter()
                .filter(|e| e.forms().is_some() && keep(&e.novelty))
                .map(SetEntry::item)
                .collect()
        };
        let holds = "Each threshold is stated per residue of $n$ modulo the period $P$, with the \
                     first $k$ it holds from; every statement is PROVEN for all $n$ by a \
                     certificate."
            .to_string();
        let groups = [
            (
                "New results",
                format!("No claim of the claim files consulted states these thresholds. {holds}"),
                proven(|n| *n == Novelty::New),
            ),
            (
                "Results (novelty not judged)",
                holds.clone(),
                proven(|n| *n == Novelty::Unchecked),
            ),
            (
                "Known results",
                format!(
                    "A claim of the claim files states the thresholds of a family containing \
                     each of these sets. {holds}"
                ),
                proven(|n| matches!(n, Novelty::Known { .. })),
            ),
            (
                "Sets without a proven form",
                "Each with the reason.".to_string(),
                self.entries
                    .iter()
                    .filter(|e| e.forms().is_none())
                    .map(SetEntry::item)
                    .collect(),
            ),
        ];
        groups
            .into_iter()
            .filter(|(_, _, items)| !items.is_empty())
            .map(|(title, intro, items)| AtlasSection {
                title: title.to_string(),
                intro,
                items,
            })
            .collect()
    }
}

impl SetEntry {
    /// The set as a document item: its thresholds' forms typeset, one line per function with
    /// every residue, then the period, the rates, cash-periodicity and the win condition.
    fn item(&self) -> crate::report::context::AtlasItem {
        let elements = self.set.elements().iter().map(u64::to_string).join(", ");
        let title = format!("$A = \\lbrace {elements}\\rbrace$");
        let mut lines = Vec::new();
        match &self.outcome {
            SetOutcome::Proven(f) => {
                for (form, symbol) in [(&f.f1, r"f^{\mathrm{I}}"), (&f.f2, r"f^{\mathrm{II}}")] {
                    lines.push(format!("{}.", formulas_math(form, symbol, "k").join(", ")));
                }
                lines.push(format!(
                    "Period ${}$ of the certificate, PROVEN for every $n \\ge {}$; the plain \
                     game's winner has least preperiod ${}$ and least period ${}$; rates (dollars \
                     per stone) ${}$.",
                    f.period,
                    f.from,
                    f.plain.preperiod,
                    f.plain.period,
                    f.rates.iter().map(rational_math).join(",\\ ")
                ));
                lines.push(match &f.cash {
                    CashPeriodicity::Periodic { period, from } => format!(
                        "Cash-periodic (Def 4.4, with an offset) with period ${period}$ from \
                         $n = {from}$."
                    ),
                    CashPeriodicity::NotPeriodic { .. } => {
                        format!("Not cash-periodic: {}.", not_periodic_text(f))
                    }
                });
                lines.push(match &f.condition {
                    ConditionOutcome::Proven { from, .. } if f.condition_is_empty() => format!(
                        "No state is A-critical for any $n \\ge {from}$ (PROVEN): Theorems 2.4 \
                         and 3.7 decide every state."
                    ),
                    ConditionOutcome::Proven {
                        modulus,
                        boundaries,
                        from,
                        ..
                    } => format!(
                        "Win condition on the A-critical states PROVEN for every $n \\ge {from}$, \
                         the boundaries following $n \\bmod {modulus}$: {}.",
                        boundaries.iter().map(Boundary::compact_math).join("; ")
                    ),
                    ConditionOutcome::NotCashPeriodic => {
                        "No win condition: the set is not cash-periodic.".to_string()
                    }
                    ConditionOutcome::NotFound { reason } => {
                        format!("No win condition found: {reason}.")
                    }
                });
            }
            SetOutcome::NotFound { reason } => lines.push(format!("No proven form: {reason}.")),
        }
        if let Novelty::Known { claims } = &self.novelty {
            lines.push(format!("Stated by the claims {}.", claims.join(", ")));
        }
        crate::report::context::AtlasItem {
            title,
            formulas: Vec::new(),
            lines,
        }
    }
}

/// The witness that a set is not cash-periodic, in words.
fn not_periodic_text(f: &SetForms) -> String {
    match &f.cash {
        CashPeriodicity::NotPeriodic {
            residue,
            a,
            growth,
            which,
        } => format!(
            "{which}(n, {a}) grows by {growth} per period along n ≡ {residue} (mod {})",
            f.period
        ),
        CashPeriodicity::Periodic { .. } => String::new(),
    }
}

/// `{4/5}` or `{5/8, 11/16}`.
fn rates_text(rates: &[Q]) -> String {
    let r: Vec<String> = rates.iter().map(Q::to_string).collect();
    format!("{{{}}}", r.join(", "))
}

/// What is proven of one set (see the module doc); `max_bytes` bounds each table.
pub fn discover_set(set: &CashSet, max_bytes: u64) -> Result<SetOutcome> {
    let forms = match certified_forms(set, max_bytes) {
        Ok(forms) => forms,
        Err(e) => {
            return Ok(SetOutcome::NotFound {
                reason: e.to_string(),
            });
        }
    };
    let plain = forms.plain_period.clone();
    // W_A through its first period covers every n the periodicity test reads.
    let th = thresholds(set, (plain.preperiod + plain.period) as Amount + set.max())?;
    let cash = forms.cash_periodicity(set, &th.winner);
    let condition = match cash {
        CashPeriodicity::NotPeriodic { .. } => ConditionOutcome::NotCashPeriodic,
        CashPeriodicity::Periodic { .. } => {
            match WinCondition::find(set, CONDITION_START_N, max_bytes) {
                Ok(wc) => ConditionOutcome::Proven {
                    modulus: wc.modulus,
                    boundaries: wc.boundaries.clone(),
                    b_period: wc.proof.b_period,
                    band_growth: wc.proof.band_growth,
                    edge_depth: wc.edge.depth,
                    from: wc.proof.from,
                },
                Err(e) => ConditionOutcome::NotFound {
                    reason: e.to_string(),
                },
            }
        }
    };
    let mut rates: Vec<Q> = [&forms.f1, &forms.f2]
        .iter()
        .flat_map(|f| {
            let p = Q::int(f.period as i64);
            f.lines.iter().map(move |l| &l.slope / &p)
        })
        .collect();
    rates.sort();
    rates.dedup();
    Ok(SetOutcome::Proven(Box::new(SetForms {
        plain,
        period: forms.certificate.recurrence.period,
        from: forms.certificate.from,
        f1: forms.f1,
        f2: forms.f2,
        rates,
        cash,
        condition,
    })))
}

/// The laws of every quantity across the sets of each size (see the module doc).
pub fn space_laws(entries: &[SetEntry]) -> Vec<SpaceLaw> {
    let mut sizes: Vec<usize> = entries.iter().map(|e| e.set.elements().len()).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut laws = Vec::new();
    for quantity in SetQuantity::ALL {
        for &size in &sizes {
            let points: Vec<(&CashSet, Q)> = entries
                .iter()
                .filter(|e| e.set.elements().len() == size)
                .filter_map(|e| Some((&e.set, quantity.of(e.forms()?)?)))
                .collect();
            laws.push(SpaceLaw {
                quantity,
                size: size as i64,
                sets: points.len(),
                outcome: affine_law(&points),
            });
        }
    }
    laws
}

/// The features of a set: (1, min A, max A).
fn features(set: &CashSet) -> [Q; 3] {
    [Q::one(), Q::int(set.min() as i64), Q::int(set.max() as i64)]
}

/// The affine law through the points in (min A, max A): fixed by the first three points whose
/// features are independent, then checked on every point.
fn affine_law(points: &[(&CashSet, Q)]) -> LawOutcome {
    let Some(coefficients) = solve_through(points) else {
        return LawOutcome::Undetermined;
    };
    let at = |set: &CashSet| -> Q {
        features(set)
            .iter()
            .zip(&coefficients)
            .fold(Q::zero(), |acc, (x, c)| &acc + &(x * c))
    };
    match points.iter().find(|(set, v)| at(set) != *v) {
        None => LawOutcome::Affine(coefficients),
        Some((set, value)) => LawOutcome::Broken {
            law: at(set),
            through: coefficients,
            set: (*set).clone(),
            value: value.clone(),
        },
    }
}

/// The coefficients through the first three points with independent features, by Cramer's
/// rule over the rationals (through two points in max A alone when min A = max A throughout).
fn solve_through(points: &[(&CashSet, Q)]) -> Option<[Q; 3]> {
    let det3 = |m: &[[Q; 3]; 3]| -> Q {
        let minor = |a: &Q, b: &Q, c: &Q, d: &Q| &(a * d) - &(b * c);
        let t0 = &m[0][0] * &minor(&m[1][1], &m[1][2], &m[2][1], &m[2][2]);
        let t1 = &m[0][1] * &minor(&m[1][0], &m[1][2], &m[2][0], &m[2][2]);
        let t2 = &m[0][2] * &minor(&m[1][0], &m[1][1], &m[2][0], &m[2][1]);
        &(&t0 - &t1) + &t2
    };
    let rows: Vec<([Q; 3], &Q)> = points.iter().map(|(s, v)| (features(s), v)).collect();
    for i in 0..rows.len() {
        for j in i + 1..rows.len() {
            for k in j + 1..rows.len() {
                let m = [rows[i].0.clone(), rows[j].0.clone(), rows[k].0.clone()];
                let d = det3(&m);
                if d.is_zero() {
                    continue;
                }
                let values = [rows[i].1, rows[j].1, rows[k].1];
                let solved = |col: usize| -> Q {
                    let mut mc = m.clone();
                    for (r, v) in mc.iter_mut().zip(values) {
                        r[col] = v.clone();
                    }
                    &det3(&mc) / &d
                };
                return Some([solved(0), solved(1), solved(2)]);
            }
        }
    }
    // Sets of one element (min A = max A): α + γ·max A through two points with distinct max A.
    let (first, second) = rows
        .iter()
        .find_map(|a| rows.iter().find(|b| b.0[2] != a.0[2]).map(|b| (a, b)))?;
    let gamma = &(second.1 - first.1) / &(&second.0[2] - &first.0[2]);
    let alpha = first.1 - &(&gamma * &first.0[2]);
    Some([alpha, Q::zero(), gamma])
}

/// The atlas of `space`: every set's proven forms, cash-periodicity and win condition (in
/// parallel), novelty judged against `registries` (none: every result `unchecked`), and the laws
/// across the space. `progress` hears one unit per set.
pub fn discover(
    space: &CashSpace,
    registries: &[Registry],
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<CashAtlas> {
    space.validate()?;
    let sets = space.sets()?;
    let stated = stated_families(registries, &STATING);
    progress.stage(&format!("proving the forms of {} sets", sets.len()));
    progress.add_work(sets.len() as u64);
    let mut entries = sets
        .par_iter()
        // One task per set: their costs differ widely (see `check_chosen` of the claims).
        .with_max_len(1)
        .map(|set| {
            let outcome = discover_set(set, max_bytes);
            progress.advance(1);
            let family = HeapFamily::new(
                set.elements()
                    .iter()
                    .map(|&a| AffineHeap {
                        slope: 0,
                        offset: a as i64,
                    })
                    .collect(),
            );
            let novelty = if registries.is_empty() {
                Novelty::Unchecked
            } else {
                novelty(&family, &stated)
            };
            Ok(SetEntry {
                set: set.clone(),
                outcome: outcome?,
                novelty,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let laws = space_laws(&entries);
    entries.sort_by_key(SetEntry::rank);
    let families = match space.family_l {
        Some(l) => {
            progress.stage(&format!("following {} families across L", FAMILIES.len()));
            families_across(l, max_bytes, progress)?
        }
        None => Vec::new(),
    };
    Ok(CashAtlas {
        space: space.describe(),
        space_math: space.describe_math(),
        entries,
        laws,
        families,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::miner::AcrossFit;
    use crate::progress::Silent;

    /// The atlas of every A ⊆ {1..max}, without the families across L or claims.
    fn atlas_of_subsets(max: Amount) -> CashAtlas {
        let space = CashSpace {
            max_element: max,
            sizes: IntRange::new(1, max as i64).unwrap(),
            family_l: None,
        };
        discover(&space, &[], 1 << 30, &Silent).unwrap()
    }

    fn set(elements: &[Amount]) -> CashSet {
        CashSet::new(elements.to_vec()).unwrap()
    }

    #[test]
    fn the_space_lists_every_set_of_the_sizes_kept() {
        let space = CashSpace {
            max_element: 3,
            sizes: IntRange::new(1, 3).unwrap(),
            family_l: None,
        };
        let sets: Vec<String> = space
            .sets()
            .unwrap()
            .iter()
            .map(CashSet::to_string)
            .collect();
        assert_eq!(
            sets,
            ["{1}", "{2}", "{1,2}", "{3}", "{1,3}", "{2,3}", "{1,2,3}"]
        );
        let pairs = CashSpace {
            sizes: IntRange::new(2, 2).unwrap(),
            ..space.clone()
        };
        assert_eq!(pairs.sets().unwrap().len(), 3);
        for bad in [
            CashSpace {
                max_element: 0,
                ..space.clone()
            },
            CashSpace {
                max_element: MAX_ELEMENT + 1,
                ..space.clone()
            },
            CashSpace {
                sizes: IntRange::new(4, 5).unwrap(),
                ..space.clone()
            },
            CashSpace {
                family_l: Some(IntRange::new(1, 10).unwrap()),
                ..space
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn proven_forms_are_the_thresholds_of_the_definitions() {
        let atlas = atlas_of_subsets(5);
        assert_eq!(atlas.coverage(), (31, 31));
        for e in &atlas.entries {
            let f = e.forms().unwrap();
            // Def 2.1/2.3 computed directly, well past where the forms are proven.
            let th = thresholds(&e.set, 300).unwrap();
            for n in f.from.max(0)..=300 {
                let i = n as usize;
                assert_eq!(f.f1.eval(n), Q::int(th.f1[i] as i64), "{} f1({n})", e.set);
                assert_eq!(f.f2.eval(n), Q::int(th.f2[i] as i64), "{} f2({n})", e.set);
            }
            // The rates are the slopes per stone: f1 grows by about rate·n.
            let slope = &(&f.f1.eval(f.from + 10 * f.period as i64) - &f.f1.eval(f.from))
                / &Q::int(10 * f.period as i64);
            assert!(f.rates.contains(&slope), "{}: {slope}", e.set);
            assert_eq!(e.novelty, Novelty::Unchecked);
        }
        // One element a: W_A has period 2a; the law says so.
        let law = atlas
            .laws
            .iter()
            .find(|l| l.quantity == SetQuantity::PlainPeriod && l.size == 1)
            .unwrap();
        assert_eq!(
            law.outcome,
            LawOutcome::Affine([Q::zero(), Q::zero(), Q::int(2)])
        );
    }

    #[test]
    fn a_perturbed_set_breaks_the_law_its_neighbours_follow() {
        let sets: Vec<CashSet> = [[1, 2], [1, 3], [2, 3], [1, 4], [2, 5], [3, 5]]
            .iter()
            .map(|s| set(s))
            .collect();
        let value = |s: &CashSet| Q::int((s.min() + s.max()) as i64);
        let mut points: Vec<(&CashSet, Q)> = sets.iter().map(|s| (s, value(s))).collect();
        assert_eq!(
            affine_law(&points),
            LawOutcome::Affine([Q::zero(), Q::one(), Q::one()])
        );
        points[4].1 = Q::int(8);
        assert_eq!(
            affine_law(&points),
            LawOutcome::Broken {
                through: [Q::zero(), Q::one(), Q::one()],
                set: set(&[2, 5]),
                law: Q::int(7),
                value: Q::int(8),
            }
        );
        assert_eq!(affine_law(&points[..1]), LawOutcome::Undetermined);
    }

    #[test]
    fn the_families_forms_in_l_give_every_members_proven_period_and_slope() {
        let l = IntRange::new(2, 16).unwrap();
        let families = families_across(l, 1 << 30, &Silent).unwrap();
        let names: Vec<&str> = families.iter().map(|f| f.family.as_str()).collect();
        assert_eq!(names, ["{1, L}", "{1, L, L+1}", "{L, L+1}"]);
        for f in &families {
            let FamilyOutcome::Analysed { all, by_parity } = &f.outcome else {
                panic!("{} not followed", f.family)
            };
            assert_eq!(all.members.len(), 15, "{}", f.family);
            for m in &all.members {
                let written = FAMILIES[names.iter().position(|n| *n == f.family).unwrap()];
                let set = SetFamily::new(written.parse().unwrap())
                    .unwrap()
                    .set_at(m.l)
                    .unwrap();
                let at = |fit: &AcrossFit| -> Option<Q> {
                    match fit {
                        AcrossFit::Affine { slope, constant } => {
                            Some(&(slope * &Q::int(m.l)) + constant)
                        }
                        AcrossFit::PeriodicInIndex {
                            classes,
                            exceptions,
                            ..
                        } => exceptions
                            .iter()
                            .find(|(l, _)| *l == m.l)
                            .map(|(_, v)| v.clone())
                            .or_else(|| {
                                classes.iter().find(|c| c.contains(m.l)).map(|c| c.at(m.l))
                            }),
                        AcrossFit::None => None,
                    }
                };
                assert_eq!(
                    at(&all.period),
                    Some(Q::int(m.period as i64)),
                    "{} period at L = {}",
                    f.family,
                    m.l
                );
                // The forms in L against the thresholds of Def 2.1/2.3 computed directly:
                // P(L) is a period of both with growth B(L) per period, from the member's
                // start on (and from n₀(L), where the start has a form in L).
                let period = m.period;
                if let Some(from) = at(&all.proven_from) {
                    assert_eq!(from, Q::int(m.from), "{} start at L = {}", f.family, m.l);
                }
                let from = m.from.max(0) as usize;
                let th = thresholds(&set, (from + 4 * period) as Amount).unwrap();
                for n in from..from + 3 * period {
                    for (name, values) in [("f1", &th.f1), ("f2", &th.f2)] {
                        let growth = Q::int(values[n + period] as i64 - values[n] as i64);
                        if let Some(slope) = &all.slope {
                            assert_eq!(
                                Some(growth),
                                at(slope),
                                "{} {name}({n}) L = {}",
                                f.family,
                                m.l
                            );
                        }
                    }
                }
            }
            // {1, L} alternates between period L + 1 (even L) and 2 (odd L): its intercepts
            // have forms along each parity, not along every L.
            if f.family == "{1, L}" {
                assert_eq!(by_parity.len(), 2);
                for a in by_parity {
                    assert!(
                        a.functions.iter().all(|f| matches!(
                            f.across,
                            InterceptsAcross::Whole(_) | InterceptsAcross::Forms { .. }
                        )),
                        "{:?}",
                        a.functions
                    );
                }
            }
        }
        let one_l = &families[0];
        assert!(
            one_l.lines()[0]
                .starts_with("period(L) = L+1 for L ≡ 0 (mod 2); period(L) = 2 for L ≡ 1 (mod 2)"),
            "{:?}",
            one_l.lines()
        );
    }

    #[test]
    fn the_document_states_each_sets_thresholds_per_residue_as_mathematics() {
        let atlas = atlas_of_subsets(4);
        let (findings, sections) = AtlasView::document(&atlas);
        let texts: Vec<&str> = findings.iter().map(|f| f.text.as_str()).collect();
        assert!(
            texts.contains(&"$P_{\\mathrm{plain}}(A) = 2\\max A$ on every set of size 1 (4 sets)."),
            "{texts:?}"
        );
        let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Results (novelty not judged)"]);
        let items = &sections[0].items;
        assert_eq!(items.len(), 15);
        for (item, e) in items.iter().zip(&atlas.entries) {
            let f = e.forms().unwrap();
            // One statement per residue of each threshold's own period, in TeX.
            for (line, form) in item.lines.iter().zip([&f.f1, &f.f2]) {
                assert_eq!(line.matches(" = ").count(), form.period, "{line}");
                assert!(line.starts_with("$f^{\\mathrm{I"), "{line}");
            }
        }
        let one = items
            .iter()
            .find(|i| i.title == "$A = \\lbrace 1\\rbrace$")
            .unwrap();
        assert_eq!(
            one.lines[0],
            "$f^{\\mathrm{I}}(2k) = k$ ($k \\ge 0$), $f^{\\mathrm{I}}(2k + 1) = k + 1$ ($k \\ge 0$)."
        );
        assert!(
            one.lines[4].starts_with("No state is A-critical"),
            "{:?}",
            one.lines
        );
    }
}
