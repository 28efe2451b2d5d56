//! Proof sketches: the paragraph a referee reads beside a PROVEN verdict, generated from the
//! typed [`Proof`] the checker found — what was computed, on which window, and why every larger
//! n reduces to it. Prose with mathematics in `$…$` spans (the reports' convention).
//!
//! The three arguments, as the code behind them makes them:
//! - **a period by a window** ([`Proof::Period`]): the sequence obeys a recurrence with a
//!   bounded look-back (the value at n is a fixed function of finitely many earlier values, or
//!   of earlier Grundy values by the normal-play reduction); a window as long as the look-back
//!   that equals its translate by p forces a(n + p) = a(n) for every later n by induction;
//! - **a family of periods** ([`Proof::FamilyPeriods`]): each set's sequence has a proven period
//!   dividing the modulus, so each side of an identity in i is eventually constant and a finite
//!   range of i covers every i;
//! - **certified closed forms** ([`Proof::CertifiedForms`]): periodic-linear forms substituted
//!   into the min/max-plus recurrence, each residue's winning term identified and every other
//!   term shown to stay on its side of the line for all k (`crate::miner::certificate`), plus
//!   the base window, give the forms for every n by induction;
//! - **family induction** ([`Proof::Induction`]): closed forms on classes of positions proven
//!   for every parameter by SMT queries, one step of the induction on the number of stones
//!   each (`crate::claims::induction`), and the statement read off the forms;
//! - **from the definitions** ([`Proof::Direct`]): a statement about the claim file's own
//!   functions, which names no game value, proven for every value of its variables by SMT
//!   queries on the unfolded definitions.

use super::finding::{EvidenceTable, Proof, ProvenLemma};

/// The sketch of a proof, as prose with `$…$` mathematics.
pub fn sketch(proof: &Proof) -> String {
    match proof {
        Proof::Period {
            period,
            preperiod,
            window_start,
            window_len,
            argument,
        } => {
            let last = window_start + window_len - 1;
            format!(
                "Why the recurrence has a finite look-back: {argument}. The values were computed \
                 exactly and the window $n = {window_start}, \\dots, {last}$ ({window_len} \
                 consecutive values, no fewer than the look-back) equals its translate \
                 $n = {}, \\dots, {}$ by $p = {period}$. Every value beyond the window is the same \
                 function of the values just before it, so by induction on $n$ the equality \
                 $a(n + {period}) = a(n)$ passes from one window to the next and holds for every \
                 $n \\ge {window_start}$, not only on the computed range. The least period \
                 $p = {period}$ and least preperiod $n_0 = {preperiod}$ are then read off the \
                 computed values: a smaller period or an earlier start would already show on \
                 them.",
                window_start + period,
                last + period,
            )
        }
        Proof::FamilyPeriods {
            sets,
            i_needed,
            i_checked,
        } => format!(
            "For each of the {sets} sets $S$ of the family the least period of \
             $n \\mapsto \\mathcal{{G}}_s(n)$ was proven by the window argument (a window no \
             shorter than the recurrence's look-back recurs one period later, so by induction \
             the period holds for every $n$), and each period divides the identity's modulus. \
             Each side of the identity is then, as a function of $i$, constant once its \
             argument has passed the preperiod, which it does from $i = {i_needed}$ on for every \
             set of the family; the identity was checked for every $i \\le {i_checked}$, so it \
             holds for every $i \\ge 1$."
        ),
        Proof::CertifiedForms { set, period, from } => {
            let members: Vec<String> = set.iter().map(u64::to_string).collect();
            format!(
                "For $A = \\lbrace {} \\rbrace$ the closed forms $f(Pk + r) = B_r k + c_r$, one \
                 line for each residue $r$ modulo $P = {period}$, were substituted into the \
                 min/max-plus recurrence of Definition 2.3: at $n = Pk + r$ every term of the \
                 recurrence becomes affine in $k$. The certificate names, at each residue, the \
                 term equal to the line identically, and shows that every other term stays on \
                 the right side of it for all $k$ (for a minimum it starts no lower and rises no \
                 slower; for a maximum the mirror image). With the base case — the forms equal \
                 the computed values on a window of look-back length from $n = {from}$ — \
                 induction on $n$ gives the forms for every $n \\ge {from}$. The check replays \
                 the certificate, so the conclusion does not rest on the range that was \
                 computed.",
                members.join(", ")
            )
        }
        Proof::Induction {
            forms,
            title,
            classes,
            recurrence,
            words,
            obligations,
            domain,
            solver,
            lemma,
        } => format!(
            "The statement is proven for {domain}, not only on the range computed. The forms file `{forms}` ({title}) covers a set of positions \
             closed under moves by {} classes, each with a closed form of {} (the table below). \
             The recurrence ${recurrence}$ was turned into quantifier-free formulas of linear \
             integer and real arithmetic: {}. {solver} found the negation of each of the \
             {obligations} formulas (these, and the statement's own: the statement itself and \
             each condition on its positions and variables that it relies on) unsatisfiable. By \
             induction on the number of {} each form therefore equals ${}$ at every position $p$ \
             of its class, for {}, and {}. \
             The argument uses the rules of the game only, no result of the paper; the \
             formulas are SMT-LIB files that any solver replays (`nimlab prove {forms} \
             --solver cvc5 --solver-only --certificate DIR`).",
            classes.len(),
            words.form_of,
            words.formulas,
            words.unit,
            words.value,
            words.every,
            conclusion(lemma.as_ref()),
        ),
        Proof::Direct {
            obligations,
            domain,
            solver,
            lemma,
        } => {
            let proven = match lemma {
                None => "the statement".to_string(),
                Some(l) => format!(
                    "the lemma ${}$ (for every value of its variables{} in that domain)",
                    l.formula,
                    lemma_condition(l)
                ),
            };
            let follows = lemma
                .as_ref()
                .map(|l| format!(" {}.", l.follows.trim_end_matches('.')))
                .unwrap_or_default();
            let refuted = if *obligations == 1 {
                format!("{solver} found its negation unsatisfiable.")
            } else {
                format!(
                    "{solver} found the negation of each of the {obligations} formulas (the \
                     statement itself and each condition on its variables that it relies on) \
                     unsatisfiable."
                )
            };
            format!(
                "The statement is proven for {domain}, not only on the range computed. It is \
                 about the claim file's own definitions and names no value of a game, so no \
                 induction is needed: with each defined function unfolded, {proven} becomes a \
                 quantifier-free formula of linear integer and real arithmetic (a minimum or \
                 maximum over a range whose ends are variables becomes a value the body takes in \
                 the range, compared with the body at the range's ends and where it turns; \
                 fewer facts can only make a refutation harder, so this is sound). \
                 {refuted}{follows} The argument uses the definitions only, no result of the \
                 paper."
            )
        }
    }
}

/// How a statement follows from the forms: directly, or through a lemma proven from them.
fn conclusion(lemma: Option<&ProvenLemma>) -> String {
    match lemma {
        None => "the statement, with each value replaced by its form, follows".to_string(),
        Some(l) => format!(
            "so does the lemma ${}$ (with each value replaced by its form) for every value of \
             its variables{} in that domain. {}",
            l.formula,
            lemma_condition(l),
            l.follows.trim_end_matches('.')
        ),
    }
}

/// ` with $…$`: the lemma's own condition on its variables, when it has one.
fn lemma_condition(lemma: &ProvenLemma) -> String {
    lemma
        .over
        .as_ref()
        .map(|o| format!(" with ${o}$"))
        .unwrap_or_default()
}

/// The most classes a forms table lists in full.
const FORMS_TABLE_ROWS: usize = 40;

/// The classes of an induction proof and the form proven on each, as the table its full sketch
/// refers to; `None` for the other arguments, which name their few numbers in the sketch.
pub fn forms_table(proof: &Proof) -> Option<EvidenceTable> {
    let Proof::Induction {
        forms,
        classes,
        words,
        ..
    } = proof
    else {
        return None;
    };
    let value = format!("${}$", words.value);
    let mut table = EvidenceTable::new(
        format!(
            "The classes of `{forms}` and the value proven on each, for {}:",
            words.every
        ),
        &["positions $p$", value.as_str()],
    );
    let row = |c: &super::finding::ProvenClass| vec![c.name.clone(), format!("${}$", c.form)];
    if classes.len() <= FORMS_TABLE_ROWS {
        for c in classes {
            table.push(row(c));
        }
    } else {
        // A block of Candy Nim families has hundreds of classes: the first and the last ones
        // (the largest piles, where the papers' families sit), the rest named by their file.
        let half = FORMS_TABLE_ROWS / 2;
        for c in &classes[..half] {
            table.push(row(c));
        }
        table.push(vec![
            format!("$\\vdots$ ({} more classes)", classes.len() - 2 * half),
            format!("in `{forms}`"),
        ]);
        for c in &classes[classes.len() - half..] {
            table.push(row(c));
        }
    }
    Some(table)
}

/// What makes two proofs the same argument, so a report can sketch it once and let every other
/// claim resting on it refer back: the forms file of an induction, the set, period and start of
/// certified forms. `None` for an argument made for one claim alone (a period, a family).
pub fn shared_argument(proof: &Proof) -> Option<String> {
    match proof {
        Proof::Induction { forms, .. } => Some(format!("forms {forms}")),
        Proof::CertifiedForms { set, period, from } => {
            Some(format!("certified {set:?} {period} {from}"))
        }
        Proof::Period { .. } | Proof::FamilyPeriods { .. } | Proof::Direct { .. } => None,
    }
}

/// The sketch of a proof whose shared argument ([`shared_argument`]) is sketched in full under
/// the claim labelled `first`: what this claim adds to it, and a pointer back.
pub fn sketch_referring(proof: &Proof, first: &str) -> String {
    match proof {
        Proof::Induction {
            forms,
            obligations,
            domain,
            solver,
            words,
            lemma,
            ..
        } => {
            let rests = format!(
                "The statement is proven for {domain}, not only on the range computed. It rests \
                 on the closed forms of `{forms}`, proven for {} by induction on the number of \
                 {}, as sketched in the entry of {first}.",
                words.every, words.unit
            );
            let step = match lemma {
                None => format!(
                    "With each value in the statement replaced by the form of a class holding \
                     its position, {solver} found the negation of the statement unsatisfiable \
                     ({obligations} formulas in all: the forms', the statement itself and each \
                     condition on its positions and variables that it relies on), so the \
                     statement holds wherever the forms do."
                ),
                Some(l) => format!(
                    "With each value replaced by the form of a class holding its position, the \
                     lemma ${}$ holds there for every value of its variables{}: {solver} found \
                     its negation unsatisfiable ({obligations} formulas in all: the forms', the \
                     lemma itself and each condition on its positions and variables that it \
                     relies on). {}.",
                    l.formula,
                    lemma_condition(l),
                    l.follows.trim_end_matches('.')
                ),
            };
            format!("{rests} {step}")
        }
        Proof::CertifiedForms { period, from, .. } => format!(
            "The closed forms of period ${period}$ used here are the ones certified for every \
             $n \\ge {from}$ in the entry of {first}, where the certificate's argument is \
             sketched; the statement was read off those forms, so it holds for every $n$ they \
             cover."
        ),
        Proof::Period { .. } | Proof::FamilyPeriods { .. } | Proof::Direct { .. } => sketch(proof),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::finding::ProvenClass;

    #[test]
    fn a_period_sketch_names_its_window_translate_and_argument() {
        let s = sketch(&Proof::Period {
            period: 34,
            preperiod: 2,
            window_start: 5,
            window_len: 3,
            argument: "a(n) depends only on a(n−3..n−1)".into(),
        });
        assert!(s.contains("$n = 5, \\dots, 7$"), "{s}");
        assert!(s.contains("$n = 39, \\dots, 41$"), "{s}");
        assert!(s.contains("$n_0 = 2$") && s.contains("a(n−3..n−1)"), "{s}");
    }

    #[test]
    fn an_induction_sketch_names_its_file_classes_recurrence_and_count() {
        let proof = Proof::Induction {
            forms: "data/proofs/two.toml".into(),
            title: "two piles".into(),
            classes: vec![
                ProvenClass {
                    name: "$(x)$".into(),
                    form: "x - 1".into(),
                },
                ProvenClass {
                    name: "$(x,y)$".into(),
                    form: "x - y".into(),
                },
            ],
            recurrence: "f(p) = g(p)".into(),
            words: Box::new(crate::claims::induction::Game::ScoringNim.words()),
            obligations: 127,
            domain: "all integers $x \\ge 2$ and every rational $N$".into(),
            solver: "z3".into(),
            lemma: None,
        };
        let s = sketch(&proof);
        assert!(
            s.contains("`data/proofs/two.toml`") && s.contains("2 classes"),
            "{s}"
        );
        assert!(s.contains("$f(p) = g(p)$"), "{s}");
        assert!(
            s.contains("127 formulas") && s.contains("$x \\ge 2$"),
            "{s}"
        );
        let table = forms_table(&proof).expect("an induction lists its classes");
        assert_eq!(
            table.rows,
            [["$(x)$", "$x - 1$"], ["$(x,y)$", "$x - y$"]].map(|r| r.map(String::from).to_vec())
        );
        assert!(table.caption.contains("`data/proofs/two.toml`"));
    }

    /// An induction over the one class $(x)$ of `data/proofs/two.toml`, proven on `domain`.
    fn one_class_induction(domain: &str, lemma: Option<ProvenLemma>) -> Proof {
        Proof::Induction {
            forms: "data/proofs/two.toml".into(),
            title: "two piles".into(),
            classes: vec![ProvenClass {
                name: "$(x)$".into(),
                form: "x".into(),
            }],
            recurrence: "f(p) = g(p)".into(),
            words: Box::new(crate::claims::induction::Game::ScoringNim.words()),
            obligations: 127,
            domain: domain.into(),
            solver: "z3".into(),
            lemma,
        }
    }

    #[test]
    fn a_lemma_is_stated_with_its_condition_and_the_step_to_the_statement() {
        let proof = |over: Option<&str>| {
            one_class_induction(
                "every integer $k \\ge 1$",
                Some(ProvenLemma {
                    formula: "f_t = t".into(),
                    over: over.map(String::from),
                    follows: "Hence the count is $k$.".into(),
                }),
            )
        };
        let full = sketch(&proof(Some("t \\le N")));
        assert!(
            full.contains("the lemma $f_t = t$") && full.contains("with $t \\le N$"),
            "{full}"
        );
        assert!(
            full.contains("Hence the count is $k$. The argument"),
            "{full}"
        );
        let again = sketch_referring(&proof(None), "Theorem 6.3 (i)");
        assert!(
            again.contains("the lemma $f_t = t$ holds there for every value of its variables:"),
            "{again}"
        );
        assert!(again.ends_with("Hence the count is $k$."), "{again}");
    }

    #[test]
    fn family_and_certificate_sketches_carry_their_numbers() {
        let f = sketch(&Proof::FamilyPeriods {
            sets: 12,
            i_needed: 7,
            i_checked: 20,
        });
        assert!(f.contains("12 sets") && f.contains("i = 7"), "{f}");
        assert!(f.contains("i \\le 20"), "{f}");
        let c = sketch(&Proof::CertifiedForms {
            set: vec![1, 3, 4],
            period: 16,
            from: 40,
        });
        assert!(
            c.contains("\\lbrace 1, 3, 4 \\rbrace") && c.contains("P = 16"),
            "{c}"
        );
        assert!(c.contains("n \\ge 40"), "{c}");
    }
    #[test]
    fn a_shared_argument_is_sketched_once_and_referred_to_after() {
        let induction = |domain: &str| one_class_induction(domain, None);
        let (a, b) = (induction("all $x \\ge 2$"), induction("all $x \\ge 3$"));
        assert_eq!(shared_argument(&a), shared_argument(&b));
        let again = sketch_referring(&b, "Theorem 6.3 (i)");
        assert!(
            again.contains("Theorem 6.3 (i)") && again.contains("all $x \\ge 3$"),
            "{again}"
        );
        assert!(!again.contains("classes"), "{again}");
        let period = Proof::Period {
            period: 2,
            preperiod: 0,
            window_start: 0,
            window_len: 1,
            argument: "look-back 1".into(),
        };
        assert_eq!(shared_argument(&period), None);
    }

    #[test]
    fn a_proof_from_the_definitions_names_no_induction_and_counts_its_formulas() {
        let direct = |obligations: usize, lemma: Option<ProvenLemma>| Proof::Direct {
            obligations,
            domain: "every integer $k \\ge 1$".into(),
            solver: "z3".into(),
            lemma,
        };
        let one = sketch(&direct(1, None));
        assert!(one.contains("every integer $k \\ge 1$"), "{one}");
        assert!(
            one.contains("z3 found its negation unsatisfiable."),
            "{one}"
        );
        assert!(!one.contains("induction on"), "{one}");
        let three = sketch(&direct(
            3,
            Some(ProvenLemma {
                formula: "F_k(t) \\ge 0".into(),
                over: None,
                follows: "So the count is 4k − 3.".into(),
            }),
        ));
        assert!(three.contains("each of the 3 formulas"), "{three}");
        assert!(three.contains("the lemma $F_k(t) \\ge 0$"), "{three}");
        assert!(three.contains("So the count is 4k − 3."), "{three}");
        assert_eq!(shared_argument(&direct(1, None)), None);
        assert_eq!(sketch_referring(&direct(1, None), "Def 6.2"), one);
    }
}
