//! The plain-text report: what `aboure report` prints and what `aboure run`
//! prints at the end. Fixed-width tables, one decimal, signs on Elo; the
//! snapshot test pins it down.

use std::fmt::Write;

use crate::failure::failure_groups;
use crate::figure::{signed, HeadToHeadFigures};
use crate::printable::printable;
use crate::ratings::RatingStatus;
use crate::report::Report;

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn summary_line(s: &HeadToHeadFigures) -> String {
    let los = s.los.map_or("undefined".to_owned(), pct);
    format!("Elo {}, nElo {}, LOS {los}", s.elo.text(), s.nelo.text())
}

impl Report {
    /// The report as text, safe for a terminal (see [`printable`]).
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write_text(&mut out)
            .expect("writing to a String cannot fail");
        printable(&out).into_owned()
    }

    fn write_text(&self, out: &mut String) -> std::fmt::Result {
        writeln!(
            out,
            "{} games, {} complete game pairs, {} bots",
            self.games,
            self.pairs,
            self.players.len()
        )?;
        if let Some(sandbox) = &self.sandbox {
            writeln!(out, "Sandbox: {sandbox}")?;
        }
        if self.players.is_empty() {
            return Ok(());
        }
        self.write_standings(out)?;
        if let Some(league) = &self.league {
            league.write_text(out)?;
        }
        self.write_crosstable(out)?;
        self.write_pairings(out)?;
        self.write_sprt(out)?;
        if let Some(openings) = &self.openings {
            openings.write_text(out)?;
        }
        self.write_failures(out)?;
        self.write_accuracy(out)?;
        Ok(())
    }

    fn write_standings(&self, out: &mut String) -> std::fmt::Result {
        let width = name_width(self.players.iter().map(|p| p.name.as_str()));
        let grouped = self.ratings.groups.len() > 1;
        writeln!(out)?;
        write!(out, "Rank  {:<width$}", "Bot")?;
        if grouped {
            write!(out, "  Group")?;
        }
        writeln!(
            out,
            "     Elo    95% interval      Games   Score   Draws   Time  Illegal  Crash  Startup  Other"
        )?;
        for p in &self.players {
            write!(out, "{:>4}  {:<width$}", p.rank, p.name)?;
            if grouped {
                write!(out, "  {:>5}", p.group)?;
            }
            let (elo, interval) = match (p.elo, p.elo_low, p.elo_high) {
                (Some(e), l, h) => (
                    signed(e),
                    format!("[{}, {}]", end(l, "-inf"), end(h, "+inf")),
                ),
                _ => ("-".to_owned(), "-".to_owned()),
            };
            writeln!(
                out,
                "  {elo:>6}  {interval:<18}  {:>5}  {:>6}  {:>6}  {:>5}  {:>7}  {:>5}  {:>7}  {:>5}",
                p.games,
                pct(p.score),
                pct(p.draw_ratio),
                p.failures.time,
                p.failures.illegal,
                p.failures.crash,
                p.failures.startup,
                p.failures.other
            )?;
        }
        writeln!(out, "{FORFEIT_COLUMNS}")?;
        let r = &self.ratings;
        writeln!(out)?;
        match r.status {
            RatingStatus::Ok => writeln!(
                out,
                "Ratings: Bradley-Terry (BayesElo's model), {}, 95% intervals from the {}.",
                anchoring(&r.anchors, &r.loose_anchors),
                interval_source(r)
            )?,
            RatingStatus::Disconnected => {
                writeln!(out, "Ratings: NOT comparable across groups (see below).")?
            }
            _ => writeln!(out, "Ratings: none (see below).")?,
        }
        if let Some(line) = prior_line(r.prior) {
            writeln!(out, "{line}")?;
        }
        for m in &r.messages {
            writeln!(out, "  Note: {m}")?;
        }
        match (r.first_move_advantage, r.draw_elo) {
            (Some(a), Some(d)) => writeln!(
                out,
                "First-move advantage {}, draw Elo {d:.1} (BayesElo's model scale)",
                signed(a)
            )?,
            _ => writeln!(out, "First-move advantage and draw Elo: not fitted")?,
        }
        self.write_fit(out)
    }

    /// The model's goodness of fit and any circle of results.
    fn write_fit(&self, out: &mut String) -> std::fmt::Result {
        let r = &self.ratings;
        if let Some(f) = &r.fit {
            if let Some(p) = f.p_value {
                let verdict = if p < FIT_WARNING_P {
                    "WARNING: the ratings do not fit these results"
                } else {
                    "the ratings fit these results"
                };
                writeln!(
                    out,
                    "Fit: chi-square {:.2} on {}, p = {}: {verdict}",
                    f.chi_square,
                    degrees(f.degrees_of_freedom),
                    p_value(p)
                )?;
                let listed: Vec<String> = f.deviations.iter().map(deviation).collect();
                writeln!(out, "  most deviating: {}", listed.join("; "))?;
            }
        }
        for c in &r.cycles {
            writeln!(out, "WARNING: {}", cycle(c))?;
        }
        Ok(())
    }

    fn write_crosstable(&self, out: &mut String) -> std::fmt::Result {
        let c = &self.crosstable;
        let width = c.players.iter().map(|p| p.len()).max().unwrap_or(3).max(3);
        let cells: Vec<Vec<String>> = c
            .cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|cell| {
                        cell.map_or("-".to_owned(), |x| format!("{}/{}", x.points, x.games))
                    })
                    .collect()
            })
            .collect();
        let col = cells
            .iter()
            .flatten()
            .map(String::len)
            .chain(c.players.iter().map(|_| 3))
            .max()
            .unwrap_or(3);
        writeln!(out)?;
        writeln!(
            out,
            "Crosstable (points of the row bot against the column bot / games)"
        )?;
        write!(out, "{:<width$}", "")?;
        for i in 0..c.players.len() {
            write!(out, "  {:>col$}", format!("#{}", i + 1))?;
        }
        writeln!(out)?;
        for (i, row) in cells.iter().enumerate() {
            write!(out, "{:<width$}", c.players[i])?;
            for cell in row {
                write!(out, "  {cell:>col$}")?;
            }
            writeln!(out, "   #{}", i + 1)?;
        }
        Ok(())
    }

    fn write_pairings(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out)?;
        writeln!(out, "Head to head (figures from the first bot's view)")?;
        for p in &self.pairings {
            writeln!(
                out,
                "{} vs {}: {} game{}, +{} ={} -{}, {} points ({})",
                p.players[0],
                p.players[1],
                p.games,
                if p.games == 1 { "" } else { "s" },
                p.wins,
                p.draws,
                p.losses,
                p.points,
                pct(p.points / p.games.max(1) as f64)
            )?;
            writeln!(out, "  games: {}", summary_line(&p.trinomial_stats))?;
            let c = &p.pentanomial;
            match &p.pentanomial_stats {
                Some(s) => writeln!(
                    out,
                    "  pairs: {} (LL {} LD {} WL {} DD {} WD {} WW {}), {}",
                    p.pairs,
                    c.ll,
                    c.ld,
                    c.wl,
                    c.dd,
                    c.wd,
                    c.ww,
                    summary_line(s)
                )?,
                None => writeln!(out, "  pairs: none complete")?,
            }
            if p.unpaired_games > 0 {
                writeln!(out, "  games outside a complete pair: {}", p.unpaired_games)?;
            }
        }
        Ok(())
    }

    fn write_sprt(&self, out: &mut String) -> std::fmt::Result {
        let Some(s) = &self.sprt else { return Ok(()) };
        let decision = match s.decision {
            "accept_h1" => "H1 accepted",
            "accept_h0" => "H0 accepted",
            _ => "continue",
        };
        writeln!(out)?;
        writeln!(
            out,
            "SPRT {} vs {}: elo0 {} elo1 {} ({}), alpha {} beta {}",
            s.test, s.baseline, s.elo0, s.elo1, s.model, s.alpha, s.beta
        )?;
        writeln!(
            out,
            "  LLR {:.3} in [{:.3}, {:.3}] after {} pairs: {decision}",
            s.llr, s.lower, s.upper, s.pairs
        )?;
        if let Some(max) = s.max_pairs {
            let how = if s.truncated {
                "reached: decided by the sign of the LLR, not a bound"
            } else {
                "not reached"
            };
            writeln!(out, "  truncated test: cap of {max} pairs {how}")?;
        }
        if let Some(e) = &s.elo {
            writeln!(
                out,
                "  {} Elo at the stop: {:.2} as counted, {:.2} corrected for the stopping rule",
                s.model, e.naive, e.corrected
            )?;
        }
        if s.overrun > 0 {
            writeln!(
                out,
                "  overrun: {} more pairs played after the decision, not counted",
                s.overrun
            )?;
        }
        if s.waiting > 0 {
            writeln!(
                out,
                "  waiting: {} complete pairs not counted until the pairs before them finish",
                s.waiting
            )?;
        }
        Ok(())
    }

    /// The forfeits by bot and kind, each with its count and the first
    /// forfeit of that kind as an example: a bot that fails every game is
    /// one line, not one per game.
    fn write_failures(&self, out: &mut String) -> std::fmt::Result {
        if self.failures.is_empty() {
            return Ok(());
        }
        let total = self.failures.len() as u64 + self.failures_left_out;
        writeln!(out)?;
        writeln!(
            out,
            "Failures: {total} games lost by forfeit, by bot and kind (the first of each as an example)"
        )?;
        let counts = self.players.iter().map(|p| (p.name.as_str(), p.failures));
        let groups = failure_groups(counts, &self.failures);
        let width = name_width(groups.iter().map(|g| g.bot));
        for g in groups {
            let games = match g.count {
                1 => "1 game".to_owned(),
                n => format!("{n} games"),
            };
            write!(out, "  {:<width$}  {:<7}  {games:>8}", g.bot, g.kind.name())?;
            match g.example {
                Some(f) => {
                    write!(out, "  e.g. {} {}", f.game, f.termination)?;
                    match &f.detail {
                        Some(d) => writeln!(out, ": {d}")?,
                        None => writeln!(out)?,
                    }
                }
                None => writeln!(out)?,
            }
        }
        Ok(())
    }

    fn write_accuracy(&self, out: &mut String) -> std::fmt::Result {
        let Some(a) = &self.accuracy else {
            return Ok(());
        };
        writeln!(out)?;
        writeln!(
            out,
            "Accuracy against the exact solver: {} games analysed, {} skipped{}",
            a.analysed_games,
            a.skipped_games,
            if a.budget_exhausted {
                " (the analysis budget ran out)"
            } else {
                ""
            }
        )?;
        let width = name_width(a.players.iter().map(|p| p.name.as_str()));
        writeln!(
            out,
            "{:<width$}  Moves  Loss/move  Perfect  Blunders",
            "Bot"
        )?;
        for p in &a.players {
            writeln!(
                out,
                "{:<width$}  {:>5}  {:>9.2}  {:>7}  {:>8}",
                p.name,
                p.moves,
                p.average_loss,
                pct(p.perfect_ratio),
                p.blunders
            )?;
        }
        let mistakes = &a.first_mistakes;
        writeln!(
            out,
            "First decisive mistakes: {} of {} games",
            a.decisive_mistakes, a.analysed_games
        )?;
        const SHOWN: usize = 10;
        for (game, m) in mistakes.iter().take(SHOWN) {
            writeln!(out, "  {game} ply {}: {}", m.ply + 1, m.mistake())?;
        }
        if a.decisive_mistakes > SHOWN as u64 {
            writeln!(out, "  ... and {} more", a.decisive_mistakes - SHOWN as u64)?;
        }
        Ok(())
    }
}

/// The width of a column of bot names (at least that of its heading, 3).
fn name_width<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names.map(str::len).max().unwrap_or(0).max(3)
}

/// The standings' forfeit columns, said once below the table.
pub(crate) const FORFEIT_COLUMNS: &str =
    "Games lost by forfeit: Time (out of time), Illegal (illegal or unreadable move), \
Crash (exited, crashed or closed a pipe),\n  Startup (no handshake in time, or could not start), \
Other (protocol violation, resource limit).";

/// Below this p-value the fit test warns.
pub(crate) const FIT_WARNING_P: f64 = 0.01;

pub(crate) fn degrees(n: usize) -> String {
    match n {
        1 => "1 degree of freedom".to_owned(),
        n => format!("{n} degrees of freedom"),
    }
}

pub(crate) fn p_value(p: f64) -> String {
    if p < 1e-4 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// `a-b: 12.5 points, 10.1 predicted (+1.8 sd) over 20 games`.
pub(crate) fn deviation(d: &crate::Deviation) -> String {
    format!(
        "{} against {}: {} points, {:.1} predicted ({:+.1} sd) in {} games",
        d.bots[0], d.bots[1], d.observed, d.expected, d.z, d.games
    )
}

/// `a beat b (80.0%, LOS 99.9%), ...: no ratings can express this`.
pub(crate) fn cycle(c: &crate::CycleLine) -> String {
    let [a, b, d] = &c.bots;
    let leg = |k: usize, x: &str, y: &str| {
        format!(
            "{x} beat {y} ({:.1}%, LOS {:.2}%)",
            100.0 * c.scores[k],
            100.0 * c.los[k]
        )
    };
    format!(
        "results go round in a circle beyond noise: {}, {}, {}; no ratings can express this",
        leg(0, a, b),
        leg(1, b, d),
        leg(2, d, a)
    )
}

/// An interval's end, or `unbounded` for none.
pub(crate) fn end(x: Option<f64>, unbounded: &str) -> String {
    x.map_or_else(|| unbounded.to_owned(), signed)
}

/// Where the intervals come from, in words.
pub(crate) fn interval_source(r: &crate::RatingsSummary) -> String {
    match (r.intervals, r.bootstrap) {
        (crate::IntervalKind::Covariance, _) => "covariance".to_owned(),
        // A prior's virtual draws bound every rating.
        (crate::IntervalKind::Likelihood, _) if r.prior > 0.0 => {
            "profile likelihood (asymmetric)".to_owned()
        }
        (crate::IntervalKind::Likelihood, _) => {
            "profile likelihood (asymmetric; an end may be unbounded)".to_owned()
        }
        (crate::IntervalKind::Bootstrap, b) => {
            let drawn = b.map_or_else(String::new, |b| {
                format!(", {} resamples, seed {}", b.samples, b.seed)
            });
            let open = if r.prior > 0.0 {
                ""
            } else {
                "; an end may be unbounded"
            };
            format!(
                "percentiles of a bootstrap over game pairs (pairs resampled whole{drawn}{open})"
            )
        }
    }
}

/// The line that says which prior the ratings were fitted with, when one
/// was (none for maximum likelihood).
pub(crate) fn prior_line(prior: f64) -> Option<String> {
    if prior <= 0.0 {
        return None;
    }
    let default = if prior == aboure_stats::BAYESELO_PRIOR {
        " (BayesElo's default)"
    } else {
        ""
    };
    Some(format!(
        "prior: {prior} virtual draws per bot{default}; --prior 0 for maximum likelihood"
    ))
}

/// `anchored at a = 0, b = 100`, or `centred on 0`.
pub(crate) fn anchoring(anchors: &[(String, f64)], loose: &[(String, f64, f64)]) -> String {
    if anchors.is_empty() && loose.is_empty() {
        return "centred on 0".to_owned();
    }
    let each: Vec<String> = (anchors.iter().map(|(n, e)| format!("{n} = {e}")))
        .chain(
            loose
                .iter()
                .map(|(n, e, sd)| format!("{n} = {e} +/- {sd} (loose)")),
        )
        .collect();
    format!("anchored at {}", each.join(", "))
}
