//! The live page's safety rules, against the real `aboure serve`: no
//! request reaches a file outside the fixed routes (however the path is
//! encoded), a foreign Host header is refused, an address other than
//! 127.0.0.1 needs `--allow-remote`, and then every request needs the
//! printed token (401 without, 403 wrong). Traffic stays on 127.0.0.0/8.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::served;
use served::serve;

fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-security-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/report/tests/fixtures/sprt");
    for f in ["games.jsonl", "run.json"] {
        std::fs::copy(fixture.join(f), dir.join(f)).unwrap();
    }
    dir
}

/// `host:port` of a printed URL.
fn authority(url: &str) -> String {
    let rest = url.strip_prefix("http://").unwrap();
    rest[..rest.find('/').unwrap()].to_owned()
}

/// Sends `target` exactly as written (no client normalises it) and returns
/// the status code and the body.
fn get(authority: &str, target: &str, host: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(authority).unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = Vec::new();
    // Server-sent events never end: the first bytes are enough.
    let mut buf = [0u8; 65536];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => response.extend_from_slice(&buf[..n]),
        }
        if target.contains("/events") && response.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    (status, text)
}

#[test]
fn no_request_reaches_a_file() {
    let dir = folder("paths");
    let (_server, url) = serve(&[dir.to_str().unwrap()]);
    let at = authority(&url);
    assert!(at.starts_with("127.0.0.1:"), "{url}");
    assert_eq!(get(&at, "/", &at).0, 200);
    assert_eq!(get(&at, "/run/0/snapshot.json", &at).0, 200);
    for target in [
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
        "/..%2f..%2f..%2fetc%2fpasswd",
        "/..%252f..%252fetc%252fpasswd",
        "/run/0/../../../etc/passwd",
        "/run/..%2f..%2fetc%2fpasswd",
        "/run/0/..%2f..%2f..%2fetc%2fpasswd",
        "/run/0/events/../../../../etc/passwd",
        "//etc/passwd",
        "/etc/passwd",
        "/games.jsonl",
        "/run.json",
        "/run/0/games.jsonl",
        "/run/0/run.json",
        "/run/1",
        "/run/-1",
        "/run/99999999999999999999999",
    ] {
        let (status, body) = get(&at, target, &at);
        assert!(
            status == 404 || status == 400,
            "{target}: status {status}\n{body}"
        );
        assert!(!body.contains("root:"), "{target} served a system file");
        assert!(
            !body.contains("\"pairing\""),
            "{target} served a results file"
        );
    }
    // A page elsewhere reaching 127.0.0.1 through its own host name.
    assert_eq!(get(&at, "/", "attacker.example:80").0, 403);
}

#[test]
fn another_address_needs_the_flag_and_then_the_token() {
    let dir = folder("token");
    let out = Command::new(env!("CARGO_BIN_EXE_aboure"))
        .args(["serve", "--address", "127.0.0.2", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--allow-remote"), "{stderr}");

    let (_server, url) = serve(&[
        "--address",
        "127.0.0.2",
        "--allow-remote",
        dir.to_str().unwrap(),
    ]);
    let at = authority(&url);
    assert!(at.starts_with("127.0.0.2:"), "{url}");
    let token = url.split("token=").nth(1).expect("a token in the URL");
    assert_eq!(token.len(), 64, "{url}");
    let mut wrong = token.to_owned().into_bytes();
    wrong[0] = if wrong[0] == b'a' { b'b' } else { b'a' };
    let wrong = String::from_utf8(wrong).unwrap();
    for route in ["/", "/run/0", "/run/0/snapshot.json", "/run/0/events"] {
        assert_eq!(get(&at, route, &at).0, 401, "{route} without a token");
        let with = |t: &str| format!("{route}?token={t}");
        assert_eq!(get(&at, &with(&wrong), &at).0, 403, "{route}, wrong token");
        assert_eq!(
            get(&at, &with(&token[..63]), &at).0,
            403,
            "{route}, short token"
        );
        assert_eq!(get(&at, &with(token), &at).0, 200, "{route} with the token");
    }
    // The page's script takes the token from its own URL for its events.
    let (_, page) = get(&at, &format!("/?token={token}"), &at);
    assert!(page.contains("data-events=\"/run/0/events\""));
}
