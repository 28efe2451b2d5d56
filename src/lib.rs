#![deny(rustdoc::broken_intra_doc_links)]
//! nimlab — exact values, closed forms and verdicts for scoring variants of Nim.
//!
//! Modules, from the bottom up (each uses only those above it):
//!
//! - [`num`]: exact rationals ([`Q`]), piecewise-linear functions ([`Pwl`]) and ranges;
//! - [`progress`]: how long work reports how far it is ([`progress::Progress`]; a front end
//!   shows it, [`progress::Silent`] ignores it);
//! - [`miner`]: generic pattern finding on sequences of exact values — least periods (proven by
//!   window arguments or observed), periodic-linear closed forms (also along one-parameter
//!   families), and certificates that prove them against a min/max-plus recurrence. It knows no
//!   game; callers describe the recurrence;
//! - [`games`]: the engines — [`games::scoring`] (Scoring Nim and Stewart's octal games, bonus N
//!   symbolic), [`games::candy`] (Candy Nim) and [`games::cash`] (NIM with Cash) — which call
//!   the miner to prove what their data shows;
//! - [`family`]: positions whose heaps are affine in parameters, such as (2k+1, 2k, 1);
//! - [`claims`]: claim files, an exact expression language and verdicts with evidence;
//! - [`fsio`]: file output that never clobbers what is not ours (atomic replace, devices written
//!   through, symlinks followed, `-` for stdio) and the cleanup of temporaries on a signal;
//! - [`export`]: generic tables rendered as text, CSV, JSON or Markdown (pure functions to bytes);
//! - [`tables`]: the typed tables every front end shares (family tables with their payoffs and
//!   values, cash thresholds, certified and mined closed forms, mined forms re-verified);
//! - [`report`]: research reports (Markdown, LaTeX, CSV, SVG) rendered from templates, generic;
//! - [`papers`]: the four papers' reports as data (tables, figures, verdicts, mined closed forms)
//!   for [`report`];
//! - `cli`: the `nimlab` command line on top, behind the `cli` feature (on by default). Without
//!   it the library builds with none of the command line's dependencies (clap, indicatif,
//!   anyhow): `cargo build --lib --no-default-features`.

pub mod claims;
#[cfg(feature = "cli")]
pub mod cli;
pub mod error;
pub mod export;
pub mod family;
pub mod fsio;
pub mod games;
pub mod miner;
pub mod num;
pub mod papers;
pub mod progress;
pub mod report;
pub mod tables;

pub use error::{Error, Result};
pub use num::{Pwl, Q};
