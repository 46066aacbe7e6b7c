//! One rating per bot, or the reason there is none.
//!
//! Bradley-Terry ratings exist only for players linked by games, and are
//! finite only when no group of players took every point from another. A
//! report must not print numbers that mean nothing, so each of those cases
//! becomes a status and a sentence; players in separate groups are rated
//! within their group, and the report says the groups are not comparable.
//! A draw or first-move parameter that cannot be fitted (every game drawn,
//! South never lost) is held at BayesElo's default instead, with a note.
//! With a prior (BayesElo's virtual draws) no group is unbounded: the fit,
//! its profile likelihood and every bootstrap refit all count the same
//! virtual draws, so the intervals are of that one model.

use aboure_stats::bradley_terry::{
    bootstrap, cycles, goodness_of_fit, Bootstrap, BootstrapOptions, Cycle, FitTest, PairedResults,
};
use aboure_stats::{
    fit_counts_loosely_anchored, BradleyTerryOptions, LooseAnchor, RatingError, Wdl,
};
use serde::Serialize;

use crate::options::IntervalKind;

/// Why the ratings are what they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingStatus {
    /// Every player is rated on one scale.
    Ok,
    /// Fewer than two players.
    TooFewPlayers,
    /// Groups of players with no chain of games between them: ratings are
    /// comparable only within a group.
    Disconnected,
    /// Some group took every point from another: no finite ratings (for
    /// that group, when also disconnected). Never with a prior, whose
    /// virtual draws bound every rating.
    Unbounded,
    /// The fit failed for another reason (the message says which).
    Failed,
}

/// The ratings of all players.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Rated {
    pub status: RatingStatus,
    /// Sentences for the reader, in order.
    pub messages: Vec<String>,
    /// Rating and 95% interval (lower and upper ends, `None` when
    /// unbounded) of each player, if rated.
    pub elo: Vec<Option<(f64, aboure_stats::bradley_terry::Bounds)>>,
    /// Group of each player (index into `groups`).
    pub group: Vec<usize>,
    /// Groups of players linked by games, by smallest index.
    pub groups: Vec<Vec<usize>>,
    /// `los[i][j]`, when both are rated in the same group.
    pub los: Vec<Vec<Option<f64>>>,
    /// BayesElo's first-move advantage and draw parameter (raw scale), when
    /// one fit covers everybody.
    pub advantage: Option<f64>,
    /// See `advantage`.
    pub draw_elo: Option<f64>,
    /// The model's goodness of fit, when one fit covers everybody.
    pub fit: Option<FitTest>,
    /// Results that go round in a circle beyond noise.
    pub cycles: Vec<Cycle>,
}

/// Pairings listed as deviating most from the model.
pub const DEVIATIONS_LISTED: usize = 3;

/// Pearson's chi-square test of the Bradley-Terry model on the results
/// (see `aboure_stats::bradley_terry::goodness_of_fit`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitSummary {
    /// `sum z^2` over the pairings that met.
    pub chi_square: f64,
    /// Pairings that met, less the bots minus one.
    pub degrees_of_freedom: usize,
    /// Chance of so large a chi-square if the model holds (`null` without
    /// degrees of freedom).
    pub p_value: Option<f64>,
    /// The pairings that deviate most, the largest `|z|` first.
    pub deviations: Vec<Deviation>,
}

/// One pairing's observed and predicted points.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Deviation {
    /// The two bots.
    pub bots: [String; 2],
    /// Games between them.
    pub games: u64,
    /// Points of the first bot.
    pub observed: f64,
    /// Points the ratings predict for it.
    pub expected: f64,
    /// Standardized residual, `(observed - expected) / sd`.
    pub z: f64,
}

/// Three bots whose head-to-head results go round in a circle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CycleLine {
    /// `bots[0]` beat `bots[1]`, who beat `bots[2]`, who beat `bots[0]`.
    pub bots: [String; 3],
    /// Each leg's score per game, of its winner.
    pub scores: [f64; 3],
    /// Each leg's likelihood of superiority.
    pub los: [f64; 3],
}

impl Rated {
    /// The fit test and cycles, with the bots' names.
    pub(crate) fn diagnostics(&self, names: &[String]) -> (Option<FitSummary>, Vec<CycleLine>) {
        let fit = self.fit.as_ref().map(|t| FitSummary {
            chi_square: t.chi_square,
            degrees_of_freedom: t.degrees_of_freedom,
            p_value: t.p_value,
            deviations: t
                .pairings
                .iter()
                .take(DEVIATIONS_LISTED)
                .map(|p| Deviation {
                    bots: p.players.map(|i| names[i].clone()),
                    games: p.games,
                    observed: p.observed,
                    expected: p.expected,
                    z: p.z,
                })
                .collect(),
        });
        let cycles = self
            .cycles
            .iter()
            .map(|c| CycleLine {
                bots: c.players.map(|i| names[i].clone()),
                scores: c.scores,
                los: c.los,
            })
            .collect();
        (fit, cycles)
    }
}

/// How the intervals are computed, with what a bootstrap needs.
#[derive(Clone, Copy)]
pub(crate) enum IntervalSource<'a> {
    /// From the fit alone (covariance or profile likelihood).
    Fit(IntervalKind),
    /// A bootstrap over these game pairs.
    Bootstrap(&'a PairedResults, &'a BootstrapOptions),
}

/// Rates the players from their results by colour: `counts[i * n + j]` are
/// the games `i` played South against `j`, from `i`'s view; `prior` is the
/// virtual draws per player (`None`: maximum likelihood).
pub(crate) fn rate(
    names: &[String],
    counts: &[Wdl],
    anchors: (&[(usize, f64)], &[LooseAnchor]),
    intervals: IntervalSource<'_>,
    prior: Option<f64>,
) -> Rated {
    let n = names.len();
    let mut rated = Rated::unrated(n);
    if n < 2 {
        rated.status = RatingStatus::TooFewPlayers;
        rated
            .messages
            .push("fewer than two bots played: there is nothing to rate".to_owned());
        return rated;
    }
    let met = |i: usize, j: usize| counts[i * n + j].games() + counts[j * n + i].games() > 0;
    let groups = linked_groups(n, met);
    rated.set_groups(names, &groups);
    rated.cycles = cycles(n, counts);
    let single = groups.len() == 1;
    for members in groups.iter().filter(|m| m.len() >= 2) {
        match fit_members(members, n, counts, anchors, intervals, prior) {
            Ok(fit) => {
                rated.record(names, members, &fit);
                if single {
                    rated.advantage = Some(fit.ratings.advantage);
                    rated.draw_elo = Some(fit.ratings.draw_elo);
                    rated.fit = Some(goodness_of_fit(n, counts, &fit.ratings));
                }
            }
            Err(e) => rated.record_failure(names, members, e),
        }
    }
    rated
}

/// The fit of one linked group, with its notes and its bootstrap if the
/// intervals come from one.
struct GroupFit {
    ratings: aboure_stats::Ratings,
    notes: Vec<String>,
    bootstrap: Option<Bootstrap>,
}

/// Fits the group `members` (players of `counts`, `n` in all), held by the
/// anchors among them.
fn fit_members(
    members: &[usize],
    n: usize,
    counts: &[Wdl],
    (anchors, loose): (&[(usize, f64)], &[LooseAnchor]),
    intervals: IntervalSource<'_>,
    prior: Option<f64>,
) -> Result<GroupFit, RatingError> {
    let local = |p: usize| members.iter().position(|&m| m == p);
    let sub: Vec<Wdl> = members
        .iter()
        .flat_map(|&i| members.iter().map(move |&j| counts[i * n + j]))
        .collect();
    let local_anchors: Vec<(usize, f64)> = (anchors.iter())
        .filter_map(|&(p, elo)| local(p).map(|p| (p, elo)))
        .collect();
    let local_loose: Vec<LooseAnchor> = (loose.iter())
        .filter_map(|a| local(a.player).map(|player| LooseAnchor { player, ..*a }))
        .collect();
    let held = (&local_anchors[..], &local_loose[..]);
    let (ratings, notes, options) = fit_group(&sub, members.len(), held, intervals, prior)?;
    match intervals {
        IntervalSource::Bootstrap(paired, settings) => {
            let local = paired.restrict(members);
            let (ratings, b) = bootstrap(&local, &options, held, settings)?;
            Ok(GroupFit {
                ratings,
                notes,
                bootstrap: Some(b),
            })
        }
        IntervalSource::Fit(_) => Ok(GroupFit {
            ratings,
            notes,
            bootstrap: None,
        }),
    }
}

impl Rated {
    /// No player rated yet, all in one group.
    fn unrated(n: usize) -> Rated {
        Rated {
            status: RatingStatus::Ok,
            messages: Vec::new(),
            elo: vec![None; n],
            group: vec![0; n],
            groups: vec![(0..n).collect()],
            los: vec![vec![None; n]; n],
            advantage: None,
            draw_elo: None,
            fit: None,
            cycles: Vec::new(),
        }
    }

    /// Notes the linked groups; more than one is said in the messages.
    fn set_groups(&mut self, names: &[String], groups: &[Vec<usize>]) {
        for (g, members) in groups.iter().enumerate() {
            for &p in members {
                self.group[p] = g;
            }
        }
        if groups.len() > 1 {
            self.status = RatingStatus::Disconnected;
            let listed: Vec<String> = groups
                .iter()
                .enumerate()
                .map(|(g, m)| format!("group {}: {}", g + 1, join(names, m)))
                .collect();
            self.messages.push(format!(
                "no chain of games links these groups, so ratings are comparable only within a group ({})",
                listed.join("; ")
            ));
        }
        self.groups = groups.to_vec();
    }

    /// Takes the ratings, intervals and LOS of a group's fit.
    fn record(&mut self, names: &[String], members: &[usize], fit: &GroupFit) {
        self.messages.extend(fit.notes.iter().cloned());
        if let Some(b) = &fit.bootstrap {
            self.messages.extend(bootstrap_notes(names, members, b));
        }
        let ratings = &fit.ratings;
        for (a, &i) in members.iter().enumerate() {
            let (r, e) = (ratings.ratings[a], ratings.errors[a]);
            self.elo[i] = Some(match (&fit.bootstrap, &ratings.profile) {
                (Some(b), _) => (r, b.bounds[a]),
                (None, Some(bounds)) => (r, bounds[a]),
                (None, None) => (r, (Some(r - e), Some(r + e))),
            });
            for (b, &j) in members.iter().enumerate() {
                self.los[i][j] = Some(ratings.los[a][b]);
            }
        }
    }

    /// Says why a group has no ratings.
    fn record_failure(&mut self, names: &[String], members: &[usize], error: RatingError) {
        match error {
            RatingError::Unbounded { groups: strong } => {
                if self.status == RatingStatus::Ok {
                    self.status = RatingStatus::Unbounded;
                }
                let global: Vec<Vec<usize>> = strong
                    .iter()
                    .map(|g| g.iter().map(|&a| members[a]).collect())
                    .collect();
                self.messages.push(unbounded_sentence(names, &global));
            }
            e => {
                if self.status == RatingStatus::Ok {
                    self.status = RatingStatus::Failed;
                }
                self.messages
                    .push(format!("no ratings for {}: {e}", join(names, members)));
            }
        }
    }
}

/// Why a bootstrap interval is open or rests on fewer resamples, in words.
fn bootstrap_notes(names: &[String], members: &[usize], b: &Bootstrap) -> Vec<String> {
    let mut notes = Vec::new();
    for (a, &i) in members.iter().enumerate() {
        let name = &names[i];
        let samples = b.samples;
        if b.bounds[a].1.is_none() && b.above[a] > 0 {
            notes.push(format!(
                "{name}'s interval has no upper end: in {} of {samples} bootstrap resamples it (with its group) conceded no point to the others, so its rating there is +inf",
                b.above[a]
            ));
        }
        if b.bounds[a].0.is_none() && b.below[a] > 0 {
            notes.push(format!(
                "{name}'s interval has no lower end: in {} of {samples} bootstrap resamples its rating is -inf (another group conceded no point to the rest)",
                b.below[a]
            ));
        }
        if b.unrated[a] > 0 {
            notes.push(format!(
                "{name}: {} of {samples} bootstrap resamples give no rating (no finite fit); its interval is over the other resamples",
                b.unrated[a]
            ));
        }
    }
    notes
}

/// Fits one connected group, holding a parameter fixed when it cannot be
/// fitted; also gives the options it was fitted with (the bootstrap refits
/// with the same, the prior included).
fn fit_group(
    counts: &[Wdl],
    n: usize,
    (anchors, loose): (&[(usize, f64)], &[LooseAnchor]),
    intervals: IntervalSource<'_>,
    prior: Option<f64>,
) -> Result<(aboure_stats::Ratings, Vec<String>, BradleyTerryOptions), RatingError> {
    let mut options = BradleyTerryOptions {
        profile: matches!(intervals, IntervalSource::Fit(IntervalKind::Likelihood)),
        prior,
        ..Default::default()
    };
    let mut notes = Vec::new();
    for _ in 0..3 {
        match fit_counts_loosely_anchored(n, counts, &options, anchors, loose) {
            Err(RatingError::ParameterUnbounded {
                parameter: "advantage",
            }) => {
                options.fit_advantage = false;
                notes.push(
                    "the first-move advantage cannot be fitted on these results (one colour never lost or never won); it is held at 0".to_owned(),
                );
            }
            Err(RatingError::ParameterUnbounded {
                parameter: "draw_elo",
            }) => {
                options.fit_draw_elo = false;
                notes.push(format!(
                    "the draw parameter cannot be fitted on these results (no decisive game); it is held at BayesElo's default {}",
                    options.draw_elo
                ));
            }
            Err(RatingError::NoConvergence { .. }) if options.fit_advantage => {
                options.fit_advantage = false;
                notes.push(
                    "the fit with a first-move advantage did not converge on these results; the advantage is held at 0".to_owned(),
                );
            }
            Err(RatingError::NoConvergence { .. }) if options.fit_draw_elo => {
                options.fit_draw_elo = false;
                notes.push(format!(
                    "the fit did not converge with a fitted draw parameter; it is held at BayesElo's default {}",
                    options.draw_elo
                ));
            }
            other => return other.map(|r| (r, notes, options)),
        }
    }
    fit_counts_loosely_anchored(n, counts, &options, anchors, loose).map(|r| (r, notes, options))
}

fn unbounded_sentence(names: &[String], strong: &[Vec<usize>]) -> String {
    let rest: Vec<usize> = strong[1..].iter().flatten().copied().collect();
    format!(
        "ratings would be infinitely apart: {} conceded no point to {}, so no Elo is given",
        join(names, &strong[0]),
        join(names, &rest)
    )
}

fn join(names: &[String], members: &[usize]) -> String {
    members
        .iter()
        .map(|&i| names[i].as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Players linked by a chain of games, each group sorted, by smallest member.
fn linked_groups(n: usize, met: impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..n {
        for j in (i + 1..n).filter(|&j| met(i, j)) {
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index = vec![usize::MAX; n];
    for i in 0..n {
        let r = root(&mut parent, i);
        if index[r] == usize::MAX {
            index[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[index[r]].push(i);
    }
    groups
}
