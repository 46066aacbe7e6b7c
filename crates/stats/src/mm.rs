//! Rémi Coulom's minorization-maximization for BayesElo's model.
//!
//! The model: with `gamma_i = 10^(r_i/400)`, `theta_w = 10^(advantage/400)`
//! and `theta_d = 10^(draw_elo/400)`, the first player `i` beats `j` with
//! probability `theta_w g_i / (theta_w g_i + theta_d g_j)`, loses with
//! probability `g_j / (theta_d theta_w g_i + g_j)`, and draws otherwise.
//! Each MM step maximizes a minorizing surrogate of the log-likelihood in
//! closed form, so the likelihood never decreases and no step size is
//! needed. The updates, their order (players from last to first, each using
//! the already updated gammas of higher-numbered players, then `theta_w`,
//! then `theta_d`) and the convergence test are those of BayesElo's
//! `CBradleyTerry::MinorizationMaximization`.

/// Results condensed by ordered pair: `w[i * n + j]` counts games where `i`
/// moved first against `j` and won; `d` draws, `l` losses. Counts are real
/// numbers because a prior adds fractional virtual draws.
#[derive(Clone, Debug)]
pub(crate) struct Condensed {
    pub n: usize,
    pub w: Vec<f64>,
    pub d: Vec<f64>,
    pub l: Vec<f64>,
    /// For each player, the opponents it met (either colour).
    pub opponents: Vec<Vec<usize>>,
}

impl Condensed {
    pub fn new(n: usize) -> Condensed {
        Condensed {
            n,
            w: vec![0.0; n * n],
            d: vec![0.0; n * n],
            l: vec![0.0; n * n],
            opponents: vec![Vec::new(); n],
        }
    }

    /// Games between `i` (first) and `j` (second).
    pub fn games(&self, i: usize, j: usize) -> f64 {
        let k = i * self.n + j;
        self.w[k] + self.d[k] + self.l[k]
    }

    /// Rebuilds the opponent lists from the counts.
    pub fn index_opponents(&mut self) {
        let n = self.n;
        for i in 0..n {
            self.opponents[i] = (0..n)
                .filter(|&j| j != i && self.games(i, j) + self.games(j, i) > 0.0)
                .collect();
        }
    }

    /// BayesElo's `AddPrior`: each player spreads `prior` virtual draws over
    /// its opponents in proportion to the games played against each, half
    /// with each colour, and its opponents receive the same games.
    pub fn add_prior(&mut self, prior: f64) {
        let n = self.n;
        let true_games: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| self.games(i, j) + self.games(j, i)).sum())
            .collect();
        let pair_games: Vec<f64> = (0..n * n)
            .map(|k| self.games(k / n, k % n) + self.games(k % n, k / n))
            .collect();
        for i in 0..n {
            if true_games[i] == 0.0 {
                continue;
            }
            let per_game = prior * 0.25 / true_games[i];
            for j in 0..n {
                if j == i || pair_games[i * n + j] == 0.0 {
                    continue;
                }
                let extra = per_game * pair_games[i * n + j];
                // BayesElo adds `extra` to d_ij and d_ji of both players'
                // records, which hold each game twice; here each is once.
                self.d[i * n + j] += extra;
                self.d[j * n + i] += extra;
            }
        }
    }
}

/// Parameters of the model in multiplicative form.
#[derive(Clone, Debug)]
pub(crate) struct Gammas {
    pub gamma: Vec<f64>,
    pub theta_w: f64,
    pub theta_d: f64,
}

/// Outcome of the iterations.
pub(crate) struct MmRun {
    pub params: Gammas,
    pub iterations: usize,
    pub converged: bool,
}

/// What a run of MM does beyond the plain fit.
#[derive(Clone, Copy, Default)]
pub(crate) struct MmVariant<'a> {
    /// Added to the log-likelihood: `sum_p tilt[p] ln(gamma_p)`.
    pub tilt: Option<&'a [f64]>,
    /// The parameters to start from (else all ones).
    pub start: Option<&'a Gammas>,
    /// Players whose gamma stays at its start (fixed anchors).
    pub pinned: Option<&'a [bool]>,
    /// A normal prior on some players' `ln gamma` (loose anchors).
    pub prior: Option<&'a [Option<LogPrior>]>,
}

/// A normal prior on one player's `ln gamma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LogPrior {
    /// Its mean.
    pub mean: f64,
    /// Its precision (one over the variance).
    pub precision: f64,
}

impl LogPrior {
    /// The gamma maximizing MM's surrogate `a ln g - b g` plus the prior's
    /// log-density: the root of `a - b e^x - precision (x - mean)`, which
    /// decreases and is concave in `x = ln g`, so Newton's steps, after the
    /// first, approach it from above and never overshoot. The surrogate
    /// plus an exact term still minorizes, so each MM step still climbs
    /// the posterior.
    fn update(&self, a: f64, b: f64) -> f64 {
        let mut x = if a > 0.0 { (a / b).ln() } else { self.mean };
        for _ in 0..100 {
            let e = b * x.exp();
            let step = (a - e - self.precision * (x - self.mean)) / (e + self.precision);
            x += step;
            if step.abs() <= 1e-15 * x.abs().max(1.0) {
                break;
            }
        }
        x.exp()
    }
}

/// Runs MM from `start` (else all gammas 1, and thetas 1 when fitted, else
/// the given values) until the largest relative change of a gamma and the
/// largest absolute change of a theta fall below `epsilon`, maximizing the
/// log-likelihood plus `sum_p tilt[p] ln(gamma_p)` when `tilt` is given: the term is exact, so
/// each update still maximizes a minorizer (it adds `tilt[p]` to the
/// player's wins in the closed form), as long as no player's wins plus
/// tilt fall to 0 (the run then stops unconverged). The profile
/// likelihood (`bradley_terry::profile`) traces its curve this way,
/// starting from a nearby fit (`start`) rather than from all ones. Pinned
/// players keep their starting gamma: several fixed anchors.
pub(crate) fn tilted_minorization_maximization(
    c: &Condensed,
    fit_w: Option<f64>,
    fit_d: Option<f64>,
    epsilon: f64,
    max_iterations: usize,
    variant: &MmVariant,
) -> MmRun {
    let MmVariant {
        start,
        pinned,
        prior,
        ..
    } = *variant;
    let n = c.n;
    // `fit_*` is None when the parameter is fitted, else its fixed theta.
    let mut theta_w = fit_w.unwrap_or(start.map_or(1.0, |s| s.theta_w));
    let mut theta_d = fit_d.unwrap_or(start.map_or(1.0, |s| s.theta_d));
    let mut gamma = start.map_or_else(|| vec![1.0; n], |s| s.gamma.clone());
    let mut next = vec![1.0; n];
    let mut iterations = 0;
    let mut converged = false;
    while iterations < max_iterations {
        iterations += 1;
        if !sweep_gammas(c, (&gamma, &mut next), (theta_w, theta_d), variant) {
            break;
        }
        std::mem::swap(&mut gamma, &mut next);
        if let Some(priors) = prior.filter(|_| !pinned.is_some_and(|f| f.iter().any(|&x| x))) {
            shift_to_priors(&mut gamma, priors);
        }
        let mut diff = gamma
            .iter()
            .zip(&next)
            .map(|(x, y)| (x - y).abs() / (x + y))
            .fold(0.0, f64::max);
        if fit_w.is_none() {
            let new = fitted_theta_w(c, &gamma, (theta_w, theta_d));
            diff = diff.max((theta_w - new).abs());
            theta_w = new;
        }
        if fit_d.is_none() {
            let new = fitted_theta_d(c, &gamma, (theta_w, theta_d));
            diff = diff.max((theta_d - new).abs());
            theta_d = new;
        }
        if !diff.is_finite() {
            break;
        }
        if diff < epsilon {
            converged = true;
            break;
        }
    }
    MmRun {
        params: Gammas {
            gamma,
            theta_w,
            theta_d,
        },
        iterations,
        converged,
    }
}

/// One sweep of the gammas' updates into `next`, last player first,
/// Gauss-Seidel style as BayesElo (a player's update sees the new gammas
/// of the players after it). False if a player's wins plus tilt fell to 0
/// under a tilt, out of the closed form's reach: the run stops there.
fn sweep_gammas(
    c: &Condensed,
    (gamma, next): (&[f64], &mut [f64]),
    thetas: (f64, f64),
    variant: &MmVariant,
) -> bool {
    let mut out_of_reach = false;
    for p in (0..c.n).rev() {
        if variant.pinned.is_some_and(|f| f[p]) {
            next[p] = gamma[p];
            continue;
        }
        let (mut a, b) = surrogate(c, p, (gamma, next), thetas);
        if let Some(t) = variant.tilt {
            a += t[p];
        }
        match variant.prior.and_then(|v| v[p]) {
            Some(g) => next[p] = g.update(a, b),
            None => {
                out_of_reach |= variant.tilt.is_some() && a <= 0.0;
                next[p] = a / b;
            }
        }
    }
    !out_of_reach
}

/// The terms `a ln g - b g` of MM's surrogate for player `p`'s gamma `g`
/// (`a`: its wins, draws counted for both sides), against its opponents'
/// gammas as the sweep has them: new in `next` for the players after
/// `p`, else old in `gamma`.
fn surrogate(
    c: &Condensed,
    p: usize,
    (gamma, next): (&[f64], &[f64]),
    (theta_w, theta_d): (f64, f64),
) -> (f64, f64) {
    let n = c.n;
    let mut a = 0.0;
    let mut b = 0.0;
    let gp = gamma[p];
    for &o in &c.opponents[p] {
        let go = if o > p { next[o] } else { gamma[o] };
        let (po, op) = (p * n + o, o * n + p);
        let (w_ij, d_ij, l_ij) = (c.w[po], c.d[po], c.l[po]);
        let (w_ji, d_ji, l_ji) = (c.w[op], c.d[op], c.l[op]);
        a += w_ij + d_ij + l_ji + d_ji;
        b += (d_ij + w_ij) * theta_w / (theta_w * gp + theta_d * go)
            + (d_ij + l_ij) * theta_d * theta_w / (theta_d * theta_w * gp + go)
            + (d_ji + w_ji) * theta_d / (theta_w * go + theta_d * gp)
            + (d_ji + l_ji) / (theta_d * theta_w * go + gp);
    }
    (a, b)
}

/// MM's update of `theta_w` (the first mover's advantage) for `gamma`.
fn fitted_theta_w(c: &Condensed, gamma: &[f64], (theta_w, theta_d): (f64, f64)) -> f64 {
    let (num, den) = over_games(c, gamma, |k, gi, gj| {
        (
            c.w[k] + c.d[k],
            (c.d[k] + c.w[k]) * gi / (theta_w * gi + theta_d * gj)
                + (c.d[k] + c.l[k]) * theta_d * gi / (theta_d * theta_w * gi + gj),
        )
    });
    num / den
}

/// MM's update of `theta_d` (the draws' weight) for `gamma`: the positive
/// root of its quadratic.
fn fitted_theta_d(c: &Condensed, gamma: &[f64], (theta_w, theta_d): (f64, f64)) -> f64 {
    let (num, den) = over_games(c, gamma, |k, gi, gj| {
        (
            c.d[k],
            (c.d[k] + c.w[k]) * gj / (theta_w * gi + theta_d * gj)
                + (c.d[k] + c.l[k]) * theta_w * gi / (theta_d * theta_w * gi + gj),
        )
    });
    let ratio = num / den;
    ratio + (ratio * ratio + 1.0).sqrt()
}

/// The sums of `term`'s two parts over every ordered pair of opponents
/// (`k`: the pair's index in the condensed tables, with both gammas), in
/// the order of the players and their opponents.
fn over_games(
    c: &Condensed,
    gamma: &[f64],
    term: impl Fn(usize, f64, f64) -> (f64, f64),
) -> (f64, f64) {
    let n = c.n;
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..n {
        for &j in &c.opponents[i] {
            let (a, b) = term(i * n + j, gamma[i], gamma[j]);
            num += a;
            den += b;
        }
    }
    (num, den)
}

/// With no player pinned, the likelihood does not change when every
/// gamma is multiplied by one factor: only the priors set it. Their best
/// common shift of `ln gamma` has a closed form, taken after each sweep;
/// left to the sweeps alone, a field whose priors are far weaker than its
/// games (a million games, anchors +/- 20) moves by a thousandth of the way
/// each sweep and does not converge.
fn shift_to_priors(gamma: &mut [f64], priors: &[Option<LogPrior>]) {
    let (mut num, mut den) = (0.0, 0.0);
    for (g, p) in gamma.iter().zip(priors) {
        if let Some(p) = p {
            num += p.precision * (p.mean - g.ln());
            den += p.precision;
        }
    }
    if den > 0.0 {
        let factor = (num / den).exp();
        gamma.iter_mut().for_each(|g| *g *= factor);
    }
}

/// Log-likelihood of the condensed results under the given parameters.
pub(crate) fn log_likelihood(c: &Condensed, p: &Gammas) -> f64 {
    let n = c.n;
    let mut total = 0.0;
    for i in 0..n {
        for j in 0..n {
            let k = i * n + j;
            if i == j || c.games(i, j) == 0.0 {
                continue;
            }
            let (a, b) = (p.theta_w * p.gamma[i], p.gamma[j]);
            let win = a / (a + p.theta_d * b);
            let loss = b / (p.theta_d * a + b);
            let draw = 1.0 - win - loss;
            for (count, prob) in [(c.w[k], win), (c.d[k], draw), (c.l[k], loss)] {
                if count > 0.0 {
                    total += count * prob.ln();
                }
            }
        }
    }
    total
}
