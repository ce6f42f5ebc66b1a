//! Names in a dependency's source resolved to the items they name, for
//! assoc.rs's projections (`type BufferKind = Eager;` in sha2, `Eager`
//! imported by `use digest::{block_buffer::Eager, ..}`; `T::BufferKind`
//! through the trait of T's bounds that declares it). A module's scope is
//! read from its file's top level: its items, its `mod`s and its `use`
//! items; paths start at `crate`, `self`, `super`, the module's scope, or
//! a crate the module's crate depends on or re-exports (CratePaths). A
//! glob import, a module without a file of its own (`mod m { .. }`,
//! `#[path]`), a macro's item, core's items and anything else not read is
//! an error saying which name was not resolved: a name is never guessed
//! by its last segment.

use std::path::{Path as FsPath, PathBuf};

use crate::library::{tokens, Libraries};

/// Steps through modules and `use` items before a name is given up.
const DEPTH: u32 = 24;

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

/// The top level of a module's file: its items (keyword, name), `mod`s
/// with a file of their own, `use` bindings (name, path) and whether it
/// has glob imports.
#[derive(Default, Debug)]
struct Scope {
    items: Vec<(String, String)>,
    file_mods: Vec<String>,
    inline_mods: Vec<String>,
    uses: Vec<(String, Vec<String>)>,
    globs: bool,
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
                    match word(k + 2) {
                        Some(";") if !path_attr => s.file_mods.push(n.to_string()),
                        _ => s.inline_mods.push(n.to_string()),
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
                    if !s.items.iter().any(|(_, i)| i == name) {
                        s.items.push((kind.to_string(), name.to_string()));
                    }
                }
            }
            "use" => {
                let end = (k..t.len()).find(|&j| t[j].0 == ";" && t[j].1 == 0).unwrap_or(t.len());
                let toks: Vec<&str> = t[k + 1..end].iter().map(|x| x.0.as_str()).collect();
                let mut pos = 0;
                use_tree(&toks, &mut pos, &[], &mut s.uses, &mut s.globs);
                k = end;
            }
            // `extern crate typenum;`, `extern crate a as b;`
            "crate" if k > 0 && word(k - 1) == Some("extern") => {
                if let Some(n) = word(k + 1) {
                    let alias = (word(k + 2) == Some("as")).then(|| word(k + 3)).flatten();
                    s.uses.push((alias.unwrap_or(n).to_string(), vec![n.to_string()]));
                }
            }
            _ => {}
        }
        k += 1;
    }
    s
}

/// The bindings of a use tree (tokens, `::` as two `:`) under `prefix`.
fn use_tree(t: &[&str], pos: &mut usize, prefix: &[String], out: &mut Vec<(String, Vec<String>)>, globs: &mut bool) {
    let mut path = prefix.to_vec();
    // a leading `::`
    while t.get(*pos) == Some(&":") {
        *pos += 1;
    }
    loop {
        match t.get(*pos).copied() {
            Some("{") => {
                *pos += 1;
                while t.get(*pos).is_some_and(|x| *x != "}") {
                    use_tree(t, pos, &path, out, globs);
                    if t.get(*pos) == Some(&",") {
                        *pos += 1;
                    }
                }
                *pos += 1;
                return;
            }
            Some("*") => {
                *globs = true;
                *pos += 1;
                return;
            }
            Some(w) if w.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_') => {
                path.push(w.to_string());
                *pos += 1;
                if t.get(*pos) == Some(&":") && t.get(*pos + 1) == Some(&":") {
                    *pos += 2;
                    continue;
                }
                let mut name = w.to_string();
                if t.get(*pos) == Some(&"as") {
                    name = t.get(*pos + 1).map_or(name, |a| a.to_string());
                    *pos += 2;
                }
                if w == "self" {
                    path.pop();
                    name = match t.get(*pos - 1) {
                        Some(&a) if a != "self" => a.to_string(),
                        _ => path.last().cloned().unwrap_or_default(),
                    };
                }
                if name != "_" && !path.is_empty() {
                    out.push((name, path));
                }
                return;
            }
            _ => {
                *pos = t.len();
                return;
            }
        }
    }
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
        if !scope.file_mods.iter().any(|x| x == name) {
            let why = match scope.inline_mods.iter().any(|x| x == name) {
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
    /// name it imports, or (at a crate's root) a crate it re-exports.
    fn member(&self, m: &Module, name: &str, depth: u32) -> Result<Named, String> {
        let scope = self.scope(m)?;
        if let Some((kind, _)) = scope.items.iter().find(|(_, n)| n == name) {
            return Ok(Named::Item { module: m.clone(), kind: kind.clone(), name: name.to_string() });
        }
        if scope.file_mods.iter().any(|n| n == name) || scope.inline_mods.iter().any(|n| n == name) {
            return self.child(m, name).map(Named::Module);
        }
        let mut uses = scope.uses.iter().filter(|(n, _)| n == name);
        if let Some((_, path)) = uses.next() {
            // a name imported twice (a type and a function of one name)
            // is not told apart
            if uses.next().is_some() {
                return Err(format!("`{name}` is imported twice in {}", m.file.display()));
            }
            return self.resolve_at(m, path, depth + 1);
        }
        if m.path.is_empty() {
            if let Some(k) = self.libs.crate_in_scope(&m.krate, name) {
                return Ok(Named::Module(self.root(&k)?));
            }
        }
        Err(match scope.globs {
            true => format!("`{name}` is not declared in {} and may come through a glob import, which mir-export does not follow", m.file.display()),
            false => format!("`{name}` is not declared or imported in {}", m.file.display()),
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_of_module_files() {
        let src = "use super::{A, B as C, d::{self, E}};\nuse crate::x::*;\npub use ::core::fmt;\nextern crate typenum as tn;\n\
                   pub struct Eager {}\nmod sealed;\nmod inner { pub struct Hidden; }\n#[path = \"o.rs\"]\nmod other;\n\
                   impl Foo for Bar { type Eager = u8; }\npub const fn f() {}\n";
        let s = scope_of(src);
        let uses: Vec<(String, String)> = s.uses.iter().map(|(n, p)| (n.clone(), p.join("::"))).collect();
        let want = [("A", "super::A"), ("C", "super::B"), ("d", "super::d"), ("E", "super::d::E"), ("fmt", "core::fmt"), ("tn", "typenum")];
        assert_eq!(uses, want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>());
        assert!(s.globs);
        assert_eq!(s.file_mods, vec!["sealed".to_string()]);
        assert_eq!(s.inline_mods, vec!["inner".to_string(), "other".to_string()]);
        // the impl's `type Eager` is not a module item
        assert_eq!(s.items, vec![("struct".to_string(), "Eager".to_string()), ("fn".to_string(), "f".to_string())]);
    }
}
