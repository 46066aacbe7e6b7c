//! System calls the seccomp layer refuses beyond its first lists, each
//! checked from outside after a hostile bot's games: calls of later
//! kernels that tag a bot's own files (`setxattrat`, `file_setattr`), and
//! numbers the layer was not written against; `fallocate` and its forms
//! as `ioctl`, which claim disk without writing it; a pipe made larger than
//! the kernel's 64 KiB, which held lines for the arbiter to read.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;

use super::*;

/// The names of the extended attributes of `file`, read on the host.
fn xattr_names(file: &Path) -> Vec<u8> {
    let path = CString::new(file.as_os_str().as_bytes()).unwrap();
    let mut names = vec![0u8; 4096];
    // SAFETY: a NUL-terminated path and a buffer of the length given.
    let n = unsafe { libc::listxattr(path.as_ptr(), names.as_mut_ptr().cast(), names.len()) };
    assert!(n >= 0, "listxattr {}", file.display());
    names.truncate(n as usize);
    names
}

/// The inode flags of `file` (`lsattr`), read on the host.
fn inode_flags(file: &Path) -> String {
    let output = Command::new("lsattr").arg(file).output().unwrap();
    assert!(output.status.success(), "{}", show(&output));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn calls_newer_than_the_filter_tag_nothing_and_unknown_numbers_are_refused() {
    // Attack a03 of the outside review: `setxattrat` (463) and
    // `file_setattr` (469), which the filter did not know, set a `user.`
    // attribute, an ACL and inode flags on the bot's own files.
    let dir = folder("sandbox-calls");
    let m = marker("calls");
    let (cache, cache_arg) = write_folder(&dir);
    let bots =
        hostile("tagger", "attrs.sh", &m, &[&cache_arg]) + "sandbox = { write = [\"cache\"] }\n";
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let log = stderr_log(&dir.join("out"), "tagger");
    println!("{log}");
    for name in ["xattr", "setattr", "ioctl"] {
        let file = cache.join(name);
        assert!(file.exists(), "{name} was made: {log}");
        let names = xattr_names(&file);
        assert!(
            names.is_empty(),
            "{name}: {}",
            String::from_utf8_lossy(&names)
        );
        let flags = inode_flags(&file);
        assert!(!flags.contains('d'), "{name}: {flags}");
    }
    for refused in [
        "setxattrat: refused (EPERM)",
        "file_setattr: refused (EPERM)",
        "ioctl setflags: refused (EPERM)",
        // No kernel has these numbers (x86_64 has no 400), so they fail
        // without the filter too: what this checks is that the filter's
        // answer is the kernel's, not a kill or `EPERM`.
        "call 1000: refused (ENOSYS)",
        "call 400: refused (ENOSYS)",
    ] {
        assert!(log.contains(refused), "{refused}: {log}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The bytes `folder` takes on the host's disk (`du`).
fn disk_used(folder: &Path) -> u64 {
    let output = Command::new("du")
        .args(["-s", "--block-size=1"])
        .arg(folder)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", show(&output));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn fallocate_claims_no_disk_beyond_write_size() {
    // Attack a13 of the outside review: `fallocate(FALLOC_FL_KEEP_SIZE)`
    // took 10 GiB of disk in one call under a 20 MiB `write-size`, the
    // file's size left at 0; stopped afterwards, the space stayed taken.
    let dir = folder("sandbox-fallocate");
    let m = marker("fallocate");
    let (cache, cache_arg) = write_folder(&dir);
    let bots = hostile("claimer", "fallocate.sh", &m, &[&cache_arg])
        + "sandbox = { write = [\"cache\"] }\n";
    let text = gauntlet(&bots).replace(
        "[openings]",
        "[sandbox]\nwrite-size = \"20MiB\"\n[openings]",
    );
    // Both games played to their end, as the checks of every sandbox test.
    run_and_check(&dir, &m, &text, 1);
    let log = stderr_log(&dir.join("out"), "claimer");
    println!("{log}");
    let used = disk_used(&cache);
    println!("the write folder takes {used} bytes on disk");
    assert!(used < 20 << 20, "{used} bytes: {log}");
    // (`EOPNOTSUPP`, which Python names by its other name.)
    assert!(
        log.contains("fallocate keep-size: refused (ENOTSUP)"),
        "{log}"
    );
    // Its forms as `ioctl`, found by the second outside round (b02: 3 GiB
    // claimed in one move): refused as any other inode-changing command.
    for name in ["resvsp64", "zero-range"] {
        assert!(
            log.contains(&format!("ioctl {name}: refused (EPERM)")),
            "{log}"
        );
    }
    // The C library's fallback asks `fstatfs` for the block size first,
    // refused too (free space is a channel between bots): it fails as
    // without the call, and claims nothing.
    assert!(log.contains("posix_fallocate: refused (ENOSYS)"), "{log}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_cannot_make_its_stdout_pipe_larger_than_the_kernels_64_kib() {
    // Attack f02 of the thirteenth outside round: a bot that made its
    // stdout 1 MiB left a mebibyte of empty lines at each `bestmove`,
    // which the arbiter read and parsed while the bot was held.
    let dir = folder("sandbox-pipesize");
    let m = marker("pipesize");
    let bots = hostile("widener", "pipesize.sh", &m, &[]);
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let log = stderr_log(&dir.join("out"), "widener");
    println!("{log}");
    let answers = [("set", "refused (EPERM)"), ("size", "65536")];
    super::world::said_twice(&log, "pipesize", &answers);
    std::fs::remove_dir_all(&dir).unwrap();
}
