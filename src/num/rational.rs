//! Exact rational numbers as a newtype over [`BigRational`].
//!
//! Every value nimlab reports is exact. `Q` keeps num-rational's invariant (reduced fraction,
//! positive denominator) private, prints as `p/q` (or an integer), parses integers, fractions and
//! finite decimals exactly, and serializes as that same string so CSV and JSON stay exact.

use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};
use std::str::FromStr;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An exact rational number.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Q(BigRational);

/// A string that is not an exact rational number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{input}' is not an exact rational number (expected an integer, p/q with q ≠ 0, or a decimal such as -3/2 or 0.25)"
)]
pub struct ParseQError {
    /// The rejected input.
    pub input: String,
}

impl Q {
    /// Zero.
    pub fn zero() -> Q {
        Q(BigRational::zero())
    }

    /// One.
    pub fn one() -> Q {
        Q(BigRational::one())
    }

    /// The integer `n`.
    pub fn int(n: i64) -> Q {
        Q(BigRational::from_integer(BigInt::from(n)))
    }

    /// The fraction `n/d`.
    ///
    /// # Panics
    /// When `d` is zero.
    pub fn frac(n: i64, d: i64) -> Q {
        assert!(d != 0, "denominator == 0");
        // Reduced on machine integers (a big-integer gcd allocates and is far slower); in i128
        // every step fits, even −2⁶³ / −1.
        let (n, d) = (i128::from(n), i128::from(d));
        let g = i128::try_from(n.unsigned_abs().gcd(&d.unsigned_abs()))
            .expect("the gcd divides d, so it is at most 2⁶³");
        let (n, d) = if d < 0 {
            (-n / g, -d / g)
        } else {
            (n / g, d / g)
        };
        Q(BigRational::new_raw(BigInt::from(n), BigInt::from(d)))
    }

    /// The integer `n`.
    pub fn from_bigint(n: BigInt) -> Q {
        Q(BigRational::from_integer(n))
    }

    /// Wraps a rational.
    pub fn from_ratio(r: BigRational) -> Q {
        Q(r)
    }

    /// The underlying rational.
    pub fn as_ratio(&self) -> &BigRational {
        &self.0
    }

    /// Numerator of the reduced fraction (carries the sign).
    pub fn numer(&self) -> &BigInt {
        self.0.numer()
    }

    /// Denominator of the reduced fraction (always positive).
    pub fn denom(&self) -> &BigInt {
        self.0.denom()
    }

    /// Whether the value is an integer.
    pub fn is_integer(&self) -> bool {
        self.0.is_integer()
    }

    /// The value as an `i64`, when it is an integer that fits.
    pub fn to_i64(&self) -> Option<i64> {
        if self.is_integer() {
            self.numer().to_i64()
        } else {
            None
        }
    }

    /// Numerator and denominator as machine integers, when both fit.
    fn small_parts(&self) -> Option<(i64, i64)> {
        Some((self.numer().to_i64()?, self.denom().to_i64()?))
    }

    /// Largest integer ≤ self.
    pub fn floor(&self) -> BigInt {
        // The denominator is positive: the machine division cannot overflow.
        match self.small_parts() {
            Some((n, d)) => BigInt::from(Integer::div_floor(&n, &d)),
            None => self.0.floor().to_integer(),
        }
    }

    /// Smallest integer ≥ self.
    pub fn ceil(&self) -> BigInt {
        match self.small_parts() {
            Some((n, d)) => BigInt::from(Integer::div_ceil(&n, &d)),
            None => self.0.ceil().to_integer(),
        }
    }

    /// Absolute value.
    pub fn abs(&self) -> Q {
        Q(self.0.abs())
    }

    /// −1, 0 or 1.
    pub fn signum(&self) -> i32 {
        if self.0.is_zero() {
            0
        } else if self.0.is_positive() {
            1
        } else {
            -1
        }
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    /// A float approximation, for plots and logs only — never for reported values.
    pub fn to_f64_lossy(&self) -> f64 {
        self.0.to_f64().unwrap_or(f64::NAN)
    }
}

impl From<i64> for Q {
    fn from(n: i64) -> Q {
        Q::int(n)
    }
}

impl From<BigInt> for Q {
    fn from(n: BigInt) -> Q {
        Q::from_bigint(n)
    }
}

impl fmt::Display for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_integer() {
            write!(f, "{}", self.0.numer())
        } else {
            write!(f, "{}/{}", self.0.numer(), self.0.denom())
        }
    }
}

impl FromStr for Q {
    type Err = ParseQError;

    fn from_str(s: &str) -> Result<Q, ParseQError> {
        let err = || ParseQError {
            input: s.to_string(),
        };
        let t = s.trim();
        let int = |x: &str| -> Option<BigInt> {
            let digits = x.strip_prefix(['-', '+']).unwrap_or(x);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            x.parse::<BigInt>().ok()
        };
        if let Some((n, d)) = t.split_once('/') {
            let (n, d) = (
                int(n.trim()).ok_or_else(err)?,
                int(d.trim()).ok_or_else(err)?,
            );
            if d.is_zero() {
                return Err(err());
            }
            return Ok(Q(BigRational::new(n, d)));
        }
        if let Some((whole, frac)) = t.split_once('.') {
            if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err());
            }
            let negative = whole.starts_with('-');
            let whole_digits = whole.strip_prefix(['-', '+']).unwrap_or(whole);
            let whole = if whole_digits.is_empty() {
                BigInt::zero()
            } else {
                int(whole_digits).ok_or_else(err)?
            };
            let scale = num_traits::pow(BigInt::from(10), frac.len());
            let frac: BigInt = frac.parse().map_err(|_| err())?;
            let magnitude = BigRational::new(whole * &scale + frac, scale);
            return Ok(Q(if negative { -magnitude } else { magnitude }));
        }
        int(t).map(Q::from_bigint).ok_or_else(err)
    }
}

impl Serialize for Q {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Q {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Q, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Int(i64),
            Text(String),
        }
        match Repr::deserialize(deserializer)? {
            Repr::Int(n) => Ok(Q::int(n)),
            Repr::Text(s) => s.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// The operators take a machine-integer path when both operands are integers that fit and
/// the result does too (checked): no big-integer arithmetic and no gcd, which num-rational
/// runs even to add two integers. Anything else goes to num-rational.
macro_rules! forward_binop {
    ($trait:ident, $method:ident, $small:expr) => {
        impl $trait<&Q> for &Q {
            type Output = Q;
            fn $method(self, rhs: &Q) -> Q {
                if let Some(q) = small_op(self, rhs, $small) {
                    return q;
                }
                Q((&self.0).$method(&rhs.0))
            }
        }
        impl $trait<Q> for Q {
            type Output = Q;
            fn $method(self, rhs: Q) -> Q {
                if let Some(q) = small_op(&self, &rhs, $small) {
                    return q;
                }
                Q(self.0.$method(rhs.0))
            }
        }
        impl $trait<&Q> for Q {
            type Output = Q;
            fn $method(self, rhs: &Q) -> Q {
                if let Some(q) = small_op(&self, rhs, $small) {
                    return q;
                }
                Q(self.0.$method(&rhs.0))
            }
        }
    };
}

/// `op(a, b)` when `a` and `b` are integers that fit an `i64` and `op` has a result.
fn small_op(a: &Q, b: &Q, op: impl Fn(i64, i64) -> Option<Q>) -> Option<Q> {
    op(a.to_i64()?, b.to_i64()?)
}

forward_binop!(Add, add, |a: i64, b: i64| a.checked_add(b).map(Q::int));
forward_binop!(Sub, sub, |a: i64, b: i64| a.checked_sub(b).map(Q::int));
forward_binop!(Mul, mul, |a: i64, b: i64| a.checked_mul(b).map(Q::int));
// A zero divisor goes on to num-rational, which panics as documented.
forward_binop!(Div, div, |a: i64, b: i64| (b != 0).then(|| Q::frac(a, b)));

impl Neg for Q {
    type Output = Q;
    fn neg(self) -> Q {
        Q(-self.0)
    }
}

impl Neg for &Q {
    type Output = Q;
    fn neg(self) -> Q {
        Q(-&self.0)
    }
}

/// Least common multiple of the denominators of `values` (1 for an empty list).
pub fn common_denominator<'a>(values: impl IntoIterator<Item = &'a Q>) -> BigInt {
    values
        .into_iter()
        .fold(BigInt::one(), |acc, q| acc.lcm(q.denom()))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn parses_integers_fractions_and_decimals_exactly() {
        assert_eq!("3".parse::<Q>().unwrap(), Q::int(3));
        assert_eq!("-6/4".parse::<Q>().unwrap(), Q::frac(-3, 2));
        assert_eq!("-0.25".parse::<Q>().unwrap(), Q::frac(-1, 4));
        assert_eq!("1.5".parse::<Q>().unwrap(), Q::frac(3, 2));
        assert_eq!("-.5".parse::<Q>().unwrap(), Q::frac(-1, 2));
        for bad in ["", "x", "1/0", "1.", "1/2/3", "--1", "1e3", "0x10", "1.-5"] {
            assert!(bad.parse::<Q>().is_err(), "{bad} must be rejected");
        }
    }

    /// Machine integers with the edge cases weighted in (the extremes overflow naive paths).
    fn machine_int() -> impl Strategy<Value = i64> {
        prop_oneof![
            any::<i64>(),
            -50i64..50,
            proptest::sample::select(vec![i64::MIN, i64::MIN + 1, -1, 1, i64::MAX]),
        ]
    }

    proptest! {
        /// The machine-integer paths of `frac`, `floor` and `ceil` agree with num-rational's,
        /// to the representation (reduced, positive denominator), not only to the value.
        #[test]
        fn machine_paths_agree_with_big_rationals(
            n in machine_int(),
            d in machine_int().prop_filter("non-zero", |d| *d != 0),
        ) {
            let big = BigRational::new(BigInt::from(n), BigInt::from(d));
            let q = Q::frac(n, d);
            prop_assert_eq!((q.numer(), q.denom()), (big.numer(), big.denom()));
            prop_assert_eq!(q.floor(), big.floor().to_integer());
            prop_assert_eq!(q.ceil(), big.ceil().to_integer());
        }
    }

    /// Rationals of every kind the fast paths meet: small integers, extremes of `i64`, integers
    /// beyond it and fractions.
    fn any_q() -> impl Strategy<Value = Q> {
        prop_oneof![
            machine_int().prop_map(Q::int),
            (machine_int(), 1i64..1000).prop_map(|(n, d)| Q::frac(n, d)),
            (machine_int(), machine_int())
                .prop_map(|(a, b)| Q::from_bigint(BigInt::from(a) * BigInt::from(b) * 4)),
        ]
    }

    proptest! {
        /// Every operator, on borrowed and owned operands, gives num-rational's result to the
        /// representation.
        #[test]
        fn operators_agree_with_big_rationals(a in any_q(), b in any_q()) {
            let (x, y) = (a.as_ratio().clone(), b.as_ratio().clone());
            let mut cases = vec![
                (&a + &b, &x + &y, "+"),
                (a.clone() + b.clone(), &x + &y, "+ owned"),
                (a.clone() + &b, &x + &y, "+ half"),
                (&a - &b, &x - &y, "-"),
                (a.clone() - b.clone(), &x - &y, "- owned"),
                (a.clone() - &b, &x - &y, "- half"),
                (&a * &b, &x * &y, "*"),
                (a.clone() * b.clone(), &x * &y, "* owned"),
                (a.clone() * &b, &x * &y, "* half"),
            ];
            if !b.is_zero() {
                cases.push((&a / &b, &x / &y, "/"));
                cases.push((a.clone() / b.clone(), &x / &y, "/ owned"));
                cases.push((a.clone() / &b, &x / &y, "/ half"));
            }
            for (q, r, op) in cases {
                prop_assert_eq!((q.numer(), q.denom()), (r.numer(), r.denom()), "{} {} {}", a, op, b);
            }
        }
    }

    #[test]
    fn displays_reduced_and_round_trips() {
        for s in ["0", "-7", "3/4", "-5/2", "123456789012345678901234567891/2"] {
            assert_eq!(s.parse::<Q>().unwrap().to_string(), s);
        }
        assert_eq!(serde_json::to_string(&Q::frac(1, -2)).unwrap(), "\"-1/2\"");
        let back: Q = serde_json::from_str("\"-1/2\"").unwrap();
        assert_eq!(back, Q::frac(-1, 2));
    }
}
