//! Points, wins, draws, losses and failures per bot, from game records.
//! Pure; the progress display and the end-of-run table use it.

use std::collections::BTreeMap;

use aboure_records::{GameRecord, Termination};

/// One bot's line of the standings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// The bot.
    pub name: String,
    /// Games played.
    pub games: u32,
    /// Points: 1 a win, 1/2 a draw.
    pub points: f64,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses (forfeits included).
    pub losses: u32,
    /// Games this bot forfeited, by kind.
    pub failures: BTreeMap<Termination, u32>,
}

impl Standing {
    /// Games forfeited, all kinds.
    pub fn failure_count(&self) -> u32 {
        self.failures.values().sum()
    }

    /// True if the bot forfeits often enough to distort the results: more
    /// than one game in ten (and at least two).
    pub fn fails_often(&self) -> bool {
        let f = self.failure_count();
        f >= 2 && f * 10 > self.games
    }
}

/// Standings of `names` (every bot of the tournament, so bots that have not
/// played yet show too) from `games`, best first.
pub fn standings<'a>(
    names: impl IntoIterator<Item = &'a str>,
    games: &[GameRecord],
) -> Vec<Standing> {
    let mut tally = Tally::new(names);
    for game in games {
        tally.add(game);
    }
    tally.standings()
}

/// Standings kept up to date one game at a time, so a long run needs
/// neither the list of its games nor a pass over it after each game.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    table: Vec<Standing>,
    index: BTreeMap<String, usize>,
}

impl Tally {
    /// An empty tally of `names` (every bot of the tournament).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Tally {
        let mut tally = Tally::default();
        for name in names {
            tally.slot(name);
        }
        tally
    }

    fn slot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.table.push(Standing {
            name: name.to_owned(),
            ..Standing::default()
        });
        self.index.insert(name.to_owned(), self.table.len() - 1);
        self.table.len() - 1
    }

    /// Counts one finished game.
    pub fn add(&mut self, game: &GameRecord) {
        for name in [&game.south, &game.north] {
            let i = self.slot(name);
            let s = &mut self.table[i];
            let points = game.points_of(name).unwrap_or(0.0);
            s.games += 1;
            s.points += points;
            if points == 1.0 {
                s.wins += 1;
            } else if points == 0.0 {
                s.losses += 1;
            } else {
                s.draws += 1;
            }
        }
        if let Some(loser) = game.forfeited_by() {
            if let Some(&i) = self.index.get(loser) {
                *self.table[i].failures.entry(game.termination).or_insert(0) += 1;
            }
        }
    }

    /// The standings so far, best first.
    pub fn standings(&self) -> Vec<Standing> {
        let mut table = self.table.clone();
        table.sort_by(|a, b| b.points.total_cmp(&a.points).then(a.name.cmp(&b.name)));
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_records::parse_games;

    #[test]
    fn counts_points_and_failures() {
        let csv = "south,north,result\na,b,1-0\nb,a,1/2-1/2\nb,a,1-0\n";
        let mut games = parse_games(csv.as_bytes(), "x.csv".as_ref()).games;
        games[2].termination = Termination::Crash;
        games[2].loser = Some(aboure_records::SideName::North);
        let table = standings(["a", "b", "c"], &games);
        assert_eq!(table[0].name, "a");
        assert_eq!(table[0].points, 1.5);
        assert_eq!((table[0].wins, table[0].draws, table[0].losses), (1, 1, 1));
        assert_eq!(table[0].failures.get(&Termination::Crash), Some(&1));
        assert_eq!(table[2].name, "c");
        assert_eq!(table[2].games, 0);
    }
}
