//! `aboure bench league`: games a league needs against a round robin and a
//! Swiss system, on simulated fields of known strength.
//!
//! A field of `n` entrants is spaced as real fields are, a few strong ones
//! far apart and a long tail close together: entrant `k` has the raw
//! strength `1000 (1 - sqrt((k + 1/2) / n))`, so at 32 entrants the top
//! two are 92 Elo apart, the 8th and 9th 31 and the last two 16. Games are
//! drawn from BayesElo's model with the draw parameter and first-move
//! advantage a reference tournament of this game fitted (README: draw Elo
//! 29.9, advantage +32.2). Each schedule is refitted (the full
//! Bradley-Terry fit the report uses) every `n / 4` pairs, the same for
//! all three, until it meets each target:
//!
//! - **top 8**: the table's first eight are the true first eight in the
//!   true order, and each of the eight neighbour pairs from the 1st/2nd
//!   to the 8th/9th is separated at 95%;
//! - **tau**: Kendall's tau of the whole table against the truth reaches
//!   0.9.
//!
//! The league plays with `focus = "top-k"` (k = 8) for the first target
//! and over the whole table for the second. Its intervals are checked
//! too: the share of 95% intervals of its final refit (raw scale), by
//! maximum likelihood and with BayesElo's prior (which a league's report
//! uses), that cover the true strengths, for the true top 8, the rest of
//! the upper half and the lower half; and once more after a number of pairs fixed
//! in advance ([`fixed_pairs`]), beside the round robin's at the same
//! budget, which separates what the adaptive pairing does to them from
//! what stopping on the target does. The four schedules of a seed run on
//! their own threads. These are figures, never assertions.

use std::fmt;

use aboure_league::{
    round_robin, swiss, Decision, Entrant, Field, Focus, PlayedPair, Rule, Separation, Table,
    Verdict,
};
use aboure_stats::simulate::BayesEloModel;
use aboure_stats::{fit, BradleyTerryOptions, RatingScale, BAYESELO_PRIOR};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// The game's draw parameter and first-move advantage (BayesElo's scale).
pub const MODEL: BayesEloModel = BayesEloModel {
    draw_elo: 29.9,
    advantage: 32.2,
};

/// Kendall's tau a table must reach for the second target.
pub const TAU_TARGET: f64 = 0.9;

/// Entrants whose order the first target asks for.
pub const TOP: usize = 8;

/// A schedule a field can be played by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The league's rule with this focus.
    League(Focus),
    /// The arbiter's round robin.
    RoundRobin,
    /// The Swiss system.
    Swiss,
}

/// The games one schedule needed on one field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Needed {
    /// Games when the top-8 target was met (`None`: not within the cap).
    pub top: Option<usize>,
    /// Kendall's tau at that moment.
    pub tau_at_top: f64,
    /// Games when tau reached [`TAU_TARGET`].
    pub tau: Option<usize>,
    /// 95% intervals of the last refit that covered the truth, and all.
    pub covered: Coverage,
    /// The same after [`fixed_pairs`] pairs, whatever the results (zero if
    /// the schedule stopped before).
    pub covered_fixed: Coverage,
}

/// Intervals that covered the truth, and all, by class (the true top 8,
/// the rest of the upper half, the lower half), for each of
/// [`FITS`].
pub type Coverage = [[(usize, usize); 3]; 2];

/// The fits whose intervals are checked: maximum likelihood, and with
/// BayesElo's prior of 2 virtual draws per entrant (what a league's
/// report uses).
pub const FITS: [Option<f64>; 2] = [None, Some(BAYESELO_PRIOR)];

/// The pairs after which every schedule's intervals are checked once
/// more, a number fixed in advance (16 per entrant): the coverage of
/// intervals after adaptive pairing without the stop on the target.
pub fn fixed_pairs(entrants: usize) -> usize {
    16 * entrants
}

/// One field size's figures over the seeds.
#[derive(Clone, Debug)]
pub struct SizeReport {
    /// Entrants.
    pub entrants: usize,
    /// Per seed: league (top-8 focus), league (whole table), round robin, Swiss.
    pub runs: Vec<[Needed; 4]>,
    /// The cap on pairs per run.
    pub cap: usize,
}

/// The true strengths of a field of `n`, strongest first (raw scale).
pub fn field(n: usize) -> Vec<f64> {
    (0..n)
        .map(|k| 1000.0 * (1.0 - ((k as f64 + 0.5) / n as f64).sqrt()))
        .collect()
}

/// Kendall's tau of the table `order` (strongest first) against the truth
/// (entrant `k` is the `k`th strongest).
pub fn kendall_tau(order: &[usize]) -> f64 {
    let n = order.len();
    let mut place = vec![0; n];
    for (rank, &e) in order.iter().enumerate() {
        place[e] = rank;
    }
    let mut score = 0i64;
    for a in 0..n {
        for b in a + 1..n {
            score += if place[a] < place[b] { 1 } else { -1 };
        }
    }
    score as f64 / (n * (n - 1) / 2) as f64
}

/// Plays `method` on a field of `truth` until both targets are met (or,
/// for a top-focused league, the first) or `cap` pairs are played.
pub fn play(method: Method, truth: &[f64], cap: usize, seed: u64) -> Needed {
    let n = truth.len();
    let entrants = vec![Entrant::active(0); n];
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pairs: Vec<PlayedPair> = Vec::new();
    let mut round: Vec<(usize, usize)> = Vec::new();
    let rule = |focus| Rule {
        focus,
        ..Rule::default()
    };
    let step = (n / 4).max(1);
    let mut needed = Needed {
        top: None,
        tau_at_top: 0.0,
        tau: None,
        covered: [[(0, 0); 3]; 2],
        covered_fixed: [[(0, 0); 3]; 2],
    };
    // The top-focused league is measured on the top only, the whole-table
    // one on tau only; the baselines on both.
    let wants_tau = method != Method::League(Focus::Top(TOP));
    let wants_top = method != Method::League(Focus::All);
    while pairs.len() < cap {
        let field = Field::new(&entrants, &pairs).expect("simulated pairs name real entrants");
        let next = match method {
            Method::League(focus) => match rule(focus).next(&field, seed) {
                Decision::Play(p) => Some((p.south_first, p.north_first)),
                _ => None,
            },
            Method::RoundRobin => round_robin::pair(n, pairs.len()),
            Method::Swiss => {
                if round.is_empty() {
                    round = swiss::next_round(&field, seed);
                    round.reverse();
                }
                round.pop()
            }
        };
        let Some((a, b)) = next else { break };
        pairs.push(PlayedPair {
            south_first: a,
            north_first: b,
            results: [
                MODEL.play(&mut rng, truth[a], truth[b]),
                !MODEL.play(&mut rng, truth[b], truth[a]),
            ],
        });
        if pairs.len() == fixed_pairs(n) {
            needed.covered_fixed = coverage(&entrants, &pairs, truth);
        }
        if pairs.len().is_multiple_of(step) {
            check(&entrants, &pairs, &mut needed);
            let done = |met: bool, wanted: bool| met || !wanted;
            if done(needed.top.is_some(), wants_top) && done(needed.tau.is_some(), wants_tau) {
                break;
            }
        }
    }
    needed.covered = coverage(&entrants, &pairs, truth);
    needed
}

/// Updates `needed` from a refit of `pairs`.
fn check(entrants: &[Entrant], pairs: &[PlayedPair], needed: &mut Needed) {
    let field = Field::new(entrants, pairs).expect("simulated pairs name real entrants");
    let Ok(table) = Table::exact(&field) else {
        return;
    };
    let games = 2 * pairs.len();
    let tau = kendall_tau(&table.order);
    if needed.tau.is_none() && tau >= TAU_TARGET {
        needed.tau = Some(games);
    }
    if needed.top.is_none() {
        let separation = Separation {
            confidence: 0.95,
            tie_margin: 0.0,
        };
        let neighbours = separation.neighbours(&table, Focus::Top(TOP));
        let in_order = table
            .order
            .iter()
            .take(TOP)
            .copied()
            .eq(0..TOP.min(entrants.len()));
        if in_order && neighbours.iter().all(|n| n.verdict == Verdict::Separated) {
            needed.top = Some(games);
            needed.tau_at_top = tau;
        }
    }
}

/// 95% intervals of the raw-scale refits ([`FITS`]) that cover the
/// centred truth, by class: the true top 8, the rest of the upper half,
/// the lower half.
fn coverage(entrants: &[Entrant], pairs: &[PlayedPair], truth: &[f64]) -> Coverage {
    let mut out = [[(0, 0); 3]; 2];
    let Ok(field) = Field::new(entrants, pairs) else {
        return out;
    };
    let n = truth.len();
    let mean = truth.iter().sum::<f64>() / n as f64;
    for (prior, out) in FITS.into_iter().zip(&mut out) {
        let raw = BradleyTerryOptions {
            scale: RatingScale::Raw,
            prior,
            ..aboure_league::options()
        };
        let Ok(fitted) = fit(n, &field.games(), &raw) else {
            continue;
        };
        for (i, t) in truth.iter().enumerate() {
            let class = &mut out[class_of(i, n)];
            class.1 += 1;
            if (fitted.ratings[i] - (t - mean)).abs() <= fitted.errors[i] {
                class.0 += 1;
            }
        }
    }
    out
}

/// The coverage class of the `i`th strongest of `n`.
fn class_of(i: usize, n: usize) -> usize {
    if i < TOP {
        0
    } else if i < n / 2 {
        1
    } else {
        2
    }
}

/// The figures for fields of each size in `sizes`, over `seeds` seeds.
pub fn measure(sizes: &[usize], seeds: u64) -> Vec<SizeReport> {
    sizes
        .iter()
        .map(|&n| {
            let truth = field(n);
            // Forty round-robin cycles: far more than any target needs.
            let cap = 40 * n * (n - 1) / 2;
            let runs = (0..seeds)
                .map(|seed| {
                    // The four schedules are independent: one thread each.
                    std::thread::scope(|s| {
                        [
                            Method::League(Focus::Top(TOP)),
                            Method::League(Focus::All),
                            Method::RoundRobin,
                            Method::Swiss,
                        ]
                        .map(|m| {
                            let truth = &truth;
                            s.spawn(move || play(m, truth, cap, seed))
                        })
                        .map(|h| h.join().expect("a simulated schedule does not panic"))
                    })
                })
                .collect();
            SizeReport {
                entrants: n,
                runs,
                cap,
            }
        })
        .collect()
}

fn mean(values: impl Iterator<Item = Option<usize>>) -> Option<f64> {
    let v: Option<Vec<usize>> = values.collect();
    let v = v?;
    (!v.is_empty()).then(|| v.iter().sum::<usize>() as f64 / v.len() as f64)
}

fn games(g: Option<f64>) -> String {
    g.map_or("not reached".to_string(), |g| format!("{g:.0}"))
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "-".to_string(),
    }
}

impl fmt::Display for SizeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seeds = self.runs.len();
        let top = |m: usize| mean(self.runs.iter().map(|r| r[m].top));
        let tau = |m: usize| mean(self.runs.iter().map(|r| r[m].tau));
        // Over the seeds that met the target.
        let tau_at = |m: usize| {
            let met: Vec<f64> = self
                .runs
                .iter()
                .filter(|r| r[m].top.is_some())
                .map(|r| r[m].tau_at_top)
                .collect();
            met.iter().sum::<f64>() / met.len().max(1) as f64
        };
        writeln!(
            f,
            "{} entrants, {seeds} seeds (mean games; \"not reached\" if a seed did not within {} pairs)",
            self.entrants, self.cap
        )?;
        writeln!(
            f,
            "  top 8 in order at 95%:  league {} (tau {:.3})  round robin {} (tau {:.3})  swiss {} (tau {:.3})",
            games(top(0)), tau_at(0), games(top(2)), tau_at(2), games(top(3)), tau_at(3)
        )?;
        writeln!(
            f,
            "    league / round robin {}   league / swiss {}",
            ratio(top(0), top(2)),
            ratio(top(0), top(3))
        )?;
        writeln!(
            f,
            "  tau >= {TAU_TARGET}:  league {}  round robin {}  swiss {}",
            games(tau(1)),
            games(tau(2)),
            games(tau(3))
        )?;
        writeln!(
            f,
            "    league / round robin {}   league / swiss {}",
            ratio(tau(1), tau(2)),
            ratio(tau(1), tau(3))
        )?;
        let per_seed: Vec<String> = self
            .runs
            .iter()
            .map(|r| {
                let g = |x: Option<usize>| x.map_or("-".into(), |g: usize| g.to_string());
                format!("{}/{}/{}", g(r[0].top), g(r[2].top), g(r[3].top))
            })
            .collect();
        writeln!(
            f,
            "  top-8 games per seed (league/rr/swiss): {}",
            per_seed.join(" ")
        )?;
        let share = |class: usize, m: usize, fit: usize, fixed: bool| {
            let mut out = (0, 0);
            for r in &self.runs {
                let covered = if fixed {
                    r[m].covered_fixed
                } else {
                    r[m].covered
                };
                let (c, t) = covered[fit][class];
                out = (out.0 + c, out.1 + t);
            }
            out
        };
        let line = |m: usize, fit: usize, fixed: bool| {
            let [top, upper, lower] = [0, 1, 2].map(|c| share(c, m, fit, fixed));
            let all = (top.0 + upper.0 + lower.0, top.1 + upper.1 + lower.1);
            let pc = |(c, t): (usize, usize)| 100.0 * c as f64 / t.max(1) as f64;
            format!(
                "{:.1}% of {} (true top {TOP} {:.1}%, rest of the upper half {:.1}%, lower half {:.1}%)",
                pc(all),
                all.1,
                pc(top),
                pc(upper),
                pc(lower)
            )
        };
        let fixed = fixed_pairs(self.entrants) * 2;
        writeln!(
            f,
            "  95% intervals covering the truth (with BayesElo's prior / maximum likelihood):"
        )?;
        for (m, what) in [(0, "top-8 league"), (1, "whole-table league")] {
            writeln!(f, "    {what} at its stop: {}", line(m, 1, false))?;
            writeln!(f, "      maximum likelihood: {}", line(m, 0, false))?;
        }
        writeln!(
            f,
            "    top-8 league after {fixed} games: {}",
            line(0, 1, true)
        )?;
        writeln!(f, "      maximum likelihood: {}", line(0, 0, true))?;
        writeln!(
            f,
            "    round robin after {fixed} games: {}",
            line(2, 1, true)
        )?;
        write!(f, "      maximum likelihood: {}", line(2, 0, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tau_is_one_for_the_truth_and_minus_one_reversed() {
        assert_eq!(kendall_tau(&[0, 1, 2, 3]), 1.0);
        assert_eq!(kendall_tau(&[3, 2, 1, 0]), -1.0);
        assert!((kendall_tau(&[1, 0, 2, 3]) - 4.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn the_field_is_spread_at_the_top_and_dense_in_the_tail() {
        let f = field(32);
        assert!((f[0] - f[1] - 91.5).abs() < 0.5, "{}", f[0] - f[1]);
        assert!((f[7] - f[8] - 31.3).abs() < 0.5, "{}", f[7] - f[8]);
        assert!((f[30] - f[31] - 15.9).abs() < 0.5, "{}", f[30] - f[31]);
    }
}
