//! `nimlab candy …`: Candy Nim values with optimal lines, tables of P-positions and families.

use anyhow::Context;
use clap::{Args, Subcommand};

use super::args::{ParamArgs, parse_heap, parse_int_range, parse_size};
use super::output::OutputArgs;
use crate::export::{Cell, Format, Table, write_rows};
use crate::family::Family;
use crate::games::candy::{
    Candies, Contraction, FrakRanges, PValues, Reading, Strategy, TableShape, allocation_cost,
    allocations, frak, frak_ranges, frak_x_limit, most_heaps_fitting, optimal_line,
    p_position_table, p_position_table_bytes, p_positions, play_strategy, show, standard_form_game,
    value_with,
};
use crate::num::IntRange;
use crate::progress::Silent;
use crate::tables::candy::CandyFamily;
use crate::tables::candy_play::{
    ALLOCATION_COLUMNS, MAX_ALLOCATION, allocation_row, line_table, p_position_columns,
    p_position_row, strategy_table, turns_table, value_table,
};

#[derive(Debug, Subcommand)]
pub enum CandyCommand {
    /// V = N_L − N_W, N_L and N_W of a position (Luca to move in P-positions, Windsor in
    /// N-positions), with an optimal line of play.
    #[command(
        after_help = "Examples:\n  nimlab candy value 31 42 53\n  nimlab candy value 1 5 16 20 --format json\n  nimlab candy value 1 2 4 8 16 42 53"
    )]
    Value(ValueArgs),
    /// Every P-position with k heaps ≤ H (no empty heap, heaps in decreasing order).
    #[command(
        after_help = "Examples:\n  nimlab candy table --heaps 3 --max-heap 256 --format csv\n  nimlab candy table --heaps 4 --max-heap 20"
    )]
    Table(TableArgs),
    /// Values of a family of positions whose heaps are affine in parameters.
    #[command(
        after_help = "Examples:\n  nimlab candy family \"31,32m,32m+31\" --m 1..64 --format csv\n  nimlab candy family \"7,8m,8m+7\" --m 1..20"
    )]
    Family(FamilyArgs),
    /// For every even N up to a bound: least and greatest N_W over all P-positions with N
    /// candies (any number of heaps), with every arrangement attaining them (separated by ;).
    #[command(
        after_help = "Examples:\n  nimlab candy allocate --max-candies 64 --format csv\n  nimlab candy allocate --candies 16"
    )]
    Allocate(AllocateArgs),
    /// Play the flip-flop or fractal strategy for Luca and set its value beside the optimum.
    #[command(
        after_help = "Examples:\n  nimlab candy strategy flip-flop 7 16 23\n  nimlab candy strategy fractal 7 16 23\n  nimlab candy strategy fractal 31 32 63 --reading smallest\n  nimlab candy strategy fractal 63 128 191 --f 0,1,1,2,2,3"
    )]
    Strategy(StrategyArgs),
    /// Standard forms 𝔊(2^k−1, m, 0) (§4's k): V next to the flip-flop and fractal values.
    #[command(
        after_help = "Examples:\n  nimlab candy standard --k 1..6 --m 1..4\n  nimlab candy standard --k 5 --m 1..16 --format csv"
    )]
    Standard(StandardArgs),
    /// The games 𝔊(a, m, x) = [a, 2^K·m + x, 2^K·m + (a⊕x)], K = ⌊log₂ a⌋ + 1 (Def 2.8).
    #[command(
        after_help = "Examples:\n  nimlab candy frak --a 31 --m 1..64\n  nimlab candy frak --a 4..7 --m 1..3 --x 0..3 --format csv"
    )]
    Frak(FrakArgs),
}

/// Memory cap shared by candy commands.
#[derive(Debug, Clone, Args)]
pub struct MemoryArgs {
    /// Refuse tables estimated to need more memory than this (e.g. 512M, 4G); `auto` is 8G, or
    /// less when `ulimit -v` or the free memory allow less.
    #[arg(long, value_name = "SIZE", default_value = "auto", value_parser = parse_size)]
    pub(super) memory_limit: u64,
}

#[derive(Debug, Args)]
pub struct ValueArgs {
    /// Heap sizes (any order, 0 allowed).
    #[arg(required = true, value_name = "HEAP", allow_negative_numbers = true, value_parser = parse_heap)]
    heaps: Vec<Candies>,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct TableArgs {
    /// Number of heaps k (at least 2: a P-position with no empty heap needs two; 0 and 1 are
    /// refused with that reason).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = super::args::ranged(0, super::args::MAX_TABLE_HEAPS))]
    heaps: usize,
    /// Largest heap H.
    #[arg(long, value_name = "H", value_parser = parse_heap)]
    max_heap: Candies,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct FamilyArgs {
    /// Heaps as affine expressions, e.g. "31,32m,32m+31".
    #[arg(value_name = "FAMILY")]
    family: String,
    #[command(flatten)]
    params: ParamArgs,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    pub(super) out: OutputArgs,
}

pub fn run(cmd: CandyCommand) -> anyhow::Result<()> {
    match cmd {
        CandyCommand::Value(a) => value(a),
        CandyCommand::Table(a) => table(a),
        CandyCommand::Family(a) => family(a),
        CandyCommand::Allocate(a) => allocate(a),
        CandyCommand::Strategy(a) => strategy(a),
        CandyCommand::Standard(a) => standard(a),
        CandyCommand::Frak(a) => frak_family(a),
    }
}

/// Elementary steps a machine does in about three seconds: longer work shows a progress bar.
const STEPS_WORTH_A_BAR: u128 = 3_000_000_000;

/// Solves the value table of `shape`: refused at once above `max_bytes`, with a progress bar
/// when its estimate is long.
fn solve_table(
    shape: &TableShape,
    max_bytes: u64,
) -> anyhow::Result<Box<dyn PValues + Send + Sync>> {
    if shape.steps() < STEPS_WORTH_A_BAR {
        return Ok(shape.solve(max_bytes, &Silent)?);
    }
    let pb = super::progress_bar(0, "solving the value table", "steps");
    let table = shape.solve(max_bytes, &super::Bar(&pb));
    pb.finish_and_clear();
    Ok(table?)
}

fn value(a: ValueArgs) -> anyhow::Result<()> {
    let heaps = a.heaps;
    let shape = TableShape::covering(std::slice::from_ref(&heaps))?;
    let table = solve_table(&shape, a.memory.memory_limit)?;
    let v = value_with(table.as_ref(), &heaps)?;
    let line = optimal_line(table.as_ref(), &heaps)?;
    let summary = value_table(&heaps, &v);
    let plies = line_table(&line);
    match a.out.format {
        Format::Text => a.out.emit(|w| {
            w.write_all(&record_text(&summary).render(Format::Text))?;
            writeln!(w, "\nAn optimal line (heaps numbered from 1):")?;
            w.write_all(&plies.render(Format::Text))
        }),
        // One table per format: the line, each ply carrying the running totals.
        Format::Csv | Format::Md => a.out.emit_table(&plies),
        // One row: the value with its optimal line nested.
        Format::Json => a.out.emit_row(nest(summary, "line", plies)),
    }
}

/// A one-row table as `quantity  value` lines, as text shows a record.
fn record_text(t: &Table) -> Table {
    let mut s = Table::new(&["quantity", "value"]);
    for (c, x) in t.columns.iter().zip(t.rows.first().into_iter().flatten()) {
        s.push(vec![c.as_str().into(), x.clone()]);
    }
    s
}

/// A one-row table with `inner` nested as its last column, `name`.
fn nest(mut t: Table, name: &str, inner: Table) -> Table {
    t.columns.push(name.to_string());
    if let Some(row) = t.rows.first_mut() {
        row.push(inner.into_cell());
    }
    t
}

fn table(a: TableArgs) -> anyhow::Result<()> {
    let (k, h) = (a.heaps, a.max_heap);
    if k < 2 {
        anyhow::bail!("--heaps {k}: a P-position with no empty heap needs at least 2 heaps");
    }
    let limit = a.memory.memory_limit;
    if h == 0 {
        anyhow::bail!(
            "--max-heap 0: every heap would be empty; the table lists P-positions with heaps of 1 to H candies, so use --max-heap 1 or more"
        );
    }
    // Computed, and refused, before any list of k heaps exists (k may be in the quintillions).
    let needed = p_position_table_bytes(k, h);
    if needed.is_none_or(|b| b > u128::from(limit)) {
        let fits = most_heaps_fitting(h, limit);
        return Err(crate::error::Error::TooLarge {
            what: if k <= 8 {
                format!("the table of all positions below {}", show(&vec![h; k]))
            } else {
                format!("the table of all positions of {k} heaps ≤ {h}")
            },
            needed_bytes: needed.map_or(u64::MAX, |b| u64::try_from(b).unwrap_or(u64::MAX)),
            limit_bytes: limit,
            suggestion: format!(
                "use --heaps {fits} or fewer with --max-heap {h}, a smaller --max-heap, or raise --memory-limit"
            ),
        }
        .into());
    }
    let columns = p_position_columns(k);
    let shape = p_position_table(k, h);
    let table = solve_table(&shape, limit)?;
    let missing = std::cell::RefCell::new(None);
    let rows = p_positions(k, h).map_while(|p| {
        // Every P-position ≤ H is in the table; a miss is reported, not panicked on.
        let Some(v) = table.p_value(&p) else {
            *missing.borrow_mut() = Some(show(&p));
            return None;
        };
        Some(p_position_row(&p, v))
    });
    a.out
        .emit(|w| {
            write_rows(a.out.format, &columns, rows, w)?;
            match missing.borrow_mut().take() {
                Some(p) => Err(std::io::Error::other(format!(
                    "{p} is not in the value table"
                ))),
                None => Ok(()),
            }
        })
        .context("writing the table")
}

fn family(a: FamilyArgs) -> anyhow::Result<()> {
    let t = family_table(&a)?;
    a.out.emit_table(&t.table())
}

/// The family's members: parameters, heaps, V, N_L and N_W.
pub(super) fn family_table(a: &FamilyArgs) -> anyhow::Result<CandyFamily> {
    let fam: Family = a.family.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    let ranges = a.params.ranges()?;
    let limit = a.memory.memory_limit;
    let (members, shape) = crate::tables::candy::family_plan(&fam, &ranges, limit)?;
    let pb = (shape.steps() >= STEPS_WORTH_A_BAR)
        .then(|| super::progress_bar(0, "solving the value table", "steps"));
    let t = match &pb {
        Some(pb) => {
            crate::tables::candy::family_table_of(&fam, members, &shape, limit, &super::Bar(pb))
        }
        None => crate::tables::candy::family_table_of(&fam, members, &shape, limit, &Silent),
    };
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    Ok(t?)
}

#[derive(Debug, Args)]
pub struct AllocateArgs {
    /// Every even N from 2 up to this (even) bound.
    #[arg(long, value_name = "N", value_parser = parse_heap, required_unless_present = "candies", conflicts_with = "candies")]
    max_candies: Option<Candies>,
    /// One even N only.
    #[arg(long, value_name = "N", value_parser = parse_heap)]
    candies: Option<Candies>,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    out: OutputArgs,
}

fn allocate(a: AllocateArgs) -> anyhow::Result<()> {
    let (flag, n) = match (a.max_candies, a.candies) {
        (Some(n), _) => ("--max-candies", n),
        (None, Some(n)) => ("--candies", n),
        (None, None) => unreachable!("clap requires one of them"),
    };
    if n < 2 || n % 2 == 1 {
        anyhow::bail!(
            "{flag} {n}: a P-position holds an even number of candies, at least 2 (nim-sum 0 forces an even total)"
        );
    }
    if n > MAX_ALLOCATION {
        anyhow::bail!(
            "{flag} {n} is beyond the supported {MAX_ALLOCATION}: every partition of N is examined"
        );
    }
    let evens: Vec<Candies> = if a.candies.is_some() {
        vec![n]
    } else {
        (2..=n).step_by(2).collect()
    };
    // The memo keeps every P-position up to N: its size is known before any is solved.
    let limit = a.memory.memory_limit;
    let cost = allocation_cost(n);
    if cost.bytes > u128::from(limit) {
        let fits = (2..n)
            .rev()
            .filter(|m| m.is_multiple_of(2))
            .find(|&m| allocation_cost(m).bytes <= u128::from(limit));
        return Err(crate::error::Error::TooLarge {
            what: format!(
                "{flag} {n}: solving every P-position with at most {n} candies ({} with exactly {n})",
                cost.positions
            ),
            needed_bytes: u64::try_from(cost.bytes).unwrap_or(u64::MAX),
            limit_bytes: limit,
            suggestion: match fits {
                Some(m) => format!("use {flag} {m} or less, or raise --memory-limit"),
                None => "raise --memory-limit".to_string(),
            },
        }
        .into());
    }
    // One step per P-position solved, every one with at most N candies.
    let pb = super::progress_bar(
        u64::try_from(cost.solved).unwrap_or(u64::MAX),
        "allocating",
        "positions",
    );
    let rows = allocations(&evens, &super::Bar(&pb));
    pb.finish_and_clear();
    let rows = rows?;
    // CSV and JSON list every arrangement; text, read by a person, shows the first few.
    let shown = if a.out.format == Format::Text {
        4
    } else {
        usize::MAX
    };
    // Rows are written as they are made: N's arrangements as cells are far larger than as heaps.
    let columns = ALLOCATION_COLUMNS.map(String::from);
    let cells = rows.iter().map(|r| allocation_row(r, shown));
    a.out
        .emit(|w| write_rows(a.out.format, &columns, cells, w))
        .context("writing the allocations")
}

/// The named strategies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StrategyName {
    /// Def 4.2.
    FlipFlop,
    /// Def 4.7.
    Fractal,
}

/// Which heap Def 4.7(3) moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReadingArg {
    /// The largest heap, as Figure 2 and the proofs do (reproduces the paper's numbers).
    Largest,
    /// The smallest heap, as Def 4.7(3) is written.
    Smallest,
}

#[derive(Debug, Args)]
pub struct StrategyArgs {
    /// flip-flop (Def 4.2) or fractal (Def 4.7).
    #[arg(value_enum)]
    strategy: StrategyName,
    /// A 3-heap P-position in standard form [2^k−1, 2^k·m, 2^k(m+1)−1].
    #[arg(required = true, value_name = "HEAP", allow_negative_numbers = true, value_parser = parse_heap)]
    heaps: Vec<Candies>,
    /// Fractal only: f on exponents — `half` (⌊a/2⌋, Theorem 4.8), `identity`, or f(1),f(2),…
    /// (f(a) = a beyond the list).
    #[arg(long, value_name = "F", default_value = "half")]
    f: String,
    /// Fractal only: which heap step (3) moves.
    #[arg(long, value_enum, default_value_t = ReadingArg::Largest)]
    reading: ReadingArg,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    out: OutputArgs,
}

fn contraction(s: &str) -> anyhow::Result<Contraction> {
    match s.trim() {
        "half" => Ok(Contraction::Half),
        "identity" | "id" => Ok(Contraction::Identity),
        list => {
            let values = list
                .split(',')
                .map(|v| {
                    crate::num::parse_whole(v, 0, u32::MAX).map_err(|e| {
                        anyhow::anyhow!("--f: {e} (write half, identity, or f(1),f(2),…)")
                    })
                })
                .collect::<anyhow::Result<Vec<u32>>>()?;
            Ok(Contraction::table(values).context("--f")?)
        }
    }
}

fn strategy(a: StrategyArgs) -> anyhow::Result<()> {
    let strategy = match a.strategy {
        StrategyName::FlipFlop => Strategy::FlipFlop,
        StrategyName::Fractal => Strategy::Fractal {
            f: contraction(&a.f)?,
            reading: match a.reading {
                ReadingArg::Largest => Reading::Largest,
                ReadingArg::Smallest => Reading::Smallest,
            },
        },
    };
    // The value table first: it refuses oversized heaps at once, before a long play.
    let shape = TableShape::covering(std::slice::from_ref(&a.heaps))?;
    let table = solve_table(&shape, a.memory.memory_limit)?;
    let play = play_strategy(&strategy, &a.heaps)?;
    let optimum = value_with(table.as_ref(), &a.heaps)?;
    let turns = turns_table(&play);
    let summary = strategy_table(&a.heaps, &strategy, &play, &optimum);
    match a.out.format {
        Format::Text => a.out.emit(|w| {
            w.write_all(&record_text(&summary).render(Format::Text))?;
            writeln!(w, "\nTurns (G, G′, G″):")?;
            w.write_all(&turns.render(Format::Text))
        }),
        Format::Csv | Format::Md => a.out.emit_table(&turns),
        // One row: the comparison with the turns nested.
        Format::Json => a.out.emit_row(nest(summary, "turns", turns)),
    }
}

#[derive(Debug, Args)]
pub struct StandardArgs {
    /// k of §4's 𝔊(2^k−1, m, 0) (§5 writes the same game with k − 1).
    #[arg(long = "k", value_name = "RANGE", value_parser = parse_int_range)]
    k: IntRange,
    /// m ≥ 1.
    #[arg(long = "m", value_name = "RANGE", value_parser = parse_int_range)]
    m: IntRange,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct FrakArgs {
    /// a ≥ 1 (the smallest heap).
    #[arg(long = "a", value_name = "RANGE", value_parser = parse_int_range)]
    a: IntRange,
    /// m ≥ 1.
    #[arg(long = "m", value_name = "RANGE", value_parser = parse_int_range)]
    m: IntRange,
    /// 0 ≤ x < 2^⌊log₂ a⌋; values outside that range for some a are skipped for that a.
    #[arg(long = "x", value_name = "RANGE", default_value = "0", value_parser = parse_int_range)]
    x: IntRange,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    out: OutputArgs,
}

/// The bounds of a range, checked against the values an option allows (named in the error).
fn bounds<T: TryFrom<i64> + Copy>(
    r: &IntRange,
    what: &str,
    min: i64,
    max: i64,
) -> anyhow::Result<(T, T)> {
    if r.start() < min || r.end() > max {
        anyhow::bail!(
            "{what} {}..{}: values must be ≥ {min} and at most {max}",
            r.start(),
            r.end()
        );
    }
    let convert = |v: i64| {
        T::try_from(v).map_err(|_| anyhow::anyhow!("{what} {v} is out of range ({min}..{max})"))
    };
    Ok((convert(r.start())?, convert(r.end())?))
}

/// Games written per progress step, and how many make a bar worth showing.
const GAMES_WORTH_A_BAR: u128 = 1_000_000;

/// Streams `rows` (one per game, `games` in all) to the output, with a progress bar when there
/// are many; a row that fails stops the output and is reported (nothing half-written remains).
fn emit_games(
    out: &OutputArgs,
    columns: &[&str],
    games: u128,
    rows: impl Iterator<Item = anyhow::Result<Vec<Cell>>>,
) -> anyhow::Result<()> {
    let columns: Vec<String> = columns.iter().map(|c| (*c).to_string()).collect();
    let pb = (games >= GAMES_WORTH_A_BAR).then(|| {
        super::progress_bar(
            u64::try_from(games).unwrap_or(u64::MAX),
            "evaluating",
            "games",
        )
    });
    let failure = std::cell::RefCell::new(None);
    let rows = rows.map_while(|r| {
        if let Some(pb) = &pb {
            pb.inc(1);
        }
        r.map_err(|e| *failure.borrow_mut() = Some(e)).ok()
    });
    let written = out.emit(|w| {
        write_rows(out.format, &columns, rows, w)?;
        match failure.borrow_mut().take() {
            Some(e) => Err(std::io::Error::other(format!("{e:#}"))),
            None => Ok(()),
        }
    });
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    written
}

fn standard(a: StandardArgs) -> anyhow::Result<()> {
    // k above 31 is refused by the largest game, naming k.
    let (k_lo, k_hi): (u32, u32) = bounds(&a.k, "--k", 1, i64::from(u32::MAX))?;
    let (m_lo, m_hi): (u64, u64) = bounds(&a.m, "--m", 1, i64::from(u32::MAX))?;
    // The largest game decides the table: [2^k − 1, 2^k·m, 2^k(m+1) − 1] grows with k and m.
    let largest = standard_form_game(k_hi, m_hi).with_context(|| {
        format!("--k {k_hi} --m {m_hi}: the largest game of the ranges does not fit")
    })?;
    let shape = TableShape::Three {
        small: largest[0],
        middle: largest[1],
    };
    let table = solve_table(&shape, a.memory.memory_limit)?;
    let games = u128::from(k_hi - k_lo + 1) * u128::from(m_hi - m_lo + 1);
    let fractal = |reading| Strategy::Fractal {
        f: Contraction::Half,
        reading,
    };
    let rows = (k_lo..=k_hi)
        .flat_map(|k| (m_lo..=m_hi).map(move |m| (k, m)))
        .map(|(k, m)| -> anyhow::Result<Vec<Cell>> {
            let g = standard_form_game(k, m)?;
            let mut row: Vec<Cell> = vec![k.into(), Cell::Int(m as i64)];
            row.extend(g.iter().map(|&h| Cell::from(h)));
            row.push(Cell::Int(value_with(table.as_ref(), &g)?.v));
            for s in [
                Strategy::FlipFlop,
                fractal(Reading::Largest),
                fractal(Reading::Smallest),
            ] {
                row.push(Cell::Int(play_strategy(&s, &g)?.value));
            }
            Ok(row)
        });
    emit_games(
        &a.out,
        &[
            "k",
            "m",
            "h1",
            "h2",
            "h3",
            "v",
            "v_flip_flop",
            "v_fractal_largest",
            "v_fractal_smallest",
        ],
        games,
        rows,
    )
}

fn frak_family(a: FrakArgs) -> anyhow::Result<()> {
    let (a_lo, a_hi): (Candies, Candies) = bounds(&a.a, "--a", 1, i64::from(u32::MAX))?;
    let (m_lo, m_hi): (u64, u64) = bounds(&a.m, "--m", 1, i64::from(u32::MAX))?;
    let (x_lo, x_hi): (Candies, Candies) = bounds(&a.x, "--x", 0, i64::from(u32::MAX))?;
    let FrakRanges {
        pairs,
        small,
        middle,
        largest,
    } = frak_ranges((a_lo, a_hi), m_hi, (x_lo, x_hi));
    if pairs == 0 {
        anyhow::bail!("no game 𝔊(a, m, x) in these ranges: x must be below 2^⌊log₂ a⌋");
    }
    if largest > u64::from(Candies::MAX) {
        anyhow::bail!(
            "--a {}..{} --m {m_lo}..{m_hi}: the largest games have heaps up to {largest}, beyond {}; use a smaller --m or --a",
            a_lo,
            a_hi,
            Candies::MAX
        );
    }
    let shape = TableShape::Three {
        small: small as Candies,
        middle: middle as Candies,
    };
    let table = solve_table(&shape, a.memory.memory_limit)?;
    let games = pairs * u128::from(m_hi - m_lo + 1);
    let rows = (a_lo..=a_hi)
        .flat_map(|av| {
            let x_top = u64::from(x_hi).min(frak_x_limit(av) - 1);
            (m_lo..=m_hi)
                .flat_map(move |m| (u64::from(x_lo)..=x_top).map(move |x| (av, m, x as Candies)))
        })
        .map(|(av, m, x)| -> anyhow::Result<Vec<Cell>> {
            let g = frak(av, m, x)?;
            let v = value_with(table.as_ref(), &g)?;
            let mut row: Vec<Cell> = vec![av.into(), Cell::Int(m as i64), x.into()];
            row.extend(g.iter().map(|&h| Cell::from(h)));
            row.extend([
                Cell::Int(v.v),
                Cell::Int(v.n_l as i64),
                Cell::Int(v.n_w as i64),
            ]);
            Ok(row)
        });
    emit_games(
        &a.out,
        &["a", "m", "x", "h1", "h2", "h3", "v", "n_l", "n_w"],
        games,
        rows,
    )
}
