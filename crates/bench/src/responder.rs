//! The bots `aboure bench arbiter` and `aboure bench fairness` measure the
//! arbiter with, built into the `aboure` binary (`aboure bench responder
//! MODE`), so the benchmarks need nothing but the product: an instant bot
//! that plays the first legal move and reports the time it took itself
//! (`info string self_us N`), an echo that answers every line with itself
//! (a bare pipe round trip), a bot that does a fixed amount of work per
//! move (so that its time per move shows the CPU it was given), and a hog
//! that burns every core it can all the time ([`burn`]), to be played
//! against it.
//!
//! Blocking I/O on purpose: it is a whole process of its own, and the
//! fewer layers between the pipe and the answer, the less it adds to what
//! is measured.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use aboure_engine::Position;
use aboure_protocol::{ArbiterMessage, BotMessage};

/// What the responder does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Responder {
    /// Speaks the protocol and plays the first legal move at once.
    Instant,
    /// Writes back every line it reads.
    Echo,
    /// Burns this much CPU time (its own thread's) before each answer.
    Work(Duration),
    /// Sleeps this long before each answer (while [`burn`]'s threads
    /// spin: the hog).
    Sleep(Duration),
}

/// Burns CPU without end on `threads` threads of this process and in one
/// child process (`aboure bench responder spin`, if `spin` is given), so
/// that a hog's CPU is spread over threads and processes, as a real one's
/// would be.
pub fn burn(threads: u32, spin: Option<std::process::Command>) -> Option<std::process::Child> {
    for _ in 0..threads {
        std::thread::spawn(spin_forever);
    }
    spin.and_then(|mut c| c.spawn().ok())
}

/// Burns one core for ever.
pub fn spin_forever() -> ! {
    let mut x = 0u64;
    loop {
        x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
    }
}

/// The CPU time this thread has used.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `t` is.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Spins until this thread has used `cpu` more CPU time.
fn work(cpu: Duration) {
    let until = thread_cpu() + cpu;
    let mut x = 0u64;
    while thread_cpu() < until {
        for _ in 0..1000 {
            x = std::hint::black_box(x.wrapping_add(1));
        }
    }
}

/// Runs `responder` until the end of `input` (or `quit`).
pub fn respond(
    responder: Responder,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut position = Position::startpos();
    for line in input.lines() {
        let line = line?;
        let received = Instant::now();
        if responder == Responder::Echo {
            writeln!(output, "{line}")?;
            output.flush()?;
            continue;
        }
        match line.parse::<ArbiterMessage>() {
            Ok(ArbiterMessage::Aboure { .. }) => {
                writeln!(output, "id name instant\nid author aboure\naboureok")?;
            }
            Ok(ArbiterMessage::IsReady) => writeln!(output, "readyok")?,
            Ok(ArbiterMessage::Position(game)) => {
                if let Ok((reached, _)) = game.replay() {
                    position = reached;
                }
            }
            Ok(ArbiterMessage::Go(_)) => {
                let Some(&mv) = position.legal_moves().iter().next() else {
                    continue;
                };
                match responder {
                    Responder::Work(cpu) => work(cpu),
                    Responder::Sleep(t) => std::thread::sleep(t),
                    Responder::Instant | Responder::Echo => {}
                }
                let us = received.elapsed().as_micros();
                writeln!(output, "info depth 1 nodes 1 string self_us {us}")?;
                writeln!(output, "{}", BotMessage::BestMove(mv))?;
            }
            Ok(ArbiterMessage::Quit) => break,
            _ => continue,
        }
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(responder: Responder, input: &str) -> String {
        let mut out = Vec::new();
        respond(responder, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_instant_bot_plays_the_first_legal_move_and_times_itself() {
        let out = run(
            Responder::Instant,
            "aboure 1\nisready\nposition startpos moves 0\ngo\nquit\ngo\n",
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[..4],
            ["id name instant", "id author aboure", "aboureok", "readyok"]
        );
        assert!(
            lines[4].starts_with("info depth 1 nodes 1 string self_us "),
            "{out}"
        );
        let after = Position::startpos().after("0".parse().unwrap()).unwrap();
        let first = after.legal_moves().iter().next().copied().unwrap();
        assert_eq!(lines[5], format!("bestmove {first}"));
        assert_eq!(lines.len(), 6, "nothing after quit");
    }

    #[test]
    fn the_worker_spends_its_cpu_time_before_it_answers() {
        let t0 = thread_cpu();
        let out = run(
            Responder::Work(Duration::from_millis(30)),
            "aboure 1\nposition startpos\ngo\n",
        );
        assert!(thread_cpu() - t0 >= Duration::from_millis(30));
        assert!(out.ends_with("bestmove 0\n"), "{out}");
    }

    #[test]
    fn the_echo_answers_every_line_with_itself() {
        assert_eq!(run(Responder::Echo, "go stime 1\nx\n"), "go stime 1\nx\n");
    }
}
