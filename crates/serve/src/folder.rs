//! One watched folder: every `*.jsonl` results file in it (one per shard, or
//! one `games.jsonl`), its `run.json`, and the [`LiveRun`] they feed.
//!
//! The folder is listed again at each poll, so a shard that starts late is
//! picked up; files are only ever opened for reading.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use aboure_records::{Problem, ProblemKind};
use aboure_report::SprtSettings;
use serde_json::Value;

use crate::follow::Follower;
use crate::live::{LiveRun, RunInfo};

/// A folder given on the command line, and what was read from it.
#[derive(Debug)]
pub struct Folder {
    dir: PathBuf,
    /// Each file's follower and its last read error (logged once, not at
    /// every poll).
    files: Vec<(Follower, Option<String>)>,
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
            run: LiveRun::new(dir, RunInfo::default()),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The run as read so far.
    pub fn run(&mut self) -> &mut LiveRun {
        &mut self.run
    }

    /// Starts the run over: every file is read again from its start into a
    /// fresh report (a file was truncated or replaced, or `run.json`
    /// changed). Rare, and the one way to take games out of a report that
    /// only adds.
    fn start_over(&mut self, info: RunInfo) {
        self.run = LiveRun::new(&self.dir, info);
        for (follower, _) in &mut self.files {
            follower.rewind();
            self.run.add_file(follower.path().to_owned());
        }
    }

    /// Reads whatever changed since the last poll.
    pub fn poll(&mut self) -> Polled {
        let mut polled = Polled::default();
        if let Some(info) = self.read_run_json() {
            self.start_over(info);
            polled.changed = true;
        }
        for path in results_files(&self.dir) {
            if !self.files.iter().any(|(f, _)| f.path() == path) {
                self.run.add_file(path.clone());
                self.files.push((Follower::new(&path), None));
                polled.changed = true;
            }
        }
        for i in 0..self.files.len() {
            let (follower, error) = &mut self.files[i];
            let poll = match follower.poll() {
                Ok(p) => {
                    *error = None;
                    p
                }
                Err(e) => {
                    let message = format!("cannot read {}: {e}", follower.path().display());
                    if error.as_ref() != Some(&message) {
                        tracing::warn!("{message}");
                        *error = Some(message);
                    }
                    continue;
                }
            };
            if poll.restarted {
                let info = self.run.info().clone();
                self.start_over(info);
                return Polled {
                    changed: true,
                    more: true,
                };
            }
            polled.more |= poll.more;
            let path = follower.path().to_owned();
            for (line, bytes) in poll.lines {
                polled.changed = true;
                self.run.push(&path, line, &bytes);
            }
        }
        polled
    }

    /// What `run.json` says, when it changed since the last poll.
    fn read_run_json(&mut self) -> Option<RunInfo> {
        let path = self.dir.join("run.json");
        let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        if stamp == self.run_json {
            return None;
        }
        self.run_json = stamp;
        let bytes = std::fs::read(&path).ok()?;
        match run_info(&bytes) {
            Ok(info) => Some(info),
            Err(message) => {
                self.run.warn(&Problem {
                    path,
                    line: 1,
                    kind: ProblemKind::Malformed,
                    message,
                });
                None
            }
        }
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

    fn game(id: &str, pair: u32, game: u8) -> String {
        let (south, north) = if game == 0 { ("a", "b") } else { ("b", "a") };
        format!(
            r#"{{"id":"{id}","pairing":["a","b"],"pair":{pair},"game":{game},"south":"{south}","north":"{north}","result":"1-0","termination":"natural"}}"#
        ) + "\n"
    }

    #[test]
    fn shards_count_together_and_a_truncated_file_starts_the_run_over() {
        let dir = std::env::temp_dir().join(format!("aboure-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // The two games of pair 0 in two shards' files.
        std::fs::write(dir.join("shard-1.jsonl"), game("p0g0", 0, 0)).unwrap();
        std::fs::write(
            dir.join("shard-2.jsonl"),
            game("p0g1", 0, 1) + &game("p1g0", 1, 0),
        )
        .unwrap();
        std::fs::write(dir.join("notes.txt"), "not results").unwrap();
        let mut folder = Folder::new(&dir);
        assert!(folder.poll().changed);
        assert_eq!(folder.run().games(), 3);
        assert_eq!(folder.run().snapshot().live["pairs"], 1);
        // A shard rewritten shorter: its old games are gone.
        std::fs::write(dir.join("shard-2.jsonl"), game("p0g1", 0, 1)).unwrap();
        while folder.poll().more {}
        assert_eq!(folder.run().games(), 2);
        assert!(!folder.poll().changed);
        // run.json arriving late (aboure run --serve) makes it an SPRT.
        let run = br#"{"identity":{"format":"sprt","pairs":100,"bots":[{},{}]},
            "sprt":{"elo0":0,"elo1":10,"alpha":0.05,"beta":0.05}}"#;
        std::fs::write(dir.join("run.json"), run).unwrap();
        while folder.poll().more {}
        let snap = folder.run().snapshot();
        assert_eq!(snap.live["games"], 2);
        assert_eq!(snap.live["sprt"]["pairs"], 1);
    }

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
