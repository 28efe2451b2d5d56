//! The computation cache: a table, or the verdicts of a claim registry, whose inputs did not
//! change is read back instead of recomputed, so editing a study's prose re-renders in seconds
//! and `nimlab report` does not re-check claims nobody touched.
//!
//! Content-addressed: the key is the SHA-256 of the canonical JSON of everything the result
//! depends on — the nimlab that computes it ([`CACHE_VERSION`]; a build from a modified work
//! tree, whose commit does not pin its code, adds the SHA-256 of its own executable) and
//! - for a table, its typed spec ([`TableSpec::canonical`]);
//! - for verdicts ([`Cache::verdicts`]), `deep`, the claims chosen (`only`), the registry's
//!   claims ([`Registry::claim_source`]: a claim file whole, a study's `define` and `[[claim]]`
//!   tables without its prose) and the bytes of every forms file a chosen claim's proof reads
//!   (`proof.forms`). The claims checker reads no other file: a builtin takes its data (a
//!   printed table, say) from the claim's `args`, which are part of the registry.
//!
//! The entry `<dir>/<hex>.json` holds that same key material and the result (serde JSON: the
//! table with its typed cells, or the findings). An entry is written atomically (a temporary
//! file renamed into place), so a reader never sees half of one. An entry that cannot be read,
//! does not parse, or was written for other inputs is recomputed and replaced — never trusted,
//! never fatal. Deleting the directory is always safe.
//!
//! Verdicts are not stored when a claim's proof did not go through (the claim came out HOLDS
//! although it names a forms file: the solver may have run out of time, which the next run may
//! not), nor when a forms file changed while the claims were checked.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::compute::TableSpec;
use crate::claims::verdict::chosen;
use crate::claims::{Claim, Finding, Registry, VerdictKind, check_registry};
use crate::error::Result;
use crate::export::Table;
use crate::progress::Progress;

/// The version of nimlab whose results a key stands for: the crate version and the commit it
/// was built from (results may change with the code, so a new build never reads old entries).
pub const CACHE_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("NIMLAB_COMMIT"));

/// The nimlab that computes, as keys name it: [`CACHE_VERSION`], and for a build whose commit
/// does not pin its code (built from a modified work tree, `-dirty`, or outside a checkout,
/// `unknown`) the SHA-256 of its own executable too, so that two such builds never share
/// entries. `None` when such a build cannot read itself: then nothing is cached.
fn build() -> Option<&'static str> {
    static BUILD: std::sync::LazyLock<Option<String>> = std::sync::LazyLock::new(|| {
        let commit = env!("NIMLAB_COMMIT");
        if !commit.ends_with("-dirty") && commit != "unknown" {
            return Some(CACHE_VERSION.to_string());
        }
        let exe = fs::read(std::env::current_exe().ok()?).ok()?;
        Some(format!("{CACHE_VERSION}+{}", hex_sha256(&exe)))
    });
    BUILD.as_deref()
}

/// One cache entry on disk.
#[derive(Serialize, Deserialize)]
struct Entry<T> {
    /// What the key hashes.
    inputs: Value,
    /// The result: a table, or a registry's findings.
    value: T,
}

/// Where a result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Read back from the cache.
    Hit,
    /// Computed now (and stored, when a cache is in use).
    Computed,
    /// Computed now, replacing an entry that could not be used.
    Replaced,
}

/// A cache directory, or none (`--no-cache`, and the default: everything is computed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cache {
    dir: Option<PathBuf>,
}

/// The hex SHA-256 of `bytes`.
fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The hex key of the key material `inputs`.
fn key_of(inputs: &Value) -> String {
    hex_sha256(&serde_json::to_vec(inputs).expect("JSON values serialize"))
}

impl Cache {
    /// A cache in `dir` (created when first written).
    pub fn at(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: Some(dir.into()),
        }
    }

    /// No cache: everything is computed.
    pub fn disabled() -> Cache {
        Cache { dir: None }
    }

    /// The default directory: `$NIMLAB_CACHE`, else `$XDG_CACHE_HOME/nimlab`, else
    /// `~/.cache/nimlab`; `None` when none of them is set.
    pub fn default_dir() -> Option<PathBuf> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        var("NIMLAB_CACHE")
            .map(PathBuf::from)
            .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("nimlab")))
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache").join("nimlab")))
    }

    /// The directory in use, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The key material of `spec` (`None`: not cacheable, see [`build`]).
    fn inputs(spec: &TableSpec) -> Option<Value> {
        Some(json!({ "nimlab": build()?, "spec": spec.canonical() }))
    }

    /// The hex SHA-256 key of `spec` (`None`: not cacheable by this build).
    pub fn key(spec: &TableSpec) -> Option<String> {
        Cache::inputs(spec).map(|i| key_of(&i))
    }

    /// The file of `spec`'s entry.
    pub fn entry_path(&self, spec: &TableSpec) -> Option<PathBuf> {
        self.path_of(&Cache::inputs(spec)?)
    }

    /// The file of the entry keyed by `inputs`.
    fn path_of(&self, inputs: &Value) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        Some(dir.join(format!("{}.json", key_of(inputs))))
    }

    /// The table of `spec`: read back when a usable entry exists, else computed with
    /// `max_bytes` and stored. A failure to store is not an error (the table is still right).
    pub fn table(
        &self,
        spec: &TableSpec,
        max_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<(Table, Source)> {
        let columns = spec.columns();
        self.through(
            Cache::inputs(spec),
            |t: &Table| t.columns == columns && t.rows.iter().all(|r| r.len() == columns.len()),
            || spec.compute(max_bytes, progress),
            |_| true,
        )
    }

    /// The findings of `reg`'s claims, as [`check_registry`] returns them (`only` choosing
    /// claims by label or id, all when empty): read back when a usable entry exists, else
    /// checked and stored. A registry built from values has no file to key on and is always
    /// checked. `progress` advances by one per claim either way.
    pub fn verdicts(
        &self,
        reg: &Registry,
        deep: bool,
        only: &[String],
        progress: &dyn Progress,
    ) -> Result<(Vec<Finding>, Source)> {
        let chosen = chosen(reg, only)?;
        let inputs = verdict_inputs(reg, &chosen, deep, only);
        let before = inputs.clone();
        let (found, source) = self.through(
            inputs,
            |found: &Vec<Finding>| {
                found.len() == chosen.len()
                    && found.iter().zip(&chosen).all(|(f, c)| f.claim.id == c.id)
            },
            || check_registry(reg, deep, only, progress),
            |found| {
                proofs_went_through(&chosen, found)
                    && verdict_inputs(reg, &chosen, deep, only) == before
            },
        )?;
        if source == Source::Hit {
            progress.advance(chosen.len() as u64);
        }
        Ok((found, source))
    }

    /// The file of the entry of `reg`'s verdicts for `deep` and `only`; `None` without a cache
    /// or for a registry built from values.
    pub fn verdicts_path(
        &self,
        reg: &Registry,
        deep: bool,
        only: &[String],
    ) -> Result<Option<PathBuf>> {
        let chosen = chosen(reg, only)?;
        Ok(verdict_inputs(reg, &chosen, deep, only).and_then(|i| self.path_of(&i)))
    }

    /// The result keyed by `inputs` (`None`: not cacheable): read back when an entry exists
    /// for exactly these inputs and its value is `usable`, else computed and, when `keep`
    /// allows, stored.
    fn through<T: Serialize + DeserializeOwned>(
        &self,
        inputs: Option<Value>,
        usable: impl FnOnce(&T) -> bool,
        compute: impl FnOnce() -> Result<T>,
        keep: impl FnOnce(&T) -> bool,
    ) -> Result<(T, Source)> {
        let Some((path, inputs)) = inputs.and_then(|i| Some((self.path_of(&i)?, i))) else {
            return Ok((compute()?, Source::Computed));
        };
        let existing = fs::read(&path).ok();
        if let Some(bytes) = &existing
            && let Ok(entry) = serde_json::from_slice::<Entry<T>>(bytes)
            && entry.inputs == inputs
            && usable(&entry.value)
        {
            return Ok((entry.value, Source::Hit));
        }
        let value = compute()?;
        let value = if keep(&value) {
            let entry = Entry { inputs, value };
            // A cache that cannot be written only costs time on the next run.
            let _ = store(&path, &entry);
            entry.value
        } else {
            value
        };
        let source = match existing {
            Some(_) => Source::Replaced,
            None => Source::Computed,
        };
        Ok((value, source))
    }
}

/// The key material of the verdicts of the claims `chosen` from `reg` by `only`; `None` for a
/// registry built from values. A forms file that cannot be read is keyed as such (checking
/// then fails, and nothing is stored).
fn verdict_inputs(reg: &Registry, chosen: &[&Claim], deep: bool, only: &[String]) -> Option<Value> {
    let claims = reg.claim_source()?;
    let mut forms: Vec<&Path> = chosen
        .iter()
        .filter_map(|c| c.proof.as_ref()?.forms_path())
        .collect();
    forms.sort_unstable();
    forms.dedup();
    let forms: Vec<Value> = forms
        .into_iter()
        .map(|p| {
            json!([
                p.to_string_lossy(),
                fs::read(p).ok().map(|b| hex_sha256(&b))
            ])
        })
        .collect();
    Some(json!({
        "nimlab": build()?,
        "verdicts": {
            "deep": deep,
            "only": only,
            "claims": hex_sha256(claims.as_bytes()),
            "forms": forms,
        },
    }))
}

/// Whether every claim of `chosen` that names a forms file was proven, or not tried (a proof
/// is tried when the finite check holds; a claim that still says HOLDS was not proven, which a
/// solver out of time may explain).
fn proofs_went_through(chosen: &[&Claim], found: &[Finding]) -> bool {
    chosen
        .iter()
        .zip(found)
        .all(|(c, f)| c.proof.is_none() || f.verdict != VerdictKind::Holds)
}

/// Writes `entry` to `path` atomically: a temporary file in the same directory, renamed.
fn store<T: Serialize>(path: &Path, entry: &Entry<T>) -> std::io::Result<()> {
    let dir = path
        .parent()
        .expect("an entry lives in the cache directory");
    fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    let mut w = std::io::BufWriter::new(&mut tmp);
    serde_json::to_writer(&mut w, entry)?;
    w.flush()?;
    drop(w);
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cash::CashSet;
    use crate::progress::Silent;

    fn spec() -> TableSpec {
        TableSpec::CashThresholds {
            set: "1,4".parse::<CashSet>().unwrap(),
            max_n: 30,
            defined_only: false,
        }
    }

    #[test]
    fn a_hit_gives_the_identical_typed_table() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path());
        let (cold, source) = cache.table(&spec(), 1 << 30, &Silent).unwrap();
        assert_eq!(source, Source::Computed);
        let (warm, source) = cache.table(&spec(), 1 << 30, &Silent).unwrap();
        assert_eq!(source, Source::Hit);
        assert_eq!(warm, cold);
        assert_eq!(warm, spec().compute(1 << 30, &Silent).unwrap());
    }

    #[test]
    fn a_corrupt_entry_is_recomputed_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path());
        let path = cache.entry_path(&spec()).unwrap();
        let fresh = spec().compute(1 << 30, &Silent).unwrap();
        for junk in [
            &b"{ not json"[..],
            b"",
            br#"{"inputs": 1, "table": {"columns": [], "rows": []}}"#,
        ] {
            fs::write(&path, junk).unwrap();
            let (t, source) = cache.table(&spec(), 1 << 30, &Silent).unwrap();
            assert_eq!(source, Source::Replaced);
            assert_eq!(t, fresh);
            let (_, again) = cache.table(&spec(), 1 << 30, &Silent).unwrap();
            assert_eq!(again, Source::Hit, "the entry was replaced");
        }
    }

    #[test]
    fn a_build_from_a_modified_tree_adds_the_hash_of_its_executable() {
        let commit = env!("NIMLAB_COMMIT");
        let pinned = !commit.ends_with("-dirty") && commit != "unknown";
        let name = build().expect("the test binary reads itself");
        let hash = name.strip_prefix(CACHE_VERSION).unwrap();
        match pinned {
            true => assert_eq!(hash, ""),
            false => assert_eq!(hash.len(), 1 + 64, "{name}"),
        }
    }

    #[test]
    fn keys_differ_with_the_parameters_and_no_cache_computes() {
        let other = TableSpec::CashThresholds {
            set: "1,4".parse::<CashSet>().unwrap(),
            max_n: 31,
            defined_only: false,
        };
        assert_ne!(Cache::key(&spec()), Cache::key(&other));
        assert_eq!(Cache::key(&spec()), Cache::key(&spec()));
        assert_eq!(Cache::key(&spec()).unwrap().len(), 64);
        let (t, source) = Cache::disabled().table(&spec(), 1 << 30, &Silent).unwrap();
        assert_eq!(source, Source::Computed);
        assert_eq!(t.rows.len(), 31);
    }
}

#[cfg(test)]
mod verdict_tests {
    use super::*;
    use crate::progress::Silent;

    /// One pile of Scoring Nim: its payoff in closed form, proven by induction (`nimlab prove`).
    const FORMS: &str = r#"game = "scoring-nim"
title = "One pile"
piles = ["a"]
closure = "true"

[[class]]
id = "empty"
name = "empty"
position = "[0]"
form = "-N"

[[class]]
id = "one"
name = "one"
position = "[1]"
form = "1 + N"

[[class]]
id = "x"
name = "x"
position = "[x]"
where = "x >= 2"
form = "x - 1 + abs(1 + N)"
"#;

    /// A claim proven with `one.toml`, one that fails with a correction, one that holds.
    const CLAIMS: &str = r#"paper = "toy"
define = ["twice(x) = 2*x"]

[[claim]]
id = "one-pile"
label = "eq. (1)"
statement = "one pile"
for = "x in 2..12, N in -3..3"
holds = "payoff(N, [x]) == x - 1 + abs(1 + N)"
proof = { forms = "one.toml", over = "x >= 2", reals = ["N"] }

[[claim]]
id = "odd"
label = "Lemma 2"
statement = "doubling"
for = "x in 0..9"
actual = "twice(x)"
expected = "x + x + (if x > 4 then 1 else 0)"
correction = "x + x"

[[claim]]
id = "sum"
label = "Lemma 3"
statement = "sums"
for = "x in 0..20"
holds = "x + 1 > x"
"#;

    /// A directory holding `c.toml` ([`CLAIMS`]) and `one.toml` ([`FORMS`]), and a cache in it.
    fn setup() -> (tempfile::TempDir, Cache) {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("c.toml"), CLAIMS).unwrap();
        fs::write(dir.path().join("one.toml"), FORMS).unwrap();
        let cache = Cache::at(dir.path().join("cache"));
        (dir, cache)
    }

    fn load(dir: &tempfile::TempDir) -> Registry {
        Registry::load(&dir.path().join("c.toml")).unwrap()
    }

    fn entries(cache: &Cache) -> usize {
        fs::read_dir(cache.dir().unwrap()).map_or(0, |d| d.count())
    }

    #[test]
    fn a_hit_gives_the_identical_findings() {
        let (dir, cache) = setup();
        let reg = load(&dir);
        let fresh = check_registry(&reg, false, &[], &Silent).unwrap();
        let verdicts: Vec<_> = fresh.iter().map(|f| f.verdict).collect();
        use VerdictKind::*;
        assert_eq!(verdicts, [Proven, Fails, Holds]);
        assert!(fresh[1].correction.is_some() && fresh[1].counterexample.is_some());
        let (cold, source) = cache.verdicts(&reg, false, &[], &Silent).unwrap();
        assert_eq!((source, &cold), (Source::Computed, &fresh));
        let (warm, source) = cache.verdicts(&reg, false, &[], &Silent).unwrap();
        assert_eq!((source, &warm), (Source::Hit, &fresh));
        // What reports show of a finding: the same text.
        let shown = |found: &[Finding]| -> Vec<(String, String)> {
            found
                .iter()
                .map(|f| (f.range_text(), f.evidence()))
                .collect()
        };
        assert_eq!(shown(&warm), shown(&fresh));
        assert_eq!(entries(&cache), 1);
        // A subset of the claims, or the deep ranges, are entries of their own.
        let only = ["Lemma 3".to_string()];
        let (some, source) = cache.verdicts(&reg, false, &only, &Silent).unwrap();
        assert_eq!((source, some.as_slice()), (Source::Computed, &fresh[2..]));
        let (_, source) = cache.verdicts(&reg, true, &[], &Silent).unwrap();
        assert_eq!(source, Source::Computed);
        assert_eq!(entries(&cache), 3);
        let (_, source) = cache.verdicts(&reg, false, &only, &Silent).unwrap();
        assert_eq!(source, Source::Hit);
        // `only` naming no claim is the checker's error, cache or not.
        let e = cache
            .verdicts(&reg, false, &["Lemma 9".to_string()], &Silent)
            .unwrap_err();
        assert!(e.to_string().contains("Lemma 9"), "{e}");
        let (_, source) = Cache::disabled()
            .verdicts(&reg, false, &[], &Silent)
            .unwrap();
        assert_eq!(source, Source::Computed);
    }

    #[test]
    fn a_corrupt_verdict_entry_is_checked_again_and_replaced() {
        let (dir, cache) = setup();
        let reg = load(&dir);
        let path = cache.verdicts_path(&reg, false, &[]).unwrap().unwrap();
        let fresh = cache.verdicts(&reg, false, &[], &Silent).unwrap().0;
        let good = fs::read(&path).unwrap();
        // Valid JSON with the right inputs, but one finding short.
        let mut short: Value = serde_json::from_slice(&good).unwrap();
        short["value"].as_array_mut().unwrap().pop();
        // The right findings under other inputs.
        let mut other: Value = serde_json::from_slice(&good).unwrap();
        other["inputs"]["verdicts"]["deep"] = json!(true);
        for junk in [
            b"{ not json".to_vec(),
            Vec::new(),
            serde_json::to_vec(&short).unwrap(),
            serde_json::to_vec(&other).unwrap(),
        ] {
            fs::write(&path, junk).unwrap();
            let (found, source) = cache.verdicts(&reg, false, &[], &Silent).unwrap();
            assert_eq!((source, &found), (Source::Replaced, &fresh));
            let (_, again) = cache.verdicts(&reg, false, &[], &Silent).unwrap();
            assert_eq!(again, Source::Hit, "the entry was replaced");
        }
    }

    #[test]
    fn a_forms_file_is_keyed_by_its_bytes() {
        let (dir, cache) = setup();
        let forms = dir.path().join("one.toml");
        let reg = load(&dir);
        let key = || cache.verdicts_path(&reg, false, &[]).unwrap().unwrap();
        let before = key();
        // The same payoff written otherwise is another input.
        fs::write(
            &forms,
            FORMS.replace("x - 1 + abs(1 + N)", "abs(N + 1) + x - 1"),
        )
        .unwrap();
        assert_ne!(key(), before);
        fs::remove_file(&forms).unwrap();
        assert_ne!(key(), before);
        fs::write(&forms, FORMS).unwrap();
        assert_eq!(key(), before);
        // Only the forms of the claims chosen count.
        let only = ["Lemma 3".to_string()];
        let some = cache.verdicts_path(&reg, false, &only).unwrap();
        fs::write(&forms, "").unwrap();
        assert_eq!(cache.verdicts_path(&reg, false, &only).unwrap(), some);
    }

    #[test]
    fn verdicts_whose_proof_did_not_go_through_are_not_kept() {
        let (dir, cache) = setup();
        // A wrong form: the proof fails, and the claim keeps the verdict of its finite check.
        // A solver out of time looks the same, so the verdicts are checked again next time.
        fs::write(
            dir.path().join("one.toml"),
            FORMS.replace("x - 1 + abs(1 + N)", "x + N"),
        )
        .unwrap();
        let reg = load(&dir);
        for _ in 0..2 {
            let (found, source) = cache.verdicts(&reg, false, &[], &Silent).unwrap();
            assert_eq!(source, Source::Computed);
            assert_eq!(found[0].verdict, VerdictKind::Holds);
        }
        assert_eq!(entries(&cache), 0);
        // The other claims alone are kept.
        let only = ["Lemma 2".to_string(), "Lemma 3".to_string()];
        cache.verdicts(&reg, false, &only, &Silent).unwrap();
        let (_, source) = cache.verdicts(&reg, false, &only, &Silent).unwrap();
        assert_eq!(source, Source::Hit);
    }

    /// A study with inline claims and prose.
    fn study(prose: &str, range: &str) -> String {
        format!(
            "[study]\nname = \"s\"\ntitle = \"t\"\nabstract = \"{prose}\"\n\n\
             [[table]]\nname = \"f\"\nkind = \"scoring.family\"\nfamily = \"2k+1,2k,1\"\nranges = {{ k = \"1..3\" }}\n\n\
             [[section]]\ntitle = \"Note\"\ntext = '{prose}'\n\n\
             [[claim]]\nid = \"sum\"\nlabel = \"Lemma 1\"\nstatement = \"sums\"\nfor = \"{range}\"\nholds = \"x + 1 > x\"\n"
        )
    }

    #[test]
    fn a_studys_verdicts_are_keyed_on_its_claims_not_its_prose() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path().join("cache"));
        let path = dir.path().join("s.toml");
        let key = |text: &str| {
            let s = crate::study::parse(&path, text).unwrap();
            cache
                .verdicts_path(s.claims.as_ref().unwrap(), false, &[])
                .unwrap()
                .unwrap()
        };
        let plain = key(&study("Short.", "x in 0..9"));
        assert_eq!(
            plain,
            key(&study(
                "A much longer text, moving every claim down.",
                "x in 0..9"
            ))
        );
        assert_ne!(plain, key(&study("Short.", "x in 0..10")));
        // A registry built from values has no file to key on.
        let reg = Registry::from_claims("toy", "", Default::default(), Vec::new()).unwrap();
        assert_eq!(cache.verdicts_path(&reg, false, &[]).unwrap(), None);
        let (_, source) = cache.verdicts(&reg, false, &[], &Silent).unwrap();
        assert_eq!(source, Source::Computed);
        assert_eq!(entries(&cache), 0);
    }
}
