//! What a worker did to share a run: its claims, its reads of the log,
//! of the roster and of the others' files. Printed at the end of a shared
//! run, and added up over every worker by `aboure bench workers`.

use aboure_workers::Tries;

/// What a worker did to share the run: claims and reads of the others'
/// files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharingCounts {
    /// Units acquired and played.
    pub claimed: u64,
    /// Of those, units another worker had held (it died, or gave up).
    pub taken_over: u64,
    /// Acquire attempts (each: open, lock, check), successful or not.
    pub tries: u64,
    /// The same, by what they found, whose pair and when.
    pub tried: Tries,
    /// Reads of the other workers' files (each opens every file).
    pub polls: u64,
    /// Files opened by those reads.
    pub opens: u64,
    /// Bytes read from them.
    pub bytes: u64,
    /// Games the other workers recorded, learnt of while running.
    pub learned: u64,
    /// Reads of the log of finished units (one open each).
    pub log_reads: u64,
    /// Bytes read from it.
    pub log_bytes: u64,
    /// Units this worker appended to it.
    pub logged: u64,
    /// Passes over `claims/` to read the roster (by the worker holding the
    /// roster's lock).
    pub roster_passes: u64,
    /// Reads of the roster's brief (by the other workers).
    pub brief_reads: u64,
}

impl SharingCounts {
    /// Adds another worker's figures to these.
    pub fn add(&mut self, other: &SharingCounts) {
        self.claimed += other.claimed;
        self.taken_over += other.taken_over;
        self.tries += other.tries;
        self.tried.add_all(&other.tried);
        self.polls += other.polls;
        self.opens += other.opens;
        self.bytes += other.bytes;
        self.learned += other.learned;
        self.log_reads += other.log_reads;
        self.log_bytes += other.log_bytes;
        self.logged += other.logged;
        self.roster_passes += other.roster_passes;
        self.brief_reads += other.brief_reads;
    }
}
