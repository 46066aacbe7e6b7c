//! The arbiter's side: the run's [`Sandbox`] (its settings, the layers the
//! machine allows, the bots it knows of) and a [`Jail`], one bot process
//! ready to start as the helper's command, with what the helper needed
//! made beforehand (a scratch folder, cgroups) removed when it is dropped.
//! `Sandbox::prepare`, which makes a `Jail`, is in `parts`; the run's bots
//! are registered in `roster` (their records in `registered`, which
//! neither this file nor they import back).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use aboure_process::{size_text, Exit, Guard, Limits};

use crate::cage::{Cage, Sight};
use crate::cgroup::Cgroups;
use crate::error::SandboxError;
use crate::identity::Claim;
use crate::layers::Layers;
use crate::probe::Support;
use crate::registered::RegisteredBot;
use crate::scratch;
use crate::settings::{Mode, Policy, Settings};

/// The sandbox of a run: its settings and the layers this machine allows.
#[derive(Debug)]
pub struct Sandbox {
    pub(crate) settings: Settings,
    pub(crate) layers: Layers,
    pub(crate) helper: PathBuf,
    /// Paths no bot sees (see [`Sandbox::hide`]).
    pub(crate) hidden: Vec<PathBuf>,
    /// What lies beside the tournament file and is masked with it (see
    /// [`Sandbox::hide`]).
    pub(crate) beside: Vec<PathBuf>,
    /// Each bot's own paths, which no other bot sees, and its `write`
    /// paths.
    pub(crate) bots: Vec<RegisteredBot>,
    /// Each bot's uid for the whole run (see `Sandbox::identity_of`).
    pub(crate) claims: Mutex<BTreeMap<String, Arc<Claim>>>,
    /// The bots whose `write` paths were given to their uid (at their
    /// first process, once every bot passed every check).
    pub(crate) given: Mutex<std::collections::BTreeSet<String>>,
    /// Each bot's idle network namespaces, where the arbiter can make
    /// them (see `netns`).
    pub(crate) nets: Mutex<BTreeMap<String, crate::netns::Idle>>,
    /// The limit of the run's memory group, where there is a memory
    /// cgroup: `run-memory`, or less (see [`Sandbox::bound_memory`]).
    pub(crate) run_memory: Option<u64>,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        crate::cgroup::remove_run_groups();
    }
}

/// One bot process to start, as the arbiter would start it unsandboxed.
#[derive(Clone, Debug)]
pub struct BotSpec<'a> {
    /// The bot's name (for error messages and the scratch folder's name).
    pub name: &'a str,
    /// Program: a path, or a bare name looked up in `PATH`.
    pub program: &'a Path,
    /// Its arguments.
    pub args: &'a [String],
    /// Working directory.
    pub workdir: &'a Path,
    /// The environment the configuration gives it.
    pub env: &'a BTreeMap<String, String>,
    /// Its allowances.
    pub policy: &'a Policy,
    /// Memory limit, bytes (the memory cgroup's, where there is one).
    pub memory: Option<u64>,
    /// CPU time limit of the whole bot (the helper sums its processes').
    pub cpu: Option<std::time::Duration>,
    /// Its build step, not the bot itself (see the plan's `build`).
    pub build: bool,
}

impl Sandbox {
    /// The sandbox of a run with `settings`; `helper` is the `aboure`
    /// binary. Probes the machine (once per process) unless the mode is
    /// `off`; in `strict` mode, fails naming every missing layer.
    pub fn new(settings: &Settings, helper: &Path) -> Result<Sandbox, SandboxError> {
        let layers = match settings.mode {
            Mode::Off => Layers {
                mode: Mode::Off,
                layers: crate::fairness::without_sandbox(),
            },
            mode => Layers::new(mode, Support::probe(helper)),
        };
        scratch::sweep_once();
        let run_memory = (layers.has("cgroup-memory"))
            .then(|| machine_memory().map(|total| settings.run_memory().bytes(total)))
            .flatten();
        if settings.mode == Mode::Strict && layers.layers.iter().any(|l| !l.active) {
            return Err(SandboxError::Missing(layers.missing()));
        }
        Ok(Sandbox {
            settings: settings.clone(),
            layers,
            helper: helper.to_owned(),
            hidden: Vec::new(),
            beside: Vec::new(),
            bots: Vec::new(),
            claims: Mutex::default(),
            given: Mutex::default(),
            nets: Mutex::default(),
            run_memory,
        })
    }

    /// The layers bots get in this run.
    pub fn layers(&self) -> &Layers {
        &self.layers
    }
}

/// The machine's memory, bytes (`MemTotal` of `/proc/meminfo`).
fn machine_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
    let kib: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kib * 1024)
}

impl Guard for Jail {
    fn explain(&self, exit: Exit) -> Option<String> {
        if let Some(why) = crate::usage::over(&self.writable, self.write_size) {
            return Some(why);
        }
        if let Some(why) = crate::usage::stopped_by_helper(exit, &self.writable, self.write_size) {
            return Some(why);
        }
        let bytes = self.cgroups.memory_limit()?;
        let which = match self.run_bound {
            true => "the run's memory bound (`run-memory`; the bot has no `memory-limit`)",
            false => "the memory limit",
        };
        self.cgroups.oom_killed().then(|| {
            format!(
                "killed by the kernel's OOM killer at {which} of {} (cgroup)",
                size_text(bytes)
            )
        })
    }

    fn freezer(&self) -> Option<&Path> {
        self.cgroups.freezer()
    }

    fn weight(&self) -> Option<&Path> {
        self.cgroups.cpu()
    }

    fn relays_hold(&self) -> bool {
        self.namespaces
    }

    fn cage(&self) -> Option<String> {
        self.cage.as_ref().map(Cage::to_string)
    }

    fn shows(&self, path: &Path) -> bool {
        self.sight.as_ref().is_none_or(|sight| sight.shows(path))
    }
}

/// One bot process's cage: the command to start it, and what to clean up
/// once it has ended (dropping the jail kills what is left in its cgroups
/// and removes them and its scratch folder).
#[derive(Debug)]
pub struct Jail {
    /// The program to start (the helper, or the bot's own unsandboxed).
    pub(crate) program: PathBuf,
    /// Its arguments.
    pub(crate) args: Vec<String>,
    /// Where it starts.
    pub(crate) workdir: PathBuf,
    /// Its environment beyond the arbiter's cleared one.
    pub(crate) env: Vec<(String, String)>,
    /// Whether it runs in a cage.
    pub(crate) confined: bool,
    /// What it may do, for a failure at its start.
    pub(crate) cage: Option<Cage>,
    /// What it may see of the host, for the same.
    pub(crate) sight: Option<Sight>,
    /// Started with its own pid namespace, whose init relays a hold.
    pub(crate) namespaces: bool,
    // Dropped in this order: processes first, then their folder, and only
    // then the uid (no new bot gets it while a file of the last is left).
    /// Its cgroups.
    pub(crate) cgroups: Cgroups,
    /// Its network namespace, given back to its bot once the cgroups are
    /// gone.
    pub(crate) _net: Option<crate::netns::Lease>,
    /// Its scratch folder on the host, where it has one.
    pub(crate) scratch: Option<scratch::Scratch>,
    /// Its uid, held while it lives.
    pub(crate) _claim: Option<Arc<Claim>>,
    /// Its `write` paths, and what they may hold together.
    pub(crate) writable: Vec<PathBuf>,
    /// The version-control metadata in its `write` paths, read-only to
    /// it (a build's; see [`crate::sealed`]).
    pub(crate) sealed: Vec<PathBuf>,
    /// What its `write` paths may hold together, bytes.
    pub(crate) write_size: u64,
    /// Its memory group's limit is the run's `run-memory`, not its own.
    pub(crate) run_bound: bool,
}

impl Jail {
    /// A bot run as a plain child process (mode `off`, `sandbox = false`).
    pub(crate) fn plain(spec: &BotSpec) -> Jail {
        Jail {
            program: spec.program.to_owned(),
            args: spec.args.to_vec(),
            workdir: spec.workdir.to_owned(),
            env: spec.env.clone().into_iter().collect(),
            confined: false,
            cage: None,
            sight: None,
            namespaces: false,
            cgroups: Cgroups::default(),
            _net: None,
            _claim: None,
            scratch: None,
            writable: Vec::new(),
            sealed: Vec::new(),
            write_size: u64::MAX,
            run_bound: false,
        }
    }

    /// The command that starts the bot (set its stdio, process group and
    /// limits, then spawn it). Confined, its environment is the plan's only.
    pub fn command(&self) -> std::process::Command {
        let mut command = std::process::Command::new(&self.program);
        if self.confined {
            command.env_clear();
        }
        command
            .args(&self.args)
            .current_dir(&self.workdir)
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        command
    }

    /// False for a bot run as a plain child process (mode `off`, or
    /// `sandbox = false`): the caller applies its limits itself.
    pub fn is_confined(&self) -> bool {
        self.confined
    }

    /// The limits the arbiter applies to the process it starts (inherited
    /// by the bot): `limits` without the memory limit where the bot's
    /// cgroup has it (then a death by a signal says nothing about memory;
    /// the cgroup's OOM count does, see [`Jail`]'s [`Guard`]).
    pub fn limits(&self, limits: Limits) -> Limits {
        Limits {
            memory: limits.memory.filter(|_| !self.cgroups.has_memory()),
            ..limits
        }
    }

    /// The version-control metadata in its `write` paths made read-only
    /// to it as it started (a build's, see [`crate::sealed`]).
    pub fn sealed(&self) -> &[PathBuf] {
        &self.sealed
    }

    /// The version-control metadata in its `write` paths now: after a
    /// build, beside [`Jail::sealed`], what it made where there was none;
    /// where they were too large to search whole, where the search
    /// stopped.
    pub fn repositories(&self) -> Result<Vec<PathBuf>, crate::Unsearched> {
        crate::sealed::metadata_in(&self.writable)
    }

    /// The scratch folder on the host (HOME and TMPDIR of the bot), if
    /// confined without a constructed root.
    pub fn scratch(&self) -> Option<&Path> {
        self.scratch.as_ref().map(|s| s.path())
    }
}
