//! One check's conversation with one bot: its state, the bot's life
//! (started, or taken over from the previous check; written to; ended and
//! packed into the check's outcome) and the transcript of it all. What the
//! bot says is heard in [`crate::replies`]; each step turns a misbehaviour
//! into a [`Failure`] that says what was expected and what came instead.
//!
//! The session is generic over its [`Link`] to the bot so that its rules
//! are tested on in-memory streams; the checks run it on a [`BotProcess`].

use std::process::ExitStatus;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aboure_engine::{Move, Position};
use aboure_protocol::ArbiterMessage;

use crate::identity::Identity;
use crate::link::Link;
use crate::outcome::{CheckOutcome, Status};
use crate::transcript::{Direction, Transcript};
use crate::CheckConfig;
use aboure_process::{describe, BotLogs, BotProcess, Hint, Launch, Plain, Program, Turn};

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
    /// From the flush of `go` to the reading of the `bestmove` line.
    pub elapsed: Duration,
    /// When the `bestmove` line was read.
    pub at: Instant,
}

/// A bot that finished a check idle and in good order, with what it
/// announced, ready for the next check.
pub struct Spare<L = BotProcess> {
    bot: L,
    identity: Identity,
}

/// A check in progress.
pub struct Session<'c, L = BotProcess> {
    pub(crate) config: &'c CheckConfig,
    origin: Instant,
    pub(crate) bot: Option<L>,
    identity: Option<Identity>,
    spare: Option<Spare<L>>,
    transcript: Transcript,
    exchange: usize,
    warnings: Vec<String>,
    headline: Option<String>,
    details: Vec<String>,
    /// How long each start of the bot took, `aboure 1` to `aboureok`.
    startups: Vec<Duration>,
    /// The outstanding `go` and the fence, heard as the arbiter hears them.
    pub(crate) turn: Turn,
    /// The position of the outstanding `go`.
    pub(crate) asking: Option<Position>,
    pub(crate) answered: Option<Answer>,
}

/// Whole milliseconds, for messages.
pub fn ms(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}

impl<'c, L: Link> Session<'c, L> {
    /// A session that has not started the bot yet; `spare` is a bot left
    /// by the previous check that [`Session::start`] may take over.
    pub fn new(config: &'c CheckConfig, spare: Option<Spare<L>>) -> Session<'c, L> {
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
            startups: Vec::new(),
            turn: Turn::default(),
            asking: None,
            answered: None,
        }
    }

    /// A session on a bot already past its handshake.
    #[cfg(test)]
    pub(crate) fn on(config: &'c CheckConfig, bot: L) -> Session<'c, L> {
        let mut session = Session::new(config, None);
        session.bot = Some(bot);
        session
    }

    /// The suite's limits.
    pub fn config(&self) -> &'c CheckConfig {
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

    pub(crate) fn record(&mut self, at: Instant, direction: Direction, text: impl Into<String>) {
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

    /// Writes one message and flushes it; returns the instant after the flush.
    pub async fn send(&mut self, message: &ArbiterMessage) -> Step<Instant> {
        self.send_text(&message.to_string()).await
    }

    /// Writes one line of text (which need not be a valid message).
    pub async fn send_text(&mut self, line: &str) -> Step<Instant> {
        self.send_lines(&[line]).await
    }

    /// Writes the lines and flushes them together, as the arbiter sends a
    /// position and its `go`; returns the instant after the flush.
    pub async fn send_lines(&mut self, lines: &[&str]) -> Step<Instant> {
        let Some(bot) = self.bot.as_mut() else {
            return Err(Failure("the bot is not running".into()));
        };
        let deadline = Instant::now() + self.config.timeout;
        match bot.write_lines(lines, deadline).await {
            Ok(at) => {
                for line in lines {
                    self.record(at, Direction::Sent, *line);
                }
                Ok(at)
            }
            Err(e) => {
                self.event(format!("could not write `{}`: {e}", lines.join("`, `")));
                Err(self.ended(&format!("closed its input ({e})")).await)
            }
        }
    }

    /// Closes the bot's standard input.
    pub fn close_input(&mut self) {
        if let Some(bot) = self.bot.as_mut() {
            bot.channel().close_input();
        }
        self.event("closed the bot's standard input");
    }

    /// The failure for a bot whose pipes are gone, with its exit status.
    pub(crate) async fn ended(&mut self, what: &str) -> Failure {
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
        let why = self.bot.as_ref().and_then(|bot| bot.explain_exit(exit));
        if let Some(why) = why.or_else(|| self.config.limits.explain(exit)) {
            self.event(why.clone());
            return Failure(format!("the bot {what}: {why}"));
        }
        let how = describe(exit.status);
        let how = match exit.status.code() {
            Some(_) => how,
            None => format!("was {how}"),
        };
        self.event(format!("the bot {how}"));
        // A bot that ends unasked was often refused something, or lacks a file.
        match self.bot.as_ref().and_then(|bot| bot.hint()) {
            Some(Hint::Sandbox(cage)) => self.warn(format!("if the bot needs more: {cage}")),
            Some(hint) => self.warn(hint.to_string()),
            None => {}
        }
        Failure(format!("the bot {what} and {how}"))
    }

    pub(crate) fn timed_out(&mut self, what: &str) -> Failure {
        let reason = format!("no {what} within {}", ms(self.config.timeout));
        self.event(reason.clone());
        Failure(reason)
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
    /// of it. A passed check first reads the `readyok` of the fence after
    /// its last answer, so a second answer is caught there too.
    pub async fn finish(
        mut self,
        name: &'static str,
        mut result: Step<()>,
        keep: bool,
    ) -> (CheckOutcome, Option<Spare<L>>) {
        if result.is_ok() && self.bot.is_some() {
            result = self.settle_fence().await;
        }
        let mut stderr = Vec::new();
        let mut spare = None;
        let idle = self.turn.asked().is_none() && self.answered.is_none();
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
            startups: self.startups,
            transcript: self.transcript,
            stderr,
        };
        (outcome, spare)
    }
}

impl Session<'_, BotProcess> {
    /// Starts the bot.
    pub fn spawn(&mut self) -> Step<()> {
        let config = self.config;
        let launch = Launch {
            name: config.command_line(),
            command: Program {
                program: config.program.clone().into(),
                args: config.args.clone(),
                workdir: None,
                env: config.env.clone(),
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
        Ok(self.fresh_start().await?.0)
    }

    /// A new bot, past its handshake.
    /// How long `aboureok` took comes with it.
    pub async fn fresh_start(&mut self) -> Step<(Identity, Duration)> {
        self.spare = None;
        self.spawn()?;
        let (identity, took) = self.handshake().await?;
        self.startups.push(took);
        self.identity = Some(identity.clone());
        Ok((identity, took))
    }
}

/// "South" or "North", the side to move in `position`.
pub fn side_name(position: &Position) -> &'static str {
    match position.side_to_move() {
        aboure_engine::Side::South => "South",
        aboure_engine::Side::North => "North",
    }
}

impl<L: Link> Spare<L> {
    /// Kills the bot.
    pub async fn kill(mut self) {
        self.bot.kill().await;
    }
}
