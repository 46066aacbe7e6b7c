//! The queue's choice against a real folder: what the roster says is
//! held is not tried, and a worker stops at the first pair of another's
//! slice it finds held.

use super::*;
use aboure_workers::{Found, RosterBrief};

fn queue(dir: &std::path::Path, k: u32, n: u32) -> Queue {
    let text = "[tournament]\npairs = 6\n[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n\
                [[bot]]\nname = \"b\"\nbuiltin = \"random\"\n";
    let config = crate::config::parse(text, "t.toml".as_ref()).unwrap();
    let name = format!("{k}-of-{n}");
    let about = format!("worker {name} host h pid {k}");
    let claims = ClaimDir::new(dir, about.clone()).unwrap();
    let own = dir.join(format!("games-{name}.jsonl"));
    let file = format!("games-{name}.jsonl");
    let worker = WorkerFile::register(claims.dir(), &name, &about, &file);
    let slice = Slice {
        index: u64::from(k - 1),
        count: u64::from(n),
    };
    let follower = Siblings::new(dir, &own);
    let mut q = Queue::new(
        Schedule::new(&config, None),
        (claims, worker.unwrap().unwrap()),
        follower,
        Some(slice),
        (file, &[]),
    );
    q.start(dir).unwrap();
    q
}

#[test]
fn pairs_the_roster_says_are_held_are_not_tried_and_one_found_held_stops_the_claim() {
    let dir = tempfile::tempdir().unwrap();
    let (mut one, mut two) = (queue(dir.path(), 1, 2), queue(dir.path(), 2, 2));
    // Worker 1 holds every unit: its own 0, 2, 4, then worker 2's.
    let held: Vec<_> = (0..6)
        .map(|_| match one.next(0..6).unwrap() {
            Next::Play(claim, _) => claim,
            _ => panic!("a free unit"),
        })
        .collect();
    let units: Vec<Unit> = held.iter().map(|c| c.unit()).collect();
    assert_eq!(units, [0, 2, 4, 1, 3, 5]);
    // Worker 2 tries its own three, then stops at the first of the
    // others' it finds held.
    assert!(matches!(two.next(0..6).unwrap(), Next::Wait(_)));
    let t = two.work.tried;
    assert_eq!((t.found(Found::Held), t.total()), (4, 4), "{t:?}");
    // Told by the roster, it tries none, whatever it saw itself.
    two.busy.clear();
    let brief = RosterBrief {
        held: units,
        ..RosterBrief::default()
    };
    two.set_roster(&brief, false);
    assert!(matches!(two.next(0..6).unwrap(), Next::Wait(_)));
    assert_eq!(two.work.tried.total(), 4, "no try more");
    assert_eq!((two.work.brief_reads, two.work.roster_passes), (1, 0));
    // Once released (not finished: as by a worker that died), the roster
    // says so and the unit is taken over first.
    drop(held);
    let brief = RosterBrief {
        orphans: vec![3],
        ..RosterBrief::default()
    };
    two.set_roster(&brief, true);
    assert!(matches!(two.next(0..6).unwrap(), Next::Play(c, _) if c.unit() == 3));
}

#[test]
fn an_idle_workers_wait_grows_past_poll_most_only_with_the_crowd() {
    let dir = tempfile::tempdir().unwrap();
    let mut q = queue(dir.path(), 1, 1);
    let longest = |q: &mut Queue| (0..20).map(|_| q.pause()).max().unwrap();
    assert!(longest(&mut q) <= POLL_MOST.mul_f64(1.5));
    let crowd = RosterBrief {
        alive: 1000,
        ..RosterBrief::default()
    };
    q.set_roster(&crowd, false);
    // Among many, the first wait is longer too.
    q.idle = POLL_FIRST;
    let first = q.pause();
    let least = POLL_FIRST.mul_f64(aboure_workers::census::crowd(1000) / 2.0);
    assert!(first >= least, "{first:?}");
    let most = POLL_MOST.mul_f64(aboure_workers::census::crowd(1000));
    let wait = longest(&mut q);
    assert!(
        wait > POLL_MOST * 3 / 2 && wait <= most.mul_f64(1.5),
        "{wait:?}"
    );
    // Fewer workers again: back under POLL_MOST once the wait starts short.
    q.set_roster(&RosterBrief::default(), false);
    q.idle = POLL_FIRST;
    assert!(longest(&mut q) <= POLL_MOST.mul_f64(1.5));
}
