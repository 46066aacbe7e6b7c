//! The session's rules on in-memory streams: a scripted bot on the other
//! end of two `duplex` pipes, no process.

use aboure_process::memory::{scripted, ScriptedBot};
use aboure_process::Channel;
use tokio::io::DuplexStream;

use super::*;
use crate::link::Link;
use crate::{scenario, CheckConfig};

fn config() -> CheckConfig {
    CheckConfig::new(["no-such-bot"], std::time::Duration::from_millis(50)).unwrap()
}

/// A session on a scripted bot, past its handshake.
fn session(config: &CheckConfig) -> (Session<'_, Channel<DuplexStream>>, ScriptedBot) {
    let (channel, bot) = scripted();
    (Session::on(config, channel), bot)
}

const LIMIT: Duration = Duration::from_secs(10);

/// A `go` from the start and its answer within [`LIMIT`], then the fence.
async fn think<L: Link>(s: &mut Session<'_, L>) -> Step<Answer> {
    s.think(&scenario::startpos(), Go::default(), LIMIT, "the limit")
        .await
}

/// Lets the reader task read what the bot said while the session is busy
/// elsewhere: the session comes back to its lines only afterwards.
async fn slow_poll() -> Instant {
    tokio::time::sleep(Duration::from_millis(50)).await;
    Instant::now()
}

#[tokio::test]
async fn a_bestmove_read_before_a_slow_poll_is_charged_its_read_time() {
    let config = config();
    let (mut s, mut bot) = session(&config);
    s.go(&scenario::startpos(), Go::default()).await.unwrap();
    let asked = s.turn.asked().unwrap();
    // The position and its go, as the arbiter sends them.
    assert_eq!(
        [bot.hear().await, bot.hear().await],
        ["position startpos", "go"]
    );
    bot.say("bestmove 2\n").await;
    let polled = slow_poll().await;
    let answer = s.await_bestmove(LIMIT, "the limit").await.unwrap();
    assert!(answer.at < polled, "stamped when read, not when polled");
    assert_eq!(answer.elapsed, answer.at - asked);
    assert_eq!(answer.mv.to_string(), "2");
}

#[tokio::test]
async fn a_readyok_read_before_a_slow_poll_is_charged_its_read_time() {
    let config = config();
    let (mut s, mut bot) = session(&config);
    let sent = s.send(&ArbiterMessage::IsReady).await.unwrap();
    assert_eq!(bot.hear().await, "isready");
    bot.say("readyok\n").await;
    let polled = slow_poll().await;
    let (at, message) = s
        .wait_for("readyok", sent + LIMIT, |m| *m == BotMessage::ReadyOk)
        .await
        .unwrap();
    assert_eq!(message, BotMessage::ReadyOk);
    assert!(
        sent <= at && at < polled,
        "stamped when read, not when polled"
    );
}

#[tokio::test]
async fn an_answer_is_fenced_and_the_fence_readyok_is_not_a_reply() {
    let config = config();
    let (mut s, mut bot) = session(&config);
    let script = tokio::spawn(async move {
        let mut heard = vec![bot.hear().await, bot.hear().await];
        bot.say("info depth 1\nbestmove 2\n").await;
        heard.push(bot.hear().await);
        heard.push(bot.hear().await);
        bot.say("readyok\nreadyok\n").await;
        heard
    });
    think(&mut s).await.unwrap();
    assert!(s.turn.fenced().is_some());
    // The ping's own readyok is the second one: the first is the fence's.
    s.ready().await.unwrap();
    assert_eq!(s.turn.fenced(), None);
    let heard = script.await.unwrap();
    assert_eq!(heard, ["position startpos", "go", "isready", "isready"]);
}

#[tokio::test]
async fn a_second_answer_before_the_fence_readyok_was_not_asked_for() {
    let config = config();
    let (mut s, mut bot) = session(&config);
    bot.say("bestmove 2\nbestmove 4\nreadyok\n").await;
    think(&mut s).await.unwrap();
    let Failure(reason) = s.settle_fence().await.unwrap_err();
    assert!(
        reason.starts_with("`bestmove 4` was not asked for"),
        "{reason}"
    );
}

#[tokio::test]
async fn a_bot_that_never_answers_the_fence_fails_the_check_at_its_end() {
    let mut config = config();
    config.timeout = Duration::from_millis(20);
    let (mut s, mut bot) = session(&config);
    bot.say("bestmove 2\n").await;
    think(&mut s).await.unwrap();
    let (outcome, spare) = s.finish("test", Ok(()), true).await;
    assert!(spare.is_none());
    assert_eq!(
        outcome.status,
        crate::Status::Fail {
            reason: "no readyok to the isready sent after the answer within 20 ms".to_owned(),
            exchange: 0,
        }
    );
    drop(bot);
}

#[tokio::test]
async fn the_next_go_goes_out_once_the_fence_readyok_is_read() {
    let config = config();
    let (mut s, mut bot) = session(&config);
    let script = tokio::spawn(async move {
        for _ in 0..2 {
            bot.hear().await;
        }
        bot.say("bestmove 2\n").await;
        assert_eq!(bot.hear().await, "isready");
        bot.say("readyok\n").await;
        // The second go comes only after the fence's readyok was read.
        assert_eq!(
            [bot.hear().await, bot.hear().await],
            ["position startpos", "go"]
        );
        bot.say("bestmove 3\n").await;
        bot
    });
    for mv in ["2", "3"] {
        let answer = s
            .think(&scenario::startpos(), Go::default(), LIMIT, "the limit")
            .await
            .unwrap();
        assert_eq!(answer.mv.to_string(), mv);
    }
    drop(script.await.unwrap());
}
