//! The last words of a bot: the end of what one bot process wrote on stderr,
//! kept in memory (a few KiB) while the whole stream goes to the bot's log.
//!
//! Why: a crash recorded as "exited with status 1" tells a bot's author
//! little, while the last line of its stderr ("ZeroDivisionError: ...")
//! usually tells all. And a program that handles running out of memory
//! itself (Python's `MemoryError`, then status 1) can only be told apart
//! from any other crash by what it said.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::Notify;

use crate::logs::BotLogs;

/// Bytes of stderr kept per process.
const KEEP: usize = 4096;
/// Longest line quoted in a record.
const QUOTE_MAX: usize = 200;
/// Lines shown next to a failed check.
const SHOWN_LINES: usize = 20;
/// Longest line shown next to a failed check, in characters.
const SHOWN_CHARS: usize = 300;

/// What programs print when an allocation fails and they report it
/// themselves (compared case-insensitively).
const OUT_OF_MEMORY: &[&str] = &[
    "memoryerror",            // Python
    "memory allocation of",   // Rust's default allocation error handler
    "bad_alloc",              // C++
    "outofmemoryerror",       // Java
    "out of memory",          // Go, Node.js, many C programs
    "cannot allocate memory", // strerror(ENOMEM)
];

/// The end of one process's stderr.
#[derive(Debug, Default)]
pub(crate) struct StderrTail {
    bytes: Mutex<Vec<u8>>,
    closed: AtomicBool,
    notify: Notify,
}

impl StderrTail {
    /// Appends what the process wrote, keeping the last [`KEEP`] bytes.
    pub(crate) fn push(&self, chunk: &[u8]) {
        let Ok(mut bytes) = self.bytes.lock() else {
            return;
        };
        bytes.extend_from_slice(chunk);
        if bytes.len() > KEEP {
            let cut = bytes.len() - KEEP;
            bytes.drain(..cut);
        }
    }

    /// The stream ended: everything the process wrote is here.
    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.notify.notify_waiters();
    }

    /// Waits until the stream has ended, or `limit` has passed (a helper the
    /// bot started may hold the pipe open for ever).
    pub(crate) async fn settled(&self, limit: Duration) {
        let _ = tokio::time::timeout(limit, async {
            loop {
                let notified = self.notify.notified();
                if self.closed.load(Ordering::Acquire) {
                    return;
                }
                notified.await;
            }
        })
        .await;
    }

    /// The text kept, lossily decoded.
    pub(crate) fn text(&self) -> String {
        self.bytes
            .lock()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }
}

/// Reads a process's stderr to its end: into `tail`, and into the bot's
/// stderr log if it has one. Runs on a task of its own, because a bot
/// blocked on a full stderr pipe would look hung.
pub(crate) async fn drain(
    mut stderr: impl AsyncRead + Unpin,
    logs: Option<Arc<BotLogs>>,
    tail: Arc<StderrTail>,
) {
    let mut buf = vec![0u8; 8192];
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        tail.push(&buf[..n]);
        if let Some(logs) = &logs {
            logs.stderr(&buf[..n]);
        }
    }
    tail.close();
}

/// The last lines of `text`, each cut to a readable length.
pub(crate) fn last_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.len().saturating_sub(SHOWN_LINES);
    lines[first..]
        .iter()
        .map(|l| l.chars().take(SHOWN_CHARS).collect())
        .collect()
}

/// The last non-blank line of `text`, trimmed and cut to a quotable length.
pub(crate) fn last_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .map(quote)
}

/// The last line of `text` in which the program reports that an allocation
/// failed, if any.
pub(crate) fn out_of_memory_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .rfind(|l| {
            let lower = l.to_lowercase();
            OUT_OF_MEMORY.iter().any(|m| lower.contains(m))
        })
        .map(quote)
}

fn quote(line: &str) -> String {
    match line.char_indices().nth(QUOTE_MAX) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_end_and_finds_the_last_line() {
        let tail = StderrTail::default();
        tail.push(&vec![b'x'; 10_000]);
        tail.push(b"\nTraceback (most recent call last):\n  File \"bot.py\", line 3\nZeroDivisionError: division by zero\n\n");
        let text = tail.text();
        assert!(text.len() <= KEEP);
        assert_eq!(
            last_line(&text).as_deref(),
            Some("ZeroDivisionError: division by zero")
        );
        assert_eq!(out_of_memory_line(&text), None);
        assert_eq!(last_line("  \n \n"), None);
    }

    #[test]
    fn recognises_reports_of_failed_allocations() {
        for text in [
            "Traceback (most recent call last):\n  x = bytearray(n)\nMemoryError\n",
            "memory allocation of 1073741824 bytes failed\n",
            "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n",
            "fatal error: runtime: out of memory\n\ngoroutine 1 [running]:\n",
            "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n",
        ] {
            assert!(out_of_memory_line(text).is_some(), "{text}");
        }
        assert_eq!(out_of_memory_line("ValueError: memory is fine\n"), None);
    }

    #[test]
    fn the_lines_shown_are_the_last_twenty_cut_short() {
        let text: String = (0..30).map(|i| format!("line {i}\n")).collect();
        let shown = last_lines(&text);
        assert_eq!(shown.len(), SHOWN_LINES);
        assert_eq!(shown[0], "line 10");
        assert_eq!(last_lines(&"x".repeat(1000))[0].len(), SHOWN_CHARS);
    }

    #[test]
    fn long_lines_are_cut() {
        let line = "é".repeat(500);
        let quoted = last_line(&line).unwrap();
        assert_eq!(quoted.chars().count(), QUOTE_MAX + 3);
        assert!(quoted.ends_with("..."));
    }

    #[tokio::test]
    async fn settled_returns_at_the_end_of_the_stream_or_at_the_limit() {
        let tail = std::sync::Arc::new(StderrTail::default());
        let t0 = std::time::Instant::now();
        tail.settled(Duration::from_millis(30)).await;
        assert!(t0.elapsed() >= Duration::from_millis(30));
        let closer = tail.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            closer.close();
        });
        let t0 = std::time::Instant::now();
        tail.settled(Duration::from_secs(10)).await;
        assert!(t0.elapsed() < Duration::from_secs(5));
        // Once closed, at once.
        tail.settled(Duration::from_secs(10)).await;
    }
}
