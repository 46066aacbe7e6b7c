//! The seccomp layer: the system calls a bot may not make, installed in
//! the bot's own process just before `execve`. A list of what is refused
//! (with the arguments that make a call harmful) over the system calls this
//! list was written against, and every number beyond them refused as
//! unknown ([`crate::known`]): a call a later kernel adds reaches a bot
//! only once someone has read what it does.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use crate::setup::SetupError;
use crate::{file_modes, free_space, known};

/// System calls a bot has no business making; they fail with `EPERM`.
/// Namespaces, Landlock and the missing capabilities already stop most of
/// them: this list is the backstop where a layer is missing.
const DENIED: &[i64] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_reboot,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_userfaultfd,
    libc::SYS_open_by_handle_at,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_quotactl_fd,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_adjtimex,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    known::SYS_OPEN_TREE_ATTR,
    // File metadata: Landlock (up to ABI 7) has no right for it, so where
    // the constructed root is missing a bot could chmod, chown, stamp or
    // tag any file its uid owns (another bot's program, the aboure binary).
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    libc::SYS_fchmodat2,
    libc::SYS_fchown,
    libc::SYS_fchownat,
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_fsetxattr,
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fremovexattr,
    known::SYS_SETXATTRAT,
    known::SYS_REMOVEXATTRAT,
    known::SYS_FILE_SETATTR,
    libc::SYS_utimensat,
    // Watching files: inotify reports the names created in a folder the
    // watcher cannot list (a channel to and from the other bot), fanotify
    // watches whole mounts.
    libc::SYS_inotify_init1,
    libc::SYS_inotify_add_watch,
    libc::SYS_fanotify_init,
    libc::SYS_fanotify_mark,
    // io_uring runs file and socket operations this filter never sees.
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    // Handles to files by number, outside any path check; another
    // process's descriptors; comparing kernel objects across processes.
    libc::SYS_name_to_handle_at,
    libc::SYS_pidfd_getfd,
    libc::SYS_kcmp,
    // The kernel's log, and the terminal's hang-up.
    libc::SYS_syslog,
    libc::SYS_vhangup,
];

/// The calls of [`DENIED`] and [`DENIED_LEGACY`] that set a file's mode
/// and times, which a build's tools make (`jar`, `install`, `cp -p`) and a
/// build in a constructed root may: there it writes only its folder and
/// its private `/tmp`, and sees every other file through a read-only bind.
/// A mode that others could write, or set-user-id or set-group-id, it may
/// not set even there ([`file_modes::build_modes`]): its folder outlives
/// the run on the host.
const STAMPS: &[i64] = &[
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    libc::SYS_fchmodat2,
    libc::SYS_utimensat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_chmod,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_utime,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_utimes,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_futimesat,
];

/// The same calls' older forms, which only some architectures have.
#[cfg(target_arch = "x86_64")]
const DENIED_LEGACY: &[i64] = &[
    libc::SYS_chmod,
    libc::SYS_chown,
    libc::SYS_lchown,
    libc::SYS_utime,
    libc::SYS_utimes,
    libc::SYS_futimesat,
    libc::SYS_inotify_init,
];
#[cfg(not(target_arch = "x86_64"))]
const DENIED_LEGACY: &[i64] = &[];

/// Refuses shared anonymous memory, as an allocation that failed
/// (`ENOMEM`): `RLIMIT_DATA` counts private writable mappings only, so a
/// shared anonymous mapping, a memfd or a System V segment would hold
/// memory past the limit. (A shared mapping of a file holds page cache,
/// which the kernel can write back; the bot can write only its scratch.)
fn shared_memory(arch: TargetArch) -> Result<SeccompFilter, SetupError> {
    let fail = |e: seccompiler::BackendError| SetupError::Seccomp(e.to_string());
    let both = (libc::MAP_SHARED | libc::MAP_ANONYMOUS) as u64;
    let shared_anonymous = SeccompCondition::new(
        3,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::MaskedEq(both),
        both,
    )
    .and_then(|c| SeccompRule::new(vec![c]))
    .map_err(fail)?;
    SeccompFilter::new(
        BTreeMap::from([
            (libc::SYS_mmap, vec![shared_anonymous]),
            (libc::SYS_memfd_create, Vec::new()),
            (libc::SYS_shmget, Vec::new()),
        ]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOMEM as u32),
        arch,
    )
    .map_err(fail)
}

/// The socket families a bot may open: local sockets always, and IPv4 and
/// IPv6 when its network is on. A list of what is allowed, as systemd's
/// `RestrictAddressFamilies`: a network namespace does not cover every
/// family (vsock is not namespaced; netlink, packet and Bluetooth reach
/// the kernel's interfaces), and a family added by a later kernel is
/// refused without anyone listing it.
pub fn socket_families(network: bool) -> &'static [i32] {
    if network {
        &[libc::AF_UNIX, libc::AF_INET, libc::AF_INET6]
    } else {
        &[libc::AF_UNIX]
    }
}

/// Refuses `socket` and `socketpair` for a family not in `allowed`, as a
/// kernel without it would (`EAFNOSUPPORT`).
fn socket_filter(arch: TargetArch, allowed: &[i32]) -> Result<SeccompFilter, SetupError> {
    let fail = |e: seccompiler::BackendError| SetupError::Seccomp(e.to_string());
    // One rule, every condition of which must hold: the family is none of
    // the allowed ones (no rule at all, every family, when none is).
    let other_family = || {
        if allowed.is_empty() {
            return Ok(Vec::new());
        }
        let conditions = allowed
            .iter()
            .map(|&family| {
                SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, family as u64)
            })
            .collect::<Result<Vec<_>, _>>()?;
        SeccompRule::new(conditions).map(|rule| vec![rule])
    };
    SeccompFilter::new(
        BTreeMap::from([
            (libc::SYS_socket, other_family().map_err(fail)?),
            (libc::SYS_socketpair, other_family().map_err(fail)?),
        ]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EAFNOSUPPORT as u32),
        arch,
    )
    .map_err(fail)
}

/// Refuses sending messages with `sendmsg` (and `sendmmsg` when the bot
/// has no network), the only calls that carry ancillary data: a
/// descriptor sent in an `SCM_RIGHTS` message and never received holds
/// its file open from the socket's queue, where no process's descriptor
/// table shows it, so a deleted file held that way escapes `write-size`
/// (an outside attack: 200 MiB under 20 MiB). The message lies in memory,
/// out of a filter's reach, so the calls go whole; `send`, `sendto`,
/// `write` and receiving stay. The C library's resolver sends its two
/// queries at once with `sendmmsg`, so a bot with network keeps that one.
fn message_senders(arch: TargetArch, network: bool) -> Result<SeccompFilter, SetupError> {
    let mut calls = BTreeMap::from([(libc::SYS_sendmsg, Vec::new())]);
    if !network {
        calls.insert(libc::SYS_sendmmsg, Vec::new());
    }
    SeccompFilter::new(
        calls,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(|e| SetupError::Seccomp(e.to_string()))
}

/// `fcntl`'s command that sets the signal of I/O readiness (Linux's
/// `F_SETSIG`, which the libc crate does not name).
const F_SETSIG: u64 = 10;

/// Refuses what would send `SIGCONT` to a bot while every process of it is
/// stopped (an unprivileged arbiter's hold, `kill(-1, SIGSTOP)` by its
/// init): nothing of the bot runs to send it, so only the kernel could, on
/// an earlier request. A POSIX timer (`timer_create`, whose signal is in
/// memory out of a filter's reach: refused whole; `setitimer`, `alarm`,
/// `timerfd` and sleeps are untouched), I/O readiness signalled as
/// `SIGCONT` (`fcntl(F_SETSIG)`), a parent's death (`PR_SET_PDEATHSIG`) and
/// a child's exit (`clone`'s exit signal) set to `SIGCONT`. And a new
/// process group or session (`setpgid`, `setsid`; `setpgrp` is `setpgid`):
/// the kernel continues a process group with stopped members when it
/// becomes orphaned (`kill_orphaned_pgrp` in kernel/exit.c: the last
/// member whose parent is in another group of the same session exits),
/// which needs two groups in one session. Every process of the bot stays
/// in the group the helper was started in, whose one link outside is the
/// helper's parent, the arbiter, alive as long as the bot.
fn continue_sources(arch: TargetArch) -> Result<SeccompFilter, SetupError> {
    let fail = |e: seccompiler::BackendError| SetupError::Seccomp(e.to_string());
    let cont = libc::SIGCONT as u64;
    let equal = |arg: u8, value: u64| {
        SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)
    };
    let both = |a: u8, x: u64, b: u8, y: u64| SeccompRule::new(vec![equal(a, x)?, equal(b, y)?]);
    let exit_signal = SeccompCondition::new(
        0,
        SeccompCmpArgLen::Qword,
        SeccompCmpOp::MaskedEq(libc::CSIGNAL as u64),
        cont,
    )
    .and_then(|c| SeccompRule::new(vec![c]));
    SeccompFilter::new(
        BTreeMap::from([
            (libc::SYS_timer_create, Vec::new()),
            (
                libc::SYS_fcntl,
                vec![both(1, F_SETSIG, 2, cont).map_err(fail)?],
            ),
            (
                libc::SYS_prctl,
                vec![both(0, libc::PR_SET_PDEATHSIG as u64, 1, cont).map_err(fail)?],
            ),
            (libc::SYS_clone, vec![exit_signal.map_err(fail)?]),
            (libc::SYS_setpgid, Vec::new()),
            (libc::SYS_setsid, Vec::new()),
        ]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(fail)
}

/// `clone` flags that make namespaces.
const NAMESPACE_FLAGS: &[i32] = &[
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWNS,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWCGROUP,
];

/// `ioctl` commands that set an inode's flags (`chattr`: no-dump,
/// no-atime, append-only...), its project or its generation, as
/// `file_setattr` does, and those that are `fallocate` by another name
/// (blocks claimed without being written, beyond what `write-size` can
/// see in time).
const SET_INODE_FLAGS: &[u64] = &[
    0x4008_6602, // FS_IOC_SETFLAGS
    0x4004_6602, // FS_IOC32_SETFLAGS
    0x401c_5820, // FS_IOC_FSSETXATTR
    0x4008_7602, // FS_IOC_SETVERSION
    0x4004_7602, // FS_IOC32_SETVERSION
    0x4030_5828, // FS_IOC_RESVSP
    0x4030_5829, // FS_IOC_UNRESVSP
    0x4030_582a, // FS_IOC_RESVSP64
    0x4030_582b, // FS_IOC_UNRESVSP64
    0x4030_5839, // FS_IOC_ZERO_RANGE
];

/// `fcntl(F_SETPIPE_SZ)`: a pipe larger than the kernel's 64 KiB. A bot
/// that made its stdout 1 MiB left a mebibyte of empty lines at each
/// `bestmove`, which the arbiter read and parsed while the bot was held
/// (about 75 ms of its CPU a move, charged to no bot: an outside attack);
/// at the kernel's size, what a bot leaves is what 64 KiB holds. Refused
/// as the kernel refuses a size past `pipe-max-size`.
const F_SETPIPE_SZ: u64 = 1031;

/// Every call the deny list names, for the check that the table of known
/// numbers covers them.
#[cfg(test)]
pub fn named_calls() -> impl Iterator<Item = i64> {
    DENIED
        .iter()
        .chain(DENIED_LEGACY)
        .copied()
        .chain([libc::SYS_clone, libc::SYS_clone3, libc::SYS_ioctl])
        .chain([libc::SYS_fallocate, libc::SYS_setpgid, libc::SYS_setsid])
        .chain([
            libc::SYS_sendmsg,
            libc::SYS_sendmmsg,
            libc::SYS_umask,
            libc::SYS_fcntl,
        ])
        .chain(crate::free_space::CALLS.iter().copied())
        .chain([libc::SYS_openat, libc::SYS_mknodat, libc::SYS_openat2])
}

/// The deny list, with `clone` refused only for new namespaces, `ioctl`
/// only for [`SET_INODE_FLAGS`] and `fcntl` only for [`F_SETPIPE_SZ`];
/// without [`STAMPS`] when `stamps`.
fn denied(arch: TargetArch, stamps: bool) -> Result<SeccompFilter, SetupError> {
    let fail = |e: seccompiler::BackendError| SetupError::Seccomp(e.to_string());
    let mut denied: BTreeMap<i64, Vec<SeccompRule>> = (DENIED.iter().chain(DENIED_LEGACY))
        .filter(|call| !(stamps && STAMPS.contains(call)))
        .map(|&call| (call, Vec::new()))
        .collect();
    let masked = |arg: u8, len: SeccompCmpArgLen, flag: u64| {
        SeccompCondition::new(arg, len, SeccompCmpOp::MaskedEq(flag), flag)
            .and_then(|c| SeccompRule::new(vec![c]))
    };
    let clone_rules = NAMESPACE_FLAGS
        .iter()
        .map(|&flag| masked(0, SeccompCmpArgLen::Qword, flag as u64))
        .collect::<Result<Vec<_>, _>>()
        .map_err(fail)?;
    denied.insert(libc::SYS_clone, clone_rules);
    // The command is an `unsigned int`: its low half is what the kernel reads.
    let ioctl_rules = SET_INODE_FLAGS
        .iter()
        .map(|&cmd| {
            SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, cmd)
                .and_then(|c| SeccompRule::new(vec![c]))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(fail)?;
    denied.insert(libc::SYS_ioctl, ioctl_rules);
    let pipe_size =
        SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, F_SETPIPE_SZ)
            .and_then(|c| SeccompRule::new(vec![c]))
            .map_err(fail)?;
    denied.insert(libc::SYS_fcntl, vec![pipe_size]);
    SeccompFilter::new(
        denied,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(fail)
}

/// A filter that refuses `call` whole with `errno`.
fn refuse(arch: TargetArch, call: i64, errno: i32) -> Result<SeccompFilter, SetupError> {
    crate::answer::answer(arch, BTreeMap::from([(call, Vec::new())]), errno)
}

/// Installs the seccomp filters: the deny list, the numbers it was not
/// written against ([`known::unknown_calls`]), the socket families of
/// [`socket_families`] for `network`, the [`message_senders`], and with
/// `private_memory` the one that keeps every byte of memory under the
/// bot's `RLIMIT_DATA` (and no local socket, whose buffers it would not
/// count); with
/// `signal_hold` (the bot held by `SIGSTOP`) the one of
/// [`continue_sources`]; with `stamps` (a build in a constructed root),
/// without [`STAMPS`] but with [`file_modes::build_modes`]. Always the
/// filters of [`free_space`] and [`file_modes`] (the mask, the modes of
/// files created).
pub fn install(
    private_memory: bool,
    network: bool,
    signal_hold: bool,
    stamps: bool,
) -> Result<(), SetupError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| SetupError::Seccomp(e.to_string()))?;
    let fail = |e: seccompiler::BackendError| SetupError::Seccomp(e.to_string());
    // clone3 passes its flags in memory, out of a filter's reach: it says
    // "not implemented", and the C library falls back to clone.
    let clone3 = refuse(arch, libc::SYS_clone3, libc::ENOSYS)?;
    // fallocate claims disk without writing it (`FALLOC_FL_KEEP_SIZE`: 10
    // GiB in one call, not in the file's size): refused as by a filesystem
    // without it, so the C library's `posix_fallocate` writes instead, at
    // the speed `write-size` is measured against.
    let fallocate = refuse(arch, libc::SYS_fallocate, libc::EOPNOTSUPP)?;
    // Where `RLIMIT_DATA` is the memory limit, no local socket either:
    // what a bot parks in its buffers is kernel memory no process owns
    // (1,285 MiB under a 64 MiB limit in an outside attack).
    let families: Vec<i32> = (socket_families(network).iter())
        .copied()
        .filter(|&family| !(private_memory && family == libc::AF_UNIX))
        .collect();
    let sockets = socket_filter(arch, &families)?;
    let senders = message_senders(arch, network)?;
    let mut filters = vec![denied(arch, stamps)?, clone3, fallocate, sockets, senders];
    filters.extend([free_space::filter(arch)?, file_modes::mask(arch)?]);
    filters.extend(file_modes::created(arch)?);
    if stamps {
        filters.push(file_modes::build_modes(arch)?);
    }
    if private_memory {
        filters.push(shared_memory(arch)?);
    }
    if signal_hold {
        filters.push(continue_sources(arch)?);
    }
    let mut programs = filters
        .into_iter()
        .map(|filter| BpfProgram::try_from(filter).map_err(fail))
        .collect::<Result<Vec<_>, _>>()?;
    programs.push(known::unknown_calls(audit_arch(arch)));
    for program in programs {
        seccompiler::apply_filter(&program).map_err(|e| SetupError::Seccomp(e.to_string()))?;
    }
    Ok(())
}

/// The kernel's `AUDIT_ARCH_*` value of `arch`.
fn audit_arch(arch: TargetArch) -> u32 {
    match arch {
        TargetArch::x86_64 => 0xc000_003e,
        TargetArch::aarch64 => 0xc000_00b7,
        TargetArch::riscv64 => 0xc000_00f3,
    }
}
