//! Claim files: TOML with one `[[claim]]` table per claim (format in `data/claims/README.md`).
//!
//! Loading parses and checks every expression of the file before anything is evaluated; an
//! error names the file, the line and the column, shows the line with a caret under the fault
//! and says what was expected there.

use std::cell::RefCell;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use super::eval::Definitions;
use super::expr::{
    Binder, Domain, Expr, ExprError, Span, parse_binders, parse_expr, parse_function,
};
use super::finding::{Commentary, Importance, PaperStatus};
use super::typeset::{ListStyle, PointForm};
use super::value::Ty;
use crate::error::{Error, Result};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    paper: String,
    title: Option<String>,
    /// How reports write list literals: "brackets" (default) or "tuples".
    #[serde(default)]
    lists: ListStyle,
    #[serde(default)]
    define: Vec<Spanned<RawDefine>>,
    #[serde(default)]
    claim: Vec<Spanned<RawClaim>>,
}

/// The parts of a file [`Registry::from_raw`] checks.
struct RawParts<'a> {
    define: &'a [Spanned<RawDefine>],
    claim: &'a [Spanned<RawClaim>],
}

/// One entry of `define`: `"F(k) = body"`, or a table that also says how reports show the
/// function instead of inlining it: `{ def = "F(k) = body", display = "F_{#k}", means = "…" }`.
/// A study file (`crate::study`) holds the same entries, read by the same code.
pub(crate) enum RawDefine {
    Plain(String),
    Shown(RawShown),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawShown {
    def: Spanned<String>,
    display: Spanned<String>,
    means: String,
}

impl<'de> Deserialize<'de> for RawDefine {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Entry;
        impl<'de> serde::de::Visitor<'de> for Entry {
            type Value = RawDefine;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a definition \"F(x) = …\" or a table { def = \"F(x) = …\", display = \"…\", \
                     means = \"…\" }",
                )
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<RawDefine, E> {
                Ok(RawDefine::Plain(v.to_string()))
            }

            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                map: M,
            ) -> std::result::Result<RawDefine, M::Error> {
                RawShown::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(RawDefine::Shown)
            }
        }
        d.deserialize_any(Entry)
    }
}

/// The check fields a claim and a reading share.
macro_rules! raw_with_check {
    ($(#[$m:meta])* $vis:vis struct $name:ident { $($(#[$fm:meta])* $field:ident : $ty:ty,)* }) => {
        $(#[$m])*
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            $($(#[$fm])* $field: $ty,)*
            #[serde(rename = "for")]
            range: Option<Spanned<String>>,
            deep: Option<Spanned<String>>,
            #[serde(rename = "where")]
            filter: Option<Spanned<String>>,
            holds: Option<Spanned<String>>,
            actual: Option<Spanned<String>>,
            expected: Option<Spanned<String>>,
            correction: Option<Spanned<String>>,
            quantities: Option<Spanned<Vec<String>>>,
            checks: Option<Spanned<String>>,
        }

        impl $name {
            fn fields(&self) -> RawCheck<'_> {
                RawCheck {
                    range: self.range.as_ref(),
                    deep: self.deep.as_ref(),
                    filter: self.filter.as_ref(),
                    holds: self.holds.as_ref(),
                    actual: self.actual.as_ref(),
                    expected: self.expected.as_ref(),
                    correction: self.correction.as_ref(),
                    quantities: self.quantities.as_ref(),
                    checks: self.checks.as_ref(),
                }
            }
        }
    };
}

/// The check fields of a claim or a reading.
struct RawCheck<'a> {
    range: Option<&'a Spanned<String>>,
    deep: Option<&'a Spanned<String>>,
    filter: Option<&'a Spanned<String>>,
    holds: Option<&'a Spanned<String>>,
    actual: Option<&'a Spanned<String>>,
    expected: Option<&'a Spanned<String>>,
    correction: Option<&'a Spanned<String>>,
    quantities: Option<&'a Spanned<Vec<String>>>,
    checks: Option<&'a Spanned<String>>,
}

raw_with_check! {
    struct RawReading {
        name: String,
        #[serde(default)]
        literal: bool,
    }
}

raw_with_check! {
    pub(crate) struct RawClaim {
        id: String,
        label: String,
        statement: String,
        #[serde(default)]
        open: bool,
        note: Option<String>,
        #[serde(default)]
        known_false: bool,
        #[serde(default)]
        new_result: bool,
        #[serde(default)]
        importance: Importance,
        rank: Option<u32>,
        headline: Option<String>,
        point: Option<Spanned<String>>,
        proof_gap: Option<String>,
        builtin: Option<String>,
        #[serde(default)]
        args: toml::Table,
        #[serde(default)]
        reading: Vec<RawReading>,
        proof: Option<Spanned<RawProofRef>>,
    }
}

/// A claim's `proof = { forms = "…", over = "…", reals = […], lemma = {…} }` (`forms` omitted
/// for a statement about the file's definitions alone).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawProofRef {
    forms: Option<String>,
    over: Option<String>,
    #[serde(default)]
    reals: Vec<String>,
    lemma: Option<RawLemma>,
}

/// A proof's `lemma = { holds = "…", over = "…", reals = […], follows = "…" }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawLemma {
    holds: String,
    over: Option<String>,
    #[serde(default)]
    reals: Vec<String>,
    follows: String,
}

/// Where a claim's statement is proven for every value of its variables: what it is proven
/// from, and the domain of the claim's variables.
#[derive(Clone, Debug, PartialEq)]
pub struct ProofRef {
    /// What the statement is proven from.
    pub basis: ProofBasis,
    /// The constraint on the claim's variables (all values satisfying it are covered).
    pub over: Expr,
    /// `over` as written.
    pub over_text: String,
    /// The variables that range over the rationals (the others over the integers).
    pub reals: Vec<String>,
    /// What is proven from the forms when the claim's own formula cannot be (a count, a set):
    /// the lemma and the step from it to the statement.
    pub lemma: Option<Lemma>,
}

/// What a claim's statement is proven from.
#[derive(Clone, Debug, PartialEq)]
pub enum ProofBasis {
    /// The closed forms of a forms file, which `nimlab prove` proves by induction: every game
    /// value the statement names is read from them.
    Forms {
        /// The forms file as the claim file names it (relative to the claim file's folder).
        forms: String,
        /// The forms file's path.
        path: std::path::PathBuf,
    },
    /// The claim file's definitions alone (`proof` without `forms`): a statement about its own
    /// functions (such as $F_k(\pm 2k) = 0$), which names no game value, is proven directly.
    Definitions,
}

impl ProofRef {
    /// The forms file the proof rests on, if any.
    pub fn forms_path(&self) -> Option<&std::path::Path> {
        match &self.basis {
            ProofBasis::Forms { path, .. } => Some(path),
            ProofBasis::Definitions => None,
        }
    }
}

/// A formula proven from a forms file in place of a claim's own formula, when that one is not
/// linear arithmetic (the number of breakpoints of a payoff is a count over a set): its free
/// variables range over the integers (the rationals when listed in `reals`) allowed by the
/// proof's `over` and its own, and `follows` says in words, completely, why the claim's
/// statement holds wherever the lemma does. The report prints both.
#[derive(Clone, Debug, PartialEq)]
pub struct Lemma {
    /// The formula, every `payoff` of it read from the forms.
    pub holds: Expr,
    /// The constraint on its variables beyond the proof's `over`.
    pub over: Expr,
    /// Its variables that range over the rationals.
    pub reals: Vec<String>,
    /// Why the statement follows (Markdown with `$…$` mathematics).
    pub follows: String,
}

/// A quantifier list with its source text (the verdict table's `range` column).
#[derive(Clone, Debug, PartialEq)]
pub struct Quantifiers {
    /// As written.
    pub text: String,
    /// Parsed.
    pub binders: Vec<Binder>,
}

/// What must hold at every point.
#[derive(Clone, Debug, PartialEq)]
pub enum Assertion {
    /// A truth-valued expression.
    Holds(Expr),
    /// Two expressions that must be equal; on failure both values are reported.
    Equal {
        /// The engines' value.
        actual: Expr,
        /// The claimed closed form.
        expected: Expr,
        /// A corrected closed form (as written, and parsed), checked on the same range when
        /// the claim fails.
        correction: Option<(String, Expr)>,
        /// What each component of a compared list is (prose with `$…$` mathematics), when
        /// both sides are lists: a counterexample then shows one row per quantity, claimed
        /// beside found. Empty when the sides are not lists or need no names.
        quantities: Vec<String>,
    },
}

/// An expression check over a range.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprCheck {
    /// The default range (empty quantifiers: a single evaluation).
    pub range: Quantifiers,
    /// The `--deep` range.
    pub deep: Option<Quantifiers>,
    /// Points where this is false are skipped.
    pub filter: Option<Expr>,
    /// What must hold.
    pub assertion: Assertion,
    /// The check in words (prose with `$…$` mathematics), which reports show in place of the
    /// typeset assertion when that is an encoding a reader should not have to decode (a
    /// solution-set test written as a list of successors, a sorted list of minimisers). The
    /// range and condition are still typeset from the check itself.
    pub in_words: Option<String>,
}

/// How a claim is checked.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// By an expression.
    Expr(Box<ExprCheck>),
    /// By a named structural check in Rust.
    Builtin(Box<BuiltinCheck>),
    /// Several readings, each checked on its own.
    Readings(Vec<ReadingCheck>),
}

/// One reading of a claim whose text admits several.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadingCheck {
    /// The reading, in words.
    pub name: String,
    /// The statement exactly as printed (a claim file's `literal = true`): when it fails the
    /// claim FAILS, and the readings that hold are its corrections.
    pub literal: bool,
    /// How it is checked.
    pub check: ExprCheck,
}

/// A builtin check with its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltinCheck {
    /// The builtin's name.
    pub name: String,
    /// The claim's `args` table as written.
    pub args: toml::Table,
    /// The arguments the builtin evaluates at each point, parsed and checked.
    pub exprs: Vec<(String, Expr)>,
    /// The default range.
    pub range: Option<Quantifiers>,
    /// The `--deep` range.
    pub deep: Option<Quantifiers>,
}

/// Where a claim is in its file (byte offsets), for messages; all `0`/`None` for a claim
/// built as a value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimPlace {
    /// The claim's table.
    pub table: usize,
    /// Its `for` string.
    pub range: Option<usize>,
    /// Its `deep` string.
    pub deep: Option<usize>,
    /// Its `builtin` name (or `args`), where builtin errors are shown.
    pub builtin: Option<usize>,
}

/// One claim, read from a claim file ([`Registry::parse`]) or built as a value
/// ([`Claim::builder`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// Unique in its file.
    pub id: String,
    /// The paper's own label.
    pub label: String,
    /// The statement in words (the paper's words or a faithful paraphrase; mathematics in
    /// `$…$` spans).
    pub statement: String,
    /// What a report says beside the verdict (`note`, `known_false`, `importance`).
    pub commentary: Commentary,
    /// The paper poses it as an open problem (`open = true`). Recorded only: a passing check is
    /// HOLDS on its range like any other claim (data/claims/README.md, "Verdicts").
    pub open: bool,
    /// How it is checked.
    pub check: Check,
    /// Where its statement is proven for every value (`proof` in a claim file).
    pub proof: Option<ProofRef>,
    /// Where it is in the file.
    pub place: ClaimPlace,
}

/// One string of a claim file holding expressions, for locating errors found while they are
/// evaluated (see [`super::expr::SOURCE_SHIFT`]).
#[derive(Clone, Debug)]
struct SourceString {
    /// The TOML string's span in the file, quotes included.
    span: Range<usize>,
    /// Its text.
    text: String,
}

/// A checked claim file.
#[derive(Clone, Debug)]
pub struct Registry {
    /// The file it was read from (for messages).
    pub path: std::path::PathBuf,
    /// The `paper` column.
    pub paper: String,
    /// The paper's title.
    pub title: String,
    /// The file's user functions.
    pub definitions: Definitions,
    /// The claims, in file order.
    pub claims: Vec<Claim>,
    /// The file's text (empty for a registry built from values).
    src: Arc<str>,
    /// The strings holding expressions; the expressions of string `i` have spans in band
    /// `i + 1`.
    sources: Vec<SourceString>,
}

/// The longest excerpt of a user's text (a claim id, a line of the file) echoed in a message.
const SHOWN_CHARS: usize = 100;

/// `text`, cut to [`SHOWN_CHARS`] characters.
pub(crate) fn excerpt(text: &str) -> String {
    crate::num::cut_text(text, SHOWN_CHARS, SHOWN_CHARS)
}

/// Where a TOML string's text starts in the file, when offsets inside it map one to one
/// (a one-line string without escapes).
fn text_start(src: &str, span: &Range<usize>, value: &str) -> Option<usize> {
    let raw = src.get(span.clone())?;
    let inner = raw.get(1..raw.len().checked_sub(1)?)?;
    (inner == value && !raw.starts_with("\"\"\"") && !raw.starts_with("'''"))
        .then_some(span.start + 1)
}

fn line_col(src: &str, at: usize) -> (usize, usize, &str) {
    let at = at.min(src.len());
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = src[at..].find('\n').map_or(src.len(), |i| at + i);
    let line = src[..at].matches('\n').count() + 1;
    let col = src[line_start..at].chars().count() + 1;
    (line, col, &src[line_start..line_end])
}

/// A file error at a byte offset, with the line and a caret.
pub(crate) fn located(path: &Path, src: &str, at: usize, width: usize, message: &str) -> Error {
    Error::invalid(located_text(path, src, at, width, message))
}

/// The text of [`located`]: `path:line:col: message`, the line, and a caret under the fault.
/// A long line is shown as a window around the column.
pub(crate) fn located_text(
    path: &Path,
    src: &str,
    at: usize,
    width: usize,
    message: &str,
) -> String {
    const BEFORE: usize = 50;
    const WINDOW: usize = 100;
    let (line, col, text) = line_col(src, at);
    let gutter = line.to_string().len();
    let skip = (col - 1).saturating_sub(BEFORE);
    let mut shown: String = text.chars().skip(skip).take(WINDOW).collect();
    let mut caret_col = col - 1 - skip;
    if skip > 0 {
        shown.insert(0, '…');
        caret_col += 1;
    }
    if text.chars().count() > skip + WINDOW {
        shown.push('…');
    }
    let width = width.clamp(1, WINDOW);
    format!(
        "{}:{line}:{col}: {message}\n{:gutter$} |\n{line} | {shown}\n{:gutter$} | {}{}",
        path.display(),
        "",
        "",
        " ".repeat(caret_col),
        "^".repeat(width),
    )
}

/// The file offset and width of an expression error in the TOML string at `span` holding
/// `text`, when offsets inside it map one to one; else the string's start.
fn error_place(src: &str, span: &Range<usize>, text: &str, e: &ExprError) -> (usize, usize, bool) {
    match text_start(src, span, text) {
        Some(start) => {
            let local = e.span.local_start();
            let width = e.span.end.saturating_sub(e.span.start);
            let width = text[local.min(text.len())..].chars().take(width).count();
            (start + local, width, true)
        }
        None => (span.start, 1, false),
    }
}

/// Checks a quantifier list as a claim's range: every bound is a number, no variable is bound
/// twice, and ranges whose bounds are constants are sized now, so that a range with too many
/// points or a step ≤ 0 is an error of the claim, not of the run. Shared by the loader and
/// [`Claim::builder`].
pub(super) fn check_quantifiers(
    binders: &[Binder],
    defs: &Definitions,
) -> std::result::Result<(), ExprError> {
    defs.check_binders(binders, &[])?;
    let mut engines = super::engines::Engines::new();
    let mut ev = super::eval::Evaluator::new(defs, &mut engines);
    for b in binders {
        let constant = match &b.domain {
            Domain::Interval { from, to, step } => [Some(from), Some(to), step.as_ref()]
                .into_iter()
                .flatten()
                .all(|e| !binders.iter().any(|o| e.mentions(&o.name)) && !e.calls_anything()),
            Domain::Members(_) => false,
        };
        if constant {
            ev.check_binder_size(b, &mut Vec::new())?;
        }
    }
    Ok(())
}

/// Checks the names, arities and kinds of an expression with the variables `bound`, and that
/// its kind fits `want`. Shared by the loader and [`Claim::builder`].
pub(super) fn check_typed(
    e: &Expr,
    defs: &Definitions,
    bound: &[String],
    want: Option<Ty>,
) -> std::result::Result<(), ExprError> {
    let ty = defs.check_with(e, bound)?;
    match want.filter(|&w| !ty.fits(w)) {
        Some(want) => Err(ExprError::new(
            e.span,
            format!("expected {} here, found {}", want.name(), ty.name()),
        )),
        None => Ok(()),
    }
}

/// Refuses a `deep` range that does not bind the variables of `for` in order.
pub(super) fn same_variables(
    range: Option<&Quantifiers>,
    deep: &Quantifiers,
) -> std::result::Result<(), String> {
    let names =
        |q: &Quantifiers| -> Vec<String> { q.binders.iter().map(|b| b.name.clone()).collect() };
    let bound = range.map(names).unwrap_or_default();
    if names(deep) == bound {
        Ok(())
    } else {
        Err(format!(
            "`deep` must bind the same variables as `for` ({}), in order",
            bound.join(", ")
        ))
    }
}

struct Loader<'a> {
    path: &'a Path,
    src: &'a str,
    sources: RefCell<Vec<SourceString>>,
}

impl Loader<'_> {
    fn expr_error(&self, field: &Spanned<String>, e: &ExprError) -> Error {
        let span = field.span();
        match error_place(self.src, &span, field.get_ref(), e) {
            (at, width, true) => located(self.path, self.src, at, width, &e.message),
            (at, _, false) => located(
                self.path,
                self.src,
                at,
                1,
                &format!("in this string, at {e}"),
            ),
        }
    }

    /// Registers a string holding expressions; returns its source band.
    fn source(&self, field: &Spanned<String>) -> usize {
        let mut sources = self.sources.borrow_mut();
        sources.push(SourceString {
            span: field.span(),
            text: field.get_ref().clone(),
        });
        sources.len()
    }

    fn error_at(&self, span: Range<usize>, message: &str) -> Error {
        located(self.path, self.src, span.start, 1, message)
    }

    fn expr(&self, field: &Spanned<String>) -> Result<Expr> {
        let mut e = parse_expr(field.get_ref()).map_err(|e| self.expr_error(field, &e))?;
        e.move_to_source(self.source(field));
        Ok(e)
    }

    fn quantifiers(&self, field: &Spanned<String>, defs: &Definitions) -> Result<Quantifiers> {
        let mut binders = parse_binders(field.get_ref()).map_err(|e| self.expr_error(field, &e))?;
        let band = self.source(field);
        for b in &mut binders {
            b.move_to_source(band);
        }
        check_quantifiers(&binders, defs).map_err(|e| self.expr_error(field, &e))?;
        Ok(Quantifiers {
            text: field.get_ref().clone(),
            binders,
        })
    }

    fn same_variables(
        &self,
        range: Option<&Quantifiers>,
        deep: &Quantifiers,
        field: &Spanned<String>,
    ) -> Result<()> {
        same_variables(range, deep).map_err(|m| self.error_at(field.span(), &m))
    }

    fn typed(
        &self,
        field: &Spanned<String>,
        defs: &Definitions,
        bound: &[String],
        want: Option<Ty>,
    ) -> Result<Expr> {
        let e = self.expr(field)?;
        check_typed(&e, defs, bound, want).map_err(|err| self.expr_error(field, &err))?;
        Ok(e)
    }

    fn check(&self, raw: &RawCheck<'_>, defs: &Definitions, at: Range<usize>) -> Result<ExprCheck> {
        let range = match raw.range {
            Some(r) => self.quantifiers(r, defs)?,
            None => Quantifiers {
                text: String::new(),
                binders: Vec::new(),
            },
        };
        let bound: Vec<String> = range.binders.iter().map(|b| b.name.clone()).collect();
        let deep = match raw.deep {
            Some(d) => {
                let q = self.quantifiers(d, defs)?;
                self.same_variables(Some(&range), &q, d)?;
                Some(q)
            }
            None => None,
        };
        if let (Some(q), None) = (raw.quantities, raw.expected) {
            return Err(self.error_at(
                q.span(),
                "`quantities` names the components of compared lists; it needs `actual` and \
                 `expected`",
            ));
        }
        if let Some(q) = raw.quantities.filter(|q| q.get_ref().is_empty()) {
            return Err(self.error_at(q.span(), "`quantities` lists at least one name"));
        }
        if let (Some(c), None) = (raw.correction, raw.expected) {
            return Err(self.error_at(
                c.span(),
                "`correction` replaces `expected`; it needs `actual` and `expected`",
            ));
        }
        let filter = raw
            .filter
            .map(|f| self.typed(f, defs, &bound, Some(Ty::Bool)))
            .transpose()?;
        let assertion = match (raw.holds, raw.actual, raw.expected) {
            (Some(h), None, None) => {
                Assertion::Holds(self.typed(h, defs, &bound, Some(Ty::Bool))?)
            }
            (None, Some(a), Some(x)) => Assertion::Equal {
                actual: self.typed(a, defs, &bound, None)?,
                expected: self.typed(x, defs, &bound, None)?,
                correction: raw
                    .correction
                    .map(|c| {
                        self.typed(c, defs, &bound, None)
                            .map(|e| (c.get_ref().clone(), e))
                    })
                    .transpose()?,
                quantities: raw
                    .quantities
                    .map(|q| q.get_ref().clone())
                    .unwrap_or_default(),
            },
            _ => {
                return Err(self.error_at(
                    at,
                    "a check needs either `holds`, or both `actual` and `expected`",
                ));
            }
        };
        if let Some(w) = raw.checks.filter(|w| w.get_ref().trim().is_empty()) {
            return Err(self.error_at(w.span(), "`checks` says the check in words; it is empty"));
        }
        Ok(ExprCheck {
            range,
            deep,
            filter,
            assertion,
            in_words: raw.checks.map(|w| w.get_ref().clone()),
        })
    }

    /// A claim's `point` form, checked: safe math, and naming only variables of every range a
    /// counterexample of the claim can come from (its own, each reading's); a builtin's
    /// coordinates are its own, and a form naming one it lacks is not used.
    fn point_form(&self, raw: &Spanned<String>, check: &Check, id: &str) -> Result<String> {
        let form = PointForm::new(raw.get_ref()).map_err(|m| self.error_at(raw.span(), &m))?;
        let ranges: Vec<&Quantifiers> = match check {
            Check::Expr(e) => vec![&e.range],
            Check::Readings(rs) => rs.iter().map(|r| &r.check.range).collect(),
            Check::Builtin(_) => Vec::new(),
        };
        for range in ranges {
            if let Some(missing) = form
                .names()
                .into_iter()
                .find(|n| !range.binders.iter().any(|b| b.name == *n))
            {
                return Err(self.error_at(
                    raw.span(),
                    &format!(
                        "claim `{}`: the point form names `{missing}`, not a variable of the \
                         range `{}`",
                        excerpt(id),
                        excerpt(&range.text)
                    ),
                ));
            }
        }
        Ok(raw.get_ref().clone())
    }

    /// A claim's `proof` table, checked: an expression claim, a forms file that exists, an
    /// `over` that parses.
    fn proof_ref(&self, raw: &Spanned<RawProofRef>, check: &Check, id: &str) -> Result<ProofRef> {
        let p = raw.get_ref();
        if !matches!(check, Check::Expr(_)) {
            return Err(self.error_at(
                raw.span(),
                &format!(
                    "claim `{}`: `proof` is for claims checked by an expression",
                    excerpt(id)
                ),
            ));
        }
        let basis = match &p.forms {
            Some(forms) => {
                let path = crate::fsio::parent_dir(self.path).join(forms);
                if !path.is_file() {
                    return Err(self.error_at(
                        raw.span(),
                        &format!("claim `{}`: no forms file {}", excerpt(id), path.display()),
                    ));
                }
                ProofBasis::Forms {
                    forms: forms.clone(),
                    path,
                }
            }
            None => ProofBasis::Definitions,
        };
        let over_text = p.over.clone().unwrap_or_else(|| "true".into());
        let over = parse_expr(&over_text).map_err(|e| {
            self.error_at(
                raw.span(),
                &format!("claim `{}`: proof.over: {e}", excerpt(id)),
            )
        })?;
        let lemma = p
            .lemma
            .as_ref()
            .map(|l| -> Result<Lemma> {
                let parsed = |what: &str, text: &str| {
                    parse_expr(text).map_err(|e| {
                        self.error_at(
                            raw.span(),
                            &format!("claim `{}`: proof.lemma.{what}: {e}", excerpt(id)),
                        )
                    })
                };
                Ok(Lemma {
                    holds: parsed("holds", &l.holds)?,
                    over: parsed("over", l.over.as_deref().unwrap_or("true"))?,
                    reals: l.reals.clone(),
                    follows: l.follows.clone(),
                })
            })
            .transpose()?;
        Ok(ProofRef {
            basis,
            over,
            over_text,
            reals: p.reals.clone(),
            lemma,
        })
    }

    fn claim(&self, raw: &Spanned<RawClaim>, defs: &Definitions) -> Result<Claim> {
        let at = raw.span();
        let c = raw.get_ref();
        let fields = c.fields();
        let has_expr =
            fields.holds.is_some() || fields.actual.is_some() || fields.expected.is_some();
        let check = match (&c.builtin, c.reading.is_empty(), has_expr) {
            (Some(name), true, false) => {
                let Some(builtin) = super::builtins::find(name) else {
                    return Err(self.error_at(
                        at,
                        &format!(
                            "claim `{}`: unknown builtin `{name}` (see `nimlab check \
                             --list-builtins`)",
                            c.id
                        ),
                    ));
                };
                if let Some(f) = fields.filter.or(fields.correction).or(fields.checks) {
                    return Err(self.error_at(
                        f.span(),
                        &format!(
                            "claim `{}`: a builtin check takes neither `where`, `correction` nor \
                             `checks` (it says what it checked itself)",
                            c.id
                        ),
                    ));
                }
                let range = fields
                    .range
                    .map(|r| self.quantifiers(r, defs))
                    .transpose()?;
                let deep = fields.deep.map(|r| self.quantifiers(r, defs)).transpose()?;
                if let (Some(d), Some(field)) = (&deep, fields.deep) {
                    self.same_variables(range.as_ref(), d, field)?;
                }
                let bound: Vec<String> = range
                    .iter()
                    .flat_map(|q| q.binders.iter().map(|b| b.name.clone()))
                    .collect();
                let mut exprs = Vec::new();
                for key in builtin.expr_args {
                    let Some(v) = c.args.get(*key) else {
                        return Err(self.error_at(
                            at,
                            &format!("claim `{}`: builtin `{name}` needs `args.{key}`", c.id),
                        ));
                    };
                    let Some(text) = v.as_str() else {
                        return Err(self.error_at(
                            at,
                            &format!(
                                "claim `{}`: `args.{key}` must be an expression string",
                                c.id
                            ),
                        ));
                    };
                    let e = parse_expr(text)
                        .and_then(|e| defs.check_with(&e, &bound).map(|_| e))
                        .map_err(|e| {
                            self.error_at(
                                at.clone(),
                                &format!(
                                    "claim `{}`: in `args.{key}` = \"{}\", {e}",
                                    excerpt(&c.id),
                                    excerpt(text)
                                ),
                            )
                        })?;
                    exprs.push(((*key).to_string(), e));
                }
                Check::Builtin(Box::new(BuiltinCheck {
                    name: name.clone(),
                    args: c.args.clone(),
                    exprs,
                    range,
                    deep,
                }))
            }
            (None, false, false) => {
                if let Some(w) = fields.checks {
                    return Err(self.error_at(
                        w.span(),
                        &format!(
                            "claim `{}`: `checks` belongs to each `[[claim.reading]]`, which \
                             says what it checks",
                            c.id
                        ),
                    ));
                }
                Check::Readings(
                    c.reading
                        .iter()
                        .map(|r| {
                            // A reading without its own range or filter inherits the claim's.
                            let mut own = r.fields();
                            own.range = own.range.or(fields.range);
                            own.deep = own.deep.or(fields.deep);
                            own.filter = own.filter.or(fields.filter);
                            Ok(ReadingCheck {
                                name: r.name.clone(),
                                literal: r.literal,
                                check: self.check(&own, defs, at.clone())?,
                            })
                        })
                        .collect::<Result<_>>()?,
                )
            }
            (None, true, true) => Check::Expr(Box::new(self.check(&fields, defs, at.clone())?)),
            _ => {
                return Err(self.error_at(
                    at,
                    &format!(
                        "claim `{}` needs exactly one check: `holds`, `actual`/`expected`, \
                         `builtin` or `[[claim.reading]]` entries",
                        c.id
                    ),
                ));
            }
        };
        let table = &self.src[at.start.min(self.src.len())..at.end.min(self.src.len())];
        let key_at = |key: &str| {
            table
                .match_indices(key)
                .find(|(i, _)| table[..*i].ends_with('\n') || *i == 0)
                .map(|(i, _)| at.start + i)
        };
        Ok(Claim {
            id: c.id.clone(),
            label: c.label.clone(),
            statement: c.statement.clone(),
            commentary: Commentary {
                note: c.note.clone(),
                in_paper: match (c.known_false, c.new_result) {
                    (true, true) => {
                        return Err(self.error_at(
                            at,
                            &format!(
                                "claim `{}`: `known_false` is about a statement of the paper, \
                                 `new_result` about one that is not; it cannot be both",
                                excerpt(&c.id)
                            ),
                        ));
                    }
                    (true, false) => PaperStatus::KnownFalse,
                    (false, true) => PaperStatus::NewResult,
                    (false, false) => PaperStatus::Asserted,
                },
                importance: c.importance,
                rank: c.rank,
                headline: c.headline.clone(),
                point: c
                    .point
                    .as_ref()
                    .map(|p| self.point_form(p, &check, &c.id))
                    .transpose()?,
                proof_gap: c.proof_gap.clone(),
            },
            open: c.open,
            proof: c
                .proof
                .as_ref()
                .map(|p| self.proof_ref(p, &check, &c.id))
                .transpose()?,
            check,
            place: ClaimPlace {
                table: at.start,
                range: fields.range.map(|r| r.span().start),
                deep: fields.deep.map(|r| r.span().start),
                builtin: key_at("builtin").or_else(|| key_at("args")),
            },
        })
    }
}

impl Registry {
    /// Parses and checks a claim file's text; `path` is for messages.
    pub fn parse(path: &Path, src: &str) -> Result<Registry> {
        let raw: RawFile = toml::from_str(src).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            located(path, src, at, 1, e.message())
        })?;
        Registry::from_raw(
            path,
            src,
            raw.paper,
            raw.title.unwrap_or_default(),
            raw.lists,
            &raw.define,
            &raw.claim,
        )
    }

    /// Checks the `define` entries and `[[claim]]` tables read from `src` (a claim file, or a
    /// study file holding the same keys; spans are offsets into `src`) into a registry.
    pub(crate) fn from_raw(
        path: &Path,
        src: &str,
        paper: String,
        title: String,
        lists: ListStyle,
        define: &[Spanned<RawDefine>],
        claim: &[Spanned<RawClaim>],
    ) -> Result<Registry> {
        let raw = RawParts { define, claim };
        let loader = Loader {
            path,
            src,
            sources: RefCell::new(Vec::new()),
        };
        let mut definitions = Definitions::new();
        definitions.set_list_style(lists);
        for entry in raw.define {
            let (d, shown) = match entry.get_ref() {
                RawDefine::Plain(text) => (&Spanned::new(entry.span(), text.clone()), None),
                RawDefine::Shown(shown) => (&shown.def, Some(shown)),
            };
            let mut f = parse_function(d.get_ref()).map_err(|e| loader.expr_error(d, &e))?;
            f.move_to_source(loader.source(d));
            let name = f.name.clone();
            definitions
                .define(f)
                .map_err(|e| loader.expr_error(d, &e))?;
            if let Some(shown) = shown {
                definitions
                    .display_as(&name, shown.display.get_ref(), &shown.means)
                    .map_err(|m| loader.error_at(shown.display.span(), &m))?;
            }
        }
        let mut claims: Vec<Claim> = Vec::with_capacity(raw.claim.len());
        for c in raw.claim {
            let claim = loader.claim(c, &definitions)?;
            if claims.iter().any(|d| d.id == claim.id) {
                return Err(loader.error_at(
                    c.span(),
                    &format!("claim id `{}` is used twice", excerpt(&claim.id)),
                ));
            }
            claims.push(claim);
        }
        Ok(Registry {
            path: path.to_path_buf(),
            paper,
            title,
            definitions,
            claims,
            src: Arc::from(src),
            sources: loader.sources.into_inner(),
        })
    }

    /// A registry of claims built as values ([`Claim::builder`]) with user functions
    /// `definitions`; refused when two claims share an id. Errors found while checking its
    /// claims name the claim but no place in a file.
    pub fn from_claims(
        paper: impl Into<String>,
        title: impl Into<String>,
        definitions: Definitions,
        claims: Vec<Claim>,
    ) -> Result<Registry> {
        let paper = paper.into();
        for (i, c) in claims.iter().enumerate() {
            if claims[..i].iter().any(|d| d.id == c.id) {
                return Err(Error::invalid(format!(
                    "claim id `{}` is used twice",
                    excerpt(&c.id)
                )));
            }
        }
        Ok(Registry {
            path: std::path::PathBuf::from(format!("({paper})")),
            paper,
            title: title.into(),
            definitions,
            claims,
            src: Arc::from(""),
            sources: Vec::new(),
        })
    }

    /// An error found while checking `claim`, located in the file: `path:line:col:`, the
    /// claim, `context` (the point, say), the message, and the line with a caret under the
    /// expression at fault. An error with no place in the file (an engine's refusal) is shown at
    /// `fallback` (an offset), else at the claim's table.
    pub fn located_error(
        &self,
        claim: &Claim,
        context: &str,
        span: Option<Span>,
        fallback: Option<usize>,
        message: &str,
    ) -> Error {
        let message = format!(
            "claim `{}` ({}){context}: {message}",
            excerpt(&claim.id),
            excerpt(&claim.label)
        );
        if self.src.is_empty() {
            // Built from values: there is no file to point into.
            return Error::invalid(message);
        }
        let source = span.map_or(0, |s| s.source());
        if let (Some(s), Some(string)) = (
            span,
            source.checked_sub(1).and_then(|i| self.sources.get(i)),
        ) {
            let e = ExprError::new(s, "");
            let (at, width, exact) = error_place(&self.src, &string.span, &string.text, &e);
            let message = if exact {
                message
            } else {
                format!("{message} (in this string, column {})", s.local_start() + 1)
            };
            return Error::invalid(located_text(&self.path, &self.src, at, width, &message));
        }
        let at = fallback.unwrap_or(claim.place.table);
        Error::invalid(located_text(&self.path, &self.src, at, 1, &message))
    }

    /// The text of an expression of this file as written (a label for its value).
    pub fn text_of(&self, span: Span) -> Option<&str> {
        let string = self.sources.get(span.source().checked_sub(1)?)?;
        let width = span.end.checked_sub(span.start)?;
        string
            .text
            .get(span.local_start()..span.local_start() + width)
    }

    /// Everything of its file the claims are read from, as TOML: `paper`, `title`, and the
    /// values of `lists`, `define` and `[[claim]]` — the whole of a claim file, and of a study
    /// file its claims without its prose. Two files with the same text here have the same
    /// claims (layout and comments aside), so the claims checker finds the same in both,
    /// given the files the claims name (`proof.forms`). `None` for a registry built from values
    /// ([`Registry::from_claims`]), which has no file.
    pub fn claim_source(&self) -> Option<String> {
        if self.src.is_empty() {
            return None;
        }
        let mut doc: toml::Table = toml::from_str(&self.src).ok()?;
        doc.retain(|key, _| matches!(key, "lists" | "define" | "claim"));
        doc.insert("paper".into(), self.paper.clone().into());
        doc.insert("title".into(), self.title.clone().into());
        toml::to_string(&doc).ok()
    }

    /// Reads, parses and checks a claim file.
    pub fn load(path: &Path) -> Result<Registry> {
        let src = std::fs::read_to_string(path)
            .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
        Registry::parse(path, &src)
    }
}
