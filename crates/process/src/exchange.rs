//! The arbiter's side of the protocol over any pair of byte streams: the
//! handshake, the `isready` fence, `go` and its `bestmove`, and the rule
//! that a bot may not answer what it was not asked. It knows nothing of
//! processes, so it is tested on in-memory streams; what a fault means for
//! a real process (its exit status, its last words) is the process
//! module's business.

use std::time::{Duration, Instant};

use aboure_engine::Move;
use aboure_protocol::{ArbiterMessage, BotMessage, OptionSpec, PROTOCOL_VERSION};
use aboure_records::InfoRecord;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

pub use crate::fault::Fault;
use crate::lines::{Arrival, Lines, Output};
use crate::logs::BotLogs;
use crate::turn::{Heard, Turn};
use std::sync::Arc;

/// Options a bot may declare in its handshake.
pub const MAX_OPTIONS: usize = 128;

/// Bytes a bot may send from `aboure 1` to its `aboureok` (its names and
/// option declarations): with [`MAX_OPTIONS`] and the protocol's
/// [`aboure_protocol::MAX_CHOICES`], a bound on what the arbiter keeps of
/// each bot.
pub const MAX_HANDSHAKE: usize = 256 * 1024;

/// Bytes a bot may send for one move: from the `go` to the next `go` (its
/// `info`, its `bestmove`, and what it says while the opponent thinks).
/// Reading and hearing each line costs the arbiter CPU time that the other
/// games and the opponent share, so a bot that prints without end would
/// take it from them for as long as its clock runs; past this bound it
/// loses at once, as judges stop a program at its output limit. A bot that
/// reports each iteration of its search sends a few kilobytes a move; a
/// 10,000-move `pv` with a 30 KB `string` at every move, 60 KB.
pub const MAX_MOVE_OUTPUT: usize = 4 * 1024 * 1024;

/// A bot's answer to `go`.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The move as the bot wrote it (already parsed as a pit number).
    pub mv: Move,
    /// Time from the `go` being flushed to the `bestmove` being read.
    pub elapsed: Duration,
    /// The bot's `info` for this move, merged (latest value of each field).
    pub info: InfoRecord,
}

/// The two streams of a conversation with a bot: what is written is
/// flushed and logged, what is read comes as bounded lines stamped with
/// the instant they were read.
#[derive(Debug)]
pub struct Channel<W> {
    writer: Option<W>,
    lines: Lines,
    logs: Arc<BotLogs>,
    pid: u32,
    /// The outstanding `go` and the fence (see [`Channel::check_unasked`]).
    turn: Turn,
    /// The bot's latest report of a fatal problem (`info string error`).
    reported: Option<String>,
    /// The options the bot declared before `aboureok`.
    declared: Vec<OptionSpec>,
    /// The last answer's fence is still to be sent (see
    /// [`Channel::exchange`] with `defer`).
    deferred: bool,
    /// Bytes of output since the last `go` (see [`MAX_MOVE_OUTPUT`]).
    sent: usize,
}

impl<W: AsyncWrite + Unpin> Channel<W> {
    /// A conversation that writes to `writer` and reads `reader` (on a task
    /// of its own); `pid` labels the protocol log's lines.
    pub fn new<R>(writer: W, reader: R, logs: Arc<BotLogs>, pid: u32) -> Channel<W>
    where
        R: AsyncRead + Unpin + Send + 'static,
    {
        Channel {
            writer: Some(writer),
            lines: Lines::spawn(reader),
            logs,
            pid,
            turn: Turn::default(),
            reported: None,
            declared: Vec::new(),
            deferred: false,
            sent: 0,
        }
    }

    /// Writes the lines, each with a newline, and flushes by `deadline`;
    /// returns the instant after the flush. A bot that does not read its
    /// input (and shrank its pipe) would otherwise hold the arbiter here
    /// for ever: past the deadline the write is abandoned with a
    /// `TimedOut` error and the input closed, as its state is unknown.
    pub async fn write_lines(
        &mut self,
        lines: &[&str],
        deadline: Instant,
    ) -> std::io::Result<Instant> {
        let Some(writer) = self.writer.as_mut() else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "standard input already closed",
            ));
        };
        let mut bytes = Vec::new();
        let now = Instant::now();
        for line in lines {
            self.logs.protocol(self.pid, ">", line, now);
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        let write = async {
            writer.write_all(&bytes).await?;
            writer.flush().await
        };
        match tokio::time::timeout_at(deadline.into(), write).await {
            Ok(written) => written.map(|()| Instant::now()),
            Err(_) => {
                self.writer = None;
                Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("{} bytes unread after {:.0?}", bytes.len(), now.elapsed()),
                ))
            }
        }
    }

    /// Closes the writing side (end of input for the bot).
    pub fn close_input(&mut self) {
        self.writer = None;
    }

    /// Writes the messages by `deadline`; `what` names the step for a bot
    /// that does not read them in time.
    async fn send(
        &mut self,
        messages: &[&ArbiterMessage],
        deadline: Instant,
        what: &'static str,
    ) -> Result<Instant, Fault> {
        let lines: Vec<String> = messages.iter().map(ToString::to_string).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let start = Instant::now();
        self.write_lines(&lines, deadline)
            .await
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::TimedOut => Fault::Unread {
                    what,
                    waited: start.elapsed(),
                },
                _ => Fault::WriteFailed(e.to_string()),
            })
    }

    /// The next piece of output by `deadline` (`None` if none came).
    pub async fn next(&mut self, deadline: Instant) -> Option<Arrival> {
        let arrival = self.lines.next(deadline).await?;
        self.log_arrival(&arrival);
        Some(arrival)
    }

    fn log_arrival(&self, arrival: &Arrival) {
        if let Output::Line(text) = &arrival.output {
            self.logs.protocol(self.pid, "<", text, arrival.at);
        }
    }

    /// Counts a line, and the `blank` bytes of blank lines read before it,
    /// against [`MAX_MOVE_OUTPUT`]: the fault once past it.
    fn count(&mut self, line: &str, blank: usize) -> Result<(), Fault> {
        self.sent += blank + line.len() + 1;
        if self.sent > MAX_MOVE_OUTPUT {
            return Err(Fault::TooMuch(format!(
                "more than {MAX_MOVE_OUTPUT} bytes of output for one move"
            )));
        }
        Ok(())
    }

    /// The next line of text by `deadline`, or the fault.
    async fn next_text(&mut self, deadline: Instant) -> Result<Option<(Instant, String)>, Fault> {
        match self.next(deadline).await {
            None => Ok(None),
            Some(arrival) => {
                let blank = arrival.blank;
                let (at, line) = text(arrival)?;
                self.count(&line, blank)?;
                if let Some(report) = error_report(&line) {
                    self.reported = Some(report);
                }
                Ok(Some((at, line)))
            }
        }
    }

    /// The bot's latest report of a fatal problem (`info string error
    /// MESSAGE`), if it made one.
    pub fn reported_error(&self) -> Option<&str> {
        self.reported.as_deref()
    }

    /// The options the bot declared in its handshake (`option name ...`
    /// lines before `aboureok`), in the order it declared them.
    pub fn declared(&self) -> &[OptionSpec] {
        &self.declared
    }

    /// Waits until `deadline` for what `wanted` accepts; a `bestmove` on
    /// the way is one that was not asked for (no `go` is outstanding).
    async fn wait_for(
        &mut self,
        deadline: Instant,
        limit: Duration,
        what: &'static str,
        mut wanted: impl FnMut(&Heard) -> bool,
    ) -> Result<(), Fault> {
        let start = deadline - limit;
        loop {
            let Some((at, line)) = self.next_text(deadline).await? else {
                return Err(Fault::NoReply {
                    what,
                    limit,
                    waited: start.elapsed(),
                });
            };
            if wanted(&self.turn.hear(at, &line)?) {
                return Ok(());
            }
            tracing::trace!(line = %line.escape_debug(), "ignored while waiting for {what}");
        }
    }

    /// `aboure 1` ... `aboureok`, the options, `isready` ... `readyok`, all
    /// within `limit`.
    pub(crate) async fn handshake(
        &mut self,
        options: &[(String, String)],
        limit: Duration,
    ) -> Result<(), Fault> {
        let deadline = Instant::now() + limit;
        let aboure = ArbiterMessage::Aboure {
            version: PROTOCOL_VERSION,
        };
        self.send(&[&aboure], deadline, "aboure").await?;
        self.declared = self.declarations(deadline, limit).await?;
        let options: Vec<ArbiterMessage> = options
            .iter()
            .map(|(name, value)| ArbiterMessage::SetOption {
                name: name.clone(),
                value: value.clone(),
            })
            .collect();
        let mut messages: Vec<&ArbiterMessage> = options.iter().collect();
        messages.push(&ArbiterMessage::IsReady);
        self.send(&messages, deadline, "setoption").await?;
        self.wait_for(deadline, limit, "readyok", ready).await
    }

    /// The lines up to `aboureok` by `deadline`, and the options declared
    /// in them: at most [`MAX_OPTIONS`] in at most [`MAX_HANDSHAKE`] bytes,
    /// as everything declared is kept for the whole run.
    async fn declarations(
        &mut self,
        deadline: Instant,
        limit: Duration,
    ) -> Result<Vec<OptionSpec>, Fault> {
        let mut declared = Vec::new();
        let mut bytes = 0;
        loop {
            let Some((at, line)) = self.next_text(deadline).await? else {
                return Err(Fault::NoReply {
                    what: "aboureok",
                    limit,
                    waited: limit
                        .saturating_sub(deadline.saturating_duration_since(Instant::now())),
                });
            };
            bytes += line.len() + 1;
            if bytes > MAX_HANDSHAKE {
                return Err(Fault::TooMuch(format!(
                    "a handshake of more than {MAX_HANDSHAKE} bytes"
                )));
            }
            match self.turn.hear(at, &line)? {
                Heard::Message(BotMessage::Option(_)) if declared.len() == MAX_OPTIONS => {
                    return Err(Fault::TooMuch(format!("more than {MAX_OPTIONS} options")));
                }
                Heard::Message(BotMessage::Option(spec)) => declared.push(spec),
                Heard::Message(BotMessage::AboureOk) => return Ok(declared),
                _ => {
                    tracing::trace!(line = %line.escape_debug(), "ignored while waiting for aboureok")
                }
            }
        }
    }

    /// `newgame`, then `isready` ... `readyok` within `limit`.
    pub(crate) async fn new_game(
        &mut self,
        options: &[(String, String)],
        limit: Duration,
    ) -> Result<(), Fault> {
        self.check_unasked(limit).await?;
        let deadline = Instant::now() + limit;
        // Options first (the protocol allows them between games), then the
        // new game, in one write and one round trip.
        let options: Vec<ArbiterMessage> = options
            .iter()
            .map(|(name, value)| ArbiterMessage::SetOption {
                name: name.clone(),
                value: value.clone(),
            })
            .collect();
        let mut messages: Vec<&ArbiterMessage> = options.iter().collect();
        messages.extend([&ArbiterMessage::NewGame, &ArbiterMessage::IsReady]);
        self.send(&messages, deadline, "newgame").await?;
        self.wait_for(deadline, limit, "readyok", ready).await
    }

    /// Makes sure the bot sent no `bestmove` it was not asked for (answered
    /// twice, or early) before it is asked again. Right after each answer
    /// an `isready` goes out (see [`Channel::exchange`]); here the lines up to
    /// its `readyok` are read (within `limit`), so a second answer sent
    /// after the first always lands before it and is caught, however the
    /// lines are timed. The `readyok` has normally arrived long before
    /// (while the opponent thought), so this costs no waiting. Then lines
    /// already read are looked at too. Other lines are dropped.
    pub(crate) async fn check_unasked(&mut self, limit: Duration) -> Result<(), Fault> {
        if std::mem::take(&mut self.deferred) {
            let deadline = Instant::now() + limit;
            let isready = [&ArbiterMessage::IsReady];
            let flushed = self.send(&isready, deadline, "isready").await?;
            self.turn.fence(flushed);
        }
        if self.turn.fenced().is_some() {
            let deadline = Instant::now() + limit;
            self.wait_for(deadline, limit, "readyok", |h| *h == Heard::Fence)
                .await?;
        }
        while let Some(arrival) = self.lines.try_next() {
            self.log_arrival(&arrival);
            let blank = arrival.blank;
            let (at, line) = text(arrival)?;
            self.count(&line, blank)?;
            self.turn.hear(at, &line)?;
        }
        Ok(())
    }

    /// Sends the position and `go`, and waits at most `limit` for the
    /// `bestmove`, timing from just after `go` is flushed to when the
    /// answer was read. The answer's fence (`isready`) goes out right after
    /// it, so its `readyok` comes while the opponent thinks; or, with
    /// `defer`, for positions asked back to back (nobody else thinks in
    /// between), with the next exchange's position and `go` in one write,
    /// so no round trip waits for a `readyok` between two positions. A
    /// second answer still lands before that `readyok` and is caught; the
    /// last deferred fence is sent by [`Channel::check_unasked`].
    pub(crate) async fn exchange(
        &mut self,
        position: &ArbiterMessage,
        go: &ArbiterMessage,
        limit: Duration,
        defer: bool,
    ) -> Result<Answer, Fault> {
        // The bot's time runs from the flush, so the write gets a limit of
        // its own: the same again.
        let written = Instant::now() + limit;
        let started = if std::mem::take(&mut self.deferred) {
            let messages = [&ArbiterMessage::IsReady, position, go];
            let flushed = self.send(&messages, written, "go").await?;
            self.turn.fence(flushed);
            flushed
        } else {
            self.send(&[position, go], written, "go").await?
        };
        self.turn.ask(started);
        self.sent = 0;
        let deadline = started + limit;
        let mut info = InfoRecord::default();
        loop {
            let Some((at, line)) = self.next_text(deadline).await? else {
                return Err(Fault::NoReply {
                    what: "bestmove",
                    limit,
                    waited: started.elapsed(),
                });
            };
            match self.turn.hear(at, &line)? {
                Heard::Answer { mv, elapsed } => {
                    if defer {
                        self.deferred = true;
                    } else if let Ok(flushed) = self
                        .send(&[&ArbiterMessage::IsReady], at + limit, "isready")
                        .await
                    {
                        // A write error is left for the next exchange to
                        // report: the answer itself stands.
                        self.turn.fence(flushed);
                    }
                    return Ok(Answer { mv, elapsed, info });
                }
                Heard::Message(BotMessage::Info(i)) => merge(&mut info, i),
                _ => tracing::trace!(line = %line.escape_debug(), "ignored"),
            }
        }
    }
}

/// The message of an `info string error MESSAGE` line.
pub fn error_report(line: &str) -> Option<String> {
    if !line.contains("error") {
        return None;
    }
    match line.parse::<BotMessage>() {
        Ok(BotMessage::Info(info)) => info.error_report(),
        _ => None,
    }
}

/// The `readyok` of an `isready` sent in the exchange (not the fence's).
fn ready(heard: &Heard) -> bool {
    *heard == Heard::Message(BotMessage::ReadyOk)
}

/// A line of text and when it was read, or the fault its absence means.
pub fn text(arrival: Arrival) -> Result<(Instant, String), Fault> {
    match arrival.output {
        Output::Line(text) => Ok((arrival.at, text)),
        Output::TooLong { len, start } => Err(Fault::TooLong { len, start }),
        Output::Closed(error) => Err(Fault::Closed(error)),
    }
}

/// Keeps the latest value of each `info` field.
fn merge(info: &mut InfoRecord, i: aboure_protocol::SearchInfo) {
    if let Some(d) = i.depth {
        info.depth = Some(d);
    }
    if let Some(s) = i.score {
        info.score = Some(s);
    }
    if let Some(n) = i.nodes {
        info.nodes = Some(n);
    }
    if let Some(t) = i.time {
        info.time_ms = Some((t.as_micros() as f64) / 1000.0);
    }
    if !i.pv.is_empty() {
        info.keep_pv(&i.pv);
    }
    if let Some(s) = i.string {
        info.keep_string(s);
    }
}

#[cfg(test)]
#[path = "exchange_tests.rs"]
mod tests;
