//! Running a scheduled format (round robin, gauntlet, SPRT) as one worker
//! of a run: the run loop every format shares ([`crate::seat`]) plays on
//! `concurrency` seats, each asking the schedule's source
//! (`tournament/source.rs`) for a game pair claimed from the run folder
//! ([`aboure_workers`]); every finished game is written and synced to this
//! worker's results file, under its claim, before the seat claims more.
//! Any number of workers may share the folder, on any machines, started
//! and stopped at any time; each follows the others' files, so its
//! progress and standings are the whole run's. An interrupt stops new
//! games, abandons those in progress (their claims are dropped, and
//! another worker or `--resume` plays them) and shuts the bots down. An
//! SPRT ([`crate::sprt::LiveSprt`]) also holds back pairs too far ahead of
//! the recorded ones and stops claiming once it has decided.
//!
//! This file also holds what every format's run needs before its loop
//! starts: the sandbox, each bot's launch, the worker's name and its entry
//! in `claims/` (the options are `run_options.rs`').

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use aboure_records::{results_file, worker_results_file, GameRecord, Tally};

use crate::config::Config;
use crate::error::RunError;
use crate::event::Event;
use crate::outcome::RunOutcome;
use crate::output::prepare;
use crate::run_options::{Observer, RunOptions};
use crate::schedule::Schedule;
use crate::seat::{seats, Seat};
use crate::sprt::LiveSprt;
use aboure_process::{BotLogs, Launch};
use aboure_workers::census as roster;
use aboure_workers::{ClaimDir, Slice, WorkerFile};

pub(crate) mod queue;
mod source;
pub(crate) use queue::on_claims;
use queue::Queue;
pub use queue::SharingCounts;
use source::ScheduleSource;

/// This worker's name: `K-of-N` for `--shard K/N`, host and process id
/// for `--join`, `main` otherwise.
pub(crate) fn worker_name(options: &RunOptions) -> String {
    match (options.shard, options.join) {
        (Some(s), _) => format!("{}-of-{}", s.index, s.count),
        (None, true) => {
            let host: String = crate::lock::hostname()
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '.' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            format!("{host}-{}", std::process::id())
        }
        (None, false) => "main".to_owned(),
    }
}

/// The run's sandbox, and its layers report (the bots that ponder named
/// in it), told to the observer.
pub(crate) fn sandbox(
    config: &Config,
    options: &RunOptions,
) -> Result<(Arc<aboure_sandbox::Sandbox>, aboure_sandbox::Layers), RunError> {
    let mut sandbox = aboure_sandbox::Sandbox::new(config.sandbox(), &options.aboure_exe)?;
    sandbox.hide([config.path().to_owned(), options.out_dir.clone()]);
    for bot in config.bots() {
        let (program, args) = bot.command_line(&options.aboure_exe);
        let (workdir, launch) = (bot.workdir(), bot.launch());
        sandbox.register_bot(
            bot.name(),
            (&program, &args),
            workdir,
            bot.sandbox(),
            &launch,
        )?;
    }
    // At most two processes a game (a restart's overlap aside), each under
    // the largest limit; unbounded if any bot has none.
    let limits: Option<Vec<u64>> = config.bots().iter().map(|b| b.limits().memory).collect();
    if let Some(largest) = limits.and_then(|l| l.into_iter().max()) {
        let processes = 2 * options.concurrency_for(config) as u64;
        sandbox.bound_memory(processes.saturating_mul(largest));
    }
    let sandbox = Arc::new(sandbox);
    let ponder = config
        .bots()
        .iter()
        .filter(|b| b.ponder())
        .map(|b| b.name());
    let layers = sandbox.layers().clone().with_ponder(ponder);
    (options.observer)(&Event::Sandbox(layers.clone()));
    Ok((sandbox, layers))
}

/// Runs the tournament `config`, of a scheduled format (round robin,
/// gauntlet, SPRT), with `options`.
pub(crate) async fn run(config: &Config, options: RunOptions) -> Result<RunOutcome, RunError> {
    let (sandbox, layers) = sandbox(config, &options)?;
    let name = worker_name(&options);
    let mut output = prepare(
        &options.out_dir,
        config,
        options.resume || options.join,
        options.shard,
        own_results_file(&options, &name),
        &layers,
    )?;
    for note in &output.notes {
        tracing::warn!("{note}");
    }
    let concurrency = options.concurrency_for(config);
    let own_file = own_file_name(&output);
    let (claims, registered) = enrol(&output, &name, concurrency, options.shared())?;

    // The whole schedule: a shard is a hint of where to start, a slice
    // the only units there are.
    let schedule = Schedule::new(config, None);
    let scheduled = match options.slice {
        true => Schedule::new(config, options.shard).len(),
        false => schedule.len(),
    };
    let mut previous = std::mem::take(&mut output.previous);
    aboure_records::RecordChoice::keep_counted(
        &output.games_path,
        &mut previous,
        aboure_workers::mark_now,
    );
    let slice = options.shard.map(|s| Slice {
        index: u64::from(s.index - 1),
        count: u64::from(s.count),
    });
    let siblings = aboure_workers::Siblings::new(&output.dir, &output.games_path);
    let own = (own_file, previous.as_slice());
    let mut queue = Queue::new(schedule, (claims, registered), siblings, slice, own);
    if let (true, Some(slice)) = (options.slice, slice) {
        queue.only(slice);
    }
    if options.join {
        queue.spread_out();
    }
    queue.start(&output.dir)?;
    let mut known: Vec<GameRecord> = previous;
    known.extend(queue.take_fresh());
    (options.observer)(&Event::Started {
        total: scheduled,
        previous: known.len(),
    });

    let launches = Arc::new(launches(config, &options, &output.logs, sandbox)?);
    let counted = counted(config, &output, known);
    (options.observer)(&Event::Standings(counted.0.standings()));
    let source = ScheduleSource::new(queue, output.writer, counted, concurrency);
    let source = Arc::new(Mutex::new(source));
    let writer = Arc::new(Mutex::new(roster::Writer::default()));
    let roster = tokio::spawn(roster::watch(
        (output.dir.clone(), name.clone()),
        roster_of(&source, options.observer.clone()),
        writer.clone(),
        aboure_workers::Pace::expecting(options.shard.map_or(0, |s| s.count as usize)),
    ));
    let seat = Seat::first(config, source.clone(), launches.clone(), &options, true);
    let result = seats(seat, concurrency).await;
    for l in launches.iter() {
        l.logs.flush();
    }
    roster.abort();
    leave(&source, &output.dir, &name, writer).await;
    result?;
    let folder = (output.notes, output.games_path, output.dir);
    ended(&source, &options, scheduled, folder)
}

/// How the run ended, for this worker: read as it leaves.
fn ended(
    source: &Mutex<ScheduleSource>,
    options: &RunOptions,
    scheduled: usize,
    (notes, games_path, out_dir): (Vec<String>, PathBuf, PathBuf),
) -> Result<RunOutcome, RunError> {
    let interrupted = *options.interrupt.borrow();
    if interrupted {
        (options.observer)(&Event::Interrupted);
    }
    let mut source = source.lock().map_err(|_| RunError::StatePoisoned)?;
    // The others' half-played units too, for the standings (the log holds
    // finished units only): when the run stopped before every unit was.
    let unfinished = !source.queue.ledger().all_done();
    if let Err(e) = unfinished.then(|| source.queue.refresh_all()).transpose() {
        tracing::warn!("cannot read the other workers' files at the end: {e}");
    }
    source.absorb();
    Ok(RunOutcome {
        sprt: source.sprt.as_ref().map(|s| (s.status(), s.describe())),
        standings: source.tally.standings(),
        finished: source.queue.ledger().games() as usize,
        scheduled,
        played: source.played,
        work: source.queue.work(),
        interrupted,
        stopped: source.stopped.clone(),
        notes,
        games_path,
        out_dir,
    })
}

/// This worker's results file: its shard's, its own as a worker that
/// joined, or the run's.
fn own_results_file(options: &RunOptions, name: &str) -> PathBuf {
    match (options.shard, options.join) {
        (Some(s), _) => results_file(&options.out_dir, Some((s.index, s.count))),
        (None, true) => worker_results_file(&options.out_dir, name),
        (None, false) => results_file(&options.out_dir, None),
    }
}

/// The standings and the SPRT (if the run is one) of the games `known`
/// as the worker starts.
fn counted(
    config: &Config,
    output: &crate::output::Output,
    known: Vec<GameRecord>,
) -> (Tally, Option<LiveSprt>) {
    let mut sprt = source::live_sprt(config, output);
    let mut tally = Tally::new(config.bots().iter().map(|b| b.name()));
    for g in &known {
        tally.add(g);
        if let Some(s) = sprt.as_mut() {
            s.add(g);
        }
    }
    (tally, sprt)
}

/// What the roster needs of a tournament worker: the games its queue
/// counted by results file, and the queue and the observer to tell what
/// the roster says.
fn roster_of(
    source: &Arc<Mutex<ScheduleSource>>,
    observer: Observer,
) -> (roster::Games, roster::Told) {
    let (counted, told) = (source.clone(), source.clone());
    let games: roster::Games = Arc::new(move || {
        let source = counted.lock().ok()?;
        Some(source.queue.games_by_file().clone())
    });
    let told: roster::Told = Arc::new(move |brief, passed| {
        if let Ok(mut source) = told.lock() {
            source.queue.set_roster(brief, passed);
        }
        observer(&Event::Workers(brief.clone()));
    });
    (games, told)
}

/// Marks this worker as ended (left on its own accord: not to be counted
/// among the dead) and writes the roster once more if it holds the right
/// to, or can take it (the last to leave can).
async fn leave(
    source: &Mutex<ScheduleSource>,
    dir: &std::path::Path,
    name: &str,
    writer: Arc<Mutex<roster::Writer>>,
) {
    let games = match source.lock() {
        Ok(source) => {
            if let Err(e) = source.queue.worker().end() {
                tracing::warn!("cannot mark this worker as ended: {e}");
            }
            source.queue.games_by_file().clone()
        }
        Err(_) => return,
    };
    roster::leave(dir, name, games, writer).await;
}

/// How to start each bot of `config`.
pub fn launches(
    config: &Config,
    options: &RunOptions,
    logs: &std::path::Path,
    sandbox: Arc<aboure_sandbox::Sandbox>,
) -> Result<Vec<Launch>, RunError> {
    let mut launches = Vec::new();
    for bot in config.bots() {
        let logs = BotLogs::new(Some(logs), bot.name(), options.log_protocol)
            .map_err(RunError::io(format!("cannot open logs of {}", bot.name())))?;
        let (program, args) = bot.command_line(&options.aboure_exe);
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
    Ok(launches)
}

/// This worker's claims folder and its entry in it (`claims/worker-NAME`,
/// locked while it lives).
pub(crate) fn enrol(
    output: &crate::output::Output,
    name: &str,
    concurrency: usize,
    shared: bool,
) -> Result<(ClaimDir, WorkerFile), RunError> {
    let who = aboure_workers::Enrolment {
        name,
        host: &crate::lock::hostname(),
        concurrency,
        results: &own_file_name(output),
        shared,
    };
    Ok(aboure_workers::enrol(&output.dir, &who)?)
}

/// The name of this worker's own results file in the run's folder.
pub(crate) fn own_file_name(output: &crate::output::Output) -> String {
    output
        .games_path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}
