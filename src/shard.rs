//! Sweeps in shards: a survey's enumeration split into N contiguous parts — one per task of a
//! Slurm job array or a GNU parallel job — each written with a manifest, skipped when rerun
//! complete, and merged back byte for byte.
//!
//! Shard i of N (0-based, as `SLURM_ARRAY_TASK_ID` under `--array=0-(N−1)`) covers the items
//! ⌊T·i/N⌋ ≤ j < ⌊T·(i+1)/N⌋ of the T items in enumeration order, so the shards tile the sweep
//! in order; as only shard 0 writes the CSV header, their outputs concatenated in order are the
//! bytes of the single run. Beside each output `FILE` a manifest `FILE.manifest.json` records
//! what made it: nimlab's version and commit, the survey and the arguments that define it, the
//! shard and its items, the rows, bytes and SHA-256 of the output, the CPU time, and the
//! survey's summary of its rows. A rerun finds the shard complete when the manifest agrees with
//! the run and the output still has those bytes, and skips it; `merge` checks that the
//! manifests describe one sweep, every shard once, before it joins them.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::games::normal_play::CodeTally;
use crate::games::scoring::Conjecture14Tally;
use crate::tables::cash_survey::CashTally;

/// One of N contiguous parts of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 0-based: 0, 1, …, count − 1.
    pub index: u64,
    /// N ≥ 1.
    pub count: u64,
}

impl Shard {
    /// The whole sweep as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`; an error naming the values unless 0 ≤ index < count.
    pub fn new(index: u64, count: u64) -> Result<Shard> {
        if count == 0 || index >= count {
            return Err(Error::invalid(format!(
                "shard {index}/{count}: a shard is I/N with 0 ≤ I < N (0-based, as SLURM_ARRAY_TASK_ID)"
            )));
        }
        Ok(Shard { index, count })
    }

    /// The items j of the `total` in enumeration order that this shard covers.
    pub fn items(&self, total: u64) -> Range<u64> {
        let cut = |i: u64| (u128::from(total) * u128::from(i) / u128::from(self.count)) as u64;
        cut(self.index)..cut(self.index + 1)
    }

    /// Whether this shard opens the sweep (and so writes the header).
    pub fn is_first(&self) -> bool {
        self.index == 0
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = Error;

    /// `I/N`, e.g. `3/8`.
    fn from_str(s: &str) -> Result<Shard> {
        let bad = || {
            Error::invalid(format!(
                "`{}` is not a shard; write I/N, e.g. 3/8 (0-based, 0 ≤ I < N)",
                crate::num::excerpt(s)
            ))
        };
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let i = i.trim().parse::<u64>().map_err(|_| bad())?;
        let n = n.trim().parse::<u64>().map_err(|_| bad())?;
        Shard::new(i, n)
    }
}

/// Which survey a sweep is, with the summary its rows add up to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "survey", content = "tally", rename_all = "kebab-case")]
pub enum SurveySummary {
    /// `octal survey --subtract-subsets-of`: periods of scoring subtraction games and
    /// Stewart's Conjecture 14.
    OctalSubtraction(Conjecture14Tally),
    /// `cash survey --set-subsets-of`: cash-periodicity and win conditions of move sets.
    CashSubsets(CashTally),
    /// `octal survey --codes`: normal-play periods of octal codes.
    OctalCodes(CodeTally),
}

impl SurveySummary {
    /// Adds the summary of the shard that follows; an error when the surveys differ.
    pub fn absorb(&mut self, next: SurveySummary) -> Result<()> {
        match (self, next) {
            (SurveySummary::OctalSubtraction(a), SurveySummary::OctalSubtraction(b)) => {
                a.absorb(b);
                Ok(())
            }
            (SurveySummary::CashSubsets(a), SurveySummary::CashSubsets(b)) => {
                a.absorb(b);
                Ok(())
            }
            (SurveySummary::OctalCodes(a), SurveySummary::OctalCodes(b)) => {
                a.absorb(b);
                Ok(())
            }
            (a, b) => Err(Error::invalid(format!(
                "summaries of different surveys: {a:?} and {b:?}"
            ))),
        }
    }
}

/// What made one shard's output, written beside it as `FILE.manifest.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// nimlab's version.
    pub nimlab: String,
    /// The commit nimlab was built from (`-dirty` when its tree differed).
    pub commit: String,
    /// The command, e.g. `octal survey`.
    pub command: String,
    /// The arguments that define the sweep (not the shard, the output or the threads).
    pub arguments: Vec<String>,
    /// This shard.
    pub shard: Shard,
    /// Its items: `first ≤ j < end` of `total`.
    pub items: ItemRange,
    /// Rows written (the header not counted).
    pub rows: u64,
    /// Bytes of the output.
    pub bytes: u64,
    /// SHA-256 of the output, lower-case hexadecimal.
    pub sha256: String,
    /// CPU time of the process (user + system), seconds.
    pub cpu_seconds: f64,
    /// The survey's summary of this shard's rows.
    pub summary: SurveySummary,
}

/// Items `first ≤ j < end` of `total`, in enumeration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemRange {
    /// The first item.
    pub first: u64,
    /// One past the last.
    pub end: u64,
    /// Items in the whole sweep.
    pub total: u64,
}

/// The sweep a run belongs to: what its manifest must agree with to be skipped or merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepId {
    /// The command, e.g. `octal survey`.
    pub command: String,
    /// The arguments that define the sweep.
    pub arguments: Vec<String>,
}

impl SweepId {
    /// The nimlab version and commit of this build.
    pub fn build() -> (String, String) {
        (
            env!("CARGO_PKG_VERSION").to_string(),
            env!("NIMLAB_COMMIT").to_string(),
        )
    }
}

/// Where the manifest of `output` lives: `output.manifest.json`.
pub fn manifest_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".manifest.json");
    PathBuf::from(name)
}

impl Manifest {
    /// Reads a manifest file.
    pub fn read(path: &Path) -> Result<Manifest> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Error::invalid(format!("cannot read the manifest {}: {e}", path.display()))
        })?;
        serde_json::from_str(&text).map_err(|e| {
            Error::invalid(format!(
                "{} is not a nimlab shard manifest: {e}",
                path.display()
            ))
        })
    }

    /// The manifest as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a manifest serializes");
        s.push('\n');
        s
    }

    /// Whether this manifest was written by this build for `sweep`'s `shard`.
    pub fn describes(&self, sweep: &SweepId, shard: Shard) -> bool {
        let (nimlab, commit) = SweepId::build();
        self.nimlab == nimlab
            && self.commit == commit
            && self.command == sweep.command
            && self.arguments == sweep.arguments
            && self.shard == shard
    }

    /// Whether `output` still holds the bytes this manifest records.
    pub fn matches_output(&self, output: &Path) -> io::Result<bool> {
        let Ok(meta) = std::fs::metadata(output) else {
            return Ok(false);
        };
        if !meta.is_file() || meta.len() != self.bytes {
            return Ok(false);
        }
        let mut hasher = HashingWriter::new(io::sink());
        io::copy(&mut BufReader::new(File::open(output)?), &mut hasher)?;
        Ok(hasher.sha256_hex() == self.sha256)
    }
}

/// The manifest of a complete earlier run of this shard at `output`, if there is one: the
/// manifest agrees with the run and the output still has its bytes.
pub fn completed(output: &Path, sweep: &SweepId, shard: Shard) -> Option<Manifest> {
    let manifest = Manifest::read(&manifest_path(output)).ok()?;
    (manifest.describes(sweep, shard) && manifest.matches_output(output).ok()?).then_some(manifest)
}

/// A writer that counts and hashes what passes through it.
pub struct HashingWriter<W: Write> {
    inner: W,
    hasher: Sha256,
    bytes: u64,
}

impl<W: Write> HashingWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> HashingWriter<W> {
        HashingWriter {
            inner,
            hasher: Sha256::new(),
            bytes: 0,
        }
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// SHA-256 of the bytes written so far, lower-case hexadecimal.
    pub fn sha256_hex(&self) -> String {
        self.hasher
            .clone()
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// CPU time of this process so far (user + system), in seconds.
pub fn cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the zeroed struct it is given; RUSAGE_SELF is always valid.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return 0.0;
        }
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// A sweep joined from its shards: their manifests in shard order.
#[derive(Clone, Debug)]
pub struct Merged {
    /// One manifest per shard, index 0 first.
    pub manifests: Vec<Manifest>,
    /// The summary of every row.
    pub summary: SurveySummary,
}

/// Joins shard outputs (any order) into `out`: every manifest must describe the same sweep by
/// the same build, every shard 0..N must be there once, and every output must still hold the
/// bytes its manifest records (checked as it is copied). Nothing is written when a check fails
/// before the copy; a copy that fails part way leaves `out` to the caller's atomic writer.
pub fn merge(parts: &[PathBuf], out: &mut dyn Write) -> Result<Merged> {
    if parts.is_empty() {
        return Err(Error::invalid("merge needs the shard outputs to join"));
    }
    let mut found: Vec<(Manifest, &PathBuf)> = Vec::new();
    for part in parts {
        let manifest = Manifest::read(&manifest_path(part)).map_err(|e| {
            Error::invalid(format!(
                "{}: no manifest beside it ({e}); was it written with --shard and -o?",
                part.display()
            ))
        })?;
        found.push((manifest, part));
    }
    found.sort_by_key(|(m, _)| m.shard.index);
    let (first, first_path) = (&found[0].0, found[0].1);
    for (m, path) in &found {
        let differs = |what: &str, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| {
            Error::invalid(format!(
                "{} and {} are not shards of one sweep: {what} {a:?} vs {b:?}",
                first_path.display(),
                path.display()
            ))
        };
        if (&m.nimlab, &m.commit) != (&first.nimlab, &first.commit) {
            return Err(differs(
                "nimlab",
                &(&first.nimlab, &first.commit),
                &(&m.nimlab, &m.commit),
            ));
        }
        if (&m.command, &m.arguments) != (&first.command, &first.arguments) {
            return Err(differs(
                "arguments",
                &(&first.command, &first.arguments),
                &(&m.command, &m.arguments),
            ));
        }
        if m.shard.count != first.shard.count {
            return Err(differs("shard count", &first.shard, &m.shard));
        }
    }
    let count = first.shard.count;
    for (expected, (m, path)) in (0..).zip(&found) {
        if m.shard.index != expected {
            let which = if m.shard.index < expected {
                format!("shard {} is given twice ({})", m.shard, path.display())
            } else {
                format!("shard {expected}/{count} is missing")
            };
            return Err(Error::invalid(which));
        }
    }
    if found.len() as u64 != count {
        return Err(Error::invalid(format!(
            "shard {}/{count} is missing",
            found.len()
        )));
    }
    let mut summary = first.summary.clone();
    for (m, _) in &found[1..] {
        summary.absorb(m.summary.clone())?;
    }
    for (m, path) in &found {
        let mut hashing = HashingWriter::new(&mut *out);
        let mut file = File::open(path)
            .map_err(|e| Error::invalid(format!("cannot open {}: {e}", path.display())))?;
        io::copy(&mut file, &mut hashing)
            .map_err(|e| Error::invalid(format!("cannot copy {}: {e}", path.display())))?;
        if hashing.bytes() != m.bytes || hashing.sha256_hex() != m.sha256 {
            return Err(Error::invalid(format!(
                "{} no longer holds the bytes its manifest records (shard {}); rerun that shard",
                path.display(),
                m.shard
            )));
        }
    }
    Ok(Merged {
        manifests: found.into_iter().map(|(m, _)| m).collect(),
        summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The shards tile the items in order, whatever the counts.
        #[test]
        fn shards_tile_the_sweep(total in 0u64..10_000, count in 1u64..50) {
            let mut next = 0;
            for index in 0..count {
                let r = Shard::new(index, count).unwrap().items(total);
                prop_assert_eq!(r.start, next);
                prop_assert!(r.end >= r.start);
                next = r.end;
            }
            prop_assert_eq!(next, total);
        }
    }

    #[test]
    fn shards_are_read_as_i_of_n() {
        assert_eq!("3/8".parse::<Shard>().unwrap(), Shard::new(3, 8).unwrap());
        for bad in ["8/8", "1/0", "x/2", "3", "-1/4"] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains(bad) || e.contains("0 ≤ I < N"), "{bad}: {e}");
        }
    }

    #[test]
    fn hashing_writer_hashes_what_it_writes() {
        let mut w = HashingWriter::new(Vec::new());
        w.write_all(b"abc").unwrap();
        assert_eq!(w.bytes(), 3);
        assert_eq!(
            w.sha256_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
