//! A bot's `read`, `write` and `workdir` paths taken as the tournament
//! file spells them. Those paths often lie in folders a bot's author
//! submitted (its data beside its program), and a symbolic link there
//! would take the path anywhere the privileged side can reach: another
//! bot's folder, the tournament file, the run's results folder, the host's
//! `/proc`, or a host folder the arbiter would then give to the bot's uid.
//! Checking the spelling and then following the link checks one path and
//! uses another, so a link on the way is refused, with its name and
//! target; the operator names the real path instead (the rule judge
//! sandboxes keep: a privileged process never follows a path the
//! untrusted side can change).
//!
//! Two kinds of link are the machine's or the operator's, not a bot's,
//! and are followed: the system's own (in `/`, `/usr`, `/etc`, `/nix`,
//! which only root changes) and those on the way to the folders the
//! operator named for the run (the tournament file's and the results
//! folder's), which hold the bots' folders but are not theirs.
//!
//! Whatever is changed on the host through such a path (a `write` folder
//! given to the bot's uid) is reached by [`open_folder`]: one component
//! at a time, by descriptor, never following a link, so what was checked
//! is what is changed.

use std::ffi::OsStr;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

use nix::fcntl::{openat, OFlag};

use crate::error::shown;
use nix::sys::stat::{fstat, Mode, SFlag};

/// Where the machine's own links live: changed only by root.
const SYSTEM: &[&str] = &["/usr", "/etc", "/nix"];

/// A symbolic link found on the way of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The link, as the path spells it.
    pub link: PathBuf,
    /// What it points to, as written in it.
    pub target: PathBuf,
}

impl std::fmt::Display for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        // Both are a stranger's bytes: a name in its folder, and what it
        // wrote in the link.
        let (link, target) = (shown(&self.link), shown(&self.target));
        write!(f, "{link} (to {target})")
    }
}

/// Whether the link at `link` is the machine's or the operator's: in `/`
/// or a system folder, or on the way to one of `trusted`.
fn followed(link: &Path, trusted: &[PathBuf]) -> bool {
    let system =
        link.parent() == Some(Path::new("/")) || SYSTEM.iter().any(|s| link.starts_with(s));
    system || trusted.iter().any(|t| t.starts_with(link))
}

/// The first link on the way of `path` (absolute and lexically normal)
/// that is neither the system's nor on the way to one of `trusted`; none
/// when every component is a folder, a file, or not made yet.
pub(crate) fn link_on_the_way(path: &Path, trusted: &[PathBuf]) -> Option<Link> {
    let mut at = PathBuf::from("/");
    for part in path.components() {
        let Component::Normal(name) = part else {
            continue;
        };
        at.push(name);
        let Ok(meta) = std::fs::symlink_metadata(&at) else {
            return None;
        };
        if meta.is_symlink() && !followed(&at, trusted) {
            let target = std::fs::read_link(&at).unwrap_or_default();
            return Some(Link { link: at, target });
        }
    }
    None
}

/// The folder `path` opened for reading, reached one component at a time
/// from `/`, each opened by descriptor relative to the one before with
/// `O_NOFOLLOW`: a link at any step fails with `ELOOP` (or `ENOTDIR`),
/// unless it is one [`link_on_the_way`] follows, which is opened through
/// its resolved path, itself walked the same way.
pub(crate) fn open_folder(path: &Path, trusted: &[PathBuf]) -> std::io::Result<OwnedFd> {
    let step = OFlag::O_PATH | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    let mut at = PathBuf::from("/");
    let mut dir: OwnedFd = nix::fcntl::open("/", step | OFlag::O_DIRECTORY, Mode::empty())?;
    let parts: Vec<&OsStr> = (path.components())
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    for name in &parts {
        at.push(name);
        let next = openat(dir.as_fd(), *name, step, Mode::empty())?;
        let kind = SFlag::from_bits_truncate(fstat(next.as_fd())?.st_mode) & SFlag::S_IFMT;
        dir = if kind == SFlag::S_IFLNK {
            if !followed(&at, trusted) {
                return Err(std::io::Error::from_raw_os_error(libc::ELOOP));
            }
            let real = std::fs::canonicalize(&at)?;
            open_folder(&real, &[])?
        } else {
            next
        };
    }
    let last = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    Ok(openat(dir.as_fd(), ".", last, Mode::empty())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_on_the_way_is_found_unless_it_leads_to_a_trusted_folder() {
        let dir = tempfile::tempdir().unwrap();
        let d = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(d.join("host/sub")).unwrap();
        std::fs::create_dir_all(d.join("data")).unwrap();
        std::os::unix::fs::symlink(d.join("host"), d.join("data/cache")).unwrap();
        let path = d.join("data/cache/sub");
        let link = link_on_the_way(&path, &[]).unwrap();
        assert_eq!(link.link, d.join("data/cache"));
        assert_eq!(link.target, d.join("host"));
        assert_eq!(link_on_the_way(&d.join("host/sub"), &[]), None);
        // Not made yet: nothing to follow.
        assert_eq!(link_on_the_way(&d.join("data/new/x"), &[]), None);
        // On the way to the tournament file's folder: the operator's.
        assert_eq!(link_on_the_way(&path, &[d.join("data/cache/t")]), None);
        // Reached by descriptor: refused through the link, opened without.
        let e = open_folder(&path, &[]).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ELOOP), "{e}");
        assert!(open_folder(&d.join("host/sub"), &[]).is_ok());
        assert!(open_folder(&path, &[d.join("data/cache/t")]).is_ok());
        // A file is not a folder.
        std::fs::write(d.join("host/f"), "").unwrap();
        assert!(open_folder(&d.join("host/f"), &[]).is_err());
    }
}
