//! An SPRT on a real Slurm cluster: a job array of three shards sharing one
//! output folder, one task cancelled (`scancel`) mid-run and resubmitted
//! with `--resume`, must reach the verdict of one process at the same pair
//! count. The bots are seeded random movers restarted for every game, so
//! every game is the same wherever and whenever it is played.
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

const SHARDS: u32 = 3;
const INSTALL: &str = "apt-get install -y slurm-wlm munge";

fn slurm(conf: &str, program: &str, args: &[&str]) -> String {
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

/// Waits until `squeue` lists none of `jobs`.
fn wait_gone(conf: &str, jobs: &str) {
    let t0 = Instant::now();
    loop {
        let listed = slurm(conf, "squeue", &["-h", "-j", jobs, "-o", "%i %T"]);
        if listed.is_empty() {
            return;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(600),
            "Slurm jobs still queued after 10 minutes:\n{listed}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// Cancels the test's jobs if it fails half-way, so none is left running.
struct Cancel(String, Vec<String>);

impl Drop for Cancel {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut command = Command::new("scancel");
            command.args(&self.1);
            if !self.0.is_empty() {
                command.env("SLURM_CONF", &self.0);
            }
            let _ = command.output();
        }
    }
}

fn verdict(out: &Path) -> Value {
    let text = std::fs::read_to_string(out.join("sprt.json"))
        .unwrap_or_else(|e| panic!("no sprt.json in {}: {e}", out.display()));
    let v: Value = serde_json::from_str(&text).unwrap();
    serde_json::json!([v["decision"], v["pairs"], v["pentanomial"], v["llr"]])
}

#[test]
fn an_sprt_over_a_slurm_job_array_with_a_task_cancelled_and_resubmitted() {
    let has_sbatch = Command::new("sh")
        .args(["-c", "command -v sbatch"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(has_sbatch, "sbatch is missing: {INSTALL}");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
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
    let script = root.join("tests/slurm/sprt.sbatch");
    let submit = |array: &str| {
        slurm(
            &conf,
            "sbatch",
            &[
                "--parsable",
                &format!("--array={array}"),
                &format!("--output={}/slurm-%A_%a.out", dir.display()),
                script.to_str().unwrap(),
                ABOURE,
                config.to_str().unwrap(),
                out.to_str().unwrap(),
                &SHARDS.to_string(),
            ],
        )
    };
    let job = submit(&format!("1-{SHARDS}"));
    let mut jobs = Cancel(conf.clone(), vec![job.clone()]);
    let victim = format!("{job}_2");
    let own = out.join(format!("games-2-of-{SHARDS}.jsonl"));
    let t0 = Instant::now();
    while std::fs::read_to_string(&own).map_or(0, |t| t.lines().count()) < 1 {
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "task 2 wrote no game in 5 minutes"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let state = slurm(&conf, "squeue", &["-h", "-j", &victim, "-o", "%T"]);
    assert_eq!(state, "RUNNING", "task 2 must be cancelled mid-run");
    slurm(&conf, "scancel", &[&victim]);
    wait_gone(&conf, &victim);
    // The job script may outlive the killed shard and record its status.
    let cancelled = out.join("exit-2");
    if let Ok(code) = std::fs::read_to_string(&cancelled) {
        assert_ne!(
            code.trim(),
            "0",
            "the cancelled task must not have finished"
        );
        std::fs::remove_file(&cancelled).unwrap();
    }
    let again = submit("2");
    jobs.1.push(again.clone());
    wait_gone(&conf, &format!("{job},{again}"));

    for k in 1..=SHARDS {
        let code = std::fs::read_to_string(out.join(format!("exit-{k}")))
            .unwrap_or_else(|e| panic!("task {k} left no exit status: {e}"));
        assert_eq!(code.trim(), "0", "task {k} failed; see {}", dir.display());
    }
    assert_eq!(verdict(&out), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}
