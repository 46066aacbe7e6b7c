//! What the benchmarks read of the operating system: the CPU time of the
//! calling thread (rates per CPU-second stay honest on a busy machine, where
//! wall-clock rates understate the code), this process's resident memory,
//! and the peak memory of the children it waited for.

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
}
