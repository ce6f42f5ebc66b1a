//! Names in a dependency's source resolved to the items they name, for
//! assoc.rs's projections (`type BufferKind = Eager;` in sha2, `Eager`
//! imported by `use digest::{block_buffer::Eager, ..}`; `T::BufferKind`
//! through the trait of T's bounds that declares it). A module's scope is
//! read from its file's top level: its items, its `mod`s and its `use`
//! items; paths start at `crate`, `self`, `super`, the module's scope, or
//! a crate the module's crate depends on or re-exports (CratePaths), or
//! a glob import (`use` items read by usetree.rs; a glob is searched for
//! types, traits and modules the importing module may name). A module
//! without a file of its own (`mod m { .. }`, `#[path]`), a macro's item,
//! core's items and anything else not read is an error saying which name
//! was not resolved: a name is never guessed by its last segment.

use std::path::{Path as FsPath, PathBuf};

use crate::library::{tokens, Libraries};
use crate::usetree::parse_use;

/// Steps through modules and `use` items before a name is given up.
const DEPTH: u32 = 24;

thread_local! {
    /// The (module, name) pairs whose glob imports are being searched.
    static GLOB_SEARCH: std::cell::RefCell<Vec<(String, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A module of a dependency: its crate (the crate's name), its path in
/// the crate (empty for the root) and its source file.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Module {
    pub krate: String,
    pub path: Vec<String>,
    pub file: PathBuf,
}

/// What a name stands for.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Named {
    Module(Module),
    /// An item declared in `module`: its keyword (`struct`, `trait`,
    /// `type`, ..) and name.
    Item { module: Module, kind: String, name: String },
}

/// Who may name a binding of a module, from its `pub`: anyone, the
/// crate, or the module (a private binding) or its parent (`pub(super)`)
/// and everything below it.
#[derive(Clone, Debug, PartialEq)]
enum Vis {
    Pub,
    Crate,
    Private,
    Super,
    /// `pub(in crate::a::b)`: the module path in the crate.
    In(Vec<String>),
}

impl Vis {
    /// Whether module `from` may name a binding of this visibility that
    /// module `owner` has.
    fn visible(&self, owner: &Module, from: &Module) -> bool {
        let within = |p: &[String]| from.krate == owner.krate && from.path.starts_with(p);
        match self {
            Vis::Pub => true,
            Vis::Crate => from.krate == owner.krate,
            Vis::Private => within(&owner.path),
            Vis::Super => match owner.path.split_last() {
                Some((_, up)) => within(up),
                None => within(&owner.path),
            },
            Vis::In(p) => within(p),
        }
    }

    /// The same visibility with `owner` (the module whose binding it is)
    /// put in: `Private` and `Super` as `In`.
    fn absolute(&self, owner: &Module) -> Vis {
        match self {
            Vis::Private => Vis::In(owner.path.clone()),
            Vis::Super => Vis::In(owner.path.split_last().map_or(owner.path.clone(), |(_, up)| up.to_vec())),
            v => v.clone(),
        }
    }

    /// The narrower of two absolute visibilities in one crate: what a
    /// glob import of visibility `self` makes of an item of visibility
    /// `other` (never more visible than the item).
    fn narrower(self, other: Vis) -> Vis {
        match (self, other) {
            (Vis::Pub, v) | (v, Vis::Pub) => v,
            (Vis::Crate, v) | (v, Vis::Crate) => v,
            (Vis::In(a), Vis::In(b)) => Vis::In(if a.len() >= b.len() { a } else { b }),
            (a, _) => a,
        }
    }
}

/// The visibility of the item whose keyword is token `k` (`pub`,
/// `pub(crate)` .. before it, past `const`, `unsafe`, `async`, `extern`
/// and an ABI string).
fn vis_at(t: &[(String, i32)], k: usize) -> Vis {
    let word = |j: usize| t.get(j).filter(|x| x.1 == 0).map(|x| x.0.as_str());
    let mut j = k;
    while j > 0 && matches!(word(j - 1), Some("const" | "unsafe" | "async" | "extern" | "\"\"")) {
        j -= 1;
    }
    match word(j.wrapping_sub(1)) {
        Some("pub") => Vis::Pub,
        Some(")") => {
            let Some(open) = (0..j - 1).rev().find(|&i| t[i].1 == 0) else { return Vis::Private };
            if t[open].0 != "(" || open == 0 || word(open - 1) != Some("pub") {
                return Vis::Private;
            }
            let inner: Vec<&str> = t[open + 1..j - 1].iter().map(|x| x.0.as_str()).filter(|w| *w != ":").collect();
            match inner.as_slice() {
                ["crate"] => Vis::Crate,
                ["super"] => Vis::Super,
                ["in", "crate", rest @ ..] => Vis::In(rest.iter().map(|w| w.to_string()).collect()),
                // `pub(self)`, and `pub(in ..)` from `self` or `super`:
                // taken as the narrowest
                _ => Vis::Private,
            }
        }
        _ => Vis::Private,
    }
}

/// The top level of a module's file: its items (keyword, name), `mod`s
/// with a file of their own and inline ones, `use` bindings (name, path)
/// and glob imports (the module's path), each with its visibility.
#[derive(Default, Debug)]
struct Scope {
    items: Vec<(String, String, Vis)>,
    file_mods: Vec<(String, Vis)>,
    inline_mods: Vec<(String, Vis)>,
    uses: Vec<(String, Vec<String>, Vis)>,
    globs: Vec<(Vec<String>, Vis)>,
}

fn scope_of(src: &str) -> Scope {
    let t = tokens(src);
    let mut s = Scope::default();
    let word = |k: usize| t.get(k).filter(|x| x.1 == 0).map(|x| x.0.as_str());
    let mut k = 0;
    while k < t.len() {
        if t[k].1 != 0 {
            k += 1;
            continue;
        }
        match t[k].0.as_str() {
            "mod" => {
                if let Some(n) = word(k + 1) {
                    // `#[path = ".."] mod m;` names another file
                    let path_attr = k >= 2 && word(k - 1) == Some("]") && (0..k).rev().take(8).any(|j| t[j].0 == "path");
                    let m = (n.to_string(), vis_at(&t, k));
                    match word(k + 2) {
                        Some(";") if !path_attr => s.file_mods.push(m),
                        _ => s.inline_mods.push(m),
                    }
                }
            }
            "struct" | "enum" | "union" | "trait" | "type" | "fn" | "static" | "const" => {
                let mut n = k + 1;
                while matches!(word(n), Some("mut" | "unsafe" | "fn" | "extern")) {
                    n += 1;
                }
                if let Some(name) = word(n).filter(|w| w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') && *w != "_") {
                    let kind = if t[k].0 == "const" && word(k + 1) == Some("fn") { "fn" } else { t[k].0.as_str() };
                    if !s.items.iter().any(|(_, i, _)| i == name) {
                        s.items.push((kind.to_string(), name.to_string(), vis_at(&t, k)));
                    }
                }
            }
            "use" => {
                let end = (k..t.len()).find(|&j| t[j].0 == ";" && t[j].1 == 0).unwrap_or(t.len());
                let toks: Vec<&str> = t[k + 1..end].iter().map(|x| x.0.as_str()).collect();
                let vis = vis_at(&t, k);
                for e in parse_use(&toks) {
                    match e.name() {
                        None => s.globs.push((e.path, vis.clone())),
                        Some(name) if name != "_" && !e.target().is_empty() => s.uses.push((name.to_string(), e.target().to_vec(), vis.clone())),
                        Some(_) => {}
                    }
                }
                k = end;
            }
            // `extern crate typenum;`, `extern crate a as b;`
            "crate" if k > 0 && word(k - 1) == Some("extern") => {
                if let Some(n) = word(k + 1) {
                    let alias = (word(k + 2) == Some("as")).then(|| word(k + 3)).flatten();
                    s.uses.push((alias.unwrap_or(n).to_string(), vec![n.to_string()], vis_at(&t, k - 1)));
                }
            }
            _ => {}
        }
        k += 1;
    }
    s
}

/// What name resolution needs to know of the crates: each one's root
/// file, the crates each names (`--extern`s, crate re-exports), and how
/// the kernel spells an item of each.
pub(super) trait Crates {
    fn root_source(&self, krate: &str) -> Option<PathBuf>;
    fn crate_in_scope(&self, from: &str, name: &str) -> Option<String>;
    /// Item `path` (the crate's spelling) of crate `krate` as the kernel
    /// spells it; None when the crate's MIR is not read.
    fn kernel_item_path(&self, krate: &str, path: &str) -> Option<String>;
}

impl Crates for Libraries<'_> {
    fn root_source(&self, krate: &str) -> Option<PathBuf> {
        Libraries::root_source(self, krate)
    }
    fn crate_in_scope(&self, from: &str, name: &str) -> Option<String> {
        Libraries::crate_in_scope(self, from, name)
    }
    fn kernel_item_path(&self, krate: &str, path: &str) -> Option<String> {
        Some(self.get(krate)?.ok()?.kernel_item_path(path))
    }
}

/// Resolves names in the sources of the dependencies of `libs`.
pub(super) struct SrcNames<'l> {
    pub libs: &'l dyn Crates,
}

impl SrcNames<'_> {
    /// The root module of crate `krate` (its name).
    pub fn root(&self, krate: &str) -> Result<Module, String> {
        let file = self.libs.root_source(krate).ok_or_else(|| format!("the source of the crate `{krate}` is not known"))?;
        Ok(Module { krate: krate.to_string(), path: Vec::new(), file })
    }

    /// The module whose file is `file`, in crate `krate`: its path read
    /// from the file's place under the root's directory, each step
    /// checked against its parent's `mod NAME;`.
    pub fn module_of_file(&self, krate: &str, file: &FsPath) -> Result<Module, String> {
        let root = self.root(krate)?;
        if root.file == file {
            return Ok(root);
        }
        let dir = root.file.parent().unwrap_or(FsPath::new("/"));
        let rel = file.strip_prefix(dir).map_err(|_| format!("{} is not a file of the crate `{krate}`", file.display()))?;
        let mut names: Vec<String> = rel.iter().map(|c| c.to_string_lossy().to_string()).collect();
        let last = names.pop().unwrap_or_default();
        match last.strip_suffix(".rs") {
            Some("mod") => {}
            Some(stem) => names.push(stem.to_string()),
            None => return Err(format!("{} is not a Rust module file", file.display())),
        }
        let mut m = root;
        for n in &names {
            m = self.child(&m, n)?;
        }
        match m.file == file {
            true => Ok(m),
            false => Err(format!("{} is not the file of the module `{}` of the crate `{krate}`", file.display(), names.join("::"))),
        }
    }

    /// Module `name` declared in `m` by `mod name;`.
    fn child(&self, m: &Module, name: &str) -> Result<Module, String> {
        let scope = self.scope(m)?;
        if !scope.file_mods.iter().any(|x| x.0 == name) {
            let why = match scope.inline_mods.iter().any(|x| x.0 == name) {
                true => "its items are not in a file of its own",
                false => "it is not declared there",
            };
            return Err(format!("the module `{name}` of {} is not read ({why})", m.file.display()));
        }
        let stem = m.file.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        let dir = m.file.parent().unwrap_or(FsPath::new("/"));
        let dir = match m.path.is_empty() || stem == "mod" {
            true => dir.to_path_buf(),
            false => dir.join(&stem),
        };
        let file = [dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")].into_iter().find(|f| f.is_file());
        let file = file.ok_or_else(|| format!("the file of the module `{name}` of {} is not found", m.file.display()))?;
        let mut path = m.path.clone();
        path.push(name.to_string());
        Ok(Module { krate: m.krate.clone(), path, file })
    }

    fn scope(&self, m: &Module) -> Result<Scope, String> {
        let src = std::fs::read_to_string(&m.file).map_err(|e| format!("{}: {e}", m.file.display()))?;
        Ok(scope_of(&src))
    }

    /// The source text of module `m`'s file.
    pub fn source(&self, m: &Module) -> Result<String, String> {
        std::fs::read_to_string(&m.file).map_err(|e| format!("{}: {e}", m.file.display()))
    }

    /// What path `segs` (as written in module `m`'s file) names.
    pub fn resolve(&self, m: &Module, segs: &[String]) -> Result<Named, String> {
        self.resolve_at(m, segs, 0)
    }

    fn resolve_at(&self, m: &Module, segs: &[String], depth: u32) -> Result<Named, String> {
        let (first, rest) = segs.split_first().ok_or("an empty path")?;
        if depth > DEPTH {
            return Err(format!("`{}` leads through too many `use` items", segs.join("::")));
        }
        let mut at = match first.as_str() {
            "crate" => Named::Module(self.root(&m.krate)?),
            "self" => Named::Module(m.clone()),
            "super" => Named::Module(self.parent(m)?),
            _ => self.in_scope(m, first, depth)?,
        };
        for s in rest {
            at = match (at, s.as_str()) {
                (Named::Module(x), "super") => Named::Module(self.parent(&x)?),
                (Named::Module(x), _) => self.member(&x, s, depth)?,
                (Named::Item { name, .. }, _) => return Err(format!("`{name}::{s}`: a path through an item is not read")),
            };
        }
        Ok(at)
    }

    fn parent(&self, m: &Module) -> Result<Module, String> {
        let mut p = self.root(&m.krate)?;
        let Some((_, up)) = m.path.split_last() else { return Err(format!("`super` at the root of the crate `{}`", m.krate)) };
        for n in up {
            p = self.child(&p, n)?;
        }
        Ok(p)
    }

    /// Name `name` used in module `m`: a member of `m` or a crate.
    fn in_scope(&self, m: &Module, name: &str, depth: u32) -> Result<Named, String> {
        match self.member(m, name, depth) {
            Ok(n) => Ok(n),
            Err(why) => match self.libs.crate_in_scope(&m.krate, name) {
                Some(k) => Ok(Named::Module(self.root(&k)?)),
                None => Err(why),
            },
        }
    }

    /// What `name` is in module `m`: an item or module it declares, a
    /// name it imports, (at a crate's root) a crate it re-exports, or a
    /// type, trait or module of one of its glob imports.
    fn member(&self, m: &Module, name: &str, depth: u32) -> Result<Named, String> {
        match self.binding(m, name, depth)? {
            Some((n, _)) => Ok(n),
            None => Err(format!("`{name}` is not declared or imported in {}", m.file.display())),
        }
    }

    /// `member`, with the binding's visibility in `m`; None when `m`
    /// surely has no such binding (every glob import read).
    fn binding(&self, m: &Module, name: &str, depth: u32) -> Result<Option<(Named, Vis)>, String> {
        if depth > DEPTH {
            return Err(format!("`{name}` leads through too many `use` items"));
        }
        let scope = self.scope(m)?;
        if let Some((kind, _, vis)) = scope.items.iter().find(|(_, n, _)| n == name) {
            return Ok(Some((Named::Item { module: m.clone(), kind: kind.clone(), name: name.to_string() }, vis.clone())));
        }
        if let Some((_, vis)) = scope.file_mods.iter().chain(&scope.inline_mods).find(|(n, _)| n == name) {
            return Ok(Some((Named::Module(self.child(m, name)?), vis.clone())));
        }
        let mut uses = scope.uses.iter().filter(|(n, _, _)| n == name);
        if let Some((_, path, vis)) = uses.next() {
            // a name imported twice (a type and a function of one name)
            // is not told apart
            if uses.next().is_some() {
                return Err(format!("`{name}` is imported twice in {}", m.file.display()));
            }
            return Ok(Some((self.resolve_at(m, path, depth + 1)?, vis.clone())));
        }
        if m.path.is_empty() {
            if let Some(k) = self.libs.crate_in_scope(&m.krate, name) {
                return Ok(Some((Named::Module(self.root(&k)?), Vis::Private)));
            }
        }
        self.glob_binding(m, &scope, name, depth)
    }

    /// `name` through the glob imports of `m` (typenum's `pub use
    /// crate::marker_traits::*` brings `Unsigned`): the type, trait or
    /// module of that name that one of the globbed modules lets `m` name
    /// (rustc rejects a use of a name two globs bring). Globs that cannot
    /// be read (an inline module, a generated file) do not stop the
    /// others: a type that compiled is the one; when none is found and
    /// one was not read, the error says which.
    fn glob_binding(&self, m: &Module, scope: &Scope, name: &str, depth: u32) -> Result<Option<(Named, Vis)>, String> {
        // globs that lead back to a module already being searched for this
        // name (tinyvec's modules glob each other) add nothing: without
        // this the search is exponential in DEPTH
        let key = (format!("{}::{}@{}", m.krate, m.path.join("::"), m.file.display()), name.to_string());
        if GLOB_SEARCH.with(|g| g.borrow().contains(&key)) {
            return Ok(None);
        }
        GLOB_SEARCH.with(|g| g.borrow_mut().push(key));
        let r = self.glob_binding_uncycled(m, scope, name, depth);
        GLOB_SEARCH.with(|g| g.borrow_mut().pop());
        r
    }

    fn glob_binding_uncycled(&self, m: &Module, scope: &Scope, name: &str, depth: u32) -> Result<Option<(Named, Vis)>, String> {
        let mut found: Vec<(Named, Vis)> = Vec::new();
        let mut unread: Vec<String> = Vec::new();
        for (path, vis) in &scope.globs {
            let glob = || format!("`use {}::*`", path.join("::"));
            let target = match self.resolve_at(m, path, depth + 1) {
                Ok(Named::Module(t)) => t,
                // an enum's variants: no types
                Ok(Named::Item { .. }) => continue,
                Err(why) => {
                    unread.push(format!("{} ({why})", glob()));
                    continue;
                }
            };
            match self.binding(&target, name, depth + 1) {
                Ok(Some((n, v))) if v.visible(&target, m) && in_type_namespace(&n) => {
                    if !found.iter().any(|f| f.0 == n) {
                        found.push((n, vis.absolute(m).narrower(v.absolute(&target))));
                    }
                }
                Ok(_) => {}
                Err(why) => unread.push(format!("{} ({why})", glob())),
            }
        }
        match (found.len(), unread.first()) {
            (1, _) => Ok(found.pop()),
            (0, None) => Ok(None),
            (0, Some(why)) => Err(format!(
                "`{name}` is not declared in {} and may come through a glob import that mir-export cannot read: {why}",
                m.file.display()
            )),
            _ => Err(format!("`{name}` comes through two glob imports of {}", m.file.display())),
        }
    }

    /// The kernel's spelling of item `name` of module `m`
    /// (`sha2::digest::block_buffer::Eager`).
    pub fn kernel_path(&self, m: &Module, name: &str) -> Result<String, String> {
        let path = [m.path.clone(), vec![name.to_string()]].concat().join("::");
        self.libs.kernel_item_path(&m.krate, &path).ok_or_else(|| format!("the MIR of the crate `{}` is not read", m.krate))
    }

    /// The text after `trait NAME` in module `m`'s file up to the end of
    /// its block: (its generics and supertraits, up to `{`; its block).
    pub fn trait_decl(&self, m: &Module, name: &str) -> Result<(String, String), String> {
        let src = self.source(m)?;
        let t = tokens(&src);
        let k = (1..t.len())
            .find(|&k| t[k].1 == 0 && t[k].0 == name && t[k - 1].0 == "trait")
            .ok_or_else(|| format!("no `trait {name}` in {}", m.file.display()))?;
        let open = (k..t.len()).find(|&j| t[j].0 == "{" && t[j].1 == 0).ok_or_else(|| format!("no block of `trait {name}`"))?;
        let close = (open + 1..t.len()).find(|&j| t[j].0 == "}" && t[j].1 == 0).unwrap_or(t.len());
        let join = |r: &[(String, i32)]| r.iter().map(|x| x.0.as_str()).collect::<Vec<_>>().join(" ");
        Ok((join(&t[k + 1..open]), join(&t[open + 1..close])))
    }
}

impl SrcNames<'_> {
    /// Whether item path `segs` of crate `krate` (from its root) goes
    /// through `pub` bindings only, so that another crate can name it;
    /// None when a step is not read.
    pub fn is_public_path(&self, krate: &str, segs: &[String]) -> Option<bool> {
        let mut m = self.root(krate).ok()?;
        for (k, s) in segs.iter().enumerate() {
            let (named, vis) = self.binding(&m, s, 0).ok()??;
            if vis != Vis::Pub {
                return Some(false);
            }
            match named {
                Named::Module(x) => m = x,
                Named::Item { .. } => return (k + 1 == segs.len()).then_some(true),
            }
        }
        None
    }

    /// The declaration of struct `name` in module `m`'s file: its generic
    /// parameters' and `where` clause's text (`<T, A, F: FnMut(A) -> T>`,
    /// empty without), and its
    /// fields' types as written, in declaration order. Err for a struct
    /// whose layout is not that of its fields' (a `#[repr(..)]` or a
    /// `#[rustc_..]` layout attribute, a `?Sized` parameter) and for a
    /// declaration not read.
    pub fn struct_decl(&self, m: &Module, name: &str) -> Result<(String, Vec<String>), String> {
        let src = self.source(m)?;
        let text: String = src.lines().map(|l| strip_line_comment(l)).collect::<Vec<_>>().join("\n");
        let at = find_struct(&text, name).ok_or_else(|| format!("no `struct {name}` in {}", m.file.display()))?;
        let attrs = attributes_before(&text, at);
        if attrs.iter().any(|a| a.starts_with("#[repr") || a.starts_with("#[rustc_")) {
            return Err(format!("`{name}` has a layout attribute ({})", attrs.join(" ")));
        }
        let rest = &text[at + "struct ".len() + name.len()..];
        // the body's bracket after the generics (`<F: FnMut(A) -> T>`)
        let after = match rest.trim_start().starts_with('<') {
            true => rest.find('<').unwrap_or(0) + crate::mirparse::lexer::matching_close(rest.trim_start(), '<', '>').ok_or_else(|| format!("the generics of `{name}` are not read"))?,
            false => 0,
        };
        let open = after + rest[after..].find(['{', '(', ';']).ok_or_else(|| format!("`struct {name}` has no body"))?;
        let generics = rest[..open].trim().to_string();
        if rest[..open].contains("?Sized") {
            return Err(format!("`{name}` has a `?Sized` parameter"));
        }
        let fields = match rest.as_bytes()[open] {
            b';' => Some(Vec::new()),
            b'{' => struct_fields(&rest[open..], '{', '}', true),
            _ => struct_fields(&rest[open..], '(', ')', false),
        };
        Ok((generics, fields.ok_or_else(|| format!("the fields of `{name}` are not read"))?))
    }
}

impl SrcNames<'_> {
    /// Whether module `m` declares `enum NAME {}`: no variants, so no
    /// value (laid out as any such enum, `core::convert::Infallible`).
    pub fn is_empty_enum(&self, m: &Module, name: &str) -> bool {
        let Ok(src) = self.source(m) else { return false };
        let t = tokens(&src);
        (1..t.len()).any(|k| {
            t[k].1 == 0 && t[k].0 == name && t[k - 1].0 == "enum" && t.get(k + 1).map(|x| x.0.as_str()) == Some("{") && t.get(k + 2).map(|x| x.0.as_str()) == Some("}")
        })
    }
}

/// `l` without a trailing `// ..` comment (none is inside a string in a
/// struct declaration's lines).
fn strip_line_comment(l: &str) -> &str {
    l.split("//").next().unwrap_or(l)
}

/// The byte offset of `struct NAME` (followed by `<`, `{`, `(`, `;` or a
/// space) at the top level of `text`.
fn find_struct(text: &str, name: &str) -> Option<usize> {
    let head = format!("struct {name}");
    text.match_indices(&head).map(|(k, _)| k).find(|&k| {
        let before_ok = k == 0 || !text[..k].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let after = text[k + head.len()..].chars().next();
        before_ok && matches!(after, Some('<' | '{' | '(' | ';' | ' ' | '\n'))
    })
}

/// The attributes (`#[..]`, joined to one line each) just before the item
/// whose keyword is at `at` (its visibility skipped).
fn attributes_before(text: &str, at: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut before = text[..at].trim_end();
    // `pub`, `pub(crate)`, `pub(super)` ..
    if let Some(b) = before.strip_suffix(')').and_then(|b| b.rfind("pub(").map(|k| &before[..k])) {
        before = b.trim_end();
    } else if let Some(b) = before.strip_suffix("pub") {
        before = b.trim_end();
    }
    while before.ends_with(']') {
        let mut depth = 0i32;
        let mut start = None;
        for (i, c) in before.char_indices().rev() {
            match c {
                ']' => depth += 1,
                '[' => {
                    depth -= 1;
                    if depth == 0 {
                        start = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(open) = start.filter(|&i| before[..i].ends_with('#')) else { break };
        out.push(format!("#{}", before[open..].split_whitespace().collect::<Vec<_>>().join(" ")));
        before = before[..open - 1].trim_end();
    }
    out
}

/// The field types of a struct body starting at its `open` bracket:
/// `{ a: T, #[x] pub b: U }` (named) or `(pub T, U);`.
fn struct_fields(body: &str, open: char, close: char, named: bool) -> Option<Vec<String>> {
    let len = crate::mirparse::lexer::matching_close(body, open, close)?;
    let inner = &body[1..len - 1];
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut pieces = Vec::new();
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' if i > 0 && inner.as_bytes()[i - 1] == b'-' => {}
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                pieces.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&inner[start..]);
    for p in pieces {
        let mut p = p.trim();
        while p.starts_with("#[") {
            let n = crate::mirparse::lexer::matching_close(&p[1..], '[', ']')?;
            p = p[1 + n..].trim_start();
        }
        if p.is_empty() {
            continue;
        }
        if let Some(r) = p.strip_prefix("pub(") {
            p = r.split_once(')')?.1.trim_start();
        } else if let Some(r) = p.strip_prefix("pub ") {
            p = r.trim_start();
        }
        let ty = match named {
            true => p.split_once(':')?.1.trim(),
            false => p,
        };
        out.push(ty.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    Some(out)
}

/// Whether `n` is a module or an item of the type namespace (what a
/// glob import is searched for).
fn in_type_namespace(n: &Named) -> bool {
    match n {
        Named::Module(_) => true,
        Named::Item { kind, .. } => matches!(kind.as_str(), "struct" | "enum" | "union" | "trait" | "type"),
    }
}

impl SrcNames<'_> {
    /// The `.rs` files under the directory of crate `krate`'s root file.
    pub fn crate_files(&self, krate: &str) -> Result<Vec<PathBuf>, String> {
        let root = self.root(krate)?;
        let mut todo = vec![root.file.parent().unwrap_or(FsPath::new("/")).to_path_buf()];
        let mut out = Vec::new();
        while let Some(d) = todo.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else { continue };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    todo.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        out.sort();
        Ok(out)
    }

    /// The defaults of the generic parameters of type `name` declared in
    /// `m` (`struct W<T, O = NoOid>` → [None, Some(`NoOid`)]), as written.
    pub fn param_defaults(&self, m: &Module, name: &str) -> Result<Vec<Option<String>>, String> {
        let src = self.source(m)?;
        let t = tokens(&src);
        let k = (1..t.len())
            .find(|&k| t[k].1 == 0 && t[k].0 == name && matches!(t[k - 1].0.as_str(), "struct" | "enum" | "union"))
            .ok_or_else(|| format!("no declaration of `{name}` in {}", m.file.display()))?;
        if t.get(k + 1).map(|x| x.0.as_str()) != Some("<") {
            return Ok(Vec::new());
        }
        let mut depth = 0;
        let mut params = vec![String::new()];
        // a parameter's attribute (`#[unstable(feature = "allocator_api",
        // issue = "32838")] A: Allocator = Global` of alloc's `Vec`) is
        // skipped: `#`, then its brackets
        let mut attr: Option<u32> = None;
        for (w, _) in &t[k + 1..] {
            match (attr, w.as_str()) {
                (None, "#") if depth == 1 => {
                    attr = Some(0);
                    continue;
                }
                (Some(n), "[") => {
                    attr = Some(n + 1);
                    continue;
                }
                (Some(n), "]") => {
                    attr = (n > 1).then(|| n - 1);
                    continue;
                }
                (Some(_), _) => continue,
                _ => {}
            }
            match w.as_str() {
                "<" => depth += 1,
                ">" => depth -= 1,
                "," if depth == 1 => params.push(String::new()),
                _ => {}
            }
            if depth == 0 {
                break;
            }
            if !(depth == 1 && matches!(w.as_str(), "<" | ",")) {
                let p = params.last_mut().expect("one");
                p.push_str(w);
                p.push(' ');
            }
        }
        let params: Vec<String> = params.into_iter().map(|p| p.replace(" : : ", "::").trim().to_string()).filter(|p| !p.is_empty() && !p.starts_with('\'')).collect();
        Ok(params.iter().map(|p| p.split_once(" = ").map(|(_, d)| d.replace(' ', ""))).collect())
    }
}

/// Crates of a test, written under a temporary directory.
#[cfg(test)]
pub(super) mod fake {
    use std::collections::HashMap;
    use std::path::PathBuf;

    /// Their roots under `dir`, each one's `--extern`s and crate
    /// re-exports, and its kernel prefix.
    pub struct Fake {
        pub dir: PathBuf,
        pub scope: HashMap<&'static str, Vec<&'static str>>,
        pub prefix: HashMap<&'static str, &'static str>,
    }

    impl Fake {
        /// `files` (path under the directory, text) written to a
        /// directory of its own for test `what`.
        pub fn new(
            what: &str,
            files: &[(&str, &str)],
            scope: HashMap<&'static str, Vec<&'static str>>,
            prefix: HashMap<&'static str, &'static str>,
        ) -> Fake {
            let dir = std::env::temp_dir().join(format!("mir-export-{what}-{}", std::process::id()));
            for (f, text) in files {
                let f = dir.join(f);
                std::fs::create_dir_all(f.parent().unwrap()).unwrap();
                std::fs::write(f, text).unwrap();
            }
            Fake { dir, scope, prefix }
        }
    }

    impl super::Crates for Fake {
        fn root_source(&self, krate: &str) -> Option<PathBuf> {
            self.prefix.contains_key(krate).then(|| self.dir.join(krate).join("src/lib.rs"))
        }
        fn crate_in_scope(&self, from: &str, name: &str) -> Option<String> {
            self.scope.get(from)?.iter().find(|n| **n == name).map(|n| n.to_string())
        }
        fn kernel_item_path(&self, krate: &str, path: &str) -> Option<String> {
            Some(format!("{}::{path}", self.prefix.get(krate)?))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fake::Fake;
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn struct_declarations_give_their_field_types() {
        // core's `Wrapped` (ops/try_trait.rs), a comment and attributes
        let src = "#[repr(transparent)]\npub(crate) struct N<T>(pub T);\n// x\n#[allow(dead_code)]\npub(crate) struct Wrapped<T, A, F: FnMut(A) -> T> {\n    f: F, // the closure\n    #[doc(hidden)]\n    pub p: PhantomData<(T, A)>,\n}\n";
        let at = find_struct(src, "Wrapped").unwrap();
        assert_eq!(attributes_before(src, at), ["#[allow(dead_code)]"]);
        let text: String = src.lines().map(strip_line_comment).collect::<Vec<_>>().join("\n");
        let at = find_struct(&text, "Wrapped").unwrap();
        let body = &text[text[at..].find('{').unwrap() + at..];
        assert_eq!(struct_fields(body, '{', '}', true).unwrap(), ["F", "PhantomData<(T, A)>"]);
        let n = find_struct(src, "N").unwrap();
        assert_eq!(attributes_before(src, n), ["#[repr(transparent)]"]);
        assert_eq!(struct_fields("(pub T, u8);", '(', ')', false).unwrap(), ["T", "u8"]);
    }

    #[test]
    fn scopes_of_module_files() {
        let src = "use super::{A, B as C, d::{self, E}};\nuse crate::x::*;\npub use ::core::fmt;\nextern crate typenum as tn;\n\
                   pub struct Eager {}\nmod sealed;\nmod inner { pub struct Hidden; }\n#[path = \"o.rs\"]\nmod other;\n\
                   impl Foo for Bar { type Eager = u8; }\npub const fn f() {}\n";
        let s = scope_of(src);
        let uses: Vec<(String, String)> = s.uses.iter().map(|(n, p, _)| (n.clone(), p.join("::"))).collect();
        let want = [("A", "super::A"), ("C", "super::B"), ("d", "super::d"), ("E", "super::d::E"), ("fmt", "core::fmt"), ("tn", "typenum")];
        assert_eq!(uses, want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>());
        assert_eq!(s.globs, vec![(vec!["crate".to_string(), "x".to_string()], Vis::Private)]);
        let names = |v: &[(String, Vis)]| v.iter().map(|m| m.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(&s.file_mods), ["sealed"]);
        assert_eq!(names(&s.inline_mods), ["inner", "other"]);
        // the impl's `type Eager` is not a module item
        let items: Vec<(&str, &str)> = s.items.iter().map(|(k, n, _)| (k.as_str(), n.as_str())).collect();
        assert_eq!(items, [("struct", "Eager"), ("fn", "f")]);
    }

    #[test]
    fn visibilities() {
        let src = "pub struct A;\nstruct B;\npub(crate) fn c() {}\npub(super) mod d;\npub(in crate::x) type E = u8;\n\
                   pub unsafe extern \"C\" fn f() {}\npub(self) const G: u8 = 0;\npub use h::*;\npub extern crate tn;\n";
        let s = scope_of(src);
        let vis: Vec<(&str, Vis)> = s.items.iter().map(|(_, n, v)| (n.as_str(), v.clone())).collect();
        let want = [("A", Vis::Pub), ("B", Vis::Private), ("c", Vis::Crate), ("E", Vis::In(vec!["x".to_string()])), ("f", Vis::Pub), ("G", Vis::Private)];
        assert_eq!(vis, want);
        assert_eq!(s.file_mods, vec![("d".to_string(), Vis::Super)]);
        assert_eq!(s.globs, vec![(vec!["h".to_string()], Vis::Pub)]);
        assert_eq!(s.uses, vec![("tn".to_string(), vec!["tn".to_string()], Vis::Pub)]);
        let m = |k: &str, p: &[&str]| Module { krate: k.to_string(), path: p.iter().map(|s| s.to_string()).collect(), file: "f.rs".into() };
        let owner = m("k", &["a", "b"]);
        assert!(Vis::Private.visible(&owner, &m("k", &["a", "b", "c"])));
        assert!(!Vis::Private.visible(&owner, &m("k", &["a"])));
        assert!(Vis::Super.visible(&owner, &m("k", &["a"])));
        assert!(!Vis::Crate.visible(&owner, &m("other", &[])));
        assert!(Vis::In(vec!["a".to_string()]).visible(&owner, &m("k", &["a", "z"])));
    }

    /// typenum 1.16's root, cut down: `Unsigned` through `pub use
    /// crate::{marker_traits::*, ..}`, `U64` through a glob of an inline
    /// module whose items a build script generates.
    #[test]
    fn names_through_glob_imports() {
        let files = [
            (
                "typenum/src/lib.rs",
                "mod generated { include!(env!(\"TYPENUM_BUILD_CONSTS\")); }\npub mod marker_traits;\nmod private;\n\
                 pub use crate::{generated::consts, marker_traits::*, private::*};\npub use consts::{B0, *};\n",
            ),
            ("typenum/src/marker_traits.rs", "pub trait Unsigned { const USIZE: usize; }\ntrait Hidden {}\npub fn Both() {}\n"),
            ("typenum/src/private.rs", "pub(crate) trait Both {}\ntrait Hidden {}\n"),
            ("user/src/lib.rs", "use typenum::*;\npub mod inner;\n"),
            ("user/src/inner.rs", "use super::*;\n"),
        ];
        let fake = Fake::new("srcnames", &files, HashMap::from([("user", vec!["typenum"])]), HashMap::from([("typenum", "tn"), ("user", "user")]));
        let names = SrcNames { libs: &fake };
        let root = names.root("typenum").unwrap();
        let name = |m: &Module, n: &str| names.resolve(m, &[n.to_string()]);
        let Ok(Named::Item { module, kind, .. }) = name(&root, "Unsigned") else { panic!("{:?}", name(&root, "Unsigned")) };
        assert_eq!((module.path.join("::").as_str(), kind.as_str()), ("marker_traits", "trait"));
        // a private item of a globbed module is not imported; a
        // `pub(crate)` one is, within the crate; `Both` the function is
        // no type
        let e = name(&root, "Hidden").unwrap_err();
        assert!(e.contains("TYPENUM_BUILD") || e.contains("generated"), "{e}");
        let Ok(Named::Item { module, .. }) = name(&root, "Both") else { panic!() };
        assert_eq!(module.path, ["private"]);
        // `U64` may only come through the generated module: said so
        let e = name(&root, "U64").unwrap_err();
        assert!(e.contains("glob import") && e.contains("generated"), "{e}");
        // through globs of another crate and of a parent module
        let user = names.root("user").unwrap();
        let Ok(Named::Item { module, .. }) = name(&user, "Unsigned") else { panic!() };
        assert_eq!(module.path, ["marker_traits"]);
        assert!(name(&user, "Both").is_err(), "pub(crate) of typenum");
        let inner = names.module_of_file("user", &fake.dir.join("user/src/inner.rs")).unwrap();
        let Ok(Named::Item { module, .. }) = name(&inner, "Unsigned") else { panic!("{:?}", name(&inner, "Unsigned")) };
        assert_eq!(module.krate, "typenum");
        let _ = std::fs::remove_dir_all(&fake.dir);
    }
}
