//! Resolving the callee of every `Call` terminator to one of the four kinds
//! oxidec understands (`function`, `intrinsic`, `device`, `panic`), or to an
//! error that names the callee.
//!
//! Methods are printed differently at definition and call:
//! `fn <impl at src/lib.rs:9:1: 9:14>::f(..)` is called as `<P as Tr>::f`,
//! inherent ones as `P::get`, closures as `<{closure@..} as Fn<..>>::call`.
//! The impl's header is read from the source at the `impl at` span to know
//! its trait and self type (for `#[derive]` impls the span is the derive's
//! trait name, and the self type is the type of `self`).

use std::collections::HashMap;

use crate::mirparse::ast::{Body, GenericArg, Path, Ty};
use crate::diag::Code;
use crate::rustc_compat;
use crate::mirparse::items::parse_span;
use crate::mirparse::lexer::{is_arrow_head, matching_close};

use super::spans::SpanTable;

/// What a resolved callee is.
pub enum Resolved {
    /// A body of this MIR file, by its printed name.
    Function(String),
    Intrinsic { name: String, types: Vec<Ty>, consts: Vec<String> },
    Device(String),
    Panic(String),
    /// A generic function of this file called with type arguments: its
    /// monomorphic instance (the call's path, e.g. `rotate_mix::<u8>`) is
    /// made from the generic body (mono.rs).
    Instance { generic: String },
    /// A core trait method on a primitive type that is one MIR operation
    /// (`<u8 as Into<u64>>::into`, `<u32 as BitXor>::bitxor`): what
    /// monomorphic instances of generic code call.
    Op(PrimOp),
}

/// The MIR operation a primitive trait method performs.
#[derive(Clone, Debug, PartialEq)]
pub enum PrimOp {
    /// `Add`, `BitXor`, ... of the two arguments (wrapping, as MIR's
    /// operators with overflow checks off; shifts mask their amount).
    Binary(&'static str),
    /// `Neg` or `Not` of the argument.
    Unary(&'static str),
    /// `Eq`, `Lt`, ... of what the two reference arguments point to.
    Compare(&'static str),
    /// A lossless conversion (`Into`/`From`): a cast of this kind.
    Cast(&'static str),
    /// `Clone::clone(&x)`: a copy of `*x`.
    CopyDeref,
}

/// `<P as core::ops::Add>::add` and friends, with `P` a primitive.
pub fn prim_op(path: &Path) -> Option<PrimOp> {
    let q = path.qself.as_ref()?;
    let self_ty = &*q.self_ty;
    let (is_int, is_float) = match self_ty {
        Ty::Int { .. } => (true, false),
        Ty::Float(_) => (false, true),
        Ty::Bool | Ty::Char => (false, false),
        _ => return None,
    };
    let tr = q.trait_.as_ref()?;
    let method = path.last_name();
    let arith = |op: &'static str| (is_int || is_float).then_some(PrimOp::Binary(op));
    Some(match (tr.bare().as_str(), method) {
        ("core::ops::Add", "add") => arith("Add")?,
        ("core::ops::Sub", "sub") => arith("Sub")?,
        ("core::ops::Mul", "mul") => arith("Mul")?,
        // integer division and remainder panic on zero and MIN / -1:
        // those need their asserts, which only an inlined body has
        ("core::ops::Div", "div") if is_float => PrimOp::Binary("Div"),
        ("core::ops::Rem", "rem") if is_float => PrimOp::Binary("Rem"),
        ("core::ops::BitAnd", "bitand") if !is_float => PrimOp::Binary("BitAnd"),
        ("core::ops::BitOr", "bitor") if !is_float => PrimOp::Binary("BitOr"),
        ("core::ops::BitXor", "bitxor") if !is_float => PrimOp::Binary("BitXor"),
        ("core::ops::Shl", "shl") if is_int => PrimOp::Binary("Shl"),
        ("core::ops::Shr", "shr") if is_int => PrimOp::Binary("Shr"),
        ("core::ops::Neg", "neg") if is_float || matches!(self_ty, Ty::Int { signed: true, .. }) => PrimOp::Unary("Neg"),
        ("core::ops::Not", "not") if !is_float && !matches!(self_ty, Ty::Char) => PrimOp::Unary("Not"),
        ("core::cmp::PartialEq", "eq") => PrimOp::Compare("Eq"),
        ("core::cmp::PartialEq", "ne") => PrimOp::Compare("Ne"),
        ("core::cmp::PartialOrd", "lt") => PrimOp::Compare("Lt"),
        ("core::cmp::PartialOrd", "le") => PrimOp::Compare("Le"),
        ("core::cmp::PartialOrd", "gt") => PrimOp::Compare("Gt"),
        ("core::cmp::PartialOrd", "ge") => PrimOp::Compare("Ge"),
        ("core::clone::Clone", "clone") => PrimOp::CopyDeref,
        ("core::convert::Into", "into") | ("core::convert::From", "from") => {
            let other = tr.all_args().find_map(|a| match a {
                GenericArg::Type(t) => Some(t.clone()),
                _ => None,
            })?;
            let (from, to) = if method == "into" { (self_ty, &other) } else { (&other, self_ty) };
            PrimOp::Cast(lossless_cast(from, to)?)
        }
        _ => return None,
    })
}

/// The cast kind of core's lossless `From` impls between primitives.
fn lossless_cast(from: &Ty, to: &Ty) -> Option<&'static str> {
    match (from, to) {
        (a, b) if a == b => Some("Transmute"),
        (Ty::Int { bits: fb, signed: fs, .. }, Ty::Int { bits: tb, signed: ts, .. })
            if tb > fb && (fs == ts || !fs) || (tb == fb && fs == ts) =>
        {
            Some("IntToInt")
        }
        (Ty::Bool, Ty::Int { .. }) | (Ty::Char, Ty::Int { bits: 32 | 64 | 128, signed: false, .. }) => Some("IntToInt"),
        (Ty::Int { bits, .. }, Ty::Float(fb)) if (*bits < 24 && *fb == 32) || (*bits < 53 && *fb == 64) => Some("IntToFloat"),
        (Ty::Float(a), Ty::Float(b)) if b > a => Some("FloatToFloat"),
        _ => None,
    }
}

/// One `<impl at ...>::method` body: (trait, self type) as last path
/// segments, e.g. (`Some("Tr")`, `"P"`), and the self type's full path
/// as far as the source tells it (`a::P`: the header's path read in the
/// impl's module), which tells impls of two same-named types apart; the
/// trait's generic arguments as the header writes them (`u16` of
/// `Scaled<u16>`), which tell impls of one generic trait apart.
struct ImplMethod {
    trait_: Option<String>,
    trait_args: Option<String>,
    self_ty: String,
    self_full: Option<String>,
    method: String,
    body: String,
}

pub struct CalleeResolver {
    impls: Vec<ImplMethod>,
    /// Associated constants of impls (`<impl at ..>::NAME`), as methods.
    impl_consts: Vec<ImplMethod>,
    /// Closure type name → body name (`{closure@..}` → `k::{closure#0}`).
    closures: HashMap<String, String>,
}

impl CalleeResolver {
    pub fn new(bodies: &[Body], const_names: &[&str], spans: &SpanTable) -> Self {
        let mut r = CalleeResolver { impls: Vec::new(), impl_consts: Vec::new(), closures: HashMap::new() };
        for &name in const_names {
            let Some((module, span, item)) = split_impl_item(name) else { continue };
            let header = parse_span(span).and_then(|s| spans.source_text(&s)).unwrap_or_default();
            let (trait_, self_ty) = impl_header(&header, None);
            let self_full = impl_self_path(&header, None, module);
            let trait_args = impl_trait_args(&header);
            r.impl_consts.push(ImplMethod { trait_, trait_args, self_ty, self_full, method: item.to_string(), body: name.to_string() });
        }
        for b in bodies {
            let first_param = b.locals.get(1).and_then(|l| l.as_ref()).map(|l| peel_refs(&l.ty));
            if let (true, Some(Ty::Closure(c))) = (b.name.contains("{closure#"), first_param) {
                r.closures.insert(c.clone(), b.name.clone());
            }
            let Some((module, span, _)) = split_impl_item(&b.name) else { continue };
            let header = parse_span(span).and_then(|s| spans.source_text(&s)).unwrap_or_default();
            let (trait_, self_ty) = impl_header(&header, first_param);
            let self_full = impl_self_path(&header, first_param, module);
            let trait_args = impl_trait_args(&header);
            let method = b.path.last_name().to_string();
            r.impls.push(ImplMethod { trait_, trait_args, self_ty, self_full, method, body: b.name.clone() });
        }
        r
    }

    /// Records the body made for a library's closure type (closures.rs).
    pub fn add_closure(&mut self, closure: &str, body: &str) {
        self.closures.insert(closure.to_string(), body.to_string());
    }

    /// The body of a closure type (`{closure@..}` → `k::{closure#0}`).
    pub fn closure_body(&self, closure: &str) -> Option<&str> {
        self.closures.get(closure).map(String::as_str)
    }

    /// `has_body(name)` says whether the file has a body of that name.
    /// `Err` is the reason the call cannot be exported.
    pub fn resolve(&self, path: &Path, diverges: bool, has_body: &dyn Fn(&str) -> bool) -> Result<Resolved, (Code, String)> {
        let bare = path.bare();
        if let Some(name) = bare.strip_prefix("core::intrinsics::") {
            return Ok(intrinsic(name, path));
        }
        if let Some(name) = bare.strip_prefix("core::sync::atomic::").and_then(sync_atomic_intrinsic) {
            // The ordering is a run-time argument here; body.rs moves the
            // constant `Ordering::X` arguments to `const_args`.
            if let Resolved::Intrinsic { types, .. } = intrinsic("", path) {
                return Ok(Resolved::Intrinsic { name: name.to_string(), types, consts: Vec::new() });
            }
        }
        // core's integer square root (`u64::isqrt`) keeps its bit-by-bit
        // stages out of line: oxidec computes the same floor(sqrt(n)).
        if let Some(stages) = rustc_compat::int_sqrt_stages(&bare) {
            if !has_body(&bare) {
                return Ok(Resolved::Intrinsic { name: "isqrt".to_string(), types: vec![stages], consts: Vec::new() });
            }
        }
        // slice swaps and rotations keep this loop out of line
        if matches!(bare.as_str(), "core::ptr::swap_nonoverlapping_bytes" | "core::ptr::swap_nonoverlapping_bytes::swap_nonoverlapping_short")
            && !has_body(&bare)
        {
            return Ok(Resolved::Intrinsic { name: "swap_nonoverlapping_bytes".to_string(), types: Vec::new(), consts: Vec::new() });
        }
        // its inner loop over chunks of N bytes: the chunk is `[u8; N]`
        // (the generic argument's size multiplies the count)
        if bare == "core::ptr::swap_nonoverlapping_bytes::swap_nonoverlapping_chunks" && !has_body(&bare) {
            let n = path.all_args().find_map(|a| match a {
                GenericArg::Const(c) => Some(c.trim_end_matches("_usize").to_string()),
                _ => None,
            });
            if let Some(n) = n.filter(|n| n.parse::<u64>().is_ok()) {
                let chunk = Ty::Array(Box::new(Ty::primitive("u8").expect("u8")), n);
                return Ok(Resolved::Intrinsic { name: "swap_nonoverlapping_bytes".to_string(), types: vec![chunk], consts: Vec::new() });
            }
        }
        // alloc's `extern "Rust"` allocator entry points: the kernel
        // crate's `#[global_allocator]` shims
        if let Some(shim) = super::heap::allocator_shim(&bare, has_body) {
            return Ok(Resolved::Function(shim));
        }
        let last = path.last_name();
        // GPU primitives (`__oxide_*`) and libdevice math (`__nv_*`): bodyless
        // `extern "C"` functions of oxide-device that oxidec lowers itself.
        if (last.starts_with("__oxide_") || last.starts_with("__nv_")) && !has_body(&bare) {
            return Ok(Resolved::Device(last.to_string()));
        }
        if is_panic_entry(&bare) {
            if !diverges {
                return Err((Code::Export, format!("`{path}` looks like a panic entry but returns")));
            }
            return Ok(Resolved::Panic(bare));
        }
        if let Some(op) = prim_op(path) {
            return Ok(Resolved::Op(op));
        }
        if let Some(q) = &path.qself {
            if let Ty::Dyn(d) = &*q.self_ty {
                // calls through vtables are body.rs's (dyncall.rs); what
                // comes here is a method of a trait object as a value
                return Err((Code::Unsupported, format!(
                    "`{}` as a function pointer (rustc's shim that calls through the vtable of `{d}`) is not \
                     supported; use a closure that calls the method",
                    short_path(&path.to_string())
                )));
            }
            if let Ty::Closure(c) = &*q.self_ty {
                return self.closures.get(c).cloned().map(Resolved::Function).ok_or_else(|| not_inlined(path));
            }
            // `<fn(u32) -> u32 {double} as Fn<(u32,)>>::call`: the fn item
            // itself (body.rs drops the self argument and spreads the tuple)
            // `<&mut fn(..) {compare} as FnOnce<..>>::call_once` too: core's
            // `impl FnOnce for &mut F` calls `F` (min_by_key's `compare`)
            if let (Some(Ty::FnDef { path: f, .. }), Some(_)) = (fn_item_behind_refs(&q.self_ty), fn_trait_call(path)) {
                return self.resolve(f, diverges, has_body);
            }
        }
        if has_body(&bare) {
            // (a fn nested in a generic method is printed with the
            // method's parameters, which it does not have: `fn_item_args`)
            if path.fn_item_args().any(|a| matches!(a, GenericArg::Type(_) | GenericArg::Const(_))) {
                return Ok(Resolved::Instance { generic: bare });
            }
            return Ok(Resolved::Function(bare));
        }
        self.impl_method(path).map(Resolved::Function).ok_or_else(|| not_inlined(path))
    }

    /// `<Tri as Shape>::NAME` or `Tri::NAME` → the `<impl at ..>::NAME`
    /// constant item that defines it.
    pub fn assoc_const(&self, path: &Path) -> Option<String> {
        Self::find_impl_item(&self.impl_consts, path)
    }

    /// `<T as Tr>::m` or `T::m` → the `<impl at ..>::m` body implementing it.
    pub fn impl_method(&self, path: &Path) -> Option<String> {
        Self::find_impl_item(&self.impls, path)
    }

    fn find_impl_item(items: &[ImplMethod], path: &Path) -> Option<String> {
        let method = path.last_name();
        let (self_ty, self_full, trait_) = match &path.qself {
            Some(q) => {
                let full = match &*q.self_ty {
                    Ty::Adt(p) => Some(p.bare()),
                    _ => None,
                };
                (ty_last_name(&q.self_ty), full, q.trait_.as_ref().map(|t| t.last_name().to_string()))
            }
            None => {
                let n = path.segments.len();
                let full = (n >= 2).then(|| Path { qself: None, segments: path.segments[..n - 1].to_vec() }.bare());
                (path.segments.iter().rev().nth(1)?.name.clone(), full, None)
            }
        };
        let mut found: Vec<&ImplMethod> =
            items.iter().filter(|m| m.method == method && m.self_ty == self_ty && m.trait_ == trait_).collect();
        // Impls of one generic trait (`Scaled<u8>`, `Scaled<u16>`): the one
        // whose header writes the call's trait arguments as rustc prints them
        let args = path.qself.as_ref().and_then(|q| q.trait_.as_ref()).and_then(|t| last_args(&t.to_string()));
        if found.len() > 1 && args.is_some() && found.iter().any(|m| m.trait_args == args) {
            found.retain(|m| m.trait_args == args);
        }
        if let [one] = found.as_slice() {
            return Some(one.body.clone());
        }
        // Impls of same-named types of two modules: the one whose self
        // type's full path is the call's. Two impls that only differ in
        // generic arguments cannot be told apart.
        let exact: Vec<&&ImplMethod> = found.iter().filter(|m| m.self_full.is_some() && m.self_full == self_full).collect();
        match exact.as_slice() {
            [one] => Some(one.body.clone()),
            _ => None,
        }
    }
}

/// `a::<impl at src/lib.rs:9:1: 9:14>::f` → (`a`, the span, `f`). An impl
/// inside a method's body is the last one: `arrayvec::<impl at A>::retain::<impl
/// at B>::drop` → (`arrayvec::<impl at A>::retain`, `B`, `drop`).
pub(super) fn split_impl_item(name: &str) -> Option<(&str, &str, &str)> {
    let at = name.rfind("<impl at ")?;
    let module = name[..at].trim_end_matches("::");
    let (span, item) = name[at + "<impl at ".len()..].split_once(">::")?;
    Some((module, span, item))
}

/// The full path of an impl's self type: the type of `self` for a derive
/// (its span is the trait's name), else the header's path read in the
/// impl's module (`crate::`, `self::` and `super::` resolved; a `use`d
/// name is not).
fn impl_self_path(text: &str, first_param: Option<&Ty>, module: &str) -> Option<String> {
    let Some(rest) = text.strip_prefix("impl") else {
        return match first_param {
            Some(Ty::Adt(p)) => Some(p.bare()),
            _ => None,
        };
    };
    let rest = skip_generics(rest.trim_start());
    let rest = rest.split(" where ").next().unwrap_or(rest);
    let ty = split_for(rest).map_or(rest, |(_, ty)| ty);
    let ty = ty.trim().trim_end_matches('{').trim();
    let ty = ty.split('<').next().unwrap_or(ty).trim();
    let mut parts: Vec<&str> = if module.is_empty() { Vec::new() } else { module.split("::").collect() };
    let mut segs = ty.split("::").map(str::trim).peekable();
    match segs.peek() {
        Some(&"crate") => {
            parts.clear();
            segs.next();
        }
        Some(&"self") => {
            segs.next();
        }
        _ => {}
    }
    while segs.peek() == Some(&"super") {
        parts.pop()?;
        segs.next();
    }
    parts.extend(segs);
    Some(parts.join("::"))
}

/// Why a call is not exported, and its class (heap and formatting are
/// not possible on the GPU, the rest is not supported yet).
fn not_inlined(path: &Path) -> (Code, String) {
    let bare = path.bare();
    let text = path.to_string();
    if bare.starts_with("alloc::") || bare.starts_with("std::") {
        return (Code::Gpu, format!(
            "heap allocation on the GPU: `{}` needs a global allocator and alloc's own MIR: {}",
            short_path(&text),
            super::heap::HEAP_HINT
        ));
    }
    // `<usize as std::fmt::Display>::fmt` (`println!`, `format!` of a
    // number): formatting, before the primitive trait methods below
    if bare.starts_with("core::fmt::") || text.contains(" as core::fmt::") || text.contains(" as std::fmt::") {
        return (Code::Gpu, format!(
            "formatting (`{}`) is not supported on the GPU: core::fmt's machinery calls through \
             function pointers and is not inlined; print with `gpu_printf!` (C format strings, \
             run by the CUDA driver) instead",
            short_path(&text)
        ));
    }
    if let Some(q) = path.qself.as_ref().filter(|q| matches!(&*q.self_ty, Ty::Int { .. } | Ty::Float(_) | Ty::Bool | Ty::Char)) {
        return (Code::Unsupported, format!(
            "call to `{text}`, a core trait method on `{}` that oxidec does not map to an operation \
             (only +, -, *, bit operations, shifts, negation, comparisons, clone and lossless Into/From \
             are; integer `/` and `%` need core's zero and overflow checks), in a generic function's \
             instance; mark the function `#[inline(always)]` so that rustc inlines core's body",
            q.self_ty
        ));
    }
    if bare.starts_with("core::fmt::") {
        return (Code::Gpu, format!(
            "formatting (`{}`) is not supported on the GPU: core::fmt's machinery calls through \
             function pointers and is not inlined; print with `gpu_printf!` (C format strings, \
             run by the CUDA driver) instead",
            short_path(&text)
        ));
    }
    if text.contains("core::iter::") || text.contains("as core::iter::") {
        return (Code::Unsupported, format!(
            "call to `{}` was not inlined: rustc's MIR inliner gave up on this iterator chain \
             (it inlines at most about 5 levels deep and never the same function twice on one path), \
             and its body could not be taken from core's MIR; write it as a `for`/`while` loop over indices, \
             or use a shorter chain",
            short_path(&text)
        ));
    }
    (
        Code::Unsupported,
        format!(
            "call to `{path}`, which has no body in this crate (rustc did not inline it); \
             only calls that inline fully, calls to this crate's non-generic functions, \
             GPU primitives, intrinsics and panics are supported"
        ),
    )
}

/// A long MIR path made readable: module paths of `core` dropped, generic
/// arguments nested more than two deep and closure locations elided.
pub(super) fn short_path(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        // `core::iter::adapters::map::Map` -> `Map`
        if rest.starts_with("core::") || rest.starts_with("alloc::") {
            let mut cut = 0;
            let mut segs = rest.split("::");
            let mut pos = 0;
            for seg in segs.by_ref() {
                let lower = seg.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
                    && seg.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !lower {
                    break;
                }
                pos += seg.len() + 2;
                cut = pos;
            }
            if cut > 0 && cut < rest.len() {
                rest = &rest[cut..];
                continue;
            }
        }
        if rest.starts_with("{closure@") {
            // to the matching `}` (closures of closures nest braces)
            let end = matching_close(rest, '{', '}').unwrap_or(rest.len());
            if depth <= 2 {
                out.push_str("{closure}");
            }
            rest = &rest[end..];
            continue;
        }
        match c {
            '<' => {
                depth += 1;
                if depth == 3 {
                    out.push_str("<..");
                }
            }
            '>' => {
                if depth == 3 {
                    out.push('>');
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        if depth <= 2 && !(c == '>' && depth == 2 && out.ends_with("<..>")) {
            if !(c == '<' && depth == 3) {
                out.push(c);
            }
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Diverging library functions that only panic. oxidec lowers them to a trap.
pub(super) fn is_panic_entry(bare: &str) -> bool {
    let bare = rustc_compat::core_path(bare);
    let bare = bare.as_str();
    const EXACT: &[&str] = &[
        "core::option::unwrap_failed",
        "core::option::expect_failed",
        "core::result::unwrap_failed",
        "core::str::slice_error_fail",
        "core::cell::panic_already_borrowed",
        "core::cell::panic_already_mutably_borrowed",
        // ilog / ilog2 / ilog10 of a value <= 0
        "core::num::int_log10::panic_for_nonpositive_argument",
        // copy_from_slice with different lengths
        "core::slice::copy_from_slice_impl::len_mismatch_fail",
    ];
    bare.starts_with("core::panicking::")
        || EXACT.contains(&bare)
        || (bare.starts_with("core::slice::index::") && bare.ends_with("_fail"))
}

fn intrinsic(name: &str, path: &Path) -> Resolved {
    let mut types = Vec::new();
    let mut consts = Vec::new();
    for arg in path.all_args() {
        match arg {
            GenericArg::Type(Ty::Adt(p)) if rustc_compat::atomic_ordering_arg(p).is_some() => {
                consts.extend(rustc_compat::atomic_ordering_arg(p).map(str::to_string))
            }
            GenericArg::Type(t) => types.push(t.clone()),
            GenericArg::Const(c) => consts.push(c.clone()),
            GenericArg::Lifetime => {}
        }
    }
    let name = rustc_compat::canonical_intrinsic(name, &mut types, &mut consts);
    Resolved::Intrinsic { name, types, consts }
}

/// `core::sync::atomic` functions that rustc does not always inline (they
/// `match` on a run-time `Ordering`) → the intrinsic they wrap, in the
/// rustc 1.96 spelling. `atomic_compare_exchange` returns `Result<T, T>`
/// where the intrinsic returns `(T, bool)`; oxidec accepts both.
pub fn sync_atomic_intrinsic(name: &str) -> Option<&'static str> {
    Some(match name {
        "atomic_load" => "atomic_load",
        "atomic_store" => "atomic_store",
        "atomic_swap" => "atomic_xchg",
        "atomic_add" => "atomic_xadd",
        "atomic_sub" => "atomic_xsub",
        "atomic_and" => "atomic_and",
        "atomic_nand" => "atomic_nand",
        "atomic_or" => "atomic_or",
        "atomic_xor" => "atomic_xor",
        "atomic_max" => "atomic_max",
        "atomic_min" => "atomic_min",
        "atomic_umax" => "atomic_umax",
        "atomic_umin" => "atomic_umin",
        "atomic_compare_exchange" => "atomic_cxchg",
        "atomic_compare_exchange_weak" => "atomic_cxchgweak",
        "fence" => "atomic_fence",
        "compiler_fence" => "atomic_singlethreadfence",
        _ => return None,
    })
}

fn peel_refs(t: &Ty) -> &Ty {
    match t {
        Ty::Ref { pointee, .. } => peel_refs(pointee),
        _ => t,
    }
}

/// The last path segment of a type without generics (`P`, `f32`).
pub(super) fn ty_last_name(t: &Ty) -> String {
    match t {
        Ty::Adt(p) => p.last_name().to_string(),
        other => other.to_string(),
    }
}

/// Parses `impl<..> Trait<..> for Self<..>` / `impl Self` (the source text
/// at an `<impl at ..>` span) into (trait, self type) last segments. A bare
/// name (the span of a `#[derive(Name)]`) is a derived trait; its self type
/// is that of the method's first parameter.
pub(crate) fn impl_header(text: &str, first_param: Option<&Ty>) -> (Option<String>, String) {
    let Some(rest) = text.strip_prefix("impl") else {
        return (Some(text.trim().to_string()), first_param.map(ty_last_name).unwrap_or_default());
    };
    // a const trait impl (`impl<T> const Try for NeverShortCircuit<T>`)
    // implements the trait as any other does
    let rest = skip_generics(rest.trim_start());
    let rest = rest.strip_prefix("const ").unwrap_or(rest);
    let rest = rest.split(" where ").next().unwrap_or(rest);
    match split_for(rest) {
        Some((tr, ty)) => (Some(last_segment(tr)), last_segment(ty)),
        None => (None, last_segment(rest)),
    }
}

/// The trait's generic arguments of an impl header (`impl<T> Tr<u16, T>
/// for P` → `u16,T`), without spaces.
fn impl_trait_args(header: &str) -> Option<String> {
    let rest = skip_generics(header.strip_prefix("impl")?.trim_start());
    let rest = rest.strip_prefix("const ").unwrap_or(rest);
    last_args(split_for(rest)?.0)
}

/// The generic arguments of a path's last segment (`m::Tr<u8, (u16, u32)>`
/// → `u8,(u16,u32)`), without spaces.
fn last_args(path: &str) -> Option<String> {
    let p: String = path.chars().filter(|c| !c.is_whitespace()).collect();
    let inner = p.strip_suffix('>')?;
    let b = inner.as_bytes();
    let mut depth = 0i32;
    for i in (0..b.len()).rev() {
        match b[i] {
            b'>' if i == 0 || b[i - 1] != b'-' => depth += 1,
            b'<' if depth == 0 => return Some(inner[i + 1..].to_string()),
            b'<' => depth -= 1,
            _ => {}
        }
    }
    None
}

pub(super) fn skip_generics(s: &str) -> &str {
    if !s.starts_with('<') {
        return s;
    }
    matching_close(s, '<', '>').map_or(s, |n| s[n..].trim_start())
}

/// Splits `Trait<X> for Type` at the ` for ` outside angle brackets.
pub(super) fn split_for(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if !is_arrow_head(s, i) => depth -= 1,
            _ if depth == 0 && s[i..].starts_with(" for ") => return Some((&s[..i], &s[i + 5..])),
            _ => {}
        }
    }
    None
}

/// `a::b::Name<T>` → `Name`; `&'a mut T` stays as written minus generics.
fn last_segment(s: &str) -> String {
    let s = s.trim().trim_end_matches('{').trim();
    let no_generics = s.split('<').next().unwrap_or(s);
    no_generics.rsplit("::").next().unwrap_or(no_generics).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impl_headers() {
        assert_eq!(impl_header("impl P", None), (None, "P".into()));
        assert_eq!(impl_header("impl Tr for P", None), (Some("Tr".into()), "P".into()));
        // const trait impls, with and without a path to the trait
        assert_eq!(impl_header("impl<T> const Try for NeverShortCircuit<T>", None), (Some("Try".into()), "NeverShortCircuit".into()));
        assert_eq!(impl_header("impl<B, C> const ops::Try for ControlFlow<B, C>", None), (Some("Try".into()), "ControlFlow".into()));
        // an arrow in a bound closes no bracket
        assert_eq!(
            impl_header("impl<A, F: FnMut() -> A> Iterator for RepeatWith<F>", None),
            (Some("Iterator".into()), "RepeatWith".into())
        );
        assert_eq!(
            impl_header("impl<T: Copy> ops::Add<T> for geo::Vec2<T> where T: Clone", None),
            (Some("Add".into()), "Vec2".into())
        );
        let pt = Ty::Adt(Path { qself: None, segments: vec![] });
        assert_eq!(impl_header("Clone", Some(&pt)).0.as_deref(), Some("Clone"));
        assert_eq!(impl_trait_args("impl Scaled<u16> for Sq").as_deref(), Some("u16"));
        assert_eq!(impl_trait_args("impl<T> m::Tr<(u8, T), Vec<T>> for P<T>").as_deref(), Some("(u8,T),Vec<T>"));
        assert_eq!(impl_trait_args("impl Tr for P<u8>"), None);
        assert_eq!(impl_trait_args("impl P<u8>"), None);
        assert_eq!(last_args("m::Tr<fn(u8) -> u16>").as_deref(), Some("fn(u8)->u16"));
    }

    #[test]
    fn closures_behind_references() {
        let t = |s: &str| crate::mirparse::parser::parse_str(s, |p| p.ty()).unwrap();
        let c = "{closure@src/lib.rs:24:17: 24:25}";
        assert_eq!(closure_behind_refs(&t(&format!("&mut {c}"))), Some(c));
        assert_eq!(closure_behind_refs(&t(&format!("&&mut {c}"))), Some(c));
        // the closure itself is called as it is; a pointer is no reference
        assert_eq!(closure_behind_refs(&t(c)), None);
        assert_eq!(closure_behind_refs(&t(&format!("*mut {c}"))), None);
        assert_eq!(closure_behind_refs(&t("&mut fn(u8) -> u8")), None);
    }

    #[test]
    fn impl_self_paths() {
        assert_eq!(impl_self_path("impl Tr for Mixed", None, "a").as_deref(), Some("a::Mixed"));
        assert_eq!(impl_self_path("impl<T> Tr for super::Mixed<T>", None, "a::b").as_deref(), Some("a::Mixed"));
        assert_eq!(impl_self_path("impl crate::b::Mixed {", None, "a").as_deref(), Some("b::Mixed"));
        assert_eq!(impl_self_path("impl Mixed", None, "").as_deref(), Some("Mixed"));
        assert_eq!(split_impl_item("a::<impl at src/lib.rs:9:1: 9:14>::f"), Some(("a", "src/lib.rs:9:1: 9:14", "f")));
        assert_eq!(split_impl_item("<impl at src/lib.rs:9:1: 9:14>::K"), Some(("", "src/lib.rs:9:1: 9:14", "K")));
        assert_eq!(
            split_impl_item("arrayvec::<impl at /a.rs:63:1: 63:43>::retain::<impl at /a.rs:477:9: 477:71>::drop"),
            Some(("arrayvec::<impl at /a.rs:63:1: 63:43>::retain", "/a.rs:477:9: 477:71", "drop"))
        );
    }

    #[test]
    fn panic_entries() {
        assert!(is_panic_entry("core::panicking::panic_fmt"));
        assert!(is_panic_entry("core::slice::index::slice_index_fail"));
        assert!(is_panic_entry("core::option::unwrap_failed"));
        assert!(is_panic_entry("core::num::int_log10::panic_for_nonpositive_argument"));
        assert!(is_panic_entry("core::num::imp::int_log10::panic_for_nonpositive_argument")); // 1.97
        assert!(is_panic_entry("core::slice::copy_from_slice_impl::len_mismatch_fail"));
        assert!(!is_panic_entry("core::slice::index::get"));
    }
}

/// The fn item type `t` is, or that references to it point to (`&mut
/// for<'a> fn(&'a u64) -> bool {f}`).
pub fn fn_item_behind_refs(t: &Ty) -> Option<&Ty> {
    match t {
        Ty::FnDef { .. } => Some(t),
        Ty::Ref { pointee, .. } => fn_item_behind_refs(pointee),
        _ => None,
    }
}

/// The closure type behind one or more references (`&mut &{closure@..}`):
/// a `Fn*` call of it is one of the closure (core's impls for `&F` and
/// `&mut F`). None for a closure itself or anything else.
pub fn closure_behind_refs(t: &Ty) -> Option<&str> {
    let Ty::Ref { pointee, .. } = t else { return None };
    match &**pointee {
        Ty::Closure(c) => Some(c),
        inner => closure_behind_refs(inner),
    }
}

/// `<T as core::ops::Fn<(A, B)>>::call` and the `FnMut` / `FnOnce` forms:
/// a call whose arguments are the callee, then the tuple of the real ones.
pub fn fn_trait_call(path: &Path) -> Option<()> {
    let tr = path.qself.as_ref()?.trait_.as_ref()?.bare();
    // core's own MIR names the traits by their module (`ops::function`)
    let tr = tr.strip_prefix("core::ops::function::").map_or(tr.clone(), |t| format!("core::ops::{t}"));
    matches!(
        (tr.as_str(), path.last_name()),
        ("core::ops::Fn", "call") | ("core::ops::FnMut", "call_mut") | ("core::ops::FnOnce", "call_once")
    )
    .then_some(())
}
