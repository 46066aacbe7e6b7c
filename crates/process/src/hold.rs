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
//!   unprivileged arbiter): a hold queued to the sandbox's helper as a
//!   real-time signal with a value ([`relay_signal`], [`HOLD`]), which the
//!   helper queues on to the namespace's init, which sends `SIGSTOP` to
//!   every process of the namespace (`kill(-1)`), `setsid` daemons and
//!   double forks included; [`RELEASE`] continues them (see
//!   [`Guard::relays_hold`]). Queued, not plain signals: two plain signals
//!   pending at once are delivered in number order, not in the order sent,
//!   so a release and the hold that follows it microseconds later (a bot
//!   that moves at once) could arrive as a hold then a release, and leave
//!   the bot running through its opponent's whole move (seen on a busy
//!   machine: 0.9 s of CPU in one second of the opponent's thinking).
//!   Real-time signals of one number queue in the order sent, each with
//!   its value.
//! - otherwise `SIGSTOP` and `SIGCONT` to the bot's process group, which it
//!   leads. A helper that moved itself to another group (`setpgid`,
//!   `setsid`) is not stopped: that is the weakest of the three, and said
//!   so in the sandbox's layers report.
//!
//! Neither a freezer nor a stop interrupts a system call under way: the
//! kernel stops a task only on its way back to the program, so a bot that
//! starts long calls just before its `bestmove` (many threads each
//! reading a gigabyte of a sparse file in one `preadv`) kept a core busy
//! through its opponent's whole move, and took a quarter of a computing
//! opponent's work (an outside attack). Where the bot has a cpu cgroup of
//! its own, a hold therefore also sets its weight (`cpu.shares`) to the
//! kernel's least, 2 against every other bot's 1024, and a release gives
//! it back first: what a held bot still runs then takes only the CPU no
//! other bot wants. The weight is written after `FROZEN` and before
//! `THAWED`, so the bot never runs with the low weight on its own move.
//! A bot whose games are over (asked to quit, killed) keeps the low
//! weight when it is let go: the same reads, started before its last
//! move, ran on for seconds after the process was killed (a thread dies
//! only once its call returns), at full weight through the next game.
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
    /// [`HOLD`] and [`RELEASE`] queued to the sandbox helper `pid`,
    /// relayed as a stop and a continue of its whole pid namespace.
    Relay(u32),
}

/// The weight of a held bot's cpu group: the least the kernel takes.
pub(crate) const HELD_WEIGHT: u64 = 2;
/// The weight of every bot's cpu group when it is not held: the kernel's
/// default.
pub(crate) const WEIGHT: u64 = 1024;

/// One bot process's hold: the method, the bot's cpu group if it has one
/// (see the module docs), and whether it is held now.
#[derive(Debug)]
pub(crate) struct Hold {
    method: HoldMethod,
    weight: Option<PathBuf>,
    held: bool,
    retired: bool,
}

impl Hold {
    pub(crate) fn new(method: HoldMethod, weight: Option<PathBuf>) -> Hold {
        Hold {
            method,
            weight,
            held: false,
            retired: false,
        }
    }

    /// From now on, a release lets the bot run only on the CPU no other
    /// bot wants: it is quitting or being killed.
    pub(crate) fn retire(&mut self) {
        if !self.retired {
            self.retired = true;
            if let Err(e) = self.weigh(HELD_WEIGHT) {
                tracing::warn!("{e}");
            }
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
            HoldMethod::Relay(pid) => relay(*pid, HOLD),
        }?;
        self.weigh(HELD_WEIGHT)
    }

    /// Lets the bot run again. Synchronous: it must also work while the
    /// bot is being dropped.
    pub(crate) fn thaw(&mut self) -> io::Result<()> {
        if !self.held {
            return Ok(());
        }
        self.held = false;
        let weighed = match self.retired {
            true => Ok(()),
            false => self.weigh(WEIGHT),
        };
        match &self.method {
            HoldMethod::Freezer(dir) => write_state(dir, "THAWED"),
            HoldMethod::Signals(pgid) => signal_group(*pgid, libc::SIGCONT),
            HoldMethod::Relay(pid) => relay(*pid, RELEASE),
        }?;
        weighed
    }

    /// Sets the weight of the bot's cpu group, if it has one.
    fn weigh(&self, weight: u64) -> io::Result<()> {
        let Some(dir) = &self.weight else {
            return Ok(());
        };
        let path = dir.join("cpu.shares");
        std::fs::write(&path, weight.to_string())
            .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))
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

fn relay(pid: u32, value: usize) -> io::Result<()> {
    if pid == 0 {
        return Err(io::Error::other("the sandbox helper's pid is unknown"));
    }
    // The process is the bot's helper, the arbiter's own child, not yet
    // reaped.
    queue(pid as libc::pid_t, value)
}

/// The value of a [`relay_signal`] that stops every process of the bot.
pub const HOLD: usize = 1;
/// The value of a [`relay_signal`] that continues them.
pub const RELEASE: usize = 2;

/// The real-time signal that carries a hold or a release to a sandbox's
/// helper, and from it to the init of the bot's pid namespace.
pub fn relay_signal() -> libc::c_int {
    libc::SIGRTMIN() + 2
}

extern "C" {
    // POSIX, in every libc; not bound by the `libc` crate on Linux.
    fn sigqueue(pid: libc::pid_t, sig: libc::c_int, value: libc::sigval) -> libc::c_int;
}

/// Queues [`relay_signal`] with `value` to `pid`. Async-signal-safe (the
/// sandbox's helper calls it from its handler).
pub fn queue(pid: libc::pid_t, value: usize) -> io::Result<()> {
    let value = libc::sigval {
        sival_ptr: value as *mut libc::c_void,
    };
    // SAFETY: sigqueue has no memory-safety preconditions.
    if unsafe { sigqueue(pid, relay_signal(), value) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
