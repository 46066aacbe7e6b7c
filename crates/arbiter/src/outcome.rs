//! How a run ended, and the end of the run in words: what `aboure run`
//! prints under the report (bots that forfeited often, the SPRT's counts
//! and verdict, a league's verdict, where the games are, what sharing the
//! folder cost). Every format ends with a [`RunOutcome`]; the binary only
//! prints what this module writes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use aboure_records::{RunFolder, Standing};

use crate::config::{Config, Format};
use crate::tournament::queue::SharingCounts;

/// How a run ended.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// For an SPRT, the verdict of every results file in the folder (this
    /// worker's and the others') at the end, and its description.
    pub sprt: Option<(aboure_stats::OrderedStatus, String)>,
    /// Standings of every finished game of the run (every worker's).
    pub standings: Vec<Standing>,
    /// Finished games of the run (every worker's, earlier runs included).
    pub finished: usize,
    /// Games in the schedule.
    pub scheduled: usize,
    /// Games finished by this invocation.
    pub played: usize,
    /// What sharing the run with other workers cost this one: claims,
    /// units taken over, reads of the others' files.
    pub work: SharingCounts,
    /// True if interrupted before the schedule was done.
    pub interrupted: bool,
    /// Why the stop rule ended the run, if it did.
    pub stopped: Option<String>,
    /// Notes from preparing the output folder.
    pub notes: Vec<String>,
    /// The results file.
    pub games_path: PathBuf,
    /// The output folder.
    pub out_dir: PathBuf,
}

impl RunOutcome {
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

    /// What follows the report at the end of a run of `config`: a warning
    /// for each bot that forfeited often (with its first forfeit here,
    /// from `first_forfeits`), then how the run ended.
    pub fn ending(&self, config: &Config, first_forfeits: &BTreeMap<String, String>) -> String {
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
            if let Some(detail) = first_forfeits.get(&s.name) {
                let _ = writeln!(out, "  its first forfeit here: {detail}");
            }
        }
        self.write_verdict(&mut out, config.format());
        self.write_folder(&mut out);
        out
    }

    /// The SPRT's counts and verdict, and why the run stopped early.
    fn write_verdict(&self, out: &mut String, format: Format) {
        if let Some((status, describe)) = &self.sprt {
            let _ = writeln!(
                out,
                "pairs (LL, LD, WL+DD, WD, WW): {:?}",
                status.counts.counts()
            );
            let _ = writeln!(out, "{describe}");
        }
        match &self.stopped {
            Some(_) if format == Format::Sprt => {
                let _ = writeln!(out, "stopped early: the test decided");
            }
            // A league's verdict, per neighbour pair.
            Some(verdict) if format == Format::League => {
                let _ = writeln!(out, "{verdict}");
            }
            Some(reason) => {
                let _ = writeln!(out, "stopped early: {reason}");
            }
            None => {}
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
        let w = self.work;
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

    fn outcome() -> RunOutcome {
        RunOutcome {
            sprt: None,
            standings: vec![standing("a", (7, 2, 1), 0), standing("b", (1, 2, 7), 5)],
            finished: 10,
            scheduled: 12,
            played: 4,
            work: SharingCounts::default(),
            interrupted: false,
            stopped: Some("the budget is spent".to_owned()),
            notes: Vec::new(),
            games_path: PathBuf::from("out/t/games.jsonl"),
            out_dir: PathBuf::from("out/t"),
        }
    }

    #[test]
    fn the_ending_warns_of_a_bot_that_forfeits_often_and_says_where_the_games_are() {
        let text = "[tournament]\npairs = 3\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\
                    [[bot]]\nname = \"b\"\nbuiltin = \"random\"\n";
        let config = crate::config::parse(text, "t.toml".as_ref()).unwrap();
        let forfeits = BTreeMap::from([("b".to_owned(), "no bestmove".to_owned())]);
        let expected = "WARNING: b forfeited 5 of its 10 games; see its logs in out/t/logs\n  \
                        its first forfeit here: no bestmove\n\
                        stopped early: the budget is spent\n\
                        10 games in out/t (4 played now by this worker, into out/t/games.jsonl)\n";
        let ending = outcome().ending(&config, &forfeits);
        assert_eq!(
            ending, expected,
            "\nexpected:\n{expected}\nactual:\n{ending}"
        );
    }

    #[test]
    fn the_standings_table_has_a_row_a_bot() {
        let table = outcome().standings_table();
        let rows: Vec<&str> = table.lines().collect();
        assert_eq!(rows.len(), 3, "{table}");
        assert!(rows[0].starts_with("bot "), "{table}");
        let b: Vec<&str> = rows[2].split_whitespace().collect();
        assert_eq!(b, ["b", "10", "2.0", "1", "2", "7", "5"], "{table}");
    }
}
