//! The order one process plays a run in: the schedule's. Only a worker
//! that joins a run (`--join`) starts its tries elsewhere (at a place
//! drawn from its process id among the few lowest free pairs), so that
//! joining workers do not all knock on the same pair.

use crate::harness::*;

#[test]
fn one_process_at_concurrency_one_records_its_games_in_schedule_order() {
    // Before, a plain run started at a place drawn from its process id,
    // as a worker joining a run does, and recorded the pairs in an order
    // of its own.
    let dir = folder("in-order");
    let text = "[tournament]\npairs = 3\nconcurrency = 1\n\
                [time-control]\nmovetime = \"20ms\"\nmargin = \"1s\"\n\
                [[bot]]\nname = \"random\"\nbuiltin = \"random\"\n\
                [[bot]]\nname = \"greedy\"\nbuiltin = \"greedy\"\n\
                [[bot]]\nname = \"other\"\nbuiltin = \"random\"\n";
    let config = write_config(&dir, text);
    let out = dir.join("out");
    let output = run(&config, &out, &[]);
    assert!(output.status.success(), "{}", show(&output));
    let ids: Vec<String> = games(&out)
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect();
    // The schedule: the first pair of each pairing (`rNNNN`), then the
    // second of each, and so on; the two games of a pair together.
    let mut scheduled = ids.clone();
    scheduled.sort_by_key(|id| {
        let part = |prefix: char| {
            id.split('-')
                .find(|p| p.starts_with(prefix))
                .map(str::to_owned)
        };
        (part('p'), part('r'), part('g'))
    });
    assert_eq!(ids.len(), 18);
    assert_eq!(ids, scheduled);
    std::fs::remove_dir_all(&dir).unwrap();
}
