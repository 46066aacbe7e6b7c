//! Every built-in bot through the protocol loop, on in-memory streams: the
//! handshake declares its options, and each `go` gets one legal `bestmove`.

use std::io::Cursor;

use aboure_bots::{builtin, BUILTIN};
use aboure_engine::{Move, Position};
use aboure_protocol::serve;

fn run(name: &str, script: &str) -> String {
    let mut out = Vec::new();
    serve(
        builtin(name).unwrap(),
        Cursor::new(script.to_owned()),
        &mut out,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// The moves a session answered, checked against the protocol's shape.
fn answers(name: &str, out: &str) -> Vec<Move> {
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("id name aboure "), "{name}: {out}");
    assert!(lines.contains(&"aboureok"), "{name}: {out}");
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|m| m.parse().unwrap())
        .collect()
}

#[test]
fn every_bot_speaks_the_protocol() {
    // The input ends after `go`: the loop stops the search and waits for
    // its answer (a real arbiter waits for `bestmove` before going on).
    let opening = "aboure 1\n\
                   setoption name seed value 5\n\
                   isready\n\
                   newgame\n\
                   position startpos moves 2 8\n\
                   go movetime 30\n";
    let endgame = "aboure 1\n\
                   position set 0,0,0,0,3,2/1,1,3,3,3,4 s 14 14\n\
                   go depth 3\n";
    let first = Position::startpos().after(Move::sow(2).unwrap()).unwrap();
    let first = first.after(Move::sow(8).unwrap()).unwrap();
    let second: Position = "0,0,0,0,3,2/1,1,3,3,3,4 s 14 14".parse().unwrap();
    for name in BUILTIN {
        for (script, pos) in [(opening, first), (endgame, second)] {
            let out = run(name, script);
            let best = answers(name, &out);
            assert_eq!(best.len(), 1, "{name}: {out}");
            assert!(pos.is_legal(best[0]), "{name}: {out}");
        }
    }
}

#[test]
fn go_until_stop_answers_on_stop() {
    for name in BUILTIN {
        let out = run(name, "aboure 1\nposition startpos\ngo\nstop\nquit\n");
        let n = out.lines().filter(|l| l.starts_with("bestmove ")).count();
        assert_eq!(n, 1, "{name}: {out}");
    }
}
