//! Inclusive parameter ranges as users type them: `1..20`, `-40..40`, `7`, and rational grids
//! `-4..4` with a step such as `1/2`.

use std::fmt;
use std::str::FromStr;

use super::Q;

/// A range that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseRangeError {
    /// Not of the form `a..b` or a single value.
    #[error("'{0}' is not a range (expected 'a..b' with a ≤ b, e.g. 1..20, or a single value)")]
    Syntax(String),
    /// An endpoint is not a number of the right kind.
    #[error("in range '{range}': '{value}' is not {kind}")]
    Endpoint {
        /// The whole range text.
        range: String,
        /// The bad endpoint.
        value: String,
        /// What was expected.
        kind: &'static str,
    },
    /// An integer endpoint that is malformed or beyond 64 bits.
    #[error("in range '{range}': {error}")]
    Whole {
        /// The whole range text (shortened when very long).
        range: String,
        /// What is wrong with the endpoint, naming it and the allowed range.
        error: Box<super::WholeError>,
    },
    /// A single value that is not a number.
    #[error(transparent)]
    Value(#[from] super::rational::ParseQError),
    /// The range runs backwards.
    #[error("range '{0}' is empty: its start is greater than its end")]
    Reversed(String),
    /// The step is not positive.
    #[error("step {0} must be positive")]
    Step(Q),
}

/// An inclusive range of integers `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntRange {
    start: i64,
    end: i64,
}

impl IntRange {
    /// `start..=end`; errors when `start > end`.
    pub fn new(start: i64, end: i64) -> Result<IntRange, ParseRangeError> {
        if start > end {
            return Err(ParseRangeError::Reversed(format!("{start}..{end}")));
        }
        Ok(IntRange { start, end })
    }

    /// First value.
    pub fn start(&self) -> i64 {
        self.start
    }

    /// Last value (inclusive).
    pub fn end(&self) -> i64 {
        self.end
    }

    /// Number of values; `u64::MAX` for the one range with 2⁶⁴ values (all of i64).
    pub fn len(&self) -> u64 {
        u64::try_from(i128::from(self.end) - i128::from(self.start) + 1).unwrap_or(u64::MAX)
    }

    /// Never true: a range holds at least one value.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The values in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = i64> + Clone + use<> {
        self.start..=self.end
    }
}

impl fmt::Display for IntRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start == self.end {
            write!(f, "{}", self.start)
        } else {
            write!(f, "{}..{}", self.start, self.end)
        }
    }
}

fn split_range(s: &str) -> Result<(&str, &str), ParseRangeError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(ParseRangeError::Syntax(s.to_string()));
    }
    match t.split_once("..") {
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            if a.trim().is_empty() || b.trim().is_empty() {
                return Err(ParseRangeError::Syntax(s.to_string()));
            }
            Ok((a.trim(), b.trim()))
        }
        None => Ok((t, t)),
    }
}

impl FromStr for IntRange {
    type Err = ParseRangeError;

    fn from_str(s: &str) -> Result<IntRange, ParseRangeError> {
        let (a, b) = split_range(s)?;
        let parse = |v: &str| {
            super::parse_whole(v, i64::MIN, i64::MAX).map_err(|error| ParseRangeError::Whole {
                range: super::excerpt(s),
                error: Box::new(error),
            })
        };
        let (start, end) = (parse(a)?, parse(b)?);
        if start > end {
            return Err(ParseRangeError::Reversed(s.to_string()));
        }
        Ok(IntRange { start, end })
    }
}

/// An inclusive grid of rationals `start, start+step, …` up to `end`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QRange {
    start: Q,
    end: Q,
    step: Q,
}

impl QRange {
    /// The grid from `start` to `end` (inclusive when reached) in steps of `step`.
    pub fn new(start: Q, end: Q, step: Q) -> Result<QRange, ParseRangeError> {
        if step.signum() <= 0 {
            return Err(ParseRangeError::Step(step));
        }
        if start > end {
            return Err(ParseRangeError::Reversed(format!("{start}..{end}")));
        }
        Ok(QRange { start, end, step })
    }

    /// Parses `a..b` (or a single value) and attaches `step`.
    pub fn parse_with_step(s: &str, step: Q) -> Result<QRange, ParseRangeError> {
        if !s.contains("..") {
            let v: Q = s.trim().parse()?;
            return QRange::new(v.clone(), v, step);
        }
        let (a, b) = split_range(s)?;
        let parse = |v: &str| {
            v.parse::<Q>().map_err(|_| ParseRangeError::Endpoint {
                range: s.to_string(),
                value: v.to_string(),
                kind: "a rational number",
            })
        };
        let (start, end) = (parse(a)?, parse(b)?);
        if start > end {
            return Err(ParseRangeError::Reversed(s.to_string()));
        }
        QRange::new(start, end, step)
    }

    /// Number of grid points.
    pub fn len(&self) -> u64 {
        use num_traits::ToPrimitive;
        ((&self.end - &self.start) / &self.step)
            .floor()
            .to_u64()
            .map_or(u64::MAX, |n| n.saturating_add(1))
    }

    /// Never true: a grid holds at least its start.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The grid as machine integers `(start, step)` when every point is one: start and step
    /// are integers and the last point fits `i64` (so `start + i·step` cannot overflow for
    /// `i < len`).
    pub fn as_integers(&self) -> Option<(i64, i64)> {
        let (start, step) = (self.start.to_i64()?, self.step.to_i64()?);
        let last = i128::from(step)
            .checked_mul(i128::from(self.len().checked_sub(1)?))?
            .checked_add(i128::from(start))?;
        i64::try_from(last).ok()?;
        Some((start, step))
    }

    /// The grid points in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = Q> + '_ {
        let mut next = Some(self.start.clone());
        std::iter::from_fn(move || {
            let cur = next.take()?;
            let after = &cur + &self.step;
            if after <= self.end {
                next = Some(after);
            }
            Some(cur)
        })
    }
}

impl fmt::Display for QRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)?;
        if self.step != Q::one() {
            write!(f, " step {}", self.step)?;
        }
        Ok(())
    }
}

/// The largest x in `lo..=hi` with `fits(x)`, for a `fits` that holds up to some point and
/// fails beyond it (a cost that grows with x against a limit); `None` when `fits(lo)` fails or
/// the range is empty. Bisection: about log₂(hi − lo) calls, so a refusal can suggest the
/// largest request that fits at once, from a cost formula.
pub fn last_fitting(lo: i64, hi: i64, fits: impl Fn(i64) -> bool) -> Option<i64> {
    if lo > hi || !fits(lo) {
        return None;
    }
    if fits(hi) {
        return Some(hi);
    }
    // Invariant: fits(lo) and not fits(hi). In i128, where hi − lo cannot overflow; every
    // midpoint lies between two i64 values.
    let (mut lo, mut hi) = (i128::from(lo), i128::from(hi));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid as i64) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_ranges() {
        let r: IntRange = "-40..40".parse().unwrap();
        assert_eq!((r.start(), r.end(), r.len()), (-40, 40, 81));
        assert_eq!(
            "7".parse::<IntRange>().unwrap().iter().collect::<Vec<_>>(),
            vec![7]
        );
        assert_eq!("1..=3".parse::<IntRange>().unwrap().len(), 3);
        for bad in ["5..2", "", "..3", "1..", "a..3", "1.5..3"] {
            assert!(bad.parse::<IntRange>().is_err(), "{bad}");
        }
        assert!(matches!(
            "5..2".parse::<IntRange>(),
            Err(ParseRangeError::Reversed(_))
        ));
        let all: IntRange = "-9223372036854775808..9223372036854775807".parse().unwrap();
        assert_eq!(all.len(), u64::MAX);
        let most: IntRange = "-9223372036854775808..9223372036854775806".parse().unwrap();
        assert_eq!(most.len(), u64::MAX);
    }

    #[test]
    fn rational_grids() {
        let g = QRange::parse_with_step("-1..1", Q::frac(1, 2)).unwrap();
        let pts: Vec<String> = g.iter().map(|q| q.to_string()).collect();
        assert_eq!(pts, ["-1", "-1/2", "0", "1/2", "1"]);
        assert_eq!(g.len(), 5);
        let h = QRange::parse_with_step("0..1", Q::frac(2, 3)).unwrap();
        assert_eq!(h.iter().count(), 2);
        assert!(QRange::parse_with_step("0..1", Q::zero()).is_err());
    }

    #[test]
    fn last_fitting_finds_the_boundary_of_a_monotone_condition() {
        for limit in [-5i64, 0, 1, 7, 99, 100, 1000] {
            let expected = (0..=100).filter(|&x| x <= limit).max();
            assert_eq!(
                last_fitting(0, 100, |x| x <= limit),
                expected,
                "limit {limit}"
            );
        }
        assert_eq!(last_fitting(3, 2, |_| true), None);
        assert_eq!(last_fitting(i64::MIN, i64::MAX, |x| x < 0), Some(-1));
    }
}
