//! Checks of every time-control form of `go`. Timed forms must be answered
//! within their time plus the margin; `depth` and `nodes` have no time, so
//! the suite's time-out stands in for the arbiter's safety time-out.
//!
//! The clocks are lopsided on purpose (the mover has a second, the opponent
//! a minute): a bot that reads the opponent's clock as its own plans for
//! the minute and overruns its second.

use std::time::Duration;

use aboure_protocol::{Clocks, Go};

use crate::scenario;
use crate::session::{ms, side_name, Session, Step};

/// The mover's time in the clock check.
const OWN_TIME: Duration = Duration::from_millis(1000);
/// The opponent's time in the clock check.
const OPPONENT_TIME: Duration = Duration::from_secs(60);
/// The mover's increment in the clock check.
const OWN_INCREMENT: Duration = Duration::from_millis(100);
/// The movetime of the movetime check.
const MOVETIME: Duration = Duration::from_millis(250);
/// The depth of the depth check.
const DEPTH: u32 = 4;
/// The nodes of the nodes check.
const NODES: u64 = 2000;

pub(super) async fn clock(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    let margin = s.config().margin;
    for game in [scenario::startpos(), scenario::north_to_move()] {
        let position = scenario::current(&game);
        let me = position.side_to_move().index();
        let mut clocks = Clocks {
            time: [OPPONENT_TIME; 2],
            increment: [Duration::ZERO; 2],
        };
        clocks.time[me] = OWN_TIME;
        clocks.increment[me] = OWN_INCREMENT;
        let go = Go {
            clocks: Some(clocks),
            ..Go::default()
        };
        let side = side_name(&position);
        let limit_text = format!(
            "{side}'s time of {} plus the margin of {}",
            ms(OWN_TIME),
            ms(margin)
        );
        let answer = s.think(&game, go, OWN_TIME + margin, &limit_text).await?;
        s.ready().await?;
        s.detail(format!(
            "{side} to move with {} left (opponent {}): bestmove {} after {}",
            ms(OWN_TIME),
            ms(OPPONENT_TIME),
            answer.mv,
            ms(answer.elapsed)
        ));
    }
    Ok(())
}

pub(super) async fn movetime(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    super::legal::legal_answer(s, &scenario::north_to_move(), MOVETIME).await?;
    Ok(())
}

async fn untimed(s: &mut Session<'_>, go: Go, what: &str) -> Step<()> {
    s.start().await?;
    let timeout = s.config().timeout;
    let limit_text = format!("the time-out of {} (`{what}` has no time)", ms(timeout));
    let game = scenario::north_to_move();
    let answer = s.think(&game, go, timeout, &limit_text).await?;
    s.ready().await?;
    s.detail(format!(
        "{what}: bestmove {} after {}",
        answer.mv,
        ms(answer.elapsed)
    ));
    Ok(())
}

pub(super) async fn depth(s: &mut Session<'_>) -> Step<()> {
    let go = Go {
        depth: Some(DEPTH),
        ..Go::default()
    };
    untimed(s, go, &format!("go depth {DEPTH}")).await
}

pub(super) async fn nodes(s: &mut Session<'_>) -> Step<()> {
    let go = Go {
        nodes: Some(NODES),
        ..Go::default()
    };
    untimed(s, go, &format!("go nodes {NODES}")).await
}
