//! Running a tournament: `concurrency` workers take games from the schedule,
//! each game owning its two bot processes for its duration; every finished
//! game is written and synced to `games.jsonl` before its worker starts the
//! next one. An interrupt stops new games, abandons those in progress (they
//! are replayed by `--resume`) and shuts the bots down. An SPRT
//! ([`crate::sprt::LiveSprt`]) also holds back pairs too far ahead of the
//! counted ones and stops new games once it has decided.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aboure_engine::Side;
use aboure_records::{GameRecord, GamesWriter, Standing, Tally};
use tokio::sync::watch;

use crate::config::{BotCommand, BotId, Config, Restart};
use crate::error::RunError;
use crate::event::Event;
use crate::game::{forfeit_at_start, play, GameSetup};
use crate::output::prepare;
use crate::schedule::{GameSpec, Schedule, Shard};
use crate::sprt::LiveSprt;
use aboure_process::{BotFailure, BotLogs, BotProcess, Launch};

mod gate;
use gate::{check_stop, Gate};

/// How often a shard held back by the SPRT's look-ahead reads its
/// siblings' results again.
const SIBLING_POLL: Duration = Duration::from_millis(500);

/// Time a bot gets to exit after `quit` before it is killed.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Receives [`Event`]s.
pub type Observer = Arc<dyn Fn(&Event) + Send + Sync>;

/// How to run (everything that is not the tournament itself).
pub struct RunOptions {
    /// The output folder.
    pub out_dir: PathBuf,
    /// Continue an earlier run in `out_dir`.
    pub resume: bool,
    /// Games at once (overrides the config).
    pub concurrency: Option<usize>,
    /// Play only this slice of the schedule.
    pub shard: Option<Shard>,
    /// Log every protocol line.
    pub log_protocol: bool,
    /// The `aboure` binary, for built-in bots (`aboure bot NAME`).
    pub aboure_exe: PathBuf,
    /// Set to true to interrupt the run.
    pub interrupt: watch::Receiver<bool>,
    /// Progress events go here.
    pub observer: Observer,
}

/// How a run ended.
#[derive(Clone, Debug)]
pub struct Summary {
    /// For an SPRT, the verdict of every results file in the folder (this
    /// shard's and its siblings') at the end, and its description.
    pub sprt: Option<(aboure_stats::OrderedStatus, String)>,
    /// Standings of every finished game of this run's schedule.
    pub standings: Vec<Standing>,
    /// Finished games of this run's schedule (earlier runs included).
    pub finished: usize,
    /// Games in the schedule (this shard).
    pub scheduled: usize,
    /// Games finished by this invocation.
    pub played: usize,
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

/// Concurrency when neither the command line nor the file says: half the
/// cores rounded up (two bots per game).
pub fn default_concurrency() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.div_ceil(2)
}

/// The games still to start, made as they are taken.
type Queue = std::iter::Peekable<Box<dyn Iterator<Item = GameSpec> + Send>>;

struct Shared {
    queue: Mutex<Queue>,
    state: Mutex<State>,
    writer: Arc<Mutex<GamesWriter>>,
    stop: watch::Sender<bool>,
}

struct State {
    tally: Tally,
    finished: usize,
    played: usize,
    sprt: Option<LiveSprt>,
    stopped: Option<String>,
}

/// Runs the tournament `config` with `options`.
pub async fn run(config: &Config, options: RunOptions) -> Result<Summary, RunError> {
    let sandbox = Arc::new(aboure_sandbox::Sandbox::new(
        config.sandbox(),
        &options.aboure_exe,
    )?);
    (options.observer)(&Event::Sandbox(sandbox.layers().clone()));
    let mut output = prepare(
        &options.out_dir,
        config,
        options.resume,
        options.shard,
        sandbox.layers(),
    )?;
    for note in &output.notes {
        tracing::warn!("{note}");
    }
    let games = Schedule::new(config, options.shard);
    let scheduled = games.len();
    // Earlier runs' games, read as summaries (no moves): those of this
    // schedule count, and are not played again.
    let previous: Vec<GameRecord> = std::mem::take(&mut output.previous)
        .into_iter()
        .filter(|g| games.contains(&g.id))
        .collect();
    let done: std::collections::HashSet<String> = previous.iter().map(|g| g.id.clone()).collect();
    let todo: Box<dyn Iterator<Item = GameSpec> + Send> =
        Box::new(games.games().filter(move |g| !done.contains(&g.id)));
    (options.observer)(&Event::Started {
        total: scheduled,
        previous: previous.clone(),
    });

    let mut launches = Vec::new();
    for bot in config.bots() {
        let logs = BotLogs::new(Some(&output.logs), bot.name(), options.log_protocol)
            .map_err(RunError::io(format!("cannot open logs of {}", bot.name())))?;
        let (program, args) = match &bot.run() {
            BotCommand::Builtin(name) => (
                options.aboure_exe.clone(),
                vec!["bot".to_owned(), name.clone()],
            ),
            // A relative program with a slash is relative to the working
            // directory (std leaves that case unspecified); a bare name is
            // looked up in PATH.
            BotCommand::Command(c) if c[0].contains('/') => {
                (bot.workdir().join(&c[0]), c[1..].to_vec())
            }
            BotCommand::Command(c) => (PathBuf::from(&c[0]), c[1..].to_vec()),
        };
        let (program, args) = match bot.wrapper().split_first() {
            None => (program, args),
            Some((wrapper, wrapper_args)) => {
                let mut all = wrapper_args.to_vec();
                all.push(program.display().to_string());
                all.extend(args);
                (PathBuf::from(wrapper), all)
            }
        };
        launches.push(Launch {
            name: bot.name().to_owned(),
            command: aboure_process::Program {
                program,
                args: args.into_iter().map(Into::into).collect(),
                workdir: Some(bot.workdir().to_owned()),
                env: bot.env().clone(),
            },
            launcher: Arc::new(aboure_sandbox::SandboxLauncher::new(
                sandbox.clone(),
                bot.name(),
                bot.sandbox().clone(),
            )),
            options: bot.options().clone().into_iter().collect(),
            startup_timeout: config.startup_timeout(),
            limits: bot.limits(),
            logs: Arc::new(logs),
        });
    }

    let concurrency = options
        .concurrency
        .or(config.concurrency())
        .unwrap_or_else(default_concurrency)
        .max(1);
    let sprt = gate::live_sprt(config, &options, &output, concurrency, &previous)?;
    let (stop, _) = watch::channel(false);
    let shared = Arc::new(Shared {
        queue: Mutex::new(todo.peekable()),
        state: Mutex::new(State {
            tally: {
                let mut tally = Tally::new(config.bots().iter().map(|b| b.name()));
                previous.iter().for_each(|g| tally.add(g));
                tally
            },
            finished: previous.len(),
            played: 0,
            sprt,
            stopped: None,
        }),
        writer: Arc::new(Mutex::new(output.writer)),
        stop,
    });
    if let Some(reason) = check_stop(&shared)? {
        (options.observer)(&Event::Stopped(reason));
    }
    let config = Arc::new(config.clone());
    let launches = Arc::new(launches);
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let worker = Worker {
            config: config.clone(),
            launches: launches.clone(),
            shared: shared.clone(),
            interrupt: options.interrupt.clone(),
            observer: options.observer.clone(),
            pool: HashMap::new(),
        };
        workers.push(tokio::spawn(worker.run()));
    }
    let mut result = Ok(());
    for w in workers {
        match w.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => result = Err(e),
            Err(e) => {
                result = Err(RunError::Options(format!("a game task failed: {e}")));
            }
        }
    }
    for l in launches.iter() {
        l.logs.flush();
    }
    result?;
    let interrupted = *options.interrupt.borrow();
    if interrupted {
        (options.observer)(&Event::Interrupted);
    }
    let state = shared
        .state
        .lock()
        .map_err(|_| RunError::Options("state lock poisoned".into()))?;
    Ok(Summary {
        sprt: state.sprt.as_ref().map(|s| (s.status(), s.describe())),
        standings: state.tally.standings(),
        finished: state.finished,
        scheduled,
        played: state.played,
        interrupted,
        stopped: state.stopped.clone(),
        notes: output.notes,
        games_path: output.games_path.clone(),
        out_dir: output.dir.clone(),
    })
}

struct Worker {
    config: Arc<Config>,
    launches: Arc<Vec<Launch>>,
    shared: Arc<Shared>,
    interrupt: watch::Receiver<bool>,
    observer: Observer,
    /// Idle processes kept for reuse (`restart = "never"`).
    pool: HashMap<BotId, BotProcess>,
}

impl Worker {
    async fn run(mut self) -> Result<(), RunError> {
        let result = self.games().await;
        for (_, bot) in self.pool.drain() {
            bot.quit(QUIT_GRACE).await;
        }
        result
    }

    async fn games(&mut self) -> Result<(), RunError> {
        let mut waiting = false;
        loop {
            if *self.interrupt.borrow() || *self.shared.stop.borrow() {
                return Ok(());
            }
            let Some(next) = self
                .shared
                .queue
                .lock()
                .ok()
                .and_then(|mut q| q.peek().cloned())
            else {
                return Ok(());
            };
            match gate::wait(&self.shared, &next).await? {
                Gate::Start => {}
                Gate::Stop => {
                    if let Some(reason) = check_stop(&self.shared)? {
                        (self.observer)(&Event::Stopped(reason));
                    }
                    return Ok(());
                }
                Gate::Wait(missing) => {
                    if !waiting {
                        tracing::info!(
                            "waiting for pair {missing} (another shard's) before starting pair {}",
                            next.pair
                        );
                        waiting = true;
                    }
                    let mut interrupt = self.interrupt.clone();
                    tokio::select! {
                        _ = tokio::time::sleep(SIBLING_POLL) => {}
                        _ = interrupt.wait_for(|&i| i) => {}
                    }
                    continue;
                }
            }
            waiting = false;
            // Another worker may have taken it meanwhile.
            let Some(spec) = self.shared.queue.lock().ok().and_then(|mut q| q.next()) else {
                return Ok(());
            };
            (self.observer)(&Event::GameStarted {
                id: spec.id.clone(),
                south: self.config.bot(spec.south).name().to_owned(),
                north: self.config.bot(spec.north).name().to_owned(),
            });
            let mut seats: [Option<BotProcess>; 2] = [None, None];
            let mut interrupt = self.interrupt.clone();
            let record = tokio::select! {
                record = self.game(&spec, &mut seats) => Some(record),
                _ = interrupt.wait_for(|&i| i) => None,
            };
            let Some(record) = record else {
                for bot in seats.into_iter().flatten() {
                    bot.quit(QUIT_GRACE).await;
                }
                return Ok(());
            };
            // Return healthy processes to the pool, or shut them down.
            for (bot, seat) in [spec.south, spec.north].into_iter().zip(seats) {
                if let Some(process) = seat {
                    if self.config.restart() == Restart::Never {
                        self.pool.insert(bot, process);
                    } else {
                        process.quit(QUIT_GRACE).await;
                    }
                }
            }
            self.record(record).await?;
        }
    }

    async fn record(&mut self, record: GameRecord) -> Result<(), RunError> {
        let writer = self.shared.writer.clone();
        let line = record.clone();
        let written = tokio::task::spawn_blocking(move || {
            let mut w = writer
                .lock()
                .map_err(|_| std::io::Error::other("writer lock poisoned"))?;
            let path = w.path().display().to_string();
            w.write(&line)
                .map_err(|e| (path, e))
                .map_err(|(p, e)| std::io::Error::new(e.kind(), format!("{p}: {e}")))
        })
        .await
        .map_err(|e| RunError::Options(format!("writer task failed: {e}")))?;
        written.map_err(RunError::io("cannot write a game result"))?;
        if let Ok(mut state) = self.shared.state.lock() {
            state.tally.add(&record);
            state.finished += 1;
            if let Some(sprt) = state.sprt.as_mut() {
                sprt.add(&record);
            }
            state.played += 1;
        }
        (self.observer)(&Event::GameFinished(Box::new(record)));
        let status = gate::refresh(&self.shared).await?;
        if let Some(status) = status {
            (self.observer)(&Event::Sprt(status));
        }
        if let Some(reason) = check_stop(&self.shared)? {
            (self.observer)(&Event::Stopped(reason));
        }
        Ok(())
    }

    /// Starts (or reuses) both bots and plays the game. The processes are
    /// left in `seats` unless they failed (then they are killed here).
    async fn game(&mut self, spec: &GameSpec, seats: &mut [Option<BotProcess>; 2]) -> GameRecord {
        let config = &self.config;
        let opening = config.openings().opening(config.seed(), spec.pair);
        let ids = [spec.south, spec.north];
        let setup = GameSetup {
            spec,
            names: ids.map(|i| config.bot(i).name()),
            time_controls: ids.map(|i| config.bot(i).time_control()),
            opening: &opening,
            opening_index: spec.pair,
            adjudication: config.adjudication(),
        };
        let reused = ids.map(|i| self.pool.remove(&i));
        let [south, north] = reused;
        let (south, north) = tokio::join!(
            ready(south, &self.launches[ids[0].index()]),
            ready(north, &self.launches[ids[1].index()]),
        );
        let mut failure = None;
        for (side, started) in [(Side::South, south), (Side::North, north)] {
            match started {
                Ok(process) => seats[side.index()] = Some(process),
                Err(f) => {
                    failure.get_or_insert((side, f));
                }
            }
        }
        if let Some((side, f)) = failure {
            return forfeit_at_start(setup, side, f);
        }
        let [Some(south), Some(north)] = seats else {
            unreachable!("both seats are filled when neither failed")
        };
        let (record, failed) = play(setup, [south, north]).await;
        if let Some(side) = failed {
            if let Some(mut bot) = seats[side.index()].take() {
                bot.kill().await;
            }
        }
        record
    }
}

/// A bot ready for a new game: a reused process told `newgame`, or a fresh
/// one after its handshake.
async fn ready(reused: Option<BotProcess>, launch: &Launch) -> Result<BotProcess, BotFailure> {
    let mut process = match reused {
        Some(p) => p,
        None => BotProcess::start(launch).await?,
    };
    match process.new_game().await {
        Ok(()) => Ok(process),
        Err(f) => {
            process.kill().await;
            Err(f)
        }
    }
}
