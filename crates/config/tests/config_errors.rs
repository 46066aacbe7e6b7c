//! Every documented config error, with the line and key it must point at.

use aboure_config::{parse, BotCommand, Format, Limit, Restart};

use crate::support::{refused, TWO_BOTS};

#[track_caller]
fn check(text: &str, expected: &str) {
    refused("t.toml", text, expected);
}

#[test]
fn two_bot_tables_alone_are_a_valid_tournament() {
    let config = parse(TWO_BOTS, "dir/t.toml".as_ref()).unwrap();
    assert_eq!(config.format(), Format::RoundRobin);
    assert_eq!(config.pairs(), 10);
    assert_eq!(config.restart(), Restart::PerGame);
    assert_eq!(
        config.bots()[1].run(),
        &BotCommand::Builtin("greedy".into())
    );
    assert_eq!(config.bots()[0].workdir(), std::path::Path::new("dir"));
    let bare = parse(TWO_BOTS, "t.toml".as_ref()).unwrap();
    assert_eq!(bare.bots()[0].workdir(), std::path::Path::new("."));
    assert!(matches!(
        config.bots()[0].time_control().limit,
        Limit::Fischer { .. }
    ));
}

#[test]
fn toml_syntax_and_unknown_keys() {
    check("[tournament\n", "t.toml:1:");
    check("\r", "t.toml:1:1: invalid TOML here");
    check(
        &format!("[tournament]\npair = 3\n{TWO_BOTS}"),
        "t.toml:2:1: tournament.pair: unknown field `pair`",
    );
    check(
        &format!("{TWO_BOTS}colour = \"red\"\n"),
        "unknown field `colour`",
    );
    check(
        &format!("[tournament]\npairs = \"many\"\n{TWO_BOTS}"),
        "t.toml:2:9:",
    );
    check(
        &format!("[time-controls]\n{TWO_BOTS}"),
        "unknown field `time-controls`",
    );
}

#[test]
fn a_value_of_the_wrong_type_names_its_key_and_the_line_to_write() {
    check(
        &format!("[time-control]\nmovetime = 25\n{TWO_BOTS}"),
        "t.toml:2:12: time-control.movetime: invalid type: integer `25`, expected a string; \
         a duration is a string with a unit: movetime = \"25ms\"",
    );
    check(
        &format!("{TWO_BOTS}[bot.time-control]\nmargin = 1.5\n"),
        "t.toml:8:10: bot[1].time-control.margin: invalid type: floating point `1.5`, \
         expected a string; a duration is a string with a unit: margin = \"1.5ms\"",
    );
    check(
        &format!("[tournament]\nstartup-timeout = true\n{TWO_BOTS}"),
        "t.toml:2:19: tournament.startup-timeout: invalid type: boolean `true`, expected a string; \
         a duration is a string with a unit, such as startup-timeout = \"500ms\"",
    );
    check(
        &format!("{TWO_BOTS}[[bot]]\nname = \"c\"\ncommand = \"python3 bot.py\"\n"),
        "t.toml:9:11: bot[2].command: invalid type: string \"python3 bot.py\", expected a sequence; \
         give a list, the program then each argument: command = [\"python3\", \"bot.py\"]",
    );
    check(
        &format!("[[bot]]\nname = 7\nbuiltin = \"random\"\n{TWO_BOTS}"),
        "t.toml:2:8: bot[0].name: invalid type: integer `7`, expected a string; \
         write it in quotes: name = \"7\"",
    );
    let listed = "t.toml:2:8: bot[0].name: invalid type: sequence, expected a string";
    check(
        &format!("[[bot]]\nname = [7]\nbuiltin = \"random\"\n{TWO_BOTS}"),
        listed,
    );
    assert!(parse(
        &format!("[[bot]]\nname = [7]\nbuiltin = \"random\"\n{TWO_BOTS}"),
        "t.toml".as_ref()
    )
    .unwrap_err()
    .message
    .ends_with("expected a string"));
}

#[test]
fn bots_count_names_and_commands() {
    check(
        "[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n",
        "bot: a tournament needs at least two [[bot]] tables, found 1",
    );
    check(
        &format!("{TWO_BOTS}[[bot]]\nname = \"a\"\nbuiltin = \"random\"\n"),
        "t.toml:8:8: bot[2].name: bot name \"a\" is already used by the bot at line 2",
    );
    for (name, why) in [
        ("a/b", "contains a slash"),
        ("..", "starts with a dot"),
        (".hidden", "starts with a dot"),
        ("", "is empty"),
        ("two words", "contains white space"),
        ("bell\\u0007", "contains a control character"),
    ] {
        check(
            &format!("[[bot]]\nname = \"{name}\"\nbuiltin = \"random\"\n{TWO_BOTS}"),
            "t.toml:2:8: bot[0].name: bot name",
        );
        check(
            &format!("[[bot]]\nname = \"{name}\"\nbuiltin = \"random\"\n{TWO_BOTS}"),
            why,
        );
    }
    check(
        &format!(
            "[[bot]]\nname = \"{}\"\nbuiltin = \"random\"\n{TWO_BOTS}",
            "x".repeat(65)
        ),
        "longer than 64 bytes",
    );
    check(
        &format!("[[bot]]\nname = \"c\"\n{TWO_BOTS}"),
        "t.toml:1:1: bot[0]: bot \"c\" needs either builtin",
    );
    check(
        &format!("[[bot]]\nname = \"c\"\nbuiltin = \"random\"\ncommand = [\"x\"]\n{TWO_BOTS}"),
        "t.toml:4:11: bot[0]: bot \"c\" has both builtin and command",
    );
    check(
        &format!("[[bot]]\nname = \"c\"\nbuiltin = \"stockfish\"\n{TWO_BOTS}"),
        "t.toml:3:11: bot[0].builtin: \"stockfish\" is not a built-in bot (known: random, greedy",
    );
    check(
        &format!("[[bot]]\nname = \"c\"\ncommand = []\n{TWO_BOTS}"),
        "t.toml:3:11: bot[0].command: the command is empty",
    );
    check(
        &format!("[[bot]]\nname = \"c\"\ncommand = [\"\"]\n{TWO_BOTS}"),
        "bot[0].command: the command is empty",
    );
    check(
        &format!("[[bot]]\nname = \"c\"\ncommand = [\"x\"]\nfavourite = 1\n{TWO_BOTS}"),
        "unknown field `favourite`",
    );
}

#[test]
fn options_and_environment() {
    check(&format!("[[bot]]\nname = \"c\"\nbuiltin = \"random\"\noptions = {{ \"bad name\" = 1 }}\n{TWO_BOTS}"), "bot[0].options.bad name: option name \"bad name\" must be letters");
    check(&format!("[[bot]]\nname = \"c\"\nbuiltin = \"random\"\noptions = {{ depth = [1, 2] }}\n{TWO_BOTS}"), "bot[0].options.depth: an option value must be a string, number or boolean");
    check(&format!("[[bot]]\nname = \"c\"\nbuiltin = \"random\"\noptions = {{ note = \"a\\nb\" }}\n{TWO_BOTS}"), "cannot hold a newline");
    check(
        &format!(
            "[[bot]]\nname = \"c\"\nbuiltin = \"random\"\nenv = {{ \"A=B\" = \"1\" }}\n{TWO_BOTS}"
        ),
        "bot[0].env: environment variable \"A=B\" is not valid",
    );
    let ok = parse(&format!("[[bot]]\nname = \"c\"\nbuiltin = \"random\"\noptions = {{ depth = 3, fast = true, style = \"wild one\" }}\n{TWO_BOTS}"), "t.toml".as_ref()).unwrap();
    let opts = &ok.bots()[0].options();
    assert_eq!(
        (
            opts["depth"].as_str(),
            opts["fast"].as_str(),
            opts["style"].as_str()
        ),
        ("3", "true", "wild one")
    );
}

#[test]
fn tournament_keys() {
    check(&format!("[tournament]\nformat = \"swiss\"\n{TWO_BOTS}"), "t.toml:2:10: tournament.format: \"swiss\" is not \"round-robin\", \"gauntlet\", \"sprt\" or \"league\"");
    check(
        &format!("[tournament]\npairs = 0\n{TWO_BOTS}"),
        "t.toml:2:9: tournament.pairs: 0 is out of range",
    );
    check(
        &format!("[tournament]\nconcurrency = 0\n{TWO_BOTS}"),
        "tournament.concurrency: 0 is out of range",
    );
    check(
        &format!("[tournament]\nseed = -1\n{TWO_BOTS}"),
        "tournament.seed: -1 is out of range",
    );
    check(
        &format!("[tournament]\nrestart = \"sometimes\"\n{TWO_BOTS}"),
        "tournament.restart: \"sometimes\" is not \"per-game\" or \"never\"",
    );
    check(
        &format!("[tournament]\nstartup-timeout = \"0s\"\n{TWO_BOTS}"),
        "tournament.startup-timeout: must be positive",
    );
    check(
        &format!("[tournament]\nformat = \"gauntlet\"\ngauntlet-bot = \"zed\"\n{TWO_BOTS}"),
        "t.toml:3:16: tournament.gauntlet-bot: no bot is named \"zed\"",
    );
    check(
        &format!("[tournament]\ngauntlet-bot = \"a\"\n{TWO_BOTS}"),
        "tournament.gauntlet-bot: gauntlet-bot only applies to format = \"gauntlet\"",
    );
    check(&format!("[tournament]\nformat = \"sprt\"\n{TWO_BOTS}[[bot]]\nname = \"c\"\nbuiltin = \"random\"\n"), "tournament.format: an SPRT needs exactly two bots, found 3");
    // The gauntlet bot as validated: its index and name.
    let gauntlet_bot = |table: &str| {
        let text = format!("[tournament]\nformat = \"gauntlet\"\n{table}{TWO_BOTS}");
        let config = parse(&text, "t.toml".as_ref()).unwrap();
        let Format::Gauntlet(id) = config.format() else {
            panic!("a gauntlet, not {:?}", config.format())
        };
        (id.index(), config.bot(id).name().to_owned())
    };
    assert_eq!(gauntlet_bot("gauntlet-bot = \"b\"\n"), (1, "b".to_owned()));
    // Without gauntlet-bot, the first bot plays everyone.
    assert_eq!(gauntlet_bot(""), (0, "a".to_owned()));
}

#[test]
fn time_controls() {
    check(
        &format!("[time-control]\nbase = \"2 parsecs\"\n{TWO_BOTS}"),
        "t.toml:2:8: time-control.base: \"2 parsecs\" is not a duration",
    );
    check(
        &format!("[time-control]\nbase = \"0ms\"\n{TWO_BOTS}"),
        "time-control.base: must be positive",
    );
    check(
        &format!("[time-control]\nmovetime = \"0s\"\n{TWO_BOTS}"),
        "time-control.movetime: must be positive",
    );
    check(&format!("[time-control]\nbase = \"1s\"\nmovetime = \"1s\"\n{TWO_BOTS}"), "t.toml:3:12: time-control: give one of base, movetime, depth or nodes, not both base and movetime");
    check(
        &format!("[time-control]\nincrement = \"1s\"\n{TWO_BOTS}"),
        "time-control.increment: increment needs base",
    );
    check(
        &format!("[time-control]\nbase = \"1s\"\ntimeout = \"1s\"\n{TWO_BOTS}"),
        "time-control.timeout: timeout only applies to depth or nodes",
    );
    check(
        &format!("[time-control]\ndepth = 0\n{TWO_BOTS}"),
        "time-control.depth: 0 is out of range",
    );
    check(
        &format!("[time-control]\nnodes = -5\n{TWO_BOTS}"),
        "time-control.nodes: -5 is out of range",
    );
    check(
        &format!("[time-control]\nmargin = \"soon\"\n{TWO_BOTS}"),
        "time-control.margin: \"soon\" is not a duration",
    );
    check(&format!("[[bot]]\nname = \"c\"\nbuiltin = \"random\"\n[bot.time-control]\nmovetime = \"-1s\"\n{TWO_BOTS}"), "t.toml:5:12: bot[0].time-control.movetime:");
    let c = parse(
        &format!("[time-control]\ndepth = 4\ntimeout = \"3s\"\n{TWO_BOTS}"),
        "t.toml".as_ref(),
    )
    .unwrap();
    assert_eq!(
        c.bots()[0].time_control().limit,
        Limit::Depth {
            depth: 4,
            timeout: std::time::Duration::from_secs(3)
        }
    );
}

#[test]
fn a_bot_time_control_overrides_the_tournament_key_by_key() {
    use std::time::Duration;
    let ms = Duration::from_millis;
    let bot = |name: &str, tc: &str| {
        format!("[[bot]]\nname = \"{name}\"\nbuiltin = \"random\"\n[bot.time-control]\n{tc}\n")
    };
    let text = [
        "[time-control]\nbase = \"10s\"\nincrement = \"100ms\"\nmargin = \"20ms\"\n".to_owned(),
        bot("wider", "margin = \"200ms\""),
        bot("longer", "base = \"30s\""),
        bot("fixed", "movetime = \"50ms\""),
        "[[bot]]\nname = \"plain\"\nbuiltin = \"greedy\"\n".to_owned(),
    ]
    .concat();
    let c = parse(&text, "t.toml".as_ref()).unwrap();
    let tc = |i: usize| {
        (
            c.bots()[i].time_control().limit,
            c.bots()[i].time_control().margin,
        )
    };
    let clock = |base: u64, inc: u64| Limit::Fischer {
        base: ms(base),
        increment: ms(inc),
    };
    // The margin alone keeps the tournament's clock.
    assert_eq!(tc(0), (clock(10_000, 100), ms(200)));
    // The same kind of limit keeps the keys the bot does not give.
    assert_eq!(tc(1), (clock(30_000, 100), ms(20)));
    // Another kind drops the clock but keeps the margin.
    assert_eq!(tc(2), (Limit::Movetime(ms(50)), ms(20)));
    assert_eq!(tc(3), (clock(10_000, 100), ms(20)));
    // A combination that makes no sense is reported at the bot's key.
    check(
        &format!(
            "[time-control]\nmovetime = \"1s\"\n{}{TWO_BOTS}",
            bot("c", "increment = \"1s\"")
        ),
        "t.toml:7:13: bot[0].time-control.increment: increment needs base",
    );
}

#[test]
fn openings_adjudication_and_sprt() {
    check(
        &format!("[openings]\nplies = 41\n{TWO_BOTS}"),
        "openings.plies: 41 is out of range",
    );
    check(
        &format!("[openings]\nplies = 2\nfile = \"o.txt\"\n{TWO_BOTS}"),
        "openings: give either plies (random openings) or file, not both",
    );
    check(
        &format!("[openings]\nfile = \"/nonexistent/o.txt\"\n{TWO_BOTS}"),
        "t.toml:2:8: openings.file: cannot read /nonexistent/o.txt",
    );
    check(
        &format!("[adjudication]\nmax-plies = 0\n{TWO_BOTS}"),
        "adjudication.max-plies: 0 is out of range",
    );
    check(
        &format!("[adjudication]\nrepetitions = 1\n{TWO_BOTS}"),
        "adjudication.repetitions: 1 is out of range",
    );
    check(
        &format!("[sprt]\nalpha = 0.7\n{TWO_BOTS}"),
        "sprt.alpha: 0.7 must be between 0 and 0.5",
    );
    check(&format!("[sprt]\nbeta = 0\n{TWO_BOTS}"), "t.toml:2:8:");
    check(
        &format!("[sprt]\nelo0 = 5.0\nelo1 = 5.0\n{TWO_BOTS}"),
        "t.toml:3:8: sprt.elo1: elo0 (5) must be less than elo1 (5)",
    );
    check(
        &format!("[sprt]\nmodel = \"bayes\"\n{TWO_BOTS}"),
        "sprt.model: \"bayes\" is not \"normalized\" or \"logistic\"",
    );
    check(
        &format!("[sprt]\nmax-pairs = 0\n{TWO_BOTS}"),
        "t.toml:2:13: sprt.max-pairs: 0 is out of range: must be between 1 and 1000000",
    );
    check(
        &format!("[tournament]\npairs = 500\n[sprt]\nmax-pairs = 600\n{TWO_BOTS}"),
        "t.toml:4:13: sprt.max-pairs: 600 exceeds tournament.pairs (500): the schedule would end first, with no verdict",
    );
    let capped = format!(
        "[tournament]\nformat = \"sprt\"\npairs = 500\n[sprt]\nmax-pairs = 300\n{TWO_BOTS}"
    );
    let config = parse(&capped, "t.toml".as_ref()).unwrap();
    assert_eq!(config.sprt().max_pairs(), Some(300));
    assert_eq!(config.pairs(), 300, "no pair is scheduled past the cap");
    assert_eq!(
        parse(TWO_BOTS, "t.toml".as_ref())
            .unwrap()
            .sprt()
            .max_pairs(),
        None
    );
}

#[test]
fn opening_files_are_checked_line_by_line() {
    let dir = std::env::temp_dir().join(format!("aboure-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("o.txt"), "# two openings\n2 7\n2 7 x\n").unwrap();
    let path = dir.join("t.toml");
    let err = parse(&format!("[openings]\nfile = \"o.txt\"\n{TWO_BOTS}"), &path).unwrap_err();
    assert!(
        err.to_string().contains("o.txt:3: \"x\" is not a move"),
        "{err}"
    );
    std::fs::write(dir.join("o.txt"), "2 7\nstartpos moves 3\n").unwrap();
    let ok = parse(&format!("[openings]\nfile = \"o.txt\"\n{TWO_BOTS}"), &path).unwrap();
    assert_eq!(ok.openings().opening(1, 3).moves.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resource_limits_and_absurd_times() {
    let bot = "[[bot]]\nname = \"c\"\nbuiltin = \"random\"\n";
    check(
        &format!("{bot}memory-limit = \"12 parsecs\"\n{TWO_BOTS}"),
        "t.toml:4:16: bot[0].memory-limit: unknown unit",
    );
    check(
        &format!("{bot}memory-limit = \"1KiB\"\n{TWO_BOTS}"),
        "bot[0].memory-limit: must be at least 1MiB",
    );
    check(
        &format!("{bot}cpu-limit = \"0s\"\n{TWO_BOTS}"),
        "t.toml:4:13: bot[0].cpu-limit: must be positive",
    );
    check(
        &format!("[time-control]\nbase = \"8days\"\n{TWO_BOTS}"),
        "t.toml:2:8: time-control.base: \"8days\" is too long: at most 7 days",
    );
    let ok = parse(
        &format!("{bot}memory-limit = \"512MiB\"\ncpu-limit = \"1m\"\n{TWO_BOTS}"),
        "t.toml".as_ref(),
    )
    .unwrap();
    assert_eq!(ok.bots()[0].limits().memory, Some(512 << 20));
    assert_eq!(
        ok.bots()[0].limits().cpu,
        Some(std::time::Duration::from_secs(60))
    );
    assert!(ok.bots()[1].limits().is_none());
}
