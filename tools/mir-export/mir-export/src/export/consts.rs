//! Constants: their types and their oxide-mir `Const` form.
//!
//! Scalars become exact bit patterns; `{allocN: &T}` and string literals
//! references to allocations; `{transmute(0x..): T}` raw bytes; named
//! constants and promoteds `unevaluated` references to their bodies (which
//! are exported too); enum variants and small aggregates `adt`.

use crate::diag::{Code, DResult};
use crate::json::Json;
use crate::mirparse::ast::*;
use crate::mirparse::parser::{parse_str, parse_u128};
use crate::obj;

use super::body::Ctx;
use super::Exporter;

impl<'a> Exporter<'a> {
    /// The type of a constant operand: from its text (literals, `{..: T}`),
    /// from the `// + const_: Const { ty: T, val: Value(TEXT) }` comment
    /// with the same text, or from the item it names.
    pub(super) fn const_ty(&self, c: &Const, ctx: Ctx) -> DResult<Ty> {
        if let Some(t) = &c.ty {
            return Ok(t.clone());
        }
        let value_text = format!("Value({})", c.text);
        if let Some((ty, _)) = ctx.const_comments.iter().find(|(_, v)| *v == value_text) {
            return parse_str(ty, |p| p.ty()).map_err(|m| self.err(ctx, Code::MirParse, format!("type of constant `{}`: {m}", c.text)));
        }
        // Tuples and arrays of literals get no comment (rustc's `use_verbose`).
        let item_tys = |items: &[Const]| items.iter().map(|i| i.ty.clone()).collect::<Option<Vec<Ty>>>();
        match &c.val {
            ConstVal::Tuple(items) => {
                if let Some(tys) = item_tys(items) {
                    return Ok(Ty::Tuple(tys));
                }
            }
            ConstVal::Array(items) if !items.is_empty() => {
                if let Some(tys) = item_tys(items) {
                    return Ok(Ty::Array(Box::new(tys[0].clone()), items.len().to_string()));
                }
            }
            _ => {}
        }
        let mut why = String::new();
        if let ConstVal::Path { path, fields } = &c.val {
            if let Some((query, _)) = reflect_const(path).filter(|_| fields.is_empty()) {
                return Ok(query.ty());
            }
            if fields.is_empty() {
                if let Some(t) = self.named_const_ty(path) {
                    return Ok(t);
                }
                // a dependency trait's constant, evaluated by rustc
                if path.qself.is_some() {
                    match self.probed_const_ty(path) {
                        Ok(t) => return Ok(t),
                        Err(e) => why = format!(": {e}"),
                    }
                }
            }
        }
        Err(self.err(ctx, Code::Unsupported, format!("cannot determine the type of constant `{}`{why}", c.text)))
    }

    /// The item a constant's path names: itself, or for an associated
    /// constant (`<A as Table>::LUT`) the `<impl at ..>::LUT` item or body
    /// that defines it.
    fn const_item_name(&self, path: &Path) -> String {
        let name = path.to_string();
        if self.bodies.contains_key(name.as_str()) || self.consts.contains_key(name.as_str()) {
            return name;
        }
        // a promoted of a method called by its type (`S::m1::promoted[1]`)
        // is printed under the method's `<impl at ..>::m1`
        if let Some(last) = path.segments.last().filter(|s| s.name.starts_with("promoted[")) {
            let mut method = path.clone();
            method.segments.pop();
            if let Some(body) = self.callees.impl_method(&method) {
                let item = format!("{body}::{}", last.name);
                if self.bodies.contains_key(item.as_str()) || self.consts.contains_key(item.as_str()) {
                    return item;
                }
            }
        }
        if path.qself.is_none() {
            return name;
        }
        self.callees
            .assoc_const(path)
            .or_else(|| self.callees.impl_method(path).filter(|b| self.bodies.get(b.as_str()).is_some_and(|b| b.kind != BodyKind::Fn)))
            .unwrap_or(name)
    }

    fn named_const_ty(&self, path: &Path) -> Option<Ty> {
        let name = self.const_item_name(path);
        if let Some(b) = self.bodies.get(name.as_str()) {
            return Some(b.ret_ty.clone());
        }
        if let Some(item) = self.consts.get(name.as_str()) {
            return Some(item.ty.clone());
        }
        if path.qself.is_none() {
            let name = path.to_string();
            if let Some((Ok(lib), own)) = self.input.library.for_path(&name) {
                if let Some(t) = lib.const_type(own).and_then(|t| parse_str(&t, |p| p.ty()).ok()) {
                    return Some(t);
                }
            }
        }
        let bare = path.bare();
        if builtin_table(&bare).is_some() {
            let pair = Ty::Tuple(vec![Ty::primitive("u8")?, Ty::primitive("u8")?]);
            return Some(Ty::Array(Box::new(pair), "256".to_string()));
        }
        if let Some((_, prop)) = super::type_props::type_property(path) {
            return Some(prop.ty());
        }
        builtin_const(&bare).map(|(t, _)| t)
    }

    pub(super) fn const_json(&mut self, c: &Const, ty: &Ty, ctx: Ctx) -> DResult<Json> {
        let unsupported = |ex: &Self| ex.err(ctx, Code::Unsupported, format!("unsupported constant `{}` of type `{ty}`", c.text));
        // `Vec::new()` is a constant (an empty buffer), not a call: name
        // the heap type, not the first of its fields that a constant
        // cannot carry
        if let Some(heap) = heap_type(ty).filter(|_| !self.has_global_allocator()) {
            return Err(self.err(ctx, Code::Gpu, format!(
                "heap allocation on the GPU: `{heap}` (a value of type `{ty}`) needs a global allocator and alloc's own MIR: {}",
                super::heap::HEAP_HINT
            )));
        }
        if let ConstVal::Float(text) = &c.val {
            if matches!(text.as_str(), "NaN" | "-NaN" | "+NaN") {
                return Err(self.err(ctx, Code::Export, unknown_nan(&c.text)));
            }
        }
        Ok(match &c.val {
            ConstVal::Int { .. } | ConstVal::Float(_) | ConstVal::Bool(_) | ConstVal::Char(_) => {
                scalar_json(&c.val, ty).ok_or_else(|| unsupported(self))?
            }
            ConstVal::Str(bytes) => {
                let id = self.string_alloc(bytes);
                obj!["kind" => "ref", "alloc" => id, "offset" => "0", "meta" => bytes.len().to_string()]
            }
            ConstVal::ByteStr(bytes) => {
                let id = self.string_alloc(bytes);
                obj!["kind" => "ref", "alloc" => id, "offset" => "0", "meta" => Json::Null]
            }
            ConstVal::Alloc { id, offset } => self.alloc_ref_json(*id, *offset, ty, ctx)?,
            ConstVal::Indirect { id, offset } => self.indirect_json(*id, *offset, ty, ctx)?,
            ConstVal::StaticRef { krate, path } => {
                let id = self.foreign_static(krate, path, ctx)?;
                self.alloc_ref_json(id, 0, ty, ctx)?
            }
            ConstVal::Transmute(hex) => {
                // rustc prints all of the value's bytes, so the digits give
                // the size even before layouts are known.
                let size = self.size_of(ty).unwrap_or((hex.len() as u64).saturating_sub(2) / 2);
                let bytes = transmute_bytes(hex, size).ok_or_else(|| unsupported(self))?;
                obj!["kind" => "bytes", "bytes" => bytes, "relocs" => Json::Arr(vec![])]
            }
            ConstVal::Path { path, fields } => self.path_const_json(c, path, fields, ty, ctx)?,
            ConstVal::Tuple(items) if items.is_empty() => obj!["kind" => "zst"],
            ConstVal::ZeroSized => obj!["kind" => "zst"],
            ConstVal::Tuple(items) => {
                let (fields, _) = self.field_consts(items.iter(), ctx)?;
                obj!["kind" => "adt", "variant" => 0, "fields" => fields]
            }
            ConstVal::Array(items) => {
                let elem = ty.elem().ok_or_else(|| unsupported(self))?;
                obj!["kind" => "bytes", "bytes" => array_bytes(items, elem).ok_or_else(|| unsupported(self))?, "relocs" => Json::Arr(vec![])]
            }
            ConstVal::Ref(_) => return Err(unsupported(self)),
            // Any value refines an uninitialised one: zeros of the type's
            // size, filled in by `fill_uninit` once layouts are known.
            ConstVal::Uninit => obj!["kind" => "uninit"],
        })
    }

    /// The allocation of static `path` of crate `krate` (a `<static(..)>`
    /// constant), imported from that crate's MIR (library.rs: core's or a
    /// dependency's) with the allocations it points to.
    fn foreign_static(&mut self, krate: &str, path: &str, ctx: Ctx) -> DResult<u32> {
        let lib = match self.input.library.get(krate) {
            Some(Ok(l)) => l,
            Some(Err((code, why))) => {
                return Err(self.err(ctx, *code, format!(
                    "the static `{krate}::{path}` is read here, and its bytes are only in {krate}'s MIR: {why}"
                )))
            }
            None => {
                return Err(self.err(ctx, Code::Unsupported, format!(
                    "the static `{krate}::{path}` is read here; `{krate}` is not a dependency whose MIR mir-export builds"
                )))
            }
        };
        let id = lib.static_alloc(path).ok_or_else(|| {
            self.err(ctx, Code::Export, format!("{krate}'s MIR has no allocation of the static `{krate}::{path}`"))
        })?;
        self.import_alloc(id).map_err(|m| self.err(ctx, Code::Export, m))?;
        Ok(id)
    }

    /// Imports a library's allocation `id` (library::ALLOC_BASE and up)
    /// and, through its relocations, every allocation it points to.
    pub(super) fn import_alloc(&mut self, id: u32) -> Result<(), String> {
        let mut todo = vec![id];
        while let Some(id) = todo.pop() {
            if self.allocs.contains_key(&id) {
                continue;
            }
            let lib = self.input.library.for_alloc(id).ok_or_else(|| format!("alloc{id} is in no library's MIR"))?;
            let a = lib.alloc(id).ok_or_else(|| format!("{}'s MIR has no allocation {id}", lib.krate()))??;
            todo.extend(a.relocs.iter().map(|r| r.1));
            let a: &'a Alloc = Box::leak(Box::new(a));
            self.allocs.insert(id, a);
        }
        Ok(())
    }

    /// An associated constant that a dependency's non-generic trait impl
    /// defines (sha2's `impl VariableOutputCore for Sha256VarCore { const
    /// TRUNC_SIDE: TruncSide = TruncSide::Left; .. }`, named
    /// `<sha2::Sha256VarCore as sha2::digest::core_api::VariableOutputCore>
    /// ::TRUNC_SIDE`): that impl's constant body, from the MIR of the
    /// trait's crate or of the self type's (the impl is in one of them),
    /// becomes a body of the export under the constant's name, as a
    /// dependency's plain constant does. False when no such impl defines
    /// it (a generic impl's constant, typenum's `<UInt<U, B> as
    /// Unsigned>::USIZE`, is rustc's to evaluate: probed_consts.rs).
    pub(super) fn import_library_assoc_const(&mut self, c: &Const, ctx: Ctx) -> DResult<bool> {
        let ConstVal::Path { path, fields } = &c.val else { return Ok(false) };
        let Some(q) = path.qself.as_ref().filter(|_| fields.is_empty() && c.ty.is_none() && path.segments.len() == 1) else { return Ok(false) };
        let name = path.to_string();
        if self.bodies.contains_key(name.as_str()) || self.consts.contains_key(name.as_str()) || self.callees.assoc_const(path).is_some() {
            return Ok(false);
        }
        let libs = self.input.library;
        let trait_crate = q.trait_.as_ref().map(|t| t.bare()).and_then(|t| libs.crate_key(&t).map(str::to_string));
        let mut crates: Vec<String> = trait_crate.into_iter().chain(super::impls::self_type_crate_in(libs, &q.self_ty)).collect();
        crates.dedup();
        for krate in &crates {
            let Some(Ok(lib)) = libs.get(krate) else { continue };
            let super::impls::Pick::Impl(cand, params, _) = self.library_impl_pick(lib, path, ctx)? else { continue };
            if !params.is_empty() {
                return Ok(false);
            }
            let body = match lib.body(&cand, &name) {
                None => continue,
                Some(Err((code, m))) => return Err(self.err(ctx, code, m)),
                Some(Ok(b)) => b,
            };
            if body.kind == BodyKind::Fn {
                return Ok(false);
            }
            self.adopt_library_const(name, body, ctx);
            return Ok(true);
        }
        Ok(false)
    }

    /// A constant or promoted of core or a dependency (`libm::math::exp::HALF`)
    /// that the kernel crate's MIR names: its body, from that crate's MIR,
    /// becomes a body of the export. False when there is none.
    fn import_library_const(&mut self, path: &Path, ctx: Ctx) -> DResult<bool> {
        let name = path.to_string();
        if path.qself.is_some() || self.bodies.contains_key(name.as_str()) {
            return Ok(false);
        }
        let Some((Ok(lib), own)) = self.input.library.for_path(&name) else { return Ok(false) };
        let body = match lib.body(own, &name) {
            None => return Ok(false),
            Some(Err((code, m))) => return Err(self.err(ctx, code, m)),
            Some(Ok(b)) => b,
        };
        if body.kind == BodyKind::Fn {
            return Ok(false);
        }
        self.adopt_library_const(name, body, ctx);
        Ok(true)
    }

    /// A library constant's body, read from its crate's MIR, made a body
    /// of the export under `name` (its caller kept for diagnostics).
    fn adopt_library_const(&mut self, name: String, body: Body, ctx: Ctx) {
        let caller = self.loc(ctx.body, ctx.scope, ctx.span);
        self.library_bodies.insert(name.clone(), caller);
        let body: &'a Body = Box::leak(Box::new(body));
        let key: &'a str = Box::leak(name.into_boxed_str());
        self.bodies.insert(key, body);
    }

    fn alloc_ref_json(&mut self, id: u32, offset: u64, ty: &Ty, ctx: Ctx) -> DResult<Json> {
        // an allocation of core's (in a body of core's MIR)
        if id >= crate::library::ALLOC_BASE && !self.allocs.contains_key(&id) {
            self.import_alloc(id).map_err(|m| self.err(ctx, Code::Export, m))?;
        }
        let alloc_size = match self.allocs.get(&id) {
            Some(a) => a.size,
            None => return Err(self.err(ctx, Code::Export, format!("alloc{id} is not in rustc's output"))),
        };
        // A slice reference printed as `{allocN: &[T]}` covers the allocation.
        let meta = match ty.pointee() {
            Some(Ty::Str) => Some(alloc_size),
            Some(Ty::Slice(e)) => self.size_of(e).filter(|&s| s > 0).map(|s| alloc_size / s),
            _ => None,
        };
        self.used_allocs.insert(id);
        Ok(obj!["kind" => "ref", "alloc" => id, "offset" => offset.to_string(), "meta" => meta.map(|m| m.to_string())])
    }

    /// `Indirect { alloc_id: allocN, offset: Size(K bytes) }: T`: the value
    /// itself, the bytes of allocation N from K on (T's size of them; the
    /// rest of the allocation when T's layout is not known yet: oxidec
    /// checks that a `bytes` constant has its type's size), with the
    /// pointers among them. Uninitialised bytes are zeros (any value
    /// refines them).
    fn indirect_json(&mut self, id: u32, offset: u64, ty: &Ty, ctx: Ctx) -> DResult<Json> {
        if id >= crate::library::ALLOC_BASE && !self.allocs.contains_key(&id) {
            self.import_alloc(id).map_err(|m| self.err(ctx, Code::Export, m))?;
        }
        let Some(a) = self.allocs.get(&id).copied() else {
            return Err(self.err(ctx, Code::Export, format!("alloc{id} is not in rustc's output")));
        };
        let size = self.size_of(ty).unwrap_or(a.size.saturating_sub(offset));
        let end = offset.checked_add(size).filter(|&e| e <= a.size).ok_or_else(|| {
            self.err(ctx, Code::Export, format!("a constant of `{ty}` at offset {offset} of alloc{id} runs past its {} bytes", a.size))
        })?;
        let part = a.bytes.get(offset as usize..end as usize).ok_or_else(|| self.err(ctx, Code::Export, format!("alloc{id} has fewer bytes than its size")))?;
        let bytes: String = part.iter().map(|b| format!("{:02x}", b.unwrap_or(0))).collect();
        let mut relocs = Vec::new();
        for &(at, target) in a.relocs.iter().filter(|r| (offset..end).contains(&r.0)) {
            self.used_allocs.insert(target);
            relocs.push(obj!["offset" => (at - offset).to_string(), "alloc" => target]);
        }
        Ok(obj!["kind" => "bytes", "bytes" => bytes, "relocs" => Json::Arr(relocs)])
    }

    /// Named constants, promoteds, enum variants, unit structs, fn items.
    fn path_const_json(
        &mut self,
        c: &Const,
        path: &Path,
        fields: &[(Option<String>, Const)],
        ty: &Ty,
        ctx: Ctx,
    ) -> DResult<Json> {
        if let Ty::FnDef { path: f, .. } = ty {
            let f = f.bare();
            if self.bodies.get(f.as_str()).is_some_and(|b| b.kind == BodyKind::Fn) {
                self.enqueue(&f);
            }
            return Ok(obj!["kind" => "fn", "function" => f]);
        }
        if let Some((query, of)) = reflect_const(path).filter(|_| fields.is_empty()) {
            return self.reflect_placeholder(query, of, ctx);
        }
        let mut name = self.const_item_name(path);
        if fields.is_empty() && !self.bodies.contains_key(name.as_str()) && self.import_library_const(path, ctx)? {
            name = path.to_string();
        }
        if fields.is_empty() {
            if self.bodies.contains_key(name.as_str()) {
                self.enqueue(&name);
                return Ok(obj!["kind" => "unevaluated", "def" => name]);
            }
            if let Some(item) = self.consts.get(name.as_str()) {
                let (value, item_ty) = (item.value.clone(), item.ty.clone());
                return self.const_json(&value, &item_ty, ctx);
            }
            if let Some(bytes) = builtin_table(&path.bare()) {
                return Ok(obj!["kind" => "bytes", "bytes" => bytes, "relocs" => Json::Arr(vec![])]);
            }
            if let Some((t, bits)) = builtin_const(&path.bare()) {
                return Ok(obj!["kind" => "scalar", "bits" => hex_bits(bits, self.size_of(&t).unwrap_or(8))]);
            }
            // core's `<u64 as SizedTypeProperties>::IS_ZST` in an instance
            if let Some((t, prop)) = super::type_props::type_property(path) {
                return self.type_prop_json(&t, prop, ctx);
            }
            // a dependency trait's constant, for rustc to evaluate
            if path.qself.is_some() && self.probed_const_ty(path).is_ok() {
                return self.probed_const_json(&c.text, path, ty, ctx);
            }
        }
        if !matches!(ty, Ty::Adt(_)) {
            return Err(self.err(ctx, Code::Unsupported, format!("unsupported constant `{}` of type `{ty}`", c.text)));
        }
        if matches!(ty, Ty::Adt(p) if p.bare() == path.bare()) {
            if let Some(bytes) = self.wrapped_discriminant_json(fields, ctx)? {
                return Ok(bytes);
            }
        }
        if self.is_variant_path(path, ty) {
            let variant = self.variant_of(ty, path.last_name(), ctx)?;
            let (fields, tys) = self.field_consts(fields.iter().map(|f| &f.1), ctx)?;
            // what the literal told about the fields' types, for oxidec
            // (MIR may never project them)
            let adt = self.ty(ty, ctx)?;
            for (f, t) in tys.into_iter().enumerate() {
                self.types.note_field(adt, variant, f as u32, t);
            }
            return Ok(obj!["kind" => "adt", "variant" => variant, "fields" => fields]);
        }
        Err(self.err(ctx, Code::Unsupported, format!("constant `{}` has no MIR body in this crate (not supported)", c.text)))
    }

    /// Whether `path` names a variant or struct of ADT `ty` (not a constant item).
    fn is_variant_path(&self, path: &Path, ty: &Ty) -> bool {
        let Ty::Adt(adt) = ty else { return false };
        let bare = path.bare();
        bare == adt.bare() || path.parent().bare() == adt.bare()
    }

    /// Fields of an aggregate constant; each must carry its type in its
    /// text (`1_u32`, `true`, `'x'`, `NaN_f32`).
    /// Returns the constants and the indices of their types.
    fn field_consts<'c>(&mut self, items: impl Iterator<Item = &'c Const>, ctx: Ctx) -> DResult<(Vec<Json>, Vec<usize>)> {
        let mut out = Vec::new();
        let mut tys = Vec::new();
        for item in items {
            let ty = item
                .ty
                .clone()
                .or_else(|| self.ctor_ty(item))
                .or_else(|| matches!(&item.val, ConstVal::Tuple(v) if v.is_empty()).then(|| Ty::Tuple(Vec::new())))
                .ok_or_else(|| self.err(ctx, Code::Unsupported, format!("unsupported field `{}` in an aggregate constant", item.text)))?;
            tys.push(self.ty(&ty, ctx)?);
            out.push(self.const_json(item, &ty, ctx)?);
        }
        Ok((out, tys))
    }

    /// The type of a field that is a constructor printed by its path: an
    /// enum variant (`core::cmp::Ordering::Equal` in
    /// `Option::<Ordering>::Some(..)`, `Option::<u8>::Some(1_u8)`): the
    /// enum the path's parent names, when that is a known enum with such a
    /// variant; or a tuple or braced struct literal with fields
    /// (`core::num::TryFromIntError(())`): the struct the path names.
    fn ctor_ty(&self, item: &Const) -> Option<Ty> {
        let ConstVal::Path { path, fields } = &item.val else { return None };
        // `NonZero::<u64>(..)` names the type `NonZero<u64>`: one entry
        // in the type table, not two spellings
        let mut path = path.clone();
        for s in &mut path.segments {
            s.turbofish = false;
        }
        let path = &path;
        if path.segments.len() >= 2 {
            let parent = path.parent();
            // (core's and alloc's enums from their sources: `fmt::Alignment`)
            if let Some(d) = self.input.adts.lookup(&parent.bare()).ok().flatten().or_else(|| self.sysroot_enum(&parent.bare())) {
                if d.kind == crate::adts::AdtKind::Enum && d.variants.iter().any(|v| v == path.last_name()) {
                    return Some(Ty::Adt(parent));
                }
            }
        }
        // `Name(..)` / `Name { .. }` with a type-like last segment, not an
        // enum: a struct literal.
        let type_like = path.last_name().starts_with(|c: char| c.is_ascii_uppercase());
        match self.input.adts.lookup(&path.bare()) {
            Ok(Some(d)) if d.kind == crate::adts::AdtKind::Enum => None,
            Ok(_) if !fields.is_empty() && type_like => Some(Ty::Adt(path.clone())),
            // a unit struct by its path (`arrayvec::char::EncodeUtf8Error`):
            // only a declared struct without fields, never a guess
            Ok(Some(d)) if d.kind == crate::adts::AdtKind::Struct && d.fields.is_empty() && fields.is_empty() && type_like => {
                Some(Ty::Adt(path.clone()))
            }
            // the unit structs of core and alloc inside their constants
            // (`Vec::new()`'s `RawVec`: `_marker: PhantomData::<u8>`,
            // `alloc: alloc::alloc::Global`)
            _ if fields.is_empty() && LIBRARY_UNIT_STRUCTS.contains(&path.bare().as_str()) => Some(Ty::Adt(path.clone())),
            _ => None,
        }
    }

    /// A fresh allocation holding a string literal's bytes.
    pub(super) fn string_alloc(&mut self, bytes: &[u8]) -> u32 {
        if let Some(a) = self.string_allocs.iter().find(|a| a.relocs.is_empty() && a.size == bytes.len() as u64 && a.bytes.iter().map(|b| b.unwrap_or(0)).eq(bytes.iter().copied())) {
            return a.id;
        }
        // (core's allocations, imported, are numbered apart: library.rs)
        let max_rustc = self.allocs.keys().filter(|&&k| k < crate::library::ALLOC_BASE).max().copied().unwrap_or(0);
        let id = max_rustc.max(self.string_allocs.iter().map(|a| a.id).max().unwrap_or(0)) + 1;
        self.string_allocs.push(Alloc {
            id,
            static_name: None,
            size: bytes.len() as u64,
            align: 1,
            bytes: bytes.iter().map(|&b| Some(b)).collect(),
            relocs: Vec::new(),
            vtable: None,
        });
        self.used_allocs.insert(id);
        id
    }

    /// A fresh allocation of no bytes yet, filled in later (caller.rs).
    pub(super) fn reserve_alloc(&mut self) -> u32 {
        let max_rustc = self.allocs.keys().filter(|&&k| k < crate::library::ALLOC_BASE).max().copied().unwrap_or(0);
        let id = max_rustc.max(self.string_allocs.iter().map(|a| a.id).max().unwrap_or(0)) + 1;
        self.string_allocs.push(Alloc { id, static_name: None, size: 0, align: 1, bytes: Vec::new(), relocs: Vec::new(), vtable: None });
        self.used_allocs.insert(id);
        id
    }

    /// Size in bytes, where known without rustc's help or from its layout.
    pub(super) fn size_of(&mut self, ty: &Ty) -> Option<u64> {
        let i = self.types.intern(ty);
        self.types.get(i).layout.as_ref().map(|l| l.size)
    }
}

/// `core::any::TypeId::of::<T>::{constant#0}` and
/// `core::any::type_name::<T>::{constant#0}`, core's inline constants
/// that rustc leaves unevaluated (reflect.rs): which, and T.
pub(super) fn reflect_const(path: &Path) -> Option<(super::reflect::Query, &Ty)> {
    let n = path.segments.len();
    if path.qself.is_some() || n < 2 || path.segments[n - 1].name != "{constant#0}" {
        return None;
    }
    let query = match path.parent().bare().as_str() {
        "core::any::TypeId::of" => super::reflect::Query::TypeId,
        "core::any::type_name" => super::reflect::Query::TypeName,
        _ => return None,
    };
    match path.segments[n - 2].args.as_slice() {
        [GenericArg::Type(t)] => Some((query, t)),
        _ => None,
    }
}

/// An array of scalar literals as little-endian bytes, element after
/// element (scalars have no padding).
fn array_bytes(items: &[Const], elem: &Ty) -> Option<String> {
    let mut out = String::new();
    for item in items {
        let (bits, size) = scalar_bits(&item.val, elem)?;
        out.extend((0..size).map(|i| format!("{:02x}", (bits >> (8 * i)) as u8)));
    }
    Some(out)
}

/// `0x…` with two hex digits per byte of the type.
fn hex_bits(bits: u128, size: u64) -> String {
    format!("0x{:0width$x}", bits, width = (size * 2) as usize)
}

/// Scalars printed as literals: ints, floats, bools, chars.
fn scalar_json(val: &ConstVal, ty: &Ty) -> Option<Json> {
    let (bits, size) = scalar_bits(val, ty)?;
    Some(obj!["kind" => "scalar", "bits" => hex_bits(bits, size)])
}

/// (bit pattern, size in bytes) of a scalar literal of type `ty`.
fn scalar_bits(val: &ConstVal, ty: &Ty) -> Option<(u128, u64)> {
    Some(match (val, ty) {
        (ConstVal::Int { negative, text }, Ty::Int { bits, signed, .. }) => {
            (int_bits(*negative, text, *bits, *signed)?, u64::from(*bits) / 8)
        }
        (ConstVal::Float(text), Ty::Float(32)) => (u128::from(float32_bits(text)?), 4),
        (ConstVal::Float(text), Ty::Float(64)) => (u128::from(float64_bits(text)?), 8),
        (ConstVal::Bool(b), Ty::Bool) => (u128::from(*b), 1),
        (ConstVal::Char(c), Ty::Char) => (u128::from(u32::from(*c)), 4),
        // `const 8_usize as *const u32` keeps the integer's own type; a raw
        // pointer printed as an integer is pointer-sized.
        (ConstVal::Int { negative: false, text }, Ty::Ptr { .. }) => (parse_u128(text).ok()?, 8),
        _ => return None,
    })
}

/// The two's-complement bit pattern of an integer literal (`MAX`/`MIN`
/// print symbolically).
pub(crate) fn int_bits(negative: bool, text: &str, bits: u32, signed: bool) -> Option<u128> {
    let mask = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let top = 1u128 << (bits - 1);
    let value = match (text, signed) {
        ("MAX", false) => mask,
        ("MAX", true) => top - 1,
        ("MIN", false) => 0,
        ("MIN", true) => top,
        _ => parse_u128(text).ok()?,
    };
    let v = if negative { value.wrapping_neg() } else { value };
    Some(v & mask)
}

/// rustc prints floats with round-trip digits (`3.1400001`, `2.14748365E+9`),
/// `NaN`, `+Inf`, `-Inf`, `-0`. NaN payloads and signs are not printed:
/// a NaN has bits only as `NaN_0x…` (recovered by nanbits.rs); a bare
/// `NaN` has none (the caller refuses it, see `unknown_nan`).
fn float32_bits(text: &str) -> Option<u32> {
    if let Some(bits) = crate::nanbits::nan_bits(text, 32) {
        return u32::try_from(bits).ok();
    }
    match text {
        "NaN" | "-NaN" | "+NaN" => None,
        "+Inf" | "Inf" => Some(f32::INFINITY.to_bits()),
        "-Inf" => Some(f32::NEG_INFINITY.to_bits()),
        _ => text.parse::<f32>().ok().map(f32::to_bits),
    }
}

fn float64_bits(text: &str) -> Option<u64> {
    if let Some(bits) = crate::nanbits::nan_bits(text, 64) {
        return Some(bits);
    }
    match text {
        "NaN" | "-NaN" | "+NaN" => None,
        "+Inf" | "Inf" => Some(f64::INFINITY.to_bits()),
        "-Inf" => Some(f64::NEG_INFINITY.to_bits()),
        _ => text.parse::<f64>().ok().map(f64::to_bits),
    }
}

/// The refusal of a NaN constant whose bits are not known (rustc's MIR
/// text prints every NaN as `NaN_f32`; see nanbits.rs): never a guess.
pub(crate) fn unknown_nan(text: &str) -> String {
    format!(
        "NaN constant with unknown payload/sign: `{text}` (rustc's MIR text does not print a NaN's bits, and they \
         could not be matched in its -Zverbose-internals text)"
    )
}

/// `{transmute(0x0000_0001): T}` prints the value as one integer; memory
/// order is little-endian.
fn transmute_bytes(hex: &str, size: u64) -> Option<String> {
    let digits = hex.strip_prefix("0x")?.replace('_', "");
    if digits.len() as u64 > size * 2 {
        return None;
    }
    let padded = format!("{:0>width$}", digits, width = (size * 2) as usize);
    let be: Vec<&str> = (0..padded.len()).step_by(2).map(|i| &padded[i..i + 2]).collect();
    Some(be.iter().rev().copied().collect())
}

/// Associated constants of `core` float types that stay unevaluated in
/// constant bodies (`const LUT: [f32; 2] = [f32::NAN, 1.0]`).
/// Constant tables of `core` that inlined code indexes, as the hex of
/// their bytes: `U8_ISQRT_WITH_REMAINDER: [(u8, u8); 256]` of the integer
/// square root, entry n = (floor(sqrt(n)), n - floor(sqrt(n))^2).
fn builtin_table(bare: &str) -> Option<String> {
    let rest = bare.strip_prefix("core::num::")?;
    let rest = rest.strip_prefix("imp::").unwrap_or(rest);
    if rest != "int_sqrt::U8_ISQRT_WITH_REMAINDER" {
        return None;
    }
    let mut out = String::new();
    for n in 0u32..256 {
        let s = (0u32..16).take_while(|s| s * s <= n).last().unwrap_or(0);
        out.push_str(&format!("{:02x}{:02x}", s, n - s * s));
    }
    Some(out)
}

/// The alloc (std) type `ty` is, when it owns heap memory: `Vec`,
/// `String`, `Box`, the collections, `Rc`/`Arc`, and their buffers.
/// Unit structs of core and alloc, declared without fields there, that
/// library constants print by their path alone.
const LIBRARY_UNIT_STRUCTS: [&str; 5] = ["core::marker::PhantomData", "core::alloc::LayoutError", "core::alloc::AllocError", "alloc::alloc::Global", "core::fmt::Error"];

fn heap_type(ty: &Ty) -> Option<String> {
    let Ty::Adt(p) = ty else { return None };
    let bare = p.bare();
    let rest = bare.strip_prefix("alloc::").or_else(|| bare.strip_prefix("std::"))?;
    let heap = ["vec::Vec", "string::String", "boxed::Box", "raw_vec::RawVec", "rc::Rc", "sync::Arc"]
        .iter()
        .any(|t| rest == *t)
        || rest.starts_with("collections::");
    heap.then_some(bare)
}

pub(super) fn builtin_const(bare: &str) -> Option<(Ty, u128)> {
    let (ty, name) = bare.strip_prefix("core::")?.split_once("::<impl ")?;
    let (ty2, name) = name.split_once(">::")?;
    // Integer limits live in `core::num`: `core::num::<impl i64>::MIN`.
    if ty == "num" {
        let int = Ty::primitive(ty2)?;
        let Ty::Int { bits, signed, .. } = int else { return None };
        return match name {
            "MIN" | "MAX" => Some((int, int_bits(false, name, bits, signed)?)),
            "BITS" => Some((Ty::primitive("u32")?, u128::from(bits))),
            _ => None,
        };
    }
    if ty != ty2 {
        return None;
    }
    let v32 = |v: f32| Some((Ty::Float(32), u128::from(v.to_bits())));
    let v64 = |v: f64| Some((Ty::Float(64), u128::from(v.to_bits())));
    match (ty, name) {
        ("f32", "NAN") => v32(f32::NAN),
        ("f32", "INFINITY") => v32(f32::INFINITY),
        ("f32", "NEG_INFINITY") => v32(f32::NEG_INFINITY),
        ("f32", "MAX") => v32(f32::MAX),
        ("f32", "MIN") => v32(f32::MIN),
        ("f32", "MIN_POSITIVE") => v32(f32::MIN_POSITIVE),
        ("f32", "EPSILON") => v32(f32::EPSILON),
        ("f64", "NAN") => v64(f64::NAN),
        ("f64", "INFINITY") => v64(f64::INFINITY),
        ("f64", "NEG_INFINITY") => v64(f64::NEG_INFINITY),
        ("f64", "MAX") => v64(f64::MAX),
        ("f64", "MIN") => v64(f64::MIN),
        ("f64", "MIN_POSITIVE") => v64(f64::MIN_POSITIVE),
        ("f64", "EPSILON") => v64(f64::EPSILON),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_bits() {
        assert_eq!(int_bits(true, "2", 64, true), Some(u64::MAX as u128 - 1));
        assert_eq!(int_bits(false, "MAX", 32, true), Some(0x7fff_ffff));
        assert_eq!(int_bits(false, "MIN", 8, true), Some(0x80));
        assert_eq!(int_bits(false, "MAX", 128, false), Some(u128::MAX));
        assert_eq!(int_bits(false, "0x1f", 8, false), Some(31));
    }

    #[test]
    fn float_bits() {
        assert_eq!(float32_bits("0.1"), Some(0.1f32.to_bits()));
        assert_eq!(float32_bits("3.1400001"), Some(0x4048_f5c3));
        assert_eq!(float32_bits("2.14748365E+9"), Some(2147483648f32.to_bits()));
        assert_eq!(float32_bits("-0"), Some(0x8000_0000));
        assert_eq!(float32_bits("NaN"), None, "a NaN without its bits is never guessed");
        assert_eq!(float32_bits("NaN_0x7ffffffe"), Some(0x7fff_fffe));
        assert_eq!(float64_bits("NaN_0xfff8000000000001"), Some(0xfff8_0000_0000_0001));
        assert_eq!(float64_bits("-NaN"), None);
        assert_eq!(float64_bits("-Inf"), Some(f64::NEG_INFINITY.to_bits()));
    }

    #[test]
    fn transmute_is_little_endian() {
        assert_eq!(transmute_bytes("0x00000001", 4).as_deref(), Some("01000000"));
        assert_eq!(transmute_bytes("0x1", 2).as_deref(), Some("0100"));
        assert_eq!(transmute_bytes("0x123456", 2), None);
    }

    #[test]
    fn builtin_float_consts() {
        assert_eq!(builtin_const("core::f32::<impl f32>::NAN").map(|c| c.0), Some(Ty::Float(32)));
        assert_eq!(builtin_const("core::f64::<impl f64>::EPSILON").map(|c| c.1), Some(u128::from(f64::EPSILON.to_bits())));
        assert_eq!(builtin_const("core::num::<impl i64>::MIN"), Some((Ty::primitive("i64").unwrap(), 1 << 63)));
        assert_eq!(builtin_const("core::num::<impl u8>::MAX").map(|c| c.1), Some(255));
        assert_eq!(builtin_const("core::num::<impl u16>::BITS").map(|c| c.1), Some(16));
    }
}
