//! `[sprt]`: the hypotheses, error rates and Elo model of an SPRT.

use serde::Deserialize;
use toml::Spanned;

use super::{defaults, Validator};
use crate::error::ConfigError;

/// The hypotheses and error rates of an SPRT, as validated (elo0 below
/// elo1, error rates between 0 and 0.5).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SprtConfig {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: SprtModel,
}

impl SprtConfig {
    /// Elo under the null hypothesis.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// Elo under the alternative.
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

    /// `normalized` or `logistic` Elo.
    pub fn model(&self) -> SprtModel {
        self.model
    }
}

/// Which Elo the SPRT bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtModel {
    /// Normalized Elo (fishtest's default).
    Normalized,
    /// Classic logistic Elo.
    Logistic,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawSprt {
    elo0: Option<Spanned<f64>>,
    elo1: Option<Spanned<f64>>,
    alpha: Option<Spanned<f64>>,
    beta: Option<Spanned<f64>>,
    model: Option<Spanned<String>>,
}

impl Validator<'_> {
    pub(super) fn sprt(&self, raw: &RawSprt) -> Result<SprtConfig, ConfigError> {
        let get =
            |v: &Option<Spanned<f64>>, default: f64| v.as_ref().map_or(default, |x| *x.get_ref());
        let s = SprtConfig {
            elo0: get(&raw.elo0, defaults::ELO0),
            elo1: get(&raw.elo1, defaults::ELO1),
            alpha: get(&raw.alpha, defaults::ALPHA),
            beta: get(&raw.beta, defaults::BETA),
            model: match &raw.model {
                None => SprtModel::Normalized,
                Some(m) => match m.get_ref().as_str() {
                    "normalized" => SprtModel::Normalized,
                    "logistic" => SprtModel::Logistic,
                    other => {
                        return Err(self.at(
                            m.span(),
                            "sprt.model",
                            format!("{other:?} is not \"normalized\" or \"logistic\""),
                        ))
                    }
                },
            },
        };
        for (value, key) in [(&raw.alpha, "sprt.alpha"), (&raw.beta, "sprt.beta")] {
            if let Some(v) = value {
                let x = *v.get_ref();
                if !(x > 0.0 && x < 0.5) {
                    return Err(self.at(v.span(), key, format!("{x} must be between 0 and 0.5")));
                }
            }
        }
        for (value, key) in [(&raw.elo0, "sprt.elo0"), (&raw.elo1, "sprt.elo1")] {
            if let Some(v) = value {
                if !v.get_ref().is_finite() || v.get_ref().abs() > 1000.0 {
                    return Err(self.at(v.span(), key, "must be a number between -1000 and 1000"));
                }
            }
        }
        if s.elo0 >= s.elo1 {
            let span = raw.elo1.as_ref().or(raw.elo0.as_ref()).map(|v| v.span());
            let msg = format!("elo0 ({}) must be less than elo1 ({})", s.elo0, s.elo1);
            return Err(match span {
                Some(span) => self.at(span, "sprt.elo1", msg),
                None => self.whole("sprt", msg),
            });
        }
        Ok(s)
    }
}
