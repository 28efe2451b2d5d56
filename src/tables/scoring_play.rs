//! One Scoring Nim position as tables: its payoff's pieces, its optimal moves (at one bonus N,
//! or as regions of N), an optimal line of play and its tail constants. `nimlab scoring
//! payoff|moves|line|limits` print these tables and the Python package returns them, so both
//! front ends show the same columns and the same exact values.
//!
//! A move's value at N is `points − f_N(result)`: the mover scores the points now and the
//! opponent then moves first in the result. The optimal moves at N are those of largest value,
//! and f_N of the position is that largest value (0 when no move is left).

use crate::error::Result;
use crate::export::{Cell, Table};
use crate::games::scoring::{
    HeapSize, Interval, Line, Ordered, Solution, candidates, in_p_minus, in_p_plus, nim_heaps,
    nim_sum, optimal_move_regions, tails, values_at,
};
use crate::num::{Pwl, Q};

/// The columns of a payoff's pieces: f = intercept + slope·N on [lo, hi] (ends `None` at ∓∞).
pub const PIECE_COLUMNS: [&str; 4] = ["lo", "hi", "slope", "intercept"];

/// The columns of the moves at one bonus N.
pub const MOVES_AT_COLUMNS: [&str; 5] = ["to", "taken", "points", "value", "optimal"];

/// The columns of the optimal moves by region of N.
pub const MOVE_REGION_COLUMNS: [&str; 6] =
    ["interval", "lo", "lo_closed", "hi", "hi_closed", "moves"];

/// The columns of an optimal line's plies.
pub const PLY_COLUMNS: [&str; 7] = [
    "ply",
    "player",
    "from",
    "to",
    "taken",
    "points",
    "payoff_before",
];

/// The columns of a line's totals (its plies nested in the last).
pub const LINE_COLUMNS: [&str; 5] = ["bonus", "first_score", "second_score", "payoff", "plies"];

/// The columns of a position's tail constants.
pub const LIMIT_COLUMNS: [&str; 11] = [
    "position",
    "stones",
    "nim_sum",
    "in_p_plus",
    "in_p_minus",
    "c_plus",
    "right_slope",
    "c_minus",
    "left_slope",
    "first_breakpoint",
    "last_breakpoint",
];

/// A position as a cell: `(5,4,2)` in text and CSV, `[5,4,2]` in JSON.
pub fn position_cell(heaps: &[HeapSize]) -> Cell {
    Cell::list("(", ",", ")", heaps.iter().copied())
}

/// A position reached by play as a cell, like [`position_cell`]. Scoring Nim has one ruleset; a
/// heap under another one (`5@1`) keeps its text, so nothing is dropped.
pub fn ordered_cell(p: &Ordered) -> Cell {
    if p.0.iter().all(|h| h.rules == 0) {
        Cell::list("(", ",", ")", p.0.iter().map(|h| h.size))
    } else {
        p.to_string().into()
    }
}

/// The closed interval [lo, hi] of a piece, open at an infinite end.
pub fn piece_interval(lo: Option<Q>, hi: Option<Q>) -> Interval {
    Interval {
        lo_closed: lo.is_some(),
        lo,
        hi_closed: hi.is_some(),
        hi,
    }
}

/// The pieces of `f`, left to right, under [`PIECE_COLUMNS`].
pub fn pieces_table(f: &Pwl) -> Table {
    let mut t = Table::new(&PIECE_COLUMNS);
    for p in f.pieces() {
        t.push(vec![
            p.lo.into(),
            p.hi.into(),
            p.slope.into(),
            p.intercept.into(),
        ]);
    }
    t
}

/// Every move from `heaps` at bonus `n` with its value (only the optimal ones unless `all`),
/// under [`MOVES_AT_COLUMNS`].
pub fn moves_at_table(sol: &Solution, heaps: &[HeapSize], n: &Q, all: bool) -> Result<Table> {
    let mut t = Table::new(&MOVES_AT_COLUMNS);
    for (mv, value, optimal) in values_at(sol, &nim_heaps(heaps), n)? {
        if optimal || all {
            t.push(vec![
                ordered_cell(&mv.result),
                mv.taken.into(),
                mv.points.into(),
                value.into(),
                optimal.into(),
            ]);
        }
    }
    Ok(t)
}

/// The optimal moves from `heaps` for every bonus N, as the intervals of N on which the set of
/// optimal moves is constant, under [`MOVE_REGION_COLUMNS`] (no rows when no move is left).
pub fn move_regions_table(sol: &Solution, heaps: &[HeapSize]) -> Result<Table> {
    let cands = candidates(sol, &nim_heaps(heaps))?;
    let mut t = Table::new(&MOVE_REGION_COLUMNS);
    for r in &optimal_move_regions(&cands) {
        let moves = r.moves.iter().map(|&i| ordered_cell(&cands[i].mv.result));
        let iv = &r.interval;
        t.push(vec![
            iv.to_string().into(),
            iv.lo.clone().into(),
            iv.lo_closed.into(),
            iv.hi.clone().into(),
            iv.hi_closed.into(),
            Cell::list("", " ", "", moves),
        ]);
    }
    Ok(t)
}

/// The plies of an optimal line, under [`PLY_COLUMNS`] (odd plies are the first player's).
pub fn plies_table(line: &Line) -> Table {
    let mut t = Table::new(&PLY_COLUMNS);
    for p in &line.plies {
        let player = if p.ply % 2 == 1 { "first" } else { "second" };
        t.push(vec![
            Cell::Int(p.ply as i64),
            player.into(),
            ordered_cell(&p.from),
            ordered_cell(&p.to),
            p.taken.into(),
            p.points.clone().into(),
            p.payoff_before.clone().into(),
        ]);
    }
    t
}

/// An optimal line as one row under [`LINE_COLUMNS`]: its totals, the plies nested.
pub fn line_table(line: &Line) -> Table {
    Table::record(
        &LINE_COLUMNS,
        vec![
            line.bonus.clone().into(),
            line.first_score.clone().into(),
            line.second_score.clone().into(),
            line.payoff.clone().into(),
            plies_table(line).into_cell(),
        ],
    )
}

/// The tail constants of `f` = f_N(heaps) and the position's Nim data, as one row under
/// [`LIMIT_COLUMNS`].
pub fn limits_table(heaps: &[HeapSize], f: &Pwl) -> Table {
    let tl = tails(f);
    let stones: u64 = heaps.iter().map(|&h| u64::from(h)).sum();
    Table::record(
        &LIMIT_COLUMNS,
        vec![
            position_cell(heaps),
            stones.into(),
            nim_sum(heaps).into(),
            in_p_plus(heaps).into(),
            in_p_minus(heaps).into(),
            tl.c_plus.into(),
            tl.right_slope.into(),
            tl.c_minus.into(),
            tl.left_slope.into(),
            tl.first_breakpoint.into(),
            tl.last_breakpoint.into(),
        ],
    )
}
