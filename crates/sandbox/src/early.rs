//! Two bots that would run one program differently, refused before
//! anything of the run starts. A build runs before the games' sandbox
//! registers its bots, as the first bot of those that share it, and is
//! handed that bot's folder: so the comparison of [`crate::launch`] runs
//! over every bot's games before anything is built
//! ([`Sandbox::refuse_other_programs`]), not only when the games' sandbox
//! registers them.

use std::path::{Path, PathBuf};

use crate::error::SandboxError;
use crate::jail::Sandbox;
use crate::launch::{Launch, Started};
use crate::own::Command;
use crate::paths::normal;
use crate::settings::{Mode, Policy};

/// A bot's games as the sandbox will start them: its name, program and
/// arguments, working directory, allowances and [`Launch`].
#[derive(Clone, Copy, Debug)]
pub struct Games<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its program, as its command names it.
    pub program: &'a Path,
    /// Its arguments.
    pub args: &'a [String],
    /// Its working directory.
    pub workdir: &'a Path,
    /// Its allowances.
    pub policy: &'a Policy,
    /// Its `env`, `wrapper` and `build`.
    pub launch: &'a Launch,
}

impl Sandbox {
    /// Refuses two of `bots` that would share the folder of one program or
    /// script while differing in what decides which code runs, as
    /// [`Sandbox::register_bot`] does, but before anything of the run
    /// starts: a build shared by the two runs as the first of them, and
    /// its folder is handed to it, before the games' sandbox registers
    /// either.
    pub fn refuse_other_programs(&self, bots: &[Games<'_>]) -> Result<(), SandboxError> {
        // Without a sandbox every bot reads every folder anyway.
        if self.settings.mode == Mode::Off {
            return Ok(());
        }
        let registered: Vec<_> = bots.iter().map(|b| self.early(b)).collect();
        for (i, bot) in registered.iter().enumerate() {
            for other in &registered[..i] {
                if let Some(keys) = bot.not_the_same_program(other) {
                    return Err(SandboxError::NotSameProgram {
                        bot: bot.name.clone(),
                        other: other.name.clone(),
                        entry: bot.entry.clone().unwrap_or_default(),
                        keys: keys.join(", "),
                    });
                }
            }
        }
        Ok(())
    }

    /// What decides whether `bot` runs another's program: its entry, own
    /// folders, `write` paths and [`Started`] (the rest is left empty for
    /// [`Sandbox::register_bot`] to fill).
    pub(crate) fn early(&self, bot: &Games<'_>) -> crate::registered::RegisteredBot {
        let program = normal(&crate::own::resolve(bot.program));
        let workdir = normal(bot.workdir);
        let command = Command {
            program: &program,
            args: bot.args,
            workdir: &workdir,
            helper: &self.helper,
        };
        let write: Vec<PathBuf> = bot.policy.write.iter().map(|p| normal(p)).collect();
        let folders = crate::own::own_folders(&command, &[], &write).unwrap_or_default();
        let entry = crate::own::entry(&command);
        let started = Started::of(&command, entry.as_deref(), bot.launch);
        crate::registered::RegisteredBot {
            name: bot.name.to_owned(),
            files: Vec::new(),
            named: Vec::new(),
            folders,
            entry,
            started,
            read: Vec::new(),
            write,
        }
    }
}
