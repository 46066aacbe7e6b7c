//! Joining a run folder as a worker: its claims folder, and its entry in
//! the roster (`claims/worker-NAME`, locked while the worker lives). Every
//! format that shares a folder enrols the same way, so the roster and the
//! signatures of every claim name workers alike.

use std::path::Path;

use crate::mount::Locking;
use crate::{ClaimDir, Error, WorkerFile};

/// Who a worker is, as its claims and its roster entry say.
#[derive(Clone, Debug)]
pub struct Enrolment<'a> {
    /// The worker's name (`K-of-N`, `w-HOST-PID`, `main`).
    pub name: &'a str,
    /// The machine it runs on.
    pub host: &'a str,
    /// Games it plays at once.
    pub concurrency: usize,
    /// The name of its own results file in the run folder.
    pub results: &'a str,
    /// Other workers may share the folder (`--shard`, `--join`): its
    /// mount's locks must exclude across machines. A run alone in its
    /// folder (one process, a `--slice`) needs no more than this machine.
    pub shared: bool,
}

/// Enrols a worker in the run folder `run_dir`: creates `claims/` if
/// needed, and registers the worker (refused if a live worker has its
/// name).
pub fn enrol(run_dir: &Path, who: &Enrolment) -> Result<(ClaimDir, WorkerFile), Error> {
    if who.shared {
        check_mount(run_dir)?;
    }
    let about = format!(
        "worker {} host {} pid {}",
        who.name,
        who.host,
        std::process::id()
    );
    let claims = ClaimDir::new(run_dir, about.clone()).map_err(Error::io(format!(
        "cannot create the claims folder in {}",
        run_dir.display()
    )))?;
    let worker = WorkerFile::register(
        claims.dir(),
        who.name,
        &format!("{about} games at once {}", who.concurrency),
        who.results,
    )
    .map_err(Error::io(format!(
        "cannot register in {}",
        claims.dir().display()
    )))?
    .ok_or_else(|| Error::NameTaken {
        name: who.name.to_owned(),
        dir: run_dir.to_owned(),
    })?;
    Ok((claims, worker))
}

/// Refuses a run folder whose mount keeps locks on this machine, and
/// warns of one whose locks exclude only clients of its NFS version
/// ([`crate::mount`]).
fn check_mount(run_dir: &Path) -> Result<(), Error> {
    match crate::mount::locking_of(run_dir) {
        Locking::Shared => {}
        Locking::Warn(why) => tracing::warn!("{why}"),
        Locking::Local(option) => {
            let allowed = std::env::var(crate::mount::LOCAL_LOCKS_ENV).is_ok_and(|v| v == "1");
            if !allowed {
                return Err(Error::LocalLocks {
                    dir: run_dir.to_owned(),
                    option,
                });
            }
            tracing::warn!(
                "{} is on a mount with {option}: its locks stay on this machine ({}=1)",
                run_dir.display(),
                crate::mount::LOCAL_LOCKS_ENV
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_workers_name_is_refused_and_free_again_once_it_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let who = Enrolment {
            name: "1-of-2",
            host: "here",
            concurrency: 3,
            results: "games-1-of-2.jsonl",
            shared: true,
        };
        let (claims, first) = enrol(dir.path(), &who).unwrap();
        assert_eq!(
            claims.holder(),
            format!("worker 1-of-2 host here pid {}", std::process::id())
        );
        let again = enrol(dir.path(), &who).unwrap_err();
        assert!(
            matches!(&again, Error::NameTaken { name, .. } if name == "1-of-2"),
            "{again}"
        );
        drop(first);
        assert!(enrol(dir.path(), &who).is_ok());
    }
}
