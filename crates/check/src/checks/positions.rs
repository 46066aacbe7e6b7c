//! Checks that the bot reads every form of `position` the arbiter sends:
//! from the start, from a set-up position, with forced passes in the moves,
//! where only one move is legal, and where a sowing never ends. Each game gets `go movetime` and must
//! get a legal answer in time.

use aboure_protocol::{ArbiterMessage, GameSoFar};

use super::legal::{legal_answer, MOVETIME};
use crate::scenario;
use crate::session::{Session, Step};

async fn each_game(s: &mut Session<'_>, games: &[GameSoFar]) -> Step<()> {
    s.start().await?;
    for game in games {
        s.begin_exchange();
        s.send(&ArbiterMessage::NewGame).await?;
        legal_answer(s, game, MOVETIME).await?;
    }
    Ok(())
}

pub(super) async fn startpos(s: &mut Session<'_>) -> Step<()> {
    let mut games = vec![scenario::startpos()];
    games.extend(scenario::openings());
    each_game(s, &games).await
}

pub(super) async fn set_up(s: &mut Session<'_>) -> Step<()> {
    each_game(s, &scenario::set_ups()).await
}

pub(super) async fn forced_pass(s: &mut Session<'_>) -> Step<()> {
    each_game(s, &scenario::with_passes()).await
}

pub(super) async fn one_legal_move(s: &mut Session<'_>) -> Step<()> {
    each_game(s, &scenario::one_legal_move()).await
}

pub(super) async fn endless_sowing(s: &mut Session<'_>) -> Step<()> {
    each_game(s, &scenario::endless_sowings()).await
}
