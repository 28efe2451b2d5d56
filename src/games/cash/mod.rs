//! NIM with Cash (Gasarch et al.): a subtraction game in which every move also costs its size in
//! dollars.
//!
//! A state (n; d, e) has n stones; the player to move holds d dollars, the other e. A move takes
//! a ∈ A stones with a ≤ n and a ≤ d and pays a: (n; d, e) → (n − a; e, d − a). A player with no
//! legal move loses. Money ≥ n is as good as infinite (no line of play spends more than n).
//!
//! Monotonicity — more money never hurts its owner — makes the win region a staircase: for each
//! (n, d) there is a least e, T(n, d), from which the second player wins. The table stores T on
//! the triangle d ≤ n (4 bytes per entry), which is what lets n, d, e run into the thousands:
//!
//!   I wins (n; d, e) ⇔ ∃ a ∈ A, a ≤ min(n, d): II wins (n − a; e, d − a) ⇔ d − a ≥ T(n − a, e),
//!
//! so T(n, d) = max over legal a of the least e with T(n − a, e) > d − a (binary search: T is
//! nondecreasing in its second argument), and T(n, d) = 0 when the mover has no legal move.
//! The literal recursion of Lemma 1.12 ([`cash_winner_naive`]) is kept as the reference.

mod across;
mod critical;
mod decide;
mod offset;
mod win_condition;

pub use across::{TERMS_WORTH_REPORTING, across_members, across_start_data, certified_forms};
pub use critical::{Conflict, CriticalState, CriticalStates, critical_states};
pub use decide::{
    DIRECT_TABLE, Decision, MAX_STATE_TABLE, Part, Reason, ThresholdSource, decide,
    decide_reporting,
};
pub use offset::{Offset, least_offset};
pub use win_condition::{
    Boundary, EdgeLayer, MAX_CONDITION_TABLE, STEPS_WORTH_REPORTING, WinCondition, WinProof,
};

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::miner::{
    Certificate, FitOptions, PeriodicLinear, Periodicity, Recurrence, Rule, Term,
    fit_periodic_linear, prove_period,
};
use crate::num::Q;
use num_bigint::{BigInt, BigUint};
use num_traits::ToPrimitive;

/// Stones and dollars.
pub type Amount = u64;

/// A finite set A of positive move sizes, sorted and without duplicates.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CashSet(Vec<Amount>);

impl CashSet {
    /// Normalizes (sorts, removes duplicates); rejects an empty set and zero.
    pub fn new(mut elements: Vec<Amount>) -> Result<CashSet> {
        elements.sort_unstable();
        elements.dedup();
        if elements.is_empty() {
            return Err(Error::invalid(
                "the move set A is empty; give at least one size, e.g. --set 1,3,4",
            ));
        }
        if elements[0] == 0 {
            return Err(Error::invalid(
                "0 cannot be in A: every move takes at least one stone",
            ));
        }
        Ok(CashSet(elements))
    }

    /// The sizes, increasing.
    pub fn elements(&self) -> &[Amount] {
        &self.0
    }

    /// a₁ = min A.
    pub fn min(&self) -> Amount {
        self.0[0]
    }

    /// max A.
    pub fn max(&self) -> Amount {
        *self.0.last().expect("non-empty")
    }
}

impl fmt::Display for CashSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, a) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{a}")?;
        }
        write!(f, "}}")
    }
}

impl FromStr for CashSet {
    type Err = Error;

    /// `1,3,4` or `{1,3,4}`; elements are positive whole numbers.
    fn from_str(s: &str) -> Result<CashSet> {
        let body = s.trim().trim_start_matches('{').trim_end_matches('}');
        if body.trim().is_empty() {
            return Err(Error::invalid(format!("'{s}': the move set A is empty")));
        }
        let elements = body
            .split(',')
            .map(|e| {
                crate::num::parse_whole(e, 1, Amount::MAX)
                    .map_err(|err| Error::invalid(err.at("in A").to_string()))
            })
            .collect::<Result<Vec<_>>>()?;
        CashSet::new(elements)
    }
}

/// Which player wins: I (to move) or II.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Winner {
    /// The player to move.
    I,
    /// The other player.
    II,
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Winner::I => "I",
            Winner::II => "II",
        })
    }
}

/// W_A(0..=max_n) of the plain game (normal play subtraction game A).
pub fn plain_winners(a: &CashSet, max_n: Amount) -> Vec<Winner> {
    // The capacity is a hint only: a max_n beyond usize reserves nothing up front.
    let mut w = Vec::with_capacity(usize::try_from(max_n).map_or(0, |n| n.saturating_add(1)));
    for n in 0..=max_n {
        let wins = a
            .elements()
            .iter()
            .take_while(|&&x| x <= n)
            .any(|&x| w[(n - x) as usize] == Winner::II);
        w.push(if wins { Winner::I } else { Winner::II });
    }
    w
}

/// Stack left before a recursive solver grows its stack, and the size of each new segment.
pub(crate) const STACK_RED_ZONE: usize = 64 * 1024;
pub(crate) const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// The literal recursion (Lemma 1.12) with a memo: I wins iff some legal move leads to a state
/// the next mover loses. Exponential-free but O(n·d·e) states; for tests.
pub fn cash_winner_naive(a: &CashSet, n: Amount, d: Amount, e: Amount) -> Winner {
    fn go(
        a: &CashSet,
        n: Amount,
        d: Amount,
        e: Amount,
        memo: &mut HashMap<(Amount, Amount, Amount), Winner>,
    ) -> Winner {
        if let Some(&w) = memo.get(&(n, d, e)) {
            return w;
        }
        // One frame per move: deep for large n, so grow the stack instead of overflowing it.
        let wins = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || {
            a.elements()
                .iter()
                .filter(|&&x| x <= n && x <= d)
                .any(|&x| go(a, n - x, e, d - x, memo) == Winner::II)
        });
        let w = if wins { Winner::I } else { Winner::II };
        memo.insert((n, d, e), w);
        w
    }
    go(a, n, d, e, &mut HashMap::new())
}

/// The whole cash game up to n stones, as thresholds: II wins (n; d, e) ⇔ e ≥ T(n, min(d, n)),
/// with T = n + 1 meaning that II never wins.
#[derive(Clone, Debug)]
pub struct CashTable {
    set: CashSet,
    max_n: Amount,
    /// Row n holds T(n, 0..=n) at offset n(n+1)/2.
    t: Vec<u32>,
}

/// Bytes per stored threshold.
const BYTES_PER_ENTRY: u64 = 4;

impl CashTable {
    /// Bytes of the table for n ≤ `max_n` (saturating).
    pub fn bytes(max_n: Amount) -> u128 {
        u128::from(max_n + 1) * u128::from(max_n + 2) / 2 * u128::from(BYTES_PER_ENTRY)
    }

    /// Solves every state with at most `max_n` stones.
    pub fn solve(set: &CashSet, max_n: Amount, max_bytes: u64) -> Result<CashTable> {
        let entries = (max_n + 1)
            .checked_mul(max_n + 2)
            .map(|x| x / 2)
            .filter(|_| max_n < u64::from(u32::MAX) - 1);
        let needed = entries.map(|e| e.saturating_mul(BYTES_PER_ENTRY));
        if needed.is_none_or(|b| b > max_bytes) {
            return Err(Error::TooLarge {
                what: format!("the win table of A = {set} for n ≤ {max_n}"),
                needed_bytes: needed.unwrap_or(u64::MAX),
                limit_bytes: max_bytes,
                // Callers whose n is an option name it (only they know which).
                suggestion: "use a smaller n or raise --memory-limit".to_string(),
            });
        }
        let mut t: Vec<u32> = Vec::with_capacity(entries.expect("checked") as usize);
        let row = |n: Amount| (n * (n + 1) / 2) as usize;
        for n in 0..=max_n {
            for d in 0..=n {
                let mut need: Amount = 0;
                let mut never = false;
                for &x in set.elements().iter().take_while(|&&x| x <= n.min(d)) {
                    let m = n - x;
                    let r = &t[row(m)..row(m) + m as usize + 1];
                    // Least e with T(m, min(e, m)) > d − x; e ≥ m behaves as e = m.
                    let k = r.partition_point(|&v| Amount::from(v) <= d - x);
                    if k > m as usize {
                        never = true;
                        break;
                    }
                    need = need.max(k as Amount);
                }
                t.push(if never { (n + 1) as u32 } else { need as u32 });
            }
        }
        Ok(CashTable {
            set: set.clone(),
            max_n,
            t,
        })
    }

    /// The move set.
    pub fn set(&self) -> &CashSet {
        &self.set
    }

    /// Largest n solved.
    pub fn max_n(&self) -> Amount {
        self.max_n
    }

    /// T(n, 0..=n), nondecreasing (n ≤ max_n).
    fn row(&self, n: Amount) -> &[u32] {
        let start = (n * (n + 1) / 2) as usize;
        &self.t[start..=start + n as usize]
    }

    /// T(n, d): the least e from which II wins (n; d, e); n + 1 if II never wins.
    pub fn threshold(&self, n: Amount, d: Amount) -> Option<Amount> {
        (n <= self.max_n).then(|| {
            let d = d.min(n);
            Amount::from(self.t[(n * (n + 1) / 2 + d) as usize])
        })
    }

    /// W^cash(n; d, e), if n is in the table.
    pub fn winner(&self, n: Amount, d: Amount, e: Amount) -> Option<Winner> {
        let t = self.threshold(n, d)?;
        Some(if e.min(n) >= t && t <= n {
            Winner::II
        } else {
            Winner::I
        })
    }
}

/// f^I(n), f^II(n) of Def 2.1/2.3 (as in SPEC §4) and the plain winners, for n = 0..=max_n.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Thresholds {
    /// W_A(n).
    pub winner: Vec<Winner>,
    /// f^I(n).
    pub f1: Vec<Amount>,
    /// f^II(n).
    pub f2: Vec<Amount>,
}

/// Bytes [`thresholds`] keeps per n: W_A(n) and f^I(n), f^II(n).
const THRESHOLD_BYTES_PER_N: u64 = 17;

/// Bytes [`threshold_forms`] needs per n of data: the thresholds, and f^I, f^II again as exact
/// rationals for the fit (a `Q` is two big integers, 64 bytes, plus a heap digit each).
const FORMS_BYTES_PER_N: u64 = THRESHOLD_BYTES_PER_N + 2 * 112;

/// Bytes [`thresholds`] (or, with `forms`, [`threshold_forms`]) needs for n ≤ `max_n`.
pub fn threshold_bytes(max_n: Amount, forms: bool) -> u128 {
    let per_n = if forms {
        FORMS_BYTES_PER_N
    } else {
        THRESHOLD_BYTES_PER_N
    };
    u128::from(max_n).saturating_add(1) * u128::from(per_n)
}

/// Refuses, before any work, thresholds or closed forms on n ≤ `max_n` that would need more
/// than `max_bytes` (`forms`: also the exact data [`threshold_forms`] fits). The suggestion is
/// the largest n that fits, by formula.
pub fn check_threshold_budget(
    set: &CashSet,
    max_n: Amount,
    forms: bool,
    max_bytes: u64,
) -> Result<()> {
    let per_n = if forms {
        FORMS_BYTES_PER_N
    } else {
        THRESHOLD_BYTES_PER_N
    };
    let needed = threshold_bytes(max_n, forms);
    if needed <= u128::from(max_bytes) {
        return Ok(());
    }
    let fits = (max_bytes / per_n).saturating_sub(1);
    Err(Error::TooLarge {
        what: format!(
            "{} of A = {set} for n ≤ {max_n}",
            if forms {
                "fitting closed forms to the thresholds"
            } else {
                "the thresholds"
            }
        ),
        needed_bytes: u64::try_from(needed).unwrap_or(u64::MAX),
        limit_bytes: max_bytes,
        suggestion: format!("use n ≤ {fits} or raise --memory-limit"),
    })
}

/// Def 2.1 + Def 2.3 for every n ≤ max_n, in O(max_n·|A|) time and 17 bytes per n.
pub fn thresholds(set: &CashSet, max_n: Amount) -> Result<Thresholds> {
    let len = usize::try_from(max_n)
        .ok()
        .and_then(|n| n.checked_add(1))
        .filter(|&l| l <= 1 << 31)
        .ok_or_else(|| Error::invalid(format!("n ≤ {max_n} is too many thresholds to tabulate")))?;
    let winner = plain_winners(set, max_n);
    let (mut f1, mut f2): (Vec<Amount>, Vec<Amount>) =
        (Vec::with_capacity(len), Vec::with_capacity(len));
    for n in 0..=max_n {
        let moves = || set.elements().iter().copied().take_while(move |&a| a <= n);
        if n < set.min() {
            f1.push(0);
            f2.push(0);
            continue;
        }
        let m = n as usize;
        let max_f1 = moves().map(|a| f1[m - a as usize]).max().expect("n ≥ a₁");
        let (v1, v2) = match winner[m] {
            Winner::I => {
                let v1 = moves()
                    .filter(|&a| winner[m - a as usize] == Winner::II)
                    .map(|a| f2[m - a as usize] + a)
                    .min()
                    .expect("W(n) = I has a move to a II-position");
                (v1, max_f1)
            }
            Winner::II => {
                let v1 = moves()
                    .filter(|&a| f1[m - a as usize] == max_f1)
                    .map(|a| f2[m - a as usize] + a)
                    .min()
                    .expect("the maximum is attained");
                (v1, max_f1)
            }
        };
        f1.push(v1);
        f2.push(v2);
    }
    Ok(Thresholds { winner, f1, f2 })
}

impl Thresholds {
    /// The §5–7 view: (f_A(n), f_A^⊥(n)) — the plain-game winner's threshold and the other
    /// player's (f^I, f^II where W(n) = I; f^II, f^I where W(n) = II).
    pub fn main_and_other(&self, n: Amount) -> (Amount, Amount) {
        let m = n as usize;
        match self.winner[m] {
            Winner::I => (self.f1[m], self.f2[m]),
            Winner::II => (self.f2[m], self.f1[m]),
        }
    }
}

/// g^I(n), g^II(n) of Def 3.1: with i = n mod 2a₁, (n − i)/2 + min(i + 1, a₁) and
/// (n − i)/2 + max(0, i − a₁ + 1).
///
/// The arithmetic is in u128: 2a₁ overflows u64 once a₁ ≥ 2⁶³, and g^I(n) ≤ n + 1 exceeds it
/// at n = u64::MAX. Both values are at most n + 1; the caller's n indexes a table, so
/// n < u64::MAX in practice.
///
/// # Panics
/// Only for n = u64::MAX with n mod 2a₁ < a₁ (then g^I(n) = 2⁶⁴): use [`g_thresholds_big`].
pub fn g_thresholds(set: &CashSet, n: Amount) -> (Amount, Amount) {
    let (g1, g2) = g_thresholds_wide(set.min(), n);
    let fits =
        |g: u128| Amount::try_from(g).expect("g^I(n), g^II(n) ≤ n + 1 < 2⁶⁴ for n < u64::MAX");
    (fits(g1), fits(g2))
}

/// Def 3.1 in u128, where nothing overflows: 2a₁ < 2⁶⁵ and every value is at most n + 1.
fn g_thresholds_wide(a1: Amount, n: Amount) -> (u128, u128) {
    let (a1, n) = (u128::from(a1), u128::from(n));
    let i = n % (2 * a1);
    let half = (n - i) / 2;
    (half + (i + 1).min(a1), half + (i + 1).saturating_sub(a1))
}

/// [`g_thresholds`] for n of any size.
pub fn g_thresholds_big(set: &CashSet, n: &BigUint) -> (BigUint, BigUint) {
    let a1 = BigUint::from(set.min());
    let i = n % (&a1 * 2u32);
    let half = (n - &i) / 2u32;
    (
        &half + (&i + 1u32).min(a1.clone()),
        &half + (&i + 1u32).max(a1.clone()) - &a1,
    )
}

/// The least money each player needs, read off the win table by exhaustive search:
/// `least_f1` is the least d with which I wins (n; d, ∞) when W(n) = I, and otherwise the least d
/// with which I wins (n; d, least_f2 − 1); `least_f2` is the least e with which II wins (n; ∞, e)
/// when W(n) = II, and otherwise the least e with which II wins (n; least_f1 − 1, e). These are
/// the roles f^I and f^II play in Theorems 2.2 and 2.4. `least_f1` is `None` where II wins on
/// no money at all (n < a₁), so that no amount of I's money is a threshold.
pub fn least_thresholds(
    table: &CashTable,
    n: Amount,
    w: Winner,
) -> Option<(Option<Amount>, Amount)> {
    let least_d_beating = |e: Amount| -> Amount {
        // I wins (n; d, e) ⇔ e < T(n, d); T is nondecreasing in d, so binary search the row.
        // n + 1 means "never".
        let row = table.row(n);
        row.partition_point(|&t| Amount::from(t) <= e.min(n)) as Amount
    };
    if n > table.max_n() {
        return None;
    }
    Some(match w {
        Winner::I => {
            let f1 = least_d_beating(n);
            let f2 = if f1 == 0 {
                0
            } else {
                table.threshold(n, f1 - 1)?
            };
            (Some(f1), f2)
        }
        Winner::II => {
            let f2 = table.threshold(n, n)?;
            // With f2 = 0 (n < a₁) II wins on no money at all: I's threshold is undefined.
            let f1 = (f2 > 0).then(|| least_d_beating(f2 - 1));
            (f1, f2)
        }
    })
}

/// How a player stands at a state (Sections 2–4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Standing {
    /// At least the f threshold (Theorem 2.4 applies).
    Rich,
    /// Below the g threshold (Theorem 3.7 applies).
    Poor,
    /// In between.
    MiddleClass,
}

impl Standing {
    /// A player's standing with `money` against the thresholds f (rich from it on) and g (poor
    /// below it).
    pub fn of<T: PartialOrd>(money: &T, f: &T, g: &T) -> Standing {
        if money >= f {
            Standing::Rich
        } else if money < g {
            Standing::Poor
        } else {
            Standing::MiddleClass
        }
    }
}

impl fmt::Display for Standing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Standing::Rich => "rich",
            Standing::Poor => "poor",
            Standing::MiddleClass => "middle class",
        })
    }
}

/// A state classified, with the winner the paper's theorems give (if any) and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Classification {
    /// f^I(n), f^II(n), g^I(n), g^II(n).
    pub f1: Amount,
    /// f^II(n).
    pub f2: Amount,
    /// g^I(n).
    pub g1: Amount,
    /// g^II(n).
    pub g2: Amount,
    /// Player I's standing (d against f^I, g^I).
    pub player_i: Standing,
    /// Player II's standing (e against f^II, g^II).
    pub player_ii: Standing,
    /// The winner by Theorem 2.4 or 3.7, when one applies, and which part of which
    /// ([`Reason::Theorem24`] or [`Reason::Theorem37`]).
    pub by_theorem: Option<(Winner, Reason)>,
}

/// The winner Theorem 2.4 (a player is rich) or Theorem 3.7 (a player is poor) gives, from
/// [d, e, f^I(n), f^II(n), g^I(n), g^II(n)], with the theorem and its part
/// ([`Reason::Theorem24`] or [`Reason::Theorem37`]); `miserly` says whether ⌊d/a₁⌋ > ⌊e/a₁⌋.
fn decide_by_theorems<T: PartialOrd>(
    [d, e, f1, f2, g1, g2]: [T; 6],
    w: Winner,
    miserly: impl FnOnce() -> bool,
) -> Option<(Winner, Reason)> {
    if d >= f1 && e < f2 {
        Some((Winner::I, Reason::Theorem24(Part::One)))
    } else if d < f1 && e >= f2 {
        Some((Winner::II, Reason::Theorem24(Part::Two)))
    } else if d >= f1 && e >= f2 {
        Some((w, Reason::Theorem24(Part::Three)))
    } else if d >= g1 && e < g2 {
        Some((Winner::I, Reason::Theorem37(Part::One)))
    } else if d < g1 && e >= g2 {
        Some((Winner::II, Reason::Theorem37(Part::Two)))
    } else if d < g1 && e < g2 {
        let w = if miserly() { Winner::I } else { Winner::II };
        Some((w, Reason::Theorem37(Part::Three)))
    } else {
        None
    }
}

/// Classifies (n; d, e) given f^I(n), f^II(n) and W_A(n).
pub fn classify(
    set: &CashSet,
    n: Amount,
    d: Amount,
    e: Amount,
    f1: Amount,
    f2: Amount,
    w: Winner,
) -> Classification {
    let (g1, g2) = g_thresholds(set, n);
    let (si, sii) = (Standing::of(&d, &f1, &g1), Standing::of(&e, &f2, &g2));
    let a1 = set.min();
    let by_theorem = decide_by_theorems([d, e, f1, f2, g1, g2], w, || d / a1 > e / a1);
    Classification {
        f1,
        f2,
        g1,
        g2,
        player_i: si,
        player_ii: sii,
        by_theorem,
    }
}

/// C^I(n, a) and C^II(n, a) of Def 4.4 for a ∈ A, a ≤ n, signed. Def 4.4 prints
/// C^I = f^I(n) − f^I(n − a) + a, but Lemma 4.5 (and every c-table of §5–7) needs
/// C^I(n, a) = f^I(n) − f^II(n − a) − a, which is what moving from the corresponding state of
/// (n; d, e) to that of (n − a; e, d − a) subtracts; that is the value used here.
/// C^II(n, a) = f^II(n) − f^I(n − a) as printed.
pub fn c_values(set: &CashSet, th: &Thresholds, n: Amount) -> Vec<(Amount, i128, i128)> {
    let m = n as usize;
    set.elements()
        .iter()
        .take_while(|&&a| a <= n)
        .map(|&a| {
            let k = m - a as usize;
            (
                a,
                i128::from(th.f1[m]) - i128::from(th.f2[k]) - i128::from(a),
                i128::from(th.f2[m]) - i128::from(th.f1[k]),
            )
        })
        .collect()
}

/// C^I(n, a) exactly as Def 4.4 prints it, f^I(n) − f^I(n − a) + a (for checking the paper).
pub fn c1_as_printed(th: &Thresholds, n: Amount, a: Amount) -> i128 {
    let m = n as usize;
    i128::from(th.f1[m]) - i128::from(th.f1[m - a as usize]) + i128::from(a)
}

/// The corresponding state (Def 4.3) of (n; d, e) for a period m:
/// (n mod m; f^I(n) − 1 − d, f^II(n) − 1 − e).
pub fn corresponding_state(
    th: &Thresholds,
    m: Amount,
    n: Amount,
    d: Amount,
    e: Amount,
) -> (Amount, i128, i128) {
    let k = n as usize;
    (
        n % m,
        i128::from(th.f1[k]) - 1 - i128::from(d),
        i128::from(th.f2[k]) - 1 - i128::from(e),
    )
}

/// Closed forms for f^I and f^II with a proof for all n: the periodic-linear fits of the data
/// and a certificate that they satisfy Def 2.1/2.3's recurrence from `certificate.from` on.
#[derive(Clone, Debug)]
pub struct ThresholdForms {
    /// The fit of f^I.
    pub f1: PeriodicLinear,
    /// The fit of f^II.
    pub f2: PeriodicLinear,
    /// The proof.
    pub certificate: Certificate,
    /// Where the plain game W_A becomes periodic, and its period (proven by a window of max A).
    pub plain_period: Periodicity,
}

/// Fits f^I and f^II on n ≤ max_n and proves the fits for all n, or says why it cannot.
pub fn threshold_forms(set: &CashSet, max_n: Amount) -> Result<ThresholdForms> {
    threshold_forms_advising(set, max_n, "")
}

/// [`threshold_forms`], whose error when the data up to `max_n` is too short ends with
/// `more_data`: how the caller's user can give more (e.g. `; raise --max-n` from a command that
/// has that option; only the caller knows).
pub fn threshold_forms_advising(
    set: &CashSet,
    max_n: Amount,
    more_data: &str,
) -> Result<ThresholdForms> {
    let kmax = usize::try_from(set.max())
        .ok()
        .filter(|&k| k <= usize::try_from(max_n).unwrap_or(usize::MAX))
        .ok_or_else(|| {
            Error::invalid(format!(
                "max A = {} is beyond the data (n ≤ {max_n}): proving the plain game's period \
                 needs a window of max A terms to recur, so use n well above max A",
                set.max()
            ))
        })?;
    let th = thresholds(set, max_n)?;
    let plain = prove_period(&th.winner, kmax, kmax).ok_or_else(|| {
        Error::invalid(format!(
            "W_A of A = {set} shows no recurring window of {kmax} terms up to n = {max_n}{more_data}"
        ))
    })?;
    let as_q = |v: &[Amount]| -> Vec<Q> { v.iter().map(|&x| Q::from_bigint(x.into())).collect() };
    let data = vec![as_q(&th.f1), as_q(&th.f2)];
    let fit = |j: usize| {
        fit_periodic_linear(&data[j], 0, &FitOptions::default()).ok_or_else(|| {
            Error::invalid(format!(
                "f^{} of A = {set} has no periodic-linear form with 3 confirming periods up to n = {max_n}{more_data}",
                if j == 0 { "I" } else { "II" }
            ))
        })
    };
    let (f1, f2) = (fit(0)?, fit(1)?);
    let lcm = |a: usize, b: usize| a / num_integer::gcd(a, b) * b;
    let period = lcm(lcm(f1.period, f2.period), plain.period);
    let valid_from = (plain.preperiod + kmax) as i64;
    let w = |m: usize| periodic_winner(&th.winner, &plain, &BigUint::from(m));
    let rules = threshold_rules(set, period, valid_from, w);
    let recurrence = Recurrence {
        period,
        rules,
        lookback: kmax,
        valid_from,
    };
    let certificate =
        Certificate::prove(recurrence, &[f1.clone(), f2.clone()], &data).map_err(|why| {
            Error::invalid(format!(
                "the fitted forms for A = {set} are not proven: {why}"
            ))
        })?;
    Ok(ThresholdForms {
        f1,
        f2,
        certificate,
        plain_period: plain,
    })
}

impl ThresholdForms {
    /// W_A(n) for any n, through the proven period of the plain game.
    pub fn plain_winner(&self, th_winner: &[Winner], n: &BigUint) -> Winner {
        periodic_winner(th_winner, &self.plain_period, n)
    }
}

/// The winner of (n; d, e) for n of any size, when a theorem decides it from certified closed
/// forms of f^I, f^II (Theorem 2.4) or from g^I, g^II (Theorem 3.7): `None` for A-critical
/// states, which need the win table or a solution set. Also returns (f^I(n), f^II(n)).
pub fn winner_by_forms(
    set: &CashSet,
    forms: &ThresholdForms,
    th_winner: &[Winner],
    n: &BigUint,
    d: &BigUint,
    e: &BigUint,
) -> (Option<(Winner, Reason)>, Q, Q) {
    let nb = BigInt::from(n.clone());
    let f1 = forms.f1.eval_big(&nb);
    let f2 = forms.f2.eval_big(&nb);
    let w = forms.plain_winner(th_winner, n);
    let (dq, eq) = (
        Q::from_bigint(d.clone().into()),
        Q::from_bigint(e.clone().into()),
    );
    let a1 = BigUint::from(set.min());
    let (g1, g2) = g_thresholds_big(set, n);
    let (g1, g2) = (Q::from_bigint(g1.into()), Q::from_bigint(g2.into()));
    let decided = decide_by_theorems([&dq, &eq, &f1, &f2, &g1, &g2], w, || d / &a1 > e / &a1);
    (decided, f1, f2)
}

/// Cash-periodicity (Def 4.4(3), allowing an offset) decided from certified forms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum CashPeriodicity {
    /// W and every C^I(·, a), C^II(·, a) repeat with this least period from n = from on.
    Periodic {
        /// The least period.
        period: usize,
        /// From here on (the forms' range plus max A).
        from: i64,
    },
    /// Some C value grows without bound along a residue class: no period, even with an offset.
    NotPeriodic {
        /// n ≡ residue (mod the forms' period) …
        residue: usize,
        /// … and this move size …
        a: Amount,
        /// … make C^I or C^II change by this much per period.
        growth: Q,
        /// Which one: "C^I" or "C^II".
        which: &'static str,
    },
}

impl ThresholdForms {
    /// Decides cash-periodicity for all n ≥ the certificate's start: with f^I(Pk+i) = B_i k + c_i
    /// and f^II(Pk+i) = B'_i k + c'_i proven, C^I(n, a) = f^I(n) − f^II(n − a) − a changes by
    /// B_i − B'_{i−a} per period along n ≡ i, and C^II(n, a) = f^II(n) − f^I(n − a) by
    /// B'_i − B_{i−a}; every C is periodic iff all those vanish, and then the least period is the
    /// least divisor m of P under which W and every C repeat.
    pub fn cash_periodicity(&self, set: &CashSet, th_winner: &[Winner]) -> CashPeriodicity {
        let forms = &self.certificate.formulas;
        let p = self.certificate.recurrence.period;
        let at = |seq: usize, i: i64| -> &(Q, Q) { &forms[seq][i.rem_euclid(p as i64) as usize] };
        for i in 0..p as i64 {
            for &a in set.elements() {
                let back = i - a as i64;
                let g1 = &at(0, i).0 - &at(1, back).0;
                if g1 != Q::zero() {
                    return CashPeriodicity::NotPeriodic {
                        residue: i as usize,
                        a,
                        growth: g1,
                        which: "C^I",
                    };
                }
                let g2 = &at(1, i).0 - &at(0, back).0;
                if g2 != Q::zero() {
                    return CashPeriodicity::NotPeriodic {
                        residue: i as usize,
                        a,
                        growth: g2,
                        which: "C^II",
                    };
                }
            }
        }
        let from = self.certificate.from + set.max() as i64;
        // Values at a representative n of each residue from `from` on: exact, since every C is
        // constant along its residue class once the slopes cancel.
        let start = usize::try_from(from).expect("non-negative");
        let rep = |i: usize| start + (i + p - start % p) % p;
        let value = |seq: usize, n: usize| -> Q {
            let (b, c) = &forms[seq][n % p];
            &(b * &Q::int((n / p) as i64)) + c
        };
        let key = |i: usize| {
            let n = rep(i);
            let w = self.plain_winner(th_winner, &BigUint::from(n));
            let cs: Vec<(Q, Q)> = set
                .elements()
                .iter()
                .map(|&a| {
                    let m = n - a as usize;
                    (
                        &(&value(0, n) - &value(1, m)) - &Q::from_bigint(a.into()),
                        &value(1, n) - &value(0, m),
                    )
                })
                .collect();
            (w, cs)
        };
        let keys: Vec<_> = (0..p).map(key).collect();
        let period = (1..=p)
            .filter(|&m| p.is_multiple_of(m))
            .find(|&m| (0..p).all(|i| keys[i] == keys[(i + m) % p]))
            .expect("P itself qualifies");
        CashPeriodicity::Periodic { period, from }
    }
}

/// W(n) for n of any size: from the data, or through the proven period beyond it.
fn periodic_winner(w: &[Winner], p: &Periodicity, n: &BigUint) -> Winner {
    match n.to_usize() {
        Some(m) if m < w.len() => w[m],
        _ => {
            let back = ((n - BigUint::from(p.preperiod)) % BigUint::from(p.period))
                .to_usize()
                .expect("below the period");
            w[p.preperiod + back]
        }
    }
}

/// The rules of Def 2.3 as a recurrence with period P from `valid_from` on: for each residue,
/// the min/max-plus rule that W_A (given by `w`) selects at a representative n ≥ valid_from.
fn threshold_rules(
    set: &CashSet,
    period: usize,
    valid_from: i64,
    w: impl Fn(usize) -> Winner,
) -> Vec<Vec<Rule>> {
    let term = |seq: usize, shift: Amount, add: Amount| Term {
        seq,
        shift: shift as usize,
        add: Q::from_bigint(add.into()),
    };
    let mut rules = vec![Vec::with_capacity(period), Vec::with_capacity(period)];
    for i in 0..period {
        // A representative n ≡ i (mod P) where the plain game is periodic.
        let n = valid_from as usize + (i + period - valid_from as usize % period) % period;
        let moves = set.elements();
        let max_f1 = Rule::Max(moves.iter().map(|&a| term(0, a, 0)).collect());
        match w(n) {
            Winner::I => {
                rules[0].push(Rule::Min(
                    moves
                        .iter()
                        .filter(|&&a| w(n - a as usize) == Winner::II)
                        .map(|&a| term(1, a, a))
                        .collect(),
                ));
                rules[1].push(max_f1);
            }
            Winner::II => {
                rules[0].push(Rule::GuardedMin {
                    terms: moves
                        .iter()
                        .map(|&a| (term(1, a, a), term(0, a, 0)))
                        .collect(),
                    target: term(1, 0, 0),
                });
                rules[1].push(max_f1);
            }
        }
    }
    rules
}

/// Memory a replay may spend on recomputing thresholds: a certificate nimlab writes needs a few
/// thousand n, so this only stops files that claim absurd starts or periods.
const REPLAY_BYTES: u64 = 1 << 30;

/// Replays a certificate for A: rebuilds Def 2.3's recurrence for A (after proving the plain
/// game's period by the window argument) and demands it be the certificate's, recomputes the
/// base values, and re-checks the whole argument.
pub fn replay_threshold_certificate(set: &CashSet, cert: &Certificate) -> Result<()> {
    let rec = &cert.recurrence;
    let kmax = set.max();
    let not_def_2_3 = || {
        Error::invalid(format!(
            "the certificate's recurrence (period {}, look-back {}, from n = {}) is not Def 2.3's \
             for A = {set} (look-back {kmax})",
            rec.period, rec.lookback, rec.valid_from
        ))
    };
    if rec.period == 0
        || u64::try_from(rec.lookback) != Ok(kmax)
        || i128::from(rec.valid_from) < i128::from(kmax)
    {
        return Err(not_def_2_3());
    }
    if cert.from < 0 {
        return Err(Error::invalid(format!(
            "the certificate starts at n = {}, but thresholds start at n = 0",
            cert.from
        )));
    }
    // The shape first: it bounds every index used below (see MAX_CERTIFICATE_INDEX).
    cert.check_shape()
        .map_err(|why| Error::invalid(format!("the certificate does not check: {why}")))?;
    let (kmax, from) = (rec.lookback, rec.valid_from as usize);
    let horizon = cert.from as usize + rec.lookback;
    let end = horizon.max(from + rec.period + kmax) as Amount;
    check_threshold_budget(set, end, false, REPLAY_BYTES)?;
    let th = thresholds(set, end)?;
    // W_A(n) depends on the kmax values before n: equal windows P apart prove period P.
    if (from - kmax..from).any(|n| th.winner[n] != th.winner[n + rec.period]) {
        return Err(Error::invalid(format!(
            "W_A of A = {set} is not periodic with period {} from n = {}: the certificate's \
             recurrence cannot be Def 2.3's",
            rec.period,
            from - kmax
        )));
    }
    let rules = threshold_rules(set, rec.period, rec.valid_from, |m| th.winner[m]);
    if rules != rec.rules {
        return Err(Error::invalid(format!(
            "the certificate's recurrence is not Def 2.3's for A = {set}"
        )));
    }
    for (j, vals) in cert.base.iter().enumerate() {
        let truth = if j == 0 { &th.f1 } else { &th.f2 };
        for (off, v) in vals.iter().enumerate() {
            let n = cert.from as usize + off;
            if *v != Q::from_bigint(truth[n].into()) {
                return Err(Error::invalid(format!(
                    "the certificate's base value of sequence {j} at n = {n} is {v}, but the true value is {}",
                    truth[n]
                )));
            }
        }
    }
    if cert.base.len() != 2 {
        return Err(Error::invalid(
            "a threshold certificate covers f^I and f^II",
        ));
    }
    cert.verify()
        .map_err(|why| Error::invalid(format!("the certificate does not check: {why}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_normalized_and_checked() {
        assert_eq!("4,1,3,3".parse::<CashSet>().unwrap().elements(), &[1, 3, 4]);
        assert_eq!("{1,4}".parse::<CashSet>().unwrap().to_string(), "{1,4}");
        for bad in ["", "0,1", "1,-2", "1,x", "99999999999999999999999"] {
            assert!(bad.parse::<CashSet>().is_err(), "{bad}");
        }
    }

    #[test]
    fn g_thresholds_follow_def_3_1() {
        let a: CashSet = "3,5".parse().unwrap();
        // a₁ = 3: n = 7 → i = 1: g^I = 3 + 2 = 5, g^II = 3 + 0 = 3.
        assert_eq!(g_thresholds(&a, 7), (5, 3));
        // n = 10 → i = 4: g^I = 3 + 3 = 6, g^II = 3 + 2 = 5.
        assert_eq!(g_thresholds(&a, 10), (6, 5));
    }

    #[test]
    fn table_matches_the_literal_recursion() {
        for set in ["1,3,4", "2,3", "1,4", "3,5,6"] {
            let a: CashSet = set.parse().unwrap();
            let table = CashTable::solve(&a, 14, 1 << 20).unwrap();
            for n in 0..=14 {
                for d in 0..=16 {
                    for e in 0..=16 {
                        assert_eq!(
                            table.winner(n, d, e).unwrap(),
                            cash_winner_naive(&a, n, d, e),
                            "A = {a}, ({n}; {d}, {e})"
                        );
                    }
                }
            }
        }
    }
}
