//! Why a bot cannot be started in its sandbox. Every path these name may
//! be a stranger's bytes (a file name in a submitted folder, a link's
//! target, a folder reached through one): each is shown by
//! [`shown`], the one rule of every output of aboure, so that no escape
//! sequence in it reaches the operator's terminal.

use std::path::PathBuf;

pub(crate) use aboure_process::printable_path as shown;

/// Text that may hold a path (a command line, the system's reason), by
/// the same rule as [`shown`].
fn shown_text(text: &str) -> String {
    aboure_process::printable_bytes(text.as_bytes())
}

/// A file found in a bot's own folder, `read` or `write` path that is
/// another name of what no bot may see (see [`SandboxError::HeldThere`]).
#[derive(Debug)]
pub struct Held {
    /// Where it was found: `own folder`, `read path` or `write path`.
    pub place: &'static str,
    /// That folder or path.
    pub folder: PathBuf,
    /// The file.
    pub path: PathBuf,
    /// What it is another name of.
    pub what: String,
}

impl std::fmt::Display for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let (place, what) = (self.place, shown_text(&self.what));
        match self.folder == self.path {
            true => write!(f, "its {place} {} is {what}", shown(&self.path)),
            false => write!(
                f,
                "its {place} {} holds {}, {what}",
                shown(&self.folder),
                shown(&self.path)
            ),
        }
    }
}

/// Why the sandbox cannot run (a bot, or at all in `strict` mode).
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// `strict` mode and a layer this machine does not allow.
    #[error("sandbox mode \"strict\" needs every layer, and this machine lacks:\n{0}")]
    Missing(String),
    /// A file or folder the sandbox needs could not be made.
    #[error("sandbox of {bot}: cannot prepare {path}: {source}", path = shown(.path))]
    Prepare {
        /// The bot.
        bot: String,
        /// What could not be made.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The bot's program cannot be run.
    #[error(
        "cannot start {program} (in {workdir}): {reason}",
        program = shown(.program), workdir = shown(.workdir), reason = shown_text(.reason)
    )]
    Program {
        /// The program.
        program: PathBuf,
        /// The bot's working directory.
        workdir: PathBuf,
        /// Why.
        reason: String,
    },
    /// A folder of the bot's command is too shared to open as its own.
    #[error("sandbox of {bot} (command: {command}): {refusal}", command = shown_text(.command))]
    OwnFolder {
        /// The bot.
        bot: String,
        /// Its command.
        command: String,
        /// The folder and why.
        refusal: Box<crate::own::Refusal>,
    },
    /// No uid of the range could be claimed for the bot.
    #[error("sandbox of {bot}: {source}")]
    Claim {
        /// The bot.
        bot: String,
        /// Why.
        source: crate::identity::ClaimError,
    },
    /// Two bots were given the same `write` folder (or one inside the
    /// other's).
    #[error(
        "sandbox of {bot}: its write path {path} is shared with bot {other}; \
         each bot writes as its own user, so give each its own folder",
        path = shown(.path)
    )]
    SharedWrite {
        /// The bot.
        bot: String,
        /// The bot it shares with.
        other: String,
        /// The shared path.
        path: PathBuf,
    },
    /// A bot's own folder lies in (or is) another bot's own folder, and the
    /// two do not run the same program.
    #[error(
        "sandbox of {bot}: its folder {path} lies in the folder of bot {other}, whose files \
         it would read; put each bot's files in a folder of their own (two bots share \
         one only when they run the same program)",
        path = shown(.path)
    )]
    SharedFolder {
        /// The bot.
        bot: String,
        /// The bot whose folder it lies in.
        other: String,
        /// The folder.
        path: PathBuf,
    },
    /// Two bots run one program or script, so would share its folder, and
    /// differ in what decides which code runs there (see `launch`).
    #[error(
        "sandbox of {bot}: it shares {entry} (its program or script, or the folder of a \
         build) with bot {other}, and so would share its folder, but their {keys} differ: two bots share a program's folder only when \
         they are the same program (the same env, wrapper, build, workdir and command up \
         to the script; arguments after it and options may differ). Give them the same \
         {keys}, or each a copy of the program in a folder of its own",
        entry = shown(.entry)
    )]
    NotSameProgram {
        /// The bot.
        bot: String,
        /// The bot whose program it runs.
        other: String,
        /// The program or script.
        entry: PathBuf,
        /// The keys of their tables that differ.
        keys: String,
    },
    /// A bot's `write` path lies in another bot's own folder or `read`
    /// path: what it writes there, the other would read or run as its own.
    #[error(
        "sandbox of {bot}: its write path {path} lies in the {place} of bot {other}, which \
         would read (or run) what {bot} writes there; give it a write folder outside \
         every other bot's folders and read paths",
        path = shown(.path)
    )]
    WriteInOthers {
        /// The bot.
        bot: String,
        /// Its `write` path.
        path: PathBuf,
        /// The other bot.
        other: String,
        /// `own folder` or `read path`.
        place: &'static str,
    },
    /// The tournament file or the results folder inside a system folder
    /// every bot reads.
    #[error(
        "the sandbox cannot hide {path} from the bots: it lies in {folder}, which every bot \
         reads; keep the tournament file and the results folder outside {folder}",
        path = shown(.path), folder = shown(.folder)
    )]
    InSystemFolder {
        /// The tournament file or results folder.
        path: PathBuf,
        /// The system folder that holds it.
        folder: PathBuf,
    },
    /// A bot's command names (or its own folder lies in) what the sandbox
    /// hides from it.
    #[error(
        "sandbox of {bot}: its command opens {path}, {what}, which no bot may see; \
         name only the bot's own files (and put them in a folder of its own)",
        path = shown(.path), what = shown_text(.what)
    )]
    Hidden {
        /// The bot.
        bot: String,
        /// The path.
        path: PathBuf,
        /// Whose it is.
        what: String,
    },
    /// A file found in a bot's own folder, `read` or `write` path that is
    /// another name (a hard link) of what no bot may see: its command need
    /// not name it, the bot reads it where it lies.
    #[error(
        "sandbox of {bot}: {held}, which no bot may see; remove it from the bot's folders and paths"
    )]
    HeldThere {
        /// The bot.
        bot: String,
        /// The file, where it was found and what it is.
        held: Box<Held>,
    },
    /// A path a bot's command names (its script, a data file) that passes
    /// through a symbolic link the bot's files may hold and leads out of
    /// the bot's own folder, its `read` and `write` paths and the system's
    /// folders: the sandbox would bind what the link leads to.
    #[error(
        "sandbox of {bot}: its command names {path}, which passes through the symbolic link \
         {} and leads to {}, outside the bot's own folder, its read and write paths \
         and the system's folders; the sandbox does not follow a link of a bot's files out \
         of them: name the real path, or allow it with `sandbox = {{ read = [...] }}`",
        .link.0, shown(.link.1.as_path()), path = shown(.path)
    )]
    LeadsOut {
        /// The bot.
        bot: String,
        /// The path as the command names it.
        path: PathBuf,
        /// The link on its way (and what it holds), and where the path
        /// leads, every link resolved.
        link: Box<(crate::spelled::Link, PathBuf)>,
    },
    /// A `write` path in (or holding) a folder of the system's programs,
    /// libraries or configuration: the bot's uid would own what every
    /// user and every other bot runs or trusts.
    #[error(
        "sandbox of {bot}: its write path {path} lies in or holds {folder}, where the \
         system's programs, libraries or configuration live: the bot could replace what \
         every user and every bot runs; give it a folder of its own",
        path = shown(.path), folder = shown(.folder)
    )]
    SystemWrite {
        /// The bot.
        bot: String,
        /// Its `write` path.
        path: PathBuf,
        /// The system folder.
        folder: PathBuf,
    },
    /// A bot's `write` path that is or holds the tournament file or the
    /// results folder: the bot would own the folder where the arbiter makes
    /// this run's (or a later run's) results and logs.
    #[error(
        "sandbox of {bot}: its write path {path} is or holds {hidden} (the tournament file or \
         the results folder), which the bot would own; give it a folder of its own",
        path = shown(.path), hidden = shown(.hidden)
    )]
    WriteHoldsHidden {
        /// The bot.
        bot: String,
        /// Its `write` path.
        path: PathBuf,
        /// The hidden path it is or holds.
        hidden: PathBuf,
    },
    /// A bot's own folder, `read` or `write` path that is the tournament
    /// file's folder (or the results folder's parent) or holds it: what
    /// appears there during the run (an editor's copy of the file, another
    /// run's results) could not be masked in time.
    #[error(
        "sandbox of {bot}: its {what} {} {relation} {}, the folder of {}; whatever appears \
         there while the run plays (an editor's copy of the tournament file, another run's \
         results) would be the bot's to read. Put the bot's files in a folder of their own \
         (bots/{bot}/, beside or below the tournament file's folder, not holding it)",
        places[0].display(), places[1].display(), places[2].display()
    )]
    HoldsTournament {
        /// The bot.
        bot: String,
        /// Which of its paths: "own folder", "read path", "write path".
        what: &'static str,
        /// "is" or "holds".
        relation: &'static str,
        /// That path, the folder it is or holds, and the tournament file
        /// (or results folder) that lies there.
        places: Box<[PathBuf; 3]>,
    },
    /// A build's folder that holds another tournament's file or results
    /// (found by a walk of it): the build would read and rewrite them.
    #[error(
        "sandbox of {bot}: its build's folder {folder} holds {found} ({what}); a build reads \
         and writes its whole folder: run it from a folder of the bot's own files only"
    )]
    BuildFolderHolds {
        /// The bot.
        bot: String,
        /// The build's folder.
        folder: PathBuf,
        /// What was found there.
        found: PathBuf,
        /// What it is.
        what: &'static str,
    },
    /// A build's folder too large or deep to search for tournament files.
    #[error(
        "sandbox of {bot}: its build's folder {folder} could not be searched whole for \
         tournament files and results (more than {entries} entries, or {depth} levels deep); \
         build in a smaller folder"
    )]
    BuildFolderUnsearched {
        /// The bot.
        bot: String,
        /// The build's folder.
        folder: PathBuf,
        /// The entries searched at most.
        entries: usize,
        /// The deepest level searched.
        depth: usize,
    },
    /// A path the bot's command or allowances name that its own uid
    /// cannot reach on the host (the privileged helper could bind it).
    #[error(
        "sandbox of {bot}: {unreachable} (the bot runs as its own uid: what its command \
         or allowances name must be open to it on the host)"
    )]
    Unreachable {
        /// The bot.
        bot: String,
        /// The path, and the kernel's answer.
        unreachable: crate::reach::Unreachable,
    },
    /// A `read`, `write` or `workdir` path that passes through a symbolic
    /// link a bot's folder may hold (see `spelled`).
    #[error(
        "sandbox of {bot}: its {what} {path} passes through the symbolic link {link}, which the sandbox does not follow: a link in a bot's folders would \
         take the path elsewhere (another bot's files, the results, the host); name the \
         real path instead",
        path = shown(.path), what = shown_text(.what)
    )]
    Link {
        /// The bot.
        bot: String,
        /// Which of its paths (`read path`, `write path`, `working directory`).
        what: &'static str,
        /// The path as the tournament file names it.
        path: PathBuf,
        /// The link on its way, and where it points.
        link: Box<crate::spelled::Link>,
    },
    /// A bot's folder or path too large to search whole for hard links to
    /// the tournament file, the results or another bot's files: a link
    /// past the bound would not be seen (see `hardlink`).
    #[error(
        "sandbox of {bot}: its folders and paths are too large to search for hard links \
         (to the tournament file, the results, another bot's files): stopped in {unsearched}; \
         give the bot smaller folders"
    )]
    Unsearched {
        /// The bot.
        bot: String,
        /// Where the search stopped, and why.
        unsearched: crate::hardlink::Unsearched,
    },
    /// A build's `write` paths too large to search whole for the
    /// version-control metadata made read-only to it (see `sealed`).
    #[error(
        "sandbox of {bot}: its build's folder and paths are too large to search whole for \
         version-control metadata (read-only to a build): stopped in {unsearched}; build in a \
         smaller folder"
    )]
    MetadataUnsearched {
        /// The bot.
        bot: String,
        /// Where the search stopped, and why.
        unsearched: crate::hardlink::Unsearched,
    },
    /// The plan handed to the helper could not be written or read.
    #[error("sandbox plan: {0}")]
    Plan(#[from] serde_json::Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    /// Whether `text` holds ESC, a C1 control or a direction override raw.
    fn raw(text: &str) -> bool {
        text.chars()
            .any(|c| c == '\u{1b}' || ('\u{80}'..='\u{9f}').contains(&c) || c == '\u{202e}')
    }

    #[test]
    fn a_refusal_writes_out_the_escapes_of_a_link_target_and_a_file_name() {
        let hostile = |bytes: &[u8]| PathBuf::from(std::ffi::OsStr::from_bytes(bytes));
        let target = hostile(b"../\x1b]52;c;eA==\x07\xc2\x9b2J\xe2\x80\xae/book");
        let link = crate::spelled::Link {
            link: hostile(b"/srv/atk/\x1b]0;title\x07"),
            target: target.clone(),
        };
        let errors = [
            SandboxError::Link {
                bot: "atk".into(),
                what: "read path",
                path: "/srv/atk/data/x".into(),
                link: Box::new(link.clone()),
            },
            SandboxError::LeadsOut {
                bot: "atk".into(),
                path: hostile(b"/srv/atk/\x1b[2J"),
                link: Box::new((link, target)),
            },
            SandboxError::HeldThere {
                bot: "atk".into(),
                held: Box::new(Held {
                    place: "own folder",
                    folder: "/srv/atk".into(),
                    path: hostile(b"/srv/atk/\xc2\x9bx.bin"),
                    what: "the tournament file".into(),
                }),
            },
        ];
        for e in errors {
            let text = e.to_string();
            assert!(!raw(&text), "{text:?}");
            assert!(
                text.contains("\\u{1b}") || text.contains("\\u{9b}"),
                "{text}"
            );
        }
    }
}
