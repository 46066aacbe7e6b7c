//! The hold relay of a sandbox with a pid namespace and no freezer (an
//! unprivileged arbiter): the arbiter queues a hold or a release to the
//! helper, the helper queues it on to the init of the bot's pid namespace,
//! and the init stops or continues every process of the namespace with
//! `kill(-1)`, wherever a process moved its group or session.
//!
//! Both hops carry one real-time signal with a value
//! ([`aboure_process::hold::relay_signal`]): queued in the order sent, so a
//! release and the hold that follows it microseconds later arrive in that
//! order. Two plain signals (the first design) pending at once were taken
//! in number order, and a bot that moved at once could be left running
//! through its opponent's whole move.
//!
//! The init acts only on a request queued from outside its namespace (the
//! helper's, whose pid it cannot see: `si_pid` 0): a bot's own process
//! cannot release itself through its init.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use aboure_process::hold::{queue, relay_signal, HOLD, RELEASE};

/// The init of the bot's pid namespace, for the helper's relay.
static INIT: AtomicI32 = AtomicI32::new(0);

/// Called in the helper once the init is forked.
pub(crate) fn set_init(pid: i32) {
    INIT.store(pid, Ordering::Relaxed);
}

/// Whether the last request the helper passed on was a hold.
static HELD: AtomicBool = AtomicBool::new(false);

/// In the helper: whether the bot is held (the last request a hold), so
/// that its watch measures nothing meanwhile (see `watch`).
pub(crate) fn held() -> bool {
    HELD.load(Ordering::Relaxed)
}

/// The helper's handler: a queued request passed on to the init.
extern "C" fn pass_on(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    let init = INIT.load(Ordering::Relaxed);
    let Some(value) = queued(info) else { return };
    // Async-signal-safe (an atomic store).
    match value {
        HOLD => HELD.store(true, Ordering::Relaxed),
        RELEASE => HELD.store(false, Ordering::Relaxed),
        _ => {}
    }
    if init > 0 {
        // Async-signal-safe (sigqueue).
        let _ = queue(init, value);
    }
}

/// The init's handler: every process of the namespace but the init itself
/// stopped or continued.
extern "C" fn hold_namespace(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel's siginfo for this delivery.
    if info.is_null() || unsafe { (*info).si_pid() } != 0 {
        return;
    }
    let to = match queued(info) {
        Some(HOLD) => libc::SIGSTOP,
        Some(RELEASE) => libc::SIGCONT,
        _ => return,
    };
    // SAFETY: kill is async-signal-safe; -1 is every process this one may
    // signal, which in the bot's pid namespace is the bot's.
    unsafe { libc::kill(-1, to) };
}

/// The value of a request queued with `sigqueue`, or `None` for a signal
/// sent any other way.
fn queued(info: *const libc::siginfo_t) -> Option<usize> {
    if info.is_null() {
        return None;
    }
    // SAFETY: the kernel's siginfo for this delivery; `si_value` is the
    // field of a queued signal (`SI_QUEUE`).
    unsafe {
        if (*info).si_code != libc::SI_QUEUE {
            return None;
        }
        Some((*info).si_value().sival_ptr as usize)
    }
}

/// Installs the helper's relay (before the init is forked, so that a hold
/// never finds the default action, which would end the helper).
pub(crate) fn in_helper() -> Result<(), String> {
    install(pass_on)
}

/// Installs the init's handler.
pub(crate) fn in_init() -> Result<(), String> {
    install(hold_namespace)
}

type Handler = extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void);

/// `sigaction` through libc: nix's `Signal` names standard signals only.
fn install(handler: Handler) -> Result<(), String> {
    // SAFETY: a zeroed sigaction is a valid start; the mask is emptied and
    // the handler takes the three arguments SA_SIGINFO passes. Each request
    // runs with the signal blocked (no SA_NODEFER), so requests are handled
    // one after another in the order queued.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler as usize;
        action.sa_flags = libc::SA_RESTART | libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        if libc::sigaction(relay_signal(), &action, std::ptr::null_mut()) != 0 {
            return Err(format!("sigaction: {}", std::io::Error::last_os_error()));
        }
    }
    Ok(())
}
