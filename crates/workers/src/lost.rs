//! When a worker has lost its claims: the errors of the filesystem that
//! mean the locks it holds (or the files they are on) are no longer its.
//!
//! On a local filesystem a live process cannot lose a lock. On NFS it
//! can: a client cut off from its server for longer than the lease finds,
//! when it comes back, that the server dropped its locks (and perhaps
//! gave them to another worker). Linux then fails the calls on those open
//! files: `ESTALE` (the file is gone on the server), `EBADF` (the open
//! state was revoked), `EIO` (a lost lock the client will not recover),
//! `ENOLCK` (the server refused to reclaim the lock), or `ENOENT` for a
//! file that an open handle, or the claims folder, was on. None of these
//! is a passing fault worth a retry: whatever this worker writes next may
//! be a game another worker is playing. So the worker stops writing, says
//! so in one line, and exits with [`EXIT_CLAIMS_LOST`]; its pairs are
//! free for the others, and it may be started again with `--join`.

use std::io;
use std::path::{Path, PathBuf};

use crate::Error;

/// The exit status of a worker that stopped because it lost its claims.
pub const EXIT_CLAIMS_LOST: u8 = 4;

/// How a worker found its claims lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// `ESTALE`: the file is no longer on the server.
    Stale,
    /// `EBADF`: the open file's state was revoked.
    Revoked,
    /// `EIO`: the lock was lost and will not be recovered.
    Failed,
    /// `ENOLCK`: the lock could not be kept or reclaimed.
    NoLock,
    /// `ENOENT`: the file or the claims folder is gone.
    Gone,
}

/// What `error`, met on a claim, on the log of finished units, on the
/// roster or on the worker's own results file, says of the worker's
/// claims: `Some` if they are lost, `None` for an error that is only
/// itself (a full disk, a permission).
pub fn loss(error: &io::Error) -> Option<Loss> {
    match error.raw_os_error()? {
        libc::ESTALE => Some(Loss::Stale),
        libc::EBADF => Some(Loss::Revoked),
        libc::EIO => Some(Loss::Failed),
        libc::ENOLCK => Some(Loss::NoLock),
        libc::ENOENT => Some(Loss::Gone),
        _ => None,
    }
}

/// A function that wraps an I/O error met while doing `context` on the
/// shared files of the run in `run_dir`: [`Error::ClaimsLost`] if it means
/// the worker lost its claims, [`Error::Io`] otherwise.
pub fn on_claims(run_dir: &Path, context: impl Into<String>) -> impl FnOnce(io::Error) -> Error {
    let context = context.into();
    let dir: PathBuf = run_dir.to_owned();
    move |source| match loss(&source) {
        Some(_) => Error::ClaimsLost {
            dir,
            context,
            error: source,
        },
        None => Error::Io { context, source },
    }
}

/// The error of a worker that found, with no error of the filesystem,
/// that a claim it held is no longer its (`what`: which, and how it
/// knows): another worker holds the unit, finished it, or made the mark of
/// a game it wrote. A live process cannot lose a lock on a local
/// filesystem, so the lock was lost behind its back (an NFS lease that
/// expired), and with it every other lock it holds: it stops as on a
/// [`loss`].
pub fn taken(run_dir: &Path, what: impl Into<String>) -> Error {
    Error::ClaimsLost {
        dir: run_dir.to_owned(),
        context: what.into(),
        error: io::Error::other("its lock was lost behind its back (an NFS lease expired?)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lost_leases_and_vanished_files_are_losses_and_other_errors_are_not() {
        let of = |n| loss(&io::Error::from_raw_os_error(n));
        assert_eq!(of(libc::ESTALE), Some(Loss::Stale));
        assert_eq!(of(libc::EBADF), Some(Loss::Revoked));
        assert_eq!(of(libc::EIO), Some(Loss::Failed));
        assert_eq!(of(libc::ENOLCK), Some(Loss::NoLock));
        assert_eq!(of(libc::ENOENT), Some(Loss::Gone));
        for other in [libc::ENOSPC, libc::EACCES, libc::EDQUOT, libc::EINTR] {
            assert_eq!(of(other), None, "errno {other}");
        }
        assert_eq!(loss(&io::Error::other("no errno")), None);
    }

    #[test]
    fn a_loss_names_the_run_folder_and_the_error_and_another_error_stays_io() {
        let dir = Path::new("/shared/run");
        let lost = on_claims(dir, "cannot check the claim of unit 30")(
            io::Error::from_raw_os_error(libc::ESTALE),
        );
        let text = lost.to_string();
        assert!(matches!(lost, Error::ClaimsLost { .. }), "{text}");
        assert!(text.contains("/shared/run"), "{text}");
        assert!(text.contains("unit 30"), "{text}");
        assert!(text.to_lowercase().contains("stale"), "{text}");
        assert!(!text.contains('\n'), "one line: {text}");
        let full = on_claims(dir, "cannot sign")(io::Error::from_raw_os_error(libc::ENOSPC));
        assert!(matches!(full, Error::Io { .. }), "{full}");
    }

    #[test]
    fn a_handle_on_a_removed_claims_folder_fails_with_a_loss() {
        let dir = tempfile::tempdir().unwrap();
        let claims = dir.path().join("claims");
        std::fs::create_dir(&claims).unwrap();
        std::fs::remove_dir(&claims).unwrap();
        let err = std::fs::File::create(claims.join("unit-0")).unwrap_err();
        assert_eq!(loss(&err), Some(Loss::Gone));
    }
}
