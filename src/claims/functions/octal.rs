//! Stewart's scoring octal games (*Impartial scoring play games*) in claim expressions: G_s of
//! a heap or a sum of heaps under one ruleset, and of a heap under one ruleset plus a heap
//! under another.
//!
//! Values come from the scoring solver ([`crate::games::scoring`]); [`OctalCache`] keeps each
//! ruleset's sequence of single-heap values (regrown by doubling), the solution they were read
//! from, and every sum solved so far. A sum the sequence's solution already holds (a breaking
//! ruleset's table holds every multiset up to its total) is read from it, not solved again.

use std::collections::HashMap;

use foldhash::fast::FixedState;
use std::sync::Arc;

use super::scoring::limits;
use super::{Args, Function, Group, Signature, any, num, string};
use crate::claims::engines::Engines;
use crate::claims::expr::ExprError;
use crate::claims::typeset::{CallMath, MathArg};
use crate::claims::value::{Ty, Value};
use crate::error::{Error, Result};
use crate::games::scoring::{
    Heap, HeapSequence, HeapSize, Ruleset, ScoringGame, ValueSolution, parse_rules, solve_values,
};
use crate::num::Q;

/// The octal games' functions.
pub const GROUP: Group = Group {
    title: "Scoring octal games (Stewart)",
    note: "`rules` is a ruleset such as `\"{4,5}\"`, `\"0.3333\"`, `\"(3333,2222)\"`",
    functions: &[&Gs, &GsMixed],
};

/// The largest heap `gs` tabulates (its sequences are computed from 0 up).
const MAX_GS_HEAP: HeapSize = 100_000;

/// Rulesets parsed, sequences and sums solved so far.
#[derive(Default)]
pub struct OctalCache {
    rulesets: HashMap<String, ScoringGame, FixedState>,
    sequences: HashMap<String, Vec<Q>, FixedState>,
    /// The solve each sequence was read from, when it was a solve of the game.
    solutions: HashMap<String, ValueSolution, FixedState>,
    sums: HashMap<(String, Vec<HeapSize>), Q, FixedState>,
    mixed: HashMap<(String, HeapSize, String, HeapSize), Q, FixedState>,
}

/// A ruleset from its text, the error naming it.
fn parse(rules: &str) -> Result<Arc<dyn Ruleset>> {
    parse_rules(rules).map_err(|e| Error::invalid(format!("ruleset \"{rules}\": {e}")))
}

impl OctalCache {
    fn ruleset(&mut self, rules: &str) -> Result<&ScoringGame> {
        if !self.rulesets.contains_key(rules) {
            let game = ScoringGame::new(vec![parse(rules)?]);
            self.rulesets.insert(rules.to_string(), game);
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
        let have = self.sequences.get(rules).map_or(0, Vec::len);
        if (n as usize) >= have {
            let game = self.ruleset(rules)?.clone();
            let seq = HeapSequence::new(&game, 0, &[], Q::zero())?;
            let earlier = self.solutions.remove(rules);
            // Doubling keeps a run over n = 1, 2, 3, … to a few solves. A ranked table (a game
            // that breaks heaps, whose cost grows exponentially in n) is extended instead, by
            // exactly the totals asked for: doubling it would overshoot the largest n of the
            // run by up to twice its (exponential) cost. Either way the table stops at the
            // largest heap that fits the memory limit (when n itself does not fit, the refusal
            // names n).
            let wanted = match &earlier {
                Some(solution) if solution.is_ranked() => n,
                _ => (n.max(15) as usize).max(2 * have) as HeapSize,
            };
            let upto = seq
                .largest_within_limits(wanted, &limits())
                .unwrap_or(n)
                .max(n);
            let (values, solution) = seq.values_extending(upto, &limits(), earlier)?;
            self.sequences.insert(rules.to_string(), values);
            if let Some(s) = solution {
                self.solutions.insert(rules.to_string(), s);
            }
        }
        Ok(self.sequences[rules][n as usize].clone())
    }

    /// G_s of a sum of heaps under one ruleset.
    pub fn gs_sum(&mut self, rules: &str, heaps: &[HeapSize]) -> Result<Q> {
        let mut sizes = heaps.to_vec();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        let key = (rules.to_string(), sizes);
        if let Some(v) = self.sums.get(&key) {
            return Ok(v.clone());
        }
        let hs: Vec<Heap> = key.1.iter().map(|&s| Heap::new(s)).collect();
        let solved = self
            .solutions
            .get(rules)
            .and_then(|solution| solution.value(&hs).ok());
        let v = match solved {
            Some(v) => v,
            None => {
                let game = self.ruleset(rules)?.clone();
                solve_values(&game, std::slice::from_ref(&hs), &Q::zero(), &limits())?.value(&hs)?
            }
        };
        self.sums.insert(key, v.clone());
        Ok(v)
    }

    /// G_s(n +_ℓ m) with n under `r1` and m under `r2`.
    pub fn gs_mixed(&mut self, r1: &str, n: HeapSize, r2: &str, m: HeapSize) -> Result<Q> {
        self.gs_mixed_all(r1, &[n], r2, m)?;
        Ok(self.mixed[&(r1.to_string(), n, r2.to_string(), m)].clone())
    }

    /// G_s(n +_ℓ m) for every n of `ns` (under `r1`), m under `r2`, from one solve: the
    /// positions below n +_ℓ m are those below the largest n's, so solving them one n at a time
    /// repeats most of the work n times.
    pub fn gs_mixed_all(&mut self, r1: &str, ns: &[HeapSize], r2: &str, m: HeapSize) -> Result<()> {
        let key = |n: HeapSize| (r1.to_string(), n, r2.to_string(), m);
        let missing: Vec<HeapSize> = ns
            .iter()
            .copied()
            .filter(|&n| !self.mixed.contains_key(&key(n)))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let roots: Vec<Vec<Heap>> = missing
            .iter()
            .map(|&n| vec![Heap { size: n, rules: 0 }, Heap { size: m, rules: 1 }])
            .collect();
        let game = ScoringGame::new(vec![parse(r1)?, parse(r2)?]);
        let solution = solve_values(&game, &roots, &Q::zero(), &limits())?;
        for (n, root) in missing.into_iter().zip(&roots) {
            self.mixed.insert(key(n), solution.value(root)?);
        }
        Ok(())
    }
}

/// `gs(rules, n)`: a heap when `n` is a number, a sum of heaps when it is a list.
struct Gs;

impl Function for Gs {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "gs",
            &[string("rules"), any("n")],
            Ty::Num,
            "Stewart's G_s of a heap n, or of a sum of heaps when n is a list (`gs(rules, [n, m])`)",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        let heaps = match args[1].items() {
            Some(items) => items
                .iter()
                .map(MathArg::math)
                .collect::<Vec<_>>()
                .join(" + "),
            None => args[1].math().to_string(),
        };
        CallMath::application(format!(
            r"\mathcal{{G}}_{{s}}^{{{}}}({heaps})",
            args[0].math()
        ))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let rules = args.string(0)?;
        let cache = engines.cache::<OctalCache>();
        Ok(Value::Num(match args.value(1) {
            Value::List(_) => {
                let p = args.heaps(1)?;
                args.engine(cache.gs_sum(rules, &p))?
            }
            _ => {
                let n = args.heap(1)?;
                args.engine(cache.gs(rules, n))?
            }
        }))
    }
}

/// `gs_mixed(r1, n, r2, m)`.
struct GsMixed;

impl Function for GsMixed {
    fn signature(&self) -> &Signature {
        const S: Signature = Signature::new(
            "gs_mixed",
            &[string("r1"), num("n"), string("r2"), num("m")],
            Ty::Num,
            "G_s(n +_ℓ m) with n under r1 and m under r2",
        );
        &S
    }

    fn math(&self, args: &[MathArg]) -> CallMath {
        CallMath::application(format!(
            r"\mathcal{{G}}_{{s}}^{{{}, {}}}({} +_{{\ell}} {})",
            args[0].math(),
            args[2].math(),
            args[1].math(),
            args[3].math()
        ))
    }

    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError> {
        let (r1, r2) = (args.string(0)?, args.string(2)?);
        let (n, m) = (args.heap(1)?, args.heap(3)?);
        let v = engines.cache::<OctalCache>().gs_mixed(r1, n, r2, m);
        Ok(Value::Num(args.engine(v)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sum read from the sequence's solution is the sum solved on its own, for a breaking
    /// ruleset (its sequence is a ranked table of every multiset) and a subtraction set (its
    /// sequence is a search); sums beyond the sequence's reach are solved.
    #[test]
    fn sums_read_from_the_sequence_are_the_sums_solved_alone() {
        for rules in ["0.25", "{2,3}", "0.137"] {
            let mut cache = OctalCache::default();
            cache.gs(rules, 20).unwrap();
            let game = ScoringGame::new(vec![parse(rules).unwrap()]);
            for heaps in [[3, 12], [5, 5], [1, 30], [7, 9], [40, 2]] {
                let hs: Vec<Heap> = heaps.iter().map(|&s| Heap::new(s)).collect();
                let alone = solve_values(&game, std::slice::from_ref(&hs), &Q::zero(), &limits())
                    .unwrap()
                    .value(&hs)
                    .unwrap();
                assert_eq!(
                    cache.gs_sum(rules, &heaps).unwrap(),
                    alone,
                    "{rules} {heaps:?}"
                );
            }
        }
    }
}
