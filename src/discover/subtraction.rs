//! Discovery over Stewart's scoring subtraction games: families of subtraction sets whose
//! elements are affine in one parameter L — {L − 1, L}, {1, L}, {2L, L + 3}, … — and the least
//! preperiod and least period of n ↦ G_s(n) as closed forms in L.
//!
//! **The space.** Each element is a·L + b with the slope a and offset b in given ranges (a fixed
//! element b ≥ 1 when a = 0); a family is a set of such elements with one that grows, written
//! largest slope first, and a family that is another with L shifted is listed once (the rule
//! every heap-list space shares, see `stated`). Two elements that are the same function of L are
//! one element, so such families are left out. A member exists where every element is at
//! least 1 and no two coincide: the family starts at the least L from which that holds for
//! every larger L too.
//!
//! **The values.** For each member the period search on G_s proves the least preperiod and least
//! period by the window argument (a window of max S values recurs; see
//! [`crate::games::scoring::survey_set`]). Both quantities grow with L — the period typically
//! as 2·max S, the preperiod quadratically ((2L − 1)(L − 2) for {L − 1, L}) — so each is fitted
//! as a quasi-polynomial in L ([`crate::miner::fit_quasi_polynomial`]: a polynomial of degree
//! ≤ 3 per residue class of L modulo m ≤ 6, from some L₀) on the mined members, and compared
//! exactly with every member up to the re-verification bound: HOLDS on that range, never
//! PROVEN. A member whose period is not proven within the heap limit ends the family's data,
//! with the reason.
//!
//! **Conjecture 14** (2·max S is a period of G_s) is checked on every member: the atlas says
//! whether 2·max S is the least period, a multiple of it, or neither, and where.
//!
//! **Novelty.** The claims language has no function for a subtraction game's period (the
//! papers' periods are builtin checks of single games), so no claim can state a form in L:
//! with claim files given, every form is *new*; without, *unchecked*.

use rayon::prelude::*;

use super::stated::{HeapFamily, affine_families};
use super::{AtlasView, Duplicate, FormStatus, Mismatch, Novelty, percent, validate_mined};
use crate::claims::Registry;
use crate::claims::eval::Definitions;
use crate::claims::expr::{BinOp, Expr};
use crate::claims::typeset::expr_math;
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::games::scoring::{HeapSize, Limits, survey_set};
use crate::miner::{KLine, QuasiOptions, QuasiPolynomial, fit_quasi_polynomial};
use crate::num::{IntRange, Q};
use crate::progress::Progress;
use crate::report::context::{AtlasFinding, AtlasItem, AtlasSection};

/// The most elements a family's sets may have.
pub const MAX_SET_SIZE: usize = 4;

/// The parameter's name.
const PARAM: &str = "L";

/// The fit's reach: a polynomial of degree ≤ 3 per residue class modulo m ≤ 6 (the preperiod of
/// {L − 2, L + d} follows L modulo d + 2), two confirming values per class.
const FIT: QuasiOptions = QuasiOptions {
    max_degree: 3,
    max_modulus: 6,
    confirming: 2,
};

/// A space of subtraction-set families (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionSpace {
    /// Elements per set.
    pub size: usize,
    /// The slopes a of the elements a·L + b.
    pub slopes: IntRange,
    /// The offsets b.
    pub offsets: IntRange,
    /// The members the miner sees, L = L₀..L₁ (a family's first member may come later).
    pub l: IntRange,
    /// The last member re-verified (at least L₁).
    pub verify_to: i64,
    /// The period search gives up beyond this heap.
    pub max_heap: HeapSize,
}

impl Default for SubtractionSpace {
    fn default() -> SubtractionSpace {
        let l = IntRange::new(1, 24).expect("1 ≤ 24");
        SubtractionSpace {
            size: 2,
            slopes: IntRange::new(0, 2).expect("0 ≤ 2"),
            offsets: IntRange::new(-2, 3).expect("−2 ≤ 3"),
            verify_to: super::twice(l),
            l,
            max_heap: 100_000,
        }
    }
}

/// The size of a space's work, known before any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionSpaceCost {
    /// Families kept.
    pub families: usize,
    /// Families left out as shifts.
    pub duplicates: usize,
    /// Period searches (members up to the re-verification bound).
    pub members: usize,
    /// The largest element of any member.
    pub max_element: i64,
}

impl SubtractionSpace {
    /// Refuses a space that has no family or is out of range, naming the bad value.
    pub fn validate(&self) -> Result<()> {
        if self.size == 0 || self.size > MAX_SET_SIZE {
            return Err(Error::invalid(format!(
                "--size {}: a set of the space has 1 to {MAX_SET_SIZE} elements",
                self.size
            )));
        }
        if self.slopes.start() < 0 || self.slopes.end() < 1 || self.slopes.end() > 16 {
            return Err(Error::invalid(format!(
                "--slopes {}: slopes run over 0..16 and must reach 1 (a family needs an element that grows)",
                self.slopes
            )));
        }
        if self.offsets.start().abs().max(self.offsets.end().abs()) > 1 << 10 {
            return Err(Error::invalid(format!(
                "--offsets {}: offsets run over -1024..1024",
                self.offsets
            )));
        }
        validate_mined(PARAM, self.l, 1 << 10, self.verify_to, 1 << 11)
    }

    /// The families of the space in order, and those left out as shifts of them.
    pub fn families(&self) -> (Vec<HeapFamily>, Vec<Duplicate>) {
        let (kept, duplicates) = affine_families(self.size, self.slopes, self.offsets);
        let distinct = |f: &HeapFamily| f.0.windows(2).all(|w| w[0] != w[1]);
        let kept = kept.into_iter().filter(distinct).collect();
        (kept, duplicates)
    }

    /// The work before it starts.
    pub fn cost(&self) -> Result<SubtractionSpaceCost> {
        self.validate()?;
        let (families, duplicates) = self.families();
        let members = families
            .iter()
            .map(|f| (self.verify_to - first_member(f, self.l.start()) + 1).max(0) as usize)
            .sum();
        let max_element = families
            .iter()
            .flat_map(|f| f.0.iter().map(|h| h.at(self.verify_to)))
            .max()
            .unwrap_or(0);
        Ok(SubtractionSpaceCost {
            families: families.len(),
            duplicates: duplicates.len(),
            members,
            max_element,
        })
    }

    /// The space in words.
    pub fn describe(&self) -> String {
        format!(
            "scoring subtraction games with {} elements a·L + b, a in {}, b in {}, mined on L = {}, re-verified on L <= {}",
            self.size, self.slopes, self.offsets, self.l, self.verify_to
        )
    }

    /// [`SubtractionSpace::describe`] with `$…$` mathematics, for the rendered atlas.
    pub fn describe_math(&self) -> String {
        format!(
            "scoring subtraction games with ${}$ elements $a L + b$, {} and {}, mined on {}, re-verified on $L \\le {}$",
            self.size,
            super::range_math("a", self.slopes),
            super::range_math("b", self.offsets),
            super::range_math("L", self.l),
            self.verify_to
        )
    }
}

/// The least L ≥ `from` from which every member exists: each element ≥ 1 and no two equal, at
/// L and every larger L (two different affine elements meet at most once).
fn first_member(fam: &HeapFamily, from: i64) -> i64 {
    let mut start = from;
    for (i, x) in fam.0.iter().enumerate() {
        if x.slope > 0 {
            // a·L + b ≥ 1 ⇔ L ≥ ⌈(1 − b)/a⌉.
            start = start.max((1 - x.offset + x.slope - 1).div_euclid(x.slope));
        }
        for y in &fam.0[i + 1..] {
            let (da, db) = (x.slope - y.slope, y.offset - x.offset);
            // They meet at L = db/da when that is a whole number.
            if da != 0 && db % da == 0 {
                let meet = db / da;
                // Beyond the meeting point only if the meeting is not already behind.
                if meet >= start {
                    start = meet + 1;
                }
            }
        }
    }
    start
}

/// The set at L, increasing.
fn set_at(fam: &HeapFamily, l: i64) -> Vec<HeapSize> {
    let mut set: Vec<HeapSize> = fam.0.iter().map(|h| h.at(l) as HeapSize).collect();
    set.sort_unstable();
    set
}

/// One quantity's closed form, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrowthForm {
    /// A form was fitted on the mined members.
    Found {
        /// The form.
        form: QuasiPolynomial,
        /// How it fared on every member up to the re-verification bound.
        status: FormStatus,
    },
    /// None was found, and why.
    NotFound {
        /// The reason.
        reason: String,
    },
}

impl GrowthForm {
    fn holds(&self) -> bool {
        matches!(self, GrowthForm::Found { status, .. } if status.holds())
    }
}

/// What Conjecture 14 (2·max S is a period of G_s) says on a family's members.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conjecture14 {
    /// 2·max S is the least period on every member.
    LeastPeriod,
    /// 2·max S is a multiple of the least period on every member (the least at some).
    Period,
    /// It fails at this member: the least period does not divide 2·max S.
    FailsAt {
        /// The member.
        member: i64,
        /// Its least period.
        period: i64,
        /// Its 2·max S.
        twice_max: i64,
    },
}

/// One family of the atlas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionEntry {
    /// The family as written (`L,L-1`).
    pub family: String,
    /// Its elements as lines in L, largest slope first.
    pub elements: Vec<KLine>,
    /// The first member and the last the miner saw.
    pub mined: (i64, i64),
    /// The least preperiod's form.
    pub preperiod: GrowthForm,
    /// The least period's form.
    pub period: GrowthForm,
    /// Conjecture 14 on the members whose period is proven (`None`: no member).
    pub conjecture_14: Option<Conjecture14>,
    /// Whether a claim states the forms.
    pub novelty: Novelty,
}

impl SubtractionEntry {
    /// Whether both forms survived re-verification.
    pub fn covered(&self) -> bool {
        self.preperiod.holds() && self.period.holds()
    }

    /// New covered families first, then known ones, then one form only, then the rest.
    fn rank(&self) -> u8 {
        match (
            self.covered(),
            &self.novelty,
            self.preperiod.holds() || self.period.holds(),
        ) {
            (true, Novelty::Known { .. }, _) => 1,
            (true, _, _) => 0,
            (false, _, true) => 2,
            (false, _, false) => 3,
        }
    }
}

/// The atlas of a subtraction space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionAtlas {
    /// The space in words.
    pub space: String,
    /// The space in words with `$…$` mathematics, as the rendered atlas states it.
    pub space_math: String,
    /// The families, ranked.
    pub entries: Vec<SubtractionEntry>,
    /// Families left out as shifts of others.
    pub duplicates: Vec<Duplicate>,
}

/// The columns of [`SubtractionAtlas::table`].
pub const SUBTRACTION_ATLAS_COLUMNS: [&str; 11] = [
    "family",
    "mined",
    "preperiod_form",
    "preperiod_status",
    "period_form",
    "period_status",
    "conjecture_14",
    "novelty",
    "reason",
    "preperiod_formula",
    "period_formula",
];

impl SubtractionAtlas {
    /// Families with both forms re-verified, and all families.
    pub fn coverage(&self) -> (usize, usize) {
        let covered = self.entries.iter().filter(|e| e.covered()).count();
        (covered, self.entries.len())
    }

    /// Families on whose members 2·max S is the least period, a period (not always the least),
    /// and where it fails.
    fn conjecture_14_counts(&self) -> (usize, usize, usize) {
        let count = |f: &dyn Fn(&Option<Conjecture14>) -> bool| {
            self.entries.iter().filter(|e| f(&e.conjecture_14)).count()
        };
        (
            count(&|c| *c == Some(Conjecture14::LeastPeriod)),
            count(&|c| *c == Some(Conjecture14::Period)),
            count(&|c| matches!(c, Some(Conjecture14::FailsAt { .. }))),
        )
    }

    /// The summary: the space, coverage, and Conjecture 14.
    pub fn summary(&self) -> String {
        let (covered, all) = self.coverage();
        let percent = percent(covered, all);
        let count =
            |f: &dyn Fn(&SubtractionEntry) -> bool| self.entries.iter().filter(|e| f(e)).count();
        let mut out = format!("space: {}\n", self.space);
        out.push_str(&format!(
            "families: {all} ({} more left out as shifts of these in {PARAM})\n",
            self.duplicates.len()
        ));
        out.push_str(&format!(
            "coverage: {covered} of {all} ({percent:.1}%) have the preperiod's and the period's forms re-verified beyond the data\n"
        ));
        out.push_str(&format!(
            "preperiod: {} forms re-verified; period: {}\n",
            count(&|e| e.preperiod.holds()),
            count(&|e| e.period.holds())
        ));
        let (least, period, fails) = self.conjecture_14_counts();
        out.push_str(&format!(
            "Conjecture 14 (2·max S is a period): the least period on every member of {least} families, a period on every member of {period} more, fails in {fails}\n"
        ));
        out
    }

    /// The summary, then one line per family.
    pub fn text(&self) -> String {
        let mut out = self.summary();
        for e in &self.entries {
            let quantity = |name: &str, q: &GrowthForm| match q {
                GrowthForm::Found { form, status } => format!(
                    "{}, {}",
                    form.formulas(name, PARAM).join("; "),
                    status.text(PARAM, form.from).replacen("HOLDS", "holds", 1)
                ),
                GrowthForm::NotFound { reason } => format!("{name}: no form ({reason})"),
            };
            out.push_str(&format!(
                "[{}] ({}) on {PARAM} = {}..{}: {}; {}\n",
                e.novelty.word(),
                e.family,
                e.mined.0,
                e.mined.1,
                quantity("preperiod", &e.preperiod),
                quantity("period", &e.period)
            ));
        }
        out
    }

    /// One row per family in rank order ([`SUBTRACTION_ATLAS_COLUMNS`]).
    pub fn table(&self) -> Table {
        let mut t = Table::new(&SUBTRACTION_ATLAS_COLUMNS);
        for e in &self.entries {
            let cells = |name: &str, q: &GrowthForm| -> (Cell, Cell, Cell, String) {
                match q {
                    GrowthForm::Found { form, status } => (
                        Cell::list("", "; ", "", form.formulas(name, PARAM)),
                        Cell::Text(status.text(PARAM, form.from)),
                        Cell::Text(form.expr(PARAM)),
                        String::new(),
                    ),
                    GrowthForm::NotFound { reason } => (
                        Cell::list("", "; ", "", Vec::<String>::new()),
                        Cell::Text("NONE".into()),
                        Cell::Text(String::new()),
                        format!("{name}: {reason}"),
                    ),
                }
            };
            let (pre_form, pre_status, pre_expr, pre_reason) = cells("preperiod", &e.preperiod);
            let (per_form, per_status, per_expr, per_reason) = cells("period", &e.period);
            let reason: Vec<String> = [pre_reason, per_reason]
                .into_iter()
                .filter(|r| !r.is_empty())
                .collect();
            t.push(vec![
                Cell::Text(e.family.clone()),
                Cell::Text(format!("{PARAM} = {}..{}", e.mined.0, e.mined.1)),
                pre_form,
                pre_status,
                per_form,
                per_status,
                Cell::Text(conjecture_14_text(e.conjecture_14.as_ref())),
                Cell::Text(e.novelty.word().into()),
                Cell::Text(reason.join("; ")),
                pre_expr,
                per_expr,
            ]);
        }
        t
    }
}

impl AtlasView for SubtractionAtlas {
    fn text(&self) -> String {
        SubtractionAtlas::text(self)
    }

    fn table(&self) -> Table {
        SubtractionAtlas::table(self)
    }

    fn space(&self) -> &str {
        &self.space
    }

    fn space_math(&self) -> &str {
        &self.space_math
    }

    fn document(&self) -> (Vec<AtlasFinding>, Vec<AtlasSection>) {
        let (covered, all) = self.coverage();
        let count =
            |f: &dyn Fn(&SubtractionEntry) -> bool| self.entries.iter().filter(|e| f(e)).count();
        let finding = |label: &str, text: String| AtlasFinding {
            label: label.to_string(),
            text,
        };
        let (least, period, fails) = self.conjecture_14_counts();
        let summary = vec![
            finding(
                "Coverage",
                format!(
                    "{covered} of {all} families ({:.1}%) have the least preperiod and the least period as quasi-polynomials in ${PARAM}$ that the members beyond the mined range confirm ({} preperiods, {} periods).",
                    percent(covered, all),
                    count(&|e| e.preperiod.holds()),
                    count(&|e| e.period.holds())
                ),
            ),
            finding(
                "Conjecture 14",
                format!(
                    "$2 \\max S$ is the least period on every member of {least} families and a period on every member of {period} more; it fails in {fails}."
                ),
            ),
            finding(
                "Status",
                "Every member's preperiod and period used here is PROVEN by the window argument (a family's values stop at its first member whose period is not proven); a form across the members is a finite check (HOLDS on the members re-verified, not PROVEN).".to_string(),
            ),
        ];
        let items = self.entries.iter().map(entry_item).collect();
        let section = AtlasSection {
            title: "Families".to_string(),
            intro: format!(
                "In the atlas's order: both forms re-verified first. A class $L \\equiv r \\pmod{{m}}$ is stated with the first ${PARAM}$ its form holds from."
            ),
            items,
        };
        (summary, vec![section])
    }
}

/// One family of the document: its set, its forms as equations, their status.
fn entry_item(e: &SubtractionEntry) -> AtlasItem {
    let defs = Definitions::new();
    let elements: Vec<String> = e
        .elements
        .iter()
        .map(|l| expr_math(&l.expr(PARAM), &defs))
        .collect();
    let set = format!("S_{{{PARAM}}} = \\lbrace {} \\rbrace", elements.join(", "));
    let mut formulas = Vec::new();
    let mut lines = vec![format!(
        "Mined on ${} \\le {PARAM} \\le {}$.",
        e.mined.0, e.mined.1
    )];
    for (name, q) in [("preperiod", &e.preperiod), ("period", &e.period)] {
        match q {
            GrowthForm::Found { form, status } => {
                for r in 0..form.modulus {
                    let value = expr_math(&polynomial(&form.classes[r], PARAM), &defs);
                    let class = if form.modulus == 1 {
                        format!("{PARAM} \\ge {}", form.from)
                    } else {
                        format!(
                            "{PARAM} \\equiv {r} \\pmod{{{}}},\\ {PARAM} \\ge {}",
                            form.modulus, form.from
                        )
                    };
                    formulas.push(format!(
                        "\\operatorname{{{name}}}(S_{{{PARAM}}}) = {value} \\quad ({class})"
                    ));
                }
                lines.push(format!(
                    "The {name}: {}.",
                    super::document::status_words(status, form.from, PARAM)
                ));
            }
            GrowthForm::NotFound { reason } => {
                lines.push(format!("The {name}: no form ({reason})."));
            }
        }
    }
    let conjecture = conjecture_14_text(e.conjecture_14.as_ref());
    if !conjecture.is_empty() {
        lines.push(format!("Conjecture 14: {conjecture}."));
    }
    if let Novelty::Known { claims } = &e.novelty {
        lines.push(format!("Stated by the claims {}.", claims.join(", ")));
    }
    AtlasItem {
        title: format!("${set}$"),
        formulas,
        lines,
    }
}

/// Σ cⱼ·param^j as an expression, highest degree first, a negative term subtracted.
fn polynomial(coefficients: &[Q], param: &str) -> Expr {
    let mut out: Option<Expr> = None;
    for (j, c) in coefficients.iter().enumerate().rev() {
        if c.is_zero() {
            continue;
        }
        let size = if c.signum() < 0 {
            -c.clone()
        } else {
            c.clone()
        };
        let power = match j {
            0 => None,
            1 => Some(Expr::var(param)),
            _ => Some(Expr::binary(
                BinOp::Pow,
                Expr::var(param),
                Expr::int(j as i64),
            )),
        };
        let term = match power {
            None => Expr::rational(&size),
            Some(p) if size == Q::one() => p,
            Some(p) => Expr::rational(&size) * p,
        };
        out = Some(match (out, c.signum() < 0) {
            (None, false) => term,
            (None, true) => -term,
            (Some(e), false) => e + term,
            (Some(e), true) => e - term,
        });
    }
    out.unwrap_or_else(|| Expr::int(0))
}

/// Conjecture 14's verdict on a family in words.
fn conjecture_14_text(c: Option<&Conjecture14>) -> String {
    match c {
        None => String::new(),
        Some(Conjecture14::LeastPeriod) => "2·max S is the least period".into(),
        Some(Conjecture14::Period) => "2·max S is a period".into(),
        Some(Conjecture14::FailsAt {
            member,
            period,
            twice_max,
        }) => format!(
            "fails at {PARAM} = {member}: least period {period} does not divide 2·max S = {twice_max}"
        ),
    }
}

/// A member's proven least preperiod and period.
struct MemberValues {
    preperiod: i64,
    period: i64,
    twice_max: i64,
}

/// The members' values from `first` on, up to the first member whose period is not proven
/// (with why).
fn member_values(
    fam: &HeapFamily,
    first: i64,
    to: i64,
    max_heap: HeapSize,
    limits: &Limits,
) -> Result<(Vec<MemberValues>, Option<String>)> {
    let mut out = Vec::new();
    for l in first..=to {
        let set = set_at(fam, l);
        let row = survey_set(set.clone(), max_heap, limits)?;
        match row.report.periodicity.as_ref().filter(|p| p.is_proven()) {
            Some(p) => out.push(MemberValues {
                preperiod: p.preperiod as i64,
                period: p.period as i64,
                twice_max: 2 * i64::from(row.max()),
            }),
            None => {
                let shown: Vec<String> = set.iter().map(|x| x.to_string()).collect();
                return Ok((
                    out,
                    Some(format!(
                        "at {PARAM} = {l} (S = {{{}}}) the period is not proven up to heap {max_heap}: {}",
                        shown.join(","),
                        row.report.argument
                    )),
                ));
            }
        }
    }
    Ok((out, None))
}

/// A quantity's form fitted on the mined members and compared with every member.
fn quantity_fit(values: &[i64], first: i64, mined_to: i64, stopped: Option<&str>) -> GrowthForm {
    let seen = ((mined_to - first + 1).max(0) as usize).min(values.len());
    let data: Vec<Q> = values[..seen].iter().map(|&v| Q::int(v)).collect();
    let Some(form) = fit_quasi_polynomial(first, &data, &FIT) else {
        let why = match stopped {
            Some(s) if seen < (mined_to - first + 1).max(0) as usize => s.to_string(),
            _ => format!(
                "no quasi-polynomial of degree ≤ {} and modulus ≤ {} with {} confirming values per class on {PARAM} = {first}..{}",
                FIT.max_degree,
                FIT.max_modulus,
                FIT.confirming,
                first + seen as i64 - 1
            ),
        };
        return GrowthForm::NotFound { reason: why };
    };
    let mismatch = values.iter().enumerate().find_map(|(j, &v)| {
        let l = first + j as i64;
        let f = form.eval(l);
        (l >= form.from && f != Q::int(v)).then(|| Mismatch {
            member: l,
            at: None,
            form: f,
            data: Q::int(v),
        })
    });
    let status = match mismatch {
        None => FormStatus::Reverified {
            to: first + values.len() as i64 - 1,
        },
        Some(m) if m.member <= mined_to => FormStatus::NotRebuilt(Box::new(m)),
        Some(m) => FormStatus::BrokenBeyond(Box::new(m)),
    };
    GrowthForm::Found { form, status }
}

/// Conjecture 14 on the members (from `first`).
fn conjecture_14(values: &[MemberValues], first: i64) -> Option<Conjecture14> {
    if values.is_empty() {
        return None;
    }
    for (j, v) in values.iter().enumerate() {
        if v.twice_max % v.period != 0 {
            return Some(Conjecture14::FailsAt {
                member: first + j as i64,
                period: v.period,
                twice_max: v.twice_max,
            });
        }
    }
    Some(if values.iter().all(|v| v.period == v.twice_max) {
        Conjecture14::LeastPeriod
    } else {
        Conjecture14::Period
    })
}

/// The atlas of `space` (see the module doc): every family's members solved (in parallel),
/// its forms fitted on the mined members and compared with all; `progress` hears one unit per
/// family.
pub fn discover(
    space: &SubtractionSpace,
    registries: &[Registry],
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<SubtractionAtlas> {
    space.validate()?;
    let (families, duplicates) = space.families();
    progress.stage(&format!("solving {} families", families.len()));
    progress.add_work(families.len() as u64);
    let novelty = if registries.is_empty() {
        Novelty::Unchecked
    } else {
        Novelty::New
    };
    let mut entries = families
        .par_iter()
        // One task per family: their costs differ widely (see `check_chosen` of the claims).
        .with_max_len(1)
        .map(|fam| {
            let first = first_member(fam, space.l.start());
            let mined_to = space.l.end().max(first);
            let (values, stopped) =
                member_values(fam, first, space.verify_to, space.max_heap, limits)?;
            let column = |f: fn(&MemberValues) -> i64| values.iter().map(f).collect::<Vec<_>>();
            let entry = SubtractionEntry {
                family: fam.written(PARAM),
                elements: fam.position(),
                mined: (first, mined_to),
                preperiod: quantity_fit(
                    &column(|v| v.preperiod),
                    first,
                    mined_to,
                    stopped.as_deref(),
                ),
                period: quantity_fit(&column(|v| v.period), first, mined_to, stopped.as_deref()),
                conjecture_14: conjecture_14(&values, first),
                novelty: novelty.clone(),
            };
            progress.advance(1);
            Ok(entry)
        })
        .collect::<Result<Vec<_>>>()?;
    entries.sort_by_key(SubtractionEntry::rank);
    Ok(SubtractionAtlas {
        space: space.describe(),
        space_math: space.describe_math(),
        entries,
        duplicates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;

    fn fam(elements: &[(i64, i64)]) -> HeapFamily {
        HeapFamily::of_pairs(elements)
    }

    #[test]
    fn members_start_where_every_element_is_positive_and_distinct() {
        // {L − 1, L}: L − 1 ≥ 1 from L = 2.
        assert_eq!(first_member(&fam(&[(1, 0), (1, -1)]), 1), 2);
        // {2, L}: L = 2 coincides, so from 3.
        assert_eq!(first_member(&fam(&[(0, 2), (1, 0)]), 1), 3);
        // {2L − 2, L}: they meet at L = 2 and 2L − 2 ≥ 1 from L = 2, so from 3.
        assert_eq!(first_member(&fam(&[(2, -2), (1, 0)]), 1), 3);
        // {2L, L + 3}: meet at 3.
        assert_eq!(first_member(&fam(&[(2, 0), (1, 3)]), 1), 4);
        assert_eq!(first_member(&fam(&[(2, 0), (1, 3)]), 10), 10);
    }

    #[test]
    fn the_preperiod_of_l_minus_one_l_is_quadratic_and_every_form_gives_the_members() {
        let space = SubtractionSpace {
            size: 2,
            slopes: IntRange::new(0, 1).unwrap(),
            offsets: IntRange::new(-1, 2).unwrap(),
            l: IntRange::new(1, 14).unwrap(),
            verify_to: 22,
            max_heap: 100_000,
        };
        let limits = Limits { max_bytes: 1 << 30 };
        let atlas = discover(&space, &[], &limits, &Silent).unwrap();
        let e = atlas
            .entries
            .iter()
            .find(|e| e.family == "L,L-1")
            .expect("{L − 1, L} is in the space");
        let GrowthForm::Found { form, status } = &e.preperiod else {
            panic!("{e:?}");
        };
        assert!(status.holds(), "{status:?}");
        assert_eq!(form.modulus, 1);
        // (2L − 1)(L − 2) = 2L² − 5L + 2.
        assert_eq!(form.classes[0], vec![Q::int(2), Q::int(-5), Q::int(2)]);
        // Every form the atlas prints gives the members' values, computed afresh here.
        let mut checked = 0;
        for e in &atlas.entries {
            let f: crate::family::Family = e.family.replace(PARAM, "k").parse().unwrap();
            for (q, pick) in [
                (
                    &e.preperiod,
                    (|p: &crate::miner::Periodicity| p.preperiod) as fn(&_) -> usize,
                ),
                (&e.period, |p| p.period),
            ] {
                let GrowthForm::Found { form, status } = q else {
                    continue;
                };
                if !status.holds() {
                    continue;
                }
                for l in form.from.max(e.mined.0)..=space.verify_to {
                    let ranges = std::collections::BTreeMap::from([(
                        "k".to_string(),
                        IntRange::new(l, l).unwrap(),
                    )]);
                    let member = f.members(&ranges).unwrap().remove(0);
                    let mut set: Vec<HeapSize> = member.heaps.clone();
                    set.sort_unstable();
                    let row = survey_set(set, 100_000, &limits).unwrap();
                    let p = row.report.periodicity.unwrap();
                    assert_eq!(form.eval(l), Q::int(pick(&p) as i64), "{} at {l}", e.family);
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn a_polynomial_typesets_as_written_and_evaluates_to_its_values() {
        use crate::claims::engines::Engines;
        use crate::claims::eval::Evaluator;
        use crate::claims::value::Value;
        let defs = Definitions::new();
        let c = |v: &[i64]| v.iter().map(|&x| Q::int(x)).collect::<Vec<Q>>();
        let math = |v: &[i64]| expr_math(&polynomial(&c(v), "L"), &defs);
        assert_eq!(math(&[4, -5, 1]), "L^{2} - 5L + 4");
        assert_eq!(math(&[0, 2]), "2L");
        assert_eq!(math(&[-3]), "-3");
        assert_eq!(math(&[]), "0");
        assert_eq!(math(&[1, 0, -2]), "-2L^{2} + 1");
        let mut engines = Engines::new();
        let mut ev = Evaluator::new(&defs, &mut engines);
        for coefficients in [
            &[4, -5, 1][..],
            &[0, 2],
            &[-3],
            &[7, 0, -2, 3],
            &[0, -1, 0, 1],
        ] {
            let e = polynomial(&c(coefficients), "L");
            for l in -4i64..=6 {
                let expected: i64 = coefficients
                    .iter()
                    .enumerate()
                    .map(|(j, &x)| x * l.pow(j as u32))
                    .sum();
                let mut env = vec![("L", Value::Num(Q::int(l)))];
                assert_eq!(
                    ev.eval(&e, &mut env).unwrap(),
                    Value::Num(Q::int(expected)),
                    "{coefficients:?} at L = {l}"
                );
            }
        }
    }

    #[test]
    fn the_document_states_each_class_of_a_quasi_polynomial() {
        let space = SubtractionSpace {
            size: 2,
            slopes: IntRange::new(0, 1).unwrap(),
            offsets: IntRange::new(-2, 0).unwrap(),
            l: IntRange::new(1, 16).unwrap(),
            verify_to: 32,
            max_heap: 100_000,
        };
        let atlas = discover(&space, &[], &Limits::default(), &Silent).unwrap();
        let (summary, sections) = atlas.document();
        assert!(summary[0].text.contains(" families ("), "{summary:?}");
        let items = &sections[0].items;
        assert_eq!(items.len(), atlas.entries.len());
        // {L, L − 2}: its preperiod is a quasi-polynomial with one form per parity of L.
        let item = items
            .iter()
            .find(|i| i.title == "$S_{L} = \\lbrace L, L - 2 \\rbrace$")
            .expect("the family {L, L - 2}");
        let GrowthForm::Found { form, .. } = &atlas
            .entries
            .iter()
            .find(|e| e.family == "L,L-2")
            .unwrap()
            .preperiod
        else {
            panic!("{item:?}")
        };
        let preperiods: Vec<&String> = item
            .formulas
            .iter()
            .filter(|f| f.starts_with("\\operatorname{preperiod}"))
            .collect();
        assert_eq!(form.modulus, 2, "{item:?}");
        assert_eq!(preperiods.len(), 2, "{item:?}");
        assert!(
            preperiods[0].contains("(L \\equiv 0 \\pmod{2},"),
            "{item:?}"
        );
        assert!(
            preperiods[1].contains("(L \\equiv 1 \\pmod{2},"),
            "{item:?}"
        );
    }
}
