//! A value of the wrong TOML type, said in the user's words: serde names
//! only the types (`invalid type: integer 25, expected a string`), so the
//! key comes from the path the deserializer walked, and the hint is the
//! user's own line rewritten with the type the key takes
//! (`movetime = "25ms"`, `command = ["python3", "bot.py"]`).

use serde_path_to_error::{Path, Segment};

/// Keys whose value is a duration written as a string with a unit.
const DURATION_KEYS: &[&str] = &[
    "base",
    "increment",
    "movetime",
    "timeout",
    "margin",
    "startup-timeout",
];

/// Keys whose value is a command line: a program, then its arguments.
const COMMAND_KEYS: &[&str] = &["command", "wrapper", "build"];

/// The key a deserializer's path names, as the validator names keys
/// (`time-control.movetime`, `bot[1].command`), without the fields
/// `toml::Spanned` reads through.
pub(super) fn key_of(path: &Path) -> String {
    let mut key = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => key.push_str(&format!("[{index}]")),
            Segment::Map { key: k } if k.starts_with("$__serde_spanned") => {}
            Segment::Map { key: k } | Segment::Enum { variant: k } => {
                if !key.is_empty() {
                    key.push('.');
                }
                key.push_str(k);
            }
            Segment::Unknown => {}
        }
    }
    key
}

/// What to write instead of `value` (the TOML text of the value at `key`)
/// when the deserializer's `message` says it has the wrong type; `None`
/// when no rewrite applies.
pub(super) fn hint(key: &str, value: &str, message: &str) -> Option<String> {
    let name = key.rsplit('.').next().unwrap_or(key);
    if name.is_empty() || !message.starts_with("invalid type") {
        return None;
    }
    if message.ends_with("expected a string") {
        let bare = value.trim();
        let is_number = bare.parse::<f64>().is_ok();
        if DURATION_KEYS.contains(&name) {
            return Some(if is_number {
                format!("a duration is a string with a unit: {name} = \"{bare}ms\"")
            } else {
                format!("a duration is a string with a unit, such as {name} = \"500ms\"")
            });
        }
        // A table or a list in quotes would not be what the user meant.
        if bare.starts_with(['[', '{']) {
            return None;
        }
        return Some(format!("write it in quotes: {name} = \"{bare}\""));
    }
    if message.ends_with("expected a sequence") {
        let words = string_value(value)?;
        if !COMMAND_KEYS.contains(&name) {
            return Some(format!("give a list: {name} = [{words:?}]"));
        }
        let list: Vec<String> = words.split_whitespace().map(|w| format!("{w:?}")).collect();
        return Some(format!(
            "give a list, the program then each argument: {name} = [{}]",
            list.join(", ")
        ));
    }
    None
}

/// The string a TOML value's text holds, if it is a string.
fn string_value(value: &str) -> Option<String> {
    let table: toml::Table = toml::from_str(&format!("v = {value}")).ok()?;
    table.get("v")?.as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::hint;

    #[test]
    fn a_number_for_a_duration_gets_its_unit() {
        assert_eq!(
            hint(
                "time-control.movetime",
                "25",
                "invalid type: integer `25`, expected a string"
            )
            .as_deref(),
            Some("a duration is a string with a unit: movetime = \"25ms\"")
        );
    }

    #[test]
    fn a_string_for_a_command_is_split_into_a_list() {
        assert_eq!(
            hint(
                "bot[1].command",
                "\"python3  bot.py\"",
                "invalid type: string \"python3  bot.py\", expected a sequence"
            )
            .as_deref(),
            Some(
                "give a list, the program then each argument: command = [\"python3\", \"bot.py\"]"
            )
        );
    }

    #[test]
    fn other_errors_get_no_hint() {
        assert_eq!(
            hint(
                "sandbox.read",
                "\"data dir\"",
                "invalid type: string \"data dir\", expected a sequence"
            )
            .as_deref(),
            Some("give a list: read = [\"data dir\"]")
        );
        assert_eq!(hint("tournament.pair", "3", "unknown field `pair`"), None);
        assert_eq!(
            hint("", "25", "invalid type: integer `25`, expected a string"),
            None
        );
    }
}
