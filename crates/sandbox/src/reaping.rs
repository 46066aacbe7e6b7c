//! Who reaps a bot's children, so that their CPU time stays where the
//! kernel keeps it. Without a `cpuacct` group (an unprivileged arbiter),
//! `cpu-limit` is summed from `/proc` (see `spent`): the own times of the
//! bot's live processes, zombies included, and the times of the children
//! each has reaped (`cutime`, `cstime`; orphans go to the init, which
//! waits for them). A child the kernel reaps by itself, because its
//! parent set `SIGCHLD` to `SIG_IGN` or `SA_NOCLDWAIT`, has its time added
//! to no one: a bot that starts short children that way escapes the limit
//! (an outside attack, b71: 6 s under `cpu-limit = "2s"`).
//!
//! So where the limit is summed from `/proc`, setting `SIGCHLD`'s action
//! succeeds without acting (`rt_sigaction(SIGCHLD, act)` with `act` not
//! null answers 0; reading it, `act` null, still works), and the helper
//! puts `SIGCHLD` back to `SIG_DFL` before anything of the bot runs (an
//! ignored signal stays ignored across `execve`, and the arbiter's own
//! parent may have ignored it). The price: a bot's handler for `SIGCHLD`
//! is never called, and children it left to the kernel stay zombies
//! until it exits (they count in `processes`, and in its CPU time, which
//! is the point). A program that waits for its children (Python's
//! `subprocess`, the JVM, Go's `os/exec`, a shell) does not notice.

use std::collections::BTreeMap;

use seccompiler::{BpfProgram, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompRule};

use crate::answer::{answer, fail};
use crate::setup::SetupError;

/// Puts `SIGCHLD` back to its default action (the kernel then leaves an
/// exited child for its parent to reap), in the helper, whose init and
/// bot inherit it.
pub(crate) fn default_action() -> Result<(), String> {
    // SAFETY: SIG_DFL is not a handler: nothing runs in signal context.
    let done = unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGCHLD,
            nix::sys::signal::SigHandler::SigDfl,
        )
    };
    done.map(drop)
        .map_err(|e| format!("cannot set SIGCHLD to its default action: {e}"))
}

/// Installs the filter under which a new action for `SIGCHLD` is
/// answered 0 and not taken.
pub(crate) fn install() -> Result<(), SetupError> {
    let arch = crate::channels::arch()?;
    let signal = SeccompCondition::new(
        0,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::Eq,
        libc::SIGCHLD as u64,
    );
    // A pointer: the whole 64 bits.
    let act = SeccompCondition::new(1, SeccompCmpArgLen::Qword, SeccompCmpOp::Ne, 0);
    let rule = signal
        .and_then(|s| SeccompRule::new(vec![s, act?]))
        .map_err(fail)?;
    let filter = answer(
        arch,
        BTreeMap::from([(libc::SYS_rt_sigaction, vec![rule])]),
        0,
    )?;
    let program = BpfProgram::try_from(filter).map_err(fail)?;
    seccompiler::apply_filter(&program).map_err(|e| SetupError::Seccomp(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The action of `SIGCHLD` as the kernel holds it.
    fn action() -> libc::sighandler_t {
        // SAFETY: a zeroed sigaction is valid for the kernel to fill.
        let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: act null: only reads the action into `old`.
        let read = unsafe { libc::sigaction(libc::SIGCHLD, std::ptr::null(), &mut old) };
        assert_eq!(read, 0);
        old.sa_sigaction
    }

    #[test]
    fn under_the_filter_sigchld_stays_at_its_default_and_its_children_wait() {
        // In a child of its own: a filter is for ever.
        // SAFETY: the child only makes system calls and exits.
        match unsafe { nix::unistd::fork() }.unwrap() {
            nix::unistd::ForkResult::Child => {
                let code = std::panic::catch_unwind(|| {
                    default_action().unwrap();
                    install().unwrap();
                    // SAFETY: SIG_IGN is no handler.
                    let set = unsafe { libc::signal(libc::SIGCHLD, libc::SIG_IGN) };
                    assert_ne!(set, libc::SIG_ERR);
                    assert_eq!(action(), libc::SIG_DFL);
                    // Another signal is still set.
                    // SAFETY: as above.
                    unsafe { libc::signal(libc::SIGUSR2, libc::SIG_IGN) };
                    // SAFETY: as above, act null.
                    let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
                    unsafe { libc::sigaction(libc::SIGUSR2, std::ptr::null(), &mut old) };
                    assert_eq!(old.sa_sigaction, libc::SIG_IGN);
                    // A child is left for this process to reap.
                    // SAFETY: the grandchild exits at once.
                    let pid = unsafe { libc::fork() };
                    if pid == 0 {
                        unsafe { libc::_exit(7) };
                    }
                    let mut status = 0;
                    // SAFETY: waits for the child just made.
                    let got = unsafe { libc::waitpid(pid, &mut status, 0) };
                    assert_eq!((got, libc::WEXITSTATUS(status)), (pid, 7));
                })
                .map_or(1, |()| 0);
                // SAFETY: leaves the forked test process at once.
                unsafe { libc::_exit(code) }
            }
            nix::unistd::ForkResult::Parent { child } => {
                let status = nix::sys::wait::waitpid(child, None).unwrap();
                assert_eq!(status, nix::sys::wait::WaitStatus::Exited(child, 0));
            }
        }
    }
}
