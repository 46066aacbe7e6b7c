//! Reading and merging results files.
//!
//! A report may combine the shards of one run, or several runs: a game id
//! seen twice is the same game read twice (a shard copied twice, a file
//! given twice) and is counted once, with a warning naming both files. Game
//! pairs are matched within one folder (the files of one run's workers;
//! a pair may be split between two of them), so pair numbers of different
//! runs never mix.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use aboure_records::{
    read_games, GameRecord, ManifestError, ReadError, Results, RunManifest, SandboxLayers,
};

use crate::options::SprtSettings;

/// Games from one or more results files, ready to report on.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// The games, each counted once, in reading order.
    pub games: Vec<GameRecord>,
    /// For each game, the index of the file it came from (in `files`).
    pub sources: Vec<usize>,
    /// The files read.
    pub files: Vec<PathBuf>,
    /// Problems found in the files and duplicate ids, one line each, saying
    /// which file and line.
    pub warnings: Vec<String>,
}

impl Input {
    /// Games of one run (all from the same file, or from no file at all).
    pub fn from_games(games: &[GameRecord]) -> Input {
        Input {
            games: games.to_vec(),
            sources: vec![0; games.len()],
            files: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Adds the games of a parsed file. An id already present is the same
    /// game read twice: it counts once, and the record that counts is the
    /// one [`aboure_records::RecordChoice`] picks (the one the game's mark
    /// names, else by file), whatever order the files are given in (within
    /// one file, its first).
    pub fn add(&mut self, path: &Path, results: Results) {
        let index = self.files.len();
        self.files.push(path.to_owned());
        for problem in &results.problems {
            self.warnings.push(problem.to_string());
        }
        // Each id's place in `games`.
        let mut at: HashMap<String, usize> = HashMap::new();
        for (i, g) in self.games.iter().enumerate() {
            at.entry(g.id.clone()).or_insert(i);
        }
        // Duplicates grouped by the file that had them first.
        let mut duplicates: Vec<(usize, Vec<String>)> = Vec::new();
        for game in results.games {
            let Some(&place) = at.get(&game.id) else {
                at.insert(game.id.clone(), self.games.len());
                self.games.push(game);
                self.sources.push(index);
                continue;
            };
            let file = self.sources[place];
            let id = game.id.clone();
            let choice = aboure_records::RecordChoice::new();
            if file != index && choice.wins(&id, path, &self.files[file]) {
                self.games[place] = game;
                self.sources[place] = index;
            }
            match duplicates.iter_mut().find(|(f, _)| *f == file) {
                Some((_, ids)) => ids.push(id),
                None => duplicates.push((file, vec![id])),
            }
        }
        for (file, ids) in duplicates {
            let shown: Vec<&str> = ids.iter().take(3).map(String::as_str).collect();
            let more = if ids.len() > 3 { ", ..." } else { "" };
            self.warnings.push(format!(
                "{}: {} game id{} already read from {} ({}{more}): counted once",
                path.display(),
                ids.len(),
                if ids.len() == 1 { "" } else { "s" },
                self.files[file].display(),
                shown.join(", "),
            ));
        }
    }
}

/// A results file could not be read, or its `run.json` made no sense.
#[derive(Debug)]
pub enum InputError {
    /// The file could not be read.
    Read(ReadError),
    /// `run.json` is there but unreadable, not a run manifest, or of a
    /// newer schema.
    Manifest(ManifestError),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Read(e) => e.fmt(f),
            InputError::Manifest(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for InputError {}

/// The results files `path` stands for: a run's output folder stands for
/// its results files (`games.jsonl`, and each shard's `games-K-of-N.jsonl`);
/// any other path for itself.
pub fn files_of(path: &Path) -> Vec<PathBuf> {
    if !path.is_dir() {
        return vec![path.to_owned()];
    }
    match aboure_records::results_files(path) {
        Ok(files) if !files.is_empty() => files,
        // Reading the missing file gives the error that names it.
        _ => vec![aboure_records::results_file(path, None)],
    }
}

/// Reads every file in `paths` (a folder means its results files), merging
/// them, all in memory (see [`crate::read_files`] for files of any size);
/// also returns the SPRT a `run.json` beside a file describes, if any.
pub fn load(paths: &[PathBuf]) -> Result<(Input, Option<SprtSettings>), InputError> {
    let mut input = Input::default();
    for path in paths.iter().flat_map(|p| files_of(p)) {
        let results = read_games(&path).map_err(InputError::Read)?;
        input.add(&path, results);
    }
    Ok((input, sprt_of(paths)?))
}

/// The SPRT described by the `run.json` beside the first of `paths` that
/// has one describing an SPRT, if any.
pub fn sprt_of(paths: &[PathBuf]) -> Result<Option<SprtSettings>, InputError> {
    first_in_manifests(paths, |m| SprtSettings::of_manifest(&m))
}

/// The seed recorded in the `run.json` beside the first of `paths` that
/// has one, if any: a bootstrap of a run's report draws from it.
pub fn seed_of(paths: &[PathBuf]) -> Result<Option<u64>, InputError> {
    first_in_manifests(paths, |m| Some(m.identity.seed))
}

/// The sandbox layers recorded in the `run.json` beside the first of
/// `paths` that has them, if any.
pub fn sandbox_of(paths: &[PathBuf]) -> Result<Option<SandboxLayers>, InputError> {
    first_in_manifests(paths, |m| m.sandbox)
}

/// The openings book recorded in the `run.json` beside the first of
/// `paths` whose games start from an openings file, if any.
pub fn openings_of(paths: &[PathBuf]) -> Result<Option<crate::OpeningsBook>, InputError> {
    first_in_manifests(paths, |m| crate::OpeningsBook::of_manifest(&m))
}

/// The league recorded in the `run.json` beside the first of `paths` that
/// has one, if any.
pub fn league_of(paths: &[PathBuf]) -> Result<Option<aboure_records::LeagueRecord>, InputError> {
    first_in_manifests(paths, |m| m.league)
}

/// The prior the report of `paths` uses by default: [`crate::default_prior`]
/// of the format the first `run.json` beside one of them records (a league
/// gets BayesElo's; files without a `run.json`, none).
pub fn prior_of(paths: &[PathBuf]) -> Result<Option<f64>, InputError> {
    let format = first_in_manifests(paths, |m| Some(m.identity.format))?;
    Ok(crate::options::default_prior(format.as_ref()))
}

/// What `find` finds in the first run manifest beside one of `paths` where
/// it finds something.
fn first_in_manifests<T>(
    paths: &[PathBuf],
    find: impl Fn(RunManifest) -> Option<T>,
) -> Result<Option<T>, InputError> {
    for path in paths.iter().flat_map(|p| files_of(p)) {
        // A bare file name's parent is "", whose manifest is `run.json`.
        let dir = path.parent().unwrap_or_else(|| Path::new(""));
        if let Some(found) = RunManifest::read_in(dir)
            .map_err(InputError::Manifest)?
            .and_then(&find)
        {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, result: &str) -> String {
        format!(
            "{{\"id\":\"{id}\",\"pairing\":[\"a\",\"b\"],\"pair\":0,\"game\":0,\"south\":\"a\",\"north\":\"b\",\"moves\":[],\"result\":\"{result}\",\"termination\":\"natural\"}}\n"
        )
    }

    #[test]
    fn a_duplicated_id_counts_the_same_record_whatever_order_the_files_come_in() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("games-1-of-2.jsonl");
        let second = dir.path().join("games-w-late.jsonl");
        std::fs::write(&first, line("x", "1-0") + &line("y", "0-1")).unwrap();
        std::fs::write(&second, line("x", "0-1") + &line("z", "1-0")).unwrap();
        let picked = |order: &[&PathBuf]| {
            let paths: Vec<PathBuf> = order.iter().map(|p| (*p).clone()).collect();
            let (input, _) = load(&paths).unwrap();
            let mut games: Vec<(String, String, PathBuf)> = (input.games.iter())
                .zip(&input.sources)
                .map(|(g, s)| {
                    (
                        g.id.clone(),
                        format!("{:?}", g.result),
                        input.files[*s].clone(),
                    )
                })
                .collect();
            games.sort();
            (games, input.warnings.len())
        };
        let (one, warned) = picked(&[&first, &second]);
        assert_eq!(picked(&[&second, &first]), (one.clone(), warned));
        assert_eq!(one.len(), 3, "x once: {one:?}");
        assert_eq!(
            one[0].2, first,
            "x from the shard's file, which sorts first"
        );
        assert_eq!(warned, 1, "the duplicate is said");
        // Marked as the late worker's: its record counts, either order.
        let marks = aboure_records::mark::marks_dir(dir.path());
        std::fs::create_dir_all(&marks).unwrap();
        let text = aboure_records::mark::mark_text("games-w-late.jsonl");
        std::fs::write(marks.join("x"), text).unwrap();
        let (marked, _) = picked(&[&first, &second]);
        assert_eq!(picked(&[&second, &first]).0, marked);
        assert_eq!((marked[0].1.as_str(), &marked[0].2), ("NorthWins", &second));
    }
}
