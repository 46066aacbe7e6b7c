//! The report's state, built one game at a time.
//!
//! A [`ReportTally`] is fed games in reading order ([`ReportTally::push`]) and can make
//! the [`Report`] of what it has seen at any moment ([`ReportTally::report`]), so
//! a file is read once, line by line, and a running tournament can be
//! watched as its games are appended. It keeps only what the figures need:
//! results by pairing and colour, the pairs still waiting for their second
//! game, forfeit counts and the first forfeits listed, the games the page
//! embeds, and one 8-byte hash per game id to count duplicates once. Memory
//! grows with the bots and the games in flight, plus those 8 bytes (10 to
//! 20 with the hash table's free slots) per game. Games from CSV and PGN
//! files ([`ReportTally::push_row`]) have no id and no pair, so they take
//! no memory of their own at all.
//!
//! ```
//! use aboure_records::GameSummary;
//! use aboure_report::{ReportOptions, ReportTally};
//!
//! let mut tally = ReportTally::new(ReportOptions::default());
//! tally.begin_file("games.jsonl".as_ref());
//! let line = br#"{"id":"g1","pairing":["a","b"],"pair":0,"game":0,"south":"a","north":"b","result":"1-0","termination":"natural"}"#;
//! tally.push(&GameSummary::from_line(line).unwrap(), line);
//! assert_eq!(tally.games(), 1);
//! let report = tally.finish();
//! assert_eq!(report.players[0].name, "a");
//! ```

use std::borrow::Cow;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use aboure_records::{GameRecord, GameSummary, Problem, RecordChoice, Seat, Tally};
use aboure_stats::Wdl;

use crate::analysis::Analysis;
use crate::failure::{forfeit_kind, Failure};
use crate::ids::GameIds;
use crate::kept::Kept;
use crate::open_pairs::OpenPairs;
use crate::options::{ReportOptions, DEFAULT_VIEWER_GAMES};

mod once;

/// Forfeits listed by game (all are counted): the text shows 20, the page
/// links each from its bot's row.
pub const FAILURES_LISTED: usize = 1_000;

/// Problems and self-play games listed per kind and file (all are counted).
const WARNINGS_LISTED: usize = 100;

/// What became of a game given to [`ReportTally::push`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pushed {
    /// Counted.
    Counted,
    /// Its id was read before: not counted again (a warning says so).
    Duplicate,
    /// A bot played itself: not counted (a warning says so).
    SelfPlay,
    /// Another record of its id counts (the one its mark names, see
    /// [`aboure_records::RecordChoice`]): not counted (a warning says so).
    LeftOut,
    /// It counts instead of the record of its id counted before, which a
    /// tally cannot take back: the tally still counts that one (the game
    /// once, the other record) until it is fed again from the start after
    /// [`ReportTally::restart`], when the choice stands.
    Replaced,
}

/// A report under construction: feed it games, ask it for the report.
#[derive(Debug)]
pub struct ReportTally {
    pub(crate) options: ReportOptions,
    pub(crate) files: Vec<PathBuf>,
    /// Index in `files` of the file being read.
    file: usize,
    /// The results files the games come from, which of two records of one
    /// id counts depends on: `files`, or finer for a reader that counts
    /// several files as one ([`ReportTally::from_file`]).
    origins: Vec<PathBuf>,
    /// Index in `origins` of the file being read.
    origin: usize,
    /// Which record of an id read twice counts.
    choice: RecordChoice,
    /// A record counted before was replaced: the tally must start over.
    replaced: bool,
    /// Records of the current file left out for another's, how many and
    /// the first three ids.
    left_out: (u64, Vec<String>),
    /// Index in `files` of the first file of the same folder: a run's
    /// workers share its folder, and a pair whose worker died between its
    /// two games has them in two files of it, so pairs match within a
    /// folder (files of different folders are different runs).
    run: usize,
    /// Warnings of the files done, and the problems of the current one.
    warnings: Vec<String>,
    problems_in_file: u64,
    pub(crate) names: Vec<String>,
    /// Each bot's standing; its indices are those of `names`.
    pub(crate) standings: Tally,
    /// `results[south][north]`: from South's view.
    pub(crate) results: Vec<Vec<Wdl>>,
    pub(crate) failures: Vec<Failure>,
    pub(crate) failures_total: u64,
    self_play: Vec<String>,
    self_play_total: u64,
    /// Games counted.
    pub(crate) games: u64,
    /// Games offered, for reading order.
    seq: u64,
    ids: GameIds,
    /// Duplicates in the current file, by the file that had them first:
    /// how many and the first three ids.
    duplicates: Vec<(usize, u64, Vec<String>)>,
    pub(crate) pairs: OpenPairs,
    viewer: Kept<LineText>,
    pub(crate) analysis: Option<Analysis>,
    /// A league's results at checkpoints, for its ratings over time.
    pub(crate) history: Option<crate::league_report::RatingHistory>,
    /// The pairs of each opening, for a run played from a book.
    pub(crate) book: Option<crate::book::BookPairs>,
}

impl ReportTally {
    /// An empty report; the accuracy analysis, if asked for, starts its
    /// worker threads now.
    pub fn new(options: ReportOptions) -> ReportTally {
        let viewer_games = options.viewer_games.unwrap_or(DEFAULT_VIEWER_GAMES);
        let analysis = options
            .accuracy
            .map(|a| Analysis::start(&a, a.games.max(viewer_games)));
        let history = options.league.as_ref().map(|_| Default::default());
        let book = options.openings.clone().map(crate::book::BookPairs::new);
        ReportTally {
            pairs: OpenPairs::new(options.sprt.is_some()),
            options,
            files: Vec::new(),
            file: 0,
            origins: Vec::new(),
            origin: 0,
            choice: RecordChoice::new(),
            replaced: false,
            left_out: (0, Vec::new()),
            run: 0,
            warnings: Vec::new(),
            problems_in_file: 0,
            names: Vec::new(),
            standings: Tally::default(),
            results: Vec::new(),
            failures: Vec::new(),
            failures_total: 0,
            self_play: Vec::new(),
            self_play_total: 0,
            games: 0,
            seq: 0,
            ids: GameIds::default(),
            duplicates: Vec::new(),
            viewer: Kept::new(viewer_games),
            analysis,
            history,
            book,
        }
    }

    /// Writes every analysed game's per-move accuracy to `file` as JSON
    /// lines, as the analysis finishes them (in no particular order): a
    /// file, which a tally that starts over writes again from its start.
    /// Without the accuracy analysis, nothing is written.
    pub fn write_all_analyses_to(&mut self, file: std::fs::File) {
        if let Some(a) = &mut self.analysis {
            a.write_all_games_to(file);
        }
    }

    /// The games that follow come from `path`: pairs match within its
    /// folder, and duplicate warnings name files.
    pub fn begin_file(&mut self, path: &Path) {
        self.end_file();
        self.files.push(path.to_owned());
        self.in_file(self.files.len() - 1);
        self.from_file(path);
    }

    /// Takes the files and warnings of games read and merged beforehand
    /// (see [`crate::Input`]); [`ReportTally::in_file`] then says where each game
    /// came from.
    pub(crate) fn adopt(&mut self, files: &[PathBuf], warnings: &[String]) {
        self.files = files.to_vec();
        self.origins = files.to_vec();
        self.warnings = warnings.to_vec();
    }

    /// The games that follow come from file `file` of those adopted.
    pub(crate) fn in_file(&mut self, file: usize) {
        if file == self.file && file != 0 {
            return;
        }
        self.file = file;
        let folder = |i: usize| self.files.get(i).and_then(|p| p.parent());
        self.run = (0..=file)
            .find(|&i| folder(i) == folder(file))
            .unwrap_or(file);
    }

    pub(crate) fn end_file(&mut self) {
        let done = self.duplicate_warnings();
        self.warnings.extend(done);
        self.duplicates.clear();
        self.warnings.extend(self.left_out_warning());
        self.left_out = (0, Vec::new());
        if self.problems_in_file > WARNINGS_LISTED as u64 {
            self.warnings.push(format!(
                "{}: {} more problems not listed",
                self.file_name(),
                self.problems_in_file - WARNINGS_LISTED as u64
            ));
        }
        self.problems_in_file = 0;
    }

    fn file_name(&self) -> String {
        self.files.get(self.file).map_or_else(
            || "(games in memory)".to_owned(),
            |p| p.display().to_string(),
        )
    }

    /// A line of the current file that holds no game (malformed, truncated).
    pub fn problem(&mut self, problem: &Problem) {
        self.problems_in_file += 1;
        if self.problems_in_file <= WARNINGS_LISTED as u64 {
            self.warnings.push(problem.to_string());
        }
    }

    /// Counts one game; `line` is its JSON text, kept only if the page will
    /// show the game and read by the accuracy analysis.
    pub fn push(&mut self, game: &GameSummary<'_>, line: &[u8]) -> Pushed {
        self.push_from(game, Source::Line(line))
    }

    /// Counts a game already in memory, as [`ReportTally::push`].
    pub fn push_record(&mut self, game: &GameRecord) -> Pushed {
        self.push_from(&GameSummary::of(game), Source::Record(game))
    }

    /// Counts a game whose line is `block[range]`: the page's most recent
    /// games then share the block instead of copying their lines.
    pub(crate) fn push_in_block(
        &mut self,
        game: &GameSummary<'_>,
        block: &Arc<Vec<u8>>,
        range: Range<usize>,
    ) -> Pushed {
        self.push_from(game, Source::Block(block, range))
    }

    /// Counts `count` games of a CSV row or a PGN game that starts on line
    /// `line` of the current file. Such games have no id, so none is a
    /// duplicate (a file given twice counts twice), and no pair number, so
    /// they enter no game pair.
    pub fn push_row(&mut self, game: &GameSummary<'_>, line: usize, count: u32) {
        for _ in 0..count {
            self.count(game, Source::Row(game, line), false);
        }
    }

    /// A warning about the current file (not a problem of one of its lines).
    pub(crate) fn warn(&mut self, warning: String) {
        self.warnings.push(warning);
    }

    /// Counts a game that is not a duplicate; `paired`: it may be one game
    /// of a game pair.
    fn count(&mut self, game: &GameSummary<'_>, source: Source<'_>, paired: bool) -> Pushed {
        let [p0, p1, s, t] = [&game.pairing[0], &game.pairing[1], &game.south, &game.north]
            .map(|name| self.player(name));
        let seq = self.seq;
        self.seq += 1;
        let forfeit = game.termination.is_forfeit();
        if self.viewer.wants(seq, forfeit) {
            self.viewer.offer(seq, forfeit, source.keep(forfeit));
        } else {
            self.viewer.pass();
        }
        if let Some(a) = &mut self.analysis {
            a.submit(seq, forfeit, &source.bytes());
        }
        let result = aboure_records::south_outcome(game.result);
        if paired {
            self.pairs.push(
                self.run,
                [p0, p1],
                game.pair,
                Seat {
                    game: game.game,
                    south: s,
                    north: t,
                    result,
                },
            );
            if let Some(book) = &mut self.book {
                book.push(
                    self.run,
                    [p0, p1],
                    game.pair,
                    game.game,
                    (s, t, game.result),
                );
            }
        }
        if s == t {
            self.self_play_total += 1;
            if self.self_play.len() < WARNINGS_LISTED {
                self.self_play.push(format!(
                    "game {}: {} played itself; not counted",
                    game.id, game.south
                ));
            }
            return Pushed::SelfPlay;
        }
        self.games += 1;
        self.results[s][t].add(result);
        if let Some(history) = &mut self.history {
            history.counted(self.games, &self.results);
        }
        self.standings
            .count(s, t, game.result, game.termination, game.loser);
        if let Some(bot) = game.forfeited_by() {
            let kind = forfeit_kind(game.termination);
            self.failures_total += 1;
            if self.failures.len() < FAILURES_LISTED {
                self.failures.push(Failure {
                    game: game.id.to_string(),
                    bot: bot.to_owned(),
                    kind,
                    termination: game.termination,
                    detail: game.detail.as_ref().map(|d| d.to_string()),
                });
            }
        }
        Pushed::Counted
    }

    /// The index of bot `name`, added if new.
    fn player(&mut self, name: &str) -> usize {
        let i = self.standings.bot(name);
        if i < self.names.len() {
            return i;
        }
        self.names.push(name.to_owned());
        for row in &mut self.results {
            row.push(Wdl::default());
        }
        self.results.push(vec![Wdl::default(); i + 1]);
        i
    }

    /// Games counted so far (duplicates once, self-play not at all).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Games the accuracy analysis has finished with so far (analysed or
    /// skipped); `None` without the analysis.
    pub fn analysed(&mut self) -> Option<u64> {
        self.analysis.as_mut().map(Analysis::done)
    }

    /// The warnings so far: the files' problems, duplicate ids, self-play.
    pub(crate) fn warnings(&self) -> Vec<String> {
        let mut all = self.warnings.clone();
        all.extend(self.duplicate_warnings());
        all.extend(self.left_out_warning());
        all.extend(self.self_play.iter().cloned());
        if self.self_play_total > self.self_play.len() as u64 {
            all.push(format!(
                "{} more games of a bot against itself not listed",
                self.self_play_total - self.self_play.len() as u64
            ));
        }
        all
    }

    /// The games the page embeds, as their JSON lines, and how many are left out.
    pub(crate) fn viewer_games(&self) -> (Vec<Box<[u8]>>, u64) {
        let chosen = self
            .viewer
            .selected()
            .into_iter()
            .map(|line| line.as_slice().into())
            .collect();
        (chosen, self.viewer.left_out())
    }
}

/// Where a pushed game's line is.
enum Source<'l> {
    Line(&'l [u8]),
    Block(&'l Arc<Vec<u8>>, Range<usize>),
    Record(&'l GameRecord),
    /// A CSV row or PGN game and its line.
    Row(&'l GameSummary<'l>, usize),
}

impl Source<'_> {
    fn bytes(&self) -> Cow<'_, [u8]> {
        match self {
            Source::Line(line) => Cow::Borrowed(line),
            Source::Block(block, range) => Cow::Borrowed(&block[range.clone()]),
            Source::Record(game) => Cow::Owned(serde_json::to_vec(game).unwrap_or_default()),
            Source::Row(game, line) => {
                let mut record = game.to_record();
                record.id = format!("line-{line}");
                Cow::Owned(serde_json::to_vec(&record).unwrap_or_default())
            }
        }
    }

    /// The line to keep for the page. A forfeit is copied: forfeits are
    /// kept from anywhere in the file, and would each hold a whole block.
    /// The most recent games are neighbours, so the few blocks they share
    /// are all the memory they take, and reading copies nothing.
    fn keep(&self, forfeit: bool) -> LineText {
        match self {
            Source::Block(block, range) if !forfeit => {
                LineText::Shared(Arc::clone(block), range.clone())
            }
            _ => LineText::Own(self.bytes().into_owned().into_boxed_slice()),
        }
    }
}

/// A kept line: its own copy, or a part of a block read from a file.
#[derive(Clone, Debug)]
enum LineText {
    Own(Box<[u8]>),
    Shared(Arc<Vec<u8>>, Range<usize>),
}

impl LineText {
    fn as_slice(&self) -> &[u8] {
        match self {
            LineText::Own(line) => line,
            LineText::Shared(block, range) => &block[range.clone()],
        }
    }
}
