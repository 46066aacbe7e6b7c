//! A build's output (stdout and stderr together), read from a pipe while
//! the build runs: written to its log as a bot's stderr is
//! ([`aboure_process::EscapedLog`]: each control character written out,
//! the stderr log's cap, the rest read and discarded), and its end kept
//! for the error of a failed build, each line quoted.
//!
//! Why not the log file itself as the build's output: a stranger's build
//! would write into it raw (OSC 52 sets the clipboard of whoever `cat`s
//! the log; its failure, quoted raw on the terminal, would do the same
//! there), and as much as `file-size` allows (1 GiB) per build, per
//! `--resume`, per worker, in the results folder, where no `write-size`
//! counts it.
//!
//! One thread reads and waits: the pipe is polled a tenth of a second at
//! a time, between looks at the build's exit. Once the build has exited,
//! what the pipe holds is read, and nothing more is waited for: outside
//! the sandbox, a helper the build left running may hold the pipe open
//! for ever.

use std::fs::File;
use std::io::{PipeReader, Read, Write};
use std::os::fd::AsRawFd;
use std::time::Duration;

use aboure_process::{printable_bytes, EscapedLog, QUOTE_PREFIX};

/// How much of a failed build's output its error quotes, at most.
const TAIL_LINES: usize = 20;
/// The same, in bytes.
const TAIL_BYTES: usize = 4096;
/// Bytes read at once.
const CHUNK: usize = 64 * 1024;
/// Bytes read once the build has exited, at most: what its pipe can hold
/// (1 MiB is `/proc/sys/fs/pipe-max-size`'s default, as large as an
/// unprivileged process may make a pipe), while a helper it left running
/// may write for ever.
const AFTER_EXIT: usize = 1024 * 1024;

/// The reading end of a build's output.
pub(crate) struct Output {
    /// `None` once the output has ended (or could not be read).
    pipe: Option<PipeReader>,
    log: File,
    text: EscapedLog,
    /// The last [`TAIL_BYTES`] bytes, and whether bytes before them were
    /// dropped.
    tail: Vec<u8>,
    cut: bool,
    buffer: Vec<u8>,
}

impl Output {
    /// The output read from `pipe`, logged in `log`.
    pub(crate) fn new(pipe: PipeReader, log: File) -> Output {
        Output {
            pipe: Some(pipe),
            log,
            text: EscapedLog::new("build output"),
            tail: Vec::new(),
            cut: false,
            buffer: vec![0; CHUNK],
        }
    }

    /// Reads what comes within `wait` (returning as soon as some came), or
    /// sleeps `wait` if the output has ended.
    pub(crate) fn read_for(&mut self, wait: Duration) {
        match &self.pipe {
            Some(pipe) if ready(pipe, wait) => {
                self.read_once();
            }
            Some(_) => {}
            None => std::thread::sleep(wait),
        }
    }

    /// Reads what the pipe holds now (up to [`AFTER_EXIT`] bytes), ends
    /// the log, and returns the end of the output, quoted.
    pub(crate) fn finish(mut self) -> String {
        let mut read = 0;
        while read < AFTER_EXIT {
            match &self.pipe {
                Some(pipe) if ready(pipe, Duration::ZERO) => read += self.read_once().max(1),
                _ => break,
            }
        }
        let rest = self.text.push(&[]);
        let _ = self.log.write_all(rest.as_bytes());
        quote(&self.tail, self.cut)
    }

    /// One read: its bytes to the log and the tail. Returns how many; at
    /// the end of the output, or on an error, the pipe is closed (a build
    /// writing more then fails, rather than wait on a pipe nobody reads).
    fn read_once(&mut self) -> usize {
        let Some(pipe) = self.pipe.as_mut() else {
            return 0;
        };
        let n = match pipe.read(&mut self.buffer) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => return 0,
            Err(_) => 0,
        };
        if n == 0 {
            self.pipe = None;
            return 0;
        }
        let bytes = &self.buffer[..n];
        // A write that fails (a full disk) is not the build's fault: the
        // log goes without.
        let _ = self.log.write_all(self.text.push(bytes).as_bytes());
        self.tail.extend_from_slice(bytes);
        if self.tail.len() > TAIL_BYTES {
            let cut = self.tail.len() - TAIL_BYTES;
            self.tail.drain(..cut);
            self.cut = true;
        }
        n
    }
}

/// Whether a read of `pipe` will not block, waiting up to `wait` (its end
/// and its errors count as ready: the read says which).
fn ready(pipe: &PipeReader, wait: Duration) -> bool {
    let mut fd = libc::pollfd {
        fd: pipe.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one pollfd, valid for the call, of a descriptor `pipe` holds
    // open.
    unsafe { libc::poll(&mut fd, 1, ms) > 0 }
}

/// The last [`TAIL_LINES`] lines of `tail` (less its first line if `cut`
/// dropped its start), written out as the logs are, each after
/// [`QUOTE_PREFIX`] so that none reads as one of aboure's own.
fn quote(tail: &[u8], cut: bool) -> String {
    let start = match cut {
        true => tail.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1),
        false => 0,
    };
    let text = printable_bytes(&tail[start..]);
    let lines: Vec<&str> = text.lines().collect();
    let shown = &lines[lines.len().saturating_sub(TAIL_LINES)..];
    match shown.is_empty() {
        true => "(no output)".to_owned(),
        false => (shown.iter().map(|l| format!("{QUOTE_PREFIX}{l}")))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_cut_at_the_front_is_left_out() {
        let text = format!("{}\nend\n", "x".repeat(5000));
        let tail = &text.as_bytes()[text.len() - TAIL_BYTES..];
        assert_eq!(quote(tail, true), "  | end");
        assert_eq!(quote(b"", false), "(no output)");
    }

    #[test]
    fn each_line_is_quoted_and_written_out() {
        let text = b"ok\n\x1b]0;title\x07\xc2\x9b2J\xff\nbuilt x in 1 s\n";
        assert_eq!(
            quote(text, false),
            "  | ok\n  | \\u{1b}]0;title\\u{7}\\u{9b}2J\\xff\n  | built x in 1 s"
        );
    }
}
