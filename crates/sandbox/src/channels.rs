//! Seccomp filters over kernel state that bots share without sharing a
//! file they can write: the locks and the page cache of the files every
//! bot may read (the system's `/usr`, a tournament's shared book), and the
//! kernel's own threads that write dirty pages back.
//!
//! A lock taken on a read-only descriptor is seen by every other process
//! that opens the same file: `flock(LOCK_EX)` held on a shared book made
//! another bot, which takes `LOCK_SH` at each move, lose every game on time
//! (an outside attack), and locks taken and tested on 136 files of `/usr`
//! carried 128 bits a look between bots of games that never met (another).
//! The page cache is shared the same way: a bot that evicts pages of a
//! `/usr` file (`posix_fadvise(POSIX_FADV_DONTNEED)`) and reads chosen ones
//! back sets bits that a bot elsewhere reads with `preadv2(RWF_NOWAIT)`,
//! which fails on a page that is not in memory (a third attack, 128 bits a
//! look).
//!
//! So in a game a lock succeeds and locks nothing: `flock` and the `fcntl`
//! commands that set record locks (`F_SETLK`, `F_SETLKW` and their
//! open-file forms) return 0 without acting, as a filesystem that ignores
//! locks would. No bot then holds a lock anywhere, so testing one
//! (`F_GETLK`, which stays) finds none. The price: a bot's own processes
//! cannot exclude each other by locks during a game. A build keeps its
//! locks (build tools lock their caches), and a build plays no game.
//!
//! The page cache takes advice and reveals nothing through the calls that
//! report it: `posix_fadvise` and `madvise(MADV_COLD, MADV_PAGEOUT)` return
//! 0 without acting (advice may be ignored), `preadv2` and `pwritev2` with
//! `RWF_NOWAIT` fail as on a filesystem without it (`EOPNOTSUPP`),
//! `cachestat` (Linux 6.5) and the kernel's asynchronous I/O (`io_setup`,
//! whose requests carry `RWF_NOWAIT` in memory, out of a filter's reach)
//! fail as on a kernel without them (`ENOSYS`). `mincore` already reports
//! every page of a file the caller cannot write as present. What remains
//! is time: a read of a page that is not in memory is slower, which a
//! receiver can measure (a residual channel, see docs/sandbox.md).
//!
//! Writing back is work of the kernel's flusher threads, which none of a
//! bot's groups is charged for: `sync` and `syncfs` hand them every dirty
//! page of every filesystem (or of one) and wait. A bot that rewrote a
//! 900 MiB mapping at each move and kept a thread in `sync()` took 1.46 s
//! of those threads' CPU in a game, and its opponent's share of a core
//! fell from 0.67 to 0.70 to 0.52 to 0.55 (an outside attack). So in a
//! game both return 0 at once without acting, as on a filesystem with
//! nothing to write. A bot's own `fsync`, `fdatasync`, `msync` and
//! `sync_file_range` stay: they write its own files back in its own time.
//! What remains is the kernel's periodic write-back of a bot's dirty files
//! once they are 30 s old (docs/sandbox.md).

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch,
};

use crate::answer::{answer, fail};
use crate::setup::SetupError;

/// `fcntl` commands that set a record lock: `F_SETLK`, `F_SETLKW`,
/// `F_OFD_SETLK`, `F_OFD_SETLKW` (the same numbers on every 64-bit
/// architecture, where the `64` forms are these).
const SET_LOCK: &[u64] = &[6, 7, 37, 38];

/// `madvise` advice that pushes a mapped file's pages out of memory:
/// `MADV_COLD`, `MADV_PAGEOUT`.
const EVICTING_ADVICE: &[u64] = &[20, 21];

/// `cachestat` (Linux 6.5): a file's pages in memory, by range.
pub const SYS_CACHESTAT: i64 = 451;

/// A rule that holds when argument `arg` (an `int`) is `value`.
fn equal(arg: u8, value: u64) -> Result<SeccompRule, SetupError> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)
        .and_then(|c| SeccompRule::new(vec![c]))
        .map_err(fail)
}

/// What succeeds without acting in a game: locks (`flock`, and `fcntl`
/// for [`SET_LOCK`]) and the write-back of everyone's dirty pages
/// (`sync`, `syncfs`).
fn in_a_game(arch: TargetArch) -> Result<SeccompFilter, SetupError> {
    let set_lock = SET_LOCK
        .iter()
        .map(|&cmd| equal(1, cmd))
        .collect::<Result<Vec<_>, _>>()?;
    let calls = BTreeMap::from([
        (libc::SYS_flock, Vec::new()),
        (libc::SYS_fcntl, set_lock),
        (libc::SYS_sync, Vec::new()),
        (libc::SYS_syncfs, Vec::new()),
    ]);
    answer(arch, calls, 0)
}

/// Advice that would evict pages succeeds without acting.
fn advice(arch: TargetArch) -> Result<SeccompFilter, SetupError> {
    let evicting = EVICTING_ADVICE
        .iter()
        .map(|&advice| equal(2, advice))
        .collect::<Result<Vec<_>, _>>()?;
    let calls = BTreeMap::from([
        (libc::SYS_fadvise64, Vec::new()),
        (libc::SYS_madvise, evicting),
    ]);
    answer(arch, calls, 0)
}

/// Reads and writes that fail on a page not in memory: `preadv2` and
/// `pwritev2` with `RWF_NOWAIT` in their flags (the sixth argument: the
/// offset takes two).
fn no_wait(arch: TargetArch) -> Result<SeccompFilter, SetupError> {
    let nowait = libc::RWF_NOWAIT as u64;
    let flagged = || {
        SeccompCondition::new(
            5,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::MaskedEq(nowait),
            nowait,
        )
        .and_then(|c| SeccompRule::new(vec![c]))
        .map(|rule| vec![rule])
        .map_err(fail)
    };
    let calls = BTreeMap::from([
        (libc::SYS_preadv2, flagged()?),
        (libc::SYS_pwritev2, flagged()?),
    ]);
    answer(arch, calls, libc::EOPNOTSUPP)
}

/// Calls that report what is in memory, refused as unknown.
fn reports(arch: TargetArch) -> Result<SeccompFilter, SetupError> {
    let calls = BTreeMap::from([
        (SYS_CACHESTAT, Vec::new()),
        (libc::SYS_io_setup, Vec::new()),
    ]);
    answer(arch, calls, libc::ENOSYS)
}

/// The architecture the filters are written for: this program's.
pub fn arch() -> Result<TargetArch, SetupError> {
    TargetArch::try_from(std::env::consts::ARCH).map_err(|e| SetupError::Seccomp(e.to_string()))
}

/// Installs the filters over a game's bot, or a build's (`build`: locks
/// and `sync` act).
pub fn install(build: bool) -> Result<(), SetupError> {
    let arch = arch()?;
    let mut filters = vec![advice(arch)?, no_wait(arch)?, reports(arch)?];
    if !build {
        filters.push(in_a_game(arch)?);
    }
    for filter in filters {
        let program = BpfProgram::try_from(filter).map_err(fail)?;
        seccompiler::apply_filter(&program).map_err(|e| SetupError::Seccomp(e.to_string()))?;
    }
    Ok(())
}
