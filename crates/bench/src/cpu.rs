//! What the benchmarks read of the operating system: the CPU time of the
//! calling thread (rates per CPU-second stay honest on a busy machine, where
//! wall-clock rates understate the code), this process's resident memory,
//! and the peak memory and CPU time of the children it waited for: the one
//! place that calls `getrusage` and `wait4`.

use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ExitStatus};
use std::time::Duration;

/// CPU time consumed by the calling thread, in seconds (NaN if the clock
/// cannot be read).
pub fn thread_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Resident memory of this process, bytes (Linux).
pub fn rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The largest peak resident memory of the children waited for so far,
/// bytes (`getrusage(RUSAGE_CHILDREN)`: a high-water mark over all of
/// them, so measure one kind of child per process, or the largest first).
pub fn children_peak() -> Option<u64> {
    // SAFETY: an all-zero rusage is a valid value for getrusage to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes one rusage through a valid pointer.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    // ru_maxrss is in kilobytes on Linux.
    (rc == 0).then(|| usage.ru_maxrss as u64 * 1024)
}

/// What a child process used, read as it was reaped.
#[derive(Clone, Copy, Debug)]
pub struct Reaped {
    /// How it ended.
    pub status: ExitStatus,
    /// Its peak resident memory, KiB (`ru_maxrss`).
    pub peak_kib: u64,
    /// CPU time in user mode and in the kernel.
    pub cpu: Duration,
}

/// Waits for `child` with `wait4`: how it ended and what it used (of that
/// child alone, unlike [`children_peak`]).
pub fn wait_measured(child: Child) -> std::io::Result<Reaped> {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on our own child, writing through valid pointers.
    if unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } != pid {
        return Err(std::io::Error::last_os_error());
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Ok(Reaped {
        status: ExitStatus::from_raw(status),
        // ru_maxrss is in kilobytes on Linux.
        peak_kib: usage.ru_maxrss as u64,
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_time_grows_with_work_and_memory_is_read() {
        let t0 = thread_seconds();
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(thread_seconds() > t0);
        assert!(rss().is_some_and(|b| b > 0));
        let status = std::process::Command::new("true").status().unwrap();
        assert!(status.success());
        assert!(children_peak().is_some_and(|b| b > 0));
    }

    #[test]
    fn a_reaped_child_tells_its_status_memory_and_time() {
        let script = "x = bytearray(64 << 20); s = sum(range(3_000_000)); raise SystemExit(3)";
        let child = std::process::Command::new("python3")
            .args(["-c", script])
            .spawn()
            .unwrap();
        let reaped = wait_measured(child).unwrap();
        assert_eq!(reaped.status.code(), Some(3));
        assert!(reaped.peak_kib > 64 << 10, "{reaped:?}");
        assert!(reaped.cpu > Duration::ZERO, "{reaped:?}");
    }
}
