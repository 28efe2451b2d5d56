//! The value sequence of a scoring octal game, `nimlab octal values`: G(n) (with fixed heaps
//! added, at a bonus N) for n = 0..=max_heap, computed by [`HeapSequence`] after its cost
//! estimate, under the columns [`VALUE_COLUMNS`].

use itertools::Itertools;

use crate::error::Result;
use crate::export::{Cell, Table};
use crate::games::normal_play::{GrundyPeriod, NormalPeriod, TakeBreakCode};
use crate::games::scoring::{
    Heap, HeapSequence, HeapSize, Limits, Outcome, PeriodReport, ScoringGame,
};
use crate::miner::PeriodStatus;
use crate::num::{Pwl, Q};
use crate::progress::Progress;

/// The columns of [`values_table`]: the heap size n and the value.
pub const VALUE_COLUMNS: [&str; 2] = ["n", "value"];

/// The values a(0..=max_heap) of `seq`, one row per heap size; refused before any work when the
/// estimate exceeds `limits`.
pub fn values_table(
    seq: &HeapSequence,
    max_heap: HeapSize,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<Table> {
    let values = seq.values_reporting(max_heap, limits, progress)?;
    let mut t = Table::new(&VALUE_COLUMNS);
    for (n, x) in values.into_iter().enumerate() {
        t.push(vec![Cell::from(n), x.into()]);
    }
    Ok(t)
}

/// The columns of a scoring octal game's period (after its rules, heaps added and bonus).
pub const PERIOD_COLUMNS: [&str; 7] = [
    "preperiod",
    "period",
    "status",
    "window",
    "periods_seen",
    "terms",
    "argument",
];

/// A period report's cells under [`PERIOD_COLUMNS`].
pub fn period_cells(r: &PeriodReport) -> Vec<Cell> {
    let none = || Cell::Text(String::new());
    let (pre, per, status, window, seen) = match &r.periodicity {
        Some(p) => {
            let (status, window, seen) = match &p.status {
                PeriodStatus::Proven {
                    window_start,
                    window_len,
                } => {
                    let end = window_start + window_len - 1;
                    let window = Cell::record(
                        vec![("start", (*window_start).into()), ("end", end.into())],
                        format!("{window_start}..{end}"),
                    );
                    ("PROVEN", window, none())
                }
                PeriodStatus::Observed { periods_seen } => {
                    ("OBSERVED", none(), Cell::Int(*periods_seen as i64))
                }
            };
            (
                Cell::Int(p.preperiod as i64),
                Cell::Int(p.period as i64),
                status,
                window,
                seen,
            )
        }
        None => (none(), none(), "NONE", none(), none()),
    };
    vec![
        pre,
        per,
        status.into(),
        window,
        seen,
        Cell::Int(r.terms as i64),
        r.argument.clone().into(),
    ]
}

/// A scoring octal game's period as one row: its rules, the heaps added, the bonus, then
/// [`PERIOD_COLUMNS`].
pub fn period_table(rules: &str, plus: Cell, bonus: &Q, report: &PeriodReport) -> Table {
    let mut columns = vec!["rules", "plus", "bonus"];
    columns.extend(PERIOD_COLUMNS);
    let mut row: Vec<Cell> = vec![rules.into(), plus, bonus.clone().into()];
    row.extend(period_cells(report));
    Table::record(&columns, row)
}

/// The columns of `octal period --normal-play`.
pub const NORMAL_PERIOD_COLUMNS: [&str; 10] = [
    "code",
    "preperiod",
    "period",
    "saltus",
    "status",
    "window",
    "periods_seen",
    "last_exceptional",
    "terms",
    "argument",
];

/// An empty cell.
fn blank() -> Cell {
    Cell::Text(String::new())
}

/// The preperiod, period, saltus, status, window and periods seen of a normal-play period.
pub fn normal_period_cells(r: &NormalPeriod) -> [Cell; 6] {
    match &r.shape {
        GrundyPeriod::Periodic(p) => {
            let (status, window, seen) = match p.status {
                PeriodStatus::Proven {
                    window_start,
                    window_len,
                } => {
                    let end = window_start + window_len - 1;
                    let window = Cell::record(
                        vec![("start", window_start.into()), ("end", end.into())],
                        format!("{window_start}..{end}"),
                    );
                    ("PROVEN", window, blank())
                }
                PeriodStatus::Observed { periods_seen } => {
                    ("OBSERVED", blank(), Cell::from(periods_seen))
                }
            };
            [
                p.preperiod.into(),
                p.period.into(),
                Cell::Int(0),
                status.into(),
                window,
                seen,
            ]
        }
        GrundyPeriod::ArithmeticPeriodic(ap) => [
            ap.preperiod.into(),
            ap.period.into(),
            Cell::from(ap.saltus as usize),
            "OBSERVED".into(),
            blank(),
            Cell::from(ap.periods_seen),
        ],
        GrundyPeriod::Unknown => [blank(), blank(), blank(), "NONE".into(), blank(), blank()],
    }
}

/// A take-and-break code's normal-play period as one row under [`NORMAL_PERIOD_COLUMNS`].
pub fn normal_period_table(code: &TakeBreakCode, r: &NormalPeriod) -> Table {
    let [pre, per, saltus, status, window, seen] = normal_period_cells(r);
    Table::record(
        &NORMAL_PERIOD_COLUMNS,
        vec![
            code.to_string().into(),
            pre,
            per,
            saltus,
            status,
            window,
            seen,
            r.last_exceptional().map_or_else(blank, Cell::from),
            r.terms.into(),
            r.argument.clone().into(),
        ],
    )
}

/// A position of a scoring octal game in words: `7 +ℓ 5 under 0.26` (heaps `n@i` under several
/// rulesets).
pub fn position_text(game: &ScoringGame, heaps: &[Heap]) -> String {
    let body = heaps
        .iter()
        .map(|h| {
            if game.rulesets().len() > 1 {
                format!("{}@{}", h.size, h.rules + 1)
            } else {
                h.size.to_string()
            }
        })
        .join(" +ℓ ");
    format!("{body} under {}", game.describe())
}

/// A position as a cell: its text (`7 +ℓ 5 under 0.26`), and in JSON its heaps (see
/// [`heaps_cell`]) and the game.
pub fn position_cell(game: &ScoringGame, heaps: &[Heap]) -> Cell {
    Cell::record(
        vec![
            ("heaps", heaps_cell(heaps)),
            ("game", game.describe().into()),
        ],
        position_text(game, heaps),
    )
}

/// Heaps as a cell: `3@1,4@2` in text, objects `{size, ruleset}` (rulesets from 1) in JSON.
pub fn heaps_cell(heaps: &[Heap]) -> Cell {
    let heaps = heaps.iter().map(|h| {
        let ruleset = u64::from(h.rules) + 1;
        Cell::record(
            vec![("size", h.size.into()), ("ruleset", ruleset.into())],
            format!("{}@{ruleset}", h.size),
        )
    });
    Cell::list("", ",", "", heaps)
}

/// The columns of a position's value (and its payoff's pieces when asked for).
pub const POSITION_VALUE_COLUMNS: [&str; 5] =
    ["position", "bonus", "value", "outcome", "positions_solved"];

/// A position's value G at bonus N as one row under [`POSITION_VALUE_COLUMNS`] (with the
/// outcome class on an empty scoreboard), and its payoff f_N as a function of N in a last
/// column `payoff` when given.
pub fn position_value_table(
    game: &ScoringGame,
    heaps: &[Heap],
    bonus: &Q,
    value: &Q,
    positions_solved: usize,
    payoff: Option<&Pwl>,
) -> Table {
    let (class, _, _) = Outcome::of_impartial(value, &Q::zero());
    let mut columns = POSITION_VALUE_COLUMNS.to_vec();
    let mut row: Vec<Cell> = vec![
        position_cell(game, heaps),
        bonus.clone().into(),
        value.clone().into(),
        class.to_string().into(),
        Cell::from(positions_solved),
    ];
    if let Some(f) = payoff {
        columns.push("payoff");
        row.push(Cell::from(f));
    }
    Table::record(&columns, row)
}

/// The columns of a position's outcome with a score on the board.
pub const OUTCOME_COLUMNS: [&str; 7] = [
    "position",
    "score",
    "bonus",
    "value",
    "left_final",
    "right_final",
    "outcome",
];

/// The outcome of a position of value G with `score` already on the board (Stewart's
/// classes L, R, N, P, T): the final scores when Left or Right moves first, as one row under
/// [`OUTCOME_COLUMNS`].
pub fn outcome_table(game: &ScoringGame, heaps: &[Heap], score: &Q, bonus: &Q, value: &Q) -> Table {
    let (class, left, right) = Outcome::of_impartial(value, score);
    Table::record(
        &OUTCOME_COLUMNS,
        vec![
            position_cell(game, heaps),
            score.clone().into(),
            bonus.clone().into(),
            value.clone().into(),
            left.into(),
            right.into(),
            class.to_string().into(),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoring::{OctalRules, ScoringGame};
    use crate::num::Q;
    use crate::progress::Silent;
    use std::sync::Arc;

    #[test]
    fn rows_list_each_heap_with_its_value() {
        let game = ScoringGame::new(vec![Arc::new(
            OctalRules::subtraction(&[4, 5], None).unwrap(),
        )]);
        let seq = HeapSequence::new(&game, 0, &[], Q::zero()).unwrap();
        let limits = Limits { max_bytes: 1 << 30 };
        let t = values_table(&seq, 15, &limits, &Silent).unwrap();
        assert_eq!(t.columns, VALUE_COLUMNS);
        assert_eq!(t.rows.len(), 16);
        let direct = seq.values_reporting(15, &limits, &Silent).unwrap();
        for (n, row) in t.rows.iter().enumerate() {
            assert_eq!(row[0], Cell::from(n));
            assert_eq!(row[1], Cell::from(direct[n].clone()));
        }
    }
}
