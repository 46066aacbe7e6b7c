//! Which checks the suite has, in the order it runs them, their names on
//! the command line and in reports, and what each asserts in words (the
//! checks themselves are in `checks/`).

use std::str::FromStr;

/// One check of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// `aboure 1` -> ids, well-formed options, `aboureok`.
    Handshake,
    /// Every declared option set to its default and to another value.
    Options,
    /// Unknown commands and bad option values do not kill the bot.
    BadInput,
    /// `isready` -> `readyok`, once and many times in a row.
    Ping,
    /// `newgame` between games.
    NewGame,
    /// `position startpos` with and without moves.
    PositionStartpos,
    /// `position set ...` with and without moves.
    PositionSet,
    /// `pass` in the move history.
    ForcedPass,
    /// A position with a single legal sowing.
    OneLegalMove,
    /// Positions where a sowing never ends.
    EndlessSowing,
    /// `go stime .. ntime .. sinc .. ninc ..` with each side to move.
    GoClock,
    /// `go movetime`.
    GoMovetime,
    /// `go depth`.
    GoDepth,
    /// `go nodes`.
    GoNodes,
    /// `go` without limits, then `stop`.
    GoInfinite,
    /// `isready` while thinking.
    IsReadyWhileThinking,
    /// `stop` during a long search, and `stop` when idle.
    Stop,
    /// Exactly one `bestmove` per `go`.
    SingleBestmove,
    /// `quit` -> exit.
    Quit,
    /// `quit` while thinking -> exit.
    QuitWhileThinking,
    /// End of input -> exit.
    EndOfInput,
    /// Short full games against random replies.
    FullGame,
}

impl Check {
    /// Every check, in the order the suite runs them.
    pub const ALL: [Check; 22] = [
        Check::Handshake,
        Check::Options,
        Check::BadInput,
        Check::Ping,
        Check::NewGame,
        Check::PositionStartpos,
        Check::PositionSet,
        Check::ForcedPass,
        Check::OneLegalMove,
        Check::EndlessSowing,
        Check::GoClock,
        Check::GoMovetime,
        Check::GoDepth,
        Check::GoNodes,
        Check::GoInfinite,
        Check::IsReadyWhileThinking,
        Check::Stop,
        Check::SingleBestmove,
        Check::FullGame,
        Check::Quit,
        Check::QuitWhileThinking,
        Check::EndOfInput,
    ];

    /// The check's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Check::Handshake => "handshake",
            Check::Options => "options",
            Check::BadInput => "bad-input",
            Check::Ping => "ping",
            Check::NewGame => "newgame",
            Check::PositionStartpos => "position-startpos",
            Check::PositionSet => "position-set",
            Check::ForcedPass => "forced-pass",
            Check::OneLegalMove => "one-legal-move",
            Check::EndlessSowing => "endless-sowing",
            Check::GoClock => "go-clock",
            Check::GoMovetime => "go-movetime",
            Check::GoDepth => "go-depth",
            Check::GoNodes => "go-nodes",
            Check::GoInfinite => "go-infinite",
            Check::IsReadyWhileThinking => "isready-while-thinking",
            Check::Stop => "stop",
            Check::SingleBestmove => "single-bestmove",
            Check::Quit => "quit",
            Check::QuitWhileThinking => "quit-while-thinking",
            Check::EndOfInput => "end-of-input",
            Check::FullGame => "full-game",
        }
    }

    /// What the check asserts, in one sentence.
    pub fn what(self) -> &'static str {
        match self {
            Check::Handshake => {
                "`aboure 1` is answered by one `id name`, one `id author`, well-formed \
                 `option` lines with distinct names and `aboureok`, within the time-out, \
                 with no line that does not parse (`info` and unknown lines only warn)"
            }
            Check::Options => {
                "each declared option set to its default and to another valid value \
                 leaves the bot alive, answering `isready`, and playing a legal move"
            }
            Check::BadInput => {
                "an unknown command, a `setoption` of an undeclared option or with an \
                 out-of-range value, an empty line and an `isready` padded with blanks \
                 leave the bot alive, answering `isready` and playing a legal move"
            }
            Check::Ping => "`isready` gets `readyok` once, and 20 times in a row",
            Check::NewGame => "`newgame` between games is accepted; each game gets a legal move",
            Check::PositionStartpos => {
                "`position startpos` with no moves and with moves (each side to move) \
                 gets a legal `bestmove` within the `movetime`"
            }
            Check::PositionSet => {
                "`position set ...` (North to move, odd captures, a big pit, an almost \
                 empty board, moves after the set-up) gets a legal `bestmove`"
            }
            Check::ForcedPass => {
                "games with `pass` in the move list (at the end, and followed by more \
                 moves) get a legal `bestmove`"
            }
            Check::OneLegalMove => {
                "a position with a single legal sowing gets exactly that move, in time"
            }
            Check::EndlessSowing => {
                "positions where a sowing never ends (RULES.md's example, \
                 4,3,4,1,2,3/1,4,3,2,1,5 s 8 7, where South's pit 5 relays for ever) get \
                 a legal `bestmove` in time: an endless sowing is not a move"
            }
            Check::GoClock => {
                "`go stime .. ntime .. sinc .. ninc ..` with South and with North to \
                 move is answered legally within the mover's own time plus the margin"
            }
            Check::GoMovetime => {
                "`go movetime` is answered legally within the movetime plus the margin"
            }
            Check::GoDepth => "`go depth` is answered legally within the time-out",
            Check::GoNodes => "`go nodes` is answered legally within the time-out",
            Check::GoInfinite => {
                "`go` without limits, then `stop`, gets one legal `bestmove` within the \
                 time-out (an answer before `stop`, from a complete search, is allowed and noted)"
            }
            Check::IsReadyWhileThinking => {
                "during a `go` without limits, `isready` gets `readyok` (before `stop`), \
                 then `stop` gets the `bestmove`"
            }
            Check::Stop => {
                "`stop` during a long `go movetime` gets a legal `bestmove` within the \
                 time-out; `stop` while idle is ignored (no `bestmove`)"
            }
            Check::SingleBestmove => {
                "after a `bestmove`, nothing claims a second one: not later, not after \
                 a `stop`, not before the next `readyok`"
            }
            Check::Quit => {
                "`quit` makes the bot exit within the time-out (the exit status is reported)"
            }
            Check::QuitWhileThinking => {
                "`quit` during a `go` without limits makes the bot exit within the time-out"
            }
            Check::EndOfInput => "closing the bot's input makes it exit within the time-out",
            Check::FullGame => {
                "two short games from the start (the bot as South, then as North) against \
                 random replies, on a clock: every answer legal and in time"
            }
        }
    }

    /// True when a bot that passed this check is left idle, with its
    /// options as it announced them, fit for the next check.
    pub fn leaves_bot_reusable(self) -> bool {
        !matches!(
            self,
            Check::Options
                | Check::BadInput
                | Check::Quit
                | Check::QuitWhileThinking
                | Check::EndOfInput
        )
    }
}

/// A name that is not a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCheck(pub String);

impl std::fmt::Display for UnknownCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Check::ALL.iter().map(|c| c.name()).collect();
        write!(
            f,
            "there is no check `{}`; the checks are: {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownCheck {}

impl FromStr for Check {
    type Err = UnknownCheck;

    fn from_str(name: &str) -> Result<Check, UnknownCheck> {
        Check::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| UnknownCheck(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_parse_back() {
        for c in Check::ALL {
            assert_eq!(c.name().parse::<Check>(), Ok(c));
            assert_eq!(
                Check::ALL.iter().filter(|d| d.name() == c.name()).count(),
                1
            );
            assert!(!c.what().is_empty());
        }
        let err = "pong".parse::<Check>().unwrap_err().to_string();
        assert!(
            err.contains("`pong`") && err.contains("handshake, options"),
            "{err}"
        );
    }
}
