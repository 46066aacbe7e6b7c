//! The last words of a bot: the end of what one bot process wrote on stderr,
//! kept in memory (a few KiB) while the whole stream goes to the bot's log.
//!
//! Why: a crash recorded as "exited with status 1" tells a bot's author
//! little, while the end of its stderr (a traceback ending in
//! "ZeroDivisionError: ...") usually tells all; a record quotes its last
//! lines in full, up to a bound. And a program that handles running out of memory
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
/// Bytes asked for by one read of stderr: a pipe's default capacity, so
/// that one read takes all a flooding bot could write meanwhile. A bot
/// may write its stderr as fast as it can: at 8 KiB a read, a flood cost
/// the arbiter more CPU than the game (docs/sandbox.md); past the log's
/// cap it is not read at all (see `flood`).
const READ_SIZE: usize = 64 * 1024;
/// Longest line quoted as a report of a failed allocation.
const QUOTE_MAX: usize = 200;
/// What starts each quoted line of a bot's stderr in a record, or of a
/// failed build's output in its error (no line of aboure's own starts so).
pub const QUOTE_PREFIX: &str = "  | ";
/// Lines quoted in a record, at most (and at most [`KEEP`] bytes).
const QUOTED_LINES: usize = 20;
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
    /// True once bytes were dropped from the front.
    cut: AtomicBool,
    closed: AtomicBool,
    notify: Notify,
}

impl StderrTail {
    /// Appends what the process wrote, keeping the last [`KEEP`] bytes
    /// (of a longer chunk, only its end is copied).
    pub(crate) fn push(&self, chunk: &[u8]) {
        let Ok(mut bytes) = self.bytes.lock() else {
            return;
        };
        if chunk.len() > KEEP {
            bytes.clear();
            self.cut.store(true, Ordering::Release);
        }
        bytes.extend_from_slice(&chunk[chunk.len().saturating_sub(KEEP)..]);
        if bytes.len() > KEEP {
            let cut = bytes.len() - KEEP;
            bytes.drain(..cut);
            self.cut.store(true, Ordering::Release);
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

    /// The text kept from its first whole line on (the front of a line
    /// whose start was dropped is no quote).
    pub(crate) fn whole_lines(&self) -> String {
        let text = self.text();
        match (self.cut.load(Ordering::Acquire), text.split_once('\n')) {
            (true, Some((_, rest))) => rest.to_owned(),
            _ => text,
        }
    }
}

/// Reads a process's stderr to its end: into `tail`, and into the bot's
/// stderr log if it has one; once the log is full, the rest is drained
/// unread (see `flood`) and its count noted in the log. Runs on a task of
/// its own, because a bot blocked on a full stderr pipe would look hung.
pub(crate) async fn drain(
    mut stderr: tokio::process::ChildStderr,
    logs: Option<Arc<BotLogs>>,
    tail: Arc<StderrTail>,
) {
    let (mut discarded, full) = read(&mut stderr, logs.as_deref(), &tail).await;
    if full {
        let moved = match stderr.into_owned_fd() {
            Ok(fd) => crate::flood::discard(fd).await.unwrap_or(0),
            Err(_) => 0,
        };
        discarded += moved;
    }
    if let Some(logs) = &logs {
        logs.stderr_discarded(discarded);
    }
    tail.close();
}

/// Reads `stderr` into `tail` and `logs` until its end, or until the log
/// is full (then true); and how many bytes read the log discarded.
async fn read(
    stderr: &mut (impl AsyncRead + Unpin),
    logs: Option<&BotLogs>,
    tail: &StderrTail,
) -> (u64, bool) {
    let mut buf = vec![0u8; READ_SIZE];
    let mut discarded = 0;
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => return (discarded, false),
            Ok(n) => n,
        };
        tail.push(&buf[..n]);
        if let Some(logs) = logs {
            discarded += logs.stderr(&buf[..n]);
            if logs.stderr_full() {
                return (discarded, true);
            }
        }
    }
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

/// The end of `text` for a record, in full up to [`QUOTED_LINES`] lines
/// (the text is at most [`KEEP`] bytes): `last words on stderr: "LINE"`
/// for one line, else `its last N lines on stderr:` and the lines, each
/// on its own line after [`QUOTE_PREFIX`], so that no line a bot writes
/// reads as one of the report's own. `None` if nothing but blanks was
/// written.
pub(crate) fn last_words(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let last = lines.iter().rposition(|l| !l.trim().is_empty())?;
    let first = (lines[..=last].iter())
        .position(|l| !l.trim().is_empty())
        .unwrap_or(0)
        .max((last + 1).saturating_sub(QUOTED_LINES));
    let shown = &lines[first..=last];
    Some(match shown {
        [one] => format!("last words on stderr: {:?}", one.trim()),
        _ => format!(
            "its last {} lines on stderr:\n{}",
            shown.len(),
            (shown.iter().map(|l| format!("{QUOTE_PREFIX}{l}")))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    })
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
        // The front of the line whose start was dropped is left out.
        assert_eq!(
            last_words(&tail.whole_lines()).as_deref(),
            Some(
                "its last 3 lines on stderr:\n  | Traceback (most recent call last):\n  |   \
                 File \"bot.py\", line 3\n  | ZeroDivisionError: division by zero"
            )
        );
        assert_eq!(out_of_memory_line(&text), None);
        assert_eq!(last_words("  \n \n"), None);
        assert_eq!(
            last_words("\n  oops  \n\n").as_deref(),
            Some("last words on stderr: \"oops\"")
        );
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
    fn a_record_quotes_the_last_twenty_lines_in_full() {
        let long = "é".repeat(500);
        let text: String = (0..30).map(|i| format!("line {i} {long}\n")).collect();
        let quoted = last_words(&text).unwrap();
        let mut lines = quoted.lines();
        assert_eq!(lines.next(), Some("its last 20 lines on stderr:"));
        assert_eq!(lines.next(), Some(format!("  | line 10 {long}").as_str()));
        assert_eq!(lines.count(), 19);
        // A forged report line stays a quoted line.
        let forged = last_words("x\nRank  Bot\n   1  attacker  +999\n").unwrap();
        assert!(
            forged.lines().skip(1).all(|l| l.starts_with(QUOTE_PREFIX)),
            "{forged}"
        );
    }

    #[test]
    fn reports_of_failed_allocations_are_cut() {
        let line = format!("MemoryError {}", "é".repeat(500));
        let quoted = out_of_memory_line(&line).unwrap();
        assert_eq!(quoted.chars().count(), QUOTE_MAX + 3);
        assert!(quoted.ends_with("..."));
    }

    /// A stream of `left` bytes, `x`s and a newline, that gives each read
    /// all it asks for and counts the reads.
    struct Counted {
        left: usize,
        reads: usize,
    }

    impl AsyncRead for Counted {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            self.reads += 1;
            let n = buf.remaining().min(self.left);
            let mut bytes = vec![b'x'; n];
            if n == self.left && n > 0 {
                bytes[n - 1] = b'\n';
            }
            buf.put_slice(&bytes);
            self.left -= n;
            std::task::Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn a_flood_is_read_a_pipe_full_at_a_time_and_its_end_kept() {
        // 64 MiB, four times the log's cap: one read per 64 KiB.
        let total = 64 << 20;
        let mut stream = Counted {
            left: total,
            reads: 0,
        };
        let tail = Arc::new(StderrTail::default());
        assert_eq!(read(&mut stream, None, &tail).await, (0, false));
        assert_eq!(stream.left, 0);
        // The last read is the end of the stream.
        assert_eq!(stream.reads, (64 << 20) / (64 * 1024) + 1);
        let text = tail.text();
        assert_eq!(text.len(), KEEP);
        assert!(text.ends_with('\n') && text.starts_with('x'), "{text}");
        assert_eq!(tail.whole_lines(), "");
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
