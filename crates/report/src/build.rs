//! Building the report model: every figure of a [`Report`], computed once
//! from the counts a [`ReportTally`] keeps (the model is in
//! [`crate::report`], the counting in [`crate::tally`]; this module is the
//! only one that knows both).

use aboure_records::GameRecord;
use aboure_stats::bradley_terry::PairedResults;
use aboure_stats::{LooseAnchor, Wdl};

use crate::accuracy::AccuracyReport;
use crate::analysis::Analysis;
use crate::failure::FailureCounts;
use crate::input::Input;
use crate::options::{IntervalKind, ReportOptions};
use crate::pairings::pairing;
use crate::ratings::{rate, IntervalSource};
use crate::report::{
    BootstrapSettings, Cell, Crosstable, LosMatrix, PlayerLine, RatingsSummary, Report,
    SCHEMA_VERSION,
};
use crate::sprt::sprt_report;
use crate::tally::ReportTally;

impl Report {
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
        let rated = rate(names, &by_colour, (&anchors, &loose), source, options.prior);
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
            let standing: Vec<(&str, usize, Option<f64>)> = (players.iter())
                .map(|p| (p.name.as_str(), p.rank, p.elo))
                .collect();
            crate::league::league_report(record, &standing, names, &history, last, options.prior)
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
                prior: options.prior.unwrap_or(0.0),
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

impl ReportTally {
    /// The report of the games pushed so far. The accuracy figures count
    /// the games analysed so far (the analysis runs behind the reading).
    pub fn report(&mut self) -> Report {
        let accuracy = self.analysis.as_mut().map(Analysis::report);
        Report::from_tally(self, accuracy)
    }

    /// Waits for the accuracy analysis of every game, then gives the report.
    pub fn finish(mut self) -> Report {
        self.finish_with_stream().0
    }

    /// As [`ReportTally::finish`], also giving the error of writing the stream of
    /// analyses (see [`ReportTally::write_all_analyses_to`]), if there was one.
    pub fn finish_with_stream(&mut self) -> (Report, Option<std::io::Error>) {
        self.end_file();
        let (accuracy, error): (Option<AccuracyReport>, _) = match &mut self.analysis {
            Some(a) => {
                let (r, e) = a.finish();
                (Some(r), e)
            }
            None => (None, None),
        };
        (Report::from_tally(self, accuracy), error)
    }
}
