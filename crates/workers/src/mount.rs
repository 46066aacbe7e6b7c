//! Whether the run folder's filesystem makes locks exclude across
//! machines: read from `/proc/self/mountinfo` before a worker enrols.
//!
//! Claims are `flock`s, and they mean something only if every worker's
//! kernel asks the same lock manager. An NFS mount with `nolock`, or with
//! `local_lock=all` or `local_lock=flock`, keeps `flock` inside the client:
//! workers on two machines would each hold the same pair and play it
//! twice, silently. Those are refused, naming the option, unless the user
//! says every worker runs on this one machine ([`LOCAL_LOCKS_ENV`]). NFSv3
//! locks through its side protocol (NLM), and a v3 client's lock and a v4
//! client's do not exclude each other on Linux's server (seen: both got
//! it): a v3 mount works if every worker of the folder uses v3, and with
//! mixed versions a pair may be played twice but is recorded once (a
//! game's mark is a link, which the server decides in either version:
//! [`crate::RecordMarks`]), so it is warned about, naming `vers=3`, not
//! refused.

use std::path::{Path, PathBuf};

/// Set to `1` to run on a mount whose locks stay on this machine, when
/// every worker of the run folder runs here.
pub const LOCAL_LOCKS_ENV: &str = "ABOURE_LOCAL_LOCKS";

/// One line of `/proc/self/mountinfo`: what a check needs of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mount {
    /// Where it is mounted.
    pub point: PathBuf,
    /// The filesystem type (`nfs`, `nfs4`, `ext4`, ...).
    pub fstype: String,
    /// What is mounted (`server:/export`).
    pub source: String,
    /// The per-mount and the superblock options, in that order.
    pub options: Vec<String>,
}

/// What the mount of a run folder means for its claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Locking {
    /// Locks exclude across machines (or the filesystem is local).
    Shared,
    /// Locks exclude only among clients of the same protocol version:
    /// the mount and a message for the user.
    Warn(String),
    /// Locks stay on this machine: the option that says so.
    Local(String),
}

/// Parses one line of mountinfo (`ID PARENT MAJ:MIN ROOT POINT OPTIONS
/// [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS`); `None` if it is not one.
pub fn parse_line(line: &str) -> Option<Mount> {
    let (before, after) = line.split_once(" - ")?;
    let mut head = before.split(' ');
    let point = unescape(head.nth(4)?);
    let mount_options = head.next()?;
    let mut tail = after.split(' ');
    let fstype = tail.next()?.to_owned();
    let source = unescape(tail.next()?);
    let super_options = tail.next().unwrap_or("");
    let options = mount_options
        .split(',')
        .chain(super_options.split(','))
        .filter(|o| !o.is_empty())
        .map(str::to_owned)
        .collect();
    Some(Mount {
        point: PathBuf::from(point),
        fstype,
        source,
        options,
    })
}

/// Undoes mountinfo's octal escapes (`\040` for a space).
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes.get(i + 1..i + 4).and_then(|d| {
            let text = std::str::from_utf8(d).ok()?;
            u8::from_str_radix(text, 8).ok()
        });
        match (bytes[i], octal) {
            (b'\\', Some(b)) => {
                out.push(b);
                i += 4;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The mount that holds `path` (absolute, links resolved) among the lines
/// of `mountinfo`: the longest mount point above it, the last mounted of
/// equals (it hides the others).
pub fn mount_of(mountinfo: &str, path: &Path) -> Option<Mount> {
    let mut best: Option<Mount> = None;
    for mount in mountinfo.lines().filter_map(parse_line) {
        let longer = best
            .as_ref()
            .is_none_or(|b| mount.point.as_os_str().len() >= b.point.as_os_str().len());
        if path.starts_with(&mount.point) && longer {
            best = Some(mount);
        }
    }
    best
}

/// What `mount` means for claims.
pub fn locking(mount: &Mount) -> Locking {
    if !mount.fstype.starts_with("nfs") {
        return Locking::Shared;
    }
    let has = |o: &str| mount.options.iter().any(|x| x == o);
    if has("nolock") {
        return Locking::Local("nolock".into());
    }
    for option in ["local_lock=all", "local_lock=flock"] {
        if has(option) {
            return Locking::Local(option.into());
        }
    }
    let v3 = ["vers=3", "nfsvers=3"].iter().any(|o| has(o))
        || mount.fstype == "nfs" && !mount.options.iter().any(|o| o.starts_with("vers=4"));
    match v3 {
        true => Locking::Warn(format!(
            "{} is mounted with vers=3 ({}): its locks and an NFSv4 client's do not exclude each other, so workers on both versions may play a pair twice (it is recorded once: the game's mark decides); mount it with one version on every worker",
            mount.point.display(),
            mount.source
        )),
        false => Locking::Shared,
    }
}

/// What the mount of the run folder `dir` means for claims, read from
/// this process's mountinfo; `Shared` where it cannot be read (not Linux).
pub fn locking_of(dir: &Path) -> Locking {
    let (Ok(info), Ok(path)) = (
        std::fs::read_to_string("/proc/self/mountinfo"),
        std::fs::canonicalize(dir),
    ) else {
        return Locking::Shared;
    };
    mount_of(&info, &path).map_or(Locking::Shared, |m| locking(&m))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INFO: &str = "\
22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro
101 27 0:52 / /shared rw,relatime shared:80 - nfs4 srv:/export rw,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr=10.0.0.2,local_lock=none,addr=10.0.0.1
102 101 0:53 / /shared/old rw,relatime shared:81 - nfs srv:/old rw,vers=3,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,timeo=600,retrans=2,sec=sys,mountaddr=10.0.0.1,mountvers=3,mountport=20048,mountproto=udp,local_lock=none,addr=10.0.0.1
103 27 0:54 / /scratch\\040space rw,relatime - nfs srv:/scratch rw,vers=3,nolock,proto=tcp,local_lock=all,addr=10.0.0.1
104 27 0:55 / /home rw,relatime master:3 - nfs4 srv:/home rw,vers=4.1,hard,proto=tcp,local_lock=flock,addr=10.0.0.1
";

    #[test]
    fn a_mountinfo_line_parses_to_its_point_type_source_and_options() {
        let m = parse_line(INFO.lines().nth(2).unwrap()).unwrap();
        assert_eq!(m.point, Path::new("/shared"));
        assert_eq!(
            (m.fstype.as_str(), m.source.as_str()),
            ("nfs4", "srv:/export")
        );
        assert!(m.options.contains(&"relatime".to_owned()));
        assert!(m.options.contains(&"local_lock=none".to_owned()));
        let spaced = parse_line(INFO.lines().nth(4).unwrap()).unwrap();
        assert_eq!(spaced.point, Path::new("/scratch space"));
        assert_eq!(parse_line("garbage"), None);
    }

    #[test]
    fn the_deepest_mount_holds_a_path_and_says_whether_locks_are_shared() {
        let of = |p: &str| mount_of(INFO, Path::new(p)).map(|m| locking(&m));
        assert_eq!(of("/shared/runs/a"), Some(Locking::Shared));
        assert_eq!(of("/work/run"), Some(Locking::Shared), "ext4");
        assert!(matches!(of("/shared/old/run"), Some(Locking::Warn(w)) if w.contains("vers=3")));
        assert_eq!(
            of("/scratch space/r"),
            Some(Locking::Local("nolock".into()))
        );
        assert_eq!(
            of("/home/me/run"),
            Some(Locking::Local("local_lock=flock".into()))
        );
        assert_eq!(
            of("/sharedx"),
            Some(Locking::Shared),
            "a prefix of a name is not a parent"
        );
    }

    #[test]
    fn local_locks_are_said_by_name_and_this_machines_folders_read_fine() {
        let line = "9 1 0:9 / /n rw - nfs4 s:/e rw,vers=4.0,local_lock=all";
        let m = parse_line(line).unwrap();
        assert_eq!(locking(&m), Locking::Local("local_lock=all".into()));
        let here = tempfile::tempdir().unwrap();
        // Whatever the test machine mounts, its temp folder is not NFS
        // with local locks, and reading the real mountinfo works.
        assert!(!matches!(locking_of(here.path()), Locking::Local(_)));
    }
}
