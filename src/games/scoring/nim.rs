//! Nim as a scoring ruleset, and the normal/misère P-position sets of Scoring Nim (Oginuma–Shinoda
//! Def 5.4): take any number s ≥ 1 of stones from one heap and score s points. With the bonus N
//! for the last stone this is Scoring Nim; at N = 0 it is Stewart's scoring Nim.

use super::ruleset::{HeapMove, HeapSize, Ruleset};
use crate::num::Q;

/// Nim: remove any positive number of stones from one heap, scoring one point per stone.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nim;

impl Ruleset for Nim {
    fn name(&self) -> String {
        "nim".to_string()
    }

    fn heap_moves(&self, heap: HeapSize) -> Vec<HeapMove> {
        (0..heap)
            .rev()
            .map(|left| HeapMove {
                points: Q::int(i64::from(heap - left)),
                leaves: if left == 0 { vec![] } else { vec![left] },
            })
            .collect()
    }

    fn moves_up_to(&self, heap: HeapSize) -> Option<u64> {
        // A heap of h beans has h moves: 1 + 2 + … + heap, below 2^63 for every u32 heap.
        let h = u64::from(heap);
        Some(h * (h + 1) / 2)
    }

    fn move_count(&self, heap: HeapSize) -> u64 {
        u64::from(heap)
    }

    fn splits(&self) -> bool {
        false
    }
}

/// Nim-sum (XOR) of the heaps.
pub fn nim_sum(heaps: &[HeapSize]) -> HeapSize {
    heaps.iter().fold(0, |acc, &h| acc ^ h)
}

/// P⁺: the normal-play P-positions, ⊕p = 0 (the empty position included).
pub fn in_p_plus(heaps: &[HeapSize]) -> bool {
    nim_sum(heaps) == 0
}

/// P⁻: the misère P-positions: ⊕p = 0 with some heap ≥ 2, or all heaps ≤ 1 with an odd total.
/// The empty position is not in P⁻.
pub fn in_p_minus(heaps: &[HeapSize]) -> bool {
    if heaps.iter().any(|&h| h >= 2) {
        nim_sum(heaps) == 0
    } else {
        heaps.iter().filter(|&&h| h == 1).count() % 2 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_sets_follow_def_5_4() {
        assert!(in_p_plus(&[]) && !in_p_minus(&[]));
        assert!(in_p_plus(&[3, 2, 1]) && in_p_minus(&[3, 2, 1]));
        assert!(in_p_plus(&[1, 1]) && !in_p_minus(&[1, 1]));
        assert!(!in_p_plus(&[1, 1, 1]) && in_p_minus(&[1, 1, 1]));
        assert!(!in_p_plus(&[5, 4, 2]) && !in_p_minus(&[5, 4, 2]));
    }

    #[test]
    fn nim_moves_score_stones_taken() {
        let moves = Nim.heap_moves(3);
        assert_eq!(moves.len(), 3);
        assert_eq!(
            moves[0],
            HeapMove {
                points: Q::int(1),
                leaves: vec![2]
            }
        );
        assert_eq!(
            moves[2],
            HeapMove {
                points: Q::int(3),
                leaves: vec![]
            }
        );
        assert!(Nim.heap_moves(0).is_empty());
        let listed: u64 = (0..=9).map(|h| Nim.heap_moves(h).len() as u64).sum();
        assert_eq!(Nim.moves_up_to(9), Some(listed));
        assert_eq!(Nim.moves_up_to(u32::MAX), Some((1u64 << 63) - (1 << 31)));
    }
}
