//! `greedy`: the move that captures the most seeds now. One step above
//! random: it never misses an immediate capture, and looks no further.

use aboure_engine::{Move, Position, Side};
use rand::rngs::SmallRng;
use rand::Rng;

use crate::seeded::{ChoiceRule, Seeded};

/// Plays the move that captures most now; among equal captures, the one that
/// leaves the best simple position ([`tie_break`]); among those, a random one
/// (see [`Seeded`] for its `seed`).
pub type GreedyPlayer = Seeded<Greedy>;

/// The rule of `greedy`: the biggest capture now.
pub struct Greedy;

impl ChoiceRule for Greedy {
    const NAME: &'static str = "greedy";

    fn choose(position: &Position, rng: &mut SmallRng) -> Move {
        greedy_move(position, rng)
    }
}

/// How good `after` looks for `me`, who just moved, without search: seeds in
/// my row against the opponent's (they are mine if the game ends now), minus
/// the pits holding 1 or 3 seeds, which the opponent's next sowing can turn
/// into a capture of 2 or 4.
pub fn tie_break(after: &Position, me: Side) -> i32 {
    let targets = after.pits().iter().filter(|&&n| n == 1 || n == 3).count() as i32;
    after.row_seeds(me) as i32 - after.row_seeds(!me) as i32 - 2 * targets
}

/// The greedy choice for `position`, breaking exact ties with `rng`.
pub(crate) fn greedy_move(position: &Position, rng: &mut SmallRng) -> Move {
    let (moves, next, n) = position.children();
    if n == 0 {
        return Move::Pass;
    }
    let me = position.side_to_move();
    let key = |i: usize| {
        let gain = next[i].captured(me) as i32 - position.captured(me) as i32;
        (gain, tie_break(&next[i], me))
    };
    let best = (0..n).map(key).max().expect("at least one move");
    let ties: Vec<usize> = (0..n).filter(|&i| key(i) == best).collect();
    moves[ties[rng.gen_range(0..ties.len())]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::rng_for;

    #[test]
    fn takes_the_biggest_capture() {
        // Several captures of different sizes are on offer; the engine says
        // which is biggest.
        let pos: Position = "0,0,0,0,3,2/1,1,3,3,3,4 s 14 14".parse().unwrap();
        let mut rng = rng_for(1);
        let chosen = greedy_move(&pos, &mut rng);
        let gain = |m: Move| pos.after(m).unwrap().captured(Side::South) - 14;
        let best = pos.legal_moves().iter().map(|&m| gain(m)).max().unwrap();
        assert!(best > 0, "the test position must offer a capture");
        assert_eq!(gain(chosen), best);
    }

    #[test]
    fn tie_break_counts_rows_and_targets() {
        let pos: Position = "4,4,4,4,4,4/4,4,4,4,4,4 n 0 0".parse().unwrap();
        assert_eq!(tie_break(&pos, Side::South), 0);
        let pos: Position = "1,3,0,0,0,0/2,0,0,0,0,0 n 20 22".parse().unwrap();
        assert_eq!(tie_break(&pos, Side::South), 4 - 2 - 4);
    }
}
