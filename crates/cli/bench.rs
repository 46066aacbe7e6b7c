//! `aboure bench`: speed figures for the README.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use aboure_engine::{playout, Position};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// Measure the speed of a part of aboure.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Random playouts from the start on one thread.
    Engine {
        /// How long to run.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
    },
    /// Arbiter overhead per move against a bare pipe round trip.
    Arbiter,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.what {
        What::Engine { seconds } => engine(Duration::from_secs_f64(seconds)),
        What::Arbiter => crate::bench_arbiter::run()?,
    }
    Ok(ExitCode::SUCCESS)
}

fn engine(budget: Duration) {
    let start = Position::startpos();
    let mut rng = SmallRng::seed_from_u64(0x5eed);
    let (mut games, mut plies) = (0u64, 0u64);
    let t0 = Instant::now();
    // Check the clock every batch, not every game, so timing costs nothing.
    while t0.elapsed() < budget {
        for _ in 0..10_000 {
            plies += playout(&start, &mut rng).plies as u64;
        }
        games += 10_000;
    }
    let secs = t0.elapsed().as_secs_f64();
    println!("playouts {games} in {secs:.2}s");
    println!("playouts/s {:.0}", games as f64 / secs);
    println!("moves/s {:.0}", plies as f64 / secs);
    println!("plies/playout {:.1}", plies as f64 / games as f64);
}
