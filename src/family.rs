//! Families of positions whose heaps are integer-affine in named parameters, such as
//! `2k+1,2k,1` or `x,2k,1` — the shape of the papers' closed forms (Scoring Nim Thm 6.3,
//! Candy Nim's [31, 32m, 32m+31]). A family plus one inclusive range per parameter lists its
//! members; every heap must come out non-negative.
//!
//! Grammar (whitespace allowed): `family := expr (',' expr)*`, `expr := term (('+'|'-') term)*`,
//! `term := ['-'] factor (['*'] factor)*` with each factor an integer or a parameter name
//! (letters, digits after the first) and at most one parameter per term.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::{Error, Result};
use crate::num::IntRange;

/// A syntax error in a family expression, pointing at a column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct FamilyParseError {
    /// The text parsed.
    pub input: String,
    /// 1-based column of the problem.
    pub column: usize,
    /// What was expected or found.
    pub message: String,
}

impl fmt::Display for FamilyParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "family '{}', column {}: {}",
            self.input, self.column, self.message
        )?;
        writeln!(f, "  {}", self.input)?;
        write!(f, "  {}^", " ".repeat(self.column.saturating_sub(1)))
    }
}

/// c₀ + Σ cᵥ·v with integer coefficients.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Affine {
    constant: i64,
    coefficients: BTreeMap<String, i64>,
}

impl Affine {
    /// The constant term c₀.
    pub fn constant(&self) -> i64 {
        self.constant
    }

    /// The non-zero coefficients cᵥ, by parameter name.
    pub fn coefficients(&self) -> &BTreeMap<String, i64> {
        &self.coefficients
    }

    /// Value at an assignment; `None` on overflow or a missing parameter.
    pub fn eval(&self, at: &BTreeMap<String, i64>) -> Option<i64> {
        self.coefficients
            .iter()
            .try_fold(self.constant, |acc, (v, c)| {
                acc.checked_add(c.checked_mul(*at.get(v)?)?)
            })
    }
}

impl fmt::Display for Affine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (v, &c) in &self.coefficients {
            let sign = if c < 0 {
                "-"
            } else if first {
                ""
            } else {
                "+"
            };
            let mag = c.unsigned_abs();
            if mag == 1 {
                write!(f, "{sign}{v}")?
            } else {
                write!(f, "{sign}{mag}{v}")?
            }
            first = false;
        }
        if first {
            write!(f, "{}", self.constant)
        } else if self.constant != 0 {
            write!(
                f,
                "{}{}",
                if self.constant < 0 { "-" } else { "+" },
                self.constant.unsigned_abs()
            )
        } else {
            Ok(())
        }
    }
}

/// A family of positions: one affine expression per heap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    text: String,
    heaps: Vec<Affine>,
}

/// One member of a family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Parameter values, by name.
    pub params: BTreeMap<String, i64>,
    /// Heap sizes in the family's order.
    pub heaps: Vec<u32>,
}

struct Parser<'a> {
    input: &'a str,
    chars: Vec<(usize, char)>,
    pos: usize,
}

impl Parser<'_> {
    fn column(&self) -> usize {
        self.chars
            .get(self.pos)
            .map_or(self.input.chars().count(), |(c, _)| *c)
            + 1
    }

    fn error(&self, message: impl Into<String>) -> FamilyParseError {
        FamilyParseError {
            input: self.input.to_string(),
            column: self.column(),
            message: message.into(),
        }
    }

    fn skip_ws(&mut self) {
        while self
            .chars
            .get(self.pos)
            .is_some_and(|(_, c)| c.is_whitespace())
        {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.chars.get(self.pos).map(|(_, c)| *c)
    }

    fn factor(&mut self) -> Result<Option<(i64, Option<String>)>, FamilyParseError> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let start = self.pos;
                while self
                    .chars
                    .get(self.pos)
                    .is_some_and(|(_, c)| c.is_ascii_digit())
                {
                    self.pos += 1;
                }
                let digits: String = self.chars[start..self.pos].iter().map(|(_, c)| c).collect();
                let n = digits.parse::<i64>().map_err(|_| {
                    self.pos = start;
                    self.error(format!("the number {digits} is too large"))
                })?;
                Ok(Some((n, None)))
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let start = self.pos;
                while self
                    .chars
                    .get(self.pos)
                    .is_some_and(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
                {
                    self.pos += 1;
                }
                Ok(Some((
                    1,
                    Some(self.chars[start..self.pos].iter().map(|(_, c)| c).collect()),
                )))
            }
            _ => Ok(None),
        }
    }

    fn term(&mut self, sign: i64) -> Result<(i64, Option<String>), FamilyParseError> {
        let mut sign = sign;
        if self.peek() == Some('-') {
            self.pos += 1;
            sign = -sign;
        }
        let Some((mut coef, mut var)) = self.factor()? else {
            return Err(self.error("expected a number or a parameter name"));
        };
        loop {
            let explicit = self.peek() == Some('*');
            if explicit {
                self.pos += 1;
            }
            let at = self.pos;
            match self.factor()? {
                Some((c, v)) => {
                    if v.is_some() && var.is_some() {
                        self.pos = at;
                        return Err(self.error(
                            "a term may contain only one parameter (heaps must be affine)",
                        ));
                    }
                    coef = coef
                        .checked_mul(c)
                        .ok_or_else(|| self.error("coefficient overflows"))?;
                    var = var.or(v);
                }
                None if explicit => {
                    return Err(self.error("expected a number or a parameter name after '*'"));
                }
                None => break,
            }
        }
        Ok((sign * coef, var))
    }

    fn expr(&mut self) -> Result<Affine, FamilyParseError> {
        let mut out = Affine::default();
        let mut sign = 1;
        loop {
            let (c, v) = self.term(sign)?;
            match v {
                Some(v) => {
                    let e = out.coefficients.entry(v).or_insert(0);
                    *e = e
                        .checked_add(c)
                        .ok_or_else(|| self.error("coefficient overflows"))?;
                }
                None => {
                    out.constant = out
                        .constant
                        .checked_add(c)
                        .ok_or_else(|| self.error("constant overflows"))?
                }
            }
            match self.peek() {
                Some('+') => sign = 1,
                Some('-') => sign = -1,
                _ => break,
            }
            self.pos += 1;
        }
        out.coefficients.retain(|_, c| *c != 0);
        Ok(out)
    }
}

impl std::str::FromStr for Family {
    type Err = FamilyParseError;

    fn from_str(s: &str) -> Result<Family, FamilyParseError> {
        let mut p = Parser {
            input: s,
            chars: s.chars().enumerate().collect(),
            pos: 0,
        };
        let mut heaps = vec![p.expr()?];
        while let Some(c) = p.peek() {
            if c != ',' {
                return Err(p.error(format!("expected ',', '+', '-' or the end, found '{c}'")));
            }
            p.pos += 1;
            heaps.push(p.expr()?);
        }
        Ok(Family {
            text: s.trim().to_string(),
            heaps,
        })
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Largest number of members a family listing may have.
pub const MAX_MEMBERS: u64 = 10_000_000;

impl Family {
    /// The heap expressions.
    pub fn heaps(&self) -> &[Affine] {
        &self.heaps
    }

    /// Names of the parameters, sorted.
    pub fn params(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .heaps
            .iter()
            .flat_map(|h| h.coefficients.keys().cloned())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// The parameters, after checking that `ranges` gives exactly one range to each.
    fn checked_params(&self, ranges: &BTreeMap<String, IntRange>) -> Result<Vec<String>> {
        let params = self.params();
        for p in &params {
            if !ranges.contains_key(p) {
                return Err(Error::invalid(format!(
                    "family '{self}' uses parameter {p} but no range was given for it (e.g. --param {p}=1..10)"
                )));
            }
        }
        if let Some(extra) = ranges.keys().find(|k| !params.contains(k)) {
            return Err(Error::invalid(format!(
                "a range was given for {extra}, which family '{self}' does not use"
            )));
        }
        Ok(params)
    }

    /// Number of members for the given ranges (`u64::MAX` when it overflows), without listing
    /// them.
    pub fn member_count(&self, ranges: &BTreeMap<String, IntRange>) -> Result<u64> {
        Ok(self
            .checked_params(ranges)?
            .iter()
            .try_fold(1u64, |acc, p| acc.checked_mul(ranges[p].len()))
            .unwrap_or(u64::MAX))
    }

    /// The largest value of each heap over all members, checking that every heap of every member
    /// lies in 0..=u32::MAX. An affine heap is extreme at a corner of the parameter box (each
    /// parameter at the end its coefficient's sign picks), so checking the two extreme corners
    /// per heap, in exact 128-bit arithmetic, checks every member: instant for any range.
    pub fn heap_maxima(&self, ranges: &BTreeMap<String, IntRange>) -> Result<Vec<u32>> {
        self.checked_params(ranges)?;
        let mut out = Vec::with_capacity(self.heaps.len());
        for (i, h) in self.heaps.iter().enumerate() {
            // The corner where the heap is least, then the one where it is largest.
            let corner = |largest: bool| -> BTreeMap<String, i64> {
                h.coefficients
                    .iter()
                    .map(|(v, &c)| {
                        let r = ranges[v];
                        (
                            v.clone(),
                            if (c > 0) == largest {
                                r.end()
                            } else {
                                r.start()
                            },
                        )
                    })
                    .collect()
            };
            let value = |at: &BTreeMap<String, i64>| -> Option<i128> {
                h.coefficients
                    .iter()
                    .try_fold(i128::from(h.constant), |acc, (v, &c)| {
                        acc.checked_add(i128::from(c).checked_mul(i128::from(at[v]))?)
                    })
            };
            let shown = |at: &BTreeMap<String, i64>| {
                at.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            for largest in [false, true] {
                let at = corner(largest);
                let ok = value(&at).filter(|v| (0..=i128::from(u32::MAX)).contains(v));
                if ok.is_none() {
                    let shown = if at.is_empty() {
                        "every member".to_string()
                    } else {
                        shown(&at)
                    };
                    return Err(Error::invalid(match value(&at) {
                        Some(v) => format!(
                            "at {shown}, heap {} = {h} is {v}; heaps must be between 0 and {}",
                            i + 1,
                            u32::MAX
                        ),
                        None => format!("at {shown}, heap {} = {h} overflows", i + 1),
                    }));
                }
                if largest {
                    out.push(ok.expect("checked") as u32);
                }
            }
        }
        Ok(out)
    }

    /// All members for the given ranges, the first parameter (alphabetically) varying slowest.
    pub fn members(&self, ranges: &BTreeMap<String, IntRange>) -> Result<Vec<Member>> {
        let params = self.checked_params(ranges)?;
        // Every heap of every member is checked here, before anything is listed.
        self.heap_maxima(ranges)?;
        let count = self.member_count(ranges)?;
        if count > MAX_MEMBERS {
            return Err(Error::invalid(format!(
                "the parameter ranges give {} members, more than the limit of {MAX_MEMBERS}; narrow them",
                if count == u64::MAX {
                    "over 2^64".to_string()
                } else {
                    count.to_string()
                }
            )));
        }
        let mut out = Vec::with_capacity(count as usize);
        let mut assignment = BTreeMap::new();
        self.members_rec(&params, ranges, &mut assignment, &mut out)?;
        Ok(out)
    }

    fn members_rec(
        &self,
        params: &[String],
        ranges: &BTreeMap<String, IntRange>,
        at: &mut BTreeMap<String, i64>,
        out: &mut Vec<Member>,
    ) -> Result<()> {
        let Some((p, rest)) = params.split_first() else {
            let heaps = self
                .heaps
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let v = h.eval(at);
                    v.and_then(|v| u32::try_from(v).ok()).ok_or_else(|| {
                        let shown = at
                            .iter()
                            .map(|(k, v)| format!("{k}={v}"))
                            .collect::<Vec<_>>()
                            .join(", ");
                        Error::invalid(match v {
                            Some(v) => format!(
                                "at {shown}, heap {} = {h} is {v}; heaps must be between 0 and {}",
                                i + 1,
                                u32::MAX
                            ),
                            None => format!("at {shown}, heap {} = {h} overflows", i + 1),
                        })
                    })
                })
                .collect::<Result<Vec<u32>>>()?;
            out.push(Member {
                params: at.clone(),
                heaps,
            });
            return Ok(());
        };
        for v in ranges[p].iter() {
            at.insert(p.clone(), v);
            self.members_rec(rest, ranges, at, out)?;
        }
        at.remove(p);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(spec: &[(&str, &str)]) -> BTreeMap<String, IntRange> {
        spec.iter()
            .map(|(k, r)| (k.to_string(), r.parse().unwrap()))
            .collect()
    }

    #[test]
    fn parses_paper_families() {
        let f: Family = "2k+1, 2k, 1".parse().unwrap();
        assert_eq!(f.params(), ["k"]);
        let m = f.members(&ranges(&[("k", "1..3")])).unwrap();
        assert_eq!(
            m.iter().map(|m| m.heaps.clone()).collect::<Vec<_>>(),
            [[3, 2, 1], [5, 4, 1], [7, 6, 1]]
        );
        let g: Family = "x,2*k,1".parse().unwrap();
        assert_eq!(g.params(), ["k", "x"]);
        assert_eq!(
            g.members(&ranges(&[("k", "1..2"), ("x", "6..7")]))
                .unwrap()
                .len(),
            4
        );
        let h: Family = "31,32m,32m+31".parse().unwrap();
        assert_eq!(
            h.members(&ranges(&[("m", "2")])).unwrap()[0].heaps,
            [31, 64, 95]
        );
        assert_eq!(
            "3 - k + 2k".parse::<Family>().unwrap().heaps()[0].to_string(),
            "k+3"
        );
    }

    #[test]
    fn errors_point_at_the_column() {
        let e = "2k+*1".parse::<Family>().unwrap_err();
        assert_eq!(e.column, 4);
        assert!(e.to_string().ends_with("     ^"), "{e}");
        assert_eq!("2k k".parse::<Family>().unwrap_err().column, 4);
        assert_eq!("2k,".parse::<Family>().unwrap_err().column, 4);
        assert!(
            "2k;1"
                .parse::<Family>()
                .unwrap_err()
                .message
                .contains("found ';'")
        );
        let f: Family = "2k-3".parse().unwrap();
        let err = f
            .members(&ranges(&[("k", "1..2")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("k=1") && err.contains("is -1"), "{err}");
        assert!(f.members(&ranges(&[("k", "1"), ("m", "1")])).is_err());
        assert!(f.members(&ranges(&[])).is_err());
    }

    #[test]
    fn huge_parameters_are_refused_at_once_naming_the_member() {
        let f: Family = "2k+1,2k,1".parse().unwrap();
        let r = ranges(&[("k", "1..9223372036854775807")]);
        let err = f.members(&r).unwrap_err().to_string();
        assert!(
            err.contains("k=9223372036854775807") && err.contains("heap 1"),
            "{err}"
        );
        let fits = ranges(&[("k", "0..2147483647")]);
        assert_eq!(f.heap_maxima(&fits).unwrap(), [u32::MAX, u32::MAX - 1, 1]);
        assert!(f.heap_maxima(&ranges(&[("k", "0..2147483648")])).is_err());
        let neg: Family = "5-k".parse().unwrap();
        let err = neg
            .heap_maxima(&ranges(&[("k", "0..6")]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("k=6") && err.contains("is -1"), "{err}");
        let wide = ranges(&[("k", "-9223372036854775808..9223372036854775807")]);
        assert_eq!(f.member_count(&wide).unwrap(), u64::MAX);
    }
}
