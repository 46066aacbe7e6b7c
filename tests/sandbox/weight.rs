//! What a held bot still runs gets only the CPU no other bot wants (its
//! cpu group weighs 2 against 1024): a long system call begun before its
//! hold, its wind-down after its games; and the sandbox's own looks at a
//! bot take the bot's CPU share, not other games'. Read from outside,
//! from `/proc` and the bots' cgroups.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::hold::{helper_above, pids, TICKS};
use super::*;

/// The state letter (`R`, `S`, `D`...) and CPU seconds of process `pid`.
fn state_and_cpu(pid: u32) -> Option<(char, f64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let number = |i: usize| fields.get(i)?.parse::<f64>().ok();
    let state = fields.first()?.chars().next()?;
    Some((state, (number(11)? + number(12)?) / TICKS))
}

/// Until `stop`, every 5 ms: the CPU seconds of the processes matching
/// `busy` and `other` (summed), added up over the intervals through which
/// a `busy` process was running or runnable (`R`) at both ends: a busy
/// test bot computing its move. Returns both, and the seconds counted.
/// The pids are looked for anew every 100 ms.
fn while_computing(
    busy: &'static str,
    other: String,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<(f64, f64, f64)> {
    std::thread::spawn(move || {
        let mut found: (Vec<u32>, Vec<u32>) = (vec![], vec![]);
        let mut last: Option<(bool, f64, f64, Instant)> = None;
        let mut counted = (0.0, 0.0, 0.0);
        for look in 0u64.. {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            if look % 20 == 0 {
                found = (pids(busy), pids(&other));
            }
            let seen = |pids: &[u32]| pids.iter().filter_map(|&p| state_and_cpu(p)).collect();
            let (busy_now, other_now): (Vec<_>, Vec<_>) = (seen(&found.0), seen(&found.1));
            let computing = busy_now.iter().any(|(state, _)| *state == 'R');
            let sum = |v: &Vec<(char, f64)>| v.iter().map(|(_, cpu)| cpu).sum::<f64>();
            let now = (computing, sum(&busy_now), sum(&other_now), Instant::now());
            if let Some((true, busy_then, other_then, at)) = last {
                if computing && look % 20 != 0 {
                    counted.0 += (now.1 - busy_then).max(0.0);
                    counted.1 += (now.2 - other_then).max(0.0);
                    counted.2 += (now.3 - at).as_secs_f64();
                }
            }
            last = Some(now);
            std::thread::sleep(Duration::from_millis(5));
        }
        counted
    })
}

/// The cpu group of process `pid` (`/proc/PID/cgroup`).
fn cpu_path(pid: u32) -> Option<String> {
    let groups = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).ok()?;
    groups.lines().find_map(|line| {
        let (controllers, path) = line.split_once(':')?.1.split_once(':')?;
        (controllers.split(',').any(|c| c == "cpu")).then(|| path.to_owned())
    })
}

/// The cpu group of process `pid`, if it is one of aboure's.
fn cpu_group(pid: u32) -> Option<String> {
    // A process on its way out is shown in the root group.
    cpu_path(pid).filter(|path| path.starts_with("/aboure/"))
}

/// The weight (`cpu.shares`) of the cpu group of process `pid`, if it is
/// one of aboure's.
fn cpu_weight(pid: u32) -> Option<String> {
    let path = cpu_group(pid)?;
    let shares = std::fs::read_to_string(format!("/sys/fs/cgroup/cpu{path}/cpu.shares")).ok()?;
    Some(shares.trim().to_owned())
}

/// Until `stop`: the weights of the cpu groups of the processes matching
/// `other`, each time one that was seen beside a process matching `busy`
/// is seen with none alive (its game over: its opponent gone).
fn weights_after_games(
    busy: &'static str,
    other: String,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<String>> {
    std::thread::spawn(move || {
        let (mut weights, mut played) = (Vec::new(), std::collections::HashSet::new());
        while !stop.load(Ordering::Relaxed) {
            let others = pids(&other);
            if pids(busy).is_empty() {
                let after = others.into_iter().filter(|pid| played.contains(pid));
                weights.extend(after.filter_map(cpu_weight));
            } else {
                played.extend(others);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        weights
    })
}

#[test]
fn a_held_bots_long_system_calls_take_next_to_no_cpu_from_its_computing_opponent() {
    // Attacks r04 and r15 of an outside round: 48 threads each starting a
    // 1 GiB `preadv` of a sparse file just before `bestmove` run on through
    // the hold (no freezer or stop interrupts a system call), and took a
    // quarter of a computing opponent's work as root (here, without the
    // weight: 1.07 to 1.16 s of the reader's CPU against 1.73 to 1.87 s of
    // its opponent's, three runs). Held, the bot's cpu
    // group weighs 2 against its opponent's 1024. Both bots share one core
    // here (`cpus = "0"`), so what the reads take while the opponent
    // computes, the opponent loses; the measure is the reader's CPU time
    // against the opponent's while the opponent computes, both read from
    // `/proc`, which other load on the machine does not skew.
    let m = marker("longread");
    const BUSY: &str = "busy --ms 400 --seed 7411";
    let bots = testbot("honest", BUSY) + &hostile("reader", "longread.sh", &m, &[]);
    let text = gauntlet_against("", &bots)
        .replace("concurrency = 2", "concurrency = 1")
        .replace(
            "[openings]",
            "[sandbox]\ncpus = \"0\"\n[adjudication]\nmax-plies = 10\n[openings]",
        )
        .replace("base = \"2s\"", "base = \"30s\"");
    let dir = folder("sandbox-hold-longread");
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = while_computing(BUSY, m.clone(), stop.clone());
    let after = weights_after_games(BUSY, m.clone(), stop.clone());
    run_and_check(&dir, &m, &text, 1);
    stop.store(true, Ordering::Relaxed);
    let (worked, read, wall) = watcher.join().unwrap();
    // Its games over, the reader (quitting, then killed) keeps reading for
    // a while: with the least weight too, not in the way of other games.
    let after = after.join().unwrap();
    println!("the reader's weight after its games: {after:?}");
    assert!(
        !after.is_empty() && after.iter().all(|w| w == "2"),
        "{after:?}"
    );
    println!("while its opponent computed ({wall:.2} s), the reader took {read:.2} s of CPU, the opponent {worked:.2} s");
    // (On a busy machine the opponent gets less of the core, and so would
    // the reader: the measure is their ratio.)
    assert!(
        wall > 1.0,
        "the opponent was seen computing for {wall:.2} s"
    );
    assert!(worked > 0.2, "the opponent computed for {worked:.2} s");
    assert!(read < 0.1 * worked, "{read:.2} s against {worked:.2} s");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_sandboxs_looks_at_a_bots_files_take_the_bots_own_cpu_share() {
    // Attack f17 of an outside round: 400 processes holding 1,000
    // descriptors each of a file deleted from the bot's `write` folder made
    // the helper's looks at them (for `write-size`) take 12.8 s of CPU in
    // eight games while the bot was on the move, outside every group: from
    // the bots of other games. The helper now joins the bot's cpu group
    // once the bot's init is forked.
    let dir = folder("sandbox-charge");
    let (_, cache) = write_folder(&dir);
    let m = marker("charge");
    let bot = hostile("honest", "fdhold.sh", &m, &[&cache]);
    let bots = bot + "sandbox = { write = [\"cache\"] }\n" + &testbot("quiet", "sleepy --ms 300");
    let text = gauntlet_against("", &bots)
        .replace("[openings]", "[adjudication]\nmax-plies = 6\n[openings]")
        .replace("base = \"2s\"", "base = \"30s\"");
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = {
        let (m, stop) = (m.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut seen = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                for pid in pids(&m) {
                    let helper = helper_above(pid).and_then(cpu_path);
                    if let (Some(helper), Some(bot)) = (helper, cpu_group(pid)) {
                        seen.push((helper, bot));
                    }
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            seen
        })
    };
    let output = run(&write_config(&dir, &text), &dir.join("out"), &[]);
    stop.store(true, Ordering::Relaxed);
    let seen = watcher.join().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    println!("{} looks, for example {:?}", seen.len(), seen.first());
    assert!(!seen.is_empty(), "no helper seen in a group of aboure's");
    assert!(seen.iter().all(|(helper, bot)| helper == bot), "{seen:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
