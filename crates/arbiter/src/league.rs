//! A league run (`format = "league"`): one process asks the league crate's
//! rule for each next pair, plays it, records it, and stops on the rule's
//! verdict.
//!
//! The loop keeps no state a crash could lose: the pairs of the league are
//! its games in `games.jsonl` (ids `l{pair}-g{game}`, the pairing named
//! South first), its entrants are in `run.json` (when each joined, when it
//! retired), and each decision is a function of those alone ([`aboure_league::in_flight`]). A
//! resumed league therefore plays the same pairs in the same order as one
//! that was never stopped, finishing first any pair a crash cut short.
//! Several pairs are in play at once up to the league's `in_flight` (its
//! first run's concurrency, recorded); how that stays deterministic is in
//! [`aboure_league::in_flight`]. Workers sharing the folder (`--shard`, `--join`) run
//! `worker.rs` instead: they claim pair numbers as they decide them, and
//! write `workers.json` as a tournament's workers do.
//!
//! When the league stops, the verdict on every neighbour pair of the final
//! table (refitted from every game) is printed and written to `run.json`.

mod desk;
pub(crate) mod entrants;
pub(crate) mod error;
mod play;
mod worker;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use aboure_league::{Decision, Field, Rule, Table, Verdict};
use aboure_records::{
    outcome, results_file, EntrantRecord, GameRecord, LeagueVerdict, NeighbourState,
    NeighbourVerdict, StopReason, Tally,
};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use aboure_league::in_flight::{self, Book, Membership, Slot};
pub use error::LeagueRunError;
use play::{parse_game_id, PairTask};

use crate::config::{BotId, Config};
use crate::error::RunError;
use crate::event::Event;
use crate::output::{prepare, schedule_identity, Output};
use crate::tournament::{launches, sandbox, RunOptions, Summary};

/// Runs the league of `config` (its rule `rule`) with `options`.
pub(crate) async fn run(
    config: &Config,
    rule: Rule,
    options: RunOptions,
) -> Result<Summary, RunError> {
    if options.join || options.shard.is_some() {
        return worker::run(config, rule, options).await;
    }
    let (sandbox, layers) = sandbox(config, &options)?;
    let games_path = results_file(&options.out_dir, None);
    let mut output = prepare(
        &options.out_dir,
        config,
        options.resume,
        None,
        games_path,
        &layers,
    )?;
    for note in &output.notes {
        tracing::warn!("{note}");
    }
    refuse_if_workers(&output.dir)?;
    // Games workers recorded in the folder (`league/worker.rs`) count too.
    let siblings = aboure_workers::Siblings::new(&output.dir, &output.games_path).poll()?;
    output.previous.extend(siblings.into_iter().map(|(_, g)| g));
    let concurrency = options.concurrency_for(config) as u64;
    let previous = std::mem::take(&mut output.previous);
    let next_pair = next_pair(&previous, &output)?;
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let (bots, league) = entrants::admit(
        &output.dir,
        &mut output.manifest,
        config,
        &schedule_identity(config),
        next_pair,
        concurrency,
        &now,
    )?;
    output.manifest.scheduled_games = rule.games.map(|g| g as u64);
    output.manifest.write_in(&output.dir)?;
    let mut book = book_of(&previous, &league.entrants, &output)?;
    let mut tally = Tally::new(config.bots().iter().map(|b| b.name()));
    previous.iter().for_each(|g| tally.add(g));
    (options.observer)(&Event::Started {
        total: rule.games.unwrap_or(previous.len()),
        previous: previous.len(),
    });
    (options.observer)(&Event::Standings(tally.standings()));
    let launches = Arc::new(launches(config, &options, &output.logs, sandbox)?);
    let league_loop = Loop {
        config: Arc::new(config.clone()),
        rule,
        entrants: league.entrants.clone(),
        bots,
        in_flight: league.in_flight,
        tasks: concurrency.min(league.in_flight),
    };
    let ended = league_loop
        .play(&mut book, &mut tally, &mut output, &launches, &options)
        .await;
    for l in launches.iter() {
        l.logs.flush();
    }
    let (played, stop) = ended?;
    let interrupted = *options.interrupt.borrow();
    if interrupted {
        (options.observer)(&Event::Interrupted);
    }
    let stopped = match stop.filter(|_| !interrupted) {
        Some(reason) => {
            let verdict = verdict(&rule, reason, &book, &league.entrants);
            let lines = verdict.lines().join("\n");
            (options.observer)(&Event::Stopped(lines.clone()));
            if let Some(l) = output.manifest.league.as_mut() {
                l.verdict = Some(verdict);
            }
            output.manifest.write_in(&output.dir)?;
            Some(lines)
        }
        None => None,
    };
    let finished = previous.len() + played;
    Ok(Summary {
        sprt: None,
        standings: tally.standings(),
        finished,
        scheduled: rule.games.unwrap_or(finished),
        played,
        work: Default::default(),
        interrupted,
        stopped,
        notes: output.notes,
        games_path: output.games_path.clone(),
        out_dir: output.dir.clone(),
    })
}

/// When each entrant joined and left, as the league's in-flight rule reads
/// them.
fn memberships(entrants: &[EntrantRecord]) -> Vec<Membership> {
    entrants
        .iter()
        .map(|e| Membership {
            joined: e.joined,
            retired_from: e.retired_from,
        })
        .collect()
}

/// Refuses a plain run of a league that workers are playing: it takes no
/// claims, so it would play their pairs again.
fn refuse_if_workers(dir: &std::path::Path) -> Result<(), LeagueRunError> {
    match aboure_workers::held_unit(dir) {
        Some(unit) => Err(LeagueRunError::WorkersPlaying {
            dir: dir.to_owned(),
            unit,
        }),
        None => Ok(()),
    }
}

/// The pair number after every recorded one.
fn next_pair(previous: &[GameRecord], output: &Output) -> Result<u64, LeagueRunError> {
    let mut next = 0;
    for g in previous {
        let (n, _) =
            parse_game_id(&g.id).ok_or_else(|| foreign(output, g, "not l{pair}-g{game}"))?;
        next = next.max(n + 1);
    }
    Ok(next)
}

fn foreign(output: &Output, g: &GameRecord, problem: &str) -> LeagueRunError {
    LeagueRunError::ForeignGame {
        path: output.games_path.clone(),
        id: g.id.clone(),
        problem: problem.to_owned(),
    }
}

/// The league's pairs as the results file records them.
fn book_of(
    previous: &[GameRecord],
    entrants: &[EntrantRecord],
    output: &Output,
) -> Result<Book, LeagueRunError> {
    let index: HashMap<&str, usize> = entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (e.name.as_str(), i))
        .collect();
    let mut book = Book::default();
    for g in previous {
        record_game(&mut book, &index, g).map_err(|problem| foreign(output, g, problem))?;
    }
    Ok(book)
}

/// Counts the recorded game `g` in `book` (`index`: each entrant's place
/// by name), or says why it is not a game of this league.
pub(crate) fn record_game(
    book: &mut Book,
    index: &HashMap<&str, usize>,
    g: &GameRecord,
) -> Result<(), &'static str> {
    let (n, game) = parse_game_id(&g.id).ok_or("not l{pair}-g{game}")?;
    let [first, second] = &g.pairing;
    let (Some(&a), Some(&b)) = (index.get(first.as_str()), index.get(second.as_str())) else {
        return Err("it names a bot that is not an entrant");
    };
    let south = if game == 0 { first } else { second };
    if &g.south != south || a == b {
        return Err("its sides do not fit its pairing");
    }
    if book
        .get(n)
        .is_some_and(|s| (s.south_first, s.north_first) != (a, b))
    {
        return Err("its pair's other game has other players");
    }
    book.record(n, Slot::new(a, b), game, outcome(g, first));
    Ok(())
}

/// The league's loop: what it decides with and how many pairs it plays at
/// once.
struct Loop {
    config: Arc<Config>,
    rule: Rule,
    entrants: Vec<EntrantRecord>,
    /// Each entrant's bot.
    bots: Vec<BotId>,
    in_flight: u64,
    tasks: u64,
}

/// The pairs in play and what they report to.
struct InPlay {
    results: mpsc::UnboundedSender<(u64, u8, GameRecord)>,
    tasks: JoinSet<()>,
    pairs: BTreeSet<u64>,
    /// Every pair below it is complete.
    low: u64,
}

impl Loop {
    /// Plays pairs until the rule stops the league (its reason) or the run
    /// is interrupted (`None`); returns the games played and the reason.
    async fn play(
        &self,
        book: &mut Book,
        tally: &mut Tally,
        output: &mut Output,
        launches: &Arc<Vec<aboure_process::Launch>>,
        options: &RunOptions,
    ) -> Result<(usize, Option<StopReason>), RunError> {
        let (results, mut finished) = mpsc::unbounded_channel();
        let mut in_play = InPlay {
            results,
            tasks: JoinSet::new(),
            pairs: BTreeSet::new(),
            low: 0,
        };
        let (mut stop, mut played) = (None, 0);
        let mut interrupt = options.interrupt.clone();
        loop {
            if stop.is_none() && !*interrupt.borrow() {
                stop = self.start_pairs(book, &mut in_play, launches, options)?;
            }
            if in_play.pairs.is_empty() {
                break;
            }
            tokio::select! {
                Some(finished) = finished.recv() => {
                    let n = finished.0;
                    keep(finished, book, tally, output, options)?;
                    if book.get(n).is_some_and(Slot::complete) {
                        if let Some(event) = progress(&self.rule, book, &self.entrants) {
                            (options.observer)(&event);
                        }
                    }
                    played += 1;
                    in_play.pairs.retain(|&n| !book.get(n).is_some_and(Slot::complete));
                }
                Some(ended) = in_play.tasks.join_next() => {
                    ended.map_err(|source| RunError::TaskFailed { what: "game", source })?;
                }
                _ = interrupt.wait_for(|&i| i) => break,
            }
        }
        while let Some(ended) = in_play.tasks.join_next().await {
            ended.map_err(|source| RunError::TaskFailed {
                what: "game",
                source,
            })?;
        }
        // Games that finished as an interrupt came in are kept too.
        while let Ok(game) = finished.try_recv() {
            keep(game, book, tally, output, options)?;
            played += 1;
        }
        Ok((played, stop))
    }

    /// Starts pairs in order while there is room and the next can be
    /// decided; the rule's reason if it stops the league.
    fn start_pairs(
        &self,
        book: &mut Book,
        in_play: &mut InPlay,
        launches: &Arc<Vec<aboure_process::Launch>>,
        options: &RunOptions,
    ) -> Result<Option<StopReason>, RunError> {
        while (in_play.pairs.len() as u64) < self.tasks {
            while book.get(in_play.low).is_some_and(Slot::complete) {
                in_play.low += 1;
            }
            let open =
                |n: &u64| !in_play.pairs.contains(n) && !book.get(*n).is_some_and(Slot::complete);
            let n = (in_play.low..).find(open).unwrap_or(u64::MAX);
            let slot = match book.get(n) {
                Some(slot) => *slot, // decided before a crash: finish it
                None => {
                    let decided = in_flight::decide(
                        &self.rule,
                        self.config.seed(),
                        &memberships(&self.entrants),
                        book,
                        n,
                        self.in_flight,
                    );
                    match decided {
                        Err(_waiting) => return Ok(None),
                        Ok(Err(e)) => return Err(LeagueRunError::Records(e).into()),
                        Ok(Ok(Decision::Play(p))) => {
                            let slot = Slot::new(p.south_first, p.north_first);
                            book.decide(n, slot);
                            slot
                        }
                        Ok(Ok(other)) => return Ok(Some(stop_reason(&other))),
                    }
                }
            };
            in_play.pairs.insert(n);
            let task = PairTask {
                config: self.config.clone(),
                launches: launches.clone(),
                interrupt: options.interrupt.clone(),
                observer: options.observer.clone(),
                results: in_play.results.clone(),
            };
            let pair = [self.bots[slot.south_first], self.bots[slot.north_first]];
            in_play.tasks.spawn(task.run(n, pair, slot.missing()));
        }
        Ok(None)
    }
}

/// Writes a finished game (synced before the next is written) and counts
/// it in the book, the standings and the progress.
fn keep(
    (n, game, record): (u64, u8, GameRecord),
    book: &mut Book,
    tally: &mut Tally,
    output: &mut Output,
    options: &RunOptions,
) -> Result<(), RunError> {
    output.writer.write(&record).map_err(RunError::io(format!(
        "cannot write game {} to {}",
        record.id,
        output.games_path.display()
    )))?;
    tally.add(&record);
    if let Some(&slot) = book.get(n) {
        book.record(n, slot, game, outcome(&record, &record.pairing[0]));
    }
    (options.observer)(&Event::GameFinished(Box::new(record)));
    (options.observer)(&Event::Standings(tally.standings()));
    Ok(())
}

pub(crate) fn stop_reason(decision: &Decision) -> StopReason {
    match decision {
        Decision::BudgetSpent => StopReason::BudgetSpent,
        Decision::Settled(_) => StopReason::Settled,
        Decision::NoOpponents | Decision::Play(_) => StopReason::NoOpponents,
    }
}

/// How far a league stopped by its verdict is from it
/// ([`Event::League`]); `None` without `until`.
pub(crate) fn progress(rule: &Rule, book: &Book, entrants: &[EntrantRecord]) -> Option<Event> {
    rule.until?;
    let neighbours = verdict(rule, StopReason::Settled, book, entrants).neighbours;
    if neighbours.is_empty() {
        return None; // no table yet: the ratings cannot be fitted
    }
    let settled = neighbours
        .iter()
        .filter(|n| n.verdict != NeighbourState::Open)
        .count();
    Some(Event::League {
        settled,
        neighbours: neighbours.len(),
    })
}

/// The verdict on the final table: every finished pair refitted, each
/// neighbour pair the focus covers judged (with `until = "separated"`).
pub(crate) fn verdict(
    rule: &Rule,
    reason: StopReason,
    book: &Book,
    entrants: &[EntrantRecord],
) -> LeagueVerdict {
    let pairs = book.finished();
    let field_entrants = in_flight::entrants_at(&memberships(entrants), u64::MAX);
    let table = Field::new(&field_entrants, &pairs)
        .ok()
        .and_then(|field| Table::with_prior(&field));
    let neighbours = match (rule.until, table) {
        (Some(separation), Some(table)) => separation
            .neighbours(&table, rule.focus)
            .into_iter()
            .map(|n| NeighbourVerdict {
                rank: n.rank as u64,
                upper: entrants[n.upper].name.clone(),
                lower: entrants[n.lower].name.clone(),
                difference: n.difference,
                error: n.error,
                los: n.los,
                verdict: match n.verdict {
                    Verdict::Separated => NeighbourState::Separated,
                    Verdict::WithinMargin => NeighbourState::WithinMargin,
                    Verdict::Open => NeighbourState::Open,
                },
            })
            .collect(),
        _ => Vec::new(),
    };
    LeagueVerdict {
        reason,
        pairs: pairs.len() as u64,
        games: book.games(),
        neighbours,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_league::Separation;
    use aboure_stats::PlayerResult::{Draw, Loss, Win};

    fn entrant(name: &str) -> EntrantRecord {
        EntrantRecord {
            name: name.to_owned(),
            joined: 0,
            joined_at: String::new(),
            retired_from: None,
        }
    }

    /// `pairs` pairs of each of (0, 1), (1, 2) and (0, 2), the first named
    /// (South first in every other pair) scoring 5.5 of 8 games.
    fn book(pairs: u64) -> Book {
        let mut book = Book::default();
        let flip = |r| match r {
            Win => Loss,
            Loss => Win,
            Draw => Draw,
        };
        for k in 0..pairs {
            for (i, (a, b)) in [(0, 1), (1, 2), (0, 2)].into_iter().enumerate() {
                let n = 3 * k + i as u64;
                let results = [[Win, Loss], [Draw, Win], [Win, Win], [Loss, Draw]][k as usize % 4];
                let (slot, results) = match k % 2 {
                    0 => (Slot::new(a, b), results),
                    _ => (Slot::new(b, a), results.map(flip)),
                };
                book.record(n, slot, 0, results[0]);
                book.record(n, slot, 1, results[1]);
            }
        }
        book
    }

    #[test]
    fn a_leagues_progress_counts_its_settled_neighbour_pairs() {
        let entrants = [entrant("a"), entrant("b"), entrant("c")];
        let until = Rule {
            until: Some(Separation {
                confidence: 0.9,
                tie_margin: 0.0,
                intervals: aboure_league::Intervals::FixedSample,
            }),
            ..Rule::default()
        };
        let settled = |book: &Book| match progress(&until, book, &entrants) {
            Some(Event::League {
                settled,
                neighbours,
            }) => Some((settled, neighbours)),
            _ => None,
        };
        // No table yet (no game, or one side won everything): no count.
        assert_eq!(settled(&Book::default()), None);
        assert_eq!(
            settled(&book(4)),
            Some((0, 2)),
            "a few pairs settle nothing"
        );
        assert_eq!(settled(&book(200)), Some((2, 2)));
        // Without `until` a league has no verdict to count towards.
        assert!(progress(&Rule::default(), &book(200), &entrants).is_none());
    }
}
