//! Specialization: which of a library's several impls of one trait for one
//! type (`impl<A, B> ZipImpl<A, B> for Zip<A, B> where A: Iterator, ..`
//! with `default fn next`, and `.. where A: TrustedRandomAccess +
//! Iterator, ..` with a final `fn next`) rustc runs for a call, read from
//! the impls' headers and the library's source (docs/DESIGN.md, "Library
//! bodies"). Each answer is "this impl applies" or "not known": a body is
//! taken only when it is certainly the one rustc would run.

use std::collections::HashMap;
use std::path::{Path as FsPath, PathBuf};
use std::sync::Mutex;

use crate::mirparse::ast::Ty;

use super::impls::{impl_self_pattern, unify};

/// The `(parameter, trait)` bounds of an impl header, from its generics
/// (`impl<T: Copy>`) and its `where` clause (`where A: X + Y`), each
/// trait as written; lifetime and `?Sized` bounds left out. None when a
/// bound is not on a parameter (`A::Item: Copy`, `Self: Sized`).
pub fn header_bounds(header: &str) -> Option<Vec<(String, String)>> {
    let (params, _, _) = impl_self_pattern(header).ok()?;
    let rest = header["impl".len()..].trim_start();
    let generics = match rest.starts_with('<') {
        true => rest[1..rest.len() - super::callee::skip_generics(rest).len()].trim_end(),
        false => "",
    };
    let generics = generics.strip_suffix('>').unwrap_or(generics);
    let where_ = header.split_once(" where ").map_or("", |(_, w)| w).trim().trim_end_matches('{').trim();
    let mut out = Vec::new();
    for item in split_top(generics).into_iter().chain(split_top(where_)) {
        let item = item.trim();
        if item.is_empty() || item.starts_with('\'') || item.starts_with("const ") {
            continue;
        }
        let Some((p, bs)) = item.split_once(':') else {
            // a parameter without bounds
            if params.iter().any(|q| q == item) {
                continue;
            }
            return None;
        };
        let p = p.trim();
        // `I::Item: Copy`
        if bs.starts_with(':') || !params.iter().any(|q| q == p) {
            return None;
        }
        for b in split_plus(bs) {
            // `[const] Iterator`, `~const Iterator`
            let b = b.strip_prefix("[const]").or_else(|| b.strip_prefix("~const")).map_or(b.clone(), str::to_string);
            if !b.is_empty() && !b.starts_with('\'') && !b.starts_with('?') {
                out.push((p.to_string(), b));
            }
        }
    }
    Some(out)
}

/// `a, B<c, d>, e` split at its top-level commas.
pub fn split_top(s: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0i32;
    let mut prev = ' ';
    for c in s.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' if prev == '-' => {}
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(String::new());
                prev = c;
                continue;
            }
            _ => {}
        }
        prev = c;
        out.last_mut().expect("one").push(c);
    }
    out.retain(|x| !x.trim().is_empty());
    out
}

/// `X + Y<Z>` → [`X`, `Y<Z>`], each without whitespace.
fn split_plus(s: &str) -> Vec<String> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = vec![String::new()];
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            '+' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().expect("one").push(c);
    }
    out
}

/// Whether the impl `headers[fin]` certainly applies to `self_ty`: every
/// bound of it is one that all of `headers` have (one of them applies,
/// since the call type-checked), or the library's source has an impl of
/// that trait for that type without any bounds (`unsafe impl<'a, T>
/// TrustedRandomAccess for IterMut<'a, T> {}`) in the type's module.
pub fn impl_applies(headers: &[&str], fin: usize, self_ty: &Ty, src_root: &FsPath, krate: &str) -> bool {
    let mut per_header = Vec::new();
    for h in headers {
        let Ok((params, _, pattern)) = impl_self_pattern(h) else { return false };
        let mut bound = HashMap::new();
        if !unify(&pattern, self_ty, &params, &mut bound) {
            return false;
        }
        let Some(bounds) = header_bounds(h) else { return false };
        // (the type's text, the trait): parameter names may differ
        let Some(pairs) = bounds.into_iter().map(|(p, b)| bound.get(&p).map(|t| (t.clone(), b))).collect::<Option<Vec<_>>>() else {
            return false;
        };
        per_header.push(pairs);
    }
    per_header[fin].iter().all(|(t, b)| {
        per_header.iter().all(|ps| ps.contains(&(t.clone(), b.clone())))
            || crate::mirparse::parser::parse_str(t, |p| p.ty()).is_ok_and(|ty| unconditional_impl(src_root, krate, b, &ty))
    })
}

/// Whether blanket impl `header` (`impl<I: Iterator> IntoIterator for
/// I`) certainly applies to `ty`: each bound of its one parameter is a
/// trait the source implements for `ty` without bounds.
pub fn blanket_applies(header: &str, ty: &Ty, src_root: &FsPath, krate: &str) -> bool {
    let Ok((params, self_text, _)) = impl_self_pattern(header) else { return false };
    let Some(bounds) = header_bounds(header) else { return false };
    params.len() == 1 && params[0] == self_text && bounds.iter().all(|(_, b)| unconditional_impl(src_root, krate, b, ty))
}

/// Whether blanket impl `header` (`impl<F> MultiCharEq for F where F:
/// FnMut(char) -> bool`) is the impl of its trait for `ty`, a function
/// item or a closure: such a type cannot be named, so the only impls
/// that can match it are those whose self type is a bare parameter, and
/// the orphan rules keep those in the trait's crate. With one such impl
/// (the caller checks that, and that its method is not `default`) whose
/// bounds are only the closure traits, the call (which type-checked)
/// resolved to it.
pub fn blanket_for_unnameable(header: &str, ty: &Ty) -> bool {
    if !matches!(ty, Ty::FnDef { .. } | Ty::Closure(_)) {
        return false;
    }
    let Ok((params, self_text, _)) = impl_self_pattern(header) else { return false };
    let Some(bounds) = header_bounds(header) else { return false };
    let closure_trait = |b: &str| ["Fn(", "FnMut(", "FnOnce("].iter().any(|t| b.starts_with(t));
    params.len() == 1 && params[0] == self_text && bounds.iter().all(|(_, b)| closure_trait(b))
}

/// Impl headers of the source tree `src_root` by trait name: (the module
/// of the file, the header) for each one-line `impl .. TRAIT for ..`.
static HEADERS: Mutex<Option<HashMap<(PathBuf, String), Vec<(String, String)>>>> = Mutex::new(None);

fn trait_impl_headers(src_root: &FsPath, trait_: &str) -> Vec<(String, String)> {
    let key = (src_root.to_path_buf(), trait_.to_string());
    let mut cache = HEADERS.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(v) = cache.get(&key) {
        return v.clone();
    }
    let needle = format!(" {trait_} for ");
    let mut out = Vec::new();
    let mut todo = vec![src_root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else { continue };
            let module = file_module(src_root, &p);
            for line in text.lines().filter(|l| l.contains(&needle)) {
                let l = line.trim();
                let l = l.strip_prefix("unsafe ").unwrap_or(l);
                if l.starts_with("impl") {
                    out.push((module.clone(), l.to_string()));
                }
            }
        }
    }
    cache.insert(key, out.clone());
    out
}

/// `slice/iter.rs` → `slice::iter`; `iter/mod.rs` → `iter`; `lib.rs` → ``.
fn file_module(src_root: &FsPath, file: &FsPath) -> String {
    let rel = file.strip_prefix(src_root).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts.join("::")
}

/// Whether `src_root` has an impl of `trait_` (as a bound writes it) for
/// `ty` without any bounds or `where`, on one line, in a file of `ty`'s
/// module or below it.
fn unconditional_impl(src_root: &FsPath, krate: &str, trait_: &str, ty: &Ty) -> bool {
    let Ty::Adt(p) = ty else { return false };
    let n = p.segments.len();
    if p.qself.is_some() || n < 2 || p.segments[0].name != krate || !trait_.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return false;
    }
    let module: Vec<&str> = p.segments[1..n - 1].iter().map(|s| s.name.as_str()).collect();
    let module = module.join("::");
    trait_impl_headers(src_root, trait_).iter().any(|(m, h)| {
        let in_module = module.is_empty() || *m == module || m.starts_with(&format!("{module}::"));
        let h = h.split('{').next().unwrap_or(h).trim();
        in_module
            && !h.contains('$')
            && !h.contains(" where ")
            && header_bounds(h).is_some_and(|b| b.is_empty())
            && impl_self_pattern(h).is_ok_and(|(params, _, pat)| unify(&pat, ty, &params, &mut HashMap::new()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> Ty {
        crate::mirparse::parser::parse_str(s, |p| p.ty()).unwrap()
    }

    #[test]
    fn bounds_of_headers() {
        let h = "impl<A, B> ZipImpl<A, B> for Zip<A, B> where     A: TrustedRandomAccess + Iterator,     B: TrustedRandomAccess + Iterator,";
        let b = header_bounds(h).unwrap();
        assert_eq!(b.len(), 4);
        assert_eq!(b[0], ("A".to_string(), "TrustedRandomAccess".to_string()));
        assert_eq!(header_bounds("impl<'a, T: Copy + 'a, const N: usize> X for Y<'a, T, N>").unwrap(), vec![("T".to_string(), "Copy".to_string())]);
        assert_eq!(header_bounds("impl<'a, T> TrustedRandomAccess for IterMut<'a, T>").unwrap(), vec![]);
        assert_eq!(header_bounds("impl<I> X for Y<I> where I::Item: Copy"), None);
    }

    #[test]
    fn closure_trait_blankets_for_unnameable_types() {
        let h = "impl<F> MultiCharEq for F where F: FnMut(char) -> bool,";
        let item = ty("fn(char) -> bool {core::char::methods::<impl char>::is_whitespace}");
        assert!(blanket_for_unnameable(h, &item));
        // a nameable type may have an impl of its own; a bound that is no
        // closure trait may not hold
        assert!(!blanket_for_unnameable(h, &ty("u32")));
        assert!(!blanket_for_unnameable(h, &ty("fn(char) -> bool")));
        assert!(!blanket_for_unnameable("impl<F: Default> Tr for F", &item));
        assert!(!blanket_for_unnameable("impl<F, G> Tr<G> for F where F: Fn(G) -> bool", &item));
    }

    #[test]
    fn the_final_impl_applies_only_when_proven() {
        let dir = std::env::temp_dir().join(format!("oxide-special-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("slice")).unwrap();
        std::fs::create_dir_all(dir.join("option")).unwrap();
        std::fs::write(dir.join("slice/iter.rs"), "unsafe impl<'a, T> TrustedRandomAccess for IterMut<'a, T> {}\nunsafe impl<I> TrustedRandomAccess for Fuse<I> where I: TrustedRandomAccess {}\n").unwrap();
        std::fs::write(dir.join("option/mod.rs"), "unsafe impl<'a, T: Copy> TrustedRandomAccess for Chunks<'a, T> {}\n").unwrap();
        let general = "impl<A, B> ZipImpl<A, B> for Zip<A, B> where A: Iterator, B: Iterator";
        let tra = "impl<A, B> ZipImpl<A, B> for Zip<A, B> where A: TrustedRandomAccess + Iterator, B: TrustedRandomAccess + Iterator";
        let hs = [general, tra];
        assert!(impl_applies(&hs, 1, &ty("core::iter::Zip<core::slice::IterMut<'_, u64>, core::slice::IterMut<'_, u8>>"), &dir, "core"));
        // no impl for option's IterMut; Fuse's has a where clause; Chunks'
        // a bound, and is not in slice
        assert!(!impl_applies(&hs, 1, &ty("core::iter::Zip<core::slice::IterMut<'_, u64>, core::option::IterMut<'_, u8>>"), &dir, "core"));
        assert!(!impl_applies(&hs, 1, &ty("core::iter::Zip<core::slice::IterMut<'_, u64>, core::slice::Fuse<u8>>"), &dir, "core"));
        assert!(!impl_applies(&hs, 1, &ty("core::iter::Zip<core::slice::IterMut<'_, u64>, core::option::Chunks<'_, u8>>"), &dir, "core"));
        let b = "impl<I: [const] Iterator> const IntoIterator for I";
        std::fs::write(dir.join("slice/more.rs"), "impl<'a, T> Iterator for ChunksExact<'a, T> {\n").unwrap();
        assert!(blanket_applies(b, &ty("core::slice::ChunksExact<'_, u8>"), &dir, "core"));
        assert!(!blanket_applies(b, &ty("core::slice::Chunks<'_, u8>"), &dir, "core"));
        assert!(!blanket_applies("impl<I: Iterator, J> IntoIterator for I", &ty("core::slice::ChunksExact<'_, u8>"), &dir, "core"));
        // the general impl's own bounds hold: the call type-checked
        assert!(impl_applies(&hs, 0, &ty("core::iter::Zip<k::A, k::B>"), &dir, "core"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
