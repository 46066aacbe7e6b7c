//! The schedule: a deterministic list of games from the config alone, so a
//! resumed or sharded run plays exactly the games the first run would have.
//! Game pairs are interleaved across pairings (pair 0 of every pairing, then
//! pair 1, ...) so an interrupted run has a balanced sample, and both games of
//! a pair stay next to each other (and in the same shard).

use std::fmt;
use std::str::FromStr;

use crate::config::{BotId, Config, Format};
use crate::error::RunError;

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Stable id: `r{pairing}-p{pair}-g{game}`.
    pub id: String,
    /// Index of the pairing.
    pub pairing: usize,
    /// The pairing's two bots in schedule order.
    pub bots: [BotId; 2],
    /// Game pair number, also the opening index.
    pub pair: u32,
    /// 0, or 1 with colours swapped.
    pub game: u8,
    /// Bot playing South.
    pub south: BotId,
    /// Bot playing North.
    pub north: BotId,
}

/// The pairings of a config: every pair of bots (round robin, SPRT) or the
/// gauntlet bot against each other.
pub fn pairings(config: &Config) -> Vec<[BotId; 2]> {
    let ids: Vec<BotId> = config.bot_ids().collect();
    match config.format() {
        Format::RoundRobin | Format::Sprt => ids
            .iter()
            .enumerate()
            .flat_map(|(i, &a)| ids[i + 1..].iter().map(move |&b| [a, b]))
            .collect(),
        Format::Gauntlet(g) => ids.iter().filter(|&&b| b != g).map(|&b| [g, b]).collect(),
        // A league has no fixed schedule: each pair is chosen as it goes.
        Format::League => Vec::new(),
    }
}

/// Every game of the tournament, in playing order.
pub fn schedule(config: &Config) -> Vec<GameSpec> {
    Schedule::new(config, None).games().collect()
}

/// The games of a run (the tournament, or one shard of it) in playing
/// order, made one at a time as they are wanted. A schedule held whole
/// costs about 140 bytes a game: 280 MB for an SPRT allowed a million
/// pairs. This holds the pairings and counts, so a run's memory does not
/// depend on how long it may last.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// The two games of pair 0 of each pairing, in order.
    first: Vec<GameSpec>,
    pairs: u32,
    shard: Option<Shard>,
}

impl Schedule {
    /// The games of `config`, or of its shard `shard`.
    pub fn new(config: &Config, shard: Option<Shard>) -> Schedule {
        let first = pairings(config)
            .into_iter()
            .enumerate()
            .flat_map(|(r, bots)| {
                [0u8, 1].map(|game| {
                    let (south, north) = if game == 0 {
                        (bots[0], bots[1])
                    } else {
                        (bots[1], bots[0])
                    };
                    GameSpec {
                        id: String::new(),
                        pairing: r,
                        bots,
                        pair: 0,
                        game,
                        south,
                        north,
                    }
                })
            })
            .collect();
        Schedule {
            first,
            pairs: config.pairs(),
            shard,
        }
    }

    /// Game pairs (a pairing's pair number) in the whole tournament: the
    /// units workers claim ([`aboure_workers`]), numbered in playing order.
    pub fn units(&self) -> u64 {
        u64::from(self.pairs) * (self.first.len() / 2) as u64
    }

    /// The two games of `unit` (see [`Schedule::units`]).
    pub fn unit_games(&self, unit: u64) -> [GameSpec; 2] {
        let per_pair = (self.first.len() / 2).max(1) as u64;
        let (pair, r) = ((unit / per_pair) as u32, (unit % per_pair) as usize);
        let mut games = [self.first[2 * r].clone(), self.first[2 * r + 1].clone()];
        for g in &mut games {
            g.pair = pair;
            g.id = game_id(r, pair, g.game);
        }
        games
    }

    /// The unit and game (0 or 1) of the game `id`, if it is one of these.
    pub fn locate(&self, id: &str) -> Option<(u64, u8)> {
        let (r, rest) = id.strip_prefix('r')?.split_once("-p")?;
        let (pair, game) = rest.split_once("-g")?;
        let (r, pair, game): (usize, u32, u8) =
            (r.parse().ok()?, pair.parse().ok()?, game.parse().ok()?);
        let per_pair = self.first.len() / 2;
        let unit = u64::from(pair) * per_pair as u64 + r as u64;
        let ours = r < per_pair
            && pair < self.pairs
            && game < 2
            && self.has_unit(unit)
            && game_id(r, pair, game) == id;
        ours.then_some((unit, game))
    }

    /// Whether game pair `unit` (counted in playing order) is this run's.
    fn has_unit(&self, unit: u64) -> bool {
        self.shard
            .is_none_or(|s| unit % u64::from(s.count) == u64::from(s.index - 1))
    }

    /// How many games there are.
    pub fn len(&self) -> usize {
        let units = self.units();
        let mine = match self.shard {
            None => units,
            Some(s) => {
                let (k, n) = (u64::from(s.index - 1), u64::from(s.count));
                if units > k {
                    (units - 1 - k) / n + 1
                } else {
                    0
                }
            }
        };
        (mine * 2) as usize
    }

    /// True if there are no games.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The games, in playing order.
    pub fn games(&self) -> impl Iterator<Item = GameSpec> + Send + 'static {
        let (keep, make) = (self.clone(), self.clone());
        (0..self.units())
            .filter(move |&unit| keep.has_unit(unit))
            .flat_map(move |unit| make.unit_games(unit))
    }

    /// Whether the game `id` is one of these.
    pub fn contains(&self, id: &str) -> bool {
        self.locate(id).is_some()
    }
}

/// A game's id: `r{pairing}-p{pair}-g{game}`.
fn game_id(pairing: usize, pair: u32, game: u8) -> String {
    format!("r{pairing:04}-p{pair:02}-g{game}")
}

/// One slice of a schedule split N ways: `K/N`, 1-based. Game pair number
/// `i` (in schedule order) goes to shard `i % N + 1`, so a pair's two games
/// stay together (see [`Schedule`]). A run's `--shard K/N` is a worker's
/// name and the slice it takes first, not a limit: a worker whose slice is
/// done takes the units nobody holds ([`aboure_workers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, 1..=count.
    pub index: u32,
    /// How many slices.
    pub count: u32,
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

    /// The rule of [`Shard`] applied to the whole schedule at once.
    fn select(shard: Shard, games: Vec<GameSpec>) -> Vec<GameSpec> {
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
                unit % u64::from(shard.count) == u64::from(shard.index - 1)
            })
            .collect()
    }

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
        assert!(games.iter().all(|g| g.bots[0].index() == 0));
    }

    #[test]
    fn shards_are_disjoint_cover_all_and_keep_pairs_together() {
        let all = schedule(&config(3, "round-robin", 5));
        let mut seen = HashSet::new();
        for k in 1..=4 {
            let shard = Shard { index: k, count: 4 };
            let part = select(shard, all.clone());
            assert_eq!(part.len() % 2, 0);
            for g in &part {
                assert!(seen.insert(g.id.clone()));
            }
        }
        assert_eq!(seen.len(), all.len());
    }

    #[test]
    fn a_schedule_made_as_it_goes_is_the_schedule_and_its_shards() {
        for (bots, format, pairs) in [(3, "round-robin", 5), (4, "gauntlet", 3), (2, "sprt", 7)] {
            let config = config(bots, format, pairs);
            let all = schedule(&config);
            let ids = |games: &[GameSpec]| games.iter().map(|g| g.id.clone()).collect::<Vec<_>>();
            for shard in [
                None,
                Some((1, 1)),
                Some((1, 4)),
                Some((3, 4)),
                Some((2, 3)),
                Some((9, 9)),
            ] {
                let shard = shard.map(|(index, count)| Shard { index, count });
                let lazy = Schedule::new(&config, shard);
                let want = match shard {
                    Some(s) => select(s, all.clone()),
                    None => all.clone(),
                };
                let got: Vec<GameSpec> = lazy.games().collect();
                assert_eq!(ids(&got), ids(&want), "{format} {shard:?}");
                assert_eq!(got.len(), lazy.len(), "{format} {shard:?}");
                for (g, w) in got.iter().zip(&want) {
                    assert_eq!(
                        (g.south, g.north, g.pair, g.game),
                        (w.south, w.north, w.pair, w.game)
                    );
                }
                for g in &all {
                    assert_eq!(
                        lazy.contains(&g.id),
                        want.iter().any(|w| w.id == g.id),
                        "{}",
                        g.id
                    );
                }
            }
        }
        let lazy = Schedule::new(&config(3, "round-robin", 5), None);
        for (i, g) in schedule(&config(3, "round-robin", 5)).iter().enumerate() {
            let unit = (i / 2) as u64;
            assert_eq!(lazy.locate(&g.id), Some((unit, g.game)), "{}", g.id);
            assert_eq!(&lazy.unit_games(unit)[usize::from(g.game)], g);
        }
        assert_eq!(lazy.units(), 15);
        for id in [
            "r0003-p00-g0",
            "r0000-p05-g0",
            "r0000-p00-g2",
            "r0-p00-g0",
            "r+000-p00-g0",
            "x",
            "",
        ] {
            assert!(!lazy.contains(id), "{id}");
        }
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
