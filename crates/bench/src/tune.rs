//! The measured recovery of a badly set bot (`aboure bench tune`): alphabeta
//! starts with its row weight of the wrong sign, and SPSA (`aboure-tune`)
//! brings it back under each objective, in-process:
//!
//! - `accuracy`: each iteration scores `theta + c delta` and
//!   `theta - c delta` by the exact mean seeds lost per move on one fixed
//!   sample of positions (from games between reference bots, both sides,
//!   all phases), against the solver's move values, computed once;
//! - `games`: each iteration plays one game pair between the two points from
//!   a fresh random opening, colours swapped, as fishtest does.
//!
//! Each tune's CPU time is read on its own thread's clock (the sample and the
//! solver's values are charged to `accuracy`), and the Elo each tune gained
//! is measured by a match of game pairs of the tuned values against the bad
//! start, with fastchess's pentanomial 95% interval.

use std::fmt;

use aboure_bots::{configure, AlphaBetaPlayer, MctsPlayer};
use aboure_engine::{Move, Position, Side};
use aboure_protocol::{Player, SearchLimits};
use aboure_solver::Solver;
use aboure_stats::{Estimate, Pentanomial, PlayerResult};
use aboure_tune::{Parameter, Spsa, SpsaSettings};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use aboure_arbiter::tuning::random_opening as opening;

use crate::cpu::thread_seconds;
use crate::search::Local;

/// Alphabeta's nodes a move, in every game and every scored position.
const NODES: u64 = 1_500;
/// The tuned option and its bad start (the default is +50).
const OPTION: &str = "row_weight";
const BAD_START: f64 = -50.0;
/// The bot's own range for the option, and the step `c_end`.
const RANGE: (f64, f64) = (-1000.0, 1000.0);
const STEP: f64 = 10.0;
/// The solver's table for the sample: a few hundred positions need far less
/// than the 256 MB of a report's analysis, and zeroing that much was a
/// fifth of the sample's cost.
const SOLVER_MB: usize = 16;
/// Longest game, in plies (the arbiter's default adjudication).
const MAX_PLIES: usize = 400;

/// What a recovery run is given.
#[derive(Clone, Debug)]
pub struct Budget {
    /// SPSA iterations of the `accuracy` objective.
    pub accuracy_iterations: u32,
    /// Positions in its sample.
    pub positions: usize,
    /// Its learning rate at the end (its gain is in seeds a move).
    pub accuracy_r_end: f64,
    /// SPSA iterations (one game pair each) of the `games` objective.
    pub games_iterations: u32,
    /// Its learning rate at the end (its gain is wins minus losses).
    pub games_r_end: f64,
    /// Game pairs of each confirming match against the bad start.
    pub pairs: u32,
}

/// One objective's tune and what it gained.
#[derive(Clone, Debug)]
pub struct Recovery {
    /// `accuracy` or `games`.
    pub objective: &'static str,
    /// SPSA iterations run.
    pub iterations: u32,
    /// Games the tune played (the sample's games for `accuracy`).
    pub games: u64,
    /// CPU seconds of the tune.
    pub cpu_seconds: f64,
    /// Of them, the sample and its solver values (`accuracy` only).
    pub sample_seconds: f64,
    /// The tuned value, as sent to the bot.
    pub value: f64,
    /// The tuned bot against the bad start.
    pub elo: Estimate,
}

impl fmt::Display for Recovery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let elo = match self.elo.interval() {
            Some(i) => format!("{:+.0} +/- {:.0}", i.value, i.error().unwrap_or(f64::NAN)),
            None => format!("{:?}", self.elo),
        };
        write!(
            f,
            "{}: {} iterations, {} games, {:.2} s CPU ({:.2} s the sample), {OPTION} {BAD_START} -> {}, Elo against the start {elo}",
            self.objective, self.iterations, self.games, self.cpu_seconds, self.sample_seconds, self.value
        )
    }
}

/// Both recoveries and the ratio of their CPU times.
pub fn recover(budget: &Budget) -> Vec<String> {
    let accuracy = tune_by_accuracy(budget);
    let games = tune_by_games(budget);
    let ratio = games.cpu_seconds / accuracy.cpu_seconds;
    let default = f64::from(aboure_bots::eval::Weights::DEFAULT.row);
    let reference = match confirm(default, budget.pairs).interval() {
        Some(i) => format!("{:+.0} +/- {:.0}", i.value, i.error().unwrap_or(f64::NAN)),
        None => "undefined".to_owned(),
    };
    vec![
        format!("the default {OPTION} {default} against the start: Elo {reference}"),
        accuracy.to_string(),
        games.to_string(),
        format!("CPU time, games / accuracy: {ratio:.1}x"),
    ]
}

fn parameter() -> Parameter {
    Parameter::integer(OPTION, BAD_START, RANGE.0, RANGE.1, STEP)
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
fn bot(value: f64) -> AlphaBetaPlayer {
    let mut bot = AlphaBetaPlayer::new(1);
    configure(&mut bot, OPTION, &format!("{value}"))
        .expect("the parameter stays in the option's range");
    bot
}

fn tune_by_accuracy(budget: &Budget) -> Recovery {
    let start = thread_seconds();
    let (sample, games) = sample(budget.positions);
    let sample_seconds = thread_seconds() - start;
    let mut settings = SpsaSettings::for_iterations(budget.accuracy_iterations);
    settings.r_end = budget.accuracy_r_end;
    let mut spsa = Spsa::new(vec![parameter()], settings, 1).expect("valid settings");
    while !spsa.finished() {
        let probe = spsa.probe();
        let gain = seeds_lost(&sample, probe.minus[0]) - seeds_lost(&sample, probe.plus[0]);
        spsa.update(&probe, gain)
            .expect("the probe of this iteration");
    }
    let cpu_seconds = thread_seconds() - start;
    let value = spsa.sent()[0];
    Recovery {
        objective: "accuracy",
        iterations: spsa.state().iteration,
        games,
        cpu_seconds,
        sample_seconds,
        value,
        elo: confirm(value, budget.pairs),
    }
}

fn tune_by_games(budget: &Budget) -> Recovery {
    let start = thread_seconds();
    let mut settings = SpsaSettings::for_iterations(budget.games_iterations);
    settings.r_end = budget.games_r_end;
    let mut spsa = Spsa::new(vec![parameter()], settings, 1).expect("valid settings");
    let mut rng = SmallRng::seed_from_u64(11);
    while !spsa.finished() {
        let probe = spsa.probe();
        let opening = opening(&mut rng);
        let [first, second] = pair(probe.plus[0], probe.minus[0], opening);
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
        games: 2 * u64::from(spsa.state().iteration),
        cpu_seconds,
        sample_seconds: 0.0,
        value,
        elo: confirm(value, budget.pairs),
    }
}

/// A position to score and the solver's values of its moves, best first.
struct Scored {
    position: Position,
    values: Vec<(Move, i32)>,
}

/// `n` positions with a choice, every one of games between alphabeta and
/// mcts at their defaults from random openings, both sides, all phases;
/// and the number of games played for them.
fn sample(n: usize) -> (Vec<Scored>, u64) {
    let mut solver = Solver::new(SOLVER_MB);
    let mut rng = SmallRng::seed_from_u64(5);
    let mut out = Vec::new();
    let mut games: i64 = 0;
    while out.len() < n {
        let mut a = AlphaBetaPlayer::default();
        let mut m = MctsPlayer::new(0.5, games + 1);
        let (south, north): (&mut dyn Player, &mut dyn Player) = if games % 2 == 0 {
            (&mut a, &mut m)
        } else {
            (&mut m, &mut a)
        };
        let mut positions = Vec::new();
        play(south, north, opening(&mut rng), &mut positions);
        games += 1;
        for position in positions.into_iter().filter(|p| p.legal_moves().len() > 1) {
            if out.len() < n {
                let values = solver.move_values(&position);
                out.push(Scored { position, values });
            }
        }
    }
    (out, games as u64)
}

/// Mean seeds lost a move by alphabeta at `value` over `sample`.
fn seeds_lost(sample: &[Scored], value: f64) -> f64 {
    let mut bot = bot(value);
    let mut lost = 0i64;
    for s in sample {
        bot.new_game();
        let m = bot.choose(&s.position, &[], &limits(), &mut Local::new());
        let played = s.values.iter().find(|v| v.0 == m).map_or(0, |v| v.1);
        lost += i64::from(s.values[0].1 - played);
    }
    lost as f64 / sample.len().max(1) as f64
}

/// A game pair from `opening` between alphabeta at `a` and at `b`, colours
/// swapped: `a`'s results.
fn pair(a: f64, b: f64, opening: Position) -> [PlayerResult; 2] {
    let (mut x, mut y) = (bot(a), bot(b));
    let first = play(&mut x, &mut y, opening, &mut Vec::new());
    let (mut x, mut y) = (bot(a), bot(b));
    let second = play(&mut y, &mut x, opening, &mut Vec::new());
    [result(first, Side::South), result(second, Side::North)]
}

fn result(score: [u8; 2], side: Side) -> PlayerResult {
    let (me, them) = (score[side.index()], score[(!side).index()]);
    match me.cmp(&them) {
        std::cmp::Ordering::Greater => PlayerResult::Win,
        std::cmp::Ordering::Equal => PlayerResult::Draw,
        std::cmp::Ordering::Less => PlayerResult::Loss,
    }
}

/// The tuned value against the bad start: `pairs` game pairs from random
/// openings (the same openings for every call), pentanomial Elo.
fn confirm(value: f64, pairs: u32) -> Estimate {
    let mut rng = SmallRng::seed_from_u64(99);
    let mut counts = Pentanomial::default();
    for _ in 0..pairs {
        let [first, second] = pair(value, BAD_START, opening(&mut rng));
        counts.add_pair(first, second);
    }
    counts.head_to_head().elo
}

/// Plays a game from `start`, pushing every position a bot moved in to
/// `seen`; returns the final score.
fn play(
    south: &mut dyn Player,
    north: &mut dyn Player,
    start: Position,
    seen: &mut Vec<Position>,
) -> [u8; 2] {
    south.new_game();
    north.new_game();
    let mut pos = start;
    let mut history = Vec::new();
    while !pos.is_game_over() && history.len() < MAX_PLIES {
        let moves = pos.legal_moves();
        let m = if moves.as_slice() == [Move::Pass] {
            Move::Pass
        } else {
            seen.push(pos);
            let bot: &mut dyn Player = if pos.side_to_move() == Side::South {
                &mut *south
            } else {
                &mut *north
            };
            bot.choose(&pos, &history, &limits(), &mut Local::new())
        };
        history.push(pos);
        if pos.play(m).is_err() {
            break;
        }
    }
    pos.score()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_accuracy_tune_turns_the_wrong_sign_round() {
        let (sample, games) = sample(60);
        assert_eq!(sample.len(), 60);
        assert!(games > 0);
        // The solver's values are best first, and the right sign loses fewer seeds.
        assert!(sample
            .iter()
            .all(|s| s.values.windows(2).all(|w| w[0].1 >= w[1].1)));
        assert!(seeds_lost(&sample, 50.0) < seeds_lost(&sample, BAD_START));
        let budget = Budget {
            accuracy_iterations: 30,
            positions: 200,
            accuracy_r_end: 2.0,
            games_iterations: 1,
            games_r_end: 0.2,
            pairs: 2,
        };
        let tuned = tune_by_accuracy(&budget);
        assert!(tuned.value > 0.0, "{tuned}");
        assert_eq!(tuned.iterations, 30);
    }

    #[test]
    fn a_game_pair_swaps_colours() {
        // Identical deterministic bots: the pair is one game won by each
        // colour, or two of the same result for the same colour.
        let start = Position::startpos();
        let [first, second] = pair(50.0, 50.0, start);
        assert_eq!(first, second.reversed(), "{first:?} {second:?}");
    }
}
