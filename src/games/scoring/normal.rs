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
///
/// **Sparse space** (Berlekamp; *Winning Ways*, "Sparse space spells speed"; Flammenkamp's
/// sparse positions). For a mask m and a bit ε, let τ(a) be the parity of the ones of g(a) & m,
/// plus ε·a, plus ε·t, where t is the number of beans the breaking moves take (one parity for
/// all of them when ε = 1). Parity of ones is additive under XOR, so for the heaps b and
/// rest − b of a breaking move the option g(b) ⊕ g(rest − b) has parity τ(b) + τ(rest − b) +
/// ε·rest under m: it is in the *closed* class, the values of parity 1 + ε·rest, exactly when
/// τ(b) ≠ τ(rest − b). Call the heaps with τ = 0 *rare*; a heap is rare exactly when its own
/// value is outside the closed class of its breaking moves. When few heaps are rare (Officers,
/// 0.6, is the classic case), heap n is settled in three steps, each exact whatever m and ε are:
/// 1. mark the options of the pairs with a rare heap (few), which are all the closed options;
/// 2. the smallest unmarked closed value c bounds the mex (c = `full` when there is none);
/// 3. scan the other pairs only until every other value below c is marked, or to the end.
///
/// The mex is then the smallest unmarked value below c, or c. The split is the one that makes
/// the fewest heaps rare so far (read off Walsh–Hadamard transforms of the value counts of even
/// and odd heaps), chosen again when n doubles, the values reach a new power of two or the rare
/// heaps stop being scarce. When no split makes them scarce, or the breaking moves of heap n
/// disagree on the closed class, the plain scan of every pair is used.
fn extend_octal_grundy_values(
    rules: &OctalRules,
    g: &mut Vec<u32>,
    max_n: HeapSize,
    progress: &dyn Progress,
) {
    let _ = extend_with_split(rules, g, max_n, progress, None);
}

/// How [`extend_with_split`] settled the heaps it added.
#[derive(Debug, Default)]
struct SplitUse {
    /// Heaps whose breaking moves went through the three sparse-space steps.
    sparse: usize,
    /// Heaps whose breaking moves were all scanned the plain way.
    plain: usize,
}

/// [`extend_octal_grundy_values`] with the split chosen as it describes (`fixed` = `None`), or
/// fixed from the first heap to the mask m and twist ε of `fixed` (the tests: the values are
/// the same whatever the split).
fn extend_with_split(
    rules: &OctalRules,
    g: &mut Vec<u32>,
    max_n: HeapSize,
    progress: &dyn Progress,
    fixed: Option<(u32, bool)>,
) -> SplitUse {
    let mut uses = SplitUse::default();
    let digits = rules.digits();
    let first = HeapSize::try_from(g.len()).expect("memoised heaps are heap sizes");
    // The moves of heap n grow at most linearly in n: the trapezoid rule gives the total.
    let ends = rules.move_count(first) + rules.move_count(max_n);
    progress.start((u64::from(max_n - first) + 1) * ends / 2 + ends);
    g.reserve((max_n as usize + 1).saturating_sub(g.len()));
    // `partners[top − a] = g(a)`: the partners rest − b of the heaps b = 1, 2, … of a breaking
    // move are then consecutive and increasing in `partners`, as the heaps b are in `g`, so the
    // scans read both in the same direction and no lane is shuffled to reverse one of them.
    let top = max_n as usize;
    let breaks = digits.iter().any(|&t| t & 4 != 0);
    let mut partners: Vec<u32> = Vec::new();
    if breaks {
        partners.resize(top + 1, 0);
        for (a, &v) in g.iter().enumerate().take(top + 1) {
            partners[top - a] = v;
        }
    }
    // seen[v] != 0 when v is an option of heap n, for v < full. Plain byte stores: a bitset's
    // read-modify-write of one of a few words chains every mark to the one before it.
    let mut seen: Vec<u8> = Vec::new();
    let mut largest = g.iter().copied().max().unwrap_or(0);
    let mut sparse = SparseSpace::new(digits, g, (largest as usize + 1).next_power_of_two());
    if let Some(split) = fixed {
        sparse.fix(g, split);
    }
    let mut targets: Vec<usize> = Vec::new();
    let mut pending = 0u64;
    for n in first..=max_n {
        let full = (largest as usize + 1).next_power_of_two();
        if breaks && fixed.is_none() {
            sparse.rechoose_if_due(g, n as usize, full);
        }
        seen.clear();
        seen.resize(full, 0);
        let last = full - 1;
        let split_rests = || {
            digits.iter().enumerate().filter_map(move |(i, &t)| {
                let rest = (n as usize).checked_sub(i + 1)?;
                (t & 4 != 0 && rest >= 2).then_some(rest)
            })
        };
        for (i, &t) in digits.iter().enumerate() {
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
        }
        // The bound c on the mex, and the values below it outside the closed class that are
        // still to be found among the pairs of common heaps (only such pairs can give them);
        // `None` when every pair is scanned the plain way.
        let closed = sparse.closed_parity(split_rests());
        if split_rests().next().is_some() {
            match closed {
                Some(_) => uses.sparse += 1,
                None => uses.plain += 1,
            }
        }
        let bound = if let Some(closed) = closed {
            let is_closed = |v: usize| (v as u32 & sparse.mask).count_ones() % 2 == closed;
            for rest in split_rests() {
                let rare = sparse.rare_heaps_below(rest);
                for &a in rare {
                    seen[(g[a as usize] ^ g[rest - a as usize]) as usize & last] = 1;
                }
            }
            let c = (0..full)
                .find(|&v| is_closed(v) && seen[v] == 0)
                .unwrap_or(full);
            targets.clear();
            targets.extend((0..c).filter(|&v| !is_closed(v) && seen[v] == 0));
            Some(c)
        } else {
            None
        };
        // The heaps b = 1..=rest/2 of every breaking move and their partners rest − b, aligned,
        // in blocks: the marks are branch-free and whether the scan can stop is asked once per
        // block.
        let (values, aligned): (&[u32], &[u32]) = (g, &partners);
        let blocks = split_rests().flat_map(move |rest| {
            let half = rest / 2;
            let low = &values[1..=half];
            let high = &aligned[top + 1 - rest..=top - rest + half];
            low.chunks(BLOCK).zip(high.chunks(BLOCK))
        });
        let scanning = bound.is_none() || !targets.is_empty();
        if scanning && full <= MASK_VALUES {
            // The marks as one word; the scan ends once it holds every value below `full`, or
            // every target.
            let mut marked = seen
                .iter()
                .enumerate()
                .fold(0u64, |m, (v, &s)| m | u64::from(s) << v);
            let wanted = match bound {
                None => u64::MAX >> (MASK_VALUES - full),
                Some(_) => targets.iter().fold(0u64, |m, &v| m | 1 << v),
            };
            for (lows, highs) in blocks {
                marked |= xor_mask(lows, highs, full);
                if marked & wanted == wanted {
                    break;
                }
            }
            mark_mask(&mut seen, marked);
        } else if scanning {
            for (lows, highs) in blocks {
                // Every value is below `full` = seen.len(), a power of two, so masking the index
                // changes nothing but lets the compiler drop the bounds check from the hot loop
                // (a third of the time of Officers' values).
                mark_xors(&mut seen, lows, highs, last);
                let done = match bound {
                    None => memchr::memchr(0, &seen).is_none(),
                    Some(_) => {
                        targets.retain(|&v| seen[v] == 0);
                        targets.is_empty()
                    }
                };
                if done {
                    break;
                }
            }
        }
        let limit = bound.unwrap_or(full);
        let mex = memchr::memchr(0, &seen[..limit]).unwrap_or(limit);
        let mex = u32::try_from(mex).expect("a mex is at most the number of options");
        largest = largest.max(mex);
        g.push(mex);
        if breaks {
            partners[top - n as usize] = mex;
            sparse.record(n as usize, mex);
        }
        pending += rules.move_count(n);
        if pending >= 1 << 22 || n == max_n {
            progress.advance(pending);
            pending = 0;
        }
    }
    uses
}

/// The sparse-space split of [`extend_octal_grundy_values`]: the mask m and the bit ε (`twist`)
/// of τ, the heaps ≥ 1 with τ = 0 (the rare ones, in increasing order), and the
/// count of each value among even and among odd heaps ≥ 1, from which the split is chosen.
struct SparseSpace {
    mask: u32,
    twist: bool,
    /// Whether every breaking move takes a number of beans of one parity: only then do their
    /// rests agree on the closed class under a twist.
    may_twist: bool,
    /// Whether that parity is odd.
    odd_takes: bool,
    rare: Vec<u32>,
    counts: [Vec<u64>; 2],
    /// The heap count and value range at the last choice of the split.
    chosen_at: (usize, usize),
}

/// The split is used while at most one heap in `RARE_SHARE` is rare, and chosen again when the
/// rare heaps grow past that: otherwise the pairs with a rare heap are a large share of the pairs
/// the plain scan reads before it stops (measured on 0.04, 0.06 and 0.76, with a fifth to a third
/// of their heaps rare under the best split).
const RARE_SHARE: usize = 16;

/// Below this many heaps the plain scan is as fast, and the value counts say little.
const SPARSE_FROM: usize = 64;

impl SparseSpace {
    fn new(digits: &[u8], g: &[u32], full: usize) -> SparseSpace {
        let mut takes = (1..=digits.len()).filter(|&take| digits[take - 1] & 4 != 0);
        let first = takes.next().unwrap_or(0);
        let may_twist = takes.all(|t| t % 2 == first % 2);
        let mut counts = [vec![0u64; full], vec![0u64; full]];
        for (a, &v) in g.iter().enumerate().skip(1) {
            counts[a % 2][v as usize] += 1;
        }
        let mut space = SparseSpace {
            mask: 0,
            twist: false,
            may_twist,
            odd_takes: first % 2 == 1,
            rare: Vec::new(),
            counts,
            chosen_at: (0, 0),
        };
        space.rechoose_if_due(g, g.len(), full);
        space
    }

    /// τ(a) for heap a of value v, with δ = ε·t for the breaking moves' takes t.
    fn tau(&self, a: usize, v: u32) -> bool {
        let twisted = self.twist && a % 2 == 1;
        ((v & self.mask).count_ones() % 2 == 1) ^ twisted ^ (self.twist && self.odd_takes)
    }

    /// The parity under the mask of the closed values of the breaking moves leaving `rests`
    /// beans, when there is a split and they agree on it.
    fn closed_parity(&self, mut rests: impl Iterator<Item = usize>) -> Option<u32> {
        if self.mask == 0 {
            return None;
        }
        let parity = |rest: usize| 1 ^ (u32::from(self.twist) & rest as u32 & 1);
        let first = parity(rests.next()?);
        rests.all(|r| parity(r) == first).then_some(first)
    }

    /// The rare heaps a with 1 ≤ a < rest.
    fn rare_heaps_below(&self, rest: usize) -> &[u32] {
        let end = self.rare.partition_point(|&a| (a as usize) < rest);
        &self.rare[..end]
    }

    /// Counts heap n's value, and lists the heap when it is rare.
    fn record(&mut self, n: usize, value: u32) {
        if n == 0 {
            return;
        }
        let v = value as usize;
        for counts in &mut self.counts {
            if v >= counts.len() {
                counts.resize((v + 1).next_power_of_two(), 0);
            }
        }
        self.counts[n % 2][v] += 1;
        if self.mask != 0 && !self.tau(n, value) {
            self.rare.push(n as u32);
        }
    }

    /// Fixes the split to mask m and twist ε (no twist when the breaking moves' takes differ
    /// in parity), for the heaps after `g`.
    fn fix(&mut self, g: &[u32], (mask, twist): (u32, bool)) {
        (self.mask, self.twist) = (mask, twist && self.may_twist);
        self.list_rare(g, g.len());
    }

    /// Lists the rare heaps among 1..heaps afresh.
    fn list_rare(&mut self, g: &[u32], heaps: usize) {
        self.rare.clear();
        if self.mask != 0 {
            let rare: Vec<u32> = (1..heaps)
                .filter(|&a| !self.tau(a, g[a]))
                .map(|a| a as u32)
                .collect();
            self.rare = rare;
        }
    }

    /// Chooses the split again when the heaps (`heaps` = n, the values of heaps < n known) have
    /// doubled or the values reached a new power of two since the last choice, or the rare
    /// heaps are no longer scarce.
    fn rechoose_if_due(&mut self, g: &[u32], heaps: usize, full: usize) {
        let (at_heaps, at_full) = self.chosen_at;
        let crowded = self.mask != 0 && RARE_SHARE * self.rare.len() > heaps;
        if heaps < SPARSE_FROM || (heaps < 2 * at_heaps && full == at_full && !crowded) {
            return;
        }
        self.chosen_at = (heaps, full);
        // w[m] = Σ_v count(v)·(−1)^{popcount(v & m)}, per heap parity: the heaps of even
        // popcount under m minus those of odd popcount.
        let [even, odd] = self.counts.each_ref().map(|counts| {
            let mut w: Vec<i64> = counts.iter().map(|&c| c as i64).collect();
            w.resize(full.max(w.len()), 0);
            walsh_hadamard(&mut w);
            w
        });
        let total = even[0] + odd[0];
        let mut best: Option<(i64, u32, bool)> = None;
        for m in 1..even.len() {
            for twist in [false, true]
                .into_iter()
                .take(1 + usize::from(self.may_twist))
            {
                // Heaps with τ = 0 before δ: even popcount on even heaps, and on odd heaps
                // even popcount without the twist, odd with it.
                let odd_part = if twist {
                    odd[0] - odd[m]
                } else {
                    odd[0] + odd[m]
                };
                let zero = (even[0] + even[m] + odd_part) / 2;
                let rare = if twist && self.odd_takes {
                    total - zero
                } else {
                    zero
                };
                if best.is_none_or(|(r, ..)| rare < r) {
                    best = Some((rare, m as u32, twist));
                }
            }
        }
        (self.mask, self.twist) = match best {
            Some((rare, m, twist)) if RARE_SHARE as i64 * rare <= total => (m, twist),
            _ => (0, false),
        };
        self.list_rare(g, heaps);
    }
}

/// The Walsh–Hadamard transform of `w` in place (its length a power of two).
fn walsh_hadamard(w: &mut [i64]) {
    let mut h = 1;
    while h < w.len() {
        for block in w.chunks_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        h *= 2;
    }
}

/// Marks `lows[i] ^ highs[i]` for every i, each masked by `last`.
///
/// The XORs of a batch of [`LANES`] pairs are formed before any of them is stored: the loads
/// then come as two vector loads per batch instead of one scalar load per pair interleaved with
/// the stores, which the processor may hold up behind earlier stores whose addresses it cannot
/// yet tell apart from them. Kept out of line: inlined into its caller's loop it lost the
/// vector loads to register pressure (a third slower on 0.04).
#[inline(never)]
fn mark_xors(marks: &mut [u8], lows: &[u32], highs: &[u32], last: usize) {
    // Reslicing to `..=last` tells the compiler that a masked index is in bounds.
    let marks = &mut marks[..=last];
    let mut low_batches = lows.chunks_exact(LANES);
    let mut high_batches = highs.chunks_exact(LANES);
    for (l, h) in low_batches.by_ref().zip(high_batches.by_ref()) {
        let xors: [u32; LANES] = std::array::from_fn(|j| l[j] ^ h[j]);
        for x in xors {
            marks[x as usize & last] = 1;
        }
    }
    let (l, h) = (low_batches.remainder(), high_batches.remainder());
    for (&a, &b) in l.iter().zip(h) {
        marks[(a ^ b) as usize & last] = 1;
    }
}

/// Pairs per batch in [`mark_xors`].
const LANES: usize = 16;

/// Values below this many are marked as the bits of one word ([`xor_mask`]) instead of one
/// byte store each.
const MASK_VALUES: usize = 64;

/// Sets `marks[v]` for every bit v of `mask`.
fn mark_mask(marks: &mut [u8], mut mask: u64) {
    while mask != 0 {
        marks[mask.trailing_zeros() as usize] = 1;
        mask &= mask - 1;
    }
}

/// The set of `lows[i] ^ highs[i]` as the bits of a word, for XORs below `full` ≤
/// [`MASK_VALUES`] (a power of two; higher bits of a XOR are ignored).
///
/// Why: a game whose values stay small (0.4's are at most 9 up to n = 100,000) never sees
/// every value below the next power of two, so its scan reads all n/2 pairs of every heap.
/// A byte store per pair is one store per pair; OR-ing `1 << x` into a few words is a handful
/// of vector instructions per 8 pairs once the processor shifts each lane by its own count
/// (AVX2), which the baseline x86-64 target lacks — so the kernel is compiled twice and chosen
/// at run time. Below 32 values the words are 32-bit: no lane is widened or shuffled.
fn xor_mask(lows: &[u32], highs: &[u32], full: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, just checked.
        return unsafe { xor_mask_avx2(lows, highs, full) };
    }
    xor_mask_body(lows, highs, full)
}

/// [`xor_mask_body`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn xor_mask_avx2(lows: &[u32], highs: &[u32], full: usize) -> u64 {
    xor_mask_body(lows, highs, full)
}

/// [`xor_mask`]'s choice of word, inlined into each compiled version.
#[inline(always)]
fn xor_mask_body(lows: &[u32], highs: &[u32], full: usize) -> u64 {
    if full <= 32 {
        u64::from(xor_words::<u32>(lows, highs))
    } else {
        xor_words::<u64>(lows, highs)
    }
}

/// A word of marks: bit x for value x.
trait MarkWord: Copy + Default + std::ops::BitOr<Output = Self> {
    /// The word with bit `x` (taken modulo the word's width) set.
    fn bit(x: u32) -> Self;
}

impl MarkWord for u32 {
    #[inline(always)]
    fn bit(x: u32) -> u32 {
        1 << (x & 31)
    }
}

impl MarkWord for u64 {
    #[inline(always)]
    fn bit(x: u32) -> u64 {
        1 << (x & 63)
    }
}

/// The loop of [`xor_mask`] for one width of word: 8 independent words, so the ORs do not wait
/// on one another.
#[inline(always)]
fn xor_words<W: MarkWord>(lows: &[u32], highs: &[u32]) -> W {
    const WIDTH: usize = 8;
    let mut words = [W::default(); WIDTH];
    let mut low_batches = lows.chunks_exact(WIDTH);
    let mut high_batches = highs.chunks_exact(WIDTH);
    for (l, h) in low_batches.by_ref().zip(high_batches.by_ref()) {
        for j in 0..WIDTH {
            words[j] = words[j] | W::bit(l[j] ^ h[j]);
        }
    }
    let (l, h) = (low_batches.remainder(), high_batches.remainder());
    let rest = l
        .iter()
        .zip(h)
        .fold(W::default(), |m, (&a, &b)| m | W::bit(a ^ b));
    words.iter().fold(rest, |m, &w| m | w)
}

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
    use crate::games::normal_play::tests::naive_grundy as grundy_by_definition;
    use proptest::prelude::*;

    fn code(digits: &[u8]) -> OctalRules {
        let text = format!(
            "0.{}",
            digits.iter().map(|d| d.to_string()).collect::<String>()
        );
        text.parse().unwrap()
    }

    #[test]
    fn the_chosen_split_keeps_the_values_of_the_definition() {
        // 0.24 and 0.26 are sparse in the heaps' parity (ε = 1) from the first choice; 0.04 has
        // no split that pays.
        for (digits, sparse) in [(&[2u8, 4][..], true), (&[2, 6], true), (&[0, 4], false)] {
            let rules = code(digits);
            let mut g = Vec::new();
            let uses = extend_with_split(&rules, &mut g, 800, &Silent, None);
            assert_eq!(g, grundy_by_definition(digits, 800), "{rules}");
            assert_eq!(uses.sparse > 500, sparse, "{rules}: {uses:?}");
        }
    }

    #[test]
    fn the_chosen_split_keeps_the_values_of_the_plain_scan_far_out() {
        // Officers is split (mask 494) from about n = 50000 and 0.64 from n = 4096 or so: too
        // far for the definition, so the plain scan (checked against it above) is the reference.
        for (digits, max_n) in [(&[6u8][..], 60000), (&[6, 4], 12000)] {
            let rules = code(digits);
            let (mut chosen, mut plain) = (Vec::new(), Vec::new());
            let uses = extend_with_split(&rules, &mut chosen, max_n, &Silent, None);
            let _ = extend_with_split(&rules, &mut plain, max_n, &Silent, Some((0, false)));
            assert!(uses.sparse > 1000, "{rules}: {uses:?}");
            assert!(chosen == plain, "{rules}");
        }
    }

    /// The marks of `lows[i] ^ highs[i]`, one pair at a time: the reference for the fast kernels.
    fn pairwise_marks(lows: &[u32], highs: &[u32]) -> Vec<u8> {
        let mut marks = vec![0u8; 64];
        for (&a, &b) in lows.iter().zip(highs) {
            marks[(a ^ b) as usize] = 1;
        }
        marks
    }

    proptest! {
        /// Every split gives the values of the definition: the sparse-space steps are exact
        /// whatever the mask and the twist, only their speed depends on them.
        #[test]
        fn every_split_gives_the_values_of_the_definition(
            digits in proptest::collection::vec(0u8..8, 1..4),
            mask in 1u32..64,
            twist: bool,
            prefix in 0usize..50,
        ) {
            prop_assume!(digits.iter().any(|&d| d & 4 != 0));
            let rules = code(&digits);
            let truth = grundy_by_definition(&digits, 300);
            let mut g = truth[..prefix].to_vec();
            extend_with_split(&rules, &mut g, 300, &Silent, Some((mask, twist)));
            prop_assert_eq!(g, truth);
        }

        /// The batched marks are the pairwise ones, whatever the lengths and the batch split.
        #[test]
        fn batched_marks_are_the_pairwise_marks(
            pairs in proptest::collection::vec((0u32..64, 0u32..64), 0..100),
        ) {
            let (lows, highs): (Vec<u32>, Vec<u32>) = pairs.into_iter().unzip();
            let mut batched = vec![0u8; 64];
            mark_xors(&mut batched, &lows, &highs, 63);
            let pairwise = pairwise_marks(&lows, &highs);
            prop_assert_eq!(batched, pairwise);
        }

        /// The word of marks is the pairwise marks, whatever the lengths and the batch split.
        #[test]
        fn masked_marks_are_the_pairwise_marks(
            full in proptest::sample::select(vec![1usize, 2, 16, 32, 64]),
            pairs in proptest::collection::vec((0u32..64, 0u32..64), 0..100),
        ) {
            let below = |v: u32| v % full as u32;
            let (lows, highs): (Vec<u32>, Vec<u32>) =
                pairs.into_iter().map(|(a, b)| (below(a), below(b))).unzip();
            let mut masked = vec![0u8; 64];
            mark_mask(&mut masked, xor_mask(&lows, &highs, full));
            let mut portable = vec![0u8; 64];
            mark_mask(&mut portable, xor_mask_body(&lows, &highs, full));
            let pairwise = pairwise_marks(&lows, &highs);
            prop_assert_eq!(&masked, &pairwise);
            prop_assert_eq!(portable, pairwise);
        }
    }
}
