//! The allocation problem (§6): Luca arranges N candies into any P-position; how few or how many
//! candies can Windsor be held to? Every partition of N with nim-sum 0 is solved, sharing one
//! memo of sub-positions across all N.

use serde::Serialize;

use super::{Candies, CandyValue, MemoValues};
use crate::error::{Error, Result};

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
    /// P-positions (nim-sum 0 partitions) with exactly N candies: the progress units.
    pub positions: u128,
    /// Bytes of the memo of every P-position with at most N candies, and of N's own list.
    pub bytes: u128,
}

/// Bytes one memo entry holds: the sorted heaps (a vector and its block), the value, and the
/// hash table's slack.
const MEMO_ENTRY_BYTES: u128 = 96;

/// Counts, by dynamic programming over (total, nim-sum) — O(N²·2^⌈log₂ N⌉) steps, instant for
/// the N the allocation can reach — the partitions and P-positions the allocation of
/// `candies` meets, and the memory its memo needs (every P-position with at most N candies).
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
    let memo: u128 = (2..=n)
        .step_by(2)
        .fold(0u128, |a, s| a.saturating_add(count[s][0]));
    AllocationCost {
        partitions: parts_of(n),
        positions: count[n][0],
        bytes: memo.saturating_mul(MEMO_ENTRY_BYTES + 2 * n as u128),
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
