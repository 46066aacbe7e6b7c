//! What a bot leaves on the host and reads of it, the attacks of an outside
//! round that got through: terminal escapes kept raw in its stderr log and
//! its protocol log, a stderr flood past the log's cap,
//! files and folders left writable by anyone in its write folder, and the
//! free space of the host filesystems, which another bot moves by writing.
//! Each through `aboure run` in the default mode, checked from outside.

use std::os::unix::fs::PermissionsExt;

use super::*;

#[test]
fn a_bots_stderr_log_holds_no_raw_terminal_escape() {
    let dir = folder("sandbox-termlog");
    let m = marker("termlog");
    let bots = hostile("termlog", "termlog.sh", &m, &[]);
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let bytes = std::fs::read(dir.join("out/logs/termlog.stderr.log")).unwrap();
    let log = String::from_utf8_lossy(&bytes);
    assert!(
        !bytes.iter().any(|&b| b == 0x1b || b == 0x07 || b == 0x9b),
        "{log}"
    );
    let written = "before\\u{1b}]52;c;b3duZWQ=\\u{7}\\u{1b}]0;title\\u{7}\\u{1b}[2J\\x9bKafter\n";
    assert_eq!(log.matches(written).count(), 2, "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stderr_flood_past_the_logs_cap_is_drained_to_its_end_and_counted() {
    // Past the cap, what a bot writes is drained unread and counted: one
    // note a process, at its stream's end.
    let dir = folder("sandbox-stderrcount");
    let m = marker("stderrcount");
    let bots = hostile("counted", "stderrcount.sh", &m, &[]);
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let log = std::fs::read_to_string(dir.join("out/logs/counted.stderr.log")).unwrap();
    let cap = 16 << 20;
    let note = format!("\n[aboure: stderr limit of {cap} bytes reached; the rest is discarded]\n");
    let (kept, notes) = log.split_once(&note).expect("the note at the cap");
    assert!(kept.len() <= cap && kept.bytes().all(|b| b == b'x' || b == b'\n'));
    let counts: Vec<usize> = (notes.lines())
        .map(|l| {
            let count = l.strip_prefix("[aboure: ").and_then(|l| l.split_once(' '));
            count.expect(l).0.parse().expect(l)
        })
        .collect();
    // Two processes (one a game), 24 MiB each: what the log kept and what
    // it counted as discarded make up every byte.
    assert_eq!(counts.len(), 2, "{notes}");
    assert_eq!(
        kept.len() + counts.iter().sum::<usize>(),
        2 * (24 << 20),
        "{notes}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bots_protocol_log_holds_no_raw_terminal_escape() {
    let dir = folder("sandbox-termproto");
    let m = marker("termproto");
    let bots = hostile("termproto", "termproto.sh", &m, &[]);
    let config = write_config(&dir, &gauntlet(&bots));
    let out = dir.join("out");
    let output = run(&config, &out, &["--log-protocol"]);
    assert!(output.status.success(), "{}", show(&output));
    print_layers(&out);
    assert_eq!(games(&out).len(), 2);
    let bytes = std::fs::read(out.join("logs/termproto.protocol.log")).unwrap();
    let log = String::from_utf8_lossy(&bytes);
    assert!(!holds_raw_escape(&bytes), "{log}");
    let written =
        "< before\\u{1b}]52;c;b3duZWQ=\\u{7}\\u{1b}]0;title\\u{7}\\u{1b}[2J\\u{9b}Kafter\n";
    assert_eq!(log.matches(written).count(), 2, "{log}");
    // Still one entry a line: time, process, direction, the line.
    for line in log.lines() {
        let mut words = line.splitn(4, ' ');
        let time = words.next().unwrap_or("");
        let pid = words.next().unwrap_or("");
        let arrow = words.next().unwrap_or("");
        assert!(time.parse::<f64>().is_ok(), "{line:?}");
        assert!(pid.starts_with('[') && pid.ends_with(']'), "{line:?}");
        assert!(arrow == "<" || arrow == ">", "{line:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_leaves_nothing_writable_by_others_in_its_write_folder() {
    let dir = folder("sandbox-umask");
    let m = marker("umask");
    let (cache, cache_arg) = write_folder(&dir);
    let bots =
        hostile("umask", "umask.sh", &m, &[&cache_arg]) + "sandbox = { write = [\"cache\"] }\n";
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let made: Vec<(String, u32)> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let mode = e.metadata().unwrap().permissions().mode() & 0o7777;
            (e.file_name().to_string_lossy().into_owned(), mode)
        })
        .collect();
    // Two processes, a file and a folder each.
    assert_eq!(made.len(), 4, "{made:?}");
    for (name, mode) in &made {
        assert_eq!(mode & 0o002, 0, "{name}: {mode:o}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_reads_no_free_space_of_a_host_filesystem() {
    let dir = folder("sandbox-freespace");
    let m = marker("freespace");
    let bots = hostile("freespace", "freespace.sh", &m, &[]);
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let log = stderr_log(&dir.join("out"), "freespace");
    assert_eq!(
        world::reported(&log, "free blocks: "),
        ["refused", "refused"],
        "{log}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_reads_no_free_space_through_a_filesystems_ioctls() {
    // The same channel as `statfs`, through the commands XFS, Btrfs and
    // (`FS_IOC_GETFSMAP`, for any user) ext4 answer. Without the filter
    // the filesystem answers, or says `ENOTTY` where it has no such
    // command: only the filter's `ENOSYS` passes.
    let dir = folder("sandbox-spaceioctls");
    let m = marker("spaceioctls");
    let bots = hostile("spaceioctls", "spaceioctls.sh", &m, &[]);
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let log = stderr_log(&dir.join("out"), "spaceioctls");
    for name in [
        "FS_IOC_GETFSMAP",
        "XFS_IOC_AG_GEOMETRY",
        "XFS_IOC_FSCOUNTS",
        "BTRFS_IOC_SPACE_INFO",
        "BTRFS_IOC_DEV_INFO",
    ] {
        let answers = world::reported(&log, &format!("ioctl {name}: "));
        assert_eq!(answers, ["ENOSYS", "ENOSYS"], "{name}: {log}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
