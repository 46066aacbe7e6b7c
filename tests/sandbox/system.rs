//! The tournament file and the results folder are masked from every bot,
//! but nothing can be masked inside a system folder every bot reads
//! (`/usr` is bound whole): a tournament or a results folder there is
//! refused before any game, naming the path and the folder. Through
//! `aboure run` as root (only root writes in `/usr`), checked from outside.

use super::*;

/// Two builtin bots: what matters is where the tournament and its results
/// lie.
const TOURNAMENT: &str = "[tournament]\npairs = 1\n[time-control]\nmovetime = \"20ms\"\n\
    [[bot]]\nname = \"a\"\nbuiltin = \"random\"\n[[bot]]\nname = \"b\"\nbuiltin = \"greedy\"\n";

#[test]
fn a_tournament_or_results_folder_in_a_system_folder_is_refused() {
    let uid = std::fs::metadata("/proc/self").map(|m| std::os::unix::fs::MetadataExt::uid(&m));
    assert_eq!(
        uid.unwrap(),
        0,
        "this test writes in /usr/local/src: run it as root"
    );
    let pid = std::process::id();
    let usr = PathBuf::from(format!("/usr/local/src/aboure-test-system-{pid}"));
    let elsewhere = folder("sandbox-system");
    // (where the tournament file lies, the results folder, the path named)
    let cases = [
        (
            usr.join("league"),
            elsewhere.join("out"),
            usr.join("league/tournament.toml"),
        ),
        (elsewhere.clone(), usr.join("results"), usr.join("results")),
    ];
    let mut wrong = Vec::new();
    for (place, out, named) in cases {
        std::fs::create_dir_all(&place).unwrap();
        let config = write_config(&place, TOURNAMENT);
        let output = run(&config, &out, &[]);
        let err = String::from_utf8_lossy(&output.stderr);
        let refused = !output.status.success()
            && err.contains(&format!("cannot hide {}", named.display()))
            && err.contains("it lies in /usr");
        if !refused || recorded(&out) > 0 {
            wrong.push(format!("{}: {}", named.display(), show(&output)));
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    let _ = std::fs::remove_dir_all(&usr);
    std::fs::remove_dir_all(&elsewhere).unwrap();
    assert!(wrong.is_empty(), "{wrong:#?}");
}
