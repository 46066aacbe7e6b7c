//! A league's pair as the games the run loop plays: both from the opening
//! of the pair's number, colours swapped, as every format plays a pair;
//! their ids are `l{pair}-g{game}`, which is how a league's records say
//! which pair each game belongs to.

use aboure_league::in_flight::Slot;
use aboure_workers::Unit;

use crate::config::BotId;
use crate::schedule::GameSpec;

/// The games of pair `number` between the entrants of `slot` (`bots`:
/// each entrant's bot) that no results file holds yet.
pub(crate) fn missing_games(number: Unit, slot: Slot, bots: &[BotId]) -> Vec<GameSpec> {
    let pair = [bots[slot.south_first], bots[slot.north_first]];
    let games = slot.missing().into_iter();
    games.map(|game| game_spec(number, pair, game)).collect()
}

/// A game of a league's pair: its id is `l{pair}-g{game}`.
fn game_spec(number: u64, bots: [BotId; 2], game: u8) -> GameSpec {
    let (south, north) = match game {
        0 => (bots[0], bots[1]),
        _ => (bots[1], bots[0]),
    };
    GameSpec {
        id: game_id(number, game),
        pairing: number as usize,
        bots,
        pair: number as u32,
        game,
        south,
        north,
    }
}

/// `l00042-g1`: the second game of pair 42.
pub(crate) fn game_id(number: u64, game: u8) -> String {
    format!("l{number:05}-g{game}")
}

/// The pair number and game of a league game's id.
pub(crate) fn parse_game_id(id: &str) -> Option<(u64, u8)> {
    let (number, game) = id.strip_prefix('l')?.split_once("-g")?;
    let (number, game): (u64, u8) = (number.parse().ok()?, game.parse().ok()?);
    (game < 2 && game_id(number, game) == id).then_some((number, game))
}
