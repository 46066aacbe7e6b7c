//! The output folder: `games.jsonl` (results, appended durably; shard K of
//! N appends to `games-K-of-N.jsonl`, so shards may share one folder),
//! `run.json` (what the run is, with a fingerprint of everything that
//! defines the games, shared by the shards) and `logs/` (per-bot stderr and
//! protocol logs). Resuming, or joining a folder other shards write to,
//! checks the fingerprint so results of different tournaments are never
//! mixed. A run holds the lock on its results file from before it reads it
//! until it ends ([`crate::lock`]).

use std::path::{Path, PathBuf};

use aboure_records::{read_summaries, results_files, GameRecord, GamesWriter, ProblemKind};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::config::{BotCommand, Config, Format};
use crate::error::RunError;
use crate::lock::ResultsLock;
use crate::opening::OpeningSource;
use crate::schedule::Shard;

/// The canonical description of what the games are: bots, commands,
/// options, time controls, openings, seed, format, pairs, adjudication. Not
/// concurrency, output options or the SPRT bounds (which decide when to
/// stop, not what each game is).
pub fn schedule_identity(config: &Config) -> Value {
    let bots: Vec<Value> = config
        .bots()
        .iter()
        .map(|b| {
            let run = match &b.run() {
                BotCommand::Builtin(n) => json!({ "builtin": n }),
                BotCommand::Command(c) => json!({ "command": c }),
            };
            let mut bot = json!({
                "name": b.name(),
                "run": run,
                "options": b.options(),
                "time_control": b.time_control().to_string(),
            });
            // Only when set, so runs without limits keep their fingerprint.
            if !b.limits().is_none() {
                bot["limits"] = json!({
                    "memory": b.limits().memory,
                    "cpu_ms": b.limits().cpu.map(|d| d.as_millis() as u64),
                });
            }
            if b.ponder() {
                bot["ponder"] = json!(true);
            }
            bot
        })
        .collect();
    let format = match config.format() {
        Format::RoundRobin => json!("round-robin"),
        Format::Gauntlet(g) => json!({ "gauntlet": config.bot(g).name() }),
        Format::Sprt => json!("sprt"),
    };
    let openings = match &config.openings() {
        OpeningSource::Random { plies } => json!({ "random_plies": plies }),
        OpeningSource::File(list) => json!(list
            .iter()
            .map(|o| format!(
                "{} moves {}",
                o.start_text(),
                o.moves
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            ))
            .collect::<Vec<_>>()),
    };
    let mut adjudication = json!({
        "max_plies": config.adjudication().max_plies(),
        "repetitions": config.adjudication().repetitions(),
    });
    // Only when on, so runs without it keep their fingerprint.
    if let Some(rule) = config.adjudication().solve() {
        adjudication["solve_after"] = json!(rule.after_plies());
        adjudication["solve_nodes"] = json!(rule.nodes());
    }
    json!({
        "format": format,
        "pairs": config.pairs(),
        "seed": config.seed(),
        "openings": openings,
        "adjudication": adjudication,
        "bots": bots,
    })
}

/// SHA-256 of the canonical identity, in hex.
pub fn fingerprint(identity: &Value) -> String {
    let digest = Sha256::digest(identity.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// An output folder ready for a run.
pub struct Output {
    /// The folder.
    pub dir: PathBuf,
    /// Per-bot logs.
    pub logs: PathBuf,
    /// The results file.
    pub games_path: PathBuf,
    /// The results file, open for appending.
    pub writer: GamesWriter,
    /// This run's lock on it, held (never read) until the run ends.
    pub _lock: ResultsLock,
    /// Games finished by earlier runs, without their moves (see
    /// [`aboure_records::read_summaries`]): a resumed million-game run holds
    /// a few hundred bytes a game, not the file.
    pub previous: Vec<GameRecord>,
    /// Things worth telling the user (a truncated line cut away, ...).
    pub notes: Vec<String>,
}

/// Prepares `dir` for a worker of a run of `config` writing `games_path`: a
/// fresh folder, or with `resume` an earlier run of the same tournament to
/// continue or join.
pub fn prepare(
    dir: &Path,
    config: &Config,
    resume: bool,
    shard: Option<Shard>,
    games_path: PathBuf,
) -> Result<Output, RunError> {
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs)
        .map_err(RunError::io(format!("cannot create {}", logs.display())))?;
    let lock = ResultsLock::acquire(&games_path)?;
    let run_path = dir.join("run.json");
    let identity = schedule_identity(config);
    let print = fingerprint(&identity);
    let mut notes = Vec::new();
    let mut previous = Vec::new();
    let old: Option<Value> = std::fs::read(&run_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let changed = |old: &Value| {
        let found = old["fingerprint"].as_str().unwrap_or("").to_owned();
        (found != print).then(|| RunError::ConfigChanged {
            dir: dir.to_owned(),
            found,
            expected: print.clone(),
            what: differences(&old["identity"], &identity),
        })
    };
    let has_games = std::fs::metadata(&games_path).is_ok_and(|m| m.len() > 0);
    if has_games {
        let results = read_summaries(&games_path).map_err(|e| RunError::Io {
            context: format!("cannot read {}", games_path.display()),
            source: e.source,
        })?;
        if !resume {
            return Err(RunError::ResultsExist {
                path: games_path,
                games: results.games.len(),
            });
        }
        let old = old.as_ref().ok_or_else(|| {
            RunError::DamagedResults(format!(
                "{} is missing or unreadable, so it cannot be checked that {} holds games of this tournament",
                run_path.display(),
                games_path.display()
            ))
        })?;
        if let Some(e) = changed(old) {
            return Err(e);
        }
        for p in &results.problems {
            match p.kind {
                ProblemKind::TruncatedLastLine => {
                    notes.push(format!("{p}: cut away; that game will be played again"));
                    let file = std::fs::OpenOptions::new()
                        .write(true)
                        .open(&games_path)
                        .and_then(|f| f.set_len(results.complete_len).map(|()| f))
                        .and_then(|f| f.sync_all());
                    file.map_err(RunError::io(format!(
                        "cannot truncate {}",
                        games_path.display()
                    )))?;
                }
                ProblemKind::Malformed => return Err(RunError::DamagedResults(p.to_string())),
            }
        }
        previous = results.games;
    } else if let Some(e) = old.as_ref().and_then(changed) {
        // Other shards' results in the folder belong to another tournament.
        if others_have_games(dir, &games_path) {
            return Err(e);
        }
    }
    let shared = old.as_ref().is_some_and(|old| changed(old).is_none());
    if !shared {
        let mut run = json!({
            "aboure_version": env!("CARGO_PKG_VERSION"),
            "config_file": config.path().display().to_string(),
            "shard": shard.map(|s| s.to_string()),
            "created": humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            "fingerprint": print,
            "identity": identity,
        });
        // The SPRT bounds are not part of the identity (they decide when to
        // stop, not what a game is), but reports need them.
        if config.format() == Format::Sprt {
            let s = &config.sprt();
            run["sprt"] = json!({
                "elo0": s.elo0(),
                "elo1": s.elo1(),
                "alpha": s.alpha(),
                "beta": s.beta(),
                "model": s.model(),
            });
        }
        let text = serde_json::to_string_pretty(&run).unwrap_or_default();
        write_atomically(&run_path, &(text + "\n"))?;
    }
    let writer = GamesWriter::append(&games_path).map_err(RunError::io(format!(
        "cannot open {}",
        games_path.display()
    )))?;
    Ok(Output {
        dir: dir.to_owned(),
        logs,
        games_path,
        writer,
        _lock: lock,
        previous,
        notes,
    })
}

/// True if a results file of `dir` other than `own` holds anything.
fn others_have_games(dir: &Path, own: &Path) -> bool {
    results_files(dir).is_ok_and(|files| {
        files
            .iter()
            .any(|f| f != own && std::fs::metadata(f).is_ok_and(|m| m.len() > 0))
    })
}

/// Writes `path` whole or not at all (shards starting at once may each
/// write `run.json`; a reader never sees half of one).
fn write_atomically(path: &Path, text: &str) -> Result<(), RunError> {
    let mut temp = path.as_os_str().to_owned();
    temp.push(format!(".{}.tmp", std::process::id()));
    let temp = PathBuf::from(temp);
    std::fs::write(&temp, text)
        .and_then(|()| std::fs::rename(&temp, path))
        .map_err(RunError::io(format!("cannot write {}", path.display())))
}

fn differences(old: &Value, new: &Value) -> String {
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        return "unknown (run.json has no identity)".to_owned();
    };
    let mut keys: Vec<&str> = new
        .iter()
        .filter(|(k, v)| old.get(*k) != Some(*v))
        .map(|(k, _)| k.as_str())
        .collect();
    if keys.is_empty() {
        keys.push("unknown");
    }
    keys.join(", ")
}

/// Writes the sandbox layers of this invocation into `dir/run.json` (key
/// `sandbox`; a resumed run records its own). Not part of the identity: a
/// run resumed on another machine plays the same games. A failure is only
/// logged: the results do not depend on it.
pub fn record_sandbox(dir: &Path, layers: &aboure_sandbox::Layers) {
    let path = dir.join("run.json");
    let Some(mut run) = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
    else {
        return;
    };
    run["sandbox"] = serde_json::to_value(layers).unwrap_or_default();
    let text = serde_json::to_string_pretty(&run).unwrap_or_default() + "\n";
    // A temporary name per process: shards sharing the folder record at once.
    if let Err(e) = write_atomically(&path, &text) {
        tracing::warn!("cannot record the sandbox layers: {e}");
    }
}
