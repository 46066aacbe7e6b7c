//! The real SPRTs that confirm a book's promise (`aboure bench openings`).
//!
//! Each run plays pair after pair of one seed's stream to its verdict or
//! the cap, so a run is a function of its seed and the number of runs at
//! once changes only the wall time: `--threads` bounds it, so that slow
//! bots share a busy machine. Every run's verdict is printed as it ends,
//! and its LLR every [`TRACE_EVERY`] pairs, so that runs stopped before
//! their verdict still leave their path.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use aboure_stats::{Pentanomial, Sprt, SprtDecision};

use super::settings::{Row, Settings};
use super::{pair, recipe, Matchup, Openings};

/// Pairs between two lines of a run's LLR path.
pub const TRACE_EVERY: u64 = 250;

/// How one real SPRT ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtRun {
    /// Pairs played.
    pub pairs: u64,
    /// The verdict (`Continue` when the cap was reached first).
    pub decision: SprtDecision,
    /// The log-likelihood ratio when it stopped.
    pub llr: f64,
}

/// A real SPRT of `m.a` against `m.b` on stream `seed`, pair by pair, to its
/// verdict or `cap` pairs.
pub fn sprt_run(m: &Matchup, openings: &Openings, sprt: &Sprt, seed: u64, cap: u64) -> SprtRun {
    traced_run(m, openings, sprt, seed, cap, |_, _| {})
}

/// [`sprt_run`], calling `trace(pairs, llr)` every [`TRACE_EVERY`] pairs.
fn traced_run(
    m: &Matchup,
    openings: &Openings,
    sprt: &Sprt,
    seed: u64,
    cap: u64,
    mut trace: impl FnMut(u64, f64),
) -> SprtRun {
    let mut counts = Pentanomial::default();
    let mut llr = 0.0;
    for index in 0..cap {
        let [first, second] = pair(m, openings, seed, index);
        counts.add_pair(first, second);
        let status = sprt.status_pentanomial(&counts);
        llr = status.llr;
        if status.decision != SprtDecision::Continue {
            return SprtRun {
                pairs: index + 1,
                decision: status.decision,
                llr,
            };
        }
        if (index + 1) % TRACE_EVERY == 0 {
            trace(index + 1, llr);
        }
    }
    SprtRun {
        pairs: cap,
        decision: SprtDecision::Continue,
        llr,
    }
}

/// What a run reports while the others play.
enum Report {
    Trace { seed: u64, pairs: u64, llr: f64 },
    Done { seed: u64, run: SprtRun },
}

/// `settings.runs` real SPRTs from `openings`, on the streams after the
/// measuring one, at most `settings.threads` at once, each reported to
/// `out` as it goes; the runs in seed order.
fn runs(
    m: &Matchup,
    openings: &Openings,
    settings: &Settings,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Vec<SprtRun>> {
    let first = settings.seed + 1;
    let next = AtomicU64::new(first);
    let end = first + settings.runs;
    let (tx, rx) = mpsc::channel();
    let mut done: Vec<(u64, SprtRun)> = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1).min(settings.runs as usize) {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || loop {
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if seed >= end {
                    return;
                }
                let trace = |pairs, llr| {
                    let _ = tx.send(Report::Trace { seed, pairs, llr });
                };
                let run = traced_run(m, openings, &settings.sprt, seed, settings.cap, trace);
                let _ = tx.send(Report::Done { seed, run });
            });
        }
        drop(tx);
        for report in rx {
            match report {
                Report::Trace { seed, pairs, llr } => {
                    writeln!(out, "    seed {seed}: {pairs} pairs, LLR {llr:+.2}")?
                }
                Report::Done { seed, run } => {
                    writeln!(
                        out,
                        "    seed {seed}: {:?} after {} pairs, LLR {:+.2}",
                        run.decision, run.pairs, run.llr
                    )?;
                    done.push((seed, run));
                }
            }
        }
        Ok::<(), std::io::Error>(())
    })?;
    done.sort_by_key(|(seed, _)| *seed);
    Ok(done.into_iter().map(|(_, run)| run).collect())
}

/// Real SPRTs from random openings, from the book that promised the
/// fewest pairs and from the recipe, on seeds the measurement did not use.
pub(super) fn confirm(
    m: &Matchup,
    rows: &[Row],
    settings: &Settings,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    if settings.runs == 0 {
        return Ok(());
    }
    let best = rows
        .iter()
        .skip(1)
        .filter(|r| r.counts.score().unwrap_or(0.5) > 0.5)
        .filter_map(|r| Some((r, r.expected?)))
        .min_by(|x, y| x.1.total_cmp(&y.1));
    let mut confirmed = vec![&rows[0]];
    confirmed.extend(best.map(|(r, _)| r));
    // The recipe is confirmed whatever it promised, so that its real
    // SPRTs are reported for every pair, not only where it looked best.
    let recipe = recipe(settings.plies);
    if let Some(r) = rows
        .iter()
        .find(|r| r.held_out.selection() == Some(&recipe))
    {
        if !confirmed.iter().any(|c| std::ptr::eq(*c, r)) {
            confirmed.push(r);
        }
    }
    let mut means = Vec::new();
    for row in &confirmed {
        writeln!(out, "  real SPRTs, {}:", row.held_out)?;
        let runs = runs(m, &row.held_out, settings, out)?;
        let mean = runs.iter().map(|r| r.pairs as f64).sum::<f64>() / runs.len() as f64;
        let count = |d| runs.iter().filter(|r| r.decision == d).count();
        writeln!(
            out,
            "  real SPRTs, {}: {} runs, mean {:.0} pairs, H1 accepted {}, H0 accepted {}, capped {}",
            row.held_out,
            runs.len(),
            mean,
            count(SprtDecision::AcceptH1),
            count(SprtDecision::AcceptH0),
            count(SprtDecision::Continue)
        )?;
        means.push(mean);
    }
    for (row, mean) in confirmed.iter().zip(&means).skip(1) {
        writeln!(
            out,
            "  real SPRTs: {:.1}x fewer pairs with {}",
            means[0] / mean,
            row.held_out
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::matchups;
    use aboure_stats::EloModel;

    #[test]
    fn runs_are_a_function_of_their_seeds_whatever_the_threads_and_each_is_reported() {
        let m = &matchups()[4];
        let openings = Openings::Random { plies: 4 };
        let settings = |threads| Settings {
            pairs: 0,
            runs: 3,
            cap: 400,
            plies: 4,
            sprt: Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Normalized).unwrap(),
            threads,
            only: vec![],
            balanced_only: true,
            seed: 10,
        };
        let mut out = Vec::new();
        let one = runs(m, &openings, &settings(1), &mut out).unwrap();
        let two = runs(m, &openings, &settings(2), &mut Vec::new()).unwrap();
        assert_eq!(one, two);
        let by_seed: Vec<SprtRun> = (11..14)
            .map(|seed| sprt_run(m, &openings, &settings(1).sprt, seed, 400))
            .collect();
        assert_eq!(one, by_seed);
        let text = String::from_utf8(out).unwrap();
        for (seed, run) in (11..14).zip(&one) {
            let line = format!("seed {seed}: {:?} after {} pairs", run.decision, run.pairs);
            assert!(text.contains(&line), "{line} in {text}");
        }
    }
}
