//! `aboure bench serve`: the live page following a large results file, each
//! figure against a baseline measured in the same run. Its peak memory
//! against that of `aboure report --format json` on the same file, and the
//! time from a game appended to the file to the browser's event stream
//! carrying it, against the time `aboure report` takes to read the file.
//!
//! The file is an SPRT of `games` games made of the report's fixture SPRT
//! (its games renamed and renumbered), so the page has the LLR path to
//! redraw as well as the standings.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::cpu::wait_measured;

const RUN_JSON: &str = include_str!("../../report/tests/fixtures/sprt/run.json");
const GAMES: &str = include_str!("../../report/tests/fixtures/sprt/games.jsonl");

/// Games appended one by one once the page has caught up.
const APPENDS: usize = 6;
/// The longest wait for the event stream before giving up.
const PATIENCE: Duration = Duration::from_secs(600);

/// What one run measured.
#[derive(Clone, Debug)]
pub struct ServeFigures {
    /// Games in the file.
    pub games: usize,
    /// Its size in bytes.
    pub bytes: u64,
    /// `aboure report --format json`: wall time.
    pub report_time: Duration,
    /// Its peak memory, KiB.
    pub report_kib: u64,
    /// `aboure serve`: time to the first event carrying every game.
    pub ready: Duration,
    /// Its peak memory at the end, KiB.
    pub serve_kib: u64,
    /// From each append to the event carrying it, sorted.
    pub latencies: Vec<Duration>,
}

impl std::fmt::Display for ServeFigures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let report = self.report_time.as_secs_f64();
        let median = self.latencies[self.latencies.len() / 2];
        let max = self.latencies[self.latencies.len() - 1];
        writeln!(
            f,
            "{} games ({:.0} MB)",
            self.games,
            self.bytes as f64 / 1e6
        )?;
        writeln!(
            f,
            "aboure report --format json   {report:.2} s, peak {} MiB (the baseline)",
            self.report_kib / 1024
        )?;
        writeln!(
            f,
            "aboure serve                  first event after {:.2} s, peak {} MiB ({:.2}x the report's)",
            self.ready.as_secs_f64(),
            self.serve_kib / 1024,
            self.serve_kib as f64 / self.report_kib as f64
        )?;
        write!(
            f,
            "a game appended to its event  median {} ms, max {} ms ({:.2}x and {:.2}x the report's time)",
            median.as_millis(),
            max.as_millis(),
            median.as_secs_f64() / report,
            max.as_secs_f64() / report
        )
    }
}

/// Measures `aboure` (the binary) on a file of `games` games in `dir`
/// (made empty first).
pub fn measure(aboure: &Path, games: usize, dir: &Path) -> io::Result<ServeFigures> {
    let template: Vec<serde_json::Value> = GAMES
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .map_err(io::Error::other)?;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)?;
    let folder = aboure_records::RunFolder::new(dir);
    std::fs::write(folder.manifest(), RUN_JSON)?;
    let path = folder.results(None);
    let mut out = io::BufWriter::new(std::fs::File::create(&path)?);
    for i in 0..games {
        writeln!(out, "{}", game_line(&template, i))?;
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    let bytes = std::fs::metadata(&path)?.len();

    let t = Instant::now();
    let report = Command::new(aboure)
        .args(["report", "--format", "json"])
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let reaped = wait_measured(report)?;
    let report_time = t.elapsed();
    if !reaped.status.success() {
        return Err(io::Error::other("aboure report failed on the file"));
    }

    let start = Instant::now();
    let mut serve = Served(
        Command::new(aboure)
            .arg("serve")
            .arg(dir)
            .stdout(Stdio::piped())
            .spawn()?,
    );
    let at = address(&mut serve.0)?;
    let mut events = TcpStream::connect(&at)?;
    events.set_read_timeout(Some(PATIENCE))?;
    write!(events, "GET /run/0/events HTTP/1.0\r\nHost: {at}\r\n\r\n")?;
    wait_for(&mut events, &format!("\"games\":{games},"))?;
    let ready = start.elapsed();

    let mut file = std::fs::OpenOptions::new().append(true).open(&path)?;
    let mut latencies = Vec::new();
    for k in 0..APPENDS {
        // Past the least time between two snapshots: each append is news.
        std::thread::sleep(Duration::from_millis(1500));
        let sent = Instant::now();
        writeln!(file, "{}", game_line(&template, games + k))?;
        wait_for(&mut events, &format!("\"games\":{},", games + k + 1))?;
        latencies.push(sent.elapsed());
    }
    latencies.sort();
    let serve_kib = peak_kib(serve.0.id())?;
    Ok(ServeFigures {
        games,
        bytes,
        report_time,
        report_kib: reaped.peak_kib,
        ready,
        serve_kib,
        latencies,
    })
}

/// Game `i` of a long SPRT made of the fixture's games, renamed and
/// renumbered.
fn game_line(template: &[serde_json::Value], i: usize) -> String {
    let mut g = template[i % template.len()].clone();
    let pair = i / 2;
    g["id"] = format!("big-p{pair}-g{}", i % 2).into();
    g["pair"] = pair.into();
    g.to_string()
}

/// Kills `aboure serve` however the measurement ends.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The `host:port` `aboure serve` printed as its first line.
fn address(child: &mut Child) -> io::Result<String> {
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| io::Error::other("no stdout"))?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    let url = line
        .trim()
        .strip_prefix("live page: ")
        .ok_or_else(|| io::Error::other(format!("aboure serve printed {line:?}, not its URL")))?;
    Ok(url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned())
}

/// Peak resident memory of the live process `pid`, KiB (`VmHWM`).
fn peak_kib(pid: u32) -> io::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| io::Error::other("no VmHWM"))
}

/// Reads the event stream until `needle` appears.
fn wait_for(stream: &mut TcpStream, needle: &str) -> io::Result<()> {
    let needle = needle.as_bytes();
    let mut window = Vec::new();
    let mut buf = [0u8; 1 << 16];
    loop {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return Err(io::Error::other("the event stream ended"));
        }
        window.extend_from_slice(&buf[..n]);
        if window.windows(needle.len()).any(|w| w == needle) {
            return Ok(());
        }
        let keep = window.len().saturating_sub(needle.len());
        window.drain(..keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_long_sprt_numbers_its_pairs_and_keeps_the_fixtures_games() {
        let template: Vec<serde_json::Value> = GAMES
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let n = template.len();
        let line: serde_json::Value = serde_json::from_str(&game_line(&template, n + 3)).unwrap();
        assert_eq!(line["id"], format!("big-p{}-g1", (n + 3) / 2));
        assert_eq!(line["pair"], (n + 3) / 2);
        assert_eq!(line["result"], template[3]["result"]);
        let run: serde_json::Value = serde_json::from_str(RUN_JSON).unwrap();
        assert!(
            run.get("sprt").is_some() || RUN_JSON.contains("sprt"),
            "{run}"
        );
    }
}
