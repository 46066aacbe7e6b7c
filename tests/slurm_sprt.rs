//! An SPRT on a real Slurm cluster that declares the CPUs the machine
//! really has (2 here): a job array of six workers sharing one output
//! folder, throttled to two at a time (`--array=1-6%2`), one task cancelled
//! before it ever runs and never resubmitted, one SIGKILLed mid-game and
//! never resubmitted. The others must reach the verdict of one process at
//! the same pair count, with no game recorded twice, and every task must
//! end; the test fails after a hard time limit instead of hanging. The
//! bots are seeded random movers restarted for every game, so every game
//! is the same wherever and whenever it is played.
//!
//! `tests/slurm/cluster.sh` starts a single-node cluster if none answers
//! (it needs root and Debian's `slurm-wlm` and `munge`) and leaves it
//! running for later runs; `sh tests/slurm/cluster.sh stop` ends it.

use crate::harness;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use harness::*;
use serde_json::Value;

pub(crate) const TASKS: u32 = 6;
const INSTALL: &str = "apt-get install -y slurm-wlm munge";
/// The whole array must be over by then.
pub(crate) const LIMIT: Duration = Duration::from_secs(300);

pub(crate) fn slurm(conf: &str, program: &str, args: &[&str]) -> String {
    let mut command = Command::new(program);
    command.args(args);
    if !conf.is_empty() {
        command.env("SLURM_CONF", conf);
    }
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} ({e}); install Slurm: {INSTALL}"));
    assert!(
        output.status.success(),
        "{program} {args:?}: {}",
        show(&output)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// Waits until `squeue` lists none of `jobs`, failing past the limit.
pub(crate) fn wait_gone(conf: &str, jobs: &str, t0: Instant) {
    loop {
        let listed = slurm(conf, "squeue", &["-h", "-r", "-j", jobs, "-o", "%i %T"]);
        if listed.is_empty() {
            return;
        }
        assert!(
            t0.elapsed() < LIMIT,
            "Slurm tasks still queued after {LIMIT:?}:\n{listed}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// The state of one array task (`JOB_K`), empty once it is gone.
pub(crate) fn state(conf: &str, task: &str) -> String {
    slurm(conf, "squeue", &["-h", "-r", "-j", task, "-o", "%T"])
}

/// Cancels the test's jobs if it fails half-way, so none is left running.
pub(crate) struct Cancel(pub(crate) String, pub(crate) String);

impl Drop for Cancel {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut command = Command::new("scancel");
            command.arg(&self.1);
            if !self.0.is_empty() {
                command.env("SLURM_CONF", &self.0);
            }
            let _ = command.output();
        }
    }
}

fn verdict(out: &Path) -> Value {
    let v = aboure_records::SprtFile::read_in(out)
        .unwrap()
        .unwrap_or_else(|| panic!("no sprt.json in {}", out.display()));
    serde_json::json!([v.decision, v.pairs, v.pentanomial, v.llr])
}

/// The process id a worker's results file names in its `.owner` file.
pub(crate) fn owner_pid(results: &Path) -> Option<i32> {
    let mut owner = results.as_os_str().to_owned();
    owner.push(".owner");
    let text = std::fs::read_to_string(owner).ok()?;
    text.split_whitespace()
        .skip_while(|w| *w != "pid")
        .nth(1)?
        .parse()
        .ok()
}

/// The test cluster (started if none answers): its `SLURM_CONF` and the
/// CPUs its node declares, fewer than [`TASKS`].
pub(crate) fn cluster() -> (String, u32) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let has_sbatch = Command::new("sh")
        .args(["-c", "command -v sbatch"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(has_sbatch, "sbatch is missing: {INSTALL}");
    let cluster = Command::new("sh")
        .arg(root.join("tests/slurm/cluster.sh"))
        .output()
        .unwrap();
    assert!(
        cluster.status.success(),
        "no Slurm cluster: {}",
        show(&cluster)
    );
    let conf = String::from_utf8_lossy(&cluster.stdout)
        .lines()
        .last()
        .unwrap_or("")
        .trim()
        .to_owned();
    let cpus: u32 = slurm(&conf, "sinfo", &["-h", "-o", "%c"]).parse().unwrap();
    assert!(
        cpus < TASKS,
        "the cluster must have fewer CPUs ({cpus}) than tasks"
    );
    (conf, cpus)
}

/// Submits `TASKS` workers of `config` on `out` as a job array throttled
/// to two at a time (`tests/slurm/sprt.sbatch`); cancels the last task
/// before it ever runs and SIGKILLs task 2 in the middle of a game, neither
/// resubmitted; waits for the array to end (failing after `LIMIT`), and
/// asserts that task 2 was killed, the last never ran and every other task
/// exited 0.
pub(crate) fn run_throttled_array(conf: &str, dir: &Path, config: &Path, out: &Path, t0: Instant) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slurm/sprt.sbatch");
    let job = slurm(
        conf,
        "sbatch",
        &[
            "--parsable",
            &format!("--array=1-{TASKS}%2"),
            &format!("--output={}/slurm-%A_%a.out", dir.display()),
            script.to_str().unwrap(),
            ABOURE,
            config.to_str().unwrap(),
            out.to_str().unwrap(),
            &TASKS.to_string(),
        ],
    );
    let _jobs = Cancel(conf.to_owned(), job.clone());
    // The last task waits behind the throttle: cancelled before it runs.
    let never = format!("{job}_{TASKS}");
    assert_eq!(state(conf, &never), "PENDING");
    slurm(conf, "scancel", &[&never]);
    // Task 2 is SIGKILLed in the middle of a game, and never comes back.
    wait_mid_game(out, &format!("2-of-{TASKS}"), t0 + LIMIT);
    let victim = out.join(format!("games-2-of-{TASKS}.jsonl"));
    let pid = owner_pid(&victim).expect("worker 2 names itself");
    let killed = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    wait_gone(conf, &job, t0);
    for k in 1..=TASKS {
        let code = std::fs::read_to_string(out.join(format!("exit-{k}")));
        match k {
            2 => assert_eq!(code.unwrap().trim(), "137", "task 2 was killed"),
            TASKS => assert!(code.is_err(), "task {k} never ran"),
            _ => {
                let code = code.unwrap_or_else(|e| panic!("task {k} left no exit status: {e}"));
                assert_eq!(code.trim(), "0", "task {k} failed; see {}", dir.display());
            }
        }
    }
}

#[test]
fn an_sprt_over_a_throttled_slurm_array_with_a_task_never_run_and_one_killed() {
    let (conf, cpus) = cluster();
    let dir = folder("slurm-sprt");
    let bot = |name: &str, seed: u32| testbot(name, &format!("sleepy --ms 20 --seed {seed}"));
    let config = write_config(
        &dir,
        &format!(
            "[tournament]\nformat = \"sprt\"\npairs = 300\nseed = 5\n\
             [time-control]\nbase = \"60s\"\n[openings]\nplies = 4\n\
             [sprt]\nelo0 = 0.0\nelo1 = 80.0\nalpha = 0.05\nbeta = 0.05\n{}{}",
            bot("a", 1),
            bot("b", 2)
        ),
    );
    let one = dir.join("one");
    let output = run(&config, &one, &["--concurrency", "1"]);
    assert!(output.status.success(), "{}", show(&output));
    let expected = verdict(&one);
    assert!(expected[0] != "continue", "{expected}");

    let out = dir.join("shared");
    let t0 = Instant::now();
    run_throttled_array(&conf, &dir, &config, &out, t0);
    assert_eq!(verdict(&out), expected);
    let mut ids: Vec<String> = games(&out)
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect();
    let recorded = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), recorded, "a game was recorded twice");
    eprintln!(
        "{TASKS} tasks on {cpus} CPUs: verdict {expected} in {:.1} s, {recorded} games recorded",
        t0.elapsed().as_secs_f64()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
