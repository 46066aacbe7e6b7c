//! The exchange on in-memory streams: a scripted bot on the other end of
//! two `duplex` pipes, no process.

use super::*;
use crate::lines::MAX_LINE;
use crate::memory::scripted;
use aboure_protocol::{GameSoFar, Go, Start};

const LIMIT: Duration = Duration::from_secs(10);

fn startpos() -> ArbiterMessage {
    ArbiterMessage::Position(GameSoFar {
        start: Start::StartPos,
        moves: Vec::new(),
    })
}

fn go() -> ArbiterMessage {
    ArbiterMessage::Go(Go::default())
}

#[tokio::test]
async fn the_handshake_sends_the_options_and_waits_for_readyok() {
    let (mut channel, mut bot) = scripted();
    let script = tokio::spawn(async move {
        let mut heard = vec![bot.hear().await];
        bot.say("id name x\nid author y\naboureok\n").await;
        for _ in 0..2 {
            heard.push(bot.hear().await);
        }
        bot.say("readyok\n").await;
        heard
    });
    let options = [("Hash".to_owned(), "16".to_owned())];
    channel.handshake(&options, LIMIT).await.unwrap();
    assert_eq!(
        script.await.unwrap(),
        ["aboure 1", "setoption name Hash value 16", "isready"]
    );
}

#[tokio::test]
async fn a_new_game_sends_its_options_before_newgame_in_one_round_trip() {
    let (mut channel, mut bot) = scripted();
    let script = tokio::spawn(async move {
        let mut heard = Vec::new();
        for _ in 0..4 {
            heard.push(bot.hear().await);
        }
        bot.say("readyok\n").await;
        heard
    });
    let options = [
        ("row_weight".to_owned(), "-12".to_owned()),
        ("mobility_weight".to_owned(), "7".to_owned()),
    ];
    channel.new_game(&options, LIMIT).await.unwrap();
    assert_eq!(
        script.await.unwrap(),
        [
            "setoption name row_weight value -12",
            "setoption name mobility_weight value 7",
            "newgame",
            "isready"
        ]
    );
}

#[tokio::test]
async fn the_handshake_keeps_the_declared_options() {
    let (mut channel, mut bot) = scripted();
    let script = tokio::spawn(async move {
        bot.hear().await;
        bot.say("id name x\noption name w type int default 5 min -9 max 9\n")
            .await;
        bot.say("option name q type bool default true\naboureok\n")
            .await;
        bot.hear().await;
        bot.say("readyok\n").await;
    });
    channel.handshake(&[], LIMIT).await.unwrap();
    script.await.unwrap();
    let declared: Vec<String> = channel.declared().iter().map(|o| o.name.clone()).collect();
    assert_eq!(declared, ["w", "q"]);
    assert_eq!(
        channel.declared()[0].kind,
        aboure_protocol::OptionKind::Int {
            default: 5,
            min: -9,
            max: 9
        }
    );
}

#[tokio::test]
async fn an_answer_is_timed_from_its_arrival_and_its_info_merged() {
    let (mut channel, mut bot) = scripted();
    bot.say("info depth 3 score 5\ninfo depth 4\nbestmove 2\n")
        .await;
    // The lines are read (and stamped) before the exchange asks for them.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let answer = channel
        .exchange(&startpos(), &go(), LIMIT, false)
        .await
        .unwrap();
    assert_eq!(answer.mv.to_string(), "2");
    assert_eq!(
        answer.elapsed,
        Duration::ZERO,
        "read before the go was sent"
    );
    assert_eq!((answer.info.depth, answer.info.score), (Some(4), Some(5)));
    // What the arbiter said: the game, go, and the fence.
    let heard = [bot.hear().await, bot.hear().await, bot.hear().await];
    assert_eq!(heard, ["position startpos", "go", "isready"]);
}

#[tokio::test]
async fn a_second_answer_is_caught_by_the_fence() {
    let (mut channel, mut bot) = scripted();
    bot.say("bestmove 2\nbestmove 4\n").await;
    channel
        .exchange(&startpos(), &go(), LIMIT, false)
        .await
        .unwrap();
    bot.say("readyok\n").await;
    assert_eq!(
        channel.check_unasked(LIMIT).await,
        Err(Fault::Unasked("bestmove 4".to_owned()))
    );
}

#[tokio::test]
async fn a_fenced_bot_that_answered_once_is_in_good_order() {
    let (mut channel, mut bot) = scripted();
    bot.say("bestmove 2\ninfo string thinking done\nreadyok\n")
        .await;
    channel
        .exchange(&startpos(), &go(), LIMIT, false)
        .await
        .unwrap();
    assert_eq!(channel.check_unasked(LIMIT).await, Ok(()));
}

#[tokio::test]
async fn a_series_sends_each_fence_with_the_next_go() {
    let (mut channel, mut bot) = scripted();
    bot.say("bestmove 2\n").await;
    let first = channel
        .exchange(&startpos(), &go(), LIMIT, true)
        .await
        .unwrap();
    assert_eq!(first.mv.to_string(), "2");
    // The bot answers the fence and the next go at once, as it reads them.
    bot.say("readyok\nbestmove 3\n").await;
    let second = channel
        .exchange(&startpos(), &go(), LIMIT, true)
        .await
        .unwrap();
    assert_eq!(second.mv.to_string(), "3");
    bot.say("readyok\n").await;
    assert_eq!(channel.check_unasked(LIMIT).await, Ok(()));
    let mut heard = Vec::new();
    for _ in 0..6 {
        heard.push(bot.hear().await);
    }
    assert_eq!(
        heard,
        [
            "position startpos",
            "go",
            "isready",
            "position startpos",
            "go",
            "isready"
        ]
    );
}

#[tokio::test]
async fn a_second_answer_in_a_series_is_caught_before_the_next_go_is_answered() {
    let (mut channel, mut bot) = scripted();
    bot.say("bestmove 2\nbestmove 4\n").await;
    channel
        .exchange(&startpos(), &go(), LIMIT, true)
        .await
        .unwrap();
    bot.say("readyok\nbestmove 3\n").await;
    assert_eq!(
        channel
            .exchange(&startpos(), &go(), LIMIT, true)
            .await
            .unwrap_err(),
        Fault::Unasked("bestmove 4".to_owned())
    );
}

#[tokio::test]
async fn the_last_answer_of_a_series_is_fenced_by_the_check() {
    let (mut channel, mut bot) = scripted();
    bot.say("bestmove 2\nbestmove 4\n").await;
    channel
        .exchange(&startpos(), &go(), LIMIT, true)
        .await
        .unwrap();
    bot.say("readyok\n").await;
    assert_eq!(
        channel.check_unasked(LIMIT).await,
        Err(Fault::Unasked("bestmove 4".to_owned()))
    );
}

#[tokio::test]
async fn a_bestmove_before_the_handshake_ends_is_not_asked_for() {
    let (mut channel, mut bot) = scripted();
    bot.say("bestmove 1\naboureok\n").await;
    let fault = channel.handshake(&[], LIMIT).await.unwrap_err();
    assert_eq!(fault, Fault::Unasked("bestmove 1".to_owned()));
}

#[tokio::test]
async fn silence_is_no_reply_and_an_unreadable_answer_is_named() {
    let (mut channel, mut bot) = scripted();
    let limit = Duration::from_millis(20);
    let fault = channel
        .exchange(&startpos(), &go(), limit, false)
        .await
        .unwrap_err();
    assert!(
        matches!(fault, Fault::NoReply { what: "bestmove", limit: l, .. } if l == limit),
        "{fault:?}"
    );
    bot.say("bestmove seven\n").await;
    let fault = channel
        .exchange(&startpos(), &go(), LIMIT, false)
        .await
        .unwrap_err();
    assert_eq!(fault, Fault::Unreadable("bestmove seven".to_owned()));
}

#[tokio::test]
async fn an_endless_line_is_a_fault_before_its_end() {
    let (mut channel, mut bot) = scripted();
    // No newline ever comes; the stream stays open.
    bot.say(&"x".repeat(MAX_LINE + 10)).await;
    let fault = channel
        .exchange(&startpos(), &go(), LIMIT, false)
        .await
        .unwrap_err();
    assert!(
        matches!(&fault, Fault::TooLong { len, .. } if *len > MAX_LINE),
        "{fault:?}"
    );
    drop(bot);
}

#[tokio::test]
async fn the_end_of_the_output_is_closed_every_time() {
    let (mut channel, bot) = scripted();
    drop(bot);
    for _ in 0..2 {
        let fault = channel.new_game(&[], LIMIT).await.unwrap_err();
        assert!(
            matches!(fault, Fault::Closed(None) | Fault::WriteFailed(_)),
            "{fault:?}"
        );
    }
    let far = Instant::now() + LIMIT;
    let arrival = channel.next(far).await.unwrap();
    assert_eq!(arrival.output, Output::Closed(None));
}

/// A channel whose bot never reads: its input holds `pipe` bytes; the
/// bot's output (the second stream) is written by the test.
fn deaf(
    pipe: usize,
) -> (
    Channel<tokio::io::DuplexStream>,
    (tokio::io::DuplexStream, tokio::io::DuplexStream),
) {
    let (to_bot, unread) = tokio::io::duplex(pipe);
    let (says, from_bot) = tokio::io::duplex(1024);
    let logs = Arc::new(BotLogs::discard());
    (Channel::new(to_bot, from_bot, logs, 1), (unread, says))
}

#[tokio::test]
async fn a_write_the_bot_never_reads_ends_at_its_deadline() {
    let (mut channel, _bot) = deaf(8);
    let limit = Duration::from_millis(100);
    let t0 = Instant::now();
    let fault = channel
        .exchange(&startpos(), &go(), limit, false)
        .await
        .unwrap_err();
    assert!(
        matches!(fault, Fault::Unread { what: "go", .. }),
        "{fault:?}"
    );
    assert!(t0.elapsed() < limit * 5, "{:?}", t0.elapsed());
    // The input is closed: what is half written can never be taken back.
    let again = channel.write_lines(&["isready"], Instant::now() + limit);
    assert_eq!(
        again.await.unwrap_err().kind(),
        std::io::ErrorKind::BrokenPipe
    );
}

#[tokio::test]
async fn the_handshake_ends_when_its_options_are_never_read() {
    let (mut channel, (_unread, mut says)) = deaf(64);
    says.write_all(b"aboureok\n").await.unwrap();
    let options = [("Book".to_owned(), "b".repeat(1000))];
    let fault = channel
        .handshake(&options, Duration::from_millis(100))
        .await
        .unwrap_err();
    assert!(
        matches!(
            fault,
            Fault::Unread {
                what: "setoption",
                ..
            }
        ),
        "{fault:?}"
    );
}

#[tokio::test]
async fn a_handshake_of_too_many_options_or_bytes_is_refused() {
    for (options, size, expected) in [
        (MAX_OPTIONS + 1, 1, "more than 128 options"),
        (8, 60_000, "a handshake of more than 262144 bytes"),
    ] {
        let (mut channel, mut bot) = scripted();
        let script = tokio::spawn(async move {
            bot.hear().await;
            let default = "d".repeat(size);
            for i in 0..options {
                bot.say(&format!("option name o{i} type string default {default}\n"))
                    .await;
            }
            bot.say("aboureok\n").await;
        });
        let fault = channel.handshake(&[], LIMIT).await.unwrap_err();
        assert_eq!(fault.to_string(), format!("sent {expected}"));
        script.abort();
    }
}

#[tokio::test]
async fn a_write_that_fits_returns_the_instant_of_its_flush() {
    let (mut channel, _bot) = deaf(64);
    let before = Instant::now();
    let at = channel
        .write_lines(&["isready"], before + Duration::from_secs(1))
        .await
        .unwrap();
    assert!(at >= before);
}

#[tokio::test]
async fn a_long_pv_and_info_string_are_cut_in_the_record() {
    let (mut channel, mut bot) = scripted();
    let pv = "3 ".repeat(1000);
    let text = "é".repeat(20_000);
    bot.say(&format!("info depth 2 pv {pv}string {text}\nbestmove 2\n"))
        .await;
    let answer = channel
        .exchange(&startpos(), &go(), LIMIT, false)
        .await
        .unwrap();
    assert_eq!(answer.info.pv.len(), aboure_records::PV_KEPT);
    assert_eq!(answer.info.pv_sent, Some(1000));
    let kept = answer.info.string.unwrap();
    assert!(kept.ends_with("... (cut from 40000 bytes)"), "{kept}");
    assert!(kept.len() <= aboure_records::INFO_STRING_KEPT + 30);
}

#[tokio::test]
async fn a_moves_output_is_bounded_and_counted_from_its_go() {
    let (mut channel, mut bot) = scripted();
    let (position, go) = (startpos(), go());
    let line = format!("info string {}\n", "i".repeat(1000));
    let fits = line.repeat((MAX_MOVE_OUTPUT - 100) / line.len()) + "bestmove 2\n";
    // Twice just under the bound: each move has a bound of its own.
    for _ in 0..2 {
        let (answer, ()) = tokio::join!(
            channel.exchange(&position, &go, LIMIT, false),
            bot.say(&fits)
        );
        assert_eq!(answer.unwrap().mv.to_string(), "2");
        bot.say("readyok\n").await;
        channel.check_unasked(LIMIT).await.unwrap();
    }
    let over = line.repeat(MAX_MOVE_OUTPUT / line.len() + 1) + "bestmove 2\n";
    let (answer, ()) = tokio::join!(
        channel.exchange(&position, &go, LIMIT, false),
        bot.say(&over)
    );
    assert_eq!(
        answer.unwrap_err(),
        Fault::TooMuch(format!(
            "more than {MAX_MOVE_OUTPUT} bytes of output for one move"
        ))
    );
}
