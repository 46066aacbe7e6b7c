//! The bots `aboure bench arbiter` measures the arbiter with, built into the
//! `aboure` binary (`aboure bench responder MODE`), so the benchmark needs
//! nothing but the product: an instant bot that plays the first legal move
//! and reports the time it took itself (`info string self_us N`), and an
//! echo that answers every line with itself (a bare pipe round trip).
//!
//! Blocking I/O on purpose: it is a whole process of its own, and the
//! fewer layers between the pipe and the answer, the less it adds to what
//! is measured.

use std::io::{BufRead, Write};
use std::time::Instant;

use aboure_engine::Position;
use aboure_protocol::{ArbiterMessage, BotMessage};

/// What the responder does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Responder {
    /// Speaks the protocol and plays the first legal move at once.
    Instant,
    /// Writes back every line it reads.
    Echo,
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
    fn the_echo_answers_every_line_with_itself() {
        assert_eq!(run(Responder::Echo, "go stime 1\nx\n"), "go stime 1\nx\n");
    }
}
