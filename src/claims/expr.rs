//! The syntax of claim expressions: a pest grammar (`expr.pest`) and the tree it parses into.
//!
//! Every node keeps its byte span in the source text, so that name, arity and type errors found
//! later point at the right column. A syntax error says what was expected at the first column the
//! grammar could not get past.

use std::fmt;
use std::sync::Arc;

use num_bigint::BigInt;
use pest::Parser;
use pest::iterators::Pair;
use serde::{Deserialize, Serialize};

/// A byte range of the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// A claim file holds many expressions; the loader moves each one's spans into a band of its
/// own (`source · 2^SOURCE_SHIFT` + offset) so that an error found during evaluation, possibly
/// inside a user function's body, still says which string of the file it belongs to.
pub const SOURCE_SHIFT: u32 = 32;

impl Span {
    /// The number of the source string the span belongs to (0: not from a claim file).
    pub fn source(self) -> usize {
        ((self.start as u64) >> SOURCE_SHIFT) as usize
    }

    /// The byte offset of the start in its own source string.
    pub fn local_start(self) -> usize {
        ((self.start as u64) & ((1u64 << SOURCE_SHIFT) - 1)) as usize
    }

    /// The span moved into source band `source`.
    fn in_source(self, source: usize) -> Span {
        let base = ((source as u64) << SOURCE_SHIFT) as usize;
        Span {
            start: base + self.start,
            end: base + self.end,
        }
    }

    fn of(p: &Pair<'_, Rule>) -> Span {
        let s = p.as_span();
        Span {
            start: s.start(),
            end: s.end(),
        }
    }
}

/// An error located in the source text of one expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// Where.
    pub span: Span,
    /// What went wrong (and what was expected).
    pub message: String,
}

impl ExprError {
    /// An error at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> ExprError {
        ExprError {
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {}: {}",
            self.span.local_start() + 1,
            self.message
        )
    }
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (exact)
    Div,
    /// `%` (floor modulus)
    Mod,
    /// `^`
    Pow,
    /// `⊕`
    Xor,
    /// `and`
    And,
    /// `or`
    Or,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// What a quantified variable ranges over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Domain {
    /// `from..to step step`, inclusive at both ends; the step is positive, 1 when absent.
    Interval {
        /// First value.
        from: Expr,
        /// Last value (inclusive).
        to: Expr,
        /// The step.
        step: Option<Expr>,
    },
    /// The members of a list, in order.
    Members(Expr),
}

/// A quantified variable: `name in from..to step s` or `name in list`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binder {
    /// The variable.
    pub name: String,
    /// Where the name is.
    pub span: Span,
    /// What it ranges over.
    pub domain: Domain,
}

impl Binder {
    /// Moves every span of the binder into source band `source` (see `SOURCE_SHIFT`).
    pub fn move_to_source(&mut self, source: usize) {
        self.map_spans(&|s| s.in_source(source));
    }

    /// The binder with every span cleared: what it says, not where it was written (to compare
    /// a parsed binder with one built as a value).
    pub fn unplaced(&self) -> Binder {
        let mut b = self.clone();
        b.map_spans(&|_| Span::default());
        b
    }

    /// Replaces every span of the binder by `f` of it.
    fn map_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        self.span = f(self.span);
        match &mut self.domain {
            Domain::Interval { from, to, step } => {
                from.map_spans(f);
                to.map_spans(f);
                if let Some(s) = step {
                    s.map_spans(f);
                }
            }
            Domain::Members(list) => list.map_spans(f),
        }
    }
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expr {
    /// The node.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// Expression nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExprKind {
    /// An integer literal (in JSON, its decimal digits as a string: exact at any size).
    Int(#[serde(with = "decimal")] BigInt),
    /// `true` / `false`.
    Bool(bool),
    /// A string literal (ruleset names).
    Str(Arc<str>),
    /// `[a, b, c]`.
    List(Vec<Expr>),
    /// A name bound by a quantifier, `let` or a function's parameter.
    Var(String),
    /// `-x`.
    Neg(Box<Expr>),
    /// `not x`.
    Not(Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a < b <= c`: every adjacent pair must hold.
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `let x = v in body`.
    Let(String, Box<Expr>, Box<Expr>),
    /// `f(a, b)`; the name's span is the node's start.
    Call(String, Vec<Expr>),
    /// `min(j in a..b: e)` and the like.
    Aggregate(String, Vec<Binder>, Box<Expr>),
}

/// Big integers as their decimal digits in a string (num-bigint's own serde form is a list of
/// digits in base 2^32, and JSON numbers lose precision above 2^53).
mod decimal {
    use num_bigint::BigInt;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(n: &BigInt, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(n)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BigInt, D::Error> {
        let t = String::deserialize(d)?;
        t.parse()
            .map_err(|_| serde::de::Error::custom(format!("\"{t}\" is not a whole number")))
    }
}

impl Expr {
    /// `self and other`, as the parser builds it, spanning `other` (where a report would point).
    pub fn and(self, other: Expr) -> Expr {
        let span = other.span;
        Expr {
            kind: ExprKind::Binary(BinOp::And, Box::new(self), Box::new(other)),
            span,
        }
    }

    /// Whether the expression calls a function (whose evaluation may be costly).
    pub fn calls_anything(&self) -> bool {
        use ExprKind as K;
        match &self.kind {
            K::Int(_) | K::Bool(_) | K::Str(_) | K::Var(_) => false,
            K::Call(..) | K::Aggregate(..) => true,
            K::List(items) => items.iter().any(Expr::calls_anything),
            K::Neg(x) | K::Not(x) => x.calls_anything(),
            K::Binary(_, a, b) => a.calls_anything() || b.calls_anything(),
            K::Compare(first, rest) => {
                first.calls_anything() || rest.iter().any(|(_, e)| e.calls_anything())
            }
            K::If(c, a, b) => c.calls_anything() || a.calls_anything() || b.calls_anything(),
            K::Let(_, v, body) => v.calls_anything() || body.calls_anything(),
        }
    }

    /// The number of nodes of the expression (a binder's domain counts its expressions).
    pub fn size(&self) -> usize {
        use ExprKind as K;
        let domain_size = |b: &Binder| match &b.domain {
            Domain::Interval { from, to, step } => {
                from.size() + to.size() + step.as_ref().map_or(0, Expr::size)
            }
            Domain::Members(list) => list.size(),
        };
        1 + match &self.kind {
            K::Int(_) | K::Bool(_) | K::Str(_) | K::Var(_) => 0,
            K::List(items) | K::Call(_, items) => items.iter().map(Expr::size).sum(),
            K::Neg(x) | K::Not(x) => x.size(),
            K::Binary(_, a, b) => a.size() + b.size(),
            K::Compare(first, rest) => {
                first.size() + rest.iter().map(|(_, e)| e.size()).sum::<usize>()
            }
            K::If(c, a, b) => c.size() + a.size() + b.size(),
            K::Let(_, v, body) => v.size() + body.size(),
            K::Aggregate(_, binders, body) => {
                binders.iter().map(domain_size).sum::<usize>() + body.size()
            }
        }
    }

    /// Moves every span of the expression into source band `source` (see `SOURCE_SHIFT`).
    pub fn move_to_source(&mut self, source: usize) {
        self.map_spans(&|s| s.in_source(source));
    }

    /// The expression with every span cleared: what it says, not where it was written (to
    /// compare a parsed expression with one built as a value).
    pub fn unplaced(&self) -> Expr {
        let mut e = self.clone();
        e.map_spans(&|_| Span::default());
        e
    }

    /// Replaces every span of the expression by `f` of it.
    fn map_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
            self.map_spans_here(f)
        })
    }

    fn map_spans_here(&mut self, f: &dyn Fn(Span) -> Span) {
        use ExprKind as K;
        self.span = f(self.span);
        match &mut self.kind {
            K::Int(_) | K::Bool(_) | K::Str(_) | K::Var(_) => {}
            K::List(items) | K::Call(_, items) => items.iter_mut().for_each(|e| e.map_spans(f)),
            K::Neg(x) | K::Not(x) => x.map_spans(f),
            K::Binary(_, a, b) => {
                a.map_spans(f);
                b.map_spans(f);
            }
            K::Compare(first, rest) => {
                first.map_spans(f);
                rest.iter_mut().for_each(|(_, e)| e.map_spans(f));
            }
            K::If(c, a, b) => {
                for x in [c, a, b] {
                    x.map_spans(f);
                }
            }
            K::Let(_, v, body) => {
                v.map_spans(f);
                body.map_spans(f);
            }
            K::Aggregate(_, binders, body) => {
                binders.iter_mut().for_each(|b| b.map_spans(f));
                body.map_spans(f);
            }
        }
    }

    /// Whether the name `var` occurs in the expression (bound or free).
    pub fn mentions(&self, var: &str) -> bool {
        stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
            self.mentions_here(var)
        })
    }

    fn mentions_here(&self, var: &str) -> bool {
        use ExprKind as K;
        let any = |es: &[Expr]| es.iter().any(|e| e.mentions(var));
        match &self.kind {
            K::Int(_) | K::Bool(_) | K::Str(_) => false,
            K::Var(n) => n == var,
            K::List(items) | K::Call(_, items) => any(items),
            K::Neg(x) | K::Not(x) => x.mentions(var),
            K::Binary(_, a, b) => a.mentions(var) || b.mentions(var),
            K::Compare(first, rest) => {
                first.mentions(var) || rest.iter().any(|(_, e)| e.mentions(var))
            }
            K::If(c, a, b) => c.mentions(var) || a.mentions(var) || b.mentions(var),
            K::Let(_, v, body) => v.mentions(var) || body.mentions(var),
            K::Aggregate(_, binders, body) => {
                body.mentions(var)
                    || binders.iter().any(|b| match &b.domain {
                        Domain::Interval { from, to, step } => {
                            from.mentions(var)
                                || to.mentions(var)
                                || step.as_ref().is_some_and(|s| s.mentions(var))
                        }
                        Domain::Members(list) => list.mentions(var),
                    })
            }
        }
    }
}

/// How tightly a node binds in the source syntax, loosest first (the grammar's precedence
/// climb, `expr.pest`); `if` and `let` extend as far right as they can, so they are loosest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tightness {
    Open,
    Or,
    And,
    Not,
    Compare,
    Xor,
    Sum,
    Product,
    Negation,
    Power,
    Atom,
}

impl BinOp {
    /// The source text of the operator.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Pow => "^",
            BinOp::Xor => "⊕",
            BinOp::And => "and",
            BinOp::Or => "or",
        }
    }

    fn tightness(self) -> Tightness {
        match self {
            BinOp::Or => Tightness::Or,
            BinOp::And => Tightness::And,
            BinOp::Xor => Tightness::Xor,
            BinOp::Add | BinOp::Sub => Tightness::Sum,
            BinOp::Mul | BinOp::Div | BinOp::Mod => Tightness::Product,
            BinOp::Pow => Tightness::Power,
        }
    }
}

impl CmpOp {
    /// The comparison that holds exactly when this one does not.
    pub fn negated(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }

    /// The source text of the comparison.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

impl Expr {
    fn tightness(&self) -> Tightness {
        use ExprKind as K;
        match &self.kind {
            K::Int(_)
            | K::Bool(_)
            | K::Str(_)
            | K::List(_)
            | K::Var(_)
            | K::Call(..)
            | K::Aggregate(..) => Tightness::Atom,
            K::If(..) | K::Let(..) => Tightness::Open,
            K::Neg(_) => Tightness::Negation,
            K::Not(_) => Tightness::Not,
            K::Compare(..) => Tightness::Compare,
            K::Binary(op, ..) => op.tightness(),
        }
    }

    /// Writes the expression in source syntax, in brackets when it binds less tightly than
    /// `least` requires.
    fn write_source(&self, f: &mut fmt::Formatter<'_>, least: Tightness) -> fmt::Result {
        stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
            if self.tightness() < least {
                write!(f, "(")?;
                self.write_source_here(f)?;
                write!(f, ")")
            } else {
                self.write_source_here(f)
            }
        })
    }

    fn write_source_here(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ExprKind as K;
        use Tightness as T;
        let list = |f: &mut fmt::Formatter<'_>, items: &[Expr]| -> fmt::Result {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                item.write_source(f, T::Open)?;
            }
            Ok(())
        };
        match &self.kind {
            K::Int(n) => write!(f, "{n}"),
            K::Bool(b) => write!(f, "{b}"),
            K::Str(s) => write!(f, "\"{s}\""),
            K::List(items) => {
                write!(f, "[")?;
                list(f, items)?;
                write!(f, "]")
            }
            K::Var(name) => write!(f, "{name}"),
            K::Neg(x) => {
                write!(f, "-")?;
                x.write_source(f, T::Negation)
            }
            K::Not(x) => {
                write!(f, "not ")?;
                x.write_source(f, T::Not)
            }
            K::Binary(BinOp::Pow, base, exponent) => {
                base.write_source(f, T::Atom)?;
                write!(f, " ^ ")?;
                exponent.write_source(f, T::Negation)
            }
            K::Binary(op, a, b) => {
                // Left-associative: the right operand must bind more tightly than the operator.
                let own = op.tightness();
                a.write_source(f, own)?;
                write!(f, " {} ", op.symbol())?;
                let right = match own {
                    T::Or => T::And,
                    T::And => T::Not,
                    T::Xor => T::Sum,
                    T::Sum => T::Product,
                    _ => T::Negation,
                };
                b.write_source(f, right)
            }
            K::Compare(first, rest) => {
                first.write_source(f, T::Xor)?;
                for (op, x) in rest {
                    write!(f, " {} ", op.symbol())?;
                    x.write_source(f, T::Xor)?;
                }
                Ok(())
            }
            K::If(c, a, b) => {
                write!(f, "if ")?;
                c.write_source(f, T::Open)?;
                write!(f, " then ")?;
                a.write_source(f, T::Open)?;
                write!(f, " else ")?;
                b.write_source(f, T::Open)
            }
            K::Let(name, v, body) => {
                write!(f, "let {name} = ")?;
                v.write_source(f, T::Open)?;
                write!(f, " in ")?;
                body.write_source(f, T::Open)
            }
            K::Call(name, args) => {
                write!(f, "{name}(")?;
                list(f, args)?;
                write!(f, ")")
            }
            K::Aggregate(name, binders, body) => {
                write!(f, "{name}(")?;
                for (i, b) in binders.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{b}")?;
                }
                write!(f, ": ")?;
                body.write_source(f, T::Open)?;
                write!(f, ")")
            }
        }
    }
}

/// The expression in the claims language's own syntax, with the fewest brackets that keep its
/// tree: [`parse_expr`] of the text gives the same expression back (spans aside), which is
/// what lets a report quote a rewritten expression as something a reader can paste.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_source(f, Tightness::Open)
    }
}

/// A quantifier in source syntax: `k in 1..10 step 2`, `x in p`; [`parse_binders`] reads it
/// back.
impl fmt::Display for Binder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in ", self.name)?;
        match &self.domain {
            // The grammar takes sums as bounds (`a..b` is not an operator).
            Domain::Interval { from, to, step } => {
                from.write_source(f, Tightness::Sum)?;
                write!(f, "..")?;
                to.write_source(f, Tightness::Sum)?;
                if let Some(s) = step {
                    write!(f, " step ")?;
                    s.write_source(f, Tightness::Sum)?;
                }
                Ok(())
            }
            Domain::Members(list) => list.write_source(f, Tightness::Sum),
        }
    }
}

/// A user function: `F(k, N) = body`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    /// Its name.
    pub name: String,
    /// Where the name is.
    pub span: Span,
    /// Parameter names.
    pub params: Vec<String>,
    /// The body.
    pub body: Expr,
}

impl FunctionDef {
    /// Moves every span of the definition into source band `source` (see `SOURCE_SHIFT`).
    pub fn move_to_source(&mut self, source: usize) {
        self.span = self.span.in_source(source);
        self.body.move_to_source(source);
    }
}

#[derive(pest_derive::Parser)]
#[grammar = "claims/expr.pest"]
struct Grammar;

/// What the grammar's rules are called in "expected …" messages.
fn rule_name(r: &Rule) -> &'static str {
    match r {
        Rule::EOI => "the end of the expression",
        Rule::number | Rule::implicit => "a number",
        Rule::ident | Rule::variable => "a name",
        Rule::string => "a string",
        Rule::cmp_op => "a comparison",
        Rule::add_op | Rule::mul_op | Rule::xor_op | Rule::pow_op => "an operator",
        Rule::kw_in => "`in`",
        Rule::kw_then => "`then`",
        Rule::kw_else => "`else`",
        Rule::kw_step => "`step`",
        Rule::kw_and | Rule::kw_or => "`and`/`or`",
        Rule::binder | Rule::interval => "a range such as `k in 1..10`",
        _ => "an expression",
    }
}

fn syntax_error(e: pest::error::Error<Rule>) -> ExprError {
    let at = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    // Punctuation (`)`, `]`, `,`, `:`, `..`) is not a rule: pest reports it among its parse
    // attempts when error detail is on.
    let literals: Vec<String> = e
        .parse_attempts()
        .map(|a| {
            a.expected_tokens()
                .into_iter()
                .map(|t| t.to_string())
                // Operators are summed up as "an operator"; closers and separators are named.
                .filter(|t| [")", "]", ",", ":", "..", "="].contains(&t.as_str()))
                .map(|t| format!("`{t}`"))
                .collect()
        })
        .unwrap_or_default();
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().map(rule_name).collect();
            names.extend(literals.iter().map(String::as_str));
            names.sort_unstable();
            names.dedup();
            match names.len() {
                0 => "unexpected input".to_string(),
                1 => format!("expected {}", names[0]),
                _ => {
                    let last = names.pop().unwrap_or_default();
                    format!("expected {} or {last}", names.join(", "))
                }
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    ExprError::new(Span { start: at, end: at }, message)
}

/// The longest expression accepted, in bytes.
pub const MAX_LEN: usize = 4000;
/// The deepest nesting of brackets accepted.
pub const MAX_NESTING: usize = 64;

/// Refuses input whose syntax tree would be too deep to walk recursively.
fn guard(src: &str) -> Result<(), ExprError> {
    // Syntax errors name the punctuation expected, too.
    pest::set_error_detail(true);
    if src.len() > MAX_LEN {
        return Err(ExprError::new(
            Span {
                start: MAX_LEN,
                end: MAX_LEN,
            },
            format!(
                "expressions are limited to {MAX_LEN} bytes; this one has {}",
                src.len()
            ),
        ));
    }
    let mut depth = 0usize;
    for (i, c) in src.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_NESTING {
            return Err(ExprError::new(
                Span {
                    start: i,
                    end: i + 1,
                },
                format!("brackets nest deeper than {MAX_NESTING} levels here"),
            ));
        }
    }
    Ok(())
}

/// Parses one expression.
pub fn parse_expr(src: &str) -> Result<Expr, ExprError> {
    guard(src)?;
    let mut pairs = Grammar::parse(Rule::formula, src).map_err(syntax_error)?;
    let formula = pairs.next().expect("the grammar yields a formula");
    let expr = formula.into_inner().next().expect("formula holds an expr");
    build(expr)
}

/// Parses a quantifier list such as `k in 1..40, N in -50..50 step 1/2`.
pub fn parse_binders(src: &str) -> Result<Vec<Binder>, ExprError> {
    guard(src)?;
    let mut pairs = Grammar::parse(Rule::binders, src).map_err(syntax_error)?;
    let list = pairs.next().expect("the grammar yields binders");
    list.into_inner()
        .filter(|p| p.as_rule() == Rule::binder)
        .map(build_binder)
        .collect()
}

/// Parses a function definition such as `F(k, N) = 2 - abs(N)`.
pub fn parse_function(src: &str) -> Result<FunctionDef, ExprError> {
    guard(src)?;
    let mut pairs = Grammar::parse(Rule::function, src).map_err(syntax_error)?;
    let def = pairs.next().expect("the grammar yields a function");
    let mut inner = def.into_inner();
    let name = inner.next().expect("a function has a name");
    let span = Span::of(&name);
    let mut params = Vec::new();
    let mut body = None;
    for p in inner {
        match p.as_rule() {
            Rule::ident => {
                if params.iter().any(|q| q == p.as_str()) {
                    return Err(ExprError::new(
                        Span::of(&p),
                        format!("parameter `{}` appears twice", p.as_str()),
                    ));
                }
                params.push(p.as_str().to_string());
            }
            Rule::expr => body = Some(build(p)?),
            _ => {}
        }
    }
    Ok(FunctionDef {
        name: name.as_str().to_string(),
        span,
        params,
        body: body.expect("a function has a body"),
    })
}

fn node(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

fn join(a: Span, b: Span) -> Span {
    Span {
        start: a.start.min(b.start),
        end: a.end.max(b.end),
    }
}

fn binary_chain(
    mut items: pest::iterators::Pairs<'_, Rule>,
    op_of: impl Fn(&str) -> BinOp,
) -> Result<Expr, ExprError> {
    let mut lhs = build(items.next().expect("a chain has a first operand"))?;
    while let Some(op) = items.next() {
        let rhs = build(items.next().expect("an operator has a right operand"))?;
        let span = join(lhs.span, rhs.span);
        lhs = node(
            ExprKind::Binary(op_of(op.as_str()), Box::new(lhs), Box::new(rhs)),
            span,
        );
    }
    Ok(lhs)
}

fn build_binder(p: Pair<'_, Rule>) -> Result<Binder, ExprError> {
    let mut inner = p.into_inner().filter(|q| q.as_rule() != Rule::kw_in);
    let name = inner.next().expect("a binder has a name");
    let over = inner.next().expect("a binder has a domain");
    let domain = if over.as_rule() == Rule::interval {
        let mut parts = over.into_inner().filter(|q| q.as_rule() != Rule::kw_step);
        let from = build(parts.next().expect("an interval has a start"))?;
        let to = build(parts.next().expect("an interval has an end"))?;
        let step = parts.next().map(build).transpose()?;
        Domain::Interval { from, to, step }
    } else {
        Domain::Members(build(over)?)
    };
    Ok(Binder {
        name: name.as_str().to_string(),
        span: Span::of(&name),
        domain,
    })
}

fn is_keyword(r: Rule) -> bool {
    matches!(
        r,
        Rule::kw_if | Rule::kw_then | Rule::kw_else | Rule::kw_let | Rule::kw_in
    )
}

fn build(p: Pair<'_, Rule>) -> Result<Expr, ExprError> {
    stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
        build_node(p)
    })
}

fn build_node(p: Pair<'_, Rule>) -> Result<Expr, ExprError> {
    let span = Span::of(&p);
    let rule = p.as_rule();
    let mut inner = p.clone().into_inner().filter(|q| !is_keyword(q.as_rule()));
    let mut next = || inner.next().expect("the grammar guarantees this child");
    Ok(match rule {
        Rule::expr | Rule::paren => build(next())?,
        Rule::or_expr => binary_chain(p.into_inner(), |_| BinOp::Or)?,
        Rule::and_expr => binary_chain(p.into_inner(), |_| BinOp::And)?,
        Rule::xor_expr => binary_chain(p.into_inner(), |_| BinOp::Xor)?,
        Rule::add_expr => binary_chain(p.into_inner(), |op| match op {
            "+" => BinOp::Add,
            _ => BinOp::Sub,
        })?,
        Rule::mul_expr => binary_chain(p.into_inner(), |op| match op {
            "/" => BinOp::Div,
            "%" => BinOp::Mod,
            _ => BinOp::Mul,
        })?,
        Rule::not_expr | Rule::unary => {
            let parts: Vec<_> = p.into_inner().collect();
            let (ops, last) = parts.split_at(parts.len() - 1);
            let mut e = build(last[0].clone())?;
            for op in ops.iter().rev() {
                let s = join(Span::of(op), e.span);
                e = node(
                    if rule == Rule::unary {
                        ExprKind::Neg(Box::new(e))
                    } else {
                        ExprKind::Not(Box::new(e))
                    },
                    s,
                );
            }
            e
        }
        Rule::cmp_expr => {
            let mut parts = p.into_inner();
            let first = build(parts.next().expect("a first operand"))?;
            let mut rest = Vec::new();
            while let Some(op) = parts.next() {
                let op = match op.as_str() {
                    "==" => CmpOp::Eq,
                    "!=" | "≠" => CmpOp::Ne,
                    "<" => CmpOp::Lt,
                    "<=" | "≤" => CmpOp::Le,
                    ">" => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                rest.push((op, build(parts.next().expect("a right operand"))?));
            }
            if rest.is_empty() {
                first
            } else {
                node(ExprKind::Compare(Box::new(first), rest), span)
            }
        }
        Rule::power | Rule::implicit_factor => {
            let base = build(next())?;
            match inner.find(|q| q.as_rule() != Rule::pow_op) {
                Some(exp) => node(
                    ExprKind::Binary(BinOp::Pow, Box::new(base), Box::new(build(exp)?)),
                    span,
                ),
                None => base,
            }
        }
        Rule::implicit => {
            let coefficient = build(next())?;
            let factor = build(next())?;
            node(
                ExprKind::Binary(BinOp::Mul, Box::new(coefficient), Box::new(factor)),
                span,
            )
        }
        Rule::if_expr => {
            let c = build(next())?;
            let a = build(next())?;
            let b = build(next())?;
            node(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)), span)
        }
        Rule::let_expr => {
            let name = next().as_str().to_string();
            let value = build(next())?;
            let body = build(next())?;
            node(ExprKind::Let(name, Box::new(value), Box::new(body)), span)
        }
        Rule::list => node(
            ExprKind::List(p.into_inner().map(build).collect::<Result<_, _>>()?),
            span,
        ),
        Rule::call => {
            let mut parts = p.into_inner();
            let name = parts
                .next()
                .expect("a call has a name")
                .as_str()
                .to_string();
            let args = parts.map(build).collect::<Result<_, _>>()?;
            node(ExprKind::Call(name, args), span)
        }
        Rule::aggregate => {
            let mut parts = p.into_inner();
            let name = parts
                .next()
                .expect("an aggregate has a name")
                .as_str()
                .to_string();
            let mut binders = Vec::new();
            let mut body = None;
            for q in parts {
                match q.as_rule() {
                    Rule::binder => binders.push(build_binder(q)?),
                    _ => body = Some(build(q)?),
                }
            }
            let body = body.expect("an aggregate has a body");
            node(ExprKind::Aggregate(name, binders, Box::new(body)), span)
        }
        Rule::variable => node(ExprKind::Var(p.as_str().to_string()), span),
        Rule::number => node(
            ExprKind::Int(p.as_str().parse().expect("digits parse as an integer")),
            span,
        ),
        Rule::boolean => node(ExprKind::Bool(p.as_str() == "true"), span),
        Rule::string => {
            let s = p.as_str();
            node(ExprKind::Str(Arc::from(&s[1..s.len() - 1])), span)
        }
        other => unreachable!("rule {other:?} is not an expression"),
    })
}
