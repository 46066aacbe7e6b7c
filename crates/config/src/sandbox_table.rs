//! `[sandbox]` and a bot's `sandbox = ...` and `wrapper = [...]`: their TOML
//! form and its validation into the sandbox crate's typed
//! [`aboure_sandbox::Settings`] and [`aboure_sandbox::Policy`]. The sandbox
//! crate reads no TOML: it receives values whose invariants already hold,
//! and the tournament file's reader owns every key, default and error.
//!
//! ```toml
//! [sandbox]
//! mode = "auto"          # "auto", "strict" or "off"
//! read = ["/opt/data"]   # for every bot
//! disk = "256MiB"        # each bot's private /tmp
//! uids = "60000-60999"   # the bots' uids when aboure runs as root
//! [[bot]]
//! sandbox = { network = true, read = ["/opt/models"], write = ["cache"], disk = "1GiB" }
//! ```

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use aboure_sandbox::{
    Mode, Policy, RunMemory, Settings, SettingsError, SettingsParts, COUNT_RANGE, MIN_SCRATCH,
};
use serde::Deserialize;
use toml::Spanned;

use super::Validator;
use crate::error::ConfigError;

/// The `[sandbox]` table as written.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawSandbox {
    mode: Option<Spanned<String>>,
    network: Option<Spanned<bool>>,
    read: Option<Spanned<Vec<String>>>,
    write: Option<Spanned<Vec<String>>>,
    file_size: Option<Spanned<String>>,
    open_files: Option<Spanned<i64>>,
    processes: Option<Spanned<i64>>,
    cpu: Option<Spanned<String>>,
    cpus: Option<Spanned<String>>,
    disk: Option<Spanned<String>>,
    uids: Option<Spanned<String>>,
    write_size: Option<Spanned<String>>,
    run_memory: Option<Spanned<String>>,
}

impl RawSandbox {
    /// The user's table over the base layer's, key by key.
    pub(super) fn over(self, base: RawSandbox) -> RawSandbox {
        RawSandbox {
            mode: self.mode.or(base.mode),
            network: self.network.or(base.network),
            read: self.read.or(base.read),
            write: self.write.or(base.write),
            file_size: self.file_size.or(base.file_size),
            open_files: self.open_files.or(base.open_files),
            processes: self.processes.or(base.processes),
            cpu: self.cpu.or(base.cpu),
            cpus: self.cpus.or(base.cpus),
            disk: self.disk.or(base.disk),
            uids: self.uids.or(base.uids),
            write_size: self.write_size.or(base.write_size),
            run_memory: self.run_memory.or(base.run_memory),
        }
    }
}

/// A bot's `sandbox = false` or `sandbox = { ... }` as written.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum RawPolicy {
    /// `sandbox = true` (the default cage) or `false` (none).
    Enabled(bool),
    /// Allowances.
    Table(RawAllowances),
}

/// A bot's allowances as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(super) struct RawAllowances {
    network: Option<bool>,
    #[serde(default)]
    read: Vec<String>,
    #[serde(default)]
    write: Vec<String>,
    disk: Option<String>,
}

impl Validator<'_> {
    /// The `[sandbox]` table (over the base layer's); relative paths are
    /// relative to the tournament file's folder. The text of each value is
    /// read here; the sandbox crate's [`Settings::new`] checks the ranges
    /// it needs, and its refusal is put at the key's place.
    pub(super) fn sandbox(&self, raw: &RawSandbox) -> Result<Settings, ConfigError> {
        let key = |name: &str| format!("sandbox.{name}");
        let mode = self.choice(
            self.required(&raw.mode, "sandbox.mode")?,
            "sandbox.mode",
            &[
                ("auto", Mode::Auto),
                ("strict", Mode::Strict),
                ("off", Mode::Off),
            ],
        )?;
        let network = *self.required(&raw.network, "sandbox.network")?.get_ref();
        let [read, write] = [(&raw.read, "read"), (&raw.write, "write")].map(|(list, name)| {
            let list = self.required(list, &key(name))?;
            self.paths(list.get_ref())
                .map_err(|m| self.at(list.span(), &key(name), m))
        });
        let text = |value, name| self.text(value, &key(name));
        let (file_size, at) = text(&raw.file_size, "file-size")?;
        let file_size = aboure_process::parse_size(file_size)
            .map_err(|e| self.at(at, "sandbox.file-size", e.to_string()))?;
        let count = |value: &Option<Spanned<i64>>, name: &str| {
            let value = self.required(value, &key(name))?;
            // A negative count is out of range too: Settings::new says so.
            Ok::<_, ConfigError>(u64::try_from(*value.get_ref()).unwrap_or(0))
        };
        let (cpu, at) = text(&raw.cpu, "cpu")?;
        let cpu_millis = cpu_share(cpu).map_err(|m| self.at(at, "sandbox.cpu", m))?;
        let cpus = match &raw.cpus {
            Some(c) => {
                Some(cpu_list(c.get_ref()).map_err(|m| self.at(c.span(), "sandbox.cpus", m))?)
            }
            None => None,
        };
        let (disk, at) = text(&raw.disk, "disk")?;
        let disk = aboure_process::parse_size(disk)
            .map_err(|e| self.at(at, "sandbox.disk", e.to_string()))?;
        let (write_size, at) = text(&raw.write_size, "write-size")?;
        let write_size = aboure_process::parse_size(write_size)
            .map_err(|e| self.at(at, "sandbox.write-size", e.to_string()))?;
        let (uids, at) = text(&raw.uids, "uids")?;
        let uids = uid_range(uids).map_err(|m| self.at(at, "sandbox.uids", m))?;
        let (run_memory, at) = text(&raw.run_memory, "run-memory")?;
        let run_memory =
            memory_bound(run_memory).map_err(|m| self.at(at, "sandbox.run-memory", m))?;
        let parts = SettingsParts {
            mode,
            defaults: Policy {
                network,
                read: read?,
                write: write?,
                ..Policy::default()
            },
            file_size,
            open_files: count(&raw.open_files, "open-files")?,
            processes: count(&raw.processes, "processes")?,
            cpu_millis,
            cpus,
            disk,
            uids,
            write_size,
            run_memory,
        };
        Settings::new(parts).map_err(|e| self.refused(raw, &e))
    }

    /// A text value the base layer gives, and its place.
    fn text<'v>(
        &self,
        value: &'v Option<Spanned<String>>,
        key: &str,
    ) -> Result<(&'v str, std::ops::Range<usize>), ConfigError> {
        let value = self.required(value, key)?;
        Ok((value.get_ref().as_str(), value.span()))
    }

    /// The sandbox's refusal `e` at the value of its key.
    fn refused(&self, raw: &RawSandbox, e: &SettingsError) -> ConfigError {
        let key = format!("sandbox.{}", e.key());
        let count = |value: &Option<Spanned<i64>>| {
            let (start, end) = (COUNT_RANGE.start(), COUNT_RANGE.end());
            (value.as_ref()).map(|v| {
                let n = v.get_ref();
                let message = format!("{n} is out of range: must be between {start} and {end}");
                (v.span(), Err(message))
            })
        };
        let text = |value: &Option<Spanned<String>>| {
            (value.as_ref()).map(|v| (v.span(), Ok(v.get_ref().clone())))
        };
        let place = match e {
            SettingsError::OpenFiles(_) => count(&raw.open_files),
            SettingsError::Processes(_) => count(&raw.processes),
            SettingsError::Cpu => text(&raw.cpu),
            SettingsError::Cpus => text(&raw.cpus),
            SettingsError::Disk => text(&raw.disk),
            SettingsError::Uids => text(&raw.uids),
            SettingsError::RunMemory => text(&raw.run_memory),
        };
        match place {
            Some((span, Ok(text))) => self.at(span, &key, format!("{text:?} {e}")),
            Some((span, Err(message))) => self.at(span, &key, message),
            None => self.whole(&key, e.to_string()),
        }
    }

    /// A bot's policy: its allowances (`raw`, its `sandbox` value at `key`,
    /// e.g. `bot[1].sandbox`) added to the tournament's `defaults`.
    pub(super) fn bot_policy(
        &self,
        defaults: &Policy,
        raw: Option<&Spanned<RawPolicy>>,
        key: &str,
    ) -> Result<Policy, ConfigError> {
        let mut policy = defaults.clone();
        let Some(raw) = raw else {
            return Ok(policy);
        };
        match raw.get_ref() {
            RawPolicy::Enabled(on) => policy.disabled = !on,
            RawPolicy::Table(t) => {
                if let Some(n) = t.network {
                    policy.network = n;
                }
                if let Some(d) = &t.disk {
                    let disk =
                        disk_size(d).map_err(|m| self.at(raw.span(), &format!("{key}.disk"), m))?;
                    policy.disk = Some(disk);
                }
                for (list, into) in [(&t.read, &mut policy.read), (&t.write, &mut policy.write)] {
                    into.extend(self.paths(list).map_err(|m| self.at(raw.span(), key, m))?);
                }
            }
        }
        Ok(policy)
    }

    /// A bot's `wrapper = ["cmd", "args"...]`: a command the bot's own is
    /// appended to (an operator's docker, nsjail or VM launcher).
    pub(super) fn wrapper(
        &self,
        raw: Option<&Spanned<Vec<String>>>,
        key: &str,
    ) -> Result<Vec<String>, ConfigError> {
        let Some(raw) = raw else {
            return Ok(Vec::new());
        };
        match raw.get_ref().first() {
            Some(program) if !program.trim().is_empty() => Ok(raw.get_ref().clone()),
            _ => Err(self.at(
                raw.span(),
                key,
                "the wrapper is empty: give at least its program, or leave it out",
            )),
        }
    }

    /// Paths relative to the tournament file's folder.
    fn paths(&self, list: &[String]) -> Result<Vec<PathBuf>, String> {
        let base: &Path = self.dir();
        list.iter()
            .map(|p| {
                if p.trim().is_empty() || p.contains('\0') {
                    Err(format!("{p:?} is not a path"))
                } else {
                    Ok(base.join(p))
                }
            })
            .collect()
    }
}

/// `cpu = "1.5"`: cores' worth of CPU time, in thousandths, or
/// `"unlimited"` (the range is the sandbox's to check).
fn cpu_share(text: &str) -> Result<Option<u64>, String> {
    if text.trim() == "unlimited" {
        return Ok(None);
    }
    let cores: f64 = text.trim().parse().map_err(|_| {
        format!("{text:?} is not a number of cores like \"1\" or \"0.5\", nor \"unlimited\"")
    })?;
    // Below 0.01 of a core (NaN, negative) is 0, which the sandbox refuses.
    Ok(Some(match cores >= 0.01 {
        true => (cores * 1000.0).round() as u64,
        false => 0,
    }))
}

/// `cpus = "0,2-3"`: a list of core numbers and ranges.
fn cpu_list(text: &str) -> Result<Vec<RangeInclusive<u32>>, String> {
    let bad = || format!("{text:?} is not a list of cores like \"0,1\" or \"0-3,6\"");
    let number = |n: &str| n.trim().parse::<u32>().map_err(|_| bad());
    text.split(',')
        .map(|part| {
            let (first, last) = part.split_once('-').unwrap_or((part, part));
            Ok(number(first)?..=number(last)?)
        })
        .collect()
}

/// A bot's own scratch size: at least the sandbox's [`MIN_SCRATCH`].
/// `run-memory`: a share of the machine's memory (`"75%"`) or a size; the
/// ranges are the sandbox's to check.
fn memory_bound(text: &str) -> Result<RunMemory, String> {
    match text.trim().strip_suffix('%') {
        Some(percent) => match percent.trim().parse::<u8>() {
            Ok(p) => Ok(RunMemory::Share(p)),
            Err(_) => Err(format!(
                "{text:?} is not a share of the machine's memory like \"75%\""
            )),
        },
        None => aboure_process::parse_size(text)
            .map(RunMemory::Bytes)
            .map_err(|e| e.to_string()),
    }
}

fn disk_size(text: &str) -> Result<u64, String> {
    let bytes = aboure_process::parse_size(text).map_err(|e| e.to_string())?;
    if bytes < MIN_SCRATCH {
        return Err(format!("{text:?} {}", SettingsError::Disk));
    }
    Ok(bytes)
}

/// `"60000-60999"`: a range of uids (which ones the sandbox accepts is
/// its to check).
fn uid_range(text: &str) -> Result<RangeInclusive<u32>, String> {
    let bad = || format!("{text:?} is not a range of uids like \"60000-60999\"");
    let (first, last) = text.split_once('-').ok_or_else(bad)?;
    let first: u32 = first.trim().parse().map_err(|_| bad())?;
    let last: u32 = last.trim().parse().map_err(|_| bad())?;
    Ok(first..=last)
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    const TWO_BOTS: &str = "[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\
                            [[bot]]\nname = \"b\"\nbuiltin = \"greedy\"\n";

    fn settings(table: &str) -> Result<Settings, ConfigError> {
        let text = format!("[sandbox]\n{table}\n{TWO_BOTS}");
        parse(&text, Path::new("/cfg/t.toml")).map(|c| c.sandbox().clone())
    }

    /// The key and the text at the error's line and column.
    fn refused(table: &str) -> (String, String) {
        let e = settings(table).unwrap_err();
        let line = table.lines().nth(e.line - 2).unwrap_or_default();
        (e.key, line[e.column - 1..].to_owned())
    }

    #[test]
    fn defaults_and_relative_paths() {
        let s = settings("read = [\"data\", \"/opt/x\"]").unwrap();
        assert_eq!(s.mode(), Mode::Auto);
        assert_eq!(
            s.defaults().read,
            [PathBuf::from("/cfg/data"), PathBuf::from("/opt/x")]
        );
        assert_eq!((s.processes(), s.open_files()), (512, 1024));
        assert_eq!((s.file_size(), s.disk()), (1 << 30, 256 << 20));
        assert_eq!(settings("mode = \"off\"").unwrap().mode(), Mode::Off);
    }

    #[test]
    fn bad_values_name_their_key_and_place() {
        let (key, at) = refused("mode = \"paranoid\"");
        assert_eq!(
            (key.as_str(), at.as_str()),
            ("sandbox.mode", "\"paranoid\"")
        );
        let e = settings("mode = \"paranoid\"").unwrap_err();
        assert!(e.message.contains("\"auto\", \"strict\" or \"off\""), "{e}");
        assert_eq!(refused("processes = 3").0, "sandbox.processes");
    }

    #[test]
    fn cpu_shares_and_core_lists() {
        assert_eq!(settings("").unwrap().cpu_millis(), Some(1000));
        let s = settings("cpu = \"1.5\"\ncpus = \"0, 2-3\"").unwrap();
        assert_eq!(s.cpu_millis(), Some(1500));
        assert_eq!(s.cpus(), Some("0,2-3"));
        assert_eq!(settings("cpu = \"unlimited\"").unwrap().cpu_millis(), None);
        for (text, key) in [
            ("cpu = \"fast\"", "sandbox.cpu"),
            ("cpu = \"0\"", "sandbox.cpu"),
            ("cpus = \"3-1\"", "sandbox.cpus"),
            ("cpus = \"a\"", "sandbox.cpus"),
            ("cpus = \"\"", "sandbox.cpus"),
        ] {
            let (k, at) = refused(text);
            assert_eq!(k, key, "{text}");
            assert_eq!(at, text.split_once(" = ").unwrap().1, "{text}");
        }
    }

    #[test]
    fn disk_and_uids() {
        assert_eq!(refused("disk = \"64\"").0, "sandbox.disk");
        let s = settings("disk = \"1048576\"\nuids = \"70000-70009\"").unwrap();
        assert_eq!((s.disk(), s.uids().clone()), (1 << 20, 70000..=70009));
        assert_eq!(settings("").unwrap().uids(), &(60000..=60999));
        for bad in ["0-10", "10-5", "60000", "a-b"] {
            assert_eq!(
                refused(&format!("uids = {bad:?}")).0,
                "sandbox.uids",
                "{bad}"
            );
        }
    }

    #[test]
    fn the_runs_memory_is_a_share_or_a_size() {
        assert_eq!(settings("").unwrap().run_memory(), RunMemory::Share(75));
        let share = settings("run-memory = \"50%\"").unwrap();
        assert_eq!(share.run_memory(), RunMemory::Share(50));
        let size = settings("run-memory = \"4GiB\"").unwrap();
        assert_eq!(size.run_memory(), RunMemory::Bytes(4 << 30));
        for bad in ["0%", "101%", "half%", "1MiB", "lots"] {
            let (key, at) = refused(&format!("run-memory = {bad:?}"));
            assert_eq!(
                (key.as_str(), at),
                ("sandbox.run-memory", format!("{bad:?}"))
            );
        }
    }

    #[test]
    fn a_bot_adds_to_the_defaults() {
        let bot = |value: &str| {
            let text = format!("[sandbox]\nread = [\"/a\"]\n{TWO_BOTS}sandbox = {value}\n");
            parse(&text, Path::new("/w/t.toml")).map(|c| c.bots()[1].sandbox().clone())
        };
        let p = bot("{ network = true, write = [\"c\"] }").unwrap();
        assert!(p.network && !p.disabled);
        assert_eq!(p.read, [PathBuf::from("/a")]);
        assert_eq!(p.write, [PathBuf::from("/w/c")]);
        assert_eq!(bot("{ disk = \"1GiB\" }").unwrap().disk, Some(1 << 30));
        assert_eq!(
            bot("{ disk = \"1k\" }").unwrap_err().key,
            "bot[1].sandbox.disk"
        );
        assert!(bot("false").unwrap().disabled);
    }
}
