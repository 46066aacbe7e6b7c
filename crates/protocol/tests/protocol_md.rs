//! PROTOCOL.md stays true: every message in its examples parses, prints back
//! to the same line, and in the example sessions every position replays and
//! every `bestmove` and `pv` is legal.

use aboure_engine::Position;
use aboure_protocol::{ArbiterMessage, BotMessage};

const KEYWORDS: [&str; 14] = [
    "aboure",
    "setoption",
    "isready",
    "newgame",
    "position",
    "go",
    "stop",
    "quit",
    "id",
    "option",
    "aboureok",
    "readyok",
    "info",
    "bestmove",
];

fn code_blocks(text: &str) -> Vec<Vec<&str>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some(Vec::new()),
            }
        } else if let Some(block) = current.as_mut() {
            block.push(line);
        }
    }
    blocks
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

#[test]
fn every_example_is_a_valid_message() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../PROTOCOL.md");
    let text = std::fs::read_to_string(path).expect("PROTOCOL.md at the top level");
    let (mut messages, mut sessions) = (0, 0);
    for block in code_blocks(&text) {
        let Some(first) = block.first() else { continue };
        let session = first.starts_with("> ") || first.starts_with("< ");
        if !session && !KEYWORDS.contains(&first_word(first)) || first.contains("check-bot") {
            continue;
        }
        sessions += session as usize;
        let mut position = Position::startpos();
        for raw in block {
            let (dir, line) = if raw.trim() == "..." {
                continue;
            } else if !session {
                (' ', raw)
            } else if let Some(rest) = raw.strip_prefix("> ") {
                ('>', rest)
            } else if let Some(rest) = raw.strip_prefix("< ") {
                ('<', rest)
            } else {
                panic!("session line without direction: {raw}")
            };
            messages += 1;
            let arbiter = line.parse::<ArbiterMessage>();
            let as_arbiter =
                matches!(arbiter, Ok(ref m) if !matches!(m, ArbiterMessage::Unknown(_)));
            if dir == '>' || (dir == ' ' && as_arbiter) {
                let msg = arbiter.unwrap_or_else(|e| panic!("{e}"));
                assert!(
                    !matches!(msg, ArbiterMessage::Unknown(_)),
                    "unknown: {line}"
                );
                assert_eq!(msg.to_string(), line);
                if let ArbiterMessage::Position(game) = msg {
                    position = game.replay().unwrap_or_else(|e| panic!("{line}: {e}")).0;
                }
                continue;
            }
            let msg = line.parse::<BotMessage>().unwrap_or_else(|e| panic!("{e}"));
            if let (BotMessage::Unknown(_), Err(e)) = (&msg, arbiter) {
                panic!("{e}");
            }
            assert!(!matches!(msg, BotMessage::Unknown(_)), "unknown: {line}");
            assert_eq!(msg.to_string(), line);
            if session {
                match msg {
                    BotMessage::BestMove(m) => {
                        assert!(position.is_legal(m), "{line} in {position}")
                    }
                    BotMessage::Info(info) => {
                        let mut p = position;
                        for m in info.pv {
                            p.play(m).unwrap_or_else(|e| panic!("{line}: {e}"));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(sessions >= 3, "{sessions} example sessions");
    assert!(messages >= 60, "{messages} example messages");
}
