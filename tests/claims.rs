//! The claims checker as a library: the expression language's semantics against known answers and
//! an independent rational evaluator, the engine calls against naive minimaxes written here, the
//! verdicts of small claim files, and robustness on arbitrary input.
//!
//! Tests marked `#[ignore]` do not run on their own: `child_probe` is a helper that the
//! stack-overflow tests start in a child process (a stack overflow aborts the whole process, so it
//! must never happen in this one). A known bug, while it is not fixed, is reproduced by a test
//! marked `#[ignore = "BUG: …"]`; `cargo test --test tests claims:: -- --ignored` runs those.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering};

use nimlab::Q;
use nimlab::cash::{CashSet, cash_winner_naive, thresholds};
use nimlab::language::Engines;
use nimlab::language::Value;
use nimlab::language::evaluate;
use nimlab::language::{Definitions, Evaluator};
use nimlab::language::{ExprError, parse_expr};
use nimlab::{Finding, Registry, VerdictKind, check_claim, check_registry};
use nimlab::{Progress, Silent};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Helpers

/// The value of a closed expression that must evaluate.
fn ev(src: &str) -> Value {
    evaluate(src).unwrap_or_else(|e| panic!("{src}: {e}"))
}

/// The error of a closed expression that must not evaluate.
fn ev_err(src: &str) -> ExprError {
    match evaluate(src) {
        Ok(v) => panic!("{src}: evaluates to {v}, want an error"),
        Err(e) => e,
    }
}

fn int(n: i64) -> Value {
    Value::int(n)
}

fn ints(ns: &[i64]) -> Value {
    Value::List(ns.iter().map(|&n| Value::int(n)).collect())
}

fn string(s: &str) -> Value {
    Value::Str(s.into())
}

fn q(s: &str) -> Q {
    s.parse()
        .unwrap_or_else(|_| panic!("{s:?} is not a rational"))
}

fn ratio(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

fn rq(r: &BigRational) -> Q {
    Q::from_ratio(r.clone())
}

/// A position as the expression language writes it: `[5, 4, 2]`.
fn position_text(p: &[u32]) -> String {
    let heaps: Vec<String> = p.iter().map(u32::to_string).collect();
    format!("[{}]", heaps.join(", "))
}

/// Every position of 1 to `k` heaps of 1 to `max` each, heaps in decreasing order.
fn multisets(k: usize, max: u32) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut layer: Vec<Vec<u32>> = vec![vec![]];
    for _ in 0..k {
        let mut next = Vec::new();
        for p in &layer {
            let top = p.last().copied().unwrap_or(max);
            for h in 1..=top {
                let mut q = p.clone();
                q.push(h);
                next.push(q);
            }
        }
        out.extend(next.iter().cloned());
        layer = next;
    }
    out
}

/// Evaluates many closed expressions with one set of engines, in order (so that later ones read
/// what earlier ones cached), without the length limit of one expression.
fn eval_many(srcs: &[String]) -> Vec<Value> {
    let defs = Definitions::new();
    let mut engines = Engines::new();
    let mut ev = Evaluator::new(&defs, &mut engines);
    srcs.iter()
        .map(|src| {
            let e = parse_expr(src).unwrap_or_else(|e| panic!("{src}: {e}"));
            defs.check_with(&e, &[])
                .unwrap_or_else(|e| panic!("{src}: {e}"));
            ev.eval(&e, &mut Vec::new())
                .unwrap_or_else(|e| panic!("{src}: {e}"))
        })
        .collect()
}

/// Each expression evaluates to a value that prints as given.
fn assert_shows(cases: &[(&str, &str)]) {
    for (src, want) in cases {
        assert_eq!(ev(src).to_string(), *want, "{src}");
    }
}

/// Each expression evaluates to the truth value given.
fn assert_truths(cases: &[(&str, bool)]) {
    for (src, want) in cases {
        assert_eq!(ev(src), Value::Bool(*want), "{src}");
    }
}

/// A string as a TOML basic string.
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

// ---------------------------------------------------------------------------------------------
// 1. The expression language against known answers

#[test]
fn precedence_associativity_and_implicit_products() {
    assert_shows(&[
        // A number before a name or a bracket multiplies it, and binds tighter than anything.
        ("let k = 3 in 2k^2", "18"),
        ("let k = 3 in 2(k)^2", "18"),
        ("let k = 3 in (2k)^2", "36"),
        ("let k = 3 in 2k + 1", "7"),
        ("let k = 3 in 3(k - 1)", "6"),
        ("let k = 3 in 1/2k", "1/6"),
        ("let k = 3 in 2^2k", "64"),
        ("let k = 3 in -2k", "-6"),
        // Unary minus: looser than ^, tighter than * / %.
        ("(-2)^2", "4"),
        ("-2^2", "-4"),
        ("-2 * -3", "6"),
        ("2 - -1", "3"),
        ("- - 5", "5"),
        ("--5", "5"),
        // ^ is right-associative and takes a signed integer exponent.
        ("2^3^2", "512"),
        ("(2^3)^2", "64"),
        ("2^-1", "1/2"),
        ("2^-2^2", "1/16"),
        ("(3/2)^2", "9/4"),
        ("(-2/3)^-3", "-27/8"),
        ("0^0", "1"),
        // The others associate to the left.
        ("2 - 3 - 4", "-5"),
        ("24 / 4 / 2", "3"),
        ("2 + 3 * 4", "14"),
        ("(2 + 3) * 4", "20"),
        ("2 * 3 % 4", "2"),
        ("2 * (3 % 4)", "6"),
        // Exact division.
        ("1/3 + 1/6", "1/2"),
        ("1/3 * 3", "1"),
        ("6/4", "3/2"),
        ("-6/4", "-3/2"),
        // % is the floor modulus: the sign of the divisor.
        ("7 % 3", "1"),
        ("-7 % 3", "2"),
        ("7 % -3", "-2"),
        ("-7 % -3", "-1"),
        ("(7/2) % 1", "1/2"),
        ("mod(-7, 3)", "2"),
        ("2 + 7 % 3 * 2", "4"),
        // ⊕ is looser than + and −.
        ("3 ⊕ 5", "6"),
        ("1 + 2 ⊕ 3", "0"),
        ("1 ⊕ 2 + 3", "4"),
        ("xor([1, 2, 3])", "0"),
        ("xor(1, 2, 4)", "7"),
        ("xor(5)", "5"),
        ("xor([])", "0"),
        // Unicode operators.
        ("7 − 2 × 3", "1"),
        ("−2 × −3", "6"),
        // Integers of any size.
        ("2^200 - 2^200 + 1", "1"),
        ("(2^64 + 1) * (2^64 - 1) - 2^128", "-1"),
        (
            "123456789012345678901234567890 + 1",
            "123456789012345678901234567891",
        ),
        ("2^200 ⊕ (2^200 + 5)", "5"),
        ("(2^200 + 3) % 2^100", "3"),
    ]);
    assert_eq!(
        ev("2^200").to_string(),
        num_traits::pow(BigInt::from(2), 200).to_string()
    );
    assert_eq!(ev("-2^2"), int(-4));
    assert_eq!(ev("1/3 + 1/6"), Value::Num(Q::frac(1, 2)));
}

#[test]
fn comparisons_chain_and_logic_is_looser() {
    assert_truths(&[
        ("1 < 2 <= 2 < 3", true),
        ("1 < 3 < 2", false),
        ("3 > 2 > 1", true),
        ("3 > 2 < 5", true),
        ("1 == 1 == 1", true),
        ("1 <= 1 < 1", false),
        ("0 <= 5 < 2^3", true),
        ("0 <= 8 < 2^3", false),
        ("2 ≤ 3", true),
        ("4 ≥ 3", true),
        ("3 ≠ 2", true),
        ("3 != 2", true),
        ("1/2 == 2/4", true),
        ("1/3 < 1/2", true),
        ("-1/2 < -1/3", true),
        ("[1, [2]] != [1, [3]]", true),
        ("[1, 2] == [1, 2]", true),
        ("\"I\" == \"I\"", true),
        ("\"I\" == \"II\"", false),
        // ⊕ and + bind tighter than comparisons.
        ("1 ⊕ 2 == 3", true),
        ("1 + 1 == 2", true),
        // not, and, or: in that order, all looser than comparisons.
        ("not 1 < 2", false),
        ("not not true", true),
        ("not (true or true)", false),
        ("true and false or true", true),
        ("true or false and false", true),
        ("false and true or false", false),
        ("not false and false", false),
        ("1 < 2 and 2 < 1", false),
        ("1 < 2 or 2 < 1", true),
        ("if 1 < 2 then true else false", true),
    ]);
}

#[test]
fn if_let_and_lists() {
    assert_shows(&[
        ("if 1 < 2 then 3 else 4", "3"),
        ("if 2 < 1 then 3 else 4", "4"),
        ("if true then [1] else [2, 3]", "[1]"),
        ("1 + if true then 1 else 2", "2"),
        // let: the innermost binding wins, and ends with its body.
        ("let x = 1 in let x = 2 in x", "2"),
        ("let x = 2 in (let x = 3 in x) + x", "5"),
        ("let x = 2 in let y = x + 1 in x * y", "6"),
        (
            "let a = 5 in let K = ilog2(a) + 1 in [a, 2^K * 3 + 1]",
            "[5, 25]",
        ),
        // + concatenates lists.
        ("[1, 2] + [3]", "[1, 2, 3]"),
        ("[] + []", "[]"),
        ("[[1]] + [[2, 3]]", "[[1], [2, 3]]"),
        ("let x = [1, 2] in len(x + x)", "4"),
        ("[1/2, \"I\", true, [2]]", "[1/2, \"I\", true, [2]]"),
        ("[]", "[]"),
        // Only the branch taken is evaluated, and `and`/`or` stop early.
        ("if true then 1 else 1/0", "1"),
        ("if false then 1/0 else 2", "2"),
        ("false and 1/0 == 1", "false"),
        ("true or 1/0 == 1", "true"),
    ]);
    assert!(ev_err("if false then 1 else 1/0").message.contains("by 0"));
    assert!(ev_err("true and 1/0 == 1").message.contains("by 0"));
}

#[test]
fn builtin_functions() {
    assert_shows(&[
        ("floor(-1/2)", "-1"),
        ("floor(7/2)", "3"),
        ("floor(-4)", "-4"),
        ("ceil(-1/2)", "0"),
        ("ceil(1/2)", "1"),
        ("ceil(5)", "5"),
        ("abs(-3/4)", "3/4"),
        ("abs(-2^2)", "4"),
        ("abs(0)", "0"),
        ("ilog2(1)", "0"),
        ("ilog2(1024)", "10"),
        ("ilog2(1023)", "9"),
        ("ilog2(2^200)", "200"),
        ("gcd(12, 18)", "6"),
        ("gcd(-4, 6)", "2"),
        ("gcd(0, 7)", "7"),
        ("gcd(0, 0)", "0"),
        ("min(3, 1, 2)", "1"),
        ("max(3, 1, 2)", "3"),
        ("min(5)", "5"),
        ("min([5, -1/2, 2])", "-1/2"),
        ("max([5, -1/2, 2])", "5"),
        ("len([1, [2, 3], \"a\"])", "3"),
        ("len([])", "0"),
        ("sum([1, 2, 3])", "6"),
        ("sum([1/2, 1/3])", "5/6"),
        ("sum([])", "0"),
        ("is_int(3/2)", "false"),
        ("is_int(6/2)", "true"),
        ("is_int(-4)", "true"),
        ("sort([3, 1, 2])", "[1, 2, 3]"),
        ("sort([[2], [1, 5], [1]])", "[[1], [1, 5], [2]]"),
        ("concat([[1], [], [2, 3]])", "[1, 2, 3]"),
        ("concat([])", "[]"),
        ("list(j in 0..3: 2^j)", "[1, 2, 4, 8]"),
        ("list(j in 0..-1: j)", "[]"),
    ]);

    // floor, ceil, % and gcd over a grid, against integer arithmetic done here.
    let floor_div = |a: i64, b: i64| {
        let (d, r) = (a / b, a % b);
        if r != 0 && ((r < 0) != (b < 0)) {
            d - 1
        } else {
            d
        }
    };
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a.abs()
    };
    let mut calls = Vec::new();
    let mut want = Vec::new();
    for a in -13..=13i64 {
        for b in -6..=6i64 {
            if b == 0 {
                calls.push(format!("gcd({a}, {b})"));
                want.push(int(a.abs()));
                continue;
            }
            calls.push(format!(
                "[floor({a}/{b}), ceil({a}/{b}), {a} % {b}, mod({a}, {b}), gcd({a}, {b})]"
            ));
            let fl = floor_div(a, b);
            let ce = -floor_div(-a, b);
            let m = a - b * fl;
            assert!(m == 0 || (m < 0) == (b < 0), "{a} % {b}");
            want.push(ints(&[fl, ce, m, m, gcd(a, b)]));
        }
    }
    let got = eval_many(&calls);
    for ((c, g), w) in calls.iter().zip(&got).zip(&want) {
        assert_eq!(g, w, "{c}");
    }
    // Rational arguments: floor(a/b) for b up to 7 against the integer floor of a·7!/b / 7!.
    for a in -20..=20i64 {
        for b in 1..=7i64 {
            assert_eq!(
                ev(&format!("[floor({a}/{b}), ceil({a}/{b})]")),
                ints(&[floor_div(a, b), -floor_div(-a, b)]),
                "{a}/{b}"
            );
        }
    }

    // ilog2 over 1..600 against the integer logarithm.
    let Value::List(logs) = ev("list(n in 1..600: ilog2(n))") else {
        panic!("list gives a list");
    };
    assert_eq!(logs.len(), 600);
    for (n, v) in (1..=600u32).zip(logs.iter()) {
        assert_eq!(*v, int(i64::from(n.ilog2())), "ilog2({n})");
    }
}

#[test]
fn aggregates_over_ranges() {
    // sum(i in 1..3, j in 1..i, k in j..i: i·j·k), done here.
    let nested: i64 = (1..=3i64)
        .flat_map(|i| (1..=i).flat_map(move |j| (j..=i).map(move |k| i * j * k)))
        .sum();
    let nested = nested.to_string();
    assert_shows(&[
        ("sum(j in 1..10: j)", "55"),
        ("sum(j in 1..100: j^2)", "338350"),
        ("min(j in -3..3 step 1/2: abs(j - 1/4))", "1/4"),
        ("max(j in -3..3 step 1/2: j)", "3"),
        ("max(j in 0..10 step 3: j)", "9"),
        ("count(j in 1..30: j % 3 == 0)", "10"),
        ("count(j in 0..1 step 1/3: true)", "4"),
        ("sum(j in 1/2..3/2: j)", "2"),
        ("sum(j in 0..1 step 1/4: j)", "5/2"),
        // Later ranges may depend on earlier variables.
        ("sum(i in 1..4, j in i..4: 1)", "10"),
        ("sum(i in 1..3, j in 1..i, k in j..i: i*j*k)", &nested),
        (
            "list(i in 1..3, j in i..3: [i, j])",
            "[[1, 1], [1, 2], [1, 3], [2, 2], [2, 3], [3, 3]]",
        ),
        // Empty ranges.
        ("sum(j in 5..1: j)", "0"),
        ("count(j in 5..1: true)", "0"),
        ("sum(j in 1..1/2: j)", "0"),
        ("list(j in 5..1: j)", "[]"),
        // The members of a list.
        ("sum(x in [1, 2, 3]: x)", "6"),
        ("sum(x in [[1], [2, 3]]: len(x))", "3"),
        ("list(x in [3, 1, 2]: 10x)", "[30, 10, 20]"),
        ("sum(x in []: x)", "0"),
        // Truth values.
        ("all(j in 1..10: j > 0)", "true"),
        ("all(j in 1..10: j < 10)", "false"),
        ("any(j in 1..10: j > 9)", "true"),
        ("any(j in 1..10: j > 10)", "false"),
        ("all(j in 5..1: false)", "true"),
        ("any(j in 5..1: true)", "false"),
        ("list(j in 1..4: j^2)", "[1, 4, 9, 16]"),
        // A range's variable is seen by the body only.
        ("let j = 100 in sum(i in 1..2: i) + j", "103"),
    ]);
    // all/any stop at the first decisive point.
    assert_eq!(ev("any(j in 0..3: j == 0 or 1/j > 2)"), Value::Bool(true));
    for src in [
        "min(j in 5..1: j)",
        "max(j in 1..0: j)",
        "min([])",
        "max([])",
    ] {
        let e = ev_err(src);
        assert!(e.message.contains("empty"), "{src}: {e}");
    }
}

#[test]
fn errors_name_the_fault_and_its_column() {
    // (the expression, the column of the fault (1-based, in bytes), a piece of the message)
    let cases: &[(&str, usize, &str)] = &[
        // Names, arities and kinds, found before anything is evaluated.
        ("k + 1", 1, "unknown name `k`"),
        ("1 + foo(2)", 5, "unknown function `foo`"),
        ("floor(1, 2)", 1, "`floor` takes 1 argument(s), 2 given"),
        ("1 + floor()", 5, "`floor` takes 1 argument(s), 0 given"),
        ("payoff([1])", 1, "`payoff` takes 2 argument(s), 1 given"),
        ("min()", 1, "needs at least one argument"),
        ("len(3)", 5, "expected a list here, found a number"),
        ("candy_v(3)", 9, "expected a list here, found a number"),
        ("gs(1, 2)", 4, "expected a string here, found a number"),
        ("[1] + 3", 7, "expected a list here, found a number"),
        ("-[1]", 2, "expected a number here, found a list"),
        ("true + 1", 1, "expected a number here, found a truth value"),
        ("not 3", 5, "expected a truth value here, found a number"),
        ("1 and true", 1, "expected a truth value"),
        ("1 == true", 6, "never equal"),
        ("[1] < [2]", 1, "only numbers can be ordered"),
        ("if 1 then 2 else 3", 4, "expected a truth value"),
        ("if true then [1] else 2", 23, "the branches differ"),
        ("nope(j in 1..3: j)", 1, "cannot range over values"),
        ("sum(j in 1..3: j == 1)", 16, "expected a number"),
        ("all(j in 1..3: j)", 16, "expected a truth value"),
        ("sum(k in 1..3, k in 1..3: 1)", 16, "already bound"),
        ("sum(j in 1..m: j)", 13, "unknown name `m`"),
        ("let x = 1 in y", 14, "unknown name `y`"),
        // A range may not rebind a name in scope (`let` may).
        ("let j = 1 in sum(j in 1..2: j)", 18, "already bound"),
        // Faults found while evaluating.
        ("1/0", 3, "division of 1 by 0"),
        ("1 + 2/(1 - 1)", 8, "by 0"),
        ("5 % 0", 1, "mod 0"),
        ("0^-1", 1, "negative power"),
        ("2^(1/2)", 1, "the exponent must be an integer"),
        ("2^100000", 1, "too large"),
        ("ilog2(0)", 7, "positive integer"),
        ("gcd(1/2, 1)", 1, "integers only"),
        ("xor(3, -1)", 5, "non-negative"),
        ("count(k in 1..10^9: true)", 7, "at most"),
        ("sum(k in 1..2 step 0: k)", 20, "positive"),
        ("sum(k in 1..2 step -1/2: k)", 20, "positive"),
        ("payoff(1, [-1])", 11, "heap size"),
        ("gs(\"bogus\", 3)", 1, "bogus"),
        // Syntax errors say what was expected, where.
        ("2 +", 4, "expected an expression"),
        ("1 <", 4, "expected an expression"),
        ("(1 + 2", 7, "an operator"),
        ("1 2", 3, "the end of the expression"),
        ("if true then 1", 15, "`else`"),
        ("let x = 1 x", 12, "`in`"),
        ("sum(j 1..3: j)", 7, "expected"),
        ("", 1, "expected an expression"),
    ];
    for (src, col, needle) in cases {
        let e = ev_err(src);
        assert!(
            e.message.contains(needle),
            "{src}: want {needle:?}, got {e}"
        );
        assert_eq!(e.span.start + 1, *col, "{src}: {e}");
        assert!(e.to_string().starts_with(&format!("column {col}: ")), "{e}");
    }
    // Too long or too deeply nested: refused before parsing, saying where.
    let long = format!("1{}", " + 1".repeat(1000));
    let e = ev_err(&long);
    assert!(e.message.contains("limited to 4000 bytes"), "{e}");
    let deep = format!("{}1{}", "(".repeat(65), ")".repeat(65));
    let e = ev_err(&deep);
    assert!(e.message.contains("nest deeper than 64"), "{e}");
    assert_eq!(e.span.start, 64);
}

// ---------------------------------------------------------------------------------------------
// 2. Random expressions, random claims and arbitrary input

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// An arithmetic expression tree; `bool`s choose the Unicode spelling of − and ×.
#[derive(Clone, Debug)]
enum Arith {
    Int(u32),
    Neg(Box<Arith>, bool),
    Bin(Op, bool, Box<Arith>, Box<Arith>),
    /// A power with a literal exponent.
    Pow(Box<Arith>, i32),
    /// Redundant brackets.
    Paren(Box<Arith>),
    /// `n(e)`: a number before a bracket.
    Implicit(u32, Box<Arith>),
}

// Binding strength of what a printed expression is, loosest first.
const SUM: u8 = 1;
const PRODUCT: u8 = 2;
const UNARY: u8 = 3;
const POWER: u8 = 4;
const ATOM: u8 = 5;

/// The text of an expression tree, with brackets only where the grammar needs them (and where
/// the tree has `Paren`), and how strongly the text binds.
fn show(e: &Arith) -> (String, u8) {
    let operand = |x: &Arith, min: u8| {
        let (s, level) = show(x);
        if level >= min { s } else { format!("({s})") }
    };
    match e {
        Arith::Int(n) => (n.to_string(), ATOM),
        Arith::Paren(x) => (format!("({})", show(x).0), ATOM),
        // `2(x)^2` would be 2·(x²): an implicit product is no power's base.
        Arith::Implicit(n, x) => (format!("{n}({})", show(x).0), POWER),
        Arith::Neg(x, uni) => {
            let minus = if *uni { "−" } else { "-" };
            (format!("{minus}{}", operand(x, UNARY)), UNARY)
        }
        Arith::Pow(x, k) => (format!("{}^{k}", operand(x, ATOM)), POWER),
        Arith::Bin(op, uni, a, b) => {
            let (sym, level) = match (op, uni) {
                (Op::Add, _) => ("+", SUM),
                (Op::Sub, false) => ("-", SUM),
                (Op::Sub, true) => ("−", SUM),
                (Op::Mul, false) => ("*", PRODUCT),
                (Op::Mul, true) => ("×", PRODUCT),
                (Op::Div, _) => ("/", PRODUCT),
                (Op::Mod, _) => ("%", PRODUCT),
            };
            // Left-associative: the right operand must bind more strongly.
            let text = format!("{} {sym} {}", operand(a, level), operand(b, level + 1));
            (text, level)
        }
    }
}

/// What the reference evaluation ran into first (left to right, operands before operators).
#[derive(Debug, PartialEq)]
enum Fault {
    DivisionByZero,
    ModuloZero,
    ZeroToNegativePower,
}

impl Fault {
    /// A piece of the evaluator's message for it.
    fn needle(&self) -> &'static str {
        match self {
            Fault::DivisionByZero => "by 0",
            Fault::ModuloZero => "mod 0",
            Fault::ZeroToNegativePower => "negative power",
        }
    }
}

/// The value of a tree in exact rationals, computed here.
fn reference(e: &Arith) -> Result<BigRational, Fault> {
    Ok(match e {
        Arith::Int(n) => ratio(i64::from(*n)),
        Arith::Paren(x) => reference(x)?,
        Arith::Implicit(n, x) => ratio(i64::from(*n)) * reference(x)?,
        Arith::Neg(x, _) => -reference(x)?,
        Arith::Pow(x, k) => {
            let b = reference(x)?;
            if b.is_zero() && *k < 0 {
                return Err(Fault::ZeroToNegativePower);
            }
            b.pow(*k)
        }
        Arith::Bin(op, _, a, b) => {
            let (x, y) = (reference(a)?, reference(b)?);
            match op {
                Op::Add => x + y,
                Op::Sub => x - y,
                Op::Mul => x * y,
                Op::Div if y.is_zero() => return Err(Fault::DivisionByZero),
                Op::Div => x / y,
                Op::Mod if y.is_zero() => return Err(Fault::ModuloZero),
                Op::Mod => {
                    let k = (&x / &y).floor();
                    x - y * k
                }
            }
        }
    })
}

fn arith() -> impl Strategy<Value = Arith> {
    let leaf = (0u32..13).prop_map(Arith::Int);
    leaf.prop_recursive(5, 40, 2, |inner| {
        let op = prop_oneof![
            Just(Op::Add),
            Just(Op::Sub),
            Just(Op::Mul),
            Just(Op::Div),
            Just(Op::Mod)
        ];
        prop_oneof![
            4 => (op, any::<bool>(), inner.clone(), inner.clone())
                .prop_map(|(op, u, a, b)| Arith::Bin(op, u, Box::new(a), Box::new(b))),
            1 => (inner.clone(), any::<bool>()).prop_map(|(x, u)| Arith::Neg(Box::new(x), u)),
            1 => (inner.clone(), -3i32..=3).prop_map(|(x, k)| Arith::Pow(Box::new(x), k)),
            1 => inner.clone().prop_map(|x| Arith::Paren(Box::new(x))),
            1 => (1u32..10, inner).prop_map(|(n, x)| Arith::Implicit(n, Box::new(x))),
        ]
    })
}

/// A claim file with a `define`, a `for` and a `holds` of arbitrary text.
fn fuzz_file(define: &str, range: &str, holds: &str) -> String {
    format!(
        "paper = \"p\"\ndefine = [{}]\n[[claim]]\nid = \"a\"\nlabel = \"A\"\nstatement = \"s\"\n\
         for = {}\nholds = {}\n",
        toml_str(define),
        toml_str(range),
        toml_str(holds)
    )
}

/// Feeds `src` to the evaluator, to the file loader as a whole file and as each expression field
/// of a claim, and checks the claims that load (over a small range). Nothing may panic.
fn never_panics(src: &str) {
    let _ = evaluate(src);
    let path = Path::new("fuzz.toml");
    let _ = Registry::parse(path, src);
    for file in [
        fuzz_file(src, "k in 1..3", "true"),
        fuzz_file("F(k) = k", src, "true"),
        fuzz_file("F(k) = k", "k in 1..3", src),
        fuzz_file(&format!("F(k) = {src}"), "k in 1..3", "F(k) == 0"),
    ] {
        if let Ok(reg) = Registry::parse(path, &file) {
            for c in &reg.claims {
                let _ = check_claim(&reg, c, false);
            }
        }
    }
}

/// Tokens of the expression language, for random token soups.
const TOKENS: &[&str] = &[
    "k", "j", "x", "0", "1", "2", "3", "(", ")", "[", "]", ",", "+", "-", "−", "*", "×", "/", "%",
    "^", "⊕", "<", "<=", "==", "!=", ">", ">=", "≤", "≥", "≠", "not", "and", "or", "if", "then",
    "else", "let", "=", "in", "..", "step", ":", "sum", "min", "max", "all", "any", "count",
    "list", "abs", "floor", "xor", "len", "sort", "true", "false", "\"a\"", " ",
];

proptest! {
    #[test]
    fn arithmetic_matches_bigrational(t in arith()) {
        let src = show(&t).0;
        match (reference(&t), evaluate(&src)) {
            (Ok(want), Ok(got)) => {
                let want = Value::Num(Q::from_ratio(want));
                prop_assert_eq!(&got, &want, "{}", src);
                // The same inside a branch.
                let inside = ev(&format!("if true then {src} else 0"));
                prop_assert_eq!(inside, want, "{}", src);
            }
            (Err(fault), Err(e)) => {
                prop_assert!(e.message.contains(fault.needle()), "{}: {:?}, got {}", src, fault, e);
            }
            (want, got) => prop_assert!(false, "{}: reference {:?}, evaluate {:?}", src, want, got),
        }
    }

    #[test]
    fn verdicts_find_the_first_counterexample(
        (a, b, c, d) in prop_oneof![
            (-2i64..=2, -3i64..=3, -3i64..=3, -3i64..=3),
            // Identities, and parabolas touching the line.
            (-3i64..=3).prop_map(|b| (0, b, 0, b)),
            (-3i64..=3).prop_map(|r| (1, r * r, 2 * r, 0)),
        ],
        lo in -6i64..=6,
    ) {
        let src = claim_file(&format!(
            "for = \"k in {lo}..{lo} + 12\"\nactual = \"({a})*k^2 + ({b})\"\n\
             expected = \"({c})*k + ({d})\""
        ));
        let f = finding(&src, false);
        prop_assert_eq!(&f.range_text(), &format!("k in {lo}..{lo} + 12"));
        match (lo..=lo + 12).find(|k| a * k * k + b != c * k + d) {
            None => {
                prop_assert_eq!(f.verdict, VerdictKind::Holds);
                prop_assert_eq!(f.evidence(), "true at all 13 points");
            }
            Some(k) => {
                prop_assert_eq!(f.verdict, VerdictKind::Fails);
                let want = format!(
                    "fails at k = {k}: expected {}, actual {}",
                    c * k + d,
                    a * k * k + b
                );
                prop_assert!(f.evidence().starts_with(&want), "want {}: {}", want, f.evidence());
            }
        }
    }

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,200}") {
        never_panics(&s);
    }

    #[test]
    fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..200)) {
        never_panics(&String::from_utf8_lossy(&b));
    }

    #[test]
    fn token_soup_never_panics(
        t in proptest::collection::vec(proptest::sample::select(TOKENS), 0..40),
        spaced in any::<bool>(),
    ) {
        never_panics(&t.join(if spaced { " " } else { "" }));
    }

    #[test]
    fn deep_and_unbalanced_input_never_panics(n in 0usize..150, m in 0usize..150) {
        // Brackets of every kind, balanced or not, nested up to twice the limit.
        let sign = if n.is_multiple_of(2) { "1" } else { "-1" };
        let cases = [
            (format!("{}1{}", "(".repeat(n), ")".repeat(m)), "1"),
            (format!("{}1{}", "-(".repeat(n), ")".repeat(m)), sign),
            (format!("{}1{}", "(".repeat(n), "^2)".repeat(m)), "1"),
            (format!("{}{}", "[".repeat(n), "]".repeat(m)), ""),
            (format!("{}1{}", "abs(".repeat(n), ")".repeat(m)), "1"),
            (format!("{}1{}", "max(0, ".repeat(n), ")".repeat(m)), "1"),
        ];
        for (src, value) in cases {
            never_panics(&src);
            let r = evaluate(&src);
            if n != m {
                prop_assert!(r.is_err(), "{}: {:?}", src, r);
            } else if n > 64 {
                let e = r.unwrap_err();
                prop_assert!(e.message.contains("nest deeper"), "{}: {}", src, e);
            } else if !value.is_empty() {
                prop_assert_eq!(r.map(|v| v.to_string()), Ok(value.to_string()), "{}", src);
            }
        }
    }
}

/// How many links of a chain to try for a random `n` in 0..4000: a quarter of the time the longest
/// chain under the 4000-byte limit (`max` links), otherwise anything up to it.
fn links(n: usize, max: usize) -> usize {
    if n >= 3000 { max } else { n % (max + 1) }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn chains_within_limits_evaluate(n in 0usize..4000) {
        // Long chains of prefix operators and right-nested constructs, each under the 4000-byte
        // limit: they evaluate (or are refused with a message), and never overflow the stack.
        let k = links(n, 3999);
        let minus = format!("{}1", "-".repeat(k));
        prop_assert_eq!(ev(&minus), int(if k.is_multiple_of(2) { 1 } else { -1 }));
        let minus = format!("{}1", "−".repeat(links(n, 1332)));
        prop_assert!(evaluate(&minus).is_ok(), "{}", minus);
        let k = links(n, 999);
        let nots = format!("{}true", "not ".repeat(k));
        prop_assert_eq!(ev(&nots), Value::Bool(k.is_multiple_of(2)));
        let k = links(n, 199);
        let ifs = format!("{}1{}", "if true then ".repeat(k), " else 0".repeat(k));
        prop_assert_eq!(ev(&ifs), int(1));
        let k = links(n, 306);
        let lets = format!("{}x", "let x = 1 in ".repeat(k + 1));
        prop_assert_eq!(ev(&lets), int(1));
        // 2^2^…^1: a tower of 2s, exact up to 2^65536, then an exponent too large.
        let k = links(n, 1999);
        let tower = format!("{}1", "2^".repeat(k));
        match k {
            0..=4 => prop_assert_eq!(ev(&tower), int([1, 2, 4, 16, 65536][k])),
            5 => prop_assert_eq!(ev(&format!("{tower} == 2^65536")), Value::Bool(true)),
            _ => {
                let e = ev_err(&tower);
                prop_assert!(e.message.contains("too large"), "{}", e);
            }
        }
        prop_assert_eq!(ev(&format!("{}1", "1^".repeat(k))), int(1));
    }
}

/// Runs `child_probe` on `src` in a child process (this test binary), where a stack overflow
/// aborts only the child. The child ran the probe to the end iff its status is success.
fn survives_in_child(src: &str) -> Output {
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new(exe)
        .args([
            "--exact",
            "claims::child_probe",
            "--include-ignored",
            "--test-threads",
            "1",
        ])
        .env("NIMLAB_CLAIMS_PROBE", src)
        .output()
        .expect("the test binary runs");
    if out.status.success() {
        // Not vacuously: the probe did run.
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("1 passed"),
            "the probe did not run:\n{stdout}"
        );
    }
    out
}

/// Evaluates `NIMLAB_CLAIMS_PROBE` (when set) on a thread with a 2 MiB stack.
#[test]
#[ignore = "helper run by other tests in a child process"]
fn child_probe() {
    if let Ok(src) = std::env::var("NIMLAB_CLAIMS_PROBE") {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let _ = evaluate(&src);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}

#[test]
fn long_minus_chain_does_not_overflow_the_stack() {
    let out = survives_in_child(&format!("{}1", "-".repeat(2000)));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn long_power_chain_does_not_overflow_the_stack() {
    let out = survives_in_child(&format!("{}1", "2^".repeat(500)));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn nested_if_and_let_do_not_overflow_the_stack() {
    for src in [
        format!("{}1{}", "if true then ".repeat(80), " else 0".repeat(80)),
        format!("{}x", "let x = 1 in ".repeat(100)),
    ] {
        let out = survives_in_child(&src);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn long_sums_are_checked_in_linear_time() {
    let start = std::time::Instant::now();
    assert_eq!(ev(&format!("1{}", " + 1".repeat(27))), int(28));
    assert_eq!(ev(&format!("[1]{}", " + [1]".repeat(27))), ints(&[1; 28]));
    let took = start.elapsed();
    assert!(took.as_millis() < 500, "two 28-term sums took {took:?}");
}

// ---------------------------------------------------------------------------------------------
// 3. Engine calls against naive minimaxes written here

/// Scoring Nim: f_N(∅) = −N (the last mover got the bonus), f_N(p) = max (taken − f_N(p')).
fn naive_payoff(
    p: &[u32],
    n: &BigRational,
    memo: &mut HashMap<Vec<u32>, BigRational>,
) -> BigRational {
    let mut key: Vec<u32> = p.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if key.is_empty() {
        return -n.clone();
    }
    if let Some(v) = memo.get(&key) {
        return v.clone();
    }
    let mut best: Option<BigRational> = None;
    for i in 0..key.len() {
        for left in 0..key[i] {
            let mut child = key.clone();
            child[i] = left;
            let v = ratio(i64::from(key[i] - left)) - naive_payoff(&child, n, memo);
            if best.as_ref().is_none_or(|b| &v > b) {
                best = Some(v);
            }
        }
    }
    let best = best.expect("a move");
    memo.insert(key, best.clone());
    best
}

struct NaivePayoffs(HashMap<BigRational, HashMap<Vec<u32>, BigRational>>);

impl NaivePayoffs {
    fn at(&mut self, p: &[u32], n: &BigRational) -> BigRational {
        let memo = self.0.entry(n.clone()).or_default();
        naive_payoff(p, n, memo)
    }
}

#[test]
fn payoff_cplus_cminus_breakpoints_match_a_naive_minimax() {
    // The paper's Figure 2 example.
    assert_eq!(ev("cplus([5, 4, 2])"), int(-3));
    let mut naive = NaivePayoffs(HashMap::new());
    let bonuses: Vec<BigRational> = ["-7", "-3", "-1/2", "0", "1", "5/2", "3", "8"]
        .iter()
        .map(|s| q(s).as_ratio().into_owned())
        .collect();
    let mut positions = multisets(3, 4);
    positions.extend([vec![5, 4, 2], vec![3, 3, 2, 1], vec![6], vec![7, 1]]);
    // Larger positions first, so that later calls read what the first solves cached.
    positions.reverse();
    let mut calls = Vec::new();
    let mut want = Vec::new();
    for p in &positions {
        for n in &bonuses {
            calls.push(format!("payoff({}, {})", rq(n), position_text(p)));
            want.push(Value::Num(rq(&naive.at(p, n))));
        }
    }
    let got = eval_many(&calls);
    for ((c, g), w) in calls.iter().zip(&got).zip(&want) {
        assert_eq!(g, w, "{c}");
    }

    // c⁺ and c⁻: the intercepts of the tails, read off the naive values far out, where both
    // tails have slope ±1.
    let far = 200;
    let mut calls = Vec::new();
    let mut want = Vec::new();
    for p in &positions {
        let f = |naive: &mut NaivePayoffs, n: i64| naive.at(p, &ratio(n));
        let right_slope = f(&mut naive, far + 1) - f(&mut naive, far);
        let c_plus = f(&mut naive, far) - right_slope * ratio(far);
        let left_slope = f(&mut naive, -far) - f(&mut naive, -far - 1);
        let c_minus = f(&mut naive, -far) + left_slope * ratio(far);
        calls.push(format!("[cplus({0}), cminus({0})]", position_text(p)));
        want.push(Value::List(
            vec![Value::Num(rq(&c_plus)), Value::Num(rq(&c_minus))].into(),
        ));
    }
    assert_eq!(eval_many(&calls), want);

    // Breakpoints: between consecutive ones the naive payoff is linear, and at each one the
    // slope changes.
    for p in &positions {
        let Value::List(bs) = ev(&format!("breakpoints({})", position_text(p))) else {
            panic!("breakpoints gives a list");
        };
        let bs: Vec<BigRational> = bs
            .iter()
            .map(|b| match b {
                Value::Num(x) => x.as_ratio().into_owned(),
                other => panic!("breakpoint {other}"),
            })
            .collect();
        assert!(bs.windows(2).all(|w| w[0] < w[1]), "{p:?}: {bs:?}");
        let eps = BigRational::new(BigInt::one(), BigInt::from(64));
        let two = ratio(2);
        for (i, b) in bs.iter().enumerate() {
            let left = naive.at(p, b) - naive.at(p, &(b - &eps));
            let right = naive.at(p, &(b + &eps)) - naive.at(p, b);
            assert_ne!(left, right, "{p:?}: no kink at {b}");
            if let Some(next) = bs.get(i + 1) {
                let mid = (b + next) / &two;
                assert_eq!(
                    naive.at(p, &mid) * &two,
                    naive.at(p, b) + naive.at(p, next),
                    "{p:?}: not linear on [{b}, {next}]"
                );
            }
        }
        // No kink outside: linear on the tails (the first and last pieces).
        let ends = match (bs.first(), bs.last()) {
            (Some(a), Some(z)) => (a.clone(), z.clone()),
            _ => (ratio(0), ratio(0)),
        };
        for (x, dir) in [(ends.0, -1), (ends.1, 1)] {
            let mut step = |k: i64| naive.at(p, &(&x + ratio(dir * k)));
            let (a, b, c) = (step(0), step(5), step(11));
            assert_eq!(
                (&b - &a) * ratio(11),
                (&c - &a) * ratio(5),
                "{p:?}: a kink beyond the breakpoints"
            );
        }
    }
}

/// Octal rules with points p_i (Stewart): take i beans for p_i points, leaving what digit t_i
/// allows (bit 1: nothing, bit 2: one heap, bit 4: two heaps).
#[derive(Clone)]
struct Octal {
    digits: Vec<u8>,
    points: Vec<i64>,
}

impl Octal {
    fn code(code: &str) -> Octal {
        let digits: Vec<u8> = code
            .trim_start_matches("0.")
            .bytes()
            .map(|b| b - b'0')
            .collect();
        let points = (1..=digits.len() as i64).collect();
        Octal { digits, points }
    }

    fn subtraction(set: &[usize]) -> Octal {
        let k = *set.iter().max().unwrap();
        let mut digits = vec![0u8; k];
        for &i in set {
            digits[i - 1] = 3;
        }
        Octal {
            digits,
            points: (1..=k as i64).collect(),
        }
    }

    /// (points, heaps left) of every move on a heap of h.
    fn moves(&self, h: u32) -> Vec<(i64, Vec<u32>)> {
        let mut out = Vec::new();
        for (i, (&t, &p)) in self.digits.iter().zip(&self.points).enumerate() {
            let take = i as u32 + 1;
            if take > h {
                break;
            }
            let rest = h - take;
            if t & 1 != 0 && rest == 0 {
                out.push((p, vec![]));
            }
            if t & 2 != 0 && rest >= 1 {
                out.push((p, vec![rest]));
            }
            if t & 4 != 0 && rest >= 2 {
                for a in 1..=rest / 2 {
                    out.push((p, vec![a, rest - a]));
                }
            }
        }
        out
    }
}

/// G_s of a position of (size, ruleset) heaps: the mover's best margin, 0 with no move.
fn naive_gs(
    rules: &[Octal],
    pos: &[(u32, usize)],
    memo: &mut HashMap<Vec<(u32, usize)>, i64>,
) -> i64 {
    let mut key = pos.to_vec();
    key.sort_unstable();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best: Option<i64> = None;
    for i in 0..key.len() {
        let (h, r) = key[i];
        for (p, left) in rules[r].moves(h) {
            let mut next = key.clone();
            next.remove(i);
            next.extend(left.into_iter().map(|x| (x, r)));
            let v = p - naive_gs(rules, &next, memo);
            best = Some(best.map_or(v, |b| b.max(v)));
        }
    }
    let v = best.unwrap_or(0);
    memo.insert(key, v);
    v
}

#[test]
fn gs_matches_a_naive_octal_minimax() {
    let sub45 = [Octal::subtraction(&[4, 5])];
    let mut memo = HashMap::new();
    // One heap, asked for in a scattered order so that the cached sequence has to grow.
    let ns: Vec<u32> = (0..=70).map(|i| (i * 37) % 71).collect();
    let calls: Vec<String> = ns.iter().map(|n| format!("gs(\"{{4,5}}\", {n})")).collect();
    for (n, v) in ns.iter().zip(eval_many(&calls)) {
        assert_eq!(
            v,
            int(naive_gs(&sub45, &[(*n, 0)], &mut memo)),
            "G_s({{4,5}}, {n})"
        );
    }
    // Sums of two heaps.
    let mut calls = Vec::new();
    let mut want = Vec::new();
    for n in 0..=12 {
        for m in 0..=12 {
            calls.push(format!("gs(\"{{4,5}}\", [{n}, {m}])"));
            want.push(int(naive_gs(&sub45, &[(n, 0), (m, 0)], &mut memo)));
        }
    }
    assert_eq!(eval_many(&calls), want);

    // A code that splits heaps, and Stewart's (digits, points) notation.
    let c026 = [Octal::code("0.26")];
    let mut memo = HashMap::new();
    let calls: Vec<String> = (0..=22).map(|n| format!("gs(\"0.26\", {n})")).collect();
    for (n, v) in (0..=22).zip(eval_many(&calls)) {
        assert_eq!(
            v,
            int(naive_gs(&c026, &[(n, 0)], &mut memo)),
            "G_s(0.26, {n})"
        );
    }
    let stewart = [Octal {
        digits: vec![3, 3, 3, 3],
        points: vec![2, 2, 2, 2],
    }];
    let mut memo = HashMap::new();
    let calls: Vec<String> = (0..=30)
        .map(|n| format!("gs(\"(3333,2222)\", {n})"))
        .collect();
    for (n, v) in (0..=30).zip(eval_many(&calls)) {
        assert_eq!(
            v,
            int(naive_gs(&stewart, &[(n, 0)], &mut memo)),
            "G_s((3333,2222), {n})"
        );
    }

    // Mixed rulesets: n under {4,5}, m under 0.26.
    let mixed = [Octal::subtraction(&[4, 5]), Octal::code("0.26")];
    let mut memo = HashMap::new();
    let mut calls = Vec::new();
    let mut want = Vec::new();
    for n in 0..=9 {
        for m in 0..=7 {
            calls.push(format!("gs_mixed(\"{{4,5}}\", {n}, \"0.26\", {m})"));
            want.push(int(naive_gs(&mixed, &[(n, 0), (m, 1)], &mut memo)));
        }
    }
    assert_eq!(eval_many(&calls), want);
    // The README's example: G_s(9 +ℓ 4) under {4,5}.
    assert_eq!(ev("gs(\"{4,5}\", [9, 4])"), int(5));
}

/// Candy Nim: from a P-position Luca takes any candies; Windsor must move back to nim-sum 0.
/// Returns V = N_L − N_W under optimal play (Luca maximizes it, Windsor minimizes it).
fn naive_candy(p: &[u32], memo: &mut HashMap<Vec<u32>, i64>) -> i64 {
    let mut key: Vec<u32> = p.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if key.is_empty() {
        return 0;
    }
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let luca = key.iter().fold(0, |a, &h| a ^ h) == 0;
    let mut best: Option<i64> = None;
    for i in 0..key.len() {
        for left in 0..key[i] {
            let mut child = key.clone();
            child[i] = left;
            if !luca && child.iter().fold(0, |a, &h| a ^ h) != 0 {
                continue;
            }
            let taken = i64::from(key[i] - left);
            let v = naive_candy(&child, memo);
            best = Some(match (luca, best) {
                (true, b) => b.map_or(taken + v, |b| b.max(taken + v)),
                (false, b) => b.map_or(v - taken, |b| b.min(v - taken)),
            });
        }
    }
    let v = best.expect("a move");
    memo.insert(key, v);
    v
}

#[test]
fn candy_values_match_a_naive_minimax() {
    // Remark 4.5's example (README: V = 96 for [31, 42, 53]).
    assert_eq!(
        ev("[candy_v([31, 42, 53]), candy_nl([31, 42, 53]), candy_nw([31, 42, 53])]"),
        ints(&[96, 111, 15])
    );
    let mut memo = HashMap::new();
    let mut positions: Vec<Vec<u32>> = multisets(3, 7);
    positions.extend(multisets(4, 3));
    positions.extend([vec![], vec![9], vec![6, 6], vec![12, 10, 6], vec![9, 4, 1]]);
    // Small positions first, then larger ones: the engine's table must grow.
    positions.sort_by_key(|p| p.iter().copied().max().unwrap_or(0));
    let mut calls = Vec::new();
    let mut want = Vec::new();
    for p in &positions {
        let t = position_text(p);
        calls.push(format!("[candy_v({t}), candy_nl({t}), candy_nw({t})]"));
        let v = naive_candy(p, &mut memo);
        let total: i64 = p.iter().map(|&h| i64::from(h)).sum();
        assert_eq!((total + v) % 2, 0, "{p:?}");
        want.push(ints(&[v, (total + v) / 2, (total - v) / 2]));
    }
    let got = eval_many(&calls);
    for ((p, g), w) in positions.iter().zip(&got).zip(&want) {
        assert_eq!(g, w, "{p:?}");
    }
    // A large position after small ones, and small ones after it, in one evaluation.
    let mut memo = HashMap::new();
    let v = |p: &[u32], memo: &mut HashMap<Vec<u32>, i64>| int(naive_candy(p, memo));
    assert_eq!(
        ev("[candy_v([1, 2, 3]), candy_v([20, 17, 5]), candy_v([6, 5, 3]), candy_v([3, 2, 1])]"),
        Value::List(
            vec![
                v(&[1, 2, 3], &mut memo),
                v(&[20, 17, 5], &mut memo),
                v(&[6, 5, 3], &mut memo),
                v(&[3, 2, 1], &mut memo)
            ]
            .into()
        )
    );
}

/// The plain subtraction game: the player to move wins iff some move leads to a lost position.
fn naive_winner(a: &[u64], n: u64) -> &'static str {
    let mut wins = vec![false; n as usize + 1];
    for m in 0..=n as usize {
        wins[m] = a.iter().any(|&x| x as usize <= m && !wins[m - x as usize]);
    }
    if wins[n as usize] { "I" } else { "II" }
}

#[test]
fn cash_winners_match_the_literal_recursion() {
    for set in [
        vec![1u64, 3, 4],
        vec![1, 4],
        vec![2, 3],
        vec![3, 5, 6, 10, 11],
    ] {
        let a = CashSet::new(set.clone()).unwrap();
        let text = format!("{set:?}");
        // Money beyond n included: the engine treats it as infinite money.
        let got = ev(&format!(
            "list(n in 0..13, d in 0..15, e in 0..15: cash_winner({text}, n, d, e))"
        ));
        let Value::List(got) = got else {
            panic!("a list")
        };
        let mut i = 0;
        for n in 0..=13 {
            for d in 0..=15 {
                for e in 0..=15 {
                    let w = match cash_winner_naive(&a, n, d, e) {
                        nimlab::cash::Winner::I => "I",
                        nimlab::cash::Winner::II => "II",
                    };
                    assert_eq!(got[i], string(w), "A = {text}, ({n}; {d}, {e})");
                    i += 1;
                }
            }
        }
        let calls: Vec<String> = (0..=60).map(|n| format!("winner({text}, {n})")).collect();
        for (n, v) in (0..=60).zip(eval_many(&calls)) {
            assert_eq!(v, string(naive_winner(&set, n)), "W_{text}({n})");
        }
    }
    // Example 1.11.
    assert_eq!(ev("cash_winner([1, 3, 4], 14, 9, 9)"), string("I"));
    assert_eq!(ev("winner([1, 3, 4], 14)"), string("II"));
}

#[test]
fn cash_thresholds_do_not_depend_on_the_order_of_questions() {
    let set = [3u64, 5, 6, 10, 11];
    let t = thresholds(&CashSet::new(set.to_vec()).unwrap(), 300).unwrap();
    // Descending, ascending and scattered n in one evaluation each: the cached table is grown
    // on demand and must give the same values as one table built to 300.
    let orders: [Vec<u64>; 3] = [
        (0..=300).rev().collect(),
        (0..=300).collect(),
        (0..=300).map(|i| (i * 97) % 301).collect(),
    ];
    for ns in orders {
        let calls: Vec<String> = ns
            .iter()
            .map(|n| format!("[f1([3,5,6,10,11], {n}), f2([3,5,6,10,11], {n})]"))
            .collect();
        for (n, v) in ns.iter().zip(eval_many(&calls)) {
            let n = *n as usize;
            assert_eq!(
                v,
                Value::List(vec![Value::int(t.f1[n]), Value::int(t.f2[n])].into()),
                "n = {n}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Verdicts of claim files

fn claim_file(body: &str) -> String {
    format!(
        "paper = \"t\"\ntitle = \"Test\"\n\n[[claim]]\nid = \"c\"\nlabel = \"Claim 1\"\nstatement = \"s\"\n{body}\n"
    )
}

fn parse(src: &str) -> Registry {
    Registry::parse(Path::new("t.toml"), src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn parse_err(src: &str) -> String {
    Registry::parse(Path::new("t.toml"), src)
        .map(|_| ())
        .expect_err(src)
        .to_string()
}

/// The finding of the only claim of a file.
fn finding(src: &str, deep: bool) -> Finding {
    let reg = parse(src);
    assert_eq!(reg.claims.len(), 1);
    check_claim(&reg, &reg.claims[0], deep).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

#[test]
fn a_failing_claim_reports_its_smallest_counterexample() {
    let f = finding(
        &claim_file("for = \"k in 0..10\"\nactual = \"k^2\"\nexpected = \"2k\""),
        false,
    );
    assert_eq!(f.verdict, VerdictKind::Fails);
    assert_eq!(f.range_text(), "k in 0..10");
    assert!(
        f.evidence()
            .starts_with("fails at k = 1: expected 2, actual 1"),
        "{}",
        f.evidence()
    );

    // Two variables: the first failing point in the order of the variables (i outermost).
    let f = finding(
        &claim_file("for = \"i in 1..5, j in 1..5\"\nholds = \"i * j < 9 or i < j\""),
        false,
    );
    let first = (1..=5)
        .flat_map(|i| (1..=5).map(move |j| (i, j)))
        .find(|&(i, j)| !(i * j < 9 || i < j))
        .unwrap();
    assert_eq!(f.verdict, VerdictKind::Fails);
    // Along i, the first variable: the values with a failing j, and those where every j holds.
    let fails_at = |i: i64| (1..=5).any(|j| !(i * j < 9 || i < j));
    let first_failing = (1..=5).find(|&i| fails_at(i)).unwrap();
    assert!((first_failing..=5).all(fails_at));
    assert_eq!(
        f.evidence(),
        format!(
            "false at i = {}, j = {}; holds for every i ≤ {}, fails from i = {first_failing} on \
             the range",
            first.0,
            first.1,
            first_failing - 1
        )
    );

    // A rational variable is shown exactly.
    let f = finding(
        &claim_file("for = \"N in -2..2 step 1/4\"\nholds = \"N < 1/3\""),
        false,
    );
    assert_eq!(
        f.evidence(),
        "false at N = 1/2: expected $N < 1/3$, actual $N = 1/2$; holds for every N ≤ 1/4, fails \
         from N = 1/2 on the range"
    );
}

#[test]
fn a_false_check_names_the_part_that_failed_and_the_values_on_the_way() {
    // `let` bindings and `if` conditions on the way are values found there; the comparison
    // that failed is what the statement says, its sides what is true.
    let f = finding(
        &claim_file(
            "for = \"k in 0..5\"\nholds = \"let a = k + 1 in if a > 2 then (a - 1) * 2 < 5 else true\"",
        ),
        false,
    );
    assert_eq!(
        f.evidence(),
        "false at k = 3: expected $(a - 1) \\cdot 2 < 5$, actual $a = 4$, $a > 2$ = true, $(a - 1) \\cdot 2 = 6$; \
         holds for every k ≤ 2, fails from k = 3 on the range"
    );
    let ce = f.counterexample.as_ref().unwrap();
    assert_eq!(ce.expected[0].value, Value::Bool(true));
    // A failing conjunct is found behind the ones that hold; a chain of comparisons names the
    // pair that failed.
    let f = finding(
        &claim_file("for = \"k in 1..3\"\nholds = \"k > 0 and 0 < k < 2\""),
        false,
    );
    assert_eq!(
        f.evidence(),
        "false at k = 2: expected $k < 2$, actual $k = 2$; holds for every k ≤ 1, fails from k = 2 \
         on the range"
    );
    // A check with nothing to explain (a bare call) says only where it is false.
    let f = finding(
        &claim_file("for = \"k in 1..3\"\nholds = \"is_int(k / 2)\""),
        false,
    );
    assert_eq!(
        f.evidence(),
        "false at k = 1; fails at k ∈ {1, 3}, holds at the other value of k"
    );
}

#[test]
fn a_holding_claim_counts_its_points() {
    for (range, points) in [
        ("k in 0..20", 21u64),
        ("k in 0..10 step 1/2", 21),
        ("i in 1..5, j in i..5", 15),
        ("N in -1..1 step 2/3", 4),
        ("x in [1, 4, 9]", 3),
    ] {
        let f = finding(
            &claim_file(&format!("for = \"{range}\"\nholds = \"true\"")),
            false,
        );
        assert_eq!(f.verdict, VerdictKind::Holds, "{range}");
        assert_eq!(f.range_text(), range);
        assert_eq!(
            f.evidence(),
            format!("true at all {points} points"),
            "{range}"
        );
    }
    let f = finding(
        &claim_file("for = \"k in 0..40\"\nholds = \"sum(j in 1..k: j) == k*(k+1)/2\""),
        false,
    );
    assert_eq!(
        (f.verdict, f.evidence().as_str()),
        (VerdictKind::Holds, "true at all 41 points")
    );
    // No range: a single evaluation.
    let f = finding(
        &claim_file("actual = \"cplus([5, 4, 2])\"\nexpected = \"-3\""),
        false,
    );
    assert_eq!(f.verdict, VerdictKind::Holds);
    assert_eq!(f.range_text(), "single evaluation");
    assert_eq!(f.evidence(), "true at all 1 point");
    // User functions, each calling earlier ones.
    let f = finding(
        "paper = \"t\"\ndefine = [\"T(k) = k*(k+1)/2\", \"S(k) = T(k) - T(k-1)\"]\n\
         [[claim]]\nid = \"c\"\nlabel = \"C\"\nstatement = \"s\"\n\
         for = \"k in 1..30\"\nactual = \"S(k)\"\nexpected = \"k\"\n",
        false,
    );
    assert_eq!(
        (f.verdict, f.evidence().as_str()),
        (VerdictKind::Holds, "true at all 30 points")
    );
}

#[test]
fn where_skips_points_and_says_how_many() {
    let f = finding(
        &claim_file("for = \"k in 1..10\"\nwhere = \"k % 3 == 0\"\nholds = \"k % 3 == 0\""),
        false,
    );
    assert_eq!(f.verdict, VerdictKind::Holds);
    let kept = (1..=10).filter(|k| k % 3 == 0).count();
    assert_eq!(
        f.evidence(),
        format!(
            "true at all {kept} points ({} points excluded by `where`)",
            10 - kept
        )
    );
    // A failure behind the filter is not reported; one in front of it is.
    let f = finding(
        &claim_file("for = \"k in 1..10\"\nwhere = \"k != 4\"\nholds = \"k != 4 and k != 7\""),
        false,
    );
    // The extent leaves out k = 4, whose only point `where` excluded.
    assert_eq!(
        (f.verdict, f.evidence().as_str()),
        (
            VerdictKind::Fails,
            "false at k = 7: expected $k \\ne 7$, actual $k = 7$; fails at k ∈ {7}, holds at the other \
             8 values of k"
        )
    );
    assert_eq!(f.extent.as_ref().unwrap().holding.len(), 8);
    // Nothing passes the filter: nothing was checked, so nothing holds.
    let f = finding(
        &claim_file("for = \"k in 1..10\"\nwhere = \"k > 10\"\nholds = \"false\""),
        false,
    );
    assert_eq!(f.verdict, VerdictKind::Open);
    assert!(
        f.evidence().contains("nothing was checked"),
        "{}",
        f.evidence()
    );
}

#[test]
fn a_conjecture_checked_on_a_finite_range_holds_there() {
    // `open = true` (a conjecture over infinitely many cases) still loads; a check that
    // passes on the range is HOLDS like any other, OPEN being kept for nothing checked.
    let f = finding(
        &claim_file("open = true\nfor = \"k in 1..5\"\nholds = \"k > 0\""),
        false,
    );
    assert_eq!(f.verdict, VerdictKind::Holds);
    assert_eq!(f.evidence(), "true at all 5 points");
    // A counterexample refutes it.
    let f = finding(
        &claim_file("open = true\nfor = \"k in 1..5\"\nholds = \"k < 4\""),
        false,
    );
    assert_eq!(
        (f.verdict, f.evidence().as_str()),
        (
            VerdictKind::Fails,
            "false at k = 4: expected $k < 4$, actual $k = 4$; holds for every k ≤ 3, fails from \
             k = 4 on the range"
        )
    );
}

#[test]
fn readings_are_ambiguous_with_a_verdict_each() {
    let src = claim_file(
        "for = \"k in 1..6\"\n\n[[claim.reading]]\nname = \"weak\"\nholds = \"k >= 1\"\n\n\
         [[claim.reading]]\nname = \"strong\"\nholds = \"k >= 2\"\n\n\
         [[claim.reading]]\nname = \"own range\"\nfor = \"k in 2..3\"\nactual = \"k^2\"\nexpected = \"2k\"\n",
    );
    let f = finding(&src, false);
    assert_eq!(f.verdict, VerdictKind::Ambiguous);
    let evidence = f.evidence();
    let parts: Vec<&str> = evidence.split("; reading ").collect();
    assert_eq!(parts.len(), 3, "{}", f.evidence());
    assert_eq!(parts[0], "reading \"weak\": HOLDS (true at all 6 points)");
    assert_eq!(
        parts[1],
        "\"strong\": FAILS (false at k = 1: expected $k \\ge 2$, actual $k = 1$; fails for every \
         k ≤ 1, holds from k = 2 on the range)"
    );
    assert!(
        parts[2].starts_with("\"own range\": FAILS (fails at k = 3: expected 6, actual 9"),
        "{}",
        parts[2]
    );
    assert!(
        f.range_text().contains("k in 1..6") && f.range_text().contains("k in 2..3"),
        "{}",
        f.range_text()
    );

    // Readings inherit the claim's `where` unless they have their own, and `--deep` applies to
    // each reading (the claim's deep range, or the reading's own).
    let src = claim_file(
        "for = \"k in 1..6\"\ndeep = \"k in 1..9\"\nwhere = \"k != 1\"\n\n\
         [[claim.reading]]\nname = \"inherited\"\nholds = \"k >= 2\"\n\n\
         [[claim.reading]]\nname = \"own filter\"\nwhere = \"k > 2\"\nholds = \"k >= 3\"\n",
    );
    let f = finding(&src, false);
    assert_eq!(
        f.evidence(),
        "reading \"inherited\": HOLDS (true at all 5 points (1 point excluded by `where`)); \
         reading \"own filter\": HOLDS (true at all 4 points (2 points excluded by `where`))"
    );
    let f = finding(&src, true);
    assert_eq!(f.range_text(), "k in 1..9");
    assert!(
        f.evidence().contains("true at all 8 points"),
        "{}",
        f.evidence()
    );
}

/// The part of the evidence about the correction, from the word "correction" to the next `;`.
fn correction_part(evidence: &str) -> &str {
    let at = evidence
        .find("correction")
        .unwrap_or_else(|| panic!("no correction in {evidence}"));
    evidence[at..].split(';').next().unwrap()
}

#[test]
fn a_correction_is_checked_when_the_claim_fails() {
    let f = finding(
        &claim_file(
            "for = \"k in 1..10\"\nactual = \"3k + 1\"\nexpected = \"3k\"\ncorrection = \"3k + 1\"",
        ),
        false,
    );
    assert_eq!(f.verdict, VerdictKind::Fails);
    assert!(
        f.evidence()
            .starts_with("fails at k = 1: expected 3, actual 4"),
        "{}",
        f.evidence()
    );
    let evidence = f.evidence();
    let part = correction_part(&evidence);
    assert!(part.ends_with("holds at all 10 points"), "{}", f.evidence());
    // A wrong correction is reported with its own first counterexample: k² = 3k + (k−5)(k−6)
    // would need k² = k² − 8k + 30, true only at k = 15/4, so it fails at k = 1 already.
    let f = finding(
        &claim_file(
            "for = \"k in 1..10\"\nactual = \"k^2\"\nexpected = \"3k\"\ncorrection = \"3k + (k - 5)*(k - 6)\"",
        ),
        false,
    );
    let evidence = f.evidence();
    let part = correction_part(&evidence);
    assert!(part.contains("fails too at k = 1"), "{}", f.evidence());
    assert!(
        part.contains("expected 23, actual 1") || f.evidence().contains("expected 23, actual 1"),
        "{}",
        f.evidence()
    );
    // A claim that holds does not mention its correction.
    let f = finding(
        &claim_file(
            "for = \"k in 1..10\"\nactual = \"2k\"\nexpected = \"k + k\"\ncorrection = \"0\"",
        ),
        false,
    );
    assert_eq!(f.verdict, VerdictKind::Holds);
    assert!(!f.evidence().contains("correction"), "{}", f.evidence());
}

#[test]
fn deep_uses_the_deep_range() {
    let src = claim_file("for = \"k in 0..10\"\ndeep = \"k in 0..100\"\nholds = \"k < 50\"");
    let f = finding(&src, false);
    assert_eq!(
        (f.verdict, f.range_text().as_str(), f.evidence().as_str()),
        (VerdictKind::Holds, "k in 0..10", "true at all 11 points")
    );
    let f = finding(&src, true);
    assert_eq!(
        (f.verdict, f.range_text().as_str(), f.evidence().as_str()),
        (
            VerdictKind::Fails,
            "k in 0..100",
            "false at k = 50: expected $k < 50$, actual $k = 50$; holds for every k ≤ 49, fails \
             from k = 50 on the range"
        )
    );
    // Without a deep range --deep checks the default range.
    let f = finding(
        &claim_file("for = \"k in 0..10\"\nholds = \"k < 50\""),
        true,
    );
    assert_eq!(f.range_text(), "k in 0..10");
}

fn three_claims() -> Registry {
    parse(
        "paper = \"t\"\n\
         [[claim]]\nid = \"one\"\nlabel = \"Lemma 1\"\nstatement = \"s\"\nfor = \"k in 1..3\"\nholds = \"k > 0\"\n\
         [[claim]]\nid = \"two\"\nlabel = \"Lemma 2\"\nstatement = \"s\"\nfor = \"k in 1..300\"\nholds = \"k < 200\"\n\
         [[claim]]\nid = \"three\"\nlabel = \"Lemma 3\"\nstatement = \"s\"\nholds = \"cplus([5, 4, 2]) == -3\"\n",
    )
}

/// Progress that adds up the work reported as done.
#[derive(Default)]
struct Tally(AtomicU64);

impl Progress for Tally {
    fn advance(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }
}

#[test]
fn check_registry_keeps_file_order_and_selects_by_label_or_id() {
    let reg = three_claims();
    let done = Tally::default();
    let all = check_registry(&reg, false, &[], &done).unwrap();
    assert_eq!(done.0.load(Ordering::Relaxed), 3);
    let ids: Vec<&str> = all.iter().map(|v| v.claim.id.as_str()).collect();
    assert_eq!(ids, ["one", "two", "three"]);
    let kinds: Vec<VerdictKind> = all.iter().map(|v| v.verdict).collect();
    assert_eq!(
        kinds,
        [VerdictKind::Holds, VerdictKind::Fails, VerdictKind::Holds]
    );
    assert!(all.iter().all(|v| v.claim.paper == "t"));
    assert!(
        all[1]
            .evidence()
            .starts_with("false at k = 200: expected $k < 200$, actual $k = 200$;"),
        "{}",
        all[1].evidence()
    );

    let some = check_registry(&reg, false, &["Lemma 3".into(), "one".into()], &Silent).unwrap();
    let ids: Vec<&str> = some.iter().map(|v| v.claim.id.as_str()).collect();
    assert_eq!(ids, ["one", "three"]);
    let e = check_registry(&reg, false, &["Lemma 9".into()], &Silent).unwrap_err();
    assert!(e.to_string().contains("Lemma 9"), "{e}");
}

#[test]
fn evaluation_errors_name_the_claim_and_the_point() {
    let reg = parse(&claim_file("for = \"k in -2..2\"\nholds = \"1/k > -5\""));
    let e = check_claim(&reg, &reg.claims[0], false)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`c`") && e.contains("k = 0") && e.contains("division"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// 5. Files that are refused before anything is evaluated

/// `t.toml:line:col:` of the character `offset` characters into the first occurrence of
/// `needle` in `src` (columns count characters), and the column alone.
fn location_of(src: &str, needle: &str, offset: usize) -> (String, usize) {
    let found = src
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the file"));
    let at = found
        + src[found..]
            .chars()
            .take(offset)
            .map(char::len_utf8)
            .sum::<usize>();
    let line = src[..at].matches('\n').count() + 1;
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let col = src[line_start..at].chars().count() + 1;
    (format!("t.toml:{line}:{col}:"), col)
}

/// The message starts at the location and ends with a caret line with the caret under it.
fn assert_located(e: &str, loc: &(String, usize), what: &str) {
    assert!(e.starts_with(&loc.0), "{what}: want {} in\n{e}", loc.0);
    let caret_line = e.lines().last().unwrap();
    let bar = caret_line.find("| ").expect("a gutter");
    let caret = caret_line.find('^').expect("a caret");
    assert_eq!(
        caret - bar - 2,
        loc.1 - 1,
        "{what}: caret not under the fault\n{e}"
    );
}

#[test]
fn bad_files_are_refused_with_line_column_and_caret() {
    // (the claim's body, a unique piece of text, how far into it the fault is, the message)
    let cases: &[(&str, &str, usize, &str)] = &[
        (
            "for = \"k in 1..3\"\nholds = \"foo(k) > 0\"",
            "foo(k)",
            0,
            "unknown function `foo`",
        ),
        (
            "for = \"k in 1..3\"\nholds = \"floor(k, 2) > 0\"",
            "floor(k, 2)",
            0,
            "takes 1 argument",
        ),
        (
            "for = \"k in 1..3\"\nholds = \"len(k) > 0\"",
            "len(k)",
            4,
            "expected a list",
        ),
        ("holds = \"n > 0\"", "n > 0", 0, "unknown name `n`"),
        (
            "for = \"k in 1..3\"\nholds = \"k >= \"",
            "k >= ",
            5,
            "expected",
        ),
        (
            "for = \"k in 1..3\"\nholds = \"(k + 1 > 0\"",
            "(k + 1 > 0",
            10,
            "expected",
        ),
        (
            "for = \"k in 1..3\"\nholds = \"k + 1\"",
            "k + 1",
            0,
            "expected a truth value",
        ),
        (
            "for = \"k in 1..3\"\nwhere = \"k\"\nholds = \"true\"",
            "where = \"k",
            9,
            "expected a truth value",
        ),
        (
            "for = \"k in 1..j\"\nholds = \"true\"",
            "1..j",
            3,
            "unknown name `j`",
        ),
        (
            "for = \"k in 1..3, k in 1..3\"\nholds = \"true\"",
            ", k in",
            2,
            "already bound",
        ),
        (
            "for = \"k in 1..3\"\nactual = \"k\"\nexpected = \"[k]\"\ncorrection = \"gs(k)\"",
            "gs(k)",
            0,
            "takes 2 argument",
        ),
    ];
    for (body, needle, offset, message) in cases {
        let src = claim_file(body);
        let e = parse_err(&src);
        assert!(e.contains(message), "{body}: {e}");
        assert_located(&e, &location_of(&src, needle, *offset), body);
    }
    // Faults of the file's structure.
    let src = format!("{}colour = \"red\"\n", claim_file("holds = \"true\""));
    let e = parse_err(&src);
    assert!(e.contains("unknown field `colour`"), "{e}");
    assert_located(&e, &location_of(&src, "colour", 0), "unknown key");

    let src = format!(
        "{}\n[[claim]]\nid = \"c\"\nlabel = \"L\"\nstatement = \"s\"\nholds = \"true\"\n",
        claim_file("holds = \"true\"")
    );
    let e = parse_err(&src);
    assert!(e.contains("claim id `c` is used twice"), "{e}");
    let second = src.rfind("[[claim]]").unwrap();
    assert!(
        e.starts_with(&format!(
            "t.toml:{}:",
            src[..second].matches('\n').count() + 1
        )),
        "{e}"
    );

    for (body, message) in [
        ("for = \"k in 1..3\"", "exactly one check"),
        ("actual = \"1\"", "`actual` and `expected`"),
        ("expected = \"1\"", "`actual` and `expected`"),
        (
            "holds = \"true\"\nactual = \"1\"\nexpected = \"1\"",
            "check",
        ),
        (
            "holds = \"true\"\nbuiltin = \"scoring.pwl_shape\"",
            "exactly one check",
        ),
        (
            "builtin = \"no.such_check\"",
            "unknown builtin `no.such_check`",
        ),
    ] {
        let e = parse_err(&claim_file(body));
        assert!(e.contains(message), "{body}: {e}");
        assert!(e.starts_with("t.toml:4:1:"), "{body}: {e}");
        assert!(e.lines().last().unwrap().ends_with("| ^"), "{body}: {e}");
    }

    let src = claim_file("for = \"k in 1..3\"\ndeep = \"j in 1..30\"\nholds = \"true\"");
    let e = parse_err(&src);
    assert!(e.contains("same variables"), "{e}");
    assert_located(&e, &location_of(&src, "\"j in", 0), "deep");

    let e = parse_err("title = \"no paper\"\n");
    assert!(e.contains("missing field `paper`"), "{e}");
    let src = "paper = \"p\"\ndefine = [\"F(k) = 2k + G(k)\"]\n";
    let e = parse_err(src);
    assert!(e.contains("unknown function `G`"), "{e}");
    assert_located(&e, &location_of(src, "G(k)", 0), "define");
    let src = "paper = \"p\"\ndefine = [\"F(k) = k\", \"F(j) = j\"]\n";
    let e = parse_err(src);
    assert!(e.contains("already defined"), "{e}");
    assert_located(&e, &location_of(src, "F(j)", 0), "define twice");
    let e = parse_err("paper = \"p\"\ndefine = [\"floor(k) = k\"]\n");
    assert!(e.contains("already defined"), "{e}");
    // A later function may call an earlier one, never the reverse (so evaluation terminates).
    let e = parse_err("paper = \"p\"\ndefine = [\"F(k) = G(k)\", \"G(k) = k\"]\n");
    assert!(e.contains("unknown function `G`"), "{e}");
    let e = parse_err("paper = \"p\"\ndefine = [\"F(k) = F(k - 1)\"]\n");
    assert!(e.contains("unknown function `F`"), "{e}");
}

#[test]
fn impossible_ranges_are_refused_when_the_file_is_loaded() {
    for (range, needle) in [
        ("k in 1..10^9", "at most"),
        ("k in 1..10 step 0", "positive"),
        ("k in 1..10 step -1", "positive"),
    ] {
        let src = claim_file(&format!("for = \"{range}\"\nholds = \"true\""));
        let e = match Registry::parse(Path::new("t.toml"), &src) {
            Err(e) => e.to_string(),
            Ok(reg) => check_claim(&reg, &reg.claims[0], false)
                .map(|f| format!("{f:?}"))
                .unwrap_or_else(|e| e.to_string()),
        };
        assert!(e.contains(needle), "{range}: {e}");
        assert!(e.starts_with("t.toml:8:"), "{range}: {e}");
    }
}

#[test]
fn builtin_deep_range_must_bind_the_same_variables() {
    let src = claim_file(
        "builtin = \"scoring.pwl_shape\"\nfor = \"a in 1..3\"\ndeep = \"x in 1..4\"\n\
         args = { position = \"[a]\", fact = \"continuous\" }",
    );
    let e = parse_err(&src);
    assert!(e.contains("same variables"), "{e}");
}

#[test]
fn user_function_results_are_kind_checked() {
    let defs = "paper = \"t\"\ndefine = [\"F(k) = k\", \"P(p) = candy_v(p)\"]\n\
                [[claim]]\nid = \"c\"\nlabel = \"C\"\nstatement = \"s\"\nfor = \"k in 1..3\"\n";
    for body in [
        "holds = \"F(k)\"",
        "where = \"F(k)\"\nholds = \"true\"",
        "holds = \"P(k) == 1\"",
    ] {
        let src = format!("{defs}{body}\n");
        match Registry::parse(Path::new("t.toml"), &src) {
            // Refused when loading: with the file and line of the fault.
            Err(e) => assert!(e.to_string().starts_with("t.toml:8:"), "{body}: {e}"),
            Ok(reg) => panic!(
                "{body}: accepted, then {:?}",
                check_claim(&reg, &reg.claims[0], false)
            ),
        }
    }
}

/// Syntax errors name the punctuation that would have continued the expression.
#[test]
fn syntax_errors_name_missing_closers_and_separators() {
    for (src, wanted) in [
        ("(1 + 2", "`)`"),
        ("[1, 2", "`]`"),
        ("sum(j in 1..3 j)", "`:`"),
        ("let x 2 in x", "`=`"),
        ("f1([1,2], 3", "`)`"),
    ] {
        let e = ev_err(src);
        assert!(e.message.contains(wanted), "{src}: {}", e.message);
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Sizes: claims are estimated before they run, numbers and messages stay bounded

#[test]
fn every_shipped_claim_is_within_the_step_limit_with_and_without_deep() {
    let limit = nimlab::language::MAX_STEPS as f64;
    let mut largest = (0.0f64, String::new());
    for entry in std::fs::read_dir("data/claims").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let reg = Registry::load(&path).unwrap();
        for c in &reg.claims {
            for deep in [false, true] {
                let e = nimlab::language::estimate(&reg, c, deep);
                assert!(
                    e.least <= limit,
                    "{}: {} deep={deep}: {e:?}",
                    path.display(),
                    c.id
                );
                if e.least > largest.0 {
                    largest = (e.least, format!("{} {} deep={deep}", path.display(), c.id));
                }
            }
        }
        assert!(nimlab::language::plan(&reg, true, &[]).is_ok());
    }
    // The limit leaves room: the largest shipped claim is well below it.
    assert!(largest.0 * 2.0 <= limit, "{largest:?}");
}

/// The estimate is an upper bound on the steps taken, and close for plain nested ranges.
#[test]
fn estimates_bound_the_steps_taken() {
    use nimlab::language::Value as V;
    for (range, holds) in [
        ("a in 1..30, b in 1..40", "a + b > 0"),
        ("a in 0..12, b in a..12, c in b..12", "a <= b and b <= c"),
        (
            "k in 1..20",
            "all(j in 1..k: j <= k) and count(j in 1..2k: j > k) == k",
        ),
        ("k in 1..6", "sum(j in 1..2^k: 1) == 2^k"),
        ("x in [1, 2, 3]", "x > 0"),
        ("L in 2..12 step 2, n in 0..30, d in 0..n", "min(d, n) == d"),
    ] {
        let src = claim_file(&format!("for = \"{range}\"\nholds = \"{holds}\""));
        let reg = parse(&src);
        let claim = &reg.claims[0];
        let estimate = nimlab::language::estimate(&reg, claim, false);
        assert!(!estimate.open_ended, "{range}: {estimate:?}");
        let steps = Tally::default();
        let verdicts = nimlab::language::check_registry_progress(&reg, false, &[], &steps).unwrap();
        assert_eq!(verdicts[0].verdict, VerdictKind::Holds, "{range}");
        // The progress reported adds up to the estimate (the bar ends full) …
        let reported = steps.0.load(Ordering::Relaxed) as f64;
        assert_eq!(
            reported,
            estimate.least.floor().max(1.0),
            "{range}: {estimate:?}"
        );
        // … and the evaluation itself took no more than estimated.
        let mut engines = Engines::new();
        let mut evaluator = Evaluator::new(&reg.definitions, &mut engines);
        let binders = nimlab::language::parse_binders(range).unwrap();
        let body = parse_expr(holds).unwrap();
        evaluator
            .each_point(&binders, &mut Vec::new(), &mut |ev, env| {
                Ok(ev.eval(&body, env)? == V::Bool(true))
            })
            .unwrap();
        assert!(
            evaluator.steps() as f64 <= estimate.steps,
            "{range}: took {} steps, estimated {estimate:?}",
            evaluator.steps()
        );
    }
}

#[test]
fn nested_ranges_multiply_and_are_refused_before_evaluation() {
    for (body, needle) in [
        (
            "for = \"a in 1..1000000, b in 1..1000000\"\nholds = \"a + b > 0\"",
            "1.0e12 points",
        ),
        (
            "for = \"a in 1..1000000\"\nholds = \"all(b in 1..1000000: a + b > 0)\"",
            "evaluation steps",
        ),
        (
            "for = \"a in 1..20000, b in a..20000, c in b..20000\"\nholds = \"a <= c\"",
            "evaluation steps",
        ),
        (
            "for = \"a in 1..100\"\nholds = \"sum(j in 1..10^6: count(i in 1..10^6: i == j)) > 0\"",
            "evaluation steps",
        ),
    ] {
        let src = claim_file(body);
        let reg = parse(&src);
        let started = std::time::Instant::now();
        let e = check_claim(&reg, &reg.claims[0], false)
            .unwrap_err()
            .to_string();
        assert!(
            started.elapsed().as_secs_f64() < 1.0,
            "{body}: slow refusal"
        );
        assert!(e.contains(needle) && e.contains("limit of"), "{body}: {e}");
        // Located: the file, the line of `for`, and a caret.
        let line = src[..src.find("for = ").unwrap()].matches('\n').count() + 1;
        assert!(e.starts_with(&format!("t.toml:{line}:")), "{e}");
        assert!(e.contains('^') && e.contains("claim `c`"), "{e}");
    }
    // Deep ranges are sized when --deep is in force.
    let src = claim_file(
        "for = \"a in 1..10\"\ndeep = \"a in 1..1000000\"\n\
         holds = \"all(b in 1..1000000: a + b > 0)\"",
    );
    let reg = parse(&src);
    assert!(check_claim(&reg, &reg.claims[0], false).is_ok());
    let e = check_claim(&reg, &reg.claims[0], true)
        .unwrap_err()
        .to_string();
    assert!(e.contains("`deep`") && e.starts_with("t.toml:9:"), "{e}");
}

#[test]
fn ranges_known_only_while_running_are_stopped_at_the_step_limit() {
    let reg = parse(&claim_file(
        "holds = \"all(x in breakpoints([1, 2]): x == x)\"",
    ));
    assert!(nimlab::language::estimate(&reg, &reg.claims[0], false).open_ended);
    // The evaluator counts its steps and stops at its limit with a located error.
    let e =
        parse_expr("all(x in list(j in 1..1000: j): all(y in list(j in 1..1000: j): x + y > 0))")
            .unwrap();
    let defs = Definitions::new();
    let mut engines = Engines::new();
    let mut evaluator = Evaluator::new(&defs, &mut engines).with_step_limit(50_000);
    let err = evaluator.eval(&e, &mut Vec::new()).unwrap_err();
    assert!(err.message.contains("stopped after 50000 steps"), "{err}");
    assert_eq!(evaluator.steps(), 50_001);
}

/// A search pruned by `if` is sized by its cheaper branches: it is not refused for the work
/// of branches it may never take, while nested ranges without a choice are.
#[test]
fn pruned_searches_are_sized_by_their_cheaper_branch() {
    let pruned = claim_file(
        "for = \"a in 1..1000\"\n\
         holds = \"if a > 0 then true else all(b in 1..1000000: all(c in 1..1000000: b != c or b == c))\"",
    );
    assert_eq!(finding(&pruned, false).verdict, VerdictKind::Holds);
    let reg = parse(&pruned);
    let c = nimlab::language::estimate(&reg, &reg.claims[0], false);
    assert!(c.least < 1e5 && c.steps > 1e14, "{c:?}");
}

#[test]
fn nested_user_functions_are_checked_in_linear_time_and_sized() {
    // F_k calls F_{k-1} twice: 2^k calls. Checking must not be exponential; evaluating F_60
    // would be, so the claim is refused with its estimate.
    let mut defines = vec!["\"F0(x) = x + 1\"".to_string()];
    for k in 1..=60 {
        defines.push(format!("\"F{k}(x) = F{}(x) + F{}(x)\"", k - 1, k - 1));
    }
    let src = format!(
        "paper = \"t\"\ndefine = [{}]\n[[claim]]\nid = \"c\"\nlabel = \"C\"\nstatement = \"s\"\n\
         holds = \"F60(1) > 0\"\n",
        defines.join(", ")
    );
    let started = std::time::Instant::now();
    let reg = parse(&src);
    assert!(
        started.elapsed().as_secs_f64() < 2.0,
        "type checking is slow"
    );
    let e = check_claim(&reg, &reg.claims[0], false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("evaluation steps") && e.contains("e18"), "{e}");
    // A small one runs and gives the right value: F_k(x) = 2^k (x + 1).
    let src = src.replace("F60(1) > 0", "F10(1) == 2^11");
    assert_eq!(finding(&src, false).verdict, VerdictKind::Holds);
}

#[test]
fn long_chains_of_user_functions_do_not_overflow_the_stack() {
    let mut defines = vec!["\"G0(x) = x\"".to_string()];
    for k in 1..=3000 {
        defines.push(format!("\"G{k}(x) = G{}(x) + 1\"", k - 1));
    }
    let src = format!(
        "paper = \"t\"\ndefine = [{}]\n[[claim]]\nid = \"c\"\nlabel = \"C\"\nstatement = \"s\"\n\
         actual = \"G3000(0)\"\nexpected = \"3000\"\n",
        defines.join(", ")
    );
    assert_eq!(finding(&src, false).verdict, VerdictKind::Holds);
}

/// Exact numbers are capped at MAX_BITS: every operation that could go past it is refused
/// before it runs, at once, with the estimate; everything below is exact.
#[test]
fn exact_numbers_are_capped_and_refusals_are_fast() {
    let cap = nimlab::language::MAX_BITS;
    let fraction_cap = nimlab::language::MAX_FRACTION_BITS;
    for src in [
        "(3^160)^65536 * 2",
        "2^(2^20 + 1)",
        "let x = (2^65536)^15 in x * x",
        "let x = (2^65536)^15 in x * x / 3",
        "let x = (7^65536)^5 in x * x",
        "let x = (2^65536)^15 in (x + 1/3) * (x + 1/7)",
        "let x = 2^10000 + 1/3 in x * x",
        "((1/3)^65536)^8",
        "(1/3)^65536",
        "2^(10^30)",
        "(-2)^(-(10^30))",
    ] {
        let started = std::time::Instant::now();
        let e = ev_err(src);
        assert!(
            started.elapsed().as_secs_f64() < 2.0,
            "{src}: refused after {:?}",
            started.elapsed()
        );
        assert!(e.message.contains("too large"), "{src}: {e}");
        assert!(
            e.message.contains(&cap.to_string())
                || e.message.contains(&fraction_cap.to_string())
                || e.message.contains("at most 65536"),
            "{src}: {e}"
        );
        assert!(e.message.len() < 400, "{src}: {} bytes", e.message.len());
    }
    // Right below the cap, exact: compare with num-bigint directly.
    let big = BigInt::from(7).pow(5 * 65536u32);
    assert_eq!(ev("(7^65536)^5 * 5"), Value::Num(Q::from_bigint(&big * 5)));
    assert_eq!(
        ev("(7^65536)^5 + (7^65536)^5 - 7^(65536)"),
        Value::Num(Q::from_bigint(&big + &big - BigInt::from(7).pow(65536u32)))
    );
    assert_eq!(
        ev("(7^65536)^5 % 10"),
        Value::Num(Q::from_bigint(&big % 10))
    );
    assert_eq!(ev("(2^65536 - 1) / 3 * 3"), ev("2^65536 - 1"));
    assert_eq!(
        ev("(7^65536)^5 / 7^65536"),
        Value::Num(Q::from_bigint(BigInt::from(7).pow(4 * 65536u32)))
    );
    let small = BigInt::from(7).pow(2000u32);
    assert_eq!(
        ev("7^(-2000) + 1/2"),
        Value::Num(Q::from_ratio(
            BigRational::new(BigInt::one(), small.clone()) + BigRational::new(1.into(), 2.into())
        ))
    );
    // Fractions have the smaller cap: a 2^20-bit integer plus a third is refused, fast.
    assert!(
        ev_err("(7^65536)^5 + 1/3")
            .message
            .contains("as a fraction")
    );
    assert!(ev_err("(7^65536)^5 / 3").message.contains("as a fraction"));
    assert_eq!(ev("(-1)^(10^30 + 1)"), int(-1));
    assert_eq!(ev("1^(10^30)"), int(1));
    assert_eq!(ev("0^(10^30)"), int(0));
    assert_eq!(ev("(2/3)^3"), Value::Num(q("8/27")));
    assert_eq!(ev("2^(-3)"), Value::Num(q("1/8")));
}

#[test]
fn huge_values_are_shown_as_excerpts() {
    let v = ev("list(j in 1..100000: j)");
    let shown = v.short().to_string();
    assert!(
        shown.contains("(99976 more elements)") && shown.len() < 400,
        "{shown}"
    );
    let n = ev("7^5000");
    let shown = n.short().to_string();
    let digits = n.to_string().len();
    assert!(
        shown.contains(&format!("({} more digits)", digits - 60)),
        "{shown}"
    );
    assert!(shown.starts_with(&n.to_string()[..60]), "{shown}");
    // An error echoing a huge value stays short.
    for src in [
        "list(j in 1..100000: j) + 1",
        "not (7^400000)",
        "ilog2(-(7^300000))",
        "list(j in 1..2000000: j)[0]",
        "frak(7^300000, 1, 1)",
        "payoff(1, list(j in 1..100000: 2^40))",
    ] {
        match evaluate(src) {
            Ok(v) => panic!("{src}: {}", v.short()),
            Err(e) => assert!(e.message.len() < 500, "{src}: {} bytes", e.message.len()),
        }
    }
}

#[test]
fn evaluation_errors_are_located_with_a_caret() {
    let src = "paper = \"t\"\ndefine = [\"Inv(x) = 1/x\"]\n[[claim]]\nid = \"c\"\nlabel = \"C\"\n\
               statement = \"s\"\nfor = \"k in -2..2\"\nholds = \"Inv(k) > -5\"\n";
    let reg = parse(src);
    let e = check_claim(&reg, &reg.claims[0], false)
        .unwrap_err()
        .to_string();
    // The division is in the define on line 2: the caret is under the divisor.
    let (at, _) = location_of(src, "1/x", 2);
    assert!(e.starts_with(&at), "{e}");
    assert!(
        e.contains("k = 0") && e.contains("claim `c`") && e.contains('^'),
        "{e}"
    );
    // In the claim's own string.
    let src = claim_file("for = \"k in -2..2\"\nholds = \"6/k != 1/2\"");
    let reg = parse(&src);
    let e = check_claim(&reg, &reg.claims[0], false).unwrap_err();
    let e = e.to_string();
    let (at, _) = location_of(&src, "6/k", 2);
    assert!(e.starts_with(&at), "{e}");
    // A builtin's refusal is shown at the claim's `builtin` line.
    let src = claim_file("builtin = \"octal.no_such\"");
    assert!(parse_err(&src).contains("unknown builtin"));
}

#[test]
fn huge_claim_files_give_short_messages() {
    let long_id = "x".repeat(1 << 20);
    let src = format!(
        "paper = \"t\"\n[[claim]]\nid = \"{long_id}\"\nlabel = \"C\"\nstatement = \"s\"\n\
         holds = \"1/0 == 1\"\n"
    );
    let reg = parse(&src);
    let e = check_claim(&reg, &reg.claims[0], false)
        .unwrap_err()
        .to_string();
    assert!(e.len() < 2000, "{} bytes", e.len());
    let long_line = format!("{}{}", " ".repeat(1 << 20), "1/0 == 1");
    let src = claim_file(&format!("holds = \"{long_line}\""));
    let e = parse_err(&src);
    assert!(e.len() < 2000, "{} bytes", e.len());
}
