//! Openings: a start position and a few moves played by the arbiter, the
//! same for both games of a pair so colour is the only difference. Random
//! openings are drawn from the tournament seed, one independent stream per
//! opening index, so opening 7 is the same whatever else changes.

use aboure_engine::{IllegalMove, Move, ParseMoveError, ParsePositionError, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Where a tournament's openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// `plies` uniformly random legal moves from the start.
    Random {
        /// Moves per opening.
        plies: u32,
    },
    /// The lines of an openings file, used in order (and again from the top
    /// if there are more pairs than lines).
    File(Vec<Opening>),
}

/// How `run.json` names the built-in balanced book (`builtin_openings`).
pub const BALANCED_BOOK_ID: &str = "balanced";

/// How the run's output and its report name the built-in balanced book.
pub const BALANCED_BOOK_NAME: &str = "the built-in balanced book";

/// Which openings a tournament plays, as its output names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningsName {
    /// Random openings: `[openings] plies`, or the default of a round robin
    /// or a gauntlet.
    Random {
        /// Moves per opening.
        plies: u32,
    },
    /// `[openings] file`, as the tournament file names it.
    File(String),
    /// The built-in balanced book ([`crate::BALANCED_BOOK`]): the default
    /// of an SPRT and a league.
    BalancedBook,
}

impl std::fmt::Display for OpeningsName {
    /// `random openings of 4 plies`, `book.txt`, or the built-in book's
    /// name.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningsName::Random { plies } => write!(f, "random openings of {plies} plies"),
            OpeningsName::File(name) => f.write_str(name),
            OpeningsName::BalancedBook => f.write_str(BALANCED_BOOK_NAME),
        }
    }
}

/// One opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A set-up start position, or `None` for the standard start.
    pub position: Option<Position>,
    /// Moves played from it before the bots take over.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position the game starts from.
    pub fn start(&self) -> Position {
        self.position.unwrap_or_else(Position::startpos)
    }

    /// The start in notation: `startpos` or the set-up position.
    pub fn start_text(&self) -> String {
        match &self.position {
            Some(p) => p.to_string(),
            None => "startpos".to_owned(),
        }
    }
}

impl OpeningSource {
    /// Opening number `index` (the pair number) for `seed`.
    pub fn opening(&self, seed: u64, index: u32) -> Opening {
        match self {
            OpeningSource::Random { plies } => random_opening(seed, index, *plies),
            OpeningSource::File(list) => list[index as usize % list.len()].clone(),
        }
    }
}

/// `plies` uniformly random legal moves from the start, from a stream
/// seeded by `seed` and `index`; a draw that ends the game is skipped.
pub fn random_opening(seed: u64, index: u32, plies: u32) -> Opening {
    let mixed = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(index).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut rng = SmallRng::seed_from_u64(mixed);
    'draw: for _ in 0..10_000 {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                continue 'draw;
            }
            let m = legal[rng.gen_range(0..legal.len())];
            pos.play_unchecked(m);
            moves.push(m);
        }
        if !pos.is_game_over() {
            return Opening {
                position: None,
                moves,
            };
        }
    }
    // Unreachable for sane ply counts (validated to at most 40).
    Opening {
        position: None,
        moves: Vec::new(),
    }
}

/// Parses an openings file: one opening per line, either a position
/// (`startpos` or RULES.md notation), a move sequence from the start
/// (`2 7 3`), or a position followed by `moves ...`. Blank lines are
/// skipped, and a `#` starts a comment to the end of its line. Errors carry the 1-based line number.
pub fn parse_opening_file(text: &str) -> Result<Vec<Opening>, OpeningFileError> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        // A `#` starts a comment, on a line of its own or after an opening
        // (a book from `aboure openings` notes each position's value there).
        let line = raw.split_once('#').map_or(raw, |(before, _)| before).trim();
        if line.is_empty() {
            continue;
        }
        let (pos_text, moves_text) = match line.split_once("moves") {
            Some((p, m)) => (p.trim(), m.trim()),
            None if line.parse::<Position>().is_ok() => (line, ""),
            None => ("", line),
        };
        let position = if pos_text.is_empty() || pos_text == "startpos" {
            None
        } else {
            Some(
                pos_text
                    .parse::<Position>()
                    .map_err(|e| at(i, OpeningProblem::Position(pos_text.to_owned(), e)))?,
            )
        };
        let mut pos = position.unwrap_or_else(Position::startpos);
        let mut moves = Vec::new();
        for token in moves_text.split_whitespace() {
            let m: Move = token
                .parse()
                .map_err(|e| at(i, OpeningProblem::Move(token.to_owned(), e)))?;
            pos.play(m)
                .map_err(|e| at(i, OpeningProblem::Illegal(token.to_owned(), pos, e)))?;
            moves.push(m);
        }
        if pos.is_game_over() {
            return Err(at(i, OpeningProblem::EndsTheGame));
        }
        openings.push(Opening { position, moves });
    }
    if openings.is_empty() {
        return Err(OpeningFileError {
            line: 0,
            problem: OpeningProblem::Empty,
        });
    }
    Ok(openings)
}

/// The error of line `index` (0-based).
fn at(index: usize, problem: OpeningProblem) -> OpeningFileError {
    OpeningFileError {
        line: index + 1,
        problem,
    }
}

/// A line of an openings file that is not an opening.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{problem}")]
pub struct OpeningFileError {
    /// 1-based line, 0 for the whole file.
    pub line: usize,
    /// What is wrong with it.
    pub problem: OpeningProblem,
}

/// What is wrong with a line of an openings file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OpeningProblem {
    /// The text before `moves` is not a position.
    #[error("{0:?} is not a position: {1}")]
    Position(String, ParsePositionError),
    /// A token is not a move.
    #[error("{0:?} is not a move: {1}")]
    Move(String, ParseMoveError),
    /// A move is illegal in the position it reaches.
    #[error("move {0} is illegal in {1}: {2}")]
    Illegal(String, Position, IllegalMove),
    /// The opening leaves a finished game.
    #[error("the opening ends the game")]
    EndsTheGame,
    /// No line holds an opening.
    #[error("the file holds no openings")]
    Empty,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_reproducible_and_legal() {
        for index in 0..50 {
            let a = random_opening(7, index, 6);
            assert_eq!(a, random_opening(7, index, 6));
            assert_eq!(a.moves.len(), 6);
            let mut pos = Position::startpos();
            for m in &a.moves {
                pos.play(*m).unwrap();
            }
            assert!(!pos.is_game_over());
        }
        assert_ne!(random_opening(7, 0, 6), random_opening(8, 0, 6));
    }

    #[test]
    fn opening_file_lines() {
        let text = "# comment\n2 7\nstartpos\n4,4,4,4,4,4/4,4,4,4,4,4 n 0 0 moves 8\n";
        let list = parse_opening_file(text).unwrap();
        assert_eq!(list.len(), 3);
        assert_eq!(list[0].moves.len(), 2);
        assert!(list[1].moves.is_empty() && list[1].position.is_none());
        assert!(list[2].position.is_some());
        assert_eq!(list[2].start_text(), "4,4,4,4,4,4/4,4,4,4,4,4 n 0 0");
    }

    #[test]
    fn a_comment_may_follow_an_opening() {
        let text = "5,1,2,6,6,0/5,5,5,1,5,5 n 2 0 # value 3 random-loss 1.20\n2 7 # two moves\n";
        let list = parse_opening_file(text).unwrap();
        assert_eq!(list[0].start_text(), "5,1,2,6,6,0/5,5,5,1,5,5 n 2 0");
        assert_eq!(list[1].moves.len(), 2);
    }

    #[test]
    fn opening_file_errors_name_the_line() {
        let illegal = parse_opening_file("2\n7\n").unwrap_err();
        assert_eq!(illegal.line, 2);
        assert!(matches!(&illegal.problem, OpeningProblem::Illegal(m, _, _) if m == "7"));
        let bad = parse_opening_file("2 x\n").unwrap_err();
        assert_eq!(bad.line, 1);
        assert!(
            matches!(&bad.problem, OpeningProblem::Move(t, _) if t == "x"),
            "{bad:?}"
        );
        assert_eq!(parse_opening_file("# none\n").unwrap_err().line, 0);
    }
}
