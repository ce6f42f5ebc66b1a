//! Trait objects: the vtables of unsize coercions (`&S as &dyn T`) and
//! calls through them (`<dyn T as Tr>::m(move _1, ..)`).
//!
//! rustc's vtable layout is asked through a probe (vtable.rs): the text of
//! the MIR names a call's method but not its slot. Each (concrete type,
//! trait object type) pair that a coercion in the exported code makes is
//! one entry of the document's `"vtables"`: the concrete type's size and
//! alignment and, slot by slot, the function that implements each method
//! (an impl's method, an instance of the trait's default method, a
//! closure's body); the coercion names its vtable, the call its slot.
//! Export order: the bodies first, then the probe of every trait object
//! type met, then the methods, whose bodies are exported in turn (and
//! may coerce more); slots are filled in once every vtable is known. A
//! `TraitVPtr` word of rustc's layout is the concrete type's vtable as
//! that supertrait's object, made like any other (upcast.rs loads it).

use super::body::Ctx;
use super::callee::fn_trait_call;
use super::mono;
use super::Exporter;
use crate::diag::{Code, DResult, Diag};
use crate::json::Json;
use crate::mirparse::ast::{Body, BodyKind, Operand, Path, Place, SrcSpan, Ty};
use crate::mirparse::items::parse_span;
use crate::mirparse::parser::parse_str;
use crate::obj;
use crate::vtable::{same_trait, Entry};

/// A vtable some coercion needs: `concrete` as `dyn_`.
pub(super) struct VtableReq {
    pub(super) concrete: Ty,
    pub(super) dyn_: String,
    concrete_ty: usize,
    dyn_ty: usize,
    /// Where the (first) coercion is, for errors and for resolving methods.
    body: String,
    scope: u32,
    span: Option<&'static SrcSpan>,
    /// Per word, what it holds. `None` until filled.
    slots: Option<Vec<Word>>,
}

impl VtableReq {
    /// Word `k`, once the vtable is filled.
    pub(super) fn word(&self, k: usize) -> Option<&Word> {
        self.slots.as_ref().and_then(|s| s.get(k))
    }

    /// Sets word `k` of a filled vtable (dyn_drop.rs: the drop word).
    pub(super) fn set_word(&mut self, k: usize, w: Word) {
        if let Some(s) = self.slots.as_mut().and_then(|s| s.get_mut(k)) {
            *s = w;
        }
    }
}

/// One word of a vtable, once resolved.
pub(super) enum Word {
    /// size, align (oxidec writes them); drop_in_place of a type
    /// without drop glue, or one no drop reads (null; dyn_drop.rs).
    Meta,
    /// A method's function, by its symbol.
    Fn(String),
    /// The address of vtable `K` of the document (rustc's `TraitVPtr`:
    /// the concrete type's vtable as a supertrait's object).
    Vtable(usize),
    /// No function: why (a call that may use the word is refused).
    Missing(String),
}

/// A call through a vtable, waiting for its slot.
pub(super) struct VirtualCall {
    dyn_: String,
    trait_: String,
    method: String,
    loc: String,
}

/// `&dyn T`, `&mut dyn T`, `*const dyn T`, `Box<dyn T>`: `dyn T`.
pub(super) fn dyn_pointee(t: &Ty) -> Option<&str> {
    match box_pointee(t).or(match t {
        Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => Some(&**pointee),
        _ => None,
    }) {
        Some(Ty::Dyn(d)) => Some(d.as_str()),
        _ => None,
    }
}

/// `T` of alloc's `Box<T>` (`Box<T, A>`).
fn box_pointee(t: &Ty) -> Option<&Ty> {
    let Ty::Adt(p) = t else { return None };
    if p.bare() != "alloc::boxed::Box" {
        return None;
    }
    p.type_args().find_map(|a| match a {
        crate::mirparse::ast::GenericArg::Type(t) => Some(t),
        _ => None,
    })
}

/// `core::ops::Fn<(u32,)>` & co.
fn is_fn_trait(trait_: &str) -> bool {
    ["core::ops::Fn<", "core::ops::FnMut<", "core::ops::FnOnce<"].iter().any(|p| trait_.starts_with(p))
}

impl<'a> Exporter<'a> {
    /// Whether `rv`'s cast is an unsize coercion to a trait object.
    pub(super) fn is_dyn_coercion(kind: &str, ty: &Ty) -> bool {
        kind.starts_with("PointerCoercion(Unsize") && dyn_pointee(ty).is_some()
    }

    /// The index of the vtable of the coercion of `operand` to `ty`
    /// (a pointer to a trait object), registered on first use.
    pub(super) fn coercion_vtable(&mut self, operand: &Operand, ty: &Ty, ctx: Ctx) -> DResult<usize> {
        let dyn_ = dyn_pointee(ty).expect("is_dyn_coercion").to_string();
        let from = self.operand_ty(operand, ctx)?;
        let concrete = match (&from, box_pointee(&from)) {
            (_, Some(t)) => t.clone(),
            (Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. }, None) => (**pointee).clone(),
            _ => return Err(self.err(ctx, Code::Unsupported, format!("unsizing `{from}` to `{ty}` is not supported (only references, raw pointers and boxes become trait objects)"))),
        };
        if let Ty::Dyn(d) = &concrete {
            return Err(self.err(ctx, Code::Unsupported, format!(
                "trait upcasting (`{d}` to `{dyn_}`) is not supported: it needs the supertrait's vtable inside \
                 the subtrait's; call the method through `{d}` instead"
            )));
        }
        let fn_trait = ["dyn core::ops::Fn(", "dyn core::ops::FnMut(", "dyn core::ops::FnOnce("].iter().any(|p| dyn_.starts_with(p));
        if fn_trait && !matches!(concrete, Ty::Closure(_)) {
            return Err(self.err(ctx, Code::Unsupported, format!(
                "`{concrete}` as a `{dyn_}` trait object is not supported (only closures are); wrap it in a closure"
            )));
        }
        self.vtable_of(concrete, dyn_, ctx)
    }

    /// The index of the vtable of `concrete` as `dyn_`, registered on first
    /// use (`ctx`: where it is first needed).
    fn vtable_of(&mut self, concrete: Ty, dyn_: String, ctx: Ctx) -> DResult<usize> {
        if let Some(i) = self.vtables.iter().position(|v| v.concrete == concrete && v.dyn_ == dyn_) {
            return Ok(i);
        }
        let concrete_ty = self.ty(&concrete, ctx)?;
        // a closure built as a zero-sized constant (no aggregate says what
        // it captures): `()` when its body reads no capture
        if let Ty::Closure(c) = &concrete {
            if self.types.get(concrete_ty).upvars.is_none() && self.closure_captures_nothing(c) {
                self.types.entries[concrete_ty].upvars = Some(Vec::new());
            }
        }
        let dyn_ty = self.ty(&Ty::Dyn(dyn_.clone()), ctx)?;
        let span = ctx.span.map(|s| &*Box::leak(Box::new(s.clone())));
        self.vtables.push(VtableReq {
            concrete,
            dyn_,
            concrete_ty,
            dyn_ty,
            body: ctx.body.name.clone(),
            scope: ctx.scope,
            span,
            slots: None,
        });
        Ok(self.vtables.len() - 1)
    }

    /// `<dyn T as Tr>::m(self, args..)`: callee kind `virtual`, its slot
    /// filled in by `finish_vtables` (the `"slot"` holds the index of the
    /// pending call until then). `Fn*` calls spread their argument tuple,
    /// as the closure bodies take the arguments one by one.
    pub(super) fn virtual_call_json(
        &mut self,
        dest: &Place,
        path: &Path,
        dyn_: &str,
        args: &[Operand],
        target: Option<u32>,
        ctx: Ctx,
    ) -> DResult<Json> {
        let q = path.qself.as_ref().expect("a qualified path");
        let trait_ = q.trait_.as_ref().map(|t| t.to_string()).unwrap_or_default();
        let method = path.last_name().to_string();
        let mut call_args = args.to_vec();
        if fn_trait_call(path).is_some() {
            if method == "call_once" {
                return Err(self.err(ctx, Code::Unsupported, format!(
                    "calling a `{dyn_}` by value (`FnOnce::call_once` through a vtable, as `Box<dyn FnOnce>` does) \
                     is not supported; call it through `&dyn Fn` or `&mut dyn FnMut`"
                )));
            }
            call_args = self.spread_fn_call_args(&q.self_ty, args, ctx)?;
        }
        match call_args.first() {
            Some(a) if dyn_pointee(&self.operand_ty(a, ctx)?).is_some() => {}
            _ => return Err(self.err(ctx, Code::Unsupported, format!(
                "the call to `{path}` does not take the trait object by reference; only `&self` and `&mut self` \
                 methods can be called through a vtable"
            ))),
        }
        let loc = self.loc(ctx.body, ctx.scope, ctx.span);
        self.vcalls.push(VirtualCall { dyn_: dyn_.to_string(), trait_, method, loc });
        Ok(obj![
            "kind" => "call",
            "callee" => obj!["kind" => "virtual", "method" => path.to_string(), "slot" => self.vcalls.len() - 1],
            "args" => self.operands_json(&call_args, ctx)?,
            "dest" => self.place_json(dest, ctx)?.0,
            "target" => target,
        ])
    }

    /// Probes the vtables, resolves their methods (exporting the bodies
    /// they reach, which may coerce more), then gives every virtual call
    /// its slot.
    pub(super) fn finish_vtables(&mut self, kernels: &[String], probe: &mut super::VtableProbe) -> DResult<()> {
        loop {
            let mut want: Vec<String> = Vec::new();
            let upcast_dyns = self.upcasts.iter().flat_map(|u| [&u.from, &u.to]);
            for d in self.vtables.iter().map(|v| &v.dyn_).chain(self.vcalls.iter().map(|c| &c.dyn_)).chain(upcast_dyns) {
                if !self.vt_layouts.contains_key(d) && !want.contains(d) {
                    want.push(d.clone());
                }
            }
            // (one alias rustc cannot resolve would cost every dump)
            for d in want.iter().filter(|d| Ty::Dyn((*d).clone()).is_unnameable()) {
                self.vt_layouts.insert(d.clone(), Err("its type cannot be named in a probe".into()));
            }
            want.retain(|d| !self.vt_layouts.contains_key(d));
            if !want.is_empty() {
                for (d, r) in want.iter().zip(probe(&want)?) {
                    self.vt_layouts.insert(d.clone(), r);
                }
            }
            let todo: Vec<usize> = (0..self.vtables.len()).filter(|&i| self.vtables[i].slots.is_none()).collect();
            // (a drop word's glue, once exported, may coerce or drop more)
            let drop_words = self.fill_drop_words()?;
            if todo.is_empty() && !drop_words {
                break;
            }
            for i in todo {
                let slots = self.vtable_slots(i)?;
                self.vtables[i].slots = Some(slots);
            }
            self.export_bodies(kernels)?;
        }
        self.resolve_upcasts()?;
        self.patch_upcasts();
        self.check_dyn_drops()?;
        self.fill_slots()
    }

    pub(super) fn vtable_ctx(&self, i: usize) -> Ctx<'a> {
        let v = &self.vtables[i];
        let body: &'a Body = self.bodies[v.body.as_str()];
        Ctx { body, scope: v.scope, span: v.span, const_comments: &[] }
    }

    /// What every word of vtable `i` holds; a `TraitVPtr` word registers
    /// the concrete type's vtable as that supertrait's object.
    fn vtable_slots(&mut self, i: usize) -> DResult<Vec<Word>> {
        let ctx = self.vtable_ctx(i);
        let (concrete, dyn_) = (self.vtables[i].concrete.clone(), self.vtables[i].dyn_.clone());
        // Without rustc's layout the vtable has only its metadata words
        // (size_of_val, align_of_val); a call through it is refused
        // (fill_slots). So a `&dyn Debug` that only reaches a panic needs
        // no more.
        let entries = match &self.vt_layouts[&dyn_] {
            Ok(e) => e.clone(),
            Err(_) => vec![Entry::DropInPlace, Entry::Size, Entry::Align],
        };
        let mut slots = Vec::new();
        for e in &entries {
            slots.push(match e {
                Entry::DropInPlace | Entry::Size | Entry::Align => Word::Meta,
                Entry::Vacant => Word::Missing("rustc leaves this slot vacant".into()),
                Entry::TraitVPtr(t) => Word::Vtable(self.vtable_of(concrete.clone(), format!("dyn {t}"), ctx)?),
                Entry::Method { trait_, name } => match self.slot_function(&concrete, trait_, name, ctx)? {
                    Ok(f) => Word::Fn(f),
                    Err(why) => Word::Missing(why),
                },
            });
        }
        Ok(slots)
    }

    /// Whether a vtable word is a formatting method (`Debug::fmt`,
    /// `Display::fmt`, ..., not `Write`'s) whose body is core's or a
    /// dependency's rather than the kernel crate's. Exporting it eagerly
    /// would pull core's formatting into every kernel that can panic with
    /// a `&dyn Debug`; a call that reaches it is refused (`fill_slots`).
    fn library_formatting_slot(&self, path: &Path, trait_: &str) -> bool {
        let formatting = trait_.starts_with("core::fmt::") && !trait_.starts_with("core::fmt::Write");
        let bodies = &self.bodies;
        let has_body = |n: &str| bodies.get(n).is_some_and(|b| b.kind == BodyKind::Fn);
        formatting && self.callees.resolve(path, false, &has_body).is_err()
    }

    /// The function implementing `trait_::name` for `concrete`, or why
    /// there is none (a slot that no exported call may then use).
    fn slot_function(&mut self, concrete: &Ty, trait_: &str, name: &str, ctx: Ctx<'a>) -> DResult<Result<String, String>> {
        if is_fn_trait(trait_) {
            if name == "call_once" {
                return Ok(Err("`call_once` takes the closure by value".into()));
            }
            let Ty::Closure(c) = concrete else {
                return Err(self.err(ctx, Code::Unsupported, format!(
                    "`{concrete}` as a `dyn {}` trait object is not supported (only closures are); wrap it in a closure",
                    trait_.split('<').next().unwrap_or(trait_)
                )));
            };
            let body = self.callees.closure_body(c).map(str::to_string);
            let body = body.ok_or_else(|| self.err(ctx, Code::Unsupported, format!("the closure `{c}` has no body in rustc's MIR")))?;
            self.enqueue(&body);
            return Ok(Ok(self.symbol(&body)));
        }
        if is_any_trait(trait_) && name == "type_id" {
            let body = self.any_type_id_body(concrete, ctx)?;
            self.enqueue(&body);
            return Ok(Ok(self.symbol(&body)));
        }
        let text = format!("<{concrete} as {trait_}>::{name}");
        let path = match parse_str(&text, |p| p.path(true)) {
            Ok(p) => p,
            Err(e) => return Ok(Err(format!("`{text}` does not parse: {e}"))),
        };
        if self.library_formatting_slot(&path, trait_) {
            return Ok(Err(format!(
                "`{text}` is core's formatting, exported only for calls that format (a vtable that only reaches a \
                 panic, `unwrap`'s `&dyn Debug`, keeps this word empty)"
            )));
        }
        let body = match self.fn_item_body(&path, ctx) {
            Ok(b) if self.is_generic_impl_item(&b) => {
                return Ok(Err(format!(
                    "it is a method of a generic impl (`impl<..>`), which rustc prints only generically and \
                     mir-export does not instantiate; implement the trait for `{concrete}` itself"
                )))
            }
            Ok(b) => b,
            Err(d) => match self.default_method(concrete, trait_, name, &text, ctx)? {
                Ok(Some(b)) => b,
                Ok(None) => return Ok(Err(d.msg.clone())),
                Err(why) => return Ok(Err(why)),
            },
        };
        self.enqueue(&body);
        Ok(Ok(self.symbol(&body)))
    }

    /// `<T as core::any::Any>::type_id`, the body of core's blanket impl
    /// (`impl<T: 'static + ?Sized> Any for T { fn type_id(&self) -> TypeId
    /// { TypeId::of::<T>() } }`, the same in 1.95 and 1.96), written as MIR
    /// text for `concrete`: the kernel crate's MIR has no body of core's,
    /// and the constant is asked of rustc like any other (reflect.rs).
    fn any_type_id_body(&mut self, concrete: &Ty, ctx: Ctx<'a>) -> DResult<String> {
        let name = format!("<{concrete} as core::any::Any>::type_id");
        if self.bodies.contains_key(name.as_str()) {
            return Ok(name);
        }
        let span = match ctx.body.locals.first().and_then(|l| l.as_ref()).and_then(|l| l.span.as_ref()) {
            Some(s) => format!(" // scope 0 at {s}"),
            None => String::new(),
        };
        let text = format!(
            "fn __oxide_any_type_id(_1: &{concrete}) -> core::any::TypeId {{\n    let mut _0: core::any::TypeId;\n\n    \
             bb0: {{\n        _0 = const core::any::TypeId::of::<{concrete}>::{{constant#0}};{span}\n        return;{span}\n    }}\n}}\n"
        );
        let file = crate::mirparse::items::parse_mir_file(&text)
            .map_err(|e| self.err(ctx, Code::Export, format!("the body of `{name}` does not parse: {}", e.msg)))?;
        let mut body = file.bodies.into_iter().next().ok_or_else(|| self.err(ctx, Code::Export, "no `type_id` body"))?;
        body.name = name.clone();
        let body: &'a Body = Box::leak(Box::new(body));
        let key: &'a str = Box::leak(name.clone().into_boxed_str());
        self.bodies.insert(key, body);
        Ok(name)
    }

    /// `m::<impl at src/lib.rs:9:1: 9:40>::f` where the impl's header at
    /// that span reads `impl<..>`.
    fn is_generic_impl_item(&self, body: &str) -> bool {
        let Some(at) = body.find("<impl at ") else { return false };
        let Some((span, _)) = body[at + "<impl at ".len()..].split_once(">::") else { return false };
        let text = parse_span(span).and_then(|s| self.spans.source_text(&s));
        text.is_some_and(|t| t.trim_start().starts_with("impl<"))
    }

    /// The trait's default body of `name` (`Shape::scale`, generic over
    /// `Self`) instantiated for `concrete`, when the trait has one.
    /// `Ok(None)`: the trait has no default body of that name; `Err`: why
    /// it cannot be made (then only a call of that slot is an error).
    fn default_method(&mut self, concrete: &Ty, trait_: &str, name: &str, inst: &str, ctx: Ctx<'a>) -> DResult<Result<Option<String>, String>> {
        if self.bodies.contains_key(inst) {
            return Ok(Ok(Some(inst.to_string())));
        }
        let bare = trait_.trim_start_matches("crate::");
        let generic = format!("{}::{name}", bare.split('<').next().unwrap_or(bare));
        if !self.bodies.contains_key(generic.as_str()) {
            return Ok(Ok(None));
        }
        if trait_.contains('<') {
            return Ok(Err(format!(
                "mir-export cannot instantiate the default method `{generic}` of the generic trait `{trait_}` for \
                 `{concrete}`; implement `{name}` in the impl"
            )));
        }
        let body = mono::instantiate(self.input.mir_text, &generic, &["Self".to_string()], &[concrete.to_string()], inst)
            .map_err(|m| self.err(ctx, Code::Unsupported, format!("the default method `{generic}` for `{concrete}`: {m}")))?;
        let body: &'a Body = Box::leak(Box::new(body));
        let key: &'a str = Box::leak(inst.to_string().into_boxed_str());
        self.bodies.insert(key, body);
        Ok(Ok(Some(inst.to_string())))
    }

    /// Each virtual call's slot: the word of rustc's vtable holding its
    /// method, which every vtable of that trait object type must fill.
    fn fill_slots(&mut self) -> DResult<()> {
        let mut slots = Vec::new();
        for c in &self.vcalls {
            let Some(Ok(entries)) = self.vt_layouts.get(&c.dyn_) else {
                let why = match self.vt_layouts.get(&c.dyn_) {
                    Some(Err(w)) => w.clone(),
                    _ => "not probed".into(),
                };
                return Err(Diag::at(c.loc.clone(), Code::Export, format!("cannot learn rustc's vtable layout of `{}`: {why}", c.dyn_)));
            };
            let found: Vec<usize> = entries
                .iter()
                .enumerate()
                .filter(|(_, e)| matches!(e, Entry::Method { trait_, name } if *name == c.method && same_trait(trait_, &c.trait_)))
                .map(|(k, _)| k)
                .collect();
            let [k] = found.as_slice() else {
                return Err(Diag::at(c.loc.clone(), Code::Export, format!(
                    "cannot tell which slot of rustc's vtable of `{}` holds `<{} as {}>::{}` ({} candidates)",
                    c.dyn_, c.dyn_, c.trait_, c.method, found.len()
                )));
            };
            for v in self.reaching_vtables(&c.dyn_).into_iter().map(|i| &self.vtables[i]) {
                let why = match v.word(*k) {
                    Some(Word::Fn(_)) => continue,
                    Some(Word::Missing(why)) => why.clone(),
                    _ => format!("word {k} of its vtable as `{}` is no method", v.dyn_),
                };
                return Err(Diag::at(c.loc.clone(), Code::Unsupported, format!(
                    "the call of `{}` through `{}` may reach `<{} as {}>::{}`, which cannot be exported: {why}",
                    c.method, c.dyn_, v.concrete, c.trait_, c.method
                )));
            }
            slots.push(*k);
        }
        for f in &mut self.functions {
            patch_slots(f, &slots);
        }
        Ok(())
    }

    /// The document's `"vtables"` (after the layout probe: sizes and
    /// alignments are the concrete types').
    pub(super) fn vtables_json(&self) -> DResult<Json> {
        let mut out = Vec::new();
        for (i, v) in self.vtables.iter().enumerate() {
            let Some(layout) = self.types.get(v.concrete_ty).layout.as_ref() else {
                let why = self.types.get(v.concrete_ty).layout_error.clone().unwrap_or_else(|| "rustc cannot be asked about it".into());
                let ctx = self.vtable_ctx(i);
                return Err(self.err(ctx, Code::Export, format!(
                    "cannot learn the layout of `{}` for its vtable as `{}`: {why}", v.concrete, v.dyn_
                )));
            };
            let slots = v.slots.as_ref().expect("vtables are filled before the document");
            let entries: Vec<Json> = slots
                .iter()
                .map(|w| match w {
                    Word::Fn(f) => Json::from(f.as_str()),
                    Word::Vtable(k) => obj!["vtable" => *k],
                    Word::Meta | Word::Missing(_) => Json::Null,
                })
                .collect();
            // the supertrait objects it is also reached as, by upcasts
            let also = self.also_of(i);
            let mut j = obj![
                "ty" => v.concrete_ty,
                "dyn" => v.dyn_ty,
                "size" => layout.size.to_string(),
                "align" => layout.align as u32,
                "entries" => entries,
            ];
            if !also.is_empty() {
                if let Json::Obj(fields) = &mut j {
                    fields.push(("also".into(), Json::Arr(also.into_iter().map(|t| Json::from(t as u32)).collect())));
                }
            }
            out.push(j);
        }
        Ok(Json::Arr(out))
    }
}

/// Replaces each virtual callee's pending index by its slot.
fn patch_slots(j: &mut Json, slots: &[usize]) {
    match j {
        Json::Arr(items) => items.iter_mut().for_each(|x| patch_slots(x, slots)),
        Json::Obj(fields) => {
            let is_virtual = fields.iter().any(|(k, v)| k == "kind" && *v == Json::from("virtual"));
            for (k, v) in fields.iter_mut() {
                if is_virtual && k == "slot" {
                    if let Json::Int(n) = v {
                        *v = Json::from(slots[*n as usize] as u32);
                    }
                } else {
                    patch_slots(v, slots);
                }
            }
        }
        _ => {}
    }
}

/// `core::any::Any` as the vtable dump prints it.
fn is_any_trait(trait_: &str) -> bool {
    matches!(trait_, "core::any::Any" | "Any" | "any::Any")
}
