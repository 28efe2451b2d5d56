//! Period certificates for n ↦ f_N(n +_ℓ m) (Stewart's G_s at N = 0): the game, the claimed
//! least preperiod and period, and a [`WindowCertificate`] over the sequence the window argument
//! runs on — a(n) itself without fixed heaps, the states V(n) = (f(n +_ℓ q))_q with them (see
//! the parent module). Writing one needs a main ruleset with a [`super::UniformTail`] above k
//! (taking, no breaking): then the sequence has look-back k from n = k + 1 on.
//!
//! A replay trusts nothing in the file but its rules: it parses them, derives the look-back the
//! game needs (refusing a smaller order or an earlier start), recomputes the terms with the
//! general solver (not the single-heap fast path the prover may have used), and replays the
//! window certificate against them.

use std::fmt;

use itertools::Itertools;
use serde::{Deserialize, Serialize};

use super::{FIRST_CHECK, HeapSequence};
use crate::error::{Error, Result};
use crate::games::scoring::octal::parse_rules;
use crate::games::scoring::position::{Heap, Position, RulesId, ScoringGame};
use crate::games::scoring::ruleset::HeapSize;
use crate::games::scoring::solver::{Limits, solve_values};
use crate::miner::{WindowCertificate, WindowError, component_period, prove_period};
use crate::num::Q;

/// Most terms a replay recomputes; certificates needing more are refused before any work.
const MAX_REPLAY_TERMS: usize = 1_000_000;

/// V(n): the values f(n +_ℓ q) over the positions q reachable from the fixed heaps, in the
/// order of [`PeriodProof::States`]'s `positions`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SequenceState(pub Vec<Q>);

impl fmt::Display for SequenceState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({})", self.0.iter().join(", "))
    }
}

/// The sequence the window argument runs on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PeriodProof {
    /// a(n) = f(n) itself (no fixed heaps).
    Values(WindowCertificate<Q>),
    /// V(n) (fixed heaps m); the claimed period is that of the first coordinate, q = m.
    States {
        /// The positions q, `(n@i,…)` with rulesets counted from 1, m first.
        positions: Vec<String>,
        /// The window certificate of V.
        window: WindowCertificate<SequenceState>,
    },
}

/// A replayable proof that n ↦ f_N(n +_ℓ m) has the stated least preperiod and least period.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeriodCertificate {
    /// The rulesets as they print and parse back (`{4,5}`, `0.33`, `(3333, 2,2,2,2)`, `nim`);
    /// the growing heap follows the first.
    pub rules: Vec<String>,
    /// The fixed heaps m, `n@i` with rulesets counted from 1.
    pub plus: Vec<String>,
    /// The bonus N for the last move (0: Stewart's G_s).
    pub bonus: Q,
    /// The least preperiod of a(n) = f_N(n +_ℓ m).
    pub preperiod: usize,
    /// The least period of a(n).
    pub period: usize,
    /// The window argument.
    pub proof: PeriodProof,
}

/// `n@i` with the ruleset counted from 1.
fn heap_label(h: &Heap) -> String {
    format!("{}@{}", h.size, h.rules + 1)
}

fn position_label(q: &Position) -> String {
    format!("({})", q.heaps().iter().map(heap_label).join(","))
}

/// Parses `n` or `n@i` (i counted from 1) against a game of `rulesets` rulesets.
fn parse_heap_label(s: &str, rulesets: usize) -> Result<Heap> {
    let bad = || {
        Error::invalid(format!(
            "plus heap '{s}' is not n or n@i (a heap size, then optionally a ruleset 1..={rulesets})"
        ))
    };
    let (size, rules) = s.trim().split_once('@').unwrap_or((s.trim(), "1"));
    let size: HeapSize = size.trim().parse().map_err(|_| bad())?;
    let rules: usize = rules.trim().parse().map_err(|_| bad())?;
    if rules == 0 || rules > rulesets {
        return Err(bad());
    }
    Ok(Heap {
        size,
        rules: RulesId::try_from(rules - 1).map_err(|_| bad())?,
    })
}

fn window_error(e: WindowError) -> Error {
    Error::invalid(format!("the window argument fails: {e}"))
}

impl HeapSequence {
    /// The look-back k of the growing heap's ruleset and the first n the recurrence of order k
    /// holds at (k + 1); an error naming the ruleset when it has none.
    fn look_back(&self) -> Result<(usize, usize)> {
        let tail = self.tail().ok_or_else(|| {
            Error::invalid(format!(
                "the ruleset {} breaks heaps or has unbounded moves, so its sequence has no finite look-back and no window certificate",
                self.game.rulesets()[usize::from(self.rules)].name()
            ))
        })?;
        let k = tail.above as usize;
        Ok((k, k + 1))
    }

    /// The rulesets as they print, checked to parse back to rules that print the same.
    fn rule_names(&self) -> Result<Vec<String>> {
        self.game
            .rulesets()
            .iter()
            .map(|r| {
                let name = r.name();
                match parse_rules(&name) {
                    Ok(back) if back.name() == name => Ok(name),
                    _ => Err(Error::invalid(format!(
                        "the ruleset {name} does not parse back from its name, so a certificate could not name it"
                    ))),
                }
            })
            .collect()
    }

    /// f_N(n +_ℓ m) for n = 0..=max_n from the general solver.
    fn engine_values(&self, max_n: HeapSize, limits: &Limits) -> Result<Vec<Q>> {
        let roots: Vec<Vec<Heap>> = (0..=max_n).map(|n| self.with(n, &self.plus)).collect();
        let sol = solve_values(&self.game, &roots, &self.bonus, limits)?;
        roots.iter().map(|r| sol.value(r)).collect()
    }

    /// A certificate for the least preperiod and period, found by the window argument on terms
    /// computed in doubling blocks up to `max_n`; an error when the ruleset has no finite
    /// look-back or no window recurs by then.
    pub fn period_certificate(
        &self,
        max_n: HeapSize,
        limits: &Limits,
    ) -> Result<PeriodCertificate> {
        let rules = self.rule_names()?;
        let (k, from) = self.look_back()?;
        let qs = if self.plus.is_empty() {
            Vec::new()
        } else {
            self.plus_positions(limits)?
        };
        let mut n = (FIRST_CHECK.max(8 * from) as HeapSize).min(max_n);
        loop {
            let proof = if self.plus.is_empty() {
                let v = self.values(n, limits)?;
                prove_period(&v, k, from)
                    .map(|p| {
                        let w =
                            WindowCertificate::from_sequence(&v, k, from, p.preperiod, p.period)
                                .map_err(window_error)?;
                        Ok::<_, Error>((p.preperiod, p.period, PeriodProof::Values(w)))
                    })
                    .transpose()?
            } else {
                let states: Vec<SequenceState> = self
                    .states(&qs, n, limits)?
                    .into_iter()
                    .map(SequenceState)
                    .collect();
                prove_period(&states, k, from)
                    .map(|p| {
                        let w = WindowCertificate::from_sequence(
                            &states,
                            k,
                            from,
                            p.preperiod,
                            p.period,
                        )
                        .map_err(window_error)?;
                        let column: Vec<&Q> = states.iter().map(|s| &s.0[0]).collect();
                        let c = component_period(&column, &w.periodicity(states.len()));
                        let positions = qs.iter().map(position_label).collect();
                        Ok::<_, Error>((
                            c.preperiod,
                            c.period,
                            PeriodProof::States {
                                positions,
                                window: w,
                            },
                        ))
                    })
                    .transpose()?
            };
            if let Some((preperiod, period, proof)) = proof {
                return Ok(PeriodCertificate {
                    rules,
                    plus: self.plus.iter().map(heap_label).collect(),
                    bonus: self.bonus.clone(),
                    preperiod,
                    period,
                    proof,
                });
            }
            if n >= max_n {
                return Err(Error::invalid(format!(
                    "no window of {k} terms recurs within n ≤ {max_n}, so there is no certificate; raise the largest heap"
                )));
            }
            n = n.saturating_mul(2).min(max_n);
        }
    }
}

impl PeriodCertificate {
    /// The sequence in words, e.g. `G_s(n +ℓ 4@1) under {4,5}` or `f_N(n) under {4,5} at N = 3`.
    pub fn describe(&self) -> String {
        let plus: String = self.plus.iter().map(|h| format!(" +ℓ {h}")).collect();
        let rules = self.rules.join(" + ");
        if self.bonus == Q::zero() {
            format!("G_s(n{plus}) under {rules}")
        } else {
            format!("f_N(n{plus}) under {rules} at N = {}", self.bonus)
        }
    }

    /// The window argument in words, e.g. `the 5 terms at n = 27..31 recur 10 later, and each
    /// term from n = 6 on depends only on the 5 before it`.
    pub fn argument(&self) -> String {
        let (what, order, from, start, period) = match &self.proof {
            PeriodProof::Values(w) => (
                "terms",
                w.order,
                w.recurrence_from,
                w.window_start,
                w.period,
            ),
            PeriodProof::States { window: w, .. } => (
                "states",
                w.order,
                w.recurrence_from,
                w.window_start,
                w.period,
            ),
        };
        format!(
            "the {order} {what} at n = {start}..{} recur {period} later, and each {} from n = {from} on depends only on the {order} before it",
            start + order.saturating_sub(1),
            &what[..what.len() - 1]
        )
    }

    /// The sequence the certificate is about, rebuilt from its rules, fixed heaps and bonus.
    fn sequence(&self) -> Result<HeapSequence> {
        if self.rules.is_empty() {
            return Err(Error::invalid("the certificate names no ruleset"));
        }
        let rulesets = self
            .rules
            .iter()
            .enumerate()
            .map(|(i, r)| {
                parse_rules(r).map_err(|e| Error::invalid(format!("rules[{i}] '{r}': {e}")))
            })
            .collect::<Result<Vec<_>>>()?;
        if rulesets.len() > usize::from(RulesId::MAX) {
            return Err(Error::invalid(format!(
                "the certificate names {} rulesets; at most {} are supported",
                rulesets.len(),
                RulesId::MAX
            )));
        }
        let game = ScoringGame::new(rulesets);
        let plus = self
            .plus
            .iter()
            .map(|h| parse_heap_label(h, self.rules.len()))
            .collect::<Result<Vec<_>>>()?;
        HeapSequence::new(&game, 0, &plus, self.bonus.clone())
    }

    /// Replays the certificate: the rules' look-back against the claimed order, then the window
    /// certificate against terms recomputed by the general solver, then the claimed least
    /// preperiod and period. An error names what does not hold.
    pub fn replay(&self, limits: &Limits) -> Result<()> {
        let seq = self.sequence()?;
        let (k, from) = seq.look_back()?;
        let (order, recurrence_from) = match &self.proof {
            PeriodProof::Values(w) => (w.order, w.recurrence_from),
            PeriodProof::States { window, .. } => (window.order, window.recurrence_from),
        };
        let rules = &self.rules[0];
        if order < k {
            return Err(Error::invalid(format!(
                "the order {order} is smaller than the look-back {k} that {rules} needs (a move removes up to {k} beans)"
            )));
        }
        if recurrence_from < from {
            return Err(Error::invalid(format!(
                "the recurrence is claimed from n = {recurrence_from}, but under {rules} it holds from n = {from} on"
            )));
        }
        let terms = |needed: usize| -> Result<HeapSize> {
            if needed > MAX_REPLAY_TERMS {
                return Err(Error::invalid(format!(
                    "the certificate needs {needed} terms, beyond the {MAX_REPLAY_TERMS} a replay computes"
                )));
            }
            Ok(needed.saturating_sub(1) as HeapSize)
        };
        let (preperiod, period) = match &self.proof {
            PeriodProof::Values(w) => {
                if !seq.plus.is_empty() {
                    return Err(Error::invalid(
                        "with fixed heaps the window argument runs on states, not values",
                    ));
                }
                w.check_shape().map_err(window_error)?;
                let max_n = terms(w.terms_needed().map_err(window_error)?)?;
                let truth = seq.engine_values(max_n, limits)?;
                w.verify(&truth).map_err(window_error)?;
                (w.preperiod, w.period)
            }
            PeriodProof::States { positions, window } => {
                if seq.plus.is_empty() {
                    return Err(Error::invalid(
                        "without fixed heaps the window argument runs on values, not states",
                    ));
                }
                window.check_shape().map_err(window_error)?;
                let qs = seq.plus_positions(limits)?;
                let reached: Vec<String> = qs.iter().map(position_label).collect();
                if *positions != reached {
                    return Err(Error::invalid(format!(
                        "the positions [{}] are not those reachable from the fixed heaps, [{}]",
                        positions.join(", "),
                        reached.join(", ")
                    )));
                }
                let max_n = terms(window.terms_needed().map_err(window_error)?)?;
                let truth: Vec<SequenceState> = seq
                    .states(&qs, max_n, limits)?
                    .into_iter()
                    .map(SequenceState)
                    .collect();
                window.verify(&truth).map_err(window_error)?;
                let column: Vec<&Q> = truth.iter().map(|s| &s.0[0]).collect();
                let c = component_period(&column, &window.periodicity(truth.len()));
                (c.preperiod, c.period)
            }
        };
        if (self.preperiod, self.period) != (preperiod, period) {
            return Err(Error::invalid(format!(
                "the certificate claims least preperiod {} and period {}, but the window argument proves preperiod {preperiod} and period {period}",
                self.preperiod, self.period
            )));
        }
        Ok(())
    }
}
