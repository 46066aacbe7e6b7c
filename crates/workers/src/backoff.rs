//! Taking a file's exclusive lock without ever blocking in the kernel:
//! try it, and if another holds it, wait a little and try again, the
//! waits doubling up to a cap and each drawn at random around its value.
//!
//! A blocking `flock` on NFSv4 is a loop in the client: it sends LOCK,
//! gets "denied", waits and sends it again, and while the server recalls
//! a delegation that loop can spin (over a million LOCK calls in six
//! minutes, for about 32 pairs, with the client's threads stuck in D
//! state). A try fails at once instead, and the wait between tries is
//! ours: short while the holder is only writing a line, longer while many
//! contend, never in step with the others (the jitter), and bounded, so a
//! lock that never comes free is an error with the file's name rather
//! than a hung worker.

use std::fs::{File, TryLockError};
use std::io;
use std::time::{Duration, Instant};

use rand::Rng;

/// The first wait, the longest, and how long to try in all.
#[derive(Clone, Copy, Debug)]
pub struct Backoff {
    /// The wait after the first failed try.
    pub first: Duration,
    /// The longest wait between two tries.
    pub most: Duration,
    /// How long to keep trying before giving up.
    pub give_up: Duration,
}

/// For a lock held for one write and one `fsync` at a time: 1 ms,
/// doubling to 100 ms, for up to an hour. Tries are not queued as blocked
/// waiters are, so under a lock busy nearly all the time (a thousand
/// workers on a slow disk) one worker may wait minutes: five minutes was
/// reached in `aboure bench workers` at 1,000 workers on a disk kept busy
/// by builds, so the bound is far above that, and a wait past a minute
/// is said in the log.
pub const SHORT_HOLDS: Backoff = Backoff {
    first: Duration::from_millis(1),
    most: Duration::from_millis(100),
    give_up: Duration::from_secs(3600),
};

/// A wait this long is said in the log (once).
const SAY_AFTER: Duration = Duration::from_secs(60);

/// Takes `file`'s exclusive lock, trying without waiting and backing off
/// as `backoff` says; returns how many tries it took. An error of the lock
/// itself is returned at once; a lock still held after `give_up` is
/// `TimedOut`.
pub fn lock(file: &File, backoff: Backoff) -> io::Result<u32> {
    let start = Instant::now();
    let mut wait = backoff.first;
    let mut tries = 0;
    let mut said = false;
    loop {
        tries += 1;
        match file.try_lock() {
            Ok(()) => return Ok(tries),
            Err(TryLockError::Error(e)) => return Err(e),
            Err(TryLockError::WouldBlock) => {}
        }
        if !said && start.elapsed() >= SAY_AFTER {
            said = true;
            tracing::warn!(
                "waited {:?} for a lock others hold, still trying",
                start.elapsed()
            );
        }
        if start.elapsed() >= backoff.give_up {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the lock was held by others for {:?}", start.elapsed()),
            ));
        }
        std::thread::sleep(wait.mul_f64(rand::thread_rng().gen_range(0.5..1.5)));
        wait = (wait * 2).min(backoff.most);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_held_elsewhere_is_taken_once_let_go_and_one_never_let_go_times_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let holder = File::create(&path).unwrap();
        holder.lock().unwrap();
        let other = File::open(&path).unwrap();
        let quick = Backoff {
            first: Duration::from_millis(1),
            most: Duration::from_millis(4),
            give_up: Duration::from_millis(50),
        };
        let err = lock(&other, quick).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut, "{err}");
        let freed = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            drop(holder);
        });
        let tries = lock(&other, SHORT_HOLDS).unwrap();
        assert!(tries > 1, "it had to wait: {tries} tries");
        freed.join().unwrap();
    }
}
