//! A bot's network namespaces, made by a root arbiter at the bot's first
//! processes and each entered by one process at a time (`setns` in its
//! helper), rather than made at every process's start: a new network
//! namespace (its loopback device, its sysctl tables) was about 0.7 ms of
//! each sandboxed start, and a kernel worker dismantled it after each
//! process (RCU grace periods included) on the same cores.
//!
//! A process leases one of its bot's idle namespaces (or a new one) and
//! gives it back once every process of its cage is gone: two processes of
//! a bot running at once never share one (an abstract Unix socket one
//! binds is not in the other's way), and nothing of one process lives on
//! there for the next. The namespace holds only its own loopback (down)
//! and no host interface, and a bot has no capability in it: it cannot
//! configure it. What a process opens there, sockets (abstract Unix
//! sockets included), is released when the process ends, before the
//! kernel counts it out of its cgroups; so a namespace goes back to the
//! idle ones only once its process's cgroups are removed (empty), and is
//! closed otherwise.
//!
//! The helper finds it through the arbiter's descriptor
//! (`/proc/PID/fd/N`), which only root may open in another process, and
//! `setns` refuses a file that is not a network namespace. An arbiter that
//! cannot make one (unprivileged, or a container that forbids it) gives
//! each process a new one as before.

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use nix::sched::CloneFlags;

/// A network namespace the arbiter holds open for one bot.
#[derive(Debug)]
pub(crate) struct NetNamespace {
    fd: OwnedFd,
}

impl NetNamespace {
    /// A new network namespace, made by a thread of its own: a thread may
    /// leave its process's network namespace alone, and ends after, so
    /// the arbiter's other threads never change namespace.
    pub(crate) fn new() -> std::io::Result<NetNamespace> {
        std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    nix::sched::unshare(CloneFlags::CLONE_NEWNET)?;
                    let file = std::fs::File::open("/proc/thread-self/ns/net")?;
                    Ok(NetNamespace { fd: file.into() })
                })
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("the namespace's thread panicked")))
        })
    }

    /// The path by which a helper (root, in the arbiter's pid namespace)
    /// opens it: this process's descriptor.
    pub(crate) fn path(&self) -> PathBuf {
        PathBuf::from(format!(
            "/proc/{}/fd/{}",
            std::process::id(),
            self.fd.as_raw_fd()
        ))
    }
}

/// The idle network namespaces of one bot.
pub(crate) type Idle = Arc<Mutex<Vec<NetNamespace>>>;

/// One process's network namespace, leased from its bot's idle ones.
#[derive(Debug)]
pub(crate) struct Lease {
    net: Option<NetNamespace>,
    idle: Idle,
    /// The process's cgroups: the namespace goes back once they are gone.
    groups: Vec<PathBuf>,
}

impl Lease {
    /// An idle namespace of `idle`, or a new one; `None` if none can be
    /// made.
    pub(crate) fn take(idle: &Idle) -> Option<Lease> {
        let reused = idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let net = match reused {
            Some(net) => net,
            None => NetNamespace::new().ok()?,
        };
        Some(Lease {
            net: Some(net),
            idle: idle.clone(),
            groups: Vec::new(),
        })
    }

    /// The path the helper enters it by.
    pub(crate) fn path(&self) -> Option<PathBuf> {
        self.net.as_ref().map(NetNamespace::path)
    }

    /// Gives it back only once `groups` (the process's cgroups) are
    /// removed: then no process of it is left.
    pub(crate) fn after(mut self, groups: &[PathBuf]) -> Lease {
        self.groups = groups.to_vec();
        self
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let emptied = !self.groups.is_empty() && self.groups.iter().all(|g| !g.exists());
        if let Some(net) = self.net.take().filter(|_| emptied) {
            self.idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(net);
        }
    }
}

/// In the helper: enters the network namespace at `path` (`setns`
/// refuses any other kind of file).
pub(crate) fn enter(path: &Path) -> Result<(), String> {
    let file = std::fs::File::open(path).map_err(|e| {
        format!(
            "cannot open the bot's network namespace {}: {e}",
            path.display()
        )
    })?;
    nix::sched::setns(file, CloneFlags::CLONE_NEWNET)
        .map_err(|e| format!("cannot enter the bot's network namespace: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inode of the network namespace at `path`.
    fn inode(path: &Path) -> u64 {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).unwrap().ino()
    }

    #[test]
    fn a_bot_namespace_is_new_and_leaves_the_arbiter_where_it_was() {
        if !nix::unistd::geteuid().is_root() {
            eprintln!("skipped: needs root");
            return;
        }
        let before = inode(Path::new("/proc/thread-self/ns/net"));
        let made = NetNamespace::new().unwrap();
        assert_ne!(inode(&made.path()), before);
        assert_eq!(inode(Path::new("/proc/thread-self/ns/net")), before);
        assert_eq!(inode(Path::new("/proc/self/ns/net")), before);
    }

    #[test]
    fn a_lease_goes_back_only_once_its_groups_are_gone() {
        if !nix::unistd::geteuid().is_root() {
            eprintln!("skipped: needs root");
            return;
        }
        let idle = Idle::default();
        let dir = std::env::temp_dir().join(format!("aboure-netns-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = Lease::take(&idle)
            .unwrap()
            .after(std::slice::from_ref(&dir));
        let path = first.path().unwrap();
        // Held at once: another namespace.
        let second = Lease::take(&idle).unwrap().after(&[]);
        assert_ne!(inode(&second.path().unwrap()), inode(&path));
        // A group left: closed, not given back.
        drop(first);
        assert!(idle.lock().unwrap().is_empty());
        // Groups gone: given back, and leased again.
        std::fs::remove_dir(&dir).unwrap();
        let third = Lease::take(&idle)
            .unwrap()
            .after(std::slice::from_ref(&dir));
        let reused = third.path().unwrap();
        drop(third);
        assert_eq!(idle.lock().unwrap().len(), 1);
        let fourth = Lease::take(&idle).unwrap();
        assert_eq!(inode(&fourth.path().unwrap()), inode(&reused));
        drop(second);
    }

    #[test]
    fn only_a_network_namespace_is_entered() {
        let e = enter(Path::new("/proc/self/ns/uts")).unwrap_err();
        assert!(e.contains("cannot enter"), "{e}");
    }
}
