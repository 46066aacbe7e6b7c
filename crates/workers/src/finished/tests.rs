use super::*;
use aboure_records::{GameResult, GameSummary, SideName, Termination};

fn game(id: &str, pair: u32, game: u8) -> GameRecord {
    let line = format!(
        r#"{{"id":"{id}","pairing":["a","b"],"pair":{pair},"game":{game},"south":"a","north":"b","moves":["3","4"],"result":"1-0","termination":"natural"}}"#
    );
    serde_json::from_str(&line).unwrap()
}

#[test]
fn the_log_holds_every_unit_only_if_the_folder_had_no_game_when_it_was_made() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = FinishedLog::new(dir.path());
    assert!(first.open_or_create(|| Ok(false)).unwrap());
    let mut later = FinishedLog::new(dir.path());
    assert!(later.open_or_create(|| panic!("not asked again")).unwrap());
    assert!(later.poll().unwrap().is_empty(), "the header is no game");
    let old = tempfile::tempdir().unwrap();
    let mut log = FinishedLog::new(old.path());
    assert!(!log.open_or_create(|| Ok(true)).unwrap());
    assert!(!FinishedLog::new(old.path())
        .open_or_create(|| Ok(false))
        .unwrap());
    // Created by an appender (no header): not complete.
    let bare = tempfile::tempdir().unwrap();
    FinishedLog::new(bare.path()).append(&[]).unwrap();
    assert!(!FinishedLog::new(bare.path())
        .open_or_create(|| Ok(false))
        .unwrap());
}

#[test]
fn units_appended_by_any_worker_are_read_once_in_order_and_a_cut_line_costs_only_itself() {
    let dir = tempfile::tempdir().unwrap();
    let (mut a, mut b) = (FinishedLog::new(dir.path()), FinishedLog::new(dir.path()));
    assert!(b.poll().unwrap().is_empty(), "no log yet");
    let file = |name: &str| name.to_owned();
    a.append(&[
        (file("g1"), game("x0", 0, 0)),
        (file("g2"), game("x1", 0, 1)),
    ])
    .unwrap();
    let read = b.poll().unwrap();
    let seen: Vec<_> = read
        .iter()
        .map(|(f, g)| (f.as_str(), g.id.as_str()))
        .collect();
    assert_eq!(seen, [("g1", "x0"), ("g2", "x1")]);
    assert!(read[0].1.moves.is_empty(), "a summary: no moves");
    assert!(b.poll().unwrap().is_empty(), "nothing read twice");
    // A writer killed mid-line, then another unit.
    std::fs::OpenOptions::new()
        .append(true)
        .open(a.path())
        .unwrap()
        .write_all(b"{\"name\":\"g")
        .unwrap();
    assert!(b.poll().unwrap().is_empty(), "a partial line waits");
    b.append(&[(file("g3"), game("y0", 2, 0))]).unwrap();
    let read = b.poll().unwrap();
    let seen: Vec<_> = read
        .iter()
        .map(|(f, g)| (f.as_str(), g.id.as_str()))
        .collect();
    assert_eq!(seen, [("g3", "y0")]);
    assert_eq!(b.counts().2, 1);
    let text = std::fs::read_to_string(a.path()).unwrap();
    // Four names and two games; the cut line; a name, a game.
    assert_eq!(text.lines().count(), 6 + 1 + 2, "{text}");
}

#[test]
fn many_workers_appending_at_once_all_get_through_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (workers, units) = (24u64, 15u64);
    let threads: Vec<_> = (0..workers)
        .map(|w| {
            let dir = dir.path().to_owned();
            std::thread::spawn(move || {
                let mut log = FinishedLog::new(&dir);
                for u in 0..units {
                    let unit = w * units + u;
                    let g = game(&format!("g{unit}"), unit as u32, 0);
                    log.append(&[(format!("f{w}"), g)]).unwrap();
                }
                log.counts().2
            })
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap(), units, "every append got its lock");
    }
    let mut reader = FinishedLog::new(dir.path());
    let mut ids: Vec<String> = reader
        .poll()
        .unwrap()
        .into_iter()
        .map(|(_, g)| g.id)
        .collect();
    ids.sort();
    let mut expected: Vec<String> = (0..workers * units).map(|u| format!("g{u}")).collect();
    expected.sort();
    assert_eq!(ids, expected, "each line once, none torn");
}

/// A forfeit, with a detail to escape and bots whose names need escapes.
fn forfeit(id: &str) -> GameRecord {
    let mut g = game(id, 7, 1);
    g.pairing = ["b\"1".to_owned(), "a\\2".to_owned()];
    (g.south, g.north) = (g.pairing[1].clone(), g.pairing[0].clone());
    g.result = GameResult::forfeit_by(SideName::North);
    g.termination = Termination::IllegalMove;
    g.loser = Some(SideName::North);
    g.detail = Some("played \"9\"\n, not legal".to_owned());
    g
}

#[test]
fn a_game_read_back_is_the_summary_written_and_names_are_written_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = FinishedLog::new(dir.path());
    log.open_or_create(|| Ok(false)).unwrap();
    let games = [
        ("games.w1.jsonl".to_owned(), game("r0-p0-g0", 0, 0)),
        ("games.w1.jsonl".to_owned(), forfeit("r0-p7-g1")),
        ("games \"w2\".jsonl".to_owned(), game("r0-p0-g1", 0, 1)),
    ];
    log.append(&games).unwrap();
    let mut reader = FinishedLog::new(dir.path());
    let read = reader.poll().unwrap();
    let expected: Vec<_> = (games.iter())
        .map(|(f, g)| (f.clone(), GameSummary::of(g).to_record()))
        .collect();
    assert_eq!(read, expected);
    // The writer knows the names now: a second unit writes none.
    let before = std::fs::metadata(log.path()).unwrap().len();
    log.append(&games[..1]).unwrap();
    let line = std::fs::read_to_string(log.path()).unwrap()[before as usize..].to_owned();
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.len() < 120, "a compact line: {line}");
    assert_eq!(reader.poll().unwrap(), expected[..1]);
    // And so does a worker that read them.
    reader.append(&games[2..]).unwrap();
    let text = std::fs::read_to_string(log.path()).unwrap();
    assert_eq!(text.matches("\"name\"").count(), 6, "{text}");
}

#[test]
fn a_log_begun_in_the_long_form_is_still_read_and_grows_in_the_compact_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FINISHED_LOG);
    // As an aboure before the compact lines wrote it.
    let long = |file: &str, g: &GameRecord| {
        let mut v = serde_json::to_value(GameSummary::of(g).to_record()).unwrap();
        v["unit"] = 3.into();
        v["recorded_in"] = file.into();
        serde_json::to_string(&v).unwrap()
    };
    let old = [("g1", game("x0", 3, 0)), ("g2", forfeit("x1"))];
    let text = format!(
        "{{\"finished_log\":1,\"complete_from_start\":true}}\n{}\n{}\n",
        long(old[0].0, &old[0].1),
        long(old[1].0, &old[1].1)
    );
    std::fs::write(&path, text).unwrap();
    let mut log = FinishedLog::new(dir.path());
    assert!(log.open_or_create(|| panic!("it exists")).unwrap());
    let read = log.poll().unwrap();
    let ids: Vec<_> = read
        .iter()
        .map(|(f, g)| (f.as_str(), g.id.as_str()))
        .collect();
    assert_eq!(ids, [("g1", "x0"), ("g2", "x1")]);
    assert_eq!(read[1].1, GameSummary::of(&old[1].1).to_record());
    log.append(&[("g3".to_owned(), game("y0", 4, 0))]).unwrap();
    let read = FinishedLog::new(dir.path()).poll().unwrap();
    let ids: Vec<_> = read
        .iter()
        .map(|(f, g)| (f.as_str(), g.id.as_str()))
        .collect();
    assert_eq!(ids, [("g1", "x0"), ("g2", "x1"), ("g3", "y0")]);
}

#[test]
fn a_game_naming_what_the_log_does_not_hold_is_skipped_and_a_log_made_again_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = FinishedLog::new(dir.path());
    log.append(&[("g1".to_owned(), game("x0", 0, 0))]).unwrap();
    let mut reader = FinishedLog::new(dir.path());
    assert_eq!(reader.poll().unwrap().len(), 1);
    // The log made again (renamed over, so that the inode is another):
    // the writer's offsets are of the old.
    let again = dir.path().join("again");
    std::fs::write(&again, "{\"name\":\"g9\"}\n").unwrap();
    std::fs::rename(&again, log.path()).unwrap();
    let stale = r#"{"id":"x1","pair":0,"game":1,"bots":[0,99],"south":1,"result":"0-1","termination":"natural","in":0}"#;
    let mut file = OpenOptions::new().append(true).open(log.path()).unwrap();
    writeln!(file, "{stale}").unwrap();
    log.append(&[("g2".to_owned(), game("x2", 1, 0))]).unwrap();
    let read = reader.poll().unwrap();
    let ids: Vec<_> = read
        .iter()
        .map(|(f, g)| (f.as_str(), g.id.as_str()))
        .collect();
    assert_eq!(
        ids,
        [("g2", "x2")],
        "the stale line skipped, the new log read whole"
    );
}
