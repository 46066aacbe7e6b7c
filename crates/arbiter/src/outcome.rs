//! How a run ended, as data: every format ends with a [`RunOutcome`].
//! Putting it in words is the report crate's job (`aboure_report::RunEnd`),
//! so the arbiter plays and counts, and what `aboure run` prints at its
//! end is written in one place.

use std::path::PathBuf;

use aboure_records::Standing;

use crate::tournament::queue::SharingCounts;

/// How a run ended.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// For an SPRT, the verdict of every results file in the folder (this
    /// worker's and the others') at the end, and its description.
    pub sprt: Option<(aboure_stats::OrderedStatus, String)>,
    /// Standings of every finished game of the run (every worker's).
    pub standings: Vec<Standing>,
    /// Finished games of the run (every worker's, earlier runs included).
    pub finished: usize,
    /// Games in the schedule.
    pub scheduled: usize,
    /// Games finished by this invocation.
    pub played: usize,
    /// What sharing the run with other workers cost this one: claims,
    /// units taken over, reads of the others' files.
    pub work: SharingCounts,
    /// True if interrupted before the schedule was done.
    pub interrupted: bool,
    /// Why the stop rule ended the run, if it did.
    pub stopped: Option<String>,
    /// Notes from preparing the output folder.
    pub notes: Vec<String>,
    /// The results file.
    pub games_path: PathBuf,
    /// The output folder.
    pub out_dir: PathBuf,
}
