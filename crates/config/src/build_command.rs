//! A bot's `build` command as validated: what the build step of the run
//! ([`crate::build`]) runs, and what the configuration says of a bot.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// A bot's build command, as validated.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BuildCommand {
    /// The program: a path with a slash relative to `workdir`, or a bare
    /// name looked up in `PATH`.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Where it runs: the bot's working directory.
    pub workdir: PathBuf,
    /// Variables added to the arbiter's environment: the bot's `env`, so
    /// that the build and the bot see the same.
    pub env: BTreeMap<String, String>,
}

impl BuildCommand {
    /// The command as a person would type it.
    pub fn command_line(&self) -> String {
        std::iter::once(self.program.display().to_string())
            .chain(self.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}
