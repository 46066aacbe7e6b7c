//! `workers.json`: who works on a run that many workers share, for people
//! and the live page.
//!
//! Workers of every format that shares a folder write it (a tournament's
//! and a league's alike). One worker of the run at a time (the holder of
//! `claims/roster.lock`) reads the roster of the run's `claims/` folder
//! every 2 s (which workers are alive, ended or died, which pairs each
//! holds) and writes it here, whole or not at all, and the last worker to
//! leave writes the final one;
//! `aboure serve` reads it to show the workers. One serde type, written
//! and read only through this module, so the writer and the readers agree
//! by construction.
//!
//! The file carries a schema version (`schema`); a newer one is refused
//! with a message naming the file. A reader may catch no file at all (no
//! worker has written one yet), never half of one: it is written under a
//! temporary name and renamed.
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `schema` | integer | the schema version, 1 |
//! | `written` | string | RFC 3339 UTC time it was written |
//! | `written_by` | string | the worker that wrote it |
//! | `workers` | [object] | every worker that ever registered in the run folder, by name |
//! | `workers[].name` | string | `K-of-N` for `--shard K/N`, `HOST-PID` for `--join`, `main` otherwise |
//! | `workers[].about` | string | what it said of itself: host, pid, games at once |
//! | `workers[].state` | string | `alive`, `ended` (left cleanly) or `died` (killed, crashed, its machine lost) |
//! | `workers[].holding` | [integer] | pairs whose claim it signed last: held if alive, not yet taken over if it died; for a schedule (round robin, gauntlet, SPRT) a pair's place in schedule order, for a league its pair number (12 for the games `l00012-g0` and `l00012-g1`) |
//! | `workers[].games` | integer | games recorded in its results file |
//! | `workers[].results` | string | its results file's name in the folder |
//! | `workers[].last_seen` | string | RFC 3339 UTC time it was last seen alive (for a worker that ended or died: when it last wrote, or was last seen alive) |
//! | `workers[].took_over` | [object] | pairs (numbered as in `holding`) it took over from a worker that had held them: `pair` and `from` (that worker's name) |

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::versioned::{self, Fault};

pub use crate::folder::WORKERS_FILE;

/// The schema version this crate writes, and the newest it reads.
pub const WORKERS_SCHEMA: u32 = 1;

/// A run folder's `workers.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkersFile {
    /// The schema version.
    pub schema: u32,
    /// When it was written (RFC 3339, UTC).
    pub written: String,
    /// The worker that wrote it.
    pub written_by: String,
    /// Every worker of the run, by name.
    pub workers: Vec<WorkerEntry>,
}

/// How a worker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerState {
    /// Its process lives.
    Alive,
    /// It left cleanly (nothing left, the test decided, interrupted).
    Ended,
    /// It died (killed, crashed, its machine lost) without a word.
    Died,
}

/// A pair a worker took over from another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TakenOver {
    /// The pair, numbered as in [`WorkerEntry::holding`].
    pub pair: u64,
    /// The worker that held it before.
    pub from: String,
}

/// One worker of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerEntry {
    /// Its name (`1-of-3`, `HOST-PID`, `main`).
    pub name: String,
    /// What it wrote about itself: host, pid, games at once.
    pub about: String,
    /// Alive, ended or died.
    pub state: WorkerState,
    /// Pairs whose claims it signed last: held if it is alive, not yet
    /// taken over if it died. A schedule's pairs by their place in it, a
    /// league's by pair number.
    pub holding: Vec<u64>,
    /// Games recorded in its results file.
    #[serde(default)]
    pub games: u64,
    /// Its results file's name in the run folder.
    #[serde(default)]
    pub results: String,
    /// When it was last seen alive (RFC 3339, UTC).
    #[serde(default)]
    pub last_seen: String,
    /// Pairs it took over from other workers.
    #[serde(default)]
    pub took_over: Vec<TakenOver>,
}

/// A `workers.json` that cannot be read, written or understood.
#[derive(Debug, thiserror::Error)]
pub enum WorkersError {
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
    /// The file is not a workers file (not JSON, cut short, a key missing
    /// or of the wrong type).
    #[error("{}: not a workers file: {source}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// Where and what, as serde_json says it (line, column, key).
        source: serde_json::Error,
    },
    /// Written by a newer aboure, in a schema this one does not know.
    #[error("{}: schema version {found} is newer than this aboure reads ({WORKERS_SCHEMA})", path.display())]
    NewerSchema {
        /// The file.
        path: PathBuf,
        /// The version it has.
        found: u32,
    },
}

impl WorkersFile {
    /// The file's path in the run folder `dir`.
    pub fn path_in(dir: &Path) -> PathBuf {
        crate::folder::RunFolder::new(dir).workers()
    }

    /// Reads the workers file of the run folder `dir`: `Ok(None)` when it
    /// has none.
    pub fn read_in(dir: &Path) -> Result<Option<WorkersFile>, WorkersError> {
        let path = WorkersFile::path_in(dir);
        versioned::read(&path, WORKERS_SCHEMA).map_err(|f| WorkersError::of(f, "read", &path))
    }

    /// Parses the bytes of the workers file `path` (named in errors).
    pub fn from_slice(bytes: &[u8], path: &Path) -> Result<WorkersFile, WorkersError> {
        versioned::parse(bytes, WORKERS_SCHEMA).map_err(|f| WorkersError::of(f, "read", path))
    }

    /// Writes the file into the run folder `dir`, whole or not at all (a
    /// temporary name of this process, then a rename).
    pub fn write_in(&self, dir: &Path) -> Result<(), WorkersError> {
        let path = WorkersFile::path_in(dir);
        versioned::write(self, &path).map_err(|source| WorkersError::Io {
            action: "write",
            path,
            source,
        })
    }

    /// The entry of worker `name`.
    pub fn worker(&self, name: &str) -> Option<&WorkerEntry> {
        self.workers.iter().find(|w| w.name == name)
    }
}

impl WorkersError {
    /// The error of a [`Fault`] met while doing `action` on `path`.
    fn of(fault: Fault, action: &'static str, path: &Path) -> WorkersError {
        let path = path.to_owned();
        match fault {
            Fault::Io(source) => WorkersError::Io {
                action,
                path,
                source,
            },
            Fault::Malformed(source) => WorkersError::Malformed { path, source },
            Fault::Newer(found) => WorkersError::NewerSchema { path, found },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> WorkersFile {
        WorkersFile {
            schema: WORKERS_SCHEMA,
            written: "2026-12-01T12:00:00Z".into(),
            written_by: "1-of-2".into(),
            workers: vec![
                WorkerEntry {
                    name: "1-of-2".into(),
                    about: "worker 1-of-2 host h pid 7 games at once 1".into(),
                    state: WorkerState::Alive,
                    holding: vec![4],
                    games: 6,
                    results: "games-1-of-2.jsonl".into(),
                    last_seen: "2026-12-01T12:00:00Z".into(),
                    took_over: vec![TakenOver {
                        pair: 1,
                        from: "2-of-2".into(),
                    }],
                },
                WorkerEntry {
                    name: "2-of-2".into(),
                    about: String::new(),
                    state: WorkerState::Died,
                    holding: vec![],
                    games: 1,
                    results: "games-2-of-2.jsonl".into(),
                    last_seen: "2026-12-01T11:59:58Z".into(),
                    took_over: vec![],
                },
            ],
        }
    }

    #[test]
    fn a_file_written_reads_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        assert!(WorkersFile::read_in(dir.path()).unwrap().is_none());
        sample().write_in(dir.path()).unwrap();
        let read = WorkersFile::read_in(dir.path()).unwrap().unwrap();
        assert_eq!(read, sample());
        assert_eq!(read.worker("2-of-2").unwrap().state, WorkerState::Died);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
    }

    #[test]
    fn a_cut_short_or_newer_file_is_a_typed_error_naming_the_file() {
        let path = Path::new("out/run/workers.json");
        let text = serde_json::to_string_pretty(&sample()).unwrap();
        let cut = WorkersFile::from_slice(&text.as_bytes()[..text.len() / 2], path).unwrap_err();
        assert!(matches!(cut, WorkersError::Malformed { .. }), "{cut}");
        assert!(
            cut.to_string()
                .starts_with("out/run/workers.json: not a workers file: EOF"),
            "{cut}"
        );
        let bad = WorkersFile::from_slice(br#"{"schema": 1, "written": 3}"#, path).unwrap_err();
        assert!(bad.to_string().contains("invalid type"), "{bad}");
        let newer = WorkersFile::from_slice(br#"{"schema": 2, "what": []}"#, path).unwrap_err();
        assert!(
            matches!(newer, WorkersError::NewerSchema { found: 2, .. }),
            "{newer}"
        );
        let none = WorkersFile::from_slice(b"", path).unwrap_err();
        assert!(matches!(none, WorkersError::Malformed { .. }));
    }
}
