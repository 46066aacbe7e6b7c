//! The helper's watch over the bot while it waits for it: the limits no
//! kernel counter enforces over a whole bot without cgroups, measured ten
//! times a second (`write-size`, see `usage`; `cpu-limit`, see `spent`),
//! ending the bot as the kernel's own limits would (`SIGXFSZ`, `SIGXCPU`),
//! so the arbiter records the limit reached. The plain wait for a process
//! and its raw status, which the helper's other processes use too, are
//! here.

use nix::sys::signal::Signal;
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;

use crate::plan::Plan;
use crate::spent::{GroupClock, HostProc};

/// What the helper needs to watch the bot while it waits for it: the
/// host's `/proc` and the filesystems of its `write` paths, both found
/// before the bot's world is built over them.
pub(crate) struct Watch {
    proc: HostProc,
    devices: Vec<u64>,
    /// The bot's `cpuacct` count, where it has a group (see `spent`).
    clock: Option<GroupClock>,
    /// The `freezer.state` of the bot's freezer group, where it has one:
    /// held there (or by the relay, without one), the bot can neither
    /// write nor spend, so nothing is measured (the helper is never held,
    /// and its walks over the bot's files and descriptors would otherwise
    /// go on while the opponent thinks).
    freezer: Option<std::fs::File>,
    /// The `tasks` files of the bot's cpu and cpuset groups, where it has
    /// them, which the helper joins once the bot's init is forked (see
    /// [`Watch::charge_to_bot`]).
    charge: Vec<std::fs::File>,
    /// The `tasks` files of the helper's own cpu and cpuset groups, which
    /// it goes back to once the bot is gone (see [`Watch::leave_bot`]).
    home: Vec<std::fs::File>,
}

impl Watch {
    pub(crate) fn new(plan: &Plan) -> Result<Watch, String> {
        let clock = match (&plan.cpu_account, plan.cpu_limit) {
            (Some(group), Some(_)) => Some(GroupClock::open(group)?),
            _ => None,
        };
        // Opened now: the bot's root, built over the helper's too, hides
        // the host's cgroup folders.
        let freezer = (plan.bot_cgroups.iter())
            .map(|dir| dir.join("freezer.state"))
            .find(|state| state.exists())
            .map(|state| {
                std::fs::File::open(&state)
                    .map_err(|e| format!("cannot open {}: {e}", state.display()))
            })
            .transpose()?;
        let charge = (plan.bot_cgroups.iter())
            .filter(|dir| dir.join("cpu.shares").exists() || dir.join("cpuset.cpus").exists())
            .map(|dir| {
                let tasks = dir.join("tasks");
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&tasks)
                    .map_err(|e| format!("cannot open {}: {e}", tasks.display()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let home = match charge.is_empty() {
            true => Vec::new(),
            false => own_groups()?,
        };
        Ok(Watch {
            proc: HostProc::open()?,
            devices: crate::usage::devices(&plan.own_writable),
            clock,
            freezer,
            charge,
            home,
        })
    }

    /// Moves the helper, once its setup is done and the bot's init forked,
    /// into the bot's cpu and cpuset groups, at the highest priority within
    /// them: its looks at the bot's files and descriptors then take the
    /// bot's CPU share, on the bot's cores, first of all (an outside attack
    /// of 400 processes holding 1,000 descriptors each made the helper
    /// spend 12.8 s in eight games outside every group, taken from the
    /// bots of other games), and can lower its weight while it is held.
    /// Best effort: the bot is started already, and a helper left where
    /// it was only measures as it did before.
    pub(crate) fn charge_to_bot(&self) {
        join_all(&self.charge, -20);
    }

    /// Moves the helper back to its own groups once the bot is gone: its
    /// own ending (the bot's namespaces taken down with it) is not the
    /// bot's, and within a bot's quota spent to the last it waited for the
    /// next period (games 0.3 to 0.8 s longer under `cpu = "0.25"`).
    pub(crate) fn leave_bot(&self) {
        join_all(&self.home, 0);
    }
}

/// Moves the calling thread into the groups whose `tasks` files are
/// `groups`, at `nice`, if there are any.
fn join_all(groups: &[std::fs::File], nice: libc::c_int) {
    for mut tasks in groups {
        // `0`: the thread that writes it.
        let _ = std::io::Write::write_all(&mut tasks, b"0");
    }
    if !groups.is_empty() {
        // SAFETY: setpriority has no memory-safety preconditions.
        unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, nice) };
    }
}

/// The `tasks` files of the calling process's cpu and cpuset groups.
fn own_groups() -> Result<Vec<std::fs::File>, String> {
    let groups = std::fs::read_to_string("/proc/self/cgroup")
        .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
    let mut files = Vec::new();
    for line in groups.lines() {
        let Some((controllers, path)) = line.split_once(':').and_then(|(_, l)| l.split_once(':'))
        else {
            continue;
        };
        let Some(controller) = (controllers.split(',')).find(|c| *c == "cpu" || *c == "cpuset")
        else {
            continue;
        };
        let tasks = std::path::Path::new("/sys/fs/cgroup")
            .join(controllers)
            .join(path.trim_start_matches('/'))
            .join("tasks");
        let file = std::fs::OpenOptions::new().write(true).open(&tasks);
        files.push(
            file.map_err(|e| format!("cannot open {} ({controller}): {e}", tasks.display()))?,
        );
    }
    Ok(files)
}

impl Watch {
    /// Whether the bot is held: every task of its freezer group stopped
    /// (`FROZEN`; not while `FREEZING`), or, without one, a hold relayed
    /// to its init and no release since (see `relay`).
    fn still(&self) -> bool {
        let Some(state) = &self.freezer else {
            return crate::relay::held();
        };
        let mut text = [0u8; 16];
        let read = std::os::unix::fs::FileExt::read_at(state, &mut text, 0).unwrap_or(0);
        text[..read].starts_with(b"FROZEN")
    }

    /// Waits for `child` as [`wait_for`] does, killing it once the bot's
    /// `write` paths hold more than the plan's limit, files its processes
    /// hold open after deleting them included (see `usage`), or once its
    /// processes together have spent more CPU time than its `cpu-limit`
    /// (see `spent`). Then the bot ends as a process past a limit of the
    /// kernel does, by `SIGXFSZ` or `SIGXCPU`, which the arbiter records
    /// as the limit reached.
    pub(crate) fn wait(&self, child: Pid, plan: &Plan) -> i32 {
        let write_limit = plan.write_limit.filter(|_| !plan.own_writable.is_empty());
        let cpu_limit = plan.cpu_limit.map(std::time::Duration::from_secs);
        if write_limit.is_none() && cpu_limit.is_none() {
            return wait_for(child);
        }
        let me = i32::try_from(std::process::id()).unwrap_or(i32::MAX);
        loop {
            match waitpid(child, Some(WaitPidFlag::WNOHANG)) {
                Ok(s @ (WaitStatus::Exited(..) | WaitStatus::Signaled(..))) => return raw(s),
                Ok(_) | Err(nix::errno::Errno::EINTR) => {}
                Err(_) => return 1 << 8,
            }
            if self.still() {
                std::thread::sleep(crate::usage::EVERY);
                continue;
            }
            let over = |limit| self.held(plan, me).is_some_and(|held| held > limit);
            let stop = match () {
                () if write_limit.is_some_and(over) => Some(Signal::SIGXFSZ),
                () if cpu_limit.is_some_and(|limit| self.spent(me) > limit) => {
                    Some(Signal::SIGXCPU)
                }
                () => None,
            };
            if let Some(signal) = stop {
                let _ = nix::sys::signal::kill(child, Signal::SIGKILL);
                wait_for(child);
                return signal as i32;
            }
            std::thread::sleep(crate::usage::EVERY);
        }
    }

    /// The CPU time the bot's processes (below the helper, `me`) have
    /// spent: its group's count, else the sum from `/proc`.
    fn spent(&self, me: i32) -> std::time::Duration {
        let counted = self.clock.as_ref().and_then(GroupClock::spent);
        counted.unwrap_or_else(|| self.proc.spent_below(me))
    }

    /// What the bot's `write` paths hold, with the deleted files its
    /// processes (below the helper, `me`) hold open there; `None` if the
    /// bot was held before the look was over.
    fn held(&self, plan: &Plan, me: i32) -> Option<u64> {
        let named = crate::usage::held(&plan.own_writable).bytes();
        let pids = self.proc.below(me);
        let open = crate::usage::held_open(&self.proc, &pids, &self.devices, &|| self.still())?;
        Some(named.saturating_add(open))
    }
}

/// Waits for `child`, returning its raw wait status.
pub(crate) fn wait_for(child: Pid) -> i32 {
    loop {
        match waitpid(child, None) {
            Ok(s @ (WaitStatus::Exited(..) | WaitStatus::Signaled(..))) => return raw(s),
            Err(nix::errno::Errno::EINTR) | Ok(_) => continue,
            Err(_) => return 1 << 8,
        }
    }
}

/// The raw wait status of an ended process, as `waitpid(2)` gives it.
pub(crate) fn raw(status: WaitStatus) -> i32 {
    match status {
        WaitStatus::Exited(_, code) => (code & 0xff) << 8,
        WaitStatus::Signaled(_, signal, _) => signal as i32,
        _ => 1 << 8,
    }
}
