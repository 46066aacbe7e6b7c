//! Another name of a file: a hard link has a path of its own, so a file of
//! another bot's, linked into a bot's folder (by an unpacking or a sync
//! that keeps hard links), would be read there as the bot's own. Files are
//! compared by device and inode; only files with more than one name are
//! looked for, and each search stops after [`LINK_SEARCH`] entries (a
//! bot's folder is small; a larger one is searched that far).

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use nix::sys::stat::{FileStat, SFlag};

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
    let mut found = false;
    walk(folders, |_, stat| {
        found = !is_dir(stat) && (stat.st_dev, stat.st_ino) == wanted;
        found
    });
    found
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
    walk(folders, |path, stat| {
        if is_file(stat) && stat.st_nlink > 1 {
            linked.insert((stat.st_dev, stat.st_ino), path.to_owned());
        }
        false
    });
    if linked.is_empty() {
        return None;
    }
    let mut found = None;
    walk(theirs, |path, stat| {
        let mine = |p: &Path| mine.iter().any(|m| p.starts_with(m));
        match linked.get(&(stat.st_dev, stat.st_ino)) {
            Some(own) if !mine(path) => {
                found = Some(own.clone());
                true
            }
            _ => false,
        }
    });
    found
}

/// The files of `paths` (files, and every file below folders), by device
/// and inode: the tournament file, other tournament files and results
/// folders beside it, this run's results folder.
pub(crate) fn inodes(paths: &[PathBuf]) -> BTreeSet<(u64, u64)> {
    let mut found = BTreeSet::new();
    walk(paths, |_, stat| {
        if is_file(stat) {
            found.insert((stat.st_dev, stat.st_ino));
        }
        false
    });
    found
}

/// A file below `roots` (a bot's own folders and `read` paths), outside
/// `skip` (what is masked there anyway), with more than one name, that is
/// one of `secret`: the tournament file or a results file under a name
/// of the bot's, which no mask at its own path would hide.
pub(crate) fn linked_secret(
    roots: &[PathBuf],
    secret: &BTreeSet<(u64, u64)>,
    skip: &[PathBuf],
) -> Option<PathBuf> {
    let mut found = None;
    walk(roots, |path, stat| {
        let linked = is_file(stat) && stat.st_nlink > 1;
        if linked && secret.contains(&(stat.st_dev, stat.st_ino)) {
            found = found
                .take()
                .or_else(|| (!skip.iter().any(|s| path.starts_with(s))).then(|| path.to_owned()));
        }
        found.is_some()
    });
    found
}

/// Whether `stat` is a regular file's.
fn is_file(stat: &FileStat) -> bool {
    SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT == SFlag::S_IFREG
}

/// Whether `stat` is a folder's.
fn is_dir(stat: &FileStat) -> bool {
    SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT == SFlag::S_IFDIR
}

/// Calls `visit` on every entry below `roots` (by descriptor, not following
/// links, at most [`LINK_SEARCH`] of them and `tree::MAX_DEPTH` levels
/// deep; see `tree`) until it returns true.
fn walk(roots: &[PathBuf], mut visit: impl FnMut(&Path, &FileStat) -> bool) {
    let mut budget = LINK_SEARCH;
    let mut done = false;
    for root in roots {
        // A root that is a file is an entry itself.
        if let Ok(stat) = nix::sys::stat::lstat(root.as_path()) {
            done = !is_dir(&stat) && visit(root, &stat);
        }
        let walked = crate::tree::walk(root, &mut budget, |path, stat| {
            done = done || visit(path, stat);
            !done
        });
        if done || walked == Err(crate::tree::Stop::Entries) {
            return;
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
        assert_eq!(shared_inode(&o, &[own.clone(), theirs.clone()], &t), None);
        // A hard link to a secret file (the tournament file) under a name
        // of the bot's: found; the secret's own name is skipped (masked).
        let toml = dir.path().join("t.toml");
        std::fs::write(&toml, "[[bot]]").unwrap();
        let secret = inodes(std::slice::from_ref(&toml));
        assert_eq!(linked_secret(&o, &secret, &[]), None);
        std::fs::hard_link(&toml, own.join("notes.txt")).unwrap();
        assert_eq!(linked_secret(&o, &secret, &[]), Some(own.join("notes.txt")));
        let both = [dir.path().to_owned()];
        assert_eq!(
            linked_secret(&both, &secret, &[toml, own.join("notes.txt")]),
            None
        );
    }
}
