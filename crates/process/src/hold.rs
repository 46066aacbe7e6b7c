//! Holding a bot still while its opponent thinks, so that it cannot spend
//! the machine's cores against the bot whose clock is running (nor against
//! the bots of other games).
//!
//! Two ways, the first the launcher can give:
//!
//! - a cgroup v1 `freezer` holding every process of the bot (the sandbox
//!   makes one, see [`Guard::freezer`]): `FROZEN` is written, and the game
//!   goes on at once. The state reads `FREEZING` until each task has been
//!   scheduled once more and stopped itself, which on a busy machine takes
//!   hundreds of microseconds: waiting for it cost the arbiter 0.45 ms a
//!   move (`aboure bench arbiter`), while what a bot can do in that time
//!   against its opponent's clock is nothing measurable. Nothing the bot
//!   does gets a process out of the group.
//! - a sandbox with a pid namespace of its own and no freezer (an
//!   unprivileged arbiter): `SIGUSR1` to the sandbox's helper, which relays
//!   it to the namespace's init, which sends `SIGSTOP` to every process of
//!   the namespace (`kill(-1)`), `setsid` daemons and double forks
//!   included; `SIGUSR2` continues them (see [`Guard::relays_hold`]).
//! - otherwise `SIGSTOP` and `SIGCONT` to the bot's process group, which it
//!   leads. A helper that moved itself to another group (`setpgid`,
//!   `setsid`) is not stopped: that is the weakest of the three, and said
//!   so in the sandbox's layers report.
//!
//! A frozen task does not die of `SIGKILL` until it is thawed (cgroup v1
//! freezer; a stopped one does): a kill is therefore followed by a thaw, so
//! the pending `SIGKILL` is the first thing the bot sees.
//!
//! [`Guard::freezer`]: crate::launch::Guard::freezer
//! [`Guard::relays_hold`]: crate::launch::Guard::relays_hold

use std::io;
use std::path::{Path, PathBuf};

/// How a bot's processes are held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HoldMethod {
    /// Its freezer cgroup (the folder holding `freezer.state`).
    Freezer(PathBuf),
    /// Stop and continue signals to the process group `pgid`.
    Signals(u32),
    /// `SIGUSR1` and `SIGUSR2` to the sandbox helper `pid`, relayed as a
    /// stop and a continue of its whole pid namespace.
    Relay(u32),
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

    /// Stops every process of the bot (the freezer finishes on its own,
    /// without being waited for: see the module docs).
    pub(crate) async fn freeze(&mut self) -> io::Result<()> {
        if self.held {
            return Ok(());
        }
        self.held = true;
        match &self.method {
            HoldMethod::Freezer(dir) => write_state(dir, "FROZEN"),
            HoldMethod::Signals(pgid) => signal_group(*pgid, libc::SIGSTOP),
            HoldMethod::Relay(pid) => signal(*pid, libc::SIGUSR1),
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
            HoldMethod::Relay(pid) => signal(*pid, libc::SIGUSR2),
        }
    }
}

fn write_state(dir: &Path, state: &str) -> io::Result<()> {
    let path = dir.join("freezer.state");
    std::fs::write(&path, state)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
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

fn signal(pid: u32, signal: libc::c_int) -> io::Result<()> {
    if pid == 0 {
        return Err(io::Error::other("the sandbox helper's pid is unknown"));
    }
    // SAFETY: kill has no memory-safety preconditions; the process is the
    // bot's helper, the arbiter's own child, not yet reaped.
    if unsafe { libc::kill(pid as libc::pid_t, signal) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
