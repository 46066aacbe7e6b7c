//! How a bot is launched: one pluggable step that turns the bot's command
//! (program, arguments, working directory, environment) into the command
//! to spawn. It runs the program as it is ([`Plain`]) or through a prefix
//! command such as `taskset -c 2` or `nice -n 5` ([`Wrapper`]); a sandbox
//! is one more [`Launcher`], written in its own crate.
//!
//! What every launch gets whatever the launcher, added by
//! [`prepare`](crate::launch::prepare) after it, so that no launcher can
//! forget one: all three streams piped, the bot leading its own process
//! group (so a bot that forks helpers is killed whole), `kill_on_drop`,
//! death with the arbiter (`PR_SET_PDEATHSIG`), and the resource
//! [`Limits`], applied between `fork` and `exec` to whatever program the
//! launcher chose (a wrapper inherits them and passes them on).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Debug;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::process::Command;

use crate::exit::Exit;
use crate::limits::Limits;

/// The command that starts a bot, as configured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// The program (a bare name is looked up on `PATH`).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Its working directory (`None`: the caller's).
    pub workdir: Option<PathBuf>,
    /// Extra environment variables.
    pub env: BTreeMap<String, String>,
}

impl Program {
    /// The command as a person would type it, for messages.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.as_os_str())
            .chain(self.args.iter().map(OsString::as_os_str))
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The pluggable step of a launch: what to execute for a bot.
///
/// Implement it to run bots another way (a sandbox builds a command that
/// enters its namespaces and then executes the bot). The returned command
/// carries the program, arguments, working directory and environment; the
/// pipes, the process group and the safety settings are added afterwards
/// (see the module documentation), and any `pre_exec` hook the launcher
/// installs runs before the resource limits are applied.
pub trait Launcher: Debug + Send + Sync {
    /// The command that runs `bot`.
    fn command(&self, bot: &Program) -> io::Result<Command>;

    /// The command for one process of `bot` under `limits`, with what must
    /// live as long as that process (a sandbox's scratch folder and
    /// cgroups). By default [`Launcher::command`], the limits as given and
    /// nothing to keep.
    fn launch(&self, bot: &Program, limits: Limits) -> io::Result<Launched> {
        Ok(Launched {
            command: self.command(bot)?,
            limits,
            guard: None,
        })
    }
}

/// A launcher's command for one bot process.
#[derive(Debug)]
pub struct Launched {
    /// The command.
    pub command: Command,
    /// The limits applied between `fork` and `exec`, and by which an exit
    /// is explained (a sandbox may enforce some its own way instead).
    pub limits: Limits,
    /// Kept until the process is dropped, after it is killed and reaped.
    pub guard: Option<Box<dyn Guard>>,
}

/// What a launcher keeps for the life of a process.
pub trait Guard: Debug + Send + Sync {
    /// The limit that stopped the process, if the launcher knows of one
    /// the exit status cannot show (a cgroup's out-of-memory kill).
    fn explain(&self, exit: Exit) -> Option<String>;

    /// The cgroup v1 freezer holding every process of the bot, if the
    /// launcher made one (see [`crate::hold`]); without, the bot is held
    /// with signals to its process group.
    fn freezer(&self) -> Option<&Path> {
        None
    }

    /// The cpu cgroup holding every process of the bot, if the launcher
    /// made one: while the bot is held its weight (`cpu.shares`) is the
    /// kernel's least (see [`crate::hold`]).
    fn weight(&self) -> Option<&Path> {
        None
    }

    /// True if the launched process relays a queued hold and release
    /// (`hold::relay_signal`) as a stop and a continue of every process of the bot (a sandbox whose
    /// init signals its whole pid namespace): the hold without a freezer
    /// then reaches processes that left the bot's process group.
    fn relays_hold(&self) -> bool {
        false
    }

    /// The rules the process runs under, in words, with how to allow more
    /// (a sandbox's readable folders, environment, network, memory): told
    /// with a failure before the bot's first move, when a refusal is the
    /// likeliest cause.
    fn cage(&self) -> Option<String> {
        None
    }

    /// Whether the process may see `path` (absolute, lexically normal):
    /// only then may its failure tell whether the host has that file (see
    /// [`crate::hint`]). A sandbox answers for what it shows.
    fn shows(&self, path: &Path) -> bool {
        let _ = path;
        true
    }
}

/// Runs the bot's program directly.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plain;

impl Launcher for Plain {
    fn command(&self, bot: &Program) -> io::Result<Command> {
        let mut command = Command::new(&bot.program);
        command.args(&bot.args).envs(&bot.env);
        if let Some(dir) = &bot.workdir {
            command.current_dir(dir);
        }
        Ok(command)
    }
}

/// Runs the bot's command as the arguments of a prefix command, e.g.
/// `["taskset", "-c", "2"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapper {
    prefix: Vec<OsString>,
}

impl Wrapper {
    /// A wrapper that runs `prefix` followed by the bot's command; `None`
    /// if `prefix` is empty.
    pub fn new(prefix: Vec<OsString>) -> Option<Wrapper> {
        (!prefix.is_empty()).then_some(Wrapper { prefix })
    }
}

impl Launcher for Wrapper {
    fn command(&self, bot: &Program) -> io::Result<Command> {
        let mut command = Command::new(&self.prefix[0]);
        command
            .args(&self.prefix[1..])
            .arg(&bot.program)
            .args(&bot.args)
            .envs(&bot.env);
        if let Some(dir) = &bot.workdir {
            command.current_dir(dir);
        }
        Ok(command)
    }
}

/// The launcher's command with what every bot process gets.
pub(crate) fn prepare(
    launcher: &dyn Launcher,
    bot: &Program,
    limits: Limits,
) -> io::Result<Launched> {
    let mut launched = launcher.launch(bot, limits)?;
    let limits = launched.limits;
    let command = &mut launched.command;
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .process_group(0);
    // SAFETY: the closure runs in the child between fork and exec and only
    // makes system calls (prctl, setrlimit), which are async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            // Die with the arbiter, even when it is killed outright.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(io::Error::last_os_error());
            }
            limits.apply()
        });
    }
    Ok(launched)
}
