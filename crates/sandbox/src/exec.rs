//! The helper, `aboure sandbox-exec PLAN` (or `--plan-in-env`, the plan in
//! [`PLAN_VAR`], as the arbiter starts it): the arbiter's child, which cages
//! itself and runs the bot. Started afresh by `execve`, it is
//! single-threaded, so it may `unshare` a user namespace and allocate
//! between `fork` and `execve`.
//!
//! With namespaces, three processes: the helper stays outside the new pid
//! namespace (it relays the bot's exit status to the arbiter), a small init
//! is pid 1 inside (it mounts a `/proc` of the namespace, reaps orphans, and
//! exits when the bot does, which makes the kernel kill everything left in
//! the namespace: `setsid` daemons and double forks included), and the bot.
//! Without, the helper is a subreaper: orphans of the bot become its
//! children and it kills them all once the bot has exited. The bot inherits
//! stdin, stdout and stderr; the helper and the init hand theirs over to
//! `/dev/null` before the bot may run (see `handover`), so a bot that
//! closes its input or output is seen to close it.

use std::convert::Infallible;
use std::ffi::CString;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::Path;

use nix::sched::CloneFlags;
use nix::sys::signal::Signal;
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{fork, ForkResult, Pid};

use crate::confine;
use crate::error::shown;
use crate::handover::Baton;
use crate::plan::{Entry, EntryKind, Identity, Plan, Resource, Root, Rules};
use crate::setup::SetupError;
use crate::watch::{raw, wait_for, Watch};

/// The argument that says the plan is in the environment variable
/// [`PLAN_VAR`] (read only by its own user) rather than the argument itself.
pub const PLAN_IN_ENV: &str = "--plan-in-env";

/// The environment variable that holds the plan.
pub const PLAN_VAR: &str = "ABOURE_SANDBOX_PLAN";

/// Runs the helper with the plan `json` (or [`PLAN_IN_ENV`]); never
/// returns. The bot's environment is the plan's only.
pub fn exec_main(json: &str) -> ! {
    let from_env;
    let json = match json {
        PLAN_IN_ENV => {
            from_env = std::env::var(PLAN_VAR).unwrap_or_default();
            from_env.as_str()
        }
        json => json,
    };
    let result = serde_json::from_str::<Plan>(json)
        .map_err(|e| format!("unreadable plan: {e}"))
        .and_then(|plan| run(&plan));
    let Err(e) = result;
    fail(&e)
}

fn fail(message: &str) -> ! {
    eprintln!("aboure sandbox: {message}");
    std::process::exit(126)
}

/// Puts `SIGPIPE` back to its default action. A Rust program starts with
/// it ignored, and an ignored signal stays ignored across `execve`: a bot
/// started by the helper would get `EPIPE` where a plain bot (whose start
/// by the standard library puts it back) dies of the signal.
fn default_sigpipe() -> Result<(), String> {
    // SAFETY: SIG_DFL is not a handler: nothing runs in signal context.
    let done = unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGPIPE,
            nix::sys::signal::SigHandler::SigDfl,
        )
    };
    done.map(drop)
        .map_err(|e| format!("cannot set SIGPIPE to its default action: {e}"))
}

fn run(plan: &Plan) -> Result<Infallible, String> {
    close_other_descriptors();
    // Inherited by the init and the bot (see `reaping`).
    crate::reaping::default_action()?;
    default_sigpipe()?;
    let watch = Watch::new(plan)?;
    for dir in &plan.cgroups {
        join(dir)?;
    }
    if !plan.namespaces {
        return subreaper(plan, &watch);
    }
    // A root arbiter gives the bot an identity of its own and needs no user
    // namespace (the bot then has no capabilities anywhere); otherwise the
    // user namespace is what allows the mounts.
    if let Some(net) = &plan.net {
        crate::netns::enter(net)?;
    }
    let new_network = !plan.network && plan.net.is_none();
    enter_namespaces(new_network, plan.identity.is_none())?;
    if plan.identity.is_some() {
        crate::ipc::bound();
    }
    crate::relay::in_helper()?;
    let (status_r, status_w) = nix::unistd::pipe().map_err(|e| format!("pipe: {e}"))?;
    let baton = Baton::new()?;
    // SAFETY: the helper is single-threaded.
    match unsafe { fork() }.map_err(|e| format!("fork: {e}"))? {
        ForkResult::Child => {
            drop(status_r);
            init(plan, status_w, baton)
        }
        ForkResult::Parent { child } => {
            crate::relay::set_init(child.as_raw());
            drop(status_w);
            // Before the baton: the bot is never seen with its helper
            // outside its group.
            watch.charge_to_bot();
            baton.pass();
            let init_status = watch.wait(child, plan);
            watch.leave_bot();
            let mut raw = [0u8; 4];
            let status = match std::fs::File::from(status_r).read_exact(&mut raw) {
                Ok(()) => i32::from_ne_bytes(raw),
                Err(_) => init_status,
            };
            relay(status)
        }
    }
}

/// Moves the helper into the cgroup `dir`, before it forks anything: its
/// children are born there (or the bot's own process, before its `exec`,
/// into its cpu, cpuset and freezer groups: everything it starts is born
/// there).
///
/// By its only thread (`0`, the writer itself, to `tasks`): the kernel
/// moves the caller's own thread without the global lock a move by pid
/// takes (`cgroup.procs`), whose first writer waits for an RCU grace
/// period, several milliseconds of every start on an idle machine (most
/// of the sandbox's start-up cost once). The helper is single-threaded
/// (see the module documentation), and so are its init and the bot's
/// process before `exec`, so the thread is the whole process.
fn join(dir: &Path) -> Result<(), String> {
    std::fs::write(dir.join("tasks"), "0")
        .map_err(|e| format!("cannot join {}: {e}", dir.display()))
}

/// The `tasks` files of the groups the bot's own process joins (see
/// `Cgroups::bot_dirs`), opened before its root is built (which hides the
/// host's cgroup folders) and closed at its `exec`.
struct BotGroups(Vec<(std::path::PathBuf, std::fs::File)>);

impl BotGroups {
    fn open(plan: &Plan) -> Result<BotGroups, String> {
        let open = |dir: &std::path::PathBuf| {
            let tasks = dir.join("tasks");
            std::fs::OpenOptions::new()
                .write(true)
                .open(&tasks)
                .map(|file| (dir.clone(), file))
                .map_err(|e| format!("cannot open {}: {e}", tasks.display()))
        };
        plan.bot_cgroups
            .iter()
            .map(open)
            .collect::<Result<_, _>>()
            .map(BotGroups)
    }

    /// Moves the bot's process into the groups, before anything of the
    /// bot runs, by its only thread (see `join`).
    fn join(self) -> Result<(), String> {
        for (dir, mut file) in self.0 {
            file.write_all(b"0")
                .map_err(|e| format!("cannot join {}: {e}", dir.display()))?;
        }
        Ok(())
    }
}

/// Pid 1 of the bot's pid namespace.
fn init(plan: &Plan, status: OwnedFd, from_helper: Baton) -> ! {
    die_with_parent();
    if let Err(e) = from_helper.receive() {
        fail(&e);
    }
    // Not dumpable: its /proc entries (`exe`, `root`, `fd`) are closed to
    // the bot even where they share a uid.
    let _ = nix::sys::prctl::set_dumpable(false);
    // Opened while the host's cgroup folders are still in sight.
    let groups = BotGroups::open(plan).unwrap_or_else(|e| fail(&e));
    let world = match &plan.root {
        Some(root) => crate::root::enter(root, owner(plan), plan.build),
        None => mount_proc(),
    };
    if let Err(e) = world {
        fail(&e.to_string());
    }
    if let Err(e) = crate::relay::in_init() {
        fail(&e);
    }
    let baton = Baton::new().unwrap_or_else(|e| fail(&e));
    // SAFETY: single-threaded.
    match unsafe { fork() } {
        Err(e) => fail(&format!("fork: {e}")),
        Ok(ForkResult::Child) => {
            drop(status);
            let Err(e) = bot(plan, baton, groups);
            fail(&e)
        }
        Ok(ForkResult::Parent { child }) => {
            baton.pass();
            loop {
                match waitpid(None, None) {
                    Ok(s) if s.pid() == Some(child) => {
                        let _ = std::fs::File::from(status).write_all(&raw(s).to_ne_bytes());
                        // Leaving takes the whole namespace down.
                        std::process::exit(0);
                    }
                    Err(nix::errno::Errno::ECHILD) => std::process::exit(0),
                    _ => {}
                }
            }
        }
    }
}

/// The fallback without namespaces.
fn subreaper(plan: &Plan, watch: &Watch) -> Result<Infallible, String> {
    // SAFETY: prctl with integer arguments.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    let baton = Baton::new()?;
    // SAFETY: single-threaded.
    match unsafe { fork() }.map_err(|e| format!("fork: {e}"))? {
        ForkResult::Child => bot(plan, baton, BotGroups::open(plan)?),
        ForkResult::Parent { child } => {
            watch.charge_to_bot();
            baton.pass();
            let status = watch.wait(child, plan);
            watch.leave_bot();
            kill_descendants();
            relay(status)
        }
    }
}

/// The bot's own process: the last restrictions, then `execve`.
fn bot(plan: &Plan, baton: Baton, groups: BotGroups) -> Result<Infallible, String> {
    die_with_parent();
    // Only once the parents have let go of the pipes (see `handover`).
    baton.receive()?;
    groups.join()?;
    // Limits and the bounding set need the privileges the identity change
    // then drops; the checks of the bot's files follow it, so they see
    // what the bot will see.
    confine::rlimits(&plan.rlimits)?;
    confine::drop_capabilities();
    if let Some(identity) = plan.identity {
        confine::assume(identity)?;
    }
    let who = owner(plan).uid;
    std::env::set_current_dir(&plan.workdir)
        .map_err(|e| format!("cannot enter {} as uid {who}: {e}", shown(&plan.workdir)))?;
    confine::usable(plan, who)?;
    confine::no_new_privs()?;
    if let Some(rules) = &plan.landlock {
        confine::landlock(rules)?;
    }
    crate::file_modes::start_mask();
    if plan.seccomp {
        let stamps = plan.build && plan.root.is_some();
        crate::seccomp::install(plan.private_memory, plan.network, plan.signal_hold, stamps)?;
        crate::channels::install(plan.build)?;
        if plan.private_memory {
            crate::stack::install()?;
        }
        if plan.cpu_limit.is_some() && plan.cpu_account.is_none() {
            crate::reaping::install()?;
        }
    }
    let c = |s: &str| CString::new(s).map_err(|_| format!("{s:?} holds a NUL byte"));
    let program = c(&plan.program.to_string_lossy())?;
    let argv = plan
        .argv
        .iter()
        .map(|a| c(a))
        .collect::<Result<Vec<_>, _>>()?;
    let env = plan
        .env
        .iter()
        .map(|(k, v)| c(&format!("{k}={v}")))
        .collect::<Result<Vec<_>, _>>()?;
    let e = nix::unistd::execve(&program, &argv, &env).unwrap_err();
    Err(format!("cannot run {}: {e}", shown(&plan.program)))
}

/// Who the bot runs as: its identity, or the helper's own uid and gid.
fn owner(plan: &Plan) -> Identity {
    plan.identity.unwrap_or_else(|| Identity {
        uid: nix::unistd::getuid().as_raw(),
        gid: nix::unistd::getgid().as_raw(),
    })
}

/// New namespaces for the bot, a network namespace only if `network`, a
/// user namespace only if `user` (without, the helper must be root).
fn enter_namespaces(network: bool, user: bool) -> Result<(), String> {
    let (uid, gid) = (nix::unistd::getuid(), nix::unistd::getgid());
    let mut flags = CloneFlags::CLONE_NEWPID
        | CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS;
    if network {
        flags |= CloneFlags::CLONE_NEWNET;
    }
    if user {
        flags |= CloneFlags::CLONE_NEWUSER;
    }
    nix::sched::unshare(flags).map_err(|e| format!("unshare: {e}"))?;
    if !user {
        return Ok(());
    }
    // The bot keeps its user and group ids: files it may read or write look
    // the same from inside.
    for (file, text) in [
        ("setgroups", "deny".to_owned()),
        ("uid_map", format!("{uid} {uid} 1")),
        ("gid_map", format!("{gid} {gid} 1")),
    ] {
        std::fs::write(Path::new("/proc/self").join(file), text)
            .map_err(|e| format!("cannot write /proc/self/{file}: {e}"))?;
    }
    Ok(())
}

/// A `/proc` that shows only the namespace's processes.
fn mount_proc() -> Result<(), SetupError> {
    use nix::mount::{mount, MsFlags};
    mount(
        None::<&str>,
        "/",
        None::<&str>,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        None::<&str>,
    )
    .map_err(|e| SetupError::call("cannot make the mounts private", e))?;
    mount(
        Some("proc"),
        "/proc",
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        None::<&str>,
    )
    .map_err(|e| SetupError::call("cannot mount /proc", e))
}

fn die_with_parent() {
    let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL);
}

/// Closes every descriptor but 0, 1 and 2.
fn close_other_descriptors() {
    // SAFETY: close_range only closes descriptors; this process owns none
    // it still needs above 2.
    if unsafe { libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32) } == 0 {
        return;
    }
    // Kernels before 5.9 have no close_range (ENOSYS), and a seccomp
    // profile may deny it: close them one by one up to the descriptor
    // limit, which no open descriptor can exceed.
    // SAFETY: sysconf has no preconditions.
    let limit = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) };
    let limit = i32::try_from(limit).unwrap_or(i32::MAX);
    close_each(3, limit.max(1024));
}

/// Closes the descriptors `from..to`, open or not.
fn close_each(from: i32, to: i32) {
    for fd in from..to {
        // SAFETY: closing a descriptor that is not open fails with EBADF
        // and does nothing else; this process needs none of them.
        unsafe { libc::close(fd) };
    }
}

/// Ends the helper the way the bot ended: the same exit status, or death
/// by the same signal (without a core dump).
fn relay(status: i32) -> ! {
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        let _ = confine::rlimits(&[(Resource::Core, 0, 0)]);
        // SAFETY: resetting a disposition and signalling ourselves.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signal);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
        }
        std::process::exit(128 + signal);
    }
    std::process::exit(libc::WEXITSTATUS(status))
}

/// Kills every process left below the subreaper, until none is.
fn kill_descendants() {
    let me = std::process::id().to_string();
    loop {
        for pid in children_of(&me) {
            let _ = nix::sys::signal::kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            Err(_) => return,
            Ok(WaitStatus::StillAlive) => std::thread::sleep(std::time::Duration::from_millis(1)),
            Ok(_) => {}
        }
    }
}

fn children_of(parent: &str) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                // Fields after the command (which may hold spaces): state, ppid.
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                    == Some(parent)
            })
        })
        .collect()
}

/// What `aboure sandbox-exec --probe` found: `None` where a layer works,
/// else the system's reason.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct ProbeReport {
    /// Unsharing user, pid, network, mount, IPC and UTS namespaces.
    pub namespaces: Option<String>,
    /// Mounting a `/proc` inside them.
    pub proc: Option<String>,
    /// Building a constructed root and entering it.
    pub root: Option<String>,
    /// Becoming an unprivileged uid (probed as root only).
    pub identity: Option<String>,
    /// Restricting itself with Landlock.
    pub landlock: Option<String>,
    /// Installing the seccomp filter.
    pub seccomp: Option<String>,
}

/// The uid and gid the probe becomes (`nobody`'s on most systems): any
/// unprivileged id tests the same calls.
const PROBE_ID: Identity = Identity {
    uid: 65534,
    gid: 65534,
};

/// Tries each layer on itself and prints a [`ProbeReport`] as JSON; never
/// returns.
pub fn probe_main() -> ! {
    let mut report = ProbeReport::default();
    let root_user = nix::unistd::geteuid().is_root();
    if root_user {
        report.identity =
            in_child(|| Ok(confine::assume(PROBE_ID).map(|()| None)?)).unwrap_or_else(Some);
    }
    if let Err(e) = enter_namespaces(true, !root_user) {
        report.namespaces = Some(e);
    } else {
        // The mounts need pid 1 of the new namespace: a child.
        let owner = match root_user {
            true => PROBE_ID,
            false => Identity {
                uid: nix::unistd::getuid().as_raw(),
                gid: nix::unistd::getgid().as_raw(),
            },
        };
        let tried = in_child(|| {
            mount_proc()?;
            let root = Root {
                entries: vec![Entry {
                    path: "/usr".into(),
                    kind: EntryKind::ReadOnly,
                    source: None,
                }],
                scratch: 1 << 20,
            };
            Ok(crate::root::enter(&root, owner, false)
                .err()
                .map(|e| e.to_string()))
        });
        match tried {
            Ok(root) => report.root = root,
            Err(proc) => report.proc = Some(proc),
        }
    }
    let _ = confine::no_new_privs();
    let rules = Rules {
        read: vec!["/usr".into()],
        ..Rules::default()
    };
    report.landlock = confine::landlock(&rules).err().map(|e| e.to_string());
    report.seccomp = crate::seccomp::install(false, false, false, false)
        .err()
        .map(|e| e.to_string());
    println!("{}", serde_json::to_string(&report).unwrap_or_default());
    std::process::exit(0)
}

/// Runs `f` in a child process and returns its answer (sent back through a
/// pipe as JSON): `Err` where `f` failed, or the child did not answer.
fn in_child(f: impl FnOnce() -> Result<Option<String>, String>) -> Result<Option<String>, String> {
    let (r, w) = nix::unistd::pipe().map_err(|e| format!("pipe: {e}"))?;
    // SAFETY: the helper is single-threaded.
    match unsafe { fork() }.map_err(|e| format!("fork: {e}"))? {
        ForkResult::Child => {
            drop(r);
            let answer = serde_json::to_vec(&f()).unwrap_or_default();
            let _ = std::fs::File::from(w).write_all(&answer);
            std::process::exit(0)
        }
        ForkResult::Parent { child } => {
            drop(w);
            let mut answer = Vec::new();
            let _ = std::fs::File::from(r).read_to_end(&mut answer);
            wait_for(child);
            serde_json::from_slice(&answer).unwrap_or_else(|_| Err("the probe died".to_owned()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::close_each;

    /// Writes a byte to `fd`: the error, if any.
    fn write_byte(fd: i32) -> Option<i32> {
        // SAFETY: writes one byte from a live buffer.
        match unsafe { libc::write(fd, [0u8].as_ptr().cast(), 1) } {
            1 => None,
            _ => std::io::Error::last_os_error().raw_os_error(),
        }
    }

    #[test]
    fn the_fallback_closes_exactly_the_range_it_is_given() {
        let mut fds = [0; 2];
        // SAFETY: pipe writes two descriptors into the array it is given.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let [read, write] = fds;
        assert_eq!(write_byte(write), None);
        // Only the read end: the pipe then has no reader (EPIPE, which a
        // number reused by another thread meanwhile cannot change), and the
        // write end, just past the range, is still open (not EBADF).
        close_each(read, read + 1);
        assert_eq!(write_byte(write), Some(libc::EPIPE));
        close_each(write, write + 1);
    }
}
