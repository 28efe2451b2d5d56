//! The normal-play shadow of a scoring ruleset, and when it decides the scoring game.
//!
//! If every move of every heap in play scores the same c, the final score difference is c·(moves
//! by the first player − moves by the second) plus N for the last mover, so it only depends on
//! the parity of the number of moves M: the first player gets c + N when M is odd and −N when M
//! is even (M = 0 included). When c + 2N > 0 the first player wants to move last — normal play —
//! so f_N = c + N exactly when the Sprague–Grundy value g(p) = ⊕ g(heap) is non-zero, else −N.
//! Stewart's (3333, 2222) is this case: G_s(n) = 2·[n mod 5 ≠ 0].

use super::position::{Heap, ScoringGame};
use super::ruleset::HeapSize;
use crate::error::{Error, Result};
use crate::num::Q;

/// Sprague–Grundy values g(0..=max_n) of single heaps under ruleset `rules` (normal play).
pub fn grundy_values(game: &ScoringGame, rules: u16, max_n: HeapSize) -> Result<Vec<u32>> {
    let ruleset = game
        .rulesets()
        .get(usize::from(rules))
        .ok_or_else(|| Error::invalid(format!("ruleset {} does not exist", rules + 1)))?;
    let mut g: Vec<u32> = Vec::with_capacity(max_n as usize + 1);
    let mut seen: Vec<bool> = Vec::new();
    for n in 0..=max_n {
        seen.clear();
        // Moves are read from the ruleset directly: caching every large heap's moves would cost
        // more memory than the values.
        for m in ruleset.heap_moves(n) {
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
        g.push(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32);
    }
    Ok(g)
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
