//! One MIR body → an oxide-mir `Body`: locals, blocks, statements,
//! terminators, places, operands and rvalues, each in the JSON shape of
//! docs/oxide-mir-format.md.

use std::collections::HashMap;

use crate::adts::AdtKind;
use crate::diag::{Code, DResult, Diag};
use crate::json::Json;
use crate::mirparse::ast::*;
use crate::obj;

use super::callee::{PrimOp, Resolved};
use super::mono;
use super::impls::{derived_impl_header, impl_self_pattern, impl_trait_text, impl_src_root, inherent_self, macro_impl_binding, marker_bounds_hold, self_param_matches, self_type_crate_in, structural_impl_for, unify, Pick};
use super::Exporter;

/// Where a statement or terminator is: for types, errors and spans.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'b> {
    pub body: &'b Body,
    pub scope: u32,
    pub span: Option<&'b SrcSpan>,
    pub const_comments: &'b [(String, String)],
}

impl<'a> Exporter<'a> {
    pub(super) fn body_json(&mut self, body: &'a Body, kernel: Option<&str>) -> DResult<Json> {
        let body = self.lower_drops(body)?;
        let root = Ctx { body, scope: 0, span: body.locals[0].as_ref().and_then(|l| l.span.as_ref()), const_comments: &[] };
        let locals = self.locals_json(body)?;
        let mut blocks = Vec::new();
        for b in &body.blocks {
            blocks.push(self.block_json(body, b)?);
        }
        let kind = match (kernel, body.kind) {
            (Some(_), _) => "kernel",
            (None, BodyKind::Fn) => "device",
            (None, _) => "const",
        };
        let span = self.span_json(root);
        let inline = if kind == "device" { self.inline_attr(body) } else { None };
        let mut j = obj![
            "name" => body.name.as_str(),
            "symbol" => kernel.map_or_else(|| self.symbol(&body.name), str::to_string),
            "kind" => kind,
            "kernel" => kernel.map(|k| obj!["name" => k, "attrs" => self.kernel_attrs(k)]),
            "span" => span,
            "arg_count" => body.arg_count,
            "locals" => locals,
            "blocks" => blocks,
        ];
        if let Some(i) = inline {
            j.push("inline", i);
        }
        Ok(j)
    }

    /// The source lines of a function's signature and up to `before`
    /// lines above it (attributes, a multi-line `fn` header), located by
    /// the return place's span.
    pub(super) fn signature_source(&self, body: &Body, before: u32) -> Option<String> {
        let s = body.locals.first()?.as_ref()?.span.as_ref()?;
        self.spans.source_text(&SrcSpan {
            file: s.file.clone(),
            line: s.line.saturating_sub(before).max(1),
            col: 1,
            end_line: s.line,
            end_col: 100_000,
        })
    }

    /// The function's `#[inline(never)]` / `#[inline(always)]`, read from
    /// the source lines before its signature (MIR does not print
    /// attributes): oxidec keeps a `never` function a real call.
    fn inline_attr(&self, body: &Body) -> Option<&'static str> {
        let s = body.locals.first()?.as_ref()?.span.as_ref()?;
        self.spans.user_path(&s.file)?;
        let text = self.signature_source(body, 12)?;
        let name = body.path.last_name();
        let at = text.rfind(&format!("fn {name}"))?;
        // the attributes between the previous item's end and this `fn`
        let before = &text[..at];
        let attrs = &before[before.rfind(['}', ';']).map_or(0, |k| k + 1)..];
        let attrs: String = attrs.chars().filter(|c| !c.is_whitespace()).collect();
        if attrs.contains("#[inline(never)]") {
            Some("never")
        } else if attrs.contains("#[inline(always)]") {
            Some("always")
        } else {
            None
        }
    }

    /// A PTX-safe, crate-qualified symbol for a device function or constant.
    pub(super) fn symbol(&self, name: &str) -> String {
        let mut s = format!("{}__", self.input.crate_name);
        for c in name.chars() {
            s.push(if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' });
        }
        s
    }

    fn locals_json(&mut self, body: &'a Body) -> DResult<Vec<Json>> {
        let mut out = Vec::new();
        for (n, decl) in body.locals.iter().enumerate() {
            let decl = decl.as_ref().ok_or_else(|| Diag::new(Code::Export, format!("`{}`: local _{n} is not declared", body.name)))?;
            let ctx = Ctx { body, scope: decl.scope, span: decl.span.as_ref(), const_comments: &[] };
            if let Some(span) = &decl.span {
                self.learn_library_locals_at(&decl.ty, span);
            }
            let ty = self.ty(&decl.ty, ctx)?;
            // a library closure no aggregate here builds (a zero-sized
            // local only projected): its captures from its parent's body
            if let Ty::Closure(cl) = &decl.ty {
                self.note_closure_captures(ty, cl, false, ctx)?;
            }
            let name = body.debug_names.iter().find(|(_, l)| *l as usize == n).map(|(s, _)| s.as_str());
            let span = self.span_json(ctx);
            out.push(obj!["ty" => ty, "mutable" => decl.mutable, "name" => name, "span" => span]);
        }
        Ok(out)
    }

    fn block_json(&mut self, body: &'a Body, b: &'a Block) -> DResult<Json> {
        let mut stmts = Vec::new();
        for s in &b.statements {
            let ctx = Ctx { body, scope: s.scope, span: s.span.as_ref(), const_comments: &s.const_comments };
            let mut j = self.statement_json(&s.kind, ctx)?;
            j.push("span", self.span_json(ctx));
            stmts.push(j);
        }
        let t = &b.terminator;
        let ctx = Ctx { body, scope: t.scope, span: t.span.as_ref(), const_comments: &t.const_comments };
        // `Location::caller()`: the constant location (caller.rs)
        if let TerminatorKind::Call { dest, callee: Callee::Path(path), args, target: Some(target) } = &t.kind {
            if args.is_empty() && matches!(path.bare().as_str(), "caller_location" | "core::intrinsics::caller_location") {
                let (stmt, term) = self.caller_location_json(dest, *target, ctx)?;
                stmts.push(stmt);
                return Ok(obj!["statements" => stmts, "terminator" => term, "cleanup" => b.cleanup]);
            }
        }
        // A core trait method on a primitive (in a generic instance) is one
        // assignment, then the call's return edge.
        if let TerminatorKind::Call { dest, callee: Callee::Path(path), args, target: Some(target) } = &t.kind {
            // so is a `Fn*` call of such a method as a fn item (core's
            // `sort_unstable` sorts with `&mut T::lt`)
            let item = self.fn_item_op_call(path, args, ctx)?;
            let (path, args) = item.as_ref().map_or((path, args.as_slice()), |(p, a)| (p, a.as_slice()));
            if let Some(rv) = self.prim_op_rvalue(path, args, ctx)? {
                let mut j = self.statement_json(&StatementKind::Assign(dest.clone(), rv), ctx)?;
                j.push("span", self.span_json(ctx));
                stmts.push(j);
                let mut term = self.terminator_json(&TerminatorKind::Goto(*target), ctx)?;
                term.push("span", self.span_json(ctx));
                return Ok(obj!["statements" => stmts, "terminator" => term, "cleanup" => b.cleanup]);
            }
        }
        let mut term = self.terminator_json(&t.kind, ctx)?;
        term.push("span", self.span_json(ctx));
        Ok(obj!["statements" => stmts, "terminator" => term, "cleanup" => b.cleanup])
    }

    pub(super) fn span_json(&mut self, ctx: Ctx) -> Json {
        let resolved = self.spans.resolve(ctx.body, ctx.scope, ctx.span);
        self.spans.intern(resolved.as_ref())
    }

    pub(super) fn err(&self, ctx: Ctx, code: Code, msg: impl Into<String>) -> Diag {
        let mut msg = msg.into();
        // a projection the message names that assoc.rs could not normalize
        let mut unread: Vec<(&String, &String)> = self.unread_projections.iter().filter(|(p, _)| msg.contains(p.as_str())).collect();
        unread.sort();
        if let Some((p, why)) = unread.first() {
            msg.push_str(&format!("; `{p}` is not normalized: {why}"));
        }
        Diag::at(self.loc(ctx.body, ctx.scope, ctx.span), code, msg)
    }

    /// Interns a type, rejecting those oxidec cannot represent.
    pub(super) fn ty(&mut self, ty: &Ty, ctx: Ctx) -> DResult<usize> {
        if let Some(why) = self.unsupported_ty(ty) {
            return Err(self.err(ctx, Code::Unsupported, why));
        }
        Ok(self.types.intern(ty))
    }

    fn unsupported_ty(&self, ty: &Ty) -> Option<String> {
        match ty {
            // `&dyn Trait` values are fat pointers to vtables (dyncall.rs).
            // core::fmt's formatter pointers only reach a panic (which
            // traps): kept as opaque values, never called.
            // Function pointers are values like any other (a casted fn
            // item's address, called indirectly: fn_pointer_json).
            Ty::Adt(p) if self.is_type_param(p) => Some(format!(
                "generic type parameter `{p}`: this body is printed generically by rustc; \
                 make the function `#[inline(always)]` or non-generic"
            )),
            Ty::Adt(p) => self.unsupported_local_struct(p).or_else(|| {
                p.type_args().find_map(|a| match a {
                    GenericArg::Type(t) => self.unsupported_ty(t),
                    _ => None,
                })
            }),
            Ty::Tuple(v) => v.iter().find_map(|t| self.unsupported_ty(t)),
            Ty::Array(t, _) | Ty::Slice(t) | Ty::Ref { pointee: t, .. } | Ty::Ptr { pointee: t, .. } => {
                self.unsupported_ty(t)
            }
            _ => None,
        }
    }

    /// A type declared inside a generic function (`retain`'s
    /// `BackshiftOnDrop`, `Path::declared_in_generic`) is laid out as a
    /// tuple struct of its field types declared by the probe (mod.rs
    /// `fill_layouts`), which is rustc's layout only for a plain sized
    /// struct: why not, when its declaration is not a struct without
    /// `#[repr(..)]` and without a `?Sized` parameter (a tail that may be
    /// unsized is never moved).
    fn unsupported_local_struct(&self, p: &Path) -> Option<String> {
        if !p.declared_in_generic() {
            return None;
        }
        self.learn_library_local(p);
        let cannot = format!("`{p}` is declared inside a generic function, where rustc cannot be asked its layout");
        match self.input.adts.lookup(&p.bare()) {
            Err(e) => Some(format!("{cannot}: {e}")),
            Ok(None) => Some(format!("{cannot}, and its declaration was not found in the sources")),
            Ok(Some(d)) if d.kind != AdtKind::Struct => {
                Some(format!("{cannot}: it is {} {}, not laid out like a struct of its fields", if d.kind == AdtKind::Enum { "an" } else { "a" }, d.kind.as_str()))
            }
            Ok(Some(d)) if d.repr => Some(format!("{cannot}: it has `#[repr(..)]`, not rustc's default layout")),
            Ok(Some(d)) if d.maybe_unsized => {
                Some(format!("{cannot}: a `?Sized` parameter may make its last field unsized, which rustc lays out apart"))
            }
            Ok(Some(_)) => None,
        }
    }

    /// A one-segment type path that no declaration in the crate matches is
    /// a generic parameter (local types print as `Name` at the crate root).
    fn is_type_param(&self, p: &Path) -> bool {
        p.qself.is_none()
            && p.segments.len() == 1
            && p.segments[0].args.is_empty()
            && !p.segments[0].name.starts_with('<')
            && matches!(self.input.adts.lookup(&p.segments[0].name), Ok(None))
    }

    // ---- places ------------------------------------------------------------

    /// The place and its type; field projections teach the type table the
    /// field types of ADTs.
    pub(super) fn place_json(&mut self, p: &Place, ctx: Ctx) -> DResult<(Json, Ty)> {
        let decl = ctx.body.locals.get(p.local as usize).and_then(|d| d.as_ref());
        let mut ty = decl.ok_or_else(|| self.err(ctx, Code::Export, format!("use of undeclared local _{}", p.local)))?.ty.clone();
        let mut variant = 0u32;
        let mut projs = Vec::new();
        for proj in &p.proj {
            let (j, next) = self.proj_json(proj, &ty, &mut variant, ctx)?;
            projs.push(j);
            ty = next;
        }
        Ok((obj!["local" => p.local, "projection" => projs], ty))
    }

    fn proj_json(&mut self, proj: &Proj, base: &Ty, variant: &mut u32, ctx: Ctx) -> DResult<(Json, Ty)> {
        let bad = |what: &str| format!("cannot apply {what} to a value of type `{base}`");
        Ok(match proj {
            Proj::Deref => {
                let t = base.pointee().ok_or_else(|| self.err(ctx, Code::Export, bad("`*`")))?.clone();
                (obj!["kind" => "deref"], t)
            }
            Proj::Field(f, t) => {
                let ti = self.ty(t, ctx)?;
                if matches!(base, Ty::Adt(_)) {
                    let adt = self.ty(base, ctx)?;
                    self.types.note_field(adt, *variant, *f, ti);
                }
                *variant = 0;
                (obj!["kind" => "field", "index" => *f, "ty" => ti], t.clone())
            }
            Proj::Index(l) => {
                let t = base.elem().ok_or_else(|| self.err(ctx, Code::Export, bad("indexing")))?.clone();
                (obj!["kind" => "index", "local" => *l], t)
            }
            Proj::ConstIndex { offset, min_length, from_end } => {
                let t = base.elem().ok_or_else(|| self.err(ctx, Code::Export, bad("indexing")))?.clone();
                let j = obj![
                    "kind" => "constant_index",
                    "offset" => offset.to_string(),
                    "min_length" => min_length.to_string(),
                    "from_end" => *from_end,
                ];
                (j, t)
            }
            Proj::Subslice { from, to, from_end } => {
                let mut j = obj!["kind" => "subslice", "from" => from.to_string(), "to" => to.to_string(), "from_end" => *from_end];
                // of an array: the array `[T; to - from]` (rustc counts
                // `to` from the start there)
                let ty = match base {
                    Ty::Array(t, n) => {
                        let n: u64 = n.trim_end_matches("_usize").parse().map_err(|_| self.err(ctx, Code::Unsupported, bad("a subslice pattern")))?;
                        let len = if *from_end { n.checked_sub(from + to) } else { to.checked_sub(*from) };
                        let len = len.ok_or_else(|| self.err(ctx, Code::Export, bad(&format!("subslice {from}..{to}"))))?;
                        let arr = Ty::Array(t.clone(), len.to_string());
                        j.push("ty", self.ty(&arr, ctx)?);
                        arr
                    }
                    _ => base.clone(),
                };
                (j, ty)
            }
            Proj::Downcast(name) => {
                *variant = self.variant_of(base, name, ctx)?;
                (obj!["kind" => "downcast", "variant" => *variant, "name" => name.as_str()], base.clone())
            }
        })
    }

    /// Declaration index of variant `name` of enum type `ty`.
    pub(super) fn variant_of(&mut self, ty: &Ty, name: &str, ctx: Ctx) -> DResult<u32> {
        self.ty(ty, ctx)?;
        let Ty::Adt(p) = ty else { return Err(self.err(ctx, Code::Export, format!("`{ty}` has no variants"))) };
        let decl = self.input.adts.lookup(&p.bare()).map_err(|m| self.err(ctx, Code::Unsupported, m))?;
        match decl {
            Some(d) if d.kind == AdtKind::Enum => d.variants.iter().position(|v| v == name).map(|i| i as u32).ok_or_else(|| {
                self.err(ctx, Code::Export, format!("enum `{}` has no variant `{name}` in its declaration", p.bare()))
            }),
            Some(_) => Ok(0),
            // A struct literal names the struct itself.
            None if p.last_name() == name => Ok(0),
            // an enum of core or alloc (`core::fmt::Alignment` in
            // Formatter's bodies): its declaration in their sources
            None if let Some(d) = self.sysroot_enum(&p.bare()) => d.variants.iter().position(|v| v == name).map(|i| i as u32).ok_or_else(|| {
                self.err(ctx, Code::Export, format!("enum `{}` has no variant `{name}` in its declaration", p.bare()))
            }),
            None => Err(self.err(
                ctx, Code::Export,
                format!(
                    "cannot tell the declaration order of the variants of `{ty}` (needed for `{name}`): \
                     its declaration is neither in the crate's sources nor in mir-export's table of core enums"
                ),
            )),
        }
    }

    // ---- operands ------------------------------------------------------------

    pub(super) fn operand_json(&mut self, op: &Operand, ctx: Ctx) -> DResult<Json> {
        match op {
            Operand::Copy(p) => Ok(obj!["kind" => "copy", "place" => self.place_json(p, ctx)?.0]),
            Operand::Move(p) => Ok(obj!["kind" => "move", "place" => self.place_json(p, ctx)?.0]),
            Operand::Const(c) => {
                // an inline `const` of a generic body: its instance first
                // (the constant's type is its body's); TypeId::of's and
                // type_name's are rustc's answers instead (reflect.rs)
                if let ConstVal::Path { path, fields } = &c.val {
                    let generic = super::inline_const::is_generic_inline_const(path);
                    if fields.is_empty() && generic && super::consts::reflect_const(path).is_none() {
                        self.inline_const_instance(path, ctx)?;
                    }
                }
                self.import_library_assoc_const(c, ctx)?;
                self.library_promoted(c, ctx)?;
                let ty = self.const_ty(c, ctx)?;
                let ti = self.ty(&ty, ctx)?;
                if let (ConstVal::ZeroSized, Ty::Closure(cl)) = (&c.val, &ty) {
                    self.note_closure_captures(ti, cl, true, ctx)?;
                }
                let value = self.const_json(c, &ty, ctx)?;
                let span = self.span_json(ctx);
                Ok(obj!["kind" => "constant", "ty" => ti, "const" => value, "span" => span])
            }
        }
    }

    pub(super) fn operands_json(&mut self, ops: &[Operand], ctx: Ctx) -> DResult<Vec<Json>> {
        ops.iter().map(|o| self.operand_json(o, ctx)).collect()
    }

    // ---- statements ----------------------------------------------------------

    fn statement_json(&mut self, s: &StatementKind, ctx: Ctx) -> DResult<Json> {
        Ok(match s {
            StatementKind::Assign(place, rv) => {
                let (pj, pty) = self.place_json(place, ctx)?;
                obj!["kind" => "assign", "place" => pj, "rvalue" => self.rvalue_json(rv, &pty, ctx)?]
            }
            StatementKind::SetDiscriminant(place, v) => {
                obj!["kind" => "set_discriminant", "place" => self.place_json(place, ctx)?.0, "variant" => *v]
            }
            StatementKind::Assume(op) => obj!["kind" => "assume", "operand" => self.operand_json(op, ctx)?],
            StatementKind::CopyNonOverlapping { src, dst, count } => obj![
                "kind" => "copy_nonoverlapping",
                "src" => self.operand_json(src, ctx)?,
                "dst" => self.operand_json(dst, ctx)?,
                "count" => self.operand_json(count, ctx)?,
            ],
            StatementKind::Ignored => unreachable!("ignored statements are dropped by the parser"),
        })
    }

    /// `dest_ty` is the type of the assigned place: the result type.
    fn rvalue_json(&mut self, rv: &Rvalue, dest_ty: &Ty, ctx: Ctx) -> DResult<Json> {
        Ok(match rv {
            Rvalue::Use(op) => obj!["kind" => "use", "operand" => self.operand_json(op, ctx)?],
            Rvalue::Repeat(op, n) => obj!["kind" => "repeat", "operand" => self.operand_json(op, ctx)?, "count" => n.as_str()],
            Rvalue::Ref { mutable, place } => {
                obj!["kind" => "ref", "mutable" => *mutable, "place" => self.place_json(place, ctx)?.0]
            }
            Rvalue::RawPtr { mutable, place } => {
                obj!["kind" => "raw_ptr", "mutable" => *mutable, "place" => self.place_json(place, ctx)?.0]
            }
            // A formatting function made a pointer for core::fmt::Arguments
            // (`panic!("{}", x)`, `write!`). When the arguments can only
            // reach a panic, which traps without formatting, the pointer is
            // never called and need not exist; it becomes null. That holds
            // without core's own MIR (core::fmt::write and Formatter's
            // methods are core's bodies, refused without it), and in a body
            // whose every call taking an `Arguments` is a panic entry.
            // Otherwise (`write!` into a `core::fmt::Write`) the pointer is
            // the real function (the arm below).
            Rvalue::Cast { kind, operand: Operand::Const(_), ty }
                if kind.starts_with("PointerCoercion(ReifyFnPointer")
                    && matches!(ty, Ty::FnPtr(f) if f.contains("core::fmt::Formatter"))
                    && (!self.has_core_bodies() || !formats_beyond_panics(ctx.body)) =>
            {
                let ti = self.ty(ty, ctx)?;
                obj!["kind" => "use", "operand" => obj![
                    "kind" => "constant",
                    "ty" => ti,
                    "const" => obj!["kind" => "scalar", "bits" => "0x0000000000000000"],
                    "span" => self.span_json(ctx),
                ]]
            }
            Rvalue::Cast { kind, operand, ty }
                if kind.starts_with("PointerCoercion(ReifyFnPointer") || kind.starts_with("PointerCoercion(ClosureFnPointer") =>
            {
                obj![
                    "kind" => "cast",
                    "cast" => kind.as_str(),
                    "operand" => self.fn_pointer_json(kind, operand, ty, ctx)?,
                    "ty" => self.ty(ty, ctx)?,
                ]
            }
            Rvalue::Cast { kind, operand, ty } if Self::is_dyn_coercion(kind, ty) => {
                if let Some(from) = self.upcast_source(operand, ctx)? {
                    return self.upcast_json(&from, operand, ty, ctx);
                }
                let vt = self.coercion_vtable(operand, ty, ctx)?;
                obj![
                    "kind" => "cast",
                    "cast" => kind.as_str(),
                    "operand" => self.operand_json(operand, ctx)?,
                    "ty" => self.ty(ty, ctx)?,
                    "vtable" => vt,
                ]
            }
            Rvalue::Cast { kind, operand, ty } => obj![
                "kind" => "cast",
                "cast" => kind.as_str(),
                "operand" => self.operand_json(operand, ctx)?,
                "ty" => self.ty(ty, ctx)?,
            ],
            Rvalue::Binary { op, lhs, rhs } => obj![
                "kind" => "binary",
                "op" => op.as_str(),
                "lhs" => self.operand_json(lhs, ctx)?,
                "rhs" => self.operand_json(rhs, ctx)?,
            ],
            Rvalue::Unary { op, operand } => {
                obj!["kind" => "unary", "op" => op.as_str(), "operand" => self.operand_json(operand, ctx)?]
            }
            Rvalue::Nullary { op, ty } => obj!["kind" => "nullary", "op" => op.as_str(), "ty" => self.ty(ty, ctx)?],
            Rvalue::Discriminant(p) => obj!["kind" => "discriminant", "place" => self.place_json(p, ctx)?.0],
            Rvalue::CopyForDeref(p) => obj!["kind" => "copy_for_deref", "place" => self.place_json(p, ctx)?.0],
            Rvalue::Aggregate { kind, fields } => self.aggregate_json(kind, fields, dest_ty, ctx)?,
        })
    }

    /// Records the field types of `ty`, struct `p` declared inside a
    /// generic function, from the operands of the aggregate that builds it
    /// (`BackshiftOnDrop::<'_, u32, 16> { v: copy _30, processed_len: const
    /// 0_usize, .. }`: `&mut ArrayVec<u32, 16>`, `usize`, ..). An error when
    /// they are not as many as the declaration's fields.
    fn note_local_fields(&mut self, ty: usize, p: &Path, fields: &[Operand], ctx: Ctx) -> DResult<()> {
        let declared = match self.input.adts.lookup(&p.bare()) {
            Ok(Some(d)) => d.fields.len(),
            _ => return Ok(()), // refused by unsupported_local_struct
        };
        if fields.len() != declared {
            return Err(self.err(ctx, Code::Unsupported, format!(
                "`{p}` is declared inside a generic function with {declared} fields, but built from {}: \
                 its layout cannot be known", fields.len()
            )));
        }
        let mut tys = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let t = self.operand_ty(f, ctx)?;
            let t = self.ty(&t, ctx)?;
            self.types.note_field(ty, 0, i as u32, t);
            tys.push(t);
        }
        self.types.entries[ty].local_fields = Some(tys);
        Ok(())
    }

    /// The type of an operand.
    pub(super) fn operand_ty(&mut self, op: &Operand, ctx: Ctx) -> DResult<Ty> {
        match op {
            Operand::Copy(p) | Operand::Move(p) => Ok(self.place_json(p, ctx)?.1),
            Operand::Const(c) => {
                self.import_library_assoc_const(c, ctx)?;
                self.library_promoted(c, ctx)?;
                self.const_ty(c, ctx)
            }
        }
    }

    /// A library method's (or generic function's) promoted that constant
    /// `c` names, made a body of the export first (promoteds.rs), so that
    /// its type is known.
    fn library_promoted(&mut self, c: &Const, ctx: Ctx) -> DResult<()> {
        match &c.val {
            ConstVal::Path { path, fields } if fields.is_empty() && path.qself.is_some() => self.method_promoted(path, ctx),
            ConstVal::Path { path, fields } if fields.is_empty() => self.instance_promoted(path, ctx),
            _ => Ok(()),
        }
    }

    fn aggregate_json(&mut self, kind: &AggregateKind, fields: &[Operand], dest_ty: &Ty, ctx: Ctx) -> DResult<Json> {
        let ty = self.ty(dest_ty, ctx)?;
        // a closure value: its captures are its fields, laid out as a
        // struct of them (mod.rs fill_layouts)
        if matches!(kind, AggregateKind::Closure(_)) && self.types.get(ty).upvars.is_none() {
            let mut ups = Vec::new();
            for f in fields {
                let t = self.operand_ty(f, ctx)?;
                ups.push(self.ty(&t, ctx)?);
            }
            self.types.entries[ty].upvars = Some(ups);
        }
        // a struct declared inside a generic function: its operands are its
        // fields in declaration order (rustc prints `S { a: .., b: .. }` by
        // field index), laid out as a struct of them (mod.rs fill_layouts)
        if let (AggregateKind::Adt(_), Ty::Adt(p)) = (kind, dest_ty) {
            if p.declared_in_generic() && self.types.get(ty).local_fields.is_none() {
                self.note_local_fields(ty, p, fields, ctx)?;
            }
        }
        let fields = self.operands_json(fields, ctx)?;
        let mut j = obj!["kind" => "aggregate"];
        match kind {
            AggregateKind::Tuple => j.push("aggregate", "tuple"),
            AggregateKind::Array => j.push("aggregate", "array"),
            AggregateKind::Closure(_) => j.push("aggregate", "closure"),
            AggregateKind::RawPtr(_) => j.push("aggregate", "raw_ptr"),
            AggregateKind::Adt(path) => {
                j.push("aggregate", "adt");
                let variant = self.variant_of(dest_ty, path.last_name(), ctx)?;
                j.push("variant", variant);
            }
        }
        j.push("ty", ty);
        j.push("fields", fields);
        Ok(j)
    }

    // ---- terminators -----------------------------------------------------------

    pub(super) fn terminator_json(&mut self, t: &TerminatorKind, ctx: Ctx) -> DResult<Json> {
        Ok(match t {
            TerminatorKind::Goto(bb) => obj!["kind" => "goto", "target" => *bb],
            TerminatorKind::SwitchInt { discr, targets, otherwise } => {
                let arms: Vec<Json> =
                    targets.iter().map(|(v, bb)| obj!["value" => v.to_string(), "target" => *bb]).collect();
                obj!["kind" => "switch_int", "discr" => self.operand_json(discr, ctx)?, "targets" => arms, "otherwise" => *otherwise]
            }
            TerminatorKind::Return => obj!["kind" => "return"],
            TerminatorKind::Unreachable => obj!["kind" => "unreachable"],
            TerminatorKind::UnwindResume => obj!["kind" => "unwind_resume"],
            TerminatorKind::UnwindTerminate => obj!["kind" => "unwind_terminate"],
            TerminatorKind::Call { dest, callee, args, target } => self.call_json(dest, callee, args, *target, ctx)?,
            TerminatorKind::Assert { cond, expected, msg, target, .. } => obj![
                "kind" => "assert",
                "cond" => self.operand_json(cond, ctx)?,
                "expected" => *expected,
                "msg" => assert_kind(msg),
                "text" => msg.as_str(),
                "target" => *target,
            ],
            TerminatorKind::Drop { place, target } => {
                obj!["kind" => "drop", "place" => self.place_json(place, ctx)?.0, "target" => *target]
            }
            TerminatorKind::InlineAsm { .. } => return Err(self.inline_asm_error(ctx)),
        })
    }

    /// `asm!` in the kernel crate or inlined from a dependency: refused,
    /// naming the crate it is written in and its line there (the error's
    /// location is the user's line that reaches it).
    fn inline_asm_error(&self, ctx: Ctx) -> Diag {
        let at = match ctx.span {
            Some(s) => match self.crate_of_file(&s.file) {
                Some(c) => format!("in crate `{c}`, at {s}"),
                None if self.spans.user_path(&s.file).is_some() => format!("in crate `{}`", self.input.crate_name),
                None => format!("in a dependency, at {s}"),
            },
            None => format!("in `{}`", ctx.body.name),
        };
        self.err(ctx, Code::Unsupported, format!(
            "inline assembly (`asm!`, {at}) is not supported: kernels are compiled from MIR, and an `asm!` \
             block is assembly for the host CPU that rustc compiled the crate for; use oxide-device's \
             primitives, or a `cfg` that leaves the `asm!` out"
        ))
    }

    /// The dependency whose sources hold `file` (a path component that is
    /// the crate's name, `-` for `_`, maybe with a version: `crc32fast-1.4.2`).
    fn crate_of_file(&self, file: &str) -> Option<String> {
        let parts: Vec<String> = file.split('/').map(|c| c.replace('-', "_")).collect();
        let named = |c: &String| {
            parts.iter().any(|p| p == c || p.strip_prefix(c.as_str()).is_some_and(|v| v.starts_with('_') && v[1..].starts_with(|d: char| d.is_ascii_digit())))
        };
        self.input.extern_crates.iter().find(|c| named(c)).cloned()
    }

    /// `<&mut fn(&u32, &u32) -> bool {<u32 as PartialOrd>::lt} as
    /// FnMut<(&u32, &u32)>>::call_mut(f, (a, b))`: when the fn item is a
    /// MIR operation (`PrimOp`), its path and the arguments spread from
    /// the tuple; else None.
    fn fn_item_op_call(&mut self, path: &Path, args: &[Operand], ctx: Ctx) -> DResult<Option<(Path, Vec<Operand>)>> {
        let Some(fn_self) = super::callee::fn_trait_call(path).and(path.qself.as_ref()).map(|q| (*q.self_ty).clone()) else {
            return Ok(None);
        };
        let Some(Ty::FnDef { path: item, .. }) = super::callee::fn_item_behind_refs(&fn_self) else { return Ok(None) };
        if super::callee::prim_op(item).is_none() {
            return Ok(None);
        }
        let item = item.clone();
        Ok(Some((item, self.spread_fn_call_args(&fn_self, args, ctx)?)))
    }

    /// The rvalue of a call that `CalleeResolver` maps to a MIR operation
    /// (`PrimOp`), or None for other calls.
    fn prim_op_rvalue(&self, path: &Path, args: &[Operand], ctx: Ctx) -> DResult<Option<Rvalue>> {
        let Some(op) = super::callee::prim_op(path) else { return Ok(None) };
        let deref = |a: &Operand| match a {
            Operand::Copy(p) | Operand::Move(p) => {
                let mut p = p.clone();
                p.proj.push(Proj::Deref);
                Ok(Operand::Copy(p))
            }
            Operand::Const(c) => Err(self.err(ctx, Code::Unsupported, format!("`{path}` of the constant reference `{}` is not supported", c.text))),
        };
        let arg = |k: usize| args.get(k).cloned().ok_or_else(|| self.err(ctx, Code::Export, format!("`{path}` has too few arguments")));
        Ok(Some(match op {
            PrimOp::Binary(o) => Rvalue::Binary { op: o.to_string(), lhs: arg(0)?, rhs: arg(1)? },
            PrimOp::Unary(o) => Rvalue::Unary { op: o.to_string(), operand: arg(0)? },
            PrimOp::Compare(o) => Rvalue::Binary { op: o.to_string(), lhs: deref(&arg(0)?)?, rhs: deref(&arg(1)?)? },
            PrimOp::CopyDeref => Rvalue::Use(deref(&arg(0)?)?),
            PrimOp::Cast("Transmute") => Rvalue::Use(arg(0)?),
            PrimOp::Cast(kind) => {
                let ty = match path.last_name() {
                    // <A as Into<B>>::into -> B; <B as From<A>>::from -> B
                    "into" => path.qself.as_ref().and_then(|q| q.trait_.as_ref()).and_then(|t| {
                        t.all_args().find_map(|a| match a {
                            GenericArg::Type(t) => Some(t.clone()),
                            _ => None,
                        })
                    }),
                    _ => path.qself.as_ref().map(|q| (*q.self_ty).clone()),
                };
                let ty = ty.ok_or_else(|| self.err(ctx, Code::Export, format!("no target type in `{path}`")))?;
                Rvalue::Cast { kind: kind.to_string(), operand: arg(0)?, ty }
            }
        }))
    }

    /// The monomorphic instance of generic function `generic` that `path`
    /// calls (`rotate_mix::<u8>`), made once (mono.rs); its name.
    fn instance(&mut self, generic: &str, path: &Path, ctx: Ctx) -> DResult<String> {
        let inst = path.to_string();
        if self.bodies.contains_key(inst.as_str()) {
            return Ok(inst);
        }
        let fail = |why: String| {
            format!(
                "call to the generic function `{inst}` was not inlined, and its instance could not be made \
                 ({why}); mark it `#[inline(always)]` or make it non-generic"
            )
        };
        let g = self.bodies.get(generic).copied().ok_or_else(|| self.err(ctx, Code::Unsupported, fail("no generic body".into())))?;
        let signature =
            self.signature_source(g, 8).ok_or_else(|| self.err(ctx, Code::Unsupported, fail("its source is not readable".into())))?;
        let name = generic.rsplit("::").next().unwrap_or(generic);
        // rustc's generic arguments: the declared parameters, then one per
        // argument-position `impl Trait`, in the order of the arguments
        let impls = impl_trait_params(g);
        let mut params = match mono::generic_params(&signature, name) {
            Some(p) => p,
            None if !impls.is_empty() => Vec::new(),
            None => return Err(self.err(ctx, Code::Unsupported, fail(format!("no generic parameter list after `fn {name}` in its source")))),
        };
        if impls.iter().enumerate().any(|(k, t)| impls[..k].contains(t)) {
            return Err(self.err(ctx, Code::Unsupported, fail("two of its `impl Trait` arguments print alike".into())));
        }
        params.extend(impls);
        let lib_text = match self.library_bodies.contains_key(generic) {
            true => self.input.library.for_path(generic).and_then(|(l, name)| l.ok()?.body_text(name)),
            false => None,
        };
        let text = lib_text.as_deref().unwrap_or(self.input.mir_text);
        // a library body found under another path (a re-export, a trait's
        // visible path) is named by its own in its text
        let own_name = lib_text.as_deref().and_then(text_fn_name);
        let mut text = mono::substitute(text, own_name.as_deref().unwrap_or(generic), &params, &mono::fn_call_args(path))
            .map_err(|m| self.err(ctx, Code::Unsupported, fail(m)))?;
        // the closures a library body builds, named after the instance
        // (`partition_at_index_loop`'s `|a, b| !is_less(b, a)`)
        if lib_text.is_some() {
            text = super::spanclosures::rename_span_closures(&text, &inst);
        }
        let mut body = mono::parse_instance(&text, &inst).map_err(|m| self.err(ctx, Code::Unsupported, fail(m)))?;
        if lib_text.is_some() {
            crate::library::fold_runtime_checks(&mut body);
            let caller = self.loc(ctx.body, ctx.scope, ctx.span);
            self.library_bodies.entry(inst.clone()).or_insert(caller);
        }
        let body: &'a Body = Box::leak(Box::new(body));
        let key: &'a str = Box::leak(inst.clone().into_boxed_str());
        self.bodies.insert(key, body);
        Ok(inst)
    }

    /// The operand of a cast to a function pointer: the fn item or
    /// closure as a `fn` constant naming the body whose address it is
    /// (exported even when every direct call was inlined). A closure is
    /// called with its environment first: its pointer is a shim's.
    fn fn_pointer_json(&mut self, kind: &str, operand: &Operand, fn_ty: &Ty, ctx: Ctx) -> DResult<Json> {
        let Operand::Const(c) = operand else {
            return Err(self.err(ctx, Code::Unsupported, format!("`{kind}` of a local is not supported (only of a function item or closure constant)")));
        };
        // `double as fn(u32) -> u32` prints the fn item without `const`
        // and without its type
        let ty = match (&c.ty, &c.val) {
            (None, ConstVal::Path { path, fields }) if fields.is_empty() => Ty::FnDef { sig: fn_ty.to_string(), path: path.clone() },
            _ => self.const_ty(c, ctx)?,
        };
        let name = match &ty {
            Ty::FnDef { path, .. } => self.fn_item_body(path, ctx)?,
            Ty::Closure(cl) => {
                let ti = self.ty(&ty, ctx)?;
                if self.types.get(ti).upvars.is_none() {
                    self.types.entries[ti].upvars = Some(Vec::new());   // coerces to `fn`: captures nothing
                }
                let body = self.callees.closure_body(cl).map(str::to_string);
                let body = body.ok_or_else(|| self.err(ctx, Code::Unsupported, format!("the closure `{cl}` has no body in rustc's MIR")))?;
                self.closure_shim(&body, ctx)?
            }
            _ => return Err(self.err(ctx, Code::Export, format!("`{kind}` of a `{ty}`"))),
        };
        self.enqueue(&name);
        let symbol = self.symbol_for(&name);
        Ok(obj![
            "kind" => "constant",
            "ty" => self.ty(&ty, ctx)?,
            "const" => obj!["kind" => "fn", "function" => name, "symbol" => symbol],
            "span" => self.span_json(ctx),
        ])
    }

    /// The declaration of an enum of core or alloc in their sources,
    /// when their MIR is there (a rustc with its library sources).
    pub(super) fn sysroot_enum(&self, path: &str) -> Option<crate::adts::AdtDecl> {
        let lazy = match path.split("::").next()? {
            "core" => &self.input.library.core,
            "alloc" => &self.input.library.alloc,
            _ => return None,
        };
        lazy.get().ok()?.enum_decl(path)
    }

    /// Whether core's own MIR is there to take bodies from (a rustc with
    /// its library sources: docs/DESIGN.md, "Library bodies").
    fn has_core_bodies(&self) -> bool {
        self.input.library.core.get().is_ok()
    }

    /// The body a function item names: a function of this crate, a trait
    /// method's impl, a monomorphic instance of a generic function.
    pub(super) fn fn_item_body(&mut self, path: &Path, ctx: Ctx) -> DResult<String> {
        let bodies = &self.bodies;
        let has_body = |n: &str| bodies.get(n).is_some_and(|b| b.kind == BodyKind::Fn);
        // a function of core or a dependency (core's `inst_partition`
        // returns `partition_lomuto_branchless_cyclic::<T, F>` as a `fn`):
        // its body from that crate's MIR, as for a call
        let resolved = match self.callees.resolve(path, false, &has_body) {
            Ok(r) => r,
            Err(failed) => self.library_callee(path, &[], false, failed, ctx)?,
        };
        match resolved {
            Resolved::Function(name) => Ok(name),
            Resolved::Instance { generic } => self.instance(&generic, path, ctx),
            _ => Err(self.err(ctx, Code::Unsupported, format!(
                "a function pointer to `{path}` is not supported: it is a GPU primitive, intrinsic or core \
                 function without a body; wrap it in a function of the crate"
            ))),
        }
    }

    fn call_json(&mut self, dest: &Place, callee: &Callee, args: &[Operand], target: Option<u32>, ctx: Ctx) -> DResult<Json> {
        let path = match callee {
            Callee::Path(path) => path,
            Callee::Operand(f) => return self.call_pointer_json(dest, f, args, target, ctx),
        };
        if let Some(Ty::Dyn(d)) = path.qself.as_ref().map(|q| &*q.self_ty) {
            return self.virtual_call_json(dest, path, &d.clone(), args, target, ctx);
        }
        // `<fn(u32) -> u32 as Fn<(u32,)>>::call(&f, (x,))`: a call through
        // the pointer `f` (by reference for call / call_mut)
        if let (Some(()), Some(Ty::FnPtr(_))) = (super::callee::fn_trait_call(path), path.qself.as_ref().map(|q| &*q.self_ty)) {
            let f = match args.first() {
                Some(Operand::Copy(p) | Operand::Move(p)) => {
                    let mut p = p.clone();
                    if matches!(self.place_json(&p, ctx)?.1, Ty::Ref { .. }) {
                        p.proj.push(Proj::Deref);
                    }
                    Operand::Copy(p)
                }
                _ => return Err(self.err(ctx, Code::Unsupported, format!("`{path}` of a constant"))),
            };
            let fty = path.qself.as_ref().map(|q| (*q.self_ty).clone()).expect("matched above");
            let spread = self.spread_fn_call_args(&fty, args, ctx)?;
            return self.call_pointer_json(dest, &f, &spread, target, ctx);
        }
        // the self type of a `Fn*` call (`<F as FnMut<(A,)>>::call_mut`),
        // whose arguments are the callee, then the tuple of the real ones
        let mut fn_self = super::callee::fn_trait_call(path).and(path.qself.as_ref()).map(|q| (*q.self_ty).clone());
        // `<&mut {closure} as FnMut<..>>::call_mut` (core's `impl FnMut
        // for &mut F`, which calls `F`): a call of the closure itself
        let by_ref = match fn_self.as_ref().and_then(super::callee::closure_behind_refs) {
            Some(c) => Some(self.closure_through_refs(path, c, args, ctx)?),
            None => None,
        };
        let (path, args) = match &by_ref {
            Some((p, a)) => {
                fn_self = p.qself.as_ref().map(|q| (*q.self_ty).clone());
                (p, a.as_slice())
            }
            None => (path, args),
        };
        let mut call_args = match &fn_self {
            Some(t) => self.spread_fn_call_args(t, args, ctx)?,
            None => args.to_vec(),
        };
        // `<&mut fn(..) {compare::<&u64, u64>} as FnOnce<..>>::call_once`
        // (core's `impl FnOnce for &mut F`): a call of the fn item, which
        // may be core's
        let fn_item = match fn_self.as_ref().and_then(super::callee::fn_item_behind_refs) {
            Some(Ty::FnDef { path: f, .. }) => Some(f.clone()),
            _ => None,
        };
        let path = fn_item.as_ref().unwrap_or(path);
        // `handle_alloc_error`'s entry: the handler rustc's shim calls (heap.rs)
        let handler = self.alloc_error_handler(path, ctx)?;
        let path = handler.as_ref().unwrap_or(path);
        let bodies = &self.bodies;
        let has_body = |n: &str| bodies.get(n).is_some_and(|b| b.kind == BodyKind::Fn);
        // drop glue (drops.rs), called by name with its type argument
        let glue = path.bare() == "core::ptr::drop_in_place" && has_body(&path.to_string());
        let first = match glue {
            true => Ok(Resolved::Function(path.to_string())),
            false => self.callees.resolve(path, target.is_none(), &has_body),
        };
        // a library's closure called through `Fn*` (closures.rs)
        let lib_closure = match (&first, &fn_self) {
            (Err(_), Some(Ty::Closure(c))) => self.library_closure(c, ctx)?,
            _ => None,
        };
        let mut resolved = match (first, lib_closure) {
            (_, Some(inst)) => Resolved::Function(inst),
            (Ok(r), None) => r,
            (Err(e), None) => self.library_callee(path, &call_args, target.is_none(), e, ctx)?,
        };
        if let Resolved::Instance { generic } = &resolved {
            resolved = Resolved::Function(self.instance(&generic.clone(), path, ctx)?);
        }
        if let Resolved::Function(name) = &resolved {
            self.check_drop_impl(path, name, ctx)?;
        }
        if let (Resolved::Function(name), Some(Ty::Closure(c))) = (&resolved, &fn_self) {
            if let Some(shim) = self.closure_env_shim(name, c, &call_args, ctx)? {
                resolved = Resolved::Function(shim);
            }
        }
        let callee = match resolved {
            Resolved::Function(name) => {
                // `[]` (a `[T; 0]` argument) prints without its type: the
                // parameter's
                if let Some(b) = self.bodies.get(name.as_str()) {
                    for (k, a) in call_args.iter_mut().enumerate() {
                        if let Operand::Const(c) = a {
                            if c.ty.is_none() && matches!(&c.val, ConstVal::Array(v) if v.is_empty()) {
                                c.ty = b.locals.get(k + 1).and_then(|l| l.as_ref()).map(|l| l.ty.clone());
                            }
                        }
                    }
                }
                let name = self.track_caller_callee(name, ctx)?;
                self.enqueue(&name);
                let symbol = self.symbol_for(&name);
                obj!["kind" => "function", "name" => name, "symbol" => symbol]
            }
            Resolved::Intrinsic { name, types, mut consts } => {
                let tys = types.iter().map(|t| self.ty(t, ctx).map(Json::from)).collect::<DResult<Vec<_>>>()?;
                if path.bare().starts_with("core::sync::atomic::") {
                    // `Ordering::Acquire` arguments of the core::sync::atomic
                    // functions become const_args, like the intrinsics' own.
                    let (ords, rest): (Vec<&Operand>, Vec<&Operand>) = args.iter().partition(|a| atomic_ordering(a).is_some());
                    consts.extend(ords.iter().filter_map(|a| atomic_ordering(a)));
                    call_args = rest.into_iter().cloned().collect();
                }
                let consts: Vec<Json> = consts.into_iter().map(Json::from).collect();
                obj!["kind" => "intrinsic", "name" => name, "generic_args" => tys, "const_args" => consts]
            }
            Resolved::Device(symbol) => obj!["kind" => "device", "symbol" => symbol],
            Resolved::Panic(name) => obj!["kind" => "panic", "name" => name],
            Resolved::Instance { .. } => unreachable!("instances are functions by now"),
            Resolved::Op(op) => {
                // block_json turns these into assignments; a diverging one
                // (no return edge) cannot be
                return Err(self.err(ctx, Code::Export, format!("`{path}` ({op:?}) is used without a return edge")));
            }
        };
        Ok(obj![
            "kind" => "call",
            "callee" => callee,
            "args" => self.operands_json(&call_args, ctx)?,
            "dest" => self.place_json(dest, ctx)?.0,
            "target" => target,
        ])
    }

    /// A call that does not resolve in the kernel crate's MIR (`failed`),
    /// into core: core's own body, from core's MIR (library.rs), becomes a
    /// body of the export, and the call is resolved again. Only what was
    /// an error is looked for there, so calls that resolve today keep
    /// resolving as they do. Without core's MIR the error says why.
    fn library_callee(&mut self, path: &Path, args: &[Operand], diverges: bool, failed: (Code, String), ctx: Ctx) -> DResult<Resolved> {
        let bare = path.bare();
        let libs = self.input.library;
        // only calls into core or a dependency that are not supported
        // today (not dyn calls, formatting, or core's operators on
        // primitives in an instance, whose errors say what to do instead)
        let trait_crate = path.qself.as_ref().and_then(|q| q.trait_.as_ref()).map(|t| {
            let b = t.bare();
            libs.crate_key(&b).unwrap_or(&b).to_string()
        });
        let self_crate = path.qself.as_ref().and_then(|q| self_type_crate_in(libs, &q.self_ty));
        // a dyn call is dispatched through its vtable (dyncall.rs); a
        // core trait method on a primitive (`<usize as Step>::forward_unchecked`)
        // is core's impl, macro-generated and matched by its body
        // (`macro_impl_binding`), except for the operators whose errors say
        // what to write instead (`<u32 as Div>::div` needs core's checks)
        // (core::cmp's comparisons are operations; its `min`, `max`, `cmp`
        // on a primitive are core's bodies)
        let op_trait = path.qself.as_ref().and_then(|q| q.trait_.as_ref()).is_some_and(|t| t.bare().starts_with("core::ops::"));
        let prim_self = path.qself.as_ref().is_some_and(|q| match &*q.self_ty {
            Ty::Dyn(_) => true,
            Ty::Int { .. } | Ty::Float(_) | Ty::Bool | Ty::Char => op_trait,
            _ => false,
        });
        // a dependency's trait may be implemented for a primitive there
        let dep_trait = trait_crate.as_deref().is_some_and(|k| k != "core" && libs.is_library(k));
        // alloc's bodies (`Vec::push`, Box's drop glue) are read when the
        // kernel crate has a global allocator; without one the heap error
        // stands (`not_inlined`)
        let heap_ok = failed.0 == Code::Gpu && crate::export::heap::is_heap_path(&bare) && self.has_global_allocator();
        let fmt_ok = failed.0 == Code::Gpu && is_fmt_path(path);
        // inside a gpu_print!, the error names the macro
        let failed = match is_fmt_path(path) && super::gpu_print::in_gpu_print(&ctx) {
            true => (failed.0, super::gpu_print::not_formatted(&super::callee::short_path(&path.to_string()))),
            false => failed,
        };
        if (failed.0 != Code::Unsupported && !heap_ok && !fmt_ok) || (prim_self && !dep_trait) {
            return Err(self.err(ctx, failed.0, failed.1));
        }
        if path.qself.is_some() {
            // the impl is in the trait's crate or in the self type's
            let unqualified = trait_crate.as_deref().is_some_and(|t| !t.contains("::") && path.qself.as_ref().and_then(|q| q.trait_.as_ref()).is_some_and(|t| t.segments.len() == 1));
            let mut crates: Vec<String> = trait_crate.into_iter().chain(self_crate).filter(|k| libs.is_library(k)).collect();
            // rustc prints core's private traits without a path
            // (`<RangeInclusive<usize> as RangeInclusiveIteratorImpl>`)
            if crates.is_empty() && unqualified {
                crates.push("core".into());
            }
            crates.dedup();
            let mut why = None;
            for k in &crates {
                match libs.get(k).expect("a library crate") {
                    Ok(lib) => {
                        if let Some(name) = self.library_impl_instance(lib, path, ctx)? {
                            return Ok(Resolved::Function(name));
                        }
                    }
                    Err((_, w)) => why = Some(format!("{k}'s own body was not looked for: {w}")),
                }
            }
            return Err(self.err(ctx, failed.0, match why {
                Some(w) => format!("{}; {w}", failed.1),
                None => failed.1,
            }));
        }
        let Some((lib, name)) = libs.for_path(&bare).filter(|_| !self.bodies.contains_key(bare.as_str())) else {
            return Err(self.err(ctx, failed.0, failed.1));
        };
        let krate = bare.split("::").next().unwrap_or("");
        let lib = match lib {
            Ok(l) => l,
            Err((_, why)) => return Err(self.err(ctx, failed.0, format!("{}; {krate}'s own body was not looked for: {why}", failed.1))),
        };
        if lib.body(name, &bare).is_none() {
            if let Some(inst) = self.library_inherent_instance(lib, path, ctx)? {
                return Ok(Resolved::Function(inst));
            }
        }
        let (body, reexported) = match lib.body(name, &bare) {
            Some(b) => (b, None),
            None => match lib.reexported_body(name, &bare) {
                Some((def, b)) => (b, Some(def)),
                None => return Err(self.err(ctx, failed.0, format!("{} ({krate}'s MIR has no body `{bare}` either)", failed.1))),
            },
        };
        let body = match body {
            Err((code, m)) => return Err(self.err(ctx, code, m)),
            Ok(b) => b,
        };
        // a body found by its last segment only: it must take what the
        // call passes, type for type
        if let Some(def) = reexported {
            let params: Vec<String> = (1..=body.arg_count as usize).map(|k| body.locals.get(k).and_then(|l| l.as_ref()).map_or(String::new(), |l| l.ty.to_string())).collect();
            let mut passed = Vec::new();
            for a in args {
                passed.push(self.operand_ty(a, ctx)?.to_string());
            }
            if params != passed {
                return Err(self.err(ctx, failed.0, format!(
                    "{} ({krate}'s one function named like it, `{krate}::{def}`, takes ({}), not ({}))",
                    failed.1,
                    params.join(", "),
                    passed.join(", ")
                )));
            }
        }
        let caller = self.loc(ctx.body, ctx.scope, ctx.span);
        self.library_bodies.insert(bare.clone(), caller);
        let body: &'a Body = Box::leak(Box::new(body));
        let key: &'a str = Box::leak(bare.into_boxed_str());
        self.bodies.insert(key, body);
        let bodies = &self.bodies;
        let has_body = |n: &str| bodies.get(n).is_some_and(|b| b.kind == BodyKind::Fn);
        self.callees.resolve(path, diverges, &has_body).map_err(|(c, m)| self.err(ctx, c, m))
    }

    /// Impl parameters that only an `F: FnMut(..) -> B` bound names (`B` of
    /// `impl<B, I: Iterator, F> Iterator for Map<I, F>`), bound to the
    /// output of what `F` is bound to: a closure with a body in the export
    /// (its return type), a fn item or a fn pointer.
    fn bind_fn_outputs(&self, header: &str, params: &[String], bound: &mut HashMap<String, String>) {
        for (p, q) in super::impls::fn_output_bounds(header) {
            if !params.contains(&q) || bound.contains_key(&q) {
                continue;
            }
            let Some(f) = bound.get(&p).and_then(|t| crate::mirparse::parser::parse_str(t, |x| x.ty()).ok()) else { continue };
            let out = match &f {
                Ty::Closure(c) => self.callees.closure_body(c).and_then(|b| self.bodies.get(b)).map(|b| b.ret_ty.clone()),
                Ty::FnPtr(sig) | Ty::FnDef { sig, .. } => fn_sig_output(sig),
                _ => None,
            };
            if let Some(out) = out {
                bound.insert(q, out.to_string());
            }
        }
    }

    /// `<Enumerate<Iter<'_, u64>> as Iterator>::next`: the instance of
    /// core's one impl of that trait for that type (`<impl at ..>::next`,
    /// its header read from core's source), the impl's type parameters
    /// bound by matching its self type against the call's, the method's
    /// own from the call's arguments. None when no single impl matches.
    pub(super) fn library_impl_instance(&mut self, lib: &crate::library::Library, path: &Path, ctx: Ctx) -> DResult<Option<String>> {
        let inst = path.to_string();
        if self.bodies.contains_key(inst.as_str()) {
            return Ok(Some(inst));
        }
        match self.library_impl_pick(lib, path, ctx)? {
            Pick::Default => self.library_default_method(lib, path, ctx),
            Pick::None => Ok(None),
            Pick::Impl(cand, params, args) => {
                let fail = |why: String| format!("{}'s `{cand}` for the call `{inst}` could not be instantiated ({why})", lib.krate());
                let full = format!("{}::{}", lib.krate(), crate::library::undup(&cand));
                let text = lib.body_text(&cand).ok_or_else(|| self.err(ctx, Code::Export, fail("no text".into())))?;
                self.add_library_instance(&text, &full, params, args, path, &fail, ctx).map(Some)
            }
        }
    }

    /// The impl method `library_impl_instance` takes for the call `path`
    /// (`<T as Tr>::m`), its impl's parameters and what they stand for.
    pub(super) fn library_impl_pick(&mut self, lib: &crate::library::Library, path: &Path, ctx: Ctx) -> DResult<Pick> {
        use super::callee::{impl_header, split_impl_item, ty_last_name};
        let inst = path.to_string();
        let q = path.qself.as_ref().expect("a qualified path");
        // the self type with the defaulted parameters rustc leaves out
        let with_defaults = self.with_type_defaults(&q.self_ty);
        let q = &QSelf { self_ty: Box::new(with_defaults), trait_: q.trait_.clone() };
        let want = (q.trait_.as_ref().map(|t| t.last_name().to_string()), ty_last_name(&q.self_ty));
        let method = path.last_name();
        let mut found = Vec::new();
        let mut blanket = Vec::new();
        let mut unread = false;
        for cand in lib.impl_methods(method) {
            let Some((_, span, item)) = split_impl_item(crate::library::undup(&cand)) else { continue };
            if item != method {
                continue;
            }
            let header = crate::mirparse::items::parse_span(span).and_then(|s| self.spans.source_text(&s)).unwrap_or_default();
            let header = plain_impl_header(&header);
            // a derive of another trait (`#[derive(PartialEq)]` for a call
            // of `Iterator::eq`) is an impl of that trait only
            if super::impls::is_derive_of_other(&header, want.0.as_deref()) {
                continue;
            }
            // a derive's impl (its span is the trait's name): its header
            // from the type its method's `self` points to
            let header = match header.starts_with("impl") || want.0.as_deref() != Some(header.trim()) {
                true => header,
                false => library_first_param(lib, &cand).and_then(|t| derived_impl_header(&header, &t)).unwrap_or(header),
            };
            let (tr, ty) = impl_header(&header, None);
            if !header.starts_with("impl") || tr.as_deref().is_some_and(|t| t.contains('$')) {
                // a header not read may be the impl for this type
                unread = true;
            } else if ty.contains('$') {
                // a macro's impl (`impl One for $t`), expanded for several
                // types that print alike: its body says which
                if tr == want.0 && macro_impl_binding(lib, &cand, &header, &q.self_ty).is_some() {
                    found.push((cand, header));
                } else if tr == want.0 {
                    unread |= !lib.body_text(&cand).is_some();
                }
            } else if (tr.clone(), ty) == want {
                // same-named types of two modules (`option::IterMut`,
                // `slice::IterMut`): a method's `self` tells them apart;
                // types declared inside functions (tinyvec's two
                // `JoinOnDrop`s) where they are declared
                let local = self.impl_is_for_library_local(span, &q.self_ty);
                if local.unwrap_or_else(|| self_param_matches(lib, &cand, &header, &q.self_ty)) {
                    found.push((cand, header));
                }
            } else if tr == want.0 && !matches!(*q.self_ty, Ty::Adt(_)) && structural_impl_for(&header, &q.self_ty) {
                // `impl<T, const N: usize> AsMut<[T]> for [T; N]` for `[u8; 32]`:
                // a self type that is not a path matches by its shape
                found.push((cand, header));
            } else if tr == want.0 && impl_self_pattern(&header).is_ok_and(|(ps, t, _)| ps.contains(&t)) {
                // `impl<I: Iterator> IntoIterator for I`
                blanket.push((cand, header));
            }
        }
        if found.is_empty() && !unread && blanket.len() > 1 {
            // specialization among blanket impls (core's sort: `impl<T>
            // UnstableSmallSortTypeImpl for T` with `default fn`s, `impl<T:
            // FreezeMarker> ..` without): the final one, when it applies
            let picked = self.most_specialized(lib, blanket.clone(), &q.self_ty, method);
            if picked.len() == 1 {
                found = picked;
            }
        } else if found.is_empty() && !unread && !blanket.is_empty() {
            found = self.blanket_impl(lib, blanket, &q.self_ty, method);
        }
        if found.is_empty() && !unread {
            return Ok(Pick::Default);
        }
        // impls for one self type and different arguments of the trait
        // (`PartialEq<&B> for &A`, `PartialEq<&mut B> for &A`): the call's
        // trait says which
        if let Some(tr) = q.trait_.as_ref().filter(|t| found.len() > 1 && t.segments.last().is_some_and(|s| !s.args.is_empty())) {
            let matching: Vec<_> = found.iter().filter(|(_, header)| super::impls::impl_matches_call(header, &q.self_ty, tr)).cloned().collect();
            if !matching.is_empty() {
                found = matching;
            }
        }
        if found.len() > 1 {
            found = self.most_specialized(lib, found, &q.self_ty, method);
        }
        let [(cand, header)] = found.as_slice() else { return Ok(Pick::None) };
        let fail = |why: String| format!("{}'s `{cand}` for the call `{inst}` could not be instantiated ({why})", lib.krate());
        // a macro's impl for one type (matched by its body) has no
        // parameters of its own
        let by_macro = impl_header(header, None).1.contains('$');
        let (params, args) = match by_macro {
            true => macro_impl_binding(lib, cand, header, &q.self_ty).ok_or_else(|| self.err(ctx, Code::Unsupported, fail("its body's type does not match".into())))?,
            false => self.bind_impl_params(header, &q.self_ty, q.trait_.as_ref(), &fail, ctx)?,
        };
        Ok(Pick::Impl(cand.clone(), params, args))
    }

    /// `ty` (a dependency's type, or a reference or pointer to one) with
    /// the defaults of the trailing type parameters that rustc does not
    /// print put in (implty.rs `declared_defaults`); else `ty` itself.
    pub(super) fn with_type_defaults(&self, ty: &Ty) -> Ty {
        match ty {
            Ty::Ref { mutable, pointee } => Ty::Ref { mutable: *mutable, pointee: Box::new(self.with_type_defaults(pointee)) },
            Ty::Ptr { mutable, pointee } => Ty::Ptr { mutable: *mutable, pointee: Box::new(self.with_type_defaults(pointee)) },
            Ty::Adt(p) if p.qself.is_none() => {
                let libs = self.input.library;
                let bare = p.bare();
                let Some(key) = libs.crate_key(&bare).filter(|k| bare.len() > k.len()) else { return ty.clone() };
                let krate = libs.crate_name(key).to_string();
                let in_crate: Vec<String> = bare[key.len() + 2..].split("::").map(str::to_string).collect();
                let names = super::srcnames::SrcNames { libs };
                super::implty::declared_defaults(&names, &krate, &in_crate, p).map_or_else(|| ty.clone(), Ty::Adt)
            }
            _ => ty.clone(),
        }
    }

    /// An impl's type parameters (its header `impl<T, E> Result<T, E>`)
    /// and the types they stand for in the call's `self_ty`, bound by
    /// matching the header's self type against it (`unify`). Every
    /// parameter must be bound. A parameter only the trait names
    /// (`U` of `impl<T: ?Sized, U: ?Sized> AsRef<U> for &T`) is bound by
    /// matching the header's trait against the call's (`trait_`).
    fn bind_impl_params(&self, header: &str, self_ty: &Ty, trait_: Option<&Path>, fail: &dyn Fn(String) -> String, ctx: Ctx) -> DResult<(Vec<String>, Vec<String>)> {
        let (impl_params, self_text, pattern) = impl_self_pattern(header).map_err(|m| self.err(ctx, Code::Unsupported, fail(m)))?;
        let mut bound = HashMap::new();
        if !unify(&pattern, self_ty, &impl_params, &mut bound) {
            return Err(self.err(ctx, Code::Unsupported, fail(format!("`{self_ty}` does not match `{self_text}`"))));
        }
        if let Some(tr) = trait_.filter(|_| impl_params.iter().any(|p| !bound.contains_key(p))) {
            let trait_text = impl_trait_text(header).ok_or_else(|| self.err(ctx, Code::Unsupported, fail("its trait is not read".into())))?;
            let pattern = crate::mirparse::parser::parse_str(trait_text, |p| p.ty()).map_err(|m| self.err(ctx, Code::Unsupported, fail(m)))?;
            if !unify(&pattern, &Ty::Adt(tr.clone()), &impl_params, &mut bound) {
                return Err(self.err(ctx, Code::Unsupported, fail(format!("`{tr}` does not match `{trait_text}`"))));
            }
        }
        self.bind_fn_outputs(header, &impl_params, &mut bound);
        let mut args = Vec::new();
        for p in &impl_params {
            let a = bound.get(p).ok_or_else(|| self.err(ctx, Code::Unsupported, fail(format!("the impl's parameter `{p}` is not in its self type"))))?;
            args.push(a.clone());
        }
        Ok((impl_params, args))
    }

    /// `core::result::Result::<u8, E>::unwrap`, `core::slice::<impl
    /// [u8]>::split_at_unchecked`: a method of an inherent impl of the
    /// crate (`library_inherent_pick`), instantiated for the call; its
    /// name. None when the path names no type's method.
    fn library_inherent_instance(&mut self, lib: &crate::library::Library, path: &Path, ctx: Ctx) -> DResult<Option<String>> {
        let inst = path.to_string();
        if self.bodies.contains_key(inst.as_str()) {
            return Ok(Some(inst));
        }
        let Some((cand, params, args)) = self.library_inherent_pick(lib, path, ctx)? else { return Ok(None) };
        let fail = |why: String| format!("{}'s `{cand}` for the call `{inst}` could not be instantiated ({why})", lib.krate());
        let full = format!("{}::{}", lib.krate(), crate::library::undup(&cand));
        let text = lib.body_text(&cand).ok_or_else(|| self.err(ctx, Code::Export, fail("no text".into())))?;
        self.add_library_instance(&text, &full, params, args, path, &fail, ctx).map(Some)
    }

    /// The inherent impl method that `path` (`core::result::Result::<u8,
    /// E>::unwrap`) names: the one `<impl at ..>` method of that name of
    /// the crate (its header `impl<T, E> Result<T, E>` read from the
    /// crate's source) in the module the path names or below it whose
    /// self type matches the path's (`unify`); its index key, its impl's
    /// parameters and what they stand for. None when the path names no
    /// type's method or no impl matches; an error when several do or the
    /// parameters do not bind.
    pub(super) fn library_inherent_pick(&mut self, lib: &crate::library::Library, path: &Path, ctx: Ctx) -> DResult<Option<(String, Vec<String>, Vec<String>)>> {
        use super::callee::impl_header;
        let inst = path.to_string();
        let Some((module, printed_ty)) = inherent_self(path, lib.krate()) else { return Ok(None) };
        // the type as printed, else with the defaulted parameters rustc
        // does not print (`RawVec<u32>` is `RawVec<u32, Global>` to alloc's
        // `impl<T, A: Allocator> RawVec<T, A>`)
        let defaulted = self.with_type_defaults(&printed_ty);
        let mut found = self.inherent_candidates(lib, path, &module, &printed_ty);
        let mut self_ty = printed_ty;
        if found.is_empty() && defaulted != self_ty {
            found = self.inherent_candidates(lib, path, &module, &defaulted);
            self_ty = defaulted;
        }
        let (cand, header) = match found.as_slice() {
            [one] => one.clone(),
            [] => return Ok(None),
            more => {
                let names: Vec<&str> = more.iter().map(|c| c.0.as_str()).collect();
                return Err(self.err(ctx, Code::Unsupported, format!("call to `{inst}`, which has no body in this crate: {} inherent impls of {}'s match it ({})", more.len(), lib.krate(), names.join(", "))));
            }
        };
        let fail = |why: String| format!("{}'s `{cand}` for the call `{inst}` could not be instantiated ({why})", lib.krate());
        let (params, args) = match impl_header(&header, None).1.contains('$') {
            true => macro_impl_binding(lib, &cand, &header, &self_ty).ok_or_else(|| self.err(ctx, Code::Unsupported, fail("its body's type does not match".into())))?,
            false => self.bind_impl_params(&header, &self_ty, None, &fail, ctx)?,
        };
        Ok(Some((cand, params, args)))
    }

    /// The inherent impl methods of `lib` in `module` or below it that
    /// define `path`'s method for `self_ty`: each body's name and its
    /// impl's header.
    fn inherent_candidates(&self, lib: &crate::library::Library, path: &Path, module: &str, self_ty: &Ty) -> Vec<(String, String)> {
        use super::callee::{impl_header, split_impl_item};
        let method = path.last_name();
        let mut found = Vec::new();
        for cand in lib.impl_methods(method) {
            let Some((m, span, item)) = split_impl_item(crate::library::undup(&cand)) else { continue };
            // (every module is below the crate's root: `tinyvec::ArrayVec`
            // is defined in `arrayvec`)
            if item != method || !(module.is_empty() || m == module || m.starts_with(&format!("{module}::"))) {
                continue;
            }
            let header = crate::mirparse::items::parse_span(span).and_then(|s| self.spans.source_text(&s)).unwrap_or_default();
            let header = plain_impl_header(&header);
            let (tr, ty) = impl_header(&header, None);
            // a derive's span (no `impl`) and a trait impl are not inherent
            if !header.starts_with("impl") || tr.is_some() {
                continue;
            }
            // a macro's impl (`impl $t`): its body says for which type
            let hit = match ty.contains('$') {
                true => macro_impl_binding(lib, &cand, &header, self_ty).is_some(),
                // (a method's `self` tells same-named types apart)
                false => {
                    impl_self_pattern(&header).is_ok_and(|(params, _, p)| unify(&p, self_ty, &params, &mut HashMap::new()))
                        && self_param_matches(lib, &cand, &header, self_ty)
                }
            };
            if hit {
                found.push((cand, header));
            }
        }
        found
    }

    /// Instance `path` of library body `full` (its MIR `text`): `params`
    /// bound to `args`, then the method's own generic parameters to the
    /// call's; made a body of the export. Its name.
    #[allow(clippy::too_many_arguments)]
    fn add_library_instance(
        &mut self,
        text: &str,
        full: &str,
        mut params: Vec<String>,
        mut args: Vec<String>,
        path: &Path,
        fail: &dyn Fn(String) -> String,
        ctx: Ctx,
    ) -> DResult<String> {
        let inst = path.to_string();
        let (own_params, own_args) = self.method_own_generics(text, path, fail, ctx)?;
        params.extend(own_params);
        args.extend(own_args);
        // the body's name as its text spells it (core's visible paths:
        // `fn core::iter::Iterator::try_fold(` for `iter::traits::..`)
        let own = text_fn_name(text).unwrap_or_else(|| full.to_string());
        let text = mono::substitute(text, &own, &params, &args).map_err(|m| self.err(ctx, Code::Unsupported, fail(m)))?;
        let text = self.normalize_projections(&text, ctx)?;
        let text = super::spanclosures::rename_span_closures(&text, &inst);
        self.add_instance_text(&text, &inst, fail, ctx)?;
        Ok(inst)
    }

    /// The generic parameters of generic method `text` (its MIR) that the
    /// last segment of call `path` gives arguments for, and those
    /// arguments; none when it gives none.
    pub(super) fn method_own_generics(&mut self, text: &str, path: &Path, fail: &dyn Fn(String) -> String, ctx: Ctx) -> DResult<(Vec<String>, Vec<String>)> {
        let own = mono::call_args(&Path { qself: None, segments: path.segments.last().cloned().into_iter().collect() });
        if own.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        let g = crate::mirparse::parse_mir_file(text).map_err(|e| self.err(ctx, Code::MirParse, fail(e.msg)))?;
        let g = g.bodies.into_iter().next().ok_or_else(|| self.err(ctx, Code::Export, fail("no body".into())))?;
        let sig = self.signature_source(&g, 8).ok_or_else(|| self.err(ctx, Code::Unsupported, fail("its source is not readable".into())))?;
        let mut params = mono::generic_params(&sig, path.last_name())
            .ok_or_else(|| self.err(ctx, Code::Unsupported, fail("no generic parameters in its signature".into())))?;
        params.extend(impl_trait_params(&g));
        Ok((params, own))
    }

    /// Parses a library instance's substituted MIR `text` as body `inst`
    /// (its runtime checks folded) and makes it a body of the export,
    /// called from the statement at `ctx`.
    pub(super) fn add_instance_text(&mut self, text: &str, inst: &str, fail: &dyn Fn(String) -> String, ctx: Ctx) -> DResult<()> {
        let mut body = mono::parse_instance(text, inst).map_err(|m| self.err(ctx, Code::Unsupported, fail(m)))?;
        body.name = inst.to_string();
        crate::library::fold_runtime_checks(&mut body);
        let caller = self.loc(ctx.body, ctx.scope, ctx.span);
        self.library_bodies.insert(inst.to_string(), caller);
        let body: &'a Body = Box::leak(Box::new(body));
        let key: &'a str = Box::leak(inst.to_string().into_boxed_str());
        self.bodies.insert(key, body);
        Ok(())
    }

    /// Of several impls of a method for one type (specialization: core's
    /// `impl<A: Step> RangeInclusiveIteratorImpl for RangeInclusive<A>`
    /// with `default fn`s, and `impl<T: TrustedStep> ..` without), the one
    /// rustc picks: the only one whose method is not `default`, when its
    /// parameters' bounds are marker traits that the call's types (all
    /// primitives) are known to have. Else all of them (none is taken).
    fn most_specialized(&self, lib: &crate::library::Library, found: Vec<(String, String)>, self_ty: &Ty, method: &str) -> Vec<(String, String)> {
        let kinds: Vec<Option<bool>> = found.iter().map(|(c, _)| self.is_default_fn(lib, c, method)).collect();
        let finals: Vec<usize> = (0..found.len()).filter(|&k| kinds[k] == Some(false)).collect();
        let [f] = finals.as_slice() else { return found };
        if kinds.iter().filter(|k| **k == Some(true)).count() != found.len() - 1 {
            return found;
        }
        let root = impl_src_root(&found[*f].0);
        let headers: Vec<&str> = found.iter().map(|(_, h)| h.as_str()).collect();
        let applies = marker_bounds_hold(&found[*f].1, self_ty)
            || root.is_some_and(|r| super::special::impl_applies(&headers, *f, self_ty, &r, lib.krate()));
        match applies {
            true => vec![found[*f].clone()],
            false => found,
        }
    }

    /// Of the crate's blanket impls of a trait method (`impl<I: Iterator>
    /// IntoIterator for I`) for a type of the crate without an impl of
    /// its own that defines the method, the one rustc runs: the only one,
    /// when its method is not `default` and each bound of its parameter is
    /// a trait the crate implements for the type without bounds (then no
    /// other impl may apply). Else none.
    fn blanket_impl(&self, lib: &crate::library::Library, blanket: Vec<(String, String)>, self_ty: &Ty, method: &str) -> Vec<(String, String)> {
        let [(cand, header)] = blanket.as_slice() else { return Vec::new() };
        if super::special::blanket_for_unnameable(header, self_ty) && self.is_default_fn(lib, cand, method) == Some(false) {
            return blanket;
        }
        if self_type_crate_in(self.input.library, self_ty).as_deref() != Some(lib.krate()) || self.is_default_fn(lib, cand, method) != Some(false) {
            return Vec::new();
        }
        let Some(root) = impl_src_root(cand) else { return Vec::new() };
        match super::special::blanket_applies(header, self_ty, &root, lib.krate()) {
            true => blanket,
            false => Vec::new(),
        }
    }

    /// Whether library method `cand` is a `default fn` (specialization),
    /// read from its signature's source.
    fn is_default_fn(&self, lib: &crate::library::Library, cand: &str, method: &str) -> Option<bool> {
        let text = lib.body_text(cand)?;
        let b = crate::mirparse::parse_mir_file(&text).ok()?.bodies.into_iter().next()?;
        let sig = self.signature_source(&b, 2)?;
        let at = sig.rfind(&format!("fn {method}"))?;
        let before = sig[..at].trim_end();
        Some(before.ends_with("default") || before.ends_with("default unsafe"))
    }

    /// `<f64 as FloatCore>::recip` where no impl of the crate defines
    /// `recip` for `f64` (every impl header of a `recip` read): the
    /// trait's default method `FloatCore::recip`, instantiated with `Self`
    /// the call's self type and its own parameters from the call. Only for
    /// a trait without parameters, named by its path. None otherwise.
    fn library_default_method(&mut self, lib: &crate::library::Library, path: &Path, ctx: Ctx) -> DResult<Option<String>> {
        let inst = path.to_string();
        let Some((name, params, args)) = self.library_default_pick(lib, path) else { return Ok(None) };
        let Some(text) = lib.body_text(&name) else { return Ok(None) };
        let full = format!("{}::{name}", lib.krate());
        let fail = |why: String| format!("the default method `{full}` for the call `{inst}` could not be instantiated ({why})");
        self.add_library_instance(&text, &full, params, args, path, &fail, ctx).map(Some)
    }

    /// The trait default method `library_default_method` takes for the
    /// call `path` (`<T as Tr>::m`): its name in `lib`
    /// (`iter::traits::iterator::Iterator::eq`), and `Self` bound to the
    /// call's self type. None for a trait with parameters, or one not
    /// found with that default method.
    pub(super) fn library_default_pick(&self, lib: &crate::library::Library, path: &Path) -> Option<(String, Vec<String>, Vec<String>)> {
        let q = path.qself.as_ref().expect("a qualified path");
        let tr = q.trait_.as_ref().filter(|t| t.segments.iter().all(|s| s.args.is_empty()))?;
        let method = path.segments.first()?.name.as_str();
        // a trait printed without its path (core's `Iterator` in
        // `<IterMut<'_, u64> as Iterator>::zip`), or by a path it is
        // re-exported at (`core::iter::Iterator`), is the crate's one trait
        // of that name with that default method, defined at or under that
        // module
        let printed = match tr.segments.len() {
            1 => tr.last_name().to_string(),
            _ => tr.bare().strip_prefix(&format!("{}::", lib.krate()))?.to_string(),
        };
        let own_trait = lib.default_method_trait(&printed, method)?;
        Some((format!("{own_trait}::{method}"), vec!["Self".to_string()], vec![q.self_ty.to_string()]))
    }

    /// A `Fn*` call of closure `c` through body `name`: its environment
    /// argument must be what the body takes. `FnOnce::call_once` passes
    /// the closure by value; a closure inferred `Fn` or `FnMut` (called by
    /// reference first, then passed where `FnOnce` is expected) takes a
    /// reference to it: the call goes through the by-value shim rustc
    /// would make (once_shim.rs), whose name is returned.
    fn closure_env_shim(&mut self, name: &str, c: &str, call_args: &[Operand], ctx: Ctx) -> DResult<Option<String>> {
        let Some(env) = self.bodies.get(name).and_then(|b| b.locals.get(1)).and_then(|l| l.as_ref()).map(|l| l.ty.clone()) else { return Ok(None) };
        let Some(first) = call_args.first() else { return Ok(None) };
        let passed = self.operand_ty(first, ctx)?;
        let by_value = matches!(&passed, Ty::Closure(x) if x == c);
        if by_value && matches!(&env, Ty::Ref { pointee, .. } if matches!(&**pointee, Ty::Closure(x) if x == c)) {
            return self.call_once_shim(name, ctx).map(Some);
        }
        Ok(None)
    }

    /// `<&mut C as FnMut<A>>::call_mut(r, args)` for closure type `c`
    /// behind one or more references (`self_ty`): core's impls of the
    /// `Fn*` traits for `&F` and `&mut F` call `F` with `(**self)`, so the
    /// call is `<C as Trait<A>>::method` with the first argument
    /// dereferenced down to the one reference to the closure that its
    /// body takes as its environment (`&C` or `&mut C`; a closure behind
    /// a reference implements `Fn` or `FnMut`, never `FnOnce` alone).
    fn closure_through_refs(&mut self, path: &Path, c: &str, args: &[Operand], ctx: Ctx) -> DResult<(Path, Vec<Operand>)> {
        let mut direct = path.clone();
        if let Some(q) = direct.qself.as_mut() {
            q.self_ty = Box::new(Ty::Closure(c.to_string()));
        }
        let Some(Operand::Copy(first) | Operand::Move(first)) = args.first() else {
            return Err(self.err(ctx, Code::Unsupported, format!("`{path}` of a constant")));
        };
        let mut env = first.clone();
        loop {
            match self.place_json(&env, ctx)?.1 {
                Ty::Ref { pointee, .. } if matches!(*pointee, Ty::Ref { .. }) => env.proj.push(Proj::Deref),
                Ty::Ref { pointee, .. } if matches!(&*pointee, Ty::Closure(x) if x == c) => break,
                t => return Err(self.err(ctx, Code::Export, format!("`{path}` called with a `{t}`, not a reference to the closure"))),
            }
        }
        let mut out = vec![Operand::Copy(env)];
        out.extend(args[1..].iter().cloned());
        Ok((direct, out))
    }

    /// `Fn::call(f, (a, b))` as the body is called: a closure's body takes
    /// its environment and `a, b`; a fn item's takes `a, b` (its own
    /// zero-sized self is dropped). The tuple is split into its fields.
    pub(super) fn spread_fn_call_args(&mut self, self_ty: &Ty, args: &[Operand], ctx: Ctx) -> DResult<Vec<Operand>> {
        let bad = |ex: &Self| ex.err(ctx, Code::Export, format!("a `Fn*` call of `{self_ty}` with {} arguments, not 2", args.len()));
        let [callee, tuple] = args else { return Err(bad(self)) };
        let mut out = Vec::new();
        if matches!(self_ty, Ty::Closure(_) | Ty::Dyn(_)) {
            out.push(callee.clone());
        } else if !matches!(self_ty, Ty::FnPtr(_)) && super::callee::fn_item_behind_refs(self_ty).is_none() {
            return Err(bad(self));
        }
        match tuple {
            Operand::Copy(p) | Operand::Move(p) => {
                let Ty::Tuple(tys) = self.place_json(p, ctx)?.1 else {
                    return Err(self.err(ctx, Code::Export, format!("the arguments of a `Fn*` call of `{self_ty}` are no tuple")));
                };
                for (i, t) in tys.into_iter().enumerate() {
                    let mut q = p.clone();
                    q.proj.push(Proj::Field(i as u32, t));
                    out.push(if matches!(tuple, Operand::Move(_)) { Operand::Move(q) } else { Operand::Copy(q) });
                }
            }
            Operand::Const(c) => match &c.val {
                ConstVal::Tuple(items) => out.extend(items.iter().cloned().map(Operand::Const)),
                _ => return Err(self.err(ctx, Code::Unsupported, format!("the constant arguments `{}` of a `Fn*` call", c.text))),
            },
        }
        Ok(out)
    }

    /// What closure `closure` (type `ti`) captures, when no aggregate in
    /// the exported MIR said it. `zero_sized`: it is a `const ZeroSized`
    /// (or captured by one), so its captures are zero-sized values; then,
    /// when its body reads no field of its environment, it captures
    /// nothing and is laid out as `()`. A library closure's captures are
    /// read from the aggregate in its parent's body (`min_by_key::key`'s
    /// closure captures the user's closure), and each captured closure is
    /// noted the same way (zst_closures.rs lays out a closure of fieldless
    /// closures and fn items as `()`). Else it keeps no layout: a captured
    /// zero-sized value may have alignment and drop glue.
    pub(super) fn note_closure_captures(&mut self, ti: usize, closure: &str, zero_sized: bool, ctx: Ctx) -> DResult<()> {
        let ups = match self.types.get(ti).upvars.clone() {
            Some(ups) => ups,
            None if zero_sized && self.closure_captures_nothing(closure) => Vec::new(),
            None => {
                let Some(captures) = self.library_closure_captures(closure, ctx) else { return Ok(()) };
                let mut ups = Vec::new();
                for t in &captures {
                    ups.push(self.ty(t, ctx)?);
                }
                ups
            }
        };
        self.types.entries[ti].upvars = Some(ups.clone());
        // its captured closures (zero-sized too, when it is)
        for ui in ups {
            if let Ty::Closure(inner) = self.types.get(ui).ty.clone() {
                if ui != ti {
                    self.note_closure_captures(ui, &inner, zero_sized, ctx)?;
                }
            }
        }
        Ok(())
    }

    /// A closure of the kernel crate whose body captures nothing
    /// (`body_captures_nothing`).
    pub(super) fn closure_captures_nothing(&self, closure: &str) -> bool {
        let Some(body) = self.callees.closure_body(closure) else { return false };
        let Some(params) = self.bodies.get(body).map(|b| b.arg_count as usize) else { return false };
        super::mono::body_text(self.input.mir_text, body).is_some_and(|text| body_captures_nothing(&text, params))
    }

    /// `_0 = copy _1(move _2)`: a call through a function pointer.
    fn call_pointer_json(&mut self, dest: &Place, f: &Operand, args: &[Operand], target: Option<u32>, ctx: Ctx) -> DResult<Json> {
        let fj = self.operand_json(f, ctx)?;
        let fty = match f {
            Operand::Copy(p) | Operand::Move(p) => self.place_json(p, ctx)?.1,
            Operand::Const(c) => self.const_ty(c, ctx)?,
        };
        if !matches!(fty, Ty::FnPtr(_)) {
            return Err(self.err(ctx, Code::Unsupported, format!("a call through a value of type `{fty}` is not supported")));
        }
        Ok(obj![
            "kind" => "call",
            "callee" => obj!["kind" => "pointer", "operand" => fj],
            "args" => self.operands_json(args, ctx)?,
            "dest" => self.place_json(dest, ctx)?.0,
            "target" => target,
        ])
    }

    /// The symbol a function will have: kernels keep their name.
    fn symbol_for(&self, name: &str) -> String {
        let is_kernel = self.input.mir.consts.iter().any(|c| super::marker_kernel(&c.name).is_some_and(|(m, k)| {
            if m.is_empty() { k == name } else { format!("{m}::{k}") == name }
        }));
        if is_kernel {
            name.rsplit("::").next().unwrap_or(name).to_string()
        } else {
            self.symbol(name)
        }
    }
}

/// The `AssertKind` behind an assert message (rustc's `AssertKind::description`).
fn assert_kind(msg: &str) -> Json {
    const OVERFLOW_OPS: [(&str, &str); 7] = [
        ("+", "Add"),
        ("-", "Sub"),
        ("*", "Mul"),
        ("/", "Div"),
        ("%", "Rem"),
        ("shift left", "Shl"),
        ("shift right", "Shr"),
    ];
    if msg.starts_with("index out of bounds") {
        return obj!["kind" => "BoundsCheck"];
    }
    if msg.starts_with("attempt to negate") {
        return obj!["kind" => "OverflowNeg"];
    }
    if msg.starts_with("attempt to divide") && msg.contains("by zero") {
        return obj!["kind" => "DivisionByZero"];
    }
    if msg.starts_with("attempt to calculate the remainder") && msg.contains("divisor of zero") {
        return obj!["kind" => "RemainderByZero"];
    }
    if msg.starts_with("misaligned pointer dereference") {
        return obj!["kind" => "MisalignedPointerDereference"];
    }
    if msg.starts_with("null pointer dereference") {
        return obj!["kind" => "NullPointerDereference"];
    }
    if msg.contains("which would overflow") {
        let shift = msg.strip_prefix("attempt to ").unwrap_or("");
        let op = OVERFLOW_OPS.iter().find(|(sym, _)| {
            if sym.len() > 1 { shift.starts_with(sym) } else { msg.contains(&format!("{{}} {sym} {{}}")) }
        });
        if let Some((_, op)) = op {
            return obj!["kind" => "Overflow", "op" => *op];
        }
    }
    obj!["kind" => "Other"]
}

/// `const core::sync::atomic::Ordering::Acquire` → `Acquire`.
fn atomic_ordering(a: &Operand) -> Option<String> {
    match a {
        Operand::Const(c) => match &c.val {
            ConstVal::Path { path, fields } if fields.is_empty() && path.bare().starts_with("core::sync::atomic::Ordering::") => {
                Some(path.last_name().to_string())
            }
            _ => None,
        },
        _ => None,
    }
}

/// The output of a fn pointer or fn item signature (`fn(&u8) -> bool` →
/// `bool`; `()` without an arrow); None when it is not read.
fn fn_sig_output(sig: &str) -> Option<Ty> {
    let open = sig.find("fn(")? + 2;
    let len = crate::mirparse::lexer::matching_close(&sig[open..], '(', ')')?;
    match sig[open + len..].trim().strip_prefix("->") {
        Some(out) => crate::mirparse::parser::parse_str(out.trim(), |p| p.ty()).ok(),
        None => Some(Ty::Tuple(Vec::new())),
    }
}

/// The name on the `fn NAME(` line of a body's MIR text.
pub(super) fn text_fn_name(text: &str) -> Option<String> {
    text.lines().find_map(|l| l.strip_prefix("fn ")?.split_once('(').map(|(n, _)| n.to_string()))
}

/// The type of the first parameter of library body `cand` (an index key).
fn library_first_param(lib: &crate::library::Library, cand: &str) -> Option<Ty> {
    let text = lib.body_text(cand)?;
    let b = crate::mirparse::parse_mir_file(&text).ok()?.bodies.into_iter().next()?;
    (b.arg_count >= 1).then(|| b.locals.get(1)?.as_ref().map(|l| l.ty.clone()))?
}

/// Whether closure body `text` (rustc's MIR; `params` its arguments, the
/// environment `_1` included) captures nothing: it never
/// projects a field of its environment (`(*_1).0`, `(_1.0: T)`), and each
/// `debug` line of its outermost scope names a parameter (`debug v =>
/// _2;`, `debug a => (_2.0: u64);`). rustc gives every captured variable
/// such a line, whatever its value became (`debug z => const [];` for a
/// captured `[u64; 0]`, which has alignment 8 and no read left).
pub(super) fn body_captures_nothing(text: &str, params: usize) -> bool {
    debug_lines_capture_nothing(text, params)
}

/// `body_captures_nothing` for a library's closure body, whose cached text
/// keeps one space of indentation at every depth (library.rs `compact`):
/// the outermost scope's `debug` lines are found by brace depth
/// (`outermost_debug_lines`), as in the kernel crate's text.
pub(super) fn library_body_captures_nothing(text: &str, params: usize) -> bool {
    debug_lines_capture_nothing(text, params)
}

fn debug_lines_capture_nothing(text: &str, params: usize) -> bool {
    if text.contains("(*_1).") || text.contains("(_1.") {
        return false;
    }
    outermost_debug_lines(text).into_iter().all(|d| {
        let value = d.split_once(" => ").map_or("", |(_, v)| v).trim_start_matches(['(', '*']);
        let local = value.strip_prefix('_').map(|r| r.split(|c: char| !c.is_ascii_digit()).next().unwrap_or(""));
        local.and_then(|n| n.parse::<usize>().ok()).is_some_and(|k| k >= 2 && k <= params)
    })
}

/// The `debug NAME => VALUE;` lines (without `debug `) of a body's
/// outermost scope: those not inside a `scope N { .. }` block, whatever
/// the indentation (core's cached MIR has one space for every level).
fn outermost_debug_lines(text: &str) -> Vec<&str> {
    let mut depth = 0usize;
    let mut found = Vec::new();
    for l in text.lines() {
        let code = l.split(" // ").next().unwrap_or(l).trim();
        if depth == 1 {
            if let Some(d) = code.strip_prefix("debug ") {
                found.push(d);
            }
        }
        if code.ends_with('{') {
            depth += 1;
        } else if code == "}" {
            depth = depth.saturating_sub(1);
        }
    }
    found
}

/// The argument-position `impl Trait` types of a generic body, in order
/// (the parser makes each a one-segment path named by its text).
pub(super) fn impl_trait_params(b: &Body) -> Vec<String> {
    let mut out = Vec::new();
    for k in 1..=b.arg_count as usize {
        if let Some(Some(l)) = b.locals.get(k) {
            let mut t = &l.ty;
            while let Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } = t {
                t = pointee;
            }
            if let Ty::Adt(p) = t {
                if p.qself.is_none() && p.segments.len() == 1 && p.segments[0].name.starts_with("impl ") {
                    out.push(p.segments[0].name.clone());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closure_captures_nothing_only_when_its_debug_lines_are_parameters() {
        let body = |debug: &str| format!("fn k::{{closure#0}}(_1: &{{closure@a.rs:7:18: 7:26}}, _2: (u64, u8)) -> u64 {{\n    debug v => _2;\n{debug}    let mut _0: u64;\n\n    bb0: {{\n        _0 = copy (_2.0: u64);\n        return;\n    }}\n}}\n");
        assert!(body_captures_nothing(&body(""), 2));
        // a debug line of an inner scope (inside its `scope N {` block)
        // is not a capture's
        assert!(body_captures_nothing(&body("    debug a => (_2.1: u8);\n    scope 1 {\n        debug inner => const 3_u64;\n    }\n"), 2));
        // core's cached MIR indents every level by one space
        assert!(body_captures_nothing(&body(" debug a => (_2.1: u8);\n scope 1 { // at x.rs:1:1: 1:2\n debug inner => const 3_u64; // in scope 1\n }\n"), 2));
        assert!(!body_captures_nothing(&body(" debug z => const []; // in scope 0\n"), 2));
        // a captured `[u64; 0]` whose read was optimized away
        assert!(!body_captures_nothing(&body("    debug z => const [];\n"), 2));
        assert!(!body_captures_nothing(&body("    debug r => (*((*_1).0: &u64));\n"), 2));
        assert!(!body_captures_nothing(&body("    debug w => _3;\n"), 2));
        // a library's compact text: every debug line counts, at any depth
        let compact = |debug: &str| format!("fn k::{{closure#0}}(_1: &mut {{closure@a.rs:7:18: 7:26}}, _2: usize) -> u8 {{\n{debug} let mut _0: u8;\n bb0: {{\n _0 = const 0_u8;\n return;\n }}\n}}\n");
        assert!(library_body_captures_nothing(&compact(""), 2));
        assert!(library_body_captures_nothing(&compact(" debug i => _2;\n"), 2));
        assert!(!library_body_captures_nothing(&compact(" debug inner => const 3_u64;\n"), 2));
        assert!(!library_body_captures_nothing(&compact(" debug k => (*((*_1).0: &u8));\n"), 2));
    }

    #[test]
    fn impl_headers_lose_const_and_attributes() {
        assert_eq!(plain_impl_header("const impl<T, A: [const] Allocator + [const] Destruct> RawVec<T, A>"), "impl<T, A: Allocator + Destruct> RawVec<T, A>");
        assert_eq!(plain_impl_header("unsafe impl<#[may_dangle] T, A: Allocator> Drop for Vec<T, A>"), "impl<T, A: Allocator> Drop for Vec<T, A>");
    }
}

/// An impl header as the impl matching reads it: without `unsafe`, without
/// `const` before `impl` (alloc's `const impl<T, A: [const] Allocator>
/// RawVec<T, A>`), without the `[const]` of its bounds and the
/// `#[may_dangle]` of its parameters (`unsafe impl<#[may_dangle] T, A:
/// Allocator> Drop for Vec<T, A>`).
fn plain_impl_header(header: &str) -> String {
    let h = header.strip_prefix("unsafe ").unwrap_or(header);
    let h = h.strip_prefix("const ").unwrap_or(h);
    h.replace("[const] ", "").replace("#[may_dangle] ", "")
}

/// core::fmt's machinery: `core::fmt::write`, `Formatter`'s methods, and
/// core's `Display`/`Debug` impls, read from core's MIR when it is there.
fn is_fmt_path(path: &Path) -> bool {
    let text = path.to_string();
    path.bare().starts_with("core::fmt::") || text.contains(" as core::fmt::")
}

/// Whether a call in `body` other than a panic entry takes a
/// `core::fmt::Arguments` (`core::fmt::write`, `Write::write_fmt`, a user
/// function), or the body returns one: then its formatting functions may
/// run, and pointers to them must be real.
fn formats_beyond_panics(body: &Body) -> bool {
    let mentions = |ty: &Ty| ty.to_string().contains("core::fmt::Arguments");
    let local_ty = |op: &Operand| match op {
        Operand::Copy(p) | Operand::Move(p) => body.locals.get(p.local as usize).and_then(Option::as_ref).map(|l| &l.ty),
        Operand::Const(_) => None,
    };
    mentions(&body.ret_ty)
        || body.blocks.iter().any(|b| match &b.terminator.kind {
            TerminatorKind::Call { callee, args, .. } => {
                let panic = matches!(callee, Callee::Path(p) if super::callee::is_panic_entry(&p.bare()));
                !panic && args.iter().filter_map(local_ty).any(mentions)
            }
            _ => false,
        })
}
