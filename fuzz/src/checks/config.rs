//! The tournament file: any text gives a validated `Config` or an error that
//! names a place in the file, never a panic. The opening-file reader, which
//! the config calls for `[openings] file`, gets the same text.

use std::path::Path;

use aboure_config as config;
use aboure_config::opening::parse_opening_file;

/// Where the fuzzed file pretends to live: a directory that does not exist,
/// so a relative `openings.file` is never found.
const PATH: &str = "/nonexistent/aboure-fuzz/tournament.toml";

/// Parses `data` as a tournament file and as an opening file.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let lines = text.split('\n').count();
    // Line 0 stands for the whole file ("the file holds no openings").
    let _ = parse_opening_file(text).map_err(|e| {
        assert!(
            e.line <= lines,
            "opening error on line {} of {lines}: {e}",
            e.line
        );
        assert!(!e.to_string().is_empty());
    });
    // `openings.file` is read from disk: an absolute name could point the
    // fuzzer at any file on the machine (or at /dev/zero), so texts that
    // could spell the key, plainly or with escapes, are left out.
    if text.contains("file") || text.contains("\\u") || text.contains("\\U") {
        return;
    }
    match config::parse(text, Path::new(PATH)) {
        Ok(cfg) => {
            let bots = cfg.bots();
            assert!(bots.len() >= 2, "a config with {} bots", bots.len());
            for (i, bot) in bots.iter().enumerate() {
                assert!(
                    bots[..i].iter().all(|b| b.name() != bot.name()),
                    "bot name {:?} twice",
                    bot.name()
                );
                assert!(!bot.name().is_empty() && !bot.name().contains(['/', '\\']));
            }
            if let config::Format::Gauntlet(id) = cfg.format() {
                assert!(
                    id.index() < bots.len(),
                    "gauntlet bot {id:?} of {}",
                    bots.len()
                );
            }
            assert!(cfg.pairs() >= 1);
        }
        Err(err) => {
            assert_eq!(err.path, Path::new(PATH));
            assert!(
                err.line <= lines,
                "error on line {} of {lines}: {err}",
                err.line
            );
            assert!(
                !err.message.is_empty(),
                "an error without a message: {err:?}"
            );
            assert!(!err.to_string().is_empty());
        }
    }
}
