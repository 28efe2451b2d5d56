//! The value sequence of a scoring octal game, `nimlab octal values`: G(n) (with fixed heaps
//! added, at a bonus N) for n = 0..=max_heap, computed by [`HeapSequence`] after its cost
//! estimate, under the columns [`VALUE_COLUMNS`].

use crate::error::Result;
use crate::export::{Cell, Table};
use crate::games::scoring::{HeapSequence, HeapSize, Limits};
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
