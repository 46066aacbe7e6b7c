//! `run.json`, the run manifest: what a run folder holds and how it was
//! made.
//!
//! `aboure run` writes it when a run starts (the first shard to start in a
//! shared folder; a resumed run records its own sandbox layers), and
//! `aboure report` and `aboure serve` read it: the SPRT's bounds, the
//! sandbox layers, the number of games scheduled. It is one serde type read
//! and written only here, so a renamed key is a compile error in every
//! crate, not a reader that silently finds nothing.
//!
//! The file carries a schema version (`schema`). A version newer than
//! [`MANIFEST_SCHEMA`] is refused with a message naming the file, since its
//! meaning may have changed; files written before the version was recorded
//! (no `schema` key) have the same keys as version 1 and read as it. New
//! optional keys do not need a new version: older readers ignore them.
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `schema` | integer | the schema version, 1 (absent in earlier folders) |
//! | `aboure_version` | string | the version of aboure that wrote it |
//! | `config_file` | string | the tournament file, as given |
//! | `shard` | string or null | `K/N` of the shard that wrote it |
//! | `created` | string | RFC 3339 UTC time it was written |
//! | `fingerprint` | string | SHA-256 of `identity` (see [`TournamentIdentity`]) |
//! | `identity` | object | what the games are: `format`, `pairs`, `seed`, `openings`, `adjudication`, `bots` |
//! | `scheduled_games` | integer | games of the whole schedule, all shards (the most for an SPRT; absent in earlier folders) |
//! | `sprt` | object | for an SPRT: `elo0`, `elo1`, `alpha`, `beta`, `model` |
//! | `sandbox` | object | the sandbox layers: `mode` and `layers` (`name`, `active`, `detail`) |
//! | `openings_file` | string | the openings file, as the tournament file names it (absent for random openings and in earlier folders) |
//! | `builtin_openings` | string | the built-in book the games start from, `"balanced"` (an SPRT's or a league's default; absent otherwise and in earlier folders) |
//! | `workers` | any | reserved for a description of a run's workers; kept as read |
//! | `league` | object | for a league: its entrants and its last stopping verdict ([`LeagueRecord`]) |

use std::fmt;
use std::path::{Path, PathBuf};

use aboure_stats::Sprt;
use serde::{Deserialize, Serialize};

use crate::identity::TournamentIdentity;
use crate::league::LeagueRecord;
use crate::versioned::{self, Fault};

/// The schema version this crate writes, and the newest it reads.
pub const MANIFEST_SCHEMA: u32 = 1;

/// A run folder's `run.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunManifest {
    /// The schema version; 0 for files written before it was recorded.
    #[serde(default)]
    pub schema: u32,
    /// The version of aboure that wrote it.
    pub aboure_version: String,
    /// The tournament file, as given on the command line.
    pub config_file: String,
    /// The shard (`K/N`) that wrote it, if the run is sharded.
    pub shard: Option<String>,
    /// When it was written (RFC 3339, UTC).
    pub created: String,
    /// [`TournamentIdentity::fingerprint`] of `identity`.
    pub fingerprint: String,
    /// What the games are.
    pub identity: TournamentIdentity,
    /// Games of the whole schedule (all shards; the most an SPRT plays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduled_games: Option<u64>,
    /// The SPRT's bounds, for an SPRT run (not part of the identity: they
    /// decide when to stop, not what a game is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
    /// The sandbox layers of the run that last wrote the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxLayers>,
    /// The sandbox's settings the run began with, key by key as text
    /// (`sandbox.write`, `bot.NAME.sandbox.read`, `bot.NAME.memory-limit`):
    /// its games were played under them, so a run resumed under others is
    /// refused, naming the keys. Absent in folders written before they were
    /// recorded (nothing to compare; the next run records them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox_settings: Option<std::collections::BTreeMap<String, String>>,
    /// The openings file as the tournament file names it, when the games
    /// start from one (its lines are in `identity.openings`); not part of
    /// the identity, so a book renamed but unchanged resumes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_file: Option<String>,
    /// The built-in book the games start from (`"balanced"`, the default of
    /// an SPRT and a league whose file has no `[openings]` table; its lines
    /// are in `identity.openings`); not part of the identity, as
    /// `openings_file` is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin_openings: Option<String>,
    /// Reserved for a description of the run's workers; kept as read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workers: Option<serde_json::Value>,
    /// A league's entrants and verdict (absent for other formats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub league: Option<LeagueRecord>,
}

/// The sandbox layers a run was played under.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxLayers {
    /// The mode asked for: `auto`, `strict` or `off`.
    pub mode: String,
    /// Every layer, on or off.
    pub layers: Vec<SandboxLayer>,
}

/// One sandbox layer of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxLayer {
    /// Its name, e.g. `landlock`.
    pub name: String,
    /// On for the run.
    pub active: bool,
    /// What it does, or why it was off.
    #[serde(default)]
    pub detail: String,
}

impl fmt::Display for SandboxLayers {
    /// `mode auto; on: landlock, seccomp; off: cgroup-memory (why)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mode == "off" {
            return write!(f, "mode off: bots ran as plain processes");
        }
        let (on, off): (Vec<&SandboxLayer>, Vec<&SandboxLayer>) =
            self.layers.iter().partition(|l| l.active);
        let on: Vec<&str> = on.iter().map(|l| l.name.as_str()).collect();
        write!(f, "mode {}; on: {}", self.mode, on.join(", "))?;
        if !off.is_empty() {
            let off: Vec<String> = off
                .iter()
                .map(|l| format!("{} ({})", l.name, l.detail))
                .collect();
            write!(f, "; off: {}", off.join(", "))?;
        }
        Ok(())
    }
}

/// A `run.json` that cannot be read, written or understood.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// The file cannot be read or written.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a run manifest (not JSON, a key missing or of the
    /// wrong type, SPRT bounds no test can have).
    #[error("{}: not a run manifest: {source}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// Where and what, as serde_json says it (line, column, key).
        source: serde_json::Error,
    },
    /// Written by a newer aboure, in a schema this one does not know.
    #[error("{}: schema version {found} is newer than this aboure reads ({MANIFEST_SCHEMA}): read the folder with the aboure that wrote it, or a newer one", path.display())]
    NewerSchema {
        /// The file.
        path: PathBuf,
        /// The version it has.
        found: u32,
    },
}

impl RunManifest {
    /// The manifest's path in the run folder `dir`.
    pub fn path_in(dir: &Path) -> PathBuf {
        crate::folder::RunFolder::new(dir).manifest()
    }

    /// A manifest of the current schema.
    pub fn new(
        config_file: String,
        shard: Option<String>,
        created: String,
        identity: TournamentIdentity,
    ) -> RunManifest {
        RunManifest {
            schema: MANIFEST_SCHEMA,
            aboure_version: env!("CARGO_PKG_VERSION").to_owned(),
            config_file,
            shard,
            created,
            fingerprint: identity.fingerprint(),
            identity,
            scheduled_games: None,
            sprt: None,
            sandbox: None,
            sandbox_settings: None,
            openings_file: None,
            builtin_openings: None,
            workers: None,
            league: None,
        }
    }

    /// Reads the manifest of the run folder `dir`: `Ok(None)` when it has
    /// none.
    pub fn read_in(dir: &Path) -> Result<Option<RunManifest>, ManifestError> {
        let path = RunManifest::path_in(dir);
        versioned::read(&path, MANIFEST_SCHEMA).map_err(|f| ManifestError::of(f, "read", &path))
    }

    /// Parses the bytes of the manifest `path` (named in errors).
    pub fn from_slice(bytes: &[u8], path: &Path) -> Result<RunManifest, ManifestError> {
        versioned::parse(bytes, MANIFEST_SCHEMA).map_err(|f| ManifestError::of(f, "read", path))
    }

    /// Writes the manifest into the run folder `dir`, whole or not at all:
    /// shards starting at once may each write it, and a reader never sees
    /// half of one. Files read in an earlier schema are written in the
    /// current one.
    pub fn write_in(&self, dir: &Path) -> Result<(), ManifestError> {
        let path = RunManifest::path_in(dir);
        let current = RunManifest {
            schema: MANIFEST_SCHEMA,
            ..self.clone()
        };
        versioned::write(&current, &path).map_err(|source| ManifestError::Io {
            action: "write",
            path,
            source,
        })
    }
}

impl ManifestError {
    /// The error of a [`Fault`] met while doing `action` on `path`.
    fn of(fault: Fault, action: &'static str, path: &Path) -> ManifestError {
        let path = path.to_owned();
        match fault {
            Fault::Io(source) => ManifestError::Io {
                action,
                path,
                source,
            },
            Fault::Malformed(source) => ManifestError::Malformed { path, source },
            Fault::Newer(found) => ManifestError::NewerSchema { path, found },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::folder::MANIFEST_FILE;
    use crate::identity::FormatIdentity;

    /// `run.json` files written by aboure before the schema was versioned
    /// (untyped JSON, keys sorted): an SPRT shard with its sandbox layers, a
    /// gauntlet with limits, option values, an openings file and exact
    /// adjudication, and a round robin with a command bot.
    const UNVERSIONED: [(&str, &str); 3] = [
        (
            "sprt-shard.json",
            include_str!("../tests/fixtures/run-json-unversioned/sprt-shard.json"),
        ),
        (
            "gauntlet.json",
            include_str!("../tests/fixtures/run-json-unversioned/gauntlet.json"),
        ),
        (
            "round-robin.json",
            include_str!("../tests/fixtures/run-json-unversioned/round-robin.json"),
        ),
    ];

    fn read(name: &str, text: &str) -> Result<RunManifest, ManifestError> {
        RunManifest::from_slice(text.as_bytes(), Path::new(name))
    }

    #[test]
    fn unversioned_files_read_and_keep_their_fingerprints() {
        for (name, text) in UNVERSIONED {
            let manifest = read(name, text).unwrap();
            assert_eq!(manifest.schema, 0, "{name}");
            assert_eq!(
                manifest.identity.fingerprint(),
                manifest.fingerprint,
                "{name}: the typed identity must hash to the bytes it was written from"
            );
            assert_eq!(manifest.scheduled_games, None, "{name}");
        }
        let sprt = read(UNVERSIONED[0].0, UNVERSIONED[0].1).unwrap();
        assert_eq!(sprt.shard.as_deref(), Some("1/2"));
        assert_eq!(
            sprt.identity.sprt_pairing(),
            Some(["greedy".to_owned(), "random".to_owned()])
        );
        assert_eq!(sprt.identity.format, FormatIdentity::Sprt);
        let bounds = sprt.sprt.unwrap();
        assert_eq!((bounds.elo1(), bounds.alpha()), (20.0, 0.1));
        assert_eq!(bounds.model(), aboure_stats::EloModel::Logistic);
        let sandbox = sprt.sandbox.unwrap();
        assert_eq!(sandbox.mode, "auto");
        assert_eq!(sandbox.layers.len(), 8);
        let gauntlet = read(UNVERSIONED[1].0, UNVERSIONED[1].1).unwrap();
        assert_eq!(
            gauntlet.identity.format,
            FormatIdentity::Gauntlet("random".to_owned())
        );
        assert_eq!(gauntlet.sprt, None);
        assert_eq!(gauntlet.identity.sprt_pairing(), None);
        assert_eq!(gauntlet.identity.adjudication.solve_after, Some(20));
    }

    #[test]
    fn a_manifest_written_reads_back_in_the_current_schema() {
        let dir = tempfile::tempdir().unwrap();
        assert!(RunManifest::read_in(dir.path()).unwrap().is_none());
        let mut manifest = read(UNVERSIONED[0].0, UNVERSIONED[0].1).unwrap();
        manifest.scheduled_games = Some(6);
        manifest.workers = Some(serde_json::json!({"later": [1, 2]}));
        manifest.write_in(dir.path()).unwrap();
        let back = RunManifest::read_in(dir.path()).unwrap().unwrap();
        assert_eq!(back.schema, MANIFEST_SCHEMA);
        assert_eq!(
            back,
            RunManifest {
                schema: MANIFEST_SCHEMA,
                ..manifest
            }
        );
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [MANIFEST_FILE], "no temporary file is left behind");
    }

    #[test]
    fn a_newer_schema_is_refused_naming_the_file() {
        let text = UNVERSIONED[1]
            .1
            .replacen('{', "{\"schema\": 2, \"renamed\": 1,", 1);
        let e = read("out/run.json", &text).unwrap_err();
        assert!(
            matches!(e, ManifestError::NewerSchema { found: 2, .. }),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "out/run.json: schema version 2 is newer than this aboure reads (1): \
             read the folder with the aboure that wrote it, or a newer one"
        );
        let current = UNVERSIONED[1].1.replacen('{', "{\"schema\": 1,", 1);
        assert_eq!(read("run.json", &current).unwrap().schema, 1);
    }

    #[test]
    fn a_file_that_is_not_a_manifest_says_where_and_what() {
        let cases = [
            ("{", "EOF while parsing"),
            (
                r#"{"format": "round-robin"}"#,
                "missing field `aboure_version`",
            ),
            (
                &UNVERSIONED[0].1.replace("\"elo1\": 20.0", "\"elo1\": -5.0"),
                "SPRT bounds elo0=0, elo1=-5",
            ),
        ];
        for (text, what) in cases {
            let e = read("d/run.json", text).unwrap_err();
            assert!(matches!(e, ManifestError::Malformed { .. }), "{e:?}");
            let message = e.to_string();
            assert!(
                message.starts_with("d/run.json: not a run manifest: ") && message.contains(what),
                "expected {what:?} in: {message}"
            );
        }
    }

    #[test]
    fn differences_name_the_changed_parts() {
        let old = read(UNVERSIONED[2].0, UNVERSIONED[2].1).unwrap().identity;
        let mut new = old.clone();
        assert!(old.differences(&new).is_empty());
        new.pairs += 1;
        new.bots[1].options.insert("seed".into(), "2".into());
        assert_eq!(old.differences(&new), ["bots", "pairs"]);
        assert_ne!(old.fingerprint(), new.fingerprint());
    }

    #[test]
    fn sandbox_layers_are_shown_in_one_line() {
        let layers = SandboxLayers {
            mode: "auto".into(),
            layers: vec![
                SandboxLayer {
                    name: "landlock".into(),
                    active: true,
                    detail: String::new(),
                },
                SandboxLayer {
                    name: "cgroup-memory".into(),
                    active: false,
                    detail: "no cgroup v1".into(),
                },
            ],
        };
        assert_eq!(
            layers.to_string(),
            "mode auto; on: landlock; off: cgroup-memory (no cgroup v1)"
        );
        let off = SandboxLayers {
            mode: "off".into(),
            ..layers
        };
        assert_eq!(off.to_string(), "mode off: bots ran as plain processes");
    }
}
