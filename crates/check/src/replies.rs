//! What the bot says, heard in one place, [`Session::next_message`], so the
//! rules that hold at all times are enforced everywhere: a `bestmove` must
//! answer the one outstanding `go` and be legal there; an unknown line or
//! an `info` that does not parse is a warning; any other line that does
//! not parse, an overlong line or the end of the output is a failure.
//!
//! Every line is heard through the process layer's [`Turn`], as the
//! arbiter hears it, and asked for as the arbiter asks: the position and
//! its `go` in one flush, an `isready` fence right after the answer, whose
//! `readyok` must come before the next `go`. A reply's time always runs to
//! the instant the reader task read the line, never to when the check got
//! round to it, so a check polled late charges nothing to the bot. A bot
//! that passes here is timed and held to its turn the same way in a game.

use std::time::{Duration, Instant};

use aboure_engine::Move;
use aboure_process::exchange::text;
use aboure_process::{Fault, Heard, MAX_LINE};
use aboure_protocol::{ArbiterMessage, BotMessage, GameSoFar, Go};

use crate::link::Link;
use crate::session::{ms, side_name, Answer, Failure, Session, Step};
use crate::transcript::Direction;

/// A line as the session heard it.
enum Line {
    /// A message for the check.
    Message(BotMessage),
    /// The `readyok` of the fence.
    Fence,
    /// A line the rules let pass with at most a warning.
    Skipped,
}

impl<L: Link> Session<'_, L> {
    /// The next protocol message before `deadline` and when it was read
    /// (`None` if none came). Unknown lines and `info` lines that do not
    /// parse become warnings and are skipped, as is the fence's `readyok`;
    /// `bestmove` is checked against the outstanding `go`.
    pub async fn next_message(&mut self, deadline: Instant) -> Step<Option<(Instant, BotMessage)>> {
        loop {
            match self.next_line(deadline).await? {
                None => return Ok(None),
                Some((at, Line::Message(message))) => return Ok(Some((at, message))),
                Some(_) => {}
            }
        }
    }

    /// The next line before `deadline`, heard and recorded.
    async fn next_line(&mut self, deadline: Instant) -> Step<Option<(Instant, Line)>> {
        let Some(bot) = self.bot.as_mut() else {
            return Err(Failure("the bot is not running".into()));
        };
        let Some(arrival) = bot.next(deadline).await else {
            return Ok(None);
        };
        let at = arrival.at;
        let line = match text(arrival) {
            Ok((_, line)) => line,
            Err(Fault::TooLong { len, start }) => {
                self.record(at, Direction::Received, format!("{start}..."));
                return Err(Failure(format!(
                    "a line of {len} bytes (the limit is {MAX_LINE}) starting `{start}`"
                )));
            }
            Err(fault) => {
                let what = match fault {
                    Fault::Closed(Some(e)) => format!("output could not be read ({e})"),
                    _ => "closed its output".to_owned(),
                };
                self.record(at, Direction::Event, what.clone());
                return Err(self.ended(&what).await);
            }
        };
        self.record(at, Direction::Received, line.clone());
        let heard = match self.turn.hear(at, &line) {
            Ok(Heard::Answer { mv, elapsed }) => {
                self.accept(mv, elapsed, at, &line)?;
                Line::Message(BotMessage::BestMove(mv))
            }
            Ok(Heard::Fence) => Line::Fence,
            Ok(Heard::Message(BotMessage::Unknown(unknown))) => {
                if !unknown.is_empty() {
                    self.warn(format!("unknown line `{unknown}` (ignored)"));
                }
                Line::Skipped
            }
            Ok(Heard::Message(BotMessage::Info(info))) if info.error_report().is_some() => {
                return Err(Failure(format!(
                    "the bot reported a fatal problem: {:?} (`info string error`; every \
                     position check-bot sends is legal)",
                    info.error_report().unwrap_or_default()
                )));
            }
            Ok(Heard::Message(message)) => Line::Message(message),
            Ok(Heard::Unparsed(e)) => match line.split_whitespace().next() {
                Some("info") => {
                    self.warn(format!("info line that does not parse: {e}"));
                    Line::Skipped
                }
                _ => return Err(Failure(format!("a line that does not parse: {e}"))),
            },
            Err(Fault::Unasked(_)) => {
                return Err(Failure(format!(
                    "`{}` was not asked for: no `go` is waiting for an answer (a second \
                         bestmove for one go, or one before any go)",
                    line.trim()
                )));
            }
            Err(_) => {
                return Err(Failure(match line.parse::<BotMessage>() {
                    Err(e) => format!("unreadable bestmove {e}"),
                    Ok(_) => format!("unreadable bestmove `{}`", line.trim()),
                }));
            }
        };
        Ok(Some((at, heard)))
    }

    /// The answer to the outstanding `go`, if it is legal in its position.
    fn accept(&mut self, mv: Move, elapsed: Duration, at: Instant, line: &str) -> Step<()> {
        let Some(position) = self.asking.take() else {
            return Err(Failure("the suite lost the position it asked about".into()));
        };
        let legal = position.legal_moves();
        if mv == Move::Pass || !legal.contains(mv) {
            return Err(Failure(format!(
                "illegal move `{}` in {} ({} to move); legal moves: {legal}",
                line.trim(),
                position,
                side_name(&position)
            )));
        }
        self.answered = Some(Answer { mv, elapsed, at });
        Ok(())
    }

    /// Waits until `deadline` for a message `wanted` accepts, and when it
    /// was read. `bestmove` and `info` are handled on the way; other
    /// messages are warnings.
    pub async fn wait_for(
        &mut self,
        what: &str,
        deadline: Instant,
        wanted: impl Fn(&BotMessage) -> bool,
    ) -> Step<(Instant, BotMessage)> {
        loop {
            let Some((at, message)) = self.next_message(deadline).await? else {
                return Err(self.timed_out(what));
            };
            match message {
                m if wanted(&m) => return Ok((at, m)),
                BotMessage::BestMove(_) | BotMessage::Info(_) => {}
                other => self.warn(format!("unexpected `{other}` while waiting for {what}")),
            }
        }
    }

    /// `isready`, and `readyok` within the time-out; the time from the
    /// flush to the reading of `readyok`.
    pub async fn ready(&mut self) -> Step<Duration> {
        let sent = self.send(&ArbiterMessage::IsReady).await?;
        let (at, _) = self
            .wait_for("readyok", sent + self.config.timeout, |m| {
                *m == BotMessage::ReadyOk
            })
            .await?;
        Ok(at.saturating_duration_since(sent))
    }

    /// Reads up to the `readyok` of the fence sent after the last answer,
    /// if it has not come yet (the arbiter does the same before the next
    /// `go`): a second answer sent before it is caught.
    pub async fn settle_fence(&mut self) -> Step<()> {
        let Some(sent) = self.turn.fenced() else {
            return Ok(());
        };
        let what = "readyok to the isready sent after the answer";
        let deadline = sent + self.config.timeout;
        while self.turn.fenced().is_some() {
            match self.next_line(deadline).await? {
                None => return Err(self.timed_out(what)),
                Some((_, Line::Message(BotMessage::Info(_)) | Line::Fence | Line::Skipped)) => {}
                Some((_, Line::Message(other))) => {
                    self.warn(format!("unexpected `{other}` while waiting for {what}"))
                }
            }
        }
        Ok(())
    }

    /// Sends the game and `go` in one flush, as the arbiter does; the
    /// answer is then outstanding.
    pub async fn go(&mut self, game: &GameSoFar, go: Go) -> Step<()> {
        let position = match game.replay() {
            Ok((position, _)) => position,
            Err(e) => return Err(Failure(format!("the suite built an illegal game: {e}"))),
        };
        self.settle_fence().await?;
        self.begin_exchange();
        let lines = [
            ArbiterMessage::Position(game.clone()).to_string(),
            ArbiterMessage::Go(go).to_string(),
        ];
        let sent = self.send_lines(&[&lines[0], &lines[1]]).await?;
        self.turn.ask(sent);
        self.asking = Some(position);
        self.answered = None;
        Ok(())
    }

    /// Waits for the outstanding `go`'s answer: a legal `bestmove` at most
    /// `limit` after the `go` (`limit_text` says where the limit comes from).
    pub async fn await_bestmove(&mut self, limit: Duration, limit_text: &str) -> Step<Answer> {
        let answer = match (self.answered.take(), self.turn.asked()) {
            (Some(answer), _) => answer,
            (None, Some(asked)) => self.await_answer(asked + limit, limit_text).await?,
            (None, None) => return Err(Failure("no `go` is outstanding".into())),
        };
        if answer.elapsed > limit {
            return Err(Failure(format!(
                "bestmove {} came after {}, over {limit_text}",
                answer.mv,
                ms(answer.elapsed)
            )));
        }
        Ok(answer)
    }

    /// Waits until `deadline` for the outstanding `go`'s legal `bestmove`.
    pub async fn await_answer(&mut self, deadline: Instant, limit_text: &str) -> Step<Answer> {
        if self.turn.asked().is_none() && self.answered.is_none() {
            return Err(Failure("no `go` is outstanding".into()));
        }
        loop {
            if let Some(answer) = self.answered.take() {
                return Ok(answer);
            }
            if self.next_message(deadline).await?.is_none() {
                let reason = format!("no bestmove within {limit_text}");
                self.event(reason.clone());
                return Err(Failure(reason));
            }
        }
    }

    /// The answer that already came to the outstanding `go`, if any (it is
    /// consumed).
    pub fn take_answer(&mut self) -> Option<Answer> {
        self.answered.take()
    }

    /// `go` and its answer within `limit`, then the fence, as in a game.
    pub async fn think(
        &mut self,
        game: &GameSoFar,
        go: Go,
        limit: Duration,
        limit_text: &str,
    ) -> Step<Answer> {
        self.go(game, go).await?;
        let answer = self.await_bestmove(limit, limit_text).await?;
        let fence = self.send(&ArbiterMessage::IsReady).await?;
        self.turn.fence(fence);
        Ok(answer)
    }

    /// Reads whatever the bot sends for `duration`, checking it as always.
    pub async fn listen(&mut self, duration: Duration) -> Step<()> {
        let deadline = Instant::now() + duration;
        while self.next_message(deadline).await?.is_some() {}
        Ok(())
    }
}

#[cfg(test)]
#[path = "replies_tests.rs"]
mod tests;
