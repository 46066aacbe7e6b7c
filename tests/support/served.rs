//! What the tests of pages share: a child process killed when the test
//! ends however it ends, `aboure serve` started with the URL it printed,
//! and the Chromium binary that loads pages in a real browser.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Kills a child when the test ends, however it ends.
pub struct Reaped(pub Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `aboure serve ARGS...`, and the URL it printed.
pub fn serve(args: &[&str]) -> (Reaped, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_aboure"))
        .arg("serve")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("live page: ")
        .unwrap_or_else(|| panic!("aboure serve printed {line:?}, not its URL"))
        .to_owned();
    (Reaped(child), url)
}

/// `GET /run/N/snapshot.json` of `aboure serve` at `url`, as a plain HTTP
/// client would: the live figures and the report's body.
pub fn snapshot(url: &str, run: usize) -> serde_json::Value {
    use std::io::{Read, Write};
    let at = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(at).unwrap();
    write!(
        stream,
        "GET /run/{run}/snapshot.json HTTP/1.0\r\nHost: {at}\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let body = &response[response.find("\r\n\r\n").unwrap() + 4..];
    serde_json::from_str(body).unwrap()
}

/// The flags every test starts headless Chromium with: no sandbox (the
/// tests run as root), and none of the background connections a closed
/// network refuses.
pub const HEADLESS: [&str; 7] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
];

/// The Chromium binary (`ABOURE_CHROMIUM`, or where Debian and Ubuntu put
/// it). Its absence fails the test with the command that installs it: a
/// browser test never passes without a browser.
pub fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("ABOURE_CHROMIUM") {
        return PathBuf::from(path);
    }
    for candidate in [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ] {
        if Path::new(candidate).exists() {
            return PathBuf::from(candidate);
        }
    }
    panic!(
        "Chromium is needed to test pages in a real browser and was not found at \
         /usr/bin/chromium. Install it with `apt-get update && apt-get install -y chromium` \
         (or run `bash tests/run.sh`, which installs it; ABOURE_CHROMIUM may name a binary)."
    );
}
