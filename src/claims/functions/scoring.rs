//! Scoring Nim (Oginuma–Shinoda) in claim expressions: the payoff N ↦ f_N(p) of a position p,
//! its tail constants and breakpoints, and membership in P⁺ and P⁻.
//!
//! Every payoff comes from the scoring solver ([`crate::games::scoring::solve`]); a solve
//! yields the payoff of every position reachable from p, and [`ScoringCache`] keeps them all,
//! so a claim over the members of a family solves each position once.

use std::collections::HashMap as StdHashMap;

use foldhash::fast::FixedState;

/// Maps hashed with foldhash: the keys are positions and payoffs looked up in the inner loops,
/// where SipHash cost more than the lookups themselves.
type HashMap<K, V> = StdHashMap<K, V, FixedState>;

use super::{Args, Function, Group, Signature, list, num};
use crate::claims::engines::Engines;
use crate::claims::expr::ExprError;
use crate::claims::typeset::{CallMath, MathArg, Shape};
use crate::claims::value::{Ty, Value};
use crate::error::Result;
use crate::games::scoring::{
    self, Heap, HeapSize, HeapTable, Limits, Method, Nim, ScoringGame, solve, solve_table,
    table_bytes,
};
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

/// Tables of at most this many positions are solved whenever a position of as many heaps is
/// missing (see [`ScoringCache::payoff`]): a few milliseconds of work.
const BOX_POSITIONS: u64 = 1 << 15;

/// The most memory a whole table solved for a family's walk may take (see
/// [`ScoringCache::payoff`]).
const TABLE_BYTES: u64 = 512 << 20;

/// Payoffs solved so far, by position (heap sizes in decreasing order, no empty heaps).
#[derive(Default)]
pub struct ScoringCache {
    /// Payoffs of positions solved alone, with everything they reach, and of positions read
    /// from a table.
    payoffs: HashMap<Vec<HeapSize>, Pwl>,
    /// Whole tables of k heaps ≤ H solved by the running minimum, at most one per k; a payoff
    /// is read from them (and converted) only when asked for.
    tables: Vec<HeapTable>,
    /// How many positions of k heaps were solved alone because their table was large, by k.
    solved_alone: HashMap<usize, usize>,
}

impl ScoringCache {
    /// Scoring Nim's payoff N ↦ f_N(p).
    ///
    /// A claim's range usually lists positions in increasing order, and no position is reachable
    /// from one listed before it, so solving each position on its own would solve nearly every
    /// position once per position above it: quadratic work along a family such as
    /// (2k+1, 2k, 1) for k = 1..60. A missing position p of k heaps, the largest m, is therefore
    /// read from the table of every position of k heaps ≤ H (H ≥ m), solved by the running
    /// minimum, far cheaper per position than exploring from p. A new table has H at least a
    /// quarter above the previous one's (double while it is small), so the tables' costs (H⁴
    /// for three heaps) add up to about twice the last one's. A table of more than
    /// [`BOX_POSITIONS`] positions is solved only from the second such position of k heaps on
    /// (a walk); the first, and any position whose table would pass [`TABLE_BYTES`], is solved
    /// alone with everything it reaches. A payoff is the same whichever way it was solved.
    pub fn payoff(&mut self, p: &[HeapSize]) -> Result<&Pwl> {
        let mut key = p.to_vec();
        key.sort_unstable_by(|a, b| b.cmp(a));
        key.retain(|&h| h > 0);
        if !self.payoffs.contains_key(&key)
            && let Some(f) = self.read_from_table(&key)?
        {
            self.payoffs.insert(key.clone(), f);
        }
        if !self.payoffs.contains_key(&key) {
            let heaps: Vec<Heap> = key.iter().map(|&s| Heap::new(s)).collect();
            let game = ScoringGame::single(Nim);
            *self.solved_alone.entry(key.len()).or_default() += 1;
            let sol = solve(&game, &heaps, Method::Auto, &limits())?;
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

    /// The payoff of `key` (decreasing, no empty heaps) from a table of as many heaps, solving
    /// a larger table first when one is cheap or a family's walk calls for one (see
    /// [`payoff`](Self::payoff)); `None` when no table holds it and none is worth solving.
    fn read_from_table(&mut self, key: &[HeapSize]) -> Result<Option<Pwl>> {
        let k = key.len();
        let Some(&largest) = key.first() else {
            return Ok(None);
        };
        let held = |t: &HeapTable| t.heaps() == k && t.max_heap() >= largest;
        if let Some(t) = self.tables.iter().find(|t| held(t)) {
            return t.payoff(key).map(Some);
        }
        let cheap = |h: HeapSize| scoring::table_size(k, h).is_some_and(|n| n <= BOX_POSITIONS);
        if !cheap(largest) && self.solved_alone.get(&k).copied().unwrap_or(0) == 0 {
            return Ok(None);
        }
        let previous = self
            .tables
            .iter()
            .filter(|t| t.heaps() == k)
            .map(HeapTable::max_heap)
            .max()
            .unwrap_or(0);
        let grown = if cheap(2 * previous) {
            2 * previous
        } else {
            previous + previous / 4
        };
        let max_heap = largest.max(grown);
        let game = ScoringGame::single(Nim);
        if table_bytes(&game, k, max_heap).is_none_or(|b| b > TABLE_BYTES) {
            return Ok(None);
        }
        let Ok(table) = solve_table(
            &game,
            k,
            max_heap,
            Method::Auto,
            &limits(),
            &crate::progress::Silent,
        ) else {
            return Ok(None);
        };
        let f = table.payoff(key)?;
        self.tables.retain(|t| t.heaps() != k);
        self.tables.push(table);
        Ok(Some(f))
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
        // The widening took place: the payoffs were read from tables.
        assert!(!cache.tables.is_empty());
    }

    #[test]
    fn a_box_too_large_is_not_widened() {
        // (200, 1, 1): its table of three heaps of 200 holds far more than BOX_POSITIONS.
        let mut cache = ScoringCache::default();
        let p = [1, 200, 1];
        assert_eq!(cache.payoff(&p).unwrap(), &alone(&p));
        assert!(cache.tables.is_empty());
        assert!(cache.payoffs.len() < BOX_POSITIONS as usize);
    }

    #[test]
    fn a_family_walked_upwards_is_read_from_growing_tables() {
        // (2k+1, 2k, 1): tables of three heaps pass BOX_POSITIONS from k = 28 on. The members
        // read from the running minimum's tables equal each one explored alone (the grid path
        // of the general solver, its own recursion).
        let mut cache = ScoringCache::default();
        let game = ScoringGame::single(Nim);
        for k in 1..=31 {
            let p = [2 * k + 1, 2 * k, 1];
            let got = cache.payoff(&p).unwrap().clone();
            if [1, 2, 13, 27, 28, 29, 31].contains(&k) {
                let heaps: Vec<Heap> = p.iter().map(|&s| Heap::new(s)).collect();
                let want = solve(&game, &heaps, Method::Auto, &limits())
                    .unwrap()
                    .payoff(&heaps)
                    .unwrap();
                assert_eq!(got, want, "k = {k}");
            }
        }
        // k = 28 was solved alone (the first large table), k = 29 on from one table.
        assert_eq!(cache.solved_alone.get(&3), Some(&1));
        let table = &cache.tables[0];
        assert!(
            table.max_heap() >= 63 && table.max_heap() < 80,
            "{}",
            table.max_heap()
        );
    }
}
