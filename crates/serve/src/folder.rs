//! One watched run: every `*.jsonl` results file in its folder (one per
//! shard, or one `games.jsonl`), or in several folders (`--combine`: the
//! shards of one run, each in its own folder), its `run.json`, and the
//! [`LiveRun`] they feed.
//!
//! The folders are listed again at each poll, so a shard that starts late
//! is picked up; files are only ever opened for reading.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use aboure_records::{Problem, ProblemKind};
use aboure_report::{SandboxLayers, SprtSettings};
use serde_json::Value;

use crate::follow::Follower;
use crate::live::{LiveRun, RunInfo};

/// A folder given on the command line, and what was read from it.
#[derive(Debug)]
pub struct Folder {
    dirs: Vec<PathBuf>,
    /// The folders' names, as the page shows them.
    name: PathBuf,
    /// Each file's follower and its last read error (logged once, not at
    /// every poll).
    files: Vec<(Follower, Option<String>)>,
    /// The `run.json` read and when it was written.
    run_json: Option<(PathBuf, SystemTime)>,
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
    /// Watches the folders of one run, `dirs` (read at the first poll).
    pub fn new(dirs: &[PathBuf]) -> Folder {
        let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        let name = PathBuf::from(names.join(" + "));
        Folder {
            dirs: dirs.to_vec(),
            run: LiveRun::new(&name, RunInfo::default()),
            name,
            files: Vec::new(),
            run_json: None,
        }
    }

    /// The folders, as the page names them.
    pub fn name(&self) -> &Path {
        &self.name
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
        self.run = LiveRun::new(&self.name, info);
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
        for path in self.dirs.iter().flat_map(|d| results_files(d)) {
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
        // The first folder's that exists: shards of one run share it.
        let found = self.dirs.iter().find_map(|d| {
            let path = d.join("run.json");
            let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok()?;
            Some((path, stamp))
        });
        if found == self.run_json {
            return None;
        }
        self.run_json = found.clone();
        let (path, _) = found?;
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
    let sprt = SprtSettings::from_run_json(&value).map_err(|e| e.to_string())?;
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
        sandbox: SandboxLayers::from_run_json(&value).map_err(|e| e.to_string())?,
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
        let mut folder = Folder::new(std::slice::from_ref(&dir));
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
    fn shards_in_folders_of_their_own_combine_into_one_run() {
        let base = std::env::temp_dir().join(format!("aboure-combine-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let dirs = [base.join("shard-1"), base.join("shard-2")];
        for (d, text) in dirs.iter().zip([game("p0g0", 0, 0), game("p0g1", 0, 1)]) {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(d.join("games.jsonl"), text).unwrap();
        }
        let mut folder = Folder::new(&dirs);
        folder.poll();
        let snap = folder.run().snapshot();
        assert_eq!(snap.live["games"], 2);
        assert_eq!(snap.live["pairs"], 1);
        assert_eq!(snap.live["files"].as_array().unwrap().len(), 2);
        assert!(folder.name().display().to_string().contains(" + "));
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

    #[test]
    fn the_page_names_the_sandbox_the_run_recorded() {
        let dir = std::env::temp_dir().join(format!("aboure-serve-sandbox-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("run.json"),
            r#"{"identity":{"format":"round-robin","pairs":1,"bots":[{},{}]},
                "sandbox":{"mode":"auto","layers":[{"name":"landlock","active":true,"detail":""},
                {"name":"cgroup-memory","active":false,"detail":"no cgroup v1"}]}}"#,
        )
        .unwrap();
        std::fs::write(dir.join("games.jsonl"), game("r0000-p00-g0", 0, 0)).unwrap();
        let mut folder = Folder::new(std::slice::from_ref(&dir));
        folder.poll();
        let body = folder.run().snapshot().body;
        assert!(body.contains("<section id=\"sandbox\">"), "{body}");
        assert!(body.contains("landlock"), "{body}");
        assert!(body.contains("no cgroup v1"), "{body}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
