//! No function of the workspace's code is over 80 lines (STYLE.md: a
//! function reads in one sitting). Every `.rs` file under a crate's `src/`
//! is parsed with `syn`; a function is measured from its `fn` to its
//! closing brace (doc comments and attributes not counted), nested
//! functions and closures inside it included. Test code is not measured:
//! items under `#[cfg(test)]` or marked `#[test]`, and the `tests/`,
//! `benches/` and `fuzz/` folders.

use std::path::Path;

use syn::visit::Visit;

use crate::sources::{is_test, rust_files, source_roots};

/// The longest a function may be, in lines.
const MOST: usize = 80;

/// Functions still over the limit, by file and name, each with the work
/// that will split it (none now). A listed function that fits now fails
/// the test too, so the list only shrinks.
const KNOWN: &[(&str, &str)] = &[];

/// The functions over [`MOST`] lines in one file: (name, first line,
/// lines).
#[derive(Default)]
struct Long {
    found: Vec<(String, usize, usize)>,
}

impl Long {
    /// Measures a function from its `fn` to its body's closing brace.
    fn measure(&mut self, sig: &syn::Signature, body: &syn::Block) {
        let name = &sig.ident;
        let first = sig.fn_token.span.start().line;
        let last = body.brace_token.span.close().end().line;
        let lines = last + 1 - first;
        if lines > MOST {
            self.found.push((name.to_string(), first, lines));
        }
    }
}

impl<'ast> Visit<'ast> for Long {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if !is_test(&i.attrs) {
            syn::visit::visit_item_impl(self, i);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test(&f.attrs) {
            self.measure(&f.sig, &f.block);
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test(&f.attrs) {
            self.measure(&f.sig, &f.block);
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let (false, Some(block)) = (is_test(&f.attrs), &f.default) {
            self.measure(&f.sig, block);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

/// Every function over the limit in the workspace's code, as
/// `path:line name (N lines)`, and (path, name) to compare with [`KNOWN`].
fn long_functions(root: &Path) -> Vec<(String, String, String)> {
    let mut files = Vec::new();
    for dir in source_roots(root) {
        rust_files(&dir, &mut files);
    }
    assert!(files.len() > 100, "only {} files found", files.len());
    let mut long = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a source file reads");
        let file = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
        let mut visitor = Long::default();
        visitor.visit_file(&file);
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (name, line, lines) in visitor.found {
            let at = format!("{shown}:{line} {name} ({lines} lines)");
            long.push((shown.clone(), name, at));
        }
    }
    long
}

#[test]
fn no_function_outside_tests_is_over_80_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let long = long_functions(root);
    let unknown: Vec<&str> = long
        .iter()
        .filter(|(path, name, _)| !KNOWN.contains(&(path.as_str(), name.as_str())))
        .map(|(.., at)| at.as_str())
        .collect();
    let fitted: Vec<_> = KNOWN
        .iter()
        .filter(|(path, name)| !long.iter().any(|(p, n, _)| p == path && n == name))
        .collect();
    assert!(
        unknown.is_empty() && fitted.is_empty(),
        "functions over {MOST} lines:\n{}\nlisted as long but now fit (take them off KNOWN): {fitted:?}",
        unknown.join("\n")
    );
}

#[test]
fn the_measure_finds_a_long_function_and_skips_test_code() {
    let body = "    let x = 1;\n".repeat(MOST);
    let text = format!(
        "fn long() {{\n{body}}}\nfn short() {{}}\n#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{body}    }}\n}}\nimpl S {{\n    fn method() {{\n{body}    }}\n}}\n"
    );
    let mut visitor = Long::default();
    visitor.visit_file(&syn::parse_file(&text).unwrap());
    let found: Vec<_> = visitor
        .found
        .iter()
        .map(|(n, l, c)| (n.as_str(), *l, *c))
        .collect();
    assert_eq!(
        found,
        [("long", 1, MOST + 2), ("method", 2 * MOST + 10, MOST + 2)]
    );
}
