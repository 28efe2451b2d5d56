//! Run-time values of claim expressions: exact rationals (integers are rationals with
//! denominator 1), booleans, strings and lists.
//!
//! Exact arithmetic has no natural limit, so every operation that can grow a number estimates
//! the size of its result first and refuses one above [`MAX_BITS`]: big-integer products and
//! (above all) the gcd that keeps a rational reduced take time that grows with the square of
//! the size, and one line of a claim file must not run for minutes. Integer operands take a
//! path that skips the gcd altogether. Values echoed in messages are cut to an excerpt
//! ([`Value::short`]) so that an error about a huge list or number stays a line long.
//!
//! The readers at the end (`num`, `list`, `natural`, …) take a value where a number, a list
//! or a bounded integer is needed, and otherwise name what they found, at the expression's
//! place in the claim file.

use std::fmt;
use std::sync::Arc;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use super::expr::{ExprError, Span};
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    pub fn int(n: impl Into<Q>) -> Value {
        Value::Num(n.into())
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

/// The most bits an exact integer may have: 2^20, about 315,000 decimal digits. An operation
/// whose result could be larger is refused before it runs.
pub const MAX_BITS: u64 = 1 << 20;

/// The most bits a fraction may have, numerator and denominator together: 2^14, about 4,900
/// decimal digits. Fractions are kept reduced, and num-bigint's gcd takes time quadratic in
/// the size of its arguments (seconds at 2^20 bits, milliseconds at 2^14), so they have a smaller cap than integers,
/// which take paths without a gcd.
pub const MAX_FRACTION_BITS: u64 = 1 << 14;

/// The most elements a list may have.
pub const MAX_LIST_LEN: usize = 10_000_000;

/// Digits of a number shown in messages before it is cut.
const SHOWN_DIGITS: usize = 60;
/// Elements of a list shown in messages before it is cut.
const SHOWN_ELEMENTS: usize = 24;
/// Numbers this large (in bits) are described by their size alone: printing them in decimal
/// takes time quadratic in their size.
const DESCRIBED_BITS: u64 = 1 << 16;

/// A number in decimal, cut to an excerpt when it is long.
fn short_number(n: &BigInt, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if n.bits() > DESCRIBED_BITS {
        let digits = (n.bits() as f64 * std::f64::consts::LOG10_2).ceil() as u64;
        let sign = if n.is_negative() { "-" } else { "" };
        return write!(f, "{sign}(a number of about {digits} digits)");
    }
    let text = n.to_string();
    let (sign, digits) = text.split_at(usize::from(text.starts_with('-')));
    if digits.len() <= SHOWN_DIGITS {
        return f.write_str(&text);
    }
    write!(
        f,
        "{sign}{}… ({} more digits)",
        &digits[..SHOWN_DIGITS],
        digits.len() - SHOWN_DIGITS
    )
}

/// A value as messages show it: long numbers and lists cut to an excerpt.
pub struct Short<'a>(&'a Value);

impl fmt::Display for Short<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Num(q) => {
                short_number(&q.numer(), f)?;
                if !q.is_integer() {
                    f.write_str("/")?;
                    short_number(&q.denom(), f)?;
                }
                Ok(())
            }
            Value::Bool(b) => write!(f, "{b}"),
            Value::Str(s) if s.chars().count() > SHOWN_DIGITS => {
                let cut: String = s.chars().take(SHOWN_DIGITS).collect();
                write!(
                    f,
                    "\"{cut}…\" ({} more characters)",
                    s.chars().count() - SHOWN_DIGITS
                )
            }
            Value::Str(s) => write!(f, "\"{s}\""),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().take(SHOWN_ELEMENTS).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", v.short())?;
                }
                if items.len() > SHOWN_ELEMENTS {
                    write!(f, ", … ({} more elements)", items.len() - SHOWN_ELEMENTS)?;
                }
                f.write_str("]")
            }
        }
    }
}

impl Value {
    /// The value as messages show it: numbers of more than 60 digits and lists of more than 24
    /// elements are cut to an excerpt saying how much was left out.
    pub fn short(&self) -> Short<'_> {
        Short(self)
    }
}

/// A rational number as messages show it (see [`Value::short`]).
pub fn short_q(q: &Q) -> String {
    Value::Num(q.clone()).short().to_string()
}

/// Refuses an integer result estimated at `estimate` bits.
fn within_cap(estimate: u64, what: &str) -> Result<(), String> {
    if estimate > MAX_BITS {
        return Err(format!(
            "{what} is too large: it would have about {estimate} bits, more than the limit of \
             {MAX_BITS} bits (about 315,000 digits) on exact integers; refusing to compute it"
        ));
    }
    Ok(())
}

/// Refuses a fraction result estimated at `estimate` bits (numerator and denominator).
fn within_fraction_cap(estimate: u64, what: &str) -> Result<(), String> {
    if estimate > MAX_FRACTION_BITS {
        return Err(format!(
            "{what} is too large: as a fraction it would have about {estimate} bits, more than \
             the limit of {MAX_FRACTION_BITS} bits (about 4,900 digits) on exact fractions; \
             refusing to compute it"
        ));
    }
    Ok(())
}

/// log₂ |n| for n ≠ 0, from its leading bits.
fn log2(n: &BigInt) -> f64 {
    let bits = n.bits();
    let shift = bits.saturating_sub(64);
    let top = (n.magnitude() >> shift).to_f64().unwrap_or(f64::MAX);
    top.log2() + shift as f64
}

/// Both operands as machine integers, when both are integers that fit.
fn small_pair(a: &Q, b: &Q) -> Option<(i64, i64)> {
    Some((a.to_i64()?, b.to_i64()?))
}

/// Whether both operands are held as machine-size fractions: a sum, product or quotient of
/// two of them has at most 256 bits, far below the caps, and `Q` computes it in machine
/// arithmetic (no gcd on big integers, no allocation). Claims mostly compute with such values.
fn both_inline(a: &Q, b: &Q) -> bool {
    a.to_i64_parts().is_some() && b.to_i64_parts().is_some()
}

/// `a + b` or `a - b`, refused when the result could exceed the caps.
pub fn add(a: &Q, b: &Q, subtract: bool) -> Result<Q, String> {
    if both_inline(a, b) {
        return Ok(if subtract { a - b } else { a + b });
    }
    add_big(a, b, subtract)
}

/// [`add`] on big integers and rationals.
fn add_big(a: &Q, b: &Q, subtract: bool) -> Result<Q, String> {
    if a.is_integer() && b.is_integer() {
        within_cap(a.numer().bits().max(b.numer().bits()) + 1, "the sum")?;
        // Integers skip the reduction (a gcd with 1, quadratic in num-bigint).
        let (x, y) = (a.numer(), b.numer());
        return Ok(Q::from_bigint(if subtract { &*x - &*y } else { &*x + &*y }));
    }
    let numer = (a.numer().bits() + b.denom().bits()).max(b.numer().bits() + a.denom().bits());
    within_fraction_cap(numer + 1 + a.denom().bits() + b.denom().bits(), "the sum")?;
    Ok(if subtract { a - b } else { a + b })
}

/// `a · b`, refused when the result could exceed the caps.
pub fn mul(a: &Q, b: &Q) -> Result<Q, String> {
    if both_inline(a, b) {
        return Ok(a * b);
    }
    mul_big(a, b)
}

/// [`mul`] on big integers and rationals.
fn mul_big(a: &Q, b: &Q) -> Result<Q, String> {
    if a.is_integer() && b.is_integer() {
        within_cap(a.bits() + b.bits(), "the product")?;
        return Ok(Q::from_bigint(&*a.numer() * &*b.numer()));
    }
    within_fraction_cap(a.bits() + b.bits(), "the product")?;
    Ok(a * b)
}

/// `a / b` for `b ≠ 0`, refused when the result could exceed the caps.
pub fn div(a: &Q, b: &Q) -> Result<Q, String> {
    if b.is_zero() {
        return Err(format!("division of {} by 0", short_q(a)));
    }
    if both_inline(a, b) {
        return Ok(a / b);
    }
    div_big(a, b)
}

/// [`div`] on big integers and rationals, for `b ≠ 0`.
fn div_big(a: &Q, b: &Q) -> Result<Q, String> {
    if a.is_integer() && b.is_integer() && a.numer().bits() <= MAX_BITS {
        // An exact quotient needs no gcd.
        let (q, r) = num_integer::Integer::div_rem(&*a.numer(), &*b.numer());
        if r.is_zero() {
            return Ok(Q::from_bigint(q));
        }
    }
    within_fraction_cap(a.bits() + b.bits(), "the quotient")?;
    Ok(a / b)
}

/// `a` raised to an integer power `e` (negative exponents invert; 0^negative is an error).
pub fn pow(a: &Q, e: &Q) -> Result<Q, String> {
    if !e.is_integer() {
        return Err(format!(
            "the exponent must be an integer, got {}",
            short_q(e)
        ));
    }
    let e = e.numer().into_owned();
    if a.is_zero() && e.is_negative() {
        return Err("0 cannot be raised to a negative power".to_string());
    }
    // 0, 1 and -1 stay small under any power.
    if a.is_zero() || a.numer().magnitude() == a.denom().magnitude() {
        let odd = e.bit(0);
        return Ok(if a.is_zero() {
            if e.is_zero() { Q::one() } else { Q::zero() }
        } else if a.signum() < 0 && odd {
            -Q::one()
        } else {
            Q::one()
        });
    }
    let Some(mag) = e.magnitude().to_u32().filter(|&m| m <= 1 << 16) else {
        return Err(format!(
            "the exponent {} is too large (at most 65536)",
            Value::int(e.clone()).short()
        ));
    };
    // |p/q|^k has about k·log₂|p| + k·log₂ q bits.
    let estimate = f64::from(mag) * (log2(&a.numer()) + log2(&a.denom())) + 2.0;
    let what = format!("{}^{}", short_q(a), Value::int(e.clone()).short());
    let estimate = estimate.min(u64::MAX as f64) as u64;
    if a.is_integer() && !e.is_negative() {
        within_cap(estimate, &what)?;
    } else {
        within_fraction_cap(estimate, &what)?;
    }
    let mag = i32::try_from(mag).expect("at most 65536");
    let q = Q::from_ratio(a.as_ratio().pow(mag));
    // The reciprocal of a reduced fraction is reduced: no gcd.
    Ok(if e.is_negative() {
        Q::from_ratio(q.as_ratio().recip())
    } else {
        q
    })
}

/// The floor modulus a − b⌊a/b⌋ (the sign of b), for rationals.
pub fn modulo(a: &Q, b: &Q) -> Result<Q, String> {
    if b.is_zero() {
        return Err(format!("{} mod 0 is undefined", short_q(a)));
    }
    if let Some((x, y)) = small_pair(a, b) {
        // In i128: −2⁶³ mod −1 overflows i64; the result is smaller than |b| in magnitude.
        let r = num_integer::Integer::mod_floor(&i128::from(x), &i128::from(y));
        return Ok(Q::int(i64::try_from(r).expect("|a mod b| < |b|")));
    }
    modulo_big(a, b)
}

/// [`modulo`] on big integers and rationals, for `b ≠ 0`.
fn modulo_big(a: &Q, b: &Q) -> Result<Q, String> {
    if a.is_integer() && b.is_integer() {
        return Ok(Q::from_bigint(num_integer::Integer::mod_floor(
            &*a.numer(),
            &*b.numer(),
        )));
    }
    within_fraction_cap(a.bits() + b.bits(), "the remainder")?;
    let k = Q::from_bigint((a / b).floor());
    Ok(a - &(b * &k))
}

/// An integer value as a machine integer in `lo..=hi`, or a message naming the value.
pub fn to_int_in(q: &Q, what: &str, lo: i128, hi: i128) -> Result<i128, String> {
    if !q.is_integer() {
        return Err(format!("{what} must be an integer, got {}", short_q(q)));
    }
    let v = match q.to_i64() {
        Some(v) => Some(i128::from(v)),
        None => q.numer().to_i128(),
    };
    match v {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(format!(
            "{what} must lie in {lo}..={hi}, got {}",
            short_q(q)
        )),
    }
}

/// The nim-sum of non-negative integers.
pub fn xor(xs: &[Q]) -> Result<BigInt, String> {
    let mut acc = BigInt::zero();
    for x in xs {
        if !x.is_integer() || x.numer().is_negative() {
            return Err(format!("⊕ needs non-negative integers, got {x}"));
        }
        acc ^= &*x.numer();
    }
    Ok(acc)
}

/// `v` as a number, or an error at `span` showing what it is instead.
pub(crate) fn num(v: &Value, span: Span) -> Result<&Q, ExprError> {
    match v {
        Value::Num(q) => Ok(q),
        other => Err(ExprError::new(
            span,
            format!("expected a number, found {}", other.short()),
        )),
    }
}

/// `v` as a truth value, or an error at `span`.
pub(crate) fn boolean(v: &Value, span: Span) -> Result<bool, ExprError> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => Err(ExprError::new(
            span,
            format!("expected a truth value, found {}", other.short()),
        )),
    }
}

/// `v` as a list, or an error at `span`.
pub(crate) fn list(v: &Value, span: Span) -> Result<&[Value], ExprError> {
    match v {
        Value::List(items) => Ok(items),
        other => Err(ExprError::new(
            span,
            format!("expected a list, found {}", other.short()),
        )),
    }
}

/// `v` as a string, or an error at `span`.
pub(crate) fn string(v: &Value, span: Span) -> Result<&str, ExprError> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(ExprError::new(
            span,
            format!("expected a string, found {}", other.short()),
        )),
    }
}

/// A list of at most [`MAX_LIST_LEN`] elements.
pub(crate) fn capped_list(items: Vec<Value>, span: Span) -> Result<Value, ExprError> {
    if items.len() > MAX_LIST_LEN {
        return Err(list_too_long(items.len(), span));
    }
    Ok(Value::List(items.into()))
}

/// The refusal of a list of `len` elements.
pub(crate) fn list_too_long(len: usize, span: Span) -> ExprError {
    ExprError::new(
        span,
        format!("this list would have {len} elements; at most {MAX_LIST_LEN} are allowed"),
    )
}

/// `v` as a list of integers in `0..=max`, as `what` needs them.
pub(crate) fn naturals(v: &Value, span: Span, what: &str, max: u64) -> Result<Vec<u64>, ExprError> {
    list(v, span)?
        .iter()
        .map(|x| {
            let q = num(x, span)?;
            to_int_in(q, what, 0, i128::from(max))
                .map(|n| n as u64)
                .map_err(|m| ExprError::new(span, m))
        })
        .collect()
}

/// `v` as an integer in `0..=max`, as `what` needs it.
pub(crate) fn natural(v: &Value, span: Span, what: &str, max: u64) -> Result<u64, ExprError> {
    to_int_in(num(v, span)?, what, 0, i128::from(max))
        .map(|n| n as u64)
        .map_err(|m| ExprError::new(span, m))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Machine integers with the edge cases weighted in (the extremes overflow and fall back).
    fn machine_int() -> impl Strategy<Value = i64> {
        prop_oneof![
            any::<i64>(),
            -50i64..50,
            proptest::sample::select(vec![i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX]),
        ]
    }

    /// The same number, to the representation (num-rational's `==` compares values only).
    fn same(x: &Result<Q, String>, y: &Result<Q, String>) -> bool {
        match (x, y) {
            (Ok(x), Ok(y)) => x.numer() == y.numer() && x.denom() == y.denom(),
            (Err(x), Err(y)) => x == y,
            _ => false,
        }
    }

    proptest! {
        /// Every machine-integer fast path gives what the big-integer path gives.
        #[test]
        fn machine_paths_agree_with_the_big_paths(a in machine_int(), b in machine_int()) {
            let (a, b) = (Q::int(a), Q::int(b));
            for subtract in [false, true] {
                let (fast, big) = (add(&a, &b, subtract), add_big(&a, &b, subtract));
                prop_assert!(same(&fast, &big), "{a} ± {b}: {fast:?} vs {big:?}");
            }
            let (fast, big) = (mul(&a, &b), mul_big(&a, &b));
            prop_assert!(same(&fast, &big), "{a} · {b}: {fast:?} vs {big:?}");
            if !b.is_zero() {
                let (fast, big) = (div(&a, &b), div_big(&a, &b));
                prop_assert!(same(&fast, &big), "{a} / {b}: {fast:?} vs {big:?}");
                let (fast, big) = (modulo(&a, &b), modulo_big(&a, &b));
                prop_assert!(same(&fast, &big), "{a} mod {b}: {fast:?} vs {big:?}");
            }
        }
    }
}
