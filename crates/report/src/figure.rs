//! Head-to-head numbers in the form every output prints: a value and a 95%
//! interval that may be missing, and a word for the infinite cases, so that
//! JSON never holds `inf` or `NaN` and text never prints them.

use aboure_stats::{Estimate, HeadToHead};
use serde::Serialize;

/// An Elo-like figure with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Figure {
    /// The estimate; `null` when infinite or undefined.
    pub value: Option<f64>,
    /// Lower end of the 95% interval, `null` when unbounded or undefined.
    pub low: Option<f64>,
    /// Upper end of the 95% interval, `null` when unbounded or undefined.
    pub high: Option<f64>,
    /// `"+inf"` (every point scored), `"-inf"` (none), `"undefined"`, or
    /// `null` for a finite value.
    pub special: Option<&'static str>,
}

impl From<Estimate> for Figure {
    fn from(e: Estimate) -> Figure {
        let special = |s| Figure {
            value: None,
            low: None,
            high: None,
            special: Some(s),
        };
        match e {
            Estimate::Finite(i) => Figure {
                value: Some(i.value),
                low: i.lower,
                high: i.upper,
                special: None,
            },
            Estimate::PlusInfinity => special("+inf"),
            Estimate::MinusInfinity => special("-inf"),
            Estimate::Undefined => special("undefined"),
        }
    }
}

/// `x` with a sign and one decimal, never `-0.0`.
pub(crate) fn signed(x: f64) -> String {
    let rounded = (x * 10.0).round() / 10.0;
    if rounded == 0.0 {
        "+0.0".to_owned()
    } else {
        format!("{rounded:+.1}")
    }
}

impl Figure {
    /// `+12.3 [-4.0, +28.6]`, or the word for a missing value.
    pub fn text(&self) -> String {
        match (self.value, self.special) {
            (Some(v), _) => {
                let end = |x: Option<f64>| x.map_or("unbounded".to_owned(), signed);
                format!("{} [{}, {}]", signed(v), end(self.low), end(self.high))
            }
            (None, Some("+inf")) => "+infinity (every point scored)".to_owned(),
            (None, Some("-inf")) => "-infinity (no point scored)".to_owned(),
            _ => "undefined".to_owned(),
        }
    }
}

impl Figure {
    /// Like [`Figure::text`], with `+∞` and `−∞` for the infinite cases.
    pub fn short(&self) -> String {
        match (self.value, self.special) {
            (None, Some("+inf")) => "+∞".to_owned(),
            (None, Some("-inf")) => "−∞".to_owned(),
            _ => self.text(),
        }
    }
}

/// Score, Elo, nElo and LOS of one side of a pairing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeadToHeadFigures {
    /// Games counted (twice the pairs for pentanomial figures).
    pub games: u64,
    /// Mean score per game, `null` without games.
    pub score: Option<f64>,
    /// Draws per game (trinomial) or pairs scoring exactly 1 of 2 (pentanomial).
    pub draw_ratio: Option<f64>,
    /// Logistic Elo.
    pub elo: Figure,
    /// Normalized Elo.
    pub nelo: Figure,
    /// Likelihood of superiority, `null` when there is no variance.
    pub los: Option<f64>,
}

impl From<HeadToHead> for HeadToHeadFigures {
    fn from(h: HeadToHead) -> HeadToHeadFigures {
        HeadToHeadFigures {
            games: h.games,
            score: h.score,
            draw_ratio: h.draw_ratio,
            elo: h.elo.into(),
            nelo: h.nelo.into(),
            los: h.los,
        }
    }
}
