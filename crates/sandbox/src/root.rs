//! The bot's constructed world, built by pid 1 of its namespaces before the
//! bot is started: a fresh tmpfs becomes its root, holding read-only bind
//! mounts of only what it needs (see [`crate::plan::Root`]), a private
//! size-limited `/tmp` (also its `HOME`), a `/dev` of five devices and a
//! `/proc` of its own pid namespace. No `/sys`, `/run`, host `/tmp`,
//! `/dev/shm` or host socket exists there, so nothing on the host can be
//! read, changed or connected to by path: Landlock and seccomp stay as
//! second layers.
//!
//! The order of the steps, and why (as bubblewrap does):
//! 1. every mount private (`MS_REC|MS_PRIVATE` on `/`), before any other
//!    mount, so nothing made here propagates back to the host;
//! 2. a small tmpfs over `/tmp` as the staging root and `pivot_root` into
//!    it, the host's root now at `/old` (host paths under `/tmp` are still
//!    reachable there: the tmpfs moved away from over them);
//! 3. the bot's root, another tmpfs at `/new`, filled from `/old` while this
//!    process still has the privileges to read every source (a bind source
//!    under `/root` is reachable by root, not by the bot's uid);
//! 4. each bind remounted with `MS_RDONLY|MS_NOSUID|MS_NODEV` at once (a
//!    bind mount ignores those flags until it is remounted), keeping the
//!    flags the kernel locks in a user namespace (`noexec`, atime);
//! 5. `/proc` mounted while the host's is still visible (the kernel
//!    requires a fully visible `/proc` to mount one in a user namespace);
//! 6. `pivot_root` into `/new` and the old roots detached: from here on the
//!    host's filesystem is unreachable, for this process and its children;
//! 7. the root itself remounted read-only.
//!
//! The identity change, `no_new_privs`, Landlock and seccomp follow in the
//! bot's own process ([`crate::confine`]).

use std::os::unix::fs::{symlink, DirBuilderExt};
use std::path::{Component, Path, PathBuf};

use nix::mount::{mount, umount2, MntFlags, MsFlags};

use crate::plan::{EntryKind, Identity, Root};
use crate::setup::SetupError;

/// The devices a bot gets, bound from the host's `/dev`.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

/// Files and folders a game's bot's `/tmp` may hold. Its teardown, as
/// the bot's mount namespace goes with the helper, is the kernel's work in
/// the helper's last moments, charged to no group of the bot's: a bot that
/// filled it with 65,536 empty files (the bound before) cost 0.33 s of CPU
/// at each exit, beside other games (an outside attack). A playing
/// program keeps a few files there.
const SCRATCH_FILES: u32 = 16_384;

/// The same for a build, which runs once, before any game, and whose
/// tools may keep their caches in `HOME` (a package manager's unpacked
/// downloads).
const BUILD_SCRATCH_FILES: u32 = 65_536;

/// Builds the root described by `root` and enters it. `owner` owns the
/// scratch tmpfs (the bot's identity, or the helper's own uid and gid),
/// sized for a `build` or a game.
pub fn enter(root: &Root, owner: Identity, build: bool) -> Result<(), SetupError> {
    let none = None::<&str>;
    // 1.
    mount(none, "/", none, MsFlags::MS_REC | MsFlags::MS_PRIVATE, none)
        .map_err(|e| SetupError::call("cannot make the mounts private", e))?;
    // 2.
    tmpfs("/tmp", "size=64k,nr_inodes=16,mode=0755", MsFlags::empty())?;
    for dir in ["/tmp/old", "/tmp/new"] {
        mkdir(Path::new(dir), 0o755)?;
    }
    pivot(Path::new("/tmp"), Path::new("old"))?;
    // 3.
    let new = Path::new("/new");
    tmpfs(
        "/new",
        "size=4m,nr_inodes=4096,mode=0755",
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
    )?;
    let files = if build {
        BUILD_SCRATCH_FILES
    } else {
        SCRATCH_FILES
    };
    let scratch = format!(
        "size={},nr_inodes={files},mode=0700,uid={},gid={}",
        root.scratch, owner.uid, owner.gid
    );
    mkdir(&new.join("tmp"), 0o755)?;
    tmpfs("/new/tmp", &scratch, MsFlags::MS_NOSUID | MsFlags::MS_NODEV)?;
    devices(new)?;
    for entry in &root.entries {
        let target = inside(new, &entry.path);
        let source = inside(
            Path::new("/old"),
            entry.source.as_ref().unwrap_or(&entry.path),
        );
        match &entry.kind {
            EntryKind::Folder => make_parents(&target).and_then(|()| mkdir(&target, 0o755))?,
            EntryKind::Symlink(to) => {
                make_parents(&target)?;
                symlink(to, &target).map_err(|e| at("cannot make", &entry.path, e))?;
            }
            EntryKind::Copy => {
                make_parents(&target)?;
                std::fs::copy(&source, &target).map_err(|e| at("cannot copy", &entry.path, e))?;
            }
            EntryKind::ReadOnly => bind(&source, &target, &entry.path, true)?,
            EntryKind::ReadWrite => bind(&source, &target, &entry.path, false)?,
            EntryKind::Mask => mask(&target, &entry.path)?,
            EntryKind::Sealed => seal(&target, &entry.path)?,
        }
    }
    // 5.
    mkdir(&new.join("proc"), 0o555)?;
    mount(
        Some("proc"),
        "/new/proc",
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        none,
    )
    .map_err(|e| SetupError::call("cannot mount /proc", e))?;
    // 6.
    pivot(new, Path::new("."))?;
    // 7.
    mount(
        none,
        "/",
        none,
        MsFlags::MS_REMOUNT
            | MsFlags::MS_BIND
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV,
        none,
    )
    .map_err(|e| SetupError::call("cannot make the root read-only", e))
}

/// `pivot_root(new, new/old)` and the old root detached. With `old` = `.`
/// the old root is stacked under the new one and detached at once (as
/// bubblewrap does), which needs no folder for it.
fn pivot(new: &Path, old: &Path) -> Result<(), SetupError> {
    std::env::set_current_dir(new).map_err(|e| at("cannot enter", new, e))?;
    nix::unistd::pivot_root(".", old).map_err(|e| at("pivot_root into", new, e))?;
    if old == Path::new(".") {
        umount2(".", MntFlags::MNT_DETACH)
            .map_err(|e| SetupError::call("cannot detach the old root", e))?;
    }
    std::env::set_current_dir("/").map_err(|e| at("cannot enter", Path::new("/"), e))
}

fn tmpfs(at_path: &str, options: &str, flags: MsFlags) -> Result<(), SetupError> {
    mount(Some("tmpfs"), at_path, Some("tmpfs"), flags, Some(options))
        .map_err(|e| SetupError::at("cannot mount a tmpfs at", Path::new(at_path), e))
}

/// `/dev`: the five harmless devices, and the links to `/proc/self/fd`
/// that shells and runtimes expect.
fn devices(new: &Path) -> Result<(), SetupError> {
    let dev = new.join("dev");
    mkdir(&dev, 0o755)?;
    let none = None::<&str>;
    for name in DEVICES {
        // Not remounted: a mount of one device file holds nothing else,
        // so `nosuid` and `noexec` change nothing and `nodev` would break it.
        let target = dev.join(name);
        std::fs::File::create(&target).map_err(|e| at("cannot make", &target, e))?;
        mount(
            Some(&Path::new("/old/dev").join(name)),
            &target,
            none,
            MsFlags::MS_BIND,
            none,
        )
        .map_err(|e| at("cannot bind", &Path::new("/dev").join(name), e))?;
    }
    for (name, to) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        symlink(to, dev.join(name)).map_err(|e| at("cannot make", &dev.join(name), e))?;
    }
    Ok(())
}

/// Binds `source` at `target` (`host` names it in errors) and remounts it
/// without set-user-id programs and devices, read-only unless `!read_only`.
/// The mount point is made without following a link (`O_EXCL` and
/// `O_NOFOLLOW`) and mounted on by descriptor, opened with no link on its
/// way: a link planted in a folder the bot can write is never followed by
/// this privileged process.
fn bind(source: &Path, target: &Path, host: &Path, read_only: bool) -> Result<(), SetupError> {
    let meta = std::fs::metadata(source).map_err(|e| at("cannot read", host, e))?;
    make_parents(target)?;
    if meta.is_dir() {
        mkdir(target, 0o755)?;
    } else {
        mount_point_file(target)?;
    }
    let place = no_links(target)?;
    let none = None::<&str>;
    // Non-recursive, so a mount below the source is not exposed; in a user
    // namespace the kernel refuses that for a tree with mounts below it
    // (they are locked), and then they come along.
    let bound = mount(Some(source), &place.path, none, MsFlags::MS_BIND, none).or_else(|_| {
        mount(
            Some(source),
            &place.path,
            none,
            MsFlags::MS_BIND | MsFlags::MS_REC,
            none,
        )
    });
    bound.map_err(|e| at("cannot bind", host, e))?;
    // The descriptor names the place under the new mount: opened again,
    // the path crosses into it.
    let mounted = no_links(target)?;
    let mut flags = MsFlags::MS_REMOUNT
        | MsFlags::MS_BIND
        | MsFlags::MS_NOSUID
        | MsFlags::MS_NODEV
        | locked(&mounted.path);
    if read_only {
        flags |= MsFlags::MS_RDONLY;
    }
    mount(none, &mounted.path, none, flags, none).map_err(|e| at("cannot remount", host, e))
}

/// `target` opened as a place (`O_PATH`) with no symbolic link anywhere on
/// its way, and the path of the descriptor, which names that very place
/// whatever is renamed or replaced after.
struct Place {
    _fd: std::os::fd::OwnedFd,
    path: PathBuf,
}

fn no_links(target: &Path) -> Result<Place, SetupError> {
    use nix::fcntl::{openat2, OFlag, OpenHow, ResolveFlag};
    use std::os::fd::AsRawFd;
    let how = OpenHow::new()
        .flags(OFlag::O_PATH | OFlag::O_CLOEXEC | OFlag::O_NOFOLLOW)
        .resolve(ResolveFlag::RESOLVE_NO_SYMLINKS | ResolveFlag::RESOLVE_NO_MAGICLINKS);
    let fd = openat2(nix::fcntl::AT_FDCWD, target, how)
        .map_err(|e| at("a link on the way to (or cannot open)", target, e))?;
    // The host's /proc, still reachable below the old root.
    let path = PathBuf::from(format!("/old/proc/self/fd/{}", fd.as_raw_fd()));
    Ok(Place { _fd: fd, path })
}

/// An empty file to mount on at `target`, or the one already there; never
/// through a link (`O_NOFOLLOW` refuses one as the last component).
fn mount_point_file(target: &Path) -> Result<(), SetupError> {
    use std::os::unix::fs::OpenOptionsExt;
    let made = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW)
        .open(target);
    match made {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            match std::fs::symlink_metadata(target) {
                Ok(m) if m.is_file() => Ok(()),
                _ => Err(at(
                    "cannot make",
                    target,
                    std::io::Error::other("not a plain file"),
                )),
            }
        }
        Err(e) => Err(at("cannot make", target, e)),
    }
}

/// Hides what a bind brought at `target` (`host` names it in errors) under
/// an empty read-only tmpfs, or an empty file for a file. A link is not
/// masked: it is the bot's own (made in a folder it writes), and what it
/// replaced is gone.
fn mask(target: &Path, host: &Path) -> Result<(), SetupError> {
    let meta = std::fs::symlink_metadata(target).map_err(|e| at("cannot read", host, e))?;
    if meta.file_type().is_symlink() {
        return Ok(());
    }
    let place = no_links(target)?;
    let none = None::<&str>;
    let flags = MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
    let masked = match meta.is_dir() {
        true => mount(
            Some("tmpfs"),
            &place.path,
            Some("tmpfs"),
            flags,
            Some("size=4k,nr_inodes=1,mode=0555"),
        ),
        false => {
            // An empty file of the staging root, bound read-only.
            let empty = Path::new("/empty");
            mount_point_file(empty)?;
            let remount = MsFlags::MS_REMOUNT | MsFlags::MS_BIND | flags;
            mount(Some(empty), &place.path, none, MsFlags::MS_BIND, none)
                .map_err(|e| at("cannot hide", host, e))?;
            let mounted = no_links(target)?;
            mount(none, &mounted.path, none, remount, none)
        }
    };
    masked.map_err(|e| at("cannot hide", host, e))
}

/// Makes what a writable bind brought at `target` (`host` names it in
/// errors) read-only where it lies: bound onto itself, reached with no
/// link on its way, and remounted read-only (see `sealed`). A link, or
/// nothing, is left as it is: the bot's own, leading only inside its
/// world.
fn seal(target: &Path, host: &Path) -> Result<(), SetupError> {
    match std::fs::symlink_metadata(target) {
        Ok(meta) if meta.is_dir() || meta.is_file() => {}
        _ => return Ok(()),
    }
    let place = no_links(target)?;
    bind(&place.path, target, host, true)
}

/// The flags of the mount at `path` that a remount must keep (the kernel
/// locks them when the mount came from a more privileged namespace).
fn locked(path: &Path) -> MsFlags {
    use nix::sys::statvfs::{statvfs, FsFlags};
    let Ok(stat) = statvfs(path) else {
        return MsFlags::empty();
    };
    let f = stat.flags();
    let mut flags = MsFlags::empty();
    for (has, keep) in [
        (FsFlags::ST_RDONLY, MsFlags::MS_RDONLY),
        (FsFlags::ST_NOSUID, MsFlags::MS_NOSUID),
        (FsFlags::ST_NODEV, MsFlags::MS_NODEV),
        (FsFlags::ST_NOEXEC, MsFlags::MS_NOEXEC),
        (FsFlags::ST_NOATIME, MsFlags::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, MsFlags::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, MsFlags::MS_RELATIME),
    ] {
        if f.contains(has) {
            flags |= keep;
        }
    }
    flags
}

/// `path` (absolute, on the host, normalised by the arbiter) below `base`.
fn inside(base: &Path, path: &Path) -> PathBuf {
    let mut out = base.to_owned();
    out.extend(path.components().filter_map(|c| match c {
        Component::Normal(name) => Some(name),
        _ => None,
    }));
    out
}

fn make_parents(target: &Path) -> Result<(), SetupError> {
    let Some(parent) = target.parent() else {
        return Ok(());
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o755)
        .create(parent)
        .map_err(|e| at("cannot make", parent, e))
}

fn mkdir(path: &Path, mode: u32) -> Result<(), SetupError> {
    match std::fs::DirBuilder::new().mode(mode).create(path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(at("cannot make", path, e)),
        _ => Ok(()),
    }
}

fn at(what: &'static str, path: &Path, e: impl Into<std::io::Error>) -> SetupError {
    SetupError::at(what, path, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_paths_land_below_the_staging_folder() {
        assert_eq!(
            inside(Path::new("/new"), Path::new("/usr/lib")),
            Path::new("/new/usr/lib")
        );
        assert_eq!(
            inside(Path::new("/old"), Path::new("/a/./b")),
            Path::new("/old/a/b")
        );
    }
}
