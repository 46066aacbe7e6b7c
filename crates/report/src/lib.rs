//! Reports of aboure tournaments: which bot is stronger, by how much, and
//! how sure we are.
//!
//! [`ReportTally`] takes games one at a time (from [`read_files`], or a run
//! still being appended to) in memory that does not grow with the games,
//! and makes the [`Report`] of what it has seen at any moment;
//! [`Report::build`] turns game records (from `games.jsonl` or CSV, see
//! `aboure-records`) into one model; [`Report::text`], [`Report::json`] and
//! [`Report::html`] only format it, so the three always agree. Ratings are
//! BayesElo's Bradley-Terry model with 95% intervals from the covariance (or the profile likelihood, or a bootstrap over game pairs),
//! fitted by maximum likelihood or with BayesElo's prior of virtual draws
//! ([`ReportOptions::prior`]; a league's report uses it by default, see
//! [`default_prior`]);
//! head-to-head figures are fastchess's W/D/L and game-pair (pentanomial)
//! statistics; an SPRT run shows fishtest's log-likelihood ratio. When a
//! number does not exist (one game, a bot that never scored, groups of bots
//! that never met), the report says so in words and leaves the number out.
//!
//! ```
//! use aboure_records::GameRecord;
//! use aboure_report::{Report, ReportOptions};
//!
//! let line = r#"{"id":"g1","pairing":["a","b"],"pair":0,"game":0,"south":"a","north":"b","result":"1-0","termination":"natural"}"#;
//! let game: GameRecord = serde_json::from_str(line).unwrap();
//! let report = Report::build(&[game], &ReportOptions::default());
//! assert!(report.text().contains("a conceded no point to b"));
//! assert_eq!(report.json()["players"][0]["name"], "a");
//! ```
//!
//! # The JSON report (`aboure report --format json`), schema version 1
//!
//! Numbers that do not exist are `null`, never `inf` or `NaN`. Elo figures
//! are in BayesElo's printed scale (ratings), or logistic and normalized Elo
//! (head to head). Bots are listed best first everywhere.
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `schema_version` | integer | 1; bumped when a field changes meaning or disappears |
//! | `games`, `pairs` | integer | games counted (duplicates once), complete game pairs |
//! | `files` | [string] | the results files read |
//! | `warnings` | [string] | problems in the files (`file:line: ...`) and duplicate ids |
//! | `players` | [player] | the standings, best first (below) |
//! | `ratings` | object | `status` (`ok`, `too_few_players`, `disconnected`, `unbounded`, `failed`), `messages` (why, in words), `groups` (bots linked by games), `first_move_advantage` and `draw_elo` (BayesElo's raw model scale; `null` unless one fit covers everybody), `anchor` (the first anchor, `[name, elo]`, or `null`), `anchors` (every fixed anchor, `[[name, elo], ...]`), `loose_anchors` (every loose anchor, `[[name, elo, sd], ...]`: a normal prior on that bot's rating; the ratings are then the posterior mode, absolute), `intervals` (`covariance`, `likelihood` or `bootstrap`: how the 95% intervals were computed), `prior` (number: the virtual draws per bot of BayesElo's `prior` the fit counted, spread over each bot's opponents; `0` for none, pure maximum likelihood; by default 2 for a league's run folder, 0 otherwise), `bootstrap` (`{samples, seed}` of the resamples with `--intervals bootstrap`, else `null`), `fit` (the model's goodness of fit when one fit covers everybody, else `null`: `chi_square`, `degrees_of_freedom`, `p_value` (`null` without degrees of freedom), `deviations`: up to 3 pairings, the largest first, each `bots`, `games`, `observed` and `expected` points of the first bot, `z`), `cycles` (results that go round beyond noise: each `bots` `[a, b, c]` where a beat b beat c beat a, `scores` of each leg's winner, `los` of each leg, at least 0.99) |
//! | `los` | object | `players` and `matrix`: `matrix[i][j]` is the likelihood that `players[i]` is stronger than `players[j]` (`null` unless both rated in one group) |
//! | `crosstable` | object | `players` and `cells`: `cells[i][j]` is `null` or `{games, points, wins, draws, losses, pentanomial}` of the row bot against the column bot |
//! | `pairings` | [pairing] | every two bots that met (below) |
//! | `failures` | [object] | games lost by forfeit (the first 1,000): `game` (id), `bot`, `kind` (`time`, `illegal`, `crash`, `other`), `termination`, `detail` |
//! | `failures_left_out` | integer | present only when more forfeits than those listed: how many more (the players' `failures` count them all) |
//! | `sprt` | object or null | `test`, `baseline`, `elo0`, `elo1`, `alpha`, `beta`, `model`, `pairs`, `pentanomial`, `llr`, `lower`, `upper`, `decision` (`accept_h0`, `accept_h1`, `continue`), `max_pairs` (the cap of a truncated test, or null), `truncated` (true when the cap decided, by the sign of the LLR), `elo` (once decided: `naive`, the Elo of the counted pairs in the test's model, and `corrected`, corrected for the stopping rule; null otherwise), `path` (LLR after each complete pair) |
//! | `sandbox` | object | present only when the run's `run.json` records it: `mode` (`auto`, `strict`, `off`) and `layers` (per layer: `name`, `active`, `detail`: what it does or why it was off) |
//! | `league` | object | present only for a league (its `run.json` records it): `entrants` (best first: `name`, `rank`, `elo`, `joined` (pair number, 0 for a founder), `joined_at`, `retired_from` (pair number or null)), `verdict` (null until the league stops: `reason` (`budget-spent`, `settled`, `no-opponents`), `pairs`, `games`, `neighbours`: each `rank`, `upper`, `lower`, `difference`, `error`, `los`, `verdict` (`separated`, `within-margin`, `open`)), `history` (ratings over time: each `games` and `elo`, aligned with `entrants`, null before rated) |
//! | `openings` | object | present only for a run played from an openings file (its `run.json` records the book): `file` (as the tournament file names it; `null` in folders written before it was recorded), `openings` (lines in the book), `decided` (pairs listed that one bot won both games of), `pairs` (by opening, the first 1,000: `opening` (its line in the book, from 1), `position` (`START moves M...`), `games` (game 0 first: `south`, `north`, `result` from South's view), `verdict` (`NAME won both`, `split`, `NAME won one, one drawn`, `one game played`)), `pairs_left_out` |
//! | `accuracy` | object or null | per-move accuracy against the exact solver (below); `null` when not analysed |
//!
//! A *player*: `rank`, `name`, `elo`, `elo_low`, `elo_high` (95% interval; with `--intervals likelihood` an end is `null` when the likelihood does not bound it, with `--intervals bootstrap` when more than 2.5% of the resamples put the rating at infinity),
//! `group` (1-based; ratings compare only within a group), `games`, `wins`,
//! `draws`, `losses`, `points`, `score` and `draw_ratio` (per game),
//! `failures` (`time`, `illegal`, `crash`, `other`: forfeits by kind).
//!
//! A *pairing*: `players` (two names; figures are from the first's view),
//! `games`, `wins`, `draws`, `losses`, `points`, `pentanomial` (`ll`, `ld`,
//! `wl`, `dd`, `wd`, `ww`: complete pairs by outcome), `pairs`,
//! `unpaired_games`, and `trinomial_stats` (games as independent samples)
//! and `pentanomial_stats` (pairs; `null` without one), each a *summary*:
//! `games`, `score`, `draw_ratio`, `elo`, `nelo` (each a *figure*), `los`.
//!
//! A *figure*: `value`, `low`, `high` (95% interval; an end is `null` when
//! unbounded) and `special`: `null`, or `"+inf"` / `"-inf"` (every point /
//! no point scored) or `"undefined"`, with `value` then `null`.
//!
//! *accuracy*: `players` (per bot: `name`, `moves` analysed, `average_loss`
//! in seeds per move, `perfect` moves and `perfect_ratio`, `blunders`),
//! `games` (per analysed game: `game` id, `first_decisive_mistake` or
//! `null`, and `moves`: per ply, `null` for plies not counted, else
//! `{ply, bot, played, value, best, best_value, loss, could_reach, reaches,
//! blunder}`; at most `--accuracy-games` games, every forfeit then the most
//! recent, and then `games_left_out` says how many more were analysed),
//! `analysed_games`, `skipped_games`, `budget_exhausted`,
//! `positions`, `nodes`. Per bot also `total_loss`. A move's value is the
//! margin of seeds still to come that its side reaches with perfect play
//! after it; the loss is the best value minus it; `could_reach` and
//! `reaches` (`win`, `draw`, `loss`) add the seeds already captured; a
//! blunder turns a reachable win into a draw or loss, or a draw into a loss.
//! Opening plies, forced passes and positions with one legal move are not
//! counted.
#![deny(missing_docs)]

mod accuracy;
mod analysis;
mod book;
mod compute;
mod escape;
mod failure;
mod figure;
mod html;
mod ids;
mod input;
mod json;
mod kept;
mod league_report;
mod open_pairs;
mod options;
mod pairings;
mod player_line;
mod plot;
mod printable;
mod ratings;
mod report;
mod run_end;
mod run_folder;
mod sprt_report;
mod stream;
mod tally;
mod text;
mod tune_report;
mod viewer;

/// The sandbox layers of a run, as its `run.json` records them.
pub use aboure_records::{SandboxLayer, SandboxLayers};
pub use accuracy::{AccuracyReport, GameAccuracy, MoveAccuracy, PlayerAccuracy};
pub use book::{OpeningGame, OpeningPair, OpeningsBook, OpeningsReport, OPENING_PAIRS_LISTED};
pub use failure::{
    failure_groups, forfeit_kind, Failure, FailureCounts, FailureGroup, ForfeitKind,
};
pub use figure::{Figure, HeadToHeadFigures};
pub use input::{
    files_of, league_of, load, openings_of, prior_of, sandbox_of, seed_of, sprt_of, Input,
    InputError,
};
pub use league_report::{HistoryPoint, LeagueEntrant, LeagueReport, MOST_CHECKPOINTS};
pub use options::{
    default_prior, AccuracyOptions, IntervalKind, ReportOptions, SprtSettings,
    DEFAULT_ACCURACY_GAMES, DEFAULT_VIEWER_GAMES,
};
pub use pairings::Pairing;
pub use player_line::PlayerLine;
pub use printable::{hidden_control, printable};
pub use ratings::{CycleLine, Deviation, FitSummary, RatingStatus};
pub use report::{
    BootstrapSettings, Cell, Crosstable, LosMatrix, RatingsSummary, Report, SCHEMA_VERSION,
};
pub use run_end::{RunEnd, RunKind, Sharing};
pub use run_folder::{run_report_tally, write_run_reports, RUN_REPORTS};
pub use sprt_report::SprtReport;
pub use stream::{read_files, Progress, StreamError};
pub use tally::{Pushed, ReportTally, FAILURES_LISTED};
pub use tune_report::{is_tune_folder, ParameterPath, TuneReport};
