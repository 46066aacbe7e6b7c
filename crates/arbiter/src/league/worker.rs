//! A league shared by workers (`aboure run league.toml --join DIR`, or
//! `--shard K/N` as a worker's name): any number of processes, on any
//! machines, started and stopped at any time, play one league together,
//! and the league's rule decides each next pair when a worker asks for
//! work.
//!
//! # Asking for work
//!
//! A worker that asks ([`Desk::ask`]) first reads what the others
//! recorded since it last looked: every results file of the folder
//! (`records::results_files`), each followed from the offset it reached.
//! Then, in this order:
//!
//! 1. **A pair left unfinished** is taken first: a claim file whose lock
//!    is free (its worker died, however it died), or a pair with one game
//!    recorded and no claim (a run cut short). The claim protocol is the
//!    one every format uses ([`aboure_workers`]: a `flock` on
//!    `claims/unit-N` that the kernel drops when its holder dies, checked
//!    again before each write); the taker plays only the game or games
//!    no results file holds.
//! 2. **Otherwise a new pair**: its number is one past every number
//!    recorded or claimed, and the rule ([`aboure_league::Rule::next`],
//!    through `aboure_league::in_flight::decide_shared`) picks its two entrants from every
//!    finished pair of the folder and the pairs in flight (each counted
//!    as two draws, as a one-process league counts its pending pairs, so
//!    that two workers do not send the same newcomer to the same
//!    placement). The worker then claims the number; if another worker
//!    claimed it first, it reads again and asks again. Once held, the
//!    decision is written into the claim file (`league-pair A B`, the
//!    entrants' places in `run.json`, between the worker's signatures, so
//!    the file still ends with the holder's name), so the
//!    others count it as in flight, and a worker that takes the pair over
//!    after a death plays the pair that was decided.
//! 3. **Stop** when the rule says the league is settled (asked of the
//!    finished pairs alone), the budget is spent (pair `n` with `2n` at
//!    least `games`), or no entrant has an opponent, and no pair is in
//!    flight anywhere. While pairs are in flight elsewhere the worker
//!    waits (100 ms doubling to 2 s) and asks again: their games may
//!    unsettle a neighbour pair, and if their worker dies, it takes them
//!    over. So every worker stops on the same verdict, the one the rule
//!    gives with every pair recorded; games in flight finish and are
//!    recorded; nothing is played twice (the claim), nothing lost (the
//!    takeover).
//!
//! Each worker writes the final verdict, refitted from every recorded
//! pair, into `run.json` as it stops (all of them write the same one).
//!
//! # Who works on the league
//!
//! The workers write `workers.json` as a tournament's do, through the same
//! roster writer ([`aboure_workers::census`]): one of them at a time reads
//! `claims/` every 2 s and writes the file, and the last to leave writes
//! the final one. A league's claims are its pair numbers, so a worker's
//! `holding` is the pairs it holds; its `games` are the games its desk
//! counted in its results file; its `took_over` the pairs it took from a
//! worker that died (noted as it takes one, in [`Desk::ask`]). A worker
//! that leaves, whether the league stopped, it was interrupted or it
//! failed, is `ended`; one killed is `died`.
//!
//! # What "deterministic" means here
//!
//! The pair a worker chooses is a function of the recorded games, the
//! pairs in flight and the seed. Which games are recorded, and which pairs
//! are in flight, when a worker asks depends on the order workers ask in
//! and on how long games take, which nobody fixes: two runs of the same
//! league with workers need not play the same pairs, even with
//! deterministic bots. A league played by one process (`--concurrency C`)
//! keeps its stronger rule (`aboure_league::in_flight`: pair `n` is a function of the
//! records of the pairs before `n + 1 - C`), so it and its resumes play
//! the same pairs every time. The verdict is deterministic in the sense
//! that matters: it is the rule's, on the games recorded.
//!
//! # What it does not do
//!
//! The field does not change while workers share it: a worker whose file
//! adds or retires an entrant is refused; stop the workers and run
//! `--resume` once (or start the first worker with the new file on a
//! folder nobody works on). A worker knocks on every pair in flight at
//! each ask (one `flock` try each), which suits tens of workers, not the
//! thousands the schedule formats serve.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use aboure_league::Rule;
use aboure_records::{results_file, worker_results_file, GameRecord, StopReason, Tally};
use aboure_sandbox::Layers;
use aboure_workers::census as roster;
use aboure_workers::Siblings;

use super::desk::Desk;
use super::pair::parse_game_id;
use super::{entrants, verdict, LeagueRunError};
use crate::config::{BotId, Config};
use crate::error::RunError;
use crate::event::Event;
use crate::lock::ResultsLock;
use crate::outcome::RunOutcome;
use crate::output::{prepare, schedule_identity, Output};
use crate::run_options::{Observer, RunOptions};
use crate::seat::{seats, Seat};
use crate::tournament::enrol;
use crate::tournament::{launches, sandbox, worker_name};

/// Runs this process as one worker of the league of `config` in
/// `options.out_dir`.
pub(crate) async fn run(
    config: &Config,
    rule: Rule,
    options: RunOptions,
) -> Result<RunOutcome, RunError> {
    let (sandbox, layers) = sandbox(config, &options)?;
    let name = worker_name(&options);
    let mut output = open(config, &options, &name, &layers)?;
    let concurrency = options.concurrency_for(config);
    let (claims, worker) = enrol(&output, &name, concurrency, options.shared())?;
    let mut follower = Siblings::new(&output.dir, &output.games_path);
    let known = known_games(&mut output, &mut follower)?;
    let (bots, entrants) = admit(config, &rule, &mut output, &known, concurrency)?;
    let tally = Tally::new(config.bots().iter().map(|b| b.name()));
    let parts = (claims, follower, output.writer, worker);
    let mut desk = Desk::new((rule, config.seed()), (entrants, bots), parts, tally);
    let previous = known.len();
    for (path, g) in known {
        desk.count(&path, g)?;
    }
    (options.observer)(&Event::Started {
        total: rule.games.unwrap_or(previous),
        previous,
    });
    (options.observer)(&Event::Standings(desk.tally.standings()));
    let launches = Arc::new(launches(config, &options, &output.logs, sandbox)?);
    for l in launches.iter() {
        l.logs.flush();
    }
    let desk = Arc::new(Mutex::new(desk));
    let writer = Arc::new(Mutex::new(roster::Writer::default()));
    let roster = tokio::spawn(roster::watch(
        (output.dir.clone(), name.clone()),
        roster_of(&desk, options.observer.clone()),
        writer.clone(),
        aboure_workers::Pace::expecting(options.shard.map_or(0, |s| s.count as usize)),
    ));
    let seat = Seat::first(config, desk.clone(), launches.clone(), &options, false);
    let stop = seats(seat, concurrency).await;
    for l in launches.iter() {
        l.logs.flush();
    }
    roster.abort();
    let summary = stop.and_then(|()| {
        let interrupted = *options.interrupt.borrow();
        if interrupted {
            (options.observer)(&Event::Interrupted);
        }
        let desk = desk.lock().unwrap_or_else(|p| p.into_inner());
        let stop = desk.stopped.filter(|_| !interrupted);
        finish(&desk, stop, &options, interrupted)
    });
    leave(&desk, &output.dir, &name, writer).await;
    summary
}

/// The folder, ready for this worker: its own results file (`--shard`'s
/// numbered one, or one named for the worker), never beside a plain run.
fn open(
    config: &Config,
    options: &RunOptions,
    name: &str,
    layers: &Layers,
) -> Result<Output, RunError> {
    let games_path = match options.shard {
        Some(s) => results_file(&options.out_dir, Some((s.index, s.count))),
        None => worker_results_file(&options.out_dir, name),
    };
    // A plain run of the league takes no claims: never play beside one.
    std::fs::create_dir_all(&options.out_dir).map_err(RunError::io(format!(
        "cannot create {}",
        options.out_dir.display()
    )))?;
    not_beside_a_plain_run(&results_file(&options.out_dir, None))?;
    let output = prepare(&options.out_dir, config, true, None, games_path, layers)?;
    for note in &output.notes {
        tracing::warn!("{note}");
    }
    Ok(output)
}

/// Every game of the folder, with the file that holds it: this worker's
/// own file, then the others'.
fn known_games(
    output: &mut Output,
    follower: &mut Siblings,
) -> Result<Vec<(PathBuf, GameRecord)>, RunError> {
    let mut own = std::mem::take(&mut output.previous);
    aboure_records::RecordChoice::keep_counted(
        &output.games_path,
        &mut own,
        aboure_workers::mark_now,
    );
    let mut known: Vec<_> = own
        .into_iter()
        .map(|g| (output.games_path.clone(), g))
        .collect();
    let others = follower.poll()?.into_iter();
    known.extend(others.map(|(file, g)| (output.dir.join(file), g)));
    Ok(known)
}

/// Admits the league's entrants as the folder records them, refusing a
/// field that changed while workers share it; each entrant's bot, and the
/// entrants.
fn admit(
    config: &Config,
    rule: &Rule,
    output: &mut Output,
    known: &[(PathBuf, GameRecord)],
    concurrency: usize,
) -> Result<(Vec<BotId>, Vec<aboure_records::EntrantRecord>), RunError> {
    let next_pair = known
        .iter()
        .filter_map(|(_, g)| parse_game_id(&g.id))
        .map(|(n, _)| n + 1)
        .max()
        .unwrap_or(0);
    let before = output.manifest.league.as_ref().map(|l| l.entrants.clone());
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let (bots, league) = entrants::admit(
        &output.dir,
        &mut output.manifest,
        config,
        &schedule_identity(config),
        next_pair,
        concurrency as u64,
        &now,
    )?;
    if before.is_some_and(|b| b != league.entrants) {
        return Err(LeagueRunError::FieldChangedWhileShared {
            dir: output.dir.clone(),
        }
        .into());
    }
    output.manifest.scheduled_games = rule.games.map(|g| g as u64);
    output.manifest.write_in(&output.dir)?;
    Ok((bots, league.entrants))
}

/// What the roster needs of a league worker: the games its desk counted
/// by results file (the pairs it holds and took over are in `claims/`);
/// the roster goes to the observer.
fn roster_of(desk: &Arc<Mutex<Desk>>, observer: Observer) -> (roster::Games, roster::Told) {
    let desk = desk.clone();
    let games: roster::Games = Arc::new(move || {
        let desk = desk.lock().unwrap_or_else(|p| p.into_inner());
        Some(desk.games_by_file.clone())
    });
    let told: roster::Told = Arc::new(move |brief, _| observer(&Event::Workers(brief.clone())));
    (games, told)
}

/// Marks this worker as ended (left on its own accord, whether the league
/// stopped, it was interrupted or it failed: not to be counted among the
/// dead), then writes the roster once more if it can (the last to leave
/// writes the final one).
async fn leave(desk: &Mutex<Desk>, dir: &Path, name: &str, writer: Arc<Mutex<roster::Writer>>) {
    let games = {
        let desk = desk.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = desk.worker.end() {
            tracing::warn!("cannot mark this worker as ended: {e}");
        }
        desk.games_by_file.clone()
    };
    roster::leave(dir, name, games, writer).await;
}

/// Refuses to start while a plain run of the league holds `games.jsonl`
/// (for its whole run); another worker holds it only for an instant, to
/// look, as this one does.
fn not_beside_a_plain_run(games: &Path) -> Result<(), RunError> {
    let mut tries = 0;
    loop {
        match ResultsLock::acquire(games) {
            Ok(_looked) => return Ok(()),
            Err(RunError::Locked { .. }) if tries < 20 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(25));
            }
            Err(e) => return Err(e),
        }
    }
}

/// Ends the worker: writes the verdict if the league stopped, and says
/// how the run went.
fn finish(
    desk: &Desk,
    stop: Option<StopReason>,
    options: &RunOptions,
    interrupted: bool,
) -> Result<RunOutcome, RunError> {
    let dir = options.out_dir.clone();
    let stopped = match stop {
        Some(reason) => {
            let verdict = verdict(&desk.rule, reason, &desk.book, &desk.entrants);
            let lines = verdict.lines().join("\n");
            (options.observer)(&Event::Stopped(lines.clone()));
            // Read again: another worker may have written it meanwhile.
            let mut manifest = aboure_records::RunManifest::read_in(&dir)?
                .ok_or_else(|| RunError::DamagedResults(format!("{} vanished", dir.display())))?;
            if let Some(l) = manifest.league.as_mut() {
                l.verdict = Some(verdict);
            }
            manifest.write_in(&dir)?;
            Some(lines)
        }
        None => None,
    };
    let finished = desk.book.games() as usize;
    Ok(RunOutcome {
        sprt: None,
        standings: desk.tally.standings(),
        finished,
        scheduled: desk.rule.games.unwrap_or(finished),
        played: desk.played,
        work: Default::default(),
        interrupted,
        stopped,
        notes: Vec::new(),
        games_path: desk.writer.path().to_owned(),
        out_dir: dir,
    })
}
