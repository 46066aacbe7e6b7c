//! The sandbox's guarantees, each shown by a hostile bot from
//! `tests/hostile/` run through `aboure run` in the default mode (`auto`):
//! the bot attacks, then plays honest moves. Each test checks that the
//! attack had no effect and that the tournament finished with every game
//! recorded, and prints the layers the run had (from `run.json`). On this
//! project's CI machine every layer is there; a machine that lacks one
//! fails the test that needs it, with the run's reason printed.

use crate::harness;
#[path = "sandbox/apart.rs"]
mod apart;
#[path = "sandbox/arguments.rs"]
mod arguments;
#[path = "sandbox/build.rs"]
mod build;
#[path = "sandbox/calls.rs"]
mod calls;
#[path = "sandbox/channels.rs"]
mod channels;
#[path = "sandbox/explain.rs"]
mod explain;
#[path = "sandbox/hold.rs"]
mod hold;
#[path = "sandbox/identity.rs"]
mod identity;
#[path = "sandbox/installed.rs"]
mod installed;
#[path = "sandbox/limits.rs"]
mod limits;
#[path = "sandbox/links.rs"]
mod links;
#[path = "sandbox/memory.rs"]
mod memory;
#[path = "sandbox/metadata.rs"]
mod metadata;
#[path = "sandbox/named.rs"]
mod named;
#[path = "sandbox/own.rs"]
mod own;
#[path = "sandbox/planted.rs"]
mod planted;
#[path = "sandbox/reach.rs"]
mod reach;
#[path = "sandbox/refusals.rs"]
mod refusals;
#[path = "sandbox/results.rs"]
mod results;
#[path = "sandbox/resume.rs"]
mod resume;
#[path = "sandbox/shared.rs"]
mod shared;
#[path = "sandbox/sockets.rs"]
mod sockets;
#[path = "sandbox/spelled.rs"]
mod spelled;
#[path = "sandbox/stack.rs"]
mod stack;
#[path = "sandbox/system.rs"]
mod system;
#[path = "sandbox/traces.rs"]
mod traces;
#[path = "sandbox/uids.rs"]
mod uids;
#[path = "sandbox/unprivileged.rs"]
mod unprivileged;
#[path = "sandbox/weight.rs"]
mod weight;
#[path = "sandbox/world.rs"]
mod world;

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use harness::*;

/// A gauntlet of the test bot's honest random mover against `bots`, one
/// game pair each.
fn gauntlet(bots: &str) -> String {
    gauntlet_against(&testbot("honest", "random --seed 7"), bots)
}

/// The same, with the `[[bot]]` table of the honest bot given (its name
/// must be `honest`).
fn gauntlet_against(honest: &str, bots: &str) -> String {
    format!(
        "[tournament]\nformat = \"gauntlet\"\ngauntlet-bot = \"honest\"\npairs = 1\nconcurrency = 2\nstartup-timeout = \"30s\"\n\
         [openings]\nplies = 0\n\
         [time-control]\nbase = \"2s\"\nincrement = \"20ms\"\n{honest}{bots}",
    )
}

/// Runs `config_text` in `dir` (through `command` if given, else plain),
/// checks the run finished with two natural games per hostile bot and no
/// survivor carrying `m`, prints the sandbox layers, and returns the games.
#[track_caller]
fn run_and_check(dir: &Path, m: &str, config_text: &str, bots: usize) -> Vec<serde_json::Value> {
    run_and_check_with(Path::new(ABOURE), dir, m, config_text, bots)
}

/// [`run_and_check`] with the `aboure` binary at `aboure`.
#[track_caller]
fn run_and_check_with(
    aboure: &Path,
    dir: &Path,
    m: &str,
    config_text: &str,
    bots: usize,
) -> Vec<serde_json::Value> {
    let config = write_config(dir, config_text);
    let out = dir.join("out");
    let output = Command::new(aboure)
        .args(run_args(&config, &out, &[]))
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    let games = games(&out);
    assert_eq!(games.len(), 2 * bots, "{games:#?}");
    for g in &games {
        let t = g["termination"].as_str().unwrap_or("");
        assert!(
            ["natural", "max_plies", "repetition"].contains(&t),
            "every game is played to its end: {g}"
        );
        assert!(g["plies"].as_array().is_some_and(|p| !p.is_empty()), "{g}");
    }
    assert_no_survivors(m, Duration::from_secs(5));
    games
}

/// Runs `config_text` in `dir` for a bot that loses at a limit (whose
/// games [`run_and_check`] would refuse): checks the run finished with
/// its two games, prints the sandbox layers, and returns the games.
#[track_caller]
fn run_two_games(dir: &Path, config_text: &str) -> Vec<serde_json::Value> {
    let config = write_config(dir, config_text);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    let games = games(&out);
    assert_eq!(games.len(), 2, "{games:#?}");
    games
}

/// Checks that `loser` lost each of `games` at a resource limit, the
/// game's detail holding `detail`.
#[track_caller]
fn assert_lost_at_limit(games: &[serde_json::Value], loser_name: &str, detail: &str) {
    for g in games {
        assert_eq!(g["termination"], "resource_limit", "{g}");
        let said = g["detail"].as_str().unwrap_or("");
        assert!(said.contains(detail), "{g}");
        assert_eq!(loser(g), Some(loser_name), "{g}");
    }
}

/// A folder `dir/cache` for a bot's `sandbox.write`, closed to others'
/// writes (mode 0755 whatever the umask: the bot writes it only as the
/// identity it is given for the run); returns it and its path, as the
/// bot's argument.
fn write_folder(dir: &Path) -> (PathBuf, String) {
    let cache = dir.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    let open = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&cache, open).unwrap();
    let arg = cache.display().to_string();
    (cache, arg)
}

/// A gauntlet of `bots` with their `write` folders' `write-size` 8 MiB.
fn gauntlet_with_write_size(bots: &str) -> String {
    gauntlet(bots).replace("[openings]", "[sandbox]\nwrite-size = \"8MiB\"\n[openings]")
}

/// Prints the layers of the run in `out` and asserts the default mode.
fn print_layers(out: &Path) {
    let run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    let sandbox = &run["sandbox"];
    assert_eq!(sandbox["mode"], "auto", "{run:#}");
    for layer in sandbox["layers"].as_array().unwrap() {
        println!(
            "layer {:<14} {:<5} {}",
            layer["name"].as_str().unwrap(),
            layer["active"],
            layer["detail"].as_str().unwrap()
        );
    }
}

/// `aboure check-bot --check handshake --build "sh build.sh"` run in
/// `folder` on the test bot (`random`), with `options` before the `--`.
fn check_bot_build(folder: &Path, options: &[&str]) -> std::process::Output {
    Command::new(ABOURE)
        .current_dir(folder)
        .args(["check-bot", "--check", "handshake"])
        .args(["--build", "sh build.sh"])
        .args(options)
        .args(["--", TESTBOT, "random"])
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

/// Whether `bytes` hold a terminal's escape raw: ESC, BEL, or a C1
/// control (U+0080 to U+009F, as UTF-8).
fn holds_raw_escape(bytes: &[u8]) -> bool {
    bytes.iter().any(|&b| b == 0x1b || b == 0x07)
        || bytes
            .windows(2)
            .any(|w| w[0] == 0xc2 && (0x80..0xa0).contains(&w[1]))
}

/// The bot `name`'s stderr log in `out`.
fn stderr_log(out: &Path, name: &str) -> String {
    std::fs::read_to_string(out.join(format!("logs/{name}.stderr.log"))).unwrap_or_default()
}

#[test]
fn a_bot_cannot_signal_the_arbiter_or_another_bot() {
    let dir = folder("sandbox-signals");
    let m = marker("signals");
    let bots = hostile("signals", "signals.sh", &m, &[]);
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    // Both of its processes got as far as their attack.
    let log = stderr_log(&dir.join("out"), "signals");
    assert_eq!(log.matches("signals sent").count(), 2, "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_writes_only_its_scratch_folder_and_reads_only_its_own_files() {
    let dir = folder("sandbox-files");
    let m = marker("files");
    // The bot's folder is `dir/bots`; the planted file is beside it, named
    // by no path of its command (which makes a path readable).
    std::fs::write(dir.join("planted-secret.txt"), "the planted secret\n").unwrap();
    let out = dir.join("out");
    let args = [dir.to_str().unwrap()];
    let bots = hostile("files", "files.sh", &m, &args) + "workdir = \"bots\"\n";
    std::fs::create_dir_all(dir.join("bots")).unwrap();
    let games = run_and_check(&dir, &m, &gauntlet(&bots), 1);
    assert!(games.iter().all(|g| g["id"] != "forged"), "{games:#?}");
    let log = stderr_log(&out, "files");
    assert!(!log.contains("wrote games.jsonl"), "{log}");
    assert!(!log.contains("the planted secret"), "{log}");
    assert_eq!(log.matches("read: \n").count(), 2, "{log}");
    assert_eq!(log.matches("scratch: scratch").count(), 2, "{log}");
    // Each process's scratch folder is gone with it.
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            // aboure-PID-BOT-XXXXXX
            let name = e.file_name().to_string_lossy().into_owned();
            let rest = name.strip_prefix("aboure-").and_then(|r| r.split_once('-'));
            rest.is_some_and(|(pid, bot)| pid.parse::<u32>().is_ok() && bot.starts_with("files-"))
        })
        .collect();
    assert!(left.is_empty(), "scratch folders left: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nothing_a_bot_started_outlives_its_game_and_its_processes_are_bounded() {
    let dir = folder("sandbox-daemons");
    let m = marker("daemons");
    let bots = hostile("daemons", "daemons.sh", &m, &[]);
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let log = stderr_log(&dir.join("out"), "daemons");
    let counts: Vec<usize> = log
        .lines()
        .filter_map(|l| l.strip_prefix("processes: "))
        .map(|n| n.trim().parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 2, "{log}");
    // The pids cgroup (512 by default) stopped the fork bomb short of 2000.
    assert!(counts.iter().all(|&n| n <= 520), "{counts:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_network_unless_the_bot_is_allowed_it() {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test needs python3: apt-get install -y python3"
    );
    let dir = folder("sandbox-network");
    let m = marker("network");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let heard = std::thread::spawn(move || {
        let mut names = Vec::new();
        listener.set_nonblocking(false).unwrap();
        // The allowed bot connects once per process: two connections.
        for stream in listener.incoming().take(2) {
            let mut line = String::new();
            let _ = BufReader::new(stream.unwrap()).read_line(&mut line);
            names.push(line.trim().to_owned());
        }
        names
    });
    let bots = [
        hostile("denied", "network.sh", &m, &[&port, "denied"]),
        hostile("allowed", "network.sh", &m, &[&port, "allowed"]),
        "sandbox = { network = true }\n".to_owned(),
    ]
    .concat();
    run_and_check(&dir, &m, &gauntlet(&bots), 2);
    // The allowed bot's two connections came; the denied bot's did not
    // (it ran first in each pair, so its attempts came earlier).
    assert_eq!(heard.join().unwrap(), ["allowed", "allowed"]);
    let out = dir.join("out");
    let denied = stderr_log(&out, "denied");
    assert_eq!(denied.matches("network: refused").count(), 2, "{denied}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_leaked_descriptor_no_inherited_secret_and_no_privileges() {
    let dir = folder("sandbox-leaks");
    let m = marker("leaks");
    let config = write_config(&dir, &gauntlet(&hostile("leaks", "leaks.sh", &m, &[])));
    let out = dir.join("out");
    // The arbiter is started with descriptor 7 open (not close-on-exec)
    // and a secret in its environment.
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("exec 7</dev/null; exec \"$@\"")
        .arg("sh")
        .arg(ABOURE)
        .args(run_args(&config, &out, &[]))
        .env("ABOURE_TEST_SECRET", "hunter2")
        .env_remove("RUST_LOG");
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    assert_eq!(games(&out).len(), 2);
    assert_no_survivors(&m, Duration::from_secs(5));
    let log = stderr_log(&out, "leaks");
    let lines: Vec<&str> = log.lines().filter(|l| l.starts_with("leaks:")).collect();
    assert_eq!(lines.len(), 2, "{log}");
    for line in lines {
        // HOME is the private scratch tmpfs of the constructed root.
        assert_eq!(
            line,
            "leaks: fd7=closed secret=absent nnp=1 capeff=0000000000000000 home=/tmp"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_python_example_runs_unchanged_in_the_sandbox_from_a_relative_path() {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test needs python3: apt-get install -y python3"
    );
    let dir = folder("sandbox-python");
    let out = dir.join("out");
    // From the repository root, as the README says: the file, its `workdir`
    // ("..") and the bot's script are all relative paths.
    let output = Command::new(ABOURE)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "run",
            "configs/python.toml",
            "--out",
            out.to_str().unwrap(),
            "-q",
        ])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    let games = games(&out);
    assert_eq!(games.len(), 8);
    for g in &games {
        assert_eq!(g["loser"], serde_json::Value::Null, "{g}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_python_bot_of_several_files_imports_its_modules_in_the_sandbox() {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test needs python3: apt-get install -y python3"
    );
    let dir = folder("sandbox-multifile");
    // The bot's folder: a script that imports the template (itself three
    // modules) as a module beside it. The working directory is the
    // tournament file's folder.
    let bot = dir.join("multi");
    std::fs::create_dir_all(&bot).unwrap();
    python_template(&bot, "engine.py");
    std::fs::write(bot.join("bot.py"), "import engine\nengine.main()\n").unwrap();
    let config = "[tournament]\npairs = 1\nstartup-timeout = \"30s\"\n\
         [time-control]\nbase = \"3s\"\nincrement = \"50ms\"\nmargin = \"100ms\"\n\
         [[bot]]\nname = \"multi\"\ncommand = [\"python3\", \"multi/bot.py\"]\n\
         options = { depth = 2 }\n\
         [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n";
    let config = write_config(&dir, config);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    let games = games(&out);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["termination"], "natural", "{g}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
