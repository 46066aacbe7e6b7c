//! How the arbiter's and the fairness bench's figures are printed: each
//! next to its goal or its baseline, one per line, as the README quotes
//! them.

use std::fmt;
use std::time::Duration;

use crate::arbiter::BenchReport;
use crate::fairness::{FairnessReport, HogPlace};

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self;
        writeln!(
            f,
            "pipe round trip (median)          {:8.1} us",
            us(r.pipe_round_trip)
        )?;
        writeln!(
            f,
            "arbiter per move (in games, 1 game) {:6.1} us  ({} moves)",
            us(r.per_move),
            r.moves
        )?;
        writeln!(
            f,
            "arbiter per move, sandbox off      {:8.1} us",
            us(r.per_move_unsandboxed)
        )?;
        writeln!(
            f,
            "arbiter per move, never held       {:8.1} us  (ponder = true)",
            us(r.per_move_unheld)
        )?;
        let [held, off, unheld] = r.switches_per_move;
        writeln!(
            f,
            "context switches per move          {held:8.1}  (sandbox off {off:.1}, never held {unheld:.1})"
        )?;
        writeln!(
            f,
            "ratio per move / round trip        {:8.2} (goal: within 3)",
            r.per_move.as_secs_f64() / r.pipe_round_trip.as_secs_f64()
        )?;
        match (r.overhead_median, r.overhead_p99) {
            (Some(m), Some(p)) => {
                writeln!(
                    f,
                    "charged - bot's own time, median   {:8.1} us (2 games at once; goal under 1000)",
                    us(m)
                )?;
                writeln!(f, "charged - bot's own time, p99      {:8.1} us", us(p))?;
            }
            _ => writeln!(f, "charged - bot's own time: no self-timed moves")?,
        }
        if let Some(rss) = r.rss_64_games {
            writeln!(
                f,
                "peak RSS with 64 games at once     {:8.1} MB (goal under 100)",
                rss as f64 / 1e6
            )?;
        }
        writeln!(
            f,
            "bot process life, plain (median)   {:8.2} ms  (start, handshake, quit, reaped)",
            ms(r.startup_plain)
        )?;
        writeln!(
            f,
            "bot process life, sandboxed        {:8.2} ms  (+{:.2} ms, {:.2}x; scratch and cgroups made and removed)",
            ms(r.startup_sandboxed),
            ms(r.startup_sandboxed.saturating_sub(r.startup_plain)),
            r.startup_sandboxed.as_secs_f64() / r.startup_plain.as_secs_f64()
        )?;
        write!(f, "{}", r.sandbox)
    }
}

impl fmt::Display for FairnessReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "normal bot: {:.0} ms of CPU a move, movetime {:.0} ms + margin {:.0} ms; \
             hog: 4 threads and a child process burning CPU all the time",
            ms(self.work),
            ms(self.movetime),
            ms(self.margin)
        )?;
        writeln!(
            f,
            "hog          fairness  moves  median ms  p90 ms   max ms  games  time forfeits"
        )?;
        for r in &self.rows {
            let hog = match r.hog {
                HogPlace::Nowhere => "none",
                HogPlace::Opponent => "opponent",
                HogPlace::Neighbour => "other game",
            };
            let fair = if r.fair { "on" } else { "off" };
            writeln!(
                f,
                "{hog:<12} {fair:<9} {:>5}  {:>9.1}  {:>6.1}  {:>7.1}  {:>5}  {:>13}",
                r.moves,
                ms(r.median),
                ms(r.p90),
                ms(r.max),
                r.games,
                r.forfeits
            )?;
        }
        write!(
            f,
            "fairness off: the hog ponders (never held) and cpu = \"unlimited\""
        )
    }
}
