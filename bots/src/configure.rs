//! Options given outside the protocol (on a command line, in a test) checked
//! and set exactly as a `setoption` line would be.

use std::fmt;

use aboure_protocol::Player;

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

/// Sets option `name` of `player` to `value` the way `setoption` does: the
/// option must be declared, the value must fit its declaration, and the
/// player must accept it.
pub fn configure<P: Player + ?Sized>(
    player: &mut P,
    name: &str,
    value: &str,
) -> Result<(), OptionError> {
    let bot = player.name();
    let error = |problem: String| OptionError {
        bot: bot.clone(),
        option: format!("{name}={value}"),
        problem,
    };
    let specs = player.options();
    let Some(spec) = specs.iter().find(|s| s.name == name) else {
        let known: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        return Err(error(if known.is_empty() {
            "this bot has no options".to_owned()
        } else {
            format!("no such option; options: {}", known.join(", "))
        }));
    };
    let canonical = spec.check_value(value).map_err(|e| error(e.to_string()))?;
    player
        .set_option(name, &canonical)
        .map_err(|e| error(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn configure_checks_like_setoption() {
        let mut bot = builtin("alphabeta").unwrap();
        assert_eq!(configure(&mut bot, "depth", "3"), Ok(()));
        let e = configure(&mut bot, "depth", "-1").unwrap_err();
        assert!(e.to_string().contains("depth=-1"), "{e}");
        let e = configure(&mut bot, "colour", "red").unwrap_err();
        assert!(e.problem.contains("options: depth, hash"), "{e}");
        let e = configure(&mut bot, "quiescence", "yes").unwrap_err();
        assert!(e.to_string().starts_with("aboure alphabeta"), "{e}");
        let mut random = builtin("random").unwrap();
        assert_eq!(configure(&mut random, "seed", "9"), Ok(()));
    }
}
