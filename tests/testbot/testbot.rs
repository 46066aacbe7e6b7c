//! A bot that misbehaves on purpose, for the end-to-end tests of `aboure
//! run` and for `aboure bench arbiter`. It speaks the protocol honestly
//! (random legal moves) except in the way its mode asks:
//!
//! ```text
//! aboure-testbot [MODE] [--at N] [--ms MS] [--seed S]
//!   random        honest random mover (the default)
//!   instant       first legal move at once, reporting its own measured time
//!   echo          echoes every input line (a bare pipe round trip)
//!   hang          never answers its N-th go (default N = 1)
//!   crash         says so on stderr and exits with status 3 at its N-th go
//!   illegal       answers an illegal move at its N-th go
//!   garbage       prints junk lines before every answer (but moves legally)
//!   badmove       answers `bestmove banana` at its N-th go
//!   slow          sleeps MS milliseconds before answering its N-th go
//!   sleepy        sleeps MS milliseconds before every answer (moves randomly)
//!   busy          computes for MS milliseconds before every answer (moves
//!                 randomly)
//!   nohandshake   never sends aboureok
//!   slowstart     sleeps MS milliseconds before its aboureok (moves randomly)
//!   twice         answers its N-th go twice
//!   longline      prints a line of 1 MB without a newline at its N-th go
//!   orphan        starts a child `sleep 31415` at start-up, then hangs at go N
//!   hog           allocates and touches MS mebibytes at its N-th go
//!   chatty        sends an `info` with a 10,000-move pv and a 30 KB string
//!                 before every answer (moves randomly)
//!   options       declares N string options with defaults of MS bytes
//!   flood         prints short `info` lines as fast as its output takes
//!                 them for MS milliseconds before every answer (moves
//!                 randomly)
//!   stall         sleeps MS milliseconds before the `readyok` that follows
//!                 each of its answers (thinking while the arbiter waits)
//!   slownew       sleeps MS milliseconds before the `readyok` that follows
//!                 each `newgame` (thinking before the game's first move)
//! ```
//! N counts `go` messages over the life of the process.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use aboure_engine::{Move, Position};

struct Args {
    mode: String,
    at: u64,
    ms: u64,
    seed: u64,
}

fn args() -> Args {
    let mut a = Args {
        mode: "random".to_owned(),
        at: 1,
        ms: 0,
        seed: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let num = |it: &mut dyn Iterator<Item = String>| {
            it.next().and_then(|v| v.parse().ok()).unwrap_or(0)
        };
        match arg.as_str() {
            "--at" => a.at = num(&mut it),
            "--ms" => a.ms = num(&mut it),
            "--seed" => a.seed = num(&mut it),
            mode => a.mode = mode.to_owned(),
        }
    }
    a
}

/// A tiny xorshift: no dependency, reproducible.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn position(line: &str) -> Option<Position> {
    let rest = line.strip_prefix("position")?.trim();
    let (start, moves) = match rest.split_once("moves") {
        Some((s, m)) => (s.trim(), m.trim()),
        None => (rest, ""),
    };
    let mut pos = match start.strip_prefix("set") {
        Some(p) => p.trim().parse().ok()?,
        None => Position::startpos(),
    };
    for m in moves.split_whitespace() {
        pos.play(m.parse::<Move>().ok()?).ok()?;
    }
    Some(pos)
}

fn main() {
    let args = args();
    let mut rng = Rng(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut pos = Position::startpos();
    let mut gos = 0u64;
    let mut orphan = None;
    if args.mode == "orphan" {
        orphan = std::process::Command::new("sleep")
            .arg("31415")
            .spawn()
            .ok();
    }
    let mut answered = false;
    let mut new_game = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let received = Instant::now();
        let line = line.trim();
        if args.mode == "echo" {
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
            continue;
        }
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "aboure" => {
                if args.mode == "nohandshake" {
                    continue;
                }
                let _ = writeln!(out, "id name testbot {}", args.mode);
                let _ = writeln!(out, "id author aboure tests");
                if args.mode == "options" {
                    let default = "d".repeat(args.ms as usize);
                    for i in 0..args.at {
                        let _ = writeln!(out, "option name o{i} type string default {default}");
                    }
                }
                if args.mode == "slowstart" {
                    std::thread::sleep(Duration::from_millis(args.ms));
                }
                let _ = writeln!(out, "aboureok");
            }
            "isready" if args.mode != "nohandshake" => {
                if args.mode == "stall" && std::mem::take(&mut answered) {
                    std::thread::sleep(Duration::from_millis(args.ms));
                }
                if args.mode == "slownew" && std::mem::take(&mut new_game) {
                    std::thread::sleep(Duration::from_millis(args.ms));
                }
                let _ = writeln!(out, "readyok");
            }
            "position" => match position(line) {
                Some(p) => pos = p,
                None => eprintln!("testbot: cannot read {line:?}"),
            },
            "go" => {
                gos += 1;
                let here = gos == args.at;
                let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if legal.is_empty() {
                    eprintln!("testbot: asked to move in a finished game");
                    continue;
                }
                let mut mv = if args.mode == "instant" {
                    legal[0]
                } else {
                    legal[rng.below(legal.len())]
                };
                match args.mode.as_str() {
                    "hang" | "orphan" if here => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    "crash" if here => {
                        let _ = out.flush();
                        eprintln!("testbot: crashing on purpose at go {gos}");
                        std::process::exit(3);
                    }
                    "illegal" if here => {
                        // A pit of the opponent's row is never legal.
                        let theirs = if pos.side_to_move() == aboure_engine::Side::South {
                            7
                        } else {
                            1
                        };
                        mv = Move::sow(theirs).unwrap_or(mv);
                    }
                    "badmove" if here => {
                        let _ = writeln!(out, "bestmove banana");
                        let _ = out.flush();
                        continue;
                    }
                    "garbage" => {
                        let _ = writeln!(out, "\u{1}\u{7f} ¿qué? bestmovex 3 ready okay");
                        let _ = writeln!(out, "info depth many");
                        let _ = writeln!(out, "   ");
                    }
                    "slow" if here => std::thread::sleep(Duration::from_millis(args.ms)),
                    "hog" if here => {
                        // Under a memory limit the allocation fails and the
                        // process aborts, as native programs do.
                        let mut hoard = vec![0u8; (args.ms as usize) << 20];
                        for page in hoard.iter_mut().step_by(4096) {
                            *page = 1;
                        }
                        std::hint::black_box(&hoard);
                    }
                    "sleepy" => std::thread::sleep(Duration::from_millis(args.ms)),
                    "busy" => busy(Duration::from_millis(args.ms)),
                    "chatty" => {
                        let pv = format!("{mv} ").repeat(10_000);
                        let text = "s".repeat(30_000);
                        let _ = writeln!(out, "info depth 1 pv {pv}string {text}");
                    }
                    "flood" => flood(&mut out, Duration::from_millis(args.ms)),
                    "longline" if here => {
                        let junk = vec![b'x'; 1 << 20];
                        let _ = out.write_all(&junk);
                        let _ = out.flush();
                        continue;
                    }
                    _ => {}
                }
                if args.mode == "instant" {
                    let us = received.elapsed().as_micros();
                    let _ = writeln!(out, "info depth 1 nodes 1 string self_us {us}");
                }
                if args.mode == "twice" && here {
                    // One write, so both answers arrive together.
                    let _ = write!(out, "bestmove {mv}\nbestmove {mv}\n");
                } else {
                    let _ = writeln!(out, "bestmove {mv}");
                }
                answered = true;
            }
            "newgame" => new_game = true,
            "quit" => break,
            _ => {}
        }
        let _ = out.flush();
    }
    if let Some(mut child) = orphan {
        let _ = child.kill();
    }
}

/// Short `info` lines, written in large chunks for `time` (a bot that
/// reports every node it searches).
fn flood(out: &mut impl Write, time: Duration) {
    let mut chunk = String::new();
    let mut n = 0u64;
    while chunk.len() < 64 * 1024 {
        n += 1;
        chunk.push_str(&format!("info depth 1 nodes {n} score cp 0\n"));
    }
    let start = Instant::now();
    while start.elapsed() < time {
        if out.write_all(chunk.as_bytes()).is_err() {
            return;
        }
    }
}

/// Computes until `time` has passed.
fn busy(time: Duration) {
    let start = Instant::now();
    let mut x = 1u64;
    while start.elapsed() < time {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}
