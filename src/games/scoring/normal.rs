//! The normal-play shadow of a scoring ruleset, and when it decides the scoring game.
//!
//! If every move of every heap in play scores the same c, the final score difference is c·(moves
//! by the first player − moves by the second) plus N for the last mover, so it only depends on
//! the parity of the number of moves M: the first player gets c + N when M is odd and −N when M
//! is even (M = 0 included). When c + 2N > 0 the first player wants to move last — normal play —
//! so f_N = c + N exactly when the Sprague–Grundy value g(p) = ⊕ g(heap) is non-zero, else −N.
//! Stewart's (3333, 2222) is this case: G_s(n) = 2·[n mod 5 ≠ 0].

use super::octal::OctalRules;
use super::position::{Heap, ScoringGame};
use super::ruleset::{HeapSize, Ruleset};
use crate::error::{Error, Result};
use crate::num::Q;
use crate::progress::{Progress, Silent};

/// Sprague–Grundy values g(0..=max_n) of single heaps under ruleset `rules` (normal play).
pub fn grundy_values(game: &ScoringGame, rules: u16, max_n: HeapSize) -> Result<Vec<u32>> {
    grundy_values_reporting(game, rules, max_n, &Silent)
}

/// [`grundy_values`], reporting the moves examined to `progress` (the work of heap n grows
/// with n when the ruleset breaks heaps, so moves, not heaps, give an honest ETA).
pub fn grundy_values_reporting(
    game: &ScoringGame,
    rules: u16,
    max_n: HeapSize,
    progress: &dyn Progress,
) -> Result<Vec<u32>> {
    let ruleset = game
        .rulesets()
        .get(usize::from(rules))
        .ok_or_else(|| Error::invalid(format!("ruleset {} does not exist", rules + 1)))?;
    if let Some(octal) = ruleset.as_octal() {
        return Ok(octal_grundy_values(octal, max_n, progress));
    }
    progress.start((0..=max_n).map(|n| ruleset.move_count(n)).sum());
    let mut g: Vec<u32> = Vec::with_capacity(max_n as usize + 1);
    let mut seen: Vec<bool> = Vec::new();
    for n in 0..=max_n {
        seen.clear();
        // Moves are read from the ruleset directly: caching every large heap's moves would cost
        // more memory than the values.
        let moves = ruleset.heap_moves(n);
        for m in &moves {
            if m.leaves.iter().map(|&l| u64::from(l)).sum::<u64>() >= u64::from(n) {
                return Err(Error::invalid(format!(
                    "ruleset {}: a move on heap {n} does not remove a bean",
                    ruleset.name()
                )));
            }
            let v = m.leaves.iter().fold(0u32, |acc, &l| acc ^ g[l as usize]) as usize;
            if v >= seen.len() {
                seen.resize(v + 1, false);
            }
            seen[v] = true;
        }
        progress.advance(moves.len() as u64);
        g.push(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32);
    }
    Ok(g)
}

/// How many heap pairs a breaking move marks between two checks that every value is an option.
const BLOCK: usize = 256;

/// The most Grundy values [`octal_grundy_values`] keeps (64 MiB).
const MEMO_VALUES: usize = 16 << 20;

/// Grundy values of an octal code, memoised per code for the life of the process.
///
/// The values depend on the digits alone, not on the points, and a long sequence of a breaking
/// code costs seconds (heap n has about n/2 moves): a period search computes doubling prefixes of
/// one sequence, the values are asked for again after it, and the claims of a family meet the
/// same codes under many point assignments. A request extends the memoised prefix (the values of
/// a prefix never change) instead of starting again. Each code has a lock of its own, so two
/// codes are computed side by side while a second request for one code waits for the first.
///
/// Only breaking codes are kept (the others cost O(n) per heap count and are computed afresh),
/// and at most [`MEMO_VALUES`] values in all: past that a request starts from the memoised prefix
/// and keeps what it adds to itself.
pub fn octal_grundy_values(
    rules: &OctalRules,
    max_n: HeapSize,
    progress: &dyn Progress,
) -> Vec<u32> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    type Slot = std::sync::Arc<std::sync::Mutex<Vec<u32>>>;
    static MEMO: std::sync::LazyLock<std::sync::Mutex<std::collections::BTreeMap<Vec<u8>, Slot>>> =
        std::sync::LazyLock::new(Default::default);
    static KEPT: AtomicUsize = AtomicUsize::new(0);
    let wanted = max_n as usize + 1;
    if !rules.digits().iter().any(|&t| t & 4 != 0) {
        let mut g = Vec::new();
        extend_octal_grundy_values(rules, &mut g, max_n, progress);
        return g;
    }
    let slot = {
        let mut memo = MEMO.lock().unwrap_or_else(|e| e.into_inner());
        memo.entry(rules.digits().to_vec()).or_default().clone()
    };
    let mut known = slot.lock().unwrap_or_else(|e| e.into_inner());
    if known.len() < wanted {
        let growth = wanted - known.len();
        if KEPT.load(Ordering::Relaxed) + growth > MEMO_VALUES {
            // Over the budget the memoised prefix is still the start, but the rest is not kept.
            let mut g = known.clone();
            extend_octal_grundy_values(rules, &mut g, max_n, progress);
            return g;
        }
        KEPT.fetch_add(growth, Ordering::Relaxed);
        extend_octal_grundy_values(rules, &mut known, max_n, progress);
    }
    known[..wanted].to_vec()
}

/// Extends the Grundy values `g` (of heaps 0, 1, …, straight from the code's digit bits, with
/// no move lists) to heaps `0..=max_n`.
///
/// A breaking digit gives heap n about n/2 moves, and listing them as [`super::HeapMove`]s (one
/// allocation each) made long sequences of codes such as 0.054 take minutes instead of seconds.
/// Every option of heap n is a XOR of earlier values, all below the next power of two `full`
/// above the largest value so far; once all `full` of them are seen the mex is `full` and the
/// remaining moves cannot change it, so the scan stops early (most heaps of a breaking game).
fn extend_octal_grundy_values(
    rules: &OctalRules,
    g: &mut Vec<u32>,
    max_n: HeapSize,
    progress: &dyn Progress,
) {
    let digits = rules.digits();
    let first = HeapSize::try_from(g.len()).expect("memoised heaps are heap sizes");
    // The moves of heap n grow at most linearly in n: the trapezoid rule gives the total.
    let ends = rules.move_count(first) + rules.move_count(max_n);
    progress.start((u64::from(max_n - first) + 1) * ends / 2 + ends);
    g.reserve(max_n as usize + 1 - g.len());
    // seen[v] != 0 when v is an option of heap n, for v < full. Plain byte stores: a bitset's
    // read-modify-write of one of a few words chains every mark to the one before it.
    let mut seen: Vec<u8> = Vec::new();
    let mut largest = g.iter().copied().max().unwrap_or(0);
    let mut pending = 0u64;
    for n in first..=max_n {
        let full = (largest as usize + 1).next_power_of_two();
        seen.clear();
        seen.resize(full, 0);
        'moves: for (i, &t) in digits.iter().enumerate() {
            let take = i as HeapSize + 1;
            if take > n {
                break;
            }
            let rest = (n - take) as usize;
            if t & 1 != 0 && rest == 0 {
                seen[0] = 1;
            }
            if t & 2 != 0 && rest >= 1 {
                seen[g[rest] as usize] = 1;
            }
            if t & 4 != 0 && rest >= 2 {
                // Heaps b and rest − b for b = 1..=rest/2, in blocks: the marks are branch-free
                // and whether every value is an option is asked once per block.
                let half = rest / 2;
                let low = &g[1..=half];
                let high = &g[rest - half..rest];
                // Every value is below `full` = seen.len(), a power of two, so masking the
                // index changes nothing but lets the compiler drop the bounds check from the
                // hot loop (a third of the time of Officers' values).
                let last = full - 1;
                for (lows, highs) in low.chunks(BLOCK).zip(high.rchunks(BLOCK)) {
                    let marks = &mut seen[..=last];
                    mark_xors(marks, lows, highs, last);
                    if memchr::memchr(0, &seen).is_none() {
                        break 'moves;
                    }
                }
            }
        }
        let mex = memchr::memchr(0, &seen).unwrap_or(full);
        let mex = u32::try_from(mex).expect("a mex is at most the number of options");
        largest = largest.max(mex);
        g.push(mex);
        pending += rules.move_count(n);
        if pending >= 1 << 22 || n == max_n {
            progress.advance(pending);
            pending = 0;
        }
    }
}

/// Marks `lows[i] ^ highs[len − 1 − i]` for every i, each masked by `last`.
///
/// The XORs of a batch of [`LANES`] pairs are formed before any of them is stored: the loads
/// then come as two vector loads per batch instead of one scalar load per pair interleaved with
/// the stores, which the processor may hold up behind earlier stores whose addresses it cannot
/// yet tell apart from them.
fn mark_xors(marks: &mut [u8], lows: &[u32], highs: &[u32], last: usize) {
    let mut low_batches = lows.chunks_exact(LANES);
    let mut high_batches = highs.rchunks_exact(LANES);
    for (l, h) in low_batches.by_ref().zip(high_batches.by_ref()) {
        let xors: [u32; LANES] = std::array::from_fn(|j| l[j] ^ h[LANES - 1 - j]);
        for x in xors {
            marks[x as usize & last] = 1;
        }
    }
    let (l, h) = (low_batches.remainder(), high_batches.remainder());
    for (&a, &b) in l.iter().zip(h.iter().rev()) {
        marks[(a ^ b) as usize & last] = 1;
    }
}

/// Pairs per batch in [`mark_xors`].
const LANES: usize = 16;

/// The common point value of every move of the given heaps' rulesets, if there is one.
pub fn common_constant_points(game: &ScoringGame, heaps: &[Heap]) -> Option<Q> {
    let mut c: Option<Q> = None;
    for h in heaps {
        let o = game.rulesets().get(usize::from(h.rules))?.as_octal()?;
        let v = o.constant_points()?;
        match &c {
            Some(prev) if prev != v => return None,
            _ => c = Some(v.clone()),
        }
    }
    c
}

/// f_N from the normal-play outcome when all moves score c and c + 2N > 0.
pub fn value_from_grundy(g: u32, c: &Q, bonus: &Q) -> Q {
    if g != 0 { c + bonus } else { -bonus }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The batched marks are the pairwise ones, whatever the lengths and the batch split.
        #[test]
        fn batched_marks_are_the_pairwise_marks(
            pairs in proptest::collection::vec((0u32..64, 0u32..64), 0..100),
        ) {
            let (lows, highs): (Vec<u32>, Vec<u32>) = pairs.into_iter().unzip();
            let mut batched = vec![0u8; 64];
            mark_xors(&mut batched, &lows, &highs, 63);
            let mut pairwise = vec![0u8; 64];
            for (i, &a) in lows.iter().enumerate() {
                pairwise[(a ^ highs[highs.len() - 1 - i]) as usize] = 1;
            }
            prop_assert_eq!(batched, pairwise);
        }
    }
}
