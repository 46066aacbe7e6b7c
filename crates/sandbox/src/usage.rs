//! What a bot's `write` folders hold together, and the watch that stops a
//! bot past `write-size`. `RLIMIT_FSIZE` bounds each file; nothing in the
//! kernel bounds a folder of the host's filesystem for one user without
//! quotas, which most machines do not have. So the helper, which waits
//! for the bot anyway, measures the folders ten times a second and kills
//! the bot's init (taking its whole namespace down) once they hold more;
//! the arbiter measures them again after a death to say why.
//!
//! A file deleted while a process holds it open (or made with
//! `O_TMPFILE`) has no name left to walk to, and still holds its blocks:
//! the helper also looks at the open descriptors of every process of the
//! bot (from the host's `/proc`, see `spent`) and counts each file with no
//! link left on the filesystem of a `write` folder.
//!
//! The folders are the bot's to change while they are measured: they are
//! walked by descriptor, never following a link, with bounds of entries,
//! folders and depth past which the folders count as full (see `tree`
//! and [`MAX_ENTRIES`]).

use std::ffi::CString;
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::time::Duration;

use nix::dir::Dir;
use nix::fcntl::{AtFlags, OFlag};
use nix::sys::stat::{fstatat, Mode, SFlag};

use crate::tree::{Stop, MAX_DEPTH};

/// How often the helper measures the folders.
pub const EVERY: Duration = Duration::from_millis(100);

/// The most entries a bot's `write` folders may hold together, and of
/// them the most folders (each costs the walk an open and a read, a file
/// only a look): more count as past `write-size`, as a filesystem's inode
/// quota would refuse them. So a walk stays short whatever the bot makes
/// (150,000 empty folders made a walk of 200,000 entries take seconds,
/// and a bot wrote 2.6 GiB under a 1 GiB `write-size` between two looks).
pub(crate) const MAX_ENTRIES: usize = 10_000;
/// See [`MAX_ENTRIES`].
pub(crate) const MAX_FOLDERS: usize = 1_000;

/// What a bot's `write` folders hold, as far as a walk can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// Bytes on disk (blocks, so a sparse file counts what it uses).
    Bytes(u64),
    /// Past a bound of the walk (see `tree`): counts as full.
    Past(Stop),
    /// More than [`MAX_FOLDERS`] folders: counts as full.
    Folders,
}

impl Held {
    /// The bytes held, `u64::MAX` for a tree past a bound of the walk.
    pub fn bytes(self) -> u64 {
        match self {
            Held::Bytes(bytes) => bytes,
            Held::Past(_) | Held::Folders => u64::MAX,
        }
    }
}

/// What is held below `folders`, each walked without following a link.
pub fn held(folders: &[PathBuf]) -> Held {
    let mut budget = MAX_ENTRIES;
    let (mut total, mut inner): (u64, usize) = (0, 0);
    for folder in folders {
        let walked = crate::tree::walk(folder, &mut budget, |_, stat| {
            let blocks = u64::try_from(stat.st_blocks).unwrap_or(0);
            total = total.saturating_add(blocks.saturating_mul(512));
            if SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT == SFlag::S_IFDIR {
                inner += 1;
            }
            // Past the bound, no folder is walked into: the rest of the
            // open ones is read, within the bound of entries.
            inner <= MAX_FOLDERS
        });
        if let Err(stop) = walked {
            return Held::Past(stop);
        }
    }
    match inner > MAX_FOLDERS {
        true => Held::Folders,
        false => Held::Bytes(total),
    }
}

/// Bytes on disk held by files with no link left on `devices` (the
/// filesystems of the `write` folders) that the processes `pids` hold
/// open, each file counted once.
///
/// Given up (`None`) as soon as `stop` says so, looked at every
/// [`STOP_EVERY`] descriptor tables and descriptors: a bot with hundreds of
/// processes holding a thousand descriptors each makes a look last
/// seconds, and one begun just before the bot is held would otherwise
/// run on through its opponent's move.
pub(crate) fn held_open(
    proc: &crate::spent::HostProc,
    pids: &[i32],
    devices: &[u64],
    stop: &dyn Fn() -> bool,
) -> Option<u64> {
    let mut seen = std::collections::HashSet::new();
    let mut total: u64 = 0;
    let mut looked: usize = 0;
    let mut given_up = || {
        looked += 1;
        looked.is_multiple_of(STOP_EVERY) && stop()
    };
    for mut fds in pids.iter().flat_map(|&pid| proc.descriptor_tables(pid)) {
        if given_up() {
            return None;
        }
        let names: Vec<CString> = (fds.iter().flatten())
            .map(|e| e.file_name().to_owned())
            .filter(|n| n.as_bytes() != b"." && n.as_bytes() != b"..")
            .collect();
        for name in names {
            if given_up() {
                return None;
            }
            // Following the descriptor's link: the open file itself.
            let Ok(stat) = fstatat(fds.as_fd(), name.as_c_str(), AtFlags::empty()) else {
                continue;
            };
            let regular = SFlag::from_bits_truncate(stat.st_mode) & SFlag::S_IFMT == SFlag::S_IFREG;
            let dev = stat.st_dev;
            if regular
                && stat.st_nlink == 0
                && devices.contains(&dev)
                && seen.insert((dev, stat.st_ino))
            {
                let blocks = u64::try_from(stat.st_blocks).unwrap_or(0);
                total = total.saturating_add(blocks.saturating_mul(512));
            }
        }
    }
    Some(total)
}

/// How many descriptor tables and descriptors [`held_open`] looks at
/// between two looks at its `stop`.
const STOP_EVERY: usize = 256;

/// The filesystems `folders` lie on (their devices).
pub(crate) fn devices(folders: &[PathBuf]) -> Vec<u64> {
    let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    let mut found: Vec<u64> = folders
        .iter()
        .filter_map(|f| Dir::open(f.as_path(), flags, Mode::empty()).ok())
        .filter_map(|d| nix::sys::stat::fstat(d.as_fd()).ok())
        .map(|s| s.st_dev)
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// Why the bot was stopped, if the helper stopped it (its exit, `SIGXFSZ`)
/// while it had `write` folders: past `limit` with files it deleted while
/// holding them open, which are gone once it is (a single file past
/// `file-size` ends the same way, and is as much a limit reached).
pub fn stopped_by_helper(
    exit: aboure_process::Exit,
    folders: &[PathBuf],
    limit: u64,
) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    (!folders.is_empty() && exit.status.signal() == Some(libc::SIGXFSZ)).then(|| {
        format!(
            "stopped: its write folders, with the files it deleted while holding them open, \
             held more than sandbox.write-size ({}), or a file passed sandbox.file-size",
            aboure_process::size_text(limit)
        )
    })
}

/// Why the bot was stopped, if its `folders` hold more than `limit`.
pub fn over(folders: &[PathBuf], limit: u64) -> Option<String> {
    let held = held(folders);
    (held.bytes() > limit).then(|| {
        let held = match held {
            Held::Past(Stop::Entries) => format!("more than {MAX_ENTRIES} entries"),
            Held::Past(Stop::Depth) => format!("folders more than {MAX_DEPTH} levels deep"),
            Held::Folders => format!("more than {MAX_FOLDERS} folders"),
            Held::Bytes(bytes) => format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20)),
        };
        format!(
            "stopped: its write folders hold {held}, more than sandbox.write-size ({})",
            aboure_process::size_text(limit)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_below_are_counted_and_links_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("a/b");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(inner.join("f"), vec![1u8; 1 << 20]).unwrap();
        std::os::unix::fs::symlink("/usr", dir.path().join("link")).unwrap();
        let folders = [dir.path().to_owned()];
        let bytes = held(&folders).bytes();
        // The file's MiB and the folders' blocks, not /usr.
        assert!((1 << 20..(1 << 20) + (1 << 16)).contains(&bytes), "{bytes}");
        assert!(over(&folders, 2 << 20).is_none());
        let why = over(&folders, 1 << 19).unwrap();
        assert!(
            why.contains("more than sandbox.write-size (512 KiB)"),
            "{why}"
        );
        // A link given as the folder itself is not followed either.
        assert_eq!(held(&[dir.path().join("link")]), Held::Bytes(0));
    }

    #[test]
    fn more_folders_or_entries_than_the_bounds_count_as_full() {
        let dir = tempfile::tempdir().unwrap();
        let (folders, files) = (dir.path().join("folders"), dir.path().join("files"));
        for i in 0..MAX_FOLDERS {
            std::fs::create_dir_all(folders.join(format!("{}/{i}", i % 2))).unwrap();
        }
        // The two folders above them make the bound passed.
        assert_eq!(held(std::slice::from_ref(&folders)), Held::Folders);
        let why = over(&[folders], 1 << 30).unwrap();
        assert!(
            why.contains("hold more than 1000 folders, more than"),
            "{why}"
        );
        std::fs::create_dir(&files).unwrap();
        for i in 0..MAX_ENTRIES {
            std::fs::write(files.join(i.to_string()), "").unwrap();
        }
        assert!(matches!(held(std::slice::from_ref(&files)), Held::Bytes(_)));
        std::fs::write(files.join("one more"), "").unwrap();
        assert_eq!(held(&[files]), Held::Past(Stop::Entries));
    }
}
