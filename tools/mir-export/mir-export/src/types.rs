//! The type table of oxide-mir: each distinct type once, by its printed
//! name, with its kind, components and layout.
//!
//! Primitive layouts are filled in here for a 64-bit target (nvptx64 and
//! x86-64 agree on them); everything else gets rustc's layout from the probe
//! (`layout.rs`). ADT variant information is collected while the bodies are
//! exported (`note_*`), then written out by `to_json`.

use std::collections::{BTreeMap, HashMap};

use crate::adts::{AdtDecl, AdtKind, AdtTable, BUILTIN_DISCRIMINANTS};
use crate::json::Json;
use crate::layout::{Layout, Scalar};
use crate::mirparse::ast::{GenericArg, Path, Ty};
use crate::obj;

pub struct TypeEntry {
    pub ty: Ty,
    pub layout: Option<Layout>,
    /// Why `layout` is missing, for error messages.
    pub layout_error: Option<String>,
    /// For ADTs: what the source and MIR told about variants and fields.
    pub adt: Option<AdtInfo>,
    /// For closures: the types of the captured values (type indices), from
    /// the aggregate that builds the closure; its layout is a tuple
    /// struct's of them (mod.rs `fill_layouts`).
    pub upvars: Option<Vec<usize>>,
    /// For a struct declared inside a generic function (no layout probe
    /// can name it): its field types in declaration order (type indices),
    /// from the aggregate that builds it; laid out as a closure is.
    pub local_fields: Option<Vec<usize>>,
}

#[derive(Default)]
pub struct AdtInfo {
    pub decl: Option<AdtDecl>,
    /// Explicit discriminants, by variant index.
    pub explicit_discr: BTreeMap<u32, i128>,
    /// Field types seen in projections, by (variant, field).
    pub field_tys: BTreeMap<(u32, u32), usize>,
    /// Dropping it does nothing: a type without drop glue (`no_drop_glue`:
    /// `Option<u32>`, a Copy type), or `core::array::IntoIter<T, N>` whose
    /// `T` has none (its Drop impl drops the remaining elements).
    pub drop_noop: bool,
}

#[derive(Default)]
pub struct TypeTable {
    pub entries: Vec<TypeEntry>,
    index: HashMap<String, usize>,
}

impl TypeTable {
    /// The index of `ty`, adding it (and the types it is built from).
    pub fn intern(&mut self, ty: &Ty) -> usize {
        let name = ty.to_string();
        if let Some(&i) = self.index.get(&name) {
            return i;
        }
        for part in components(ty) {
            self.intern(&part);
        }
        // the field types core's generic ADTs get from their arguments
        let builtin: Vec<(u32, u32, usize)> = match ty {
            Ty::Adt(p) => builtin_field_tys(p).into_iter().map(|(v, f, t)| (v, f, self.intern(&t))).collect(),
            _ => Vec::new(),
        };
        let i = self.entries.len();
        let layout = primitive_layout(ty);
        let adt = matches!(ty, Ty::Adt(_)).then(|| AdtInfo {
            field_tys: builtin.into_iter().map(|(v, f, t)| ((v, f), t)).collect(),
            ..AdtInfo::default()
        });
        self.entries.push(TypeEntry { ty: ty.clone(), layout, layout_error: None, adt, upvars: None, local_fields: None });
        self.index.insert(name, i);
        i
    }

    pub fn get(&self, i: usize) -> &TypeEntry {
        &self.entries[i]
    }

    /// The index of the type printed `name`.
    pub fn lookup_name(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    pub fn lookup(&self, ty: &Ty) -> Option<usize> {
        self.index.get(&ty.to_string()).copied()
    }

    /// Attaches the source declaration of every ADT in the table.
    pub fn attach_decls(&mut self, adts: &AdtTable) -> Result<(), String> {
        for e in &mut self.entries {
            if let (Ty::Adt(p), Some(info)) = (&e.ty, e.adt.as_mut()) {
                info.decl = adts.lookup(&p.bare())?;
                if matches!(p.bare().as_str(), "core::array::IntoIter" | "core::array::iter::IntoIter") {
                    info.drop_noop = p.all_args().find_map(|a| match a {
                        GenericArg::Type(t) => Some(no_drop_glue(t, adts)),
                        _ => None,
                    }) == Some(true);
                } else {
                    // `Option<u32>`: a generic library body's drop of its
                    // `Option<T>` (Drain's `while let Some(_) = self.next()`),
                    // instantiated, drops nothing
                    info.drop_noop = no_drop_glue(&e.ty, adts);
                }
            }
        }
        Ok(())
    }

    /// Types whose layout must come from rustc (ADTs, tuples, arrays).
    pub fn needs_probe(&self, i: usize) -> bool {
        let e = &self.entries[i];
        e.layout.is_none()
            && !e.ty.is_unnameable()
            && (matches!(e.ty, Ty::Adt(_) | Ty::Tuple(_) | Ty::Array(..)) || maybe_unsized_adt_pointer(&e.ty))
    }

    pub fn to_json(&self, i: usize) -> Json {
        let e = &self.entries[i];
        let mut j = obj!["name" => e.ty.to_string()];
        self.kind_fields(e, &mut j);
        j.push("layout", e.layout.as_ref().map(Layout::to_json));
        if let (None, Some(why)) = (&e.layout, &e.layout_error) {
            j.push("layout_error", why.as_str());
        }
        j
    }

    fn idx(&self, ty: &Ty) -> Json {
        Json::from(self.lookup(ty).expect("component types are interned first"))
    }

    fn kind_fields(&self, e: &TypeEntry, j: &mut Json) {
        match &e.ty {
            Ty::Bool | Ty::Char | Ty::Str | Ty::Never => j.push("kind", simple_kind(&e.ty)),
            Ty::Int { bits, signed, .. } => {
                j.push("kind", "int");
                j.push("bits", *bits);
                j.push("signed", *signed);
            }
            Ty::Float(bits) => {
                j.push("kind", "float");
                j.push("bits", *bits);
            }
            Ty::Tuple(v) => {
                j.push("kind", "tuple");
                j.push("fields", v.iter().map(|t| self.idx(t)).collect::<Vec<_>>());
            }
            Ty::Array(t, n) => {
                j.push("kind", "array");
                j.push("elem", self.idx(t));
                j.push("len", n.as_str());
            }
            Ty::Slice(t) => {
                j.push("kind", "slice");
                j.push("elem", self.idx(t));
            }
            Ty::Ref { mutable, pointee } | Ty::Ptr { mutable, pointee } => {
                j.push("kind", if matches!(e.ty, Ty::Ref { .. }) { "ref" } else { "ptr" });
                j.push("pointee", self.idx(pointee));
                j.push("mutable", *mutable);
            }
            Ty::Adt(p) => self.adt_fields(p, e, j),
            Ty::FnDef { path, .. } => {
                j.push("kind", "fndef");
                j.push("path", path.to_string());
            }
            Ty::FnPtr(_) => j.push("kind", "fn_ptr"),
            Ty::Dyn(_) => j.push("kind", "opaque"),
            Ty::Closure(c) => {
                j.push("kind", "closure");
                j.push("path", c.as_str());
                if let Some(u) = &e.upvars {
                    j.push("upvars", u.iter().map(|&t| Json::from(t)).collect::<Vec<_>>());
                    // captures by reference or of scalars (or closures
                    // that are such): dropping the closure (an `impl
                    // FnMut` argument's end) does nothing
                    if self.captures_drop_nothing(u, 0) {
                        j.push("drop_noop", true);
                    }
                }
            }
        }
    }

    fn adt_fields(&self, path: &Path, e: &TypeEntry, j: &mut Json) {
        let info = e.adt.as_ref().expect("ADT entries carry AdtInfo");
        let kind = self.adt_kind(e);
        j.push("kind", "adt");
        j.push("adt_kind", kind.as_str());
        j.push("path", path.bare());
        let names = variant_names(path, info, kind);
        let mut discr = BUILTIN_DISCRIMINANTS.iter().find(|(p, _)| *p == path.bare()).map_or(0, |d| d.1);
        let mut variants = Vec::new();
        for (v, name) in names.iter().enumerate() {
            let v = v as u32;
            discr = info.explicit_discr.get(&v).copied().unwrap_or(discr);
            let fields = self.variant_fields(e, info, kind, v);
            variants.push(obj!["name" => name.as_str(), "discr" => discr.to_string(), "fields" => fields]);
            discr += 1;
        }
        j.push("variants", variants);
        if info.decl.as_ref().is_some_and(|d| d.repr_c) {
            j.push("repr_c", true);
        }
        if info.drop_noop {
            j.push("drop_noop", true);
        }
    }

    /// Struct-like unless the declaration or the layout says otherwise.
    pub fn adt_kind(&self, e: &TypeEntry) -> AdtKind {
        let decl_kind = e.adt.as_ref().and_then(|a| a.decl.as_ref()).map(|d| d.kind);
        let multi = e.layout.as_ref().is_some_and(|l| l.variants.is_some());
        decl_kind.unwrap_or(if multi { AdtKind::Enum } else { AdtKind::Struct })
    }

    /// Fields of variant `v`: count from the layout, names from the
    /// declaration, types from MIR projections (null where unseen).
    fn variant_fields(&self, e: &TypeEntry, info: &AdtInfo, kind: AdtKind, v: u32) -> Vec<Json> {
        let count = variant_field_count(e.layout.as_ref(), kind, v)
            .or_else(|| info.decl.as_ref().filter(|_| kind != AdtKind::Enum).map(|d| d.fields.len()))
            .unwrap_or_else(|| info.field_tys.range((v, 0)..(v + 1, 0)).count());
        (0..count as u32)
            .map(|f| {
                let name = match (&info.decl, kind) {
                    (Some(d), AdtKind::Struct | AdtKind::Union) => d.fields.get(f as usize).cloned(),
                    _ => None,
                };
                let ty = info.field_tys.get(&(v, f)).copied();
                obj!["name" => name.unwrap_or_else(|| f.to_string()), "ty" => ty]
            })
            .collect()
    }

    /// Records that field `f` of variant `v` of ADT `adt` has type `ty`.
    pub fn note_field(&mut self, adt: usize, v: u32, f: u32, ty: usize) {
        if let Some(info) = self.entries[adt].adt.as_mut() {
            info.field_tys.insert((v, f), ty);
        }
    }

    pub fn note_discriminant(&mut self, adt: usize, v: u32, value: i128) {
        if let Some(info) = self.entries[adt].adt.as_mut() {
            info.explicit_discr.insert(v, value);
        }
    }
}

fn simple_kind(t: &Ty) -> &'static str {
    match t {
        Ty::Bool => "bool",
        Ty::Char => "char",
        Ty::Str => "str",
        _ => "never",
    }
}

fn variant_names(path: &Path, info: &AdtInfo, kind: AdtKind) -> Vec<String> {
    match (&info.decl, kind) {
        (Some(d), AdtKind::Enum) => d.variants.clone(),
        (None, AdtKind::Enum) => {
            let n = info.field_tys.keys().map(|k| k.0 + 1).max().unwrap_or(0);
            (0..n).map(|v| v.to_string()).collect()
        }
        _ => vec![path.last_name().to_string()],
    }
}

fn variant_field_count(layout: Option<&Layout>, kind: AdtKind, v: u32) -> Option<usize> {
    let l = layout?;
    match (&l.variants, kind) {
        (Some(vs), _) => vs.layouts.get(v as usize).map(|vl| vl.fields.len()),
        (None, AdtKind::Enum) if l.single_variant != Some(v) => Some(0),
        _ => Some(l.fields.len()),
    }
}

/// Whether values of `ty` are dropped without running any code: scalars,
/// references and pointers, and tuples, arrays and ADTs made of them
/// (ADTs: the crate's own Copy types, and core's Option/Result/Ordering/
/// Wrapping of such). A Copy type can have no drop glue.
pub(crate) fn no_drop_glue(ty: &Ty, adts: &AdtTable) -> bool {
    if plain_no_drop_glue(ty) {
        return true;
    }
    match ty {
        Ty::Bool | Ty::Char | Ty::Int { .. } | Ty::Float(_) | Ty::Never => true,
        Ty::Ref { .. } | Ty::Ptr { .. } | Ty::FnPtr(_) | Ty::FnDef { .. } => true,
        Ty::Tuple(v) => v.iter().all(|t| no_drop_glue(t, adts)),
        Ty::Array(t, _) => no_drop_glue(t, adts),
        Ty::Adt(p) => {
            let args_ok = p.type_args().all(|a| match a {
                GenericArg::Type(t) => no_drop_glue(t, adts),
                _ => true,
            });
            match p.bare().as_str() {
                "core::option::Option" | "core::result::Result" | "core::num::Wrapping" | "core::num::Saturating"
                | "core::marker::PhantomData" => args_ok,
                "core::cmp::Ordering" => true,
                // `Wrap<T>` deriving Copy is Copy only for Copy `T`s
                b => args_ok && adts.is_copy(b),
            }
        }
        _ => false,
    }
}

/// Field types of `core` ADTs that follow from their generic arguments
/// (or are fixed), as (variant, field, type): MIR names them only where a
/// projection or aggregate happens to mention them, but constants such as
/// `Result::<u8, TryFromIntError>::Err(TryFromIntError(()))` need them.
/// Variant indices follow adts.rs's BUILTIN table (declaration order).
fn builtin_field_tys(p: &Path) -> Vec<(u32, u32, Ty)> {
    let args: Vec<Ty> = p
        .all_args()
        .filter_map(|a| match a {
            GenericArg::Type(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    let arg = |k: usize| args.get(k).cloned();
    let unit = Some(Ty::Tuple(Vec::new()));
    let tys: Vec<(u32, u32, Option<Ty>)> = match p.bare().as_str() {
        "core::option::Option" => vec![(1, 0, arg(0))],
        "core::result::Result" => vec![(0, 0, arg(0)), (1, 0, arg(1))],
        // ControlFlow<B, C = ()>: Continue(C), Break(B)
        "core::ops::ControlFlow" => vec![(0, 0, arg(1).or(unit)), (1, 0, arg(0))],
        "core::ops::Bound" => vec![(0, 0, arg(0)), (1, 0, arg(0))],
        "core::ops::Range" | "core::ops::range::Range" => vec![(0, 0, arg(0)), (0, 1, arg(0))],
        "core::ops::RangeInclusive" | "core::ops::range::RangeInclusive" => {
            vec![(0, 0, arg(0)), (0, 1, arg(0)), (0, 2, Some(Ty::Bool))]
        }
        "core::num::Wrapping" | "core::num::Saturating" | "core::mem::ManuallyDrop" => vec![(0, 0, arg(0))],
        "core::num::TryFromIntError" | "core::char::CharTryFromError" => vec![(0, 0, unit)],
        _ => Vec::new(),
    };
    tys.into_iter().filter_map(|(v, f, t)| Some((v, f, t?))).collect()
}

/// The types a type's entry refers to (they get lower indices).
fn components(ty: &Ty) -> Vec<Ty> {
    match ty {
        Ty::Tuple(v) => v.clone(),
        Ty::Array(t, _) | Ty::Slice(t) => vec![(**t).clone()],
        Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => vec![(**pointee).clone()],
        _ => vec![],
    }
}

/// Whether pointers to `pointee` carry a length (or vtable).
pub fn is_unsized(pointee: &Ty) -> bool {
    matches!(pointee, Ty::Slice(_) | Ty::Str | Ty::Dyn(_))
}

/// A pointer to a struct with a slice or `str` type argument may be fat
/// (`&PolymorphicIter<[T]>`, a struct with an unsized tail): rustc is
/// asked for its layout instead of guessing.
fn maybe_unsized_adt_pointer(ty: &Ty) -> bool {
    let (Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. }) = ty else { return false };
    let Ty::Adt(p) = &**pointee else { return false };
    p.type_args().any(|a| matches!(a, GenericArg::Type(t) if is_unsized(t)))
}

/// Layouts of types that rustc is not asked about.
fn primitive_layout(ty: &Ty) -> Option<Layout> {
    Some(match ty {
        Ty::Bool => Layout::scalar(1, Scalar::int(8, false).with_range(0, 1)),
        Ty::Char => Layout::scalar(4, Scalar::int(32, false).with_range(0, 0x10ffff)),
        Ty::Int { bits, signed, .. } => {
            let mut l = Layout::scalar(u64::from(*bits) / 8, Scalar::int(*bits, *signed));
            l.align = (u64::from(*bits) / 8).min(16);
            l
        }
        Ty::Float(bits) => Layout::scalar(u64::from(*bits) / 8, Scalar::float(*bits)),
        Ty::Ref { .. } | Ty::Ptr { .. } if maybe_unsized_adt_pointer(ty) => return None,
        Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => pointer_layout(ty, pointee),
        Ty::FnPtr(_) => Layout::scalar(8, Scalar::ptr(true)),
        Ty::Tuple(v) if v.is_empty() => Layout::memory(0, 1),
        Ty::FnDef { .. } => Layout::memory(0, 1),
        Ty::Never => Layout { abi: "uninhabited", ..Layout::memory(0, 1) },
        _ => return None,
    })
}

/// Thin pointers are one scalar; pointers to slices and `str` a pair
/// (data, length). References are non-null.
fn pointer_layout(ty: &Ty, pointee: &Ty) -> Layout {
    let data = Scalar::ptr(matches!(ty, Ty::Ref { .. }));
    if !is_unsized(pointee) {
        return Layout::scalar(8, data);
    }
    let meta = if matches!(pointee, Ty::Dyn(_)) { Scalar::ptr(true) } else { Scalar::int(64, false) };
    Layout { size: 16, align: 8, abi: "scalar_pair", scalars: vec![data, meta], fields: vec![0, 8], variants: None, single_variant: None }
}

/// `ty` spelled so that it resolves from the crate root: local paths get
/// `crate::`, extern ones `::`, and erased regions become `'static`.
pub fn probe_name(ty: &Ty, extern_crates: &[String]) -> String {
    probe_name_in(ty, extern_crates, &|_| None)
}

/// `probe_name` in a block of a function body, where `local(p)` is the
/// name there of an ADT declared inside a function body (`Local` for
/// `misc_local_types::Local`), `None` for the others.
pub fn probe_name_in(ty: &Ty, extern_crates: &[String], local: &dyn Fn(&Path) -> Option<String>) -> String {
    let name = |t: &Ty| probe_name_in(t, extern_crates, local);
    match ty {
        Ty::Ref { mutable, pointee } => format!("&'static {}{}", if *mutable { "mut " } else { "" }, name(pointee)),
        Ty::Ptr { mutable, pointee } => format!("*{} {}", if *mutable { "mut" } else { "const" }, name(pointee)),
        Ty::Tuple(v) if v.len() == 1 => format!("({},)", name(&v[0])),
        Ty::Tuple(v) => format!("({})", v.iter().map(name).collect::<Vec<_>>().join(", ")),
        Ty::Array(t, n) => format!("[{}; {n}]", name(t)),
        Ty::Slice(t) => format!("[{}]", name(t)),
        Ty::Adt(p) => probe_path(p, extern_crates, local),
        _ => ty.to_string(),
    }
}

fn probe_path(p: &Path, extern_crates: &[String], local: &dyn Fn(&Path) -> Option<String>) -> String {
    let args_of = |s: &crate::mirparse::ast::Segment| -> String {
        if s.args.is_empty() {
            return String::new();
        }
        let args: Vec<String> = s
            .args
            .iter()
            .map(|a| match a {
                GenericArg::Lifetime => "'static".to_string(),
                GenericArg::Type(t) => probe_name_in(t, extern_crates, local),
                GenericArg::Const(c) => format!("{{ {c} }}"),
            })
            .collect();
        format!("<{}>", args.join(", "))
    };
    if let Some(q) = &p.qself {
        // a projection (`<<S as Tr>::Out as Unsigned>::USIZE`): rustc normalizes it
        let tr = q.trait_.as_ref().map(|t| format!(" as {}", probe_path(t, extern_crates, local))).unwrap_or_default();
        let rest: Vec<String> = p.segments.iter().map(|s| format!("{}{}", s.name, args_of(s))).collect();
        return format!("<{}{tr}>::{}", probe_name_in(&q.self_ty, extern_crates, local), rest.join("::"));
    }
    if let Some(name) = local(p) {
        // declared in a non-generic function: only its own arguments
        return format!("{name}{}", p.segments.last().map(args_of).unwrap_or_default());
    }
    let first = p.segments.first().map_or("", |s| s.name.as_str());
    let is_extern = ["core", "alloc", "std"].contains(&first) || extern_crates.iter().any(|c| c == first);
    let mut out = String::from(if is_extern { "::" } else { "crate::" });
    for (i, s) in p.segments.iter().enumerate() {
        if i > 0 {
            out.push_str("::");
        }
        out.push_str(&s.name);
        out.push_str(&args_of(s));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mirparse::parser::parse_str;

    fn ty(s: &str) -> Ty {
        parse_str(s, |p| p.ty()).unwrap()
    }

    #[test]
    fn probe_names_resolve_from_the_crate_root() {
        let ext = vec!["oxide_device".to_string()];
        assert_eq!(probe_name(&ty("core::option::Option<&mut f32>"), &ext), "::core::option::Option<&'static mut f32>");
        assert_eq!(probe_name(&ty("oxide_device::DisjointSlice<'_, f32>"), &ext), "::oxide_device::DisjointSlice<'static, f32>");
        assert_eq!(probe_name(&ty("(shapes::Pt, [u8; 3])"), &ext), "(crate::shapes::Pt, [u8; 3])");
        // a projection, for rustc to normalize
        let ext = vec!["sha2".to_string()];
        let p = ty("<<sha2::Core as sha2::digest::BlockSizeUser>::BlockSize as sha2::typenum::Unsigned>::USIZE");
        assert_eq!(probe_name(&p, &ext), "<<::sha2::Core as ::sha2::digest::BlockSizeUser>::BlockSize as ::sha2::typenum::Unsigned>::USIZE");
    }

    #[test]
    fn glue_free_adts_drop_nothing() {
        let mut t = TypeTable::default();
        let mut adts = AdtTable::new();
        adts.add_source("#[derive(Clone, Copy)] struct Pt { x: u32 } struct Owner { p: *mut u8 } impl Drop for Owner { fn drop(&mut self) {} } \
                         #[derive(Clone, Copy)] struct Wrap<T>(T);");
        let names = ["core::option::Option<u32>", "core::option::Option<Pt>", "core::option::Option<Owner>", "Owner", "core::array::IntoIter<u8, 3>", "Wrap<u8>", "Wrap<Owner>"];
        let ids: Vec<usize> = names.iter().map(|n| t.intern(&ty(n))).collect();
        t.attach_decls(&adts).unwrap();
        let noop: Vec<bool> = ids.iter().map(|&i| t.get(i).adt.as_ref().unwrap().drop_noop).collect();
        assert_eq!(noop, [true, true, false, false, true, true, false]);
    }

    #[test]
    fn closures_of_glue_free_closures_drop_nothing() {
        let mut t = TypeTable::default();
        let user = t.intern(&ty("{closure@src/lib.rs:1:1: 1:5}"));
        let check = t.intern(&ty("{closure@core::iter::Iterator::find::check<u64, &mut {closure@src/lib.rs:1:1: 1:5}>::{closure#0}}"));
        let outer = t.intern(&ty("{closure@src/lib.rs:2:1: 2:5}"));
        let unknown = t.intern(&ty("{closure@src/lib.rs:3:1: 3:5}"));
        let over_unknown = t.intern(&ty("{closure@src/lib.rs:4:1: 4:5}"));
        let (usize_ref, user_ref) = (t.intern(&ty("&mut usize")), t.intern(&ty("&mut {closure@src/lib.rs:1:1: 1:5}")));
        t.entries[user].upvars = Some(vec![usize_ref]);
        t.entries[check].upvars = Some(vec![user_ref]);
        t.entries[outer].upvars = Some(vec![check, usize_ref]);
        t.entries[over_unknown].upvars = Some(vec![unknown, usize_ref]);
        let noop = |t: &TypeTable, i: usize| t.to_json(i).get("drop_noop") == Some(&Json::from(true));
        assert!(noop(&t, check) && noop(&t, outer));
        // a captured closure whose captures are not known may need a drop
        assert!(!noop(&t, unknown) && !noop(&t, over_unknown));
    }

    #[test]
    fn interning_and_primitive_layouts() {
        let mut t = TypeTable::default();
        let s = t.intern(&ty("&[f32]"));
        assert_eq!(t.entries.len(), 3);
        assert_eq!(t.intern(&ty("&[f32]")), s);
        let l = t.get(s).layout.as_ref().unwrap();
        assert_eq!((l.size, l.abi, l.scalars[0].valid_start), (16, "scalar_pair", 1));
        let j = t.to_json(s);
        assert_eq!(j.get("kind"), Some(&Json::from("ref")));
        assert_eq!(j.get("pointee"), Some(&Json::from(1)));
        let b = t.intern(&Ty::Bool);
        assert_eq!(t.get(b).layout.as_ref().unwrap().scalars[0].valid_end, 1);
    }
}

impl TypeTable {
    /// Whether captures `upvars` have no drop glue: plain types, and
    /// closures whose own captures are such (core's adapter closures
    /// around the user's), to a depth no closure nests beyond.
    fn captures_drop_nothing(&self, upvars: &[usize], depth: u32) -> bool {
        depth < 16
            && upvars.iter().all(|&t| {
                let e = &self.entries[t];
                plain_no_drop_glue(&e.ty)
                    || matches!(e.ty, Ty::Closure(_)) && e.upvars.as_ref().is_some_and(|u| self.captures_drop_nothing(u, depth + 1))
            })
    }
}

/// No drop glue, known without the crate's declarations: scalars,
/// references, pointers, fn pointers and items, tuples and arrays of them.
fn plain_no_drop_glue(ty: &Ty) -> bool {
    match ty {
        Ty::Bool | Ty::Char | Ty::Int { .. } | Ty::Float(_) | Ty::Never => true,
        Ty::Ref { .. } | Ty::Ptr { .. } | Ty::FnPtr(_) | Ty::FnDef { .. } => true,
        Ty::Tuple(v) => v.iter().all(plain_no_drop_glue),
        Ty::Array(t, _) => plain_no_drop_glue(t),
        _ => false,
    }
}
