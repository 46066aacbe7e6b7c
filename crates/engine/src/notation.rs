//! Text notation of positions: `S0,S1,S2,S3,S4,S5/N6,N7,N8,N9,N10,N11 SIDE CAPS CAPN`,
//! or `startpos`. Used by the protocol, the records and the command line.

use std::fmt;
use std::str::FromStr;

use crate::position::{InvalidPosition, Position};
use crate::{Side, PITS, ROW, TOTAL_SEEDS};

/// Why a string is not a position. The message quotes the part that is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    /// Not four space-separated fields (or `startpos`).
    Fields {
        /// How many fields there were.
        found: usize,
    },
    /// The board field is not two rows of six pits separated by `/`.
    Rows {
        /// The board field.
        board: String,
    },
    /// A pit count is not a number from 0 to 48.
    Pit {
        /// The pit number, 0..=11.
        pit: usize,
        /// Its text.
        text: String,
    },
    /// The side field is not `s` or `n`.
    Side {
        /// Its text.
        text: String,
    },
    /// A capture count is not a number from 0 to 48.
    Captured {
        /// Whose count.
        side: Side,
        /// Its text.
        text: String,
    },
    /// The numbers parse but make no possible position.
    Invalid(InvalidPosition),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHAPE: &str =
            "expected `S0,S1,S2,S3,S4,S5/N6,N7,N8,N9,N10,N11 SIDE CAPS CAPN` or `startpos`";
        match self {
            ParsePositionError::Fields { found } => {
                write!(f, "found {found} space-separated fields; {SHAPE}")
            }
            ParsePositionError::Rows { board } => write!(
                f,
                "board `{}` is not two rows of six comma-separated pits joined by `/`",
                board.escape_debug()
            ),
            ParsePositionError::Pit { pit, text } => write!(
                f,
                "pit {pit}: `{}` is not a seed count from 0 to {TOTAL_SEEDS}",
                text.escape_debug()
            ),
            ParsePositionError::Side { text } => write!(
                f,
                "side to move `{}` is neither `s` (South) nor `n` (North)",
                text.escape_debug()
            ),
            ParsePositionError::Captured { side, text } => write!(
                f,
                "{side}'s captures: `{}` is not a seed count from 0 to {TOTAL_SEEDS}",
                text.escape_debug()
            ),
            ParsePositionError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParsePositionError {}

/// A count 0..=48 written in plain decimal: no sign, no leading zeros.
fn count(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if text.len() == 2 && text.starts_with('0') {
        return None;
    }
    let n: u8 = text.parse().ok()?;
    (n <= TOTAL_SEEDS).then_some(n)
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Parses the notation. Surrounding whitespace and runs of spaces or tabs
    /// between fields are accepted; anything else that is off is an error.
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields == ["startpos"] {
            return Ok(Position::startpos());
        }
        if fields.len() != 4 {
            return Err(ParsePositionError::Fields {
                found: fields.len(),
            });
        }
        let rows_err = || ParsePositionError::Rows {
            board: fields[0].to_owned(),
        };
        let (south, north) = fields[0].split_once('/').ok_or_else(rows_err)?;
        let mut pits = [0u8; PITS];
        let mut i = 0;
        for row in [south, north] {
            let cells: Vec<&str> = row.split(',').collect();
            if cells.len() != ROW {
                return Err(rows_err());
            }
            for cell in cells {
                pits[i] = count(cell).ok_or_else(|| ParsePositionError::Pit {
                    pit: i,
                    text: cell.to_owned(),
                })?;
                i += 1;
            }
        }
        let side = match fields[1] {
            "s" => Side::South,
            "n" => Side::North,
            other => {
                return Err(ParsePositionError::Side {
                    text: other.to_owned(),
                })
            }
        };
        let mut captured = [0u8; 2];
        for s in Side::BOTH {
            let text = fields[2 + s.index()];
            captured[s.index()] = count(text).ok_or_else(|| ParsePositionError::Captured {
                side: s,
                text: text.to_owned(),
            })?;
        }
        Position::new(pits, side, captured).map_err(ParsePositionError::Invalid)
    }
}

impl fmt::Display for Position {
    /// The full notation (never the `startpos` shorthand), e.g.
    /// `4,4,4,4,4,4/4,4,4,4,4,4 s 0 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pits = self.pits();
        for (i, n) in pits.iter().enumerate() {
            if i == ROW {
                f.write_str("/")?;
            } else if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{n}")?;
        }
        write!(
            f,
            " {} {} {}",
            self.side.letter(),
            self.captured[0],
            self.captured[1]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_forms() {
        let p: Position = "startpos".parse().unwrap();
        assert_eq!(p, Position::startpos());
        assert_eq!(p.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0");
        assert_eq!(p.to_string().parse::<Position>().unwrap(), p);
        assert_eq!(
            "  4,4,4,4,4,4/4,4,4,4,4,4\ts  0 0 \r\n"
                .parse::<Position>()
                .unwrap(),
            p
        );
    }

    #[test]
    fn errors_say_where() {
        let e = |s: &str| s.parse::<Position>().unwrap_err().to_string();
        assert!(e("4,4,4,4,4,4/4,4,4,4,4,4 s 0").contains("3 space-separated"));
        assert!(e("4,4,4,4,4/4,4,4,4,4,4,4 s 0 0").contains("two rows"));
        assert!(e("4,4,4,4,4,4/4,4,x,4,4,4 s 0 0").contains("pit 8: `x`"));
        assert!(e("4,4,4,4,4,4/4,4,4,4,4,49 s 0 0").contains("pit 11: `49`"));
        assert!(e("4,4,4,4,4,4/4,4,4,4,4,+4 s 0 0").contains("pit 11"));
        assert!(e("4,4,4,4,4,4/4,4,4,4,4,04 s 0 0").contains("pit 11"));
        assert!(e("4,4,4,4,4,4/4,4,4,4,4,4 S 0 0").contains("side to move `S`"));
        assert!(e("4,4,4,4,4,4/4,4,4,4,4,4 s 0 -1").contains("north's captures"));
        assert!(e("4,4,4,4,4,4/4,4,4,4,4,4 s 2 0").contains("50 seeds"));
        assert!(e("").contains("found 0"));
    }
}
