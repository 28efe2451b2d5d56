//! `nimlab discover …`: closed forms across a whole space of families, as an atlas ranked by
//! novelty (the mathematics is in the library's `discover` module).

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Arg, Args, Subcommand};

use super::args::{SolveArgs, parse_int_range};
use super::guard::Size;
use super::output::OutputArgs;
use crate::claims::Registry;
use crate::discover::candy::{CandySpace, discover as discover_candy};
use crate::discover::cash::{CashSpace, discover as discover_cash};
use crate::discover::scoring::{ScoringSpace, default_retry_to, discover};
use crate::discover::subtraction::{SubtractionSpace, discover as discover_subtraction};
use crate::discover::{AtlasView, twice};
use crate::export::Format;
use crate::games::cash::MAX_CONDITION_TABLE;
use crate::games::scoring::Limits;
use crate::num::IntRange;
use crate::progress::Progress;
use crate::report::context::{AtlasCsv, AtlasReport, Parameter, Provenance};
use crate::report::{Files, Renderer, context_json, files, pdf};

#[derive(Debug, Subcommand)]
pub enum DiscoverCommand {
    /// Scoring Nim families whose heaps are a·k + b: the payoff's closed form in (N, k) and the
    /// forms of c⁻, c⁺ and the breakpoint count, mined on --k and re-verified beyond it.
    #[command(
        after_help = "Examples:\n  nimlab discover scoring                                   # 3 heaps, a in 0..3, b in -1..3, k = 1..16\n  nimlab discover scoring --format csv -o atlas.csv\n  nimlab discover scoring --heaps 4 --slopes 0..1 --offsets=0..2 --k 1..12\n  nimlab discover scoring --claims data/claims/scoring-nim.toml --format json\n  nimlab discover scoring --report atlas                    # atlas/atlas.md, atlas.tex, atlas.pdf\n  nimlab discover scoring --no-retry                        # misses left at k = 1..16\n\nEach family is mined on --k, then its forms are compared exactly with every member up to\n--verify-to (default: twice the mined range); a family without a form is mined again on a\nlonger run (--retry-to). A result is new when no claim of the claim files (default:\ndata/claims/*.toml when present) states a form for the family. Families come first when new\nand re-verified, then known, then broken, then without a form."
    )]
    Scoring(ScoringArgs),
    /// Candy Nim families [a, 2^K·m + x, 2^K·m + (a xor x)] (P-positions for a, x < 2^K): the
    /// forms of V, N_L and N_W in m, mined on --m and re-verified beyond it.
    #[command(
        after_help = "Examples:\n  nimlab discover candy                          # K = 5: a in 1..31, every x < 32, m = 1..16\n  nimlab discover candy --bits 6 --a 1..63 --format csv -o atlas.csv\n  nimlab discover candy --bits 3 --m 1..12 --verify-to 40\n  nimlab discover candy --report candy-atlas     # the atlas as a report (Markdown, LaTeX, PDF)\n  nimlab discover candy --heaps 4 --bits 3 --a 1..7   # [a, b, 8m + x, 8m + (a xor b xor x)]\n\nThe families for x and a xor x are one. Each is mined on --m, then its three forms are\ncompared exactly with every member up to --verify-to (default: twice the mined range). A family\nis covered when all three hold there. A result is new when no claim of the claim files\n(default: data/claims/*.toml when present) states candy_v, candy_nl or candy_nw of a heap list\nthat specialises to it."
    )]
    Candy(CandyArgs),
    /// NIM with Cash move sets A ⊆ {1..M}: f^I and f^II PROVEN for all n, cash-periodicity and
    /// the win condition of each set, and laws across the space.
    #[command(
        after_help = "Examples:\n  nimlab discover cash                               # every A of {1..10}: 1023 sets\n  nimlab discover cash --max-element 12 --sizes 2..3 --format csv -o cash-atlas.csv\n  nimlab discover cash --max-element 6 --format json\n  nimlab discover cash --max-element 4 --family-l 2..40   # the families {1, L}, {1, L, L+1}, {L, L+1} further\n  nimlab discover cash --max-element 6 --table families --format csv   # their forms in L, one row each\n  nimlab discover cash --max-element 8 --table laws --format json      # the laws across the space\n\nEach set's thresholds f^I, f^II are fitted as periodic-linear in n and PROVEN for all n by a\ncertificate (as `nimlab mine cash`); cash-periodicity follows from the proven forms, and for a\ncash-periodic set the win condition on A-critical states is found and PROVEN by induction (as\n`nimlab cash condition`). The rates are the slopes per period over the period: dollars per\nstone. Laws across the space fit the plain period, the cash period and the least and greatest\nrate as affine functions of (min A, max A) on the sets of each size, exactly (OBSERVED on the\nspace). The families {1, L}, {1, L, L+1} and {L, L+1} are followed over --family-l as `nimlab\nmine across cash` does: each member PROVEN, the forms in L (per residue class of L when they\nalternate) OBSERVED on the range. A result is new when no claim of the claim files\n(default: data/claims/*.toml when present) states f1 or f2 of a move set that specialises to\nit."
    )]
    Cash(CashArgs),
    /// Scoring subtraction games whose sets have elements a·L + b: the least preperiod and
    /// least period of G_s as quasi-polynomials in L, mined on --L and re-verified beyond it.
    #[command(
        after_help = "Examples:\n  nimlab discover subtraction                          # 2 elements a·L + b, a in 0..2, b in -2..3, L = 1..24\n  nimlab discover subtraction --size 3 --slopes 0..1 --offsets=-1..2 --format csv -o sub-atlas.csv\n  nimlab discover subtraction --L 1..20 --verify-to 48\n\nEach member's least preperiod and period are PROVEN by the window argument (as `nimlab octal\nperiod --subtract`); each quantity is fitted as a polynomial of degree <= 3 in L per residue\nclass of L modulo m <= 6, from some L0, on --L, then compared exactly with every member up to\n--verify-to (default: twice the mined range): HOLDS on that range, not PROVEN. The atlas also\nsays whether 2·max S is the least period (Conjecture 14) on every member."
    )]
    Subtraction(SubtractionArgs),
}

#[derive(Debug, Args)]
#[command(mut_args(verify_to_named("L")))]
pub struct SubtractionArgs {
    /// Elements per set.
    #[arg(long, value_name = "K", default_value_t = 2, value_parser = super::args::ranged(0, usize::MAX))]
    size: usize,
    /// Slopes a of the elements a·L + b.
    #[arg(long, value_name = "RANGE", default_value = "0..2", value_parser = parse_int_range)]
    slopes: IntRange,
    /// Offsets b of the elements a·L + b (write --offsets=-2..3).
    #[arg(long, value_name = "RANGE", default_value = "-2..3", allow_hyphen_values = true, value_parser = parse_int_range)]
    offsets: IntRange,
    /// The members the miner sees.
    #[arg(long = "L", value_name = "RANGE", default_value = "1..24", value_parser = parse_int_range)]
    l: IntRange,
    /// The period search gives up beyond this heap.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = super::args::ranged(1, u32::MAX))]
    max_heap: u32,
    #[command(flatten)]
    atlas: AtlasArgs,
}

#[derive(Debug, Args)]
pub struct CashArgs {
    /// M: the sets are the subsets of {1..M}.
    #[arg(long, value_name = "M", default_value_t = 10, value_parser = super::args::ranged(0, u64::MAX))]
    max_element: u64,
    /// The sizes |A| kept (default: all, 1..M).
    #[arg(long, value_name = "RANGE", value_parser = parse_int_range)]
    sizes: Option<IntRange>,
    /// The values of L over which the families {1, L}, {1, L, L+1} and {L, L+1} are followed:
    /// each member's forms PROVEN, their period, start, slope and intercepts fitted in L.
    #[arg(long, value_name = "RANGE", default_value = "2..24", value_parser = parse_int_range, conflicts_with = "no_families")]
    family_l: IntRange,
    /// Leave the families across L out.
    #[arg(long)]
    no_families: bool,
    /// Which of the atlas's tables to print.
    #[arg(long, value_enum, default_value_t = CashAtlasTable::Sets, conflicts_with = "report")]
    table: CashAtlasTable,
    #[command(flatten)]
    claims: ClaimsArgs,
    #[command(flatten)]
    memory: super::candy::MemoryArgs,
    #[command(flatten)]
    out: OutputArgs,
    #[command(flatten)]
    report: ReportArgs,
}

/// The tables of the cash atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CashAtlasTable {
    /// One row per move set: its forms, cash-periodicity and win condition.
    Sets,
    /// One row per family across L, parity of L and quantity: its form in L.
    Families,
    /// One row per law across the space: a quantity affine in (min A, max A) on a size.
    Laws,
}

impl CashAtlasTable {
    /// The table's name among the atlas's other tables (`None`: the main one).
    fn more_table(self) -> Option<&'static str> {
        match self {
            CashAtlasTable::Sets => None,
            CashAtlasTable::Families => Some("families"),
            CashAtlasTable::Laws => Some("laws"),
        }
    }
}

#[derive(Debug, Args)]
#[command(mut_args(verify_to_named("M")))]
pub struct CandyArgs {
    /// Heaps per family: 3, [a, 2^K·m + x, 2^K·m + (a xor x)], or 4, [a, b, 2^K·m + x,
    /// 2^K·m + (a xor b xor x)] with a ≤ b.
    #[arg(long, value_name = "H", default_value_t = 3, value_parser = super::args::ranged(0, usize::MAX))]
    heaps: usize,
    /// K: the growing heaps are 2^K·m + x and 2^K·m + (a xor x).
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = super::args::ranged(0, u32::MAX))]
    bits: u32,
    /// The values of a (1 ≤ a < 2^K).
    #[arg(long, value_name = "RANGE", default_value = "1..31", value_parser = parse_int_range)]
    a: IntRange,
    /// The members the miner sees.
    #[arg(long, value_name = "RANGE", default_value = "1..16", value_parser = parse_int_range)]
    m: IntRange,
    /// Also write a forms file for `nimlab prove`: V of every family of the block (a = 0..2^K − 1,
    /// as the closure needs) as a form in m, fitted on m = 0..--verify-to (K ≤ 6).
    #[arg(long, value_name = "FILE")]
    forms: Option<PathBuf>,
    #[command(flatten)]
    atlas: AtlasArgs,
}

#[derive(Debug, Args)]
#[command(mut_args(verify_to_named("K")))]
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
    /// Mine a family without a form on --k again up to member K, as far as a table of heaps
    /// twice as large holds (default: four times the end of --k)
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = super::args::ranged(i64::MIN, i64::MAX))]
    retry_to: Option<i64>,
    /// No second look: the families without a form on --k are left at that
    #[arg(long, conflicts_with = "retry_to")]
    no_retry: bool,
    #[command(flatten)]
    atlas: AtlasArgs,
}

/// The options every space's atlas shares, after the space's own; each space names the
/// value of `--verify-to` after its parameter.
#[derive(Debug, Args)]
pub struct AtlasArgs {
    /// The last member re-verified (default: twice the mined range).
    #[arg(long, allow_negative_numbers = true, value_parser = super::args::ranged(i64::MIN, i64::MAX))]
    verify_to: Option<i64>,
    #[command(flatten)]
    claims: ClaimsArgs,
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    out: OutputArgs,
    #[command(flatten)]
    report: ReportArgs,
}

/// The atlas rendered as a report instead of printed.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Render the atlas as a report into DIR instead of printing it: atlas.md, atlas.tex (and
    /// atlas.pdf when pdflatex is installed), atlas.csv, atlas.json, and the atlas's other
    /// tables as NAME.csv (cash: families.csv, laws.csv); DIR is replaced atomically
    #[arg(long, value_name = "DIR", conflicts_with_all = ["format", "output"])]
    report: Option<PathBuf>,
}

/// The claim files that judge novelty.
#[derive(Debug, Args)]
pub struct ClaimsArgs {
    /// Claim files whose claims make a result known (default: data/claims/*.toml when present).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    claims: Vec<PathBuf>,
    /// Judge no result new or known.
    #[arg(long, conflicts_with = "claims")]
    no_claims: bool,
}

/// Names the value of `--verify-to` after a space's parameter. In place: `Command::mut_arg`
/// would move the option last, and the shell completions list options in that order.
fn verify_to_named(name: &'static str) -> impl FnMut(Arg) -> Arg {
    move |a| {
        if a.get_id() == "verify_to" {
            a.value_name(name)
        } else {
            a
        }
    }
}

impl AtlasArgs {
    /// The re-verification bound: the one given, else twice the `mined` range.
    fn verify_to(&self, mined: IntRange) -> i64 {
        self.verify_to.unwrap_or(twice(mined))
    }

    /// [`atlas`] with these options' claim files, output and memory limit.
    fn atlas<A: AtlasView>(
        &self,
        plan: Plan,
        discover: impl FnOnce(&[Registry], &Limits, &dyn Progress) -> crate::error::Result<A>,
    ) -> anyhow::Result<()> {
        atlas(
            &self.claims,
            (&self.out, None),
            &self.report,
            &self.solve.limits(),
            plan,
            discover,
        )
    }
}

/// A space's table as its cost sized it, before any work.
struct Plan {
    /// The rendered atlas's title.
    title: &'static str,
    /// The table in words, for the refusal over the memory limit.
    table: String,
    /// The flags that shrink the table, named in the refusal.
    narrow: &'static str,
    /// The work in words, for the line announcing it.
    work: String,
    /// The table's estimated bytes.
    bytes: u128,
}

pub fn run(cmd: DiscoverCommand) -> anyhow::Result<()> {
    match cmd {
        DiscoverCommand::Scoring(a) => scoring(a),
        DiscoverCommand::Candy(a) => candy(a),
        DiscoverCommand::Cash(a) => cash(a),
        DiscoverCommand::Subtraction(a) => subtraction(a),
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
        verify_to: a.atlas.verify_to(a.k),
        retry_to: (!a.no_retry).then(|| a.retry_to.unwrap_or(default_retry_to(a.k))),
    };
    let cost = space.cost()?;
    let plan = Plan {
        title: "Atlas of Scoring Nim families",
        table: format!(
            "the table of all {}-heap positions with heaps ≤ {}",
            space.heaps, cost.max_heap
        ),
        narrow: "--slopes, --offsets, --k or --verify-to",
        work: format!(
            "{} families ({} more are shifts of these); one table of {} heaps ≤ {}",
            cost.families, cost.duplicates, space.heaps, cost.max_heap
        ),
        bytes: u128::from(cost.bytes),
    };
    a.atlas.atlas(plan, |registries, limits, progress| {
        discover(&space, registries, limits, progress)
    })
}

fn candy(a: CandyArgs) -> anyhow::Result<()> {
    let space = CandySpace {
        heaps: a.heaps,
        bits: a.bits,
        a: a.a,
        m: a.m,
        verify_to: a.atlas.verify_to(a.m),
    };
    let cost = space.cost()?;
    if a.forms.is_some() && space.heaps != 3 {
        anyhow::bail!(
            "--forms writes the forms of the 3-heap families of a block (for `nimlab prove`); it does not apply to --heaps {}",
            space.heaps
        );
    }
    if let Some(path) = &a.forms {
        let text = crate::discover::candy::forms_file(
            space.bits,
            space.verify_to,
            a.atlas.solve.limits().max_bytes,
            &crate::progress::Silent,
        )?;
        crate::fsio::write_output(path, |w| w.write_all(text.as_bytes()))?;
    }
    let plan = Plan {
        title: "Atlas of Candy Nim families",
        table: format!(
            "the value table covering every member (heaps ≤ {})",
            cost.max_heap
        ),
        narrow: "--bits, --m or --verify-to",
        work: format!(
            "{} families; one value table for heaps ≤ {}",
            cost.families, cost.max_heap
        ),
        bytes: cost.bytes,
    };
    a.atlas.atlas(plan, |registries, limits, progress| {
        discover_candy(&space, registries, limits.max_bytes, progress)
    })
}

fn cash(a: CashArgs) -> anyhow::Result<()> {
    let space = CashSpace {
        max_element: a.max_element,
        sizes: match a.sizes {
            Some(sizes) => sizes,
            None => IntRange::new(1, a.max_element.clamp(1, i64::MAX as u64) as i64)?,
        },
        family_l: (!a.no_families).then_some(a.family_l),
    };
    let cost = space.cost(rayon::current_num_threads())?;
    let plan = Plan {
        title: "Atlas of NIM with Cash move sets",
        table: format!(
            "proving {} sets ({} at once, each with win tables up to n = {MAX_CONDITION_TABLE})",
            cost.sets,
            rayon::current_num_threads()
        ),
        narrow: "--max-element or --sizes",
        work: format!("{} move sets of {{1..{}}}", cost.sets, space.max_element),
        bytes: cost.bytes,
    };
    let limits = Limits {
        max_bytes: a.memory.memory_limit,
    };
    atlas(
        &a.claims,
        (&a.out, a.table.more_table()),
        &a.report,
        &limits,
        plan,
        |registries, limits, progress| {
            discover_cash(&space, registries, limits.max_bytes, progress)
        },
    )
}

fn subtraction(a: SubtractionArgs) -> anyhow::Result<()> {
    let space = SubtractionSpace {
        size: a.size,
        slopes: a.slopes,
        offsets: a.offsets,
        verify_to: a.atlas.verify_to(a.l),
        l: a.l,
        max_heap: a.max_heap,
    };
    let cost = space.cost()?;
    // A period search keeps about 24 bytes per term (the values and the window's hash) and
    // runs to at most --max-heap terms, one per worker.
    let bytes = 24 * u128::from(space.max_heap) * rayon::current_num_threads() as u128;
    let plan = Plan {
        title: "Atlas of scoring subtraction games",
        table: format!("the period searches up to heap {}", space.max_heap),
        narrow: "--max-heap",
        work: format!(
            "{} families ({} more are shifts of these), {} period searches, elements up to {}",
            cost.families, cost.duplicates, cost.members, cost.max_element
        ),
        bytes,
    };
    a.atlas.atlas(plan, |registries, limits, progress| {
        discover_subtraction(&space, registries, limits, progress)
    })
}

/// What every space does once its cost is known: refuses the table over the memory limit,
/// loads the claim files, announces the work, runs `discover` under a progress bar and emits
/// the atlas in the format asked (the text report, or its table; `out.1` names one of its
/// other tables, [`AtlasView::more_tables`], printed in any format instead).
fn atlas<A: AtlasView>(
    claims: &ClaimsArgs,
    out: (&OutputArgs, Option<&str>),
    report: &ReportArgs,
    limits: &Limits,
    plan: Plan,
    discover: impl FnOnce(&[Registry], &Limits, &dyn Progress) -> crate::error::Result<A>,
) -> anyhow::Result<()> {
    // The estimate may pass u64 (Candy Nim's is u128): shown saturated, it is over any limit.
    let size = Size(u64::try_from(plan.bytes).unwrap_or(u64::MAX));
    if plan.bytes > u128::from(limits.max_bytes) {
        anyhow::bail!(
            "{} needs about {size}, over the memory limit of {}: narrow {}, or raise --memory-limit",
            plan.table,
            Size(limits.max_bytes),
            plan.narrow
        );
    }
    if let Some(dir) = &report.report {
        // Refused before any work, not after.
        files::check_target(dir).with_context(|| format!("--report {}", dir.display()))?;
    }
    let registries = registries(&claims.claims, claims.no_claims)?;
    if !super::progress_silenced() {
        eprintln!(
            "discover: {} (about {size}); novelty against {} claim file(s)",
            plan.work,
            registries.len()
        );
    }
    let pb = super::progress_bar(0, "solving the table", "steps");
    let atlas = discover(&registries, limits, &super::Bar(&pb));
    pb.finish_and_clear();
    let atlas = atlas?;
    if let Some(dir) = &report.report {
        return write_report(dir, plan.title, &atlas, &registries);
    }
    let (out, more) = out;
    if let Some(name) = more {
        let table = atlas
            .more_tables()
            .into_iter()
            .find_map(|(n, _, t)| (n == name).then_some(t))
            .with_context(|| format!("this atlas has no table `{name}`"))?;
        return out.emit_table(&table);
    }
    match out.format {
        Format::Text => out.emit(|w| w.write_all(atlas.text().as_bytes())),
        _ => out.emit_table(&atlas.table()),
    }
}

/// The rendered atlas in `dir`: Markdown, LaTeX (and the PDF when pdflatex is installed), the
/// table as CSV and the document's context as JSON, installed in one atomic step.
fn write_report<A: AtlasView>(
    dir: &Path,
    title: &str,
    atlas: &A,
    registries: &[Registry],
) -> anyhow::Result<()> {
    let (summary, sections) = atlas.document();
    let more = atlas.more_tables();
    let claim_files: Vec<String> = registries
        .iter()
        .map(|r| r.path.display().to_string())
        .collect();
    // Lossy: a name that is not UTF-8 is shown, not refused (the run itself had it).
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let command = shlex::try_join(std::iter::once("nimlab").chain(args.iter().map(String::as_str)))
        .unwrap_or_else(|_| format!("nimlab {}", args.join(" ")));
    let context = AtlasReport {
        title: title.to_string(),
        space: atlas.space_math().to_string(),
        provenance: Provenance {
            version: env!("CARGO_PKG_VERSION").to_string(),
            command,
            parameters: vec![Parameter {
                name: "claim files".to_string(),
                value: if claim_files.is_empty() {
                    "none".to_string()
                } else {
                    claim_files.join(", ")
                },
            }],
            commit: super::study::build_commit(),
            paper: None,
        },
        summary,
        sections,
        csv: "atlas.csv".to_string(),
        row: atlas.row().to_string(),
        more_csv: more
            .iter()
            .map(|(name, about, _)| AtlasCsv {
                file: format!("{name}.csv"),
                about: about.to_string(),
            })
            .collect(),
    };
    let renderer = Renderer::new()?;
    let mut out = Files::new();
    out.insert("atlas.md", renderer.atlas_markdown(&context)?.into_bytes())?;
    out.insert("atlas.tex", renderer.atlas_latex(&context)?.into_bytes())?;
    out.insert("atlas.csv", atlas.table().render(Format::Csv))?;
    for (name, _, table) in &more {
        out.insert(&format!("{name}.csv"), table.render(Format::Csv))?;
    }
    out.insert("atlas.json", context_json(&context)?)?;
    if !super::progress_silenced() && pdf::pdflatex_available() {
        eprintln!("compiling atlas.tex with pdflatex");
    }
    match pdf::compile(&out, "atlas.tex")? {
        Some(compiled) => {
            for o in &compiled.overfull {
                eprintln!("warning: atlas.tex: {o}");
            }
            out.insert("atlas.pdf", compiled.bytes)?;
        }
        None if !super::progress_silenced() => {
            eprintln!("note: pdflatex is not installed, so atlas.pdf is not rendered");
        }
        None => {}
    }
    for note in files::recover(dir)? {
        eprintln!("note: {note}");
    }
    files::install(dir, &out)?;
    if !super::progress_silenced() {
        eprintln!("wrote {} files into {}", out.len(), dir.display());
    }
    Ok(())
}
