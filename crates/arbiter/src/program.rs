//! Each bot's program found before the first game: a program that is not
//! there would only forfeit every game, each with the same spawn error, so
//! a run stops first, naming the bot and where the program was looked for.
//!
//! The lookup is the sandbox's own ([`aboure_sandbox::resolve_in`]: a bare
//! name in the bot's `env` `PATH` if it sets one, else the arbiter's, a
//! path as written), so a program this
//! check finds is the one the bot is started with. It runs after the build
//! steps, which may be what makes the program.

use std::ffi::{OsStr, OsString};
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
/// are `aboure_exe` itself) can be found, in bot order; a bot's `env`
/// `PATH`, if it sets one, is where its bare program name is looked for.
pub fn check(config: &Config, aboure_exe: &Path) -> Result<(), MissingProgram> {
    let bots = config.bots().iter().filter(|b| !b.retired());
    for bot in bots.filter(|b| matches!(b.run(), BotCommand::Command(_)) || !b.wrapper().is_empty())
    {
        let (program, _) = bot.command_line(aboure_exe);
        let path = bot.env().get("PATH").map(OsStr::new);
        find(bot.name(), &program, path)?;
    }
    Ok(())
}

/// Finds `program`, the program of `bot`, as the sandbox will
/// ([`aboure_sandbox::resolve_in`]): a bare name in `path` (the arbiter's
/// `PATH` if `None`), a path as written (relative to the current folder).
pub fn find(bot: &str, program: &Path, path: Option<&OsStr>) -> Result<PathBuf, MissingProgram> {
    let found = aboure_sandbox::resolve_in(program, path);
    if found.is_file() {
        return Ok(found);
    }
    let bare = program.components().count() == 1;
    Err(if bare {
        MissingProgram::NotOnPath {
            bot: bot.to_owned(),
            program: program.display().to_string(),
            path: (path.map(ToOwned::to_owned))
                .or_else(|| std::env::var_os("PATH"))
                .unwrap_or_default(),
        }
    } else {
        MissingProgram::NoSuchFile {
            bot: bot.to_owned(),
            program: program.to_owned(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_name_is_looked_for_in_the_path_given_and_a_miss_names_it() {
        let dir = std::env::temp_dir().join(format!("aboure-program-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("my-engine"), "#!/bin/sh\n").unwrap();
        let own = dir.as_os_str();
        assert_eq!(
            find("b", Path::new("my-engine"), Some(own)),
            Ok(dir.join("my-engine"))
        );
        assert_eq!(
            find(
                "b",
                Path::new("my-engine"),
                Some(OsStr::new("/nonexistent"))
            ),
            Err(MissingProgram::NotOnPath {
                bot: "b".into(),
                program: "my-engine".into(),
                path: "/nonexistent".into(),
            })
        );
        let missing = dir.join("gone");
        assert_eq!(
            find("b", &missing, Some(own)),
            Err(MissingProgram::NoSuchFile {
                bot: "b".into(),
                program: missing,
            })
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
