//! The A-critical states of a small win table and their corresponding states (Def 4.3).
//!
//! A state (n; d, e) is A-critical when both players are middle class: g^I(n) ≤ d < f^I(n) and
//! g^II(n) ≤ e < f^II(n) (Def 4.1, with f^II for the second player as Def 4.3 needs). Its
//! corresponding state for the cash period m is (n mod m; f^I(n) − 1 − d, f^II(n) − 1 − e). §4's
//! approach rests on the corresponding state deciding the winner: two A-critical states with the
//! same corresponding state must have the same winner. [`critical_states`] lists every A-critical
//! state up to a bound with its winner from the win table, and reports the first pair that
//! contradicts the approach, if any; the corresponding states Player I wins are the observed
//! solution set X.

use std::collections::BTreeMap;

use super::{
    Amount, CashPeriodicity, CashSet, CashTable, Winner, corresponding_state, g_thresholds,
    threshold_forms, thresholds,
};
use crate::error::{Error, Result};

/// Data used to certify f^I, f^II (the cash period is read from the certified forms).
const FORMS_DATA: Amount = 4000;

/// A corresponding state (i; b, b†).
pub type Corresponding = (Amount, i128, i128);

/// A state (n; d, e).
pub type State = (Amount, Amount, Amount);

/// One A-critical state with its corresponding state and its winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CriticalState {
    /// (n; d, e).
    pub state: State,
    /// (n mod m; f^I(n) − 1 − d, f^II(n) − 1 − e).
    pub corresponding: Corresponding,
    /// Who wins (n; d, e), by the win table.
    pub winner: Winner,
}

/// Two A-critical states with one corresponding state and different winners.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The shared corresponding state.
    pub corresponding: Corresponding,
    /// The first state (in the order n, d, e) that has it.
    pub first: State,
    /// The first later state that has it with the other winner.
    pub second: State,
}

/// Every A-critical state from the cash period's start up to a bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CriticalStates {
    /// m, the cash period (Def 4.4).
    pub cash_period: Amount,
    /// Where the cash period starts (the states listed start here).
    pub from: Amount,
    /// The states, in increasing n, then d, then e.
    pub states: Vec<CriticalState>,
    /// How many distinct corresponding states occur.
    pub corresponding: usize,
    /// How many of them Player I wins (with the first winner seen for each): the observed
    /// solution set X.
    pub won_by_i: usize,
    /// The first contradiction of "the corresponding state decides the winner", if any.
    pub conflict: Option<Conflict>,
}

/// The A-critical states (n; d, e) with the cash period's start ≤ n ≤ `max_n`; `max_bytes`
/// bounds the win table. An error when A is not cash-periodic (corresponding states do not
/// apply) or f^I, f^II have no certified forms.
pub fn critical_states(set: &CashSet, max_n: Amount, max_bytes: u64) -> Result<CriticalStates> {
    let data = FORMS_DATA.max(max_n);
    let forms = threshold_forms(set, data).map_err(|why| {
        Error::invalid(format!(
            "corresponding states need certified forms of f^I and f^II: {why}"
        ))
    })?;
    let th = thresholds(set, data)?;
    let (m, from) = match forms.cash_periodicity(set, &th.winner) {
        CashPeriodicity::Periodic { period, from } => (period as Amount, from.max(0) as Amount),
        CashPeriodicity::NotPeriodic {
            which,
            residue,
            a: step,
            growth,
        } => {
            return Err(Error::invalid(format!(
                "A = {set} is not cash-periodic ({which}(n, {step}) grows by {growth} per period along n ≡ {residue}), so corresponding states (Def 4.3) do not apply"
            )));
        }
    };
    let table = CashTable::solve(set, max_n, max_bytes)?;
    // Each corresponding state → the first winner seen and the state it came from.
    let mut seen: BTreeMap<Corresponding, (Winner, State)> = BTreeMap::new();
    let mut conflict = None;
    let mut states = Vec::new();
    for n in from..=max_n {
        let k = n as usize;
        let (g1, g2) = g_thresholds(set, n);
        for d in g1..th.f1[k] {
            for e in g2..th.f2[k] {
                let winner = table.winner(n, d, e).expect("n ≤ max_n");
                let corresponding = corresponding_state(&th, m, n, d, e);
                match seen.get(&corresponding) {
                    Some((w0, first)) if *w0 != winner && conflict.is_none() => {
                        conflict = Some(Conflict {
                            corresponding,
                            first: *first,
                            second: (n, d, e),
                        });
                    }
                    None => {
                        seen.insert(corresponding, (winner, (n, d, e)));
                    }
                    _ => {}
                }
                states.push(CriticalState {
                    state: (n, d, e),
                    corresponding,
                    winner,
                });
            }
        }
    }
    Ok(CriticalStates {
        cash_period: m,
        from,
        states,
        corresponding: seen.len(),
        won_by_i: seen.values().filter(|(w, _)| *w == Winner::I).count(),
        conflict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cash::{Standing, cash_winner_naive};
    use std::collections::HashMap;

    #[test]
    fn every_a_critical_state_is_listed_with_its_winner() {
        for set in ["1,4", "1,3,4"] {
            let a: CashSet = set.parse().unwrap();
            let max = 24;
            let c = critical_states(&a, max, 1 << 24).unwrap();
            let th = thresholds(&a, max).unwrap();
            // Plainly: every state of the box whose players are both middle class.
            let mut expected = Vec::new();
            for n in c.from..=max {
                let (g1, g2) = g_thresholds(&a, n);
                let (f1, f2) = (th.f1[n as usize], th.f2[n as usize]);
                for d in 0..=n + 1 {
                    for e in 0..=n + 1 {
                        let middle = |m, f, g| Standing::of(&m, &f, &g) == Standing::MiddleClass;
                        if middle(d, f1, g1) && middle(e, f2, g2) {
                            expected.push((n, d, e));
                        }
                    }
                }
            }
            let listed: Vec<State> = c.states.iter().map(|s| s.state).collect();
            assert_eq!(listed, expected, "A = {a}");
            for s in &c.states {
                let (n, d, e) = s.state;
                // Lemma 1.12's recursion, independent of the table.
                assert_eq!(
                    s.winner,
                    cash_winner_naive(&a, n, d, e),
                    "A = {a}, {:?}",
                    s.state
                );
                assert_eq!(s.corresponding.0, n % c.cash_period);
            }
        }
    }

    #[test]
    fn counts_and_conflicts_follow_the_listed_states() {
        for set in ["1,4", "1,3,4", "1,4,5"] {
            let a: CashSet = set.parse().unwrap();
            let c = critical_states(&a, 40, 1 << 24).unwrap();
            let mut winners: HashMap<Corresponding, Vec<Winner>> = HashMap::new();
            for s in &c.states {
                winners.entry(s.corresponding).or_default().push(s.winner);
            }
            assert_eq!(c.corresponding, winners.len(), "A = {a}");
            let won = winners.values().filter(|w| w[0] == Winner::I).count();
            assert_eq!(c.won_by_i, won, "A = {a}");
            let decides = winners.values().all(|w| w.iter().all(|x| *x == w[0]));
            assert_eq!(c.conflict.is_none(), decides, "A = {a}");
        }
    }

    #[test]
    fn sets_that_are_not_cash_periodic_are_refused() {
        let a: CashSet = "3,5,6,10,11".parse().unwrap();
        let why = critical_states(&a, 40, 1 << 24).unwrap_err().to_string();
        assert!(why.contains("is not cash-periodic"), "{why}");
    }
}
