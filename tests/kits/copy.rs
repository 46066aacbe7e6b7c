//! A kit works wherever its folder is copied: its README's "Build, run,
//! check" commands, run as written from the copy's own folder (with
//! `aboure` on the PATH, as the README's install puts it), build it and pass
//! `aboure check-bot`. Nothing may depend on the repository around it.

use std::path::Path;
use std::process::{Command, Stdio};

use super::build::Kit;
use crate::support::{ABOURE, PATIENT};

/// What a copy leaves behind: build output of an earlier build in the
/// repository, which a user's copy would not hold either.
const NOT_COPIED: [&str; 4] = ["build", "target", "__pycache__", "node_modules"];

/// The first ```sh block after the README's "## Build, run, check".
pub fn readme_commands(readme: &str) -> String {
    let section = readme
        .find("## Build, run, check")
        .map(|i| &readme[i..])
        .expect("a \"## Build, run, check\" section");
    let start = section.find("```sh\n").expect("a ```sh block in it") + "```sh\n".len();
    let block = &section[start..];
    block[..block.find("```").expect("the block's end")].to_owned()
}

pub(crate) fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if NOT_COPIED.contains(&name.to_string_lossy().as_ref()) {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_folder(&path, &to.join(&name));
        } else {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

/// Copies `kit` to a temporary folder and runs its README's commands there
/// with `sh -e`; asserts that they succeed and that check-bot passed every
/// check. check-bot gets the tests' patient margins (the machine running
/// the tests is busy), nothing else.
pub fn works_in_a_copy(kit: Kit) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("bots")
        .join(kit.name());
    let commands = readme_commands(&std::fs::read_to_string(source.join("README.md")).unwrap());
    assert!(
        commands.contains("aboure check-bot"),
        "the {} kit's README checks nothing:\n{commands}",
        kit.name()
    );
    let patient = format!("aboure check-bot {}", PATIENT.join(" "));
    let script = commands.replace("aboure check-bot", &patient);

    let dir = tempfile::tempdir().unwrap();
    // As root the sandbox runs the bot as a uid of its own, which must be
    // able to read the copy (tempfile makes folders 0700).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let copy = dir.path().join("mybot");
    copy_folder(&source, &copy);

    let aboure_dir = Path::new(ABOURE).parent().unwrap();
    let path = format!(
        "{}:{}",
        aboure_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("sh")
        .args(["-e", "-c", &script])
        .current_dir(&copy)
        .env("PATH", path)
        // The Rust kit's README builds into its own target/.
        .env_remove("CARGO_TARGET_DIR")
        .stdin(Stdio::null())
        .output()
        .expect("run sh");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let shown = format!(
        "the {} kit's README commands, run in a copy ({}):\n{script}\nstatus {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        kit.name(),
        copy.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{shown}");
    assert!(
        stdout
            .lines()
            .any(|l| l.ends_with(" passed, 0 failed") && !l.starts_with("0 passed")),
        "{shown}"
    );
}

#[test]
fn the_readme_commands_are_the_first_sh_block_of_their_section() {
    let readme = "# Kit\n\n```sh\nnot this\n```\n\n## Build, run, check\n\nText.\n\n\
                  ```sh\nmake\naboure check-bot -- build/bot\n```\n\n```sh\nnor this\n```\n";
    assert_eq!(
        readme_commands(readme),
        "make\naboure check-bot -- build/bot\n"
    );
}
