//! Claims and conjectures: every numbered claim of the four papers, and a researcher's own, as
//! entries of a TOML file, each checked by an exact expression or a named structural check and
//! given a verdict with its evidence (SPEC §5).
//!
//! - [`expr`]: the expression language's grammar and syntax tree;
//! - [`registry`]: claim files, read and checked; [`build`]: the same claims built as values;
//! - [`value`], [`eval`]: checking names, arities and kinds, then exact evaluation;
//! - [`functions`]: the functions expressions call, one file per game, registered in one place;
//! - [`cost`]: sizing a claim's work before it runs; `stage`: a check evaluated once per value
//!   of the variables each part depends on, not at every point; `narrow`: the values a
//!   filter's bounds exclude counted, not visited;
//! - [`induction`]: closed forms proven for every parameter by induction, each step an SMT query;
//! - [`engines`]: the caches of the game engines behind the functions;
//! - [`finding`]: typed findings (counterexamples, corrections, proofs, readings), their merge
//!   and their rendering; [`verdict`]: checking a claim into one.

pub mod build;
pub mod builtins;
pub mod cost;
pub mod engines;
pub mod eval;
pub mod expr;
pub mod finding;
pub mod functions;
pub mod induction;
mod narrow;
pub mod registry;
pub mod sketch;
mod stage;
pub mod typeset;
pub mod value;
pub mod verdict;

pub use build::ClaimBuilder;
pub use eval::evaluate;
pub use finding::{Finding, VerdictKind};
pub use registry::{Claim, Quantifiers, Registry};
pub use verdict::{
    check_claim, check_formula_rows, check_registries_progress, check_registry,
    check_registry_progress, estimate, plan,
};
