//! The library's error type. Every variant is a problem with the caller's input or request
//! (the CLI maps them to exit code 2); messages name the value at fault.

use crate::num::{ParseQError, ParseRangeError, PwlError};

/// A nimlab library error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A value the caller supplied is not acceptable.
    #[error("{0}")]
    Invalid(String),
    /// The request would need more memory than allowed.
    #[error(
        "{what} would need {}, more than the limit of {}; {suggestion}",
        approx_bytes(*needed_bytes),
        bytes(*limit_bytes)
    )]
    TooLarge {
        /// What was asked for.
        what: String,
        /// Estimated need in bytes (`u64::MAX` when the estimate itself overflows).
        needed_bytes: u64,
        /// The limit in force, in bytes.
        limit_bytes: u64,
        /// How to make the request fit.
        suggestion: String,
    },
    /// A number could not be parsed.
    #[error(transparent)]
    Number(Box<ParseQError>),
    /// A range could not be parsed.
    #[error(transparent)]
    Range(Box<ParseRangeError>),
    /// A PWL function could not be built.
    #[error(transparent)]
    Pwl(Box<PwlError>),
}

impl From<PwlError> for Error {
    fn from(e: PwlError) -> Error {
        Error::Pwl(Box::new(e))
    }
}

/// Shorthand for results with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An [`Error::Invalid`] with the given message.
    pub fn invalid(msg: impl Into<String>) -> Error {
        Error::Invalid(msg.into())
    }
}

impl From<ParseQError> for Error {
    fn from(e: ParseQError) -> Error {
        Error::Number(Box::new(e))
    }
}

impl From<ParseRangeError> for Error {
    fn from(e: ParseRangeError) -> Error {
        Error::Range(Box::new(e))
    }
}

/// A byte count in binary units, e.g. `512 KiB`, `8 GiB`, `1.5 GiB`.
fn bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 || v.fract() == 0.0 {
        format!("{v:.0} {}", UNITS[unit])
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// An estimate in bytes; an estimate that overflowed 64 bits is "over 16 EiB".
fn approx_bytes(b: u64) -> String {
    if b == u64::MAX {
        "over 16 EiB".to_string()
    } else {
        format!("about {}", bytes(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_sizes_read_naturally() {
        assert_eq!(bytes(1000), "1000 bytes");
        assert_eq!(bytes(1 << 10), "1 KiB");
        assert_eq!(bytes(3 << 29), "1.5 GiB");
        assert_eq!(approx_bytes(u64::MAX), "over 16 EiB");
        let e = Error::TooLarge {
            what: "this".into(),
            needed_bytes: 2048,
            limit_bytes: 1024,
            suggestion: "shrink it".into(),
        };
        assert_eq!(
            e.to_string(),
            "this would need about 2 KiB, more than the limit of 1 KiB; shrink it"
        );
    }
}
