//! End-to-end tests of the engine commands: `aboure perft` and `aboure apply`,
//! run as real processes.

use std::process::{Command, Output};

fn aboure(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aboure"))
        .args(args)
        .output()
        .expect("run aboure")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_one_line_per_depth() {
    let o = aboure(&["perft", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "perft 1 6\nperft 2 27\nperft 3 120\nperft 4 512\nperft 5 1963\n"
    );
}

#[test]
fn perft_from_a_position() {
    let o = aboure(&[
        "perft",
        "2",
        "--position",
        "1,0,1,0,1,1/2,0,0,0,0,0 s 20 22",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A forced pass is one ply; after North's only move the game is over.
    assert_eq!(stdout(&o), "perft 1 1\nperft 2 1\n");
}

#[test]
fn apply_prints_each_position() {
    let o = aboure(&[
        "apply",
        "--position",
        "1,0,1,0,1,1/2,0,0,0,0,0 s 20 22",
        "pass",
        "6",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "1,0,1,0,1,1/2,0,0,0,0,0 n 20 22\n1,0,1,0,1,1/1,1,0,0,0,0 s 20 22\n"
    );
}

#[test]
fn apply_refuses_an_illegal_move_naming_the_legal_ones() {
    let o = aboure(&["apply", "2", "3"]);
    assert!(!o.status.success());
    // The first move is played and printed; the second is refused.
    assert_eq!(stdout(&o), "5,1,2,6,6,0/5,5,5,1,5,5 n 2 0\n");
    let err = stderr(&o);
    assert!(err.contains("move 2 of 2"), "{err}");
    assert!(
        err.contains("move 3 is not legal; legal moves: 6 7 8 10 11"),
        "{err}"
    );
}

#[test]
fn apply_refuses_an_endless_sowing() {
    let o = aboure(&["apply", "--position", "4,3,4,1,2,3/1,4,3,2,1,5 s 8 7", "5"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("move 5 is not legal; legal moves: 0 1 2 4"));
}

#[test]
fn bad_positions_and_moves_are_explained() {
    let o = aboure(&["perft", "1", "--position", "4,4,4,4,4,4/4,4,4,4,4 s 0 0"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("two rows of six"), "{}", stderr(&o));
    let o = aboure(&["apply", "12"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("`12` is not a move"), "{}", stderr(&o));
}
