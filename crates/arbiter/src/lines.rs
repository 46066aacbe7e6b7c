//! Reading a bot's output line by line with a bound on line length, so a
//! bot that prints hundreds of megabytes without a newline costs a fixed
//! amount of memory (the overlong line is reported, its bytes discarded).
//! All state lives in the reader, so `next_line` is cancellation-safe: it can
//! sit in a `select!` or `timeout` without losing data.

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// Longest line accepted from a bot, in bytes.
pub const MAX_LINE: usize = 64 * 1024;

/// One line read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of at most `max` bytes, without its `\n` or `\r\n` (invalid
    /// UTF-8 replaced).
    Text(String),
    /// A line longer than `max` bytes; its first bytes for the record.
    TooLong {
        /// Bytes of it seen when the limit was passed.
        len: usize,
        /// The start of it.
        start: String,
    },
}

/// A bounded line reader.
#[derive(Debug)]
pub struct LineReader<R> {
    reader: BufReader<R>,
    max: usize,
    pending: Vec<u8>,
    /// Inside an overlong line already reported: skip to its end.
    skipping: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Reads lines of at most `max` bytes from `inner`.
    pub fn new(inner: R, max: usize) -> LineReader<R> {
        LineReader {
            reader: BufReader::with_capacity(16 * 1024, inner),
            max,
            pending: Vec::new(),
            skipping: false,
        }
    }

    /// The next line, or `None` at the end of the stream. A line longer
    /// than the limit is reported as soon as the limit is passed (its end
    /// may never come); the rest of it is skipped by later calls.
    pub async fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        loop {
            let buf = self.reader.fill_buf().await?;
            if buf.is_empty() {
                if self.pending.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.text()));
            }
            let newline = buf.iter().position(|&b| b == b'\n');
            let chunk = &buf[..newline.unwrap_or(buf.len())];
            let used = chunk.len() + usize::from(newline.is_some());
            if self.skipping {
                // Skipping the rest of an overlong line.
                self.reader.consume(used);
                if newline.is_some() {
                    self.skipping = false;
                }
                continue;
            }
            if self.pending.len() + chunk.len() > self.max {
                let len = self.pending.len() + chunk.len();
                let room = self.max.saturating_sub(self.pending.len()).min(80);
                self.pending
                    .extend_from_slice(&chunk[..room.min(chunk.len())]);
                let start = String::from_utf8_lossy(&self.pending[..self.pending.len().min(80)])
                    .into_owned();
                self.pending.clear();
                self.skipping = newline.is_none();
                self.reader.consume(used);
                return Ok(Some(Line::TooLong { len, start }));
            }
            self.pending.extend_from_slice(chunk);
            self.reader.consume(used);
            if newline.is_some() {
                return Ok(Some(self.text()));
            }
        }
    }

    fn text(&mut self) -> Line {
        let mut text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        if text.ends_with('\r') {
            text.pop();
        }
        Line::Text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(bytes: &[u8], max: usize) -> Vec<Line> {
        let mut r = LineReader::new(bytes, max);
        let mut out = Vec::new();
        while let Some(line) = r.next_line().await.unwrap() {
            out.push(line);
        }
        out
    }

    #[tokio::test]
    async fn splits_lines_and_strips_cr() {
        let lines = all(b"a\r\nbb\n\nlast", 10).await;
        let text = |s: &str| Line::Text(s.to_owned());
        assert_eq!(lines, vec![text("a"), text("bb"), text(""), text("last")]);
    }

    #[tokio::test]
    async fn overlong_lines_are_reported_and_discarded() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"\nok\n");
        let lines = all(&input, 1000).await;
        assert!(
            matches!(&lines[0], Line::TooLong { len, .. } if *len > 1000),
            "{lines:?}"
        );
        assert_eq!(lines[1], Line::Text("ok".to_owned()));
        assert_eq!(lines.len(), 2);
    }

    #[tokio::test]
    async fn an_endless_line_is_reported_before_its_end() {
        // A reader that never ends: the report must come without an end.
        let endless = tokio::io::repeat(b'y');
        let mut r = LineReader::new(endless, 4096);
        let line = r.next_line().await.unwrap().unwrap();
        assert!(matches!(line, Line::TooLong { .. }));
    }
}
