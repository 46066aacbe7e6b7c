//! Many workers sharing a run, simulated with threads in one process, for
//! `aboure bench workers`. Each thread is one worker with the real claim
//! queue ([`Queue`]: claim files, `flock`s, the log of finished units, the
//! siblings' results files), its own results file written and synced as a
//! worker writes it, on a real folder; only the game takes no time (its
//! record is made up at once). So it measures what sharing costs the
//! filesystem at worker counts one machine cannot run as processes with
//! bots: claim tries, reads of the log and of the others' files, per
//! second and per pair. `flock`s are per open file, so threads exclude
//! each other as processes do.
//!
//! It paces itself as a worker does: the log at most every 250 ms before
//! choosing a unit, the queue's wait when nothing is free, and the roster
//! every 2 s, longer among many (a pass over `claims/` by the worker
//! holding the roster's lock, a read of its brief by each of the others as
//! the pairs finish: `aboure_workers::Pace`), whose brief tells
//! the queue which units live workers hold and which dead ones left.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use aboure_records::{read_summaries, results_file, results_files, GameRecord, GameResult};
use aboure_records::{GamesWriter, Termination};

use aboure_arbiter::queue::{Next, Queue, WriteCheck, REFRESH_AGE};
use aboure_arbiter::{GameSpec, Schedule};
use aboure_arbiter::{RunError, SharingCounts};
use aboure_config::Config;
use aboure_workers::census as roster;
use aboure_workers::Siblings;
use aboure_workers::{Pace, RosterBrief, Slice};

/// What a simulated run did.
#[derive(Clone, Debug)]
pub struct SimulatedRun {
    /// Workers (threads).
    pub workers: u32,
    /// Pairs of the schedule.
    pub pairs: u64,
    /// Wall time until the last worker ended.
    pub wall: Duration,
    /// Every worker's figures, added up.
    pub work: SharingCounts,
    /// Games in the results files at the end, and distinct ids among them.
    pub recorded: (usize, usize),
}

/// Runs the schedule of `config` (every pairing, its `pairs` pairs) with
/// `workers` threads, each `--shard K/N`, in the empty folder `dir`.
pub fn simulate_workers(
    config: &Config,
    workers: u32,
    dir: &Path,
) -> Result<SimulatedRun, RunError> {
    std::fs::create_dir_all(dir)
        .map_err(RunError::io(format!("cannot create {}", dir.display())))?;
    let schedule = Schedule::new(config, None);
    let t0 = Instant::now();
    let works: Vec<Result<SharingCounts, RunError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..=workers)
            .map(|k| {
                let schedule = schedule.clone();
                std::thread::Builder::new()
                    .stack_size(256 * 1024)
                    .spawn_scoped(scope, move || worker(config, schedule, dir, (k, workers)))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().unwrap_or(Err(RunError::StatePoisoned)),
                Err(e) => Err(RunError::io("cannot start a worker thread".to_owned())(e)),
            })
            .collect()
    });
    let wall = t0.elapsed();
    let mut work = SharingCounts::default();
    for w in works {
        work.add(&w?);
    }
    Ok(SimulatedRun {
        workers,
        pairs: schedule.units(),
        wall,
        work,
        recorded: recorded(dir)?,
    })
}

/// One worker, `--shard K/N` with `shard = (K, N)`, until nothing is left.
fn worker(
    config: &Config,
    schedule: Schedule,
    dir: &Path,
    (k, n): (u32, u32),
) -> Result<SharingCounts, RunError> {
    let name = format!("{k}-of-{n}");
    let own: PathBuf = results_file(dir, Some((k, n)));
    let own_file = own
        .file_name()
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    let io = |what: &str| RunError::io(format!("{what} in {}", dir.display()));
    let who = aboure_workers::Enrolment {
        name: &name,
        host: "simulated",
        concurrency: 1,
        results: &own_file,
        shared: true,
    };
    let (claims, registered) = aboure_workers::enrol(dir, &who)?;
    let mut writer = GamesWriter::append(&own).map_err(io("cannot open a results file"))?;
    let units = schedule.units();
    let slice = Some(Slice {
        index: u64::from(k - 1),
        count: u64::from(n),
    });
    let follower = Siblings::new(dir, &own);
    let mut queue = Queue::new(
        schedule,
        (claims, registered),
        follower,
        slice,
        (own_file, &[]),
    );
    queue.start(dir)?;
    let queue = Mutex::new(queue);
    let (stop, stopped) = mpsc::channel::<()>();
    let (tell, briefs) = mpsc::channel();
    let played = std::thread::scope(|scope| {
        // The roster on a thread of its own, as a worker's watch task.
        let watch = std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn_scoped(scope, || {
                watch_roster(&queue, (dir, &name, n as usize), stopped, tell)
            });
        let played = play_units(config, &queue, &mut writer, (units, briefs));
        if let Ok(queue) = queue.lock() {
            if let Err(e) = queue.worker().end() {
                tracing::warn!("cannot mark worker {name} as ended: {e}");
            }
        }
        drop(stop);
        match watch {
            Ok(watch) => _ = watch.join(),
            Err(e) => tracing::warn!("cannot read the roster of worker {name}: {e}"),
        }
        played
    });
    played?;
    let queue = queue.into_inner().map_err(|_| RunError::StatePoisoned)?;
    Ok(queue.work())
}

/// Claims, plays and records units until every game is recorded.
fn play_units(
    config: &Config,
    queue: &Mutex<Queue>,
    writer: &mut GamesWriter,
    (units, briefs): (u64, mpsc::Receiver<(RosterBrief, bool)>),
) -> Result<(), RunError> {
    loop {
        let mut held = queue.lock().map_err(|_| RunError::StatePoisoned)?;
        for (brief, passed) in briefs.try_iter() {
            held.set_roster(&brief, passed);
        }
        match play_unit(config, &mut held, writer, units)? {
            None => return Ok(()),
            Some(pause) => {
                drop(held);
                std::thread::sleep(pause);
            }
        }
    }
}

/// One claim and its games: `None` once every game is recorded, else how
/// long to wait before the next claim.
fn play_unit(
    config: &Config,
    queue: &mut Queue,
    writer: &mut GamesWriter,
    units: u64,
) -> Result<Option<Duration>, RunError> {
    queue.refresh_older(REFRESH_AGE)?;
    queue.take_fresh();
    let (claim, games) = match queue.next(0..units)? {
        Next::Done => return Ok(None),
        Next::Wait(pause) => return Ok(Some(pause)),
        Next::Play(claim, games) => (claim, games),
    };
    for spec in &games {
        let record = record_of(config, spec);
        match queue.may_write(&claim, &record)? {
            WriteCheck::Write => {
                // A simulated disk is never full: no retries.
                writer.write(&record).map_err(RunError::io(format!(
                    "cannot write game {} to {}",
                    record.id,
                    writer.path().display()
                )))?;
                if !queue.confirm(&record)? {
                    return Ok(Some(Duration::ZERO)); // taken over meanwhile
                }
                queue.wrote(&record);
            }
            WriteCheck::Recorded => {}
            WriteCheck::Lost => return Ok(Some(Duration::ZERO)),
        }
    }
    queue.release(claim)?;
    Ok(Some(Duration::ZERO))
}

/// Reads the roster as a worker's watch does: at each of its periods
/// (`roster::period`: 2 s, longer among many), if the run's pairs went on
/// far enough since its last read (`Pace`), and tells the queue (through
/// `tell`: the worker's thread holds the queue nearly all the time, games
/// taking none); once more as the worker leaves (the last one writes the
/// final roster).
fn watch_roster(
    queue: &Mutex<Queue>,
    (dir, name, expected): (&Path, &str, usize),
    stop: mpsc::Receiver<()>,
    tell: mpsc::Sender<(RosterBrief, bool)>,
) {
    let mut writer = roster::Writer::default();
    let mut pace = Pace::expecting(expected);
    let mut last = RosterBrief::default();
    let mut leaving = false;
    let mut games = BTreeMap::new();
    loop {
        // The games by file, for `workers.json` and the pace: as last
        // seen if the queue is busy.
        if let Ok(queue) = queue.try_lock() {
            games = queue.games_by_file().clone();
        }
        let due = leaving || pace.due(games.values().sum(), &last, writer.holds());
        let wait = match due.then(|| roster::read(dir, name, &games, &mut writer)) {
            None => pace.period(&last),
            Some(Ok(brief)) => {
                let wait = pace.period(&brief);
                _ = tell.send((brief.clone(), writer.holds()));
                last = brief;
                wait
            }
            Some(Err(e)) => {
                tracing::warn!("cannot read the workers of the run: {e}");
                roster::EVERY
            }
        };
        match stop.recv_timeout(wait) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            // Left: read once more, then stop.
            _ if !leaving => leaving = true,
            _ => return,
        }
    }
}

/// A game that took no time: South wins every other pair.
fn record_of(config: &Config, spec: &GameSpec) -> GameRecord {
    let name = |id| config.bot(id).name().to_owned();
    GameRecord {
        id: spec.id.clone(),
        pairing: spec.bots.map(name),
        pair: spec.pair,
        game: spec.game,
        opening: Default::default(),
        south: name(spec.south),
        north: name(spec.north),
        start: "startpos".to_owned(),
        moves: Vec::new(),
        plies: Vec::new(),
        score: None,
        result: match spec.pair % 2 {
            0 => GameResult::SouthWins,
            _ => GameResult::Draw,
        },
        termination: Termination::Natural,
        loser: None,
        detail: None,
        time_control: Default::default(),
        started: String::new(),
        duration_ms: 0.0,
    }
}

/// Games in the results files of `dir`, and distinct ids among them.
fn recorded(dir: &Path) -> Result<(usize, usize), RunError> {
    let files =
        results_files(dir).map_err(RunError::io(format!("cannot list {}", dir.display())))?;
    let mut ids = Vec::new();
    for path in files {
        let read = read_summaries(&path).map_err(|e| RunError::Io {
            context: format!("cannot read {}", path.display()),
            source: e.source,
        })?;
        ids.extend(read.games.into_iter().map(|g| g.id));
    }
    let all = ids.len();
    ids.sort_unstable();
    ids.dedup();
    Ok((all, ids.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_sharing_a_folder_record_every_game_once_learning_from_the_log_alone() {
        let text = "[tournament]\npairs = 15\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\
                    [[bot]]\nname = \"b\"\nbuiltin = \"random\"\n[[bot]]\nname = \"c\"\nbuiltin = \"random\"\n";
        let config = aboure_config::parse(text, "t.toml".as_ref()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let run = simulate_workers(&config, 6, &dir.path().join("run")).unwrap();
        assert_eq!(run.pairs, 45);
        assert_eq!(run.recorded, (90, 90), "every game once");
        let w = run.work;
        assert_eq!((w.claimed, w.logged), (45, 45), "{w:?}");
        assert_eq!(w.opens, 0, "no sibling file opened: {w:?}");
        assert!(w.learned > 0 && w.log_reads > 0, "{w:?}");
        let log = std::fs::read_to_string(dir.path().join("run/claims/finished.log")).unwrap();
        assert_eq!(log.lines().count(), 1 + 90, "a header and every game");
    }
}
