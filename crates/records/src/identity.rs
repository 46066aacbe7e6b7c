//! What defines the games of a run, and its fingerprint.
//!
//! Resuming a run, or joining a folder other shards write to, must never mix
//! the games of two different tournaments. The run manifest records the
//! [`TournamentIdentity`] (bots, commands, options, time controls, openings,
//! seed, format, pairs, adjudication; not concurrency, output options or the
//! SPRT's bounds, which decide when to stop, not what a game is) and its
//! SHA-256 [fingerprint](TournamentIdentity::fingerprint); a run compares
//! fingerprints and, when they differ, names the parts that changed.
//!
//! The fingerprint is the hash of the identity's compact JSON with its keys
//! in sorted order, the bytes every `run.json` since the first has hashed, so
//! the folders of earlier versions resume. Optional parts (a bot's limits,
//! exact adjudication) are left out when unset for the same reason: adding
//! them did not change the fingerprint of a run that does not use them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What the games of a run are: two runs with equal identities play the
/// same games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentIdentity {
    /// Round robin, gauntlet or SPRT.
    pub format: FormatIdentity,
    /// Game pairs per pairing (the most an SPRT plays).
    pub pairs: u32,
    /// Seed of the random openings.
    pub seed: u64,
    /// Where the openings come from.
    pub openings: OpeningsIdentity,
    /// When a game is ended by the arbiter.
    pub adjudication: AdjudicationIdentity,
    /// The bots, in the tournament file's order.
    pub bots: Vec<BotIdentity>,
}

/// The tournament's format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FormatIdentity {
    /// Every pair of bots (`"round-robin"`).
    RoundRobin,
    /// The named bot against each other (`{"gauntlet": NAME}`).
    Gauntlet(String),
    /// The first two bots until the SPRT decides (`"sprt"`).
    Sprt,
    /// A league (`"league"`): entrants in the order they joined, each pair
    /// chosen from the games before it (see [`crate::LeagueRecord`]).
    League,
}

/// The openings of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OpeningsIdentity {
    /// Random openings of this many plies, drawn from the seed.
    Random {
        /// Plies of each opening.
        random_plies: u32,
    },
    /// Openings from a file, each as `START moves M...`.
    File(Vec<String>),
}

/// The adjudication rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdjudicationIdentity {
    /// A game reaching this many plies ends.
    pub max_plies: u32,
    /// A position seen this often ends the game.
    pub repetitions: u32,
    /// Exact adjudication from this ply on, when on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solve_after: Option<u32>,
    /// The solver's budget per position, with `solve_after`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solve_nodes: Option<u64>,
}

/// One bot as far as its games depend on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotIdentity {
    /// Its name.
    pub name: String,
    /// What runs.
    pub run: BotRunIdentity,
    /// The options sent after the handshake, as text.
    pub options: BTreeMap<String, String>,
    /// Its time control, as the report shows it.
    pub time_control: String,
    /// Its OS limits, when any is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<LimitsIdentity>,
    /// Whether it runs while its opponent thinks (`ponder = true`); written
    /// only when set, so runs without it keep their fingerprint.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ponder: bool,
}

/// The program of a bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BotRunIdentity {
    /// A reference bot, `aboure bot NAME`.
    Builtin(String),
    /// A program and its arguments.
    Command(Vec<String>),
}

/// A bot's OS limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitsIdentity {
    /// Address space in bytes.
    pub memory: Option<u64>,
    /// CPU time in milliseconds.
    pub cpu_ms: Option<u64>,
}

impl TournamentIdentity {
    /// SHA-256 of the identity's canonical JSON (compact, keys sorted), in
    /// hex.
    pub fn fingerprint(&self) -> String {
        let digest = Sha256::digest(self.canonical().to_string().as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The two bots of an SPRT, the tested one first: the first two bots of
    /// the tournament file, in its order. The one rule the arbiter's test
    /// and the report follow; `None` for another format.
    pub fn sprt_pairing(&self) -> Option<[String; 2]> {
        match (&self.format, &self.bots[..]) {
            (FormatIdentity::Sprt, [test, baseline, ..]) => {
                Some([test.name.clone(), baseline.name.clone()])
            }
            _ => None,
        }
    }

    /// The parts of `self` that differ from `other`, by key (`bots`,
    /// `pairs`, ...), in the order of the file.
    pub fn differences(&self, other: &TournamentIdentity) -> Vec<&'static str> {
        [
            ("adjudication", self.adjudication != other.adjudication),
            ("bots", self.bots != other.bots),
            ("format", self.format != other.format),
            ("openings", self.openings != other.openings),
            ("pairs", self.pairs != other.pairs),
            ("seed", self.seed != other.seed),
        ]
        .into_iter()
        .filter_map(|(key, differs)| differs.then_some(key))
        .collect()
    }

    /// The identity as a JSON value: serde_json's maps keep their keys
    /// sorted, which makes the text canonical whatever the field order.
    fn canonical(&self) -> serde_json::Value {
        // Every part is plain data (strings, integers, maps with string
        // keys), which always converts.
        serde_json::to_value(self).unwrap_or_default()
    }
}
