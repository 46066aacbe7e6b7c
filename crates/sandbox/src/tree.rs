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

use std::ffi::{CStr, CString};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

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

/// One level of the walk: an open folder, its path, and its entries not
/// seen yet.
struct Level {
    dir: Dir,
    path: PathBuf,
    names: Vec<CString>,
}

const FOLDER: OFlag = OFlag::O_RDONLY
    .union(OFlag::O_DIRECTORY)
    .union(OFlag::O_NOFOLLOW)
    .union(OFlag::O_CLOEXEC);

impl Level {
    fn of(dir: Dir, path: PathBuf) -> Level {
        let mut dir = dir;
        let mut names: Vec<CString> = (dir.iter().flatten())
            .map(|e| e.file_name().to_owned())
            .filter(|n| n.as_bytes() != b"." && n.as_bytes() != b"..")
            .collect();
        names.reverse();
        Level { dir, path, names }
    }
}

/// Calls `visit` with the path and status of every entry below the
/// folder `top` (not `top` itself; nothing if it is not a folder or is a
/// link), taking one from `budget` for each; a folder is walked into when
/// `visit` returns true. Entries that vanish or cannot be opened meanwhile
/// are passed over. The paths are names only (one may be longer than a
/// system call takes): every look is by descriptor.
pub(crate) fn walk(
    top: &Path,
    budget: &mut usize,
    mut visit: impl FnMut(&Path, &FileStat) -> bool,
) -> Result<(), Stop> {
    let Ok(dir) = Dir::open(top, FOLDER, Mode::empty()) else {
        return Ok(());
    };
    walk_from(dir, top, budget, |_, _, path, stat| visit(path, stat))
}

/// [`walk`] below the open folder `top` (at `path`, opened by the caller
/// without following a link), `visit` also given the folder that holds
/// each entry and its name there, to look into it by descriptor.
pub(crate) fn walk_below(
    top: BorrowedFd,
    path: &Path,
    budget: &mut usize,
    visit: impl FnMut(BorrowedFd, &CStr, &Path, &FileStat) -> bool,
) -> std::io::Result<Result<(), Stop>> {
    let dir = Dir::openat(top, c".", FOLDER, Mode::empty())?;
    Ok(walk_from(dir, path, budget, visit))
}

/// [`walk`] from the open folder `dir` (at `top`), `visit` also given the
/// folder that holds each entry and its name there, to act on it by
/// descriptor.
fn walk_from(
    dir: Dir,
    top: &Path,
    budget: &mut usize,
    mut visit: impl FnMut(BorrowedFd, &CStr, &Path, &FileStat) -> bool,
) -> Result<(), Stop> {
    let mut stack = vec![Level::of(dir, top.to_owned())];
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
        let path = level
            .path
            .join(std::ffi::OsStr::from_bytes(name.as_bytes()));
        let wanted = visit(fd, name.as_c_str(), &path, &stat);
        if !wanted || SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT != SFlag::S_IFDIR {
            continue;
        }
        if full {
            return Err(Stop::Depth);
        }
        if let Ok(inner) = Dir::openat(fd, name.as_c_str(), FOLDER, Mode::empty()) {
            stack.push(Level::of(inner, path));
        }
    }
    Ok(())
}

/// Gives the folders and files below the open folder `top` (at `path`)
/// to `owner` (uid, gid), by descriptor and never following a link, at
/// most `budget` entries and [`MAX_DEPTH`] levels deep (beyond, what is
/// there keeps its owner). A file with more than one name is left alone:
/// a hard link may be another name of a file of the host's.
pub(crate) fn give_all(
    top: BorrowedFd,
    path: &Path,
    owner: (u32, u32),
    budget: &mut usize,
) -> std::io::Result<()> {
    let dir = Dir::openat(top, c".", FOLDER, Mode::empty())?;
    let _ = walk_from(dir, path, budget, |fd, name, _, stat| {
        let kind = SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT;
        let file = kind == SFlag::S_IFREG && stat.st_nlink == 1;
        if (file || kind == SFlag::S_IFDIR) && (stat.st_uid, stat.st_gid) != owner {
            // SAFETY: a folder descriptor and a C string this walk holds;
            // AT_SYMLINK_NOFOLLOW changes the entry itself, never a target.
            unsafe {
                libc::fchownat(
                    fd.as_raw_fd(),
                    name.as_ptr(),
                    owner.0,
                    owner.1,
                    libc::AT_SYMLINK_NOFOLLOW,
                )
            };
        }
        true
    });
    Ok(())
}

/// One level of a removal: an open folder, its name in its parent, and
/// its entries not removed yet.
struct Doomed {
    level: Level,
    name: CString,
}

/// Removes the folder `top` and everything below it, by descriptor and
/// without following a link, whatever its depth: a folder [`MAX_DEPTH`]
/// levels down is moved up into `top` (`renameat`, within the same
/// filesystem) and removed from there, so the removal holds at most that
/// many descriptors and never recurses. What cannot be removed (a bot
/// still writing) is left, and `top` with it.
pub(crate) fn remove_all(top: &Path) -> std::io::Result<()> {
    use nix::unistd::{unlinkat, UnlinkatFlags};
    let root = Dir::open(top, FOLDER, Mode::empty())?;
    let mut stack = vec![Doomed {
        level: Level::of(
            Dir::openat(root.as_fd(), ".", FOLDER, Mode::empty())?,
            PathBuf::new(),
        ),
        name: CString::default(),
    }];
    let mut moved: u64 = 0;
    loop {
        let full = stack.len() >= MAX_DEPTH;
        let Some(doomed) = stack.last_mut() else {
            break;
        };
        let Some(name) = doomed.level.names.pop() else {
            let done = stack.pop().map(|d| d.name);
            if let (Some(parent), Some(name)) = (stack.last(), done) {
                let _ = unlinkat(
                    parent.level.dir.as_fd(),
                    name.as_c_str(),
                    UnlinkatFlags::RemoveDir,
                );
            }
            continue;
        };
        let fd = doomed.level.dir.as_fd();
        let Ok(stat) = fstatat(fd, name.as_c_str(), AtFlags::AT_SYMLINK_NOFOLLOW) else {
            continue;
        };
        if SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT != SFlag::S_IFDIR {
            let _ = unlinkat(fd, name.as_c_str(), UnlinkatFlags::NoRemoveDir);
        } else if full {
            moved += 1;
            let up = CString::new(format!(".aboure-deep-{moved}")).unwrap_or_default();
            if nix::fcntl::renameat(fd, name.as_c_str(), root.as_fd(), up.as_c_str()).is_ok() {
                stack[0].level.names.push(up);
            }
        } else if let Ok(inner) = Dir::openat(fd, name.as_c_str(), FOLDER, Mode::empty()) {
            stack.push(Doomed {
                level: Level::of(inner, PathBuf::new()),
                name,
            });
        }
    }
    std::fs::remove_dir(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_given_whole_but_for_links_and_hard_links() {
        use std::os::unix::fs::MetadataExt;
        assert!(
            nix::unistd::geteuid().is_root(),
            "this test gives files to another uid: run it as root"
        );
        let dir = tempfile::tempdir().unwrap();
        let (top, outside) = (dir.path().join("top"), dir.path().join("outside"));
        std::fs::create_dir_all(top.join("build")).unwrap();
        std::fs::write(top.join("build/bot"), "x").unwrap();
        std::fs::write(&outside, "the host's").unwrap();
        std::fs::hard_link(&outside, top.join("hard")).unwrap();
        std::os::unix::fs::symlink(&outside, top.join("soft")).unwrap();
        let fd = Dir::open(&top, FOLDER, Mode::empty()).unwrap();
        give_all(fd.as_fd(), &top, (70123, 70123), &mut 100).unwrap();
        let uid = |p: &Path| std::fs::symlink_metadata(p).unwrap().uid();
        assert_eq!(uid(&top.join("build")), 70123);
        assert_eq!(uid(&top.join("build/bot")), 70123);
        assert_eq!(uid(&outside), 0, "a hard link's file stays the host's");
        assert_eq!(uid(&top.join("soft")), 0, "a link is passed over");
    }

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
    fn entries_are_told_with_their_paths_and_a_folder_turned_down_is_not_entered() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::create_dir_all(dir.path().join("c/d")).unwrap();
        let (mut seen, mut budget) = (Vec::new(), usize::MAX);
        let walked = walk(dir.path(), &mut budget, |path, _| {
            seen.push(path.strip_prefix(dir.path()).unwrap().to_owned());
            !path.ends_with("c")
        });
        assert_eq!(walked, Ok(()));
        seen.sort();
        let expected: Vec<PathBuf> = ["a", "a/b", "c"].map(PathBuf::from).to_vec();
        assert_eq!(seen, expected);
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
        let count = |_: &Path, _: &FileStat| {
            seen += 1;
            true
        };
        assert_eq!(walk(&shallow, &mut budget, count), Ok(()));
        assert_eq!(seen, MAX_DEPTH, "the folders and the file");
        let mut budget = usize::MAX;
        assert_eq!(walk(&deep, &mut budget, |_, _| true), Err(Stop::Depth));
        let mut budget = 10;
        assert_eq!(walk(&shallow, &mut budget, |_, _| true), Err(Stop::Entries));
        // Removed on a thread of a small stack: nothing recurses.
        let removing = std::thread::Builder::new().stack_size(64 << 10);
        let removed = removing.spawn(move || remove_all(&deep)).unwrap();
        removed.join().unwrap().unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
