//! `aboure sprt-calc`: what an SPRT will do before it is run, at a range of
//! true Elo (fishtest's `sprt_calc` page, as a command). The figures come
//! from `aboure_stats::characteristic`, which documents the method.

use std::process::ExitCode;

use aboure_stats::characteristic::{characteristic_curve, Characteristic, PairDistribution};
use aboure_stats::{EloModel, Sprt};
use anyhow::{bail, Context};

/// Print an SPRT's pass probability and expected number of game pairs at
/// a range of true Elo.
#[derive(clap::Args)]
pub struct Args {
    /// H0's Elo.
    #[arg(long, allow_hyphen_values = true)]
    elo0: f64,
    /// H1's Elo.
    #[arg(long, allow_hyphen_values = true)]
    elo1: f64,
    /// False positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// False negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Elo scale of the bounds and of the true Elo.
    #[arg(long, value_enum, default_value_t = Model::Normalized)]
    model: Model,
    /// Share of drawn games between equal players (pairs of independent games).
    #[arg(long, value_name = "RATIO", conflicts_with = "pentanomial")]
    draw_ratio: Option<f64>,
    /// Pair frequencies LL,LD,WL+DD,WD,WW between (nearly) equal players,
    /// e.g. from a past test's pentanomial counts.
    #[arg(long, value_name = "LL,LD,WL+DD,WD,WW", value_parser = parse_pentanomial)]
    pentanomial: Option<[f64; 5]>,
    /// Cap of a truncated test, in game pairs (decided by the sign of the LLR).
    #[arg(long, value_name = "PAIRS")]
    max_pairs: Option<u64>,
    /// Lowest true Elo (default: elo0 - (elo1 - elo0)).
    #[arg(long, allow_hyphen_values = true)]
    from: Option<f64>,
    /// Highest true Elo (default: elo1 + (elo1 - elo0)).
    #[arg(long, allow_hyphen_values = true)]
    to: Option<f64>,
    /// Step between true Elo values (default: (elo1 - elo0) / 4).
    #[arg(long)]
    step: Option<f64>,
    /// Simulated tests per Elo value.
    #[arg(long, default_value_t = 2000)]
    runs: usize,
    /// Seed of the simulation.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Model {
    Normalized,
    Logistic,
}

fn parse_pentanomial(text: &str) -> anyhow::Result<[f64; 5]> {
    let values = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<Vec<f64>, _>>()
        .with_context(|| format!("{text:?} is not five numbers separated by commas"))?;
    values
        .try_into()
        .map_err(|v: Vec<f64>| anyhow::anyhow!("{text:?} has {} numbers, not 5", v.len()))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let model = match args.model {
        Model::Normalized => EloModel::Normalized,
        Model::Logistic => EloModel::Logistic,
    };
    let mut sprt = Sprt::new(args.elo0, args.elo1, args.alpha, args.beta, model)?;
    if let Some(max) = args.max_pairs {
        sprt = sprt.truncated(max)?;
    }
    let (base, described) = match args.pentanomial {
        Some(p) => (PairDistribution::new(p)?, format!("pair frequencies {p:?}")),
        None => {
            let d = args.draw_ratio.unwrap_or(0.5);
            (
                PairDistribution::from_draw_ratio(d)?,
                format!("draw ratio {d}"),
            )
        }
    };
    let elos = elo_range(&args)?;
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let curve = characteristic_curve(&sprt, &base, &elos, args.runs, args.seed, args.threads)?;
    let scale = match model {
        EloModel::Normalized => "normalized",
        EloModel::Logistic => "logistic",
    };
    let cap = match sprt.max_pairs() {
        Some(max) => format!(", truncated at {max} pairs (then the sign of the LLR decides)"),
        None => String::new(),
    };
    println!(
        "SPRT [{}, {}] {scale} Elo, alpha {}, beta {}{cap}; {described}",
        args.elo0, args.elo1, args.alpha, args.beta
    );
    println!(
        "{} simulated tests per row, seed {} (method: aboure_stats::characteristic)",
        args.runs, args.seed
    );
    println!(
        "{:>9}  {:>7}  {:>6}  {:>11}  {:>11}  {:>9}",
        "true Elo", "pass", "+/-", "mean pairs", "90% pairs", "truncated"
    );
    for c in &curve {
        println!("{}", row(c));
    }
    Ok(ExitCode::SUCCESS)
}

fn row(c: &Characteristic) -> String {
    format!(
        "{:>9.2}  {:>6.1}%  {:>5.1}%  {:>11.0}  {:>11}  {:>8.1}%",
        c.elo,
        100.0 * c.pass,
        100.0 * c.pass_error,
        c.expected_pairs,
        c.pairs_90,
        100.0 * c.truncated
    )
}

/// The true Elo values to compute, `from` to `to` by `step`.
fn elo_range(args: &Args) -> anyhow::Result<Vec<f64>> {
    let width = args.elo1 - args.elo0;
    let from = args.from.unwrap_or(args.elo0 - width);
    let to = args.to.unwrap_or(args.elo1 + width);
    let step = args.step.unwrap_or(width / 4.0);
    if !(step > 0.0 && from.is_finite() && to.is_finite() && from <= to) {
        bail!("--from {from} --to {to} --step {step}: need from <= to and a positive step");
    }
    let count = ((to - from) / step + 1e-9).floor() as usize + 1;
    if count > 1000 {
        bail!("--from {from} --to {to} --step {step} asks for {count} rows (at most 1000)");
    }
    Ok((0..count).map(|i| from + i as f64 * step).collect())
}
