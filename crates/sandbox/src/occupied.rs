//! Which uids of `sandbox.uids` the host already uses, so that no bot is
//! given one: a uid is an identity, and whoever else holds it (a host
//! account, a process left running, the owner of a file an earlier run's
//! bot left behind) would own the bot, or the bot would own its files.
//!
//! Three sources, read when a bot's uid is chosen: the accounts and groups
//! of `/etc/passwd` and `/etc/group`, the real, effective, saved and
//! filesystem ids of every running process (`/proc/PID/status`), and the
//! owners (user and group) of the files the bot will see, walked without
//! following a link. The walk is bounded ([`FILE_SEARCH`] entries): a bot's
//! folders are small, and a larger `read` path is searched that far.

use std::collections::BTreeSet;
use std::ops::RangeInclusive;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Entries walked for the owners of a bot's files (see [`file_owners`]).
pub(crate) const FILE_SEARCH: usize = 20_000;

/// The uids of `range` that a host account or group, or a running
/// process, uses (as its uid or gid: a bot's gid is its uid's number).
pub(crate) fn host_ids(range: &RangeInclusive<u32>) -> BTreeSet<u32> {
    let mut ids = BTreeSet::new();
    for (file, fields) in [("/etc/passwd", [2, 3].as_slice()), ("/etc/group", &[2])] {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        ids.extend(account_ids(&text, fields));
    }
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let name = entry.file_name();
            if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            // A process gone meanwhile has no status: it holds nothing.
            if let Ok(status) = std::fs::read_to_string(entry.path().join("status")) {
                ids.extend(process_ids(&status));
            }
        }
    }
    ids.retain(|id| range.contains(id));
    ids
}

/// The numbers in the colon-separated `fields` of each line of an
/// `/etc/passwd`-like `text`.
fn account_ids<'a>(text: &'a str, fields: &'a [usize]) -> impl Iterator<Item = u32> + 'a {
    text.lines().flat_map(move |line| {
        let parts: Vec<&str> = line.split(':').collect();
        (fields.iter()).filter_map(move |&i| parts.get(i)?.trim().parse().ok())
    })
}

/// The ids of the `Uid:` and `Gid:` lines of a `/proc/PID/status`.
fn process_ids(status: &str) -> impl Iterator<Item = u32> + '_ {
    status
        .lines()
        .filter_map(|line| (line.strip_prefix("Uid:")).or_else(|| line.strip_prefix("Gid:")))
        .flat_map(|ids| ids.split_whitespace().filter_map(|id| id.parse().ok()))
}

/// The ids of `range` that own (as user or group) a file or folder below
/// `paths`, leaving out what lies below `skip`; links are not followed.
/// The walk is by descriptor (see `tree`), [`FILE_SEARCH`] entries and
/// `tree::MAX_DEPTH` levels at most: deeper is not searched.
pub(crate) fn file_owners(
    paths: &[PathBuf],
    skip: &[PathBuf],
    range: &RangeInclusive<u32>,
) -> BTreeSet<u32> {
    let mut owners = BTreeSet::new();
    let mut budget = FILE_SEARCH;
    let skipped = |path: &Path| skip.iter().any(|s| path.starts_with(s));
    for path in paths.iter().filter(|p| !skipped(p)) {
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            continue;
        };
        owners.extend(
            [meta.uid(), meta.gid()]
                .into_iter()
                .filter(|id| range.contains(id)),
        );
        let walked = crate::tree::walk(path, &mut budget, |inner, stat| {
            if skipped(inner) {
                return false;
            }
            let ids = [stat.st_uid, stat.st_gid];
            owners.extend(ids.into_iter().filter(|id| range.contains(id)));
            true
        });
        if walked == Err(crate::tree::Stop::Entries) {
            break;
        }
    }
    owners
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounts_and_groups_name_their_ids() {
        let passwd = "root:x:0:0:root:/root:/bin/sh\nclash:x:60007:60009::/:/bin/sh\nbad\n";
        let ids: Vec<u32> = account_ids(passwd, &[2, 3]).collect();
        assert_eq!(ids, [0, 0, 60007, 60009]);
        let group = "staff:x:60003:\n";
        assert_eq!(account_ids(group, &[2]).collect::<Vec<_>>(), [60003]);
    }

    #[test]
    fn a_process_holds_every_id_of_its_status() {
        let status = "Name:\tsh\nUid:\t60001\t60002\t60003\t60004\nGid:\t5\t5\t5\t5\nPid:\t7\n";
        let ids: BTreeSet<u32> = process_ids(status).collect();
        assert_eq!(ids, [5, 60001, 60002, 60003, 60004].into());
    }

    #[test]
    fn owners_of_files_below_a_folder_are_found_unless_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let me = std::fs::metadata(dir.path()).unwrap().uid();
        let range = me..=me;
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("f"), "x").unwrap();
        let found = file_owners(&[dir.path().to_owned()], &[], &range);
        assert_eq!(found, [me].into());
        assert!(file_owners(&[dir.path().to_owned()], &[dir.path().to_owned()], &range).is_empty());
    }
}
