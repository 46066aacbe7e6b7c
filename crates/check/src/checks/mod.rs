//! The checks of the suite. Each drives one part of the protocol and
//! asserts what the protocol requires there; [`Check::what`] says what.
//! The list of checks and their names is `check.rs`'.

use crate::check::Check;
use crate::session::{Session, Step};

mod game;
mod legal;
mod lifecycle;
mod positions;
mod setup;
mod thinking;
mod time;

impl Check {
    /// Runs the check.
    pub(crate) async fn run(self, s: &mut Session<'_>) -> Step<()> {
        match self {
            Check::Handshake => setup::handshake(s).await,
            Check::Options => setup::options(s).await,
            Check::BadInput => setup::bad_input(s).await,
            Check::Ping => setup::ping(s).await,
            Check::NewGame => setup::new_game(s).await,
            Check::PositionStartpos => positions::startpos(s).await,
            Check::PositionSet => positions::set_up(s).await,
            Check::ForcedPass => positions::forced_pass(s).await,
            Check::OneLegalMove => positions::one_legal_move(s).await,
            Check::EndlessSowing => positions::endless_sowing(s).await,
            Check::GoClock => time::clock(s).await,
            Check::GoMovetime => time::movetime(s).await,
            Check::GoDepth => time::depth(s).await,
            Check::GoNodes => time::nodes(s).await,
            Check::GoInfinite => thinking::infinite(s).await,
            Check::IsReadyWhileThinking => thinking::isready_while_thinking(s).await,
            Check::Stop => thinking::stop(s).await,
            Check::SingleBestmove => thinking::single_bestmove(s).await,
            Check::Quit => lifecycle::quit(s).await,
            Check::QuitWhileThinking => lifecycle::quit_while_thinking(s).await,
            Check::EndOfInput => lifecycle::end_of_input(s).await,
            Check::FullGame => game::full_game(s).await,
        }
    }
}
