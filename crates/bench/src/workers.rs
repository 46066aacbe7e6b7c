//! `aboure bench workers`: what sharing one run costs the filesystem at 10,
//! 100 and 1,000 workers, simulated with threads that claim, record and
//! read with the real claim code and files on a real folder
//! ([`simulate::simulate_workers`], over the arbiter's claim queue), games taking no time. The
//! figures in docs/many-machines.md ("What sharing costs: measured"), and
//! where the claim tries went: what each found, whose pair it was, and in
//! which quarter of the run.

use std::path::PathBuf;

use aboure_arbiter::RunError;
use aboure_config::ConfigError;
use aboure_workers::{Found, Whose, PHASES};

mod simulate;
use simulate::SimulatedRun;

/// Why the simulation could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum WorkersBenchError {
    /// The simulation's tournament file was refused.
    #[error("the simulation's tournament file is refused")]
    Config(#[source] ConfigError),
    /// A simulated run failed.
    #[error("{workers} workers in {}", dir.display())]
    Run {
        /// Workers simulated.
        workers: u32,
        /// Their folder.
        dir: PathBuf,
        /// Why.
        source: Box<RunError>,
    },
    /// A simulated run lost or duplicated games.
    #[error("{workers} workers recorded {all} games ({distinct} distinct) of {expected}")]
    Recorded {
        /// Workers simulated.
        workers: u32,
        /// Games recorded.
        all: usize,
        /// Distinct games among them.
        distinct: usize,
        /// Games in the schedule.
        expected: u64,
    },
}

/// Runs the simulation once per worker count (in `dir`, else a scratch
/// folder) and prints a row for each.
pub fn run(workers: &[u32], pairs: u32, dir: Option<PathBuf>) -> Result<(), WorkersBenchError> {
    let base = dir.unwrap_or_else(crate::arbiter::scratch);
    let text = format!(
        "[tournament]\npairs = {pairs}\n[time-control]\nmovetime = \"10ms\"\n\
         [[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n"
    );
    let config = aboure_config::parse(&text, "bench-workers.toml".as_ref())
        .map_err(WorkersBenchError::Config)?;
    println!(
        "{pairs} pairs (games take no time), one folder on {}:",
        base.display()
    );
    println!("| workers | wall time | claim tries (per pair) | log reads | log bytes per pair | roster passes over claims/ | roster brief reads | reads of others' files | files opened (per pair) | bytes of others' files | recorded |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut runs = Vec::new();
    for &n in workers {
        let dir = base.join(format!("workers-{n}"));
        let _ = std::fs::remove_dir_all(&dir);
        let run = simulate::simulate_workers(&config, n, &dir);
        crate::arbiter::clean(&dir);
        let run = run.map_err(|source| WorkersBenchError::Run {
            workers: n,
            dir,
            source: Box::new(source),
        })?;
        println!("{}", row(&run));
        let (all, distinct) = run.recorded;
        if all != distinct || all as u64 != 2 * run.pairs {
            return Err(WorkersBenchError::Recorded {
                workers: n,
                all,
                distinct,
                expected: 2 * run.pairs,
            });
        }
        runs.push(run);
    }
    crate::arbiter::clean(&base);
    print_tries(&runs);
    Ok(())
}

fn row(run: &SimulatedRun) -> String {
    let secs = run.wall.as_secs_f64();
    let w = run.work;
    let per_pair = |x: u64| x as f64 / run.pairs as f64;
    let (all, distinct) = run.recorded;
    format!(
        "| {} | {secs:.1} s | {} ({:.0}/s, {:.2}) | {} ({:.0}/s) | {:.0} | {} ({:.1}/s) | {} ({:.0}/s) | {} ({:.0}/s) | {} ({:.0}/s, {:.1}) | {:.1} MB | {all} games, {distinct} distinct |",
        run.workers,
        w.tries,
        w.tries as f64 / secs,
        per_pair(w.tries),
        w.log_reads,
        w.log_reads as f64 / secs,
        per_pair(w.log_bytes),
        w.roster_passes,
        w.roster_passes as f64 / secs,
        w.brief_reads,
        w.brief_reads as f64 / secs,
        w.polls,
        w.polls as f64 / secs,
        w.opens,
        w.opens as f64 / secs,
        per_pair(w.opens),
        w.bytes as f64 / 1e6,
    )
}

/// Where the tries went: by what they found and whose pair, then by
/// quarter of the run (as the trying worker saw it).
fn print_tries(runs: &[SimulatedRun]) {
    println!("\nClaim tries by what they found (per pair):");
    println!("| workers | claimed | held by a live worker | just finished | recorded before the try | own slice | others' slices | dead workers' | claims that found nothing |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for run in runs {
        let t = run.work.tried;
        let cell = |x: u64| format!("{x} ({:.2})", x as f64 / run.pairs as f64);
        let whose = |w: Whose| cell(t.by_whose[w as usize].iter().sum());
        let found: Vec<String> = Found::ALL.iter().map(|&f| cell(t.found(f))).collect();
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            run.workers,
            found.join(" | "),
            whose(Whose::Own),
            whose(Whose::Other),
            whose(Whose::Orphan),
            t.empty
        );
    }
    println!("\nClaim tries by quarter of the run: all tries / of them held, just finished or recorded before:");
    println!(
        "| workers | 1st quarter | 2nd | 3rd | 4th | tries on others' slices that were wasted |"
    );
    println!("|---|---|---|---|---|---|");
    for run in runs {
        let t = run.work.tried;
        let quarters: Vec<String> = (0..PHASES)
            .map(|p| {
                let all: u64 = t.by_phase[p].iter().sum();
                format!("{all} / {}", all - t.by_phase[p][Found::Claimed as usize])
            })
            .collect();
        let other = t.by_whose[Whose::Other as usize];
        let wasted = other.iter().sum::<u64>() - other[Found::Claimed as usize];
        println!(
            "| {} | {} | {wasted} of {} |",
            run.workers,
            quarters.join(" | "),
            other.iter().sum::<u64>()
        );
    }
}
