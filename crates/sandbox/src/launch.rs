//! What decides which code a bot runs, besides its program and script.
//! Two bots that run one program or script share its folder (one engine
//! at two settings, the two options of an SPRT). But the same script is
//! not the same code: `env` alone can load a stranger's code into it
//! (`PYTHONPATH` to a `sitecustomize.py`, `LD_PRELOAD`, `LD_AUDIT`,
//! `PYTHONWARNINGS` naming a module that runs `BROWSER`), and so can an
//! interpreter's options (`-W`, `-X`), a `wrapper`, a `build` (which runs
//! once, as the first bot, with its `env`) or a working directory (a
//! shell script sources `./lib.sh`). A list of dangerous variables is
//! never complete, so two bots share a folder only when all of these are
//! the same; arguments after the script, `options` and time controls may
//! differ.
//!
//! The same comparison runs over every bot before anything is built
//! (`early`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::argument::named;
use crate::own::Command;

/// What a bot's `[[bot]]` table adds to its command that can change
/// which code runs: its `env`, `wrapper` and `build` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Launch {
    /// Its `env`.
    pub env: BTreeMap<String, String>,
    /// Its `wrapper`.
    pub wrapper: Vec<String>,
    /// Its `build`: program, arguments and working directory.
    pub build: Option<Vec<String>>,
}

/// Everything that decides which code a registered bot runs, besides its
/// script or program: its [`Launch`], its working directory, and its
/// program with the arguments before its script (an interpreter's options).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Started {
    pub(crate) launch: Launch,
    pub(crate) workdir: PathBuf,
    pub(crate) before: Vec<String>,
}

impl Started {
    /// What `command`, whose own folders come from `entry`, and `launch`
    /// start.
    pub(crate) fn of(command: &Command, entry: Option<&Path>, launch: &Launch) -> Started {
        let mut before = vec![command.program.display().to_string()];
        if entry.is_some_and(|e| e != command.program) {
            let args = command.path_args();
            let script = |a: &String| !named(a, command.workdir).is_empty();
            let at = args.iter().position(script).unwrap_or(args.len());
            before.extend(args[..at].iter().cloned());
        }
        Started {
            launch: launch.clone(),
            workdir: command.workdir.to_owned(),
            before,
        }
    }

    /// The keys of the bot's table in which `self` and `other` differ.
    pub(crate) fn differences(&self, other: &Started) -> Vec<&'static str> {
        let (a, b) = (&self.launch, &other.launch);
        [
            ("env", a.env != b.env),
            ("wrapper", a.wrapper != b.wrapper),
            ("build", a.build != b.build),
            ("workdir", self.workdir != other.workdir),
            ("command before the script", self.before != other.before),
        ]
        .into_iter()
        .filter_map(|(key, differs)| differs.then_some(key))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_options_before_the_script_and_workdir_differ_arguments_after_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("bot.py"), "").unwrap();
        let started = |args: &[&str], env: &[(&str, &str)], workdir: &Path| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            let command = Command {
                program: Path::new("/usr/bin/python3"),
                args: &args,
                workdir,
                helper: Path::new("/opt/aboure/aboure"),
            };
            let env = env.iter().map(|(k, v)| (k.to_string(), v.to_string()));
            let launch = Launch {
                env: env.collect(),
                ..Launch::default()
            };
            Started::of(&command, Some(&d.join("bot.py")), &launch)
        };
        let plain = started(&["-u", "bot.py", "--depth", "3"], &[], d);
        assert_eq!(plain.before, ["/usr/bin/python3", "-u"]);
        let deeper = started(&["-u", "bot.py", "--depth", "9"], &[], d);
        assert!(plain.differences(&deeper).is_empty());
        let warned = started(&["-W", "ignore::antigravity.X", "bot.py"], &[], d);
        assert_eq!(plain.differences(&warned), ["command before the script"]);
        let env = started(&["-u", "bot.py"], &[("PYTHONPATH", "/x")], d);
        assert_eq!(plain.differences(&env), ["env"]);
        let elsewhere = started(&["-u", "bot.py"], &[], Path::new("/"));
        assert!(plain.differences(&elsewhere).contains(&"workdir"));
    }
}
