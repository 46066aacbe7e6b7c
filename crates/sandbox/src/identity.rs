//! An identity that owns nothing: when the arbiter runs as root, each bot
//! process runs as a uid (and gid of the same number) of the `uids` range
//! that no other running bot holds, as isolate gives each box its own uid.
//! Files of the host belong to other users, so the bot can change none of
//! them, and two bots cannot signal, trace or read each other.
//!
//! A uid is claimed with an exclusive `flock` on its own file in
//! [`CLAIMS`]: the kernel drops the lock when its holder closes it or dies,
//! so a claim is never left behind by a killed arbiter, and two arbiters on
//! one machine never hand out the same uid. The lock is held by the
//! arbiter's [`Claim`] until the bot's process (and with it every process
//! of its namespaces) is gone.
//!
//! A bot is first offered the same uid in every run ([`first_uid`], from
//! its name), so that what it left in its `write` folders stays its own;
//! a uid the host uses otherwise (see [`crate::occupied`]) is passed over
//! for the next one of the range.

use std::fs::File;
use std::io::Write;
use std::ops::RangeInclusive;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;

use crate::plan::Identity;

/// Where the claims are kept: root's, not a folder anyone may write to.
pub const CLAIMS: &str = "/run/aboure/uids";

/// A uid held for one bot process; released when dropped.
#[derive(Debug)]
pub struct Claim {
    identity: Identity,
    _lock: File,
}

impl Claim {
    /// The identity claimed.
    pub fn identity(&self) -> Identity {
        self.identity
    }
}

/// Why no uid could be claimed.
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    /// The claims folder or a claim file cannot be used.
    #[error("cannot claim a uid in {path}: {source}")]
    Io {
        /// The folder or file.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// Every uid of the range is held by a running bot or used on the
    /// host.
    #[error(
        "every uid of sandbox.uids ({first}-{last}) is held by a running bot, \
         or used on this host (an account or group, a running process, the \
         owner of a file the bot would see): give a larger range"
    )]
    Exhausted {
        /// The range's first uid.
        first: u32,
        /// Its last.
        last: u32,
    },
}

/// The uid of `range` a bot named `name` is offered first, the same in
/// every run: FNV-1a of the name (a hash that no Rust release changes),
/// modulo the range's size.
pub fn first_uid(name: &str, range: &RangeInclusive<u32>) -> u32 {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let size = u64::from(range.end() - range.start()) + 1;
    // The remainder is below the range's size, a u32.
    range.start() + (hash % size) as u32
}

/// Claims the first uid of `range`, from `first` on and around, that
/// `usable` accepts and no one holds, in the folder `dir`.
pub fn claim(
    range: &RangeInclusive<u32>,
    first: u32,
    usable: impl Fn(u32) -> bool,
    dir: &Path,
) -> Result<Claim, ClaimError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| ClaimError::Io { path, source }
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(io(dir))?;
    let order = (first..=*range.end()).chain(*range.start()..first);
    for uid in order.filter(|&uid| usable(uid)) {
        let path = dir.join(uid.to_string());
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_CLOEXEC | libc::O_NOFOLLOW)
            .open(&path)
            .map_err(io(&path))?;
        // SAFETY: flock on a descriptor this function owns.
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
        if !locked {
            continue;
        }
        // Who holds it and since when, for an operator looking at the folder.
        let since = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let _ = file.set_len(0);
        let _ = writeln!(file, "pid {} since {since}", std::process::id());
        return Ok(Claim {
            identity: Identity { uid, gid: uid },
            _lock: file,
        });
    }
    Err(ClaimError::Exhausted {
        first: *range.start(),
        last: *range.end(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_are_exclusive_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let range = 70000..=70001;
        let any = |_| true;
        let a = claim(&range, 70000, any, dir.path()).unwrap();
        let b = claim(&range, 70000, any, dir.path()).unwrap();
        assert_eq!((a.identity().uid, b.identity().uid), (70000, 70001));
        assert_eq!(b.identity().gid, 70001);
        let full = claim(&range, 70000, any, dir.path()).unwrap_err();
        assert!(full.to_string().contains("70000-70001"), "{full}");
        drop(a);
        assert_eq!(
            claim(&range, 70001, any, dir.path())
                .unwrap()
                .identity()
                .uid,
            70000
        );
    }

    #[test]
    fn the_search_starts_at_the_first_uid_wraps_around_and_passes_over_the_unusable() {
        let dir = tempfile::tempdir().unwrap();
        let range = 70010..=70014;
        let a = claim(&range, 70013, |uid| uid != 70014, dir.path()).unwrap();
        assert_eq!(a.identity().uid, 70013);
        let b = claim(&range, 70013, |uid| uid != 70014, dir.path()).unwrap();
        assert_eq!(b.identity().uid, 70010);
        let none = claim(&range, 70010, |_| false, dir.path()).unwrap_err();
        assert!(none.to_string().contains("used on this host"), "{none}");
    }

    #[test]
    fn a_bots_first_uid_is_its_own_in_every_run_and_lies_in_the_range() {
        let range = 60000..=60999;
        assert_eq!(first_uid("victim", &range), first_uid("victim", &range));
        let uids: std::collections::BTreeSet<u32> = (0..50)
            .map(|i| first_uid(&format!("bot{i}"), &range))
            .collect();
        assert!(uids.len() > 40, "{uids:?}");
        assert!(uids.iter().all(|u| range.contains(u)), "{uids:?}");
        assert_eq!(first_uid("anything", &(5..=5)), 5);
    }
}
