//! What a report is asked to do, validated once: anchors, the SPRT of the
//! run, and how much exact analysis to spend on accuracy.

use aboure_stats::{EloModel, Sprt, SprtError};
use serde_json::Value;

/// How to build a [`crate::Report`].
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Pin one bot's rating (`--anchor NAME=ELO`); by default ratings are
    /// centred on 0.
    pub anchor: Option<(String, f64)>,
    /// The SPRT the run was playing, if any (see [`SprtSettings::from_run_json`]).
    pub sprt: Option<SprtSettings>,
    /// The sandbox layers the run was played under, if its `run.json`
    /// says (see [`SandboxLayers::from_run_json`]).
    pub sandbox: Option<SandboxLayers>,
    /// Per-move accuracy from the exact solver; `None` to skip it.
    pub accuracy: Option<AccuracyOptions>,
    /// Most games the HTML page embeds for its game list and viewer; `None`
    /// for [`DEFAULT_VIEWER_GAMES`]. Beyond it the page keeps every forfeit,
    /// then the most recent games, and says how many it left out.
    pub viewer_games: Option<usize>,
}

/// Games the HTML page embeds by default: about 45 MB of page, which a
/// browser opens in seconds. The ratings always count every game.
pub const DEFAULT_VIEWER_GAMES: usize = 10_000;

/// An SPRT between two bots: the test and its hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    /// The configured test.
    pub sprt: Sprt,
}

impl SprtSettings {
    /// Reads the `[sprt]` section of a `run.json` written by `aboure run`.
    ///
    /// Looks for an object with `elo0`, `elo1`, `alpha`, `beta` (and an
    /// optional `model`, `normalized` or `logistic`) under `sprt`,
    /// `config.sprt` or `identity.sprt`. `Ok(None)` when the run is not an
    /// SPRT (no such section, or a `format` other than `sprt`).
    pub fn from_run_json(run: &Value) -> Result<Option<SprtSettings>, RunJsonError> {
        let format = ["format", "/config/format", "/identity/format"]
            .iter()
            .find_map(|k| {
                if k.starts_with('/') {
                    run.pointer(k)
                } else {
                    run.get(k)
                }
            })
            .and_then(Value::as_str);
        if format.is_some_and(|f| f != "sprt") {
            return Ok(None);
        }
        let section = ["/sprt", "/config/sprt", "/identity/sprt"]
            .iter()
            .find_map(|k| run.pointer(k).filter(|v| v.is_object()));
        let Some(section) = section else {
            return Ok(None);
        };
        let number = |key: &'static str| {
            section
                .get(key)
                .and_then(Value::as_f64)
                .ok_or(RunJsonError::SprtNumber { key })
        };
        let model = match section.get("model").and_then(Value::as_str) {
            None | Some("normalized") => EloModel::Normalized,
            Some("logistic") => EloModel::Logistic,
            Some(other) => return Err(RunJsonError::SprtModel(other.to_owned())),
        };
        let sprt = Sprt::new(
            number("elo0")?,
            number("elo1")?,
            number("alpha")?,
            number("beta")?,
            model,
        )
        .map_err(RunJsonError::Sprt)?;
        Ok(Some(SprtSettings { sprt }))
    }
}

/// What is wrong with a `run.json` section the report reads. The message
/// holds the inner error's, so it is not also given as the source.
#[derive(Debug, thiserror::Error)]
pub enum RunJsonError {
    /// The file is not JSON.
    #[error("not valid JSON: {0}")]
    NotJson(serde_json::Error),
    /// An SPRT parameter is absent or not a number.
    #[error("run.json: sprt.{key} is missing or not a number")]
    SprtNumber {
        /// `elo0`, `elo1`, `alpha` or `beta`.
        key: &'static str,
    },
    /// An unknown Elo model.
    #[error("run.json: sprt.model {0:?} is not \"normalized\" or \"logistic\"")]
    SprtModel(String),
    /// SPRT parameters no test can have.
    #[error("run.json: {0}")]
    Sprt(SprtError),
    /// The `sandbox` key is not the layers `aboure run` records.
    #[error("run.json: sandbox: {0}")]
    Sandbox(serde_json::Error),
}

/// The sandbox layers a run was played under, as `aboure run` records
/// them in `run.json` under `sandbox`. Read as plain JSON so the report
/// does not depend on the sandbox crate.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SandboxLayers {
    /// The mode asked for: `auto`, `strict` or `off`.
    pub mode: String,
    /// Every layer, on or off.
    pub layers: Vec<SandboxLayer>,
}

/// One sandbox layer of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SandboxLayer {
    /// Its name, e.g. `landlock`.
    pub name: String,
    /// On for the run.
    pub active: bool,
    /// What it does, or why it was off.
    #[serde(default)]
    pub detail: String,
}

impl SandboxLayers {
    /// Reads the `sandbox` key of a `run.json`: `Ok(None)` when there is
    /// none (runs from before it was recorded).
    pub fn from_run_json(run: &Value) -> Result<Option<SandboxLayers>, RunJsonError> {
        let Some(value) = run.get("sandbox").filter(|v| !v.is_null()) else {
            return Ok(None);
        };
        serde_json::from_value(value.clone())
            .map(Some)
            .map_err(RunJsonError::Sandbox)
    }
}

impl std::fmt::Display for SandboxLayers {
    /// `mode auto; on: landlock, seccomp; off: cgroup-memory (why)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.mode == "off" {
            return write!(f, "mode off: bots ran as plain processes");
        }
        let (on, off): (Vec<&SandboxLayer>, Vec<&SandboxLayer>) =
            self.layers.iter().partition(|l| l.active);
        let on: Vec<&str> = on.iter().map(|l| l.name.as_str()).collect();
        write!(f, "mode {}; on: {}", self.mode, on.join(", "))?;
        if !off.is_empty() {
            let off: Vec<String> = off
                .iter()
                .map(|l| format!("{} ({})", l.name, l.detail))
                .collect();
            write!(f, "; off: {}", off.join(", "))?;
        }
        Ok(())
    }
}

/// Bounds on the exact analysis behind accuracy figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccuracyOptions {
    /// Solver nodes the whole analysis may spend; games not analysed when it
    /// runs out are counted as skipped.
    pub node_budget: u64,
    /// Transposition table size in megabytes, shared out between the
    /// worker threads (each keeps one table for all its positions).
    pub table_mb: usize,
    /// Worker threads; 0 for one per core.
    pub threads: usize,
    /// Most games whose per-move analysis the report holds (every forfeit,
    /// then the most recent, as the page's games); the figures per bot
    /// count every game. The HTML page holds at least its own games'.
    pub games: usize,
}

/// Games whose per-move analysis a report holds by default: about 6 MB of
/// JSON. The per-bot figures always count every game.
pub const DEFAULT_ACCURACY_GAMES: usize = 1_000;

impl Default for AccuracyOptions {
    fn default() -> Self {
        AccuracyOptions {
            node_budget: 100_000_000,
            table_mb: 64,
            threads: 0,
            games: DEFAULT_ACCURACY_GAMES,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_layers_read_from_run_json() {
        let run = serde_json::json!({"sandbox": {"mode": "off", "layers": [
            {"name": "landlock", "active": false, "detail": "sandbox off"}
        ]}});
        let layers = SandboxLayers::from_run_json(&run).unwrap().unwrap();
        assert_eq!(layers.to_string(), "mode off: bots ran as plain processes");
        assert_eq!(
            SandboxLayers::from_run_json(&serde_json::json!({})).unwrap(),
            None
        );
        let bad = serde_json::json!({"sandbox": {"mode": 3}});
        let e = SandboxLayers::from_run_json(&bad).unwrap_err();
        assert!(matches!(e, RunJsonError::Sandbox(_)), "{e:?}");
        assert!(e.to_string().starts_with("run.json: sandbox: "), "{e}");
    }

    #[test]
    fn sprt_errors_say_which_key() {
        let run = |sprt| serde_json::json!({"format": "sprt", "sprt": sprt});
        let missing = SprtSettings::from_run_json(&run(serde_json::json!(
            {"elo0": 0, "elo1": 5, "alpha": 0.05}
        )))
        .unwrap_err();
        assert!(
            matches!(missing, RunJsonError::SprtNumber { key: "beta" }),
            "{missing:?}"
        );
        assert_eq!(
            missing.to_string(),
            "run.json: sprt.beta is missing or not a number"
        );
        let model = SprtSettings::from_run_json(&run(serde_json::json!(
            {"elo0": 0, "elo1": 5, "alpha": 0.05, "beta": 0.05, "model": "bayes"}
        )))
        .unwrap_err();
        assert!(
            matches!(model, RunJsonError::SprtModel(ref m) if m == "bayes"),
            "{model:?}"
        );
        let bounds = SprtSettings::from_run_json(&run(serde_json::json!(
            {"elo0": 5, "elo1": 0, "alpha": 0.05, "beta": 0.05}
        )))
        .unwrap_err();
        assert!(
            matches!(bounds, RunJsonError::Sprt(SprtError::EloBounds { .. })),
            "{bounds:?}"
        );
    }
}
