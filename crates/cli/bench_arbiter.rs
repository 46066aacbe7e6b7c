//! `aboure bench arbiter`: the arbiter's cost per move against a bare pipe
//! round trip, the time it charges bots beyond their own measurement, its
//! memory with 64 games at once, and the cost of a bot process with and
//! without the sandbox (see `aboure_arbiter::bench`).

use aboure_arbiter::bench::{clean, measure, scratch, BenchSetup};
use aboure_arbiter::responder::Responder;
use anyhow::Context;

/// Runs a bench bot on stdin/stdout.
pub fn respond(responder: Responder) -> anyhow::Result<()> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::BufWriter::new(std::io::stdout().lock());
    aboure_arbiter::responder::respond(responder, stdin, stdout)?;
    Ok(())
}

/// The bench bots and scratch folder: the bots are aboure itself
/// (`aboure bench responder MODE`).
pub fn setup() -> anyhow::Result<BenchSetup> {
    let exe = std::env::current_exe().context("cannot locate the aboure binary")?;
    let responder = |mode: &str| {
        let exe = exe.display().to_string();
        vec![
            exe,
            "bench".to_owned(),
            "responder".to_owned(),
            mode.to_owned(),
        ]
    };
    Ok(BenchSetup {
        instant_bot: responder("instant"),
        echo: responder("echo"),
        aboure_exe: exe.clone(),
        scratch: scratch(),
    })
}

pub fn run() -> anyhow::Result<()> {
    let setup = setup()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let report = runtime.block_on(measure(&setup));
    clean(&setup.scratch);
    let report = report?;
    let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
    println!(
        "pipe round trip (median)          {:8.1} us",
        us(report.pipe_round_trip)
    );
    println!(
        "arbiter per move (in games, 1 game) {:6.1} us  ({} moves)",
        us(report.per_move),
        report.moves
    );
    println!(
        "arbiter per move, sandbox off      {:8.1} us",
        us(report.per_move_unsandboxed)
    );
    println!(
        "ratio per move / round trip        {:8.2} (goal: within 3)",
        report.per_move.as_secs_f64() / report.pipe_round_trip.as_secs_f64()
    );
    match (report.overhead_median, report.overhead_p99) {
        (Some(m), Some(p)) => {
            println!(
                "charged - bot's own time, median   {:8.1} us (2 games at once; goal under 1000)",
                us(m)
            );
            println!("charged - bot's own time, p99      {:8.1} us", us(p));
        }
        _ => println!("charged - bot's own time: no self-timed moves"),
    }
    if let Some(rss) = report.rss_64_games {
        println!(
            "peak RSS with 64 games at once     {:8.1} MB (goal under 100)",
            rss as f64 / 1e6
        );
    }
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    println!(
        "bot process life, plain (median)   {:8.2} ms  (start, handshake, quit, reaped)",
        ms(report.startup_plain)
    );
    println!(
        "bot process life, sandboxed        {:8.2} ms  (+{:.2} ms, {:.2}x; scratch and cgroups made and removed)",
        ms(report.startup_sandboxed),
        ms(report.startup_sandboxed.saturating_sub(report.startup_plain)),
        report.startup_sandboxed.as_secs_f64() / report.startup_plain.as_secs_f64()
    );
    println!("{}", report.sandbox);
    Ok(())
}
