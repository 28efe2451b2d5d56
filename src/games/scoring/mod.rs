//! The scoring engine: one solver for every scoring ruleset on sums of heaps, with the bonus N
//! for the last move as a symbolic parameter.
//!
//! A game is a list of [`Ruleset`]s (Nim, subtraction sets, octal codes, …); a position is a
//! multiset of heaps, each following one of them (the long rule: play continues while any heap
//! can move). The payoff f_N(p) — mover's score minus the opponent's from p on, the last mover
//! receiving N — satisfies f(p) = −N without moves and f(p) = max (points − f(p′)) otherwise, and
//! is returned exactly as a [`crate::num::Pwl`] in N. N = 0 gives Stewart's G_s; N → ±∞ give
//! normal and misère play.

mod analysis;
mod grid;
mod nim;
mod normal;
mod octal;
mod outcome;
mod partition;
mod position;
mod ruleset;
mod running_min;
mod sequence;
mod solver;
mod survey;
mod table;

pub use analysis::{
    Candidate, Interval, Line, MoveRegion, Player, Ply, Tails, candidates, optimal_line,
    optimal_move_regions, tails, values_at,
};
pub use grid::{GRID_LIMIT, GridError, GridFn, GridSummary, SummaryParts};
pub use nim::{Nim, in_p_minus, in_p_plus, nim_sum};
pub use normal::{
    common_constant_points, grundy_values, grundy_values_reporting, octal_grundy_values,
    value_from_grundy,
};
pub use octal::{MAX_DIGITS, OctalRules, RulesError, parse_rules, parse_set};
pub use outcome::Outcome;
pub use partition::{PartitionIndex, solve_partition_values};
pub use position::{Heap, Move, Ordered, Position, RulesId, ScoringGame};
pub use ruleset::{HeapMove, HeapSize, Ruleset, UniformTail};
pub use sequence::{
    HeapSequence, PERIOD_SECONDS, PROGRESS_SECONDS, PeriodCertificate, PeriodProof, PeriodReport,
    Route, SequenceCost, SequenceState,
};
pub use solver::{
    Limits, Method, PayoffRef, Payoffs, Solution, SolveCost, ValueSolution, search_values, solve,
    solve_cost, solve_many, solve_many_reporting, solve_values, solve_values_reporting,
};
pub use survey::{
    Conjecture14Tally, MAX_SURVEY_WIDTH, SURVEY_CHUNK, SurveyRow, conjecture_14, subtraction_sets,
    survey_in_chunks, survey_items_in_chunks, survey_set, survey_size, survey_subtraction_games,
};
pub use table::{
    HeapTable, MAX_TABLE_HEAPS, TablePlan, TableSlab, largest_fitting_max_heap, solve_table,
    table_bytes, table_size,
};

/// Scoring Nim (Oginuma–Shinoda): Nim with one point per stone.
pub fn scoring_nim() -> ScoringGame {
    ScoringGame::single(Nim)
}

/// Nim heaps under ruleset 0.
pub fn nim_heaps(sizes: &[HeapSize]) -> Vec<Heap> {
    sizes.iter().map(|&s| Heap::new(s)).collect()
}
