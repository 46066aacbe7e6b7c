//! The report model: every figure the outputs show, computed once from the
//! counts a [`ReportTally`] keeps. Text, JSON and HTML only format it.

use aboure_records::{GameRecord, SandboxLayers, Standing, Termination};
use aboure_stats::bradley_terry::{BootstrapOptions, PairedResults};
use aboure_stats::{LooseAnchor, Pentanomial, Wdl};
use serde::Serialize;

use crate::accuracy::AccuracyReport;
use crate::input::Input;
use crate::options::{IntervalKind, ReportOptions};
use crate::pairings::{pairing, Pairing};
use crate::ratings::{rate, CycleLine, FitSummary, IntervalSource, RatingStatus};
use crate::sprt::{sprt_report, SprtReport};
use crate::tally::ReportTally;

/// Version of the JSON schema (see the crate docs); bumped when a field
/// changes meaning or disappears.
pub const SCHEMA_VERSION: u32 = 1;

/// A tournament's results, rated and summarised.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Games counted (duplicates once).
    pub games: u64,
    /// Complete game pairs.
    pub pairs: u64,
    /// The results files read.
    pub files: Vec<String>,
    /// Problems in the files and duplicate ids, and notes about the ratings.
    pub warnings: Vec<String>,
    /// The bots, best first.
    pub players: Vec<PlayerLine>,
    /// How the ratings came out.
    pub ratings: RatingsSummary,
    /// Likelihood of superiority between rated bots.
    pub los: LosMatrix,
    /// Results of each bot against each other.
    pub crosstable: Crosstable,
    /// Every pair of bots that met, with head-to-head statistics.
    pub pairings: Vec<Pairing>,
    /// The games lost by forfeit, the first [`crate::FAILURES_LISTED`] of them.
    pub failures: Vec<Failure>,
    /// Games lost by forfeit beyond those listed in `failures` (in the JSON
    /// only when there are some; the counts per bot include them).
    #[serde(skip_serializing_if = "is_zero")]
    pub failures_left_out: u64,
    /// The SPRT, for a run with `format = "sprt"`.
    pub sprt: Option<SprtReport>,
    /// The sandbox layers the run was played under, when its `run.json`
    /// records them (absent from the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxLayers>,
    /// A league's leaderboard, verdict and ratings over time (absent from
    /// the JSON for other runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub league: Option<crate::league::LeagueReport>,
    /// Per-move accuracy against the exact solver, when analysed.
    pub accuracy: Option<AccuracyReport>,
    /// The games the HTML game list and viewer show (see
    /// [`ReportOptions::viewer_games`]), as their lines of `games.jsonl`:
    /// the page reads them one at a time.
    #[serde(skip)]
    pub records: Vec<Box<[u8]>>,
    /// Games left out of `records`.
    #[serde(skip)]
    pub records_left_out: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One bot's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerLine {
    /// 1 for the best.
    pub rank: usize,
    /// The bot's name.
    pub name: String,
    /// Rating (`null` when there is none, see `ratings.status`).
    pub elo: Option<f64>,
    /// Lower end of the 95% interval.
    pub elo_low: Option<f64>,
    /// Upper end of the 95% interval.
    pub elo_high: Option<f64>,
    /// Group of bots linked by games (1-based); ratings compare within a group.
    pub group: usize,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Points (wins plus half the draws).
    pub points: f64,
    /// Points per game.
    pub score: f64,
    /// Draws per game.
    pub draw_ratio: f64,
    /// Games lost by forfeit, by kind.
    pub failures: FailureCounts,
}

/// Forfeits of one bot by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FailureCounts {
    /// Out of time.
    pub time: u64,
    /// Illegal or unparsable move.
    pub illegal: u64,
    /// Crashed, exited or closed its pipe.
    pub crash: u64,
    /// Protocol violation, start-up failure, resource limit.
    pub other: u64,
}

impl FailureCounts {
    /// A bot's forfeits by kind (see [`failure_kind`]).
    pub fn of(standing: &Standing) -> FailureCounts {
        let mut c = FailureCounts::default();
        for (&termination, &n) in &standing.failures {
            c.add(failure_kind(termination), n);
        }
        c
    }

    /// All forfeits.
    pub fn total(&self) -> u64 {
        self.time + self.illegal + self.crash + self.other
    }

    /// Counts `n` forfeits of `kind`.
    pub fn add(&mut self, kind: FailureKind, n: u64) {
        match kind {
            FailureKind::Time => self.time += n,
            FailureKind::Illegal => self.illegal += n,
            FailureKind::Crash => self.crash += n,
            FailureKind::Other => self.other += n,
        }
    }
}

/// The kind of a forfeit, as the standings count it; serialised as its
/// [`FailureKind::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// Out of time.
    Time,
    /// Illegal or unparsable move.
    Illegal,
    /// Crashed, exited or closed its pipe.
    Crash,
    /// Protocol violation, start-up failure, resource limit.
    Other,
}

impl FailureKind {
    /// `time`, `illegal`, `crash` or `other`.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Time => "time",
            FailureKind::Illegal => "illegal",
            FailureKind::Crash => "crash",
            FailureKind::Other => "other",
        }
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of forfeit a termination is, as the standings count it.
pub fn failure_kind(t: Termination) -> FailureKind {
    match t {
        Termination::TimeForfeit => FailureKind::Time,
        Termination::IllegalMove => FailureKind::Illegal,
        Termination::Crash => FailureKind::Crash,
        _ => FailureKind::Other,
    }
}

/// The fit as a whole.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingsSummary {
    /// `ok`, `too_few_players`, `disconnected`, `unbounded` or `failed`.
    pub status: RatingStatus,
    /// What the reader should know, in words.
    pub messages: Vec<String>,
    /// Groups of bots linked by games.
    pub groups: Vec<Vec<String>>,
    /// BayesElo's first-move advantage (South's edge, raw model scale).
    pub first_move_advantage: Option<f64>,
    /// BayesElo's draw parameter (raw model scale).
    pub draw_elo: Option<f64>,
    /// The first anchored bot and its rating, if any.
    pub anchor: Option<(String, f64)>,
    /// Every anchored bot and its rating (fixed anchors).
    pub anchors: Vec<(String, f64)>,
    /// Every loosely anchored bot, its prior's mean and standard deviation.
    pub loose_anchors: Vec<(String, f64, f64)>,
    /// `covariance`, `likelihood` or `bootstrap`: how the 95% intervals
    /// were computed.
    pub intervals: IntervalKind,
    /// The bootstrap's resamples and seed, when the intervals are one's.
    pub bootstrap: Option<BootstrapSettings>,
    /// How well the model fits the results, when one fit covers every bot.
    pub fit: Option<FitSummary>,
    /// Results that go round in a circle beyond noise (no ratings can
    /// express them).
    pub cycles: Vec<CycleLine>,
}

/// How a bootstrap was drawn, so that it can be drawn again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BootstrapSettings {
    /// Resamples of the game pairs.
    pub samples: usize,
    /// Their seed.
    pub seed: u64,
}

impl BootstrapSettings {
    fn of(options: &BootstrapOptions) -> BootstrapSettings {
        BootstrapSettings {
            samples: options.samples,
            seed: options.seed,
        }
    }
}

/// `matrix[i][j]`: likelihood that `players[i]` is stronger than
/// `players[j]` (`null` when not both rated in one group).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LosMatrix {
    /// The bots, in standings order.
    pub players: Vec<String>,
    /// The likelihoods.
    pub matrix: Vec<Vec<Option<f64>>>,
}

/// Results of each bot (row) against each other (column).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Crosstable {
    /// The bots, in standings order.
    pub players: Vec<String>,
    /// `cells[i][j]`: row bot's results against the column bot, `null`
    /// when they did not meet (and on the diagonal).
    pub cells: Vec<Vec<Option<Cell>>>,
}

/// One crosstable cell.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// Games played.
    pub games: u64,
    /// Points of the row bot.
    pub points: f64,
    /// Wins of the row bot.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of the row bot.
    pub losses: u64,
    /// Complete pairs from the row bot's view.
    pub pentanomial: Pentanomial,
}

/// A game lost by forfeit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Failure {
    /// The game id.
    pub game: String,
    /// The bot that forfeited.
    pub bot: String,
    /// `time`, `illegal`, `crash` or `other`.
    pub kind: FailureKind,
    /// The termination as recorded.
    pub termination: Termination,
    /// What happened, as recorded.
    pub detail: Option<String>,
}

impl Report {
    /// The games the page shows (`records`), read back.
    pub fn shown_games(&self) -> impl Iterator<Item = GameRecord> + '_ {
        self.records
            .iter()
            .filter_map(|line| serde_json::from_slice(line).ok())
    }

    /// The report of one run's games (as the arbiter has them at the end).
    pub fn build(games: &[GameRecord], options: &ReportOptions) -> Report {
        Report::from_input(&Input::from_games(games), options)
    }

    /// The report of games read from files (see [`crate::load`]).
    pub fn from_input(input: &Input, options: &ReportOptions) -> Report {
        let mut tally = ReportTally::new(options.clone());
        tally.adopt(&input.files, &input.warnings);
        for (game, &file) in input.games.iter().zip(&input.sources) {
            tally.in_file(file);
            tally.push_record(game);
        }
        tally.finish()
    }

    /// The report of what `tally` has counted.
    pub(crate) fn from_tally(tally: &ReportTally, accuracy: Option<AccuracyReport>) -> Report {
        let options = &tally.options;
        let names = &tally.names;
        let n = names.len();
        let mut warnings = tally.warnings();
        // Results by colour for the fit, and both colours together (`wdl[i][j]`
        // from i's view) for the tables.
        let mut by_colour = vec![Wdl::default(); n * n];
        let mut wdl = vec![vec![Wdl::default(); n]; n];
        for (s, row) in tally.results.iter().enumerate() {
            for (t, &r) in row.iter().enumerate() {
                by_colour[s * n + t] = r;
                wdl[s][t] += r;
                wdl[t][s] += r.reversed();
            }
        }
        let anchors: Vec<(usize, f64)> = (options.anchors.iter())
            .filter_map(|(name, elo)| match names.iter().position(|x| x == name) {
                Some(i) => Some((i, *elo)),
                None => {
                    warnings.push(format!(
                        "anchor {name:?} played no game here; it anchors nothing"
                    ));
                    None
                }
            })
            .collect();
        let loose: Vec<LooseAnchor> = (options.loose_anchors.iter())
            .filter_map(
                |(name, elo, sd)| match names.iter().position(|x| x == name) {
                    Some(player) => Some(LooseAnchor {
                        player,
                        rating: *elo,
                        sd: *sd,
                    }),
                    None => {
                        warnings.push(format!(
                            "loose anchor {name:?} played no game here; it anchors nothing"
                        ));
                        None
                    }
                },
            )
            .collect();
        let paired = (options.intervals == IntervalKind::Bootstrap).then(|| {
            let mut paired = PairedResults::new(n, &by_colour);
            for (a, b, pairs) in tally.pairs.seated() {
                if let Err(e) = paired.pair_up(a, b, pairs) {
                    warnings.push(format!("the bootstrap resamples some games singly: {e}"));
                }
            }
            paired
        });
        let source = match &paired {
            Some(p) => IntervalSource::Bootstrap(p, &options.bootstrap),
            None => IntervalSource::Fit(options.intervals),
        };
        let rated = rate(names, &by_colour, (&anchors, &loose), source);
        let (fit, cycles) = rated.diagnostics(names);

        // Standings order: by group, then rating, then score.
        let standing = |i: usize| tally.standings.get(i);
        let totals: Vec<Wdl> = (0..n)
            .map(|i| standing(i).map(|s| s.wdl).unwrap_or_default())
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        let key = |i: usize| {
            (
                rated.elo[i].map_or(f64::NEG_INFINITY, |e| e.0),
                totals[i].score().unwrap_or(0.0),
            )
        };
        order.sort_by(|&a, &b| {
            rated.group[a].cmp(&rated.group[b]).then_with(|| {
                let (ka, kb) = (key(a), key(b));
                kb.0.total_cmp(&ka.0)
                    .then(kb.1.total_cmp(&ka.1))
                    .then(names[a].cmp(&names[b]))
            })
        });
        let players: Vec<PlayerLine> = order
            .iter()
            .enumerate()
            .map(|(rank, &i)| {
                let t = totals[i];
                let games = t.games();
                PlayerLine {
                    rank: rank + 1,
                    name: names[i].clone(),
                    elo: rated.elo[i].map(|e| e.0),
                    elo_low: rated.elo[i].and_then(|e| e.1 .0),
                    elo_high: rated.elo[i].and_then(|e| e.1 .1),
                    group: rated.group[i] + 1,
                    games,
                    wins: t.wins,
                    draws: t.draws,
                    losses: t.losses,
                    points: t.points(),
                    score: t.score().unwrap_or(0.0),
                    draw_ratio: if games > 0 {
                        t.draws as f64 / games as f64
                    } else {
                        0.0
                    },
                    failures: standing(i).map(FailureCounts::of).unwrap_or_default(),
                }
            })
            .collect();
        let ordered_names: Vec<String> = order.iter().map(|&i| names[i].clone()).collect();
        let crosstable = Crosstable {
            players: ordered_names.clone(),
            cells: order
                .iter()
                .map(|&i| {
                    order
                        .iter()
                        .map(|&j| {
                            let w = wdl[i][j];
                            (w.games() > 0).then_some(Cell {
                                games: w.games(),
                                points: w.points(),
                                wins: w.wins,
                                draws: w.draws,
                                losses: w.losses,
                                pentanomial: tally.pairs.pentanomial(i, j),
                            })
                        })
                        .collect()
                })
                .collect(),
        };
        let los = LosMatrix {
            players: ordered_names,
            matrix: order
                .iter()
                .map(|&i| order.iter().map(|&j| rated.los[i][j]).collect())
                .collect(),
        };
        // Pairings by first meeting; the first-named bot is the earlier one.
        let mut pairings = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let games = wdl[a][b].games();
                if games > 0 {
                    let penta = tally.pairs.pentanomial(a, b);
                    pairings.push(pairing(
                        [&names[a], &names[b]],
                        wdl[a][b],
                        penta,
                        games - 2 * penta.pairs(),
                    ));
                }
            }
        }
        let sprt = options
            .sprt
            .as_ref()
            .and_then(|s| sprt_report(s, names, &tally.pairs.in_order()));
        let (records, records_left_out) = tally.viewer_games();
        let league = options.league.as_ref().map(|record| {
            let history = tally.history.clone().unwrap_or_default();
            let last = (tally.games, tally.results.as_slice());
            crate::league::league_report(record, &players, names, &history, last)
        });
        Report {
            schema_version: SCHEMA_VERSION,
            games: tally.games,
            pairs: tally.pairs.pairs(),
            files: tally
                .files
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
            warnings,
            players,
            ratings: RatingsSummary {
                status: rated.status,
                messages: rated.messages,
                groups: rated
                    .groups
                    .iter()
                    .map(|g| g.iter().map(|&i| names[i].clone()).collect())
                    .collect(),
                first_move_advantage: rated.advantage,
                draw_elo: rated.draw_elo,
                anchor: anchors.first().map(|&(i, elo)| (names[i].clone(), elo)),
                loose_anchors: (loose.iter())
                    .map(|a| (names[a.player].clone(), a.rating, a.sd))
                    .collect(),
                anchors: (anchors.iter())
                    .map(|&(i, elo)| (names[i].clone(), elo))
                    .collect(),
                intervals: options.intervals,
                bootstrap: paired
                    .is_some()
                    .then(|| BootstrapSettings::of(&options.bootstrap)),
                fit,
                cycles,
            },
            los,
            crosstable,
            pairings,
            failures: tally.failures.clone(),
            failures_left_out: tally.failures_total - tally.failures.len() as u64,
            sprt,
            sandbox: options.sandbox.clone(),
            league,
            accuracy,
            records_left_out,
            records,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_kinds_serialise_as_their_names() {
        let kinds = [
            (Termination::TimeForfeit, "time"),
            (Termination::IllegalMove, "illegal"),
            (Termination::Crash, "crash"),
            (Termination::ProtocolViolation, "other"),
        ];
        for (termination, name) in kinds {
            let kind = failure_kind(termination);
            assert_eq!(kind.to_string(), name);
            assert_eq!(serde_json::to_string(&kind).unwrap(), format!("\"{name}\""));
        }
    }
}
