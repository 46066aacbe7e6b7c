//! [`Sandbox::prepare`]: the parts it puts together for one bot process,
//! each found on its own (its uid, its view, masked, its scratch folder,
//! its cgroups' request and rlimits, its clean environment, the cage and
//! plan the helper is given), into the [`Jail`] that starts it. Kept apart
//! from the run's [`Sandbox`] and from the [`Jail`], so that each reads in
//! one sitting.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use aboure_process::MemoryRlimit;

use crate::cage::Cage;
use crate::cgroup::{Cgroups, Request};
use crate::error::SandboxError;
use crate::identity::Claim;
use crate::jail::{BotSpec, Jail, Sandbox};
use crate::own::resolve_in;
use crate::paths::{installation, normal};
use crate::plan::{Plan, Resource, Root, Rules};
use crate::reach::Need;
use crate::scratch;
use crate::settings::{Mode, Policy};
use crate::view::{Command, View};

/// Signals a bot's processes may have queued at once (`RLIMIT_SIGPENDING`):
/// far more than a runtime uses, far fewer than the default, so that its
/// sandbox's hold relay always finds room in the count it shares.
const SIGPENDING: u64 = 1024;

/// Devices a bot may also write to.
const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full"];

/// The search path of a bot's clean environment.
const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

impl Sandbox {
    /// Prepares one process of a bot: its scratch folder and cgroups, and
    /// the command that starts it in its cage.
    pub fn prepare(&self, spec: &BotSpec) -> Result<Jail, SandboxError> {
        if self.settings.mode == Mode::Off || spec.policy.disabled {
            return Ok(Jail::plain(spec));
        }
        // Found out here, not in the helper, so that the reason is plain.
        let own_path = spec.env.get("PATH").map(std::ffi::OsStr::new);
        let program = resolve_in(spec.program, own_path);
        runnable(&program).map_err(|reason| SandboxError::Program {
            program: spec.program.to_owned(),
            workdir: spec.workdir.to_owned(),
            reason,
        })?;
        // The helper starts in the working directory: every path it is
        // given must not depend on where it is.
        let workdir = normal(spec.workdir);
        let view = self.view(spec, &program, &workdir)?;
        let claim = self.claim(spec, &view)?;
        let identity = claim.as_ref().map(|c| c.identity());
        if let Some(identity) = identity {
            self.refuse_unreachable(spec.name, &view, identity, &[])?;
        }
        let scratch = self.scratch(spec, identity)?;
        let request = self.cgroup_request(spec);
        let cgroups = Cgroups::create(&request).map_err(|source| SandboxError::Prepare {
            bot: spec.name.to_owned(),
            path: PathBuf::from("/sys/fs/cgroup"),
            source,
        })?;
        let net = self
            .network_of(spec)
            .map(|lease| lease.after(cgroups.dirs()));
        let scratch_dir = match &scratch {
            Some(dir) => dir.path().to_owned(),
            None => PathBuf::from("/tmp"),
        };
        let env = environment(spec, &scratch_dir);
        let cage = self.cage(spec, &program, &view, &env, request.memory.is_some());
        let writable = view.writable();
        let sealed = view.sealed_paths();
        let sight = view.sight(identity);
        let made = Made {
            scratch: &scratch_dir,
            request: &request,
            cgroups: &cgroups,
            identity,
            net: net.as_ref().and_then(crate::netns::Lease::path),
        };
        let plan = self.plan(spec, (program, workdir), view, env, &made);
        Ok(Jail {
            program: self.helper.clone(),
            args: vec![
                crate::HELPER_COMMAND.to_owned(),
                crate::exec::PLAN_IN_ENV.to_owned(),
            ],
            workdir: spec.workdir.to_owned(),
            // In the environment, not the command line: any user of the
            // machine can read a command line, and the plan holds the bot's
            // `env` (API keys).
            env: vec![(
                crate::exec::PLAN_VAR.to_owned(),
                serde_json::to_string(&plan)?,
            )],
            confined: true,
            cage: Some(cage),
            sight: Some(sight),
            namespaces: self.layers.has("namespaces"),
            cgroups,
            _net: net,
            _claim: claim,
            scratch,
            writable,
            sealed,
            write_size: self.settings.write_size,
            run_bound: spec.memory.is_none() && request.memory.is_some(),
        })
    }
}

/// What [`Sandbox::prepare`] made on the host for one bot process, which
/// its plan names.
struct Made<'a> {
    /// Its scratch folder (`/tmp` of its constructed root, or one on the
    /// host).
    scratch: &'a Path,
    /// Its cgroups' request.
    request: &'a Request,
    /// Its cgroups.
    cgroups: &'a Cgroups,
    /// Its uid, where it has one of its own.
    identity: Option<crate::plan::Identity>,
    /// The network namespace it leased from its bot, where it has one.
    net: Option<PathBuf>,
}

impl Sandbox {
    /// The scratch folder of a process of the bot of `spec` on the host,
    /// owned by its `identity`: only where there is no constructed root
    /// (which has a private tmpfs of its own).
    fn scratch(
        &self,
        spec: &BotSpec,
        identity: Option<crate::plan::Identity>,
    ) -> Result<Option<scratch::Scratch>, SandboxError> {
        if self.layers.has("root") {
            return Ok(None);
        }
        let prepare_err = |path: &Path| {
            let bot = spec.name.to_owned();
            let path = path.to_owned();
            move |source| SandboxError::Prepare { bot, path, source }
        };
        let dir = scratch::create(spec.name).map_err(prepare_err(&std::env::temp_dir()))?;
        if let Some(id) = identity {
            std::os::unix::fs::chown(dir.path(), Some(id.uid), Some(id.gid))
                .map_err(prepare_err(dir.path()))?;
        }
        Ok(Some(dir))
    }

    /// The helper's plan for a process of the bot of `spec` running
    /// `program` in `workdir`, with its `view`, `env` and what was `made`
    /// for it.
    fn plan(
        &self,
        spec: &BotSpec,
        (program, workdir): (PathBuf, PathBuf),
        view: View,
        env: BTreeMap<String, String>,
        made: &Made,
    ) -> Plan {
        let has = |layer| self.layers.has(layer);
        let mut argv = vec![spec.program.to_string_lossy().into_owned()];
        argv.extend(spec.args.iter().cloned());
        let own_writable = view.writable();
        // The memory limit where it is each process's `RLIMIT_DATA`.
        let private_memory = spec.memory.filter(|_| made.request.memory.is_none());
        Plan {
            program,
            argv,
            workdir,
            env: env.into_iter().collect(),
            namespaces: has("namespaces"),
            network: spec.policy.network,
            net: made.net.clone(),
            landlock: has("landlock").then(|| Rules {
                read: view.readable(),
                write: own_writable.clone(),
                scratch: vec![made.scratch.to_owned()],
                devices: DEVICES.iter().map(PathBuf::from).collect(),
                no_tcp: !spec.policy.network,
            }),
            seccomp: has("seccomp"),
            private_memory: private_memory.is_some(),
            cgroups: made.cgroups.helper_dirs(),
            bot_cgroups: made.cgroups.bot_dirs(),
            rlimits: self.rlimits(made.request.pids.is_some(), private_memory),
            root: has("root").then(|| Root {
                entries: view.entries,
                scratch: self.scratch_size(spec),
            }),
            identity: made.identity,
            own_files: view.own,
            write_limit: (!own_writable.is_empty()).then_some(self.settings.write_size),
            own_writable,
            // Whole seconds, as `RLIMIT_CPU` counts them.
            cpu_limit: spec
                .cpu
                .map(|d| d.as_secs() + u64::from(d.subsec_nanos() > 0)),
            cpu_account: made.cgroups.cpu_account().map(Path::to_path_buf),
            signal_hold: made.cgroups.freezer().is_none(),
            build: spec.build,
        }
    }
}

impl Sandbox {
    /// The rules the bot of `spec` runs under, in words for its failures;
    /// `cgroup_memory`: its memory limit is a cgroup's.
    fn cage(
        &self,
        spec: &BotSpec,
        program: &Path,
        view: &View,
        env: &BTreeMap<String, String>,
        cgroup_memory: bool,
    ) -> Cage {
        let world = self.layers.has("root");
        let confined_reads = world || self.layers.has("landlock");
        let readable = covering(
            (installation(program).into_iter())
                .chain(view.own.iter().cloned())
                .chain(spec.policy.read.iter().map(|p| normal(p))),
        );
        let workdir = normal(spec.workdir);
        let writable = view.writable();
        let workdir_shown =
            !confined_reads || (readable.iter().chain(&writable)).any(|p| workdir.starts_with(p));
        Cage {
            confined_reads,
            readable,
            writable,
            workdir,
            workdir_shown,
            scratch: world.then_some(self.scratch_size(spec)),
            env: env.keys().cloned().collect(),
            network: spec.policy.network,
            memory: spec.memory.map(|bytes| match cgroup_memory {
                true => (bytes, "a cgroup over all its processes"),
                false => (bytes, MemoryRlimit::current().describe()),
            }),
        }
    }

    /// The size of the bot's private `/tmp`: its `disk`, and never more
    /// than its memory limit. A tmpfs's pages are memory, which
    /// `RLIMIT_DATA` does not count: without a memory cgroup, this bound
    /// is what keeps `/tmp` within the limit (with one, the cgroup counts
    /// them too, and a full `/tmp` says so before the OOM killer does).
    fn scratch_size(&self, spec: &BotSpec) -> u64 {
        let disk = spec.policy.disk.unwrap_or(self.settings.disk);
        spec.memory.map_or(disk, |memory| disk.min(memory))
    }

    /// A network namespace of the bot of `spec` (see `netns`), where its
    /// processes would each get a new one and the arbiter, as root, can
    /// make it. `None` where it cannot, and then each process gets a new
    /// one.
    fn network_of(&self, spec: &BotSpec) -> Option<crate::netns::Lease> {
        let own = !spec.policy.network && self.layers.has("namespaces");
        if !own || !nix::unistd::geteuid().is_root() {
            return None;
        }
        let idle = (self.nets.lock().unwrap_or_else(|e| e.into_inner()))
            .entry(spec.name.to_owned())
            .or_default()
            .clone();
        crate::netns::Lease::take(&idle)
    }

    /// The bot's uid for the run, where the arbiter is root and may give
    /// one (passing over the owners of what its `view` binds).
    fn claim(&self, spec: &BotSpec, view: &View) -> Result<Option<Arc<Claim>>, SandboxError> {
        if !self.gives_identities(spec.policy) {
            return Ok(None);
        }
        let write: Vec<PathBuf> = spec.policy.write.iter().map(|p| normal(p)).collect();
        self.identity_of(spec.name, &write, view, true).map(Some)
    }

    /// Whether a bot with allowances `policy` runs as a uid of its own
    /// (the arbiter is root and may give one).
    pub(crate) fn gives_identities(&self, policy: &Policy) -> bool {
        self.settings.mode != Mode::Off
            && !policy.disabled
            && self.layers.has("identity")
            && nix::unistd::geteuid().is_root()
    }

    /// Refuses the view of bot `name` if its `identity` cannot reach, on
    /// the host, what the view binds as the bot's own (see
    /// [`crate::reach`]).
    pub(crate) fn refuse_unreachable(
        &self,
        name: &str,
        view: &View,
        identity: crate::plan::Identity,
        not_given: &[PathBuf],
    ) -> Result<(), SandboxError> {
        // A `write` path not given to the bot yet (at registration) needs
        // only its parent searched: it is the bot's before its first game.
        let needs: Vec<_> = (view.needs().into_iter())
            .map(|(path, need)| match path.parent() {
                Some(up) if need == Need::Write && not_given.contains(&path) => {
                    (up.to_owned(), Need::Run)
                }
                _ => (path, need),
            })
            .collect();
        crate::reach::first_unreachable(identity, &needs).map_err(|unreachable| {
            SandboxError::Unreachable {
                bot: name.to_owned(),
                unreachable,
            }
        })
    }

    /// What the bot of `spec` sees, running `program` in `workdir`, with
    /// what it must not see masked.
    fn view(&self, spec: &BotSpec, program: &Path, workdir: &Path) -> Result<View, SandboxError> {
        let command = Command {
            program,
            args: spec.args,
            workdir,
            helper: &self.helper,
        };
        let view = View::of(&command, spec.policy).map_err(|refusal| SandboxError::OwnFolder {
            bot: spec.name.to_owned(),
            command: command_line(spec),
            refusal: Box::new(refusal),
        })?;
        // The results folder may be made after the bots were registered.
        let hidden = self.hidden.iter();
        if let Some(path) = (view.own.iter()).find(|p| hidden.clone().any(|h| p.starts_with(h))) {
            return Err(SandboxError::Hidden {
                bot: spec.name.to_owned(),
                path: path.clone(),
                what: "the tournament file or the results folder".into(),
            });
        }
        let view = view.masked(&self.hidden_from(spec.name));
        Ok(match spec.build {
            true => view
                .sealed()
                .map_err(|unsearched| SandboxError::MetadataUnsearched {
                    bot: spec.name.to_owned(),
                    unsearched,
                })?,
            false => view,
        })
    }

    /// The cgroups one process of the bot of `spec` gets, as the machine
    /// allows.
    fn cgroup_request(&self, spec: &BotSpec) -> Request {
        let has = |layer| self.layers.has(layer);
        Request {
            // A bot with no limit of its own is bounded by the run's.
            memory: has("cgroup-memory")
                .then_some(spec.memory.or(self.run_memory))
                .flatten(),
            run_memory: self.run_memory,
            pids: has("cgroup-pids").then_some(self.settings.processes),
            freezer: has(crate::fairness::FREEZER),
            cpu_millis: has(crate::fairness::CPU)
                .then_some(self.settings.cpu_millis)
                .flatten(),
            cpus: has(crate::fairness::CPUSET)
                .then(|| self.settings.cpus.clone())
                .flatten(),
            cpu_account: spec.cpu.is_some(),
        }
    }

    /// The resource limits, with `RLIMIT_NPROC` where no pids cgroup
    /// counts the processes, and `RLIMIT_STACK` where the memory limit is
    /// `private_memory` bytes of `RLIMIT_DATA` (see `stack`).
    fn rlimits(&self, pids_cgroup: bool, private_memory: Option<u64>) -> Vec<(Resource, u64, u64)> {
        let s = &self.settings;
        let mut rlimits = vec![
            (Resource::Fsize, s.file_size, s.file_size),
            (Resource::Nofile, s.open_files, s.open_files),
            (Resource::Sigpending, SIGPENDING, SIGPENDING),
        ];
        if !pids_cgroup {
            rlimits.push((Resource::Nproc, s.processes, s.processes));
        }
        if let Some(memory) = private_memory {
            rlimits.push(crate::stack::limit(memory, crate::stack::inherited()));
        }
        rlimits
    }
}

/// The bot's whole environment: `PATH`, `LANG`, `HOME` and `TMPDIR` (its
/// scratch), and its own `env`.
fn environment(spec: &BotSpec, scratch: &Path) -> BTreeMap<String, String> {
    let scratch = scratch.to_string_lossy();
    let mut env: BTreeMap<String, String> = [
        ("PATH", PATH),
        ("LANG", "C.UTF-8"),
        ("HOME", &scratch),
        ("TMPDIR", &scratch),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    env.extend(spec.env.clone());
    env
}

/// `paths` without repeats and without those inside another of them.
fn covering(paths: impl Iterator<Item = PathBuf>) -> Vec<PathBuf> {
    let all: Vec<PathBuf> = paths.collect();
    let mut kept: Vec<PathBuf> = Vec::new();
    for p in &all {
        let inside = all.iter().any(|q| q != p && p.starts_with(q));
        if !inside && !kept.contains(p) {
            kept.push(p.clone());
        }
    }
    kept
}

/// The bot's command as a person would type it, for messages.
fn command_line(spec: &BotSpec) -> String {
    std::iter::once(spec.program.to_string_lossy().into_owned())
        .chain(spec.args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `program` is a file this user may execute.
fn runnable(program: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(program) {
        Err(e) if !program.is_absolute() => Err(format!("not found in PATH ({e})")),
        Err(e) => Err(e.to_string()),
        Ok(m) if !m.is_file() => Err("not a file".to_owned()),
        Ok(m) if m.permissions().mode() & 0o111 == 0 => Err("not executable".to_owned()),
        Ok(_) => Ok(()),
    }
}
