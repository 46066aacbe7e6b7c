//! The one shape of this crate's seccomp filters: the calls of a list,
//! whole or when their rules match, answered with an errno instead of run
//! (0: success without acting), every other call allowed. The filter
//! modules (`seccomp`, `channels`, `file_modes`, `free_space`) build on
//! it, so the actions and the error are written once.

use std::collections::BTreeMap;

use seccompiler::{SeccompAction, SeccompFilter, SeccompRule, TargetArch};

use crate::setup::SetupError;

/// The setup error of a filter seccompiler could not build.
pub(crate) fn fail(e: seccompiler::BackendError) -> SetupError {
    SetupError::Seccomp(e.to_string())
}

/// A filter under which the calls of `calls` (an empty rule list: the
/// whole call) get `errno` when a rule matches.
pub(crate) fn answer(
    arch: TargetArch,
    calls: BTreeMap<i64, Vec<SeccompRule>>,
    errno: i32,
) -> Result<SeccompFilter, SetupError> {
    SeccompFilter::new(
        calls,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch,
    )
    .map_err(fail)
}
