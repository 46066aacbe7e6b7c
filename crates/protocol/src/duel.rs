//! One game between two in-process players: the loop that `aboure tune`'s
//! sample of positions and every measurement of the bench that plays games
//! share, so that their games are played by one rule. Forced passes are
//! played for the bots (as the arbiter plays them), each bot searches under
//! its own limits with a search nobody stops, and a game stops at
//! [`MAX_PLIES`] as the arbiter's default adjudication stops it.
//!
//! It lives beside [`Player`] because it needs nothing else: the tuning and
//! the bench both stand on this crate, and neither on the other's loop.

use std::time::Instant;

use aboure_engine::{Move, Position};

use crate::player::{Player, Search, SearchInfo, SearchLimits};

/// Longest game, in plies (the arbiter's default adjudication,
/// `max-plies = 400`).
pub const MAX_PLIES: usize = 400;

/// A player and the limits it searches under.
pub struct Seat<'a> {
    /// The bot.
    pub player: &'a mut dyn Player,
    /// Its limits for every move.
    pub limits: &'a SearchLimits,
}

/// A search started when the move was asked for, never stopped from
/// outside, whose info lines go nowhere: a bot played without the protocol
/// loop.
struct Unwatched(Instant);

impl Search for Unwatched {
    fn started(&self) -> Instant {
        self.0
    }
    fn stopped(&self) -> bool {
        false
    }
    fn info(&mut self, _: &SearchInfo) {}
}

/// Plays a game from `start` between `south` and `north` (both told of a
/// new game first). `on_move` sees every position a bot chose in and the
/// move it chose, before it is played (forced passes are not a choice).
/// Returns the final score, South's first.
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
        let m = if pos.legal_moves().as_slice() == [Move::Pass] {
            Move::Pass
        } else {
            let seat = &mut seats[pos.side_to_move().index()];
            let mut search = Unwatched(Instant::now());
            let m = seat.player.choose(&pos, &history, seat.limits, &mut search);
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

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_engine::Side;

    /// Plays the `k`-th legal move, or a move of the opponent's row (never
    /// legal) once it has played `illegal_after` moves; counts new games
    /// and the history it was shown.
    struct Scripted {
        k: usize,
        illegal_after: usize,
        moved: usize,
        new_games: usize,
        history_ok: bool,
    }

    impl Scripted {
        fn new(k: usize, illegal_after: usize) -> Scripted {
            Scripted {
                k,
                illegal_after,
                moved: 0,
                new_games: 0,
                history_ok: true,
            }
        }
    }

    impl Player for Scripted {
        fn name(&self) -> String {
            "scripted".into()
        }
        fn author(&self) -> String {
            "test".into()
        }
        fn new_game(&mut self) {
            self.new_games += 1;
        }
        fn choose(
            &mut self,
            position: &Position,
            history: &[Position],
            _: &SearchLimits,
            search: &mut dyn Search,
        ) -> Move {
            assert!(!search.stopped());
            // The history ends with the position before this one.
            self.history_ok &= history.last().is_none_or(|p| {
                let mut next = *p;
                p.legal_moves().iter().any(|&m| {
                    next = *p;
                    next.play(m).is_ok() && next == *position
                })
            });
            self.moved += 1;
            if self.moved > self.illegal_after {
                let theirs = if position.side_to_move() == Side::South {
                    7
                } else {
                    1
                };
                return Move::sow(theirs).unwrap();
            }
            let legal = position.legal_moves();
            legal[self.k % legal.len()]
        }
    }

    fn game(south: &mut Scripted, north: &mut Scripted) -> ([u8; 2], Vec<(Position, Move)>) {
        let limits = SearchLimits::default();
        let mut seen = Vec::new();
        let score = play(
            Seat {
                player: south,
                limits: &limits,
            },
            Seat {
                player: north,
                limits: &limits,
            },
            Position::startpos(),
            |pos, m| seen.push((*pos, m)),
        );
        (score, seen)
    }

    #[test]
    fn a_game_is_played_to_its_end_and_every_choice_is_seen() {
        let (mut a, mut b) = (Scripted::new(0, usize::MAX), Scripted::new(1, usize::MAX));
        let (score, seen) = game(&mut a, &mut b);
        let mut pos = Position::startpos();
        for (at, m) in &seen {
            // Forced passes between the choices are played for the bots.
            while pos != *at {
                assert_eq!(pos.legal_moves().as_slice(), [Move::Pass]);
                pos.play(Move::Pass).unwrap();
            }
            assert!(pos.is_legal(*m));
            pos.play(*m).unwrap();
        }
        assert_eq!((a.new_games, b.new_games), (1, 1));
        assert_eq!(a.moved + b.moved, seen.len());
        assert!(a.history_ok && b.history_ok);
        assert!(pos.is_game_over() || seen.len() >= MAX_PLIES / 2);
        assert_eq!(score, pos.score());
        assert_eq!(u32::from(score[0]) + u32::from(score[1]), 48);
    }

    #[test]
    fn an_illegal_choice_ends_the_game_where_it_stands() {
        let (mut a, mut b) = (Scripted::new(0, 3), Scripted::new(0, usize::MAX));
        let (score, seen) = game(&mut a, &mut b);
        assert_eq!(a.moved, 4, "the fourth choice of South is illegal");
        let (last, m) = seen.last().unwrap();
        assert!(!last.is_legal(*m));
        assert_eq!(score, last.score());
    }
}
