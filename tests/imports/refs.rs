//! The paths a piece of code writes: in `use` trees (groups and renames
//! flattened), in expressions, types and patterns, and inside macro
//! calls, whose tokens syn leaves unparsed. Test items are skipped;
//! comments never reach syn's tree.

use proc_macro2::{Spacing, TokenStream, TokenTree};
use syn::visit::Visit;

use crate::sources::is_test;

/// A path as written (`crate::row::Row` is `["crate", "row", "Row"]`) and
/// the line it is on.
#[derive(Clone, Debug)]
pub struct Ref {
    pub path: Vec<String>,
    pub line: usize,
}

/// Collects the paths of the code it visits.
#[derive(Default)]
pub struct Refs {
    pub found: Vec<Ref>,
}

impl<'ast> Visit<'ast> for Refs {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        match item {
            _ if is_test(item_attrs(item)) => {}
            syn::Item::Use(u) => self.found.extend(use_paths(u).into_iter().map(|(_, r)| r)),
            _ => syn::visit::visit_item(self, item),
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Const(i) => &i.attrs,
            syn::ImplItem::Fn(i) => &i.attrs,
            syn::ImplItem::Type(i) => &i.attrs,
            syn::ImplItem::Macro(i) => &i.attrs,
            _ => return,
        };
        if !is_test(attrs) {
            syn::visit::visit_impl_item(self, item);
        }
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            if let Some(first) = path.segments.first() {
                let line = first.ident.span().start().line;
                let path = path.segments.iter().map(|s| s.ident.to_string()).collect();
                self.found.push(Ref { path, line });
            }
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        token_paths(mac.tokens.clone(), &mut self.found);
    }
}

/// The attributes of an item.
pub fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// Each name a `use` item binds (`None` for a glob) with the path it
/// stands for: `use a::{self, b::C as D, e::*}` binds `a` to `a`, `D` to
/// `a::b::C` and a glob to `a::e`. `use ::x` (another crate) binds nothing
/// here.
pub fn use_paths(u: &syn::ItemUse) -> Vec<(Option<String>, Ref)> {
    let mut out = Vec::new();
    if u.leading_colon.is_none() {
        let line = u.use_token.span.start().line;
        flatten(&u.tree, &mut Vec::new(), line, &mut out);
    }
    out
}

fn flatten(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    line: usize,
    out: &mut Vec<(Option<String>, Ref)>,
) {
    let mut bind = |name: Option<String>, last: &syn::Ident, prefix: &[String]| {
        let mut path = prefix.to_vec();
        if last != "self" {
            path.push(last.to_string());
        }
        out.push((name, Ref { path, line }));
    };
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, line, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => {
            bind(prefix.last().cloned(), &n.ident, prefix);
        }
        syn::UseTree::Name(n) => bind(Some(n.ident.to_string()), &n.ident, prefix),
        syn::UseTree::Rename(r) => bind(Some(r.rename.to_string()), &r.ident, prefix),
        syn::UseTree::Glob(_) => out.push((
            None,
            Ref {
                path: prefix.clone(),
                line,
            },
        )),
        syn::UseTree::Group(g) => {
            for tree in &g.items {
                flatten(tree, prefix, line, out);
            }
        }
    }
}

/// The paths in a macro call's tokens: each run `a::b::c` (a single name
/// too), not after a `.` (a field or method).
fn token_paths(tokens: TokenStream, out: &mut Vec<Ref>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut at = 0;
    while at < tokens.len() {
        match &tokens[at] {
            TokenTree::Group(g) => token_paths(g.stream(), out),
            TokenTree::Ident(first) if !after_dot(&tokens, at) => {
                let mut path = vec![first.to_string()];
                while let Some(next) = path_step(&tokens, at) {
                    path.push(next);
                    at += 3;
                }
                let line = first.span().start().line;
                out.push(Ref { path, line });
            }
            _ => {}
        }
        at += 1;
    }
}

fn after_dot(tokens: &[TokenTree], at: usize) -> bool {
    at > 0 && matches!(&tokens[at - 1], TokenTree::Punct(p) if p.as_char() == '.')
}

/// The name after `::` that follows the name at `at`, if there is one.
fn path_step(tokens: &[TokenTree], at: usize) -> Option<String> {
    match tokens.get(at + 1..at + 4)? {
        [TokenTree::Punct(a), TokenTree::Punct(b), TokenTree::Ident(name)]
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':' =>
        {
            Some(name.to_string())
        }
        _ => None,
    }
}
