//! A tune's output folder on the live page (`aboure serve DIR` where
//! `aboure tune` writes): `tune.json`, written when the tune starts and
//! again at its end, and `tune-path.jsonl`, one line an iteration.
//!
//! The page's sections are the report's own ([`TuneReport`]: each
//! parameter's path and the objective, as line charts, then the values and
//! the confirming SPRT once there), so the live page and `aboure report`
//! never draw a tune differently. The live panel adds what a tune being
//! watched needs: the iterations done of the budget, theta with its trend,
//! and whether the tune is still iterating, confirming or finished.
//!
//! A poll only compares the two files' sizes and times; the report is
//! built again from the files when one changed (a path of a few thousand
//! lines reads in milliseconds).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use aboure_records::{TUNE_FILE, TUNE_PATH_FILE};
use aboure_report::TuneReport;
use serde_json::{json, Value};

use crate::live::{body_of, Snapshot};
use crate::page::esc;

/// Iterations the trend of a parameter spans, as `aboure tune`'s progress
/// lines count it.
pub const TREND: usize = 10;

/// Size and modification time of a file, or `None` if it is not there.
type Stamp = Option<(u64, SystemTime)>;

/// One tune's folder, as last read.
#[derive(Debug)]
pub struct LiveTune {
    dir: PathBuf,
    /// The stamps of `tune.json` and `tune-path.jsonl` when last read.
    stamps: [Stamp; 2],
}

impl LiveTune {
    /// Follows the tune in `dir` (read at the first poll).
    pub fn new(dir: &Path) -> LiveTune {
        LiveTune {
            dir: dir.to_owned(),
            stamps: [None, None],
        }
    }

    /// Whether either file changed since the last poll.
    pub fn poll(&mut self) -> bool {
        let stamp = |name: &str| {
            let meta = std::fs::metadata(self.dir.join(name)).ok()?;
            Some((meta.len(), meta.modified().ok()?))
        };
        let now = [stamp(TUNE_FILE), stamp(TUNE_PATH_FILE)];
        let changed = now != self.stamps;
        self.stamps = now;
        changed
    }

    /// The report's sections and the live figures of the tune as its files
    /// now are; a file that cannot be read is said on the page instead.
    pub fn snapshot(&self) -> Snapshot {
        match TuneReport::load(&self.dir) {
            Ok(report) => Snapshot {
                live: json!({ "tune": self.figures(&report) }),
                body: body_of(&report.html()),
            },
            Err(e) => Snapshot {
                live: json!({ "tune": { "error": e.to_string() } }),
                body: format!(
                    "<main><p class=\"problem\">{}</p></main>",
                    esc(&e.to_string())
                ),
            },
        }
    }

    fn figures(&self, report: &TuneReport) -> Value {
        tune_figures(report, self.dir.join("confirm").is_dir())
    }
}

/// The live panel's figures of `report`; `confirm_started`: the confirming
/// SPRT's folder exists.
pub fn tune_figures(report: &TuneReport, confirm_started: bool) -> Value {
    let theta: Vec<Value> = report
        .parameters
        .iter()
        .map(|p| {
            let value = p.path.last().copied().unwrap_or(p.start);
            // Over the last TREND iterations, or from the start if fewer.
            let n = p.path.len();
            let (old, span) = match n {
                0 => (None, 0),
                n if n > TREND => (Some(p.path[n - 1 - TREND]), TREND),
                n => (Some(p.start), n),
            };
            json!({
                "name": p.name, "value": value, "start": p.start,
                "min": p.min, "max": p.max,
                "trend": old.map(|o| value - o), "span": span,
            })
        })
        .collect();
    let finished = !report.values.is_empty();
    let state = match (finished, confirm_started) {
        (true, _) => "finished",
        (false, true) => "confirming",
        (false, false) => "running",
    };
    let objective = report
        .objective_path
        .last()
        .copied()
        .filter(|v| v.is_finite());
    json!({
        "bot": report.bot,
        "objective": report.objective,
        "iteration": report.iterations,
        "planned": report.planned,
        "games": report.games,
        "state": state,
        "theta": theta,
        "objective_value": objective,
        "values": report.values,
        "confirm": report.confirm.as_ref().map(|c| json!({
            "verdict": c.verdict, "games": c.games, "description": c.description,
        })),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_report::ParameterPath;

    fn report(path: Vec<f64>, values: Vec<(String, f64)>) -> TuneReport {
        TuneReport {
            bot: "ab".into(),
            objective: "accuracy".into(),
            iterations: path.len(),
            planned: Some(20),
            games: 0,
            objective_path: vec![0.5; path.len()],
            parameters: vec![ParameterPath {
                name: "w".into(),
                start: -50.0,
                min: -100.0,
                max: 100.0,
                path,
            }],
            values,
            confirm: None,
        }
    }

    #[test]
    fn the_trend_spans_the_last_ten_iterations_or_all_of_them() {
        let f = tune_figures(&report(vec![-40.0, -30.0], vec![]), false);
        assert_eq!(f["theta"][0]["trend"], 20.0);
        assert_eq!(f["theta"][0]["span"], 2);
        assert_eq!(f["state"], "running");
        let long: Vec<f64> = (1..=15).map(f64::from).collect();
        let f = tune_figures(&report(long, vec![]), true);
        // 15 after iteration 15, 5 after iteration 5.
        assert_eq!(f["theta"][0]["trend"], 10.0);
        assert_eq!(f["theta"][0]["span"], 10);
        assert_eq!(f["state"], "confirming");
        assert_eq!(f["planned"], 20);
        let f = tune_figures(&report(vec![], vec![]), false);
        assert!(f["theta"][0]["trend"].is_null());
        assert_eq!(f["theta"][0]["value"], -50.0);
        let f = tune_figures(&report(vec![1.0], vec![("w".into(), 1.0)]), true);
        assert_eq!(f["state"], "finished");
    }

    #[test]
    fn a_poll_sees_each_new_iteration_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let mut tune = LiveTune::new(dir.path());
        assert!(!tune.poll(), "nothing there, nothing changed");
        let snap = tune.snapshot();
        assert!(snap.live["tune"]["error"].is_string(), "{}", snap.live);
        std::fs::write(dir.path().join(TUNE_FILE), "{").unwrap();
        assert!(tune.poll());
        assert!(!tune.poll());
        std::fs::write(dir.path().join(TUNE_PATH_FILE), "\n").unwrap();
        assert!(tune.poll());
        let snap = tune.snapshot();
        assert!(snap.body.contains("tune.json"), "{}", snap.body);
    }
}
