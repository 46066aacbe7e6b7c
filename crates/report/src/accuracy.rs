//! How much each move gave away against perfect play, by the exact solver.
//!
//! The solver's value of a position is the final seed margin the side to
//! move reaches with perfect play, counting only seeds still on the board; a
//! move's value is what it captures minus the value of the position after
//! it. The loss of a move is the best move's value minus the played one's.
//! The result is decided by the final totals, which include seeds captured
//! before the position: with `c` the mover's captures minus the opponent's,
//! a move of value `v` leads (with perfect play afterwards) to a win if
//! `c + v > 0`, a draw if `c + v = 0`, a loss otherwise. A blunder is a move
//! whose result so computed is worse than the best move's: a win thrown into
//! a draw or loss, or a draw into a loss.
//!
//! Opening plies, forced passes and positions with a single legal move are
//! not counted: the bot chose nothing. One solver table serves every
//! position of every game, so the positions of a game after the first cost
//! little.

use std::collections::BTreeMap;

use aboure_engine::{Move, Position, Side};
use aboure_records::{GameRecord, Mover};
use aboure_solver::Solver;
use serde::Serialize;

use crate::options::AccuracyOptions;
use crate::viewer::start_position;

/// Accuracy of every bot's moves.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AccuracyReport {
    /// Per bot, best average first.
    pub players: Vec<PlayerAccuracy>,
    /// Per analysed game.
    pub games: Vec<GameAccuracy>,
    /// Games analysed to the end.
    pub analysed_games: u64,
    /// Games left out: no moves recorded, unreadable, or beyond the budget.
    pub skipped_games: u64,
    /// True if the node budget ran out before every game was analysed.
    pub budget_exhausted: bool,
    /// Positions solved.
    pub positions: u64,
    /// Solver nodes spent.
    pub nodes: u64,
}

/// One bot's accuracy.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerAccuracy {
    /// The bot.
    pub name: String,
    /// Moves analysed.
    pub moves: u64,
    /// Seeds lost against perfect play, summed.
    pub total_loss: u64,
    /// Seeds lost per move.
    pub average_loss: f64,
    /// Moves that lost nothing.
    pub perfect: u64,
    /// `perfect / moves`.
    pub perfect_ratio: f64,
    /// Moves that changed the result the bot could reach.
    pub blunders: u64,
}

/// One game's accuracy.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameAccuracy {
    /// The game id.
    pub game: String,
    /// Per ply, aligned with the record's moves; `null` for plies not counted.
    pub moves: Vec<Option<MoveAccuracy>>,
    /// The first blunder of the game, if any.
    pub first_decisive_mistake: Option<MoveAccuracy>,
}

/// One analysed move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveAccuracy {
    /// 0-based ply in the record's moves.
    pub ply: usize,
    /// The bot that played it.
    pub bot: String,
    /// The move played.
    pub played: String,
    /// Its value: final margin of future seeds for the mover with perfect play after it.
    pub value: i32,
    /// The best moves (all of equal value).
    pub best: Vec<String>,
    /// Their value.
    pub best_value: i32,
    /// `best_value - value`: seeds lost.
    pub loss: i32,
    /// The result the mover could reach before the move: `win`, `draw`, `loss`.
    pub could_reach: &'static str,
    /// The result it can reach after it.
    pub reaches: &'static str,
    /// True if `reaches` is worse than `could_reach`.
    pub blunder: bool,
}

fn result_word(margin: i32) -> &'static str {
    match margin.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// The values of every legal move of `pos` (seeds captured minus the value
/// of the position after), or `None` if the budget runs out.
fn move_values(solver: &mut Solver, pos: &Position, budget: u64) -> Option<Vec<(Move, i32)>> {
    let (moves, next, n) = pos.children();
    let me = pos.side_to_move();
    let mut values = Vec::with_capacity(n);
    for i in 0..n {
        let spent = solver.nodes();
        let left = budget.checked_sub(spent)?;
        let gain = i32::from(next[i].captured(me)) - i32::from(pos.captured(me));
        values.push((moves[i], gain - solver.value_within(&next[i], left)?));
    }
    Some(values)
}

/// Analyses one move, if it counts; `Err` when the budget ran out.
fn analyse_move(
    solver: &mut Solver,
    pos: &Position,
    ply: usize,
    bot: &str,
    played: Move,
    budget: u64,
) -> Result<Option<MoveAccuracy>, ()> {
    let legal = pos.legal_moves();
    if legal.len() < 2 {
        return Ok(None);
    }
    let values = move_values(solver, pos, budget).ok_or(())?;
    let best_value = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
    let Some(&(_, value)) = values.iter().find(|&&(m, _)| m == played) else {
        return Ok(None);
    };
    let me = pos.side_to_move();
    let ahead = i32::from(pos.captured(me)) - i32::from(pos.captured(!me));
    let (before, after) = ((ahead + best_value).signum(), (ahead + value).signum());
    Ok(Some(MoveAccuracy {
        ply,
        bot: bot.to_owned(),
        played: played.to_string(),
        value,
        best: values
            .iter()
            .filter(|&&(_, v)| v == best_value)
            .map(|(m, _)| m.to_string())
            .collect(),
        best_value,
        loss: best_value - value,
        could_reach: result_word(before),
        reaches: result_word(after),
        blunder: after < before,
    }))
}

/// Every counted move of `game`; `Err` when the budget ran out.
fn analyse_game(
    solver: &mut Solver,
    game: &GameRecord,
    budget: u64,
    positions: &mut u64,
) -> Result<Option<GameAccuracy>, ()> {
    if game.moves.is_empty() {
        return Ok(None);
    }
    let Ok(mut pos) = start_position(game) else {
        return Ok(None);
    };
    let mut moves = Vec::with_capacity(game.moves.len());
    for (i, text) in game.moves.iter().enumerate() {
        let Ok(m) = text.parse::<Move>() else { break };
        if !pos.is_legal(m) {
            break;
        }
        let by = game.plies.get(i).map_or(Mover::Bot, |p| p.by);
        let counted = by == Mover::Bot && m != Move::Pass;
        let bot = match pos.side_to_move() {
            Side::South => &game.south,
            Side::North => &game.north,
        };
        let analysed = if counted {
            *positions += 1;
            analyse_move(solver, &pos, i, bot, m, budget)?
        } else {
            None
        };
        moves.push(analysed);
        pos.play_unchecked(m);
    }
    let first_decisive_mistake = moves.iter().flatten().find(|m| m.blunder).cloned();
    Ok(Some(GameAccuracy {
        game: game.id.clone(),
        moves,
        first_decisive_mistake,
    }))
}

pub(crate) fn analyse(games: &[GameRecord], options: &AccuracyOptions) -> AccuracyReport {
    let mut solver = Solver::new(options.table_mb);
    let mut report = AccuracyReport::default();
    let mut players: BTreeMap<String, PlayerAccuracy> = BTreeMap::new();
    let step = (games.len() / 10).max(1);
    for (done, game) in games.iter().enumerate() {
        if options.progress && games.len() >= 200 && done % step == 0 {
            eprintln!("accuracy: {done}/{} games analysed", games.len());
        }
        if report.budget_exhausted {
            report.skipped_games += 1;
            continue;
        }
        match analyse_game(
            &mut solver,
            game,
            options.node_budget,
            &mut report.positions,
        ) {
            Ok(Some(g)) => {
                for m in g.moves.iter().flatten() {
                    let p = players.entry(m.bot.clone()).or_default();
                    p.moves += 1;
                    p.total_loss += m.loss.max(0) as u64;
                    p.perfect += u64::from(m.loss == 0);
                    p.blunders += u64::from(m.blunder);
                }
                report.analysed_games += 1;
                report.games.push(g);
            }
            Ok(None) => report.skipped_games += 1,
            Err(()) => {
                report.budget_exhausted = true;
                report.skipped_games += 1;
            }
        }
    }
    report.nodes = solver.nodes();
    report.players = players
        .into_iter()
        .map(|(name, mut p)| {
            if p.moves > 0 {
                p.average_loss = p.total_loss as f64 / p.moves as f64;
                p.perfect_ratio = p.perfect as f64 / p.moves as f64;
            }
            PlayerAccuracy { name, ..p }
        })
        .collect();
    report.players.sort_by(|a, b| {
        a.average_loss
            .total_cmp(&b.average_loss)
            .then(a.name.cmp(&b.name))
    });
    report
}

impl AccuracyReport {
    /// The analysed moves of game `id`, aligned with its moves.
    pub fn game(&self, id: &str) -> Option<&GameAccuracy> {
        self.games.iter().find(|g| g.game == id)
    }
}
