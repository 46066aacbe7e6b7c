//! The reports a run leaves in its folder: `aboure run` ends by rating
//! every game in it (this run's and earlier ones', every worker's) and
//! writing `report.txt`, `report.json` and `report.html` beside the games.
//! Which settings that report reads from the run and where its files go is
//! this crate's knowledge, not the binary's; the binary only shows the
//! reading's progress and prints.

use std::path::{Path, PathBuf};

use crate::input::{league_of, openings_of, prior_of, sandbox_of, sprt_of, InputError};
use crate::options::{AccuracyOptions, ReportOptions};
use crate::report::Report;
use crate::tally::ReportTally;

/// The names of the end-of-run reports, in the order they are written.
pub const RUN_REPORTS: [&str; 3] = aboure_records::REPORT_FILES;

/// An empty tally for the end-of-run report of the run in `dir`: its SPRT,
/// sandbox, league, openings book and default prior ([`crate::default_prior`] of its
/// format) from the run manifest, with per-move accuracy (the
/// analysis, about 10,000 games a second on two cores, takes a small share
/// of the run's own time; the page and the JSON hold a bounded number of
/// games). Feed it the folder with [`crate::read_files`].
pub fn run_report_tally(dir: &Path) -> Result<ReportTally, InputError> {
    let files = [dir.to_owned()];
    let options = ReportOptions {
        sprt: sprt_of(&files)?,
        sandbox: sandbox_of(&files)?,
        league: league_of(&files)?,
        openings: openings_of(&files)?,
        prior: prior_of(&files)?,
        accuracy: Some(AccuracyOptions::default()),
        viewer_games: None,
        ..ReportOptions::default()
    };
    Ok(ReportTally::new(options))
}

/// Writes the [`RUN_REPORTS`] of `report` into `dir`, each whole or not at
/// all (workers sharing the folder each write them); returns the files that
/// could not be written, with why.
pub fn write_run_reports(dir: &Path, report: &Report) -> Vec<(PathBuf, std::io::Error)> {
    let bodies = [report.text(), report.json_text(), report.html()];
    (RUN_REPORTS.iter().zip(bodies))
        .filter_map(|(name, body)| {
            let path = dir.join(name);
            aboure_records::write_whole(&path, body.as_bytes())
                .err()
                .map(|e| (path, e))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reports_of_an_empty_run_folder_are_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let tally = run_report_tally(dir.path()).unwrap();
        let report = tally.finish();
        assert!(write_run_reports(dir.path(), &report).is_empty());
        let text = std::fs::read_to_string(dir.path().join("report.txt")).unwrap();
        assert_eq!(text, report.text());
        let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
        assert_eq!(html, report.html());
        let missing = dir.path().join("no-such-folder");
        let failed = write_run_reports(&missing, &report);
        assert_eq!(failed.len(), 3, "{failed:?}");
        assert_eq!(failed[0].0, missing.join("report.txt"));
    }
}
