//! Who a league's entrants are across runs: the bots of the tournament
//! file checked against the ones its `run.json` recorded, newcomers
//! appended in file order (joining at the next pair number), retirements
//! recorded from the next pair on.
//!
//! A bot's games depend on everything its [`BotIdentity`] holds (program,
//! options, time control, limits, ponder), so an entrant whose identity
//! changed under the same name is refused: its old games would be rated as
//! the new program's. A new version is a new entrant, under a new name.

use std::path::Path;

use aboure_records::{
    BotIdentity, EntrantRecord, LeagueIntervals, LeagueRecord, RunManifest, TournamentIdentity,
};

use super::error::LeagueRunError;
use crate::config::{BotId, Config};

/// Why the folder's league cannot go on with `new`, if it cannot: the
/// settings every game depends on changed, an entrant changed, or one is
/// missing from the file.
pub(crate) fn refused(
    dir: &Path,
    old: &TournamentIdentity,
    new: &TournamentIdentity,
) -> Option<LeagueRunError> {
    let what: Vec<&str> = old
        .differences(new)
        .into_iter()
        .filter(|&part| part != "bots")
        .collect();
    if !what.is_empty() {
        return Some(LeagueRunError::Changed {
            dir: dir.to_owned(),
            what: what.join(", "),
        });
    }
    for was in &old.bots {
        let Some(now) = new.bots.iter().find(|b| b.name == was.name) else {
            return Some(LeagueRunError::EntrantMissing {
                dir: dir.to_owned(),
                name: was.name.clone(),
            });
        };
        let changed = bot_differences(was, now);
        if !changed.is_empty() {
            return Some(LeagueRunError::EntrantChanged {
                dir: dir.to_owned(),
                name: was.name.clone(),
                what: changed.join(", "),
            });
        }
    }
    None
}

/// The settings of a bot that differ, by key.
fn bot_differences(a: &BotIdentity, b: &BotIdentity) -> Vec<&'static str> {
    [
        ("command", a.run != b.run),
        ("options", a.options != b.options),
        ("time-control", a.time_control != b.time_control),
        ("limits", a.limits != b.limits),
        ("ponder", a.ponder != b.ponder),
    ]
    .into_iter()
    .filter_map(|(key, differs)| differs.then_some(key))
    .collect()
}

/// The league's entrants after this run's file is read: the recorded
/// ones, then the file's new bots joining at `next_pair` (at `now`), each
/// retirement the file asks for taking effect at `next_pair`. The manifest's
/// identity lists the bots in this order. Returns each entrant's bot and
/// the league's record, as written into `manifest`.
pub(crate) fn admit(
    dir: &Path,
    manifest: &mut RunManifest,
    config: &Config,
    identity: &TournamentIdentity,
    next_pair: u64,
    in_flight: u64,
    now: &str,
) -> Result<(Vec<BotId>, LeagueRecord), LeagueRunError> {
    let mut league = manifest.league.clone().unwrap_or(LeagueRecord {
        in_flight,
        entrants: Vec::new(),
        intervals: LeagueIntervals::Fixed,
        verdict: None,
    });
    // This run's file says which intervals its verdicts use.
    league.intervals = match config.league().and_then(|r| r.until) {
        Some(s) if s.intervals == aboure_league::Intervals::Anytime => LeagueIntervals::Anytime,
        _ => LeagueIntervals::Fixed,
    };
    let entrants_before = league.entrants.clone();
    for bot in config.bots() {
        if !league.entrants.iter().any(|e| e.name == bot.name()) {
            league.entrants.push(EntrantRecord {
                name: bot.name().to_owned(),
                joined: next_pair,
                joined_at: now.to_owned(),
                retired_from: None,
            });
        }
    }
    let mut bots = Vec::new();
    for entrant in &mut league.entrants {
        let Some(id) = config
            .bot_ids()
            .find(|&id| config.bot(id).name() == entrant.name)
        else {
            return Err(LeagueRunError::EntrantMissing {
                dir: dir.to_owned(),
                name: entrant.name.clone(),
            });
        };
        match (config.bot(id).retired(), entrant.retired_from) {
            (true, None) => entrant.retired_from = Some(next_pair),
            (false, Some(from)) => {
                return Err(LeagueRunError::Unretired {
                    name: entrant.name.clone(),
                    from,
                })
            }
            _ => {}
        }
        bots.push(id);
    }
    if league.entrants != entrants_before {
        // The field changed: the last verdict was about another table.
        league.verdict = None;
    }
    let ordered = league
        .entrants
        .iter()
        .filter_map(|e| identity.bots.iter().find(|b| b.name == e.name).cloned())
        .collect();
    manifest.identity = TournamentIdentity {
        bots: ordered,
        ..identity.clone()
    };
    manifest.fingerprint = manifest.identity.fingerprint();
    manifest.league = Some(league.clone());
    Ok((bots, league))
}

#[cfg(test)]
mod tests {
    use super::*;
    use aboure_records::BotRunIdentity;

    fn identity(bots: &[(&str, &str)]) -> TournamentIdentity {
        let text = "[tournament]\nformat = \"league\"\ngames = 10\n".to_owned()
            + &bots
                .iter()
                .map(|(n, b)| format!("[[bot]]\nname = \"{n}\"\nbuiltin = \"{b}\"\n"))
                .collect::<String>();
        let config = crate::config::parse(&text, "l.toml".as_ref()).unwrap();
        crate::output::schedule_identity(&config)
    }

    fn config(bots: &[(&str, &str)], retired: &[&str]) -> Config {
        let text = "[tournament]\nformat = \"league\"\ngames = 10\n".to_owned()
            + &bots
                .iter()
                .map(|(n, b)| {
                    let r = if retired.contains(n) {
                        "retired = true\n"
                    } else {
                        ""
                    };
                    format!("[[bot]]\nname = \"{n}\"\nbuiltin = \"{b}\"\n{r}")
                })
                .collect::<String>();
        crate::config::parse(&text, "l.toml".as_ref()).unwrap()
    }

    #[test]
    fn entrants_join_at_the_next_pair_and_retire_from_it() {
        let dir = Path::new("out");
        let first = config(&[("a", "random"), ("b", "greedy")], &[]);
        let identity = crate::output::schedule_identity(&first);
        let mut manifest = RunManifest::new("l.toml".into(), None, "t0".into(), identity.clone());
        let (bots, league) = admit(dir, &mut manifest, &first, &identity, 0, 2, "t0").unwrap();
        assert_eq!(bots.len(), 2);
        assert_eq!((league.in_flight, league.entrants[1].joined), (2, 0));
        manifest.league.as_mut().unwrap().verdict = Some(aboure_records::LeagueVerdict {
            reason: aboure_records::StopReason::BudgetSpent,
            pairs: 5,
            games: 10,
            neighbours: Vec::new(),
        });

        // The file lists a newcomer first and retires b; in_flight stays.
        let grown = config(&[("c", "mcts"), ("a", "random"), ("b", "greedy")], &["b"]);
        let identity = crate::output::schedule_identity(&grown);
        let (bots, league) = admit(dir, &mut manifest, &grown, &identity, 5, 4, "t1").unwrap();
        let names: Vec<&str> = league.entrants.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(
            bots.iter().map(|b| b.index()).collect::<Vec<_>>(),
            [1, 2, 0]
        );
        assert_eq!(league.in_flight, 2);
        assert_eq!(
            (
                league.entrants[2].joined,
                league.entrants[2].joined_at.as_str()
            ),
            (5, "t1")
        );
        assert_eq!(league.entrants[1].retired_from, Some(5));
        assert_eq!(
            league.verdict, None,
            "the field changed: the old verdict is gone"
        );
        let ordered: Vec<&str> = manifest
            .identity
            .bots
            .iter()
            .map(|b| b.name.as_str())
            .collect();
        assert_eq!(ordered, ["a", "b", "c"]);
        assert_eq!(manifest.fingerprint, manifest.identity.fingerprint());

        // Retired stays retired.
        let back = config(&[("c", "mcts"), ("a", "random"), ("b", "greedy")], &[]);
        let identity = crate::output::schedule_identity(&back);
        let e = admit(dir, &mut manifest, &back, &identity, 9, 2, "t2").unwrap_err();
        assert!(
            matches!(e, LeagueRunError::Unretired { ref name, from: 5 } if name == "b"),
            "{e}"
        );
    }

    #[test]
    fn new_entrants_are_welcome_and_changed_or_missing_ones_refused() {
        let dir = Path::new("out");
        let old = identity(&[("a", "random"), ("b", "greedy")]);
        let grown = identity(&[("c", "mcts"), ("a", "random"), ("b", "greedy")]);
        assert!(refused(dir, &old, &grown).is_none());
        let changed = identity(&[("a", "random"), ("b", "mcts")]);
        let e = refused(dir, &old, &changed).unwrap();
        assert!(
            matches!(&e, LeagueRunError::EntrantChanged { name, what, .. } if name == "b" && what == "command"),
            "{e}"
        );
        assert!(
            e.to_string().contains("a new version is a new entrant"),
            "{e}"
        );
        let shrunk = identity(&[("a", "random"), ("c", "greedy")]);
        let e = refused(dir, &old, &shrunk).unwrap();
        assert!(
            matches!(&e, LeagueRunError::EntrantMissing { name, .. } if name == "b"),
            "{e}"
        );
        let mut reseeded = grown.clone();
        reseeded.seed += 1;
        assert!(matches!(
            refused(dir, &old, &reseeded),
            Some(LeagueRunError::Changed { .. })
        ));
        assert_eq!(old.bots[0].run, BotRunIdentity::Builtin("random".into()));
    }
}
