//! The win condition of NIM with Cash on A-critical states, PROVEN for every n.
//!
//! Theorems 2.4 and 3.7 settle every state in which a player is rich or poor. What remains are
//! the A-critical states g^I(n) ≤ d < f^I(n), g^II(n) ≤ e < f^II(n). When A is cash-periodic with
//! period m, the corresponding state (Def 4.3) i = n mod m, b = f^I(n) − 1 − d,
//! b† = f^II(n) − 1 − e decides the winner (Theorem 4.8), and since more money never hurts its
//! owner, the paper's solution set X is a staircase: Player I wins iff b† ≥ h_i(b), with one
//! boundary h_i per residue. For A = {1, L}, Lemma 5.6 has h_i(b) = (L−1)⌊b/(L−1)⌋, or that plus
//! L − 1. Some sets need more: boundaries by n mod a multiple q of m that also follows g
//! (period 2a₁), and an *edge layer* where I's money is within a few dollars of g^I(n)
//! (δ = d − g^I(n) < depth), where the cut is b + o_j(δ) with j = n mod M.
//!
//! The boundaries and the layer are read off the win table, the boundaries fitted as
//! periodic-linear forms in b rising by one per unit of b (the simplest shape that proves is
//! kept). Then, by induction on n:
//! - base: the win table agrees with the condition on every A-critical state with n₀ ≤ n < N
//!   (at least max A rows, which the step looks back on);
//! - step: at n ≥ N the true winner is the recursion (I wins iff a legal move reaches a state
//!   its mover loses) applied to the condition, or the theorems, at n − a. The true winner is
//!   monotone in e, so at each b it suffices to check b† = cut − 1 and cut, clipped to the
//!   critical range. With G(n) = f^I(n) − 1 − g^I(n) the width of the critical band, the step at
//!   (n, b) depends on (n, b) only through quantities that repeat:
//!   * b < B (small): once G(n) ≥ B + W no poor edge is in reach, so it repeats in n (period M);
//!   * B ≤ b ≤ G(n) − W (interior): no edge is in reach, so it repeats in b (period p, the
//!     boundaries' common period) and in n (period M);
//!   * b ≥ B: it is unchanged by (n, b) → (n + MK, b + σK), where G grows by σ per M stones,
//!     σK ≡ 0 (mod p), and d, e grow by MK/2 ≡ 0 (mod a₁), so Theorem 3.7's ⌊d/a₁⌋
//!     comparisons do not change.
//!
//!   M is a common period of f^I, f^II (up to their slopes), W_A, g, the boundaries' residues
//!   and the layer's. With b₀ where the boundaries turn periodic, H = max |cut − b|, C = max |C^I|,
//!   |C^II| and E the largest difference between band widths one move apart, the margins
//!   B = b₀ + max(H, E) + C + 2 and W = H + C + E + depth + 1 keep every value one move on inside
//!   its region. Checking the step on the window N ≤ n < N + MK for every b therefore proves it
//!   for all n ≥ N.
//!
//! The proof relies on Theorems 2.4 and 3.7 of the paper (their proofs; nimlab's tests compare
//! them with the win table on every small state), on the monotonicity of the game in money, and
//! on the certified forms of f^I and f^II.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive};
use serde::Serialize;

use super::{
    Amount, CashPeriodicity, CashSet, CashTable, ThresholdForms, Thresholds, Winner,
    decide_by_theorems, g_thresholds, threshold_forms, thresholds,
};
use itertools::Itertools;

use crate::error::{Error, Result};
use crate::miner::{FitOptions, PeriodicLinear, fit_periodic_linear};
use crate::num::Q;
use crate::progress::{Progress, Silent};

/// One residue's boundary: I wins an A-critical state with b, b† iff b† ≥ h(b).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Boundary {
    /// The residue i = n mod m.
    pub residue: usize,
    /// h(b) for b below the form's preperiod.
    pub head: Vec<i64>,
    /// h(b) for b ≥ the preperiod: periodic-linear with unit slope.
    pub form: PeriodicLinear,
}

impl Boundary {
    fn at(&self, b: i64) -> i64 {
        match usize::try_from(b) {
            Ok(j) if j < self.head.len() => self.head[j],
            _ => self.form.eval(b).to_i64().expect("an integer form"),
        }
    }

    fn at_big(&self, b: &BigInt) -> BigInt {
        match b.to_usize() {
            Some(j) if j < self.head.len() => BigInt::from(self.head[j]),
            _ => self.form.eval_big(b).floor(),
        }
    }

    /// The boundary as the papers print it, one line per residue of b, with the head first.
    pub fn formulas(&self) -> Vec<String> {
        let name = format!("h_{}", self.residue);
        let mut lines: Vec<String> = self
            .head
            .iter()
            .enumerate()
            .map(|(b, v)| format!("{name}({b}) = {v}"))
            .collect();
        lines.extend(self.form.formulas_in(&name, "k"));
        lines
    }

    /// The boundary's shape past its head: one intercept on every residue of b, or one per
    /// residue.
    fn shape(&self) -> BoundaryShape<'_> {
        let from = self.form.preperiod.max(0);
        let first = &self.form.lines[0].intercept;
        if self.form.lines.iter().all(|l| l.intercept == *first) {
            BoundaryShape::Uniform {
                period: self.form.period,
                intercept: first,
                from,
            }
        } else {
            BoundaryShape::PerResidue {
                period: self.form.period,
                from_k: self.form.lines.iter().map(|l| l.from_k).max().unwrap_or(0),
                from,
                intercepts: self.form.lines.iter().map(|l| &l.intercept).collect(),
            }
        }
    }

    /// The boundary in one line: `h_1(b) = 3⌊b/3⌋  (b ≥ 0)` when every residue of b has the same
    /// intercept, else `h_0(20k+r) = 20k + c_r  (k ≥ 0), c = 4 4 4 5 …`; the head first.
    pub fn compact(&self) -> String {
        let name = format!("h_{}", self.residue);
        let mut text: String = self
            .head
            .iter()
            .enumerate()
            .map(|(b, v)| format!("{name}({b}) = {v}; "))
            .collect();
        text.push_str(&match self.shape() {
            BoundaryShape::Uniform {
                period: p,
                intercept,
                from,
            } => {
                let c = match intercept.signum() {
                    0 => String::new(),
                    1 => format!("+{intercept}"),
                    _ => intercept.to_string(),
                };
                let floor = if p == 1 {
                    "b".to_string()
                } else {
                    format!("{p}⌊b/{p}⌋")
                };
                format!("{name}(b) = {floor}{c}  (b ≥ {from})")
            }
            BoundaryShape::PerResidue {
                period: p,
                from_k,
                from,
                intercepts,
            } => format!(
                "{name}({p}k+r) = {p}k + c_r  (k ≥ {from_k}, b ≥ {from}), c = {}",
                intercepts.iter().join(" ")
            ),
        });
        text
    }

    /// [`Boundary::compact`] as `$…$` mathematics: `$h_{1}(b) = 3\lfloor b/3 \rfloor + 1$ for
    /// $b \ge 0$`, or per residue of b with the intercepts listed; the head first.
    pub fn compact_math(&self) -> String {
        let name = format!("h_{{{}}}", self.residue);
        let mut parts: Vec<String> = self
            .head
            .iter()
            .enumerate()
            .map(|(b, v)| format!("${name}({b}) = {v}$"))
            .collect();
        parts.push(match self.shape() {
            BoundaryShape::Uniform {
                period: p,
                intercept,
                from,
            } => {
                let floor = if p == 1 {
                    "b".to_string()
                } else {
                    format!("{p}\\lfloor b/{p} \\rfloor")
                };
                let c = match intercept.signum() {
                    0 => String::new(),
                    1 => format!(" + {intercept}"),
                    _ => format!(" - {}", intercept.abs()),
                };
                format!("${name}(b) = {floor}{c}$ for $b \\ge {from}$")
            }
            BoundaryShape::PerResidue {
                period: p,
                from_k,
                from,
                intercepts,
            } => {
                let names = if p <= 3 {
                    (0..p).map(|r| format!("c_{{{r}}}")).join(", ")
                } else {
                    format!("c_{{0}}, \\dots, c_{{{}}}", p - 1)
                };
                format!(
                    "${name}({p}k + r) = {p}k + c_{{r}}$ for $k \\ge {from_k}$, $b \\ge {from}$, \
                     with $({names}) = ({})$",
                    intercepts.iter().join(", ")
                )
            }
        });
        parts.join(", ")
    }
}

/// How a boundary reads past its head (see [`Boundary::compact`]).
enum BoundaryShape<'a> {
    /// h(b) = p⌊b/p⌋ + c for b ≥ from.
    Uniform {
        period: usize,
        intercept: &'a Q,
        from: i64,
    },
    /// h(pk + r) = pk + c_r for k ≥ from_k (and b ≥ from).
    PerResidue {
        period: usize,
        from_k: i64,
        from: i64,
        intercepts: Vec<&'a Q>,
    },
}

impl EdgeLayer {
    /// The offsets grouped by equal rows: (the residues n mod modulus, the offsets for δ = 0, 1, …).
    pub fn groups(&self) -> Vec<(Vec<usize>, Vec<Option<i64>>)> {
        let mut groups: Vec<(Vec<usize>, Vec<Option<i64>>)> = Vec::new();
        for (j, row) in self.offsets.iter().enumerate() {
            match groups.iter_mut().find(|(_, r)| r == row) {
                Some((js, _)) => js.push(j),
                None => groups.push((vec![j], row.clone())),
            }
        }
        groups
    }
}

/// The cut close to the poor edge: for δ = d − g^I(n) < depth, Player I wins iff
/// b† ≥ b + `offset[n mod modulus][δ]` (`None`: no A-critical state was seen there).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EdgeLayer {
    /// How many values of δ the layer covers (0: none; the boundaries hold up to the edge).
    pub depth: usize,
    /// The residues of n the offsets follow (a common period of f^I, f^II, W_A and g).
    pub modulus: usize,
    /// `offset[i][δ]`.
    pub offsets: Vec<Vec<Option<i64>>>,
}

/// How the condition was proven.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WinProof {
    /// The condition holds for every n ≥ this.
    pub from: u64,
    /// The win table was compared on from ≤ n < step_from …
    pub step_from: u64,
    /// … on this many A-critical (n, d) rows (each a whole range of e).
    pub base_rows: u64,
    /// The induction step was checked on step_from ≤ n < step_from + window …
    pub window: u64,
    /// … at this many (n, b) points.
    pub step_points: u64,
    /// M: the period in n of f^I, f^II (up to their slopes), W_A and g.
    pub n_period: u64,
    /// σ: how much the critical band widens per M stones.
    pub band_growth: i64,
    /// p: the common period in b of the boundaries.
    pub b_period: u64,
    /// B: below it b is "small".
    pub small_below: i64,
    /// W: within it of the band's poor edge, b is "near the edge".
    pub edge_margin: i64,
}

/// The win condition for A-critical states, with its proof.
#[derive(Clone, Debug, Serialize)]
pub struct WinCondition {
    /// A.
    pub set: CashSet,
    /// m, the cash period (Def 4.4).
    pub cash_period: usize,
    /// q, the modulus of the boundaries' residues i = n mod q: m where the corresponding state
    /// decides the winner, else a multiple of m that also follows g (period 2a₁).
    pub modulus: usize,
    /// h_i for each residue i < q.
    pub boundaries: Vec<Boundary>,
    /// Where I's money is within a few dollars of g^I(n), the cut is stated apart.
    pub edge: EdgeLayer,
    /// The proof.
    pub proof: WinProof,
    /// The certified forms of f^I, f^II and the plain game.
    #[serde(skip)]
    forms: ThresholdForms,
    /// f^I, f^II, W_A for n ≤ 4000 (the forms hold only from their certificate's start).
    #[serde(skip)]
    exact: Thresholds,
}

/// Elementary steps a machine does in about three seconds: searches estimated longer report
/// their progress (see [`WinCondition::find_reporting_if_long`]).
pub const STEPS_WORTH_REPORTING: u128 = 3_000_000_000;

/// Data used to fit and certify f^I, f^II (as `nimlab mine cash` does).
const FORMS_DATA: Amount = 4000;

/// Largest win table tried while looking for the boundaries.
pub const MAX_CONDITION_TABLE: Amount = 6000;
const MAX_TABLE: Amount = MAX_CONDITION_TABLE;

/// Deepest edge layer tried.
const MAX_EDGE_DEPTH: usize = 8;

/// f^I, f^II, W_A as exact machine integers (values up to a few thousand).
struct Exact {
    f1: Vec<i64>,
    f2: Vec<i64>,
    w: Vec<Winner>,
}

impl Exact {
    fn new(set: &CashSet, n_max: usize) -> Result<Exact> {
        let th = thresholds(set, n_max as Amount)?;
        Ok(Exact {
            f1: th.f1.iter().map(|&v| v as i64).collect(),
            f2: th.f2.iter().map(|&v| v as i64).collect(),
            w: th.winner,
        })
    }
}

/// What the fit and the proof share: the certified forms and the cash period.
struct Setting {
    forms: ThresholdForms,
    exact: Thresholds,
    cash_period: usize,
    cash_from: usize,
}

impl Setting {
    fn new(set: &CashSet) -> Result<Setting> {
        let forms = threshold_forms(set, FORMS_DATA)?;
        let exact = thresholds(set, FORMS_DATA)?;
        match forms.cash_periodicity(set, &exact.winner) {
            CashPeriodicity::Periodic { period, from } => Ok(Setting {
                forms,
                exact,
                cash_period: period,
                cash_from: from.max(0) as usize,
            }),
            CashPeriodicity::NotPeriodic {
                which,
                residue,
                a,
                growth,
            } => Err(Error::invalid(format!(
                "A = {set} is not cash-periodic ({which}(n, {a}) grows by {growth} per period along n ≡ {residue}): its A-critical states have no corresponding-state win condition"
            ))),
        }
    }
}

/// The largest win table solved so far. A table for n ≤ N holds the same thresholds for every
/// n ≤ N as a smaller one, so the search (many shapes, each proof needing a table up to its own
/// start) solves a table only when it needs more rows than any before: the costly part of the
/// search, quadratic in n, is paid about once instead of once per attempted shape.
struct Tables<'a> {
    set: &'a CashSet,
    max_bytes: u64,
    largest: Option<CashTable>,
}

impl<'a> Tables<'a> {
    fn new(set: &'a CashSet, max_bytes: u64) -> Tables<'a> {
        Tables {
            set,
            max_bytes,
            largest: None,
        }
    }

    /// A table covering every n ≤ `n`.
    fn upto(&mut self, n: Amount) -> Result<&CashTable> {
        if self.largest.as_ref().is_none_or(|t| t.max_n() < n) {
            self.largest = Some(CashTable::solve(self.set, n, self.max_bytes)?);
        }
        Ok(self.largest.as_ref().expect("just solved"))
    }
}

impl WinCondition {
    /// Finds and proves the win condition of A: reads the boundaries off a win table from
    /// `start_n` on, doubling it (up to n = 6000) until they fit and the proof closes.
    pub fn find(set: &CashSet, start_n: Amount, max_bytes: u64) -> Result<WinCondition> {
        Self::find_reporting(set, start_n, max_bytes, &Silent)
    }

    /// The number of attempts (table size × statement shape) [`find`](Self::find) makes at
    /// most from `start_n`: the length of its progress bar.
    pub fn attempts(start_n: Amount) -> u64 {
        let mut sizes = 1u64;
        let mut n = start_n.max(100);
        while n < MAX_TABLE {
            n = (2 * n).min(MAX_TABLE);
            sizes += 1;
        }
        // Up to three moduli per edge depth (fewer when some coincide).
        let shapes = 3 * (MAX_EDGE_DEPTH as u64 + 1);
        sizes * shapes
    }

    /// Roughly how many elementary steps [`find`](Self::find) may take from `start_n` (its win
    /// tables cost about n²/2 entries × |A| moves × log₂ n each, and grow by doubling to 6000):
    /// what decides whether a progress bar is worth showing.
    pub fn estimated_steps(set: &CashSet, start_n: Amount) -> u128 {
        let n = u128::from(start_n.max(MAX_TABLE));
        let log = u128::from(128 - n.leading_zeros());
        // The doubling series sums to at most 4/3 of the largest table.
        n * n / 2 * 4 / 3 * set.elements().len() as u128 * log
    }

    /// [`find_reporting`](Self::find_reporting) when [`estimated_steps`](Self::estimated_steps)
    /// reaches [`STEPS_WORTH_REPORTING`], [`find`](Self::find) otherwise: a caller's progress bar
    /// appears only for a search long enough to need one.
    pub fn find_reporting_if_long(
        set: &CashSet,
        start_n: Amount,
        max_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<WinCondition> {
        if Self::estimated_steps(set, start_n) < STEPS_WORTH_REPORTING {
            return Self::find(set, start_n, max_bytes);
        }
        Self::find_reporting(set, start_n, max_bytes, progress)
    }

    /// [`find`](Self::find), reporting each attempt to `progress` (its total is
    /// [`attempts`](Self::attempts)).
    pub fn find_reporting(
        set: &CashSet,
        start_n: Amount,
        max_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<WinCondition> {
        progress.start(Self::attempts(start_n));
        let mut tables = Tables::new(set, max_bytes);
        let setting = Setting::new(set)?;
        let lcm = |x: usize, y: usize| x / x.gcd(&y) * y;
        let m = setting.cash_period;
        let g_period = 2 * set.min() as usize;
        let mut moduli = vec![
            m,
            lcm(m, g_period),
            lcm(setting.forms.certificate.recurrence.period, g_period),
        ];
        moduli.dedup();
        let edge_modulus = *moduli.last().expect("three candidates");
        // The simplest statement first: the cash period, no edge layer.
        let shapes: Vec<(usize, usize)> = (0..=MAX_EDGE_DEPTH)
            .flat_map(|depth| moduli.iter().map(move |&q| (q, depth)))
            .collect();
        let mut n_max = start_n.max(100);
        loop {
            let ex = Exact::new(set, n_max as usize)?;
            let mut attempt = Ok(None);
            for &(q, depth) in &shapes {
                let table = tables.upto(n_max)?;
                let fitted = fit_boundaries(set, &setting, q, (depth, edge_modulus), table, &ex);
                attempt = match fitted {
                    Ok(Some((boundaries, edge))) => {
                        Self::prove_in(set, &setting, q, boundaries, edge, &mut tables)
                    }
                    Ok(None) => Ok(None),
                    Err(e) => Err(e),
                };
                progress.advance(1);
                if matches!(attempt, Ok(Some(_))) {
                    break;
                }
            }
            match attempt {
                Ok(Some(wc)) => return Ok(wc),
                // A short table can mislead the fit: more data before giving up.
                Ok(None) | Err(_) if n_max < MAX_TABLE => n_max = (2 * n_max).min(MAX_TABLE),
                Ok(None) => {
                    return Err(Error::invalid(format!(
                        "A = {set}: the boundaries h_i do not settle into periodic-linear forms on the win table up to n = {n_max}"
                    )));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Proves the condition given by `boundaries` (one per residue mod the cash period; none
    /// when A has no A-critical states) from scratch: what a replay of a stated condition does.
    pub fn prove(
        set: &CashSet,
        modulus: usize,
        boundaries: Vec<Boundary>,
        edge: EdgeLayer,
        max_bytes: u64,
    ) -> Result<WinCondition> {
        let setting = Setting::new(set)?;
        if modulus == 0 || !modulus.is_multiple_of(setting.cash_period) {
            return Err(Error::invalid(format!(
                "the modulus {modulus} is not a multiple of A = {set}'s cash period {}",
                setting.cash_period
            )));
        }
        if !boundaries.is_empty() && boundaries.len() != modulus {
            return Err(Error::invalid(format!(
                "{} boundaries were given for the modulus {modulus}",
                boundaries.len()
            )));
        }
        if let Some((i, bd)) = boundaries
            .iter()
            .enumerate()
            .find(|(i, bd)| bd.residue != *i)
        {
            return Err(Error::invalid(format!(
                "boundary {i} is labelled for residue {}",
                bd.residue
            )));
        }
        if edge.depth > 0 && (edge.modulus == 0 || edge.offsets.len() != edge.modulus) {
            return Err(Error::invalid(format!(
                "the edge layer has {} rows for the modulus {}",
                edge.offsets.len(),
                edge.modulus
            )));
        }
        if edge.offsets.iter().any(|row| row.len() != edge.depth) {
            return Err(Error::invalid(format!(
                "every row of the edge layer must have {} offsets",
                edge.depth
            )));
        }
        let mut tables = Tables::new(set, max_bytes);
        Self::prove_in(set, &setting, modulus, boundaries, edge, &mut tables)?.ok_or_else(|| {
            Error::invalid(format!(
                "A = {set}: the proof's window lies beyond n = {MAX_TABLE}"
            ))
        })
    }

    /// The proof; `Ok(None)` when its window lies beyond the largest table.
    fn prove_in(
        set: &CashSet,
        setting: &Setting,
        modulus: usize,
        boundaries: Vec<Boundary>,
        edge: EdgeLayer,
        tables: &mut Tables,
    ) -> Result<Option<WinCondition>> {
        let mut wc = WinCondition {
            set: set.clone(),
            cash_period: setting.cash_period,
            modulus,
            boundaries,
            edge,
            proof: WinProof::default(),
            forms: setting.forms.clone(),
            exact: setting.exact.clone(),
        };
        wc.check_shapes()?;
        let Some(plan) = wc.plan(setting.cash_from)? else {
            return Ok(None);
        };
        let table = tables.upto((plan.step_from as Amount).max(1) - 1)?;
        // The recursion at the window refers to f^I, f^II, W_A there: exact values.
        let ex = Exact::new(set, plan.step_from + plan.window)?;
        let (from, base_rows) = wc.check_base(table, &ex, plan.step_from)?;
        let step_points = wc.check_step(&ex, plan.step_from, plan.window)?;
        wc.proof = WinProof {
            from: from as u64,
            step_from: plan.step_from as u64,
            base_rows,
            window: plan.window as u64,
            step_points,
            n_period: plan.n_period as u64,
            band_growth: plan.sigma,
            b_period: plan.p as u64,
            small_below: plan.small_below,
            edge_margin: plan.edge_margin,
        };
        Ok(Some(wc))
    }

    /// What the proof assumes of each boundary: one line per residue of b, each rising by one
    /// per unit of b, with integer values.
    fn check_shapes(&self) -> Result<()> {
        for bd in &self.boundaries {
            let f = &bd.form;
            let ok = f.period > 0
                && f.preperiod >= 0
                && f.lines.len() == f.period
                && f.lines.iter().enumerate().all(|(r, l)| {
                    l.residue == r && l.slope == Q::int(f.period as i64) && l.intercept.is_integer()
                });
            if !ok {
                return Err(Error::invalid(format!(
                    "the boundary h_{} is not a unit-slope periodic-linear form with one integer line per residue of b",
                    bd.residue
                )));
            }
        }
        Ok(())
    }

    /// The cut at (n, b): I wins an A-critical state iff b† ≥ it. `None` where the condition
    /// states nothing (no boundaries, or an edge offset never observed).
    fn cut(&self, ex: &Exact, n: usize, b: i64) -> Option<i64> {
        let (g1, _) = g_thresholds(&self.set, n as Amount);
        let delta = ex.f1[n] - 1 - g1 as i64 - b;
        if delta < self.edge.depth as i64 {
            let offset = self.edge.offsets.get(n % self.edge.modulus.max(1))?;
            return Some(b + offset.get(delta.max(0) as usize).copied().flatten()?);
        }
        self.boundaries.get(n % self.modulus).map(|bd| bd.at(b))
    }

    /// The condition (theorems for rich and poor players, the boundary otherwise) at a state
    /// whose f^I, f^II, W_A are in `ex`.
    fn claimed(&self, ex: &Exact, n: usize, d: i64, e: i64) -> Option<Winner> {
        let (g1, g2) = g_thresholds(&self.set, n as Amount);
        let (g1, g2) = (g1 as i64, g2 as i64);
        let (f1, f2) = (ex.f1[n], ex.f2[n]);
        let a1 = self.set.min() as i64;
        let by_theorem = decide_by_theorems([d, e, f1, f2, g1, g2], ex.w[n], || {
            d.div_euclid(a1) > e.div_euclid(a1)
        });
        Some(match by_theorem {
            Some((w, _)) => w,
            None if f2 - 1 - e >= self.cut(ex, n, f1 - 1 - d)? => Winner::I,
            None => Winner::II,
        })
    }

    /// The winner by one step of the game: I wins iff a legal move reaches a state whose mover
    /// loses by the condition.
    fn recursion(&self, ex: &Exact, n: usize, d: i64, e: i64) -> Option<Winner> {
        let mut wins = false;
        for a in self.set.elements().iter().map(|&a| a as i64) {
            if a > n as i64 || a > d {
                break;
            }
            wins |= self.claimed(ex, n - a as usize, e, d - a)? == Winner::II;
        }
        Some(if wins { Winner::I } else { Winner::II })
    }

    /// The base: the least n₀ such that the table agrees with the condition on every A-critical
    /// state with n₀ ≤ n < `upto`, and how many (n, d) rows that took. An error unless it covers
    /// at least max A rows below `upto`, which the induction step looks back on.
    fn check_base(&self, table: &CashTable, ex: &Exact, upto: usize) -> Result<(usize, u64)> {
        let mut rows = 0u64;
        let mut from = upto;
        while from > 0 {
            let n = from - 1;
            let (g1, g2) = g_thresholds(&self.set, n as Amount);
            let (g2, f2) = (g2 as i64, ex.f2[n]);
            let mut agrees = true;
            for d in g1 as i64..ex.f1[n] {
                if g2 >= f2 {
                    break;
                }
                rows += 1;
                let t = table
                    .threshold(n as Amount, d as Amount)
                    .expect("in the table") as i64;
                // Table: I wins iff e < T. Condition: iff e < f^II − h(b). Compare the cuts on
                // the critical range g^II ≤ e < f^II.
                let Some(h) = self.cut(ex, n, ex.f1[n] - 1 - d) else {
                    agrees = false;
                    break;
                };
                let cut = f2 - h;
                let clip = |x: i64| x.clamp(g2, f2);
                if clip(t) != clip(cut) {
                    agrees = false;
                    break;
                }
            }
            if !agrees {
                break;
            }
            from = n;
        }
        // The step at n ≥ upto stands on the condition at n − a for every a ∈ A.
        let a_max = self.set.max() as usize;
        if from + a_max > upto {
            return Err(Error::invalid(format!(
                "A = {}: the win table disagrees with the stated condition at n = {}, within max A of where the induction starts (n = {upto})",
                self.set,
                from - 1
            )));
        }
        Ok((from, rows))
    }

    /// The induction step on step_from ≤ n < step_from + window, every b; the number of points.
    fn check_step(&self, ex: &Exact, step_from: usize, window: usize) -> Result<u64> {
        let mut points = 0u64;
        for n in step_from..step_from + window {
            let (g1, g2) = g_thresholds(&self.set, n as Amount);
            let (f1, f2) = (ex.f1[n], ex.f2[n]);
            let (band1, band2) = (f1 - 1 - g1 as i64, f2 - 1 - g2 as i64);
            if band2 < 0 {
                continue;
            }
            for b in 0..=band1 {
                points += 1;
                let d = f1 - 1 - b;
                let unstated = || {
                    Error::invalid(format!(
                        "A = {}: the stated condition says nothing about the A-critical states ({n}; {d}, ·) or those one move on",
                        self.set
                    ))
                };
                let t = self.cut(ex, n, b).ok_or_else(unstated)?;
                // (b†, the winner the condition gives there): the two sides of the boundary.
                let mut probes = Vec::with_capacity(2);
                if t <= 0 {
                    probes.push((0, Winner::I));
                } else if t > band2 {
                    probes.push((band2, Winner::II));
                } else {
                    probes.push((t, Winner::I));
                    probes.push((t - 1, Winner::II));
                }
                for (bd, want) in probes {
                    let e = f2 - 1 - bd;
                    let got = self.recursion(ex, n, d, e).ok_or_else(unstated)?;
                    if got != want {
                        return Err(Error::invalid(format!(
                            "A = {}: the fitted win condition fails the induction step at ({n}; {d}, {e}) (b = {b}, b† = {bd}): it says {want}, one move deeper gives {got}",
                            self.set
                        )));
                    }
                }
            }
        }
        Ok(points)
    }

    /// The window of the induction step (see the module docs), or `None` if the table cannot
    /// yet reach it.
    fn plan(&self, cash_from: usize) -> Result<Option<Plan>> {
        let set = &self.set;
        let a_max = set.max() as usize;
        let a1 = set.min() as usize;
        let lcm = |x: usize, y: usize| x / x.gcd(&y) * y;
        let n_period = lcm(
            lcm(self.forms.certificate.recurrence.period, 2 * a1),
            lcm(self.modulus, self.edge.modulus.max(1)),
        );
        let p = self
            .boundaries
            .iter()
            .fold(1usize, |acc, bd| lcm(acc, bd.form.period));
        let b0 = self
            .boundaries
            .iter()
            .map(|bd| bd.form.preperiod.max(bd.head.len() as i64))
            .max()
            .unwrap_or(0);
        // |h_i(b) − b| is periodic from b₀ on: its largest value over one period bounds it.
        let h_dev = self
            .boundaries
            .iter()
            .flat_map(|bd| (0..b0 + p as i64).map(move |b| (bd.at(b) - b).abs()))
            .chain(
                self.edge
                    .offsets
                    .iter()
                    .flatten()
                    .flatten()
                    .map(|v| v.abs()),
            )
            .max()
            .unwrap_or(0);
        // C values and band edges over one period of n beyond where everything repeats.
        let lo = cash_from
            .max(self.forms.plain_period.preperiod + a_max)
            .max(self.forms.certificate.from.max(0) as usize + a_max);
        let th = thresholds(set, (MAX_TABLE as usize + 2 * n_period + a_max) as Amount)?;
        let f = |j: usize, n: usize| if j == 0 { th.f1[n] } else { th.f2[n] } as i64;
        let band = |j: usize, n: usize| {
            let (g1, g2) = g_thresholds(set, n as Amount);
            f(j, n) - 1 - if j == 0 { g1 } else { g2 } as i64
        };
        let (mut c_max, mut edge_diff) = (0i64, 0i64);
        let mut sigma = None;
        for n in lo..lo + n_period {
            for &a in set.elements() {
                let back = n - a as usize;
                c_max = c_max
                    .max((f(0, n) - f(1, back) - a as i64).abs())
                    .max((f(1, n) - f(0, back)).abs());
            }
            for x in 0..2 {
                for y in 0..2 {
                    for back in std::iter::once(0).chain(set.elements().iter().map(|&a| a as usize))
                    {
                        edge_diff = edge_diff.max((band(x, n) - band(y, n - back)).abs());
                    }
                }
                let growth = band(x, n + n_period) - band(x, n);
                match sigma {
                    None => sigma = Some(growth),
                    Some(s) if s != growth => {
                        return Err(Error::invalid(format!(
                            "A = {set}: the critical band widens at different rates along different residues ({s} and {growth} per {n_period} stones); no window proves the win condition"
                        )));
                    }
                    Some(_) => {}
                }
            }
        }
        let sigma = sigma.expect("n_period ≥ 1");
        if sigma < 0 {
            return Err(Error::invalid(format!(
                "A = {set}: the critical band narrows by {} per {n_period} stones, against Note 4.2",
                -sigma
            )));
        }
        let k = if sigma == 0 {
            1
        } else {
            p / (sigma as usize).gcd(&p)
        };
        // Every b† probed at b ≥ B is ≥ b − max(h_dev + 1, edge_diff), so every b' = b† − C^II
        // one move on is ≥ b₀: the boundaries are periodic there.
        let small_below = b0 + h_dev.max(edge_diff) + c_max + 2;
        let edge_margin = h_dev + c_max + edge_diff + self.edge.depth as i64 + 1;
        // The least start where every residue's band already holds the interior window.
        let need = small_below + p as i64 + edge_margin;
        let mut step_from = lo + a_max;
        loop {
            let far = (step_from..step_from + n_period).all(|n| {
                let (g1, _) = g_thresholds(set, n as Amount);
                g1 as usize >= a_max && (sigma == 0 || band(0, n) >= need)
            });
            if far {
                break;
            }
            if step_from > MAX_TABLE as usize {
                return Ok(None);
            }
            step_from += n_period;
        }
        Ok(Some(Plan {
            step_from,
            window: n_period * k,
            n_period,
            sigma,
            p,
            small_below,
            edge_margin,
        }))
    }
}

/// The window of the induction step.
struct Plan {
    step_from: usize,
    window: usize,
    n_period: usize,
    sigma: i64,
    p: usize,
    small_below: i64,
    edge_margin: i64,
}

/// Reads the cuts off the table and fits them: the boundaries h_i (i = n mod m) where I's money
/// is at least `depth` above g^I(n), and the edge layer (by n mod `edge_modulus`) below that.
/// `Ok(None)` when the data is too short for a fit with three confirming periods; no boundaries
/// when no A-critical state occurs at all. The data is read from the largest n down and stops
/// below the largest n at which a cut contradicts a later one: the condition may start late.
fn fit_boundaries(
    set: &CashSet,
    setting: &Setting,
    m: usize,
    (depth, edge_modulus): (usize, usize),
    table: &CashTable,
    ex: &Exact,
) -> Result<Option<(Vec<Boundary>, EdgeLayer)>> {
    // The table may reach further than the exact thresholds (it is shared between attempts).
    let n_max = (table.max_n() as usize).min(ex.f1.len() - 1);
    // Per residue: h(b) as known exactly (Some) and lower bounds from clipped observations.
    let mut exact: Vec<Vec<Option<i64>>> = vec![Vec::new(); m];
    let mut lower: Vec<Vec<i64>> = vec![Vec::new(); m];
    let mut edge = EdgeLayer {
        depth,
        modulus: if depth == 0 { 0 } else { edge_modulus },
        offsets: vec![vec![None; depth]; if depth == 0 { 0 } else { edge_modulus }],
    };
    for n in (setting.cash_from..=n_max).rev() {
        let (g1, g2) = g_thresholds(set, n as Amount);
        let (f1, f2) = (ex.f1[n], ex.f2[n]);
        let band2 = f2 - 1 - g2 as i64;
        if band2 < 0 {
            continue;
        }
        let r = n % m;
        // (b, δ = d − g^I(n), the cut t clipped to 0 ..= band2 + 1).
        let row: Vec<(usize, usize, i64)> = (g1 as i64..f1)
            .map(|d| {
                let b = (f1 - 1 - d) as usize;
                let t = f2 - table.threshold(n as Amount, d as Amount).expect("n ≤ max") as i64;
                (b, (d - g1 as i64) as usize, t.clamp(0, band2 + 1))
            })
            .collect();
        let contradicts = row.iter().any(|&(b, delta, t)| {
            if delta < depth {
                let old = edge.offsets[n % edge_modulus][delta];
                return old.is_some_and(|o| o != t - b as i64);
            }
            let old = exact[r].get(b).copied().flatten();
            let floor = lower[r].get(b).copied().unwrap_or(i64::MIN);
            if t <= band2 {
                old.is_some_and(|o| o != t) || t < floor
            } else {
                old.is_some_and(|o| o < t)
            }
        });
        if contradicts {
            break;
        }
        for (b, delta, t) in row {
            if delta < depth {
                edge.offsets[n % edge_modulus][delta] = Some(t - b as i64);
                continue;
            }
            if exact[r].len() <= b {
                exact[r].resize(b + 1, None);
                lower[r].resize(b + 1, i64::MIN);
            }
            if t <= band2 {
                exact[r][b] = Some(t);
            } else {
                lower[r][b] = lower[r][b].max(t);
            }
        }
    }
    if exact.iter().all(Vec::is_empty) {
        return Ok(Some((Vec::new(), edge)));
    }
    let mut boundaries = Vec::with_capacity(m);
    for r in 0..m {
        let known: Vec<i64> = exact[r].iter().map_while(|v| *v).collect();
        if known.iter().zip(&lower[r]).any(|(v, lo)| v < lo) {
            return Ok(None);
        }
        let data: Vec<Q> = known.iter().map(|&v| Q::int(v)).collect();
        let Some(form) = fit_periodic_linear(&data, 0, &FitOptions::default()) else {
            return Ok(None);
        };
        if let Some(l) = form
            .lines
            .iter()
            .find(|l| l.slope != Q::int(form.period as i64))
        {
            return Err(Error::invalid(format!(
                "A = {set}: the boundary h_{r} rises by {} per {} values of b, not one per unit; the window proof does not apply",
                l.slope, form.period
            )));
        }
        let head = known[..form.preperiod.max(0) as usize].to_vec();
        boundaries.push(Boundary {
            residue: r,
            head,
            form,
        });
    }
    Ok(Some((boundaries, edge)))
}

impl WinCondition {
    /// The winner of an A-critical (n; d, e) of any size, by the boundary, for n ≥ the proof's
    /// start; `None` below it or when the state is not A-critical (the theorems decide those).
    pub fn critical_winner(&self, n: &BigUint, d: &BigUint, e: &BigUint) -> Option<Winner> {
        if *n < BigUint::from(self.proof.from) {
            return None;
        }
        let (decided, f1, f2) = match n.to_usize().filter(|&m| m < self.exact.f1.len()) {
            Some(m) => {
                let th = &self.exact;
                let (f1, f2) = (th.f1[m], th.f2[m]);
                let cap = |x: &BigUint| x.to_u64().map_or(Amount::MAX, |x| x.min(m as Amount));
                let decided =
                    super::classify(&self.set, m as Amount, cap(d), cap(e), f1, f2, th.winner[m])
                        .by_theorem;
                let q = |v: Amount| Q::from_bigint(v.into());
                (decided, q(f1), q(f2))
            }
            None => super::winner_by_forms(&self.set, &self.forms, &self.exact.winner, n, d, e),
        };
        if decided.is_some() {
            return None;
        }
        let residue = |m: usize| (n % BigUint::from(m)).to_usize().expect("below m");
        let b: BigInt = f1.floor() - 1 - BigInt::from(d.clone());
        let bd: BigInt = f2.floor() - 1 - BigInt::from(e.clone());
        debug_assert!(!b.is_negative() && !bd.is_negative(), "an A-critical state");
        let (g1, _) = super::g_thresholds_big(&self.set, n);
        let delta = BigInt::from(d.clone()) - BigInt::from(g1);
        let cut = match delta.to_usize() {
            Some(j) if j < self.edge.depth => {
                let offset = self.edge.offsets[residue(self.edge.modulus)][j]?;
                &b + offset
            }
            _ => self.boundaries.get(residue(self.modulus))?.at_big(&b),
        };
        Some(if bd >= cut { Winner::I } else { Winner::II })
    }
}
