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
        /// Its length in bytes.
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
    overlong: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Reads lines of at most `max` bytes from `inner`.
    pub fn new(inner: R, max: usize) -> LineReader<R> {
        LineReader {
            reader: BufReader::with_capacity(16 * 1024, inner),
            max,
            pending: Vec::new(),
            overlong: 0,
        }
    }

    fn take(&mut self, bytes: &[u8]) {
        if self.overlong > 0 {
            self.overlong += bytes.len();
        } else if self.pending.len() + bytes.len() > self.max {
            self.overlong = self.pending.len() + bytes.len();
            self.pending.truncate(80);
        } else {
            self.pending.extend_from_slice(bytes);
        }
    }

    fn finish(&mut self) -> Line {
        let line = if self.overlong > 0 {
            Line::TooLong {
                len: self.overlong,
                start: String::from_utf8_lossy(&self.pending[..self.pending.len().min(80)])
                    .into_owned(),
            }
        } else {
            let mut text = String::from_utf8_lossy(&self.pending).into_owned();
            if text.ends_with('\r') {
                text.pop();
            }
            Line::Text(text)
        };
        self.pending.clear();
        self.overlong = 0;
        line
    }

    /// The next line, or `None` at the end of the stream.
    pub async fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        loop {
            let buf = self.reader.fill_buf().await?;
            if buf.is_empty() {
                if self.pending.is_empty() && self.overlong == 0 {
                    return Ok(None);
                }
                return Ok(Some(self.finish()));
            }
            if let Some(i) = buf.iter().position(|&b| b == b'\n') {
                let chunk = buf[..i].to_vec();
                self.reader.consume(i + 1);
                self.take(&chunk);
                return Ok(Some(self.finish()));
            }
            let chunk = buf.to_vec();
            self.reader.consume(chunk.len());
            self.take(&chunk);
        }
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
        assert!(matches!(&lines[0], Line::TooLong { len: 100_000, .. }));
        assert_eq!(lines[1], Line::Text("ok".to_owned()));
    }
}
