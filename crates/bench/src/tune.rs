//! The measured recovery of a badly set bot (`aboure bench tune`): alphabeta
//! starts with its row weight of the wrong sign, and SPSA (`aboure-spsa`)
//! brings it back under each objective, in-process, at each of several
//! budgets and over several seeds (a single lucky run at a small budget is
//! not a measurement):
//!
//! - `accuracy`: each iteration scores `theta + c delta` and
//!   `theta - c delta` by the exact mean seeds lost per move on the tuner's
//!   own sample of informative positions ([`aboure_tuning::sample`],
//!   seeded by the seed), against the solver's move values, computed once.
//!   With the same seed, the same positions and the same perturbations this
//!   is the path `aboure tune` follows through bot processes (alphabeta is
//!   deterministic at a node budget), so the values found here are the ones
//!   a process tune finds, at a fraction of its CPU time;
//! - `games`: each iteration plays one game pair between the two points from
//!   a fresh random opening, colours swapped, as fishtest does.
//!
//! Each tune's CPU time is read on its own thread's clock (the sample and the
//! solver's values are charged to `accuracy`), and the Elo each tuned value
//! gained is measured by a match of game pairs against the bad start, with
//! fastchess's pentanomial 95% interval (the same openings for every value,
//! so the match is a function of the value and is played once per value).

use std::collections::BTreeMap;
use std::fmt;

use aboure_bots::{configure, AlphaBetaPlayer};
use aboure_engine::{Position, Side};
use aboure_protocol::duel::{play, Seat};
use aboure_protocol::{Player, SearchLimits};
use aboure_spsa::{Parameter, Spsa, SpsaSettings};
use aboure_stats::{Estimate, Pentanomial, PlayerResult};
use aboure_tuning::{random_opening as opening, sample, Scored};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::cpu::thread_seconds;
use crate::duel::result;
use crate::search::Local;

/// Alphabeta's nodes a move, in every game and every scored position.
const NODES: u64 = 1_500;
/// The tuned option by default.
pub const OPTION: &str = "row_weight";
/// Its bad start by default (its default is +50: the wrong sign).
pub const BAD_START: f64 = -50.0;
/// The bot's own range for the option.
const RANGE: (f64, f64) = (-1000.0, 1000.0);
/// The step `c_end` by default.
pub const STEP: f64 = 10.0;

/// What the recovery runs are given.
#[derive(Clone, Debug)]
pub struct Budget {
    /// The tuned evaluation weight of alphabeta, and its bad start.
    pub weight: Weight,
    /// The budgets, in SPSA iterations, of the `accuracy` objective.
    pub accuracy_iterations: Vec<u32>,
    /// Informative positions in its sample.
    pub positions: usize,
    /// Its learning rate at the end (its gain is in seeds a move).
    pub accuracy_r_end: f64,
    /// The budgets, in SPSA iterations of one game pair, of `games`.
    pub games_iterations: Vec<u32>,
    /// Its learning rate at the end (its gain is wins minus losses).
    pub games_r_end: f64,
    /// Game pairs of each confirming match against the bad start.
    pub pairs: u32,
    /// Tunes per budget, with seeds 1 to `seeds`.
    pub seeds: u32,
}

/// An evaluation weight of alphabeta (`row_weight`, `mobility_weight`,
/// `targets_weight`) and the bad value a tune starts from.
#[derive(Clone, Debug)]
pub struct Weight {
    /// The option's name.
    pub option: String,
    /// The bad start.
    pub start: f64,
    /// The perturbation at the last iteration (`c_end`).
    pub step: f64,
}

/// One tune and what it gained.
#[derive(Clone, Debug)]
pub struct Recovery {
    /// `accuracy` or `games`.
    pub objective: &'static str,
    /// SPSA iterations run.
    pub iterations: u32,
    /// The tune's seed (its sample, openings and perturbations).
    pub seed: u64,
    /// Games the tune played (the sample's games for `accuracy`).
    pub games: u64,
    /// CPU seconds of the tune.
    pub cpu_seconds: f64,
    /// Of them, the sample and its solver values (`accuracy` only).
    pub sample_seconds: f64,
    /// Positions valued for the sample, and kept as informative.
    pub sample: Option<(usize, usize)>,
    /// The tuned weight.
    pub weight: Weight,
    /// The tuned value, as sent to the bot.
    pub value: f64,
    /// The tuned bot against the bad start.
    pub elo: Estimate,
}

fn describe(elo: &Estimate) -> String {
    match elo.interval() {
        Some(i) => format!("{:+.0} +/- {:.0}", i.value, i.error().unwrap_or(f64::NAN)),
        None => format!("{elo:?}"),
    }
}

impl fmt::Display for Recovery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sample = match self.sample {
            Some((valued, kept)) => format!(
                " ({:.2} s the sample: {kept} informative of {valued} positions valued)",
                self.sample_seconds
            ),
            None => String::new(),
        };
        write!(
            f,
            "{} {} iterations, seed {}: {} games, {:.3} s CPU{sample}, {} {} -> {}, Elo against the start {}",
            self.objective, self.iterations, self.seed, self.games, self.cpu_seconds,
            self.weight.option, self.weight.start, self.value,
            describe(&self.elo)
        )
    }
}

/// The matches of tuned values against the bad start, played once each.
struct Matches {
    weight: Weight,
    pairs: u32,
    played: BTreeMap<i64, Estimate>,
}

impl Matches {
    fn new(weight: &Weight, pairs: u32) -> Matches {
        Matches {
            weight: weight.clone(),
            pairs,
            played: BTreeMap::new(),
        }
    }

    fn elo(&mut self, value: f64) -> Estimate {
        let (weight, pairs) = (&self.weight, self.pairs);
        *self
            .played
            .entry(value as i64)
            .or_insert_with(|| confirm(weight, value, pairs))
    }
}

/// Every tune of `budget`, a summary line per objective and budget, and
/// the default value's Elo against the start (the gain a recovery aims at).
pub fn recover(budget: &Budget) -> Vec<String> {
    let weight = &budget.weight;
    let mut matches = Matches::new(weight, budget.pairs);
    let Some(default) = default_of(&weight.option) else {
        return vec![format!("alphabeta has no int option {}", weight.option)];
    };
    let target = matches.elo(default);
    let mut lines = vec![format!(
        "the default {} {default} against the start {}: Elo {}",
        weight.option,
        weight.start,
        describe(&target)
    )];
    let floor = target.interval().and_then(|i| i.lower).unwrap_or(0.0);
    let seeds = 1..=u64::from(budget.seeds.max(1));
    for &n in &budget.accuracy_iterations {
        let runs: Vec<Recovery> = seeds
            .clone()
            .map(|seed| tune_by_accuracy(budget, n, seed, &mut matches))
            .collect();
        lines.extend(runs.iter().map(ToString::to_string));
        lines.push(summary(&runs, floor));
    }
    for &n in &budget.games_iterations {
        let runs: Vec<Recovery> = seeds
            .clone()
            .map(|seed| tune_by_games(budget, n, seed, &mut matches))
            .collect();
        lines.extend(runs.iter().map(ToString::to_string));
        lines.push(summary(&runs, floor));
    }
    lines
}

/// Each value's Elo against the bad start, in the match of `pairs` pairs.
pub fn elo_of(weight: &Weight, values: &[f64], pairs: u32) -> Vec<String> {
    values
        .iter()
        .map(|&v| {
            format!(
                "{} {v} against {}: Elo {}",
                weight.option,
                weight.start,
                describe(&confirm(weight, v, pairs))
            )
        })
        .collect()
}

/// The default of alphabeta's int option `name`.
fn default_of(name: &str) -> Option<f64> {
    AlphaBetaPlayer::new(1)
        .options()
        .into_iter()
        .find(|o| o.name == name)
        .and_then(|o| match o.kind {
            aboure_protocol::OptionKind::Int { default, .. } => Some(default as f64),
            _ => None,
        })
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    match xs.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}

/// The medians of one budget's runs, and how many reached the default's
/// gain (an Elo at least the lower end of its interval, `floor`).
fn summary(runs: &[Recovery], floor: f64) -> String {
    let elo = |r: &Recovery| r.elo.interval().map_or(f64::NAN, |i| i.value);
    let reached = runs.iter().filter(|r| elo(r) >= floor).count();
    let first = &runs[0];
    format!(
        "{} {} iterations over {} seeds: median {} {}, median Elo {:+.0}, {reached} of {} reached {floor:+.0}, median CPU {:.3} s",
        first.objective,
        first.iterations,
        runs.len(),
        first.weight.option,
        median(runs.iter().map(|r| r.value).collect()),
        median(runs.iter().map(elo).collect()),
        runs.len(),
        median(runs.iter().map(|r| r.cpu_seconds).collect()),
    )
}

fn parameter(weight: &Weight) -> Parameter {
    Parameter::integer(&weight.option, weight.start, RANGE.0, RANGE.1, weight.step)
        .expect("a valid constant parameter")
}

fn limits() -> SearchLimits {
    SearchLimits {
        nodes: Some(NODES),
        ..SearchLimits::default()
    }
}

/// Alphabeta with the tuned option at `value`: a fresh bot (its table holds
/// values of one evaluation only), with a table of 1 MB, ample for
/// [`NODES`], so that clearing tables does not dominate the CPU time.
fn bot(option: &str, value: f64) -> AlphaBetaPlayer {
    let mut bot = AlphaBetaPlayer::new(1);
    configure(&mut bot, option, &format!("{value}"))
        .expect("the parameter stays in the option's range");
    bot
}

fn settings(iterations: u32, r_end: f64) -> SpsaSettings {
    let mut settings = SpsaSettings::for_iterations(iterations);
    settings.r_end = r_end;
    settings
}

fn tune_by_accuracy(
    budget: &Budget,
    iterations: u32,
    seed: u64,
    matches: &mut Matches,
) -> Recovery {
    let start = thread_seconds();
    let drawn = sample(budget.positions, seed);
    let sample_seconds = thread_seconds() - start;
    let settings = settings(iterations, budget.accuracy_r_end);
    let weight = &budget.weight;
    let mut spsa = Spsa::new(vec![parameter(weight)], settings, seed).expect("valid settings");
    while !spsa.finished() {
        let probe = spsa.probe();
        let gain = seeds_lost(&weight.option, &drawn.positions, probe.minus[0])
            - seeds_lost(&weight.option, &drawn.positions, probe.plus[0]);
        spsa.update(&probe, gain)
            .expect("the probe of this iteration");
    }
    let cpu_seconds = thread_seconds() - start;
    let value = spsa.sent()[0];
    Recovery {
        objective: "accuracy",
        iterations: spsa.state().iteration,
        seed,
        games: drawn.games,
        cpu_seconds,
        sample_seconds,
        sample: Some((drawn.valued, drawn.positions.len())),
        weight: weight.clone(),
        value,
        elo: matches.elo(value),
    }
}

fn tune_by_games(budget: &Budget, iterations: u32, seed: u64, matches: &mut Matches) -> Recovery {
    let start = thread_seconds();
    let settings = settings(iterations, budget.games_r_end);
    let weight = &budget.weight;
    let mut spsa = Spsa::new(vec![parameter(weight)], settings, seed).expect("valid settings");
    let mut rng = SmallRng::seed_from_u64(seed.wrapping_add(10));
    while !spsa.finished() {
        let probe = spsa.probe();
        let opening = opening(&mut rng);
        let [first, second] = pair(&weight.option, probe.plus[0], probe.minus[0], opening);
        // Wins minus losses of the plus side, fishtest's result.
        let gain = 2.0 * (first.points() + second.points()) - 2.0;
        spsa.update(&probe, gain)
            .expect("the probe of this iteration");
    }
    let cpu_seconds = thread_seconds() - start;
    let value = spsa.sent()[0];
    Recovery {
        objective: "games",
        iterations: spsa.state().iteration,
        seed,
        games: 2 * u64::from(spsa.state().iteration),
        cpu_seconds,
        sample_seconds: 0.0,
        sample: None,
        weight: weight.clone(),
        value,
        elo: matches.elo(value),
    }
}

/// Mean seeds lost a move by alphabeta at `value` over `sample`, as a probe
/// process of `aboure tune` loses them: one bot, one new game, the
/// positions in order.
fn seeds_lost(option: &str, sample: &[Scored], value: f64) -> f64 {
    let mut bot = bot(option, value);
    bot.new_game();
    let mut lost = 0i64;
    for s in sample {
        let m = bot.choose(&s.position, &[], &limits(), &mut Local::new());
        lost += s.loss(Some(m));
    }
    lost as f64 / sample.len().max(1) as f64
}

/// A game pair from `opening` between alphabeta at `a` and at `b`, colours
/// swapped: `a`'s results.
fn pair(option: &str, a: f64, b: f64, opening: Position) -> [PlayerResult; 2] {
    let limits = limits();
    let game = |a_side: Side| {
        let (mut x, mut y) = (bot(option, a), bot(option, b));
        let (sx, sy) = (
            Seat {
                player: &mut x,
                limits: &limits,
            },
            Seat {
                player: &mut y,
                limits: &limits,
            },
        );
        let (south, north) = if a_side == Side::South {
            (sx, sy)
        } else {
            (sy, sx)
        };
        result(play(south, north, opening, |_, _| {}), a_side)
    };
    [game(Side::South), game(Side::North)]
}

/// The tuned value against the bad start: `pairs` game pairs from random
/// openings (the same openings for every call), pentanomial Elo.
fn confirm(weight: &Weight, value: f64, pairs: u32) -> Estimate {
    let mut rng = SmallRng::seed_from_u64(99);
    let mut counts = Pentanomial::default();
    for _ in 0..pairs {
        let [first, second] = pair(&weight.option, value, weight.start, opening(&mut rng));
        counts.add_pair(first, second);
    }
    counts.head_to_head().elo
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_accuracy_tune_turns_the_wrong_sign_round() {
        let drawn = sample(60, 1);
        let lost = |v| seeds_lost(OPTION, &drawn.positions, v);
        assert!(lost(50.0) < lost(BAD_START));
        let weight = Weight {
            option: OPTION.to_owned(),
            start: BAD_START,
            step: STEP,
        };
        let budget = Budget {
            weight: weight.clone(),
            accuracy_iterations: vec![30],
            positions: 200,
            accuracy_r_end: 2.0,
            games_iterations: vec![],
            games_r_end: 0.2,
            pairs: 2,
            seeds: 1,
        };
        let mut matches = Matches::new(&weight, 2);
        let tuned = tune_by_accuracy(&budget, 30, 1, &mut matches);
        assert!(tuned.value > 0.0, "{tuned}");
        assert_eq!(tuned.iterations, 30);
        assert_eq!(tuned.sample.map(|s| s.1), Some(200));
        // One match per value: the same value is not played again.
        assert_eq!(matches.played.len(), 1);
        matches.elo(tuned.value);
        assert_eq!(matches.played.len(), 1);
    }

    #[test]
    fn a_game_pair_swaps_colours() {
        // Identical deterministic bots: the pair is one game won by each
        // colour, or two of the same result for the same colour.
        let start = Position::startpos();
        let [first, second] = pair(OPTION, 50.0, 50.0, start);
        assert_eq!(first, second.reversed(), "{first:?} {second:?}");
    }

    #[test]
    fn the_default_of_each_weight_is_read_from_the_bot() {
        assert_eq!(default_of("row_weight"), Some(50.0));
        assert_eq!(default_of("mobility_weight"), Some(0.0));
        assert_eq!(default_of("no_such_option"), None);
    }

    #[test]
    fn the_median_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(Vec::new()).is_nan());
    }
}
