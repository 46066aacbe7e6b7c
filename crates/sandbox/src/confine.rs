//! The steps taken in the bot's own process just before `execve`: limits,
//! capabilities, `no_new_privs`, Landlock (seccomp is in [`crate::seccomp`]). They run in the helper,
//! a single-threaded program, so they may allocate; each returns what went
//! wrong as text for the helper's one line of stderr.

use std::path::PathBuf;

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope, ABI,
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
            Resource::Stack => R::RLIMIT_STACK,
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
