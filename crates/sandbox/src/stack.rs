//! Stack memory where the memory limit is `RLIMIT_DATA` (no memory
//! cgroup: an unprivileged arbiter). The kernel counts in that limit every
//! private writable mapping except those that grow down, the stacks: a
//! bot held 1 GiB under a 64 MiB limit with one `mmap(MAP_GROWSDOWN)` of
//! 1 GiB, and another in a child that raised its `RLIMIT_STACK` and
//! recursed (two outside attacks).
//!
//! So there a mapping that grows down is refused as an allocation that
//! failed (`ENOMEM`; no runtime asks for one: threads' stacks are ordinary
//! mappings, counted), and so is `mremap`, which enlarges the main
//! thread's stack mapping past every limit (1 GiB under 64 MiB of
//! `RLIMIT_DATA` and of `RLIMIT_STACK`, found while closing the above);
//! the C library's `realloc` then copies instead. The main thread's stack,
//! the one stack the kernel grows, is bounded by an `RLIMIT_STACK` whose
//! hard limit is the memory limit (the soft one the arbiter's own, if
//! lower). A process's
//! stack counts beside its data, not within it: each process may hold up
//! to twice the memory limit, its data and its stack.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

use crate::plan::Resource;
use crate::setup::SetupError;

/// Refuses `mmap` with `MAP_GROWSDOWN`, and `mremap` (`ENOMEM`).
pub fn install() -> Result<(), SetupError> {
    let fail = |e: seccompiler::BackendError| SetupError::Seccomp(e.to_string());
    let flag = libc::MAP_GROWSDOWN as u64;
    let grows_down = SeccompCondition::new(
        3,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::MaskedEq(flag),
        flag,
    )
    .and_then(|c| SeccompRule::new(vec![c]))
    .map_err(fail)?;
    let filter = SeccompFilter::new(
        BTreeMap::from([
            (libc::SYS_mmap, vec![grows_down]),
            (libc::SYS_mremap, Vec::new()),
        ]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOMEM as u32),
        crate::channels::arch()?,
    )
    .map_err(fail)?;
    let program = BpfProgram::try_from(filter).map_err(fail)?;
    seccompiler::apply_filter(&program).map_err(|e| SetupError::Seccomp(e.to_string()))
}

/// The `RLIMIT_STACK` of a bot whose memory limit is `memory` bytes of
/// `RLIMIT_DATA`: hard at the limit, soft at the arbiter's own soft limit
/// (`inherited`) where that is lower.
pub fn limit(memory: u64, inherited: u64) -> (Resource, u64, u64) {
    (Resource::Stack, inherited.min(memory), memory)
}

/// The arbiter's own soft `RLIMIT_STACK` (unlimited if it cannot say).
pub fn inherited() -> u64 {
    nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_STACK)
        .map_or(u64::MAX, |(soft, _)| soft)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stack_is_bounded_by_the_memory_limit() {
        let mib = 1 << 20;
        assert_eq!(
            limit(64 * mib, 8 * mib),
            (Resource::Stack, 8 * mib, 64 * mib)
        );
        assert_eq!(limit(4 * mib, 8 * mib), (Resource::Stack, 4 * mib, 4 * mib));
        assert_eq!(
            limit(64 * mib, u64::MAX),
            (Resource::Stack, 64 * mib, 64 * mib)
        );
    }
}
