//! Shared runs: how any number of workers, on any machines, share one run
//! folder.
//!
//! The run folder is a queue of work units (a tournament's game pairs in
//! schedule order, both games of a pair together; a league's pairs in the
//! order its rule chose them), numbered from 0. A worker claims the next unit nobody
//! holds, plays its games, records them, releases the unit and claims
//! another. Any subset of workers may run, in any order, at any time: a
//! unit is free until someone holds it, and a claim lasts exactly as long
//! as its worker lives.
//!
//! # The API, the same for every format
//!
//! A worker joins the run with [`enrol`] (its entry in the roster,
//! `claims/worker-NAME`, locked while it lives), takes units with
//! [`acquire`], checks with [`Claim::still_held`] just before it writes a
//! record, and gives a finished unit back with [`Claim::release`]. Who works
//! on the run is [`roster`]; [`census`] turns it into `workers.json` every
//! 2 s (longer among many), and the others read its brief as the run's
//! pairs finish ([`Pace`]); [`Siblings`] follows what the other workers record. A tournament
//! claims its schedule's game pairs through this, a league the pairs its
//! rule decides; both name the claim files only through this crate
//! ([`unit_file_name`]).
//!
//! # The mechanism: a lock the kernel drops, on a file per unit
//!
//! A claim is an exclusive `flock` on `claims/unit-U` ([`ClaimDir`]). The
//! kernel drops it when the process dies, however it dies (SIGKILL, OOM,
//! `scancel`, a preempted pod), so a dead worker's units are free at once
//! and there is no stale claim to clean up, no lease to renew and no clock
//! to trust: a worker that is only slow (a long game, a loaded node, even
//! a stopped process) keeps its claim, and nobody else plays its unit.
//! Leases were the alternative; they turn "slow" into "dead" after a
//! timeout, so a slow worker that wakes up must be fenced off, and their
//! expiry depends on clocks the workers do not share.
//!
//! Acquiring is three steps ([`Acquire`]): open (creating) the unit's
//! file, try the lock without waiting, and check that the name still
//! points at the locked file. The last step closes the one race of the
//! scheme: a worker that finished a unit removes its file (so the folder
//! holds only the units in flight) while still holding the lock, and
//! another worker that opened the file just before may get the lock of a
//! file no longer in the folder; that lock means nothing, and the check
//! says so. Once a unit is held, the worker reads what the others recorded
//! and plays only the games of the unit not yet recorded anywhere (a
//! worker killed between its two games leaves one to play).
//!
//! # Exactly once
//!
//! A record is written only under the claim, checked again just before
//! the write ([`Claim::still_held`]: the lock is tried again on the held
//! file, which succeeds at once for its holder and fails if another
//! process holds it, and the name must still point at it), and only if
//! no results file holds that game yet. The write is synced before the
//! claim is released, so whoever holds the unit next sees it. On a local
//! filesystem a live process cannot lose its lock, so the check only
//! matters where a lock can be lost behind a process's back: an NFS
//! client cut off from its server for longer than the lease (90 s by
//! default) loses its locks, and Linux then fails the lock calls on that
//! file. The worker that wakes up finds the claim gone (another holds it,
//! or finished and removed it) and drops its game instead of appending a
//! second record. If the one that took the lock has died since, the lock
//! is free again and the file still named: the signatures tell. Every
//! worker appends its name to the claim file as it acquires the unit and
//! again before each write, so a name other than its own last means
//! another worker held the unit meanwhile, and the worker reads every
//! results file before it decides (see the arbiter's tournament queue; the
//! proptest in `sim.rs` models signatures and the log of finished units).
//!
//! # What it needs of the filesystem
//!
//! `flock` that excludes other machines (local filesystems; NFSv4, where
//! Linux maps `flock` to the server's byte-range locks, released when the
//! holder dies or its client stops renewing its lease; CephFS, Lustre
//! with `flock` mounted; a Kubernetes ReadWriteMany volume backed by one
//! of those), and close-to-open consistency for the results files
//! (every NFS version): a worker reopens each sibling's file when it
//! reads it, from the offset it reached. NFSv3 without its lock manager,
//! or a filesystem mounted `nolock` / `local_lock=all`, locks only within
//! one machine: workers on different machines would each think they hold
//! a unit and play it twice.
//!
//! # Which unit next
//!
//! [`candidates`] is pure: units of the window not yet recorded and not
//! seen held, those of the worker's own slice first (`--shard K/N`: unit
//! `u` with `u % N == K - 1`), then the next slices' in turn (K + 1,
//! K + 2, ..., wrapping), so that workers out of their own spread over
//! their neighbours' instead of all knocking on the lowest free unit.
//! When every worker runs, each plays its own slice and they never
//! collide; when some never run, the others take their units. A unit seen
//! held is not tried again until the next probe ([`Ledger`]'s caller
//! decides when), nor one the roster's brief says a live worker holds
//! while it says so, so a worker does not knock on the locks of live
//! workers at every claim.

#![deny(missing_docs)]

use std::io;

mod backoff;
pub mod census;
mod dir;
mod enrol;
mod error;
mod finished;
mod follow;
mod fresh;
mod ledger;
mod lost;
mod marks;
pub mod mount;
mod pace;
mod roster;
#[cfg(test)]
mod sim;
mod slice;
mod tries;

pub use aboure_records::workers::{WorkerEntry, WorkerState};
pub use backoff::{lock as lock_with_backoff, Backoff, SHORT_HOLDS};
pub use dir::{held_unit, unit_file_name, unit_of_file_name, ClaimDir, ClaimFile, CLAIMS_DIR};
pub use enrol::{enrol, Enrolment};
pub use error::Error;
pub use finished::{FinishedLog, FINISHED_LOG};
pub use follow::Siblings;
pub use ledger::Ledger;
pub use lost::{loss, on_claims, taken, Loss, EXIT_CLAIMS_LOST};
pub use marks::{mark_now, RecordMarks, Reservation, ORPHAN_WAIT};
pub use pace::{Pace, FLOOR as PACE_FLOOR, GAMES_PER_READ};
pub use roster::{
    describe as describe_roster, last_signer, roster, signer_name, RosterBrief, WorkerFile,
};
pub use slice::{candidates, Slice};
pub use tries::{Found, Tries, Whose, PHASES};

/// A work unit's number: a game pair's place in a tournament's schedule,
/// a league pair's in the order its rule chose it.
pub type Unit = u64;

/// The claim files of a run, as the protocol sees them. [`ClaimDir`] is the
/// real one; the tests also have an in-memory model.
pub trait ClaimFolder {
    /// An open claim file.
    type Handle;
    /// Opens the claim file of `unit`, creating it if it is absent.
    fn open(&mut self, unit: Unit) -> io::Result<Self::Handle>;
    /// Tries to take (or, for its holder, to keep) the exclusive lock of
    /// `handle` without waiting: true if this handle holds it now.
    fn try_lock(&mut self, handle: &Self::Handle) -> io::Result<bool>;
    /// True if the unit's name still points at `handle`'s file.
    fn linked(&mut self, handle: &Self::Handle) -> io::Result<bool>;
    /// Removes the unit's name (the handle stays open, and locked).
    fn unlink(&mut self, handle: &Self::Handle) -> io::Result<()>;
}

/// A unit held by this worker.
#[derive(Debug)]
pub struct Claim<H> {
    unit: Unit,
    handle: H,
}

impl<H> Claim<H> {
    /// The unit held.
    pub fn unit(&self) -> Unit {
        self.unit
    }

    /// The open claim file.
    pub fn handle(&self) -> &H {
        &self.handle
    }

    /// True if the claim is still this worker's: checked just before a
    /// record is written.
    pub fn still_held<F: ClaimFolder<Handle = H>>(&self, folder: &mut F) -> io::Result<bool> {
        Ok(folder.try_lock(&self.handle)? && folder.linked(&self.handle)?)
    }

    /// Releases a unit whose games are all recorded: its name goes first,
    /// under the lock, so nobody acquires a finished unit by its old file.
    pub fn release<F: ClaimFolder<Handle = H>>(self, folder: &mut F) -> io::Result<()> {
        if self.still_held(folder)? {
            folder.unlink(&self.handle)?;
        }
        Ok(())
    }
}

/// Acquiring a unit, one filesystem operation per step (so the tests can
/// interleave other workers between them).
#[derive(Debug)]
pub enum Acquire<H> {
    /// Open (or create) the unit's file.
    Open(Unit),
    /// Try its lock.
    Lock(Unit, H),
    /// Check that the lock still holds and the name still points at the
    /// locked file.
    Check(Unit, H),
}

/// Where an [`Acquire`] is after a step.
#[derive(Debug)]
pub enum Step<H> {
    /// Go on with this step.
    Next(Acquire<H>),
    /// The unit is this worker's.
    Held(Claim<H>),
    /// Another live worker holds it, or it was just finished and removed.
    Taken(Refused),
}

/// Why a unit could not be acquired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Another live worker holds its lock.
    Held,
    /// Its file was removed between the open and the check: its holder
    /// had just finished it.
    Removed,
}

impl<H> Acquire<H> {
    /// Does one step.
    pub fn step<F: ClaimFolder<Handle = H>>(self, folder: &mut F) -> io::Result<Step<H>> {
        // Before the unit is held, ESTALE says the file was removed on the
        // server by another client (its holder finished it; seen on
        // NFSv3): not this worker's loss.
        match self.try_step(folder) {
            Err(e) if e.raw_os_error() == Some(libc::ESTALE) => Ok(Step::Taken(Refused::Removed)),
            stepped => stepped,
        }
    }

    fn try_step<F: ClaimFolder<Handle = H>>(self, folder: &mut F) -> io::Result<Step<H>> {
        Ok(match self {
            Acquire::Open(unit) => Step::Next(Acquire::Lock(unit, folder.open(unit)?)),
            Acquire::Lock(unit, handle) => match folder.try_lock(&handle)? {
                true => Step::Next(Acquire::Check(unit, handle)),
                false => Step::Taken(Refused::Held),
            },
            // The lock again (a no-op while it holds): a lock lost since
            // the last step (an NFS lease expired) and taken by another
            // worker must not be mistaken for this one's.
            Acquire::Check(unit, handle) => match folder.try_lock(&handle)? {
                false => Step::Taken(Refused::Held),
                true => match folder.linked(&handle)? {
                    true => Step::Held(Claim { unit, handle }),
                    false => Step::Taken(Refused::Removed),
                },
            },
        })
    }
}

/// Acquires `unit`, or says why another worker has it.
pub fn acquire<F: ClaimFolder>(
    folder: &mut F,
    unit: Unit,
) -> io::Result<Result<Claim<F::Handle>, Refused>> {
    let mut step = Acquire::Open(unit);
    loop {
        match step.step(folder)? {
            Step::Next(next) => step = next,
            Step::Held(claim) => return Ok(Ok(claim)),
            Step::Taken(why) => return Ok(Err(why)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Claim files whose every lock call fails with `errno`.
    struct Failing(i32);

    impl ClaimFolder for Failing {
        type Handle = ();
        fn open(&mut self, _: Unit) -> io::Result<()> {
            Ok(())
        }
        fn try_lock(&mut self, _: &()) -> io::Result<bool> {
            Err(io::Error::from_raw_os_error(self.0))
        }
        fn linked(&mut self, _: &()) -> io::Result<bool> {
            Ok(true)
        }
        fn unlink(&mut self, _: &()) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_file_removed_on_the_server_before_it_is_held_is_a_finished_unit_not_a_loss() {
        assert_eq!(
            acquire(&mut Failing(libc::ESTALE), 3).unwrap().err(),
            Some(Refused::Removed)
        );
        let other = acquire(&mut Failing(libc::EIO), 3).unwrap_err();
        assert_eq!(other.raw_os_error(), Some(libc::EIO));
    }

    #[test]
    fn own_slice_first_then_the_others_in_order_skipping_done_and_busy() {
        let mut ledger = Ledger::new(12);
        for game in 0..2 {
            ledger.add(0, game);
            ledger.add(4, game);
        }
        ledger.add(1, 0); // half done: still a candidate
        let busy = BTreeSet::from([7]);
        let slice = Some(Slice { index: 1, count: 3 });
        assert_eq!(
            candidates(0..12, &ledger, &busy, slice, 100),
            [1, 10, 2, 5, 8, 11, 3, 6, 9]
        );
        assert_eq!(candidates(0..6, &ledger, &busy, slice, 3), [1, 2, 5]);
        assert_eq!(candidates(0..12, &ledger, &busy, None, 2), [1, 2]);
        assert_eq!(candidates(5..6, &ledger, &busy, None, 9), [5]);
        assert_eq!(candidates(5..6, &ledger, &busy, slice, 9), [5]);
        // A window narrower than the slices, starting past unit 0.
        let wide = Some(Slice {
            index: 6,
            count: 10,
        });
        assert_eq!(candidates(2..6, &ledger, &busy, wide, 9), [2, 3, 5]);
    }
}
