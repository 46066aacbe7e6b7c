//! `aboure perft`: move-generation counts, one line per depth.

use std::process::ExitCode;

use aboure_engine::{perft, Position};

/// Count the nodes at each depth from 1 to DEPTH.
#[derive(clap::Args)]
pub struct Args {
    /// The deepest depth to count.
    depth: u32,
    /// The position to count from (RULES.md notation, or `startpos`).
    #[arg(long, default_value = "startpos")]
    position: Position,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    for d in 1..=args.depth {
        println!("perft {d} {}", perft(&args.position, d));
    }
    Ok(ExitCode::SUCCESS)
}
