//! Another name of a file: a hard link has a path of its own, so a file of
//! another bot's, linked into a bot's folder (by an unpacking or a sync
//! that keeps hard links), would be read there as the bot's own. Files are
//! compared by device and inode; only files with more than one name are
//! looked for. Each search reads at most [`LINK_SEARCH`] entries and
//! `tree::MAX_DEPTH` levels: a bot's folder is small, and a larger one is
//! refused ([`Unsearched`]), as a link past the bound would not be seen.

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use nix::sys::stat::{FileStat, SFlag};

/// Entries searched for another name of a file, in a bot's folders and
/// paths together: past it, they are refused. A compiled bot's folder is
/// its build folder (35,085 entries for this workspace's `target/debug`,
/// `find target/debug | wc -l`), which `find` reads in 0.13 s; 200,000
/// take about a second. Smaller in this crate's unit tests, which build a
/// tree past it.
#[cfg(not(test))]
pub const LINK_SEARCH: usize = 200_000;
/// Entries searched for another name of a file (see above).
#[cfg(test)]
pub const LINK_SEARCH: usize = 2_000;

/// A search for hard links that stopped before the end of its folders:
/// the folder where it stopped, and why (more than [`LINK_SEARCH`]
/// entries, or folders deeper than `tree::MAX_DEPTH`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsearched {
    /// The folder searched when the bound was reached.
    pub folder: PathBuf,
    /// Which bound.
    pub deep: bool,
}

impl std::fmt::Display for Unsearched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bound = if self.deep {
            format!("folders more than {} levels deep", crate::tree::MAX_DEPTH)
        } else {
            format!("more than {LINK_SEARCH} entries in the bot's folders and paths")
        };
        write!(f, "{} ({bound})", crate::error::shown(&self.folder))
    }
}

/// Whether `file`, a file with more than one name, is also a file below
/// one of `folders`: compared by device and inode, as a hard link to
/// another bot's file has a path of its own. The search stops after
/// [`LINK_SEARCH`] entries: `folders` are another bot's, refused already
/// if they are larger (see [`shared_inode`]).
pub(crate) fn linked_into(file: &Path, folders: &[PathBuf]) -> bool {
    let Ok(meta) = std::fs::metadata(file) else {
        return false;
    };
    if meta.nlink() < 2 {
        return false;
    }
    let wanted = (meta.dev(), meta.ino());
    let mut found = false;
    let _ = walk(folders, |_, stat| {
        found = !is_dir(stat) && (stat.st_dev, stat.st_ino) == wanted;
        found
    });
    found
}

/// A file below `folders` (a bot's own) with more than one name, another
/// of which lies below `theirs` (another bot's folders and paths) and
/// below none of `mine` (all of the bot's own paths): another bot's file
/// under a name of the bot's own. Folders too large to search whole are
/// refused.
pub(crate) fn shared_inode(
    folders: &[PathBuf],
    mine: &[PathBuf],
    theirs: &[PathBuf],
) -> Result<Option<PathBuf>, Unsearched> {
    let mut linked = BTreeMap::new();
    walk(folders, |path, stat| {
        if is_file(stat) && stat.st_nlink > 1 {
            linked.insert((stat.st_dev, stat.st_ino), path.to_owned());
        }
        false
    })?;
    if linked.is_empty() {
        return Ok(None);
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
    })?;
    Ok(found)
}

/// The files of `paths` (files, and every file below folders), by device
/// and inode: the tournament file, other tournament files and results
/// folders beside it, this run's results folder.
pub(crate) fn inodes(paths: &[PathBuf]) -> BTreeSet<(u64, u64)> {
    let mut found = BTreeSet::new();
    let _ = walk(paths, |_, stat| {
        if is_file(stat) {
            found.insert((stat.st_dev, stat.st_ino));
        }
        false
    });
    found
}

/// A file below `roots` (a bot's own folders, `read` and `write` paths),
/// outside `skip` (what is masked there anyway), with more than one name,
/// that is one of `secret`: the tournament file or a results file under a
/// name of the bot's, which no mask at its own path would hide. Roots too
/// large to search whole are refused.
pub(crate) fn linked_secret(
    roots: &[PathBuf],
    secret: &BTreeSet<(u64, u64)>,
    skip: &[PathBuf],
) -> Result<Option<PathBuf>, Unsearched> {
    let mut found = None;
    walk(roots, |path, stat| {
        let linked = is_file(stat) && stat.st_nlink > 1;
        if linked && secret.contains(&(stat.st_dev, stat.st_ino)) {
            found = found
                .take()
                .or_else(|| (!skip.iter().any(|s| path.starts_with(s))).then(|| path.to_owned()));
        }
        found.is_some()
    })?;
    Ok(found)
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
/// deep; see `tree`) until it returns true; the root where a bound was
/// reached first, if one was.
pub(crate) fn walk(
    roots: &[PathBuf],
    mut visit: impl FnMut(&Path, &FileStat) -> bool,
) -> Result<(), Unsearched> {
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
        if done {
            return Ok(());
        }
        if let Err(stop) = walked {
            let deep = stop == crate::tree::Stop::Depth;
            let folder = root.clone();
            return Err(Unsearched { folder, deep });
        }
    }
    Ok(())
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
        assert_eq!(shared_inode(&o, &o, &t).unwrap(), None);
        std::fs::hard_link(theirs.join("secret"), own.join("sub/x.bin")).unwrap();
        assert_eq!(
            shared_inode(&o, &o, &t).unwrap(),
            Some(own.join("sub/x.bin"))
        );
        // Both names in the bot's own paths: its own file twice.
        assert_eq!(
            shared_inode(&o, &[own.clone(), theirs.clone()], &t).unwrap(),
            None
        );
        // A hard link to a secret file (the tournament file) under a name
        // of the bot's: found; the secret's own name is skipped (masked).
        let toml = dir.path().join("t.toml");
        std::fs::write(&toml, "[[bot]]").unwrap();
        let secret = inodes(std::slice::from_ref(&toml));
        assert_eq!(linked_secret(&o, &secret, &[]).unwrap(), None);
        std::fs::hard_link(&toml, own.join("notes.txt")).unwrap();
        assert_eq!(
            linked_secret(&o, &secret, &[]).unwrap(),
            Some(own.join("notes.txt"))
        );
        let both = [dir.path().to_owned()];
        assert_eq!(
            linked_secret(&both, &secret, &[toml, own.join("notes.txt")]).unwrap(),
            None
        );
    }

    #[test]
    fn a_folder_past_the_search_bound_is_refused_not_passed() {
        let dir = tempfile::tempdir().unwrap();
        let own = dir.path().join("own");
        std::fs::create_dir_all(own.join("many")).unwrap();
        let toml = dir.path().join("t.toml");
        std::fs::write(&toml, "[[bot]]").unwrap();
        let secret = inodes(std::slice::from_ref(&toml));
        let o = vec![own.clone()];
        for i in 0..LINK_SEARCH {
            std::fs::write(own.join("many").join(i.to_string()), "").unwrap();
        }
        // The folder and its LINK_SEARCH files: one entry past the bound.
        let past = Err(Unsearched {
            folder: own.clone(),
            deep: false,
        });
        assert_eq!(linked_secret(&o, &secret, &[]), past);
        assert_eq!(shared_inode(&o, &o, std::slice::from_ref(&toml)), past);
        std::fs::remove_file(own.join("many/0")).unwrap();
        assert_eq!(linked_secret(&o, &secret, &[]), Ok(None));
        // Folders deeper than the walk goes: refused as well.
        let deep = dir.path().join("deep");
        let mut path = deep.clone();
        for _ in 0..=crate::tree::MAX_DEPTH {
            path.push("d");
        }
        std::fs::create_dir_all(&path).unwrap();
        let found = linked_secret(std::slice::from_ref(&deep), &secret, &[]);
        assert_eq!(found.map_err(|u| u.deep), Err(true));
    }
}
