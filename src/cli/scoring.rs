//! `nimlab scoring …`: Scoring Nim payoffs, optimal moves, lines, tail constants, tables and
//! families.

use std::io;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Subcommand};

use super::args::{BonusGridArgs, ParamArgs, SolveArgs, parse_heap, parse_q};
use super::output::OutputArgs;
use crate::error::Error;
use crate::export::{Format, SPOOL_MEMORY, Table, TableWriter, write_rows, write_rows_parallel};
use crate::family::Family;
use crate::games::scoring::{
    HeapSize, Limits, MAX_TABLE_HEAPS, Solution, TablePlan, largest_fitting_max_heap, nim_heaps,
    optimal_line, scoring_nim, solve_many_reporting, table_bytes, table_size, tails,
};
use crate::num::{Q, QRange};
use crate::progress::Silent;
use crate::tables::scoring::{PWL_COLUMNS, ScoringFamily, encode_payoff_rows};
use crate::tables::scoring_play::{
    limits_table, line_table, move_regions_table, moves_at_table, piece_interval, pieces_table,
    plies_table,
};

#[derive(Debug, Subcommand)]
pub enum ScoringCommand {
    /// The exact payoff f_N(p) as a piecewise-linear function of N, or its values at given N.
    #[command(
        after_help = "Examples:\n  nimlab scoring payoff 5 4 2\n  nimlab scoring payoff 5 4 2 --bonus 3/2\n  nimlab scoring payoff 5 4 2 --bonus=-6..6 --step 1/2 --format csv"
    )]
    Payoff(PayoffArgs),
    /// The set of optimal moves on every piece of the N-line (ties at breakpoints included).
    #[command(
        after_help = "Examples:\n  nimlab scoring moves 5 4 2\n  nimlab scoring moves 9 8 1 --format csv\n  nimlab scoring moves 5 4 2 --bonus 3 --all"
    )]
    Moves(MovesArgs),
    /// An optimal line of play at one bonus N, with both players' scores.
    #[command(
        after_help = "Examples:\n  nimlab scoring line 5 4 2 --bonus 3\n  nimlab scoring line 10 8 1 --bonus=-7 --format json"
    )]
    Line(LineArgs),
    /// The tail constants c⁺(p), c⁻(p) and membership of p in P⁺ and P⁻.
    #[command(
        after_help = "Examples:\n  nimlab scoring limits 5 4 2\n  nimlab scoring limits 3 2 1 --format json"
    )]
    Limits(LimitsArgs),
    /// Payoffs of every k-heap position with heaps ≤ H (positions with no empty heap are listed).
    #[command(
        after_help = "Examples:\n  nimlab scoring table --heaps 3 --max-heap 10 --bonus=-40..40 --format csv\n  nimlab scoring table --heaps 2 --max-heap 6"
    )]
    Table(TableArgs),
    /// Payoffs of a family of positions whose heaps are affine in parameters.
    #[command(
        after_help = "Examples:\n  nimlab scoring family \"2k+1,2k,1\" --k 1..12\n  nimlab scoring family \"x,2k,1\" --k 1..3 --x 8..10 --bonus=-8..8 --format csv\n  nimlab scoring family \"a,b\" --param a=1..5 --param b=1..5"
    )]
    Family(FamilyArgs),
}

#[derive(Debug, Args)]
pub struct PositionArg {
    /// Heap sizes of the position (any order; 0 allowed).
    #[arg(required = true, value_name = "HEAP", allow_negative_numbers = true, value_parser = parse_heap)]
    heaps: Vec<HeapSize>,
}

#[derive(Debug, Args)]
pub struct PayoffArgs {
    #[command(flatten)]
    position: PositionArg,
    #[command(flatten)]
    bonus: BonusGridArgs,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArg,
    /// Show the moves at this one bonus N, with each move's value.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = parse_q)]
    bonus: Option<Q>,
    /// With --bonus: list every move, not only the optimal ones.
    #[arg(long, requires = "bonus")]
    all: bool,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct LineArgs {
    #[command(flatten)]
    position: PositionArg,
    /// The bonus N for the last stone.
    #[arg(long, value_name = "N", required = true, allow_hyphen_values = true, value_parser = parse_q)]
    bonus: Q,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct LimitsArgs {
    #[command(flatten)]
    position: PositionArg,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct TableArgs {
    /// Number of heaps k.
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = super::args::ranged(1, MAX_TABLE_HEAPS))]
    heaps: usize,
    /// Largest heap size H.
    #[arg(long, value_name = "H", allow_negative_numbers = true, value_parser = parse_heap)]
    max_heap: HeapSize,
    #[command(flatten)]
    bonus: BonusGridArgs,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct FamilyArgs {
    /// Heaps as affine expressions, e.g. "2k+1,2k,1".
    #[arg(value_name = "FAMILY")]
    pub(super) family: String,
    #[command(flatten)]
    pub(super) params: ParamArgs,
    #[command(flatten)]
    bonus: BonusGridArgs,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    pub(super) out: OutputArgs,
}

pub fn run(cmd: ScoringCommand) -> anyhow::Result<()> {
    match cmd {
        ScoringCommand::Payoff(a) => payoff(a),
        ScoringCommand::Moves(a) => moves(a),
        ScoringCommand::Line(a) => line(a),
        ScoringCommand::Limits(a) => limits(a),
        ScoringCommand::Table(a) => table(a),
        ScoringCommand::Family(a) => family(a),
    }
}

/// Solves a position (refused at once when its estimate is over `--memory-limit`), with a
/// progress bar over the estimated positions.
fn solve_position(heaps: &[HeapSize], args: &SolveArgs) -> anyhow::Result<Solution> {
    let pb = super::progress_bar(0, &format!("solving {}", show_position(heaps)), "steps");
    let sol = solve_many_reporting(
        &scoring_nim(),
        &[nim_heaps(heaps)],
        args.method(),
        &args.limits(),
        &super::Bar(&pb),
    );
    pb.finish_and_clear();
    Ok(sol?)
}

/// The most rows a streamed table prints: more is days of output, never what was meant.
const MAX_ROWS: u64 = 1_000_000_000;
/// Bytes one held table cell costs: the cell (a rational is two big integers on the heap)
/// and its rendered text.
const CELL_BYTES: u64 = 192;

/// Bytes of output held in memory for `rows` rows of `columns` cells: every format streams,
/// holding two chunks of [`ROW_CHUNK`] rows (one written, one encoded); text also spools its
/// cells until the column widths are known, in memory up to [`SPOOL_MEMORY`] bytes.
fn output_bytes(format: Format, rows: u64, columns: usize) -> u64 {
    let cells = rows.saturating_mul(columns as u64);
    let spool = if format == Format::Text {
        cells
            .saturating_mul(SPOOLED_CELL_BYTES)
            .min(SPOOL_MEMORY as u64)
    } else {
        0
    };
    rows.min(2 * ROW_CHUNK as u64)
        .saturating_mul(columns as u64 * CELL_BYTES)
        .saturating_add(spool)
}

/// Bytes one spooled text cell takes: its length prefix and its text.
const SPOOLED_CELL_BYTES: u64 = 24;

/// Refuses `rows` rows of output before any work: more than [`MAX_ROWS`], or more than the
/// memory limit can hold beside `other_bytes`.
fn check_output(
    what: &str,
    rows: u64,
    columns: usize,
    format: Format,
    other_bytes: u64,
    limits: &Limits,
) -> anyhow::Result<()> {
    if rows > MAX_ROWS {
        anyhow::bail!(
            "{what} would print {} rows, more than the limit of {MAX_ROWS}; narrow --bonus or use a larger --step",
            if rows == u64::MAX {
                "over 2^64".to_string()
            } else {
                rows.to_string()
            }
        );
    }
    let needed = other_bytes.saturating_add(output_bytes(format, rows, columns));
    if needed > limits.max_bytes {
        return Err(Error::TooLarge {
            what: format!("{what} ({rows} rows)"),
            needed_bytes: needed,
            limit_bytes: limits.max_bytes,
            suggestion: "use fewer bonus values, or raise --memory-limit".to_string(),
        }
        .into());
    }
    Ok(())
}

/// A progress bar over output rows.
fn rows_bar(rows: u64) -> indicatif::ProgressBar {
    super::progress_bar(rows, "writing", "rows")
}

fn show_position(heaps: &[HeapSize]) -> String {
    format!(
        "({})",
        heaps
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(",")
    )
}

/// `c + s·N` written the way the papers write it: `-3 + N`, `2 - N`, `5`.
fn line_formula(slope: &Q, intercept: &Q) -> String {
    crate::num::line_formula(slope, intercept, "N")
}

fn payoff(a: PayoffArgs) -> anyhow::Result<()> {
    let heaps = &a.position.heaps;
    let grid = a.bonus.grid()?;
    if let Some(g) = &grid {
        check_output(
            &format!("the payoff of {} on --bonus {g}", show_position(heaps)),
            g.len(),
            2,
            a.out.format,
            0,
            &a.solve.limits(),
        )?;
    }
    let sol = solve_position(heaps, &a.solve)?;
    let f = sol.payoff(&nim_heaps(heaps))?;
    let name = format!("f_N{}", show_position(heaps));
    if let Some(grid) = grid {
        let columns = ["bonus".to_string(), "payoff".to_string()];
        let pb = rows_bar(grid.len());
        let rows = grid.iter().map(|n| {
            pb.inc(1);
            let v = f.eval(&n);
            vec![n.into(), v.into()]
        });
        let written = a.out.emit(|w| write_rows(a.out.format, &columns, rows, w));
        pb.finish_and_clear();
        return written;
    }
    let t = pieces_table(&f);
    if a.out.format != Format::Text {
        return a.out.emit(|w| w.write_all(&t.render(a.out.format)));
    }
    let mut text = Table::new(&["piece", &name]);
    for p in f.pieces() {
        text.push(vec![
            piece_interval(p.lo.clone(), p.hi.clone())
                .to_string()
                .into(),
            line_formula(&p.slope, &p.intercept).into(),
        ]);
    }
    let tl = tails(&f);
    a.out.emit(|w| {
        writeln!(
            w,
            "{name}: continuous, piecewise linear in N, {} breakpoint(s); {} positions solved by {}",
            f.breakpoints().len(),
            sol.positions(),
            sol.method()
        )?;
        w.write_all(&text.render(Format::Text))?;
        let bps: Vec<String> = f.breakpoints().iter().map(|(x, y)| format!("({x}, {y})")).collect();
        writeln!(w, "breakpoints (N, f): {}", if bps.is_empty() { "none".to_string() } else { bps.join(" ") })?;
        writeln!(w, "c+ = {}   (f = {} for large N)", tl.c_plus, line_formula(&tl.right_slope, &tl.c_plus))?;
        writeln!(w, "c- = {}   (f = {} for very negative N)", tl.c_minus, line_formula(&tl.left_slope, &tl.c_minus))
    })
}

fn moves(a: MovesArgs) -> anyhow::Result<()> {
    let sol = solve_position(&a.position.heaps, &a.solve)?;
    if let Some(n) = &a.bonus {
        let t = moves_at_table(&sol, &a.position.heaps, n, a.all)?;
        return a.out.emit(|w| w.write_all(&t.render(a.out.format)));
    }
    let t = move_regions_table(&sol, &a.position.heaps)?;
    if a.out.format == Format::Text {
        let mut text = Table::new(&["bonus", "optimal moves"]);
        for row in &t.rows {
            text.push(vec![row[0].clone(), row[5].clone()]);
        }
        let title = format!(
            "optimal moves from {} by bonus N",
            show_position(&a.position.heaps)
        );
        return a.out.emit(|w| {
            writeln!(
                w,
                "{title}{}",
                if t.rows.is_empty() {
                    ": none (no move is possible)"
                } else {
                    ""
                }
            )?;
            w.write_all(&text.render(Format::Text))
        });
    }
    a.out.emit(|w| w.write_all(&t.render(a.out.format)))
}

fn line(a: LineArgs) -> anyhow::Result<()> {
    let heaps = nim_heaps(&a.position.heaps);
    let sol = solve_position(&a.position.heaps, &a.solve)?;
    let line = optimal_line(&sol, &heaps, &a.bonus)?;
    match a.out.format {
        // One row: the line's totals with its plies nested.
        Format::Json => a.out.emit_table(&line_table(&line)),
        Format::Csv | Format::Md => a.out.emit_table(&plies_table(&line)),
        Format::Text => a.out.emit(|w| {
            writeln!(w, "an optimal line from {} at N = {}", show_position(&a.position.heaps), line.bonus)?;
            w.write_all(&plies_table(&line).render(Format::Text))?;
            let last = if line.plies.len() % 2 == 1 { "first" } else { "second" };
            writeln!(
                w,
                "scores: first player {}, second player {} (the bonus {} goes to the {last} player); payoff {}",
                line.first_score, line.second_score, line.bonus, line.payoff
            )
        }),
    }
}

fn limits(a: LimitsArgs) -> anyhow::Result<()> {
    let heaps = &a.position.heaps;
    let sol = solve_position(heaps, &a.solve)?;
    let f = sol.payoff(&nim_heaps(heaps))?;
    a.out.emit_row(limits_table(heaps, &f))
}

/// Rows encoded per parallel batch in `table` (two batches are held: one being written, one
/// being encoded).
const ROW_CHUNK: usize = 65536;

/// Refuses a table before any work when the solve and the rows it buffers need more than
/// `--memory-limit`, suggesting the largest `--max-heap` that fits (found by bisection over the
/// cost formula, so the refusal is instant).
fn check_table(a: &TableArgs, grid: Option<&QRange>, columns: usize) -> anyhow::Result<()> {
    let game = scoring_nim();
    let k = a.heaps;
    let limits = a.solve.limits();
    let per_position = grid.map_or(1, QRange::len);
    // Rows are the positions with no empty heap: k heaps of 1..=H, as many as k heaps ≤ H − 1.
    let rows_at = |h: HeapSize| match h {
        0 => Some(0),
        h => table_size(k, h - 1)?.checked_mul(per_position),
    };
    let bytes_at = |h: HeapSize| -> Option<u64> {
        table_size(k, h).filter(|&c| c < u64::from(u32::MAX))?;
        let rows = rows_at(h).filter(|&r| r <= MAX_ROWS)?;
        table_bytes(&game, k, h)?.checked_add(output_bytes(a.out.format, rows, columns))
    };
    if bytes_at(a.max_heap).is_some_and(|b| b <= limits.max_bytes) {
        return Ok(());
    }
    let fits = largest_fitting_max_heap(a.max_heap, limits.max_bytes, bytes_at);
    // A table of empty heaps only (H = 0) has no rows: not worth suggesting.
    let advice = match fits.filter(|&h| h > 0) {
        Some(h) => format!("use --max-heap {h} or less, fewer heaps"),
        None => "use fewer heaps".to_string(),
    };
    let what = format!(
        "the table of {k}-heap positions with heaps ≤ {}",
        a.max_heap
    );
    let rows = rows_at(a.max_heap).unwrap_or(u64::MAX);
    let count = table_size(k, a.max_heap);
    let shown_count = count.map_or_else(|| "over 2^64".to_string(), |c| c.to_string());
    let shown_rows = match rows {
        u64::MAX => "over 2^64".to_string(),
        r => r.to_string(),
    };
    let needed = table_bytes(&game, k, a.max_heap)
        .and_then(|b| b.checked_add(output_bytes(a.out.format, rows, columns)))
        .unwrap_or(u64::MAX);
    // Memory first (the refusal users can act on with --memory-limit), then the hard caps.
    if needed > limits.max_bytes {
        return Err(Error::TooLarge {
            what: format!("{what} ({shown_count} positions, {shown_rows} rows)"),
            needed_bytes: needed,
            limit_bytes: limits.max_bytes,
            suggestion: format!("{advice}, or raise --memory-limit"),
        }
        .into());
    }
    if rows > MAX_ROWS {
        anyhow::bail!(
            "{what} would print {shown_rows} rows, more than the limit of {MAX_ROWS}; {advice}{}",
            if grid.is_some() {
                ", or fewer bonus values"
            } else {
                ""
            }
        );
    }
    anyhow::bail!(
        "{what} has {shown_count} positions, more than the {} a table can index; {advice}",
        u32::MAX
    )
}

fn table(a: TableArgs) -> anyhow::Result<()> {
    let grid = a.bonus.grid()?;
    let k = a.heaps;
    let heap_cols: Vec<String> = (1..=k).map(|i| format!("h{i}")).collect();
    let mut columns = heap_cols.clone();
    match &grid {
        Some(_) => columns.extend(["bonus".to_string(), "payoff".to_string()]),
        None => columns.extend(PWL_COLUMNS.iter().map(|c| c.to_string())),
    }
    check_table(&a, grid.as_ref(), columns.len())?;
    let plan = TablePlan::new(
        &scoring_nim(),
        k,
        a.max_heap,
        a.solve.method(),
        &a.solve.limits(),
    )?;
    let rows_total = match a.max_heap {
        0 => 0,
        h => table_size(k, h - 1)
            .unwrap_or(u64::MAX)
            .saturating_mul(grid.as_ref().map_or(1, QRange::len)),
    };
    // The table is solved on one thread a slab at a time (the positions with one largest heap,
    // a run of the rows), while the rows of the slabs already solved are encoded on both cores
    // and written: the same bytes as solving first and writing after.
    let rows_per_position = grid.as_ref().map_or(1, QRange::len).max(1);
    let positions_per_chunk = (ROW_CHUNK as u64 / rows_per_position).max(1) as usize;
    let pb = rows_bar(rows_total);
    let written = a
        .out
        .emit(|w| {
            plan.stream(&Silent, |slabs| {
                let mut failed = None;
                let positions = slabs
                    .map_while(|slab| slab.map_err(|e| failed = Some(e)).ok())
                    .flat_map(|slab| {
                        let slab = Arc::new(slab);
                        // Positions with no empty heap, each with its index in the slab.
                        slab.positions()
                            .enumerate()
                            .filter(|(_, p)| p.iter().all(|&h| h > 0))
                            .map(move |(i, p)| (Arc::clone(&slab), i, p))
                    })
                    .inspect(|_| pb.inc(rows_per_position));
                let mut writer = TableWriter::new(a.out.format, &columns, w)?;
                write_rows_parallel(
                    &mut writer,
                    positions,
                    positions_per_chunk,
                    |(slab, i, p), out| encode_payoff_rows(slab.payoff(*i), p, grid.as_ref(), out),
                )?;
                // A failed solve must not commit the rows before it.
                if let Some(e) = failed {
                    return Err(io::Error::other(e));
                }
                writer.finish()
            })
        })
        .context("writing the table");
    pb.finish_and_clear();
    written
}

fn family(a: FamilyArgs) -> anyhow::Result<()> {
    let t = family_table(&a)?;
    a.out.emit(|w| w.write_all(&t.table().render(a.out.format)))
}

/// The family's members with their payoffs (listed on a bonus grid when one is given).
pub(super) fn family_table(a: &FamilyArgs) -> anyhow::Result<ScoringFamily> {
    let fam: Family = a.family.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let grid = a.bonus.grid()?;
    let pb = super::progress_bar(0, &format!("solving the family {fam}"), "steps");
    let t = crate::tables::scoring::family_table_reporting(
        &fam,
        &a.params.ranges()?,
        grid.as_ref(),
        a.solve.method(),
        &a.solve.limits(),
        &super::Bar(&pb),
    );
    pb.finish_and_clear();
    Ok(t?)
}
