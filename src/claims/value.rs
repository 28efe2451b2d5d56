//! Run-time values of claim expressions: exact rationals (integers are rationals with
//! denominator 1), booleans, strings and lists.

use std::fmt;
use std::sync::Arc;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};

use crate::num::Q;

/// A value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    /// An exact rational (or integer).
    Num(Q),
    /// A truth value.
    Bool(bool),
    /// A string (ruleset names, cash winners "I"/"II").
    Str(Arc<str>),
    /// A list (a position, a set A).
    List(Arc<[Value]>),
}

/// The static kind of a value, for checking calls before evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A number.
    Num,
    /// A truth value.
    Bool,
    /// A string.
    Str,
    /// A list.
    List,
    /// Not known before evaluation (a user function's parameter).
    Any,
}

impl Ty {
    /// Whether a value of kind `self` may stand where `want` is required.
    pub fn fits(self, want: Ty) -> bool {
        self == Ty::Any || want == Ty::Any || self == want
    }

    /// How an error message names the kind.
    pub fn name(self) -> &'static str {
        match self {
            Ty::Num => "a number",
            Ty::Bool => "a truth value",
            Ty::Str => "a string",
            Ty::List => "a list",
            Ty::Any => "a value",
        }
    }
}

impl Value {
    /// The kind of the value.
    pub fn ty(&self) -> Ty {
        match self {
            Value::Num(_) => Ty::Num,
            Value::Bool(_) => Ty::Bool,
            Value::Str(_) => Ty::Str,
            Value::List(_) => Ty::List,
        }
    }

    /// An integer value.
    pub fn int(n: impl Into<BigInt>) -> Value {
        Value::Num(Q::from_bigint(n.into()))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Num(q) => write!(f, "{q}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Str(s) => write!(f, "\"{s}\""),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// `a` raised to an integer power `e` (negative exponents invert; 0^negative is an error).
pub fn pow(a: &Q, e: &Q) -> Result<Q, String> {
    if !e.is_integer() {
        return Err(format!("the exponent must be an integer, got {e}"));
    }
    let e = e.numer();
    let Some(mag) = e.abs().to_u32().filter(|&m| m <= 1 << 16) else {
        return Err(format!("the exponent {e} is too large (at most 65536)"));
    };
    let bits = a.numer().bits() + a.denom().bits();
    if bits.saturating_mul(u64::from(mag)) > 1 << 24 {
        return Err(format!(
            "{a}^{e} would have more than 16 million bits; refusing to compute it"
        ));
    }
    if a.is_zero() && e.is_negative() {
        return Err("0 cannot be raised to a negative power".to_string());
    }
    let r = a.as_ratio().pow(mag as i32);
    let q = Q::from_ratio(r);
    Ok(if e.is_negative() { Q::one() / q } else { q })
}

/// The floor modulus a − b⌊a/b⌋ (the sign of b), for rationals.
pub fn modulo(a: &Q, b: &Q) -> Result<Q, String> {
    if b.is_zero() {
        return Err(format!("{a} mod 0 is undefined"));
    }
    let k = Q::from_bigint((a / b).floor());
    Ok(a - &(b * &k))
}

/// An integer value as a machine integer in `lo..=hi`, or a message naming the value.
pub fn to_int_in(q: &Q, what: &str, lo: i128, hi: i128) -> Result<i128, String> {
    if !q.is_integer() {
        return Err(format!("{what} must be an integer, got {q}"));
    }
    match q.numer().to_i128() {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(format!("{what} must lie in {lo}..={hi}, got {q}")),
    }
}
