//! Who wins a state (n; d, e) of NIM with Cash, and why — for n, d, e of any size.
//!
//! Three sources decide, tried in this order:
//!
//! 1. **The win table** while it is affordable (n ≤ 2000 always; up to 20000 when no proven
//!    closed form applies). Where Theorem 2.4 or 3.7 also decides the state, that theorem is the
//!    reason given (the table agrees: the theorems are proven, and the tests check them on every
//!    small state); otherwise the state is A-critical and the reason is the table itself.
//! 2. **Certified closed forms** of f^I and f^II (see [`threshold_forms`]) give f^I(n), f^II(n)
//!    for any n from the certificate's start; with g^I, g^II in closed form (Def 3.1),
//!    Theorem 2.4 decides every state with a rich player and Theorem 3.7 every state with a poor
//!    one.
//! 3. **The win condition** ([`WinCondition`]), proven for every n from its start, decides the
//!    remaining, A-critical states (both players middle class).
//!
//! Where none applies (n below where the forms or the condition hold, a set that is not
//! cash-periodic) the answer is an error that says which, never a guess.

use std::fmt;

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use serde::Serialize;

use super::{
    Amount, CashSet, CashTable, Standing, ThresholdForms, Thresholds, WinCondition, WinProof,
    Winner, classify, g_thresholds_big, threshold_forms, thresholds, winner_by_forms,
};
use crate::error::{Error, Result};
use crate::num::Q;
use crate::progress::{Progress, Silent};

/// Largest n decided by the win table even when closed forms could answer (the table is
/// quadratic in n) …
pub const DIRECT_TABLE: Amount = 2_000;

/// … and the largest it is ever solved for (when no proven closed form applies).
pub const MAX_STATE_TABLE: Amount = 20_000;

/// Data used to fit and certify the closed forms for larger n.
const FORMS_DATA: Amount = 4000;

/// Where the search for the win condition starts (its win table grows from this n).
const WIN_CONDITION_START: Amount = 200;

/// A part (1), (2) or (3) of Theorem 2.4 or Theorem 3.7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Part {
    /// (1): Player I wins (I rich and II not; I not poor and II poor).
    One,
    /// (2): Player II wins (II rich and I not; I poor and II not).
    Two,
    /// (3): both rich (the plain game's winner wins) or both poor (⌊d/a₁⌋ > ⌊e/a₁⌋ decides).
    Three,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Part::One => "1",
            Part::Two => "2",
            Part::Three => "3",
        })
    }
}

/// Why a state has its winner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Reason {
    /// No theorem applies (the state is A-critical): the win table decides it.
    Table,
    /// Theorem 2.4 (a player is rich: money at least f^I(n), resp. f^II(n)), this part.
    Theorem24(Part),
    /// Theorem 3.7 (a player is poor: money below g^I(n), resp. g^II(n)), this part.
    Theorem37(Part),
    /// The state is A-critical and the win condition, proven as stated, decides it.
    WinCondition(WinProof),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Table => f.write_str("the win table"),
            Reason::Theorem24(part) => write!(f, "Theorem 2.4({part})"),
            Reason::Theorem37(part) => write!(f, "Theorem 3.7({part})"),
            Reason::WinCondition(proof) => {
                write!(f, "the win condition proven for n ≥ {}", proof.from)
            }
        }
    }
}

/// Where f^I(n), f^II(n) of a decision come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ThresholdSource {
    /// Def 2.1/2.3 computed up to n (the win table was solved too).
    Table,
    /// Closed forms proven for every n ≥ `proven_from` by a certificate (`nimlab mine cash`).
    Forms {
        /// Where the certificate's proof starts.
        proven_from: i64,
    },
}

/// The winner of (n; d, e), the reason, and the thresholds behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// Who wins (I is the player to move).
    pub winner: Winner,
    /// Why.
    pub reason: Reason,
    /// W_A(n): who wins the plain subtraction game on n stones.
    pub plain_winner: Winner,
    /// f^I(n) (Def 2.1/2.3).
    pub f1: Q,
    /// f^II(n).
    pub f2: Q,
    /// g^I(n) (Def 3.1).
    pub g1: Q,
    /// g^II(n).
    pub g2: Q,
    /// Player I's standing (d against f^I, g^I).
    pub player_i: Standing,
    /// Player II's standing (e against f^II, g^II).
    pub player_ii: Standing,
    /// Where f^I(n), f^II(n) come from.
    pub thresholds: ThresholdSource,
}

/// Who wins (n; d, e) and why: by the win table while it is affordable (n ≤ [`DIRECT_TABLE`],
/// or up to [`MAX_STATE_TABLE`] when no closed form applies), else by certified closed forms of
/// f^I, f^II with Theorems 2.4 and 3.7, and the proven win condition for A-critical states.
/// `max_bytes` bounds every win table solved.
pub fn decide(
    set: &CashSet,
    n: &BigUint,
    d: &BigUint,
    e: &BigUint,
    max_bytes: u64,
) -> Result<Decision> {
    decide_reporting(set, n, d, e, max_bytes, &Silent)
}

/// [`decide`], reporting to `progress` the search for the win condition when it is long (see
/// [`WinCondition::find_reporting_if_long`]).
pub fn decide_reporting(
    set: &CashSet,
    n: &BigUint,
    d: &BigUint,
    e: &BigUint,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<Decision> {
    match n.to_u64() {
        Some(m) if m <= DIRECT_TABLE => by_table(set, m, d, e, max_bytes),
        // Closed forms answer at once; the table is the fallback while it is affordable.
        Some(m) if m <= MAX_STATE_TABLE => by_forms(set, n, d, e, max_bytes, progress)
            .or_else(|_| by_table(set, m, d, e, max_bytes)),
        _ => by_forms(set, n, d, e, max_bytes, progress),
    }
}

/// By the win table for n stones. Money beyond n is as good as n: no line of play spends more.
fn by_table(
    set: &CashSet,
    n: Amount,
    d: &BigUint,
    e: &BigUint,
    max_bytes: u64,
) -> Result<Decision> {
    let cap = |m: &BigUint| m.to_u64().map_or(n, |m| m.min(n));
    let (d, e) = (cap(d), cap(e));
    let table = CashTable::solve(set, n, max_bytes)?;
    let th = thresholds(set, n)?;
    let m = n as usize;
    let winner = table.winner(n, d, e).expect("n is in the table");
    let c = classify(set, n, d, e, th.f1[m], th.f2[m], th.winner[m]);
    let reason = match c.by_theorem {
        Some((by_theorem, reason)) => {
            debug_assert_eq!(by_theorem, winner, "{reason} disagrees with the table");
            reason
        }
        None => Reason::Table,
    };
    let q = |v: Amount| Q::from_bigint(v.into());
    Ok(Decision {
        winner,
        reason,
        plain_winner: th.winner[m],
        f1: q(c.f1),
        f2: q(c.f2),
        g1: q(c.g1),
        g2: q(c.g2),
        player_i: c.player_i,
        player_ii: c.player_ii,
        thresholds: ThresholdSource::Table,
    })
}

/// By certified closed forms of f^I, f^II, the theorems that use them and, for A-critical
/// states, the proven win condition; an error where none of them applies to n.
fn by_forms(
    set: &CashSet,
    n: &BigUint,
    d: &BigUint,
    e: &BigUint,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<Decision> {
    ByForms::new(set, n)?.decide(n, d, e, max_bytes, progress)
}

/// What deciding by closed forms needs for a set: the certified forms, the exact thresholds
/// they start from, and the win condition once an A-critical state asks for it.
struct ByForms<'a> {
    set: &'a CashSet,
    forms: ThresholdForms,
    exact: Thresholds,
    condition: Option<WinCondition>,
}

impl<'a> ByForms<'a> {
    /// The forms of A; `n` is the state's (named when no form is found).
    fn new(set: &'a CashSet, n: &BigUint) -> Result<ByForms<'a>> {
        let forms = threshold_forms(set, FORMS_DATA).map_err(|why| {
            Error::invalid(format!(
                "{} and no certified closed form was found: {why}",
                beyond(n)
            ))
        })?;
        Ok(ByForms {
            set,
            forms,
            exact: thresholds(set, FORMS_DATA)?,
            condition: None,
        })
    }

    fn decide(
        &mut self,
        n: &BigUint,
        d: &BigUint,
        e: &BigUint,
        max_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<Decision> {
        let set = self.set;
        let from = self.forms.certificate.from;
        if *n < BigUint::from(from.max(0) as u64) {
            return Err(Error::invalid(format!(
                "the closed forms of A = {set} hold from n = {from} on"
            )));
        }
        let (decided, f1, f2) = winner_by_forms(set, &self.forms, &self.exact.winner, n, d, e);
        let (winner, reason) = match decided {
            Some(decided) => decided,
            None => {
                let critical = || {
                    format!(
                        "({n}; {d}, {e}) is A-critical (f^I = {f1}, f^II = {f2}) and {}",
                        beyond(n)
                    )
                };
                if self.condition.is_none() {
                    let found = WinCondition::find_reporting_if_long(
                        set,
                        WIN_CONDITION_START,
                        max_bytes,
                        progress,
                    )
                    .map_err(|why| Error::invalid(format!("{}: {why}", critical())))?;
                    self.condition = Some(found);
                }
                let wc = self.condition.as_ref().expect("just found");
                let winner = wc.critical_winner(n, d, e).ok_or_else(|| {
                    Error::invalid(format!(
                        "{}: the win condition holds from n = {} on",
                        critical(),
                        wc.proof.from
                    ))
                })?;
                (winner, Reason::WinCondition(wc.proof.clone()))
            }
        };
        let (g1, g2) = g_thresholds_big(set, n);
        let q = |x: &BigUint| Q::from_bigint(x.clone().into());
        let (g1, g2) = (q(&g1), q(&g2));
        let (player_i, player_ii) = (Standing::of(&q(d), &f1, &g1), Standing::of(&q(e), &f2, &g2));
        Ok(Decision {
            winner,
            reason,
            plain_winner: self.forms.plain_winner(&self.exact.winner, n),
            f1,
            f2,
            g1,
            g2,
            player_i,
            player_ii,
            thresholds: ThresholdSource::Forms { proven_from: from },
        })
    }
}

/// Why the win table does not answer for n.
fn beyond(n: &BigUint) -> String {
    format!("n = {n} is beyond the win table (n ≤ {MAX_STATE_TABLE})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cash::{cash_winner_naive, g_thresholds, plain_winners};

    fn big(x: u64) -> BigUint {
        BigUint::from(x)
    }

    /// The part of each theorem as the paper states it, read off the standings alone.
    fn consistent(r: &Reason, i: Standing, ii: Standing, w: Winner) -> bool {
        use Standing::{Poor, Rich};
        match r {
            Reason::Theorem24(Part::One) => i == Rich && ii != Rich && w == Winner::I,
            Reason::Theorem24(Part::Two) => i != Rich && ii == Rich && w == Winner::II,
            Reason::Theorem24(Part::Three) => i == Rich && ii == Rich,
            Reason::Theorem37(Part::One) => i != Rich && i != Poor && ii == Poor && w == Winner::I,
            Reason::Theorem37(Part::Two) => {
                i == Poor && ii != Rich && ii != Poor && w == Winner::II
            }
            Reason::Theorem37(Part::Three) => i == Poor && ii == Poor,
            Reason::Table | Reason::WinCondition(_) => {
                i != Rich && i != Poor && ii != Rich && ii != Poor
            }
        }
    }

    #[test]
    fn small_states_are_decided_as_the_literal_recursion_plays_them() {
        // cash_winner_naive is Lemma 1.12's recursion, independent of the table and theorems.
        for set in ["1,3,4", "2,3", "1,4", "3,5,6"] {
            let a: CashSet = set.parse().unwrap();
            let w = plain_winners(&a, 12);
            for n in 0..=12 {
                for d in 0..=14 {
                    for e in 0..=14 {
                        let got = decide(&a, &big(n), &big(d), &big(e), 1 << 20).unwrap();
                        assert_eq!(
                            got.winner,
                            cash_winner_naive(&a, n, d, e),
                            "A = {a}, ({n}; {d}, {e})"
                        );
                        assert_eq!(got.plain_winner, w[n as usize]);
                        assert_eq!(got.thresholds, ThresholdSource::Table);
                        assert!(
                            consistent(&got.reason, got.player_i, got.player_ii, got.winner),
                            "A = {a}, ({n}; {d}, {e}): {} with {} and {}",
                            got.reason,
                            got.player_i,
                            got.player_ii
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn closed_forms_and_the_win_condition_decide_as_the_table_does() {
        // The path used for huge n, taken at n the table still covers.
        for set in ["1,4", "1,3,4"] {
            let a: CashSet = set.parse().unwrap();
            let max = 120;
            let table = CashTable::solve(&a, max, 1 << 24).unwrap();
            let th = thresholds(&a, max).unwrap();
            let (mut theorems, mut conditions) = (0, 0);
            let mut forms = ByForms::new(&a, &big(0)).unwrap();
            for n in 30..=max {
                for d in (0..=max).step_by(3) {
                    for e in (0..=max).step_by(2) {
                        let got = forms
                            .decide(&big(n), &big(d), &big(e), 1 << 26, &Silent)
                            .unwrap();
                        assert_eq!(
                            Some(got.winner),
                            table.winner(n, d, e),
                            "A = {a}, ({n}; {d}, {e}): {}",
                            got.reason
                        );
                        assert_eq!(got.plain_winner, th.winner[n as usize]);
                        assert_eq!(got.f1, Q::from_bigint(th.f1[n as usize].into()));
                        assert_eq!(got.f2, Q::from_bigint(th.f2[n as usize].into()));
                        let (g1, g2) = g_thresholds(&a, n);
                        assert_eq!(
                            (got.g1, got.g2),
                            (Q::from_bigint(g1.into()), Q::from_bigint(g2.into()))
                        );
                        assert!(
                            matches!(got.thresholds, ThresholdSource::Forms { proven_from } if proven_from <= n as i64)
                        );
                        match got.reason {
                            Reason::WinCondition(_) => conditions += 1,
                            Reason::Table => panic!("the forms path never names the table"),
                            _ => theorems += 1,
                        }
                    }
                }
            }
            assert!(
                theorems > 1000 && conditions > 100,
                "A = {a}: {theorems} by theorem, {conditions} by the condition"
            );
        }
    }

    #[test]
    fn huge_states_are_decided_by_proven_forms_or_refused() {
        let a: CashSet = "1,4".parse().unwrap();
        let n: BigUint = "1000000000000000000".parse().unwrap();
        let rich = decide(&a, &n, &n, &big(3), 1 << 26).unwrap();
        assert_eq!(
            (rich.winner, &rich.reason),
            (Winner::I, &Reason::Theorem24(Part::One))
        );
        let critical = decide(
            &a,
            &n,
            &"799999999999999990".parse().unwrap(),
            &"799999999999999995".parse().unwrap(),
            1 << 26,
        )
        .unwrap();
        assert!(
            matches!(critical.reason, Reason::WinCondition(_)),
            "{}",
            critical.reason
        );
        // {3,5,6,10,11} is not cash-periodic: an A-critical state of it (g of about n/2 ≤ d < f
        // of about 0.69·n) has no win condition, and the refusal says so.
        let b: CashSet = "3,5,6,10,11".parse().unwrap();
        let d = big(60_000_000_000);
        let why = decide(&b, &big(100_000_000_000), &d, &d, 1 << 26)
            .unwrap_err()
            .to_string();
        assert!(
            why.contains("is A-critical") && why.contains("not cash-periodic"),
            "{why}"
        );
    }
}
