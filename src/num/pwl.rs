//! Continuous piecewise-linear functions of one rational variable, exactly.
//!
//! Scoring-game payoffs are continuous PWL functions of the bonus N: the terminal payoff −N is
//! linear, and the recursion f(p) = max over moves (points − f(p′)) only negates, shifts and takes
//! maxima. [`Pwl`] is closed under those operations and is generic in what the variable means.
//!
//! Representation invariant (private, so equality is structural): `knots` is non-empty with
//! strictly increasing x; every knot is a true breakpoint (the slope changes there), except that a
//! linear function is stored as a single anchor knot at x = 0. The function is extended beyond the
//! first and last knot by `left_slope` and `right_slope`.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::Q;

/// A continuous piecewise-linear function ℚ → ℚ.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "PwlRepr", into = "PwlRepr")]
pub struct Pwl {
    knots: Vec<(Q, Q)>,
    left_slope: Q,
    right_slope: Q,
}

/// Serialized form of [`Pwl`]; validated on the way in.
#[derive(Serialize, Deserialize)]
struct PwlRepr {
    left_slope: Q,
    knots: Vec<(Q, Q)>,
    right_slope: Q,
}

/// Why a list of points does not describe a PWL function.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PwlError {
    /// No points were given.
    #[error("a piecewise-linear function needs at least one point")]
    NoPoints,
    /// Two points were not in strictly increasing order of x.
    #[error("points must have strictly increasing x, but x = {next} follows x = {prev}")]
    NotIncreasing {
        /// The earlier x.
        prev: String,
        /// The offending x.
        next: String,
    },
    /// The textual form could not be read.
    #[error("'{0}' is not a PWL function (expected e.g. '[-1] (-4,3) (1,4) [1]')")]
    Syntax(String),
}

impl From<Pwl> for PwlRepr {
    fn from(p: Pwl) -> PwlRepr {
        PwlRepr {
            left_slope: p.left_slope,
            knots: p.knots,
            right_slope: p.right_slope,
        }
    }
}

impl TryFrom<PwlRepr> for Pwl {
    type Error = PwlError;
    fn try_from(r: PwlRepr) -> Result<Pwl, PwlError> {
        Pwl::from_points(r.left_slope, r.knots, r.right_slope)
    }
}

/// One linear piece `slope·x + intercept` on `[lo, hi]` (`None` = unbounded).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    /// Left end (None = −∞).
    pub lo: Option<Q>,
    /// Right end (None = +∞).
    pub hi: Option<Q>,
    /// Slope on the piece.
    pub slope: Q,
    /// Value at x = 0 of the piece's line.
    pub intercept: Q,
}

impl Piece {
    /// The piece's line `c + s·N` in the papers' spelling, in the variable `var`: `-3 + N`,
    /// `2 - N`, `5`, `1/2·N`.
    pub fn formula(&self, var: &str) -> String {
        line_formula(&self.slope, &self.intercept, var)
    }
}

/// `c + s·v` written the way the papers write it: `-3 + N`, `2 - N`, `5`.
pub fn line_formula(slope: &Q, intercept: &Q, var: &str) -> String {
    let term = match slope.to_i64() {
        Some(0) => return intercept.to_string(),
        Some(1) => var.to_string(),
        Some(-1) => format!("-{var}"),
        _ => format!("{slope}·{var}"),
    };
    if intercept.is_zero() {
        return term;
    }
    match term.strip_prefix('-') {
        Some(rest) => format!("{intercept} - {rest}"),
        None => format!("{intercept} + {term}"),
    }
}

impl Pwl {
    /// The line `slope·x + intercept`.
    pub fn linear(slope: Q, intercept: Q) -> Pwl {
        Pwl {
            knots: vec![(Q::zero(), intercept)],
            left_slope: slope.clone(),
            right_slope: slope,
        }
    }

    /// The constant `c`.
    pub fn constant(c: Q) -> Pwl {
        Pwl::linear(Q::zero(), c)
    }

    /// The function through `points` (strictly increasing x), extended by the tail slopes.
    pub fn from_points(
        left_slope: Q,
        points: Vec<(Q, Q)>,
        right_slope: Q,
    ) -> Result<Pwl, PwlError> {
        if points.is_empty() {
            return Err(PwlError::NoPoints);
        }
        for w in points.windows(2) {
            if w[0].0 >= w[1].0 {
                return Err(PwlError::NotIncreasing {
                    prev: w[0].0.to_string(),
                    next: w[1].0.to_string(),
                });
            }
        }
        Ok(Pwl::normalized(left_slope, points, right_slope))
    }

    /// Builds the canonical form; `points` must be non-empty with strictly increasing x.
    fn normalized(left_slope: Q, points: Vec<(Q, Q)>, right_slope: Q) -> Pwl {
        let n = points.len();
        let segment: Vec<Q> = points
            .windows(2)
            .map(|w| (&w[1].1 - &w[0].1) / (&w[1].0 - &w[0].0))
            .collect();
        let mut knots = Vec::with_capacity(n);
        for (i, point) in points.iter().enumerate() {
            let before = if i == 0 { &left_slope } else { &segment[i - 1] };
            let after = if i + 1 == n {
                &right_slope
            } else {
                &segment[i]
            };
            if before != after {
                knots.push(point.clone());
            }
        }
        if knots.is_empty() {
            let (x0, y0) = &points[0];
            let intercept = y0 - &(&left_slope * x0);
            return Pwl::linear(left_slope, intercept);
        }
        Pwl {
            knots,
            left_slope,
            right_slope,
        }
    }

    /// Whether the function is a single line.
    pub fn is_linear(&self) -> bool {
        self.left_slope == self.right_slope && self.knots.len() == 1
    }

    /// The breakpoints `(x, f(x))` where the slope changes, in increasing x.
    pub fn breakpoints(&self) -> &[(Q, Q)] {
        if self.is_linear() { &[] } else { &self.knots }
    }

    /// Slope as x → −∞.
    pub fn left_slope(&self) -> &Q {
        &self.left_slope
    }

    /// Slope as x → +∞.
    pub fn right_slope(&self) -> &Q {
        &self.right_slope
    }

    /// The constant c with f(x) = left_slope·x + c for all x left of the first breakpoint.
    pub fn left_intercept(&self) -> Q {
        let (x, y) = &self.knots[0];
        y - &(&self.left_slope * x)
    }

    /// The constant c with f(x) = right_slope·x + c for all x right of the last breakpoint.
    pub fn right_intercept(&self) -> Q {
        let (x, y) = self.knots.last().expect("knots are never empty");
        y - &(&self.right_slope * x)
    }

    /// f(x), exactly.
    pub fn eval(&self, x: &Q) -> Q {
        let i = self.knots.partition_point(|(kx, _)| kx <= x);
        if i == 0 {
            let (x0, y0) = &self.knots[0];
            return y0 + &(&self.left_slope * &(x - x0));
        }
        let (xa, ya) = &self.knots[i - 1];
        if i == self.knots.len() {
            return ya + &(&self.right_slope * &(x - xa));
        }
        let (xb, yb) = &self.knots[i];
        ya + &((yb - ya) * (x - xa) / (xb - xa))
    }

    /// The linear pieces from left to right.
    pub fn pieces(&self) -> Vec<Piece> {
        let bps = self.breakpoints();
        if bps.is_empty() {
            return vec![Piece {
                lo: None,
                hi: None,
                slope: self.left_slope.clone(),
                intercept: self.left_intercept(),
            }];
        }
        let mut out = vec![Piece {
            lo: None,
            hi: Some(bps[0].0.clone()),
            slope: self.left_slope.clone(),
            intercept: self.left_intercept(),
        }];
        for w in bps.windows(2) {
            let slope = (&w[1].1 - &w[0].1) / (&w[1].0 - &w[0].0);
            let intercept = &w[0].1 - &(&slope * &w[0].0);
            out.push(Piece {
                lo: Some(w[0].0.clone()),
                hi: Some(w[1].0.clone()),
                slope,
                intercept,
            });
        }
        out.push(Piece {
            lo: Some(bps[bps.len() - 1].0.clone()),
            hi: None,
            slope: self.right_slope.clone(),
            intercept: self.right_intercept(),
        });
        out
    }

    /// −f.
    pub fn neg(&self) -> Pwl {
        Pwl {
            knots: self.knots.iter().map(|(x, y)| (x.clone(), -y)).collect(),
            left_slope: -&self.left_slope,
            right_slope: -&self.right_slope,
        }
    }

    /// f + c.
    pub fn add_const(&self, c: &Q) -> Pwl {
        Pwl {
            knots: self.knots.iter().map(|(x, y)| (x.clone(), y + c)).collect(),
            left_slope: self.left_slope.clone(),
            right_slope: self.right_slope.clone(),
        }
    }

    /// c − f, the form every scoring recursion step takes.
    pub fn const_minus(&self, c: &Q) -> Pwl {
        self.neg().add_const(c)
    }

    /// f + g.
    pub fn add(&self, other: &Pwl) -> Pwl {
        let xs = merged_xs(&self.knots, &other.knots);
        let points = xs.into_iter().map(|x| {
            let y = self.eval(&x) + other.eval(&x);
            (x, y)
        });
        Pwl::normalized(
            &self.left_slope + &other.left_slope,
            points.collect(),
            &self.right_slope + &other.right_slope,
        )
    }

    /// Pointwise max(f, g).
    pub fn max(&self, other: &Pwl) -> Pwl {
        let xs = merged_xs(&self.knots, &other.knots);
        let diff = |x: &Q| self.eval(x) - other.eval(x);
        let mut points: Vec<Q> = Vec::with_capacity(2 * xs.len() + 2);
        // Left tail: f − g = d0 + ds·(x − x0) for x ≤ x0.
        let (x0, d0) = (&xs[0], diff(&xs[0]));
        let ds_left = &self.left_slope - &other.left_slope;
        if !ds_left.is_zero() {
            let cross = x0 - &(&d0 / &ds_left);
            if &cross < x0 {
                points.push(cross);
            }
        }
        let mut d_prev = d0.clone();
        points.push(x0.clone());
        for w in xs.windows(2) {
            let d_next = diff(&w[1]);
            if d_prev.signum() * d_next.signum() < 0 {
                let t = &d_prev / &(&d_prev - &d_next);
                points.push(&w[0] + &(&(&w[1] - &w[0]) * &t));
            }
            points.push(w[1].clone());
            d_prev = d_next;
        }
        let xn = &xs[xs.len() - 1];
        let ds_right = &self.right_slope - &other.right_slope;
        if !ds_right.is_zero() {
            let cross = xn - &(&d_prev / &ds_right);
            if &cross > xn {
                points.push(cross);
            }
        }
        let values: Vec<(Q, Q)> = points
            .into_iter()
            .map(|x| {
                let (a, b) = (self.eval(&x), other.eval(&x));
                (x, if a >= b { a } else { b })
            })
            .collect();
        // As x → −∞ the smaller slope wins; as x → +∞ the larger one.
        let left = match ds_left.signum().cmp(&0) {
            Ordering::Less => self.left_slope.clone(),
            Ordering::Greater => other.left_slope.clone(),
            Ordering::Equal => self.left_slope.clone(),
        };
        let right = match ds_right.signum().cmp(&0) {
            Ordering::Greater | Ordering::Equal => self.right_slope.clone(),
            Ordering::Less => other.right_slope.clone(),
        };
        Pwl::normalized(left, values, right)
    }

    /// Pointwise min(f, g).
    pub fn min(&self, other: &Pwl) -> Pwl {
        self.neg().max(&other.neg()).neg()
    }

    /// Pointwise maximum of a non-empty family; `None` for an empty one.
    pub fn max_all<'a>(fs: impl IntoIterator<Item = &'a Pwl>) -> Option<Pwl> {
        let mut level: Vec<Pwl> = fs.into_iter().cloned().collect();
        // Pairwise tree reduction keeps intermediate functions small.
        while level.len() > 1 {
            level = level
                .chunks(2)
                .map(|c| {
                    if c.len() == 2 {
                        c[0].max(&c[1])
                    } else {
                        c[0].clone()
                    }
                })
                .collect();
        }
        level.pop()
    }
}

/// Sorted, de-duplicated union of the knot abscissae of two functions.
fn merged_xs(a: &[(Q, Q)], b: &[(Q, Q)]) -> Vec<Q> {
    let mut xs: Vec<Q> = a.iter().chain(b).map(|(x, _)| x.clone()).collect();
    xs.sort();
    xs.dedup();
    xs
}

impl fmt::Display for Pwl {
    /// `[left_slope] (x,y) (x,y) … [right_slope]`; a line shows its anchor at x = 0.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.left_slope)?;
        for (x, y) in &self.knots {
            write!(f, " ({x},{y})")?;
        }
        write!(f, " [{}]", self.right_slope)
    }
}

impl FromStr for Pwl {
    type Err = PwlError;

    fn from_str(s: &str) -> Result<Pwl, PwlError> {
        let err = || PwlError::Syntax(s.to_string());
        let t = s.trim();
        let rest = t.strip_prefix('[').ok_or_else(err)?;
        let (left, rest) = rest.split_once(']').ok_or_else(err)?;
        let open = rest.rfind('[').ok_or_else(err)?;
        let (body, right) = rest.split_at(open);
        let right = right
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .ok_or_else(err)?;
        let mut points = Vec::new();
        for chunk in body.split(')') {
            let chunk = chunk.trim();
            if chunk.is_empty() {
                continue;
            }
            let inner = chunk.strip_prefix('(').ok_or_else(err)?;
            let (x, y) = inner.split_once(',').ok_or_else(err)?;
            points.push((x.parse().map_err(|_| err())?, y.parse().map_err(|_| err())?));
        }
        Pwl::from_points(
            left.parse().map_err(|_| err())?,
            points,
            right.parse().map_err(|_| err())?,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Q {
        s.parse().unwrap()
    }

    fn abs_shifted(c: i64) -> Pwl {
        // |x − c|
        Pwl::from_points(Q::int(-1), vec![(Q::int(c), Q::zero())], Q::int(1)).unwrap()
    }

    #[test]
    fn canonical_form_drops_collinear_points() {
        let f = Pwl::from_points(
            Q::int(1),
            vec![
                (Q::int(0), Q::int(0)),
                (Q::int(1), Q::int(1)),
                (Q::int(2), Q::int(2)),
            ],
            Q::int(1),
        )
        .unwrap();
        assert_eq!(f, Pwl::linear(Q::int(1), Q::zero()));
        assert!(f.breakpoints().is_empty());
    }

    #[test]
    fn max_finds_crossings_in_tails_and_inside() {
        // max(x, −x) = |x|, crossing at 0 found in the tails of two lines.
        let x = Pwl::linear(Q::int(1), Q::zero());
        assert_eq!(x.max(&x.neg()), abs_shifted(0));
        // max(|x|, 2 − |x − 1|): crossings at −1/2 and 3/2 strictly inside knot gaps and tails.
        let tent = abs_shifted(1).const_minus(&Q::int(2));
        let m = abs_shifted(0).max(&tent);
        let bps: Vec<(Q, Q)> = m.breakpoints().to_vec();
        assert_eq!(
            bps,
            vec![
                (q("-1/2"), q("1/2")),
                (q("1"), q("2")),
                (q("3/2"), q("3/2"))
            ]
        );
        assert_eq!(m.eval(&q("1/4")), q("5/4"));
    }

    #[test]
    fn min_max_neg_add_agree_pointwise() {
        let f = abs_shifted(2).add_const(&q("-3/2"));
        let g = abs_shifted(-1).const_minus(&Q::int(4));
        let (mx, mn, sum) = (f.max(&g), f.min(&g), f.add(&g));
        for i in -20..=20 {
            let x = Q::frac(i, 4);
            let (a, b) = (f.eval(&x), g.eval(&x));
            assert_eq!(mx.eval(&x), a.clone().max(b.clone()));
            assert_eq!(mn.eval(&x), a.clone().min(b.clone()));
            assert_eq!(sum.eval(&x), a + b);
        }
    }

    #[test]
    fn display_parse_and_serde_round_trip() {
        let f = abs_shifted(3).max(&Pwl::constant(q("5/2")));
        let text = f.to_string();
        assert_eq!(text, "[-1] (1/2,5/2) (11/2,5/2) [1]");
        assert_eq!(text.parse::<Pwl>().unwrap(), f);
        let json = serde_json::to_string(&f).unwrap();
        assert_eq!(serde_json::from_str::<Pwl>(&json).unwrap(), f);
        assert!("[1] (2,0) (1,0) [1]".parse::<Pwl>().is_err());
        assert!(
            serde_json::from_str::<Pwl>(r#"{"left_slope":"1","knots":[],"right_slope":"1"}"#)
                .is_err()
        );
    }

    #[test]
    fn tails_and_pieces() {
        let f = abs_shifted(3).add_const(&Q::int(2)); // |x−3| + 2
        assert_eq!(f.left_intercept(), Q::int(5));
        assert_eq!(f.right_intercept(), Q::int(-1));
        let pieces = f.pieces();
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[1].lo, Some(Q::int(3)));
    }
}
