//! Bradley-Terry ratings: closed forms, an independent maximum-likelihood
//! solver, the covariance against a numerical Hessian. The refusals are in
//! `bradley_terry_refusals.rs`.
// Matrix code reads best with indices.
#![allow(clippy::needless_range_loop)]

use aboure_stats::simulate::BayesEloModel;
use aboure_stats::{fit, Anchor, BradleyTerryOptions, Game, PlayerResult};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use PlayerResult::{Draw, Loss, Win};

use crate::support;
use support::{played, raw};

/// A round robin with both colours, results drawn from BayesElo's model.
fn tournament(truth: &[f64], model: BayesEloModel, rounds: usize, seed: u64) -> Vec<Game> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..rounds {
        for i in 0..truth.len() {
            for j in 0..truth.len() {
                if i != j {
                    out.push(Game::new(i, j, model.play(&mut rng, truth[i], truth[j])));
                }
            }
        }
    }
    out
}

/// Log-likelihood of BayesElo's model written directly in Elo terms,
/// independently of the crate: `x = [r_0 .. r_{n-1}, advantage, draw_elo]`.
fn log_likelihood(n: usize, games: &[Game], x: &[f64]) -> f64 {
    let (adv, de) = (x[n], x[n + 1]);
    games
        .iter()
        .map(|g| {
            let delta = x[g.first] - x[g.second] + adv;
            let win = 1.0 / (1.0 + 10f64.powf((de - delta) / 400.0));
            let loss = 1.0 / (1.0 + 10f64.powf((de + delta) / 400.0));
            match g.result {
                Win => win.ln(),
                Loss => loss.ln(),
                Draw => (1.0 - win - loss).ln(),
            }
        })
        .sum()
}

fn gradient(f: &dyn Fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<f64> {
    (0..x.len())
        .map(|k| {
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            a[k] += h;
            b[k] -= h;
            (f(&a) - f(&b)) / (2.0 * h)
        })
        .collect()
}

/// Fitted parameters in the test's layout (raw scale).
fn fitted_parameters(r: &aboure_stats::Ratings) -> Vec<f64> {
    let mut x = r.ratings.clone();
    x.push(r.advantage);
    x.push(r.draw_elo);
    x
}

#[test]
fn two_players_match_the_closed_form() {
    // With the advantage fixed at 0, two players form a saturated model: the
    // fitted win and loss probabilities are the observed frequencies.
    let (w, d, l): (f64, f64, f64) = (30.0, 50.0, 20.0);
    let g = played(&[(0, 1, Win, 30), (1, 0, Draw, 50), (0, 1, Loss, 20)]);
    let options = BradleyTerryOptions {
        fit_advantage: false,
        ..raw()
    };
    let r = fit(2, &g, &options).unwrap();
    let n = w + d + l;
    let (pw, pl) = (w / n, l / n);
    let diff = 200.0 * (pw / pl * (1.0 - pl) / (1.0 - pw)).log10();
    let draw_elo = 200.0 * ((1.0 - pl) / pl * (1.0 - pw) / pw).log10();
    assert!((r.ratings[0] - r.ratings[1] - diff).abs() < 1e-6, "{r:?}");
    assert!((r.ratings[0] + r.ratings[1]).abs() < 1e-9);
    assert!((r.draw_elo - draw_elo).abs() < 1e-6);
    assert_eq!(r.advantage, 0.0);
    assert_eq!(r.records[0], aboure_stats::Wdl::new(30, 50, 20));
}

#[test]
fn without_draws_the_model_is_plain_bradley_terry() {
    // 30 wins and 10 losses: 400 log10(3) apart, draw parameter 0, and the
    // printed scale is then 1.
    let g = played(&[
        (0, 1, Win, 15),
        (1, 0, Loss, 15),
        (0, 1, Loss, 5),
        (1, 0, Win, 5),
    ]);
    let r = fit(2, &g, &BradleyTerryOptions::default()).unwrap();
    assert!(
        (r.ratings[0] - r.ratings[1] - 400.0 * 3f64.log10()).abs() < 1e-6,
        "{r:?}"
    );
    assert!(r.draw_elo.abs() < 1e-9 && r.advantage.abs() < 1e-6);
    assert!((r.scale - 1.0).abs() < 1e-12);
    // The variance of a logistic difference over 40 games: 1 / (n p (1 - p))
    // in natural-log units, i.e. per player a quarter of it after centring.
    let x = std::f64::consts::LN_10 / 400.0;
    let var_diff = 1.0 / (40.0 * 0.75 * 0.25) / (x * x);
    assert!((r.covariance[0][0] - var_diff / 4.0).abs() < 1e-6 * var_diff);
    assert!((r.errors[0] - 1.959963984540054 * (var_diff / 4.0).sqrt()).abs() < 1e-6);
}

#[test]
fn symmetric_results_give_equal_ratings() {
    let mut g = Vec::new();
    for (i, j) in [(0, 1), (1, 2), (2, 0), (1, 0), (2, 1), (0, 2)] {
        g.extend(played(&[(i, j, Win, 6), (i, j, Draw, 5), (i, j, Loss, 3)]));
    }
    let r = fit(3, &g, &raw()).unwrap();
    for x in &r.ratings {
        assert!(x.abs() < 1e-6, "{r:?}");
    }
    for i in 0..3 {
        for j in 0..3 {
            assert!((r.los[i][j] - 0.5).abs() < 1e-6);
        }
    }
    // The first player scores 6 + 2.5 of 14: a positive advantage, and the
    // saturated fit reproduces the observed first-move frequencies.
    let p = BayesEloModel {
        draw_elo: r.draw_elo,
        advantage: r.advantage,
    }
    .probabilities(0.0, 0.0);
    assert!(
        (p[0] - 6.0 / 14.0).abs() < 1e-6 && (p[2] - 3.0 / 14.0).abs() < 1e-6,
        "{p:?}"
    );
}

#[test]
fn fit_is_a_stationary_point_and_agrees_with_newton() {
    let truth = [0.0, 60.0, -40.0, 120.0, -90.0];
    let model = BayesEloModel {
        draw_elo: 150.0,
        advantage: 30.0,
    };
    let g = tournament(&truth, model, 12, 7);
    let n = truth.len();
    let r = fit(n, &g, &raw()).unwrap();
    let x = fitted_parameters(&r);
    let f = |x: &[f64]| log_likelihood(n, &g, x);

    // (a) The gradient vanishes at the fit.
    let grad = gradient(&f, &x, 1e-3);
    for (k, d) in grad.iter().enumerate() {
        assert!(d.abs() < 1e-6, "d logL / d x[{k}] = {d}");
    }
    assert!((r.log_likelihood - f(&x)).abs() < 1e-8);

    // (c) Newton's method on the same likelihood, written here, with player
    // 0 held at 0, from a cold start.
    let mut y = vec![0.0; n + 2];
    y[n + 1] = 100.0;
    let free: Vec<usize> = (1..n + 2).collect();
    for _ in 0..60 {
        let g0 = gradient(&f, &y, 1e-3);
        let m = free.len();
        let mut hess = vec![0.0; m * m];
        for (a, &ka) in free.iter().enumerate() {
            let (mut yp, mut ym) = (y.clone(), y.clone());
            yp[ka] += 1e-2;
            ym[ka] -= 1e-2;
            let (gp, gm) = (gradient(&f, &yp, 1e-3), gradient(&f, &ym, 1e-3));
            for (b, &kb) in free.iter().enumerate() {
                hess[a * m + b] = (gp[kb] - gm[kb]) / 2e-2;
            }
        }
        let rhs: Vec<f64> = free.iter().map(|&k| -g0[k]).collect();
        let step = solve(&hess, &rhs, m);
        let mut t = 1.0;
        loop {
            let mut trial = y.clone();
            for (a, &k) in free.iter().enumerate() {
                trial[k] += t * step[a];
            }
            if f(&trial) >= f(&y) || t < 1e-6 {
                y = trial;
                break;
            }
            t /= 2.0;
        }
    }
    let mean = y[..n].iter().sum::<f64>() / n as f64;
    for i in 0..n {
        let newton = y[i] - mean;
        assert!(
            (newton - r.ratings[i]).abs() < 0.01,
            "player {i}: {newton} vs {}",
            r.ratings[i]
        );
    }
    assert!((y[n] - r.advantage).abs() < 0.01);
    assert!((y[n + 1] - r.draw_elo).abs() < 0.01);
}

/// Gaussian elimination with partial pivoting.
fn solve(a: &[f64], b: &[f64], m: usize) -> Vec<f64> {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    for c in 0..m {
        let p = (c..m)
            .max_by(|&i, &j| a[i * m + c].abs().total_cmp(&a[j * m + c].abs()))
            .unwrap();
        for k in 0..m {
            a.swap(c * m + k, p * m + k);
        }
        b.swap(c, p);
        for r in c + 1..m {
            let factor = a[r * m + c] / a[c * m + c];
            for k in c..m {
                a[r * m + k] -= factor * a[c * m + k];
            }
            b[r] -= factor * b[c];
        }
    }
    let mut x = vec![0.0; m];
    for r in (0..m).rev() {
        let s: f64 = (r + 1..m).map(|k| a[r * m + k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r * m + r];
    }
    x
}

#[test]
fn covariance_is_the_inverse_information_under_centring() {
    let truth = [0.0, 80.0, -50.0, 30.0];
    let model = BayesEloModel {
        draw_elo: 120.0,
        advantage: 20.0,
    };
    let g = tournament(&truth, model, 10, 11);
    let n = truth.len();
    let r = fit(n, &g, &raw()).unwrap();
    let x = fitted_parameters(&r);
    let f = |x: &[f64]| log_likelihood(n, &g, x);
    // Numerical information of players 1..n with player 0 held, draw and
    // advantage held at their fitted values (as BayesElo's covariance).
    let m = n - 1;
    let mut info = vec![0.0; m * m];
    for a in 0..m {
        let (mut xp, mut xm) = (x.clone(), x.clone());
        xp[a + 1] += 1e-2;
        xm[a + 1] -= 1e-2;
        let (gp, gm) = (gradient(&f, &xp, 1e-3), gradient(&f, &xm, 1e-3));
        for b in 0..m {
            info[a * m + b] = -(gp[b + 1] - gm[b + 1]) / 2e-2;
        }
    }
    // Covariance relative to player 0, then of the differences r_i - r_j,
    // which do not depend on the anchoring.
    let mut cov0 = vec![vec![0.0; n]; n];
    for a in 0..m {
        let mut e = vec![0.0; m];
        e[a] = 1.0;
        let col = solve(&info, &e, m);
        for b in 0..m {
            cov0[b + 1][a + 1] = col[b];
        }
    }
    for i in 0..n {
        for j in 0..n {
            let expected = cov0[i][i] + cov0[j][j] - 2.0 * cov0[i][j];
            let c = &r.covariance;
            let got = c[i][i] + c[j][j] - 2.0 * c[i][j];
            assert!(
                (got - expected).abs() < 1e-4 * expected.max(1.0),
                "{i} {j}: {got} vs {expected}"
            );
        }
    }
    // Centred ratings: the covariance rows sum to zero.
    for row in &r.covariance {
        assert!(row.iter().sum::<f64>().abs() < 1e-8);
    }
    // Anchored on player 0: its variance vanishes, the others' equal cov0.
    let anchored = fit(
        n,
        &g,
        &BradleyTerryOptions {
            anchor: Anchor::Player {
                player: 0,
                rating: 1500.0,
            },
            ..raw()
        },
    )
    .unwrap();
    assert_eq!(anchored.ratings[0], 1500.0);
    assert_eq!(anchored.errors[0], 0.0);
    for i in 1..n {
        assert!((anchored.ratings[i] - 1500.0 - (r.ratings[i] - r.ratings[0])).abs() < 1e-9);
        assert!((anchored.covariance[i][i] - cov0[i][i]).abs() < 1e-4 * cov0[i][i]);
        assert!((anchored.errors[i] - 1.959963984540054 * cov0[i][i].sqrt()).abs() < 1e-3);
    }
    // LOS from the covariance, and complementary.
    for i in 0..n {
        for j in 0..n {
            if i != j {
                assert!((r.los[i][j] + r.los[j][i] - 1.0).abs() < 1e-9);
                assert!((r.los[i][j] - anchored.los[i][j]).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn bayeselo_stopping_rule_lands_within_a_tenth_of_an_elo() {
    // BayesElo stops `mm` once an iteration changes no gamma by more than
    // 1e-5 (relative). Run to that rule, the same MM gives what BayesElo
    // prints; it must agree with the exact maximum well inside 0.5 Elo, also
    // on shapes where MM converges slowly (a gauntlet, sparse pairings).
    let model = BayesEloModel {
        draw_elo: 100.0,
        advantage: 20.0,
    };
    let mut rng = SmallRng::seed_from_u64(5);
    let mut cases: Vec<(usize, Vec<Game>)> = Vec::new();
    let truth = [0.0, 150.0, -120.0, 60.0, -40.0, 300.0];
    cases.push((6, tournament(&truth, model, 4, 9)));
    // Gauntlet: player 0 against 8 others, which never meet each other.
    let mut gauntlet = Vec::new();
    for j in 1..9 {
        for k in 0..20 {
            let r = 40.0 * j as f64 - 200.0;
            let (first, second) = if k % 2 == 0 { (0, j) } else { (j, 0) };
            let (a, b) = if first == 0 { (0.0, r) } else { (r, 0.0) };
            gauntlet.push(Game::new(first, second, model.play(&mut rng, a, b)));
        }
    }
    cases.push((9, gauntlet));
    // Sparse random pairings among 20 players on a wide spread.
    let strengths: Vec<f64> = (0..20).map(|i| 30.0 * i as f64).collect();
    let mut sparse = Vec::new();
    for i in 0..20 {
        for d in [1, 2, 5] {
            let j = (i + d) % 20;
            for k in 0..6 {
                let (f, s) = if k % 2 == 0 { (i, j) } else { (j, i) };
                sparse.push(Game::new(
                    f,
                    s,
                    model.play(&mut rng, strengths[f], strengths[s]),
                ));
            }
        }
    }
    cases.push((20, sparse));
    for (n, g) in cases {
        let exact = fit(n, &g, &BradleyTerryOptions::default()).unwrap();
        let bayeselo = fit(
            n,
            &g,
            &BradleyTerryOptions {
                tolerance: aboure_stats::BAYESELO_TOLERANCE,
                ..Default::default()
            },
        )
        .unwrap();
        let worst = (0..n)
            .map(|i| (exact.ratings[i] - bayeselo.ratings[i]).abs())
            .fold(0.0, f64::max);
        println!(
            "{n} players: {worst} Elo apart, {} vs {} iterations",
            bayeselo.iterations, exact.iterations
        );
        assert!(worst < 0.1, "{n} players: {worst} Elo apart");
        assert!(bayeselo.iterations < exact.iterations);
    }
}

#[test]
fn bayeselo_scale_multiplies_ratings_and_errors() {
    let truth = [0.0, 50.0, -50.0];
    let model = BayesEloModel {
        draw_elo: 200.0,
        advantage: 0.0,
    };
    let g = tournament(&truth, model, 20, 3);
    let raw_fit = fit(3, &g, &raw()).unwrap();
    let printed = fit(3, &g, &BradleyTerryOptions::default()).unwrap();
    let x = 10f64.powf(-raw_fit.draw_elo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    assert!((printed.scale - scale).abs() < 1e-12 && scale < 1.0);
    for i in 0..3 {
        assert!((printed.ratings[i] - scale * raw_fit.ratings[i]).abs() < 1e-9);
        assert!((printed.errors[i] - scale * raw_fit.errors[i]).abs() < 1e-9);
        for j in 0..3 {
            assert!((printed.los[i][j] - raw_fit.los[i][j]).abs() < 1e-12);
        }
    }
}

#[test]
fn prior_spreads_virtual_draws_like_bayeselo() {
    // Two players, one game won by player 0. BayesElo's prior of 2 adds
    // one virtual draw with each colour: the fit must maximize the
    // likelihood of the real game plus those two draws.
    let g = [Game::new(0, 1, Win)];
    let options = BradleyTerryOptions {
        fit_advantage: false,
        fit_draw_elo: false,
        prior: Some(2.0),
        ..raw()
    };
    let r = fit(2, &g, &options).unwrap();
    let mut with_virtual = g.to_vec();
    with_virtual.push(Game::new(0, 1, Draw));
    with_virtual.push(Game::new(1, 0, Draw));
    let f = |x: &[f64]| log_likelihood(2, &with_virtual, x);
    let x = fitted_parameters(&r);
    let grad = gradient(&f, &x, 1e-3);
    assert!(grad[0].abs() < 1e-7 && grad[1].abs() < 1e-7, "{grad:?}");
    assert!(r.ratings[0] > 0.0);
}
