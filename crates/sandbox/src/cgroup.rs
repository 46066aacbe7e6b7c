//! Cgroup v1 memory and pids controllers, managed from the arbiter's side:
//! one group per bot process under `/sys/fs/cgroup/{memory,pids}/aboure/`,
//! made before the bot starts (the helper joins it), read after it ends
//! (did the kernel's OOM killer act?), and emptied and removed when the bot
//! is done. A memory limit on the group covers the bot and everything it
//! starts together, unlike `RLIMIT_AS`, which is per process; its verdict
//! comes from the kernel's own count of OOM kills, never from guessing at
//! an exit signal. (cgroup v2 is not used yet: on this kind of machine it
//! has no memory controller, and elsewhere it needs a delegated subtree.)

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

const ROOT: &str = "/sys/fs/cgroup";

/// The folder of aboure's groups for `controller`.
fn base(controller: &str) -> PathBuf {
    Path::new(ROOT).join(controller).join("aboure")
}

/// Whether groups can be made for `controller`; the reason if not.
pub fn usable(controller: &str) -> Result<(), String> {
    let root = Path::new(ROOT).join(controller);
    if !root.join("cgroup.procs").exists() {
        return Err(format!(
            "no cgroup v1 {controller} controller at {}",
            root.display()
        ));
    }
    let base = base(controller);
    let probe = base.join(format!("probe-{}", std::process::id()));
    std::fs::create_dir_all(&probe)
        .and_then(|()| std::fs::remove_dir(&probe))
        .map_err(|e| format!("cannot make a group in {}: {e}", base.display()))
}

/// Removes the groups of arbiters that are gone (killed outright, their
/// groups never removed); a group still holding a process stays.
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
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// The groups of one bot process.
#[derive(Debug, Default)]
pub struct Cgroups {
    dirs: Vec<PathBuf>,
    memory: Option<(PathBuf, u64)>,
}

impl Cgroups {
    /// Makes the groups: a memory group limited to `memory` bytes if given,
    /// a pids group limited to `pids` processes if given.
    pub fn create(memory: Option<u64>, pids: Option<u64>) -> std::io::Result<Cgroups> {
        let name = format!(
            "{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut groups = Cgroups::default();
        if let Some(bytes) = memory {
            let dir = groups.make("memory", &name)?;
            std::fs::write(dir.join("memory.limit_in_bytes"), bytes.to_string())?;
            // With swap, the same limit on memory and swap together.
            let memsw = dir.join("memory.memsw.limit_in_bytes");
            if memsw.exists() {
                std::fs::write(memsw, bytes.to_string())?;
            }
            groups.memory = Some((dir, bytes));
        }
        if let Some(n) = pids {
            let dir = groups.make("pids", &name)?;
            std::fs::write(dir.join("pids.max"), n.to_string())?;
        }
        Ok(groups)
    }

    fn make(&mut self, controller: &str, name: &str) -> std::io::Result<PathBuf> {
        let dir = base(controller).join(name);
        std::fs::create_dir_all(&dir)?;
        self.dirs.push(dir.clone());
        Ok(dir)
    }

    /// The group folders, for the helper to join.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
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
        for dir in &self.dirs {
            // A group is removable once empty; what is left is killed (a
            // process that escaped the bot's pid namespace cannot exist,
            // but without namespaces this is what ends a setsid daemon).
            for _ in 0..200 {
                if std::fs::remove_dir(dir).is_ok() {
                    break;
                }
                let procs = std::fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
                for pid in procs.lines().filter_map(|p| p.trim().parse::<i32>().ok()) {
                    // SAFETY: kill has no memory-safety preconditions.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}
