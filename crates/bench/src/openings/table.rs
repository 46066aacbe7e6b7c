//! The bench's driver: the header, then for each bot pair the table of
//! measured sources of openings and the real SPRTs that confirm the best.

use super::confirm::confirm;
use super::settings::{Row, Settings};
use super::{expected_pairs, matchups, measure, positions, selections, Matchup, Openings};

/// Runs the whole bench, writing its tables to `out` as they are measured.
pub fn bench(settings: &Settings, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let all = positions(settings.plies);
    writeln!(
        out,
        "openings {} plies deep: {} distinct positions; SPRT nElo [{}, {}], alpha {} beta {}",
        settings.plies,
        all.len(),
        settings.sprt.elo0(),
        settings.sprt.elo1(),
        settings.sprt.alpha(),
        settings.sprt.beta()
    )?;
    // The baseline is what a tournament plays by default.
    let mut sources = vec![Openings::Random { plies: 4 }.halves()];
    sources.extend(
        selections(settings.plies, settings.balanced_only)
            .into_iter()
            .map(|s| Openings::book(s, &all).halves())
            .filter(|(chosen, _)| chosen.size().unwrap_or(0) >= 20),
    );
    writeln!(
        out,
        "each book measured on half its positions (the number shown) and confirmed on the other half"
    )?;
    for (i, m) in matchups().iter().enumerate() {
        if !settings.only.is_empty() && !settings.only.contains(&i) {
            continue;
        }
        writeln!(out, "\n[{i}] {m}")?;
        let rows = measure_sources(m, &sources, settings, out)?;
        confirm(m, &rows, settings, out)?;
    }
    Ok(())
}

fn measure_sources(
    m: &Matchup,
    sources: &[(Openings, Openings)],
    settings: &Settings,
    out: &mut dyn std::io::Write,
) -> std::io::Result<Vec<Row>> {
    writeln!(
        out,
        "  {:<52} {:>30} {:>6} {:>16} {:>9} {:>8}",
        "openings", "pairs LL/LD/WL+DD/WD/WW", "score", "nElo (95%)", "SPRT pairs", "vs random"
    )?;
    let mut rows: Vec<Row> = Vec::new();
    for (openings, held_out) in sources {
        let counts = measure(m, openings, settings.pairs, settings.seed, settings.threads);
        let expected = expected_pairs(&settings.sprt, &counts);
        let ratio = match (rows.first().and_then(|r| r.expected), expected) {
            (Some(random), Some(here)) => format!("{:.1}x", random / here),
            _ => "-".to_owned(),
        };
        let h = counts.head_to_head();
        let nelo = match (h.nelo.value(), h.nelo.error()) {
            (Some(v), Some(e)) => format!("{v:+.1} +- {e:.1}"),
            _ => format!("{:?}", h.nelo),
        };
        writeln!(
            out,
            "  {:<52} {:>30} {:>6.3} {:>16} {:>9} {:>8}",
            openings.to_string(),
            format!("{:?}", counts.counts()),
            h.score.unwrap_or(f64::NAN),
            nelo,
            match (expected, h.nelo.value()) {
                (Some(e), _) => format!("{e:.0}"),
                // Every pair split: the LLR never moves.
                (None, None) => "never".to_owned(),
                (None, Some(_)) => "-".to_owned(),
            },
            ratio
        )?;
        rows.push(Row {
            held_out: held_out.clone(),
            counts,
            expected,
        });
    }
    Ok(rows)
}
