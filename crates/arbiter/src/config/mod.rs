//! The tournament file: TOML read with serde, then validated into a
//! [`Config`] whose invariants hold (two or more bots with unique, file-safe
//! names, positive times, sane ranges). Values are kept with their spans
//! until validated, so every error names the file, line and key.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::adjudication::Adjudication;
use crate::error::ConfigError;

/// Every default of a tournament file, as a commented tournament file (no
/// bots). A file that spells it out is the same tournament as one that
/// leaves it out (tested).
pub const DEFAULT_CONFIG: &str = include_str!("default.toml");
use crate::opening::OpeningSource;

mod adjudication;
mod bot;
mod build_command;
mod defaults;
mod league;
mod openings;
mod sprt;
mod time_control;
mod tune;
mod validator;

pub use bot::{BotCommand, BotConfig};
pub use build_command::BuildCommand;
pub(crate) use tune::ProbeFormat;
pub use tune::{Objective, Tune, ACCURACY_R_END, GAMES_R_END, POSITIONS};
pub use validator::MAX_DURATION;

use adjudication::RawAdjudication;
use bot::RawBot;
use openings::RawOpenings;
use sprt::RawSprt;
use time_control::RawTimeControl;
use validator::{toml_message, Validator};

/// The built-in reference bots, run as `aboure bot NAME`: the bots crate's
/// own list, so a tournament file accepts exactly the bots `aboure bot` runs.
pub use aboure_bots::BUILTIN as BUILTIN_BOTS;

/// A validated tournament. Only [`load`] and [`parse`] make one, so its
/// invariants hold wherever it is read: two or more bots with unique names,
/// exactly two for an SPRT, a gauntlet bot that is one of the bots.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    path: PathBuf,
    format: Format,
    pairs: u32,
    concurrency: Option<usize>,
    seed: u64,
    restart: Restart,
    startup_timeout: Duration,
    openings: OpeningSource,
    adjudication: Adjudication,
    sprt: aboure_stats::Sprt,
    bots: Vec<BotConfig>,
    sandbox: aboure_sandbox::Settings,
    league: Option<aboure_league::Rule>,
    tune: Option<Tune>,
}

impl Config {
    /// The `[tune]` table, if the file has one (`aboure tune`).
    pub fn tune(&self) -> Option<&Tune> {
        self.tune.as_ref()
    }

    /// The file it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Who plays whom.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Game pairs per pairing (the maximum, for SPRT).
    pub fn pairs(&self) -> u32 {
        self.pairs
    }

    /// Games played at once, if the file says.
    pub fn concurrency(&self) -> Option<usize> {
        self.concurrency
    }

    /// Seed of the openings.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// When bot processes are restarted.
    pub fn restart(&self) -> Restart {
        self.restart
    }

    /// Limit on the handshake and on each `isready`.
    pub fn startup_timeout(&self) -> Duration {
        self.startup_timeout
    }

    /// Where openings come from.
    pub fn openings(&self) -> &OpeningSource {
        &self.openings
    }

    /// Adjudication rules.
    pub fn adjudication(&self) -> Adjudication {
        self.adjudication
    }

    /// The SPRT of `[sprt]` (played when `format = "sprt"`).
    pub fn sprt(&self) -> aboure_stats::Sprt {
        self.sprt
    }

    /// The bots, in file order (two or more).
    pub fn bots(&self) -> &[BotConfig] {
        &self.bots
    }

    /// The bot `id` names (the gauntlet bot of [`Format::Gauntlet`]).
    ///
    /// Ids are made only by a config (its gauntlet bot, [`Config::bot_ids`]),
    /// below the count of its bots, and a config's bots never change: an id
    /// of this config is always in range (one of another config with fewer
    /// bots is a programming error).
    pub fn bot(&self, id: BotId) -> &BotConfig {
        &self.bots[id.0]
    }

    /// The ids of the bots, in file order.
    pub fn bot_ids(&self) -> impl Iterator<Item = BotId> {
        (0..self.bots.len()).map(BotId)
    }

    /// The `[sandbox]` table.
    pub fn sandbox(&self) -> &aboure_sandbox::Settings {
        &self.sandbox
    }

    /// A league's rule (its `[tournament]` keys), for [`Format::League`].
    pub fn league(&self) -> Option<&aboure_league::Rule> {
        self.league.as_ref()
    }
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair of bots.
    RoundRobin,
    /// One bot against each other bot.
    Gauntlet(BotId),
    /// Two bots until the SPRT decides.
    Sprt,
    /// Entrants that join and retire between runs, each next pair chosen
    /// from the games so far ([`Config::league`]).
    League,
}

/// A bot of a validated [`Config`]: only the config makes one (its
/// [`Format::Gauntlet`] bot, [`Config::bot_ids`]), from the bot's position
/// in the file, so [`Config::bot`] always finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BotId(usize);

impl BotId {
    /// The bot's position in [`Config::bots`].
    pub fn index(self) -> usize {
        self.0
    }
}

/// When bot processes are restarted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restart {
    /// A fresh process for every game.
    PerGame,
    /// Reuse processes across games; restart only after a failure.
    Never,
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
    tune: Option<tune::RawTune>,
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
    games: Option<Spanned<toml::Value>>,
    until: Option<Spanned<toml::Value>>,
    confidence: Option<Spanned<toml::Value>>,
    tie_margin: Option<Spanned<toml::Value>>,
    focus: Option<Spanned<toml::Value>>,
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

impl Validator<'_> {
    fn config(&self, raw: RawConfig) -> Result<Config, ConfigError> {
        let t = &raw.tournament;
        let pairs = match &t.pairs {
            Some(p) => self.range(p, "tournament.pairs", 1, 1_000_000)? as u32,
            None => defaults::PAIRS,
        };
        let concurrency = match &t.concurrency {
            Some(c) => Some(self.range(c, "tournament.concurrency", 1, 1024)? as usize),
            None => None,
        };
        let seed = match &t.seed {
            Some(s) => self.range(s, "tournament.seed", 0, i64::MAX)? as u64,
            None => defaults::SEED,
        };
        let restart = match &t.restart {
            None => Restart::PerGame,
            Some(r) => self.choice(
                r,
                "tournament.restart",
                &[("per-game", Restart::PerGame), ("never", Restart::Never)],
            )?,
        };
        let startup_timeout = match &t.startup_timeout {
            Some(d) => self.positive_duration(d, "tournament.startup-timeout")?,
            None => defaults::STARTUP_TIMEOUT,
        };
        let openings = self.openings(&raw.openings)?;
        let adjudication = self.adjudication(&raw.adjudication)?;
        let sprt = self.sprt(&raw.sprt, pairs)?;
        let default_tc = self.time_control(&raw.time_control, "time-control")?;
        let base_dir = self.dir().to_owned();
        let sandbox = (raw.sandbox)
            .validate(&base_dir, |text| {
                aboure_process::parse_size(text).map_err(|e| e.to_string())
            })
            .map_err(|e| self.setting(e))?;

        let mut bots: Vec<BotConfig> = Vec::new();
        let mut name_spans = Vec::new();
        for (i, bot) in raw.bot.iter().enumerate() {
            let key = format!("bot[{i}]");
            let span = bot.span();
            let bot = bot.get_ref();
            let name = bot.name.get_ref().clone();
            self.check_name(&bot.name, &format!("{key}.name"))?;
            if let Some(prev) = bots.iter().position(|b| b.name() == name) {
                let (line, _) = self.line_col(name_spans[prev]);
                return Err(self.at(
                    bot.name.span(),
                    &format!("{key}.name"),
                    format!("bot name {name:?} is already used by the bot at line {line}"),
                ));
            }
            name_spans.push(bot.name.span().start);
            bots.push(self.bot(
                &key,
                span,
                bot,
                &raw.time_control,
                default_tc,
                &base_dir,
                &sandbox,
            )?);
        }
        // A tune's file may hold the tuned bot alone.
        let tune = match &raw.tune {
            Some(t) if !bots.is_empty() => Some(self.tune(t, &bots)?),
            _ => None,
        };
        if bots.len() < 2 && tune.is_none() {
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
                        .position(|b| b.name() == g.get_ref())
                        .ok_or_else(|| {
                            self.at(
                                g.span(),
                                "tournament.gauntlet-bot",
                                format!("no bot is named {:?}", g.get_ref()),
                            )
                        })?,
                };
                Format::Gauntlet(BotId(index))
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
            Some((_, "league")) => Format::League,
            Some((f, other)) => {
                return Err(self.at(
                    f.span(),
                    "tournament.format",
                    format!(
                        "{other:?} is not \"round-robin\", \"gauntlet\", \"sprt\" or \"league\""
                    ),
                ))
            }
        };
        let league = self.league(t, format, &raw.bot)?;
        if let (Some(g), false) = (&t.gauntlet_bot, matches!(format, Format::Gauntlet(_))) {
            return Err(self.at(
                g.span(),
                "tournament.gauntlet-bot",
                "gauntlet-bot only applies to format = \"gauntlet\"",
            ));
        }
        // A truncated SPRT schedules no pair past its cap: none could count.
        let pairs = match (format, sprt.max_pairs()) {
            (Format::Sprt, Some(max)) => max as u32,
            (Format::League, _) => 0,
            _ => pairs,
        };
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
            league,
            tune,
        })
    }

    fn setting(&self, e: aboure_sandbox::settings::SettingError) -> ConfigError {
        self.at(e.span, &e.key, e.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_default_config_is_what_a_file_without_keys_means() {
        let bots = "[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\
                    [[bot]]\nname = \"b\"\nbuiltin = \"greedy\"\n";
        let path = Path::new("t.toml");
        let spelled_out = parse(&format!("{DEFAULT_CONFIG}\n{bots}"), path).unwrap();
        let left_out = parse(bots, path).unwrap();
        assert_eq!(spelled_out, left_out);
    }

    /// The settings in a TOML text, without comments and blank lines.
    fn settings(text: &str) -> Vec<String> {
        text.lines()
            .map(|l| l.split('#').next().unwrap_or("").trim().to_owned())
            .filter(|l| !l.is_empty())
            .collect()
    }

    #[test]
    fn the_readme_quotes_the_default_config() {
        let readme = include_str!("../../../../configs/README.md");
        let start = readme.find("config/default.toml").unwrap();
        let block = &readme[start..];
        let block = &block[block.find("```toml\n").unwrap() + 8..];
        let block = &block[..block.find("```").unwrap()];
        let defaults = settings(DEFAULT_CONFIG);
        let quoted = settings(block);
        assert!(quoted.len() > 10, "{quoted:?}");
        for line in &quoted {
            assert!(defaults.contains(line), "{line:?} is not in default.toml");
        }
    }
}
