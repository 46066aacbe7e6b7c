//! The state of one watched run, fed one game at a time, and the snapshot
//! the page shows.
//!
//! This is the one place that knows how a snapshot is computed: games go in
//! through [`LiveRun::push`], a [`Snapshot`] comes out of
//! [`LiveRun::snapshot`]. It keeps what `Report::from_input` needs: every
//! game, but only the newest games and the newest forfeits whole (moves and
//! plies, which the game viewer needs and which make up most of a record);
//! the others are cut down to their result. When the report can be built
//! from a streaming accumulator, that accumulator replaces the list here.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use aboure_records::workers::{WorkerState, WorkersFile};
use aboure_records::{GameSummary, Problem, ProblemKind};
use aboure_report::{Pushed, Report, ReportOptions, ReportTally, SandboxLayers, SprtSettings};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use aboure_stats::eta::{games_per_minute, seconds_left, sprt_remaining_pairs};

/// Recent games (and early forfeits) the page's game viewer holds.
pub const VIEWER_GAMES: usize = 40;

/// Finish times the pace is measured over.
const PACE_WINDOW: usize = 200;

/// Forfeits the live panel lists, newest first.
const RECENT_FAILURES: usize = 20;

/// What `run.json` says about the run as a whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunInfo {
    /// The SPRT, for an SPRT run.
    pub sprt: Option<SprtSettings>,
    /// Games of the whole schedule (all shards).
    pub scheduled: Option<u64>,
    /// Most game pairs of an SPRT.
    pub max_pairs: Option<u64>,
    /// The sandbox the bots ran in, as the run recorded it.
    pub sandbox: Option<SandboxLayers>,
    /// A league's entrants (and its verdict, if it had stopped).
    pub league: Option<aboure_records::LeagueRecord>,
    /// The prior its ratings are fitted with: the report's default for the
    /// run's format ([`aboure_report::default_prior`]), so that the page's
    /// leaderboard and ratings over time are the run's report's.
    pub prior: Option<f64>,
    /// The openings book the run plays from, for the report's openings
    /// section (each opening's pairs both ways), as `aboure report` shows it.
    pub openings: Option<aboure_report::OpeningsBook>,
}

/// One run, as far as its files have been read.
#[derive(Debug)]
pub struct LiveRun {
    tally: ReportTally,
    /// The run's name, the one file its results files count as.
    name: PathBuf,
    files: Vec<PathBuf>,
    /// Finish times (seconds since the epoch) of the newest games.
    finishes: VecDeque<f64>,
    /// The newest forfeits, newest last.
    failures: VecDeque<Value>,
    info: RunInfo,
    /// The run's `workers.json` as last read, or why it could not be.
    workers: Result<Option<WorkersFile>, String>,
}

/// What the page shows at one moment.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    /// The live figures (games, pace, ETA, LLR, recent failures).
    pub live: Value,
    /// The report's own HTML (header, navigation and sections).
    pub body: String,
}

/// The keys of a line the pace needs (the report does not).
#[derive(Deserialize)]
struct Timing<'a> {
    #[serde(default, borrow)]
    started: &'a str,
    #[serde(default)]
    duration_ms: f64,
}

impl LiveRun {
    /// A run of the folder `dir` with nothing read yet. All its files count
    /// as one for the report: they are shards of one run, whose game pairs
    /// may be split between them.
    pub fn new(dir: &Path, info: RunInfo) -> LiveRun {
        let mut tally = ReportTally::new(ReportOptions {
            sprt: info.sprt.clone(),
            sandbox: info.sandbox.clone(),
            league: info.league.clone(),
            prior: info.prior,
            openings: info.openings.clone(),
            viewer_games: Some(VIEWER_GAMES),
            ..ReportOptions::default()
        });
        tally.begin_file(dir);
        LiveRun {
            tally,
            name: dir.to_owned(),
            files: Vec::new(),
            finishes: VecDeque::new(),
            failures: VecDeque::new(),
            info,
            workers: Ok(None),
        }
    }

    /// The run's workers, as `workers.json` says (or why it cannot be read).
    pub fn set_workers(&mut self, workers: Result<Option<WorkersFile>, String>) {
        self.workers = workers;
    }

    /// What `run.json` said when the run was made.
    pub fn info(&self) -> &RunInfo {
        &self.info
    }

    /// Registers a results file, for the list of files shown.
    pub fn add_file(&mut self, path: PathBuf) {
        self.files.push(path);
    }

    /// True when a record read replaced one counted before (the one its
    /// mark names, read after a left-over): the files must be read again
    /// from their start, after [`LiveRun::restart`].
    pub fn needs_restart(&self) -> bool {
        self.tally.needs_restart()
    }

    /// Starts the count over, the choices between records of one id kept,
    /// for the files to be read again.
    pub fn restart(&mut self) {
        self.tally.restart();
        self.tally.begin_file(&self.name);
        self.finishes.clear();
        self.failures.clear();
    }

    /// Adds the game on line `line` of `path` (its JSON text, no newline);
    /// a game id already read is counted once, from the record
    /// [`aboure_records::RecordChoice`] picks (see [`LiveRun::needs_restart`]).
    pub fn push(&mut self, path: &Path, line: usize, text: &[u8]) {
        let game = match GameSummary::from_line(text) {
            Ok(g) => g,
            Err(e) => {
                self.tally.problem(&Problem {
                    path: path.to_owned(),
                    line,
                    kind: ProblemKind::Malformed,
                    message: e.to_string(),
                });
                return;
            }
        };
        self.tally.from_file(path);
        if self.tally.push(&game, text) != Pushed::Counted {
            return;
        }
        if let Some(bot) = game.forfeited_by() {
            if self.failures.len() == RECENT_FAILURES {
                self.failures.pop_front();
            }
            self.failures.push_back(json!({
                "game": &*game.id, "bot": bot, "termination": game.termination,
                "detail": game.detail.as_deref(),
            }));
        }
        if let Some(finish) = finish_time(text) {
            // Shards finish out of order; keep the window sorted.
            let at = self.finishes.partition_point(|&t| t <= finish);
            self.finishes.insert(at, finish);
            if self.finishes.len() > PACE_WINDOW {
                self.finishes.pop_front();
            }
        }
    }

    /// A problem in a file (`file:line: ...`).
    pub fn warn(&mut self, problem: &Problem) {
        self.tally.problem(problem);
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.tally.games()
    }

    /// The report and live figures of everything read so far.
    pub fn snapshot(&mut self) -> Snapshot {
        let report = self.tally.report();
        let live = self.live_figures(&report);
        Snapshot {
            live,
            body: body_of(&report.html()),
        }
    }

    fn live_figures(&self, report: &Report) -> Value {
        let pace = match (self.finishes.front(), self.finishes.back()) {
            (Some(a), Some(b)) => games_per_minute(self.finishes.len() as u64, b - a),
            _ => None,
        };
        let done = report.games;
        let (remaining, basis) = match (&report.sprt, &self.info.sprt) {
            (Some(s), _) if s.decision != "continue" => (Some(0.0), "sprt"),
            (Some(s), _) => (
                sprt_remaining_pairs(s.llr, s.lower, s.upper, s.pairs, self.info.max_pairs)
                    .map(|p| 2.0 * p),
                "sprt",
            ),
            (None, Some(_)) => (self.info.max_pairs.map(|p| 2.0 * p as f64), "sprt"),
            (None, None) => (
                self.info.scheduled.map(|s| s.saturating_sub(done) as f64),
                "schedule",
            ),
        };
        let failures: Vec<&Value> = self.failures.iter().rev().collect();
        json!({
            "games": done,
            "pairs": report.pairs,
            "files": self.files,
            "scheduled": self.info.scheduled,
            "per_minute": pace,
            "remaining_games": remaining,
            "remaining_seconds": remaining.and_then(|r| seconds_left(r, pace)),
            "eta_basis": basis,
            "sprt": report.sprt.as_ref().map(|s| json!({
                "llr": s.llr, "lower": s.lower, "upper": s.upper,
                "decision": s.decision, "pairs": s.pairs,
                "test": s.test, "baseline": s.baseline,
            })),
            "leader": report.players.first().map(|p| json!({"name": p.name, "games": p.games, "elo": p.elo})),
            "failures_total": report.players.iter().map(|p| p.failures.total()).sum::<u64>(),
            "failures": failures,
            "workers": self.workers_figures(),
        })
    }

    /// Each worker (name, state, pairs held, games, last seen) and the
    /// pairs taken over from workers that died; null for a run that has no
    /// `workers.json` (one process).
    fn workers_figures(&self) -> Value {
        let file = match &self.workers {
            Ok(None) => return Value::Null,
            Ok(Some(file)) => file,
            Err(e) => return json!({ "error": e, "list": [], "taken_over": [] }),
        };
        let state = |s: WorkerState| match s {
            WorkerState::Alive => "alive",
            WorkerState::Ended => "ended",
            WorkerState::Died => "dead",
        };
        let list: Vec<Value> = file
            .workers
            .iter()
            .map(|w| {
                json!({
                    "name": w.name, "state": state(w.state), "holding": w.holding,
                    "games": w.games, "last_seen": w.last_seen,
                })
            })
            .collect();
        let dead = |name: &str| {
            file.worker(name)
                .is_some_and(|w| w.state == WorkerState::Died)
        };
        let taken_over: Vec<Value> = file
            .workers
            .iter()
            .flat_map(|w| w.took_over.iter().map(move |t| (w, t)))
            .filter(|(_, t)| dead(&t.from))
            .map(|(w, t)| json!({ "pair": t.pair, "from": t.from, "by": w.name }))
            .collect();
        json!({ "written": file.written, "list": list, "taken_over": taken_over })
    }
}

/// When the game on this line finished, in seconds since the epoch.
fn finish_time(line: &[u8]) -> Option<f64> {
    let timing: Timing = serde_json::from_slice(line).ok()?;
    let started = humantime::parse_rfc3339_weak(timing.started).ok()?;
    let since = started.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(since.as_secs_f64() + timing.duration_ms / 1000.0)
}

/// The part of the report's page between `<body>` and its footer: its
/// header, navigation and sections, which the live page swaps in whole.
pub(crate) fn body_of(page: &str) -> String {
    let start = page.find("<body>").map_or(0, |i| i + "<body>".len());
    let end = page[start..]
        .find("<footer>")
        .map_or(page.len(), |i| start + i);
    page[start..end].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, result: &str, termination: &str) -> Vec<u8> {
        let loser = if termination == "crash" {
            r#","loser":"south","detail":"exit 1""#
        } else {
            ""
        };
        format!(
            r#"{{"id":"{id}","pairing":["a","b"],"pair":0,"game":0,"south":"a","north":"b","moves":["3"],"result":"{result}","termination":"{termination}"{loser},"started":"2026-01-01T00:00:00Z","duration_ms":{}}}"#,
            id.len() * 1000
        )
        .into_bytes()
    }

    #[test]
    fn games_are_counted_once_and_failures_listed_newest_first() {
        let mut run = LiveRun::new(Path::new("out/x"), RunInfo::default());
        let file = Path::new("out/x/games.jsonl");
        run.push(file, 1, &line("g1", "1-0", "natural"));
        run.push(file, 2, &line("g22", "0-1", "crash"));
        run.push(file, 3, &line("g1", "1-0", "natural"));
        run.push(file, 4, b"{not json");
        run.push(file, 5, &line("g333", "0-1", "crash"));
        assert_eq!(run.games(), 3);
        let snap = run.snapshot();
        assert_eq!(snap.live["games"], 3);
        assert_eq!(snap.live["failures_total"], 2);
        assert_eq!(snap.live["failures"][0]["game"], "g333");
        assert_eq!(snap.live["failures"][1]["detail"], "exit 1");
        // Three games finishing at 2, 3 and 4 s: two intervals in 2 s.
        assert_eq!(snap.live["per_minute"], 60.0);
        assert!(snap.body.contains("<section id=\"standings\">"));
        assert!(
            snap.body.contains("games.jsonl:4"),
            "the malformed line is reported"
        );
        assert!(!snap.body.contains("<footer>") && !snap.body.contains("<body>"));
        assert!(
            !snap.body.contains("id=\"openings\""),
            "no book, no section"
        );
    }

    #[test]
    fn a_run_from_a_book_shows_each_openings_pair_as_the_report_does() {
        let book = aboure_report::OpeningsBook {
            file: Some("book.txt".to_owned()),
            builtin: None,
            lines: vec!["startpos moves 3".to_owned(), "startpos moves 5".to_owned()],
        };
        let info = RunInfo {
            openings: Some(book),
            ..RunInfo::default()
        };
        let mut run = LiveRun::new(Path::new("out/x"), info);
        let file = Path::new("out/x/games.jsonl");
        // Pair 0: a wins both games; pair 1: one game so far.
        for (n, (pair, game, south, north, result)) in [
            (0, 0, "a", "b", "1-0"),
            (0, 1, "b", "a", "0-1"),
            (1, 0, "a", "b", "1/2-1/2"),
        ]
        .into_iter()
        .enumerate()
        {
            let text = format!(
                r#"{{"id":"p{pair}g{game}","pairing":["a","b"],"pair":{pair},"game":{game},"south":"{south}","north":"{north}","moves":["3"],"result":"{result}","termination":"natural"}}"#
            );
            run.push(file, n + 1, text.as_bytes());
        }
        let body = run.snapshot().body;
        assert!(
            body.contains("<section id=\"openings\"><h2>Openings</h2><p>book.txt (2 openings); 1 of 2 pairs decided"),
            "{body}"
        );
        assert!(body.contains("<td>1</td><td class=\"name\">startpos moves 3</td><td>a-b 1-0, b-a 0-1</td><td>a won both</td>"), "{body}");
        assert!(body.contains("<td>2</td><td class=\"name\">startpos moves 5</td><td>a-b 1/2-1/2</td><td>one game played</td>"), "{body}");
        assert!(
            body.contains("href=\"#openings\""),
            "the navigation links to it"
        );
    }
}
