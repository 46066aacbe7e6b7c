//! SysV IPC a bot leaves behind, torn down in the bot's own time.
//!
//! Each bot process has an IPC namespace of its own. What is left in it
//! when the bot is gone (shared memory segments nobody removed, message
//! queues, semaphore arrays) the kernel frees in a worker thread of its
//! own once the namespace goes, CPU that no group of the bot's is charged
//! for: 32 segments of 64 MiB took 1.15 s of the kernel's threads in a
//! game, and a bot in another game on that core got 0.31 of it against
//! 0.46 (an outside attack); 8,000 message queues did the same, less.
//!
//! So the helper sets the namespace's own limits as soon as it is made:
//! - `kernel.shm_rmid_forced` = 1: a segment goes when its last process
//!   detaches, or when its creator exits while none is attached, in that
//!   process's own time (Linux's own setting for "no segment outlives its
//!   users"). A bot that detaches every process from a segment and
//!   attaches again later finds it gone;
//! - `kernel.msgmni` = 16 message queues (of `msgmnb`, 16 KiB, each);
//! - `kernel.sem` = 250 32000 32 128 (128 semaphore arrays, Linux's
//!   defaults before 5.0).
//!
//! What the kernel's thread may be left is then a few hundred kilobytes.
//! The kernel lets only the namespace's root change them: a root
//! arbiter's helper, which is root and makes no user namespace. An
//! unprivileged arbiter's bots keep their uid inside their user namespace,
//! which has no root, so there the kernel's defaults stay (an open
//! finding, docs/sandbox.md); so they do where `/proc/sys` is read-only
//! (a container's): the bounds refine fairness, and a bot starts without
//! them rather than not at all.

/// The limits, as the files of `/proc/sys/kernel` take them.
const LIMITS: &[(&str, &str)] = &[
    ("shm_rmid_forced", "1"),
    ("msgmni", "16"),
    ("sem", "250 32000 32 128"),
];

/// Sets [`LIMITS`] in the IPC namespace of the calling process (the files
/// of `/proc/sys/kernel` are its namespace's, whichever `/proc` they are
/// read through); a limit the kernel refuses keeps its default.
pub(crate) fn bound() {
    for (name, value) in LIMITS {
        let _ = std::fs::write(format!("/proc/sys/kernel/{name}"), value);
    }
}
