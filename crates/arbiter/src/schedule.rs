//! The schedule: a deterministic list of games from the config alone, so a
//! resumed or sharded run plays exactly the games the first run would have.
//! Game pairs are interleaved across pairings (pair 0 of every pairing, then
//! pair 1, ...) so an interrupted run has a balanced sample, and both games of
//! a pair stay next to each other (and in the same shard).

use std::fmt;
use std::str::FromStr;

use crate::config::{Config, Format};
use crate::error::RunError;

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Stable id: `r{pairing}-p{pair}-g{game}`.
    pub id: String,
    /// Index of the pairing.
    pub pairing: usize,
    /// The pairing's two bots (indices into `Config::bots`) in schedule order.
    pub bots: [usize; 2],
    /// Game pair number, also the opening index.
    pub pair: u32,
    /// 0, or 1 with colours swapped.
    pub game: u8,
    /// Bot playing South.
    pub south: usize,
    /// Bot playing North.
    pub north: usize,
}

/// The pairings of a config: every pair of bots (round robin, SPRT) or the
/// gauntlet bot against each other.
pub fn pairings(config: &Config) -> Vec<[usize; 2]> {
    let n = config.bots.len();
    match config.format {
        Format::RoundRobin | Format::Sprt => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| [a, b]))
            .collect(),
        Format::Gauntlet(g) => (0..n).filter(|&b| b != g).map(|b| [g, b]).collect(),
    }
}

/// Every game of the tournament, in playing order.
pub fn schedule(config: &Config) -> Vec<GameSpec> {
    let pairings = pairings(config);
    let mut games = Vec::with_capacity(pairings.len() * config.pairs as usize * 2);
    for pair in 0..config.pairs {
        for (r, &bots) in pairings.iter().enumerate() {
            for game in 0..2u8 {
                let (south, north) = if game == 0 {
                    (bots[0], bots[1])
                } else {
                    (bots[1], bots[0])
                };
                games.push(GameSpec {
                    id: format!("r{r:04}-p{pair:02}-g{game}"),
                    pairing: r,
                    bots,
                    pair,
                    game,
                    south,
                    north,
                });
            }
        }
    }
    games
}

/// One slice of a schedule split N ways: `K/N`, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, 1..=count.
    pub index: u32,
    /// How many slices.
    pub count: u32,
}

impl Shard {
    /// Keeps the game pairs of this shard: pair number `i` (in schedule
    /// order) goes to shard `i % count + 1`.
    pub fn select(&self, games: Vec<GameSpec>) -> Vec<GameSpec> {
        let mut unit = 0u64;
        let mut last = None;
        games
            .into_iter()
            .filter(|g| {
                let key = (g.pairing, g.pair);
                if last.is_some() && last != Some(key) {
                    unit += 1;
                }
                last = Some(key);
                unit % u64::from(self.count) == u64::from(self.index - 1)
            })
            .collect()
    }
}

impl FromStr for Shard {
    type Err = RunError;
    fn from_str(s: &str) -> Result<Shard, RunError> {
        let bad = || RunError::Shard(s.to_owned());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn config(bots: usize, format: &str, pairs: u32) -> Config {
        let mut text = format!("[tournament]\nformat = \"{format}\"\npairs = {pairs}\n");
        for i in 0..bots {
            text += &format!("[[bot]]\nname = \"b{i}\"\nbuiltin = \"random\"\n");
        }
        crate::config::parse(&text, "t.toml".as_ref()).unwrap()
    }

    #[test]
    fn round_robin_plays_every_pair_with_both_colours() {
        let games = schedule(&config(4, "round-robin", 3));
        assert_eq!(games.len(), 6 * 3 * 2);
        let ids: HashSet<_> = games.iter().map(|g| g.id.clone()).collect();
        assert_eq!(ids.len(), games.len());
        for pair in games.chunks(2) {
            assert_eq!(pair[0].south, pair[1].north);
            assert_eq!(pair[0].north, pair[1].south);
            assert_eq!(pair[0].pair, pair[1].pair);
        }
        assert_eq!(games[3].id, "r0001-p00-g1");
    }

    #[test]
    fn gauntlet_bot_meets_each_other_bot() {
        let games = schedule(&config(4, "gauntlet", 1));
        assert_eq!(games.len(), 3 * 2);
        assert!(games.iter().all(|g| g.bots[0] == 0));
    }

    #[test]
    fn shards_are_disjoint_cover_all_and_keep_pairs_together() {
        let all = schedule(&config(3, "round-robin", 5));
        let mut seen = HashSet::new();
        for k in 1..=4 {
            let shard = Shard { index: k, count: 4 };
            let part = shard.select(all.clone());
            assert_eq!(part.len() % 2, 0);
            for g in &part {
                assert!(seen.insert(g.id.clone()));
            }
        }
        assert_eq!(seen.len(), all.len());
    }

    #[test]
    fn shard_parsing() {
        assert_eq!(
            "2/8".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 8 }
        );
        assert!("0/8".parse::<Shard>().is_err());
        assert!("9/8".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}
