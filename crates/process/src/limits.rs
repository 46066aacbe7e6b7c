//! Per-bot resource limits, enforced by the operating system in the bot's
//! process (`setrlimit` between `fork` and `exec`), so a bot that allocates
//! or computes without end is stopped by the kernel, not by the arbiter's
//! goodwill. The limits are inherited by everything the bot starts (each
//! process gets its own allowance).
//!
//! How a limit shows: past `RLIMIT_CPU` the kernel sends `SIGXCPU` (and
//! `SIGKILL` a second later, which counts only if the bot had used that much
//! CPU time: the out-of-memory killer's `SIGKILL` is no CPU limit); past the
//! memory limit allocations fail, which
//! native programs usually answer by aborting (`SIGABRT`) or faulting
//! (`SIGSEGV`). Those deaths, with the matching limit set, are recorded as
//! `resource_limit`. So is a program that handles the failure itself
//! (Python's `MemoryError`, exiting with status 1) when its stderr says so
//! ([`Limits::explain_report`]; the process module reads the stderr).
//!
//! Why `RLIMIT_DATA` for memory, not `RLIMIT_AS`: since Linux 4.7 the data
//! limit counts every private writable mapping (the heap, anonymous `mmap`,
//! thread stacks): the memory a process can dirty. The address-space limit
//! also counts reservations that hold no memory, and today's runtimes reserve
//! far more than they use: under 512 MiB of address space Node.js aborts
//! before its first line ("Failed to reserve virtual memory for CodeRange"),
//! a Go program dies in its runtime's start ("failed to reserve page summary
//! memory"), and the JVM needs about 4 GiB with its default flags. Under
//! 512 MiB of `RLIMIT_DATA` all three start, and each fails when it really
//! allocates past the limit. Shared mappings are not data: the sandbox denies
//! a bot shared anonymous memory when this limit is the one in force. On
//! kernels before 4.7 `RLIMIT_DATA` ignores `mmap`, so there the limit is
//! `RLIMIT_AS` ([`MemoryRlimit::current`]).

use std::process::ExitStatus;
use std::time::Duration;

use crate::exit::Exit;

/// Limits on one bot process; `None` is unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Memory each process may dirty, in bytes (`RLIMIT_DATA`; the address
    /// space, `RLIMIT_AS`, on kernels before 4.7).
    pub memory: Option<u64>,
    /// CPU time, rounded up to whole seconds (`RLIMIT_CPU`).
    pub cpu: Option<Duration>,
}

impl Limits {
    /// True if no limit is set.
    pub fn is_none(&self) -> bool {
        self.memory.is_none() && self.cpu.is_none()
    }

    /// Applies the limits to the calling process. Meant for the child
    /// between `fork` and `exec`: it only makes system calls.
    pub fn apply(&self) -> std::io::Result<()> {
        if let Some(bytes) = self.memory {
            set(MemoryRlimit::current().resource(), bytes, bytes)?;
        }
        if let Some(cpu) = self.cpu {
            let secs = cpu_seconds(cpu);
            // The soft limit sends SIGXCPU; the hard one, a second later,
            // SIGKILL for a bot that ignores it.
            set(libc::RLIMIT_CPU, secs, secs + 1)?;
        }
        Ok(())
    }

    /// If `exit` is how a bot dies at one of these limits, says so.
    pub fn explain(&self, exit: Exit) -> Option<String> {
        use std::os::unix::process::ExitStatusExt;
        let signal = exit.status.signal()?;
        if let Some(cpu) = self.cpu {
            // The hard limit's SIGKILL comes a second after the soft one.
            let used_up = exit
                .cpu
                .is_some_and(|used| used >= cpu_seconds_duration(cpu));
            if signal == libc::SIGXCPU || (signal == libc::SIGKILL && used_up) {
                return Some(format!(
                    "CPU time limit of {} s reached (signal {signal})",
                    cpu_seconds(cpu)
                ));
            }
        }
        if let Some(bytes) = self.memory {
            if [libc::SIGABRT, libc::SIGSEGV, libc::SIGBUS].contains(&signal) {
                return Some(format!(
                    "killed by signal {signal}, most likely at the memory limit of {}",
                    size_text(bytes)
                ));
            }
        }
        None
    }

    /// If a bot that exited with `status` under a memory limit had reported
    /// a failed allocation (`report`, a line of its stderr) before, says so:
    /// a program that handles the failure itself (Python's `MemoryError`)
    /// exits normally with an error status.
    pub fn explain_report(&self, status: ExitStatus, report: &str) -> Option<String> {
        let bytes = self.memory?;
        let ended = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => status.to_string(),
        };
        Some(format!(
            "{ended} after reporting a failed allocation ({report:?}) under the memory limit of {}",
            size_text(bytes)
        ))
    }
}

/// The resource limit that holds a process's memory without a cgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryRlimit {
    /// `RLIMIT_DATA`: private writable memory (Linux 4.7 and later).
    Data,
    /// `RLIMIT_AS`: the address space, reservations included (older kernels,
    /// whose `RLIMIT_DATA` ignores `mmap`).
    AddressSpace,
}

impl MemoryRlimit {
    /// The one this kernel enforces well. Only calls `uname`, so it is safe
    /// between `fork` and `exec`.
    pub fn current() -> MemoryRlimit {
        // SAFETY: utsname is plain bytes; uname fills it and nothing else.
        let mut name: libc::utsname = unsafe { std::mem::zeroed() };
        // SAFETY: `name` is a valid, writable utsname.
        let release = match unsafe { libc::uname(&mut name) } {
            0 => &name.release[..],
            _ => &[][..],
        };
        let bytes = release.iter().take_while(|&&c| c != 0).map(|&c| c as u8);
        match kernel_version(bytes) {
            Some(version) if version < (4, 7) => MemoryRlimit::AddressSpace,
            _ => MemoryRlimit::Data,
        }
    }

    /// How the limit is described to a user.
    pub fn describe(self) -> &'static str {
        match self {
            MemoryRlimit::Data => "RLIMIT_DATA: the memory each process may dirty",
            MemoryRlimit::AddressSpace => "RLIMIT_AS: the address space of each process",
        }
    }

    fn resource(self) -> libc::__rlimit_resource_t {
        match self {
            MemoryRlimit::Data => libc::RLIMIT_DATA,
            MemoryRlimit::AddressSpace => libc::RLIMIT_AS,
        }
    }
}

/// The major and minor numbers at the start of a kernel release
/// ("6.1.0-18-amd64"), without allocating.
fn kernel_version(release: impl Iterator<Item = u8>) -> Option<(u32, u32)> {
    let (mut major, mut minor, mut dots, mut digits) = (0u32, 0u32, 0, 0);
    for c in release {
        match c {
            b'0'..=b'9' => {
                let part = if dots == 0 { &mut major } else { &mut minor };
                *part = part.saturating_mul(10).saturating_add(u32::from(c - b'0'));
                digits += 1;
            }
            b'.' if dots == 0 && digits > 0 => {
                dots = 1;
                digits = 0;
            }
            _ => break,
        }
    }
    (dots == 1 && digits > 0).then_some((major, minor))
}

fn cpu_seconds(cpu: Duration) -> u64 {
    cpu.as_secs() + u64::from(cpu.subsec_nanos() > 0)
}

fn cpu_seconds_duration(cpu: Duration) -> Duration {
    Duration::from_secs(cpu_seconds(cpu))
}

#[allow(clippy::useless_conversion)] // rlim_t differs between platforms
fn set(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: soft.try_into().unwrap_or(libc::RLIM_INFINITY),
        rlim_max: hard.try_into().unwrap_or(libc::RLIM_INFINITY),
    };
    // SAFETY: setrlimit reads the struct we pass and nothing else.
    if unsafe { libc::setrlimit(resource, &limit) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Why a text is not a size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// No number where one was expected.
    #[error("{0:?} is not a size like \"512MiB\" or \"2GiB\"")]
    NotASize(String),
    /// A unit not in the list.
    #[error("unknown unit {unit:?} in {text:?}: use B, KiB, MiB, GiB, kB, MB or GB")]
    UnknownUnit {
        /// The unit given.
        unit: String,
        /// The whole text.
        text: String,
    },
    /// More bytes than fit in 64 bits.
    #[error("{0:?} is too large")]
    TooLarge(String),
}

/// A size like `"512MiB"`, `"2 GiB"`, `"100MB"`, `"65536"` (bytes), in bytes.
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let n: u64 = digits
        .parse()
        .map_err(|_| SizeError::NotASize(text.to_owned()))?;
    let scale: u64 = match unit.trim() {
        "" | "B" => 1,
        "KiB" | "K" => 1 << 10,
        "MiB" | "M" => 1 << 20,
        "GiB" | "G" => 1 << 30,
        "kB" | "KB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        other => {
            return Err(SizeError::UnknownUnit {
                unit: other.to_owned(),
                text: text.to_owned(),
            })
        }
    };
    n.checked_mul(scale)
        .ok_or_else(|| SizeError::TooLarge(text.to_owned()))
}

/// The smallest memory limit accepted: below it no program starts.
pub const MIN_MEMORY: u64 = 1 << 20;

/// The longest duration accepted, for a CPU limit as for every duration
/// of a tournament file.
pub const MAX_DURATION: Duration = Duration::from_secs(7 * 24 * 3600);

/// Why a text is not a usable limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// Not a size.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// A memory limit under [`MIN_MEMORY`].
    #[error("must be at least 1MiB")]
    TooLittleMemory,
    /// Not a duration.
    #[error("{text:?} is not a duration like \"2s\" or \"50ms\": {reason}")]
    NotADuration {
        /// The text given.
        text: String,
        /// What the duration parser said.
        reason: String,
    },
    /// A zero duration.
    #[error("must be positive")]
    Zero,
    /// A duration over [`MAX_DURATION`].
    #[error("{0:?} is too long: at most 7 days")]
    TooLong(String),
}

/// A memory limit (`memory-limit`, `--memory-limit`): a size of at least
/// [`MIN_MEMORY`], in bytes. The one rule for a tournament file and for
/// `check-bot`.
pub fn parse_memory_limit(text: &str) -> Result<u64, LimitError> {
    let bytes = parse_size(text)?;
    if bytes < MIN_MEMORY {
        return Err(LimitError::TooLittleMemory);
    }
    Ok(bytes)
}

/// A duration like `"2s"` or `"50ms"`, at most [`MAX_DURATION`].
pub fn parse_duration(text: &str) -> Result<Duration, LimitError> {
    let d = humantime::parse_duration(text.trim()).map_err(|e| LimitError::NotADuration {
        text: text.to_owned(),
        reason: e.to_string(),
    })?;
    if d > MAX_DURATION {
        return Err(LimitError::TooLong(text.to_owned()));
    }
    Ok(d)
}

/// A CPU limit (`cpu-limit`, `--cpu-limit`): a positive duration of at
/// most [`MAX_DURATION`]. The one rule for a tournament file and for
/// `check-bot`.
pub fn parse_cpu_limit(text: &str) -> Result<Duration, LimitError> {
    match parse_duration(text)? {
        d if d.is_zero() => Err(LimitError::Zero),
        d => Ok(d),
    }
}

/// Bytes as the largest whole binary unit, e.g. `256 MiB`.
pub fn size_text(bytes: u64) -> String {
    for (unit, scale) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
        // Scales are powers of two: a multiple has at least their zeros.
        if bytes >= scale && bytes.trailing_zeros() >= scale.trailing_zeros() {
            return format!("{} {unit}", bytes / scale);
        }
    }
    format!("{bytes} B")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size(" 2 GiB "), Ok(2 << 30));
        assert_eq!(parse_size("100MB"), Ok(100_000_000));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(
            parse_size("-1MiB"),
            Err(SizeError::NotASize("-1MiB".to_owned()))
        );
        assert_eq!(
            parse_size("12 parsecs").unwrap_err().to_string(),
            "unknown unit \"parsecs\" in \"12 parsecs\": use B, KiB, MiB, GiB, kB, MB or GB"
        );
        assert!(matches!(
            parse_size("99999999999999GiB"),
            Err(SizeError::TooLarge(_))
        ));
        assert_eq!(size_text(256 << 20), "256 MiB");
        assert_eq!(size_text(1000), "1000 B");
    }

    #[test]
    fn deaths_at_a_limit_are_recognised() {
        use std::os::unix::process::ExitStatusExt;
        let status = |raw| Exit {
            status: ExitStatus::from_raw(raw),
            cpu: None,
        };
        let cpu = Limits {
            memory: None,
            cpu: Some(Duration::from_secs(2)),
        };
        let why = cpu.explain(status(libc::SIGXCPU)).unwrap();
        assert!(why.contains("CPU time limit of 2 s"), "{why}");
        // A SIGKILL is the hard limit's only with the CPU time used up.
        let killed_after = |secs| Exit {
            status: ExitStatus::from_raw(libc::SIGKILL),
            cpu: Some(Duration::from_secs(secs)),
        };
        let why = cpu.explain(killed_after(3)).unwrap();
        assert!(why.contains("CPU time limit of 2 s"), "{why}");
        assert_eq!(
            cpu.explain(killed_after(0)),
            None,
            "the OOM killer's SIGKILL"
        );
        assert_eq!(cpu.explain(status(libc::SIGKILL)), None, "CPU time unknown");
        assert_eq!(cpu.explain(status(libc::SIGABRT)), None);
        assert_eq!(cpu.explain(status(3 << 8)), None, "exit status 3");
        let memory = Limits {
            memory: Some(256 << 20),
            cpu: None,
        };
        let why = memory.explain(status(libc::SIGABRT)).unwrap();
        assert!(why.contains("memory limit of 256 MiB"), "{why}");
        let exit1 = ExitStatus::from_raw(1 << 8);
        let why = memory.explain_report(exit1, "MemoryError").unwrap();
        assert_eq!(
            why,
            "exited with status 1 after reporting a failed allocation (\"MemoryError\") under the memory limit of 256 MiB"
        );
        assert_eq!(Limits::default().explain_report(exit1, "MemoryError"), None);
        assert_eq!(memory.explain(status(libc::SIGXCPU)), None);
        assert_eq!(Limits::default().explain(status(libc::SIGSEGV)), None);
    }

    #[test]
    fn kernel_releases_are_read_up_to_the_minor_number() {
        let version = |s: &str| kernel_version(s.bytes());
        assert_eq!(version("6.1.0-18-amd64"), Some((6, 1)));
        assert_eq!(version("4.7"), Some((4, 7)));
        assert_eq!(version("3.10.0-1160.el7.x86_64"), Some((3, 10)));
        assert_eq!(version("5.15.0-1"), Some((5, 15)));
        assert_eq!(version(""), None);
        assert_eq!(version("6"), None);
        assert_eq!(version("x.1"), None);
        // This machine's kernel is newer than 4.7.
        assert_eq!(MemoryRlimit::current(), MemoryRlimit::Data);
    }

    #[test]
    fn cpu_limits_round_up_to_whole_seconds() {
        assert_eq!(cpu_seconds(Duration::from_millis(1500)), 2);
        assert_eq!(cpu_seconds(Duration::from_secs(3)), 3);
    }
}
