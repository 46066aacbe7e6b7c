//! Where a bot's build runs: in its bot's cage when the bot's games would
//! be sandboxed. A build is a stranger's program as much as the bot is (a
//! Makefile, a `build.rs`, a package script): run as the arbiter's user,
//! often root, it would have every right of the operator. Judges compile
//! in the sandbox too (isolate, DOMjudge).
//!
//! The cage is the games' own, made by the same sandbox (one helper, one
//! plan), with one difference: the build's folder (the bot's working
//! directory, where its outputs go) is one of its `write` paths. So the
//! build runs as the bot's uid, network off unless `network = true`, sees
//! the system folders, its own folders and `read` paths, writes its folder,
//! its `write` paths and a private `/tmp` (`HOME` and `TMPDIR`: compilers'
//! caches), under the bot's memory limit and [`BUILD_TIME`]. The run's
//! sandbox checks run on that `write` path before the build: a folder
//! holding the tournament file, the results or another bot's files, or
//! reached through a link, refuses the run before anything is built; so
//! does one that holds any tournament file or results folder below it
//! (the sandbox's `refuse_tournaments_in`), for `check-bot --build` too,
//! which has no tournament of its own to compare with.
//!
//! The build's sandbox is its own, dropped before the first game; the
//! bot's uid is the same in both (it is the bot's first uid, from its name,
//! and its own folders may hold files of that uid, see the sandbox's
//! `identity_of`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use aboure_config::Config;
use aboure_sandbox::{BotSpec, Games, Jail, Layers, Mode, Policy, Sandbox, SandboxError, Settings};

use crate::plan::{builds, Build};

/// The wall time a build may take before it is killed: a compiler that
/// loops, or a build that waits for a network it does not have, would
/// otherwise hold the run for ever. Ten minutes builds a large C++ or Rust
/// bot from scratch on a slow machine.
pub const BUILD_TIME: Duration = Duration::from_secs(600);

/// Why a build runs where it runs, for the run's first lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// In its bot's cage.
    Caged,
    /// Outside, as the arbiter's user: the sandbox is off.
    ModeOff,
    /// Outside: its bot has `sandbox = false`.
    BotUnsandboxed,
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Placement::Caged => write!(
                f,
                "in the sandbox, as its bot's games run (their layers, their uid; network off \
                 unless `network = true`; writing only its folder, its `write` paths and a \
                 private /tmp; {} min at most)",
                BUILD_TIME.as_secs() / 60
            ),
            Placement::ModeOff => write!(
                f,
                "outside the sandbox (sandbox mode \"off\"), with every right of this user"
            ),
            Placement::BotUnsandboxed => write!(
                f,
                "outside the sandbox (its bot has `sandbox = false`), with every right of this user"
            ),
        }
    }
}

/// The builds' sandbox: the run's bots registered as for their games, each
/// building bot with its build command, and its build's folder as a `write`
/// path.
#[derive(Debug)]
pub struct BuildCage {
    /// `None` when the sandbox is off.
    sandbox: Option<Sandbox>,
    /// Each building bot's allowances (its folder added) and memory limit.
    bots: BTreeMap<String, (Policy, Option<u64>)>,
}

impl BuildCage {
    /// The sandbox the builds of `config` run in, its results in
    /// `out_dir`; `helper` is the `aboure` binary. Runs every check the
    /// games' sandbox runs, on the builds' folders too.
    pub fn new(config: &Config, helper: &Path, out_dir: &Path) -> Result<BuildCage, SandboxError> {
        let builds = builds(config);
        let mut bots = BTreeMap::new();
        if config.sandbox().mode() == Mode::Off || builds.is_empty() {
            return Ok(BuildCage {
                sandbox: None,
                bots,
            });
        }
        let mut sandbox = Sandbox::new(config.sandbox(), helper)?;
        sandbox.hide([config.path().to_owned(), out_dir.to_owned()]);
        let first = |name: &str| builds.iter().find(|b| b.bots[0] == name);
        // A bot that shares another's build shares its folder: the two are
        // one author's, and one `write` path may not be two bots'.
        let sharing = |name: &str| builds.iter().any(|b| b.bots[1..].iter().any(|n| n == name));
        for bot in config.bots() {
            if sharing(bot.name()) {
                refuse_another_launch(config, &builds, bot)?;
                continue;
            }
            let mut policy = bot.sandbox().clone();
            let (program, args) = match first(bot.name()).filter(|_| !policy.disabled) {
                // Its build command is what runs: the files it names are
                // checked as a bot's command's are.
                Some(build) => {
                    sandbox.refuse_tournaments_in(bot.name(), &folder(build))?;
                    policy.write.push(folder(build));
                    bots.insert(bot.name().to_owned(), (policy.clone(), bot.limits().memory));
                    (program(build), build.command.args.clone())
                }
                None => bot.command_line(helper),
            };
            sandbox.register_bot(
                bot.name(),
                (&program, &args),
                bot.workdir(),
                &policy,
                &bot.launch(),
            )?;
        }
        // After the builds' own checks, which say more of a build's folder.
        refuse_other_programs(&sandbox, config, helper)?;
        Ok(BuildCage {
            sandbox: Some(sandbox),
            bots,
        })
    }

    /// The sandbox of one bot's build outside a tournament (`check-bot
    /// --build`, which an operator runs on a stranger's submission): the
    /// cage of `settings` with the bot's `policy` and `memory` limit, its
    /// build's folder added as a `write` path, checked as [`BuildCage::new`]
    /// checks a tournament's. Outside when the mode is off.
    pub fn one(
        settings: &Settings,
        helper: &Path,
        build: &Build,
        policy: &Policy,
        memory: Option<u64>,
    ) -> Result<BuildCage, SandboxError> {
        if settings.mode() == Mode::Off {
            return Ok(BuildCage::outside());
        }
        let mut sandbox = Sandbox::new(settings, helper)?;
        let mut policy = policy.clone();
        let c = &build.command;
        let name = &build.bots[0];
        sandbox.refuse_tournaments_in(name, &folder(build))?;
        policy.write.push(folder(build));
        // One bot: no other shares its folder, so nothing to compare.
        let launch = aboure_sandbox::Launch::default();
        sandbox.register_bot(
            name,
            (&program(build), &c.args),
            &c.workdir,
            &policy,
            &launch,
        )?;
        Ok(BuildCage {
            sandbox: Some(sandbox),
            bots: BTreeMap::from([(name.clone(), (policy, memory))]),
        })
    }

    /// The layers the builds' sandbox has, `None` outside it.
    pub fn layers(&self) -> Option<&Layers> {
        self.sandbox.as_ref().map(Sandbox::layers)
    }

    /// No sandbox: every build runs as the arbiter's user (a build of the
    /// sandbox mode "off").
    pub fn outside() -> BuildCage {
        BuildCage {
            sandbox: None,
            bots: BTreeMap::new(),
        }
    }

    /// The memory limit of `build`'s bot, where it is caged.
    pub fn memory(&self, build: &Build) -> Option<u64> {
        self.bots
            .get(&build.bots[0])
            .and_then(|(_, memory)| *memory)
    }

    /// Where `build` runs, and why.
    pub fn placement(&self, build: &Build) -> Placement {
        match (&self.sandbox, self.bots.contains_key(&build.bots[0])) {
            (None, _) => Placement::ModeOff,
            (Some(_), false) => Placement::BotUnsandboxed,
            (Some(_), true) => Placement::Caged,
        }
    }

    /// The cage `build` runs in, `None` outside the sandbox.
    pub fn jail(&self, build: &Build) -> Result<Option<Jail>, SandboxError> {
        let (Some(sandbox), Some((policy, memory))) =
            (&self.sandbox, self.bots.get(&build.bots[0]))
        else {
            return Ok(None);
        };
        let c = &build.command;
        let spec = BotSpec {
            name: &build.bots[0],
            program: &program(build),
            args: &c.args,
            workdir: &c.workdir,
            env: &c.env,
            policy,
            memory: *memory,
            cpu: None,
            build: true,
        };
        let jail = sandbox.prepare(&spec)?;
        sandbox.give_folder(&build.bots[0], &folder(build))?;
        Ok(Some(jail))
    }
}

/// The folder `build` writes: its working directory, the bot's.
fn folder(build: &Build) -> PathBuf {
    let dir = &build.command.workdir;
    std::path::absolute(dir).unwrap_or_else(|_| dir.clone())
}

/// The build's program: a path with a slash is relative to its folder.
pub(crate) fn program(build: &Build) -> PathBuf {
    let c = &build.command;
    match c.program.components().count() > 1 {
        true => c.workdir.join(&c.program),
        false => c.program.clone(),
    }
}

/// Refuses, before any build, two bots whose games would run one program
/// or script differently (the games' sandbox refuses them too, but only
/// after the builds: one shared by the two would have run as the first and
/// been handed its folder).
fn refuse_other_programs(
    sandbox: &Sandbox,
    config: &Config,
    helper: &Path,
) -> Result<(), SandboxError> {
    let lines: Vec<_> = config
        .bots()
        .iter()
        .map(|b| b.command_line(helper))
        .collect();
    let launches: Vec<_> = config.bots().iter().map(|b| b.launch()).collect();
    let games: Vec<Games> = (config.bots().iter().zip(&lines).zip(&launches))
        .map(|((bot, (program, args)), launch)| Games {
            name: bot.name(),
            program,
            args,
            workdir: bot.workdir(),
            policy: bot.sandbox(),
            launch,
        })
        .collect();
    sandbox.refuse_other_programs(&games)
}

/// Refuses `bot`, which shares a build with the build's first bot, when
/// the two differ in what can change the code that runs (see
/// `aboure_sandbox::Launch`): the build runs once, as the first bot and
/// with its `env` (a `BASH_ENV` would run its code in the other's folder,
/// which is handed to it), so they must be the same program.
fn refuse_another_launch(
    config: &Config,
    builds: &[Build],
    bot: &aboure_config::BotConfig,
) -> Result<(), SandboxError> {
    let first = builds
        .iter()
        .find(|b| b.bots[1..].iter().any(|n| n == bot.name()))
        .and_then(|b| config.bots().iter().find(|f| f.name() == b.bots[0]));
    let Some(first) = first else { return Ok(()) };
    let (a, b) = (first.launch(), bot.launch());
    let keys: Vec<&str> = [("env", a.env != b.env), ("wrapper", a.wrapper != b.wrapper)]
        .into_iter()
        .filter_map(|(key, differs)| differs.then_some(key))
        .collect();
    if keys.is_empty() {
        return Ok(());
    }
    Err(SandboxError::NotSameProgram {
        bot: bot.name().to_owned(),
        other: first.name().to_owned(),
        entry: bot.build().map(|c| c.workdir.clone()).unwrap_or_default(),
        keys: keys.join(", "),
    })
}
