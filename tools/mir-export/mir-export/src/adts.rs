//! What MIR text does not say about ADTs: whether a type is a struct, enum
//! or union, enum variant names in declaration order, struct field names,
//! and whether a struct or union is `#[repr(C)]` (for `oxidec
//! --emit=header`, which describes only those in C).
//!
//! MIR refers to variants by name (`(_4 as Some)`, `Option::<T>::None`) but
//! oxide-mir refers to them by index, which is the declaration order. That
//! order comes from a built-in table for `core` types and from the
//! `enum`/`struct`/`union` declarations in the crate's own source files (and
//! oxide-device's), read with a small scanner.

use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdtKind {
    Struct,
    Enum,
    Union,
}

impl AdtKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AdtKind::Struct => "struct",
            AdtKind::Enum => "enum",
            AdtKind::Union => "union",
        }
    }
}

/// A declaration: for enums the variants, for structs and unions the
/// fields (names; tuple fields are `0`, `1`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct AdtDecl {
    pub kind: AdtKind,
    /// Enums: variant names in declaration order. Structs/unions: empty.
    pub variants: Vec<String>,
    /// Structs/unions: field names in declaration order.
    pub fields: Vec<String>,
    /// Declared `#[repr(C)]` (also `#[repr(C, align(N))]`): the layout is
    /// C's, fields in declaration order.
    pub repr_c: bool,
    /// Declared with any `#[repr(..)]` (`C`, `u8`, `transparent`,
    /// `align(16)`, `packed`): rustc's default layout does not apply.
    pub repr: bool,
    /// A generic parameter relaxed to `?Sized` (`struct S<T: ?Sized>`):
    /// its last field may be unsized, which rustc never moves.
    pub maybe_unsized: bool,
}

/// `core` ADTs that kernels meet after inlining, by path without generics.
const BUILTIN: &[(&str, AdtKind, &[&str])] = &[
    ("core::option::Option", AdtKind::Enum, &["None", "Some"]),
    ("core::result::Result", AdtKind::Enum, &["Ok", "Err"]),
    ("core::cmp::Ordering", AdtKind::Enum, &["Less", "Equal", "Greater"]),
    ("core::ops::ControlFlow", AdtKind::Enum, &["Continue", "Break"]),
    ("core::ops::Bound", AdtKind::Enum, &["Included", "Excluded", "Unbounded"]),
    ("core::convert::Infallible", AdtKind::Enum, &[]),
    ("core::num::FpCategory", AdtKind::Enum, &["Nan", "Infinite", "Zero", "Subnormal", "Normal"]),
    ("core::sync::atomic::Ordering", AdtKind::Enum, &["Relaxed", "Release", "Acquire", "AcqRel", "SeqCst"]),
    ("core::intrinsics::AtomicOrdering", AdtKind::Enum, &["Relaxed", "Release", "Acquire", "AcqRel", "SeqCst"]),
    ("core::panicking::AssertKind", AdtKind::Enum, &["Eq", "Ne", "Match"]),
    ("core::mem::MaybeUninit", AdtKind::Union, &[]),
    // alloc's growth errors (`RawVec::grow_amortized`'s `Err(CapacityOverflow.into())`)
    ("alloc::collections::TryReserveErrorKind", AdtKind::Enum, &["CapacityOverflow", "AllocError"]),
    // formatting arguments (`panic!("{}", x)`, kept only to reach the panic)
    ("core::fmt::rt::ArgumentType", AdtKind::Enum, &["Placeholder", "Count"]),
];

/// Explicit discriminants of built-in enums (others count from 0).
pub const BUILTIN_DISCRIMINANTS: &[(&str, i128)] = &[("core::cmp::Ordering", -1)];

/// Where a type declared inside a function body is declared: its source
/// file and the byte offset of its keyword there.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclSite {
    pub file: String,
    pub at: usize,
}

/// A declaration found in the source, with where it was declared.
#[derive(Clone, Debug)]
struct Found {
    /// The crate (`""`: the kernel crate, whose items MIR prints without it).
    krate: String,
    /// The module path inside the crate (`a::inner`, `""` at the root).
    module: String,
    decl: AdtDecl,
    /// `#[derive(.., Copy, ..)]` on it.
    derive_copy: bool,
    /// Declared inside a function body: the innermost block around it
    /// (`AdtTable::blocks`), and the byte offset of its keyword (two
    /// declarations of one name in one function are two types).
    local: Option<(usize, usize)>,
}

/// A `{ .. }` inside a function body (the body itself included): where a
/// type declared there can be named.
#[derive(Clone, Debug)]
struct Block {
    /// In the kernel crate's root file (`add_file("", "", ..)`).
    in_root_file: bool,
    /// Byte offset of the `{` in that file.
    open: usize,
    /// Byte offset of its `}` (`usize::MAX` while it is open).
    close: usize,
    /// The block around it, within the same function body or an outer one.
    parent: Option<usize>,
    /// A `mod m { .. }` body: the names of the blocks around it are not
    /// in scope inside it.
    is_mod: bool,
}

/// A type declared inside a function body, which no path from the crate
/// root names (`misc_local_types::Local`).
#[derive(Clone, Debug, PartialEq)]
pub struct LocalType {
    /// The innermost block around the declaration (`AdtTable::blocks`).
    pub block: usize,
    /// Its name there.
    pub name: String,
    /// The function (or module in one) it is declared in, as a path.
    pub scope: String,
}

#[derive(Default)]
pub struct AdtTable {
    /// Keyed by the last path segment; each entry knows its crate and
    /// module, and lookups match the full path (source files are read
    /// without name resolution, so a path that names no declaration
    /// exactly falls back to the one declaration of that name in its crate:
    /// a re-export, or a type declared inside a function).
    by_name: HashMap<String, Vec<Found>>,
    /// `impl .. Copy for Name` as (crate, module of the impl, last segment
    /// of Name): a Copy type has no drop glue.
    copy_impls: Vec<(String, String, String)>,
    /// The crates added (for splitting a path into crate and module).
    crates: Vec<String>,
    /// Every `{ .. }` inside a function body, the bodies included.
    blocks: Vec<Block>,
    /// Types a library declares inside a function, by printed path without
    /// generics, learned by the export from the library's source
    /// (export/lib_local_types.rs).
    library_locals: std::cell::RefCell<HashMap<String, (AdtDecl, Option<DeclSite>)>>,
}

impl AdtTable {
    pub fn new() -> Self {
        AdtTable::default()
    }

    /// Adds every `enum`, `struct` and `union` of the kernel crate's root
    /// module, for tests: `add_file("", "", src)`.
    #[cfg(test)]
    pub fn add_source(&mut self, src: &str) {
        self.add_file("", "", src);
    }

    /// Adds the declarations of one source file of crate `krate` (`""`:
    /// the kernel crate) whose module path is `module`; inline `mod m {
    /// .. }` blocks extend it.
    pub fn add_file(&mut self, krate: &str, module: &str, src: &str) {
        if !self.crates.iter().any(|c| c == krate) {
            self.crates.push(krate.to_string());
        }
        let (toks, offs) = scan(src);
        // open scopes that name items: `mod m {` and `fn f(..) {` bodies,
        // as (name, depth); a type declared in `fn f` of module `a` is
        // printed `a::f::Local`
        let mut mods: Vec<(String, i32)> = Vec::new();
        // per open `{`: its entry in `self.blocks` when inside a function
        let mut open: Vec<Option<usize>> = Vec::new();
        // the token index of the next function body's `{`, and the name
        let mut fn_body: Option<(usize, String)> = None;
        let mut depth = 0i32;
        let mut pending_copy = false;
        let mut repr_c = false;
        let mut repr = false;
        let mut i = 0;
        while i < toks.len() {
            let here = || module_join(module, &mods);
            // `#[repr(C)]` holds across attributes and visibility only
            let t = toks[i].as_str();
            if !matches!(t, "#" | "pub" | "crate" | "(" | ")" | "in" | "self" | "super" | "enum" | "struct" | "union") {
                repr_c = false;
                repr = false;
            }
            match t {
                "{" => {
                    let body = fn_body.take_if(|f| f.0 == i).map(|f| f.1);
                    let block = self.open_block(krate, module, offs[i], &open, body.is_some(), false);
                    if let Some(name) = body {
                        mods.push((name, depth));
                    }
                    open.push(block);
                    depth += 1;
                }
                "}" => {
                    depth -= 1;
                    if let Some(Some(b)) = open.pop() {
                        self.blocks[b].close = offs[i];
                    }
                    if mods.last().is_some_and(|m| m.1 == depth) {
                        mods.pop();
                    }
                }
                "mod" if toks.get(i + 2).map(String::as_str) == Some("{") => {
                    open.push(self.open_block(krate, module, offs[i + 2], &open, false, true));
                    mods.push((toks[i + 1].clone(), depth));
                    depth += 1;
                    i += 3;
                    pending_copy = false;
                    continue;
                }
                "fn" if toks.get(i + 1).is_some_and(|n| is_ident(n)) => {
                    pending_copy = false;
                    fn_body = fn_body_open(&toks, i + 2).map(|j| (j, toks[i + 1].clone()));
                }
                "#" if toks.get(i + 1).map(String::as_str) == Some("[") => {
                    let end = skip_balanced(&toks, i + 1, "[", "]");
                    if toks.get(i + 2).map(String::as_str) == Some("derive") && toks[i..end].iter().any(|t| t == "Copy") {
                        pending_copy = true;
                    }
                    let is_repr = toks.get(i + 2).map(String::as_str) == Some("repr");
                    repr_c |= is_repr && toks[i..end].iter().any(|t| t == "C");
                    repr |= is_repr;
                    i = end;
                    continue;
                }
                "Copy" if toks.get(i + 1).map(String::as_str) == Some("for") => {
                    let mut j = i + 2;
                    while toks.get(j + 1).map(String::as_str) == Some(":") && toks.get(j + 2).map(String::as_str) == Some(":") {
                        j += 3;
                    }
                    if let Some(name) = toks.get(j) {
                        self.copy_impls.push((krate.to_string(), here(), name.clone()));
                    }
                }
                kw @ ("enum" | "struct" | "union") if i + 1 < toks.len() => {
                    let kind = match kw {
                        "enum" => AdtKind::Enum,
                        "struct" => AdtKind::Struct,
                        _ => AdtKind::Union,
                    };
                    let name = toks[i + 1].clone();
                    let copy = std::mem::take(&mut pending_copy);
                    let c = std::mem::take(&mut repr_c) && kind != AdtKind::Enum;
                    let r = std::mem::take(&mut repr);
                    if let Some((mut decl, next)) = read_decl(&toks, i + 2, kind) {
                        decl.repr_c = c;
                        decl.repr = r;
                        let local = open.last().copied().flatten().map(|b| (b, offs[i]));
                        let f = Found { krate: krate.to_string(), module: here(), decl, derive_copy: copy, local };
                        let list = self.by_name.entry(name).or_default();
                        if !list.iter().any(|o| o.krate == f.krate && o.module == f.module && o.decl == f.decl && o.local == f.local) {
                            list.push(f);
                        }
                        i = next;
                        continue;
                    }
                }
                "fn" | "impl" | "trait" | "mod" | "use" | "const" | "static" | "type" | ";" => pending_copy = false,
                _ => {}
            }
            i += 1;
        }
    }

    /// Records the declaration of a type a library declares inside a
    /// function, printed `path` (without generics).
    /// `site`: where it is declared, when known.
    pub fn add_library_local(&self, path: &str, decl: AdtDecl, site: Option<DeclSite>) {
        self.library_locals.borrow_mut().insert(path.to_string(), (decl, site));
    }

    /// Where `add_library_local` was told type `path` is declared.
    pub fn library_local_site(&self, path: &str) -> Option<DeclSite> {
        self.library_locals.borrow().get(path).and_then(|(_, s)| s.clone())
    }

    /// Whether `add_library_local` recorded `path`.
    pub fn has_library_local(&self, path: &str) -> bool {
        self.library_locals.borrow().contains_key(path)
    }

    /// Records a `{` at byte `at` of the file when it is a function body or
    /// inside one (`open`: the blocks open around it); its index.
    fn open_block(
        &mut self,
        krate: &str,
        file: &str,
        at: usize,
        open: &[Option<usize>],
        fn_body: bool,
        is_mod: bool,
    ) -> Option<usize> {
        let parent = open.last().copied().flatten();
        if !fn_body && parent.is_none() {
            return None;
        }
        let in_root_file = krate.is_empty() && file.is_empty();
        self.blocks.push(Block { in_root_file, open: at, close: usize::MAX, parent, is_mod });
        Some(self.blocks.len() - 1)
    }

    /// The type declared inside a function body that a path without
    /// generics names (`misc_local_types::Local`), `None` for a type that
    /// is not (or not declared in a source file read). `Err` as `lookup`.
    /// The declaration found must be in a function (or module) of the name
    /// the path prints last before the type's, closures aside: a function
    /// body's `fn m` is printed `S::m` in `impl S`, its closure's
    /// `m::{closure#0}`.
    pub fn local_type(&self, path: &str) -> Result<Option<LocalType>, String> {
        let Some(f) = self.find(path)? else { return Ok(None) };
        let Some((block, _)) = f.local else { return Ok(None) };
        let (parent, name) = path.rsplit_once("::").unwrap_or(("", path));
        let printed_scope = parent.rsplit("::").find(|s| !s.starts_with("{closure#"));
        if printed_scope != f.module.rsplit("::").next() {
            return Ok(None);
        }
        Ok(Some(LocalType { block, name: name.to_string(), scope: f.module.clone() }))
    }

    /// The block, of `blocks`, where all of them are in scope: the
    /// innermost one, when each other one encloses it with no `mod` body
    /// in between (a module does not see the names of the blocks around
    /// it). `None` when there is none.
    pub fn common_block(&self, blocks: &[usize]) -> Option<usize> {
        let chain = |b: usize| std::iter::successors(Some(b), |&b| self.blocks[b].parent);
        // the innermost: the one whose chain of enclosing blocks is longest
        let inner = *blocks.iter().max_by_key(|&&b| chain(b).count())?;
        let visible: Vec<usize> = {
            let mut v = Vec::new();
            for b in chain(inner) {
                v.push(b);
                if self.blocks[b].is_mod {
                    break;
                }
            }
            v
        };
        blocks.iter().all(|b| visible.contains(b)).then_some(inner)
    }

    /// The byte offset of a block's `{` when it is in the kernel crate's
    /// root file (`add_file("", "", ..)`), where the layout probe can
    /// insert into it.
    pub fn root_file_offset(&self, block: usize) -> Option<usize> {
        let b = &self.blocks[block];
        b.in_root_file.then_some(b.open)
    }

    /// (crate, module, name) of a printed type path without generics:
    /// `oxide_device::DisjointSlice` is crate `oxide_device`'s, `a::Mixed`
    /// the kernel crate's (rustc prints its own items without the crate).
    fn split<'p>(&self, path: &'p str) -> (&'p str, &'p str, &'p str) {
        let (head, name) = path.rsplit_once("::").unwrap_or(("", path));
        // the longest crate spelling that begins the path (`sha2::digest`
        // before `sha2`)
        let krate = self
            .crates
            .iter()
            .filter(|c| !c.is_empty() && (head == c.as_str() || head.strip_prefix(c.as_str()).is_some_and(|r| r.starts_with("::"))))
            .max_by_key(|c| c.len());
        match krate {
            Some(c) => (&head[..c.len()], head[c.len()..].trim_start_matches("::"), name),
            None => ("", head, name),
        }
    }

    /// The declaration a path names: the one of that crate, module and
    /// name, else the only one of that name in that crate. `Err` when
    /// several declarations could be meant.
    fn find(&self, path: &str) -> Result<Option<&Found>, String> {
        let (krate, module, name) = self.split(path);
        let all = self.by_name.get(name).map(Vec::as_slice).unwrap_or(&[]);
        let in_crate: Vec<&Found> = all.iter().filter(|f| f.krate == krate).collect();
        let exact: Vec<&Found> = in_crate.iter().copied().filter(|f| f.module == module).collect();
        match (exact.as_slice(), in_crate.as_slice()) {
            ([one], _) => Ok(Some(one)),
            ([], []) => Ok(None),
            ([], [one]) => Ok(Some(one)),
            (many, _) if many.len() > 1 && many.iter().all(|f| f.local.is_some()) => Err(format!(
                "`{path}` names {} types declared in blocks of one function body (rustc prints them alike): give them \
                 different names",
                many.len()
            )),
            _ => {
                let mut at: Vec<String> = in_crate.iter().map(|f| display_path(f, name)).collect();
                at.dedup();
                Err(format!("cannot tell which declaration `{path}` is: {}", at.join(", ")))
            }
        }
    }

    /// The declaration `path` names in the crates added, core's too
    /// (`Library::enum_decl` keeps a table of core's own files).
    pub fn declared(&self, path: &str) -> Result<Option<AdtDecl>, String> {
        Ok(self.find(path)?.map(|f| f.decl.clone()))
    }

    /// Whether the type (path without generics) is known to be Copy: a
    /// declaration of this crate or oxide-device that derives Copy, or that
    /// an `impl Copy for` of its crate names (in its own module, or the
    /// only type of that name in the crate).
    pub fn is_copy(&self, path: &str) -> bool {
        let Ok(Some(f)) = self.find(path) else { return false };
        let name = path.rsplit("::").next().unwrap_or(path);
        let unique = self.by_name.get(name).is_some_and(|v| v.iter().filter(|o| o.krate == f.krate).count() == 1);
        f.derive_copy || self.copy_impls.iter().any(|(k, m, n)| *k == f.krate && n == name && (unique || *m == f.module))
    }

    /// The declaration for a type path without generics
    /// (`core::option::Option`, `Mode`, `shapes::Shape`).
    /// `Err` when several local declarations could be meant.
    pub fn lookup(&self, path: &str) -> Result<Option<AdtDecl>, String> {
        if let Some((_, kind, variants)) = BUILTIN.iter().find(|(p, _, _)| *p == path) {
            let variants = variants.iter().map(|v| v.to_string()).collect();
            return Ok(Some(AdtDecl { kind: *kind, variants, fields: Vec::new(), repr_c: false, repr: false, maybe_unsized: false }));
        }
        if let Some((_, variants)) = crate::rustc_compat::CORE_ENUMS.iter().find(|(p, _)| *p == path) {
            let variants = variants.iter().map(|v| v.to_string()).collect();
            return Ok(Some(AdtDecl { kind: AdtKind::Enum, variants, fields: Vec::new(), repr_c: false, repr: false, maybe_unsized: false }));
        }
        if let Some((d, _)) = self.library_locals.borrow().get(path) {
            return Ok(Some(d.clone()));
        }
        if path.starts_with("core::") || path.starts_with("alloc::") || path.starts_with("std::") {
            return Ok(None);
        }
        Ok(self.find(path)?.map(|f| f.decl.clone()))
    }
}

/// The declarations of types named `name` inside function bodies of
/// source file `src`: (the function's name, the byte offset of the
/// declaration, the declaration).
pub fn local_decls_named(src: &str, name: &str) -> Vec<(String, usize, AdtDecl)> {
    let mut t = AdtTable::new();
    t.add_file("lib", "", src);
    let found = t.by_name.remove(name).unwrap_or_default();
    found
        .into_iter()
        .filter_map(|f| {
            let (_, at) = f.local?;
            Some((f.module.rsplit("::").next().unwrap_or("").to_string(), at, f.decl))
        })
        .collect()
}

/// The declaration of the type `name` that a use at byte `at` of source
/// file `src` names: of those declared inside a function body, the one
/// whose block (where its name is in scope) is the innermost around `at`.
/// As `local_decls_named`: (the function's name, the byte offset of the
/// declaration, the declaration).
pub fn local_decl_around(src: &str, name: &str, at: usize) -> Option<(String, usize, AdtDecl)> {
    let mut t = AdtTable::new();
    t.add_file("lib", "", src);
    let found = t.by_name.remove(name).unwrap_or_default();
    let around = |f: &Found| f.local.map(|(b, _)| &t.blocks[b]).filter(|b| b.open < at && at < b.close);
    let (_, inner) = found.iter().filter_map(|f| Some((around(f)?.open, f))).max_by_key(|(open, _)| *open)?;
    let (_, decl_at) = inner.local?;
    Some((inner.module.rsplit("::").next().unwrap_or("").to_string(), decl_at, inner.decl.clone()))
}

/// `module` followed by the inline modules open at this point.
fn module_join(module: &str, mods: &[(String, i32)]) -> String {
    let mut parts: Vec<&str> = if module.is_empty() { Vec::new() } else { vec![module] };
    parts.extend(mods.iter().map(|m| m.0.as_str()));
    parts.join("::")
}

/// A declaration's path as users write it (`crate::a::Mixed`,
/// `oxide_device::Foo`).
fn display_path(f: &Found, name: &str) -> String {
    let krate = if f.krate.is_empty() { "crate" } else { f.krate.as_str() };
    let module = if f.module.is_empty() { String::new() } else { format!("{}::", f.module) };
    format!("`{krate}::{module}{name}`")
}

/// The module path of a source file of a crate whose root is `root`, by
/// Rust's file layout: `src/lib.rs` is the root, `src/a.rs` and
/// `src/a/mod.rs` are `a`, `src/a/b.rs` is `a::b`. `None` outside the
/// root's directory (`#[path]`, `include!`).
pub fn module_of_file(root: &std::path::Path, file: &std::path::Path) -> Option<String> {
    if file == root {
        return Some(String::new());
    }
    let rel = file.strip_prefix(root.parent()?).ok()?;
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    let ok = !parts.is_empty() && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
    ok.then(|| parts.join("::"))
}

/// After `enum Name`: optional generics and where clause, then the body.
/// Returns the declaration and the token index after it.
fn read_decl(toks: &[String], mut i: usize, kind: AdtKind) -> Option<(AdtDecl, usize)> {
    let head = i;
    while i < toks.len() && toks[i] != "{" && toks[i] != "(" && toks[i] != ";" {
        if toks[i] == "<" {
            i = skip_balanced(toks, i, "<", ">");
        } else {
            i += 1;
        }
    }
    let open = toks.get(i)?.clone();
    let maybe_unsized = toks[head..i].windows(2).any(|w| w[0] == "?" && w[1] == "Sized");
    if open == ";" {
        return Some((AdtDecl { kind, variants: vec![], fields: vec![], repr_c: false, repr: false, maybe_unsized: false }, i + 1));
    }
    let close = if open == "{" { "}" } else { ")" };
    let end = skip_balanced(toks, i, &open, close);
    let items = split_top_level(&toks[i + 1..end.saturating_sub(1)]);
    let names: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(k, item)| if open == "(" { k.to_string() } else { item_name(item) })
        .collect();
    let decl = match kind {
        AdtKind::Enum => AdtDecl { kind, variants: names, fields: vec![], repr_c: false, repr: false, maybe_unsized },
        _ => AdtDecl { kind, variants: vec![], fields: names, repr_c: false, repr: false, maybe_unsized },
    };
    Some((decl, end))
}

/// The name of a variant or field: the first identifier after attributes
/// and visibility.
fn item_name(item: &[String]) -> String {
    let mut i = 0;
    while i < item.len() {
        match item[i].as_str() {
            "#" => i = skip_balanced(item, i + 1, "[", "]"),
            "pub" => {
                i += 1;
                if item.get(i).map(String::as_str) == Some("(") {
                    i = skip_balanced(item, i, "(", ")");
                }
            }
            _ => return item[i].clone(),
        }
    }
    String::new()
}

/// Index just past the bracket that closes `toks[i]` (== `open`).
fn skip_balanced(toks: &[String], i: usize, open: &str, close: &str) -> usize {
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(i) {
        if t == open {
            depth += 1;
        } else if t == close {
            depth -= 1;
            if depth == 0 {
                return k + 1;
            }
        }
    }
    toks.len()
}

/// Splits at commas outside brackets; empty items (trailing comma) dropped.
/// After a top-level `=` (an explicit discriminant, `High = 1 << 30`),
/// `<` and `>` are operators, not brackets.
fn split_top_level(toks: &[String]) -> Vec<Vec<String>> {
    let mut items = vec![Vec::new()];
    let mut depth = 0i32;
    let mut in_expr = false;
    for t in toks {
        match t.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "<" if !in_expr => depth += 1,
            ">" if !in_expr => depth -= 1,
            "=" if depth == 0 => in_expr = true,
            "," if depth == 0 => {
                items.push(Vec::new());
                in_expr = false;
                continue;
            }
            _ => {}
        }
        items.last_mut().unwrap().push(t.clone());
    }
    items.retain(|i| !i.is_empty());
    items
}

/// Identifiers and single punctuation characters of Rust source, without
/// comments, strings and char literals (`->` and `=>` are dropped so that
/// their `>` does not unbalance generics), and the byte offset of each.
fn scan(src: &str) -> (Vec<String>, Vec<usize>) {
    let b = src.as_bytes();
    let mut toks = Vec::new();
    let mut offs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        // Byte-wise: non-ASCII text (comments, strings, 'λ') must not be
        // sliced inside a character.
        let find = |from: usize, pat: &[u8]| b[from.min(b.len())..].windows(pat.len()).position(|w| w == pat);
        if b[i..].starts_with(b"//") {
            i = find(i, b"\n").map_or(b.len(), |n| i + n);
        } else if b[i..].starts_with(b"/*") {
            i = find(i + 2, b"*/").map_or(b.len(), |n| i + n + 4);
        } else if c == b'"' {
            i = skip_string(b, i + 1);
        } else if let Some(end) = raw_string_end(b, i) {
            i = end;
        } else if c == b'\'' && b.get(i + 1 + utf8_len(b.get(i + 1).copied().unwrap_or(0))) == Some(&b'\'') {
            i += 2 + utf8_len(b[i + 1]);
        } else if c == b'\'' && b.get(i + 1) == Some(&b'\\') {
            i = find(i + 2, b"'").map_or(b.len(), |n| i + n + 3);
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            toks.push(src[start..i].to_string());
            offs.push(start);
        } else if (c == b'-' || c == b'=') && b.get(i + 1) == Some(&b'>') {
            i += 2;
        } else {
            if !c.is_ascii_whitespace() && c.is_ascii() {
                toks.push((c as char).to_string());
                offs.push(i);
            }
            i += 1;
        }
    }
    (toks, offs)
}

/// Where a raw string literal that starts at `i` (`r"..."`, `br#"..."#`)
/// ends, if one does.
fn raw_string_end(b: &[u8], i: usize) -> Option<usize> {
    if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
        return None;
    }
    let r = i + (b[i] == b'b') as usize;
    if b.get(r) != Some(&b'r') {
        return None;
    }
    let hashes = b[r + 1..].iter().take_while(|&&c| c == b'#').count();
    if b.get(r + 1 + hashes) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let body = r + 2 + hashes;
    let n = b[body.min(b.len())..].windows(close.len()).position(|w| w == close.as_slice())?;
    Some(body + n + close.len())
}

/// Whether a token is an identifier (not punctuation).
fn is_ident(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// The token index of a function's body `{`, scanning from after its name
/// over the generics, parameters, return type and where clause; `None`
/// for a function without a body (`fn f();`).
fn fn_body_open(toks: &[String], mut i: usize) -> Option<usize> {
    let mut depth = 0i32;
    while i < toks.len() {
        match toks[i].as_str() {
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            "{" if depth == 0 => return Some(i),
            ";" if depth == 0 => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Length of the UTF-8 character whose first byte is `lead`.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

fn skip_string(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two methods `retain` declare a `JoinOnDrop` each: a use names the
    /// one whose block is the innermost around it.
    #[test]
    fn local_declaration_around_a_use() {
        let src = "impl A { fn retain(&mut self) { struct JoinOnDrop(u8);\n impl Drop for JoinOnDrop { fn drop(&mut self) {} }\n let x = 1; } }\n\
                   impl B { fn retain(&mut self) { struct JoinOnDrop(u8, u16, u32); let y = 2; } }\n\
                   fn other() { let z = 3; }\n";
        let at = |s: &str| src.find(s).unwrap();
        let first = local_decl_around(src, "JoinOnDrop", at("let x")).unwrap();
        assert_eq!((first.0.as_str(), first.1, first.2.fields.len()), ("retain", at("struct JoinOnDrop(u8)"), 1));
        // the Drop impl, inside the first `retain`, sees the first
        assert_eq!(local_decl_around(src, "JoinOnDrop", at("impl Drop")).unwrap().1, first.1);
        let second = local_decl_around(src, "JoinOnDrop", at("let y")).unwrap();
        assert_eq!((second.1, second.2.fields.len()), (at("struct JoinOnDrop(u8, u16"), 3));
        assert!(local_decl_around(src, "JoinOnDrop", at("let z")).is_none());
    }

    #[test]
    fn reads_enums_and_structs() {
        let mut t = AdtTable::new();
        t.add_source(
            r#"
            /// doc with enum Fake { X }
            #[derive(Clone)]
            pub enum Shape<T: Copy = u8> where T: Clone { Circle(f32), #[allow(x)] Rect { w: f32, h: Vec<T> }, Empty = 3 }
            pub struct Pt { pub x: f32, pub(crate) y: u8, z: fn(u8) -> u8 }
            struct Tup(u32, (u8, u8));
            union U { a: u32, b: f32 }
            const S: &str = "enum NotOne { A }";
            "#,
        );
        let shape = t.lookup("kernels::Shape").unwrap().unwrap();
        assert_eq!(shape.variants, ["Circle", "Rect", "Empty"]);
        assert_eq!(t.lookup("Pt").unwrap().unwrap().fields, ["x", "y", "z"]);
        assert_eq!(t.lookup("Tup").unwrap().unwrap().fields, ["0", "1"]);
        assert_eq!(t.lookup("U").unwrap().unwrap().kind, AdtKind::Union);
        assert_eq!(t.lookup("NotOne").unwrap(), None);
        assert_eq!(t.lookup("Fake").unwrap(), None);
        assert_eq!(t.lookup("core::option::Option").unwrap().unwrap().variants, ["None", "Some"]);
    }

    #[test]
    fn crates_reached_through_reexports() {
        let mut t = AdtTable::new();
        t.add_file("sha2", "", "pub enum TruncSide { Only }");
        t.add_file("sha2::digest", "core_api", "pub enum TruncSide { Left, Right }");
        assert_eq!(t.lookup("sha2::digest::core_api::TruncSide").unwrap().unwrap().variants, ["Left", "Right"]);
        assert_eq!(t.lookup("sha2::TruncSide").unwrap().unwrap().variants, ["Only"]);
        // a crate spelling is whole segments (`sha2x` is not `sha2`)
        assert_eq!(t.lookup("sha2x::TruncSide").unwrap(), None);
    }

    #[test]
    fn repr_c_structs() {
        let mut t = AdtTable::new();
        t.add_source("#[repr(C)] pub struct A { x: u8 } #[derive(Clone, Copy)] #[repr(C, align(16))] pub(crate) struct B(u8); \
                      struct C { y: u32 } #[repr(transparent)] struct D(u32); #[repr(C)] enum E { X } \
                      #[repr(C)] fn f() {} struct G;");
        assert!(t.lookup("A").unwrap().unwrap().repr_c && t.lookup("B").unwrap().unwrap().repr_c);
        for n in ["C", "D", "E", "G"] {
            assert!(!t.lookup(n).unwrap().unwrap().repr_c, "{n}");
        }
        // any repr at all
        for (n, r) in [("A", true), ("B", true), ("C", false), ("D", true), ("E", true), ("G", false)] {
            assert_eq!(t.lookup(n).unwrap().unwrap().repr, r, "{n}");
        }
    }

    #[test]
    fn copy_types() {
        let mut t = AdtTable::new();
        t.add_source("#[derive(Clone, Copy)] pub struct A { x: u8 } #[derive(Clone)] struct B(u8); \
                      struct C; impl Clone for C { fn clone(&self) -> C { C } } impl core::marker::Copy for C {} \
                      #[derive(Copy, Clone)] #[repr(u8)] enum E { X } #[derive(Debug)] struct D;");
        assert!(t.is_copy("A") && t.is_copy("k::C") && t.is_copy("E"));
        assert!(!t.is_copy("B") && !t.is_copy("D"));
    }

    #[test]
    fn names_by_full_path() {
        let mut t = AdtTable::new();
        t.add_file("", "a", "pub struct Mixed { x: u8 } pub mod inner { pub enum Mixed { P, Q } } fn f() { struct Local; }");
        t.add_file("", "b", "#[derive(Copy, Clone)] pub struct Mixed { y: u64, z: u8 } mod m { } enum Only { A }");
        // crc32fast: `State` in two private modules, and a re-exported one
        t.add_file("crc32fast", "baseline", "pub struct State { state: u32 }");
        t.add_file("crc32fast", "specialized::pclmulqdq", "pub struct State { state: u32, extra: u64 }");
        t.add_file("dev", "imp", "pub struct Slot(u32);");
        assert_eq!(t.lookup("a::Mixed").unwrap().unwrap().fields, ["x"]);
        assert_eq!(t.lookup("b::Mixed").unwrap().unwrap().fields, ["y", "z"]);
        assert_eq!(t.lookup("a::inner::Mixed").unwrap().unwrap().variants, ["P", "Q"]);
        assert_eq!(t.lookup("b::Only").unwrap().unwrap().variants, ["A"]);
        assert_eq!(t.lookup("crc32fast::baseline::State").unwrap().unwrap().fields, ["state"]);
        assert_eq!(t.lookup("crc32fast::specialized::pclmulqdq::State").unwrap().unwrap().fields, ["state", "extra"]);
        // printed through a re-export, or declared in a function: the one
        // of that name in the crate
        assert_eq!(t.lookup("dev::Slot").unwrap().unwrap().fields, ["0"]);
        assert!(t.lookup("a::f::Local").unwrap().is_some());
        let e = t.lookup("c::Mixed").unwrap_err();
        assert!(e.contains("`c::Mixed`") && e.contains("`crate::a::Mixed`") && e.contains("`crate::b::Mixed`"), "{e}");
        assert!(t.lookup("crc32fast::State").is_err());
        assert_eq!(t.lookup("other::State").unwrap(), None);
        assert!(t.is_copy("b::Mixed") && !t.is_copy("a::Mixed"));
    }

    #[test]
    fn types_declared_in_function_bodies() {
        // two functions with an `L` each, a nested function's, one in a
        // block and one in a closure; raw strings do not unbalance braces
        let src = r##"fn a() { struct L(u8); }
fn b() -> u8 { let s = r#"}{"#; #[derive(Clone, Copy)] struct L(u64); impl Copy for L {} { struct M { y: L } } 1 }
fn d() { fn inner(x: u8) -> [u8; 2] { struct L(u16, u8); [x; 2] } let c = || { enum E { P } }; }
mod m { pub fn f() { mod deep { pub struct N; } } }
struct Top; fn sig(f: fn(u8) -> u8); "##;
        let mut t = AdtTable::new();
        t.add_source(src);
        let local = |p: &str| t.local_type(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        let (a, b) = (local("a::L").unwrap(), local("b::L").unwrap());
        assert_eq!(t.lookup("a::L").unwrap().unwrap().fields, ["0"]);
        assert_eq!((a.name.as_str(), a.scope.as_str(), b.scope.as_str()), ("L", "a", "b"));
        assert_eq!(t.root_file_offset(a.block), Some(src.find('{').unwrap()));
        assert_eq!(t.root_file_offset(b.block), Some(src.find("-> u8 {").unwrap() + 6));
        assert!(t.is_copy("b::L") && !t.is_copy("a::L"));
        // `M` in a block of `b`'s body: that block, which sees `b`'s `L`
        let m = local("b::M").unwrap();
        assert_eq!(t.root_file_offset(m.block), Some(src.find("{ struct M").unwrap()));
        assert_eq!(t.common_block(&[b.block, m.block]), Some(m.block));
        assert_eq!(t.common_block(&[a.block, b.block]), None);
        assert_eq!(local("d::inner::L").unwrap().scope, "d::inner");
        // a closure's type: printed `d::{closure#0}::E`, declared in `d`
        assert_eq!(local("d::{closure#0}::E").unwrap().scope, "d");
        // a module inside a function body does not see the body's names
        let n = local("m::f::deep::N").unwrap();
        assert_eq!(n.scope, "m::f::deep");
        assert_eq!(t.common_block(&[n.block]), Some(n.block));
        assert_eq!(t.common_block(&[n.block, a.block]), None);
        // not declared in a body; a path that names another scope
        assert_eq!(local("Top"), None);
        assert_eq!(local("z::M"), None);
        // two `L`s in blocks of one body print alike: refused
        let mut two = AdtTable::new();
        two.add_source("fn f() { { struct L(u8); } { struct L(u64); } { struct K; } { struct K; } }");
        assert!(two.lookup("f::L").unwrap_err().contains("2 types declared in blocks of one function body"));
        assert!(two.lookup("f::K").is_err());
    }

    #[test]
    fn structs_declared_in_generic_functions() {
        // arrayvec's retain: a struct in a method body of a generic impl,
        // printed `arrayvec::ArrayVec<T, CAP>::retain::BackshiftOnDrop<..>`
        let mut t = AdtTable::new();
        t.add_file("arrayvec", "arrayvec", "pub struct ArrayVec<T, const CAP: usize> { len: u32, xs: [T; CAP] } \
                    impl<T, const CAP: usize> ArrayVec<T, CAP> { pub fn retain<F>(&mut self, mut f: F) { \
                    struct BackshiftOnDrop<'a, T, const CAP: usize> { v: &'a mut ArrayVec<T, CAP>, processed_len: usize, \
                    deleted_cnt: usize, original_len: usize } \
                    impl<T, const CAP: usize> Drop for BackshiftOnDrop<'_, T, CAP> { fn drop(&mut self) {} } \
                    #[repr(C)] struct Held(u8); enum Which { A } } }");
        let d = t.lookup("arrayvec::ArrayVec::retain::BackshiftOnDrop").unwrap().unwrap();
        assert_eq!((d.kind, d.repr), (AdtKind::Struct, false));
        assert_eq!(d.fields, ["v", "processed_len", "deleted_cnt", "original_len"]);
        assert!(t.lookup("arrayvec::ArrayVec::retain::Held").unwrap().unwrap().repr);
        assert_eq!(t.lookup("arrayvec::ArrayVec::retain::Which").unwrap().unwrap().kind, AdtKind::Enum);
        assert!(!d.maybe_unsized);
        t.add_source("struct Tail<T: ?Sized> { n: u8, t: T } struct W<T> where T: ?Sized + Copy { t: T }");
        assert!(t.lookup("Tail").unwrap().unwrap().maybe_unsized && t.lookup("W").unwrap().unwrap().maybe_unsized);
    }

    #[test]
    fn modules_of_files() {
        let root = std::path::Path::new("/k/src/lib.rs");
        let m = |f: &str| module_of_file(root, std::path::Path::new(f));
        assert_eq!(m("/k/src/lib.rs").as_deref(), Some(""));
        assert_eq!(m("/k/src/a.rs").as_deref(), Some("a"));
        assert_eq!(m("/k/src/a/mod.rs").as_deref(), Some("a"));
        assert_eq!(m("/k/src/a/deep.rs").as_deref(), Some("a::deep"));
        assert_eq!(m("/k/common.rs"), None);
    }

    #[test]
    fn shifts_in_discriminants() {
        let mut t = AdtTable::new();
        t.add_source("enum Level { Low = -1000, High = 1 << 30, Top = (3 * 7 + 1) << 2, Neg = -(1 << 20) - 5, Last }");
        let d = t.lookup("Level").unwrap().unwrap();
        assert_eq!(d.variants, ["Low", "High", "Top", "Neg", "Last"]);
    }

    #[test]
    fn non_ascii_source() {
        let mut t = AdtTable::new();
        t.add_source("// grüß\nconst C: char = 'λ';\nconst S: &str = \"ü\";\n/* é */ enum E { A, B }\n");
        assert_eq!(t.lookup("E").unwrap().unwrap().variants, ["A", "B"]);
    }
}
