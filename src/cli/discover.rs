//! `nimlab discover …`: closed forms across a whole space of families, as an atlas ranked by
//! novelty (the mathematics is in the library's `discover` module).

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};

use super::args::{SolveArgs, parse_int_range};
use super::guard::Size;
use super::output::OutputArgs;
use crate::claims::Registry;
use crate::discover::candy::{CandySpace, discover as discover_candy};
use crate::discover::scoring::{ScoringSpace, discover, twice};
use crate::export::Format;
use crate::num::IntRange;

#[derive(Debug, Subcommand)]
pub enum DiscoverCommand {
    /// Scoring Nim families whose heaps are a·k + b: the payoff's closed form in (N, k) and the
    /// forms of c⁻, c⁺ and the breakpoint count, mined on --k and re-verified beyond it.
    #[command(
        after_help = "Examples:\n  nimlab discover scoring                                   # 3 heaps, a in 0..3, b in -1..3, k = 1..16\n  nimlab discover scoring --format csv -o atlas.csv\n  nimlab discover scoring --heaps 4 --slopes 0..1 --offsets=0..2 --k 1..12\n  nimlab discover scoring --claims data/claims/scoring-nim.toml --format json\n\nEach family is mined on --k, then its forms are compared exactly with every member up to\n--verify-to (default: twice the mined range). A result is new when no claim of the claim\nfiles (default: data/claims/*.toml when present) states a form for the family. Families come\nfirst when new and re-verified, then known, then broken, then without a form."
    )]
    Scoring(ScoringArgs),
    /// Candy Nim families [a, 2^K·m + x, 2^K·m + (a xor x)] (P-positions for a, x < 2^K): the
    /// forms of V, N_L and N_W in m, mined on --m and re-verified beyond it.
    #[command(
        after_help = "Examples:\n  nimlab discover candy                          # K = 5: a in 1..31, every x < 32, m = 1..16\n  nimlab discover candy --bits 6 --a 1..63 --format csv -o atlas.csv\n  nimlab discover candy --bits 3 --m 1..12 --verify-to 40\n\nThe families for x and a xor x are one. Each is mined on --m, then its three forms are\ncompared exactly with every member up to --verify-to (default: twice the mined range). A family\nis covered when all three hold there. A result is new when no claim of the claim files\n(default: data/claims/*.toml when present) states candy_v, candy_nl or candy_nw of a heap list\nthat specialises to it."
    )]
    Candy(CandyArgs),
}

#[derive(Debug, Args)]
pub struct CandyArgs {
    /// K: the growing heaps are 2^K·m + x and 2^K·m + (a xor x).
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = super::args::ranged(0, u32::MAX))]
    bits: u32,
    /// The values of a (1 ≤ a < 2^K).
    #[arg(long, value_name = "RANGE", default_value = "1..31", value_parser = parse_int_range)]
    a: IntRange,
    /// The members the miner sees.
    #[arg(long, value_name = "RANGE", default_value = "1..16", value_parser = parse_int_range)]
    m: IntRange,
    /// The last member re-verified (default: twice the mined range).
    #[arg(long, value_name = "M", allow_negative_numbers = true, value_parser = super::args::ranged(i64::MIN, i64::MAX))]
    verify_to: Option<i64>,
    /// Claim files whose claims make a result known (default: data/claims/*.toml when present).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    claims: Vec<PathBuf>,
    /// Judge no result new or known.
    #[arg(long, conflicts_with = "claims")]
    no_claims: bool,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct ScoringArgs {
    /// Heaps per family.
    #[arg(long, value_name = "H", default_value_t = 3, value_parser = super::args::ranged(0, usize::MAX))]
    heaps: usize,
    /// Slopes a of the heaps a·k + b.
    #[arg(long, value_name = "RANGE", default_value = "0..3", value_parser = parse_int_range)]
    slopes: IntRange,
    /// Offsets b of the heaps a·k + b (write --offsets=-1..3).
    #[arg(long, value_name = "RANGE", default_value = "-1..3", allow_hyphen_values = true, value_parser = parse_int_range)]
    offsets: IntRange,
    /// The members the miner sees.
    #[arg(long, value_name = "RANGE", default_value = "1..16", value_parser = parse_int_range)]
    k: IntRange,
    /// The last member re-verified (default: twice the mined range).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = super::args::ranged(i64::MIN, i64::MAX))]
    verify_to: Option<i64>,
    /// Claim files whose claims make a result known (default: data/claims/*.toml when present).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    claims: Vec<PathBuf>,
    /// Judge no result new or known.
    #[arg(long, conflicts_with = "claims")]
    no_claims: bool,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(cmd: DiscoverCommand) -> anyhow::Result<()> {
    match cmd {
        DiscoverCommand::Scoring(a) => scoring(a),
        DiscoverCommand::Candy(a) => candy(a),
    }
}

/// The claim files a result is judged against: those named, else `data/claims/*.toml` in
/// file-name order when the folder exists.
fn registries(named: &[PathBuf], none: bool) -> anyhow::Result<Vec<Registry>> {
    if none {
        return Ok(Vec::new());
    }
    let paths: Vec<PathBuf> = if named.is_empty() {
        let dir = std::path::Path::new("data/claims");
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(Vec::new());
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        paths.sort();
        paths
    } else {
        named.to_vec()
    };
    paths
        .iter()
        .map(|p| {
            Registry::load(p).with_context(|| format!("reading the claim file {}", p.display()))
        })
        .collect()
}

fn scoring(a: ScoringArgs) -> anyhow::Result<()> {
    let space = ScoringSpace {
        heaps: a.heaps,
        slopes: a.slopes,
        offsets: a.offsets,
        k: a.k,
        verify_to: a.verify_to.unwrap_or(twice(a.k)),
    };
    let cost = space.cost()?;
    let limits = a.solve.limits();
    if cost.bytes > limits.max_bytes {
        anyhow::bail!(
            "the table of all {}-heap positions with heaps ≤ {} needs about {}, over the memory limit of {}: narrow --slopes, --offsets, --k or --verify-to, or raise --memory-limit",
            space.heaps,
            cost.max_heap,
            Size(cost.bytes),
            Size(limits.max_bytes)
        );
    }
    let registries = registries(&a.claims, a.no_claims)?;
    if !super::progress_silenced() {
        eprintln!(
            "discover: {} families ({} more are shifts of these); one table of {} heaps ≤ {} (about {}); novelty against {} claim file(s)",
            cost.families,
            cost.duplicates,
            space.heaps,
            cost.max_heap,
            Size(cost.bytes),
            registries.len()
        );
    }
    let pb = super::progress_bar(0, "solving the table", "steps");
    let atlas = discover(&space, &registries, &limits, &super::Bar(&pb));
    pb.finish_and_clear();
    let atlas = atlas?;
    match a.out.format {
        Format::Text => a.out.emit(|w| w.write_all(atlas.text().as_bytes())),
        _ => a.out.emit_table(&atlas.table()),
    }
}

fn candy(a: CandyArgs) -> anyhow::Result<()> {
    let space = CandySpace {
        bits: a.bits,
        a: a.a,
        m: a.m,
        verify_to: a.verify_to.unwrap_or(twice(a.m)),
    };
    let cost = space.cost()?;
    let limits = a.solve.limits();
    if cost.bytes > u128::from(limits.max_bytes) {
        anyhow::bail!(
            "the value table covering every member (heaps ≤ {}) needs about {}, over the memory limit of {}: narrow --bits, --m or --verify-to, or raise --memory-limit",
            cost.max_heap,
            Size(u64::try_from(cost.bytes).unwrap_or(u64::MAX)),
            Size(limits.max_bytes)
        );
    }
    let registries = registries(&a.claims, a.no_claims)?;
    if !super::progress_silenced() {
        eprintln!(
            "discover: {} families; one value table for heaps ≤ {} (about {}); novelty against {} claim file(s)",
            cost.families,
            cost.max_heap,
            Size(u64::try_from(cost.bytes).unwrap_or(u64::MAX)),
            registries.len()
        );
    }
    let pb = super::progress_bar(0, "solving the table", "steps");
    let atlas = discover_candy(&space, &registries, limits.max_bytes, &super::Bar(&pb));
    pb.finish_and_clear();
    let atlas = atlas?;
    match a.out.format {
        Format::Text => a.out.emit(|w| w.write_all(atlas.text().as_bytes())),
        _ => a.out.emit_table(&atlas.table()),
    }
}
