//! What was said during one check, line by line, with the time of each line
//! relative to the start of the check. A failure is only useful to a bot
//! author when it shows the exact exchange and when each line came: "no
//! bestmove within 250 ms" means little without the `go` it answers.

use std::fmt;
use std::time::Duration;

/// Who produced an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// A line written to the bot's standard input.
    Sent,
    /// A line read from the bot's standard output.
    Received,
    /// Something the suite observed that is not a line: a time-out, the end
    /// of the output, an exit status.
    Event,
}

/// One line of a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Time since the start of the check.
    pub at: Duration,
    /// Sent, received or observed.
    pub direction: Direction,
    /// The line, without its newline.
    pub text: String,
}

impl fmt::Display for Entry {
    /// `+0.012s > aboure 1`, `+0.013s < aboureok`, `+5.001s ! no aboureok ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let arrow = match self.direction {
            Direction::Sent => '>',
            Direction::Received => '<',
            Direction::Event => '!',
        };
        write!(
            f,
            "+{:.3}s {arrow} {}",
            self.at.as_secs_f64(),
            self.text.escape_debug()
        )
    }
}

/// The lines of one check, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    entries: Vec<Entry>,
}

impl Transcript {
    /// Appends an entry.
    pub fn push(&mut self, at: Duration, direction: Direction, text: impl Into<String>) {
        self.entries.push(Entry {
            at,
            direction,
            text: text.into(),
        });
    }

    /// All entries, oldest first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of entries so far.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True before anything was said.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_show_time_direction_and_escaped_text() {
        let mut t = Transcript::default();
        t.push(Duration::from_millis(12), Direction::Sent, "aboure 1");
        t.push(
            Duration::from_micros(1_500_400),
            Direction::Received,
            "id\tname x",
        );
        t.push(Duration::from_secs(5), Direction::Event, "no aboureok");
        let lines: Vec<String> = t.entries().iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "+0.012s > aboure 1",
                "+1.500s < id\\tname x",
                "+5.000s ! no aboureok"
            ]
        );
    }
}
