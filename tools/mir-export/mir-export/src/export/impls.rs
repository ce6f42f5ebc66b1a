//! Matching a call against a library's impls (export/body.rs's library
//! lookups, docs/DESIGN.md "Library bodies"): an impl header's self type
//! against the call's (`unify`, binding the impl's parameters), a macro's
//! impl by its body's `self` type, the self type of an inherent method's
//! path, marker bounds on primitives.

use std::collections::HashMap;

use crate::mirparse::ast::{BodyKind, GenericArg, Path, Ty};

use super::mono;

/// Matches `pattern` (a type of an impl header, its parameters `params`)
/// against `ty`, binding each parameter to the text of the type it
/// stands for; false when they differ.
pub(super) fn unify(pattern: &Ty, ty: &Ty, params: &[String], bound: &mut HashMap<String, String>) -> bool {
    match (pattern, ty) {
        (Ty::Adt(p), t) if p.qself.is_none() && p.segments.len() == 1 && p.segments[0].args.is_empty() && params.contains(&p.segments[0].name) => {
            let name = &p.segments[0].name;
            let text = t.to_string();
            bound.get(name).is_none_or(|b| *b == text) && {
                bound.insert(name.clone(), text);
                true
            }
        }
        (Ty::Adt(p), Ty::Adt(q)) => {
            if p.last_name() != q.last_name() {
                return false;
            }
            let targs = |x: &Path| -> Vec<GenericArg> {
                x.segments.last().map(|s| s.args.iter().filter(|a| !matches!(a, GenericArg::Lifetime)).cloned().collect()).unwrap_or_default()
            };
            let (a, b) = (targs(p), targs(q));
            a.len() == b.len()
                && a.iter().zip(&b).all(|(x, y)| match (x, y) {
                    (GenericArg::Type(x), GenericArg::Type(y)) => unify(x, y, params, bound),
                    // a const parameter (`CAP` of `ArrayVec<T, CAP>`, read
                    // as a type) takes the value as printed (`8`)
                    (GenericArg::Type(Ty::Adt(c)), GenericArg::Const(v))
                        if c.qself.is_none() && c.segments.len() == 1 && params.contains(&c.segments[0].name) =>
                    {
                        let v = v.clone();
                        let name = &c.segments[0].name;
                        bound.get(name).is_none_or(|b| *b == v) && {
                            bound.insert(name.clone(), v);
                            true
                        }
                    }
                    (x, y) => x == y,
                })
        }
        (Ty::Ref { mutable: m1, pointee: a }, Ty::Ref { mutable: m2, pointee: b })
        | (Ty::Ptr { mutable: m1, pointee: a }, Ty::Ptr { mutable: m2, pointee: b }) => m1 == m2 && unify(a, b, params, bound),
        (Ty::Slice(a), Ty::Slice(b)) => unify(a, b, params, bound),
        // `[T; N]` against `[u8; 32]`: the lengths as printed, or `N` a
        // parameter bound to the call's
        (Ty::Array(a, n), Ty::Array(b, m)) => {
            let len = |s: &str| s.trim_end_matches("_usize").to_string();
            let lengths = match params.contains(n) {
                true => bound.get(n).is_none_or(|v| len(v) == len(m)) && {
                    bound.insert(n.clone(), m.clone());
                    true
                },
                false => len(n) == len(m),
            };
            lengths && unify(a, b, params, bound)
        }
        (Ty::Tuple(a), Ty::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| unify(x, y, params, bound)),
        (a, b) => a == b,
    }
}

/// What a trait method call takes from a library (`library_impl_pick`).
pub(super) enum Pick {
    /// This impl method (an index key), its impl's parameters and their
    /// types.
    Impl(String, Vec<String>, Vec<String>),
    /// No impl defines the method for the type: the trait's default.
    Default,
    /// Not one impl is certainly the one.
    None,
}

/// The source tree (`.../core/src/`) of library impl method `cand`
/// (`<impl at /../core/src/iter/adapters/zip.rs:..>::next`), where the
/// impls of a bound's trait are looked for.
pub(super) fn impl_src_root(cand: &str) -> Option<std::path::PathBuf> {
    let (_, span, _) = super::callee::split_impl_item(crate::library::undup(cand))?;
    let s = crate::mirparse::items::parse_span(span)?;
    s.file.rfind("/src/").map(|k| std::path::PathBuf::from(&s.file[..k + 5]))
}

/// An impl header's type and const parameters, its self type's text and
/// that type parsed (`impl<'a, T: Copy> Wrap<'a, T> where ..` → [`T`],
/// `Wrap<'a, T>`).
pub(super) fn impl_self_pattern(header: &str) -> Result<(Vec<String>, String, Ty), String> {
    use super::callee::{skip_generics, split_for};
    let params = mono::generic_params(&format!("fn impl{}", &header["impl".len()..]), "impl").unwrap_or_default();
    let rest = skip_generics(header["impl".len()..].trim_start());
    let rest = rest.split(" where ").next().unwrap_or(rest);
    let rest = rest.split("\nwhere").next().unwrap_or(rest);
    let self_text = split_for(rest).map_or(rest, |(_, t)| t).trim().trim_end_matches('{').trim();
    let pattern = crate::mirparse::parser::parse_str(self_text, |p| p.ty())?;
    Ok((params, self_text.to_string(), pattern))
}

/// Traits whose `#[derive(..)]` writes an impl for the type's own
/// parameters (`impl<B: PartialEq, C: PartialEq> PartialEq for
/// ControlFlow<B, C>`).
const DERIVABLE: [&str; 9] = ["Clone", "Copy", "Debug", "Default", "Eq", "Hash", "Ord", "PartialEq", "PartialOrd"];

/// The header of the impl a `#[derive(Trait)]` writes, whose span (the
/// `<impl at ..>` of its methods) is the trait's name: `impl<P..> Trait
/// for Self<P..>`, `Self<P..>` the type its method's `self` points to
/// (`first_param`, `&ControlFlow<B, C>`). None for a trait not derived so,
/// or a self type whose arguments are not all plain type parameters (a
/// const parameter needs its type).
pub(super) fn derived_impl_header(derive: &str, first_param: &Ty) -> Option<String> {
    let derive = derive.trim();
    if !DERIVABLE.contains(&derive) {
        return None;
    }
    let Ty::Ref { pointee, .. } = first_param else { return None };
    let Ty::Adt(p) = &**pointee else { return None };
    let mut params = Vec::new();
    for a in p.segments.last()?.args.iter() {
        match a {
            GenericArg::Lifetime => {}
            GenericArg::Type(Ty::Adt(q)) if q.qself.is_none() && q.segments.len() == 1 && q.segments[0].args.is_empty() => params.push(q.segments[0].name.clone()),
            _ => return None,
        }
    }
    let generics = if params.is_empty() { String::new() } else { format!("<{}>", params.join(", ")) };
    Some(format!("impl{generics} {derive} for {p}"))
}

/// Whether `header` is the span of a `#[derive(D)]` (its text the
/// derivable trait's name) whose trait is not `want`: that impl is one of
/// `D` only, never of the trait a call names.
pub(super) fn is_derive_of_other(header: &str, want: Option<&str>) -> bool {
    let derive = header.trim();
    DERIVABLE.contains(&derive) && want != Some(derive)
}

/// The trait of an impl's header (`AsRef<U>` of `impl<T: ?Sized, U:
/// ?Sized> const AsRef<U> for &T where T: [const] AsRef<U>`, without a
/// `const`); None for an inherent impl.
pub(super) fn impl_trait_text(header: &str) -> Option<&str> {
    use super::callee::{skip_generics, split_for};
    let rest = skip_generics(header.strip_prefix("impl")?.trim_start());
    split_for(rest).map(|(t, _)| t.trim().trim_start_matches("const "))
}

/// The module (the crate's spelling) and self type of a call of an
/// inherent method: `core::slice::<impl [u8]>::f` → (`slice`, `[u8]`),
/// `core::result::Result::<u8, E>::f` → (`result`, `Result<u8, E>`). None
/// for a path that names no type (`core::ptr::read`). `krate` is the
/// kernel's spelling of the crate, whole (`sha2::digest` for digest).
pub(super) fn inherent_self(path: &Path, krate: &str) -> Option<(String, Ty)> {
    let n = path.segments.len();
    let prefix: Vec<&str> = krate.split("::").collect();
    let k = prefix.len();
    if path.qself.is_some() || n < k + 2 || path.segments[..k].iter().zip(&prefix).any(|(s, p)| s.name != *p || !s.args.is_empty()) {
        return None;
    }
    let ty_seg = &path.segments[n - 2];
    let module: Vec<&str> = path.segments[k..n - 2].iter().map(|s| s.name.as_str()).collect();
    let ty = match ty_seg.name.strip_prefix("<impl ").and_then(|t| t.strip_suffix('>')) {
        Some(t) => crate::mirparse::parser::parse_str(t, |p| p.ty()).ok()?,
        None if ty_seg.name.starts_with(|c: char| c.is_ascii_uppercase()) => {
            let mut p = Path { qself: None, segments: path.segments[..n - 1].to_vec() };
            if let Some(s) = p.segments.last_mut() {
                s.turbofish = false;
            }
            Ty::Adt(p)
        }
        None => return None,
    };
    Some((module.join("::"), ty))
}

/// Whether an impl header's self type is an array, slice, tuple, reference
/// or pointer (not a path, not a bare parameter) that `self_ty` matches
/// (`unify`): `impl<T, const N: usize> AsMut<[T]> for [T; N]` for `[u8; 32]`.
pub(super) fn structural_impl_for(header: &str, self_ty: &Ty) -> bool {
    let Ok((params, _, pattern)) = impl_self_pattern(header) else { return false };
    !matches!(pattern, Ty::Adt(_)) && unify(&pattern, self_ty, &params, &mut HashMap::new())
}

/// Whether impl `header` is for the call's self type and trait, both
/// matched with one binding of its parameters (`impl<A, B> PartialEq<&B>
/// for &A` for `<&u8 as PartialEq<&u8>>`, not `PartialEq<&mut B> for &A`).
pub(super) fn impl_matches_call(header: &str, self_ty: &Ty, trait_: &Path) -> bool {
    let Ok((params, _, pattern)) = impl_self_pattern(header) else { return false };
    let mut bound = HashMap::new();
    let Some(pattern_trait) = impl_trait_text(header).and_then(|t| crate::mirparse::parser::parse_str(t, |p| p.ty()).ok()) else { return false };
    unify(&pattern, self_ty, &params, &mut bound) && unify(&pattern_trait, &Ty::Adt(trait_.clone()), &params, &mut bound)
}

/// The `P: FnMut(..) -> Q` bounds of an impl's header (its parameter list
/// and `where` clause) whose output `Q` is a plain identifier: (P, Q) each
/// (`impl<B, I: Iterator, F> Iterator for Map<I, F> where F: FnMut(I::Item)
/// -> B` → (`F`, `B`)).
pub(super) fn fn_output_bounds(header: &str) -> Vec<(String, String)> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = Vec::new();
    for kw in ["Fn(", "FnMut(", "FnOnce("] {
        for (at, _) in header.match_indices(kw) {
            if header[..at].ends_with(is_ident) {
                continue;
            }
            let open = at + kw.len() - 1;
            let Some(len) = crate::mirparse::lexer::matching_close(&header[open..], '(', ')') else { continue };
            let after = header[open + len..].trim_start();
            let Some(out) = after.strip_prefix("->") else { continue };
            let out = out.trim_start();
            let q: String = out.chars().take_while(|&c| is_ident(c)).collect();
            if q.is_empty() || out[q.len()..].starts_with(['<', ':']) {
                continue;
            }
            // the parameter the bound is on: the identifier before the
            // `:` that starts its bound list (`F: Copy + FnMut(..)`)
            let before = &header[..at];
            let Some(colon) = before.rfind(':').filter(|&k| !before[..k].ends_with(':') && !before[k..].contains([',', '<', '>', '(', ')'])) else { continue };
            let p: String = before[..colon].trim_end().chars().rev().take_while(|&c| is_ident(c)).collect::<Vec<_>>().into_iter().rev().collect();
            if !p.is_empty() {
                found.push((p, q));
            }
        }
    }
    found
}

/// The crate a self type of a trait call is defined in (`arrayvec` for
/// `arrayvec::ArrayVec<u64, 8>`, through references), if it is a path.
pub(super) fn self_type_crate(t: &Ty) -> Option<String> {
    // a type declared in a trait impl's method (`<alloc::vec::IntoIter<T,
    // A> as Drop>::drop::DropGuard<..>`): the impl's self type's crate
    if let Some(q) = declaring_impl(t) {
        return self_type_crate(&q.self_ty);
    }
    let s = self_type_path(t);
    let (k, _) = s.split_once("::")?;
    k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_').then(|| k.to_string())
}

/// The trait impl in whose method type `t` (or what it points to) is
/// declared (`Path::declared_in_generic` with a trait path).
fn declaring_impl(t: &Ty) -> Option<&crate::mirparse::ast::QSelf> {
    match t {
        Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => declaring_impl(pointee),
        Ty::Adt(p) if p.declared_in_generic() => p.qself.as_deref(),
        _ => None,
    }
}

/// `t` printed without its references and pointers.
fn self_type_path(t: &Ty) -> String {
    let s = t.to_string();
    s.trim_start_matches(['&', '*']).trim_start_matches("mut ").trim_start_matches("const ").to_string()
}

/// `self_type_crate`, as the kernel spells a crate it reaches through
/// re-exports (`sha2::digest` of `sha2::digest::core_api::CoreWrapper<..>`).
pub(super) fn self_type_crate_in(libs: &crate::library::Libraries, t: &Ty) -> Option<String> {
    if let Some(q) = declaring_impl(t) {
        return self_type_crate_in(libs, &q.self_ty);
    }
    let first = self_type_crate(t)?;
    Some(libs.crate_key(&self_type_path(t)).map_or(first, str::to_string))
}

/// Whether the body `cand` of a macro's impl (its `header`) is the
/// expansion for `self_ty`: a method's `self` has that type (or a
/// reference to it), an associated function without `self` returns it.
/// The impl's parameters and what they stand for: none for an impl of
/// one type (`impl One for $t`); for a generic one (`impl<'a, T> Iterator
/// for $name<'a, T>`) the body's type is matched against `self_ty`
/// (`unify`), in `self_ty`'s module or below it (`core::slice::IterMut`
/// is defined in `slice::iter`).
pub(super) fn macro_impl_binding(lib: &crate::library::Library, cand: &str, header: &str, self_ty: &Ty) -> Option<(Vec<String>, Vec<String>)> {
    let (params, bound) = body_self_binding(lib, cand, header, self_ty)?;
    let args = params.iter().map(|p| bound.get(p).cloned()).collect::<Option<Vec<_>>>()?;
    Some((params, args))
}

/// `macro_impl_binding`'s match of body `cand`'s type against `self_ty`:
/// the impl's parameters and those the match binds (not every one: `B`
/// of `impl<B, I, F> Iterator for Map<I, F> where F: FnMut(..) -> B`).
fn body_self_binding(lib: &crate::library::Library, cand: &str, header: &str, self_ty: &Ty) -> Option<(Vec<String>, HashMap<String, String>)> {
    let text = lib.body_text(cand)?;
    let b = crate::mirparse::parse_mir_file(&text).ok().and_then(|f| f.bodies.into_iter().next())?;
    let has_self = b.arg_count >= 1 && b.debug_names.iter().any(|(n, l)| n == "self" && *l == 1);
    // a constant's type is its impl's type only when it is written `Self`
    // (`const ZERO: Self = 0;` of `impl Int for $ty`; a `const BITS: u32`
    // would match the `u32` expansion for every type)
    if b.kind != BodyKind::Fn && !const_typed_self(cand) {
        return None;
    }
    let t = match has_self {
        true => b.locals.get(1)?.as_ref()?.ty.clone(),
        false => b.ret_ty.clone(),
    };
    let t = match (t, self_ty) {
        (Ty::Ref { pointee, .. }, s) if has_self && !matches!(s, Ty::Ref { .. }) => *pointee,
        (t, _) => t,
    };
    let params = mono::generic_params(&format!("fn impl{}", &header["impl".len()..]), "impl").unwrap_or_default();
    if let (Ty::Adt(p), Ty::Adt(q)) = (&t, self_ty) {
        let module = |x: &Path| x.segments[..x.segments.len().saturating_sub(1)].iter().map(|s| s.name.clone()).collect::<Vec<_>>();
        if !module(p).starts_with(&module(q)) || module(q).is_empty() {
            return None;
        }
    }
    let mut bound = HashMap::new();
    if !unify(&t, self_ty, &params, &mut bound) {
        return None;
    }
    Some((params, bound))
}

/// Whether the constant `cand` (`M::<impl at SPAN>::NAME`) is declared
/// `const NAME: Self` in its impl block's source.
fn const_typed_self(cand: &str) -> bool {
    let Some((_, span, name)) = super::callee::split_impl_item(crate::library::undup(cand)) else { return false };
    let Some(s) = crate::mirparse::items::parse_span(span) else { return false };
    let Ok(file) = std::fs::read_to_string(&s.file) else { return false };
    super::assoc::assoc_const_type_in_impl(&file, s.line, s.col, name).as_deref() == Some("Self")
}

/// Whether impl method `cand` (its `header`) may be the one for
/// `self_ty`: true unless it takes a `self` whose type is not `self_ty`
/// (`macro_impl_binding`).
pub(super) fn self_param_matches(lib: &crate::library::Library, cand: &str, header: &str, self_ty: &Ty) -> bool {
    let takes_self = || {
        let text = lib.body_text(cand)?;
        let b = crate::mirparse::parse_mir_file(&text).ok()?.bodies.into_iter().next()?;
        Some(b.arg_count >= 1 && b.debug_names.iter().any(|(n, l)| n == "self" && *l == 1))
    };
    if let (Some(_), Ty::Adt(want)) = (declaring_impl(self_ty), strip_refs(self_ty)) {
        return declared_in_same_method(lib, cand, want);
    }
    takes_self() != Some(true) || body_self_binding(lib, cand, header, self_ty).is_some()
}

/// Whether the `self` of method `cand` is a type declared in the same
/// trait impl's method as `want` (`<alloc::vec::IntoIter<T, A> as
/// core::ops::Drop>::drop::DropGuard`: alloc has several `DropGuard`s, one
/// per method that declares one).
fn declared_in_same_method(lib: &crate::library::Library, cand: &str, want: &Path) -> bool {
    let self_ty = || {
        let text = lib.body_text(cand)?;
        let b = crate::mirparse::parse_mir_file(&text).ok()?.bodies.into_iter().next()?;
        let l = b.locals.get(1)?.as_ref()?;
        match strip_refs(&l.ty) {
            Ty::Adt(p) => Some(p.clone()),
            _ => None,
        }
    };
    self_ty().is_some_and(|p| p.qself == want.qself && p.parent().bare() == want.parent().bare() && p.last_name() == want.last_name())
}

fn strip_refs(t: &Ty) -> &Ty {
    match t {
        Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => strip_refs(pointee),
        t => t,
    }
}

/// Whether an impl header's parameter bounds (`impl<T: TrustedStep> Tr
/// for RangeInclusive<T>`, no `where`) are all marker traits that the
/// types bound to them in `self_ty` have: `TrustedStep` for integers and
/// `char`, `Copy` for every primitive scalar, and so core's sort markers
/// `CopyMarker` (`impl<T: Copy> CopyMarker for T`) and `FreezeMarker`
/// (`impl<T: Freeze> FreezeMarker for T`: a scalar has no interior
/// mutability).
pub(super) fn marker_bounds_hold(header: &str, self_ty: &Ty) -> bool {
    use super::callee::{skip_generics, split_for};
    if !header.starts_with("impl<") || header.contains(" where ") {
        return false;
    }
    let generics_len = header["impl".len()..].len() - skip_generics(&header["impl".len()..]).len();
    let inner = &header["impl<".len()..("impl".len() + generics_len).min(header.len())];
    let inner = inner.trim_end().trim_end_matches('>');
    let mut params = Vec::new();
    let mut bounds = Vec::new();
    for p in inner.split(',') {
        let (name, b) = p.split_once(':').map_or((p.trim(), ""), |(n, b)| (n.trim(), b.trim()));
        params.push(name.to_string());
        bounds.push((name.to_string(), b.split('+').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect::<Vec<_>>()));
    }
    let rest = skip_generics(header["impl".len()..].trim_start());
    let self_text = split_for(rest).map_or(rest, |(_, t)| t).trim().trim_end_matches('{').trim();
    let Ok(pattern) = crate::mirparse::parser::parse_str(self_text, |p| p.ty()) else { return false };
    let mut bound = HashMap::new();
    if !unify(&pattern, self_ty, &params, &mut bound) {
        return false;
    }
    bounds.iter().all(|(p, bs)| {
        let Some(t) = bound.get(p) else { return bs.is_empty() };
        let int = matches!(t.as_str(), "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128" | "isize");
        bs.iter().all(|b| match b.as_str() {
            "TrustedStep" => int || t == "char",
            "Copy" | "CopyMarker" | "FreezeMarker" => int || matches!(t.as_str(), "char" | "bool" | "f32" | "f64"),
            _ => false,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> Ty {
        crate::mirparse::parser::parse_str(s, |p| p.ty()).unwrap()
    }

    #[test]
    fn reads_fn_output_bounds() {
        let h = "impl<B, I: Iterator, F> Iterator for Map<I, F>\nwhere\n    F: FnMut(I::Item) -> B,\n";
        assert_eq!(fn_output_bounds(h), [("F".to_string(), "B".to_string())]);
        assert_eq!(fn_output_bounds("impl<P, F: Copy + Fn(&u8) -> bool> X for Y<P, F>"), [("F".to_string(), "bool".to_string())]);
        assert!(fn_output_bounds("impl<F: FnMut(u8) -> Option<B>> X for Y<F>").is_empty());
    }

    #[test]
    fn derived_impls_have_the_types_parameters() {
        let t = |s: &str| crate::mirparse::parser::parse_str(s, |p| p.ty()).unwrap();
        assert_eq!(
            derived_impl_header("PartialEq", &t("&core::ops::ControlFlow<B, C>")).as_deref(),
            Some("impl<B, C> PartialEq for core::ops::ControlFlow<B, C>")
        );
        assert_eq!(derived_impl_header("Clone", &t("&core::cmp::Ordering")).as_deref(), Some("impl Clone for core::cmp::Ordering"));
        assert_eq!(derived_impl_header("Hash", &t("&core::iter::Iter<'_, T>")).as_deref(), Some("impl<T> Hash for core::iter::Iter<'_, T>"));
        // not a derive, not a reference to a type, an argument not a parameter
        assert_eq!(derived_impl_header("Iterator", &t("&core::ops::ControlFlow<B, C>")), None);
        assert_eq!(derived_impl_header("PartialEq", &t("u8")), None);
        assert_eq!(derived_impl_header("PartialEq", &t("&core::a::A<u8>")), None);
        // the impl parses as one written out would
        let h = derived_impl_header("PartialEq", &t("&core::ops::ControlFlow<B, C>")).unwrap();
        let (params, _, pattern) = impl_self_pattern(&h).unwrap();
        assert_eq!(params, vec!["B".to_string(), "C".to_string()]);
        let mut bound = HashMap::new();
        assert!(unify(&pattern, &t("core::ops::ControlFlow<(), u8>"), &params, &mut bound));
        assert_eq!(bound.get("C").map(String::as_str), Some("u8"));
    }

    #[test]
    fn specialized_impls_need_their_markers() {
        let h = "impl<T: TrustedStep> RangeInclusiveIteratorImpl for ops::RangeInclusive<T> {";
        assert!(marker_bounds_hold(h, &ty("core::ops::RangeInclusive<usize>")));
        assert!(marker_bounds_hold(h, &ty("core::ops::RangeInclusive<char>")));
        assert!(!marker_bounds_hold(h, &ty("core::ops::RangeInclusive<f32>")));
        assert!(!marker_bounds_hold(h, &ty("core::ops::RangeInclusive<Mine>")));
        assert!(!marker_bounds_hold("impl<T: Step> X for Range<T> {", &ty("core::ops::Range<u8>")));
        assert!(!marker_bounds_hold("impl<T> X for Range<T> where T: Copy {", &ty("core::ops::Range<u8>")));
        assert!(marker_bounds_hold("impl<T: Copy> X for Wrap<T> {", &ty("k::Wrap<f64>")));
        // core's sort: the small-sort impls specialized on its markers
        let h = "impl<T: FreezeMarker + CopyMarker> UnstableSmallSortFreezeTypeImpl for T {";
        assert!(marker_bounds_hold(h, &ty("u32")) && marker_bounds_hold(h, &ty("f64")));
        assert!(!marker_bounds_hold(h, &ty("k::Mine")) && !marker_bounds_hold(h, &ty("&u32")));
    }

    #[test]
    fn impl_const_parameters_bind() {
        let params = vec!["T".to_string(), "CAP".to_string()];
        let mut bound = HashMap::new();
        assert!(unify(&ty("ArrayVec<T, CAP>"), &ty("arrayvec::ArrayVec<u64, 8>"), &params, &mut bound));
        assert_eq!((bound["T"].as_str(), bound["CAP"].as_str()), ("u64", "8"));
        let mut bound = HashMap::new();
        assert!(!unify(&ty("ArrayVec<T, 4>"), &ty("arrayvec::ArrayVec<u64, 8>"), &params, &mut bound));
        // array lengths must agree, or bind a parameter
        assert!(!unify(&ty("[T; 4]"), &ty("[u8; 32]"), &params, &mut HashMap::new()));
        let mut bound = HashMap::new();
        assert!(unify(&ty("[T; CAP]"), &ty("[u8; 32]"), &params, &mut bound));
        assert_eq!(bound["CAP"], "32");
    }

    #[test]
    fn inherent_methods_of_a_reexported_crate() {
        let path = |s: &str| crate::mirparse::parser::parse_str(s, |p| p.path(true)).unwrap();
        let p = path("sha2::digest::block_buffer::BlockBuffer::<u8, sha2::digest::block_buffer::Eager>::get_pos");
        let (module, ty) = inherent_self(&p, "sha2::digest::block_buffer").unwrap();
        assert_eq!((module.as_str(), ty.to_string().as_str()), ("", "sha2::digest::block_buffer::BlockBuffer<u8, sha2::digest::block_buffer::Eager>"));
        // the whole prefix is compared, not its first segment
        assert!(inherent_self(&p, "sha2::digest::typenum").is_none());
        assert!(inherent_self(&p, "sha2::digest::block_buffer::BlockBuffer").is_none());
        let (module, ty) = inherent_self(&path("core::slice::<impl [u8]>::len"), "core").unwrap();
        assert_eq!((module.as_str(), ty.to_string().as_str()), ("slice", "[u8]"));
    }

    #[test]
    fn self_type_crates() {
        assert_eq!(self_type_crate(&ty("&mut arrayvec::ArrayVec<u64, 8>")).as_deref(), Some("arrayvec"));
        assert_eq!(self_type_crate(&ty("u32")), None);
    }
}
