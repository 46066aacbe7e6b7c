//! `aboure solve`: the exact value of a position and of each of its moves.

use std::process::ExitCode;
use std::time::Instant;

use aboure_engine::Position;
use aboure_solver::Solver;

/// Solve a position exactly: its value (the final seed margin for the side
/// to move, counting seeds still on the board) and the value of every move.
#[derive(clap::Args)]
pub struct Args {
    /// The position to solve (RULES.md notation, or `startpos`).
    #[arg(long, default_value = "startpos")]
    position: Position,
    /// Size of the transposition table in megabytes.
    #[arg(long, default_value_t = 16)]
    table_mb: usize,
    /// Give up after this many nodes (exit status 1).
    #[arg(long)]
    max_nodes: Option<u64>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut solver = Solver::new(args.table_mb);
    let start = Instant::now();
    let budget = args.max_nodes.unwrap_or(u64::MAX);
    let solved = solver
        .value_within(&args.position, budget)
        .and_then(|value| {
            let left = budget.saturating_sub(solver.nodes());
            Some((value, solver.move_values_within(&args.position, left)?))
        });
    let elapsed = start.elapsed();
    let Some((value, moves)) = solved else {
        println!(
            "unsolved within {budget} nodes ({:.3}s)",
            elapsed.as_secs_f64()
        );
        return Ok(ExitCode::from(1));
    };
    println!("value {value}");
    for (m, v) in moves {
        println!("move {m} {v}");
    }
    let nodes = solver.nodes();
    println!(
        "time {:.3}s nodes {nodes} nps {:.0}",
        elapsed.as_secs_f64(),
        nodes as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}
