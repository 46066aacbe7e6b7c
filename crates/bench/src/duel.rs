//! What the bench's measurements say of a game played by
//! [`aboure_protocol::duel::play`], the one in-process game loop (which
//! `aboure tune`'s sample plays too): the result for one side, and the
//! node limits the reference bots search under.

use aboure_engine::Side;
use aboure_protocol::SearchLimits;
use aboure_stats::PlayerResult;

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
    use aboure_engine::Position;
    use aboure_protocol::duel::{play, Seat};

    #[test]
    fn the_result_of_a_played_game_is_each_sides_view_of_its_score() {
        let (mut a, mut b) = (GreedyPlayer::default(), RandomPlayer::default());
        let limits = SearchLimits::default();
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
            |_, _| {},
        );
        assert_eq!(u32::from(score[0]) + u32::from(score[1]), 48);
        let (south, north) = (result(score, Side::South), result(score, Side::North));
        let want = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => (PlayerResult::Win, PlayerResult::Loss),
            std::cmp::Ordering::Equal => (PlayerResult::Draw, PlayerResult::Draw),
            std::cmp::Ordering::Less => (PlayerResult::Loss, PlayerResult::Win),
        };
        assert_eq!((south, north), want);
        assert_eq!(result([30, 18], Side::South), PlayerResult::Win);
        assert_eq!(result([30, 18], Side::North), PlayerResult::Loss);
        assert_eq!(result([24, 24], Side::North), PlayerResult::Draw);
    }
}
