//! Drop glue: a `drop(place)` terminator of a type with drop glue becomes
//! a call of rustc's own `core::ptr::drop_in_place::<T>` shim, whose body
//! the shim builder dumped (driver.rs `drop_glue_bodies`): the type's
//! `Drop::drop(&mut)`, then its fields in declaration order (an enum's
//! active variant's), an array's elements in order, each again a `drop`
//! of the field's type. Built with panic=abort, the shims' unwind edges
//! (cleanup blocks) are never taken.

use crate::diag::DResult;
use crate::mirparse::ast::*;

use super::body::Ctx;
use super::Exporter;

impl<'a> Exporter<'a> {
    /// `body` with each `drop(place)` whose type has a glue body replaced
    /// by `_p = &raw mut place; _u = drop_in_place::<T>(move _p)` (two new
    /// locals per drop). Drops of `core::array::IntoIter` stay (oxidec
    /// drops one of elements without glue as nothing), as do drops of
    /// types rustc built no shim for (oxidec refuses them).
    pub(super) fn lower_drops(&mut self, body: &'a Body) -> DResult<&'a Body> {
        let mut out: Option<Body> = None;
        for (bi, b) in body.blocks.iter().enumerate() {
            let TerminatorKind::Drop { place, target } = &b.terminator.kind else { continue };
            let t = &b.terminator;
            // The cleanup path of a shim drops every field, glue or not
            // (`drop(((*_1) as Two).1: u32)`); it only runs on unwinding,
            // which kernels (panic=abort) never do.
            if b.cleanup {
                let new = out.get_or_insert_with(|| body.clone());
                new.blocks[bi].terminator.kind = TerminatorKind::Goto(*target);
                continue;
            }
            let ctx = Ctx { body, scope: t.scope, span: t.span.as_ref(), const_comments: &t.const_comments };
            let ty = self.place_json(place, ctx)?.1;
            // a trait object (`Box<dyn T>`'s glue drops `*p: dyn T`): the
            // drop stays, and oxidec calls the vtable's drop word unless it
            // is null (a type without drop glue), as rustc does; the words
            // are filled by `fill_drop_words` (dyn_drop.rs)
            if let Ty::Dyn(d) = &ty {
                let loc = self.loc(body, t.scope, t.span.as_ref());
                self.dyn_drops.push((d.clone(), loc));
                continue;
            }
            let Some(glue) = self.glue_for(&ty) else {
                // no shim: nothing to drop, if rustc says so (needs_drop.rs)
                if matches!(ty, Ty::Adt(_)) {
                    self.glueless_drops.insert(ty.to_string());
                }
                continue;
            };
            self.check_glue(&glue, ctx, &mut Vec::new())?;
            let new = out.get_or_insert_with(|| body.clone());
            let ptr = new.locals.len() as u32;
            let decl = |ty: Ty| Some(LocalDecl { ty, mutable: true, scope: t.scope, span: t.span.clone() });
            new.locals.push(decl(Ty::Ptr { mutable: true, pointee: Box::new(ty.clone()) }));
            new.locals.push(decl(Ty::Tuple(Vec::new())));
            let local = |l: u32| Place { local: l, proj: Vec::new() };
            let (scope, span) = (t.scope, t.span.clone());
            let blk = &mut new.blocks[bi];
            let take = StatementKind::Assign(local(ptr), Rvalue::RawPtr { mutable: true, place: place.clone() });
            blk.statements.push(Located { kind: take, scope, span: span.clone(), const_comments: Vec::new() });
            blk.terminator.kind = TerminatorKind::Call {
                dest: local(ptr + 1),
                callee: Callee::Path(glue),
                args: vec![Operand::Move(local(ptr))],
                target: Some(*target),
            };
        }
        Ok(match out {
            Some(b) => Box::leak(Box::new(b)),
            None => body,
        })
    }

    /// The path of `ty`'s `drop_in_place` shim, when the MIR has its body.
    pub(super) fn glue_for(&self, ty: &Ty) -> Option<Path> {
        if let Ty::Adt(p) = ty {
            if matches!(p.bare().as_str(), "core::array::IntoIter" | "core::array::iter::IntoIter") {
                return None;
            }
        }
        let glue = |t: &Ty| {
            let name = format!("core::ptr::drop_in_place::<{t}>");
            let path = crate::mirparse::parser::parse_str(&name, |p| p.path(true)).ok()?;
            self.bodies.contains_key(path.to_string().as_str()).then_some(path)
        };
        glue(ty).or_else(|| self.without_type_defaults(ty).and_then(|t| glue(&t)))
    }

    /// `ty` as rustc prints it, without the trailing type arguments that are
    /// its parameters' defaults (`RawVec<u32>` for `RawVec<u32, Global>`,
    /// which a library instance's text spells out): the shortest spelling
    /// that `with_type_defaults` completes to `ty`.
    fn without_type_defaults(&self, ty: &Ty) -> Option<Ty> {
        let Ty::Adt(p) = ty else { return None };
        let n = p.segments.last()?.args.len();
        (0..n).find_map(|k| {
            let mut short = p.clone();
            short.segments.last_mut()?.args.truncate(k);
            let short = Ty::Adt(short);
            (self.with_type_defaults(&short) == *ty).then_some(short)
        })
    }

    /// The glue `glue` and the glue it calls, checked at the user's drop
    /// (`ctx`): an error names the line that drops the value, not core's
    /// `drop_in_place`.
    pub(super) fn check_glue(&mut self, glue: &Path, ctx: Ctx, seen: &mut Vec<String>) -> DResult<()> {
        let name = glue.to_string();
        if seen.contains(&name) {
            return Ok(());
        }
        seen.push(name.clone());
        let Some(body) = self.bodies.get(name.as_str()).copied() else { return Ok(()) };
        for b in body.blocks.iter().filter(|b| !b.cleanup) {
            match &b.terminator.kind {
                TerminatorKind::Call { callee: Callee::Path(p), .. } => {
                    if let Some(m) = self.callees.impl_method(p) {
                        self.check_drop_impl(p, &m, ctx)?;
                    }
                }
                TerminatorKind::Drop { place, .. } => {
                    let t = &b.terminator;
                    let inner = Ctx { body, scope: t.scope, span: t.span.as_ref(), const_comments: &t.const_comments };
                    let ty = self.place_json(place, inner)?.1;
                    // a trait object inside (`Box<dyn T>`'s glue): checked
                    // by `check_dyn_drops`, at the user's drop first
                    if let Ty::Dyn(d) = &ty {
                        let loc = self.loc(ctx.body, ctx.scope, ctx.span);
                        self.dyn_drops.push((d.clone(), loc));
                    }
                    if let Some(g) = self.glue_for(&ty) {
                        self.check_glue(&g, ctx, seen)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A `Drop` impl of a generic type is printed generically (`&mut
    /// Guard<'_, T>`): refused here, naming the type, rather than at a
    /// type parameter inside it.
    pub(super) fn check_drop_impl(&self, path: &Path, name: &str, ctx: Ctx) -> DResult<()> {
        let Some(q) = &path.qself else { return Ok(()) };
        let is_drop = q.trait_.as_ref().is_some_and(|t| t.bare() == "core::ops::Drop") && path.last_name() == "drop";
        let Some(body) = self.bodies.get(name).filter(|_| is_drop) else { return Ok(()) };
        let this = body.locals.get(1).and_then(|l| l.as_ref()).and_then(|l| l.ty.pointee());
        // (an instance of a library's impl has the type's defaulted
        // parameters: `&mut Vec<u32, Global>` for `Vec<u32>`)
        if this.is_some_and(|t| *t == *q.self_ty || *t == self.with_type_defaults(&q.self_ty)) {
            return Ok(());
        }
        Err(self.err(ctx, crate::diag::Code::Unsupported, format!(
            "dropping a `{}` runs its generic `Drop` impl, which rustc prints only generically: drop glue of \
             types with generic `Drop` impls is not supported yet; implement `Drop` for a non-generic type",
            q.self_ty
        )))
    }
}
