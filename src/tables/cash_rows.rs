//! NIM with Cash's long tables, as `nimlab cash thresholds` and `nimlab cash table` print them:
//! rows produced one at a time (millions of thresholds are streamed, never held as text).
//! Threshold rows are [`threshold_row`](super::cash::threshold_row) and, when the win table is
//! given, the true least thresholds found in it; state rows list every (n; d, e) with its winner.

use crate::export::{Cell, RowEncoder};
use crate::games::cash::{Amount, CashSet, CashTable, Thresholds, Winner, least_thresholds};

use super::cash::{THRESHOLD_COLUMNS, threshold_row};

/// The columns of the least thresholds, after [`THRESHOLD_COLUMNS`].
pub const LEAST_COLUMNS: [&str; 2] = ["least_f1", "least_f2"];

/// The columns of [`state_rows`].
pub const STATE_COLUMNS: [&str; 4] = ["n", "d", "e", "winner"];

/// The columns of [`threshold_rows`]: [`THRESHOLD_COLUMNS`], then [`LEAST_COLUMNS`] when the win
/// table is searched.
pub fn threshold_columns(least: bool) -> Vec<String> {
    let mut columns: Vec<String> = THRESHOLD_COLUMNS.map(String::from).to_vec();
    if least {
        columns.extend(LEAST_COLUMNS.map(String::from));
    }
    columns
}

/// The thresholds for n = 0..=`max_n`, one row each, with the true least thresholds read off
/// `table` when given (an empty cell where no amount suffices).
///
/// # Panics
/// When `th` or `table` does not reach `max_n`.
pub fn threshold_rows<'a>(
    set: &'a CashSet,
    th: &'a Thresholds,
    table: Option<&'a CashTable>,
    max_n: Amount,
) -> impl Iterator<Item = Vec<Cell>> + 'a {
    (0..=max_n).map(move |k| {
        let mut row = threshold_row(set, th, k);
        if let Some(t) = table {
            let m = usize::try_from(k).expect("k is within the thresholds computed");
            let (l1, l2) = least_thresholds(t, k, th.winner[m]).expect("k ≤ the table's max_n");
            row.extend([
                l1.map_or(Cell::Text(String::new()), |v| least_cell(v, k)),
                least_cell(l2, k),
            ]);
        }
        row
    })
}

/// A least threshold, or empty when no amount suffices (n + 1 means "never").
fn least_cell(v: Amount, n: Amount) -> Cell {
    if v > n {
        Cell::Text(String::new())
    } else {
        v.into()
    }
}

/// Every state (n; d, e) with n, d, e ≤ the table's max_n and its winner, n slowest.
pub fn state_rows(t: &CashTable) -> impl Iterator<Item = Vec<Cell>> + '_ {
    let n = t.max_n();
    (0..=n).flat_map(move |k| {
        (0..=n).flat_map(move |d| {
            (0..=n).map(move |e| {
                let w = t.winner(k, d, e).expect("k ≤ max_n");
                vec![k.into(), d.into(), e.into(), w.to_string().into()]
            })
        })
    })
}

/// The (n, d) pairs of [`state_rows`] in order; each stands for the rows of every e.
pub fn state_row_groups(t: &CashTable) -> impl Iterator<Item = (Amount, Amount)> + use<> {
    let n = t.max_n();
    (0..=n).flat_map(move |k| (0..=n).map(move |d| (k, d)))
}

/// The rows of [`state_rows`] with `n` stones and `d` dollars (every e, in order), encoded
/// straight from the table's integers: no cell or string per row.
///
/// # Panics
/// When `n` is beyond the table's max_n.
pub fn encode_state_rows(t: &CashTable, n: Amount, d: Amount, out: &mut RowEncoder) {
    // CSV, the format of the longest tables: "n,d," is written once, then e and the winner.
    let csv = out.plain_csv_rows(|bytes| {
        let mut lead = Vec::with_capacity(48);
        let mut digits = itoa::Buffer::new();
        for v in [n, d] {
            lead.extend_from_slice(digits.format(v).as_bytes());
            lead.push(b',');
        }
        for e in 0..=t.max_n() {
            bytes.extend_from_slice(&lead);
            bytes.extend_from_slice(digits.format(e).as_bytes());
            bytes.extend_from_slice(match t.winner(n, d, e).expect("n ≤ max_n") {
                Winner::I => b",I\n",
                Winner::II => b",II\n",
            });
        }
        t.max_n() + 1
    });
    if csv {
        return;
    }
    for e in 0..=t.max_n() {
        let winner = match t.winner(n, d, e).expect("n ≤ max_n") {
            Winner::I => "I",
            Winner::II => "II",
        };
        out.uint(n);
        out.uint(d);
        out.uint(e);
        out.text(winner);
        out.end_row();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cash::{cash_winner_naive, thresholds};

    #[test]
    fn state_rows_agree_with_the_naive_winner() {
        let set: CashSet = "1,3,4".parse().unwrap();
        let t = CashTable::solve(&set, 6, 1 << 20).unwrap();
        let rows: Vec<Vec<Cell>> = state_rows(&t).collect();
        assert_eq!(rows.len(), 7 * 7 * 7);
        for row in rows {
            let [Cell::Int(n), Cell::Int(d), Cell::Int(e), Cell::Text(w)] = &row[..] else {
                panic!("{row:?}");
            };
            let naive = cash_winner_naive(&set, *n as u64, *d as u64, *e as u64);
            assert_eq!(*w, naive.to_string());
        }
    }

    #[test]
    fn encoded_state_rows_are_the_cells_rendered_in_every_format() {
        let set: CashSet = "3,5,6,10,11".parse().unwrap();
        // Up to 12: one- and two-digit amounts in every row position.
        let t = CashTable::solve(&set, 12, 1 << 20).unwrap();
        let columns: Vec<String> = STATE_COLUMNS.map(String::from).to_vec();
        for format in crate::export::Format::ALL {
            let mut held = Vec::new();
            crate::export::reference::write_rows(format, &columns, state_rows(&t), &mut held)
                .unwrap();
            let mut out = Vec::new();
            let mut writer = crate::export::TableWriter::new(format, &columns, &mut out).unwrap();
            crate::export::write_rows_parallel(
                &mut writer,
                state_row_groups(&t),
                7,
                |&(n, d), e| encode_state_rows(&t, n, d, e),
            )
            .unwrap();
            writer.finish().unwrap();
            assert_eq!(out, held, "{}", format.name());
        }
    }

    #[test]
    fn least_thresholds_are_searched_only_with_the_table() {
        let set: CashSet = "1,4".parse().unwrap();
        let th = thresholds(&set, 12).unwrap();
        let t = CashTable::solve(&set, 12, 1 << 20).unwrap();
        let plain: Vec<_> = threshold_rows(&set, &th, None, 12).collect();
        let least: Vec<_> = threshold_rows(&set, &th, Some(&t), 12).collect();
        assert_eq!(plain.len(), 13);
        assert_eq!(plain[5].len(), threshold_columns(false).len());
        assert_eq!(least[5].len(), threshold_columns(true).len());
        assert_eq!(least[5][..6], plain[5][..]);
    }
}
