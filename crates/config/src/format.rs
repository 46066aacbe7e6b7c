//! Who plays whom (the format), which bot ([`BotId`]) and when bot
//! processes restart: the values the `[tournament]` and `[tune]` tables
//! validate into, below the [`Config`](crate::Config) that holds them.

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair of bots.
    RoundRobin,
    /// One bot against each other bot.
    Gauntlet(BotId),
    /// Two bots until the SPRT decides.
    Sprt,
    /// Entrants that join and retire between runs, each next pair chosen
    /// from the games so far ([`Config::league`](crate::Config::league)).
    League,
}

/// A bot of a validated [`Config`](crate::Config): only the config makes
/// one (its [`Format::Gauntlet`] bot,
/// [`Config::bot_ids`](crate::Config::bot_ids)), from the bot's position
/// in the file, so [`Config::bot`](crate::Config::bot) always finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BotId(pub(crate) usize);

impl BotId {
    /// The bot's position in [`Config::bots`](crate::Config::bots).
    pub fn index(self) -> usize {
        self.0
    }
}

/// When bot processes are restarted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restart {
    /// A fresh process for every game.
    PerGame,
    /// Reuse processes across games; restart only after a failure.
    Never,
}
