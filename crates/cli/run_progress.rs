//! The live progress of `aboure run`: a bar whose message holds the
//! standings, the SPRT or the league's state, the workers and the time
//! left, fed by the arbiter's events; the lines above it (resuming, the
//! sandbox's layers, the live page's address, forfeits) are printed line by
//! line when stderr is a file or a pipe (where no bar is drawn).

use std::collections::BTreeMap;
use std::sync::Mutex;

use aboure_arbiter::Event;
use aboure_records::{GameRecord, Standing};
use aboure_report::printable;
use indicatif::{ProgressBar, ProgressStyle};

use crate::run_eta::RunEta;
use crate::run_startups::Startups;

/// Live progress: the bar, standings in its message, forfeits printed above.
/// The standings are the arbiter's ([`Event::Standings`]), tallied one game
/// at a time, so a run of a million games costs no more per game than a
/// short one.
pub(crate) struct Progress {
    pub(crate) bar: ProgressBar,
    pub(crate) standings: Mutex<Vec<Standing>>,
    /// The SPRT's combined state, over every shard's games.
    pub(crate) sprt: Mutex<Option<aboure_stats::OrderedStatus>>,
    pub(crate) eta: Mutex<RunEta>,
    /// The run's workers, in words.
    pub(crate) workers: Mutex<Option<String>>,
    /// Each bot's first forfeit in this worker's games, its detail.
    pub(crate) first_forfeits: Mutex<BTreeMap<String, String>>,
    /// A league's neighbour pairs settled, of those its verdict covers.
    pub(crate) league: Mutex<Option<(usize, usize)>>,
    /// A league with no budget, stopped by its verdict alone: its bar
    /// counts neighbour pairs settled, not games.
    pub(crate) league_bar: bool,
    /// Each bot's start-ups, the slow ones said.
    pub(crate) startups: Mutex<Startups>,
    pub(crate) quiet: bool,
}

impl Progress {
    pub(crate) fn on(&self, event: &Event) {
        match event {
            Event::Started { total, previous } => self.started(*total, *previous),
            Event::Standings(standings) => {
                if let Ok(mut shown) = self.standings.lock() {
                    shown.clone_from(standings);
                }
                self.update();
            }
            Event::Sandbox(layers) => self.say(&layers.to_string()),
            Event::BotStarted { bot, took } => {
                let line = self
                    .startups
                    .lock()
                    .ok()
                    .and_then(|mut s| s.record(bot, *took));
                if let Some(line) = line {
                    self.say(&printable(&line));
                }
            }
            Event::GameStarted { .. } => {}
            Event::GameFinished(game) => {
                if let Some(loser) = game.forfeited_by() {
                    self.forfeit(game, loser);
                }
                self.count();
            }
            Event::Recorded(_) => self.count(),
            Event::Workers(brief) => {
                // A run of one worker says nothing of workers.
                if let (Ok(mut roster), true) = (self.workers.lock(), brief.workers > 1) {
                    *roster = Some(brief.summary.clone());
                }
                self.update();
            }
            Event::Sprt(status) => {
                if let Ok(mut sprt) = self.sprt.lock() {
                    *sprt = Some(*status);
                }
                if let Ok(mut eta) = self.eta.lock() {
                    eta.sprt(*status);
                }
                self.update();
            }
            Event::League {
                settled,
                neighbours,
            } => self.league_settled(*settled, *neighbours),
            Event::Stopped(reason) => self.say(&printable(&format!("stopping: {reason}"))),
            Event::Interrupted => {}
        }
    }

    /// The run started, `previous` of its `total` games played before.
    fn started(&self, total: usize, previous: usize) {
        let template = match self.league_bar {
            // The bar comes with the first finished pair.
            true => "{prefix} | {wide_msg}",
            false => {
                self.bar.set_length(total as u64);
                self.bar.set_position(previous as u64);
                "{bar:30} {pos}/{len} | {prefix} | {wide_msg}"
            }
        };
        self.bar.reset_eta();
        self.bar.set_style(
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        if let Ok(mut eta) = self.eta.lock() {
            eta.start(total, previous);
        }
        if previous > 0 {
            self.say(&format!(
                "resuming: {previous} of {total} games already played"
            ));
        }
        self.update();
    }

    /// A league settled `settled` of its `neighbours` pairs: the bar of a
    /// league without a budget, else a note beside the standings.
    fn league_settled(&self, settled: usize, neighbours: usize) {
        if self.league_bar {
            self.bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} neighbour pairs settled | {prefix} | {wide_msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            self.bar.set_length(neighbours as u64);
            self.bar.set_position(settled as u64);
        } else if let Ok(mut league) = self.league.lock() {
            *league = Some((settled, neighbours));
        }
        self.update();
    }

    /// A forfeit, above the bar: a bot's first in full (its stderr, the
    /// sandbox it ran in), the later ones in their first line, so a bot
    /// that fails every game does not flood the terminal.
    fn forfeit(&self, game: &GameRecord, loser: &str) {
        let detail = game.detail.as_deref().unwrap_or("");
        let first = match self.first_forfeits.lock() {
            Ok(mut seen) if !seen.contains_key(loser) => {
                seen.insert(loser.to_owned(), detail.to_owned());
                true
            }
            _ => false,
        };
        let shown = match first {
            true => detail.to_owned(),
            false => match detail.split_once('\n') {
                Some((line, _)) => format!("{line} (more in games.jsonl)"),
                None => detail.to_owned(),
            },
        };
        let line = format!(
            "game {} ({} - {}): {loser} loses by {}: {shown}",
            game.id, game.south, game.north, game.termination
        );
        self.say(&printable(&line));
    }

    /// A line above the bar (see [`above_bar`]).
    fn say(&self, line: &str) {
        above_bar(&self.bar, self.quiet, line);
    }

    /// A game of the run recorded (this worker's or another's): into the
    /// time left and the bar (the standings come with the next
    /// [`Event::Standings`]).
    fn count(&self) {
        if let Ok(mut eta) = self.eta.lock() {
            eta.game_finished();
        }
        if !self.league_bar {
            self.bar.inc(1);
        }
        self.update();
    }

    fn update(&self) {
        let Ok(table) = self.standings.lock() else {
            return;
        };
        let mut msg: Vec<String> = table
            .iter()
            .map(|s| format!("{} {}", s.name, s.points()))
            .collect();
        let failures: u64 = table.iter().map(|s| s.failure_count()).sum();
        if failures > 0 {
            msg.push(format!("failures {failures}"));
        }
        if let Some(s) = self.sprt.lock().ok().and_then(|s| *s) {
            msg.push(format!(
                "LLR {:.2} [{:.2}, {:.2}] {} pairs",
                s.status.llr, s.status.lower, s.status.upper, s.counted
            ));
        }
        if let Some(w) = self.workers.lock().ok().and_then(|w| w.clone()) {
            msg.push(w);
        }
        if let Some((settled, of)) = self.league.lock().ok().and_then(|l| *l) {
            msg.push(format!("neighbours settled {settled}/{of}"));
        }
        self.bar
            .set_message(printable(&msg.join("  ")).into_owned());
        if let Ok(eta) = self.eta.lock() {
            self.bar.set_prefix(match self.league_bar {
                true => eta.open_line(),
                false => eta.line(),
            });
        }
    }
}

/// Writes `line` above `bar`. On a stderr that is no terminal the bar is
/// hidden and would drop the line, so it is written as it is: a run logged
/// to a file or a pipe keeps what a terminal shows (not with `quiet`).
pub(crate) fn above_bar(bar: &ProgressBar, quiet: bool, line: &str) {
    match bar.is_hidden() {
        false => bar.println(line),
        true if !quiet => eprintln!("{line}"),
        true => {}
    }
}
