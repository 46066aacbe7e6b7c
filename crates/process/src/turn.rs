//! Whose turn it is to answer: the one `go` waiting for its `bestmove`,
//! and the `isready` fence sent after an answer. Every line a bot sends is
//! heard through [`Turn::hear`], by the arbiter's exchange and by
//! `check-bot` alike, so both apply one rule (a `bestmove` answers the
//! outstanding `go` or is one nobody asked for) and both time an answer
//! the same way: from the flush of `go` to the instant the line was read
//! (stamped by the reader task), never to when the caller got round to it.
//!
//! It is plain state with no I/O, so the rule is tested without streams.

use std::time::{Duration, Instant};

use aboure_engine::Move;
use aboure_protocol::{BotMessage, ParseMessageError};

use crate::fault::Fault;

/// The conversation's state as far as answers go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    /// When the outstanding `go` was flushed.
    asked: Option<Instant>,
    /// When the fence's `isready` was flushed, until its `readyok` is heard.
    fence: Option<Instant>,
}

/// What a line means, once the turn rule has been applied.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// The answer to the outstanding `go`.
    Answer {
        /// The move.
        mv: Move,
        /// From the flush of `go` to the reading of the line.
        elapsed: Duration,
    },
    /// The `readyok` of the fence.
    Fence,
    /// Any other message (`readyok`s other than the fence's among them).
    Message(BotMessage),
    /// A line that does not parse and does not claim to be a `bestmove`.
    Unparsed(ParseMessageError),
}

impl Turn {
    /// A `go` was flushed at `flushed`: the next `bestmove` answers it.
    pub fn ask(&mut self, flushed: Instant) {
        self.asked = Some(flushed);
    }

    /// When the outstanding `go` was flushed, if one is outstanding.
    pub fn asked(&self) -> Option<Instant> {
        self.asked
    }

    /// An `isready` went out after an answer, at `flushed`: up to its
    /// `readyok`, any `bestmove` is one nobody asked for.
    pub fn fence(&mut self, flushed: Instant) {
        self.fence = Some(flushed);
    }

    /// When the fence's `isready` was flushed, if its `readyok` is unread.
    pub fn fenced(&self) -> Option<Instant> {
        self.fence
    }

    /// Hears one line, read at `at`. A `bestmove` before the fence's
    /// `readyok` is one nobody asked for even when a `go` is outstanding:
    /// the `isready` went out first (with the next `go`, in a series), and
    /// a bot answers it before it reads that `go`.
    pub fn hear(&mut self, at: Instant, line: &str) -> Result<Heard, Fault> {
        match line.parse::<BotMessage>() {
            Ok(BotMessage::BestMove(_)) if self.fence.is_some() => {
                Err(Fault::Unasked(line.to_owned()))
            }
            Ok(BotMessage::BestMove(mv)) => match self.asked.take() {
                Some(asked) => Ok(Heard::Answer {
                    mv,
                    elapsed: at.saturating_duration_since(asked),
                }),
                None => Err(Fault::Unasked(line.to_owned())),
            },
            Ok(BotMessage::ReadyOk) if self.fence.take().is_some() => Ok(Heard::Fence),
            Ok(message) => Ok(Heard::Message(message)),
            Err(_) if is_bestmove(line) && self.asked.is_none() => {
                Err(Fault::Unasked(line.to_owned()))
            }
            Err(_) if is_bestmove(line) => Err(Fault::Unreadable(line.to_owned())),
            Err(e) => Ok(Heard::Unparsed(e)),
        }
    }
}

/// True when the line claims to be a `bestmove`, readable or not.
fn is_bestmove(line: &str) -> bool {
    line.trim_start().starts_with("bestmove")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_timed_from_the_go_to_its_reading() {
        let mut turn = Turn::default();
        let flushed = Instant::now();
        turn.ask(flushed);
        let read = flushed + Duration::from_millis(7);
        assert_eq!(
            turn.hear(read, "bestmove 3"),
            Ok(Heard::Answer {
                mv: "3".parse().unwrap(),
                elapsed: Duration::from_millis(7),
            })
        );
        assert_eq!(turn.asked(), None);
    }

    #[test]
    fn a_bestmove_without_a_go_is_unasked_readable_or_not() {
        let mut turn = Turn::default();
        let now = Instant::now();
        for line in ["bestmove 3", "bestmove seven"] {
            assert_eq!(turn.hear(now, line), Err(Fault::Unasked(line.to_owned())));
        }
        turn.ask(now);
        assert_eq!(
            turn.hear(now, "bestmove seven"),
            Err(Fault::Unreadable("bestmove seven".to_owned()))
        );
    }

    #[test]
    fn a_bestmove_before_the_fence_is_unasked_even_with_a_go_out() {
        let mut turn = Turn::default();
        let now = Instant::now();
        turn.fence(now);
        turn.ask(now);
        assert_eq!(
            turn.hear(now, "bestmove 4"),
            Err(Fault::Unasked("bestmove 4".to_owned()))
        );
        assert_eq!(turn.hear(now, "readyok"), Ok(Heard::Fence));
        assert!(matches!(
            turn.hear(now, "bestmove 2"),
            Ok(Heard::Answer { .. })
        ));
    }

    #[test]
    fn the_fence_takes_the_first_readyok_only() {
        let mut turn = Turn::default();
        let now = Instant::now();
        turn.fence(now);
        assert_eq!(turn.fenced(), Some(now));
        assert_eq!(turn.hear(now, "readyok"), Ok(Heard::Fence));
        assert_eq!(
            turn.hear(now, "readyok"),
            Ok(Heard::Message(BotMessage::ReadyOk))
        );
        assert!(matches!(
            turn.hear(now, "info depth many"),
            Ok(Heard::Unparsed(_))
        ));
    }
}
