//! A bot's stderr past its log's cap: drained without being read. A bot
//! may write its stderr as fast as it can; once its log is full nothing
//! of it is kept, but reading it still cost the arbiter the kernel's copy
//! of every byte into its memory and a wake-up per pipe full, about a
//! second of CPU per GiB (docs/sandbox.md). So the rest of the stream is
//! moved to `/dev/null` with `splice`, which hands the pipe's pages over
//! and copies nothing, and only counted. What is left is the wake-ups: a
//! drain that wakes at every write of a fast writer spends as much as the
//! reads did. So after each `splice` the drain waits [`PAUSE`], and the
//! pipe, made 1 MiB where the kernel allows so large a pipe, fills
//! meanwhile (the bot waits on a full pipe, as on any slow reader): at
//! most a hundred wake-ups a second, whatever the flood. What the bot
//! wrote past the cap is never seen: its last words are those it wrote
//! before.

use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};

use tokio::io::unix::AsyncFd;
use tokio::io::Interest;

/// Bytes one `splice` moves at most, and the pipe's size asked for.
const CHUNK: usize = 1 << 20;
/// The wait after each `splice`.
const PAUSE: std::time::Duration = std::time::Duration::from_millis(10);

/// Moves everything left in the pipe `fd` to `/dev/null`, to its end;
/// returns how many bytes that was.
pub(crate) async fn discard(fd: OwnedFd) -> std::io::Result<u64> {
    let null = File::options().write(true).open("/dev/null")?;
    // SAFETY: fcntl on a descriptor this function owns, integer arguments.
    unsafe {
        let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        // Refused past the user's pipe pages or `pipe-max-size`: the pipe
        // keeps its size, and the drain only wakes more often.
        libc::fcntl(fd.as_raw_fd(), libc::F_SETPIPE_SZ, CHUNK as libc::c_int);
    }
    // SAFETY: an OwnedFd's descriptor stays open, the same one, for as
    // long as it is owned, here by the AsyncFd.
    let fd = unsafe { AsyncFd::register_with_interest(fd, Interest::READABLE) }
        .map_err(std::io::Error::from)?;
    let mut moved = 0u64;
    loop {
        let mut ready = fd.readable().await?;
        let spliced = ready.try_io(|fd| {
            // SAFETY: splice between two descriptors alive for the call,
            // no offsets (both are a pipe and a character device).
            let n = unsafe {
                libc::splice(
                    fd.as_raw_fd(),
                    std::ptr::null_mut(),
                    null.as_raw_fd(),
                    std::ptr::null_mut(),
                    CHUNK,
                    libc::SPLICE_F_NONBLOCK | libc::SPLICE_F_MOVE,
                )
            };
            match n {
                n if n < 0 => Err(std::io::Error::last_os_error()),
                n => Ok(n as u64),
            }
        });
        match spliced {
            Ok(Ok(0)) => return Ok(moved),
            Ok(Ok(n)) => {
                moved += n;
                drop(ready);
                tokio::time::sleep(PAUSE).await;
            }
            Ok(Err(e)) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Ok(Err(e)) => return Err(e),
            // Nothing there yet: wait for the next write.
            Err(_would_block) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::FromRawFd;

    /// The bytes this thread has read with `read` and its kin.
    fn read_by_this_thread() -> u64 {
        let io = std::fs::read_to_string("/proc/thread-self/io").unwrap();
        let line = io.lines().find(|l| l.starts_with("rchar:")).unwrap();
        line["rchar:".len()..].trim().parse().unwrap()
    }

    #[test]
    fn a_flood_is_drained_to_its_end_without_being_read() {
        let mut ends = [0; 2];
        // SAFETY: pipe2 fills the two descriptors, owned from here on.
        assert_eq!(
            unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) },
            0
        );
        // SAFETY: descriptors just made and owned by no one else.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(ends[0]), File::from_raw_fd(ends[1])) };
        let total: u64 = 64 << 20;
        let writer = std::thread::spawn(move || {
            let mut write = write;
            let block = vec![b'x'; 64 * 1024];
            for _ in 0..total / block.len() as u64 {
                write.write_all(&block).unwrap();
            }
        });
        // On this thread alone, so that its count of bytes read is the
        // drain's.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .unwrap();
        let before = read_by_this_thread();
        let moved = runtime.block_on(discard(read)).unwrap();
        let read = read_by_this_thread() - before;
        writer.join().unwrap();
        assert_eq!(moved, total);
        // A read of each byte would count 64 MiB; what is left is the
        // count of opening /dev/null and such, a few bytes.
        assert!(read < 64 * 1024, "{read} bytes read");
    }
}
