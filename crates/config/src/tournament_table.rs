//! `[tournament]`: who plays whom (the format, a gauntlet's bot), how many
//! game pairs, the seed, how bots are restarted and the startup limit. A
//! league's own keys are read by [`super::league`].

use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::bot_table::BotConfig;
use super::format::{BotId, Format, Restart};
use super::Validator;
use crate::error::ConfigError;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawTournament {
    pub(super) format: Option<Spanned<String>>,
    pub(super) gauntlet_bot: Option<Spanned<String>>,
    pub(super) pairs: Option<Spanned<i64>>,
    pub(super) concurrency: Option<Spanned<i64>>,
    pub(super) seed: Option<Spanned<i64>>,
    pub(super) restart: Option<Spanned<String>>,
    pub(super) startup_timeout: Option<Spanned<String>>,
    pub(super) games: Option<Spanned<toml::Value>>,
    pub(super) until: Option<Spanned<toml::Value>>,
    pub(super) confidence: Option<Spanned<toml::Value>>,
    pub(super) tie_margin: Option<Spanned<toml::Value>>,
    pub(super) focus: Option<Spanned<toml::Value>>,
    pub(super) intervals: Option<Spanned<toml::Value>>,
}

impl RawTournament {
    /// The user's table over the base layer's, key by key.
    pub(super) fn over(self, base: RawTournament) -> RawTournament {
        RawTournament {
            format: self.format.or(base.format),
            gauntlet_bot: self.gauntlet_bot.or(base.gauntlet_bot),
            pairs: self.pairs.or(base.pairs),
            concurrency: self.concurrency.or(base.concurrency),
            seed: self.seed.or(base.seed),
            restart: self.restart.or(base.restart),
            startup_timeout: self.startup_timeout.or(base.startup_timeout),
            games: self.games.or(base.games),
            until: self.until.or(base.until),
            confidence: self.confidence.or(base.confidence),
            tie_margin: self.tie_margin.or(base.tie_margin),
            focus: self.focus.or(base.focus),
            intervals: self.intervals.or(base.intervals),
        }
    }
}

/// The keys of `[tournament]` that every format reads.
pub(super) struct Schedule {
    pub(super) pairs: u32,
    pub(super) concurrency: Option<usize>,
    pub(super) seed: u64,
    pub(super) restart: Restart,
    pub(super) startup_timeout: Duration,
}

impl Validator<'_> {
    pub(super) fn schedule(&self, t: &RawTournament) -> Result<Schedule, ConfigError> {
        let pairs = self.required(&t.pairs, "tournament.pairs")?;
        let pairs = self.range(pairs, "tournament.pairs", 1, 1_000_000)? as u32;
        let concurrency = match &t.concurrency {
            Some(c) => Some(self.range(c, "tournament.concurrency", 1, 1024)? as usize),
            None => None,
        };
        let seed = self.required(&t.seed, "tournament.seed")?;
        let seed = self.range(seed, "tournament.seed", 0, i64::MAX)? as u64;
        let restart = self.choice(
            self.required(&t.restart, "tournament.restart")?,
            "tournament.restart",
            &[("per-game", Restart::PerGame), ("never", Restart::Never)],
        )?;
        let startup_timeout = self.positive_duration(
            self.required(&t.startup_timeout, "tournament.startup-timeout")?,
            "tournament.startup-timeout",
        )?;
        Ok(Schedule {
            pairs,
            concurrency,
            seed,
            restart,
            startup_timeout,
        })
    }

    /// Who plays whom, among `bots`.
    pub(super) fn format(
        &self,
        t: &RawTournament,
        bots: &[BotConfig],
    ) -> Result<Format, ConfigError> {
        let f = self.required(&t.format, "tournament.format")?;
        let format = match f.get_ref().as_str() {
            "round-robin" => Format::RoundRobin,
            "gauntlet" => {
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
            "sprt" => {
                if bots.len() != 2 {
                    return Err(self.at(
                        f.span(),
                        "tournament.format",
                        format!("an SPRT needs exactly two bots, found {}", bots.len()),
                    ));
                }
                Format::Sprt
            }
            "league" => Format::League,
            other => {
                return Err(self.at(
                    f.span(),
                    "tournament.format",
                    format!(
                        "{other:?} is not \"round-robin\", \"gauntlet\", \"sprt\" or \"league\""
                    ),
                ))
            }
        };
        Ok(format)
    }

    /// Refuses a `gauntlet-bot` in a format that is not a gauntlet.
    pub(super) fn gauntlet_bot_applies(
        &self,
        t: &RawTournament,
        format: Format,
    ) -> Result<(), ConfigError> {
        match (&t.gauntlet_bot, format) {
            (Some(g), f) if !matches!(f, Format::Gauntlet(_)) => Err(self.at(
                g.span(),
                "tournament.gauntlet-bot",
                "gauntlet-bot only applies to format = \"gauntlet\"",
            )),
            _ => Ok(()),
        }
    }
}
