//! `aboure bench workers`: what sharing one run costs the filesystem at 10,
//! 100 and 1,000 workers, simulated with threads that claim, record and
//! read with the real claim code and files on a real folder
//! ([`aboure_arbiter::simulate_workers`]), games taking no time. The
//! figures in configs/README.md ("What sharing costs: measured").

use std::path::PathBuf;

use anyhow::Context;

/// Runs the simulation once per worker count and prints a row for each.
pub fn run(workers: &[u32], pairs: u32, dir: Option<PathBuf>) -> anyhow::Result<()> {
    let base = dir.unwrap_or_else(aboure_bench::arbiter::scratch);
    let text = format!(
        "[tournament]\npairs = {pairs}\n[time-control]\nmovetime = \"10ms\"\n\
         [[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"random\"\n"
    );
    let config = aboure_arbiter::parse(&text, "bench-workers.toml".as_ref())?;
    println!(
        "{pairs} pairs (games take no time), one folder on {}:",
        base.display()
    );
    println!("| workers | wall time | claim tries (per pair) | log reads | log bytes per pair | reads of others' files | files opened (per pair) | bytes of others' files | recorded |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for &n in workers {
        let dir = base.join(format!("workers-{n}"));
        let _ = std::fs::remove_dir_all(&dir);
        let run = aboure_arbiter::simulate_workers(&config, n, &dir)
            .with_context(|| format!("{n} workers in {}", dir.display()));
        aboure_bench::arbiter::clean(&dir);
        let run = run?;
        let secs = run.wall.as_secs_f64();
        let w = run.work;
        let per_pair = |x: u64| x as f64 / run.pairs as f64;
        let (all, distinct) = run.recorded;
        println!(
            "| {n} | {secs:.1} s | {} ({:.0}/s, {:.2}) | {} ({:.0}/s) | {:.0} | {} ({:.0}/s) | {} ({:.0}/s, {:.1}) | {:.1} MB | {all} games, {distinct} distinct |",
            w.tries,
            w.tries as f64 / secs,
            per_pair(w.tries),
            w.log_reads,
            w.log_reads as f64 / secs,
            per_pair(w.log_bytes),
            w.polls,
            w.polls as f64 / secs,
            w.opens,
            w.opens as f64 / secs,
            per_pair(w.opens),
            w.bytes as f64 / 1e6,
        );
        anyhow::ensure!(
            all == distinct && all as u64 == 2 * run.pairs,
            "{n} workers recorded {all} games ({distinct} distinct) of {}",
            2 * run.pairs
        );
    }
    aboure_bench::arbiter::clean(&base);
    Ok(())
}
