//! The bot-side loop: whatever lines arrive, it writes only well-formed
//! protocol lines, answers each `go` with at most one legal `bestmove`, and
//! returns without an I/O error (the streams are in memory).

use std::io::Cursor;

use aboure_engine::{Move, Position};
use aboure_protocol::{
    serve, ArbiterMessage, BotMessage, OptionKind, OptionSpec, Player, Search, SearchLimits,
};

/// Plays the first legal move; declares one option of each kind so that
/// `setoption` is checked against all of them.
struct First;

impl Player for First {
    fn name(&self) -> String {
        "First".into()
    }

    fn author(&self) -> String {
        "aboure fuzz".into()
    }

    fn options(&self) -> Vec<OptionSpec> {
        let spec = |name: &str, kind| OptionSpec {
            name: name.into(),
            kind,
        };
        vec![
            spec(
                "depth",
                OptionKind::Int {
                    default: 3,
                    min: -5,
                    max: 9,
                },
            ),
            spec("fast", OptionKind::Bool { default: false }),
            spec(
                "book",
                OptionKind::String {
                    default: String::new(),
                },
            ),
            spec(
                "style",
                OptionKind::Choice {
                    default: "calm".into(),
                    choices: vec!["calm".into(), "wild".into()],
                },
            ),
        ]
    }

    fn set_option(&mut self, _: &str, _: &str) -> Result<(), aboure_protocol::SetOptionError> {
        Ok(())
    }

    fn choose(
        &mut self,
        p: &Position,
        _: &[Position],
        _: &SearchLimits,
        _: &mut dyn Search,
    ) -> Move {
        p.legal_moves()[0]
    }
}

/// Feeds `data` to the loop as the arbiter's lines and checks what it wrote.
pub fn check(data: &[u8]) {
    let mut out = Vec::new();
    serve(First, Cursor::new(data), &mut out)
        .unwrap_or_else(|e| panic!("serve failed on in-memory streams: {e}"));
    // The `go` lines the loop acted on: those before the first `quit`.
    let mut gos = 0;
    for line in data.split(|&b| b == b'\n') {
        match String::from_utf8_lossy(line).parse::<ArbiterMessage>() {
            Ok(ArbiterMessage::Quit) => break,
            Ok(ArbiterMessage::Go(_)) => gos += 1,
            _ => {}
        }
    }
    let out = String::from_utf8(out).expect("the loop wrote bytes that are not UTF-8");
    assert!(
        out.is_empty() || out.ends_with('\n'),
        "unfinished line: {out:?}"
    );
    let mut bestmoves = 0;
    for line in out.lines() {
        let msg = line.parse::<BotMessage>();
        assert!(
            matches!(msg, Ok(ref m) if !matches!(m, BotMessage::Unknown(_))),
            "not a protocol line: {line:?}"
        );
        if matches!(msg, Ok(BotMessage::BestMove(_))) {
            bestmoves += 1;
        }
    }
    assert!(
        bestmoves <= gos,
        "{bestmoves} bestmoves for {gos} go lines:\n{out}"
    );
}
