//! A build's folder, given whole to its bot's uid before the build runs:
//! the folder is the bot's to rebuild in place, whatever uid left its
//! files there (an earlier build whose bot got another uid, because its
//! own was held by another run; the operator building by hand). Only the
//! build's sandbox does this: a game's `write` paths are given at their
//! top only.

use std::os::fd::AsFd;
use std::path::Path;

use crate::error::SandboxError;
use crate::jail::Sandbox;
use crate::paths::normal;

impl Sandbox {
    /// Gives bot `name`, where it has a uid of its own, everything in
    /// `folder` (its build's folder, already given to it as a `write`
    /// path): what an earlier build left there as another uid, or the
    /// operator built by hand, is rebuilt in place. The folder is reached
    /// without following a link a bot may have planted, and walked by
    /// descriptor (see [`crate::tree::give_all`]).
    pub fn give_folder(&self, name: &str, folder: &Path) -> Result<(), SandboxError> {
        let claims = self.claims.lock().unwrap_or_else(|e| e.into_inner());
        let Some(identity) = claims.get(name).map(|c| c.identity()) else {
            return Ok(());
        };
        let folder = normal(folder);
        let prepare_err = |source| SandboxError::Prepare {
            bot: name.to_owned(),
            path: folder.clone(),
            source,
        };
        let top = crate::spelled::open_folder(&folder, &self.operators()).map_err(prepare_err)?;
        let mut budget = crate::occupied::FILE_SEARCH;
        let owner = (identity.uid, identity.gid);
        crate::tree::give_all(top.as_fd(), &folder, owner, &mut budget).map_err(prepare_err)
    }
}
