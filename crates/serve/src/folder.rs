//! One watched folder: every `*.jsonl` results file in it (one per shard, or
//! one `games.jsonl`), its `run.json`, and the [`LiveRun`] they feed.
//!
//! The folder is listed again at each poll, so a shard that starts late is
//! picked up; files are only ever opened for reading.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use aboure_records::GameRecord;
use aboure_report::SprtSettings;
use serde_json::Value;

use crate::follow::Follower;
use crate::live::{LiveRun, RunInfo};

/// A folder given on the command line, and what was read from it.
#[derive(Debug)]
pub struct Folder {
    dir: PathBuf,
    /// Each file's follower, its index in the run, and its last read error
    /// (logged once, not at every poll).
    files: Vec<(Follower, usize, Option<String>)>,
    run_json: Option<SystemTime>,
    run: LiveRun,
}

/// What a poll did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Polled {
    /// Something the page shows changed.
    pub changed: bool,
    /// More is waiting to be read at once.
    pub more: bool,
}

impl Folder {
    /// Watches `dir` (read at the first poll).
    pub fn new(dir: &Path) -> Folder {
        Folder {
            dir: dir.to_owned(),
            files: Vec::new(),
            run_json: None,
            run: LiveRun::new(),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The run as read so far.
    pub fn run(&self) -> &LiveRun {
        &self.run
    }

    /// Reads whatever changed since the last poll.
    pub fn poll(&mut self) -> Polled {
        let mut polled = Polled::default();
        self.read_run_json(&mut polled);
        for path in results_files(&self.dir) {
            if !self.files.iter().any(|(f, _, _)| f.path() == path) {
                let index = self.run.add_file(path.clone());
                self.files.push((Follower::new(&path), index, None));
                polled.changed = true;
            }
        }
        for (follower, index, error) in &mut self.files {
            let poll = match follower.poll() {
                Ok(p) => {
                    *error = None;
                    p
                }
                Err(e) => {
                    let message = format!("cannot read {}: {e}", follower.path().display());
                    if error.as_ref() != Some(&message) {
                        tracing::warn!("{message}");
                        self.run.warn(message.clone());
                        *error = Some(message);
                        polled.changed = true;
                    }
                    continue;
                }
            };
            if poll.restarted {
                self.run.forget_file(*index);
                polled.changed = true;
            }
            polled.more |= poll.more;
            for (line, bytes) in poll.lines {
                polled.changed = true;
                match serde_json::from_slice::<GameRecord>(&bytes) {
                    Ok(game) => self.run.push(*index, game),
                    Err(e) => self.run.warn(format!(
                        "{}:{line}: malformed line: {e}",
                        follower.path().display()
                    )),
                }
            }
        }
        polled
    }

    fn read_run_json(&mut self, polled: &mut Polled) {
        let path = self.dir.join("run.json");
        let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        if stamp == self.run_json {
            return;
        }
        self.run_json = stamp;
        let info = match std::fs::read(&path) {
            Ok(bytes) => match run_info(&bytes) {
                Ok(info) => info,
                Err(e) => {
                    self.run.warn(format!("{}: {e}", path.display()));
                    RunInfo::default()
                }
            },
            Err(_) => RunInfo::default(),
        };
        self.run.set_info(info);
        polled.changed = true;
    }
}

/// The results files of a folder, by name: every `*.jsonl`.
fn results_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl") && p.is_file())
        .collect();
    files.sort();
    files
}

/// The SPRT and the size of the schedule, from a `run.json`.
pub fn run_info(bytes: &[u8]) -> Result<RunInfo, String> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| format!("not valid JSON: {e}"))?;
    let sprt = SprtSettings::from_run_json(&value)?;
    let identity = &value["identity"];
    let pairs = identity["pairs"].as_u64();
    let bots = identity["bots"].as_array().map_or(0, Vec::len) as u64;
    let pairings = match &identity["format"] {
        Value::String(f) if f == "round-robin" => Some(bots * bots.saturating_sub(1) / 2),
        Value::String(f) if f == "sprt" => Some(1),
        Value::Object(o) if o.contains_key("gauntlet") => Some(bots.saturating_sub(1)),
        _ => None,
    };
    let scheduled = pairs.zip(pairings).map(|(p, n)| 2 * p * n);
    Ok(RunInfo {
        max_pairs: sprt.and(pairs),
        scheduled,
        sprt,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_comes_from_the_identity() {
        let rr = br#"{"identity":{"format":"round-robin","pairs":10,"bots":[{},{},{},{}]}}"#;
        assert_eq!(run_info(rr).unwrap().scheduled, Some(120));
        let g = br#"{"identity":{"format":{"gauntlet":"a"},"pairs":5,"bots":[{},{},{}]}}"#;
        assert_eq!(run_info(g).unwrap().scheduled, Some(20));
        let sprt = br#"{"identity":{"format":"sprt","pairs":1000,"bots":[{},{}]},
            "sprt":{"elo0":0,"elo1":10,"alpha":0.05,"beta":0.05}}"#;
        let info = run_info(sprt).unwrap();
        assert_eq!(info.max_pairs, Some(1000));
        assert!(info.sprt.is_some());
        assert!(run_info(b"{").is_err());
    }
}
