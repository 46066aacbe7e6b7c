//! How a bot process ended, in one wording for the arbiter and check-bot,
//! and the CPU time it had used, so that a death is put down to the CPU
//! limit only when the limit caused it.
//!
//! Why the CPU time: past `RLIMIT_CPU`'s hard limit the kernel kills with
//! `SIGKILL`, and so does the out-of-memory killer or a person with `kill
//! -9`. Only the time used tells them apart. It is read from the dead
//! process's `/proc/PID/stat` before it is reaped (a zombie keeps its
//! accounting until then), which needs knowing that it died without reaping
//! it: a pidfd becomes readable at that moment.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::ExitStatus;
use std::time::Duration;

use tokio::io::unix::AsyncFd;
use tokio::process::Child;

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exit {
    /// Its exit status.
    pub status: ExitStatus,
    /// The CPU time it had used (user and system), when it could be read.
    pub cpu: Option<Duration>,
}

/// An exit status in words: `exited with status 1`, `killed by signal 9`.
pub fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => status.to_string(),
    }
}

/// A child process, watched for its end and reaped once.
#[derive(Debug)]
pub(crate) struct Reaper {
    child: Child,
    pid: u32,
    pidfd: Option<AsyncFd<OwnedFd>>,
    exit: Option<Exit>,
}

impl Reaper {
    pub(crate) fn new(child: Child) -> Reaper {
        let pid = child.id().unwrap_or(0);
        Reaper {
            child,
            pid,
            pidfd: pidfd(pid),
            exit: None,
        }
    }

    /// The process id (0 if unknown).
    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    /// How the process ended, if it has been reaped.
    pub(crate) fn exit(&self) -> Option<Exit> {
        self.exit
    }

    /// Waits for the process to end and reaps it. Cancellation-safe.
    pub(crate) async fn wait(&mut self) -> io::Result<Exit> {
        if let Some(exit) = self.exit {
            return Ok(exit);
        }
        if let Some(pidfd) = &self.pidfd {
            // Readable once the process is a zombie; the readiness is kept,
            // so a cancelled wait finds it again.
            let _ = pidfd.readable().await?;
        }
        let cpu = cpu_time(self.pid);
        let status = self.child.wait().await?;
        let exit = Exit { status, cpu };
        self.exit = Some(exit);
        Ok(exit)
    }

    /// Waits up to `limit` for the process to end.
    pub(crate) async fn wait_for(&mut self, limit: Duration) -> Option<Exit> {
        tokio::time::timeout(limit, self.wait()).await.ok()?.ok()
    }

    /// Kills the process's whole group (it leads its own group), helpers
    /// included, even after the bot itself was reaped: a helper may still
    /// hold its pipes.
    pub(crate) fn kill_group(&self) {
        if self.pid > 0 {
            // SAFETY: killpg has no memory-safety preconditions. The group is
            // the bot's own: the spawn made the bot its leader, and the group
            // id stays reserved while any member is alive.
            unsafe {
                libc::killpg(self.pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        // `kill_on_drop` kills the bot; this kills what it started too.
        if self.exit.is_none() {
            self.kill_group();
        }
    }
}

/// A pidfd for `pid`, registered with the runtime; `None` on kernels
/// without `pidfd_open` (before Linux 5.3), where deaths are then told
/// apart by their signal alone.
fn pidfd(pid: u32) -> Option<AsyncFd<OwnedFd>> {
    if pid == 0 {
        return None;
    }
    // SAFETY: pidfd_open takes two integers and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: the descriptor was just created and is owned by nothing else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) };
    // SAFETY: the AsyncFd owns the descriptor, which nothing else can close
    // or replace while it is registered.
    unsafe { AsyncFd::register_with_interest(fd, tokio::io::Interest::READABLE) }.ok()
}

/// The user and system CPU time of process `pid`, from `/proc/PID/stat`.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    cpu_time_in(&stat, clock_ticks()?)
}

/// Parses `utime`, `stime`, `cutime` and `cstime` (fields 14 to 17, in
/// clock ticks) out of a `/proc/PID/stat` line: the process's own time and
/// that of the children it reaped (a sandboxed bot runs below a helper,
/// which has reaped it by the time it ends). The command name (field 2)
/// may hold spaces and parentheses, so fields are counted from its closing
/// parenthesis.
fn cpu_time_in(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let mut ticks = 0u64;
    for _ in 0..4 {
        ticks += fields.next()?.parse::<u64>().ok()?;
    }
    let nanos = u128::from(ticks) * 1_000_000_000 / u128::from(ticks_per_second);
    Some(Duration::from_nanos(nanos.try_into().ok()?))
}

fn clock_ticks() -> Option<u64> {
    // SAFETY: sysconf only reads a system constant.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(ticks).ok().filter(|&t| t > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_statuses_have_one_wording() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            describe(ExitStatus::from_raw(3 << 8)),
            "exited with status 3"
        );
        assert_eq!(describe(ExitStatus::from_raw(9)), "killed by signal 9");
    }

    #[test]
    fn cpu_time_is_read_after_the_command_name() {
        let stat = "4242 (a (b) c) Z 1 4242 4242 0 -1 4194560 100 0 0 0 250 150 0 0 20 0 1 0";
        assert_eq!(cpu_time_in(stat, 100), Some(Duration::from_secs(4)));
        let reaped = "4242 (sh) Z 1 4242 4242 0 -1 4194560 100 0 0 0 1 1 98 100 20 0 1 0";
        assert_eq!(cpu_time_in(reaped, 100), Some(Duration::from_secs(2)));
        assert_eq!(cpu_time_in("4242 (x) Z 1", 100), None);
    }
}
