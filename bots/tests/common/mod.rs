//! In-process games between players: a `Search` that needs no protocol loop,
//! a game loop with the arbiter's rules (forced passes, repetition and
//! length adjudication), and game pairs with colours swapped.
#![allow(dead_code)]

use std::cell::Cell;
use std::time::Instant;

use aboure_engine::{Move, Position, Side};
use aboure_protocol::{Player, Search, SearchInfo, SearchLimits};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A search that started now, stops when told to (after a number of calls
/// to `stopped`, if set) and keeps the info lines.
pub struct Local {
    pub started: Instant,
    /// `stopped()` turns true after this many calls, if set.
    pub stop_after_polls: Option<u64>,
    pub polls: Cell<u64>,
    pub infos: Vec<SearchInfo>,
}

impl Local {
    pub fn new() -> Local {
        Local {
            started: Instant::now(),
            stop_after_polls: None,
            polls: Cell::new(0),
            infos: Vec::new(),
        }
    }
}

impl Search for Local {
    fn started(&self) -> Instant {
        self.started
    }
    fn stopped(&self) -> bool {
        let k = self.polls.get() + 1;
        self.polls.set(k);
        self.stop_after_polls.is_some_and(|n| k > n)
    }
    fn info(&mut self, info: &SearchInfo) {
        self.infos.push(info.clone());
    }
}

/// Longest game before adjudication, as in the arbiter's default.
pub const MAX_PLIES: usize = 400;
/// A position seen this often ends the game, as in the arbiter's default.
pub const REPETITIONS: usize = 3;

/// Plays one game from `start`; returns the final score `[south, north]`.
pub fn play_game(
    south: &mut dyn Player,
    north: &mut dyn Player,
    start: Position,
    limits: &SearchLimits,
) -> [u8; 2] {
    south.new_game();
    north.new_game();
    let mut pos = start;
    let mut history: Vec<Position> = Vec::new();
    for _ in 0..MAX_PLIES {
        if pos.is_game_over() {
            break;
        }
        let seen = history.iter().filter(|p| p.hash() == pos.hash()).count() + 1;
        if seen >= REPETITIONS {
            break;
        }
        let moves = pos.legal_moves();
        let m = if moves.as_slice() == [Move::Pass] {
            Move::Pass
        } else {
            let mut search = Local::new();
            let bot: &mut dyn Player = match pos.side_to_move() {
                Side::South => &mut *south,
                Side::North => &mut *north,
            };
            let m = bot.choose(&pos, &history, limits, &mut search);
            assert!(
                moves.contains(m),
                "{} played illegal {m} in {pos}",
                bot.name()
            );
            m
        };
        history.push(pos);
        pos.play(m).expect("checked legal");
    }
    pos.score()
}

/// A start reached by `plies` random moves from the start position, still
/// playable.
pub fn opening(rng: &mut SmallRng, plies: usize) -> Position {
    loop {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        if !pos.is_game_over() && pos.legal_moves().as_slice() != [Move::Pass] {
            return pos;
        }
    }
}

/// Points for South from a final score: 1, 1/2 or 0.
pub fn points(score: [u8; 2]) -> f64 {
    match score[0].cmp(&score[1]) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// The result of a match of game pairs: A's score per pair (0, 1/4 .. 1).
pub struct MatchResult {
    pub pair_scores: Vec<f64>,
}

impl MatchResult {
    pub fn mean(&self) -> f64 {
        self.pair_scores.iter().sum::<f64>() / self.pair_scores.len() as f64
    }
    /// The 95% interval of the mean: mean +/- 1.96 sd / sqrt(n).
    pub fn interval(&self) -> (f64, f64) {
        let n = self.pair_scores.len() as f64;
        let m = self.mean();
        let var = self
            .pair_scores
            .iter()
            .map(|x| (x - m).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        let half = 1.96 * var.sqrt() / n.sqrt();
        (m - half, m + half)
    }
    pub fn describe(&self, a: &str, b: &str) -> String {
        let (lo, hi) = self.interval();
        format!(
            "{a} vs {b}: {:.3} [{lo:.3}, {hi:.3}] over {} pairs",
            self.mean(),
            self.pair_scores.len()
        )
    }
}

/// `pairs` game pairs between `a` and `b` from random openings of
/// `opening_plies` plies; in each pair A plays South then North.
pub fn play_match(
    a: &mut dyn Player,
    b: &mut dyn Player,
    limits_a: &SearchLimits,
    limits_b: &SearchLimits,
    pairs: usize,
    opening_plies: usize,
    seed: u64,
) -> MatchResult {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pair_scores = Vec::new();
    for _ in 0..pairs {
        let start = opening(&mut rng, opening_plies);
        let first = points(play_game_limits(a, b, start, limits_a, limits_b));
        let second = 1.0 - points(play_game_limits(b, a, start, limits_b, limits_a));
        pair_scores.push((first + second) / 2.0);
    }
    MatchResult { pair_scores }
}

/// Like [`play_game`] with separate limits for each side.
pub fn play_game_limits(
    south: &mut dyn Player,
    north: &mut dyn Player,
    start: Position,
    south_limits: &SearchLimits,
    north_limits: &SearchLimits,
) -> [u8; 2] {
    struct Limited<'a> {
        bot: &'a mut dyn Player,
        limits: SearchLimits,
    }
    impl Player for Limited<'_> {
        fn name(&self) -> String {
            self.bot.name()
        }
        fn author(&self) -> String {
            self.bot.author()
        }
        fn new_game(&mut self) {
            self.bot.new_game()
        }
        fn choose(
            &mut self,
            position: &Position,
            history: &[Position],
            _limits: &SearchLimits,
            search: &mut dyn Search,
        ) -> Move {
            self.bot.choose(position, history, &self.limits, search)
        }
    }
    let mut s = Limited {
        bot: south,
        limits: *south_limits,
    };
    let mut n = Limited {
        bot: north,
        limits: *north_limits,
    };
    play_game(&mut s, &mut n, start, &SearchLimits::default())
}
