//! A walk of a folder a bot can write, safe on any tree it can make there.
//! A bot shapes its `write` folders as it likes: a chain of thousands of
//! folders, millions of entries. A walk that recursed on the thread's
//! stack overflowed it (a 3000-deep chain aborted the arbiter, and every
//! later run while the tree stayed); one that held a descriptor a level
//! ran out of descriptors (1024 for a user by default) and counted nothing
//! below. So the walk keeps its own stack, opens one descriptor a level
//! and stops at [`MAX_DEPTH`] levels, and reads at most a budget of
//! entries: a tree past either bound is told as such, never half counted.
//!
//! Every folder is opened by descriptor, relative to its parent, never
//! following a link (`O_NOFOLLOW`, `AT_SYMLINK_NOFOLLOW`): the bot may
//! change the tree while it is walked.

use std::ffi::CString;
use std::os::fd::AsFd;
use std::path::Path;

use nix::dir::Dir;
use nix::fcntl::{AtFlags, OFlag};
use nix::sys::stat::{fstatat, FileStat, Mode, SFlag};

/// The deepest a walked tree may go, in folders below its top: deeper
/// counts as past any limit (and is as many descriptors as the walk holds
/// open at most).
pub(crate) const MAX_DEPTH: usize = 64;

/// Why a walk stopped before the end of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// More entries than its budget.
    Entries,
    /// A folder more than [`MAX_DEPTH`] levels below the top.
    Depth,
}

/// One level of the walk: an open folder and its entries not seen yet.
struct Level {
    dir: Dir,
    names: Vec<CString>,
}

const FOLDER: OFlag = OFlag::O_RDONLY
    .union(OFlag::O_DIRECTORY)
    .union(OFlag::O_NOFOLLOW)
    .union(OFlag::O_CLOEXEC);

impl Level {
    fn of(dir: Dir) -> Level {
        let mut dir = dir;
        let mut names: Vec<CString> = (dir.iter().flatten())
            .map(|e| e.file_name().to_owned())
            .filter(|n| n.as_bytes() != b"." && n.as_bytes() != b"..")
            .collect();
        names.reverse();
        Level { dir, names }
    }
}

/// Calls `visit` with the status of every entry below the folder `top`
/// (not `top` itself; nothing if it is not a folder or is a link), taking
/// one from `budget` for each. Entries that vanish or cannot be opened
/// meanwhile are passed over.
pub(crate) fn walk(
    top: &Path,
    budget: &mut usize,
    mut visit: impl FnMut(&FileStat),
) -> Result<(), Stop> {
    let Ok(dir) = Dir::open(top, FOLDER, Mode::empty()) else {
        return Ok(());
    };
    let mut stack = vec![Level::of(dir)];
    loop {
        let full = stack.len() >= MAX_DEPTH;
        let Some(level) = stack.last_mut() else {
            break;
        };
        let Some(name) = level.names.pop() else {
            stack.pop();
            continue;
        };
        if *budget == 0 {
            return Err(Stop::Entries);
        }
        *budget -= 1;
        let fd = level.dir.as_fd();
        let Ok(stat) = fstatat(fd, name.as_c_str(), AtFlags::AT_SYMLINK_NOFOLLOW) else {
            continue;
        };
        visit(&stat);
        if SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT != SFlag::S_IFDIR {
            continue;
        }
        if full {
            return Err(Stop::Depth);
        }
        if let Ok(inner) = Dir::openat(fd, name.as_c_str(), FOLDER, Mode::empty()) {
            stack.push(Level::of(inner));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain of `depth` folders `d` below `top`, made by descriptor (its
    /// path soon passes `PATH_MAX`), with a file of `bytes` at the bottom.
    fn chain(top: &Path, depth: usize, bytes: usize) {
        let mut dir = Dir::open(top, FOLDER, Mode::empty()).unwrap();
        for _ in 0..depth {
            let _ = nix::sys::stat::mkdirat(dir.as_fd(), "d", Mode::S_IRWXU);
            dir = Dir::openat(dir.as_fd(), "d", FOLDER, Mode::empty()).unwrap();
        }
        let flags = OFlag::O_CREAT | OFlag::O_WRONLY | OFlag::O_CLOEXEC;
        let fd = nix::fcntl::openat(dir.as_fd(), "f", flags, Mode::S_IRUSR | Mode::S_IWUSR);
        nix::unistd::write(fd.unwrap(), &vec![1u8; bytes]).unwrap();
    }

    #[test]
    fn a_chain_deeper_than_the_bound_stops_the_walk_and_one_within_is_walked_whole() {
        let dir = tempfile::tempdir().unwrap();
        let (shallow, deep) = (dir.path().join("shallow"), dir.path().join("deep"));
        std::fs::create_dir(&shallow).unwrap();
        std::fs::create_dir(&deep).unwrap();
        chain(&shallow, MAX_DEPTH - 1, 4096);
        chain(&deep, 3000, 4096);
        let (mut seen, mut budget) = (0, usize::MAX);
        assert_eq!(walk(&shallow, &mut budget, |_| seen += 1), Ok(()));
        assert_eq!(seen, MAX_DEPTH, "the folders and the file");
        let mut budget = usize::MAX;
        assert_eq!(walk(&deep, &mut budget, |_| {}), Err(Stop::Depth));
        let mut budget = 10;
        assert_eq!(walk(&shallow, &mut budget, |_| {}), Err(Stop::Entries));
        // Removed by descriptor as well: its paths are too long for std.
        remove(&deep);
    }

    fn remove(top: &Path) {
        let mut parents = Vec::new();
        let mut dir = Dir::open(top, FOLDER, Mode::empty()).unwrap();
        while let Ok(inner) = Dir::openat(dir.as_fd(), "d", FOLDER, Mode::empty()) {
            parents.push(dir);
            dir = inner;
        }
        let _ = unlinkat(dir.as_fd(), "f", UnlinkatFlags::NoRemoveDir);
        while let Some(parent) = parents.pop() {
            unlinkat(parent.as_fd(), "d", UnlinkatFlags::RemoveDir).unwrap();
        }
    }

    use nix::unistd::{unlinkat, UnlinkatFlags};
}
