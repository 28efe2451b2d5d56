//! Family induction proofs: closed forms proven for every parameter by an SMT solver.
//!
//! A *forms file* (TOML, format in `data/proofs/README.md`) declares a closure of positions —
//! sorted piles satisfying linear constraints, such as every position of three piles whose
//! smallest pile is at most 1 — and covers it with *classes*, each a family of positions whose
//! piles are affine in integer parameters (`[2k+1, 2k, 1]` with `k ≥ 1`) with a closed form of
//! its value in the parameters and the bonus N (`F(k, N)`).
//!
//! The forms are proven by induction on the number of stones. The game's recurrence becomes
//! finitely many obligations in linear integer/real arithmetic with floors ([`term`]), one per
//! class and kind of move (Scoring Nim's are in [`scoring`]): the forms' positions stay in the
//! closure, every position of the closure is in a class, no move beats a form, some move reaches
//! it, the empty position is worth −N. Each obligation is negated and handed to an SMT solver
//! (z3, or cvc5 to replay: [`solver`]); `unsat` for every one proves that each form equals the
//! value at every position of its class, for every parameter value and every rational N. The
//! argument uses only the rules of the game — no theorem of the paper whose claims it checks.
//!
//! A claim whose statement follows from proven forms (`proof = { forms = …, over = … }` in a
//! claim file) adds one more obligation: the claim's formula, with every `payoff` replaced by the
//! form of a class holding its position, holds for every value of its variables allowed by
//! `over` ([`prove_statement`]). A claim about the claim file's own functions, which names no
//! game value (Def 6.2's F_k(±2k) = 0), needs no forms: `proof = { over = … }` poses the same
//! statement obligations over the unfolded definitions alone. `nimlab check` keeps only the
//! verdict; [`claim`] proves one claim on its own, both parts, with a certificate of both.
//!
//! A `sat` answer is a point where an obligation fails, reported with the solver's values (the
//! caller confirms it with the exact engine); anything else is UNKNOWN with the solver's words.

mod candy;
mod certificate;
mod claim;
mod refute;
mod scoring;
mod solver;
mod term;
mod translate;

pub use self::certificate::{
    CertificateKind, MANIFEST, Posing, Refinement, Replay, is_certificate_dir, replay_certificate,
    write_certificate, write_claim_certificate,
};
pub use self::claim::{ClaimProof, ProvableClaim, prove_claim_alone};
pub use self::refute::{Refutation, refute};
pub use self::solver::{Answer, Posed, Solver};
pub use self::term::{Query, Rel, Sort, Term};

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Deserialize;
use toml::Spanned;

use self::term::linear;
use self::translate::{Scope, TVal, Translator};
use crate::claims::eval::Definitions;
use crate::claims::expr::{Expr, ExprKind, parse_expr};
use crate::claims::registry::{Registry, located};
use crate::error::{Error, Result};
use crate::num::Q;

/// The games whose recurrence a forms file can prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// Scoring Nim: f_N(0) = −N, f_N(p) = max over moves of (stones taken − f_N(p')).
    ScoringNim,
    /// Candy Nim's value V = N_L − N_W of the P-positions [a, B·m + x, B·m + (a ⊕ x)] with
    /// a, x < B = `block` (a power of two): Luca moves anywhere, Windsor back to nim-sum 0.
    CandyNim {
        /// B = 2^K.
        block: u32,
    },
}

impl Game {
    /// The recurrence the forms are proven to satisfy, in LaTeX (for proof sketches).
    pub fn recurrence(self) -> &'static str {
        match self {
            Game::ScoringNim => {
                r"f_N(0) = -N,\ f_N(p) = \max_{p \to p'} (\lvert p\rvert - \lvert p'\rvert - f_N(p'))"
            }
            Game::CandyNim { .. } => {
                r"V(\emptyset) = 0,\ V(G) = \max_{G \to G'} \bigl(\lvert G\rvert - \lvert G'\rvert - \max_{G' \to G'' \in \mathcal{P}} (\lvert G'\rvert - \lvert G''\rvert - V(G''))\bigr)"
            }
        }
    }

    /// How a proof sketch names this game's parts.
    pub fn words(self) -> crate::claims::finding::InductionWords {
        use crate::claims::finding::InductionWords;
        match self {
            Game::ScoringNim => InductionWords {
                unit: "stones".into(),
                value: "f_N(p)".into(),
                form_of: "its payoff in its parameters and $N$".into(),
                formulas: "no move beats a class's form (one formula for each class, pile \
                           lowered and class of the position left), some move reaches it, every \
                           move stays in the set, every position of the set lies in a class, and \
                           the empty position is worth $-N$"
                    .into(),
                every: "every integer value of the parameters and every rational $N$".into(),
            },
            Game::CandyNim { block } => InductionWords {
                unit: "candies".into(),
                value: "V(p)".into(),
                form_of: "its value $V = N_L - N_W$ in its parameter $m$".into(),
                formulas: format!(
                    "the set is every P-position $[a, {block}m + x, {block}m + (a \\oplus x)]$ \
                     with $a, x < {block}$, and a turn (a move of Luca's and a winning reply of \
                     Windsor's, Bouton's rule) leads from one to another: within the block, or \
                     to a smaller $m' < m$; no turn beats a class's form (one formula for each \
                     class, the turns a disjunction of cases), some turn reaches it, every \
                     position of the set lies in a class, and the empty position is worth $0$"
                ),
                every: "every integer value of its parameter $m \\ge 0$".into(),
            },
        }
    }

    /// The game's value function in claim files, proven forms stand for it in statements.
    pub(super) fn value_function(self) -> &'static str {
        match self {
            Game::ScoringNim => "payoff",
            Game::CandyNim { .. } => "candy_v",
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawForms {
    game: Spanned<String>,
    title: String,
    piles: Vec<String>,
    closure: Option<Spanned<String>>,
    block: Option<Spanned<i64>>,
    #[serde(default)]
    define: Vec<Spanned<crate::claims::registry::RawDefine>>,
    class: Vec<Spanned<RawClass>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClass {
    id: String,
    name: String,
    position: Spanned<String>,
    #[serde(rename = "where")]
    filter: Option<Spanned<String>>,
    form: Spanned<String>,
}

/// One class: a family of positions of the closure with the closed form of their value.
#[derive(Clone, Debug)]
pub struct Class {
    /// Short name (file names, messages).
    pub slug: String,
    /// How a reader sees it (`$…$` mathematics allowed).
    pub name: String,
    /// The parameters, in order of first appearance in the position.
    pub params: Vec<String>,
    /// The piles, affine in the parameters.
    pub position: Vec<Expr>,
    /// Constraints on the parameters.
    pub filter: Option<Expr>,
    /// The value, in the parameters and N.
    pub form: Expr,
    /// Its position as written.
    pub position_text: String,
    /// Its constraint as written.
    pub filter_text: Option<String>,
    /// Its form as written.
    pub form_text: String,
}

/// A forms file: a closure of positions covered by classes with closed forms.
#[derive(Clone, Debug)]
pub struct System {
    /// The file it was read from.
    pub path: PathBuf,
    /// The game whose recurrence is proven.
    pub game: Game,
    /// What the file proves, in words.
    pub title: String,
    /// Names of the piles, largest first.
    pub piles: Vec<String>,
    /// The closure's constraint on the piles.
    pub closure: Expr,
    /// The closure as written.
    pub closure_text: String,
    /// The file's functions.
    pub definitions: Definitions,
    /// The classes.
    pub classes: Vec<Class>,
}

/// One obligation: a query whose `unsat` proves one step of the induction.
#[derive(Clone, Debug)]
pub struct Obligation {
    /// The query.
    pub query: Query,
    /// The class members a counterexample names: each class with the prefix of its parameters'
    /// variables (`q` for `q_k`, `q_x`), so the exact engine can check the forms there.
    members: Vec<(usize, &'static str)>,
    /// Whether this is an *attained* obligation, whose failure can also mean that the moves
    /// offered were too few.
    attained: bool,
}

impl Obligation {
    fn new(name: String, about: String, assertions: Vec<Term>, shown: Vec<String>) -> Obligation {
        Obligation {
            query: Query {
                name,
                about,
                assertions,
                shown,
                cases: Vec::new(),
            },
            members: Vec::new(),
            attained: false,
        }
    }

    /// The obligation, with the class members its counterexample names.
    fn naming(mut self, members: Vec<(usize, &'static str)>) -> Obligation {
        self.members = members;
        self
    }

    /// The obligation as the disjunction of `cases` (see [`Query::cases`]).
    fn with_cases(mut self, cases: Vec<Term>) -> Obligation {
        self.query.cases = cases;
        self
    }

    /// The obligation, marked as an *attained* one.
    fn of_attainment(mut self) -> Obligation {
        self.attained = true;
        self
    }

    /// The obligation as two cases, N < 0 and N ≥ 0, when it speaks of the bonus N: together
    /// they are the obligation, and each is often far easier for a solver (the forms are
    /// symmetric or nearly so in N, and the solver no longer branches on its sign).
    fn split_on_bonus_sign(&self) -> Option<[Obligation; 2]> {
        let mut vars = BTreeMap::new();
        Term::And(self.query.assertions.clone()).variables(&mut vars);
        if vars.get("N") != Some(&term::Sort::Real) {
            return None;
        }
        let bonus = Term::real_var("N");
        let zero = Term::Num(Q::zero());
        let case = |suffix: &str, words: &str, side: Term| {
            let mut query = self.query.clone();
            query.name = format!("{}-{suffix}", query.name);
            query.about = format!("{} (case {words})", query.about);
            query.assertions.push(side);
            Obligation {
                query,
                ..self.clone()
            }
        };
        Some([
            case("n-negative", "N < 0", Term::lt(bonus.clone(), zero.clone())),
            case("n-nonnegative", "N ≥ 0", Term::le(zero, bonus)),
        ])
    }
}

/// A class's form against the exact engine at one position and bonus: the confirmation of a
/// refutation.
#[derive(Clone, Debug, PartialEq)]
pub struct Discrepancy {
    /// The class, as a reader sees it.
    pub class: String,
    /// The position (sorted piles).
    pub position: Vec<i64>,
    /// The bonus N (Scoring Nim; Candy Nim has none).
    pub bonus: Option<Q>,
    /// The form's value there.
    pub form: Q,
    /// The exact payoff f_N there.
    pub exact: Q,
}

/// How a proof ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Every obligation is unsatisfiable.
    Proven {
        /// How many obligations were discharged.
        obligations: usize,
        /// How many of them nimlab's own refutation settled without a solver.
        in_process: usize,
    },
    /// An obligation is satisfiable: the forms fail the recurrence (or a claim does not follow).
    Refuted {
        /// The obligation.
        obligation: String,
        /// What it says.
        about: String,
        /// The solver's values of its variables.
        values: Vec<(String, Q)>,
        /// A form the exact engine shows wrong at the solver's point, when the point is small
        /// enough to solve.
        confirmed: Option<Box<Discrepancy>>,
    },
    /// The solver could not decide an obligation.
    Unknown {
        /// The obligation.
        obligation: String,
        /// The solver's words.
        why: String,
    },
}

/// How long one obligation may take by default, in seconds.
pub const SECONDS_PER_OBLIGATION: u32 = 120;

impl System {
    /// Reads and checks a forms file.
    pub fn load(path: &Path) -> Result<System> {
        let src = std::fs::read_to_string(path)
            .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
        System::parse(path, &src)
    }

    /// Parses a forms file's text; `path` is for messages.
    pub fn parse(path: &Path, src: &str) -> Result<System> {
        let raw: RawForms = toml::from_str(src).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            located(path, src, at, 1, e.message())
        })?;
        let game = match raw.game.get_ref().as_str() {
            "scoring-nim" => Game::ScoringNim,
            "candy-nim" => {
                let Some(block) = &raw.block else {
                    return Err(located(
                        path,
                        src,
                        raw.game.span().start,
                        1,
                        "a candy-nim forms file needs `block = B`: its positions are \
                         [a, B·m + x, B·m + (a xor x)] with a, x < B",
                    ));
                };
                let b = *block.get_ref();
                if !(2..=candy::MAX_BLOCK).contains(&b) || b & (b - 1) != 0 {
                    return Err(located(
                        path,
                        src,
                        block.span().start,
                        1,
                        &format!(
                            "`block` must be a power of two from 2 to {}, not {b}",
                            candy::MAX_BLOCK
                        ),
                    ));
                }
                Game::CandyNim { block: b as u32 }
            }
            other => {
                return Err(located(
                    path,
                    src,
                    raw.game.span().start,
                    1,
                    &format!(
                        "unknown game `{other}`; forms can be proven for: scoring-nim, candy-nim"
                    ),
                ));
            }
        };
        let closure_field = match (game, &raw.closure, &raw.block) {
            (Game::ScoringNim, Some(c), None) => c.clone(),
            (Game::ScoringNim, None, _) => {
                return Err(Error::invalid(format!(
                    "{}: a scoring-nim forms file needs `closure` (linear constraints on the piles)",
                    path.display()
                )));
            }
            (Game::ScoringNim, Some(_), Some(b)) => {
                return Err(located(
                    path,
                    src,
                    b.span().start,
                    1,
                    "`block` belongs to candy-nim forms files",
                ));
            }
            (Game::CandyNim { .. }, Some(c), _) => {
                return Err(located(
                    path,
                    src,
                    c.span().start,
                    1,
                    "a candy-nim forms file's closure is fixed by `block`; leave `closure` out",
                ));
            }
            (Game::CandyNim { block }, None, _) => {
                Spanned::new(0..0, candy::closure_text(block).to_string())
            }
        };
        let definitions = Registry::from_raw(
            path,
            src,
            String::new(),
            String::new(),
            Default::default(),
            &raw.define,
            &[],
        )?
        .definitions;
        let expr = |field: &Spanned<String>| -> Result<Expr> {
            parse_expr(field.get_ref()).map_err(|e| {
                located(
                    path,
                    src,
                    field.span().start + 1 + e.span.local_start(),
                    1,
                    &e.message,
                )
            })
        };
        if raw.piles.is_empty() || raw.piles.len() > 6 {
            return Err(Error::invalid(format!(
                "{}: `piles` names 1 to 6 piles, not {}",
                path.display(),
                raw.piles.len()
            )));
        }
        let closure = match game {
            Game::ScoringNim => expr(&closure_field)?,
            Game::CandyNim { .. } => parse_expr("true").expect("`true` parses"),
        };
        let mut classes = Vec::new();
        for rc in &raw.class {
            let c = rc.get_ref();
            let position = expr(&c.position)?;
            let ExprKind::List(items) = position.kind else {
                return Err(located(
                    path,
                    src,
                    c.position.span().start,
                    1,
                    "a class's position is a list of piles",
                ));
            };
            if items.len() != raw.piles.len() {
                return Err(located(
                    path,
                    src,
                    c.position.span().start,
                    1,
                    &format!(
                        "this position has {} piles; the file's positions have {}",
                        items.len(),
                        raw.piles.len()
                    ),
                ));
            }
            let mut params = Vec::new();
            for item in &items {
                free_names(item, &mut params);
            }
            if params.iter().any(|p| p == "N") {
                return Err(located(
                    path,
                    src,
                    c.position.span().start,
                    1,
                    "a position cannot depend on the bonus N",
                ));
            }
            if classes.iter().any(|d: &Class| d.slug == c.id) {
                return Err(located(
                    path,
                    src,
                    rc.span().start,
                    1,
                    &format!("class id `{}` is used twice", c.id),
                ));
            }
            classes.push(Class {
                slug: c.id.clone(),
                name: c.name.clone(),
                params,
                position: items,
                filter: c.filter.as_ref().map(&expr).transpose()?,
                form: expr(&c.form)?,
                position_text: c.position.get_ref().clone(),
                filter_text: c.filter.as_ref().map(|f| f.get_ref().clone()),
                form_text: c.form.get_ref().clone(),
            });
        }
        let system = System {
            path: path.to_path_buf(),
            game,
            title: raw.title,
            piles: raw.piles,
            closure,
            closure_text: closure_field.get_ref().clone(),
            definitions,
            classes,
        };
        // Every expression must translate before anything runs.
        for c in &system.classes {
            let mut tr = system.translator("check_");
            let (q, _, _) = c.instance(&mut tr, "q").map_err(|m| {
                Error::invalid(format!("{}: class `{}`: {m}", path.display(), c.slug))
            })?;
            c.form_at(&mut tr, &q).map_err(|m| {
                Error::invalid(format!("{}: class `{}`: form: {m}", path.display(), c.slug))
            })?;
            c.solved(&mut tr, &vec![Term::int(0); system.piles.len()])
                .map_err(|m| {
                    Error::invalid(format!("{}: class `{}`: {m}", path.display(), c.slug))
                })?;
        }
        if let Game::CandyNim { .. } = game {
            candy::shapes(&system)
                .map_err(|m| Error::invalid(format!("{}: {m}", path.display())))?;
        }
        let piles: Vec<Term> = system.piles.iter().map(|p| Term::int_var(p)).collect();
        system
            .closure_at(&piles)
            .map_err(|m| Error::invalid(format!("{}: closure: {m}", path.display())))?;
        Ok(system)
    }

    pub(super) fn translator(&self, prefix: &str) -> Translator<'_> {
        Translator::new(&self.definitions, None, prefix)
    }

    /// The closure's constraint at the piles `p`.
    pub(super) fn closure_at(&self, p: &[Term]) -> std::result::Result<Term, String> {
        let mut tr = self.translator("cl_");
        let mut scope: Scope = self
            .piles
            .iter()
            .cloned()
            .zip(p.iter().cloned().map(TVal::Num))
            .collect();
        let t = tr
            .formula(&self.closure, &mut scope)
            .map_err(|e| e.to_string())?;
        if !tr.facts.is_empty() {
            return Err("the closure must be linear constraints on the piles (no floors)".into());
        }
        Ok(t)
    }

    /// The obligations of the game's recurrence.
    pub fn obligations(&self) -> Result<Vec<Obligation>> {
        match self.game {
            Game::ScoringNim => scoring::obligations(self).map_err(Error::invalid),
            Game::CandyNim { block } => candy::obligations(self, block).map_err(Error::invalid),
        }
    }

    /// Proves the forms: every obligation tried as `refuting` says, then handed to `solver`
    /// (in parallel). A class whose offered moves fail to reach its form at some point gets
    /// that point as a new sample and its obligation is posed again (at most [`REFINEMENTS`]
    /// times). Returns the outcome, the
    /// obligations as finally posed (the certificate) and how they were posed, so that
    /// [`System::pose`] poses them again.
    pub fn prove(
        &self,
        solver: Solver,
        refuting: Refuting,
        seconds: u32,
    ) -> Result<(Outcome, Vec<Obligation>, Posing)> {
        let mut obligations = self.obligations()?;
        let mut answers = answer_all(&obligations, solver, refuting, seconds)?;
        // Candy Nim's attained obligations offer every move its samples found best; only
        // Scoring Nim's grow their offers from the solver's counterexamples.
        let refined = if self.game == Game::ScoringNim {
            self.classes.len()
        } else {
            0
        };
        let mut posing = Posing::default();
        for (ci, class) in self.classes.iter().enumerate().take(refined) {
            let name = format!("attained-{}", class.slug);
            let Some(at) = obligations.iter().position(|o| o.query.name == name) else {
                continue;
            };
            let mut extra = Vec::new();
            for _ in 0..REFINEMENTS {
                if !matches!(answers[at], Answer::Sat(_)) {
                    break;
                }
                let values = match solver.run(&obligations[at].query.script(true), seconds)? {
                    Answer::Sat(v) => v,
                    _ => break,
                };
                let Some(point) =
                    self.small_failure(ci, &obligations[at].query, &values, solver, seconds)?
                else {
                    break;
                };
                if extra.contains(&point) {
                    break;
                }
                extra.push(point);
                obligations[at] = scoring::attained(self, ci, &extra).map_err(Error::invalid)?;
                answers[at] = answer_all(
                    std::slice::from_ref(&obligations[at]),
                    solver,
                    refuting,
                    seconds,
                )?
                .remove(0);
            }
            if !extra.is_empty() {
                posing.refinements.push(Refinement {
                    class: class.slug.clone(),
                    points: extra,
                });
            }
        }
        let (obligations, answers, split) =
            split_undecided(obligations, answers, solver, refuting, seconds)?;
        posing.split = split;
        let outcome = outcome(&obligations, answers, solver, seconds)?;
        Ok((self.confirm(outcome, &obligations), obligations, posing))
    }

    /// The obligations a proof posed, posed again from the forms and `posing` (the replay of a
    /// certificate): the attained obligations of the refined classes with their recorded
    /// points, and the split obligations as their two cases, in the proof's order.
    pub fn pose(&self, posing: &Posing) -> Result<Vec<Obligation>> {
        let mut obligations = self.obligations()?;
        for r in &posing.refinements {
            let unknown = || {
                Error::invalid(format!(
                    "the certificate refines an unknown class `{}`",
                    r.class
                ))
            };
            let ci = self
                .classes
                .iter()
                .position(|c| c.slug == r.class)
                .ok_or_else(unknown)?;
            let name = format!("attained-{}", r.class);
            let at = obligations
                .iter()
                .position(|o| o.query.name == name)
                .filter(|_| self.game == Game::ScoringNim)
                .ok_or_else(unknown)?;
            obligations[at] = scoring::attained(self, ci, &r.points).map_err(Error::invalid)?;
        }
        split_as_recorded(obligations, &posing.split)
    }

    /// The first class holding position `p` (sorted) and its form's value there at bonus N.
    fn form_of(&self, p: &[i64], bonus: &Q) -> Option<(usize, Q)> {
        let piles: Vec<Term> = p.iter().map(|&x| Term::int(x)).collect();
        for (ci, class) in self.classes.iter().enumerate() {
            let mut tr = self.translator("confirm_");
            let member = class.member(&mut tr, &piles).ok()?;
            if scoring::constant_truth(&member) != Some(true) {
                continue;
            }
            let params: Vec<i64> = class
                .solved(&mut tr, &piles)
                .ok()?
                .iter()
                .map(|t| scoring::constant_value(t)?.to_i64())
                .collect::<Option<_>>()?;
            let (_, form) = class.value_at(&self.definitions, &params, bonus)?;
            return Some((ci, form));
        }
        None
    }

    /// A refutation checked against the exact engine: the first class member the
    /// counterexample names whose form differs from f_N there. An *attained* obligation that
    /// fails where every form is right only shows that the moves offered were too few, so it
    /// is UNKNOWN, not REFUTED.
    fn confirm(&self, outcome: Outcome, obligations: &[Obligation]) -> Outcome {
        if let Game::CandyNim { block } = self.game {
            return candy::confirm(self, block, outcome, obligations);
        }
        let Outcome::Refuted {
            obligation,
            about,
            values,
            ..
        } = outcome
        else {
            return outcome;
        };
        let Some(o) = obligations.iter().find(|o| o.query.name == obligation) else {
            return Outcome::Refuted {
                obligation,
                about,
                values,
                confirmed: None,
            };
        };
        let value = |name: &str| {
            values
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        // Each member's position and every position one move away: the forms the obligation
        // used are among theirs.
        let mut checked_all = !o.members.is_empty();
        let mut confirmed = None;
        for &(ci, prefix) in &o.members {
            let class = &self.classes[ci];
            let params: Option<Vec<i64>> = class
                .params
                .iter()
                .map(|p| value(&format!("{prefix}_{p}")).and_then(|v| v.to_i64()))
                .collect();
            let found = params.zip(value("N")).and_then(|(params, bonus)| {
                let (position, _) = class.value_at(&self.definitions, &params, &bonus)?;
                let exact = scoring::exact_neighbourhood(&position, &bonus)?;
                Some((exact, bonus))
            });
            let Some((exact, bonus)) = found else {
                checked_all = false;
                continue;
            };
            for (position, exact) in exact {
                match self.form_of(&position, &bonus) {
                    Some((di, form)) if form != exact => {
                        confirmed = Some(Box::new(Discrepancy {
                            class: self.classes[di].name.clone(),
                            position,
                            bonus: Some(bonus.clone()),
                            form,
                            exact,
                        }));
                        break;
                    }
                    Some(_) => {}
                    None => checked_all = false,
                }
            }
            if confirmed.is_some() {
                break;
            }
        }
        if confirmed.is_none() && o.attained && checked_all {
            let shown: Vec<String> = values.iter().map(|(n, v)| format!("{n} = {v}")).collect();
            return Outcome::Unknown {
                obligation,
                why: format!(
                    "no move offered reaches the form at {}, where the form agrees with the \
                     exact engine: the moves offered are too few",
                    shown.join(", ")
                ),
            };
        }
        Outcome::Refuted {
            obligation,
            about,
            values,
            confirmed,
        }
    }
}

impl System {
    /// A point where the *attained* obligation `query` of class `ci` fails, small enough for the
    /// exact engine to solve: the solver's `values` when they are, otherwise the same query asked
    /// again with every parameter at most 4, 8, 16, 32 (solvers tend to answer with huge
    /// parameters, and a failure at small parameters shows the same missing move).
    fn small_failure(
        &self,
        ci: usize,
        query: &term::Query,
        values: &[(String, Q)],
        solver: Solver,
        seconds: u32,
    ) -> Result<Option<(Vec<i64>, Q)>> {
        let first = scoring::failed_point(self, ci, values);
        if first
            .as_ref()
            .is_none_or(|(p, _)| p.iter().sum::<i64>() <= SOLVABLE_STONES)
        {
            return Ok(first);
        }
        for bound in [4, 8, 16, 32] {
            let mut bounded = query.clone();
            bounded.assertions.extend(
                query
                    .shown
                    .iter()
                    .filter(|v| *v != "N")
                    .map(|v| Term::le(Term::int_var(v), Term::int(bound))),
            );
            if let Answer::Sat(v) = solver.run(&bounded.script(true), seconds)? {
                return Ok(scoring::failed_point(self, ci, &v).or(first));
            }
        }
        Ok(first)
    }
}

/// The most stones of a failure point handed to the exact engine as a new sample.
const SOLVABLE_STONES: i64 = 200;

/// Where a statement is proven, in words with `$…$` mathematics: "all integers $k, x$ with
/// $k \ge 1,\ x \ge 2k + 2$ and every rational $N$" (the conjuncts of `over` listed apart; a
/// condition `true` left out).
fn domain_phrase(vars: &[String], reals: &[String], over: &Expr, defs: &Definitions) -> String {
    use crate::claims::expr::BinOp;
    fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match &e.kind {
            ExprKind::Binary(BinOp::And, a, b) => {
                conjuncts(a, out);
                conjuncts(b, out);
            }
            ExprKind::Bool(true) => {}
            _ => out.push(e),
        }
    }
    let mut parts = Vec::new();
    conjuncts(over, &mut parts);
    let conditions: Vec<String> = parts
        .iter()
        .map(|e| crate::claims::typeset::expr_math(e, defs))
        .collect();
    let integers: Vec<&str> = vars
        .iter()
        .filter(|v| !reals.contains(v))
        .map(String::as_str)
        .collect();
    let mut phrase = match (integers.len(), conditions.is_empty()) {
        (0, _) => String::new(),
        (1, true) => format!("every integer ${}$", integers[0]),
        (_, true) => format!("all integers ${}$", integers.join(", ")),
        (1, false) if conditions.len() == 1 => format!("every integer ${}$", conditions[0]),
        (_, false) => format!(
            "all integers ${}$ with ${}$",
            integers.join(", "),
            conditions.join(",\\ ")
        ),
    };
    let rationals: Vec<&str> = vars
        .iter()
        .filter(|v| reals.contains(v))
        .map(String::as_str)
        .collect();
    if !rationals.is_empty() {
        if !phrase.is_empty() {
            phrase.push_str(" and ");
        }
        phrase.push_str(&format!("every rational ${}$", rationals.join(", ")));
    }
    phrase
}

/// Who found `obligations` obligations unsatisfiable when `in_process` of them were refuted
/// in-process, as a phrase: `z3`, or `nimlab's Fourier–Motzkin refutation (for 1040 of the
/// formulas) and z3 (for the other 20)`.
pub fn deciders(solver: Solver, obligations: usize, in_process: usize) -> String {
    const OURS: &str = "nimlab's Fourier–Motzkin refutation";
    match in_process {
        0 => solver.program().to_string(),
        n if n >= obligations => OURS.to_string(),
        n => format!(
            "{OURS} (for {n} of the formulas) and {} (for the other {})",
            solver.program(),
            obligations - n
        ),
    }
}

/// How many times a class's *attained* obligation is posed again with the point where it failed.
pub const REFINEMENTS: usize = 8;

/// Whether obligations are tried in-process ([`refute`]) before the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refuting {
    /// nimlab's own refutation first; the solver answers what it leaves open (a proof).
    InProcessFirst,
    /// Every obligation goes to the solver (a replay, which must not rest on nimlab's code).
    SolverOnly,
}

/// What nimlab's own refutation leaves open of a query: `None` when it refutes the query (every
/// case, when it has cases), the query without its refuted cases otherwise.
fn left_open(query: &Query) -> Option<std::borrow::Cow<'_, Query>> {
    use std::borrow::Cow;
    if query.cases.is_empty() {
        return match refute::refute(&query.assertions, None) {
            Refutation::Refuted => None,
            Refutation::Open => Some(Cow::Borrowed(query)),
        };
    }
    let Some(refuter) = refute::Refuter::new(&query.assertions) else {
        return Some(Cow::Borrowed(query));
    };
    let open: Vec<Term> = query
        .cases
        .iter()
        .filter(|c| refuter.refute(Some(c)) == Refutation::Open)
        .cloned()
        .collect();
    if open.is_empty() {
        None
    } else if open.len() == query.cases.len() {
        Some(Cow::Borrowed(query))
    } else {
        Some(Cow::Owned(Query {
            cases: open,
            ..query.clone()
        }))
    }
}

/// Every obligation's answer, in order. With [`Refuting::InProcessFirst`] each is first tried
/// in-process on all cores; what is left goes to the solver, cut into runs of consecutive
/// obligations, each run answered by one solver session ([`Solver::run_session`]), the runs
/// side by side on all cores. Four runs per core keep the cores busy when a few obligations
/// take far longer than the rest.
fn answer_all(
    obligations: &[Obligation],
    solver: Solver,
    refuting: Refuting,
    seconds: u32,
) -> Result<Vec<Answer>> {
    let open: Vec<Option<std::borrow::Cow<'_, Query>>> = match refuting {
        Refuting::InProcessFirst => obligations
            .par_iter()
            .map(|o| left_open(&o.query))
            .collect(),
        Refuting::SolverOnly => obligations
            .iter()
            .map(|o| Some(std::borrow::Cow::Borrowed(&o.query)))
            .collect(),
    };
    let pending: Vec<(usize, &Query)> = open
        .iter()
        .enumerate()
        .filter_map(|(i, q)| q.as_deref().map(|q| (i, q)))
        .collect();
    let mut answers: Vec<Option<Answer>> = open
        .iter()
        .map(|q| q.is_none().then_some(Answer::Refuted))
        .collect();
    let runs = (rayon::current_num_threads() * 4).clamp(1, pending.len().max(1));
    // Run r takes obligations r, r + runs, r + 2·runs, …: a file's costly classes tend to sit
    // together (the largest piles last), and dealing them out keeps the runs even.
    let answered: Vec<Vec<Answer>> = (0..runs)
        .into_par_iter()
        // One task per run: one run may hold a query that takes the solver seconds.
        .with_max_len(1)
        .map(|r| {
            let posed: Vec<_> = pending
                .iter()
                .skip(r)
                .step_by(runs)
                .map(|(_, q)| q.posed())
                .collect();
            if posed.is_empty() {
                return Ok(Vec::new());
            }
            solver.run_session(&posed, seconds)
        })
        .collect::<Result<_>>()?;
    for (r, run) in answered.into_iter().enumerate() {
        for (j, a) in run.into_iter().enumerate() {
            answers[pending[r + j * runs].0] = Some(a);
        }
    }
    Ok(answers
        .into_iter()
        .map(|a| a.expect("every obligation is refuted or in one run"))
        .collect())
}

/// Each obligation the solver left undecided replaced by its two cases on the sign of N
/// ([`Obligation::split_on_bonus_sign`]), posed in turn; the others kept with their answers.
fn split_undecided(
    obligations: Vec<Obligation>,
    answers: Vec<Answer>,
    solver: Solver,
    refuting: Refuting,
    seconds: u32,
) -> Result<(Vec<Obligation>, Vec<Answer>, Vec<String>)> {
    let mut kept = Vec::with_capacity(obligations.len());
    let mut said = Vec::with_capacity(answers.len());
    let mut split = Vec::new();
    for (o, a) in obligations.into_iter().zip(answers) {
        match (&a, o.split_on_bonus_sign()) {
            (Answer::Unknown(_), Some(cases)) => {
                let case_answers = answer_all(&cases, solver, refuting, seconds)?;
                split.push(o.query.name.clone());
                kept.extend(cases);
                said.extend(case_answers);
            }
            _ => {
                kept.push(o);
                said.push(a);
            }
        }
    }
    Ok((kept, said, split))
}

/// `obligations` with each one named in `split` replaced by its two cases on the sign of N, as
/// a proof recorded them ([`split_undecided`]): the replay of a certificate.
fn split_as_recorded(obligations: Vec<Obligation>, split: &[String]) -> Result<Vec<Obligation>> {
    let mut posed = Vec::with_capacity(obligations.len() + split.len());
    for o in obligations {
        if split.contains(&o.query.name) {
            let cases = o.split_on_bonus_sign().ok_or_else(|| {
                Error::invalid(format!(
                    "the certificate splits {} on the sign of N, which it does not have",
                    o.query.name
                ))
            })?;
            posed.extend(cases);
        } else {
            posed.push(o);
        }
    }
    Ok(posed)
}

/// Runs the obligations (tried as `refuting` says, then with `solver`, each for at most
/// `seconds`; an undecided one once more as its two cases on the sign of N); the first failure
/// in obligation order is reported.
pub fn run(
    obligations: &[Obligation],
    solver: Solver,
    refuting: Refuting,
    seconds: u32,
) -> Result<Outcome> {
    run_posed(obligations.to_vec(), solver, refuting, seconds).map(|(outcome, ..)| outcome)
}

/// [`run`], also returning the obligations as finally posed and the names of those split on
/// the sign of N, which a certificate records.
fn run_posed(
    obligations: Vec<Obligation>,
    solver: Solver,
    refuting: Refuting,
    seconds: u32,
) -> Result<(Outcome, Vec<Obligation>, Vec<String>)> {
    let answers = answer_all(&obligations, solver, refuting, seconds)?;
    let (obligations, answers, split) =
        split_undecided(obligations, answers, solver, refuting, seconds)?;
    let outcome = outcome(&obligations, answers, solver, seconds)?;
    Ok((outcome, obligations, split))
}

fn outcome(
    obligations: &[Obligation],
    answers: Vec<Answer>,
    solver: Solver,
    seconds: u32,
) -> Result<Outcome> {
    let mut in_process = 0;
    for (o, a) in obligations.iter().zip(answers) {
        match a {
            Answer::Unsat => {}
            Answer::Refuted => in_process += 1,
            Answer::Sat(_) => {
                let values = match solver.run(&o.query.script(true), seconds)? {
                    Answer::Sat(v) => v,
                    _ => Vec::new(),
                };
                return Ok(Outcome::Refuted {
                    obligation: o.query.name.clone(),
                    about: o.query.about.clone(),
                    values,
                    confirmed: None,
                });
            }
            Answer::Unknown(why) => {
                return Ok(Outcome::Unknown {
                    obligation: o.query.name.clone(),
                    why,
                });
            }
        }
    }
    Ok(Outcome::Proven {
        obligations: obligations.len(),
        in_process,
    })
}

/// The names an expression uses that are neither functions nor bound inside it.
fn free_names(e: &Expr, out: &mut Vec<String>) {
    use ExprKind as K;
    match &e.kind {
        K::Var(n) => {
            if !out.contains(n) {
                out.push(n.clone());
            }
        }
        K::Int(_) | K::Bool(_) | K::Str(_) => {}
        K::List(xs) | K::Call(_, xs) => xs.iter().for_each(|x| free_names(x, out)),
        K::Neg(x) | K::Not(x) => free_names(x, out),
        K::Binary(_, a, b) => {
            free_names(a, out);
            free_names(b, out);
        }
        K::Compare(a, rest) => {
            free_names(a, out);
            rest.iter().for_each(|(_, x)| free_names(x, out));
        }
        K::If(c, a, b) => {
            free_names(c, out);
            free_names(a, out);
            free_names(b, out);
        }
        K::Let(name, value, body) => {
            free_names(value, out);
            let mut inner = Vec::new();
            free_names(body, &mut inner);
            for n in inner {
                if &n != name && !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        // Not looked into: a name used only inside an aggregate is not found, and the
        // translator then refuses it as unknown, by name.
        K::Aggregate(..) => {}
    }
}

impl Class {
    /// The position and the form's value of the member with integer parameters `params` at
    /// bonus N, by the claims evaluator (exact); `None` when they do not evaluate to numbers
    /// (the parameters outside the class, say).
    pub fn value_at(&self, defs: &Definitions, params: &[i64], bonus: &Q) -> Option<(Vec<i64>, Q)> {
        use crate::claims::eval::Evaluator;
        use crate::claims::value::Value;
        let mut engines = crate::claims::engines::Engines::new();
        let mut ev = Evaluator::new(defs, &mut engines);
        let mut env: crate::claims::eval::Env = self
            .params
            .iter()
            .zip(params)
            .map(|(p, &v)| (p.as_str(), Value::Num(Q::int(v))))
            .collect();
        env.push(("N", Value::Num(bonus.clone())));
        let mut position = Vec::new();
        for pile in &self.position {
            match ev.eval(pile, &mut env).ok()? {
                Value::Num(q) => position.push(q.to_i64()?),
                _ => return None,
            }
        }
        position.sort_unstable_by(|a, b| b.cmp(a));
        match ev.eval(&self.form, &mut env).ok()? {
            Value::Num(q) => Some((position, q)),
            _ => None,
        }
    }

    /// The parameters bound to `values`.
    fn scope(&self, values: Vec<Term>) -> Scope {
        self.params
            .iter()
            .cloned()
            .zip(values.into_iter().map(TVal::Num))
            .collect()
    }

    /// Fresh parameter variables `prefix_param`, the position in them, and the class's
    /// constraint on them.
    pub(super) fn instance(
        &self,
        tr: &mut Translator<'_>,
        prefix: &str,
    ) -> std::result::Result<(Vec<String>, Vec<Term>, Term), String> {
        let names: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{prefix}_{p}"))
            .collect();
        let values: Vec<Term> = names.iter().map(|n| Term::int_var(n)).collect();
        let (pos, cond) = self.at(tr, &values)?;
        Ok((names, pos, cond))
    }

    /// The position and the constraint at parameter values `values`.
    pub(super) fn at(
        &self,
        tr: &mut Translator<'_>,
        values: &[Term],
    ) -> std::result::Result<(Vec<Term>, Term), String> {
        let mut scope = self.scope(values.to_vec());
        let mut pos = Vec::new();
        for e in &self.position {
            let t = tr
                .num(e, &mut scope)
                .map_err(|e| format!("position: {e}"))?;
            if t.sort() != Sort::Int {
                return Err("a position's piles must be integers".into());
            }
            pos.push(t);
        }
        let cond = match &self.filter {
            Some(f) => tr
                .formula(f, &mut scope)
                .map_err(|e| format!("where: {e}"))?,
            None => Term::Bool(true),
        };
        Ok((pos, cond))
    }

    /// The form at the parameter variables `q` and the bonus N.
    pub(super) fn form_at(
        &self,
        tr: &mut Translator<'_>,
        q: &[String],
    ) -> std::result::Result<Term, String> {
        self.form_with(tr, q.iter().map(|n| Term::int_var(n)).collect())
    }

    /// The form at parameter values `values` and the bonus N.
    pub(super) fn form_with(
        &self,
        tr: &mut Translator<'_>,
        values: Vec<Term>,
    ) -> std::result::Result<Term, String> {
        self.form_with_bonus(tr, values, Term::real_var("N"))
    }

    /// The form at parameter values `values` and the bonus `n`.
    pub(super) fn form_with_bonus(
        &self,
        tr: &mut Translator<'_>,
        values: Vec<Term>,
        n: Term,
    ) -> std::result::Result<Term, String> {
        let mut scope = self.scope(values);
        scope.push(("N".into(), TVal::Num(n)));
        tr.num(&self.form, &mut scope).map_err(|e| e.to_string())
    }

    /// The parameters read off the piles `t` (each from a pile where it appears alone with the
    /// parameters already read), with the divisibility conditions that make them integers.
    fn solve(
        &self,
        tr: &mut Translator<'_>,
        t: &[Term],
    ) -> std::result::Result<(Vec<Term>, Vec<Term>), String> {
        let symbolic: Vec<Term> = self
            .params
            .iter()
            .map(|p| Term::int_var(&format!("param_{p}")))
            .collect();
        let (pos, _) = self.at(tr, &symbolic)?;
        let forms: Vec<(BTreeMap<String, Q>, Q)> = pos
            .iter()
            .map(|x| {
                linear(x).ok_or_else(|| {
                    "a position's piles must be affine in the parameters".to_string()
                })
            })
            .collect::<std::result::Result<_, _>>()?;
        let mut known: BTreeMap<String, Term> = BTreeMap::new();
        let mut conds = Vec::new();
        while known.len() < self.params.len() {
            let mut progress = false;
            for (i, (coeffs, constant)) in forms.iter().enumerate() {
                let unknown: Vec<(&String, &Q)> = coeffs
                    .iter()
                    .filter(|(n, _)| !known.contains_key(*n))
                    .collect();
                let [(name, c)] = unknown.as_slice() else {
                    continue;
                };
                if !c.is_integer()
                    || coeffs.values().any(|q| !q.is_integer())
                    || !constant.is_integer()
                {
                    return Err("a position's coefficients must be integers".into());
                }
                // t_i − constant − Σ (known coefficients · values) = c · param.
                let mut rest = t[i].clone().minus(Term::Num(constant.clone()));
                for (n, q) in coeffs {
                    if let Some(v) = known.get(n) {
                        rest = rest.minus(v.clone().scale(q.clone()));
                    }
                }
                let d = c.abs();
                let quotient = Term::Div(Box::new(rest.clone()), d.numer().into_owned());
                let value = if c.signum() < 0 {
                    quotient.negated()
                } else {
                    quotient
                };
                if d != Q::one() {
                    conds.push(Term::eq(
                        Term::Mod(Box::new(rest), d.numer().into_owned()),
                        Term::int(0),
                    ));
                }
                known.insert((*name).clone(), value);
                progress = true;
            }
            if !progress {
                let missing: Vec<&String> = self
                    .params
                    .iter()
                    .filter(|p| !known.contains_key(&format!("param_{p}")))
                    .collect();
                return Err(format!(
                    "parameters {missing:?} cannot be read off the position (each must appear alone in some pile once the others are known)"
                ));
            }
        }
        let values = self
            .params
            .iter()
            .map(|p| known[&format!("param_{p}")].clone())
            .collect();
        Ok((values, conds))
    }

    /// The parameters of the class's member `t` (meaningful when [`Class::member`] holds).
    pub(super) fn solved(
        &self,
        tr: &mut Translator<'_>,
        t: &[Term],
    ) -> std::result::Result<Vec<Term>, String> {
        Ok(self.solve(tr, t)?.0)
    }

    /// Whether the piles `t` are a position of the class.
    pub(super) fn member(
        &self,
        tr: &mut Translator<'_>,
        t: &[Term],
    ) -> std::result::Result<Term, String> {
        let (values, mut conds) = self.solve(tr, t)?;
        let (pos, cond) = self.at(tr, &values)?;
        conds.extend(
            pos.iter()
                .zip(t)
                .map(|(x, y)| Term::eq(x.clone(), y.clone())),
        );
        conds.push(cond);
        Ok(Term::And(conds))
    }
}

/// A forms file's proof: the system, the solver's outcome and the number of obligations.
type ProvenSystem = (System, Outcome, usize);

/// Systems proven in this process, by forms file: a claim file refers to one system from many
/// claims, and the system's obligations are the costly part. Each file has a lock of its own, so
/// that two files are proven at the same time while the claims of one wait for its proof.
type ProvenSystems =
    std::sync::Mutex<BTreeMap<PathBuf, std::sync::Arc<std::sync::Mutex<Option<ProvenSystem>>>>>;

/// Systems proven in this process (see above).
static PROVEN_SYSTEMS: std::sync::LazyLock<ProvenSystems> =
    std::sync::LazyLock::new(Default::default);

/// The proof of the forms file at `path` with `solver`, run the first time it is asked for in
/// this process. An error (a bad forms file, no solver) is not kept: the next call meets it
/// again.
fn proven_system(path: &Path, solver: Solver) -> Result<ProvenSystem> {
    let slot = {
        let mut cache = PROVEN_SYSTEMS.lock().unwrap_or_else(|e| e.into_inner());
        cache.entry(path.to_path_buf()).or_default().clone()
    };
    let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(entry) = &*slot {
        return Ok(entry.clone());
    }
    let system = System::load(path)?;
    let (outcome, obligations, _) =
        system.prove(solver, Refuting::InProcessFirst, SECONDS_PER_OBLIGATION)?;
    let entry = (system, outcome, obligations.len());
    *slot = Some(entry.clone());
    Ok(entry)
}

/// Proves the forms files `paths` ahead of the claims that refer to them, side by side on all
/// cores. A claim waiting for a proof holds a worker thread that cannot help with the proof's
/// obligations, so claims checked in parallel would otherwise run one file's solver queries one
/// at a time. Errors are left to the claims, which meet them again in [`prove_claim`].
pub fn prove_ahead(paths: &[&Path]) {
    paths.par_iter().for_each(|path| {
        let _ = proven_system(path, Solver::Z3);
    });
}

/// The proof of a claim with a `proof` table: its statement over the closed forms of a forms
/// file, or over the file's definitions alone. `Some` when the forms (if any) and the statement
/// are proven, `None` when either is refuted or undecided (the claim keeps the verdict of its
/// finite check). An error when the forms file is bad, the statement does not translate (a
/// game value without forms), or no solver runs.
pub fn prove_claim(
    defs: &Definitions,
    check: &crate::claims::registry::ExprCheck,
    proof: &crate::claims::registry::ProofRef,
) -> Result<Option<crate::claims::finding::Proof>> {
    use crate::claims::registry::ProofBasis;
    let solver = Solver::Z3;
    // The forms the statement reads its game values from, when it names any: proven first.
    let forms = match &proof.basis {
        ProofBasis::Forms { path, .. } => {
            let (system, outcome, count) = proven_system(path, solver)?;
            let Outcome::Proven { in_process, .. } = outcome else {
                return Ok(None);
            };
            Some((system, path, count, in_process))
        }
        ProofBasis::Definitions => None,
    };
    let system = forms.as_ref().map(|(system, ..)| system);
    let statement_outcome = run(
        &pose_claim_statement(system, defs, check, proof)?,
        solver,
        Refuting::InProcessFirst,
        SECONDS_PER_OBLIGATION,
    )?;
    let Outcome::Proven {
        obligations,
        in_process,
    } = statement_outcome
    else {
        return Ok(None);
    };
    let claim_vars: Vec<String> = check.range.binders.iter().map(|b| b.name.clone()).collect();
    let domain = domain_phrase(&claim_vars, &proof.reals, &claim_domain(check, proof), defs);
    let lemma = proof
        .lemma
        .as_ref()
        .map(|l| crate::claims::finding::ProvenLemma {
            formula: crate::claims::typeset::expr_math(&l.holds, defs),
            over: (!matches!(l.over.kind, ExprKind::Bool(true)))
                .then(|| crate::claims::typeset::expr_math(&l.over, defs)),
            follows: l.follows.clone(),
        });
    let Some((system, path, count, forms_in_process)) = forms else {
        return Ok(Some(crate::claims::finding::Proof::Direct {
            obligations,
            domain,
            solver: deciders(solver, obligations, in_process),
            lemma,
        }));
    };
    Ok(Some(crate::claims::finding::Proof::Induction {
        forms: lexical(path),
        title: system.title.clone(),
        classes: system
            .classes
            .iter()
            .map(|c| crate::claims::finding::ProvenClass {
                name: c.name.clone(),
                form: crate::claims::typeset::expr_math(&c.form, &system.definitions),
            })
            .collect(),
        recurrence: system.game.recurrence().to_string(),
        words: Box::new(system.game.words()),
        obligations: count + obligations,
        domain,
        solver: deciders(solver, count + obligations, forms_in_process + in_process),
        lemma,
    }))
}

/// The domain of a claim's variables that its proof covers: the proof's `over`, and the claim's
/// `where` when its own formula is what is proven (a lemma has its own domain).
fn claim_domain(
    check: &crate::claims::registry::ExprCheck,
    proof: &crate::claims::registry::ProofRef,
) -> Expr {
    match &check.filter {
        Some(f) if where_joins_domain(check, proof) => proof.over.clone().and(f.clone()),
        _ => proof.over.clone(),
    }
}

/// Whether the claim's `where` is part of the domain its proof covers: when it has one and its
/// own formula is what is proven, not a lemma.
fn where_joins_domain(
    check: &crate::claims::registry::ExprCheck,
    proof: &crate::claims::registry::ProofRef,
) -> bool {
    check.filter.is_some() && proof.lemma.is_none()
}

/// The obligations of a claim's statement ([`pose_statement`]) over `system`'s forms, or over
/// the file's definitions alone when `system` is `None`: the claim's own formula (its
/// `actual == expected`, or its `holds`) on [`claim_domain`], or its lemma on the proof's
/// `over` and the lemma's own.
pub fn pose_claim_statement(
    system: Option<&System>,
    defs: &Definitions,
    check: &crate::claims::registry::ExprCheck,
    proof: &crate::claims::registry::ProofRef,
) -> Result<Vec<Obligation>> {
    use crate::claims::expr::{CmpOp, Span};
    use crate::claims::registry::Assertion;
    let claim_vars: Vec<String> = check.range.binders.iter().map(|b| b.name.clone()).collect();
    match &proof.lemma {
        None => {
            let formula = match &check.assertion {
                Assertion::Holds(e) => e.clone(),
                Assertion::Equal {
                    actual, expected, ..
                } => Expr {
                    kind: ExprKind::Compare(
                        Box::new(actual.clone()),
                        vec![(CmpOp::Eq, expected.clone())],
                    ),
                    span: Span::default(),
                },
            };
            pose_statement(
                system,
                defs,
                Statement {
                    vars: &claim_vars,
                    reals: &proof.reals,
                    over: &claim_domain(check, proof),
                    formula: &formula,
                },
            )
        }
        Some(lemma) => {
            let mut vars = claim_vars;
            free_names(&lemma.holds, &mut vars);
            free_names(&lemma.over, &mut vars);
            let reals: Vec<String> = proof.reals.iter().chain(&lemma.reals).cloned().collect();
            pose_statement(
                system,
                defs,
                Statement {
                    vars: &vars,
                    reals: &reals,
                    over: &proof.over.clone().and(lemma.over.clone()),
                    formula: &lemma.holds,
                },
            )
        }
    }
}

/// `path` without `.` and `dir/..` ([`crate::fsio::lexically_normal`]): how a report names a
/// forms file.
fn lexical(path: &Path) -> String {
    crate::fsio::lexically_normal(path).display().to_string()
}

/// A formula to prove for every value of its variables allowed by a constraint.
#[derive(Clone, Copy, Debug)]
pub struct Statement<'a> {
    /// The variables (integers, or rationals when named in `reals`).
    pub vars: &'a [String],
    /// The variables that range over the rationals.
    pub reals: &'a [String],
    /// The constraint on the variables.
    pub over: &'a Expr,
    /// The formula.
    pub formula: &'a Expr,
}

/// A claim's statement over proven forms: its formula with every `payoff` read from the forms,
/// for every value of its variables allowed by its `over`. Without forms (`system` = `None`)
/// the statement may use the file's definitions only: a game value in it is an error naming the
/// call. `refuting` says whether nimlab's own refutation answers first (a proof) or the solver
/// answers every obligation (a replay).
pub fn prove_statement(
    system: Option<&System>,
    defs: &Definitions,
    statement: Statement<'_>,
    solver: Solver,
    refuting: Refuting,
) -> Result<Outcome> {
    let obligations = pose_statement(system, defs, statement)?;
    run(&obligations, solver, refuting, SECONDS_PER_OBLIGATION)
}

/// The obligations of a statement ([`prove_statement`]): the statement itself wherever `over`
/// holds, that each position it reads lies in the forms' closure, and each condition its domain
/// decides.
pub fn pose_statement(
    system: Option<&System>,
    defs: &Definitions,
    statement: Statement<'_>,
) -> Result<Vec<Obligation>> {
    let Statement {
        vars,
        reals,
        over,
        formula: statement,
    } = statement;
    let scoring_calls = system.map(|system| scoring::ScoringCalls {
        system,
        positions: RefCell::new(Vec::new()),
    });
    let candy_calls = system.map(|system| candy::CandyCalls { system });
    let calls: Option<&dyn translate::GameCalls> = match system.map(|s| s.game) {
        Some(Game::ScoringNim) => scoring_calls.as_ref().map(|c| c as _),
        Some(Game::CandyNim { .. }) => candy_calls.as_ref().map(|c| c as _),
        None => None,
    };
    let mut tr = Translator::new(defs, calls, "st_");
    let mut scope: Scope = vars
        .iter()
        .map(|v| {
            let t = if reals.contains(v) {
                Term::real_var(&format!("v_{v}"))
            } else {
                Term::int_var(&format!("v_{v}"))
            };
            (v.clone(), TVal::Num(t))
        })
        .collect();
    let over_t = tr
        .formula(over, &mut scope)
        .map_err(|e| Error::invalid(format!("over: {e}")))?;
    tr.assumptions.push(over_t.clone());
    let goal = tr
        .formula(statement, &mut scope)
        .map_err(|e| Error::invalid(format!("the claim's formula: {e}")))?;
    let shown: Vec<String> = vars.iter().map(|v| format!("v_{v}")).collect();
    // Each obligation: wherever the facts and `over` hold, so does `claim`.
    let implied = |name: String, about: &str, claim: Term| {
        let mut a = tr.facts.clone();
        a.extend([over_t.clone(), claim.negation()]);
        Obligation::new(name, about.into(), a, shown.clone())
    };
    let mut obligations = vec![implied(
        "statement".into(),
        if system.is_some() {
            "the claim follows from the forms"
        } else {
            "the claim follows from the definitions"
        },
        goal,
    )];
    if let (Some(system), Some(calls)) = (system, &scoring_calls) {
        for (k, t) in calls.positions.borrow().iter().enumerate() {
            obligations.push(implied(
                format!("statement-closure-{k}"),
                "the claim's positions lie in the closure",
                system.closure_at(t).map_err(Error::invalid)?,
            ));
        }
    }
    for (k, d) in tr.decided.iter().enumerate() {
        obligations.push(implied(
            format!("statement-decided-{k}"),
            "a condition the claim's domain decides",
            d.clone(),
        ));
    }
    Ok(obligations)
}
