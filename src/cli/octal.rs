//! `nimlab octal …`: Stewart's scoring octal games — values G_s, sequences, proven periods,
//! outcome classes and surveys of subtraction games.

use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Subcommand};
use itertools::Itertools;

use super::args::{SolveArgs, parse_heap, parse_int_range, parse_q};
use super::output::OutputArgs;
use super::sweep::{SweepArgs, SweepRun, body_outcome, write_batch};
use crate::export::{Cell, RowEncoder, TableWriter};
use crate::games::normal_play::{
    CodeTally, SearchStop, TakeBreakCode, code_count, survey_codes_in_chunks,
};
use crate::games::scoring::{
    Conjecture14Tally, Heap, HeapSequence, HeapSize, MAX_SURVEY_WIDTH, OctalRules,
    PROGRESS_SECONDS, PeriodReport, Route, RulesId, Ruleset, SURVEY_CHUNK, ScoringGame, SurveyRow,
    parse_rules, parse_set, solve, solve_values, survey_items_in_chunks, survey_size,
};
use crate::miner::PeriodStatus;
use crate::num::{IntRange, Q};
use crate::progress::Progress;
use crate::shard::{SurveySummary, SweepId};
use crate::tables::octal::{
    heaps_cell, normal_period_cells, normal_period_table, outcome_table, period_table,
    position_value_table,
};

/// Largest heap a sequence command accepts: memory grows linearly with it.
const MAX_SEQUENCE_HEAP: HeapSize = 10_000_000;

/// A progress bar drawn only once the engine announces long work (see
/// [`HeapSequence::period_reporting`]): short runs print nothing on stderr.
pub(super) struct LazyBar {
    bar: std::sync::OnceLock<indicatif::ProgressBar>,
    what: &'static str,
    unit: &'static str,
}

impl LazyBar {
    pub(super) fn new(what: &'static str, unit: &'static str) -> LazyBar {
        LazyBar {
            bar: std::sync::OnceLock::new(),
            what,
            unit,
        }
    }

    /// Removes the bar, if one was drawn.
    pub(super) fn finish(&self) {
        if let Some(b) = self.bar.get() {
            b.finish_and_clear();
        }
    }
}

impl Progress for LazyBar {
    fn start(&self, total: u64) {
        let bar = self
            .bar
            .get_or_init(|| super::progress_bar(total, self.what, self.unit));
        bar.set_position(0);
        super::Bar(bar).start(total);
    }

    fn advance(&self, done: u64) {
        if let Some(b) = self.bar.get() {
            super::Bar(b).advance(done);
        }
    }
}

/// The unit a route reports its progress in.
fn progress_unit(route: Route) -> &'static str {
    match route {
        Route::NormalPlay => "moves",
        _ => "positions",
    }
}

#[derive(Debug, Subcommand)]
pub enum OctalCommand {
    /// The sequence n ↦ G_s(n) (or G_s(n +_ℓ m) with --plus), at N = 0 or a given bonus.
    #[command(
        after_help = "Examples:\n  nimlab octal values --subtract 4,5 --max-heap 200 --format csv\n  nimlab octal values --rules 0.3333 --points 2,2,2,2 --max-heap 50\n  nimlab octal values --rules 0.26 --max-heap 40 --plus 3\n  nimlab octal values --subtract 4,5 --also '{1,2}' --plus 3@2 --max-heap 60"
    )]
    Values(ValuesArgs),
    /// G_s of one position (a sum of heaps), its outcome class and optionally its payoff in N.
    #[command(
        after_help = "Examples:\n  nimlab octal value --rules 0.26 7 5\n  nimlab octal value --subtract 4,5 13\n  nimlab octal value --subtract 4,5 --also 0.26 9 4@2 --payoff"
    )]
    Value(ValueArgs),
    /// Least preperiod and period of n ↦ G_s(n +_ℓ m), or of the Grundy values with
    /// --normal-play, PROVEN or OBSERVED.
    #[command(
        after_help = "Examples:\n  nimlab octal period --subtract 4,5\n  nimlab octal period --rules '(3333, 2222)'\n  nimlab octal period --subtract 4,5 --plus 4\n  nimlab octal period --rules 0.26 --max-heap 200\n  nimlab octal period --normal-play --rules 0.77      Kayles: preperiod 71, period 12, PROVEN\n  nimlab octal period --normal-play --rules 0.16      period 149459 from n = 105351\n  nimlab octal period --normal-play --rules 0.3F      arithmetic-periodic: saltus 3 every 6 heaps"
    )]
    Period(OctalPeriodArgs),
    /// Normal-play Sprague–Grundy values g(0..=N) of an octal or hexadecimal code.
    #[command(
        after_help = "Examples:\n  nimlab octal grundy 0.77 --max-heap 100                 Kayles\n  nimlab octal grundy 0.137 --max-heap 60 --format csv     Dawson's chess\n  nimlab octal grundy 0.F --max-heap 40                   hexadecimal: a move may leave three heaps\n  nimlab octal grundy '{1,2,3}' --max-heap 20            a subtraction game\n\nDigits: bit 1 of d_i lets a move take all i beans of a heap, bit 2 leave one heap, bit 4 two, bit 8 three."
    )]
    Grundy(GrundyArgs),
    /// Outcome class (L, R, N, P, T of Stewart's Def. 6) of a position, with both final scores.
    #[command(
        after_help = "Examples:\n  nimlab octal outcome --subtract 4,5 13\n  nimlab octal outcome --rules 0.26 7 5 --score 3"
    )]
    Outcome(OutcomeArgs),
    /// Every subtraction set inside a range, or every octal code of K digits (normal play):
    /// preperiod, least period, PROVEN or OBSERVED; shardable for job arrays.
    #[command(
        after_help = "Examples:\n  nimlab octal survey --subtract-subsets-of 1..12 --format csv\n  nimlab octal survey --subtract-subsets-of 1..16 -o survey16.csv\n  nimlab octal survey --codes 3 --format csv                           every code 0.d1d2d3, normal play\n  nimlab octal survey --subtract-subsets-of 1..24 --shard 3/16 -o part-3.csv   one shard (then nimlab merge)"
    )]
    Survey(SurveyArgs),
}

/// The rulesets of a game: one main ruleset (heaps `n` or `n@1`) and extra ones (`n@2`, …).
#[derive(Debug, Clone, Args)]
pub struct RulesArgs {
    /// Subtraction set of the main ruleset, e.g. 4,5 (points = beans removed unless --points).
    #[arg(long, value_name = "SET", conflicts_with = "rules")]
    subtract: Option<String>,
    /// Main ruleset: an octal code 0.d1d2…, Stewart's '(d1d2…, p1p2…)', '{4,5}' or nim.
    #[arg(long, value_name = "RULES", required_unless_present = "subtract")]
    rules: Option<String>,
    /// Points p1,p2,… of the main ruleset (one per digit, or per element of the subtraction set).
    #[arg(long, value_name = "P1,P2,…", allow_hyphen_values = true)]
    points: Option<String>,
    /// A further ruleset (repeatable); heaps written n@2, n@3, … follow them in order.
    #[arg(long, value_name = "RULES")]
    also: Vec<String>,
}

impl RulesArgs {
    fn points(&self) -> anyhow::Result<Option<Vec<Q>>> {
        let Some(p) = &self.points else {
            return Ok(None);
        };
        p.split(',')
            .map(|v| parse_q(v).map_err(|e| anyhow::anyhow!("--points: {e}")))
            .collect::<anyhow::Result<Vec<Q>>>()
            .map(Some)
    }

    fn main_rules(&self) -> anyhow::Result<Arc<dyn Ruleset>> {
        let points = self.points()?;
        if let Some(set) = &self.subtract {
            let set = parse_set(set).context("--subtract")?;
            return Ok(Arc::new(
                OctalRules::subtraction(&set, points).context("--subtract")?,
            ));
        }
        let spec = self
            .rules
            .as_deref()
            .expect("clap requires --rules or --subtract");
        match points {
            None => parse_rules(spec).context("--rules"),
            Some(_) if !spec.trim().starts_with(['0', '.', '(']) => anyhow::bail!(
                "--points applies to an octal code (0.d1d2…) or to --subtract, not to --rules {spec}"
            ),
            Some(points) => {
                let code: OctalRules = spec.parse().context("--rules")?;
                if spec.trim().starts_with('(') {
                    anyhow::bail!(
                        "--points given twice: '{spec}' already carries points; drop --points or write the code as 0.{}",
                        code.digits().iter().join("")
                    );
                }
                Ok(Arc::new(
                    OctalRules::new(code.digits().to_vec(), Some(points))
                        .with_context(|| format!("--rules {spec} with --points"))?,
                ))
            }
        }
    }

    /// The game with all rulesets.
    pub(super) fn game(&self) -> anyhow::Result<ScoringGame> {
        let mut rulesets = vec![self.main_rules()?];
        for a in &self.also {
            rulesets.push(parse_rules(a).with_context(|| format!("--also {a}"))?);
        }
        Ok(ScoringGame::new(rulesets))
    }
}

/// Parses a heap `n` (main ruleset) or `n@i` (ruleset i, counting the main one as 1).
pub(super) fn parse_rules_heap(s: &str) -> Result<(HeapSize, u16), String> {
    match s.split_once('@') {
        None => Ok((parse_heap(s)?, 1)),
        Some((n, i)) => {
            let size = parse_heap(n)?;
            let rules: u16 = i
                .trim()
                .parse()
                .ok()
                .filter(|&r| r >= 1)
                .ok_or_else(|| format!("'{s}': the ruleset number after @ must be 1, 2, …"))?;
            Ok((size, rules))
        }
    }
}

/// Heaps given on the command line, checked against the game's rulesets.
pub(super) fn heaps_of(game: &ScoringGame, given: &[(HeapSize, u16)]) -> anyhow::Result<Vec<Heap>> {
    given
        .iter()
        .map(|&(size, r)| {
            if usize::from(r) > game.rulesets().len() {
                anyhow::bail!(
                    "heap {size}@{r} refers to ruleset {r}, but only {} given (the main one and {} --also)",
                    game.rulesets().len(),
                    game.rulesets().len() - 1
                );
            }
            Ok(Heap {
                size,
                rules: (r - 1) as RulesId,
            })
        })
        .collect()
}

#[derive(Debug, Args)]
pub struct ValuesArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Largest heap n.
    #[arg(long, value_name = "N", value_parser = parse_heap)]
    max_heap: HeapSize,
    /// Fixed heaps m added to every position (n@i for other rulesets).
    #[arg(long, value_name = "HEAP", value_delimiter = ',', value_parser = parse_rules_heap)]
    plus: Vec<(HeapSize, u16)>,
    /// Bonus N for the last move (0: Stewart's G_s).
    #[arg(long, value_name = "N", default_value = "0", allow_hyphen_values = true, value_parser = parse_q)]
    bonus: Q,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct ValueArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Heaps of the position (n, or n@i for the i-th ruleset).
    #[arg(required = true, value_name = "HEAP", value_parser = parse_rules_heap)]
    heaps: Vec<(HeapSize, u16)>,
    /// Bonus N for the last move (0: Stewart's G_s).
    #[arg(long, value_name = "N", default_value = "0", allow_hyphen_values = true, value_parser = parse_q)]
    bonus: Q,
    /// Also give the exact payoff as a piecewise-linear function of the bonus N.
    #[arg(long)]
    payoff: bool,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct PeriodArgs {
    #[command(flatten)]
    pub(super) rules: RulesArgs,
    /// Fixed heaps m (n@i for other rulesets).
    #[arg(long, value_name = "HEAP", value_delimiter = ',', value_parser = parse_rules_heap)]
    pub(super) plus: Vec<(HeapSize, u16)>,
    /// Bonus N for the last move.
    #[arg(long, value_name = "N", default_value = "0", allow_hyphen_values = true, value_parser = parse_q)]
    pub(super) bonus: Q,
    /// Give up (and report what was observed) beyond this heap size [default: 100000, or
    /// 1048576 with --normal-play]. The search also stops, and says so, at the largest heap
    /// whose estimated cost fits --memory-limit and about 30 s.
    #[arg(long, value_name = "N", value_parser = parse_heap)]
    pub(super) max_heap: Option<HeapSize>,
    #[command(flatten)]
    pub(super) solve: SolveArgs,
    #[command(flatten)]
    pub(super) out: OutputArgs,
}

impl PeriodArgs {
    /// The largest heap a scoring period search examines.
    pub(super) fn max_heap(&self) -> HeapSize {
        self.max_heap.unwrap_or(100_000)
    }
}

/// `octal period`: a scoring period, or the Grundy values' period with --normal-play.
#[derive(Debug, Args)]
pub struct OctalPeriodArgs {
    #[command(flatten)]
    period: PeriodArgs,
    /// Normal play: the period of the Grundy values g(n) of --rules (octal or hexadecimal digits,
    /// e.g. 0.77 or 0.3F) or --subtract, PROVEN by the periodicity theorem; an arithmetic period
    /// (g(n + P) = g(n) + s) is reported with its saltus s, observed only.
    #[arg(long, conflicts_with_all = ["plus", "points", "also", "bonus", "method"])]
    normal_play: bool,
}

#[derive(Debug, Args)]
pub struct GrundyArgs {
    /// The code: 0.d1d2… with octal or hexadecimal digits (e.g. 0.77, 0.137, 0.F), or a
    /// subtraction set such as '{1,2,3}'.
    #[arg(value_name = "CODE", value_parser = parse_code)]
    code: TakeBreakCode,
    /// Largest heap n.
    #[arg(long, value_name = "N", value_parser = parse_heap)]
    max_heap: HeapSize,
    #[command(flatten)]
    out: OutputArgs,
}

fn parse_code(s: &str) -> Result<TakeBreakCode, String> {
    s.parse().map_err(|e: crate::error::Error| e.to_string())
}

#[derive(Debug, Args)]
pub struct OutcomeArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Heaps of the position (n, or n@i for the i-th ruleset).
    #[arg(required = true, value_name = "HEAP", value_parser = parse_rules_heap)]
    heaps: Vec<(HeapSize, u16)>,
    /// Score already on the board (Left's points − Right's), G^S of Def. 1.
    #[arg(long, value_name = "S", default_value = "0", allow_hyphen_values = true, value_parser = parse_q)]
    score: Q,
    /// Bonus N for the last move.
    #[arg(long, value_name = "N", default_value = "0", allow_hyphen_values = true, value_parser = parse_q)]
    bonus: Q,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
#[group(id = "space", required = true, args = ["subtract_subsets_of", "codes"])]
pub struct SurveyArgs {
    /// Survey every non-empty subtraction set inside this range, e.g. 1..12 (scoring play:
    /// the period of G_s, and Stewart's Conjecture 14).
    #[arg(long, value_name = "A..B", value_parser = parse_int_range, conflicts_with = "codes")]
    subtract_subsets_of: Option<IntRange>,
    /// Survey every octal code of at most K digits (last digit non-zero, 8^K − 1 codes, K ≤ 6)
    /// in normal play: the least preperiod and period of its Grundy values, PROVEN by the
    /// periodicity theorem up to --max-heap, or what is observed.
    #[arg(long, value_name = "K", value_parser = super::args::ranged(1u32, 6))]
    codes: Option<u32>,
    /// Give up (and report what was observed) beyond this heap size.
    #[arg(long, value_name = "N", default_value = "100000", value_parser = parse_heap)]
    max_heap: HeapSize,
    #[command(flatten)]
    sweep: SweepArgs,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(cmd: OctalCommand) -> anyhow::Result<()> {
    match cmd {
        OctalCommand::Values(a) => values(a),
        OctalCommand::Value(a) => value(a),
        OctalCommand::Period(a) if a.normal_play => normal_play_period(a.period),
        OctalCommand::Period(a) => period(a.period),
        OctalCommand::Grundy(a) => grundy(a),
        OctalCommand::Outcome(a) => outcome(a),
        OctalCommand::Survey(a) => survey(a),
    }
}

fn check_sequence_heap(max_heap: HeapSize) -> anyhow::Result<()> {
    if max_heap > MAX_SEQUENCE_HEAP {
        anyhow::bail!(
            "--max-heap {max_heap} is beyond the supported {MAX_SEQUENCE_HEAP}; sequences are stored in memory term by term"
        );
    }
    Ok(())
}

fn values(a: ValuesArgs) -> anyhow::Result<()> {
    check_sequence_heap(a.max_heap)?;
    let game = a.rules.game()?;
    let plus = heaps_of(&game, &a.plus)?;
    let seq = HeapSequence::new(&game, 0, &plus, a.bonus.clone())?;
    let cost = seq.cost(a.max_heap);
    let bar = LazyBar::new("solving", progress_unit(cost.route));
    let progress: &dyn Progress = if cost.seconds() > PROGRESS_SECONDS {
        &bar
    } else {
        &crate::progress::Silent
    };
    let t = crate::tables::octal::values_table(&seq, a.max_heap, &a.solve.limits(), progress);
    bar.finish();
    a.out.emit_table(&t?)
}

fn value(a: ValueArgs) -> anyhow::Result<()> {
    let game = a.rules.game()?;
    let heaps = heaps_of(&game, &a.heaps)?;
    let limits = a.solve.limits();
    HeapSequence::check_position(&game, &heaps, &limits)?;
    let v = solve_values(&game, std::slice::from_ref(&heaps), &a.bonus, &limits)?;
    let g = v.value(&heaps)?;
    let payoff = if a.payoff {
        let sol = solve(&game, &heaps, a.solve.method(), &limits)?;
        Some(sol.payoff(&heaps)?)
    } else {
        None
    };
    a.out.emit_row(position_value_table(
        &game,
        &heaps,
        &a.bonus,
        &g,
        v.positions(),
        payoff.as_ref(),
    ))
}

fn outcome(a: OutcomeArgs) -> anyhow::Result<()> {
    let game = a.rules.game()?;
    let heaps = heaps_of(&game, &a.heaps)?;
    HeapSequence::check_position(&game, &heaps, &a.solve.limits())?;
    let v = solve_values(
        &game,
        std::slice::from_ref(&heaps),
        &a.bonus,
        &a.solve.limits(),
    )?;
    let g = v.value(&heaps)?;
    a.out
        .emit_row(outcome_table(&game, &heaps, &a.score, &a.bonus, &g))
}

/// The period search with a progress bar for long searches.
pub(super) fn period_with_bar(seq: &HeapSequence, a: &PeriodArgs) -> anyhow::Result<PeriodReport> {
    let bar = LazyBar::new("period search", "steps");
    let report = seq.period_reporting(a.max_heap(), &a.solve.limits(), &bar);
    bar.finish();
    Ok(report?)
}

fn period(a: PeriodArgs) -> anyhow::Result<()> {
    check_sequence_heap(a.max_heap())?;
    let game = a.rules.game()?;
    let plus = heaps_of(&game, &a.plus)?;
    let seq = HeapSequence::new(&game, 0, &plus, a.bonus.clone())?;
    let report = period_with_bar(&seq, &a)?;
    a.out.emit_row(period_table(
        &game.describe(),
        heaps_cell(&plus),
        &a.bonus,
        &report,
    ))
}

/// Options a Grundy computation may examine before its progress is shown (about a second).
const GRUNDY_PROGRESS_OPTIONS: u128 = 1 << 30;

/// Options a normal-play period search of a hexadecimal code may examine (about 30 s): its
/// three-heap splits cost O(n²) per heap, so --max-heap alone does not bound the time. An octal
/// code's kernel stops at each heap once every value is an option, far below its count, so it
/// is bounded by --max-heap only.
const NORMAL_PLAY_MAX_OPTIONS: u128 = 1 << 35;

/// The largest heap a normal-play period search examines unless --max-heap says otherwise:
/// enough for 0.16 (period 149459 from n = 105351), 4 MiB of values.
const NORMAL_PLAY_MAX_HEAP: HeapSize = 1 << 20;

/// The code named by `--rules` or `--subtract`, read as a take-and-break code.
fn take_break_code(rules: &RulesArgs) -> anyhow::Result<TakeBreakCode> {
    if let Some(set) = &rules.subtract {
        let set = parse_set(set).context("--subtract")?;
        return TakeBreakCode::subtraction(&set).context("--subtract");
    }
    let spec = rules.rules.as_deref().unwrap_or_default();
    spec.parse::<TakeBreakCode>().context("--rules")
}

fn grundy(a: GrundyArgs) -> anyhow::Result<()> {
    check_sequence_heap(a.max_heap)?;
    let bar = LazyBar::new("grundy values", "options");
    let progress: &dyn Progress = if a.code.option_count(a.max_heap) > GRUNDY_PROGRESS_OPTIONS {
        &bar
    } else {
        &crate::progress::Silent
    };
    let g = a.code.grundy_values(a.max_heap, progress);
    bar.finish();
    let columns = ["n".to_string(), "grundy".to_string()];
    const ROWS_PER_WRITE: usize = 1 << 16;
    a.out.emit(|w| {
        let mut writer = TableWriter::new(a.out.format, &columns, w)?;
        for (c, chunk) in g.chunks(ROWS_PER_WRITE).enumerate() {
            let mut out = writer.encoder();
            for (j, &v) in chunk.iter().enumerate() {
                out.uint((c * ROWS_PER_WRITE + j) as u64);
                out.uint(u64::from(v));
                out.end_row();
            }
            writer.write(out)?;
        }
        writer.finish()
    })
}

fn normal_play_period(a: PeriodArgs) -> anyhow::Result<()> {
    let max_heap = a.max_heap.unwrap_or(NORMAL_PLAY_MAX_HEAP);
    check_sequence_heap(max_heap)?;
    let code = take_break_code(&a.rules)?;
    let bar = LazyBar::new("period search", "options");
    let budget = if code.is_octal() {
        u128::MAX
    } else {
        NORMAL_PLAY_MAX_OPTIONS
    };
    let r = code.period(max_heap, budget, &bar);
    bar.finish();
    if let Some(SearchStop::Cost(n)) = r.stop {
        eprintln!(
            "note: the search stopped at heap {n}: the next prefix of {code}'s three-heap splits would take more than about 30 s"
        );
    }
    a.out.emit_row(normal_period_table(&code, &r))
}

fn survey(a: SurveyArgs) -> anyhow::Result<()> {
    check_sequence_heap(a.max_heap)?;
    let Some(r) = a.subtract_subsets_of else {
        let k = a
            .codes
            .expect("clap requires --codes or --subtract-subsets-of");
        return code_survey(&a, k);
    };
    if r.start() < 1 {
        anyhow::bail!(
            "--subtract-subsets-of {}..{}: elements of a subtraction set are ≥ 1",
            r.start(),
            r.end()
        );
    }
    let width = r.end() - r.start() + 1;
    if width > MAX_SURVEY_WIDTH {
        anyhow::bail!(
            "--subtract-subsets-of {}..{} spans {width} numbers, 2^{width} − 1 sets; at most {MAX_SURVEY_WIDTH} numbers are supported",
            r.start(),
            r.end()
        );
    }
    a.sweep.apply_threads()?;
    let run = SweepRun {
        id: SweepId {
            command: "octal survey".to_string(),
            arguments: vec![
                format!("--subtract-subsets-of={}..{}", r.start(), r.end()),
                format!("--max-heap={}", a.max_heap),
            ],
        },
        sweep: &a.sweep,
        out: &a.out,
        total: survey_size(r)?,
    };
    let bar = LazyBar::new("surveying", "sets");
    let columns: Vec<String> = SURVEY_COLUMNS.map(String::from).to_vec();
    // Rows are written a batch at a time as they are surveyed.
    let summary = run.run(&columns, &mut |items, writer| {
        let mut tally = Conjecture14Tally::default();
        let mut io_error: Option<std::io::Error> = None;
        let surveyed = survey_items_in_chunks(r, items, a.max_heap, SURVEY_CHUNK, &bar, |rows| {
            let mut out = writer.encoder();
            for row in &rows {
                tally.add(row);
                encode_survey_row(row, &mut out);
            }
            write_batch(writer, out, &mut io_error)
        });
        body_outcome(io_error, surveyed)?;
        Ok(SurveySummary::OctalSubtraction(tally))
    });
    bar.finish();
    run.report(summary?);
    Ok(())
}

/// The columns of `octal survey --codes`.
const CODE_SURVEY_COLUMNS: [&str; 6] = [
    "code",
    "preperiod",
    "period",
    "saltus",
    "status",
    "last_exceptional",
];

/// `octal survey --codes K`: the normal-play period of every octal code of at most K digits.
fn code_survey(a: &SurveyArgs, max_digits: u32) -> anyhow::Result<()> {
    a.sweep.apply_threads()?;
    let run = SweepRun {
        id: SweepId {
            command: "octal survey".to_string(),
            arguments: vec![
                format!("--codes={max_digits}"),
                format!("--max-heap={}", a.max_heap),
            ],
        },
        sweep: &a.sweep,
        out: &a.out,
        total: code_count(max_digits)?,
    };
    let bar = LazyBar::new("surveying", "codes");
    let columns: Vec<String> = CODE_SURVEY_COLUMNS.map(String::from).to_vec();
    let summary = run.run(&columns, &mut |items, writer| {
        let mut tally = CodeTally::default();
        let mut io_error: Option<std::io::Error> = None;
        let surveyed = survey_codes_in_chunks(max_digits, items, a.max_heap, 64, &bar, |rows| {
            let mut out = writer.encoder();
            for row in &rows {
                tally.add(row);
                let [pre, per, saltus, status, _, _] = normal_period_cells(&row.period);
                out.text(&row.code.to_string());
                for cell in [pre, per, saltus, status] {
                    out.cell(&cell);
                }
                out.cell(
                    &row.period
                        .last_exceptional()
                        .map_or_else(|| Cell::Text(String::new()), Cell::from),
                );
                out.end_row();
            }
            write_batch(writer, out, &mut io_error)
        });
        body_outcome(io_error, surveyed)?;
        Ok(SurveySummary::OctalCodes(tally))
    });
    bar.finish();
    run.report(summary?);
    Ok(())
}

/// The columns of `octal survey`.
const SURVEY_COLUMNS: [&str; 5] = ["set", "max", "preperiod", "period", "status"];

/// One row of `octal survey`: the set, max S, and the head of [`crate::tables::octal::period_cells`] (preperiod,
/// period, status), written with no intermediate cells for the numbers.
fn encode_survey_row(row: &SurveyRow, out: &mut RowEncoder) {
    out.cell(&Cell::list("{", ",", "}", row.set.iter().copied()));
    out.int(i64::from(row.max()));
    match &row.report.periodicity {
        None if row.memory_limited => {
            out.text("");
            out.text("");
            out.text("MEMORY_LIMIT");
        }
        Some(p) => {
            out.int(p.preperiod as i64);
            out.int(p.period as i64);
            out.text(match p.status {
                PeriodStatus::Proven { .. } => "PROVEN",
                PeriodStatus::Observed { .. } => "OBSERVED",
            });
        }
        None => {
            out.text("");
            out.text("");
            out.text("NONE");
        }
    }
    out.end_row();
}
