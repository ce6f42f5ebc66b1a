//! Promoteds of a library trait method named through its call: core's
//! `Iterator::all` compares with `&ControlFlow::Continue(())`, a promoted
//! that the kernel's MIR, having inlined `all`, names by the call
//! (`<Map<Iter<'_, u8>, {closure}> as Iterator>::all::<F>::promoted[0]`).
//! Its body is the library's `METHOD::promoted[N]`, where METHOD is the
//! impl method the call picks, or the trait's default method, instantiated
//! with the impl's (or `Self`'s) and the method's generic parameters bound
//! as for the method itself (mono.rs); it becomes a body of the export
//! named by the path, so the constant is an `unevaluated` reference to it.
//!
//! A promoted of a library's generic inherent method or function is named
//! by the instance (`core::slice::<impl [u8]>::align_to::<usize>::
//! promoted[3]`, `tinyvec::ArrayVec::<[u32; 16]>::extend_from_slice::
//! promoted[0]`): its body is the generic one's promoted
//! (`slice::<impl at ..>::align_to::promoted[3]`), instantiated with the
//! impl's parameters bound as for the method (`library_inherent_pick`) and
//! the method's own from the path (`instance_promoted`).

use crate::diag::{Code, DResult};
use crate::mirparse::ast::Path;

use super::body::Ctx;
use super::impls::Pick;
use super::{mono, Exporter};

/// The name on the `const NAME: T = {` line of a constant's MIR text.
pub(super) fn text_const_name(text: &str) -> Option<&str> {
    let first = text.lines().next()?.strip_prefix("const ")?;
    first.rsplit_once(": ").map(|(n, _)| n).filter(|n| !n.contains(" = "))
}

impl<'a> Exporter<'a> {
    /// Makes the instance of promoted `path` (`<T as Tr>::m::<..>::promoted[N]`)
    /// a body of the export, when its method is a library's; nothing for
    /// any other path.
    pub(super) fn method_promoted(&mut self, path: &Path, ctx: Ctx) -> DResult<()> {
        let name = path.to_string();
        let (Some(q), [method_seg, last]) = (path.qself.as_ref(), path.segments.as_slice()) else { return Ok(()) };
        if !last.name.starts_with("promoted[") || self.bodies.contains_key(name.as_str()) {
            return Ok(());
        }
        let Some(krate) = q.trait_.as_ref().map(|t| t.bare()).and_then(|t| self.input.library.crate_key(&t).map(str::to_string)) else { return Ok(()) };
        let Some(Ok(lib)) = self.input.library.get(&krate) else { return Ok(()) };
        let method = Path { qself: path.qself.clone(), segments: vec![method_seg.clone()] };
        let (item, params, args) = match self.library_impl_pick(lib, &method, ctx)? {
            Pick::Impl(cand, ps, a) => (crate::library::undup(&cand).to_string(), ps, a),
            Pick::Default => match self.library_default_pick(lib, &method) {
                Some(pick) => pick,
                None => return Ok(()),
            },
            Pick::None => return Ok(()),
        };
        self.instantiate_promoted(lib, &item, &method, (params, args), &last.name, &name, "method", ctx)
    }

    /// Makes the instance of promoted `path` of a library's inherent
    /// method or function named by its instance (`core::slice::<impl
    /// [u8]>::align_to::<usize>::promoted[3]`) a body of the export;
    /// nothing for a path without generic arguments (a promoted of a
    /// function that is not generic: consts.rs imports it) or that names
    /// no library function.
    pub(super) fn instance_promoted(&mut self, path: &Path, ctx: Ctx) -> DResult<()> {
        let name = path.to_string();
        let Some(last) = path.segments.last().filter(|s| s.name.starts_with("promoted[")) else { return Ok(()) };
        if path.qself.is_some() || self.bodies.contains_key(name.as_str()) {
            return Ok(());
        }
        let method = path.parent();
        let bare = method.bare();
        let libs = self.input.library;
        let Some((Ok(lib), own_bare)) = libs.for_path(&bare) else { return Ok(()) };
        // (an impl of a primitive type, `<impl [u8]>`, may be generic
        // without arguments in the path: its header says)
        if !method.segments.iter().any(|s| !s.args.is_empty()) && !own_bare.contains("<impl ") {
            return Ok(());
        }
        let (item, params, args) = match self.library_inherent_pick(lib, &method, ctx)? {
            Some((cand, ps, a)) => (crate::library::undup(&cand).to_string(), ps, a),
            // a generic function outside impls (`core::f::<u8>`)
            None if lib.body_text(own_bare).is_some() => (own_bare.to_string(), Vec::new(), Vec::new()),
            None => return Ok(()),
        };
        self.instantiate_promoted(lib, &item, &method, (params, args), &last.name, &name, "function", ctx)
    }

    /// Promoted `promoted` of library `item` (the picked impl method or
    /// function, bound to `bound`) instantiated as `name`: the item's own
    /// generics bound from `method`'s path, the promoted's text
    /// substituted and made a body of the export.
    #[allow(clippy::too_many_arguments)]
    fn instantiate_promoted(
        &mut self,
        lib: &crate::library::Library,
        item: &str,
        method: &Path,
        bound: (Vec<String>, Vec<String>),
        promoted: &str,
        name: &str,
        kind: &str,
        ctx: Ctx,
    ) -> DResult<()> {
        let (mut params, mut args) = bound;
        let Some(text) = lib.body_text(&format!("{item}::{promoted}")) else { return Ok(()) };
        let fail = |why: String| format!("{}'s promoted `{item}::{promoted}` for `{name}` could not be instantiated ({why})", lib.krate());
        let method_text = lib.body_text(item).ok_or_else(|| self.err(ctx, Code::Export, fail(format!("its {kind} has no text"))))?;
        let (own_params, own_args) = self.method_own_generics(&method_text, method, &fail, ctx)?;
        params.extend(own_params);
        args.extend(own_args);
        let own = text_const_name(&text).ok_or_else(|| self.err(ctx, Code::Export, fail("no `const` line".into())))?;
        let text = mono::substitute(&text, &format!("const {own}"), &params, &args).map_err(|m| self.err(ctx, Code::Unsupported, fail(m)))?;
        let text = self.normalize_projections(&text, ctx)?;
        self.add_instance_text(&text, name, &fail, ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_promoteds_name() {
        let t = "const iter::traits::iterator::Iterator::all::promoted[0]: &ops::control_flow::ControlFlow<()> = {\n _0 = &_1;\n}\n";
        assert_eq!(text_const_name(t), Some("iter::traits::iterator::Iterator::all::promoted[0]"));
        assert_eq!(text_const_name("fn f() -> u8 {\n"), None);
    }
}
