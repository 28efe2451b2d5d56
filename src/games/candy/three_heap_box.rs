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
        side * side * 4 + 3u128.pow(layer_bits(max_heap)) / 6 * 16
    }

    /// Moves-with-replies examined: u for every position of layer u (see the module doc),
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
        let mut positions = Vec::new();
        let mut values = Vec::new();
        for u in 1..=top {
            positions.clear();
            positions.extend(layer(u, max_heap));
            let layer_work = positions.len() as u64 * u64::from(u);
            let solved = |g: &[Candies; 3]| best_move_value(&v, side, g);
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

/// V(G) by the recursion of the module doc, from the stored values of smaller layers.
fn best_move_value(v: &[i32], side: usize, g: &[Candies; 3]) -> i32 {
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
        let block = (gi >> (t + 1)) << (t + 1);
        let row = &v[gk as usize * side + block as usize..][..1 << t];
        // Heaps are below 2³⁰, so the differences of takes fit i32.
        let (gi, gj, gk, block) = (gi as i32, gj as i32, gk as i32, block as i32);
        for (a, &child) in (block..).zip(row) {
            let delta = (gi - a) - (gj - (a ^ gk));
            best = best.max(delta.abs() + child);
        }
    }
    best
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
