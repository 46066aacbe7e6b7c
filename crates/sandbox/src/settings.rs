//! The `[sandbox]` table of a tournament file and a bot's own `sandbox = ...`
//! allowances: their TOML form, their defaults (in one place, [`Settings`]'s
//! `Default`) and their validation. Errors carry the span of the offending
//! value and the key, which the tournament-file reader turns into
//! file:line:column.
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

use std::ops::{Range, RangeInclusive};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

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

/// The validated `[sandbox]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// How much of the sandbox to use.
    pub mode: Mode,
    /// Allowances for every bot (each bot's own are added to these).
    pub defaults: Policy,
    /// Largest file a bot may write, in bytes (`RLIMIT_FSIZE`).
    pub file_size: u64,
    /// Open descriptors per process (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// Processes and threads of one bot together (the pids cgroup, else
    /// `RLIMIT_NPROC`).
    pub processes: u64,
    // Fairness (the cpu and cpuset controllers), kept together.
    /// CPU time of one bot, in thousandths of a core (`cpu = "1"`: 1000);
    /// `None` for `cpu = "unlimited"`.
    pub cpu_millis: Option<u64>,
    /// The cores bots run on, a cpuset list (`cpus = "0,1"`); `None`: all.
    pub cpus: Option<String>,
    /// Size of a bot's scratch tmpfs (`/tmp` and `HOME` of its constructed
    /// root), bytes, unless the bot sets its own.
    pub disk: u64,
    /// The uids (and gids) bots run as when the arbiter is root, one per
    /// bot process running at the same time.
    pub uids: RangeInclusive<u32>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            mode: Mode::Auto,
            defaults: Policy::default(),
            file_size: 1 << 30,
            open_files: 1024,
            processes: 512,
            cpu_millis: Some(1000),
            cpus: None,
            disk: 256 << 20,
            uids: 60000..=60999,
        }
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

/// A problem in the tournament file: where, which key, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingError {
    /// Byte range of the offending value in the file.
    pub span: Range<usize>,
    /// The key, e.g. `sandbox.mode` or `bot[2].sandbox`.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

/// The `[sandbox]` table as written.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawSettings {
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
}

/// A bot's `sandbox = false` or `sandbox = { ... }` as written.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum RawPolicy {
    /// `sandbox = true` (the default cage) or `false` (none).
    Enabled(bool),
    /// Allowances.
    Table(RawAllowances),
}

/// A bot's allowances as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawAllowances {
    network: Option<bool>,
    #[serde(default)]
    read: Vec<String>,
    #[serde(default)]
    write: Vec<String>,
    disk: Option<String>,
}

impl RawSettings {
    /// Validates the table; `base` is the folder of the tournament file
    /// (relative paths are relative to it); `size` reads sizes like "1GiB".
    pub fn validate(
        &self,
        base: &Path,
        size: impl Fn(&str) -> Result<u64, String>,
    ) -> Result<Settings, SettingError> {
        let mut s = Settings::default();
        let err = |span: Range<usize>, key: &str, message: String| SettingError {
            span,
            key: format!("sandbox.{key}"),
            message,
        };
        if let Some(m) = &self.mode {
            s.mode = match m.get_ref().as_str() {
                "auto" => Mode::Auto,
                "strict" => Mode::Strict,
                "off" => Mode::Off,
                other => {
                    return Err(err(
                        m.span(),
                        "mode",
                        format!("{other:?} is not \"auto\", \"strict\" or \"off\""),
                    ))
                }
            };
        }
        if let Some(n) = &self.network {
            s.defaults.network = *n.get_ref();
        }
        for (list, key, into) in [
            (&self.read, "read", &mut s.defaults.read),
            (&self.write, "write", &mut s.defaults.write),
        ] {
            if let Some(paths) = list {
                *into = paths_of(paths.get_ref(), base).map_err(|m| err(paths.span(), key, m))?;
            }
        }
        if let Some(f) = &self.file_size {
            s.file_size = size(f.get_ref()).map_err(|m| err(f.span(), "file-size", m))?;
        }
        for (value, key, into) in [
            (&self.open_files, "open-files", &mut s.open_files),
            (&self.processes, "processes", &mut s.processes),
        ] {
            if let Some(v) = value {
                let n = *v.get_ref();
                if !(16..=1_000_000).contains(&n) {
                    return Err(err(
                        v.span(),
                        key,
                        format!("{n} is out of range: must be between 16 and 1000000"),
                    ));
                }
                *into = n as u64;
            }
        }
        if let Some(c) = &self.cpu {
            s.cpu_millis = cpu_share(c.get_ref()).map_err(|m| err(c.span(), "cpu", m))?;
        }
        if let Some(c) = &self.cpus {
            s.cpus = Some(cpu_list(c.get_ref()).map_err(|m| err(c.span(), "cpus", m))?);
        }
        if let Some(d) = &self.disk {
            s.disk = disk_size(d.get_ref(), &size).map_err(|m| err(d.span(), "disk", m))?;
        }
        if let Some(u) = &self.uids {
            s.uids = uid_range(u.get_ref()).map_err(|m| err(u.span(), "uids", m))?;
        }
        Ok(s)
    }
}

/// `cpu = "1.5"`: cores' worth of CPU time, in thousandths (at least 0.01
/// of a core, at most 1024 cores), or `"unlimited"`.
fn cpu_share(text: &str) -> Result<Option<u64>, String> {
    if text.trim() == "unlimited" {
        return Ok(None);
    }
    let cores: f64 = text.trim().parse().map_err(|_| {
        format!("{text:?} is not a number of cores like \"1\" or \"0.5\", nor \"unlimited\"")
    })?;
    if !(0.01..=1024.0).contains(&cores) {
        return Err(format!(
            "{text:?} is out of range: between 0.01 and 1024 cores"
        ));
    }
    Ok(Some((cores * 1000.0).round() as u64))
}

/// `cpus = "0,2-3"`: a cpuset list of core numbers and ranges, returned in
/// the kernel's spelling (no spaces).
fn cpu_list(text: &str) -> Result<String, String> {
    let bad = || format!("{text:?} is not a list of cores like \"0,1\" or \"0-3,6\"");
    let mut parts = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let (first, last) = part.split_once('-').unwrap_or((part, part));
        let number = |n: &str| n.trim().parse::<u32>().ok().filter(|&n| n < 4096);
        match (number(first), number(last)) {
            (Some(a), Some(b)) if a <= b => parts.push(part.replace(' ', "")),
            _ => return Err(bad()),
        }
    }
    Ok(parts.join(","))
}

/// A scratch size: at least 1 MiB (a tmpfs smaller than a page is no use,
/// and a typo like "256" bytes should not pass).
fn disk_size(text: &str, size: impl Fn(&str) -> Result<u64, String>) -> Result<u64, String> {
    let bytes = size(text)?;
    if bytes < 1 << 20 {
        return Err(format!("{text:?} is less than 1MiB"));
    }
    Ok(bytes)
}

/// `"60000-60999"`: unprivileged ids, never root's.
fn uid_range(text: &str) -> Result<RangeInclusive<u32>, String> {
    let bad = || format!("{text:?} is not a range of uids like \"60000-60999\"");
    let (first, last) = text.split_once('-').ok_or_else(bad)?;
    let first: u32 = first.trim().parse().map_err(|_| bad())?;
    let last: u32 = last.trim().parse().map_err(|_| bad())?;
    if first == 0 || first > last || last >= u32::MAX - 1 {
        return Err(format!(
            "{text:?} must go from a first uid above 0 to a last one at least as large"
        ));
    }
    Ok(first..=last)
}

/// A bot's policy: its allowances added to the tournament's `defaults`.
/// `raw` is the bot's `sandbox` value, `key` its key (`bot[1].sandbox`).
pub fn bot_policy(
    defaults: &Policy,
    raw: Option<&Spanned<RawPolicy>>,
    key: &str,
    base: &Path,
) -> Result<Policy, SettingError> {
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
                let size = |t: &str| aboure_process::parse_size(t).map_err(|e| e.to_string());
                policy.disk = Some(disk_size(d, size).map_err(|message| SettingError {
                    span: raw.span(),
                    key: format!("{key}.disk"),
                    message,
                })?);
            }
            for (list, into) in [(&t.read, &mut policy.read), (&t.write, &mut policy.write)] {
                into.extend(paths_of(list, base).map_err(|message| SettingError {
                    span: raw.span(),
                    key: key.to_owned(),
                    message,
                })?);
            }
        }
    }
    Ok(policy)
}

/// A bot's `wrapper = ["cmd", "args"...]`: a command the bot's own is
/// appended to (an operator's docker, nsjail or VM launcher).
pub fn wrapper(raw: Option<&Spanned<Vec<String>>>, key: &str) -> Result<Vec<String>, SettingError> {
    let Some(raw) = raw else {
        return Ok(Vec::new());
    };
    match raw.get_ref().first() {
        Some(program) if !program.trim().is_empty() => Ok(raw.get_ref().clone()),
        _ => Err(SettingError {
            span: raw.span(),
            key: key.to_owned(),
            message: "the wrapper is empty: give at least its program, or leave it out".to_owned(),
        }),
    }
}

fn paths_of(list: &[String], base: &Path) -> Result<Vec<PathBuf>, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Settings, SettingError> {
        #[derive(Deserialize)]
        struct File {
            sandbox: RawSettings,
        }
        let file: File = toml::from_str(text).unwrap();
        file.sandbox.validate(Path::new("/cfg"), |t| {
            t.parse().map_err(|_| "bad size".into())
        })
    }

    #[test]
    fn defaults_and_relative_paths() {
        let s = parse("[sandbox]\nread = [\"data\", \"/opt/x\"]\n").unwrap();
        assert_eq!(s.mode, Mode::Auto);
        assert_eq!(
            s.defaults.read,
            [PathBuf::from("/cfg/data"), PathBuf::from("/opt/x")]
        );
        assert_eq!(s.processes, 512);
        assert_eq!(
            parse("[sandbox]\nmode = \"off\"\n").unwrap().mode,
            Mode::Off
        );
    }

    #[test]
    fn bad_values_name_their_key_and_place() {
        let text = "[sandbox]\nmode = \"paranoid\"\n";
        let e = parse(text).unwrap_err();
        assert_eq!(e.key, "sandbox.mode");
        assert_eq!(&text[e.span.clone()], "\"paranoid\"");
        assert!(
            e.message.contains("\"auto\", \"strict\" or \"off\""),
            "{e:?}"
        );
        let e = parse("[sandbox]\nprocesses = 3\n").unwrap_err();
        assert_eq!(e.key, "sandbox.processes");
    }

    #[test]
    fn cpu_shares_and_core_lists() {
        assert_eq!(parse("[sandbox]\n").unwrap().cpu_millis, Some(1000));
        let s = parse("[sandbox]\ncpu = \"1.5\"\ncpus = \"0, 2-3\"\n").unwrap();
        assert_eq!(s.cpu_millis, Some(1500));
        assert_eq!(s.cpus.as_deref(), Some("0,2-3"));
        let s = parse("[sandbox]\ncpu = \"unlimited\"\n").unwrap();
        assert_eq!(s.cpu_millis, None);
        for (text, key) in [
            ("cpu = \"fast\"", "sandbox.cpu"),
            ("cpu = \"0\"", "sandbox.cpu"),
            ("cpus = \"3-1\"", "sandbox.cpus"),
            ("cpus = \"a\"", "sandbox.cpus"),
            ("cpus = \"\"", "sandbox.cpus"),
        ] {
            let text = format!("[sandbox]\n{text}\n");
            let e = parse(&text).unwrap_err();
            assert_eq!(e.key, key, "{text}");
            assert_eq!(
                &text[e.span.clone()],
                text[10..].split_once(" = ").unwrap().1.trim()
            );
        }
    }

    #[test]
    fn disk_and_uids() {
        let s = parse("[sandbox]\ndisk = \"64\"\n");
        assert_eq!(s.unwrap_err().key, "sandbox.disk");
        let s = parse("[sandbox]\ndisk = \"1048576\"\nuids = \"70000-70009\"\n").unwrap();
        assert_eq!((s.disk, s.uids), (1 << 20, 70000..=70009));
        assert_eq!(Settings::default().uids, 60000..=60999);
        for bad in ["0-10", "10-5", "60000", "a-b"] {
            let e = parse(&format!("[sandbox]\nuids = {bad:?}\n")).unwrap_err();
            assert_eq!(e.key, "sandbox.uids", "{bad}");
        }
    }

    #[test]
    fn a_bot_adds_to_the_defaults() {
        #[derive(Deserialize)]
        struct Bot {
            sandbox: Spanned<RawPolicy>,
        }
        let defaults = Policy {
            read: vec!["/a".into()],
            ..Policy::default()
        };
        let bot: Bot = toml::from_str("sandbox = { network = true, write = [\"c\"] }").unwrap();
        let p = bot_policy(
            &defaults,
            Some(&bot.sandbox),
            "bot[0].sandbox",
            Path::new("/w"),
        )
        .unwrap();
        assert!(p.network && !p.disabled);
        assert_eq!(p.read, [PathBuf::from("/a")]);
        assert_eq!(p.write, [PathBuf::from("/w/c")]);
        let bot: Bot = toml::from_str("sandbox = { disk = \"1GiB\" }").unwrap();
        let p = bot_policy(&defaults, Some(&bot.sandbox), "b", Path::new("/w")).unwrap();
        assert_eq!(p.disk, Some(1 << 30));
        let bot: Bot = toml::from_str("sandbox = { disk = \"1k\" }").unwrap();
        let e = bot_policy(&defaults, Some(&bot.sandbox), "b", Path::new("/w")).unwrap_err();
        assert_eq!(e.key, "b.disk");
        let bot: Bot = toml::from_str("sandbox = false").unwrap();
        let p = bot_policy(&defaults, Some(&bot.sandbox), "k", Path::new("/w")).unwrap();
        assert!(p.disabled);
    }
}
