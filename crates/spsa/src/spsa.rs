//! The SPSA iteration, with fishtest's and OpenBench's conventions.
//!
//! Per parameter with step `c_end` (the user's `step`) over `N` iterations,
//! fishtest (`server/fishtest/rundb.py`, `spsa_handler.py`) derives
//!
//! - `c = c_end * N^gamma`, so that `c_k = c / k^gamma` reaches `c_end` at
//!   the last iteration `k = N`;
//! - `a = r_end * c_end^2 * (A + N)^alpha`, so that
//!   `a_k = a / (A + k)^alpha` ends at `a_N = r_end * c_end^2`;
//!   `r_end = a_end / c_end^2` is the learning rate at the end, 0.002 by
//!   fishtest's default;
//!
//! and steps `theta += a_k / c_k * gain * delta`, with `gain` the plus
//! side's score minus the minus side's (fishtest: wins minus losses of the
//! game pairs) and `delta` a Rademacher vector (each entry +1 or -1 with
//! equal chance). `alpha = 0.602`, `gamma = 0.101` and `A = N / 10` are
//! Spall's recommended values ("Implementation of the simultaneous
//! perturbation algorithm for stochastic optimization", IEEE Trans. AES 34(3),
//! 1998), the ones fishtest and OpenBench default to.
//!
//! The perturbation of iteration `k` is drawn from a ChaCha8 stream chosen by
//! `(seed, k)`, so it depends on nothing but the seed and the iteration:
//! resuming from a saved [`SpsaState`] draws the same perturbations again.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::{Parameter, ParameterError};

/// How SPSA moves: the budget and the gain sequences' shapes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaSettings {
    /// The number of iterations `N` the gain sequences are planned for.
    pub iterations: u32,
    /// Decay of the step size `a_k`: Spall's 0.602.
    pub alpha: f64,
    /// Decay of the perturbation `c_k`: Spall's 0.101.
    pub gamma: f64,
    /// The stability constant `A`: by default a tenth of the iterations.
    pub stability: f64,
    /// The learning rate at the end, `a_N / c_N^2`: fishtest's 0.002.
    pub r_end: f64,
}

impl SpsaSettings {
    /// The literature's defaults for a tune of `iterations` iterations.
    pub fn for_iterations(iterations: u32) -> Self {
        Self {
            iterations,
            alpha: 0.602,
            gamma: 0.101,
            stability: 0.1 * f64::from(iterations),
            r_end: 0.002,
        }
    }
}

/// Everything a tune needs to continue exactly where it stopped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaState {
    /// The seed of the perturbations.
    pub seed: u64,
    /// Iterations completed.
    pub iteration: u32,
    /// The current values, real even for integer parameters.
    pub theta: Vec<f64>,
}

/// The two points one iteration scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    /// The iteration, from 1.
    pub iteration: u32,
    /// The direction: +1 or -1 per parameter.
    pub delta: Vec<f64>,
    /// The perturbation size `c_k` per parameter.
    pub c: Vec<f64>,
    /// The values to send for `theta + c_k * delta` (clamped, rounded).
    pub plus: Vec<f64>,
    /// The values to send for `theta - c_k * delta` (clamped, rounded).
    pub minus: Vec<f64>,
}

/// Why a tune cannot start, resume or take a result.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpsaError {
    /// A parameter is invalid, or two share a name.
    #[error(transparent)]
    Parameter(#[from] ParameterError),
    /// A setting is out of its range (`iterations` at least 1, `alpha`,
    /// `gamma` and `r_end` positive, `A` not negative).
    #[error("SPSA setting {key} = {value} is out of range")]
    BadSetting {
        /// The setting's name.
        key: &'static str,
        /// Its value.
        value: f64,
    },
    /// A saved state does not fit the parameters.
    #[error("the saved state has {state} values for {parameters} parameters")]
    StateMismatch {
        /// Values in the state.
        state: usize,
        /// Parameters of the tune.
        parameters: usize,
    },
    /// A result came for an iteration other than the next one.
    #[error("a result for iteration {got} while iteration {expected} is next")]
    StaleProbe {
        /// The next iteration.
        expected: u32,
        /// The result's iteration.
        got: u32,
    },
}

/// A tune in progress: the parameters, the settings and the state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    parameters: Vec<Parameter>,
    settings: SpsaSettings,
    state: SpsaState,
}

impl Spsa {
    /// A tune from the parameters' start values.
    pub fn new(
        parameters: Vec<Parameter>,
        settings: SpsaSettings,
        seed: u64,
    ) -> Result<Self, SpsaError> {
        let theta = parameters.iter().map(|p| p.start).collect();
        Self::resume(
            parameters,
            settings,
            SpsaState {
                seed,
                iteration: 0,
                theta,
            },
        )
    }

    /// A tune continued from a saved state.
    pub fn resume(
        parameters: Vec<Parameter>,
        settings: SpsaSettings,
        state: SpsaState,
    ) -> Result<Self, SpsaError> {
        check_parameters(&parameters)?;
        check_settings(&settings)?;
        if state.theta.len() != parameters.len() {
            return Err(SpsaError::StateMismatch {
                state: state.theta.len(),
                parameters: parameters.len(),
            });
        }
        Ok(Self {
            parameters,
            settings,
            state,
        })
    }

    /// The parameters.
    pub fn parameters(&self) -> &[Parameter] {
        &self.parameters
    }

    /// The settings.
    pub fn settings(&self) -> &SpsaSettings {
        &self.settings
    }

    /// The state to save after each iteration.
    pub fn state(&self) -> &SpsaState {
        &self.state
    }

    /// Whether the planned iterations are done.
    pub fn finished(&self) -> bool {
        self.state.iteration >= self.settings.iterations
    }

    /// The current values as sent to the bot (clamped, rounded).
    pub fn sent(&self) -> Vec<f64> {
        self.parameters
            .iter()
            .zip(&self.state.theta)
            .map(|(p, &t)| p.sent(t))
            .collect()
    }

    /// The two points of the next iteration.
    pub fn probe(&self) -> Probe {
        let k = self.state.iteration + 1;
        let mut rng = ChaCha8Rng::seed_from_u64(self.state.seed);
        rng.set_stream(u64::from(k));
        let mut probe = Probe {
            iteration: k,
            delta: vec![],
            c: vec![],
            plus: vec![],
            minus: vec![],
        };
        for (p, &theta) in self.parameters.iter().zip(&self.state.theta) {
            let delta = if rng.gen::<bool>() { 1.0 } else { -1.0 };
            let c = self.c_k(p, k);
            probe.plus.push(p.sent(theta + c * delta));
            probe.minus.push(p.sent(theta - c * delta));
            probe.delta.push(delta);
            probe.c.push(c);
        }
        probe
    }

    /// Steps theta by the result of `probe`: `gain` is the score of
    /// `probe.plus` minus the score of `probe.minus` (higher is better).
    pub fn update(&mut self, probe: &Probe, gain: f64) -> Result<(), SpsaError> {
        let expected = self.state.iteration + 1;
        if probe.iteration != expected || probe.delta.len() != self.parameters.len() {
            return Err(SpsaError::StaleProbe {
                expected,
                got: probe.iteration,
            });
        }
        let k = probe.iteration;
        for (i, p) in self.parameters.iter().enumerate() {
            let step = self.a_k(p, k) / probe.c[i] * gain * probe.delta[i];
            self.state.theta[i] = p.clamp(self.state.theta[i] + step);
        }
        self.state.iteration = k;
        Ok(())
    }

    /// `c_k = c_end * (N / k)^gamma`.
    fn c_k(&self, p: &Parameter, k: u32) -> f64 {
        let n = f64::from(self.settings.iterations);
        p.step * (n / f64::from(k)).powf(self.settings.gamma)
    }

    /// `a_k = r_end * c_end^2 * ((A + N) / (A + k))^alpha`.
    fn a_k(&self, p: &Parameter, k: u32) -> f64 {
        let s = &self.settings;
        let ratio = (s.stability + f64::from(s.iterations)) / (s.stability + f64::from(k));
        s.r_end * p.step * p.step * ratio.powf(s.alpha)
    }
}

fn check_parameters(parameters: &[Parameter]) -> Result<(), ParameterError> {
    if parameters.is_empty() {
        return Err(ParameterError::Empty);
    }
    for (i, p) in parameters.iter().enumerate() {
        Parameter::checked(&p.name, p.start, p.min, p.max, p.step, p.integer)?;
        if parameters[..i].iter().any(|q| q.name == p.name) {
            return Err(ParameterError::Duplicate {
                name: p.name.clone(),
            });
        }
    }
    Ok(())
}

fn check_settings(s: &SpsaSettings) -> Result<(), SpsaError> {
    let bad = |key, value: f64, ok: bool| {
        if ok {
            Ok(())
        } else {
            Err(SpsaError::BadSetting { key, value })
        }
    };
    let positive = |x: f64| x.is_finite() && x > 0.0;
    bad("iterations", f64::from(s.iterations), s.iterations > 0)?;
    bad("alpha", s.alpha, positive(s.alpha))?;
    bad("gamma", s.gamma, positive(s.gamma))?;
    bad("r_end", s.r_end, positive(s.r_end))?;
    bad(
        "A",
        s.stability,
        s.stability.is_finite() && s.stability >= 0.0,
    )
}
