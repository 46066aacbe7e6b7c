//! A bot's folders apart from the tournament's: no folder the sandbox
//! gives a bot whole (its own folders, its `read` and `write` paths) may
//! be the tournament file's folder, or the results folder's parent, or
//! hold one of them.
//!
//! Why a refusal and not masks: that folder is the operator's, and alive
//! while the run plays. Masks are fixed when a bot's process starts, over
//! what lies there then (the tournament file, the results, other TOML
//! files and results folders beside it); what appears later was in plain
//! sight: an editor's copy of the tournament file (`.t.toml.swp`,
//! `t.toml~`), another tournament started from the same folder
//! (`out/other`), and what lies one level down (`archive/old/run.json`)
//! was never looked for. No list of names closes that; a bot whose files
//! are in a folder of their own never sees the operator's folder at all.
//!
//! Only where the sandbox confines what a bot reads (the constructed root
//! or Landlock): with `mode = "off"` or `sandbox = false` a bot reads
//! every folder its user can, and the rule would protect nothing.

use std::path::{Path, PathBuf};

use crate::error::SandboxError;
use crate::jail::Sandbox;
use crate::registered::RegisteredBot;
use crate::settings::Policy;

impl Sandbox {
    /// Refuses `bot` when one of its own folders, `read` or `write` paths
    /// is or holds the folder of the tournament file or of the results
    /// folder (see the module docs), naming the path and the file.
    pub(crate) fn refuse_holding_the_tournament(
        &self,
        bot: &RegisteredBot,
        policy: &Policy,
    ) -> Result<(), SandboxError> {
        let confined = self.layers.has("root") || self.layers.has("landlock");
        if !confined || !self.judges(policy) {
            return Ok(());
        }
        let places = (bot.folders.iter().map(|p| ("own folder", p)))
            .chain(bot.read.iter().map(|p| ("read path", p)))
            .chain(bot.write.iter().map(|p| ("write path", p)));
        for (what, path) in places {
            if let Some((folder, file)) = self.tournament_folder_in(path) {
                return Err(SandboxError::HoldsTournament {
                    bot: bot.name.clone(),
                    what,
                    relation: if folder == *path { "is" } else { "holds" },
                    places: Box::new([path.clone(), folder, file]),
                });
            }
        }
        Ok(())
    }

    /// The folder of a hidden path (the tournament file, the results
    /// folder) that `path` is or holds, with that hidden path; compared as
    /// spelled and with the links of both resolved.
    fn tournament_folder_in(&self, path: &Path) -> Option<(PathBuf, PathBuf)> {
        let real = |p: &Path| std::fs::canonicalize(p).ok();
        let forms = [Some(path.to_owned()), real(path)];
        self.hidden.iter().find_map(|hidden| {
            let folder = hidden.parent()?;
            let folders = [Some(folder.to_owned()), real(folder)];
            let holds = (forms.iter().flatten())
                .any(|p| folders.iter().flatten().any(|f| f.starts_with(p)));
            holds.then(|| (folder.to_owned(), hidden.clone()))
        })
    }
}
