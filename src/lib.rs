#![deny(rustdoc::broken_intra_doc_links)]
// A type a caller meets (in a signature or a field) but cannot name is missing from the facade.
#![warn(unnameable_types)]
//! nimlab — exact values, closed forms and verdicts for scoring variants of Nim.
//!
//! The library's modules are private; what a caller uses is re-exported here, once: the core
//! types and functions at the top ([`Q`], [`Pwl`], [`Registry`], [`check_claim`],
//! [`fit_periodic_linear`], [`write_reports`], …), and the rest of each area in a small namespace
//! ([`scoring`], [`normal_play`], [`candy`], [`cash`], [`mining`], [`language`], [`reports`],
//! [`io`]). No item has
//! two public paths.
//!
//! Modules, from the bottom up (each uses only those above it):
//!
//! - `num`: exact rationals ([`Q`]), piecewise-linear functions ([`Pwl`]) and ranges
//!   ([`IntRange`], [`QRange`]);
//! - `progress`: how long work reports how far it is ([`Progress`]; a front end shows it,
//!   [`Silent`] ignores it);
//! - `miner`: generic pattern finding on sequences of exact values — least periods (proven by
//!   window arguments or observed), periodic-linear closed forms (also along one-parameter
//!   families), and certificates that prove them against a min/max-plus recurrence. It knows no
//!   game; callers describe the recurrence ([`fit_periodic_linear`], [`mining`]);
//! - `games`: the engines — Scoring Nim and Stewart's octal games, bonus N symbolic
//!   ([`scoring`]), normal-play take-and-break games ([`normal_play`]), Candy Nim ([`candy`]) and
//!   NIM with Cash ([`cash`]) — which call the miner to prove what their data shows;
//! - `family`: positions whose heaps are affine in parameters, such as (2k+1, 2k, 1)
//!   ([`Family`]);
//! - `claims`: claim files, an exact expression language and verdicts with evidence
//!   ([`Registry`], [`check_claim`], [`Finding`]; the language in [`language`]);
//! - `fsio`: file output that never clobbers what is not ours (atomic replace, devices written
//!   through, symlinks followed, `-` for stdio) and the cleanup of temporaries on a signal
//!   ([`io`]);
//! - `export`: generic tables rendered as text, CSV, JSON or Markdown, pure functions to bytes
//!   ([`Table`], [`Format`]);
//! - `tables`: the typed tables every front end shares (family tables with their payoffs and
//!   values, cash thresholds, certified and mined closed forms, mined forms re-verified), in
//!   their game's namespace;
//! - `discover`: closed forms across whole spaces of families, each mined, re-verified beyond
//!   its data and ranked by novelty against the claim registries, as an atlas ([`discovery`]);
//! - `report`: research reports (Markdown, LaTeX, CSV, SVG) rendered from templates, generic
//!   ([`render_reports`], [`reports`]);
//! - `papers`: the four papers' reports as paper studies (`data/studies/<paper>.toml`, the
//!   builtin parts they name, verdicts) for `report` ([`PAPERS`], [`paper_reports`]), and the
//!   claim entries every report shows;
//! - `study`: a researcher's own question as one TOML file, validated, costed, computed
//!   through a content-addressed cache and rendered as a report ([`study`]; its claims are
//!   shown with the papers' claim entries);
//! - `cli`: the `nimlab` command line on top, behind the `cli` feature (on by default). Without
//!   it the library builds with none of the command line's dependencies (clap, indicatif,
//!   anyhow): `cargo build --lib --no-default-features`.
//!
//! # Adding a game
//!
//! A new game is its folder `src/games/<game>/` (the engine, with its tests) and, for claims to
//! call it, one file `src/claims/functions/<game>.rs` (its functions and their cache). Then it
//! is registered in three places:
//!
//! 1. `src/games/mod.rs`: `pub mod <game>;`
//! 2. `src/claims/functions/mod.rs`: `pub mod <game>;` and `&<game>::GROUP,` in `GROUPS` (the
//!    README's function tables are regenerated from it);
//! 3. `src/lib.rs`: its namespace, `pub mod <game> { pub use crate::games::<game>::{…}; }`,
//!    naming what callers use.
//!
//! Structural checks (`src/claims/builtins/<game>.rs`, listed in its `all()`), typed tables
//! (`src/tables/`), a paper's builtin report parts (`src/papers/`, listed in `BUILTINS`) and a subcommand (`cli`)
//! are optional, each one more file and one line in its list.

mod claims;
#[cfg(feature = "cli")]
mod cli;
mod discover;
mod error;
mod export;
mod family;
mod fsio;
mod games;
mod miner;
mod num;
mod papers;
mod progress;
#[cfg(feature = "python")]
mod python;
mod report;
mod shard;
/// Studies: one TOML file declaring computations, mining, claims, figures and prose, validated
/// (with `path:line:col` errors) and costed before anything runs; computed tables cached by
/// content ([`study::Cache`]).
///
/// ```
/// use std::path::Path;
/// use nimlab::study::{Kind, parse};
///
/// let src = r#"
/// [study]
/// name = "demo"
/// title = "Demo"
///
/// [[table]]
/// name = "thresholds"
/// kind = "cash.thresholds"
/// set = [1, 4]
/// max_n = 20
/// "#;
/// let study = parse(Path::new("demo.toml"), src)?;
/// assert_eq!(study.tables[0].spec.kind(), Kind::CashThresholds);
/// assert_eq!(study.tables[0].spec.columns()[..2], ["n", "winner"]);
/// let cost = study.check_budget(1 << 30)?;
/// assert_eq!(cost[0].rows, 21);
/// let bad = parse(Path::new("demo.toml"), &src.replace("max_n", "max_m")).unwrap_err();
/// assert!(bad.to_string().starts_with("demo.toml:10:1: table `thresholds`: unknown parameter `max_m`"), "{bad}");
/// # Ok::<(), nimlab::Error>(())
/// ```
pub mod study;
mod tables;

/// Claims: a [`Registry`] read from a claim file or built from [`Claim`] values
/// ([`ClaimBuilder`]), each checked by [`check_claim`] into a [`Finding`] with its
/// [`VerdictKind`], or all at once by [`check_registry`] (the parts of a finding are in
/// [`findings`]).
///
/// ```
/// use std::path::Path;
/// use nimlab::{Registry, Silent, VerdictKind, check_claim, check_registry};
///
/// let file = r#"
/// paper = "demo"
/// [[claim]]
/// id = "odd-squares"
/// label = "Example 1"
/// statement = "the square of an odd number is odd"
/// for = "k in 0..20"
/// holds = "mod((2*k + 1)^2, 2) == 1"
/// "#;
/// let registry = Registry::parse(Path::new("demo.toml"), file)?;
/// let finding = check_claim(&registry, &registry.claims[0], false)?;
/// assert_eq!(finding.verdict, VerdictKind::Holds);
/// let rows = check_registry(&registry, false, &[], &Silent)?;
/// assert_eq!(rows[0].claim.id, "odd-squares");
/// assert_eq!(rows[0].verdict, VerdictKind::Holds);
///
/// // The same claim as a value: no claim text.
/// use nimlab::Claim;
/// use nimlab::language::{Binder, Definitions, Expr, Quantifiers};
/// let k = Binder::interval("k", Expr::int(0), Expr::int(20), None);
/// let odd = Expr::int(2) * Expr::var("k") + Expr::int(1);
/// let square_mod_2 = Expr::call("mod", vec![odd.clone() * odd, Expr::int(2)]);
/// let builder: nimlab::ClaimBuilder = Claim::builder("odd-squares", "Example 1", "odd squares")
///     .over(Quantifiers::new("k in 0..20", vec![k]));
/// let claim = builder.equal(square_mod_2, Expr::int(1)).build(&Definitions::new())?;
/// let built = Registry::from_claims("demo", "Demo", Definitions::new(), vec![claim])?;
/// assert_eq!(check_claim(&built, &built.claims[0], false)?.verdict, VerdictKind::Holds);
/// # Ok::<(), nimlab::Error>(())
/// ```
pub use claims::{
    Claim, ClaimBuilder, Finding, Registry, VerdictKind, check_claim, check_registry,
};
/// Family induction proofs: closed forms over a closure of positions ([`prove::System`], read
/// from a forms file) proven for every parameter and every bonus N, each step of the induction
/// an SMT query refuted by nimlab itself where it can ([`prove::Refuting`]) and answered by z3
/// or cvc5 ([`prove::Solver`], run as programs); a claim proven from them, or from its file's
/// definitions, on its own with its certificate ([`prove::prove_claim_alone`]).
pub mod prove {
    pub use crate::claims::induction::{
        Answer, CertificateKind, ClaimProof, Class, Discrepancy, Game, MANIFEST, Obligation,
        Outcome, Posed, Posing, ProvableClaim, Query, REFINEMENTS, Refinement, Refutation,
        Refuting, Rel, Replay, SECONDS_PER_OBLIGATION, Solver, Sort, Statement, System, Term,
        deciders, is_certificate_dir, pose_statement, prove_claim_alone, prove_statement, refute,
        replay_certificate, run, write_certificate, write_claim_certificate,
    };
}
/// The library's error (the bad value named) and its result type.
///
/// ```
/// let family: nimlab::Family = "2k+1, 2k, 1".parse().unwrap();
/// let err: nimlab::Error = family.members(&Default::default()).unwrap_err();
/// assert!(err.to_string().contains('k'), "{err}");
/// let ok: nimlab::Result<u8> = Ok(1);
/// assert!(ok.is_ok());
/// ```
pub use error::{Error, Result};
/// A generic table ([`Table`] of [`Cell`]s, a cell may hold a [`List`] or a [`Record`])
/// rendered in a [`Format`].
///
/// ```
/// use nimlab::{Cell, Format, Q, Table};
///
/// let mut t = Table::new(&["n", "value", "parts"]);
/// let parts = Cell::list("(", " ", ")", [1u64, 2]);
/// t.push(vec![Cell::from(3u64), Cell::from(Q::int(-1)), parts]);
/// let csv = String::from_utf8(t.render(Format::Csv)).unwrap();
/// assert_eq!(csv, "n,value,parts\n3,-1,(1 2)\n");
/// assert_eq!(Format::Csv.name(), "csv");
/// let record = Cell::record(vec![("k", Cell::from(1u64))], "k=1");
/// assert!(matches!(record, Cell::Record(_)));
/// ```
pub use export::{
    Cell, Format, List, Record, RowEncoder, SPOOL_MEMORY, Table, TableWriter, write_rows_parallel,
};
/// Families of positions whose heaps are [`Affine`] in parameters; each [`Member`] is one
/// position, and a bad family is a [`FamilyParseError`].
///
/// ```
/// use std::collections::BTreeMap;
/// use nimlab::{Family, IntRange};
///
/// let family: Family = "2k+1, 2k, 1".parse().unwrap();
/// assert_eq!(family.params(), ["k"]);
/// let ranges = BTreeMap::from([("k".to_string(), IntRange::new(1, 3).unwrap())]);
/// let members = family.members(&ranges).unwrap();
/// assert_eq!(members[0].heaps, [3, 2, 1]);
/// assert_eq!(family.heaps()[0].constant(), 1);
/// assert!("2k+".parse::<Family>().is_err());
/// ```
pub use family::{Affine, Family, FamilyParseError, Member};
/// The miner's periodic-linear fit: a [`PeriodicLinear`] closed form of a sequence of exact
/// values (one line per residue), found with [`FitOptions`]; [`Periodicity`] says how a period
/// is known.
///
/// ```
/// use nimlab::{FitOptions, Q, fit_periodic_linear};
///
/// // a(n) = 3n for even n, 3n + 1 for odd n.
/// let a: Vec<Q> = (0..40).map(|n| Q::int(3 * n + n % 2)).collect();
/// let fit = fit_periodic_linear(&a, 0, &FitOptions::default()).unwrap();
/// assert_eq!((fit.period, fit.preperiod), (2, 0));
/// assert_eq!(fit.eval(101), Q::int(304));
/// ```
pub use miner::{FitOptions, PeriodicLinear, Periodicity, fit_periodic_linear};
/// Exact numbers: rationals ([`Q`]), piecewise-linear functions ([`Pwl`], made of [`Piece`]s),
/// integer and rational ranges ([`IntRange`], [`QRange`]); each parse error names the bad text.
///
/// ```
/// use nimlab::{IntRange, Pwl, Q, QRange};
///
/// let half: Q = "1/2".parse().unwrap();
/// assert_eq!((half.clone() + Q::int(1)).to_string(), "3/2");
/// let f: Pwl = "[0] (0,0) (2,2) [0]".parse().unwrap();
/// assert_eq!(f.eval(&half), half);
/// let r: IntRange = "1..4".parse().unwrap();
/// assert_eq!(r.iter().collect::<Vec<_>>(), [1, 2, 3, 4]);
/// let q = QRange::new(Q::int(0), Q::int(1), half).unwrap();
/// assert_eq!(q.len(), 3);
/// assert!("1/0".parse::<Q>().is_err());
/// ```
pub use num::{
    IntRange, ParseQError, ParseRangeError, Piece, Pwl, PwlError, Q, QRange, WholeError,
};
/// The four papers' studies (`data/studies/<name>.toml`), in the order the index lists them,
/// and their report builders (what [`render_reports`] takes).
///
/// ```no_run
/// use std::path::Path;
/// assert_eq!(nimlab::PAPERS, ["scoring-nim", "scoring-octal", "candy-nim", "nim-with-cash"]);
/// let builders = nimlab::paper_reports(Path::new("data/studies"))?;
/// assert_eq!(builders.len(), 4);
/// # Ok::<(), nimlab::Error>(())
/// ```
pub use papers::{PAPERS, paper_reports};
/// How long work reports how far it is: a front end implements [`Progress`] (every method a
/// no-op by default); [`Silent`] ignores it.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use nimlab::{Progress, Silent};
///
/// struct Count(AtomicU64);
/// impl Progress for Count {
///     fn advance(&self, n: u64) {
///         self.0.fetch_add(n, Ordering::Relaxed);
///     }
/// }
/// let count = Count(AtomicU64::new(0));
/// count.advance(2);
/// Silent.advance(2);
/// assert_eq!(count.0.load(Ordering::Relaxed), 2);
/// ```
pub use progress::{Progress, Silent};
/// The research reports: [`render_reports`] renders them in memory, [`write_reports`]
/// installs them in a directory atomically, [`check_reports`] compares a directory with a fresh
/// render; [`ReportOptions`] say which and how deep. (Rendering checks every claim of the
/// papers, so this example is compiled, not run.)
///
/// ```no_run
/// use std::path::Path;
/// use nimlab::{ReportOptions, Silent, check_reports, paper_reports, write_reports};
///
/// let papers = paper_reports(Path::new("data/studies"))?;
/// let opts = ReportOptions { only: vec!["candy-nim".into()], ..ReportOptions::default() };
/// write_reports(Path::new("reports"), &papers, &opts, &Silent)?;
/// let checked = check_reports(Path::new("reports"), &papers, &opts, &Silent)?;
/// assert!(checked.differences.is_empty());
/// # Ok::<(), nimlab::Error>(())
/// ```
pub use report::{ReportOptions, check_reports, render_reports, write_reports};

/// Scoring Nim and Stewart's octal games: positions, rulesets, the solvers and their tables.
///
/// ```
/// use nimlab::Q;
/// use nimlab::scoring::{Method, nim_heaps, scoring_nim, solve};
///
/// let heaps = nim_heaps(&[3, 2, 1]);
/// let exact = solve(&scoring_nim(), &heaps, Method::Exact, &Default::default())?;
/// let grid = solve(&scoring_nim(), &heaps, Method::Grid, &Default::default())?;
/// let payoff = exact.payoff(&heaps)?; // a piecewise-linear function of the bonus N
/// assert_eq!(payoff, grid.payoff(&heaps)?);
/// assert_eq!(payoff.eval(&Q::int(5)), exact.value(&heaps, &Q::int(5))?);
/// # Ok::<(), nimlab::Error>(())
/// ```
pub mod scoring {
    pub use crate::games::scoring::{
        Candidate, GRID_LIMIT, GridError, GridFn, GridSummary, Heap, HeapMove, HeapSequence,
        HeapSize, HeapTable, Interval, Limits, Line, MAX_DIGITS, MAX_TABLE_HEAPS, Method, Move,
        MoveRegion, OctalRules, Ordered, Outcome, PERIOD_SECONDS, PROGRESS_SECONDS, PartitionIndex,
        PayoffRef, Payoffs, PeriodCertificate, PeriodProof, PeriodReport, Player, Ply, Position,
        Route, RulesError, Ruleset, ScoringGame, SequenceCost, SequenceState, Solution, SolveCost,
        SummaryParts, TablePlan, TableSlab, Tails, UniformTail, ValueSolution, candidates,
        common_constant_points, grundy_values, grundy_values_reporting, in_p_plus,
        largest_fitting_max_heap, nim_heaps, nim_sum, optimal_line, optimal_move_regions,
        parse_set, scoring_nim, search_values, solve, solve_cost, solve_many, solve_many_reporting,
        solve_partition_values, solve_table, solve_values, solve_values_reporting, table_bytes,
        table_size, tails, value_from_grundy, values_at,
    };
    pub use crate::games::scoring::{
        Conjecture14Tally, MAX_SURVEY_WIDTH, SURVEY_CHUNK, SurveyRow, conjecture_14,
        subtraction_sets, survey_in_chunks, survey_items_in_chunks, survey_size,
        survey_subtraction_games,
    };
    pub use crate::tables::octal::{
        OUTCOME_COLUMNS, PERIOD_COLUMNS, POSITION_VALUE_COLUMNS, VALUE_COLUMNS, heaps_cell,
        outcome_table, period_cells, period_table, position_cell as octal_position_cell,
        position_text, position_value_table, values_table,
    };
    pub use crate::tables::scoring::{
        MAX_FAMILY_ROWS, PWL_COLUMNS, ScoringFamily, ScoringMember, encode_payoff_rows,
        encode_table_rows, family_cost, family_table, family_table_reporting,
    };
    pub use crate::tables::scoring_play::{
        LIMIT_COLUMNS, LINE_COLUMNS, MOVE_REGION_COLUMNS, MOVES_AT_COLUMNS, PIECE_COLUMNS,
        PLY_COLUMNS, limits_table, line_table, move_regions_table, moves_at_table, ordered_cell,
        piece_interval, pieces_table, plies_table, position_cell,
    };
}

/// Normal play: Grundy values of octal and hexadecimal take-and-break games and their periods,
/// proven by the periodicity theorem.
///
/// ```
/// use nimlab::normal_play::{GrundyPeriod, TakeBreakCode};
///
/// let kayles: TakeBreakCode = "0.77".parse()?;
/// assert_eq!(kayles.grundy_values(6, &nimlab::Silent), [0, 1, 2, 3, 1, 4, 3]);
/// let period = kayles.period(1 << 12, 1 << 30, &nimlab::Silent);
/// let GrundyPeriod::Periodic(p) = period.shape else { unreachable!() };
/// assert_eq!((p.preperiod, p.period, p.is_proven()), (71, 12, true));
/// # Ok::<(), nimlab::Error>(())
/// ```
pub mod normal_play {
    pub use crate::games::normal_play::{
        CodeSurveyRow, CodeTally, GrundyPeriod, MAX_CODE_DIGITS, MAX_SURVEY_DIGITS, NormalPeriod,
        SearchStop, TakeBreakCode, code_at, code_count, survey_codes_in_chunks,
    };
    pub use crate::miner::ArithmeticPeriodicity;
    pub use crate::tables::octal::{
        NORMAL_PERIOD_COLUMNS, normal_period_cells, normal_period_table,
    };
}

/// Candy Nim: values, optimal play and the value tables.
///
/// ```
/// use nimlab::candy::plain_value;
///
/// let value = plain_value(&[3, 5, 6]);
/// assert_eq!(value.v, value.n_l as i64 - value.n_w as i64);
/// assert_eq!(value.n_l + value.n_w, 3 + 5 + 6);
/// ```
pub mod candy {
    pub use crate::games::candy::{
        Allocation, AllocationCost, CandyPly, CandyTable, CandyValue, Contraction, MemoValues,
        PValues, Reading, Role, Strategy, StrategyPlay, StrategyTurn, TableShape, ThreeHeapBox,
        ThreeHeapTable, allocation, allocation_cost, allocation_reporting, allocations, nim_sum,
        optimal_line, p_partitions, plain_value, play_strategy, role, standard_form, total,
        value_with, winning_moves,
    };
    pub use crate::games::candy::{
        FrakRanges, PACKED_TOTAL, frak_ranges, frak_x_limit, most_heaps_fitting, p_position_table,
        p_position_table_bytes, p_positions, p_positions_with_largest,
    };
    pub use crate::tables::candy::{CandyFamily, CandyMember, family_table};
    pub use crate::tables::candy_play::{
        ALLOCATION_COLUMNS, LINE_COLUMNS, MAX_ALLOCATION, STRATEGY_COLUMNS, TURN_COLUMNS,
        VALUE_COLUMNS, allocation_row, allocation_table, heaps_cell, line_table,
        p_position_columns, p_position_row, strategy_table, turns_table, value_table,
    };
}

/// NIM with Cash: cash sets, winners, thresholds and their certified closed forms.
///
/// ```
/// use nimlab::cash::{CashSet, Winner, cash_winner_naive, plain_winners, thresholds};
///
/// let a: CashSet = "1,4".parse()?;
/// let th = thresholds(&a, 12)?;
/// assert_eq!(th.winner, plain_winners(&a, 12)); // W_A(n), the game without cash
/// for n in 0..=12 {
///     let m = n as usize;
///     // Theorem 2.2: with f^I(n) cash against n, the winner of the plain game still wins.
///     if th.winner[m] == Winner::I {
///         assert_eq!(cash_winner_naive(&a, n, th.f1[m], n), Winner::I);
///     }
/// }
/// # Ok::<(), nimlab::Error>(())
/// ```
pub mod cash {
    pub use crate::games::cash::threshold_bytes;
    pub use crate::games::cash::{
        Boundary, CashPeriodicity, CashSet, CashTable, Classification, EdgeLayer, Offset, Standing,
        ThresholdForms, Thresholds, WinCondition, WinProof, Winner, c_values, c1_as_printed,
        cash_winner_naive, classify, corresponding_state, g_thresholds, g_thresholds_big,
        least_offset, least_thresholds, plain_winners, replay_threshold_certificate,
        threshold_forms, thresholds, winner_by_forms,
    };
    pub use crate::games::cash::{
        Conflict, CriticalState, CriticalStates, DIRECT_TABLE, Decision, MAX_STATE_TABLE, Part,
        Reason, STEPS_WORTH_REPORTING, TERMS_WORTH_REPORTING, ThresholdSource, across_members,
        across_start_data, critical_states, decide, decide_reporting,
    };
    pub use crate::tables::cash::{
        CLASSIFY_COLUMNS, PrintedTable, THRESHOLD_COLUMNS, WINNER_COLUMNS, appendix_table,
        certified_forms_table, certified_start_k, decision_reason, decision_table,
        least_threshold_table, offsets_table, set_cell, threshold_row, win_condition_table,
        win_condition_text,
    };
    pub use crate::tables::cash_across::{
        ACROSS_FUNCTIONS, ACROSS_MEMBER_COLUMNS, SetFamily, across_table,
    };
    pub use crate::tables::cash_rows::{
        LEAST_COLUMNS, STATE_COLUMNS, encode_state_rows, state_row_groups, state_rows,
        threshold_columns, threshold_rows,
    };
    pub use crate::tables::cash_survey::{
        CASH_SURVEY_CHUNK, CashSurveyRow, CashTally, CashVerdict, MAX_SURVEY_ELEMENTS,
        SURVEY_COLUMNS, SWEEP_COLUMNS, WIN_START_N, WinStatus, cash_survey, survey_cost,
        survey_items_in_chunks, survey_row, survey_sets, survey_table, sweep_cells, win_status,
    };
}

/// The miner beyond [`fit_periodic_linear`]: periods, certificates and closed forms of
/// piecewise-linear functions, and the mined-form tables.
///
/// ```
/// use nimlab::Pwl;
/// use nimlab::mining::pwl_shape;
///
/// let zigzag: Pwl = "[0] (0,0) (1,1) (2,0) (3,1) [0]".parse().unwrap();
/// let shape = pwl_shape(&zigzag).expect("breakpoints 0, 1, 2, 3");
/// let bps = zigzag.breakpoints();
/// assert_eq!((&shape.first, &shape.last), (&bps[0].0, &bps[bps.len() - 1].0));
/// assert_eq!(shape.value_cycle, [bps[0].1.clone(), bps[1].1.clone()]);
/// ```
pub mod mining {
    pub use crate::games::certificate_file::{
        CASH_THRESHOLDS, CertificateFile, CertificateFileError, KINDS, OCTAL_PERIOD, Replayed,
    };
    pub use crate::miner::{
        AcrossAnalysis, AcrossClass, AcrossFit, AcrossMember, FunctionAcross, InterceptsAcross,
        PieceAcross, TableForm, across_analysis,
    };
    pub use crate::miner::{
        AffineNumber, BreakpointForms, Certificate, ClosedForm, FamilyForm, FamilyForms,
        FamilyOptions, FloorForm, FloorKind, GridForm, LinearParameter, MAX_CERTIFICATE_INDEX,
        PeriodStatus, PwlForm, PwlKind, PwlShape, QuantityFit, Recurrence, ResidueLine, Rule, Term,
        WindowCertificate, WindowError, Zigzag, family_form, grid_form, mine_family,
        mine_family_with, pwl_form, pwl_shape, zigzag,
    };
    pub use crate::miner::{
        Anomaly, IrregularTail, KLine, NoProgressionForm, Progression, ProgressionFamily, Run,
        Shape, TailSide, first_difference, irregular_tail, mine_progressions,
        mine_progressions_confirmed, residue_index,
    };
    pub use crate::miner::{QuasiOptions, QuasiPolynomial, fit_quasi_polynomial};
    pub use crate::tables::across::{
        ACROSS_FORM_COLUMNS, AcrossForm, across_forms, across_forms_table, floor_form_math,
    };
    pub use crate::tables::mined::{
        ClosedFormCheck, Column, PayoffFormCheck, ZIGZAG_BEYOND, closed_form_rows, family_expr,
        family_forms, family_forms_table, family_forms_with, family_window, grid_expr, grid_forms,
        grid_window, payoff_form_disagreement, periodic_forms_table, progression_window,
        pwl_form_expr, rebuild_from_expr, verify_closed_form, verify_closed_form_to,
        verify_family_payoff, verify_grid_form, verify_progression_form,
    };
}

/// Discovery over a space of families: every family's closed forms mined on its data,
/// re-verified beyond it and ranked by novelty against claim registries, in one [`discovery::Atlas`].
///
/// ```
/// use nimlab::discovery::{ScoringSpace, discover_scoring};
/// use nimlab::{IntRange, Silent, scoring::Limits};
///
/// let space = ScoringSpace {
///     heaps: 2,
///     slopes: IntRange::new(0, 1)?,
///     offsets: IntRange::new(0, 1)?,
///     k: IntRange::new(1, 8)?,
///     verify_to: 16,
///     retry_to: None,
/// };
/// let atlas = discover_scoring(&space, &[], &Limits::default(), &Silent)?;
/// // k,1 and k,k and k+1,k (k+1,1 is k,1 shifted, k+1,k+1 is k,k).
/// assert_eq!(atlas.entries.len(), 3);
/// assert_eq!(atlas.duplicates.len(), 2);
/// assert_eq!(atlas.coverage(), (3, 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod discovery {
    pub use crate::discover::candy::{
        CandySpace, CandySpaceCost, MAX_BITS, MAX_FORMS_BITS, discover as discover_candy,
        forms_file as candy_forms_file,
    };
    pub use crate::discover::cash::{
        CASH_ATLAS_COLUMNS, CASH_FAMILY_COLUMNS, CASH_LAW_COLUMNS, CashAtlas, CashSpace,
        CashSpaceCost, ConditionOutcome, FAMILIES, FAMILY_L, FamilyAcross, FamilyOutcome,
        LawOutcome, MAX_ELEMENT, SetEntry, SetForms, SetOutcome, SetQuantity, SpaceLaw,
        discover as discover_cash, discover_set as discover_cash_set, families_across, space_laws,
    };
    pub use crate::discover::scoring::{
        AffineHeap, HeapFamily, MAX_SPACE_HEAPS, ScoringSpace, SpaceCost,
        discover as discover_scoring, no_form_witness,
    };
    pub use crate::discover::subtraction::{
        Conjecture14, GrowthForm, MAX_SET_SIZE, SUBTRACTION_ATLAS_COLUMNS, SubtractionAtlas,
        SubtractionEntry, SubtractionSpace, SubtractionSpaceCost, discover as discover_subtraction,
    };
    pub use crate::discover::{
        ATLAS_COLUMNS, Atlas, AtlasEntry, AtlasView, Duplicate, FamilyData, FormStatus, Mismatch,
        NoPayoffForm, Novelty, Obstruction, PayoffKind, PayoffOutcome, Proven, QuantityCall,
        QuantityOutcome, Statements, ZeroSetWitness, discover_family, twice,
    };
}

/// The parts of a typed [`Finding`]: the claim it is about, the range and points checked, a
/// counterexample with named coordinates and labelled values, a correction as an expression,
/// the proof, the readings of an ambiguous statement; findings of one claim merge.
///
/// ```
/// use std::path::Path;
/// use nimlab::findings::Labelled;
/// use nimlab::{Registry, VerdictKind, check_claim};
///
/// let file = r#"
/// paper = "demo"
/// [[claim]]
/// id = "small"
/// label = "Example 2"
/// statement = "k^2 < 10"
/// for = "k in 0..5"
/// actual = "k^2"
/// expected = "min(k^2, 9)"
/// "#;
/// let registry = Registry::parse(Path::new("demo.toml"), file)?;
/// let finding = check_claim(&registry, &registry.claims[0], false)?;
/// assert_eq!(finding.verdict, VerdictKind::Fails);
/// let counterexample = finding.counterexample.as_ref().unwrap();
/// assert_eq!(counterexample.point[0].0, "k");
/// let Labelled { label, .. } = &counterexample.actual[0];
/// assert_eq!(label, "k^2");
/// # Ok::<(), nimlab::Error>(())
/// ```
pub mod findings {
    pub use crate::claims::finding::{
        Asserted, ClaimRef, Commentary, Correction, Counterexample, DataFit, EvidenceTable,
        FailureExtent, Importance, InductionWords, InstanceProofs, Labelled, MergeError,
        PaperStatus, Phrase, Points, Proof, ProvenClass, ProvenLemma, RangePart, Reading, Slot,
        Style, Unit, Wording,
    };
    pub use crate::claims::sketch::{forms_table, sketch};
}

/// The claims language behind [`Registry`]: expressions, their evaluation and values, the
/// cost of a check before it runs, and expressions typeset as mathematics ([`language::expr_math`]:
/// LaTeX for pdflatex and GitHub's `$…$`; an expression's `Display` is its source syntax).
///
/// ```
/// use nimlab::Q;
/// use nimlab::language::{Definitions, Value, evaluate, expr_math, parse_expr};
///
/// let third: Q = "1/3".parse().unwrap();
/// assert_eq!(evaluate("1/2 + 1/3")?, Value::Num("1/2".parse::<Q>().unwrap() + third));
/// assert!(evaluate("1/0").is_err());
///
/// let e = parse_expr("candy_v([31, 32m, 32m+31]) == 62(m-1) + 98")?;
/// assert_eq!(expr_math(&e, &Definitions::new()), "V([31, 32m, 32m + 31]) = 62(m - 1) + 98");
/// assert_eq!(e.to_string(), "candy_v([31, 32 * m, 32 * m + 31]) == 62 * (m - 1) + 98");
/// # Ok::<(), nimlab::language::ExprError>(())
/// ```
pub mod language {
    pub use crate::claims::builtins::list as builtins;
    pub use crate::claims::cost::Cost;
    pub use crate::claims::engines::Engines;
    pub use crate::claims::eval::{Definitions, Evaluator, MAX_STEPS};
    pub use crate::claims::expr::{
        BinOp, Binder, CmpOp, Domain, Expr, ExprError, ExprKind, FunctionDef, Span, parse_binders,
        parse_expr,
    };
    pub use crate::claims::functions::markdown as function_tables;
    pub use crate::claims::registry::{
        Assertion, BuiltinCheck, Check, ClaimPlace, ExprCheck, Lemma, ProofBasis, ProofRef,
        Quantifiers, ReadingCheck,
    };
    pub use crate::claims::typeset::{
        CallMath, CheckMath, DisplayForm, ListStyle, MathArg, Shape, binders_math, check_math,
        check_parts, expr_math, is_literal, math_problem, name_math, notation, operand_math,
        rational_math,
    };
    pub use crate::claims::value::{MAX_BITS, MAX_FRACTION_BITS, Short, Ty, Value};
    pub use crate::claims::{
        check_formula_rows, check_registries_progress, check_registry_progress, estimate, evaluate,
        plan,
    };
}

/// The reports' parts: the context the templates see, data tables and figures, escaping, the
/// renderer and the rendered files.
///
/// ```
/// use nimlab::reports::{Files, escape_latex, escape_latex_math, escape_markdown};
///
/// assert!(escape_markdown("a_b").contains("\\_"));
/// assert!(escape_latex("50%").contains("\\%"));
/// // Prose keeps its `$…$` math for GitHub and LaTeX to typeset.
/// assert_eq!(escape_latex_math("50% of $f_{N}(p)$"), "50\\% of $f_{N}(p)$");
/// assert!(Files::new().is_empty());
/// ```
pub mod reports {
    pub use crate::papers::{BUILTINS, Builtin, Draft, claim_entry, paper_report, verdicts};
    pub use crate::report::context::{
        AtlasCsv, AtlasFinding, AtlasItem, AtlasReport, AtlasSection, Axis, Bounds, ClaimEntry,
        Command, Commit, ComparedValue, CorrectionView, CounterexampleView, FalseClaim, Figure,
        FormulaView, Heatmap, Index, IndexEntry, Legend, Marks, MinedForm, MinedSection,
        NotationEntry, PairedValue, PaperIdentity, Parameter, PlacedVLine, ProofGap, Prose,
        Provenance, ReadingView, Report, Series, SeriesStyle, StudyReport, Summary, TableSection,
        VLine, VerdictCount, VerdictRow, Verdicts,
    };
    pub use crate::report::data::{
        BFile, FigureSpec, HeatmapSpec, MarkSpec, bfile_text, bfiles, figure, heatmap,
    };
    pub use crate::report::escape::{
        escape_latex, escape_latex_math, escape_latex_prose, escape_markdown, escape_markdown_math,
        latex_code, markdown_code,
    };
    pub use crate::report::files::{Difference, Files, compare, install, recover};
    pub use crate::report::label::plain_math;
    pub use crate::report::pdf::{
        OVERFULL_LIMIT_PT, Pdf, compile as compile_pdf, pdflatex_available,
    };
    pub use crate::report::render::latex_command;
    pub use crate::report::{Builder, Checked, Paper, Renderer, context_json, render_paper};
    pub use crate::report::{INDEX_LABEL_LIMIT, TOP_FINDINGS, formula_prose, top_findings};
}

/// Input and output that never clobber what is not ours: outputs replaced atomically, devices
/// written through, symbolic links followed, `-` for standard input and output, and the
/// temporaries removed on a signal.
///
/// ```
/// use std::path::Path;
/// use nimlab::io::{STDIO, is_stdio};
///
/// assert!(is_stdio(Path::new(STDIO)));
/// assert!(!is_stdio(Path::new("table.csv")));
/// ```
pub mod io {
    pub use crate::fsio::{
        STDIO, Tracked, input_label, is_stdio, open_input, read_input_to_string, remove_in_flight,
        track, write_output,
    };
}

/// Sweeps in shards: `--shard I/N` as a contiguous part of a survey's enumeration, the manifest
/// beside each part, and the merge that joins the parts byte for byte.
///
/// ```
/// use nimlab::sweeps::Shard;
///
/// let parts: Vec<_> = (0..3).map(|i| Shard::new(i, 3).unwrap().items(10)).collect();
/// assert_eq!(parts, [0..3, 3..6, 6..10]);
/// ```
pub mod sweeps {
    pub use crate::shard::{
        HashingWriter, ItemRange, Manifest, Merged, Shard, SurveySummary, SweepId, completed,
        cpu_seconds, manifest_path, merge,
    };
}

/// What the `nimlab` binary runs: its arguments, its commands and its process guards.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod app {
    pub use crate::cli::guard::{GuardedAlloc, on_out_of_memory, set_memory_cap};
    pub use crate::cli::{Cli, Status, parse, run};
}
