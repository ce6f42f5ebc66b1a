//! The type an impl's `type NAME = T;` defines, as the kernel spells it
//! (assoc.rs `impl_assoc_type`): `T` as written in the impl's source, its
//! paths resolved through the impl module's scope (srcnames.rs: sha2's
//! `Eager`, imported from `digest::block_buffer`, is
//! `sha2::digest::block_buffer::Eager`), and `P::Name` on an impl
//! parameter `P` (digest's `type BufferKind = T::BufferKind;`) made the
//! projection `<P as Trait>::Name`, `Trait` the one of P's bounds (or
//! their supertraits) that declares `Name`: rustc rejects `P::Name` when
//! two of them do. The impl's parameters stay as they are (the caller
//! puts the bound types in); the projection that results is normalised
//! in its turn. Anything not read is an error naming it.

use crate::mirparse::ast::{GenericArg, Path, QSelf, Segment, Ty};
use crate::mirparse::lexer::matching_close;

use super::srcnames::{Module, Named, SrcNames};

/// Core's traits that declare no associated type (a bound on them is
/// passed over when the trait of `P::Name` is looked for).
const NO_ASSOC_TYPES: [&str; 13] = ["Sized", "Copy", "Clone", "Send", "Sync", "Default", "Debug", "Eq", "PartialEq", "Ord", "PartialOrd", "Hash", "Unpin"];

/// Bounds followed through supertraits before `P::Name` is given up.
const TRAIT_DEPTH: usize = 16;

/// Where an impl's associated type is written: its module, its header
/// with the `where` clause (`impl<T, O> Tr for W<T, O> where T: A`), its
/// type and const parameters.
pub(super) struct ImplSite<'h> {
    pub module: Module,
    pub header: &'h str,
    pub params: &'h [String],
}

/// The trait impls of crate `krate`'s source files: (file, line, column
/// of `impl`, the header with its `where` clause on one line, ending in
/// ` #[cfg]` when a `#[cfg(..)]` attribute is on it), a macro's (`impl Tr
/// for $t`) left out.
pub(super) fn impl_headers(names: &SrcNames, krate: &str) -> Result<Vec<(std::path::PathBuf, u32, u32, String)>, String> {
    let mut out = Vec::new();
    for f in names.crate_files(krate)? {
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        for (i, l) in text.lines().enumerate() {
            let t = l.trim_start();
            let t = t.strip_prefix("unsafe ").unwrap_or(t);
            if !(t.starts_with("impl<") || t.starts_with("impl ")) {
                continue;
            }
            let col = l.len() - t.len() + 1;
            let Some(head) = super::assoc::impl_head_in_file(&text, i as u32 + 1, col as u32) else { continue };
            let head: String = head.split_whitespace().collect::<Vec<_>>().join(" ");
            if head.contains('$') || !head.contains(" for ") {
                continue;
            }
            // an impl under `#[cfg(..)]` may not be compiled: its
            // header is kept with a mark that refuses it
            let attrs = text.lines().take(i).collect::<Vec<_>>();
            let under_cfg = attrs.iter().rev().map(|a| a.trim()).take_while(|a| a.starts_with("#[") || a.starts_with("//")).any(|a| a.contains("cfg"));
            let head = if under_cfg { format!("{head} #[cfg]") } else { head };
            out.push((f.clone(), i as u32 + 1, col as u32, head));
        }
    }
    Ok(out)
}

/// `ty` with the defaults of the trailing parameters that rustc does not
/// print (`CtVariableCoreWrapper<T, OutSize>` for `<T, OutSize, O =
/// NoOid>`) put in, when `pattern` (an impl header's self type, written in
/// `file` of crate `krate`) names them; else `ty` as it is.
pub(super) fn with_defaults(names: &SrcNames, krate: &str, file: &std::path::Path, pattern: &Ty, ty: &Ty) -> Ty {
    let (Ty::Adt(p), Ty::Adt(q)) = (pattern, ty) else { return ty.clone() };
    let count = |x: &Path| x.segments.last().map_or(0, |s| s.args.iter().filter(|a| !matches!(a, GenericArg::Lifetime)).count());
    let (np, nq) = (count(p), count(q));
    if np <= nq || p.qself.is_some() {
        return ty.clone();
    }
    let filled = || -> Result<Ty, String> {
        let module = names.module_of_file(krate, file)?;
        let segs: Vec<String> = p.segments.iter().map(|s| s.name.clone()).collect();
        let Named::Item { module: tm, name, .. } = names.resolve(&module, &segs)? else { return Err("not a type".into()) };
        let defaults = names.param_defaults(&tm, &name)?;
        let site = ImplSite { module: tm, header: "", params: &[] };
        let mut q = q.clone();
        let last = q.segments.last_mut().ok_or("an empty path")?;
        // lifetimes are not among the defaults' parameters
        for d in defaults.iter().skip(nq) {
            let d = d.as_ref().ok_or("a parameter without a default")?;
            let t = crate::mirparse::parser::parse_str(d, |x| x.ty())?;
            last.args.push(GenericArg::Type(kernel_type(names, &site, &t)?));
        }
        Ok(Ty::Adt(q))
    };
    filled().unwrap_or_else(|_| ty.clone())
}

/// Type `ty` of crate `krate` (its name; `in_crate`, its path's segments
/// after the crate's prefix) with the defaults of the trailing parameters
/// that rustc does not print put in, read from the type's declaration
/// (`CtVariableCoreWrapper<Sha512VarCore, U64>` is `<.., NoOid>`); None
/// when none is missing or the declaration is not read.
pub(super) fn declared_defaults(names: &SrcNames, krate: &str, in_crate: &[String], ty: &Path) -> Option<Path> {
    let given = ty.segments.last()?.args.iter().filter(|a| !matches!(a, GenericArg::Lifetime)).count();
    let root = names.root(krate).ok()?;
    let Named::Item { module, name, kind } = names.resolve(&root, in_crate).ok()? else { return None };
    if !matches!(kind.as_str(), "struct" | "enum" | "union") {
        return None;
    }
    let defaults = names.param_defaults(&module, &name).ok()?;
    if defaults.len() <= given {
        return None;
    }
    let site = ImplSite { module, header: "", params: &[] };
    let mut out = ty.clone();
    let last = out.segments.last_mut()?;
    for d in &defaults[given..] {
        let t = crate::mirparse::parser::parse_str(d.as_ref()?, |x| x.ty()).ok()?;
        last.args.push(GenericArg::Type(kernel_type(names, &site, &t).ok()?));
    }
    Some(out)
}

/// `written` (the `T` of `type NAME = T;`) in the kernel's spelling.
pub(super) fn kernel_type(names: &SrcNames, site: &ImplSite, written: &Ty) -> Result<Ty, String> {
    Ok(match written {
        Ty::Adt(p) => Ty::Adt(kernel_path(names, site, p)?),
        Ty::Ref { mutable, pointee } => Ty::Ref { mutable: *mutable, pointee: Box::new(kernel_type(names, site, pointee)?) },
        Ty::Ptr { mutable, pointee } => Ty::Ptr { mutable: *mutable, pointee: Box::new(kernel_type(names, site, pointee)?) },
        Ty::Slice(e) => Ty::Slice(Box::new(kernel_type(names, site, e)?)),
        Ty::Array(e, n) => {
            let literal = n.trim_end_matches("_usize").chars().all(|c| c.is_ascii_digit()) && !n.is_empty();
            if !literal && !site.params.contains(n) {
                return Err(format!("the array length `{n}` is not read"));
            }
            Ty::Array(Box::new(kernel_type(names, site, e)?), n.clone())
        }
        Ty::Tuple(v) => Ty::Tuple(v.iter().map(|t| kernel_type(names, site, t)).collect::<Result<_, _>>()?),
        t @ (Ty::Bool | Ty::Char | Ty::Str | Ty::Never | Ty::Int { .. } | Ty::Float(_)) => t.clone(),
        other => return Err(format!("the type `{other}` is not read")),
    })
}

fn kernel_path(names: &SrcNames, site: &ImplSite, p: &Path) -> Result<Path, String> {
    if let Some(q) = &p.qself {
        let [seg] = p.segments.as_slice() else { return Err(format!("`{p}` is not read")) };
        let tr = q.trait_.as_ref().ok_or_else(|| format!("`{p}` is not read"))?;
        let self_ty = kernel_type(names, site, &q.self_ty)?;
        let tr = kernel_trait(names, &site.module, tr)?;
        return Ok(projection(self_ty, tr, &seg.name));
    }
    let first = p.segments.first().ok_or("an empty path")?;
    if site.params.contains(&first.name) {
        return match p.segments.as_slice() {
            [_] => Ok(p.clone()),
            [_, assoc] if first.args.is_empty() && assoc.args.is_empty() => {
                let tr = assoc_trait(names, site, &first.name, &assoc.name)?;
                let param = Path { qself: None, segments: p.segments[..1].to_vec() };
                Ok(projection(Ty::Adt(param), tr, &assoc.name))
            }
            _ => Err(format!("`{p}` is not read")),
        };
    }
    if first.name == "Self" {
        return Err(format!("`{p}` (a path on `Self`) is not read"));
    }
    let segs: Vec<String> = p.segments.iter().map(|s| s.name.clone()).collect();
    let (module, kind, name) = match names.resolve(&site.module, &segs)? {
        Named::Item { module, kind, name } => (module, kind, name),
        Named::Module(m) => return Err(format!("`{p}` names the module {}", m.file.display())),
    };
    if !matches!(kind.as_str(), "struct" | "enum" | "union") {
        return Err(format!("`{p}` names a `{kind}` item (`{name}`), which is not read as a type here"));
    }
    if p.segments[..p.segments.len() - 1].iter().any(|s| !s.args.is_empty()) {
        return Err(format!("`{p}` is not read"));
    }
    let args = p.segments.last().map(|s| s.args.clone()).unwrap_or_default();
    let args = args
        .into_iter()
        .map(|a| match a {
            GenericArg::Type(t) => kernel_type(names, site, &t).map(GenericArg::Type),
            GenericArg::Lifetime => Ok(GenericArg::Lifetime),
            GenericArg::Const(c) => match c.chars().all(|ch| ch.is_ascii_digit() || ch == '_') {
                true => Ok(GenericArg::Const(c)),
                false => Err(format!("the const argument `{c}` of `{p}` is not read")),
            },
        })
        .collect::<Result<Vec<_>, _>>()?;
    let full = names.kernel_path(&module, &name)?;
    let mut out = crate::mirparse::parser::parse_str(&full, |q| q.path(true)).map_err(|e| format!("`{full}`: {e}"))?;
    if let Some(last) = out.segments.last_mut() {
        last.args = args;
    }
    Ok(out)
}

/// `<self_ty as tr>::name`.
fn projection(self_ty: Ty, tr: Path, name: &str) -> Path {
    Path {
        qself: Some(Box::new(QSelf { self_ty: Box::new(self_ty), trait_: Some(tr) })),
        segments: vec![Segment { name: name.to_string(), args: Vec::new(), turbofish: false }],
    }
}

/// Trait path `tr` (written in `m`) in the kernel's spelling.
fn kernel_trait(names: &SrcNames, m: &Module, tr: &Path) -> Result<Path, String> {
    if tr.segments.iter().any(|s| !s.args.is_empty()) {
        return Err(format!("the generic trait `{tr}` is not read"));
    }
    let segs: Vec<String> = tr.segments.iter().map(|s| s.name.clone()).collect();
    let (tm, name) = resolve_trait(names, m, &segs)?;
    let full = names.kernel_path(&tm, &name)?;
    crate::mirparse::parser::parse_str(&full, |q| q.path(true)).map_err(|e| format!("`{full}`: {e}"))
}

fn resolve_trait(names: &SrcNames, m: &Module, segs: &[String]) -> Result<(Module, String), String> {
    match names.resolve(m, segs)? {
        Named::Item { module, kind, name } if kind == "trait" => Ok((module, name)),
        _ => Err(format!("`{}` is not a trait", segs.join("::"))),
    }
}

/// The trait (the kernel's spelling) that `param::assoc` names: the one
/// of `param`'s bounds in the impl's header, or of their supertraits,
/// that declares `type assoc`.
fn assoc_trait(names: &SrcNames, site: &ImplSite, param: &str, assoc: &str) -> Result<Path, String> {
    let mut todo: Vec<(Module, Vec<String>)> = param_bounds(site.header, param).into_iter().map(|b| (site.module.clone(), b)).collect();
    let mut seen = Vec::new();
    let mut why = Vec::new();
    let mut steps = 0;
    while let Some((m, segs)) = todo.pop() {
        steps += 1;
        if steps > TRAIT_DEPTH * 4 {
            break;
        }
        if segs.len() == 1 && NO_ASSOC_TYPES.contains(&segs[0].as_str()) {
            continue;
        }
        let (tm, name) = match resolve_trait(names, &m, &segs) {
            Ok(t) => t,
            Err(e) => {
                why.push(e);
                continue;
            }
        };
        if seen.contains(&(tm.clone(), name.clone())) {
            continue;
        }
        seen.push((tm.clone(), name.clone()));
        let (head, block) = match names.trait_decl(&tm, &name) {
            Ok(d) => d,
            Err(e) => {
                why.push(e);
                continue;
            }
        };
        if declares_type(&block, assoc) {
            let full = names.kernel_path(&tm, &name)?;
            return crate::mirparse::parser::parse_str(&full, |q| q.path(true)).map_err(|e| format!("`{full}`: {e}"));
        }
        todo.extend(supertraits(&head).into_iter().map(|b| (tm.clone(), b)));
    }
    let why = match why.is_empty() {
        true => String::new(),
        false => format!(" ({})", why.join("; ")),
    };
    Err(format!("no bound of `{param}` in `{}` declares `type {assoc}`{why}", site.header))
}

/// Whether a trait's block (tokens joined by spaces) declares `type NAME`.
fn declares_type(block: &str, name: &str) -> bool {
    let w: Vec<&str> = block.split_whitespace().collect();
    w.windows(3).any(|x| x[0] == "type" && x[1] == name && matches!(x[2], ":" | ";" | "<" | "where"))
}

/// The supertraits of a trait declaration's head (tokens after its name,
/// joined by spaces: `< T > : A + b : : C < T > where ..`), as paths.
fn supertraits(head: &str) -> Vec<Vec<String>> {
    let head = head.replace(" : : ", "::");
    let h = head.trim();
    let h = match h.starts_with('<') {
        true => skip_angles(h),
        false => h,
    };
    let Some(list) = h.trim_start().strip_prefix(':') else { return Vec::new() };
    let list = list.split(" where ").next().unwrap_or(list);
    bound_paths(&list.replace(' ', ""))
}

/// The text after the `<..>` that `s` starts with.
fn skip_angles(s: &str) -> &str {
    matching_close(s, '<', '>').map_or("", |n| &s[n..])
}

/// `s` split at each `sep` outside `<..>`, `(..)` and `[..]`.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let b = s.as_bytes();
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' if i > 0 && b[i - 1] == b'-' => {}
            '>' | ')' | ']' => depth -= 1,
            _ if c == sep && depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// The trait paths of a bound list without spaces (`A+b::C<T>+?Sized+'a`).
fn bound_paths(list: &str) -> Vec<Vec<String>> {
    split_top(list, '+')
        .into_iter()
        .map(str::trim)
        .filter(|b| !b.is_empty() && !b.starts_with('?') && !b.starts_with('\''))
        .map(|b| if b.starts_with("for<") { skip_angles(b) } else { b })
        .map(|b| b.split('<').next().unwrap_or(b).trim_start_matches("::").split("::").map(str::to_string).collect())
        .collect()
}

/// The bounds of impl parameter `param` in `header` (with its `where`
/// clause): `impl<T: A + B, ..>` and `where T: C,`.
pub(super) fn param_bounds(header: &str, param: &str) -> Vec<Vec<String>> {
    let h = header.strip_prefix("impl").unwrap_or(header).trim_start();
    let mut out = Vec::new();
    let mut clauses: Vec<String> = Vec::new();
    if h.starts_with('<') {
        let after = skip_angles(h);
        let generics = &h[1..h.len() - after.len() - 1];
        clauses.extend(split_top(generics, ',').into_iter().map(str::to_string));
    }
    let compact: String = header.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some((_, w)) = compact.split_once(" where ") {
        clauses.extend(split_top(w.trim_end_matches('{'), ',').into_iter().map(str::to_string));
    }
    for c in clauses {
        let c: String = c.split_whitespace().collect();
        let Some((lhs, bounds)) = c.split_once(':').filter(|(_, b)| !b.starts_with(':')) else { continue };
        if lhs == param {
            out.extend(bound_paths(bounds));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::srcnames::fake::Fake;
    use super::*;
    use std::collections::HashMap;
    use std::path::PathBuf;

    /// sha2 0.10's chain, cut down: digest's `CtVariableCoreWrapper`
    /// defines `type BufferKind = T::BufferKind;` (T: VariableOutputCore,
    /// whose supertrait BufferKindUser declares it) in a module two files
    /// down, sha2's `Sha256VarCore` defines `type BufferKind = Eager;` with
    /// `Eager` imported from `digest::block_buffer`.
    fn sha2_chain() -> Fake {
        let files = [
            ("digest/src/lib.rs", "#![no_std]\npub use block_buffer;\npub use crypto_common;\npub mod core_api;\n"),
            (
                "digest/src/core_api.rs",
                "pub use crypto_common::BlockSizeUser;\nuse block_buffer::BufferKind;\nmod ct_variable;\npub use ct_variable::CtVariableCoreWrapper;\n\
                 /// Types which use [`BlockBuffer`] functionality.\npub trait BufferKindUser: BlockSizeUser {\n    /// Block buffer kind.\n    type BufferKind: BufferKind;\n}\n\
                 pub trait UpdateCore: BlockSizeUser {}\npub trait VariableOutputCore: UpdateCore + BufferKindUser + Sized {}\n",
            ),
            (
                "digest/src/core_api/ct_variable.rs",
                "use super::{BufferKindUser, VariableOutputCore};\nuse crate::missing::*;\npub struct NoOid;\n\
                 pub struct CtVariableCoreWrapper<T, OutSize, O = NoOid> { inner: T, out: (OutSize, O) }\n\
                 impl<T, OutSize, O> BufferKindUser for CtVariableCoreWrapper<T, OutSize, O>\nwhere\n    T: VariableOutputCore,\n{\n    type BufferKind = T::BufferKind;\n}\n",
            ),
            ("block_buffer/src/lib.rs", "pub trait BufferKind {}\npub struct Eager {}\npub struct Lazy {}\n"),
            ("crypto_common/src/lib.rs", "pub trait BlockSizeUser { type BlockSize; }\n"),
            ("sha2/src/lib.rs", "pub use digest::{self, Digest};\nmod core_api;\npub use core_api::Sha256VarCore;\n"),
            (
                "sha2/src/core_api.rs",
                "use digest::{block_buffer::Eager, core_api::{BufferKindUser}};\npub struct Sha256VarCore;\n\
                 impl BufferKindUser for Sha256VarCore {\n    type BufferKind = Eager;\n}\n\
                 #[cfg(feature = \"asm\")]\nimpl BufferKindUser for AsmCore {\n    type BufferKind = Eager;\n}\n",
            ),
        ];
        Fake::new(
            "implty",
            &files,
            HashMap::from([("sha2", vec!["digest"]), ("digest", vec!["block_buffer", "crypto_common"])]),
            HashMap::from([
                ("sha2", "sha2"),
                ("digest", "sha2::digest"),
                ("block_buffer", "sha2::digest::block_buffer"),
                ("crypto_common", "sha2::digest::crypto_common"),
            ]),
        )
    }

    fn ty(s: &str) -> Ty {
        crate::mirparse::parser::parse_str(s, |p| p.ty()).unwrap()
    }

    /// The one impl of `krate` whose header names `self_name`: its site
    /// parts (module, header, parameters).
    fn impl_of(names: &SrcNames, krate: &str, self_name: &str) -> (Module, String, Vec<String>, PathBuf) {
        let hs = impl_headers(names, krate).unwrap();
        let found: Vec<_> = hs.iter().filter(|h| h.3.contains(self_name)).cloned().collect();
        assert_eq!(found.len(), 1, "{hs:?}");
        let (file, _, _, header) = found.into_iter().next().unwrap();
        let (params, _, _) = super::super::impls::impl_self_pattern(&header).unwrap();
        (names.module_of_file(krate, &file).unwrap(), header, params, file)
    }

    #[test]
    fn projections_through_impl_parameters_and_imports() {
        let fake = sha2_chain();
        let names = SrcNames { libs: &fake };
        // digest's `T::BufferKind` is `<T as BufferKindUser>::BufferKind`,
        // BufferKindUser found as a supertrait of T's bound
        let (module, header, params, file) = impl_of(&names, "digest", "CtVariableCoreWrapper");
        assert_eq!(module.path, ["core_api", "ct_variable"]);
        assert!(header.ends_with("where T: VariableOutputCore,"), "{header}");
        let site = ImplSite { module, header: &header, params: &params };
        let t = kernel_type(&names, &site, &ty("T::BufferKind")).unwrap();
        assert_eq!(t.to_string(), "<T as sha2::digest::core_api::BufferKindUser>::BufferKind");
        // no bound declares it
        let e = kernel_type(&names, &site, &ty("T::Missing")).unwrap_err();
        assert!(e.contains("declares `type Missing`"), "{e}");
        // a name only a glob import may bring is not guessed
        let e = kernel_type(&names, &site, &ty("Hidden")).unwrap_err();
        assert!(e.contains("glob import"), "{e}");
        // rustc leaves the default `O = NoOid` out of the type it prints
        let printed = ty("sha2::digest::core_api::CtVariableCoreWrapper<sha2::Sha256VarCore, u8>");
        let (_, _, pattern) = super::super::impls::impl_self_pattern(&header).unwrap();
        let full = with_defaults(&names, "digest", &file, &pattern, &printed);
        assert_eq!(full.to_string(), "sha2::digest::core_api::CtVariableCoreWrapper<sha2::Sha256VarCore, u8, sha2::digest::core_api::ct_variable::NoOid>");
        // the same from the type's declaration alone, found through
        // core_api's `pub use ct_variable::CtVariableCoreWrapper`
        let Ty::Adt(printed_path) = &printed else { panic!() };
        let segs = ["core_api".to_string(), "CtVariableCoreWrapper".to_string()];
        assert_eq!(declared_defaults(&names, "digest", &segs, printed_path).map(|p| p.to_string()), Some(full.to_string()));
        let Ty::Adt(all) = &full else { panic!() };
        assert!(declared_defaults(&names, "digest", &segs, all).is_none());
        // sha2's `Eager`, imported through `digest::block_buffer`
        let (module, header, params, _) = impl_of(&names, "sha2", "Sha256VarCore");
        let site = ImplSite { module, header: &header, params: &params };
        assert_eq!(kernel_type(&names, &site, &ty("Eager")).unwrap().to_string(), "sha2::digest::block_buffer::Eager");
        assert_eq!(kernel_type(&names, &site, &ty("[&Eager; 2]")).unwrap().to_string(), "[&sha2::digest::block_buffer::Eager; 2]");
        // an impl under `#[cfg(..)]` is marked (assoc.rs refuses it)
        let hs = impl_headers(&names, "sha2").unwrap();
        assert!(hs.iter().any(|h| h.3 == "impl BufferKindUser for AsmCore #[cfg]"), "{hs:?}");
        // a trait is not a type; an unknown name is an error
        assert!(kernel_type(&names, &site, &ty("BufferKindUser")).unwrap_err().contains("`trait` item"));
        assert!(kernel_type(&names, &site, &ty("Lazy")).unwrap_err().contains("not declared or imported"));
        let _ = std::fs::remove_dir_all(&fake.dir);
    }

    fn strings(v: Vec<Vec<String>>) -> Vec<String> {
        v.into_iter().map(|p| p.join("::")).collect()
    }

    #[test]
    fn bounds_of_impl_parameters() {
        let h = "impl<T: a::A<u8> + ?Sized, OutSize, O> BufferKindUser for W<T, OutSize, O> where T: VariableOutputCore + for<'a> F<'a>, \
                 OutSize: ArrayLength<u8> + IsLessOrEqual<T::OutputSize>, LeEq<OutSize, T::OutputSize>: NonZero, {";
        assert_eq!(strings(param_bounds(h, "T")), ["a::A", "VariableOutputCore", "F"]);
        assert_eq!(strings(param_bounds(h, "OutSize")), ["ArrayLength", "IsLessOrEqual"]);
        assert!(param_bounds(h, "O").is_empty());
        assert_eq!(strings(supertraits("< T > : UpdateCore + b : : OutputSizeUser < T > + Sized where T : Copy")), ["UpdateCore", "b::OutputSizeUser", "Sized"]);
        assert!(supertraits("").is_empty());
        assert!(declares_type("/// x\n type BufferKind : BufferKind ; fn f ( ) ;", "BufferKind"));
        assert!(!declares_type("type BufferKindX : B ;", "BufferKind"));
    }
}
