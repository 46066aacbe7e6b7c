//! perft: the number of move sequences of a given length, the standard check
//! that move generation and play are right.

use crate::position::Position;

/// Counts the nodes at exactly `depth` plies below `pos`. A forced pass is one
/// ply; a finished game has no children.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (_, next, n) = pos.children();
    if depth == 1 {
        return n as u64;
    }
    next[..n].iter().map(|child| perft(child, depth - 1)).sum()
}
