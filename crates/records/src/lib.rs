//! The results files of aboure tournaments.
//!
//! `aboure run` appends one [`GameRecord`] per finished game to `games.jsonl`
//! (one JSON object per line, flushed and synced to disk before the next game
//! starts), so a crash or a power cut loses at most the game being written.
//! `aboure report` reads those files back, and also CSV ([`CsvRows`]) and PGN
//! ([`PgnGames`]) results, so games played elsewhere can be rated too; the
//! format is told from the content ([`ResultsFormat::detect`]).
//! This crate is the one place that knows the format; it is its own crate so
//! the arbiter that writes it and the report that reads it agree by
//! construction. For the same reason it also says which files of an output
//! folder hold results ([`results_files`]: a run's `games.jsonl`, shard K of
//! N's `games-K-of-N.jsonl`) and which two records make a game pair
//! ([`GamePair`], [`PairBook`]), the unit the live SPRT and the report count,
//! and what a game adds to a bot's standing ([`Tally`]), which the run's
//! table and the report both show. It owns the folder's manifest too,
//! `run.json` ([`RunManifest`]): what the run is (its [`TournamentIdentity`]
//! and fingerprint), the games scheduled, the SPRT's bounds and the sandbox
//! layers, written by the arbiter and read by the report and the live page.
//!
//! # The schema of a line of `games.jsonl`
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `id` | string | stable game id, e.g. `r0003-p12-g1` (pairing 3, pair 12, second game) |
//! | `pairing` | [string, string] | the two bot names in schedule order |
//! | `pair` | integer | game pair number within the pairing |
//! | `game` | 0 or 1 | game within the pair (colours swapped in game 1) |
//! | `opening` | object | `index`, `moves` (opening plies) and `position` (a set-up start, if any) |
//! | `south`, `north` | string | bot names by side (South moves first from `startpos`) |
//! | `start` | string | position the game began from (`startpos` or RULES.md notation) |
//! | `moves` | [string] | every move from `start`: opening plies, bot moves, forced passes |
//! | `plies` | [object] | aligned with `moves`: `by` (`opening`, `bot`, `forced`), `time_ms` (arbiter-measured), `clock_ms` (mover's clock left after the move), `info` (the bot's last `info` for it) |
//! | `score` | [int, int] | final seeds of South and North |
//! | `result` | string | `1-0`, `0-1` or `1/2-1/2` from South's view |
//! | `termination` | string | see [`Termination`] |
//! | `loser` | `south`/`north` | the side that forfeited, for forfeits |
//! | `detail` | string | human text: the offending line, the overrun, the exit status |
//! | `time_control` | [string, string] | South's and North's time control |
//! | `started` | string | RFC 3339 UTC time the game started |
//! | `duration_ms` | number | wall time of the game |
//!
//! Unknown keys are ignored on reading, so later versions can add fields.
//!
//! ```
//! use aboure_records::{parse_games, GameResult};
//!
//! let text = concat!(
//!     r#"{"id":"x","pairing":["a","b"],"pair":0,"game":0,"south":"a","north":"b","#,
//!     r#""result":"1-0","termination":"natural"}"#, "\n",
//! );
//! let results = parse_games(text.as_bytes(), "games.jsonl".as_ref());
//! assert_eq!(results.games[0].result, GameResult::SouthWins);
//! assert!(results.problems.is_empty());
//! ```
#![deny(missing_docs)]

mod csv;
mod detect;
mod folder;
pub mod follow;
mod identity;
mod league;
mod lines;
mod manifest;
pub mod mark;
mod pair;
mod pgn;
mod problem;
mod reader;
mod record;
mod row;
mod rows;
mod scan;
mod sprt_decision;
mod standings;
mod summary;
mod tune_file;
mod versioned;
mod whole;
pub mod workers;
mod writer;

pub use crate::csv::{CsvRows, MAX_COUNT};
pub use detect::{ResultsFormat, ResultsFormatError};
pub use folder::{
    record_wins, results_file, results_files, worker_results_file, RunFolder, CLAIMS_DIR, LOGS_DIR,
    MANIFEST_FILE, REPORT_FILES, SPRT_FILE,
};
pub use follow::{Follower, Poll};
pub use identity::{
    AdjudicationIdentity, BotIdentity, BotRunIdentity, FormatIdentity, LimitsIdentity,
    OpeningsIdentity, TournamentIdentity,
};
pub use league::{
    EntrantRecord, LeagueIntervals, LeagueRecord, LeagueVerdict, NeighbourState, NeighbourVerdict,
    StopReason,
};
pub use lines::{Line, LineBlocks, ResultsLines};
pub use manifest::{ManifestError, RunManifest, SandboxLayer, SandboxLayers, MANIFEST_SCHEMA};
pub use mark::{Offered, RecordChoice};
pub use pair::{outcome, pair_results, south_outcome, GamePair, PairBook, RecordPairBook, Seat};
pub use pgn::PgnGames;
pub use problem::{Problem, ProblemKind, ReadError};
pub use reader::{parse_games, read_games, read_summaries, Results};
pub use record::{
    GameRecord, GameResult, InfoRecord, Mover, OpeningRecord, PlyRecord, SideName, Termination,
    INFO_STRING_KEPT, PV_KEPT,
};
pub use row::Row;
pub use rows::Rows;
pub use sprt_decision::{SprtFile, SprtFileError, SPRT_SCHEMA};
pub use standings::{Standing, Tally};
pub use summary::{GameSummary, Text};
pub use tune_file::{
    read_tune_path, TuneConfirm, TuneFile, TuneFileError, TunePath, TuneStep, TunedParameter,
    TUNE_FILE, TUNE_PATH_FILE, TUNE_SCHEMA,
};
pub use whole::write_whole;
pub use writer::GamesWriter;
