//! One game between two in-process players, the loop every measurement of
//! this crate that plays games shares: forced passes are played for the
//! bots (as the arbiter plays them), each bot searches under its own
//! limits, and a game stops at [`MAX_PLIES`] as the arbiter's default
//! adjudication stops it.

use aboure_engine::{Move, Position, Side};
use aboure_protocol::{Player, SearchLimits};
use aboure_stats::PlayerResult;

use crate::search::Local;

/// Longest game, in plies (the arbiter's default adjudication).
pub const MAX_PLIES: usize = 400;

/// A player and the limits it searches under.
pub struct Seat<'a> {
    /// The bot.
    pub player: &'a mut dyn Player,
    /// Its limits for every move.
    pub limits: &'a SearchLimits,
}

/// Plays a game from `start` between `south` and `north` (both told of a
/// new game first). `on_move` sees every position a bot chose in and the
/// move it chose, before it is played. Returns the final score, South's
/// first.
pub fn play<'a>(
    south: Seat<'a>,
    north: Seat<'a>,
    start: Position,
    mut on_move: impl FnMut(&Position, Move),
) -> [u8; 2] {
    let mut seats = [south, north];
    for seat in &mut seats {
        seat.player.new_game();
    }
    let mut pos = start;
    let mut history = Vec::new();
    while !pos.is_game_over() && history.len() < MAX_PLIES {
        let moves = pos.legal_moves();
        let m = if moves.as_slice() == [Move::Pass] {
            Move::Pass
        } else {
            let seat = &mut seats[pos.side_to_move().index()];
            let m = seat
                .player
                .choose(&pos, &history, seat.limits, &mut Local::new());
            on_move(&pos, m);
            m
        };
        history.push(pos);
        if pos.play(m).is_err() {
            break;
        }
    }
    pos.score()
}

/// The result for `side` of a game that ended with `score`.
pub fn result(score: [u8; 2], side: Side) -> PlayerResult {
    let (me, them) = (score[side.index()], score[(!side).index()]);
    match me.cmp(&them) {
        std::cmp::Ordering::Greater => PlayerResult::Win,
        std::cmp::Ordering::Equal => PlayerResult::Draw,
        std::cmp::Ordering::Less => PlayerResult::Loss,
    }
}

/// Search limits of `n` nodes a move.
pub fn nodes(n: u64) -> SearchLimits {
    SearchLimits {
        nodes: Some(n),
        ..SearchLimits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_bots::{GreedyPlayer, RandomPlayer};

    #[test]
    fn a_game_is_played_to_its_end_and_every_chosen_move_is_seen() {
        let (mut a, mut b) = (GreedyPlayer::default(), RandomPlayer::default());
        let limits = SearchLimits::default();
        let mut seen = 0;
        let score = play(
            Seat {
                player: &mut a,
                limits: &limits,
            },
            Seat {
                player: &mut b,
                limits: &limits,
            },
            Position::startpos(),
            |pos, m| {
                assert!(pos.is_legal(m));
                seen += 1;
            },
        );
        assert_eq!(u32::from(score[0]) + u32::from(score[1]), 48);
        assert!(seen > 0);
        let side = if score[0] > score[1] {
            Side::South
        } else {
            Side::North
        };
        if score[0] != score[1] {
            assert_eq!(result(score, side), PlayerResult::Win);
            assert_eq!(result(score, !side), PlayerResult::Loss);
        }
    }
}
