//! The paper's named strategies for Luca on 3-heap games in standard form
//! 𝔊(2^k − 1, m, 0) = [2^k − 1, 2^k·m, 2^k(m + 1) − 1] (§4's k), played out move by move so that
//! their value V_S can be set beside the optimum V.
//!
//! - Flip-flop (Def 4.2): while m ≥ 1, Luca takes 2^{k+1} − 1 from the largest heap and Windsor's
//!   only winning reply leaves 𝔊(2^k − 1, m − 1, 0); at m = 0 two equal heaps remain: Luca takes
//!   one, Windsor the other.
//! - Fractal_f (Def 4.7), f contractive on exponents (f(a) ≤ a): as flip-flop while m > 1; at
//!   m = 1 with j = f(k) < k, Luca moves a heap to 2^j − 1. Def 4.7(3) says the *smallest* heap
//!   (and names the game that follows accordingly); Figure 2, Prop 4.4 and the proofs of
//!   Theorems 4.8 and 5.1 move the *largest*. Both readings are playable.
//!
//! Windsor's replies are his unique winning moves (Lemma 3.2); the strategy refuses positions
//! outside the family, where it is not defined.

use std::fmt;

use serde::Serialize;

use super::{Candies, nim_sum, show, sorted, winning_moves};
use crate::error::{Error, Result};
use crate::num::Q;

/// Which heap Def 4.7(3) moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Reading {
    /// As written in Def 4.7(3).
    Smallest,
    /// As in Figure 2 and the proofs.
    Largest,
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reading::Smallest => "smallest",
            Reading::Largest => "largest",
        })
    }
}

/// A contractive function on exponents, f(a) ≤ a.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Contraction {
    /// f(a) = ⌊a/2⌋, the choice of Theorem 4.8.
    Half,
    /// f(a) = a (the fractal strategy is then flip-flop).
    Identity,
    /// f(a) = values[a − 1] for a ≤ len, and a beyond.
    Table(Vec<u32>),
}

impl Contraction {
    /// f(a).
    pub fn apply(&self, a: u32) -> u32 {
        match self {
            Contraction::Half => a / 2,
            Contraction::Identity => a,
            Contraction::Table(v) => v.get(a as usize - 1).copied().unwrap_or(a),
        }
    }

    /// A table f(1), f(2), …, checked to be contractive.
    pub fn table(values: Vec<u32>) -> Result<Contraction> {
        if let Some((i, v)) = values
            .iter()
            .enumerate()
            .find(|&(i, &v)| v as usize > i + 1)
        {
            return Err(Error::invalid(format!(
                "f({}) = {v} is not contractive: f(a) ≤ a is required",
                i + 1
            )));
        }
        Ok(Contraction::Table(values))
    }
}

impl fmt::Display for Contraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contraction::Half => f.write_str("f(a) = ⌊a/2⌋"),
            Contraction::Identity => f.write_str("f(a) = a"),
            Contraction::Table(v) => write!(
                f,
                "f = ({})",
                v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
            ),
        }
    }
}

/// A strategy for Luca.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Strategy {
    /// Def 4.2.
    FlipFlop,
    /// Def 4.7 with f and a reading of step (3).
    Fractal {
        /// The contraction f.
        f: Contraction,
        /// Which heap step (3) moves.
        reading: Reading,
    },
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::FlipFlop => f.write_str("flip-flop"),
            Strategy::Fractal { f: c, reading } => {
                write!(f, "fractal, {c}, step (3) on the {reading} heap")
            }
        }
    }
}

/// One turn (G, G′, G″) of a strategy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrategyTurn {
    /// G, sorted increasingly.
    pub before: Vec<Candies>,
    /// G′ after Luca's move.
    pub after_luca: Vec<Candies>,
    /// G″ after Windsor's reply.
    pub after_windsor: Vec<Candies>,
    /// Candies Luca took.
    pub luca_took: Candies,
    /// Candies Windsor took.
    pub windsor_took: Candies,
    /// V_T = (N(G) − N(G′)) − (N(G′) − N(G″)).
    pub value: i64,
    /// r_T = (N(G) − N(G′)) / (N(G′) − N(G″)) (Def 2.6).
    pub semiratio: Q,
}

/// A strategy played to the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrategyPlay {
    /// The turns.
    pub turns: Vec<StrategyTurn>,
    /// V_S = Σ V_T.
    pub value: i64,
}

/// The standard form parameters (k, m) of a sorted 3-heap position [2^k − 1, 2^k m, 2^k(m+1) − 1]
/// with k, m ≥ 1.
pub fn standard_form(g: &[Candies]) -> Option<(u32, u64)> {
    let [a, b, c] = g[..] else { return None };
    let p = u64::from(a) + 1;
    if a == 0 || !p.is_power_of_two() || u64::from(b) % p != 0 {
        return None;
    }
    let m = u64::from(b) / p;
    (m >= 1 && u64::from(c) == p * (m + 1) - 1).then_some((p.trailing_zeros(), m))
}

/// Luca's move under `strategy` from a sorted position: (index in the sorted position, new size).
fn luca_move(strategy: &Strategy, g: &[Candies]) -> Result<Option<(usize, Candies)>> {
    match g {
        [] => return Ok(None),
        // Two equal heaps (m = 0): Luca takes one, Windsor mirrors.
        [x, y] if x == y => return Ok(Some((1, 0))),
        _ => {}
    }
    let (k, m) = standard_form(g).ok_or_else(|| {
        Error::invalid(format!(
            "{} is defined on games 𝔊(2^k−1, m, 0) = [2^k−1, 2^k·m, 2^k(m+1)−1] and the positions they lead to; {} is not one",
            strategy,
            show(g)
        ))
    })?;
    let flip_flop = Some((2, g[2] - ((1u32 << (k + 1)) - 1)));
    Ok(match strategy {
        Strategy::FlipFlop => flip_flop,
        Strategy::Fractal { f, reading } => {
            let j = f.apply(k);
            if m > 1 || j >= k {
                flip_flop
            } else {
                let target = (1u32 << j) - 1;
                match reading {
                    Reading::Smallest => Some((0, target)),
                    Reading::Largest => Some((2, target)),
                }
            }
        }
    })
}

/// Plays `strategy` for Luca from a 3-heap position in standard form; Windsor replies with his
/// unique winning move.
pub fn play_strategy(strategy: &Strategy, heaps: &[Candies]) -> Result<StrategyPlay> {
    if nim_sum(heaps) != 0 {
        return Err(Error::invalid(format!(
            "{} is an N-position (nim-sum {}); the strategies are Luca's, in P-positions",
            show(heaps),
            nim_sum(heaps)
        )));
    }
    let mut g = sorted(heaps.to_vec());
    if g.len() == 3 && standard_form(&g).is_none() {
        return Err(Error::invalid(format!(
            "{} is not in standard form 𝔊(2^k−1, m, 0) = [2^k−1, 2^k·m, 2^k(m+1)−1]",
            show(heaps)
        )));
    }
    let mut turns = Vec::new();
    while let Some((i, left)) = luca_move(strategy, &g)? {
        let before = g.clone();
        let luca_took = g[i] - left;
        g[i] = left;
        let after_luca = g.clone();
        let replies = winning_moves(&g);
        let [(j, target)] = replies[..] else {
            return Err(Error::invalid(format!(
                "Windsor has {} winning replies at {}; the strategies assume a unique one",
                replies.len(),
                show(&g)
            )));
        };
        let windsor_took = g[j] - target;
        g[j] = target;
        let after_windsor = g.clone();
        g = sorted(g);
        turns.push(StrategyTurn {
            before,
            after_luca,
            after_windsor,
            luca_took,
            windsor_took,
            value: i64::from(luca_took) - i64::from(windsor_took),
            semiratio: Q::frac(i64::from(luca_took), i64::from(windsor_took)),
        });
    }
    let value = turns.iter().map(|t| t.value).sum();
    Ok(StrategyPlay { turns, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn half(reading: Reading) -> Strategy {
        Strategy::Fractal {
            f: Contraction::Half,
            reading,
        }
    }

    #[test]
    fn flip_flop_takes_m_turns_of_2_to_the_k_plus_1_minus_2() {
        // Prop 4.3 prints (m − 1)(2^{k+1} − 2); playing the strategy gives m(2^{k+1} − 2).
        for k in 1..=5u32 {
            for m in 1..=4u32 {
                let p = 1u32 << k;
                let g = [p - 1, p * m, p * (m + 1) - 1];
                let play = play_strategy(&Strategy::FlipFlop, &g).unwrap();
                assert_eq!(play.value, i64::from(m) * (2 * i64::from(p) - 2), "{g:?}");
            }
        }
    }

    #[test]
    fn figure_2_needs_the_largest_heap_reading() {
        // [7,16,23]: flip-flop to H = [7,8,15]; then 15 → 1, Windsor 8 → 6: V_T = 12, [1,6,7].
        let play = play_strategy(&half(Reading::Largest), &[7, 16, 23]).unwrap();
        let t = &play.turns[1];
        assert_eq!(t.before, vec![7, 8, 15]);
        assert_eq!(
            (t.value, sorted(t.after_windsor.clone())),
            (12, vec![1, 6, 7])
        );
        assert_eq!(play.value, 32);
        let smallest = play_strategy(&half(Reading::Smallest), &[7, 16, 23]).unwrap();
        assert_eq!(smallest.turns[1].value, 0);
        assert_eq!(smallest.value, 20);
    }

    #[test]
    fn prop_4_4_lower_bound_strategy_gives_98_at_m_1() {
        let play = play_strategy(&half(Reading::Largest), &[31, 32, 63]).unwrap();
        assert_eq!(play.value, 98);
        assert_eq!(play.turns[0].value, 56);
        assert_eq!(play.turns[0].semiratio, Q::frac(60, 4));
    }

    #[test]
    fn strategies_refuse_positions_outside_the_family() {
        assert!(play_strategy(&Strategy::FlipFlop, &[5, 6, 3]).is_err());
        assert!(play_strategy(&Strategy::FlipFlop, &[7, 16, 22]).is_err());
        assert!(Contraction::table(vec![1, 3]).is_err());
    }
}
