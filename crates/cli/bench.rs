//! `aboure bench`: speed figures for the README.

use std::process::ExitCode;
use std::time::Duration;

use aboure_bench::arbiter::{clean, BenchSetup};
use aboure_bench::responder::Responder;
use anyhow::Context;

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
    /// The reference bots' search speed in-process: alphabeta's nodes and
    /// mcts's playouts a second, and each bot's answer times at 10 ms a move.
    Search {
        /// How long each search from the start position runs.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
    },
    /// How far the search bots are from perfect play: seeds lost a move
    /// against the solver's exact values.
    Accuracy {
        /// Games per measured match.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Sweep mcts's exploration constant instead.
        #[arg(long)]
        mcts_sweep: bool,
    },
    /// Which openings separate bot pairs best: pentanomial frequencies, nElo
    /// and the pairs an SPRT needs, from random openings and from books of
    /// the solver's choosing, then real SPRTs that confirm the best book.
    Openings(OpeningsArgs),
    /// The recovery of alphabeta from a row weight of the wrong sign by
    /// SPSA under both objectives (exact accuracy, game pairs), at each
    /// budget and over seeds: CPU time, final value and Elo gained against
    /// the bad start of each tune, and their medians.
    Tune(TuneArgs),
    /// The objectives of `aboure tune` at equal CPU: three small-effect
    /// parameters of alphabeta mis-set at once, each tune given the same
    /// CPU seconds, its r-end chosen on calibration seeds, judged by a match
    /// against the start (docs/tuning.md).
    TuneCpu(TuneCpuArgs),
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
    /// How often the ratings' 95% intervals (covariance, profile
    /// likelihood, bootstrap over game pairs) hold the truth, on simulated
    /// fields: an ordinary one, a nearly perfect bot, a newcomer.
    Coverage {
        /// Tournaments per field.
        #[arg(long, default_value_t = 2_000)]
        tournaments: usize,
        /// Resamples of each bootstrap.
        #[arg(long, default_value_t = 200)]
        samples: usize,
        /// Seed of the tournaments.
        #[arg(long, default_value_t = 40)]
        seed: u64,
    },
    /// Whether a league finds the top k, and in how many games, against a
    /// round robin, a Swiss qualifier with a playoff and LUCB, each stopped
    /// by its own rule, on simulated fields (the fitted model exactly, a
    /// narrow one, one it does not fit); and its intervals' coverage.
    League {
        /// Entrants per field.
        #[arg(long, default_value_t = 16)]
        entrants: usize,
        /// The k of the top k.
        #[arg(long, default_value_t = 4)]
        top: usize,
        /// Independent runs per field and schedule.
        #[arg(long, default_value_t = 100)]
        seeds: u64,
        /// Fields: wide, narrow, misfit.
        #[arg(long, value_delimiter = ',', default_values_t = ["wide".to_owned(), "narrow".to_owned(), "misfit".to_owned()])]
        fields: Vec<String>,
        /// The cap on a run, in round-robin cycles of the field.
        #[arg(long, default_value_t = 40)]
        cap_cycles: usize,
        /// Threads the seeds are shared over.
        #[arg(long, default_value_t = 2)]
        threads: usize,
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
    /// The live page following a large SPRT results file: its peak memory
    /// and the time from a game appended to the browser's event stream,
    /// against `aboure report --format json` on the same file.
    Serve {
        /// Games in the file.
        #[arg(long, default_value_t = 200_000)]
        games: usize,
    },
}

// The options of `bench openings`.
#[derive(clap::Args)]
struct OpeningsArgs {
    /// Game pairs measured per bot pair and source of openings.
    #[arg(long, default_value_t = 2_000)]
    pairs: u64,
    /// Real SPRTs from random openings and from the best book, per bot pair.
    #[arg(long, default_value_t = 20)]
    runs: u64,
    /// Most pairs of one real SPRT.
    #[arg(long, default_value_t = 20_000)]
    cap: u64,
    /// Plies of the books' openings (random ones have 4, the default).
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// The SPRT's H0, in normalized Elo.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    elo0: f64,
    /// The SPRT's H1, in normalized Elo.
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true)]
    elo1: f64,
    /// Threads playing the measured pairs, and real SPRTs run at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Only these bot pairs, by index (comma-separated; all by default).
    #[arg(long, value_delimiter = ',')]
    only: Vec<usize>,
    /// Only the books whose value band holds 0 (the lopsided ones cost
    /// most to measure and helped no close pair).
    #[arg(long)]
    balanced_only: bool,
    /// The stream of the measured pairs (the real SPRTs use the next ones).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

// The options of `bench tune-cpu`.
#[derive(clap::Args)]
struct TuneCpuArgs {
    /// CPU seconds of each tune.
    #[arg(long, default_value_t = 5.0)]
    cpu: f64,
    /// Alphabeta's nodes a move.
    #[arg(long, default_value_t = aboure_bench::tune_knobs::NODES)]
    nodes: u64,
    /// Informative positions in a sample (accuracy, values).
    #[arg(long, default_value_t = 100)]
    positions: usize,
    /// The objectives compared (games, accuracy, values).
    #[arg(long, value_delimiter = ',', default_value = "games,accuracy,values")]
    objectives: Vec<aboure_bench::tune_cpu::Objective>,
    /// Candidate r-end of the games objective (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "0.02,0.1")]
    games_r_end: Vec<f64>,
    /// Candidate r-end of the accuracy objective.
    #[arg(long, value_delimiter = ',', default_value = "20,100")]
    accuracy_r_end: Vec<f64>,
    /// Candidate r-end of the values objective.
    #[arg(long, value_delimiter = ',', default_value = "200,1000")]
    values_r_end: Vec<f64>,
    /// Seeds the r-end is chosen on (never reported).
    #[arg(long, value_delimiter = ',', default_value = "101")]
    calibration_seeds: Vec<u64>,
    /// Game pairs of each calibration match.
    #[arg(long, default_value_t = 100)]
    calibration_pairs: u32,
    /// Seeds reported.
    #[arg(long, value_delimiter = ',', default_value = "1,2,3")]
    seeds: Vec<u64>,
    /// Game pairs of each judging match against the start.
    #[arg(long, default_value_t = 300)]
    pairs: u32,
    /// The mis-set starts of row_weight, mobility_weight, targets_weight
    /// and empty_weight (comma-separated; the bench's own for those not
    /// given; a start at the option's default leaves it out).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    starts: Vec<f64>,
    /// Tunes run at once, each on its own thread (each is charged its own
    /// thread's CPU, so the results do not depend on this).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Only measure what each mis-set parameter costs against the
    /// default (a match of --pairs pairs each).
    #[arg(long)]
    effects: bool,
}

// The options of `bench tune`.
#[derive(clap::Args)]
struct TuneArgs {
    /// The accuracy objective's budgets, in SPSA iterations
    /// (comma-separated; the option alone for none).
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "4")]
    accuracy_iterations: Vec<u32>,
    /// Informative positions in the accuracy objective's sample.
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// The accuracy objective's final learning rate (gain in seeds a move).
    #[arg(long, default_value_t = 32.0)]
    accuracy_r_end: f64,
    /// The games objective's budgets, in SPSA iterations of one game
    /// pair (comma-separated; the option alone for none).
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "90")]
    games_iterations: Vec<u32>,
    /// The games objective's final learning rate (gain in wins minus losses).
    #[arg(long, default_value_t = 1.2)]
    games_r_end: f64,
    /// Game pairs of each match against the bad start.
    #[arg(long, default_value_t = 200)]
    pairs: u32,
    /// The evaluation weight of alphabeta to tune (row_weight,
    /// mobility_weight, targets_weight).
    #[arg(long, default_value = aboure_bench::tune::OPTION)]
    option: String,
    /// Its bad start.
    #[arg(long, default_value_t = aboure_bench::tune::BAD_START, allow_hyphen_values = true)]
    start: f64,
    /// Its perturbation at the last iteration (c_end).
    #[arg(long, default_value_t = aboure_bench::tune::STEP)]
    step: f64,
    /// Tunes per budget, with seeds 1 to N.
    #[arg(long, default_value_t = 5)]
    seeds: u32,
    /// Only play the match against the bad start of each of these values
    /// (comma-separated), e.g. those `aboure tune` found.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    elo_of: Vec<f64>,
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
        What::Engine { seconds } => {
            println!(
                "{}",
                aboure_bench::engine::playouts(Duration::from_secs_f64(seconds))
            )
        }
        What::Arbiter => {
            let setup = setup()?;
            let report = runtime()?.block_on(aboure_bench::arbiter::measure(&setup));
            clean(&setup.scratch);
            println!("{}", report?);
        }
        What::Search { seconds } => {
            for line in aboure_bench::search::from_the_start(Duration::from_secs_f64(seconds)) {
                println!("{line}");
            }
            for line in aboure_bench::search::answer_times(Duration::from_millis(10)) {
                println!("{line}");
            }
        }
        What::Accuracy { games, mcts_sweep } => {
            let lines = if mcts_sweep {
                aboure_bench::accuracy::mcts_sweep(games)
            } else {
                aboure_bench::accuracy::reference_bots(games)
            };
            for line in lines {
                println!("{line}");
            }
        }
        What::Openings(a) => openings(a)?,
        What::Tune(a) => tune(a),
        What::TuneCpu(a) => tune_cpu(a),
        What::Responder { mode, ms, threads } => respond(mode, Duration::from_millis(ms), threads)?,
        What::Fairness { pairs, work_ms } => {
            let setup = setup()?;
            let work = Duration::from_millis(work_ms);
            let measure =
                aboure_bench::fairness::measure(&setup, 2, pairs.div_ceil(2).max(1), work);
            let report = runtime()?.block_on(measure);
            clean(&setup.scratch);
            println!("{}", report?);
        }
        What::Coverage {
            tournaments,
            samples,
            seed,
        } => {
            for field in aboure_bench::coverage::measure(tournaments, samples.max(1), seed) {
                print!("{field}");
            }
        }
        What::League {
            entrants,
            top,
            seeds,
            fields,
            cap_cycles,
            threads,
        } => league(entrants, top, seeds, &fields, cap_cycles, threads)?,
        What::Report {
            games,
            file,
            accuracy,
        } => aboure_bench::report::run(games, file, accuracy)?,
        What::Workers {
            workers,
            pairs,
            dir,
        } => aboure_bench::workers::run(&workers, pairs, dir)?,
        What::Serve { games } => serve(games)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `bench openings`: which openings separate bot pairs best.
fn openings(a: OpeningsArgs) -> anyhow::Result<()> {
    let settings = aboure_bench::openings::Settings {
        pairs: a.pairs,
        runs: a.runs,
        cap: a.cap,
        plies: a.plies,
        sprt: aboure_stats::Sprt::new(
            a.elo0,
            a.elo1,
            0.05,
            0.05,
            aboure_stats::EloModel::Normalized,
        )?,
        threads: a.threads,
        only: a.only,
        seed: a.seed,
        balanced_only: a.balanced_only,
    };
    aboure_bench::openings::bench(&settings, &mut std::io::stdout().lock())?;
    Ok(())
}

/// `bench tune`: SPSA's recovery from a bad start, or (`--elo-of`) only
/// the matches against the bad start.
fn tune(a: TuneArgs) {
    let weight = aboure_bench::tune::Weight {
        option: a.option,
        start: a.start,
        step: a.step,
    };
    if !a.elo_of.is_empty() {
        for line in aboure_bench::tune::elo_of(&weight, &a.elo_of, a.pairs) {
            println!("{line}");
        }
        return;
    }
    let budget = aboure_bench::tune::Budget {
        weight,
        accuracy_iterations: a.accuracy_iterations,
        positions: a.positions,
        accuracy_r_end: a.accuracy_r_end,
        games_iterations: a.games_iterations,
        games_r_end: a.games_r_end,
        pairs: a.pairs,
        seeds: a.seeds,
    };
    for line in aboure_bench::tune::recover(&budget) {
        println!("{line}");
    }
}

/// `bench league`: one size at a time, so each prints as soon as it is
/// measured.
fn league(
    entrants: usize,
    top: usize,
    seeds: u64,
    fields: &[String],
    cap_cycles: usize,
    threads: usize,
) -> anyhow::Result<()> {
    if top == 0 || top >= entrants {
        anyhow::bail!("--top {top}: the top k needs 1 <= k < --entrants ({entrants})");
    }
    let fields = fields
        .iter()
        .map(|f| {
            aboure_bench::league::FieldKind::parse(f)
                .with_context(|| format!("--fields: {f:?} is not wide, narrow or misfit"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let settings = aboure_bench::league::Settings {
        entrants,
        top,
        seeds,
        fields,
        cap_cycles: cap_cycles.max(1),
        threads,
    };
    // One field at a time, each printed as soon as it is measured.
    aboure_bench::league::measure(&settings, |field| println!("{field}"));
    Ok(())
}

/// `bench serve`: the live page's figures on a generated results file.
fn serve(games: usize) -> anyhow::Result<()> {
    let exe = std::env::current_exe().context("cannot locate the aboure binary")?;
    let dir = std::env::temp_dir().join(format!("aboure-bench-serve-{}", std::process::id()));
    let figures = aboure_bench::serve::measure(&exe, games, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    println!("{}", figures.context("the live page's benchmark failed")?);
    Ok(())
}

/// The bench bots are this binary (`aboure bench responder MODE`).
fn setup() -> anyhow::Result<BenchSetup> {
    let exe = std::env::current_exe().context("cannot locate the aboure binary")?;
    Ok(BenchSetup::of_exe(exe))
}

fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
}

/// Runs one of the bench bots on stdin/stdout.
fn respond(mode: Mode, ms: Duration, threads: u32) -> anyhow::Result<()> {
    let responder = match mode {
        Mode::Instant => Responder::Instant,
        Mode::Echo => Responder::Echo,
        Mode::Work => Responder::Work(ms),
        Mode::Hog => {
            let mut child = std::process::Command::new(std::env::current_exe()?);
            child.args(["bench", "responder", "spin"]);
            // Dies with the hog: its process group is killed whole.
            let _child = aboure_bench::responder::burn(threads, Some(child));
            Responder::Sleep(ms)
        }
        Mode::Spin => aboure_bench::responder::spin_forever(),
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::BufWriter::new(std::io::stdout().lock());
    aboure_bench::responder::respond(responder, stdin, stdout)?;
    Ok(())
}

/// `bench tune-cpu`: the objectives at equal CPU, or only what each
/// mis-set parameter costs (`--effects`).
fn tune_cpu(a: TuneCpuArgs) {
    let knobs = aboure_bench::tune_knobs::with_starts(&a.starts);
    if a.effects {
        for line in aboure_bench::tune_knobs::effects(&knobs, a.pairs, a.nodes) {
            println!("{line}");
        }
        return;
    }
    let budget = aboure_bench::tune_cpu::CpuBudget {
        knobs,
        nodes: a.nodes,
        cpu_seconds: a.cpu,
        positions: a.positions,
        objectives: a.objectives,
        r_ends: [a.games_r_end, a.accuracy_r_end, a.values_r_end],
        calibration_seeds: a.calibration_seeds,
        calibration_pairs: a.calibration_pairs,
        seeds: a.seeds,
        pairs: a.pairs,
        threads: a.threads.max(1),
    };
    aboure_bench::tune_cpu::compare(&budget, &mut |line| println!("{line}"));
}
