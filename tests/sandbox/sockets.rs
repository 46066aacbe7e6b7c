//! Socket families by list: a bot opens local sockets, and IPv4 and IPv6
//! sockets only when its network is on; vsock (which no network namespace
//! covers), netlink, packet, Bluetooth and the kernel's crypto sockets are
//! refused as a kernel without them would refuse them.

use super::*;

/// The lines of the bot `name`'s stderr log in `out` that report a family.
fn families(out: &Path, name: &str) -> Vec<String> {
    stderr_log(out, name)
        .lines()
        .filter_map(|l| l.strip_prefix("families: "))
        .map(str::to_owned)
        .collect()
}

/// True if this machine opens vsock sockets at all (outside any sandbox).
fn host_has_vsock() -> bool {
    // SAFETY: socket and close with integer arguments.
    unsafe {
        let fd = libc::socket(libc::AF_VSOCK, libc::SOCK_STREAM, 0);
        if fd >= 0 {
            libc::close(fd);
        }
        fd >= 0
    }
}

#[test]
fn a_bot_opens_only_the_socket_families_it_is_allowed() {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test needs python3: apt-get install -y python3"
    );
    // Without vsock on the host the attack would prove nothing.
    assert!(
        host_has_vsock(),
        "this test needs vsock: modprobe vsock_loopback"
    );
    let dir = folder("sandbox-families");
    let m = marker("families");
    let port = (40_000 + std::process::id() % 20_000).to_string();
    let bots = [
        hostile("closed", "families.sh", &m, &[&port]),
        hostile("open", "families.sh", &m, &[&port]),
        "sandbox = { network = true }\n".to_owned(),
    ]
    .concat();
    run_and_check(&dir, &m, &gauntlet(&bots), 2);
    let out = dir.join("out");
    let refused = "refused EAFNOSUPPORT";
    for (bot, inet) in [("closed", refused), ("open", "ok")] {
        let expected: Vec<String> = [
            ("unix", "ok"),
            ("inet", inet),
            ("inet6", inet),
            ("netlink", refused),
            ("packet", refused),
            ("bluetooth", refused),
            ("alg", refused),
            ("vsock", refused),
            ("netlink pair", refused),
        ]
        .iter()
        .map(|(family, outcome)| format!("{family} {outcome}"))
        .collect();
        // One report per process: two games, a process each.
        let reported = families(&out, bot);
        assert_eq!(reported.len(), 2 * expected.len(), "{bot}: {reported:#?}");
        assert_eq!(reported[..expected.len()], expected[..], "{bot}");
        assert_eq!(reported[expected.len()..], expected[..], "{bot}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
