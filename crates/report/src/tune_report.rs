//! The report of a tune's folder (`aboure report DIR` where `aboure tune`
//! wrote): each parameter's path and the objective over the iterations, as
//! text, JSON and an HTML page of line charts. One model, three formatters,
//! as for tournaments. A tune still running is reported as far as
//! `tune-path.jsonl` goes.

use std::fmt::Write;
use std::path::Path;

use aboure_records::{read_tune_path, TuneConfirm, TuneFile, TuneFileError, TuneStep};
use serde::Serialize;

use crate::escape::esc;
use crate::plot::{line_plot, Reference};

/// One parameter's path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParameterPath {
    /// The option's name.
    pub name: String,
    /// Where the tune started.
    pub start: f64,
    /// Its range.
    pub min: f64,
    /// Its range.
    pub max: f64,
    /// Theta after each iteration.
    pub path: Vec<f64>,
}

/// A tune, as reported.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneReport {
    /// The tuned bot.
    pub bot: String,
    /// `games` or `accuracy`.
    pub objective: String,
    /// Iterations written.
    pub iterations: usize,
    /// Iterations the budget allows, if the file says.
    pub planned: Option<u32>,
    /// Games played.
    pub games: u64,
    /// Each parameter's path.
    pub parameters: Vec<ParameterPath>,
    /// The objective after each iteration: the minus point's seeds lost a
    /// move (accuracy), or the running mean of the gain (games).
    pub objective_path: Vec<f64>,
    /// The final values, once the tune has finished.
    pub values: Vec<(String, f64)>,
    /// The confirming SPRT.
    pub confirm: Option<TuneConfirm>,
}

/// Whether `dir` is a tune's output folder.
pub fn is_tune_folder(dir: &Path) -> bool {
    dir.join(aboure_records::TUNE_FILE).is_file()
}

impl TuneReport {
    /// The tune in `dir`: `tune.json`, with the path as far as
    /// `tune-path.jsonl` goes if the tune is still running.
    pub fn load(dir: &Path) -> Result<TuneReport, TuneFileError> {
        let file = TuneFile::read_in(dir)?.ok_or_else(|| TuneFileError::Malformed {
            path: dir.join(aboure_records::TUNE_FILE),
            line: 0,
            message: "no such file: not a tune's folder".to_owned(),
        })?;
        let path = read_tune_path(dir)?;
        Ok(TuneReport::of(
            &file,
            if path.len() > file.path.len() {
                &path
            } else {
                &file.path
            },
        ))
    }

    /// The report of `file` with the steps `path`.
    pub fn of(file: &TuneFile, path: &[TuneStep]) -> TuneReport {
        let parameters = file
            .parameters
            .iter()
            .enumerate()
            .map(|(i, p)| ParameterPath {
                name: p.name.clone(),
                start: p.start,
                min: p.min,
                max: p.max,
                path: path
                    .iter()
                    .map(|s| s.theta.get(i).copied().unwrap_or(f64::NAN))
                    .collect(),
            })
            .collect();
        let objective_path = if file.objective == "accuracy" {
            path.iter().map(|s| s.loss.unwrap_or(f64::NAN)).collect()
        } else {
            let mut sum = 0.0;
            path.iter()
                .enumerate()
                .map(|(i, s)| {
                    sum += s.gain;
                    sum / (i + 1) as f64
                })
                .collect()
        };
        TuneReport {
            bot: file.bot.clone(),
            objective: file.objective.clone(),
            iterations: path.len(),
            planned: file.iterations,
            games: path.iter().map(|s| s.games).sum(),
            parameters,
            objective_path,
            values: file.values.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            confirm: file.confirm.clone(),
        }
    }

    /// ` of N` while the tune is short of its budget of N iterations.
    fn of_planned(&self) -> String {
        match self.planned {
            Some(n) if (n as usize) > self.iterations => format!(" of {n}"),
            _ => String::new(),
        }
    }

    fn objective_words(&self) -> &'static str {
        if self.objective == "accuracy" {
            "seeds lost a move (the minus point, against the solver)"
        } else {
            "mean gain (wins minus losses of the plus point a pair)"
        }
    }

    /// The report as text.
    pub fn text(&self) -> String {
        let mut out = format!(
            "tune of {} by {}: {} iterations{}, {} games\n",
            self.bot,
            self.objective,
            self.iterations,
            self.of_planned(),
            self.games
        );
        for p in &self.parameters {
            let last = p.path.last().copied().unwrap_or(p.start);
            let _ = writeln!(
                out,
                "  {}: {} -> {last:.2} (range {}..={})",
                p.name, p.start, p.min, p.max
            );
        }
        if let (Some(first), Some(last)) = (self.objective_path.first(), self.objective_path.last())
        {
            let _ = writeln!(out, "  {}: {first:.3} -> {last:.3}", self.objective_words());
        }
        for (name, value) in &self.values {
            let _ = writeln!(out, "{name} = {value}");
        }
        if let Some(c) = &self.confirm {
            let _ = writeln!(
                out,
                "confirm: {} after {} games: {}",
                c.verdict, c.games, c.description
            );
        }
        out
    }

    /// The report as JSON.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serialises") + "\n"
    }

    /// The report as one self-contained HTML page.
    pub fn html(&self) -> String {
        let mut out = String::new();
        self.write_html(&mut out)
            .expect("writing to a String cannot fail");
        out
    }

    fn write_html(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<title>aboure tune: {}</title>\n<style>{}</style></head><body>", esc(&self.bot), crate::html::CSS)?;
        writeln!(out, "<header><h1>aboure tune</h1><p class=\"summary\">{} by {}: {} iterations{}, {} games</p></header><main>",
            esc(&self.bot), esc(&self.objective), self.iterations, self.of_planned(), self.games)?;
        for p in &self.parameters {
            writeln!(
                out,
                "<section id=\"parameter-{0}\"><h2>{0}</h2>",
                esc(&p.name)
            )?;
            let mut references = vec![Reference {
                value: p.start,
                class: "grid zero",
                label: format!("start {}", p.start),
            }];
            references.extend(p.path.last().map(|&v| Reference {
                value: v,
                class: "grid",
                label: format!("{v:.1}"),
            }));
            line_plot(
                out,
                &format!("path-{}", p.name),
                Some(p.start),
                &p.path,
                &references,
                "iterations",
                &format!(
                    "{} after each iteration, from its start {} (range {}..={}).",
                    p.name, p.start, p.min, p.max
                ),
            )?;
            writeln!(out, "</section>")?;
        }
        writeln!(out, "<section id=\"objective\"><h2>Objective</h2>")?;
        let ends: Vec<Reference> = [self.objective_path.first(), self.objective_path.last()]
            .into_iter()
            .flatten()
            .filter(|v| v.is_finite())
            .map(|&v| Reference {
                value: v,
                class: "grid",
                label: format!("{v:.3}"),
            })
            .collect();
        line_plot(
            out,
            "objective-plot",
            None,
            &self.objective_path,
            &ends,
            "iterations",
            &format!(
                "The objective after each iteration: {}.",
                self.objective_words()
            ),
        )?;
        writeln!(out, "</section>")?;
        if !self.values.is_empty() {
            writeln!(out, "<section id=\"values\"><h2>Values</h2><pre>")?;
            for (name, value) in &self.values {
                writeln!(out, "{} = {value}", esc(name))?;
            }
            writeln!(out, "</pre></section>")?;
        }
        if let Some(c) = &self.confirm {
            writeln!(out, "<section id=\"confirm\"><h2>Confirmation</h2><p><b>{}</b> after {} games: {}</p></section>", esc(&c.verdict), c.games, esc(&c.description))?;
        }
        writeln!(out, "</main><footer>Made by <code>aboure report</code> from a folder of <code>aboure tune</code>.</footer></body></html>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_records::TunedParameter;
    use std::collections::BTreeMap;

    fn step(i: u32, theta: f64, gain: f64) -> TuneStep {
        TuneStep {
            iteration: i,
            delta: vec![1.0],
            c: vec![10.0],
            plus: vec![theta + 10.0],
            minus: vec![theta - 10.0],
            gain,
            loss: None,
            games: 2,
            seconds: 0.1,
            theta: vec![theta],
            theta_bits: vec![theta.to_bits()],
        }
    }

    #[test]
    fn the_three_forms_show_the_path_and_the_objective() {
        let file = TuneFile {
            schema: 1,
            bot: "ab".into(),
            objective: "games".into(),
            seed: 1,
            iterations: Some(4),
            parameters: vec![TunedParameter {
                name: "w".into(),
                start: -50.0,
                min: -100.0,
                max: 100.0,
                step: 10.0,
            }],
            path: vec![
                step(1, -40.0, 2.0),
                step(2, -35.0, 0.0),
                step(3, -20.0, 1.0),
            ],
            values: BTreeMap::from([("w".to_owned(), -20.0)]),
            confirm: None,
        };
        let r = TuneReport::of(&file, &file.path);
        assert_eq!(r.parameters[0].path, [-40.0, -35.0, -20.0]);
        assert_eq!(r.objective_path, [2.0, 1.0, 1.0]);
        assert_eq!(r.games, 6);
        let text = r.text();
        assert!(
            text.starts_with("tune of ab by games: 3 iterations of 4, 6 games\n"),
            "{text}"
        );
        assert!(
            text.contains("w: -50 -> -20.00 (range -100..=100)"),
            "{text}"
        );
        assert!(text.ends_with("w = -20\n"), "{text}");
        let json: serde_json::Value = serde_json::from_str(&r.json()).unwrap();
        assert_eq!(json["objective_path"][1], 1.0);
        let html = r.html();
        let chart = &html[html.find("id=\"path-w\"").unwrap()..];
        let chart = &chart[..chart.find("</svg>").unwrap()];
        let points = chart.split("points=\"").nth(1).unwrap();
        let points = &points[..points.find('"').unwrap()];
        assert_eq!(
            points.split(' ').count(),
            4,
            "the start and one point an iteration"
        );
        assert!(html.contains("id=\"objective-plot\""));
    }
}
