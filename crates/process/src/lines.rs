//! Reading a bot's output line by line with a bound on line length, so a
//! bot that prints hundreds of megabytes without a newline costs a fixed
//! amount of memory: the overlong line is reported as soon as the bound is
//! passed (its end may never come) and its bytes are discarded.
//!
//! The reading happens on a task of its own, which stamps each line with the
//! instant it was read: a reply's time is taken where the line arrives, not
//! when the game task is next polled (a busy runtime worker would charge its
//! delay to the bot). The task hands lines over through a small bounded
//! channel, so a bot that floods its output is slowed by its own full pipe
//! instead of growing the arbiter's memory.
//!
//! The lines go over in batches: every complete line already read when the
//! first one is found. One line at a time cost a wake-up of the other task
//! per line, several microseconds each, which made a bot that floods short
//! `info` lines take half a core of the arbiter's (the game task and the
//! reader woke each other for each line).
//!
//! Blank lines (empty, or a lone `\r`) say nothing and are not handed over
//! at all: the reader counts their bytes and adds them to the next line's
//! [`Arrival::blank`], so the bound on a move's output still counts them,
//! and a run of them costs a scan of the bytes rather than the handling of
//! a line each. A bot that wrote 3 MiB of empty lines at each move took
//! about 4 s of the arbiter's CPU in four games, beside another game's bot
//! (an outside attack). A run of blank lines that fills the buffer is
//! handed over as one empty line, so a flood of nothing but newlines
//! still meets the bound.

use std::collections::VecDeque;
use std::time::Instant;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Longest line accepted from a bot, in bytes (the protocol's limit).
pub const MAX_LINE: usize = 64 * 1024;

/// Batches read ahead of the consumer at most: with [`BATCH`],
/// [`MAX_LINE`] and the buffer's size, a bound on the memory one bot's
/// output can take.
const READ_AHEAD: usize = 16;

/// Lines handed over at once, at most.
const BATCH: usize = 256;

/// Bytes read from the pipe at once, at most.
const BUFFER: usize = 64 * 1024;

/// What came out of the bot's standard output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// A line of at most [`MAX_LINE`] bytes, without its `\n` or `\r\n`
    /// (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`]; its first bytes for the record.
    TooLong {
        /// Bytes of it seen when the limit was passed.
        len: usize,
        /// The start of it.
        start: String,
    },
    /// The end of the output (the bot closed it or exited), or the error
    /// that ended the reading.
    Closed(Option<String>),
}

/// One piece of output and when it was read.
#[derive(Clone, Debug)]
pub struct Arrival {
    /// When the reader had the whole line.
    pub at: Instant,
    /// The line, or the end of the output.
    pub output: Output,
    /// Bytes of blank lines read just before it, not handed over.
    pub blank: usize,
}

/// The lines of one stream, read ahead on their own task.
#[derive(Debug)]
pub(crate) struct Lines {
    receiver: mpsc::Receiver<Vec<Arrival>>,
    /// The rest of the last batch received.
    ready: VecDeque<Arrival>,
    reader: JoinHandle<()>,
    closed: bool,
}

impl Lines {
    /// Starts reading `stream` on a task of its own.
    pub(crate) fn spawn<R: AsyncRead + Unpin + Send + 'static>(stream: R) -> Lines {
        let (sender, receiver) = mpsc::channel(READ_AHEAD);
        let reader = tokio::spawn(read(LineReader::new(stream, MAX_LINE), sender));
        Lines {
            receiver,
            ready: VecDeque::new(),
            reader,
            closed: false,
        }
    }

    /// The next piece of output, or `None` if nothing came by `deadline`.
    /// After the end of the output, `Closed` at once, every time.
    /// Cancellation-safe.
    pub(crate) async fn next(&mut self, deadline: Instant) -> Option<Arrival> {
        if let Some(arrival) = self.ready() {
            return Some(arrival);
        }
        let batch = tokio::time::timeout_at(deadline.into(), self.receiver.recv()).await;
        self.take(batch.ok()?)
    }

    /// The next piece of output if it has already been read.
    pub(crate) fn try_next(&mut self) -> Option<Arrival> {
        if let Some(arrival) = self.ready() {
            return Some(arrival);
        }
        match self.receiver.try_recv() {
            Ok(batch) => self.take(Some(batch)),
            Err(mpsc::error::TryRecvError::Empty) => None,
            Err(mpsc::error::TryRecvError::Disconnected) => self.take(None),
        }
    }

    /// A line of the batch at hand, or `Closed` after the end.
    fn ready(&mut self) -> Option<Arrival> {
        if let Some(arrival) = self.ready.pop_front() {
            if matches!(arrival.output, Output::Closed(_)) {
                self.closed = true;
            }
            return Some(arrival);
        }
        self.closed.then(closed)
    }

    fn take(&mut self, batch: Option<Vec<Arrival>>) -> Option<Arrival> {
        match batch {
            Some(batch) => self.ready.extend(batch),
            None => self.ready.push_back(closed()),
        }
        self.ready()
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        // A helper the bot started may hold the pipe open without writing:
        // the task must not wait for it.
        self.reader.abort();
    }
}

fn closed() -> Arrival {
    Arrival {
        at: Instant::now(),
        output: Output::Closed(None),
        blank: 0,
    }
}

async fn read<R: AsyncRead + Unpin>(mut reader: LineReader<R>, sender: mpsc::Sender<Vec<Arrival>>) {
    loop {
        let (output, mut last) = match reader.next_line().await {
            Ok(Some(output)) => (output, false),
            Ok(None) => (Output::Closed(None), true),
            Err(e) => (Output::Closed(Some(e.to_string())), true),
        };
        let mut outputs = vec![(output, reader.take_blank())];
        while !last && outputs.len() < BATCH {
            match reader.buffered_line() {
                Some(output) => outputs.push((output, reader.take_blank())),
                None => break,
            }
        }
        let at = Instant::now();
        let batch = outputs
            .into_iter()
            .map(|(output, blank)| Arrival { at, output, blank })
            .collect();
        last |= sender.send(batch).await.is_err();
        if last {
            return;
        }
    }
}

/// A bounded line reader. All state lives in it, so `next_line` can be
/// cancelled without losing data.
#[derive(Debug)]
struct LineReader<R> {
    reader: BufReader<R>,
    max: usize,
    pending: Vec<u8>,
    /// Inside an overlong line already reported: skip to its end.
    skipping: bool,
    /// Bytes of blank lines skipped since the last line returned.
    blank: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// Reads lines of at most `max` bytes from `inner`.
    fn new(inner: R, max: usize) -> LineReader<R> {
        LineReader {
            reader: BufReader::with_capacity(BUFFER, inner),
            max,
            pending: Vec::new(),
            skipping: false,
            blank: 0,
        }
    }

    /// The bytes of blank lines skipped before the line last returned.
    fn take_blank(&mut self) -> usize {
        std::mem::take(&mut self.blank)
    }

    /// The next line, or `None` at the end of the stream. A line longer
    /// than the limit is reported as soon as the limit is passed (its end
    /// may never come); the rest of it is skipped by later calls.
    async fn next_line(&mut self) -> std::io::Result<Option<Output>> {
        loop {
            if let Some(output) = self.buffered_line() {
                return Ok(Some(output));
            }
            if self.reader.fill_buf().await?.is_empty() {
                if self.pending.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.text()));
            }
        }
    }

    /// The next line out of the bytes already read, without reading more:
    /// `None` once they are used up (the start of a line kept in
    /// `pending`).
    fn buffered_line(&mut self) -> Option<Output> {
        loop {
            let buf = self.reader.buffer();
            if buf.is_empty() {
                // A buffer of nothing but blank lines goes over as one.
                return (self.blank >= BUFFER).then(|| Output::Line(String::new()));
            }
            let newline = buf.iter().position(|&b| b == b'\n');
            let chunk = &buf[..newline.unwrap_or(buf.len())];
            let used = chunk.len() + usize::from(newline.is_some());
            let blank =
                newline.is_some() && self.pending.is_empty() && matches!(chunk, b"" | b"\r");
            if blank && !self.skipping {
                self.blank += used;
                self.reader.consume(used);
                continue;
            }
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
                return Some(Output::TooLong { len, start });
            }
            self.pending.extend_from_slice(chunk);
            self.reader.consume(used);
            if newline.is_some() {
                return Some(self.text());
            }
        }
    }

    fn text(&mut self) -> Output {
        let mut text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        if text.ends_with('\r') {
            text.pop();
        }
        Output::Line(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn all(bytes: &[u8], max: usize) -> Vec<Output> {
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
        let text = |s: &str| Output::Line(s.to_owned());
        assert_eq!(lines, vec![text("a"), text("bb"), text("last")]);
    }

    #[tokio::test]
    async fn blank_lines_are_counted_not_handed_over() {
        let mut input = b"\n\r\n\nbestmove 3\n".to_vec();
        // More blank lines than a buffer holds, then the end.
        input.extend(std::iter::repeat_n(b'\n', 3 * BUFFER));
        let mut lines = Lines::spawn(std::io::Cursor::new(input));
        let mut arrivals = Vec::new();
        while let Some(batch) = lines.receiver.recv().await {
            arrivals.extend(batch.into_iter().map(|a| (a.output, a.blank)));
        }
        assert_eq!(arrivals[0], (Output::Line("bestmove 3".to_owned()), 4));
        // The flood goes over as empty lines of a buffer's worth each,
        // every byte counted.
        let rest = &arrivals[1..arrivals.len() - 1];
        assert!(rest.iter().all(|(o, _)| *o == Output::Line(String::new())));
        assert!(rest.len() <= 3, "{}", rest.len());
        let counted: usize = arrivals.iter().map(|(_, blank)| blank).sum();
        assert_eq!(counted, 4 + 3 * BUFFER);
        assert_eq!(arrivals.last().unwrap().0, Output::Closed(None));
    }

    #[tokio::test]
    async fn overlong_lines_are_reported_and_discarded() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"\nok\n");
        let lines = all(&input, 1000).await;
        assert!(
            matches!(&lines[0], Output::TooLong { len, .. } if *len > 1000),
            "{lines:?}"
        );
        assert_eq!(lines[1], Output::Line("ok".to_owned()));
        assert_eq!(lines.len(), 2);
    }

    #[tokio::test]
    async fn lines_already_read_go_over_together() {
        let text = "info depth 1\n".repeat(1000);
        let mut lines = Lines::spawn(std::io::Cursor::new(text.into_bytes()));
        let (mut batches, mut heard) = (0, 0);
        while let Some(batch) = lines.receiver.recv().await {
            batches += 1;
            heard += batch
                .iter()
                .filter(|a| a.output == Output::Line("info depth 1".to_owned()))
                .count();
        }
        assert_eq!(heard, 1000);
        // 256 lines a batch, then the end: not one wake-up per line.
        assert_eq!(batches, 5);
    }

    #[tokio::test]
    async fn an_endless_line_is_reported_before_its_end() {
        // A reader that never ends: the report must come without an end.
        let endless = tokio::io::repeat(b'y');
        let mut r = LineReader::new(endless, 4096);
        let line = r.next_line().await.unwrap().unwrap();
        assert!(matches!(line, Output::TooLong { .. }));
    }
}
