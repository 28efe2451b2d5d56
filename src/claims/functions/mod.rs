//! The functions claim expressions call, registered in one place.
//!
//! Each function is a small value implementing [`Function`]: its [`Signature`] (name, parameter
//! kinds, result kind and a one-line description) and how to evaluate a call. The checker
//! ([`Definitions::check_with`](super::eval::Definitions::check_with)) reads the signature to
//! refuse unknown names, wrong arities and wrong kinds before anything runs; the evaluator calls
//! [`Function::call`]; the cost model asks [`Function::bounds`] for the interval of a result;
//! and the function tables of `data/claims/README.md` are [`markdown`] of the same list (a test
//! fails when the committed file differs).
//!
//! One file per game holds that game's functions and the cache they share ([`scoring`],
//! [`octal`], [`candy`], [`cash`]); [`numbers`] holds the arithmetic and list functions of the
//! language itself. Each file exports a [`Group`]; [`GROUPS`] lists the groups. Adding a function
//! to a game is one `impl Function` in the game's file and its entry in that file's `GROUP`;
//! the README's tables are then regenerated with
//! `NIMLAB_BLESS=1 cargo test --lib claims::functions`.
//!
//! Engine results are cached per game, not per call: a claim quantified over thousands of points
//! asks for the same payoffs, sequences and tables again and again. A game's cache is a plain
//! `Default` type in its file, kept by [`Engines`] under its type.

pub mod candy;
pub mod cash;
pub mod numbers;
pub mod octal;
pub mod scoring;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::LazyLock;

use foldhash::fast::FixedState;

use super::cost::Interval;
use super::engines::Engines;
use super::expr::{Expr, ExprError, Span};
use super::typeset::{CallMath, MathArg, generic_call};
use super::value::{self, Ty, Value};
use crate::games::scoring::HeapSize;
use crate::num::Q;

/// One parameter: its name in the documentation and the kind of value it takes.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The name the documentation gives it (`p`, `N`, `rules`).
    pub name: &'static str,
    /// The kind of value it takes.
    pub ty: Ty,
}

/// A number parameter.
pub const fn num(name: &'static str) -> Param {
    Param { name, ty: Ty::Num }
}

/// A list parameter.
pub const fn list(name: &'static str) -> Param {
    Param { name, ty: Ty::List }
}

/// A string parameter.
pub const fn string(name: &'static str) -> Param {
    Param { name, ty: Ty::Str }
}

/// A parameter that takes more than one kind (the function checks it when called).
pub const fn any(name: &'static str) -> Param {
    Param { name, ty: Ty::Any }
}

/// How a function takes its arguments.
#[derive(Clone, Copy, Debug)]
pub enum Params {
    /// Exactly these parameters.
    Fixed(&'static [Param]),
    /// Any positive number of numbers, or one list of numbers (`min(a, b, ...)`, `min(list)`).
    NumsOrList,
}

/// What the checker and the documentation know of a function.
#[derive(Clone, Copy, Debug)]
pub struct Signature {
    /// The name claims call it by.
    pub name: &'static str,
    /// Its parameters.
    pub params: Params,
    /// The kind of its result.
    pub result: Ty,
    /// What it computes, in one line of Markdown.
    pub doc: &'static str,
}

impl Signature {
    /// A signature with fixed parameters.
    pub const fn new(
        name: &'static str,
        params: &'static [Param],
        result: Ty,
        doc: &'static str,
    ) -> Signature {
        Signature {
            name,
            params: Params::Fixed(params),
            result,
            doc,
        }
    }

    /// How the documentation writes a call: `payoff(N, p)`, `min(a, b, ...)`.
    pub fn call_text(&self) -> String {
        let params = match self.params {
            Params::Fixed(params) => params.iter().map(|p| p.name).collect::<Vec<_>>().join(", "),
            Params::NumsOrList => "a, b, ...".to_string(),
        };
        format!("{}({params})", self.name)
    }
}

/// A function of the claims language.
pub trait Function: Sync {
    /// Its name, parameters, result and description.
    fn signature(&self) -> &Signature;

    /// An interval holding the result when the arguments lie in `args` (one interval per
    /// argument), for sizing ranges whose bounds call the function (`k in 1..floor(n/2)`);
    /// `None` when unknown. Engine functions leave it unknown.
    fn bounds(&self, _args: &[(f64, f64)]) -> Interval {
        None
    }

    /// The call typeset as the papers write it, from its typeset arguments (see
    /// [`super::typeset`]): `payoff(N, p)` is $f_{N}(p)$. By default `\operatorname{name}(…)`.
    fn math(&self, args: &[MathArg]) -> CallMath {
        generic_call(self.signature().name, args)
    }

    /// The value of a call whose arguments were checked against the signature.
    fn call(&self, args: &Args<'_>, engines: &mut Engines) -> Result<Value, ExprError>;
}

/// A titled list of functions: one game's, or the language's own.
pub struct Group {
    /// The heading the documentation gives it.
    pub title: &'static str,
    /// What its parameter names stand for, one sentence of Markdown without the full stop
    /// (may be empty).
    pub note: &'static str,
    /// Its functions, in documentation order.
    pub functions: &'static [&'static dyn Function],
}

/// Every function of the claims language, by group, in documentation order.
pub static GROUPS: &[&Group] = &[
    &numbers::GROUP,
    &scoring::GROUP,
    &octal::GROUP,
    &candy::GROUP,
    &cash::GROUP,
];

/// Every function, in documentation order.
pub fn all() -> impl Iterator<Item = &'static dyn Function> {
    GROUPS.iter().flat_map(|g| g.functions.iter().copied())
}

/// The function called `name`.
pub fn lookup(name: &str) -> Option<&'static dyn Function> {
    // Looked up at every call of an expression: foldhash rather than SipHash.
    static BY_NAME: LazyLock<HashMap<&'static str, &'static dyn Function, FixedState>> =
        LazyLock::new(|| all().map(|f| (f.signature().name, f)).collect());
    BY_NAME.get(name).copied()
}

/// Whether `name` is one of a game's functions (an engine value such as `payoff`), not one of
/// the language's own arithmetic and list functions.
pub fn is_game_function(name: &str) -> bool {
    GROUPS
        .iter()
        .filter(|g| !std::ptr::eq(**g, &numbers::GROUP))
        .any(|g| g.functions.iter().any(|f| f.signature().name == name))
}

/// The function tables of `data/claims/README.md`: one table per group, one row per function.
pub fn markdown() -> String {
    let mut out = String::new();
    for (i, group) in GROUPS.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "### {}\n", group.title);
        if !group.note.is_empty() {
            let _ = writeln!(out, "{}.\n", group.note);
        }
        out.push_str("| call | value |\n|---|---|\n");
        for f in group.functions {
            let s = f.signature();
            let _ = writeln!(out, "| `{}` | {} |", s.call_text(), s.doc);
        }
    }
    out
}

/// The arguments of one call, with the spans that errors about them point at.
pub struct Args<'a> {
    name: &'a str,
    span: Span,
    exprs: &'a [Expr],
    values: &'a [Value],
}

/// The largest heap size an argument may give.
const MAX_HEAP: u64 = HeapSize::MAX as u64;

impl<'a> Args<'a> {
    /// The call `name(exprs)` at `span`, its arguments evaluated to `values`.
    pub fn new(name: &'a str, span: Span, exprs: &'a [Expr], values: &'a [Value]) -> Args<'a> {
        Args {
            name,
            span,
            exprs,
            values,
        }
    }

    /// The whole call.
    pub fn span(&self) -> Span {
        self.span
    }

    /// Argument `i`, or the whole call when there is no such argument.
    pub fn at(&self, i: usize) -> Span {
        self.exprs.get(i).map_or(self.span, |a| a.span)
    }

    /// The value of argument `i`.
    pub fn value(&self, i: usize) -> &'a Value {
        &self.values[i]
    }

    /// Argument `i` as a number.
    pub fn num(&self, i: usize) -> Result<&'a Q, ExprError> {
        value::num(&self.values[i], self.at(i))
    }

    /// Argument `i` as a list.
    pub fn list(&self, i: usize) -> Result<&'a [Value], ExprError> {
        value::list(&self.values[i], self.at(i))
    }

    /// Argument `i` as a string.
    pub fn string(&self, i: usize) -> Result<&'a str, ExprError> {
        value::string(&self.values[i], self.at(i))
    }

    /// Argument `i` as an integer in `0..=max`; errors call it `what`.
    pub fn natural(&self, i: usize, what: &str, max: u64) -> Result<u64, ExprError> {
        value::natural(&self.values[i], self.at(i), what, max)
    }

    /// Argument `i` as a list of integers in `0..=max`; errors call each `what`.
    pub fn naturals(&self, i: usize, what: &str, max: u64) -> Result<Vec<u64>, ExprError> {
        value::naturals(&self.values[i], self.at(i), what, max)
    }

    /// Argument `i` as a heap size.
    pub fn heap(&self, i: usize) -> Result<HeapSize, ExprError> {
        Ok(self.natural(i, "a heap size", MAX_HEAP)? as HeapSize)
    }

    /// Argument `i` as a list of heap sizes.
    pub fn heaps(&self, i: usize) -> Result<Vec<HeapSize>, ExprError> {
        Ok(self
            .naturals(i, "a heap size", MAX_HEAP)?
            .into_iter()
            .map(|h| h as HeapSize)
            .collect())
    }

    /// The arguments as numbers: one list of numbers, or the numbers themselves.
    pub fn numbers(&self) -> Result<Vec<Q>, ExprError> {
        match self.values {
            [Value::List(items)] => items
                .iter()
                .map(|x| value::num(x, self.at(0)).cloned())
                .collect(),
            _ => self
                .values
                .iter()
                .enumerate()
                .map(|(i, x)| value::num(x, self.at(i)).cloned())
                .collect(),
        }
    }

    /// An engine's result, its refusal shown at the call as `name: why`.
    pub fn engine<T>(&self, result: crate::Result<T>) -> Result<T, ExprError> {
        result.map_err(|e| ExprError::new(self.span, format!("{}: {e}", self.name)))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    const README: &str = "data/claims/README.md";
    const BEGIN: &str = "<!-- function tables: generated from src/claims/functions/ -->\n\n";
    const END: &str = "\n<!-- end of the function tables -->\n";

    #[test]
    fn names_are_unique_and_found_by_lookup() {
        let mut seen = HashSet::new();
        for f in all() {
            let name = f.signature().name;
            assert!(seen.insert(name), "`{name}` is registered twice");
            assert!(std::ptr::addr_eq(lookup(name).unwrap(), f), "{name}");
        }
        assert!(lookup("nope").is_none());
    }

    /// The checker reads each function's arity from its signature.
    #[test]
    fn every_function_is_checked_against_its_signature() {
        for f in all() {
            let s = f.signature();
            let (call, message) = match s.params {
                Params::Fixed(params) => {
                    let args = vec!["0"; params.len() + 1].join(", ");
                    let given = params.len() + 1;
                    (
                        format!("{}({args})", s.name),
                        format!(
                            "`{}` takes {} argument(s), {given} given",
                            s.name,
                            params.len()
                        ),
                    )
                }
                Params::NumsOrList => (
                    format!("{}()", s.name),
                    format!("`{}` needs at least one argument", s.name),
                ),
            };
            let e = crate::claims::evaluate(&call).unwrap_err();
            assert_eq!(e.message, message, "{call}");
            assert_eq!((e.span.start, e.span.end), (0, s.name.len()), "{call}");
        }
    }

    /// A claim file cannot `define` a registered name.
    #[test]
    fn registered_names_cannot_be_defined() {
        for f in all() {
            let name = f.signature().name;
            let def = crate::claims::expr::parse_function(&format!("{name}(x) = x")).unwrap();
            let e = crate::claims::eval::Definitions::new()
                .define(def)
                .unwrap_err();
            assert_eq!(e.message, format!("`{name}` is already defined"));
        }
    }

    #[test]
    fn docs_are_one_line() {
        for f in all() {
            let s = f.signature();
            assert!(
                !s.doc.is_empty() && !s.doc.contains('\n') && !s.doc.contains('|'),
                "{}: {:?}",
                s.name,
                s.doc
            );
        }
    }

    /// The README's function tables are the registry's: names, parameters and descriptions.
    /// `NIMLAB_BLESS=1` rewrites them from the registry instead of failing.
    #[test]
    fn readme_lists_the_registry() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(README);
        let text = std::fs::read_to_string(&path).unwrap();
        let start = text
            .find(BEGIN)
            .expect("the README marks its function tables")
            + BEGIN.len();
        let end = start + text[start..].find(END).expect("the function tables end");
        let generated = markdown();
        if text[start..end] == generated {
            return;
        }
        if std::env::var_os("NIMLAB_BLESS").is_some() {
            let updated = format!("{}{generated}{}", &text[..start], &text[end..]);
            std::fs::write(&path, updated).unwrap();
            return;
        }
        panic!(
            "{README}'s function tables differ from the registry (src/claims/functions/); \
             rerun with NIMLAB_BLESS=1 to rewrite them. The registry's tables:\n{generated}"
        );
    }
}
