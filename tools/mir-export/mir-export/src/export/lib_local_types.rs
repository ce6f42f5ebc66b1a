//! Types a library declares inside a method of a trait impl (alloc's
//! `impl<T, A> Drop for IntoIter<T, A> { fn drop(&mut self) { struct
//! DropGuard<'a, T, A>(&'a mut IntoIter<T, A>); .. } }`), printed under the
//! impl's method: `<alloc::vec::IntoIter<u32, Global> as core::ops::Drop>::
//! drop::DropGuard<'_, u32, Global>` in an instance of that method.
//!
//! As for a type declared inside a generic function of the kernel crate
//! (docs/DESIGN.md, "Items declared inside a generic function"), no probe
//! can name it and it is laid out as a tuple struct of the field types of
//! the aggregate that builds it; that needs its declaration (a struct,
//! without `#[repr(..)]`, without a `?Sized` parameter, its field count).
//! rustc prints the impl's own parameters in the trait path (a nested item
//! does not inherit them), so an instance keeps them (mono.rs
//! `mask_parent_params`). The declaration is read from the library's source
//! file: the file of the enclosing method's instance (a library body of
//! the method's name whose `self` is of the impl's self type; its return
//! place's span), the first declaration of that name inside a function of
//! the method's name after the method's signature. The declaration is then known to the ADT table under the
//! printed path (`AdtTable::add_library_local`).
//!
//! A method inlined into the kernel's body (tinyvec's `ArrayVec::retain`,
//! printed `tinyvec::ArrayVec<A>::retain::JoinOnDrop<'_, u32>`) leaves no
//! instance to read, and its type's path names neither the module nor the
//! impl: `SliceVec::retain`, in another module, declares a `JoinOnDrop` too.
//! Its declaration is the one a local of that type names by its span
//! (`learn_library_locals_at`): in the library file the span is in, the
//! declaration of that name whose block is the innermost around the span,
//! declared in a function of the name the path prints before the type's.

use crate::adts::{local_decl_around, local_decls_named, DeclSite};
use crate::mirparse::ast::{GenericArg, Path, SrcSpan, Ty};

use super::Exporter;

impl<'a> Exporter<'a> {
    /// Makes the declaration of `p` known to the ADT table when it is a
    /// type declared inside a method of a library body of the export.
    pub(super) fn learn_library_local(&self, p: &Path) {
        if p.qself.is_none() || !p.declared_in_generic() {
            return;
        }
        let bare = p.bare();
        if !matches!(self.input.adts.lookup(&bare), Ok(None)) {
            return;
        }
        let Some(Ty::Adt(self_ty)) = p.qself.as_ref().map(|q| &*q.self_ty) else { return };
        let (self_bare, method) = (self_ty.bare(), p.parent().last_name().to_string());
        // the method's instance: a library body of that name whose `self`
        // is of the impl's self type (its printed name spells the type as
        // the call did, the type's path with the impl's parameters)
        let is_self = |t: &Ty| match t {
            Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => matches!(&**pointee, Ty::Adt(a) if a.bare() == self_bare),
            Ty::Adt(a) => a.bare() == self_bare,
            _ => false,
        };
        let body = self.bodies.iter().find(|(k, b)| {
            self.library_bodies.contains_key(**k)
                && b.path.last_name() == method
                && b.arg_count >= 1
                && b.locals.get(1).and_then(|l| l.as_ref()).is_some_and(|l| is_self(&l.ty))
        });
        let Some((_, body)) = body else { return };
        let Some(span) = body.locals.first().and_then(|l| l.as_ref()).and_then(|l| l.span.as_ref()) else { return };
        let Ok(src) = std::fs::read_to_string(&span.file) else { return };
        let Some(start) = byte_offset(&src, span) else { return };
        let fn_name = body.path.last_name();
        let decl = local_decls_named(&src, p.last_name()).into_iter().filter(|(f, at, _)| f == fn_name && *at > start).min_by_key(|(_, at, _)| *at);
        if let Some((_, at, decl)) = decl {
            self.input.adts.add_library_local(&bare, decl, Some(DeclSite { file: span.file.clone(), at }));
        }
    }

    /// Makes the declaration of each type declared inside a library's
    /// generic function that `ty` mentions known to the ADT table, from a
    /// local of type `ty` whose span is in that library's source (an
    /// absolute path: the kernel crate's own files are relative, and its
    /// types are found by `AdtTable::local_type`).
    pub(super) fn learn_library_locals_at(&self, ty: &Ty, span: &SrcSpan) {
        let Ty::Adt(p) = ty else {
            match ty {
                Ty::Tuple(v) => v.iter().for_each(|t| self.learn_library_locals_at(t, span)),
                Ty::Array(t, _) | Ty::Slice(t) | Ty::Ref { pointee: t, .. } | Ty::Ptr { pointee: t, .. } => {
                    self.learn_library_locals_at(t, span)
                }
                _ => {}
            }
            return;
        };
        for a in p.type_args() {
            if let GenericArg::Type(t) = a {
                self.learn_library_locals_at(t, span);
            }
        }
        let bare = p.bare();
        if !p.declared_in_generic() || !span.file.starts_with('/') || self.input.adts.has_library_local(&bare) {
            return;
        }
        let Ok(src) = std::fs::read_to_string(&span.file) else { return };
        let Some(at) = byte_offset(&src, span) else { return };
        match local_decl_around(&src, p.last_name(), at) {
            Some((f, at, decl)) if f == p.parent().last_name() => {
                self.input.adts.add_library_local(&bare, decl, Some(DeclSite { file: span.file.clone(), at }))
            }
            _ => {}
        }
    }

    /// Whether the impl at `impl_span` (`<impl at FILE:L:C: L:C>` of a
    /// library's MIR) is one for the type declared inside a function that
    /// `self_ty` (or what it points to) names, when `learn_library_local*`
    /// knows where that type is declared: the impl is in that file, and
    /// its self type's name there is that declaration (the innermost
    /// around the impl). `None` when not known.
    pub(super) fn impl_is_for_library_local(&self, impl_span: &str, self_ty: &Ty) -> Option<bool> {
        let p = match self_ty {
            Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => return self.impl_is_for_library_local(impl_span, pointee),
            Ty::Adt(p) if p.declared_in_generic() => p,
            _ => return None,
        };
        let site = self.input.adts.library_local_site(&p.bare())?;
        let span = crate::mirparse::items::parse_span(impl_span)?;
        if span.file != site.file {
            return Some(false);
        }
        let src = std::fs::read_to_string(&span.file).ok()?;
        let at = byte_offset(&src, &span)?;
        Some(local_decl_around(&src, p.last_name(), at).is_some_and(|(_, decl_at, _)| decl_at == site.at))
    }
}

/// The byte offset in `src` where span `s` starts (its column counts
/// characters from 1).
fn byte_offset(src: &str, s: &SrcSpan) -> Option<usize> {
    let line_start: usize = src.split_inclusive('\n').take((s.line as usize).checked_sub(1)?).map(str::len).sum();
    let line = src[line_start..].lines().next()?;
    let col = line.char_indices().nth((s.col as usize).checked_sub(1)?).map_or(line.len(), |(k, _)| k);
    Some(line_start + col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_inside_a_trait_impls_method() {
        let src = "impl<T> Drop for It<T> {\n    fn drop(&mut self) {\n        struct DropGuard<'a, T>(&'a mut It<T>);\n    }\n}\n\
                   fn other() { struct DropGuard(u8, u8); }\n";
        let s = SrcSpan { file: String::new(), line: 2, col: 5, end_line: 2, end_col: 23 };
        let at = byte_offset(src, &s).unwrap();
        assert!(src[at..].starts_with("fn drop"));
        let found = local_decls_named(src, "DropGuard");
        let ours: Vec<_> = found.iter().filter(|(f, k, _)| f == "drop" && *k > at).collect();
        assert_eq!(ours.len(), 1);
        assert_eq!(ours[0].2.fields.len(), 1);
        assert!(found.iter().any(|(f, _, d)| f == "other" && d.fields.len() == 2));
    }
}
