//! Exact numbers: rationals, piecewise-linear functions of one rational variable, and ranges.
//!
//! This is the bottom layer: it knows nothing about games.

mod pwl;
mod range;
mod rational;
mod whole;

pub use pwl::line_formula;
pub use pwl::{Piece, Pwl, PwlError};
pub use range::{IntRange, ParseRangeError, QRange, last_fitting};
pub use rational::{ParseQError, Q, common_denominator};
pub use whole::{WholeError, cut_text, excerpt, parse_whole};
