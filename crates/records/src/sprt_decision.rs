//! `sprt.json`: an SPRT's decision, written once by the first worker that
//! sees it, for people and scripts (the report recomputes the test from the
//! results files and does not need it).
//!
//! One serde type, written and read only through this module. Every worker
//! that sees the decision would write the same verdict, so the first wins:
//! the file is written whole under a name of its own, synced, then hard
//! linked to `sprt.json`, which fails if another worker linked first.
//! Files written before the schema version was added have none (read as
//! 0) and the same keys.
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `schema` | integer | the schema version, 1 (absent: 0, the same keys) |
//! | `test`, `baseline` | string | the bots tested: `test` against `baseline` |
//! | `elo0`, `elo1` | number | the hypotheses' Elo differences |
//! | `alpha`, `beta` | number | the error rates |
//! | `decision` | string | `accept_h0`, `accept_h1` (`continue` is never written) |
//! | `pairs` | integer | game pairs counted |
//! | `pentanomial` | [integer; 5] | the pairs by score, 0 to 2 points (LL, LD, WL+DD, WD, WW) |
//! | `llr`, `lower`, `upper` | number | the log-likelihood ratio and its bounds |
//! | `max_pairs` | integer or null | the cap on pairs, if any |
//! | `truncated` | bool | decided at the cap, by the sign of the LLR |
//! | `written_by` | string | host and pid of the worker that wrote it |

use std::path::{Path, PathBuf};

use aboure_stats::SprtDecision;
use serde::{Deserialize, Serialize};

use crate::folder::SPRT_FILE;
use crate::versioned::{self, Fault};

/// The schema version this crate writes, and the newest it reads.
pub const SPRT_SCHEMA: u32 = 1;

/// A run folder's `sprt.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtFile {
    /// The schema version (0: written before it had one).
    #[serde(default)]
    pub schema: u32,
    /// The bot tested.
    pub test: String,
    /// The bot it is tested against.
    pub baseline: String,
    /// H0's Elo difference.
    pub elo0: f64,
    /// H1's Elo difference.
    pub elo1: f64,
    /// The false positive rate.
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
    /// The decision.
    pub decision: SprtDecision,
    /// Pairs counted.
    pub pairs: u64,
    /// The pairs by score: LL, LD, WL+DD, WD, WW.
    pub pentanomial: [u64; 5],
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Its lower bound.
    pub lower: f64,
    /// Its upper bound.
    pub upper: f64,
    /// The cap on pairs, if any.
    pub max_pairs: Option<u64>,
    /// Decided at the cap, by the sign of the LLR.
    pub truncated: bool,
    /// Host and pid of the worker that wrote it.
    pub written_by: String,
}

/// A `sprt.json` that cannot be read, written or understood.
#[derive(Debug, thiserror::Error)]
pub enum SprtFileError {
    /// The file cannot be read or written.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not an SPRT decision (not JSON, cut short, a key missing).
    #[error("{}: not an SPRT decision: {source}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// Where and what, as serde_json says it.
        source: serde_json::Error,
    },
    /// Written by a newer aboure.
    #[error("{}: schema version {found} is newer than this aboure reads ({SPRT_SCHEMA})", path.display())]
    NewerSchema {
        /// The file.
        path: PathBuf,
        /// The version it has.
        found: u32,
    },
}

impl SprtFile {
    /// The file's path in the run folder `dir`.
    pub fn path_in(dir: &Path) -> PathBuf {
        crate::folder::RunFolder::new(dir).sprt()
    }

    /// Reads the decision of the run in `dir`: `None` if there is none yet.
    pub fn read_in(dir: &Path) -> Result<Option<SprtFile>, SprtFileError> {
        let path = SprtFile::path_in(dir);
        versioned::read(&path, SPRT_SCHEMA).map_err(|fault| {
            let path = path.clone();
            match fault {
                Fault::Io(source) => SprtFileError::Io {
                    action: "read",
                    path,
                    source,
                },
                Fault::Malformed(source) => SprtFileError::Malformed { path, source },
                Fault::Newer(found) => SprtFileError::NewerSchema { path, found },
            }
        })
    }

    /// Writes the decision into `dir` unless another writer did first;
    /// true if this one did. `me` names the temporary file (unique to this
    /// writer: host and pid).
    pub fn write_first_in(&self, dir: &Path, me: &str) -> Result<bool, SprtFileError> {
        let path = SprtFile::path_in(dir);
        let temp = dir.join(format!(".{SPRT_FILE}.{me}"));
        let io = |path: &Path| {
            let path = path.to_owned();
            move |source| SprtFileError::Io {
                action: "write",
                path,
                source,
            }
        };
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other);
        text.and_then(|t| std::fs::write(&temp, t + "\n"))
            .and_then(|()| std::fs::File::open(&temp)?.sync_all())
            .map_err(io(&temp))?;
        let linked = std::fs::hard_link(&temp, &path);
        let _ = std::fs::remove_file(&temp);
        match linked {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(io(&path)(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision() -> SprtFile {
        SprtFile {
            schema: SPRT_SCHEMA,
            test: "x".into(),
            baseline: "y".into(),
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            decision: SprtDecision::AcceptH1,
            pairs: 120,
            pentanomial: [1, 10, 50, 40, 19],
            llr: 2.97,
            lower: -2.94,
            upper: 2.94,
            max_pairs: None,
            truncated: false,
            written_by: "host a pid 1".into(),
        }
    }

    #[test]
    fn the_first_writer_wins_and_the_file_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(SprtFile::read_in(dir.path()).unwrap(), None);
        let first = decision();
        assert!(first.write_first_in(dir.path(), "a.1").unwrap());
        let second = SprtFile {
            written_by: "host b pid 2".into(),
            ..decision()
        };
        assert!(!second.write_first_in(dir.path(), "b.2").unwrap());
        assert_eq!(SprtFile::read_in(dir.path()).unwrap(), Some(first));
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, [SPRT_FILE]);
    }

    #[test]
    fn a_file_written_before_the_schema_version_reads() {
        let dir = tempfile::tempdir().unwrap();
        let old = r#"{
  "alpha": 0.05, "baseline": "greedy", "beta": 0.05, "decision": "accept_h0",
  "elo0": 0.0, "elo1": 10.0, "llr": -3.1, "lower": -2.94, "max_pairs": 6,
  "pairs": 6, "pentanomial": [0, 3, 3, 0, 0], "test": "random",
  "truncated": true, "upper": 2.94, "written_by": "host h pid 9"
}"#;
        std::fs::write(dir.path().join(SPRT_FILE), old).unwrap();
        let read = SprtFile::read_in(dir.path()).unwrap().unwrap();
        assert_eq!(read.schema, 0);
        assert_eq!(read.decision, SprtDecision::AcceptH0);
        assert_eq!(
            (read.pairs, read.max_pairs, read.truncated),
            (6, Some(6), true)
        );
        assert_eq!(read.pentanomial, [0, 3, 3, 0, 0]);
    }

    #[test]
    fn a_newer_schema_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = serde_json::to_value(decision()).unwrap();
        text["schema"] = 7.into();
        std::fs::write(dir.path().join(SPRT_FILE), text.to_string()).unwrap();
        let e = SprtFile::read_in(dir.path()).unwrap_err();
        assert!(
            matches!(e, SprtFileError::NewerSchema { found: 7, .. }),
            "{e}"
        );
    }
}
