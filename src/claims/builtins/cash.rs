//! NIM with Cash: structural claims checked in Rust.

use super::Builtin;

/// The builtins of this paper.
pub const BUILTINS: &[Builtin] = &[];
