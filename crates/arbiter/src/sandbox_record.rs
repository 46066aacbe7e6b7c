//! The sandbox settings a run records in `run.json` and a resumed run must
//! share: the `[sandbox]` table and each bot's sandbox keys and limits,
//! key by key as text. They are not part of the games' identity (the same
//! games may be played on another machine, whose layers differ), but the
//! paths a bot may read and write, its network and its limits are what
//! its earlier games were played under: a run resumed with a bot given a
//! `write` folder, the network or `mode = "off"` would mix games of two
//! sandboxes in one result, and a tournament file changed by a bot (a
//! hard link to it in a `write` folder) would take effect unseen.

use std::collections::BTreeMap;

use aboure_sandbox::{Policy, Settings};

use crate::config::Config;

/// The settings of `config`, key by key.
pub(crate) fn settings(config: &Config) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    table(&mut out, config.sandbox());
    for bot in config.bots() {
        let prefix = format!("bot.{}.", bot.name());
        policy(&mut out, &format!("{prefix}sandbox."), bot.sandbox());
        let limits = bot.limits();
        out.insert(
            format!("{prefix}memory-limit"),
            format!("{:?}", limits.memory),
        );
        out.insert(format!("{prefix}cpu-limit"), format!("{:?}", limits.cpu));
    }
    out
}

/// The keys whose values differ between `old` and `new`, in order: the
/// `[sandbox]` table's whether set in one or both, a bot's where both
/// have that bot (a bot that joined a league brings keys of its own, and
/// a bot gone is the games' identity's business, not this rule's).
pub(crate) fn changed(
    old: &BTreeMap<String, String>,
    new: &BTreeMap<String, String>,
) -> Vec<String> {
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let bot_in_one =
        |k: &String| k.starts_with("bot.") && (old.get(k).is_none() || new.get(k).is_none());
    let later = |k: &String| LATER_KEYS.contains(&k.as_str()) && old.get(k).is_none();
    keys.into_iter()
        .filter(|k| old.get(*k) != new.get(*k) && !bot_in_one(k) && !later(k))
        .cloned()
        .collect()
}

/// Keys recorded since a later release: a run begun before has none, and
/// resumes under the key's default.
const LATER_KEYS: &[&str] = &["sandbox.run-memory"];

/// The `[sandbox]` table's keys.
fn table(out: &mut BTreeMap<String, String>, s: &Settings) {
    let mut put = |key: &str, value: String| out.insert(format!("sandbox.{key}"), value);
    put("mode", format!("{:?}", s.mode()));
    put("file-size", s.file_size().to_string());
    put("open-files", s.open_files().to_string());
    put("processes", s.processes().to_string());
    put("cpu", format!("{:?}", s.cpu_millis()));
    put("cpus", format!("{:?}", s.cpus()));
    put("disk", s.disk().to_string());
    put("uids", format!("{:?}", s.uids()));
    put("write-size", s.write_size().to_string());
    put("run-memory", format!("{:?}", s.run_memory()));
    policy(out, "sandbox.", s.defaults());
}

/// A bot's allowances (or the table's defaults), under `prefix`.
fn policy(out: &mut BTreeMap<String, String>, prefix: &str, p: &Policy) {
    let mut put = |key: &str, value: String| out.insert(format!("{prefix}{key}"), value);
    put("enabled", (!p.disabled).to_string());
    put("network", p.network.to_string());
    put("read", format!("{:?}", p.read));
    put("write", format!("{:?}", p.write));
    put("bot-disk", format!("{:?}", p.disk));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_changed_added_or_gone_are_named_but_not_a_newcomers() {
        let map = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let old = map(&[("a", "1"), ("b", "2"), ("c", "3"), ("bot.x.read", "[]")]);
        let new = map(&[("a", "1"), ("b", "9"), ("d", "4"), ("bot.y.read", "[]")]);
        assert_eq!(changed(&old, &new), ["b", "c", "d"]);
        assert!(changed(&old, &old).is_empty());
        // A bot's key changed where both have it.
        let new = map(&[("a", "1"), ("b", "2"), ("c", "3"), ("bot.x.read", "[/x]")]);
        assert_eq!(changed(&old, &new), ["bot.x.read"]);
        // A key a run begun before the release that records it lacks.
        let old = map(&[("a", "1")]);
        let new = map(&[("a", "1"), ("sandbox.run-memory", "Share(75)")]);
        assert!(changed(&old, &new).is_empty());
        assert_eq!(changed(&new, &old), ["sandbox.run-memory"]);
    }
}
