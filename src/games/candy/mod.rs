//! Candy Nim (Mani, Nelakanti, Rubinstein-Salzedo, Tholen): Nim where the winner must still win
//! (take the last candy) and both players then collect as many candies as they can.
//!
//! In a P-position (nim-sum 0) the loser Luca moves and may make any move; the winner Windsor may
//! only move back to nim-sum 0. N_L and N_W are the candies each collects under optimal play and
//! V = N_L − N_W; as N_L + N_W is the total, Luca maximizing her candies is Luca maximizing V and
//! Windsor maximizing his is Windsor minimizing V:
//!
//!   V(G) = max over Luca's moves G → G′ of (taken − W(G′)),  V(∅) = 0,
//!   W(G′) = max over Windsor's winning moves G′ → G″ of (taken − V(G″)),
//!
//! where W is Windsor's margin when he moves (an N-position's value is −W). Windsor's winning
//! moves from G′ with nim-sum s are the heaps h with h ⊕ s < h (Bouton); in a 3-heap P-position
//! the reply to any Luca move is unique (Lemma 3.2), in general there may be several.
//!
//! Solvers: [`plain_value`] is the reference (memoized minimax on sorted tuples, nothing
//! assumed); [`CandyTable`] stores V for every P-position in a box of heap sizes, indexed densely
//! and filled in index order (every move lowers one coordinate, so children come first);
//! [`ThreeHeapTable`] stores V for all sorted 3-heap P-positions (x, y, x ⊕ y) with x ≤ X, y ≤ Y,
//! row by row, each row's blocks of moves answered at once from running block maxima (so a
//! position costs O(x + log Y), not O(y)); and [`ThreeHeapBox`] those with every heap ≤ H, in
//! parallel layers.

use std::collections::HashMap;
use std::fmt;

use foldhash::fast::FixedState;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::progress::{Progress, Silent};

mod allocation;
mod packed;

/// Work between two progress reports (a report per position would cost more than the work).
const PROGRESS_CHUNK: usize = 1 << 16;

/// Stack left before a recursive solver grows its stack, and the size of each new segment.
const STACK_RED_ZONE: usize = 64 * 1024;
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// Heap bounds as `[h, h, …]`, shortened when there are many (a refusal must stay short).
fn show_bounded(heaps: &[Candies]) -> String {
    if heaps.len() <= 32 {
        show(heaps)
    } else {
        format!(
            "{}… ({} heaps)",
            &show(&heaps[..8]).trim_end_matches(']'),
            heaps.len()
        )
    }
}
mod p_positions;
mod strategy;
mod three_heap_box;

pub use allocation::{
    Allocation, AllocationCost, allocation, allocation_cost, allocation_reporting, allocations,
    p_partitions,
};
pub use p_positions::{
    most_heaps_fitting, p_position_table, p_position_table_bytes, p_positions,
    p_positions_with_largest,
};
pub use packed::PACKED_TOTAL;
pub use strategy::{
    Contraction, Reading, Strategy, StrategyPlay, StrategyTurn, play_strategy, standard_form,
};
pub use three_heap_box::ThreeHeapBox;
use three_heap_box::{BLOCK_LEVEL, RowMaxima, best_move_value};

/// A heap of candies.
pub type Candies = u32;

/// Who is to move: Luca in a P-position, Windsor in an N-position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Role {
    /// The loser, in a P-position (nim-sum 0); any move.
    Luca,
    /// The winner, in an N-position; only moves to nim-sum 0.
    Windsor,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Luca => "Luca",
            Role::Windsor => "Windsor",
        })
    }
}

/// A position as the papers write it: `[31,42,53]`.
pub fn show(heaps: &[Candies]) -> String {
    let parts: Vec<String> = heaps.iter().map(Candies::to_string).collect();
    format!("[{}]", parts.join(","))
}

/// The role to move in a position: Luca iff the nim-sum is 0.
pub fn role(heaps: &[Candies]) -> Role {
    if nim_sum(heaps) == 0 {
        Role::Luca
    } else {
        Role::Windsor
    }
}

/// XOR of the heaps.
pub fn nim_sum(heaps: &[Candies]) -> Candies {
    heaps.iter().fold(0, |a, &h| a ^ h)
}

/// Total candies N(G).
pub fn total(heaps: &[Candies]) -> u64 {
    heaps.iter().map(|&h| u64::from(h)).sum()
}

/// The value of a position under optimal play: V = N_L − N_W with N_L + N_W = N(G).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CandyValue {
    /// N_L − N_W.
    pub v: i64,
    /// Candies Luca collects.
    pub n_l: u64,
    /// Candies Windsor collects.
    pub n_w: u64,
}

impl CandyValue {
    /// From V and the total N (N_L = (N + V)/2, N_W = (N − V)/2).
    pub fn from_v(v: i64, total: u64) -> CandyValue {
        let t = total as i64;
        debug_assert!(
            (t + v) % 2 == 0 && v.abs() <= t,
            "V and N have the same parity"
        );
        CandyValue {
            v,
            n_l: ((t + v) / 2) as u64,
            n_w: ((t - v) / 2) as u64,
        }
    }
}

/// 𝔊(a, m, x) = [a, 2^K·m + x, 2^K·m + (a ⊕ x)] with K = ⌊log₂ a⌋ + 1 (2^K is the least power of
/// two above a), m ≥ 1, 0 ≤ x < 2^{⌊log₂ a⌋} (Def 2.8; SPEC §3).
pub fn frak(a: Candies, m: u64, x: Candies) -> Result<[Candies; 3]> {
    if a == 0 || m == 0 {
        return Err(Error::invalid(format!(
            "𝔊(a, m, x) needs a ≥ 1 and m ≥ 1 (a = {a}, m = {m} given)"
        )));
    }
    let low = 1u64 << (31 - a.leading_zeros()); // 2^⌊log₂ a⌋
    if u64::from(x) >= low {
        return Err(Error::invalid(format!(
            "𝔊({a}, m, x) needs 0 ≤ x < {low} (x = {x} given)"
        )));
    }
    let base = (2 * low).checked_mul(m);
    let middle = base.and_then(|b| b.checked_add(u64::from(x)));
    let large = base.and_then(|b| b.checked_add(u64::from(a ^ x)));
    match (
        middle.and_then(|v| Candies::try_from(v).ok()),
        large.and_then(|v| Candies::try_from(v).ok()),
    ) {
        (Some(b), Some(c)) => Ok([a, b, c]),
        _ => Err(Error::invalid(format!(
            "𝔊({a}, {m}, {x}) has heaps beyond {}",
            Candies::MAX
        ))),
    }
}

/// 2^⌊log₂ a⌋ for a ≥ 1: the x of 𝔊(a, m, x) range below it.
pub fn frak_x_limit(a: Candies) -> u64 {
    1u64 << (31 - a.max(1).leading_zeros())
}

/// The games 𝔊(a, m, x) for a, m, x in ranges (x < 2^⌊log₂ a⌋ for each a), counted and bounded
/// from the ranges alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrakRanges {
    /// The pairs (a, x) that make a game (each m adds as many games).
    pub pairs: u128,
    /// The largest a of a game.
    pub small: u64,
    /// The largest middle heap 2^K·m + x.
    pub middle: u64,
    /// A bound on the largest heap 2^K·m + (a ⊕ x): 2^K·m + 2^K − 1 for the largest K.
    pub largest: u64,
}

/// [`FrakRanges`] of a ∈ `a`, m ≤ `max_m` and x ∈ `x` (inclusive bounds, a ≥ 1): the a of one
/// bit length b share 2^K = 2^(b+1) and the allowed x < 2^b, so 32 bit lengths say everything.
pub fn frak_ranges(a: (Candies, Candies), max_m: u64, x: (Candies, Candies)) -> FrakRanges {
    let mut r = FrakRanges {
        pairs: 0,
        small: 0,
        middle: 0,
        largest: 0,
    };
    for b in 0..32u32 {
        let (lo, hi) = (u64::from(a.0).max(1 << b), u64::from(a.1).min((2 << b) - 1));
        let x_top = u64::from(x.1).min((1 << b) - 1);
        if lo > hi || u64::from(x.0) > x_top {
            continue;
        }
        r.pairs += u128::from(hi - lo + 1) * u128::from(x_top - u64::from(x.0) + 1);
        let base = (2u64 << b).saturating_mul(max_m);
        r.small = r.small.max(hi);
        // At most 2³²·(2³² − 1) + 2³² − 1 < 2⁶⁴ for m < 2³²: saturating all the same.
        r.middle = r.middle.max(base.saturating_add(x_top));
        r.largest = r.largest.max(base.saturating_add((2u64 << b) - 1));
    }
    r
}

/// The standard form 𝔊(2^k − 1, m, 0) = [2^k − 1, 2^k·m, 2^k(m+1) − 1] in §4's convention (§5 and
/// Def 2.10 write 𝔊(2^{k+1} − 1, m, 0): the same game with k one smaller).
pub fn standard_form_game(k: u32, m: u64) -> Result<[Candies; 3]> {
    if !(1..=31).contains(&k) {
        return Err(Error::invalid(format!(
            "standard form needs 1 ≤ k ≤ 31 (k = {k} given)"
        )));
    }
    frak((1 << k) - 1, m, 0)
}

/// Windsor's winning moves from an N-position: (heap index, candies left in it).
pub fn winning_moves(heaps: &[Candies]) -> Vec<(usize, Candies)> {
    let s = nim_sum(heaps);
    if s == 0 {
        return Vec::new();
    }
    heaps
        .iter()
        .enumerate()
        .filter(|&(_, &h)| h ^ s < h)
        .map(|(i, &h)| (i, h ^ s))
        .collect()
}

/// Most heaps [`MemoValues::p_value`] sorts in a buffer on the stack.
const SORTED_ON_STACK: usize = 16;

pub(crate) fn sorted(mut v: Vec<Candies>) -> Vec<Candies> {
    v.retain(|&h| h > 0);
    v.sort_unstable();
    v
}

/// The reference solver: plain memoized minimax on sorted heap tuples, for any position (Luca to
/// move in P-positions, Windsor in N-positions). Exponential in the heaps; for tests.
pub fn plain_value(heaps: &[Candies]) -> CandyValue {
    fn luca(g: Vec<Candies>, memo: &mut HashMap<Vec<Candies>, i64>) -> i64 {
        if let Some(&v) = memo.get(&g) {
            return v;
        }
        // One frame per turn, and a game lasts up to N/2 turns: grow the stack as needed.
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || luca_moves(g, memo))
    }
    fn luca_moves(g: Vec<Candies>, memo: &mut HashMap<Vec<Candies>, i64>) -> i64 {
        let mut best: Option<i64> = None;
        for i in 0..g.len() {
            for left in 0..g[i] {
                let mut next = g.clone();
                next[i] = left;
                let v = i64::from(g[i] - left) - windsor(sorted(next), memo);
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
        let v = best.unwrap_or(0);
        memo.insert(g, v);
        v
    }
    /// Windsor's margin (his candies minus Luca's) from an N-position.
    fn windsor(g: Vec<Candies>, memo: &mut HashMap<Vec<Candies>, i64>) -> i64 {
        winning_moves(&g)
            .into_iter()
            .map(|(i, left)| {
                let mut next = g.clone();
                next[i] = left;
                i64::from(g[i] - left) - luca(sorted(next), memo)
            })
            .max()
            .expect("an N-position has a winning move")
    }
    let g = sorted(heaps.to_vec());
    let mut memo = HashMap::new();
    let v = match role(&g) {
        Role::Luca => luca(g.clone(), &mut memo),
        Role::Windsor => -windsor(g.clone(), &mut memo),
    };
    CandyValue::from_v(v, total(&g))
}

/// One ply of an optimal line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CandyPly {
    /// Who moved.
    pub player: Role,
    /// Index of the heap moved on (in the position as given).
    pub heap: usize,
    /// Candies taken.
    pub taken: Candies,
    /// The position after the move (same heap order, emptied heaps kept as 0).
    pub after: Vec<Candies>,
}

/// V of P-positions, however they are stored. `heaps` may be in any order and contain zeros.
pub trait PValues {
    /// V of a P-position inside the stored range, `None` outside it.
    fn p_value(&self, heaps: &[Candies]) -> Option<i64>;
}

fn outside(heaps: &[Candies]) -> Error {
    Error::invalid(format!(
        "position {} lies outside the positions solved",
        show(heaps)
    ))
}

/// Windsor's best margin (his candies minus Luca's) from an N-position, with the move reaching it.
fn windsor_best<T: PValues + ?Sized>(
    table: &T,
    heaps: &[Candies],
) -> Result<(i64, usize, Candies)> {
    let mut best: Option<(i64, usize, Candies)> = None;
    let mut next = heaps.to_vec();
    for (i, left) in winning_moves(heaps) {
        next[i] = left;
        let v = table.p_value(&next).ok_or_else(|| outside(&next))?;
        next[i] = heaps[i];
        let margin = i64::from(heaps[i] - left) - v;
        if best.is_none_or(|(b, _, _)| margin > b) {
            best = Some((margin, i, left));
        }
    }
    best.ok_or_else(|| {
        Error::invalid(format!(
            "{} is a P-position; Windsor has no winning move",
            show(heaps)
        ))
    })
}

/// Luca's best margin from a P-position, with the move reaching it.
fn luca_best<T: PValues + ?Sized>(
    table: &T,
    heaps: &[Candies],
) -> Result<Option<(i64, usize, Candies)>> {
    // [x, x] (and zeros): Windsor mirrors every move, so every move has margin 0 and the tie
    // goes to the first heap, taking all of it. A shortcut, not an optimisation: the loop
    // below is linear in x, which is 2³² for the largest heaps.
    if heaps.iter().filter(|&&h| h > 0).count() <= 2 {
        return Ok(heaps.iter().position(|&h| h > 0).map(|i| (0, i, 0)));
    }
    let mut best: Option<(i64, usize, Candies)> = None;
    let mut next = heaps.to_vec();
    for i in 0..heaps.len() {
        // Taking more first, so ties go to the larger take (and lines stay short).
        for left in 0..heaps[i] {
            next[i] = left;
            let (w, _, _) = windsor_best(table, &next)?;
            let margin = i64::from(heaps[i] - left) - w;
            if best.is_none_or(|(b, _, _)| margin > b) {
                best = Some((margin, i, left));
            }
        }
        next[i] = heaps[i];
    }
    Ok(best)
}

/// The value of any position (P: Luca to move; N: Windsor to move) from stored P-values.
pub fn value_with<T: PValues + ?Sized>(table: &T, heaps: &[Candies]) -> Result<CandyValue> {
    let v = match role(heaps) {
        Role::Luca => table.p_value(heaps).ok_or_else(|| outside(heaps))?,
        Role::Windsor => -windsor_best(table, heaps)?.0,
    };
    Ok(CandyValue::from_v(v, total(heaps)))
}

/// An optimal line of play from any position, to the end of the game. Ties go to the first heap
/// in the order given and, within a heap, to taking more.
pub fn optimal_line<T: PValues + ?Sized>(table: &T, heaps: &[Candies]) -> Result<Vec<CandyPly>> {
    let mut g = heaps.to_vec();
    let mut line = Vec::new();
    loop {
        let (player, mv) = match role(&g) {
            Role::Luca => match luca_best(table, &g)? {
                Some((_, i, left)) => (Role::Luca, (i, left)),
                None => return Ok(line),
            },
            Role::Windsor => {
                let (_, i, left) = windsor_best(table, &g)?;
                (Role::Windsor, (i, left))
            }
        };
        let (i, left) = mv;
        let taken = g[i] - left;
        g[i] = left;
        line.push(CandyPly {
            player,
            heap: i,
            taken,
            after: g.clone(),
        });
    }
}

/// Which table serves a set of positions, known before anything is solved: what its memory and
/// time are estimated from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableShape {
    /// At most two nonzero heaps: nothing to solve ([x, x] has V = 0).
    Pairs,
    /// Sorted 3-heap P-positions with smallest heap ≤ `small` and middle heap ≤ `middle`.
    Three {
        /// The largest smallest heap.
        small: Candies,
        /// The largest middle heap.
        middle: Candies,
    },
    /// The dense box of heaps ≤ `bounds` (sorted decreasingly).
    Box(Vec<Candies>),
    /// Sorted 3-heap P-positions with every heap ≤ the bound.
    ThreeBox(Candies),
}

impl TableShape {
    /// The smallest shape that covers every position reachable from all of `positions` (any
    /// roles): the 3-heap table when all have at most three heaps, else the dense box of their
    /// componentwise maxima.
    pub fn covering(positions: &[Vec<Candies>]) -> Result<TableShape> {
        if positions.is_empty() {
            return Err(Error::invalid("no position given"));
        }
        let nonzero = |p: &Vec<Candies>| p.iter().filter(|&&h| h > 0).count();
        if positions.iter().all(|p| nonzero(p) <= 2) {
            return Ok(TableShape::Pairs);
        }
        if positions.iter().all(|p| nonzero(p) <= 3) {
            let (mut small, mut middle) = (0, 0);
            for p in positions {
                let mut h = sorted(p.clone());
                while h.len() < 3 {
                    h.insert(0, 0);
                }
                small = small.max(h[0]);
                middle = middle.max(h[1]);
            }
            return Ok(TableShape::Three { small, middle });
        }
        let k = positions.iter().map(Vec::len).max().expect("non-empty");
        let mut bounds = vec![0 as Candies; k];
        for p in positions {
            let mut h = p.clone();
            h.sort_unstable_by(|a, b| b.cmp(a));
            for (b, x) in bounds.iter_mut().zip(h) {
                *b = (*b).max(x);
            }
        }
        Ok(TableShape::Box(bounds))
    }

    /// Estimated bytes of the table.
    pub fn bytes(&self) -> u128 {
        match self {
            TableShape::Pairs => 0,
            TableShape::Three { small, middle } => ThreeHeapTable::bytes(*small, *middle),
            TableShape::Box(bounds) => CandyTable::bytes(bounds),
            TableShape::ThreeBox(max_heap) => ThreeHeapBox::bytes(*max_heap),
        }
    }

    /// Estimated elementary steps of solving it (moves examined, each with its replies).
    pub fn steps(&self) -> u128 {
        match self {
            TableShape::Pairs => 0,
            TableShape::Three { small, middle } => ThreeHeapTable::work(*small, *middle),
            TableShape::Box(bounds) => CandyTable::steps(bounds),
            TableShape::ThreeBox(max_heap) => ThreeHeapBox::steps(*max_heap),
        }
    }

    /// Solves the table, refusing at once when it would need more than `max_bytes`; `progress`
    /// learns the work ahead and how far it is.
    pub fn solve(
        &self,
        max_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<Box<dyn PValues + Send + Sync>> {
        Ok(match self {
            TableShape::Pairs => Box::new(Pairs),
            TableShape::Three { small, middle } => Box::new(ThreeHeapTable::solve_reporting(
                *small, *middle, max_bytes, progress,
            )?),
            TableShape::Box(bounds) => Box::new(SortedBox(CandyTable::solve_reporting(
                bounds, max_bytes, progress,
            )?)),
            TableShape::ThreeBox(max_heap) => Box::new(ThreeHeapBox::solve_reporting(
                *max_heap, max_bytes, progress,
            )?),
        })
    }
}

/// Positions of at most two heaps: the only P-positions are pairs [x, x], where Windsor mirrors
/// every move, so V = 0.
struct Pairs;

impl PValues for Pairs {
    fn p_value(&self, heaps: &[Candies]) -> Option<i64> {
        match sorted(heaps.to_vec())[..] {
            [] => Some(0),
            [a, b] if a == b => Some(0),
            _ => None,
        }
    }
}

/// A box table looked up with heaps sorted decreasingly (so one box serves many positions).
struct SortedBox(CandyTable);

impl PValues for SortedBox {
    fn p_value(&self, heaps: &[Candies]) -> Option<i64> {
        let mut h = heaps.to_vec();
        h.sort_unstable_by(|a, b| b.cmp(a));
        h.resize(self.0.bounds.len(), 0);
        if heaps.iter().filter(|&&x| x > 0).count() > self.0.bounds.len() {
            return None;
        }
        self.0.p_value(&h)
    }
}

/// V of every P-position in a box: heap i holds at most `bounds[i]` candies (order kept).
#[derive(Clone, Debug)]
pub struct CandyTable {
    bounds: Vec<Candies>,
    stride: Vec<usize>,
    v: Vec<i32>,
}

impl CandyTable {
    /// Points in the box of `bounds` (saturating).
    fn points(bounds: &[Candies]) -> u128 {
        bounds
            .iter()
            .fold(1u128, |acc, &b| acc.saturating_mul(u128::from(b) + 1))
    }

    /// Estimated bytes of the table of `bounds`: 4 per box point, and the bounds themselves.
    pub fn bytes(bounds: &[Candies]) -> u128 {
        Self::points(bounds)
            .saturating_mul(4)
            .saturating_add(8 * bounds.len() as u128)
    }

    /// Estimated steps: every box point is visited; a P-position (about one point in the
    /// largest heap + 1) tries each move (the sum of its heaps) with a reply per heap.
    pub fn steps(bounds: &[Candies]) -> u128 {
        let k = bounds.len() as u128;
        let largest = bounds
            .iter()
            .copied()
            .max()
            .map_or(1, |b| u128::from(b) + 1);
        let moves: u128 = bounds.iter().map(|&b| u128::from(b)).sum::<u128>() / 2;
        let points = Self::points(bounds);
        points.saturating_add((points / largest).saturating_mul(moves.saturating_mul(k)))
    }

    /// Solves every P-position in the box of `bounds`. Memory: 4 bytes per box point.
    pub fn solve(bounds: &[Candies], max_bytes: u64) -> Result<CandyTable> {
        Self::solve_reporting(bounds, max_bytes, &Silent)
    }

    /// [`solve`](Self::solve), reporting the box points done to `progress`.
    pub fn solve_reporting(
        bounds: &[Candies],
        max_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<CandyTable> {
        let needed = Self::bytes(bounds);
        let size = Self::points(bounds);
        if needed > u128::from(max_bytes) || size > u128::from(u32::MAX) {
            return Err(Error::TooLarge {
                what: format!("the table of all positions below {}", show_bounded(bounds)),
                needed_bytes: u64::try_from(needed).unwrap_or(u64::MAX),
                limit_bytes: max_bytes,
                suggestion: "use fewer or smaller heaps (3-heap positions use a much smaller table), or raise --memory-limit".to_string(),
            });
        }
        if total(bounds) > i32::MAX as u64 {
            return Err(Error::invalid(format!(
                "{} holds too many candies",
                show(bounds)
            )));
        }
        let k = bounds.len();
        let mut stride = vec![1usize; k];
        for i in (0..k.saturating_sub(1)).rev() {
            stride[i] = stride[i + 1] * (bounds[i + 1] as usize + 1);
        }
        let size = size as usize;
        progress.start(size as u64);
        let mut v = vec![0i32; size];
        let mut t = vec![0 as Candies; k];
        for idx in 0..size {
            if idx % PROGRESS_CHUNK == PROGRESS_CHUNK - 1 {
                progress.advance(PROGRESS_CHUNK as u64);
            }
            if idx > 0 {
                // Odometer: the last heap varies fastest.
                let mut j = k - 1;
                while t[j] == bounds[j] {
                    t[j] = 0;
                    j -= 1;
                }
                t[j] += 1;
            }
            if nim_sum(&t) != 0 {
                continue;
            }
            let mut best: Option<i64> = None;
            for i in 0..k {
                let h = t[i];
                for left in 0..h {
                    let s = left ^ h; // nim-sum after Luca's move
                    let child = idx - (h - left) as usize * stride[i];
                    let mut w: Option<i64> = None;
                    for (j, &hj) in t.iter().enumerate() {
                        let cj = if j == i { left } else { hj };
                        let target = cj ^ s;
                        if target < cj {
                            let grand = child - (cj - target) as usize * stride[j];
                            let margin = i64::from(cj - target) - i64::from(v[grand]);
                            w = Some(w.map_or(margin, |b| b.max(margin)));
                        }
                    }
                    let margin = i64::from(h - left) - w.expect("Bouton: a winning reply exists");
                    best = Some(best.map_or(margin, |b| b.max(margin)));
                }
            }
            v[idx] = best.unwrap_or(0) as i32;
        }
        Ok(CandyTable {
            bounds: bounds.to_vec(),
            stride,
            v,
        })
    }
}

impl PValues for CandyTable {
    fn p_value(&self, heaps: &[Candies]) -> Option<i64> {
        if heaps.len() != self.bounds.len() || heaps.iter().zip(&self.bounds).any(|(h, b)| h > b) {
            return None;
        }
        let idx: usize = heaps
            .iter()
            .zip(&self.stride)
            .map(|(&h, &s)| h as usize * s)
            .sum();
        Some(i64::from(self.v[idx]))
    }
}

/// V of every sorted 3-heap P-position (x, y, x ⊕ y), x ≤ y ≤ x ⊕ y, with x ≤ X and y ≤ Y
/// (two-heap P-positions (0, y, y) have V = 0: Windsor mirrors).
#[derive(Clone, Debug)]
pub struct ThreeHeapTable {
    max_small: Candies,
    max_middle: Candies,
    v: Vec<i32>,
}

impl ThreeHeapTable {
    /// The largest smallest heap solved.
    pub fn max_small(&self) -> Candies {
        self.max_small
    }

    /// The largest middle heap solved.
    pub fn max_middle(&self) -> Candies {
        self.max_middle
    }

    /// Whether every position with smallest heap ≤ `small` and middle heap ≤ `middle` (and
    /// everything reachable from it) is solved.
    pub fn covers(&self, small: Candies, middle: Candies) -> bool {
        small <= self.max_small && middle <= self.max_middle
    }

    /// Solves all sorted 3-heap P-positions with smallest heap ≤ `max_small` and middle heap ≤
    /// `max_middle`: every position reachable from them is among them.
    pub fn solve(
        max_small: Candies,
        max_middle: Candies,
        max_bytes: u64,
    ) -> Result<ThreeHeapTable> {
        Self::solve_reporting(max_small, max_middle, max_bytes, &Silent)
    }

    /// Bytes of the table: 4 per pair (x, y), and the block maxima of its rows (8 bytes per 16
    /// entries).
    pub fn bytes(max_small: Candies, max_middle: Candies) -> u128 {
        let rows = u128::from(max_small.min(max_middle)) + 1;
        let blocks = RowMaxima::blocks_per_row(max_middle, BLOCK_LEVEL) as u128;
        (u128::from(max_small) + 1) * (u128::from(max_middle) + 1) * 4 + rows * blocks * 8
    }

    /// The work of [`solve`](Self::solve) in the units its progress counts: x + 2^5 + 6B for
    /// every pair 1 ≤ x ≤ min(X, Y), x ≤ y ≤ Y (the blocks of the bits of x and of the bits
    /// below 5 read entry by entry, the others one block each, and six entries joining their
    /// blocks), with B = ⌈log₂(Y + 1)⌉. Exact, by Σ_x (Y − x + 1)(x + 2^5 + 6B).
    pub fn work(max_small: Candies, max_middle: Candies) -> u128 {
        let y = u128::from(max_middle);
        let m = u128::from(max_small.min(max_middle));
        let c = (1 << BLOCK_LEVEL) + 6 * u128::from(Candies::BITS - max_middle.leading_zeros());
        let s1 = m * (m + 1) / 2;
        let s2 = m * (m + 1) * (2 * m + 1) / 6;
        // Σ (Y + 1 − x)(x + c) = (Y + 1)(s1 + m·c) − s2 − c·s1, the positive parts first.
        (y + 1) * (s1 + m * c) - s2 - c * s1
    }

    /// [`solve`](Self::solve), reporting [`work`](Self::work) done to `progress`.
    pub fn solve_reporting(
        max_small: Candies,
        max_middle: Candies,
        max_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<ThreeHeapTable> {
        Self::solve_seeded(max_small, max_middle, max_bytes, None, progress)
    }

    /// [`solve_reporting`](Self::solve_reporting), copying the pairs that `seed` (a table
    /// solved before, of any bounds) covers instead of solving them again. A pair's V depends
    /// only on pairs with a smaller or equal smallest and middle heap (moves never raise the
    /// smallest or the middle heap of a sorted position), never on the table's bounds, so a
    /// copied pair is the one the solve would compute; the table is exactly as large as asked.
    pub fn solve_seeded(
        max_small: Candies,
        max_middle: Candies,
        max_bytes: u64,
        seed: Option<&ThreeHeapTable>,
        progress: &dyn Progress,
    ) -> Result<ThreeHeapTable> {
        let needed = Self::bytes(max_small, max_middle);
        if needed > u128::from(max_bytes) || max_middle >= 1 << 30 {
            // The largest middle heap that fits next to this smallest heap, by formula.
            let fits = (u128::from(max_bytes) / 4 / (u128::from(max_small) + 1))
                .saturating_sub(1)
                .min((1 << 30) - 1);
            return Err(Error::TooLarge {
                what: format!(
                    "the table of 3-heap P-positions with heaps up to ({max_small}, {max_middle}, …)"
                ),
                needed_bytes: u64::try_from(needed).unwrap_or(u64::MAX),
                limit_bytes: max_bytes,
                suggestion: format!(
                    "keep the middle heap at most {fits} with this smallest heap, use smaller heaps, or raise --memory-limit"
                ),
            });
        }
        let (xs, ys) = (max_small as usize + 1, max_middle as usize + 1);
        progress.start(u64::try_from(Self::work(max_small, max_middle)).unwrap_or(u64::MAX));
        let mut done = 0u64;
        let mut v = vec![0i32; xs * ys];
        // Rows up to X over indices up to Y: only row x's blocks of the bits x lacks are read,
        // all below y. Every position {x, a, a ⊕ x} they hold is one the table solves (its
        // sorted smallest and middle heaps are at most x and max(x, a)), so it has joined row
        // x's blocks by then, whichever row of the table it was solved in.
        let mut maxima = RowMaxima::new(max_small.min(max_middle), max_middle, BLOCK_LEVEL);
        let levels = u64::from(Candies::BITS - max_middle.leading_zeros());
        for x in 1..=max_small.min(max_middle) {
            for y in x..=max_middle {
                done += u64::from(x) + (1 << BLOCK_LEVEL) + 6 * levels;
                if done >= PROGRESS_CHUNK as u64 {
                    progress.advance(done);
                    done = 0;
                }
                let z = x ^ y;
                if z < y {
                    continue;
                }
                let value = match seed.filter(|s| s.covers(x, y)) {
                    Some(s) => s.v[x as usize * (s.max_middle as usize + 1) + y as usize],
                    // Only row x's blocks are kept: those of the bits x lacks (k = 0), all
                    // below y; the others are read entry by entry from the sorted children.
                    None => best_move_value(
                        &[x, y, z],
                        &maxima,
                        |k| k == 0,
                        |p, a| stored(&v, ys, [p, a, a ^ p]),
                    ),
                };
                v[x as usize * ys + y as usize] = value;
                for (p, q) in [(x, y), (y, x), (x, z), (z, x), (y, z), (z, y)] {
                    maxima.insert(p, q, value);
                }
            }
        }
        progress.advance(done);
        Ok(ThreeHeapTable {
            max_small,
            max_middle,
            v,
        })
    }

    /// Every stored P-position (x, y, z) with z ≤ `max_large`, in increasing (x, y).
    pub fn positions(&self, max_large: Candies) -> impl Iterator<Item = [Candies; 3]> + '_ {
        (1..=self.max_small).flat_map(move |x| {
            (x..=self.max_middle).filter_map(move |y| {
                let z = x ^ y;
                (z >= y && z <= max_large).then_some([x, y, z])
            })
        })
    }
}

/// V of the stored P-position {g₀, g₁, g₂} (any order); a zero heap leaves a mirrored pair,
/// V = 0.
fn stored(v: &[i32], ys: usize, g: [Candies; 3]) -> i32 {
    let [mut p, mut q, mut r] = g;
    if p > q {
        std::mem::swap(&mut p, &mut q);
    }
    if q > r {
        std::mem::swap(&mut q, &mut r);
    }
    if p > q {
        std::mem::swap(&mut p, &mut q);
    }
    if p == 0 {
        0
    } else {
        v[p as usize * ys + q as usize]
    }
}

impl PValues for ThreeHeapTable {
    fn p_value(&self, heaps: &[Candies]) -> Option<i64> {
        // Asked for every reply of every move: the non-empty heaps are sorted in an array, with
        // no allocation; a position of more than three is not in the table.
        let mut buf = [0; 3];
        let mut len = 0;
        for &x in heaps.iter().filter(|&&x| x > 0) {
            *buf.get_mut(len)? = x;
            len += 1;
        }
        let h = &mut buf[..len];
        h.sort_unstable();
        match *h {
            [] => Some(0),
            [a, b] if a == b => Some(0),
            [x, y, z] if x ^ y == z && x <= self.max_small && y <= self.max_middle => Some(
                i64::from(self.v[x as usize * (self.max_middle as usize + 1) + y as usize]),
            ),
            _ => None,
        }
    }
}

/// V of P-positions of any shape, memoized (for allocation surveys and claims, where the
/// positions share most of their sub-positions): positions that pack (all of up to
/// [`PACKED_TOTAL`] candies, and many larger) keyed by their packed code and solved by editing
/// it (see `packed` and [`allocations`]), the others by their sorted heaps.
#[derive(Debug, Default)]
pub struct MemoValues {
    packed: packed::PackedValues,
    wide: HashMap<Vec<Candies>, i64, FixedState>,
}

impl MemoValues {
    /// An empty memo.
    pub fn new() -> MemoValues {
        MemoValues::default()
    }

    /// Number of P-positions solved so far.
    pub fn len(&self) -> usize {
        self.packed.len() + self.wide.len()
    }

    /// Whether nothing was solved yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// V of a P-position (heaps in any order). Recursion depth is one frame per turn.
    pub fn p_value(&mut self, heaps: &[Candies]) -> i64 {
        debug_assert_eq!(nim_sum(heaps), 0);
        // Most calls find their position in the memo: the heaps are sorted on the stack and
        // looked up with no allocation, by packed code or (a wide position) as a slice.
        let mut buf = [0; SORTED_ON_STACK];
        let owned;
        let g: &[Candies] = if heaps.len() <= SORTED_ON_STACK {
            let h = &mut buf[..heaps.len()];
            h.copy_from_slice(heaps);
            h.sort_unstable();
            let zeros = h.iter().take_while(|&&x| x == 0).count();
            &h[zeros..]
        } else {
            owned = sorted(heaps.to_vec());
            &owned
        };
        // A packed position has |V| ≤ N ≤ 3136 (see `packed`): its value fits the memo's i16.
        if let Some(code) = packed::pack_sorted(g) {
            return i64::from(self.packed_value(code));
        }
        if let Some(&v) = self.wide.get(g) {
            return v;
        }
        let g = g.to_vec();
        let v = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.solve_p(&g));
        self.wide.insert(g, v);
        v
    }

    /// V of the P-position with this code (every sub-position packs too: a move lowers the
    /// top bit or keeps it): from the memo, or solved as the layers of [`allocations`] solve it,
    /// each move and reply an edit of the code and each pair of heaps looked up once per
    /// nim-sum, after the children not met before are solved the same way. Recursion depth is
    /// one frame per turn.
    fn packed_value(&mut self, code: u128) -> i16 {
        if let Some(v) = self.packed.get(code) {
            return v;
        }
        let moves = allocation::PackedMoves::<{ allocation::PACKED_KINDS }>::new(code);
        let mut children = Vec::new();
        moves.children(&mut children);
        let values: Vec<i16> = children
            .iter()
            .map(|&child| {
                stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.packed_value(child))
            })
            .collect();
        let v = moves.value(&values);
        self.packed.insert(code, v);
        v
    }

    /// V of a sorted P-position not yet in the memo.
    fn solve_p(&mut self, g: &[Candies]) -> i64 {
        let mut best: Option<i64> = None;
        let mut next = g.to_vec();
        for i in 0..g.len() {
            if i > 0 && g[i - 1] == g[i] {
                continue;
            }
            for left in 0..g[i] {
                next[i] = left;
                let mut w: Option<i64> = None;
                // Windsor's winning replies, as `winning_moves` lists them, without a vector
                // for each of Luca's moves.
                let s = nim_sum(&next);
                for j in 0..next.len() {
                    let before = next[j];
                    let target = before ^ s;
                    if target >= before {
                        continue;
                    }
                    next[j] = target;
                    let m = i64::from(before - target) - self.p_value(&next);
                    next[j] = before;
                    w = Some(w.map_or(m, |b| b.max(m)));
                }
                let m = i64::from(g[i] - left) - w.expect("Bouton: a winning reply exists");
                best = Some(best.map_or(m, |b| b.max(m)));
            }
            next[i] = g[i];
        }
        best.unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// A table grown from a seed of any bounds (smaller, larger or crossing) is the table
        /// solved from nothing.
        #[test]
        fn a_seeded_table_is_the_table_solved_afresh(
            seed in (0u32..20, 0u32..70),
            want in (0u32..20, 0u32..70),
        ) {
            let fresh = ThreeHeapTable::solve(want.0, want.1, 1 << 30).unwrap();
            let s = ThreeHeapTable::solve(seed.0, seed.1, 1 << 30).unwrap();
            let seeded =
                ThreeHeapTable::solve_seeded(want.0, want.1, 1 << 30, Some(&s), &Silent).unwrap();
            proptest::prop_assert_eq!(&seeded.v, &fresh.v);
            proptest::prop_assert_eq!(
                (seeded.max_small, seeded.max_middle),
                (fresh.max_small, fresh.max_middle)
            );
        }
    }

    #[test]
    fn frak_ranges_count_and_bound_the_games_they_hold() {
        for (a, m, x) in [
            ((1, 9), 3, (0, 5)),
            ((4, 7), 2, (0, 3)),
            ((5, 40), 5, (2, 9)),
            ((3, 3), 1, (2, 9)),
        ] {
            let r = frak_ranges(a, m, x);
            // Plainly: every game with the largest m, built by the definition.
            let games: Vec<[Candies; 3]> = (a.0..=a.1)
                .flat_map(|av| (x.0..=x.1).filter_map(move |xv| frak(av, m, xv).ok()))
                .collect();
            assert_eq!(r.pairs, games.len() as u128, "{a:?}, {x:?}");
            let max = |i: usize| games.iter().map(|g| u64::from(g[i])).max().unwrap_or(0);
            assert_eq!((r.small, r.middle), (max(0), max(1)), "{a:?}, {x:?}");
            assert!(r.largest >= max(2), "{a:?}, {x:?}");
            // x runs exactly below the limit.
            for av in a.0..=a.1 {
                let limit = frak_x_limit(av) as Candies;
                assert!(frak(av, m, limit - 1).is_ok() && frak(av, m, limit).is_err());
            }
        }
    }

    #[test]
    fn frak_follows_definition_2_8() {
        assert_eq!(frak(31, 1, 0).unwrap(), [31, 32, 63]);
        assert_eq!(frak(5, 2, 3).unwrap(), [5, 19, 22]);
        assert_eq!(frak(1, 3, 0).unwrap(), [1, 6, 7]);
        assert!(frak(5, 1, 4).is_err() && frak(0, 1, 0).is_err() && frak(3, 0, 0).is_err());
        for (a, m, x) in [(5, 2, 3), (12, 7, 5), (1, 9, 0)] {
            assert_eq!(nim_sum(&frak(a, m, x).unwrap()), 0, "𝔊 is a P-position");
        }
        // §4's standard form with k equals §5's with k − 1.
        assert_eq!(standard_form_game(3, 2).unwrap(), [7, 16, 23]);
    }
}
