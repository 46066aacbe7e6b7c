//! The NFS test bed of `tests/nfs/bed.sh` seen from a test: a kernel NFS
//! server and two client machines (user-mode-linux guests) that see the
//! host's files, so the test writes its tournament file on the host, starts
//! workers of the host's `aboure` binary on a client's NFS mount, and reads
//! the run folder once a client has copied it back. The bed is started by
//! the first test that needs it and left running for the next ones
//! (`bash tests/nfs/bed.sh down` stops it). Its tests run one at a time
//! ([`Bed::take`]): they share three guests on two cores, and one of them
//! cuts a client off.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::harness::{show, ABOURE};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A client machine of the bed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client {
    One,
    Two,
}

impl Client {
    pub fn name(self) -> &'static str {
        match self {
            Client::One => "client1",
            Client::Two => "client2",
        }
    }
}

/// The running bed, held by one test at a time.
pub struct Bed {
    /// The bed's folder on the host, which the guests see at the same path.
    pub dir: PathBuf,
    _turn: MutexGuard<'static, ()>,
}

/// A worker started on a client: its files in the test's host folder.
pub struct Worker {
    pub client: Client,
    pub name: String,
    log: PathBuf,
    pid: PathBuf,
    rc: PathBuf,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nfs/bed.sh")
}

impl Bed {
    /// Starts the bed if it is not running (failing with the reason if it
    /// cannot start) and waits for this test's turn.
    pub fn take() -> Bed {
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let output = Command::new("bash").arg(script()).arg("up").output();
        let output = output.unwrap_or_else(|e| panic!("cannot run tests/nfs/bed.sh: {e}"));
        assert!(
            output.status.success(),
            "the NFS test bed did not start (tests/nfs/bed.sh up):\n{}",
            show(&output)
        );
        let dir = String::from_utf8_lossy(&output.stdout)
            .lines()
            .last()
            .unwrap_or_default()
            .trim()
            .to_owned();
        let bed = Bed {
            dir: PathBuf::from(dir),
            _turn: turn,
        };
        // A worker an earlier test left running (it failed half-way) would
        // load the clients: stop each one that has not ended.
        for client in ["client1", "client2"] {
            bed.sh(
                client,
                &format!(
                    "for f in {}/work/*/*.{client}.pid; do [ -f \"$f\" ] || continue; \
                     [ -f \"${{f%.{client}.pid}}.rc\" ] || kill -9 \"$(cat \"$f\")\" 2>/dev/null; \
                     done; true",
                    bed.dir.display()
                ),
            );
        }
        bed
    }

    /// A fresh folder for `test` on the host (seen by the guests).
    pub fn folder(&self, test: &str) -> PathBuf {
        let dir = self.dir.join("work").join(test);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Runs `command` with `sh` on `guest` (`server`, `client1`, `client2`)
    /// and returns its standard output, failing on a non-zero status.
    #[track_caller]
    pub fn sh(&self, guest: &str, command: &str) -> String {
        self.sh_within(guest, command, Duration::from_secs(600))
    }

    /// As [`Bed::sh`], for a command that may take up to `limit`.
    #[track_caller]
    pub fn sh_within(&self, guest: &str, command: &str, limit: Duration) -> String {
        let output = Command::new("bash")
            .arg(script())
            .args(["run", guest, command])
            .env("ABOURE_NFS_TIMEOUT", (limit.as_secs() + 60).to_string())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "on {guest}: {command}\n{}",
            show(&output)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Unplugs `client` from the network (`cut`) or plugs it back (`plug`).
    pub fn link(&self, client: Client, action: &str) {
        let output = Command::new("bash")
            .arg(script())
            .args([action, client.name()])
            .output()
            .unwrap();
        assert!(output.status.success(), "{action}: {}", show(&output));
    }

    /// An empty run folder `name` on the export, as the clients see it.
    pub fn nfs_folder(&self, name: &str) -> String {
        let path = format!("/mnt/nfs/{name}");
        self.sh("client1", &format!("rm -rf {path}"));
        path
    }

    /// Starts `aboure ARGS` on `client` in the background; its output goes
    /// to `host/NAME.log`, its process id and exit status next to it.
    pub fn start(&self, client: Client, host: &Path, name: &str, args: &str) -> Worker {
        let w = Worker {
            client,
            name: name.to_owned(),
            log: host.join(format!("{name}.log")),
            pid: host.join(format!("{name}.{}.pid", client.name())),
            rc: host.join(format!("{name}.rc")),
        };
        let (log, pid, rc) = (w.log.display(), w.pid.display(), w.rc.display());
        self.sh(
            client.name(),
            &format!(
                "( {ABOURE} {args} & echo $! >{pid}.tmp; mv {pid}.tmp {pid}; wait $!; \
                 echo $? >{rc}.tmp; mv {rc}.tmp {rc} ) >{log} 2>&1 &"
            ),
        );
        let t0 = Instant::now();
        while !w.pid.exists() {
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "{name} never started"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        w
    }

    /// Copies the run folder `nfs` (as `client` sees it) to `host` and
    /// returns the copy.
    pub fn copy_out(&self, client: Client, nfs: &str, host: &Path) -> PathBuf {
        let _ = std::fs::remove_dir_all(host);
        self.sh(client.name(), &format!("cp -a {nfs} {}", host.display()));
        host.to_owned()
    }

    /// NFS calls `client` has made so far (every procedure of every
    /// version, from `/proc/net/rpc/nfs`).
    pub fn nfs_calls(&self, client: Client) -> u64 {
        let text = self.sh(client.name(), "cat /proc/net/rpc/nfs");
        calls(&text)
    }

    /// NFSv4 calls `client` has made so far, by procedure (`nfsstat -c -4
    /// -l`): what a count that grew went to.
    pub fn nfs_calls_by_procedure(&self, client: Client) -> BTreeMap<String, u64> {
        let text = self.sh(client.name(), "nfsstat -c -4 -l");
        calls_by_procedure(&text)
    }
}

/// The calls counted in a `/proc/net/rpc/nfs`: the sum of the `procN`
/// lines (after their name and the count of procedures that follows it).
pub fn calls(text: &str) -> u64 {
    text.lines()
        .filter(|l| l.starts_with("proc"))
        .flat_map(|l| l.split_whitespace().skip(2))
        .map(|n| n.parse::<u64>().unwrap())
        .sum()
}

/// The counts of `nfsstat -c -4 -l`'s lines (`nfs v4 client  open:  12`),
/// by procedure, without its total.
pub fn calls_by_procedure(text: &str) -> BTreeMap<String, u64> {
    text.lines()
        .filter_map(|l| l.strip_prefix("nfs v4 client")?.split_once(':'))
        .map(|(name, n)| (name.trim().to_owned(), n.trim().parse::<u64>().unwrap()))
        .filter(|(name, _)| name != "total")
        .collect()
}

impl Worker {
    /// Its exit status once it has ended.
    pub fn status(&self) -> Option<i32> {
        let text = std::fs::read_to_string(&self.rc).ok()?;
        Some(text.trim().parse().unwrap())
    }

    /// What it printed.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Its process id on its client.
    pub fn pid(&self) -> u32 {
        std::fs::read_to_string(&self.pid)
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    /// Waits for it to end (failing past `deadline`) and returns its status.
    #[track_caller]
    pub fn wait(&self, deadline: Instant) -> i32 {
        loop {
            if let Some(code) = self.status() {
                return code;
            }
            assert!(
                Instant::now() < deadline,
                "{} on {} still running at its deadline; it printed:\n{}",
                self.name,
                self.client.name(),
                self.log()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

#[test]
fn nfs_calls_are_summed_over_every_procedure_of_every_version() {
    let text = "net 0 0 0 0\nrpc 27 0 27\nproc3 22 0 1 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n\
                proc4 3 5 0 7\n";
    assert_eq!(calls(text), 1 + 2 + 5 + 7);
}

#[test]
fn nfs_calls_by_procedure_are_read_from_nfsstat_without_its_total() {
    let text = "nfs v4 client        total:       25 \n------------- ------------- --------\n\
                nfs v4 client         null:        1 \nnfs v4 client create_session:        1 \n\
                nfs v4 client       access:       23 \n\n";
    let by = calls_by_procedure(text);
    let expected = [("access", 23), ("create_session", 1), ("null", 1)];
    let expected: BTreeMap<String, u64> = expected.map(|(k, v)| (k.to_owned(), v)).into();
    assert_eq!(by, expected);
}
