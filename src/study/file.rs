//! The study file: its raw TOML schema (serde, `deny_unknown_fields`, spans kept where an error
//! must point) and the validation pass that turns it into a [`Study`].
//!
//! Every error names the file, the line and the column, shows the line with a caret under the
//! fault and says what was expected (the claim files' located errors, shared). Validation checks
//! everything that can be checked without computing: the table kinds and their parameters (a
//! misspelt or missing parameter is an error), the names (unique, well-formed), every reference
//! from a mining step, figure, value or prose quote to a table and its columns (each kind knows
//! its columns from its parameters), cycles among mining steps, and the inline claims (parsed by
//! the claim-file parser itself).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;
use toml::de::DeTable;

use super::compute::{Kind, MAX_LEAST_TABLE_N, MAX_STATE_TABLE_N, OctalRulesSpec, TableSpec};
use super::{
    BfileDecl, FigureDecl, FigureStyle, Key, Meta, MineDecl, MineHow, PaperDecl, Placement,
    SectionDecl, Study, TableDecl, TableDisplay, TemplateKind, Templates, UserTemplate, ValueDecl,
};
use crate::claims::Registry;
use crate::claims::registry::{RawClaim, RawDefine, located};
use crate::error::{Error, Result};
use crate::family::Family;
use crate::games::cash::{Amount, CashSet};
use crate::games::scoring::{HeapSize, Method};
use crate::num::{IntRange, Q, QRange};
use crate::report::context::PaperIdentity;
use crate::tables::cash_across::SetFamily;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStudy {
    study: RawMeta,
    paper: Option<Spanned<RawPaper>>,
    #[serde(default)]
    table: Vec<BTreeMap<String, toml::Value>>,
    #[serde(default)]
    mine: Vec<Spanned<RawMine>>,
    #[serde(default)]
    define: Vec<Spanned<RawDefine>>,
    #[serde(default)]
    claim: Vec<Spanned<RawClaim>>,
    #[serde(default)]
    claims: Vec<Spanned<String>>,
    #[serde(default)]
    figure: Vec<Spanned<RawFigure>>,
    #[serde(default)]
    value: Vec<Spanned<RawValue>>,
    #[serde(default)]
    section: Vec<Spanned<RawSection>>,
    #[serde(default)]
    bfile: Vec<Spanned<RawBfile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMeta {
    name: Spanned<String>,
    title: String,
    #[serde(default)]
    authors: Vec<String>,
    #[serde(default, rename = "abstract")]
    summary: String,
    #[serde(default)]
    references: Vec<String>,
    templates: Option<RawTemplates>,
}

/// `[paper]`: the study is a paper's report — the paper's identity, its claim file and the
/// builtin parts, in order.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPaper {
    key: String,
    authors: Vec<String>,
    title: String,
    year: Option<String>,
    arxiv: Option<String>,
    version: Option<String>,
    copy: String,
    cited: String,
    claims: Spanned<String>,
    #[serde(default)]
    builtins: Vec<Spanned<String>>,
}

/// `templates = { md = "…", tex = "…" }`: the study's own templates, paths relative to the file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTemplates {
    md: Option<Spanned<String>>,
    tex: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMine {
    name: Spanned<String>,
    title: Option<String>,
    table: Spanned<String>,
    how: Spanned<String>,
    columns: Vec<Spanned<String>>,
    index: Option<Spanned<String>>,
    verify_to: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFigure {
    name: Spanned<String>,
    table: Spanned<String>,
    x: Spanned<String>,
    y: Vec<Spanned<String>>,
    z: Option<Spanned<String>>,
    style: Spanned<String>,
    period: Option<Spanned<u64>>,
    #[serde(default)]
    caption: String,
}

/// A value a `where` filter compares a cell with.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawKey {
    Int(i64),
    Text(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawValue {
    name: Spanned<String>,
    table: Spanned<String>,
    column: Spanned<String>,
    #[serde(default, rename = "where")]
    at: BTreeMap<String, Spanned<RawKey>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBfile {
    file: Spanned<String>,
    table: Spanned<String>,
    index: Spanned<String>,
    column: Spanned<String>,
    sequence: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSection {
    title: String,
    after: Option<Spanned<String>>,
    text: Spanned<String>,
}

/// The file being validated, for located errors.
struct Ctx<'a> {
    path: &'a Path,
    src: &'a str,
}

impl Ctx<'_> {
    /// An error at byte `at`, `width` characters wide.
    fn at(&self, at: usize, width: usize, message: &str) -> Error {
        located(self.path, self.src, at, width, message)
    }

    /// An error under a spanned TOML value.
    fn under(&self, span: Range<usize>, message: &str) -> Error {
        let width = self.src[span.clone()]
            .lines()
            .next()
            .map_or(1, |l| l.chars().count());
        self.at(span.start, width, message)
    }
}

/// The spans of one `[[table]]`: each key's and each value's.
struct TableSpans {
    /// The table as a whole.
    whole: Range<usize>,
    /// Key → (the key's span, its value's span).
    keys: BTreeMap<String, (Range<usize>, Range<usize>)>,
}

/// The spans of every `[[table]]` of the document, in order.
fn table_spans(doc: &DeTable<'_>) -> Vec<TableSpans> {
    let Some((_, tables)) = doc.iter().find(|(k, _)| k.get_ref() == "table") else {
        return Vec::new();
    };
    let Some(array) = tables.get_ref().as_array() else {
        return Vec::new();
    };
    array
        .iter()
        .map(|t| TableSpans {
            whole: t.span(),
            keys: t
                .get_ref()
                .as_table()
                .map(|entries| {
                    entries
                        .iter()
                        .map(|(k, v)| (k.get_ref().to_string(), (k.span(), v.span())))
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
}

/// The parameters of one `[[table]]`, taken one by one; what is left over is misspelt.
struct Params<'a> {
    ctx: &'a Ctx<'a>,
    name: String,
    kind: Kind,
    values: &'a BTreeMap<String, toml::Value>,
    spans: &'a TableSpans,
}

impl<'a> Params<'a> {
    /// The offset of `key`'s value (or of the table, when absent).
    fn value_at(&self, key: &str) -> Range<usize> {
        self.spans
            .keys
            .get(key)
            .map_or(self.spans.whole.clone(), |(_, v)| v.clone())
    }

    /// An error about `key`'s value.
    fn bad(&self, key: &str, message: &str) -> Error {
        self.ctx.under(
            self.value_at(key),
            &format!(
                "table `{}` ({}): parameter `{key}`: {message}",
                self.name,
                self.kind.name()
            ),
        )
    }

    /// The value of `key`, if given.
    fn get(&mut self, key: &'static str) -> Option<&'a toml::Value> {
        debug_assert!(self.kind.params().contains(&key), "{key} is declared");
        self.values.get(key)
    }

    /// The value of a required `key`.
    fn need(&mut self, key: &'static str) -> Result<&'a toml::Value> {
        match self.get(key) {
            Some(v) => Ok(v),
            None => Err(self.ctx.under(
                self.spans
                    .keys
                    .get("kind")
                    .map_or(self.spans.whole.clone(), |(_, v)| v.clone()),
                &format!(
                    "table `{}` ({}) needs the parameter `{key}`",
                    self.name,
                    self.kind.name()
                ),
            )),
        }
    }

    fn text(&self, key: &str, v: &'a toml::Value, what: &str) -> Result<&'a str> {
        v.as_str()
            .ok_or_else(|| self.bad(key, &format!("expected {what} as a string")))
    }

    fn whole<T: TryFrom<i64>>(&self, key: &str, v: &toml::Value, max: u64) -> Result<T> {
        v.as_integer()
            .filter(|&n| n >= 0 && n as u64 <= max)
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| self.bad(key, &format!("expected a whole number from 0 to {max}")))
    }

    fn int_range(&self, key: &str, v: &toml::Value) -> Result<IntRange> {
        match v {
            toml::Value::Integer(n) => Ok(IntRange::new(*n, *n).expect("a point")),
            toml::Value::String(s) => s.parse().map_err(|e| self.bad(key, &format!("{e}"))),
            _ => Err(self.bad(key, "expected a range such as \"1..20\"")),
        }
    }

    fn q(&self, key: &str, v: &toml::Value) -> Result<Q> {
        match v {
            toml::Value::Integer(n) => Ok(Q::int(*n)),
            toml::Value::String(s) => s.parse().map_err(|e| self.bad(key, &format!("{e}"))),
            _ => Err(self.bad(key, "expected an exact number such as 3 or \"-1/2\"")),
        }
    }

    /// `"a..b"`, `"a..b step s"` or a single value.
    fn grid(&mut self) -> Result<Option<QRange>> {
        let Some(v) = self.get("grid") else {
            return Ok(None);
        };
        let text = match v {
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::String(s) => s.clone(),
            _ => return Err(self.bad("grid", "expected a bonus grid such as \"-40..40 step 1/2\"")),
        };
        let (range, step) = match text.split_once(" step ") {
            Some((r, s)) => (
                r,
                s.trim()
                    .parse::<Q>()
                    .map_err(|e| self.bad("grid", &e.to_string()))?,
            ),
            None => (text.as_str(), Q::one()),
        };
        QRange::parse_with_step(range, step)
            .map(Some)
            .map_err(|e| self.bad("grid", &e.to_string()))
    }

    fn method(&mut self) -> Result<Method> {
        let Some(v) = self.get("method") else {
            return Ok(Method::Auto);
        };
        match v.as_str() {
            Some("auto") => Ok(Method::Auto),
            Some("grid") => Ok(Method::Grid),
            Some("exact") => Ok(Method::Exact),
            _ => Err(self.bad("method", "expected \"auto\", \"grid\" or \"exact\"")),
        }
    }

    /// The family and its parameter ranges, which must name exactly its parameters.
    fn family(&mut self) -> Result<(Family, BTreeMap<String, IntRange>)> {
        let v = self.need("family")?;
        let family: Family = self
            .text("family", v, "a family such as \"2k+1,2k,1\"")?
            .parse()
            .map_err(|e| self.bad("family", &format!("{e}")))?;
        let v = self.need("ranges")?;
        let table = v
            .as_table()
            .ok_or_else(|| self.bad("ranges", "expected a table such as { k = \"1..20\" }"))?;
        let mut ranges = BTreeMap::new();
        for (name, r) in table {
            ranges.insert(name.clone(), self.int_range("ranges", r)?);
        }
        let want: BTreeSet<String> = family.params().into_iter().collect();
        let have: BTreeSet<String> = ranges.keys().cloned().collect();
        if want != have {
            return Err(self.bad(
                "ranges",
                &format!(
                    "the family {family} has the parameters {{{}}}; give a range for each of them and no other",
                    want.into_iter().collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        Ok((family, ranges))
    }

    /// A move set: `[1, 3, 4]` or `"1,3,4"`.
    fn cash_set(&mut self) -> Result<CashSet> {
        let v = self.need("set")?;
        let set = match v {
            toml::Value::String(s) => s.parse::<CashSet>(),
            toml::Value::Array(items) => items
                .iter()
                .map(|x| self.whole::<Amount>("set", x, u64::from(u32::MAX)))
                .collect::<Result<Vec<_>>>()
                .and_then(CashSet::new),
            _ => return Err(self.bad("set", "expected a move set such as [1, 3, 4]")),
        };
        set.map_err(|e| self.bad("set", &e.to_string()))
    }

    /// A given key the kind does not take is an error at that key (checked first: a misspelt
    /// key explains a "missing" parameter).
    fn unknown(&self) -> Result<()> {
        for (key, (key_span, _)) in &self.spans.keys {
            if ["name", "kind"].contains(&key.as_str())
                || TABLE_DISPLAY_KEYS.contains(&key.as_str())
                || self.kind.params().contains(&key.as_str())
            {
                continue;
            }
            return Err(self.ctx.under(
                key_span.clone(),
                &format!(
                    "table `{}`: unknown parameter `{key}` for kind `{}`; its parameters are {}",
                    self.name,
                    self.kind.name(),
                    self.kind.params().join(", ")
                ),
            ));
        }
        Ok(())
    }
}

/// The keys of any `[[table]]` that say how the report shows it, beside `name` and `kind`.
const TABLE_DISPLAY_KEYS: [&str; 3] = ["title", "caption", "headers"];

/// A `[[table]]`'s display keys: an optional title and caption (text with `$…$` math) and
/// column headings, one per column of the table.
fn table_display(
    ctx: &Ctx<'_>,
    name: &str,
    columns: &[String],
    values: &BTreeMap<String, toml::Value>,
    spans: &TableSpans,
) -> Result<TableDisplay> {
    let at = |key: &str| {
        spans
            .keys
            .get(key)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let text = |key: &str| -> Result<Option<String>> {
        match values.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
            Some(_) => Err(ctx.under(
                at(key),
                &format!("table `{name}`: `{key}` must be a non-empty string"),
            )),
        }
    };
    let headers = match values.get("headers") {
        None => Vec::new(),
        Some(v) => {
            let list: Option<Vec<String>> = v.as_array().and_then(|items| {
                items
                    .iter()
                    .map(|x| x.as_str().map(str::to_string))
                    .collect()
            });
            match list {
                Some(list) if list.len() == columns.len() => list,
                _ => {
                    return Err(ctx.under(
                        at("headers"),
                        &format!(
                            "table `{name}`: `headers` must be a list of {} strings, one per column ({})",
                            columns.len(),
                            columns.join(", ")
                        ),
                    ));
                }
            }
        }
    };
    Ok(TableDisplay {
        title: text("title")?,
        caption: text("caption")?,
        headers,
    })
}

/// Reads one `[[table]]`'s kind-specific parameters.
fn table_spec(p: &mut Params<'_>) -> Result<TableSpec> {
    Ok(match p.kind {
        Kind::ScoringPayoff => {
            let v = p.need("positions")?;
            let bad = || {
                p.bad(
                    "positions",
                    "expected a list of positions such as [[5, 4, 2], [3, 2, 1]]",
                )
            };
            let lists = v.as_array().filter(|a| !a.is_empty()).ok_or_else(bad)?;
            let mut positions = Vec::new();
            for l in lists {
                let heaps = l.as_array().ok_or_else(bad)?;
                positions.push(
                    heaps
                        .iter()
                        .map(|h| p.whole::<HeapSize>("positions", h, u64::from(HeapSize::MAX)))
                        .collect::<Result<Vec<_>>>()?,
                );
            }
            TableSpec::ScoringPayoff {
                positions,
                grid: p.grid()?,
                method: p.method()?,
            }
        }
        Kind::ScoringFamily => {
            let (family, ranges) = p.family()?;
            TableSpec::ScoringFamily {
                family,
                ranges,
                grid: p.grid()?,
                method: p.method()?,
            }
        }
        Kind::OctalValues => {
            let subtract = p.get("subtract");
            let rules = p.get("rules");
            let points = match p.get("points") {
                None => None,
                Some(v) => Some(
                    v.as_array()
                        .ok_or_else(|| p.bad("points", "expected a list such as [1, \"1/2\"]"))?
                        .iter()
                        .map(|x| p.q("points", x))
                        .collect::<Result<Vec<_>>>()?,
                ),
            };
            let rules = match (subtract, rules) {
                (Some(s), None) => {
                    let set = match s {
                        toml::Value::Array(items) => items
                            .iter()
                            .map(|x| p.whole::<HeapSize>("subtract", x, u64::from(HeapSize::MAX)))
                            .collect::<Result<Vec<_>>>()?,
                        toml::Value::String(text) => crate::games::scoring::parse_set(text)
                            .map_err(|e| p.bad("subtract", &e.to_string()))?,
                        _ => return Err(p.bad("subtract", "expected a set such as [4, 5]")),
                    };
                    OctalRulesSpec::Subtract { set, points }
                }
                (None, Some(r)) => {
                    if points.is_some() {
                        return Err(p.bad("points", "points go with `subtract`; write them into the rules code, e.g. \"(3333, 2222)\""));
                    }
                    OctalRulesSpec::Rules(
                        p.text("rules", r, "a ruleset such as \"0.26\"")?
                            .to_string(),
                    )
                }
                (Some(_), Some(_)) => {
                    return Err(p.bad("rules", "give `subtract` or `rules`, not both"));
                }
                (None, None) => return Err(p.need("subtract").expect_err("absent")),
            };
            // The ruleset is built now so that a bad code is reported here, with its place.
            super::compute::octal_ruleset(&rules).map_err(|e| {
                let key = match rules {
                    OctalRulesSpec::Subtract { .. } => "subtract",
                    OctalRulesSpec::Rules(_) => "rules",
                };
                p.bad(key, &e.to_string())
            })?;
            let max_heap = p.need("max_heap")?;
            let max_heap = p.whole("max_heap", max_heap, u64::from(HeapSize::MAX))?;
            let bonus = match p.get("bonus") {
                Some(v) => p.q("bonus", v)?,
                None => Q::zero(),
            };
            TableSpec::OctalValues {
                rules,
                max_heap,
                bonus,
            }
        }
        Kind::CandyFamily => {
            let (family, ranges) = p.family()?;
            TableSpec::CandyFamily { family, ranges }
        }
        Kind::CashThresholds => {
            let set = p.cash_set()?;
            let defined_only = match p.get("defined_only") {
                None => false,
                Some(v) => v
                    .as_bool()
                    .ok_or_else(|| p.bad("defined_only", "expected true or false"))?,
            };
            let v = p.need("max_n")?;
            let limit = if defined_only {
                u64::from(u32::MAX)
            } else {
                MAX_LEAST_TABLE_N
            };
            let max_n = p.whole("max_n", v, limit).map_err(|e| {
                if defined_only {
                    e
                } else {
                    p.bad("max_n", &format!("the least thresholds need the win table, supported up to n = {MAX_LEAST_TABLE_N}; add defined_only = true for f and g alone"))
                }
            })?;
            TableSpec::CashThresholds {
                set,
                max_n,
                defined_only,
            }
        }
        Kind::CashTable => {
            let set = p.cash_set()?;
            let v = p.need("max_n")?;
            TableSpec::CashTable {
                set,
                max_n: p.whole("max_n", v, MAX_STATE_TABLE_N)?,
            }
        }
        Kind::CashSurvey => {
            let v = p.need("elements")?;
            let elements = p.int_range("elements", v)?;
            crate::tables::cash_survey::survey_sets(elements, None)
                .map_err(|e| p.bad("elements", &e.to_string()))?;
            let sizes = match p.get("sizes") {
                None => None,
                Some(v) => Some(p.int_range("sizes", v)?),
            };
            let v = p.need("max_n")?;
            TableSpec::CashSurvey {
                elements,
                sizes,
                max_n: p.whole("max_n", v, u64::from(u32::MAX))?,
            }
        }
        Kind::CashAcross => {
            let (family, ranges) = p.family()?;
            let family = SetFamily::new(family).map_err(|e| p.bad("family", &e.to_string()))?;
            let range = ranges[family.param()];
            let step = match p.get("step") {
                None => 1,
                Some(v) => v
                    .as_integer()
                    .filter(|&s| s >= 1)
                    .ok_or_else(|| p.bad("step", "expected a whole number of at least 1"))?,
            };
            TableSpec::CashAcross {
                family,
                range,
                step,
            }
        }
    })
}

/// Whether `name` is a table, mining step, figure or value name: `[a-z_][a-z0-9_]*`.
fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Whether `name` is a study name: `[a-z0-9-]+` (a directory and file stem).
pub fn is_study_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The names declared so far, for uniqueness and references.
#[derive(Default)]
struct Names {
    /// Table and mining-step names → their columns (`None`: not known before computing).
    sources: BTreeMap<String, Option<Vec<String>>>,
    /// Every name, for uniqueness.
    all: BTreeSet<String>,
}

impl Names {
    fn declare(&mut self, ctx: &Ctx<'_>, what: &str, name: &Spanned<String>) -> Result<String> {
        let n = name.get_ref();
        if !is_name(n) {
            return Err(ctx.under(
                name.span(),
                &format!("{what} name `{n}`: names are lowercase letters, digits and _, starting with a letter or _"),
            ));
        }
        if !self.all.insert(n.clone()) {
            return Err(ctx.under(name.span(), &format!("the name `{n}` is used twice")));
        }
        Ok(n.clone())
    }

    /// The columns of the table or mining step `name` refers to.
    fn source(
        &self,
        ctx: &Ctx<'_>,
        who: &str,
        name: &Spanned<String>,
    ) -> Result<Option<&Vec<String>>> {
        match self.sources.get(name.get_ref()) {
            Some(columns) => Ok(columns.as_ref()),
            None => Err(ctx.under(
                name.span(),
                &format!(
                    "{who} names the table `{}`, which the study does not declare{}",
                    name.get_ref(),
                    listing(self.sources.keys())
                ),
            )),
        }
    }
}

/// "; it declares a, b" (or nothing when the list is empty).
fn listing<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let names: Vec<&str> = names.map(String::as_str).collect();
    if names.is_empty() {
        String::new()
    } else {
        format!("; it declares {}", names.join(", "))
    }
}

/// Checks that `column` is one of `columns` (when known).
fn column(
    ctx: &Ctx<'_>,
    who: &str,
    table: &str,
    columns: Option<&Vec<String>>,
    column: &Spanned<String>,
) -> Result<String> {
    if let Some(columns) = columns
        && !columns.contains(column.get_ref())
    {
        return Err(ctx.under(
            column.span(),
            &format!(
                "{who} names the column `{}`, which the table `{table}` does not have; its columns are {}",
                column.get_ref(),
                columns.join(", ")
            ),
        ));
    }
    Ok(column.get_ref().clone())
}

/// A study's own template, read and compiled now: a file that cannot be read or a template
/// Tera rejects is an error at its key, before anything is computed.
fn user_template(
    ctx: &Ctx<'_>,
    file: &Spanned<String>,
    kind: TemplateKind,
) -> Result<UserTemplate> {
    let base = ctx.path.parent().unwrap_or(Path::new(""));
    let path = base.join(file.get_ref());
    let source = std::fs::read_to_string(&path).map_err(|e| {
        ctx.under(
            file.span(),
            &format!(
                "template {} cannot be read (paths are relative to the study file): {e}",
                path.display()
            ),
        )
    })?;
    let template = UserTemplate { path, source };
    let path_shown = |p: &Path| p.display().to_string();
    crate::report::Renderer::for_study(&Templates::one(kind, template.clone())).map_err(|e| {
        ctx.under(
            file.span(),
            &format!(
                "template {} does not compile: {e}",
                path_shown(&template.path)
            ),
        )
    })?;
    Ok(template)
}

/// Parses and validates a study file's text; `path` is for messages and for resolving claim
/// files named by the study.
pub fn parse(path: &Path, src: &str) -> Result<Study> {
    let ctx = Ctx { path, src };
    let toml_error = |e: toml::de::Error| {
        let at = e.span().map_or(0, |s| s.start);
        ctx.at(at, 1, e.message())
    };
    let doc = DeTable::parse(src).map_err(toml_error)?;
    let raw: RawStudy = toml::from_str(src).map_err(toml_error)?;
    let spans = table_spans(doc.get_ref());

    let name = raw.study.name.get_ref().clone();
    if !is_study_name(&name) {
        return Err(ctx.under(
            raw.study.name.span(),
            &format!("study name `{name}`: use lowercase letters, digits and - (it names the output files)"),
        ));
    }
    let templates = match &raw.study.templates {
        None => Templates::default(),
        Some(t) => Templates {
            md: t
                .md
                .as_ref()
                .map(|f| user_template(&ctx, f, TemplateKind::Markdown))
                .transpose()?,
            tex: t
                .tex
                .as_ref()
                .map(|f| user_template(&ctx, f, TemplateKind::Latex))
                .transpose()?,
        },
    };
    let paper = raw
        .paper
        .as_ref()
        .map(|p| paper(&ctx, p, &raw))
        .transpose()?;
    let meta = Meta {
        name,
        title: raw.study.title,
        authors: raw.study.authors,
        summary: raw.study.summary,
        references: raw.study.references,
        templates,
    };

    let mut names = Names::default();
    let mut tables = Vec::new();
    for (values, spans) in raw.table.iter().zip(&spans) {
        let key_value = |key: &str| spans.keys.get(key).map(|(_, v)| v.clone());
        let name_span = key_value("name")
            .ok_or_else(|| ctx.under(spans.whole.clone(), "a [[table]] needs a `name`"))?;
        let name = values
            .get("name")
            .and_then(toml::Value::as_str)
            .ok_or_else(|| ctx.under(name_span.clone(), "the table's `name` must be a string"))?;
        let name = names.declare(
            &ctx,
            "table",
            &Spanned::new(name_span.clone(), name.to_string()),
        )?;
        let kind_span = key_value("kind").ok_or_else(|| {
            ctx.under(name_span.clone(), &format!("table `{name}` needs a `kind`"))
        })?;
        let kind_text = values
            .get("kind")
            .and_then(toml::Value::as_str)
            .unwrap_or_default();
        let kind = Kind::from_name(kind_text).ok_or_else(|| {
            ctx.under(
                kind_span.clone(),
                &format!(
                    "table `{name}`: unknown kind `{kind_text}`; the kinds are {}",
                    Kind::ALL.map(Kind::name).join(", ")
                ),
            )
        })?;
        let params = Params {
            ctx: &ctx,
            name: name.clone(),
            kind,
            values,
            spans,
        };
        params.unknown()?;
        let spec = table_spec(&mut { params })?;
        let display = table_display(&ctx, &name, &spec.columns(), values, spans)?;
        names.sources.insert(name.clone(), Some(spec.columns()));
        tables.push(TableDecl {
            name,
            spec,
            display,
            at: name_span.start,
        });
    }

    // Mining steps may read tables or other mining steps: declare all names first.
    let mut mines = Vec::new();
    let mut hows = Vec::new();
    for m in &raw.mine {
        let m = m.get_ref();
        let name = names.declare(&ctx, "mining step", &m.name)?;
        let how = MineHow::from_name(m.how.get_ref()).ok_or_else(|| {
            ctx.under(
                m.how.span(),
                &format!(
                    "mining step `{}`: unknown `how` `{}`; use family, sequence, pwl or across",
                    m.name.get_ref(),
                    m.how.get_ref()
                ),
            )
        })?;
        names.sources.insert(
            name,
            Some(how.columns().iter().map(|c| c.to_string()).collect()),
        );
        hows.push(how);
    }
    // A cycle first: the columns of steps that read each other are beside the point.
    check_cycles(&ctx, &raw.mine)?;
    for (m, how) in raw.mine.iter().zip(hows) {
        let m = m.get_ref();
        let who = format!("mining step `{}`", m.name.get_ref());
        let columns = names.source(&ctx, &who, &m.table)?.cloned();
        let cols = m
            .columns
            .iter()
            .map(|c| column(&ctx, &who, m.table.get_ref(), columns.as_ref(), c))
            .collect::<Result<Vec<_>>>()?;
        if cols.is_empty() {
            return Err(ctx.under(
                m.name.span(),
                &format!("{who} mines no column: list them in `columns`"),
            ));
        }
        let index = m
            .index
            .as_ref()
            .map(|c| column(&ctx, &who, m.table.get_ref(), columns.as_ref(), c))
            .transpose()?;
        if how == MineHow::Across
            && let Some(columns) = &columns
            && let Some(missing) = ["period", "proven_from", "slopes"]
                .into_iter()
                .find(|c| !columns.iter().any(|have| have == c))
        {
            return Err(ctx.under(
                m.how.span(),
                &format!(
                    "{who}: `how = \"across\"` reads members with certified forms (the columns `period`, `proven_from` and `slopes`, as a `cash.across` table has); `{}` has no `{missing}`",
                    m.table.get_ref()
                ),
            ));
        }
        mines.push(MineDecl {
            name: m.name.get_ref().clone(),
            title: m.title.clone(),
            source: m.table.get_ref().clone(),
            how,
            columns: cols,
            index,
            verify_to: m.verify_to,
            at: m.name.span().start,
        });
    }

    let claims = if raw.define.is_empty() && raw.claim.is_empty() {
        None
    } else {
        Some(Registry::from_raw(
            path,
            src,
            meta.name.clone(),
            meta.title.clone(),
            Default::default(),
            &raw.define,
            &raw.claim,
        )?)
    };
    let base = path.parent().unwrap_or(Path::new(""));
    let claim_files: Vec<PathBuf> = raw
        .claims
        .iter()
        .map(|f| {
            let file = base.join(f.get_ref());
            if file.is_file() {
                Ok(file)
            } else {
                Err(ctx.under(
                    f.span(),
                    &format!(
                        "claim file {} not found (paths are relative to the study file)",
                        file.display()
                    ),
                ))
            }
        })
        .collect::<Result<_>>()?;

    let mut figures = Vec::new();
    for f in &raw.figure {
        let f = f.get_ref();
        let name = names.declare(&ctx, "figure", &f.name)?;
        let who = format!("figure `{name}`");
        let columns = names.source(&ctx, &who, &f.table)?.cloned();
        let col = |c: &Spanned<String>| column(&ctx, &who, f.table.get_ref(), columns.as_ref(), c);
        let style = match f.style.get_ref().as_str() {
            "line" => FigureStyle::Line,
            "points" => FigureStyle::Points,
            "pwl" => FigureStyle::Pwl,
            "heatmap" => FigureStyle::Heatmap,
            "residues" => match &f.period {
                Some(p) if *p.get_ref() >= 1 => FigureStyle::Residues {
                    period: *p.get_ref(),
                },
                Some(p) => {
                    return Err(
                        ctx.under(p.span(), &format!("{who}: the period must be at least 1"))
                    );
                }
                None => {
                    return Err(ctx.under(
                        f.style.span(),
                        &format!("{who}: style \"residues\" needs `period`"),
                    ));
                }
            },
            other => {
                return Err(ctx.under(
                    f.style.span(),
                    &format!(
                        "{who}: unknown style `{other}`; use line, points, residues, pwl or heatmap"
                    ),
                ));
            }
        };
        if f.y.is_empty() {
            return Err(ctx.under(
                f.name.span(),
                &format!("{who} plots nothing: list columns in `y`"),
            ));
        }
        let z = match (&style, &f.z) {
            (FigureStyle::Heatmap, Some(z)) if f.y.len() == 1 => Some(col(z)?),
            (FigureStyle::Heatmap, _) => {
                return Err(ctx.under(f.style.span(), &format!("{who}: a heatmap has one `y` column (the second parameter) and a `z` column (the value)")));
            }
            (_, Some(z)) => {
                return Err(ctx.under(z.span(), &format!("{who}: `z` is for heatmaps only")));
            }
            (_, None) => None,
        };
        if let (Some(p), false) = (&f.period, matches!(style, FigureStyle::Residues { .. })) {
            return Err(ctx.under(
                p.span(),
                &format!("{who}: `period` is for style \"residues\" only"),
            ));
        }
        figures.push(FigureDecl {
            name,
            source: f.table.get_ref().clone(),
            x: col(&f.x)?,
            y: f.y.iter().map(col).collect::<Result<_>>()?,
            z,
            style,
            caption: f.caption.clone(),
            at: f.name.span().start,
        });
    }

    let mut values = Vec::new();
    for v in &raw.value {
        let v = v.get_ref();
        let name = names.declare(&ctx, "value", &v.name)?;
        let who = format!("value `{name}`");
        let columns = names.source(&ctx, &who, &v.table)?.cloned();
        let col = column(&ctx, &who, v.table.get_ref(), columns.as_ref(), &v.column)?;
        let mut row = Vec::new();
        for (key, want) in &v.at {
            let key = column(
                &ctx,
                &who,
                v.table.get_ref(),
                columns.as_ref(),
                &Spanned::new(want.span(), key.clone()),
            )?;
            let want = match want.get_ref() {
                RawKey::Int(n) => Key::Int(*n),
                RawKey::Text(s) => Key::Text(s.clone()),
            };
            row.push((key, want));
        }
        values.push(ValueDecl {
            name,
            source: v.table.get_ref().clone(),
            column: col,
            row,
            at: v.name.span().start,
        });
    }

    let mut bfiles: Vec<BfileDecl> = Vec::new();
    for b in &raw.bfile {
        let b = b.get_ref();
        let file = b.file.get_ref();
        let who = format!("b-file `{file}`");
        let plain = file.strip_suffix(".txt").is_some_and(|stem| {
            !stem.is_empty()
                && stem
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        });
        if !plain {
            return Err(ctx.under(
                b.file.span(),
                &format!(
                    "{who}: a b-file's name is letters, digits, `-`, `_` and `.`, ending in `.txt`"
                ),
            ));
        }
        if bfiles.iter().any(|d| d.file == *file) {
            return Err(ctx.under(b.file.span(), &format!("{who} is declared twice")));
        }
        let columns = names.source(&ctx, &who, &b.table)?.cloned();
        let index = column(&ctx, &who, b.table.get_ref(), columns.as_ref(), &b.index)?;
        let col = column(&ctx, &who, b.table.get_ref(), columns.as_ref(), &b.column)?;
        bfiles.push(BfileDecl {
            file: file.clone(),
            source: b.table.get_ref().clone(),
            index,
            column: col,
            sequence: b.sequence.clone(),
            at: b.file.span().start,
        });
    }

    let quotable: BTreeSet<&str> = values
        .iter()
        .map(|v| v.name.as_str())
        .chain(mines.iter().map(|m| m.name.as_str()))
        .collect();
    let figure_names: BTreeSet<&str> = figures.iter().map(|f| f.name.as_str()).collect();
    let mut sections = Vec::new();
    for s in &raw.section {
        let s = s.get_ref();
        let after = match &s.after {
            None => Placement::End,
            Some(a) => Placement::parse(a.get_ref()).ok_or_else(|| {
                ctx.under(a.span(), &format!("section `{}`: `after` must be findings, tables, figures, claims, end, table:NAME or figure:NAME", s.title))
            })?,
        };
        let known = match &after {
            Placement::Table(t) => tables.iter().any(|d| &d.name == t),
            Placement::Figure(f) => figure_names.contains(f.as_str()),
            _ => true,
        };
        if !known {
            let a = s.after.as_ref().expect("a named placement was written");
            return Err(ctx.under(
                a.span(),
                &format!(
                    "section `{}` is placed after `{}`, which the study does not declare",
                    s.title,
                    a.get_ref()
                ),
            ));
        }
        for quote in quotes(s.text.get_ref()) {
            if !quotable.contains(quote.as_str()) {
                return Err(ctx.under(
                    s.text.span(),
                    &format!(
                        "section `{}` quotes {{{{ {quote} }}}}, which is no [[value]] or [[mine]] of the study",
                        s.title
                    ),
                ));
            }
        }
        sections.push(SectionDecl {
            title: s.title.clone(),
            after,
            text: s.text.get_ref().clone(),
        });
    }

    Ok(Study {
        path: path.to_path_buf(),
        src: src.into(),
        meta,
        paper,
        tables,
        mines,
        claims,
        claim_files,
        figures,
        values,
        bfiles,
        sections,
    })
}

/// A `[paper]` table validated: every builtin known, the claim file resolved against the study's
/// directory (written without `.` and `..`, as the report prints it). A paper study may declare
/// tables, mining steps, figures, values and prose like any study (they are validated as
/// theirs), but its claims are the paper's claim file and it is rendered by the paper templates:
/// inline claims, other claim files or templates beside `[paper]` are refused.
fn paper(ctx: &Ctx<'_>, p: &Spanned<RawPaper>, raw: &RawStudy) -> Result<PaperDecl> {
    let declared = [
        ("[[define]]", raw.define.len()),
        ("[[claim]]", raw.claim.len()),
        ("claims", raw.claims.len()),
        ("templates", usize::from(raw.study.templates.is_some())),
    ];
    if let Some((what, _)) = declared.iter().find(|(_, n)| *n > 0) {
        return Err(ctx.under(
            p.span(),
            &format!("a paper study's claims are its paper's claim file and it is rendered by the paper templates: {what} is not allowed beside [paper] (put the paper's claims in its claim file)"),
        ));
    }
    let raw_paper = p.get_ref();
    // A version is only given with the identifier it versions; a paper has a title and authors.
    if raw_paper.version.is_some() && raw_paper.arxiv.is_none() {
        return Err(ctx.under(
            p.span(),
            "[paper]: `version` names an arXiv version, so it needs `arxiv`",
        ));
    }
    if raw_paper.title.trim().is_empty() || raw_paper.authors.is_empty() {
        return Err(ctx.under(p.span(), "[paper]: give the paper's `title` and `authors`"));
    }
    let known = crate::papers::builtin_names();
    let mut builtins = Vec::new();
    for b in &raw_paper.builtins {
        if !known.contains(&b.get_ref().as_str()) {
            return Err(ctx.under(
                b.span(),
                &format!(
                    "unknown builtin `{}`; the builtins are {}",
                    b.get_ref(),
                    known.join(", ")
                ),
            ));
        }
        if builtins.contains(b.get_ref()) {
            return Err(ctx.under(
                b.span(),
                &format!("the builtin `{}` is listed twice", b.get_ref()),
            ));
        }
        builtins.push(b.get_ref().clone());
    }
    let base = ctx.path.parent().unwrap_or(Path::new(""));
    let claims = crate::fsio::lexically_normal(&base.join(raw_paper.claims.get_ref()));
    if !claims.is_file() {
        return Err(ctx.under(
            raw_paper.claims.span(),
            &format!(
                "claim file {} not found (paths are relative to the study file); a paper's report needs its claims",
                claims.display()
            ),
        ));
    }
    Ok(PaperDecl {
        identity: PaperIdentity {
            key: raw_paper.key.clone(),
            authors: raw_paper.authors.clone(),
            title: raw_paper.title.clone(),
            year: raw_paper.year.clone(),
            arxiv: raw_paper.arxiv.clone(),
            version: raw_paper.version.clone(),
            copy: raw_paper.copy.clone(),
        },
        cited: raw_paper.cited.clone(),
        claims,
        builtins,
    })
}

/// The names quoted as `{{ name }}` in prose.
pub fn quotes(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else { break };
        out.push(after[..close].trim().to_string());
        rest = &after[close + 2..];
    }
    out
}

/// Refuses a cycle of mining steps (each reading the next one's output).
fn check_cycles(ctx: &Ctx<'_>, mines: &[Spanned<RawMine>]) -> Result<()> {
    let reads: BTreeMap<&str, &Spanned<String>> = mines
        .iter()
        .map(|m| (m.get_ref().name.get_ref().as_str(), &m.get_ref().table))
        .collect();
    for m in mines {
        let start = m.get_ref().name.get_ref().as_str();
        let mut path = vec![start];
        let mut at = start;
        while let Some(next) = reads.get(at) {
            let next = next.get_ref().as_str();
            if next == start {
                path.push(next);
                return Err(ctx.under(
                    m.get_ref().table.span(),
                    &format!(
                        "mining steps read each other in a cycle: {}",
                        path.join(" → ")
                    ),
                ));
            }
            if path.contains(&next) || !reads.contains_key(next) {
                break;
            }
            path.push(next);
            at = next;
        }
    }
    Ok(())
}
