//! Structural claims that the expression language cannot state ("Windsor's reply is unique",
//! "the period is proven"), each a named check written in Rust against the engines.
//!
//! A builtin receives its `args` table, the range text of the claim (`for` or `deep`) and
//! returns a [`Finding`]; it must never report more than it checked.

use super::verdict::{Finding, VerdictKind};
use crate::error::{Error, Result};

/// What a builtin is given.
pub struct BuiltinArgs<'a> {
    /// The claim's `args` table.
    pub args: &'a toml::Table,
    /// The claim's range text, when it has one.
    pub range: Option<&'a str>,
    /// Whether `--deep` is in force.
    pub deep: bool,
}

type BuiltinFn = fn(&BuiltinArgs<'_>) -> Result<Finding>;

/// The builtins: name, one-line description, check.
const BUILTINS: &[(&str, &str, BuiltinFn)] = &[];

/// Whether a builtin of this name exists.
pub fn exists(name: &str) -> bool {
    BUILTINS.iter().any(|b| b.0 == name)
}

/// (name, description) of every builtin, sorted by name.
pub fn list() -> Vec<(&'static str, &'static str)> {
    let mut v: Vec<_> = BUILTINS.iter().map(|b| (b.0, b.1)).collect();
    v.sort_unstable();
    v
}

/// Runs a builtin.
pub fn run(name: &str, args: &toml::Table, range: Option<&str>, deep: bool) -> Result<Finding> {
    let (_, _, f) = BUILTINS
        .iter()
        .find(|b| b.0 == name)
        .ok_or_else(|| Error::invalid(format!("unknown builtin `{name}`")))?;
    f(&BuiltinArgs { args, range, deep })
}

/// A finding from its parts.
pub fn finding(
    verdict: VerdictKind,
    range: impl Into<String>,
    evidence: impl Into<String>,
) -> Finding {
    Finding {
        verdict,
        range: range.into(),
        evidence: evidence.into(),
    }
}
