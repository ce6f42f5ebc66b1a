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
        for _ in 0..DEPTH {
            let Some((start, end, ty, tr, name)) = first_projection(&text) else { break };
            let Some(with) = self.projection(&ty, &tr, &name, ctx)? else {
                // not read: left as it is, and later ones are not either
                break;
            };
            text.replace_range(start..end, &with);
            // every other copy of it too
            let proj = format!("<{ty} as {tr}>::{name}");
            text = text.replace(&proj, &with);
        }
        Ok(text)
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

/// The first `<T as Tr>::Item` / `::IntoIter` of `text` whose `T` has
/// no projection of its own: (start, end, T, Tr, the name).
fn first_projection(text: &str) -> Option<(usize, usize, String, String, String)> {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(k) = text[from..].find(">::").map(|k| k + from) {
        from = k + 3;
        let name: String = text[k + 3..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if name != "Item" && name != "IntoIter" {
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
        let (s, e, ty, tr, name) = first_projection(t).unwrap();
        assert_eq!((ty.as_str(), tr.as_str(), name.as_str()), ("ChunksExact<'_, u8>", "core::iter::IntoIterator", "IntoIter"));
        assert_eq!(&t[s..e], "<ChunksExact<'_, u8> as core::iter::IntoIterator>::IntoIter");
        // the inner one first
        let t = "_1: <<A as core::iter::IntoIterator>::IntoIter as core::iter::Iterator>::Item";
        let (_, _, ty, _, name) = first_projection(t).unwrap();
        assert_eq!((ty.as_str(), name.as_str()), ("A", "IntoIter"));
        assert!(first_projection("fn f(_1: fn() -> u8) -> Option<u8>::Item").is_none());
        assert!(first_projection("<A as B>::Output").is_none());
        assert_eq!(return_type(" let mut _0: [u8; 4]; // return place in scope 0 at a.rs:1:1: 1:2"), Some("[u8; 4]"));
        assert_eq!(return_type(" let _1: u8;"), None);
    }
}
