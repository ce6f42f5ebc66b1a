//! Dropping a trait object (`Box<dyn T>`'s glue drops `*p: dyn T`): rustc
//! calls word 0 of the object's vtable, the concrete type's
//! `drop_in_place::<S>`, and nothing when that word is null (a type without
//! drop glue). Word 0 of every vtable a dropped `dyn T` may hold is rustc's
//! own shim for the concrete type (drops.rs), exported like a method; the
//! drop itself stays a `drop` of the `dyn T` place, which oxidec lowers to
//! the null check and the indirect call.

use super::dyncall::Word;
use super::Exporter;
use crate::diag::{Code, DResult, Diag};
use crate::mirparse::ast::Ty;

impl<'a> Exporter<'a> {
    /// Fills word 0 of each vtable whose trait object type is dropped (or
    /// upcast into one that is) and whose concrete type has drop glue, and
    /// queues the glue's body. Whether any word was filled.
    pub(super) fn fill_drop_words(&mut self) -> DResult<bool> {
        let dropped = self.dropped_dyns();
        let mut changed = false;
        for i in 0..self.vtables.len() {
            let v = &self.vtables[i];
            if !dropped.contains(&v.dyn_) || !matches!(v.word(0), Some(Word::Meta)) {
                continue;
            }
            let concrete = v.concrete.clone();
            if let Some(w) = self.drop_word(i, &concrete)? {
                self.vtables[i].set_word(0, w);
                changed = true;
            }
        }
        Ok(changed)
    }

    /// The trait object types some drop drops, and those upcast into them
    /// (a superset of the types whose vtables a dropped object may hold:
    /// `reaching_vtables` needs the upcasts resolved).
    fn dropped_dyns(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (d, _) in &self.dyn_drops {
            if !out.contains(d) {
                out.push(d.clone());
            }
        }
        let mut k = 0;
        while k < out.len() {
            let from: Vec<String> = self.upcasts.iter().filter(|u| u.to == out[k]).map(|u| u.from.clone()).collect();
            for f in from {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
            k += 1;
        }
        out
    }

    /// Word 0 of vtable `i` of `concrete`: its glue's function, `None` for
    /// a type without drop glue (the word stays null), or why the glue
    /// cannot be exported (a drop that may reach it is refused).
    fn drop_word(&mut self, i: usize, concrete: &Ty) -> DResult<Option<Word>> {
        let Some(glue) = self.glue_for(concrete) else {
            if crate::types::no_drop_glue(concrete, self.input.adts) {
                return Ok(None);
            }
            return Ok(Some(Word::Missing(format!(
                "rustc built no `drop_in_place` shim for `{concrete}`, which may have drop glue"
            ))));
        };
        let ctx = self.vtable_ctx(i);
        if let Err(d) = self.check_glue(&glue, ctx, &mut Vec::new()) {
            return Ok(Some(Word::Missing(d.msg)));
        }
        let name = glue.to_string();
        self.enqueue(&name);
        Ok(Some(Word::Fn(self.symbol(&name))))
    }

    /// Every drop of a `dyn T` must find a function in word 0 of each
    /// vtable it may hold whose concrete type has drop glue. The error is at
    /// the coercion that made that vtable (any drop of a `dyn T` may reach
    /// any of them), naming the first drop.
    pub(super) fn check_dyn_drops(&self) -> DResult<()> {
        for (d, drop_loc) in &self.dyn_drops {
            for i in self.reaching_vtables(d) {
                let v = &self.vtables[i];
                let why = match v.word(0) {
                    Some(Word::Fn(_)) => continue,
                    Some(Word::Missing(why)) => why.clone(),
                    _ if self.glue_for(&v.concrete).is_none()
                        && crate::types::no_drop_glue(&v.concrete, self.input.adts) => continue,
                    _ => "its vtable's drop word was not filled".into(),
                };
                let ctx = self.vtable_ctx(i);
                return Err(Diag::at(self.loc(ctx.body, ctx.scope, ctx.span), Code::Unsupported, format!(
                    "`{}` as a `{d}`, which is dropped (at {drop_loc}), is not supported: its drop glue cannot \
                     be exported: {why}",
                    v.concrete
                )));
            }
        }
        Ok(())
    }
}
