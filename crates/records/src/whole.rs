//! Writing a file whole or not at all: the bytes go to a temporary file
//! beside it, which is then renamed over it, so a reader (another worker,
//! the live page, a report) finds the old file or the new one, never part
//! of one, and a crash mid-write leaves the old one in place.

use std::io;
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes`, whole or not at all.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temp = path.as_os_str().to_owned();
    temp.push(format!(".{}.tmp", std::process::id()));
    let temp = PathBuf::from(temp);
    let written = std::fs::write(&temp, bytes).and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_replaced_and_no_temporary_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.txt");
        std::fs::write(&path, "old").unwrap();
        write_whole(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
        let missing = dir.path().join("no-such-folder/report.txt");
        assert!(write_whole(&missing, b"x").is_err());
    }
}
