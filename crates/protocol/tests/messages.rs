//! Every message both ways: Display then parse gives the value back (for
//! generated values), exact lines for hand-picked ones, and near-miss lines
//! that must be rejected with an error quoting them.

use std::time::Duration;

use aboure_engine::{Move, Position, Side};
use aboure_protocol::{
    ArbiterMessage, BotMessage, ClockState, Clocks, GameSoFar, Go, OptionKind, OptionSpec,
    SearchInfo, SearchLimits, Start,
};
use proptest::prelude::*;

fn mv() -> impl Strategy<Value = Move> {
    prop_oneof![
        (0usize..12).prop_map(|p| Move::sow(p).unwrap()),
        Just(Move::Pass)
    ]
}

fn position() -> impl Strategy<Value = Position> {
    // Twelve pits and two captures adding up to 48: cut 0..=48 at 13 points.
    (prop::collection::vec(0u8..=48, 13), any::<bool>()).prop_map(|(mut cuts, north)| {
        cuts.sort_unstable();
        let mut parts = [0u8; 14];
        let mut prev = 0;
        for (i, &c) in cuts.iter().enumerate() {
            parts[i] = c - prev;
            prev = c;
        }
        parts[13] = 48 - prev;
        let mut pits = [0u8; 12];
        pits.copy_from_slice(&parts[..12]);
        let side = if north { Side::North } else { Side::South };
        Position::new(pits, side, [parts[12], parts[13]]).unwrap()
    })
}

fn ms() -> impl Strategy<Value = Duration> {
    (0u64..10_000_000).prop_map(Duration::from_millis)
}

fn word() -> impl Strategy<Value = String> {
    "[A-Za-z0-9_-]{1,12}"
}

/// Free text as the rest of a line: no line breaks, no surrounding blanks.
fn text() -> impl Strategy<Value = String> {
    "([!-~é€][ !-~\té€]{0,20}[!-~é€])?"
}

fn go() -> impl Strategy<Value = Go> {
    (
        prop::option::of((ms(), ms(), ms(), ms())),
        prop::option::of(ms()),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u64>()),
    )
        .prop_map(|(c, movetime, depth, nodes)| Go {
            clocks: c.map(|(st, nt, si, ni)| Clocks {
                time: [st, nt],
                increment: [si, ni],
            }),
            movetime,
            depth,
            nodes,
        })
}

fn arbiter_message() -> impl Strategy<Value = ArbiterMessage> {
    prop_oneof![
        any::<u32>().prop_map(|version| ArbiterMessage::Aboure { version }),
        (word(), text()).prop_map(|(name, value)| ArbiterMessage::SetOption { name, value }),
        Just(ArbiterMessage::IsReady),
        Just(ArbiterMessage::NewGame),
        (
            prop::option::of(position()),
            prop::collection::vec(mv(), 0..30)
        )
            .prop_map(|(p, moves)| ArbiterMessage::Position(GameSoFar {
                start: p.map_or(Start::StartPos, Start::Set),
                moves,
            })),
        go().prop_map(ArbiterMessage::Go),
        Just(ArbiterMessage::Stop),
        Just(ArbiterMessage::Quit),
    ]
}

/// A finite double (any bits but infinities and NaNs).
fn finite() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("finite", |v| v.is_finite())
}

fn option_spec() -> impl Strategy<Value = OptionSpec> {
    let kind = prop_oneof![
        (any::<i64>(), any::<i64>(), any::<i64>()).prop_map(|(a, b, c)| {
            let mut v = [a, b, c];
            v.sort_unstable();
            OptionKind::Int {
                min: v[0],
                default: v[1],
                max: v[2],
            }
        }),
        // Any finite doubles, tiny and huge: the line must carry each exactly.
        (finite(), finite(), finite()).prop_map(|(a, b, c)| {
            let mut v = [a, b, c];
            v.sort_unstable_by(f64::total_cmp);
            OptionKind::Float {
                min: v[0],
                default: v[1],
                max: v[2],
            }
        }),
        any::<bool>().prop_map(|default| OptionKind::Bool { default }),
        text().prop_map(|default| OptionKind::String { default }),
        (
            prop::collection::vec("[!-~]{1,8}", 1..5),
            any::<prop::sample::Index>()
        )
            .prop_map(|(choices, i)| OptionKind::Choice {
                default: i.get(&choices).clone(),
                choices,
            }),
    ];
    (word(), kind).prop_map(|(name, kind)| OptionSpec { name, kind })
}

fn search_info() -> impl Strategy<Value = SearchInfo> {
    (
        prop::option::of(any::<u32>()),
        prop::option::of(any::<i32>()),
        prop::option::of(any::<u64>()),
        prop::option::of(ms()),
        prop::collection::vec(mv(), 0..10),
        prop::option::of(text()),
    )
        .prop_map(|(depth, score, nodes, time, pv, string)| SearchInfo {
            depth,
            score,
            nodes,
            time,
            pv,
            string,
        })
}

fn bot_message() -> impl Strategy<Value = BotMessage> {
    prop_oneof![
        text()
            .prop_filter("non-empty", |t| !t.is_empty())
            .prop_map(BotMessage::Name),
        text()
            .prop_filter("non-empty", |t| !t.is_empty())
            .prop_map(BotMessage::Author),
        option_spec().prop_map(BotMessage::Option),
        Just(BotMessage::AboureOk),
        Just(BotMessage::ReadyOk),
        search_info().prop_map(BotMessage::Info),
        mv().prop_map(BotMessage::BestMove),
    ]
}

proptest! {
    #[test]
    fn arbiter_messages_round_trip(msg in arbiter_message()) {
        let line = msg.to_string();
        prop_assert!(!line.contains('\n'));
        prop_assert_eq!(line.parse::<ArbiterMessage>(), Ok(msg.clone()));
        // Stray whitespace and a carriage return change nothing.
        prop_assert_eq!(format!(" \t{line} \r").parse::<ArbiterMessage>(), Ok(msg));
    }

    #[test]
    fn bot_messages_round_trip(msg in bot_message()) {
        let line = msg.to_string();
        prop_assert!(!line.contains('\n'));
        prop_assert_eq!(line.parse::<BotMessage>(), Ok(msg.clone()));
        prop_assert_eq!(format!("\t{line}\r").parse::<BotMessage>(), Ok(msg));
    }

    #[test]
    fn go_limits_round_trip(go in go(), north in any::<bool>()) {
        let side = if north { Side::North } else { Side::South };
        prop_assert_eq!(Go::from_limits(&go.limits(side), side), go);
    }

    #[test]
    fn arbiter_parser_never_panics(line in "\\PC{0,60}") {
        let _ = line.parse::<ArbiterMessage>();
        let _ = line.parse::<BotMessage>();
    }

    #[test]
    fn keyword_prefixed_junk_never_panics(
        k in prop::sample::select(vec!["aboure", "setoption", "position", "go", "id", "option", "info", "bestmove"]),
        rest in "[ a-z0-9,/-]{0,40}",
    ) {
        let line = format!("{k} {rest}");
        let _ = line.parse::<ArbiterMessage>();
        let _ = line.parse::<BotMessage>();
    }
}

#[test]
fn exact_arbiter_lines() {
    let cases: Vec<(&str, ArbiterMessage)> = vec![
        ("aboure 1", ArbiterMessage::Aboure { version: 1 }),
        (
            "setoption name Hash_size value 64 MB",
            ArbiterMessage::SetOption {
                name: "Hash_size".into(),
                value: "64 MB".into(),
            },
        ),
        (
            "setoption name book value",
            ArbiterMessage::SetOption {
                name: "book".into(),
                value: String::new(),
            },
        ),
        ("isready", ArbiterMessage::IsReady),
        ("newgame", ArbiterMessage::NewGame),
        (
            "position startpos",
            ArbiterMessage::Position(GameSoFar {
                start: Start::StartPos,
                moves: vec![],
            }),
        ),
        (
            "position set 0,0,0,0,0,2/0,0,0,0,0,1 n 20 25 moves pass 5",
            ArbiterMessage::Position(GameSoFar {
                start: Start::Set("0,0,0,0,0,2/0,0,0,0,0,1 n 20 25".parse().unwrap()),
                moves: vec![Move::Pass, Move::sow(5).unwrap()],
            }),
        ),
        (
            "go stime 60000 ntime 59000 sinc 500 ninc 600 movetime 100 depth 7 nodes 1000",
            ArbiterMessage::Go(Go {
                clocks: Some(Clocks {
                    time: [Duration::from_secs(60), Duration::from_secs(59)],
                    increment: [Duration::from_millis(500), Duration::from_millis(600)],
                }),
                movetime: Some(Duration::from_millis(100)),
                depth: Some(7),
                nodes: Some(1000),
            }),
        ),
        ("go", ArbiterMessage::Go(Go::default())),
        ("stop", ArbiterMessage::Stop),
        ("quit", ArbiterMessage::Quit),
        ("uci", ArbiterMessage::Unknown("uci".into())),
        ("", ArbiterMessage::Unknown(String::new())),
    ];
    for (line, msg) in cases {
        assert_eq!(line.parse::<ArbiterMessage>(), Ok(msg.clone()), "{line}");
        assert_eq!(msg.to_string(), line);
    }
}

#[test]
fn lenient_forms_parse() {
    // Limits in another order; an empty `moves` list; runs of blanks.
    let go: ArbiterMessage = "go  depth 3\tsinc 1 ninc 2 stime 3 ntime 4"
        .parse()
        .unwrap();
    assert_eq!(go.to_string(), "go stime 3 ntime 4 sinc 1 ninc 2 depth 3");
    let pos: ArbiterMessage = "position startpos moves".parse().unwrap();
    assert_eq!(pos.to_string(), "position startpos");
}

#[test]
fn exact_bot_lines() {
    let cases: Vec<(&str, BotMessage)> = vec![
        (
            "id name Greedy  Sower 2",
            BotMessage::Name("Greedy  Sower 2".into()),
        ),
        (
            "id author A. N. Author",
            BotMessage::Author("A. N. Author".into()),
        ),
        (
            "option name depth type int default 4 min 1 max 12",
            BotMessage::Option(OptionSpec {
                name: "depth".into(),
                kind: OptionKind::Int {
                    default: 4,
                    min: 1,
                    max: 12,
                },
            }),
        ),
        (
            "option name explore type float default 1.4 min 0 max 10.5",
            BotMessage::Option(OptionSpec {
                name: "explore".into(),
                kind: OptionKind::Float {
                    default: 1.4,
                    min: 0.0,
                    max: 10.5,
                },
            }),
        ),
        (
            "option name ponder type bool default false",
            BotMessage::Option(OptionSpec {
                name: "ponder".into(),
                kind: OptionKind::Bool { default: false },
            }),
        ),
        (
            "option name book type string default",
            BotMessage::Option(OptionSpec {
                name: "book".into(),
                kind: OptionKind::String {
                    default: String::new(),
                },
            }),
        ),
        (
            "option name style type choice default calm var calm var wild",
            BotMessage::Option(OptionSpec {
                name: "style".into(),
                kind: OptionKind::Choice {
                    default: "calm".into(),
                    choices: vec!["calm".into(), "wild".into()],
                },
            }),
        ),
        ("aboureok", BotMessage::AboureOk),
        ("readyok", BotMessage::ReadyOk),
        (
            "info depth 5 score -3 nodes 12345 time 87 pv 2 8 pass 0",
            BotMessage::Info(SearchInfo {
                depth: Some(5),
                score: Some(-3),
                nodes: Some(12345),
                time: Some(Duration::from_millis(87)),
                pv: vec![
                    Move::sow(2).unwrap(),
                    Move::sow(8).unwrap(),
                    Move::Pass,
                    Move::sow(0).unwrap(),
                ],
                string: None,
            }),
        ),
        (
            "info string hello  world",
            BotMessage::Info(SearchInfo {
                string: Some("hello  world".into()),
                ..SearchInfo::default()
            }),
        ),
        ("bestmove 11", BotMessage::BestMove(Move::sow(11).unwrap())),
        ("bestmove pass", BotMessage::BestMove(Move::Pass)),
        ("readyok!", BotMessage::Unknown("readyok!".into())),
    ];
    for (line, msg) in cases {
        assert_eq!(line.parse::<BotMessage>(), Ok(msg.clone()), "{line}");
        assert_eq!(msg.to_string(), line);
    }
}

#[test]
fn near_misses_are_errors_quoting_the_line() {
    let arbiter = [
        "aboure",
        "aboure one",
        "aboure 1 2",
        "setoption depth 3",
        "setoption name depth 3",
        "setoption name dep th value 3",
        "isready now",
        "newgame 1",
        "position",
        "position start",
        "position startpos 1 2",
        "position startpos moves 12",
        "position startpos moves 1 x",
        "position set 4,4,4,4,4,4/4,4,4,4,4,4 s 0",
        "position set 4,4,4,4,4,4/4,4,4,4,4,5 s 0 0",
        "position set 4,4,4,4,4,4/4,4,4,4,4,4 w 0 0",
        "position set startpos",
        "go stime 100",
        "go stime 100 ntime 100 sinc 0",
        "go movetime",
        "go movetime -5",
        "go movetime 5 movetime 6",
        "go depth 1.5",
        "go infinite",
        "go nodes 99999999999999999999999",
        "stop now",
        "quit 0",
    ];
    for line in arbiter {
        let err = line
            .parse::<ArbiterMessage>()
            .expect_err(&format!("`{line}` should be rejected"));
        assert_eq!(err.line(), line);
        assert!(err.to_string().contains(line), "{err}");
    }
    let bot = [
        "id",
        "id name",
        "id nickname x",
        "option name x type int default 5 min 6 max 9",
        "option name x type int default 3 min 5 max 1",
        "option name x type int default 3 min 1",
        "option name x type bool default yes",
        "option name x type choice default c var a var b",
        "option name x type choice default a",
        "option name x type choice default a a b",
        "option name x type float default 1",
        "option name x type float default 5 min 6 max 9",
        "option name x type float default 1 min 2 max 0",
        "option name x type float default .5 min 0 max 1",
        "option name x type float default 5. min 0 max 9",
        "option name x type float default +1 min 0 max 2",
        "option name x type float default 1 min 0 max inf",
        "option name x type float default nan min 0 max 1",
        "option name x type float default 1 min 0 max 1e999",
        "option name x type float default 1 min 0 max 2 step 1",
        "option name x type float default 1,5 min 0 max 2",
        "option name x y type bool default true",
        "option x type bool default true",
        "aboureok 1",
        "readyok now",
        "info depth",
        "info depth x",
        "info score +3",
        "info pv",
        "info pv 1 x",
        "info pv 1 depth 3",
        "info depth 3 depth 4",
        "info seldepth 3",
        "bestmove",
        "bestmove 12",
        "bestmove -1",
        "bestmove 01",
        "bestmove 3 ponder 4",
    ];
    for line in bot {
        let err = line
            .parse::<BotMessage>()
            .expect_err(&format!("`{line}` should be rejected"));
        assert_eq!(err.line(), line);
    }
}

#[test]
fn limits_from_the_movers_view() {
    let go = Go {
        clocks: Some(Clocks {
            time: [Duration::from_secs(10), Duration::from_secs(20)],
            increment: [Duration::from_millis(100), Duration::from_millis(200)],
        }),
        ..Go::default()
    };
    assert_eq!(
        go.limits(Side::North).clock,
        Some(ClockState {
            time: Duration::from_secs(20),
            increment: Duration::from_millis(200),
            opponent_time: Duration::from_secs(10),
            opponent_increment: Duration::from_millis(100),
        })
    );
    // North's own clock decides: 20 s less 50 ms of margin, a quarter of it
    // at most plus three quarters of 200 ms.
    assert_eq!(
        go.limits(Side::North).allot().hard,
        Some(Duration::from_millis(19_950) / 4 + Duration::from_millis(150))
    );
    let fixed = SearchLimits {
        movetime: Some(Duration::from_millis(50)),
        ..go.limits(Side::South)
    };
    assert_eq!(fixed.allot().hard, Some(Duration::from_millis(45)));
    assert_eq!(SearchLimits::default().allot().hard, None);
}

#[test]
fn replay_gives_position_and_history() {
    let game = GameSoFar {
        start: Start::StartPos,
        moves: vec![Move::sow(2).unwrap(), Move::sow(8).unwrap()],
    };
    let (now, history) = game.replay().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0], Position::startpos());
    assert_eq!(history[1].to_string(), "5,1,2,6,6,0/5,5,5,1,5,5 n 2 0");
    assert_eq!(now.side_to_move(), Side::South);
    let bad = GameSoFar {
        start: Start::StartPos,
        moves: vec![Move::sow(2).unwrap(), Move::sow(2).unwrap()],
    };
    let err = bad.replay().unwrap_err();
    assert_eq!(err.index, 1);
}

#[test]
fn an_error_report_is_info_string_error_and_is_cut_at_its_bound() {
    let report = |line: &str| match line.parse::<BotMessage>().unwrap() {
        BotMessage::Info(info) => info.error_report(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        report("info string error  no rules for pit 12 ").as_deref(),
        Some("no rules for pit 12")
    );
    assert_eq!(report("info string error").as_deref(), Some(""));
    assert_eq!(
        report("info depth 3 string error\tbook missing").as_deref(),
        Some("book missing")
    );
    assert_eq!(report("info string errors are fine"), None);
    assert_eq!(report("info string book has no move"), None);
    let long = format!("info string error {}", "é".repeat(1000));
    let cut = report(&long).unwrap();
    assert!(cut.ends_with("...") && cut.len() <= aboure_protocol::ERROR_REPORT_MAX + 3);
    assert!(cut.len() > aboure_protocol::ERROR_REPORT_MAX - 2);
}

#[test]
fn a_choice_option_holds_at_most_max_choices() {
    let line = |n: usize| {
        let vars: String = (0..n).map(|i| format!(" var c{i}")).collect();
        format!("option name style type choice default c0{vars}")
    };
    let most = line(aboure_protocol::MAX_CHOICES).parse::<BotMessage>();
    assert!(
        matches!(&most, Ok(BotMessage::Option(spec)) if matches!(&spec.kind,
            OptionKind::Choice { choices, .. } if choices.len() == aboure_protocol::MAX_CHOICES)),
        "{most:?}"
    );
    let over = line(aboure_protocol::MAX_CHOICES + 1).parse::<BotMessage>();
    let err = over.unwrap_err().to_string();
    assert!(err.contains("more than 64 choices"), "{err}");
}
