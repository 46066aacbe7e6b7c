//! A `[[bot]]` table: its name (used in file names, so checked), how it is
//! run, its folder, environment, options, time control and limits.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use aboure_process::Limits;
use serde::Deserialize;
use toml::Spanned;

use super::sandbox_table::RawPolicy;
use super::time_control_table::{RawTimeControl, TimeControls};
use super::BuildCommand;
use super::{Validator, BUILTIN_BOTS};
use crate::error::ConfigError;
use crate::time_control::TimeControl;

/// One bot of the tournament, as validated.
#[derive(Clone, Debug, PartialEq)]
pub struct BotConfig {
    name: String,
    run: BotCommand,
    workdir: PathBuf,
    env: BTreeMap<String, String>,
    options: BTreeMap<String, String>,
    time_control: TimeControl,
    limits: Limits,
    sandbox: aboure_sandbox::Policy,
    wrapper: Vec<String>,
    ponder: bool,
    build: Option<BuildCommand>,
    retired: bool,
}

impl BotConfig {
    /// Unique name, safe as a file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How to run it.
    pub fn run(&self) -> &BotCommand {
        &self.run
    }

    /// Working directory.
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// Extra environment variables.
    pub fn env(&self) -> &BTreeMap<String, String> {
        &self.env
    }

    /// Options sent with `setoption`, in name order.
    pub fn options(&self) -> &BTreeMap<String, String> {
        &self.options
    }

    /// The bot's time control.
    pub fn time_control(&self) -> TimeControl {
        self.time_control
    }

    /// Operating-system limits on its process (`memory-limit`, `cpu-limit`).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Its sandbox allowances (`sandbox = { ... }`) over the `[sandbox]` table's.
    pub fn sandbox(&self) -> &aboure_sandbox::Policy {
        &self.sandbox
    }

    /// A command its own command is appended to (`wrapper = [...]`).
    pub fn wrapper(&self) -> &[String] {
        &self.wrapper
    }

    /// The program and arguments that start it (a built-in bot is
    /// `aboure bot NAME`, with `aboure` the binary at `aboure`): a relative
    /// program with a slash is relative to the working directory (std
    /// leaves that case unspecified), a bare name is looked up in `PATH`;
    /// a `wrapper` comes first.
    pub fn command_line(&self, aboure: &Path) -> (PathBuf, Vec<String>) {
        let (program, args) = match &self.run {
            BotCommand::Builtin(name) => (aboure.to_owned(), vec!["bot".to_owned(), name.clone()]),
            BotCommand::Command(c) if c[0].contains('/') => {
                (self.workdir.join(&c[0]), c[1..].to_vec())
            }
            BotCommand::Command(c) => (PathBuf::from(&c[0]), c[1..].to_vec()),
        };
        match self.wrapper.split_first() {
            None => (program, args),
            Some((wrapper, wrapper_args)) => {
                let mut all = wrapper_args.to_vec();
                all.push(program.display().to_string());
                all.extend(args);
                (PathBuf::from(wrapper), all)
            }
        }
    }

    /// Its build step (`build = [...]`), run before the tournament.
    pub fn build(&self) -> Option<&BuildCommand> {
        self.build.as_ref()
    }

    /// True for a league entrant marked `retired = true`: its games and
    /// rating stay, and it is scheduled no more.
    pub fn retired(&self) -> bool {
        self.retired
    }

    /// The same bot under another name, with `options` set over its own
    /// (the points a tune scores are the tuned bot with other values).
    pub fn renamed_with(&self, name: String, options: BTreeMap<String, String>) -> BotConfig {
        let mut bot = self.clone();
        bot.name = name;
        bot.options.extend(options);
        bot
    }

    /// What its table adds to its command that can change which code
    /// runs (its `env`, `wrapper` and `build`): the sandbox lets two bots
    /// share a program's folder only when these are the same.
    pub fn launch(&self) -> aboure_sandbox::Launch {
        aboure_sandbox::Launch {
            env: self.env.clone(),
            wrapper: self.wrapper.clone(),
            build: self.build.as_ref().map(|b| {
                let program = b.program.display().to_string();
                let workdir = b.workdir.display().to_string();
                std::iter::once(program)
                    .chain(b.args.iter().cloned())
                    .chain([workdir])
                    .collect()
            }),
        }
    }

    /// True if it may run while its opponent thinks (`ponder = true`);
    /// otherwise it is held still then.
    pub fn ponder(&self) -> bool {
        self.ponder
    }
}

/// How a bot is started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotCommand {
    /// `aboure bot NAME`.
    Builtin(String),
    /// Any program and its arguments.
    Command(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawBot {
    pub(super) name: Spanned<String>,
    builtin: Option<Spanned<String>>,
    command: Option<Spanned<Vec<String>>>,
    workdir: Option<Spanned<String>>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    options: BTreeMap<String, Spanned<toml::Value>>,
    time_control: Option<Spanned<RawTimeControl>>,
    memory_limit: Option<Spanned<String>>,
    cpu_limit: Option<Spanned<String>>,
    sandbox: Option<Spanned<RawPolicy>>,
    wrapper: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    ponder: bool,
    build: Option<Spanned<Vec<String>>>,
    pub(super) retired: Option<Spanned<bool>>,
}

/// What every bot's table is read against: the tournament's time controls
/// and the validated `[sandbox]` table.
pub(super) struct BotContext<'a> {
    pub(super) time_controls: TimeControls<'a>,
    /// `[time-control]` over the base layer, validated: a bot's without a
    /// table of its own.
    pub(super) default_tc: TimeControl,
    pub(super) sandbox: &'a aboure_sandbox::Settings,
}

impl Validator<'_> {
    pub(super) fn check_name(&self, name: &Spanned<String>, key: &str) -> Result<(), ConfigError> {
        let n = name.get_ref();
        let bad = if n.is_empty() {
            Some("is empty")
        } else if n.len() > 64 {
            Some("is longer than 64 bytes")
        } else if n.contains(['/', '\\']) {
            Some("contains a slash")
        } else if n.contains("..") || n.starts_with('.') {
            Some("starts with a dot or contains \"..\"")
        } else if n.chars().any(|c| c.is_control()) {
            Some("contains a control character")
        } else if n.chars().any(char::is_whitespace) {
            Some("contains white space")
        } else {
            None
        };
        match bad {
            Some(why) => Err(self.at(
                name.span(),
                key,
                format!("bot name {n:?} {why}; names are used in file names"),
            )),
            None => Ok(()),
        }
    }

    /// One `[[bot]]` table (`key` is `bot[N]`): each element by its own
    /// validator, in the order their errors are reported.
    pub(super) fn bot(
        &self,
        key: &str,
        table: &Spanned<RawBot>,
        context: &BotContext,
    ) -> Result<BotConfig, ConfigError> {
        let bot = table.get_ref();
        let run = self.bot_command(key, table)?;
        let workdir = self.workdir(bot.workdir.as_ref());
        let options = self.options(key, &bot.options)?;
        self.env(key, table.span(), &bot.env)?;
        let time_control = match &bot.time_control {
            Some(tc) => self.time_control(
                &context.time_controls.of_bot(tc.get_ref()),
                &format!("{key}.time-control"),
            )?,
            None => context.default_tc,
        };
        let limits = self.limits(key, bot)?;
        let sandbox = self.bot_policy(
            context.sandbox.defaults(),
            bot.sandbox.as_ref(),
            &format!("{key}.sandbox"),
        )?;
        let wrapper = self.wrapper(bot.wrapper.as_ref(), &format!("{key}.wrapper"))?;
        let build = match &bot.build {
            Some(b) => Some(self.build(b, &format!("{key}.build"), &workdir, &bot.env)?),
            None => None,
        };
        let config = BotConfig {
            name: bot.name.get_ref().clone(),
            run,
            workdir,
            env: bot.env.clone(),
            options,
            time_control,
            limits,
            sandbox,
            wrapper,
            ponder: bot.ponder,
            build,
            retired: bot.retired.as_ref().is_some_and(|r| *r.get_ref()),
        };
        if context.sandbox.mode() != aboure_sandbox::Mode::Off && !config.sandbox.disabled {
            if let Some(command) = &bot.command {
                self.own_folders(&config, command, key)?;
            }
        }
        Ok(config)
    }

    /// How the bot is run: exactly one of `builtin` (a known name) and
    /// `command` (a program, then its arguments).
    fn bot_command(&self, key: &str, table: &Spanned<RawBot>) -> Result<BotCommand, ConfigError> {
        let bot = table.get_ref();
        let name = bot.name.get_ref();
        match (&bot.builtin, &bot.command) {
            (Some(_), Some(c)) => Err(self.at(
                c.span(),
                key,
                format!("bot {name:?} has both builtin and command: give exactly one"),
            )),
            (None, None) => Err(self.at(
                table.span(),
                key,
                format!(
                    "bot {name:?} needs either builtin = \"NAME\" or command = [\"PROGRAM\", ...]"
                ),
            )),
            (Some(b), None) if !BUILTIN_BOTS.contains(&b.get_ref().as_str()) => Err(self.at(
                b.span(),
                &format!("{key}.builtin"),
                format!(
                    "{:?} is not a built-in bot (known: {})",
                    b.get_ref(),
                    BUILTIN_BOTS.join(", ")
                ),
            )),
            (Some(b), None) => Ok(BotCommand::Builtin(b.get_ref().clone())),
            (None, Some(c)) if c.get_ref().first().is_none_or(|p| p.trim().is_empty()) => Err(self
                .at(
                    c.span(),
                    &format!("{key}.command"),
                    "the command is empty: give at least the program",
                )),
            (None, Some(c)) => Ok(BotCommand::Command(c.get_ref().clone())),
        }
    }

    /// The bot's working directory: `workdir`, relative to the tournament
    /// file's folder, or that folder.
    fn workdir(&self, workdir: Option<&Spanned<String>>) -> PathBuf {
        let base_dir = self.dir();
        let workdir = match workdir {
            Some(w) => base_dir.join(w.get_ref()),
            None => base_dir.to_owned(),
        };
        // A `..` is resolved once, here: it would otherwise be walked again
        // inside the sandbox, whose root holds only the bot's own folders
        // (`configs/..` does not exist there). A folder that does not exist
        // yet is kept as written; starting the bot says so.
        let climbs = workdir
            .components()
            .any(|c| c == std::path::Component::ParentDir);
        match climbs {
            true => std::fs::canonicalize(&workdir).unwrap_or(workdir),
            false => workdir,
        }
    }

    /// `options = { Name = value }`: names of letters, digits, `-` and
    /// `_`; values a string, number or boolean on one line, as text.
    fn options(
        &self,
        key: &str,
        raw: &BTreeMap<String, Spanned<toml::Value>>,
    ) -> Result<BTreeMap<String, String>, ConfigError> {
        let mut options = BTreeMap::new();
        for (opt, value) in raw {
            let okey = format!("{key}.options.{opt}");
            let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
            if opt.is_empty() || !opt.chars().all(word) {
                return Err(self.at(
                    value.span(),
                    &okey,
                    format!("option name {opt:?} must be letters, digits, '-' or '_'"),
                ));
            }
            let text = match value.get_ref() {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(n) => n.to_string(),
                toml::Value::Float(x) => x.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                _ => {
                    return Err(self.at(
                        value.span(),
                        &okey,
                        "an option value must be a string, number or boolean",
                    ))
                }
            };
            if text.contains(['\n', '\r']) {
                return Err(self.at(value.span(), &okey, "an option value cannot hold a newline"));
            }
            options.insert(opt.clone(), text);
        }
        Ok(options)
    }

    /// `env = { KEY = "VALUE" }`: names a process environment accepts.
    fn env(
        &self,
        key: &str,
        span: std::ops::Range<usize>,
        env: &BTreeMap<String, String>,
    ) -> Result<(), ConfigError> {
        match env
            .iter()
            .find(|(k, v)| k.is_empty() || k.contains(['=', '\0']) || v.contains('\0'))
        {
            Some((k, _)) => Err(self.at(
                span,
                &format!("{key}.env"),
                format!("environment variable {k:?} is not valid"),
            )),
            None => Ok(()),
        }
    }

    /// `memory-limit` and `cpu-limit`, read by the process crate's parsers
    /// (the ones `aboure check-bot` uses, with the same bounds).
    fn limits(&self, key: &str, bot: &RawBot) -> Result<Limits, ConfigError> {
        let memory = match &bot.memory_limit {
            Some(m) => Some(
                aboure_process::parse_memory_limit(m.get_ref()).map_err(|e| {
                    self.at(m.span(), &format!("{key}.memory-limit"), e.to_string())
                })?,
            ),
            None => None,
        };
        let cpu = match &bot.cpu_limit {
            Some(c) => Some(
                aboure_process::parse_cpu_limit(c.get_ref())
                    .map_err(|e| self.at(c.span(), &format!("{key}.cpu-limit"), e.to_string()))?,
            ),
            None => None,
        };
        Ok(Limits { memory, cpu })
    }

    /// A `build = ["PROGRAM", "ARG"...]`: run in the bot's working
    /// directory, its program found as the bot's is.
    fn build(
        &self,
        build: &Spanned<Vec<String>>,
        key: &str,
        workdir: &Path,
        env: &BTreeMap<String, String>,
    ) -> Result<BuildCommand, ConfigError> {
        let words = build.get_ref();
        let Some((program, args)) = words.split_first().filter(|(p, _)| !p.trim().is_empty())
        else {
            return Err(self.at(
                build.span(),
                key,
                "the build command is empty: give at least its program, or leave it out",
            ));
        };
        if words.iter().any(|w| w.contains('\0')) {
            return Err(self.at(build.span(), key, "a build argument holds a NUL byte"));
        }
        Ok(BuildCommand {
            program: PathBuf::from(program),
            args: args.to_vec(),
            workdir: workdir.to_owned(),
            env: env.clone(),
        })
    }

    /// Refuses a bot whose own folder, the one the sandbox opens for its
    /// program or script, is too shared to open (a home directory, `/`).
    fn own_folders(
        &self,
        bot: &BotConfig,
        command: &Spanned<Vec<String>>,
        key: &str,
    ) -> Result<(), ConfigError> {
        let (program, args) = bot.command_line(Path::new("aboure"));
        let workdir = std::path::absolute(&bot.workdir).unwrap_or_else(|_| bot.workdir.clone());
        let own_path = bot.env.get("PATH").map(std::ffi::OsStr::new);
        let program = aboure_sandbox::resolve_in(&program, own_path);
        let helper = std::env::current_exe().unwrap_or_default();
        let command_of = aboure_sandbox::Command {
            program: &program,
            args: &args,
            workdir: &workdir,
            helper: &helper,
        };
        match aboure_sandbox::own_folders(&command_of, &bot.sandbox.read, &bot.sandbox.write) {
            Ok(_) => Ok(()),
            Err(refusal) => Err(self.at(
                command.span(),
                &format!("{key}.command"),
                format!(
                    "bot {:?} (command: {}): {refusal}",
                    bot.name,
                    command.get_ref().join(" ")
                ),
            )),
        }
    }
}
