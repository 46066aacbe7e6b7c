//! Scoring one SPSA iteration through the bot's processes: a tournament of
//! game pairs between the two points (`games`), or each point's moves in
//! the sample's positions (`accuracy`); and the confirming SPRT.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use aboure_process::{BotProcess, Launch};
use aboure_protocol::{ArbiterMessage, GameSoFar, Start};
use aboure_records::TuneConfirm;
use aboure_spsa::{Parameter, Probe};
use aboure_stats::SprtDecision;
use tokio::sync::watch;

use super::sample::Scored;
use super::{check_declared, TuneError, TuneOptions};
use aboure_arbiter::Clock;
use aboure_arbiter::RunError;
use aboure_arbiter::{launches, KeptBots, QUIT_GRACE};
use aboure_arbiter::{Event, RunOptions};
use aboure_config::{Config, Objective, ProbeFormat, Tune};

/// What an iteration measured.
pub(super) struct Score {
    /// The plus point's score minus the minus point's.
    pub(super) gain: f64,
    /// The minus point's mean seeds lost a move (accuracy).
    pub(super) loss: Option<f64>,
    /// Games played.
    pub(super) games: u64,
}

/// Runs the probes of a tune.
pub(super) struct Runner<'a> {
    config: &'a Config,
    tune: &'a Tune,
    out_dir: PathBuf,
    aboure_exe: PathBuf,
    interrupt: watch::Receiver<bool>,
    sandbox: Arc<aboure_sandbox::Sandbox>,
    /// The parameters, typed int or float by the bot's declarations once
    /// `check_declared` has read them.
    parameters: Vec<Parameter>,
    /// Play the tournaments as a `--join` worker (`aboure tune --join`).
    join: bool,
    /// The bot processes kept from one iteration's games to the next, so
    /// that an iteration pays for its games, not for starting processes.
    kept: Arc<KeptBots>,
}

impl<'a> Runner<'a> {
    pub(super) fn new(
        config: &'a Config,
        tune: &'a Tune,
        options: &TuneOptions,
    ) -> Result<Runner<'a>, TuneError> {
        let mut sandbox = aboure_sandbox::Sandbox::new(config.sandbox(), &options.aboure_exe)
            .map_err(RunError::from)?;
        // As `aboure run` does: the file and the results hidden, each bot's
        // files its own (masks, one uid per bot, the paths it names
        // checked as that uid).
        sandbox.hide([config.path().to_owned(), options.out_dir.clone()]);
        for bot in config.bots() {
            let (program, args) = bot.command_line(&options.aboure_exe);
            sandbox
                .register_bot(
                    bot.name(),
                    (&program, &args),
                    bot.workdir(),
                    bot.sandbox(),
                    &bot.launch(),
                )
                .map_err(RunError::from)?;
        }
        Ok(Runner {
            config,
            tune,
            out_dir: options.out_dir.clone(),
            aboure_exe: options.aboure_exe.clone(),
            interrupt: options.interrupt.clone(),
            sandbox: Arc::new(sandbox),
            parameters: tune.parameters().to_vec(),
            join: options.join,
            kept: Arc::new(KeptBots::new()),
        })
    }

    /// Quits the bot processes kept between iterations.
    pub(super) async fn close(&self) {
        self.kept.quit_all().await;
    }

    fn bot_name(&self) -> &str {
        self.config.bot(self.tune.bot()).name()
    }

    fn run_options(&self, dir: PathBuf) -> RunOptions {
        RunOptions {
            out_dir: dir,
            // Each tournament of the tune is resumed if it was begun: its
            // schedule depends only on the file and the iteration.
            resume: true,
            concurrency: None,
            shard: None,
            slice: false,
            join: self.join,
            log_protocol: false,
            aboure_exe: self.aboure_exe.clone(),
            interrupt: self.interrupt.clone(),
            observer: Arc::new(|_: &Event| {}),
            kept: Some(self.kept.clone()),
        }
    }

    /// How to start the tuned bot with `options` over its own, as `name`.
    fn launch(&self, name: &str, options: BTreeMap<String, String>) -> Result<Launch, TuneError> {
        let derived = self.config.probe_match(
            vec![(name.to_owned(), options)],
            None,
            ProbeFormat::Pairs(1),
            self.config.seed(),
        );
        let logs = self.out_dir.join("logs");
        std::fs::create_dir_all(&logs)
            .map_err(RunError::io(format!("cannot create {}", logs.display())))?;
        let options = self.run_options(self.out_dir.clone());
        let mut all = launches(&derived, &options, &logs, self.sandbox.clone())?;
        Ok(all.remove(0))
    }

    /// Starts the bot once and checks the parameters against the options
    /// it declares; returns them, each typed as the bot declares it.
    pub(super) async fn check_declared(&mut self) -> Result<Vec<Parameter>, TuneError> {
        let launch = self.launch(self.bot_name(), BTreeMap::new())?;
        let bot = BotProcess::start(&launch)
            .await
            .map_err(|f| TuneError::Bot {
                bot: self.bot_name().to_owned(),
                iteration: 0,
                detail: f.detail,
            })?;
        let declared = bot.declared_options().to_vec();
        bot.quit(QUIT_GRACE).await;
        self.parameters = check_declared(self.bot_name(), self.tune.parameters(), &declared)?;
        Ok(self.parameters.clone())
    }

    /// The accuracy objective's sample, computed once per tune (on the
    /// blocking pool: it plays games and solves positions).
    pub(super) async fn sample(&self) -> Result<Option<Arc<Vec<Scored>>>, TuneError> {
        let Objective::Accuracy { positions } = self.tune.objective() else {
            return Ok(None);
        };
        let seed = self.config.seed();
        let sample =
            tokio::task::spawn_blocking(move || super::sample(positions as usize, seed).positions)
                .await
                .map_err(|source| RunError::TaskFailed {
                    what: "sample",
                    source,
                })?;
        Ok(Some(Arc::new(sample)))
    }

    /// Scores the two points of `probe`.
    pub(super) async fn score(
        &self,
        probe: &Probe,
        sample: Option<&Vec<Scored>>,
    ) -> Result<Score, TuneError> {
        match (self.tune.objective(), sample) {
            (Objective::Accuracy { .. }, Some(sample)) => self.accuracy(probe, sample).await,
            (Objective::Games { pairs }, _) => self.games(probe, pairs).await,
            (Objective::Accuracy { .. }, None) => {
                unreachable!("the accuracy objective has its sample")
            }
        }
    }

    fn names(&self) -> [String; 2] {
        let bot = self.bot_name();
        [format!("{bot}-plus"), format!("{bot}-minus")]
    }

    async fn games(&self, probe: &Probe, pairs: u32) -> Result<Score, TuneError> {
        let [plus, minus] = self.names();
        let derived = self.config.probe_match(
            vec![
                (plus.clone(), options_for(&self.parameters, &probe.plus)),
                (minus.clone(), options_for(&self.parameters, &probe.minus)),
            ],
            self.tune.opponent(),
            ProbeFormat::Pairs(pairs),
            self.config.seed().wrapping_add(u64::from(probe.iteration)),
        );
        let dir = self
            .out_dir
            .join("iterations")
            .join(format!("{:05}", probe.iteration));
        let summary = aboure_arbiter::run(&derived, self.run_options(dir)).await?;
        if summary.interrupted {
            return Err(TuneError::Interrupted(probe.iteration - 1));
        }
        let net = |name: &str| {
            summary
                .standings
                .iter()
                .find(|s| s.name == name)
                .map_or(0.0, |s| s.wdl.wins as f64 - s.wdl.losses as f64)
        };
        // Head to head this is the plus side's wins minus losses (fishtest's
        // gain); against an opponent, the difference of the two, halved.
        let gain = (net(&plus) - net(&minus)) / 2.0;
        Ok(Score {
            gain,
            loss: None,
            games: summary.finished as u64,
        })
    }

    async fn accuracy(&self, probe: &Probe, sample: &[Scored]) -> Result<Score, TuneError> {
        let [plus, minus] = self.names();
        let plus = self.launch(&plus, options_for(&self.parameters, &probe.plus))?;
        let minus = self.launch(&minus, options_for(&self.parameters, &probe.minus))?;
        let control = self.config.bot(self.tune.bot()).time_control();
        let (a, b) = tokio::join!(
            seeds_lost(&plus, sample, control, probe.iteration),
            seeds_lost(&minus, sample, control, probe.iteration)
        );
        let (a, b) = (a?, b?);
        Ok(Score {
            gain: b - a,
            loss: Some(b),
            games: 0,
        })
    }

    /// The SPRT of the bot at `values` against it at the start values.
    pub(super) async fn confirm(
        &self,
        values: &[f64],
        format: ProbeFormat,
    ) -> Result<TuneConfirm, TuneError> {
        let bot = self.bot_name();
        let tuned = format!("{bot}-tuned");
        let start: Vec<f64> = self.tune.parameters().iter().map(|p| p.start).collect();
        let derived = self.config.probe_match(
            vec![
                (tuned.clone(), options_for(&self.parameters, values)),
                (
                    format!("{bot}-start"),
                    options_for(&self.parameters, &start),
                ),
            ],
            None,
            format,
            self.config.seed(),
        );
        let summary =
            aboure_arbiter::run(&derived, self.run_options(self.out_dir.join("confirm"))).await?;
        if summary.interrupted {
            return Err(TuneError::Interrupted(self.tune.spsa().iterations));
        }
        let (verdict, description) = match &summary.sprt {
            Some((status, text)) => (
                match status.status.decision {
                    SprtDecision::AcceptH1 => "H1 accepted",
                    SprtDecision::AcceptH0 => "H0 accepted",
                    SprtDecision::Continue => "undecided",
                },
                text.clone(),
            ),
            None => ("undecided", String::new()),
        };
        let points = summary
            .standings
            .iter()
            .find(|s| s.name == tuned)
            .map_or(0.0, |s| s.points());
        Ok(TuneConfirm {
            verdict: verdict.to_owned(),
            description,
            games: summary.finished as u64,
            points,
        })
    }
}

/// Mean seeds lost a move by the bot of `launch` over `sample`: one
/// process, one `newgame`, the move of each position asked for under the
/// bot's time control, back to back (no round trip for an `isready` in
/// between; a second answer to one `go` still fails the bot). A move past
/// its time counts as the worst move.
async fn seeds_lost(
    launch: &Launch,
    sample: &[Scored],
    control: aboure_config::TimeControl,
    iteration: u32,
) -> Result<f64, TuneError> {
    let failed = |detail: String| TuneError::Bot {
        bot: launch.name.clone(),
        iteration,
        detail,
    };
    let mut bot = BotProcess::start(launch)
        .await
        .map_err(|f| failed(f.detail))?;
    // One `newgame` for the whole sample: each `position` names its start.
    if let Err(f) = bot.new_game().await {
        bot.kill().await;
        return Err(failed(f.detail));
    }
    let mut lost = 0i64;
    for s in sample {
        let mut clocks = [Clock::new(control), Clock::new(control)];
        let mover = s.position.side_to_move();
        let go = aboure_arbiter::go_message(&clocks, mover);
        let position = ArbiterMessage::Position(GameSoFar {
            start: Start::Set(s.position),
            moves: Vec::new(),
        });
        // Back to back: each answer's `isready` fence goes out with the
        // next position and `go` (the last one is checked below).
        let answer = match bot
            .think_next(&position, &go, clocks[mover.index()].deadline())
            .await
        {
            Ok(a) => a,
            Err(f) => {
                bot.kill().await;
                return Err(failed(f.detail));
            }
        };
        let in_time = clocks[mover.index()].charge(answer.elapsed).is_ok();
        lost += s.loss(in_time.then_some(answer.mv));
    }
    if let Err(f) = bot.check_unasked().await {
        bot.kill().await;
        return Err(failed(f.detail));
    }
    bot.quit(QUIT_GRACE).await;
    Ok(lost as f64 / sample.len().max(1) as f64)
}

/// The options that give a bot the values `values` of `parameters`: an
/// int's rounded value (`0`, never `-0`), a float's in the shortest decimal
/// that reads back as the same double (`0.7`).
fn options_for(parameters: &[Parameter], values: &[f64]) -> BTreeMap<String, String> {
    parameters
        .iter()
        .zip(values)
        .map(|(p, v)| {
            let sent = p.sent(*v);
            let text = match p.integer {
                true => (sent as i64).to_string(),
                false => sent.to_string(),
            };
            (p.name.clone(), text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_int_is_sent_rounded_and_a_float_exactly() {
        let int = Parameter {
            integer: true,
            ..Parameter::real("w", 0.0, -10.0, 10.0, 1.0).unwrap()
        };
        let float = Parameter::real("c", 0.5, 0.0, 10.0, 0.1).unwrap();
        let odd = 0.1 + 0.2;
        let sent = options_for(&[int, float], &[-0.3, odd]);
        assert_eq!(sent["w"], "0");
        assert_eq!(sent["c"].parse::<f64>().unwrap().to_bits(), odd.to_bits());
        assert_eq!(sent["c"], "0.30000000000000004");
    }
}
