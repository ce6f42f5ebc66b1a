//! Dyn upcasting coercions (`&dyn Sub as &dyn Super`) and which vtables a
//! trait object may hold through them.
//!
//! rustc lays out the vtable of `dyn Sub` (`vtable_entries`) with the
//! vtables of the supertraits on its first chain of supertraits as
//! prefixes, and, right after the own methods of each other supertrait
//! that has any, a `TraitVPtr` word: the address of the concrete type's
//! vtable as that supertrait's object (`trait Sub: A + B`: `[drop, size,
//! align, A::a, B::b, TraitVPtr(B), Sub::s]`). Its coercion
//! (`vtable_trait_upcasting_coercion_new_vptr_slot`, `supertrait_vtable_slot`)
//! keeps the metadata when the target is a prefix, and otherwise loads the
//! target's `TraitVPtr` word: each supertrait appears once in the layout,
//! so the word is the one that names it. Both are decided here once
//! rustc's layouts are probed: the prefix is checked word by word, the
//! `TraitVPtr` word becomes the cast's `"vtable_word"`.

use super::body::Ctx;
use super::dyncall::{dyn_pointee, Word};
use super::Exporter;
use crate::diag::{Code, DResult, Diag};
use crate::json::Json;
use crate::mirparse::ast::{Operand, Ty};
use crate::obj;
use crate::vtable::{same_trait, Entry};

/// A dyn upcasting coercion, its way decided once both vtable layouts are
/// known (`resolve_upcasts`).
pub(super) struct Upcast {
    pub(super) from: String,
    pub(super) to: String,
    /// The type index of `dyn to`.
    pub(super) to_ty: usize,
    loc: String,
    /// `Some(k)`: the new vtable is word k of the old one (`TraitVPtr`);
    /// `None`: the old vtable, whose prefix is the target's layout.
    vptr: Option<usize>,
}

const PENDING: &str = "upcast";

/// `dyn m::B + core::marker::Send` → `m::B`: the principal trait, which
/// rustc prints first.
fn principal(dyn_: &str) -> &str {
    let t = dyn_.trim().strip_prefix("dyn ").unwrap_or(dyn_).trim();
    let b = t.as_bytes();
    let mut depth = 0i32;
    for i in 0..b.len() {
        match b[i] {
            b'<' | b'(' | b'[' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' | b')' | b']' => depth -= 1,
            b'+' if depth == 0 => return t[..i].trim(),
            _ => {}
        }
    }
    t
}

/// The index of the `TraitVPtr` word of `layout` that points to the vtable
/// of `trait_`, if rustc gave it one.
pub(super) fn vptr_word(layout: &[Entry], trait_: &str) -> Option<usize> {
    layout.iter().position(|e| matches!(e, Entry::TraitVPtr(t) if same_trait(t, trait_)))
}

impl<'a> Exporter<'a> {
    /// `&dyn Sub as &dyn Super` (`PointerCoercion(Unsize)` of a trait
    /// object): the trait object type it comes from, when it is one.
    pub(super) fn upcast_source(&mut self, operand: &Operand, ctx: Ctx) -> DResult<Option<String>> {
        Ok(dyn_pointee(&self.operand_ty(operand, ctx)?).map(str::to_string))
    }

    /// A dyn upcasting coercion from `from` to the trait object of `ty`: a
    /// placeholder cast, made a pointer cast or a load of the `TraitVPtr`
    /// word by `patch_upcasts`.
    pub(super) fn upcast_json(&mut self, from: &str, operand: &Operand, ty: &Ty, ctx: Ctx) -> DResult<Json> {
        let to = dyn_pointee(ty).expect("is_dyn_coercion").to_string();
        let to_ty = self.ty(&Ty::Dyn(to.clone()), ctx)?;
        let index = match self.upcasts.iter().position(|u| u.from == from && u.to == to) {
            Some(i) => i,
            None => {
                let loc = self.loc(ctx.body, ctx.scope, ctx.span);
                self.upcasts.push(Upcast { from: from.to_string(), to, to_ty, loc, vptr: None });
                self.upcasts.len() - 1
            }
        };
        Ok(obj![
            "kind" => "cast",
            "cast" => "PtrToPtr",
            "operand" => self.operand_json(operand, ctx)?,
            "ty" => self.ty(ty, ctx)?,
            PENDING => index,
        ])
    }

    /// Each upcast's way, from both of rustc's layouts: the source's
    /// `TraitVPtr` word naming the target's principal trait, else the
    /// target's layout must be a prefix of the source's, word by word (the
    /// same metadata and the same methods of the same traits).
    pub(super) fn resolve_upcasts(&mut self) -> DResult<()> {
        for i in 0..self.upcasts.len() {
            let u = &self.upcasts[i];
            let layout = |d: &str| match self.vt_layouts.get(d) {
                Some(Ok(e)) => Ok(e),
                Some(Err(why)) => Err(why.clone()),
                None => Err("not probed".to_string()),
            };
            let (from, to) = match (layout(&u.from), layout(&u.to)) {
                (Ok(f), Ok(t)) => (f, t),
                (Err(why), _) | (_, Err(why)) => {
                    return Err(Diag::at(u.loc.clone(), Code::Export, format!(
                        "trait upcasting (`{}` to `{}`): cannot learn rustc's vtable layouts: {why}", u.from, u.to
                    )))
                }
            };
            if let Some(k) = vptr_word(from, principal(&u.to)) {
                self.upcasts[i].vptr = Some(k);
                continue;
            }
            let same = |a: &Entry, b: &Entry| match (a, b) {
                (Entry::Method { trait_: ta, name: na }, Entry::Method { trait_: tb, name: nb }) => na == nb && same_trait(ta, tb),
                (Entry::TraitVPtr(ta), Entry::TraitVPtr(tb)) => same_trait(ta, tb),
                _ => a == b,
            };
            if to.len() > from.len() || !to.iter().zip(from.iter()).all(|(t, f)| same(t, f)) {
                return Err(Diag::at(u.loc.clone(), Code::Export, format!(
                    "trait upcasting (`{}` to `{}`): rustc's vtable of `{}` is neither a prefix of the vtable of \
                     `{}` nor pointed to by one of its words; mir-export cannot tell how rustc upcasts it",
                    u.from, u.to, u.to, u.from
                )));
            }
        }
        Ok(())
    }

    /// The vtables a `dyn_` object may hold: those made as `dyn_`, those
    /// of the objects upcast to it that keep their vtable, and the
    /// vtables the `TraitVPtr` words of the others point to.
    pub(super) fn reaching_vtables(&self, dyn_: &str) -> Vec<usize> {
        let mut seen = vec![dyn_.to_string()];
        self.reaching_from(dyn_, &mut seen)
    }

    fn reaching_from(&self, dyn_: &str, seen: &mut Vec<String>) -> Vec<usize> {
        let mut out: Vec<usize> = (0..self.vtables.len()).filter(|&i| self.vtables[i].dyn_ == dyn_).collect();
        for u in self.upcasts.iter().filter(|u| u.to == dyn_) {
            if seen.contains(&u.from) {
                continue;
            }
            seen.push(u.from.clone());
            for i in self.reaching_from(&u.from, seen) {
                let j = match u.vptr {
                    None => Some(i),
                    Some(k) => match self.vtables[i].word(k) {
                        Some(Word::Vtable(j)) => Some(*j),
                        _ => None,
                    },
                };
                if let Some(j) = j.filter(|j| !out.contains(j)) {
                    out.push(j);
                }
            }
        }
        out
    }

    /// The type indices of the upcast targets other than its own type
    /// that vtable `i` is reached as (its `"also"`).
    pub(super) fn also_of(&self, i: usize) -> Vec<usize> {
        let mut also: Vec<usize> = Vec::new();
        for u in self.upcasts.iter().filter(|u| u.to != self.vtables[i].dyn_) {
            if !also.contains(&u.to_ty) && self.reaching_vtables(&u.to).contains(&i) {
                also.push(u.to_ty);
            }
        }
        also
    }

    /// Makes each upcast placeholder its cast: `PtrToPtr`, or
    /// `PointerCoercion(Unsize)` with the `"vtable_word"` to load.
    pub(super) fn patch_upcasts(&mut self) {
        let ways: Vec<Option<usize>> = self.upcasts.iter().map(|u| u.vptr).collect();
        for f in &mut self.functions {
            patch(f, &ways);
        }
    }
}

fn patch(j: &mut Json, ways: &[Option<usize>]) {
    match j {
        Json::Arr(items) => items.iter_mut().for_each(|x| patch(x, ways)),
        Json::Obj(fields) => {
            let Some(at) = fields.iter().position(|(k, _)| k == PENDING) else {
                return fields.iter_mut().for_each(|(_, v)| patch(v, ways));
            };
            let Json::Int(n) = fields.remove(at).1 else { unreachable!("an upcast placeholder without its index") };
            if let Some(k) = ways[n as usize] {
                for (key, v) in fields.iter_mut() {
                    if key == "cast" {
                        *v = Json::from("PointerCoercion(Unsize)");
                    }
                }
                fields.push(("vtable_word".into(), Json::from(k as u32)));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_is_the_first_bound() {
        assert_eq!(principal("dyn m::B + core::marker::Send"), "m::B");
        assert_eq!(principal("dyn G<u8, (u16, u32)>"), "G<u8, (u16, u32)>");
        assert_eq!(principal("dyn core::ops::Fn(u32) -> u32 + core::marker::Sync"), "core::ops::Fn(u32) -> u32");
    }

    #[test]
    fn the_vptr_word_names_its_trait() {
        let layout = crate::vtable::parse_entries(
            "[MetadataDropInPlace, MetadataSize, MetadataAlign, Method(<dyn C as A>::a - shim(reify)), \
             Method(<dyn C as m::B>::b - shim(reify)), TraitVPtr(<dyn C as m::B>), \
             Method(<dyn C as m::G<u8>>::g - shim(reify)), TraitVPtr(<dyn C as m::G<u8>>), Method(<dyn C as C>::c - shim(reify))]",
        )
        .unwrap();
        assert_eq!(vptr_word(&layout, "m::B"), Some(5));
        assert_eq!(vptr_word(&layout, "crate::m::G<u8>"), Some(7));
        assert_eq!(vptr_word(&layout, "m::G<u16>"), None);
        assert_eq!(vptr_word(&layout, "A"), None);
    }
}
