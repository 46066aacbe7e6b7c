//! Game pairs: the two games of one opening with colours swapped.
//!
//! The pair, not the game, is the independent sample of a match (a lopsided
//! opening tends to give one win each), so pentanomial statistics and the
//! SPRT count pairs. This is the one definition of what makes two games a
//! pair ([`pair_results`]: games 0 and 1 of one pair number, South and
//! North exchanged, both bots of the pairing playing) and the one book that
//! assembles pairs from games given one at a time ([`PairBook`]), used by
//! the live SPRT of `aboure run`, by `aboure report` and by the live page,
//! so they always count the same pairs.
//!
//! The book keeps only the pairs still open, so assembling the pairs of any
//! number of games takes memory for the open ones alone. Its callers key
//! players differently (the report by index, the arbiter by name), so it is
//! generic over the player and over the key of a pair (the report matches
//! pairs within one file, the arbiter within one pairing).

use std::collections::HashMap;
use std::hash::Hash;

use aboure_stats::{PairOutcome, PlayerResult};

use crate::record::{GameRecord, GameResult};

/// A complete game pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePair<P = String> {
    /// The two bots, in schedule order; `results` are the first one's.
    pub pairing: [P; 2],
    /// The pair number within the pairing (also the opening's).
    pub pair: u32,
    /// The first bot's results in games 0 and 1.
    pub results: PairOutcome,
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
    pub result: PlayerResult,
}

impl<P: PartialEq> Seat<P> {
    /// The result of `p`, who played one of the sides.
    fn result_of(&self, p: &P) -> PlayerResult {
        if *p == self.south {
            self.result
        } else {
            !self.result
        }
    }
}

impl Seat<String> {
    /// The seat of a recorded game, players by name.
    pub fn of_record(game: &GameRecord) -> Seat<String> {
        Seat {
            game: game.game,
            south: game.south.clone(),
            north: game.north.clone(),
            result: south_outcome(game.result),
        }
    }
}

/// The rule of a game pair, written once: two games of one opening (same
/// pairing and pair number, which the caller has matched) are a pair when
/// they are games 0 and 1 with South and North exchanged, played by the
/// pairing's two different bots. Returns the first bot's results in games
/// 0 and 1.
pub fn pair_results<P: PartialEq>(
    pairing: &[P; 2],
    a: &Seat<P>,
    b: &Seat<P>,
) -> Option<PairOutcome> {
    let (x, y) = if a.game == 0 { (a, b) } else { (b, a) };
    let [first, second] = pairing;
    let swapped = x.game == 0 && y.game == 1 && x.south == y.north && x.north == y.south;
    let players =
        (x.south == *first && x.north == *second) || (x.south == *second && x.north == *first);
    (swapped && players && first != second).then(|| [x.result_of(first), y.result_of(first)])
}

/// A recorded result as statistics count it, from South's view.
pub fn south_outcome(result: GameResult) -> PlayerResult {
    match result {
        GameResult::SouthWins => PlayerResult::Win,
        GameResult::NorthWins => PlayerResult::Loss,
        GameResult::Draw => PlayerResult::Draw,
    }
}

/// The result of `game` for the bot `name` (who played it).
pub fn outcome(game: &GameRecord, name: &str) -> PlayerResult {
    match game.points_of(name) {
        Some(p) if p > 0.75 => PlayerResult::Win,
        Some(p) if p < 0.25 => PlayerResult::Loss,
        _ => PlayerResult::Draw,
    }
}

/// Assembles pairs from games given one at a time, keeping only the pairs
/// with one game so far. The rule, for the games of one key `K` (one pair
/// number of one pairing):
///
/// 1. the first game waits for its partner;
/// 2. a game with the same game index as the waiting one is that game read
///    again, and is ignored;
/// 3. otherwise the two games make the pair if they fit ([`pair_results`]),
///    which is returned and forgotten; if they do not (colours not swapped,
///    another bot), the pair is broken: it is never counted, and every later
///    game of it is ignored.
///
/// A game of a pair already complete opens the pair again: callers give
/// each game once (the report counts an id once, the arbiter reads each
/// file once), and the book does not remember every pair it has seen.
#[derive(Clone, Debug)]
pub struct PairBook<K, P> {
    open: HashMap<K, Slot<P>>,
}

#[derive(Clone, Debug)]
enum Slot<P> {
    Open(Seat<P>),
    Broken,
}

/// The book the arbiter keeps of recorded games: pairs keyed by pairing and
/// pair number, players by name.
pub type RecordPairBook = PairBook<([String; 2], u32), String>;

impl<K, P> Default for PairBook<K, P> {
    fn default() -> Self {
        PairBook {
            open: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq, P: PartialEq> PairBook<K, P> {
    /// An empty book.
    pub fn new() -> PairBook<K, P> {
        PairBook::default()
    }

    /// Adds the game `seat` of pair number `pair` of `pairing`, under `key`
    /// (which must tell apart the pairs callers want kept apart); returns
    /// the pair it completes.
    pub fn add(
        &mut self,
        key: K,
        pairing: [P; 2],
        pair: u32,
        seat: Seat<P>,
    ) -> Option<GamePair<P>> {
        match self.open.remove(&key) {
            None => {
                self.open.insert(key, Slot::Open(seat));
                None
            }
            Some(Slot::Broken) => {
                self.open.insert(key, Slot::Broken);
                None
            }
            Some(Slot::Open(first)) if first.game == seat.game => {
                self.open.insert(key, Slot::Open(first));
                None
            }
            Some(Slot::Open(first)) => match pair_results(&pairing, &first, &seat) {
                Some(results) => Some(GamePair {
                    pairing,
                    pair,
                    results,
                }),
                None => {
                    self.open.insert(key, Slot::Broken);
                    None
                }
            },
        }
    }

    /// Pairs with one game so far, broken ones included.
    pub fn open(&self) -> usize {
        self.open.len()
    }
}

impl RecordPairBook {
    /// Adds a recorded game; returns the pair it completes.
    pub fn add_record(&mut self, game: &GameRecord) -> Option<GamePair> {
        self.add(
            (game.pairing.clone(), game.pair),
            game.pairing.clone(),
            game.pair,
            Seat::of_record(game),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_games;
    use proptest::prelude::*;

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
            // Pair 2 is broken: colours not swapped; the game that would
            // have fitted comes too late.
            line("d", 2, 0, "x", "y", "1-0"),
            line("e", 2, 1, "x", "y", "1-0"),
            line("f", 2, 1, "y", "x", "1-0"),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let mut book = RecordPairBook::new();
        let pairs: Vec<GamePair> = games(&lines)
            .iter()
            .filter_map(|g| book.add_record(g))
            .collect();
        assert_eq!(
            pairs,
            [GamePair {
                pairing: ["x".to_owned(), "y".to_owned()],
                pair: 0,
                results: [PlayerResult::Win, PlayerResult::Draw],
            }]
        );
        assert_eq!(book.open(), 2, "pair 1 open, pair 2 broken");
    }

    #[test]
    fn a_game_read_twice_does_not_make_a_pair() {
        let l = line("a", 0, 0, "x", "y", "1-0");
        let g = games(&[&l, &l]);
        let mut book = RecordPairBook::new();
        assert!(book.add_record(&g[0]).is_none());
        assert!(book.add_record(&g[1]).is_none());
        let other = games(&[&line("b", 0, 1, "y", "x", "1-0")]);
        let pair = book.add_record(&other[0]).unwrap();
        assert_eq!(pair.results, [PlayerResult::Win, PlayerResult::Loss]);
        assert_eq!(book.open(), 0);
    }

    /// How the second game of a pair was played.
    #[derive(Clone, Copy, Debug)]
    enum Second {
        /// Colours swapped: the pair is complete.
        Swapped,
        /// The same colours again.
        Unswapped,
        /// A third bot in one seat.
        OtherBot,
    }

    /// The games of one pair number: whether game 0 and game 1 were played
    /// (and how), their results, and how often the first to arrive is read
    /// again before its partner.
    #[derive(Clone, Debug)]
    struct Story {
        first_south: bool,
        game0: Option<PlayerResult>,
        game1: Option<(Second, PlayerResult)>,
        one_first: bool,
        repeats: usize,
    }

    fn outcome_strategy() -> impl Strategy<Value = PlayerResult> {
        prop_oneof![
            Just(PlayerResult::Win),
            Just(PlayerResult::Draw),
            Just(PlayerResult::Loss)
        ]
    }

    fn story() -> impl Strategy<Value = Story> {
        let second = prop_oneof![
            Just(Second::Swapped),
            Just(Second::Unswapped),
            Just(Second::OtherBot)
        ];
        (
            any::<bool>(),
            proptest::option::of(outcome_strategy()),
            proptest::option::of((second, outcome_strategy())),
            any::<bool>(),
            0..3usize,
        )
            .prop_map(|(first_south, game0, game1, one_first, repeats)| Story {
                first_south,
                game0,
                game1,
                one_first,
                repeats,
            })
    }

    impl Story {
        /// The seats of the story's games, in arrival order (repeats
        /// included).
        fn seats(&self) -> Vec<Seat<usize>> {
            let (s, n) = if self.first_south { (0, 1) } else { (1, 0) };
            let zero = self.game0.map(|result| Seat {
                game: 0,
                south: s,
                north: n,
                result,
            });
            let one = self.game1.map(|(how, result)| {
                let (south, north) = match how {
                    Second::Swapped => (n, s),
                    Second::Unswapped => (s, n),
                    Second::OtherBot => (2, s),
                };
                Seat {
                    game: 1,
                    south,
                    north,
                    result,
                }
            });
            let (first, second) = if self.one_first {
                (one, zero)
            } else {
                (zero, one)
            };
            let mut seats: Vec<Seat<usize>> = first.into_iter().collect();
            if let Some(f) = first {
                seats.extend(std::iter::repeat_n(f, self.repeats));
            }
            seats.extend(second);
            seats
        }

        /// Bot 0's results in games 0 and 1, if the two games make a pair,
        /// worked out from the story rather than by the rule.
        fn expected(&self) -> Option<PairOutcome> {
            let (r0, (how, r1)) = (self.game0?, self.game1?);
            let view = |south_is_0: bool, r: PlayerResult| if south_is_0 { r } else { !r };
            matches!(how, Second::Swapped)
                .then(|| [view(self.first_south, r0), view(!self.first_south, r1)])
        }

        /// True if the pair is still open (or broken) once all is read.
        fn left_open(&self) -> bool {
            match (self.game0, self.game1) {
                (Some(_), Some(_)) => self.expected().is_none(),
                (None, None) => false,
                _ => true,
            }
        }
    }

    proptest! {
        /// Whatever the order the games of many pairs arrive in, and however
        /// often a waiting game is read again, the book returns exactly the
        /// pairs whose two games fit, once each, with bot 0's results; the
        /// rest stay open (one game) or broken (two that do not fit).
        #[test]
        fn the_book_counts_exactly_the_pairs_that_fit(
            stories in proptest::collection::vec(story(), 1..12),
            picks in proptest::collection::vec(any::<proptest::sample::Index>(), 1..64),
        ) {
            // The games of all pairs, interleaved at random: each pair's
            // games keep their order, the pairs are mixed.
            let mut queues: Vec<(u32, std::collections::VecDeque<Seat<usize>>)> = stories
                .iter()
                .enumerate()
                .map(|(i, s)| (i as u32, s.seats().into()))
                .collect();
            let mut book: PairBook<u32, usize> = PairBook::new();
            let mut found = std::collections::BTreeMap::new();
            for turn in 0.. {
                queues.retain(|(_, q)| !q.is_empty());
                if queues.is_empty() {
                    break;
                }
                let at = picks[turn % picks.len()].index(queues.len());
                let (pair, queue) = &mut queues[at];
                let Some(seat) = queue.pop_front() else { continue };
                if let Some(p) = book.add(*pair, [0, 1], *pair, seat) {
                    prop_assert_eq!(p.pairing, [0, 1]);
                    prop_assert_eq!(p.pair, *pair);
                    prop_assert!(found.insert(p.pair, p.results).is_none(), "pair {} twice", p.pair);
                }
            }
            let expected: std::collections::BTreeMap<u32, PairOutcome> = stories
                .iter()
                .enumerate()
                .filter_map(|(i, s)| Some((i as u32, s.expected()?)))
                .collect();
            prop_assert_eq!(found, expected);
            prop_assert_eq!(book.open(), stories.iter().filter(|s| s.left_open()).count());
        }
    }
}
