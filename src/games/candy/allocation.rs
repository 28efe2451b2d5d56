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
            rec(rest - part, part, xor ^ part, buf, out);
            buf.pop();
        }
    }
    let mut out = Vec::new();
    rec(n, n, 0, &mut Vec::new(), &mut out);
    out
}

/// The allocation problem for one even N, sharing `memo` across calls.
pub fn allocation(candies: Candies, memo: &mut MemoValues) -> Result<Allocation> {
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
