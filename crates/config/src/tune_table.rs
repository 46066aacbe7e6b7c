//! `[tune]`: which bot to tune, its parameters (start, range, step), SPSA's
//! settings, the budget, the objective and an optional confirming SPRT,
//! validated into a [`Tune`] with errors that name the file, line and key.
//! The parameters are checked here against themselves only; that the bot
//! declares each as an int option with a range that holds it is checked
//! against its handshake when the tune starts ([`crate::tuning`]).

use std::collections::BTreeMap;

use aboure_spsa::{Parameter, SpsaSettings};
use aboure_stats::Sprt;
use serde::Deserialize;
use toml::Spanned;

use super::bot_table::BotConfig;
use super::format::BotId;
use super::sprt_table::RawSprt;
use super::Validator;
use crate::error::ConfigError;

/// The learning rate at the end (`r-end`) of the `games` objective, whose
/// gain is wins minus losses of a game pair: fishtest's default.
pub const GAMES_R_END: f64 = 0.002;
/// The learning rate at the end of the `accuracy` objective, whose gain is
/// in seeds lost a move (far smaller than a game pair's): the value that
/// recovers alphabeta's wrong-signed row weight on every seed of `aboure
/// bench tune` at 5, 15 and 30 iterations (2 did on three of five at 30).
pub const ACCURACY_R_END: f64 = 32.0;
/// Positions in the `accuracy` objective's sample by default.
pub const POSITIONS: u32 = 200;

/// A validated `[tune]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct Tune {
    bot: BotId,
    opponent: Option<BotId>,
    parameters: Vec<Parameter>,
    spsa: SpsaSettings,
    objective: Objective,
    confirm: Option<Sprt>,
}

/// What each SPSA iteration scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Game pairs between the two points (or each against the opponent).
    Games {
        /// Game pairs per pairing per iteration.
        pairs: u32,
    },
    /// Mean seeds lost a move on a sample of positions, against the solver.
    Accuracy {
        /// Positions in the sample.
        positions: u32,
    },
}

impl Objective {
    /// `games` or `accuracy`, as in the file.
    pub fn name(&self) -> &'static str {
        match self {
            Objective::Games { .. } => "games",
            Objective::Accuracy { .. } => "accuracy",
        }
    }
}

impl Tune {
    /// The bot being tuned.
    pub fn bot(&self) -> BotId {
        self.bot
    }

    /// The fixed opponent of the `games` objective (the file's other bot).
    pub fn opponent(&self) -> Option<BotId> {
        self.opponent
    }

    /// The parameters, in name order.
    pub fn parameters(&self) -> &[Parameter] {
        &self.parameters
    }

    /// SPSA's budget and gain sequences.
    pub fn spsa(&self) -> &SpsaSettings {
        &self.spsa
    }

    /// What each iteration scores.
    pub fn objective(&self) -> Objective {
        self.objective
    }

    /// The SPRT of the tuned values against the start ones, if asked.
    pub fn confirm(&self) -> Option<Sprt> {
        self.confirm
    }
}

/// How a probe match is scheduled.
#[derive(Clone, Copy, Debug)]
pub enum ProbeFormat {
    /// This many game pairs per pairing.
    Pairs(u32),
    /// Until the SPRT decides (two bots, no opponent).
    Sprt(Sprt),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawTune {
    bot: Spanned<String>,
    parameters: Spanned<BTreeMap<String, Spanned<RawParameter>>>,
    method: Option<Spanned<String>>,
    spsa: Option<Spanned<RawSpsa>>,
    iterations: Option<Spanned<i64>>,
    games: Option<Spanned<i64>>,
    objective: Option<Spanned<String>>,
    positions: Option<Spanned<i64>>,
    pairs: Option<Spanned<i64>>,
    confirm: Option<Spanned<RawSprt>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParameter {
    start: Spanned<f64>,
    min: Spanned<f64>,
    max: Spanned<f64>,
    step: Spanned<f64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSpsa {
    alpha: Option<Spanned<f64>>,
    gamma: Option<Spanned<f64>>,
    #[serde(rename = "A")]
    stability: Option<Spanned<f64>>,
    r_end: Option<Spanned<f64>>,
}

impl Validator<'_> {
    /// The `[tune]` table of a file whose bots are `bots`.
    pub(super) fn tune(&self, raw: &RawTune, bots: &[BotConfig]) -> Result<Tune, ConfigError> {
        let name = raw.bot.get_ref();
        let bot = bots.iter().position(|b| b.name() == name).ok_or_else(|| {
            self.at(
                raw.bot.span(),
                "tune.bot",
                format!("no bot is named {name:?}"),
            )
        })?;
        let opponent = match bots.len() {
            1 => None,
            2 => Some(BotId(1 - bot)),
            n => {
                return Err(self.whole(
                    "bot",
                    format!("a tune takes the bot and at most one opponent, found {n} bots"),
                ))
            }
        };
        if let Some(m) = &raw.method {
            self.choice(m, "tune.method", &[("spsa", ())])?;
        }
        let parameters = self.parameters(raw)?;
        let objective = match &raw.objective {
            None => Objective::Games { pairs: 1 },
            Some(o) => self.choice(
                o,
                "tune.objective",
                &[
                    ("games", Objective::Games { pairs: 1 }),
                    ("accuracy", Objective::Accuracy { positions: 1 }),
                ],
            )?,
        };
        let objective = self.objective_sizes(raw, objective, opponent)?;
        let iterations = self.iterations(raw, objective, opponent)?;
        let spsa = self.spsa_settings(raw, objective, iterations)?;
        let confirm = match &raw.confirm {
            None => None,
            Some(c) => Some(self.sprt(c.get_ref(), u32::MAX).map_err(|mut e| {
                e.key = e.key.replacen("sprt", "tune.confirm", 1);
                e
            })?),
        };
        Ok(Tune {
            bot: BotId(bot),
            opponent,
            parameters,
            spsa,
            objective,
            confirm,
        })
    }

    fn parameters(&self, raw: &RawTune) -> Result<Vec<Parameter>, ConfigError> {
        if raw.parameters.get_ref().is_empty() {
            return Err(self.at(
                raw.parameters.span(),
                "tune.parameters",
                "no parameters to tune",
            ));
        }
        let mut out = Vec::new();
        for (name, p) in raw.parameters.get_ref() {
            let key = format!("tune.parameters.{name}");
            let raw = p.get_ref();
            let value = |v: &Spanned<f64>| *v.get_ref();
            let (start, min, max, step) = (
                value(&raw.start),
                value(&raw.min),
                value(&raw.max),
                value(&raw.step),
            );
            // Whether the option is an int (whole start and range, values
            // rounded when sent) or a float is known from the bot's
            // handshake: `tuning::check_declared` settles it.
            let parameter = Parameter::real(name, start, min, max, step).map_err(|e| {
                let (span, k) = match e {
                    aboure_spsa::ParameterError::StartOutOfRange { .. } => {
                        (raw.start.span(), "start")
                    }
                    aboure_spsa::ParameterError::BadStep { .. } => (raw.step.span(), "step"),
                    _ => (raw.max.span(), "max"),
                };
                self.at(span, &format!("{key}.{k}"), e.to_string())
            })?;
            if step > max - min {
                return Err(self.at(
                    raw.step.span(),
                    &format!("{key}.step"),
                    format!("step {step} exceeds the range {min}..={max}"),
                ));
            }
            out.push(parameter);
        }
        Ok(out)
    }

    /// `pairs` (games) or `positions` (accuracy), each only with its objective.
    fn objective_sizes(
        &self,
        raw: &RawTune,
        objective: Objective,
        opponent: Option<BotId>,
    ) -> Result<Objective, ConfigError> {
        match objective {
            Objective::Games { .. } => {
                if let Some(p) = &raw.positions {
                    return Err(self.at(
                        p.span(),
                        "tune.positions",
                        "positions only applies to objective = \"accuracy\"",
                    ));
                }
                let pairs = match &raw.pairs {
                    Some(p) => self.range(p, "tune.pairs", 1, 10_000)? as u32,
                    None => 1,
                };
                Ok(Objective::Games { pairs })
            }
            Objective::Accuracy { .. } => {
                for (v, k) in [(&raw.pairs, "tune.pairs"), (&raw.games, "tune.games")] {
                    if let Some(v) = v {
                        return Err(self.at(
                            v.span(),
                            k,
                            format!("{} only applies to objective = \"games\"", &k[5..]),
                        ));
                    }
                }
                if opponent.is_some() {
                    return Err(self.whole(
                        "bot",
                        "the accuracy objective plays no games: the file takes only the tuned bot",
                    ));
                }
                let positions = match &raw.positions {
                    Some(p) => self.range(p, "tune.positions", 1, 100_000)? as u32,
                    None => POSITIONS,
                };
                Ok(Objective::Accuracy { positions })
            }
        }
    }

    /// The number of iterations, from `iterations` or `games` (exactly one).
    fn iterations(
        &self,
        raw: &RawTune,
        objective: Objective,
        opponent: Option<BotId>,
    ) -> Result<u32, ConfigError> {
        match (&raw.iterations, &raw.games, objective) {
            (Some(i), None, _) => Ok(self.range(i, "tune.iterations", 1, 10_000_000)? as u32),
            (None, Some(g), Objective::Games { pairs }) => {
                // Two probes, each in `pairs` pairs (against each other, or
                // each against the opponent).
                let per = 2 * u64::from(pairs) * if opponent.is_some() { 2 } else { 1 };
                let games = self.range(g, "tune.games", per as i64, 1_000_000_000)? as u64;
                Ok((games / per).min(u64::from(u32::MAX)) as u32)
            }
            (Some(_), Some(g), _) => {
                Err(self.at(g.span(), "tune.games", "give iterations or games, not both"))
            }
            _ => Err(self.at(
                raw.bot.span(),
                "tune.iterations",
                "a tune needs a budget: iterations = N (or games = N with objective = \"games\")",
            )),
        }
    }

    fn spsa_settings(
        &self,
        raw: &RawTune,
        objective: Objective,
        iterations: u32,
    ) -> Result<SpsaSettings, ConfigError> {
        let mut s = SpsaSettings::for_iterations(iterations);
        s.r_end = match objective {
            Objective::Games { .. } => GAMES_R_END,
            Objective::Accuracy { .. } => ACCURACY_R_END,
        };
        let Some(spsa) = &raw.spsa else {
            return Ok(s);
        };
        let spsa = spsa.get_ref();
        let fields = [
            (&spsa.alpha, "tune.spsa.alpha", &mut s.alpha),
            (&spsa.gamma, "tune.spsa.gamma", &mut s.gamma),
            (&spsa.r_end, "tune.spsa.r-end", &mut s.r_end),
        ];
        for (value, key, slot) in fields {
            if let Some(v) = value {
                let x = *v.get_ref();
                if !(x.is_finite() && x > 0.0) {
                    return Err(self.at(v.span(), key, format!("{x} must be positive")));
                }
                *slot = x;
            }
        }
        if let Some(v) = &spsa.stability {
            let x = *v.get_ref();
            if !(x.is_finite() && x >= 0.0) {
                return Err(self.at(v.span(), "tune.spsa.A", format!("{x} must not be negative")));
            }
            s.stability = x;
        }
        Ok(s)
    }
}
