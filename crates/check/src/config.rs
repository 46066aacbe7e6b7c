//! What to check and how strictly: the bot's command, the limits the suite
//! applies, and which checks to run.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use aboure_process::{Launcher, Limits};

use crate::check::Check;

/// How long a bot may take for anything that has no clock of its own
/// (`aboureok`, `readyok`, `bestmove` after `stop` or for `go depth`, the
/// exit after `quit`), unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// A suite run: the bot to start and the limits to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckConfig {
    /// The program to run (looked up on `PATH` like a shell does).
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// The limit on answers without a clock of their own.
    pub timeout: Duration,
    /// The margin on answers with a clock (`movetime`, the clocks).
    pub margin: Duration,
    /// The checks to run, in this order.
    pub checks: Vec<Check>,
    /// Operating-system limits on the bot's process, as the arbiter's
    /// `memory-limit` and `cpu-limit` (none by default, as there).
    pub limits: Limits,
    /// How the bot is launched (`None`: as a plain child process).
    pub launcher: Option<SharedLauncher>,
    /// Environment variables the bot is given, as a tournament's `env`
    /// (in the sandbox, the only ones beyond `PATH`, `LANG`, `HOME` and
    /// `TMPDIR`).
    pub env: BTreeMap<String, String>,
}

/// A launcher (a sandbox, as in a tournament), compared by identity.
#[derive(Clone, Debug)]
pub struct SharedLauncher(pub Arc<dyn Launcher>);

impl PartialEq for SharedLauncher {
    fn eq(&self, other: &SharedLauncher) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for SharedLauncher {}

/// A command line that does not name a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptyCommand;

impl fmt::Display for EmptyCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no bot command given (expected `-- COMMAND [ARGS...]`)")
    }
}

impl std::error::Error for EmptyCommand {}

impl CheckConfig {
    /// Every check with the default limits, for the bot started by
    /// `command` (the program, then its arguments), its timed answers
    /// allowed to overrun their limit by `margin` (a tournament's
    /// `time-control.margin`, whose default the arbiter's config owns).
    pub fn new<I, S>(command: I, margin: Duration) -> Result<CheckConfig, EmptyCommand>
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        let mut command = command.into_iter().map(Into::into);
        let program = command.next().ok_or(EmptyCommand)?;
        if program.is_empty() {
            return Err(EmptyCommand);
        }
        Ok(CheckConfig {
            program,
            args: command.collect(),
            timeout: DEFAULT_TIMEOUT,
            margin,
            checks: Check::ALL.to_vec(),
            limits: Limits::default(),
            launcher: None,
            env: BTreeMap::new(),
        })
    }

    /// The command as a person would type it, for messages.
    pub fn command_line(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MARGIN: Duration = Duration::from_millis(50);

    #[test]
    fn the_first_word_is_the_program() {
        let c = CheckConfig::new(["python3", "bot.py", "--fast"], MARGIN).unwrap();
        assert_eq!(c.program, "python3");
        assert_eq!(c.args, ["bot.py", "--fast"]);
        assert_eq!(c.command_line(), "python3 bot.py --fast");
        assert_eq!(c.checks, Check::ALL);
    }

    #[test]
    fn an_empty_command_is_refused() {
        assert_eq!(
            CheckConfig::new(Vec::<String>::new(), MARGIN),
            Err(EmptyCommand)
        );
        assert_eq!(CheckConfig::new([""], MARGIN), Err(EmptyCommand));
    }
}
