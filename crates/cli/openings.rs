//! `aboure openings`: a book of openings chosen by their exact values, for a
//! tournament's `[openings] file`. The work is `aboure_openings`'s.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use aboure_openings::{choose, Band, BookSpec, MAX_PLIES};
use anyhow::Context;

/// Write a book of distinct opening positions whose exact value (and,
/// optionally, sharpness) lies in the given bands.
#[derive(clap::Args)]
pub struct Args {
    /// Openings in the book.
    #[arg(long)]
    count: usize,
    /// The band of exact values, LO..HI: the final seed margin for the side
    /// to move under perfect play, captures so far included (write
    /// `--value=-2..2` when LO is negative).
    #[arg(long, value_name = "LO..HI", allow_hyphen_values = true)]
    value: Band<i32>,
    /// Plies from the start to each opening (1 to 8).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    plies: u32,
    /// The band of sharpness, LO..HI: the seeds a uniformly random legal
    /// move loses against the best one, on average.
    #[arg(long, value_name = "LO..HI")]
    sharpness: Option<Band<f64>>,
    /// Chooses which of the qualifying positions are written, and their order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The book to write (replaced whole).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let spec = BookSpec::new(
        args.count,
        args.value,
        args.sharpness,
        args.plies,
        args.seed,
    )?;
    let start = Instant::now();
    let book = choose(&spec)?;
    let temp = args.out.with_extension("partial");
    std::fs::write(&temp, book.to_file())
        .with_context(|| format!("cannot write {}", temp.display()))?;
    std::fs::rename(&temp, &args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let (reached, qualified) = book.counts();
    println!(
        "wrote {} openings to {} ({qualified} of {reached} positions qualified, {:.1}s)",
        book.entries().len(),
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
