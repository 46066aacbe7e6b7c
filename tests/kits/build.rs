//! The six starter kits of `bots/`, each built with its own toolchain into a
//! fresh temporary folder (so tests run in parallel and from a clean clone),
//! and the command that runs the result.

use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// One starter kit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kit {
    Python,
    Js,
    Cpp,
    Java,
    Go,
    Rust,
}

/// The JVM flags of `bots/java/README.md`, measured to start under a
/// 512 MiB address-space limit as well as under a memory cgroup.
pub const JVM_FLAGS: [&str; 6] = [
    "-Xmx64m",
    "-Xss512k",
    "-XX:+UseSerialGC",
    "-XX:ReservedCodeCacheSize=16m",
    "-XX:CompressedClassSpaceSize=32m",
    "-XX:-UsePerfData",
];

impl Kit {
    pub const ALL: [Kit; 6] = [
        Kit::Python,
        Kit::Js,
        Kit::Cpp,
        Kit::Java,
        Kit::Go,
        Kit::Rust,
    ];

    /// Its folder under `bots/`, also its name in tournaments.
    pub fn name(self) -> &'static str {
        match self {
            Kit::Python => "python",
            Kit::Js => "js",
            Kit::Cpp => "cpp",
            Kit::Java => "java",
            Kit::Go => "go",
            Kit::Rust => "rust",
        }
    }

    fn source(self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("bots")
            .join(self.name())
    }

    /// The programs its build and run need, and the Debian package of each
    /// (what `tests/run.sh` installs).
    fn toolchain(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Kit::Python => &[("python3", "python3")],
            Kit::Js => &[("node", "nodejs")],
            Kit::Cpp => &[("make", "make"), ("g++", "g++")],
            Kit::Java => &[
                ("make", "make"),
                ("javac", "default-jdk"),
                ("jar", "default-jdk"),
                ("java", "default-jdk"),
            ],
            Kit::Go => &[("go", "golang-go")],
            Kit::Rust => &[("cargo", "cargo")],
        }
    }
}

/// A kit built into its own temporary folder (removed when this is dropped).
pub struct Built {
    pub kit: Kit,
    /// The bot's command: program and arguments, absolute paths.
    pub command: Vec<String>,
    _folder: TempDir,
}

/// Builds `kit` the way its README says; panics with the build's output, or
/// with the package to install when a tool is missing.
pub fn build(kit: Kit) -> Built {
    for (program, package) in kit.toolchain() {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(
            found,
            "the {} kit needs `{program}` (Debian package {package}); tests/run.sh installs it",
            kit.name()
        );
    }
    let folder = tempfile::Builder::new()
        .prefix(&format!("aboure-kit-{}-", kit.name()))
        .tempdir()
        .expect("a temporary folder");
    // As root the sandbox runs each bot as a uid of its own, which must be
    // able to read what was built (tempfile makes folders 0700).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(folder.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = folder.path();
    let src = kit.source();
    let path = |p: &Path| p.to_string_lossy().into_owned();
    let command = match kit {
        Kit::Python => vec!["python3".into(), path(&src.join("bot.py"))],
        Kit::Js => vec!["node".into(), path(&src.join("bot.js"))],
        Kit::Cpp => {
            run(
                kit,
                Command::new("make")
                    .arg("-C")
                    .arg(&src)
                    .arg(format!("BUILD={}", out.display())),
            );
            vec![path(&out.join("bot"))]
        }
        Kit::Java => {
            run(
                kit,
                Command::new("make")
                    .arg("-C")
                    .arg(&src)
                    .arg(format!("BUILD={}", out.display())),
            );
            let mut command = vec!["java".to_string()];
            command.extend(JVM_FLAGS.iter().map(|f| f.to_string()));
            command.extend(["-jar".into(), path(&out.join("bot.jar"))]);
            command
        }
        Kit::Go => {
            // A cache of its own: nothing shared with other builds or tests.
            let cache = tempfile::tempdir().expect("a temporary folder");
            run(
                kit,
                Command::new("go")
                    .args(["build", "-o"])
                    .arg(out.join("bot"))
                    .arg(".")
                    .current_dir(&src)
                    .env("GOCACHE", cache.path()),
            );
            vec![path(&out.join("bot"))]
        }
        Kit::Rust => {
            run(
                kit,
                Command::new("cargo")
                    .args([
                        "build",
                        "--release",
                        "--offline",
                        "--quiet",
                        "--manifest-path",
                    ])
                    .arg(src.join("Cargo.toml"))
                    .arg("--target-dir")
                    .arg(out.join("target"))
                    .env_remove("CARGO_TARGET_DIR"),
            );
            vec![path(&out.join("target/release/aboure-rust-kit"))]
        }
    };
    Built {
        kit,
        command,
        _folder: folder,
    }
}

fn run(kit: Kit, command: &mut Command) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("building the {} kit: {command:?}: {e}", kit.name()));
    assert!(
        output.status.success(),
        "building the {} kit: {command:?} exited with {}\n--- stdout\n{}--- stderr\n{}",
        kit.name(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
