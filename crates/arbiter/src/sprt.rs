//! The SPRT stopping rule of a run, alone or split over shards.
//!
//! Game pairs are numbered by the schedule before any is played (the
//! opening of pair `p` depends only on the config and `p`), and the verdict
//! is [`OrderedSprt`]'s: pairs counted in pair order up to the first one not
//! yet complete, the first crossing of a bound deciding. So it is a pure
//! function of the results files ([`verdict`]): shards that share an output
//! folder, each appending to its own file, reach exactly the verdict, at
//! exactly the pair count, that one process playing the pairs in order
//! would, whoever was slow, killed or resumed.
//!
//! A [`LiveSprt`] is that verdict kept up to date during a run: its worker
//! feeds it every game of the folder as it learns of it (its own, and what
//! the other workers appended to their files). It keeps the pentanomial
//! counts, the pairs still open and the complete pairs ahead of a gap,
//! nothing per finished game, so a test of any length runs in flat memory.
//! A worker does not claim a pair too far past the recorded prefix (see
//! the tournament's queue), and stops claiming once the test has decided;
//! the first worker to see the decision writes it, once, to `sprt.json`.

use std::path::{Path, PathBuf};

use aboure_records::{GameRecord, RecordPairBook, SprtFile, SPRT_SCHEMA};
use aboure_stats::{OrderedSprt, OrderedStatus, Sprt, SprtDecision};

use crate::error::RunError;

/// The verdict of `games` (in any order, repeated or not) on the test of
/// `pairing[0]` against `pairing[1]`.
pub fn verdict<'a>(
    sprt: Sprt,
    pairing: &[String; 2],
    games: impl IntoIterator<Item = &'a GameRecord>,
) -> OrderedStatus {
    let mut counter = PairCounter::new(sprt, pairing.clone());
    games.into_iter().for_each(|g| counter.add(g));
    counter.test.status()
}

/// Games to pairs to the ordered test.
#[derive(Debug)]
struct PairCounter {
    pairing: [String; 2],
    book: RecordPairBook,
    test: OrderedSprt,
}

impl PairCounter {
    fn new(sprt: Sprt, pairing: [String; 2]) -> PairCounter {
        PairCounter {
            pairing,
            book: RecordPairBook::new(),
            test: OrderedSprt::new(sprt, 1),
        }
    }

    fn add(&mut self, game: &GameRecord) {
        if game.pairing != self.pairing || u64::from(game.pair) < self.test.prefix() {
            return;
        }
        if let Some(pair) = self.book.add_record(game) {
            self.test.add(u64::from(pair.pair), pair.results);
        }
    }
}

/// The verdict of a run in progress, fed every game of the folder as its
/// worker learns of it: its own as they finish, the other workers' as it
/// reads their files ([`aboure_workers`]'s follower).
#[derive(Debug)]
pub struct LiveSprt {
    counter: PairCounter,
    dir: PathBuf,
    written: bool,
}

impl LiveSprt {
    /// The test of `pairing[0]` against `pairing[1]` for a run in `dir`.
    pub fn new(sprt: Sprt, pairing: [String; 2], dir: &Path) -> LiveSprt {
        LiveSprt {
            counter: PairCounter::new(sprt, pairing),
            dir: dir.to_owned(),
            written: false,
        }
    }

    /// Counts a game of the run (any worker's; one seen twice counts once).
    pub fn add(&mut self, game: &GameRecord) {
        self.counter.add(game);
    }

    /// Where the test stands.
    pub fn status(&self) -> OrderedStatus {
        self.counter.test.status()
    }

    /// Words for where the test stands.
    pub fn describe(&self) -> String {
        describe(
            self.counter.test.sprt(),
            &self.counter.pairing,
            &self.status(),
        )
    }

    /// Writes the decision to `sprt.json` once it is there: the first
    /// writer wins ([`SprtFile::write_first_in`]), and every writer would
    /// write the same verdict anyway.
    pub fn write_decision(&mut self) -> Result<(), RunError> {
        let status = self.status();
        if self.written || !status.decided() {
            return Ok(());
        }
        let sprt = self.counter.test.sprt();
        let host = crate::lock::hostname();
        let pid = std::process::id();
        let file = SprtFile {
            schema: SPRT_SCHEMA,
            test: self.counter.pairing[0].clone(),
            baseline: self.counter.pairing[1].clone(),
            elo0: sprt.elo0(),
            elo1: sprt.elo1(),
            alpha: sprt.alpha(),
            beta: sprt.beta(),
            decision: status.status.decision,
            pairs: status.counted,
            pentanomial: status.counts.counts(),
            llr: status.status.llr,
            lower: status.status.lower,
            upper: status.status.upper,
            max_pairs: sprt.max_pairs(),
            truncated: status.status.truncated,
            written_by: format!("host {host} pid {pid}"),
        };
        file.write_first_in(&self.dir, &format!("{host}.{pid}"))?;
        self.written = true;
        Ok(())
    }
}

/// Words for where a test of `pairing[0]` against `pairing[1]` stands.
pub fn describe(sprt: &Sprt, pairing: &[String; 2], status: &OrderedStatus) -> String {
    let [first, second] = pairing;
    let verdict = match status.status.decision {
        SprtDecision::AcceptH1 => format!(
            "H1 accepted: {first} is stronger than {second} (the Elo difference is nearer {} than {})",
            sprt.elo1(),
            sprt.elo0()
        ),
        SprtDecision::AcceptH0 => format!(
            "H0 accepted: {first} is not stronger than {second} by {} Elo (the difference is nearer {})",
            sprt.elo1(),
            sprt.elo0()
        ),
        SprtDecision::Continue => "no decision yet".to_owned(),
    };
    let verdict = match (status.status.truncated, sprt.max_pairs()) {
        (true, Some(max)) => {
            format!("{verdict}, at the cap of {max} pairs (truncated: by the sign of the LLR)")
        }
        _ => verdict,
    };
    let beyond = match (status.decided(), status.beyond) {
        (_, 0) => String::new(),
        (true, n) => format!(", {n} more played after the decision (overrun, not counted)"),
        (false, n) => format!(", {n} more complete but waiting for earlier pairs"),
    };
    format!(
        "SPRT [{}, {}]: LLR {:.3} (bounds {:.3}, {:.3}) after {} pairs{beyond}; {verdict}",
        sprt.elo0(),
        sprt.elo1(),
        status.status.llr,
        status.status.lower,
        status.status.upper,
        status.counted,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_records::parse_games;

    /// Game `game` of pair `pair`, won by South.
    fn game(template: &GameRecord, pair: u32, game: u8) -> GameRecord {
        let (south, north) = if game == 0 { ("x", "y") } else { ("y", "x") };
        GameRecord {
            id: format!("r0000-p{pair}-g{game}"),
            pair,
            game,
            south: south.into(),
            north: north.into(),
            ..template.clone()
        }
    }

    #[test]
    fn a_long_test_keeps_only_open_and_waiting_pairs() {
        // Equal results never decide: 20,000 pairs, finishing up to 40
        // pairs out of order, leave nothing behind but the window.
        let sprt = Sprt::new(-1.0, 1.0, 0.05, 0.05, aboure_stats::EloModel::Normalized).unwrap();
        let mut counter = PairCounter::new(sprt, ["x".into(), "y".into()]);
        let line = r#"{"id":"t","pairing":["x","y"],"pair":0,"game":0,"south":"x","north":"y","result":"1-0","termination":"natural"}"#;
        let template =
            parse_games(format!("{line}\n").as_bytes(), "g.jsonl".as_ref()).games[0].clone();
        let mut most = (0, 0);
        for block in 0..500u32 {
            for g in 0..2 {
                for i in (0..40).rev() {
                    counter.add(&game(&template, block * 40 + i, g));
                    let waiting = counter.test.status().beyond;
                    most = (most.0.max(counter.book.open()), most.1.max(waiting));
                }
            }
        }
        let status = counter.test.status();
        assert_eq!((status.counted, status.beyond), (20_000, 0));
        assert_eq!(status.counts.wl, 20_000);
        assert_eq!(counter.book.open(), 0);
        assert_eq!(most, (40, 39));
    }
}
