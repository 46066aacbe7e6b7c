//! Playing a league game: a pair's games are played one after the other
//! (colours swapped, both from the opening of the pair's number, as every
//! format does), each with fresh bot processes; the league's loop
//! (`seat.rs`) records each. An interrupt abandons the game in play; its
//! bots are killed with their process groups when dropped.

use aboure_engine::Side;
use aboure_process::{BotFailure, BotProcess, Launch};
use aboure_records::GameRecord;

use crate::config::{BotId, Config};
use crate::game::{forfeit_at_start, play, GameSetup};
use crate::schedule::GameSpec;
use crate::tournament::QUIT_GRACE;

/// A game of a league's pair: its id is `l{pair}-g{game}`.
pub(crate) fn game_spec(number: u64, bots: [BotId; 2], game: u8) -> GameSpec {
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

/// Starts both bots and plays `spec`; a bot that fails to start forfeits.
pub(crate) async fn one_game(config: &Config, launches: &[Launch], spec: &GameSpec) -> GameRecord {
    let opening = config.openings().opening(config.seed(), spec.pair);
    let ids = [spec.south, spec.north];
    let setup = GameSetup::of(config, spec, &opening);
    let (south, north) = tokio::join!(
        ready(&launches[ids[0].index()], setup.ponder[0]),
        ready(&launches[ids[1].index()], setup.ponder[1])
    );
    let (mut south, mut north) = match (south, north) {
        (Ok(s), Ok(n)) => (s, n),
        (Err(f), north) => {
            if let Ok(p) = north {
                p.quit(QUIT_GRACE).await;
            }
            return forfeit_at_start(setup, Side::South, f);
        }
        (Ok(s), Err(f)) => {
            s.quit(QUIT_GRACE).await;
            return forfeit_at_start(setup, Side::North, f);
        }
    };
    let (record, failed) = play(setup, [&mut south, &mut north]).await;
    for (side, mut bot) in [(Side::South, south), (Side::North, north)] {
        match failed == Some(side) {
            true => {
                bot.kill().await;
            }
            false => bot.quit(QUIT_GRACE).await,
        }
    }
    record
}

/// A fresh bot ready for a game: started, handshake done, told `newgame`;
/// then held (unless it may `ponder`) while its opponent's handshake goes
/// on, until it is next spoken to.
async fn ready(launch: &Launch, ponder: bool) -> Result<BotProcess, BotFailure> {
    let mut process = BotProcess::start(launch).await?;
    match process.new_game().await {
        Ok(()) => {
            if !ponder {
                process.hold().await;
            }
            Ok(process)
        }
        Err(f) => {
            process.kill().await;
            Err(f)
        }
    }
}
