//! The rules engine's speed: random playouts from the start position on one
//! thread (`aboure bench engine`), as playouts and moves a second of wall
//! time and playouts a second of the thread's own CPU time.

use std::fmt;
use std::time::{Duration, Instant};

use aboure_engine::{playout, Position};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// What a run of playouts measured.
#[derive(Clone, Debug)]
pub struct PlayoutFigures {
    /// Playouts played.
    pub games: u64,
    /// Plies in all of them.
    pub plies: u64,
    /// Wall time, seconds.
    pub wall: f64,
    /// The thread's CPU time, seconds.
    pub cpu: f64,
}

/// Plays random playouts from the start for about `budget` (the clock is
/// read every 10,000 playouts, so timing costs nothing).
pub fn playouts(budget: Duration) -> PlayoutFigures {
    let start = Position::startpos();
    let mut rng = SmallRng::seed_from_u64(0x5eed);
    let (mut games, mut plies) = (0u64, 0u64);
    let t0 = Instant::now();
    let cpu0 = crate::cpu::thread_seconds();
    while t0.elapsed() < budget {
        for _ in 0..10_000 {
            plies += playout(&start, &mut rng).plies as u64;
        }
        games += 10_000;
    }
    PlayoutFigures {
        games,
        plies,
        wall: t0.elapsed().as_secs_f64(),
        cpu: crate::cpu::thread_seconds() - cpu0,
    }
}

impl fmt::Display for PlayoutFigures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (games, plies) = (self.games as f64, self.plies as f64);
        writeln!(
            f,
            "playouts {} in {:.2}s wall, {:.2}s cpu",
            self.games, self.wall, self.cpu
        )?;
        writeln!(f, "playouts/s {:.0}", games / self.wall)?;
        writeln!(f, "moves/s {:.0}", plies / self.wall)?;
        writeln!(f, "plies/playout {:.1}", plies / games)?;
        // On a busy machine wall-clock rates understate the engine; the rate
        // per second of this thread's CPU time does not.
        write!(f, "playouts/cpu-s {:.0}", games / self.cpu)
    }
}
