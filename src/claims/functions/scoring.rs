//! Scoring Nim (Oginuma–Shinoda) in claim expressions: the payoff N ↦ f_N(p) of a position p,
//! its tail constants and breakpoints, and membership in P⁺ and P⁻.
//!
//! Every payoff comes from the scoring solver ([`crate::games::scoring::solve`]); a solve
//! yields the payoff of every position reachable from p, and [`ScoringCache`] keeps them all,
//! so a claim over the members of a family solves each position once.

use std::collections::HashMap;

use super::{Args, Function, Group, Signature, list, num};
use crate::claims::engines::Engines;
use crate::claims::expr::ExprError;
use crate::claims::typeset::{CallMath, MathArg, Shape};
use crate::claims::value::{Ty, Value};
use crate::error::Result;
use crate::games::scoring::{self, Heap, HeapSize, Limits, Method, Nim, ScoringGame, solve};
use crate::num::Pwl;

/// Scoring Nim's functions.
pub const GROUP: Group = Group {
    title: "Scoring Nim",
    note: "`p` is a list of heap sizes, `N` a rational bonus",
    functions: &[
        &Payoff,
        &Tail::PLUS,
        &Tail::MINUS,
        &Breakpoints,
        &PSet::PLUS,
        &PSet::MINUS,
    ],
};

/// Memory a Scoring Nim or octal solve may use.
const SOLVE_BYTES: u64 = 2 << 30;

/// The limits of every solve behind a claim expression.
pub(crate) fn limits() -> Limits {
    Limits {
        max_bytes: SOLVE_BYTES,
    }
}

/// The most positions a solve may reach when it is widened to a box (see
/// [`ScoringCache::payoff`]): a few milliseconds of work.
const BOX_POSITIONS: u64 = 1 << 15;

/// Payoffs solved so far, by position (heap sizes in decreasing order, no empty heaps).
#[derive(Default)]
pub struct ScoringCache {
    payoffs: HashMap<Vec<HeapSize>, Pwl>,
}

impl ScoringCache {
    /// Scoring Nim's payoff N ↦ f_N(p).
    ///
    /// A claim's range usually lists positions in increasing order, and no position is reachable
    /// from one listed before it, so solving each position on its own would solve nearly every
    /// position once per position above it. A missing position p with k heaps, the largest m, is
    /// therefore solved as the box of k heaps of m — every position it reaches and every later
    /// one of the range that does not exceed m — when that box reaches at most
    /// [`BOX_POSITIONS`] positions; otherwise, or when the box cannot be solved, p alone. A
    /// payoff is the same whichever root it was reached from.
    pub fn payoff(&mut self, p: &[HeapSize]) -> Result<&Pwl> {
        let mut key = p.to_vec();
        key.sort_unstable_by(|a, b| b.cmp(a));
        key.retain(|&h| h > 0);
        if !self.payoffs.contains_key(&key) {
            let heaps: Vec<Heap> = key.iter().map(|&s| Heap::new(s)).collect();
            let game = ScoringGame::single(Nim);
            let boxed: Vec<Heap> = key.iter().map(|_| Heap::new(key[0])).collect();
            let small = boxed != heaps
                && scoring::solve_cost(&game, std::slice::from_ref(&boxed), Method::Auto)
                    .is_some_and(|c| c.positions <= BOX_POSITIONS);
            let solved = small
                .then(|| solve(&game, &boxed, Method::Auto, &limits()).ok())
                .flatten()
                .filter(|sol| sol.payoff(&heaps).is_ok());
            let sol = match solved {
                Some(sol) => sol,
                None => solve(&game, &heaps, Method::Auto, &limits())?,
            };
            // Every position reachable from the root is solved too: keep them all.
            for (pos, f) in sol.payoffs() {
                let sizes: Vec<HeapSize> = pos.heaps().iter().map(|h| h.size).collect();
                self.payoffs.entry(sizes).or_insert(f);
            }
            let f = sol.payoff(&heaps)?;
            self.payoffs.insert(key.clone(), f);
        }
        Ok(&self.payoffs[&key])
    }
}

/// `payoff(N, p)`.
struct Payoff;

impl Function for Payoff {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "payoff",
            &[num("N"), list("p")],
            Ty::Num,
            "Scoring Nim f_N(p)",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!("f_{{{}}}({})", args[0].math(), args[1].tuple()))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let p = args.heaps(1)?;
        let n = args.num(0)?;
        let f = args.engine(engines.cache::<ScoringCache>().payoff(&p))?;
        Ok(Value::Num(f.eval(n)))
    }
}

/// `cplus(p)` and `cminus(p)`: the constants f_N(p) − N as N → +∞ and f_N(p) + N as N → −∞.
struct Tail {
    signature: Signature,
    /// Whether this is c⁺ (the right tail).
    plus: bool,
}

impl Tail {
    const PLUS: Tail = Tail {
        signature: Signature::new("cplus", &[list("p")], Ty::Num, "the tail constant c⁺(p)"),
        plus: true,
    };
    const MINUS: Tail = Tail {
        signature: Signature::new("cminus", &[list("p")], Ty::Num, "the tail constant c⁻(p)"),
        plus: false,
    };
}

impl Function for Tail {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        let sign = if self.plus { "+" } else { "-" };
        CallMath::application(format!("c^{{{sign}}}({})", args[0].tuple()))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let p = args.heaps(0)?;
        let f = args.engine(engines.cache::<ScoringCache>().payoff(&p))?;
        Ok(Value::Num(if self.plus {
            f.right_intercept()
        } else {
            f.left_intercept()
        }))
    }
}

/// `breakpoints(p)`.
struct Breakpoints;

impl Function for Breakpoints {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "breakpoints",
            &[list("p")],
            Ty::List,
            "the list of breakpoints of N ↦ f_N(p)",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!(
            r"\operatorname{{breakpoints}}({})",
            args[0].tuple()
        ))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let p = args.heaps(0)?;
        let f = args.engine(engines.cache::<ScoringCache>().payoff(&p))?;
        Ok(Value::List(
            f.breakpoints()
                .iter()
                .map(|(x, _)| Value::Num(x.clone()))
                .collect(),
        ))
    }
}

/// `in_pplus(p)` and `in_pminus(p)`: the characterizations of P⁺ and P⁻ (no solve needed).
struct PSet {
    signature: Signature,
    /// `+` for P⁺, `-` for P⁻.
    sign: &'static str,
    contains: fn(&[HeapSize]) -> bool,
}

impl PSet {
    const PLUS: PSet = PSet {
        signature: Signature::new("in_pplus", &[list("p")], Ty::Bool, "membership in P⁺"),
        sign: "+",
        contains: scoring::in_p_plus,
    };
    const MINUS: PSet = PSet {
        signature: Signature::new("in_pminus", &[list("p")], Ty::Bool, "membership in P⁻"),
        sign: "-",
        contains: scoring::in_p_minus,
    };
}

impl Function for PSet {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        let position = match args[0].items() {
            Some(_) => format!("({})", args[0].tuple()),
            None => args[0].math().to_string(),
        };
        CallMath::shaped(
            format!(r"{position} \in P^{{{}}}", self.sign),
            Shape::Relation,
        )
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        Ok(Value::Bool((self.contains)(&args.heaps(0)?)))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::RngExt;
    use proptest::test_runner::{RngAlgorithm, TestRng};

    use super::*;

    /// The exact solve of `p` alone: the reference the cache's widened solves are compared with.
    fn alone(p: &[HeapSize]) -> Pwl {
        let heaps: Vec<Heap> = p.iter().map(|&s| Heap::new(s)).collect();
        solve(&ScoringGame::single(Nim), &heaps, Method::Exact, &limits())
            .unwrap()
            .payoff(&heaps)
            .unwrap()
    }

    #[test]
    fn widened_solves_give_each_positions_own_payoff() {
        // Positions of up to four heaps of at most 7, zeros and unsorted heaps included, in a
        // scrambled order (a fixed pseudo-random sequence): the cache is shared, so each one is
        // asked of whatever the earlier ones left in it.
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut cache = ScoringCache::default();
        for _ in 0..60 {
            let len = rng.random_range(1..=4);
            let p: Vec<HeapSize> = (0..len).map(|_| rng.random_range(0..8)).collect();
            assert_eq!(cache.payoff(&p).unwrap(), &alone(&p), "position {p:?}");
        }
        // The widening took place: more positions are known than were asked for.
        assert!(cache.payoffs.len() > 60);
    }

    #[test]
    fn a_box_too_large_is_not_widened() {
        // (200, 1, 1): its box of three heaps of 200 reaches far more than BOX_POSITIONS.
        let mut cache = ScoringCache::default();
        let p = [1, 200, 1];
        assert_eq!(cache.payoff(&p).unwrap(), &alone(&p));
        assert!(!cache.payoffs.contains_key(&vec![200, 200, 200]));
        assert!(cache.payoffs.len() < BOX_POSITIONS as usize);
    }
}
