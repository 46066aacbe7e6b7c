//! The simulated fields a league is measured on, and what is true of them.
//!
//! A field drawn exactly from the model the league fits flatters it: the
//! Bradley-Terry refit is then the truth plus noise. So besides two such
//! fields (a wide one, spread over 800 Elo, and a narrow one over 300),
//! the bench plays one the model does not fit: rock-paper-scissors edges
//! added to the Elo strengths (each entrant one of three styles; a style
//! gains [`CYCLE_ELO`] against the one it beats and loses it against the
//! other) and a draw rate of its own for every pair (the draw parameter
//! times a factor between 1/4 and 3, spread evenly in its logarithm).
//!
//! Strengths are spaced as real fields are, a few strong ones far apart
//! and a long tail close together: entrant `k` of `n` has
//! `spread (1 - sqrt((k + 1/2) / n))`, rescaled so the first and last are
//! `spread` apart. What "the top k" means must not presume the model: an
//! entrant's true worth is its expected score against the rest of the
//! field, both colours alike (the round robin's expected table, the
//! Borda score); on the fields the model fits, that orders them as their
//! strengths do.

use aboure_stats::simulate::BayesEloModel;
use aboure_stats::PlayerResult;
use rand::Rng;

/// The game's draw parameter and first-move advantage (BayesElo's raw
/// scale), as a reference tournament of this game fitted them (README:
/// draw Elo 29.9, advantage +32.2).
pub const MODEL: BayesEloModel = BayesEloModel {
    draw_elo: 29.9,
    advantage: 32.2,
};

/// The edge of a style over the one it beats (raw Elo).
pub const CYCLE_ELO: f64 = 40.0;

/// Which field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// The model exactly, strengths spread over 800 Elo.
    Wide,
    /// The model exactly, strengths spread over 300 Elo.
    Narrow,
    /// 800 Elo, rock-paper-scissors edges and a draw rate per pair.
    Misfit,
}

impl FieldKind {
    /// The name the command line and the figures use.
    pub fn name(self) -> &'static str {
        match self {
            FieldKind::Wide => "wide",
            FieldKind::Narrow => "narrow",
            FieldKind::Misfit => "misfit",
        }
    }

    /// The kind of `name`, if it is one.
    pub fn parse(name: &str) -> Option<FieldKind> {
        [FieldKind::Wide, FieldKind::Narrow, FieldKind::Misfit]
            .into_iter()
            .find(|k| k.name() == name)
    }

    /// A line saying what the field is.
    pub fn describe(self) -> &'static str {
        match self {
            FieldKind::Wide => "800 Elo from first to last, drawn from the fitted model",
            FieldKind::Narrow => "300 Elo from first to last, drawn from the fitted model",
            FieldKind::Misfit => {
                "800 Elo, plus rock-paper-scissors edges of 40 Elo and a draw rate per pair"
            }
        }
    }
}

/// A field of known truth.
#[derive(Clone, Debug)]
pub struct TrueField {
    /// Strength of each entrant (raw Elo), strongest first.
    pub strength: Vec<f64>,
    /// `edge[a * n + b]`: extra Elo of `a` against `b` (antisymmetric).
    edge: Vec<f64>,
    /// `draw[a * n + b]`: the pair's draw parameter (symmetric).
    draw: Vec<f64>,
    /// True when the fitted model is the field's own (no edges, one draw rate).
    pub model_fits: bool,
    /// Each entrant's expected score against the rest, both colours alike.
    pub worth: Vec<f64>,
    /// Entrants by worth, best first: the true table.
    pub order: Vec<usize>,
}

impl TrueField {
    /// The field of `kind` with `n` entrants (the same every time).
    pub fn new(kind: FieldKind, n: usize) -> TrueField {
        let spread = if kind == FieldKind::Narrow {
            300.0
        } else {
            800.0
        };
        let raw = |k: usize| 1.0 - ((k as f64 + 0.5) / n as f64).sqrt();
        let span = raw(0) - raw(n - 1);
        let strength: Vec<f64> = (0..n).map(|k| spread * raw(k) / span).collect();
        let mut edge = vec![0.0; n * n];
        let mut draw = vec![MODEL.draw_elo; n * n];
        if kind == FieldKind::Misfit {
            let style = |i: usize| (aboure_stats::splitmix(i as u64 ^ 0x5eed) % 3) as i64;
            for a in 0..n {
                for b in 0..n {
                    edge[a * n + b] = match (style(a) - style(b)).rem_euclid(3) {
                        1 => CYCLE_ELO,
                        2 => -CYCLE_ELO,
                        _ => 0.0,
                    };
                    let (lo, hi) = (a.min(b) as u64, a.max(b) as u64);
                    let u = (aboure_stats::splitmix((lo << 32) | hi) >> 11) as f64
                        / (1u64 << 53) as f64;
                    draw[a * n + b] = MODEL.draw_elo * (0.25f64.ln() + u * 12f64.ln()).exp();
                }
            }
        }
        let mut field = TrueField {
            strength,
            edge,
            draw,
            model_fits: kind != FieldKind::Misfit,
            worth: Vec::new(),
            order: Vec::new(),
        };
        field.worth = (0..n)
            .map(|a| {
                let e: f64 = (0..n)
                    .filter(|&b| b != a)
                    .map(|b| 0.5 * (field.expected(a, b) + 1.0 - field.expected(b, a)))
                    .sum();
                e / (n - 1) as f64
            })
            .collect();
        field.order = (0..n).collect();
        let w = &field.worth;
        field
            .order
            .sort_by(|&a, &b| w[b].total_cmp(&w[a]).then(a.cmp(&b)));
        field
    }

    /// Entrants.
    pub fn len(&self) -> usize {
        self.strength.len()
    }

    /// True with no entrants.
    pub fn is_empty(&self) -> bool {
        self.strength.is_empty()
    }

    fn model(&self, first: usize, second: usize) -> BayesEloModel {
        BayesEloModel {
            draw_elo: self.draw[first * self.len() + second],
            ..MODEL
        }
    }

    fn edge(&self, first: usize, second: usize) -> f64 {
        self.strength[first] + self.edge[first * self.len() + second]
    }

    /// Expected score of `first` (South) against `second`.
    pub fn expected(&self, first: usize, second: usize) -> f64 {
        let m = self.model(first, second);
        m.expected_score(self.edge(first, second), self.strength[second])
    }

    /// One game's result from `first`'s (South's) view.
    pub fn play<R: Rng + ?Sized>(&self, rng: &mut R, first: usize, second: usize) -> PlayerResult {
        let m = self.model(first, second);
        m.play(rng, self.edge(first, second), self.strength[second])
    }

    /// The true top `k`, best first.
    pub fn top(&self, k: usize) -> &[usize] {
        &self.order[..k.min(self.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_span_their_spread_and_model_fields_rank_by_strength() {
        for (kind, spread) in [(FieldKind::Wide, 800.0), (FieldKind::Narrow, 300.0)] {
            let f = TrueField::new(kind, 16);
            assert!((f.strength[0] - f.strength[15] - spread).abs() < 1e-9);
            assert_eq!(f.order, (0..16).collect::<Vec<_>>());
            assert!(f.model_fits);
        }
        // Spaced far apart at the top, close in the tail.
        let w = TrueField::new(FieldKind::Wide, 16);
        assert!(w.strength[0] - w.strength[1] > 4.0 * (w.strength[14] - w.strength[15]));
    }

    #[test]
    fn the_misfit_field_is_not_transitive_and_its_draws_vary() {
        let f = TrueField::new(FieldKind::Misfit, 16);
        assert!(!f.model_fits);
        let n = f.len();
        let edges: Vec<f64> = (0..n).map(|b| f.edge[b]).collect();
        assert!(edges.contains(&CYCLE_ELO) && edges.contains(&-CYCLE_ELO));
        let draws = &f.draw;
        let (lo, hi) = draws
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, h), &d| (l.min(d), h.max(d)));
        assert!(
            lo < 0.5 * MODEL.draw_elo && hi > 2.0 * MODEL.draw_elo,
            "{lo} {hi}"
        );
        // Both colours averaged, a pair's expected scores sum to one.
        let e = |a, b| 0.5 * (f.expected(a, b) + 1.0 - f.expected(b, a));
        assert!((e(2, 5) + e(5, 2) - 1.0).abs() < 1e-12);
        // Worth still falls with strength overall.
        assert!(f.worth[0] > f.worth[8] && f.worth[8] > f.worth[15]);
    }
}
