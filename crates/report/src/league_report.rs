//! A league's part of the report: the leaderboard with when each entrant
//! joined and whether it retired, the stopping verdict, and each
//! entrant's rating over time.
//!
//! A league that stops on anytime intervals (`intervals = "anytime"`) looked
//! at its table after every pair, so a fixed-sample 95% interval does not
//! hold at its stop; its leaderboard adds each entrant's anytime interval
//! (the standings' interval widened to the normal-mixture confidence
//! sequence, [`aboure_stats::confidence_sequence`]), named as such.
//!
//! The entrants and the verdict come from the league's `run.json`
//! ([`aboure_records::LeagueRecord`]); the ratings are the report's own
//! (the full refit). Ratings over time are refits of the results as they
//! stood at checkpoints of the reading: the tally keeps the small
//! results-by-colour matrix every `step` games, and when more than
//! [`MOST_CHECKPOINTS`] pile up keeps every other one and doubles the step,
//! so a league of any length costs a bounded number of matrices and refits.

use std::fmt::Write;

use aboure_records::{LeagueIntervals, LeagueRecord, LeagueVerdict};
use aboure_stats::confidence_sequence::{normal_mixture, LEAGUE_TUNED_AT};
use aboure_stats::Wdl;
use serde::Serialize;

use crate::escape::esc;
use crate::options::IntervalKind;
use crate::player_line::PlayerLine;
use crate::ratings::{rate, IntervalSource};

/// Checkpoints of the rating history kept at most.
pub const MOST_CHECKPOINTS: usize = 64;

/// The first step between checkpoints, in games.
const FIRST_STEP: u64 = 4;

/// The results matrix at checkpoints of the reading (kept by the tally).
#[derive(Clone, Debug)]
pub(crate) struct RatingHistory {
    step: u64,
    checkpoints: Vec<(u64, Vec<Vec<Wdl>>)>,
}

impl Default for RatingHistory {
    fn default() -> Self {
        RatingHistory {
            step: FIRST_STEP,
            checkpoints: Vec::new(),
        }
    }
}

impl RatingHistory {
    /// After the `games`th game counted, with the results then.
    pub fn counted(&mut self, games: u64, results: &[Vec<Wdl>]) {
        if !games.is_multiple_of(self.step) {
            return;
        }
        self.checkpoints.push((games, results.to_vec()));
        if self.checkpoints.len() > MOST_CHECKPOINTS {
            self.step *= 2;
            let step = self.step;
            self.checkpoints.retain(|(g, _)| g.is_multiple_of(step));
        }
    }

    /// Each checkpoint's ratings (and the final results'), by name, fitted
    /// with the report's `prior`.
    fn points(
        &self,
        names: &[String],
        last: (u64, &[Vec<Wdl>]),
        prior: Option<f64>,
    ) -> Vec<(u64, Vec<Option<f64>>)> {
        let mut all: Vec<(u64, &[Vec<Wdl>])> = self
            .checkpoints
            .iter()
            .map(|(g, r)| (*g, r.as_slice()))
            .collect();
        if all.last().is_none_or(|(g, _)| *g != last.0) {
            all.push(last);
        }
        all.into_iter()
            .map(|(games, results)| {
                let n = results.len();
                let counts: Vec<Wdl> = (0..n)
                    .flat_map(|i| (0..n).map(move |j| (i, j)))
                    .map(|(i, j)| results[i].get(j).copied().unwrap_or_default())
                    .collect();
                let rated = rate(
                    &names[..n],
                    &counts,
                    (&[], &[]),
                    IntervalSource::Fit(IntervalKind::Covariance),
                    prior,
                );
                let mut elo: Vec<Option<f64>> = rated.elo.iter().map(|e| e.map(|e| e.0)).collect();
                elo.resize(names.len(), None);
                (games, elo)
            })
            .collect()
    }
}

/// A league's section of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeagueReport {
    /// The entrants, best first (as the standings), then those without a
    /// game.
    pub entrants: Vec<LeagueEntrant>,
    /// The intervals its verdicts use (`anytime`; absent for fixed ones).
    #[serde(skip_serializing_if = "LeagueIntervals::is_fixed")]
    pub intervals: LeagueIntervals,
    /// Why the league last stopped, if it has.
    pub verdict: Option<LeagueVerdict>,
    /// Ratings over time: after `games` games, each entrant's rating (in
    /// the order of `entrants`; `null` before it was rated).
    pub history: Vec<HistoryPoint>,
}

/// One entrant of the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeagueEntrant {
    /// Its bot name.
    pub name: String,
    /// Its rank in the standings, if it played.
    pub rank: Option<usize>,
    /// Its rating, if rated.
    pub elo: Option<f64>,
    /// With anytime intervals, its anytime 95% interval (low, high).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anytime: Option<(f64, f64)>,
    /// The pair number it joined at (0: a founder).
    pub joined: u64,
    /// When the run it joined in started.
    pub joined_at: String,
    /// The pair number it retired from, if retired.
    pub retired_from: Option<u64>,
}

/// The ratings after some games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryPoint {
    /// Games counted.
    pub games: u64,
    /// Each entrant's rating then.
    pub elo: Vec<Option<f64>>,
}

/// The anytime 95% interval of a rating whose fixed-sample 95% interval is
/// `low` to `high` (symmetric, from the covariance).
pub fn anytime_interval(elo: f64, low: f64, high: f64) -> (f64, f64) {
    let sigma = (high - low) / (2.0 * 1.959_964);
    let half = normal_mixture(0.05, sigma, LEAGUE_TUNED_AT) * sigma;
    (elo - half, elo + half)
}

/// The league's section from its record, the standings and the history
/// (refitted with `prior`, as the standings were).
pub(crate) fn league_report(
    record: &LeagueRecord,
    players: &[PlayerLine],
    names: &[String],
    history: &RatingHistory,
    last: (u64, &[Vec<Wdl>]),
    prior: Option<f64>,
) -> LeagueReport {
    let mut order: Vec<&aboure_records::EntrantRecord> = record.entrants.iter().collect();
    let rank = |name: &str| players.iter().find(|p| p.name == name);
    order.sort_by_key(|e| rank(&e.name).map_or(usize::MAX, |p| p.rank));
    let anytime = |p: &PlayerLine| match (record.intervals, p.elo, p.elo_low, p.elo_high) {
        (LeagueIntervals::Anytime, Some(e), Some(l), Some(h)) => Some(anytime_interval(e, l, h)),
        _ => None,
    };
    let entrants: Vec<LeagueEntrant> = order
        .iter()
        .map(|e| LeagueEntrant {
            name: e.name.clone(),
            rank: rank(&e.name).map(|p| p.rank),
            elo: rank(&e.name).and_then(|p| p.elo),
            anytime: rank(&e.name).and_then(anytime),
            joined: e.joined,
            joined_at: e.joined_at.clone(),
            retired_from: e.retired_from,
        })
        .collect();
    let history = history
        .points(names, last, prior)
        .into_iter()
        .map(|(games, elo)| HistoryPoint {
            games,
            elo: entrants
                .iter()
                .map(|e| {
                    let i = names.iter().position(|n| *n == e.name)?;
                    elo.get(i).copied().flatten()
                })
                .collect(),
        })
        .collect();
    LeagueReport {
        entrants,
        intervals: record.intervals,
        verdict: record.verdict.clone(),
        history,
    }
}

/// What anytime intervals are, where a league uses them.
const ANYTIME_NOTE: &str = "Intervals: anytime 95% (a confidence sequence: they hold however often the league looked, so it may stop on them; the standings' intervals are fixed-sample)";

impl LeagueEntrant {
    fn status(&self) -> String {
        match self.retired_from {
            Some(pair) => format!("retired from pair {pair}"),
            None => "active".to_owned(),
        }
    }

    /// `[-12.0, +30.5]`, or `-` without an anytime interval.
    fn anytime_text(&self) -> String {
        self.anytime.map_or("-".to_owned(), |(lo, hi)| {
            format!(
                "[{}, {}]",
                crate::figure::signed(lo),
                crate::figure::signed(hi)
            )
        })
    }

    fn joined_text(&self) -> String {
        match self.joined {
            0 => format!("founder ({})", self.joined_at),
            pair => format!("pair {pair} ({})", self.joined_at),
        }
    }
}

impl LeagueReport {
    /// The section as text.
    pub(crate) fn write_text(&self, out: &mut String) -> std::fmt::Result {
        let width = self
            .entrants
            .iter()
            .map(|e| e.name.len())
            .max()
            .unwrap_or(7)
            .max(7);
        let retired = self
            .entrants
            .iter()
            .filter(|e| e.retired_from.is_some())
            .count();
        writeln!(out)?;
        writeln!(
            out,
            "League: {} entrants, {retired} retired",
            self.entrants.len()
        )?;
        let anytime = self.intervals == LeagueIntervals::Anytime;
        if anytime {
            writeln!(out, "{ANYTIME_NOTE}")?;
        }
        let column = |text: &str| match anytime {
            true => format!("  {text:<18}"),
            false => String::new(),
        };
        writeln!(
            out,
            "Rank  {:<width$}      Elo{}  Joined                          Status",
            "Entrant",
            column("Anytime 95%")
        )?;
        for e in &self.entrants {
            let rank = e.rank.map_or("-".to_owned(), |r| r.to_string());
            let elo = e.elo.map_or("-".to_owned(), crate::figure::signed);
            writeln!(
                out,
                "{rank:>4}  {:<width$}  {elo:>7}{}  {:<30}  {}",
                e.name,
                column(&e.anytime_text()),
                e.joined_text(),
                e.status()
            )?;
        }
        match &self.verdict {
            Some(v) => v.lines().iter().try_for_each(|l| writeln!(out, "{l}")),
            None => writeln!(out, "league not stopped yet (no verdict)"),
        }
    }

    /// The section as HTML: the leaderboard, the verdict and a plot of the
    /// ratings over time.
    pub(crate) fn write_html(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "<section id=\"league\"><h2>League</h2>")?;
        let anytime = self.intervals == LeagueIntervals::Anytime;
        if anytime {
            writeln!(out, "<p class=\"intervals\">{}</p>", esc(ANYTIME_NOTE))?;
        }
        let column = |cell: &str| match anytime {
            true => cell.to_owned(),
            false => String::new(),
        };
        writeln!(out, "<div class=\"scroll\"><table class=\"league\"><thead><tr><th>#</th><th class=\"name\">Entrant</th><th>Elo</th>{}<th>Joined</th><th>Status</th></tr></thead><tbody>", column("<th>Anytime 95%</th>"))?;
        for e in &self.entrants {
            writeln!(
                out,
                "<tr data-entrant=\"{}\"><td>{}</td><td class=\"name\">{}</td><td>{}</td>{}<td>{}</td><td>{}</td></tr>",
                esc(&e.name),
                e.rank.map_or("–".to_owned(), |r| r.to_string()),
                esc(&e.name),
                e.elo.map_or("–".to_owned(), crate::figure::signed),
                column(&format!("<td>{}</td>", esc(&e.anytime_text()))),
                esc(&e.joined_text()),
                esc(&e.status())
            )?;
        }
        writeln!(out, "</tbody></table></div>")?;
        match &self.verdict {
            Some(v) => {
                let lines = v.lines();
                writeln!(
                    out,
                    "<p class=\"verdict\">{}</p><ul class=\"neighbours\">",
                    esc(&lines[0])
                )?;
                for l in &lines[1..] {
                    writeln!(out, "<li>{}</li>", esc(l.trim()))?;
                }
                writeln!(out, "</ul>")?;
            }
            None => writeln!(
                out,
                "<p class=\"verdict\">The league has not stopped yet.</p>"
            )?,
        }
        self.svg_history(out)?;
        writeln!(out, "</section>")
    }

    /// Each entrant's rating against the games played, one line each.
    fn svg_history(&self, out: &mut String) -> std::fmt::Result {
        let values = self.history.iter().flat_map(|p| p.elo.iter().flatten());
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &e| {
            (lo.min(e), hi.max(e))
        });
        let last = self.history.last().map_or(0, |p| p.games).max(1) as f64;
        if !lo.is_finite() {
            return Ok(());
        }
        let (lo, hi) = (lo - 10.0, hi.max(lo + 20.0) + 10.0);
        let (width, height, left, right, top, bottom) = (640.0, 300.0, 44.0, 110.0, 12.0, 26.0);
        let x = |g: u64| left + g as f64 / last * (width - left - right);
        let y = |e: f64| top + (hi - e) / (hi - lo) * (height - top - bottom);
        writeln!(out, "<figure class=\"plot\"><svg id=\"league-history\" role=\"img\" aria-label=\"Each entrant's rating over the games played\" viewBox=\"0 0 {width} {height}\" preserveAspectRatio=\"xMinYMin meet\">")?;
        for (label, e) in [(hi, hi), (lo, lo)] {
            writeln!(
                out,
                "<text class=\"tick\" x=\"2\" y=\"{:.1}\">{}</text>",
                y(e) + 4.0,
                crate::figure::signed(label.round())
            )?;
        }
        writeln!(
            out,
            "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{} games</text>",
            x(last as u64),
            height - 6.0,
            last as u64
        )?;
        for (i, e) in self.entrants.iter().enumerate() {
            let points: Vec<String> = self
                .history
                .iter()
                .filter_map(|p| Some(format!("{:.1},{:.1}", x(p.games), y(p.elo[i]?))))
                .collect();
            if points.is_empty() {
                continue;
            }
            writeln!(out, "<polyline class=\"history h{}\" data-entrant=\"{}\" fill=\"none\" points=\"{}\"><title>{}</title></polyline>", i % 8, esc(&e.name), points.join(" "), esc(&e.name))?;
            if let Some(end) = self
                .history
                .iter()
                .rev()
                .find_map(|p| p.elo[i].map(|v| (p.games, v)))
            {
                writeln!(
                    out,
                    "<text class=\"label h{}\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                    i % 8,
                    x(end.0) + 4.0,
                    y(end.1) + 4.0,
                    esc(&e.name)
                )?;
            }
        }
        writeln!(out, "</svg><figcaption>Each entrant's rating (the full refit of the games so far) against the games played.</figcaption></figure>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_keeps_a_bounded_number_of_checkpoints() {
        let mut h = RatingHistory::default();
        let results = vec![vec![Wdl::default(); 2]; 2];
        for games in 1..=10_000 {
            h.counted(games, &results);
        }
        assert!(h.checkpoints.len() <= MOST_CHECKPOINTS);
        assert!(h.checkpoints.len() > MOST_CHECKPOINTS / 2);
        let step = h.step;
        assert!(h.checkpoints.iter().all(|(g, _)| g % step == 0));
        assert_eq!(h.checkpoints[0].0, step);
    }
}
