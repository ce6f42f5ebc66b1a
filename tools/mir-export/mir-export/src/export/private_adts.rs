//! Library structs that no layout probe can ask for: a path through a
//! private module or a private struct whose parameter has a `Fn*` bound
//! (core's `ops::try_trait::Wrapped<T, A, F: FnMut(A) -> T>`, which
//! `[T; N]::map` runs its closure through). rustc prints the layout of a
//! private type despite the privacy error, but a closure's stand-in does
//! not meet the bound. rustc lays out a struct without `#[repr]` by its
//! fields' layouts alone, as it lays out a closure: such a struct is laid out as
//! the tuple struct of its declared field types (read from the library's
//! source, its parameters put in), which the probe declares, like a
//! closure's stand-in (probe_names.rs); a type that contains one
//! (`&mut Wrapped<..>`, `Drain<.., Wrapped<..>>`) is probed with the
//! stand-in in its place. A declaration that is not read, a `#[repr]` or
//! `#[rustc_..]` layout attribute, an enum or a `?Sized` parameter leave
//! it without a layout, saying why; an enum without variants is
//! uninhabited, size 0, align 1, and `core::convert::Infallible` stands
//! in for it.

use crate::mirparse::ast::{GenericArg, Path, Ty};

use super::implty::ImplSite;
use super::srcnames::{Named, SrcNames};
use super::{mono, Exporter};

impl<'a> Exporter<'a> {
    /// Finds the private library structs of the type table (their field
    /// types interned in turn, which may hold more) and gives each its
    /// declared field types as `local_fields`, or a layout error.
    pub(super) fn private_adt_fields(&mut self) {
        let mut done = 0;
        while done < self.types.entries.len() {
            let n = self.types.entries.len();
            for i in done..n {
                let Ty::Adt(p) = self.types.get(i).ty.clone() else { continue };
                if p.qself.is_some() || p.declared_in_generic() || self.types.get(i).layout.is_some() || !self.is_private_library_adt(&p) {
                    continue;
                }
                if self.is_empty_library_enum(&p) {
                    self.private_adts.insert(p.bare(), true);
                    continue;
                }
                // rustc prints the layout of a private type despite the
                // privacy error; what fails is a closure's stand-in that
                // does not meet a parameter's `Fn*` bound (`F: FnMut(A)
                // -> T`): only such structs are laid out from their fields
                if !self.has_fn_bound(&p) {
                    continue;
                }
                self.private_adts.insert(p.bare(), false);
                match self.declared_field_types(&p) {
                    Ok(tys) => {
                        let idx: Vec<usize> = tys.iter().map(|t| self.types.intern(t)).collect();
                        self.types.entries[i].local_fields = Some(idx);
                    }
                    Err(why) => {
                        self.types.entries[i].layout_error = Some(format!(
                            "`{}` is private to its crate, so the layout probe cannot name it, and it is not laid out \
                             from its declaration: {why}",
                            p.bare()
                        ));
                    }
                }
            }
            done = n;
        }
    }

    /// Whether `ty` is or contains a private library struct (found by
    /// `private_adt_fields`).
    pub(super) fn names_private_adt(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Adt(p) => {
                self.private_adts.contains_key(&p.bare())
                    || p.type_args().any(|a| matches!(a, GenericArg::Type(t) if self.names_private_adt(t)))
            }
            Ty::Tuple(v) => v.iter().any(|t| self.names_private_adt(t)),
            Ty::Array(t, _) | Ty::Slice(t) => self.names_private_adt(t),
            Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => self.names_private_adt(pointee),
            _ => false,
        }
    }

    /// Whether struct `p`'s declaration bounds a parameter by a `Fn*`
    /// trait (core's `Wrapped<T, A, F: FnMut(A) -> T>`).
    fn has_fn_bound(&self, p: &Path) -> bool {
        let Ok((names, Named::Item { module, name, .. })) = self.library_item(p) else { return false };
        names.struct_decl(&module, &name).is_ok_and(|(generics, _)| !super::impls::fn_output_bounds(&generics).is_empty() || generics.contains("Fn("))
    }

    /// Whether private library type `p` is an enum without variants
    /// (core's `NeverShortCircuitResidual`): uninhabited, size 0, align 1,
    /// as `core::convert::Infallible`, which stands in for it.
    fn is_empty_library_enum(&self, p: &Path) -> bool {
        match self.library_item(p) {
            Ok((names, Named::Item { module, kind, name })) => kind == "enum" && p.type_args().next().is_none() && names.is_empty_enum(&module, &name),
            _ => false,
        }
    }

    /// What library type path `p` (the kernel's spelling) names in its
    /// crate's sources, with the resolver that found it.
    fn library_item(&self, p: &Path) -> Result<(SrcNames<'a>, Named), String> {
        let bare = p.bare();
        let libs = self.input.library;
        let key = libs.crate_key(&bare).ok_or("not a library's type")?;
        let segs: Vec<String> = bare[key.len()..].trim_start_matches("::").split("::").map(str::to_string).collect();
        let names = SrcNames { libs };
        let root = names.root(libs.crate_name(key))?;
        let named = names.resolve(&root, &segs)?;
        Ok((names, named))
    }

    /// Whether library type path `p` (the kernel's spelling) goes through
    /// a binding that is not `pub`; false when it is not a library's or
    /// not read.
    fn is_private_library_adt(&self, p: &Path) -> bool {
        let bare = p.bare();
        let libs = self.input.library;
        let Some(key) = libs.crate_key(&bare) else { return false };
        if !libs.is_library(key) {
            return false;
        }
        let segs: Vec<String> = bare[key.len()..].trim_start_matches("::").split("::").map(str::to_string).collect();
        let names = SrcNames { libs };
        names.is_public_path(libs.crate_name(key), &segs) == Some(false)
    }

    /// The field types of struct `p` as declared, with `p`'s arguments put
    /// in for its parameters, in the kernel's spelling.
    fn declared_field_types(&self, p: &Path) -> Result<Vec<Ty>, String> {
        let (names, Named::Item { module, kind, name }) = self.library_item(p)? else { return Err("it names a module".into()) };
        if kind != "struct" {
            return Err(format!("it is a private `{kind}`, not a struct"));
        }
        let (generics, written) = names.struct_decl(&module, &name)?;
        let params = match generics.is_empty() {
            true => Vec::new(),
            false => mono::generic_params(&format!("fn {name}{generics}"), &name).ok_or("its generic parameters are not read")?,
        };
        let args: Vec<String> = p
            .type_args()
            .filter_map(|a| match a {
                GenericArg::Type(t) => Some(t.to_string()),
                GenericArg::Const(c) => Some(c.clone()),
                GenericArg::Lifetime => None,
            })
            .collect();
        if params.len() != args.len() {
            return Err(format!("it has {} generic parameters, `{p}` gives {}", params.len(), args.len()));
        }
        let site = ImplSite { module, header: "", params: &params };
        let mut decl = String::from("fn f() -> () {\n");
        for (k, w) in written.iter().enumerate() {
            let t = crate::mirparse::parser::parse_str(w, |x| x.ty()).map_err(|e| format!("the field type `{w}`: {e}"))?;
            let t = super::implty::kernel_type(&names, &site, &t).map_err(|e| format!("the field type `{w}`: {e}"))?;
            decl.push_str(&format!("let _{}: {t};\n", k + 1));
        }
        decl.push_str("}\n");
        let decl = mono::substitute(&decl, "f", &params, &args)?;
        decl.lines()
            .filter_map(|l| l.strip_prefix("let _"))
            .map(|l| {
                let t = l.split_once(": ").map_or("", |x| x.1).trim_end_matches(';');
                crate::mirparse::parser::parse_str(t, |x| x.ty())
            })
            .collect()
    }
}
