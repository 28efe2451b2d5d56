//! What a researcher asks of a solved position: which moves are optimal for which bonus N, an
//! optimal line of play with both scores, and the tail constants c⁺, c⁻.
//!
//! Optimal-move regions. Each move's value g_i(N) = points − f_N(child) is PWL, and f = max g_i.
//! Between consecutive breakpoints of all g_i and f every function is linear, so the set
//! {i : g_i = f} is constant on each open gap (test at its midpoint) and may differ only at the
//! breakpoints themselves, where moves tie. Equal neighbouring pieces are merged into intervals
//! whose ends say whether they are closed.

use std::fmt;

use serde::Serialize;

use super::position::{Heap, Move, Ordered};
use super::solver::Solution;
use crate::error::Result;
use crate::num::{Pwl, Q};

/// A move together with its value as a function of N (points − payoff of the result).
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Its value to the mover, as a function of N.
    pub value: Pwl,
}

/// All moves of an ordered position with their values; empty for a terminal position.
pub fn candidates(sol: &Solution, heaps: &[Heap]) -> Result<Vec<Candidate>> {
    sol.game()
        .moves(heaps)?
        .into_iter()
        .map(|mv| {
            let value = sol.payoff(&mv.result.0)?.const_minus(&mv.points);
            Ok(Candidate { mv, value })
        })
        .collect()
}

/// An interval of the N-line; `None` ends are infinite.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Interval {
    /// Left end.
    pub lo: Option<Q>,
    /// Whether the left end belongs to the interval.
    pub lo_closed: bool,
    /// Right end.
    pub hi: Option<Q>,
    /// Whether the right end belongs to the interval.
    pub hi_closed: bool,
}

impl Interval {
    fn point(x: Q) -> Interval {
        Interval {
            lo: Some(x.clone()),
            lo_closed: true,
            hi: Some(x),
            hi_closed: true,
        }
    }

    fn open(lo: Option<Q>, hi: Option<Q>) -> Interval {
        Interval {
            lo,
            lo_closed: false,
            hi,
            hi_closed: false,
        }
    }

    /// Whether the interval is a single point.
    pub fn is_point(&self) -> bool {
        self.lo.is_some() && self.lo == self.hi
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lt = |closed: bool| if closed { "≤" } else { "<" };
        match (&self.lo, &self.hi) {
            (Some(a), Some(b)) if a == b => write!(f, "N = {a}"),
            (Some(a), Some(b)) => {
                write!(f, "{a} {} N {} {b}", lt(self.lo_closed), lt(self.hi_closed))
            }
            (Some(a), None) => write!(f, "N {} {a}", if self.lo_closed { "≥" } else { ">" }),
            (None, Some(b)) => write!(f, "N {} {b}", lt(self.hi_closed)),
            (None, None) => write!(f, "all N"),
        }
    }
}

/// The optimal moves (indices into the candidate list) on one interval of N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRegion {
    /// Where these moves are exactly the optimal ones.
    pub interval: Interval,
    /// Indices of the optimal candidates, in listing order.
    pub moves: Vec<usize>,
}

fn argmax_at(cands: &[Candidate], x: &Q) -> Vec<usize> {
    let values: Vec<Q> = cands.iter().map(|c| c.value.eval(x)).collect();
    let best = values.iter().max().expect("non-empty").clone();
    (0..cands.len()).filter(|&i| values[i] == best).collect()
}

/// Partitions the N-line into intervals on which the set of optimal moves is constant.
/// Empty when there are no moves.
pub fn optimal_move_regions(cands: &[Candidate]) -> Vec<MoveRegion> {
    if cands.is_empty() {
        return Vec::new();
    }
    // Crossings of candidates that are not breakpoints of any one candidate are breakpoints of f.
    let f = Pwl::max_all(cands.iter().map(|c| &c.value)).expect("non-empty");
    let mut xs: Vec<Q> = cands
        .iter()
        .map(|c| &c.value)
        .chain([&f])
        .flat_map(|g| g.breakpoints().iter().map(|(x, _)| x.clone()))
        .collect();
    xs.sort();
    xs.dedup();
    let mut pieces: Vec<(Interval, Vec<usize>)> = Vec::new();
    if xs.is_empty() {
        return vec![MoveRegion {
            interval: Interval::open(None, None),
            moves: argmax_at(cands, &Q::zero()),
        }];
    }
    let first = &xs[0];
    pieces.push((
        Interval::open(None, Some(first.clone())),
        argmax_at(cands, &(first - &Q::one())),
    ));
    for (i, x) in xs.iter().enumerate() {
        pieces.push((Interval::point(x.clone()), argmax_at(cands, x)));
        let (hi, sample) = match xs.get(i + 1) {
            Some(next) => (Some(next.clone()), (x + next) / Q::int(2)),
            None => (None, x + &Q::one()),
        };
        pieces.push((
            Interval::open(Some(x.clone()), hi),
            argmax_at(cands, &sample),
        ));
    }
    let mut out: Vec<MoveRegion> = Vec::new();
    for (interval, moves) in pieces {
        match out.last_mut() {
            Some(last) if last.moves == moves => {
                last.interval.hi = interval.hi;
                last.interval.hi_closed = interval.hi_closed;
            }
            _ => out.push(MoveRegion { interval, moves }),
        }
    }
    out
}

/// Which player moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The player to move at the start.
    First,
    /// The other player.
    Second,
}

/// One move of a line of play.
#[derive(Clone, Debug, Serialize)]
pub struct Ply {
    /// 1-based move number.
    pub ply: usize,
    /// Who moves.
    pub player: Player,
    /// Position before the move.
    #[serde(serialize_with = "display")]
    pub from: Ordered,
    /// Position after the move.
    #[serde(serialize_with = "display")]
    pub to: Ordered,
    /// Beans removed.
    pub taken: u64,
    /// Points scored by the move.
    pub points: Q,
    /// The mover's payoff f_N before the move.
    pub payoff_before: Q,
}

fn display<T: fmt::Display, S: serde::Serializer>(
    v: &T,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// An optimal line of play at a fixed N, with final scores (bonus included).
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// The bonus.
    pub bonus: Q,
    /// The moves.
    pub plies: Vec<Ply>,
    /// The first player's final score.
    pub first_score: Q,
    /// The second player's final score.
    pub second_score: Q,
    /// first_score − second_score; equals f_N of the start.
    pub payoff: Q,
}

/// Each move's value at one N and whether it is optimal there.
pub fn values_at(sol: &Solution, heaps: &[Heap], n: &Q) -> Result<Vec<(Move, Q, bool)>> {
    let moves = sol.game().moves(heaps)?;
    let values: Vec<Q> = moves
        .iter()
        .map(|m| Ok(&m.points - &sol.value(&m.result.0, n)?))
        .collect::<Result<_>>()?;
    let best = values.iter().max().cloned();
    Ok(moves
        .into_iter()
        .zip(values)
        .map(|(m, v)| {
            let opt = Some(&v) == best.as_ref();
            (m, v, opt)
        })
        .collect())
}

/// An optimal line from `heaps` at bonus `n`. Among tied optimal moves it takes the first in
/// listing order (by heap slot, then fewest beans taken).
pub fn optimal_line(sol: &Solution, heaps: &[Heap], n: &Q) -> Result<Line> {
    let mut pos = Ordered(heaps.to_vec());
    let mut plies = Vec::new();
    let mut scores = [Q::zero(), Q::zero()];
    loop {
        let options = values_at(sol, &pos.0, n)?;
        let Some((mv, _, _)) = options.into_iter().find(|(_, _, opt)| *opt) else {
            break;
        };
        let player = if plies.len() % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        scores[plies.len() % 2] = &scores[plies.len() % 2] + &mv.points;
        plies.push(Ply {
            ply: plies.len() + 1,
            player,
            from: pos.clone(),
            to: mv.result.clone(),
            taken: mv.taken,
            points: mv.points.clone(),
            payoff_before: sol.value(&pos.0, n)?,
        });
        pos = mv.result;
    }
    // The last mover collects N; from a terminal start the opponent is deemed to have (f = −N).
    let last = if plies.is_empty() {
        1
    } else {
        (plies.len() - 1) % 2
    };
    scores[last] = &scores[last] + n;
    let [first_score, second_score] = scores;
    let payoff = &first_score - &second_score;
    Ok(Line {
        bonus: n.clone(),
        plies,
        first_score,
        second_score,
        payoff,
    })
}

/// The tails of a payoff: f = c⁻ + left_slope·N far left, f = c⁺ + right_slope·N far right.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tails {
    /// c⁺: the right tail's constant.
    pub c_plus: Q,
    /// Slope of the right tail.
    pub right_slope: Q,
    /// c⁻: the left tail's constant.
    pub c_minus: Q,
    /// Slope of the left tail.
    pub left_slope: Q,
    /// Leftmost breakpoint (where the left tail ends), if any.
    pub first_breakpoint: Option<Q>,
    /// Rightmost breakpoint (where the right tail starts), if any.
    pub last_breakpoint: Option<Q>,
}

/// The tail constants and slopes of a payoff.
pub fn tails(f: &Pwl) -> Tails {
    let bps = f.breakpoints();
    Tails {
        c_plus: f.right_intercept(),
        right_slope: f.right_slope().clone(),
        c_minus: f.left_intercept(),
        left_slope: f.left_slope().clone(),
        first_breakpoint: bps.first().map(|(x, _)| x.clone()),
        last_breakpoint: bps.last().map(|(x, _)| x.clone()),
    }
}
