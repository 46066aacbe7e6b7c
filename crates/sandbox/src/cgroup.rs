//! Cgroup v1 controllers, managed from the arbiter's side: one group per
//! bot process under `/sys/fs/cgroup/CONTROLLER/aboure/`, made before the
//! bot starts (the helper joins it), read after it ends (did the kernel's
//! OOM killer act?), and emptied and removed when the bot is done.
//!
//! - `memory`: a limit on the bot and everything it starts together, unlike
//!   `RLIMIT_DATA`, which is per process; its verdict comes from the kernel's
//!   own count of OOM kills, never from guessing at an exit signal.
//! - `pids`: the processes and threads of the bot together.
//! - `freezer`: the whole bot held still while its opponent thinks (the
//!   process layer writes its `freezer.state`, see `aboure_process::hold`).
//! - `cpu`: a CFS quota, so that a bot that starts threads on every core
//!   gets its share (`cpu = "1"`: one core's time per period) and no more;
//!   and the group's weight, which the hold lowers to the kernel's least
//!   while the bot is held (see `aboure_process::hold`). `cpu =
//!   "unlimited"` makes no group: the bot's threads weigh as the machine's
//!   other tasks do, as before there were groups.
//! - `cpuset`: the cores the bots may run on (`cpus = "0,1"`).
//! - `cpuacct`: for a bot with a `cpu-limit`, the CPU time of every task
//!   that ever ran in its group, children the kernel reaped between two of
//!   the helper's looks included (see `spent`). Made where it can be (as
//!   root); elsewhere the helper's own sum from `/proc` counts.
//!
//! (cgroup v2 is not used yet: on this kind of machine it has no memory
//! controller, and elsewhere it needs a delegated subtree.)

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

const ROOT: &str = "/sys/fs/cgroup";

/// The folder of aboure's groups for `controller`.
fn base(controller: &str) -> PathBuf {
    Path::new(ROOT).join(controller).join("aboure")
}

/// The run's memory group, `memory/aboure/PID-run`, made at its first use
/// with `limit`: every bot process's memory group lies in it, so the pages
/// a process leaves behind when its own group is removed (a tmpfs another
/// process still holds open) are charged to the run, which outlives the
/// processes, and stay under its limit. Removed with [`remove_run_groups`].
pub fn run_memory_group(limit: Option<u64>) -> std::io::Result<PathBuf> {
    let dir = base("memory").join(format!("{}-run", std::process::id()));
    if !dir.exists() {
        std::fs::create_dir_all(&dir)?;
        // Charges of the processes' groups count in this one (always so on
        // recent kernels; older ones need it set before any child).
        let _ = std::fs::write(dir.join("memory.use_hierarchy"), "1");
        if let Some(bytes) = limit {
            write_file(&dir.join("memory.limit_in_bytes"), &bytes.to_string())?;
        }
    }
    Ok(dir)
}

/// Gives aboure's cpu group its weight against the machine's other
/// processes, once per run, before its first bot's group (not at every
/// bot process's start): all bots together weigh as much as one busy task
/// per core, not as one task.
fn run_weight() -> std::io::Result<()> {
    static GIVEN: std::sync::Mutex<bool> = std::sync::Mutex::new(false);
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    if !*given {
        let base = base("cpu");
        std::fs::create_dir_all(&base)?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        write_file(&base.join("cpu.shares"), &(1024 * cores).to_string())?;
        *given = true;
    }
    Ok(())
}

/// Gives aboure's cpuset folder the machine's cores and memory nodes
/// where it has none, once per run, before its first bot's group; its
/// memory nodes, which each bot's group takes.
fn run_cpuset() -> std::io::Result<String> {
    static MEMS: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
    let mut mems = MEMS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = mems.as_ref() {
        return Ok(known.clone());
    }
    let base = base("cpuset");
    // (Made here, before its first group, to be given its cores.)
    std::fs::create_dir_all(&base)?;
    // A new cpuset has no cores and no memory nodes: aboure's own folder
    // takes the machine's, each bot's group its share.
    let root = Path::new(ROOT).join("cpuset");
    for file in ["cpuset.cpus", "cpuset.mems"] {
        if read_text(&base.join(file))?.is_empty() {
            write_file(&base.join(file), &read_text(&root.join(file))?)?;
        }
    }
    let known = read_text(&base.join("cpuset.mems"))?;
    *mems = Some(known.clone());
    Ok(known)
}

/// Removes the run's memory group (its processes' groups are gone by then;
/// what they left is charged to the group above, `aboure`).
pub fn remove_run_groups() {
    let dir = base("memory").join(format!("{}-run", std::process::id()));
    let _ = std::fs::remove_dir(dir);
}

/// Why groups cannot be made for a controller.
#[derive(Debug, thiserror::Error)]
pub enum Unusable {
    /// The controller is not mounted where cgroup v1 puts it.
    #[error("no cgroup v1 {controller} controller at {}", root.display())]
    NoController {
        /// The controller (`memory`).
        controller: String,
        /// Where it was looked for.
        root: PathBuf,
    },
    /// It is, but no group can be made in it (not root, read-only).
    #[error("cannot make a group in {}: {source}", base.display())]
    CannotMake {
        /// The folder aboure's groups go in.
        base: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
}

/// Whether groups can be made for `controller`; the reason if not.
pub fn usable(controller: &str) -> Result<(), Unusable> {
    let root = Path::new(ROOT).join(controller);
    if !root.join("cgroup.procs").exists() {
        return Err(Unusable::NoController {
            controller: controller.to_owned(),
            root,
        });
    }
    let base = base(controller);
    let probe = base.join(format!("probe-{}", std::process::id()));
    std::fs::create_dir_all(&probe)
        .and_then(|()| std::fs::remove_dir(&probe))
        .map_err(|source| Unusable::CannotMake { base, source })
}

/// Every controller aboure makes groups in.
pub const CONTROLLERS: [&str; 6] = ["memory", "pids", "freezer", "cpu", "cpuset", "cpuacct"];

/// Removes the groups of arbiters that are gone (killed outright, their
/// groups never removed); a group still holding a process stays, except
/// that a frozen one is thawed, so that its processes (told by the kernel
/// to die with the arbiter) can.
pub fn sweep(controller: &str) {
    let Ok(entries) = std::fs::read_dir(base(controller)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let owner = name
            .to_str()
            .and_then(|n| n.split('-').next()?.parse::<u32>().ok());
        if owner.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            thaw(&entry.path());
            // A run's memory group holds its processes' groups.
            for inner in std::fs::read_dir(entry.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                if inner.path().is_dir() {
                    let _ = std::fs::remove_dir(inner.path());
                }
            }
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

/// Thaws `dir` if it is a freezer group.
fn thaw(dir: &Path) {
    let state = dir.join("freezer.state");
    if state.exists() {
        let _ = std::fs::write(state, "THAWED");
    }
}

/// The groups one bot process is to get: each `None` (or `false`) is a
/// group not made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Memory limit, bytes.
    pub memory: Option<u64>,
    /// The run's memory limit, bytes, over every bot process together (see
    /// [`run_memory_group`]); `None`: the run's group counts, unlimited.
    pub run_memory: Option<u64>,
    /// Processes and threads.
    pub pids: Option<u64>,
    /// A freezer group, to hold the bot while its opponent thinks.
    pub freezer: bool,
    /// CPU time per period, in thousandths of a core.
    pub cpu_millis: Option<u64>,
    /// The cores, as a cpuset list (`0,1`, `2-3`).
    pub cpus: Option<String>,
    /// A `cpuacct` group, to count the CPU time of a bot with a
    /// `cpu-limit`, where one can be made (its absence is no error).
    pub cpu_account: bool,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// The groups of one bot process.
#[derive(Debug, Default)]
pub struct Cgroups {
    dirs: Vec<PathBuf>,
    memory: Option<(PathBuf, u64)>,
    freezer: Option<PathBuf>,
    cpu: Option<PathBuf>,
    cpu_account: Option<PathBuf>,
}

impl Cgroups {
    /// Makes the groups `request` asks for.
    pub fn create(request: &Request) -> std::io::Result<Cgroups> {
        let name = format!(
            "{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut groups = Cgroups::default();
        if let Some(bytes) = request.memory {
            let run = run_memory_group(request.run_memory)?;
            let dir = run.join(&name);
            std::fs::create_dir_all(&dir)?;
            groups.dirs.push(dir.clone());
            std::fs::write(dir.join("memory.limit_in_bytes"), bytes.to_string())?;
            // With swap, the same limit on memory and swap together.
            let memsw = dir.join("memory.memsw.limit_in_bytes");
            if memsw.exists() {
                std::fs::write(memsw, bytes.to_string())?;
            }
            groups.memory = Some((dir, bytes));
        }
        if let Some(n) = request.pids {
            let dir = groups.make("pids", &name)?;
            std::fs::write(dir.join("pids.max"), n.to_string())?;
        }
        if request.freezer {
            groups.freezer = Some(groups.make("freezer", &name)?);
        }
        if let Some(millis) = request.cpu_millis {
            run_weight()?;
            let dir = groups.make("cpu", &name)?;
            let period: u64 = read_number(&dir.join("cpu.cfs_period_us")).unwrap_or(100_000);
            // The kernel's smallest quota is 1 ms.
            let quota = (period * millis / 1000).max(1000);
            write_file(&dir.join("cpu.cfs_quota_us"), &quota.to_string())?;
            groups.cpu = Some(dir);
        }
        if let Some(cpus) = &request.cpus {
            let mems = run_cpuset()?;
            let dir = groups.make("cpuset", &name)?;
            write_file(&dir.join("cpuset.cpus"), cpus)?;
            write_file(&dir.join("cpuset.mems"), &mems)?;
        }
        if request.cpu_account {
            groups.cpu_account = groups.accounting(&name);
        }
        Ok(groups)
    }

    /// The freezer group, if the bot has one.
    pub fn freezer(&self) -> Option<&Path> {
        self.freezer.as_deref()
    }

    /// The cpu group (whose `cpu.shares` the hold lowers), if the bot has
    /// one.
    pub fn cpu(&self) -> Option<&Path> {
        self.cpu.as_deref()
    }

    /// The group whose `cpuacct.usage` counts the bot's CPU time, if it
    /// has one.
    pub fn cpu_account(&self) -> Option<&Path> {
        self.cpu_account.as_deref()
    }

    /// A group counting CPU time: one already made where `cpuacct` is
    /// mounted with `cpu`, else one of its own; `None` where none can be
    /// made (an unprivileged arbiter, no such controller).
    fn accounting(&mut self, name: &str) -> Option<PathBuf> {
        let counts = |dir: &PathBuf| dir.join("cpuacct.usage").exists();
        if let Some(dir) = self.dirs.iter().find(|d| counts(d)) {
            return Some(dir.clone());
        }
        let dir = self.make("cpuacct", name).ok()?;
        counts(&dir).then_some(dir)
    }

    fn make(&mut self, controller: &str, name: &str) -> std::io::Result<PathBuf> {
        let dir = base(controller).join(name);
        std::fs::create_dir_all(&dir)?;
        self.dirs.push(dir.clone());
        Ok(dir)
    }

    /// The group folders.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The group folders the helper joins before it forks anything: all
    /// but the cpu, cpuset and freezer groups (see [`Cgroups::bot_dirs`]).
    pub fn helper_dirs(&self) -> Vec<PathBuf> {
        (self.dirs.iter())
            .filter(|d| !joined_by_bot(d))
            .cloned()
            .collect()
    }

    /// The cpu, cpuset and freezer groups, which the bot's own process
    /// joins before anything of the bot runs: the helper's and the init's
    /// setup (the namespaces, the root, two forks) is not the bot's CPU,
    /// and inside the bot's cpu group it waited behind the machine's busy
    /// tasks whatever the arbiter's own priority. In the freezer, the
    /// helper and the init (which only wait, and are not the bot's) cost a
    /// hold: freezing a task wakes it to stop it and thawing it wakes it
    /// again, so with them in it every hold and release woke three tasks
    /// instead of the bot's one (13 context switches a move against 8 with
    /// the bot alone; see docs/figures.md).
    pub fn bot_dirs(&self) -> Vec<PathBuf> {
        self.dirs
            .iter()
            .filter(|d| joined_by_bot(d))
            .cloned()
            .collect()
    }

    /// True if the bot has a memory group.
    pub fn has_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// The memory group's limit, bytes.
    pub fn memory_limit(&self) -> Option<u64> {
        self.memory.as_ref().map(|(_, bytes)| *bytes)
    }

    /// True if the kernel's OOM killer killed a process of the memory group.
    pub fn oom_killed(&self) -> bool {
        let Some((dir, _)) = &self.memory else {
            return false;
        };
        let control = std::fs::read_to_string(dir.join("memory.oom_control")).unwrap_or_default();
        match control
            .lines()
            .find_map(|l| l.strip_prefix("oom_kill "))
            .and_then(|n| n.trim().parse::<u64>().ok())
        {
            Some(kills) => kills > 0,
            // Kernels before 4.13 do not count kills: the limit was hit and
            // the OOM killer is the only thing that acts on it.
            None => control.contains("under_oom 1"),
        }
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        // Frozen tasks die only once thawed: the kill first, then the thaw.
        if let Some(dir) = &self.freezer {
            kill_all(dir);
            thaw(dir);
        }
        for dir in &self.dirs {
            // A group is removable once empty; what is left is killed (a
            // process that escaped the bot's pid namespace cannot exist,
            // but without namespaces this is what ends a setsid daemon).
            for _ in 0..200 {
                if std::fs::remove_dir(dir).is_ok() {
                    break;
                }
                kill_all(dir);
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

/// Whether the group `dir` is joined by the bot's own process (see
/// [`Cgroups::bot_dirs`]).
fn joined_by_bot(dir: &Path) -> bool {
    ["cpu", "cpuset", "freezer"]
        .iter()
        .any(|controller| dir.starts_with(base(controller)))
}

/// Sends `SIGKILL` to every process of the group `dir`.
fn kill_all(dir: &Path) {
    let procs = std::fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
    for pid in procs.lines().filter_map(|p| p.trim().parse::<i32>().ok()) {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}

/// A control file's text, trimmed; the path in the error.
fn read_text(path: &Path) -> std::io::Result<String> {
    std::fs::read_to_string(path)
        .map(|t| t.trim().to_owned())
        .map_err(|e| with_path(e, path))
}

fn read_number(path: &Path) -> Option<u64> {
    read_text(path).ok()?.parse().ok()
}

/// Writes a control file; the path in the error (the kernel's own errors,
/// such as `ERANGE` for cores the machine lacks, say nothing of it).
fn write_file(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text).map_err(|e| with_path(e, path))
}

fn with_path(e: std::io::Error, path: &Path) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
