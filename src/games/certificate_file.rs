//! Certificate files: the JSON that `nimlab mine cash --certificate` and `nimlab mine octal
//! --certificate` write and `nimlab mine replay` re-checks, as one value.
//!
//! A file is an object whose `"kind"` says what it proves, then the version of nimlab that wrote
//! it and the proof:
//!
//! - `"cash-thresholds"`: f^I and f^II of NIM with Cash with move set `"set"` follow periodic-linear
//!   closed forms for every n ≥ the certificate's start ([`crate::miner::Certificate`], replayed
//!   against Def 2.1/2.3's recurrence by [`cash::replay_threshold_certificate`]);
//! - `"octal-period"`: the least preperiod and period of G_s (or f_N(n +ℓ m)) of a scoring octal
//!   game, by a window argument ([`PeriodCertificate`], which names its game).
//!
//! A replay trusts nothing but the rules written in the file: everything else is recomputed. Reading
//! checks the layers in order — JSON, then a known kind, then the fields of that kind — so a
//! message says which layer failed.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::cash::{self, Amount, CashSet};
use super::scoring::{Limits, PeriodCertificate};
use crate::error::Result;
use crate::miner::Certificate;

/// The `"kind"` of a NIM with Cash threshold certificate.
pub const CASH_THRESHOLDS: &str = "cash-thresholds";
/// The `"kind"` of a scoring octal game's period certificate.
pub const OCTAL_PERIOD: &str = "octal-period";

/// Every kind a file may have, in the order messages list them.
pub const KINDS: [&str; 2] = [CASH_THRESHOLDS, OCTAL_PERIOD];

/// A certificate file. Serialized with `"kind"` first and the fields in declaration order, which
/// is the on-disk format (pretty JSON) that earlier versions wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum CertificateFile {
    /// Closed forms of f^I and f^II of NIM with Cash, proven for all n from the certificate's
    /// start.
    #[serde(rename = "cash-thresholds")]
    CashThresholds {
        /// The move set A, as written (a replay refuses a set that is not one).
        set: Vec<Amount>,
        /// nimlab's version that wrote it.
        nimlab: String,
        /// The proof.
        certificate: Certificate,
    },
    /// The least preperiod and period of a scoring octal game's value sequence.
    #[serde(rename = "octal-period")]
    OctalPeriod {
        /// nimlab's version that wrote it.
        nimlab: String,
        /// The game, the claim and the proof.
        certificate: PeriodCertificate,
    },
}

/// Why a text is not a certificate file nimlab can replay; each message names the file.
#[derive(Debug, thiserror::Error)]
pub enum CertificateFileError {
    /// The text is not JSON.
    #[error("{file} is not a nimlab certificate (not JSON)")]
    NotJson {
        /// The file's name as the caller shows it.
        file: String,
        /// What the JSON parser found.
        #[source]
        source: serde_json::Error,
    },
    /// The JSON has no string `"kind"`.
    #[error("{file} is not a nimlab certificate: no \"kind\"")]
    NoKind {
        /// The file's name as the caller shows it.
        file: String,
    },
    /// The kind is none of [`KINDS`].
    #[error("{file}: unknown certificate kind '{kind}' (known: {})", KINDS.join(", "))]
    UnknownKind {
        /// The file's name as the caller shows it.
        file: String,
        /// The kind it states.
        kind: String,
    },
    /// The kind is known but the fields are not those of that kind.
    #[error("{file} is REJECTED: not a well-formed {kind} certificate")]
    Malformed {
        /// The file's name as the caller shows it.
        file: String,
        /// The kind it states.
        kind: String,
        /// The field at fault.
        #[source]
        source: serde_json::Error,
    },
}

/// What a replay proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replayed<'a> {
    /// f^I and f^II of A follow the stated forms for every n ≥ `from`.
    CashThresholds {
        /// A.
        set: CashSet,
        /// Where the forms start to hold.
        from: i64,
    },
    /// The period certificate holds (its game, preperiod and period are in it).
    OctalPeriod(&'a PeriodCertificate),
}

impl CertificateFile {
    /// The file for closed forms of f^I, f^II of A, written by this version of nimlab.
    pub fn cash_thresholds(set: &CashSet, certificate: Certificate) -> CertificateFile {
        CertificateFile::CashThresholds {
            set: set.elements().to_vec(),
            nimlab: env!("CARGO_PKG_VERSION").to_string(),
            certificate,
        }
    }

    /// The file for a period certificate, written by this version of nimlab.
    pub fn octal_period(certificate: PeriodCertificate) -> CertificateFile {
        CertificateFile::OctalPeriod {
            nimlab: env!("CARGO_PKG_VERSION").to_string(),
            certificate,
        }
    }

    /// Its `"kind"`.
    pub fn kind(&self) -> &'static str {
        match self {
            CertificateFile::CashThresholds { .. } => CASH_THRESHOLDS,
            CertificateFile::OctalPeriod { .. } => OCTAL_PERIOD,
        }
    }

    /// Reads a certificate file's text; `file` names it in the messages.
    pub fn read(text: &str, file: &str) -> Result<CertificateFile, CertificateFileError> {
        let json: serde_json::Value =
            serde_json::from_str(text).map_err(|source| CertificateFileError::NotJson {
                file: file.to_string(),
                source,
            })?;
        let kind = json
            .get("kind")
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| CertificateFileError::NoKind {
                file: file.to_string(),
            })?
            .to_string();
        if !KINDS.contains(&kind.as_str()) {
            return Err(CertificateFileError::UnknownKind {
                file: file.to_string(),
                kind,
            });
        }
        serde_json::from_value(json).map_err(|source| CertificateFileError::Malformed {
            file: file.to_string(),
            kind,
            source,
        })
    }

    /// Writes the file: pretty JSON and a final newline.
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *w, self)?;
        writeln!(w)
    }

    /// Re-checks the proof from the rules in the file alone: what it proves, or what does not
    /// hold.
    pub fn replay(&self) -> Result<Replayed<'_>> {
        match self {
            CertificateFile::CashThresholds {
                set, certificate, ..
            } => {
                let set = CashSet::new(set.clone())?;
                cash::replay_threshold_certificate(&set, certificate)?;
                Ok(Replayed::CashThresholds {
                    set,
                    from: certificate.from,
                })
            }
            CertificateFile::OctalPeriod { certificate, .. } => {
                certificate.replay(&Limits::default())?;
                Ok(Replayed::OctalPeriod(certificate))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoring::{HeapSequence, OctalRules, ScoringGame};
    use crate::num::Q;

    fn written(file: &CertificateFile) -> String {
        let mut out = Vec::new();
        file.write_to(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn cash_file(set: &str) -> CertificateFile {
        let set: CashSet = set.parse().unwrap();
        let forms = cash::threshold_forms(&set, 2000).unwrap();
        CertificateFile::cash_thresholds(&set, forms.certificate)
    }

    fn octal_file(subtract: &[u32]) -> CertificateFile {
        let game = ScoringGame::single(OctalRules::subtraction(subtract, None).unwrap());
        let seq = HeapSequence::new(&game, 0, &[], Q::zero()).unwrap();
        let c = seq.period_certificate(1000, &Limits::default()).unwrap();
        CertificateFile::octal_period(c)
    }

    #[test]
    fn files_keep_the_layout_earlier_versions_wrote() {
        // The kind first, then the fields in the order the separate file structs had.
        let cash = written(&cash_file("1,4"));
        let keys: Vec<&str> = cash
            .lines()
            .filter(|l| l.starts_with("  \"") && !l.starts_with("   "))
            .map(|l| l.trim().split('"').nth(1).unwrap())
            .collect();
        assert_eq!(keys, ["kind", "set", "nimlab", "certificate"]);
        assert!(cash.starts_with(
            "{\n  \"kind\": \"cash-thresholds\",\n  \"set\": [\n    1,\n    4\n  ],\n"
        ));
        assert!(cash.ends_with("}\n"));
        let octal = written(&octal_file(&[4, 5]));
        assert!(octal.starts_with("{\n  \"kind\": \"octal-period\",\n  \"nimlab\": "));
        assert!(octal.contains("\n  \"certificate\": {\n    \"rules\": [\n      \"{4,5}\"\n"));
    }

    #[test]
    fn written_files_read_back_and_replay() {
        for file in [cash_file("1,4"), cash_file("1,3,4"), octal_file(&[4, 5])] {
            let back = CertificateFile::read(&written(&file), "f.json").unwrap();
            assert_eq!(back, file);
            match back.replay().unwrap() {
                Replayed::CashThresholds { set, from } => {
                    assert_eq!(file.kind(), CASH_THRESHOLDS);
                    let forms = cash::threshold_forms(&set, 2000).unwrap();
                    assert_eq!(from, forms.certificate.from);
                }
                Replayed::OctalPeriod(c) => {
                    assert_eq!(file.kind(), OCTAL_PERIOD);
                    // Subtraction {4, 5}: least period 10 = 2·max S, as `octal period` finds.
                    let game = ScoringGame::single(OctalRules::subtraction(&[4, 5], None).unwrap());
                    let seq = HeapSequence::new(&game, 0, &[], Q::zero()).unwrap();
                    let p = seq.period(1000, &Limits::default()).unwrap();
                    let p = p.periodicity.unwrap();
                    assert_eq!((c.preperiod, c.period), (p.preperiod, p.period));
                }
            }
        }
    }

    #[test]
    fn reading_says_which_layer_fails() {
        let read = |text: &str| CertificateFile::read(text, "f.json").unwrap_err();
        assert!(matches!(read("nope"), CertificateFileError::NotJson { .. }));
        assert!(matches!(
            read("[1, 2]"),
            CertificateFileError::NoKind { .. }
        ));
        assert!(matches!(
            read(r#"{"kind": 3}"#),
            CertificateFileError::NoKind { .. }
        ));
        let unknown = read(r#"{"kind": "nonsense"}"#);
        assert_eq!(
            unknown.to_string(),
            "f.json: unknown certificate kind 'nonsense' (known: cash-thresholds, octal-period)"
        );
        let short = read(r#"{"kind": "cash-thresholds", "set": [1, 4]}"#);
        assert_eq!(
            short.to_string(),
            "f.json is REJECTED: not a well-formed cash-thresholds certificate"
        );
        let CertificateFileError::Malformed { source, .. } = short else {
            panic!("{short}")
        };
        assert_eq!(source.to_string(), "missing field `nimlab`");
        // An octal certificate relabelled as a cash one lacks the cash fields.
        let mut octal: serde_json::Value =
            serde_json::from_str(&written(&octal_file(&[4, 5]))).unwrap();
        octal["kind"] = "cash-thresholds".into();
        assert!(matches!(
            read(&octal.to_string()),
            CertificateFileError::Malformed { .. }
        ));
    }

    #[test]
    fn tampered_files_are_refused_by_the_replay() {
        let CertificateFile::CashThresholds {
            nimlab,
            certificate,
            ..
        } = cash_file("1,4")
        else {
            panic!("a cash file")
        };
        let other_set = CertificateFile::CashThresholds {
            set: vec![1, 5],
            nimlab: nimlab.clone(),
            certificate: certificate.clone(),
        };
        assert!(
            other_set
                .replay()
                .unwrap_err()
                .to_string()
                .contains("not Def 2.3's")
        );
        let no_set = CertificateFile::CashThresholds {
            set: vec![],
            nimlab,
            certificate,
        };
        assert!(no_set.replay().unwrap_err().to_string().contains("empty"));
    }
}
