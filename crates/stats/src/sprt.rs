//! The sequential probability ratio test, as fishtest runs it.
//!
//! An SPRT answers "is the change worth `elo1` rather than `elo0`?" with
//! error rates fixed in advance and, on average, far fewer games than a
//! fixed-length match. fishtest's GSPRT (see [`crate::llr`] for the maths)
//! accepts H1 when the log-likelihood ratio rises above
//! `ln((1 - beta) / alpha)` and H0 when it falls below
//! `ln(beta / (1 - alpha))`. Bounds are in normalized Elo by default (the
//! number of games needed then hardly depends on the draw ratio), or in
//! logistic Elo. fishtest adds a dynamic overshoot correction on top; this
//! crate does not, so its decisions are the classical, slightly conservative
//! ones.
//!
//! A test may be *truncated* at a most number of game pairs (Stockfish
//! issue 1859): when the cap is reached without a bound crossed, the sign
//! of the LLR decides (H1 if it is above 0, H0 otherwise), the verdict
//! nearer the evidence. The cap raises both error rates a little above
//! `alpha` and `beta`; [`crate::characteristic`] computes by how much.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::elo::{score_from_elo, NELO_PER_T};
use crate::llr::{llr_expectation, llr_t_value};
use crate::pentanomial::Pentanomial;
use crate::wdl::Wdl;

/// The scale of the SPRT's Elo bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EloModel {
    /// Normalized Elo (fishtest's default, `LLR_normalized`).
    #[default]
    Normalized,
    /// Logistic Elo (`LLR_logistic`).
    Logistic,
}

/// What the test concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtDecision {
    /// Neither bound crossed: play on.
    Continue,
    /// The LLR fell below the lower bound: the change is not worth `elo1`.
    AcceptH0,
    /// The LLR rose above the upper bound: the change is worth at least `elo0`.
    AcceptH1,
}

/// The state of a test after some results.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtStatus {
    /// The log-likelihood ratio of H1 against H0 (0 without results).
    pub llr: f64,
    /// Lower bound, `ln(beta / (1 - alpha))`.
    pub lower: f64,
    /// Upper bound, `ln((1 - beta) / alpha)`.
    pub upper: f64,
    /// The decision these numbers give.
    pub decision: SprtDecision,
    /// True when the decision was forced by the cap on pairs (the sign of
    /// the LLR) rather than by a bound.
    pub truncated: bool,
}

/// Invalid SPRT parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// `alpha` or `beta` is not strictly between 0 and 1, or they sum to 1 or more.
    ErrorRates {
        /// The offending alpha.
        alpha: f64,
        /// The offending beta.
        beta: f64,
    },
    /// The bounds are not finite or `elo0 >= elo1`.
    EloBounds {
        /// The offending elo0.
        elo0: f64,
        /// The offending elo1.
        elo1: f64,
    },
    /// A truncated test with a cap of 0 pairs.
    MaxPairs,
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::ErrorRates { alpha, beta } => write!(
                f,
                "SPRT error rates alpha={alpha}, beta={beta}: each must be in (0, 1) and alpha + beta < 1"
            ),
            SprtError::EloBounds { elo0, elo1 } => write!(
                f,
                "SPRT bounds elo0={elo0}, elo1={elo1}: need finite values with elo0 < elo1"
            ),
            SprtError::MaxPairs => write!(f, "SPRT max_pairs must be at least 1"),
        }
    }
}

impl std::error::Error for SprtError {}

/// A configured SPRT: hypotheses, error rates, Elo model and, for a
/// truncated test, its cap on game pairs.
///
/// Serialized as its five parameters, and `max_pairs` when truncated
/// (`model` may be left out on reading: normalized); reading goes through
/// [`Sprt::new`] and [`Sprt::truncated`], so a test no one can run is
/// refused with its [`SprtError`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "SprtParameters")]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: EloModel,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_pairs: Option<u64>,
}

/// The parameters of an [`Sprt`] as written, before they are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SprtParameters {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    #[serde(default)]
    model: EloModel,
    #[serde(default)]
    max_pairs: Option<u64>,
}

impl TryFrom<SprtParameters> for Sprt {
    type Error = SprtError;

    fn try_from(p: SprtParameters) -> Result<Sprt, SprtError> {
        let sprt = Sprt::new(p.elo0, p.elo1, p.alpha, p.beta, p.model)?;
        match p.max_pairs {
            Some(max) => sprt.truncated(max),
            None => Ok(sprt),
        }
    }
}

impl Sprt {
    /// A test of H0 `elo = elo0` against H1 `elo = elo1`, with false
    /// positive rate `alpha` and false negative rate `beta`.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<Sprt, SprtError> {
        let rate_ok = |x: f64| x > 0.0 && x < 1.0;
        if !(rate_ok(alpha) && rate_ok(beta) && alpha + beta < 1.0) {
            return Err(SprtError::ErrorRates { alpha, beta });
        }
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::EloBounds { elo0, elo1 });
        }
        // Logistic bounds must map to scores strictly inside (0, 1).
        if model == EloModel::Logistic {
            let ok = |e: f64| {
                let s = score_from_elo(e);
                s > 0.0 && s < 1.0
            };
            if !(ok(elo0) && ok(elo1)) {
                return Err(SprtError::EloBounds { elo0, elo1 });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
            max_pairs: None,
        })
    }

    /// The same test, decided by the sign of the LLR once `max_pairs` game
    /// pairs are counted (W/D/L counts: twice as many games) without a
    /// bound crossed.
    pub fn truncated(self, max_pairs: u64) -> Result<Sprt, SprtError> {
        if max_pairs == 0 {
            return Err(SprtError::MaxPairs);
        }
        Ok(Sprt {
            max_pairs: Some(max_pairs),
            ..self
        })
    }

    /// The cap on game pairs of a truncated test.
    pub fn max_pairs(&self) -> Option<u64> {
        self.max_pairs
    }

    /// H0's Elo.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// H1's Elo.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// False positive rate.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// False negative rate.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The Elo model of the bounds.
    pub fn model(&self) -> EloModel {
        self.model
    }

    /// `ln(beta / (1 - alpha))`: below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `ln((1 - beta) / alpha)`: above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The LLR of game-pair counts (fishtest with pentanomial results).
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&p.counts())
    }

    /// The LLR of W/D/L counts (fishtest with trinomial results).
    pub fn llr_trinomial(&self, w: &Wdl) -> f64 {
        self.llr(&[w.losses, w.draws, w.wins])
    }

    /// `counts` from worst to best outcome, 3 or 5 bins.
    fn llr(&self, counts: &[u64]) -> f64 {
        let value = match self.model {
            EloModel::Logistic => {
                llr_expectation(counts, score_from_elo(self.elo0), score_from_elo(self.elo1))
            }
            EloModel::Normalized => {
                // A pair's t-value is sqrt(2) times a game's.
                let k = if counts.len() == 5 {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                llr_t_value(
                    counts,
                    self.elo0 / NELO_PER_T * k,
                    self.elo1 / NELO_PER_T * k,
                )
            }
        };
        // Without results (or with a degenerate solve) there is no evidence.
        value.filter(|x| x.is_finite()).unwrap_or(0.0)
    }

    /// LLR, bounds and decision for game-pair counts.
    pub fn status_pentanomial(&self, p: &Pentanomial) -> SprtStatus {
        self.status_after(self.llr_pentanomial(p), p.pairs())
    }

    /// LLR, bounds and decision for W/D/L counts (a truncated test stops
    /// at twice its cap in games).
    pub fn status_trinomial(&self, w: &Wdl) -> SprtStatus {
        self.status_after(self.llr_trinomial(w), w.games() / 2)
    }

    /// Bounds and decision for a given LLR after `pairs` game pairs: as
    /// [`Sprt::status`], and at the cap of a truncated test the sign of
    /// the LLR.
    pub fn status_after(&self, llr: f64, pairs: u64) -> SprtStatus {
        let status = self.status(llr);
        match self.max_pairs {
            Some(max) if pairs >= max && status.decision == SprtDecision::Continue => SprtStatus {
                decision: if llr > 0.0 {
                    SprtDecision::AcceptH1
                } else {
                    SprtDecision::AcceptH0
                },
                truncated: true,
                ..status
            },
            _ => status,
        }
    }

    /// Bounds and decision for a given LLR, by the bounds alone.
    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = (self.lower_bound(), self.upper_bound());
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
            truncated: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sprt_reads_back_what_it_writes_and_refuses_what_no_test_can_be() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.1, EloModel::Logistic).unwrap();
        let text = serde_json::to_string(&sprt).unwrap();
        assert_eq!(
            text,
            r#"{"elo0":0.0,"elo1":5.0,"alpha":0.05,"beta":0.1,"model":"logistic"}"#
        );
        assert_eq!(serde_json::from_str::<Sprt>(&text).unwrap(), sprt);
        let default_model: Sprt =
            serde_json::from_str(r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.1}"#).unwrap();
        assert_eq!(default_model.model(), EloModel::Normalized);
        let reversed = r#"{"elo0":5,"elo1":0,"alpha":0.05,"beta":0.05}"#;
        let e = serde_json::from_str::<Sprt>(reversed).unwrap_err();
        assert!(
            e.to_string().starts_with("SPRT bounds elo0=5, elo1=0"),
            "{e}"
        );
        let unknown = r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"model":"bayes"}"#;
        assert!(serde_json::from_str::<Sprt>(unknown).is_err());
        let capped = sprt.truncated(300).unwrap();
        let text = serde_json::to_string(&capped).unwrap();
        assert!(
            text.ends_with(r#""model":"logistic","max_pairs":300}"#),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Sprt>(&text).unwrap(), capped);
        let zero = r#"{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"max_pairs":0}"#;
        assert!(serde_json::from_str::<Sprt>(zero).is_err());
    }

    #[test]
    fn a_truncated_test_decides_by_the_sign_of_the_llr_at_its_cap() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        let capped = sprt.truncated(100).unwrap();
        let at = |llr, pairs| {
            let s = capped.status_after(llr, pairs);
            (s.decision, s.truncated)
        };
        assert_eq!(at(0.5, 99), (SprtDecision::Continue, false));
        assert_eq!(at(0.5, 100), (SprtDecision::AcceptH1, true));
        assert_eq!(at(-0.5, 100), (SprtDecision::AcceptH0, true));
        assert_eq!(at(0.0, 100), (SprtDecision::AcceptH0, true));
        assert_eq!(at(3.0, 100), (SprtDecision::AcceptH1, false));
        assert_eq!(
            sprt.status_after(0.5, 1000).decision,
            SprtDecision::Continue
        );
        // W/D/L counts: 2 games a pair.
        let w = Wdl::new(101, 0, 99);
        assert!(capped.status_trinomial(&w).truncated);
        assert!(!capped.status_trinomial(&Wdl::new(100, 0, 99)).truncated);
        assert_eq!(sprt.truncated(0), Err(SprtError::MaxPairs));
    }
}
