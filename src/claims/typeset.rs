//! Claim expressions typeset as mathematics, so that a report states what was checked the way a
//! paper would print it: `candy_v([31, 32m, 32m+31]) == 62(m-1) + 98` for `1 ≤ m ≤ 64` becomes
//! $V([31, 32m, 32m+31]) = 62(m-1) + 98 \text{ for } 1 \le m \le 64$.
//!
//! The output is a LaTeX math body (no `$` delimiters) that must work in two places: pdflatex
//! (with amsmath and amssymb) and GitHub Markdown's `$…$`, where the Markdown parser sees the
//! text before MathJax does. So the printer never writes a backslash before ASCII punctuation
//! (`\{`, `\\`, `\,` lose their backslash to Markdown; `\lbrace`, `\ ` and `\quad` do not), never
//! `|` (it splits a table cell: `\lvert`, `\rvert`), never `*` and never `$`. [`math_problem`]
//! names the first such fault; every display form a claim file gives is checked with it.
//!
//! Conventions, one printer method per node kind as in sympy's `printing/latex.py`:
//! - names: one letter in italic (`k`), letters then digits as a subscript (`a1` → $a_{1}$), a
//!   name with an underscore as base and subscript (`n_F` → $n_{F}$), Greek names as Greek
//!   letters, other words as `\mathit{…}`; primes stay primes;
//! - operators by precedence with the fewest brackets that keep the meaning, plus brackets a
//!   reader needs where the claims language's precedence is not the usual one (a sum beside
//!   `⊕` or `mod`, `mod` inside arithmetic, `and` inside `or`); a product is written by
//!   juxtaposition where that is unambiguous (`2k`, `3(k-1)`, `(m-1)(2^{k+1}-2)`) and with
//!   `\cdot` otherwise (`2 \cdot 3`, `L \cdot (k+1)`, `k \cdot V(p)`); division is inline, `a/b`;
//! - `if c then a else b` as a case distinction,
//!   `\begin{cases} a & \text{if } c,\cr b & \text{otherwise} \end{cases}`, an `else if` chain
//!   as one block with a row per branch (rows end with `\cr`, which LaTeX and MathJax read as
//!   `\\` does, since Markdown would eat one backslash of `\\`); the block is bracketed with
//!   `\left(…\right)` wherever something follows it, since its last row would seem to go on;
//!   `let` as `b \text{ where } x = e`;
//! - aggregates as big operators and quantifiers: $\sum_{j=a}^{b}$, $\min_{a \le j \le b}$,
//!   $\forall$, $\exists$, a count as the size of a set, and `list(j in a..b: e)` as
//!   $[e(a), \dots, e(b)]$;
//! - a library function as the papers write it (each [`Function`](functions::Function) says how: `payoff(N, p)` is
//!   $f_{N}(p)$, `candy_v(p)` is $V(p)$, `f1(A, n)` is $f_{A}^{\mathrm{I}}(n)$);
//! - a claim file's helper function (`define`) never appears by its name: it is inlined, its
//!   arguments substituted (bound names renamed with primes where they would capture), unless
//!   the file gives it a display form and a meaning (a [`DisplayForm`]); those are listed by
//!   [`notation`] for a report's "Notation" paragraph.

use std::fmt::Write as _;

use super::engines::Engines;
use super::eval::{Definitions, Evaluator};
use super::expr::{BinOp, Binder, CmpOp, Domain, Expr, ExprKind, FunctionDef, Span};
use super::functions;
use super::registry::{Assertion, ExprCheck};
use super::value::Value;

/// How tightly a typeset node binds, loosest first. Gaps leave room for the levels that only
/// typesetting has (`\bmod`, big operators).
mod level {
    /// `if`/`let` written out, quantifiers: brackets in every operand position.
    pub const OPEN: u8 = 0;
    /// `c \Rightarrow a`.
    pub const IMPLIES: u8 = 5;
    pub const OR: u8 = 10;
    pub const AND: u8 = 20;
    pub const NOT: u8 = 30;
    pub const RELATION: u8 = 40;
    pub const NIM_SUM: u8 = 50;
    pub const MODULO: u8 = 55;
    pub const SUM: u8 = 60;
    /// `\sum`, `\min`: an operand of a sum, not of a product.
    pub const BIG_OPERATOR: u8 = 65;
    pub const PRODUCT: u8 = 70;
    pub const NEGATION: u8 = 80;
    pub const POWER: u8 = 90;
    pub const ATOM: u8 = 100;
}

/// How a typeset piece begins, for deciding whether a product may be written by juxtaposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lead {
    Digit,
    Letter,
    Paren,
    /// `\lfloor`, `\lceil`, `\lvert`.
    Delimiter,
    /// A function's name: `V(p)`, `f_{N}(p)`, `\sum`.
    Function,
    Minus,
    Other,
}

/// How a typeset piece ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tail {
    Digit,
    Letter,
    /// A closing bracket or delimiter of a group (not of a function's arguments).
    Closed,
    /// A function application's closing bracket: `V(p)(k+1)` would read as an application.
    Application,
    /// A big operator's body, which extends to the right: what follows must not continue it.
    Open,
    /// A case distinction, whose last row would seem to take in anything that follows it.
    Rows,
    Other,
}

/// A typeset piece: its text and how it binds, begins and ends.
#[derive(Clone, Debug)]
struct Math {
    text: String,
    level: u8,
    lead: Lead,
    tail: Tail,
    /// A quotient `a/b` or `a \bmod b`: bracketed as the left operand of a product.
    quotient: bool,
}

impl Math {
    fn new(text: String, level: u8, lead: Lead, tail: Tail) -> Math {
        Math {
            text,
            level,
            lead,
            tail,
            quotient: false,
        }
    }

    fn bracketed(self) -> Math {
        Math::new(paren(&self.text), level::ATOM, Lead::Paren, Tail::Closed)
    }
}

/// `text` in round brackets, grown to its height (`\left(…\right)`) when it holds a case
/// distinction.
fn paren(text: &str) -> String {
    if text.contains(CASES_BEGIN) {
        format!(r"\left({text}\right)")
    } else {
        format!("({text})")
    }
}

/// How a case distinction begins and ends.
const CASES_BEGIN: &str = r"\begin{cases}";
const CASES_END: &str = r"\end{cases}";

/// What a function call looks like once typeset, so that the printer knows where it needs
/// brackets around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A name applied to arguments: `V(p)`, `f_{N}(p)`, `\gcd(a, b)`.
    Application,
    /// Enclosed in delimiters: `\lfloor x\rfloor`, `\lvert p\rvert`.
    Delimited,
    /// `a \bmod b`.
    Modulo,
    /// `a \oplus b`.
    NimSum,
    /// A statement: `x \in \mathbb{Z}`, `p \in P^{+}`.
    Relation,
    /// A big operator that extends to the right: `\sum p`, `\min p`.
    BigOperator,
}

/// A typeset function call (what `Function::math` in the claims functions returns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallMath {
    /// The LaTeX math body.
    pub math: String,
    /// How it binds.
    pub shape: Shape,
}

impl CallMath {
    /// A name applied to arguments.
    pub fn application(math: String) -> CallMath {
        CallMath {
            math,
            shape: Shape::Application,
        }
    }

    /// Text of another shape.
    pub fn shaped(math: String, shape: Shape) -> CallMath {
        CallMath { math, shape }
    }

    fn into_math(self) -> Math {
        let (level, lead, tail) = match self.shape {
            Shape::Application => (level::ATOM, Lead::Function, Tail::Application),
            Shape::Delimited => (level::ATOM, Lead::Delimiter, Tail::Closed),
            Shape::Modulo => (level::MODULO, Lead::Other, Tail::Other),
            Shape::NimSum => (level::NIM_SUM, Lead::Other, Tail::Other),
            Shape::Relation => (level::RELATION, Lead::Other, Tail::Other),
            Shape::BigOperator => (level::BIG_OPERATOR, Lead::Function, Tail::Open),
        };
        Math::new(self.math, level, lead, tail)
    }
}

/// One argument of a call, typeset, for a function's display form (`Function::math`).
#[derive(Clone, Debug)]
pub struct MathArg {
    math: String,
    /// The elements of a literal list, typeset.
    items: Option<Vec<MathArg>>,
    /// Whether it can stand as an operand without brackets (`\log_2 a`, `a \bmod b`).
    atomic: bool,
}

impl MathArg {
    /// An argument typeset as `math`; `atomic` when it needs no brackets as an operand.
    pub fn new(math: impl Into<String>, atomic: bool) -> MathArg {
        MathArg {
            math: math.into(),
            items: None,
            atomic,
        }
    }

    /// A literal list argument, from its typeset elements, written in `style`.
    pub fn list(items: Vec<MathArg>, style: ListStyle) -> MathArg {
        MathArg {
            math: style.write(&join(&items)),
            items: Some(items),
            atomic: true,
        }
    }

    /// The argument as typeset (a delimited position: inside brackets or braces).
    pub fn math(&self) -> &str {
        &self.math
    }

    /// The argument as an operand: bracketed unless it binds as tightly as a power.
    pub fn operand(&self) -> String {
        if self.atomic {
            self.math.clone()
        } else {
            paren(&self.math)
        }
    }

    /// A literal list's elements separated by commas (a position written `f_N(6, 4, 1)`), else
    /// the argument itself.
    pub fn tuple(&self) -> String {
        match &self.items {
            Some(items) => join(items),
            None => self.math.clone(),
        }
    }

    /// A literal list as a set `\lbrace 1, L\rbrace`, else the argument itself (a set `A`).
    pub fn set(&self) -> String {
        match &self.items {
            Some(items) => format!(r"\lbrace {}\rbrace", join(items)),
            None => self.math.clone(),
        }
    }

    /// The elements of a literal list, typeset.
    pub fn items(&self) -> Option<&[MathArg]> {
        self.items.as_deref()
    }
}

/// Typeset arguments separated by commas.
fn join(args: &[MathArg]) -> String {
    args.iter()
        .map(MathArg::math)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The generic display of a call, for functions without a notation of their own:
/// `\operatorname{name}(a, b)` (an underscore in the name becomes a space).
pub fn generic_call(name: &str, args: &[MathArg]) -> CallMath {
    CallMath::application(format!(
        r"\operatorname{{{}}}({})",
        name.replace('_', r"\ "),
        join(args)
    ))
}

/// A string literal in math: upright, braces as `\lbrace`/`\rbrace`.
pub fn text_math(s: &str) -> String {
    let mut out = String::from(r"\mathrm{");
    for c in s.chars() {
        match c {
            '{' => out.push_str(r"\lbrace "),
            '}' => out.push_str(r"\rbrace "),
            ' ' => out.push_str(r"\ "),
            '|' => out.push_str(r"\vert "),
            c if c.is_ascii_alphanumeric() || "()[],.;:+-/=<>'!?".contains(c) => out.push(c),
            _ => out.push('?'),
        }
    }
    out.push('}');
    out
}

const GREEK: &[&str] = &[
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
    "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi",
    "Omega",
];

/// A word as a name: one letter italic, a Greek name as its letter, else `\mathit`.
fn word_math(word: &str) -> String {
    if word.chars().count() == 1 {
        word.to_string()
    } else if GREEK.contains(&word) {
        format!(r"\{word}")
    } else {
        format!(r"\mathit{{{word}}}")
    }
}

/// A subscript: one character as is, a word upright (`f_max` → $f_{\mathrm{max}}$).
fn subscript_math(sub: &str) -> String {
    if sub.chars().count() == 1 || sub.chars().all(|c| c.is_ascii_digit()) {
        sub.to_string()
    } else if GREEK.contains(&sub) {
        format!(r"\{sub}")
    } else {
        format!(r"\mathrm{{{}}}", sub.replace('_', ","))
    }
}

/// A variable's name typeset (see the module documentation).
pub fn name_math(name: &str) -> String {
    let primes = name.len() - name.trim_end_matches('\'').len();
    let bare = &name[..name.len() - primes];
    let mut out = match bare.split_once('_') {
        Some((base, sub)) if !base.is_empty() && !sub.is_empty() => {
            format!("{}_{{{}}}", word_math(base), subscript_math(sub))
        }
        _ => {
            let digits = bare.len() - bare.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            let (letters, number) = bare.split_at(bare.len() - digits);
            if digits > 0 && !letters.is_empty() && !letters.contains('_') {
                format!("{}_{{{number}}}", word_math(letters))
            } else if bare.contains('_') {
                format!(r"\mathit{{{}}}", bare.replace('_', r"\ "))
            } else {
                word_math(bare)
            }
        }
    };
    out.push_str(&"'".repeat(primes));
    out
}

/// The first thing in `math` that breaks pdflatex or GitHub's `$…$` (see the module
/// documentation), or `None` when it is safe in both.
pub fn math_problem(math: &str) -> Option<String> {
    let mut depth = 0i64;
    let mut chars = math.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '|' => return Some("`|` splits a Markdown table cell: write \\lvert, \\rvert".into()),
            '*' => return Some("`*` is emphasis in Markdown: write \\cdot or juxtapose".into()),
            '$' => return Some("`$` ends the math".into()),
            '#' => return Some("`#` is a macro parameter in LaTeX".into()),
            '%' => return Some("`%` starts a LaTeX comment: write \\bmod".into()),
            '\n' | '\r' => return Some("a line break".into()),
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return Some("a `}` closes no `{`".into());
                }
            }
            '\\' => match chars.next() {
                Some(p) if p.is_ascii_punctuation() => {
                    return Some(format!(
                        "`\\{p}` loses its backslash in Markdown (write \\lbrace, \\rbrace, \
                         \\quad, …)"
                    ));
                }
                None => return Some("a lone `\\` at the end".into()),
                _ => {}
            },
            _ => {}
        }
    }
    (depth != 0).then(|| "unbalanced braces".to_string())
}

/// One piece of a display form.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    /// Parameter `index`; `delimited` when brackets, braces or commas surround it, so that any
    /// argument may stand there without brackets of its own; `shape` says how a literal list
    /// argument is written.
    Param {
        index: usize,
        delimited: bool,
        shape: ListShape,
    },
}

/// How a display form writes a literal list argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ListShape {
    /// `#p`: as the file writes lists ([`ListStyle`]).
    AsList,
    /// `#set(A)`: as a set, `\lbrace 1, L\rbrace`.
    Set,
    /// `#tuple(p)`: its elements separated by commas, for a template that brackets them
    /// itself, `n(#tuple(p))` → $n(a, b, c)$.
    Tuple,
}

/// How a claim file's reports write list literals: as lists `[a, b, c]` (Candy Nim's
/// positions), or as tuples `(a, b, c)` (Scoring Nim's positions `(5, 4, 2)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ListStyle {
    /// `[a, b, c]`.
    #[default]
    Brackets,
    /// `(a, b, c)`.
    Tuples,
}

impl ListStyle {
    fn write(self, elements: &str) -> String {
        match self {
            ListStyle::Brackets => format!("[{elements}]"),
            ListStyle::Tuples => format!("({elements})"),
        }
    }
}

/// How a claim file shows one of its helper functions instead of inlining it: a LaTeX template
/// in which `#name` stands for the typeset argument of parameter `name`, and what it means (for
/// the Notation list of a report).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisplayForm {
    pieces: Vec<Piece>,
    means: String,
}

/// Openers after which, and closers before which, a placeholder is delimited.
const OPENERS: &[&str] = &[
    "(", "[", "{", ",", r"\lbrace", r"\lvert", r"\lfloor", r"\lceil",
];
const CLOSERS: &[&str] = &[
    ")", "]", "}", ",", r"\rbrace", r"\rvert", r"\rfloor", r"\rceil",
];

impl DisplayForm {
    /// Parses `template` for a function with parameters `params`; `means` is prose with math in
    /// `$…$`. Refused: a `#` that names no parameter, and anything [`math_problem`] finds.
    pub fn new(template: &str, means: &str, params: &[String]) -> Result<DisplayForm, String> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = template;
        while let Some(at) = rest.find('#') {
            text.push_str(&rest[..at]);
            let mut after = &rest[at + 1..];
            let shape = if after.starts_with("set(") {
                ListShape::Set
            } else if after.starts_with("tuple(") {
                ListShape::Tuple
            } else {
                ListShape::AsList
            };
            let wrapper = match shape {
                ListShape::Set => "set",
                ListShape::Tuple => "tuple",
                ListShape::AsList => "",
            };
            if shape != ListShape::AsList {
                after = &after[wrapper.len() + 1..];
            }
            let len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '\''))
                .unwrap_or(after.len());
            let name = &after[..len];
            let Some(index) = params.iter().position(|p| p == name) else {
                return Err(format!(
                    "`#{name}` in the display form is not a parameter (the parameters are {})",
                    params.join(", ")
                ));
            };
            let mut tail = &after[len..];
            if shape != ListShape::AsList {
                tail = tail.strip_prefix(')').ok_or_else(|| {
                    format!("`#{wrapper}({name}` in the display form needs its closing bracket")
                })?;
            }
            let before = text.trim_end();
            let next = tail.trim_start();
            let delimited = (before.is_empty() || OPENERS.iter().any(|o| before.ends_with(o)))
                && (next.is_empty() || CLOSERS.iter().any(|c| next.starts_with(c)));
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(Piece::Param {
                index,
                delimited,
                shape,
            });
            rest = tail;
        }
        text.push_str(rest);
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        let form = DisplayForm {
            pieces,
            means: means.to_string(),
        };
        let names: Vec<MathArg> = params
            .iter()
            .map(|p| MathArg::new(name_math(p), true))
            .collect();
        let shown = form.fill(&names);
        if let Some(problem) = math_problem(&shown) {
            return Err(format!("the display form `{template}`: {problem}"));
        }
        if means.trim().is_empty() {
            return Err("a display form needs its meaning (`means`)".into());
        }
        Ok(form)
    }

    /// What the notation means, in prose with `$…$` math.
    pub fn means(&self) -> &str {
        &self.means
    }

    /// The template with each parameter replaced by its typeset argument, bracketed where it
    /// is not delimited and needs brackets as an operand.
    fn fill(&self, args: &[MathArg]) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Param {
                    index,
                    delimited,
                    shape,
                } => {
                    let arg = &args[*index];
                    out.push_str(&match (shape, delimited) {
                        (ListShape::Set, _) => arg.set(),
                        (ListShape::Tuple, _) => arg.tuple(),
                        (ListShape::AsList, true) => arg.math().to_string(),
                        (ListShape::AsList, false) => arg.operand(),
                    });
                }
            }
        }
        out
    }
}

/// One piece of a point form.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PointPiece {
    Text(String),
    /// `#name`: the coordinate's value.
    Value(String),
    /// `#set(x, y, …)`: the distinct values of the coordinates (a list's elements), in
    /// increasing order, as a set.
    Set(Vec<String>),
    /// `#heaps(x, y, …)`: the coordinates' values that are not 0 (the nonempty heaps of a
    /// position), in order, as a list.
    Heaps(Vec<String>),
}

/// How a claim file states a counterexample's point in the paper's terms (a claim's `point`):
/// a LaTeX template in which `#name` stands for the value of the point's coordinate `name`,
/// `#set(a, b, c)` for the set of the values of `a`, `b`, `c` (`A = \lbrace 1, 2\rbrace` at
/// `a = 1, b = 2, c = 2`; a list-valued coordinate gives its elements), and
/// `#heaps(a, b, c, d)` for the position of the nonzero values (`[1]` at `a = b = c = 0`,
/// `d = 1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointForm {
    pieces: Vec<PointPiece>,
}

impl PointForm {
    /// Parses `template`; refused: a `#` not followed by a name, `#set(` or `#heaps(` without
    /// its closing bracket, and anything [`math_problem`] finds in the template filled with the
    /// coordinates' names.
    pub fn new(template: &str) -> Result<PointForm, String> {
        let name_len = |s: &str| {
            s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '\''))
                .unwrap_or(s.len())
        };
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = template;
        while let Some(at) = rest.find('#') {
            text.push_str(&rest[..at]);
            if !text.is_empty() {
                pieces.push(PointPiece::Text(std::mem::take(&mut text)));
            }
            let after = &rest[at + 1..];
            let call = ["set(", "heaps("]
                .into_iter()
                .find(|c| after.starts_with(c));
            if let Some(call) = call {
                let inner = &after[call.len()..];
                let close = inner.find(')').ok_or_else(|| {
                    format!("`#{call}` in the point form needs its closing bracket")
                })?;
                let names: Vec<String> = inner[..close]
                    .split(',')
                    .map(|n| n.trim().to_string())
                    .collect();
                if let Some(bad) = names
                    .iter()
                    .find(|n| n.is_empty() || name_len(n) != n.len())
                {
                    return Err(format!(
                        "`#{call}` in the point form lists `{bad}`, not a name"
                    ));
                }
                pieces.push(if call == "set(" {
                    PointPiece::Set(names)
                } else {
                    PointPiece::Heaps(names)
                });
                rest = &inner[close + 1..];
            } else {
                let len = name_len(after);
                if len == 0 {
                    return Err("a `#` in the point form names no coordinate".into());
                }
                pieces.push(PointPiece::Value(after[..len].to_string()));
                rest = &after[len..];
            }
        }
        text.push_str(rest);
        if !text.is_empty() {
            pieces.push(PointPiece::Text(text));
        }
        let form = PointForm { pieces };
        let shown = form.fill_with(
            |name| Some(name_math(name)),
            |names| Some(names.iter().map(|n| name_math(n)).collect()),
        );
        if let Some(problem) = shown.as_deref().and_then(math_problem) {
            return Err(format!("the point form `{template}`: {problem}"));
        }
        Ok(form)
    }

    /// The coordinates the form names.
    pub fn names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for piece in &self.pieces {
            match piece {
                PointPiece::Text(_) => {}
                PointPiece::Value(n) => out.push(n.as_str()),
                PointPiece::Set(ns) | PointPiece::Heaps(ns) => {
                    out.extend(ns.iter().map(String::as_str))
                }
            }
        }
        out
    }

    /// The point in the form (a math body), or `None` when the point lacks a coordinate the
    /// form names.
    pub fn fill(&self, point: &[(String, Value)]) -> Option<String> {
        let value = |name: &str| point.iter().find(|(n, _)| n == name).map(|(_, v)| v);
        let values = |names: &[String]| -> Option<Vec<Value>> {
            let mut out = Vec::new();
            for n in names {
                match value(n)? {
                    Value::List(items) => out.extend(items.iter().cloned()),
                    v => out.push(v.clone()),
                }
            }
            Some(out)
        };
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                PointPiece::Text(t) => out.push_str(t),
                PointPiece::Value(n) => out.push_str(&value_math(value(n)?)),
                PointPiece::Set(ns) => {
                    let mut vs = values(ns)?;
                    vs.sort();
                    vs.dedup();
                    let items: Vec<String> = vs.iter().map(value_math).collect();
                    let _ = write!(out, r"\lbrace {}\rbrace", items.join(", "));
                }
                PointPiece::Heaps(ns) => {
                    let zero = Value::Num(crate::num::Q::from(0));
                    let items: Vec<String> = values(ns)?
                        .iter()
                        .filter(|v| **v != zero)
                        .map(value_math)
                        .collect();
                    let _ = write!(out, "[{}]", items.join(", "));
                }
            }
        }
        Some(out)
    }

    /// The form filled by `one` (a coordinate) and `many` (the items of a set or position),
    /// for validating the template.
    fn fill_with(
        &self,
        one: impl Fn(&str) -> Option<String>,
        many: impl Fn(&[String]) -> Option<Vec<String>>,
    ) -> Option<String> {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                PointPiece::Text(t) => out.push_str(t),
                PointPiece::Value(n) => out.push_str(&one(n)?),
                PointPiece::Set(ns) => {
                    let _ = write!(out, r"\lbrace {}\rbrace", many(ns)?.join(", "));
                }
                PointPiece::Heaps(ns) => {
                    let _ = write!(out, "[{}]", many(ns)?.join(", "));
                }
            }
        }
        Some(out)
    }
}

/// The LaTeX math body of `expr` (no `$` delimiters), valid in pdflatex and in GitHub `$…$`.
pub fn expr_math(expr: &Expr, defs: &Definitions) -> String {
    Printer { defs }.expr(expr).text
}

/// `expr` typeset as one side of an equation, bracketed when it binds more loosely than `=`
/// (a case distinction, a conjunction), so `{operand} = {value}` reads as meant.
pub fn operand_math(expr: &Expr, defs: &Definitions) -> String {
    finished(Printer { defs }.at(expr, level::NIM_SUM)).text
}

/// Whether `expr` is a literal value (a number, truth value, string, or a list of them): its
/// typeset form is its value, so naming the value by it says nothing.
pub fn is_literal(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) => true,
        ExprKind::Neg(x) => matches!(x.kind, ExprKind::Int(_)),
        ExprKind::List(items) => items.iter().all(is_literal),
        _ => false,
    }
}

/// A quantifier list as mathematics: `1 \le k \le 12,\ 1 \le m \le 2^{8-k}-1`.
pub fn binders_math(binders: &[Binder], defs: &Definitions) -> String {
    let p = Printer { defs };
    binders
        .iter()
        .map(|b| p.binder(b))
        .collect::<Vec<_>>()
        .join(r",\ ")
}

/// The exact reading an expression check tests, as one formula with its range:
/// `V([31, 32m, 32m+31]) = 62(m-1)+98 \text{ for } 1 \le m \le 64`.
pub fn check_math(check: &ExprCheck, defs: &Definitions) -> String {
    let parts = check_parts(check, defs);
    let mut out = parts.formula;
    if let Some(range) = parts.range {
        let _ = write!(out, r" \text{{ for }} {range}");
    }
    if let Some(condition) = parts.condition {
        let _ = write!(out, r" \text{{ such that }} {condition}");
    }
    out
}

/// The parts of [`check_math`], each a math body of its own, so that a report can set a long
/// formula and its range on lines of their own instead of shrinking one long line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckMath {
    /// The formula tested at every point: `V([31, 32m, 32m+31]) = 62(m-1)+98`.
    pub formula: String,
    /// The points, when the check quantifies over some: `1 \le m \le 64`.
    pub range: Option<String>,
    /// The condition a point must meet to be tested (the claim's hypotheses), when there is one.
    pub condition: Option<String>,
}

/// The formula, range and condition of an expression check, typeset separately (joined, they
/// are [`check_math`]).
pub fn check_parts(check: &ExprCheck, defs: &Definitions) -> CheckMath {
    let p = Printer { defs };
    let formula = match &check.assertion {
        Assertion::Holds(e) => p.expr(e).text,
        Assertion::Equal {
            actual, expected, ..
        } => {
            // A claimed list under `let` bindings (`[…] where i = n mod 5`) is compared entry by
            // entry too, the bindings said once at the end, when the found side does not use
            // their names.
            let (bindings, claimed) = p.bindings(expected);
            let bound_apart = !let_names(expected).iter().any(|name| actual.mentions(name));
            match (&actual.kind, &claimed.kind) {
                // Lists compared entry by entry read as the equations they are: `S_1(N) = 14,
                // f_N(p) = 9 - N`, a truth value claimed true as the condition itself.
                (ExprKind::List(found), ExprKind::List(claimed))
                    if found.len() == claimed.len()
                        && !found.is_empty()
                        && (bindings.is_empty() || bound_apart) =>
                {
                    let last = found.len() - 1;
                    let equations = found
                        .iter()
                        .zip(claimed)
                        .enumerate()
                        .map(|(j, (f, c))| {
                            let follows = j < last || !bindings.is_empty();
                            match c.kind {
                                ExprKind::Bool(true) => p.before(f, level::OPEN, follows).text,
                                ExprKind::Bool(false) => {
                                    let negated = Expr {
                                        kind: ExprKind::Not(Box::new(f.clone())),
                                        span: f.span,
                                    };
                                    p.before(&negated, level::OPEN, follows).text
                                }
                                _ => format!(
                                    "{} = {}",
                                    finished(p.at(f, level::NIM_SUM)).text,
                                    p.before(c, level::NIM_SUM, follows).text
                                ),
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(",\\quad ");
                    if bindings.is_empty() {
                        equations
                    } else {
                        format!(r"{equations} \text{{ where }} {}", bindings.join(r",\ "))
                    }
                }
                _ => format!(
                    "{} = {}",
                    finished(p.at(actual, level::NIM_SUM)).text,
                    p.at(expected, level::NIM_SUM).text
                ),
            }
        }
    };
    CheckMath {
        formula,
        range: (!check.range.binders.is_empty()).then(|| binders_math(&check.range.binders, defs)),
        condition: check
            .filter
            .as_ref()
            .map(|filter| p.at(filter, level::OR).text),
    }
}

/// The names a `let` chain at the top of `e` binds.
fn let_names(e: &Expr) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = e;
    while let ExprKind::Let(name, _, body) = &rest.kind {
        names.push(name.as_str());
        rest = body;
    }
    names
}

/// The helpers with a display form that the typeset `exprs` show, in order of first
/// appearance, each as (its name typeset with its parameters, what it means).
pub fn notation(exprs: &[&Expr], defs: &Definitions) -> Vec<(String, String)> {
    let mut seen: Vec<String> = Vec::new();
    for e in exprs {
        collect_displayed(e, defs, &mut seen);
    }
    seen.iter()
        .filter_map(|name| {
            let (def, form) = (defs.function(name)?, defs.display(name)?);
            let params: Vec<MathArg> = def
                .params
                .iter()
                .map(|p| MathArg::new(name_math(p), true))
                .collect();
            Some((form.fill(&params), form.means().to_string()))
        })
        .collect()
}

/// Adds to `seen` the helpers with a display form that `e` shows (looking inside the helpers it
/// inlines).
fn collect_displayed(e: &Expr, defs: &Definitions, seen: &mut Vec<String>) {
    stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
        if let ExprKind::Call(name, _) = &e.kind
            && let Some(def) = defs.function(name)
        {
            if defs.display(name).is_some() {
                if !seen.contains(name) {
                    seen.push(name.clone());
                }
            } else {
                collect_displayed(&def.body, defs, seen);
            }
        }
        for child in children(e) {
            collect_displayed(child, defs, seen);
        }
    })
}

/// The direct subexpressions of `e`, binder bounds included.
fn children(e: &Expr) -> Vec<&Expr> {
    use ExprKind as K;
    match &e.kind {
        K::Int(_) | K::Bool(_) | K::Str(_) | K::Var(_) => Vec::new(),
        K::List(items) | K::Call(_, items) => items.iter().collect(),
        K::Neg(x) | K::Not(x) => vec![x],
        K::Binary(_, a, b) | K::Let(_, a, b) => vec![a, b],
        K::Compare(first, rest) => std::iter::once(&**first)
            .chain(rest.iter().map(|(_, x)| x))
            .collect(),
        K::If(c, a, b) => vec![c, a, b],
        K::Aggregate(_, binders, body) => binders
            .iter()
            .flat_map(|b| match &b.domain {
                Domain::Interval { from, to, step } => [Some(from), Some(to), step.as_ref()]
                    .into_iter()
                    .flatten()
                    .collect(),
                Domain::Members(list) => vec![list],
            })
            .chain(std::iter::once(&**body))
            .collect(),
    }
}

/// The body of the helper `def` with `args` in place of its parameters, folded: what an
/// inlined call prints.
fn applied(def: &FunctionDef, args: &[Expr]) -> Expr {
    let map: Vec<(String, Expr)> = def
        .params
        .iter()
        .cloned()
        .zip(args.iter().cloned())
        .collect();
    fold(&substitute(&def.body, &map))
}

/// `e` with the names of `map` replaced by their expressions. A name bound inside `e` (by `let`
/// or an aggregate) that a replacement mentions is renamed with primes, so nothing is captured.
pub(crate) fn substitute(e: &Expr, map: &[(String, Expr)]) -> Expr {
    stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
        substitute_here(e, map)
    })
}

fn substitute_here(e: &Expr, map: &[(String, Expr)]) -> Expr {
    use ExprKind as K;
    let sub = |x: &Expr| substitute(x, map);
    let boxed = |x: &Expr| Box::new(substitute(x, map));
    let kind = match &e.kind {
        K::Var(name) => match map.iter().rev().find(|(n, _)| n == name) {
            Some((_, value)) => return value.clone(),
            None => K::Var(name.clone()),
        },
        K::Int(_) | K::Bool(_) | K::Str(_) => e.kind.clone(),
        K::List(items) => K::List(items.iter().map(sub).collect()),
        K::Call(name, args) => K::Call(name.clone(), args.iter().map(sub).collect()),
        K::Neg(x) => K::Neg(boxed(x)),
        K::Not(x) => K::Not(boxed(x)),
        K::Binary(op, a, b) => K::Binary(*op, boxed(a), boxed(b)),
        K::Compare(first, rest) => K::Compare(
            boxed(first),
            rest.iter().map(|(op, x)| (*op, sub(x))).collect(),
        ),
        K::If(c, a, b) => K::If(boxed(c), boxed(a), boxed(b)),
        K::Let(name, v, body) => {
            let (name, inner) = rebind(name, map, body);
            K::Let(name, boxed(v), Box::new(substitute(body, &inner)))
        }
        K::Aggregate(name, binders, body) => {
            let mut inner = map.to_vec();
            let mut bound = Vec::with_capacity(binders.len());
            for b in binders {
                let domain = match &b.domain {
                    Domain::Interval { from, to, step } => Domain::Interval {
                        from: substitute(from, &inner),
                        to: substitute(to, &inner),
                        step: step.as_ref().map(|s| substitute(s, &inner)),
                    },
                    Domain::Members(list) => Domain::Members(substitute(list, &inner)),
                };
                let (renamed, next) = rebind(&b.name, &inner, body);
                inner = next;
                bound.push(Binder {
                    name: renamed,
                    span: b.span,
                    domain,
                });
            }
            K::Aggregate(name.clone(), bound, Box::new(substitute(body, &inner)))
        }
    };
    Expr { kind, span: e.span }
}

/// The replacements inside the scope of a new binding of `name` (over `scope`), and the name the
/// binding gets: `name` shadows its own replacement, and is renamed when a replacement mentions
/// it.
fn rebind(name: &str, map: &[(String, Expr)], scope: &Expr) -> (String, Vec<(String, Expr)>) {
    let mut inner: Vec<(String, Expr)> = map.iter().filter(|(n, _)| n != name).cloned().collect();
    let clashes = |candidate: &str| inner.iter().any(|(_, v)| v.mentions(candidate));
    if !clashes(name) {
        return (name.to_string(), inner);
    }
    let mut fresh = format!("{name}'");
    while clashes(&fresh) || scope.mentions(&fresh) {
        fresh.push('\'');
    }
    inner.push((name.to_string(), var(&fresh)));
    (fresh, inner)
}

fn var(name: &str) -> Expr {
    Expr {
        kind: ExprKind::Var(name.to_string()),
        span: Span::default(),
    }
}

/// The exact value of an expression without names or calls (a range's bound), if it has one.
fn constant(e: &Expr) -> Option<crate::num::Q> {
    let closed = !e.calls_anything() && free_of_names(e);
    if !closed {
        return None;
    }
    let defs = Definitions::new();
    let mut engines = Engines::new();
    match Evaluator::new(&defs, &mut engines).eval(e, &mut Vec::new()) {
        Ok(Value::Num(q)) => Some(q),
        _ => None,
    }
}

/// The points of a range with constant bounds, when there are at most four of them.
fn few_points(from: &Expr, to: &Expr, step: &Expr) -> Option<Vec<String>> {
    let (from, to, step) = (constant(from)?, constant(to)?, constant(step)?);
    if step.signum() <= 0 {
        return None;
    }
    let mut points = Vec::new();
    let mut x = from;
    while x <= to {
        if points.len() == 4 {
            return None;
        }
        points.push(rational_math(&x));
        x = x + step.clone();
    }
    Some(points)
}

/// A value as a math body: integers and fractions exact, lists in brackets, truth values and
/// strings upright.
pub fn value_math(v: &Value) -> String {
    match v {
        Value::Num(q) => rational_math(q),
        Value::Bool(b) => format!("\\mathrm{{{b}}}"),
        Value::Str(s) => text_math(s),
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(value_math).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// An exact rational as a math body: `7`, `-7`, `\tfrac{3}{2}`, `-\tfrac{3}{2}`.
pub fn rational_math(q: &crate::num::Q) -> String {
    if q.is_integer() {
        return q.to_string();
    }
    let sign = if q.signum() < 0 { "-" } else { "" };
    format!(
        r"{sign}\tfrac{{{}}}{{{}}}",
        num_traits::Signed::abs(&*q.numer()),
        q.denom()
    )
}

/// The lattice a stepped range runs on, `a + s\mathbb{Z}` with `0 \le a < s` (just
/// `s\mathbb{Z}` when the start is a multiple of the step, `\mathbb{Z}` for the integers), so
/// `-8..8 step 1/2` reads $N \in \tfrac{1}{2}\mathbb{Z},\ -8 \le N \le 8$ rather than as a list;
/// `None` for the integers themselves (the range is then just its bounds).
fn lattice_math(from: &crate::num::Q, step: &crate::num::Q) -> Option<String> {
    let multiples = crate::num::Q::from_bigint((from / step).floor());
    let residue = from - &(step * &multiples);
    let one = crate::num::Q::one();
    if residue.is_zero() && *step == one {
        return None;
    }
    let lattice = if *step == one {
        r"\mathbb{Z}".to_string()
    } else {
        format!(r"{}\mathbb{{Z}}", rational_math(step))
    };
    Some(if residue.is_zero() {
        lattice
    } else {
        format!("{} + {lattice}", rational_math(&residue))
    })
}

/// The largest value [`fold`] writes as a number (beyond, `2^{40}` says more than its digits).
const FOLD_LIMIT: i64 = 1_000_000;

/// `e` with its arithmetic on numbers done (`2 \cdot 3 - 2` → `4`): for a helper's body after
/// its arguments are substituted, whose literal arithmetic is nobody's wording.
fn fold(e: &Expr) -> Expr {
    stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
        fold_here(e)
    })
}

fn fold_here(e: &Expr) -> Expr {
    use ExprKind as K;
    let arithmetic = matches!(
        e.kind,
        K::Neg(_)
            | K::Binary(
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Pow,
                ..
            )
    );
    if arithmetic
        && let Some(q) = constant(e)
        && q.abs() <= crate::num::Q::int(FOLD_LIMIT)
    {
        return number(&q);
    }
    let f = |x: &Expr| fold(x);
    let b = |x: &Expr| Box::new(fold(x));
    let kind = match &e.kind {
        K::Int(_) | K::Bool(_) | K::Str(_) | K::Var(_) => e.kind.clone(),
        K::List(items) => K::List(items.iter().map(f).collect()),
        K::Call(name, args) => K::Call(name.clone(), args.iter().map(f).collect()),
        K::Neg(x) => K::Neg(b(x)),
        K::Not(x) => K::Not(b(x)),
        K::Binary(op, x, y) => K::Binary(*op, b(x), b(y)),
        K::Compare(first, rest) => {
            K::Compare(b(first), rest.iter().map(|(op, x)| (*op, f(x))).collect())
        }
        K::If(c, x, y) => K::If(b(c), b(x), b(y)),
        K::Let(name, v, body) => K::Let(name.clone(), b(v), b(body)),
        K::Aggregate(name, binders, body) => K::Aggregate(
            name.clone(),
            binders
                .iter()
                .map(|bd| Binder {
                    name: bd.name.clone(),
                    span: bd.span,
                    domain: match &bd.domain {
                        Domain::Interval { from, to, step } => Domain::Interval {
                            from: f(from),
                            to: f(to),
                            step: step.as_ref().map(f),
                        },
                        Domain::Members(list) => Domain::Members(f(list)),
                    },
                })
                .collect(),
            b(body),
        ),
    };
    Expr { kind, span: e.span }
}

/// A rational as an expression: `7`, `-7`, `3/2`, `-3/2`.
fn number(q: &crate::num::Q) -> Expr {
    let int = |n: &num_bigint::BigInt| Expr {
        kind: ExprKind::Int(num_traits::Signed::abs(n)),
        span: Span::default(),
    };
    let magnitude = if q.is_integer() {
        int(&q.numer())
    } else {
        Expr {
            kind: ExprKind::Binary(
                BinOp::Div,
                Box::new(int(&q.numer())),
                Box::new(int(&q.denom())),
            ),
            span: Span::default(),
        }
    };
    if num_traits::Signed::is_negative(&*q.numer()) {
        Expr {
            kind: ExprKind::Neg(Box::new(magnitude)),
            span: Span::default(),
        }
    } else {
        magnitude
    }
}

fn free_of_names(e: &Expr) -> bool {
    !matches!(e.kind, ExprKind::Var(_)) && children(e).into_iter().all(free_of_names)
}

struct Printer<'a> {
    defs: &'a Definitions,
}

impl Printer<'_> {
    /// `e` typeset, bracketed when it binds less tightly than `least`.
    fn at(&self, e: &Expr, least: u8) -> Math {
        let m = self.expr(e);
        if m.level < least { m.bracketed() } else { m }
    }

    /// [`Printer::at`], and when something `follows`, a case distinction bracketed.
    fn before(&self, e: &Expr, least: u8, follows: bool) -> Math {
        let m = self.at(e, least);
        if follows { finished(m) } else { m }
    }

    fn expr(&self, e: &Expr) -> Math {
        stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
            self.node(e)
        })
    }

    fn node(&self, e: &Expr) -> Math {
        use ExprKind as K;
        match &e.kind {
            K::Int(n) => {
                let text = n.to_string();
                if text.starts_with('-') {
                    Math::new(text, level::NEGATION, Lead::Minus, Tail::Digit)
                } else {
                    Math::new(text, level::ATOM, Lead::Digit, Tail::Digit)
                }
            }
            K::Bool(b) => Math::new(
                format!(r"\mathrm{{{b}}}"),
                level::ATOM,
                Lead::Other,
                Tail::Other,
            ),
            K::Str(s) => Math::new(text_math(s), level::ATOM, Lead::Other, Tail::Other),
            K::List(items) => {
                let items: Vec<String> = items
                    .iter()
                    .enumerate()
                    .map(|(j, i)| self.before(i, level::OR, j + 1 < items.len()).text)
                    .collect();
                Math::new(
                    self.defs.list_style().write(&items.join(", ")),
                    level::ATOM,
                    Lead::Other,
                    Tail::Closed,
                )
            }
            K::Var(name) => {
                // `\mathit{sg}M` would read as one word: a long name multiplies with `\cdot`.
                let text = name_math(name);
                let (lead, tail) = if text.starts_with(r"\mathit") {
                    (Lead::Other, Tail::Other)
                } else {
                    (Lead::Letter, Tail::Letter)
                };
                Math::new(text, level::ATOM, lead, tail)
            }
            K::Neg(x) => self.negation(x),
            K::Not(x) => self.not(x),
            K::Binary(op, a, b) => self.binary(*op, a, b),
            // Two truth values equal: an equivalence, each side a bracketed statement.
            K::Compare(first, rest) if matches!(rest.as_slice(), [(CmpOp::Eq, x)] if truth_valued(first) && truth_valued(x)) =>
            {
                let (_, second) = &rest[0];
                Math::new(
                    format!(
                        r"{} \iff {}",
                        finished(self.at(first, level::NIM_SUM)).text,
                        finished(self.at(second, level::NIM_SUM)).text
                    ),
                    level::IMPLIES,
                    Lead::Other,
                    Tail::Other,
                )
            }
            K::Compare(first, rest) => {
                let mut text = finished(self.at(first, level::NIM_SUM)).text;
                for (j, (op, x)) in rest.iter().enumerate() {
                    let _ = write!(
                        text,
                        " {} {}",
                        relation(*op),
                        self.before(x, level::NIM_SUM, j + 1 < rest.len()).text
                    );
                }
                Math::new(text, level::RELATION, Lead::Other, Tail::Other)
            }
            K::If(..) => self.cases(e),
            K::Let(..) => self.let_chain(e),
            K::Call(name, args) => self.call(name, args),
            K::Aggregate(name, binders, body) => self.aggregate(name, binders, body),
        }
    }

    fn negation(&self, x: &Expr) -> Math {
        let inner = self.expr(x);
        let inner = if inner.level < level::PRODUCT || inner.lead == Lead::Minus {
            inner.bracketed()
        } else {
            inner
        };
        Math::new(
            format!("-{}", inner.text),
            level::NEGATION,
            Lead::Minus,
            inner.tail,
        )
    }

    /// `e`, or the body of the helper it calls with the arguments substituted when the helper is
    /// inlined (so a rule about the shape of `e` sees what is printed).
    fn inlined(&self, e: &Expr) -> Expr {
        if let ExprKind::Call(name, args) = &e.kind
            && let Some(def) = self.defs.function(name)
            && self.defs.display(name).is_none()
        {
            return self.inlined(&applied(def, args));
        }
        e.clone()
    }

    fn not(&self, x: &Expr) -> Math {
        let x = &self.inlined(x);
        if let ExprKind::Compare(first, rest) = &x.kind
            && let [(op, second)] = rest.as_slice()
        {
            let negated = op.negated();
            return Math::new(
                format!(
                    "{} {} {}",
                    finished(self.at(first, level::NIM_SUM)).text,
                    relation(negated),
                    self.at(second, level::NIM_SUM).text
                ),
                level::RELATION,
                Lead::Other,
                Tail::Other,
            );
        }
        if let ExprKind::Call(name, args) = &x.kind
            && name == "is_int"
            && self.defs.function(name).is_none()
            && let [arg] = args.as_slice()
        {
            return Math::new(
                format!(r"{} \notin \mathbb{{Z}}", self.at(arg, level::NIM_SUM).text),
                level::RELATION,
                Lead::Other,
                Tail::Other,
            );
        }
        let inner = self.at(x, level::ATOM);
        Math::new(
            format!(r"\neg {}", inner.text),
            level::NOT,
            Lead::Other,
            Tail::Other,
        )
    }

    /// The operands of a left-nested chain of `op` (`a and b and c`).
    fn chain<'e>(op: BinOp, a: &'e Expr, b: &'e Expr) -> Vec<&'e Expr> {
        let mut operands = vec![b];
        let mut left = a;
        while let ExprKind::Binary(o, l, r) = &left.kind
            && *o == op
        {
            operands.push(r);
            left = l;
        }
        operands.push(left);
        operands.reverse();
        operands
    }

    fn binary(&self, op: BinOp, a: &Expr, b: &Expr) -> Math {
        let joined = |operands: Vec<&Expr>, least: u8, joiner: &str, own: u8| {
            let parts: Vec<String> = operands
                .iter()
                .enumerate()
                .map(|(j, x)| self.before(x, least, j + 1 < operands.len()).text)
                .collect();
            Math::new(parts.join(joiner), own, Lead::Other, Tail::Other)
        };
        match op {
            BinOp::And => joined(
                Self::chain(op, a, b),
                level::NOT,
                r" \text{ and } ",
                level::AND,
            ),
            BinOp::Or => joined(
                Self::chain(op, a, b),
                level::NOT,
                r" \text{ or } ",
                level::OR,
            ),
            BinOp::Xor => joined(
                Self::chain(op, a, b),
                level::PRODUCT,
                r" \oplus ",
                level::NIM_SUM,
            ),
            BinOp::Add | BinOp::Sub => self.sum(op, a, b, false),
            BinOp::Mul => {
                let left = self.product_left(a);
                let right = self.expr(b);
                let right = if (right.level < level::POWER && right.level != level::BIG_OPERATOR)
                    || right.tail == Tail::Rows
                {
                    right.bracketed()
                } else {
                    right
                };
                let text = if juxtaposes(left.tail, right.lead) {
                    juxtapose(&left.text, &right.text)
                } else {
                    format!(r"{} \cdot {}", left.text, right.text)
                };
                Math::new(text, level::PRODUCT, left.lead, right.tail)
            }
            BinOp::Div => {
                let left = self.product_left(a);
                let right = self.at(b, level::POWER);
                Math::new(
                    format!("{}/{}", left.text, right.text),
                    level::PRODUCT,
                    left.lead,
                    Tail::Other,
                )
                .quotient()
            }
            BinOp::Mod => {
                let left = self.product_left(a);
                let right = self.at(b, level::POWER);
                Math::new(
                    format!(r"{} \bmod {}", left.text, right.text),
                    level::MODULO,
                    left.lead,
                    Tail::Other,
                )
                .quotient()
            }
            BinOp::Pow => {
                let base = self.at(a, level::ATOM);
                let base_text = if base.text.ends_with('}') || base.text.ends_with('\'') {
                    format!("{{{}}}", base.text)
                } else {
                    base.text
                };
                Math::new(
                    format!("{base_text}^{{{}}}", self.expr(b).text),
                    level::POWER,
                    base.lead,
                    Tail::Closed,
                )
            }
        }
    }

    /// `a + b` or `a - b`; when something `follows` it, a last term that would take it in (a big
    /// operator's body, a case distinction) is bracketed, and so is every such term of a chain
    /// of sums on the left (`1 + (\sum_j j) + 2`, not `(1 + \sum_j j) + 2`).
    fn sum(&self, op: BinOp, a: &Expr, b: &Expr, follows: bool) -> Math {
        let left = match &a.kind {
            ExprKind::Binary(inner @ (BinOp::Add | BinOp::Sub), x, y) => {
                self.sum(*inner, x, y, true)
            }
            _ => closed_right(self.at(a, level::SUM)),
        };
        let right = self.expr(b);
        let right = if (right.level < level::PRODUCT && right.level != level::BIG_OPERATOR)
            || right.lead == Lead::Minus
            || (follows && matches!(right.tail, Tail::Open | Tail::Rows))
        {
            right.bracketed()
        } else {
            right
        };
        Math::new(
            format!("{} {} {}", left.text, op.symbol(), right.text),
            level::SUM,
            left.lead,
            right.tail,
        )
    }

    /// The left operand of a product, quotient or `mod`: a quotient or `mod` there is bracketed
    /// (`(L/2)k`, not `L/2 \cdot k`).
    fn product_left(&self, a: &Expr) -> Math {
        let m = self.at(a, level::PRODUCT);
        if m.quotient || matches!(m.tail, Tail::Open | Tail::Rows) {
            m.bracketed()
        } else {
            m
        }
    }

    /// `\begin{cases} a & \text{if } c,\cr b & \text{if } d,\cr e & \text{otherwise} \end{cases}`
    /// for an `if … else if …` chain; `if c then a else true` is the implication
    /// `c \Rightarrow a`.
    fn cases(&self, e: &Expr) -> Math {
        if let ExprKind::If(c, a, b) = &e.kind
            && b.kind == ExprKind::Bool(true)
        {
            return Math::new(
                format!(
                    r"{} \Rightarrow {}",
                    finished(self.at(c, level::OR)).text,
                    self.at(a, level::OR).text
                ),
                level::IMPLIES,
                Lead::Other,
                Tail::Other,
            );
        }
        let mut rows = Vec::new();
        self.rows(e, None, &mut rows);
        Math::new(
            format!("{CASES_BEGIN} {} {CASES_END}", rows.join(r"\cr ")),
            level::BIG_OPERATOR,
            Lead::Other,
            Tail::Rows,
        )
    }

    /// The rows of a case distinction `e` under `guard` (a condition every row adds to its own),
    /// read from the top, the first that applies: a branch that is itself a case distinction
    /// gives rows of its own with the branch's condition added (`a` if $c$ and $d$, `b` if $c$),
    /// not a block inside a block; the last row is "otherwise" unless a guard names it.
    fn rows(&self, e: &Expr, guard: Option<&Expr>, out: &mut Vec<String>) {
        let both = |c: &Expr| match guard {
            Some(g) => g.clone().and(c.clone()),
            None => c.clone(),
        };
        let mut rest = e;
        while let ExprKind::If(c, a, b) = &rest.kind
            && b.kind != ExprKind::Bool(true)
        {
            let condition = both(c);
            if matches!(&a.kind, ExprKind::If(_, _, x) if x.kind != ExprKind::Bool(true)) {
                self.rows(a, Some(&condition), out);
            } else {
                out.push(format!(
                    r"{} & \text{{if }} {},",
                    self.expr(a).text,
                    finished(self.expr(&condition)).text
                ));
            }
            rest = b;
        }
        out.push(match guard {
            Some(g) => format!(
                r"{} & \text{{if }} {},",
                self.expr(rest).text,
                finished(self.expr(g)).text
            ),
            None => format!(r"{} & \text{{otherwise}}", self.expr(rest).text),
        });
    }

    /// The bindings `x = e` of a `let` chain, typeset, and the expression under them.
    fn bindings<'e>(&self, e: &'e Expr) -> (Vec<String>, &'e Expr) {
        let mut bindings = Vec::new();
        let mut rest = e;
        while let ExprKind::Let(name, v, body) = &rest.kind {
            bindings.push(format!(
                "{} = {}",
                name_math(name),
                finished(self.at(v, level::OR)).text
            ));
            rest = body;
        }
        (bindings, rest)
    }

    /// `b \text{ where } x = e,\ y = f` for `let x = e in let y = f in b`.
    fn let_chain(&self, e: &Expr) -> Math {
        let (bindings, rest) = self.bindings(e);
        Math::new(
            format!(
                r"{} \text{{ where }} {}",
                finished(self.at(rest, level::OR)).text,
                bindings.join(r",\ ")
            ),
            level::OPEN,
            Lead::Other,
            Tail::Other,
        )
    }

    fn call(&self, name: &str, args: &[Expr]) -> Math {
        if let Some(def) = self.defs.function(name) {
            return match self.defs.display(name) {
                Some(form) => {
                    let typeset: Vec<MathArg> = args.iter().map(|a| self.arg(a)).collect();
                    Math::new(
                        form.fill(&typeset),
                        level::ATOM,
                        Lead::Function,
                        Tail::Application,
                    )
                }
                None => self.expr(&applied(def, args)),
            };
        }
        let typeset: Vec<MathArg> = args.iter().map(|a| self.arg(a)).collect();
        // An unchecked call (a wrong number of arguments) is shown as written.
        let fits = |f: &dyn functions::Function| match f.signature().params {
            functions::Params::Fixed(params) => params.len() == args.len(),
            functions::Params::NumsOrList => !args.is_empty(),
        };
        match functions::lookup(name) {
            Some(f) if fits(f) => f.math(&typeset).into_math(),
            _ => generic_call(name, &typeset).into_math(),
        }
    }

    fn arg(&self, a: &Expr) -> MathArg {
        if let ExprKind::List(items) = &a.kind {
            return MathArg::list(
                items
                    .iter()
                    .map(|i| {
                        let m = self.at(i, level::OR);
                        let atomic = m.level >= level::POWER;
                        MathArg::new(m.text, atomic)
                    })
                    .collect(),
                self.defs.list_style(),
            );
        }
        let m = self.expr(a);
        MathArg::new(m.text, m.level >= level::POWER)
    }

    /// `a \le j \le b`, `j \in \lbrace a, a+s, \dots, b\rbrace`, `j \in p`.
    fn binder(&self, b: &Binder) -> String {
        let name = name_math(&b.name);
        match &b.domain {
            Domain::Interval {
                from,
                to,
                step: None,
            } if constant(from).is_some_and(|a| Some(a) == constant(to)) => {
                format!("{name} = {}", self.at(from, level::OR).text)
            }
            Domain::Interval {
                from,
                to,
                step: None,
            } => format!(
                r"{} \le {name} \le {}",
                finished(self.at(from, level::NIM_SUM)).text,
                self.at(to, level::NIM_SUM).text
            ),
            Domain::Interval {
                from,
                to,
                step: Some(step),
            } => {
                if let Some(points) = few_points(from, to, step) {
                    return format!(r"{name} \in \lbrace {}\rbrace", points.join(", "));
                }
                // A bound that is a number is written as one: `-\tfrac{7}{4}`, not `-7/4`.
                let bound = |e: &Expr| {
                    constant(e)
                        .map_or_else(|| self.at(e, level::NIM_SUM).text, |q| rational_math(&q))
                };
                let bounds = format!(r"{} \le {name} \le {}", bound(from), bound(to));
                match (constant(from), constant(step)) {
                    (Some(a), Some(s)) if s.signum() > 0 => match lattice_math(&a, &s) {
                        Some(lattice) => format!(r"{name} \in {lattice},\ {bounds}"),
                        None => bounds,
                    },
                    _ => format!(
                        r"{name} \in \lbrace {}, {}, \dots, {}\rbrace",
                        self.at(from, level::OR).text,
                        self.second_point(from, step),
                        self.at(to, level::OR).text
                    ),
                }
            }
            // The members of a list literal are a set, never the interval `[a, b]` its
            // brackets would suggest.
            Domain::Members(Expr {
                kind: ExprKind::List(items),
                ..
            }) => format!(
                r"{name} \in \lbrace {}\rbrace",
                items
                    .iter()
                    .map(|x| self.at(x, level::NIM_SUM).text)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Domain::Members(list) => {
                format!(r"{name} \in {}", self.at(list, level::NIM_SUM).text)
            }
        }
    }

    /// The second point of a range `from..to step s`: its value when the bounds are numbers.
    fn second_point(&self, from: &Expr, step: &Expr) -> String {
        let sum = Expr {
            kind: ExprKind::Binary(BinOp::Add, Box::new(from.clone()), Box::new(step.clone())),
            span: Span::default(),
        };
        match constant(&sum) {
            Some(q) => rational_math(&q),
            None => self.expr(&sum).text,
        }
    }

    fn aggregate(&self, name: &str, binders: &[Binder], body: &Expr) -> Math {
        let big = |text: String| Math::new(text, level::BIG_OPERATOR, Lead::Function, Tail::Open);
        let open = |text: String| Math::new(text, level::OPEN, Lead::Other, Tail::Other);
        let ranges = || {
            binders
                .iter()
                .map(|b| self.binder(b))
                .collect::<Vec<_>>()
                .join(r",\ ")
        };
        match name {
            "sum" => {
                let mut text = String::new();
                for b in binders {
                    match &b.domain {
                        Domain::Interval {
                            from,
                            to,
                            step: None,
                        } => {
                            let _ = write!(
                                text,
                                r"\sum_{{{}={}}}^{{{}}} ",
                                name_math(&b.name),
                                self.expr(from).text,
                                self.expr(to).text
                            );
                        }
                        _ => {
                            let _ = write!(text, r"\sum_{{{}}} ", self.binder(b));
                        }
                    }
                }
                text.push_str(&self.at(body, level::PRODUCT).text);
                big(text)
            }
            "min" | "max" => big(format!(
                r"\{name}_{{{}}} {}",
                ranges(),
                self.at(body, level::PRODUCT).text
            )),
            "all" => open(format!(
                r"\forall {}\colon\ {}",
                ranges(),
                self.at(body, level::OR).text
            )),
            "any" => open(format!(
                r"\exists {}\colon\ {}",
                ranges(),
                self.at(body, level::OR).text
            )),
            "count" => Math::new(
                format!(
                    r"\lvert\lbrace {} : {}\rbrace\rvert",
                    ranges(),
                    self.at(body, level::OR).text
                ),
                level::ATOM,
                Lead::Delimiter,
                Tail::Closed,
            ),
            _ => self.list_of(binders, body),
        }
    }

    /// `list(j in a..b: e)` as `[e(a), \dots, e(b)]`; other lists in set-builder form.
    fn list_of(&self, binders: &[Binder], body: &Expr) -> Math {
        let closed = |text: String| Math::new(text, level::ATOM, Lead::Other, Tail::Closed);
        if let [
            Binder {
                name,
                domain:
                    Domain::Interval {
                        from,
                        to,
                        step: None,
                    },
                ..
            },
        ] = binders
        {
            let at = |x: &Expr| {
                let point = substitute(body, &[(name.clone(), x.clone())]);
                self.at(&point, level::OR).text
            };
            return closed(format!(r"[{}, \dots, {}]", at(from), at(to)));
        }
        let ranges: Vec<String> = binders.iter().map(|b| self.binder(b)).collect();
        closed(format!(
            "[{} : {}]",
            self.at(body, level::OR).text,
            ranges.join(r",\ ")
        ))
    }
}

impl Math {
    /// Marks a quotient, so a product beside it brackets it.
    fn quotient(mut self) -> Math {
        self.quotient = true;
        self
    }
}

/// `m`, bracketed when it ends in a big operator's body or a case distinction that what
/// follows would continue.
fn closed_right(m: Math) -> Math {
    if matches!(m.tail, Tail::Open | Tail::Rows) {
        m.bracketed()
    } else {
        m
    }
}

/// `m`, bracketed when it is a case distinction: before a relation, a comma or words, which a
/// big operator's body may stand before (`\sum_{j} j = 5`) but a last row may not.
fn finished(m: Math) -> Math {
    if m.tail == Tail::Rows {
        m.bracketed()
    } else {
        m
    }
}

/// `left` and `right` juxtaposed: a space only where TeX needs one (after a control word such
/// as `\rfloor` before a letter).
fn juxtapose(left: &str, right: &str) -> String {
    let letters = left.len()
        - left
            .trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .len();
    let control_word = letters > 0 && left[..left.len() - letters].ends_with('\\');
    if control_word && right.starts_with(|c: char| c.is_ascii_alphabetic()) {
        format!("{left} {right}")
    } else {
        format!("{left}{right}")
    }
}

/// Whether a product of a piece ending in `tail` and one beginning with `lead` may be written
/// by juxtaposition without being misread.
fn juxtaposes(tail: Tail, lead: Lead) -> bool {
    match lead {
        Lead::Letter | Lead::Delimiter => matches!(tail, Tail::Digit | Tail::Letter | Tail::Closed),
        Lead::Paren => matches!(tail, Tail::Digit | Tail::Closed),
        Lead::Function => tail == Tail::Digit,
        Lead::Digit | Lead::Minus | Lead::Other => false,
    }
}

/// Whether `e` is a truth value by its form: a comparison, a connective or a literal.
fn truth_valued(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Compare(..)
            | ExprKind::Not(_)
            | ExprKind::Bool(_)
            | ExprKind::Binary(BinOp::And | BinOp::Or, ..)
    )
}

/// A comparison as a relation symbol: `\le`, `\ne`, `=`.
pub fn relation(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ne => r"\ne",
        CmpOp::Lt => "<",
        CmpOp::Le => r"\le",
        CmpOp::Gt => ">",
        CmpOp::Ge => r"\ge",
    }
}
