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

/// Clock ticks a second of `/proc/PID/stat` (`USER_HZ`).
pub(super) const TICKS: f64 = 100.0;

/// The spinners seen (by pid): CPU seconds and age in seconds at the last
/// look (the age from the process's own start time, so a sampler slowed by
/// a busy machine still sees its whole life).
pub(super) type Seen = HashMap<u32, (f64, f64)>;

/// CPU seconds (user and system) and age in seconds of process `pid`.
fn usage(pid: u32) -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let number = |i: usize| fields.get(i)?.parse::<f64>().ok();
    let cpu = (number(11)? + number(12)?) / TICKS;
    let started = number(19)? / TICKS;
    let uptime = std::fs::read_to_string("/proc/uptime").ok()?;
    let now: f64 = uptime.split_whitespace().next()?.parse().ok()?;
    Some((cpu, now - started))
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
                if let Some(usage) = usage(pid) {
                    seen.insert(pid, usage);
                }
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        seen
    })
}

/// Plays the bot `opponent` (a `[[bot]]` table) against a spinner (the
/// hostile script `script`, marked `m`) in games of eight plies on a
/// generous clock, and checks that nobody lost and that each game's
/// spinner, seen for more than `seen_for` seconds, took under `share` of a
/// core.
fn assert_spinner_held(
    dir: &Path,
    m: &str,
    opponent: String,
    script: &str,
    (seen_for, share): (f64, f64),
) {
    let bots = opponent + &hostile("spinner", script, m, &[]);
    let text = gauntlet_against("", &bots)
        .replace("[openings]", "[adjudication]\nmax-plies = 8\n[openings]")
        .replace("base = \"2s\"", "base = \"30s\"");
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch(format!("{m}-spin"), stop.clone());
    let games = run_and_check(dir, m, &text, 1);
    stop.store(true, Ordering::Relaxed);
    let seen = watcher.join().unwrap();
    assert!(games.iter().all(|g| g["loser"].is_null()), "{games:#?}");
    assert_eq!(seen.len(), 2, "one spinner a game: {seen:?}");
    for (pid, (cpu, lived)) in seen {
        println!("spinner {pid}: {cpu:.2} s of CPU in {lived:.2} s");
        assert!(lived > seen_for, "seen for {lived:.2} s");
        assert!(cpu / lived < share, "{cpu:.2} s of CPU in {lived:.2} s");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_setsid_double_forked_spinner_is_held_while_the_opponent_thinks() {
    let m = marker("hold");
    // The opponent thinks a second a move; the spinner's bot answers at
    // once. Eight plies a game: four seconds of the opponent's thinking.
    // Held, the spinner runs only around the bot's own instant moves and
    // its start (not held, it took 0.29 to 0.37 of a core on a busy
    // machine).
    let opponent = testbot("honest", "sleepy --ms 1000 --seed 7");
    let dir = folder("sandbox-hold");
    assert_spinner_held(&dir, &m, opponent, "daemonspin.sh", (3.0, 0.1));
}

#[test]
fn a_spinner_that_arms_timers_sending_sigcont_is_held_while_the_opponent_thinks() {
    // Attack 50 of the outside review: under an unprivileged arbiter the
    // hold is `SIGSTOP`, which a one-shot POSIX timer sending `SIGCONT`
    // undoes (96% of the opponent's thinking time spent spinning).
    let m = marker("holdtimers");
    // The opponent thinks two seconds a move, so that the spinner's own
    // start (Python's, and arming its timers) weighs little. (Through its
    // timers, it took 0.11 of a core on a busy machine.)
    let opponent = testbot("honest", "sleepy --ms 2000 --seed 7");
    let dir = folder("sandbox-hold-timers");
    assert_spinner_held(&dir, &m, opponent, "timerspin.sh", (6.0, 0.05));
}

#[test]
fn spinners_of_a_process_group_orphaned_while_held_stay_held() {
    // Attack a04 of the outside review: under an unprivileged arbiter, a
    // bot in a session of its own kills the leader of a process group it
    // made just before its `bestmove`; the leader's exit outlasts the hold,
    // and at its end the kernel continues the orphaned group's stopped
    // spinners (9 to 12 s of CPU during the opponent's thinking).
    let dir = folder("sandbox-hold-orphan");
    let m = marker("holdorphan");
    let bots = testbot("honest", "sleepy --ms 1500 --seed 7")
        + &hostile("spinner", "orphancell.sh", &m, &["1024"]);
    let text = gauntlet_against("", &bots)
        .replace("[openings]", "[adjudication]\nmax-plies = 8\n[openings]")
        .replace("base = \"2s\"", "base = \"60s\"");
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch(format!("{m}-spin"), stop.clone());
    let games = run_and_check(&dir, &m, &text, 1);
    stop.store(true, Ordering::Relaxed);
    let seen = watcher.join().unwrap();
    println!("{}", stderr_log(&dir.join("out"), "spinner"));
    assert!(games.iter().all(|g| g["loser"].is_null()), "{games:#?}");
    // Two spinners a move, four moves a game, killed at the bot's next
    // move: each lives through one of the opponent's moves.
    assert!(seen.len() >= 8, "spinners seen: {seen:?}");
    let (cpu, lived) = seen
        .values()
        .fold((0.0, 0.0), |(c, l), (cpu, lived)| (c + cpu, l + lived));
    println!("{} spinners: {cpu:.2} s of CPU in {lived:.2} s", seen.len());
    assert!(lived > 8.0, "seen for {lived:.2} s");
    assert!(cpu / lived < 0.05, "{cpu:.2} s of CPU in {lived:.2} s");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_spinner_is_held_while_its_opponent_starts_up() {
    let m = marker("holdstart");
    // The opponent sleeps three seconds before its handshake, then moves
    // at once; the spinner's bot is ready long before. Seen for most of
    // the opponent's three seconds (its own start-up, slow on a busy
    // machine, takes a part of them).
    let opponent = hostile("honest", "slowstart.sh", &m, &["3"]);
    let dir = folder("sandbox-hold-start");
    assert_spinner_held(&dir, &m, opponent, "daemonspin.sh", (1.5, 0.1));
}

/// The pids of the processes whose command line holds `pattern`.
pub(super) fn pids(pattern: &str) -> Vec<u32> {
    let found = Command::new("pgrep").args(["-f", pattern]).output();
    let text = found.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    text.unwrap_or_default()
        .lines()
        .filter_map(|l| l.parse().ok())
        .collect()
}

/// Whether a process whose command line holds `pattern` is asleep in
/// `clock_nanosleep` or `nanosleep` (`/proc/PID/syscall`): a sleepy test
/// bot thinking in one of its games.
fn thinking(pattern: &str) -> bool {
    let sleeps = [libc::SYS_clock_nanosleep, libc::SYS_nanosleep].map(|n| n.to_string());
    pids(pattern).into_iter().any(|pid| {
        let call = std::fs::read_to_string(format!("/proc/{pid}/syscall")).unwrap_or_default();
        call.split_whitespace()
            .next()
            .is_some_and(|n| sleeps.iter().any(|s| s == n))
    })
}

/// Until `stop`, at each look: whether a process matching `during` was
/// thinking (see [`thinking`]), the CPU seconds of the processes matching
/// `pattern` (summed), and when.
fn watch_during(
    pattern: String,
    during: &'static str,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<(bool, f64, Instant)>> {
    watch_found_during(move || pids(&pattern), move || thinking(during), stop)
}

/// [`watch_during`] of the processes `find` names at each look, the other
/// bot thinking when `during` says so.
pub(super) fn watch_found_during(
    find: impl Fn() -> Vec<u32> + Send + 'static,
    during: impl Fn() -> bool + Send + 'static,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<(bool, f64, Instant)>> {
    std::thread::spawn(move || {
        let mut looks = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let asleep = during();
            let cpu = find().into_iter().filter_map(usage);
            looks.push((asleep, cpu.map(|(cpu, _)| cpu).sum(), Instant::now()));
            std::thread::sleep(Duration::from_millis(50));
        }
        looks
    })
}

/// The CPU seconds the watched processes took and the seconds that passed
/// between consecutive looks that both saw the other bot thinking.
pub(super) fn while_thinking(looks: &[(bool, f64, Instant)]) -> (f64, f64) {
    looks.windows(2).fold((0.0, 0.0), |(cpu, wall), pair| {
        let ((a, cpu_a, at_a), (b, cpu_b, at_b)) = (pair[0], pair[1]);
        if !(a && b) {
            return (cpu, wall);
        }
        let took = (cpu_b - cpu_a).max(0.0);
        (cpu + took, wall + (at_b - at_a).as_secs_f64())
    })
}

#[test]
fn a_bot_kept_between_its_games_is_held_through_the_games_of_others() {
    // Attack b36 of the outside review: with `restart = "never"` a bot's
    // process lives from its first game to its last, and was left running
    // between them, through the games of other bots (a spinner child burnt
    // 2.5 to 6.5 s of CPU in a 30 s run while its bot was on move 0.2 s).
    // Here the honest bot plays two pairs against the spinner's bot and two
    // against `quiet`, one game at a time in schedule order (a pair with
    // the spinner's bot, one with quiet, and again), seven plies of half a
    // second a move: the spinner's bot idles through quiet's games.
    let dir = folder("sandbox-hold-kept");
    let m = marker("holdkept");
    const QUIET: &str = "sleepy --ms 500 --seed 4271";
    let bots = testbot("honest", "sleepy --ms 500 --seed 7")
        + &hostile("spinner", "daemonspin.sh", &m, &[])
        + &testbot("quiet", QUIET);
    // Seven plies: the last is South's, the spinner's in the second game
    // of each of its pairs, whose end then finds it released, on the move.
    let text = gauntlet_against("", &bots)
        .replace(
            "pairs = 1\nconcurrency = 2\n",
            "pairs = 2\nconcurrency = 1\nrestart = \"never\"\n",
        )
        .replace("[openings]", "[adjudication]\nmax-plies = 7\n[openings]")
        .replace("base = \"2s\"", "base = \"30s\"");
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch_during(format!("{m}-spin"), QUIET, stop.clone());
    let games = run_and_check(&dir, &m, &text, 4);
    stop.store(true, Ordering::Relaxed);
    let looks = watcher.join().unwrap();
    assert!(games.iter().all(|g| g["loser"].is_null()), "{games:#?}");
    // A game that the spinner's own move ended came before one of quiet's.
    let ended_by_spinner = games.iter().position(|g| g["south"] == "spinner");
    let quiet_after = games.iter().rposition(|g| g["north"] == "quiet");
    assert!(ended_by_spinner < quiet_after, "{games:#?}");
    // Judged only while quiet thinks (asleep in its move, seen from
    // outside): then a game the spinner's bot is not in is on, whatever
    // else the machine does. Quiet thinks about seven seconds in all (not
    // held, the spinner took 1.0 to 3.9 s of CPU in one pair of quiet's
    // games on a busy machine). Judged instead from quiet's first game to
    // the end of the run, the spinner's own moves and a busy machine's
    // slow hand-overs counted too, and once went past a bound of 0.5 s.
    let (cpu, wall) = while_thinking(&looks);
    println!("spinner: {cpu:.2} s of CPU in {wall:.2} s of quiet's thinking");
    assert!(wall > 2.0, "quiet seen thinking for {wall:.2} s");
    assert!(cpu / wall < 0.05, "{cpu:.2} s of CPU in {wall:.2} s");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Plays `staller` (the test bot with `args`) against an honest bot on
/// 200 ms a move, and checks that it lost each game on time; returns the
/// games.
fn staller_games(dir: &Path, args: &str) -> Vec<serde_json::Value> {
    let config = format!(
        "[tournament]\npairs = 1\nconcurrency = 1\n[openings]\nplies = 0\n\
         [time-control]\nmovetime = \"200ms\"\n{}{}",
        testbot("staller", args),
        testbot("honest", "random --seed 5")
    );
    let out = dir.join("out");
    let output = run(&write_config(dir, &config), &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let games = games(&out);
    assert_eq!(games.len(), 2, "{games:#?}");
    for g in &games {
        assert_eq!(g["termination"], "time_forfeit", "{g}");
        let loser = g["loser"].as_str().unwrap();
        assert_eq!(g[loser], "staller", "{g}");
    }
    std::fs::remove_dir_all(dir).unwrap();
    games
}

#[test]
fn a_bot_that_holds_back_its_readyok_after_newgame_pays_for_it_on_its_clock() {
    // Attack 80 of the outside review: 8 s before the `readyok` after
    // `newgame` (within the start-up limit), thinking before the game.
    let games = staller_games(&folder("hold-newgame"), "slownew --ms 1500");
    for g in &games {
        // At its first move: the stall was charged to it.
        let plies = g["plies"].as_array().unwrap();
        assert!(plies.len() <= 1, "{g}");
    }
}

#[test]
fn a_bot_that_holds_back_its_readyok_after_a_move_pays_for_it_on_its_clock() {
    // Attack 38 of the outside review: after each `bestmove`, 1.5 s before
    // the `readyok` the arbiter asks for, thinking while nobody's clock ran.
    staller_games(&folder("hold-stall"), "stall --ms 1500");
}

/// The parent of process `pid` (`/proc/PID/stat`), while it lives.
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's closing parenthesis: the state, then the parent.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// The pids in the freezer group of process `pid`, read from outside
/// (`/proc/PID/cgroup`); none if it has no group of its own.
fn freezer_members(pid: u32) -> Option<Vec<u32>> {
    let groups = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).ok()?;
    let path = groups.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        controllers
            .split(',')
            .any(|c| c == "freezer")
            .then(|| path.to_owned())
    })?;
    let procs =
        std::fs::read_to_string(format!("/sys/fs/cgroup/freezer{path}/cgroup.procs")).ok()?;
    (path != "/").then(|| {
        procs
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    })
}

#[test]
fn a_hold_freezes_the_bots_processes_and_not_its_sandboxs_helper_or_init() {
    // Each task of a frozen group is woken to stop it at every hold and
    // woken again at every release. The helper and the init only wait and
    // are not the bot's: in the group, they tripled every hold's wakeups
    // (13 context switches a move against 8, `perf stat` over the same
    // tournament of two instant bots).
    let dir = folder("sandbox-hold-members");
    const WATCHED: &str = "seed 90417";
    let bots = testbot("honest", "sleepy --ms 300 --seed 7")
        + &testbot("watched", &format!("sleepy --ms 300 --{WATCHED}"));
    let text = gauntlet_against("", &bots)
        .replace("[openings]", "[adjudication]\nmax-plies = 6\n[openings]");
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = std::thread::spawn({
        let stop = stop.clone();
        move || {
            let mut seen = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                // Its parent is the sandbox's init, whose parent is the helper.
                let groups = pids(WATCHED).into_iter().filter_map(|pid| {
                    let parent = parent_of(pid);
                    let above = [parent, parent.and_then(parent_of)];
                    freezer_members(pid).map(|members| (pid, above, members))
                });
                seen.extend(groups);
                std::thread::sleep(Duration::from_millis(20));
            }
            seen
        }
    });
    let output = run(&write_config(&dir, &text), &dir.join("out"), &[]);
    stop.store(true, Ordering::Relaxed);
    let seen = watcher.join().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    assert!(!seen.is_empty(), "the bot's freezer group was never seen");
    for (bot, above, members) in &seen {
        assert!(members.contains(bot), "{bot} not in its group: {members:?}");
        assert!(
            above.iter().all(Option::is_some),
            "{bot}'s parents: {above:?}"
        );
        assert!(
            !above.iter().flatten().any(|p| members.contains(p)),
            "the init or the helper above {bot} ({above:?}) is in its freezer group: {members:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sandbox helper above process `pid`: the highest of its ancestors
/// that runs `aboure sandbox-exec` (the init below it is a fork of it).
pub(super) fn helper_above(pid: u32) -> Option<u32> {
    let sandbox = |pid: u32| {
        let command = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        String::from_utf8_lossy(&command).contains("sandbox-exec")
    };
    let mut found = None;
    let mut at = parent_of(pid)?;
    while at > 1 {
        if sandbox(at) {
            found = Some(at);
        } else if found.is_some() {
            return found;
        }
        at = parent_of(at)?;
    }
    found
}

/// Plays `bot` (its table, named `honest`) against a bot that thinks a
/// second a move, and checks that the sandbox helpers above the processes
/// whose command line holds `pattern` took no CPU to speak of while the
/// other bot thought: the helper is never held, and measures nothing of a
/// held bot (its files, its descriptors, its CPU time).
fn assert_helper_idle_while_held(dir: &Path, bot: String, pattern: String) {
    const QUIET: &str = "sleepy --ms 1000 --seed 4272";
    let bots = bot + "sandbox = { write = [\"cache\"] }\n" + &testbot("quiet", QUIET);
    let text = gauntlet_against("", &bots)
        .replace("[openings]", "[adjudication]\nmax-plies = 6\n[openings]")
        .replace("base = \"2s\"", "base = \"30s\"");
    let helpers = move || {
        let mut found: Vec<u32> = pids(&pattern)
            .into_iter()
            .filter_map(helper_above)
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    };
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch_found_during(helpers, || thinking(QUIET), stop.clone());
    let output = run(&write_config(dir, &text), &dir.join("out"), &[]);
    stop.store(true, Ordering::Relaxed);
    let looks = watcher.join().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    let games = games(&dir.join("out"));
    assert!(games.iter().all(|g| g["loser"].is_null()), "{games:#?}");
    let (cpu, wall) = while_thinking(&looks);
    println!("helpers: {cpu:.2} s of CPU in {wall:.2} s of quiet's thinking");
    assert!(wall > 2.0, "quiet seen thinking for {wall:.2} s");
    assert!(cpu / wall < 0.05, "{cpu:.2} s of CPU in {wall:.2} s");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_sandbox_of_a_held_bot_does_not_measure_its_files_while_the_opponent_thinks() {
    // The helper walks the bot's `write` folders ten times a second for
    // `write-size`: 9,000 files there (under its bound of entries) made it
    // walk them through its opponent's moves (1.16 s of CPU in 5.82 s as
    // root, and unprivileged in an outside attack, r01).
    let dir = folder("sandbox-hold-walk");
    let (cache, _) = write_folder(&dir);
    for i in 0..9_000 {
        std::fs::write(cache.join(format!("f{i}")), b"x").unwrap();
    }
    const FILLER: &str = "seed 61523";
    let bot = testbot("honest", &format!("sleepy --ms 0 --{FILLER}"));
    assert_helper_idle_while_held(&dir, bot, FILLER.to_owned());
}

#[test]
fn the_sandbox_of_a_held_bot_does_not_look_at_its_descriptors_while_the_opponent_thinks() {
    // Attack r02 of an outside round: 470 processes holding 1,000
    // descriptors each of a file deleted from the bot's `write` folder made
    // a look at them (for `write-size`) last long enough to run on through
    // the opponent's move, 2.69 s of the helper's CPU in 10.8 s as root,
    // 5.58 s in 11.5 s unprivileged. A look now gives up once the bot is
    // held.
    let dir = folder("sandbox-hold-fds");
    let (_, cache) = write_folder(&dir);
    let m = marker("holdfds");
    let bot = hostile("honest", "fdhold.sh", &m, &[&cache]);
    assert_helper_idle_while_held(&dir, bot, m);
}
