//! Associated types in instances of core's generic bodies. rustc prints a
//! generic body with its projections (`<U as IntoIterator>::IntoIter`);
//! once mono.rs has put the call's types in (`<ChunksExact<'_, u8> as
//! IntoIterator>::IntoIter`) each must become the type it is, as rustc's
//! codegen would see it. Only two traits are read, each through the
//! method whose signature names the type, instantiated by the same lookup
//! as a call (`library_impl_instance`): `Iterator::Item` is what `next`'s
//! `Option<..>` holds, `IntoIterator::IntoIter` what `into_iter` returns
//! (`IntoIterator::Item` is the `Item` of that). Any other projection on
//! a type without parameters stays, and the instance's parse names it.

use crate::diag::DResult;
use crate::mirparse::ast::{GenericArg, Path, QSelf, Segment, Ty};

use super::body::Ctx;
use super::Exporter;

/// Projections resolved at most this deep (an `Item` of an `Item` ..).
const DEPTH: usize = 8;

impl<'a> Exporter<'a> {
    /// `text` (an instance's MIR, core's spelling made the kernel's) with
    /// each `<T as core::..::Iterator>::Item` and `<T as
    /// core::..::IntoIterator>::IntoIter` / `::Item` replaced by its type.
    pub(super) fn normalize_projections(&mut self, text: &str, ctx: Ctx) -> DResult<String> {
        let mut text = text.to_string();
        let mut from = 0;
        for _ in 0..DEPTH * 8 {
            let Some((start, end, ty, tr, name)) = first_projection(&text, from) else { break };
            let with = match (name.as_str(), tr.rsplit("::").next()) {
                ("Item" | "IntoIter", Some("Iterator" | "IntoIterator")) => self.projection(&ty, &tr, &name, ctx)?,
                _ => self.impl_assoc_type(&ty, &tr, &name).unwrap_or_else(|why| {
                    // not read: said where the projection is met again
                    self.unread_projections.entry(format!("<{ty} as {tr}>::{name}")).or_insert(why);
                    None
                }),
            };
            let Some(with) = with else {
                // not read: left as it is (the instance's parse names
                // it if it matters), the ones after it still are
                from = end;
                continue;
            };
            text.replace_range(start..end, &with);
            // every other copy of it too
            let proj = format!("<{ty} as {tr}>::{name}");
            text = text.replace(&proj, &with);
            from = 0;
        }
        Ok(text)
    }

    /// `<ty as tr>::name` for a type of a dependency (`<rand_xoshiro::
    /// Xoshiro256PlusPlus as SeedableRng>::Seed`) or a primitive (`<f32 as
    /// core::num::imp::Float>::Int`): the `type NAME = T;` of the one impl
    /// of the trait for that type in the type's crate (a primitive's: the
    /// trait's), read
    /// from its source, its paths resolved through the impl's module and
    /// `P::Name` on an impl parameter made a projection (implty.rs), then
    /// the impl's parameters put in. Ok(None) when no impl or several
    /// match; Err when the one impl's type is not read (why).
    fn impl_assoc_type(&mut self, ty: &str, tr: &str, name: &str) -> Result<Option<String>, String> {
        use super::callee::{impl_header, ty_last_name};
        if tr.contains('<') {
            return Ok(None);
        }
        let Ok(self_ty) = crate::mirparse::parser::parse_str(ty, |p| p.ty()) else { return Ok(None) };
        // a primitive's impl is in the trait's crate (`<f32 as
        // core::num::imp::Float>::Int`)
        let trait_crate = || self.input.library.crate_key(tr).map(str::to_string);
        let Some(krate) = super::impls::self_type_crate_in(self.input.library, &self_ty).or_else(trait_crate) else { return Ok(None) };
        let Some(Ok(_)) = self.input.library.get(&krate) else { return Ok(None) };
        let names = super::srcnames::SrcNames { libs: self.input.library };
        let krate_name = self.input.library.crate_name(&krate).to_string();
        let trait_last = tr.rsplit("::").next().unwrap_or(tr);
        let want = (Some(trait_last.to_string()), ty_last_name(&self_ty));
        // every impl of the crate's source (one without methods has no
        // `<impl at ..>` body in its MIR)
        let mut found = Vec::new();
        for (file, line, col, marked) in super::implty::impl_headers(&names, &krate_name).unwrap_or_default() {
            let header = marked.strip_suffix(" #[cfg]").unwrap_or(&marked).to_string();
            if impl_header(&header, None) != want {
                continue;
            }
            let Ok((params, _, pattern)) = super::impls::impl_self_pattern(&header) else { continue };
            let self_ty = super::implty::with_defaults(&names, &krate_name, &file, &pattern, &self_ty);
            let mut bound = std::collections::HashMap::new();
            if super::impls::unify(&pattern, &self_ty, &params, &mut bound) {
                found.push((file, line, col, header, params, bound, marked.ends_with(" #[cfg]")));
            }
        }
        let [(path, line, col, header, params, bound, under_cfg)] = found.as_slice() else { return Ok(None) };
        if *under_cfg {
            return Err(format!("the impl at {}:{line} is under a `#[cfg(..)]`, which mir-export does not evaluate", path.display()));
        }
        let Ok(file) = std::fs::read_to_string(path) else { return Ok(None) };
        let Some(written) = assoc_type_in_impl(&file, *line, *col, name) else { return Ok(None) };
        let what = || format!("`type {name} = {written};` of the impl at {}:{line}", path.display());
        let written_ty = crate::mirparse::parser::parse_str(&written, |p| p.ty()).map_err(|e| format!("{}: {e}", what()))?;
        let module = names.module_of_file(&krate_name, path).map_err(|e| format!("{}: {e}", what()))?;
        let site = super::implty::ImplSite { module, header, params };
        let t = super::implty::kernel_type(&names, &site, &written_ty).map_err(|e| format!("{}: {e}", what()))?;
        let args = params.iter().map(|p| bound.get(p).cloned()).collect::<Option<Vec<_>>>().ok_or_else(|| format!("{}: an impl parameter is not bound", what()))?;
        let decl = format!("fn f() -> () {{\nlet _1: {t};\n}}\n");
        let decl = super::mono::substitute(&decl, "f", params, &args).map_err(|e| format!("{}: {e}", what()))?;
        let t = decl.lines().nth(1).and_then(|l| l.strip_prefix("let _1: ")).and_then(|l| l.strip_suffix(';')).unwrap_or_default();
        let t = crate::mirparse::parser::parse_str(t, |p| p.ty()).map_err(|e| format!("{}: {e}", what()))?;
        Ok(Some(t.to_string()))
    }

    /// The type `<ty as tr>::name` is, or None when it is not read.
    fn projection(&mut self, ty: &str, tr: &str, name: &str, ctx: Ctx) -> DResult<Option<String>> {
        let last = tr.rsplit("::").next().unwrap_or(tr);
        let (method, inner) = match (last, name) {
            ("Iterator", "Item") => ("next", true),
            ("IntoIterator", "IntoIter") => ("into_iter", false),
            ("IntoIterator", "Item") => {
                let Some(it) = self.projection(ty, tr, "IntoIter", ctx)? else { return Ok(None) };
                let iter_tr = tr.rsplit_once("::").map_or("Iterator".to_string(), |_| "core::iter::Iterator".to_string());
                return self.projection(&it, &iter_tr, "Item", ctx);
            }
            _ => return Ok(None),
        };
        if !tr.starts_with("core::") {
            return Ok(None);
        }
        let Ok(self_ty) = crate::mirparse::parser::parse_str(ty, |p| p.ty()) else { return Ok(None) };
        let Ok(trait_) = crate::mirparse::parser::parse_str(tr, |p| p.path(true)) else { return Ok(None) };
        let path = Path {
            qself: Some(Box::new(QSelf { self_ty: Box::new(self_ty), trait_: Some(trait_) })),
            segments: vec![Segment { name: method.to_string(), args: Vec::new(), turbofish: false }],
        };
        let libs = self.input.library;
        let Ok(lib) = libs.core.get() else { return Ok(None) };
        // the method's return type, read from its declaration
        // (`let mut _0: Option<&'a mut T>;`) with the impl's parameters put in
        let super::impls::Pick::Impl(cand, params, args) = self.library_impl_pick(lib, &path, ctx)? else { return Ok(None) };
        let Some(text) = lib.body_text(&cand) else { return Ok(None) };
        let Some(ret) = text.lines().find_map(return_type) else { return Ok(None) };
        let decl = format!("fn f() -> () {{\n{ret}\n}}\n");
        let Ok(decl) = super::mono::substitute(&decl, "f", &params, &args) else { return Ok(None) };
        let Some(ret) = decl.lines().nth(1) else { return Ok(None) };
        let Ok(ret) = crate::mirparse::parser::parse_str(ret, |p| p.ty()) else { return Ok(None) };
        Ok(match (inner, ret) {
            (false, t) => Some(t.to_string()),
            (true, Ty::Adt(p)) if p.last_name() == "Option" && p.bare() == "core::option::Option" => {
                match p.segments.last().map(|s| s.args.as_slice()) {
                    Some([GenericArg::Type(t)]) => Some(t.to_string()),
                    _ => None,
                }
            }
            _ => None,
        })
    }
}

/// The header of the impl block that starts at `line`:`col` (1-based) of
/// source `file`, its `where` clause included: the text up to its `{`.
pub(super) fn impl_head_in_file(file: &str, line: u32, col: u32) -> Option<String> {
    let mut text = String::new();
    for (i, l) in file.lines().enumerate().skip(line as usize - 1) {
        let l = if i == line as usize - 1 { l.get(col as usize - 1..)? } else { l };
        let l = l.split("//").next().unwrap_or(l);
        if let Some(k) = l.find('{') {
            text.push_str(&l[..k]);
            return Some(text);
        }
        text.push_str(l);
        text.push('\n');
    }
    None
}

/// The text `T` of `type NAME = T;` directly inside the impl block whose
/// header starts at `line`:`col` (1-based) of source `file`; None when
/// the block has no such item. Line comments are skipped.
fn assoc_type_in_impl(file: &str, line: u32, col: u32, name: &str) -> Option<String> {
    assoc_item_in_impl(file, line, col, "type", name)?.strip_prefix('=').map(|t| t.trim().to_string())
}

/// The type `T` of `const NAME: T = ..;` directly inside the impl block
/// whose header starts at `line`:`col` (1-based) of source `file`.
pub(super) fn assoc_const_type_in_impl(file: &str, line: u32, col: u32, name: &str) -> Option<String> {
    let rest = assoc_item_in_impl(file, line, col, "const", name)?;
    let typed = rest.strip_prefix(':')?;
    Some(typed.split_once('=').map_or(typed, |(t, _)| t).trim().to_string())
}

/// What follows `KW NAME` (`type Seed`, `const ZERO`) in the item of that
/// kind and name directly inside the impl block whose header starts at
/// `line`:`col`, up to its `;`, trimmed.
fn assoc_item_in_impl(file: &str, line: u32, col: u32, kw: &str, name: &str) -> Option<String> {
    let mut text = String::new();
    for (i, l) in file.lines().enumerate().skip(line as usize - 1) {
        let l = if i == line as usize - 1 { l.get(col as usize - 1..)? } else { l };
        text.push_str(l.split("//").next().unwrap_or(l));
        text.push('\n');
    }
    let open = text.find('{')?;
    let mut depth = 0i32;
    // inside `[..]` or `(..)` (the `;` of `[u8; 32]`)
    let mut nest = 0i32;
    let mut item_start = open + 1;
    for (i, c) in text.char_indices().skip_while(|(i, _)| *i < open) {
        match c {
            '[' | '(' => nest += 1,
            ']' | ')' => nest -= 1,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return None;
                }
                if depth == 1 {
                    item_start = i + 1;
                }
            }
            ';' if depth == 1 && nest == 0 => {
                let item = text[item_start..i].trim();
                item_start = i + 1;
                let rest = item.strip_prefix(kw).filter(|r| r.starts_with(' ')).and_then(|r| r.trim_start().strip_prefix(name));
                let Some(rest) = rest.filter(|r| r.starts_with([' ', '=', ':'])) else { continue };
                return Some(rest.trim().to_string());
            }
            _ => {}
        }
    }
    None
}

/// The first `<T as Tr>::Name` (an associated type's: `Name` capitalised)
/// of `text` at or after byte `from` whose `T` has no projection of its
/// own: (start, end, T, Tr, the name).
fn first_projection(text: &str, from: usize) -> Option<(usize, usize, String, String, String)> {
    let b = text.as_bytes();
    let mut from = from;
    while let Some(k) = text[from..].find(">::").map(|k| k + from) {
        from = k + 3;
        let name: String = text[k + 3..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        // a method's or a constant's (`::default`, `::MAX`) is not a type
        let upper_camel = name.starts_with(|c: char| c.is_ascii_uppercase()) && name.chars().any(|c| c.is_ascii_lowercase());
        if !upper_camel || text[k + 3 + name.len()..].starts_with(['(', ':']) {
            continue;
        }
        // the `<` that opens this `>`
        let mut depth = 0i32;
        let mut open = None;
        let mut i = k;
        loop {
            match b[i] {
                b'>' if i == 0 || b[i - 1] != b'-' => depth += 1,
                b'<' => {
                    depth -= 1;
                    if depth == 0 {
                        open = Some(i);
                        break;
                    }
                }
                _ => {}
            }
            if i == 0 {
                break;
            }
            i -= 1;
        }
        let open = open?;
        let inner = &text[open + 1..k];
        let Some((ty, tr)) = split_as(inner) else { continue };
        if ty.contains(" as ") {
            continue;
        }
        return Some((open, k + 3 + name.len(), ty.to_string(), tr.to_string(), name));
    }
    None
}

/// The type of a body's return place, from its declaration line
/// (` let mut _0: Option<&'a mut T>; // return place ..`).
fn return_type(line: &str) -> Option<&str> {
    let l = line.trim_start();
    let rest = l.strip_prefix("let mut _0: ").or_else(|| l.strip_prefix("let _0: "))?;
    let code = rest.split(" // ").next().unwrap_or(rest).trim_end();
    code.strip_suffix(';')
}

/// `T as Tr` split at its ` as ` outside angle brackets.
fn split_as(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    let b = s.as_bytes();
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if i == 0 || b[i - 1] != b'-' => depth -= 1,
            _ if depth == 0 && s[i..].starts_with(" as ") => return Some((&s[..i], &s[i + 4..])),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_innermost_projections() {
        let t = "let _3: Zip<IterMut<'_, u64>, <ChunksExact<'_, u8> as core::iter::IntoIterator>::IntoIter>;";
        let (s, e, ty, tr, name) = first_projection(t, 0).unwrap();
        assert_eq!((ty.as_str(), tr.as_str(), name.as_str()), ("ChunksExact<'_, u8>", "core::iter::IntoIterator", "IntoIter"));
        assert_eq!(&t[s..e], "<ChunksExact<'_, u8> as core::iter::IntoIterator>::IntoIter");
        // the inner one first
        let t = "_1: <<A as core::iter::IntoIterator>::IntoIter as core::iter::Iterator>::Item";
        let (_, _, ty, _, name) = first_projection(t, 0).unwrap();
        assert_eq!((ty.as_str(), name.as_str()), ("A", "IntoIter"));
        assert!(first_projection("fn f(_1: fn() -> u8) -> Option<u8>::Item", 0).is_none());
        let t = "_2 = <<S as R>::Seed as core::default::Default>::default(); <A as B>::MAX; <A as B>::Output";
        let (s, e, ty, tr, name) = first_projection(t, 0).unwrap();
        assert_eq!((ty.as_str(), tr.as_str(), name.as_str()), ("S", "R", "Seed"));
        let (_, _, _, _, name) = first_projection(t, e).unwrap();
        assert_eq!(name, "Output");
        assert!(first_projection(t, t.len() - 3).is_none());
        assert!(s < e);
        assert_eq!(return_type(" let mut _0: [u8; 4]; // return place in scope 0 at a.rs:1:1: 1:2"), Some("[u8; 4]"));
        assert_eq!(return_type(" let _1: u8;"), None);
    }

    #[test]
    fn reads_associated_types_of_an_impl() {
        let src = "struct X;\nimpl Tr for X {\n    // type Seed = u8;\n    type Seed = [u8; 32];\n    fn f() { let a = 1; }\n    type Out=(u8, u16) ;\n}\nimpl Other for X { type Late = u8; }\n";
        assert_eq!(assoc_type_in_impl(src, 2, 1, "Seed").as_deref(), Some("[u8; 32]"));
        assert_eq!(assoc_type_in_impl(src, 2, 1, "Out").as_deref(), Some("(u8, u16)"));
        assert_eq!(assoc_type_in_impl(src, 2, 1, "Late"), None);
        assert_eq!(assoc_type_in_impl(src, 2, 1, "Se"), None);
    }
}
