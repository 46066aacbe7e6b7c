//! The HTML report: one self-contained page (inline CSS, script and SVG, no
//! network), readable on a phone and a desktop, light or dark as the reader's
//! system prefers. Everything the page shows that is a figure is drawn here
//! in Rust; the script only filters the game list and steps through games
//! whose positions, laps and captures were computed with the engine (see
//! [`crate::viewer`]).

use std::fmt::Write;

use crate::escape::esc;
use crate::figure::signed;
use crate::plot::{line_plot, Reference};
use crate::report::Report;
use crate::viewer::push_viewer_games;

pub(crate) const CSS: &str = include_str!("assets/report.css");
const SCRIPT: &str = include_str!("assets/report.js");

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// Background for a score from 0 (red) through 1/2 (none) to 1 (green).
fn heat(score: f64) -> String {
    let hue = if score >= 0.5 { 130 } else { 0 };
    let alpha = ((score - 0.5).abs() * 2.0 * 0.75).min(0.75);
    format!("background:hsla({hue},65%,45%,{alpha:.2})")
}

impl Report {
    /// The report as one self-contained HTML page.
    pub fn html(&self) -> String {
        let mut out = String::new();
        self.write_html(&mut out)
            .expect("writing to a String cannot fail");
        out
    }

    fn write_html(&self, out: &mut String) -> std::fmt::Result {
        let names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
        let title = if names.len() <= 4 {
            names.join(" · ")
        } else {
            format!("{} bots", names.len())
        };
        writeln!(
            out,
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"color-scheme\" content=\"light dark\">\n\
             <title>aboure report: {}</title>\n<style>{CSS}</style></head><body>",
            esc(&title)
        )?;
        writeln!(out, "<header><h1>aboure report</h1><p class=\"summary\">{} games, {} complete game pairs, {} bots{}</p></header>",
            self.games, self.pairs, self.players.len(),
            if self.files.is_empty() { String::new() } else { format!(" · from {}", esc(&self.files.join(", "))) })?;
        writeln!(out, "<nav><a href=\"#standings\">Standings</a><a href=\"#crosstable\">Crosstable</a><a href=\"#los\">LOS</a>{}{}<a href=\"#failures\">Failures</a>{}<a href=\"#games\">Games</a></nav><main>",
            if self.sprt.is_some() { "<a href=\"#sprt\">SPRT</a>" } else { "" },
            if self.openings.is_some() { "<a href=\"#openings\">Openings</a>" } else { "" },
            if self.accuracy.is_some() { "<a href=\"#accuracy\">Accuracy</a>" } else { "" })?;
        if !self.warnings.is_empty() {
            writeln!(
                out,
                "<section id=\"warnings\" class=\"warnings\"><h2>Warnings</h2><ul>"
            )?;
            for w in &self.warnings {
                writeln!(out, "<li>{}</li>", esc(w))?;
            }
            writeln!(out, "</ul></section>")?;
        }
        self.html_standings(out)?;
        if let Some(league) = &self.league {
            league.write_html(out)?;
        }
        self.html_crosstable(out)?;
        self.html_los(out)?;
        self.html_sprt(out)?;
        if let Some(openings) = &self.openings {
            openings.write_html(out)?;
        }
        if let Some(sandbox) = &self.sandbox {
            writeln!(
                out,
                "<section id=\"sandbox\"><h2>Sandbox</h2><p>{}</p></section>",
                esc(&sandbox.to_string())
            )?;
        }
        self.html_failures(out)?;
        self.html_accuracy(out)?;
        self.html_games(out)?;
        writeln!(out, "</main><footer>Made by <code>aboure report</code>. Ratings: BayesElo's Bradley-Terry model, 95% intervals from the {}. Head to head: fastchess's W/D/L and game-pair statistics.</footer>", crate::text::interval_source(&self.ratings))?;
        writeln!(out, "<script>{SCRIPT}</script></body></html>")
    }

    fn html_standings(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "<section id=\"standings\"><h2>Standings</h2>")?;
        self.svg_ratings(out)?;
        let r = &self.ratings;
        for m in &r.messages {
            writeln!(out, "<p class=\"note\">{}</p>", esc(m))?;
        }
        let grouped = r.groups.len() > 1;
        writeln!(out, "<div class=\"scroll\"><table class=\"standings\"><thead><tr><th>#</th><th class=\"name\">Bot</th>{}<th>Elo</th><th>95% interval</th><th>Games</th><th>W</th><th>D</th><th>L</th><th>Score</th><th>Draws</th><th title=\"time forfeits\">Time</th><th title=\"illegal moves\">Illegal</th><th title=\"crashes\">Crash</th><th title=\"no handshake in time, or could not start\">Startup</th><th title=\"protocol, resources\">Other</th></tr></thead><tbody>",
            if grouped { "<th>Group</th>" } else { "" })?;
        for p in &self.players {
            let (elo, interval) = match (p.elo, p.elo_low, p.elo_high) {
                (Some(e), l, h) => (
                    signed(e),
                    format!(
                        "{} … {}",
                        crate::text::end(l, "−∞"),
                        crate::text::end(h, "+∞")
                    ),
                ),
                _ => ("–".to_owned(), "not rated".to_owned()),
            };
            write!(
                out,
                "<tr data-bot=\"{}\"><td>{}</td><td class=\"name\">{}</td>",
                esc(&p.name),
                p.rank,
                esc(&p.name)
            )?;
            if grouped {
                write!(out, "<td>{}</td>", p.group)?;
            }
            writeln!(out, "<td class=\"elo\">{elo}</td><td>{interval}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}</tr>",
                p.games, p.wins, p.draws, p.losses, pct(p.score), pct(p.draw_ratio),
                [p.failures.time, p.failures.illegal, p.failures.crash, p.failures.startup, p.failures.other]
                    .iter()
                    .map(|&n| if n > 0 { format!("<td class=\"bad\">{n}</td>") } else { "<td>0</td>".to_owned() })
                    .collect::<String>())?;
        }
        writeln!(out, "</tbody></table></div>")?;
        match (r.first_move_advantage, r.draw_elo) {
            (Some(a), Some(d)) => writeln!(out, "<p class=\"small\">First-move advantage {} and draw Elo {d:.1} (BayesElo's model scale). Ratings {}.</p>",
                signed(a),
                esc(&crate::text::anchoring(&r.anchors, &r.loose_anchors)))?,
            _ => writeln!(out, "<p class=\"small\">First-move advantage and draw Elo: not fitted.</p>")?,
        }
        if let Some(line) = crate::text::prior_line(r.prior) {
            writeln!(out, "<p class=\"small prior\">{}</p>", esc(&line))?;
        }
        if let Some(f) = &r.fit {
            if let Some(p) = f.p_value {
                let verdict = if p < crate::text::FIT_WARNING_P {
                    "<b class=\"bad\">the ratings do not fit these results</b>"
                } else {
                    "the ratings fit these results"
                };
                let listed: Vec<String> = f
                    .deviations
                    .iter()
                    .map(|d| esc(&crate::text::deviation(d)))
                    .collect();
                writeln!(out, "<p class=\"small\">Fit: chi-square {:.2} on {}, p = {}: {verdict}. Most deviating: {}.</p>",
                    f.chi_square, crate::text::degrees(f.degrees_of_freedom), crate::text::p_value(p), listed.join("; "))?;
            }
        }
        for c in &r.cycles {
            writeln!(
                out,
                "<p class=\"bad\">Warning: {}.</p>",
                esc(&crate::text::cycle(c))
            )?;
        }
        writeln!(out, "</section>")
    }

    /// Each bot's rating as a point with its 95% interval as a bar.
    fn svg_ratings(&self, out: &mut String) -> std::fmt::Result {
        let rated: Vec<_> = self.players.iter().collect();
        if rated.is_empty() {
            return Ok(());
        }
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &rated {
            for x in [p.elo_low, p.elo_high, p.elo].into_iter().flatten() {
                lo = lo.min(x);
                hi = hi.max(x);
            }
        }
        if !lo.is_finite() {
            (lo, hi) = (-100.0, 100.0);
        }
        let span = (hi - lo).max(50.0);
        let step = [10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0]
            .into_iter()
            .find(|s| span / s <= 8.0)
            .unwrap_or(2000.0);
        let (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
        let left = 14.0
            + 7.5
                * rated
                    .iter()
                    .map(|p| p.name.chars().count())
                    .max()
                    .unwrap_or(4)
                    .min(24) as f64;
        let (right, row, top) = (175.0, 26.0, 24.0);
        let width = 640.0;
        let plot = width - left - right;
        let height = top + row * rated.len() as f64 + 10.0;
        let x = |e: f64| left + (e - lo) / (hi - lo) * plot;
        writeln!(out, "<figure class=\"plot\"><svg id=\"rating-plot\" role=\"img\" aria-label=\"Ratings with 95% intervals\" viewBox=\"0 0 {width} {height}\" preserveAspectRatio=\"xMinYMin meet\">")?;
        let mut tick = lo;
        while tick <= hi + 1e-9 {
            let tx = x(tick);
            writeln!(out, "<line class=\"grid{}\" x1=\"{tx:.1}\" x2=\"{tx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/><text class=\"tick\" x=\"{tx:.1}\" y=\"14\" text-anchor=\"middle\">{}</text>",
                if tick == 0.0 { " zero" } else { "" }, top - 4.0, height - 6.0, signed(tick).trim_end_matches(".0"))?;
            tick += step;
        }
        for (i, p) in rated.iter().enumerate() {
            let y = top + row * (i as f64 + 0.5);
            writeln!(out, "<g class=\"bot\" data-bot=\"{}\"><text class=\"label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                esc(&p.name), left - 10.0, y + 4.0, esc(&p.name))?;
            let (lt, ht) = (
                crate::text::end(p.elo_low, "−∞"),
                crate::text::end(p.elo_high, "+∞"),
            );
            // An unbounded end reaches the edge of the plot.
            match (
                p.elo,
                p.elo_low.or(p.elo.map(|_| lo)),
                p.elo_high.or(p.elo.map(|_| hi)),
            ) {
                (Some(e), Some(l), Some(h)) => {
                    writeln!(out, "<title>{}: {} [{}, {}], {} games</title><line class=\"bar\" x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/><circle class=\"point\" cx=\"{:.1}\" cy=\"{y:.1}\" r=\"5\"/><text class=\"value\" x=\"{:.1}\" y=\"{:.1}\">{} [{}, {}]</text>",
                        esc(&p.name), signed(e), lt, ht, p.games, x(l), x(h), x(e), width - right + 10.0, y + 4.0, signed(e), lt, ht)?;
                }
                _ => writeln!(
                    out,
                    "<text class=\"value\" x=\"{:.1}\" y=\"{:.1}\">not rated</text>",
                    width - right + 10.0,
                    y + 4.0
                )?,
            }
            writeln!(out, "</g>")?;
        }
        writeln!(
            out,
            "</svg><figcaption>Elo with 95% interval, best first.</figcaption></figure>"
        )
    }

    fn html_crosstable(&self, out: &mut String) -> std::fmt::Result {
        let c = &self.crosstable;
        writeln!(out, "<section id=\"crosstable\"><h2>Crosstable</h2><p class=\"small\">Points of the row bot against the column bot; hover or tap a cell for games and game pairs.</p><div class=\"scroll\"><table class=\"matrix heat\"><thead><tr><th></th>")?;
        for (i, name) in c.players.iter().enumerate() {
            write!(out, "<th title=\"{}\">{}</th>", esc(name), i + 1)?;
        }
        writeln!(out, "</tr></thead><tbody>")?;
        for (i, row) in c.cells.iter().enumerate() {
            write!(
                out,
                "<tr><th class=\"name\">{} {}</th>",
                i + 1,
                esc(&c.players[i])
            )?;
            for (j, cell) in row.iter().enumerate() {
                match cell {
                    Some(x) => {
                        let p = &x.pentanomial;
                        let tip = format!(
                            "{} vs {}: {} of {} points, +{} ={} -{}; game pairs LL {} LD {} WL {} DD {} WD {} WW {}",
                            c.players[i], c.players[j], x.points, x.games, x.wins, x.draws, x.losses, p.ll, p.ld, p.wl, p.dd, p.wd, p.ww
                        );
                        write!(
                            out,
                            "<td style=\"{}\" title=\"{}\">{}/{}</td>",
                            heat(x.points / x.games as f64),
                            esc(&tip),
                            x.points,
                            x.games
                        )?;
                    }
                    None if i == j => write!(out, "<td class=\"diag\"></td>")?,
                    None => write!(out, "<td class=\"none\">·</td>")?,
                }
            }
            writeln!(out, "</tr>")?;
        }
        writeln!(out, "</tbody></table></div>")?;
        writeln!(out, "<h3>Head to head</h3><div class=\"scroll\"><table class=\"h2h\"><thead><tr><th>Pairing</th><th>Games</th><th>+ = −</th><th>Score</th><th>Elo (games)</th><th>Pairs LL LD WL DD WD WW</th><th>Elo (pairs)</th><th>nElo (pairs)</th><th>LOS</th></tr></thead><tbody>")?;
        for p in &self.pairings {
            let k = &p.pentanomial;
            let (pe, pn, los) = match &p.pentanomial_stats {
                Some(s) => (s.elo.short(), s.nelo.short(), s.los),
                None => (
                    "no complete pair".to_owned(),
                    String::new(),
                    p.trinomial_stats.los,
                ),
            };
            writeln!(out, "<tr><td class=\"name\">{} vs {}</td><td>{}</td><td>+{} ={} −{}</td><td>{}</td><td>{}</td><td>{} {} {} {} {} {}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&p.players[0]), esc(&p.players[1]), p.games, p.wins, p.draws, p.losses,
                pct(p.points / p.games.max(1) as f64), p.trinomial_stats.elo.short(),
                k.ll, k.ld, k.wl, k.dd, k.wd, k.ww, pe, pn, los.map_or("–".to_owned(), pct))?;
        }
        writeln!(out, "</tbody></table></div></section>")
    }

    fn html_los(&self, out: &mut String) -> std::fmt::Result {
        let l = &self.los;
        writeln!(out, "<section id=\"los\"><h2>Likelihood of superiority</h2><p class=\"small\">Chance that the row bot is stronger than the column bot, from the ratings' covariance.</p><div class=\"scroll\"><table class=\"matrix\"><thead><tr><th></th>")?;
        for (i, name) in l.players.iter().enumerate() {
            write!(out, "<th title=\"{}\">{}</th>", esc(name), i + 1)?;
        }
        writeln!(out, "</tr></thead><tbody>")?;
        for (i, row) in l.matrix.iter().enumerate() {
            write!(
                out,
                "<tr><th class=\"name\">{} {}</th>",
                i + 1,
                esc(&l.players[i])
            )?;
            for (j, v) in row.iter().enumerate() {
                match v {
                    _ if i == j => write!(out, "<td class=\"diag\"></td>")?,
                    Some(v) => write!(out, "<td style=\"{}\">{}</td>", heat(*v), pct(*v))?,
                    None => write!(out, "<td class=\"none\">–</td>")?,
                }
            }
            writeln!(out, "</tr>")?;
        }
        writeln!(out, "</tbody></table></div></section>")
    }

    fn html_sprt(&self, out: &mut String) -> std::fmt::Result {
        let Some(s) = &self.sprt else { return Ok(()) };
        let decision = match s.decision {
            "accept_h1" => "H1 accepted",
            "accept_h0" => "H0 accepted",
            _ => "continue",
        };
        writeln!(out, "<section id=\"sprt\"><h2>SPRT</h2><p><b>{}</b> vs <b>{}</b>: H0 elo {} against H1 elo {} ({}), α {} β {}. LLR <b>{:.3}</b> in [{:.3}, {:.3}] after {} pairs: <b class=\"decision {}\">{decision}</b>.</p>",
            esc(&s.test), esc(&s.baseline), s.elo0, s.elo1, s.model, s.alpha, s.beta, s.llr, s.lower, s.upper, s.pairs, s.decision)?;
        if let Some(max) = s.max_pairs {
            let how = if s.truncated {
                "reached: decided by the sign of the LLR, not a bound"
            } else {
                "not reached"
            };
            writeln!(out, "<p>Truncated test: cap of {max} pairs {how}.</p>")?;
        }
        if let Some(e) = &s.elo {
            writeln!(
                out,
                "<p>{} Elo at the stop: {:.2} as counted, <b>{:.2}</b> corrected for the stopping rule.</p>",
                s.model, e.naive, e.corrected
            )?;
        }
        if s.overrun > 0 {
            writeln!(
                out,
                "<p>Overrun: {} more complete pairs played after the decision, not counted.</p>",
                s.overrun
            )?;
        }
        if s.waiting > 0 {
            writeln!(
                out,
                "<p>Waiting: {} complete pairs not counted until the pairs before them finish.</p>",
                s.waiting
            )?;
        }
        let references = [
            (s.upper, "bound", "H1"),
            (s.lower, "bound", "H0"),
            (0.0, "grid", "0"),
        ]
        .map(|(value, class, label)| Reference {
            value,
            class,
            label: format!("{label} {value:.2}"),
        });
        line_plot(
            out,
            "sprt-plot",
            Some(0.0),
            &s.path,
            &references,
            "pairs",
            "LLR after each complete game pair, with the bounds.",
        )?;
        writeln!(out, "</section>")
    }

    fn html_failures(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "<section id=\"failures\"><h2>Failures</h2>")?;
        if self.failures.is_empty() {
            return writeln!(out, "<p>No game was lost by forfeit.</p></section>");
        }
        writeln!(out, "<div class=\"scroll\"><table class=\"failures\"><thead><tr><th class=\"name\">Bot</th><th>Time</th><th>Illegal</th><th>Crash</th><th>Startup</th><th>Other</th><th class=\"name\">Games</th></tr></thead><tbody>")?;
        for p in self.players.iter().filter(|p| p.failures.total() > 0) {
            let links: Vec<String> = self
                .failures
                .iter()
                .filter(|f| f.bot == p.name)
                .map(|f| {
                    format!(
                        "<a href=\"#game={}\" title=\"{}\">{} ({})</a>",
                        esc(&f.game),
                        esc(f.detail.as_deref().unwrap_or("")),
                        esc(&f.game),
                        f.kind
                    )
                })
                .collect();
            let f = p.failures;
            writeln!(out, "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"name links\">{}</td></tr>",
                esc(&p.name), f.time, f.illegal, f.crash, f.startup, f.other, links.join(" "))?;
        }
        writeln!(out, "</tbody></table></div></section>")
    }

    fn html_accuracy(&self, out: &mut String) -> std::fmt::Result {
        let Some(a) = &self.accuracy else {
            return Ok(());
        };
        writeln!(out, "<section id=\"accuracy\"><h2>Accuracy</h2><p class=\"small\">Seeds lost per move against perfect play (exact solver); a blunder changes the result the bot could reach. {} games analysed, {} skipped{}.</p>",
            a.analysed_games, a.skipped_games, if a.budget_exhausted { " (the analysis budget ran out)" } else { "" })?;
        writeln!(out, "<div class=\"scroll\"><table><thead><tr><th class=\"name\">Bot</th><th>Moves</th><th>Loss per move</th><th>Perfect</th><th>Blunders</th></tr></thead><tbody>")?;
        for p in &a.players {
            writeln!(out, "<tr><td class=\"name\">{}</td><td>{}</td><td>{:.2}</td><td>{}</td><td>{}</td></tr>",
                esc(&p.name), p.moves, p.average_loss, pct(p.perfect_ratio), p.blunders)?;
        }
        writeln!(out, "</tbody></table></div>")?;
        let mistakes = &a.first_mistakes;
        writeln!(out, "<h3>First decisive mistakes</h3><p class=\"small\">{} of {} analysed games have one.</p><ul class=\"mistakes\">", a.decisive_mistakes, a.analysed_games)?;
        const SHOWN: usize = 100;
        for (game, m) in mistakes.iter().take(SHOWN) {
            writeln!(
                out,
                "<li><a href=\"#game={}&amp;ply={}\">{} ply {}</a>: {}</li>",
                esc(game),
                m.ply + 1,
                esc(game),
                m.ply + 1,
                esc(&m.mistake())
            )?;
        }
        if a.decisive_mistakes > SHOWN as u64 {
            writeln!(
                out,
                "<li>… and {} more (see the JSON report)</li>",
                a.decisive_mistakes - SHOWN as u64
            )?;
        }
        writeln!(out, "</ul></section>")
    }

    fn html_games(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "<section id=\"games\"><h2>Games</h2>\
            <div class=\"filters\"><label>Bot <select id=\"filter-bot\"><option value=\"\">all</option></select></label>\
            <label>Result <select id=\"filter-result\"><option value=\"\">all</option><option value=\"win\">bot won</option><option value=\"loss\">bot lost</option><option value=\"draw\">draw</option></select></label>\
            <label>Termination <select id=\"filter-termination\"><option value=\"\">all</option></select></label> <span id=\"game-count\"></span></div>\
            <div id=\"viewer\" hidden></div>\
            <div class=\"scroll list\"><table id=\"game-list\"><thead><tr><th>Game</th><th class=\"name\">South</th><th class=\"name\">North</th><th>Result</th><th>Score</th><th>Termination</th><th>Plies</th></tr></thead><tbody></tbody></table></div>\
            <noscript><p>The game list and viewer need JavaScript.</p></noscript>")?;
        if self.records_left_out > 0 {
            writeln!(
                out,
                "<p class=\"note\">The list and viewer hold {} of the {} games: every forfeit, then the most recent. \
                 The ratings count them all; every game is in the results files, and \
                 <code>aboure report --viewer-games N</code> embeds more.</p>",
                self.records.len(),
                self.records.len() as u64 + self.records_left_out
            )?;
        }
        writeln!(out, "</section>")?;
        // A few batches at a time, straight into the page: the viewer data of
        // a long run would not fit in memory all at once.
        out.push_str("<script type=\"application/json\" id=\"report-data\">{\"games\":[");
        push_viewer_games(out, self);
        writeln!(out, "]}}</script>")
    }
}
