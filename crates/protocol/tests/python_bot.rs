//! The Python template bot (`bots/python/bot.py`) through the real protocol,
//! as a subprocess: the handshake, whole games against random replies, and
//! its rules cross-checked against the engine on hundreds of positions.
//! These tests need `python3` on the PATH.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use aboure_engine::{Move, Position, Side};
use aboure_protocol::{ArbiterMessage, BotMessage, GameSoFar, Go, OptionKind, SearchInfo, Start};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// Long enough for any answer on a loaded machine; only a hung bot hits it.
const HANG: Duration = Duration::from_secs(60);

struct PythonBot {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Everything exchanged, for failure messages.
    log: Vec<String>,
}

impl PythonBot {
    fn start() -> PythonBot {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bots/python/bot.py");
        let mut child = Command::new("python3")
            .arg(&script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "these tests need python3 on the PATH to run {}: {e}",
                    script.display()
                )
            });
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        PythonBot {
            child,
            stdin,
            lines,
            log: Vec::new(),
        }
    }

    fn send(&mut self, msg: &ArbiterMessage) {
        let line = msg.to_string();
        self.log.push(format!("> {line}"));
        writeln!(self.stdin, "{line}").unwrap_or_else(|e| self.fail(&format!("write: {e}")));
    }

    fn recv(&mut self) -> BotMessage {
        let Ok(line) = self.lines.recv_timeout(HANG) else {
            self.fail("no answer (hung or exited)")
        };
        self.log.push(format!("< {line}"));
        match line.parse::<BotMessage>() {
            Ok(BotMessage::Unknown(_)) => self.fail(&format!("not a protocol line: {line}")),
            Ok(msg) => msg,
            Err(e) => self.fail(&format!("malformed: {e}")),
        }
    }

    /// Reads up to the `bestmove`, returning it and the `info` lines before it.
    fn answer(&mut self) -> (Move, Vec<SearchInfo>) {
        let mut infos = Vec::new();
        loop {
            match self.recv() {
                BotMessage::Info(info) => {
                    if let Some(text) = &info.string {
                        self.fail(&format!("the bot complained: {text}"));
                    }
                    infos.push(info);
                }
                BotMessage::BestMove(m) => return (m, infos),
                other => self.fail(&format!("unexpected {other}")),
            }
        }
    }

    fn fail(&self, what: &str) -> ! {
        let tail = &self.log[self.log.len().saturating_sub(20)..];
        panic!("python bot: {what}\nlast lines:\n{}", tail.join("\n"));
    }

    fn quit(mut self) {
        self.send(&ArbiterMessage::Quit);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "python bot exited with {status}");
    }
}

fn handshake(bot: &mut PythonBot) -> Vec<BotMessage> {
    bot.send(&ArbiterMessage::Aboure { version: 1 });
    let mut got = Vec::new();
    loop {
        let msg = bot.recv();
        if msg == BotMessage::AboureOk {
            return got;
        }
        got.push(msg);
    }
}

fn go_movetime(ms: u64) -> ArbiterMessage {
    ArbiterMessage::Go(Go {
        movetime: Some(Duration::from_millis(ms)),
        ..Go::default()
    })
}

#[test]
fn handshake_options_and_pings() {
    let mut bot = PythonBot::start();
    let got = handshake(&mut bot);
    assert!(matches!(&got[0], BotMessage::Name(n) if !n.is_empty()));
    assert!(matches!(&got[1], BotMessage::Author(a) if !a.is_empty()));
    let options: Vec<_> = got[2..]
        .iter()
        .map(|m| match m {
            BotMessage::Option(spec) => (spec.name.as_str(), spec.kind.clone()),
            other => bot.fail(&format!("expected an option, got {other}")),
        })
        .collect();
    assert!(options
        .iter()
        .any(|(n, k)| *n == "seed" && matches!(k, OptionKind::Int { .. })));
    assert!(options
        .iter()
        .any(|(n, k)| *n == "depth" && matches!(k, OptionKind::Int { .. })));

    // A bad value is reported, a good one accepted silently.
    bot.send(&ArbiterMessage::SetOption {
        name: "depth".into(),
        value: "0".into(),
    });
    assert!(matches!(
        bot.recv(),
        BotMessage::Info(SearchInfo {
            string: Some(_),
            ..
        })
    ));
    bot.send(&ArbiterMessage::SetOption {
        name: "seed".into(),
        value: "42".into(),
    });
    bot.send(&ArbiterMessage::IsReady);
    assert_eq!(bot.recv(), BotMessage::ReadyOk);

    // Thinking until stop, and answering isready meanwhile.
    bot.send(&ArbiterMessage::NewGame);
    bot.send(&ArbiterMessage::Position(GameSoFar {
        start: Start::StartPos,
        moves: vec![],
    }));
    bot.send(&ArbiterMessage::Go(Go::default()));
    bot.send(&ArbiterMessage::IsReady);
    loop {
        match bot.recv() {
            BotMessage::ReadyOk => break,
            BotMessage::Info(_) => {}
            other => bot.fail(&format!("expected readyok, got {other}")),
        }
    }
    bot.send(&ArbiterMessage::Stop);
    let (m, _) = bot.answer();
    assert!(Position::startpos().is_legal(m), "bestmove {m}");
    bot.quit();
}

/// Plays a whole game: the bot on `bot_side`, random legal replies on the
/// other, forced passes played by the "arbiter". Returns the plies played.
fn play_game(
    bot: &mut PythonBot,
    bot_side: Side,
    rng: &mut SmallRng,
    go: &ArbiterMessage,
) -> usize {
    let mut position = Position::startpos();
    let mut moves = Vec::new();
    bot.send(&ArbiterMessage::NewGame);
    while !position.is_game_over() && moves.len() < 300 {
        let legal = position.legal_moves();
        let m = if legal.as_slice() == [Move::Pass] {
            Move::Pass
        } else if position.side_to_move() == bot_side {
            bot.send(&ArbiterMessage::Position(GameSoFar {
                start: Start::StartPos,
                moves: moves.clone(),
            }));
            bot.send(go);
            let (m, infos) = bot.answer();
            if !legal.contains(m) {
                bot.fail(&format!(
                    "bestmove {m} is illegal in {position}; legal: {legal}"
                ));
            }
            for info in infos {
                let mut p = position;
                for &pv in &info.pv {
                    if p.play(pv).is_err() {
                        bot.fail(&format!("pv move {pv} is illegal in {p}"));
                    }
                }
            }
            m
        } else {
            *legal.choose(rng).unwrap()
        };
        position.play(m).unwrap();
        moves.push(m);
    }
    moves.len()
}

#[test]
fn plays_whole_games_legally() {
    let mut bot = PythonBot::start();
    handshake(&mut bot);
    let mut rng = SmallRng::seed_from_u64(7);
    let mut plies = 0;
    for side in [Side::South, Side::North] {
        plies += play_game(&mut bot, side, &mut rng, &go_movetime(50));
    }
    // Clocks instead of a movetime.
    let clocks = ArbiterMessage::Go(Go::from_limits(
        &aboure_protocol::SearchLimits {
            clock: Some(aboure_protocol::ClockState {
                time: Duration::from_millis(2000),
                increment: Duration::from_millis(20),
                opponent_time: Duration::from_millis(2000),
                opponent_increment: Duration::from_millis(20),
            }),
            ..Default::default()
        },
        Side::South,
    ));
    plies += play_game(&mut bot, Side::South, &mut rng, &clocks);
    assert!(plies >= 6, "only {plies} plies in three games");
    bot.quit();
}

/// A position from 48 seed placements, all but `off` of them on the board
/// (endless sowings live on full boards: about one in five thousand random
/// full boards has one).
fn random_position(rng: &mut SmallRng, off: usize) -> Position {
    let mut pits = [0u8; 12];
    let mut captured = [0u8; 2];
    for i in 0..48 {
        if i < off {
            captured[rng.gen_range(0..2)] += 1;
        } else {
            pits[rng.gen_range(0..12)] += 1;
        }
    }
    let side = if rng.gen() { Side::North } else { Side::South };
    Position::new(pits, side, captured).unwrap()
}

fn has_endless_sowing(p: &Position) -> bool {
    let first = p.side_to_move().index() * 6;
    (first..first + 6).any(|i| p.seeds(i) >= 2 && !p.is_legal(Move::sow(i).unwrap()))
}

/// The depth-1 score of each legal move: the seed margin from the mover's
/// view right after it (the final margin if it ends the game).
fn margins(p: &Position) -> Vec<(Move, i32)> {
    let me = p.side_to_move().index();
    let (moves, children, n) = p.children();
    (0..n)
        .map(|i| {
            let s = children[i].score();
            (moves[i], s[me] as i32 - s[1 - me] as i32)
        })
        .collect()
}

#[test]
fn rules_agree_with_the_engine() {
    let mut rng = SmallRng::seed_from_u64(2024);
    let mut cases: Vec<(Position, Vec<Move>)> = Vec::new();
    // Positions with endless sowings (rare: hunt for them), as they are.
    let known = [
        "4,3,4,1,2,3/1,4,3,2,1,5 s 8 7",
        "1,0,1,0,8,1/5,6,5,4,5,6 s 3 3",
    ];
    for text in known {
        cases.push((text.parse().unwrap(), vec![]));
    }
    let mut tries = 0;
    while cases.len() < 24 && tries < 2_000_000 {
        tries += 1;
        let p = random_position(&mut rng, 0);
        if has_endless_sowing(&p) && !p.is_game_over() {
            cases.push((p, vec![]));
        }
    }
    assert!(
        cases.len() >= 20,
        "found only {} endless positions",
        cases.len()
    );
    // Random positions with a few random moves played from them.
    while cases.len() < 300 {
        let off = rng.gen_range(0..40);
        let start = random_position(&mut rng, off);
        let mut p = start;
        let mut moves = Vec::new();
        for _ in 0..rng.gen_range(0..5) {
            let legal = p.legal_moves();
            let Some(&m) = legal.choose(&mut rng) else {
                break;
            };
            p.play(m).unwrap();
            moves.push(m);
        }
        if !p.is_game_over() {
            cases.push((start, moves));
        }
    }

    let mut bot = PythonBot::start();
    handshake(&mut bot);
    let depth1 = ArbiterMessage::Go(Go {
        depth: Some(1),
        ..Go::default()
    });
    let (mut passes, mut endless) = (0, 0);
    for (start, moves) in &cases {
        let mut p = *start;
        for &m in moves {
            p.play(m).unwrap();
        }
        endless += has_endless_sowing(&p) as usize;
        bot.send(&ArbiterMessage::Position(GameSoFar {
            start: Start::Set(*start),
            moves: moves.clone(),
        }));
        bot.send(&depth1);
        let (m, infos) = bot.answer();
        if p.legal_moves().as_slice() == [Move::Pass] {
            passes += 1;
            assert_eq!(m, Move::Pass, "{p} is a forced pass");
            continue;
        }
        let margins = margins(&p);
        let best = margins.iter().map(|&(_, s)| s).max().unwrap();
        let best_moves: Vec<Move> = margins
            .iter()
            .filter(|&&(_, s)| s == best)
            .map(|&(m, _)| m)
            .collect();
        let scores: Vec<Option<i32>> = infos.iter().map(|i| i.score).collect();
        if !best_moves.contains(&m) || scores != [Some(best)] {
            bot.fail(&format!(
                "in {p} the engine's depth-1 margins are {margins:?}; the bot answered {m} with scores {scores:?}"
            ));
        }
    }
    assert!(
        endless >= 20,
        "only {endless} positions with endless sowings"
    );
    eprintln!(
        "{} positions, {endless} with endless sowings, {passes} forced passes",
        cases.len()
    );
    bot.quit();
}
