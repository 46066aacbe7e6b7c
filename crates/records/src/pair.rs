//! Game pairs: the two games of one opening with colours swapped.
//!
//! The pair, not the game, is the independent sample of a match (a lopsided
//! opening tends to give one win each), so pentanomial statistics and the
//! SPRT count pairs. This is the one definition of what makes two records a
//! pair, used by the live SPRT of `aboure run` and by `aboure report`, so
//! they always count the same pairs: same `pairing` and `pair`, games 0 and
//! 1, South and North exchanged, both bots of the pairing playing.
//!
//! Games arrive one at a time (from a run, or read from files); a
//! [`PairBook`] keeps only the pairs still open, so assembling the pairs of
//! any number of games takes memory for the open ones alone.

use std::collections::HashMap;

use aboure_stats::{GameResult as Outcome, PairOutcome};

use crate::record::{GameRecord, GameResult};

/// A complete game pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePair {
    /// The two bots, in schedule order; `results` are the first one's.
    pub pairing: [String; 2],
    /// The pair number within the pairing (also the opening's).
    pub pair: u32,
    /// The first bot's results in games 0 and 1.
    pub results: PairOutcome,
}

impl GamePair {
    /// The pair made of `a` and `b` (in either order), if they are games 0
    /// and 1 of one pair with colours swapped, played by the pairing's bots.
    pub fn from_games(a: &GameRecord, b: &GameRecord) -> Option<GamePair> {
        if a.pairing != b.pairing || a.pair != b.pair {
            return None;
        }
        let [first, second] = &a.pairing;
        let results = pair_results([first.as_str(), second.as_str()], seat(a), seat(b))?;
        Some(GamePair {
            pairing: a.pairing.clone(),
            pair: a.pair,
            results,
        })
    }
}

/// One game of a pair as the rule sees it: which game of the pair it is,
/// who sat where (by name, or by any other key of a player), and the result
/// from South's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat<P> {
    /// 0 or 1: the game within the pair.
    pub game: u8,
    /// South's player.
    pub south: P,
    /// North's player.
    pub north: P,
    /// The result from South's view.
    pub result: Outcome,
}

impl<P: PartialEq> Seat<P> {
    /// The result of `p`, who played one of the sides.
    fn result_of(&self, p: &P) -> Outcome {
        if *p == self.south {
            self.result
        } else {
            !self.result
        }
    }
}

/// The rule of a game pair, written once: two games of one opening (same
/// pairing and pair number, which the caller has matched) are a pair when
/// they are games 0 and 1 with South and North exchanged, played by the
/// pairing's two different bots. Returns the first bot's results in games
/// 0 and 1.
pub fn pair_results<P: PartialEq + Copy>(
    pairing: [P; 2],
    a: Seat<P>,
    b: Seat<P>,
) -> Option<PairOutcome> {
    let (x, y) = if a.game == 0 { (a, b) } else { (b, a) };
    let [first, second] = pairing;
    let swapped = x.game == 0 && y.game == 1 && x.south == y.north && x.north == y.south;
    let players =
        (x.south == first && x.north == second) || (x.south == second && x.north == first);
    (swapped && players && first != second).then(|| [x.result_of(&first), y.result_of(&first)])
}

/// A recorded result as statistics count it, from South's view.
pub fn south_outcome(result: GameResult) -> Outcome {
    match result {
        GameResult::SouthWins => Outcome::Win,
        GameResult::NorthWins => Outcome::Loss,
        GameResult::Draw => Outcome::Draw,
    }
}

fn seat(game: &GameRecord) -> Seat<&str> {
    Seat {
        game: game.game,
        south: &game.south,
        north: &game.north,
        result: south_outcome(game.result),
    }
}

/// The result of `game` for the bot `name` (who played it).
pub fn outcome(game: &GameRecord, name: &str) -> Outcome {
    match game.points_of(name) {
        Some(p) if p > 0.75 => Outcome::Win,
        Some(p) if p < 0.25 => Outcome::Loss,
        _ => Outcome::Draw,
    }
}

/// Assembles pairs from games given one at a time, keeping only the pairs
/// with one game so far. Each game carries a `tag` (its index in a list, or
/// nothing) returned with the pair it completes.
///
/// A game id seen again while its pair is open is ignored. A pair whose two
/// games do not fit together (same game index, colours not swapped) is
/// broken: it is never counted, and later games of it are ignored.
#[derive(Clone, Debug)]
pub struct PairBook<T> {
    open: HashMap<([String; 2], u32), Slot<T>>,
}

#[derive(Clone, Debug)]
enum Slot<T> {
    Open(Box<GameRecord>, T),
    Broken,
}

impl<T> Default for PairBook<T> {
    fn default() -> Self {
        PairBook {
            open: HashMap::new(),
        }
    }
}

impl<T> PairBook<T> {
    /// An empty book.
    pub fn new() -> PairBook<T> {
        PairBook::default()
    }

    /// Adds `game`; returns the pair it completes, with both games' tags
    /// (game 0's first).
    pub fn add(&mut self, game: &GameRecord, tag: T) -> Option<(GamePair, [T; 2])> {
        let key = (game.pairing.clone(), game.pair);
        match self.open.remove(&key) {
            None => {
                self.open.insert(key, Slot::Open(Box::new(slim(game)), tag));
                None
            }
            Some(Slot::Broken) => {
                self.open.insert(key, Slot::Broken);
                None
            }
            Some(Slot::Open(first, first_tag)) if first.id == game.id => {
                self.open.insert(key, Slot::Open(first, first_tag));
                None
            }
            Some(Slot::Open(first, first_tag)) => match GamePair::from_games(&first, game) {
                Some(pair) => {
                    let tags = if first.game == 0 {
                        [first_tag, tag]
                    } else {
                        [tag, first_tag]
                    };
                    Some((pair, tags))
                }
                None => {
                    self.open.insert(key, Slot::Broken);
                    None
                }
            },
        }
    }

    /// Pairs with one game so far (broken ones included).
    pub fn open(&self) -> usize {
        self.open.len()
    }
}

/// What pairing a game needs (no moves, no texts).
fn slim(game: &GameRecord) -> GameRecord {
    GameRecord {
        id: game.id.clone(),
        pairing: game.pairing.clone(),
        pair: game.pair,
        game: game.game,
        opening: Default::default(),
        south: game.south.clone(),
        north: game.north.clone(),
        start: String::new(),
        moves: Vec::new(),
        plies: Vec::new(),
        score: None,
        result: game.result,
        termination: game.termination,
        loser: None,
        detail: None,
        time_control: Default::default(),
        started: String::new(),
        duration_ms: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_games;

    fn games(lines: &[&str]) -> Vec<GameRecord> {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        parse_games(text.as_bytes(), "g.jsonl".as_ref()).games
    }

    fn line(id: &str, pair: u32, game: u8, south: &str, north: &str, result: &str) -> String {
        format!(
            r#"{{"id":"{id}","pairing":["x","y"],"pair":{pair},"game":{game},"south":"{south}","north":"{north}","result":"{result}","termination":"natural"}}"#
        )
    }

    #[test]
    fn pairs_are_complete_swapped_and_seen_from_the_first_bot() {
        let lines = [
            line("b", 0, 1, "y", "x", "1/2-1/2"),
            line("a", 0, 0, "x", "y", "1-0"),
            line("c", 1, 0, "x", "y", "0-1"),
            // Pair 2 is broken: colours not swapped.
            line("d", 2, 0, "x", "y", "1-0"),
            line("e", 2, 1, "x", "y", "1-0"),
            line("f", 2, 1, "y", "x", "1-0"),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let mut book = PairBook::new();
        let pairs: Vec<_> = games(&lines)
            .iter()
            .enumerate()
            .filter_map(|(i, g)| book.add(g, i))
            .collect();
        assert_eq!(pairs.len(), 1);
        let (pair, tags) = &pairs[0];
        assert_eq!(tags, &[1, 0]);
        assert_eq!(pair.pair, 0);
        assert_eq!(pair.results, [Outcome::Win, Outcome::Draw]);
        assert_eq!(book.open(), 2, "pair 1 open, pair 2 broken");
    }

    #[test]
    fn a_game_read_twice_does_not_make_a_pair() {
        let l = line("a", 0, 0, "x", "y", "1-0");
        let g = games(&[&l, &l]);
        let mut book = PairBook::new();
        assert!(book.add(&g[0], ()).is_none());
        assert!(book.add(&g[1], ()).is_none());
        let other = games(&[&line("b", 0, 1, "y", "x", "1-0")]);
        let (pair, _) = book.add(&other[0], ()).unwrap();
        assert_eq!(pair.results, [Outcome::Win, Outcome::Loss]);
    }
}
