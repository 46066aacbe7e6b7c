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
    let mut table: Vec<Standing> = names
        .into_iter()
        .map(|n| Standing {
            name: n.to_owned(),
            ..Standing::default()
        })
        .collect();
    let mut index: BTreeMap<String, usize> = table
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.clone(), i))
        .collect();
    for game in games {
        for name in [&game.south, &game.north] {
            let i = *index.entry(name.clone()).or_insert_with(|| {
                table.push(Standing {
                    name: name.clone(),
                    ..Standing::default()
                });
                table.len() - 1
            });
            let s = &mut table[i];
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
            if let Some(&i) = index.get(loser) {
                *table[i].failures.entry(game.termination).or_insert(0) += 1;
            }
        }
    }
    table.sort_by(|a, b| b.points.total_cmp(&a.points).then(a.name.cmp(&b.name)));
    table
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
