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

use std::collections::{BTreeMap, HashMap};

use aboure_engine::{Move, Position, Side};
use aboure_records::{GameRecord, Mover};
use aboure_solver::Solver;
use serde::Serialize;

use crate::kept::Kept;

/// Accuracy of every bot's moves.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AccuracyReport {
    /// Per bot, best average first.
    pub players: Vec<PlayerAccuracy>,
    /// Per analysed game, at most [`crate::AccuracyOptions::games`] of
    /// them, chosen like the page's games (every forfeit, then the most
    /// recent); see `games_left_out`.
    pub games: Vec<GameAccuracy>,
    /// The games the page shows, by id (not in the JSON).
    #[serde(skip)]
    pub(crate) page_games: HashMap<String, GameAccuracy>,
    /// Analysed games left out of `games` (in the JSON only when some are).
    #[serde(skip_serializing_if = "is_zero")]
    pub games_left_out: u64,
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
    /// Analysed games with a decisive mistake (all of them, not only those
    /// in `games`).
    #[serde(skip)]
    pub decisive_mistakes: u64,
    /// The first decisive mistakes in game order (at most 100): game id and move.
    #[serde(skip)]
    pub first_mistakes: Vec<(String, MoveAccuracy)>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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

impl MoveAccuracy {
    /// The move in words, as the reports list a first decisive mistake:
    /// what the played move lost and what the best keeps, e.g. `random
    /// played 2, losing 18 seeds (win -> draw); 1 keeps the win`.
    pub fn mistake(&self) -> String {
        let seeds = match self.loss {
            1 => "1 seed".to_owned(),
            n => format!("{n} seeds"),
        };
        let keep = match self.best.len() {
            1 => "keeps",
            _ => "keep",
        };
        format!(
            "{} played {}, losing {seeds} ({} -> {}); {} {keep} the {}",
            self.bot,
            self.played,
            self.could_reach,
            self.reaches,
            self.best.join(" or "),
            self.could_reach
        )
    }
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
    let Ok(mut pos) = game.start.parse::<Position>() else {
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

/// What the analysis of one game gave.
#[derive(Clone, Debug)]
pub(crate) enum Analysed {
    /// Every counted move, and the positions solved.
    Game(GameAccuracy, u64),
    /// No moves recorded, or an unreadable start or record.
    Skipped,
    /// The node budget ran out.
    OutOfBudget,
}

/// Analyses the game on one line of `games.jsonl`; `budget` is the solver
/// node count at which to stop.
pub(crate) fn analyse_line(solver: &mut Solver, line: &[u8], budget: u64) -> Analysed {
    let Ok(game) = serde_json::from_slice::<GameRecord>(line) else {
        return Analysed::Skipped;
    };
    let mut positions = 0;
    match analyse_game(solver, &game, budget, &mut positions) {
        Ok(Some(g)) => Analysed::Game(g, positions),
        Ok(None) => Analysed::Skipped,
        Err(()) => Analysed::OutOfBudget,
    }
}

/// Decisive mistakes the text and page list (the HTML list's length).
const MISTAKES_LISTED: usize = 100;

/// The accuracy figures of games analysed so far, in bounded memory: sums
/// per bot, and the per-move detail of the games a report shows.
#[derive(Clone, Debug)]
pub(crate) struct AccuracyTally {
    players: BTreeMap<String, PlayerAccuracy>,
    analysed: u64,
    skipped: u64,
    budget_exhausted: bool,
    positions: u64,
    /// The detail kept: the page's games and the JSON's, whichever are more.
    kept: Kept<GameAccuracy>,
    /// Games in the JSON report's `games`.
    json_games: usize,
    decisive: u64,
    first_mistakes: BTreeMap<u64, (String, MoveAccuracy)>,
}

impl AccuracyTally {
    /// Keeps the per-move detail of `keep` games (see [`Kept`]), of which
    /// the JSON report lists `json_games`.
    pub fn new(json_games: usize, keep: usize) -> AccuracyTally {
        AccuracyTally {
            players: BTreeMap::new(),
            analysed: 0,
            skipped: 0,
            budget_exhausted: false,
            positions: 0,
            kept: Kept::new(keep.max(json_games)),
            json_games,
            decisive: 0,
            first_mistakes: BTreeMap::new(),
        }
    }

    /// Counts game `seq` (reading order; results may come out of order).
    pub fn add(&mut self, seq: u64, forfeit: bool, analysed: Analysed) {
        let (game, positions) = match analysed {
            Analysed::Game(g, p) if !self.budget_exhausted => (g, p),
            Analysed::OutOfBudget => {
                self.budget_exhausted = true;
                self.skipped += 1;
                return;
            }
            _ => {
                self.skipped += 1;
                return;
            }
        };
        self.positions += positions;
        for m in game.moves.iter().flatten() {
            let p = self.players.entry(m.bot.clone()).or_default();
            p.moves += 1;
            p.total_loss += m.loss.max(0) as u64;
            p.perfect += u64::from(m.loss == 0);
            p.blunders += u64::from(m.blunder);
        }
        self.analysed += 1;
        if let Some(m) = &game.first_decisive_mistake {
            self.decisive += 1;
            self.first_mistakes
                .insert(seq, (game.game.clone(), m.clone()));
            if self.first_mistakes.len() > MISTAKES_LISTED {
                self.first_mistakes.pop_last();
            }
        }
        self.kept.offer(seq, forfeit, game);
    }

    /// Games counted so far (analysed or skipped).
    pub fn done(&self) -> u64 {
        self.analysed + self.skipped
    }

    /// The report of the games counted so far; `nodes` spent by the solvers.
    pub fn report(&self, nodes: u64) -> AccuracyReport {
        let mut players: Vec<PlayerAccuracy> = self
            .players
            .iter()
            .map(|(name, p)| {
                let mut p = PlayerAccuracy {
                    name: name.clone(),
                    ..p.clone()
                };
                if p.moves > 0 {
                    p.average_loss = p.total_loss as f64 / p.moves as f64;
                    p.perfect_ratio = p.perfect as f64 / p.moves as f64;
                }
                p
            })
            .collect();
        players.sort_by(|a, b| {
            a.average_loss
                .total_cmp(&b.average_loss)
                .then(a.name.cmp(&b.name))
        });
        AccuracyReport {
            players,
            games: self
                .kept
                .selected_most(self.json_games)
                .into_iter()
                .cloned()
                .collect(),
            games_left_out: self.kept.left_out_of(self.json_games),
            page_games: self
                .kept
                .selected()
                .into_iter()
                .map(|g| (g.game.clone(), g.clone()))
                .collect(),
            analysed_games: self.analysed,
            skipped_games: self.skipped,
            budget_exhausted: self.budget_exhausted,
            positions: self.positions,
            nodes,
            decisive_mistakes: self.decisive,
            first_mistakes: self.first_mistakes.values().cloned().collect(),
        }
    }
}

impl AccuracyReport {
    /// The analysed moves of game `id`, aligned with its moves, if it is
    /// one of the games kept (those of the page and of `games`).
    pub fn game(&self, id: &str) -> Option<&GameAccuracy> {
        self.page_games.get(id)
    }
}
