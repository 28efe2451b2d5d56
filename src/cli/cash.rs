//! `nimlab cash …`: NIM with Cash — winners of states, whole win tables, thresholds and the
//! rich / poor / middle-class classification.

use anyhow::Context;
use clap::{Args, Subcommand};
use num_bigint::BigUint;

use super::args::parse_size;
use super::output::OutputArgs;
use super::sweep::{SweepArgs, SweepRun, body_outcome, write_batch};
use crate::export::{Cell, RowEncoder, Table, TableWriter, write_rows, write_rows_parallel};
use crate::games::cash::{
    Amount, CashSet, CashTable, Conflict, WinCondition, critical_states, decide_reporting,
    thresholds,
};
use crate::num::IntRange;
use crate::shard::{SurveySummary, SweepId};
use crate::tables::cash::{decision_table, win_condition_table, win_condition_text};
use crate::tables::cash_rows::{
    STATE_COLUMNS, encode_state_rows, state_row_groups, threshold_columns, threshold_rows,
};
use crate::tables::cash_survey::{
    CASH_SURVEY_CHUNK, CashSurveyRow, CashTally, SWEEP_COLUMNS, WinStatus, survey_items_in_chunks,
    survey_sets, sweep_cells,
};

#[derive(Debug, Subcommand)]
pub enum CashCommand {
    /// Who wins (n; d, e) — the player to move holds d dollars, the other e — and why.
    #[command(
        after_help = "Examples:\n  nimlab cash winner --set 1,3,4 14 9 9\n  nimlab cash winner --set 3,5,6,10,11 200 40 37 --format json"
    )]
    Winner(StateArgs),
    /// Which theorem decides (n; d, e): rich (Thm 2.4), poor (Thm 3.7) or A-critical.
    #[command(after_help = "Examples:\n  nimlab cash classify --set 1,4 20 7 9")]
    Classify(StateArgs),
    /// f^I, f^II (Def 2.1/2.3), g^I, g^II (Def 3.1) and the true least thresholds for n ≤ N.
    #[command(after_help = THRESHOLDS_HELP)]
    Thresholds(ThresholdArgs),
    /// The A-critical states (both players middle class) with their corresponding states
    /// (i; b, b†) of Def 4.3, and whether the corresponding state decides the winner on the data.
    #[command(
        after_help = "Examples:\n  nimlab cash critical --set 1,4 --max-n 60\n  nimlab cash critical --set 1,3,4 --max-n 40 --format csv"
    )]
    Critical(CriticalArgs),
    /// The win condition on A-critical states, PROVEN for every n: Player I wins iff
    /// b† ≥ h_i(b) on the corresponding state (i; b, b†), with each boundary h_i in closed form.
    #[command(
        after_help = "Examples:\n  nimlab cash condition --set 1,4\n  nimlab cash condition --set 1,3,4 --format csv\n  nimlab cash winner --set 1,4 1000000000000000000 799999999999999990 799999999999999995"
    )]
    Condition(ConditionArgs),
    /// Every state (n; d, e) with 0 ≤ n, d, e ≤ N and its winner.
    #[command(after_help = "Examples:\n  nimlab cash table --set 1,3,4 --max-n 30 --format csv")]
    Table(TableArgs),
    /// Every move set A ⊆ {a..b}: plain period, the closed forms' slopes, cash-periodicity and
    /// the win condition's status, one row per set (shardable for job arrays).
    #[command(
        after_help = "Examples:\n  nimlab cash survey --set-subsets-of 1..8 --format csv\n  nimlab cash survey --set-subsets-of 1..12 --sizes 2..3 -o pairs-and-triples.csv\n  nimlab cash survey --set-subsets-of 1..12 --shard 3/8 -o part-3.csv     one shard of 8 (see nimlab merge)\n\nwin_condition: PROVEN (with the modulus of its boundaries), NOT_CASH_PERIODIC, UNDECIDED (the forms of f^I, f^II are not certified on n ≤ --max-n), MEMORY_LIMIT or NOT_SETTLED (the boundaries do not settle on win tables up to n = 6000)."
    )]
    Survey(CashSurveyArgs),
}

const THRESHOLDS_HELP: &str = "\
Columns:
  n, winner       stones, and W(n): who wins the plain subtraction game (I = the player to move)
  f1, f2          f^I(n), f^II(n) as Def 2.1/2.3 define them
  g1, g2          g^I(n), g^II(n) of Def 3.1
  least_f1        the true least threshold of player I, found by search in the win table:
                    if W(n) = I, the least d with which I wins (n; d, ∞);
                    if W(n) = II, the least d with which I wins (n; d, least_f2 − 1)
                    (empty when least_f2 = 0: II wins without money, n < min A)
  least_f2        the true least threshold of player II:
                    if W(n) = II, the least e with which II wins (n; ∞, e);
                    if W(n) = I, the least e with which II wins (n; least_f1 − 1, e)
                    (0 when least_f1 = 0)
  (n; d, e) is the state with n stones, d dollars for I (to move) and e for II; ∞ is any amount
  ≥ n (no line of play spends more than n). The least columns need the win table (n ≤ 20000);
  --defined-only leaves them out. Where least_f differs from f, Def 2.1/2.3 is not sharp.

Examples:
  nimlab cash thresholds --set 3,5,6,10,11 --max-n 300 --format csv
  nimlab cash thresholds --set 1,4 --max-n 10000000 --defined-only";

/// The move set A.
#[derive(Debug, Clone, Args)]
pub struct SetArgs {
    /// The move set A, e.g. 1,3,4 (sorted and deduplicated if needed).
    #[arg(long, value_name = "A")]
    set: String,
    /// Refuse tables estimated to need more memory than this (e.g. 512M, 4G); `auto` is 8G, or
    /// less when `ulimit -v` or the free memory allow less.
    #[arg(long, value_name = "SIZE", default_value = "auto", value_parser = parse_size)]
    memory_limit: u64,
}

impl SetArgs {
    fn set(&self) -> anyhow::Result<CashSet> {
        self.set.parse::<CashSet>().context("--set")
    }
}

/// Parses a whole number of any size (stones or dollars of a single state).
fn parse_big(s: &str) -> Result<BigUint, String> {
    let t = s.trim();
    let quoted = crate::num::excerpt(s);
    if t.starts_with('-') {
        return Err(format!(
            "'{quoted}' is negative; stones and dollars are whole numbers ≥ 0 (of any size)"
        ));
    }
    t.parse::<BigUint>()
        .map_err(|_| format!("'{quoted}' is not a whole number ≥ 0 (of any size)"))
}

fn parse_amount(s: &str) -> Result<Amount, String> {
    crate::num::parse_whole(s, 0, Amount::MAX).map_err(|e| e.to_string())
}

#[derive(Debug, Args)]
pub struct StateArgs {
    #[command(flatten)]
    set: SetArgs,
    /// Stones n (any size).
    #[arg(value_name = "N", allow_negative_numbers = true, value_parser = parse_big)]
    n: BigUint,
    /// Dollars of the player to move (any size; money ≥ n is as good as infinite).
    #[arg(value_name = "D", allow_negative_numbers = true, value_parser = parse_big)]
    d: BigUint,
    /// Dollars of the other player (any size).
    #[arg(value_name = "E", allow_negative_numbers = true, value_parser = parse_big)]
    e: BigUint,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct ThresholdArgs {
    #[command(flatten)]
    set: SetArgs,
    /// Largest n.
    #[arg(long, value_name = "N", value_parser = parse_amount)]
    max_n: Amount,
    /// Only the defined values (n, winner, f1, f2, g1, g2): no win table is built, so N can be
    /// in the millions.
    #[arg(long)]
    defined_only: bool,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct CriticalArgs {
    #[command(flatten)]
    set: SetArgs,
    /// Largest n.
    #[arg(long, value_name = "N", value_parser = parse_amount)]
    max_n: Amount,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct ConditionArgs {
    #[command(flatten)]
    set: SetArgs,
    /// Start with the win table up to this n (it grows, up to 6000, until the proof closes).
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = parse_amount)]
    start_n: Amount,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct TableArgs {
    #[command(flatten)]
    set: SetArgs,
    /// Largest n, d and e.
    #[arg(long, value_name = "N", value_parser = parse_amount)]
    max_n: Amount,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(cmd: CashCommand) -> anyhow::Result<()> {
    match cmd {
        CashCommand::Winner(a) => state(a, false),
        CashCommand::Classify(a) => state(a, true),
        CashCommand::Thresholds(a) => thresholds_cmd(a),
        CashCommand::Table(a) => table(a),
        CashCommand::Critical(a) => critical(a),
        CashCommand::Condition(a) => condition(a),
        CashCommand::Survey(a) => survey(a),
    }
}

#[derive(Debug, Args)]
pub struct CashSurveyArgs {
    /// Survey every non-empty move set A inside this range, e.g. 1..12.
    #[arg(long, value_name = "A..B", value_parser = super::args::parse_int_range)]
    set_subsets_of: IntRange,
    /// Only sets of these sizes, e.g. 2..3.
    #[arg(long, value_name = "A..B", value_parser = super::args::parse_int_range)]
    sizes: Option<IntRange>,
    /// The thresholds' closed forms are fitted and certified on n ≤ this.
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = parse_amount)]
    max_n: Amount,
    /// Memory for the survey's win tables, shared by its threads (e.g. 4G); `auto` is 8G, or
    /// less when `ulimit -v` or the free memory allow less. A set whose search needs more is a
    /// MEMORY_LIMIT row.
    #[arg(long, value_name = "SIZE", default_value = "auto", value_parser = parse_size)]
    memory_limit: u64,
    #[command(flatten)]
    sweep: SweepArgs,
    #[command(flatten)]
    out: OutputArgs,
}

fn survey(a: CashSurveyArgs) -> anyhow::Result<()> {
    a.sweep.apply_threads()?;
    let sets = survey_sets(a.set_subsets_of, a.sizes).context("--set-subsets-of")?;
    let mut arguments = vec![
        format!("--set-subsets-of={}", a.set_subsets_of),
        format!("--max-n={}", a.max_n),
    ];
    if let Some(sizes) = a.sizes {
        arguments.push(format!("--sizes={sizes}"));
    }
    let run = SweepRun {
        id: SweepId {
            command: "cash survey".to_string(),
            arguments,
        },
        sweep: &a.sweep,
        out: &a.out,
        total: sets.len() as u64,
    };
    // Each thread searches one set's win condition at a time within its share of the memory.
    let win_bytes = a.memory_limit / rayon::current_num_threads().max(1) as u64;
    let bar = super::octal::LazyBar::new("surveying", "sets");
    let columns: Vec<String> = SWEEP_COLUMNS.map(String::from).to_vec();
    let summary = run.run(&columns, &mut |items, writer| {
        let mut tally = CashTally::default();
        let mut io_error: Option<std::io::Error> = None;
        let surveyed = survey_items_in_chunks(
            a.set_subsets_of,
            a.sizes,
            items,
            a.max_n,
            win_bytes,
            CASH_SURVEY_CHUNK,
            &bar,
            |rows| {
                let mut out = writer.encoder();
                for (row, win) in &rows {
                    tally.add(row, win);
                    encode_survey_row(row, win, &mut out);
                }
                write_batch(writer, out, &mut io_error)
            },
        );
        body_outcome(io_error, surveyed)?;
        Ok(SurveySummary::CashSubsets(tally))
    });
    bar.finish();
    run.report(summary?);
    Ok(())
}

fn encode_survey_row(row: &CashSurveyRow, win: &WinStatus, out: &mut RowEncoder) {
    for cell in sweep_cells(row, win) {
        out.cell(&cell);
    }
    out.end_row();
}

fn state(a: StateArgs, full: bool) -> anyhow::Result<()> {
    let set = a.set.set()?;
    let bar = super::octal::LazyBar::new("proving the win condition", "attempts");
    let decision = decide_reporting(&set, &a.n, &a.d, &a.e, a.set.memory_limit, &bar);
    bar.finish();
    let state = (&a.n, &a.d, &a.e);
    a.out
        .emit_row(decision_table(&set, state, &decision?, full))
}

/// [`WinCondition::find`], with a progress bar when its estimate is long (many or large moves
/// make its win tables slow: a 23-element set takes seconds to minutes).
fn find_condition(set: &CashSet, start_n: Amount, max_bytes: u64) -> anyhow::Result<WinCondition> {
    let bar = super::octal::LazyBar::new("proving the win condition", "attempts");
    let found = WinCondition::find_reporting_if_long(set, start_n, max_bytes, &bar);
    bar.finish();
    Ok(found?)
}

fn condition(a: ConditionArgs) -> anyhow::Result<()> {
    let set = a.set.set()?;
    let wc = find_condition(&set, a.start_n, a.set.memory_limit)?;
    match a.out.format {
        crate::export::Format::Text => a
            .out
            .emit(|w| w.write_all(win_condition_text(&wc).as_bytes())),
        _ => a.out.emit_table(&win_condition_table(&wc)),
    }
}

/// A win table too large for the memory limit, advised in the terms of a command with `--max-n`.
fn max_n_suggestion(e: crate::error::Error) -> crate::error::Error {
    match e {
        crate::error::Error::TooLarge {
            what,
            needed_bytes,
            limit_bytes,
            ..
        } => crate::error::Error::TooLarge {
            what,
            needed_bytes,
            limit_bytes,
            suggestion: "use a smaller --max-n or raise --memory-limit".to_string(),
        },
        other => other,
    }
}

/// Largest n for the threshold columns that need the win table.
const MAX_LEAST_TABLE: Amount = 20_000;

fn thresholds_cmd(a: ThresholdArgs) -> anyhow::Result<()> {
    let set = a.set.set()?;
    let n = a.max_n;
    if !a.defined_only && n > MAX_LEAST_TABLE {
        anyhow::bail!(
            "--max-n {n}: the true least thresholds need the win table, supported up to n = {MAX_LEAST_TABLE}; add --defined-only for f and g alone"
        );
    }
    crate::games::cash::check_threshold_budget(&set, n, false, a.set.memory_limit)
        .with_context(|| format!("--max-n {n}"))?;
    let th = thresholds(&set, n)?;
    let table = if a.defined_only {
        None
    } else {
        Some(CashTable::solve(&set, n, a.set.memory_limit).map_err(max_n_suggestion)?)
    };
    let columns = threshold_columns(table.is_some());
    let rows = threshold_rows(&set, &th, table.as_ref(), n);
    // Millions of rows take seconds to write: show how far the writing is.
    let pb = (n >= ROWS_WORTH_A_BAR)
        .then(|| super::progress_bar(n.saturating_add(1), "writing thresholds", "rows"));
    let rows = rows.inspect(|_| {
        if let Some(pb) = &pb {
            pb.inc(1);
        }
    });
    let written = a
        .out
        .emit(|w| write_rows(a.out.format, &columns, rows, w))
        .context("writing the thresholds");
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    written
}

/// Rows written in about three seconds: more show a progress bar.
const ROWS_WORTH_A_BAR: Amount = 5_000_000;

/// Largest n for a printed table: (n + 1)³ rows.
const MAX_PRINTED_TABLE: Amount = 400;

/// (n + 1)³, the rows of `cash table --max-n n`, exactly (it exceeds u128 for n ≥ 2⁴³).
fn table_rows(n: Amount) -> BigUint {
    (BigUint::from(n) + 1u32).pow(3)
}

fn table(a: TableArgs) -> anyhow::Result<()> {
    let set = a.set.set()?;
    let n = a.max_n;
    if n > MAX_PRINTED_TABLE {
        anyhow::bail!(
            "--max-n {n} would print {} rows; at most {MAX_PRINTED_TABLE} is supported (use `cash thresholds` for compact output)",
            table_rows(n)
        );
    }
    let t = CashTable::solve(&set, n, a.set.memory_limit).map_err(max_n_suggestion)?;
    let columns: Vec<String> = STATE_COLUMNS.map(String::from).to_vec();
    // One (n, d) pair gives the rows of every e: about 64k rows per chunk.
    let pairs_per_chunk = (65_536 / (n + 1)).max(1) as usize;
    a.out
        .emit(|w| {
            let mut writer = TableWriter::new(a.out.format, &columns, w)?;
            write_rows_parallel(
                &mut writer,
                state_row_groups(&t),
                pairs_per_chunk,
                |&(k, d), out| encode_state_rows(&t, k, d, out),
            )?;
            writer.finish()
        })
        .context("writing the table")
}

fn critical(a: CriticalArgs) -> anyhow::Result<()> {
    let set = a.set.set()?;
    let n_max = a.max_n;
    if n_max > MAX_PRINTED_TABLE {
        anyhow::bail!("--max-n {n_max}: at most {MAX_PRINTED_TABLE} (every state is examined)");
    }
    let c = critical_states(&set, n_max, a.set.memory_limit).map_err(max_n_suggestion)?;
    let mut t = Table::new(&["n", "d", "e", "i", "b", "b_dagger", "winner"]);
    for s in &c.states {
        let ((n, d, e), cs) = (s.state, s.corresponding);
        t.push(vec![
            n.into(),
            d.into(),
            e.into(),
            cs.0.into(),
            Cell::Int(cs.1 as i64),
            Cell::Int(cs.2 as i64),
            s.winner.to_string().into(),
        ]);
    }
    let (m, from) = (c.cash_period, c.from);
    match c.conflict {
        None => eprintln!(
            "A = {set}: cash period {m} from n = {from}; {} corresponding states occur among the A-critical states with n ≤ {n_max}, and each decides the winner (observed solution set X: {} of them)",
            c.corresponding, c.won_by_i
        ),
        Some(Conflict {
            corresponding: cs,
            first,
            second,
        }) => eprintln!(
            "A = {set}: the corresponding state {cs:?} occurs at {first:?} and {second:?} with different winners: it does not decide the winner"
        ),
    }
    a.out.emit_table(&t)
}
