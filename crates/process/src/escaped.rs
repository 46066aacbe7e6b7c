//! A stranger's bytes as a log an operator reads with `cat`, `tail -f` or
//! `less -R`: a bot's stderr, a build's output. Raw, their escape
//! sequences would reach the operator's terminal (set the clipboard with
//! OSC 52, retitle the window, clear the screen and draw a fake prompt).
//! So they are written as every other output of aboure is, each control
//! character written out by the one rule of [`aboure_report::printable`],
//! each byte that is not UTF-8 as `\xNN` (a lone C1 byte is a control to
//! some terminals), and up to [`STDERR_CAP`] bytes: past it, one line says
//! the rest was discarded, so that a stranger who writes without end does
//! not fill the disk.

/// Stderr kept per bot name before further output is discarded (and a
/// build's output per build: every [`EscapedLog`]).
pub const STDERR_CAP: u64 = 16 * 1024 * 1024;

/// The text of one stream for its log, written out and capped.
#[derive(Debug)]
pub struct EscapedLog {
    /// What the stream is, for the note at the cap (`stderr`).
    what: &'static str,
    /// The start of a character cut at the end of the last chunk.
    pending: Vec<u8>,
    /// Bytes of text handed out, and whether the cap was reached.
    written: u64,
    full: bool,
}

impl EscapedLog {
    /// The log of a stream named `what` in its note at the cap.
    pub fn new(what: &'static str) -> EscapedLog {
        EscapedLog {
            what,
            pending: Vec::new(),
            written: 0,
            full: false,
        }
    }

    /// What to append to the log for `bytes`, the stream's next ones: their
    /// text, up to [`STDERR_CAP`] bytes in all (writing out makes a control
    /// character up to six), then the note once, then nothing. A character
    /// cut at the end waits for the next chunk; an empty chunk, the end of
    /// the stream, writes it out.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        if self.full {
            return String::new();
        }
        self.pending.extend_from_slice(bytes);
        let text = escaped(&mut self.pending, bytes.is_empty());
        self.written += text.len() as u64;
        if self.written > STDERR_CAP {
            return self.cut();
        }
        text
    }

    /// The note that the log is full, once (then nothing).
    pub fn cut(&mut self) -> String {
        if std::mem::replace(&mut self.full, true) {
            return String::new();
        }
        format!(
            "\n[aboure: {} limit of {STDERR_CAP} bytes reached; the rest is discarded]\n",
            self.what
        )
    }
}

/// `bytes` as text safe for a terminal, by the rule of the logs.
pub fn printable_bytes(bytes: &[u8]) -> String {
    escaped(&mut bytes.to_vec(), true)
}

/// `path` as text safe for a terminal, by the rule of the logs: every
/// error that names a path shows it so. A file name in a stranger's
/// folder, or the target a link there holds, is bytes its author chose
/// (an OSC 52 that sets the operator's clipboard, a C1 CSI, U+202E), and
/// a byte that is not UTF-8 shows as `\xNN`, not as a replacement
/// character that would hide which it was. A name is one line: a newline
/// in it is written out too, so it cannot start a forged line of its own.
pub fn printable_path(path: &std::path::Path) -> String {
    use std::os::unix::ffi::OsStrExt as _;
    printable_bytes(path.as_os_str().as_bytes()).replace('\n', "\\u{a}")
}

/// The text of `bytes` safe for a terminal: each control character and
/// direction mark written out ([`aboure_report::printable`]), each byte
/// that is not UTF-8 as `\xNN`. A character cut at the end stays in
/// `bytes` for the next chunk, unless `last`.
fn escaped(bytes: &mut Vec<u8>, last: bool) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(bytes.len());
    let mut rest = &bytes[..];
    let kept = loop {
        let (good, error) = match std::str::from_utf8(rest) {
            Ok(text) => (text, None),
            Err(e) => (
                std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
                Some(e),
            ),
        };
        out.push_str(&aboure_report::printable(good));
        let Some(e) = error else { break 0 };
        let bad = &rest[e.valid_up_to()..];
        let n = match e.error_len() {
            Some(n) => n,
            None if !last => break bad.len(),
            None => bad.len(),
        };
        for b in &bad[..n] {
            let _ = write!(out, "\\x{b:02x}");
        }
        rest = &bad[n..];
    };
    let cut = bytes.len() - kept;
    bytes.drain(..cut);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_written_out_across_chunks() {
        let mut pending = b"a\x1b]52;c;eA==\x07b\xe2\x80".to_vec();
        assert_eq!(escaped(&mut pending, false), "a\\u{1b}]52;c;eA==\\u{7}b");
        // The rest of U+202E, a C1 CSI, a byte that is not UTF-8.
        pending.extend_from_slice(b"\xaex\xc2\x9b2J\xff\n\t");
        assert_eq!(escaped(&mut pending, false), "\\u{202e}x\\u{9b}2J\\xff\n\t");
        pending.extend_from_slice(b"\xe2");
        assert_eq!(escaped(&mut pending, false), "");
        assert_eq!(escaped(&mut pending, true), "\\xe2");
        assert!(pending.is_empty());
        assert_eq!(printable_bytes(b"\x1b[2J\xc2"), "\\u{1b}[2J\\xc2");
    }

    #[test]
    fn a_path_is_written_out_byte_for_byte() {
        use std::os::unix::ffi::OsStrExt as _;
        let name = b"../\x1b]52;c;eA==\x07\xc2\x9b2J\xe2\x80\xae\x9b/book";
        let path = std::path::Path::new(std::ffi::OsStr::from_bytes(name));
        assert_eq!(
            printable_path(path),
            "../\\u{1b}]52;c;eA==\\u{7}\\u{9b}2J\\u{202e}\\x9b/book"
        );
        assert_eq!(printable_path("/srv/bots/a b".as_ref()), "/srv/bots/a b");
        assert_eq!(
            printable_path("x\naboure: built".as_ref()),
            "x\\u{a}aboure: built"
        );
    }

    #[test]
    fn the_log_stops_at_the_cap_with_one_note() {
        let mut log = EscapedLog::new("build output");
        assert_eq!(log.push(b"hello \x07\n"), "hello \\u{7}\n");
        let fill = vec![b'x'; STDERR_CAP as usize - 14];
        assert_eq!(log.push(&fill).len(), fill.len());
        // The cap's last byte, then a bell that, written out, no longer fits.
        assert_eq!(log.push(b"y"), "y");
        assert_eq!(
            log.push(b"\x07"),
            format!(
                "\n[aboure: build output limit of {STDERR_CAP} bytes reached; the rest is \
                 discarded]\n"
            )
        );
        assert_eq!(log.push(b"more\n"), "");
        assert_eq!(log.cut(), "");
        assert_eq!(log.push(&[]), "");
    }
}
