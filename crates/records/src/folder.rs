//! The results files of an output folder.
//!
//! A run writes `games.jsonl`; shard K of N writes `games-K-of-N.jsonl`, so
//! every shard of a run can share one folder (on NFS, or a Kubernetes
//! ReadWriteMany volume), each the only writer of its own file, and anyone
//! reading the folder sees all of them.

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

/// Every results file in `dir`: `games.jsonl` first, then the shards' in
/// shard order.
pub fn results_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut found: Vec<((u32, u32), PathBuf)> = Vec::new();
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

/// `(0, 0)` for `games.jsonl`, `(K, N)` for `games-K-of-N.jsonl`.
fn shard_of(name: &str) -> Option<(u32, u32)> {
    if name == "games.jsonl" {
        return Some((0, 0));
    }
    let (k, n) = name
        .strip_prefix("games-")?
        .strip_suffix(".jsonl")?
        .split_once("-of-")?;
    Some((k.parse().ok()?, n.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_files_are_recognised_and_others_are_not() {
        assert_eq!(shard_of("games.jsonl"), Some((0, 0)));
        assert_eq!(shard_of("games-3-of-8.jsonl"), Some((3, 8)));
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
