//! Every built-in bot through the protocol loop, on in-memory streams: the
//! handshake declares its options, and each `go` gets one legal `bestmove`.

use std::io::{BufReader, Cursor, Read, Write};
use std::sync::{Arc, Condvar, Mutex};

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

/// Whether a session has answered a `go`, and the wake-up of whoever waits.
type Answered = Arc<(Mutex<bool>, Condvar)>;

/// A script whose end comes only after the session's first `bestmove`:
/// the end of input stops a search, so a fixed-depth search is read whole
/// only when the input waits for its answer, as an arbiter does.
struct UntilAnswered(Cursor<Vec<u8>>, Answered);

impl Read for UntilAnswered {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        if n == 0 {
            let (done, wake) = &*self.1;
            let _answered = wake.wait_while(done.lock().unwrap(), |d| !*d).unwrap();
        }
        Ok(n)
    }
}

/// The session's output, telling [`UntilAnswered`] when a `bestmove` came.
struct Recorder(Arc<Mutex<Vec<u8>>>, Answered);

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut out = self.0.lock().unwrap();
        out.extend_from_slice(buf);
        if out.windows(9).any(|w| w == b"bestmove ") {
            *self.1 .0.lock().unwrap() = true;
            self.1 .1.notify_all();
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// [`run`], but the input ends only after the first `bestmove`.
fn run_to_the_answer(name: &str, script: &str) -> String {
    let answered: Answered = Arc::default();
    let out = Arc::new(Mutex::new(Vec::new()));
    let input = UntilAnswered(Cursor::new(script.as_bytes().to_vec()), answered.clone());
    let output = Recorder(out.clone(), answered);
    serve(builtin(name).unwrap(), BufReader::new(input), output).unwrap();
    let bytes = out.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
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

/// The handshake of `name`, its `option` lines only.
fn declared_options(name: &str) -> Vec<String> {
    run(name, "aboure 1\nisready\n")
        .lines()
        .filter(|l| l.starts_with("option "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_tunable_parameters_are_declared_with_their_built_in_values() {
    let alphabeta = declared_options("alphabeta");
    for line in [
        "option name quiescence_plies type int default 6 min 0 max 32",
        "option name row_weight type int default 50 min -1000 max 1000",
        "option name mobility_weight type int default 0 min -1000 max 1000",
        "option name targets_weight type int default 0 min -1000 max 1000",
        "option name empty_weight type int default 0 min -1000 max 1000",
    ] {
        assert!(
            alphabeta.iter().any(|l| l == line),
            "{line} not in {alphabeta:#?}"
        );
    }
    let mcts = declared_options("mcts");
    for line in [
        "option name exploration type float default 0.5 min 0 max 10",
        "option name margin_share type int default 60 min 0 max 100",
        "option name expand_after type int default 1 min 0 max 1000",
    ] {
        assert!(mcts.iter().any(|l| l == line), "{line} not in {mcts:#?}");
    }
}

/// The `bestmove` and the last `info`'s score and node count of `name`
/// after `options`, searching a middle-game position to a fixed depth.
fn searched(name: &str, options: &[(&str, &str)]) -> Vec<String> {
    let mut script = String::from("aboure 1\nsetoption name seed value 3\n");
    for (option, value) in options {
        script += &format!("setoption name {option} value {value}\n");
    }
    script += "isready\nposition set 3,4,0,5,1,2/4,0,2,6,1,3 s 8 9\ngo depth 5\n";
    // alphabeta's fixed-depth search is read whole; mcts takes no depth.
    let out = if name == "alphabeta" {
        run_to_the_answer(name, &script)
    } else {
        run(name, &script)
    };
    let info = out
        .lines()
        .rev()
        .find(|l| l.starts_with("info "))
        .unwrap_or_default();
    let words: Vec<&str> = info.split_whitespace().collect();
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .map(|i| words[i + 1].to_owned())
    };
    let best = out
        .lines()
        .find(|l| l.starts_with("bestmove "))
        .map(str::to_owned);
    vec![best, after("score"), after("nodes")]
        .into_iter()
        .flatten()
        .collect()
}

#[test]
fn the_defaults_change_nothing_and_other_values_change_the_search() {
    let defaults = [
        ("quiescence_plies", "6"),
        ("row_weight", "50"),
        ("mobility_weight", "0"),
        ("targets_weight", "0"),
        ("empty_weight", "0"),
    ];
    let plain = searched("alphabeta", &[]);
    assert_eq!(plain.len(), 3, "{plain:?}");
    assert_eq!(searched("alphabeta", &defaults), plain);
    assert_ne!(searched("alphabeta", &[("row_weight", "-50")]), plain);
    assert_ne!(searched("alphabeta", &[("quiescence_plies", "0")]), plain);
    assert_ne!(searched("alphabeta", &[("empty_weight", "200")]), plain);
    let plain = searched("mcts", &[]);
    assert_eq!(plain.len(), 3, "{plain:?}");
    let defaults = [
        ("exploration", "0.5"),
        ("margin_share", "60"),
        ("expand_after", "1"),
    ];
    assert_eq!(searched("mcts", &defaults), plain);
    assert_ne!(searched("mcts", &[("exploration", "4")]), plain);
    assert_ne!(searched("mcts", &[("exploration", "0.123")]), plain);
    assert_ne!(searched("mcts", &[("expand_after", "20")]), plain);
}
