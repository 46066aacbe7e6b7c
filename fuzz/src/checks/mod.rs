//! One check per fuzz target: a function of arbitrary bytes that returns
//! quietly on any input the parsers handle as they should, and panics (with
//! the offending text) when an invariant breaks. Shared by the fuzz targets
//! and by the corpus replay on stable, which includes this directory.

pub mod config;
pub mod message;
pub mod moves;
pub mod position;
pub mod records;
pub mod serve;

/// The first line of `data` as the protocol loop would hand it to a parser
/// (up to and including the first `\n`), or `None` if it is not UTF-8.
pub(crate) fn first_line(data: &[u8]) -> Option<&str> {
    let end = data
        .iter()
        .position(|&b| b == b'\n')
        .map_or(data.len(), |i| i + 1);
    std::str::from_utf8(&data[..end]).ok()
}

/// True when `line` holds a `\r` or `\n` other than at its ends.
pub(crate) fn has_inner_break(line: &str) -> bool {
    line.trim_matches(['\r', '\n', ' ', '\t'])
        .contains(['\r', '\n'])
}
