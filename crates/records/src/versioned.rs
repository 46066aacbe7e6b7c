//! How the run folder's small versioned JSON files (`run.json`,
//! `workers.json`) are read and written, in one place: the version is read
//! before the rest, so a file from a newer aboure is refused for what it is
//! rather than for a key this version does not know; a missing file is not
//! an error; and a file is written whole or not at all (a temporary name of
//! this process, then a rename), so workers sharing a folder never read
//! half of one. Each file's module turns a [`Fault`] into its own error,
//! with the file's path.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// What went wrong, before the caller names the file.
pub(crate) enum Fault {
    /// Reading or writing failed.
    Io(std::io::Error),
    /// Not JSON of the expected shape.
    Malformed(serde_json::Error),
    /// Written by a newer aboure: its schema version.
    Newer(u32),
}

/// Just the version (0 when the file has none).
#[derive(Deserialize)]
struct SchemaOnly {
    #[serde(default)]
    schema: u32,
}

/// Parses `bytes`, refusing a schema newer than `newest`.
pub(crate) fn parse<T: DeserializeOwned>(bytes: &[u8], newest: u32) -> Result<T, Fault> {
    let SchemaOnly { schema } = serde_json::from_slice(bytes).map_err(Fault::Malformed)?;
    if schema > newest {
        return Err(Fault::Newer(schema));
    }
    serde_json::from_slice(bytes).map_err(Fault::Malformed)
}

/// Reads and parses `path`: `Ok(None)` when there is no such file.
pub(crate) fn read<T: DeserializeOwned>(path: &Path, newest: u32) -> Result<Option<T>, Fault> {
    match std::fs::read(path) {
        Ok(bytes) => parse(&bytes, newest).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Fault::Io(e)),
    }
}

/// Writes `value` to `path` as pretty JSON, whole or not at all.
pub(crate) fn write<T: Serialize>(value: &T, path: &Path) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)? + "\n";
    crate::whole::write_whole(path, text.as_bytes())
}
