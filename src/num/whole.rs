//! Whole numbers as users type them, with errors that name the text and the allowed range.
//!
//! Rust's own integer parsing says "invalid digit found in string" or "number too large to fit
//! in target type" without the value or the limits; every option, range endpoint and set element
//! of the command line goes through [`parse_whole`] instead, so a bad value reads, e.g.,
//! `'99999999999' is too large, not a whole number from 0 to 4294967295`.

use std::fmt;

/// Why a text is not a whole number in the allowed range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}'{place} {problem} a whole number from {min} to {max}")]
pub struct WholeError {
    /// The text as given (shortened when very long).
    pub text: String,
    /// Where the text stood, e.g. ` in A` (empty when nowhere in particular).
    pub place: String,
    /// What is wrong: `is not`, `is negative, not`, `is too small, not`, `is too large, not`.
    pub problem: &'static str,
    /// The least allowed value.
    pub min: String,
    /// The greatest allowed value.
    pub max: String,
}

impl WholeError {
    /// The same error, saying where the text stood (e.g. `in A`).
    pub fn at(mut self, place: &str) -> WholeError {
        self.place = format!(" {place}");
        self
    }
}

/// Longest text echoed in full; longer ones are cut (a message must stay readable).
const ECHO_CHARS: usize = 40;

/// `text`, or its first characters and how many more there were.
pub fn excerpt(text: &str) -> String {
    cut_text(text, ECHO_CHARS, ECHO_CHARS - 8)
}

/// `text` when it has at most `longest` characters, otherwise its first `kept` characters and
/// `… (N more characters)`: how every message echoes a user's text.
pub fn cut_text(text: &str, longest: usize, kept: usize) -> String {
    let count = text.chars().count();
    if count <= longest {
        return text.to_string();
    }
    let head: String = text.chars().take(kept).collect();
    format!("{head}… ({} more characters)", count - kept)
}

/// Parses a whole number (an optional sign and decimal digits, surrounding spaces ignored) in
/// `min..=max`.
pub fn parse_whole<T>(text: &str, min: T, max: T) -> Result<T, WholeError>
where
    T: Copy + fmt::Display + TryFrom<i128>,
    i128: TryFrom<T>,
{
    let error = |problem| WholeError {
        text: excerpt(text),
        place: String::new(),
        problem,
        min: min.to_string(),
        max: max.to_string(),
    };
    let t = text.trim();
    let negative = t.starts_with('-');
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error("is not"));
    }
    let lo = i128::try_from(min).unwrap_or(i128::MIN);
    let hi = i128::try_from(max).unwrap_or(i128::MAX);
    let below = || {
        if negative && lo >= 0 {
            error("is negative, not")
        } else {
            error("is too small, not")
        }
    };
    // Beyond i128 the value is far outside every range of a machine integer.
    let Ok(magnitude) = digits.parse::<i128>() else {
        return Err(if negative {
            below()
        } else {
            error("is too large, not")
        });
    };
    let v = if negative { -magnitude } else { magnitude };
    if v < lo {
        return Err(below());
    }
    if v > hi {
        return Err(error("is too large, not"));
    }
    T::try_from(v).map_err(|_| error("is too large, not"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_text_and_the_range() {
        assert_eq!(parse_whole::<u32>(" 12 ", 0, 20), Ok(12));
        assert_eq!(parse_whole::<i64>("-7", i64::MIN, i64::MAX), Ok(-7));
        assert_eq!(parse_whole::<u64>("+7", 0, u64::MAX), Ok(7));
        assert_eq!(
            parse_whole::<u64>("18446744073709551615", 0, u64::MAX),
            Ok(u64::MAX)
        );
        let e = |t: &str| parse_whole::<u32>(t, 1, 64).unwrap_err().to_string();
        assert_eq!(e("abc"), "'abc' is not a whole number from 1 to 64");
        assert_eq!(e("0"), "'0' is too small, not a whole number from 1 to 64");
        assert_eq!(e("-1"), "'-1' is negative, not a whole number from 1 to 64");
        assert_eq!(
            e("65"),
            "'65' is too large, not a whole number from 1 to 64"
        );
        assert_eq!(e("1.5"), "'1.5' is not a whole number from 1 to 64");
        assert_eq!(e(""), "'' is not a whole number from 1 to 64");
        let huge = "9".repeat(50);
        assert!(e(&huge).contains("is too large") && e(&huge).contains("(18 more characters)"));
        let e = parse_whole::<u64>("-1", 0, u64::MAX).unwrap_err();
        assert_eq!(
            e.at("in A").to_string(),
            "'-1' in A is negative, not a whole number from 0 to 18446744073709551615"
        );
        assert_eq!(
            parse_whole::<i64>("-99999999999999999999999999999999999999999", i64::MIN, 0)
                .unwrap_err()
                .problem,
            "is too small, not"
        );
    }
}
