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

use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;

use aboure_records::GameRecord;
use aboure_report::{Input, Report, ReportOptions, SprtSettings};
use serde::Serialize;
use serde_json::{json, Value};

use crate::eta::{games_per_minute, seconds_left, sprt_remaining_pairs};

/// Recent games, and recent forfeits, the page's game viewer holds.
pub const VIEWER_GAMES: usize = 40;

/// Finish times the pace is measured over.
const PACE_WINDOW: usize = 200;

/// Warnings kept (the newest; the count says how many there were).
const WARNINGS_KEPT: usize = 50;

/// What `run.json` says about the run as a whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunInfo {
    /// The SPRT, for an SPRT run.
    pub sprt: Option<SprtSettings>,
    /// Games of the whole schedule (all shards).
    pub scheduled: Option<u64>,
    /// Most game pairs of an SPRT.
    pub max_pairs: Option<u64>,
}

/// One run, as far as its files have been read.
#[derive(Debug, Default)]
pub struct LiveRun {
    input: Input,
    ids: HashSet<String>,
    /// Indexes in `input.games` of the newest games kept whole.
    recent: VecDeque<usize>,
    /// The same for forfeits.
    forfeits: VecDeque<usize>,
    /// Finish times (seconds since the epoch) of the newest games.
    finishes: VecDeque<f64>,
    info: RunInfo,
    warnings_seen: usize,
}

/// What the page shows at one moment.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    /// The live figures (games, pace, ETA, LLR, recent failures).
    pub live: Value,
    /// The report's own HTML (header, navigation and sections).
    pub body: String,
}

impl LiveRun {
    /// A run with nothing read yet.
    pub fn new() -> LiveRun {
        LiveRun::default()
    }

    /// Sets what `run.json` says.
    pub fn set_info(&mut self, info: RunInfo) {
        self.info = info;
    }

    /// Registers a results file; its games are pushed with the index returned.
    pub fn add_file(&mut self, path: PathBuf) -> usize {
        self.input.files.push(path);
        self.input.files.len() - 1
    }

    /// Forgets every game read from `file` (it was truncated or replaced).
    pub fn forget_file(&mut self, file: usize) {
        let input = std::mem::take(&mut self.input);
        let mut games = Vec::with_capacity(input.games.len());
        let mut sources = Vec::with_capacity(input.games.len());
        for (g, s) in input.games.into_iter().zip(input.sources) {
            if s == file {
                self.ids.remove(&g.id);
            } else {
                games.push(g);
                sources.push(s);
            }
        }
        self.input = Input {
            games,
            sources,
            files: input.files,
            warnings: input.warnings,
        };
        // Indexes moved: keep whole what is still there, newest last.
        let keep = |list: &mut VecDeque<usize>, games: &[GameRecord], forfeit: bool| {
            list.clear();
            for (i, g) in games.iter().enumerate().rev() {
                if list.len() == VIEWER_GAMES {
                    break;
                }
                if !g.moves.is_empty() && (!forfeit || g.termination.is_forfeit()) {
                    list.push_front(i);
                }
            }
        };
        keep(&mut self.recent, &self.input.games, false);
        keep(&mut self.forfeits, &self.input.games, true);
    }

    /// A problem in a file (`file:line: ...`).
    pub fn warn(&mut self, message: String) {
        self.warnings_seen += 1;
        if self.input.warnings.len() == WARNINGS_KEPT {
            self.input.warnings.remove(0);
        }
        self.input.warnings.push(message);
    }

    /// Adds one game read from `file`; a game id already read is counted once.
    pub fn push(&mut self, file: usize, game: GameRecord) {
        if !self.ids.insert(game.id.clone()) {
            self.warn(format!(
                "{}: game {} already read: counted once",
                self.input.files[file].display(),
                game.id
            ));
            return;
        }
        if let Some(finish) = finish_time(&game) {
            // Shards finish out of order; keep the window sorted.
            let at = self.finishes.partition_point(|&t| t <= finish);
            self.finishes.insert(at, finish);
            if self.finishes.len() > PACE_WINDOW {
                self.finishes.pop_front();
            }
        }
        let index = self.input.games.len();
        let forfeit = game.termination.is_forfeit();
        self.input.games.push(game);
        self.input.sources.push(file);
        for (list, wanted) in [(&mut self.recent, true), (&mut self.forfeits, forfeit)] {
            if !wanted {
                continue;
            }
            list.push_back(index);
            if list.len() > VIEWER_GAMES {
                if let Some(old) = list.pop_front() {
                    strip(&mut self.input.games[old]);
                }
            }
        }
    }

    /// Games read.
    pub fn games(&self) -> usize {
        self.input.games.len()
    }

    /// The report and live figures of everything read so far.
    pub fn snapshot(&self) -> Snapshot {
        let options = ReportOptions {
            sprt: self.info.sprt,
            viewer_games: Some(0),
            ..ReportOptions::default()
        };
        let mut report = Report::from_input(&self.input, &options);
        // The viewer shows the games still whole: forfeits, then the newest.
        let mut shown: Vec<usize> = self.forfeits.iter().chain(&self.recent).copied().collect();
        shown.sort_unstable();
        shown.dedup();
        report.records = shown.iter().map(|&i| self.input.games[i].clone()).collect();
        report.records_left_out = self.input.games.len() - report.records.len();
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
        let (remaining, basis) = match (&report.sprt, self.info.sprt) {
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
        let failures: Vec<Value> = report
            .failures
            .iter()
            .rev()
            .take(20)
            .map(|f| json!({"game": f.game, "bot": f.bot, "kind": f.kind, "termination": f.termination, "detail": f.detail}))
            .collect();
        json!({
            "games": done,
            "pairs": report.pairs,
            "files": report.files,
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
            "failures_total": report.failures.len(),
            "failures": failures,
            "warnings_total": self.warnings_seen,
        })
    }
}

/// Cuts a record down to what the report counts: the viewer will not show it.
fn strip(game: &mut GameRecord) {
    game.moves = Vec::new();
    game.plies = Vec::new();
    game.opening.moves = Vec::new();
}

/// When the game finished, in seconds since the epoch.
fn finish_time(game: &GameRecord) -> Option<f64> {
    let started = humantime::parse_rfc3339_weak(&game.started).ok()?;
    let since = started.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some(since.as_secs_f64() + game.duration_ms / 1000.0)
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

    fn game(id: &str, result: &str, termination: &str) -> GameRecord {
        serde_json::from_str(&format!(
            r#"{{"id":"{id}","pairing":["a","b"],"pair":0,"game":0,"south":"a","north":"b","moves":["3"],"result":"{result}","termination":"{termination}","started":"2026-01-01T00:00:{:02}Z"}}"#,
            id.len() % 60
        ))
        .unwrap()
    }

    #[test]
    fn old_games_are_cut_down_and_duplicates_counted_once() {
        let mut run = LiveRun::new();
        let f = run.add_file(PathBuf::from("games.jsonl"));
        for i in 0..VIEWER_GAMES + 5 {
            run.push(f, game(&format!("g{i}"), "1-0", "natural"));
        }
        run.push(f, game("g0", "1-0", "natural"));
        assert_eq!(run.games(), VIEWER_GAMES + 5);
        let whole = run.input.games.iter().filter(|g| !g.moves.is_empty());
        assert_eq!(whole.count(), VIEWER_GAMES);
        let snap = run.snapshot();
        assert_eq!(snap.live["games"], (VIEWER_GAMES + 5) as u64);
        assert!(snap.body.contains("<section id=\"standings\">"));
        assert!(!snap.body.contains("<footer>") && !snap.body.contains("<body>"));
    }

    #[test]
    fn forgetting_a_file_drops_its_games() {
        let mut run = LiveRun::new();
        let a = run.add_file(PathBuf::from("shard-1.jsonl"));
        let b = run.add_file(PathBuf::from("shard-2.jsonl"));
        run.push(a, game("a1", "1-0", "natural"));
        run.push(b, game("b1", "0-1", "natural"));
        run.forget_file(a);
        assert_eq!(run.games(), 1);
        run.push(a, game("a1", "1/2-1/2", "natural"));
        assert_eq!(run.games(), 2);
        assert_eq!(run.snapshot().live["games"], 2);
    }
}
