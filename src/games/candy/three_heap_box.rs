//! V of every 3-heap P-position whose heaps are all at most H: exactly the box `nimlab candy
//! table --heaps 3 --max-heap H` lists (every move from it stays in it), filled layer by layer on
//! all cores. [`ThreeHeapTable`](super::ThreeHeapTable), bounded by the two smaller heaps, would
//! also solve the positions whose largest heap runs up to the next power of two.
//!
//! # The recursion
//! Let G = (g₀, g₁, g₂) with g₀ ⊕ g₁ ⊕ g₂ = 0 and u = g₀ | g₁ | g₂. Every bit of u is set in an
//! even, non-zero number of heaps: in exactly two. Luca moves heap i to a < gᵢ; the nim-sum
//! becomes s = gᵢ ⊕ a, whose top bit t is set in gᵢ and clear in a. Windsor's winning moves are
//! the heaps h with h ⊕ s < h, i.e. those with bit t set (Bouton): heap i no longer has it, so
//! his only winning move is on the other heap j with bit t, to b = gⱼ ⊕ s (Lemma 3.2, proved
//! here rather than assumed). With k the third heap, a ⊕ b = gᵢ ⊕ gⱼ = g_k, so the position
//! after both moves is the P-position (g_k, a, a ⊕ g_k), and Luca's margin is
//! (gᵢ − a) − ((gⱼ − b) − V(g_k, a, a ⊕ g_k)). Luca's move j → b draws the reply i → a and the
//! same position with the opposite difference of takes; the moves with this s are exactly these
//! two. Hence, with Δ(a) = (gᵢ − a) − (gⱼ − (a ⊕ g_k)),
//!
//!   V(G) = max over bits t of u, over a in the block of gᵢ (i one of the two heaps with bit t)
//!          of |Δ(a)| + V(g_k, a, a ⊕ g_k),
//!
//! where the block is the 2^t numbers that agree with gᵢ above bit t and have bit t clear (s runs
//! over [2^t, 2^(t+1))). So G has u moves-with-replies in all, half the 2u moves Luca has.
//!
//! # Layers
//! x + y = (x ⊕ y) + 2(x & y), so the total of (x, y, x ⊕ y) is 2(x | y) = 2u. A move and its
//! reply lower the total, so every position G depends on depends only on smaller u: the
//! positions of one u are solved in parallel from the stored smaller layers, then stored. Each
//! bit of u is missing from exactly one heap, so the positions of layer u are the x ⊆ u with a
//! split S ⊆ x of its bits: y = u ⊕ x ⊕ S, z = u ⊕ S.
//!
//! # Blocks at once
//! In the block of bit t, with c = gᵢ − gⱼ and e(a) = (a ⊕ g_k) − a, Δ(a) = c + e(a), so
//! |Δ(a)| + w(a) = max(c + (w + e), −c + (w − e)) with w(a) = V(g_k, a, a ⊕ g_k): the block's
//! largest w + e and w − e answer all its 2^t moves at once. They are kept for every row g_k and
//! every aligned block of 32 entries or more, updated as each position is stored (its children
//! lie in smaller layers, so a block is complete when it is read); the smaller blocks, at most
//! 31 entries per position, are read entry by entry.
//!
//! # Storage
//! V(p, q, p ⊕ q) is kept at [p][q] for every ordered pair of two of the heaps (six cells per
//! position): the moves of one block read one row, [g_k][a] over consecutive a. Cells of pairs
//! [a, a] and of a zero heap stay 0, their value (Windsor mirrors Luca).

use rayon::prelude::*;

use super::{Candies, PValues, show_bounded};
use crate::error::{Error, Result};
use crate::progress::{Progress, Silent};

/// Layers with less work than this are solved on the calling thread (sharing them costs more).
const PARALLEL_LAYER_WORK: u64 = 1 << 15;

/// V of every sorted 3-heap P-position x < y < z ≤ H (and 0 for [a, a] and zeros).
#[derive(Clone, Debug)]
pub struct ThreeHeapBox {
    max_heap: Candies,
    /// V(p, q, p ⊕ q) at p·(H + 1) + q.
    v: Vec<i32>,
}

impl ThreeHeapBox {
    /// The largest heap solved, H.
    pub fn max_heap(&self) -> Candies {
        self.max_heap
    }

    /// Bytes of the table of H: 4 per pair of heaps ≤ H, and the largest layer's positions
    /// (at most 3^b / 6 of them for layers u < 2^b, 16 bytes each with their values).
    pub fn bytes(max_heap: Candies) -> u128 {
        let side = u128::from(max_heap) + 1;
        let blocks = side * RowMaxima::blocks_per_row(max_heap, BLOCK_LEVEL) as u128 * 8;
        side * side * 4 + blocks + 3u128.pow(layer_bits(max_heap)) / 6 * 16
    }

    /// Moves-with-replies answered (most a block at a time): u for every position of layer u
    /// (see the module doc),
    /// bounded from H alone by (2^b − 1)·4^(b−1)/2 for layers u < 2^b: the sum over all
    /// of [0, 2^b)³, where 3^popcount(u) ordered positions have x | y | z = u, over 6 orders.
    pub fn steps(max_heap: Candies) -> u128 {
        let bits = layer_bits(max_heap);
        if bits == 0 {
            return 0;
        }
        ((1u128 << bits) - 1) * 4u128.pow(bits - 1) / 2
    }

    /// Solves every position with heaps ≤ `max_heap`, refusing at once above `max_bytes`.
    pub fn solve(max_heap: Candies, max_bytes: u64) -> Result<ThreeHeapBox> {
        Self::solve_reporting(max_heap, max_bytes, &Silent)
    }

    /// [`solve`](Self::solve), reporting each layer's moves-with-replies to `progress`.
    pub fn solve_reporting(
        max_heap: Candies,
        max_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<ThreeHeapBox> {
        Self::solve_with_blocks_from(max_heap, max_bytes, progress, BLOCK_LEVEL)
    }

    /// [`solve_reporting`](Self::solve_reporting) with the blocks of bits `level` and above
    /// read from their maxima and the smaller ones entry by entry (at a `level` past the top
    /// bit, every block is read entry by entry: the reference the tests compare against).
    fn solve_with_blocks_from(
        max_heap: Candies,
        max_bytes: u64,
        progress: &dyn Progress,
        level: u32,
    ) -> Result<ThreeHeapBox> {
        let needed = Self::bytes(max_heap);
        if needed > u128::from(max_bytes) || max_heap >= 1 << 30 {
            // The table's side is about √(bytes / 4); step down to the first H that fits.
            let mut fits = Some((max_bytes / 4).isqrt().min(1 << 30) as Candies);
            while let Some(h) = fits.filter(|&h| Self::bytes(h) > u128::from(max_bytes)) {
                fits = h.checked_sub(1);
            }
            return Err(Error::TooLarge {
                what: format!(
                    "the table of 3-heap P-positions below {}",
                    show_bounded(&[max_heap; 3])
                ),
                needed_bytes: u64::try_from(needed).unwrap_or(u64::MAX),
                limit_bytes: max_bytes,
                suggestion: match fits {
                    Some(h) if h > 0 => {
                        format!("use a largest heap of at most {h}, or raise --memory-limit")
                    }
                    _ => "raise --memory-limit".to_string(),
                },
            });
        }
        let side = max_heap as usize + 1;
        let top = (1 << layer_bits(max_heap)) - 1;
        let work: u64 = (1..=top)
            .map(|u| layer(u, max_heap).count() as u64 * u64::from(u))
            .sum();
        progress.start(work);
        let mut v = vec![0i32; side * side];
        let mut maxima = RowMaxima::new(max_heap, max_heap, level);
        let mut positions = Vec::new();
        let mut values = Vec::new();
        for u in 1..=top {
            positions.clear();
            positions.extend(layer(u, max_heap));
            let layer_work = positions.len() as u64 * u64::from(u);
            let solved = |g: &[Candies; 3]| {
                best_move_value(
                    g,
                    &maxima,
                    |_| true,
                    |p, a| v[p as usize * side + a as usize],
                )
            };
            if layer_work < PARALLEL_LAYER_WORK {
                values.clear();
                values.extend(positions.iter().map(solved));
            } else {
                positions
                    .par_iter()
                    .map(solved)
                    .collect_into_vec(&mut values);
            }
            for (&[x, y, z], &value) in positions.iter().zip(&values) {
                let (x, y, z) = (x as usize, y as usize, z as usize);
                for (p, q) in [(x, y), (y, x), (x, z), (z, x), (y, z), (z, y)] {
                    v[p * side + q] = value;
                    maxima.insert(p as Candies, q as Candies, value);
                }
            }
            progress.advance(layer_work);
        }
        Ok(ThreeHeapBox { max_heap, v })
    }
}

/// The bits of the layers u of heaps ≤ H: u < 2^b. The two larger heaps share the top bit 2^T of
/// u and differ, so one is above 2^T, and 2^T < H: b = ⌈log₂ H⌉ (0 for H ≤ 1).
fn layer_bits(max_heap: Candies) -> u32 {
    Candies::BITS - max_heap.saturating_sub(1).leading_zeros()
}

/// The sorted positions 0 < x < y < z ≤ H with x | y | z = u (and x ⊕ y ⊕ z = 0): each bit of u
/// is missing from exactly one heap, the bits of x from y or z (S those missing from z).
fn layer(u: Candies, max_heap: Candies) -> impl Iterator<Item = [Candies; 3]> {
    submasks(u)
        .filter(|&x| x != 0)
        .flat_map(move |x| submasks(x).map(move |s| [x, u ^ x ^ s, u ^ s]))
        .filter(move |&[x, y, z]| x < y && y < z && z <= max_heap)
}

/// Every submask of `mask`, `mask` first and 0 last.
fn submasks(mask: Candies) -> impl Iterator<Item = Candies> {
    let mut next = Some(mask);
    std::iter::from_fn(move || {
        let current = next?;
        next = (current != 0).then(|| (current - 1) & mask);
        Some(current)
    })
}

/// Blocks of bits below this are read entry by entry (at most 31 entries in all per position);
/// the larger ones from their maxima, kept for every row at a cost of 8 bytes per 16 entries.
pub(super) const BLOCK_LEVEL: u32 = 5;

/// V(G) by the recursion of the module doc, from the values of G's children: `child(g_k, a)`
/// is V(g_k, a, a ⊕ g_k). Shared by the box and by [`ThreeHeapTable`](super::ThreeHeapTable).
///
/// A block of bit t in row g_k reads the values w(a) = V(g_k, a, a ⊕ g_k) with the takes'
/// difference Δ(a) = c + e(a), c = gᵢ − gⱼ and e(a) = (a ⊕ g_k) − a; so its best
/// |Δ| + w = max(c + (w + e), −c + (w − e)) comes from the block's two maxima when `maxima`
/// keeps them (bits of its level and above, and heaps k that `kept` allows), and entry by entry
/// otherwise.
pub(super) fn best_move_value(
    g: &[Candies; 3],
    maxima: &RowMaxima,
    kept: impl Fn(usize) -> bool,
    child: impl Fn(Candies, Candies) -> i32,
) -> i32 {
    let u = g[0] | g[1] | g[2];
    let mut best = i32::MIN;
    let mut bits = u;
    while bits != 0 {
        let t = bits.trailing_zeros();
        bits &= bits - 1;
        // k: the heap without bit t; i, j: the two with it.
        let k = (0..3)
            .find(|&k| g[k] >> t & 1 == 0)
            .expect("one heap lacks each bit");
        let (gi, gj, gk) = (g[(k + 1) % 3], g[(k + 2) % 3], g[k]);
        // Heaps are below 2³⁰, so the differences of takes fit i32.
        let c = gi as i32 - gj as i32;
        if kept(k)
            && let Some((plus, minus)) = maxima.block(gk, t, gi)
        {
            best = best.max((c + plus).max(minus - c));
            continue;
        }
        let block = (gi >> (t + 1)) << (t + 1);
        for a in block..block + (1 << t) {
            let e = (a ^ gk) as i32 - a as i32;
            best = best.max((c + e).abs() + child(gk, a));
        }
    }
    best
}

/// For every row p ≤ R and every aligned block [j·2^t, (j + 1)·2^t) of indices a ≤ I, with t
/// from a first level up, the largest w(a) + e(a) and w(a) − e(a) over the block, where
/// w(a) = V(p, a, a ⊕ p) and e(a) = (a ⊕ p) − a. An entry joins its blocks when its position
/// is solved; a block is read only by positions whose children are all its entries, solved
/// before them. Shared by the box and by [`ThreeHeapTable`](super::ThreeHeapTable).
pub(super) struct RowMaxima {
    /// The first level kept.
    first: u32,
    /// Indices a < 2^levels.
    levels: u32,
    /// The largest row kept.
    max_row: Candies,
    per_row: usize,
    blocks: Vec<(i32, i32)>,
}

impl RowMaxima {
    /// Blocks kept per row: 2^(L − t) for each level t = first..L, L = ⌈log₂(I + 1)⌉.
    pub(super) fn blocks_per_row(max_index: Candies, first: u32) -> usize {
        let levels = Candies::BITS - max_index.leading_zeros();
        if first >= levels {
            0
        } else {
            (2usize << (levels - first)) - 2
        }
    }

    /// The blocks of rows ≤ `max_row` over indices ≤ `max_index`, holding the entries whose
    /// value is known before anything is solved: a = 0 and a = p (a zero heap: V = 0), and all
    /// of row 0.
    pub(super) fn new(max_row: Candies, max_index: Candies, first: u32) -> RowMaxima {
        let levels = Candies::BITS - max_index.leading_zeros();
        let per_row = Self::blocks_per_row(max_index, first);
        let mut maxima = RowMaxima {
            first,
            levels,
            max_row,
            per_row,
            blocks: vec![(i32::MIN, i32::MIN); per_row * (max_row as usize + 1)],
        };
        if per_row > 0 {
            maxima.blocks[..per_row].fill((0, 0));
            for p in 1..=max_row {
                maxima.insert(p, 0, 0);
                maxima.insert(p, p, 0);
            }
        }
        maxima
    }

    /// Where level t of row p starts.
    fn start(&self, p: Candies, t: u32) -> usize {
        let into_row = (2usize << (self.levels - self.first)) - (2usize << (self.levels - t));
        p as usize * self.per_row + into_row
    }

    /// w(a) = V(p, a, a ⊕ p) is known (a row or an index beyond those kept is never read).
    pub(super) fn insert(&mut self, p: Candies, a: Candies, w: i32) {
        if p > self.max_row || (self.levels < Candies::BITS && a >> self.levels != 0) {
            return;
        }
        let e = (a ^ p) as i32 - a as i32;
        for t in self.first..self.levels {
            let at = self.start(p, t) + (a >> t) as usize;
            let block = &mut self.blocks[at];
            block.0 = block.0.max(w + e);
            block.1 = block.1.max(w - e);
        }
    }

    /// The maxima of row p's block of bit t below gᵢ (the 2^t indices that agree with gᵢ
    /// above bit t and have bit t clear), when that level is kept.
    pub(super) fn block(&self, p: Candies, t: u32, gi: Candies) -> Option<(i32, i32)> {
        if t < self.first || t >= self.levels || p > self.max_row {
            return None;
        }
        let found = self.blocks[self.start(p, t) + ((gi >> (t + 1)) << 1) as usize];
        debug_assert!(
            found.0 > i32::MIN,
            "block {t} of row {p} read before any entry"
        );
        Some(found)
    }
}

impl PValues for ThreeHeapBox {
    fn p_value(&self, heaps: &[Candies]) -> Option<i64> {
        let mut nonzero = heaps.iter().copied().filter(|&h| h > 0);
        let (p, q) = (nonzero.next().unwrap_or(0), nonzero.next().unwrap_or(0));
        let r = nonzero.next().unwrap_or(0);
        if nonzero.next().is_some() || p ^ q ^ r != 0 || p.max(q).max(r) > self.max_heap {
            return None;
        }
        let side = self.max_heap as usize + 1;
        Some(i64::from(self.v[p as usize * side + q as usize]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::candy::ThreeHeapTable;

    #[test]
    fn layers_hold_every_sorted_position_once() {
        for h in [0, 1, 2, 4, 5, 8, 21, 32, 33] {
            let mut listed: Vec<[Candies; 3]> =
                (1..1 << layer_bits(h)).flat_map(|u| layer(u, h)).collect();
            listed.sort_unstable();
            let mut plain = Vec::new();
            for x in 1..=h {
                for y in x + 1..=h {
                    if (x ^ y) > y && (x ^ y) <= h {
                        plain.push([x, y, x ^ y]);
                    }
                }
            }
            assert_eq!(listed, plain, "H = {h}");
        }
    }

    #[test]
    fn steps_bound_the_work() {
        for h in [1, 2, 7, 8, 100, 255] {
            let work: u128 = (1..512)
                .map(|u| layer(u, h).count() as u128 * u128::from(u))
                .sum();
            assert!(work <= ThreeHeapBox::steps(h), "H = {h}");
        }
        // H = 2^b − 1 holds all of [0, 2^b)³: the bound is nearly reached (the positions with a
        // zero or two equal heaps are all it counts beyond the work).
        let work: u128 = (1..64)
            .map(|u| layer(u, 63).count() as u128 * u128::from(u))
            .sum();
        assert!(10 * work >= 9 * ThreeHeapBox::steps(63));
    }

    #[test]
    fn equals_the_table_bounded_by_the_smaller_heaps() {
        for h in [1, 3, 6, 19, 40] {
            let exact = ThreeHeapBox::solve(h, 1 << 30).unwrap();
            let wide = ThreeHeapTable::solve(h, h, 1 << 30).unwrap();
            for x in 0..=h {
                for y in 0..=h {
                    let g = [x, y, x ^ y];
                    let expected = (g[2] <= h).then(|| wide.p_value(&g).unwrap());
                    assert_eq!(exact.p_value(&g), expected, "{g:?}");
                }
            }
            assert_eq!(exact.p_value(&[1, 2, 3, 0]), wide.p_value(&[1, 2, 3]));
            assert_eq!(exact.p_value(&[1, 2, 4]), None);
            assert_eq!(exact.p_value(&[1, 1, 1, 1]), None);
        }
    }

    /// Blocks read from their maxima from every level, from the default one, or from none
    /// (every entry read): the same box.
    #[test]
    fn block_maxima_from_any_level_give_the_box_read_entry_by_entry() {
        for h in [7, 40, 300] {
            let every_entry =
                ThreeHeapBox::solve_with_blocks_from(h, 1 << 30, &Silent, 32).unwrap();
            for level in [0, 1, BLOCK_LEVEL] {
                let blocks =
                    ThreeHeapBox::solve_with_blocks_from(h, 1 << 30, &Silent, level).unwrap();
                assert_eq!(
                    blocks.v, every_entry.v,
                    "H = {h}, blocks from level {level}"
                );
            }
        }
    }

    /// The table's block maxima (rows x ≤ 20, blocks of up to 256 entries) against the box,
    /// which reads every entry of every block.
    #[test]
    fn the_tables_block_maxima_equal_the_boxs_entries() {
        let exact = ThreeHeapBox::solve(511, 1 << 30).unwrap();
        let narrow = ThreeHeapTable::solve(20, 300, 1 << 30).unwrap();
        for x in 1..=20 {
            for y in x..=300 {
                let g = [x, y, x ^ y];
                if g[2] > y {
                    assert_eq!(exact.p_value(&g), narrow.p_value(&g), "{g:?}");
                }
            }
        }
    }
}
