//! `[sprt]`: the hypotheses, error rates, Elo model and cap (`max-pairs`,
//! a truncated test) of an SPRT, validated into the statistics crate's
//! [`Sprt`], so a run has its test before it starts.

use aboure_stats::{EloModel, Sprt};
use serde::Deserialize;
use toml::Spanned;

use super::Validator;
use crate::error::ConfigError;

#[derive(Deserialize, Default, Clone)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawSprt {
    elo0: Option<Spanned<f64>>,
    elo1: Option<Spanned<f64>>,
    alpha: Option<Spanned<f64>>,
    beta: Option<Spanned<f64>>,
    model: Option<Spanned<String>>,
    max_pairs: Option<Spanned<i64>>,
}

impl RawSprt {
    /// The user's table over the base layer's, key by key.
    pub(super) fn over(self, base: RawSprt) -> RawSprt {
        RawSprt {
            elo0: self.elo0.or(base.elo0),
            elo1: self.elo1.or(base.elo1),
            alpha: self.alpha.or(base.alpha),
            beta: self.beta.or(base.beta),
            model: self.model.or(base.model),
            max_pairs: self.max_pairs.or(base.max_pairs),
        }
    }
}

/// The base layer's `[sprt]` table alone (the rest of the base layer is
/// read with the whole file).
#[derive(Deserialize, Default)]
struct BaseSprt {
    #[serde(default)]
    sprt: RawSprt,
}

impl Validator<'_> {
    /// The test of `raw` (the user's `[sprt]`, or a tune's `[tune.confirm]`)
    /// over the base layer's `[sprt]`, whose cap may not exceed the
    /// schedule's `pairs` (the schedule would end first, with no verdict).
    pub(super) fn sprt(&self, raw: &RawSprt, pairs: u32) -> Result<Sprt, ConfigError> {
        let base: BaseSprt = self.base_layer()?;
        let raw = &raw.clone().over(base.sprt);
        let get = |v: &Option<Spanned<f64>>, key: &str| self.required(v, key).map(|x| *x.get_ref());
        let (elo0, elo1) = (get(&raw.elo0, "sprt.elo0")?, get(&raw.elo1, "sprt.elo1")?);
        let (alpha, beta) = (get(&raw.alpha, "sprt.alpha")?, get(&raw.beta, "sprt.beta")?);
        let model = self.choice(
            self.required(&raw.model, "sprt.model")?,
            "sprt.model",
            &[
                ("normalized", EloModel::Normalized),
                ("logistic", EloModel::Logistic),
            ],
        )?;
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
        if elo0 >= elo1 {
            let given = self.given(&raw.elo1).or(self.given(&raw.elo0));
            let span = given.map(|v| v.span());
            let msg = format!("elo0 ({elo0}) must be less than elo1 ({elo1})");
            return Err(match span {
                Some(span) => self.at(span, "sprt.elo1", msg),
                None => self.whole("sprt", msg),
            });
        }
        // The checks above leave Sprt::new nothing to refuse; should they
        // drift apart, its reason is still an error of the table.
        let sprt = Sprt::new(elo0, elo1, alpha, beta, model)
            .map_err(|e| self.whole("sprt", e.to_string()))?;
        let Some(max) = &raw.max_pairs else {
            return Ok(sprt);
        };
        let cap = self.range(max, "sprt.max-pairs", 1, 1_000_000)?;
        if cap > i64::from(pairs) {
            return Err(self.at(
                max.span(),
                "sprt.max-pairs",
                format!("{cap} exceeds tournament.pairs ({pairs}): the schedule would end first, with no verdict"),
            ));
        }
        sprt.truncated(cap as u64)
            .map_err(|e| self.at(max.span(), "sprt.max-pairs", e.to_string()))
    }
}
