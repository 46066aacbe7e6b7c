//! The bot-side loop driven through in-memory streams: feed lines, compare
//! the exact bytes written.

use std::io::{self, Cursor, Write};
use std::thread;
use std::time::Duration;

use aboure_engine::{Move, Position};
use aboure_protocol::{
    serve, OptionKind, OptionSpec, Player, Search, SearchInfo, SearchLimits, SetOptionError,
};

/// How a test player behaves in `choose`.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// Reports what it was given, then plays the first legal move.
    Report,
    /// Thinks until `stop`.
    UntilStop,
    /// Panics.
    Panic,
    /// Answers a pit of the wrong row.
    Illegal,
    /// Reports the thread it runs on, then plays the first legal move.
    Thread,
}

struct TestPlayer {
    style: Style,
    depth: i64,
    fast: bool,
    games: u32,
}

fn player(style: Style) -> TestPlayer {
    TestPlayer {
        style,
        depth: 3,
        fast: false,
        games: 0,
    }
}

impl Player for TestPlayer {
    fn name(&self) -> String {
        "Test  Player".into()
    }

    fn author(&self) -> String {
        "The aboure authors".into()
    }

    fn options(&self) -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: "depth".into(),
                kind: OptionKind::Int {
                    default: 3,
                    min: 1,
                    max: 9,
                },
            },
            OptionSpec {
                name: "fast".into(),
                kind: OptionKind::Bool { default: false },
            },
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), SetOptionError> {
        match name {
            "depth" => {
                self.depth = value.parse().map_err(|_| SetOptionError::BadValue {
                    name: name.to_owned(),
                    problem: "bad depth".to_owned(),
                })?
            }
            "fast" => self.fast = value == "true",
            _ => {
                return Err(SetOptionError::NoSuchOption {
                    player: self.name(),
                    name: name.to_owned(),
                })
            }
        }
        Ok(())
    }

    fn new_game(&mut self) {
        self.games += 1;
    }

    fn choose(
        &mut self,
        position: &Position,
        history: &[Position],
        limits: &SearchLimits,
        search: &mut dyn Search,
    ) -> Move {
        match self.style {
            Style::Report => search.info(&SearchInfo {
                depth: Some(1),
                string: Some(format!(
                    "{position} after {} depth={} fast={} games={} limits={:?}",
                    history.len(),
                    self.depth,
                    self.fast,
                    self.games,
                    limits
                        .clock
                        .map(|c| (c.time.as_millis(), c.opponent_time.as_millis()))
                )),
                ..SearchInfo::default()
            }),
            Style::UntilStop => {
                while !search.stopped() {
                    thread::sleep(Duration::from_millis(1));
                }
            }
            Style::Thread => search.info(&SearchInfo {
                string: Some(format!("{:?}", thread::current().id())),
                ..SearchInfo::default()
            }),
            Style::Panic => panic!("test player gives up"),
            Style::Illegal => {
                let first = position.side_to_move().first_pit();
                return Move::sow((first + 6) % 12).unwrap();
            }
        }
        position.legal_moves()[0]
    }
}

/// Runs the loop on `input` and returns what it wrote.
fn run(p: TestPlayer, input: &str) -> String {
    let mut out = Vec::new();
    serve(p, Cursor::new(input.as_bytes()), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[track_caller]
fn check(p: TestPlayer, input: &str, expected: &[&str]) {
    let got = run(p, input);
    let want: String = expected.iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(got, want, "\n--- got ---\n{got}--- want ---\n{want}");
}

#[test]
fn handshake() {
    check(
        player(Style::Report),
        "aboure 1\r\nisready\n",
        &[
            "id name Test  Player",
            "id author The aboure authors",
            "option name depth type int default 3 min 1 max 9",
            "option name fast type bool default false",
            "aboureok",
            "readyok",
        ],
    );
}

#[test]
fn options_are_checked_against_their_spec() {
    check(
        player(Style::Report),
        "setoption name depth value 12\n\
         setoption name depth value x\n\
         setoption name fast value yes\n\
         setoption name speed value 1\n\
         setoption name depth value 7\n\
         setoption name fast value true\n\
         go\n",
        &[
            "info string ignored setoption: option depth: 12 is outside 1..=9",
            "info string ignored setoption: option depth: value `x` is not a whole number",
            "info string ignored setoption: option fast: `yes` is neither `true` nor `false`",
            "info string ignored setoption: no option named speed",
            "info depth 1 string 4,4,4,4,4,4/4,4,4,4,4,4 s 0 0 after 0 depth=7 fast=true games=0 limits=None",
            "bestmove 0",
        ],
    );
}

#[test]
fn position_moves_history_and_clocks() {
    // After 2 and 8 South is to move; the clocks are given per side.
    check(
        player(Style::Report),
        "newgame\nposition startpos moves 2 8\ngo stime 1000 ntime 2000 sinc 0 ninc 0\n",
        &[
            "info depth 1 string 1,2,3,7,7,1/5,5,1,2,6,6 s 2 0 after 2 depth=3 fast=false games=1 limits=Some((1000, 2000))",
            "bestmove 1",
        ],
    );
}

#[test]
fn set_position_and_forced_pass() {
    // South has no sowing, North has one: the loop answers the pass itself
    // (the panicking player is never asked).
    check(
        player(Style::Panic),
        "position set 0,0,0,0,0,1/0,0,0,0,0,2 s 22 23\ngo movetime 10\n",
        &["bestmove pass"],
    );
}

#[test]
fn isready_is_answered_while_thinking() {
    check(
        player(Style::UntilStop),
        "position startpos\ngo\nisready\nstop\n",
        &["readyok", "bestmove 0"],
    );
}

#[test]
fn quit_and_end_of_input_stop_the_search() {
    check(player(Style::UntilStop), "go\nquit\ngo\n", &["bestmove 0"]);
    check(player(Style::UntilStop), "go", &["bestmove 0"]);
}

#[test]
fn one_search_at_a_time() {
    check(
        player(Style::UntilStop),
        "go\ngo depth 1\nsetoption name depth value 2\nnewgame\nstop\n",
        &[
            "info string ignored go: already thinking",
            "info string ignored setoption: still thinking (send stop first)",
            "info string ignored newgame: still thinking (send stop first)",
            "bestmove 0",
        ],
    );
}

#[test]
fn bad_lines_are_reported_and_ignored() {
    check(
        player(Style::Report),
        "uci\n\n   \ngo stime 5\nposition startpos moves 12\nposition startpos moves 0 0\n\
         position set 4,4,4,4,4,4/4,4,4,4,4,4 s 0 1\n\u{fe}\u{ff}garbage\nisready\n",
        &[
            "info string ignored unknown command `uci`",
            "info string ignored `go stime 5`: `stime ntime sinc ninc` come as a group of four; missing ntime, sinc, ninc",
            "info string ignored `position startpos moves 12`: `12` is not a move: expected a pit number 0..11 or `pass`",
            "info string ignored position: move 2 of the game (0) in 2,6,6,0,5,5/5,1,5,5,5,1 n 2 0: move 0 is not legal; legal moves: 6 8 9 10",
            "info string ignored `position set 4,4,4,4,4,4/4,4,4,4,4,4 s 0 1`: bad position: the pits and captures hold 49 seeds in all, but the game has 48",
            "info string ignored unknown command `\u{fe}\u{ff}garbage`",
            "readyok",
        ],
    );
}

#[test]
fn invalid_utf8_is_not_fatal() {
    let mut out = Vec::new();
    let input: &[u8] = b"\xff\xfe\nisready\n";
    serve(player(Style::Report), Cursor::new(input), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.ends_with("readyok\n"), "{out}");
}

#[test]
fn a_failing_player_still_answers_a_legal_move() {
    check(
        player(Style::Panic),
        "go\n",
        &[
            "info string the player failed in 4,4,4,4,4,4/4,4,4,4,4,4 s 0 0; playing 0",
            "bestmove 0",
        ],
    );
    check(
        player(Style::Illegal),
        "go\n",
        &[
            "info string the player chose 6, which is not legal in 4,4,4,4,4,4/4,4,4,4,4,4 s 0 0; playing 0",
            "bestmove 0",
        ],
    );
}

#[test]
fn a_closed_output_ends_the_loop_with_an_error() {
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let err = serve(
        player(Style::Report),
        Cursor::new("isready\nisready\n"),
        Closed,
    )
    .unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
}

/// Input fed line by line from a channel: the loop waits for each.
struct Fed {
    lines: std::sync::mpsc::Receiver<String>,
    pending: Cursor<Vec<u8>>,
}

impl io::Read for Fed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        io::BufRead::fill_buf(self)?;
        let n = io::Read::read(&mut self.pending, buf)?;
        Ok(n)
    }
}

impl io::BufRead for Fed {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pending.position() as usize == self.pending.get_ref().len() {
            // The end of the input once the sender is dropped.
            let line = self.lines.recv().unwrap_or_default();
            self.pending = Cursor::new(line.into_bytes());
        }
        io::BufRead::fill_buf(&mut self.pending)
    }

    fn consume(&mut self, n: usize) {
        io::BufRead::consume(&mut self.pending, n)
    }
}

/// Output sent on as whole lines.
struct Heard(std::sync::mpsc::Sender<String>, Vec<u8>);

impl Write for Heard {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.1.extend_from_slice(buf);
        while let Some(end) = self.1.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.1.drain(..=end).collect();
            let _ = self
                .0
                .send(String::from_utf8_lossy(&line).trim_end().to_owned());
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn every_go_of_a_session_is_searched_on_one_thread() {
    let (feed, lines) = std::sync::mpsc::channel();
    let (said, heard) = std::sync::mpsc::channel();
    let input = Fed {
        lines,
        pending: Cursor::new(Vec::new()),
    };
    let server =
        thread::spawn(move || serve(player(Style::Thread), input, Heard(said, Vec::new())));
    let mut threads = Vec::new();
    for _ in 0..4 {
        feed.send("position startpos\ngo nodes 1\n".to_owned())
            .unwrap();
        let info = heard.recv().unwrap();
        assert_eq!(heard.recv().unwrap(), "bestmove 0");
        threads.push(info);
    }
    // The search thread is still there after a `stop` with nothing to stop.
    feed.send("stop\nposition startpos\ngo\n".to_owned())
        .unwrap();
    threads.push(heard.recv().unwrap());
    assert_eq!(heard.recv().unwrap(), "bestmove 0");
    drop(feed);
    server.join().unwrap().unwrap();
    let first = threads[0].clone();
    assert!(first.starts_with("info string ThreadId("), "{first}");
    assert!(threads.iter().all(|t| *t == first), "{threads:?}");
    assert_ne!(first, format!("info string {:?}", thread::current().id()));
}

#[test]
fn a_boxed_player_is_served() {
    let boxed: Box<dyn Player + Send> = Box::new(player(Style::Report));
    let mut out = Vec::new();
    serve(boxed, Cursor::new("aboure 1\n"), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("id name Test  Player\n"), "{out}");
    assert!(out.ends_with("aboureok\n"), "{out}");
}

mod any_input {
    use super::*;
    use aboure_protocol::BotMessage;
    use proptest::prelude::*;

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("aboure 1".to_string()),
            Just("isready".to_string()),
            Just("newgame".to_string()),
            Just("stop".to_string()),
            Just("go".to_string()),
            Just("go depth 2".to_string()),
            Just("position startpos moves 2 8".to_string()),
            "setoption name (depth|fast|x) value [a-z0-9 -]{0,6}",
            "position (startpos|set) [0-9,/ sn]{0,30}( moves( [0-9]{1,2}| pass){0,6})?",
            "go( (stime|ntime|sinc|ninc|movetime|depth|nodes) [0-9]{1,4}){0,5}",
            "\\PC{0,30}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever arrives, the loop writes only well-formed protocol
        /// lines and at most one bestmove per go.
        #[test]
        fn writes_only_protocol_lines(lines in prop::collection::vec(line(), 0..20)) {
            let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
            let gos = lines.iter().filter(|l| l.trim_start().starts_with("go")).count();
            let mut out = Vec::new();
            serve(player(Style::Report), Cursor::new(input), &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            let mut bestmoves = 0;
            for l in out.lines() {
                let msg = l.parse::<BotMessage>();
                prop_assert!(
                    matches!(msg, Ok(ref m) if !matches!(m, BotMessage::Unknown(_))),
                    "not a protocol line: {}", l
                );
                bestmoves += matches!(msg, Ok(BotMessage::BestMove(_))) as usize;
            }
            prop_assert!(bestmoves <= gos);
        }
    }
}
