//! What a bot's sandbox is made of: the validated `[sandbox]` table of a
//! tournament ([`Settings`]) and one bot's allowances ([`Policy`]). This
//! crate reads no TOML: the tournament file's reader (the arbiter's config)
//! owns the keys, their defaults and their errors, and hands these values
//! over already checked.

use std::ops::RangeInclusive;
use std::path::PathBuf;

/// How much of the sandbox to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every layer this machine allows; the missing ones are reported.
    Auto,
    /// Every layer, or refuse to start.
    Strict,
    /// None: bots run as plain child processes.
    Off,
}

/// The smallest scratch tmpfs (a bot's `/tmp`): one smaller than a page is
/// no use, and a typo like "256" bytes should not pass.
pub const MIN_SCRATCH: u64 = 1 << 20;

/// Open descriptors and processes a bot may have: at least enough for the
/// helper and a runtime's threads, at most a sane machine's.
pub const COUNT_RANGE: RangeInclusive<u64> = 16..=1_000_000;

/// A bot's CPU quota, in thousandths of a core: 0.01 to 1024 cores.
pub const CPU_MILLIS_RANGE: RangeInclusive<u64> = 10..=1_024_000;

/// The highest core number of a `cpus` list.
pub const MAX_CORE: u32 = 4095;

/// The `[sandbox]` table as read, before [`Settings::new`] checks it.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingsParts {
    /// How much of the sandbox to use.
    pub mode: Mode,
    /// Allowances for every bot (each bot's own are added to these).
    pub defaults: Policy,
    /// Largest file a bot may write, in bytes (`RLIMIT_FSIZE`).
    pub file_size: u64,
    /// Open descriptors per process (`RLIMIT_NOFILE`), in [`COUNT_RANGE`].
    pub open_files: u64,
    /// Processes and threads of one bot together (the pids cgroup, else
    /// `RLIMIT_NPROC`), in [`COUNT_RANGE`].
    pub processes: u64,
    /// CPU time of one bot, in thousandths of a core (`cpu = "1"`: 1000),
    /// in [`CPU_MILLIS_RANGE`]; `None` for `cpu = "unlimited"`.
    pub cpu_millis: Option<u64>,
    /// The cores bots run on (`cpus = "0,2-3"`: `[0..=0, 2..=3]`), none
    /// above [`MAX_CORE`]; `None`: all.
    pub cpus: Option<Vec<RangeInclusive<u32>>>,
    /// Size of a bot's scratch tmpfs (`/tmp` and `HOME` of its constructed
    /// root), bytes, at least [`MIN_SCRATCH`], unless the bot sets its own.
    pub disk: u64,
    /// The uids (and gids) bots run as when the arbiter is root, one per
    /// bot process running at the same time: never root's.
    pub uids: RangeInclusive<u32>,
    /// What a bot's `write` folders may hold together, bytes on disk: a
    /// bot over it is stopped.
    pub write_size: u64,
    /// What every bot process of the run may hold together (the run's
    /// memory cgroup), and what a bot without a `memory-limit` may hold.
    pub run_memory: RunMemory,
}

/// The memory every bot process of a run holds together at most: a share
/// of the machine's, or a size. Without a bound, one bot with no
/// `memory-limit` could take the machine's memory from everything else,
/// the arbiter included, and the kernel's OOM killer would choose among
/// every process of the machine; bounded, it acts inside the run's group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunMemory {
    /// Percent of the machine's memory (`MemTotal`), 1 to 100.
    Share(u8),
    /// Bytes, at least [`MIN_RUN_MEMORY`].
    Bytes(u64),
}

/// The smallest `run-memory` size: less would not start a runtime.
pub const MIN_RUN_MEMORY: u64 = 16 << 20;

impl RunMemory {
    /// The bound in bytes on a machine of `total` bytes of memory.
    pub fn bytes(self, total: u64) -> u64 {
        match self {
            RunMemory::Share(percent) => (u128::from(total) * u128::from(percent) / 100) as u64,
            RunMemory::Bytes(bytes) => bytes,
        }
    }
}

/// A value of [`SettingsParts`] the sandbox cannot work with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// `open-files` out of [`COUNT_RANGE`].
    #[error("{0} is out of range: must be between 16 and 1000000")]
    OpenFiles(u64),
    /// `processes` out of [`COUNT_RANGE`].
    #[error("{0} is out of range: must be between 16 and 1000000")]
    Processes(u64),
    /// `cpu` out of [`CPU_MILLIS_RANGE`].
    #[error("is out of range: between 0.01 and 1024 cores")]
    Cpu,
    /// `cpus` empty, with a range that ends before it starts, or a core
    /// above [`MAX_CORE`].
    #[error("is not a list of cores like \"0,1\" or \"0-3,6\"")]
    Cpus,
    /// `disk` below [`MIN_SCRATCH`].
    #[error("is less than 1MiB")]
    Disk,
    /// `uids` that include root, end before they start, or reach the
    /// kernel's reserved ids.
    #[error("must go from a first uid above 0 to a last one at least as large")]
    Uids,
    /// `run-memory` a share outside 1 to 100%, or less than
    /// [`MIN_RUN_MEMORY`].
    #[error("must be a share from 1% to 100% of the machine's memory, or at least 16MiB")]
    RunMemory,
}

impl SettingsError {
    /// The key of the `[sandbox]` table the error is about.
    pub fn key(&self) -> &'static str {
        match self {
            SettingsError::OpenFiles(_) => "open-files",
            SettingsError::Processes(_) => "processes",
            SettingsError::Cpu => "cpu",
            SettingsError::Cpus => "cpus",
            SettingsError::Disk => "disk",
            SettingsError::Uids => "uids",
            SettingsError::RunMemory => "run-memory",
        }
    }
}

/// The validated `[sandbox]` table: only [`Settings::new`] makes one, so
/// its values are always ones the sandbox can apply.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub(crate) mode: Mode,
    pub(crate) defaults: Policy,
    pub(crate) file_size: u64,
    pub(crate) open_files: u64,
    pub(crate) processes: u64,
    // Fairness (the cpu and cpuset controllers), kept together.
    pub(crate) cpu_millis: Option<u64>,
    /// A cpuset list in the kernel's spelling (`0,2-3`).
    pub(crate) cpus: Option<String>,
    pub(crate) disk: u64,
    pub(crate) uids: RangeInclusive<u32>,
    pub(crate) write_size: u64,
    pub(crate) run_memory: RunMemory,
}

impl Settings {
    /// Checks `parts`: each value in its documented range.
    pub fn new(parts: SettingsParts) -> Result<Settings, SettingsError> {
        if !COUNT_RANGE.contains(&parts.open_files) {
            return Err(SettingsError::OpenFiles(parts.open_files));
        }
        if !COUNT_RANGE.contains(&parts.processes) {
            return Err(SettingsError::Processes(parts.processes));
        }
        if parts
            .cpu_millis
            .is_some_and(|m| !CPU_MILLIS_RANGE.contains(&m))
        {
            return Err(SettingsError::Cpu);
        }
        let cpus = match parts.cpus {
            None => None,
            Some(list) => {
                let bad = |r: &RangeInclusive<u32>| r.start() > r.end() || *r.end() > MAX_CORE;
                if list.is_empty() || list.iter().any(bad) {
                    return Err(SettingsError::Cpus);
                }
                let spelled: Vec<String> = (list.iter())
                    .map(|r| match r.start() == r.end() {
                        true => r.start().to_string(),
                        false => format!("{}-{}", r.start(), r.end()),
                    })
                    .collect();
                Some(spelled.join(","))
            }
        };
        if parts.disk < MIN_SCRATCH {
            return Err(SettingsError::Disk);
        }
        let (first, last) = (*parts.uids.start(), *parts.uids.end());
        if first == 0 || first > last || last >= u32::MAX - 1 {
            return Err(SettingsError::Uids);
        }
        if match parts.run_memory {
            RunMemory::Share(percent) => !(1..=100).contains(&percent),
            RunMemory::Bytes(bytes) => bytes < MIN_RUN_MEMORY,
        } {
            return Err(SettingsError::RunMemory);
        }
        Ok(Settings {
            mode: parts.mode,
            defaults: parts.defaults,
            file_size: parts.file_size,
            open_files: parts.open_files,
            processes: parts.processes,
            cpu_millis: parts.cpu_millis,
            cpus,
            disk: parts.disk,
            uids: parts.uids,
            write_size: parts.write_size,
            run_memory: parts.run_memory,
        })
    }

    /// The same settings in another mode (`aboure check-bot --sandbox`).
    pub fn with_mode(self, mode: Mode) -> Settings {
        Settings { mode, ..self }
    }

    /// How much of the sandbox to use.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Allowances for every bot (each bot's own are added to these).
    pub fn defaults(&self) -> &Policy {
        &self.defaults
    }

    /// Largest file a bot may write, in bytes (`RLIMIT_FSIZE`).
    pub fn file_size(&self) -> u64 {
        self.file_size
    }

    /// Open descriptors per process (`RLIMIT_NOFILE`).
    pub fn open_files(&self) -> u64 {
        self.open_files
    }

    /// Processes and threads of one bot together.
    pub fn processes(&self) -> u64 {
        self.processes
    }

    /// CPU time of one bot, in thousandths of a core; `None`: unlimited.
    pub fn cpu_millis(&self) -> Option<u64> {
        self.cpu_millis
    }

    /// The cores bots run on, a cpuset list (`0,2-3`); `None`: all.
    pub fn cpus(&self) -> Option<&str> {
        self.cpus.as_deref()
    }

    /// Size of a bot's scratch tmpfs, bytes, unless the bot sets its own.
    pub fn disk(&self) -> u64 {
        self.disk
    }

    /// The uids (and gids) bots run as when the arbiter is root.
    pub fn uids(&self) -> &RangeInclusive<u32> {
        &self.uids
    }

    /// What a bot's `write` folders may hold together, bytes on disk.
    pub fn write_size(&self) -> u64 {
        self.write_size
    }

    /// What every bot process of the run may hold together.
    pub fn run_memory(&self) -> RunMemory {
        self.run_memory
    }
}

/// What one bot may do beyond the default cage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// False for `sandbox = false`: the bot runs as a plain child process
    /// (for a `wrapper` that is a sandbox of its own, such as docker).
    pub disabled: bool,
    /// Network access.
    pub network: bool,
    /// Extra paths it may read (absolute).
    pub read: Vec<PathBuf>,
    /// Extra paths it may write (absolute).
    pub write: Vec<PathBuf>,
    /// Its own scratch size, bytes, instead of the table's `disk`.
    pub disk: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts() -> SettingsParts {
        SettingsParts {
            mode: Mode::Auto,
            defaults: Policy::default(),
            file_size: 1 << 30,
            open_files: 1024,
            processes: 512,
            cpu_millis: Some(1000),
            cpus: Some(vec![0..=0, 2..=3]),
            disk: 256 << 20,
            uids: 60000..=60999,
            write_size: 1 << 30,
            run_memory: RunMemory::Share(75),
        }
    }

    #[test]
    fn valid_parts_make_settings_with_the_kernels_cpu_list() {
        let s = Settings::new(parts()).unwrap();
        assert_eq!(s.cpus(), Some("0,2-3"));
        assert_eq!(s.with_mode(Mode::Off).mode(), Mode::Off);
    }

    /// A change to valid parts, and the key its refusal names.
    type Case = (fn(&mut SettingsParts), &'static str);

    #[test]
    #[allow(clippy::reversed_empty_ranges)] // the reversed ranges are the point
    fn each_invariant_is_checked_and_names_its_key() {
        let cases: [Case; 11] = [
            (|p| p.open_files = 15, "open-files"),
            (|p| p.processes = 1_000_001, "processes"),
            (|p| p.cpu_millis = Some(9), "cpu"),
            (|p| p.cpus = Some(vec![3..=1]), "cpus"),
            (|p| p.cpus = Some(vec![0..=4096]), "cpus"),
            (|p| p.disk = MIN_SCRATCH - 1, "disk"),
            (|p| p.uids = 0..=10, "uids"),
            (|p| p.uids = 10..=5, "uids"),
            (|p| p.run_memory = RunMemory::Share(0), "run-memory"),
            (|p| p.run_memory = RunMemory::Share(101), "run-memory"),
            (
                |p| p.run_memory = RunMemory::Bytes(MIN_RUN_MEMORY - 1),
                "run-memory",
            ),
        ];
        for (change, key) in cases {
            let mut p = parts();
            change(&mut p);
            assert_eq!(Settings::new(p).unwrap_err().key(), key);
        }
        let mut p = parts();
        p.cpu_millis = None;
        assert!(Settings::new(p).is_ok());
    }

    #[test]
    fn a_share_of_the_machines_memory_is_its_percent() {
        assert_eq!(RunMemory::Share(75).bytes(24 << 30), 18 << 30);
        assert_eq!(RunMemory::Share(100).bytes(1000), 1000);
        assert_eq!(RunMemory::Bytes(64 << 20).bytes(24 << 30), 64 << 20);
    }
}
