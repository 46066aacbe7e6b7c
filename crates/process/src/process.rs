//! A bot as a subprocess: launched with every safety (see [`crate::launch`]),
//! its stderr drained on its own task (a full pipe would stall the bot),
//! its stdout read as bounded lines, and killed with its whole group when it
//! hangs or misbehaves. The exchange itself is [`crate::exchange`]'s; here
//! its faults become [`BotFailure`]s, with the exit status, the limit that
//! stopped the bot, or its last words on stderr.
//!
//! Failures are values, not errors: the game records them as a loss for the
//! bot and the tournament goes on.

use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aboure_protocol::ArbiterMessage;
use tokio::process::ChildStdin;
use tokio::task::JoinHandle;

use crate::exchange::{Answer, Channel, Fault};
use crate::exit::{describe, Exit, Reaper};
use crate::hint::{hint, Hint};
use crate::hold::{Hold, HoldMethod};
use crate::launch::{prepare, Guard, Launcher, Program};
use crate::limits::Limits;
use crate::lines::Arrival;
use crate::logs::BotLogs;
use crate::stderr::{drain, last_lines, last_words, out_of_memory_line, StderrTail};

/// What went wrong with a bot's process, in the process layer's words; the
/// arbiter decides what each means for the game it was playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// It could not be started, or did not finish its handshake in time.
    Startup,
    /// It ended (or closed its pipes) on its own.
    Crash,
    /// It sent no move within the time it was given.
    NoMoveInTime,
    /// It broke the protocol: a line too long, or one nobody asked for.
    ProtocolViolation,
    /// Its move could not be read as a move.
    UnreadableMove,
    /// It was stopped at one of its limits (memory, CPU time, processes).
    ResourceLimit,
}

/// Why a bot lost: what went wrong and a human-readable detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotFailure {
    /// What went wrong.
    pub kind: FailureKind,
    /// What happened: the offending line, the exit status, the overrun.
    pub detail: String,
}

impl BotFailure {
    fn new(kind: FailureKind, detail: impl Into<String>) -> BotFailure {
        BotFailure {
            kind,
            detail: detail.into(),
        }
    }
}

/// Everything needed to start a bot.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The bot's name (for messages).
    pub name: String,
    /// Its command.
    pub command: Program,
    /// How the command is run.
    pub launcher: Arc<dyn Launcher>,
    /// Options to set after the handshake.
    pub options: Vec<(String, String)>,
    /// Limit on the handshake, and on each `isready`.
    pub startup_timeout: Duration,
    /// Operating-system limits on the bot's process.
    pub limits: Limits,
    /// Where its logs go.
    pub logs: Arc<BotLogs>,
}

/// How long a crashed bot's stderr may take to reach its end, so that its
/// last words make it into the record (a helper it started may hold the
/// pipe open: then the record goes without them).
const LAST_WORDS_WAIT: Duration = Duration::from_millis(300);

/// How long a bot whose output ended may take to exit, for its status.
const EXIT_AFTER_CLOSE: Duration = Duration::from_millis(500);

/// How long a kill may take to reap the bot.
const REAP_WAIT: Duration = Duration::from_secs(5);

/// How long a bot may take to answer the `isready` after `newgame` before
/// the wait is charged to its first move (a bot may clear its tables for
/// a new game; beyond this it is thinking before anyone's clock runs).
const NEW_GAME_GRACE: Duration = Duration::from_millis(500);

/// How long to wait for a line the bot wrote just before it exited.
const LINE_AFTER_EXIT: Duration = Duration::from_millis(100);

/// A running bot.
#[derive(Debug)]
pub struct BotProcess {
    name: String,
    reaper: Reaper,
    channel: Channel<ChildStdin>,
    logs: Arc<BotLogs>,
    startup_timeout: Duration,
    limits: Limits,
    stderr: Arc<StderrTail>,
    stderr_drain: JoinHandle<()>,
    /// Frozen or stopped while the opponent thinks (see [`crate::hold`]).
    hold: Hold,
    /// The launcher's, dropped after the process is killed and reaped.
    guard: Option<Box<dyn Guard>>,
    /// True once it has answered a `go`.
    moved: bool,
    /// The wait for its `readyok` after `newgame` beyond
    /// [`NEW_GAME_GRACE`], charged to its next answer.
    unpaid: Duration,
    /// The folder it started in, on the host.
    workdir: std::path::PathBuf,
    /// How long [`BotProcess::start`] took, until someone takes it.
    startup: Option<Duration>,
}

/// A start-up slower than this is worth a word (from `check-bot`, and from
/// a run as it happens): a tournament's `startup-timeout` allows 10 s, but
/// every game that starts the bot afresh waits for it.
pub const SLOW_STARTUP: Duration = Duration::from_secs(1);

/// Why an exchange with a process stopped.
enum Stop {
    Fault(Fault),
    Exited(std::io::Result<Exit>),
}

impl BotProcess {
    /// Starts the bot, without a word to it yet.
    pub fn spawn(launch: &Launch) -> std::io::Result<BotProcess> {
        let launched = prepare(&*launch.launcher, &launch.command, launch.limits)?;
        let (mut command, limits) = (launched.command, launched.limits);
        let mut child = command.spawn()?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(std::io::Error::other("the bot's pipes were not created"));
        };
        let reaper = Reaper::new(child);
        let workdir = match &launch.command.workdir {
            Some(dir) => dir.clone(),
            None => std::env::current_dir()?,
        };
        let tail = Arc::new(StderrTail::default());
        let logs = launch.logs.clone();
        let stderr_drain = tokio::spawn(drain(stderr, Some(logs.clone()), tail.clone()));
        let guard = launched.guard.as_ref();
        let method = match guard.and_then(|g| g.freezer()) {
            Some(dir) => HoldMethod::Freezer(dir.to_owned()),
            None if guard.is_some_and(|g| g.relays_hold()) => HoldMethod::Relay(reaper.pid()),
            None => HoldMethod::Signals(reaper.pid()),
        };
        let hold = Hold::new(method, guard.and_then(|g| g.weight()).map(Path::to_owned));
        Ok(BotProcess {
            name: launch.name.clone(),
            channel: Channel::new(stdin, stdout, logs.clone(), reaper.pid()),
            reaper,
            logs,
            startup_timeout: launch.startup_timeout,
            limits,
            stderr: tail,
            stderr_drain,
            hold,
            guard: launched.guard,
            moved: false,
            unpaid: Duration::ZERO,
            workdir,
            startup: None,
        })
    }

    /// Starts the bot and completes the handshake: `aboure 1` ... `aboureok`,
    /// the options, `isready` ... `readyok`, all within the start-up limit.
    pub async fn start(launch: &Launch) -> Result<BotProcess, BotFailure> {
        let began = Instant::now();
        let mut bot = BotProcess::spawn(launch).map_err(|e| {
            let dir = match &launch.command.workdir {
                Some(dir) => format!(" (in {})", dir.display()),
                None => String::new(),
            };
            BotFailure::new(
                FailureKind::Startup,
                format!(
                    "cannot start {}{dir}: {e}",
                    launch.command.program.display()
                ),
            )
        })?;
        let handshake = bot
            .channel
            .handshake(&launch.options, launch.startup_timeout);
        let result = race(&mut bot.reaper, handshake).await;
        match result {
            Ok(()) => {
                bot.startup = Some(began.elapsed());
                Ok(bot)
            }
            Err(stop) => {
                let mut failure = bot.failure(stop).await;
                if failure.kind == FailureKind::Crash {
                    failure.kind = FailureKind::Startup;
                }
                bot.kill().await;
                Err(bot.explained(failure))
            }
        }
    }

    /// How long its start took, from before it was spawned to the end of
    /// its handshake: given once, by the first call after
    /// [`BotProcess::start`] (so a process reused for many games counts
    /// one start).
    pub fn take_startup(&mut self) -> Option<Duration> {
        self.startup.take()
    }

    /// The bot's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The options it declared in its handshake.
    pub fn declared_options(&self) -> &[aboure_protocol::OptionSpec] {
        self.channel.declared()
    }

    /// Starts a new game: `newgame`, then `isready` ... `readyok`.
    pub async fn new_game(&mut self) -> Result<(), BotFailure> {
        self.new_game_with(&[]).await
    }

    /// Sets `options` (`setoption` for each) and starts a new game, in
    /// one round trip: how a process kept between games is given other
    /// values of its options (a tune's points change every iteration).
    pub async fn new_game_with(&mut self, options: &[(String, String)]) -> Result<(), BotFailure> {
        self.release();
        let asked = Instant::now();
        let exchange = self.channel.new_game(options, self.startup_timeout);
        let result = race(&mut self.reaper, exchange).await;
        self.settle(result).await?;
        self.unpaid = asked.elapsed().saturating_sub(NEW_GAME_GRACE);
        Ok(())
    }

    /// Makes sure the bot sent no `bestmove` it was not asked for before it
    /// is asked again (see the exchange's `check_unasked`).
    pub async fn check_unasked(&mut self) -> Result<(), BotFailure> {
        self.release();
        let exchange = self.channel.check_unasked(self.startup_timeout);
        let result = race(&mut self.reaper, exchange).await;
        self.settle(result).await
    }

    /// Sends the position and `go`, and waits at most `limit` for the
    /// `bestmove`, timing from just after `go` is flushed to when the
    /// answer was read. A held bot is released first, so the release is
    /// never charged to it. The first answer after `newgame` also carries
    /// the wait for that `readyok` beyond half a second (time the bot
    /// could think while no clock ran).
    pub async fn think(
        &mut self,
        position: &ArbiterMessage,
        go: &ArbiterMessage,
        limit: Duration,
    ) -> Result<Answer, BotFailure> {
        self.ask(position, go, limit, false).await
    }

    /// [`BotProcess::think`] for positions asked back to back with
    /// nobody else thinking in between (the accuracy objective): the
    /// answer's `isready` fence goes out with the next position and `go`
    /// instead of on its own (see the exchange's `defer`). Call
    /// [`BotProcess::check_unasked`] after the last one.
    pub async fn think_next(
        &mut self,
        position: &ArbiterMessage,
        go: &ArbiterMessage,
        limit: Duration,
    ) -> Result<Answer, BotFailure> {
        self.ask(position, go, limit, true).await
    }

    /// One move asked for, its fence deferred to the next one or not.
    async fn ask(
        &mut self,
        position: &ArbiterMessage,
        go: &ArbiterMessage,
        limit: Duration,
        defer: bool,
    ) -> Result<Answer, BotFailure> {
        self.release();
        let exchange = self.channel.exchange(position, go, limit, defer);
        let result = race(&mut self.reaper, exchange).await;
        let mut answer = self.settle(result).await?;
        answer.elapsed += std::mem::take(&mut self.unpaid);
        self.moved = true;
        Ok(answer)
    }

    async fn settle<T>(&mut self, result: Result<T, Stop>) -> Result<T, BotFailure> {
        match result {
            Ok(value) => Ok(value),
            Err(stop) => {
                let failure = self.failure(stop).await;
                Err(self.explained(failure))
            }
        }
    }

    /// `failure` with the bot's own report of a fatal problem if it made
    /// one (`info string error ...`), and its [`BotProcess::hint`] when it
    /// ended before its first move: start-up is when a refusal of its
    /// sandbox (a module it cannot read, a variable it lacks) or a missing
    /// file kills a bot, and the detail should say so.
    fn explained(&self, mut failure: BotFailure) -> BotFailure {
        if let Some(report) = self.channel.reported_error() {
            failure.detail += &format!("; the bot reported: {report:?}");
        }
        let ended = matches!(failure.kind, FailureKind::Crash | FailureKind::Startup);
        if let (false, true, Some(hint)) = (self.moved, ended, self.hint()) {
            failure.detail += &format!("\n{hint}");
        }
        failure
    }

    /// What to tell the author of a bot that ended: a file its stderr
    /// names that the host lacks too, else the rules its sandbox set (see
    /// [`crate::hint`]).
    pub fn hint(&self) -> Option<Hint> {
        let shows = |path: &std::path::Path| self.guard.as_ref().is_none_or(|g| g.shows(path));
        hint(
            &self.stderr.whole_lines(),
            &self.workdir,
            self.cage(),
            &shows,
        )
    }

    /// The rules the bot runs under, in words, if its launcher has any.
    pub fn cage(&self) -> Option<String> {
        self.guard.as_ref().and_then(|g| g.cage())
    }

    /// Writes one line (which need not be a valid message) and flushes it
    /// by `deadline`; returns the instant after the flush.
    pub async fn write_line(&mut self, line: &str, deadline: Instant) -> std::io::Result<Instant> {
        self.release();
        self.channel.write_lines(&[line], deadline).await
    }

    /// The conversation itself, for a caller that hears the lines through
    /// its own rules (`check-bot`); the exchanges above also watch the
    /// process.
    pub fn channel(&mut self) -> &mut Channel<ChildStdin> {
        self.release();
        &mut self.channel
    }

    /// Closes the bot's standard input.
    pub fn close_input(&mut self) {
        self.channel.close_input();
    }

    /// The next piece of output by `deadline` (`None` if none came); after
    /// the end of the output, `Closed` at once, every time.
    pub async fn next(&mut self, deadline: Instant) -> Option<Arrival> {
        self.channel.next(deadline).await
    }

    /// Waits up to `limit` for the bot to exit; how it did, if it did.
    /// Once it has, its last words on stderr are let arrive (briefly), for
    /// [`BotProcess::stderr_tail`] and [`BotProcess::hint`].
    pub async fn wait_exit(&mut self, limit: Duration) -> Option<Exit> {
        let exit = self.reaper.wait_for(limit).await;
        if exit.is_some() {
            self.stderr.settled(LAST_WORDS_WAIT).await;
        }
        exit
    }

    /// Holds every process of the bot still until it is next spoken to
    /// (any of the exchanges above releases it first): called while its
    /// opponent thinks. A hold that fails is logged, not the bot's loss.
    pub async fn hold(&mut self) {
        if let Err(e) = self.hold.freeze().await {
            tracing::warn!(bot = %self.name, "cannot hold the bot while its opponent thinks: {e}");
        }
    }

    /// How this bot is held while its opponent thinks.
    pub fn hold_method(&self) -> &HoldMethod {
        self.hold.method()
    }

    /// True while the bot is held.
    pub fn is_held(&self) -> bool {
        self.hold.is_held()
    }

    fn release(&mut self) {
        if let Err(e) = self.hold.thaw() {
            tracing::warn!(bot = %self.name, "cannot release the held bot: {e}");
        }
    }

    /// The last lines the bot wrote on stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        last_lines(&self.stderr.text())
    }

    /// What a stopped exchange means: the fault, or how the bot ended.
    async fn failure(&mut self, stop: Stop) -> BotFailure {
        let fault = match stop {
            Stop::Exited(Ok(exit)) => return self.failure_for(exit, "ended").await,
            Stop::Exited(Err(e)) => {
                return BotFailure::new(FailureKind::Crash, format!("ended (status unknown: {e})"))
            }
            Stop::Fault(fault) => fault,
        };
        let kind = match &fault {
            Fault::NoReply {
                what: "bestmove",
                waited,
                ..
            } => {
                let ms = (waited.as_micros() as f64) / 1000.0;
                let detail = format!("no bestmove within {ms:.3} ms");
                return BotFailure::new(FailureKind::NoMoveInTime, detail);
            }
            Fault::NoReply { .. } => FailureKind::Startup,
            Fault::Unread { what: "go", .. } => FailureKind::NoMoveInTime,
            Fault::Unread { .. } => FailureKind::Startup,
            Fault::TooLong { .. } | Fault::Unasked(_) | Fault::TooMuch(_) => {
                FailureKind::ProtocolViolation
            }
            Fault::Unreadable(_) => FailureKind::UnreadableMove,
            Fault::Closed(_) | Fault::WriteFailed(_) => {
                let what = fault.to_string();
                return match self.reaper.wait_for(EXIT_AFTER_CLOSE).await {
                    Some(exit) => self.failure_for(exit, &what).await,
                    None => BotFailure::new(FailureKind::Crash, what),
                };
            }
        };
        BotFailure::new(kind, fault.to_string())
    }

    /// If `exit` is how a bot dies at one of its limits, says which: the
    /// launcher's own account first (the sandbox's memory cgroup counts its
    /// OOM kills), then what the signal and CPU time show.
    pub fn explain_exit(&self, exit: Exit) -> Option<String> {
        let known = self.guard.as_ref().and_then(|g| g.explain(exit));
        known.or_else(|| self.limits.explain(exit))
    }

    /// A crash, or a resource limit if the exit shows one or the bot
    /// reported a failed allocation under a memory limit; a crash's detail
    /// quotes the last lines of its stderr.
    async fn failure_for(&self, exit: Exit, what: &str) -> BotFailure {
        if let Some(why) = self.explain_exit(exit) {
            return BotFailure::new(FailureKind::ResourceLimit, format!("{what}: {why}"));
        }
        self.stderr.settled(LAST_WORDS_WAIT).await;
        let text = self.stderr.whole_lines();
        let reported = out_of_memory_line(&text)
            .and_then(|line| self.limits.explain_report(exit.status, &line));
        if let Some(why) = reported {
            return BotFailure::new(FailureKind::ResourceLimit, format!("{what}: {why}"));
        }
        let mut detail = format!("{what}: {}", describe(exit.status));
        if let Some(words) = last_words(&text) {
            detail += &format!("; {words}");
        }
        BotFailure::new(FailureKind::Crash, detail)
    }

    /// Kills the bot's whole process group, reaps it and lets its last
    /// words on stderr arrive. Returns how it ended if it had already
    /// exited on its own.
    pub async fn kill(&mut self) -> Option<Exit> {
        let exited = self.reaper.exit();
        self.reaper.kill_group();
        // A frozen task dies only once thawed; the kill is already pending.
        self.hold.retire();
        self.release();
        self.reaper.wait_for(REAP_WAIT).await;
        // The drain ends when the pipe closes, which a helper outside the
        // group could delay: wait only briefly.
        self.stderr.settled(Duration::from_millis(200)).await;
        self.logs.flush();
        exited
    }

    /// Lets the bot run from now on only on the CPU no other bot wants (its
    /// cpu group's weight, if it has one, the least): its games are over,
    /// and it is to be asked to quit or killed (see [`crate::hold`]).
    pub fn retire(&mut self) {
        self.hold.retire();
    }

    /// Asks the bot to quit, waits up to `grace`, then kills whatever is
    /// left of its process group.
    pub async fn quit(mut self, grace: Duration) {
        let quit = ArbiterMessage::Quit.to_string();
        self.hold.retire();
        if self.write_line(&quit, Instant::now() + grace).await.is_ok() {
            self.reaper.wait_for(grace).await;
        }
        self.kill().await;
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if self.hold.is_held() {
            if self.reaper.exit().is_none() {
                self.reaper.kill_group();
            }
            self.hold.retire();
            self.release();
        }
        self.stderr_drain.abort();
    }
}

/// Runs `exchange` while watching the process: a bot that exits stops it
/// (a helper it started may hold the pipe open after it is gone). A line
/// written just before the exit still counts.
async fn race<T>(
    reaper: &mut Reaper,
    exchange: impl Future<Output = Result<T, Fault>>,
) -> Result<T, Stop> {
    let mut exchange = std::pin::pin!(exchange);
    let exit = tokio::select! {
        biased;
        result = &mut exchange => return result.map_err(Stop::Fault),
        exit = reaper.wait() => exit,
    };
    match tokio::time::timeout(LINE_AFTER_EXIT, exchange).await {
        Ok(Ok(value)) => Ok(value),
        // The output's end usually comes with the exit: the same failure,
        // worded from the output's side as when it is seen first.
        Ok(Err(fault @ Fault::Closed(_))) => Err(Stop::Fault(fault)),
        _ => Err(Stop::Exited(exit)),
    }
}
