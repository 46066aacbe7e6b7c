//! One check's conversation with one bot process: the steps every check is
//! made of (start and handshake, ping, ask for a move, wait, quit), each
//! recorded in the transcript and each turning a misbehaviour into a
//! [`Failure`] that says what was expected and what came instead.
//!
//! Every line the bot sends passes through one place, [`Session::next_message`],
//! so the rules that hold at all times are enforced everywhere: a `bestmove`
//! must answer the one outstanding `go` and be legal there; an unknown line
//! or an `info` that does not parse is a warning; any other line that does
//! not parse, an overlong line or the end of the output is a failure.

use std::process::ExitStatus;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aboure_engine::{Move, Position};
use aboure_protocol::{ArbiterMessage, BotMessage, GameSoFar, Go};

use crate::handshake::Identity;
use crate::outcome::{CheckOutcome, Status};
use crate::transcript::{Direction, Transcript};
use crate::Config;
use aboure_process::{describe, BotLogs, BotProcess, Launch, Output, Plain, Program, MAX_LINE};

/// How long to wait for an exit status after the bot's output ends.
const EXIT_AFTER_CLOSE: Duration = Duration::from_millis(500);

/// Why a check failed, in words for the bot's author.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure(pub String);

/// The result of a check step.
pub type Step<T> = Result<T, Failure>;

/// A legal `bestmove` and how long it took.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    /// The move.
    pub mv: Move,
    /// From the flush of `go` to the arrival of the `bestmove` line.
    pub elapsed: Duration,
    /// When the `bestmove` line arrived.
    pub at: Instant,
}

/// The `go` waiting for its `bestmove`.
#[derive(Clone, Copy, Debug)]
struct Pending {
    position: Position,
    sent_at: Instant,
}

/// A bot that finished a check idle and in good order, with what it
/// announced, ready for the next check.
pub struct Spare {
    bot: BotProcess,
    identity: Identity,
}

/// A check in progress.
pub struct Session<'c> {
    config: &'c Config,
    origin: Instant,
    bot: Option<BotProcess>,
    identity: Option<Identity>,
    spare: Option<Spare>,
    transcript: Transcript,
    exchange: usize,
    warnings: Vec<String>,
    headline: Option<String>,
    details: Vec<String>,
    pending: Option<Pending>,
    answered: Option<Answer>,
}

/// Whole milliseconds, for messages.
pub fn ms(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}

impl<'c> Session<'c> {
    /// A session that has not started the bot yet; `spare` is a bot left
    /// by the previous check that [`Session::start`] may take over.
    pub fn new(config: &'c Config, spare: Option<Spare>) -> Session<'c> {
        Session {
            config,
            origin: Instant::now(),
            bot: None,
            identity: None,
            spare,
            transcript: Transcript::default(),
            exchange: 0,
            warnings: Vec::new(),
            headline: None,
            details: Vec::new(),
            pending: None,
            answered: None,
        }
    }

    /// The suite's limits.
    pub fn config(&self) -> &'c Config {
        self.config
    }

    /// Marks the start of a new exchange: a failure shows the transcript
    /// from the latest mark on.
    pub fn begin_exchange(&mut self) {
        self.exchange = self.transcript.len();
    }

    /// Records something observed that is not a line.
    pub fn event(&mut self, text: impl Into<String>) {
        self.record(Instant::now(), Direction::Event, text);
    }

    fn record(&mut self, at: Instant, direction: Direction, text: impl Into<String>) {
        let at = at.saturating_duration_since(self.origin);
        self.transcript.push(at, direction, text);
    }

    /// Adds a warning (once: repeats are dropped).
    pub fn warn(&mut self, text: impl Into<String>) {
        let text = text.into();
        if !self.warnings.contains(&text) {
            self.warnings.push(text);
        }
    }

    /// Sets the observation shown next to the check's status.
    pub fn headline(&mut self, text: impl Into<String>) {
        self.headline = Some(text.into());
    }

    /// Adds an observation shown when the check passes.
    pub fn detail(&mut self, text: impl Into<String>) {
        self.details.push(text.into());
    }

    /// Starts the bot.
    pub fn spawn(&mut self) -> Step<()> {
        let config = self.config;
        let launch = Launch {
            name: config.command_line(),
            command: Program {
                program: config.program.clone().into(),
                args: config.args.clone(),
                workdir: None,
                env: Default::default(),
            },
            launcher: match &config.launcher {
                Some(launcher) => launcher.0.clone(),
                None => Arc::new(Plain),
            },
            options: Vec::new(),
            startup_timeout: config.timeout,
            limits: config.limits,
            logs: Arc::new(BotLogs::discard()),
        };
        match BotProcess::spawn(&launch) {
            Ok(bot) => {
                self.bot = Some(bot);
                self.event(format!("started {}", config.command_line()));
                Ok(())
            }
            Err(e) => {
                let reason = format!("cannot start `{}`: {e}", config.command_line());
                self.event(reason.clone());
                Err(Failure(reason))
            }
        }
    }

    /// A bot past its handshake: the previous check's bot if it left one
    /// (pinged first), or a new one.
    pub async fn start(&mut self) -> Step<Identity> {
        if let Some(Spare { bot, identity }) = self.spare.take() {
            self.bot = Some(bot);
            self.event("the bot of the previous check, which passed and is idle");
            self.begin_exchange();
            self.ready().await?;
            self.identity = Some(identity.clone());
            return Ok(identity);
        }
        self.fresh_start().await
    }

    /// A new bot, past its handshake.
    pub async fn fresh_start(&mut self) -> Step<Identity> {
        self.spare = None;
        self.spawn()?;
        let identity = self.handshake().await?;
        self.identity = Some(identity.clone());
        Ok(identity)
    }

    /// Writes one message and flushes it; returns the instant after the flush.
    pub async fn send(&mut self, message: &ArbiterMessage) -> Step<Instant> {
        self.send_text(&message.to_string()).await
    }

    /// Writes one line of text (which need not be a valid message).
    pub async fn send_text(&mut self, line: &str) -> Step<Instant> {
        let Some(bot) = self.bot.as_mut() else {
            return Err(Failure("the bot is not running".into()));
        };
        let written = bot.write_line(line).await;
        match written {
            Ok(at) => {
                self.record(at, Direction::Sent, line);
                Ok(at)
            }
            Err(e) => {
                self.event(format!("could not write `{line}`: {e}"));
                Err(self.ended(&format!("closed its input ({e})")).await)
            }
        }
    }

    /// Closes the bot's standard input.
    pub fn close_input(&mut self) {
        if let Some(bot) = self.bot.as_mut() {
            bot.close_input();
        }
        self.event("closed the bot's standard input");
    }

    /// The failure for a bot whose pipes are gone, with its exit status.
    async fn ended(&mut self, what: &str) -> Failure {
        let status = match self.bot.as_mut() {
            Some(bot) => bot.wait_exit(EXIT_AFTER_CLOSE).await,
            None => None,
        };
        let exit = match status {
            Some(exit) => exit,
            None => {
                self.event("the bot did not exit");
                return Failure(format!("the bot {what} and did not exit"));
            }
        };
        if let Some(why) = self.config.limits.explain(exit) {
            self.event(why.clone());
            return Failure(format!("the bot {what}: {why}"));
        }
        let how = describe(exit.status);
        let how = match exit.status.code() {
            Some(_) => how,
            None => format!("was {how}"),
        };
        self.event(format!("the bot {how}"));
        Failure(format!("the bot {what} and {how}"))
    }

    pub(crate) fn timed_out(&mut self, what: &str) -> Failure {
        let reason = format!("no {what} within {}", ms(self.config.timeout));
        self.event(reason.clone());
        Failure(reason)
    }

    /// The next protocol message before `deadline` (`None` if none came).
    /// Unknown lines and `info` lines that do not parse become warnings and
    /// are skipped; `bestmove` is checked against the outstanding `go`.
    pub async fn next_message(&mut self, deadline: Instant) -> Step<Option<BotMessage>> {
        loop {
            let Some(bot) = self.bot.as_mut() else {
                return Err(Failure("the bot is not running".into()));
            };
            let Some(arrival) = bot.next(deadline).await else {
                return Ok(None);
            };
            let text = match arrival.output {
                Output::Line(text) => text,
                Output::TooLong { len, start } => {
                    self.record(arrival.at, Direction::Received, format!("{start}..."));
                    return Err(Failure(format!(
                        "a line of {len} bytes (the limit is {MAX_LINE}) starting `{start}`"
                    )));
                }
                Output::Closed(error) => {
                    let what = match error {
                        Some(e) => format!("output could not be read ({e})"),
                        None => "closed its output".to_owned(),
                    };
                    self.record(arrival.at, Direction::Event, what.clone());
                    return Err(self.ended(&what).await);
                }
            };
            self.record(arrival.at, Direction::Received, text.clone());
            match text.parse::<BotMessage>() {
                Ok(BotMessage::Unknown(line)) => {
                    if !line.is_empty() {
                        self.warn(format!("unknown line `{line}` (ignored)"));
                    }
                }
                Ok(BotMessage::BestMove(mv)) => {
                    self.accept_bestmove(mv, arrival.at, &text)?;
                    return Ok(Some(BotMessage::BestMove(mv)));
                }
                Ok(message) => return Ok(Some(message)),
                Err(e) => match text.split_whitespace().next() {
                    Some("info") => self.warn(format!("info line that does not parse: {e}")),
                    Some("bestmove") => {
                        return Err(Failure(format!("unreadable bestmove {e}")));
                    }
                    _ => return Err(Failure(format!("a line that does not parse: {e}"))),
                },
            }
        }
    }

    fn accept_bestmove(&mut self, mv: Move, at: Instant, line: &str) -> Step<()> {
        let Some(pending) = self.pending.take() else {
            return Err(Failure(format!(
                "`{}` was not asked for: no `go` is waiting for an answer (a second \
                 bestmove for one go, or one before any go)",
                line.trim()
            )));
        };
        let legal = pending.position.legal_moves();
        if mv == Move::Pass || !legal.contains(mv) {
            return Err(Failure(format!(
                "illegal move `{}` in {} ({} to move); legal moves: {legal}",
                line.trim(),
                pending.position,
                side_name(&pending.position)
            )));
        }
        self.answered = Some(Answer {
            mv,
            elapsed: at.saturating_duration_since(pending.sent_at),
            at,
        });
        Ok(())
    }

    /// Waits until `deadline` for a message `wanted` accepts. `bestmove` and
    /// `info` are handled on the way; other messages are warnings.
    pub async fn expect(
        &mut self,
        what: &str,
        deadline: Instant,
        wanted: impl Fn(&BotMessage) -> bool,
    ) -> Step<BotMessage> {
        loop {
            let Some(message) = self.next_message(deadline).await? else {
                return Err(self.timed_out(what));
            };
            match message {
                m if wanted(&m) => return Ok(m),
                BotMessage::BestMove(_) | BotMessage::Info(_) => {}
                other => self.warn(format!("unexpected `{other}` while waiting for {what}")),
            }
        }
    }

    /// `isready`, and `readyok` within the time-out.
    pub async fn ready(&mut self) -> Step<Duration> {
        let sent = self.send(&ArbiterMessage::IsReady).await?;
        self.expect("readyok", sent + self.config.timeout, |m| {
            *m == BotMessage::ReadyOk
        })
        .await?;
        Ok(sent.elapsed())
    }

    /// Sends the game and `go`; the answer is then outstanding.
    pub async fn go(&mut self, game: &GameSoFar, go: Go) -> Step<()> {
        let position = match game.replay() {
            Ok((position, _)) => position,
            Err(e) => return Err(Failure(format!("the suite built an illegal game: {e}"))),
        };
        self.begin_exchange();
        self.send(&ArbiterMessage::Position(game.clone())).await?;
        let sent_at = self.send(&ArbiterMessage::Go(go)).await?;
        self.pending = Some(Pending { position, sent_at });
        self.answered = None;
        Ok(())
    }

    /// Waits for the outstanding `go`'s answer: a legal `bestmove` at most
    /// `limit` after the `go` (`limit_text` says where the limit comes from).
    pub async fn await_bestmove(&mut self, limit: Duration, limit_text: &str) -> Step<Answer> {
        let deadline = match self.pending {
            Some(pending) => pending.sent_at + limit,
            None => Instant::now(),
        };
        let answer = self.await_answer(deadline, limit_text).await?;
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
        if self.pending.is_none() && self.answered.is_none() {
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

    /// `go` and its answer within `limit`.
    pub async fn think(
        &mut self,
        game: &GameSoFar,
        go: Go,
        limit: Duration,
        limit_text: &str,
    ) -> Step<Answer> {
        self.go(game, go).await?;
        self.await_bestmove(limit, limit_text).await
    }

    /// Reads whatever the bot sends for `duration`, checking it as always.
    pub async fn listen(&mut self, duration: Duration) -> Step<()> {
        let deadline = Instant::now() + duration;
        while self.next_message(deadline).await?.is_some() {}
        Ok(())
    }

    /// Waits up to `limit` for the bot to exit on its own.
    pub async fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let status = match self.bot.as_mut() {
            Some(bot) => bot.wait_exit(limit).await.map(|exit| exit.status),
            None => None,
        };
        match status {
            Some(s) => self.event(format!("the bot ended: {}", describe(s))),
            None => self.event(format!("the bot still runs after {}", ms(limit))),
        }
        status
    }

    /// Ends the check: packs the outcome, and either hands the bot on (when
    /// `keep` and the check passed with the bot idle) or kills what is left
    /// of it.
    pub async fn finish(
        mut self,
        name: &'static str,
        result: Step<()>,
        keep: bool,
    ) -> (CheckOutcome, Option<Spare>) {
        let mut stderr = Vec::new();
        let mut spare = None;
        let idle = self.pending.is_none() && self.answered.is_none();
        if let Some(mut bot) = self.bot.take() {
            match self.identity.take() {
                Some(identity) if keep && idle && result.is_ok() => {
                    spare = Some(Spare { bot, identity })
                }
                _ => {
                    bot.kill().await;
                    stderr = bot.stderr_tail();
                }
            }
        }
        if let Some(mut left) = self.spare.take() {
            left.bot.kill().await;
        }
        let status = match result {
            Ok(()) => Status::Pass,
            Err(Failure(reason)) => Status::Fail {
                reason,
                exchange: self.exchange,
            },
        };
        let outcome = CheckOutcome {
            name,
            status,
            headline: self.headline,
            details: self.details,
            warnings: self.warnings,
            transcript: self.transcript,
            stderr,
        };
        (outcome, spare)
    }
}

/// "South" or "North", the side to move in `position`.
pub fn side_name(position: &Position) -> &'static str {
    match position.side_to_move() {
        aboure_engine::Side::South => "South",
        aboure_engine::Side::North => "North",
    }
}

impl Spare {
    /// Kills the bot.
    pub async fn kill(mut self) {
        self.bot.kill().await;
    }
}
