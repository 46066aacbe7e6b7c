//! Standings: wins, draws, losses and forfeits per bot, counted one game at
//! a time. The run's progress line and end-of-run table and the report's
//! standings all count with this one tally, so they cannot disagree on what
//! a game is worth or whose forfeit it was; and a long run or a big file
//! needs neither the list of its games nor a pass over it after each game.
//!
//! ```
//! use aboure_records::{parse_games, Tally};
//!
//! let csv = "south,north,result\na,b,1-0\nb,a,1/2-1/2\n";
//! let mut tally = Tally::new(["a", "b", "c"]);
//! for game in &parse_games(csv.as_bytes(), "x.csv".as_ref()).games {
//!     tally.add(game);
//! }
//! let table = tally.standings();
//! assert_eq!((table[0].name.as_str(), table[0].points()), ("a", 1.5));
//! assert_eq!(table[2].games(), 0);
//! ```

use std::collections::BTreeMap;

use aboure_stats::Wdl;

use crate::pair::south_outcome;
use crate::record::{GameRecord, GameResult, SideName, Termination};

/// One bot's line of the standings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// The bot.
    pub name: String,
    /// Wins, draws and losses (forfeits included) from the bot's view.
    pub wdl: Wdl,
    /// Games this bot forfeited, by termination.
    pub failures: BTreeMap<Termination, u64>,
}

impl Standing {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wdl.games()
    }

    /// Points: 1 a win, 1/2 a draw.
    pub fn points(&self) -> f64 {
        self.wdl.points()
    }

    /// Games forfeited, all kinds.
    pub fn failure_count(&self) -> u64 {
        self.failures.values().sum()
    }

    /// True if the bot forfeits often enough to distort the results: more
    /// than one game in ten (and at least two).
    pub fn fails_often(&self) -> bool {
        let f = self.failure_count();
        f >= 2 && f * 10 > self.games()
    }
}

/// Standings kept up to date one game at a time. Bots keep the index they
/// were first seen with ([`Tally::bot`]), so a caller that numbers bots
/// the same way can count by index ([`Tally::count`]) without looking names
/// up again.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    table: Vec<Standing>,
    /// foldhash: the report looks up four names a game.
    index: foldhash::HashMap<String, usize>,
}

impl Tally {
    /// An empty tally of `names` (every bot of a tournament, so bots that
    /// have not played yet show too).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Tally {
        let mut tally = Tally::default();
        for name in names {
            tally.bot(name);
        }
        tally
    }

    /// The index of bot `name`, added if new (indices count from 0 in the
    /// order bots are first seen).
    pub fn bot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.table.len();
        self.table.push(Standing {
            name: name.to_owned(),
            ..Standing::default()
        });
        self.index.insert(name.to_owned(), i);
        i
    }

    /// Counts one finished game.
    pub fn add(&mut self, game: &GameRecord) {
        let south = self.bot(&game.south);
        let north = self.bot(&game.north);
        self.count(south, north, game.result, game.termination, game.loser);
    }

    /// Counts one finished game between the bots of indices `south` and
    /// `north` (from [`Tally::bot`]); `loser` is the side that forfeited,
    /// for a forfeit. A game of a bot against itself counts twice for it.
    pub fn count(
        &mut self,
        south: usize,
        north: usize,
        result: GameResult,
        termination: Termination,
        loser: Option<SideName>,
    ) {
        let outcome = south_outcome(result);
        self.table[south].wdl.add(outcome);
        self.table[north].wdl.add(outcome.reversed());
        let forfeiter = match loser {
            Some(_) if !termination.is_forfeit() => None,
            Some(SideName::South) => Some(south),
            Some(SideName::North) => Some(north),
            None => None,
        };
        if let Some(i) = forfeiter {
            *self.table[i].failures.entry(termination).or_insert(0) += 1;
        }
    }

    /// Bot `index`'s standing (see [`Tally::bot`]).
    pub fn get(&self, index: usize) -> Option<&Standing> {
        self.table.get(index)
    }

    /// The standings so far, best first (most points, then by name).
    pub fn standings(&self) -> Vec<Standing> {
        let mut table = self.table.clone();
        table.sort_by(|a, b| b.points().total_cmp(&a.points()).then(a.name.cmp(&b.name)));
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_games;

    fn games(csv: &str) -> Vec<GameRecord> {
        parse_games(csv.as_bytes(), "x.csv".as_ref()).games
    }

    #[test]
    fn counts_wins_draws_losses_and_a_forfeit() {
        let mut games = games("south,north,result\na,b,1-0\nb,a,1/2-1/2\nb,a,1-0\n");
        games[2].termination = Termination::Crash;
        games[2].loser = Some(SideName::North);
        let mut tally = Tally::new(["a", "b", "c"]);
        games.iter().for_each(|g| tally.add(g));
        let table = tally.standings();
        let names: Vec<&str> = table.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(table[0].points(), 1.5);
        assert_eq!(table[0].wdl, Wdl::new(1, 1, 1));
        assert_eq!(table[1].wdl, Wdl::new(1, 1, 1));
        // The crash is a's loss and a's failure, not b's.
        assert_eq!(table[0].failures.get(&Termination::Crash), Some(&1));
        assert_eq!(table[0].failure_count(), 1);
        assert!(table[1].failures.is_empty());
        assert!(!table[0].fails_often());
    }

    #[test]
    fn a_bot_that_has_not_played_yet_has_a_line() {
        let mut tally = Tally::new(["a", "b", "idle"]);
        tally.add(&games("south,north,result\na,b,0-1\n")[0]);
        let table = tally.standings();
        let idle = table.iter().find(|s| s.name == "idle").unwrap();
        assert_eq!(
            (idle.games(), idle.points(), idle.failure_count()),
            (0, 0.0, 0)
        );
        // No points: below the bot with a loss by name, as b leads.
        assert_eq!(table[0].name, "b");
        let index = tally.clone().bot("idle");
        assert_eq!((index, tally.get(index)), (2, Some(idle)));
    }

    #[test]
    fn a_draw_is_half_a_point_each_and_no_failure() {
        let mut tally = Tally::default();
        let game = &games("south,north,result\nx,y,1/2-1/2\n")[0];
        tally.add(game);
        for s in tally.standings() {
            assert_eq!((s.wdl, s.points()), (Wdl::new(0, 1, 0), 0.5));
            assert_eq!(s.failure_count(), 0);
        }
    }

    #[test]
    fn a_loser_without_a_forfeit_is_no_failure() {
        let mut game = games("south,north,result\nx,y,0-1\n").remove(0);
        game.loser = Some(SideName::South);
        let mut tally = Tally::default();
        tally.add(&game);
        assert_eq!(tally.get(0).map(Standing::failure_count), Some(0));
        game.termination = Termination::TimeForfeit;
        tally.add(&game);
        let x = tally.get(0).unwrap();
        assert_eq!(x.failures.get(&Termination::TimeForfeit), Some(&1));
    }

    #[test]
    fn a_bot_forfeiting_more_than_one_game_in_ten_fails_often() {
        let mut tally = Tally::default();
        let (a, b) = (tally.bot("a"), tally.bot("b"));
        for i in 0..20 {
            let (result, termination, loser) = match i {
                0..=2 => (
                    GameResult::NorthWins,
                    Termination::IllegalMove,
                    Some(SideName::South),
                ),
                _ => (GameResult::Draw, Termination::Natural, None),
            };
            tally.count(a, b, result, termination, loser);
        }
        let a = tally.get(a).unwrap();
        assert_eq!((a.failure_count(), a.games()), (3, 20));
        assert!(a.fails_often());
        assert!(!tally.get(b).unwrap().fails_often());
    }
}
