//! Writing a finished game to the results file so that no failure of the
//! disk loses it silently or records it twice. A failed write (a full disk,
//! `EIO`) is undone by the writer (the file cut back to where it was) and
//! tried again with a doubling pause, each failure logged as an error; if
//! the disk does not recover, or the undo itself failed (so that another
//! line would follow half a line), the run stops with an error that names
//! the game, the file and what the file still holds: every game before it,
//! whole, and `--resume` plays this one again.

use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use aboure_records::{GameRecord, GamesWriter};

use crate::error::RunError;

/// How a write is retried: the number of attempts, and the first pause
/// (doubled after each failure).
#[derive(Clone, Copy, Debug)]
pub struct Retry {
    /// Attempts in all.
    pub attempts: u32,
    /// The pause after the first failure.
    pub first_pause: Duration,
}

/// Six attempts over about six seconds: long enough for a log rotation or
/// a cleanup to free space, short enough that a dead disk stops the run
/// before the next games pile up.
pub const RETRY: Retry = Retry {
    attempts: 6,
    first_pause: Duration::from_millis(200),
};

/// Writes `game` with `writer`, retrying as `retry` says. Blocks (the
/// pauses too): call it off the async workers.
pub fn write_result(
    writer: &mut GamesWriter,
    game: &GameRecord,
    retry: Retry,
) -> Result<(), RunError> {
    let path = writer.path().to_owned();
    let before = writer.len();
    let held = || before.as_ref().ok().copied();
    let attempt = || {
        let error = match writer.write(game) {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        // A lost claim is no passing fault: whatever is written next may
        // be another worker's game.
        if aboure_workers::loss(&error).is_some() {
            return Err(Failed::Final(error));
        }
        // Another attempt only if the failed one was undone.
        let undone = matches!((&before, writer.len()), (Ok(a), Ok(b)) if *a == b);
        Err(Failed::Passing { error, undone })
    };
    let lost = |error| {
        let run = path.parent().unwrap_or(&path).to_owned();
        let context = format!("cannot write game {} to {}", game.id, path.display());
        aboure_workers::on_claims(&run, context)(error).into()
    };
    retried((game, &path), retry, held, attempt, lost)
}

/// Runs `op`, a write to the run folder that must succeed before game's
/// result is written (its mark), with the result's own retry when the disk
/// is full (`ENOSPC`, `EDQUOT`), logged as the result's: a mark is part of
/// recording the game. `results` is the worker's results file, named when
/// the disk does not recover; other errors are mapped by `other`.
pub fn with_room<T>(
    game: &GameRecord,
    results: &Path,
    retry: Retry,
    mut op: impl FnMut() -> std::io::Result<T>,
    other: impl FnOnce(std::io::Error) -> RunError,
) -> Result<T, RunError> {
    let held = || std::fs::metadata(results).map(|m| m.len()).ok();
    let attempt = || match op() {
        Ok(done) => Ok(done),
        Err(error) if matches!(error.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT)) => {
            // Nothing of the results file was written: nothing to undo.
            Err(Failed::Passing {
                error,
                undone: true,
            })
        }
        Err(error) => Err(Failed::Final(error)),
    };
    retried((game, results), retry, held, attempt, other)
}

/// How one attempt at recording a game failed.
enum Failed {
    /// Perhaps a passing fault (a full disk): tried again if `undone`,
    /// that is if the results file is as it was before the attempt.
    Passing { error: std::io::Error, undone: bool },
    /// No passing fault: the caller's error, with no other attempt.
    Final(std::io::Error),
}

/// Runs `attempt` until it succeeds, with the pauses and the log lines
/// `retry` says, for `game`, whose results file is `results` (`held`:
/// its length before the first attempt, read only if the game is given
/// up on). An attempt that failed is not tried again if it was not undone
/// or if the retries are spent (a [`RunError::ResultNotWritten`]), or if
/// its error is final (then `stop` maps it).
fn retried<T>(
    (game, results): (&GameRecord, &Path),
    retry: Retry,
    held: impl FnOnce() -> Option<u64>,
    mut attempt: impl FnMut() -> Result<T, Failed>,
    stop: impl FnOnce(std::io::Error) -> RunError,
) -> Result<T, RunError> {
    let t0 = Instant::now();
    let mut pause = retry.first_pause;
    let mut n = 1;
    loop {
        let (error, undone) = match attempt() {
            Ok(done) => {
                if n > 1 {
                    tracing::warn!(game = %game.id, "written to {} at attempt {n}", results.display());
                }
                return Ok(done);
            }
            Err(Failed::Final(error)) => return Err(stop(error)),
            Err(Failed::Passing { error, undone }) => (error, undone),
        };
        if !undone || n >= retry.attempts {
            return Err(RunError::ResultNotWritten {
                game: game.id.clone(),
                path: results.to_owned(),
                attempts: n,
                waited: t0.elapsed(),
                kept: kept(results, held(), undone),
                source: error,
            });
        }
        tracing::error!(
            game = %game.id,
            "cannot write the result to {} (attempt {n} of {}): {error}; trying again in {pause:?}",
            results.display(),
            retry.attempts
        );
        std::thread::sleep(pause);
        pause *= 2;
        n += 1;
    }
}

/// What the results file holds after a game could not be written.
fn kept(path: &Path, before: Option<u64>, undone: bool) -> String {
    let games = before.and_then(|len| lines_in(path, len).ok());
    let held = match games {
        Some(n) => format!("the file holds the {n} games before it, whole"),
        None => "the file holds the games before it".to_owned(),
    };
    if undone {
        format!("{held}; this game is not recorded, and `--resume` plays it again")
    } else {
        format!(
            "{held}, and perhaps part of this one as a cut last line, which `--resume` \
             reports and cuts away before playing it again"
        )
    }
}

/// The number of lines in the first `len` bytes of `path`.
fn lines_in(path: &Path, len: u64) -> std::io::Result<usize> {
    let mut file = std::fs::File::open(path)?.take(len);
    let mut buf = vec![0; 1 << 16];
    let mut lines = 0;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok(lines);
        }
        lines += buf[..n].iter().filter(|&&b| b == b'\n').count();
    }
}
