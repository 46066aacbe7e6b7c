//! Each bot's program found before the first game: a program that is not
//! there would only forfeit every game, each with the same spawn error, so
//! a run stops first, naming the bot and where the program was looked for.
//!
//! The lookup is the sandbox's own ([`aboure_sandbox::resolve`]: a bare
//! name in the arbiter's `PATH`, a path as written), so a program this
//! check finds is the one the bot is started with. It runs after the build
//! steps, which may be what makes the program.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::config::{BotCommand, Config};

/// A bot whose program is not there.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum MissingProgram {
    /// A path (with a slash) that is not a file.
    #[error("bot {bot:?}: its program {} does not exist (or is not a file)", program.display())]
    NoSuchFile {
        /// The bot.
        bot: String,
        /// The program, as it would be started.
        program: PathBuf,
    },
    /// A bare name in no folder of `PATH`.
    #[error("bot {bot:?}: its program {program:?} is not in any folder of PATH ({})", path.to_string_lossy())]
    NotOnPath {
        /// The bot.
        bot: String,
        /// The bare name.
        program: String,
        /// The `PATH` searched.
        path: OsString,
    },
}

/// Checks that the program of every bot still scheduled (built-in bots
/// are `aboure_exe` itself) can be found, in bot order.
pub fn check(config: &Config, aboure_exe: &Path) -> Result<(), MissingProgram> {
    let bots = config.bots().iter().filter(|b| !b.retired());
    for bot in bots.filter(|b| matches!(b.run(), BotCommand::Command(_)) || !b.wrapper().is_empty())
    {
        let (program, _) = bot.command_line(aboure_exe);
        let found = aboure_sandbox::resolve(&program);
        if found.is_file() {
            continue;
        }
        let bare = program.components().count() == 1;
        return Err(if bare {
            MissingProgram::NotOnPath {
                bot: bot.name().to_owned(),
                program: program.display().to_string(),
                path: std::env::var_os("PATH").unwrap_or_default(),
            }
        } else {
            MissingProgram::NoSuchFile {
                bot: bot.name().to_owned(),
                program,
            }
        });
    }
    Ok(())
}
