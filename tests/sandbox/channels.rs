//! Kernel state that bots share through files they may only read: locks
//! and the page cache. A lock a bot takes must neither block another bot
//! nor be seen by one, and a bot must neither evict a shared file's pages
//! nor learn which are in memory without reading them. Each is checked
//! from outside: the test holds the locks a bot tries to take, and reads
//! which pages of the shared file stay in memory. Nor may a bot hand the
//! kernel's own threads work (the write-back of everyone's dirty pages,
//! the teardown of SysV memory and queues it leaves).

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;

use super::world::{reported, said_twice};
use super::*;

/// A folder `dir/shared` any bot may read, holding `name` with `bytes`;
/// returns the file's path and the bot's `sandbox` line that reads it.
fn shared_file(dir: &Path, name: &str, bytes: &[u8]) -> (PathBuf, String) {
    let shared = dir.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = shared.join(name);
    let mut f = File::create(&file).unwrap();
    f.write_all(bytes).unwrap();
    f.sync_all().unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let read = format!(
        "sandbox = {{ read = [{:?}] }}\n",
        shared.display().to_string()
    );
    (file, read)
}

/// Takes an fcntl write lock on all of `file` (open for writing).
fn fcntl_write_lock(file: &File) {
    // SAFETY: a zeroed `flock` is a valid value; the fields are set below.
    let mut lock: libc::flock = unsafe { std::mem::zeroed() };
    lock.l_type = libc::F_WRLCK as i16;
    lock.l_whence = libc::SEEK_SET as i16;
    // SAFETY: an open descriptor and a valid `flock`.
    let done = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLK, &lock) };
    assert_eq!(done, 0, "{}", std::io::Error::last_os_error());
}

#[test]
fn a_lock_on_a_shared_file_neither_blocks_a_bot_nor_excludes_anyone() {
    // Attacks b92 and b09 of the ninth outside review: `flock(LOCK_EX)`
    // works on a read-only descriptor, so a bot holding it on a shared
    // book made the other bot, which took `LOCK_SH` at each move, lose on
    // time; and locks on shared `/usr` files carried 128 bits a look.
    let dir = folder("sandbox-locks");
    let m = marker("locks");
    let (book, read) = shared_file(&dir, "book", b"e2e4 e7e5\n");
    // Held from outside for the whole run: every lock a bot asks for
    // without waiting would be refused, if it were taken.
    let held = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&book)
        .unwrap();
    // SAFETY: an open descriptor.
    let locked = unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(locked, 0, "{}", std::io::Error::last_os_error());
    fcntl_write_lock(&held);
    let path = book.display().to_string();
    let bots = hostile("locker", "locks.sh", &m, &[&path]) + &read;
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    drop(held);
    let log = stderr_log(&dir.join("out"), "locker");
    println!("{log}");
    for lock in [
        "flock shared",
        "flock exclusive",
        "fcntl read lock",
        "flock beside its own exclusive",
    ] {
        let got = reported(&log, &format!("locks: {lock}: "));
        assert_eq!(got, ["got", "got"], "{lock}: {log}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// How many of the pages of `file` are in memory, of how many: asked
/// with `mincore` by the file's owner (the kernel answers truly for a
/// file its caller could write).
fn resident_pages(file: &Path) -> (usize, usize) {
    let f = File::open(file).unwrap();
    let size = f.metadata().unwrap().len() as usize;
    let page = 4096;
    let pages = size.div_ceil(page);
    // SAFETY: a read-only private mapping of an open file, unmapped below.
    let at = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ,
            libc::MAP_PRIVATE,
            f.as_raw_fd(),
            0,
        )
    };
    assert_ne!(at, libc::MAP_FAILED, "{}", std::io::Error::last_os_error());
    let mut flags = vec![0u8; pages];
    // SAFETY: `at` maps `size` bytes; `flags` has a byte a page.
    let done = unsafe { libc::mincore(at, size, flags.as_mut_ptr()) };
    assert_eq!(done, 0, "{}", std::io::Error::last_os_error());
    // SAFETY: the mapping made above.
    unsafe { libc::munmap(at, size) };
    (flags.iter().filter(|&&f| f & 1 == 1).count(), pages)
}

/// Reads `file` whole, so that every page of it is in memory; how many
/// pages it has.
fn read_in(file: &Path) -> usize {
    let mut back = Vec::new();
    File::open(file).unwrap().read_to_end(&mut back).unwrap();
    let (resident, pages) = resident_pages(file);
    assert_eq!(resident, pages, "{} is in memory", file.display());
    pages
}

#[test]
fn a_bot_evicts_no_page_of_a_shared_file_and_cannot_ask_which_are_in_memory() {
    // Attack b16 of the ninth outside review: a sender evicted a shared
    // `/usr` file's pages (`posix_fadvise(POSIX_FADV_DONTNEED)`) and read
    // chosen ones back; a receiver elsewhere tested each page with
    // `preadv2(RWF_NOWAIT)`: 128 bits a look.
    let dir = folder("sandbox-pagecache");
    let bytes: Vec<u8> = (0..4u32 << 20).map(|i| (i % 251) as u8).collect();
    let (file, read) = shared_file(&dir, "pages", &bytes);
    // A file of the same size the bot never sees: the machine may drop
    // pages of both during a run (seen on a busy machine, half of them),
    // the bot only of its own. A run where the machine dropped some is
    // played again, up to three times.
    let control = dir.join("control");
    std::fs::write(&control, &bytes).unwrap();
    let mut log = String::new();
    for attempt in 1..=3 {
        let _ = std::fs::remove_dir_all(dir.join("out"));
        let (pages, control_pages) = (read_in(&file), read_in(&control));
        let m = marker("pagecache");
        let path = file.display().to_string();
        let bots = hostile("evicter", "pagecache.sh", &m, &[&path]) + &read;
        run_and_check(&dir, &m, &gauntlet(&bots), 1);
        log = stderr_log(&dir.join("out"), "evicter");
        println!("{log}");
        let (after, control_after) = (resident_pages(&file).0, resident_pages(&control).0);
        println!("{after} of {pages} pages in memory after the run, control {control_after}");
        if control_after == control_pages {
            assert_eq!(after, pages, "{log}");
            break;
        }
        assert!(attempt < 3, "the machine dropped pages in every run");
    }
    said_twice(
        &log,
        "pagecache",
        &[
            ("fadvise dontneed", "done"),
            ("madvise pageout", "done"),
            // (`EOPNOTSUPP`, which Python names by its other name.)
            ("nowait read", "refused (ENOTSUP)"),
            ("cachestat", "refused (ENOSYS)"),
            ("io_setup", "refused (ENOSYS)"),
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Pages of `file` in memory and dirty ones among them, as `cachestat`
/// (Linux 6.5) counts them.
fn dirty_pages(file: &Path) -> (u64, u64) {
    #[repr(C)]
    struct Range {
        off: u64,
        len: u64,
    }
    let f = File::open(file).unwrap();
    let range = Range { off: 0, len: 0 };
    let mut stat = [0u64; 5];
    // SAFETY: an open descriptor, a valid range (0 length: to the end)
    // and room for the kernel's five counters.
    let done = unsafe { libc::syscall(451, f.as_raw_fd(), &range, stat.as_mut_ptr(), 0) };
    assert_eq!(done, 0, "cachestat: {}", std::io::Error::last_os_error());
    (stat[0], stat[1])
}

#[test]
fn a_bots_sync_writes_back_nothing_for_the_kernels_threads_to_do() {
    // Attack f04 of the thirteenth outside round: a thread kept in
    // `sync()` made the kernel's flusher threads write a 900 MiB mapping
    // back at every move, CPU that no group of the bot's pays for.
    let dir = folder("sandbox-flushes");
    let (cache, arg) = write_folder(&dir);
    // Dirty pages of the test's own on the same filesystem, which only a
    // write-back of everyone's (or the machine's own) writes: a run in
    // which they went is played again, up to three times.
    let control = dir.join("control");
    let mut log = String::new();
    for attempt in 1..=3 {
        let _ = std::fs::remove_dir_all(dir.join("out"));
        std::fs::write(&control, vec![0xa5u8; 32 << 20]).unwrap();
        let m = marker("flusher");
        let bots =
            hostile("flusher", "flusher.sh", &m, &[&arg]) + "sandbox = { write = [\"cache\"] }\n";
        run_and_check(&dir, &m, &gauntlet(&bots), 1);
        log = stderr_log(&dir.join("out"), "flusher");
        println!("{log}");
        let (cached, dirty) = dirty_pages(&cache.join("dirty"));
        let (_, control_dirty) = dirty_pages(&control);
        println!("{dirty} of {cached} pages dirty after the run, control {control_dirty}");
        if control_dirty > 0 {
            assert!(dirty > 0, "the bot's sync wrote its file back: {log}");
            break;
        }
        assert!(
            attempt < 3,
            "the test's own dirty pages were written back in every run: the bot's sync, \
             or the machine's: {log}"
        );
    }
    said_twice(&log, "flusher", &[("sync", "returned"), ("syncfs", "0")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bots_sysv_ipc_goes_in_its_own_time_and_queues_are_few() {
    // Attacks f11 and f12 of the thirteenth outside round: 32 shared
    // memory segments of 64 MiB, and 8,000 message queues, left for the
    // kernel's thread to free when the bot's IPC namespace went (as root;
    // unprivileged, the namespace has no root to set its limits).
    let dir = folder("sandbox-sysvipc");
    let m = marker("sysvipc");
    let bots = hostile("ipc", "sysvipc.sh", &m, &[]);
    run_and_check(&dir, &m, &gauntlet(&bots), 1);
    let log = stderr_log(&dir.join("out"), "ipc");
    println!("{log}");
    said_twice(
        &log,
        "sysvipc",
        &[
            ("shm_rmid_forced", "1"),
            ("msgmni", "16"),
            ("sem", "250 32000 32 128"),
            ("detached segment", "gone"),
            ("queues made", "16"),
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
