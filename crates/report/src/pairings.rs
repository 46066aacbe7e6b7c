//! Head-to-head results: W/D/L per pairing, and game pairs.
//!
//! A game pair is the two games of one opening with colours swapped, by
//! the one rule and book of `aboure_records` (`PairBook`, which the live
//! SPRT uses too), matched within one run folder. Only complete pairs enter the
//! pentanomial counts (a pair cut short by the end of a run, or CSV rows,
//! count in W/D/L only).

use aboure_stats::{Pentanomial, Wdl};
use serde::Serialize;

use crate::figure::HeadToHeadFigures;

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
    pub trinomial_stats: HeadToHeadFigures,
    /// Figures from the pairs (`null` without a complete pair).
    pub pentanomial_stats: Option<HeadToHeadFigures>,
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
