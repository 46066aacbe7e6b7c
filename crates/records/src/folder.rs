//! The results files of an output folder.
//!
//! A run writes `games.jsonl`; shard K of N writes `games-K-of-N.jsonl`,
//! and a worker that joins a run under no shard name writes
//! `games-w-NAME.jsonl`, so every worker of a run can share one folder (on
//! NFS, or a Kubernetes ReadWriteMany volume), each the only writer of its
//! own file, and anyone reading the folder sees all of them.

use std::io;
use std::path::{Path, PathBuf};

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
