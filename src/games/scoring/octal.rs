//! Stewart's scoring octal games as rulesets of the scoring engine.
//!
//! A ruleset O = (t₁…t_k, p₁…p_k): removing i beans from a heap scores p_i points (any rational)
//! and the octal digit t_i says what may be left of that heap — bit 1: nothing (the heap had
//! exactly i beans), bit 2: one non-empty heap, bit 4: two non-empty heaps (taking and breaking).
//! The usual spelling of the code is `0.t₁t₂…`; Stewart writes `(t₁t₂…, p₁p₂…)`. A subtraction
//! set S is the code with t_i = 3 for i ∈ S. Unless points are given, p_i = i (one point per bean).
//!
//! Only the look-back matters to periodicity proofs: a code without bit 4 ("taking, no
//! breaking") gives single heaps a recurrence of order k, the number of digits.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use itertools::Itertools;

use super::nim::Nim;
use super::ruleset::{HeapMove, HeapSize, Ruleset, UniformTail};
use crate::num::Q;

/// Longest code accepted: moves of up to this many beans.
pub const MAX_DIGITS: usize = 4096;

/// A scoring octal ruleset: digits t₁…t_k (each 0–7) and points p₁…p_k.
///
/// Invariants: at least one digit; `points.len() == digits.len()`; the last digit is non-zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OctalRules {
    digits: Vec<u8>,
    points: Vec<Q>,
    /// Whether the user gave a subtraction set (only affects how the rules are printed).
    subtraction: bool,
}

/// Why a ruleset was rejected; the message names the offending input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RulesError(String);

fn bad(msg: impl Into<String>) -> RulesError {
    RulesError(msg.into())
}

impl OctalRules {
    /// A code from its digits, with p_i = i unless `points` is given (one per digit).
    pub fn new(digits: Vec<u8>, points: Option<Vec<Q>>) -> Result<OctalRules, RulesError> {
        if digits.is_empty() {
            return Err(bad("an octal code needs at least one digit after `0.`"));
        }
        if digits.len() > MAX_DIGITS {
            return Err(bad(format!(
                "an octal code may have at most {MAX_DIGITS} digits ({} given)",
                digits.len()
            )));
        }
        if let Some(d) = digits.iter().find(|&&d| d > 7) {
            return Err(bad(format!("{d} is not an octal digit (0–7)")));
        }
        let points = match points {
            Some(p) if p.len() != digits.len() => {
                return Err(bad(format!(
                    "{} points given for a code with {} digits; give one point value per digit",
                    p.len(),
                    digits.len()
                )));
            }
            Some(p) => p,
            None => (1..=digits.len() as i64).map(Q::int).collect(),
        };
        let mut digits = digits;
        let mut points = points;
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
            points.pop();
        }
        if digits == [0] {
            return Err(bad("the code 0.0 allows no move at all"));
        }
        Ok(OctalRules {
            digits,
            points,
            subtraction: false,
        })
    }

    /// The subtraction game S (t_i = 3 for i ∈ S). `points` holds one value per element of S (in
    /// increasing order) or one per i = 1..max S; by default p_i = i.
    pub fn subtraction(set: &[HeapSize], points: Option<Vec<Q>>) -> Result<OctalRules, RulesError> {
        let mut s = set.to_vec();
        s.sort_unstable();
        s.dedup();
        if s.is_empty() {
            return Err(bad("a subtraction set needs at least one element"));
        }
        if s[0] == 0 {
            return Err(bad(
                "0 cannot be in a subtraction set (a move removes at least one bean)",
            ));
        }
        let k = *s.last().expect("non-empty") as usize;
        if k > MAX_DIGITS {
            return Err(bad(format!(
                "subtraction set element {k} exceeds the supported {MAX_DIGITS}"
            )));
        }
        let mut digits = vec![0u8; k];
        for &i in &s {
            digits[i as usize - 1] = 3;
        }
        let points = match points {
            None => None,
            Some(p) if p.len() == k => Some(p),
            Some(p) if p.len() == s.len() => {
                let mut full: Vec<Q> = (1..=k as i64).map(Q::int).collect();
                for (&i, v) in s.iter().zip(p) {
                    full[i as usize - 1] = v;
                }
                Some(full)
            }
            Some(p) => {
                return Err(bad(format!(
                    "{} points given for the subtraction set {{{}}}; give one per element ({}) or one per i = 1..{k}",
                    p.len(),
                    s.iter().join(","),
                    s.len()
                )));
            }
        };
        let mut rules = OctalRules::new(digits, points)?;
        rules.subtraction = true;
        Ok(rules)
    }

    /// The digits t₁…t_k.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The points p₁…p_k.
    pub fn points(&self) -> &[Q] {
        &self.points
    }

    /// k: the most beans one move removes, and the order of the single-heap recurrence.
    pub fn max_take(&self) -> usize {
        self.digits.len()
    }

    /// The common score of every move, when all moves score the same: p_i over the digits
    /// t_i ≠ 0 (a zero digit allows no move, so its point never counts).
    pub fn constant_points(&self) -> Option<&Q> {
        let mut live = self
            .digits
            .iter()
            .zip(&self.points)
            .filter(|(d, _)| **d != 0)
            .map(|(_, p)| p);
        let first = live.next()?;
        live.all(|p| p == first).then_some(first)
    }

    /// The subtraction set {i : t_i = 3}, if the code is a subtraction game.
    pub fn subtraction_set(&self) -> Option<Vec<HeapSize>> {
        self.digits.iter().all(|&d| d == 0 || d == 3).then(|| {
            (1..=self.digits.len() as HeapSize)
                .filter(|&i| self.digits[i as usize - 1] == 3)
                .collect()
        })
    }

    /// The subtraction set the user gave, when the rules were written as one ({4,5}) with the
    /// default points: how they read best, and how [`fmt::Display`] prints them.
    pub fn written_as_set(&self) -> Option<Vec<HeapSize>> {
        self.subtraction_set()
            .filter(|_| self.subtraction && self.default_points())
    }

    /// Whether points are the default p_i = i.
    pub fn default_points(&self) -> bool {
        self.points
            .iter()
            .enumerate()
            .all(|(i, p)| *p == Q::int(i as i64 + 1))
    }

    /// The code as `0.t₁t₂…`.
    pub fn code(&self) -> String {
        format!("0.{}", self.digits.iter().join(""))
    }
}

impl fmt::Display for OctalRules {
    /// `0.26` or `{4,5}` with default points; otherwise Stewart's `(3333, 2,2,2,2)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.default_points() {
            match self.written_as_set() {
                Some(s) => write!(f, "{{{}}}", s.iter().join(",")),
                None => write!(f, "{}", self.code()),
            }
        } else {
            write!(
                f,
                "({}, {})",
                self.digits.iter().join(""),
                self.points.iter().join(",")
            )
        }
    }
}

impl FromStr for OctalRules {
    type Err = RulesError;

    /// Accepts `0.3333`, `.3333`, Stewart's `(3333, 2222)` (one digit per point) and
    /// `(3333, 2,2,2,1/2)` (comma-separated rational points).
    fn from_str(s: &str) -> Result<OctalRules, RulesError> {
        let t = s.trim();
        if let Some(inner) = t.strip_prefix('(') {
            let inner = inner.strip_suffix(')').ok_or_else(|| {
                bad(format!(
                    "`{t}`: Stewart's spelling is `(digits, points)`, with a closing parenthesis"
                ))
            })?;
            let (code, points) = inner.split_once(',').ok_or_else(|| {
                bad(format!(
                    "`{t}`: expected `(digits, points)`, e.g. `(3333, 2222)`"
                ))
            })?;
            let digits = parse_digits(code.trim(), t)?;
            let points = points.trim();
            let points: Vec<Q> = if points.contains(',') || points.contains(char::is_whitespace) {
                points
                    .split([',', ' '])
                    .filter(|p| !p.trim().is_empty())
                    .map(|p| parse_point(p, t))
                    .collect::<Result<_, _>>()?
            } else if points.len() == digits.len() && points.bytes().all(|b| b.is_ascii_digit()) {
                points
                    .chars()
                    .map(|c| Q::int(i64::from(c as u8 - b'0')))
                    .collect()
            } else if digits.len() == 1 {
                // One digit, one point: any rational, e.g. `(1, -1)` or `(2, 1/2)`.
                vec![parse_point(points, t)?]
            } else {
                return Err(bad(format!(
                    "`{t}`: the points `{points}` must be one digit per code digit ({} digits) or a comma-separated list",
                    digits.len()
                )));
            };
            return OctalRules::new(digits, Some(points)).map_err(|e| bad(format!("`{t}`: {e}")));
        }
        let body = t
            .strip_prefix("0.")
            .or_else(|| t.strip_prefix('.'))
            .ok_or_else(|| {
                bad(format!(
                    "`{t}` is not an octal code; write it as `0.` followed by octal digits, e.g. `0.137`, or as `(3333, 2222)`"
                ))
            })?;
        let digits = parse_digits(body, t)?;
        OctalRules::new(digits, None).map_err(|e| bad(format!("`{t}`: {e}")))
    }
}

/// Parses a subtraction set such as `4,5` or `{4,5}`.
pub fn parse_set(s: &str) -> Result<Vec<HeapSize>, RulesError> {
    let body = s.trim().trim_start_matches('{').trim_end_matches('}');
    if body.trim().is_empty() {
        return Err(bad(format!(
            "`{s}`: a subtraction set needs at least one element"
        )));
    }
    body.split(',')
        .map(|e| {
            crate::num::parse_whole(e, 1, HeapSize::MAX).map_err(|err| {
                bad(format!(
                    "`{}`: `{}` {} a positive whole number from 1 to {} (subtraction sets hold beans removed)",
                    crate::num::excerpt(s),
                    err.text.trim(),
                    err.problem,
                    err.max
                ))
            })
        })
        .collect()
}

/// Any ruleset by name: `nim`, a subtraction set `{4,5}`, a code `0.26`, or `(3333, 2222)`.
pub fn parse_rules(s: &str) -> Result<Arc<dyn Ruleset>, RulesError> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("nim") {
        return Ok(Arc::new(Nim));
    }
    if t.starts_with('{') {
        return Ok(Arc::new(OctalRules::subtraction(&parse_set(t)?, None)?));
    }
    Ok(Arc::new(t.parse::<OctalRules>()?))
}

fn parse_digits(body: &str, whole: &str) -> Result<Vec<u8>, RulesError> {
    if body.is_empty() {
        return Err(bad(format!("`{whole}`: the code has no digits")));
    }
    body.chars()
        .enumerate()
        .map(|(i, c)| match (c.to_digit(8), c.to_digit(16)) {
            (Some(d), _) => Ok(d as u8),
            // Bit 8 (leave three heaps) is normal play's business: scoring play is octal only.
            (None, Some(_)) => Err(bad(format!(
                "`{whole}`: `{c}` (digit {}) is a hexadecimal digit (a move may leave three heaps); scoring play supports octal digits 0–7 only, normal play all of them (`nimlab octal grundy {whole}`, `octal period --normal-play`)",
                i + 1
            ))),
            (None, None) => Err(bad(format!(
                "`{whole}`: `{c}` (digit {}) is not an octal digit 0–7",
                i + 1
            ))),
        })
        .collect()
}

fn parse_point(p: &str, whole: &str) -> Result<Q, RulesError> {
    p.trim().parse::<Q>().map_err(|_| {
        bad(format!(
            "`{whole}`: the point value `{}` is not a rational number",
            p.trim()
        ))
    })
}

impl Ruleset for OctalRules {
    fn name(&self) -> String {
        self.to_string()
    }

    fn heap_moves(&self, heap: HeapSize) -> Vec<HeapMove> {
        let mut out = Vec::new();
        for (i, (&t, p)) in self.digits.iter().zip(&self.points).enumerate() {
            let take = i as HeapSize + 1;
            if take > heap {
                break;
            }
            let rest = heap - take;
            if t & 1 != 0 && rest == 0 {
                out.push(HeapMove {
                    points: p.clone(),
                    leaves: vec![],
                });
            }
            if t & 2 != 0 && rest >= 1 {
                out.push(HeapMove {
                    points: p.clone(),
                    leaves: vec![rest],
                });
            }
            if t & 4 != 0 && rest >= 2 {
                for b in 1..=rest / 2 {
                    out.push(HeapMove {
                        points: p.clone(),
                        leaves: vec![rest - b, b],
                    });
                }
            }
        }
        out
    }

    fn move_count(&self, heap: HeapSize) -> u64 {
        let mut count = 0u64;
        for (i, &t) in self.digits.iter().enumerate() {
            let take = i as u64 + 1;
            let Some(rest) = u64::from(heap).checked_sub(take) else {
                break;
            };
            count += u64::from(t & 1 != 0 && rest == 0)
                + u64::from(t & 2 != 0 && rest >= 1)
                + if t & 4 != 0 { rest / 2 } else { 0 };
        }
        count
    }

    fn splits(&self) -> bool {
        self.digits.iter().any(|&d| d & 4 != 0)
    }

    fn as_octal(&self) -> Option<&OctalRules> {
        Some(self)
    }

    /// Without breaking digits, a heap above k loses i beans for each t_i with bit 2.
    fn uniform_tail(&self) -> Option<UniformTail> {
        (!self.splits()).then(|| UniformTail {
            above: self.digits.len() as HeapSize,
            moves: self
                .digits
                .iter()
                .zip(&self.points)
                .enumerate()
                .filter(|(_, (t, _))| *t & 2 != 0)
                .map(|(i, (_, p))| (i as HeapSize + 1, p.clone()))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(s: &str) -> OctalRules {
        s.parse().unwrap()
    }

    #[test]
    fn both_spellings_parse_to_the_same_rules() {
        let a = rules("(3333, 2222)");
        let b = OctalRules::new(vec![3, 3, 3, 3], Some(vec![Q::int(2); 4])).unwrap();
        assert_eq!(a, b);
        assert_eq!(rules("(3333, 2,2,2,2)"), b);
        assert_eq!(a.to_string(), "(3333, 2,2,2,2)");
        assert_eq!(rules("0.26").to_string(), "0.26");
        assert_eq!(rules(".26"), rules("0.26"));
        assert_eq!(
            rules("(26, 1/2, -3)").points(),
            &[Q::frac(1, 2), Q::int(-3)]
        );
        // Trailing zero digits allow nothing and are dropped.
        assert_eq!(rules("0.260"), rules("0.26"));
    }

    #[test]
    fn malformed_codes_name_the_problem() {
        for (input, needle) in [
            ("0.9", "`9`"),
            ("0.", "no digits"),
            ("", "not an octal code"),
            ("0.00", "no move"),
            ("(33, 2)", "points `2`"),
            ("(33, 1,x)", "`x`"),
            ("(33, 1,2,3)", "3 points"),
            ("(33 22)", "(digits, points)"),
            ("(33, 22", "closing"),
            ("1.3", "not an octal code"),
        ] {
            let e = input.parse::<OctalRules>().unwrap_err().to_string();
            assert!(e.contains(needle), "{input:?}: {e}");
        }
    }

    #[test]
    fn subtraction_sets_are_codes_with_digit_3() {
        let s = OctalRules::subtraction(&[5, 4, 4], None).unwrap();
        assert_eq!(s.code(), "0.00033");
        assert_eq!(s.to_string(), "{4,5}");
        assert_eq!(s.subtraction_set(), Some(vec![4, 5]));
        let p = OctalRules::subtraction(&[4, 5], Some(vec![Q::int(7), Q::int(9)])).unwrap();
        assert_eq!(p.points()[3..], [Q::int(7), Q::int(9)]);
        assert!(OctalRules::subtraction(&[4, 5], Some(vec![Q::int(1); 3])).is_err());
        assert!(OctalRules::subtraction(&[0, 2], None).is_err());
        assert!(OctalRules::subtraction(&[], None).is_err());
    }

    #[test]
    fn any_ruleset_parses_by_name() {
        assert_eq!(parse_rules("nim").unwrap().name(), "nim");
        assert_eq!(parse_rules("{5,4}").unwrap().name(), "{4,5}");
        assert_eq!(parse_rules("0.26").unwrap().name(), "0.26");
        assert_eq!(parse_rules("(33, 12)").unwrap().name(), "0.33");
        assert_eq!(parse_rules("(33, 22)").unwrap().name(), "(33, 2,2)");
        assert!(parse_set("4,x").unwrap_err().to_string().contains("`x`"));
        assert!(parse_set("4,0").is_err() && parse_set("{}").is_err());
    }

    #[test]
    fn moves_follow_the_digit_bits() {
        // 0.137: take 1 only if it empties the heap; take 2 leaving 0 or 1 heap; take 3 leaving
        // 0, 1 or 2 heaps.
        let r = rules("0.137");
        let leaves =
            |n| -> Vec<Vec<HeapSize>> { r.heap_moves(n).into_iter().map(|m| m.leaves).collect() };
        assert_eq!(leaves(1), vec![Vec::<HeapSize>::new()]);
        assert_eq!(leaves(2), vec![Vec::<HeapSize>::new()]);
        assert_eq!(leaves(3), vec![vec![1], Vec::<HeapSize>::new()]);
        assert_eq!(leaves(6), vec![vec![4], vec![3], vec![2, 1]]);
        assert!(r.splits() && !rules("0.33").splits());
        for n in 0..40 {
            assert_eq!(r.move_count(n), r.heap_moves(n).len() as u64, "n = {n}");
        }
        // Points go with the number of beans removed.
        let p: Vec<Q> = r.heap_moves(6).into_iter().map(|m| m.points).collect();
        assert_eq!(p, [Q::int(2), Q::int(3), Q::int(3)]);
    }
}
