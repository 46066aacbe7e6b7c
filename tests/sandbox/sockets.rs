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

#[test]
fn no_socket_or_fifo_is_made_in_a_write_folder() {
    // Not below /tmp, which is the bot's scratch in its world (a write
    // path there shares the scratch's rules: no endpoints in either);
    // /var/tmp is open to every user, as /tmp is.
    let dir = Path::new("/var/tmp").join(format!("aboure-endpoints-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let m = marker("endpoints");
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let data_arg = data.display().to_string();
    let bots = hostile("endpoints", "endpoints.sh", &m, &[&data_arg])
        + &format!("sandbox = {{ write = [{data_arg:?}] }}\n");
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let log = stderr_log(&dir.join("out"), "endpoints");
    let reported: Vec<&str> = log
        .lines()
        .filter_map(|l| l.strip_prefix("endpoint: "))
        .collect();
    let once = [
        "write socket refused",
        "write fifo refused",
        "tmp socket ok",
        "tmp fifo ok",
    ];
    assert_eq!(reported, [once, once].concat(), "{log}");
    // Nothing was left in the folder.
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_process_finds_nothing_an_earlier_one_left_in_its_network_namespace() {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test needs python3: apt-get install -y python3"
    );
    let dir = folder("sandbox-netleft");
    let m = marker("netleft");
    let bots = hostile("netleft", "netleft.sh", &m, &[]);
    // One game at a time: the second process starts once the first, and
    // the daemon it left holding a socket, are gone.
    let config = gauntlet(&bots).replace("concurrency = 2", "concurrency = 1");
    run_and_check(&dir, &m, &config, 1);
    let log = stderr_log(&dir.join("out"), "netleft");
    let reported: Vec<Vec<&str>> = log
        .lines()
        .filter_map(|l| l.strip_prefix("netleft: "))
        .map(|l| l.split(' ').collect())
        .collect();
    assert_eq!(reported.len(), 2, "{log}");
    for report in &reported {
        assert_eq!(report[1..], ["seen", "0", "bind", "ok"], "{log}");
    }
    // As root, a bot's namespace is made once and entered again by its
    // next process: the case where something could be left.
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        assert_eq!(reported[0][0], reported[1][0], "{log}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
