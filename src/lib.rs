//! nimlab — exact values, closed forms and verdicts for scoring variants of Nim.
//!
//! Data flows one way through the layers:
//!
//! - [`num`]: exact rationals ([`Q`]), piecewise-linear functions ([`Pwl`]) and ranges;
//! - [`games`]: engines that compute exact values — [`games::scoring`] is the one scoring engine
//!   for Scoring Nim and Stewart's scoring octal games, with the bonus N symbolic;
//! - [`family`]: positions whose heaps are affine in parameters, such as (2k+1, 2k, 1);
//! - [`miner`]: periods (proven by window arguments, or observed) of generic sequences;
//! - [`export`]: generic tables rendered as text, CSV or JSON (pure functions to bytes);
//! - [`cli`]: the `nimlab` command line on top.

pub mod cli;
pub mod error;
pub mod export;
pub mod family;
pub mod games;
pub mod miner;
pub mod num;

pub use error::{Error, Result};
pub use num::{Pwl, Q};
