//! End-to-end tests of `aboure sprt-calc`, run as a real process.

use std::process::{Command, Output};

fn aboure(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aboure"))
        .arg("sprt-calc")
        .args(args)
        .output()
        .expect("run aboure")
}

/// The data rows: true Elo, pass %, mean pairs, 90% pairs, truncated %.
fn rows(o: &Output) -> Vec<(f64, f64, f64, u64, f64)> {
    let text = String::from_utf8_lossy(&o.stdout);
    text.lines()
        .skip(3)
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let pct = |s: &str| s.trim_end_matches('%').parse::<f64>().unwrap();
            (
                f[0].parse().unwrap(),
                pct(f[1]),
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
                pct(f[5]),
            )
        })
        .collect()
}

#[test]
fn prints_pass_probability_and_length_over_a_range_of_elo() {
    let o = aboure(&[
        "--elo0",
        "0",
        "--elo1",
        "40",
        "--runs",
        "400",
        "--draw-ratio",
        "0.4",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = rows(&o);
    let elos: Vec<f64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(
        elos,
        [-40.0, -30.0, -20.0, -10.0, 0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0]
    );
    // Passing grows with the true Elo, from about alpha at elo0 to 1 - beta at elo1.
    assert!(rows.windows(2).all(|w| w[0].1 <= w[1].1), "{rows:?}");
    assert!(rows[4].1 < 10.0 && rows[8].1 > 90.0, "{rows:?}");
    // The longest tests are between the hypotheses.
    let longest = rows.iter().max_by(|a, b| a.2.total_cmp(&b.2)).unwrap();
    assert!((0.0..=40.0).contains(&longest.0), "{rows:?}");
    assert!(rows.iter().all(|r| r.4 == 0.0 && r.3 as f64 >= r.2));
}

#[test]
fn a_cap_truncates_and_same_seed_same_figures() {
    let args = [
        "--elo0",
        "0",
        "--elo1",
        "40",
        "--runs",
        "300",
        "--max-pairs",
        "100",
        "--pentanomial",
        "5,20,50,20,5",
        "--from",
        "0",
        "--to",
        "40",
        "--step",
        "20",
    ];
    let o = aboure(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = rows(&o);
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.3 <= 100 && r.4 > 0.0), "{rows:?}");
    assert_eq!(aboure(&args).stdout, o.stdout);
}

#[test]
fn bad_parameters_fail_with_the_reason() {
    for (args, reason) in [
        (&["--elo0", "5", "--elo1", "0"][..], "elo0=5, elo1=0"),
        (
            &["--elo0", "0", "--elo1", "5", "--draw-ratio", "1"][..],
            "draw ratio 1",
        ),
        (
            &["--elo0", "0", "--elo1", "5", "--pentanomial", "1,2,3"][..],
            "has 3 numbers",
        ),
        (
            &["--elo0", "0", "--elo1", "5", "--max-pairs", "0"][..],
            "max_pairs",
        ),
    ] {
        let o = aboure(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(reason), "{args:?}: {err}");
    }
}
