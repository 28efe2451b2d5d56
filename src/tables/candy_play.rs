//! One Candy Nim position as tables: its value with an optimal line, a named strategy's play
//! against the optimum, and the allocations of N candies. `nimlab candy value|strategy|allocate`
//! print these and the Python package returns them, so both show the same columns and values.
//!
//! V = N_L − N_W, where N_L (N_W) is what Luca (Windsor) takes when both play optimally: Luca,
//! the loser of the underlying Nim game, maximises V and Windsor minimises it, and N_L + N_W is
//! the total. An optimal line follows one optimal move at every turn.

use crate::export::{Cell, Table};
use crate::games::candy::{
    Allocation, Candies, CandyPly, CandyValue, Role, Strategy, StrategyPlay, nim_sum, role, show,
    total,
};

/// The columns of a position's value.
pub const VALUE_COLUMNS: [&str; 7] = [
    "position", "to_move", "candies", "nim_sum", "v", "n_l", "n_w",
];

/// The columns of an optimal line's plies (heaps numbered from 1, running totals).
pub const LINE_COLUMNS: [&str; 7] = [
    "ply",
    "player",
    "heap",
    "taken",
    "after",
    "luca_total",
    "windsor_total",
];

/// The columns of a strategy's turns (G, G′, G″ of §4).
pub const TURN_COLUMNS: [&str; 8] = [
    "turn",
    "before",
    "after_luca",
    "after_windsor",
    "luca_took",
    "windsor_took",
    "turn_value",
    "semiratio",
];

/// The columns of a strategy compared with the optimum.
pub const STRATEGY_COLUMNS: [&str; 6] = [
    "position",
    "strategy",
    "v_strategy",
    "v_optimal",
    "n_l_strategy",
    "n_l_optimal",
];

/// The largest N the allocations examine: the P-positions of N candies grow like the
/// partitions of N, and every one is solved.
pub const MAX_ALLOCATION: Candies = 100;

/// The columns of the allocations of N candies.
pub const ALLOCATION_COLUMNS: [&str; 5] = ["candies", "min_nw", "argmin", "max_nw", "argmax"];

/// The columns of the P-positions of `k` heaps: `h1`, …, `hk`, `v`, `n_l`, `n_w`.
pub fn p_position_columns(k: usize) -> Vec<String> {
    let mut columns: Vec<String> = (1..=k).map(|i| format!("h{i}")).collect();
    columns.extend(["v", "n_l", "n_w"].map(String::from));
    columns
}

/// A P-position with its value V (Luca to move) as a row under [`p_position_columns`].
pub fn p_position_row(p: &[Candies], v: i64) -> Vec<Cell> {
    let cv = CandyValue::from_v(v, total(p));
    let mut row: Vec<Cell> = p.iter().map(|&x| x.into()).collect();
    row.extend([Cell::Int(cv.v), cv.n_l.into(), cv.n_w.into()]);
    row
}

/// Heaps as a cell: `[3,2,1]` in text and CSV (as positions are shown), an array in JSON.
pub fn heaps_cell(heaps: &[Candies]) -> Cell {
    Cell::list("[", ",", "]", heaps.iter().copied())
}

/// The value of `heaps` as one row under [`VALUE_COLUMNS`].
pub fn value_table(heaps: &[Candies], v: &CandyValue) -> Table {
    Table::record(
        &VALUE_COLUMNS,
        vec![
            heaps_cell(heaps),
            role(heaps).to_string().into(),
            total(heaps).into(),
            nim_sum(heaps).into(),
            Cell::Int(v.v),
            v.n_l.into(),
            v.n_w.into(),
        ],
    )
}

/// An optimal line under [`LINE_COLUMNS`], each ply with the running totals.
pub fn line_table(line: &[CandyPly]) -> Table {
    let mut t = Table::new(&LINE_COLUMNS);
    let (mut luca, mut windsor) = (0u64, 0u64);
    for (i, p) in line.iter().enumerate() {
        match p.player {
            Role::Luca => luca += u64::from(p.taken),
            Role::Windsor => windsor += u64::from(p.taken),
        }
        t.push(vec![
            (i as u64 + 1).into(),
            p.player.to_string().into(),
            (p.heap as u64 + 1).into(),
            p.taken.into(),
            heaps_cell(&p.after),
            luca.into(),
            windsor.into(),
        ]);
    }
    t
}

/// The turns of a strategy's play under [`TURN_COLUMNS`].
pub fn turns_table(play: &StrategyPlay) -> Table {
    let mut t = Table::new(&TURN_COLUMNS);
    for (i, turn) in play.turns.iter().enumerate() {
        t.push(vec![
            (i as u64 + 1).into(),
            heaps_cell(&turn.before),
            heaps_cell(&turn.after_luca),
            heaps_cell(&turn.after_windsor),
            turn.luca_took.into(),
            turn.windsor_took.into(),
            Cell::Int(turn.value),
            turn.semiratio.clone().into(),
        ]);
    }
    t
}

/// A strategy's value from `heaps` against the optimum, as one row under
/// [`STRATEGY_COLUMNS`].
pub fn strategy_table(
    heaps: &[Candies],
    strategy: &Strategy,
    play: &StrategyPlay,
    optimum: &CandyValue,
) -> Table {
    Table::record(
        &STRATEGY_COLUMNS,
        vec![
            heaps_cell(heaps),
            strategy.to_string().into(),
            Cell::Int(play.value),
            Cell::Int(optimum.v),
            CandyValue::from_v(play.value, total(heaps)).n_l.into(),
            optimum.n_l.into(),
        ],
    )
}

/// One even N's allocation as a row under [`ALLOCATION_COLUMNS`]: the least and largest N_W
/// over the P-positions of N candies with the arrangements attaining them (at most `shown` of
/// each listed, then a count).
pub fn allocation_row(r: &Allocation, shown: usize) -> Vec<Cell> {
    let arrangements = |v: &[Vec<Candies>]| -> Cell {
        if v.len() > shown {
            let head: Vec<String> = v.iter().take(shown).map(|p| show(p)).collect();
            format!("{};… ({} in all)", head.join(";"), v.len()).into()
        } else {
            Cell::list("", ";", "", v.iter().map(|p| heaps_cell(p)))
        }
    };
    vec![
        r.candies.into(),
        r.min_nw.into(),
        arrangements(&r.argmin),
        r.max_nw.into(),
        arrangements(&r.argmax),
    ]
}

/// The allocations of several N, every arrangement listed, under [`ALLOCATION_COLUMNS`].
pub fn allocation_table(rows: &[Allocation]) -> Table {
    let mut t = Table::new(&ALLOCATION_COLUMNS);
    for r in rows {
        t.push(allocation_row(r, usize::MAX));
    }
    t
}
