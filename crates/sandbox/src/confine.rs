//! The steps taken in the bot's own process just before `execve`: limits,
//! capabilities, `no_new_privs`, Landlock, seccomp. They run in the helper,
//! a single-threaded program, so they may allocate; each returns what went
//! wrong as text for the helper's one line of stderr.

use std::collections::BTreeMap;
use std::path::PathBuf;

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use crate::plan::{Identity, Plan, Resource, Rules};
use crate::setup::SetupError;

/// Sets the resource limits.
pub fn rlimits(limits: &[(Resource, u64, u64)]) -> Result<(), SetupError> {
    use nix::sys::resource::{setrlimit, Resource as R};
    for &(resource, soft, hard) in limits {
        let r = match resource {
            Resource::As => R::RLIMIT_AS,
            Resource::Cpu => R::RLIMIT_CPU,
            Resource::Fsize => R::RLIMIT_FSIZE,
            Resource::Nofile => R::RLIMIT_NOFILE,
            Resource::Nproc => R::RLIMIT_NPROC,
            Resource::Core => R::RLIMIT_CORE,
            Resource::Sigpending => R::RLIMIT_SIGPENDING,
        };
        setrlimit(r, soft, hard)
            .map_err(|e| SetupError::call(format!("setrlimit {resource:?}"), e))?;
    }
    Ok(())
}

/// Gives up every capability for good: the bounding set is emptied and
/// root (uid 0 in the bot's user namespace) gains none at `execve`. Fails
/// quietly without CAP_SETPCAP (an unprivileged user outside a namespace,
/// who has no capabilities to give up).
pub fn drop_capabilities() {
    // SAFETY: prctl with integer arguments only.
    unsafe {
        for cap in 0..64 {
            libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        );
        // SECBIT_NOROOT and its lock, and SECBIT_NO_SETUID_FIXUP locked
        // off: a change of uid from root still clears every capability.
        libc::prctl(libc::PR_SET_SECUREBITS, 0x0b, 0, 0, 0);
    }
}

/// Becomes `identity` for good (real, effective and saved ids), with no
/// supplementary groups: the capabilities go with root's uid.
pub fn assume(identity: Identity) -> Result<(), SetupError> {
    use nix::unistd::{setgroups, setresgid, setresuid, Gid, Uid};
    let (uid, gid) = (Uid::from_raw(identity.uid), Gid::from_raw(identity.gid));
    let fail = |what: &str, e: nix::Error| {
        SetupError::call(format!("cannot become uid {uid} gid {gid}: {what}"), e)
    };
    setgroups(&[]).map_err(|e| fail("setgroups", e))?;
    setresgid(gid, gid, gid).map_err(|e| fail("setresgid", e))?;
    setresuid(uid, uid, uid).map_err(|e| fail("setresuid", e))?;
    Ok(())
}

/// Says which of the bot's own files its identity cannot use, naming the
/// file and the uid: the program must be executable, its files readable,
/// its `write` paths writable.
pub fn usable(plan: &Plan, uid: u32) -> Result<(), SetupError> {
    use nix::unistd::{access, AccessFlags};
    let checks = std::iter::once((plan.program.as_path(), AccessFlags::X_OK, "run"))
        .chain(
            plan.own_files
                .iter()
                .map(|f| (f.as_path(), AccessFlags::R_OK, "read")),
        )
        .chain(
            plan.own_writable
                .iter()
                .map(|f| (f.as_path(), AccessFlags::W_OK, "write")),
        );
    for (file, how, verb) in checks {
        access(file, how).map_err(|e| SetupError::Unusable {
            uid,
            verb,
            path: file.to_owned(),
            source: e.into(),
        })?;
    }
    Ok(())
}

/// No privilege gain through set-user-id programs or file capabilities.
pub fn no_new_privs() -> Result<(), SetupError> {
    nix::sys::prctl::set_no_new_privs().map_err(|e| SetupError::call("no_new_privs", e))
}

/// The Landlock ABI of the running kernel, 0 without Landlock.
pub fn landlock_abi() -> i64 {
    // SAFETY: landlock_create_ruleset with a null attribute, size 0 and
    // LANDLOCK_CREATE_RULESET_VERSION only returns the ABI version.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    abi.max(0)
}

/// Restricts the calling process (and everything it starts) to `rules`.
/// Best effort below ABI 7: what the kernel cannot enforce is left out
/// (and was reported by the probe).
pub fn landlock(rules: &Rules) -> Result<(), SetupError> {
    let abi = ABI::V7;
    let fail = |e: &dyn std::fmt::Display| SetupError::Landlock(e.to_string());
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))
        .map_err(|e| fail(&e))?
        .scope(Scope::from_all(abi))
        .map_err(|e| fail(&e))?;
    if rules.no_tcp {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(abi))
            .map_err(|e| fail(&e))?;
    }
    let mut created = ruleset.create().map_err(|e| fail(&e))?;
    let read = AccessFs::from_read(abi);
    let no_endpoints = AccessFs::from_all(abi) & !(AccessFs::MakeSock | AccessFs::MakeFifo);
    // Rules add up: a `write` path below the scratch (a host folder under
    // /tmp) would get the scratch's rights, so the scratch then has none.
    let below = |s: &PathBuf| rules.write.iter().any(|w| w.starts_with(s));
    let scratch = match rules.scratch.iter().any(below) {
        true => no_endpoints,
        false => AccessFs::from_all(abi),
    };
    let grants = [
        (&rules.read, read),
        (&rules.write, no_endpoints),
        (&rules.scratch, scratch),
        (&rules.devices, AccessFs::from_file(abi)),
    ];
    for (paths, access) in grants {
        for path in paths {
            // Paths that do not exist (a /lib32 on this machine) are skipped.
            let Ok(fd) = PathFd::new(path) else { continue };
            let access = if path.is_dir() {
                access
            } else {
                access & AccessFs::from_file(abi)
            };
            created = created
                .add_rule(PathBeneath::new(fd, access))
                .map_err(|e| SetupError::Landlock(format!("rule for {}: {e}", path.display())))?;
        }
    }
    let status = created.restrict_self().map_err(|e| fail(&e))?;
    if status.ruleset == RulesetStatus::NotEnforced {
        return Err(SetupError::Landlock(
            "not enforced by this kernel".to_owned(),
        ));
    }
    Ok(())
}

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
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_adjtimex,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
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
    // the allowed ones.
    let other_family = || {
        let conditions = allowed
            .iter()
            .map(|&family| {
                SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, family as u64)
            })
            .collect::<Result<Vec<_>, _>>()?;
        SeccompRule::new(conditions)
    };
    SeccompFilter::new(
        BTreeMap::from([
            (libc::SYS_socket, vec![other_family().map_err(fail)?]),
            (libc::SYS_socketpair, vec![other_family().map_err(fail)?]),
        ]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EAFNOSUPPORT as u32),
        arch,
    )
    .map_err(fail)
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
/// a child's exit (`clone`'s exit signal) set to `SIGCONT`.
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

/// Installs the seccomp filters: the deny list, the socket families of
/// [`socket_families`] for `network`, and with `private_memory` the one
/// that keeps every byte of memory under the bot's `RLIMIT_DATA`; with
/// `signal_hold` (the bot held by `SIGSTOP`) the one of
/// [`continue_sources`].
pub fn seccomp(private_memory: bool, network: bool, signal_hold: bool) -> Result<(), SetupError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| SetupError::Seccomp(e.to_string()))?;
    let fail = |e: seccompiler::BackendError| SetupError::Seccomp(e.to_string());
    let mut denied: BTreeMap<i64, Vec<SeccompRule>> = (DENIED.iter().chain(DENIED_LEGACY))
        .map(|&call| (call, Vec::new()))
        .collect();
    let clone_rules = NAMESPACE_FLAGS
        .iter()
        .map(|&flag| {
            let flag = flag as u64;
            SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag),
                flag,
            )
            .and_then(|c| SeccompRule::new(vec![c]))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(fail)?;
    denied.insert(libc::SYS_clone, clone_rules);
    let deny = SeccompFilter::new(
        denied,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(fail)?;
    // clone3 passes its flags in memory, out of a filter's reach: it says
    // "not implemented", and the C library falls back to clone.
    let clone3 = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )
    .map_err(fail)?;
    let sockets = socket_filter(arch, socket_families(network))?;
    let mut filters = vec![deny, clone3, sockets];
    if private_memory {
        filters.push(shared_memory(arch)?);
    }
    if signal_hold {
        filters.push(continue_sources(arch)?);
    }
    for filter in filters {
        let program: BpfProgram = filter.try_into().map_err(fail)?;
        seccompiler::apply_filter(&program).map_err(|e| SetupError::Seccomp(e.to_string()))?;
    }
    Ok(())
}
