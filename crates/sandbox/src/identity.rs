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
    /// Every uid of the range is held by a running bot.
    #[error(
        "every uid of sandbox.uids ({first}-{last}) is held by a running bot: \
         give a larger range or a lower concurrency"
    )]
    Exhausted {
        /// The range's first uid.
        first: u32,
        /// Its last.
        last: u32,
    },
}

/// Claims the first free uid of `range` in the folder `dir`.
pub fn claim(range: &RangeInclusive<u32>, dir: &Path) -> Result<Claim, ClaimError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| ClaimError::Io { path, source }
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(io(dir))?;
    for uid in range.clone() {
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
        let a = claim(&range, dir.path()).unwrap();
        let b = claim(&range, dir.path()).unwrap();
        assert_eq!((a.identity().uid, b.identity().uid), (70000, 70001));
        assert_eq!(b.identity().gid, 70001);
        let full = claim(&range, dir.path()).unwrap_err();
        assert!(full.to_string().contains("70000-70001"), "{full}");
        drop(a);
        assert_eq!(claim(&range, dir.path()).unwrap().identity().uid, 70000);
    }
}
