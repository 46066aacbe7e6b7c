//! Another name of a file: a hard link has a path of its own, so a file of
//! another bot's, linked into a bot's folder (by an unpacking or a sync
//! that keeps hard links), would be read there as the bot's own. Files are
//! compared by device and inode; only files with more than one name are
//! looked for, and each search stops after [`LINK_SEARCH`] entries (a
//! bot's folder is small; a larger one is searched that far).

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Entries searched for another name of a file.
const LINK_SEARCH: usize = 20_000;

/// Whether `file`, a file with more than one name, is also a file below
/// one of `folders`: compared by device and inode, as a hard link to
/// another bot's file has a path of its own. The search stops after
/// [`LINK_SEARCH`] entries (a bot's folder is small; a larger one is
/// searched that far).
pub(crate) fn linked_into(file: &Path, folders: &[PathBuf]) -> bool {
    let Ok(meta) = std::fs::metadata(file) else {
        return false;
    };
    if meta.nlink() < 2 {
        return false;
    }
    let wanted = (meta.dev(), meta.ino());
    let mut pending: Vec<PathBuf> = folders.to_vec();
    let mut seen = 0;
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > LINK_SEARCH {
                return false;
            }
            // Not followed: a link to a folder is searched at its target.
            let Ok(m) = std::fs::symlink_metadata(entry.path()) else {
                continue;
            };
            if m.is_dir() {
                pending.push(entry.path());
            } else if (m.dev(), m.ino()) == wanted {
                return true;
            }
        }
    }
    false
}

/// A file below `folders` (a bot's own) with more than one name, another
/// of which lies below `theirs` (another bot's folders and paths) and
/// below none of `mine` (all of the bot's own paths): another bot's file
/// under a name of the bot's own.
pub(crate) fn shared_inode(
    folders: &[PathBuf],
    mine: &[PathBuf],
    theirs: &[PathBuf],
) -> Option<PathBuf> {
    let mut linked = BTreeMap::new();
    walk(folders, |path, meta| {
        if meta.is_file() && meta.nlink() > 1 {
            linked.insert((meta.dev(), meta.ino()), path.to_owned());
        }
        false
    });
    if linked.is_empty() {
        return None;
    }
    let mut found = None;
    walk(theirs, |path, meta| {
        let mine = |p: &Path| mine.iter().any(|m| p.starts_with(m));
        match linked.get(&(meta.dev(), meta.ino())) {
            Some(own) if !mine(path) => {
                found = Some(own.clone());
                true
            }
            _ => false,
        }
    });
    found
}

/// Calls `visit` on every entry below `roots` (not following links, at
/// most [`LINK_SEARCH`] of them) until it returns true.
fn walk(roots: &[PathBuf], mut visit: impl FnMut(&Path, &std::fs::Metadata) -> bool) {
    let mut pending: Vec<PathBuf> = roots.to_vec();
    let mut seen = 0;
    while let Some(path) = pending.pop() {
        seen += 1;
        if seen > LINK_SEARCH {
            return;
        }
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if visit(&path, &meta) {
            return;
        }
        if meta.is_dir() {
            if let Ok(entries) = std::fs::read_dir(&path) {
                pending.extend(entries.flatten().map(|e| e.path()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hard_link_to_another_bots_file_is_found_under_its_own_name() {
        let dir = tempfile::tempdir().unwrap();
        let (own, theirs) = (dir.path().join("own"), dir.path().join("theirs"));
        std::fs::create_dir_all(own.join("sub")).unwrap();
        std::fs::create_dir_all(&theirs).unwrap();
        std::fs::write(theirs.join("secret"), "s").unwrap();
        std::fs::write(own.join("plain"), "p").unwrap();
        let (o, t) = (vec![own.clone()], vec![theirs.clone()]);
        assert_eq!(shared_inode(&o, &o, &t), None);
        std::fs::hard_link(theirs.join("secret"), own.join("sub/x.bin")).unwrap();
        assert_eq!(shared_inode(&o, &o, &t), Some(own.join("sub/x.bin")));
        // Both names in the bot's own paths: its own file twice.
        assert_eq!(shared_inode(&o, &[own, theirs], &t), None);
    }
}
