//! Scoring Nim's structural claims: Prop 3.1 (i) and (iii) and the integer-breakpoint
//! consequence.
//!
//! Both builtins compare the exact rational engine (never the integer grid, which is only safe
//! because of the very facts checked here) with a naive fixed-N minimax written below, which
//! shares nothing with the engine: f_N(0) = −N, f_N(p) = max over moves of (taken − f_N(p')).

use std::collections::HashMap as StdHashMap;

use foldhash::fast::FixedState;

/// Maps hashed with foldhash: the keys are positions and payoffs looked up in the inner loops,
/// where SipHash cost more than the lookups themselves.
type HashMap<K, V> = StdHashMap<K, V, FixedState>;

use super::{Builtin, BuiltinRun, PointOutcome, heaps_arg};
use crate::claims::eval::{RED_ZONE, STACK_SEGMENT};
use crate::claims::finding::{Finding, Sentence, Style, VerdictKind};
use crate::claims::value::Value;
use crate::error::{Error, Result};
use crate::games::scoring::{Heap, Limits, Method, Nim, ScoringGame, solve, solve_cost};
use crate::num::{Pwl, Q};

/// Scoring Nim's builtins.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "scoring.pwl_shape",
        about: "f_N(position) is continuous (fact = \"continuous\") or has integer breakpoints \
                (fact = \"integer_breakpoints\"): exact engine against a direct minimax",
        expr_args: &["position"],
        run: pwl_shape,
    },
    Builtin {
        name: "scoring.last_stone",
        about: "Prop 3.1 (iii): at non-integer bonus the slope is ±1, +1 exactly when the player \
                to move takes the last stone under optimal play",
        expr_args: &["position", "bonus"],
        run: last_stone,
    },
];

/// Memory the direct minimax may use (its memo), like the engines' solves.
const NAIVE_BYTES: u64 = 2 << 30;
/// Bytes of one memo entry: the key (a rational and a heap vector), the value and the map's
/// overhead.
const NAIVE_BYTES_PER_POSITION: u64 = 200;
/// Moves the direct minimax may try for one position (about a minute of work).
const NAIVE_MOVES: u64 = 500_000_000;

/// Naive fixed-N minimax over sorted heap vectors, memoized across calls.
#[derive(Default)]
struct NaiveNim {
    memo: HashMap<(Q, Vec<u32>), Q>,
}

impl NaiveNim {
    fn children(p: &[u32]) -> Vec<(u32, Vec<u32>)> {
        let mut out = Vec::new();
        for i in 0..p.len() {
            if i > 0 && p[i] == p[i - 1] {
                continue;
            }
            for left in 0..p[i] {
                let mut q = p.to_vec();
                q[i] = left;
                q.retain(|&h| h > 0);
                q.sort_unstable_by(|a, b| b.cmp(a));
                out.push((p[i] - left, q));
            }
        }
        out
    }

    /// Refuses a position whose direct minimax is over the builtin's budget, before any work:
    /// the memo holds one entry per reachable position (per bonus asked) and every move of
    /// every one of them is tried.
    fn check_budget(p: &[u32]) -> Result<()> {
        let heaps: Vec<Heap> = p.iter().map(|&s| Heap::new(s)).collect();
        let cost = solve_cost(&ScoringGame::single(Nim), &[heaps], Method::Exact)
            .expect("Nim never splits and bounds its moves");
        let needed = cost.positions.saturating_mul(NAIVE_BYTES_PER_POSITION);
        if needed > NAIVE_BYTES || cost.edges > NAIVE_MOVES {
            return Err(Error::TooLarge {
                what: format!(
                    "the direct minimax of {} (up to {} positions, {} moves to try)",
                    show(p),
                    cost.positions,
                    cost.edges
                ),
                needed_bytes: needed,
                limit_bytes: NAIVE_BYTES,
                suggestion: format!(
                    "the builtin tries at most {NAIVE_MOVES} moves; use smaller heaps in `args`"
                ),
            });
        }
        Ok(())
    }

    fn value(&mut self, n: &Q, p: &[u32]) -> Q {
        // The recursion is as deep as the position has beans: grow the stack as it goes.
        stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.value_unguarded(n, p))
    }

    fn value_unguarded(&mut self, n: &Q, p: &[u32]) -> Q {
        if p.is_empty() {
            return -n.clone();
        }
        let key = (n.clone(), p.to_vec());
        if let Some(v) = self.memo.get(&key) {
            return v.clone();
        }
        let best = Self::children(p)
            .into_iter()
            .map(|(taken, q)| Q::int(i64::from(taken)) - self.value(n, &q))
            .max()
            .expect("a non-empty position has a move");
        self.memo.insert(key, best.clone());
        best
    }

    /// Who can take the last stone on some optimal line from p: bit 1 the player to move,
    /// bit 2 the other.
    fn last_takers(&mut self, n: &Q, p: &[u32], memo: &mut HashMap<Vec<u32>, u8>) -> u8 {
        stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || {
            self.last_takers_unguarded(n, p, memo)
        })
    }

    fn last_takers_unguarded(&mut self, n: &Q, p: &[u32], memo: &mut HashMap<Vec<u32>, u8>) -> u8 {
        if p.is_empty() {
            return 2;
        }
        if let Some(&w) = memo.get(p) {
            return w;
        }
        let f = self.value(n, p);
        let mut w = 0u8;
        for (taken, q) in Self::children(p) {
            if Q::int(i64::from(taken)) - self.value(n, &q) == f {
                let below = self.last_takers(n, &q, memo);
                w |= ((below & 1) << 1) | ((below & 2) >> 1);
            }
        }
        memo.insert(p.to_vec(), w);
        w
    }
}

fn sorted_heaps(v: &Value) -> Result<Vec<u32>> {
    let mut p = heaps_arg(v)?;
    p.retain(|&h| h > 0);
    p.sort_unstable_by(|a, b| b.cmp(a));
    Ok(p)
}

/// The exact payoff, after checking that the direct minimax it is compared with fits its budget
/// (the engine's own solve refuses by its estimate too).
fn exact_payoff(p: &[u32]) -> Result<Pwl> {
    NaiveNim::check_budget(p)?;
    let hs: Vec<Heap> = p.iter().map(|&s| Heap::new(s)).collect();
    let game = ScoringGame::single(Nim);
    let limits = Limits {
        max_bytes: NAIVE_BYTES,
    };
    solve(&game, &hs, Method::Exact, &limits)?.payoff(&hs)
}

fn show(p: &[u32]) -> String {
    let parts: Vec<String> = p.iter().map(u32::to_string).collect();
    format!("({})", parts.join(","))
}

/// `scoring.pwl_shape`: `fact = "continuous"` or `"integer_breakpoints"` for the position in
/// `args.position`, at every point of the range.
pub fn pwl_shape(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let fact = run.text("fact")?.to_string();
    if fact != "continuous" && fact != "integer_breakpoints" {
        return Err(Error::invalid(format!(
            "`args.fact` must be \"continuous\" or \"integer_breakpoints\", got \"{fact}\""
        )));
    }
    let mut naive = NaiveNim::default();
    let mut breakpoints = 0u64;
    let mut finding = run.each_point(|_, args| {
        let p = sorted_heaps(&args[0])?;
        let f = exact_payoff(&p)?;
        let bps = f.breakpoints();
        breakpoints += bps.len() as u64;
        if fact == "integer_breakpoints" {
            return Ok(match bps.iter().find(|(x, _)| !x.is_integer()) {
                Some((x, _)) => PointOutcome::Fail(
                    Sentence::new()
                        .text(format!("f_N{} has the breakpoint N = ", show(&p)))
                        .actual(format!("a breakpoint of f_N{}", show(&p)), x.clone(), false)
                        .expected_unwritten(
                            format!("every breakpoint of f_N{} is an integer", show(&p)),
                            true,
                        ),
                ),
                None => PointOutcome::Pass,
            });
        }
        // Samples: every breakpoint, the midpoints between them and one unit beyond the ends.
        let mut samples: Vec<Q> = bps.iter().map(|(x, _)| x.clone()).collect();
        let (first, last) = match (samples.first(), samples.last()) {
            (Some(a), Some(b)) => (a.clone(), b.clone()),
            _ => (Q::zero(), Q::zero()),
        };
        let mids: Vec<Q> = samples
            .windows(2)
            .map(|w| (&w[0] + &w[1]) / Q::int(2))
            .collect();
        samples.extend(mids);
        samples.push(first - Q::one());
        samples.push(last + Q::one());
        for n in &samples {
            let engine = f.eval(n);
            let direct = naive.value(n, &p);
            if engine != direct {
                return Ok(PointOutcome::Fail(
                    Sentence::new()
                        .text(format!("f_N{} at N = ", show(&p)))
                        .at("N", n.clone(), Style::Plain)
                        .text(": the exact engine gives ")
                        .actual("the exact engine", engine, false)
                        .text(", direct minimax ")
                        .expected("direct minimax", direct, false),
                ));
            }
        }
        Ok(PointOutcome::Pass)
    })?;
    if finding.verdict == VerdictKind::Holds {
        finding.push_text(&match fact.as_str() {
            "continuous" => format!(
                " ({breakpoints} breakpoints): the exact PWL payoff, continuous by construction, \
                 equals a direct fixed-N minimax at every breakpoint, between consecutive \
                 breakpoints and beyond the ends"
            ),
            _ => format!(" ({breakpoints} breakpoints, all integers, exact engine)"),
        });
    }
    Ok(finding)
}

/// `scoring.last_stone`: Prop 3.1 (iii) at the position `args.position` and the non-integer
/// bonus `args.bonus` — the slope of f is ±1 there, and +1 exactly when the player to move
/// takes the last stone under optimal play (−1 when the other does).
pub fn last_stone(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let mut naive = NaiveNim::default();
    let mut payoffs: HashMap<Vec<u32>, Pwl> = HashMap::default();
    let mut finding = run.each_point(|_, args| {
        let p = sorted_heaps(&args[0])?;
        let Value::Num(n) = &args[1] else {
            return Err(Error::invalid(format!(
                "`args.bonus` must be a number, got {}",
                args[1]
            )));
        };
        if n.is_integer() {
            return Ok(PointOutcome::Skip);
        }
        if !payoffs.contains_key(&p) {
            payoffs.insert(p.clone(), exact_payoff(&p)?);
        }
        let f = &payoffs[&p];
        let piece = f.pieces().into_iter().find(|pc| {
            pc.lo.as_ref().is_none_or(|lo| lo < n) && pc.hi.as_ref().is_none_or(|hi| n < hi)
        });
        let Some(piece) = piece else {
            return Ok(PointOutcome::Fail(
                Sentence::new()
                    .text("N = ")
                    .at("N", n.clone(), Style::Plain)
                    .text(format!(" is a breakpoint of f_N{}", show(&p)))
                    .expected_unwritten("N is not a breakpoint", true)
                    .actual_unwritten(format!("N is a breakpoint of f_N{}", show(&p)), true),
            ));
        };
        let slope = piece.slope;
        if slope != Q::one() && slope != -Q::one() {
            return Ok(PointOutcome::Fail(
                Sentence::new()
                    .text(format!("f_N{} has slope ", show(&p)))
                    .actual(format!("the slope of f_N{}", show(&p)), slope, false)
                    .text(" at N = ")
                    .at("N", n.clone(), Style::Plain)
                    .expected_unwritten("the slope is 1 or -1", true),
            ));
        }
        let w = naive.last_takers(n, &p, &mut HashMap::default());
        let expected = if slope == Q::one() { 1 } else { 2 };
        let who = |w: u8| match w {
            1 => "the player to move",
            2 => "the other player",
            _ => "either player (depending on the optimal line)",
        };
        Ok(if w == expected {
            PointOutcome::Pass
        } else {
            PointOutcome::Fail(
                Sentence::new()
                    .text(format!("f_N{} has slope ", show(&p)))
                    .actual(
                        format!("the slope of f_N{}", show(&p)),
                        slope.clone(),
                        false,
                    )
                    .text(", so ")
                    .expected(
                        "who takes the last stone, by the slope",
                        who(expected),
                        false,
                    )
                    .text(" should take the last stone, but under optimal play ")
                    .actual("who takes the last stone under optimal play", who(w), false)
                    .text(" does"),
            )
        })
    })?;
    if finding.verdict == VerdictKind::Holds && finding.points.is_some_and(|p| p.skipped > 0) {
        finding.push_text(": the claim is about non-integer N");
    }
    Ok(finding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_direct_minimax_is_budgeted_before_any_work() {
        assert!(NaiveNim::check_budget(&[5, 4, 2]).is_ok());
        for p in [&[1_000_000, 5][..], &[u32::MAX, u32::MAX], &[40_000]] {
            let err = NaiveNim::check_budget(p).unwrap_err().to_string();
            assert!(
                err.contains("moves to try") && err.contains("would need"),
                "{err}"
            );
        }
        let err = exact_payoff(&[u32::MAX, 3]).unwrap_err().to_string();
        assert!(err.contains("direct minimax"), "{err}");
    }
}
