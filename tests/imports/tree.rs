//! One crate's modules read as rustc reads them: from the crate root
//! through its `mod` declarations (`#[path]` honoured), each module with
//! the names it defines, the names its `use` items bind and the paths its
//! code writes. Test modules are followed only to know their files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::refs::{item_attrs, use_paths, Ref, Refs};
use crate::sources::is_test;

/// A path a `use` item binds to a name (or, for a glob, to no name).
pub struct Binding {
    pub name: Option<String>,
    pub path: Ref,
    /// Declared with a visibility (`pub`, `pub(crate)`, ...): a re-export.
    pub reexport: bool,
}

/// One module: a file, or a `mod x { ... }` inside one.
pub struct Module {
    pub file: usize,
    pub parent: Option<usize>,
    pub test: bool,
    pub children: BTreeMap<String, usize>,
    pub items: BTreeSet<String>,
    pub bindings: Vec<Binding>,
    /// Paths written in the module's code, `use` items inside functions
    /// included.
    pub refs: Vec<Ref>,
}

/// What a path names: a module, an item defined in a module, or what a
/// `use` brought in from outside the crate.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Found {
    Module(usize),
    Item(usize),
    Outside,
}

/// A crate: its files (the first is the root) and modules (the first is
/// the crate's).
#[derive(Default)]
pub struct Crate {
    pub files: Vec<PathBuf>,
    pub modules: Vec<Module>,
}

/// How deep a path may go through `use` bindings before it is given up
/// (a loop of re-exports, which rustc would refuse anyway).
const DEEPEST: usize = 16;

impl Crate {
    /// Reads the crate whose root file is `root`.
    pub fn load(root: &Path) -> Crate {
        let mut krate = Crate::default();
        krate.add_file(root.to_path_buf(), None, false);
        krate
    }

    /// The file that defines what `found` names, if it is in the crate.
    pub fn file_of(&self, found: Found) -> Option<usize> {
        match found {
            Found::Module(m) | Found::Item(m) => Some(self.modules[m].file),
            Found::Outside => None,
        }
    }

    fn add_module(&mut self, file: usize, parent: Option<usize>, test: bool) -> usize {
        self.modules.push(Module {
            file,
            parent,
            test,
            children: BTreeMap::new(),
            items: BTreeSet::new(),
            bindings: Vec::new(),
            refs: Vec::new(),
        });
        self.modules.len() - 1
    }

    fn add_file(&mut self, path: PathBuf, parent: Option<usize>, test: bool) -> usize {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let parsed = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
        self.files.push(path.clone());
        let module = self.add_module(self.files.len() - 1, parent, test);
        let here = path.parent().expect("a file has a folder").to_path_buf();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let children = match stem {
            "lib" | "main" | "mod" => here.clone(),
            _ => here.join(stem),
        };
        self.add_items(module, &parsed.items, &here, &children);
        module
    }

    /// Files of `mod x;` are under `children`; a `#[path]` is taken from
    /// `here`, the folder of the file being read.
    fn add_items(&mut self, module: usize, items: &[syn::Item], here: &Path, children: &Path) {
        for item in items {
            let test = self.modules[module].test || is_test(item_attrs(item));
            match item {
                syn::Item::Mod(m) => self.add_mod(module, m, test, here, children),
                _ if test => {}
                syn::Item::Use(u) => {
                    let reexport = !matches!(u.vis, syn::Visibility::Inherited);
                    for (name, path) in use_paths(u) {
                        let binding = Binding {
                            name,
                            path,
                            reexport,
                        };
                        self.modules[module].bindings.push(binding);
                    }
                }
                _ => {
                    if let Some(name) = item_name(item) {
                        self.modules[module].items.insert(name);
                    }
                    let mut refs = Refs::default();
                    syn::visit::Visit::visit_item(&mut refs, item);
                    self.modules[module].refs.extend(refs.found);
                }
            }
        }
    }

    fn add_mod(&mut self, module: usize, m: &syn::ItemMod, test: bool, here: &Path, dir: &Path) {
        let name = m.ident.to_string();
        let child = match &m.content {
            Some((_, items)) => {
                let child = self.add_module(self.modules[module].file, Some(module), test);
                self.add_items(child, items, here, &dir.join(&name));
                child
            }
            None => {
                let path = mod_file(m, &name, here, dir);
                self.add_file(path, Some(module), test)
            }
        };
        if !test {
            self.modules[module].children.insert(name, child);
        }
    }

    /// What `path`, written in module `from`, names; `None` for what is
    /// outside the crate (another crate, the prelude, a local name).
    pub fn resolve(&self, from: usize, path: &[String]) -> Option<Found> {
        self.walk(from, path, 0)
    }

    fn walk(&self, from: usize, path: &[String], depth: usize) -> Option<Found> {
        if depth > DEEPEST || path.is_empty() {
            return None;
        }
        let (mut at, rest) = match path[0].as_str() {
            "crate" => (0, &path[1..]),
            "self" => (from, &path[1..]),
            "super" => {
                let supers = path.iter().take_while(|s| *s == "super").count();
                let mut at = from;
                for _ in 0..supers {
                    at = self.modules[at].parent?;
                }
                (at, &path[supers..])
            }
            first => match self.lookup(from, first, depth)? {
                Found::Module(m) => (m, &path[1..]),
                item => return Some(item),
            },
        };
        for segment in rest {
            match self.lookup(at, segment, depth) {
                Some(Found::Module(m)) => at = m,
                Some(item) => return Some(item),
                None => break,
            }
        }
        Some(Found::Module(at))
    }

    /// The name `name` in module `at`: a child module, an item it
    /// defines, a name one of its `use` items binds, or one of its globs.
    fn lookup(&self, at: usize, name: &str, depth: usize) -> Option<Found> {
        let module = &self.modules[at];
        if let Some(&child) = module.children.get(name) {
            return Some(Found::Module(child));
        }
        if module.items.contains(name) {
            return Some(Found::Item(at));
        }
        let mut named = module
            .bindings
            .iter()
            .filter(|b| b.name.as_deref() == Some(name));
        if let Some(binding) = named.next() {
            let found = self.walk(at, &binding.path.path, depth + 1);
            return Some(found.unwrap_or(Found::Outside));
        }
        let globs = module.bindings.iter().filter(|b| b.name.is_none());
        globs
            .filter_map(|b| match self.walk(at, &b.path.path, depth + 1)? {
                Found::Module(m) if m != at => self.lookup(m, name, depth + 1),
                _ => None,
            })
            .next()
    }
}

/// The file of `mod name;`: its `#[path]` from `here`, else `name.rs` or
/// `name/mod.rs` under `dir`.
fn mod_file(m: &syn::ItemMod, name: &str, here: &Path, dir: &Path) -> PathBuf {
    let given = m.attrs.iter().find(|a| a.path().is_ident("path"));
    if let Some(attr) = given {
        let value = &attr
            .meta
            .require_name_value()
            .expect("#[path = \"...\"]")
            .value;
        if let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = value
        {
            return here.join(s.value());
        }
        panic!("a #[path] that is not a string in {}", here.display());
    }
    let flat = dir.join(format!("{name}.rs"));
    let nested = dir.join(name).join("mod.rs");
    match (flat.is_file(), nested.is_file()) {
        (true, _) => flat,
        (false, true) => nested,
        _ => panic!(
            "mod {name} is in neither {} nor {}",
            flat.display(),
            nested.display()
        ),
    }
}

/// The name an item defines in its module's namespace, if any.
fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::TraitAlias(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}
