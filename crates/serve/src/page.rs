//! The live page: the HTML report's own stylesheet, sections and game
//! viewer (from `aboure-report`, unchanged), inside a frame that adds the
//! live panel and the script that follows the server's events.
//!
//! The report's viewer script is embedded as text and started by the live
//! script, once at load and again after each update, so that it always
//! works on the games now on the page.

use std::fmt::Write;

const REPORT_CSS: &str = include_str!("../../report/src/assets/report.css");
const VIEWER_JS: &str = include_str!("../../report/src/assets/report.js");
const LIVE_CSS: &str = include_str!("assets/live.css");
const LIVE_JS: &str = include_str!("assets/live.js");

/// Escapes text for HTML content and attribute values, with control and
/// direction characters written out (see [`aboure_report::printable`]).
pub(crate) fn esc(text: &str) -> String {
    aboure_report::printable(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The page of run `current` among `runs` (their folders, in order), with
/// the report `body` of its latest snapshot; `token` is carried in links.
pub fn live_page(runs: &[String], current: usize, token: Option<&str>, body: &str) -> String {
    let query = token.map_or(String::new(), |t| format!("?token={t}"));
    let dir = runs.get(current).map_or("", String::as_str);
    let mut out = String::with_capacity(body.len() + VIEWER_JS.len() + 8192);
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <title>aboure live: {}</title>\n<style>{REPORT_CSS}\n{LIVE_CSS}</style></head>\
         <body data-events=\"/run/{current}/events\" data-updates=\"0\">\n\
         <div id=\"live-panel\"><h1>aboure live: {}</h1>",
        esc(dir),
        esc(dir)
    );
    if runs.len() > 1 {
        out.push_str("<p id=\"live-runs\">");
        for (i, r) in runs.iter().enumerate() {
            let _ = write!(out, "<a href=\"/run/{i}{query}\">{}</a>", esc(r));
        }
        out.push_str("</p>");
    }
    out.push_str(
        "<p id=\"live-status\">connecting…</p>\
         <div id=\"live-tune\" hidden><dl><div><dt>Iterations</dt><dd id=\"live-tune-iterations\">–</dd></div>\
         <div><dt>Games played</dt><dd id=\"live-tune-games\">–</dd></div>\
         <div><dt>Objective</dt><dd id=\"live-tune-objective\">–</dd></div>\
         <div><dt>State</dt><dd id=\"live-tune-state\">–</dd></div></dl>\
         <progress id=\"live-tune-budget\" max=\"1\" value=\"0\" title=\"iterations done of the budget\"></progress>\
         <table id=\"live-theta\"><thead><tr><th>Parameter</th><th>Theta</th><th>Trend</th><th>Start</th><th>Range</th></tr></thead><tbody></tbody></table></div>\
         <div id=\"live-run\"><dl><div><dt>Games</dt><dd id=\"live-games\">–</dd></div>\
         <div><dt>Games per minute</dt><dd id=\"live-rate\">–</dd></div>\
         <div><dt>Time left</dt><dd id=\"live-eta\">–</dd></div>\
         <div><dt>SPRT log-likelihood ratio</dt><dd id=\"live-llr\">–</dd></div></dl>\
         <div id=\"live-llr-bar\" hidden title=\"LLR between its bounds\"><div id=\"live-llr-mark\"></div></div>\
         <details open><summary>Failures as they happen: <span id=\"live-failures-count\">none</span></summary>\
         <ul id=\"live-failures\"></ul></details>\
         <details id=\"live-workers-box\" open hidden><summary>Workers: <span id=\"live-workers-count\"></span></summary>\
         <table id=\"live-workers\"><thead><tr><th>Worker</th><th>State</th><th>Pairs held</th>\
         <th>Games recorded</th><th>Last seen</th></tr></thead><tbody></tbody></table>\
         <p id=\"live-taken-over\"></p></details></div></div>\n<div id=\"report-body\">",
    );
    out.push_str(body);
    out.push_str("</div><footer>Made by <code>aboure serve</code>, following the results files as they grow. Ratings: BayesElo's Bradley-Terry model, 95% intervals from the covariance.</footer>\n");
    // The viewer's source as inert text (it holds no `</script`).
    let _ = write!(
        out,
        "<script type=\"text/plain\" id=\"viewer-source\">{VIEWER_JS}</script>\n<script>{LIVE_JS}</script></body></html>\n"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_self_contained_and_carries_the_token() {
        let runs = vec!["out/a".to_owned(), "out/<b>".to_owned()];
        let page = live_page(&runs, 1, Some("abc"), "<main>x</main>");
        for needle in ["http://", "https://", "<link", " src="] {
            assert!(!page.contains(needle), "the page refers to {needle}");
        }
        assert!(page.contains("href=\"/run/0?token=abc\""));
        assert!(page.contains("data-events=\"/run/1/events\""));
        assert!(page.contains("out/&lt;b&gt;"));
        assert!(!VIEWER_JS.contains("</script"));
    }
}
