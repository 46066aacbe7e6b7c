//! What a run says of slow start-ups. A bot that takes seconds to finish
//! its handshake passes every game and loses none on time, yet every game
//! that starts it afresh waits for it: a short tournament can take ten
//! times as long with no failure to show why. So the first slow start of
//! each bot is said as it happens, and the end of the run counts them.

use std::collections::BTreeMap;
use std::time::Duration;

use aboure_process::SLOW_STARTUP;

/// One bot's start-ups in this worker's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    starts: u32,
    slow: u32,
    /// The time the slow ones took together.
    slow_total: Duration,
    slowest: Duration,
}

/// Every bot's start-ups, by name.
#[derive(Debug, Default)]
pub(crate) struct Startups {
    bots: BTreeMap<String, Tally>,
}

impl Startups {
    /// Counts a start of `bot` that took `took`; the line to print now if
    /// it is the bot's first slow one.
    pub(crate) fn record(&mut self, bot: &str, took: Duration) -> Option<String> {
        let tally = self.bots.entry(bot.to_owned()).or_default();
        tally.starts += 1;
        tally.slowest = tally.slowest.max(took);
        if took <= SLOW_STARTUP {
            return None;
        }
        tally.slow += 1;
        tally.slow_total += took;
        (tally.slow == 1).then(|| {
            format!(
                "{bot}: its start-up took {} ms (over {} ms), and every game that starts it \
                 afresh waits for it; `aboure check-bot` shows its handshake",
                took.as_millis(),
                SLOW_STARTUP.as_millis()
            )
        })
    }

    /// The end of the run's word on slow start-ups: empty when there were
    /// none.
    pub(crate) fn summary(&self) -> String {
        let slow: Vec<String> = self
            .bots
            .iter()
            .filter(|(_, t)| t.slow > 0)
            .map(|(bot, t)| {
                format!(
                    "  {bot}: {} of {} starts over {} ms, the slowest {} ms, {:.1} s in all\n",
                    t.slow,
                    t.starts,
                    SLOW_STARTUP.as_millis(),
                    t.slowest.as_millis(),
                    t.slow_total.as_secs_f64()
                )
            })
            .collect();
        match slow.is_empty() {
            true => String::new(),
            false => format!(
                "\nSlow start-ups (every game that starts a bot afresh waits for its handshake; \
                 `restart = \"never\"` starts it once):\n{}",
                slow.concat()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_slow_start_ups_are_said_the_first_of_each_bot_at_once() {
        let mut startups = Startups::default();
        let ms = Duration::from_millis;
        assert_eq!(startups.record("quick", ms(40)), None);
        assert_eq!(startups.record("quick", ms(1000)), None);
        let first = startups.record("slow", ms(1500)).unwrap();
        assert!(first.starts_with("slow: its start-up took 1500 ms (over 1000 ms)"));
        assert_eq!(startups.record("slow", ms(900)), None);
        assert_eq!(startups.record("slow", ms(2500)), None);
        assert_eq!(
            startups.summary(),
            "\nSlow start-ups (every game that starts a bot afresh waits for its handshake; \
             `restart = \"never\"` starts it once):\n  \
             slow: 2 of 3 starts over 1000 ms, the slowest 2500 ms, 4.0 s in all\n"
        );
        assert_eq!(Startups::default().summary(), "");
    }
}
