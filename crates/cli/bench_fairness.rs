//! `aboure bench fairness`: a normal bot's time per move and time forfeits
//! beside a CPU hog, with the fairness layers on and off, in the same run
//! (see `aboure_arbiter::bench_fairness`).

use std::time::Duration;

use aboure_arbiter::bench::clean;
use aboure_arbiter::bench_fairness::{measure, HogPlace};

/// Measures with `pairs` game pairs per setting and round, the normal bot
/// spending `work` of CPU on each move.
pub fn run(pairs: u32, work: Duration) -> anyhow::Result<()> {
    let setup = crate::bench_arbiter::setup()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let report = runtime.block_on(measure(&setup, 2, pairs.div_ceil(2).max(1), work));
    clean(&setup.scratch);
    let report = report?;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "normal bot: {:.0} ms of CPU a move, movetime {:.0} ms + margin {:.0} ms; \
         hog: 4 threads and a child process burning CPU all the time",
        ms(report.work),
        ms(report.movetime),
        ms(report.margin)
    );
    println!("hog          fairness  moves  median ms  p90 ms   max ms  games  time forfeits");
    for r in &report.rows {
        let hog = match r.hog {
            HogPlace::Nowhere => "none",
            HogPlace::Opponent => "opponent",
            HogPlace::Neighbour => "other game",
        };
        let fair = if r.fair { "on" } else { "off" };
        println!(
            "{hog:<12} {fair:<9} {:>5}  {:>9.1}  {:>6.1}  {:>7.1}  {:>5}  {:>13}",
            r.moves,
            ms(r.median),
            ms(r.p90),
            ms(r.max),
            r.games,
            r.forfeits
        );
    }
    println!("fairness off: the hog ponders (never held) and cpu = \"unlimited\"");
    Ok(())
}
