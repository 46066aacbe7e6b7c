//! The files of a tune's output folder (`aboure tune`): `tune-path.jsonl`,
//! one [`TuneStep`] a line, appended and synced after every SPSA iteration
//! before the next starts (what `--resume` continues from), and `tune.json`
//! ([`TuneFile`]), written whole at the end: the parameters, the path, the
//! final values and the confirming SPRT. The report reads both.
//!
//! JSON numbers are read back to the nearest double only approximately by
//! default, so each step also keeps its theta as the bits of each double
//! (`theta_bits`): a resumed tune continues from exactly the values it
//! stopped at.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::versioned::{self, Fault};

/// The path of a tune, one iteration a line.
pub const TUNE_PATH_FILE: &str = "tune-path.jsonl";
/// The result of a tune.
pub const TUNE_FILE: &str = "tune.json";
/// The newest schema of `tune.json` this version reads and writes.
pub const TUNE_SCHEMA: u32 = 1;

/// One SPSA iteration: the two points scored, the gain, and theta after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneStep {
    /// The iteration, from 1.
    pub iteration: u32,
    /// The direction, +1 or -1 per parameter.
    pub delta: Vec<f64>,
    /// The perturbation `c_k` per parameter.
    pub c: Vec<f64>,
    /// The values sent for `theta + c_k delta`.
    pub plus: Vec<f64>,
    /// The values sent for `theta - c_k delta`.
    pub minus: Vec<f64>,
    /// The plus point's score minus the minus point's: wins minus losses
    /// (games), or seeds lost a move by minus minus those by plus (accuracy).
    pub gain: f64,
    /// The minus point's mean seeds lost a move (accuracy objective only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// Games played for this iteration.
    pub games: u64,
    /// Wall time of the iteration, seconds.
    pub seconds: f64,
    /// Theta after the iteration (real even for integer parameters).
    pub theta: Vec<f64>,
    /// The same, as the bits of each double: the exact state to resume.
    pub theta_bits: Vec<u64>,
}

impl TuneStep {
    /// Theta exactly as it was written.
    pub fn exact_theta(&self) -> Vec<f64> {
        self.theta_bits.iter().map(|&b| f64::from_bits(b)).collect()
    }
}

/// One tuned parameter, as the tune was given it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedParameter {
    /// The option's name.
    pub name: String,
    /// Where the tune started.
    pub start: f64,
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
    /// The perturbation at the end (`c_end`).
    pub step: f64,
}

/// The confirming SPRT of the tuned values against the start ones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfirm {
    /// `H1 accepted`, `H0 accepted` or `undecided`.
    pub verdict: String,
    /// The test and its state, in words.
    pub description: String,
    /// Games played.
    pub games: u64,
    /// Points of the tuned bot.
    pub points: f64,
}

/// `tune.json`: the result of a tune.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneFile {
    /// The schema version ([`TUNE_SCHEMA`]).
    pub schema: u32,
    /// The tuned bot.
    pub bot: String,
    /// `games` or `accuracy`.
    pub objective: String,
    /// The seed of the perturbations.
    pub seed: u64,
    /// The iterations the tune's budget allows (absent in files written
    /// before it was recorded): how far a running tune has to go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u32>,
    /// The parameters.
    pub parameters: Vec<TunedParameter>,
    /// Every iteration.
    pub path: Vec<TuneStep>,
    /// The final values, as sent to the bot.
    pub values: BTreeMap<String, f64>,
    /// The confirming SPRT, if the tune asked for one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<TuneConfirm>,
}

/// A tune file that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum TuneFileError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line or file that is not what it should be.
    #[error("{path}:{line}: {message}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line (0 for the whole file).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl TuneFile {
    /// Writes `tune.json` into `dir`, whole or not at all.
    pub fn write_in(&self, dir: &Path) -> Result<(), TuneFileError> {
        let path = dir.join(TUNE_FILE);
        versioned::write(self, &path).map_err(|source| TuneFileError::Io { path, source })
    }

    /// Reads `tune.json` of `dir`, if there is one.
    pub fn read_in(dir: &Path) -> Result<Option<TuneFile>, TuneFileError> {
        let path = dir.join(TUNE_FILE);
        versioned::read(&path, TUNE_SCHEMA).map_err(|fault| {
            let message = match fault {
                Fault::Io(source) => {
                    return TuneFileError::Io {
                        path: path.clone(),
                        source,
                    }
                }
                Fault::Malformed(e) => e.to_string(),
                Fault::Newer(v) => format!("schema {v} is newer than this aboure reads"),
            };
            TuneFileError::Malformed {
                path: path.clone(),
                line: 0,
                message,
            }
        })
    }
}

/// The steps of `tune-path.jsonl` in `dir` (none if there is no file). A
/// last line without its newline is an iteration cut short by a kill: it is
/// left out (and [`TunePath::open`] cuts it off).
pub fn read_tune_path(dir: &Path) -> Result<Vec<TuneStep>, TuneFileError> {
    let path = dir.join(TUNE_PATH_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(TuneFileError::Io { path, source }),
    };
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    complete
        .lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| TuneFileError::Malformed {
                path: path.clone(),
                line: i + 1,
                message: e.to_string(),
            })
        })
        .collect()
}

/// `tune-path.jsonl`, open for appending.
pub struct TunePath {
    file: File,
    path: PathBuf,
}

impl TunePath {
    /// Opens the path of `dir` after its complete lines (cutting off a torn
    /// last line), and returns them.
    pub fn open(dir: &Path) -> Result<(TunePath, Vec<TuneStep>), TuneFileError> {
        let path = dir.join(TUNE_PATH_FILE);
        let io = |source| TuneFileError::Io {
            path: path.clone(),
            source,
        };
        let steps = read_tune_path(dir)?;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io)?;
        let text = std::fs::read(&path).map_err(io)?;
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        file.set_len(keep as u64).map_err(io)?;
        let mut file = file;
        std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(io)?;
        Ok((TunePath { file, path }, steps))
    }

    /// Appends `step` and syncs it to disk.
    pub fn append(&mut self, step: &TuneStep) -> Result<(), TuneFileError> {
        let io = |source| TuneFileError::Io {
            path: self.path.clone(),
            source,
        };
        let mut line = serde_json::to_string(step).map_err(|e| io(std::io::Error::other(e)))?;
        line.push('\n');
        self.file.write_all(line.as_bytes()).map_err(io)?;
        self.file.sync_data().map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(iteration: u32, theta: f64) -> TuneStep {
        TuneStep {
            iteration,
            delta: vec![1.0],
            c: vec![10.0],
            plus: vec![theta + 10.0],
            minus: vec![theta - 10.0],
            gain: 0.5,
            loss: None,
            games: 2,
            seconds: 0.1,
            theta: vec![theta],
            theta_bits: vec![theta.to_bits()],
        }
    }

    #[test]
    fn a_torn_last_line_is_cut_off_and_the_path_continues() {
        let dir = tempfile::tempdir().unwrap();
        let (mut path, steps) = TunePath::open(dir.path()).unwrap();
        assert!(steps.is_empty());
        // A value whose shortest decimal form is not read back exactly
        // everywhere: the bits are.
        let odd = 0.1 + 0.2 + 1e-17 * 3.0;
        path.append(&step(1, odd)).unwrap();
        drop(path);
        let file = dir.path().join(TUNE_PATH_FILE);
        let mut text = std::fs::read_to_string(&file).unwrap();
        text.push_str("{\"iteration\":2,\"del");
        std::fs::write(&file, text).unwrap();
        let (mut path, steps) = TunePath::open(dir.path()).unwrap();
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].exact_theta()[0].to_bits(), odd.to_bits());
        path.append(&step(2, 3.0)).unwrap();
        let steps = read_tune_path(dir.path()).unwrap();
        assert_eq!(
            steps.iter().map(|s| s.iteration).collect::<Vec<_>>(),
            [1, 2]
        );
    }

    #[test]
    fn tune_json_round_trips_and_a_newer_schema_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(TuneFile::read_in(dir.path()).unwrap().is_none());
        let file = TuneFile {
            schema: TUNE_SCHEMA,
            bot: "ab".into(),
            objective: "games".into(),
            seed: 1,
            iterations: Some(1),
            parameters: vec![],
            path: vec![step(1, 2.0)],
            values: BTreeMap::from([("w".to_owned(), 2.0)]),
            confirm: None,
        };
        file.write_in(dir.path()).unwrap();
        assert_eq!(TuneFile::read_in(dir.path()).unwrap(), Some(file.clone()));
        let newer = TuneFile { schema: 9, ..file };
        newer.write_in(dir.path()).unwrap();
        let err = TuneFile::read_in(dir.path()).unwrap_err().to_string();
        assert!(err.contains("schema 9"), "{err}");
    }
}
