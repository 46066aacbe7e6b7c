//! The workspace's own code as the source-reading tests see it: which
//! folders hold it, every `.rs` file under them, and which items are test
//! code. `function_length.rs` and `imports.rs` read the same files, so
//! what one checks the other checks too.

use std::path::{Path, PathBuf};

/// The folders whose `src/` holds the workspace's code (the binary's
/// source is `crates/cli` itself).
pub fn source_roots(root: &Path) -> Vec<PathBuf> {
    let mut roots = vec![root.join("crates/cli"), root.join("bots/src")];
    let crates = std::fs::read_dir(root.join("crates")).expect("crates/ is readable");
    for entry in crates {
        let src = entry.expect("crates/ lists").path().join("src");
        if src.is_dir() {
            roots.push(src);
        }
    }
    roots.sort();
    roots
}

/// Every `.rs` file under `dir`, skipping test folders.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("a folder lists").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !matches!(name, "tests" | "benches" | "fuzz") {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// Whether the attributes mark test code: `#[test]`, or a `cfg` that
/// names `test`.
pub fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let path = a.path();
        path.is_ident("test")
            || (path.is_ident("cfg")
                && a.meta.require_list().is_ok_and(|l| {
                    l.tokens
                        .to_string()
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .any(|w| w == "test")
                }))
    })
}
