//! The log files of one bot: everything its processes wrote on stderr
//! (`NAME.stderr.log`) and, when asked for, every protocol line with its
//! time (`NAME.protocol.log`). Both are capped per bot, so that a bot that
//! writes without end fills neither the disk nor the writer's queue: past
//! the cap, one line says the rest was discarded.
//!
//! Both are what an operator reads with `cat`, `tail -f` or `less -R`:
//! raw, a bot's escape sequences would reach their terminal (set the
//! clipboard with OSC 52, retitle the window, clear the screen and draw a
//! fake prompt). So both are written as every other output of the arbiter
//! is, each control character written out by the one rule of
//! [`aboure_report::printable`]: the stderr log through
//! [`crate::escaped`] (which also writes each byte that is not UTF-8 as
//! `\xNN`), each line of the protocol log (UTF-8 already, and holding no
//! newline: lines are split at them) through `printable` itself, so that
//! each entry stays one line to every reader.
//!
//! The files are written by a thread of their own: a write to disk blocks,
//! and a blocked runtime worker would delay every game it carries (and be
//! charged to the bots whose replies wait behind it). The async side only
//! hands over the bytes.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use crate::escaped::{EscapedLog, STDERR_CAP};

/// Protocol log kept per bot name before further lines are discarded.
pub const PROTOCOL_CAP: u64 = 16 * 1024 * 1024;

/// What the writer thread is handed.
enum Entry {
    Stderr(Vec<u8>),
    StderrCapped,
    StderrDiscarded(u64),
    Protocol(String),
    ProtocolCapped,
    Flush,
}

/// The log files of one bot (shared by all its processes).
#[derive(Debug)]
pub struct BotLogs {
    sender: Option<mpsc::Sender<Entry>>,
    writer: Mutex<Option<JoinHandle<()>>>,
    stderr_written: AtomicU64,
    protocol_written: AtomicU64,
    protocol: bool,
    origin: Instant,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Entry")
    }
}

impl BotLogs {
    /// Logs for bot `name` in `dir`: `NAME.stderr.log` and, if
    /// `log_protocol`, `NAME.protocol.log`. `None` for `dir` discards all.
    pub fn new(dir: Option<&Path>, name: &str, log_protocol: bool) -> std::io::Result<BotLogs> {
        let Some(dir) = dir else {
            return Ok(BotLogs::discard());
        };
        let protocol = if log_protocol {
            let path = dir.join(format!("{name}.protocol.log"));
            Some(BufWriter::new(append(&path)?))
        } else {
            None
        };
        let files = Files {
            stderr_path: dir.join(format!("{name}.stderr.log")),
            stderr: None,
            stderr_text: EscapedLog::new("stderr"),
            protocol,
        };
        let log_protocol = files.protocol.is_some();
        let (sender, receiver) = mpsc::channel();
        let writer = std::thread::Builder::new()
            .name(format!("logs of {name}"))
            .spawn(move || files.write(receiver))?;
        Ok(BotLogs {
            sender: Some(sender),
            writer: Mutex::new(Some(writer)),
            stderr_written: AtomicU64::new(0),
            protocol_written: AtomicU64::new(0),
            protocol: log_protocol,
            origin: Instant::now(),
        })
    }

    /// Logs that keep nothing.
    pub fn discard() -> BotLogs {
        BotLogs {
            sender: None,
            writer: Mutex::new(None),
            stderr_written: AtomicU64::new(0),
            protocol_written: AtomicU64::new(0),
            protocol: false,
            origin: Instant::now(),
        }
    }

    fn send(&self, entry: Entry) {
        if let Some(sender) = &self.sender {
            let _ = sender.send(entry);
        }
    }

    /// Records one protocol line of process `pid`, sent (`>`) or received
    /// (`<`) at `at`, written out, up to [`PROTOCOL_CAP`] bytes for the
    /// bot; past the cap, one note says the rest was discarded.
    pub(crate) fn protocol(&self, pid: u32, arrow: &str, line: &str, at: Instant) {
        if !self.protocol || self.protocol_written.load(Ordering::Relaxed) > PROTOCOL_CAP {
            return;
        }
        let t = at.saturating_duration_since(self.origin).as_secs_f64();
        let line = aboure_report::printable(line);
        let entry = format!("{t:.6} [{pid}] {arrow} {line}\n");
        let n = entry.len() as u64;
        let before = self.protocol_written.fetch_add(n, Ordering::Relaxed);
        if before + n <= PROTOCOL_CAP {
            self.send(Entry::Protocol(entry));
        } else if before <= PROTOCOL_CAP {
            self.send(Entry::ProtocolCapped);
        }
    }

    /// Appends what a process wrote on stderr, up to [`STDERR_CAP`] bytes
    /// for the bot; past the cap, one note says the rest was discarded.
    /// Returns how many of `bytes` were discarded.
    pub(crate) fn stderr(&self, bytes: &[u8]) -> u64 {
        if self.sender.is_none() {
            return 0;
        }
        let n = bytes.len() as u64;
        let before = self.stderr_written.fetch_add(n, Ordering::Relaxed);
        if before + n <= STDERR_CAP {
            self.send(Entry::Stderr(bytes.to_vec()));
            return 0;
        } else if before <= STDERR_CAP {
            self.send(Entry::StderrCapped);
        }
        n
    }

    /// Whether the stderr log is full: what a process writes now is only
    /// counted (see `flood`).
    pub(crate) fn stderr_full(&self) -> bool {
        self.sender.is_some() && self.stderr_written.load(Ordering::Relaxed) > STDERR_CAP
    }

    /// Notes, past the cap, that one process's stderr lost `bytes` to it
    /// (one line a process, at its stream's end).
    pub(crate) fn stderr_discarded(&self, bytes: u64) {
        if bytes > 0 {
            self.send(Entry::StderrDiscarded(bytes));
        }
    }

    /// Asks for buffered lines to be written to disk.
    pub fn flush(&self) {
        self.send(Entry::Flush);
    }
}

impl Drop for BotLogs {
    fn drop(&mut self) {
        // Everything handed over is on disk when the logs are gone.
        self.sender = None;
        if let Some(writer) = self.writer.get_mut().ok().and_then(Option::take) {
            let _ = writer.join();
        }
    }
}

/// The writer thread's side.
struct Files {
    stderr_path: PathBuf,
    stderr: Option<File>,
    /// The text of stderr, written out and capped.
    stderr_text: EscapedLog,
    protocol: Option<BufWriter<File>>,
}

/// Opens a log to append to, never through a link: a bot that came to
/// own the logs folder could have planted one there, leading to a file
/// the arbiter, as root, would then write the bot's words into.
fn append(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    (OpenOptions::new().create(true).append(true))
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

impl Files {
    fn write(mut self, entries: mpsc::Receiver<Entry>) {
        // Failures to write a log are not the bot's fault and must not stop
        // the tournament: they are dropped.
        for entry in entries {
            match entry {
                Entry::Stderr(bytes) => self.stderr_chunk(&bytes),
                Entry::StderrCapped => self.stderr_capped(),
                Entry::StderrDiscarded(bytes) => self.stderr_write(&format!(
                    "[aboure: {bytes} bytes of one process's stderr discarded]\n"
                )),
                Entry::Protocol(line) => {
                    if let Some(file) = self.protocol.as_mut() {
                        let _ = file.write_all(line.as_bytes());
                    }
                }
                Entry::ProtocolCapped => {
                    if let Some(file) = self.protocol.as_mut() {
                        let _ = writeln!(
                            file,
                            "[aboure: protocol log limit of {PROTOCOL_CAP} bytes reached; the rest is discarded]"
                        );
                    }
                }
                Entry::Flush => {
                    if let Some(file) = self.protocol.as_mut() {
                        let _ = file.flush();
                    }
                }
            }
        }
        if let Some(file) = self.protocol.as_mut() {
            let _ = file.flush();
        }
        self.stderr_chunk(&[]);
    }

    /// Writes `bytes` escaped, up to [`STDERR_CAP`] bytes on disk. An
    /// empty chunk writes out the start of a character still waiting for
    /// its end.
    fn stderr_chunk(&mut self, bytes: &[u8]) {
        let text = self.stderr_text.push(bytes);
        self.stderr_write(&text);
    }

    /// Notes once that the stderr log is full.
    fn stderr_capped(&mut self) {
        let note = self.stderr_text.cut();
        self.stderr_write(&note);
    }

    /// Appends `text`; the file is made at its first text.
    fn stderr_write(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some(file) = self.stderr_file() {
            let _ = file.write_all(text.as_bytes());
        }
    }

    fn stderr_file(&mut self) -> Option<&mut File> {
        if self.stderr.is_none() {
            self.stderr = append(&self.stderr_path).ok();
        }
        self.stderr.as_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_that_is_a_link_is_not_followed() {
        let dir = std::env::temp_dir().join(format!("aboure-logs-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("elsewhere");
        std::fs::write(&target, "kept\n").unwrap();
        std::os::unix::fs::symlink(&target, dir.join("b.stderr.log")).unwrap();
        let logs = BotLogs::new(Some(&dir), "b", false).unwrap();
        logs.stderr(b"planted words\n");
        drop(logs);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_logs_are_on_disk_once_dropped_and_stderr_is_capped() {
        let dir = std::env::temp_dir().join(format!("aboure-logs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let logs = BotLogs::new(Some(&dir), "b", true).unwrap();
        let at = logs.origin;
        logs.protocol(7, ">", "isready", at);
        logs.protocol(7, "<", "readyok\u{1b}]0;title\u{7}\u{9b}2J\u{2028}x", at);
        logs.stderr(b"hello\n");
        logs.stderr(&vec![b'x'; STDERR_CAP as usize]);
        logs.stderr(b"more\n");
        assert!(logs.stderr_full());
        logs.stderr_discarded(5);
        drop(logs);
        let protocol = std::fs::read_to_string(dir.join("b.protocol.log")).unwrap();
        // A bot's controls written out, and no line break but the entry's.
        assert_eq!(
            protocol,
            "0.000000 [7] > isready\n0.000000 [7] < readyok\\u{1b}]0;title\\u{7}\\u{9b}2J\\u{2028}x\n"
        );
        let stderr = std::fs::read_to_string(dir.join("b.stderr.log")).unwrap();
        assert_eq!(
            stderr,
            format!(
                "hello\n\n[aboure: stderr limit of {STDERR_CAP} bytes reached; the rest is discarded]\n\
                 [aboure: 5 bytes of one process's stderr discarded]\n"
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_protocol_log_is_capped_with_a_note() {
        let dir = std::env::temp_dir().join(format!("aboure-logs-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let logs = BotLogs::new(Some(&dir), "b", true).unwrap();
        let at = logs.origin;
        let line = "x".repeat(1000);
        // Each entry is the line, its time, pid and arrow: 1,016 bytes.
        let fit = PROTOCOL_CAP / 1016;
        for _ in 0..fit + 100 {
            logs.protocol(7, "<", &line, at);
        }
        drop(logs);
        let text = std::fs::read_to_string(dir.join("b.protocol.log")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len() as u64, fit + 1);
        assert_eq!(lines[0], format!("0.000000 [7] < {line}"));
        assert_eq!(
            *lines.last().unwrap(),
            format!("[aboure: protocol log limit of {PROTOCOL_CAP} bytes reached; the rest is discarded]")
        );
        assert!(text.len() as u64 <= PROTOCOL_CAP + 100);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
