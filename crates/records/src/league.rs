//! A league's part of `run.json` (the manifest's `league` key): who the
//! entrants are, when each joined and whether it retired, and why the
//! league last stopped, with the verdict on every neighbour pair.
//!
//! A league's field grows between runs, so its [`TournamentIdentity`]
//! lists the entrants in the order they joined, each with the identity of
//! the program it ran; a later run may add entrants but never change one
//! (a new version is a new entrant). `joined` and `retired_from` are pair
//! numbers, not times: the scheduler's decision for pair `n` sees exactly
//! the entrants with `joined <= n`, the retired ones among them those with
//! `retired_from <= n`, so a resumed league replays its history exactly.
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `in_flight` | integer | game pairs the league may have in play at once, fixed by its first run |
//! | `entrants` | [object] | in joining order: `name`, `joined` (pair number), `joined_at` (RFC 3339), `retired_from` (pair number, absent while active) |
//! | `intervals` | string | `anytime` when the league's verdicts use anytime intervals (a confidence sequence); absent for fixed-sample ones |
//! | `verdict` | object | absent until the league first stops: `reason` (`budget-spent`, `settled`, `no-opponents`), `pairs`, `games`, `neighbours` (each with `bound`, the anytime interval's one-sided half-width, with anytime intervals) |
//!
//! [`TournamentIdentity`]: crate::TournamentIdentity

use serde::{Deserialize, Serialize};

/// The `league` key of a league's `run.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeagueRecord {
    /// Game pairs in play at once: pair `n` is chosen from the pairs
    /// before `n + 1 - in_flight`, whatever the concurrency of a later run.
    pub in_flight: u64,
    /// The entrants, in the order they joined (the identity's bot order).
    pub entrants: Vec<EntrantRecord>,
    /// The intervals its verdicts use (set by each run from its file).
    #[serde(default, skip_serializing_if = "LeagueIntervals::is_fixed")]
    pub intervals: LeagueIntervals,
    /// Why the league last stopped, if it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<LeagueVerdict>,
}

/// The intervals a league's verdicts (and its report) use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeagueIntervals {
    /// Valid at one look (`intervals = "fixed"`, the default).
    #[default]
    Fixed,
    /// Valid at every look at once (`intervals = "anytime"`): a confidence
    /// sequence, so stopping on them keeps their confidence.
    Anytime,
}

impl LeagueIntervals {
    /// True for fixed-sample intervals (left out of `run.json`).
    pub fn is_fixed(&self) -> bool {
        *self == LeagueIntervals::Fixed
    }
}

/// One entrant of a league.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntrantRecord {
    /// Its bot name.
    pub name: String,
    /// The first pair number it could be scheduled in.
    pub joined: u64,
    /// When the run it joined in started (RFC 3339, UTC).
    pub joined_at: String,
    /// The first pair number it was no longer scheduled in, if retired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retired_from: Option<u64>,
}

/// Why a league stopped, and where its table stood.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeagueVerdict {
    /// What stopped it.
    pub reason: StopReason,
    /// Complete game pairs when it stopped.
    pub pairs: u64,
    /// Games recorded when it stopped.
    pub games: u64,
    /// Each neighbour pair the focus covers, from the top (empty without
    /// `until = "separated"`, or when no table could be fitted).
    pub neighbours: Vec<NeighbourVerdict>,
}

/// What stopped a league.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// `games = N` was reached.
    BudgetSpent,
    /// Every covered neighbour pair was separated or within the margin.
    Settled,
    /// Fewer than two active entrants.
    NoOpponents,
}

/// Two neighbours of the final table and what the games say of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NeighbourVerdict {
    /// The upper one's place (0 the top).
    pub rank: u64,
    /// The upper neighbour's name.
    pub upper: String,
    /// The lower neighbour's name.
    pub lower: String,
    /// Rating difference, upper minus lower (BayesElo's scale).
    pub difference: f64,
    /// Its standard error.
    pub error: f64,
    /// Probability the upper one is the stronger.
    pub los: f64,
    /// With anytime intervals, the one-sided half-width (Elo) the
    /// difference must exceed to be separated; absent with fixed ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<f64>,
    /// The verdict.
    pub verdict: NeighbourState,
}

/// The verdict on two neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NeighbourState {
    /// The upper one is stronger at the confidence.
    Separated,
    /// Within the tie margin of each other at the confidence.
    WithinMargin,
    /// Neither.
    Open,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::BudgetSpent => "the budget of games is spent",
            StopReason::Settled => "every neighbour pair is separated or within the tie margin",
            StopReason::NoOpponents => "fewer than two entrants are still active",
        })
    }
}

impl std::fmt::Display for NeighbourVerdict {
    /// `2/3 a over b: +41.0 +/- 12.3 Elo, LOS 99.9%, separated` (the
    /// standard error after `+/-`), with anytime intervals `2/3 a over b:
    /// +41.0 +/- 12.3 Elo, anytime bound 45.0, LOS 99.9%, open`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.verdict {
            NeighbourState::Separated => "separated",
            NeighbourState::WithinMargin => "within the tie margin",
            NeighbourState::Open => "open",
        };
        let bound = self
            .bound
            .map_or(String::new(), |b| format!(", anytime bound {b:.1}"));
        write!(
            f,
            "{}/{} {} over {}: {:+.1} +/- {:.1} Elo{bound}, LOS {:.1}%, {state}",
            self.rank + 1,
            self.rank + 2,
            self.upper,
            self.lower,
            self.difference,
            self.error,
            100.0 * self.los
        )
    }
}

impl LeagueVerdict {
    /// The verdict in lines: the reason, then each neighbour pair.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "league stopped after {} games ({} pairs): {}",
            self.games, self.pairs, self.reason
        )];
        lines.extend(self.neighbours.iter().map(|n| format!("  {n}")));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_league_record_reads_back_with_its_keys_in_kebab_case() {
        let record = LeagueRecord {
            in_flight: 2,
            entrants: vec![EntrantRecord {
                name: "a".into(),
                joined: 0,
                joined_at: "2026-01-01T00:00:00Z".into(),
                retired_from: Some(7),
            }],
            intervals: LeagueIntervals::Fixed,
            verdict: Some(LeagueVerdict {
                reason: StopReason::BudgetSpent,
                pairs: 4,
                games: 8,
                neighbours: vec![NeighbourVerdict {
                    rank: 0,
                    upper: "a".into(),
                    lower: "b".into(),
                    difference: 41.0,
                    error: 12.3,
                    los: 0.9995,
                    bound: None,
                    verdict: NeighbourState::WithinMargin,
                }],
            }),
        };
        let text = serde_json::to_string(&record).unwrap();
        assert!(text.contains("\"reason\":\"budget-spent\""), "{text}");
        assert!(text.contains("\"verdict\":\"within-margin\""), "{text}");
        assert!(
            !text.contains("intervals") && !text.contains("bound"),
            "{text}"
        );
        let back: LeagueRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, record);
        let lines = record.verdict.unwrap().lines();
        assert_eq!(
            lines[1],
            "  1/2 a over b: +41.0 +/- 12.3 Elo, LOS 100.0%, within the tie margin"
        );
    }

    #[test]
    fn anytime_intervals_are_written_and_named() {
        let text = r#"{"in_flight":1,"entrants":[],"intervals":"anytime","verdict":{"reason":"settled","pairs":3,"games":6,"neighbours":[{"rank":0,"upper":"a","lower":"b","difference":50.0,"error":10.0,"los":1.0,"bound":36.6,"verdict":"separated"}]}}"#;
        let record: LeagueRecord = serde_json::from_str(text).unwrap();
        assert_eq!(record.intervals, LeagueIntervals::Anytime);
        assert_eq!(serde_json::to_string(&record).unwrap(), text);
        assert_eq!(
            record.verdict.unwrap().lines()[1],
            "  1/2 a over b: +50.0 +/- 10.0 Elo, anytime bound 36.6, LOS 100.0%, separated"
        );
        // A run.json from before the key reads as fixed-sample intervals.
        let old: LeagueRecord = serde_json::from_str(r#"{"in_flight":1,"entrants":[]}"#).unwrap();
        assert_eq!(old.intervals, LeagueIntervals::Fixed);
    }
}
