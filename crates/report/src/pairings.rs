//! Head-to-head results: W/D/L per pairing, and game pairs.
//!
//! A game pair is the two games of one opening with colours swapped: same
//! file, same `pairing` and `pair`, games 0 and 1, South and North
//! exchanged. Only complete pairs enter the pentanomial counts (a pair cut
//! short by the end of a run, or CSV rows, count in W/D/L only).

use std::collections::BTreeMap;

use aboure_records::GameRecord;
use aboure_stats::{GameResult, Pentanomial, Wdl};
use serde::Serialize;

use crate::figure::Summary;

/// Everything about two bots' games against each other.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pairing {
    /// The two bots; all figures are from the first one's view.
    pub players: [String; 2],
    /// Games played.
    pub games: u64,
    /// Games the first bot won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the first bot lost.
    pub losses: u64,
    /// Points of the first bot.
    pub points: f64,
    /// Complete game pairs by outcome for the first bot: `ll`, `ld`, `wl`,
    /// `dd`, `wd`, `ww`.
    pub pentanomial: Pentanomial,
    /// Number of complete pairs.
    pub pairs: u64,
    /// Games not in a complete pair.
    pub unpaired_games: u64,
    /// Figures from W/D/L (games taken as independent).
    pub trinomial_stats: Summary,
    /// Figures from the pairs (`null` without a complete pair).
    pub pentanomial_stats: Option<Summary>,
}

/// A complete game pair, for the SPRT path.
#[derive(Clone, Debug)]
pub(crate) struct GamePair {
    /// Players by index, in the order of `pairing`.
    pub players: [usize; 2],
    /// The source file and pair number, for ordering.
    pub order: (usize, u32),
    /// Results of `players[0]` in games 0 and 1.
    pub results: [GameResult; 2],
}

/// `result` of `game` from the view of the player `name`.
pub(crate) fn result_for(game: &GameRecord, name: &str) -> GameResult {
    match game.points_of(name) {
        Some(p) if p > 0.75 => GameResult::Win,
        Some(p) if p < 0.25 => GameResult::Loss,
        _ => GameResult::Draw,
    }
}

/// Finds complete game pairs, and marks which games are in one.
pub(crate) fn game_pairs(
    games: &[GameRecord],
    sources: &[usize],
    index_of: impl Fn(&str) -> usize,
) -> (Vec<GamePair>, Vec<bool>) {
    let mut groups: BTreeMap<(usize, &str, &str, u32), Vec<usize>> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        groups
            .entry((sources[i], &g.pairing[0], &g.pairing[1], g.pair))
            .or_default()
            .push(i);
    }
    let mut paired = vec![false; games.len()];
    let mut pairs = Vec::new();
    for ((source, first, _, pair), members) in groups {
        let [a, b] = members[..] else { continue };
        let (g0, g1) = if games[a].game == 0 { (a, b) } else { (b, a) };
        let (x, y) = (&games[g0], &games[g1]);
        if x.game != 0 || y.game != 1 || x.south != y.north || x.north != y.south {
            continue;
        }
        if x.south == x.north || (x.south != first && x.north != first) {
            continue;
        }
        let other = if x.south == first { &x.north } else { &x.south };
        paired[g0] = true;
        paired[g1] = true;
        pairs.push(GamePair {
            players: [index_of(first), index_of(other)],
            order: (source, pair),
            results: [result_for(x, first), result_for(y, first)],
        });
    }
    pairs.sort_by_key(|p| p.order);
    (pairs, paired)
}

/// The pairing of players `a < b` from their W/D/L and pairs.
pub(crate) fn pairing(
    names: [&str; 2],
    wdl: Wdl,
    pentanomial: Pentanomial,
    unpaired_games: u64,
) -> Pairing {
    let pairs = pentanomial.pairs();
    Pairing {
        players: [names[0].to_owned(), names[1].to_owned()],
        games: wdl.games(),
        wins: wdl.wins,
        draws: wdl.draws,
        losses: wdl.losses,
        points: wdl.points(),
        pentanomial,
        pairs,
        unpaired_games,
        trinomial_stats: wdl.head_to_head().into(),
        pentanomial_stats: (pairs > 0).then(|| pentanomial.head_to_head().into()),
    }
}
