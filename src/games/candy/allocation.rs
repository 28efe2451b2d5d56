//! The allocation problem (§6): Luca arranges N candies into any P-position; how few or how many
//! candies can Windsor be held to? Every partition of N with nim-sum 0 is solved.
//!
//! [`allocation`] solves one N on a shared [`MemoValues`], recursively. [`allocations`] solves
//! every P-position with at most N candies bottom-up, by total: a move and its reply take
//! candies, so the positions of one total depend only on smaller totals, and each total is a
//! layer solved in parallel from a memo of the smaller ones, frozen meanwhile. Every P-position
//! Q of fewer than N candies is a sub-position of one of N (Q with two more heaps of (N − N(Q))/2:
//! Luca empties one, and emptying the other is among Windsor's replies), so the layers hold no
//! more than the recursion would visit. Positions are packed codes (see `packed`), and a move
//! and its reply edit the code in place: no position is built, sorted or allocated.
//!
//! Luca's moves are grouped by s, the nim-sum they leave: moving a heap a to a ⊕ s < a needs the
//! top bit t of s in a, and Windsor's winning replies are then the other heaps b with bit t, to
//! b ⊕ s (Bouton; the moved heap lost bit t). The position after Luca's move on a and the reply
//! on b is the one after Luca's move on b and the reply on a, so each unordered pair {a, b} of
//! heaps with bit t is looked up once per s and serves both moves: half the look-ups of
//! trying each move with each reply.
//!
//! The enumeration of a layer skips a branch whose heaps still to come cannot cancel the nim-sum
//! so far: heaps summing to r have a nim-sum of at most r (a ⊕ b ≤ a + b).

use rayon::prelude::*;
use serde::Serialize;

use super::packed::{PackedValues, delete_bit, insert_bit, unpack};
use super::{Candies, CandyValue, MemoValues, PACKED_TOTAL};
use crate::error::{Error, Result};
use crate::progress::Progress;

/// The least and greatest N_W over all P-positions with `candies` candies (any number of
/// heaps), with every arrangement (heaps in decreasing order) that attains them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Allocation {
    /// N, the number of candies (even: a P-position's total is even).
    pub candies: u32,
    /// P-positions with N candies.
    pub positions: usize,
    /// min N_W.
    pub min_nw: u64,
    /// Arrangements with N_W = min.
    pub argmin: Vec<Vec<Candies>>,
    /// max N_W.
    pub max_nw: u64,
    /// Arrangements with N_W = max.
    pub argmax: Vec<Vec<Candies>>,
}

/// Every partition of n (parts in decreasing order) with nim-sum 0.
pub fn p_partitions(n: Candies) -> Vec<Vec<Candies>> {
    fn rec(
        rest: Candies,
        max: Candies,
        xor: Candies,
        buf: &mut Vec<Candies>,
        out: &mut Vec<Vec<Candies>>,
    ) {
        if rest == 0 {
            if xor == 0 {
                out.push(buf.clone());
            }
            return;
        }
        for part in (1..=max.min(rest)).rev() {
            buf.push(part);
            // One frame per part: N frames for N ones.
            stacker::maybe_grow(super::STACK_RED_ZONE, super::STACK_SEGMENT, || {
                rec(rest - part, part, xor ^ part, buf, out)
            });
            buf.pop();
        }
    }
    let mut out = Vec::new();
    rec(n, n, 0, &mut Vec::new(), &mut out);
    out
}

/// What solving the allocation problem up to N costs, counted before any work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocationCost {
    /// Partitions of N enumerated (all of them, to find those with nim-sum 0).
    pub partitions: u128,
    /// P-positions (nim-sum 0 partitions) with exactly N candies.
    pub positions: u128,
    /// P-positions with at most N candies: what [`allocations`] solves, its progress units.
    pub solved: u128,
    /// Bytes of [`allocations`] up to N: the memo of every P-position with fewer than N
    /// candies, and the layer of N with its values.
    pub bytes: u128,
}

/// Bytes a position of the layer being solved holds: its code and its value.
const LAYER_ENTRY_BYTES: u128 = 16 + 2;

/// Counts, by dynamic programming over (total, nim-sum) — O(N²·2^⌈log₂ N⌉) steps, instant for
/// the N the allocation can reach — the partitions and P-positions the allocation of
/// `candies` meets, and the memory [`allocations`] needs for it.
pub fn allocation_cost(candies: Candies) -> AllocationCost {
    let n = candies as usize;
    let xors = (n + 1).next_power_of_two();
    // zero[s][x]: partitions of s with nim-sum x; parts are added one size at a time.
    let mut count = vec![vec![0u128; xors]; n + 1];
    count[0][0] = 1;
    for part in 1..=n {
        for s in part..=n {
            for x in 0..xors {
                let from = count[s - part][x ^ part];
                count[s][x] = count[s][x].saturating_add(from);
            }
        }
    }
    let parts_of = |s: usize| count[s].iter().fold(0u128, |a, &c| a.saturating_add(c));
    let below: u128 = (2..n)
        .step_by(2)
        .fold(0u128, |a, s| a.saturating_add(count[s][0]));
    AllocationCost {
        partitions: parts_of(n),
        positions: count[n][0],
        solved: below.saturating_add(count[n][0]),
        bytes: PackedValues::bytes(below)
            .saturating_add(count[n][0].saturating_mul(LAYER_ENTRY_BYTES)),
    }
}

/// The allocation problem for one even N, sharing `memo` across calls.
pub fn allocation(candies: Candies, memo: &mut MemoValues) -> Result<Allocation> {
    allocation_reporting(candies, memo, &crate::progress::Silent)
}

/// [`allocation`], advancing `progress` by one per P-position solved (N's P-positions number
/// [`AllocationCost::positions`]).
pub fn allocation_reporting(
    candies: Candies,
    memo: &mut MemoValues,
    progress: &dyn crate::progress::Progress,
) -> Result<Allocation> {
    if candies == 0 || candies % 2 == 1 {
        return Err(Error::invalid(format!(
            "{candies} candies: a P-position holds an even, positive number of candies"
        )));
    }
    let mut min: Option<(u64, Vec<Vec<Candies>>)> = None;
    let mut max: Option<(u64, Vec<Vec<Candies>>)> = None;
    let positions = p_partitions(candies);
    for p in &positions {
        let nw = CandyValue::from_v(memo.p_value(p), u64::from(candies)).n_w;
        progress.advance(1);
        for (slot, better) in [(&mut min, true), (&mut max, false)] {
            match slot {
                Some((b, arr)) if *b == nw => arr.push(p.clone()),
                Some((b, _)) if (nw < *b) != better => {}
                _ => *slot = Some((nw, vec![p.clone()])),
            }
        }
    }
    let (min_nw, argmin) = min.expect("N ≥ 2 has the P-position (N/2, N/2)");
    let (max_nw, argmax) = max.expect("N ≥ 2 has the P-position (N/2, N/2)");
    Ok(Allocation {
        candies,
        positions: positions.len(),
        min_nw,
        argmin,
        max_nw,
        argmax,
    })
}

/// The allocation problem for every N of `evens` (even, 2 ≤ N ≤ [`PACKED_TOTAL`]), solving
/// every P-position with at most max(`evens`) candies bottom-up in parallel layers (see the
/// module doc); `progress` advances by one per P-position solved
/// ([`AllocationCost::solved`] in all). Equal to [`allocation`] for each N.
pub fn allocations(evens: &[Candies], progress: &dyn Progress) -> Result<Vec<Allocation>> {
    if let Some(&bad) = evens
        .iter()
        .find(|&&n| n == 0 || n % 2 == 1 || u64::from(n) > PACKED_TOTAL)
    {
        return Err(Error::invalid(format!(
            "{bad} candies: the allocation is solved for even N from 2 to {PACKED_TOTAL}"
        )));
    }
    let Some(&top) = evens.iter().max() else {
        return Ok(Vec::new());
    };
    let cost = allocation_cost(top);
    let below = usize::try_from(cost.solved - cost.positions).expect("N ≤ 112 has few");
    progress.start(u64::try_from(cost.solved).unwrap_or(u64::MAX));
    let mut memo = PackedValues::with_capacity(below);
    let mut out = Vec::new();
    let (mut codes, mut values) = (Vec::new(), Vec::new());
    for n in (2..=top).step_by(2) {
        codes.clear();
        p_codes(n, &mut codes);
        codes
            .par_iter()
            .map_init(Scratch::default, |scratch, &code| {
                layer_value(code, &memo, scratch)
            })
            .collect_into_vec(&mut values);
        if evens.contains(&n) {
            out.push(summarize(n, &codes, &values));
        }
        if n < top {
            for (&code, &v) in codes.iter().zip(&values) {
                memo.insert(code, v);
            }
        }
        progress.advance(codes.len() as u64);
    }
    Ok(out)
}

/// The least and greatest N_W of the layer of N, in the order of [`p_partitions`].
fn summarize(candies: Candies, codes: &[u128], values: &[i16]) -> Allocation {
    let mut min: Option<(u64, Vec<u128>)> = None;
    let mut max: Option<(u64, Vec<u128>)> = None;
    for (&code, &v) in codes.iter().zip(values) {
        let nw = CandyValue::from_v(i64::from(v), u64::from(candies)).n_w;
        for (slot, better) in [(&mut min, true), (&mut max, false)] {
            match slot {
                Some((b, arr)) if *b == nw => arr.push(code),
                Some((b, _)) if (nw < *b) != better => {}
                _ => *slot = Some((nw, vec![code])),
            }
        }
    }
    let decreasing = |code: &u128| {
        let mut heaps = [0; PACKED_TOTAL as usize];
        let k = unpack(*code, &mut heaps);
        heaps[..k].iter().rev().copied().collect()
    };
    let (min_nw, argmin) = min.expect("N ≥ 2 has the P-position (N/2, N/2)");
    let (max_nw, argmax) = max.expect("N ≥ 2 has the P-position (N/2, N/2)");
    Allocation {
        candies,
        positions: codes.len(),
        min_nw,
        argmin: argmin.iter().map(decreasing).collect(),
        max_nw,
        argmax: argmax.iter().map(decreasing).collect(),
    }
}

/// The codes of the P-positions of n ≤ [`PACKED_TOTAL`] candies, appended in the order of
/// [`p_partitions`].
fn p_codes(n: Candies, out: &mut Vec<u128>) {
    /// `parts` holds the heaps so far, decreasingly.
    fn rec(
        rest: Candies,
        max: Candies,
        xor: Candies,
        parts: &mut Vec<Candies>,
        out: &mut Vec<u128>,
    ) {
        if xor > rest {
            return;
        }
        if rest == 0 {
            // The heap at `i` is the (k − 1 − i)-th from the bottom; n ≤ 112 fits (see `packed`).
            let k = parts.len();
            let code = (parts.iter().enumerate())
                .fold(0u128, |code, (i, &a)| code | 1 << (a as usize + k - 1 - i));
            out.push(code);
            return;
        }
        for part in (1..=max.min(rest)).rev() {
            parts.push(part);
            rec(rest - part, part, xor ^ part, parts, out);
            parts.pop();
        }
    }
    rec(n, n, 0, &mut Vec::with_capacity(n as usize), out);
}

/// Room for the look-ups of one position, reused from position to position.
#[derive(Default)]
struct Scratch {
    children: Vec<u128>,
    homes: Vec<(usize, u128)>,
    values: Vec<i16>,
}

/// V of the P-position with this code, from the memo of every P-position with fewer candies:
/// [`MemoValues`]'s recursion, each move and reply an edit of the code (see `packed`), the moves
/// grouped by s as the module doc says. The positions after each move and reply are listed
/// first and looked up in one batch, then the same loops read their values in the same order.
fn layer_value(code: u128, memo: &PackedValues, scratch: &mut Scratch) -> i16 {
    let moves = PackedMoves::<LAYER_KINDS>::new(code);
    moves.children(&mut scratch.children);
    let n = scratch.children.len();
    scratch.homes.resize(n, (0, 0));
    scratch.values.resize(n, 0);
    memo.get_many(&scratch.children, &mut scratch.homes, &mut scratch.values);
    moves.value(&scratch.values)
}

/// Most distinct heap sizes a packed position has: distinct sizes d₁ < … < d_m take bits of
/// at least d_m + m − 1 ≥ 2m − 1, below bit 112, so m ≤ 56.
pub(super) const PACKED_KINDS: usize = 56;

/// Most distinct heap sizes a position of at most 112 candies has: 1 + 2 + … + 15 > 112, so
/// at most 14. The layers' positions are such, and their arrays this small (a third faster
/// than sized for any packed position).
const LAYER_KINDS: usize = 16;

/// The moves of a packed P-position (Luca's, each with Windsor's winning replies), grouped by
/// the nim-sum s they leave as the module doc says: [`children`](Self::children) lists the
/// positions after a move and a reply, and [`value`](Self::value) reads V off their values
/// given in that order. Shared by the layers of [`allocations`] and the recursion of
/// [`MemoValues`], which fills in the children it has not met before asking for the value;
/// `KINDS` bounds the distinct heap sizes of the position.
pub(super) struct PackedMoves<const KINDS: usize> {
    code: u128,
    /// at_most[b]: heaps ≤ b, for b up to the largest heap.
    at_most: [Candies; PACKED_TOTAL as usize + 1],
    /// The distinct heaps with their copies, increasingly.
    distinct: [(Candies, Candies); KINDS],
    kinds: usize,
    largest: Candies,
}

impl<const KINDS: usize> PackedMoves<KINDS> {
    /// The moves of the non-empty P-position with this code.
    pub(super) fn new(code: u128) -> Self {
        let mut heaps = [0 as Candies; PACKED_TOTAL as usize];
        let k = unpack(code, &mut heaps);
        let heaps = &heaps[..k];
        let largest = heaps[k - 1];
        let mut at_most = [0 as Candies; PACKED_TOTAL as usize + 1];
        let mut below = 0;
        for (b, count) in at_most.iter_mut().enumerate().take(largest as usize + 1) {
            while below < k && heaps[below] as usize <= b {
                below += 1;
            }
            *count = below as Candies;
        }
        let mut distinct = [(0 as Candies, 0 as Candies); KINDS];
        let mut kinds = 0;
        for &h in heaps {
            if kinds > 0 && distinct[kinds - 1].0 == h {
                distinct[kinds - 1].1 += 1;
            } else {
                distinct[kinds] = (h, 1);
                kinds += 1;
            }
        }
        PackedMoves {
            code,
            at_most,
            distinct,
            kinds,
            largest,
        }
    }

    /// The code after heaps a and b (a copy each, or two copies of a = b) become a ⊕ s, b ⊕ s.
    fn child(&self, a: Candies, b: Candies, s: Candies) -> u128 {
        let ones = |yes: bool| Candies::from(yes);
        let at_most = &self.at_most;
        let (left_a, left_b) = (a ^ s, b ^ s);
        let rank = |x: Candies| at_most[x as usize] - ones(a <= x) - ones(b <= x);
        let without_a = delete_bit(self.code, a + at_most[a as usize] - 1);
        let mut child = delete_bit(without_a, b + at_most[b as usize] - ones(a <= b) - 1);
        if left_a > 0 {
            child = insert_bit(child, left_a + rank(left_a));
        }
        if left_b > 0 {
            child = insert_bit(
                child,
                left_b + rank(left_b) + ones(0 < left_a && left_a <= left_b),
            );
        }
        child
    }

    /// The kinds with bit t (Luca's moves with top bit t of s, and Windsor's replies), into
    /// the front of `out`; their number is returned.
    fn with_bit(&self, t: u32, out: &mut [(Candies, Candies); KINDS]) -> usize {
        let mut m = 0;
        for &(h, copies) in &self.distinct[..self.kinds] {
            if h >> t & 1 == 1 {
                out[m] = (h, copies);
                m += 1;
            }
        }
        m
    }

    /// The positions after each move and reply, into `out` (cleared first), in the order
    /// [`value`](Self::value) reads their values.
    pub(super) fn children(&self, out: &mut Vec<u128>) {
        out.clear();
        let mut kinds = [(0, 0); KINDS];
        for t in 0..=self.largest.ilog2() {
            let m = self.with_bit(t, &mut kinds);
            let with_t = &kinds[..m];
            for s in 1 << t..2 << t {
                for (i, &(a, copies)) in with_t.iter().enumerate() {
                    if copies >= 2 {
                        out.push(self.child(a, a, s));
                    }
                    for &(b, _) in &with_t[i + 1..] {
                        out.push(self.child(a, b, s));
                    }
                }
            }
        }
    }

    /// V of the position, from the values of its [`children`](Self::children) in their order.
    pub(super) fn value(&self, values: &[i16]) -> i16 {
        let mut stored = values.iter().map(|&v| i32::from(v));
        let mut best = i32::MIN;
        let mut kinds = [(0, 0); KINDS];
        let mut windsor = [i32::MIN; KINDS];
        for t in 0..=self.largest.ilog2() {
            let m = self.with_bit(t, &mut kinds);
            let with_t = &kinds[..m];
            for s in 1 << t..2 << t {
                // windsor[i]: his best margin after Luca's move on with_t[i].
                let windsor = &mut windsor[..m];
                windsor.fill(i32::MIN);
                for (i, &(a, copies)) in with_t.iter().enumerate() {
                    let taken_a = (a - (a ^ s)) as i32;
                    if copies >= 2 {
                        let after = stored.next().expect("listed by `children`");
                        windsor[i] = windsor[i].max(taken_a - after);
                    }
                    for (j, &(b, _)) in with_t.iter().enumerate().skip(i + 1) {
                        let after = stored.next().expect("listed by `children`");
                        let taken_b = (b - (b ^ s)) as i32;
                        windsor[i] = windsor[i].max(taken_b - after);
                        windsor[j] = windsor[j].max(taken_a - after);
                    }
                }
                for (&(a, _), &w) in with_t.iter().zip(windsor.iter()) {
                    debug_assert!(w > i32::MIN, "Bouton: a winning reply exists");
                    best = best.max((a - (a ^ s)) as i32 - w);
                }
            }
        }
        // |V| ≤ N ≤ 3136 for a packed position (see `packed`).
        best as i16
    }
}
