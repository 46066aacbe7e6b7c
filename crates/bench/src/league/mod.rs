//! `aboure bench league`: whether a league finds the top k of a field,
//! and in how many games, against the rivals built for that question, on
//! simulated fields of known truth.
//!
//! Every schedule stops by its own rule, never by the truth
//! ([`schedules`]): the league by its `until`, the round robin and the
//! Swiss qualifier's playoff by the league's verdict after each cycle,
//! LUCB by its confidence bounds ([`lucb`]). Only afterwards does the
//! bench look at the truth ([`truth`]) and score what each declared: is
//! its top k the true top k (as a set, and in order where it claims an
//! order), and how many games did it play. On the fields the model fits
//! it also checks the fitted schedules' 95% rating intervals at their
//! stop against the true strengths.
//!
//! Shares come with Wilson's 95% interval over the seeds, which are
//! independent. The intervals of one run are not (they share the run's
//! luck and its centring), so the pooled coverage by class is printed as
//! a share only, and the binomial interval is given for one entrant per
//! seed, chosen by the seed ([`schedules::IntervalCheck::chosen`]): one
//! independent trial per seed. A class with no interval is not printed.
//! These are figures, never assertions; the coverage the tests hold is in
//! `crates/league/tests/coverage.rs`.

mod display;
pub mod lucb;
mod run;
pub mod schedules;
pub mod truth;

use std::time::{Duration, Instant};

pub use schedules::{IntervalCheck, Method, Outcome};
pub use truth::{FieldKind, TrueField};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Entrants per field.
    pub entrants: usize,
    /// The k of the top k.
    pub top: usize,
    /// Independent runs (seeds 0 to seeds - 1) per field and schedule.
    pub seeds: u64,
    /// The fields.
    pub fields: Vec<FieldKind>,
    /// The cap on a run, in round-robin cycles of the field.
    pub cap_cycles: usize,
    /// Threads the seeds are shared over.
    pub threads: usize,
}

impl Settings {
    /// The cap on pairs of one run.
    pub fn cap(&self) -> usize {
        self.cap_cycles * self.entrants * (self.entrants - 1) / 2
    }
}

/// One field's figures.
#[derive(Clone, Debug)]
pub struct FieldReport {
    /// The field.
    pub kind: FieldKind,
    /// The k.
    pub top: usize,
    /// The field's truth.
    pub truth: TrueField,
    /// The cap on pairs.
    pub cap: usize,
    /// Per method (in [`Method::ALL`]'s order), its outcome on each seed.
    pub runs: Vec<Vec<Outcome>>,
    /// Per method, the time its runs took (summed over threads).
    pub time: Vec<Duration>,
    /// Wall-clock time of the field.
    pub wall: Duration,
}

/// Runs every method on every field of `settings`, one field at a time,
/// calling `done` with each field's figures as soon as they are measured.
pub fn measure(settings: &Settings, mut done: impl FnMut(FieldReport)) {
    for &kind in &settings.fields {
        done(measure_field(settings, kind));
    }
}

/// One seed's outcomes, each method's with the time it took.
type SeedRuns = (u64, Vec<(Outcome, Duration)>);

fn measure_field(settings: &Settings, kind: FieldKind) -> FieldReport {
    let start = Instant::now();
    let truth = TrueField::new(kind, settings.entrants);
    let (k, cap, threads) = (settings.top, settings.cap(), settings.threads.max(1));
    let per_thread: Vec<Vec<SeedRuns>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads as u64)
            .map(|t| {
                let truth = &truth;
                s.spawn(move || {
                    (t..settings.seeds)
                        .step_by(threads)
                        .map(|seed| {
                            let outcomes = Method::ALL
                                .iter()
                                .map(|&m| {
                                    let clock = Instant::now();
                                    let o = schedules::play(m, truth, k, cap, seed);
                                    (o, clock.elapsed())
                                })
                                .collect();
                            (seed, outcomes)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a simulated schedule does not panic"))
            .collect()
    });
    let mut by_seed: Vec<SeedRuns> = per_thread.into_iter().flatten().collect();
    by_seed.sort_by_key(|(seed, _)| *seed);
    let mut runs = vec![Vec::new(); Method::ALL.len()];
    let mut time = vec![Duration::ZERO; Method::ALL.len()];
    for (_, outcomes) in by_seed {
        for (m, (outcome, took)) in outcomes.into_iter().enumerate() {
            runs[m].push(outcome);
            time[m] += took;
        }
    }
    FieldReport {
        kind,
        top: k,
        truth,
        cap,
        runs,
        time,
        wall: start.elapsed(),
    }
}

impl FieldReport {
    /// Whether `outcome` declared the true top k as a set.
    pub fn set_right(&self, outcome: &Outcome) -> bool {
        let mut declared = outcome.declared.clone();
        let mut truth = self.truth.top(self.top).to_vec();
        declared.sort_unstable();
        truth.sort_unstable();
        declared == truth
    }

    /// Whether `outcome` declared the true top k in the true order.
    pub fn order_right(&self, outcome: &Outcome) -> bool {
        outcome.declared == self.truth.top(self.top)
    }
}
