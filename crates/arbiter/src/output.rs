//! The output folder: `games.jsonl` (results, appended durably; shard K of
//! N appends to `games-K-of-N.jsonl`, so shards may share one folder),
//! `run.json` (the run manifest, [`aboure_records::RunManifest`]: what the
//! run is, with a fingerprint of everything that defines the games, shared
//! by the shards) and `logs/` (per-bot stderr and
//! protocol logs). Resuming, or joining a folder other shards write to,
//! checks the fingerprint so results of different tournaments are never
//! mixed. A run holds the lock on its results file from before it reads it
//! until it ends ([`crate::lock`]).

use std::path::{Path, PathBuf};

use aboure_records::{
    read_summaries, results_files, AdjudicationIdentity, BotIdentity, BotRunIdentity,
    FormatIdentity, GameRecord, GamesWriter, LimitsIdentity, OpeningsIdentity, ProblemKind,
    RunManifest, SandboxLayer, SandboxLayers, TournamentIdentity,
};

use crate::config::{BotCommand, Config, Format};
use crate::error::RunError;
use crate::lock::ResultsLock;
use crate::opening::{OpeningSource, OpeningsName};
use crate::schedule::{Schedule, Shard};

/// What the games of `config` are (see [`TournamentIdentity`]): bots,
/// commands, options, time controls, openings, seed, format, pairs,
/// adjudication.
pub fn schedule_identity(config: &Config) -> TournamentIdentity {
    let bots = config
        .bots()
        .iter()
        .map(|b| BotIdentity {
            name: b.name().to_owned(),
            run: match b.run() {
                BotCommand::Builtin(n) => BotRunIdentity::Builtin(n.clone()),
                BotCommand::Command(c) => BotRunIdentity::Command(c.clone()),
            },
            options: b.options().clone(),
            time_control: b.time_control().to_string(),
            limits: (!b.limits().is_none()).then(|| LimitsIdentity {
                memory: b.limits().memory,
                cpu_ms: b.limits().cpu.map(|d| d.as_millis() as u64),
            }),
            ponder: b.ponder(),
        })
        .collect();
    let format = match config.format() {
        Format::RoundRobin => FormatIdentity::RoundRobin,
        Format::Gauntlet(g) => FormatIdentity::Gauntlet(config.bot(g).name().to_owned()),
        Format::Sprt => FormatIdentity::Sprt,
        Format::League => FormatIdentity::League,
    };
    let openings = match &config.openings() {
        OpeningSource::Random { plies } => OpeningsIdentity::Random {
            random_plies: *plies,
        },
        OpeningSource::File(list) => OpeningsIdentity::File(
            list.iter()
                .map(|o| {
                    let moves: Vec<String> = o.moves.iter().map(ToString::to_string).collect();
                    format!("{} moves {}", o.start_text(), moves.join(" "))
                })
                .collect(),
        ),
    };
    let solve = config.adjudication().solve();
    TournamentIdentity {
        format,
        pairs: config.pairs(),
        seed: config.seed(),
        openings,
        adjudication: AdjudicationIdentity {
            max_plies: config.adjudication().max_plies(),
            repetitions: config.adjudication().repetitions(),
            solve_after: solve.map(|rule| rule.after_plies()),
            solve_nodes: solve.map(|rule| rule.nodes()),
        },
        bots,
    }
}

/// The sandbox layers as the run folder records them.
fn recorded_layers(layers: &aboure_sandbox::Layers) -> SandboxLayers {
    SandboxLayers {
        mode: match layers.mode {
            aboure_sandbox::Mode::Auto => "auto",
            aboure_sandbox::Mode::Strict => "strict",
            aboure_sandbox::Mode::Off => "off",
        }
        .to_owned(),
        layers: layers
            .layers
            .iter()
            .map(|l| SandboxLayer {
                name: l.name.to_owned(),
                active: l.active,
                detail: l.detail.clone(),
            })
            .collect(),
    }
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
    /// The folder's `run.json`, as written.
    pub manifest: RunManifest,
}

/// Prepares `dir` for a worker of a run of `config` writing `games_path`,
/// under the sandbox `layers`: a fresh folder, or with `resume` an earlier
/// run of the same tournament to continue or join. Writes the folder's
/// `run.json` (a folder other workers of the same tournament share keeps
/// theirs, with this run's sandbox layers).
pub fn prepare(
    dir: &Path,
    config: &Config,
    resume: bool,
    shard: Option<Shard>,
    games_path: PathBuf,
    layers: &aboure_sandbox::Layers,
) -> Result<Output, RunError> {
    let logs = aboure_records::RunFolder::new(dir).logs();
    let parent = dir.parent().unwrap_or(Path::new(""));
    std::fs::create_dir_all(parent)
        .map_err(RunError::io(format!("cannot create {}", parent.display())))?;
    // Made one at a time (`mkdir` follows no link at its last component),
    // then opened without following one.
    for folder in [dir, &logs] {
        match std::fs::create_dir(folder) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                return Err(RunError::io(format!("cannot create {}", folder.display()))(
                    e,
                ));
            }
            _ => no_link(folder)?,
        }
    }
    let lock = ResultsLock::acquire(&games_path)?;
    let identity = schedule_identity(config);
    let settings = crate::sandbox_record::settings(config);
    let folder = Folder {
        dir,
        config,
        identity: &identity,
        sandbox: &settings,
        games_path: &games_path,
    };
    let mut notes = Vec::new();
    let mut previous = Vec::new();
    let old = RunManifest::read_in(dir);
    let has_games = std::fs::metadata(&games_path).is_ok_and(|m| m.len() > 0);
    let old = match has_games {
        true => {
            let (old, games) = folder.resumed(old, resume, &mut notes)?;
            previous = games;
            Some(old)
        }
        false => folder.replaceable(old)?,
    };
    let mut manifest = old.unwrap_or_else(|| fresh_manifest(config, shard, identity));
    manifest.scheduled_games = Some(Schedule::new(config, None).len() as u64);
    // Not part of the identity: a run resumed on another machine plays the
    // same games, and records the layers it had.
    manifest.sandbox = Some(recorded_layers(layers));
    // Checked equal to what the folder holds, if it holds any.
    manifest.sandbox_settings = Some(settings);
    manifest.write_in(dir)?;
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
        manifest,
    })
}

/// The folder a run prepares, and what the run is.
struct Folder<'a> {
    dir: &'a Path,
    config: &'a Config,
    identity: &'a TournamentIdentity,
    /// The run's sandbox settings (see [`crate::sandbox_record`]).
    sandbox: &'a std::collections::BTreeMap<String, String>,
    games_path: &'a Path,
}

impl Folder<'_> {
    /// Why the folder's manifest `old` is not of this run's tournament, if
    /// it is not.
    fn changed(&self, old: &RunManifest) -> Option<RunError> {
        let recorded = old.sandbox_settings.as_ref();
        let keys = recorded.map(|old| crate::sandbox_record::changed(old, self.sandbox));
        if let Some(keys) = keys.filter(|k| !k.is_empty()) {
            return Some(RunError::SandboxChanged {
                dir: self.dir.to_owned(),
                keys: keys.join(", "),
            });
        }
        if self.config.format() == Format::League {
            // A league's field may grow: its own rule says what may change.
            return crate::league::entrants::refused(self.dir, &old.identity, self.identity)
                .map(RunError::from);
        }
        let print = self.identity.fingerprint();
        (old.fingerprint != print).then(|| {
            let what = old.identity.differences(self.identity);
            RunError::ConfigChanged {
                dir: self.dir.to_owned(),
                found: old.fingerprint.clone(),
                expected: print,
                what: if what.is_empty() {
                    "unknown".to_owned()
                } else {
                    what.join(", ") + self.default_book_note(&what)
                },
            }
        })
    }

    /// Why the openings changed when the file names none: the default of
    /// an SPRT became the built-in balanced book, and a run begun with
    /// random openings resumes with them named.
    fn default_book_note(&self, what: &[&str]) -> &'static str {
        let book = matches!(self.config.openings_name(), OpeningsName::BalancedBook);
        if book && what.contains(&"openings") {
            " (a file without [openings] now plays the built-in balanced book in an SPRT or a league; \
             to resume a run begun with random openings, add `[openings] plies = 4`)"
        } else {
            ""
        }
    }

    /// The manifest and the games of a results file that holds games: only
    /// with `resume`, only of this tournament; a truncated last line is
    /// cut away (with a note).
    fn resumed(
        &self,
        old: Result<Option<RunManifest>, aboure_records::ManifestError>,
        resume: bool,
        notes: &mut Vec<String>,
    ) -> Result<(RunManifest, Vec<GameRecord>), RunError> {
        let games_path = self.games_path;
        let results = read_summaries(games_path).map_err(|e| RunError::Io {
            context: format!("cannot read {}", games_path.display()),
            source: e.source,
        })?;
        if !resume {
            return Err(RunError::ResultsExist {
                path: games_path.to_owned(),
                games: results.games.len(),
            });
        }
        let old = old?.ok_or_else(|| {
            RunError::DamagedResults(format!(
                "{} is missing, so it cannot be checked that {} holds games of this tournament",
                RunManifest::path_in(self.dir).display(),
                games_path.display()
            ))
        })?;
        if let Some(e) = self.changed(&old) {
            return Err(e);
        }
        for p in &results.problems {
            match p.kind {
                ProblemKind::TruncatedLastLine => {
                    notes.push(format!("{p}: cut away; that game will be played again"));
                    let file = std::fs::OpenOptions::new()
                        .write(true)
                        .open(games_path)
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
        Ok((old, results.games))
    }

    /// The folder's manifest `old` for a run without games of its own: it
    /// may be replaced (`None`) unless other shards' games depend on it.
    fn replaceable(
        &self,
        old: Result<Option<RunManifest>, aboure_records::ManifestError>,
    ) -> Result<Option<RunManifest>, RunError> {
        let others = others_have_games(self.dir, self.games_path);
        Ok(match old {
            Err(e) if others => return Err(e.into()),
            Err(_) => None,
            Ok(Some(old)) => match self.changed(&old) {
                Some(e) if others => return Err(e),
                Some(_) => None,
                None => Some(old),
            },
            Ok(None) => None,
        })
    }
}

/// The manifest of a run that starts a folder.
fn fresh_manifest(
    config: &Config,
    shard: Option<Shard>,
    identity: TournamentIdentity,
) -> RunManifest {
    let created = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let mut manifest = RunManifest::new(
        config.path().display().to_string(),
        shard.map(|s| s.to_string()),
        created,
        identity,
    );
    // The SPRT bounds are not part of the identity (they decide when to
    // stop, not what a game is), but reports need them.
    if config.format() == Format::Sprt {
        manifest.sprt = Some(config.sprt());
    }
    match config.openings_name() {
        OpeningsName::File(name) => manifest.openings_file = Some(name.clone()),
        OpeningsName::BalancedBook => {
            manifest.builtin_openings = Some(aboure_config::BALANCED_BOOK_ID.to_owned());
        }
        OpeningsName::Random { .. } => {}
    }
    manifest
}

/// True if a results file of `dir` other than `own` holds anything.
fn others_have_games(dir: &Path, own: &Path) -> bool {
    results_files(dir).is_ok_and(|files| {
        files
            .iter()
            .any(|f| f != own && std::fs::metadata(f).is_ok_and(|m| m.len() > 0))
    })
}

/// Opens the folder `path` without following a symbolic link at its last
/// component: the results folder and its `logs/` are never links (a link
/// planted there, by a bot that could write their parent, would send the
/// arbiter's files, as the arbiter's user, wherever it leads).
fn no_link(path: &Path) -> Result<(), RunError> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_DIRECTORY)
        .open(path)
        .map(drop)
        .map_err(RunError::io(format!(
            "cannot use {} as a results folder (it must be a folder, not a symbolic link)",
            path.display()
        )))
}
