//! The reference bots' search speed, in-process (`aboure bench search`):
//! alphabeta's nodes and mcts's playouts a second from the start position,
//! and how long each built-in bot's answers take at 10 ms a move (its
//! budget keeps 5 ms back for the pipes and the arbiter, so answers should
//! stay near 5 ms).

use std::cell::Cell;
use std::fmt;
use std::time::{Duration, Instant};

use aboure_bots::{AlphaBetaPlayer, MctsPlayer};
use aboure_engine::Position;
use aboure_protocol::{Player, Search, SearchInfo, SearchLimits};

/// A search that started when it was made, is never stopped from outside
/// and keeps the bot's info lines: a bot played without the protocol loop.
pub struct Local {
    started: Instant,
    polls: Cell<u64>,
    /// The info lines the bot reported.
    pub infos: Vec<SearchInfo>,
}

impl Local {
    /// A search starting now.
    pub fn new() -> Local {
        Local {
            started: Instant::now(),
            polls: Cell::new(0),
            infos: Vec::new(),
        }
    }
}

impl Default for Local {
    fn default() -> Self {
        Local::new()
    }
}

impl Search for Local {
    fn started(&self) -> Instant {
        self.started
    }
    fn stopped(&self) -> bool {
        self.polls.set(self.polls.get() + 1);
        false
    }
    fn info(&mut self, info: &SearchInfo) {
        self.infos.push(info.clone());
    }
}

/// One line of figures.
#[derive(Clone, Debug)]
pub struct SpeedLine(String);

impl fmt::Display for SpeedLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Alphabeta and mcts searching the start position for `movetime` each.
pub fn from_the_start(movetime: Duration) -> Vec<SpeedLine> {
    let limits = SearchLimits {
        movetime: Some(movetime),
        ..SearchLimits::default()
    };
    let mut lines = Vec::new();
    let mut a = AlphaBetaPlayer::default();
    let (t, mut search) = (Instant::now(), Local::new());
    a.choose(&Position::startpos(), &[], &limits, &mut search);
    if let Some(out) = a.last_search() {
        lines.push(SpeedLine(format!(
            "alphabeta: {:.2} M nodes/s, depth {} in {:.2?}, score {:?}",
            out.nodes as f64 / t.elapsed().as_secs_f64() / 1e6,
            out.depth,
            t.elapsed(),
            search.infos.last().and_then(|i| i.score)
        )));
    }
    let mut m = MctsPlayer::new(0.5, 1);
    let (t, mut search) = (Instant::now(), Local::new());
    m.choose(&Position::startpos(), &[], &limits, &mut search);
    if let Some(info) = search.infos.last() {
        lines.push(SpeedLine(format!(
            "mcts: {:.0} k playouts/s, score {:?}, pv {:?}",
            info.nodes.unwrap_or(0) as f64 / t.elapsed().as_secs_f64() / 1e3,
            info.score,
            info.pv
        )));
    }
    lines
}

/// Each built-in bot playing a whole game against itself at `movetime`: the
/// mean and longest time of its answers.
pub fn answer_times(movetime: Duration) -> Vec<SpeedLine> {
    let limits = SearchLimits {
        movetime: Some(movetime),
        ..SearchLimits::default()
    };
    let mut lines = Vec::new();
    for name in aboure_bots::BUILTIN {
        let Some(mut bot) = aboure_bots::builtin(name) else {
            continue;
        };
        let mut times = Vec::new();
        let mut pos = Position::startpos();
        while !pos.is_game_over() {
            let moves = pos.legal_moves();
            let m = if moves.len() == 1 {
                moves[0]
            } else {
                let t = Instant::now();
                let m = bot.choose(&pos, &[], &limits, &mut Local::new());
                times.push(t.elapsed().as_secs_f64() * 1000.0);
                m
            };
            if pos.play(m).is_err() {
                break;
            }
        }
        let max = times.iter().cloned().fold(0.0, f64::max);
        let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
        lines.push(SpeedLine(format!(
            "{name}: {} moves, mean {mean:.2} ms, max {max:.2} ms",
            times.len()
        )));
    }
    lines
}
