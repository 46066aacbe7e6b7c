//! A bot as a subprocess: started in its own process group with piped
//! stdin/stdout/stderr, its stderr drained to a log file on its own task (a
//! full pipe would stall the bot), its stdout read through a bounded line
//! reader, and killed with its whole group when it hangs or misbehaves.
//!
//! Failures are values ([`BotFailure`]), not errors: the game records them as
//! a loss for the bot and the tournament goes on.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::future::Future;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aboure_protocol::{ArbiterMessage, BotMessage, PROTOCOL_VERSION};
use aboure_records::{InfoRecord, Termination};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::limits::Limits;
use crate::lines::{Line, LineReader, MAX_LINE};
use crate::stderr_tail::{last_line, out_of_memory_line, StderrTail};

/// Stderr kept per bot name before further output is discarded.
pub const STDERR_CAP: u64 = 16 * 1024 * 1024;

/// Why a bot lost: the termination kind and a human-readable detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotFailure {
    /// The kind of failure, as recorded.
    pub kind: Termination,
    /// What happened: the offending line, the exit status, the overrun.
    pub detail: String,
}

impl BotFailure {
    fn new(kind: Termination, detail: impl Into<String>) -> BotFailure {
        BotFailure {
            kind,
            detail: detail.into(),
        }
    }
}

/// Everything needed to start a bot.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The bot's name in the tournament.
    pub name: String,
    /// Program to run.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub workdir: PathBuf,
    /// Extra environment.
    pub env: BTreeMap<String, String>,
    /// Options to set after the handshake.
    pub options: BTreeMap<String, String>,
    /// Limit on the handshake, and on each `isready`.
    pub startup_timeout: Duration,
    /// Operating-system limits on the bot's process.
    pub limits: Limits,
    /// Where its logs go.
    pub logs: Arc<BotLogs>,
    /// The sandbox of the run.
    pub sandbox: Arc<aboure_sandbox::Sandbox>,
    /// The bot's sandbox allowances.
    pub policy: aboure_sandbox::Policy,
}

/// The log files of one bot (shared by all its processes).
#[derive(Debug)]
pub struct BotLogs {
    stderr_path: Option<PathBuf>,
    stderr_written: AtomicU64,
    protocol: Option<Mutex<std::io::BufWriter<File>>>,
    origin: Instant,
}

impl BotLogs {
    /// Logs for bot `name` in `dir`: `NAME.stderr.log` and, if
    /// `log_protocol`, `NAME.protocol.log`. `None` for `dir` discards all.
    pub fn new(dir: Option<&Path>, name: &str, log_protocol: bool) -> std::io::Result<BotLogs> {
        let protocol = match (dir, log_protocol) {
            (Some(dir), true) => {
                let file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(dir.join(format!("{name}.protocol.log")))?;
                Some(Mutex::new(std::io::BufWriter::new(file)))
            }
            _ => None,
        };
        Ok(BotLogs {
            stderr_path: dir.map(|d| d.join(format!("{name}.stderr.log"))),
            stderr_written: AtomicU64::new(0),
            protocol,
            origin: Instant::now(),
        })
    }

    fn protocol(&self, pid: u32, arrow: &str, line: &str) {
        if let Some(log) = &self.protocol {
            if let Ok(mut w) = log.lock() {
                let t = self.origin.elapsed().as_secs_f64();
                let _ = writeln!(w, "{t:.6} [{pid}] {arrow} {line}");
            }
        }
    }

    /// Writes buffered protocol log lines to disk.
    pub fn flush(&self) {
        if let Some(log) = &self.protocol {
            if let Ok(mut w) = log.lock() {
                let _ = w.flush();
            }
        }
    }
}

/// A bot's answer to `go`.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The move as the bot wrote it (already parsed as a pit number).
    pub mv: aboure_engine::Move,
    /// Time from the `go` being flushed to the `bestmove` being read.
    pub elapsed: Duration,
    /// The bot's `info` for this move, merged (latest value of each field).
    pub info: InfoRecord,
}

/// A running bot.
#[derive(Debug)]
pub struct BotProcess {
    name: String,
    child: Child,
    pid: u32,
    stdin: ChildStdin,
    stdout: LineReader<ChildStdout>,
    logs: Arc<BotLogs>,
    reaped: bool,
    /// An `isready` was sent after the last `bestmove` and its `readyok` has
    /// not been read yet (see [`BotProcess::check_unasked`]).
    fence: bool,
    startup_timeout: Duration,
    limits: Limits,
    stderr: Arc<StderrTail>,
    /// Dropped after the process is killed: removes its cgroups and scratch.
    jail: aboure_sandbox::Jail,
}

/// How long a crashed bot's stderr may take to reach its end, so that its
/// last words make it into the record (a helper it started may hold the
/// pipe open: then the record goes without them).
const LAST_WORDS_WAIT: Duration = Duration::from_millis(300);

fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => status.to_string(),
    }
}

impl Launch {
    /// The bot's cage for one process (a plain process without a sandbox).
    fn jail(&self) -> Result<aboure_sandbox::Jail, BotFailure> {
        let spec = aboure_sandbox::BotSpec {
            name: &self.name,
            program: &self.program,
            args: &self.args,
            workdir: &self.workdir,
            env: &self.env,
            policy: &self.policy,
            memory: self.limits.memory,
            cpu: self.limits.cpu,
        };
        self.sandbox
            .prepare(&spec)
            .map_err(|e| BotFailure::new(Termination::StartupFailure, e.to_string()))
    }
}

impl BotProcess {
    /// Starts the bot and completes the handshake: `aboure 1` ... `aboureok`,
    /// the options, `isready` ... `readyok`, all within the start-up limit.
    pub async fn start(launch: &Launch) -> Result<BotProcess, BotFailure> {
        let jail = launch.jail()?;
        let mut command = Command::from(jail.command());
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .process_group(0);
        // A sandboxed bot's limits are set by its helper (on the bot alone).
        let limits = if jail.is_confined() {
            Limits::default()
        } else {
            launch.limits
        };
        // SAFETY: the closure runs in the child between fork and exec and
        // only makes system calls (prctl, setrlimit), which are
        // async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                // Die with the arbiter, even when it is killed outright.
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                limits.apply()
            });
        }
        let mut child = command.spawn().map_err(|e| {
            BotFailure::new(
                Termination::StartupFailure,
                format!(
                    "cannot start {} (in {}): {e}",
                    launch.program.display(),
                    launch.workdir.display()
                ),
            )
        })?;
        let pid = child.id().unwrap_or(0);
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(BotFailure::new(Termination::StartupFailure, "no pipes"));
        };
        let tail = Arc::new(StderrTail::default());
        tokio::spawn(drain_stderr(stderr, launch.logs.clone(), tail.clone()));
        let mut bot = BotProcess {
            name: launch.name.clone(),
            child,
            pid,
            stdin,
            stdout: LineReader::new(stdout, MAX_LINE),
            logs: launch.logs.clone(),
            reaped: false,
            fence: false,
            startup_timeout: launch.startup_timeout,
            limits: launch.limits,
            stderr: tail,
            jail,
        };
        match bot.handshake(launch).await {
            Ok(()) => Ok(bot),
            Err(mut failure) => {
                if failure.kind == Termination::Crash {
                    failure.kind = Termination::StartupFailure;
                }
                bot.kill().await;
                Err(failure)
            }
        }
    }

    async fn handshake(&mut self, launch: &Launch) -> Result<(), BotFailure> {
        let deadline = Instant::now() + launch.startup_timeout;
        self.send(&ArbiterMessage::Aboure {
            version: PROTOCOL_VERSION,
        })
        .await?;
        self.wait_for(deadline, "aboureok", |m| matches!(m, BotMessage::AboureOk))
            .await?;
        for (name, value) in &launch.options {
            self.send(&ArbiterMessage::SetOption {
                name: name.clone(),
                value: value.clone(),
            })
            .await?;
        }
        self.send(&ArbiterMessage::IsReady).await?;
        self.wait_for(deadline, "readyok", |m| matches!(m, BotMessage::ReadyOk))
            .await
    }

    /// The bot's name in the tournament.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Starts a new game: `newgame`, then `isready` ... `readyok`.
    pub async fn new_game(&mut self) -> Result<(), BotFailure> {
        self.check_unasked().await?;
        self.send(&ArbiterMessage::NewGame).await?;
        self.send(&ArbiterMessage::IsReady).await?;
        let deadline = Instant::now() + self.startup_timeout;
        self.wait_for(deadline, "readyok", |m| matches!(m, BotMessage::ReadyOk))
            .await
    }

    async fn wait_for(
        &mut self,
        deadline: Instant,
        what: &str,
        wanted: impl Fn(&BotMessage) -> bool,
    ) -> Result<(), BotFailure> {
        loop {
            let line = tokio::select! {
                biased;
                line = tokio::time::timeout_at(deadline.into(), self.stdout.next_line()) => line,
                status = self.child.wait(), if !self.reaped => {
                    return Err(self.exited(status).await);
                }
            };
            let text = match line {
                Err(_) => {
                    return Err(BotFailure::new(
                        Termination::StartupFailure,
                        format!("no {what} within {:?}", self.startup_timeout),
                    ))
                }
                Ok(line) => self.text(line).await?,
            };
            match text.parse::<BotMessage>() {
                Ok(m) if wanted(&m) => return Ok(()),
                Ok(BotMessage::BestMove(_)) => {
                    return Err(BotFailure::new(
                        Termination::ProtocolViolation,
                        format!("bestmove that was not asked for: {text:?}"),
                    ))
                }
                _ => {
                    tracing::trace!(bot = %self.name, line = %text, "ignored while waiting for {what}")
                }
            }
        }
    }

    /// Turns a read result into a line of text, or the failure it means.
    async fn text(&mut self, line: std::io::Result<Option<Line>>) -> Result<String, BotFailure> {
        match line {
            Ok(Some(Line::Text(text))) => {
                self.logs.protocol(self.pid, "<", &text);
                Ok(text)
            }
            Ok(Some(Line::TooLong { len, start })) => Err(BotFailure::new(
                Termination::ProtocolViolation,
                format!("line of {len} bytes (limit {MAX_LINE}) starting {start:?}"),
            )),
            Ok(None) => Err(self.crashed("closed its output").await),
            Err(e) => Err(self.crashed(&format!("output unreadable: {e}")).await),
        }
    }

    async fn crashed(&mut self, what: &str) -> BotFailure {
        let status = tokio::time::timeout(Duration::from_millis(500), self.child.wait()).await;
        match status {
            Ok(Ok(status)) => {
                self.reaped = true;
                self.failure_for(status, what).await
            }
            _ => BotFailure::new(Termination::Crash, what),
        }
    }

    /// The bot's process ended while the arbiter waited for a line.
    async fn exited(&mut self, status: std::io::Result<ExitStatus>) -> BotFailure {
        self.reaped = true;
        match status {
            Ok(status) => self.failure_for(status, "ended").await,
            Err(e) => BotFailure::new(Termination::Crash, format!("ended (status unknown: {e})")),
        }
    }

    /// A crash, or a resource limit if the exit status shows one or the
    /// bot reported a failed allocation under a memory limit; a crash's
    /// detail quotes the last line of its stderr.
    async fn failure_for(&self, status: ExitStatus, what: &str) -> BotFailure {
        let mut limits = self.limits;
        if let (true, Some(bytes)) = (self.jail.memory_by_cgroup(), limits.memory) {
            if self.jail.oom_killed() {
                let why = crate::limits::oom_text(bytes);
                return BotFailure::new(Termination::ResourceLimit, format!("{what}: {why}"));
            }
            // Only the kernel's OOM count says a cgroup's limit was hit.
            limits.memory = None;
        }
        if let Some(why) = limits.explain(status) {
            return BotFailure::new(Termination::ResourceLimit, format!("{what}: {why}"));
        }
        self.stderr.settled(LAST_WORDS_WAIT).await;
        let text = self.stderr.text();
        let reported =
            out_of_memory_line(&text).and_then(|line| limits.explain_report(status, &line));
        if let Some(why) = reported {
            return BotFailure::new(Termination::ResourceLimit, format!("{what}: {why}"));
        }
        let mut detail = format!("{what}: {}", describe(status));
        if let Some(line) = last_line(&text) {
            detail += &format!("; last words on stderr: {line:?}");
        }
        BotFailure::new(Termination::Crash, detail)
    }

    /// Writes one message and flushes it.
    pub async fn send(&mut self, message: &ArbiterMessage) -> Result<(), BotFailure> {
        let line = message.to_string();
        self.send_lines(&[line]).await
    }

    async fn send_lines(&mut self, lines: &[String]) -> Result<(), BotFailure> {
        let mut bytes = Vec::new();
        for line in lines {
            self.logs.protocol(self.pid, ">", line);
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        let written = async {
            self.stdin.write_all(&bytes).await?;
            self.stdin.flush().await
        };
        match written.await {
            Ok(()) => Ok(()),
            Err(e) => Err(self.crashed(&format!("closed its input ({e})")).await),
        }
    }

    /// Makes sure the bot sent no `bestmove` it was not asked for (answered
    /// twice, or early) before it is asked again. Right after each answer the
    /// arbiter sends `isready` (see [`BotProcess::think`]); here it reads up
    /// to the `readyok`, so a second answer sent after the first always lands
    /// before it and is caught, however the lines are timed. The `readyok`
    /// has normally arrived long before (while the opponent thought), so
    /// this costs no waiting. Then lines already waiting are looked at too.
    /// Other lines are logged and dropped.
    pub async fn check_unasked(&mut self) -> Result<(), BotFailure> {
        if std::mem::take(&mut self.fence) {
            let deadline = Instant::now() + self.startup_timeout;
            self.wait_for(deadline, "readyok", |m| matches!(m, BotMessage::ReadyOk))
                .await?;
        }
        loop {
            // Poll once: only what has already arrived counts. (A zero
            // timeout would wait for the timer's next millisecond tick.)
            let line = {
                let mut next = std::pin::pin!(self.stdout.next_line());
                let polled =
                    std::future::poll_fn(|cx| std::task::Poll::Ready(next.as_mut().poll(cx))).await;
                match polled {
                    std::task::Poll::Ready(line) => line,
                    std::task::Poll::Pending => return Ok(()),
                }
            };
            let text = self.text(line).await?;
            if let Ok(BotMessage::BestMove(_)) | Err(_) = text.parse::<BotMessage>() {
                if text.trim_start().starts_with("bestmove") {
                    return Err(BotFailure::new(
                        Termination::ProtocolViolation,
                        format!("bestmove that was not asked for: {text:?}"),
                    ));
                }
            }
        }
    }

    /// Sends the position and `go`, and waits at most `deadline` for the
    /// `bestmove`, timing from just after `go` is flushed to just after the
    /// answer is read.
    pub async fn think(
        &mut self,
        position: &ArbiterMessage,
        go: &ArbiterMessage,
        deadline: Duration,
    ) -> Result<Answer, BotFailure> {
        self.send_lines(&[position.to_string(), go.to_string()])
            .await?;
        let started = Instant::now();
        let mut info = InfoRecord::default();
        loop {
            // A bot's exit is watched as well as its output: a helper it
            // started may hold the pipe open after it is gone.
            let line = tokio::select! {
                biased;
                line = tokio::time::timeout_at((started + deadline).into(), self.stdout.next_line()) => line,
                status = self.child.wait(), if !self.reaped => {
                    return Err(self.exited(status).await);
                }
            };
            let Ok(line) = line else {
                return Err(BotFailure::new(
                    Termination::TimeForfeit,
                    format!(
                        "no bestmove within {:.3} ms",
                        crate::clock::ms(started.elapsed())
                    ),
                ));
            };
            let read = Instant::now();
            let text = self.text(line).await?;
            match text.parse::<BotMessage>() {
                Ok(BotMessage::BestMove(mv)) => {
                    self.fence_after_answer().await;
                    return Ok(Answer {
                        mv,
                        elapsed: read - started,
                        info,
                    });
                }
                Ok(BotMessage::Info(i)) => {
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
                        info.time_ms = Some(crate::clock::ms(t));
                    }
                    if !i.pv.is_empty() {
                        info.pv = i.pv.iter().map(ToString::to_string).collect();
                    }
                    if let Some(s) = i.string {
                        info.string = Some(s);
                    }
                }
                Err(_) if text.trim_start().starts_with("bestmove") => {
                    return Err(BotFailure::new(
                        Termination::IllegalMove,
                        format!("unreadable answer {text:?}"),
                    ))
                }
                _ => tracing::trace!(bot = %self.name, line = %text, "ignored"),
            }
        }
    }

    /// Sends the `isready` that fences off the answer just read. A write
    /// error is left for the next exchange to report: the answer itself
    /// stands.
    async fn fence_after_answer(&mut self) {
        let line = ArbiterMessage::IsReady.to_string();
        self.logs.protocol(self.pid, ">", &line);
        let sent = async {
            self.stdin.write_all(format!("{line}\n").as_bytes()).await?;
            self.stdin.flush().await
        };
        self.fence = sent.await.is_ok();
    }

    /// Kills the bot's whole process group and reaps it.
    pub async fn kill(&mut self) {
        self.killpg();
        if !self.reaped {
            let _ = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
            self.reaped = true;
        }
        self.logs.flush();
    }

    fn killpg(&mut self) {
        if self.pid > 0 {
            // SAFETY: killpg has no memory-safety preconditions; the group id
            // is the bot's own (process_group(0) made it the leader).
            unsafe {
                libc::killpg(self.pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }

    /// Asks the bot to quit, waits up to `grace`, then kills whatever is left
    /// of its process group.
    pub async fn quit(mut self, grace: Duration) {
        let _ = self.send(&ArbiterMessage::Quit).await;
        if !self.reaped && tokio::time::timeout(grace, self.child.wait()).await.is_ok() {
            self.reaped = true;
        }
        self.kill().await;
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if !self.reaped {
            self.killpg();
        }
    }
}

async fn drain_stderr(
    mut stderr: tokio::process::ChildStderr,
    logs: Arc<BotLogs>,
    tail: Arc<StderrTail>,
) {
    let mut file = logs
        .stderr_path
        .as_ref()
        .and_then(|p| OpenOptions::new().create(true).append(true).open(p).ok());
    let mut buf = vec![0u8; 8192];
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        tail.push(&buf[..n]);
        if let Some(f) = file.as_mut() {
            let before = logs.stderr_written.fetch_add(n as u64, Ordering::Relaxed);
            if before + n as u64 <= STDERR_CAP {
                let _ = f.write_all(&buf[..n]);
            } else {
                if before <= STDERR_CAP {
                    let _ = writeln!(f, "\n[aboure: stderr limit of {STDERR_CAP} bytes reached; the rest is discarded]");
                }
                file = None;
            }
        }
    }
    tail.close();
}
