//! Sweeps on clusters: `--shard I/N` and `--threads N` for the survey commands, the manifest and
//! the skip of a complete shard, and `nimlab merge`, which joins the shards (see
//! [`crate::shard`] for the layout and the checks).

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use itertools::Itertools;

use super::output::OutputArgs;
use crate::export::{Format, RowEncoder, TableWriter};
use crate::fsio;
use crate::shard::{
    HashingWriter, ItemRange, Manifest, Shard, SurveySummary, SweepId, completed, cpu_seconds,
    manifest_path, merge,
};

/// Options of a survey that may run as one shard of a job array.
#[derive(Debug, Clone, Args)]
pub struct SweepArgs {
    /// Survey only shard I of N, a contiguous part of the enumeration (0-based: 0 ≤ I < N, as
    /// SLURM_ARRAY_TASK_ID). A shard is CSV and only shard 0 writes the header, so the shards
    /// concatenated in order are the whole survey; with -o FILE a manifest FILE.manifest.json
    /// is written beside it, and a rerun skips the shard when both are complete.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Worker threads [default: RAYON_NUM_THREADS, else one per core].
    #[arg(long, value_name = "N", value_parser = super::args::ranged(1u16, 4096))]
    pub threads: Option<u16>,
}

fn parse_shard(s: &str) -> Result<Shard, String> {
    s.parse().map_err(|e: crate::error::Error| e.to_string())
}

impl SweepArgs {
    /// Sizes the worker pool to --threads (rayon reads RAYON_NUM_THREADS itself otherwise).
    pub fn apply_threads(&self) -> anyhow::Result<()> {
        if let Some(n) = self.threads {
            rayon::ThreadPoolBuilder::new()
                .num_threads(usize::from(n))
                .build_global()
                .context("--threads")?;
        }
        Ok(())
    }
}

/// A survey over the items it is given, writing its rows and returning their summary.
pub type SurveyBody<'b> = dyn FnMut(Range<u64>, &mut TableWriter<'_, dyn Write + '_>) -> anyhow::Result<SurveySummary>
    + 'b;

/// One run of a sweep: the whole of it, or one shard.
pub struct SweepRun<'a> {
    /// The sweep the run belongs to.
    pub id: SweepId,
    /// The options the run was given.
    pub sweep: &'a SweepArgs,
    /// Where the rows go.
    pub out: &'a OutputArgs,
    /// The items of the whole sweep.
    pub total: u64,
}

impl SweepRun<'_> {
    /// The output file a manifest goes beside: a regular `-o FILE`, not standard output.
    fn output_file(&self) -> Option<&Path> {
        let path = self.out.output.as_deref()?;
        (!fsio::is_stdio(path)).then_some(path)
    }

    /// Runs the survey `body` over this run's items, writing its rows as the format and the
    /// shard say, then the manifest; or skips a shard whose earlier run is complete. Returns
    /// the summary of the rows (`None` when skipped).
    pub fn run(
        &self,
        columns: &[String],
        body: &mut SurveyBody<'_>,
    ) -> anyhow::Result<Option<SurveySummary>> {
        let shard = self.sweep.shard;
        let format = match (shard, self.out.format) {
            (None, f) => f,
            (Some(_), Format::Text | Format::Csv) => Format::Csv,
            (Some(s), f) => anyhow::bail!(
                "--shard {s} writes CSV (the shards concatenate to the whole survey); --format {} cannot be split",
                f.name()
            ),
        };
        if let (Some(s), Some(path)) = (shard, self.output_file())
            && let Some(m) = completed(path, &self.id, s)
        {
            eprintln!(
                "shard {s}: {} and its manifest are complete ({} rows); skipped (remove them to run it again)",
                path.display(),
                m.rows
            );
            return Ok(None);
        }
        let this = shard.unwrap_or(Shard::WHOLE);
        let items = this.items(self.total);
        let mut summary = None;
        let mut written = (0u64, 0u64, String::new());
        let mut failed: Option<anyhow::Error> = None;
        let result = self.out.emit(|w| {
            let mut hashing = HashingWriter::new(w);
            {
                let sink: &mut dyn Write = &mut hashing;
                let mut writer = if this.is_first() {
                    TableWriter::new(format, columns, sink)?
                } else {
                    TableWriter::csv_continuation(columns, sink)
                };
                match body(items.clone(), &mut writer) {
                    Ok(s) => summary = Some(s),
                    Err(e) => {
                        failed = Some(e);
                        return Err(std::io::Error::other("the survey failed"));
                    }
                }
                written.0 = writer.rows();
                writer.finish()?;
            }
            hashing.flush()?;
            written.1 = hashing.bytes();
            written.2 = hashing.sha256_hex();
            Ok(())
        });
        if let Some(e) = failed {
            return Err(e);
        }
        result.context("writing the survey")?;
        let summary = summary.expect("a survey that succeeded has a summary");
        if let (Some(s), Some(path)) = (shard, self.output_file())
            && std::fs::metadata(path).is_ok_and(|m| m.is_file())
        {
            let (nimlab, commit) = SweepId::build();
            let manifest = Manifest {
                nimlab,
                commit,
                command: self.id.command.clone(),
                arguments: self.id.arguments.clone(),
                shard: s,
                items: ItemRange {
                    first: items.start,
                    end: items.end,
                    total: self.total,
                },
                rows: written.0,
                bytes: written.1,
                sha256: written.2,
                cpu_seconds: cpu_seconds(),
                summary: summary.clone(),
            };
            let target = manifest_path(path);
            fsio::write_output(&target, |w| w.write_all(manifest.to_json().as_bytes()))
                .with_context(|| format!("writing the manifest {}", target.display()))?;
        }
        Ok(Some(summary))
    }
    /// Prints the summary of a run that was not skipped on stderr, naming its shard.
    pub fn report(&self, summary: Option<SurveySummary>) {
        if let Some(summary) = summary {
            let shard = self
                .sweep
                .shard
                .map(|s| format!("shard {s}: "))
                .unwrap_or_default();
            eprintln!("{shard}{}", describe_survey(&summary));
        }
    }
}

/// Writes one batch of a survey engine's rows: an I/O error is kept in `io_error` whole (a
/// closed pipe stays `BrokenPipe`) while the engine gets a plain error that stops it.
pub fn write_batch(
    writer: &mut TableWriter<'_, dyn Write + '_>,
    rows: RowEncoder,
    io_error: &mut Option<std::io::Error>,
) -> crate::error::Result<()> {
    writer.write(rows).map_err(|e| {
        let message = e.to_string();
        *io_error = Some(e);
        crate::error::Error::invalid(message)
    })
}

/// A survey body's outcome: the kept I/O error first, then the engine's own.
pub fn body_outcome(
    io_error: Option<std::io::Error>,
    surveyed: crate::error::Result<()>,
) -> anyhow::Result<()> {
    if let Some(e) = io_error {
        return Err(e.into());
    }
    Ok(surveyed?)
}

/// `nimlab merge`: shard outputs joined in shard order.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard outputs (any order), each with its FILE.manifest.json beside it.
    #[arg(value_name = "SHARD.csv", required = true)]
    parts: Vec<PathBuf>,
    /// Write to FILE instead of standard output (a regular file is replaced atomically).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Joins the shards and prints the survey's summary on stderr.
pub fn run_merge(a: MergeArgs) -> anyhow::Result<()> {
    let target = a.output.as_deref().unwrap_or(Path::new(fsio::STDIO));
    let mut merged = None;
    let mut failed = None;
    let result = fsio::write_output(target, |w| match merge(&a.parts, w) {
        Ok(m) => {
            merged = Some(m);
            Ok(())
        }
        Err(e) => {
            failed = Some(e);
            Err(std::io::Error::other("the merge failed"))
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    result.context("writing the merged survey")?;
    let merged = merged.expect("a merge that succeeded has its manifests");
    let cpu: f64 = merged.manifests.iter().map(|m| m.cpu_seconds).sum();
    let rows: u64 = merged.manifests.iter().map(|m| m.rows).sum();
    eprintln!(
        "merged {} shards of `nimlab {}` ({rows} rows, {cpu:.1} s of CPU); {}",
        merged.manifests.len(),
        merged.manifests[0].command,
        describe_survey(&merged.summary)
    );
    Ok(())
}

/// A survey's summary in one line, as `octal survey` and `merge` print it on stderr.
pub fn describe_survey(summary: &SurveySummary) -> String {
    let tally = match summary {
        SurveySummary::OctalSubtraction(tally) => tally,
        SurveySummary::OctalCodes(t) => {
            return format!(
                "{} codes; period PROVEN for {}, observed for {}, arithmetic period observed for {}, neither for {}",
                t.codes, t.proven, t.observed, t.arithmetic, t.unknown
            );
        }
        SurveySummary::CashSubsets(t) => {
            return format!(
                "{} sets; cash-periodic {}, not cash-periodic {}, undecided {}; win condition PROVEN for {}, MEMORY_LIMIT {}, NOT_SETTLED {}",
                t.sets,
                t.cash_periodic,
                t.not_cash_periodic,
                t.undecided,
                t.win_proven,
                t.win_memory_limit,
                t.win_not_settled
            );
        }
    };
    let exceptions: Vec<String> = tally
        .exceptions
        .iter()
        .take(5)
        .map(|(set, period)| format!("{{{}}}: period {period}", set.iter().join(",")))
        .collect();
    format!(
        "{} sets; period PROVEN for {}; least period = 2·max S for {}; 2·max S is a period (Conjecture 14) for {}{}",
        tally.sets,
        tally.proven,
        tally.twice_max,
        tally.divides,
        if exceptions.is_empty() {
            String::new()
        } else {
            format!("; exceptions: {}", exceptions.join("; "))
        }
    )
}
