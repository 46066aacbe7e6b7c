//! The objectives of `aboure tune` compared at equal CPU (`aboure bench
//! tune-cpu`), as fishtest would compare two ways of tuning: the same
//! three small-effect parameters of alphabeta mis-set at once
//! ([`crate::tune_knobs`]), every tune given the same CPU seconds on its
//! own thread's clock (its sample, its solver values and its probes all
//! charged), and every result judged by a long match against the start.
//!
//! - `games`: fishtest's SPSA, one game pair between the two points an
//!   iteration, from a fresh random opening;
//! - `accuracy`: the expected result each point's chosen moves give away
//!   against the solver's values ([`Scored::score_lost`]: decided
//!   positions count less than open ones) on a sample of the start
//!   point's own games, drawn per tune and charged to it;
//! - `values`: the solver's values as a dense signal: the squared error of
//!   each point's search value against the exact result
//!   ([`Scored::value_error`]), which moves with every weight, where the
//!   chosen move changes only now and then.
//!
//! In process, so the games objective pays for games and no objective for
//! process start-ups. The number of iterations that fits the budget is
//! measured by the tune itself (three probes timed before it starts, at
//! its cost), and the tune stops at the budget if it runs over. The
//! learning rate `r-end` of each objective is chosen on calibration seeds
//! that are never reported, by the mean Elo of their tunes.

use std::fmt;

use aboure_protocol::{Player, SearchLimits};
use aboure_spsa::{Parameter, Probe, Spsa, SpsaSettings};
use aboure_stats::Estimate;
use aboure_tuning::{random_opening, sample_with, Scored};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::cpu::thread_seconds;
use crate::duel::nodes;
use crate::search::Local;
use crate::tune_knobs::{bot, describe, match_elo, pair, starts, Knob};

/// What each tune is given, and how the tunes are judged.
#[derive(Clone, Debug)]
pub struct CpuBudget {
    /// The tuned parameters, from their mis-set starts.
    pub knobs: Vec<Knob>,
    /// Alphabeta's nodes a move, in every game, sample and probe.
    pub nodes: u64,
    /// CPU seconds of each tune.
    pub cpu_seconds: f64,
    /// Informative positions in a sample (`accuracy`, `values`).
    pub positions: usize,
    /// The objectives compared.
    pub objectives: Vec<Objective>,
    /// Candidate `r-end` of each objective, in [`Objective::ALL`]'s order.
    pub r_ends: [Vec<f64>; 3],
    /// Seeds the `r-end` is chosen on (never reported).
    pub calibration_seeds: Vec<u64>,
    /// Game pairs of each calibration match.
    pub calibration_pairs: u32,
    /// Seeds reported.
    pub seeds: Vec<u64>,
    /// Game pairs of each judging match against the start.
    pub pairs: u32,
    /// Tunes run at once, each on its own thread.
    pub threads: usize,
}

/// A way to score SPSA's two points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// A game pair between them.
    Games,
    /// Expected result given away by their moves, against the solver.
    Accuracy,
    /// Squared error of their search values against the solver's.
    Values,
}

impl Objective {
    /// Every objective.
    pub const ALL: [Objective; 3] = [Objective::Games, Objective::Accuracy, Objective::Values];

    /// Its name on the command line and in the report.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Games => "games",
            Objective::Accuracy => "accuracy",
            Objective::Values => "values",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl std::str::FromStr for Objective {
    type Err = String;
    fn from_str(s: &str) -> Result<Objective, String> {
        Objective::ALL
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| format!("{s}: not games, accuracy or values"))
    }
}

/// One tune and what it gained.
#[derive(Clone, Debug)]
pub struct CpuTune {
    /// Its objective.
    pub objective: Objective,
    /// Its seed (sample, openings, perturbations).
    pub seed: u64,
    /// Its learning rate at the end.
    pub r_end: f64,
    /// Iterations planned for the budget, and run.
    pub iterations: (u32, u32),
    /// CPU seconds used, and of them the sample's.
    pub cpu: (f64, f64),
    /// The tuned values, as sent to the bot.
    pub values: Vec<f64>,
    /// The tuned bot against the start.
    pub elo: Estimate,
}

impl fmt::Display for CpuTune {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<String> = self.values.iter().map(|v| format!("{v}")).collect();
        write!(
            f,
            "{} seed {} r-end {}: {} of {} iterations, {:.2} s CPU ({:.2} s sample), values [{}], Elo against the start {}",
            self.objective.name(),
            self.seed,
            self.r_end,
            self.iterations.1,
            self.iterations.0,
            self.cpu.0,
            self.cpu.1,
            values.join(", "),
            describe(&self.elo)
        )
    }
}

/// Probes timed to plan a tune's iterations.
const TIMED_PROBES: u32 = 3;

/// Scores probes of one objective.
struct Scorer<'a> {
    budget: &'a CpuBudget,
    objective: Objective,
    sample: Vec<Scored>,
    rng: SmallRng,
    limits: SearchLimits,
}

impl Scorer<'_> {
    fn new(budget: &CpuBudget, objective: Objective, seed: u64) -> Scorer<'_> {
        let limits = nodes(budget.nodes);
        let sample = match objective {
            Objective::Games => Vec::new(),
            _ => own_games_sample(budget, seed, &limits),
        };
        Scorer {
            budget,
            objective,
            sample,
            rng: SmallRng::seed_from_u64(seed.wrapping_add(10_000)),
            limits,
        }
    }

    /// The plus point's score minus the minus point's.
    fn gain(&mut self, probe: &Probe) -> f64 {
        let knobs = &self.budget.knobs;
        match self.objective {
            Objective::Games => {
                let opening = random_opening(&mut self.rng);
                let [a, b] = pair(knobs, (&probe.plus, &probe.minus), opening, &self.limits);
                // Wins minus losses of the plus side, fishtest's result.
                2.0 * (a.points() + b.points()) - 2.0
            }
            Objective::Accuracy | Objective::Values => {
                self.loss(&probe.minus) - self.loss(&probe.plus)
            }
        }
    }

    /// The mean loss of alphabeta at `values` over the sample, as a probe
    /// process would incur it: one bot, one new game, positions in order.
    fn loss(&self, values: &[f64]) -> f64 {
        let mut player = bot(&self.budget.knobs, values);
        player.new_game();
        let mut total = 0.0;
        for s in &self.sample {
            let m = player.choose(&s.position, &[], &self.limits, &mut Local::new());
            total += match self.objective {
                Objective::Values => {
                    let value = player.last_search().map_or(0, |o| o.score);
                    s.value_error(value)
                }
                _ => s.score_lost(Some(m)),
            };
        }
        total / self.sample.len().max(1) as f64
    }
}

/// The informative positions of the start point's own games (start
/// against start from random openings of `seed`), valued by the solver.
fn own_games_sample(budget: &CpuBudget, seed: u64, limits: &SearchLimits) -> Vec<Scored> {
    let start = starts(&budget.knobs);
    let knobs = budget.knobs.clone();
    let mut players = move |_game: i64| -> (Box<dyn Player>, Box<dyn Player>) {
        (Box::new(bot(&knobs, &start)), Box::new(bot(&knobs, &start)))
    };
    sample_with(budget.positions, seed, limits, &mut players).positions
}

fn parameters(knobs: &[Knob]) -> Vec<Parameter> {
    knobs
        .iter()
        .map(|k| {
            Parameter::integer(k.option, k.start, k.range.0, k.range.1, k.step)
                .expect("a valid constant parameter")
        })
        .collect()
}

/// One tune of `objective` with `r_end` on `seed`, within the budget's
/// CPU seconds, judged by a match of `pairs` pairs from openings of
/// `match_seed`.
pub fn tune(
    budget: &CpuBudget,
    objective: Objective,
    r_end: f64,
    seed: u64,
    (pairs, match_seed): (u32, u64),
) -> CpuTune {
    let begun = thread_seconds();
    let mut scorer = Scorer::new(budget, objective, seed);
    let sampled = match objective {
        Objective::Games => 0.0,
        _ => thread_seconds() - begun,
    };
    // Time a few probes at the start to plan the iterations (charged).
    let knobs = &budget.knobs;
    let mut timing = Spsa::new(parameters(knobs), SpsaSettings::for_iterations(10), seed)
        .expect("valid settings");
    let timed = thread_seconds();
    for _ in 0..TIMED_PROBES {
        let probe = timing.probe();
        scorer.gain(&probe);
        timing.update(&probe, 0.0).expect("the probe of this step");
    }
    let per_probe = (thread_seconds() - timed) / f64::from(TIMED_PROBES);
    let left = budget.cpu_seconds - (thread_seconds() - begun);
    let planned = ((left / per_probe).floor().max(1.0)) as u32;
    let mut settings = SpsaSettings::for_iterations(planned);
    settings.r_end = r_end;
    let mut spsa = Spsa::new(parameters(knobs), settings, seed).expect("valid settings");
    let mut run = 0;
    while !spsa.finished() && thread_seconds() - begun < budget.cpu_seconds {
        let probe = spsa.probe();
        let gain = scorer.gain(&probe);
        spsa.update(&probe, gain)
            .expect("the probe of this iteration");
        run += 1;
    }
    let cpu = thread_seconds() - begun;
    let values = spsa.sent();
    let start = starts(knobs);
    let elo = match_elo(knobs, (&values, &start), pairs, match_seed, budget.nodes);
    CpuTune {
        objective,
        seed,
        r_end,
        iterations: (planned, run),
        cpu: (cpu, sampled),
        values,
        elo,
    }
}

/// The mean of `xs` with its 95% interval (Student's t over the tunes:
/// the spread between seeds holds the match noise and the tune's own).
pub fn mean_interval(xs: &[f64]) -> (f64, f64) {
    let n = xs.len();
    let mean = xs.iter().sum::<f64>() / n.max(1) as f64;
    if n < 2 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    (mean, t95(n - 1) * (var / n as f64).sqrt())
}

/// Student's t quantile 0.975 for `df` degrees of freedom.
fn t95(df: usize) -> f64 {
    const TABLE: [f64; 10] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    ];
    match df {
        0 => f64::NAN,
        1..=10 => TABLE[df - 1],
        11..=20 => 2.086 + (2.201 - 2.086) * (20 - df) as f64 / 9.0,
        21..=30 => 2.042 + (2.080 - 2.042) * (30 - df) as f64 / 9.0,
        _ => 1.96,
    }
}

fn elo_of(t: &CpuTune) -> f64 {
    t.elo.value().unwrap_or(f64::NAN)
}

/// `f` of every job, in order, computed on up to `threads` threads at once.
/// A tune is charged its own thread's CPU, so running tunes side by side
/// changes how long the bench takes, not what it measures.
pub fn parallel_map<J: Sync, R: Send>(
    jobs: &[J],
    threads: usize,
    f: impl Fn(&J) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::with_capacity(jobs.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let r = f(job);
                done.lock()
                    .expect("no thread panics holding it")
                    .push((i, r));
            });
        }
    });
    let mut done = done.into_inner().expect("no thread panicked holding it");
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The `r-end` of `objective` with the best mean Elo on the calibration
/// seeds, and a line per candidate.
fn calibrate(budget: &CpuBudget, objective: Objective) -> (f64, Vec<String>) {
    let candidates = &budget.r_ends[objective.index()];
    let jobs: Vec<(f64, u64)> = candidates
        .iter()
        .flat_map(|&r| budget.calibration_seeds.iter().map(move |&s| (r, s)))
        .collect();
    let all = parallel_map(&jobs, budget.threads, |&(r, seed)| {
        let pairs = (budget.calibration_pairs, 500_000 + seed);
        elo_of(&tune(budget, objective, r, seed, pairs))
    });
    let mut lines = Vec::new();
    let mut best = (f64::NEG_INFINITY, f64::NAN);
    let per = budget.calibration_seeds.len();
    for (i, &r) in candidates.iter().enumerate() {
        let (mean, error) = mean_interval(&all[i * per..(i + 1) * per]);
        lines.push(format!(
            "calibration: {} r-end {r} on seeds {:?}: mean Elo {mean:+.1} +/- {error:.1}",
            objective.name(),
            budget.calibration_seeds
        ));
        if mean > best.0 {
            best = (mean, r);
        }
    }
    (best.1, lines)
}

/// Every objective calibrated, then tuned on each reported seed: a line per
/// tune and a summary per objective (mean Elo and Elo per CPU-hour, with
/// their 95% intervals), each told to `out` as it is measured.
pub fn compare(budget: &CpuBudget, out: &mut dyn FnMut(String)) {
    out(format!(
        "{} CPU seconds a tune at {} nodes a move, parameters {}",
        budget.cpu_seconds,
        budget.nodes,
        budget
            .knobs
            .iter()
            .map(|k| format!("{} {} (default {})", k.option, k.start, k.default))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    for &objective in &budget.objectives {
        let (r_end, calibration) = calibrate(budget, objective);
        calibration.into_iter().for_each(&mut *out);
        let tunes = parallel_map(&budget.seeds, budget.threads, |&seed| {
            tune(
                budget,
                objective,
                r_end,
                seed,
                (budget.pairs, 1_000_000 + seed),
            )
        });
        tunes.iter().for_each(|t| out(t.to_string()));
        out(summary(&tunes));
    }
}

fn summary(tunes: &[CpuTune]) -> String {
    let elos: Vec<f64> = tunes.iter().map(elo_of).collect();
    let (mean, error) = mean_interval(&elos);
    let hours = tunes.iter().map(|t| t.cpu.0).sum::<f64>() / tunes.len().max(1) as f64 / 3600.0;
    let first = &tunes[0];
    format!(
        "{} r-end {} over {} seeds: mean Elo {mean:+.1} +/- {error:.1}, mean CPU {:.1} s, Elo per CPU-hour {:+.0} +/- {:.0}",
        first.objective.name(),
        first.r_end,
        tunes.len(),
        hours * 3600.0,
        mean / hours,
        error / hours
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune_knobs::KNOBS;

    fn small() -> CpuBudget {
        CpuBudget {
            knobs: KNOBS.to_vec(),
            nodes: 300,
            cpu_seconds: 0.5,
            positions: 20,
            objectives: Objective::ALL.to_vec(),
            r_ends: [vec![0.01], vec![50.0], vec![50.0]],
            calibration_seeds: vec![101],
            calibration_pairs: 2,
            seeds: vec![1],
            pairs: 2,
            threads: 2,
        }
    }

    #[test]
    fn a_tune_stays_within_its_cpu_budget_and_plans_what_it_can_run() {
        let budget = small();
        for objective in Objective::ALL {
            let t = tune(&budget, objective, 1.0, 1, (2, 9));
            // One probe past the budget at most.
            assert!(t.cpu.0 < budget.cpu_seconds * 1.5, "{t}");
            assert!(
                t.iterations.1 >= 1 && t.iterations.1 <= t.iterations.0,
                "{t}"
            );
            assert_eq!(t.values.len(), KNOBS.len());
            assert_eq!(t.cpu.1 > 0.0, objective != Objective::Games, "{t}");
        }
    }

    #[test]
    fn the_interval_of_a_mean_uses_students_t() {
        let (mean, error) = mean_interval(&[1.0, 2.0, 3.0]);
        assert_eq!(mean, 2.0);
        // sd 1, n 3, t(2) = 4.303.
        assert!((error - 4.303 / 3f64.sqrt()).abs() < 1e-9, "{error}");
        assert!(mean_interval(&[5.0]).1.is_nan());
        assert_eq!(t95(1), 12.706);
        assert_eq!(t95(100), 1.96);
    }

    #[test]
    fn without_calibration_seeds_the_first_candidate_is_kept() {
        let mut budget = small();
        budget.calibration_seeds.clear();
        budget.r_ends[0] = vec![0.01, 0.5];
        let (r_end, lines) = calibrate(&budget, Objective::Games);
        assert_eq!(r_end, 0.01);
        assert_eq!(lines.len(), 2, "{lines:?}");
    }

    #[test]
    fn parallel_results_come_back_in_the_jobs_order() {
        let jobs: Vec<u64> = (0..23).collect();
        for threads in [1, 2, 5, 40] {
            let out = parallel_map(&jobs, threads, |&j| {
                // Later jobs finish first on several threads.
                std::thread::sleep(std::time::Duration::from_micros(100 * (23 - j)));
                j * j
            });
            assert_eq!(out, jobs.iter().map(|j| j * j).collect::<Vec<_>>());
        }
        assert!(parallel_map(&[] as &[u8], 3, |&j| j).is_empty());
    }

    #[test]
    fn objectives_read_their_names() {
        for o in Objective::ALL {
            assert_eq!(o.name().parse::<Objective>(), Ok(o));
        }
        assert!("elo".parse::<Objective>().is_err());
    }
}
