//! The CPU time a whole bot has spent: every process it started, alive or
//! reaped, summed by the helper, which stops the bot past its `cpu-limit`.
//!
//! `RLIMIT_CPU` is per process, so a bot that does its work in children
//! (a fresh child per move, each under the limit) would never meet it. The
//! helper already waits for the bot and polls its `write` folders (see
//! `usage`); at the same pace it sums, from the host's `/proc` (opened
//! before the bot's own `/proc` is mounted over it), the times of every
//! process below it: a live process's own time (`utime`, `stime`) and that
//! of the children it has reaped (`cutime`, `cstime`, where an exited
//! child's time goes once waited for). Orphans are reaped by the bot's
//! init (or by the helper, a subreaper without namespaces), so their time
//! stays in the sum too.
//!
//! What would escape the sum: a child reaped by the kernel itself (its
//! parent ignores `SIGCHLD`), whose time is added to no one, if it lives
//! and dies between two polls (an outside review's bot spent 6 s under
//! `cpu-limit = "2s"` in children of 40 ms each). So where the bot has a
//! `cpuacct` group (a root arbiter), its `cpuacct.usage` is read instead
//! ([`GroupClock`]): the kernel adds to it every task that ran in the
//! group, reaped by anyone or not, and the helper's own time, which is
//! not the bot's, is taken off. Without one, the bot cannot have its
//! children reaped by the kernel (see `reaping`).

use std::ffi::CString;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::time::Duration;

/// The host's `/proc`, opened by the helper before anything is mounted
/// over it.
#[derive(Debug)]
pub(crate) struct HostProc(OwnedFd);

impl HostProc {
    /// Opens `/proc` as a directory.
    pub(crate) fn open() -> Result<HostProc, String> {
        let path = c"/proc";
        // SAFETY: open with a NUL-terminated path; the descriptor is owned
        // by the returned value.
        let fd = unsafe {
            libc::open(
                path.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(format!(
                "cannot open /proc: {}",
                std::io::Error::last_os_error()
            ));
        }
        // SAFETY: a descriptor just opened and owned by no one else.
        Ok(HostProc(unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    /// The processes below `root` (the bot's init and everything in its
    /// namespace when `root` is the helper), `root` not included.
    pub(crate) fn below(&self, root: i32) -> Vec<i32> {
        let mut found = Vec::new();
        let mut stack = self.children(root);
        // A bound on the walk: the processes of a bot are bounded
        // (`processes`), and a pid reused during the walk cannot loop it.
        while let Some(pid) = stack.pop() {
            if found.len() >= 1 << 16 {
                break;
            }
            found.push(pid);
            stack.extend(self.children(pid));
        }
        found
    }

    /// The CPU time spent by the processes below `root`, alive or reaped,
    /// not counting `root`'s own (only the children it reaped).
    pub(crate) fn spent_below(&self, root: i32) -> Duration {
        let mut ticks = self.stat(root).map_or(0, |t| t.reaped);
        // A parent's times are read before its children's: a child reaped
        // in between is missed by this poll (no longer listed, not yet in
        // its parent's), never counted twice (once reaped it is gone).
        for pid in self.below(root) {
            if let Some(t) = self.stat(pid) {
                ticks = ticks.saturating_add(t.own.saturating_add(t.reaped));
            }
        }
        Duration::from_secs_f64(ticks as f64 / clock_ticks())
    }

    /// The open descriptors of every thread of `pid` (each thread's `fd`
    /// folder, those that may be read): a thread made without
    /// `CLONE_FILES` has a table of its own, which `/proc/PID/fd` (the
    /// leader's) does not show.
    pub(crate) fn descriptor_tables(&self, pid: i32) -> Vec<nix::dir::Dir> {
        (self.threads(pid).into_iter())
            .filter_map(|tid| self.dir(&format!("{pid}/task/{tid}/fd")))
            .collect()
    }

    fn fd(&self) -> BorrowedFd<'_> {
        self.0.as_fd()
    }

    fn read(&self, path: &str) -> Option<String> {
        let path = CString::new(path).ok()?;
        // SAFETY: openat relative to a live directory descriptor.
        let fd = unsafe {
            libc::openat(
                self.fd().as_raw_fd(),
                path.as_ptr(),
                libc::O_RDONLY | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return None;
        }
        // SAFETY: a descriptor just opened and owned by no one else.
        let mut file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
        let mut text = String::new();
        std::io::Read::read_to_string(&mut file, &mut text).ok()?;
        Some(text)
    }

    fn stat(&self, pid: i32) -> Option<Times> {
        Times::parse(&self.read(&format!("{pid}/stat"))?)
    }

    /// The children of every thread of `pid`.
    fn children(&self, pid: i32) -> Vec<i32> {
        let mut found = Vec::new();
        for tid in self.threads(pid) {
            if let Some(text) = self.read(&format!("{pid}/task/{tid}/children")) {
                found.extend(
                    text.split_whitespace()
                        .filter_map(|p| p.parse::<i32>().ok()),
                );
            }
        }
        found
    }

    fn threads(&self, pid: i32) -> Vec<i32> {
        let Some(mut dir) = self.dir(&format!("{pid}/task")) else {
            return Vec::new();
        };
        dir.iter()
            .flatten()
            .filter_map(|e| e.file_name().to_str().ok()?.parse::<i32>().ok())
            .collect()
    }

    fn dir(&self, path: &str) -> Option<nix::dir::Dir> {
        let path = CString::new(path).ok()?;
        let flags = nix::fcntl::OFlag::O_RDONLY
            | nix::fcntl::OFlag::O_DIRECTORY
            | nix::fcntl::OFlag::O_CLOEXEC;
        nix::dir::Dir::openat(
            self.fd(),
            path.as_c_str(),
            flags,
            nix::sys::stat::Mode::empty(),
        )
        .ok()
    }
}

/// A bot's `cpuacct` group's count of CPU time, opened by the helper
/// before it joins the group (and before the bot's world hides it).
#[derive(Debug)]
pub(crate) struct GroupClock {
    usage: std::fs::File,
    /// The helper's own CPU time when it opened the group's count, before
    /// joining: what it spends from then on is in the count too.
    helper_before: Duration,
}

impl GroupClock {
    /// Opens `group`'s `cpuacct.usage`.
    pub(crate) fn open(group: &std::path::Path) -> Result<GroupClock, String> {
        let path = group.join("cpuacct.usage");
        let usage = std::fs::File::open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        Ok(GroupClock {
            usage,
            helper_before: own_cpu(),
        })
    }

    /// The CPU time of every task of the group but the helper; `None` if
    /// the count cannot be read.
    pub(crate) fn spent(&self) -> Option<Duration> {
        let mut text = [0u8; 32];
        let n = std::os::unix::fs::FileExt::read_at(&self.usage, &mut text, 0).ok()?;
        let nanos: u64 = std::str::from_utf8(&text[..n]).ok()?.trim().parse().ok()?;
        let helper = own_cpu().saturating_sub(self.helper_before);
        Some(Duration::from_nanos(nanos).saturating_sub(helper))
    }
}

/// The CPU time of this process, every thread.
fn own_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the live timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// One process's times, in clock ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Times {
    /// Its own (`utime + stime`).
    own: u64,
    /// Its reaped children's (`cutime + cstime`).
    reaped: u64,
}

impl Times {
    /// From the text of `/proc/PID/stat`.
    fn parse(stat: &str) -> Option<Times> {
        // The command may hold spaces and parentheses: the fields start
        // after the last `)`, with the state (field 3); utime is field 14.
        let (_, rest) = stat.rsplit_once(')')?;
        let fields: Vec<u64> = rest
            .split_whitespace()
            .skip(11)
            .take(4)
            .map(|f| f.parse::<i64>().map(|n| n.max(0) as u64))
            .collect::<Result<_, _>>()
            .ok()?;
        match fields[..] {
            [utime, stime, cutime, cstime] => Some(Times {
                own: utime + stime,
                reaped: cutime + cstime,
            }),
            _ => None,
        }
    }
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 {
        ticks as f64
    } else {
        100.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_times_are_read_after_a_command_with_parentheses() {
        let stat = "42 (a) b (c)) S 1 42 42 0 -1 4194560 100 0 0 0 7 3 11 13 20 0 1 0 5 0 0";
        assert_eq!(
            Times::parse(stat),
            Some(Times {
                own: 10,
                reaped: 24
            })
        );
        assert_eq!(Times::parse("42 (a) S 1 2"), None);
    }

    #[test]
    fn a_reaped_childs_time_counts_and_the_roots_own_does_not() {
        let proc = HostProc::open().unwrap();
        let me = std::process::id() as i32;
        let before = proc.spent_below(me);
        // A child that burns a second of CPU (ended by its own
        // RLIMIT_CPU) and is reaped: its time moves to our cutime, which
        // the sum counts.
        let mut child = std::process::Command::new("sh")
            .args(["-c", "ulimit -t 1; while :; do :; done"])
            .spawn()
            .unwrap();
        child.wait().unwrap();
        let after = proc.spent_below(me);
        assert!(
            after >= before + Duration::from_millis(500),
            "{before:?} then {after:?}"
        );
        // Our own time (a busy loop here) is not the bot's.
        let start = own_cpu();
        while own_cpu() < start + Duration::from_millis(300) {
            std::hint::black_box(0);
        }
        assert!(proc.spent_below(me) < after + Duration::from_millis(250));
    }
}
