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
        "{what} would need about {needed_mib} MiB, more than the limit of {limit_mib} MiB; {suggestion}"
    )]
    TooLarge {
        /// What was asked for.
        what: String,
        /// Estimated need.
        needed_mib: u64,
        /// The limit in force.
        limit_mib: u64,
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
