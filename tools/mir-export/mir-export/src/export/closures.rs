//! Closures of a library called through `Fn*`: core's iterator adapters
//! build closures in one generic body and call them from another
//! (`map_try_fold` makes one that `try_fold` calls through `FnMut`).
//! When rustc's inliner stops between the two, the kernel's MIR has
//! `<{closure@core::iter::adapters::map::map_try_fold<'_, A, ..>::{closure#0}}
//! as FnMut<(u64, (u64, &u64))>>::call_mut(..)`: the closure named by its
//! parent function's path and generic arguments. Its body is the
//! library's `PARENT::{closure#N}`, instantiated with the parent's
//! parameters bound to those arguments (mono.rs), its own type (printed
//! by its span in the library's MIR) renamed to the kernel's spelling.
//! Its captures (the layout) come, as for the crate's own closures, from
//! the aggregate that builds it.

use crate::diag::{Code, DResult};
use crate::mirparse::ast::{Path, Ty};

use super::body::Ctx;
use super::{mono, Exporter};

impl<'a> Exporter<'a> {
    /// The body (its name) of library closure type `closure`, made a body
    /// of the export; None when the type is not a library closure named by
    /// a function's path (a span, a closure's closure).
    pub(super) fn library_closure(&mut self, closure: &str, ctx: Ctx) -> DResult<Option<String>> {
        if let Some(b) = self.callees.closure_body(closure) {
            return Ok(Some(b.to_string()));
        }
        let Some(g) = self.closure_generics(closure, ctx)? else { return Ok(None) };
        let fail = |why: String| format!("{}'s closure `{closure}` could not be instantiated ({why})", g.lib.krate());
        let Some(text) = g.lib.body_text(&g.key) else { return Ok(None) };
        let own = super::body::text_fn_name(&text).ok_or_else(|| self.err(ctx, Code::Export, fail("no `fn` line".into())))?;
        let text = mono::substitute(&text, &own, &g.params, &g.args).map_err(|m| self.err(ctx, Code::Unsupported, fail(m)))?;
        let Some(spelled) = own_closure_type(&text) else { return Err(self.err(ctx, Code::Unsupported, fail("its first parameter is not its closure".into()))) };
        let text = text.replace(&spelled, closure);
        let text = self.normalize_projections(&text, ctx)?;
        let inst = g.inst;
        self.add_instance_text(&text, &inst, &fail, ctx)?;
        self.callees.add_closure(closure, &inst);
        Ok(Some(inst))
    }

    /// The captured types of library closure `closure` (named by its
    /// parent's path), from the aggregate that builds it in its parent's
    /// body, instantiated with the parent's arguments (`key`'s `{closure@..}
    /// { f: move _1 }` of `min_by_key::key<&u64, u64, F>`: `[F]`). None when
    /// the closure is not named by path, or its parent builds it other than
    /// by one aggregate of locals.
    /// Any failure to instantiate the parent leaves them unknown (the
    /// closure then has no layout, and a local of it is the clear error).
    pub(super) fn library_closure_captures(&mut self, closure: &str, ctx: Ctx) -> Option<Vec<Ty>> {
        let g = self.closure_generics(closure, ctx).ok()??;
        let (Some(own_text), Some(parent_text)) = (g.lib.body_text(&g.key), g.lib.body_text(&g.name)) else { return None };
        // the closure's type as its library prints it: its body's first
        // parameter (generic: no argument is substituted into a span)
        let spelled = own_closure_type(&own_text)?;
        let parent_fn = super::body::text_fn_name(&parent_text)?;
        let text = mono::substitute(&parent_text, &parent_fn, &g.params, &g.args).ok()?;
        let text = self.normalize_projections(&text, ctx).ok()?;
        let parent = mono::parse_instance(&text, &g.full).ok()?;
        aggregate_captures(&parent, &spelled).or_else(|| zero_sized_captures(&text, &own_text, &spelled)).or_else(|| {
            // no aggregate builds it (generic_array's `generate(|_|
            // T::default())`: inlined, the zero-sized closure is never
            // assigned): it captures nothing when its body says so
            let own = crate::mirparse::parse_mir_file(&own_text).ok()?.bodies.into_iter().next()?;
            super::body::library_body_captures_nothing(&own_text, own.arg_count as usize).then(Vec::new)
        })
    }

    /// A library closure's parent function, its library and the parent's
    /// generic parameters bound to the arguments that `closure` names.
    fn closure_generics(&mut self, closure: &str, ctx: Ctx) -> DResult<Option<ClosureGenerics<'a>>> {
        let Some((parent, n)) = closure_parent(closure) else { return Ok(None) };
        let Ok(Ty::Adt(path)) = crate::mirparse::parser::parse_str(parent, |p| p.ty()) else { return Ok(None) };
        // the parent function's generic arguments are its last segment's
        let own_args = Path { qself: None, segments: path.segments.last().cloned().into_iter().collect() };
        // the parent's impl's parameters and their types, when the parent
        // is a trait impl's method (`<CoreWrapper<T> as Update>::update`)
        let (lib, name, full, mut params, mut args) = match (&path.qself, trait_impl_segment(&path)) {
            // a trait impl's method in a module, as rustc names a closure's
            // parent there (`generic_array::impls::<impl Default for
            // GenericArray<T, N>>::default`): that impl in the module's crate
            (None, Some((k, method, rest))) => {
                let module = Path { qself: None, segments: path.segments[..k].to_vec() }.bare();
                let Some(krate) = self.input.library.crate_key(&module).map(str::to_string) else { return Ok(None) };
                let Some(Ok(lib)) = self.input.library.get(&krate) else { return Ok(None) };
                let Some(found) = self.impl_method_parent(lib, &method, rest, ctx)? else { return Ok(None) };
                found
            }
            (None, None) => {
                let bare = path.bare();
                let Some((Ok(lib), name)) = self.input.library.for_path(&bare) else { return Ok(None) };
                match lib.body_text(name) {
                    Some(_) => (lib, name.to_string(), bare, Vec::new(), Vec::new()),
                    // an inherent impl's method (`NeverShortCircuit<u64>::
                    // wrap_mut_2`): under that impl, its parameters bound
                    None => {
                        let Some((cand, impl_params, impl_args)) = self.library_inherent_pick(lib, &path, ctx)? else { return Ok(None) };
                        let name = crate::library::undup(&cand).to_string();
                        let full = format!("{}::{name}", lib.krate());
                        (lib, name, full, impl_params, impl_args)
                    }
                }
            }
            // a fn nested in an impl's method (`<TakeWhile<I, P> as
            // Iterator>::try_fold::check`): under that method's impl
            (Some(q), _) => {
                // the impl is in the trait's crate, as the kernel spells it
                // (`sha2::digest` of `sha2::digest::Update`), or in the self
                // type's (sha2's `impl VariableOutputCore for Sha512VarCore`)
                let libs = self.input.library;
                let trait_crate = q.trait_.as_ref().map(|t| t.bare()).and_then(|t| libs.crate_key(&t).map(str::to_string));
                let mut crates: Vec<String> = trait_crate.into_iter().chain(super::impls::self_type_crate_in(libs, &q.self_ty)).collect();
                crates.dedup();
                let Some(first) = path.segments.first() else { return Ok(None) };
                let method = Path { qself: path.qself.clone(), segments: vec![first.clone()] };
                let mut found = None;
                for krate in &crates {
                    let Some(Ok(lib)) = libs.get(krate) else { continue };
                    found = self.impl_method_parent(lib, &method, &path.segments[1..], ctx)?;
                    if found.is_some() {
                        break;
                    }
                }
                let Some(found) = found else { return Ok(None) };
                found
            }
        };
        let fail = |why: String| format!("{}'s closure `{closure}` could not be instantiated ({why})", lib.krate());
        let key = format!("{name}::{{closure#{n}}}");
        if lib.body_text(&key).is_none() {
            return Ok(None);
        }
        let parent_body = match lib.body(&name, &full) {
            Some(Ok(b)) => b,
            Some(Err((code, m))) => return Err(self.err(ctx, code, fail(m))),
            None => return Err(self.err(ctx, Code::Unsupported, fail(format!("{}'s MIR has no body `{full}`", lib.krate())))),
        };
        let sig = self.signature_source(&parent_body, 8).ok_or_else(|| self.err(ctx, Code::Unsupported, fail("its parent's source is not readable".into())))?;
        let impls = super::body::impl_trait_params(&parent_body);
        let own_call_args = mono::call_args(&own_args);
        let own_params = match mono::generic_params(&sig, path.last_name()) {
            Some(p) => p,
            None if !impls.is_empty() => Vec::new(),
            // an impl's method without parameters of its own (of a generic
            // impl, or of one for a concrete type: sha2's `<Sha512VarCore as
            // VariableOutputCore>::finalize_variable_core`)
            None if (!params.is_empty() || path.qself.is_some() || trait_impl_segment(&path).is_some()) && own_call_args.is_empty() => Vec::new(),
            None => return Err(self.err(ctx, Code::Unsupported, fail(format!("no generic parameter list after `fn {}`", path.last_name())))),
        };
        params.extend(own_params);
        params.extend(impls);
        args.extend(own_call_args);
        // `core::iter::adapters::map::map_try_fold::<'_, A, ..>::{closure#0}`
        let own_text = own_args.to_string();
        let generics = own_text.strip_prefix(path.last_name()).unwrap_or("");
        let inst = format!("{full}{}{generics}::{{closure#{n}}}", if generics.is_empty() { "" } else { "::" });
        Ok(Some(ClosureGenerics { lib, name, full, key, params, args, inst }))
    }

    /// A closure's parent under trait impl method `method` (`<Ty as
    /// Trait>::m`) of `lib`, or a fn nested in it (`rest`: `check` of
    /// `<TakeWhile<I, P> as Iterator>::try_fold::check`): its library, name
    /// there (`<impl at ..>::m::check`), full path, and the impl's
    /// parameters bound by the pick (none for a nested fn, which has
    /// generics of its own only). None when no one impl is picked.
    fn impl_method_parent(&mut self, lib: &'a crate::library::Library, method: &Path, rest: &[crate::mirparse::ast::Segment], ctx: Ctx) -> DResult<Option<ParentFn<'a>>> {
        // the impl's method, or the trait's default method with `Self` the
        // self type (`<Iter<'_, u8> as Iterator>::eq`)
        let (cand, impl_params, impl_args) = match self.library_impl_pick(lib, method, ctx)? {
            super::impls::Pick::Impl(cand, ps, args) => (crate::library::undup(&cand).to_string(), ps, args),
            super::impls::Pick::Default => match self.library_default_pick(lib, method) {
                Some(pick) => pick,
                None => return Ok(None),
            },
            super::impls::Pick::None => return Ok(None),
        };
        // a fn nested in the method has generics of its own only
        let (impl_params, impl_args) = match rest.len() {
            0 => (impl_params, impl_args),
            _ => (Vec::new(), Vec::new()),
        };
        let name = std::iter::once(cand.as_str()).chain(rest.iter().map(|s| s.name.as_str())).collect::<Vec<_>>().join("::");
        let full = format!("{}::{name}", lib.krate());
        Ok(Some((lib, name, full, impl_params, impl_args)))
    }
}

/// A closure's parent function: its library, name there, full path, and
/// the parameters of its impl with their arguments.
type ParentFn<'a> = (&'a crate::library::Library, String, String, Vec<String>, Vec<String>);

/// `m::<impl Trait for Ty>::f::rest` → (the index of the impl segment,
/// `<Ty as Trait>::f`, `rest`): a trait impl's method named in its module,
/// as rustc prints a closure's parent. None when no segment is a trait
/// impl, or nothing follows it.
fn trait_impl_segment(path: &Path) -> Option<(usize, Path, &[crate::mirparse::ast::Segment])> {
    use crate::mirparse::ast::QSelf;
    let k = path.segments.iter().position(|s| s.name.starts_with("<impl ") && s.args.is_empty())?;
    let inner = path.segments[k].name.strip_prefix("<impl ")?.strip_suffix('>')?;
    let (tr, ty) = super::callee::split_for(inner)?;
    let trait_ = match crate::mirparse::parser::parse_str(tr, |p| p.ty()).ok()? {
        Ty::Adt(t) => t,
        _ => return None,
    };
    let self_ty = crate::mirparse::parser::parse_str(ty, |p| p.ty()).ok()?;
    let method = path.segments.get(k + 1)?.clone();
    let q = QSelf { self_ty: Box::new(self_ty), trait_: Some(trait_) };
    Some((k, Path { qself: Some(Box::new(q)), segments: vec![method] }, &path.segments[k + 2..]))
}

/// What `closure_generics` finds: the library, the parent's name in it
/// (`iter::traits::iterator::Iterator::min_by_key::key`), its full path,
/// the closure body's name there, the parent's parameters and their
/// arguments, and the closure body's instance name.
struct ClosureGenerics<'a> {
    lib: &'a crate::library::Library,
    name: String,
    full: String,
    key: String,
    params: Vec<String>,
    args: Vec<String>,
    inst: String,
}

/// The operand types of the one aggregate of closure type `spelled` in
/// `parent` (locals moved or copied whole): the closure's captures. None
/// when there is no such aggregate, more than one, or an operand is a
/// constant or a projection.
fn aggregate_captures(parent: &crate::mirparse::ast::Body, spelled: &str) -> Option<Vec<Ty>> {
    use crate::mirparse::ast::{AggregateKind, Operand, Rvalue, StatementKind};
    let mut found: Vec<&Vec<Operand>> = Vec::new();
    for b in &parent.blocks {
        for s in &b.statements {
            if let StatementKind::Assign(_, Rvalue::Aggregate { kind: AggregateKind::Closure(c), fields }) = &s.kind {
                if c == spelled {
                    found.push(fields);
                }
            }
        }
    }
    let [fields] = found.as_slice() else { return None };
    fields
        .iter()
        .map(|f| match f {
            Operand::Move(p) | Operand::Copy(p) if p.proj.is_empty() => {
                parent.locals.get(p.local as usize)?.as_ref().map(|l| l.ty.clone())
            }
            _ => None,
        })
        .collect()
}

/// A closure its parent passes as `const ZeroSized: {closure@..}` (core's
/// `Iterator::eq` hands `eq_by` its closure around `PartialEq::eq` so)
/// and whose body (`own_text`) reads no capture: no captures. None
/// otherwise (a zero-sized capture may still have alignment).
fn zero_sized_captures(parent_text: &str, own_text: &str, spelled: &str) -> Option<Vec<Ty>> {
    if !parent_text.contains(&format!("const ZeroSized: {spelled}")) {
        return None;
    }
    let own = crate::mirparse::parse_mir_file(own_text).ok()?.bodies.into_iter().next()?;
    super::body::body_captures_nothing(own_text, own.arg_count as usize).then(Vec::new)
}

/// `{closure@core::iter::Iterator::find::check<A, B>::{closure#0}}` →
/// (`core::iter::Iterator::find::check<A, B>`, 0): the parent function of
/// a closure named by path. None for a closure named by its span, a
/// closure inside a closure.
fn closure_parent(closure: &str) -> Option<(&str, u32)> {
    let inner = closure.strip_prefix("{closure@")?.strip_suffix('}')?;
    let (parent, n) = inner.rsplit_once("::{closure#")?;
    let n = n.strip_suffix('}')?.parse().ok()?;
    // the path before its generic arguments (which may hold closures)
    let head = parent.split('<').next().unwrap_or(parent);
    let plain = !head.contains('{') && !head.contains(".rs:");
    plain.then_some((parent, n))
}

/// The closure type a closure body's first parameter is (or points to),
/// as its crate prints it: `{closure@/../map.rs:88:5: 88:19}` of
/// `fn ..::{closure#0}(_1: &mut {closure@/../map.rs:88:5: 88:19}, ..)`.
fn own_closure_type(text: &str) -> Option<String> {
    let header = text.lines().find(|l| l.starts_with("fn "))?;
    let first = header.split_once("(_1: ")?.1;
    let at = first.find("{closure@")?;
    // `{closure@..}`, `&{closure@..}` or `&mut {closure@..}`
    if !first[..at].replace("mut", "").replace('&', "").trim().is_empty() {
        return None;
    }
    let mut depth = 0;
    for (i, c) in first[at..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(first[at..at + i + 1].to_string());
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_a_library_closures_parent() {
        let c = "{closure@core::iter::adapters::map::map_try_fold<'_, (u64, &u64), u64, {closure@src/lib.rs:135:14: 135:22}>::{closure#0}}";
        assert_eq!(closure_parent(c), Some(("core::iter::adapters::map::map_try_fold<'_, (u64, &u64), u64, {closure@src/lib.rs:135:14: 135:22}>", 0)));
        assert_eq!(closure_parent("{closure@src/lib.rs:135:14: 135:22}"), None);
        let c = "{closure@<core::iter::TakeWhile<I, P> as core::iter::Iterator>::try_fold::check<'_, u64>::{closure#0}}";
        assert_eq!(closure_parent(c), Some(("<core::iter::TakeWhile<I, P> as core::iter::Iterator>::try_fold::check<'_, u64>", 0)));
        assert_eq!(closure_parent("{closure@core::a::f::{closure#0}::{closure#1}}"), None);
        let t = "fn core::iter::adapters::map::map_fold::{closure#0}(_1: &mut {closure@/l/core/src/iter/adapters/map.rs:88:5: 88:19}, _2: u8) -> u8 {\n";
        assert_eq!(own_closure_type(t).as_deref(), Some("{closure@/l/core/src/iter/adapters/map.rs:88:5: 88:19}"));
        assert_eq!(own_closure_type("fn f(_1: u8, _2: {closure@a.rs:1:1: 1:2}) -> u8 {\n"), None);
    }

    #[test]
    fn a_trait_impl_segment_is_a_qualified_method() {
        let c = "{closure@g::impls::<impl core::default::Default for g::GenericArray<u8, g::U<g::B1>>>::default::{closure#0}}";
        let (parent, n) = closure_parent(c).unwrap();
        assert_eq!(n, 0);
        let Ok(Ty::Adt(path)) = crate::mirparse::parser::parse_str(parent, |p| p.ty()) else { panic!("{parent}") };
        let (k, method, rest) = trait_impl_segment(&path).unwrap();
        assert_eq!((k, rest.len()), (2, 0));
        assert_eq!(method.to_string(), "<g::GenericArray<u8, g::U<g::B1>> as core::default::Default>::default");
        // a nested fn stays after the method; an inherent impl is not one
        let p = crate::mirparse::parser::parse_str("m::<impl Tr<u8> for S>::f::g", |p| p.path(false)).unwrap();
        let (_, method, rest) = trait_impl_segment(&p).unwrap();
        assert_eq!((method.to_string().as_str(), rest[0].name.as_str()), ("<S as Tr<u8>>::f", "g"));
        let p = crate::mirparse::parser::parse_str("core::slice::<impl [u8]>::len", |p| p.path(false)).unwrap();
        assert!(trait_impl_segment(&p).is_none());
    }
}
