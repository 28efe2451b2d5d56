//! Claims built as values. Library code that wants a claim checked — a mined closed form
//! re-verified beyond its data, say — states it here: syntax trees from the constructors on
//! [`Expr`] and [`Binder`], and the claim from a [`ClaimBuilder`], which runs the checks a claim
//! file's loader runs (names, arities and kinds of every expression, the size of every range
//! with constant bounds). No claim-file text is written and nothing is parsed back.
//!
//! The loader ([`super::registry`]) builds the same values from a file: a claim read from a
//! file and the same claim built here are equal once their places in the file are set aside
//! ([`Claim::unplaced`]). A [`Registry`](super::Registry) of built claims comes from
//! [`Registry::from_claims`](super::Registry::from_claims).
//!
//! The constructors of numbers build what the parser reads from a number's text: `-3` is the
//! negation of `3` and `-3/4` is `(-3) / 4`, so a tree built from a value equals the tree parsed
//! from the value's printed form.

use std::ops::{Add, Mul, Neg, Sub};

use num_bigint::BigInt;

use super::eval::Definitions;
use super::expr::{BinOp, Binder, CmpOp, Domain, Expr, ExprError, ExprKind, Span};
use super::finding::Commentary;
use super::registry::{
    Assertion, Check, Claim, ClaimPlace, ExprCheck, Quantifiers, ReadingCheck, check_quantifiers,
    check_typed, same_variables,
};
use super::value::Ty;
use crate::error::{Error, Result};
use crate::num::Q;

fn node(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

impl Expr {
    /// The integer `n` as the parser reads its text: `-n` is the negation of the literal `n`.
    pub fn int(n: impl Into<BigInt>) -> Expr {
        let n: BigInt = n.into();
        if n < BigInt::from(0) {
            -node(ExprKind::Int(-n))
        } else {
            node(ExprKind::Int(n))
        }
    }

    /// The exact number `q` as the parser reads its text `p/d`: the integer `p` divided by `d`
    /// (`p` alone when `q` is an integer).
    pub fn rational(q: &Q) -> Expr {
        let p = Expr::int(q.numer().into_owned());
        if q.is_integer() {
            p
        } else {
            Expr::binary(BinOp::Div, p, Expr::int(q.denom().into_owned()))
        }
    }

    /// A variable (bound by a quantifier or a function's parameter).
    pub fn var(name: impl Into<String>) -> Expr {
        node(ExprKind::Var(name.into()))
    }

    /// `a op b`.
    pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
        node(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }

    /// `f(args…)`.
    pub fn call(name: impl Into<String>, args: Vec<Expr>) -> Expr {
        node(ExprKind::Call(name.into(), args))
    }

    /// `[items…]`.
    pub fn list(items: Vec<Expr>) -> Expr {
        node(ExprKind::List(items))
    }

    /// `name(binders…: body)`, e.g. `min(j in a..b step s: abs(N - j))`.
    pub fn aggregate(name: impl Into<String>, binders: Vec<Binder>, body: Expr) -> Expr {
        node(ExprKind::Aggregate(name.into(), binders, Box::new(body)))
    }

    /// `if condition then a else b`.
    pub fn if_then_else(condition: Expr, a: Expr, b: Expr) -> Expr {
        node(ExprKind::If(Box::new(condition), Box::new(a), Box::new(b)))
    }

    /// `let name = value in body`.
    pub fn let_in(name: impl Into<String>, value: Expr, body: Expr) -> Expr {
        node(ExprKind::Let(name.into(), Box::new(value), Box::new(body)))
    }

    /// `a op b`, a comparison.
    pub fn compare(a: Expr, op: CmpOp, b: Expr) -> Expr {
        node(ExprKind::Compare(Box::new(a), vec![(op, b)]))
    }
}

/// `-x`.
impl Neg for Expr {
    type Output = Expr;

    fn neg(self) -> Expr {
        node(ExprKind::Neg(Box::new(self)))
    }
}

/// `a + b`.
impl Add for Expr {
    type Output = Expr;

    fn add(self, b: Expr) -> Expr {
        Expr::binary(BinOp::Add, self, b)
    }
}

/// `a - b`.
impl Sub for Expr {
    type Output = Expr;

    fn sub(self, b: Expr) -> Expr {
        Expr::binary(BinOp::Sub, self, b)
    }
}

/// `a * b`.
impl Mul for Expr {
    type Output = Expr;

    fn mul(self, b: Expr) -> Expr {
        Expr::binary(BinOp::Mul, self, b)
    }
}

impl Binder {
    /// `name in from..to` (inclusive), or `name in from..to step s` with a step.
    pub fn interval(name: impl Into<String>, from: Expr, to: Expr, step: Option<Expr>) -> Binder {
        Binder {
            name: name.into(),
            span: Span::default(),
            domain: Domain::Interval { from, to, step },
        }
    }
}

impl Quantifiers {
    /// Quantifiers as values: `text` is how the range is shown (a verdict's `range` column)
    /// and `binders` what is checked.
    pub fn new(text: impl Into<String>, binders: Vec<Binder>) -> Quantifiers {
        Quantifiers {
            text: text.into(),
            binders,
        }
    }

    /// The quantifiers with every span cleared.
    fn unplaced(&self) -> Quantifiers {
        Quantifiers::new(
            self.text.clone(),
            self.binders.iter().map(Binder::unplaced).collect(),
        )
    }
}

impl ExprCheck {
    fn unplaced(&self) -> ExprCheck {
        ExprCheck {
            range: self.range.unplaced(),
            deep: self.deep.as_ref().map(Quantifiers::unplaced),
            filter: self.filter.as_ref().map(Expr::unplaced),
            assertion: match &self.assertion {
                Assertion::Holds(h) => Assertion::Holds(h.unplaced()),
                Assertion::Equal {
                    actual,
                    expected,
                    correction,
                    quantities,
                } => Assertion::Equal {
                    actual: actual.unplaced(),
                    expected: expected.unplaced(),
                    correction: correction.as_ref().map(|(t, e)| (t.clone(), e.unplaced())),
                    quantities: quantities.clone(),
                },
            },
            in_words: self.in_words.clone(),
        }
    }
}

impl Claim {
    /// A claim checked by expressions, to be stated with the builder's methods: `id` (unique
    /// in its registry), the paper's `label` and the `statement` in words.
    pub fn builder(
        id: impl Into<String>,
        label: impl Into<String>,
        statement: impl Into<String>,
    ) -> ClaimBuilder {
        ClaimBuilder {
            id: id.into(),
            label: label.into(),
            statement: statement.into(),
            commentary: Commentary::default(),
            open: false,
            range: None,
            deep: None,
            filter: None,
            assertion: None,
            correction: None,
            quantities: Vec::new(),
        }
    }

    /// The claim with its place in a file set aside (every span cleared, no offsets): what it
    /// says, so that a claim read from a file compares equal to the same claim built as a value.
    pub fn unplaced(&self) -> Claim {
        let check = match &self.check {
            Check::Expr(c) => Check::Expr(Box::new(c.unplaced())),
            Check::Builtin(b) => {
                let mut b = b.clone();
                b.exprs = b
                    .exprs
                    .iter()
                    .map(|(k, e)| (k.clone(), e.unplaced()))
                    .collect();
                b.range = b.range.as_ref().map(Quantifiers::unplaced);
                b.deep = b.deep.as_ref().map(Quantifiers::unplaced);
                Check::Builtin(b)
            }
            Check::Readings(rs) => Check::Readings(
                rs.iter()
                    .map(|r| ReadingCheck {
                        check: r.check.unplaced(),
                        ..r.clone()
                    })
                    .collect(),
            ),
        };
        Claim {
            check,
            place: ClaimPlace::default(),
            ..self.clone()
        }
    }
}

/// What must hold, as the builder was told.
#[derive(Clone, Debug)]
enum Stated {
    Holds(Expr),
    Equal { actual: Expr, expected: Expr },
}

/// A claim checked by expressions, stated piece by piece (see [`Claim::builder`]); [`build`]
/// checks it as the loader checks a claim file's `[[claim]]` with `for`, `deep`, `where`,
/// `holds` or `actual`/`expected`, and `correction`.
///
/// [`build`]: ClaimBuilder::build
#[derive(Clone, Debug)]
pub struct ClaimBuilder {
    id: String,
    label: String,
    statement: String,
    commentary: Commentary,
    open: bool,
    range: Option<Quantifiers>,
    deep: Option<Quantifiers>,
    filter: Option<Expr>,
    assertion: Option<Stated>,
    correction: Option<(String, Expr)>,
    quantities: Vec<String>,
}

impl ClaimBuilder {
    /// The paper poses it as an open problem (a claim file's `open = true`); the verdict is
    /// the same as without it.
    pub fn open(mut self) -> ClaimBuilder {
        self.open = true;
        self
    }

    /// What a report says beside the verdict (a claim file's `note`, `known_false` and
    /// `importance`).
    pub fn commentary(mut self, commentary: Commentary) -> ClaimBuilder {
        self.commentary = commentary;
        self
    }

    /// The range checked (a claim file's `for`); without one the claim is a single evaluation.
    pub fn over(mut self, range: Quantifiers) -> ClaimBuilder {
        self.range = Some(range);
        self
    }

    /// The range checked under `--deep` (a claim file's `deep`): the same variables, in order.
    pub fn deep(mut self, range: Quantifiers) -> ClaimBuilder {
        self.deep = Some(range);
        self
    }

    /// Points where this truth value is false are skipped (a claim file's `where`).
    pub fn filter(mut self, condition: Expr) -> ClaimBuilder {
        self.filter = Some(condition);
        self
    }

    /// What must be true at every point (a claim file's `holds`).
    pub fn holds(mut self, condition: Expr) -> ClaimBuilder {
        self.assertion = Some(Stated::Holds(condition));
        self
    }

    /// The engines' value and the claimed closed form, equal at every point (a claim file's
    /// `actual` and `expected`).
    pub fn equal(mut self, actual: Expr, expected: Expr) -> ClaimBuilder {
        self.assertion = Some(Stated::Equal { actual, expected });
        self
    }

    /// A corrected closed form, checked on the same range when the claim fails; `text` is how
    /// the evidence names it.
    pub fn correction(mut self, text: impl Into<String>, expected: Expr) -> ClaimBuilder {
        self.correction = Some((text.into(), expected));
        self
    }

    /// Names the components of the compared lists (prose with `$…$` mathematics), for the
    /// rows of a counterexample; needs `equal`.
    pub fn quantities(mut self, names: Vec<String>) -> ClaimBuilder {
        self.quantities = names;
        self
    }

    /// The claim, after the checks a claim file's loader runs, with user functions `defs`; an
    /// error names the claim and the part at fault.
    pub fn build(self, defs: &Definitions) -> Result<Claim> {
        let id = self.id;
        let fault = |part: &str, e: ExprError| {
            Error::invalid(format!(
                "claim `{}`: {part}: {}",
                super::registry::excerpt(&id),
                e.message
            ))
        };
        let range = self
            .range
            .unwrap_or_else(|| Quantifiers::new(String::new(), Vec::new()));
        check_quantifiers(&range.binders, defs).map_err(|e| fault("range", e))?;
        let bound: Vec<String> = range.binders.iter().map(|b| b.name.clone()).collect();
        if let Some(deep) = &self.deep {
            check_quantifiers(&deep.binders, defs).map_err(|e| fault("deep range", e))?;
            same_variables(Some(&range), deep).map_err(|m| {
                Error::invalid(format!("claim `{}`: {m}", super::registry::excerpt(&id)))
            })?;
        }
        let typed = |part: &str, e: &Expr, want: Option<Ty>| {
            check_typed(e, defs, &bound, want).map_err(|err| fault(part, err))
        };
        if let Some(f) = &self.filter {
            typed("where", f, Some(Ty::Bool))?;
        }
        if !self.quantities.is_empty() && !matches!(self.assertion, Some(Stated::Equal { .. })) {
            return Err(Error::invalid(format!(
                "claim `{}`: `quantities` names the components of compared lists; it needs \
                 `actual` and `expected`",
                super::registry::excerpt(&id)
            )));
        }
        let quantities = self.quantities;
        let assertion = match (self.assertion, self.correction) {
            (Some(Stated::Holds(h)), None) => {
                typed("holds", &h, Some(Ty::Bool))?;
                Assertion::Holds(h)
            }
            (Some(Stated::Equal { actual, expected }), correction) => {
                typed("actual", &actual, None)?;
                typed("expected", &expected, None)?;
                if let Some((_, c)) = &correction {
                    typed("correction", c, None)?;
                }
                Assertion::Equal {
                    actual,
                    expected,
                    correction,
                    quantities,
                }
            }
            (Some(Stated::Holds(_)), Some(_)) => {
                return Err(Error::invalid(format!(
                    "claim `{}`: a correction replaces `expected`; it needs `actual` and `expected`",
                    super::registry::excerpt(&id)
                )));
            }
            (None, _) => {
                return Err(Error::invalid(format!(
                    "claim `{}`: a check needs either `holds`, or both `actual` and `expected`",
                    super::registry::excerpt(&id)
                )));
            }
        };
        Ok(Claim {
            id,
            label: self.label,
            statement: self.statement,
            commentary: self.commentary,
            open: self.open,
            check: Check::Expr(Box::new(ExprCheck {
                range,
                deep: self.deep,
                filter: self.filter,
                assertion,
                in_words: None,
            })),
            proof: None,
            place: ClaimPlace::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::claims::expr::{parse_binders, parse_expr};
    use crate::claims::{Registry, VerdictKind, check_registry};

    /// F_k(N) of Scoring Nim's Def 6.2 against the payoffs of (2k+1, 2k, 1), with a wrong
    /// correction: the claim as a file states it.
    const FILE: &str = r#"
paper = "test"
[[claim]]
id = "zigzag"
label = "Theorem 6.3 (i)"
statement = "f_N(2k+1, 2k, 1) = F_k(N)"
for = "k in 2..5, N in -2k..2k step 1/2"
deep = "k in 2..7, N in -2k..2k step 1/2"
where = "N != 0"
actual = "payoff(N, [2k+1, 2k, 1])"
expected = "2 - min(j in -2k+2..2k-2 step 2: abs(N - j))"
correction = "abs(N)"
"#;

    fn k() -> Expr {
        Expr::var("k")
    }

    /// `2k`, as the parser reads it.
    fn two_k() -> Expr {
        Expr::int(2) * k()
    }

    /// The same claim, built as values.
    fn built() -> Claim {
        let n_range = |to_k: i64| {
            Quantifiers::new(
                format!("k in 2..{to_k}, N in -2k..2k step 1/2"),
                vec![
                    Binder::interval("k", Expr::int(2), Expr::int(to_k), None),
                    Binder::interval("N", -two_k(), two_k(), Some(Expr::rational(&Q::frac(1, 2)))),
                ],
            )
        };
        let heaps = Expr::list(vec![two_k() + Expr::int(1), two_k(), Expr::int(1)]);
        let peaks = Binder::interval(
            "j",
            -two_k() + Expr::int(2),
            two_k() - Expr::int(2),
            Some(Expr::int(2)),
        );
        let zigzag = Expr::int(2)
            - Expr::aggregate(
                "min",
                vec![peaks],
                Expr::call("abs", vec![Expr::var("N") - Expr::var("j")]),
            );
        Claim::builder("zigzag", "Theorem 6.3 (i)", "f_N(2k+1, 2k, 1) = F_k(N)")
            .over(n_range(5))
            .deep(n_range(7))
            // A condition given by a user is parsed, as any user input is.
            .filter(parse_expr("N != 0").unwrap())
            .equal(Expr::call("payoff", vec![Expr::var("N"), heaps]), zigzag)
            .correction("abs(N)", Expr::call("abs", vec![Expr::var("N")]))
            .build(&Definitions::new())
            .unwrap()
    }

    #[test]
    fn a_claim_built_as_values_equals_the_same_claim_read_from_a_file() {
        let parsed = Registry::parse(Path::new("test.toml"), FILE).unwrap();
        let built = built();
        assert_eq!(parsed.claims[0].unplaced(), built.unplaced());
        // Unplaced, a parsed claim differs from the file's only in its places.
        assert_ne!(parsed.claims[0], parsed.claims[0].unplaced());
        // A registry of built claims is checked as the file is, with the same findings.
        let reg = Registry::from_claims("test", "", Definitions::new(), vec![built]).unwrap();
        let from_values = check_registry(&reg, false, &[], &crate::progress::Silent).unwrap();
        let from_file = check_registry(&parsed, false, &[], &crate::progress::Silent).unwrap();
        assert_eq!(from_values, from_file);
        assert_eq!(from_values[0].verdict, VerdictKind::Holds);
    }

    #[test]
    fn numbers_are_built_as_the_parser_reads_their_text() {
        for q in [
            Q::int(0),
            Q::int(7),
            Q::int(-7),
            Q::frac(1, 2),
            Q::frac(-3, 4),
        ] {
            assert_eq!(
                Expr::rational(&q),
                parse_expr(&q.to_string()).unwrap().unplaced(),
                "{q}"
            );
        }
        let b = Binder::interval(
            "N",
            Expr::int(-3),
            Expr::int(3),
            Some(Expr::rational(&Q::frac(1, 2))),
        );
        assert_eq!(
            vec![b],
            parse_binders("N in -3..3 step 1/2")
                .unwrap()
                .iter()
                .map(Binder::unplaced)
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_built_claim_is_checked_as_a_file_would_be() {
        let builder = || Claim::builder("c", "a label", "");
        let one_to_three = || {
            Quantifiers::new(
                "k in 1..3",
                vec![Binder::interval("k", Expr::int(1), Expr::int(3), None)],
            )
        };
        let defs = Definitions::new();
        // A kind error names the claim and the part at fault.
        let e = builder()
            .over(one_to_three())
            .holds(k() + Expr::int(1))
            .build(&defs)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("claim `c`: holds: expected a truth value"),
            "{e}"
        );
        // An unknown function, and a variable no range binds.
        let e = builder()
            .equal(Expr::call("nope", vec![]), Expr::int(1))
            .build(&defs)
            .unwrap_err()
            .to_string();
        assert!(e.contains("claim `c`: actual:"), "{e}");
        let e = builder()
            .equal(k(), Expr::int(1))
            .build(&defs)
            .unwrap_err()
            .to_string();
        assert!(e.contains("claim `c`: actual:"), "{e}");
        // `deep` binds the variables of the range, in order.
        let other = Quantifiers::new(
            "m in 1..3",
            vec![Binder::interval("m", Expr::int(1), Expr::int(3), None)],
        );
        let e = builder()
            .over(one_to_three())
            .deep(other)
            .equal(k(), k())
            .build(&defs)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`deep` must bind the same variables as `for` (k)"),
            "{e}"
        );
        // A step ≤ 0 is refused before the claim runs, and a claim needs a check.
        let e = builder()
            .over(Quantifiers::new(
                "k in 1..3 step 0",
                vec![Binder::interval(
                    "k",
                    Expr::int(1),
                    Expr::int(3),
                    Some(Expr::int(0)),
                )],
            ))
            .equal(k(), k())
            .build(&defs)
            .unwrap_err()
            .to_string();
        assert!(e.contains("claim `c`: range:"), "{e}");
        assert!(builder().build(&defs).is_err());
        // Two claims with one id are refused, as in a file.
        let claim = builder()
            .over(one_to_three())
            .equal(k(), k())
            .build(&defs)
            .unwrap();
        let e = Registry::from_claims("p", "", Definitions::new(), vec![claim.clone(), claim])
            .unwrap_err()
            .to_string();
        assert!(e.contains("claim id `c` is used twice"), "{e}");
    }

    #[test]
    fn errors_of_a_built_registry_name_the_claim_and_no_file() {
        // payoff of a position far beyond any memory limit: the engine refuses at run time.
        let heaps = Expr::list(vec![Expr::int(1_000_000_000), Expr::int(1_000_000_000)]);
        let claim = Claim::builder("big", "too big", "")
            .equal(
                Expr::call("payoff", vec![Expr::int(0), heaps]),
                Expr::int(0),
            )
            .build(&Definitions::new())
            .unwrap();
        let reg = Registry::from_claims("p", "", Definitions::new(), vec![claim]).unwrap();
        let e = check_registry(&reg, false, &[], &crate::progress::Silent)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("claim `big` (too big)"), "{e}");
        assert!(!e.contains(" | "), "no file line is shown: {e}");
    }
}
