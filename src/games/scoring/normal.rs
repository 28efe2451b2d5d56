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

/// Grundy values of an octal code straight from its digit bits, with no move lists: a breaking
/// digit gives heap n about n/2 moves, and listing them as [`super::HeapMove`]s (one allocation
/// each) made long sequences of codes such as 0.054 take minutes instead of seconds.
///
/// Every option of heap n is a XOR of earlier values, all below the next power of two `full`
/// above the largest value so far; once all `full` of them are seen the mex is `full` and the
/// remaining moves cannot change it, so the scan stops early (most heaps of a breaking game).
fn octal_grundy_values(rules: &OctalRules, max_n: HeapSize, progress: &dyn Progress) -> Vec<u32> {
    let digits = rules.digits();
    // The moves of heap n grow at most linearly in n: the trapezoid rule gives the total.
    let ends = rules.move_count(0) + rules.move_count(max_n);
    progress.start((u64::from(max_n) + 1) * ends / 2 + ends);
    let mut g: Vec<u32> = Vec::with_capacity(max_n as usize + 1);
    // seen[v] == n marks v as an option of heap n (no clearing between heaps); heaps are capped
    // far below u32::MAX, the initial mark.
    let mut seen: Vec<u32> = Vec::new();
    let mut largest = 0u32;
    let mut pending = 0u64;
    for n in 0..=max_n {
        let full = (largest + 1).next_power_of_two();
        if seen.len() < full as usize {
            seen.resize(full as usize, u32::MAX);
        }
        let mut distinct = 0u32;
        let mut mark = |v: u32| {
            if seen[v as usize] != n {
                seen[v as usize] = n;
                distinct += 1;
            }
            distinct == full
        };
        'moves: for (i, &t) in digits.iter().enumerate() {
            let take = i as HeapSize + 1;
            if take > n {
                break;
            }
            let rest = n - take;
            if t & 1 != 0 && rest == 0 && mark(0) {
                break 'moves;
            }
            if t & 2 != 0 && rest >= 1 && mark(g[rest as usize]) {
                break 'moves;
            }
            if t & 4 != 0 && rest >= 2 {
                for b in 1..=rest / 2 {
                    if mark(g[(rest - b) as usize] ^ g[b as usize]) {
                        break 'moves;
                    }
                }
            }
        }
        let mex = seen[..full as usize]
            .iter()
            .position(|&s| s != n)
            .unwrap_or(full as usize) as u32;
        largest = largest.max(mex);
        g.push(mex);
        pending += rules.move_count(n);
        if pending >= 1 << 22 || n == max_n {
            progress.advance(pending);
            pending = 0;
        }
    }
    g
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
