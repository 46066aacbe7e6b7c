//! Whether a bot's identity can reach, on the host, what its view binds.
//!
//! The helper builds the bot's root as root: it can bind a file the bot's
//! uid could never open (`/root/secret/x`, below a folder of mode 0700),
//! and inside the root the folders above a bind are made anew, open to
//! all. So every path the bot's command or allowances name is checked
//! first with the bot's own credentials, by the kernel itself: a thread of
//! the arbiter takes the bot's filesystem uid and gid and no supplementary
//! groups (credentials are per thread in Linux; the raw system calls, not
//! libc's wrappers, which would change every thread of the process), asks
//! `faccessat(AT_EACCESS)` along the whole path, and ends. The change of
//! filesystem uid away from 0 drops the capabilities that bypass
//! permissions, so the answer is the bot's, ACLs included.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::plan::Identity;

/// What the bot must be able to do with a path its view binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Read a file, or list a folder and open what is in it.
    Read,
    /// Run its program.
    Run,
    /// Write a folder (its `write` paths).
    Write,
}

impl Need {
    /// The verb of an error message.
    pub fn verb(self) -> &'static str {
        match self {
            Need::Read => "read",
            Need::Run => "run",
            Need::Write => "write",
        }
    }

    fn mode(self, folder: bool) -> libc::c_int {
        let mode = match self {
            Need::Read => libc::R_OK,
            Need::Run => libc::X_OK,
            Need::Write => libc::R_OK | libc::W_OK,
        };
        match folder {
            true => mode | libc::X_OK,
            false => mode,
        }
    }
}

/// Why a path the view binds is out of the bot's reach.
#[derive(Debug, thiserror::Error)]
#[error(
    "uid {uid} cannot {verb} {path}: {reason}",
    verb = need.verb(), path = crate::error::shown(path)
)]
pub struct Unreachable {
    /// The bot's uid.
    pub uid: u32,
    /// The path, as on the host.
    pub path: PathBuf,
    /// What it needed.
    pub need: Need,
    /// The kernel's answer (or why the check could not be made).
    pub reason: std::io::Error,
}

/// The first of `paths` that `identity` cannot use as it needs, checked by
/// the kernel with that identity's credentials.
pub fn first_unreachable(identity: Identity, paths: &[(PathBuf, Need)]) -> Result<(), Unreachable> {
    if paths.is_empty() {
        return Ok(());
    }
    let fail = |path: &Path, need, reason| Unreachable {
        uid: identity.uid,
        path: path.to_owned(),
        need,
        reason,
    };
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                become_on_this_thread(identity).map_err(|e| fail(&paths[0].0, paths[0].1, e))?;
                for (path, need) in paths {
                    can(path, *need).map_err(|e| fail(path, *need, e))?;
                }
                Ok(())
            })
            .join()
            .unwrap_or_else(|_| {
                let e = std::io::Error::other("the check's thread panicked");
                Err(fail(&paths[0].0, paths[0].1, e))
            })
    })
}

/// Whether `identity` can look `path` up on the host: every folder on its
/// way that exists searched with its own credentials (by a thread that
/// has taken them, as [`first_unreachable`] does), without following a
/// link. A missing name answers too; a folder it may not enter (a
/// root-only `0700` folder inside its `read` path), a link or a failure
/// does not: then nothing is told about what lies below.
pub fn looks_up(identity: Identity, path: &Path) -> bool {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                if become_on_this_thread(identity).is_err() {
                    return false;
                }
                for prefix in path.ancestors().collect::<Vec<_>>().into_iter().rev() {
                    match std::fs::symlink_metadata(prefix) {
                        Err(e) => return e.kind() == std::io::ErrorKind::NotFound,
                        Ok(meta) if prefix != path && !meta.is_dir() => return false,
                        Ok(_) => {}
                    }
                }
                true
            })
            .join()
            .unwrap_or(false)
    })
}

/// This thread's filesystem ids become `identity`'s, with no
/// supplementary groups; the thread must end after its checks.
fn become_on_this_thread(identity: Identity) -> std::io::Result<()> {
    // SAFETY: raw system calls with integer arguments and a null list of
    // zero groups; they change this thread's credentials only.
    unsafe {
        if libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        libc::syscall(libc::SYS_setfsgid, identity.gid);
        libc::syscall(libc::SYS_setfsuid, identity.uid);
        // An invalid id changes nothing and returns the current one.
        let uid = libc::syscall(libc::SYS_setfsuid, u32::MAX);
        let gid = libc::syscall(libc::SYS_setfsgid, u32::MAX);
        if uid != i64::from(identity.uid) || gid != i64::from(identity.gid) {
            return Err(std::io::Error::other(format!(
                "cannot take filesystem ids {}:{} (have {uid}:{gid})",
                identity.uid, identity.gid
            )));
        }
    }
    Ok(())
}

/// Whether this thread's credentials allow `need` on `path` (every folder
/// on its way searched as well).
fn can(path: &Path, need: Need) -> std::io::Result<()> {
    let folder = std::fs::metadata(path)?.is_dir();
    let c = CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: a valid C string; AT_EACCESS checks with the effective
    // (filesystem) ids of this thread rather than the real ones.
    let rc = unsafe {
        libc::faccessat(
            libc::AT_FDCWD,
            c.as_ptr(),
            need.mode(folder),
            libc::AT_EACCESS,
        )
    };
    match rc {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_need_search_as_well() {
        assert_eq!(Need::Read.mode(true), libc::R_OK | libc::X_OK);
        assert_eq!(Need::Read.mode(false), libc::R_OK);
        assert_eq!(Need::Run.mode(false), libc::X_OK);
        assert_eq!(Need::Write.mode(true), libc::R_OK | libc::W_OK | libc::X_OK);
    }

    #[test]
    fn a_file_below_a_private_folder_is_out_of_an_unprivileged_uids_reach() {
        assert!(
            nix::unistd::geteuid().is_root(),
            "this test takes another uid's credentials: run it as root"
        );
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let private = dir.path().join("private");
        std::fs::create_dir(&private).unwrap();
        let file = private.join("secret");
        std::fs::write(&file, "x").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let bot = Identity {
            uid: 65534,
            gid: 65534,
        };
        let paths = [(file.clone(), Need::Read)];
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o755)).unwrap();
        first_unreachable(bot, &paths).unwrap();
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
        let e = first_unreachable(bot, &paths).unwrap_err();
        assert_eq!(e.reason.raw_os_error(), Some(libc::EACCES), "{e}");
        assert_eq!(
            e.to_string(),
            format!("uid 65534 cannot read {}: {}", file.display(), e.reason)
        );
        // The group of the file does not help: the check has no groups.
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o750)).unwrap();
        assert!(first_unreachable(bot, &paths).is_err());
        // Nor did the check change the credentials of the caller.
        std::fs::read(&file).unwrap();
        let write = [(dir.path().to_owned(), Need::Write)];
        assert_eq!(
            first_unreachable(bot, &write).unwrap_err().need,
            Need::Write
        );
    }
}
