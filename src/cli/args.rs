//! Value parsers and argument groups shared by subcommands. Each parser names the bad value.

use std::collections::BTreeMap;
use std::fmt::Display;

use clap::{Args, ValueEnum};

use crate::games::scoring::{HeapSize, Limits, Method};
use crate::num::{IntRange, Q, QRange, excerpt, parse_whole};

/// A clap value parser for whole numbers in `min..=max`. Its error names the value and the
/// range, and clap's names the option: `invalid value 'abc' for '--heaps <K>': 'abc' is not a
/// whole number from 1 to 10000`.
pub fn ranged<T>(
    min: T,
    max: T,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: Copy + Display + TryFrom<i128> + Send + Sync + 'static,
    i128: TryFrom<T>,
{
    move |s: &str| parse_whole(s, min, max).map_err(|e| e.to_string())
}

/// Most heaps a table command accepts: a position is stored heap by heap, and no table of more
/// heaps is one anyone reads (the number of positions is limited separately, by memory).
pub const MAX_TABLE_HEAPS: usize = 10_000;

/// Parses a heap size.
pub fn parse_heap(s: &str) -> Result<HeapSize, String> {
    parse_whole(s, 0, HeapSize::MAX).map_err(|e| format!("heap {e}"))
}

/// Parses an exact rational.
pub fn parse_q(s: &str) -> Result<Q, String> {
    s.parse::<Q>().map_err(|e| e.to_string())
}

/// Parses an inclusive integer range such as `1..20`.
pub fn parse_int_range(s: &str) -> Result<IntRange, String> {
    s.parse::<IntRange>().map_err(|e| e.to_string())
}

/// Parses `name=range`.
pub fn parse_param(s: &str) -> Result<(String, IntRange), String> {
    let (name, range) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}' is not NAME=RANGE (e.g. k=1..20)"))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return Err(format!("'{name}' is not a parameter name"));
    }
    Ok((name.to_string(), parse_int_range(range)?))
}

/// The memory limit `auto` stands for: 8 GiB, or less when the system allows less (see
/// [`super::guard::system_allowance`]).
pub const AUTO_MEMORY_LIMIT: u64 = 8 << 30;

/// Parses a memory size: bytes, or a whole number with K, M, G (binary units), or `auto`
/// ([`AUTO_MEMORY_LIMIT`], lowered to what `ulimit -v` and the free memory allow).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("auto") {
        return Ok(super::guard::system_allowance()
            .map_or(AUTO_MEMORY_LIMIT, |b| b.min(AUTO_MEMORY_LIMIT)));
    }
    let err = || {
        format!(
            "'{}' is not a memory size from 1 to {} bytes (bytes, or a whole number with K, M or G, e.g. 512M or 8G; or auto)",
            excerpt(s),
            u64::MAX
        )
    };
    let (digits, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let unit = match c.to_ascii_uppercase() {
                'K' => 1u64 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => return Err(err()),
            };
            (&t[..i], unit)
        }
        _ => (t, 1),
    };
    let n: u64 = parse_whole(digits, 0, u64::MAX).map_err(|_| err())?;
    n.checked_mul(mult).filter(|&b| b > 0).ok_or_else(err)
}

/// Which payoff algebra to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum MethodArg {
    /// Integer grid when its checks pass, otherwise exact rationals.
    #[default]
    Auto,
    /// The checked integer grid only.
    Grid,
    /// Exact rational PWL arithmetic only (the slow reference).
    Exact,
}

/// Solver options shared by scoring commands.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// Payoff algebra.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Refuse work estimated to need more memory than this (e.g. 512M, 8G); `auto` is 8G, or
    /// less when `ulimit -v` or the free memory allow less.
    #[arg(long, value_name = "SIZE", default_value = "auto", value_parser = parse_size)]
    pub memory_limit: u64,
}

impl SolveArgs {
    /// The library method.
    pub fn method(&self) -> Method {
        match self.method {
            MethodArg::Auto => Method::Auto,
            MethodArg::Grid => Method::Grid,
            MethodArg::Exact => Method::Exact,
        }
    }

    /// The library limits.
    pub fn limits(&self) -> Limits {
        Limits {
            max_bytes: self.memory_limit,
        }
    }
}

/// A bonus value or grid: `3`, `-1/2`, or `-40..40` with an optional step.
#[derive(Debug, Clone, Args)]
pub struct BonusGridArgs {
    /// Bonus N: one value (3, -1/2) or an inclusive range (-40..40; write --bonus=-40..40).
    #[arg(long, value_name = "N|A..B", allow_hyphen_values = true)]
    pub bonus: Option<String>,
    /// Step of the bonus range.
    #[arg(long, value_name = "Q", default_value = "1", value_parser = parse_q, requires = "bonus")]
    pub step: Q,
}

impl BonusGridArgs {
    /// The grid of bonus values, if one was asked for.
    pub fn grid(&self) -> anyhow::Result<Option<QRange>> {
        match &self.bonus {
            None => Ok(None),
            Some(s) => Ok(Some(
                QRange::parse_with_step(s, self.step.clone())
                    .map_err(|e| anyhow::anyhow!("--bonus: {e}"))?,
            )),
        }
    }
}

/// Ranges for family parameters: shorthands for common names plus `--param NAME=RANGE`.
#[derive(Debug, Clone, Args)]
pub struct ParamArgs {
    /// Range of parameter k (e.g. 1..20).
    #[arg(long = "k", value_name = "RANGE", value_parser = parse_int_range, allow_hyphen_values = true)]
    pub k: Option<IntRange>,
    /// Range of parameter m.
    #[arg(long = "m", value_name = "RANGE", value_parser = parse_int_range, allow_hyphen_values = true)]
    pub m: Option<IntRange>,
    /// Range of parameter x.
    #[arg(long = "x", value_name = "RANGE", value_parser = parse_int_range, allow_hyphen_values = true)]
    pub x: Option<IntRange>,
    /// Range of parameter y.
    #[arg(long = "y", value_name = "RANGE", value_parser = parse_int_range, allow_hyphen_values = true)]
    pub y: Option<IntRange>,
    /// Range of any parameter, as NAME=RANGE (repeatable).
    #[arg(long = "param", value_name = "NAME=RANGE", value_parser = parse_param)]
    pub params: Vec<(String, IntRange)>,
}

impl ParamArgs {
    /// All ranges by parameter name; a name given twice is an error.
    pub fn ranges(&self) -> anyhow::Result<BTreeMap<String, IntRange>> {
        let named = [("k", self.k), ("m", self.m), ("x", self.x), ("y", self.y)];
        let mut out = BTreeMap::new();
        let all = named
            .into_iter()
            .filter_map(|(n, r)| r.map(|r| (n.to_string(), r)))
            .chain(self.params.iter().cloned());
        for (name, range) in all {
            if out.insert(name.clone(), range).is_some() {
                anyhow::bail!("parameter {name} was given two ranges");
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_and_size_parsers_name_the_value() {
        assert_eq!(parse_heap("12"), Ok(12));
        assert!(parse_heap("-3").unwrap_err().contains("negative"));
        assert!(parse_heap("x").unwrap_err().contains("'x'"));
        assert!(parse_heap("99999999999").unwrap_err().contains("too large"));
        assert_eq!(
            parse_heap("x").unwrap_err(),
            "heap 'x' is not a whole number from 0 to 4294967295"
        );
        assert_eq!(
            ranged(1usize, 10)("11"),
            Err("'11' is too large, not a whole number from 1 to 10".to_string())
        );
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert!(parse_size("8X").is_err() && parse_size("0").is_err());
        let auto = parse_size("auto").unwrap();
        assert!(auto > 0 && auto <= AUTO_MEMORY_LIMIT);
        assert!(parse_param("k=5..2").is_err());
    }
}
