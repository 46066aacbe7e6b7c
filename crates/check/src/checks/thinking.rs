//! Checks of a bot while it thinks: `go` without limits and `stop`, pings
//! during a search, `stop` during a long `movetime`, and one answer per
//! `go`. A bot that has finished its search may answer a `go` without
//! limits before `stop`; the checks then note that they could not catch it
//! thinking rather than fail it.

use std::time::Duration;

use aboure_protocol::{ArbiterMessage, BotMessage, Go};

use super::legal::{legal_answer, MOVETIME};
use crate::scenario;
use crate::session::{ms, Answer, Session, Step};

/// How long the bot thinks before it is pinged or stopped.
const THINK: Duration = Duration::from_millis(200);

/// The `go movetime` that only `stop` ends early.
const LONG_MOVETIME: Duration = Duration::from_secs(60);

/// Pings sent while the bot thinks.
const PINGS: usize = 3;

/// Sends `stop` and expects the outstanding `go`'s answer within the
/// time-out; `None` when the answer had already come.
async fn stop_and_answer(s: &mut Session<'_>) -> Step<(Answer, Option<Duration>)> {
    if let Some(early) = s.take_answer() {
        s.send(&ArbiterMessage::Stop).await?;
        return Ok((early, None));
    }
    let timeout = s.config().timeout;
    let stop = s.send(&ArbiterMessage::Stop).await?;
    let answer = s
        .await_answer(
            stop + timeout,
            &format!("the time-out of {} after stop", ms(timeout)),
        )
        .await?;
    let after_stop = answer.at.saturating_duration_since(stop);
    Ok((answer, Some(after_stop)))
}

fn note_early(s: &mut Session<'_>, answer: &Answer) {
    s.detail(format!(
        "answered before stop, after {} (its search was complete; the stop that followed was ignored, as it should be)",
        ms(answer.elapsed)
    ));
}

pub(super) async fn infinite(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    s.go(&scenario::startpos(), Go::default()).await?;
    s.listen(THINK).await?;
    let (answer, after_stop) = stop_and_answer(s).await?;
    match after_stop {
        Some(d) => s.detail(format!("bestmove {} {} after stop", answer.mv, ms(d))),
        None => note_early(s, &answer),
    }
    s.ready().await?;
    Ok(())
}

pub(super) async fn isready_while_thinking(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    s.go(&scenario::startpos(), Go::default()).await?;
    s.listen(THINK / 2).await?;
    let timeout = s.config().timeout;
    for i in 0..PINGS {
        if let Some(early) = s.take_answer() {
            note_early(s, &early);
            s.detail("readyok while thinking could not be checked: the bot was not thinking");
            s.send(&ArbiterMessage::Stop).await?;
            s.ready().await?;
            return Ok(());
        }
        let sent = s.send(&ArbiterMessage::IsReady).await?;
        let what = format!("readyok while thinking (ping {} of {PINGS})", i + 1);
        let (readyok, _) = s
            .wait_for(&what, sent + timeout, |m| *m == BotMessage::ReadyOk)
            .await?;
        if let Some(answer) = s.take_answer() {
            if answer.at <= sent {
                // It answered before the ping went out: not a ping problem.
                note_early(s, &answer);
                s.detail(
                    "readyok while thinking could not be checked further: the bot stopped thinking",
                );
                s.send(&ArbiterMessage::Stop).await?;
                s.ready().await?;
                return Ok(());
            }
            return Err(crate::session::Failure(format!(
                "readyok came only after bestmove {}, with no stop sent: the bot \
                 seems not to read its input while it thinks",
                answer.mv
            )));
        }
        s.detail(format!(
            "readyok while thinking after {}",
            ms(readyok.saturating_duration_since(sent))
        ));
        s.listen(THINK / 4).await?;
    }
    let (answer, after_stop) = stop_and_answer(s).await?;
    if let Some(d) = after_stop {
        s.detail(format!("bestmove {} {} after stop", answer.mv, ms(d)));
    }
    s.ready().await?;
    Ok(())
}

pub(super) async fn stop(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    let go = Go {
        movetime: Some(LONG_MOVETIME),
        ..Go::default()
    };
    s.go(&scenario::startpos(), go).await?;
    s.listen(THINK).await?;
    let (answer, after_stop) = stop_and_answer(s).await?;
    match after_stop {
        Some(d) => s.detail(format!(
            "movetime {}: bestmove {} {} after stop",
            ms(LONG_MOVETIME),
            answer.mv,
            ms(d)
        )),
        None => note_early(s, &answer),
    }
    s.ready().await?;
    s.begin_exchange();
    s.send(&ArbiterMessage::Stop).await?;
    s.listen(THINK / 2).await?;
    s.ready().await?;
    s.detail("stop while idle: ignored");
    Ok(())
}

pub(super) async fn single_bestmove(s: &mut Session<'_>) -> Step<()> {
    s.start().await?;
    for game in [scenario::startpos(), scenario::north_to_move()] {
        legal_answer(s, &game, MOVETIME).await?;
        s.listen(THINK).await?;
        s.send(&ArbiterMessage::Stop).await?;
        s.listen(THINK / 2).await?;
        s.ready().await?;
    }
    s.detail("one bestmove per go, none after a later stop");
    Ok(())
}
