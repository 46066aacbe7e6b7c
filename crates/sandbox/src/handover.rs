//! Handing the arbiter's pipes over to the bot alone.
//!
//! The helper and the init inherit the bot's stdin, stdout and stderr by
//! `fork` and give them up (to `/dev/null`) once the bot has its copies.
//! Until they have, the pipes have a second holder: a bot that closes its
//! input is not seen to (the arbiter's writes still succeed), and a bot
//! that exits is not seen to close its output. On a loaded machine, or in
//! a cgroup whose CPU share is spent, the parent of a `fork` may not run
//! again for hundreds of milliseconds, long enough for the bot to start,
//! answer its handshake and close a pipe. So the bot waits for a
//! [`Baton`]: each parent gives up its standard descriptors, then passes
//! the baton to its child, and the bot runs only once it holds it. It
//! costs two pipe writes and reads per bot start.

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};

/// A one-byte pipe from a parent to the child it is about to fork.
pub(crate) struct Baton {
    read: OwnedFd,
    write: OwnedFd,
}

impl Baton {
    /// A new baton, to be made before the `fork` (close-on-exec both ways,
    /// so the bot's program never inherits it).
    pub(crate) fn new() -> Result<Baton, String> {
        let (read, write) =
            nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(|e| format!("pipe: {e}"))?;
        Ok(Baton { read, write })
    }

    /// The parent's side: gives up the standard descriptors, then passes
    /// the baton.
    pub(crate) fn pass(self) {
        drop(self.read);
        quiet_stdio();
        let _ = std::fs::File::from(self.write).write_all(&[1]);
    }

    /// The child's side: waits until the parent has passed the baton (an
    /// error if the parent died first).
    pub(crate) fn receive(self) -> Result<(), String> {
        drop(self.write);
        let mut byte = [0u8];
        match std::fs::File::from(self.read).read_exact(&mut byte) {
            Ok(()) => Ok(()),
            Err(e) => Err(format!("the sandbox's parent process ended first: {e}")),
        }
    }
}

/// Hands stdin, stdout and stderr over to `/dev/null`, so only the bot
/// holds the arbiter's pipes.
fn quiet_stdio() {
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        for fd in 0..3 {
            // SAFETY: dup2 onto the standard descriptors, which we own.
            unsafe { libc::dup2(null.as_raw_fd(), fd) };
        }
    }
}
