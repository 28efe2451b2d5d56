//! What a scoring ruleset must provide: the moves on one heap, the points each scores, and the
//! heaps it leaves. Everything else (sums of heaps, the bonus N, payoffs) comes from the engine.
//!
//! Contract: every move removes at least one bean (the heaps left sum to less than the heap), so
//! the total number of beans strictly decreases and the game is finite. The engine checks this.

use std::fmt;

use super::octal::OctalRules;
use crate::num::Q;

/// A heap size.
pub type HeapSize = u32;

/// One move on a single heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapMove {
    /// Points the mover scores (exact; may be any rational).
    pub points: Q,
    /// The non-empty heaps left in place of the heap (none, one, or several when it breaks).
    pub leaves: Vec<HeapSize>,
}

/// On every heap n > `above`, the moves are exactly "remove i, leaving the one heap n − i, scoring
/// p" for the listed (i, p), with every i ≤ `above`. So single heaps obey a recurrence of order
/// `above` from n = `above` + 1 on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformTail {
    /// Heaps above this size all have the same moves.
    pub above: HeapSize,
    /// (beans removed, points).
    pub moves: Vec<(HeapSize, Q)>,
}

/// A scoring ruleset for single heaps.
pub trait Ruleset: Send + Sync + fmt::Debug {
    /// A short name for provenance and output (e.g. `nim`, `0.3333`).
    fn name(&self) -> String;

    /// All moves on a heap of `heap` beans, each listed once.
    fn heap_moves(&self, heap: HeapSize) -> Vec<HeapMove>;

    /// How many moves [`heap_moves`](Self::heap_moves) lists on a heap of `heap`, without
    /// listing them: cost estimates call it on heaps far too large to enumerate.
    fn move_count(&self, heap: HeapSize) -> u64 {
        self.heap_moves(heap).len() as u64
    }

    /// For rulesets whose moves on every heap larger than some size are the same removals
    /// ("taking, no breaking"): that size and those moves. This is the finite look-back that
    /// periodicity proofs need; `None` (the default) claims nothing.
    fn uniform_tail(&self) -> Option<UniformTail> {
        None
    }

    /// The ruleset as an octal code, when it is one (periodicity theorems need the code).
    fn as_octal(&self) -> Option<&OctalRules> {
        None
    }

    /// An upper bound on the number of moves summed over the heaps of 1, 2, …, `heap` beans —
    /// what the engine caches and walks for one heap of `heap` beans — when the ruleset can give
    /// one without listing the moves. It lets a solve refuse oversized work *before* starting it;
    /// `None` (the default) claims nothing and the solve checks its memory as it goes.
    fn moves_up_to(&self, _heap: HeapSize) -> Option<u64> {
        None
    }

    /// True when some move can leave two or more heaps. Rulesets that never split allow dense
    /// tables over all k-heap positions; the default is the conservative answer.
    fn splits(&self) -> bool {
        true
    }
}
