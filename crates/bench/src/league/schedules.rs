//! The schedules a league is measured against, each stopped by its own
//! rule, never by the truth: the bench asks afterwards whether the top k
//! each one declared is right.
//!
//! - **League**: the league's rule with `focus = "top-k"` and `until =
//!   "separated"` at 95%, as `aboure run` plays it; with fixed-sample or
//!   anytime intervals ([`aboure_league::Intervals`]).
//! - **Round robin**: whole cycles of every pairing, stopped after a cycle
//!   by the league's own verdict on the refit (every neighbour pair of
//!   the top k and the boundary below separated at 95%).
//! - **Swiss and playoff**: a Swiss qualifier of `ceil(log2 n) + 2`
//!   rounds, then round-robin cycles among its top `2k` (by points, ties
//!   by the refit), stopped after a cycle when the refit over every game
//!   separates the top k of those qualifiers and the boundary below.
//! - **LUCB** ([`super::lucb`]): an adaptive top-k identification rule
//!   from the bandit literature, on score statistics.
//!
//! Each plays at most a cap of pairs; one that reaches it declares the
//! top k of its last table, and counts as not stopped.

use aboure_league::{options, settled, swiss, Decision, Focus, Intervals, Rule, Separation, Table};
use aboure_stats::elo::bayeselo_scale;
use aboure_stats::{fit, BradleyTerryOptions, RatingScale, BAYESELO_PRIOR};

use super::run::Run;
pub use super::run::{IntervalCheck, Outcome};
use super::truth::TrueField;

/// A schedule and its stopping rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The league, stopping on its fixed-sample verdicts.
    League,
    /// The league, stopping on anytime verdicts.
    LeagueAnytime,
    /// Round-robin cycles, stopped on the league's verdict after a cycle.
    RoundRobin,
    /// A Swiss qualifier and a round-robin playoff among its top 2k.
    SwissPlayoff,
    /// LUCB1 on each entrant's score against random opponents.
    Lucb,
}

impl Method {
    /// Every method, in the order the figures print them.
    pub const ALL: [Method; 5] = [
        Method::League,
        Method::LeagueAnytime,
        Method::RoundRobin,
        Method::SwissPlayoff,
        Method::Lucb,
    ];

    /// The name the figures use.
    pub fn name(self) -> &'static str {
        match self {
            Method::League => "league",
            Method::LeagueAnytime => "league, anytime intervals",
            Method::RoundRobin => "round robin",
            Method::SwissPlayoff => "Swiss + playoff",
            Method::Lucb => "LUCB",
        }
    }
}

/// Plays `method` for the top `k` of `truth`, at most `cap` pairs.
pub fn play(method: Method, truth: &TrueField, k: usize, cap: usize, seed: u64) -> Outcome {
    let mut run = Run::new(truth, seed);
    let (stopped, declared) = match method {
        Method::League => league(&mut run, k, Intervals::FixedSample, cap, seed),
        Method::LeagueAnytime => league(&mut run, k, Intervals::Anytime, cap, seed),
        Method::RoundRobin => {
            let everyone: Vec<usize> = (0..truth.len()).collect();
            cycles(&mut run, &everyone, k, cap)
        }
        Method::SwissPlayoff => swiss_playoff(&mut run, k, cap, seed),
        Method::Lucb => return super::lucb::play(&mut run, k, cap, seed),
    };
    let intervals = match method {
        Method::LeagueAnytime => Intervals::Anytime,
        _ => Intervals::FixedSample,
    };
    Outcome {
        games: run.games(),
        stopped,
        declared,
        claims_order: true,
        intervals: truth
            .model_fits
            .then(|| check_intervals(&run, k, intervals, seed)),
    }
}

/// The verdict every fitted schedule stops on: the league's, at 95%.
fn verdict() -> Separation {
    Separation::at(0.95)
}

fn league(
    run: &mut Run,
    k: usize,
    intervals: Intervals,
    cap: usize,
    seed: u64,
) -> (bool, Vec<usize>) {
    let rule = Rule {
        focus: Focus::Top(k),
        until: Some(Separation {
            intervals,
            ..verdict()
        }),
        ..Rule::default()
    };
    let stopped = loop {
        match rule.next(&run.field(), seed) {
            Decision::Play(p) if run.pairs.len() < cap => {
                run.pair(p.south_first, p.north_first);
            }
            Decision::Settled(_) => break true,
            _ => break false,
        }
    };
    (stopped, top_among(run, None, k).1)
}

/// Whether the refit with the prior separates the top `k` of `among` (all
/// entrants if `None`) and the boundary below, and that top `k`.
fn top_among(run: &Run, among: Option<&[usize]>, k: usize) -> (bool, Vec<usize>) {
    let Some(mut table) = Table::with_prior(&run.field()) else {
        return (false, (0..k).collect());
    };
    if let Some(members) = among {
        table.order.retain(|e| members.contains(e));
    }
    let neighbours = verdict().neighbours(&table, Focus::Top(k));
    let top = table.order.iter().take(k).copied().collect();
    (settled(&neighbours), top)
}

/// Round-robin cycles among `members` (colours alternating by cycle),
/// each followed by the verdict, until it settles or the cap is reached.
fn cycles(run: &mut Run, members: &[usize], k: usize, cap: usize) -> (bool, Vec<usize>) {
    let pairings: Vec<(usize, usize)> = (0..members.len())
        .flat_map(|x| (x + 1..members.len()).map(move |y| (members[x], members[y])))
        .collect();
    let mut cycle = 0usize;
    loop {
        for &(a, b) in &pairings {
            if run.pairs.len() >= cap {
                return (false, top_among(run, Some(members), k).1);
            }
            if cycle.is_multiple_of(2) {
                run.pair(a, b);
            } else {
                run.pair(b, a);
            }
        }
        cycle += 1;
        let (settled, top) = top_among(run, Some(members), k);
        if settled {
            return (true, top);
        }
    }
}

fn swiss_playoff(run: &mut Run, k: usize, cap: usize, seed: u64) -> (bool, Vec<usize>) {
    let n = run.truth.len();
    let rounds = (n as f64).log2().ceil() as usize + 2;
    for _ in 0..rounds {
        for (a, b) in swiss::next_round(&run.field(), seed) {
            if run.pairs.len() >= cap {
                return (false, top_among(run, None, k).1);
            }
            run.pair(a, b);
        }
    }
    let points = run.field().points();
    let rating = Table::with_prior(&run.field()).map(|t| t.ratings.ratings);
    let r = |e: usize| rating.as_ref().map_or(0.0, |r| r[e]);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        (points[b].total_cmp(&points[a]))
            .then(r(b).total_cmp(&r(a)))
            .then(a.cmp(&b))
    });
    order.truncate((2 * k).min(n));
    cycles(run, &order, k, cap)
}

/// The 95% intervals (raw scale, BayesElo's prior, as a league's report
/// fits them) of `run`'s games against the centred true strengths.
fn check_intervals(run: &Run, k: usize, intervals: Intervals, seed: u64) -> IntervalCheck {
    let mut check = IntervalCheck::default();
    let truth = run.truth;
    let n = truth.len();
    let raw = BradleyTerryOptions {
        scale: RatingScale::Raw,
        prior: Some(BAYESELO_PRIOR),
        ..options()
    };
    let Ok(fitted) = fit(n, &run.field().games(), &raw) else {
        return check;
    };
    // The anytime factor is set on the table's (printed) scale.
    let printed = bayeselo_scale(fitted.draw_elo);
    let mean = truth.strength.iter().sum::<f64>() / n as f64;
    for (place, &e) in truth.order.iter().enumerate() {
        let sigma = fitted.errors[e] / 1.96;
        let half = intervals.two_sided(0.05, sigma * printed) * sigma;
        let covered = (fitted.ratings[e] - (truth.strength[e] - mean)).abs() <= half;
        let class = if place < k {
            0
        } else if place < n / 2 {
            1
        } else {
            2
        };
        check.classes[class].1 += 1;
        check.classes[class].0 += usize::from(covered);
        if e == seed as usize % n {
            check.chosen = covered;
        }
    }
    check
}
