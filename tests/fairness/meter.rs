//! Reading bots' CPU time and state from outside, from `/proc`, while a
//! run goes on (`tests/fairness.rs`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What a [`CpuMeter`] saw.
#[derive(Clone, Copy, Debug, Default)]
pub struct Metered {
    /// CPU time of the hog's processes over the whole run.
    pub hog: Duration,
    /// Of that, while the watched bot was seen running at two samples in a
    /// row, less than 5 ms apart (it does nothing but compute on its
    /// moves: that is its thinking).
    pub hog_while_thinking: Duration,
    /// Wall time of those intervals.
    pub thinking: Duration,
}

/// Reads from `/proc`, every 2 ms while the run goes on, the CPU time of
/// every process carrying the hog's marker (a process's `stat` covers all
/// its threads, in clock ticks) and whether a process carrying the
/// watched bot's marker is running (state `R`).
pub struct CpuMeter {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Metered>,
}

impl CpuMeter {
    pub fn start(hog: &str, watched: &str) -> CpuMeter {
        let stop = Arc::new(AtomicBool::new(false));
        let needles = [hog, watched].map(|m| format!("ABOURE_HOSTILE={m}").into_bytes());
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            // SAFETY: sysconf only reads a system constant.
            let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
            let mut seen: HashMap<u32, u64> = HashMap::new();
            let mut pids: [Vec<u32>; 2] = Default::default();
            let mut found_at = Instant::now() - Duration::from_secs(1);
            let (mut during, mut thinking) = (0u64, Duration::ZERO);
            let mut last: Option<(Instant, bool, u64)> = None;
            while !flag.load(Ordering::Relaxed) {
                if found_at.elapsed() > Duration::from_millis(50) {
                    pids = needles.clone().map(|n| marked(&n));
                    found_at = Instant::now();
                }
                let now = Instant::now();
                let mut hog_ticks = 0;
                for &pid in &pids[0] {
                    if let Some((_, ticks)) = stat(pid) {
                        let kept = seen.entry(pid).or_default();
                        *kept = (*kept).max(ticks);
                    }
                    hog_ticks += seen.get(&pid).copied().unwrap_or(0);
                }
                let running = pids[1]
                    .iter()
                    .any(|&p| stat(p).is_some_and(|(s, _)| s == 'R'));
                if let Some((then, was_running, ticks)) = last {
                    // A longer interval (the search for processes) could
                    // hide a whole move of the hog's between its ends.
                    if was_running && running && now - then < Duration::from_millis(5) {
                        during += hog_ticks.saturating_sub(ticks);
                        thinking += now - then;
                    }
                }
                last = Some((now, running, hog_ticks));
                std::thread::sleep(Duration::from_millis(2));
            }
            let secs = |t: u64| Duration::from_secs_f64(t as f64 / hz);
            Metered {
                hog: secs(seen.values().sum()),
                hog_while_thinking: secs(during),
                thinking,
            }
        });
        CpuMeter { stop, thread }
    }

    pub fn stop(self) -> Metered {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap()
    }
}

/// The processes whose environment holds `needle`.
pub fn marked(needle: &[u8]) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if env.split(|&b| b == 0).any(|v| v == needle) {
            pids.push(pid);
        }
    }
    pids
}

/// The state and CPU ticks of process `pid`.
fn stat(pid: u32) -> Option<(char, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let state = stat[stat.rfind(')')? + 1..].trim_start().chars().next()?;
    Some((state, ticks(&stat)))
}

/// `utime` + `stime` of a `/proc/PID/stat` line, in clock ticks.
fn ticks(stat: &str) -> u64 {
    let Some(close) = stat.rfind(')') else {
        return 0;
    };
    let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(11) + field(12)
}
