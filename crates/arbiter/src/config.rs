//! The tournament file: TOML read with serde, then validated into a
//! [`Config`] whose invariants hold (two or more bots with unique, file-safe
//! names, positive times, sane ranges). Values are kept with their spans
//! until validated, so every error names the file, line and key.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::adjudication::Adjudication;
use crate::clock::{Limit, TimeControl};
use crate::error::ConfigError;
use crate::opening::{parse_opening_file, OpeningSource};
use aboure_process::{parse_size, Limits};

/// The built-in reference bots, run as `aboure bot NAME`.
pub const BUILTIN_BOTS: &[&str] = &["random", "greedy", "alphabeta", "mcts", "perfect"];

/// The longest duration a tournament file may give (any longer is a typo,
/// and would overflow clock arithmetic near `u64::MAX` seconds).
pub const MAX_DURATION: Duration = Duration::from_secs(7 * 24 * 3600);

/// A validated tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The file it was read from.
    pub path: PathBuf,
    /// Who plays whom.
    pub format: Format,
    /// Game pairs per pairing (the maximum, for SPRT).
    pub pairs: u32,
    /// Games played at once, if the file says.
    pub concurrency: Option<usize>,
    /// Seed of the openings.
    pub seed: u64,
    /// When bot processes are restarted.
    pub restart: Restart,
    /// Limit on the handshake and on each `isready`.
    pub startup_timeout: Duration,
    /// Where openings come from.
    pub openings: OpeningSource,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// SPRT parameters (for `format = "sprt"`).
    pub sprt: SprtConfig,
    /// The bots, in file order.
    pub bots: Vec<BotConfig>,
    /// The `[sandbox]` table.
    pub sandbox: aboure_sandbox::Settings,
}

/// Who plays whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair of bots.
    RoundRobin,
    /// One bot (an index into `bots`) against each other bot.
    Gauntlet(usize),
    /// Two bots until the SPRT decides.
    Sprt,
}

/// When bot processes are restarted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restart {
    /// A fresh process for every game.
    PerGame,
    /// Reuse processes across games; restart only after a failure.
    Never,
}

/// The hypotheses and error rates of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SprtConfig {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// `normalized` or `logistic` Elo.
    pub model: SprtModel,
}

/// Which Elo the SPRT bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtModel {
    /// Normalized Elo (fishtest's default).
    Normalized,
    /// Classic logistic Elo.
    Logistic,
}

/// One bot of the tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct BotConfig {
    /// Unique name, safe as a file name.
    pub name: String,
    /// How to run it.
    pub run: BotCommand,
    /// Working directory.
    pub workdir: PathBuf,
    /// Extra environment variables.
    pub env: BTreeMap<String, String>,
    /// Options sent with `setoption`, in name order.
    pub options: BTreeMap<String, String>,
    /// The bot's time control.
    pub time_control: TimeControl,
    /// Operating-system limits on its process (`memory-limit`, `cpu-limit`).
    pub limits: Limits,
    /// Its sandbox allowances (`sandbox = { ... }`) over the `[sandbox]` table's.
    pub sandbox: aboure_sandbox::Policy,
    /// A command its own command is appended to (`wrapper = [...]`).
    pub wrapper: Vec<String>,
}

/// How a bot is started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotCommand {
    /// `aboure bot NAME`.
    Builtin(String),
    /// Any program and its arguments.
    Command(Vec<String>),
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    #[serde(default)]
    tournament: RawTournament,
    #[serde(default)]
    openings: RawOpenings,
    #[serde(default)]
    time_control: RawTimeControl,
    #[serde(default)]
    adjudication: RawAdjudication,
    #[serde(default)]
    sprt: RawSprt,
    #[serde(default)]
    bot: Vec<Spanned<RawBot>>,
    #[serde(default)]
    sandbox: aboure_sandbox::settings::RawSettings,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTournament {
    format: Option<Spanned<String>>,
    gauntlet_bot: Option<Spanned<String>>,
    pairs: Option<Spanned<i64>>,
    concurrency: Option<Spanned<i64>>,
    seed: Option<Spanned<i64>>,
    restart: Option<Spanned<String>>,
    startup_timeout: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOpenings {
    plies: Option<Spanned<i64>>,
    file: Option<Spanned<String>>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTimeControl {
    base: Option<Spanned<String>>,
    increment: Option<Spanned<String>>,
    movetime: Option<Spanned<String>>,
    depth: Option<Spanned<i64>>,
    nodes: Option<Spanned<i64>>,
    timeout: Option<Spanned<String>>,
    margin: Option<Spanned<String>>,
}

/// Which kind of limit a time-control table sets, if any: a clock (`base`,
/// `increment`), `movetime`, `depth` or `nodes`.
fn limit_kind(tc: &RawTimeControl) -> Option<&'static str> {
    if tc.movetime.is_some() {
        Some("movetime")
    } else if tc.depth.is_some() {
        Some("depth")
    } else if tc.nodes.is_some() {
        Some("nodes")
    } else if tc.base.is_some() || tc.increment.is_some() {
        Some("clock")
    } else {
        None
    }
}

/// A bot's `[bot.time-control]` over the tournament's `[time-control]`: each
/// key the bot's table gives replaces the tournament's; a different kind of
/// limit (say `movetime` where the tournament has a clock) drops the
/// tournament's limit keys, so `margin = "200ms"` alone keeps the clock and
/// only widens the margin.
fn overlay(global: &RawTimeControl, bot: &RawTimeControl) -> RawTimeControl {
    let mut merged = global.clone();
    if let Some(kind) = limit_kind(bot) {
        // A tournament table without a limit has the default clock.
        if limit_kind(global).unwrap_or("clock") != kind {
            merged = RawTimeControl {
                margin: global.margin.clone(),
                ..RawTimeControl::default()
            };
        }
    }
    let take = |mine: &Option<Spanned<String>>, theirs: &Option<Spanned<String>>| {
        mine.clone().or_else(|| theirs.clone())
    };
    RawTimeControl {
        base: take(&bot.base, &merged.base),
        increment: take(&bot.increment, &merged.increment),
        movetime: take(&bot.movetime, &merged.movetime),
        depth: bot.depth.clone().or(merged.depth),
        nodes: bot.nodes.clone().or(merged.nodes),
        timeout: take(&bot.timeout, &merged.timeout),
        margin: take(&bot.margin, &merged.margin),
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawAdjudication {
    max_plies: Option<Spanned<i64>>,
    repetitions: Option<Spanned<i64>>,
    solve_after: Option<Spanned<i64>>,
    solve_nodes: Option<Spanned<i64>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSprt {
    elo0: Option<Spanned<f64>>,
    elo1: Option<Spanned<f64>>,
    alpha: Option<Spanned<f64>>,
    beta: Option<Spanned<f64>>,
    model: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBot {
    name: Spanned<String>,
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
    sandbox: Option<Spanned<aboure_sandbox::settings::RawPolicy>>,
    wrapper: Option<Spanned<Vec<String>>>,
}

/// Reads and validates the tournament file at `path`.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|err| ConfigError {
        path: path.to_owned(),
        line: 0,
        column: 0,
        key: String::new(),
        message: format!("cannot read the file: {err}"),
    })?;
    parse(&text, path)
}

/// Validates the text of a tournament file; `path` locates relative paths
/// and names the file in errors.
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    let v = Validator { text, path };
    let raw: RawConfig = toml::from_str(text).map_err(|err| {
        let (line, column) = err.span().map_or((0, 0), |s| v.line_col(s.start));
        ConfigError {
            path: path.to_owned(),
            line,
            column,
            key: String::new(),
            message: toml_message(&err),
        }
    })?;
    v.config(raw)
}

/// The message of a TOML syntax error; some (a lone carriage return) come
/// with none of their own.
fn toml_message(err: &toml::de::Error) -> String {
    let message = err.message().trim();
    if message.is_empty() {
        "invalid TOML here (a stray character, such as a carriage return without a newline?)"
            .to_owned()
    } else {
        message.to_owned()
    }
}

struct Validator<'a> {
    text: &'a str,
    path: &'a Path,
}

impl Validator<'_> {
    /// The folder of the tournament file (`.` for a bare file name).
    fn dir(&self) -> &Path {
        match self.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        }
    }

    fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text.as_bytes()[..offset.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        (line, column)
    }

    fn at(
        &self,
        span: std::ops::Range<usize>,
        key: &str,
        message: impl Into<String>,
    ) -> ConfigError {
        let (line, column) = self.line_col(span.start);
        ConfigError {
            path: self.path.to_owned(),
            line,
            column,
            key: key.to_owned(),
            message: message.into(),
        }
    }

    fn whole(&self, key: &str, message: impl Into<String>) -> ConfigError {
        ConfigError {
            path: self.path.to_owned(),
            line: 0,
            column: 0,
            key: key.to_owned(),
            message: message.into(),
        }
    }

    fn duration(&self, value: &Spanned<String>, key: &str) -> Result<Duration, ConfigError> {
        let d = humantime::parse_duration(value.get_ref().trim()).map_err(|e| {
            self.at(
                value.span(),
                key,
                format!(
                    "{:?} is not a duration like \"2s\" or \"50ms\": {e}",
                    value.get_ref()
                ),
            )
        })?;
        if d > MAX_DURATION {
            return Err(self.at(
                value.span(),
                key,
                format!("{:?} is too long: at most 7 days", value.get_ref()),
            ));
        }
        Ok(d)
    }

    fn positive_duration(
        &self,
        value: &Spanned<String>,
        key: &str,
    ) -> Result<Duration, ConfigError> {
        let d = self.duration(value, key)?;
        if d.is_zero() {
            return Err(self.at(value.span(), key, "must be positive"));
        }
        Ok(d)
    }

    fn range(
        &self,
        value: &Spanned<i64>,
        key: &str,
        min: i64,
        max: i64,
    ) -> Result<i64, ConfigError> {
        let n = *value.get_ref();
        if n < min || n > max {
            return Err(self.at(
                value.span(),
                key,
                format!("{n} is out of range: must be between {min} and {max}"),
            ));
        }
        Ok(n)
    }

    fn config(&self, raw: RawConfig) -> Result<Config, ConfigError> {
        let t = &raw.tournament;
        let pairs = match &t.pairs {
            Some(p) => self.range(p, "tournament.pairs", 1, 1_000_000)? as u32,
            None => 10,
        };
        let concurrency = match &t.concurrency {
            Some(c) => Some(self.range(c, "tournament.concurrency", 1, 1024)? as usize),
            None => None,
        };
        let seed = match &t.seed {
            Some(s) => self.range(s, "tournament.seed", 0, i64::MAX)? as u64,
            None => 1,
        };
        let restart = match &t.restart {
            None => Restart::PerGame,
            Some(r) => match r.get_ref().as_str() {
                "per-game" => Restart::PerGame,
                "never" => Restart::Never,
                other => {
                    return Err(self.at(
                        r.span(),
                        "tournament.restart",
                        format!("{other:?} is not \"per-game\" or \"never\""),
                    ))
                }
            },
        };
        let startup_timeout = match &t.startup_timeout {
            Some(d) => self.positive_duration(d, "tournament.startup-timeout")?,
            None => Duration::from_secs(10),
        };
        let openings = self.openings(&raw.openings)?;
        let adjudication = self.adjudication(&raw.adjudication)?;
        let sprt = self.sprt(&raw.sprt)?;
        let default_tc = self.time_control(&raw.time_control, "time-control")?;
        let base_dir = self.dir().to_owned();
        let sandbox = (raw.sandbox)
            .validate(&base_dir, parse_size)
            .map_err(|e| self.setting(e))?;

        let mut bots: Vec<BotConfig> = Vec::new();
        let mut name_spans = Vec::new();
        for (i, bot) in raw.bot.iter().enumerate() {
            let key = format!("bot[{i}]");
            let span = bot.span();
            let bot = bot.get_ref();
            let name = bot.name.get_ref().clone();
            self.check_name(&bot.name, &format!("{key}.name"))?;
            if let Some(prev) = bots.iter().position(|b| b.name == name) {
                let (line, _) = self.line_col(name_spans[prev]);
                return Err(self.at(
                    bot.name.span(),
                    &format!("{key}.name"),
                    format!("bot name {name:?} is already used by the bot at line {line}"),
                ));
            }
            name_spans.push(bot.name.span().start);
            let run = match (&bot.builtin, &bot.command) {
                (Some(_), Some(c)) => {
                    return Err(self.at(
                        c.span(),
                        &key,
                        format!("bot {name:?} has both builtin and command: give exactly one"),
                    ))
                }
                (None, None) => {
                    return Err(self.at(
                        span,
                        &key,
                        format!("bot {name:?} needs either builtin = \"NAME\" or command = [\"PROGRAM\", ...]"),
                    ))
                }
                (Some(b), None) => {
                    if !BUILTIN_BOTS.contains(&b.get_ref().as_str()) {
                        return Err(self.at(
                            b.span(),
                            &format!("{key}.builtin"),
                            format!(
                                "{:?} is not a built-in bot (known: {})",
                                b.get_ref(),
                                BUILTIN_BOTS.join(", ")
                            ),
                        ));
                    }
                    BotCommand::Builtin(b.get_ref().clone())
                }
                (None, Some(c)) => {
                    if c.get_ref().is_empty() || c.get_ref()[0].trim().is_empty() {
                        return Err(self.at(
                            c.span(),
                            &format!("{key}.command"),
                            "the command is empty: give at least the program",
                        ));
                    }
                    BotCommand::Command(c.get_ref().clone())
                }
            };
            let workdir = match &bot.workdir {
                Some(w) => base_dir.join(w.get_ref()),
                None => base_dir.clone(),
            };
            let mut options = BTreeMap::new();
            for (opt, value) in &bot.options {
                let okey = format!("{key}.options.{opt}");
                if opt.is_empty()
                    || !opt
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
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
                    return Err(self.at(
                        value.span(),
                        &okey,
                        "an option value cannot hold a newline",
                    ));
                }
                options.insert(opt.clone(), text);
            }
            for (k, v) in &bot.env {
                if k.is_empty() || k.contains(['=', '\0']) || v.contains('\0') {
                    return Err(self.at(
                        span.clone(),
                        &format!("{key}.env"),
                        format!("environment variable {k:?} is not valid"),
                    ));
                }
            }
            let time_control = match &bot.time_control {
                Some(tc) => self.time_control(
                    &overlay(&raw.time_control, tc.get_ref()),
                    &format!("{key}.time-control"),
                )?,
                None => default_tc,
            };
            let memory = match &bot.memory_limit {
                Some(m) => {
                    let mkey = format!("{key}.memory-limit");
                    let bytes = parse_size(m.get_ref()).map_err(|e| self.at(m.span(), &mkey, e))?;
                    if bytes < 1 << 20 {
                        return Err(self.at(m.span(), &mkey, "must be at least 1MiB"));
                    }
                    Some(bytes)
                }
                None => None,
            };
            let cpu = match &bot.cpu_limit {
                Some(c) => Some(self.positive_duration(c, &format!("{key}.cpu-limit"))?),
                None => None,
            };
            let policy = &sandbox.defaults;
            let policy = aboure_sandbox::settings::bot_policy(
                policy,
                bot.sandbox.as_ref(),
                &format!("{key}.sandbox"),
                &base_dir,
            )
            .map_err(|e| self.setting(e))?;
            let wrapper =
                aboure_sandbox::settings::wrapper(bot.wrapper.as_ref(), &format!("{key}.wrapper"))
                    .map_err(|e| self.setting(e))?;
            bots.push(BotConfig {
                name,
                run,
                workdir,
                env: bot.env.clone(),
                options,
                time_control,
                limits: Limits { memory, cpu },
                sandbox: policy,
                wrapper,
            });
        }
        if bots.len() < 2 {
            return Err(self.whole(
                "bot",
                format!(
                    "a tournament needs at least two [[bot]] tables, found {}",
                    bots.len()
                ),
            ));
        }
        let format = match t.format.as_ref().map(|f| (f, f.get_ref().as_str())) {
            None | Some((_, "round-robin")) => Format::RoundRobin,
            Some((_, "gauntlet")) => {
                let index = match &t.gauntlet_bot {
                    None => 0,
                    Some(g) => bots
                        .iter()
                        .position(|b| b.name == *g.get_ref())
                        .ok_or_else(|| {
                            self.at(
                                g.span(),
                                "tournament.gauntlet-bot",
                                format!("no bot is named {:?}", g.get_ref()),
                            )
                        })?,
                };
                Format::Gauntlet(index)
            }
            Some((f, "sprt")) => {
                if bots.len() != 2 {
                    return Err(self.at(
                        f.span(),
                        "tournament.format",
                        format!("an SPRT needs exactly two bots, found {}", bots.len()),
                    ));
                }
                Format::Sprt
            }
            Some((f, other)) => {
                return Err(self.at(
                    f.span(),
                    "tournament.format",
                    format!("{other:?} is not \"round-robin\", \"gauntlet\" or \"sprt\""),
                ))
            }
        };
        if let (Some(g), false) = (&t.gauntlet_bot, matches!(format, Format::Gauntlet(_))) {
            return Err(self.at(
                g.span(),
                "tournament.gauntlet-bot",
                "gauntlet-bot only applies to format = \"gauntlet\"",
            ));
        }
        Ok(Config {
            path: self.path.to_owned(),
            format,
            pairs,
            concurrency,
            seed,
            restart,
            startup_timeout,
            openings,
            adjudication,
            sprt,
            bots,
            sandbox,
        })
    }

    fn setting(&self, e: aboure_sandbox::settings::SettingError) -> ConfigError {
        self.at(e.span, &e.key, e.message)
    }

    fn check_name(&self, name: &Spanned<String>, key: &str) -> Result<(), ConfigError> {
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

    fn openings(&self, raw: &RawOpenings) -> Result<OpeningSource, ConfigError> {
        match (&raw.plies, &raw.file) {
            (Some(p), Some(_)) => Err(self.at(
                p.span(),
                "openings",
                "give either plies (random openings) or file, not both",
            )),
            (_, Some(f)) => {
                let base = self.dir();
                let file = base.join(f.get_ref());
                let text = std::fs::read_to_string(&file).map_err(|e| {
                    self.at(
                        f.span(),
                        "openings.file",
                        format!("cannot read {}: {e}", file.display()),
                    )
                })?;
                let openings = parse_opening_file(&text).map_err(|(line, msg)| {
                    self.at(
                        f.span(),
                        "openings.file",
                        format!("{}:{line}: {msg}", file.display()),
                    )
                })?;
                Ok(OpeningSource::File(openings))
            }
            (Some(p), None) => Ok(OpeningSource::Random {
                plies: self.range(p, "openings.plies", 0, 40)? as u32,
            }),
            (None, None) => Ok(OpeningSource::Random { plies: 4 }),
        }
    }

    fn adjudication(&self, raw: &RawAdjudication) -> Result<Adjudication, ConfigError> {
        let mut a = Adjudication::default();
        if let Some(m) = &raw.max_plies {
            a.max_plies = self.range(m, "adjudication.max-plies", 1, 100_000)? as u32;
        }
        if let Some(r) = &raw.repetitions {
            a.repetitions = self.range(r, "adjudication.repetitions", 2, 1000)? as u32;
        }
        let nodes = match &raw.solve_nodes {
            Some(n) => self.range(n, "adjudication.solve-nodes", 1, 1_000_000_000_000)? as u64,
            None => 1_000_000,
        };
        if let Some(after) = &raw.solve_after {
            a.solve = Some(crate::adjudication::SolveRule {
                after_plies: self.range(after, "adjudication.solve-after", 0, 100_000)? as u32,
                nodes,
            });
        }
        Ok(a)
    }

    fn sprt(&self, raw: &RawSprt) -> Result<SprtConfig, ConfigError> {
        let get =
            |v: &Option<Spanned<f64>>, default: f64| v.as_ref().map_or(default, |x| *x.get_ref());
        let s = SprtConfig {
            elo0: get(&raw.elo0, 0.0),
            elo1: get(&raw.elo1, 10.0),
            alpha: get(&raw.alpha, 0.05),
            beta: get(&raw.beta, 0.05),
            model: match &raw.model {
                None => SprtModel::Normalized,
                Some(m) => match m.get_ref().as_str() {
                    "normalized" => SprtModel::Normalized,
                    "logistic" => SprtModel::Logistic,
                    other => {
                        return Err(self.at(
                            m.span(),
                            "sprt.model",
                            format!("{other:?} is not \"normalized\" or \"logistic\""),
                        ))
                    }
                },
            },
        };
        for (value, key) in [(&raw.alpha, "sprt.alpha"), (&raw.beta, "sprt.beta")] {
            if let Some(v) = value {
                let x = *v.get_ref();
                if !(x > 0.0 && x < 0.5) {
                    return Err(self.at(v.span(), key, format!("{x} must be between 0 and 0.5")));
                }
            }
        }
        for (value, key) in [(&raw.elo0, "sprt.elo0"), (&raw.elo1, "sprt.elo1")] {
            if let Some(v) = value {
                if !v.get_ref().is_finite() || v.get_ref().abs() > 1000.0 {
                    return Err(self.at(v.span(), key, "must be a number between -1000 and 1000"));
                }
            }
        }
        if s.elo0 >= s.elo1 {
            let span = raw.elo1.as_ref().or(raw.elo0.as_ref()).map(|v| v.span());
            let msg = format!("elo0 ({}) must be less than elo1 ({})", s.elo0, s.elo1);
            return Err(match span {
                Some(span) => self.at(span, "sprt.elo1", msg),
                None => self.whole("sprt", msg),
            });
        }
        Ok(s)
    }

    fn time_control(&self, raw: &RawTimeControl, key: &str) -> Result<TimeControl, ConfigError> {
        let k = |name: &str| format!("{key}.{name}");
        let margin = match &raw.margin {
            Some(m) => self.duration(m, &k("margin"))?,
            None => Duration::from_millis(50),
        };
        let timeout = match &raw.timeout {
            Some(t) => Some(self.positive_duration(t, &k("timeout"))?),
            None => None,
        };
        let given: Vec<(&str, std::ops::Range<usize>)> = [
            raw.base.as_ref().map(|v| ("base", v.span())),
            raw.movetime.as_ref().map(|v| ("movetime", v.span())),
            raw.depth.as_ref().map(|v| ("depth", v.span())),
            raw.nodes.as_ref().map(|v| ("nodes", v.span())),
        ]
        .into_iter()
        .flatten()
        .collect();
        if given.len() > 1 {
            return Err(self.at(
                given[1].1.clone(),
                key,
                format!(
                    "give one of base, movetime, depth or nodes, not both {} and {}",
                    given[0].0, given[1].0
                ),
            ));
        }
        if let (Some(inc), None) = (&raw.increment, &raw.base) {
            return Err(self.at(inc.span(), &k("increment"), "increment needs base"));
        }
        if let (Some(t), true) = (&raw.timeout, raw.depth.is_none() && raw.nodes.is_none()) {
            return Err(self.at(
                t.span(),
                &k("timeout"),
                "timeout only applies to depth or nodes",
            ));
        }
        let limit = if let Some(m) = &raw.movetime {
            Limit::Movetime(self.positive_duration(m, &k("movetime"))?)
        } else if let Some(d) = &raw.depth {
            Limit::Depth {
                depth: self.range(d, &k("depth"), 1, 1000)? as u32,
                timeout: timeout.unwrap_or(Duration::from_secs(60)),
            }
        } else if let Some(n) = &raw.nodes {
            Limit::Nodes {
                nodes: self.range(n, &k("nodes"), 1, i64::MAX)? as u64,
                timeout: timeout.unwrap_or(Duration::from_secs(60)),
            }
        } else {
            let base = match &raw.base {
                Some(b) => self.positive_duration(b, &k("base"))?,
                None => Duration::from_secs(2),
            };
            let increment = match &raw.increment {
                Some(i) => self.duration(i, &k("increment"))?,
                None if raw.base.is_some() => Duration::ZERO,
                None => Duration::from_millis(20),
            };
            Limit::Fischer { base, increment }
        };
        Ok(TimeControl { limit, margin })
    }
}
