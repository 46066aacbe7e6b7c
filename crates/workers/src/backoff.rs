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
//!
//! [`hold`] is the whole of a short hold: open, lock, work, unlock, close.
//! It lets go of the lock by an explicit unlock once the work is done
//! (for the log, written and synced), not when the file is closed: the
//! release then does not wait on every descriptor of the open file being
//! closed (one inherited by a child forked mid-write, until it execs), and
//! an unlock the server refuses (`EIO`, `ENOLCK` once the lease is lost)
//! is an error with its errno, which the caller takes for a lost claim as
//! any other (see [`crate::lost`]).
//!
//! # One thread of a process at the lock
//!
//! Threads of one process that open a file each conflict on its `flock` as
//! separate processes do, so when many workers run as threads of one
//! process (`aboure bench workers`: 1,000 of them), they all contended for
//! the lock of `finished.log` from one NFS client. A stalled run of the
//! bench on NFS made about 12,900 LOCK calls a second and nothing else,
//! 1,998 of its 2,001 threads in D state (docs/many-machines.md). So
//! [`hold`] first passes a gate of the process, keyed by the file's path:
//! at most one of its threads opens and tries the lock at a time, the others
//! wait on a mutex of the process, which costs no NFS call. This changes
//! nothing of what the lock excludes (the threads exclude each other
//! anyway); it only keeps them from asking the server. The key is the path
//! as given: two spellings of one file (a relative and an absolute path,
//! two mounts) get two gates, and their holders meet at the lock as before.

use std::collections::HashMap;
use std::fs::{File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError, Weak};
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

/// Opens `path` with `open`, takes its exclusive lock (after this
/// process's other threads holding it through `hold`, then by tries as
/// `backoff` says), runs `work` on the file, unlocks it and closes it;
/// `work`'s value and the tries the lock took. An error of the open, the
/// lock, `work` or the unlock is returned with its errno (the first of
/// them); a lock still held by others after `give_up` is `TimedOut`,
/// naming the file.
pub fn hold<T>(
    path: &Path,
    backoff: Backoff,
    open: impl FnOnce(&Path) -> io::Result<File>,
    work: impl FnOnce(&File) -> io::Result<T>,
) -> io::Result<(T, u32)> {
    let gate = Gate::of(path);
    let _through = gate.enter();
    let file = open(path)?;
    let tries = lock(&file, backoff).map_err(|e| match e.kind() {
        io::ErrorKind::TimedOut => {
            io::Error::new(e.kind(), format!("the lock of {}: {e}", path.display()))
        }
        _ => e,
    })?;
    let done = work(&file);
    // Before the close, and before the next thread goes through the gate.
    let unlocked = file.unlock();
    drop(file);
    let value = done?;
    unlocked?;
    Ok((value, tries))
}

/// The way of one process's threads to a file's lock (see the module's
/// doc).
#[derive(Debug, Default)]
struct Gate {
    through: Mutex<()>,
    /// Threads waiting at the gate, for the tests.
    waiting: AtomicUsize,
}

/// The gates of the process by path, while a thread holds them: a gate
/// nobody holds is dropped, so a long-lived process that works on many
/// folders keeps none of the old ones.
static GATES: LazyLock<Mutex<HashMap<PathBuf, Weak<Gate>>>> = LazyLock::new(Default::default);

impl Gate {
    /// The gate of `path`, made if no thread holds it.
    fn of(path: &Path) -> Arc<Gate> {
        let mut gates = GATES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(gate) = gates.get(path).and_then(Weak::upgrade) {
            return gate;
        }
        gates.retain(|_, gate| gate.strong_count() > 0);
        let gate = Arc::new(Gate::default());
        gates.insert(path.to_owned(), Arc::downgrade(&gate));
        gate
    }

    /// Waits until no other thread is through the gate. A thread that
    /// panicked through it left nothing to repair: the gate guards no data.
    fn enter(&self) -> std::sync::MutexGuard<'_, ()> {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let through = self.through.lock().unwrap_or_else(PoisonError::into_inner);
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        through
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::OpenOptions;
    use std::sync::mpsc;

    fn open(path: &Path) -> io::Result<File> {
        OpenOptions::new().create(true).append(true).open(path)
    }

    /// Threads waiting at `path`'s gate.
    fn waiting(path: &Path) -> usize {
        Gate::of(path).waiting.load(Ordering::SeqCst)
    }

    #[test]
    fn a_second_thread_waits_at_the_gate_and_tries_the_lock_only_once_the_first_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        // Without the gate, the second would give up while the first holds.
        let quick = Backoff {
            first: Duration::from_millis(1),
            most: Duration::from_millis(4),
            give_up: Duration::from_millis(50),
        };
        let (held, go) = (mpsc::channel(), mpsc::channel::<()>());
        let first = {
            let path = path.clone();
            std::thread::spawn(move || {
                hold(&path, quick, open, |_| {
                    held.0.send(()).unwrap();
                    go.1.recv().unwrap();
                    Ok(())
                })
            })
        };
        held.1.recv().unwrap();
        let second = {
            let path = path.clone();
            std::thread::spawn(move || hold(&path, quick, open, |_| Ok(())))
        };
        // Parked at the gate, or (with no gate) done trying.
        while waiting(&path) == 0 && !second.is_finished() {
            std::thread::sleep(Duration::from_millis(1));
        }
        go.0.send(()).unwrap();
        assert_eq!(first.join().unwrap().unwrap(), ((), 1));
        let second = second.join().unwrap();
        assert_eq!(
            second.as_ref().map(|&(_, tries)| tries).ok(),
            Some(1),
            "the second tried the lock once, after the first: {second:?}"
        );
    }

    #[test]
    fn the_lock_is_let_go_after_the_work_though_another_descriptor_keeps_the_file_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        // As a child forked mid-write keeps it, until it execs.
        let mut kept = None;
        hold(&path, SHORT_HOLDS, open, |file| {
            kept = Some(file.try_clone()?);
            Ok(())
        })
        .unwrap();
        assert!(kept.is_some());
        let other = File::open(&path).unwrap();
        assert!(
            other.try_lock().is_ok(),
            "the lock is free once the work is done"
        );
    }

    #[test]
    fn a_timeout_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let holder = open(&path).unwrap();
        holder.lock().unwrap();
        let quick = Backoff {
            first: Duration::from_millis(1),
            most: Duration::from_millis(2),
            give_up: Duration::from_millis(10),
        };
        let err = hold(&path, quick, open, |_| Ok(())).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
    }

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
