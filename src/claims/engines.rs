//! The game engines as claim expressions call them, with caches: a claim quantified over
//! thousands of points asks for the same payoffs, sequences and tables again and again.
//!
//! Every value here comes from the same solvers the rest of nimlab uses; this file only converts
//! arguments (with errors naming the bad value) and remembers results.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::games::candy::{
    self, Allocation, Candies, MemoValues, PValues, Reading, Role, Strategy, ThreeHeapTable,
};
use crate::games::cash::{self, Amount, CashSet, CashTable, Thresholds, Winner};
use crate::games::scoring::{
    Heap, HeapSize, Limits, Method, Nim, ScoringGame, parse_rules, solve, solve_values,
};
use crate::num::{Pwl, Q};

/// Memory the cash tables may use.
const CASH_TABLE_BYTES: u64 = 2 << 30;
/// Memory the 3-heap Candy Nim table may use.
const CANDY_TABLE_BYTES: u64 = 2 << 30;
/// Memory a Scoring Nim or octal solve may use.
const SOLVE_BYTES: u64 = 2 << 30;
/// The largest heap `gs` tabulates (its sequences are computed from 0 up).
const MAX_GS_HEAP: HeapSize = 100_000;
/// The largest n of f^I, f^II tables (17 bytes per n).
const MAX_THRESHOLD_N: Amount = 10_000_000;
/// The most candies of a position with four or more heaps (their values are memoized).
const MAX_MEMO_CANDIES: u64 = 2000;

fn limits() -> Limits {
    Limits {
        max_bytes: SOLVE_BYTES,
    }
}

/// The engines with their caches. One per check run; not shared between threads.
#[derive(Default)]
pub struct Engines {
    payoffs: HashMap<Vec<HeapSize>, Pwl>,
    rulesets: HashMap<String, ScoringGame>,
    gs_sequences: HashMap<String, Vec<Q>>,
    gs_sums: HashMap<(String, Vec<HeapSize>), Q>,
    gs_mixed: HashMap<(String, HeapSize, String, HeapSize), Q>,
    candy: MemoCell,
    three_heaps: Option<ThreeHeapTable>,
    allocations: HashMap<u32, Allocation>,
    thresholds: HashMap<Vec<Amount>, Thresholds>,
    cash_tables: HashMap<Vec<Amount>, CashTable>,
}

/// P-values memoized across calls, usable where the candy solver wants `&self`.
#[derive(Default)]
struct MemoCell(std::cell::RefCell<MemoValues>);

impl PValues for MemoCell {
    fn p_value(&self, heaps: &[Candies]) -> Option<i64> {
        Some(self.0.borrow_mut().p_value(heaps))
    }
}

fn sorted<T: Ord + Copy>(p: &[T]) -> Vec<T> {
    let mut v: Vec<T> = p.to_vec();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

impl Engines {
    /// Fresh engines with empty caches.
    pub fn new() -> Engines {
        Engines::default()
    }

    /// Scoring Nim's payoff N ↦ f_N(p).
    pub fn payoff(&mut self, p: &[HeapSize]) -> Result<&Pwl> {
        let mut key = sorted(p);
        key.retain(|&h| h > 0);
        if !self.payoffs.contains_key(&key) {
            let heaps: Vec<Heap> = key.iter().map(|&s| Heap::new(s)).collect();
            let game = ScoringGame::single(Nim);
            let sol = solve(&game, &heaps, Method::Auto, &limits())?;
            // Every position reachable from p is solved too: keep them all.
            for (pos, f) in sol.payoffs() {
                let sizes: Vec<HeapSize> = pos.heaps().iter().map(|h| h.size).collect();
                self.payoffs.insert(sizes, f);
            }
            let f = sol.payoff(&heaps)?;
            self.payoffs.insert(key.clone(), f);
        }
        Ok(&self.payoffs[&key])
    }

    fn ruleset(&mut self, rules: &str) -> Result<&ScoringGame> {
        if !self.rulesets.contains_key(rules) {
            let r = parse_rules(rules)
                .map_err(|e| Error::invalid(format!("ruleset \"{rules}\": {e}")))?;
            self.rulesets
                .insert(rules.to_string(), ScoringGame::new(vec![r]));
        }
        Ok(&self.rulesets[rules])
    }

    /// Stewart's G_s of one heap of n under `rules`.
    pub fn gs(&mut self, rules: &str, n: HeapSize) -> Result<Q> {
        if n > MAX_GS_HEAP {
            return Err(Error::invalid(format!(
                "heap {n} is beyond the {MAX_GS_HEAP} that gs tabulates"
            )));
        }
        let have = self.gs_sequences.get(rules).map_or(0, Vec::len);
        if (n as usize) >= have {
            let game = self.ruleset(rules)?.clone();
            let upto = (n.max(15) as usize).max(2 * have) as HeapSize;
            let seq = crate::games::scoring::HeapSequence::new(&game, 0, &[], Q::zero())?;
            let values = seq.values(upto, &limits())?;
            self.gs_sequences.insert(rules.to_string(), values);
        }
        Ok(self.gs_sequences[rules][n as usize].clone())
    }

    /// G_s of a sum of heaps under one ruleset.
    pub fn gs_sum(&mut self, rules: &str, heaps: &[HeapSize]) -> Result<Q> {
        let key = (rules.to_string(), sorted(heaps));
        if let Some(v) = self.gs_sums.get(&key) {
            return Ok(v.clone());
        }
        let game = self.ruleset(rules)?.clone();
        let hs: Vec<Heap> = key.1.iter().map(|&s| Heap::new(s)).collect();
        let v =
            solve_values(&game, std::slice::from_ref(&hs), &Q::zero(), &limits())?.value(&hs)?;
        self.gs_sums.insert(key, v.clone());
        Ok(v)
    }

    /// G_s(n +_ℓ m) with n under `r1` and m under `r2`.
    pub fn gs_mixed(&mut self, r1: &str, n: HeapSize, r2: &str, m: HeapSize) -> Result<Q> {
        let key = (r1.to_string(), n, r2.to_string(), m);
        if let Some(v) = self.gs_mixed.get(&key) {
            return Ok(v.clone());
        }
        let parse =
            |s: &str| parse_rules(s).map_err(|e| Error::invalid(format!("ruleset \"{s}\": {e}")));
        let game = ScoringGame::new(vec![parse(r1)?, parse(r2)?]);
        let hs = vec![Heap { size: n, rules: 0 }, Heap { size: m, rules: 1 }];
        let v =
            solve_values(&game, std::slice::from_ref(&hs), &Q::zero(), &limits())?.value(&hs)?;
        self.gs_mixed.insert(key, v.clone());
        Ok(v)
    }

    /// Candy Nim's value of any position (Luca to move in P-positions, Windsor in N-positions).
    pub fn candy(&mut self, p: &[Candies]) -> Result<candy::CandyValue> {
        let mut h: Vec<Candies> = p.iter().copied().filter(|&x| x > 0).collect();
        if h.len() > 3 {
            if candy::total(&h) > MAX_MEMO_CANDIES {
                return Err(Error::invalid(format!(
                    "{} has more than {MAX_MEMO_CANDIES} candies in four or more heaps",
                    candy::show(p)
                )));
            }
            return candy::value_with(&self.candy, p);
        }
        // Up to three heaps: the dense 3-heap table (much faster than the memo), regrown by
        // doubling when a position needs a larger smallest or middle heap. Every position a
        // value needs has its smallest and middle heaps within those of the position itself.
        h.sort_unstable();
        while h.len() < 3 {
            h.insert(0, 0);
        }
        let fits = |t: &ThreeHeapTable| t.covers(h[0], h[1]);
        if !self.three_heaps.as_ref().is_some_and(fits) {
            let (small, middle) = self
                .three_heaps
                .as_ref()
                .map_or((0, 0), |t| (t.max_small(), t.max_middle()));
            let grow = |have: Candies, need: Candies| {
                if need > have {
                    need.max(have.saturating_mul(2))
                } else {
                    have
                }
            };
            self.three_heaps = Some(ThreeHeapTable::solve(
                grow(small, h[0].max(15)),
                grow(middle, h[1].max(63)),
                CANDY_TABLE_BYTES,
            )?);
        }
        let table = self.three_heaps.as_ref().expect("just built");
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

    /// The flip-flop strategy and the fractal strategy with f(a) = ⌊a/2⌋ in either reading.
    pub fn strategy(kind: &str) -> Strategy {
        match kind {
            "flipflop" => Strategy::FlipFlop,
            "fractal_small" => Strategy::Fractal {
                f: candy::Contraction::Half,
                reading: Reading::Smallest,
            },
            _ => Strategy::Fractal {
                f: candy::Contraction::Half,
                reading: Reading::Largest,
            },
        }
    }

    /// The least and greatest N_W over P-positions with `n` candies, with their arrangements.
    pub fn allocation(&mut self, n: u32) -> Result<&Allocation> {
        if !self.allocations.contains_key(&n) {
            let a = candy::allocation(n, &mut self.candy.0.borrow_mut())?;
            self.allocations.insert(n, a);
        }
        Ok(&self.allocations[&n])
    }

    /// f^I, f^II and the plain winners of A, tabulated at least to n.
    pub fn thresholds(&mut self, a: &CashSet, n: Amount) -> Result<&Thresholds> {
        if n > MAX_THRESHOLD_N {
            return Err(Error::invalid(format!(
                "n = {n} is beyond the {MAX_THRESHOLD_N} that f1/f2 tabulate"
            )));
        }
        let key = a.elements().to_vec();
        let have = self
            .thresholds
            .get(&key)
            .map_or(0, |t| t.f1.len() as Amount);
        if n >= have {
            let upto = (n + 1).max(2 * have).max(64);
            self.thresholds
                .insert(key.clone(), cash::thresholds(a, upto)?);
        }
        Ok(&self.thresholds[&key])
    }

    /// The cash game's win table of A, tabulated at least to n.
    pub fn cash_table(&mut self, a: &CashSet, n: Amount) -> Result<&CashTable> {
        let key = a.elements().to_vec();
        let have = self.cash_tables.get(&key).map(CashTable::max_n);
        if have.is_none_or(|m| n > m) {
            let upto = n.max(have.map_or(0, |m| 2 * m)).max(32);
            self.cash_tables
                .insert(key.clone(), CashTable::solve(a, upto, CASH_TABLE_BYTES)?);
        }
        Ok(&self.cash_tables[&key])
    }

    /// W^cash_A(n; d, e).
    pub fn cash_winner(&mut self, a: &CashSet, n: Amount, d: Amount, e: Amount) -> Result<Winner> {
        // Money beyond n acts as infinite money.
        let (d, e) = (d.min(n), e.min(n));
        let table = self.cash_table(a, n)?;
        table
            .winner(n, d, e)
            .ok_or_else(|| Error::invalid(format!("state ({n}; {d}, {e}) outside the table")))
    }

    /// The true least thresholds (least_f1, least_f2) by exhaustive search.
    pub fn least(&mut self, a: &CashSet, n: Amount) -> Result<(Option<Amount>, Amount)> {
        let w = self.thresholds(a, n)?.winner[n as usize];
        let table = self.cash_table(a, n)?;
        cash::least_thresholds(table, n, w)
            .ok_or_else(|| Error::invalid(format!("n = {n} outside the table")))
    }
}

/// How a winner prints in expressions.
pub fn winner_name(w: Winner) -> &'static str {
    match w {
        Winner::I => "I",
        Winner::II => "II",
    }
}
