//! The bot as a real subprocess, run the way the arbiter runs it: in its own
//! process group (so a bot that forks helpers is killed whole), with all
//! three streams piped. Standard error is drained on its own task, because
//! a bot blocked on a full stderr pipe would look hung; its last lines are
//! kept to show next to a failure (a traceback explains most crashes).
//! Standard output is read on another task into a channel, each line stamped
//! with the instant it was read, so the suite times answers from when they
//! arrived and can wait with a deadline without losing data.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

use crate::config::Confinement;

/// The bot's cage: run from the current folder, with no extra environment.
fn jail(
    c: &Confinement,
    program: &OsString,
    args: &[OsString],
) -> io::Result<aboure_sandbox::Jail> {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let workdir = std::env::current_dir()?;
    let spec = aboure_sandbox::BotSpec {
        name: "bot",
        program: program.as_ref(),
        args: &args,
        workdir: &workdir,
        env: &std::collections::BTreeMap::new(),
        policy: &c.policy,
        memory: None,
        cpu: None,
    };
    c.sandbox.prepare(&spec).map_err(io::Error::other)
}

/// Longest line accepted from a bot, in bytes (the protocol's limit).
pub const MAX_LINE: usize = 64 * 1024;

/// Lines of standard error kept for the report.
const STDERR_LINES: usize = 20;

/// Longest standard error line kept, in characters.
const STDERR_LINE_CHARS: usize = 300;

/// What came out of the bot's standard output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// A line, without `\n` or `\r\n` (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`]: its length and its first characters.
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The first 80 bytes of it.
        start: String,
    },
    /// The end of the output (the bot closed it or exited), or an error
    /// reading it.
    Closed(Option<String>),
}

/// One piece of output and when it was read.
#[derive(Clone, Debug)]
pub struct Arrival {
    /// When the reader had the whole line.
    pub at: Instant,
    /// The line, or the end of the output.
    pub output: Output,
}

/// A running bot.
#[derive(Debug)]
pub struct BotProcess {
    child: Child,
    pid: u32,
    stdin: Option<ChildStdin>,
    output: mpsc::UnboundedReceiver<Arrival>,
    closed: bool,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_drain: Option<tokio::task::JoinHandle<()>>,
    status: Option<ExitStatus>,
    /// Dropped after the process: removes its cgroups and scratch folder.
    _jail: Option<aboure_sandbox::Jail>,
}

impl BotProcess {
    /// Starts `program` with `args` in its own process group, in the
    /// sandbox `confinement` if given.
    pub fn spawn(
        program: &OsString,
        args: &[OsString],
        confinement: Option<&Confinement>,
    ) -> io::Result<BotProcess> {
        let jail = confinement.map(|c| jail(c, program, args)).transpose()?;
        let mut command = match &jail {
            Some(jail) => Command::from(jail.command()),
            None => Command::new(program),
        };
        if jail.is_none() {
            command.args(args);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .process_group(0)
            .spawn()?;
        let pid = child.id().unwrap_or(0);
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(io::Error::other("the bot's pipes were not created"));
        };
        let (sender, output) = mpsc::unbounded_channel();
        tokio::spawn(read_lines(stdout, sender));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_drain = tokio::spawn(drain_stderr(stderr, tail.clone()));
        Ok(BotProcess {
            child,
            pid,
            stdin: Some(stdin),
            output,
            closed: false,
            stderr: tail,
            stderr_drain: Some(stderr_drain),
            status: None,
            _jail: jail,
        })
    }

    /// Writes `line` and a newline and flushes; returns the instant the
    /// flush completed (the start of the bot's clock for a `go`).
    pub async fn write_line(&mut self, line: &str) -> io::Result<Instant> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "standard input already closed",
            ));
        };
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        stdin.write_all(&bytes).await?;
        stdin.flush().await?;
        Ok(Instant::now())
    }

    /// Closes the bot's standard input (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next piece of output, or `None` if nothing came by `deadline`.
    /// After the end of the output, returns `Closed` at once, every time.
    pub async fn next(&mut self, deadline: Instant) -> Option<Arrival> {
        if self.closed {
            return Some(Arrival {
                at: Instant::now(),
                output: Output::Closed(None),
            });
        }
        let arrival = match tokio::time::timeout_at(deadline.into(), self.output.recv()).await {
            Err(_) => return None,
            Ok(Some(arrival)) => arrival,
            Ok(None) => Arrival {
                at: Instant::now(),
                output: Output::Closed(None),
            },
        };
        if matches!(arrival.output, Output::Closed(_)) {
            self.closed = true;
        }
        Some(arrival)
    }

    /// Waits up to `limit` for the bot to exit; its status if it did.
    pub async fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        if self.status.is_none() {
            if let Ok(Ok(status)) = tokio::time::timeout(limit, self.child.wait()).await {
                self.status = Some(status);
            }
        }
        self.status
    }

    /// Kills whatever is left of the bot's process group, reaps the bot and
    /// lets its last words on stderr arrive. Returns its exit status if it
    /// had already exited on its own.
    pub async fn kill(&mut self) -> Option<ExitStatus> {
        let exited = self.status;
        if self.pid > 0 {
            // SAFETY: killpg has no memory-safety preconditions. The group is
            // the bot's own: process_group(0) made the bot its leader, and
            // the group id stays reserved while any member is alive.
            unsafe {
                libc::killpg(self.pid as libc::pid_t, libc::SIGKILL);
            }
        }
        if self.status.is_none() {
            if let Ok(Ok(status)) =
                tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await
            {
                self.status = Some(status);
            }
        }
        if let Some(drain) = self.stderr_drain.take() {
            // Ends when the pipe closes, which a helper outside the group
            // could delay: wait only briefly.
            let _ = tokio::time::timeout(Duration::from_millis(200), drain).await;
        }
        exited
    }

    /// The last lines the bot wrote to standard error.
    pub fn stderr_tail(&self) -> Vec<String> {
        match self.stderr.lock() {
            Ok(tail) => tail.iter().cloned().collect(),
            Err(_) => Vec::new(),
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if self.status.is_none() && self.pid > 0 {
            // SAFETY: as in `kill`.
            unsafe {
                libc::killpg(self.pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

/// An exit status in words: `status 0`, `signal 9`.
pub fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("status {code}"),
        (None, Some(signal)) => format!("signal {signal}"),
        _ => status.to_string(),
    }
}

/// Splits a byte stream into lines of at most [`MAX_LINE`] bytes. All state
/// lives here, so the caller's reads can time out without losing bytes.
#[derive(Debug, Default)]
struct LineSplitter {
    pending: Vec<u8>,
    overlong: usize,
}

impl LineSplitter {
    /// Feeds bytes; returns the lines they complete.
    fn feed(&mut self, mut bytes: &[u8]) -> Vec<Output> {
        let mut lines = Vec::new();
        while let Some(i) = bytes.iter().position(|&b| b == b'\n') {
            self.take(&bytes[..i]);
            lines.push(self.finish());
            bytes = &bytes[i + 1..];
        }
        self.take(bytes);
        lines
    }

    /// The unfinished last line at the end of the stream, if any.
    fn end(&mut self) -> Option<Output> {
        (!self.pending.is_empty() || self.overlong > 0).then(|| self.finish())
    }

    fn take(&mut self, bytes: &[u8]) {
        if self.overlong > 0 {
            self.overlong += bytes.len();
        } else if self.pending.len() + bytes.len() > MAX_LINE {
            self.overlong = self.pending.len() + bytes.len();
            self.pending.truncate(80);
        } else {
            self.pending.extend_from_slice(bytes);
        }
    }

    fn finish(&mut self) -> Output {
        let line = if self.overlong > 0 {
            let start = &self.pending[..self.pending.len().min(80)];
            Output::TooLong {
                len: self.overlong,
                start: String::from_utf8_lossy(start).into_owned(),
            }
        } else {
            let mut text = String::from_utf8_lossy(&self.pending).into_owned();
            if text.ends_with('\r') {
                text.pop();
            }
            Output::Line(text)
        };
        self.pending.clear();
        self.overlong = 0;
        line
    }
}

async fn read_lines(mut stdout: impl AsyncRead + Unpin, sender: mpsc::UnboundedSender<Arrival>) {
    let mut splitter = LineSplitter::default();
    let mut buf = vec![0u8; 16 * 1024];
    let closed = loop {
        match stdout.read(&mut buf).await {
            Ok(0) => break None,
            Ok(n) => {
                let at = Instant::now();
                for output in splitter.feed(&buf[..n]) {
                    if sender.send(Arrival { at, output }).is_err() {
                        return;
                    }
                }
            }
            Err(e) => break Some(e.to_string()),
        }
    };
    let at = Instant::now();
    if let Some(output) = splitter.end() {
        let _ = sender.send(Arrival { at, output });
    }
    let _ = sender.send(Arrival {
        at,
        output: Output::Closed(closed),
    });
}

async fn drain_stderr(mut stderr: impl AsyncRead + Unpin, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut splitter = LineSplitter::default();
    let mut buf = vec![0u8; 8 * 1024];
    let mut keep = |output: Output| {
        let text = match output {
            Output::Line(text) => text,
            Output::TooLong { len, start } => format!("{start}... ({len} bytes)"),
            Output::Closed(_) => return,
        };
        let text: String = text.chars().take(STDERR_LINE_CHARS).collect();
        if let Ok(mut tail) = tail.lock() {
            if tail.len() == STDERR_LINES {
                tail.pop_front();
            }
            tail.push_back(text);
        }
    };
    loop {
        match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => splitter.feed(&buf[..n]).into_iter().for_each(&mut keep),
        }
    }
    if let Some(output) = splitter.end() {
        keep(output);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Output {
        Output::Line(s.to_owned())
    }

    #[test]
    fn splits_lines_across_reads_and_strips_cr() {
        let mut s = LineSplitter::default();
        assert_eq!(s.feed(b"ab"), vec![]);
        assert_eq!(
            s.feed(b"c\r\nd\n\ne"),
            vec![line("abc"), line("d"), line("")]
        );
        assert_eq!(s.end(), Some(line("e")));
        assert_eq!(s.end(), None);
    }

    #[test]
    fn overlong_lines_are_reported_once_and_discarded() {
        let mut s = LineSplitter::default();
        let mut lines = Vec::new();
        for _ in 0..10 {
            lines.extend(s.feed(&[b'x'; 10_000]));
        }
        lines.extend(s.feed(b"\nok\n"));
        assert_eq!(lines.len(), 2);
        assert!(matches!(&lines[0], Output::TooLong { len: 100_000, start } if start.len() == 80));
        assert_eq!(lines[1], line("ok"));
    }
}
