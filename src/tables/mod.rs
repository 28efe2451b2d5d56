//! The tables every front end shares: what `nimlab` prints and what the reports show are the
//! same rows, built here once from the engines' typed results.
//!
//! - [`scoring`]: a family of Scoring Nim positions with their exact payoffs (a [`crate::Pwl`]
//!   each, or the values on a bonus grid), and the cost of computing it;
//! - [`scoring_play`]: one Scoring Nim position's payoff pieces, optimal moves, optimal line and
//!   tail constants;
//! - [`candy`]: a family of Candy Nim positions with V, N_L and N_W; [`candy_play`]: one
//!   position's value with its optimal line, a strategy against the optimum, the P-positions
//!   of k heaps and the allocations of N candies;
//! - [`cash`]: NIM with Cash's thresholds f and g, the certified closed forms of f^I and f^II,
//!   the proven win condition on A-critical states and a state's decision; [`cash_rows`]: the
//!   long threshold and state tables streamed row by row; [`cash_survey`]: every move set
//!   A ⊆ {lo..hi} with its plain period, whether it is cash-periodic, its certified forms and
//!   its win condition; [`cash_across`]: a family of move sets A(L)
//!   with each member's certified forms summarized, for the fit across L;
//! - [`octal`]: the value sequence of a scoring octal game, its period, and a take-and-break
//!   code's normal-play period;
//! - [`across`]: the second-level analysis across a family's parameter as formulas and rows;
//! - [`mined`]: the miner's closed forms as tables (along a family, over a grid of parameters,
//!   of an eventually periodic sequence), mined from the typed family tables, and a mined form
//!   re-verified by the claims checker as a claim built from values (no claim text).
//!
//! A typed table keeps its values (integers, exact rationals, piecewise-linear functions) until
//! output: the miner reads them as they are, and [`crate::export::Table`] renders them as text,
//! CSV, JSON or Markdown only when printed.

pub mod across;
pub mod candy;
pub mod candy_play;
pub mod cash;
pub mod cash_across;
pub mod cash_rows;
pub mod cash_survey;
pub mod mined;
pub mod octal;
pub mod scoring;
pub mod scoring_play;
