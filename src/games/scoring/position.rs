//! Positions (multisets of heaps, each under a ruleset) and the scoring game that moves on them.
//!
//! A position is a disjunctive sum under the long rule: play continues while any heap has a move.
//! Its canonical form drops heaps with no move (they can never move again) and sorts the rest in
//! decreasing order, so transpositions share one memo entry. Moves are reported on *ordered*
//! positions (the heaps in the order the user gave them, empty slots kept as 0), the way the papers
//! write lines of play such as (5,4,2) → (1,4,2).

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use foldhash::fast::FixedState;
use itertools::Itertools;

use super::ruleset::{HeapMove, HeapSize, Ruleset};
use crate::error::{Error, Result};
use crate::num::Q;

/// Index of a ruleset inside a [`ScoringGame`].
pub type RulesId = u16;

/// One heap: its size and the ruleset it follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Heap {
    /// Number of beans.
    pub size: HeapSize,
    /// Which ruleset of the game this heap follows.
    pub rules: RulesId,
}

impl Heap {
    /// A heap under ruleset 0.
    pub fn new(size: HeapSize) -> Heap {
        Heap { size, rules: 0 }
    }
}

/// A canonical position: heaps that can still move, in decreasing order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Position(Vec<Heap>);

impl Position {
    /// A position from live heaps already in decreasing order (callers guarantee both).
    pub(crate) fn from_sorted(heaps: Vec<Heap>) -> Position {
        debug_assert!(heaps.windows(2).all(|w| w[0] >= w[1]));
        Position(heaps)
    }

    /// The heaps, largest first.
    pub fn heaps(&self) -> &[Heap] {
        &self.0
    }

    /// Total number of beans.
    pub fn total(&self) -> u64 {
        self.0.iter().map(|h| u64::from(h.size)).sum()
    }

    /// Whether no heap can move (the game is over).
    pub fn is_terminal(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_heaps(f, &self.0)
    }
}

/// Writes heaps as `(5,4,2)`; heaps under a ruleset other than 0 carry `@id`.
pub fn fmt_heaps(f: &mut fmt::Formatter<'_>, heaps: &[Heap]) -> fmt::Result {
    write!(f, "(")?;
    for (i, h) in heaps.iter().enumerate() {
        if i > 0 {
            write!(f, ",")?;
        }
        write!(f, "{}", h.size)?;
        if h.rules != 0 {
            write!(f, "@{}", h.rules)?;
        }
    }
    write!(f, ")")
}

/// Heaps in the order given, for display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ordered(pub Vec<Heap>);

impl fmt::Display for Ordered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_heaps(f, &self.0)
    }
}

/// A move from an ordered position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Index of the heap moved on.
    pub slot: usize,
    /// Beans removed from that heap (its size minus what is left).
    pub taken: u64,
    /// Points the mover scores.
    pub points: Q,
    /// The ordered position after the move (a heap taken to nothing stays as 0).
    pub result: Ordered,
}

/// The moves of each heap met so far.
type MoveCache = HashMap<Heap, Arc<[HeapMove]>, FixedState>;

/// A scoring game: a list of rulesets; heaps refer to them by index. The bonus N for the last
/// move of the whole game is not stored here: payoffs are functions of N.
#[derive(Debug, Clone)]
pub struct ScoringGame {
    rulesets: Vec<Arc<dyn Ruleset>>,
    /// Looked up at every move of every solve: foldhash, far cheaper than SipHash on a heap.
    cache: Arc<RwLock<MoveCache>>,
    /// Moves held by `cache`, so solves can count its memory (it grows as O(H²) for Nim).
    cached_moves: Arc<AtomicU64>,
}

/// Bytes one cached move costs: the [`HeapMove`] (a rational and a vector) with the
/// allocations behind them, and its share of the cache's map entry (measured for Nim).
pub(crate) const CACHED_MOVE_BYTES: u64 = 136;

impl ScoringGame {
    /// A game whose heaps follow the given rulesets (heap `rules` indexes this list).
    ///
    /// # Panics
    /// When `rulesets` is empty or has more than `u16::MAX` entries.
    pub fn new(rulesets: Vec<Arc<dyn Ruleset>>) -> ScoringGame {
        assert!(!rulesets.is_empty() && rulesets.len() <= usize::from(RulesId::MAX));
        ScoringGame {
            rulesets,
            cache: Arc::default(),
            cached_moves: Arc::default(),
        }
    }

    /// A game with one ruleset.
    pub fn single(rules: impl Ruleset + 'static) -> ScoringGame {
        ScoringGame::new(vec![Arc::new(rules)])
    }

    /// The rulesets.
    pub fn rulesets(&self) -> &[Arc<dyn Ruleset>] {
        &self.rulesets
    }

    /// Whether no ruleset ever splits a heap.
    pub fn splits(&self) -> bool {
        self.rulesets.iter().any(|r| r.splits())
    }

    /// Moves on one heap (memoized), after checking the ruleset's contract.
    pub fn heap_moves(&self, heap: Heap) -> Result<Arc<[HeapMove]>> {
        if let Some(m) = self.cache.read().expect("move cache poisoned").get(&heap) {
            return Ok(m.clone());
        }
        let moves: Arc<[HeapMove]> = self.heap_moves_uncached(heap)?.into();
        let mut cache = self.cache.write().expect("move cache poisoned");
        if cache.insert(heap, moves.clone()).is_none() {
            self.cached_moves
                .fetch_add(moves.len() as u64, Ordering::Relaxed);
        }
        Ok(moves)
    }

    /// Moves held in the memo of [`heap_moves`](Self::heap_moves) (each costs about
    /// `CACHED_MOVE_BYTES`).
    pub fn cached_moves(&self) -> u64 {
        self.cached_moves.load(Ordering::Relaxed)
    }

    /// Moves on one heap, checked like [`heap_moves`](Self::heap_moves) but not memoized: for
    /// callers that keep their own compact copy (dense tables), so the memo does not double it.
    pub fn heap_moves_uncached(&self, heap: Heap) -> Result<Vec<HeapMove>> {
        let rules = self.rulesets.get(usize::from(heap.rules)).ok_or_else(|| {
            Error::invalid(format!(
                "heap {} refers to ruleset {}, which does not exist",
                heap.size, heap.rules
            ))
        })?;
        let moves = rules.heap_moves(heap.size);
        for m in &moves {
            let left: u64 = m.leaves.iter().map(|&l| u64::from(l)).sum();
            if left >= u64::from(heap.size) || m.leaves.contains(&0) {
                return Err(Error::invalid(format!(
                    "ruleset {}: a move on a heap of {} leaves heaps {:?}; moves must remove at least one bean and leave only non-empty heaps",
                    rules.name(),
                    heap.size,
                    m.leaves
                )));
            }
        }
        Ok(moves)
    }

    /// The canonical position of a list of heaps.
    pub fn canonical(&self, heaps: &[Heap]) -> Result<Position> {
        let mut live = Vec::with_capacity(heaps.len());
        for &h in heaps {
            if h.size > 0 && !self.heap_moves(h)?.is_empty() {
                live.push(h);
            }
        }
        live.sort_unstable_by(|a, b| b.cmp(a));
        Ok(Position(live))
    }

    /// Canonical successors of a canonical position, with the points of each move. Moves on equal
    /// heaps are listed once.
    pub fn successors(&self, pos: &Position) -> Result<Vec<(Q, Position)>> {
        let heaps = pos.heaps();
        let mut out = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == h {
                continue;
            }
            for m in self.heap_moves(h)?.iter() {
                let mut next: Vec<Heap> = Vec::with_capacity(heaps.len() + m.leaves.len());
                next.extend_from_slice(&heaps[..i]);
                next.extend(m.leaves.iter().map(|&size| Heap {
                    size,
                    rules: h.rules,
                }));
                next.extend_from_slice(&heaps[i + 1..]);
                out.push((m.points.clone(), self.canonical(&next)?));
            }
        }
        Ok(out)
    }

    /// All moves from an ordered position; moves reaching the same canonical position with the
    /// same points are listed once (the first slot wins).
    pub fn moves(&self, heaps: &[Heap]) -> Result<Vec<Move>> {
        let mut out: Vec<Move> = Vec::new();
        let mut seen = Vec::new();
        for (slot, &h) in heaps.iter().enumerate() {
            if h.size == 0 {
                continue;
            }
            for m in self.heap_moves(h)?.iter() {
                let mut next: Vec<Heap> = Vec::with_capacity(heaps.len() + m.leaves.len());
                next.extend_from_slice(&heaps[..slot]);
                if m.leaves.is_empty() {
                    next.push(Heap {
                        size: 0,
                        rules: h.rules,
                    });
                }
                next.extend(m.leaves.iter().map(|&size| Heap {
                    size,
                    rules: h.rules,
                }));
                next.extend_from_slice(&heaps[slot + 1..]);
                let key = (self.canonical(&next)?, m.points.clone());
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let taken = u64::from(h.size) - m.leaves.iter().map(|&l| u64::from(l)).sum::<u64>();
                out.push(Move {
                    slot,
                    taken,
                    points: m.points.clone(),
                    result: Ordered(next),
                });
            }
        }
        Ok(out)
    }

    /// A short description of the rulesets, for provenance.
    pub fn describe(&self) -> String {
        self.rulesets.iter().map(|r| r.name()).join(" + ")
    }
}
