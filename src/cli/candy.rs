//! `nimlab candy …`: Candy Nim values with optimal lines, tables of P-positions and families.

use anyhow::Context;
use clap::{Args, Subcommand};
use itertools::Itertools;

use super::args::{ParamArgs, parse_heap, parse_int_range, parse_size};
use super::output::OutputArgs;
use crate::export::{Cell, Format, Table, write_rows};
use crate::family::Family;
use crate::games::candy::{
    Candies, CandyTable, Contraction, MemoValues, PValues, Reading, Role, Strategy, ThreeHeapTable,
    allocation, frak, nim_sum, optimal_line, play_strategy, role, show, standard_form_game,
    table_for, total, value_with,
};
use crate::num::IntRange;

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
    /// Refuse tables estimated to need more memory than this (e.g. 512M, 4G).
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = parse_size)]
    memory_limit: u64,
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

fn value(a: ValueArgs) -> anyhow::Result<()> {
    let heaps = a.heaps;
    let table = table_for(std::slice::from_ref(&heaps), a.memory.memory_limit)?;
    let v = value_with(table.as_ref(), &heaps)?;
    let line = optimal_line(table.as_ref(), &heaps)?;
    let summary_columns = [
        "position", "to_move", "candies", "nim_sum", "v", "n_l", "n_w",
    ];
    let summary: Vec<Cell> = vec![
        heaps_cell(&heaps),
        role(&heaps).to_string().into(),
        Cell::Int(total(&heaps) as i64),
        nim_sum(&heaps).into(),
        Cell::Int(v.v),
        Cell::Int(v.n_l as i64),
        Cell::Int(v.n_w as i64),
    ];
    let mut plies = Table::new(&[
        "ply",
        "player",
        "heap",
        "taken",
        "after",
        "luca_total",
        "windsor_total",
    ]);
    let (mut luca, mut windsor) = (0u64, 0u64);
    for (i, p) in line.iter().enumerate() {
        match p.player {
            Role::Luca => luca += u64::from(p.taken),
            Role::Windsor => windsor += u64::from(p.taken),
        }
        plies.push(vec![
            Cell::Int(i as i64 + 1),
            p.player.to_string().into(),
            Cell::Int(p.heap as i64 + 1),
            p.taken.into(),
            heaps_cell(&p.after),
            Cell::Int(luca as i64),
            Cell::Int(windsor as i64),
        ]);
    }
    match a.out.format {
        Format::Text => {
            let mut s = Table::new(&["quantity", "value"]);
            for (c, x) in summary_columns.iter().zip(summary) {
                s.push(vec![(*c).into(), x]);
            }
            a.out.emit(|w| {
                w.write_all(&s.render(Format::Text))?;
                writeln!(w, "\nAn optimal line (heaps numbered from 1):")?;
                w.write_all(&plies.render(Format::Text))
            })
        }
        // One table per format: the line, each ply carrying the running totals.
        Format::Csv | Format::Md => a.out.emit_table(&plies),
        // One row: the value with its optimal line nested.
        Format::Json => {
            let mut columns = summary_columns.to_vec();
            columns.push("line");
            let mut row = summary;
            row.push(plies.into_cell());
            a.out.emit_record(&columns, row)
        }
    }
}

/// Heaps as a cell: `[3,2,1]` in text and CSV (as [`show`] writes them), an array in JSON.
fn heaps_cell(heaps: &[Candies]) -> Cell {
    Cell::list("[", ",", "]", heaps.iter().copied())
}

/// Sorted tuples a₁ ≥ … ≥ a_k ≥ 1 with a₁ ≤ max and nim-sum 0, in increasing lexicographic order.
fn p_positions(k: usize, max: Candies) -> Vec<Vec<Candies>> {
    fn rec(buf: &mut Vec<Candies>, k: usize, max: Candies, out: &mut Vec<Vec<Candies>>) {
        if buf.len() == k {
            if nim_sum(buf) == 0 {
                out.push(buf.clone());
            }
            return;
        }
        if buf.len() == k - 1 {
            // The last heap is forced: the nim-sum of the others.
            let last = nim_sum(buf);
            if last >= 1 && last <= max {
                buf.push(last);
                out.push(buf.clone());
                buf.pop();
            }
            return;
        }
        for a in 1..=max {
            buf.push(a);
            rec(buf, k, a, out);
            buf.pop();
        }
    }
    let mut out = Vec::new();
    if k > 0 {
        rec(&mut Vec::with_capacity(k), k, max, &mut out);
    }
    out
}

fn table(a: TableArgs) -> anyhow::Result<()> {
    let (k, h) = (a.heaps, a.max_heap);
    if k < 2 {
        anyhow::bail!("--heaps {k}: a P-position with no empty heap needs at least 2 heaps");
    }
    let limit = a.memory.memory_limit;
    let table: Box<dyn PValues> = if k == 3 {
        Box::new(ThreeHeapTable::solve(h, h, limit)?)
    } else {
        Box::new(CandyTable::solve(&vec![h; k], limit)?)
    };
    let mut columns: Vec<String> = (1..=k).map(|i| format!("h{i}")).collect();
    columns.extend(["v", "n_l", "n_w"].map(String::from));
    let positions = p_positions(k, h);
    let rows = positions.iter().map(|p| {
        // The box table is indexed in slot order; any order of a P-position is in the box.
        let v = table
            .p_value(p)
            .expect("every P-position ≤ H is in the table");
        let cv = crate::games::candy::CandyValue::from_v(v, total(p));
        let mut row: Vec<Cell> = p.iter().map(|&x| x.into()).collect();
        row.extend([
            Cell::Int(cv.v),
            Cell::Int(cv.n_l as i64),
            Cell::Int(cv.n_w as i64),
        ]);
        row
    });
    a.out
        .emit(|w| write_rows(a.out.format, &columns, rows, w))
        .context("writing the table")
}

fn family(a: FamilyArgs) -> anyhow::Result<()> {
    let t = family_table(&a)?;
    a.out.emit_table(&t)
}

/// The family's rows: parameters, heaps, V, N_L and N_W.
pub(super) fn family_table(a: &FamilyArgs) -> anyhow::Result<Table> {
    let fam: Family = a.family.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(crate::papers::candy_nim::family_table(
        &fam,
        &a.params.ranges()?,
        a.memory.memory_limit,
    )?)
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
    out: OutputArgs,
}

/// Largest N accepted: the number of P-positions grows like the partitions of N.
const MAX_ALLOCATION: Candies = 100;

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
    let pb = super::progress_bar(evens.len() as u64, "allocating", "totals");
    let mut memo = MemoValues::new();
    let mut rows = Vec::new();
    for &c in &evens {
        rows.push(allocation(c, &mut memo)?);
        pb.inc(1);
    }
    pb.finish_and_clear();
    // CSV and JSON list every arrangement; text, read by a person, shows the first few.
    let shown = if a.out.format == Format::Text {
        4
    } else {
        usize::MAX
    };
    let arrangements = |v: &[Vec<Candies>]| -> Cell {
        if v.len() > shown {
            let head = v.iter().take(shown).map(|p| show(p)).join(";");
            format!("{head};… ({} in all)", v.len()).into()
        } else {
            Cell::list("", ";", "", v.iter().map(|p| heaps_cell(p)))
        }
    };
    let mut t = Table::new(&["candies", "min_nw", "argmin", "max_nw", "argmax"]);
    for r in rows {
        t.push(vec![
            r.candies.into(),
            Cell::Int(r.min_nw as i64),
            arrangements(&r.argmin),
            Cell::Int(r.max_nw as i64),
            arrangements(&r.argmax),
        ]);
    }
    a.out.emit_table(&t)
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
    let play = play_strategy(&strategy, &a.heaps)?;
    let table = table_for(std::slice::from_ref(&a.heaps), a.memory.memory_limit)?;
    let optimum = value_with(table.as_ref(), &a.heaps)?;
    let mut turns = Table::new(&[
        "turn",
        "before",
        "after_luca",
        "after_windsor",
        "luca_took",
        "windsor_took",
        "turn_value",
        "semiratio",
    ]);
    for (i, t) in play.turns.iter().enumerate() {
        turns.push(vec![
            Cell::Int(i as i64 + 1),
            heaps_cell(&t.before),
            heaps_cell(&t.after_luca),
            heaps_cell(&t.after_windsor),
            t.luca_took.into(),
            t.windsor_took.into(),
            Cell::Int(t.value),
            t.semiratio.clone().into(),
        ]);
    }
    let summary: [(&str, Cell); 6] = [
        ("position", heaps_cell(&a.heaps)),
        ("strategy", strategy.to_string().into()),
        ("v_strategy", Cell::Int(play.value)),
        ("v_optimal", Cell::Int(optimum.v)),
        (
            "n_l_strategy",
            Cell::Int((total(&a.heaps) as i64 + play.value) / 2),
        ),
        ("n_l_optimal", optimum.n_l.into()),
    ];
    match a.out.format {
        Format::Text => {
            let mut s = Table::new(&["quantity", "value"]);
            for (q, v) in summary {
                s.push(vec![q.into(), v]);
            }
            a.out.emit(|w| {
                w.write_all(&s.render(Format::Text))?;
                writeln!(w, "\nTurns (G, G′, G″):")?;
                w.write_all(&turns.render(Format::Text))
            })
        }
        Format::Csv | Format::Md => a.out.emit_table(&turns),
        // One row: the comparison with the turns nested.
        Format::Json => {
            let (mut columns, mut row): (Vec<&str>, Vec<Cell>) = summary.into_iter().unzip();
            columns.push("turns");
            row.push(turns.into_cell());
            a.out.emit_record(&columns, row)
        }
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

/// Values of a range converted to a type, naming the option on failure.
fn range_values<T: TryFrom<i64>>(r: &IntRange, what: &str, min: i64) -> anyhow::Result<Vec<T>> {
    if r.start() < min {
        anyhow::bail!("{what} {}..{}: values must be ≥ {min}", r.start(), r.end());
    }
    r.iter()
        .map(|v| T::try_from(v).map_err(|_| anyhow::anyhow!("{what} {v} is too large")))
        .collect()
}

fn standard(a: StandardArgs) -> anyhow::Result<()> {
    let ks: Vec<u32> = range_values(&a.k, "--k", 1)?;
    let ms: Vec<u64> = range_values(&a.m, "--m", 1)?;
    let mut games = Vec::new();
    for &k in &ks {
        for &m in &ms {
            games.push((k, m, standard_form_game(k, m)?.to_vec()));
        }
    }
    let table = table_for(
        &games.iter().map(|(_, _, g)| g.clone()).collect::<Vec<_>>(),
        a.memory.memory_limit,
    )?;
    let fractal = |reading| Strategy::Fractal {
        f: Contraction::Half,
        reading,
    };
    let mut t = Table::new(&[
        "k",
        "m",
        "h1",
        "h2",
        "h3",
        "v",
        "v_flip_flop",
        "v_fractal_largest",
        "v_fractal_smallest",
    ]);
    for (k, m, g) in &games {
        let mut row: Vec<Cell> = vec![(*k).into(), Cell::Int(*m as i64)];
        row.extend(g.iter().map(|&h| Cell::from(h)));
        row.push(Cell::Int(value_with(table.as_ref(), g)?.v));
        for s in [
            Strategy::FlipFlop,
            fractal(Reading::Largest),
            fractal(Reading::Smallest),
        ] {
            row.push(Cell::Int(play_strategy(&s, g)?.value));
        }
        t.push(row);
    }
    a.out.emit_table(&t)
}

fn frak_family(a: FrakArgs) -> anyhow::Result<()> {
    let avals: Vec<Candies> = range_values(&a.a, "--a", 1)?;
    let ms: Vec<u64> = range_values(&a.m, "--m", 1)?;
    let xs: Vec<Candies> = range_values(&a.x, "--x", 0)?;
    let mut games = Vec::new();
    for &av in &avals {
        let low = 1u64 << (31 - av.leading_zeros());
        for &m in &ms {
            for &x in xs.iter().filter(|&&x| u64::from(x) < low) {
                games.push((av, m, x, frak(av, m, x)?.to_vec()));
            }
        }
    }
    if games.is_empty() {
        anyhow::bail!("no game 𝔊(a, m, x) in these ranges: x must be below 2^⌊log₂ a⌋");
    }
    let table = table_for(
        &games.iter().map(|g| g.3.clone()).collect::<Vec<_>>(),
        a.memory.memory_limit,
    )?;
    let mut t = Table::new(&["a", "m", "x", "h1", "h2", "h3", "v", "n_l", "n_w"]);
    for (av, m, x, g) in &games {
        let v = value_with(table.as_ref(), g)?;
        let mut row: Vec<Cell> = vec![(*av).into(), Cell::Int(*m as i64), (*x).into()];
        row.extend(g.iter().map(|&h| Cell::from(h)));
        row.extend([
            Cell::Int(v.v),
            Cell::Int(v.n_l as i64),
            Cell::Int(v.n_w as i64),
        ]);
        t.push(row);
    }
    a.out.emit_table(&t)
}
