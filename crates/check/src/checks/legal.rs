//! The exchange most checks share: a position sent with `go movetime`,
//! a legal answer expected in time.

use std::time::Duration;

use aboure_protocol::{GameSoFar, Go, Start};

use crate::session::{ms, Answer, Session, Step};

/// The `go movetime` most checks use: long enough for any bot to answer,
/// short enough to keep the suite quick.
pub(crate) const MOVETIME: Duration = Duration::from_millis(100);

/// Sends `game` with `go movetime`, expects a legal answer within the
/// movetime plus the margin, then pings (which catches a second answer).
pub(crate) async fn legal_answer(
    s: &mut Session<'_>,
    game: &GameSoFar,
    movetime: Duration,
) -> Step<Answer> {
    let go = Go {
        movetime: Some(movetime),
        ..Go::default()
    };
    let margin = s.config().margin;
    let limit_text = format!(
        "the movetime of {} plus the margin of {}",
        ms(movetime),
        ms(margin)
    );
    let answer = s.think(game, go, movetime + margin, &limit_text).await?;
    s.ready().await?;
    s.detail(format!(
        "{}: bestmove {} after {}",
        describe_game(game),
        answer.mv,
        ms(answer.elapsed)
    ));
    Ok(answer)
}

/// A game in a few words, for details: where it starts and how many moves.
pub(crate) fn describe_game(game: &GameSoFar) -> String {
    let start = match game.start {
        Start::StartPos => "startpos".to_owned(),
        Start::Set(p) => format!("set {p}"),
    };
    match game.moves.len() {
        0 => start,
        n => format!("{start} + {n} moves"),
    }
}
