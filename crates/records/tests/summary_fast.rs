//! `GameSummary::from_line` takes a fast path past the keys it does not
//! read; these properties hold it to what serde alone decides on the same
//! line: the same summary for every line serde reads, the same refusal of
//! every cut-short line, and no line serde refuses let through unless the
//! damage is inside a value the summary skips.

use aboure_records::GameSummary;
use proptest::prelude::*;

fn serde_only(line: &[u8]) -> Result<GameSummary<'_>, String> {
    serde_json::from_slice(line).map_err(|e| e.to_string())
}

fn fast(line: &[u8]) -> Result<GameSummary<'_>, String> {
    GameSummary::from_line(line).map_err(|e| e.to_string())
}

/// A name with, sometimes, characters JSON must escape.
fn name() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z][a-z0-9_-]{0,8}", "[a-z \"\\\\/é\\t]{1,6}",]
}

/// The keys a summary reads, as `"key":value` texts.
fn read_keys() -> impl Strategy<Value = Vec<String>> {
    (
        name(),
        name(),
        name(),
        0u32..100_000,
        0u8..2,
        prop_oneof![Just("1-0"), Just("0-1"), Just("1/2-1/2")],
        prop_oneof![Just("natural"), Just("time_forfeit"), Just("crash")],
        proptest::option::of(prop_oneof![Just("south"), Just("north")]),
        proptest::option::of(name()),
    )
        .prop_map(|(id, a, b, pair, game, result, term, loser, detail)| {
            let q = |s: &str| serde_json::to_string(s).unwrap();
            let mut keys = vec![
                format!("\"id\":{}", q(&id)),
                format!("\"pairing\":[{},{}]", q(&a), q(&b)),
                format!("\"pair\":{pair}"),
                format!("\"game\":{game}"),
                format!("\"south\":{}", q(&a)),
                format!("\"north\": {}", q(&b)),
                format!("\"result\":\"{result}\""),
                format!("\"termination\" : \"{term}\""),
            ];
            if let Some(l) = loser {
                keys.push(format!("\"loser\":\"{l}\""));
            }
            keys.push(match detail {
                Some(d) => format!("\"detail\":{}", q(&d)),
                None => "\"detail\":null".to_owned(),
            });
            keys
        })
}

/// Keys a summary skips, shaped like a record's `moves` and `plies`.
fn skipped_keys() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(
        (
            prop_oneof![Just("moves"), Just("plies"), Just("opening"), Just("x")],
            prop_oneof![
                "\\[(\"[0-9]{1,2}\",){0,6}\"pass\"\\]",
                "\\[(\\{\"by\":\"bot\",\"time_ms\":[1-9][0-9]{0,2}\\.[0-9],\"info\":\\{\"pv\":\\[\"[0-9]\"\\]\\}\\},){0,4}\\{\\}\\]",
                "\\{\"index\":[0-9],\"moves\":\\[\\]\\}",
                "\"[a-z\\]\\}\\[ ]{0,5}\"",
                "-?[1-9][0-9]{0,3}(\\.[0-9]{1,2})?",
                Just("true".to_owned()),
                Just("null".to_owned()),
            ],
        )
            .prop_map(|(k, v)| format!("\"{k}\":{v}")),
        0..4,
    )
}

/// A line of read and skipped keys in any order, the index where the read
/// keys end when they come first, and the line with the read keys first.
fn lines() -> impl Strategy<Value = (String, String, usize)> {
    (read_keys(), skipped_keys(), any::<u64>()).prop_map(|(read, skipped, seed)| {
        let first = format!("{{{}", read.join(","));
        let in_order = if skipped.is_empty() {
            format!("{first}}}")
        } else {
            format!("{first},{}}}", skipped.join(","))
        };
        let mut all: Vec<String> = read.into_iter().chain(skipped).collect();
        // A cheap shuffle driven by the seed.
        let n = all.len();
        for i in (1..n).rev() {
            let j = (seed.rotate_left(i as u32) as usize) % (i + 1);
            all.swap(i, j);
        }
        (format!("{{ {} }}", all.join(", ")), in_order, first.len())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn whole_lines_read_the_same((any_order, in_order, _) in lines()) {
        for line in [any_order.as_bytes(), in_order.as_bytes()] {
            let want = serde_only(line);
            prop_assert!(want.is_ok(), "{}: {:?}", String::from_utf8_lossy(line), want);
            prop_assert_eq!(fast(line), want);
        }
    }

    #[test]
    fn cut_lines_are_refused_with_serde_s_error(
        (line, _, _) in lines(),
        cut in any::<prop::sample::Index>(),
    ) {
        let line = &line.as_bytes()[..cut.index(line.len())];
        prop_assert_eq!(fast(line), serde_only(line));
    }

    #[test]
    fn damage_is_let_through_only_inside_skipped_values(
        (_, line, read_end) in lines(),
        at in any::<prop::sample::Index>(),
        byte in prop_oneof![Just(b'"'), Just(b'\\'), Just(b'['), Just(b'}'), Just(b','), Just(b':'), Just(b'x'), Just(b'1'), Just(0u8), Just(0xffu8)],
    ) {
        let mut line = line.into_bytes();
        let at = at.index(line.len());
        line[at] = byte;
        let (fast, want) = (fast(&line), serde_only(&line));
        if want.is_ok() || at < read_end {
            prop_assert_eq!(fast, want, "byte {} at {}", byte, at);
        }
    }
}
