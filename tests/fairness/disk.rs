//! A filesystem that fills up, for the tests of result writing
//! (`tests/fairness.rs`).

use std::path::{Path, PathBuf};

/// A small tmpfs mounted for one test (root only), unmounted when dropped.
pub struct SmallDisk {
    pub dir: PathBuf,
}

impl SmallDisk {
    pub fn mount(dir: &Path, size: &str) -> SmallDisk {
        std::fs::create_dir_all(dir).unwrap();
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .status()
            .unwrap();
        assert!(
            status.success(),
            "this test needs a filesystem that fills up: it mounts a tmpfs, which needs root"
        );
        SmallDisk {
            dir: dir.to_owned(),
        }
    }

    /// Fills what is left of the disk with one file, and returns its path.
    pub fn fill(&self) -> PathBuf {
        use std::io::Write;
        let path = self.dir.join("filler");
        let mut file = std::fs::File::create(&path).unwrap();
        let block = vec![0u8; 4096];
        while file.write_all(&block).is_ok() {}
        path
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.dir)
            .status();
    }
}
