//! The atlas as a document a researcher reads (`nimlab discover … --report DIR`): findings first
//! — how much of the space has a closed form and which results are new — then every result
//! stated as mathematics, the way a paper would print it, with the range it was mined on and the
//! range it was re-verified on; then the forms that broke beyond the data and the families
//! without a form, grouped by the miner's reason.
//!
//! **Statements.** A space says how its results read in the claims language ([`Statements`]):
//! the payoff as `payoff(N, p)` and each quantity as a function of the position p (a count of a
//! list where the quantity is one, `len(breakpoints(p))`). A result's equation is then an
//! expression of that language, `payoff(N, [k - 1, 3, 2]) == max(…)`, typeset by the claims'
//! printer ([`crate::claims::typeset`]) — the same notation as the claims of the reports, and
//! never text parsed back. A quantity's periodic-linear form is stated once per residue class
//! of the parameter, in a residue index that is never the parameter's own name
//! (`c⁻(k − 1, 3, 2) = 6j` for `k = 4j + 2`, `j ≥ 1`).
//!
//! **Honesty.** Every form of the atlas is a finite check (HOLDS on the members re-verified, not
//! PROVEN); the document says so in its summary and states each form's ranges.

use super::{
    Atlas, AtlasEntry, FormStatus, NoPayoffForm, Novelty, PayoffKind, PayoffOutcome, Proven,
    QuantityOutcome, percent,
};
use crate::claims::eval::Definitions;
use crate::claims::expr::{CmpOp, Expr};
use crate::claims::typeset::{expr_math, rational_math};
use crate::export::Table;
use crate::miner::{KLine, PeriodicLinear, residue_index};
use crate::num::Q;
use crate::report::context::{AtlasFinding, AtlasItem, AtlasSection};

/// How a space's results are stated in the claims language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statements {
    /// The payoff's function, called as `f(N, p)`, for a game whose values are functions of a
    /// bonus N.
    pub payoff: Option<&'static str>,
    /// Each quantity's column name and how it reads as a function of the position.
    pub quantities: Vec<(&'static str, QuantityCall)>,
}

/// A quantity as a function of the position p.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantityCall {
    /// `f(p)`.
    Value(&'static str),
    /// `len(f(p))`: the number of elements of a list.
    Count(&'static str),
}

/// The document's summary and sections of `atlas`.
pub fn atlas_sections(atlas: &Atlas) -> (Vec<AtlasFinding>, Vec<AtlasSection>) {
    let writer = Writer {
        atlas,
        defs: Definitions::new(),
    };
    (writer.summary(), writer.sections())
}

struct Writer<'a> {
    atlas: &'a Atlas,
    defs: Definitions,
}

impl Writer<'_> {
    fn param(&self) -> &str {
        &self.atlas.param
    }

    fn math(&self, e: &Expr) -> String {
        expr_math(e, &self.defs)
    }

    fn summary(&self) -> Vec<AtlasFinding> {
        let (covered, all) = self.atlas.coverage();
        let p = self.param();
        let counted = |keep: &dyn Fn(&AtlasEntry) -> bool| {
            self.atlas.entries.iter().filter(|e| keep(e)).count()
        };
        let new = self.atlas.new_results().count();
        let known = counted(&|e| e.covered() && matches!(e.novelty, Novelty::Known { .. }));
        let broken = counted(&|e| !e.covered() && self.has_form(e));
        let none = all - covered - broken;
        let anomalies = self.atlas.anomaly_count();
        let what = if self.atlas.has_payoff() {
            "a closed form of the payoff in $N$ and $".to_string() + p + "$"
        } else {
            "a closed form of every quantity".to_string()
        };
        let mut out = vec![finding(
            "Coverage",
            format!(
                "{covered} of {all} families ({:.1}%) have {what} that the members beyond the mined range confirm.",
                percent(covered, all)
            ),
        )];
        out.push(if self.judged() {
            finding(
                "Novelty",
                format!(
                    "{new} of them are new (no claim of the claim files consulted states a form for the family) and {known} are known."
                ),
            )
        } else {
            finding("Novelty", "Not judged: no claim file was consulted.".to_string())
        });
        let proven = self.atlas.proven_without_form();
        if broken + none > 0 {
            let none = if proven > 0 {
                format!(
                    "{none} have no form of the miner's shapes: {proven} provably have none, \
                     however far they are mined (a theorem, proven at the end with each family's \
                     witness), and the reasons for the other {} are listed at the end",
                    none - proven
                )
            } else {
                format!(
                    "{none} have no form of the miner's shapes (the reasons are listed at the end)"
                )
            };
            out.push(finding(
                "The rest",
                format!(
                    "{broken} families have a form that a member beyond the mined range \
                     breaks, and {none}."
                ),
            ));
        }
        if anomalies > 0 {
            out.push(finding(
                "Anomalies",
                format!(
                    "{anomalies} member{} of the mined range break{} a pattern {} neighbours follow; each is listed with its family.",
                    if anomalies == 1 { "" } else { "s" },
                    if anomalies == 1 { "s" } else { "" },
                    if anomalies == 1 { "its" } else { "their" },
                ),
            ));
        }
        if !self.atlas.duplicates.is_empty() {
            out.push(finding(
                "Left out",
                format!(
                    "{} families of the space are others with ${p}$ shifted, and are not repeated.",
                    self.atlas.duplicates.len()
                ),
            ));
        }
        out.push(finding(
            "Status",
            format!(
                "Every form is a finite check: it HOLDS on the members it was re-verified on, and none is PROVEN here.{}",
                if proven > 0 {
                    " The absences of a form at the end are proven: they hold for every member."
                } else {
                    ""
                }
            ),
        ));
        out
    }

    /// Whether novelty was judged against some claim file.
    fn judged(&self) -> bool {
        self.atlas
            .entries
            .iter()
            .all(|e| e.novelty != Novelty::Unchecked)
    }

    /// Whether the entry has a mined form (payoff, or every quantity for a game without one).
    fn has_form(&self, e: &AtlasEntry) -> bool {
        match &e.payoff {
            PayoffOutcome::Found { .. } => true,
            PayoffOutcome::NotFound { .. } => false,
            PayoffOutcome::NoPayoff => {
                !e.quantities.is_empty() && e.quantities.iter().all(|q| q.fit.is_some())
            }
        }
    }

    fn sections(&self) -> Vec<AtlasSection> {
        let p = self.param();
        let entries = &self.atlas.entries;
        let mut sections = Vec::new();
        let covered = |keep: fn(&Novelty) -> bool| -> Vec<AtlasItem> {
            entries
                .iter()
                .filter(|e| e.covered() && keep(&e.novelty))
                .map(|e| self.result(e))
                .collect()
        };
        let mut push = |title: &str, intro: String, items: Vec<AtlasItem>| {
            if !items.is_empty() {
                sections.push(AtlasSection {
                    title: title.to_string(),
                    intro,
                    items,
                });
            }
        };
        let holds = format!(
            "Each form is stated with the first ${p}$ it holds from, the range it was mined on \
             and the range it was re-verified on."
        );
        push(
            "New results",
            format!("No claim of the claim files consulted states these forms. {holds}"),
            covered(|n| *n == Novelty::New),
        );
        push(
            "Results (novelty not judged)",
            holds.clone(),
            covered(|n| *n == Novelty::Unchecked),
        );
        push(
            "Known results",
            format!("A claim of the claim files states a form for each of these families. {holds}"),
            covered(|n| matches!(n, Novelty::Known { .. })),
        );
        push(
            "Forms broken beyond the data",
            "Each form fits the mined range, and a member beyond it breaks it: the pattern needs more data, or does not go on.".to_string(),
            entries
                .iter()
                .filter(|e| !e.covered() && self.has_form(e))
                .map(|e| self.result(e))
                .collect(),
        );
        push(
            "Families proven to have no form",
            "No form of the miner's shapes describes these families, however far they are mined: a theorem, with its proof and each family's witness.".to_string(),
            self.proven_misses(),
        );
        push(
            "Families without a form",
            "Grouped by the miner's reason.".to_string(),
            self.misses(),
        );
        sections
    }

    /// The member as a heap list of the claims language: `[k - 1, 3, 2]`.
    fn position(&self, e: &AtlasEntry) -> Expr {
        let p = self.param();
        Expr::list(e.position.iter().map(|h| h.expr(p)).collect())
    }

    /// The member of the residue class `param = period·index + residue`, its heaps as lines in
    /// the index: `[4j + 1, 4j, 2]`.
    fn class_position(&self, e: &AtlasEntry, period: usize, residue: usize) -> Expr {
        let index = residue_index(self.param());
        let (period, residue) = (Q::int(period as i64), Q::int(residue as i64));
        Expr::list(
            e.position
                .iter()
                .map(|h| {
                    KLine {
                        slope: &h.slope * &period,
                        intercept: &(&h.slope * &residue) + &h.intercept,
                    }
                    .expr(index)
                })
                .collect(),
        )
    }

    /// The family as a tuple: `(k - 1, 3, 2)`.
    fn family_math(&self, e: &AtlasEntry) -> String {
        let p = self.param();
        let heaps: Vec<String> = e.position.iter().map(|h| self.math(&h.expr(p))).collect();
        format!("$({})$", heaps.join(", "))
    }

    /// One result: its equations displayed, then the ranges, the quantities and the anomalies.
    fn result(&self, e: &AtlasEntry) -> AtlasItem {
        let p = self.param();
        let (k0, k1) = e.mined;
        let mut formulas = Vec::new();
        let mut lines = Vec::new();
        match &e.payoff {
            PayoffOutcome::Found {
                kind,
                from,
                formula,
                status,
                anomalies,
            } => {
                let lhs = match self.atlas.statements.payoff {
                    Some(f) => Expr::call(f, vec![Expr::var("N"), self.position(e)]),
                    None => Expr::var("f"),
                };
                formulas.push(self.math(&Expr::compare(lhs, CmpOp::Eq, formula.clone())));
                // A template's shape is plain from its formula; progressions have a period.
                let shape = match kind {
                    PayoffKind::Template(_) => String::new(),
                    PayoffKind::Progressions { period, .. } => format!(
                        " (breakpoints in arithmetic progressions, period ${period}$ in ${p}$)"
                    ),
                };
                lines.push(format!(
                    "For ${p} \\ge {from}$ and every rational $N${shape}; mined on ${k0} \\le {p} \\le {k1}$; {}.",
                    self.status_words(status, *from)
                ));
                for a in anomalies {
                    lines.push(format!(
                        "Anomaly: at ${p} = {}$, $N = {}$ the member's payoff is ${}$ and the form gives ${}$.",
                        a.member,
                        rational_math(&a.at),
                        rational_math(&a.data),
                        rational_math(&a.form)
                    ));
                }
            }
            PayoffOutcome::NoPayoff => {
                lines.push(format!("Mined on ${k0} \\le {p} \\le {k1}$."));
            }
            PayoffOutcome::NotFound { .. } => {}
        }
        let displayed = e.payoff == PayoffOutcome::NoPayoff;
        for q in &e.quantities {
            self.quantity(e, q, displayed, &mut formulas, &mut lines);
        }
        if let Novelty::Known { claims } = &e.novelty {
            lines.push(format!("Stated by the claims {}.", claims.join(", ")));
        }
        AtlasItem {
            title: self.family_math(e),
            formulas,
            lines,
        }
    }

    fn status_words(&self, status: &FormStatus, from: i64) -> String {
        status_words(status, from, self.param())
    }

    /// A quantity's form, one equation per residue class: displayed (a game without a payoff,
    /// where the quantities are the result) or as sentences.
    fn quantity(
        &self,
        e: &AtlasEntry,
        q: &QuantityOutcome,
        displayed: bool,
        formulas: &mut Vec<String>,
        lines: &mut Vec<String>,
    ) {
        let (Some(fit), Some(status)) = (&q.fit, &q.status) else {
            lines.push(format!(
                "No periodic-linear form of ${}$ on the mined range.",
                self.math(&self.quantity_lhs(&q.name, self.position(e)))
            ));
            return;
        };
        let equations = self.class_equations(e, &q.name, fit);
        if displayed {
            formulas.extend(equations);
            lines.push(format!(
                "{}: {}.",
                self.quantity_name(e, &q.name),
                self.status_words(status, fit.preperiod)
            ));
        } else if status.holds() {
            let statements: Vec<String> = equations.iter().map(|m| format!("${m}$")).collect();
            lines.push(format!("{}.", statements.join("; ")));
        } else {
            lines.push(format!(
                "{}: {}.",
                self.quantity_name(e, &q.name),
                self.status_words(status, fit.preperiod)
            ));
        }
    }

    /// The quantity of the member as mathematics: `$c^{-}(k - 1, 3, 2)$`.
    fn quantity_name(&self, e: &AtlasEntry, name: &str) -> String {
        format!(
            "The form of ${}$",
            self.math(&self.quantity_lhs(name, self.position(e)))
        )
    }

    fn call_of(&self, name: &str) -> Option<QuantityCall> {
        self.atlas
            .statements
            .quantities
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, c)| c)
    }

    /// The quantity `name` of the member `position`.
    fn quantity_lhs(&self, name: &str, position: Expr) -> Expr {
        match self.call_of(name) {
            Some(QuantityCall::Value(f)) => Expr::call(f, vec![position]),
            Some(QuantityCall::Count(f)) => Expr::call("len", vec![Expr::call(f, vec![position])]),
            None => Expr::call(name, vec![position]),
        }
    }

    /// One equation per residue class: `lhs = B·j + c` with the class `k = P·j + r, j ≥ j₀`
    /// (`lhs = B·k + c` for `k ≥ k₀` when the period is 1).
    fn class_equations(&self, e: &AtlasEntry, name: &str, fit: &PeriodicLinear) -> Vec<String> {
        let p = self.param();
        let index = residue_index(p);
        fit.lines
            .iter()
            .map(|l| {
                let line = KLine {
                    slope: l.slope.clone(),
                    intercept: l.intercept.clone(),
                };
                if fit.period == 1 {
                    let lhs = self.quantity_lhs(name, self.position(e));
                    let eq = Expr::compare(lhs, CmpOp::Eq, line.expr(p));
                    return format!("{} \\quad ({p} \\ge {})", self.math(&eq), l.from_k);
                }
                let class = KLine {
                    slope: Q::int(fit.period as i64),
                    intercept: Q::int(l.residue as i64),
                };
                let lhs = self.quantity_lhs(name, self.class_position(e, fit.period, l.residue));
                let eq = Expr::compare(lhs, CmpOp::Eq, line.expr(index));
                format!(
                    "{} \\quad ({p} = {},\\ {index} \\ge {})",
                    self.math(&eq),
                    self.math(&class.expr(index)),
                    l.from_k
                )
            })
            .collect()
    }

    /// The families proven to have no form, one item per kind of proof: the statement with its
    /// proof, then each family with its witness.
    fn proven_misses(&self) -> Vec<AtlasItem> {
        let mut kinds: Vec<(String, [String; 2], Vec<String>)> = Vec::new();
        for e in &self.atlas.entries {
            let PayoffOutcome::NotFound {
                reason: NoPayoffForm::NoneExists(Proven(proof)),
            } = &e.payoff
            else {
                continue;
            };
            let line = format!("{}: {}", self.family_math(e), proof.witness_math());
            let kind = proof.kind();
            match kinds.iter_mut().find(|(k, _, _)| *k == kind) {
                Some((_, _, lines)) => lines.push(line),
                None => kinds.push((kind, [proof.theorem_math(), proof.proof_math()], vec![line])),
            }
        }
        kinds
            .into_iter()
            .map(|(kind, [theorem, proof], families)| {
                let mut lines = vec![format!("Theorem. {theorem}"), format!("Proof. {proof}")];
                lines.push(format!(
                    "{} famil{} and {} witness{}:",
                    families.len(),
                    if families.len() == 1 { "y" } else { "ies" },
                    if families.len() == 1 { "its" } else { "their" },
                    if families.len() == 1 { "" } else { "es" },
                ));
                lines.extend(families);
                let mut title = kind;
                if let Some(first) = title.get(..1) {
                    title = first.to_uppercase() + &title[1..];
                }
                AtlasItem {
                    title,
                    formulas: Vec::new(),
                    lines,
                }
            })
            .collect()
    }

    /// The families without a form and no proof that none exists, one item per reason.
    fn misses(&self) -> Vec<AtlasItem> {
        let mut reasons: Vec<(String, Vec<String>)> = Vec::new();
        for e in &self.atlas.entries {
            let reason = match &e.payoff {
                PayoffOutcome::NotFound {
                    reason: NoPayoffForm::NoneExists(_),
                } => continue,
                PayoffOutcome::NotFound { reason } => reason.kind(),
                PayoffOutcome::NoPayoff if !self.has_form(e) => {
                    let missing: Vec<String> = e
                        .quantities
                        .iter()
                        .filter(|q| q.fit.is_none())
                        .map(|q| q.name.replace('_', " "))
                        .collect();
                    format!(
                        "no periodic-linear form of {} on the mined range",
                        missing.join(", ")
                    )
                }
                _ => continue,
            };
            let family = self.family_math(e);
            match reasons.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, families)) => families.push(family),
                None => reasons.push((reason, vec![family])),
            }
        }
        reasons
            .into_iter()
            .map(|(reason, families)| AtlasItem {
                title: format!(
                    "{} famil{}",
                    families.len(),
                    if families.len() == 1 { "y" } else { "ies" }
                ),
                formulas: Vec::new(),
                lines: vec![
                    format!(
                        "Reason: {reason} (each family's particulars are in the atlas's table)."
                    ),
                    format!("{}.", families.join(", ")),
                ],
            })
            .collect()
    }
}

/// How a form fared, in words with `$…$` mathematics: `re-verified on $5 \le k \le 32$ (HOLDS
/// there)`, or where it failed with both values.
pub(super) fn status_words(status: &FormStatus, from: i64, p: &str) -> String {
    match status {
        FormStatus::Reverified { to } => {
            format!("re-verified on ${from} \\le {p} \\le {to}$ (HOLDS there)")
        }
        FormStatus::NotRebuilt(m) | FormStatus::BrokenBeyond(m) => {
            let at =
                m.at.as_ref()
                    .map(|n| format!(", $N = {}$", rational_math(n)))
                    .unwrap_or_default();
            let what = if matches!(status, FormStatus::NotRebuilt(_)) {
                "NOT REBUILT on the data"
            } else {
                "FAILS beyond the data"
            };
            format!(
                "{what}: at ${p} = {}${at} the form gives ${}$ and the member ${}$",
                m.member,
                rational_math(&m.form),
                rational_math(&m.data)
            )
        }
    }
}

/// A finding of the summary.
fn finding(label: &str, text: String) -> AtlasFinding {
    AtlasFinding {
        label: label.to_string(),
        text,
    }
}

/// One section with an item per row of `table`: the first cell as its title, every other
/// non-empty cell as a sentence `column: value` (the default of
/// [`AtlasView::document`](super::AtlasView::document)).
pub(super) fn table_sections(table: &Table) -> Vec<AtlasSection> {
    let items: Vec<AtlasItem> = table
        .rows
        .iter()
        .map(|row| {
            let mut cells = table.columns.iter().zip(row);
            let title = cells.next().map(|(_, c)| c.text()).unwrap_or_default();
            let lines = cells
                .map(|(name, c)| (name, c.text()))
                .filter(|(_, text)| !text.is_empty())
                .map(|(name, text)| format!("{}: {text}.", name.replace('_', " ")))
                .collect();
            AtlasItem {
                title,
                formulas: Vec::new(),
                lines,
            }
        })
        .collect();
    vec![AtlasSection {
        title: "Families".to_string(),
        intro: "One entry per member of the space, in the atlas's order.".to_string(),
        items,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::scoring::{ScoringSpace, discover};
    use crate::games::scoring::Limits;
    use crate::num::IntRange;
    use crate::progress::Silent;
    use crate::report::context::{AtlasReport, Provenance};
    use crate::report::render::Renderer;

    fn atlas(slopes: (i64, i64), offsets: (i64, i64), k: (i64, i64)) -> Atlas {
        let k = IntRange::new(k.0, k.1).unwrap();
        let space = ScoringSpace {
            heaps: 3,
            slopes: IntRange::new(slopes.0, slopes.1).unwrap(),
            offsets: IntRange::new(offsets.0, offsets.1).unwrap(),
            verify_to: super::super::twice(k),
            retry_to: None,
            k,
        };
        discover(&space, &[], &Limits::default(), &Silent).unwrap()
    }

    #[test]
    fn a_result_is_stated_as_its_equation_with_its_ranges() {
        let atlas = atlas((0, 1), (1, 2), (1, 12));
        let (summary, sections) = atlas_sections(&atlas);
        let (covered, all) = atlas.coverage();
        assert!(covered > 0);
        assert!(
            summary[0]
                .text
                .starts_with(&format!("{covered} of {all} families")),
            "{summary:?}"
        );
        assert_eq!(summary[1].text, "Not judged: no claim file was consulted.");
        assert_eq!(sections[0].title, "Results (novelty not judged)");
        // Every covered family is one item, with its payoff's equation displayed first.
        let items = &sections[0].items;
        assert_eq!(items.len(), covered);
        for item in items {
            assert!(item.formulas[0].starts_with("f_{N}("), "{item:?}");
            assert!(item.formulas[0].contains(") = "), "{item:?}");
            assert!(item.lines[0].contains("re-verified on"), "{item:?}");
        }
        // The family (k + 2, k + 1, 2) is the one whose title names it, its heaps as lines in k.
        let item = items
            .iter()
            .find(|i| i.title == "$(k + 2, k + 1, 2)$")
            .expect("the family (k + 2, k + 1, 2) is covered");
        assert!(
            item.formulas[0].starts_with("f_{N}(k + 2, k + 1, 2) = "),
            "{item:?}"
        );
        assert!(item.lines[0].contains("period $4$ in $k$"), "{item:?}");
    }

    #[test]
    fn residue_classes_are_stated_in_an_index_that_is_not_the_parameter() {
        let atlas = atlas((0, 1), (1, 2), (1, 12));
        let (_, sections) = atlas_sections(&atlas);
        let periodic: Vec<&str> = sections
            .iter()
            .flat_map(|s| &s.items)
            .flat_map(|i| &i.lines)
            .flat_map(|l| l.split("; "))
            .filter(|l| l.contains("\\quad (k = "))
            .collect();
        assert!(!periodic.is_empty(), "{sections:?}");
        for l in periodic {
            // `c^{+}(2j + 2, 2j + 1, 2) = … \quad (k = 2j,\ j \ge 1)`: the member of the class
            // is written in j, and k appears only in naming the class.
            let (equation, class) = l.split_once("\\quad").unwrap();
            assert!(!equation.contains("(k") && !equation.contains(" k"), "{l}");
            assert!(equation.contains('j'), "{l}");
            assert!(class.contains(",\\ j \\ge "), "{l}");
        }
    }

    #[test]
    fn families_without_a_form_are_grouped_by_the_reason() {
        let atlas = atlas((1, 3), (-1, 0), (1, 8));
        let (_, sections) = atlas_sections(&atlas);
        let misses = sections
            .iter()
            .find(|s| s.title == "Families without a form")
            .expect("some family has no form on k ≤ 8");
        let listed: usize = misses
            .items
            .iter()
            .map(|i| i.lines[1].matches("$(").count())
            .sum();
        // The families proven to have none: the theorem and its proof once, then one line per
        // family with its witness.
        let proven = sections
            .iter()
            .find(|s| s.title == "Families proven to have no form")
            .expect("3k, 2k, k provably has no form");
        assert_eq!(proven.items.len(), 1, "{proven:?}");
        let item = &proven.items[0];
        assert!(item.lines[0].starts_with("Theorem. "));
        assert!(item.lines[1].starts_with("Proof. ") && item.lines[1].contains("Bouton"));
        assert!(
            item.lines
                .iter()
                .any(|l| l.starts_with("$(3k, 2k, k)$: $u = 1$")),
            "{item:?}"
        );
        let proven_listed = item.lines.len() - 3;
        let none = atlas
            .entries
            .iter()
            .filter(|e| matches!(e.payoff, PayoffOutcome::NotFound { .. }))
            .count();
        assert_eq!(listed + proven_listed, none);
        assert_eq!(proven_listed, atlas.proven_without_form());
        // One item per kind of reason, not per family.
        assert!(misses.items.len() <= 3, "{misses:?}");
    }

    #[test]
    fn the_document_renders_the_same_bytes_twice_in_markdown_and_latex() {
        let atlas = atlas((0, 1), (1, 2), (1, 12));
        let (summary, sections) = atlas_sections(&atlas);
        let report = AtlasReport {
            title: "Atlas".to_string(),
            space: atlas.space_math.clone(),
            provenance: Provenance {
                version: "0".to_string(),
                command: "nimlab discover scoring".to_string(),
                parameters: Vec::new(),
                commit: None,
                paper: None,
            },
            summary,
            sections,
            csv: "atlas.csv".to_string(),
            row: "family".to_string(),
            more_csv: Vec::new(),
        };
        let r = Renderer::new().unwrap();
        let md = r.atlas_markdown(&report).unwrap();
        assert_eq!(md, r.atlas_markdown(&report).unwrap());
        assert!(md.contains("**Coverage.**"), "{md}");
        assert!(md.contains("$$f_{N}(k + 2, k + 1, 2) = "), "{md}");
        let tex = r.atlas_latex(&report).unwrap();
        assert!(
            tex.contains("\\nimlabfit{$\\displaystyle f_{N}(k + 2, k + 1, 2) = "),
            "{tex}"
        );
        assert!(tex.contains("\\textbf{Coverage.}"), "{tex}");
    }
}
