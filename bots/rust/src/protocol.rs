//! The aboure protocol (PROTOCOL.md), one line at a time: the handshake,
//! options, positions, `go` with its limits, `stop`, `isready` and `quit`,
//! plus one debug command outside the protocol, `moves POSITION`, which
//! lists every legal move with the position after it (see README.md).
//!
//! The search takes microseconds, so `go` with a limit is answered at once;
//! `go` without limits keeps its answer until `stop`, as the protocol asks,
//! and `isready` is answered meanwhile because this loop keeps reading.

use std::time::Instant;

use crate::rules::{Move, Position, PITS};
use crate::search::{choose, Random};

const NAME: &str = "Rust Sower 1.0";
const AUTHOR: &str = "The aboure authors";
const SEED_MAX: u32 = 2_147_483_647;
const LIMITS: [&str; 7] = [
    "stime", "ntime", "sinc", "ninc", "movetime", "depth", "nodes",
];

/// What the protocol has told the bot so far.
pub struct Bot<W: FnMut(&str)> {
    /// Writes one line and flushes it.
    send: W,
    seed: u32,
    rng: Random,
    position: Position,
    /// The bestmove of a `go` without limits, until `stop`.
    pending: Option<Move>,
}

impl<W: FnMut(&str)> Bot<W> {
    pub fn new(send: W) -> Self {
        Bot {
            send,
            seed: 1,
            rng: Random::new(1),
            position: Position::start(),
            pending: None,
        }
    }

    fn complain(&mut self, text: &str) {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        (self.send)(&format!("info string {text}"));
    }

    /// Acts on one line; `false` on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        let done = match command {
            "quit" => return false,
            "aboure" => {
                self.handshake(args);
                Ok(())
            }
            "isready" => {
                (self.send)("readyok");
                Ok(())
            }
            "setoption" => self.set_option(args),
            "newgame" => {
                self.rng = Random::new(self.seed);
                Ok(())
            }
            "position" => read_position(args).map(|p| self.position = p),
            "go" => {
                self.go(args);
                Ok(())
            }
            "stop" => {
                if let Some(m) = self.pending.take() {
                    (self.send)(&format!("bestmove {m}"));
                }
                Ok(())
            }
            "moves" => {
                self.list_moves(args);
                Ok(())
            }
            _ => Err("unknown command".to_string()),
        };
        if let Err(why) = done {
            self.complain(&format!("ignored {}: {why}", line.trim()));
        }
        true
    }

    fn handshake(&mut self, args: &[&str]) {
        if args != ["1"] {
            self.complain("expected protocol version 1");
        }
        (self.send)(&format!("id name {NAME}"));
        (self.send)(&format!("id author {AUTHOR}"));
        (self.send)(&format!(
            "option name seed type int default 1 min 0 max {SEED_MAX}"
        ));
        (self.send)("aboureok");
    }

    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        // setoption name NAME value VALUE (the value is the rest of the line)
        let ["name", name, "value", value @ ..] = args else {
            return Err("expected setoption name NAME value VALUE".into());
        };
        if *name != "seed" {
            return Err(format!("no option named {name}"));
        }
        match value {
            [v] => match v.parse::<u32>() {
                Ok(n) if n <= SEED_MAX => {
                    self.seed = n;
                    self.rng = Random::new(n);
                    Ok(())
                }
                _ => Err(format!("seed takes a whole number from 0 to {SEED_MAX}")),
            },
            _ => Err(format!("seed takes a whole number from 0 to {SEED_MAX}")),
        }
    }

    fn go(&mut self, args: &[&str]) {
        let mut limited = false;
        for pair in args.chunks(2) {
            match pair {
                [name, value] if LIMITS.contains(name) && value.parse::<u64>().is_ok() => {
                    limited = true
                }
                _ => self.complain(&format!("ignored go limit {}", pair.join(" "))),
            }
        }
        let started = Instant::now();
        let c = choose(&self.position, &mut self.rng);
        let ms = started.elapsed().as_millis();
        (self.send)(&format!(
            "info depth 1 score {} nodes {} time {ms} pv {}",
            c.score, c.nodes, c.mv
        ));
        if limited {
            (self.send)(&format!("bestmove {}", c.mv));
        } else {
            self.pending = Some(c.mv);
        }
    }

    fn list_moves(&mut self, args: &[&str]) {
        match Position::parse(args) {
            Ok(p) => {
                for c in p.legal_moves() {
                    (self.send)(&format!("move {} {}", c.mv, c.position));
                }
            }
            Err(why) => self.complain(&format!("ignored moves: {why}")),
        }
        (self.send)("movesok");
    }
}

/// `startpos [moves ...]` or `set F1 F2 F3 F4 [moves ...]`.
fn read_position(args: &[&str]) -> Result<Position, String> {
    let (mut p, rest) = match args {
        ["startpos", rest @ ..] => (Position::start(), rest),
        ["set", a, b, c, d, rest @ ..] => (Position::parse(&[a, b, c, d])?, rest),
        _ => return Err("expected startpos or set and a position".into()),
    };
    let moves = match rest {
        [] => &[][..],
        ["moves", moves @ ..] => moves,
        [other, ..] => return Err(format!("expected moves, found {other}")),
    };
    for &m in moves {
        if m == "pass" {
            p = p.passed(); // taken on trust: the arbiter plays only forced passes
            continue;
        }
        let pit = m
            .parse::<usize>()
            .ok()
            .filter(|&n| n < PITS && n.to_string() == m);
        match pit.and_then(|pit| p.child(pit)) {
            Some(c) => p = c.position,
            None => return Err(format!("move {m} is not legal in {p}")),
        }
    }
    Ok(p)
}
