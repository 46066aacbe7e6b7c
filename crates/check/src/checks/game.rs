//! The closest the suite comes to a tournament: whole games from the start
//! against random replies, on Fischer clocks kept the way the arbiter keeps
//! them, with forced passes played by the suite and shown in the moves.

use std::time::Duration;

use aboure_engine::{Move, Side};
use aboure_protocol::{ArbiterMessage, Clocks, Go};

use crate::scenario;
use crate::session::{ms, Session, Step};

/// Each side's time at the start of a game.
const GAME_TIME: Duration = Duration::from_millis(1000);
/// Each side's increment.
const INCREMENT: Duration = Duration::from_millis(20);
/// Games from the start last a few dozen plies; this only bounds a check
/// that would otherwise never end.
const MAX_PLIES: usize = 500;

pub(super) async fn full_game(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    let margin = s.config().margin;
    let mut rng = scenario::replies();
    let mut results = Vec::new();
    for bot in [Side::South, Side::North] {
        let me = bot.index();
        let side = if bot == Side::South { "South" } else { "North" };
        s.begin_exchange();
        s.send(&ArbiterMessage::NewGame).await?;
        s.ready().await?;
        let mut game = scenario::startpos();
        let mut clocks = Clocks {
            time: [GAME_TIME; 2],
            increment: [INCREMENT; 2],
        };
        let mut slowest = Duration::ZERO;
        let mut moves = 0;
        let position = loop {
            let position = scenario::current(&game);
            if position.is_game_over() || game.moves.len() >= MAX_PLIES {
                break position;
            }
            if position.legal_moves().as_slice() == [Move::Pass] {
                game.moves.push(Move::Pass);
                continue;
            }
            if position.side_to_move() != bot {
                let reply = scenario::random_move(&position, &mut rng).unwrap_or(Move::Pass);
                game.moves.push(reply);
                continue;
            }
            let go = Go {
                clocks: Some(clocks),
                ..Go::default()
            };
            let left = clocks.time[me];
            let limit_text = format!(
                "{side}'s {} left on the clock plus the margin of {}",
                ms(left),
                ms(margin)
            );
            let answer = s.think(&game, go, left + margin, &limit_text).await?;
            clocks.time[me] = left.saturating_sub(answer.elapsed) + clocks.increment[me];
            slowest = slowest.max(answer.elapsed);
            moves += 1;
            game.moves.push(answer.mv);
        };
        s.ready().await?;
        let [south, north] = position.score();
        let verdict = match position.outcome().and_then(|o| o.winner()) {
            _ if !position.is_game_over() => "unfinished",
            Some(winner) if winner == bot => "won",
            Some(_) => "lost",
            None => "drew",
        };
        let (mine, theirs) = (position.score()[me], position.score()[1 - me]);
        results.push(format!("{verdict} {mine}-{theirs} as {side}"));
        s.detail(format!(
            "as {side}: {moves} moves in {} plies, {verdict} {south}-{north}, slowest answer {}",
            game.moves.len(),
            ms(slowest)
        ));
    }
    s.headline(results.join(", "));
    Ok(())
}
