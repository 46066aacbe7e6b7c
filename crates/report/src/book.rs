//! The openings book of a run, and each opening's game pairs both ways.
//! Why: a match played from a book is decided by some of its openings (one
//! bot wins both games of the pair) and left even by others (each side wins
//! once, or both games are drawn); a user choosing or judging a book needs
//! to see which. The pair number is the opening's index, so the opening of
//! a pair is the book's line `pair % lines` (as the schedule draws it), and
//! nothing but the pair's two results is kept.

use std::collections::BTreeMap;
use std::fmt::Write;

use aboure_records::{GameResult, OpeningsIdentity, RunManifest};
use serde::Serialize;

use crate::escape::esc;

/// Game pairs listed in the report (all are counted): enough for any book
/// a person reads pair by pair, bounded for a long run.
pub const OPENING_PAIRS_LISTED: usize = 1_000;

/// The book a run played from, as its `run.json` records it (see
/// [`crate::openings_of`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsBook {
    /// The file, as the tournament file names it (absent in folders written
    /// before it was recorded, and for a built-in book).
    pub file: Option<String>,
    /// The built-in book the run played, by its `run.json` name
    /// (`"balanced"`): the default of an SPRT and a league.
    pub builtin: Option<String>,
    /// Its openings in order, each as `START moves M...`.
    pub lines: Vec<String>,
}

impl OpeningsBook {
    /// The book a run manifest records, when the run played from an
    /// openings file (a run of random openings has none). The report of a
    /// folder and the live page both take it from here.
    pub fn of_manifest(manifest: &RunManifest) -> Option<OpeningsBook> {
        match &manifest.identity.openings {
            OpeningsIdentity::File(lines) => Some(OpeningsBook {
                file: manifest.openings_file.clone(),
                builtin: manifest.builtin_openings.clone(),
                // A set-up position with no moves after it reads as itself.
                lines: (lines.iter())
                    .map(|l| l.strip_suffix(" moves ").unwrap_or(l).to_owned())
                    .collect(),
            }),
            OpeningsIdentity::Random { .. } => None,
        }
    }
}

/// One game of a pair: `result` from South's view, players by index.
type Played = (usize, usize, GameResult);

/// A pair under its run, pairing (player indices) and pair number.
type PairKey = (usize, [usize; 2], u32);

/// The pairs of a run played from a book, by opening, as games arrive.
#[derive(Clone, Debug)]
pub(crate) struct BookPairs {
    book: OpeningsBook,
    pairs: BTreeMap<PairKey, [Option<Played>; 2]>,
    /// Pairs not kept (past [`OPENING_PAIRS_LISTED`]), counted when their
    /// first game arrives.
    left_out: u64,
}

impl BookPairs {
    pub(crate) fn new(book: OpeningsBook) -> BookPairs {
        BookPairs {
            book,
            pairs: BTreeMap::new(),
            left_out: 0,
        }
    }

    /// Game `game` (0 or 1) of pair `pair` of `pairing` in run `run`:
    /// `south` against `north`, `result` from South's view.
    pub(crate) fn push(
        &mut self,
        run: usize,
        pairing: [usize; 2],
        pair: u32,
        game: u8,
        played: Played,
    ) {
        let key = (run, pairing, pair);
        let full = self.pairs.len() >= OPENING_PAIRS_LISTED;
        match self.pairs.get_mut(&key) {
            Some(games) => games[usize::from(game.min(1))] = Some(played),
            None if full => self.left_out += u64::from(game == 0),
            None => {
                let mut games = [None, None];
                games[usize::from(game.min(1))] = Some(played);
                self.pairs.insert(key, games);
            }
        }
    }

    /// The report's section, with player names from `names`.
    pub(crate) fn report(&self, names: &[String]) -> OpeningsReport {
        let lines = self.book.lines.len().max(1);
        let mut pairs: Vec<OpeningPair> = (self.pairs.iter())
            .map(|(&(_, _, pair), games)| {
                let index = pair as usize % lines;
                let shown: Vec<OpeningGame> = (games.iter().flatten())
                    .map(|&(s, n, result)| OpeningGame {
                        south: names[s].clone(),
                        north: names[n].clone(),
                        result: result.as_str(),
                    })
                    .collect();
                OpeningPair {
                    opening: index + 1,
                    position: self.book.lines.get(index).cloned().unwrap_or_default(),
                    verdict: verdict(&shown),
                    games: shown,
                }
            })
            .collect();
        pairs.sort_by_key(|p| p.opening);
        let decided = pairs
            .iter()
            .filter(|p| p.verdict.ends_with("won both"))
            .count();
        OpeningsReport {
            file: self.book.file.clone(),
            builtin: self.book.builtin.clone(),
            openings: self.book.lines.len(),
            decided,
            pairs,
            pairs_left_out: self.left_out,
        }
    }
}

/// Who a pair's games favoured: `NAME won both`, `split` (each side won
/// one, or both drawn), `NAME won one, one drawn`, or `one game played`.
fn verdict(games: &[OpeningGame]) -> String {
    let [a, b] = games else {
        return "one game played".to_owned();
    };
    let winner = |g: &OpeningGame| match g.result {
        "1-0" => Some(g.south.clone()),
        "0-1" => Some(g.north.clone()),
        _ => None,
    };
    match (winner(a), winner(b)) {
        (Some(x), Some(y)) if x == y => format!("{x} won both"),
        (Some(x), None) | (None, Some(x)) => format!("{x} won one, one drawn"),
        _ => "split".to_owned(),
    }
}

/// The book and its openings' pairs, in the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningsReport {
    /// The openings file as the tournament file names it (`null` in
    /// folders written before it was recorded).
    pub file: Option<String>,
    /// The built-in book played, by its `run.json` name (`"balanced"`;
    /// `null` for a file).
    pub builtin: Option<String>,
    /// Openings in the book.
    pub openings: usize,
    /// Pairs listed that one bot won both games of.
    pub decided: usize,
    /// The pairs listed, by opening (the first [`OPENING_PAIRS_LISTED`]).
    pub pairs: Vec<OpeningPair>,
    /// Pairs beyond those listed.
    pub pairs_left_out: u64,
}

/// One game pair of an opening.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningPair {
    /// The opening's line in the book, from 1.
    pub opening: usize,
    /// The opening, as `START moves M...`.
    pub position: String,
    /// Its games (two once the pair is complete), game 0 first.
    pub games: Vec<OpeningGame>,
    /// Who the pair favoured (see the crate docs).
    pub verdict: String,
}

/// One game of an opening's pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningGame {
    /// The bot playing South.
    pub south: String,
    /// The bot playing North.
    pub north: String,
    /// From South's view: `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
}

/// Pairs the text lists (the page and the JSON list them all).
const TEXT_LISTED: usize = 40;

impl OpeningsReport {
    /// `Openings: book.txt (12 openings); 3 of 24 pairs decided ...`; a
    /// built-in book also says how to play random openings instead (a
    /// default is easy to miss).
    fn headline(&self) -> String {
        let book = match (&self.builtin, &self.file) {
            (Some(id), _) => format!(
                "the built-in {id} book ({} openings; the default of an SPRT and a league, \
                 [openings] plies = 4 plays random openings instead)",
                self.openings
            ),
            (None, file) => format!(
                "{} ({} openings)",
                file.as_deref().unwrap_or("an openings file"),
                self.openings
            ),
        };
        format!(
            "{book}; {} of {} pairs decided by the opening (one bot won both games)",
            self.decided,
            self.pairs.len()
        )
    }

    pub(crate) fn write_text(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "\nOpenings: {}", self.headline())?;
        for p in self.pairs.iter().take(TEXT_LISTED) {
            writeln!(
                out,
                "  #{:<4} {}: {}; {}",
                p.opening,
                p.position,
                games_text(p),
                p.verdict
            )?;
        }
        let more = (self.pairs.len().saturating_sub(TEXT_LISTED)) as u64 + self.pairs_left_out;
        if more > 0 {
            writeln!(
                out,
                "  ... {more} more pairs (report.json lists the first {OPENING_PAIRS_LISTED})"
            )?;
        }
        Ok(())
    }

    pub(crate) fn write_html(&self, out: &mut String) -> std::fmt::Result {
        writeln!(
            out,
            "<section id=\"openings\"><h2>Openings</h2><p>{}</p>",
            esc(&self.headline())
        )?;
        writeln!(out, "<div class=\"scroll\"><table class=\"openings\"><thead><tr><th>#</th><th class=\"name\">Opening</th><th>Games (South-North result)</th><th>Verdict</th></tr></thead><tbody>")?;
        for p in &self.pairs {
            writeln!(
                out,
                "<tr><td>{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td></tr>",
                p.opening,
                esc(&p.position),
                esc(&games_text(p)),
                esc(&p.verdict)
            )?;
        }
        writeln!(out, "</tbody></table></div>")?;
        if self.pairs_left_out > 0 {
            writeln!(
                out,
                "<p class=\"note\">{} more pairs not listed</p>",
                self.pairs_left_out
            )?;
        }
        writeln!(out, "</section>")
    }
}

/// `a-b 1-0, b-a 0-1`: each game as South-North and its result.
fn games_text(pair: &OpeningPair) -> String {
    (pair.games.iter())
        .map(|g| format!("{}-{} {}", g.south, g.north, g.result))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(lines: usize) -> BookPairs {
        BookPairs::new(OpeningsBook {
            file: Some("book.txt".into()),
            builtin: None,
            lines: (0..lines).map(|i| format!("startpos moves {i}")).collect(),
        })
    }

    #[test]
    fn each_opening_shows_both_games_and_who_won_them() {
        use GameResult::*;
        let names = ["a".to_owned(), "b".to_owned()];
        let mut pairs = book(2);
        // Pair 0: a wins both; pair 1: each wins as South; pair 2 (opening
        // 1 again): a wins one, one drawn; pair 3: one game so far.
        for (pair, game, s, n, r) in [
            (0, 0, 0, 1, SouthWins),
            (0, 1, 1, 0, NorthWins),
            (1, 0, 0, 1, SouthWins),
            (1, 1, 1, 0, SouthWins),
            (2, 1, 1, 0, Draw),
            (2, 0, 0, 1, SouthWins),
            (3, 0, 0, 1, Draw),
        ] {
            pairs.push(0, [0, 1], pair, game, (s, n, r));
        }
        let report = pairs.report(&names);
        assert_eq!(
            (report.file.as_deref(), report.openings),
            (Some("book.txt"), 2)
        );
        let shown: Vec<(usize, &str, &str)> = (report.pairs.iter())
            .map(|p| (p.opening, p.position.as_str(), p.verdict.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                (1, "startpos moves 0", "a won both"),
                (1, "startpos moves 0", "a won one, one drawn"),
                (2, "startpos moves 1", "split"),
                (2, "startpos moves 1", "one game played"),
            ]
        );
        assert_eq!(report.decided, 1);
        let second = &report.pairs[1].games;
        assert_eq!((second[0].south.as_str(), second[0].result), ("a", "1-0"));
        assert_eq!(
            (second[1].south.as_str(), second[1].result),
            ("b", "1/2-1/2")
        );
    }

    #[test]
    fn pairs_past_the_listed_ones_are_counted_not_kept() {
        let mut pairs = book(3);
        let extra = 5;
        for pair in 0..(OPENING_PAIRS_LISTED + extra) as u32 {
            for game in 0..2 {
                pairs.push(0, [0, 1], pair, game, (0, 1, GameResult::Draw));
            }
        }
        let report = pairs.report(&["a".into(), "b".into()]);
        assert_eq!(report.pairs.len(), OPENING_PAIRS_LISTED);
        assert_eq!(report.pairs_left_out, extra as u64);
    }

    #[test]
    fn a_built_in_book_is_named_with_how_to_play_random_openings_instead() {
        let mut pairs = BookPairs::new(OpeningsBook {
            file: None,
            builtin: Some("balanced".into()),
            lines: vec!["startpos moves 3".into()],
        });
        pairs.push(0, [0, 1], 0, 0, (0, 1, GameResult::Draw));
        let mut text = String::new();
        let report = pairs.report(&["a".into(), "b".into()]);
        report.write_text(&mut text).unwrap();
        assert!(
            text.starts_with(
                "\nOpenings: the built-in balanced book (1 openings; the default of an SPRT and \
                 a league, [openings] plies = 4 plays random openings instead); 0 of 1 pairs"
            ),
            "{text}"
        );
        let named = |file: Option<&str>| {
            let mut pairs = book(2);
            pairs.book.file = file.map(str::to_owned);
            pairs.report(&[]).headline()
        };
        assert!(named(Some("b.txt")).starts_with("b.txt (2 openings); 0 of 0 pairs"));
        assert!(named(None).starts_with("an openings file (2 openings); "));
    }
}
