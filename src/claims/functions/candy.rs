//! Candy Nim (Mani et al.) in claim expressions: the value V = N_L − N_W of a position and its
//! two parts under optimal play, the family 𝔊(a, m, x), the values of Luca's strategies, and
//! the extremes of N_W over the P-positions with a given number of candies.
//!
//! Values come from [`crate::games::candy`]. [`CandyCache`] keeps the dense 3-heap table
//! (regrown by doubling, each new table copying what an earlier one solved: its own previous
//! table or the largest of the run, [`SolvedTable`]), a memo for positions of four or more
//! heaps and the allocations computed so far.

use std::cell::RefCell;
use std::collections::HashMap;

use foldhash::fast::FixedState;
use std::sync::{Arc, Mutex};

use super::{Args, Function, Group, Signature, list, num};
use crate::claims::engines::Engines;
use crate::claims::expr::ExprError;
use crate::claims::typeset::{CallMath, MathArg};
use crate::claims::value::{Ty, Value};
use crate::error::{Error, Result};
use crate::games::candy::{
    self, Allocation, Candies, CandyValue, Contraction, MemoValues, PValues, Reading, Role,
    Strategy, ThreeHeapTable,
};
use crate::progress::Silent;

/// Candy Nim's functions.
pub const GROUP: Group = Group {
    title: "Candy Nim",
    note: "`p` is a list of heap sizes, `N` a number of candies",
    functions: &[
        &Part::V,
        &Part::N_L,
        &Part::N_W,
        &Frak,
        &StrategyValue::FLIP_FLOP,
        &StrategyValue::FRACTAL,
        &StrategyValue::FRACTAL_SMALL,
        &Extreme::MIN_NW,
        &Extreme::MAX_NW,
        &Extreme::ARGMIN,
        &Extreme::ARGMAX,
    ],
};

/// Memory the 3-heap Candy Nim table may use.
const CANDY_TABLE_BYTES: u64 = 2 << 30;
/// The most candies of a position with four or more heaps (their values are memoized).
const MAX_MEMO_CANDIES: u64 = 2000;
/// The most candies `alloc_*` take.
const MAX_ALLOCATION_CANDIES: u64 = 200;
/// The largest integer `frak` takes.
const MAX_FRAK_ARGUMENT: u64 = u32::MAX as u64;

/// P-values memoized across calls, usable where the candy solver wants `&self`.
#[derive(Default)]
struct MemoCell(RefCell<MemoValues>);

impl PValues for MemoCell {
    fn p_value(&self, heaps: &[Candies]) -> Option<i64> {
        Some(self.0.borrow_mut().p_value(heaps))
    }
}

/// Candy Nim values and allocations computed so far.
#[derive(Default)]
pub struct CandyCache {
    memo: MemoCell,
    three_heaps: Option<Arc<ThreeHeapTable>>,
    allocations: HashMap<u32, Allocation, FixedState>,
}

/// The 3-heap table with the most pairs solved so far in a check run, shared by its claims
/// (see [`Engines::shared`](crate::claims::engines::Engines::shared)): a claim's table copies the pairs this one
/// covers instead of solving them. It only seeds: each claim's table keeps the bounds that
/// claim needs (sharing one table, which a claim needing more then doubled, made checks slower).
#[derive(Default)]
pub struct SolvedTable(Mutex<Option<Arc<ThreeHeapTable>>>);

impl SolvedTable {
    fn get(&self) -> Option<Arc<ThreeHeapTable>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Keeps `t` when it has more pairs than the table kept (one table at most, so the run
    /// holds no more than one table beyond those its claims are using).
    fn offer(&self, t: &Arc<ThreeHeapTable>) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if kept.as_ref().is_none_or(|k| pairs(k) < pairs(t)) {
            *kept = Some(Arc::clone(t));
        }
    }
}

/// The pairs (smallest, middle heap) a table holds.
fn pairs(t: &ThreeHeapTable) -> u128 {
    (u128::from(t.max_small()) + 1) * (u128::from(t.max_middle()) + 1)
}

impl CandyCache {
    /// Candy Nim's value of any position (Luca to move in P-positions, Windsor in N-positions);
    /// a new 3-heap table starts from the run's `solved` one.
    pub fn value(&mut self, p: &[Candies], solved: &SolvedTable) -> Result<CandyValue> {
        let mut h: Vec<Candies> = p.iter().copied().filter(|&x| x > 0).collect();
        if h.len() > 3 {
            if candy::total(&h) > MAX_MEMO_CANDIES {
                return Err(Error::invalid(format!(
                    "{} has more than {MAX_MEMO_CANDIES} candies in four or more heaps",
                    candy::show(p)
                )));
            }
            return candy::value_with(&self.memo, p);
        }
        // Up to three heaps: the dense 3-heap table (much faster than the memo), regrown by
        // doubling when a position needs a larger smallest or middle heap. Every position a
        // value needs has its smallest and middle heaps within those of the position itself.
        h.sort_unstable();
        while h.len() < 3 {
            h.insert(0, 0);
        }
        let fits = |t: &Arc<ThreeHeapTable>| t.covers(h[0], h[1]);
        if !self.three_heaps.as_ref().is_some_and(fits) {
            let (small, middle) = self
                .three_heaps
                .as_ref()
                .map_or((0, 0), |t| (t.max_small(), t.max_middle()));
            // A regrown table copies the seed and solves only the new cells, so growth needs
            // no doubling to stay cheap; a doubled table can overshoot the largest need by 2×,
            // in memory and in work (about X·Y·(X + log Y)). Growing by a quarter keeps the
            // copies geometric (five tables' worth in all) and the overshoot below 1.25×.
            let grow = |have: Candies, need: Candies| {
                if need > have {
                    need.max(have.saturating_add(have / 4))
                } else {
                    have
                }
            };
            let (small, middle) = (grow(small, h[0].max(15)), grow(middle, h[1].max(63)));
            // The seed covering the most of the new table: this claim's previous table or
            // the run's largest.
            let overlap = |t: &ThreeHeapTable| {
                (u128::from(t.max_small().min(small)) + 1)
                    * (u128::from(t.max_middle().min(middle)) + 1)
            };
            let seed = [self.three_heaps.clone(), solved.get()]
                .into_iter()
                .flatten()
                .max_by_key(|t| overlap(t));
            let table = Arc::new(ThreeHeapTable::solve_seeded(
                small,
                middle,
                CANDY_TABLE_BYTES,
                seed.as_deref(),
                &Silent,
            )?);
            drop(seed);
            solved.offer(&table);
            self.three_heaps = Some(table);
        }
        let table = self.three_heaps.as_deref().expect("just built");
        candy::value_with(table, p)
    }

    /// V_S of a strategy for Luca from a P-position.
    pub fn strategy_value(&mut self, strategy: &Strategy, p: &[Candies]) -> Result<i64> {
        if candy::role(p) != Role::Luca {
            return Err(Error::invalid(format!(
                "{} is not a P-position; strategies are for Luca",
                candy::show(p)
            )));
        }
        Ok(candy::play_strategy(strategy, p)?.value)
    }

    /// The least and greatest N_W over P-positions with `n` candies, with their arrangements.
    ///
    /// An even `n` up to [`candy::PACKED_TOTAL`] comes with every even N below it from one
    /// layered solve of `candy allocate` (each P-position once, both cores), so a claim over
    /// N = 2, 4, …, n pays for the largest alone; others from the memo, N by N.
    pub fn allocation(&mut self, n: u32) -> Result<&Allocation> {
        if !self.allocations.contains_key(&n) {
            if n >= 2 && n.is_multiple_of(2) && u64::from(n) <= candy::PACKED_TOTAL {
                let evens: Vec<u32> = (2..=n).step_by(2).collect();
                for a in candy::allocations(&evens, &Silent)? {
                    self.allocations.entry(a.candies).or_insert(a);
                }
            } else {
                let a = candy::allocation(n, &mut self.memo.0.borrow_mut())?;
                self.allocations.insert(n, a);
            }
        }
        Ok(&self.allocations[&n])
    }
}

/// `candy_v(p)`, `candy_nl(p)`, `candy_nw(p)`: one part of the value under optimal play.
struct Part {
    signature: Signature,
    /// How the papers write it.
    symbol: &'static str,
    part: fn(&CandyValue) -> Value,
}

impl Part {
    const V: Part = Part {
        signature: Signature::new(
            "candy_v",
            &[list("p")],
            Ty::Num,
            "Candy Nim V = N_L − N_W under optimal play",
        ),
        symbol: r"V",
        part: |c| Value::int(c.v),
    };
    const N_L: Part = Part {
        signature: Signature::new(
            "candy_nl",
            &[list("p")],
            Ty::Num,
            "N_L, the candies Luca collects under optimal play",
        ),
        symbol: r"N_{L}",
        part: |c| Value::int(c.n_l),
    };
    const N_W: Part = Part {
        signature: Signature::new(
            "candy_nw",
            &[list("p")],
            Ty::Num,
            "N_W, the candies Windsor collects under optimal play",
        ),
        symbol: r"N_{W}",
        part: |c| Value::int(c.n_w),
    };
}

impl Function for Part {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!("{}({})", self.symbol, args[0].math()))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let p = args.heaps(0)?;
        let solved = engines.shared::<SolvedTable>();
        let c = args.engine(engines.cache::<CandyCache>().value(&p, &solved))?;
        Ok((self.part)(&c))
    }
}

/// `frak(a, m, x)`.
struct Frak;

impl Function for Frak {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "frak",
            &[num("a"), num("m"), num("x")],
            Ty::List,
            "the family member 𝔊(a, m, x) as a list",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!(
            r"\mathfrak{{G}}({}, {}, {})",
            args[0].math(),
            args[1].math(),
            args[2].math()
        ))
    }

    fn call(&self, args: &Args<'_>, _: &mut Engines) -> Result<Value, ExprError> {
        let a = args.natural(0, "a", MAX_FRAK_ARGUMENT)? as Candies;
        let m = args.natural(1, "m", MAX_FRAK_ARGUMENT)?;
        let x = args.natural(2, "x", MAX_FRAK_ARGUMENT)? as Candies;
        let g = args.engine(candy::frak(a, m, x))?;
        Ok(Value::List(g.iter().map(|&h| Value::int(h)).collect()))
    }
}

/// `flipflop_v(p)`, `fractal_v(p)`, `fractal_small_v(p)`: V when Luca plays a strategy.
struct StrategyValue {
    signature: Signature,
    /// How the papers write it (the smallest-heap reading marked `small`).
    symbol: &'static str,
    strategy: Strategy,
}

impl StrategyValue {
    const FLIP_FLOP: StrategyValue = StrategyValue {
        signature: Signature::new(
            "flipflop_v",
            &[list("p")],
            Ty::Num,
            "V when Luca plays the flip-flop strategy (Def 4.2) from a P-position",
        ),
        symbol: r"V_{\mathrm{FF}}",
        strategy: Strategy::FlipFlop,
    };
    const FRACTAL: StrategyValue = StrategyValue {
        signature: Signature::new(
            "fractal_v",
            &[list("p")],
            Ty::Num,
            "V under the fractal strategy with f(a) = ⌊a/2⌋, step (3) of Def 4.7 on the largest heap",
        ),
        symbol: r"V_{\mathrm{Fractal}_f}",
        strategy: Strategy::Fractal {
            f: Contraction::Half,
            reading: Reading::Largest,
        },
    };
    const FRACTAL_SMALL: StrategyValue = StrategyValue {
        signature: Signature::new(
            "fractal_small_v",
            &[list("p")],
            Ty::Num,
            "V under the fractal strategy with f(a) = ⌊a/2⌋, step (3) of Def 4.7 on the smallest heap",
        ),
        symbol: r"V_{\mathrm{Fractal}_f}^{\mathrm{small}}",
        strategy: Strategy::Fractal {
            f: Contraction::Half,
            reading: Reading::Smallest,
        },
    };
}

impl Function for StrategyValue {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!("{}({})", self.symbol, args[0].math()))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let p = args.heaps(0)?;
        let cache = engines.cache::<CandyCache>();
        Ok(Value::int(
            args.engine(cache.strategy_value(&self.strategy, &p))?,
        ))
    }
}

/// `alloc_min_nw(N)`, `alloc_max_nw(N)`, `alloc_argmin(N)`, `alloc_argmax(N)`.
struct Extreme {
    signature: Signature,
    /// How reports write it.
    symbol: &'static str,
    part: fn(&Allocation) -> Value,
}

/// P-positions as a sorted list of lists.
fn positions(ps: &[Vec<Candies>]) -> Value {
    let mut items: Vec<Value> = ps
        .iter()
        .map(|p| Value::List(p.iter().map(|&h| Value::int(h)).collect()))
        .collect();
    items.sort();
    Value::List(items.into())
}

impl Extreme {
    const MIN_NW: Extreme = Extreme {
        signature: Signature::new(
            "alloc_min_nw",
            &[num("N")],
            Ty::Num,
            "the least N_W over P-positions with N candies",
        ),
        symbol: r"N_{W}^{\min}",
        part: |a| Value::int(a.min_nw),
    };
    const MAX_NW: Extreme = Extreme {
        signature: Signature::new(
            "alloc_max_nw",
            &[num("N")],
            Ty::Num,
            "the greatest N_W over P-positions with N candies",
        ),
        symbol: r"N_{W}^{\max}",
        part: |a| Value::int(a.max_nw),
    };
    const ARGMIN: Extreme = Extreme {
        signature: Signature::new(
            "alloc_argmin",
            &[num("N")],
            Ty::List,
            "every P-position attaining `alloc_min_nw(N)` (heaps in decreasing order, the list sorted)",
        ),
        symbol: r"\arg N_{W}^{\min}",
        part: |a| positions(&a.argmin),
    };
    const ARGMAX: Extreme = Extreme {
        signature: Signature::new(
            "alloc_argmax",
            &[num("N")],
            Ty::List,
            "every P-position attaining `alloc_max_nw(N)` (heaps in decreasing order, the list sorted)",
        ),
        symbol: r"\arg N_{W}^{\max}",
        part: |a| positions(&a.argmax),
    };
}

impl Function for Extreme {
    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!("{}({})", self.symbol, args[0].math()))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let n = args.natural(0, "the number of candies", MAX_ALLOCATION_CANDIES)? as u32;
        let a = args.engine(engines.cache::<CandyCache>().allocation(n))?;
        Ok((self.part)(a))
    }
}
