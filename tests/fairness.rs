//! Bots cannot slow each other: a CPU hog (`aboure bench responder hog`:
//! threads and a child process burning CPU all the time) is held still
//! while its opponent thinks, held to its CPU share while it thinks
//! itself, and causes no time forfeit of a normal bot (`aboure bench
//! responder work`: a fixed amount of CPU per move), whether it is the
//! normal bot's opponent or plays in another game at the same time. The
//! hog's CPU time is read from outside, from `/proc`, while it runs.

use crate::disk::{assert_each_recorded_once, recorded_ids, SmallDisk};
use crate::harness;
#[path = "fairness/meter.rs"]
mod meter;

use std::path::Path;
use std::time::{Duration, Instant};

use harness::*;
use meter::{marked, CpuMeter, Metered};
use serde_json::Value;

/// A `[[bot]]` table running `aboure bench responder ARGS`, with `marker`
/// in its environment (inherited by the processes it starts; the CPU meter
/// counts the processes that carry it).
fn responder(name: &str, args: &str, marker: &str, extra: &str) -> String {
    let mut command = vec![
        format!("{ABOURE:?}"),
        "\"bench\"".into(),
        "\"responder\"".into(),
    ];
    command.extend(args.split_whitespace().map(|a| format!("{a:?}")));
    format!(
        "[[bot]]\nname = \"{name}\"\ncommand = [{}]\nenv = {{ ABOURE_HOSTILE = \"{marker}\" }}\n{extra}",
        command.join(", ")
    )
}

fn head(pairs: u32, concurrency: u32, time_control: &str, sandbox: &str) -> String {
    format!(
        "[tournament]\npairs = {pairs}\nconcurrency = {concurrency}\nstartup-timeout = \"30s\"\n\
         [openings]\nplies = 2\n[time-control]\n{time_control}\n[sandbox]\n{sandbox}\n"
    )
}

/// Total time `bot` spent on its moves in `games`, as the arbiter charged
/// it (every ply is one side's, from South at the start position).
fn thinking(games: &[Value], bot: &str) -> Duration {
    let mut ms = 0.0;
    for g in games {
        assert_eq!(g["start"], "startpos", "{g}");
        let mine = if g["south"] == bot { 0 } else { 1 };
        for (i, p) in g["plies"].as_array().unwrap().iter().enumerate() {
            if i % 2 == mine && p["by"] == "bot" {
                ms += p["time_ms"].as_f64().unwrap_or(0.0);
            }
        }
    }
    Duration::from_secs_f64(ms / 1000.0)
}

/// Runs `text` in `dir`, metering the hog (marker `m`) against the bot
/// carrying `m` followed by `-watched`; returns the games, what was
/// metered and the run's `run.json`.
fn run_metered(dir: &Path, m: &str, text: &str) -> (Vec<Value>, Metered, Value) {
    let config = write_config(dir, text);
    let out = dir.join("out");
    let meter = CpuMeter::start(m, &format!("{m}-watched"));
    let output = run(&config, &out, &[]);
    let cpu = meter.stop();
    assert!(output.status.success(), "{}", show(&output));
    assert_no_survivors(m, Duration::from_secs(5));
    assert_no_survivors(&format!("{m}-watched"), Duration::from_secs(5));
    let run_json = serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    (games(&out), cpu, run_json)
}

/// The layer `name` of a run's sandbox report.
fn layer<'a>(run: &'a Value, name: &str) -> &'a Value {
    let layers = run["sandbox"]["layers"].as_array().unwrap();
    layers
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {run:#}"))
}

#[test]
fn a_hog_is_frozen_while_its_opponent_thinks_unless_it_ponders() {
    let mut measured = Vec::new();
    for ponder in [false, true] {
        let dir = folder(&format!("fairness-frozen-{ponder}"));
        let m = marker(&format!("frozen{ponder}"));
        // No quota here: only the hold is measured. A wide margin: on a
        // busy machine the opponent of a pondering hog may take seconds
        // over its 100 ms of work, and no forfeit is measured here.
        let tc = "movetime = \"2s\"\nmargin = \"20s\"";
        let text = head(1, 1, tc, "cpu = \"unlimited\"")
            + &responder(
                "hog",
                "hog --ms 2 --threads 3",
                &m,
                &format!("ponder = {ponder}\n"),
            )
            + &responder("normal", "work --ms 100", &format!("{m}-watched"), "");
        let (games, metered, run) = run_metered(&dir, &m, &text);
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(|g| g["loser"].is_null()), "{games:#?}");
        let freezer = layer(&run, "freezer");
        assert_eq!(freezer["active"], true, "{freezer}");
        let detail = freezer["detail"].as_str().unwrap();
        assert_eq!(
            detail.contains("pondering, never held: hog"),
            ponder,
            "{freezer}"
        );
        println!(
            "ponder = {ponder}: {metered:?}; the opponent was charged {:?}",
            thinking(&games, "normal")
        );
        // Seen thinking long enough for a rate (a starved sampler sees
        // fewer intervals short enough to count).
        assert!(metered.thinking > Duration::from_millis(300), "{metered:?}");
        measured.push(metered);
        let _ = std::fs::remove_dir_all(&dir);
    }
    // Held, the hog gets no CPU while its opponent thinks. What is left is
    // the start of each game (the opponent's process starting while the
    // hog, started already, is not held yet: it is held from the first
    // `go`) and the odd tick the kernel charged across a sample.
    let held = measured[0];
    let rate = held.hog_while_thinking.as_secs_f64() / held.thinking.as_secs_f64();
    assert!(
        rate < 0.1,
        "held: {rate:.3} cores while the opponent thought: {held:?}"
    );
    // Pondering, it burns CPU all the while (a loaded machine gives it
    // less than its four spinners would take).
    let pondering = measured[1];
    let rate = pondering.hog_while_thinking.as_secs_f64() / pondering.thinking.as_secs_f64();
    assert!(
        rate > 0.2,
        "pondering: {rate:.3} cores while the opponent thought: {pondering:?}"
    );
}

#[test]
fn without_the_sandbox_a_hog_is_stopped_while_its_opponent_thinks() {
    let dir = folder("fairness-signals");
    let m = marker("signals");
    let tc = "movetime = \"2s\"\nmargin = \"2s\"";
    let text = head(1, 1, tc, "mode = \"off\"")
        + &responder("hog", "hog --ms 2 --threads 3", &m, "")
        + &responder("normal", "work --ms 100", &format!("{m}-watched"), "");
    let (games, metered, run) = run_metered(&dir, &m, &text);
    assert!(games.iter().all(|g| g["loser"].is_null()), "{games:#?}");
    let freezer = layer(&run, "freezer");
    let detail = freezer["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("sandbox off: a bot is stopped with SIGSTOP"),
        "{freezer}"
    );
    println!("{metered:?}");
    assert!(metered.thinking > Duration::from_millis(300), "{metered:?}");
    let rate = metered.hog_while_thinking.as_secs_f64() / metered.thinking.as_secs_f64();
    assert!(
        rate < 0.1,
        "stopped: {rate:.3} cores while the opponent thought: {metered:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hog_is_held_to_its_cpu_share() {
    let dir = folder("fairness-quota");
    let m = marker("quota");
    // It ponders, so it would run all the time on every core it can get.
    let tc = "movetime = \"1s\"\nmargin = \"2s\"";
    let text = head(1, 1, tc, "cpu = \"0.25\"")
        + &responder("hog", "hog --ms 20 --threads 3", &m, "ponder = true\n")
        + &responder("normal", "work --ms 50", &format!("{m}-watched"), "");
    let (games, metered, run) = run_metered(&dir, &m, &text);
    assert_eq!(games.len(), 2);
    assert_eq!(layer(&run, "cgroup-cpu")["active"], true, "{run:#}");
    let wall: f64 = games
        .iter()
        .map(|g| g["duration_ms"].as_f64().unwrap())
        .sum();
    let wall = Duration::from_secs_f64(wall / 1000.0);
    // A quarter of a core over the games' wall time, and the moments
    // around them that its processes lived (start-up, quit).
    let bound = wall / 4 + Duration::from_millis(300);
    println!("the hog used {:?} of CPU in {wall:?} of games", metered.hog);
    assert!(metered.hog < bound, "{metered:?}, bound {bound:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hog_causes_no_time_forfeit_beside_it_or_against_it() {
    let dir = folder("fairness-forfeits");
    let m = marker("forfeits");
    // Round robin at two games at once: the normal bot meets the hog, and
    // plays the quiet bot while the hog plays in the other game.
    let tc = "movetime = \"150ms\"\nmargin = \"250ms\"";
    let text = head(3, 2, tc, "")
        + &responder("normal", "work --ms 20", &format!("{m}-watched"), "")
        + &responder("hog", "hog --ms 5 --threads 4", &m, "")
        + &responder("quiet", "work --ms 1", "-", "");
    let (games, metered, _) = run_metered(&dir, &m, &text);
    assert_eq!(games.len(), 18);
    println!("{metered:?}");
    let normal_lost: Vec<&Value> = games
        .iter()
        .filter(|g| loser(g) == Some("normal"))
        .collect();
    assert!(
        normal_lost.is_empty(),
        "the normal bot lost: {normal_lost:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_flooding_bot_gets_its_protocol_log_cut_at_the_cap() {
    let dir = folder("fairness-protocol-log");
    let m = marker("protocollog");
    // Each game stops the flood at the bound on a move's output (4 MiB,
    // within the move's time however busy the machine): six games of it
    // pass the log's cap of 16 MiB.
    let text = head(3, 1, "movetime = \"20s\"", "")
        + &hostile("flood", "infoflood.sh", &m, &[])
        + &responder("normal", "work --ms 1", "-", "");
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let output = run(&config, &out, &["--log-protocol"]);
    assert!(output.status.success(), "{}", show(&output));
    assert_no_survivors(&m, Duration::from_secs(5));
    let games = games(&out);
    assert_eq!(games.len(), 6);
    assert!(
        games.iter().all(|g| loser(g) == Some("flood")),
        "{games:#?}"
    );
    let log = std::fs::read(out.join("logs/flood.protocol.log")).unwrap();
    let cap = aboure_process::PROTOCOL_CAP as usize;
    let note =
        format!("[aboure: protocol log limit of {cap} bytes reached; the rest is discarded]\n");
    assert!(log.len() <= cap + note.len(), "{} bytes of log", log.len());
    assert!(
        log.ends_with(note.as_bytes()),
        "{} bytes, no note at the end",
        log.len()
    );
    // The other bot's log is its own, and whole.
    let normal = std::fs::read_to_string(out.join("logs/normal.protocol.log")).unwrap();
    assert!(normal.contains("< bestmove"), "{normal}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A round robin of two plain bots, eight games of about a second each.
fn slow_games() -> String {
    head(4, 1, "movetime = \"1s\"", "")
        + &responder("one", "work --ms 20", "-", "")
        + &responder("two", "work --ms 20", "-", "")
}

#[test]
fn a_result_that_cannot_be_written_is_retried_until_the_disk_has_room() {
    let dir = folder("fairness-full-disk");
    let config = write_config(&dir, &slow_games());
    let disk = SmallDisk::mount(&dir.join("disk"), "256k");
    let out = disk.dir.join("out");
    let stderr = dir.join("arbiter.stderr");
    disk.fill_until_retried(&mut run_command(&config, &out, &[]), &out, &stderr);
    assert_each_recorded_once(&out, 8);
    drop(disk);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_result_that_cannot_be_written_at_all_stops_the_run_naming_the_game() {
    let dir = folder("fairness-dead-disk");
    let config = write_config(&dir, &slow_games());
    let disk = SmallDisk::mount(&dir.join("disk"), "256k");
    let out = disk.dir.join("out");
    let stderr = dir.join("arbiter.stderr");
    let mut child = run_command(&config, &out, &[])
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .unwrap();
    wait_for_games(&out, 1);
    let filler = disk.fill();
    let status = child.wait().unwrap();
    let log = std::fs::read_to_string(&stderr).unwrap();
    assert_eq!(status.code(), Some(2), "{log}");
    let kept = recorded_ids(&out);
    let error = log
        .lines()
        .find(|l| l.contains("could not be written"))
        .unwrap_or_else(|| panic!("{log}"));
    println!("{error}");
    assert!(error.contains("(6 attempts over"), "{error}");
    assert!(error.contains("No space left on device"), "{error}");
    assert!(
        error.contains(&format!("holds the {} games before it, whole", kept.len())),
        "{error}"
    );
    assert!(error.contains("`--resume` plays it again"), "{error}");
    let lost = error
        .split("game ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap();
    assert!(!kept.iter().any(|id| id == lost), "{lost} in {kept:?}");
    // With room again, the rest is played once.
    std::fs::remove_file(filler).unwrap();
    let output = run(&config, &out, &["--resume"]);
    assert!(output.status.success(), "{}", show(&output));
    let ids = recorded_ids(&out);
    assert!(
        ids.iter().any(|id| id == lost),
        "{lost} not played again: {ids:?}"
    );
    assert_each_recorded_once(&out, 8);
    drop(disk);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cpus_keeps_every_process_of_a_bot_on_those_cores() {
    let dir = folder("fairness-cpus");
    let m = marker("cpus");
    let tc = "movetime = \"1s\"";
    // Three pairs of 50 ms moves: seconds in which to read the hog's
    // processes from outside, even on a loaded machine.
    let text = head(3, 1, tc, "cpus = \"1\"")
        + &responder("hog", "hog --ms 50 --threads 2", &m, "ponder = true\n")
        + &responder("normal", "work --ms 20", "-", "");
    let config = write_config(&dir, &text);
    let out = dir.join("out");
    let mut child = run_command(&config, &out, &[])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let needle = format!("ABOURE_HOSTILE={m}").into_bytes();
    let t0 = Instant::now();
    // The hog and its child process, each read from outside.
    let mut allowed = Vec::new();
    while allowed.len() < 2 {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "no hog: {allowed:?}"
        );
        allowed = marked(&needle)
            .iter()
            .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/status")).ok())
            .filter_map(|s| {
                let line = s.lines().find(|l| l.starts_with("Cpus_allowed_list:"))?;
                Some(line.split_whitespace().nth(1)?.to_owned())
            })
            .collect();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(child.wait().unwrap().success());
    assert!(allowed.iter().all(|a| a == "1"), "{allowed:?}");
    let run: Value = serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(layer(&run, "cgroup-cpuset")["active"], true, "{run:#}");
    let _ = std::fs::remove_dir_all(&dir);
}
