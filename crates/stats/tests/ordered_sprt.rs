//! The distributed SPRT, simulated: shards finish game pairs in random order
//! (decisive-for-the-baseline games are short, draws long, so arrival order
//! correlates with the result), one shard is killed and resumed, and the
//! in-order-prefix verdict must equal the sequential test's in every trial,
//! at the same pair count; counting in arrival order, as fishtest does,
//! drifts away from the nominal error rates.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use aboure_stats::{EloModel, OrderedSprt, PairOutcome, PlayerResult, Sprt, SprtDecision};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const SHARDS: u64 = 8;
const CONCURRENCY: usize = 4;
const LOOK_AHEAD: u64 = 4 * SHARDS * CONCURRENCY as u64;
const MAX_PAIRS: u64 = 3000;
const DRAWS: f64 = 0.3;

fn test() -> Sprt {
    Sprt::new(0.0, 60.0, 0.05, 0.05, EloModel::Logistic).unwrap()
}

/// One game of a player whose expected score is `score`, and its length:
/// its losses are short, its draws long.
fn game(rng: &mut SmallRng, score: f64) -> (PlayerResult, f64) {
    let u: f64 = rng.gen();
    let (result, length) = if u < score - DRAWS / 2.0 {
        (PlayerResult::Win, 2.0)
    } else if u < score + DRAWS / 2.0 {
        (PlayerResult::Draw, 4.0)
    } else {
        (PlayerResult::Loss, 0.5)
    };
    // Exponential noise on top of the typical length.
    let noise = -(1.0 - rng.gen::<f64>()).ln();
    (result, length * (0.5 + noise))
}

struct Trial {
    sequential: (SprtDecision, u64),
    ordered: (SprtDecision, u64),
    arrival: SprtDecision,
}

fn trial(seed: u64, elo: f64) -> Trial {
    let sprt = test();
    let score = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let mut rng = SmallRng::seed_from_u64(seed);
    let pairs: Vec<(PairOutcome, f64)> = (0..MAX_PAIRS)
        .map(|_| {
            let (a, la) = game(&mut rng, score);
            let (b, lb) = game(&mut rng, score);
            ([a, b], la + lb)
        })
        .collect();

    // One process playing the pairs in order.
    let mut counts = aboure_stats::Pentanomial::default();
    let mut sequential = (SprtDecision::Continue, MAX_PAIRS);
    for (i, (o, _)) in pairs.iter().enumerate() {
        counts.add_pair(o[0], o[1]);
        let d = sprt.status_pentanomial(&counts).decision;
        if d != SprtDecision::Continue {
            sequential = (d, i as u64 + 1);
            break;
        }
    }

    // Shards: pair i belongs to shard i % SHARDS; each plays its pairs in
    // order, CONCURRENCY at once, at most LOOK_AHEAD pairs past the prefix.
    // Shard 0 is killed at a random moment: its pairs in flight are lost and
    // played again after it is resumed.
    let kill = rng.gen_range(5.0..40.0);
    let resume = kill + rng.gen_range(1.0..30.0);
    let mut queues: Vec<VecDeque<u64>> = (0..SHARDS)
        .map(|k| (k..MAX_PAIRS).step_by(SHARDS as usize).collect())
        .collect();
    let mut running = vec![0usize; SHARDS as usize];
    let mut events: BinaryHeap<Reverse<(u64, u64)>> = BinaryHeap::new();
    let mut ordered = OrderedSprt::new(sprt, 1);
    let mut arrival = aboure_stats::Pentanomial::default();
    let mut arrival_decision = SprtDecision::Continue;
    let mut now = 0.0f64;
    let tick = |t: f64| (t * 1e6) as u64;
    loop {
        for k in 0..SHARDS as usize {
            while running[k] < CONCURRENCY {
                let Some(&p) = queues[k].front() else { break };
                if p >= ordered.prefix() + LOOK_AHEAD {
                    break;
                }
                queues[k].pop_front();
                running[k] += 1;
                let length = pairs[p as usize].1;
                let mut start = now;
                if k == 0 && start >= kill && start < resume {
                    start = resume;
                }
                let mut end = start + length;
                if k == 0 && start < kill && end > kill {
                    end = resume + length;
                }
                events.push(Reverse((tick(end), p)));
            }
        }
        let Some(Reverse((t, p))) = events.pop() else {
            break;
        };
        now = t as f64 / 1e6;
        running[(p % SHARDS) as usize] -= 1;
        let outcome = pairs[p as usize].0;
        ordered.add(p, outcome);
        if arrival_decision == SprtDecision::Continue {
            arrival.add_pair(outcome[0], outcome[1]);
            arrival_decision = sprt.status_pentanomial(&arrival).decision;
        }
        if ordered.status().decided() && arrival_decision != SprtDecision::Continue {
            break;
        }
    }
    let s = ordered.status();
    let counted = if s.decided() { s.counted } else { MAX_PAIRS };
    Trial {
        sequential,
        ordered: (s.status.decision, counted),
        arrival: arrival_decision,
    }
}

/// Rates of `wrong` among `trials` trials at the true Elo `elo`, for the
/// sequential, ordered and arrival-order tests.
fn error_rates(trials: u64, elo: f64, wrong: SprtDecision, seed: u64) -> [f64; 3] {
    let mut errors = [0u64; 3];
    for t in 0..trials {
        let r = trial(seed + t, elo);
        assert_eq!(
            r.ordered, r.sequential,
            "trial {t} at Elo {elo}: the shards' verdict (decision, pairs) differs from one process's"
        );
        errors[0] += u64::from(r.sequential.0 == wrong);
        errors[1] += u64::from(r.ordered.0 == wrong);
        errors[2] += u64::from(r.arrival == wrong);
    }
    errors.map(|e| e as f64 / trials as f64)
}

#[test]
fn shards_keep_the_sequential_error_rates_and_arrival_order_drifts() {
    const TRIALS: u64 = 1500;
    let se = |p: f64| (p * (1.0 - p) / TRIALS as f64).sqrt();
    // Type I: the truth is H0 (Elo 0), H1 accepted.
    let [seq1, ord1, arr1] = error_rates(TRIALS, 0.0, SprtDecision::AcceptH1, 1);
    // Type II: the truth is H1 (Elo 60), H0 accepted.
    let [seq2, ord2, arr2] = error_rates(TRIALS, 60.0, SprtDecision::AcceptH0, 100_000);
    println!("type I: sequential {seq1:.4}, ordered {ord1:.4}, arrival order {arr1:.4}");
    println!("type II: sequential {seq2:.4}, ordered {ord2:.4}, arrival order {arr2:.4}");
    assert_eq!([seq1, seq2], [ord1, ord2]);
    // The classical SPRT is conservative: at most alpha and beta, within
    // the simulation's error.
    assert!(seq1 <= 0.05 + 3.0 * se(0.05), "type I {seq1}");
    assert!(seq2 <= 0.05 + 3.0 * se(0.05), "type II {seq2}");
    // Early arrivals are the short games, the tested bot's losses: counting
    // them first drags the LLR down, so good changes are rejected far more
    // often than beta allows.
    assert!(
        arr2 > seq2 + 5.0 * se(seq2.max(0.01)),
        "arrival-order type II {arr2} against {seq2}"
    );
}
