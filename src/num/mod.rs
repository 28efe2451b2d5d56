//! Exact numbers: rationals, piecewise-linear functions of one rational variable, and ranges.
//!
//! This is the bottom layer: it knows nothing about games.

mod pwl;
mod range;
mod rational;
mod whole;

pub use pwl::{Piece, Pwl, PwlError};
pub use range::{IntRange, ParseRangeError, QRange};
pub use rational::{ParseQError, Q, common_denominator};
pub use whole::{WholeError, excerpt, parse_whole};
