//! The live page in a real browser, and a run that is killed, resumed and
//! replaced under `aboure serve`.
//!
//! In the browser: a writer appends the games of an SPRT
//! run to a folder a few at a time (lines cut in two, as a writer caught
//! mid-line leaves them), `aboure serve` follows the folder, and headless
//! Chromium, driven over the DevTools protocol on a pipe, reads the page
//! twice: the standings and the LLR must have changed, through server-sent
//! events, in the same document (no reload).
//!
//! Needs Chromium (`apt-get install -y chromium`; `ABOURE_CHROMIUM` may name
//! another binary). Without it the test fails and says so.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::served;
use served::{chromium, serve, Reaped, HEADLESS};

fn fixture(name: &str) -> PathBuf {
    crate::harness::report_fixture(&format!("sprt/{name}"))
}

fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-live-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Chromium's DevTools protocol over `--remote-debugging-pipe`: commands
/// on fd 3, replies and events on fd 4, each a JSON text ending in NUL
/// (the league's page test drives it too).
pub(crate) struct DevTools {
    _browser: Reaped,
    to: File,
    from: BufReader<File>,
    next_id: u64,
    session: Option<String>,
}

fn pipe() -> (RawFd, RawFd) {
    let mut fds = [0; 2];
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    (fds[0], fds[1])
}

impl DevTools {
    pub(crate) fn open(url: &str, profile: &Path) -> DevTools {
        let (cmd_read, cmd_write) = pipe();
        let (reply_read, reply_write) = pipe();
        let mut command = Command::new(chromium());
        command
            .args(HEADLESS)
            .arg("--remote-debugging-pipe")
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(url)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only fcntl and dup2 (async-signal-safe) between fork and
        // exec. The pipes are first copied above 9, so that neither is
        // already 3 or 4: dup2 onto itself would keep O_CLOEXEC (Chromium
        // would find no pipe), and dup2 onto the other would close it. The
        // copies on 3 and 4 lose O_CLOEXEC; every other copy closes at exec.
        unsafe {
            command.pre_exec(move || {
                let high = |fd| libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10);
                let (cmd, reply) = (high(cmd_read), high(reply_write));
                if cmd < 0 || reply < 0 || libc::dup2(cmd, 3) < 0 || libc::dup2(reply, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let browser = Reaped(command.spawn().unwrap());
        unsafe {
            libc::close(cmd_read);
            libc::close(reply_write);
        }
        let mut tools = DevTools {
            _browser: browser,
            to: unsafe { File::from_raw_fd(cmd_write) },
            from: BufReader::new(unsafe { File::from_raw_fd(reply_read) }),
            next_id: 1,
            session: None,
        };
        let targets = tools.call("Target.getTargets", json!({}));
        let page = targets["targetInfos"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["type"] == "page")
            .expect("a page target")["targetId"]
            .clone();
        let attached = tools.call(
            "Target.attachToTarget",
            json!({"targetId": page, "flatten": true}),
        );
        tools.session = Some(attached["sessionId"].as_str().unwrap().to_owned());
        tools
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(s) = &self.session {
            message["sessionId"] = json!(s);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        loop {
            let mut reply = Vec::new();
            let n = self.from.read_until(0, &mut reply).unwrap();
            assert!(n > 0, "Chromium closed its DevTools pipe");
            reply.pop();
            let value: Value = serde_json::from_slice(&reply).unwrap();
            if value["id"] == id {
                assert!(value["error"].is_null(), "{method}: {}", value["error"]);
                return value["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression in the page.
    pub(crate) fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        r["result"]["value"].clone()
    }

    /// Polls `expression` until it is true (a guard against hanging, not a
    /// measurement: the deadline is generous).
    pub(crate) fn wait_for(&mut self, expression: &str) {
        let deadline = Instant::now() + Duration::from_secs(90);
        while self.eval(expression) != json!(true) {
            assert!(Instant::now() < deadline, "never true: {expression}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// What the test reads from the page.
const READ: &str = "JSON.stringify({
    updates: +document.body.dataset.updates,
    games: +document.body.dataset.games,
    llr: document.getElementById('live-llr').textContent,
    rows: Array.from(document.querySelectorAll('#standings tbody tr')).map(r => r.textContent),
    sprt: (document.querySelector('#sprt p') || {}).textContent,
    list: document.querySelectorAll('#game-list tbody tr').length,
    marker: window.stillTheSameDocument === 42,
})";

#[test]
fn the_page_follows_a_growing_run_without_reloading() {
    let dir = folder("browser");
    std::fs::copy(fixture("run.json"), dir.join("run.json")).unwrap();
    let games = std::fs::read_to_string(fixture("games.jsonl")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    assert!(lines.len() >= 20, "the fixture has {} games", lines.len());
    let path = dir.join("games.jsonl");
    let mut out = File::create(&path).unwrap();
    for line in &lines[..6] {
        writeln!(out, "{line}").unwrap();
    }
    out.flush().unwrap();

    let (_server, url) = serve(&[dir.to_str().unwrap()]);
    let profile = folder("profile");
    let mut page = DevTools::open(&url, &profile);
    page.wait_for("+document.body.dataset.updates >= 1 && +document.body.dataset.games === 6");
    let first: Value = serde_json::from_str(page.eval(READ).as_str().unwrap()).unwrap();
    page.eval("window.stillTheSameDocument = 42");

    // The rest, two games at a time, each line written in two halves.
    for chunk in lines[6..].chunks(2) {
        for line in chunk {
            let (a, b) = line.split_at(line.len() / 2);
            out.write_all(a.as_bytes()).unwrap();
            out.flush().unwrap();
            std::thread::sleep(Duration::from_millis(150));
            writeln!(out, "{b}").unwrap();
            out.flush().unwrap();
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    let total = lines.len();
    page.wait_for(&format!("+document.body.dataset.games === {total}"));
    let last: Value = serde_json::from_str(page.eval(READ).as_str().unwrap()).unwrap();

    assert_eq!(last["marker"], true, "the page was reloaded: {last}");
    assert!(
        last["updates"].as_u64() > first["updates"].as_u64(),
        "no new update: {first} then {last}"
    );
    assert_eq!(first["games"], 6);
    assert_eq!(last["games"].as_u64(), Some(total as u64));
    assert_ne!(first["rows"], last["rows"], "the standings did not change");
    assert_ne!(first["llr"], last["llr"], "the LLR did not change");
    assert_ne!(
        first["sprt"], last["sprt"],
        "the SPRT section did not change"
    );
    assert!(
        last["llr"].as_str().unwrap().contains(" in ["),
        "{}",
        last["llr"]
    );
    // The game viewer holds the newest games (all of them, here).
    assert_eq!(last["list"].as_u64(), Some(total as u64), "{last}");
}

/// The live figures of run 0, fetched as a plain HTTP client would.
fn live_games(url: &str) -> u64 {
    use std::io::Read;
    let at = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(at).unwrap();
    write!(
        stream,
        "GET /run/0/snapshot.json HTTP/1.0\r\nHost: {at}\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let body = &response[response.find("\r\n\r\n").unwrap() + 4..];
    let value: Value = serde_json::from_str(body).unwrap();
    value["live"]["games"].as_u64().unwrap()
}

fn wait_for_games(url: &str, games: u64) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while live_games(url) != games {
        assert!(
            Instant::now() < deadline,
            "never {games} games: {}",
            live_games(url)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_killed_resumed_and_replaced_run_keeps_its_page() {
    let dir = folder("resume");
    std::fs::copy(fixture("run.json"), dir.join("run.json")).unwrap();
    let games = std::fs::read_to_string(fixture("games.jsonl")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    let path = dir.join("games.jsonl");
    // Killed while writing its seventh game.
    let mut text: String = lines[..6].iter().map(|l| format!("{l}\n")).collect();
    let complete = text.len() as u64;
    text += &lines[6][..40];
    std::fs::write(&path, &text).unwrap();
    let (_server, url) = serve(&[dir.to_str().unwrap()]);
    wait_for_games(&url, 6);
    // Resumed: the partial line is cut away, the games follow.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(complete).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    for line in &lines[6..10] {
        writeln!(file, "{line}").unwrap();
    }
    wait_for_games(&url, 10);
    // Replaced by another run's file: read again from the start.
    let other = dir.join("games.tmp");
    let fresh: String = lines[..3].iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&other, fresh).unwrap();
    std::fs::rename(&other, &path).unwrap();
    wait_for_games(&url, 3);
}

/// The workers panel: what the page shows of `workers.json`.
pub(crate) const WORKERS: &str = "JSON.stringify({
    hidden: document.getElementById('live-workers-box').hidden,
    count: document.getElementById('live-workers-count').textContent,
    rows: Array.from(document.querySelectorAll('#live-workers tbody tr'))
        .map(r => Array.from(r.cells).map(c => c.textContent)),
    taken: document.getElementById('live-taken-over').textContent,
    marker: window.stillTheSameDocument === 42,
})";

fn worker(
    name: &str,
    state: aboure_records::workers::WorkerState,
    holding: Vec<u64>,
    games: u64,
) -> aboure_records::workers::WorkerEntry {
    aboure_records::workers::WorkerEntry {
        name: name.to_owned(),
        about: format!("worker {name} host h pid 1 games at once 1"),
        state,
        holding,
        games,
        results: format!("games-{name}.jsonl"),
        last_seen: "2026-12-01T12:00:00Z".to_owned(),
        took_over: Vec::new(),
    }
}

#[test]
fn the_page_lists_the_workers_and_the_pairs_taken_from_a_dead_one() {
    use aboure_records::workers::{TakenOver, WorkerState, WorkersFile, WORKERS_SCHEMA};
    let dir = folder("workers");
    std::fs::copy(fixture("run.json"), dir.join("run.json")).unwrap();
    let games = std::fs::read_to_string(fixture("games.jsonl")).unwrap();
    std::fs::write(dir.join("games.jsonl"), games).unwrap();
    let (_server, url) = serve(&[dir.to_str().unwrap()]);
    let profile = folder("workers-profile");
    let mut page = DevTools::open(&url, &profile);
    page.wait_for("+document.body.dataset.updates >= 1");
    let read = |page: &mut DevTools| -> Value {
        serde_json::from_str(page.eval(WORKERS).as_str().unwrap()).unwrap()
    };
    assert_eq!(read(&mut page)["hidden"], true, "no workers.json: no panel");
    page.eval("window.stillTheSameDocument = 42");

    let mut file = WorkersFile {
        schema: WORKERS_SCHEMA,
        written: "2026-12-01T12:00:00Z".to_owned(),
        written_by: "1-of-2".to_owned(),
        workers: vec![
            worker("1-of-2", WorkerState::Alive, vec![4], 6),
            worker("2-of-2", WorkerState::Alive, vec![5], 5),
        ],
    };
    file.write_in(&dir).unwrap();
    page.wait_for("document.querySelectorAll('#live-workers tbody tr').length === 2");
    let first = read(&mut page);
    assert_eq!(first["hidden"], false, "{first}");
    assert_eq!(first["count"], "2 alive, 0 ended, 0 dead", "{first}");
    assert_eq!(
        first["rows"][1],
        json!(["2-of-2", "alive", "1 (5)", "5", "2026-12-01 12:00:00 UTC"])
    );
    assert_eq!(first["taken"], "No pair taken over from a dead worker.");

    // 2-of-2 is killed; 1-of-2 takes its pair 5 over, and a third joins.
    file.workers = vec![
        worker("1-of-2", WorkerState::Alive, vec![5], 8),
        worker("2-of-2", WorkerState::Died, vec![], 5),
        worker("h-77", WorkerState::Ended, vec![], 0),
    ];
    file.workers[0].took_over.push(TakenOver {
        pair: 5,
        from: "2-of-2".to_owned(),
    });
    file.write_in(&dir).unwrap();
    page.wait_for("document.getElementById('live-taken-over').textContent.includes('pair 5')");
    let last = read(&mut page);
    assert_eq!(last["marker"], true, "the page was reloaded: {last}");
    assert_eq!(last["count"], "1 alive, 1 ended, 1 dead", "{last}");
    assert_eq!(last["rows"][0][2], "1 (5)", "{last}");
    assert_eq!(last["rows"][1][1], "dead", "{last}");
    assert_eq!(
        last["taken"],
        "Pairs taken over from dead workers: pair 5 (from 2-of-2, by 1-of-2)"
    );
}
