//! The bot side of the protocol: [`serve`] reads the arbiter's lines, keeps
//! the game, and calls the [`Player`] only to choose moves.
//!
//! The search runs on its own thread so the loop keeps reading: `isready`
//! is answered at once and `stop` reaches the search while it thinks. That
//! thread lives as long as the session and takes each `go` as a job over a
//! channel, so a move costs no thread creation (a tune or a tournament of
//! short searches asks for many thousands). One
//! writer behind a mutex sends whole lines, flushed one by one, so the two
//! threads never interleave bytes. Bad input never stops the loop: it is
//! reported as an `info string` and otherwise ignored.

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Mutex;
use std::thread;
use std::time::Instant;

use aboure_engine::{Move, Position};

use crate::{
    ArbiterMessage, BotMessage, Go, OptionSpec, Player, Search, SearchInfo, PROTOCOL_VERSION,
};

/// Runs the protocol for `player` on the arbiter's lines from `input`,
/// writing only protocol lines to `output`, until `quit` or the end of the
/// input. Returns an error only when reading or writing fails.
///
/// ```
/// use aboure_engine::{Move, Position};
/// use aboure_protocol::{serve, SearchLimits, Player, Search};
///
/// /// Plays the first legal move.
/// struct First;
///
/// impl Player for First {
///     fn name(&self) -> String { "First".into() }
///     fn author(&self) -> String { "Me".into() }
///     fn choose(&mut self, p: &Position, _: &[Position], _: &SearchLimits, _: &mut dyn Search) -> Move {
///         p.legal_moves()[0]
///     }
/// }
///
/// let input = "aboure 1\nposition startpos moves 2\ngo movetime 10\n";
/// let mut output = Vec::new();
/// serve(First, input.as_bytes(), &mut output).unwrap();
/// assert_eq!(
///     String::from_utf8(output).unwrap(),
///     "id name First\nid author Me\naboureok\nbestmove 6\n"
/// );
/// ```
pub fn serve<P, R, W>(player: P, input: R, output: W) -> io::Result<()>
where
    P: Player + Send,
    R: BufRead,
    W: Write + Send,
{
    let out = Output::new(output);
    let specs = player.options();
    let name = player.name();
    let author = player.author();
    let shared = Shared {
        player: Mutex::new(player),
        stop: AtomicBool::new(false),
        thinking: AtomicBool::new(false),
        out,
    };
    let (jobs, queue) = mpsc::channel();
    let result = thread::scope(|scope| {
        let searcher = scope.spawn(|| search_all(&shared, queue));
        let mut session = Session {
            shared: &shared,
            specs,
            name,
            author,
            game: (Position::startpos(), Vec::new()),
            jobs,
        };
        let result = session.read_all(input);
        shared.stop.store(true, Ordering::SeqCst);
        // Closing the channel ends the search thread once its job is done.
        drop(session);
        // It never panics: `choose` runs under catch_unwind.
        let _ = searcher.join();
        result
    });
    result?;
    shared.out.error()
}

/// [`serve`] on the process's stdin and stdout.
pub fn serve_stdio<P: Player + Send>(player: P) -> io::Result<()> {
    serve(player, io::stdin().lock(), io::stdout())
}

/// What the loop and the search thread share.
struct Shared<P, W> {
    player: Mutex<P>,
    /// Set by `stop`, `quit` and the end of input; cleared by `go`.
    stop: AtomicBool,
    /// True from `go` until the search has let go of the player, which is
    /// before its `bestmove` is written: a `go` that answers that `bestmove`
    /// always finds the player free.
    thinking: AtomicBool,
    out: Output<W>,
}

/// The one writer: whole lines, flushed, and the first error kept.
struct Output<W> {
    sink: Mutex<(W, Option<io::Error>)>,
}

impl<W: Write> Output<W> {
    fn new(writer: W) -> Output<W> {
        Output {
            sink: Mutex::new((writer, None)),
        }
    }

    fn send(&self, msg: &BotMessage) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let (writer, error) = &mut *sink;
        if error.is_some() {
            return;
        }
        let written = writeln!(writer, "{msg}").and_then(|()| writer.flush());
        if let Err(e) = written {
            *error = Some(e);
        }
    }

    fn complain(&self, text: impl Into<String>) {
        self.send(&BotMessage::Info(SearchInfo {
            string: Some(text.into()),
            ..SearchInfo::default()
        }));
    }

    /// The first write error, if any (it is kept for later calls too).
    fn error(&self) -> io::Result<()> {
        let sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        match &sink.1 {
            None => Ok(()),
            Some(e) => Err(io::Error::new(e.kind(), e.to_string())),
        }
    }
}

/// One `go` for the search thread.
struct Job {
    /// When the `go` was read.
    started: Instant,
    position: Position,
    history: Vec<Position>,
    limits: crate::SearchLimits,
    legal: aboure_engine::MoveList,
}

/// The loop's own state.
struct Session<'env, P, W> {
    shared: &'env Shared<P, W>,
    specs: Vec<OptionSpec>,
    name: String,
    author: String,
    /// The current position and the positions before it, oldest first.
    game: (Position, Vec<Position>),
    /// The search thread's jobs.
    jobs: Sender<Job>,
}

impl<'env, P: Player + Send, W: Write + Send> Session<'env, P, W> {
    fn read_all<R: BufRead>(&mut self, mut input: R) -> io::Result<()> {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            if input.read_until(b'\n', &mut buf)? == 0 {
                return Ok(());
            }
            let line = String::from_utf8_lossy(&buf);
            let msg = match line.parse::<ArbiterMessage>() {
                Ok(msg) => msg,
                Err(e) => {
                    self.shared.out.complain(format!("ignored {e}"));
                    continue;
                }
            };
            if msg == ArbiterMessage::Quit {
                return Ok(());
            }
            self.handle(msg);
            self.shared.out.error()?;
        }
    }

    fn thinking(&self) -> bool {
        self.shared.thinking.load(Ordering::SeqCst)
    }

    fn handle(&mut self, msg: ArbiterMessage) {
        let out = &self.shared.out;
        match msg {
            ArbiterMessage::Aboure { version } => self.handshake(version),
            ArbiterMessage::IsReady => out.send(&BotMessage::ReadyOk),
            ArbiterMessage::SetOption { name, value } => self.set_option(&name, &value),
            ArbiterMessage::NewGame => {
                if self.thinking() {
                    out.complain("ignored newgame: still thinking (send stop first)");
                } else {
                    self.lock_player().new_game();
                    self.game = (Position::startpos(), Vec::new());
                }
            }
            ArbiterMessage::Position(game) => match game.replay() {
                Ok(replayed) => self.game = replayed,
                Err(e) => out.complain(format!("ignored position: {e}")),
            },
            ArbiterMessage::Go(go) => self.go(go),
            ArbiterMessage::Stop => self.shared.stop.store(true, Ordering::SeqCst),
            ArbiterMessage::Quit => self.shared.stop.store(true, Ordering::SeqCst),
            ArbiterMessage::Unknown(line) => {
                if !line.is_empty() {
                    out.complain(format!("ignored unknown command `{line}`"));
                }
            }
        }
    }

    fn lock_player(&self) -> std::sync::MutexGuard<'env, P> {
        // A panic in `choose` is caught inside the lock, so it is never
        // poisoned; recover anyway rather than panic.
        self.shared.player.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn handshake(&self, version: u32) {
        let out = &self.shared.out;
        if version != PROTOCOL_VERSION {
            out.complain(format!(
                "protocol version {version} is not supported; speaking {PROTOCOL_VERSION}"
            ));
        }
        out.send(&BotMessage::Name(self.name.clone()));
        out.send(&BotMessage::Author(self.author.clone()));
        for spec in &self.specs {
            match spec.validate() {
                Ok(()) => out.send(&BotMessage::Option(spec.clone())),
                Err(e) => out.complain(format!("not announced: {e}")),
            }
        }
        out.send(&BotMessage::AboureOk);
    }

    fn set_option(&self, name: &str, value: &str) {
        let out = &self.shared.out;
        let Some(spec) = self.specs.iter().find(|s| s.name == name) else {
            out.complain(format!("ignored setoption: no option named {name}"));
            return;
        };
        let value = match spec.check_value(value) {
            Ok(v) => v,
            Err(e) => return out.complain(format!("ignored setoption: {e}")),
        };
        if self.thinking() {
            return out.complain("ignored setoption: still thinking (send stop first)");
        }
        if let Err(e) = self.lock_player().set_option(name, &value) {
            out.complain(format!("ignored setoption {name}: {e}"));
        }
    }

    fn go(&mut self, go: Go) {
        let out = &self.shared.out;
        let started = Instant::now();
        if self.thinking() {
            return out.complain("ignored go: already thinking");
        }
        let (position, history) = self.game.clone();
        let legal = position.legal_moves();
        match legal.as_slice() {
            [] => {
                out.complain(format!("the game is over in {position}: there is no move"));
                return out.send(&BotMessage::BestMove(Move::Pass));
            }
            [Move::Pass] => return out.send(&BotMessage::BestMove(Move::Pass)),
            _ => {}
        }
        let limits = go.limits(position.side_to_move());
        let shared = self.shared;
        shared.stop.store(false, Ordering::SeqCst);
        shared.thinking.store(true, Ordering::SeqCst);
        let job = Job {
            started,
            position,
            history,
            limits,
            legal,
        };
        if self.jobs.send(job).is_err() {
            // The search thread is gone (it cannot be while the loop reads);
            // say so rather than leave the `go` unanswered in silence.
            shared.thinking.store(false, Ordering::SeqCst);
            out.complain("the search thread has ended; playing the first legal move");
            out.send(&BotMessage::BestMove(legal[0]));
        }
    }
}

/// The search thread: one job at a time until the loop closes the channel.
fn search_all<P: Player, W: Write>(shared: &Shared<P, W>, queue: Receiver<Job>) {
    for job in queue {
        search(shared, job);
    }
}

/// Runs one `go` and writes its `bestmove` (a legal one, whatever the
/// player did).
fn search<P: Player, W: Write>(shared: &Shared<P, W>, job: Job) {
    let Job {
        started,
        position,
        history,
        limits,
        legal,
    } = job;
    let mut search = Thinking { started, shared };
    let chosen = {
        let mut player = shared.player.lock().unwrap_or_else(|e| e.into_inner());
        catch_unwind(AssertUnwindSafe(|| {
            player.choose(&position, &history, &limits, &mut search)
        }))
    };
    shared.thinking.store(false, Ordering::SeqCst);
    let fallback = legal[0];
    let m = match chosen {
        Ok(m) if legal.contains(m) => m,
        Ok(m) => {
            shared.out.complain(format!(
                "the player chose {m}, which is not legal in {position}; playing {fallback}"
            ));
            fallback
        }
        Err(_) => {
            shared.out.complain(format!(
                "the player failed in {position}; playing {fallback}"
            ));
            fallback
        }
    };
    shared.out.send(&BotMessage::BestMove(m));
}

/// The [`Search`] handed to [`Player::choose`].
struct Thinking<'a, P, W> {
    started: Instant,
    shared: &'a Shared<P, W>,
}

impl<P, W: Write> Search for Thinking<'_, P, W> {
    fn started(&self) -> Instant {
        self.started
    }

    fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }

    fn info(&mut self, info: &SearchInfo) {
        self.shared.out.send(&BotMessage::Info(info.clone()));
    }
}
