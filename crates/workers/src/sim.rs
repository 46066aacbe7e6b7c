//! The claim protocol against an in-memory model of the claim folder
//! (names, files, `flock`s, who signed each file) and of the log of
//! finished units, with proptest choosing any interleaving of the
//! workers' steps, their deaths, late starts and restarts, and locks lost
//! behind a live worker's back (an NFS lease expired while it was cut
//! off): every game ends up recorded exactly once, and the log holds only
//! games recorded. The check before a write and the write are separate
//! steps, and so are logging a unit and removing its claim file, so two
//! workers that both thought they held a unit would both write: the
//! claims, not the interleaving, keep the records single. As the real
//! workers do, a worker learns of the others' games from the log, and
//! reads every record only when a claim it holds was signed by another.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::io;
use std::rc::Rc;

use proptest::prelude::*;

use super::{acquire, candidates, Acquire, Claim, ClaimFolder, Ledger, Slice, Step, Unit};

#[derive(Default)]
struct World {
    files: u64,
    handles: usize,
    /// Unit -> the file its name points at.
    names: HashMap<Unit, u64>,
    /// File -> the handle holding its lock.
    locks: HashMap<u64, usize>,
    /// Every record written, in order: (unit, game).
    records: Vec<(Unit, u8)>,
    /// The log of finished units, in order: (unit, game).
    log: Vec<(Unit, u8)>,
    /// File -> the worker that signed it last (as it acquired the unit,
    /// or before a write).
    signers: HashMap<u64, usize>,
    /// Workers made so far (each start or restart is a new one).
    workers: usize,
}

#[derive(Clone)]
struct Mem(Rc<RefCell<World>>);

struct MemHandle {
    id: usize,
    file: u64,
    unit: Unit,
    world: Rc<RefCell<World>>,
}

impl Drop for MemHandle {
    // Closing a file (or dying) drops its lock.
    fn drop(&mut self) {
        let mut w = self.world.borrow_mut();
        if w.locks.get(&self.file) == Some(&self.id) {
            w.locks.remove(&self.file);
        }
    }
}

impl ClaimFolder for Mem {
    type Handle = MemHandle;
    fn open(&mut self, unit: Unit) -> io::Result<MemHandle> {
        let mut w = self.0.borrow_mut();
        w.handles += 1;
        let fresh = w.files + 1;
        let file = *w.names.entry(unit).or_insert(fresh);
        w.files = w.files.max(file);
        Ok(MemHandle {
            id: w.handles,
            file,
            unit,
            world: self.0.clone(),
        })
    }
    fn try_lock(&mut self, h: &MemHandle) -> io::Result<bool> {
        let mut w = self.0.borrow_mut();
        Ok(*w.locks.entry(h.file).or_insert(h.id) == h.id)
    }
    fn linked(&mut self, h: &MemHandle) -> io::Result<bool> {
        Ok(self.0.borrow().names.get(&h.unit) == Some(&h.file))
    }
    fn unlink(&mut self, h: &MemHandle) -> io::Result<()> {
        let mut w = self.0.borrow_mut();
        if w.names.get(&h.unit) == Some(&h.file) {
            w.names.remove(&h.unit);
        }
        Ok(())
    }
}

enum Phase {
    NotStarted,
    Idle,
    Acquiring(Acquire<MemHandle>),
    /// Holding a unit; playing game `Some(g)`.
    Holding(Claim<MemHandle>, Option<u8>),
    /// Game `g` checked and about to be written.
    Writing(Claim<MemHandle>, u8),
    /// Logged; the claim file is about to be removed.
    Releasing(Claim<MemHandle>),
    Finished,
    Dead,
}

struct Worker {
    me: usize,
    folder: Mem,
    phase: Phase,
    ledger: Ledger,
    logged: Ledger,
    read: usize,
    read_log: usize,
    busy: BTreeSet<Unit>,
    slice: Slice,
    handles: Vec<usize>,
}

impl Worker {
    fn new(world: &Mem, units: Unit, slice: Slice) -> Worker {
        let me = {
            let mut w = world.0.borrow_mut();
            w.workers += 1;
            w.workers
        };
        Worker {
            me,
            folder: world.clone(),
            phase: Phase::NotStarted,
            ledger: Ledger::new(units),
            logged: Ledger::new(units),
            read: 0,
            read_log: 0,
            busy: BTreeSet::new(),
            slice,
            handles: Vec::new(),
        }
    }

    /// Reads what was logged since last time.
    fn refresh(&mut self) {
        let w = self.folder.0.borrow();
        for &(u, g) in &w.log[self.read_log..] {
            self.logged.add(u, g);
            self.ledger.add(u, g);
        }
        self.read_log = w.log.len();
    }

    /// Reads the log, then what was recorded since last time (as a worker
    /// follows the results files).
    fn refresh_all(&mut self) {
        self.refresh();
        let w = self.folder.0.borrow();
        for &(u, g) in &w.records[self.read..] {
            self.ledger.add(u, g);
        }
        self.read = w.records.len();
    }

    /// Signs a claim just acquired; true if another worker had signed it.
    fn sign(&mut self, claim: &Claim<MemHandle>) -> bool {
        let mut w = self.folder.0.borrow_mut();
        w.signers.insert(claim.handle().file, self.me).is_some()
    }

    fn signed_by_me(&self, claim: &Claim<MemHandle>) -> bool {
        self.folder.0.borrow().signers.get(&claim.handle().file) == Some(&self.me)
    }

    /// One step of the worker, whatever its phase.
    fn step(&mut self) {
        let phase = std::mem::replace(&mut self.phase, Phase::Idle);
        self.phase = match phase {
            Phase::NotStarted | Phase::Finished | Phase::Dead => phase,
            Phase::Idle => self.ask(),
            Phase::Acquiring(a) => self.acquiring(a),
            Phase::Holding(claim, None) => self.next_game(claim),
            Phase::Releasing(claim) => {
                claim.release(&mut self.folder).unwrap();
                Phase::Idle
            }
            Phase::Holding(claim, Some(g)) => self.check(claim, g),
            Phase::Writing(claim, g) => {
                self.folder.0.borrow_mut().records.push((claim.unit(), g));
                self.ledger.add(claim.unit(), g);
                Phase::Holding(claim, None)
            }
        }
    }

    /// Idle: the next unit to acquire, if any is left.
    fn ask(&mut self) -> Phase {
        self.refresh();
        let units = self.ledger.units();
        match candidates(0..units, &self.ledger, &self.busy, Some(self.slice), 1)[..] {
            _ if self.ledger.all_done() => Phase::Finished,
            [unit] => Phase::Acquiring(Acquire::Open(unit)),
            // Everything left is held: probe the holders again.
            _ => {
                self.busy.clear();
                Phase::Idle
            }
        }
    }

    /// One step of acquiring a unit: held (and signed), taken by another,
    /// or on to the next step.
    fn acquiring(&mut self, a: Acquire<MemHandle>) -> Phase {
        let unit = match &a {
            Acquire::Open(u) | Acquire::Lock(u, _) | Acquire::Check(u, _) => *u,
        };
        match a.step(&mut self.folder).unwrap() {
            Step::Next(next) => {
                if let Acquire::Lock(_, h) = &next {
                    self.handles.push(h.id);
                }
                Phase::Acquiring(next)
            }
            Step::Held(claim) => {
                match self.sign(&claim) {
                    true => self.refresh_all(),
                    false => self.refresh(),
                }
                Phase::Holding(claim, None)
            }
            Step::Taken(_) => {
                self.busy.insert(unit);
                Phase::Idle
            }
        }
    }

    /// Holding a unit between games: the next game to play, or, both
    /// recorded, the unit logged and released.
    fn next_game(&mut self, claim: Claim<MemHandle>) -> Phase {
        let unit = claim.unit();
        match (0..2).find(|&g| !self.ledger.has(unit, g)) {
            Some(g) => Phase::Holding(claim, Some(g)),
            None => {
                // Logged before the claim file goes, if nobody did.
                let missing: Vec<u8> = (0..2).filter(|&g| !self.logged.has(unit, g)).collect();
                for g in missing {
                    self.folder.0.borrow_mut().log.push((unit, g));
                    self.logged.add(unit, g);
                }
                Phase::Releasing(claim)
            }
        }
    }

    /// Game `g` played: the check before its write.
    fn check(&mut self, claim: Claim<MemHandle>, g: u8) -> Phase {
        // Before the write: under the claim, checked again, and only if no
        // file holds the game yet (all of them read if another signed the
        // claim since).
        let held = claim.still_held(&mut self.folder).unwrap();
        if held && !self.signed_by_me(&claim) {
            self.refresh_all();
        }
        if held {
            self.sign(&claim); // again, before the write
        }
        if !held {
            Phase::Idle
        } else if self.ledger.has(claim.unit(), g) {
            Phase::Holding(claim, None)
        } else {
            Phase::Writing(claim, g)
        }
    }

    /// An NFS lease lost: the server drops this worker's locks; it goes on.
    /// Not between the check and the write (a few microseconds apart):
    /// that is the one case the check cannot fence, and it would take
    /// another worker playing a whole game in those microseconds.
    fn lose_locks(&mut self) {
        if matches!(self.phase, Phase::Writing(..)) {
            return;
        }
        let mut w = self.folder.0.borrow_mut();
        w.locks.retain(|_, holder| !self.handles.contains(holder));
    }
}

#[derive(Clone, Debug)]
enum Action {
    Step(usize),
    Start(usize),
    Kill(usize),
    LoseLocks(usize),
}

fn action(workers: usize) -> impl Strategy<Value = Action> {
    prop_oneof![
        12 => (0..workers).prop_map(Action::Step),
        2 => (0..workers).prop_map(Action::Start),
        1 => (0..workers).prop_map(Action::Kill),
        1 => (0..workers).prop_map(Action::LoseLocks),
    ]
}

fn scenario() -> impl Strategy<Value = (u64, usize, Vec<Action>)> {
    (1u64..10, 1usize..5).prop_flat_map(|(units, workers)| {
        (
            Just(units),
            Just(workers),
            prop::collection::vec(action(workers), 0..150),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_interleaving_records_every_game_exactly_once((units, count, actions) in scenario()) {
        let world = Mem(Rc::new(RefCell::new(World::default())));
        let slice = |k: usize| Slice { index: k as u64, count: count as u64 };
        let mut workers: Vec<Worker> = (0..count).map(|k| Worker::new(&world, units, slice(k))).collect();
        for a in actions {
            match a {
                Action::Step(k) => workers[k].step(),
                Action::Start(k) => {
                    if matches!(workers[k].phase, Phase::NotStarted | Phase::Dead) {
                        // A late start, or a restart after a death.
                        workers[k] = Worker::new(&world, units, slice(k));
                        workers[k].phase = Phase::Idle;
                    }
                }
                Action::Kill(k) => {
                    // Its open files close: the kernel drops its locks.
                    workers[k].phase = Phase::Dead;
                }
                Action::LoseLocks(k) => workers[k].lose_locks(),
            }
        }
        // Whatever happened, the run completes while one worker runs:
        // those alive go on, and if none is, one more starts.
        if !workers.iter().any(|w| matches!(w.phase, Phase::Idle | Phase::Acquiring(_) | Phase::Holding(..) | Phase::Writing(..) | Phase::Releasing(_))) {
            let mut late = Worker::new(&world, units, slice(0));
            late.phase = Phase::Idle;
            workers.push(late);
        }
        for _ in 0..20 * (units as usize + 2) * workers.len() {
            workers.iter_mut().for_each(Worker::step);
        }
        prop_assert!(workers.iter().all(|w| matches!(w.phase, Phase::Finished | Phase::Dead | Phase::NotStarted)));
        let records = world.0.borrow().records.clone();
        let log = world.0.borrow().log.clone();
        prop_assert!(log.iter().all(|e| records.contains(e)), "logged {:?}, recorded {:?}", log, records);
        let mut sorted = records.clone();
        sorted.sort_unstable();
        let expected: Vec<(Unit, u8)> = (0..units).flat_map(|u| [(u, 0), (u, 1)]).collect();
        prop_assert_eq!(sorted, expected, "recorded {:?}", records);
    }
}

#[test]
fn a_slow_worker_whose_lock_was_lost_does_not_write_a_second_record() {
    let world = Mem(Rc::new(RefCell::new(World::default())));
    let (mut slow, mut other) = (world.clone(), world.clone());
    let held = acquire(&mut slow, 0).unwrap().unwrap();
    // Cut off from the server: its lock is dropped, the unit taken over.
    world.0.borrow_mut().locks.clear();
    let taken = acquire(&mut other, 0).unwrap().expect("the lock was lost");
    assert!(taken.still_held(&mut other).unwrap());
    assert!(
        !held.still_held(&mut slow).unwrap(),
        "the slow one must not write"
    );
    taken.release(&mut other).unwrap();
    // Once the unit is finished and its name gone, the old file is no claim.
    assert!(!held.still_held(&mut slow).unwrap());
}
