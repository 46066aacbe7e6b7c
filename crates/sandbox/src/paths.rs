//! Paths as the tournament file names them: made absolute lexically, and
//! the installation an interpreter's program belongs to. Used by the view
//! of the bot's world and by the rules for the bot's own files.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute and without `.` and `..` (taken lexically: the
/// paths come from the tournament file, as the command sees them).
pub fn normal(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut out = PathBuf::from("/");
    for c in absolute.components() {
        match c {
            Component::Normal(name) => out.push(name),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

/// The installation a program found in a `bin` folder belongs to (a
/// virtualenv, pyenv, nvm, a prefix such as `/opt/engine`): interpreters
/// read their libraries from there. A system folder is bound anyway. A
/// home, or a home's `.cargo` or `.local`, is no installation: it holds the
/// person's keys, `~/.cargo/credentials.toml`, `~/.local/share`; the
/// program's `bin` folder stands for it there (`~/bin`, `cargo install`'s
/// `~/.cargo/bin`, `~/.local/bin`).
pub fn installation(program: &Path) -> Option<PathBuf> {
    let dir = program.parent()?;
    let name = dir.file_name()?.to_str()?;
    let prefix = (["bin", "sbin", "shims"].contains(&name))
        .then(|| dir.parent())
        .flatten()
        .filter(|prefix| prefix.components().count() > 1)?;
    Some(match personal(prefix) {
        true => dir.to_owned(),
        false => prefix.to_owned(),
    })
}

/// Whether `prefix` is a home (of any account in `/etc/passwd`, `HOME`,
/// any folder of `/home`) or a home's `.cargo` or `.local`, as spelled or
/// after its links.
fn personal(prefix: &Path) -> bool {
    let homes = homes(true);
    let is_home = |p: &Path| p.parent() == Some(Path::new("/home")) || homes.iter().any(|h| h == p);
    let resolved = std::fs::canonicalize(prefix).ok();
    std::iter::once(prefix).chain(resolved.as_deref()).any(|p| {
        let kit = p
            .file_name()
            .is_some_and(|n| n == ".cargo" || n == ".local");
        is_home(p) || (kit && p.parent().is_some_and(is_home))
    })
}

/// Home directories: root's, the arbiter's `HOME`, and those of
/// `/etc/passwd`, as spelled and after their links: every account's when
/// `everyone`, else only people's (uid 1000 and up; system accounts' homes
/// such as `/var/www` are where services keep their files, not people).
pub fn homes(everyone: bool) -> Vec<PathBuf> {
    let mut homes = vec![PathBuf::from("/root")];
    homes.extend(std::env::var_os("HOME").map(|h| normal(Path::new(&h))));
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    for line in passwd.lines() {
        let fields: Vec<&str> = line.split(':').collect();
        let uid = fields.get(2).and_then(|u| u.parse::<u32>().ok());
        let person = uid.is_some_and(|uid| (1000..65534).contains(&uid));
        if let (true, Some(home)) = (everyone || person, fields.get(5)) {
            if home.starts_with('/') && *home != "/" {
                homes.push(normal(Path::new(home)));
            }
        }
    }
    let resolved: Vec<PathBuf> = (homes.iter())
        .filter_map(|h| std::fs::canonicalize(h).ok())
        .collect();
    homes.extend(resolved);
    homes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_home_or_its_cargo_or_local_is_no_installation_but_its_bin_folder_is() {
        let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
        let cases = [
            ("/opt/engine/bin/x", "/opt/engine".to_owned()),
            ("/root/.pyenv/shims/python3", "/root/.pyenv".to_owned()),
            ("/home/someone/bin/x", "/home/someone/bin".to_owned()),
            (
                "/home/someone/.local/bin/x",
                "/home/someone/.local/bin".to_owned(),
            ),
            ("/root/.cargo/bin/x", "/root/.cargo/bin".to_owned()),
            (&format!("{home}/bin/x"), format!("{home}/bin")),
            (
                &format!("{home}/.cargo/bin/x"),
                format!("{home}/.cargo/bin"),
            ),
        ];
        for (program, want) in cases {
            let got = installation(Path::new(program));
            assert_eq!(got, Some(PathBuf::from(&want)), "{program}");
        }
        assert_eq!(installation(Path::new("/bin/x")), None);
        assert_eq!(installation(Path::new("/opt/engine/x")), None);
    }
}
