//! The end of `aboure run` in words: what follows the ratings report (bots
//! that forfeited often, the SPRT's counts and verdict, a league's verdict,
//! where the games are, what sharing the folder cost), and the run's own
//! standings when no report of the folder could be made.
//!
//! Wording a run is this crate's job, as wording a results file is: the
//! arbiter hands back how the run ended as data, the binary fills a
//! [`RunEnd`] from it and prints [`RunEnd::text`] once, so the end of a run
//! goes one way (arbiter, then report, then the terminal). The SPRT's
//! description and a league's verdict come as the arbiter words them, the
//! same words as its live progress; everything around them is written here.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use aboure_records::{RunFolder, Standing};
use aboure_stats::OrderedStatus;

use crate::Report;

/// Which kind of run ended: it decides how a stop is worded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    /// A sequential test: its stop is the test's decision.
    Sprt,
    /// A league: its stop is its verdict, per neighbour pair, said as is.
    League,
    /// A round robin or gauntlet: a stop rule gives its reason.
    Scheduled,
}

/// What sharing the run folder with other workers cost this worker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sharing {
    /// Pairs claimed and played.
    pub claimed: u64,
    /// Of those, pairs taken over from workers that died.
    pub taken_over: u64,
    /// Tries to claim a pair.
    pub tries: u64,
    /// Reads of the other workers' files.
    pub polls: u64,
    /// Files opened by those reads.
    pub opens: u64,
    /// Bytes read by them.
    pub bytes: u64,
    /// Games of the other workers learnt of while running.
    pub learned: u64,
    /// Reads of the log of finished pairs.
    pub log_reads: u64,
    /// Bytes read from it.
    pub log_bytes: u64,
    /// Pairs this worker appended to it.
    pub logged: u64,
}

/// How a run ended, as the end of `aboure run` words it.
#[derive(Clone, Debug)]
pub struct RunEnd {
    /// What kind of run it was.
    pub kind: RunKind,
    /// Standings of every finished game of the run (every worker's).
    pub standings: Vec<Standing>,
    /// Each bot's first forfeit in this run, in words, by bot name.
    pub first_forfeits: BTreeMap<String, String>,
    /// For an SPRT, its status over every results file of the folder, and
    /// its description.
    pub sprt: Option<(OrderedStatus, String)>,
    /// Why the stop rule ended the run, if it did.
    pub stopped: Option<String>,
    /// Finished games of the run (every worker's, earlier runs included).
    pub finished: usize,
    /// Games finished by this invocation.
    pub played: usize,
    /// What sharing the folder cost this worker.
    pub sharing: Sharing,
    /// The results file.
    pub games_path: PathBuf,
    /// The output folder.
    pub out_dir: PathBuf,
}

impl RunEnd {
    /// Everything `aboure run` prints at its end: the ratings `report` of
    /// the folder (or, without one, why not and the run's own standings),
    /// then how the run ended; `report` is the report or why there is none.
    /// Names and details come from the bots and the results files: print
    /// it through [`crate::printable`].
    pub fn text(&self, report: Result<&Report, &str>) -> String {
        let mut out = match report {
            Ok(report) => report.text(),
            // The run's own tally still stands.
            Err(e) => format!("no ratings: {e}\n{}", self.standings_table()),
        };
        out += &self.ending();
        out
    }

    /// The run's own standings, as a table: for when no report of the
    /// folder could be made.
    pub fn standings_table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<24} {:>7} {:>7} {:>6} {:>6} {:>6} {:>8}",
            "bot", "games", "points", "wins", "draws", "losses", "failures"
        );
        for s in &self.standings {
            let _ = writeln!(
                out,
                "{:<24} {:>7} {:>7.1} {:>6} {:>6} {:>6} {:>8}",
                s.name,
                s.games(),
                s.points(),
                s.wdl.wins,
                s.wdl.draws,
                s.wdl.losses,
                s.failure_count()
            );
        }
        out
    }

    /// What follows the report: a warning for each bot that forfeited
    /// often (with its first forfeit here), then how the run ended.
    pub fn ending(&self) -> String {
        let mut out = String::new();
        let logs = RunFolder::new(self.games_path.parent().unwrap_or(".".as_ref())).logs();
        for s in self.standings.iter().filter(|s| s.fails_often()) {
            let _ = writeln!(
                out,
                "WARNING: {} forfeited {} of its {} games; see its logs in {}",
                s.name,
                s.failure_count(),
                s.games(),
                logs.display()
            );
            if let Some(detail) = self.first_forfeits.get(&s.name) {
                let _ = writeln!(out, "  its first forfeit here: {detail}");
            }
        }
        self.write_verdict(&mut out);
        self.write_folder(&mut out);
        out
    }

    /// The SPRT's counts and verdict, and why the run stopped early.
    fn write_verdict(&self, out: &mut String) {
        if let Some((status, describe)) = &self.sprt {
            let _ = writeln!(
                out,
                "pairs (LL, LD, WL+DD, WD, WW): {:?}",
                status.counts.counts()
            );
            let _ = writeln!(out, "{describe}");
        }
        match (&self.stopped, self.kind) {
            (Some(_), RunKind::Sprt) => {
                let _ = writeln!(out, "stopped early: the test decided");
            }
            (Some(verdict), RunKind::League) => {
                let _ = writeln!(out, "{verdict}");
            }
            (Some(reason), RunKind::Scheduled) => {
                let _ = writeln!(out, "stopped early: {reason}");
            }
            (None, _) => {}
        }
    }

    /// Where the games are, and what this worker shared with others.
    fn write_folder(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{} games in {} ({} played now by this worker, into {})",
            self.finished,
            self.out_dir.display(),
            self.played,
            self.games_path.display()
        );
        let w = self.sharing;
        if w.taken_over > 0 {
            let _ = writeln!(
                out,
                "{} of this worker's {} pairs were taken over from workers that died",
                w.taken_over, w.claimed
            );
        }
        if w.opens > 0 || w.learned > 0 {
            let _ = writeln!(
                out,
                "shared with other workers: {} pairs claimed in {} tries; their files read {} times ({} opens, {} bytes); \
                 the log of finished pairs read {} times ({} bytes), {} pairs appended to it",
                w.claimed, w.tries, w.polls, w.opens, w.bytes, w.log_reads, w.log_bytes, w.logged
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_records::Termination;
    use aboure_stats::Wdl;

    fn standing(name: &str, (wins, draws, losses): (u64, u64, u64), forfeits: u64) -> Standing {
        Standing {
            name: name.to_owned(),
            wdl: Wdl {
                wins,
                draws,
                losses,
            },
            failures: [(Termination::TimeForfeit, forfeits)]
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .collect(),
        }
    }

    fn run_end(kind: RunKind) -> RunEnd {
        RunEnd {
            kind,
            standings: vec![standing("a", (7, 2, 1), 0), standing("b", (1, 2, 7), 5)],
            first_forfeits: BTreeMap::from([("b".to_owned(), "no bestmove".to_owned())]),
            sprt: None,
            stopped: Some("the budget is spent".to_owned()),
            finished: 10,
            played: 4,
            sharing: Sharing::default(),
            games_path: PathBuf::from("out/t/games.jsonl"),
            out_dir: PathBuf::from("out/t"),
        }
    }

    #[test]
    fn the_ending_warns_of_a_bot_that_forfeits_often_and_says_where_the_games_are() {
        let expected = "WARNING: b forfeited 5 of its 10 games; see its logs in out/t/logs\n  \
                        its first forfeit here: no bestmove\n\
                        stopped early: the budget is spent\n\
                        10 games in out/t (4 played now by this worker, into out/t/games.jsonl)\n";
        let ending = run_end(RunKind::Scheduled).ending();
        assert_eq!(
            ending, expected,
            "\nexpected:\n{expected}\nactual:\n{ending}"
        );
    }

    #[test]
    fn a_stop_is_worded_by_the_kind_of_run() {
        let line = |kind| run_end(kind).ending().lines().nth(2).map(str::to_owned);
        assert_eq!(
            line(RunKind::Sprt).as_deref(),
            Some("stopped early: the test decided")
        );
        assert_eq!(
            line(RunKind::League).as_deref(),
            Some("the budget is spent")
        );
    }

    #[test]
    fn sharing_is_said_only_when_there_was_some() {
        let mut end = run_end(RunKind::Scheduled);
        end.sharing = Sharing {
            claimed: 6,
            taken_over: 2,
            tries: 9,
            polls: 3,
            opens: 5,
            bytes: 700,
            learned: 4,
            log_reads: 2,
            log_bytes: 80,
            logged: 6,
        };
        let ending = end.ending();
        let tail: Vec<&str> = ending.lines().skip(4).collect();
        assert_eq!(
            tail,
            [
                "2 of this worker's 6 pairs were taken over from workers that died",
                "shared with other workers: 6 pairs claimed in 9 tries; their files read 3 times \
                 (5 opens, 700 bytes); the log of finished pairs read 2 times (80 bytes), \
                 6 pairs appended to it"
            ],
            "{ending}"
        );
    }

    #[test]
    fn without_a_report_the_text_says_why_and_gives_the_run_s_own_standings() {
        let end = run_end(RunKind::Scheduled);
        let text = end.text(Err("cannot read the results back"));
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(
            rows[0], "no ratings: cannot read the results back",
            "{text}"
        );
        assert!(rows[1].starts_with("bot "), "{text}");
        let b: Vec<&str> = rows[3].split_whitespace().collect();
        assert_eq!(b, ["b", "10", "2.0", "1", "2", "7", "5"], "{text}");
        assert!(text.ends_with(&end.ending()), "{text}");
    }
}
