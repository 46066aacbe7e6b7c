//! `aboure apply`: plays moves and prints every position reached.

use std::process::ExitCode;

use aboure_engine::{Move, Position};
use anyhow::bail;

/// Play MOVE... from a position, printing the position after each move.
#[derive(clap::Args)]
pub struct Args {
    /// The position to start from (RULES.md notation, or `startpos`).
    #[arg(long, default_value = "startpos")]
    position: Position,
    /// Moves: pit numbers 0..11, or `pass` for a forced pass.
    #[arg(required = true, allow_hyphen_values = true)]
    moves: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut pos = args.position;
    for (i, text) in args.moves.iter().enumerate() {
        let mv: Move = match text.parse() {
            Ok(mv) => mv,
            Err(e) => bail!("move {} of {}: {e}", i + 1, args.moves.len()),
        };
        if let Err(e) = pos.play(mv) {
            bail!("move {} of {} from {pos}: {e}", i + 1, args.moves.len());
        }
        println!("{pos}");
    }
    Ok(ExitCode::SUCCESS)
}
