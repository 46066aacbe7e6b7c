//! A boxed player that is itself a [`Player`], so a bot chosen by name at run
//! time can go wherever a concrete player type is expected (the protocol
//! loop is generic over its player), and options given on a command line can
//! be checked and set as `setoption` would.

use std::fmt;

use aboure_engine::{Move, Position};
use aboure_protocol::{Limits, OptionSpec, Player, Search};

/// Any player, boxed; delegates everything.
pub struct AnyPlayer(pub Box<dyn Player + Send>);

/// An option that a bot refused, with the bot and the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The bot's name.
    pub bot: String,
    /// The option as given.
    pub option: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: option `{}`: {}",
            self.bot, self.option, self.problem
        )
    }
}

impl std::error::Error for OptionError {}

impl AnyPlayer {
    /// Sets option `name` to `value` the way `setoption` does: the option
    /// must be declared, the value must fit its declaration, and the player
    /// must accept it.
    pub fn configure(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let bot = self.0.name();
        let error = |problem: String| OptionError {
            bot: bot.clone(),
            option: format!("{name}={value}"),
            problem,
        };
        let specs = self.0.options();
        let Some(spec) = specs.iter().find(|s| s.name == name) else {
            let known: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
            return Err(error(if known.is_empty() {
                "this bot has no options".to_owned()
            } else {
                format!("no such option; options: {}", known.join(", "))
            }));
        };
        let canonical = spec.check_value(value).map_err(error)?;
        self.0.set_option(name, &canonical).map_err(error)
    }
}

impl Player for AnyPlayer {
    fn name(&self) -> String {
        self.0.name()
    }
    fn author(&self) -> String {
        self.0.author()
    }
    fn options(&self) -> Vec<OptionSpec> {
        self.0.options()
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.0.set_option(name, value)
    }
    fn new_game(&mut self) {
        self.0.new_game()
    }
    fn choose(
        &mut self,
        position: &Position,
        history: &[Position],
        limits: &Limits,
        search: &mut dyn Search,
    ) -> Move {
        self.0.choose(position, history, limits, search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn configure_checks_like_setoption() {
        let mut bot = AnyPlayer(builtin("alphabeta").unwrap());
        assert_eq!(bot.configure("depth", "3"), Ok(()));
        let e = bot.configure("depth", "-1").unwrap_err();
        assert!(e.to_string().contains("depth=-1"), "{e}");
        let e = bot.configure("colour", "red").unwrap_err();
        assert!(e.problem.contains("options: depth, hash"), "{e}");
        let e = bot.configure("quiescence", "yes").unwrap_err();
        assert!(e.to_string().starts_with("aboure alphabeta"), "{e}");
        let mut random = AnyPlayer(builtin("random").unwrap());
        assert_eq!(random.configure("seed", "9"), Ok(()));
    }
}
