//! No two files of a crate import each other, directly or around a circle
//! (STYLE.md: a file holds one concept; a circle means two concepts that
//! cannot be read, tested or moved apart). Every crate's `src/` (and
//! `crates/cli`, `bots/src`) is read with `syn` from its root through its
//! `mod` declarations, and each file's references to items of the crate
//! become edges "file A refers to an item of file B":
//!
//! - `use` trees, with `crate::`, `super::`, `self::`, a child module's
//!   name, groups, renames and globs, and paths in code (`crate::x::f()`,
//!   `row::Row`, inside macro calls too);
//! - a path is followed through the `use` items it passes (a name that
//!   `lib.rs` re-exports from `row.rs` is an edge to `row.rs`), so an
//!   edge always ends at the file that defines the item, or at the module
//!   itself when it names one;
//! - a child that uses an item its parent *defines* has an edge to its
//!   parent.
//!
//! What does not count: declaring a module (`mod x;`) and re-exporting
//! (`pub use`, `pub(crate) use`), so a facade `lib.rs` or `mod.rs` that
//! only declares and re-exports imports none of its children (a re-export
//! that the file's own code uses does count); test code (`#[cfg(test)]`,
//! `#[test]`) and the files only test modules declare; comments and doc
//! links; other crates.
//!
//! The test fails naming each circle's files and, for each edge of it,
//! the paths as written, with their lines.
//!
//! What it does not see: items a macro makes (a path to one ends at the
//! module it is in), and where a `#[path]` inside an inline module points
//! (it is taken from the file's folder). A name a local variable shadows
//! may make an edge that is not there, never hide one that is.

mod refs;
mod tree;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::sources::{rust_files, source_roots};
use tree::{Crate, Found};

/// Edges between files of one crate: (from, to) to the paths that make
/// the edge, as `line: a::b::C`.
type Edges = BTreeMap<(usize, usize), BTreeSet<String>>;

/// Every edge of the crate.
fn edges(krate: &Crate) -> Edges {
    let mut edges = Edges::new();
    for (id, module) in krate.modules.iter().enumerate() {
        if module.test {
            continue;
        }
        let imports = module.bindings.iter().filter(|b| !b.reexport);
        let written = imports.map(|b| (&b.path, false));
        let code = module.refs.iter().map(|r| (r, r.path.len() == 1));
        for (r, lone) in written.chain(code) {
            let Some(found) = krate.resolve(id, &r.path) else {
                continue;
            };
            // A lone name that is a module is a local value of that name.
            if lone && matches!(found, Found::Module(_)) {
                continue;
            }
            let Some(to) = krate.file_of(found) else {
                continue;
            };
            if to != module.file {
                let why = format!("{}: {}", r.line, r.path.join("::"));
                edges.entry((module.file, to)).or_default().insert(why);
            }
        }
    }
    edges
}

/// The strongly connected components of more than one file (Tarjan).
fn circles(files: usize, edges: &Edges) -> Vec<Vec<usize>> {
    struct Walk {
        next: Vec<Vec<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        count: usize,
        found: Vec<Vec<usize>>,
    }
    impl Walk {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.count);
            self.low[v] = self.count;
            self.count += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for w in self.next[v].clone() {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut next = vec![Vec::new(); files];
    for &(a, b) in edges.keys() {
        next[a].push(b);
    }
    let mut walk = Walk {
        next,
        index: vec![None; files],
        low: vec![0; files],
        stack: Vec::new(),
        on_stack: vec![false; files],
        count: 0,
        found: Vec::new(),
    };
    for v in 0..files {
        if walk.index[v].is_none() {
            walk.visit(v);
        }
    }
    walk.found.sort();
    walk.found
}

/// Each circle of the crate as text: its files, then each edge between
/// them with the paths that make it.
fn describe(krate: &Crate, shown: impl Fn(&Path) -> String) -> Vec<String> {
    let edges = edges(krate);
    let name = |f: usize| shown(&krate.files[f]);
    circles(krate.files.len(), &edges)
        .into_iter()
        .map(|circle| {
            let files: Vec<_> = circle.iter().map(|&f| name(f)).collect();
            let mut text = format!("circle: {}", files.join(", "));
            for (&(a, b), why) in &edges {
                if circle.contains(&a) && circle.contains(&b) {
                    let why: Vec<_> = why.iter().map(|w| w.as_str()).collect();
                    let line = format!("\n    {} -> {}: {}", name(a), name(b), why.join(", "));
                    text.push_str(&line);
                }
            }
            text
        })
        .collect()
}

/// The crates whose root is in `dir` (`lib.rs`, `main.rs`).
fn crates_in(dir: &Path) -> Vec<Crate> {
    let roots = ["lib.rs", "main.rs"].map(|r| dir.join(r));
    roots
        .iter()
        .filter(|r| r.is_file())
        .map(|r| Crate::load(r))
        .collect()
}

#[test]
fn no_file_is_in_an_import_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shown = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let mut found = Vec::new();
    let mut read: BTreeSet<PathBuf> = BTreeSet::new();
    for dir in source_roots(root) {
        for krate in crates_in(&dir) {
            found.extend(describe(&krate, shown));
            read.extend(krate.files.iter().cloned());
        }
    }
    let mut files = Vec::new();
    for dir in source_roots(root) {
        rust_files(&dir, &mut files);
    }
    assert!(files.len() > 100, "only {} files found", files.len());
    let unread: Vec<_> = files
        .iter()
        .filter(|f| !read.contains(*f))
        .map(|f| shown(f))
        .collect();
    assert!(
        unread.is_empty(),
        "files that no crate declares as a module: {unread:?}"
    );
    assert!(
        found.is_empty(),
        "{} import circles:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// A small crate on disk that has what counts and what does not.
fn sample() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let files = [
        ("lib.rs", "//! A facade.\nmod a;\nmod b;\nmod c;\nmod d;\npub use a::Alpha;\npub use b::*;\npub use std::fmt::Write as Out;\n"),
        ("a.rs", "use crate::b::{self as bee, Beta as B};\npub struct Alpha(B);\nfn f() { let _ = vec![crate::c::gamma()]; }\n"),
        ("b.rs", "pub struct Beta;\nfn g() -> crate::Alpha { todo!() }\n#[cfg(test)]\nmod tests {\n    use crate::d::Delta;\n}\n"),
        ("c.rs", "mod inner;\npub fn gamma() {}\n// crate::d::Delta\n/// [`crate::d::Delta`]\nfn k() { inner::x() }\n"),
        ("c/inner.rs", "pub fn x() { super::gamma() }\n"),
        ("d.rs", "pub struct Delta;\nfn m() -> crate::Beta { todo!() }\nfn n(_: &dyn crate::Out) {}\n"),
    ];
    std::fs::create_dir(dir.path().join("c")).expect("c/ is made");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("a sample file is written");
    }
    dir
}

#[test]
fn the_graph_follows_reexports_and_skips_facades_tests_and_comments() {
    let dir = sample();
    let krate = Crate::load(&dir.path().join("lib.rs"));
    let name = |f: usize| {
        let path = krate.files[f].strip_prefix(dir.path()).unwrap();
        path.display().to_string()
    };
    let found: Vec<_> = edges(&krate)
        .into_iter()
        .map(|((a, b), why)| format!("{} -> {}: {why:?}", name(a), name(b)))
        .collect();
    let expected = [
        r#"a.rs -> b.rs: {"1: crate::b", "1: crate::b::Beta", "2: B"}"#,
        r#"a.rs -> c.rs: {"3: crate::c::gamma"}"#,
        r#"b.rs -> a.rs: {"2: crate::Alpha"}"#,
        r#"c.rs -> c/inner.rs: {"5: inner::x"}"#,
        r#"c/inner.rs -> c.rs: {"1: super::gamma"}"#,
        r#"d.rs -> b.rs: {"2: crate::Beta"}"#,
    ];
    assert_eq!(found, expected);
    let text = describe(&krate, |p| {
        p.strip_prefix(dir.path()).unwrap().display().to_string()
    });
    assert_eq!(
        text,
        [
            "circle: a.rs, b.rs\n    a.rs -> b.rs: 1: crate::b, 1: crate::b::Beta, 2: B\n    b.rs -> a.rs: 2: crate::Alpha",
            "circle: c.rs, c/inner.rs\n    c.rs -> c/inner.rs: 5: inner::x\n    c/inner.rs -> c.rs: 1: super::gamma",
        ]
    );
}
