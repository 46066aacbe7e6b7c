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

/// The installation a program found in a `bin` folder belongs to: for an
/// interpreter (a virtualenv, pyenv's shims, nvm, a prefix such as
/// `/opt/python`), the prefix, where it reads its libraries from; for any
/// other program, that `bin` folder alone. A `bin` folder is any folder of
/// that name, one a bot's author submitted too (`bots/bin/engine` beside
/// the tournament file): taking the folder above it as an installation
/// would bind that whole folder, everything the operator keeps there. A
/// system folder is bound anyway. A home, or a home's `.cargo` or
/// `.local`, is never an installation: it holds the person's keys,
/// `~/.cargo/credentials.toml`, `~/.local/share`; the program's `bin`
/// folder stands for it there (`~/bin`, `cargo install`'s `~/.cargo/bin`,
/// `~/.local/bin`), interpreter or not.
pub fn installation(program: &Path) -> Option<PathBuf> {
    let dir = program.parent()?;
    let name = dir.file_name()?.to_str()?;
    let prefix = (["bin", "sbin", "shims"].contains(&name))
        .then(|| dir.parent())
        .flatten()
        .filter(|prefix| prefix.components().count() > 1)?;
    let layout = name == "shims" || interpreter(program) || prefix.join("pyvenv.cfg").is_file();
    Some(match layout && !personal(prefix) {
        true => prefix.to_owned(),
        false => dir.to_owned(),
    })
}

/// Interpreters and runtimes that read their libraries from their
/// installation's prefix (`lib/python3.12`, `lib/node_modules`), by the
/// program's name as spelled or resolved, versions aside (`python3.12`).
const INTERPRETERS: &[&str] = &[
    "python", "pypy", "node", "nodejs", "deno", "bun", "java", "ruby", "perl", "php", "lua",
    "luajit", "julia", "Rscript", "R", "erl", "escript", "elixir", "dotnet", "mono", "racket",
    "guile", "sbcl", "runghc", "ocaml", "swipl", "tclsh", "scala", "kotlin", "groovy",
];

/// Whether `program` is an interpreter of [`INTERPRETERS`].
fn interpreter(program: &Path) -> bool {
    let resolved = std::fs::canonicalize(program).ok();
    std::iter::once(program)
        .chain(resolved.as_deref())
        .filter_map(|p| p.file_name()?.to_str())
        .map(|n| n.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-'))
        .any(|n| INTERPRETERS.contains(&n))
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
    fn an_interpreters_prefix_is_its_installation_another_programs_bin_folder_alone() {
        let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
        let cases = [
            ("/opt/engine/bin/python3.12", "/opt/engine".to_owned()),
            ("/opt/engine/bin/node", "/opt/engine".to_owned()),
            ("/opt/engine/bin/x", "/opt/engine/bin".to_owned()),
            ("/srv/t/bots/bin/engine", "/srv/t/bots/bin".to_owned()),
            ("/root/.pyenv/shims/python3", "/root/.pyenv".to_owned()),
            ("/root/.pyenv/shims/x", "/root/.pyenv".to_owned()),
            ("/home/someone/bin/x", "/home/someone/bin".to_owned()),
            (
                "/home/someone/.local/bin/x",
                "/home/someone/.local/bin".to_owned(),
            ),
            ("/root/.cargo/bin/x", "/root/.cargo/bin".to_owned()),
            ("/home/someone/bin/python3", "/home/someone/bin".to_owned()),
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
