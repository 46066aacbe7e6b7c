//! A bot is held while its opponent thinks, every process of it: a
//! `setsid`, double-forked spinner included, by the freezer under a root
//! arbiter and by the sandbox's init (`kill(-1, SIGSTOP)` in the bot's pid
//! namespace) under an unprivileged one. The spinner's CPU time is read
//! from outside, from `/proc`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::*;

/// The spinners seen (by pid): CPU ticks at the last look, and when each
/// was first and last seen.
type Seen = HashMap<u32, (u64, Instant, Instant)>;

/// CPU ticks (user and system) of process `pid`.
fn ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Looks for processes whose command line holds `pattern` until `stop`.
fn watch(pattern: String, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<Seen> {
    std::thread::spawn(move || {
        let mut seen = Seen::new();
        while !stop.load(Ordering::Relaxed) {
            let found = Command::new("pgrep").args(["-f", &pattern]).output();
            let pids = found.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
            for pid in pids
                .unwrap_or_default()
                .lines()
                .filter_map(|l| l.parse().ok())
            {
                if let Some(t) = ticks(pid) {
                    let now = Instant::now();
                    let entry = seen.entry(pid).or_insert((t, now, now));
                    *entry = (t, entry.1, now);
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        seen
    })
}

#[test]
fn a_setsid_double_forked_spinner_is_held_while_the_opponent_thinks() {
    let dir = folder("sandbox-hold");
    let m = marker("hold");
    // The opponent thinks a second a move; the spinner's bot answers at
    // once. Eight plies a game.
    let bots = testbot("honest", "sleepy --ms 1000 --seed 7")
        + &hostile("spinner", "daemonspin.sh", &m, &[]);
    let text = gauntlet_against("", &bots)
        .replace("[openings]", "[adjudication]\nmax-plies = 8\n[openings]")
        .replace("base = \"2s\"", "base = \"30s\"");
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch(format!("{m}-spin"), stop.clone());
    let games = run_and_check(&dir, &m, &text, 1);
    stop.store(true, Ordering::Relaxed);
    let seen = watcher.join().unwrap();
    assert!(games.iter().all(|g| g["loser"].is_null()), "{games:#?}");
    assert_eq!(seen.len(), 2, "one spinner a game: {seen:?}");
    let ticks_per_second = 100.0;
    for (pid, (ticks, first, last)) in seen {
        let lived = (last - first).as_secs_f64();
        let cpu = ticks as f64 / ticks_per_second;
        println!("spinner {pid}: {cpu:.2} s of CPU in {lived:.2} s");
        // Four seconds of the opponent's thinking a game: held, the
        // spinner runs only around the bot's own instant moves and its
        // start.
        assert!(lived > 3.0, "seen for {lived:.2} s");
        assert!(cpu / lived < 0.3, "{cpu:.2} s of CPU in {lived:.2} s");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
