//! A filesystem that fills up, for the tests of result writing (a
//! tournament's in `tests/fairness.rs`, a league's workers' in
//! `tests/league_workers.rs`): a run whose disk fills mid-run and gets
//! room again, and what its results files hold.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use serde_json::Value;

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

    /// Runs `run` (an `aboure run` whose folder `out` is on this disk) to
    /// its end, its stderr in `log` with warnings: fills the disk once it
    /// has recorded a game, and frees it once it says it cannot write a
    /// result. Checks that it ended well, having written a result at its
    /// second attempt.
    pub fn fill_until_retried(&self, run: &mut Command, out: &Path, log: &Path) {
        let mut child = run
            // Warnings too (the retry that worked), despite -q.
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap();
        crate::harness::wait_for_games(out, 1);
        let filler = self.fill();
        wait_for_retry(&mut child, log);
        std::fs::remove_file(filler).unwrap();
        let status = child.wait().unwrap();
        let log = std::fs::read_to_string(log).unwrap();
        assert!(status.success(), "{status:?}\n{log}");
        assert!(log.contains("No space left on device"), "{log}");
        assert!(log.contains("at attempt 2"), "{log}");
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

/// Waits up to a minute for the run `child` to say in `log` that it
/// cannot write a result (and will try again), failing at once if it ends
/// first.
#[track_caller]
fn wait_for_retry(child: &mut Child, log: &Path) {
    let t0 = Instant::now();
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if text.contains("cannot write the result to") {
            return;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) on a full disk without a retry:\n{text}");
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "no retry in {}",
            log.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The game ids in `out`'s results files, each line whole.
pub fn recorded_ids(out: &Path) -> Vec<String> {
    let files = aboure_records::results_files(out).unwrap();
    assert!(!files.is_empty(), "no results file in {}", out.display());
    let mut ids = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.is_empty() || text.ends_with('\n'),
            "a cut last line in {}: {text:?}",
            file.display()
        );
        ids.extend(text.lines().map(|l| {
            let g: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            g["id"].as_str().unwrap().to_owned()
        }));
    }
    ids
}

/// Checks that `out`'s results files hold `n` games, each once.
#[track_caller]
pub fn assert_each_recorded_once(out: &Path, n: usize) {
    let mut ids = recorded_ids(out);
    assert_eq!(ids.len(), n, "{ids:?}");
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "a game recorded twice: {ids:?}");
}
