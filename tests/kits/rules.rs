//! The differential test of a kit's rules against the engine's: positions
//! from random games (forced passes and finished games included) and
//! positions with endless sowings, sent to the kit as `moves POSITION` lines
//! (see `bots/README.md`); every answer must list exactly the engine's legal
//! moves, in pit order, each with the engine's position after it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use aboure_engine::{Move, Position, Side};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// The positions to compare on, with how many of each kind they hold.
pub struct Cases {
    pub positions: Vec<Position>,
    pub endless: usize,
    pub passes: usize,
    pub finished: usize,
    /// Positions where the mover can sow a lap of 12 or more seeds.
    pub laps: usize,
}

/// A position from 48 seed placements, all but `off` of them on the board
/// (endless sowings live on full boards: about one in five thousand random
/// full boards has one), the first `heap` of them in one pit.
fn random_position(rng: &mut SmallRng, off: usize, heap: usize) -> Position {
    let mut pits = [0u8; 12];
    let mut captured = [0u8; 2];
    let big = rng.gen_range(0..12);
    for i in 0..48 {
        if i < heap {
            pits[big] += 1;
        } else if i < heap + off {
            captured[rng.gen_range(0..2)] += 1;
        } else {
            pits[rng.gen_range(0..12)] += 1;
        }
    }
    let side = if rng.gen() { Side::North } else { Side::South };
    Position::new(pits, side, captured).unwrap()
}

fn has_endless_sowing(p: &Position) -> bool {
    let first = p.side_to_move().index() * 6;
    (first..first + 6).any(|i| p.seeds(i) >= 2 && !p.is_legal(Move::sow(i).unwrap()))
}

/// Every position of `games` random games (half from the start, half from
/// random set-ups, some with a pit big enough to sow round the board), and
/// `endless` positions with an endless sowing.
pub fn cases(seed: u64, games: usize, endless: usize) -> Cases {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    for game in 0..games {
        let mut p = if game % 2 == 0 {
            Position::startpos()
        } else {
            let off = rng.gen_range(0..30);
            let heap = if game % 4 == 1 {
                rng.gen_range(12..18)
            } else {
                0
            };
            random_position(&mut rng, off, heap)
        };
        loop {
            positions.push(p);
            let legal = p.legal_moves();
            let Some(&m) = legal.choose(&mut rng) else {
                break;
            };
            p.play(m).unwrap();
        }
    }
    let mut found = 0;
    for _ in 0..5_000_000 {
        if found == endless {
            break;
        }
        let p = random_position(&mut rng, 0, 0);
        if has_endless_sowing(&p) {
            positions.push(p);
            found += 1;
        }
    }
    // A side whose only sowing is endless passes (RULES.md).
    positions.push("1,0,1,0,8,1/5,6,5,4,5,6 s 3 3".parse().unwrap());
    let count = |f: &dyn Fn(&Position) -> bool| positions.iter().filter(|p| f(p)).count();
    Cases {
        endless: count(&has_endless_sowing),
        passes: count(&|p| p.legal_moves().as_slice() == [Move::Pass]),
        finished: count(&Position::is_game_over),
        laps: count(&|p| {
            let first = p.side_to_move().index() * 6;
            (first..first + 6).any(|i| p.seeds(i) >= 12)
        }),
        positions,
    }
}

/// The answer the engine gives for `moves p`, without the final `movesok`.
pub fn expected(p: &Position) -> Vec<String> {
    p.legal_moves()
        .iter()
        .map(|&m| format!("move {m} {}", p.after(m).unwrap()))
        .collect()
}

/// Longer than any kit needs on a loaded machine (the slowest, Python, takes
/// a few seconds); only a kit that hangs reaches it, and is then killed.
const HANG: Duration = Duration::from_secs(120);

/// Sends `moves P` for every position to the kit's `command` and returns
/// its answers, one list of lines per position. Input is written on its own
/// thread, so neither side of the pipes can fill up and stall.
pub fn answers(command: &[String], positions: &[Position]) -> Vec<Vec<String>> {
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("start {command:?}: {e}"));
    let (finished, watched) = channel::<()>();
    let pid = child.id() as libc::pid_t;
    let watchdog = std::thread::spawn(move || {
        let hung = watched.recv_timeout(HANG).is_err();
        if hung {
            // SAFETY: a plain kill of our own child, not reaped yet: the
            // reader waits for this thread before it calls `wait`.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        hung
    });
    let mut stdin = child.stdin.take().unwrap();
    let input: String = positions
        .iter()
        .map(|p| format!("moves {p}\n"))
        .chain(["quit\n".to_string()])
        .collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let mut answers = vec![Vec::new()];
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if line == "movesok" {
            answers.push(Vec::new());
        } else {
            answers.last_mut().unwrap().push(line);
        }
    }
    let _ = finished.send(());
    let hung = watchdog.join().unwrap();
    assert!(!hung, "{command:?} did not answer within {HANG:?}");
    writer.join().unwrap().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{command:?} exited with {status}");
    let rest = answers.pop().unwrap();
    assert!(
        rest.is_empty(),
        "{command:?} wrote after its last movesok: {rest:?}"
    );
    answers
}
