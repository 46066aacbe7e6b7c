//! A build writes its folder, which is often a checkout of the stranger's
//! repository: its version-control metadata is read-only to the build, so
//! that nothing the build writes there (`core.fsmonitor`, a hook) runs
//! at the operator's next `git status`, outside the sandbox. Checked from
//! outside, through `aboure run`'s build and `aboure check-bot --build`.

use super::*;

/// The build: reads the repository (`git describe`), then tries to plant
/// a command in `.git/config` and a hook, each way it can.
const BUILD: &str = r#"git describe --always > described.txt 2>&1
printf '[core]\n\tfsmonitor = "id > %s; false"\n' "$PF" >> .git/config
echo "config: $?"
git config core.fsmonitor "id > $PF; false"
echo "git config: $?"
mkdir -p .git/hooks && printf '#!/bin/sh\nid > %s-hook\n' "$PF" > .git/hooks/post-checkout
echo "hook: $?"
echo built > built.txt
"#;

/// A git checkout at `folder` holding the build script; returns its
/// `.git/config` and its commit, short.
fn checkout(folder: &Path) -> (String, String) {
    std::fs::create_dir_all(folder).unwrap();
    std::fs::write(folder.join("build.sh"), BUILD).unwrap();
    let git = |args: &[&str]| {
        let output = Command::new("git")
            .current_dir(folder)
            .args(["-c", "user.email=a@b", "-c", "user.name=a"])
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "git {args:?}: {}", show(&output));
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "init"]);
    let config = std::fs::read_to_string(folder.join(".git/config")).unwrap();
    (config, git(&["rev-parse", "--short", "HEAD"]))
}

/// Checks, after the build of `folder`, that it read the repository and
/// planted nothing: the config and hooks as they were, and the operator's
/// `git status` and `git checkout` there run nothing.
#[track_caller]
fn assert_nothing_planted(what: &str, folder: &Path, (config, commit): &(String, String)) {
    let read = |name: &str| std::fs::read_to_string(folder.join(name)).unwrap_or_default();
    assert_eq!(read("built.txt"), "built\n", "{what}: the build ran");
    assert!(read("described.txt").starts_with(commit.as_str()), "{what}");
    assert_eq!(&read(".git/config"), config, "{what}");
    assert!(!folder.join(".git/hooks/post-checkout").exists(), "{what}");
    // As the operator would, trusting the folder whoever owns it now.
    for args in [&["status", "--short"][..], &["checkout", "-q", "HEAD"]] {
        let _ = Command::new("git")
            .current_dir(folder)
            .args(["-c", "safe.directory=*"])
            .args(args)
            .output()
            .unwrap();
    }
    let planted = folder.with_extension("planted");
    let hook = folder.with_extension("planted-hook");
    assert!(!planted.exists() && !hook.exists(), "{what}: git ran it");
}

/// The tournament file in `dir`: the builder (the test bot, its folder
/// `bot`, its build `sh build.sh` told where to plant by `PF`, `planted`)
/// against an honest bot that runs the test bot from a script of its own.
fn builder_config(dir: &Path, planted: &Path) -> PathBuf {
    let env = format!("PF = {:?}", planted.display().to_string());
    let bot = format!(
        "[[bot]]\nname = \"builder\"\ncommand = [{TESTBOT:?}, \"random\", \"--seed\", \"3\"]\n\
         workdir = \"bot\"\nbuild = [\"sh\", \"build.sh\"]\nenv = {{ {env} }}\n"
    );
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let script = other.join("bot.sh");
    std::fs::write(&script, format!("exec {TESTBOT:?} random --seed 7\n")).unwrap();
    let honest = format!(
        "[[bot]]\nname = \"honest\"\ncommand = [\"sh\", {:?}]\n",
        script.display().to_string()
    );
    write_config(dir, &gauntlet_against(&honest, &bot))
}

/// The tenth outside round's c32: a build wrote `core.fsmonitor` and a
/// `post-checkout` hook into its checkout's `.git`, and the operator's next
/// `git status` there ran the command with the operator's rights.
#[test]
fn a_build_reads_its_checkouts_git_and_plants_nothing_in_it() {
    let dir = folder("sandbox-build-git");
    let own = dir.join("bot");
    let before = checkout(&own);
    let pf = own.with_extension("planted");
    let config = builder_config(&dir, &pf);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let log = std::fs::read_to_string(out.join("build-builder.log")).unwrap();
    assert_nothing_planted(&format!("run: {log}"), &own, &before);
    // The same, through `check-bot --build` in the checkout.
    let own = dir.join("sub");
    let before = checkout(&own);
    let pf = own.with_extension("planted");
    let pf = format!("PF={}", pf.display());
    let checked = check_bot_build(&own, &["--env", &pf]);
    assert!(checked.status.success(), "{}", show(&checked));
    assert_nothing_planted(&format!("check-bot: {}", show(&checked)), &own, &before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A build that makes repositories where there were none: `git init` and
/// a `core.fsmonitor`, a Mercurial folder deeper down, a folder git takes
/// for a repository though it has no `.git` (the eleventh round's d01: a
/// `HEAD`, `objects/`, `refs/` and a `config`), and a `.git` that is a link
/// to such a folder (d02).
const MAKES: &str = r#"git init -q sub && git -C sub config core.fsmonitor "id > $PF; false"
mkdir -p deep/er/.hg
bare() { mkdir -p "$1/objects" "$1/refs" && echo 'ref: refs/heads/main' > "$1/HEAD" &&
  printf '[core]\n\tfsmonitor = "id > %s; false"\n' "$PF" > "$1/config"; }
bare plain
mkdir -p linked && bare linked/meta && ln -s meta linked/.git
echo built > built.txt
"#;

/// What [`MAKES`] made, below its folder.
const MADE: &[&str] = &["sub/.git", "deep/er/.hg", "plain", "linked/meta"];

/// A build that makes its own folder a repository git would use there
/// (the eleventh round's d14: `git status` in the folder runs it), then
/// fails: a failed build's repository runs at `git status` all the same.
const MAKES_HERE: &str = r#"mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD
printf '[core]\n\tworktree = .\n\tfsmonitor = "id > %s; false"\n' "$PF" > config
exit 1
"#;

/// Asserts that `output` (a build of `own`) failed naming each of `made`
/// (below `own`; `""` is `own` itself) as a repository it made.
#[track_caller]
fn assert_refused_naming_what_it_made(
    what: &str,
    output: &std::process::Output,
    own: &Path,
    made: &[&str],
) {
    assert!(!output.status.success(), "{what}: {}", show(output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("made a repository where there was none"),
        "{what}: {stderr}"
    );
    for made in made {
        let path = match made.is_empty() {
            true => own.display().to_string(),
            false => own.join(made).display().to_string(),
        };
        assert!(stderr.contains(&path), "{what}: {path}: {stderr}");
    }
    // Made unusable: the operator's `git status` where each was runs
    // nothing (as the operator would, trusting the folder whoever owns it).
    for made in made.iter().filter(|m| !m.ends_with(".hg")) {
        let at = own.join(made);
        let at = if at.ends_with(".git") || at.ends_with("meta") {
            at.parent().unwrap().to_owned()
        } else {
            at
        };
        let _ = Command::new("git")
            .current_dir(&at)
            .args(["-c", "safe.directory=*", "status", "--short"])
            .output()
            .unwrap();
    }
    let planted = own.with_extension("planted");
    assert!(!planted.exists(), "{what}: git ran what the build planted");
}

/// What the tenth round left open after c32: a repository the build makes
/// where there was none (a `.git` in a subfolder, whose `core.fsmonitor`
/// a shell prompt running `git status` in every folder it enters would
/// run with the operator's rights), and the eleventh round's ways to make
/// one without a `.git` folder. Refused, by `run` before any game and by
/// `check-bot --build`, naming what it made.
#[test]
fn a_build_that_makes_a_repository_where_there_was_none_is_refused_naming_it() {
    let dir = folder("sandbox-build-new-repository");
    let own = dir.join("bot");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("build.sh"), MAKES).unwrap();
    let config = builder_config(&dir, &own.with_extension("planted"));
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert_refused_naming_what_it_made("run", &output, &own, MADE);
    assert!(!out.join("games.jsonl").exists(), "{}", show(&output));
    for (name, script, made) in [("checked", MAKES, MADE), ("here", MAKES_HERE, &[""][..])] {
        let own = dir.join(name);
        std::fs::create_dir_all(&own).unwrap();
        std::fs::write(own.join("build.sh"), script).unwrap();
        let pf = format!("PF={}", own.with_extension("planted").display());
        let checked = check_bot_build(&own, &["--env", &pf]);
        assert_refused_naming_what_it_made(name, &checked, &own, made);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A repository hidden where the search after the build does not reach
/// (70 folders down, past the 64 levels it walks) is no way around it:
/// the build is refused as one that left too much to search (whether it
/// ended, or was stopped first for a tree past `write-size`'s walk,
/// which counts as past the limit).
#[test]
fn a_build_that_hides_a_repository_past_the_searchs_bounds_is_refused() {
    const HIDES: &str = "p=deep; for i in $(seq 70); do p=$p/d; done\n\
                         mkdir -p $p && git init -q $p\necho built > built.txt\n";
    let dir = folder("sandbox-build-hidden-repository");
    let own = dir.join("bot");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("build.sh"), HIDES).unwrap();
    let config = builder_config(&dir, &own.with_extension("planted"));
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(!output.status.success(), "{}", show(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("too large to search whole for a repository it may have made"),
        "{stderr}"
    );
    assert!(!out.join("games.jsonl").exists(), "{}", show(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}
