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
use crate::player_line::PlayerLine;
use crate::ratings::{rate, IntervalSource, Rated};
use crate::report::{
    BootstrapSettings, Cell, Crosstable, LosMatrix, RatingsSummary, Report, SCHEMA_VERSION,
};
use crate::sprt_report::sprt_report;
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
        let mut warnings = tally.warnings();
        let (by_colour, wdl) = result_tables(tally);
        let anchors = Anchors::find(options, names, &mut warnings);
        let paired = (options.intervals == IntervalKind::Bootstrap)
            .then(|| paired_results(tally, &by_colour, &mut warnings));
        let source = match &paired {
            Some(p) => IntervalSource::Bootstrap(p, &options.bootstrap),
            None => IntervalSource::Fit(options.intervals),
        };
        let rated = rate(
            names,
            &by_colour,
            (&anchors.fixed, &anchors.loose),
            source,
            options.prior,
        );
        let totals: Vec<Wdl> = (0..names.len())
            .map(|i| tally.standings.get(i).map(|s| s.wdl).unwrap_or_default())
            .collect();
        let order = standings_order(names, &rated, &totals);
        let players = player_lines(tally, &order, &rated, &totals);
        let crosstable = crosstable(tally, &order, &wdl);
        let los = LosMatrix {
            players: crosstable.players.clone(),
            matrix: order
                .iter()
                .map(|&i| order.iter().map(|&j| rated.los[i][j]).collect())
                .collect(),
        };
        let sprt = options
            .sprt
            .as_ref()
            .and_then(|s| sprt_report(s, names, &tally.pairs.in_order()));
        let (records, records_left_out) = tally.viewer_games();
        let league = options.league.as_ref().map(|record| {
            let history = tally.history.clone().unwrap_or_default();
            let last = (tally.games, tally.results.as_slice());
            crate::league_report::league_report(
                record,
                &players,
                names,
                &history,
                last,
                options.prior,
            )
        });
        Report {
            schema_version: SCHEMA_VERSION,
            games: tally.games,
            pairs: tally.pairs.pairs(),
            files: (tally.files.iter())
                .map(|f| f.display().to_string())
                .collect(),
            warnings,
            players,
            ratings: ratings_summary(options, names, rated, &anchors, paired.is_some()),
            los,
            crosstable,
            pairings: pairings(tally, &wdl),
            failures: tally.failures.clone(),
            failures_left_out: tally.failures_total - tally.failures.len() as u64,
            sprt,
            sandbox: options.sandbox.clone(),
            openings: tally.book.as_ref().map(|b| b.report(names)),
            league,
            accuracy,
            records_left_out,
            records,
        }
    }
}

/// Results by colour for the fit (`by_colour[s * n + t]`, South `s`
/// against North `t`), and both colours together for the tables
/// (`wdl[i][j]` from i's view).
fn result_tables(tally: &ReportTally) -> (Vec<Wdl>, Vec<Vec<Wdl>>) {
    let n = tally.names.len();
    let mut by_colour = vec![Wdl::default(); n * n];
    let mut wdl = vec![vec![Wdl::default(); n]; n];
    for (s, row) in tally.results.iter().enumerate() {
        for (t, &r) in row.iter().enumerate() {
            by_colour[s * n + t] = r;
            wdl[s][t] += r;
            wdl[t][s] += r.reversed();
        }
    }
    (by_colour, wdl)
}

/// The options' anchors that played here, by player index.
struct Anchors {
    /// Fixed ratings: (player, Elo).
    fixed: Vec<(usize, f64)>,
    /// Ratings held by a prior of their own.
    loose: Vec<LooseAnchor>,
}

impl Anchors {
    /// The anchors of `options` among `names`; one that played no game
    /// anchors nothing, and says so in `warnings`.
    fn find(options: &ReportOptions, names: &[String], warnings: &mut Vec<String>) -> Anchors {
        let mut index = |name: &str, what: &str| {
            let found = names.iter().position(|x| x == name);
            if found.is_none() {
                warnings.push(format!(
                    "{what}{name:?} played no game here; it anchors nothing"
                ));
            }
            found
        };
        let fixed = (options.anchors.iter())
            .filter_map(|(name, elo)| index(name, "anchor ").map(|i| (i, *elo)))
            .collect();
        let loose = (options.loose_anchors.iter())
            .filter_map(|(name, elo, sd)| {
                index(name, "loose anchor ").map(|player| LooseAnchor {
                    player,
                    rating: *elo,
                    sd: *sd,
                })
            })
            .collect();
        Anchors { fixed, loose }
    }
}

/// The games paired for the bootstrap; a pair that cannot be matched is
/// resampled game by game, with a warning.
fn paired_results(
    tally: &ReportTally,
    by_colour: &[Wdl],
    warnings: &mut Vec<String>,
) -> PairedResults {
    let mut paired = PairedResults::new(tally.names.len(), by_colour);
    for (a, b, pairs) in tally.pairs.seated() {
        if let Err(e) = paired.pair_up(a, b, pairs) {
            warnings.push(format!("the bootstrap resamples some games singly: {e}"));
        }
    }
    paired
}

/// The standings order: by group, then rating, then score, then name.
fn standings_order(names: &[String], rated: &Rated, totals: &[Wdl]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..names.len()).collect();
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
    order
}

/// One line of the standings for each player, in `order`.
fn player_lines(
    tally: &ReportTally,
    order: &[usize],
    rated: &Rated,
    totals: &[Wdl],
) -> Vec<PlayerLine> {
    let line = |rank: usize, i: usize| {
        let t = totals[i];
        let games = t.games();
        PlayerLine {
            rank: rank + 1,
            name: tally.names[i].clone(),
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
            failures: (tally.standings.get(i))
                .map(FailureCounts::of)
                .unwrap_or_default(),
        }
    };
    order
        .iter()
        .enumerate()
        .map(|(rank, &i)| line(rank, i))
        .collect()
}

/// The crosstable of the players in `order`.
fn crosstable(tally: &ReportTally, order: &[usize], wdl: &[Vec<Wdl>]) -> Crosstable {
    let cell = |i: usize, j: usize| {
        let w = wdl[i][j];
        (w.games() > 0).then_some(Cell {
            games: w.games(),
            points: w.points(),
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
            pentanomial: tally.pairs.pentanomial(i, j),
        })
    };
    Crosstable {
        players: order.iter().map(|&i| tally.names[i].clone()).collect(),
        cells: (order.iter())
            .map(|&i| order.iter().map(|&j| cell(i, j)).collect())
            .collect(),
    }
}

/// The pairings that met, by first meeting; the first-named bot is the
/// earlier one.
fn pairings(tally: &ReportTally, wdl: &[Vec<Wdl>]) -> Vec<crate::pairings::Pairing> {
    let names = &tally.names;
    let mut pairings = Vec::new();
    for a in 0..names.len() {
        for b in a + 1..names.len() {
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
    pairings
}

/// How the ratings were fitted, and from what.
fn ratings_summary(
    options: &ReportOptions,
    names: &[String],
    rated: Rated,
    anchors: &Anchors,
    bootstrap: bool,
) -> RatingsSummary {
    let (fit, cycles) = rated.diagnostics(names);
    RatingsSummary {
        status: rated.status,
        messages: rated.messages,
        groups: (rated.groups.iter())
            .map(|g| g.iter().map(|&i| names[i].clone()).collect())
            .collect(),
        first_move_advantage: rated.advantage,
        draw_elo: rated.draw_elo,
        anchor: (anchors.fixed.first()).map(|&(i, elo)| (names[i].clone(), elo)),
        loose_anchors: (anchors.loose.iter())
            .map(|a| (names[a.player].clone(), a.rating, a.sd))
            .collect(),
        anchors: (anchors.fixed.iter())
            .map(|&(i, elo)| (names[i].clone(), elo))
            .collect(),
        intervals: options.intervals,
        prior: options.prior.unwrap_or(0.0),
        bootstrap: bootstrap.then(|| BootstrapSettings::of(&options.bootstrap)),
        fit,
        cycles,
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
