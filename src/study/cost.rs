//! What a study's computations will cost, from their parameters alone, before any work: peak
//! bytes (refused above the memory budget) and work units (positions, moves or recurrence steps:
//! a size to compare, not a time). Each kind reuses the estimator its command's own guard uses,
//! so a study is refused exactly where the command would be.

use serde::Serialize;

use super::compute::{TableSpec, candy_hull, octal_sequence};
use crate::error::Result;
use crate::games::candy::TableShape;
use crate::games::cash::{Amount, across_start_data, threshold_bytes};
use crate::games::scoring::{nim_heaps, scoring_nim, solve_cost};
use crate::tables::cash_survey::survey_cost;
use crate::tables::scoring::family_cost;

/// Bytes one held table cell costs (a rational is two big integers on the heap).
const CELL_BYTES: u64 = 192;

/// Bytes per entry of the cash win table (its thresholds are `u32`).
const CASH_TABLE_ENTRY: u64 = 4;

/// A computation's estimated peak memory and work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cost {
    /// Peak bytes (saturating).
    pub bytes: u64,
    /// Work units (saturating).
    pub work: u64,
    /// Rows of the table.
    pub rows: u64,
}

/// Bytes of the cash win table for n ≤ `max_n`: one entry per (n, d) with d ≤ n.
fn cash_table_bytes(max_n: Amount) -> u64 {
    (max_n.saturating_add(1)).saturating_mul(max_n.saturating_add(2)) / 2 * CASH_TABLE_ENTRY
}

impl TableSpec {
    /// The estimated cost of [`TableSpec::compute`], from the parameters alone.
    pub fn cost(&self) -> Result<Cost> {
        let columns = self.columns().len() as u64;
        let held = |rows: u64| rows.saturating_mul(columns).saturating_mul(CELL_BYTES);
        Ok(match self {
            TableSpec::ScoringPayoff {
                positions,
                grid,
                method,
            } => {
                let roots: Vec<_> = positions.iter().map(|p| nim_heaps(p)).collect();
                let solve = solve_cost(&scoring_nim(), &roots, *method)
                    .expect("Nim never splits and bounds its moves");
                let rows =
                    (positions.len() as u64).saturating_mul(grid.as_ref().map_or(1, |g| g.len()));
                Cost {
                    bytes: solve.bytes.saturating_add(held(rows)),
                    work: solve.edges,
                    rows,
                }
            }
            TableSpec::ScoringFamily {
                family,
                ranges,
                grid,
                method,
            } => {
                let (bytes, rows) = family_cost(family, ranges, grid.as_ref(), *method)?;
                let mut hull = family.heap_maxima(ranges)?;
                hull.sort_unstable_by(|x, y| y.cmp(x));
                let work = solve_cost(&scoring_nim(), &[nim_heaps(&hull)], *method)
                    .map_or(u64::MAX, |c| c.edges);
                Cost { bytes, work, rows }
            }
            TableSpec::OctalValues {
                rules,
                max_heap,
                bonus,
            } => {
                let seq = octal_sequence(rules, bonus)?;
                let cost = seq.cost(*max_heap);
                let rows = u64::from(*max_heap) + 1;
                Cost {
                    bytes: cost.bytes.saturating_add(held(rows)),
                    work: cost.moves,
                    rows,
                }
            }
            TableSpec::CandyFamily { family, ranges } => {
                let rows = family.member_count(ranges)?;
                let shape = TableShape::covering(&[candy_hull(family, ranges)?])?;
                let table = u64::try_from(shape.bytes()).unwrap_or(u64::MAX);
                Cost {
                    bytes: table.saturating_add(held(rows)),
                    work: table / 4,
                    rows,
                }
            }
            TableSpec::CashThresholds {
                max_n,
                defined_only,
                ..
            } => {
                let rows = max_n.saturating_add(1);
                let th = u64::try_from(threshold_bytes(*max_n, false)).unwrap_or(u64::MAX);
                let table = if *defined_only {
                    0
                } else {
                    cash_table_bytes(*max_n)
                };
                Cost {
                    bytes: th.saturating_add(table).saturating_add(held(rows)),
                    work: rows.saturating_add(table),
                    rows,
                }
            }
            TableSpec::CashTable { max_n, .. } => {
                let rows = max_n.saturating_add(1).saturating_pow(3);
                let table = cash_table_bytes(*max_n);
                Cost {
                    bytes: table.saturating_add(held(rows)),
                    work: rows,
                    rows,
                }
            }
            TableSpec::CashSurvey {
                elements,
                sizes,
                max_n,
            } => {
                let (bytes, work) = survey_cost(*elements, *sizes, *max_n)?;
                let rows = crate::tables::cash_survey::survey_sets(*elements, *sizes)?.len() as u64;
                Cost {
                    bytes: bytes.saturating_add(held(rows)),
                    work,
                    rows,
                }
            }
            TableSpec::CashAcross {
                family,
                range,
                step,
            } => {
                // Each member is fitted on its start data (more only when its proof needs
                // it); max A is affine in the parameter, so the largest member is at an end.
                let data = |l: i64| -> Result<Amount> { Ok(across_start_data(&family.set_at(l)?)) };
                let largest = data(range.start())?.max(data(range.end())?);
                let rows =
                    u64::try_from((range.end() - range.start()) / step + 1).unwrap_or(u64::MAX);
                let bytes = u64::try_from(threshold_bytes(largest, true)).unwrap_or(u64::MAX);
                Cost {
                    bytes: bytes.saturating_add(held(rows)),
                    work: largest.saturating_mul(rows),
                    rows,
                }
            }
        })
    }
}
