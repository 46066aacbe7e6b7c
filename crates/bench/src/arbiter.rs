//! Measuring the arbiter: its cost per move against a bare pipe round trip,
//! the time it charges a bot beyond what the bot measured itself, and its
//! memory with many games at once. `aboure bench arbiter` prints these; they
//! are benchmarks, never assertions.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use aboure_records::{GameRecord, Mover};

use aboure_arbiter::{run, RunError, RunOptions};
use aboure_config::ConfigError;

/// Why a measurement could not be made; `step` says which (`pipe round
/// trip`, `start-up costs`, or the name of one of the bench's tournaments:
/// `serial`, `serial-off`, `pairs`, `wide`). The cause is the error's
/// source, not repeated in its message (`{:#}` prints the chain).
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A program of the setup could not be started or spoken to.
    #[error("{step}: cannot run {program:?}")]
    Program {
        /// The measurement.
        step: &'static str,
        /// The program and its arguments.
        program: Vec<String>,
        /// Why.
        source: std::io::Error,
    },
    /// A bot process did not start or answer its handshake.
    #[error("{step}: {program:?} did not start: {detail}")]
    Start {
        /// The measurement.
        step: &'static str,
        /// The program and its arguments.
        program: Vec<String>,
        /// What happened, as a tournament would record it.
        detail: String,
    },
    /// The scratch folder or a file in it could not be written.
    #[error("{step}: cannot write {path}")]
    Scratch {
        /// The measurement.
        step: &'static str,
        /// The folder or file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The tournament file the bench writes was refused.
    #[error("{step}: the bench's tournament file is refused")]
    Config {
        /// The measurement.
        step: &'static str,
        /// Why.
        source: ConfigError,
    },
    /// A tournament of the bench could not run.
    #[error("{step}: the tournament could not run")]
    Run {
        /// The measurement.
        step: &'static str,
        /// Why.
        source: RunError,
    },
    /// A tournament's results could not be read back.
    #[error("{step}: cannot read the games back")]
    Results {
        /// The measurement.
        step: &'static str,
        /// Why.
        source: aboure_records::ReadError,
    },
    /// A bench bot lost a game by forfeit, so the figures would be wrong.
    #[error("{step}: a bench bot ({program:?}) forfeited game {game}: {detail}")]
    Forfeit {
        /// The measurement.
        step: &'static str,
        /// The bot's program and arguments.
        program: Vec<String>,
        /// The game id.
        game: String,
        /// What happened, as recorded.
        detail: String,
    },
    /// The sandbox could not be set up for the start-up costs.
    #[error("start-up costs: cannot set up the sandbox")]
    Sandbox(#[source] aboure_sandbox::SandboxError),
    /// The worker thread of the pipe round trip was lost.
    #[error("pipe round trip: the worker thread was lost")]
    Worker(#[source] tokio::task::JoinError),
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchSetup {
    /// A bot that answers at once and reports its own time as
    /// `info string self_us N` (`aboure bench responder instant`).
    pub instant_bot: Vec<String>,
    /// A program that echoes each input line.
    pub echo: Vec<String>,
    /// The `aboure` binary (for built-in bots, unused by the defaults).
    pub aboure_exe: PathBuf,
    /// Scratch folder for the runs' output.
    pub scratch: PathBuf,
}

impl BenchSetup {
    /// The bench bots and a scratch folder, the bots being `exe` itself
    /// (`aboure bench responder MODE`).
    pub fn of_exe(exe: PathBuf) -> BenchSetup {
        let responder = |mode: &str| {
            [&exe.display().to_string(), "bench", "responder", mode]
                .map(ToOwned::to_owned)
                .to_vec()
        };
        BenchSetup {
            instant_bot: responder("instant"),
            echo: responder("echo"),
            aboure_exe: exe.clone(),
            scratch: scratch(),
        }
    }
}

/// The figures.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Median bare round trip of a line through an echoing child.
    pub pipe_round_trip: Duration,
    /// Wall time inside games per bot move, one game at a time.
    pub per_move: Duration,
    /// Bot moves measured.
    pub moves: usize,
    /// The same as `per_move`, the bots outside the sandbox.
    pub per_move_unsandboxed: Duration,
    /// The same as `per_move`, in the sandbox but never held while the
    /// opponent thinks (`ponder = true`): what the fairness hold costs a
    /// move is the difference.
    pub per_move_unheld: Duration,
    /// Context switches a move (the arbiter's, its bots' and their
    /// sandboxes' together) in the games of `per_move`,
    /// `per_move_unsandboxed` and `per_move_unheld`: what the hold costs,
    /// counted the same however busy the machine is.
    pub switches_per_move: [f64; 3],
    /// Median of (time charged - time the bot measured), 2 games at once.
    pub overhead_median: Option<Duration>,
    /// 99th percentile of the same.
    pub overhead_p99: Option<Duration>,
    /// Peak resident memory of this process with 64 games at once, bytes.
    pub rss_64_games: Option<u64>,
    /// Median life of a bot process started plainly: start, handshake,
    /// quit, reaped.
    pub startup_plain: Duration,
    /// The same in the sandbox (mode `auto`), cleanup included.
    pub startup_sandboxed: Duration,
    /// The sandbox's layers on this machine.
    pub sandbox: String,
}

/// Median life of a process of the instant bot launched by `launcher`
/// (start, handshake, `quit`, reaped, launcher's guard dropped), over
/// `rounds` lives.
async fn process_life(
    setup: &BenchSetup,
    launcher: Arc<dyn aboure_process::Launcher>,
    rounds: usize,
) -> Result<Vec<Duration>, BenchError> {
    let step = "start-up costs";
    create_dir(step, &setup.scratch)?;
    let launch = aboure_process::Launch {
        name: "bench".to_owned(),
        command: aboure_process::Program {
            program: PathBuf::from(&setup.instant_bot[0]),
            args: setup.instant_bot[1..].iter().map(Into::into).collect(),
            workdir: Some(setup.scratch.clone()),
            env: Default::default(),
        },
        launcher,
        options: Vec::new(),
        startup_timeout: Duration::from_secs(10),
        limits: aboure_process::Limits::default(),
        logs: Arc::new(aboure_process::BotLogs::discard()),
    };
    let mut times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let t = Instant::now();
        let bot = aboure_process::BotProcess::start(&launch)
            .await
            .map_err(|f| BenchError::Start {
                step,
                program: setup.instant_bot.clone(),
                detail: f.detail,
            })?;
        bot.quit(Duration::from_secs(1)).await;
        times.push(t.elapsed());
    }
    Ok(times)
}

/// Bot process lives with and without the sandbox, interleaved so that a
/// busy spell of the machine weighs on both alike.
async fn startup_costs(setup: &BenchSetup) -> Result<(Duration, Duration, String), BenchError> {
    let settings = aboure_config::default_sandbox().map_err(|source| BenchError::Config {
        step: "sandbox startup",
        source,
    })?;
    let sandbox =
        aboure_sandbox::Sandbox::new(&settings, &setup.aboure_exe).map_err(BenchError::Sandbox)?;
    let layers = sandbox.layers().to_string();
    let sandboxed: Arc<dyn aboure_process::Launcher> = Arc::new(
        aboure_sandbox::SandboxLauncher::new(Arc::new(sandbox), "bench", Default::default()),
    );
    let plain: Arc<dyn aboure_process::Launcher> = Arc::new(aboure_process::Plain);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..10 {
        a.extend(process_life(setup, plain.clone(), 10).await?);
        b.extend(process_life(setup, sandboxed.clone(), 10).await?);
    }
    let median = |mut v: Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    Ok((median(a), median(b), layers))
}

/// Median round trip of `rounds` lines through `echo`, with blocking I/O
/// and nothing else in the way.
pub fn pipe_round_trip(echo: &[String], rounds: usize) -> std::io::Result<Duration> {
    let mut child = Command::new(&echo[0])
        .args(&echo[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| std::io::Error::other("no stdin"))?;
    let mut stdout = BufReader::new(
        child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout"))?,
    );
    let mut times = Vec::with_capacity(rounds);
    let mut line = String::new();
    for _ in 0..rounds {
        let t = Instant::now();
        stdin.write_all(b"go stime 1000 ntime 1000 sinc 10 ninc 10\n")?;
        stdin.flush()?;
        line.clear();
        stdout.read_line(&mut line)?;
        times.push(t.elapsed());
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    times.sort();
    Ok(times[times.len() / 2])
}

/// Two bots of the `bot` command, `ponder = true` (never held) if
/// `ponder`.
fn config_text(bot: &[String], pairs: u32, concurrency: usize, ponder: bool) -> String {
    let command: Vec<String> = bot.iter().map(|a| format!("{a:?}")).collect();
    let command = command.join(", ");
    let bot = |name: &str| {
        format!("[[bot]]\nname = \"{name}\"\ncommand = [{command}]\nponder = {ponder}\n")
    };
    format!(
        "[tournament]\npairs = {pairs}\nconcurrency = {concurrency}\nrestart = \"never\"\n\
         [openings]\nplies = 0\n[time-control]\nbase = \"60s\"\n{}{}",
        bot("one"),
        bot("two")
    )
}

async fn tournament(
    setup: &BenchSetup,
    name: &'static str,
    pairs: u32,
    concurrency: usize,
) -> Result<Vec<GameRecord>, BenchError> {
    // "serial-unheld": the same games with bots never held.
    let ponder = name.ends_with("-unheld");
    let mut text = config_text(&setup.instant_bot, pairs, concurrency, ponder);
    // "serial-off": the same games with bots outside the sandbox.
    if name.ends_with("-off") {
        text = format!("[sandbox]\nmode = \"off\"\n{text}");
    }
    let (_tx, interrupt) = tokio::sync::watch::channel(false);
    let games = play_text(setup, name, &text, interrupt).await?;
    if let Some(bad) = games.iter().find(|g| g.loser.is_some()) {
        return Err(BenchError::Forfeit {
            step: name,
            program: setup.instant_bot.clone(),
            game: bad.id.clone(),
            detail: bad.detail.clone().unwrap_or_default(),
        });
    }
    Ok(games)
}

/// Plays the tournament file `text` as the bench's step `name` in the
/// scratch folder (until its end or `interrupt`), and returns its games.
pub(crate) async fn play_text(
    setup: &BenchSetup,
    name: &'static str,
    text: &str,
    interrupt: tokio::sync::watch::Receiver<bool>,
) -> Result<Vec<GameRecord>, BenchError> {
    let step = name;
    let dir = setup.scratch.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let path = setup.scratch.join(format!("{name}.toml"));
    create_dir(step, &setup.scratch)?;
    std::fs::write(&path, text).map_err(|source| BenchError::Scratch {
        step,
        path: path.clone(),
        source,
    })?;
    let config =
        aboure_config::parse(text, &path).map_err(|source| BenchError::Config { step, source })?;
    let options = RunOptions {
        out_dir: dir.clone(),
        resume: false,
        concurrency: None,
        shard: None,
        join: false,
        slice: false,
        log_protocol: false,
        aboure_exe: setup.aboure_exe.clone(),
        interrupt,
        observer: Arc::new(|_| {}),
        kept: None,
    };
    run(&config, options)
        .await
        .map_err(|source| BenchError::Run { step, source })?;
    // The summary keeps no moves: read the full records back.
    let games = aboure_records::read_games(&dir.join("games.jsonl"))
        .map_err(|source| BenchError::Results { step, source })?
        .games;
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&path);
    Ok(games)
}

fn create_dir(step: &'static str, dir: &Path) -> Result<(), BenchError> {
    std::fs::create_dir_all(dir).map_err(|source| BenchError::Scratch {
        step,
        path: dir.to_owned(),
        source,
    })
}

/// Wall time inside games per bot move.
fn time_per_move(games: &[GameRecord]) -> Duration {
    let in_games: f64 = games.iter().map(|g| g.duration_ms).sum();
    Duration::from_secs_f64(in_games / 1000.0 / bot_moves(games).max(1) as f64)
}

fn bot_moves(games: &[GameRecord]) -> usize {
    games
        .iter()
        .map(|g| g.plies.iter().filter(|p| p.by == Mover::Bot).count())
        .sum()
}

/// The serial tournament `name` (see [`tournament`]): its games, and the
/// context switches a bot move took in them, the arbiter's own and those
/// of every process it started and reaped (its bots, with their
/// sandboxes' helpers and inits).
async fn serial(
    setup: &BenchSetup,
    name: &'static str,
) -> Result<(Vec<GameRecord>, f64), BenchError> {
    let before = switches();
    let games = tournament(setup, name, 100, 1).await?;
    let moves = bot_moves(&games).max(1) as f64;
    Ok((games, (switches() - before) as f64 / moves))
}

/// Context switches, voluntary and not, of this process and of its
/// reaped descendants so far.
fn switches() -> i64 {
    let of = |who| {
        // SAFETY: getrusage fills the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(who, &mut usage) };
        usage.ru_nvcsw + usage.ru_nivcsw
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

/// Runs the three measurements.
pub async fn measure(setup: &BenchSetup) -> Result<BenchReport, BenchError> {
    let echo = setup.echo.clone();
    let pipe = tokio::task::spawn_blocking(move || pipe_round_trip(&echo, 5000))
        .await
        .map_err(BenchError::Worker)?
        .map_err(|source| BenchError::Program {
            step: "pipe round trip",
            program: setup.echo.clone(),
            source,
        })?;

    // Cost per move: time inside games (no process start, no fsync) per move.
    let (games, switches) = serial(setup, "serial").await?;
    let moves = bot_moves(&games);
    let per_move = time_per_move(&games);
    let (off, switches_off) = serial(setup, "serial-off").await?;
    let per_move_unsandboxed = time_per_move(&off);
    let (unheld, switches_unheld) = serial(setup, "serial-unheld").await?;
    let per_move_unheld = time_per_move(&unheld);

    // Charged minus self-measured, two games at once.
    let games = tournament(setup, "pairs", 100, 2).await?;
    let mut overheads: Vec<f64> = games
        .iter()
        .flat_map(|g| g.plies.iter())
        .filter_map(|p| {
            let own_us: f64 = p
                .info
                .as_ref()?
                .string
                .as_deref()?
                .strip_prefix("self_us ")?
                .trim()
                .parse()
                .ok()?;
            Some(p.time_ms? - own_us / 1000.0)
        })
        .collect();
    overheads.sort_by(f64::total_cmp);
    let pick = |q: f64| {
        (!overheads.is_empty()).then(|| {
            let i = ((overheads.len() - 1) as f64 * q).round() as usize;
            Duration::from_secs_f64(overheads[i].max(0.0) / 1000.0)
        })
    };

    // Peak memory with 64 games at once.
    let peak = Arc::new(AtomicU64::new(crate::cpu::rss().unwrap_or(0)));
    let sampler = {
        let peak = peak.clone();
        tokio::spawn(async move {
            loop {
                if let Some(r) = crate::cpu::rss() {
                    peak.fetch_max(r, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
    };
    let result = tournament(setup, "wide", 64, 64).await;
    sampler.abort();
    result?;
    let (startup_plain, startup_sandboxed, sandbox) = startup_costs(setup).await?;
    Ok(BenchReport {
        pipe_round_trip: pipe,
        per_move,
        moves,
        per_move_unsandboxed,
        per_move_unheld,
        switches_per_move: [switches, switches_off, switches_unheld],
        overhead_median: pick(0.5),
        overhead_p99: pick(0.99),
        rss_64_games: crate::cpu::rss().map(|_| peak.load(Ordering::Relaxed)),
        startup_plain,
        startup_sandboxed,
        sandbox,
    })
}

/// A scratch folder under the system's temporary folder.
pub fn scratch() -> PathBuf {
    std::env::temp_dir().join(format!("aboure-bench-{}", std::process::id()))
}

/// Removes a scratch folder.
pub fn clean(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_error_names_the_step_the_program_and_keeps_the_io_error() {
        let missing = "/nonexistent/aboure-bench-echo".to_owned();
        let setup = BenchSetup {
            instant_bot: vec!["/nonexistent/aboure-bench-bot".to_owned()],
            echo: vec![missing.clone(), "-n".to_owned()],
            aboure_exe: PathBuf::from("/nonexistent/aboure"),
            scratch: scratch().join("unused"),
        };
        let err = measure(&setup).await.unwrap_err();
        let BenchError::Program {
            step,
            program,
            source,
        } = &err
        else {
            panic!("a program error, not {err:?}");
        };
        assert_eq!(
            (*step, program.as_slice()),
            ("pipe round trip", &setup.echo[..])
        );
        assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        let text = err.to_string();
        assert_eq!(
            text,
            format!("pipe round trip: cannot run [{missing:?}, \"-n\"]")
        );
        let cause = std::error::Error::source(&err).map(ToString::to_string);
        assert_eq!(cause, Some(source.to_string()));
    }
}
