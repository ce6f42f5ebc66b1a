//! From parsed MIR to oxide-mir JSON (docs/oxide-mir-format.md).
//!
//! Starting at the kernels (functions with a `__OXIDE_KERNEL_<name>`
//! marker constant), every body reachable through calls and constants is
//! exported; every call must resolve (`callee.rs`), every type gets an entry
//! in the type table with rustc's layout (asked through the `probe`
//! callback once all types are known), and every statement gets a span in
//! the user's files (`spans.rs`). Anything that cannot be represented is an
//! error at its Rust source line; nothing is written then.

mod assoc;
mod body;
mod caller;
pub(crate) mod callee;
mod closure_shims;
mod closures;
mod consteval;
mod consts;
mod drops;
mod dyncall;
mod dyn_drop;
mod gpu_print;
pub(crate) mod heap;
mod impls;
mod implty;
mod inline_const;
mod lib_discr;
mod lib_local_types;
mod mono;
mod needs_drop;
mod once_shim;
mod private_adts;
mod probe_names;
mod promoteds;
mod reflect;
mod probed_consts;
pub(crate) mod spans;
mod spanclosures;
mod special;
mod srcnames;
mod upcast;
mod type_props;
mod zst_closures;

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::Path as FsPath;

use crate::adts::AdtTable;
use crate::diag::{Code, DResult, Diag};
use crate::json::Json;
use crate::layout::Layout;
use crate::mirparse::ast::{Alloc, Body, BodyKind, ConstItem, ConstVal, MirFile, SrcSpan, Ty};
use crate::obj;
use crate::toolchain::RustcInfo;
use crate::types::TypeTable;

use callee::CalleeResolver;
use spans::SpanTable;

pub const FORMAT_VERSION: u32 = 1;
pub const KERNEL_MARKER: &str = "__OXIDE_KERNEL_";

pub struct ExportInput<'a> {
    pub mir: &'a MirFile,
    /// The text `mir` was parsed from (generic bodies are instantiated
    /// from it).
    pub mir_text: &'a str,
    pub crate_name: &'a str,
    /// The kernel crate's directory; files below it are the user's.
    pub crate_dir: &'a FsPath,
    pub rustc: &'a RustcInfo,
    /// The target triple the crate was compiled for (nvptx64 or the host).
    pub target: &'a str,
    pub adts: &'a AdtTable,
    /// Names of the crate's dependencies (`oxide_device`), for probe paths.
    pub extern_crates: &'a [String],
    /// core's and the dependencies' MIR (library.rs), each loaded when a
    /// body, constant or static of it is needed.
    pub library: &'a crate::library::Libraries<'a>,
}

/// Asks rustc for the layouts of types spelled as in the crate root.
pub type Probe<'p> = dyn FnMut(&[String]) -> DResult<Vec<Result<Layout, String>>> + 'p;

/// Asks rustc for the vtable layouts of trait object types (`dyn Shape`).
pub type VtableProbe<'p> = dyn FnMut(&[String]) -> DResult<Vec<Result<Vec<crate::vtable::Entry>, String>>> + 'p;

/// Asks rustc for the TypeId and type name of types spelled as in the
/// crate root (crate::reflect).
pub type ReflectProbe<'p> = dyn FnMut(&[String]) -> DResult<Vec<Result<crate::reflect::Reflected, String>>> + 'p;
pub use probed_consts::CountProbe;

/// Told of a kernel left out (`--keep-going`) with the error that made it so.
pub type LeftOut<'r> = dyn FnMut(&str, &Diag) + 'r;

/// Exports every kernel and what it reaches. Without `left_out`, the
/// first error ends the export. With it (`--keep-going`), a kernel whose
/// bodies or parameters cannot be exported is left out, as if its
/// `#[kernel]` were not there: `left_out` is told each such kernel with its
/// error, and the others are exported again without it (the same JSON as
/// an export of the crate without those kernels). An error that no kernel
/// can be blamed for still ends the export, as does leaving out every
/// kernel.
pub fn export(
    input: &ExportInput,
    probe: &mut Probe,
    vprobe: &mut VtableProbe,
    rprobe: &mut ReflectProbe,
    cprobe: &mut CountProbe,
    mut left_out: Option<&mut LeftOut>,
) -> DResult<Json> {
    let mut skip: Vec<String> = Vec::new();
    loop {
        let mut ex = Exporter::new(input);
        let kernels = ex.find_kernels(&skip)?;
        let done = ex
            .export_bodies(&kernels)
            .and_then(|()| ex.finish_vtables(&kernels, vprobe))
            .and_then(|()| ex.finish_reflect(rprobe))
            .and_then(|()| ex.fill_probed_consts(cprobe));
        let bad = match done {
            Err(d) if left_out.is_some() => Exporter::failing_kernels(input, &kernels, cprobe, d)?,
            r => {
                r?;
                ex.note_static_types();
                ex.note_discriminants()?;
                ex.types.attach_decls(input.adts).map_err(|m| Diag::new(Code::Export, m))?;
                ex.attach_sysroot_enums();
                ex.fill_needs_drop(cprobe);
                ex.fill_layouts(probe)?;
                ex.fill_type_props()?;
                ex.fill_locations()?;
                let bad = ex.check_kernel_params(&kernels);
                if bad.is_empty() {
                    ex.fill_uninit()?;
                    ex.check_const_vtables()?;
                    let vtables = ex.vtables_json()?;
                    return Ok(ex.document(vtables));
                }
                bad
            }
        };
        let Some(report) = left_out.as_deref_mut() else {
            return Err(bad.into_iter().next().expect("an error").1);
        };
        for (k, d) in bad {
            report(&k, &d);
            skip.push(k);
        }
    }
}

pub struct Exporter<'a> {
    input: &'a ExportInput<'a>,
    bodies: HashMap<&'a str, &'a Body>,
    consts: HashMap<&'a str, &'a ConstItem>,
    allocs: HashMap<u32, &'a Alloc>,
    types: TypeTable,
    spans: SpanTable,
    callees: CalleeResolver,
    queue: VecDeque<String>,
    queued: BTreeSet<String>,
    functions: Vec<Json>,
    /// Allocations referenced by exported constants (closed over relocations at the end).
    used_allocs: BTreeSet<u32>,
    /// Static allocations: alloc id → (type index of the static's declared
    /// type, `static mut`), from the `static [mut] NAME: T = {` items.
    static_types: HashMap<u32, (usize, bool)>,
    /// Allocations made here for string literal constants.
    string_allocs: Vec<Alloc>,
    /// The vtables of the unsize coercions to trait objects (dyncall.rs).
    vtables: Vec<dyncall::VtableReq>,
    /// Dyn upcasting coercions, checked against rustc's vtable layouts.
    upcasts: Vec<upcast::Upcast>,
    /// Calls through vtables, waiting for their slots.
    vcalls: Vec<dyncall::VirtualCall>,
    /// rustc's vtable layout of each trait object type met.
    vt_layouts: HashMap<String, Result<Vec<crate::vtable::Entry>, String>>,
    /// Bodies taken from core's MIR (library.rs) → where the kernel crate
    /// first called them (their statements have no spans of their own).
    library_bodies: HashMap<String, String>,
    /// Projections of library instances that were not normalized
    /// (assoc.rs) → why, said in an error that names one.
    unread_projections: HashMap<String, String>,
    /// Library structs no layout probe can name, by path (private_adts.rs).
    /// (true: an enum without variants, which `Infallible` stands in for)
    private_adts: std::collections::BTreeMap<String, bool>,
    /// The types whose TypeId or name a body needs (reflect.rs).
    reflect_wanted: Vec<reflect::Wanted>,
    /// The copies of `#[track_caller]` functions: copy → (function, its
    /// caller's location) (caller.rs).
    tc_copies: HashMap<String, (String, caller::CallerLoc)>,
    /// The caller's location of the copy being exported.
    caller_loc: Option<caller::CallerLoc>,
    /// `Location` allocations, written once layouts are known.
    loc_allocs: Vec<caller::LocAlloc>,
    /// Associated constants rustc is asked for (probed_consts.rs).
    probed_consts: Vec<probed_consts::ProbedConst>,
    /// ADTs dropped where rustc built no drop glue shim (drops.rs), whose
    /// `needs_drop` rustc is asked for (needs_drop.rs).
    glueless_drops: BTreeSet<String>,
    /// Drops of trait objects, as nothing: (trait object type, where),
    /// checked against the vtables (drops.rs `check_dyn_drops`).
    dyn_drops: Vec<(String, String)>,
    /// `SizedTypeProperties` constants waiting for layouts (type_props.rs).
    type_props: Vec<type_props::PendingProp>,
}

impl<'a> Exporter<'a> {
    fn new(input: &'a ExportInput<'a>) -> Self {
        let spans = SpanTable::new(input.crate_dir);
        let mir = input.mir;
        let mut ex = Exporter {
            input,
            bodies: mir.bodies.iter().filter(|b| !matches!(b.kind, BodyKind::Static | BodyKind::StaticMut)).map(|b| (b.name.as_str(), b)).collect(),
            consts: mir.consts.iter().map(|c| (c.name.as_str(), c)).collect(),
            allocs: mir.allocs.iter().map(|a| (a.id, a)).collect(),
            types: TypeTable::default(),
            callees: CalleeResolver::new(
                &mir.bodies,
                &mir.consts.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
                &spans,
            ),
            spans,
            queue: VecDeque::new(),
            queued: BTreeSet::new(),
            functions: Vec::new(),
            used_allocs: BTreeSet::new(),
            static_types: HashMap::new(),
            string_allocs: Vec::new(),
            vtables: Vec::new(),
            upcasts: Vec::new(),
            vcalls: Vec::new(),
            vt_layouts: HashMap::new(),
            library_bodies: HashMap::new(),
            unread_projections: HashMap::new(),
            private_adts: std::collections::BTreeMap::new(),
            reflect_wanted: Vec::new(),
            tc_copies: HashMap::new(),
            caller_loc: None,
            loc_allocs: Vec::new(),
            probed_consts: Vec::new(),
            glueless_drops: BTreeSet::new(),
            type_props: Vec::new(),
            dyn_drops: Vec::new(),
        };
        ex.add_no_alloc_shim();
        ex
    }

    /// `const m::__OXIDE_KERNEL_k: &str = const "k";` marks `m::k`;
    /// the kernels in `skip` are left out.
    fn find_kernels(&self, skip: &[String]) -> DResult<Vec<String>> {
        let mut kernels = Vec::new();
        for c in &self.input.mir.consts {
            let Some((module, name)) = marker_kernel(&c.name) else { continue };
            let path = if module.is_empty() { name.to_string() } else { format!("{module}::{name}") };
            if !self.bodies.contains_key(path.as_str()) {
                return Err(Diag::new(Code::Export, format!("kernel `{path}` has a #[kernel] marker but no MIR body")));
            }
            if !skip.contains(&path) {
                kernels.push(path);
            }
        }
        if kernels.is_empty() && !skip.is_empty() {
            return Err(Diag::new(Code::Crate, format!("crate `{}`: every kernel was left out", self.input.crate_name)));
        }
        if kernels.is_empty() {
            return Err(Diag::new(Code::Crate, format!(
                "crate `{}` has no kernels: mark at least one `pub fn` with `#[kernel]` (oxide_device::kernel)",
                self.input.crate_name
            )));
        }
        kernels.sort();
        Ok(kernels)
    }

    /// The bodies of `kernels` and of everything they reach, in the order
    /// they are found.
    fn export_bodies(&mut self, kernels: &[String]) -> DResult<()> {
        for k in kernels {
            self.enqueue(k);
        }
        while let Some(name) = self.queue.pop_front() {
            let body = self.bodies[name.as_str()];
            let kernel = kernels.contains(&name).then_some(name.as_str());
            // a `#[track_caller]` function's copy for one caller (caller.rs)
            self.caller_loc = self.copy_location(&name);
            let mut j = self.body_json(body, kernel);
            if let (Some(_), Ok(Json::Obj(fields))) = (self.caller_loc.take(), &mut j) {
                let symbol = self.symbol(&name);
                for (k, v) in fields.iter_mut() {
                    match k.as_str() {
                        "name" => *v = Json::from(name.as_str()),
                        "symbol" => *v = Json::from(symbol.as_str()),
                        _ => {}
                    }
                }
            }
            self.functions.push(j?);
        }
        Ok(())
    }

    /// The kernels whose bodies, or the constants rustc is asked for
    /// (probed_consts.rs), fail to export alone, each with its first error
    /// (a helper that fails fails every kernel that reaches it). `err`,
    /// the error of the export of them all, when none does alone.
    fn failing_kernels(input: &'a ExportInput<'a>, kernels: &[String], cprobe: &mut CountProbe, err: Diag) -> DResult<Vec<(String, Diag)>> {
        let mut bad = Vec::new();
        for k in kernels {
            let mut ex = Exporter::new(input);
            if let Err(d) = ex.export_bodies(std::slice::from_ref(k)).and_then(|()| ex.fill_probed_consts(cprobe)) {
                bad.push((k.clone(), d));
            }
        }
        if bad.is_empty() {
            return Err(err);
        }
        Ok(bad)
    }

    /// The launch attributes of kernel `path` (`#[kernel(launch_bounds(..))]`,
    /// `#[kernel(reqntid(..))]`, `#[kernel(cluster(..))]`): the marker's value is
    /// `"name;maxntid=256;minnctapersm=2;reqntid=16,16;cluster=2,1,1"`, written to
    /// `kernel.attrs` as `{"maxntid": "256", ...}` (values as strings).
    pub(super) fn kernel_attrs(&self, path: &str) -> Json {
        let mut attrs = Vec::new();
        for c in &self.input.mir.consts {
            let Some((module, name)) = marker_kernel(&c.name) else { continue };
            let p = if module.is_empty() { name.to_string() } else { format!("{module}::{name}") };
            if p != path {
                continue;
            }
            if let crate::mirparse::ast::ConstVal::Str(bytes) = &c.value.val {
                let text = String::from_utf8_lossy(bytes);
                for item in text.split(';').skip(1) {
                    if let Some((k, v)) = item.split_once('=') {
                        attrs.push((k.to_string(), Json::from(v.to_string())));
                    }
                }
            }
        }
        Json::Obj(attrs)
    }

    fn enqueue(&mut self, name: &str) {
        if self.queued.insert(name.to_string()) {
            self.queue.push_back(name.to_string());
        }
    }

    /// `const E::V::{constant#0}: isize = const 3_isize;` is the explicit
    /// discriminant of variant `V` of enum `E`.
    fn note_discriminants(&mut self) -> DResult<()> {
        // A discriminant written as an expression (`High = 1 << 30`) is
        // printed as a body, not a value: evaluated here (integer code
        // only), refused when that fails rather than guessed.
        let mut computed = Vec::new();
        for b in &self.input.mir.bodies {
            let Some(rest) = b.name.strip_suffix("::{constant#0}") else { continue };
            let Some((enum_path, variant)) = rest.rsplit_once("::") else { continue };
            let used = (0..self.types.entries.len())
                .any(|i| matches!(&self.types.get(i).ty, Ty::Adt(p) if p.bare() == enum_path));
            if !used {
                continue;
            }
            match consteval::eval_int_body(b) {
                Ok(v) => computed.push((enum_path.to_string(), variant.to_string(), v)),
                Err(why) => {
                    return Err(Diag::new(Code::Unsupported, format!(
                        "the discriminant of `{rest}` is a constant expression that mir-export cannot \
                         evaluate ({why}); write it as an integer literal"
                    )))
                }
            }
        }
        for (enum_path, variant, value) in computed {
            self.note_discriminant(&enum_path, &variant, value);
        }
        for c in &self.input.mir.consts {
            let Some(rest) = c.name.strip_suffix("::{constant#0}") else { continue };
            let Some((enum_path, variant)) = rest.rsplit_once("::") else { continue };
            // The value may print symbolically (`u8::MAX` for `= 255`): a
            // discriminant we cannot read is an error, never a guess.
            let Ty::Int { bits, signed, .. } = c.ty else { continue };
            let ConstVal::Int { negative, text } = &c.value.val else { continue };
            let Some(raw) = consts::int_bits(*negative, text, bits, signed) else {
                return Err(Diag::new(Code::MirParse, format!("cannot read the discriminant of `{rest}`: `{text}`")));
            };
            let value = if signed && bits < 128 && raw >> (bits - 1) & 1 == 1 {
                (raw | !((1u128 << bits) - 1)) as i128
            } else {
                raw as i128
            };
            self.note_discriminant(enum_path, variant, value);
        }
        Ok(())
    }

    /// The declarations of core's and alloc's enums that the crate's
    /// sources do not declare (`core::fmt::Alignment` in Formatter's
    /// bodies), read from their sources when their MIR is there: oxidec
    /// needs the variants of an enum a constant builds.
    fn attach_sysroot_enums(&mut self) {
        for k in 0..self.types.entries.len() {
            let Ty::Adt(p) = &self.types.entries[k].ty else { continue };
            if self.types.entries[k].adt.as_ref().is_none_or(|a| a.decl.is_some()) {
                continue;
            }
            let decl = self.sysroot_enum(&p.bare());
            if let (Some(d), Some(info)) = (decl, self.types.entries[k].adt.as_mut()) {
                info.decl = Some(d);
            }
        }
    }

    fn note_discriminant(&mut self, enum_path: &str, variant: &str, value: i128) {
        let adts: Vec<usize> = (0..self.types.entries.len())
            .filter(|&i| matches!(&self.types.get(i).ty, Ty::Adt(p) if p.bare() == enum_path))
            .collect();
        for adt in adts {
            if let Ok(Some(decl)) = self.input.adts.lookup(enum_path) {
                if let Some(v) = decl.variants.iter().position(|n| n == variant) {
                    self.types.note_discriminant(adt, v as u32, value);
                }
            }
        }
    }

    /// Asks rustc, in one probe, for the layout of every ADT, tuple and
    /// array type in the table.
    fn fill_layouts(&mut self, probe: &mut Probe) -> DResult<()> {
        // A closure and a struct declared inside a generic function cannot
        // be named in the probe. rustc lays out both as a plain struct of
        // their field types (the captures; the fields in declaration
        // order): a tuple struct of those types, declared by the probe
        // (`layout::struct_probe_name`), is probed in their place. A closure
        // that captures nothing, or only such closures, is laid out like
        // `()`, and stands in as `()` in the types that contain it
        // (zst_closures.rs).
        let mut stand_in_errors: Vec<(usize, String)> = Vec::new();
        // library structs no path names: laid out from their declared
        // fields (private_adts.rs)
        self.private_adt_fields();
        let private = |p: &crate::mirparse::ast::Path| self.private_adts.get(&p.bare()).copied();
        // a closure of the crate that nothing built (zero-sized, optimized
        // away: `array::map`'s `Wrapped<u64, u32, {closure@..}>`) whose
        // body captures nothing
        let mut closures = Vec::new();
        for e in &self.types.entries {
            zst_closures::closures_in(&e.ty, &mut closures);
        }
        for c in closures {
            let i = self.types.intern(&Ty::Closure(c.clone()));
            if self.types.get(i).upvars.is_none() && self.closure_captures_nothing(&c) {
                self.types.entries[i].upvars = Some(Vec::new());
            }
        }
        let fieldless = zst_closures::fieldless_closures(&self.types);
        for (i, &f) in fieldless.iter().enumerate() {
            if f && self.types.get(i).layout.is_none() {
                // its captures, all zero-sized, are at offset 0
                let mut layout = Layout::memory(0, 1);
                layout.fields = vec![0; self.types.get(i).upvars.as_ref().map_or(0, Vec::len)];
                self.types.entries[i].layout = Some(layout);
            }
        }
        let is_fieldless = |t: &Ty| self.types.lookup(t).is_some_and(|i| fieldless[i]);
        let mut stand_ins: Vec<(usize, String)> = Vec::new();
        for i in 0..self.types.entries.len() {
            let e = self.types.get(i);
            let fields = match &e.ty {
                Ty::Closure(_) => e.upvars.as_ref().filter(|f| !f.is_empty()),
                Ty::Adt(p) if p.declared_in_generic() => e.local_fields.as_ref().filter(|f| !f.is_empty()),
                Ty::Adt(p) if private(p) == Some(false) => e.local_fields.as_ref(),
                _ => None,
            };
            let Some(fields) = fields.filter(|_| e.layout.is_none()) else { continue };
            let tys: Option<Vec<Ty>> =
                fields.iter().map(|&u| zst_closures::with_unit_for_closures(&self.types.get(u).ty, &is_fieldless)).collect();
            let tys = tys.filter(|v| !v.iter().any(|t| self.names_private_adt(t)));
            let Some(tys) = tys else {
                // a closure that captures a closure with fields (enumerate's
                // around find's `check` around the user's), or a private
                // struct holding one or another private struct: its
                // stand-in struct, the captured closures' written as theirs
                if matches!(&e.ty, Ty::Closure(_)) || matches!(&e.ty, Ty::Adt(p) if private(p) == Some(false)) {
                    let captures = |c: &str| capture_types(&self.types, c);
                    match probe_names::stand_ins_probe_name_of(&e.ty, &captures, &private, self.input.adts, self.input.extern_crates) {
                        Ok(name) => stand_ins.push((i, name)),
                        Err(why) => stand_in_errors.push((i, why)),
                    }
                }
                continue;
            };
            let tys: Vec<&Ty> = tys.iter().collect();
            match probe_names::struct_probe_name_of(&tys, self.input.adts, self.input.extern_crates) {
                Ok(name) => stand_ins.push((i, name)),
                Err(why) => stand_in_errors.push((i, why)),
            }
        }
        // a type that mentions one declared inside a function body is
        // named inside that body (probe_names.rs)
        let mut probed: Vec<(usize, String)> = Vec::new();
        let wanted: Vec<usize> =
            (0..self.types.entries.len()).filter(|&i| self.types.needs_probe(i) && !self.names_private_adt(&self.types.get(i).ty)).collect();
        for i in wanted {
            match probe_names::probe_name_of(&self.types.get(i).ty, self.input.adts, self.input.extern_crates) {
                Ok(name) => probed.push((i, name)),
                Err(why) => stand_in_errors.push((i, why)),
            }
        }
        // a type that contains fieldless zero-sized closures: probed with
        // `()` in their place (zst_closures.rs)
        for i in 0..self.types.entries.len() {
            let e = self.types.get(i);
            let probed_kind = matches!(&e.ty, Ty::Adt(p) if !p.declared_in_generic()) || matches!(e.ty, Ty::Tuple(_) | Ty::Array(..));
            if e.layout.is_some() || !probed_kind || !e.ty.is_unnameable() || self.names_private_adt(&e.ty) || probe_names::has_fn_item_arg(&e.ty) {
                continue;
            }
            let Some(stand_in) = zst_closures::with_unit_for_closures(&e.ty, &is_fieldless) else { continue };
            match probe_names::probe_name_of(&stand_in, self.input.adts, self.input.extern_crates) {
                Ok(name) => probed.push((i, name)),
                Err(why) => stand_in_errors.push((i, why)),
            }
        }
        // a type that contains closures with captures: probed with their
        // stand-in structs in their place
        let taken: BTreeSet<usize> = probed.iter().map(|p| p.0).collect();
        stand_ins.extend(self.closure_container_probe_names(&taken));
        for (i, why) in stand_in_errors {
            self.types.entries[i].layout_error = Some(why);
        }
        probed.extend(stand_ins);
        if !probed.is_empty() {
            let names: Vec<String> = probed.iter().map(|p| p.1.clone()).collect();
            let results = probe(&names)?;
            for ((i, _), r) in probed.iter().zip(results) {
                let e = &mut self.types.entries[*i];
                match r {
                    Ok(l) => e.layout = Some(l),
                    Err(msg) => e.layout_error = Some(msg),
                }
            }
        }
        self.unknown_local_struct_layouts();
        self.unnameable_array_layouts();
        Ok(())
    }

    /// A type that contains closures (`TakeWhile<Iter<'_, u64>,
    /// {closure@..}>`, `Option<{closure@..}>`, a tuple of them) is probed
    /// with each closure replaced by its stand-in struct, the tuple struct
    /// of its capture types (`layout::stand_ins_probe_name`): the same
    /// field types, so the same size, alignment, field offsets and niches
    /// (a captured `&T` is non-null in both). A closure whose captures are
    /// not known, or that captures what the probe cannot name, leaves the
    /// type without a layout, with that reason.
    fn closure_container_probe_names(&mut self, taken: &BTreeSet<usize>) -> Vec<(usize, String)> {
        let mut named = Vec::new();
        let mut refused = Vec::new();
        for i in 0..self.types.entries.len() {
            let e = self.types.get(i);
            let private = |p: &crate::mirparse::ast::Path| self.private_adts.get(&p.bare()).copied();
            // (a private struct itself is laid out from its fields: fill_layouts)
            let container = matches!(&e.ty, Ty::Tuple(_) | Ty::Ref { .. } | Ty::Ptr { .. } | Ty::Array(..))
                || matches!(&e.ty, Ty::Adt(p) if !p.declared_in_generic() && private(p) != Some(false));
            let unnameable = e.ty.is_unnameable() || self.names_private_adt(&e.ty);
            if e.layout.is_some() || taken.contains(&i) || !container || !unnameable {
                continue;
            }
            let types = &self.types;
            let captures = |c: &str| capture_types(types, c);
            match probe_names::stand_ins_probe_name_of(&e.ty, &captures, &private, self.input.adts, self.input.extern_crates) {
                Ok(name) => named.push((i, name)),
                Err(why) => refused.push((i, why)),
            }
        }
        for (i, why) in refused {
            self.types.entries[i].layout_error = Some(why);
        }
        named
    }

    /// A struct declared inside a generic function that no aggregate
    /// built: its field types, so its layout, are unknown.
    fn unknown_local_struct_layouts(&mut self) {
        for e in &mut self.types.entries {
            if matches!(&e.ty, Ty::Adt(p) if p.declared_in_generic()) && e.layout.is_none() && e.layout_error.is_none() {
                e.layout_error = Some(format!(
                    "`{}` is declared inside a generic function, where rustc cannot be asked its layout, and no \
                     aggregate in the exported MIR builds it: its field types are unknown",
                    e.ty
                ));
            }
        }
    }

    /// `[{closure@..}; 3]`: rustc cannot be asked (the element has no
    /// name), but an array's layout follows from its element's as rustc
    /// computes it: N elements of the element's size (a multiple of its
    /// alignment), the element's alignment, memory ABI, field 0 at 0.
    fn unnameable_array_layouts(&mut self) {
        loop {
            let mut changed = false;
            for i in 0..self.types.entries.len() {
                let e = self.types.get(i);
                let Ty::Array(elem, n) = &e.ty else { continue };
                if e.layout.is_some() || !e.ty.is_unnameable() {
                    continue;
                }
                let (Some(n), Some(el)) = (n.parse::<u64>().ok(), self.types.lookup(elem)) else { continue };
                let Some(l) = self.types.get(el).layout.as_ref() else { continue };
                let Some(size) = l.size.checked_mul(n) else { continue };
                let mut layout = Layout::memory(size, l.align);
                layout.fields = vec![0];
                self.types.entries[i].layout = Some(layout);
                self.types.entries[i].layout_error = None;
                changed = true;
            }
            if !changed {
                break;
            }
        }
    }

    /// Kernel parameters cross the host/device boundary: their layout must
    /// be rustc's, never guessed. The kernels with a parameter whose layout
    /// is unknown, each with the error for its first such parameter.
    fn check_kernel_params(&self, kernels: &[String]) -> Vec<(String, Diag)> {
        let mut bad = Vec::new();
        for k in kernels {
            let body = self.bodies[k.as_str()];
            for local in 1..=body.arg_count as usize {
                let decl = body.locals[local].as_ref().expect("arguments are declared");
                let t = self.types.lookup(&decl.ty).expect("kernel argument types are interned");
                let e = self.types.get(t);
                if holds_dyn(&decl.ty) {
                    let d = Diag::at(
                        self.loc(body, decl.scope, decl.span.as_ref()),
                        Code::Gpu,
                        format!("kernel parameter type `{}` holds a trait object: its vtable would be the host's, \
                                 whose code addresses are not the GPU's; pass the value or an index and make the \
                                 trait object in the kernel", decl.ty),
                    );
                    bad.push((k.clone(), d));
                    break;
                }
                if holds_fn_ptr(&decl.ty) {
                    let d = Diag::at(
                        self.loc(body, decl.scope, decl.span.as_ref()),
                        Code::Gpu,
                        format!("kernel parameter type `{}` holds a function pointer: the host's code addresses \
                                 are not the GPU's; pass an index and select the function in the kernel", decl.ty),
                    );
                    bad.push((k.clone(), d));
                    break;
                }
                if e.layout.is_none() {
                    let why = e.layout_error.as_deref().unwrap_or("rustc cannot be asked about this type");
                    let d = Diag::at(
                        self.loc(body, decl.scope, decl.span.as_ref()),
                        Code::Export,
                        format!("cannot learn the layout of kernel parameter type `{}`: {why}", decl.ty),
                    );
                    bad.push((k.clone(), d));
                    break;
                }
            }
        }
        bad
    }

    /// `file:line:col` of a line in `scope` of `body`, resolved to user code.
    /// Code that a library macro expanded (`write!`) has no call site in
    /// the user's files: then a user line of the nearest enclosing scope
    /// that has one is named.
    fn loc(&self, body: &Body, scope: u32, span: Option<&SrcSpan>) -> String {
        let resolved = self.spans.resolve(body, scope, span);
        if let Some(s) = resolved.as_ref().filter(|s| self.spans.user_path(&s.file).is_some()) {
            return s.to_string();
        }
        // a body of core's MIR, or an instance of one: where the kernel
        // crate called it
        if let Some(caller) = self.library_bodies.get(&body.name).or_else(|| self.library_bodies.get(&body.path.bare())) {
            return caller.clone();
        }
        if let Some(s) = span.and_then(|sp| self.preceding_user_span(body, scope, sp)) {
            return s.to_string();
        }
        if let Some(s) = self.enclosing_user_span(body, scope) {
            return s.to_string();
        }
        match resolved {
            Some(s) => s.to_string(),
            None => format!("{}: in `{}`", self.input.crate_name, body.name),
        }
    }

    /// The user's line just before the statement or terminator at `span`
    /// in its block (`StorageLive` and the other statements the parser
    /// drops included): where code that a library macro expanded starts
    /// (`std::vec!`: its spans are all in the library's macros.rs, the
    /// user's call site nowhere in the MIR text), e.g. the `StorageLive`
    /// of the `let` that the macro initialises.
    fn preceding_user_span(&self, body: &Body, scope: u32, span: &SrcSpan) -> Option<SrcSpan> {
        for b in &body.blocks {
            // statement i at key 2i+1, the terminator at 2n+1, a dropped
            // statement before kept statement p at 2p
            let mut places: Vec<(usize, u32, &SrcSpan)> = b
                .statements
                .iter()
                .enumerate()
                .filter_map(|(i, s)| Some((2 * i + 1, s.scope, s.span.as_ref()?)))
                .collect();
            let n = b.statements.len();
            if let Some(t) = b.terminator.span.as_ref() {
                places.push((2 * n + 1, b.terminator.scope, t));
            }
            places.extend(b.marks.iter().map(|(p, sc, sp)| (2 * p, *sc, sp)));
            let Some(&(at, _, _)) = places.iter().find(|(k, sc, sp)| k % 2 == 1 && *sc == scope && *sp == span) else { continue };
            return places
                .iter()
                .filter(|(k, _, sp)| *k < at && self.spans.user_path(&sp.file).is_some())
                .max_by_key(|(k, _, _)| *k)
                .and_then(|(_, sc, sp)| self.spans.resolve(body, *sc, Some(sp)));
        }
        None
    }

    fn enclosing_user_span(&self, body: &Body, scope: u32) -> Option<SrcSpan> {
        let lines: Vec<(u32, &SrcSpan)> = body
            .blocks
            .iter()
            .flat_map(|b| {
                b.statements.iter().map(|s| (s.scope, s.span.as_ref())).chain([(b.terminator.scope, b.terminator.span.as_ref())])
            })
            .filter_map(|(sc, sp)| Some((sc, sp?)))
            .filter(|(_, sp)| self.spans.user_path(&sp.file).is_some())
            .collect();
        let mut cur = body.scopes.get(scope as usize).and_then(|s| s.parent);
        while let Some(sc) = cur {
            if let Some((_, sp)) = lines.iter().find(|(s, _)| *s == sc) {
                return self.spans.resolve(body, sc, Some(sp));
            }
            cur = body.scopes.get(sc as usize).and_then(|s| s.parent);
        }
        None
    }

    /// Operands `const <uninit>` become zero bytes of their type's size
    /// (sizes are known only after the layout probe).
    fn fill_uninit(&mut self) -> DResult<()> {
        fn walk(j: &mut Json, types: &TypeTable) -> Result<(), String> {
            match j {
                Json::Arr(items) => items.iter_mut().try_for_each(|x| walk(x, types)),
                Json::Obj(fields) => {
                    let is_uninit_operand = fields.iter().any(|(k, v)| k == "kind" && *v == Json::from("constant"))
                        && fields.iter().any(|(k, v)| {
                            k == "const" && matches!(v, Json::Obj(c) if c.iter().any(|(k, v)| k == "kind" && *v == Json::from("uninit")))
                        });
                    if is_uninit_operand {
                        let ty = fields.iter().find_map(|(k, v)| match (k.as_str(), v) {
                            ("ty", Json::Int(t)) => Some(*t as usize),
                            _ => None,
                        });
                        let entry = ty.map(|t| types.get(t));
                        let size = entry.and_then(|e| e.layout.as_ref()).map(|l| l.size).ok_or_else(|| {
                            format!("the size of an uninitialised constant of type `{}` is unknown", entry.map_or(String::from("?"), |e| e.ty.to_string()))
                        })?;
                        for (k, v) in fields.iter_mut() {
                            if k == "const" {
                                *v = obj!["kind" => "bytes", "bytes" => "00".repeat(size as usize), "relocs" => Json::Arr(vec![])];
                            }
                        }
                        return Ok(());
                    }
                    fields.iter_mut().try_for_each(|(_, v)| walk(v, types))
                }
                _ => Ok(()),
            }
        }
        for f in &mut self.functions {
            walk(f, &self.types).map_err(|m| Diag::new(Code::Export, m))?;
        }
        Ok(())
    }

    /// The top-level object.
    fn document(&mut self, vtables: Json) -> Json {
        let types: Vec<Json> = (0..self.types.entries.len()).map(|i| self.types.to_json(i)).collect();
        let allocs = self.allocs_json();
        let r = self.input.rustc;
        obj![
            "format" => "oxide-mir",
            "version" => FORMAT_VERSION,
            "producer" => obj!["name" => "mir-export", "version" => env!("CARGO_PKG_VERSION")],
            "rustc" => obj![
                "release" => r.release.as_str(),
                "commit_hash" => r.commit_hash.as_str(),
                "host" => r.host.as_str(),
                "target" => self.input.target,
                "llvm" => r.llvm.as_str(),
                "verbose" => r.verbose.as_str(),
            ],
            "crate" => self.input.crate_name,
            "files" => self.spans.files.iter().map(|f| Json::from(f.as_str())).collect::<Vec<_>>(),
            "types" => types,
            "functions" => std::mem::take(&mut self.functions),
            "allocs" => allocs,
            "vtables" => vtables,
        ]
    }

    /// A constant or static that holds a trait object points at a vtable
    /// rustc's const evaluation made (`allocN (vtable: impl Shape for
    /// Sq)`), whose words the text does not print: refused.
    fn check_const_vtables(&self) -> DResult<()> {
        let mut todo: Vec<(u32, Option<String>)> = self.used_allocs.iter().map(|&id| (id, None)).collect();
        let mut done = BTreeSet::new();
        while let Some((id, owner)) = todo.pop() {
            if !done.insert(id) {
                continue;
            }
            let Some(a) = self.alloc(id) else { continue };
            let owner = owner.or_else(|| a.static_name.clone());
            if let Some(v) = &a.vtable {
                let whose = owner.as_ref().map_or_else(|| "a constant".to_string(), |s| format!("the static `{s}`"));
                let item = owner.as_ref().and_then(|s| {
                    self.input.mir.bodies.iter().find(|b| {
                        matches!(b.kind, BodyKind::Static | BodyKind::StaticMut)
                            && (b.name == *s || b.name.rsplit("::").next() == Some(s.as_str()))
                    })
                });
                let msg = format!(
                    "{whose} holds a trait object (the vtable of `{v}` made by rustc's constant evaluation): \
                     trait objects in constants and statics are not supported; make the `&dyn` in the kernel"
                );
                return Err(match item {
                    Some(b) => Diag::at(self.loc(b, 0, b.locals.first().and_then(|l| l.as_ref()).and_then(|l| l.span.as_ref())), Code::Unsupported, msg),
                    None => Diag::new(Code::Unsupported, msg),
                });
            }
            todo.extend(a.relocs.iter().map(|r| (r.1, owner.clone())));
        }
        Ok(())
    }

    /// Every allocation reachable from exported constants, by id.
    fn allocs_json(&self) -> Vec<Json> {
        let mut todo: Vec<u32> = self.used_allocs.iter().copied().collect();
        let mut done = BTreeSet::new();
        while let Some(id) = todo.pop() {
            if !done.insert(id) {
                continue;
            }
            if let Some(a) = self.alloc(id) {
                todo.extend(a.relocs.iter().map(|r| r.1));
            }
        }
        done.iter().filter_map(|&id| self.alloc(id)).map(|a| alloc_json(a, self.static_types.get(&a.id).copied())).collect()
    }

    /// Interns the declared type of every used static allocation, so
    /// oxidec can place `oxide_device::Shared<T>` / `Constant<T>` statics
    /// in shared / constant memory (the alloc's "ty" and "mutable").
    fn note_static_types(&mut self) {
        let mut todo: Vec<u32> = self.used_allocs.iter().copied().collect();
        let mut done = BTreeSet::new();
        while let Some(id) = todo.pop() {
            if !done.insert(id) {
                continue;
            }
            let Some(a) = self.allocs.get(&id).copied() else { continue };
            todo.extend(a.relocs.iter().map(|r| r.1));
            let Some(name) = a.static_name.as_deref() else { continue };
            let found = self.input.mir.bodies.iter().find(|b| {
                matches!(b.kind, BodyKind::Static | BodyKind::StaticMut)
                    && (b.name == name || b.name.rsplit("::").next() == Some(name) || name.rsplit("::").next() == Some(b.name.as_str()))
            });
            if let Some(b) = found {
                let ty = self.types.intern(&b.ret_ty);
                self.static_types.insert(id, (ty, b.kind == BodyKind::StaticMut));
            }
        }
    }

    fn alloc(&self, id: u32) -> Option<&Alloc> {
        self.allocs.get(&id).copied().or_else(|| self.string_allocs.iter().find(|a| a.id == id))
    }
}

/// `m::__OXIDE_KERNEL_k` → (`m`, `k`).
/// The capture types of closure `c` (its `upvars`), in order, for its
/// stand-in struct; why not, when no aggregate said what they are.
fn capture_types<'t>(types: &'t crate::types::TypeTable, c: &str) -> Result<Vec<&'t Ty>, String> {
    if !c.starts_with("{closure@") {
        // a private library struct (private_adts.rs): its declared fields
        let e = types.lookup_name(c).map(|k| types.get(k));
        let fields = e.and_then(|e| e.local_fields.as_ref());
        let fields = fields.ok_or_else(|| e.and_then(|e| e.layout_error.clone()).unwrap_or_else(|| format!("the fields of `{c}` are not known")))?;
        return Ok(fields.iter().map(|&u| &types.get(u).ty).collect());
    }
    let upvars = types.lookup(&Ty::Closure(c.to_string())).and_then(|k| types.get(k).upvars.as_ref());
    let upvars = upvars.ok_or_else(|| {
        format!("the captures of `{c}` are not known (no aggregate in the exported MIR builds it), so no struct stands in for it")
    })?;
    Ok(upvars.iter().map(|&u| &types.get(u).ty).collect())
}

fn marker_kernel(const_name: &str) -> Option<(&str, &str)> {
    let (module, last) = match const_name.rsplit_once("::") {
        Some((m, l)) => (m, l),
        None => ("", const_name),
    };
    Some((module, last.strip_prefix(KERNEL_MARKER)?))
}

fn alloc_json(a: &Alloc, static_ty: Option<(usize, bool)>) -> Json {
    let bytes: String = a.bytes.iter().map(|b| format!("{:02x}", b.unwrap_or(0))).collect();
    let init = if a.bytes.iter().all(Option::is_some) {
        Json::Null
    } else {
        // One bit per byte, least significant bit first, as hex bytes.
        let mask: String = a
            .bytes
            .chunks(8)
            .map(|c| c.iter().enumerate().fold(0u8, |m, (i, b)| m | ((b.is_some() as u8) << i)))
            .map(|m| format!("{m:02x}"))
            .collect();
        Json::from(mask)
    };
    let relocs: Vec<Json> =
        a.relocs.iter().map(|(off, target)| obj!["offset" => off.to_string(), "alloc" => *target]).collect();
    obj![
        "id" => a.id,
        "size" => a.size.to_string(),
        "align" => a.align as u32,
        "mutable" => static_ty.is_some_and(|s| s.1),
        "static" => a.static_name.clone(),
        "ty" => static_ty.map(|s| s.0),
        "bytes" => bytes,
        "init" => init,
        "relocs" => relocs,
    ]
}

/// A function pointer in a type, outside ADTs (limit: a struct field of
/// fn pointer type is not looked for; the exporter may not know the
/// field types of a parameter's ADT).
fn holds_fn_ptr(t: &Ty) -> bool {
    match t {
        Ty::FnPtr(_) => true,
        Ty::Tuple(v) => v.iter().any(holds_fn_ptr),
        Ty::Array(e, _) | Ty::Slice(e) | Ty::Ref { pointee: e, .. } | Ty::Ptr { pointee: e, .. } => holds_fn_ptr(e),
        _ => false,
    }
}

/// A trait object in a type, outside ADTs (as holds_fn_ptr).
fn holds_dyn(t: &Ty) -> bool {
    match t {
        Ty::Dyn(_) => true,
        Ty::Tuple(v) => v.iter().any(holds_dyn),
        Ty::Array(e, _) | Ty::Slice(e) | Ty::Ref { pointee: e, .. } | Ty::Ptr { pointee: e, .. } => holds_dyn(e),
        _ => false,
    }
}
