//! Playing one game between two running bots: the opening, forced passes,
//! each bot's moves under its clock, adjudication, and every failure turned
//! into a recorded loss. The arbiter's own work (building positions,
//! recording) happens outside the timed window of each move.
//!
//! While one bot thinks, the other is held still (frozen, or stopped: see
//! `aboure_process::hold`) unless it may ponder: a bot that burns every
//! core while its opponent's clock runs would otherwise win on time what
//! it cannot win on the board. The held bot is released just before its
//! own `go` is written, so the release is never on its clock.

use std::time::{Instant, SystemTime};

use aboure_engine::{Move, MoveList, Position, Side};
use aboure_protocol::{ArbiterMessage, Clocks, GameSoFar, Go, Start};
use aboure_records::{
    GameRecord, GameResult, Mover, OpeningRecord, PlyRecord, SideName, Termination,
};
use aboure_solver::Solver;

use crate::adjudication::{solved_score, Adjudicator};
use crate::clock::{ms, Clock};
use crate::config::{Adjudication, BotId, Limit, TimeControl};
use crate::opening::Opening;
use crate::schedule::GameSpec;
use aboure_process::{Answer, BotFailure, BotProcess, FailureKind};

/// How long a bot may take, once released for its turn, to send the
/// `readyok` of its previous move before the wait is charged to its clock
/// (waking from its hold and answering a line takes a few milliseconds).
const FENCE_GRACE: std::time::Duration = std::time::Duration::from_millis(50);

/// Why a bot lost a game: its process failed, or the game refused what it
/// did (a move too late for its clock, an illegal move).
#[derive(Clone, Debug)]
pub struct Forfeit {
    /// How the results file records it.
    pub termination: Termination,
    /// What happened: the offending move, the overrun, the exit status.
    pub detail: String,
}

impl From<BotFailure> for Forfeit {
    fn from(failure: BotFailure) -> Forfeit {
        Forfeit {
            termination: termination(failure.kind),
            detail: failure.detail,
        }
    }
}

/// How the results file records a failure of a bot's process.
pub(crate) fn termination(kind: FailureKind) -> Termination {
    match kind {
        FailureKind::Startup => Termination::StartupFailure,
        FailureKind::Crash => Termination::Crash,
        FailureKind::NoMoveInTime => Termination::TimeForfeit,
        FailureKind::ProtocolViolation => Termination::ProtocolViolation,
        FailureKind::UnreadableMove => Termination::IllegalMove,
        FailureKind::ResourceLimit => Termination::ResourceLimit,
    }
}

/// What a game needs besides its bots.
#[derive(Clone, Debug)]
pub struct GameSetup<'a> {
    /// The scheduled game.
    pub spec: &'a GameSpec,
    /// Bot names, by index.
    pub names: [&'a str; 2],
    /// South's and North's time controls.
    pub time_controls: [TimeControl; 2],
    /// The opening.
    pub opening: &'a Opening,
    /// The opening's index.
    pub opening_index: u32,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// South's and North's `ponder`: run while the opponent thinks.
    pub ponder: [bool; 2],
}

impl<'a> GameSetup<'a> {
    /// The game `spec` of the tournament `config`, from `opening` (its
    /// pair's).
    pub(crate) fn of(
        config: &'a crate::config::Config,
        spec: &'a GameSpec,
        opening: &'a Opening,
    ) -> GameSetup<'a> {
        let ids = [spec.south, spec.north];
        GameSetup {
            spec,
            names: ids.map(|i| config.bot(i).name()),
            time_controls: ids.map(|i| config.bot(i).time_control()),
            opening,
            opening_index: spec.pair,
            adjudication: config.adjudication(),
            ponder: ids.map(|i| config.bot(i).ponder()),
        }
    }
}

/// A game being recorded.
pub struct GameLog<'a> {
    setup: GameSetup<'a>,
    started: SystemTime,
    t0: Instant,
    moves: Vec<Move>,
    plies: Vec<PlyRecord>,
}

impl<'a> GameLog<'a> {
    /// Starts the record of a game now.
    pub fn new(setup: GameSetup<'a>) -> GameLog<'a> {
        GameLog {
            setup,
            started: SystemTime::now(),
            t0: Instant::now(),
            moves: Vec::new(),
            plies: Vec::new(),
        }
    }

    fn push(&mut self, mv: Move, ply: PlyRecord) {
        self.moves.push(mv);
        self.plies.push(ply);
    }

    /// The finished record.
    pub fn finish(
        self,
        position: &Position,
        termination: Termination,
        failure: Option<(Side, Forfeit)>,
    ) -> GameRecord {
        let s = &self.setup;
        let score = position.score();
        let (result, loser, detail) = match &failure {
            Some((side, f)) => {
                let loser = SideName::from(*side);
                (
                    GameResult::forfeit_by(loser),
                    Some(loser),
                    Some(f.detail.clone()),
                )
            }
            None => (GameResult::from_score(score), None, None),
        };
        let termination = failure.as_ref().map_or(termination, |(_, f)| f.termination);
        GameRecord {
            id: s.spec.id.clone(),
            pairing: [
                s.names_by_index(s.spec.bots[0]),
                s.names_by_index(s.spec.bots[1]),
            ],
            pair: s.spec.pair,
            game: s.spec.game,
            opening: OpeningRecord {
                index: s.opening_index,
                moves: s.opening.moves.iter().map(ToString::to_string).collect(),
                position: s.opening.position.map(|p| p.to_string()),
            },
            south: s.names[0].to_owned(),
            north: s.names[1].to_owned(),
            start: s.opening.start_text(),
            moves: self.moves.iter().map(ToString::to_string).collect(),
            plies: self.plies,
            score: Some(score),
            result,
            termination,
            loser,
            detail,
            time_control: [
                s.time_controls[0].to_string(),
                s.time_controls[1].to_string(),
            ],
            started: humantime::format_rfc3339_millis(self.started).to_string(),
            duration_ms: ms(self.t0.elapsed()),
        }
    }
}

impl GameSetup<'_> {
    fn names_by_index(&self, bot: BotId) -> String {
        if bot == self.spec.south {
            self.names[0].to_owned()
        } else {
            self.names[1].to_owned()
        }
    }
}

/// A game that could not start: `side`'s bot failed to start.
pub fn forfeit_at_start(setup: GameSetup<'_>, side: Side, failure: BotFailure) -> GameRecord {
    let position = setup.opening.start();
    let forfeit = Forfeit::from(failure);
    GameLog::new(setup).finish(&position, forfeit.termination, Some((side, forfeit)))
}

/// Plays a game between `bots` (South, North), both already started and
/// told `newgame`. Returns the record and the side whose bot failed, if one
/// did (that bot must be killed, not reused).
pub async fn play(setup: GameSetup<'_>, bots: [&mut BotProcess; 2]) -> (GameRecord, Option<Side>) {
    let mut log = GameLog::new(setup.clone());
    let mut pos = setup.opening.start();
    let mut adjudicator = Adjudicator::new(setup.adjudication, &pos);
    // A small table: the positions of one game share it, and the budget per
    // position bounds the work anyway.
    let mut solver = setup
        .adjudication
        .solve()
        .map(|rule| (rule, Some(Solver::new(4))));
    let mut clocks = setup.time_controls.map(Clock::new);

    // The legal moves, computed once a ply: they tell the end of the game, a
    // forced pass, and whether the bot's move is legal.
    let mut legal = pos.legal_moves();
    for &m in &setup.opening.moves {
        pos.play_unchecked(m);
        log.push(m, ply(Mover::Opening));
        match after_ply(&pos, &mut adjudicator) {
            Ok(next) => legal = next,
            Err(end) => return (log.finish(&pos, end, None), None),
        }
    }
    let mut bots = bots;
    loop {
        if legal.is_empty() {
            return (log.finish(&pos, Termination::Natural, None), None);
        }
        if legal[..] == [Move::Pass] {
            pos.play_unchecked(Move::Pass);
            log.push(Move::Pass, ply(Mover::Forced));
        } else {
            let side = pos.side_to_move();
            let turn = Turn {
                setup: &setup,
                pos: &pos,
                legal: &legal,
            };
            match turn.ask(&mut bots, &mut clocks, &log.moves).await {
                Ok(a) => {
                    pos.play_unchecked(a.mv);
                    let record = PlyRecord {
                        by: Mover::Bot,
                        time_ms: Some(ms(a.elapsed)),
                        clock_ms: clocks[side.index()].remaining().map(ms),
                        info: (!a.info.is_empty()).then_some(a.info),
                    };
                    log.push(a.mv, record);
                }
                Err(failure) => {
                    let name = bots[side.index()].name();
                    tracing::info!(game = %setup.spec.id, bot = %name, kind = %failure.termination, detail = %failure.detail, "bot forfeits");
                    let end = failure.termination;
                    return (log.finish(&pos, end, Some((side, failure))), Some(side));
                }
            }
        }
        match after_ply(&pos, &mut adjudicator) {
            Ok(next) => legal = next,
            Err(end) => return (log.finish(&pos, end, None), None),
        }
        if let Some((rule, solver)) = &mut solver {
            if adjudicator.plies() >= rule.after_plies() {
                if let Some(value) = solve(solver, pos, rule.nodes()).await {
                    let plies = adjudicator.plies();
                    return (solved(log, &pos, plies, value), None);
                }
            }
        }
    }
}

/// One bot's turn: the game so far and the moves it may play.
struct Turn<'a, 's> {
    setup: &'a GameSetup<'s>,
    pos: &'a Position,
    legal: &'a MoveList,
}

impl Turn<'_, '_> {
    /// Asks the bot to move for its move (its opponent held unless it
    /// ponders), charges its clock and checks the move is legal; or says
    /// why the bot forfeits.
    async fn ask(
        &self,
        bots: &mut [&mut BotProcess; 2],
        clocks: &mut [Clock; 2],
        moves: &[Move],
    ) -> Result<Answer, Forfeit> {
        let me = self.pos.side_to_move().index();
        let go = go_message(clocks, self.pos.side_to_move());
        let position = ArbiterMessage::Position(GameSoFar {
            start: match self.setup.opening.position {
                Some(p) => Start::Set(p),
                None => Start::StartPos,
            },
            moves: moves.to_vec(),
        });
        if !self.setup.ponder[1 - me] {
            bots[1 - me].hold().await;
        }
        let bot = &mut *bots[me];
        // The `readyok` of its previous move is normally in before its
        // turn; one it holds back is time it thinks unheld, so the wait
        // beyond FENCE_GRACE is on its clock.
        let asked = Instant::now();
        let answer = match bot.check_unasked().await {
            Ok(()) => {
                let stalled = asked.elapsed().saturating_sub(FENCE_GRACE);
                let limit = clocks[me].deadline();
                (bot.think(&position, &go, limit).await).map(|mut a| {
                    a.elapsed += stalled;
                    a
                })
            }
            Err(f) => Err(f),
        };
        let answer = answer.map_err(Forfeit::from)?;
        clocks[me]
            .charge(answer.elapsed)
            .map_err(|overrun| Forfeit {
                termination: Termination::TimeForfeit,
                detail: overrun.to_string(),
            })?;
        if !self.legal.contains(answer.mv) {
            return Err(Forfeit {
                termination: Termination::IllegalMove,
                detail: format!(
                    "bestmove {} is not legal in {}; legal moves: {}",
                    answer.mv, self.pos, self.legal
                ),
            });
        }
        Ok(answer)
    }
}

/// The record of a game the solver ended after `plies` plies, proving
/// `value` for the side to move in `pos`.
fn solved(log: GameLog<'_>, pos: &Position, plies: u32, value: i32) -> GameRecord {
    let mut record = log.finish(pos, Termination::Solved, None);
    let score = solved_score(pos, value);
    record.score = Some(score);
    record.result = GameResult::from_score(score);
    record.detail = Some(format!(
        "after ply {plies} the solver proved a final margin of {value:+} for {} from {pos}",
        pos.side_to_move()
    ));
    record
}

/// The solver's value of `pos` within `nodes`, computed on the blocking
/// pool: up to a million nodes (the default) must not hold up the runtime
/// worker that carries other games and times their bots' replies. The
/// solver goes there and back, so its table serves the whole game.
async fn solve(solver: &mut Option<Solver>, pos: Position, nodes: u64) -> Option<i32> {
    let mut taken = solver.take()?;
    let (taken, value) = tokio::task::spawn_blocking(move || {
        let value = taken.value_within(&pos, nodes);
        (taken, value)
    })
    .await
    .ok()?;
    *solver = Some(taken);
    value
}

fn ply(by: Mover) -> PlyRecord {
    PlyRecord {
        by,
        time_ms: None,
        clock_ms: None,
        info: None,
    }
}

/// After a ply: the legal moves of the position reached, or how the game
/// ended there (naturally, or by an adjudication rule).
fn after_ply(pos: &Position, adjudicator: &mut Adjudicator) -> Result<MoveList, Termination> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err(Termination::Natural);
    }
    match adjudicator.after_ply(pos) {
        Some(end) => Err(end),
        None => Ok(legal),
    }
}

/// The `go` for `mover` given both clocks.
pub fn go_message(clocks: &[Clock; 2], mover: Side) -> ArbiterMessage {
    let me = &clocks[mover.index()];
    let mut go = Go::default();
    match me.control().limit {
        Limit::Fischer { .. } => {
            let mut wire = Clocks::default();
            for side in [Side::South, Side::North] {
                let c = &clocks[side.index()];
                // A side without a Fischer clock is shown with the mover's.
                let (time, inc) = match c.remaining() {
                    Some(t) => (t, c.increment()),
                    None => (me.remaining().unwrap_or_default(), me.increment()),
                };
                wire.time[side.index()] = time;
                wire.increment[side.index()] = inc;
            }
            go.clocks = Some(wire);
        }
        Limit::Movetime(t) => go.movetime = Some(t),
        Limit::Depth { depth, .. } => go.depth = Some(depth),
        Limit::Nodes { nodes, .. } => go.nodes = Some(nodes),
    }
    ArbiterMessage::Go(go)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn go_carries_both_fischer_clocks() {
        let tc = |base| TimeControl {
            limit: Limit::Fischer {
                base: Duration::from_millis(base),
                increment: Duration::from_millis(10),
            },
            margin: Duration::ZERO,
        };
        let clocks = [Clock::new(tc(1000)), Clock::new(tc(2000))];
        assert_eq!(
            go_message(&clocks, Side::North).to_string(),
            "go stime 1000 ntime 2000 sinc 10 ninc 10"
        );
    }

    #[test]
    fn go_for_movetime() {
        let tc = TimeControl {
            limit: Limit::Movetime(Duration::from_millis(100)),
            margin: Duration::ZERO,
        };
        let clocks = [Clock::new(tc), Clock::new(tc)];
        assert_eq!(
            go_message(&clocks, Side::South).to_string(),
            "go movetime 100"
        );
    }
}
