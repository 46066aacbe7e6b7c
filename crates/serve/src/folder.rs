//! One watched run: the results files of its folder (`games.jsonl`, or one
//! `games-K-of-N.jsonl` per shard, as [`aboure_records::results_files`]
//! lists them), or of several folders (`--combine`: the shards of one run,
//! each in its own folder), its `run.json` (an
//! [`aboure_records::RunManifest`]), and the [`LiveRun`] they feed.
//!
//! A run shared by many workers also has `workers.json` (an
//! [`aboure_records::workers::WorkersFile`]): read again whenever it
//! changes, for the page's list of workers.
//!
//! The folders are listed again at each poll, so a shard that starts late
//! is picked up; files are only ever opened for reading.
//!
//! A folder of `aboure tune` (one with `tune.json`) is a tune, not a run:
//! from the poll that first sees it, [`LiveTune`] follows it instead.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use aboure_records::workers::WorkersFile;
use aboure_records::{results_files, ManifestError, Problem, ProblemKind, RunManifest};
use aboure_report::SprtSettings;

use crate::live::{LiveRun, RunInfo, Snapshot};
use crate::tune_page::LiveTune;
use aboure_records::Follower;

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
    /// The `workers.json` of each folder read, and when it was written.
    workers_json: Vec<(PathBuf, SystemTime)>,
    run: LiveRun,
    /// The tune, once the folder is seen to be one.
    tune: Option<LiveTune>,
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
            workers_json: Vec::new(),
            tune: None,
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

    /// What the page shows now: the run's report and live figures, or the
    /// tune's.
    pub fn snapshot(&mut self) -> Snapshot {
        match &self.tune {
            Some(tune) => tune.snapshot(),
            None => self.run.snapshot(),
        }
    }

    /// Starts the run over: every file is read again from its start into a
    /// fresh report (a file was truncated or replaced, or `run.json`
    /// changed). Rare, and the one way to take games out of a report that
    /// only adds.
    fn start_over(&mut self, info: RunInfo) {
        self.run = LiveRun::new(&self.name, info);
        self.workers_json = Vec::new();
        for (follower, _) in &mut self.files {
            follower.rewind();
            self.run.add_file(follower.path().to_owned());
        }
    }

    /// Reads whatever changed since the last poll.
    pub fn poll(&mut self) -> Polled {
        if let [dir] = self.dirs.as_slice() {
            if self.tune.is_none() && aboure_report::is_tune_folder(dir) {
                self.tune = Some(LiveTune::new(dir));
            }
        }
        if let Some(tune) = &mut self.tune {
            return Polled {
                changed: tune.poll(),
                more: false,
            };
        }
        let mut polled = Polled::default();
        if let Some(info) = self.read_run_json() {
            self.start_over(info);
            polled.changed = true;
        }
        polled.changed |= self.read_workers_json();
        for path in self
            .dirs
            .iter()
            .flat_map(|d| results_files(d).unwrap_or_default())
        {
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
            if self.run.needs_restart() {
                self.read_again();
                return Polled {
                    changed: true,
                    more: true,
                };
            }
        }
        polled
    }

    /// Reads every file again from its start into a count started over
    /// that keeps the choices between records of one id: a record counted
    /// was replaced by the one its mark names ([`LiveRun::needs_restart`]).
    fn read_again(&mut self) {
        self.run.restart();
        for (follower, _) in &mut self.files {
            follower.rewind();
        }
    }

    /// Reads `workers.json` again if it changed since the last poll; true
    /// if it did. Folders combined (slices, each in a folder of its own)
    /// each have theirs: their workers are listed together.
    fn read_workers_json(&mut self) -> bool {
        let found: Vec<(PathBuf, SystemTime)> = (self.dirs.iter())
            .filter_map(|d| {
                let path = WorkersFile::path_in(d);
                let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok()?;
                Some((path, stamp))
            })
            .collect();
        if found == self.workers_json {
            return false;
        }
        self.workers_json = found.clone();
        let mut merged: Option<WorkersFile> = None;
        let mut errors = Vec::new();
        for (path, _) in found {
            let read = std::fs::read(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
                .and_then(|bytes| {
                    WorkersFile::from_slice(&bytes, &path).map_err(|e| e.to_string())
                });
            match (read, &mut merged) {
                (Err(e), _) => errors.push(e),
                (Ok(file), None) => merged = Some(file),
                (Ok(file), Some(all)) => {
                    all.written = all.written.clone().max(file.written);
                    all.workers.extend(file.workers);
                }
            }
        }
        for e in &errors {
            tracing::warn!("{e}");
        }
        self.run.set_workers(match errors.is_empty() {
            true => Ok(merged),
            false => Err(errors.join("; ")),
        });
        true
    }

    /// What `run.json` says, when it changed since the last poll.
    fn read_run_json(&mut self) -> Option<RunInfo> {
        // The first folder's that exists: shards of one run share it.
        let found = self.dirs.iter().find_map(|d| {
            let path = RunManifest::path_in(d);
            let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok()?;
            Some((path, stamp))
        });
        if found == self.run_json {
            return None;
        }
        self.run_json = found.clone();
        let (path, _) = found?;
        let bytes = std::fs::read(&path).ok()?;
        match RunManifest::from_slice(&bytes, &path) {
            Ok(manifest) => Some(run_info(&manifest)),
            Err(e) => {
                let message = match e {
                    // The problem names the file; the message need not.
                    ManifestError::Malformed { source, .. } => {
                        format!("not a run manifest: {source}")
                    }
                    other => other.to_string(),
                };
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

/// The SPRT, the size of the schedule, the sandbox, the league and its
/// prior, and the openings book, from a run manifest.
pub fn run_info(manifest: &RunManifest) -> RunInfo {
    let sprt = SprtSettings::of_manifest(manifest);
    RunInfo {
        max_pairs: sprt.as_ref().map(|_| u64::from(manifest.identity.pairs)),
        scheduled: manifest.scheduled_games,
        sprt,
        sandbox: manifest.sandbox.clone(),
        league: manifest.league.clone(),
        prior: aboure_report::default_prior(Some(&manifest.identity.format)),
        openings: aboure_report::OpeningsBook::of_manifest(manifest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_records::{
        AdjudicationIdentity, BotIdentity, BotRunIdentity, FormatIdentity, OpeningsIdentity,
        TournamentIdentity,
    };

    /// The manifest of a run of `bots` bots (`a`, `b`, ...) in `format`, `pairs` pairs a
    /// pairing.
    fn manifest(format: FormatIdentity, bots: usize, pairs: u32) -> RunManifest {
        let identity = TournamentIdentity {
            format,
            pairs,
            seed: 1,
            openings: OpeningsIdentity::Random { random_plies: 4 },
            adjudication: AdjudicationIdentity {
                max_plies: 400,
                repetitions: 3,
                solve_after: None,
                solve_nodes: None,
            },
            bots: (0..bots)
                .map(|i| BotIdentity {
                    name: char::from(b'a' + i as u8).to_string(),
                    run: BotRunIdentity::Builtin("random".to_owned()),
                    options: Default::default(),
                    time_control: "2s+20ms, margin 50ms".to_owned(),
                    limits: None,
                    ponder: false,
                })
                .collect(),
        };
        RunManifest::new(
            "t.toml".into(),
            None,
            "2026-12-01T00:00:00Z".into(),
            identity,
        )
    }

    fn sprt_manifest(pairs: u32) -> RunManifest {
        let mut m = manifest(FormatIdentity::Sprt, 2, pairs);
        m.scheduled_games = Some(2 * u64::from(pairs));
        m.sprt = Some(
            aboure_stats::Sprt::new(0.0, 10.0, 0.05, 0.05, aboure_stats::EloModel::Normalized)
                .unwrap(),
        );
        m
    }

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
        std::fs::write(dir.join("games-1-of-2.jsonl"), game("p0g0", 0, 0)).unwrap();
        std::fs::write(
            dir.join("games-2-of-2.jsonl"),
            game("p0g1", 0, 1) + &game("p1g0", 1, 0),
        )
        .unwrap();
        std::fs::write(dir.join("notes.txt"), "not results").unwrap();
        // Not a results file of a run, though its lines are games.
        std::fs::write(dir.join("copy.jsonl"), game("p9g0", 9, 0)).unwrap();
        let mut folder = Folder::new(std::slice::from_ref(&dir));
        assert!(folder.poll().changed);
        assert_eq!(folder.run().games(), 3);
        assert_eq!(folder.run().snapshot().live["pairs"], 1);
        // A shard rewritten shorter: its old games are gone.
        std::fs::write(dir.join("games-2-of-2.jsonl"), game("p0g1", 0, 1)).unwrap();
        while folder.poll().more {}
        assert_eq!(folder.run().games(), 2);
        assert!(!folder.poll().changed);
        // run.json arriving late (aboure run --serve) makes it an SPRT.
        sprt_manifest(100).write_in(&dir).unwrap();
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
    fn a_left_over_record_gives_way_to_the_one_its_mark_names_even_read_first() {
        use aboure_records::mark::{mark_path, mark_text, marks_dir};
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        std::fs::create_dir_all(marks_dir(dir)).unwrap();
        let won = |folder: &mut Folder| {
            while folder.poll().more {}
            let live = folder.run().snapshot().live;
            (live["games"].clone(), live["leader"]["name"].clone())
        };
        // The left-over (a wins) in the file read first, marked at first
        // as its own: it counts, alone.
        let left_over = dir.join("games-1-of-2.jsonl");
        std::fs::write(&left_over, game("p0g0", 0, 0)).unwrap();
        std::fs::write(mark_path(dir, "p0g0"), mark_text("games-1-of-2.jsonl")).unwrap();
        let mut folder = Folder::new(&[dir.to_owned()]);
        assert_eq!(won(&mut folder), (1.into(), "a".into()));
        // Taken over: the mark names the other file, whose record (b wins)
        // comes later. It counts instead, once.
        std::fs::write(mark_path(dir, "p0g0"), mark_text("games-2-of-2.jsonl")).unwrap();
        let marked = game("p0g0", 0, 0).replace(
            "\"south\":\"a\",\"north\":\"b\"",
            "\"south\":\"b\",\"north\":\"a\"",
        );
        std::fs::write(dir.join("games-2-of-2.jsonl"), &marked).unwrap();
        assert_eq!(won(&mut folder), (1.into(), "b".into()));
        assert!(!folder.poll().changed, "read again once");
        // A page started afterwards counts the same, the left-over read first.
        let mut fresh = Folder::new(&[dir.to_owned()]);
        assert_eq!(won(&mut fresh), (1.into(), "b".into()));
    }

    #[test]
    fn the_schedule_and_the_sprt_come_from_the_manifest() {
        let mut rr = manifest(FormatIdentity::RoundRobin, 4, 10);
        assert_eq!(run_info(&rr), RunInfo::default());
        rr.scheduled_games = Some(120);
        // Bounds in a run that is not an SPRT do not make it one.
        rr.sprt = sprt_manifest(1).sprt;
        let info = run_info(&rr);
        assert_eq!(
            (info.scheduled, info.sprt, info.max_pairs),
            (Some(120), None, None)
        );
        let info = run_info(&sprt_manifest(1000));
        assert_eq!(info.max_pairs, Some(1000));
        assert_eq!(info.scheduled, Some(2000));
        assert!(info.sprt.is_some());
        assert_eq!(info.prior, None);
        // A league's page rates with the league's prior, as its report does.
        let league = run_info(&manifest(FormatIdentity::League, 4, 10));
        assert_eq!(league.prior, Some(2.0));
    }

    #[test]
    fn a_manifest_it_cannot_read_is_reported_and_the_games_still_count() {
        let dir = std::env::temp_dir().join(format!("aboure-serve-newer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("run.json"), r#"{"schema": 9}"#).unwrap();
        std::fs::write(dir.join("games.jsonl"), game("r0000-p00-g0", 0, 0)).unwrap();
        let mut folder = Folder::new(std::slice::from_ref(&dir));
        folder.poll();
        let snap = folder.run().snapshot();
        assert_eq!(snap.live["games"], 1);
        assert!(
            snap.body.contains("schema version 9 is newer"),
            "{}",
            snap.body
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_page_names_the_sandbox_the_run_recorded() {
        let dir = std::env::temp_dir().join(format!("aboure-serve-sandbox-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut run = manifest(FormatIdentity::RoundRobin, 2, 1);
        run.sandbox = Some(aboure_records::SandboxLayers {
            mode: "auto".to_owned(),
            layers: vec![
                aboure_records::SandboxLayer {
                    name: "landlock".to_owned(),
                    active: true,
                    detail: String::new(),
                },
                aboure_records::SandboxLayer {
                    name: "cgroup-memory".to_owned(),
                    active: false,
                    detail: "no cgroup v1".to_owned(),
                },
            ],
        });
        run.write_in(&dir).unwrap();
        std::fs::write(dir.join("games.jsonl"), game("r0000-p00-g0", 0, 0)).unwrap();
        let mut folder = Folder::new(std::slice::from_ref(&dir));
        folder.poll();
        let body = folder.run().snapshot().body;
        assert!(body.contains("<section id=\"sandbox\">"), "{body}");
        assert!(body.contains("landlock"), "{body}");
        assert!(body.contains("no cgroup v1"), "{body}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_workers_and_the_pairs_taken_from_dead_ones_come_from_workers_json() {
        use aboure_records::workers::{TakenOver, WorkerEntry, WorkerState, WORKERS_SCHEMA};
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        std::fs::write(dir.join("games-1-of-2.jsonl"), game("p0g0", 0, 0)).unwrap();
        let mut folder = Folder::new(&[dir.to_owned()]);
        folder.poll();
        assert!(
            folder.run().snapshot().live["workers"].is_null(),
            "one process: no list"
        );
        let entry = |name: &str, state, holding: Vec<u64>, took: Vec<TakenOver>| WorkerEntry {
            name: name.to_owned(),
            about: String::new(),
            state,
            holding,
            games: 1,
            results: format!("games-{name}.jsonl"),
            last_seen: "2026-12-01T12:00:00Z".to_owned(),
            took_over: took,
        };
        let taken = |pair, from: &str| TakenOver {
            pair,
            from: from.to_owned(),
        };
        let file = WorkersFile {
            schema: WORKERS_SCHEMA,
            written: "2026-12-01T12:00:05Z".to_owned(),
            written_by: "1-of-2".to_owned(),
            workers: vec![
                entry(
                    "1-of-2",
                    WorkerState::Alive,
                    vec![3],
                    vec![taken(1, "2-of-2"), taken(2, "x")],
                ),
                entry("2-of-2", WorkerState::Died, vec![], vec![]),
                entry("x", WorkerState::Ended, vec![], vec![]),
            ],
        };
        file.write_in(dir).unwrap();
        assert!(folder.poll().changed, "a new workers.json is a change");
        let live = folder.run().snapshot().live;
        let w = &live["workers"];
        assert_eq!(w["list"][0]["state"], "alive");
        assert_eq!(w["list"][0]["holding"], serde_json::json!([3]));
        assert_eq!(w["list"][1]["state"], "dead");
        assert_eq!(w["list"][2]["games"], 1);
        // Pair 2 was taken from a worker that ended, not died: not listed.
        assert_eq!(
            w["taken_over"],
            serde_json::json!([{"pair": 1, "from": "2-of-2", "by": "1-of-2"}])
        );
        assert!(!folder.poll().changed, "read once");
        std::fs::write(dir.join("workers.json"), r#"{"schema": 7}"#).unwrap();
        folder.poll();
        let live = folder.run().snapshot().live;
        let error = live["workers"]["error"].as_str().unwrap();
        assert!(
            error.contains("workers.json: schema version 7 is newer"),
            "{error}"
        );
    }
}
