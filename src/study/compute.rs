//! The computations a study declares: [`TableSpec`], one typed variant per table kind, each kind
//! named `<group>.<subcommand>` after the `nimlab` command that prints the same table. A spec
//! knows its columns from its parameters alone ([`TableSpec::columns`]), so figures, mining
//! steps and quoted values are checked against them before anything runs, and it computes its
//! table through the same library function the command calls ([`TableSpec::compute`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::error::Result;
use crate::export::{Cell, Table};
use crate::family::Family;
use crate::games::candy::Candies;
use crate::games::cash::{Amount, CashSet, CashTable, across_members, thresholds};
use crate::games::scoring::{
    HeapSequence, HeapSize, Limits, Method, OctalRules, Ruleset, ScoringGame, nim_heaps,
    parse_rules, scoring_nim, solve_many_reporting,
};
use crate::num::{IntRange, Pwl, Q, QRange};
use crate::progress::Progress;
use crate::tables::cash_across::{SetFamily, across_table};
use crate::tables::cash_rows::{STATE_COLUMNS, state_rows, threshold_columns, threshold_rows};
use crate::tables::cash_survey::{SURVEY_COLUMNS, cash_survey, survey_table};
use crate::tables::octal::{VALUE_COLUMNS, values_table};
use crate::tables::scoring::PWL_COLUMNS;

/// The kinds of table a study can declare, each named after the command that prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `nimlab scoring payoff`, for several positions: f_N as a PWL function, or on a grid.
    ScoringPayoff,
    /// `nimlab scoring family`: the members of an affine family with their payoffs.
    ScoringFamily,
    /// `nimlab octal values`: G(n) of a scoring octal game for n = 0..=max_heap.
    OctalValues,
    /// `nimlab candy family`: the members of an affine family with V, N_L, N_W.
    CandyFamily,
    /// `nimlab cash thresholds`: f^I, f^II, g^I, g^II and the true least thresholds.
    CashThresholds,
    /// `nimlab cash table`: every state (n; d, e) with its winner.
    CashTable,
    /// Every move set A ⊆ {lo..hi}: plain period and cash-periodicity (no single command).
    CashSurvey,
    /// `nimlab mine across cash`: a family of move sets A(L), each member's certified forms.
    CashAcross,
}

impl Kind {
    /// Every kind, in the order the documentation lists them.
    pub const ALL: [Kind; 8] = [
        Kind::ScoringPayoff,
        Kind::ScoringFamily,
        Kind::OctalValues,
        Kind::CandyFamily,
        Kind::CashThresholds,
        Kind::CashTable,
        Kind::CashSurvey,
        Kind::CashAcross,
    ];

    /// The kind's name in a study file.
    pub fn name(self) -> &'static str {
        match self {
            Kind::ScoringPayoff => "scoring.payoff",
            Kind::ScoringFamily => "scoring.family",
            Kind::OctalValues => "octal.values",
            Kind::CandyFamily => "candy.family",
            Kind::CashThresholds => "cash.thresholds",
            Kind::CashTable => "cash.table",
            Kind::CashSurvey => "cash.survey",
            Kind::CashAcross => "cash.across",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The parameters the kind accepts (required ones are checked by the reader).
    pub fn params(self) -> &'static [&'static str] {
        match self {
            Kind::ScoringPayoff => &["positions", "grid", "method"],
            Kind::ScoringFamily => &["family", "ranges", "grid", "method"],
            Kind::OctalValues => &["subtract", "rules", "points", "max_heap", "bonus"],
            Kind::CandyFamily => &["family", "ranges"],
            Kind::CashThresholds => &["set", "max_n", "defined_only"],
            Kind::CashTable => &["set", "max_n"],
            Kind::CashSurvey => &["elements", "sizes", "max_n"],
            Kind::CashAcross => &["family", "ranges", "step"],
        }
    }
}

/// The main ruleset of an octal table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OctalRulesSpec {
    /// A subtraction set, scoring the beans removed unless points are given.
    Subtract {
        /// The set S.
        set: Vec<HeapSize>,
        /// p_i for each element, in order.
        points: Option<Vec<Q>>,
    },
    /// An octal code `0.d1d2…`, Stewart's `(d1d2…, p1p2…)`, `{4,5}` or `nim`, as `--rules`.
    Rules(String),
}

/// Largest n, d and e of a `cash.table` ((n + 1)³ rows), as `nimlab cash table` allows.
pub const MAX_STATE_TABLE_N: Amount = 400;

/// Largest n of `cash.thresholds` with the least thresholds (they need the win table).
pub const MAX_LEAST_TABLE_N: Amount = 20_000;

/// One computation, its parameters typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableSpec {
    /// f_N of each position: as a PWL function, or its values on `grid`.
    ScoringPayoff {
        /// The positions, heaps as given.
        positions: Vec<Vec<HeapSize>>,
        /// Bonus values to list the payoffs at.
        grid: Option<QRange>,
        /// The payoff algebra.
        method: Method,
    },
    /// A family of Scoring Nim positions with their payoffs.
    ScoringFamily {
        /// The family, e.g. (2k+1, 2k, 1).
        family: Family,
        /// The range of each parameter.
        ranges: BTreeMap<String, IntRange>,
        /// Bonus values to list the payoffs at.
        grid: Option<QRange>,
        /// The payoff algebra.
        method: Method,
    },
    /// G(n) of an octal game with a bonus for the last move.
    OctalValues {
        /// The ruleset.
        rules: OctalRulesSpec,
        /// Largest heap.
        max_heap: HeapSize,
        /// The bonus N (0: Stewart's G_s).
        bonus: Q,
    },
    /// A family of Candy Nim positions with their values.
    CandyFamily {
        /// The family.
        family: Family,
        /// The range of each parameter.
        ranges: BTreeMap<String, IntRange>,
    },
    /// NIM with Cash thresholds for n ≤ max_n.
    CashThresholds {
        /// The move set A.
        set: CashSet,
        /// Largest n.
        max_n: Amount,
        /// Leave out the least thresholds (no win table).
        defined_only: bool,
    },
    /// Every state (n; d, e) with n, d, e ≤ max_n and its winner.
    CashTable {
        /// The move set A.
        set: CashSet,
        /// Largest n, d and e.
        max_n: Amount,
    },
    /// Every move set A ⊆ elements (of the given sizes).
    CashSurvey {
        /// The numbers the sets are drawn from.
        elements: IntRange,
        /// The sizes of the sets surveyed (all when `None`).
        sizes: Option<IntRange>,
        /// Largest n of the data.
        max_n: Amount,
    },
    /// A family of move sets in one parameter, each member's forms certified and summarized.
    CashAcross {
        /// The family, e.g. {1, L}.
        family: SetFamily,
        /// The parameter's range.
        range: IntRange,
        /// The step through the range.
        step: i64,
    },
}

/// The name of a payoff algebra in a study file.
pub fn method_name(method: Method) -> &'static str {
    match method {
        Method::Auto => "auto",
        Method::Grid => "grid",
        Method::Exact => "exact",
    }
}

/// The columns of a payoff: the PWL summary, or the grid's `bonus` and `payoff`.
fn payoff_columns(grid: Option<&QRange>) -> Vec<String> {
    match grid {
        Some(_) => vec!["bonus".into(), "payoff".into()],
        None => PWL_COLUMNS.map(String::from).to_vec(),
    }
}

/// A family's leading columns: its parameters, then `h1`, `h2`, ….
fn family_columns(family: &Family) -> Vec<String> {
    let mut columns = family.params();
    columns.extend((1..=family.heaps().len()).map(|i| format!("h{i}")));
    columns
}

impl TableSpec {
    /// The kind of table.
    pub fn kind(&self) -> Kind {
        match self {
            TableSpec::ScoringPayoff { .. } => Kind::ScoringPayoff,
            TableSpec::ScoringFamily { .. } => Kind::ScoringFamily,
            TableSpec::OctalValues { .. } => Kind::OctalValues,
            TableSpec::CandyFamily { .. } => Kind::CandyFamily,
            TableSpec::CashThresholds { .. } => Kind::CashThresholds,
            TableSpec::CashTable { .. } => Kind::CashTable,
            TableSpec::CashSurvey { .. } => Kind::CashSurvey,
            TableSpec::CashAcross { .. } => Kind::CashAcross,
        }
    }

    /// The table's columns, from the parameters alone.
    pub fn columns(&self) -> Vec<String> {
        match self {
            TableSpec::ScoringPayoff { grid, .. } => {
                let mut columns = vec!["position".to_string()];
                columns.extend(payoff_columns(grid.as_ref()));
                columns
            }
            TableSpec::ScoringFamily { family, grid, .. } => {
                let mut columns = family_columns(family);
                columns.extend(payoff_columns(grid.as_ref()));
                columns
            }
            TableSpec::OctalValues { .. } => VALUE_COLUMNS.map(String::from).to_vec(),
            TableSpec::CandyFamily { family, .. } => {
                let mut columns = family_columns(family);
                columns.extend(["v", "n_l", "n_w"].map(String::from));
                columns
            }
            TableSpec::CashThresholds { defined_only, .. } => threshold_columns(!defined_only),
            TableSpec::CashTable { .. } => STATE_COLUMNS.map(String::from).to_vec(),
            TableSpec::CashSurvey { .. } => SURVEY_COLUMNS.map(String::from).to_vec(),
            TableSpec::CashAcross { family, .. } => family.columns(),
        }
    }

    /// The spec as canonical JSON (fixed key order, values in their exact text): what the
    /// cache key hashes and what provenance lists.
    pub fn canonical(&self) -> Value {
        let grid = |g: &Option<QRange>| g.as_ref().map(ToString::to_string);
        let ranges = |r: &BTreeMap<String, IntRange>| -> BTreeMap<String, String> {
            r.iter().map(|(k, v)| (k.clone(), v.to_string())).collect()
        };
        let body = match self {
            TableSpec::ScoringPayoff {
                positions,
                grid: g,
                method,
            } => json!({ "positions": positions, "grid": grid(g), "method": method_name(*method) }),
            TableSpec::ScoringFamily {
                family,
                ranges: r,
                grid: g,
                method,
            } => json!({
                "family": family.to_string(),
                "ranges": ranges(r),
                "grid": grid(g),
                "method": method_name(*method),
            }),
            TableSpec::OctalValues {
                rules,
                max_heap,
                bonus,
            } => {
                let rules = match rules {
                    OctalRulesSpec::Subtract { set, points } => json!({
                        "subtract": set,
                        "points": points.as_ref().map(|p| p.iter().map(ToString::to_string).collect::<Vec<_>>()),
                    }),
                    OctalRulesSpec::Rules(code) => json!({ "rules": code }),
                };
                json!({ "rules": rules, "max_heap": max_heap, "bonus": bonus.to_string() })
            }
            TableSpec::CandyFamily { family, ranges: r } => {
                json!({ "family": family.to_string(), "ranges": ranges(r) })
            }
            TableSpec::CashThresholds {
                set,
                max_n,
                defined_only,
            } => json!({ "set": set.elements(), "max_n": max_n, "defined_only": defined_only }),
            TableSpec::CashTable { set, max_n } => {
                json!({ "set": set.elements(), "max_n": max_n })
            }
            TableSpec::CashSurvey {
                elements,
                sizes,
                max_n,
            } => json!({
                "elements": elements.to_string(),
                "sizes": sizes.map(|s| s.to_string()),
                "max_n": max_n,
            }),
            TableSpec::CashAcross {
                family,
                range,
                step,
            } => json!({
                "family": family.family().to_string(),
                "range": range.to_string(),
                "step": step,
            }),
        };
        json!({ "kind": self.kind().name(), "params": body })
    }

    /// The same table with its index `index` taken up to `to` (a family's parameter, an octal
    /// table's heap `n`, a threshold table's `n`), for re-verifying a mined form beyond the
    /// data; `None` when `index` is not an index of this kind or `to` is no larger.
    pub fn extended(&self, index: &str, to: i64) -> Option<TableSpec> {
        let mut out = self.clone();
        match &mut out {
            TableSpec::ScoringFamily { ranges, .. } | TableSpec::CandyFamily { ranges, .. } => {
                if ranges.len() != 1 {
                    return None;
                }
                let r = ranges.get_mut(index)?;
                if to <= r.end() {
                    return None;
                }
                *r = IntRange::new(r.start(), to).ok()?;
            }
            TableSpec::OctalValues { max_heap, .. } if index == "n" => {
                let to = HeapSize::try_from(to).ok()?;
                (to > *max_heap).then_some(())?;
                *max_heap = to;
            }
            TableSpec::CashThresholds { max_n, .. } if index == "n" => {
                let to = Amount::try_from(to).ok()?;
                (to > *max_n).then_some(())?;
                *max_n = to;
            }
            TableSpec::CashAcross { family, range, .. } if index == family.param() => {
                (to > range.end()).then_some(())?;
                *range = IntRange::new(range.start(), to).ok()?;
            }
            _ => return None,
        }
        Some(out)
    }

    /// Computes the table through the library functions the CLI commands call; `max_bytes` is
    /// the memory budget their own guards enforce.
    pub fn compute(&self, max_bytes: u64, progress: &dyn Progress) -> Result<Table> {
        let limits = Limits { max_bytes };
        match self {
            TableSpec::ScoringPayoff {
                positions,
                grid,
                method,
            } => {
                let roots: Vec<_> = positions.iter().map(|p| nim_heaps(p)).collect();
                let sol = solve_many_reporting(&scoring_nim(), &roots, *method, &limits, progress)?;
                let mut t = Table {
                    columns: self.columns(),
                    rows: Vec::new(),
                };
                for (p, heaps) in positions.iter().zip(&roots) {
                    let f = sol.payoff(heaps)?;
                    let position = Cell::list("[", ",", "]", p.iter().copied());
                    t.rows.extend(payoff_rows(position, &f, grid.as_ref()));
                }
                Ok(t)
            }
            TableSpec::ScoringFamily {
                family,
                ranges,
                grid,
                method,
            } => Ok(crate::tables::scoring::family_table_reporting(
                family,
                ranges,
                grid.as_ref(),
                *method,
                &limits,
                progress,
            )?
            .table()),
            TableSpec::OctalValues {
                rules,
                max_heap,
                bonus,
            } => {
                let seq = octal_sequence(rules, bonus)?;
                values_table(&seq, *max_heap, &limits, progress)
            }
            TableSpec::CandyFamily { family, ranges } => Ok(crate::tables::candy::family_table(
                family, ranges, max_bytes, progress,
            )?
            .table()),
            TableSpec::CashThresholds {
                set,
                max_n,
                defined_only,
            } => {
                crate::games::cash::check_threshold_budget(set, *max_n, false, max_bytes)?;
                let th = thresholds(set, *max_n)?;
                let table = match defined_only {
                    true => None,
                    false => Some(CashTable::solve(set, *max_n, max_bytes)?),
                };
                Ok(Table {
                    columns: self.columns(),
                    rows: threshold_rows(set, &th, table.as_ref(), *max_n).collect(),
                })
            }
            TableSpec::CashTable { set, max_n } => {
                let t = CashTable::solve(set, *max_n, max_bytes)?;
                Ok(Table {
                    columns: self.columns(),
                    rows: state_rows(&t).collect(),
                })
            }
            TableSpec::CashSurvey {
                elements,
                sizes,
                max_n,
            } => Ok(survey_table(&cash_survey(
                *elements, *sizes, *max_n, progress,
            )?)),
            TableSpec::CashAcross {
                family,
                range,
                step,
            } => {
                let sets = family.members(*range, *step, max_bytes)?;
                let members = across_members(&sets, max_bytes, progress)?;
                Ok(across_table(family, &sets, &members))
            }
        }
    }
}

/// The rows of one position's payoff: its PWL summary, or one row per bonus of `grid`.
fn payoff_rows(position: Cell, f: &Pwl, grid: Option<&QRange>) -> Vec<Vec<Cell>> {
    match grid {
        Some(g) => g
            .iter()
            .map(|n| {
                let v = f.eval(&n);
                vec![position.clone(), Cell::from(n), v.into()]
            })
            .collect(),
        None => vec![vec![
            position,
            Cell::from(f.breakpoints().len()),
            f.left_intercept().into(),
            f.right_intercept().into(),
            Cell::from(f),
        ]],
    }
}

/// The ruleset of an octal table, as `nimlab octal --subtract/--rules/--points` builds it.
pub fn octal_ruleset(rules: &OctalRulesSpec) -> Result<Arc<dyn Ruleset>> {
    let refused =
        |e: crate::games::scoring::RulesError| crate::error::Error::invalid(e.to_string());
    match rules {
        OctalRulesSpec::Subtract { set, points } => Ok(Arc::new(
            OctalRules::subtraction(set, points.clone()).map_err(refused)?,
        )),
        OctalRulesSpec::Rules(code) => parse_rules(code).map_err(refused),
    }
}

/// The values of single heaps of an octal table's game, with its bonus: what the table lists
/// and what its cost estimate measures.
pub(super) fn octal_sequence(rules: &OctalRulesSpec, bonus: &Q) -> Result<HeapSequence> {
    let game = ScoringGame::new(vec![octal_ruleset(rules)?]);
    HeapSequence::new(&game, 0, &[], bonus.clone())
}

/// The heaps of a candy position, for cost estimates.
pub(super) fn candy_hull(
    family: &Family,
    ranges: &BTreeMap<String, IntRange>,
) -> Result<Vec<Candies>> {
    let mut hull = family.heap_maxima(ranges)?;
    hull.sort_unstable_by(|x, y| y.cmp(x));
    Ok(hull)
}
