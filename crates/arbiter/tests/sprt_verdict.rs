//! The SPRT verdict is a pure function of the results files: whatever order
//! shards finished their pairs in, whichever shard was killed (leaving a
//! partial last line) and resumed (writing a game again), the verdict and
//! the pairs it counts are those of one process playing the pairs in order.

use aboure_arbiter::sprt::verdict;
use aboure_records::{parse_games, GameRecord};
use aboure_stats::{EloModel, Pentanomial, Sprt, SprtDecision};
use proptest::prelude::*;

const PAIRS: usize = 60;

fn sprt() -> Sprt {
    Sprt::new(0.0, 150.0, 0.05, 0.05, EloModel::Normalized).unwrap()
}

fn pairing() -> [String; 2] {
    ["new".to_owned(), "old".to_owned()]
}

/// The two lines of pair `p`, `results` from South's view of each game.
fn lines(p: usize, results: [u8; 2]) -> [String; 2] {
    let text = |r: u8| ["1-0", "1/2-1/2", "0-1"][r as usize];
    [0u8, 1].map(|g| {
        let (south, north) = if g == 0 { ("new", "old") } else { ("old", "new") };
        format!(
            r#"{{"id":"r0000-p{p:02}-g{g}","pairing":["new","old"],"pair":{p},"game":{g},"south":"{south}","north":"{north}","result":"{}","termination":"natural","moves":["3","8"]}}"#,
            text(results[g as usize])
        )
    })
}

/// One process playing the pairs in order, stopping at the first crossing.
fn in_order(pairs: &[[u8; 2]]) -> (SprtDecision, u64, Pentanomial) {
    let mut counts = Pentanomial::default();
    let test = sprt();
    for (i, all) in pairs.iter().enumerate() {
        let text = lines(i, *all).join("\n") + "\n";
        let games = parse_games(text.as_bytes(), "x.jsonl".as_ref()).games;
        let r = |g: &GameRecord| aboure_records::outcome(g, "new");
        counts.add_pair(r(&games[0]), r(&games[1]));
        let d = test.status_pentanomial(&counts).decision;
        if d != SprtDecision::Continue {
            return (d, i as u64 + 1, counts);
        }
    }
    (SprtDecision::Continue, pairs.len() as u64, counts)
}

fn results() -> impl Strategy<Value = Vec<[u8; 2]>> {
    // Mostly wins for "new" (as South 1-0, as North 0-1), some of everything.
    let game = prop_oneof![3 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)];
    proptest::collection::vec((game.clone(), game), PAIRS).prop_map(|v| {
        v.into_iter()
            .map(|(a, b)| [a, 2 - b]) // game 1: "new" is North
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn any_arrival_order_kills_and_duplicates_give_the_in_order_verdict(
        results in results(),
        shards in 1usize..5,
        order in proptest::collection::vec(any::<u64>(), PAIRS * 2),
        duplicates in proptest::collection::vec(0usize..PAIRS * 2, 0..10),
        killed in proptest::collection::vec(0usize..PAIRS * 2, 0..4),
    ) {
        let expected = in_order(&results);
        let all: Vec<String> = results
            .iter()
            .enumerate()
            .flat_map(|(p, r)| lines(p, *r))
            .collect();
        // Each shard's file, in the order its games finished.
        let mut files = vec![String::new(); shards];
        let mut sequence: Vec<usize> = (0..all.len()).collect();
        sequence.sort_by_key(|&i| order[i]);
        sequence.extend(duplicates.iter().copied());
        for i in sequence {
            let shard = (i / 2) % shards;
            // A shard killed after writing a game and resumed with a
            // results file copied from before: the game written again.
            if killed.contains(&i) {
                files[shard] += &all[i];
                files[shard] += "\n";
            }
            files[shard] += &all[i];
            files[shard] += "\n";
        }
        // And one shard is being killed right now: a partial last line.
        if let Some(&i) = killed.first() {
            let shard = (i / 2) % shards;
            files[shard] += &all[i][..all[i].len() / 3];
        }
        let games: Vec<GameRecord> = files
            .iter()
            .enumerate()
            .flat_map(|(k, text)| parse_games(text.as_bytes(), format!("games-{k}.jsonl").as_ref()).games)
            .collect();
        let v = verdict(sprt(), &pairing(), &games);
        let got = (v.status.decision, if v.decided() { v.counted } else { PAIRS as u64 }, v.counts);
        prop_assert_eq!(got, expected);
    }
}
