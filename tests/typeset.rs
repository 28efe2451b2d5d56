//! Claim expressions typeset as mathematics (issue 16): every check and correction of the four
//! claim files printed as LaTeX (one snapshot a mathematician reads), the rules that keep that
//! LaTeX valid both in pdflatex and in GitHub's `$…$`, no claim-file helper's identifier in any
//! of it, and the source printer's round trip (printed, then parsed: the same expression).

use std::fmt::Write as _;
use std::path::Path;

use nimlab::Registry;
use nimlab::language::{
    Assertion, BinOp, Binder, Check, CmpOp, Definitions, Domain, Expr, ExprCheck, ExprKind, Span,
    binders_math, check_math, check_parts, expr_math, is_literal, math_problem, notation,
    operand_math, parse_binders, parse_expr,
};
use proptest::prelude::*;

const FILES: [&str; 4] = ["scoring-nim", "scoring-octal", "candy-nim", "nim-with-cash"];

fn registry(name: &str) -> Registry {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("data/claims/{name}.toml"));
    Registry::load(&path).unwrap()
}

/// Every expression check of a claim, with the name of its reading (empty for the claim's own).
fn checks(check: &Check) -> Vec<(String, &ExprCheck)> {
    match check {
        Check::Expr(c) => vec![(String::new(), &**c)],
        Check::Readings(rs) => rs.iter().map(|r| (r.name.clone(), &r.check)).collect(),
        Check::Builtin(_) => Vec::new(),
    }
}

/// The expressions a report shows for one check: what it tests and the correction.
fn shown(check: &ExprCheck) -> Vec<&Expr> {
    let mut out = Vec::new();
    match &check.assertion {
        Assertion::Holds(e) => out.push(e),
        Assertion::Equal {
            actual,
            expected,
            correction,
            ..
        } => {
            out.push(actual);
            out.push(expected);
            if let Some((_, c)) = correction {
                out.push(c);
            }
        }
    }
    out.extend(check.filter.iter());
    out
}

/// Each claim file's checks and corrections as a report typesets them, with the Notation list.
fn typeset_file(name: &str) -> (String, Vec<String>) {
    let reg = registry(name);
    let defs = &reg.definitions;
    let mut out = String::new();
    let mut all = Vec::new();
    for claim in &reg.claims {
        for (reading, check) in checks(&claim.check) {
            let label = if reading.is_empty() {
                claim.label.clone()
            } else {
                format!("{} [{reading}]", claim.label)
            };
            let math = check_math(check, defs);
            let _ = writeln!(out, "{label}\n  check: {math}");
            all.push(math);
            if let Assertion::Equal {
                correction: Some((_, c)),
                ..
            } = &check.assertion
            {
                let math = expr_math(c, defs);
                let _ = writeln!(out, "  correction: {math}");
                all.push(math);
            }
            for (shown, means) in notation(&shown(check), defs) {
                let _ = writeln!(out, "  notation: {shown}: {means}");
                all.push(shown);
            }
        }
    }
    (out, all)
}

/// The identifiers of a file's `define`d helpers.
fn helper_names(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("data/claims/{name}.toml"));
    let text = std::fs::read_to_string(path).unwrap();
    let doc: toml::Table = text.parse().unwrap();
    doc.get("define")
        .and_then(|d| d.as_array())
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let def = entry.as_str().or_else(|| entry.get("def")?.as_str())?;
            Some(def[..def.find('(')?].trim().to_string())
        })
        .collect()
}

#[test]
fn every_claim_check_typesets() {
    for name in FILES {
        let (text, _) = typeset_file(name);
        insta::assert_snapshot!(format!("claims_{}", name.replace('-', "_")), text);
    }
}

/// No typeset check or correction breaks pdflatex or GitHub math, and none shows a helper's
/// identifier (`T48C`, `LOG67`, `X56`): helpers are inlined or shown by their display form.
#[test]
fn typeset_claims_are_valid_math_without_helper_names() {
    for name in FILES {
        let helpers = helper_names(name);
        assert!(!helpers.is_empty(), "{name} defines helpers");
        for math in typeset_file(name).1 {
            assert_eq!(math_problem(&math), None, "{name}: {math}");
            for helper in &helpers {
                let leaked = math
                    .match_indices(helper.as_str())
                    .any(|(i, _)| identifier_at(&math, i, helper.len()));
                assert!(!leaked, "{name}: `{helper}` in {math}");
            }
        }
    }
}

/// Whether `text[i..i + len]` is a whole identifier (not part of a longer word or command).
fn identifier_at(text: &str, i: usize, len: usize) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '\\';
    let before = text[..i].chars().next_back().is_none_or(|c| !word(c));
    let after = text[i + len..].chars().next().is_none_or(|c| !word(c));
    before && after
}

fn math(src: &str) -> String {
    expr_math(&parse_expr(src).unwrap(), &Definitions::new())
}

/// The conventions of the printer on small expressions, one line each.
#[test]
fn conventions() {
    for (src, want) in [
        ("2*k + 3*(k-1)", "2k + 3(k - 1)"),
        ("(m - 1) * (2^(k+1) - 2)", "(m - 1)(2^{k + 1} - 2)"),
        ("L * (k + 1)", r"L \cdot (k + 1)"),
        ("2 * 3", r"2 \cdot 3"),
        ("2 * 2^k", r"2 \cdot 2^{k}"),
        ("k * floor(n/2)", r"k\lfloor n/2\rfloor"),
        ("floor(k / 2^i)", r"\lfloor k/2^{i}\rfloor"),
        ("ceil(x)", r"\lceil x\rceil"),
        ("abs(N - j)", r"\lvert N - j\rvert"),
        ("ilog2(N) + 2", r"\lfloor \log_2 N\rfloor + 2"),
        ("ilog2(N + 1)", r"\lfloor \log_2 (N + 1)\rfloor"),
        ("n % (L + 1)", r"n \bmod (L + 1)"),
        ("(n % (L + 1)) % 2 == 0", r"(n \bmod (L + 1)) \bmod 2 = 0"),
        ("x + n % 3", r"x + (n \bmod 3)"),
        ("a ⊕ b + c", r"a \oplus (b + c)"),
        ("xor(a, b, c + 1)", r"a \oplus b \oplus (c + 1)"),
        ("L / 2 * k", "(L/2)k"),
        ("(3L + 1) * k / 2", "(3L + 1)k/2"),
        ("a / (2 * k)", "a/(2k)"),
        ("a - (b - c)", "a - (b - c)"),
        ("a - b - c", "a - b - c"),
        ("a + -b", "a + (-b)"),
        ("-(a + b)", "-(a + b)"),
        ("(-2)^k", "(-2)^{k}"),
        ("-2^k", "-2^{k}"),
        ("2^(2^k)", "2^{2^{k}}"),
        ("(a^b)^c", "(a^{b})^{c}"),
        ("n_F^2 + a1", "{n_{F}}^{2} + a_{1}"),
        ("x' + sg", r"x' + \mathit{sg}"),
        ("alpha", r"\alpha"),
        ("0 <= x < 2^k", r"0 \le x < 2^{k}"),
        ("a != b and not (c == d)", r"a \ne b \text{ and } c \ne d"),
        ("not (a < b)", r"a \ge b"),
        ("a or b and c", r"a \text{ or } (b \text{ and } c)"),
        ("not is_int(x)", r"x \notin \mathbb{Z}"),
        // A case distinction is a `cases` block read from the top (a branch that is one adds
        // rows of its own); whatever follows it is kept out by brackets grown to its height,
        // since its last row would seem to go on.
        (
            r#"if c == b then "II" else "I""#,
            r"\begin{cases} \mathrm{II} & \text{if } c = b,\cr \mathrm{I} & \text{otherwise} \end{cases}",
        ),
        (
            "if a then 1 else if b then 2 else 3",
            r"\begin{cases} 1 & \text{if } a,\cr 2 & \text{if } b,\cr 3 & \text{otherwise} \end{cases}",
        ),
        (
            "if a then (if b then 1 else 2) else 3",
            r"\begin{cases} 1 & \text{if } a \text{ and } b,\cr 2 & \text{if } a,\cr 3 & \text{otherwise} \end{cases}",
        ),
        (
            "(if a then 1 else 2) + 1",
            r"\left(\begin{cases} 1 & \text{if } a,\cr 2 & \text{otherwise} \end{cases}\right) + 1",
        ),
        (
            "n - (if a then 1 else 2)",
            r"n - \begin{cases} 1 & \text{if } a,\cr 2 & \text{otherwise} \end{cases}",
        ),
        (
            "(if a then 1 else 2) + (if b then 1 else 2) - 1",
            r"\left(\begin{cases} 1 & \text{if } a,\cr 2 & \text{otherwise} \end{cases}\right) + \left(\begin{cases} 1 & \text{if } b,\cr 2 & \text{otherwise} \end{cases}\right) - 1",
        ),
        (
            "x == (if a then 1 else 2)",
            r"x = \begin{cases} 1 & \text{if } a,\cr 2 & \text{otherwise} \end{cases}",
        ),
        (
            "(if a then 1 else 2) == x",
            r"\left(\begin{cases} 1 & \text{if } a,\cr 2 & \text{otherwise} \end{cases}\right) = x",
        ),
        (
            "[if a then 1 else 2, 0]",
            r"[\left(\begin{cases} 1 & \text{if } a,\cr 2 & \text{otherwise} \end{cases}\right), 0]",
        ),
        (
            "let i = n % 5 in let l = 2 in [i, l]",
            r"[i, l] \text{ where } i = n \bmod 5,\ l = 2",
        ),
        ("sum(j in 1..k: 2^j - 1)", r"\sum_{j=1}^{k} (2^{j} - 1)"),
        // A big operator extends to the right: what follows it is kept out by brackets.
        ("sum(j in 1..k: j) + 1", r"(\sum_{j=1}^{k} j) + 1"),
        ("1 + sum(j in 1..k: j)", r"1 + \sum_{j=1}^{k} j"),
        ("1 + sum(j in 1..k: j) + 2", r"1 + (\sum_{j=1}^{k} j) + 2"),
        ("2 * sum(j in 1..k: j)", r"2\sum_{j=1}^{k} j"),
        ("if k > 0 then 1 + k else true", r"k > 0 \Rightarrow 1 + k"),
        ("sum(j in 3..3: j)", r"\sum_{j=3}^{3} j"),
        (
            "min(j in -(2k-2)..2k-2 step 2: abs(N - j))",
            r"\min_{j \in \lbrace -(2k - 2), -(2k - 2) + 2, \dots, 2k - 2\rbrace} \lvert N - j\rvert",
        ),
        (
            "max(j in 1..10 step 1/2: j)",
            r"\max_{j \in \tfrac{1}{2}\mathbb{Z},\ 1 \le j \le 10} j",
        ),
        ("min(j in 0..n: j^2)", r"\min_{0 \le j \le n} j^{2}"),
        (
            "all(h in 0..a-1: h < a)",
            r"\forall 0 \le h \le a - 1\colon\ h < a",
        ),
        ("any(x in p: x > 1)", r"\exists x \in p\colon\ x > 1"),
        (
            "count(b in 0..y-1: b > 2)",
            r"\lvert\lbrace 0 \le b \le y - 1 : b > 2\rbrace\rvert",
        ),
        ("list(j in 0..n-2: 2^j)", r"[2^{0}, \dots, 2^{n - 2}]"),
        ("[a, b, xor(a, b)]", r"[a, b, a \oplus b]"),
        ("min([1, L])", r"\min(1, L)"),
        ("min(p)", r"\min p"),
        ("len(p)", r"\lvert p\rvert"),
        ("payoff(N, [6, 4, 1])", "f_{N}(6, 4, 1)"),
        ("payoff(-1 - t, p)", "f_{-1 - t}(p)"),
        ("2 * payoff(N, p)", "2f_{N}(p)"),
        ("k * payoff(N, p)", r"k \cdot f_{N}(p)"),
        ("cplus([3, 2, 1])", "c^{+}(3, 2, 1)"),
        ("in_pplus([5, 4, 2])", r"(5, 4, 2) \in P^{+}"),
        ("candy_v([31, 32m, 32m+31])", "V([31, 32m, 32m + 31])"),
        ("candy_nl(p) - candy_nw(p)", "N_{L}(p) - N_{W}(p)"),
        ("frak(2^k - 1, m, 0)", r"\mathfrak{G}(2^{k} - 1, m, 0)"),
        ("f1([1, L], n)", r"f_{\lbrace 1, L\rbrace}^{\mathrm{I}}(n)"),
        ("g2(A, n)", r"g_{A}^{\mathrm{II}}(n)"),
        ("least_f1(A, n)", r"f_{A,\mathrm{least}}^{\mathrm{I}}(n)"),
        ("winner(A, n)", "W_{A}(n)"),
        ("cash_winner(A, n, d, e)", r"W_{A}^{\mathrm{cash}}(n; d, e)"),
        (
            r#"gs("{4,5}", n)"#,
            r"\mathcal{G}_{s}^{\mathrm{\lbrace 4,5\rbrace }}(n)",
        ),
        ("true", r"\mathrm{true}"),
        (
            "(a != b) == (abs(t) <= c)",
            r"(a \ne b) \iff (\lvert t\rvert \le c)",
        ),
        ("(a < b) == true", r"(a < b) \iff \mathrm{true}"),
        ("(a == b) == c", "(a = b) = c"),
    ] {
        assert_eq!(math(src), want, "{src}");
        assert_eq!(math_problem(want), None, "{want}");
    }
}

/// A stepped range is written as the lattice it runs on with its bounds, not as a list: the
/// step $s$ gives $s\mathbb{Z}$ when the start is a multiple of it, else the start's residue
/// $a + s\mathbb{Z}$ with $0 < a < s$; at most four points are listed; a step that is not a
/// number, or a start that is not, keeps the list form.
#[test]
fn stepped_ranges_print_as_lattices() {
    for (src, want) in [
        (
            "N in -8..8 step 1/2",
            r"N \in \tfrac{1}{2}\mathbb{Z},\ -8 \le N \le 8",
        ),
        (
            "M in 6..8 step 1/4",
            r"M \in \tfrac{1}{4}\mathbb{Z},\ 6 \le M \le 8",
        ),
        ("N in 2..40 step 2", r"N \in 2\mathbb{Z},\ 2 \le N \le 40"),
        (
            "L in 3..13 step 2",
            r"L \in 1 + 2\mathbb{Z},\ 3 \le L \le 13",
        ),
        (
            "t in -7/4..3 step 1/2",
            r"t \in \tfrac{1}{4} + \tfrac{1}{2}\mathbb{Z},\ -\tfrac{7}{4} \le t \le 3",
        ),
        (
            "x in 1/2..9/2 step 1",
            r"x \in \tfrac{1}{2} + \mathbb{Z},\ \tfrac{1}{2} \le x \le \tfrac{9}{2}",
        ),
        ("k in 0..10 step 1", r"0 \le k \le 10"),
        (
            "N in 0..n step 1/2",
            r"N \in \tfrac{1}{2}\mathbb{Z},\ 0 \le N \le n",
        ),
        (
            "j in -(2k-2)..2k-2 step 2",
            r"j \in \lbrace -(2k - 2), -(2k - 2) + 2, \dots, 2k - 2\rbrace",
        ),
        (
            "j in 1..9 step k",
            r"j \in \lbrace 1, 1 + k, \dots, 9\rbrace",
        ),
        (
            "t in -1/2..1 step 1/2",
            r"t \in \lbrace -\tfrac{1}{2}, 0, \tfrac{1}{2}, 1\rbrace",
        ),
        (
            "sg in -1..1 step 2",
            r"\mathit{sg} \in \lbrace -1, 1\rbrace",
        ),
    ] {
        let got = binders_math(&parse_binders(src).unwrap(), &Definitions::new());
        assert_eq!(got, want, "{src}");
        assert_eq!(math_problem(&got), None, "{got}");
    }
}

/// A counterexample's value is named by its expression as one side of an equation: bracketed
/// when it binds more loosely than `=`; a literal names nothing beyond its value.
#[test]
fn a_labelled_value_names_its_expression_as_an_operand() {
    let defs = Definitions::new();
    let operand = |src: &str| operand_math(&parse_expr(src).unwrap(), &defs);
    assert_eq!(
        operand(r#"if a then "I" else "II""#),
        r"\left(\begin{cases} \mathrm{I} & \text{if } a,\cr \mathrm{II} & \text{otherwise} \end{cases}\right)"
    );
    assert_eq!(operand("a and b"), r"(a \text{ and } b)");
    assert_eq!(operand("2*k + 1"), "2k + 1");
    assert_eq!(operand("a ⊕ b"), r"a \oplus b");
    for (src, literal) in [
        ("3", true),
        ("-3", true),
        ("true", true),
        (r#""II""#, true),
        ("[1, -2, [true]]", true),
        ("k", false),
        ("[1, k]", false),
        ("2 + 3", false),
    ] {
        assert_eq!(is_literal(&parse_expr(src).unwrap()), literal, "{src}");
    }
}

/// A check's formula, range and condition come apart for a report to set on lines of their
/// own, and join to exactly `check_math`.
#[test]
fn a_check_comes_apart_into_formula_range_and_condition() {
    let reg = Registry::parse(
        Path::new("toy.toml"),
        r#"
paper = "toy"
[[claim]]
id = "a"
label = "A"
statement = "s"
for = "k in 1..12, m in 0..4 step 2"
where = "k > m"
actual = "2^k"
expected = "k + m"
"#,
    )
    .unwrap();
    let Check::Expr(check) = &reg.claims[0].check else {
        panic!("an expression check")
    };
    let parts = check_parts(check, &reg.definitions);
    assert_eq!(parts.formula, "2^{k} = k + m");
    assert_eq!(
        parts.range.as_deref(),
        Some(r"1 \le k \le 12,\ m \in \lbrace 0, 2, 4\rbrace")
    );
    assert_eq!(parts.condition.as_deref(), Some("k > m"));
    assert_eq!(
        check_math(check, &reg.definitions),
        format!(
            r"{} \text{{ for }} {} \text{{ such that }} {}",
            parts.formula,
            parts.range.unwrap(),
            parts.condition.unwrap()
        )
    );
}

/// A helper without a display form is inlined with its arguments substituted; a bound name
/// that an argument mentions is renamed, so nothing is captured.
#[test]
fn helpers_are_inlined_without_capture() {
    let file = r#"
paper = "demo"
define = [
  "F(k, N) = 2 - min(j in -(2k-2)..2k-2 step 2: abs(N - j))",
  "G(x) = F(1, x) + 1",
  { def = "L(N, lo) = [N, lo]", display = "\\mathcal{L}_{#lo}(#N)", means = "the list of $N$ and $lo$" },
  { def = "H(a, b) = a + b", display = "H #a", means = "a sum" },
]
[[claim]]
id = "a"
label = "A"
statement = "s"
for = "j in 1..2"
holds = "F(2, j + 1) >= G(j) and len(L(j, 2)) == 2 and H(j, j) == H(j + 1, 2)"
"#;
    let reg = Registry::parse(Path::new("demo.toml"), file).unwrap();
    let Check::Expr(check) = &reg.claims[0].check else {
        panic!("an expression check")
    };
    let Assertion::Holds(e) = &check.assertion else {
        panic!("holds")
    };
    let defs = &reg.definitions;
    assert_eq!(
        expr_math(e, defs),
        // The bound `j` of F is renamed `j'` (an argument mentions `j`), F's arithmetic on
        // numbers is done, and H's placeholder, not delimited, brackets a sum.
        r"2 - \min_{j' \in \lbrace -2, 0, 2\rbrace} \lvert j + 1 - j'\rvert \ge (2 - \min_{j' \in \lbrace 0\rbrace} \lvert j - j'\rvert) + 1 \text{ and } \lvert \mathcal{L}_{2}(j)\rvert = 2 \text{ and } H j = H (j + 1)"
    );
    assert_eq!(
        notation(&[e], defs),
        [
            (
                r"\mathcal{L}_{\mathit{lo}}(N)".to_string(),
                "the list of $N$ and $lo$".to_string()
            ),
            ("H a".to_string(), "a sum".to_string())
        ]
    );
    assert_eq!(
        check_math(check, defs).split(r" \text{ for } ").nth(1),
        Some(r"1 \le j \le 2")
    );
}

/// A display form that would break the math, or names no parameter, is refused at load with the
/// place in the file.
#[test]
fn bad_display_forms_are_refused() {
    for (display, needle) in [
        (r"\\lvert #x|", "`|`"),
        (r"\\{#x\\}", r"`\{`"),
        (r"F_{#y}", "`#y`"),
        (r"{#x", "unbalanced"),
    ] {
        let file = format!(
            "paper = \"demo\"\ndefine = [{{ def = \"F(x) = x\", display = \"{display}\", means = \"m\" }}]\n"
        );
        let e = Registry::parse(Path::new("demo.toml"), &file)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(needle) && e.contains("demo.toml:2:"),
            "{display}: {e}"
        );
    }
    let missing = "paper = \"demo\"\ndefine = [{ def = \"F(x) = x\", display = \"F\" }]\n";
    let e = Registry::parse(Path::new("demo.toml"), missing).unwrap_err();
    assert!(e.to_string().contains("means"), "{e}");
}

// ---- the source printer: printed, then parsed, gives the same expression ----

const NAMES: [&str; 6] = ["k", "N", "a1", "n_F", "x'", "sg"];

fn leaf() -> impl Strategy<Value = Expr> + Clone {
    prop_oneof![
        (0u64..1000).prop_map(|n| ExprKind::Int(n.into())),
        any::<bool>().prop_map(ExprKind::Bool),
        prop::sample::select(NAMES.to_vec()).prop_map(|n| ExprKind::Var(n.to_string())),
        "[a-zA-Z0-9{},.() ]{0,6}".prop_map(|s: String| ExprKind::Str(s.into())),
    ]
    .prop_map(node)
}

fn node(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

fn binder(inner: impl Strategy<Value = Expr> + Clone) -> impl Strategy<Value = Binder> {
    let name = prop::sample::select(vec!["j", "i", "p"]);
    let interval = (
        inner.clone(),
        inner.clone(),
        prop::option::of(inner.clone()),
    )
        .prop_map(|(from, to, step)| Domain::Interval { from, to, step });
    let members = inner.prop_map(Domain::Members);
    (name, prop_oneof![interval, members]).prop_map(|(name, domain)| Binder {
        name: name.to_string(),
        span: Span::default(),
        domain,
    })
}

fn expr() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(5, 48, 4, |inner| {
        let op = prop::sample::select(vec![
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Mod,
            BinOp::Pow,
            BinOp::Xor,
            BinOp::And,
            BinOp::Or,
        ]);
        let cmp = prop::sample::select(vec![
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ]);
        let name = prop::sample::select(vec!["floor", "payoff", "F"]);
        let aggregate = prop::sample::select(vec!["sum", "min", "all", "list"]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(ExprKind::List),
            inner.clone().prop_map(|x| ExprKind::Neg(boxed(x))),
            inner.clone().prop_map(|x| ExprKind::Not(boxed(x))),
            (op, inner.clone(), inner.clone()).prop_map(|(op, a, b)| ExprKind::Binary(
                op,
                boxed(a),
                boxed(b)
            )),
            (
                inner.clone(),
                prop::collection::vec((cmp, inner.clone()), 1..3)
            )
                .prop_map(|(first, rest)| ExprKind::Compare(boxed(first), rest)),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| ExprKind::If(
                boxed(c),
                boxed(a),
                boxed(b)
            )),
            (
                prop::sample::select(NAMES.to_vec()),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(n, v, b)| ExprKind::Let(n.to_string(), boxed(v), boxed(b))),
            (name, prop::collection::vec(inner.clone(), 0..3))
                .prop_map(|(n, args)| ExprKind::Call(n.to_string(), args)),
            (
                aggregate,
                prop::collection::vec(binder(inner.clone()), 1..3),
                inner.clone()
            )
                .prop_map(|(n, bs, body)| ExprKind::Aggregate(
                    n.to_string(),
                    bs,
                    boxed(body)
                )),
        ]
        .prop_map(node)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Any tree the parser can produce (integer literals are non-negative: `-3` is a negation)
    /// prints to source that parses back to the same tree; the printed LaTeX is valid math.
    #[test]
    fn printed_source_parses_back(e in expr()) {
        let text = e.to_string();
        let back = parse_expr(&text).map_err(|err| TestCaseError::fail(format!("{text}: {err}")))?;
        prop_assert_eq!(back.unplaced(), e.unplaced(), "{}", text);
        let latex = expr_math(&e, &Definitions::new());
        prop_assert_eq!(math_problem(&latex), None, "{}", latex);
    }

    #[test]
    fn printed_binders_parse_back(b in binder(leaf())) {
        let text = b.to_string();
        let back = parse_binders(&text).map_err(|err| TestCaseError::fail(format!("{text}: {err}")))?;
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(back[0].unplaced(), b.unplaced(), "{}", text);
    }
}

/// The README's file-format example (a plain helper and one with a display form) loads, and the
/// display form is what reports show.
#[test]
fn readme_example_with_a_display_form_loads() {
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/claims/README.md"),
    )
    .unwrap();
    let start = readme.find("```toml\n").unwrap() + "```toml\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let reg = Registry::parse(Path::new("README.md"), &readme[start..end]).unwrap();
    let call = parse_expr("F(2, N) + nz(N)").unwrap();
    assert_eq!(
        expr_math(&call, &reg.definitions),
        r"F_{2}(N) + \begin{cases} 1 & \text{if } N > 0,\cr 0 & \text{otherwise} \end{cases}"
    );
    assert_eq!(notation(&[&call], &reg.definitions).len(), 1);
}
