//! The run's bots as the sandbox knows them before any starts: what each
//! must not see of the others (their own files and `write` paths, hidden
//! by masks in the constructed root), the `write` paths no two may share,
//! each bot's one uid for the whole run, and the run's memory bound.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::SandboxError;
use crate::hardlink::shared_inode;
use crate::identity::{self, Claim};
use crate::jail::Sandbox;
use crate::own::resolve;
use crate::paths::normal;
use crate::plan::Identity;
use crate::registered::RegisteredBot;
use crate::settings::Policy;
use crate::view::Command;

impl Sandbox {
    /// Hides `paths` from every bot (the tournament file, with every bot's
    /// `env`, and the results folder), even where they lie in a folder a
    /// bot may read or write.
    ///
    /// No bot may be given the folder of these paths whole (see
    /// [`crate::apart`]); what lies beside the tournament file and is as
    /// secret (see [`beside`]) is still masked, and searched for under
    /// other names, where a bot's `read` path names a file there.
    pub fn hide(&mut self, paths: impl IntoIterator<Item = PathBuf>) {
        for path in paths.into_iter().map(|p| normal(&p)) {
            self.beside.extend(beside(&path));
            self.hidden.push(path);
        }
    }

    /// Tells the sandbox of a bot of the run: its own files (its program
    /// outside the system's folders, the files its command names, its own
    /// folders) and its `write` paths are hidden from every other bot, and
    /// a `write` path one bot shares with another is refused (each bot
    /// writes as its own uid: a shared folder would mix their files).
    pub fn register_bot(
        &mut self,
        name: &str,
        command: (&Path, &[String]),
        workdir: &Path,
        policy: &Policy,
        launch: &crate::launch::Launch,
    ) -> Result<(), SandboxError> {
        if self.layers.has("root") || self.layers.has("landlock") {
            let mut held = (self.hidden.iter())
                .filter_map(|h| crate::view::system_holding(h).map(|f| (h.clone(), f)));
            if let Some((path, folder)) = held.next() {
                return Err(SandboxError::InSystemFolder { path, folder });
            }
        }
        let (program, args) = command;
        let program = normal(&resolve(program));
        let workdir = normal(workdir);
        let command = Command {
            program: &program,
            args,
            workdir: &workdir,
            helper: &self.helper,
        };
        self.refuse_links(name, &workdir, policy)?;
        let games = crate::early::Games {
            name,
            program: &program,
            args,
            workdir: &workdir,
            policy,
            launch,
        };
        let mut bot = self.early(&games);
        bot.named = crate::argument::files(command.path_args(), &workdir, &bot.write);
        self.refuse_results_named(name, command.path_args(), &workdir)?;
        bot.files = bot.named.clone();
        bot.files.push(program.clone());
        bot.read = policy.read.iter().map(|p| normal(p)).collect();
        // What is hidden first: its refusals name the file itself.
        self.refuse_what_is_hidden(&bot)?;
        self.refuse_holding_the_tournament(&bot, policy)?;
        self.refuse_linked_secrets(&bot)?;
        self.refuse_named_through_links(&bot)?;
        self.refuse_leading_out(&bot, policy)?;
        if self.gives_identities(policy) {
            // Checked here too, so that the run stops before any game.
            if let Ok(view) = crate::view::View::of(&command, policy) {
                let claim = self.identity_of(name, &bot.write, &view, false)?;
                self.refuse_unreachable(name, &view, claim.identity(), &bot.write)?;
            }
        }
        let write = &bot.write;
        for other in &self.bots {
            let shared = (write.iter())
                .find(|w| (other.write.iter()).any(|o| w.starts_with(o) || o.starts_with(w)));
            if let Some(path) = shared {
                return Err(SandboxError::SharedWrite {
                    bot: name.to_owned(),
                    other: other.name.clone(),
                    path: path.clone(),
                });
            }
        }
        self.bots.push(bot);
        Ok(())
    }

    /// The folders the operator named for the run (the tournament file's
    /// and the results folder's parent): links on the way to them are the
    /// operator's, not a bot's (see [`crate::spelled`]).
    pub(crate) fn operators(&self) -> Vec<PathBuf> {
        (self.hidden.iter())
            .filter_map(|h| h.parent().map(Path::to_owned))
            .collect()
    }

    /// Refuses a bot whose own folders, `read` or `write` paths hold, under a name
    /// of their own, a hard link to the tournament file, another
    /// tournament's file or a results file beside it, or this run's results
    /// (see [`crate::hardlink::linked_secret`]): masks hide those at their
    /// own paths only. The machine's own folders are not searched.
    fn refuse_linked_secrets(&self, bot: &RegisteredBot) -> Result<(), SandboxError> {
        let system = |p: &&PathBuf| {
            ["/usr", "/etc", "/nix", "/bin", "/sbin", "/lib", "/lib64"]
                .iter()
                .any(|s| p.starts_with(s))
        };
        let roots: Vec<PathBuf> = (bot.folders.iter().chain(&bot.read))
            .filter(|p| !system(p))
            .cloned()
            .collect();
        let secret_paths = [&self.hidden[..], &self.beside].concat();
        let secret = crate::hardlink::inodes(&secret_paths);
        let unsearched = |unsearched| SandboxError::Unsearched {
            bot: bot.name.clone(),
            unsearched,
        };
        let linked =
            |roots: &[PathBuf]| crate::hardlink::linked_secret(roots, &secret, &secret_paths);
        // Its `write` paths on their own: a tree there too large to search
        // is the bot's doing, and past `write-size` (see `past_write_size`).
        let found = match linked(&roots).map_err(unsearched)? {
            Some(path) => Some(path),
            None => past_write_size(linked(&bot.write), &bot.write).map_err(unsearched)?,
        };
        match found {
            Some(path) => Err(held_there(
                bot,
                path,
                "a hard link to the tournament file or a results file",
            )),
            None => Ok(()),
        }
    }

    /// Refuses a bot whose command names a file through a symbolic link
    /// (its data, `attdata/w.bin -> ../victim/secret.txt`) that leads into
    /// what is hidden from it: the tournament file or a results folder
    /// (beside it too), or another bot's folders and paths outside its own
    /// (either bot registered first). The file is bound from where the
    /// link leads, which no mask at that place would cover; the checks
    /// above read the path as spelled.
    fn refuse_named_through_links(&self, bot: &RegisteredBot) -> Result<(), SandboxError> {
        let refuse = |who: &RegisteredBot, (file, to): (PathBuf, PathBuf), whose: String| {
            Err(SandboxError::Hidden {
                bot: who.name.clone(),
                path: file,
                what: format!("a link to {}, which it leads to: {whose}", to.display()),
            })
        };
        let secret = [&self.hidden[..], &self.beside].concat();
        if let Some(found) = leads_into(bot, &secret) {
            return refuse(bot, found, "the tournament file or a results file".into());
        }
        for other in &self.bots {
            for (inner, outer) in [(bot, other), (other, bot)] {
                let theirs = [&outer.folders[..], &outer.write, &outer.read].concat();
                if let Some(found) = leads_into(inner, &theirs) {
                    return refuse(inner, found, format!("a file of bot {}", outer.name));
                }
            }
        }
        Ok(())
    }

    /// Refuses a bot whose arguments name a path in the tournament file or
    /// the results folder, made or not yet (the results folder is made
    /// after this, and a folder named as the script's would then be bound
    /// whole); unless that folder holds the working directory, where every
    /// relative argument lies.
    fn refuse_results_named(
        &self,
        name: &str,
        args: &[String],
        workdir: &Path,
    ) -> Result<(), SandboxError> {
        let hidden = || (self.hidden.iter()).filter(|h| !workdir.starts_with(h));
        let pieces = args.iter().flat_map(|a| crate::argument::pieces(a));
        let paths = pieces
            .filter(|p| !p.starts_with('-'))
            .map(|p| normal(&workdir.join(p)));
        for path in paths {
            if hidden().any(|h| path.starts_with(h)) {
                return Err(SandboxError::Hidden {
                    bot: name.to_owned(),
                    path,
                    what: "the tournament file or the results folder".into(),
                });
            }
        }
        Ok(())
    }

    /// Refuses a bot whose own files lie in the tournament file or the
    /// results folder, or are, like its `read` paths, another name of one
    /// of them (a hard link, named nowhere: it would be read whole), and a
    /// `read` file that is a tournament file.
    fn refuse_a_hidden_file(&self, bot: &RegisteredBot) -> Result<(), SandboxError> {
        let refuse = |path: &PathBuf, what: &str| {
            Err(SandboxError::Hidden {
                bot: bot.name.clone(),
                path: path.clone(),
                what: what.into(),
            })
        };
        if let Some(path) = bot
            .own()
            .find(|p| self.hidden.iter().any(|h| p.starts_with(h)))
        {
            return refuse(path, "the tournament file or the results folder");
        }
        // A `write` folder holding the results folder (`write = ["out"]`
        // with `--out out/t`) is the bot's: it could plant links where this
        // run's or a later run's results folder and logs are made.
        for path in &bot.write {
            let holds = |h: &&PathBuf| h.starts_with(path) || path.starts_with(h);
            if let Some(hidden) = self.hidden.iter().find(holds) {
                return Err(SandboxError::WriteHoldsHidden {
                    bot: bot.name.clone(),
                    path: path.clone(),
                    hidden: hidden.clone(),
                });
            }
        }
        let roots = [&bot.folders[..], &bot.read].concat();
        let unsearched = |unsearched| SandboxError::Unsearched {
            bot: bot.name.clone(),
            unsearched,
        };
        if let Some(path) = shared_inode(&roots, &[], &self.hidden).map_err(unsearched)? {
            let what = "a hard link to the tournament file or a results file";
            return Err(held_there(bot, path, what));
        }
        // A `read` file with `[[bot]]` tables is a tournament file (a copy
        // of this one, with every bot's `env`), whatever its name.
        match bot.read.iter().find(|p| holds_a_bot_table(p)) {
            Some(path) => refuse(path, "a tournament file (it has [[bot]] tables)"),
            None => Ok(()),
        }
    }

    /// Refuses two bots that would share a folder of one's own: one's own
    /// folder in the other's (unless they are the same program, see
    /// [`crate::launch`]), or one's `write` path in the other's own folder
    /// or `read` path.
    fn refuse_shared_folders(
        &self,
        bot: &RegisteredBot,
        other: &RegisteredBot,
    ) -> Result<(), SandboxError> {
        // Without a sandbox every bot reads every folder anyway.
        let off = self.settings.mode == crate::settings::Mode::Off;
        if let Some(keys) = bot.not_the_same_program(other).filter(|_| !off) {
            return Err(SandboxError::NotSameProgram {
                bot: bot.name.clone(),
                other: other.name.clone(),
                entry: bot.entry.clone().unwrap_or_default(),
                keys: keys.join(", "),
            });
        }
        for (inner, outer) in [(bot, other), (other, bot)] {
            if let Some(path) = inner.folder_inside(outer) {
                return Err(SandboxError::SharedFolder {
                    bot: inner.name.clone(),
                    other: outer.name.clone(),
                    path: path.clone(),
                });
            }
            if let Some((path, place)) = inner.writes_into(outer) {
                return Err(SandboxError::WriteInOthers {
                    bot: inner.name.clone(),
                    path: path.clone(),
                    other: outer.name.clone(),
                    place,
                });
            }
        }
        Ok(())
    }

    /// Refuses a bot whose command names (or whose own folders lie in)
    /// what is hidden from it: the tournament file and the results folder,
    /// another bot's files outside its own folders, or what lies in another
    /// bot's `write` path; and a bot whose `write` path holds another
    /// bot's files. A mask hides such a path inside a folder the bot may
    /// read, but a file bound as the bot's own would be bound whole.
    fn refuse_what_is_hidden(&self, bot: &RegisteredBot) -> Result<(), SandboxError> {
        let refuse = |who: &str, path: &PathBuf, what: String| {
            Err(SandboxError::Hidden {
                bot: who.to_owned(),
                path: path.clone(),
                what,
            })
        };
        self.refuse_a_hidden_file(bot)?;
        let inside = |f: &PathBuf, dirs: &[PathBuf]| dirs.iter().any(|d| f.starts_with(d));
        let elsewhere = |f: &&PathBuf| !inside(f, &bot.folders) && !inside(f, &bot.read);
        if let Some(path) = bot
            .named
            .iter()
            .filter(elsewhere)
            .find(|f| of_a_tournament(f))
        {
            let what = "another tournament's file or results".into();
            return refuse(&bot.name, path, what);
        }
        for other in &self.bots {
            self.refuse_shared_folders(bot, other)?;
            if let Some(path) = bot.names_a_file_of(other) {
                return refuse(&bot.name, path, format!("a file of bot {}", other.name));
            }
            if let Some(path) = other.names_a_file_of(bot) {
                return refuse(&other.name, path, format!("a file of bot {}", bot.name));
            }
            for (inner, outer) in [(bot, other), (other, bot)] {
                let theirs = [&outer.folders[..], &outer.read].concat();
                let mine = [&inner.folders[..], &inner.write, &inner.read].concat();
                let unsearched = |unsearched| SandboxError::Unsearched {
                    bot: inner.name.clone(),
                    unsearched,
                };
                let found = shared_inode(&inner.folders, &mine, &theirs).map_err(unsearched)?;
                let found = match found {
                    Some(path) => Some(path),
                    None => {
                        let written = shared_inode(&inner.folders, &mine, &outer.write);
                        past_write_size(written, &outer.write).map_err(unsearched)?
                    }
                };
                if let Some(path) = found {
                    let what = format!("a hard link to a file of bot {}", outer.name);
                    return Err(held_there(inner, path, &what));
                }
            }
            let holds = |b: &RegisteredBot, a: &RegisteredBot| {
                a.own()
                    .find(|p| b.write.iter().any(|w| p.starts_with(w)))
                    .cloned()
            };
            if let Some(path) = holds(bot, other) {
                return refuse(
                    &bot.name,
                    &path,
                    format!("in its write path, a file of bot {}", other.name),
                );
            }
            if let Some(path) = holds(other, bot) {
                return refuse(
                    &other.name,
                    &path,
                    format!("in its write path, a file of bot {}", bot.name),
                );
            }
        }
        Ok(())
    }

    /// The uid of bot `name` for the whole run: claimed at its first
    /// process and held until the sandbox is dropped, so every process of
    /// it, in every game, is the same user (its files in its `write`
    /// folders stay its own) and no other bot is ever that user. Its
    /// `write` paths are given to it when `hand_over` (at its first process,
    /// never at registration: a later bot's checks may still refuse the run,
    /// and a refused run changes nothing on the host).
    ///
    /// The uid is the bot's own from run to run where it can be (see
    /// [`identity::first_uid`]), and never one the host uses: an account's
    /// or a group's, a running process's, or the owner of a file in what
    /// its `view` binds (an earlier run's bot, given that uid, left it
    /// there). In its `write` paths and its own folders only its own first
    /// uid may own files: they are what it (or its sandboxed build) left
    /// there in an earlier run.
    pub(crate) fn identity_of(
        &self,
        name: &str,
        write: &[PathBuf],
        view: &crate::view::View,
        hand_over: bool,
    ) -> Result<Arc<Claim>, SandboxError> {
        let mut claims = self.claims.lock().unwrap_or_else(|e| e.into_inner());
        let claim = match claims.get(name) {
            Some(claim) => claim.clone(),
            None => {
                let claim = Arc::new(self.new_claim(name, write, view)?);
                claims.insert(name.to_owned(), claim.clone());
                claim
            }
        };
        let mut given = self.given.lock().unwrap_or_else(|e| e.into_inner());
        if hand_over && given.insert(name.to_owned()) {
            // A `write` path not made yet is left out of the view, as before.
            let operators = self.operators();
            for path in write.iter().filter(|p| p.exists()) {
                give(path, &operators, claim.identity()).map_err(|source| {
                    SandboxError::Prepare {
                        bot: name.to_owned(),
                        path: path.clone(),
                        source,
                    }
                })?;
            }
        }
        Ok(claim)
    }

    /// A new uid for bot `name` (see [`Sandbox::identity_of`]).
    fn new_claim(
        &self,
        name: &str,
        write: &[PathBuf],
        view: &crate::view::View,
    ) -> Result<Claim, SandboxError> {
        let range = &self.settings.uids;
        let first = identity::first_uid(name, range);
        let host = crate::occupied::host_ids(range);
        let seen: Vec<PathBuf> = view.needs().into_iter().map(|(path, _)| path).collect();
        // Its own folders are like its `write` paths: its build, sandboxed
        // as this uid, left its program there.
        let mine: Vec<PathBuf> = write.iter().chain(&view.own).cloned().collect();
        let others = crate::occupied::file_owners(&seen, &mine, range);
        let left = crate::occupied::file_owners(&mine, &[], range);
        let usable = |uid: u32| {
            !host.contains(&uid) && !others.contains(&uid) && (uid == first || !left.contains(&uid))
        };
        identity::claim(range, first, usable, Path::new(identity::CLAIMS)).map_err(|source| {
            SandboxError::Claim {
                bot: name.to_owned(),
                source,
            }
        })
    }

    /// Bounds the memory of every bot process of the run together to
    /// `bytes`, or to `run-memory` if that is less (where there is a
    /// memory cgroup): what a process leaves charged behind it stays under
    /// this bound too.
    pub fn bound_memory(&mut self, bytes: u64) {
        self.run_memory = self.run_memory.map(|run| run.min(bytes));
    }

    /// What bot `name` must not see.
    pub(crate) fn hidden_from(&self, name: &str) -> Vec<PathBuf> {
        let others = || self.bots.iter().filter(|bot| bot.name != name);
        let mut hidden = self.hidden.clone();
        hidden.extend(self.beside.iter().cloned());
        hidden.extend(others().flat_map(|bot| bot.own().chain(&bot.write).cloned()));
        // Another bot's `read` paths are its files too, unless this bot was
        // given them as well (a book both read).
        let read: &[PathBuf] =
            (self.bots.iter().find(|bot| bot.name == name)).map_or(&[], |bot| &bot.read);
        let theirs = others().flat_map(|bot| bot.read.iter().cloned());
        hidden.extend(theirs.filter(|p| !read.iter().any(|r| p.starts_with(r))));
        hidden
    }
}

/// The answer of a search for hard links in `write` paths, where a tree
/// too large to search whole counts as nothing found: the bot made it
/// there itself, and it is past `write-size` (the search's bounds are
/// above the usage walk's, see `usage`), so the watch stops each of its
/// processes at its first look, and the run goes on. A search that
/// stopped in another root is still refused.
fn past_write_size(
    found: Result<Option<PathBuf>, crate::hardlink::Unsearched>,
    write: &[PathBuf],
) -> Result<Option<PathBuf>, crate::hardlink::Unsearched> {
    match found {
        Err(stop) if write.contains(&stop.folder) => Ok(None),
        other => other,
    }
}

/// Version control beside a tournament file, which holds every version
/// of it (`.git/objects`).
const VERSION_CONTROL: &[&str] = &[".git", ".hg", ".svn", ".bzr", ".jj", "_darcs", ".fossil"];

/// What lies beside the file `path` (the tournament file) and is as
/// secret: another TOML file or an editor's copy of one (`t.toml~`,
/// `t.toml.bak`, `.t.toml.swp`, `#t.toml#`, `T.TOML`, another tournament's
/// file, with its bots' `env`), any file with a `[[bot]]` table whatever
/// its name, a version-control folder (`.git`, with every version of the
/// file), and a results folder (one holding `run.json` or `games.jsonl`:
/// an earlier run's, with its bots' logs). Nothing for a folder, or a file
/// whose folder cannot be read.
fn beside(path: &Path) -> Vec<PathBuf> {
    let (Some(folder), Some(own)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let secret = |entry: &std::fs::DirEntry| {
        let name = entry.file_name();
        let Ok(meta) = entry.file_type() else {
            return false;
        };
        let results = || {
            ["run.json", "games.jsonl"]
                .iter()
                .any(|f| entry.path().join(f).exists())
        };
        let lower = name.to_string_lossy().to_lowercase();
        let file = || lower.contains(".toml") || holds_a_bot_table(&entry.path());
        name != own
            && (VERSION_CONTROL.contains(&lower.as_str())
                || (!meta.is_dir() && file())
                || (meta.is_dir() && results()))
    };
    entries.flatten().filter(secret).map(|e| e.path()).collect()
}

/// Whether the file `path` is a tournament file (a TOML file with a
/// `[[bot]]` table, in its first 64 KiB) or lies in a results folder (one
/// holding `run.json` and `games.jsonl`): another tournament's, with its
/// bots' `env` and logs, which a bot's command may not name.
fn of_a_tournament(path: &Path) -> bool {
    let results = |dir: &Path| {
        ["run.json", "games.jsonl"]
            .iter()
            .all(|f| dir.join(f).is_file())
    };
    if path.ancestors().skip(1).any(results) {
        return true;
    }
    path.to_string_lossy().contains(".toml") && holds_a_bot_table(path)
}

/// A file `bot`'s command names through a symbolic link, with where the
/// link leads: inside one of `places` (compared resolved) and outside the
/// bot's own folders and `read` paths.
fn leads_into(bot: &RegisteredBot, places: &[PathBuf]) -> Option<(PathBuf, PathBuf)> {
    let real = |p: &PathBuf| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
    let inside = |f: &Path, dirs: &[PathBuf]| dirs.iter().any(|d| f.starts_with(real(d)));
    let own = [&bot.folders[..], &bot.read].concat();
    bot.named.iter().find_map(|file| {
        let to = std::fs::canonicalize(file).ok()?;
        let elsewhere = to != *file && !inside(&to, &own) && inside(&to, places);
        elsewhere.then(|| (file.clone(), to))
    })
}

/// The refusal of `path`, found in `bot`'s folders or paths, being `what`
/// (another name of a file no bot may see), saying where it was found.
fn held_there(bot: &RegisteredBot, path: PathBuf, what: &str) -> SandboxError {
    let (place, folder) = crate::planted::held_in(bot, &path);
    let what = what.into();
    SandboxError::HeldThere {
        bot: bot.name.clone(),
        held: Box::new(crate::error::Held {
            place,
            folder,
            path,
            what,
        }),
    }
}

/// Makes the folder `path` the bot's (owner and group `identity`), reached
/// one component at a time without following a link a bot may have
/// planted (see [`crate::spelled::open_folder`]; `operators` are the
/// folders whose links are the operator's).
fn give(path: &Path, operators: &[PathBuf], identity: Identity) -> std::io::Result<()> {
    let folder = crate::spelled::open_folder(path, operators)?;
    std::os::unix::fs::fchown(&folder, Some(identity.uid), Some(identity.gid))
}

/// Whether the file `path` has a `[[bot]]` line in its first 64 KiB (a
/// tournament file, whatever its name). A regular file only (never a
/// FIFO, which would block the open).
fn holds_a_bot_table(path: &Path) -> bool {
    use std::io::Read;
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut text = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(64 << 10).read_to_end(&mut text));
    read.is_ok()
        && String::from_utf8_lossy(&text)
            .lines()
            .any(|l| l.trim() == "[[bot]]")
}
