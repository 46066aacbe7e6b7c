//! `aboure bench`: speed figures for the README.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use aboure_arbiter::responder::Responder;
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
    /// One of the bots `bench arbiter` runs, on stdin/stdout.
    #[command(hide = true)]
    Responder {
        /// `instant` (plays the first legal move at once), `echo`, `work`
        /// (spends `--ms` of CPU time on each move), `hog` (answers after
        /// `--ms`, with `--threads` threads and a child process burning CPU
        /// all the time) or `spin` (burns CPU, the hog's child).
        mode: Mode,
        /// Milliseconds of work (`work`) or of sleep (`hog`) per move.
        #[arg(long, default_value_t = 0)]
        ms: u64,
        /// The hog's spinning threads.
        #[arg(long, default_value_t = 4)]
        threads: u32,
    },
    /// A normal bot's time per move and time forfeits beside a CPU hog,
    /// with the fairness layers on and off, in the same run.
    Fairness {
        /// Game pairs per measured setting.
        #[arg(long, default_value_t = 4)]
        pairs: u32,
        /// The normal bot's CPU work per move, in milliseconds.
        #[arg(long, default_value_t = 20)]
        work_ms: u64,
    },
    /// `aboure report`'s time and peak memory on a synthetic results file,
    /// against a Python loop parsing the same file.
    Report {
        /// Games in the synthetic file (written once, then reused).
        #[arg(long, default_value_t = 100_000)]
        games: u64,
        /// Use this results file instead (written there if missing).
        #[arg(long)]
        file: Option<std::path::PathBuf>,
        /// Also measure the report with the accuracy analysis.
        #[arg(long)]
        accuracy: bool,
    },
    /// What sharing one run costs the filesystem with many workers: threads
    /// that claim, record and read with the real claim code on a real
    /// folder, games taking no time.
    Workers {
        /// Worker counts to measure, one run each.
        #[arg(long, value_delimiter = ',', default_value = "10,100,1000")]
        workers: Vec<u32>,
        /// Game pairs of each run.
        #[arg(long, default_value_t = 2000)]
        pairs: u32,
        /// The folder to run in (default: under the system's temporary
        /// folder; give a folder on NFS to measure NFS). Removed after.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Mode {
    Instant,
    Echo,
    Work,
    Hog,
    Spin,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.what {
        What::Engine { seconds } => engine(Duration::from_secs_f64(seconds)),
        What::Arbiter => crate::bench_arbiter::run()?,
        What::Responder { mode, ms, threads } => {
            let ms = Duration::from_millis(ms);
            crate::bench_arbiter::respond(match mode {
                Mode::Instant => Responder::Instant,
                Mode::Echo => Responder::Echo,
                Mode::Work => Responder::Work(ms),
                Mode::Hog => {
                    let mut child = std::process::Command::new(std::env::current_exe()?);
                    child.args(["bench", "responder", "spin"]);
                    // Dies with the hog: its process group is killed whole.
                    let _child = aboure_arbiter::responder::burn(threads, Some(child));
                    Responder::Sleep(ms)
                }
                Mode::Spin => aboure_arbiter::responder::spin_forever(),
            })?
        }
        What::Fairness { pairs, work_ms } => {
            crate::bench_fairness::run(pairs, Duration::from_millis(work_ms))?
        }
        What::Report {
            games,
            file,
            accuracy,
        } => crate::bench_report::run(games, file, accuracy)?,
        What::Workers {
            workers,
            pairs,
            dir,
        } => crate::bench_workers::run(&workers, pairs, dir)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn engine(budget: Duration) {
    let start = Position::startpos();
    let mut rng = SmallRng::seed_from_u64(0x5eed);
    let (mut games, mut plies) = (0u64, 0u64);
    let t0 = Instant::now();
    let cpu0 = thread_cpu_seconds();
    // Check the clock every batch, not every game, so timing costs nothing.
    while t0.elapsed() < budget {
        for _ in 0..10_000 {
            plies += playout(&start, &mut rng).plies as u64;
        }
        games += 10_000;
    }
    let secs = t0.elapsed().as_secs_f64();
    let cpu = thread_cpu_seconds() - cpu0;
    println!("playouts {games} in {secs:.2}s wall, {cpu:.2}s cpu");
    println!("playouts/s {:.0}", games as f64 / secs);
    println!("moves/s {:.0}", plies as f64 / secs);
    println!("plies/playout {:.1}", plies as f64 / games as f64);
    // On a busy machine wall-clock rates understate the engine; the rate
    // per second of this thread's CPU time does not.
    println!("playouts/cpu-s {:.0}", games as f64 / cpu);
}

/// CPU time consumed by the calling thread, in seconds.
pub fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}
