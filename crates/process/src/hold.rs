//! Holding a bot still while its opponent thinks, so that it cannot spend
//! the machine's cores against the bot whose clock is running (nor against
//! the bots of other games).
//!
//! Two ways, the first the launcher can give:
//!
//! - a cgroup v1 `freezer` holding every process of the bot (the sandbox
//!   makes one, see [`Guard::freezer`]): `FROZEN` is written, then the
//!   state read back until it is `FROZEN` (it reads `FREEZING` while a task
//!   is still on its way). Nothing the bot does gets a process out of it.
//! - otherwise `SIGSTOP` and `SIGCONT` to the bot's process group, which it
//!   leads. A helper that moved itself to another group (`setpgid`,
//!   `setsid`) is not stopped: that is the weaker of the two, and said so in
//!   the sandbox's layers report.
//!
//! A frozen task does not die of `SIGKILL` until it is thawed (cgroup v1
//! freezer; a stopped one does): a kill is therefore followed by a thaw, so
//! the pending `SIGKILL` is the first thing the bot sees.
//!
//! [`Guard::freezer`]: crate::launch::Guard::freezer

use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a freeze may take to settle before the game goes on anyway
/// (the group keeps freezing; it is only not waited for).
const SETTLE_LIMIT: Duration = Duration::from_millis(100);

/// How long the settling is watched without a timer.
const SPIN_LIMIT: Duration = Duration::from_millis(2);

/// How a bot's processes are held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HoldMethod {
    /// Its freezer cgroup (the folder holding `freezer.state`).
    Freezer(PathBuf),
    /// Stop and continue signals to the process group `pgid`.
    Signals(u32),
}

/// One bot process's hold: the method, and whether it is held now.
#[derive(Debug)]
pub(crate) struct Hold {
    method: HoldMethod,
    held: bool,
}

impl Hold {
    pub(crate) fn new(method: HoldMethod) -> Hold {
        Hold {
            method,
            held: false,
        }
    }

    pub(crate) fn method(&self) -> &HoldMethod {
        &self.method
    }

    pub(crate) fn is_held(&self) -> bool {
        self.held
    }

    /// Stops every process of the bot, waiting (briefly) until they are.
    pub(crate) async fn freeze(&mut self) -> io::Result<()> {
        if self.held {
            return Ok(());
        }
        self.held = true;
        match &self.method {
            HoldMethod::Freezer(dir) => {
                write_state(dir, "FROZEN")?;
                let t0 = Instant::now();
                while read_state(dir)? != "FROZEN" && t0.elapsed() < SETTLE_LIMIT {
                    // A task on its way settles within microseconds: the
                    // timer's millisecond would cost more than the wait.
                    if t0.elapsed() < SPIN_LIMIT {
                        tokio::task::yield_now().await;
                    } else {
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                }
                Ok(())
            }
            HoldMethod::Signals(pgid) => signal_group(*pgid, libc::SIGSTOP),
        }
    }

    /// Lets the bot run again. Synchronous: it must also work while the
    /// bot is being dropped.
    pub(crate) fn thaw(&mut self) -> io::Result<()> {
        if !self.held {
            return Ok(());
        }
        self.held = false;
        match &self.method {
            HoldMethod::Freezer(dir) => write_state(dir, "THAWED"),
            HoldMethod::Signals(pgid) => signal_group(*pgid, libc::SIGCONT),
        }
    }
}

fn write_state(dir: &Path, state: &str) -> io::Result<()> {
    let path = dir.join("freezer.state");
    std::fs::write(&path, state)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
}

fn read_state(dir: &Path) -> io::Result<String> {
    let path = dir.join("freezer.state");
    std::fs::read_to_string(&path)
        .map(|s| s.trim().to_owned())
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display())))
}

fn signal_group(pgid: u32, signal: libc::c_int) -> io::Result<()> {
    if pgid == 0 {
        return Err(io::Error::other("the bot's process group is unknown"));
    }
    // SAFETY: killpg has no memory-safety preconditions; the group is the
    // bot's own (see `Reaper::kill_group`).
    if unsafe { libc::killpg(pgid as libc::pid_t, signal) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
