//! The current table: every entrant's Bradley-Terry rating refitted from
//! all recorded games, its covariance, and the order it implies.
//!
//! The refit is `aboure_stats::bradley_terry::fit` over every game, so the
//! league's ratings are the report's ratings; nothing is updated online, so
//! nothing depends on the order games finished in. Early in a league the
//! maximum-likelihood fit may not exist (an entrant that won every game has
//! no finite rating); the scheduler then fits with BayesElo's prior of two
//! virtual draws per entrant, which always exists once the games connect
//! everybody, and says so ([`Table::prior`]).
//!
//! The stopping verdict is judged on the table with that prior
//! ([`Table::with_prior`]), always: it is the fit a league's report shows
//! (the adaptive pairing makes the maximum-likelihood intervals of the top
//! entrants too narrow, the crate's README), so the verdict a league
//! writes agrees with its report's ratings and intervals.

use aboure_stats::elo::bayeselo_probabilities;
use aboure_stats::{fit, BradleyTerryOptions, RatingError, Ratings, BAYESELO_PRIOR};

use crate::field::Field;

/// The fitted ratings of a field and their order.
#[derive(Clone, Debug)]
pub struct Table {
    /// The fit (ratings in BayesElo's printed scale, centred on 0).
    pub ratings: Ratings,
    /// Entrants from the strongest down (ties by index).
    pub order: Vec<usize>,
    /// True when the fit needed the fallback prior.
    pub prior: bool,
}

/// The options every league fit uses: BayesElo's `mm 1 1` (draws and
/// first-move advantage fitted), stopped at a relative change of 1e-9,
/// which moves no rating by a millionth of an Elo.
pub fn options() -> BradleyTerryOptions {
    BradleyTerryOptions {
        tolerance: 1e-9,
        ..BradleyTerryOptions::default()
    }
}

impl Table {
    /// The maximum-likelihood table, or why it does not exist yet.
    pub fn exact(field: &Field) -> Result<Table, RatingError> {
        let ratings = fit(field.entrants().len(), &field.games(), &options())?;
        Ok(Table::of(ratings, false))
    }

    /// The table with BayesElo's prior (2 virtual draws per entrant), the
    /// fit a league's report shows; `None` if even that does not exist
    /// (some entrant has no games, or the games do not connect the field).
    pub fn with_prior(field: &Field) -> Option<Table> {
        let with_prior = BradleyTerryOptions {
            prior: Some(BAYESELO_PRIOR),
            ..options()
        };
        let ratings = fit(field.entrants().len(), &field.games(), &with_prior).ok()?;
        Some(Table::of(ratings, true))
    }

    fn of(ratings: Ratings, prior: bool) -> Table {
        let r = &ratings.ratings;
        let mut order: Vec<usize> = (0..r.len()).collect();
        order.sort_by(|&a, &b| r[b].total_cmp(&r[a]).then(a.cmp(&b)));
        Table {
            ratings,
            order,
            prior,
        }
    }

    /// Variance of the rating difference of `a` and `b`.
    pub fn difference_variance(&self, a: usize, b: usize) -> f64 {
        let c = &self.ratings.covariance;
        (c[a][a] + c[b][b] - 2.0 * c[a][b]).max(0.0)
    }

    /// Fisher information one game pair between `a` and `b` (one game each
    /// as South) carries about their rating difference, in the reported
    /// scale, at the fitted ratings, draw rate and advantage.
    pub fn pair_information(&self, a: usize, b: usize) -> f64 {
        let r = &self.ratings;
        let raw = (r.ratings[a] - r.ratings[b]) / r.scale;
        let per_raw = game_information(raw + r.advantage, r.draw_elo)
            + game_information(-raw + r.advantage, r.draw_elo);
        per_raw / (r.scale * r.scale)
    }
}

/// Expected Fisher information of one game about the raw rating
/// difference, where `elo` is the first player's raw edge (advantage
/// included): `sum over outcomes of p'^2 / p`.
pub fn game_information(elo: f64, draw_elo: f64) -> f64 {
    let [w, d, l] = bayeselo_probabilities(elo, draw_elo);
    let k = std::f64::consts::LN_10 / 400.0;
    let dw = k * w * (1.0 - w);
    let dl = -k * l * (1.0 - l);
    let dd = -(dw + dl);
    [(dw, w), (dd, d), (dl, l)]
        .iter()
        .filter(|(_, p)| *p > 1e-300)
        .map(|(dp, p)| dp * dp / p)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::game_information;

    #[test]
    fn information_without_draws_is_the_logistic_one() {
        // No draws: p = 1/(1+10^(-x/400)), information (ln10/400)^2 p(1-p).
        let k = std::f64::consts::LN_10 / 400.0;
        for x in [-300.0, 0.0, 120.0] {
            let p: f64 = 1.0 / (1.0 + 10f64.powf(-x / 400.0));
            let expected = k * k * p * (1.0 - p);
            let got = game_information(x, 0.0);
            assert!(
                (got - expected).abs() < 1e-12 * expected.max(1e-9),
                "{x}: {got} vs {expected}"
            );
        }
    }

    #[test]
    fn information_is_largest_between_equals() {
        let at = |x| game_information(x, 100.0);
        assert!(at(0.0) > at(100.0));
        assert!(at(100.0) > at(400.0));
        assert!((at(50.0) - at(-50.0)).abs() < 1e-15);
    }
}
