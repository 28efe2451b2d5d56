//! The second-level analysis ([`crate::miner::across`]) as a reader sees it: each quantity
//! across the family's parameter L — the period P(L), where the forms are proven from, the
//! common slope B(L), and each function's intercept table c_0 … c_{P−1} — as TeX formulas with
//! the coefficients' closed forms substituted (`c_i = ⌈i/2⌉` for 0 ≤ i < P − 1, not
//! `a₀(L)·⌈i/2⌉ + b₀(L)` and a list of a₀, b₀), and as rows of a table in words.
//!
//! A coefficient that is not affine in L (periodic in the index of L, or without a form) stays
//! a symbol, a_k(L), and its own line says what is known of it. Everything is OBSERVED on the
//! range of L: each member's forms are proven, the pattern across L is not.

use crate::export::{Cell, Table};
use crate::miner::{AcrossAnalysis, AcrossFit, FloorForm, FloorKind, InterceptsAcross};
use crate::num::Q;

use super::mined::affine_math;

/// The columns of [`across_forms_table`].
pub const ACROSS_FORM_COLUMNS: [&str; 3] = ["quantity", "status", "formula"];

/// One quantity across L: found or not, in the miner's words and as TeX.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcrossForm {
    /// What it is: `period`, `proven_from`, `slope`, or a function's name.
    pub quantity: String,
    /// Whether a closed form across L was found.
    pub found: bool,
    /// The miner's own text (what `nimlab mine across` prints).
    pub text: String,
    /// The form as `$…$` formulas (or a sentence with `$…$` mathematics when none was found).
    pub formulas: Vec<String>,
}

/// The analysis of a family in the parameter `param` as forms: the period, the start, the
/// slope, then each function, named as a quantity and typeset by `functions[j]` = (quantity,
/// TeX symbol) in the analysis's order.
pub fn across_forms(
    analysis: &AcrossAnalysis,
    param: &str,
    functions: &[(&str, &str)],
) -> Vec<AcrossForm> {
    let l = param_math(param);
    let mut out = vec![
        scalar_form("period", "P", &analysis.period, &l),
        scalar_form("proven_from", "n_{0}", &analysis.proven_from, &l),
    ];
    match &analysis.slope {
        Some(fit) => out.push(scalar_form("slope", "B", fit, &l)),
        None => out.push(AcrossForm {
            quantity: "slope".into(),
            found: false,
            text: "slopes differ between residues for some L".into(),
            formulas: vec!["the slopes $B_{i}$ differ between residues for some $L$".into()],
        }),
    }
    for (f, (quantity, symbol)) in analysis.functions.iter().zip(functions) {
        let mut form = function_form(&f.name, symbol, &f.across, &l);
        form.quantity = quantity.to_string();
        out.push(form);
    }
    out
}

/// The forms as a table: one row per quantity, its status and its form in words.
pub fn across_forms_table(forms: &[AcrossForm]) -> Table {
    let mut t = Table::new(&ACROSS_FORM_COLUMNS);
    for f in forms {
        t.push(vec![
            Cell::Text(f.quantity.clone()),
            Cell::Text(if f.found { "OBSERVED" } else { "NONE" }.into()),
            Cell::Text(
                f.text
                    .lines()
                    .map(str::trim)
                    .filter(|line| !line.is_empty())
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
        ]);
    }
    t
}

/// A parameter's name as TeX: a single letter as is, a longer name upright.
fn param_math(param: &str) -> String {
    crate::claims::typeset::name_math(param)
}

/// period, start or slope: `$P(L) = L + 1$`.
fn scalar_form(quantity: &str, symbol: &str, fit: &AcrossFit, l: &str) -> AcrossForm {
    let text = fit.text(quantity);
    match fit {
        AcrossFit::Affine { slope, constant } => AcrossForm {
            quantity: quantity.into(),
            found: true,
            text,
            formulas: vec![format!(
                "${symbol}({l}) = {}$",
                affine_math(slope, constant, l)
            )],
        },
        AcrossFit::PeriodicInIndex { .. } => AcrossForm {
            quantity: quantity.into(),
            found: true,
            formulas: vec![periodic_in_index_math(symbol, fit, l)],
            text,
        },
        AcrossFit::None => AcrossForm {
            quantity: quantity.into(),
            found: false,
            text,
            formulas: vec![format!("no closed form of ${symbol}({l})$ across ${l}$")],
        },
    }
}

/// `$P(L) = L + 1$ for $L \equiv 0 \pmod{2}$; $P(L) = 2L + 1$ for $L \equiv 1 \pmod{2}$,
/// $L \ge 2$`, then the members before the preperiod.
fn periodic_in_index_math(symbol: &str, fit: &AcrossFit, l: &str) -> String {
    fit.per_class(
        |c| {
            format!(
                r"${symbol}({l}) = {}$ for ${l} \equiv {} \pmod{{{}}}$",
                affine_math(&c.slope, &c.constant, l),
                c.residue,
                c.modulus
            )
        },
        |first| format!(r"${l} \ge {first}$"),
        |at, v| format!("${symbol}({at}) = {v}$"),
    )
    .unwrap_or_else(|| format!("no closed form of ${symbol}({l})$ across ${l}$"))
}

/// One function's intercepts across L.
fn function_form(name: &str, symbol: &str, across: &InterceptsAcross, l: &str) -> AcrossForm {
    let text = across.text(name);
    let head = format!("${symbol}(Pk + i) = B_{{i}}k + c_{{i}}$ for $0 \\le i < P$");
    match across {
        InterceptsAcross::Whole(form) => AcrossForm {
            quantity: name.into(),
            found: true,
            text,
            formulas: vec![format!(
                "${symbol}(n) = {}$ for $n \\ge n_{{0}}({l})$, the same for every ${l}$",
                floor_form_math(form, "n")
            )],
        },
        InterceptsAcross::NoForm => AcrossForm {
            quantity: name.into(),
            found: false,
            text,
            formulas: vec![
                head,
                "no member's intercepts $c_{i}$ have a floor or ceiling form in $i$".into(),
            ],
        },
        InterceptsAcross::ShapeChanges => AcrossForm {
            quantity: name.into(),
            found: false,
            text,
            formulas: vec![
                head,
                format!(
                    "the forms of the intercepts $c_{{i}}$ change shape across ${l}$ (or fewer than four members share one)"
                ),
            ],
        },
        InterceptsAcross::Forms {
            from_l,
            pieces,
            tail,
        } => {
            let mut formulas = vec![format!("{head}, for ${l} \\ge {from_l}$:")];
            let mut notes = Vec::new();
            let mut coefficient = |fit: &AcrossFit, name: String| -> Coefficient {
                match fit {
                    AcrossFit::Affine { slope, constant } => {
                        Coefficient::Affine(slope.clone(), constant.clone())
                    }
                    _ => {
                        notes.push(periodic_in_index_math(&name, fit, l));
                        Coefficient::Symbol(format!("{name}({l})"))
                    }
                }
            };
            let mut starts = Vec::new();
            let mut bodies = Vec::new();
            for (k, piece) in pieces.iter().enumerate() {
                let start = piece
                    .start
                    .as_ref()
                    .map(|s| coefficient(s, format!("s_{{{k}}}")));
                let var = if k == 0 { "i" } else { "j" };
                let term = match piece.kind {
                    FloorKind::Line => var.to_string(),
                    FloorKind::Floor => format!("\\lfloor {var}/2 \\rfloor"),
                    FloorKind::Ceil => format!("\\lceil {var}/2 \\rceil"),
                };
                let mut terms = vec![
                    (coefficient(&piece.slope, format!("a_{{{k}}}")), term),
                    (
                        coefficient(&piece.constant, format!("b_{{{k}}}")),
                        String::new(),
                    ),
                ];
                if let Some(d) = &piece.parity {
                    terms.push((
                        coefficient(d, format!("d_{{{k}}}")),
                        format!("({var} \\bmod 2)"),
                    ));
                }
                starts.push(start.map(|s| s.math(l)));
                bodies.push(sum_math(&terms, l));
            }
            let tail_len = tail.len();
            let end_all = if tail_len == 0 {
                "P".to_string()
            } else {
                format!("P - {tail_len}")
            };
            for (k, body) in bodies.iter().enumerate() {
                let end = match starts.get(k + 1) {
                    Some(Some(next)) => next.clone(),
                    _ => end_all.clone(),
                };
                formulas.push(match &starts[k] {
                    None => format!("$c_{{i}} = {body}$ for $0 \\le i < {end}$"),
                    Some(s) => format!("$c_{{{s} + j}} = {body}$ for $0 \\le {s} + j < {end}$"),
                });
            }
            for (back, fit) in tail {
                let symbol = format!("c_{{P - {back}}}");
                formulas.push(match fit {
                    AcrossFit::Affine { slope, constant } => {
                        format!("${symbol} = {}$", affine_math(slope, constant, l))
                    }
                    _ => periodic_in_index_math(&symbol, fit, l),
                });
            }
            formulas.extend(notes);
            AcrossForm {
                quantity: name.into(),
                found: true,
                text,
                formulas,
            }
        }
    }
}

/// A coefficient of an intercept form: affine in L (slope, constant), or a symbol when it is
/// not.
enum Coefficient {
    Affine(Q, Q),
    Symbol(String),
}

impl Coefficient {
    fn math(&self, l: &str) -> String {
        match self {
            Coefficient::Affine(slope, constant) => affine_math(slope, constant, l),
            Coefficient::Symbol(s) => s.clone(),
        }
    }
}

/// Σ coefficient·term as TeX, zero terms left out, a coefficient 1 or −1 written as a sign,
/// and a coefficient with two terms of its own in parentheses: `(L + 1)\lceil i/2\rceil - 2`.
fn sum_math(terms: &[(Coefficient, String)], l: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (c, term) in terms {
        let part = match c {
            Coefficient::Affine(slope, constant) if slope.is_zero() => {
                let q = constant;
                if q.is_zero() {
                    continue;
                }
                match (term.is_empty(), q) {
                    (true, _) => affine_math(&Q::zero(), q, l),
                    (false, q) if *q == Q::one() => term.clone(),
                    (false, q) if *q == -Q::one() => format!("-{term}"),
                    (false, q) => format!("{}{term}", affine_math(&Q::zero(), q, l)),
                }
            }
            _ if term.is_empty() => c.math(l),
            _ => format!("({}){term}", c.math(l)),
        };
        parts.push(part);
    }
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        match (i, p.strip_prefix('-')) {
            (0, _) => out.push_str(p),
            (_, Some(rest)) => out.push_str(&format!(" - {rest}")),
            (_, None) => out.push_str(&format!(" + {p}")),
        }
    }
    if out.is_empty() { "0".into() } else { out }
}

/// A floor/ceil form in `var` as TeX: `3\lceil n/2\rceil`, `2\lfloor n/2\rfloor + 1 + (n \bmod 2)`.
pub fn floor_form_math(form: &FloorForm, var: &str) -> String {
    let term = match form.kind {
        FloorKind::Line => var.to_string(),
        FloorKind::Floor => format!("\\lfloor {var}/2 \\rfloor"),
        FloorKind::Ceil => format!("\\lceil {var}/2 \\rceil"),
    };
    let terms = [
        (Coefficient::Affine(Q::zero(), form.slope.clone()), term),
        (
            Coefficient::Affine(Q::zero(), form.constant.clone()),
            String::new(),
        ),
        (
            Coefficient::Affine(Q::zero(), form.parity.clone()),
            format!("({var} \\bmod 2)"),
        ),
    ];
    sum_math(&terms, var)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::miner::{AcrossMember, across_analysis};

    /// c_i = ⌈i/2⌉ on 0 ≤ i < P − 1 and c_{P−1} = L, P = L + 1, proven from n = L, slope L: the
    /// shape of f_A for A = {1, L}.
    fn members(ls: impl Iterator<Item = i64>) -> Vec<AcrossMember> {
        ls.map(|l| {
            let p = l + 1;
            let c: Vec<Q> = (0..p)
                .map(|i| Q::int(if i == p - 1 { l } else { (i + 1) / 2 }))
                .collect();
            AcrossMember {
                l,
                period: p as usize,
                from: l,
                slopes: vec![Q::int(l)],
                intercepts: vec![c],
            }
        })
        .collect()
    }

    #[test]
    fn coefficients_are_substituted_into_the_intercept_forms() {
        let a = across_analysis(members((10..=24).step_by(2)), &["f_A"], 2);
        let forms = across_forms(&a, "L", &[("c", "f_{A}")]);
        let by = |q: &str| forms.iter().find(|f| f.quantity == q).unwrap();
        assert_eq!(by("period").formulas, ["$P(L) = L + 1$"]);
        assert_eq!(by("proven_from").formulas, ["$n_{0}(L) = L$"]);
        assert_eq!(by("slope").formulas, ["$B(L) = L$"]);
        assert_eq!(
            by("c").formulas,
            [
                "$f_{A}(Pk + i) = B_{i}k + c_{i}$ for $0 \\le i < P$, for $L \\ge 10$:",
                "$c_{i} = \\lceil i/2 \\rceil$ for $0 \\le i < P - 1$",
                "$c_{P - 1} = L$",
            ]
        );
        let t = across_forms_table(&forms);
        assert_eq!(t.rows.len(), 4);
        assert_eq!(
            t.rows[3][2].text(),
            "f_A: for L ≥ 10 (OBSERVED on the range):; c_i = a0·⌈i/2⌉ + b0 on piece 0; a0(L) = 1; b0(L) = 0; c_(P-1)(L) = L"
        );
        assert!(forms.iter().all(|f| f.found));
    }

    #[test]
    fn sums_drop_zero_terms_and_bracket_compound_coefficients() {
        let terms = [
            (
                Coefficient::Affine(Q::one(), Q::one()),
                "\\lceil i/2 \\rceil".to_string(),
            ),
            (Coefficient::Affine(Q::zero(), Q::int(-2)), String::new()),
        ];
        assert_eq!(sum_math(&terms, "L"), "(L + 1)\\lceil i/2 \\rceil - 2");
        let nothing = [(Coefficient::Affine(Q::zero(), Q::zero()), "i".to_string())];
        assert_eq!(sum_math(&nothing, "L"), "0");
        let form = FloorForm::of_period_two(&Q::int(3), &Q::zero(), &Q::int(3));
        assert_eq!(floor_form_math(&form, "n"), "3\\lceil n/2 \\rceil");
    }
}
