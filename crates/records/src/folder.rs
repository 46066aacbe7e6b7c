//! A run's output folder: [`RunFolder`] names every file and folder in
//! it, so that the writers and the readers (the arbiter, the report, the
//! live page, the workers) agree by construction; below, the results files'
//! names.
//!
//! A run writes `games.jsonl`; shard K of N writes `games-K-of-N.jsonl`,
//! and a worker that joins a run under no shard name writes
//! `games-w-NAME.jsonl`, so every worker of a run can share one folder (on
//! NFS, or a Kubernetes ReadWriteMany volume), each the only writer of its
//! own file, and anyone reading the folder sees all of them.

use std::io;
use std::path::{Path, PathBuf};

/// The folder of claims and worker entries that workers sharing a run
/// write (what is inside it is the workers crate's to name).
pub const CLAIMS_DIR: &str = "claims";

/// The folder of the bots' logs (protocol and stderr).
pub const LOGS_DIR: &str = "logs";

/// The manifest's file name in a run folder ([`crate::RunManifest`]).
pub const MANIFEST_FILE: &str = "run.json";

/// The workers file's name in a run folder ([`crate::workers::WorkersFile`]).
pub const WORKERS_FILE: &str = "workers.json";

/// The SPRT decision's file name in a run folder ([`crate::SprtFile`]).
pub const SPRT_FILE: &str = "sprt.json";

/// The end-of-run reports, in the order they are written.
pub const REPORT_FILES: [&str; 3] = ["report.txt", "report.json", "report.html"];

/// A run's output folder, and the one place that names what is in it: the
/// results files, `run.json`, `workers.json`, `sprt.json`, the reports, the
/// logs and the claims folder. Each file's format is its own module's
/// (this crate's for the files, the workers crate's inside `claims/`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFolder {
    dir: PathBuf,
}

impl RunFolder {
    /// The run folder `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> RunFolder {
        RunFolder { dir: dir.into() }
    }

    /// The folder itself.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The results file of shard `shard` (`None`: the whole run).
    pub fn results(&self, shard: Option<(u32, u32)>) -> PathBuf {
        results_file(&self.dir, shard)
    }

    /// The results file of the worker named `name`.
    pub fn worker_results(&self, name: &str) -> PathBuf {
        worker_results_file(&self.dir, name)
    }

    /// Every results file in the folder, in [`results_files`]' order.
    pub fn results_files(&self) -> io::Result<Vec<PathBuf>> {
        results_files(&self.dir)
    }

    /// `run.json`: what the run is ([`crate::RunManifest`]).
    pub fn manifest(&self) -> PathBuf {
        self.dir.join(MANIFEST_FILE)
    }

    /// `workers.json`: who works on it ([`crate::workers::WorkersFile`]).
    pub fn workers(&self) -> PathBuf {
        self.dir.join(WORKERS_FILE)
    }

    /// `sprt.json`: an SPRT's decision ([`crate::SprtFile`]).
    pub fn sprt(&self) -> PathBuf {
        self.dir.join(SPRT_FILE)
    }

    /// The bots' logs.
    pub fn logs(&self) -> PathBuf {
        self.dir.join(LOGS_DIR)
    }

    /// The claims folder of workers sharing the run.
    pub fn claims(&self) -> PathBuf {
        self.dir.join(CLAIMS_DIR)
    }

    /// The end-of-run reports: text, JSON, HTML.
    pub fn reports(&self) -> [PathBuf; 3] {
        REPORT_FILES.map(|name| self.dir.join(name))
    }

    /// The HTML report.
    pub fn html_report(&self) -> PathBuf {
        self.dir.join(REPORT_FILES[2])
    }
}

/// The results file of shard `index` of `count` (`None`: the whole run) in
/// `dir`.
pub fn results_file(dir: &Path, shard: Option<(u32, u32)>) -> PathBuf {
    match shard {
        Some((index, count)) => dir.join(format!("games-{index}-of-{count}.jsonl")),
        None => dir.join("games.jsonl"),
    }
}

/// The results file of the worker named `name` (letters, digits, `.`,
/// `_` and `-`) in `dir`.
pub fn worker_results_file(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("games-w-{name}.jsonl"))
}

/// Every results file in `dir`: `games.jsonl` first, then the shards' in
/// shard order, then the named workers' by name.
pub fn results_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found: Vec<(Key, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if let Some(key) = shard_of(name) {
            found.push((key, path));
        }
    }
    found.sort();
    Ok(found.into_iter().map(|(_, p)| p).collect())
}

/// Which of two records of one game id counts, whatever order they were
/// read in: true if the record in the results file `a` wins over the one in
/// `b`. The file that sorts first by [`results_files`]' order (`games.jsonl`,
/// the shards', the named workers') wins, then the lesser path; so every
/// reader of a folder (the report, the live page, a worker) picks the same
/// record for a duplicated id. A duplicate arises only where a claim was
/// lost between its check and the write; the rule makes it harmless to the
/// figures, not absent.
pub fn record_wins(a: &Path, b: &Path) -> bool {
    let key = |p: &Path| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        (shard_of(name).is_none(), shard_of(name), p.to_owned())
    };
    key(a) < key(b)
}

/// Where a results file sorts.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Shard(u32, u32),
    Worker(String),
}

/// `(0, 0)` for `games.jsonl`, `(K, N)` for `games-K-of-N.jsonl`, the name
/// for `games-w-NAME.jsonl`.
fn shard_of(name: &str) -> Option<Key> {
    if name == "games.jsonl" {
        return Some(Key::Shard(0, 0));
    }
    let stem = name.strip_prefix("games-")?.strip_suffix(".jsonl")?;
    if let Some(worker) = stem.strip_prefix("w-") {
        let fits = |c: char| c.is_ascii_alphanumeric() || "._-".contains(c);
        return (!worker.is_empty() && worker.chars().all(fits))
            .then(|| Key::Worker(worker.to_owned()));
    }
    let (k, n) = stem.split_once("-of-")?;
    Some(Key::Shard(k.parse().ok()?, n.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_folder_names_the_files_old_runs_have() {
        let f = RunFolder::new("/r");
        let names = [
            f.results(None),
            f.results(Some((2, 3))),
            f.worker_results("h-7"),
            f.manifest(),
            f.workers(),
            f.sprt(),
            f.logs(),
            f.claims(),
            f.html_report(),
        ];
        let expected = [
            "games.jsonl",
            "games-2-of-3.jsonl",
            "games-w-h-7.jsonl",
            "run.json",
            "workers.json",
            "sprt.json",
            "logs",
            "claims",
            "report.html",
        ];
        assert_eq!(names, expected.map(|n| Path::new("/r").join(n)));
        let reports = f.reports().map(|p| p.file_name().unwrap().to_owned());
        assert_eq!(reports, ["report.txt", "report.json", "report.html"]);
        // Every results file it names is one `results_files` lists.
        for path in &names[..3] {
            let name = path.file_name().unwrap().to_str().unwrap();
            assert!(shard_of(name).is_some(), "{name}");
        }
    }

    #[test]
    fn shard_files_are_recognised_and_others_are_not() {
        assert_eq!(shard_of("games.jsonl"), Some(Key::Shard(0, 0)));
        assert_eq!(shard_of("games-3-of-8.jsonl"), Some(Key::Shard(3, 8)));
        assert_eq!(
            shard_of("games-w-h1-42.jsonl"),
            Some(Key::Worker("h1-42".into()))
        );
        assert!(Key::Shard(9, 9) < Key::Worker("a".into()));
        assert_eq!(shard_of("games-w-.jsonl"), None);
        assert_eq!(shard_of("games-w-a b.jsonl"), None);
        assert_eq!(shard_of("games-3-of-8.jsonl.owner"), None);
        assert_eq!(shard_of("games-x-of-8.jsonl"), None);
        assert_eq!(shard_of("run.json"), None);
        let dir = Path::new("/o");
        assert_eq!(
            results_file(dir, Some((3, 8))),
            Path::new("/o/games-3-of-8.jsonl")
        );
    }
}
