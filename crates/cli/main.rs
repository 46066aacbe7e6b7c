//! The `aboure` command: parses the command line and hands each subcommand to
//! the library that does the work. Nothing here knows the rules or the
//! protocol; errors become messages and exit codes.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod apply;
mod bench;
mod bot;
mod check_bot;
mod openings;
mod perft;
mod report;
mod run;
mod run_build;
mod run_eta;
mod run_progress;
mod run_startups;
mod serve;
mod solve;
mod sprt_calc;
mod tune;

/// Run Djenon-aboure bots against each other and measure how strong they are.
#[derive(Parser)]
#[command(name = "aboure", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a tournament from a TOML file.
    Run(run::Args),
    /// Serve a live page of runs, updated as their games finish.
    Serve(serve::Args),
    /// Rate the games of one or more results files.
    Report(report::Args),
    /// Run a built-in reference bot on stdin/stdout.
    Bot(bot::Args),
    /// Check that a bot speaks the protocol correctly.
    CheckBot(check_bot::Args),
    /// Solve a position exactly.
    Solve(solve::Args),
    /// Write a book of openings chosen by their exact values.
    Openings(openings::Args),
    /// Count the move sequences of each length from a position.
    Perft(perft::Args),
    /// Play moves from a position and print each position reached.
    Apply(apply::Args),
    /// Measure the speed of the engine or the arbiter.
    Bench(bench::Args),
    /// Pass probability and length of an SPRT at a range of true Elo.
    SprtCalc(sprt_calc::Args),
    /// Tune a bot's int and float options by SPSA (a file with a [tune] table).
    Tune(tune::Args),
}

/// Set in the environment: parse the command line, then exit 0 without
/// running the command.
const PARSE_ONLY: &str = "ABOURE_PARSE_ONLY";

fn main() -> ExitCode {
    // The bot-side helper of the sandbox (`aboure sandbox-exec PLAN`, or
    // `--probe`), started by the arbiter: hidden, and dispatched before any
    // parsing so that it costs a bot's start as little as possible.
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some(aboure_sandbox::HELPER_COMMAND) {
        match args.next().as_deref() {
            Some("--probe") => aboure_sandbox::probe_main(),
            Some(plan) => aboure_sandbox::exec_main(plan),
            None => {
                eprintln!("aboure: sandbox-exec is started by the arbiter, with a plan");
                return ExitCode::from(2);
            }
        }
    }
    let cli = Cli::parse();
    // The documentation's tests check that every `aboure ...` line of the
    // docs parses, without running it: with this variable set, a command
    // line that parses does nothing and exits 0 (one that does not parses
    // to clap's usage error, status 2, as always).
    if std::env::var_os(PARSE_ONLY).is_some() {
        return ExitCode::SUCCESS;
    }
    let result = match cli.command {
        Command::Run(args) => run::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Report(args) => report::run(args),
        Command::Bot(args) => bot::run(args),
        Command::CheckBot(args) => check_bot::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Openings(args) => openings::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Apply(args) => apply::run(args),
        Command::Bench(args) => bench::run(args),
        Command::SprtCalc(args) => sprt_calc::run(args),
        Command::Tune(args) => tune::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => match claims_lost(&err) {
            // One line: the run folder, what failed and how; nothing
            // more was written.
            Some(lost) => {
                eprintln!("aboure: {lost}");
                ExitCode::from(aboure_workers::EXIT_CLAIMS_LOST)
            }
            // Errors name paths, some a stranger's bytes; each crate's
            // errors write them out, and this is the last line of defence
            // for those that do not (an I/O error's path in a context).
            None => {
                let text = format!("aboure: error: {err:#}");
                eprintln!("{}", aboure_report::printable(&text));
                ExitCode::from(2)
            }
        },
    }
}

/// The worker's claims on a shared run folder were lost, if that is what
/// `err` says (at any depth of its chain).
fn claims_lost(err: &anyhow::Error) -> Option<&aboure_workers::Error> {
    // The arbiter's error forwards the workers' one transparently: it is
    // not a link of the chain of its own.
    err.chain()
        .filter_map(|e| match e.downcast_ref::<aboure_arbiter::RunError>() {
            Some(aboure_arbiter::RunError::Workers(w)) => Some(w),
            Some(_) => None,
            None => e.downcast_ref::<aboure_workers::Error>(),
        })
        .find(|e| matches!(e, aboure_workers::Error::ClaimsLost { .. }))
}
