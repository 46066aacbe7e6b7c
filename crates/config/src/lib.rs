//! The tournament file: TOML read with serde, then validated into a
//! [`Config`] whose invariants hold (two or more bots with unique, file-safe
//! names, positive times, sane ranges). Values are kept with their spans
//! until validated, so every error names the file, line and key.
//!
//! The file is read over an embedded, commented base layer
//! (`src/base.toml`, [`DEFAULT_CONFIG`]) that holds every default, as
//! nextest does (`defaults.rs`). Each table has its own small validator in
//! a file named for it (`bot_table.rs`, `time_control_table.rs`,
//! `openings_table.rs`, ...); the values they make that others share
//! ([`TimeControl`], [`Adjudication`]) have files of their own. This crate
//! knows no processes and plays no games: the arbiter, `aboure check-bot`,
//! `aboure tune` and the bench read a file only through it.

#![deny(missing_docs)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::opening::{OpeningSource, OpeningsName};

mod adjudication_rules;
mod adjudication_table;
mod balanced_book;
mod bot_table;
mod build_command;
mod defaults;
mod error;
mod format;
mod league_table;
pub mod opening;
mod openings_table;
mod probe;
mod sandbox_table;
mod sprt_table;
mod time_control;
mod time_control_table;
mod tournament_table;
mod tune_table;
mod type_hint;
mod validator;

pub use adjudication_rules::{Adjudication, SolveRule};
pub use balanced_book::{balanced_book, BALANCED_BOOK, BALANCED_BOOK_RECIPE};
pub use bot_table::{BotCommand, BotConfig};
pub use build_command::BuildCommand;
pub use error::ConfigError;
pub use format::{BotId, Format, Restart};
pub use opening::{BALANCED_BOOK_ID, BALANCED_BOOK_NAME};
pub use time_control::{Limit, TimeControl};
pub use tune_table::ProbeFormat;
pub use tune_table::{Objective, Tune, ACCURACY_R_END, GAMES_R_END, POSITIONS};
pub use validator::MAX_DURATION;

pub use defaults::{default_margin, default_sandbox, DEFAULT_CONFIG};

use adjudication_table::RawAdjudication;
use bot_table::{BotContext, RawBot};
use openings_table::RawOpenings;
use sandbox_table::RawSandbox;
use sprt_table::RawSprt;
use time_control_table::{RawTimeControl, TimeControls};
use tournament_table::RawTournament;
use validator::Validator;

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
    openings_name: OpeningsName,
    /// True when the file gives no `[openings]` source: the openings are
    /// the format's default, which a probe match of another format redoes.
    openings_default: bool,
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

    /// Which openings these are, as the run's output names them: random,
    /// a file as the tournament file names it, or the built-in book.
    pub fn openings_name(&self) -> &OpeningsName {
        &self.openings_name
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
    sandbox: RawSandbox,
    tune: Option<tune_table::RawTune>,
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

/// Validates the text of a tournament file over the base layer
/// ([`DEFAULT_CONFIG`]); `path` locates relative paths and names the file
/// in errors.
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    let v = Validator { text, path };
    let user: RawConfig = v.user_layer()?;
    let base: RawConfig = v.base_layer()?;
    v.config(user, base)
}

impl Validator<'_> {
    /// The user's file (`user`) over the base layer (`base`, whose bots and
    /// tune, if it had any, are not read).
    fn config(&self, user: RawConfig, base: RawConfig) -> Result<Config, ConfigError> {
        let t = user.tournament.over(base.tournament);
        let schedule = self.schedule(&t)?;
        let adjudication = self.adjudication(&user.adjudication.over(base.adjudication))?;
        let sprt = self.sprt(&user.sprt, schedule.pairs)?;
        let time_controls = TimeControls {
            user: &user.time_control,
            base: &base.time_control,
        };
        let default_tc =
            self.time_control(&user.time_control.over(&base.time_control), "time-control")?;
        let sandbox = self.sandbox(&user.sandbox.over(base.sandbox))?;

        let mut bots: Vec<BotConfig> = Vec::new();
        let mut name_spans = Vec::new();
        for (i, bot) in user.bot.iter().enumerate() {
            let key = format!("bot[{i}]");
            let name = bot.get_ref().name.get_ref().clone();
            self.check_name(&bot.get_ref().name, &format!("{key}.name"))?;
            if let Some(prev) = bots.iter().position(|b| b.name() == name) {
                let (line, _) = self.line_col(name_spans[prev]);
                return Err(self.at(
                    bot.get_ref().name.span(),
                    &format!("{key}.name"),
                    format!("bot name {name:?} is already used by the bot at line {line}"),
                ));
            }
            name_spans.push(bot.get_ref().name.span().start);
            let context = BotContext {
                time_controls,
                default_tc,
                sandbox: &sandbox,
            };
            bots.push(self.bot(&key, bot, &context)?);
        }
        // A tune's file may hold the tuned bot alone.
        let tune = match &user.tune {
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
        let format = self.format(&t, &bots)?;
        let openings_default = user.openings.is_empty();
        let (openings, openings_name) = self.openings(user.openings, base.openings, format)?;
        let league = self.league(&t, format, &user.bot)?;
        self.gauntlet_bot_applies(&t, format)?;
        // A truncated SPRT schedules no pair past its cap: none could count.
        let pairs = match (format, sprt.max_pairs()) {
            (Format::Sprt, Some(max)) => max as u32,
            (Format::League, _) => 0,
            _ => schedule.pairs,
        };
        Ok(Config {
            path: self.path.to_owned(),
            format,
            pairs,
            concurrency: schedule.concurrency,
            seed: schedule.seed,
            restart: schedule.restart,
            startup_timeout: schedule.startup_timeout,
            openings,
            openings_name,
            openings_default,
            adjudication,
            sprt,
            bots,
            sandbox,
            league,
            tune,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOTS: &str = "[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\
                        [[bot]]\nname = \"b\"\nbuiltin = \"greedy\"\n";

    #[test]
    fn the_base_layer_alone_with_bots_is_valid() {
        // Every value of the base layer validated as the only layer: none
        // is left to a default of the code.
        let v = Validator {
            text: BOTS,
            path: Path::new("t.toml"),
        };
        let mut base: RawConfig = v.base_layer().unwrap();
        base.bot = v.user_layer::<RawConfig>().unwrap().bot;
        let config = v.config(base, RawConfig::default()).unwrap();
        assert_eq!(config.pairs(), 10);
        assert_eq!(config.sandbox(), &default_sandbox().unwrap());
        assert_eq!(
            config.bots()[0].time_control().margin,
            default_margin().unwrap()
        );
        assert_eq!(config.adjudication().max_plies(), 400);
    }

    #[test]
    fn spelling_the_base_layer_out_changes_nothing() {
        // `timeout` applies only to depth and nodes: a file that gives it
        // with the base layer's clock is refused, as any such file is.
        let spelled: String = (DEFAULT_CONFIG.lines())
            .filter(|l| !l.starts_with("timeout"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(spelled.len() < DEFAULT_CONFIG.len());
        let path = Path::new("t.toml");
        let spelled_out = parse(&format!("{spelled}\n{BOTS}"), path).unwrap();
        let mut left_out = parse(BOTS, path).unwrap();
        // One difference is meant: a file that names its openings plays
        // them in a tune's confirming SPRT too, where one without plays
        // an SPRT's default.
        assert!(left_out.openings_default && !spelled_out.openings_default);
        left_out.openings_default = false;
        assert_eq!(spelled_out, left_out);
        let with_timeout = format!("{DEFAULT_CONFIG}\n{BOTS}");
        let e = parse(&with_timeout, path).unwrap_err();
        assert_eq!(e.key, "time-control.timeout", "{e}");
    }

    #[test]
    fn a_value_from_the_base_layer_is_not_the_users() {
        // The base layer's `pairs` must not count as a league's `pairs`, nor
        // its clock conflict with a user's `movetime`.
        let league = format!("[tournament]\nformat = \"league\"\ngames = 4\n{BOTS}");
        assert_eq!(parse(&league, Path::new("t.toml")).unwrap().pairs(), 0);
        let movetime = format!("[time-control]\nmovetime = \"100ms\"\n{BOTS}");
        let config = parse(&movetime, Path::new("t.toml")).unwrap();
        assert_eq!(
            config.bots()[0].time_control().limit,
            crate::time_control::Limit::Movetime(Duration::from_millis(100))
        );
    }

    #[test]
    fn an_sprt_or_a_league_without_an_openings_table_plays_the_built_in_book() {
        let path = Path::new("t.toml");
        let openings = |head: &str, table: &str| {
            let c = parse(&format!("[tournament]\n{head}\n{table}{BOTS}"), path).unwrap();
            (c.openings().clone(), c.openings_name().clone())
        };
        let book = (
            OpeningSource::File(balanced_book()),
            OpeningsName::BalancedBook,
        );
        let random = |plies| {
            (
                OpeningSource::Random { plies },
                OpeningsName::Random { plies },
            )
        };
        for head in ["format = \"sprt\"", "format = \"league\"\ngames = 4"] {
            assert_eq!(openings(head, ""), book, "{head}");
            assert_eq!(openings(head, "[openings]\n"), book, "{head}");
            assert_eq!(openings(head, "[openings]\nplies = 4\n"), random(4));
            assert_eq!(openings(head, "[openings]\nplies = 6\n"), random(6));
        }
        for head in ["format = \"round-robin\"", "format = \"gauntlet\"", ""] {
            assert_eq!(openings(head, ""), random(4), "{head}");
        }
        assert_eq!(book.1.to_string(), BALANCED_BOOK_NAME);
        assert!(BALANCED_BOOK_NAME.contains(BALANCED_BOOK_ID));
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
        let readme = include_str!("../../../configs/README.md");
        let start = readme.find("config/src/base.toml").unwrap();
        let block = &readme[start..];
        let block = &block[block.find("```toml\n").unwrap() + 8..];
        let block = &block[..block.find("```").unwrap()];
        let defaults = settings(DEFAULT_CONFIG);
        let quoted = settings(block);
        assert!(quoted.len() > 10, "{quoted:?}");
        for line in &quoted {
            assert!(defaults.contains(line), "{line:?} is not in base.toml");
        }
    }
}
