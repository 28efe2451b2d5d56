//! Mathematics typeset as mathematics: the expression language's syntax tree printed as a
//! LaTeX math body, valid both in pdflatex and inside GitHub's `$…$` spans.
//!
//! This is a stand-in with the agreed signatures (issue 16, helper H1 owns the real printer):
//! variables italic, calls as upright names, `⌊a/b⌋` as `\lfloor … \rfloor`, `|x|` as
//! `\lvert … \rvert`, comparisons and quantifier lists with `\le`. It never emits `|`, `\{`,
//! `\\` or `*`, which GitHub's math parser misreads.

use super::eval::Definitions;
use super::expr::{BinOp, Binder, CmpOp, Domain, Expr, ExprKind};
use super::registry::{Assertion, ExprCheck};

/// LaTeX math body (no `$` delimiters) valid in pdflatex and in GitHub `$…$`.
pub fn expr_math(expr: &Expr, defs: &Definitions) -> String {
    let _ = defs;
    print(expr, 0)
}

/// "1 \le k \le 12,\ 1 \le m \le 2^{8-k}-1" for a quantifier list.
pub fn binders_math(binders: &[Binder], defs: &Definitions) -> String {
    binders
        .iter()
        .map(|b| match &b.domain {
            Domain::Interval { from, to, step } => {
                let mut s = format!(
                    "{} \\le {} \\le {}",
                    expr_math(from, defs),
                    name(&b.name),
                    expr_math(to, defs)
                );
                if let Some(step) = step {
                    s.push_str(&format!(" \\text{{ step }} {}", expr_math(step, defs)));
                }
                s
            }
            Domain::Members(list) => format!("{} \\in {}", name(&b.name), expr_math(list, defs)),
        })
        .collect::<Vec<_>>()
        .join(",\\ ")
}

/// The exact reading an expression check tests, as one formula with its range:
/// "V([31, 32m, 32m+31]) = 62(m-1)+98 \text{ for } 1 \le m \le 64".
pub fn check_math(check: &ExprCheck, defs: &Definitions) -> String {
    let body = match &check.assertion {
        Assertion::Holds(e) => expr_math(e, defs),
        Assertion::Equal {
            actual, expected, ..
        } => format!(
            "{} = {}",
            expr_math(actual, defs),
            expr_math(expected, defs)
        ),
    };
    let mut s = body;
    if let Some(filter) = &check.filter {
        s.push_str(&format!(" \\text{{ where }} {}", expr_math(filter, defs)));
    }
    if !check.range.binders.is_empty() {
        s.push_str(&format!(
            " \\text{{ for }} {}",
            binders_math(&check.range.binders, defs)
        ));
    }
    s
}

/// The helpers a set of expressions uses that carry a display form, with their meaning, for a
/// "Notation" list (name as typeset, meaning in prose with `$…$`).
pub fn notation(exprs: &[&Expr], defs: &Definitions) -> Vec<(String, String)> {
    let _ = (exprs, defs);
    Vec::new()
}

/// A name: one letter italic, longer names upright.
fn name(n: &str) -> String {
    if n.chars().count() == 1 {
        n.to_string()
    } else {
        format!("\\mathit{{{}}}", n.replace('_', "\\_"))
    }
}

/// Binding strength, for parentheses.
fn strength(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::Xor => 4,
        BinOp::Add | BinOp::Sub => 5,
        BinOp::Mul | BinOp::Div | BinOp::Mod => 6,
        BinOp::Pow => 7,
    }
}

fn print(e: &Expr, outer: u8) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => format!("\\mathrm{{{b}}}"),
        ExprKind::Str(s) => format!("\\text{{{}}}", s.replace(['{', '}', '\\', '$'], "")),
        ExprKind::List(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|i| print(i, 0))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ExprKind::Var(v) => name(v),
        ExprKind::Neg(x) => format!("-{}", print(x, 8)),
        ExprKind::Not(x) => format!("\\lnot {}", print(x, 8)),
        ExprKind::Binary(op, a, b) => {
            let s = strength(*op);
            let text = match op {
                BinOp::Div => format!("\\frac{{{}}}{{{}}}", print(a, 0), print(b, 0)),
                BinOp::Pow => format!("{}^{{{}}}", print(a, 8), print(b, 0)),
                BinOp::Mul => format!("{} \\cdot {}", print(a, s), print(b, s + 1)),
                BinOp::Mod => format!("{} \\bmod {}", print(a, s), print(b, s + 1)),
                BinOp::Add => format!("{} + {}", print(a, s), print(b, s + 1)),
                BinOp::Sub => format!("{} - {}", print(a, s), print(b, s + 1)),
                BinOp::Xor => format!("{} \\oplus {}", print(a, s), print(b, s + 1)),
                BinOp::And => format!("{} \\land {}", print(a, s), print(b, s + 1)),
                BinOp::Or => format!("{} \\lor {}", print(a, s), print(b, s + 1)),
            };
            if s < outer && !matches!(op, BinOp::Div) {
                format!("\\left({text}\\right)")
            } else {
                text
            }
        }
        ExprKind::Compare(first, rest) => {
            let mut s = print(first, 3);
            for (op, x) in rest {
                let sym = match op {
                    CmpOp::Eq => "=",
                    CmpOp::Ne => "\\ne",
                    CmpOp::Lt => "<",
                    CmpOp::Le => "\\le",
                    CmpOp::Gt => ">",
                    CmpOp::Ge => "\\ge",
                };
                s.push_str(&format!(" {sym} {}", print(x, 3)));
            }
            if outer > 3 {
                format!("\\left({s}\\right)")
            } else {
                s
            }
        }
        ExprKind::If(c, a, b) => format!(
            "\\begin{{cases}} {} & \\text{{if }} {} \\\\ {} & \\text{{otherwise}} \\end{{cases}}",
            print(a, 0),
            print(c, 0),
            print(b, 0)
        )
        .replace("\\\\", "\\cr"),
        ExprKind::Let(v, value, body) => format!(
            "{} \\text{{ with }} {} = {}",
            print(body, outer),
            name(v),
            print(value, 0)
        ),
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args.iter().map(|a| print(a, 0)).collect();
            match (f.as_str(), args.as_slice()) {
                ("floor", [x]) => format!("\\left\\lfloor {x} \\right\\rfloor"),
                ("ceil", [x]) => format!("\\left\\lceil {x} \\right\\rceil"),
                ("abs", [x]) => format!("\\left\\lvert {x} \\right\\rvert"),
                _ => format!(
                    "\\operatorname{{{}}}({})",
                    f.replace('_', "\\_"),
                    args.join(", ")
                ),
            }
        }
        ExprKind::Aggregate(f, binders, body) => {
            let op = match f.as_str() {
                "min" => "\\min".to_string(),
                "max" => "\\max".to_string(),
                "sum" => "\\sum".to_string(),
                other => format!("\\operatorname*{{{}}}", other.replace('_', "\\_")),
            };
            format!(
                "{op}_{{{}}} {}",
                binders_math(binders, &Definitions::new()),
                print(body, 8)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::expr::{parse_binders, parse_expr};

    #[test]
    fn expressions_print_as_math_without_characters_github_misreads() {
        let defs = Definitions::new();
        let e = parse_expr("floor(n / 2) + abs(N - 3) * 2^(k+1)").unwrap();
        let m = expr_math(&e, &defs);
        assert!(m.contains("\\lfloor") && m.contains("\\lvert") && m.contains("^{k + 1}"));
        assert!(!m.contains('|') && !m.contains('*'));
        let b = parse_binders("k in 1..12, m in 1..2^(8-k)-1").unwrap();
        assert_eq!(
            binders_math(&b, &defs),
            "1 \\le k \\le 12,\\ 1 \\le m \\le 2^{8 - k} - 1"
        );
    }
}
