//! The type-directed generator: one kernel (with its types and helpers) per
//! seed.
//!
//! Well-definedness is by construction:
//! - every integer operation either wraps by definition (wrapping_*, plain
//!   operators with overflow checks off, `as`) or is guarded (division by a
//!   divisor that cannot be 0, nor -1 when the dividend may be MIN);
//! - array indices are constants below the length or `% LEN`; input indices
//!   are constants below 1024 or `% input.len()`;
//! - loops are bounded by a counter or a range of at most 16 steps;
//! - floats are observed only through IEEE-exact operations, comparisons,
//!   `as` casts and canon32/canon64 (the payload and sign of a NaN made by
//!   arithmetic never reach the digest), or, for floats made only by
//!   Rust's bit-exact operations (neg, abs, copysign, clamp, min/max with a
//!   non-NaN literal, from_bits, moves), as raw bits;
//! - nothing is borrowed across a write: closures are `move` and capture
//!   only `Copy` values, `&mut` arguments are only ever a lone variable.
//!
//! The one exception is a "trap" kernel (about 1 in 50), which contains one
//! construct that may panic; panicking is a well-defined outcome that every
//! runner reports as `trap`.

use std::collections::BTreeSet;

use crate::ast::*;
use crate::features::Features;
use crate::rng::Rng;

/// Generator knobs (the defaults make 20–80 line kernels).
#[derive(Clone, Debug)]
pub struct Config {
    /// 1 in `trap_rate` kernels may trap (0: never).
    pub trap_rate: u32,
    /// Maximum expression depth.
    pub max_depth: u32,
    /// Longest printed expression kept; longer ones are regenerated shallower.
    pub max_expr_chars: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config { trap_rate: 50, max_depth: 3, max_expr_chars: 110 }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum VarKind {
    Local,
    /// `&T` parameter (read as `(*p)`) or `&self`.
    Ref,
    /// `&mut T` parameter or `&mut self`.
    RefMut,
    /// A loop variable or counter: readable, never assigned by statements.
    Counter,
    /// A closure: `params -> ret`; `fnmut` ones need `let mut` and cannot be
    /// copied into other closures.
    Closure { params: Vec<Ty>, ret: Ty, fnmut: bool },
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    mutable: bool,
    kind: VarKind,
}

impl Var {
    fn read(&self) -> Expr {
        match self.kind {
            VarKind::Ref | VarKind::RefMut => Expr::Deref(Box::new(Expr::Path(self.name.clone()))),
            _ => Expr::Path(self.name.clone()),
        }
    }
    fn assignable(&self) -> bool {
        match self.kind {
            VarKind::Local => self.mutable,
            VarKind::RefMut => true,
            _ => false,
        }
    }
}

/// Signature of a generated helper, for call sites.
#[derive(Clone, Debug)]
struct Sig {
    index: usize,
    receiver: Option<(usize, ParamMode)>,
    params: Vec<ParamTy>,
    ret: Ty,
}

impl Sig {
    fn needs_mut(&self) -> bool {
        self.params.iter().any(|p| matches!(p, ParamTy::Ty(_, ParamMode::RefMut)))
            || matches!(self.receiver, Some((_, ParamMode::RefMut)))
    }
    fn needs_slice(&self) -> bool {
        self.params.iter().any(|p| matches!(p, ParamTy::Slice))
    }
}

/// What the function being generated offers.
#[derive(Clone, Debug, Default)]
struct Ctx {
    /// Name of the `&[u64]` input in scope, if any.
    input: Option<String>,
    /// Name of the u64 accumulator, if any.
    acc: Option<String>,
    /// Enclosing loops, innermost last: their labels.
    loops: Vec<Option<String>>,
    /// In the kernel body (closures and templates are kernel-only).
    kernel: bool,
    /// Inside a closure body: no closure calls, no statements.
    in_closure: bool,
    /// Statement nesting depth.
    nest: u32,
    /// The return type, in a helper (early `return` is possible).
    ret: Option<Ty>,
}

pub struct Gen<'a> {
    rng: Rng,
    f: &'a Features,
    cfg: &'a Config,
    kid: u64,
    structs: Vec<StructDef>,
    enums: Vec<EnumDef>,
    sigs: Vec<Sig>,
    fns: Vec<FnDef>,
    templates: BTreeSet<Template>,
    trait_tys: Vec<IntTy>,
    scopes: Vec<Vec<Var>>,
    hidden: Vec<String>,
    counter: u32,
    ctx: Ctx,
    summary: BTreeSet<&'static str>,
    trap_pending: bool,
    budget: i32,
    /// Helpers called somewhere (the rest get a call at the kernel's end).
    used: BTreeSet<usize>,
}

fn int(t: IntTy, bits: u128) -> Expr {
    Expr::Int(t, bits & t.mask())
}
fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}
fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::Bin(op, bx(a), bx(b))
}
fn cast(e: Expr, t: Ty) -> Expr {
    Expr::Cast(bx(e), t)
}
fn method(recv: Expr, name: &str, args: Vec<Expr>) -> Expr {
    Expr::Method(bx(recv), name.to_string(), args)
}
fn path(s: impl Into<String>) -> Expr {
    Expr::Path(s.into())
}
fn u32lit(v: u32) -> Expr {
    Expr::Int(IntTy::U32, v as u128)
}
fn usize_lit(v: usize) -> Expr {
    Expr::Int(IntTy::Usize, v as u128)
}

/// Interesting floats: zeros, ones, limits, infinities, NaN, subnormals.
const F32_SPECIAL: &[u32] = &[
    0x0000_0000, 0x8000_0000, 0x3F80_0000, 0xBF80_0000, 0x3F00_0000, 0x4000_0000, 0x7F7F_FFFF, 0xFF7F_FFFF,
    0x0080_0000, 0x0000_0001, 0x007F_FFFF, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0x4F00_0000, 0x5F00_0000,
    0xCF00_0000, 0x4B80_0000, 0x3DCC_CCCD, 0x4049_0FDB, 0x4F80_0000, 0x3EAA_AAAB,
];
const F64_SPECIAL: &[u64] = &[
    0x0000_0000_0000_0000, 0x8000_0000_0000_0000, 0x3FF0_0000_0000_0000, 0xBFF0_0000_0000_0000,
    0x3FE0_0000_0000_0000, 0x7FEF_FFFF_FFFF_FFFF, 0x0010_0000_0000_0000, 0x0000_0000_0000_0001,
    0x7FF0_0000_0000_0000, 0xFFF0_0000_0000_0000, 0x7FF8_0000_0000_0000, 0x43E0_0000_0000_0000,
    0xC3E0_0000_0000_0000, 0x41DF_FFFF_FFC0_0000, 0x4330_0000_0000_0000, 0x3FB9_9999_9999_999A,
    0x4800_0000_0000_0000, 0x47EF_FFFF_E000_0000, 0x3690_0000_0000_0000,
];

impl<'a> Gen<'a> {
    pub fn new(kid: u64, attempt: u64, f: &'a Features, cfg: &'a Config) -> Gen<'a> {
        Gen {
            rng: Rng::new(kid.wrapping_add(attempt.wrapping_mul(0xA076_1D64_78BD_642F))),
            f,
            cfg,
            kid,
            structs: vec![],
            enums: vec![],
            sigs: vec![],
            fns: vec![],
            templates: BTreeSet::new(),
            trait_tys: vec![],
            scopes: vec![],
            hidden: vec![],
            counter: 0,
            ctx: Ctx::default(),
            summary: BTreeSet::new(),
            trap_pending: false,
            budget: 0,
            used: BTreeSet::new(),
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    fn note(&mut self, what: &'static str) {
        self.summary.insert(what);
    }

    fn has(&self, feat: &str) -> bool {
        self.f.has(feat)
    }

    // ------------------------------------------------------------ types

    fn int_tys(&self) -> Vec<IntTy> {
        ALL_INTS
            .iter()
            .copied()
            .filter(|t| self.has("int128") || t.bits() != 128)
            .filter(|t| self.has("isize") || !matches!(t, IntTy::Usize | IntTy::Isize))
            .collect()
    }

    fn rand_int_ty(&mut self) -> IntTy {
        let ts = self.int_tys();
        // favour the common widths a little
        if self.rng.chance(1, 3) {
            *self.rng.pick(&[IntTy::U32, IntTy::I32, IntTy::U64, IntTy::I64])
        } else {
            *self.rng.pick(&ts)
        }
    }

    fn rand_float_ty(&mut self) -> FloatTy {
        if self.rng.chance(1, 2) {
            FloatTy::F32
        } else {
            FloatTy::F64
        }
    }

    fn rand_scalar_ty(&mut self) -> Ty {
        let w = [70, if self.has("bool") { 10 } else { 0 }, if self.has("float") { 20 } else { 0 }];
        match self.rng.weighted(&w) {
            0 => Ty::Int(self.rand_int_ty()),
            1 => Ty::Bool,
            _ => Ty::Float(self.rand_float_ty()),
        }
    }

    /// A value type for a local: mostly scalars.
    fn rand_ty(&mut self, compound_weight: u32) -> Ty {
        let ns = self.structs.len() as u32;
        let ne = self.enums.len() as u32;
        let w = [
            100,
            if self.has("structs") && ns > 0 { compound_weight } else { 0 },
            if self.has("enums") && ne > 0 { compound_weight } else { 0 },
            if self.has("tuples") { compound_weight / 2 } else { 0 },
            if self.has("arrays") { compound_weight } else { 0 },
            if self.has("option") { compound_weight / 2 } else { 0 },
        ];
        match self.rng.weighted(&w) {
            0 => self.rand_scalar_ty(),
            1 => Ty::Struct(self.rng.index(ns as usize)),
            2 => Ty::Enum(self.rng.index(ne as usize)),
            3 => {
                let n = self.rng.range(2, 3) as usize;
                Ty::Tuple((0..n).map(|_| self.rand_scalar_ty()).collect())
            }
            4 => {
                let n = self.rng.range(2, 8) as usize;
                let e = if ns > 0 && self.has("structs") && self.rng.chance(1, 5) {
                    Ty::Struct(self.rng.index(ns as usize))
                } else {
                    self.rand_scalar_ty()
                };
                Ty::Array(Box::new(e), n)
            }
            _ => Ty::Option(Box::new(self.rand_scalar_ty())),
        }
    }

    fn gen_structs(&mut self) {
        if !self.has("structs") {
            return;
        }
        let n = self.rng.weighted(&[3, 4, 2]);
        for si in 0..n {
            let tuple_like = self.rng.chance(1, 4);
            let nf = self.rng.range(1, 4) as usize;
            let mut fields = vec![];
            for fi in 0..nf {
                let ty = match self.rng.weighted(&[8, if si > 0 { 1 } else { 0 }, if self.has("arrays") { 1 } else { 0 }]) {
                    0 => self.rand_scalar_ty(),
                    1 => Ty::Struct(self.rng.index(si)),
                    _ => Ty::Array(Box::new(Ty::Int(self.rand_int_ty())), self.rng.range(2, 4) as usize),
                };
                let name = if tuple_like { format!("{fi}") } else { format!("{}", ["a", "b", "c", "d"][fi]) };
                fields.push((name, ty));
            }
            self.structs.push(StructDef { fields, tuple_like });
        }
        if n > 0 {
            self.note("structs");
        }
    }

    fn gen_enums(&mut self) {
        if !self.has("enums") {
            return;
        }
        let n = self.rng.weighted(&[3, 4, 1]);
        for _ in 0..n {
            let fieldless = self.rng.chance(2, 5);
            let nv = self.rng.range(2, 4) as usize;
            let explicit = self.rng.chance(1, 2);
            let repr = if explicit && (!fieldless || self.rng.chance(2, 3)) {
                Some(*self.rng.pick(&[IntTy::U8, IntTy::I8, IntTy::U16, IntTy::I16, IntTy::U32, IntTy::I32, IntTy::I64, IntTy::U64]))
            } else {
                None
            };
            let mut variants = vec![];
            for vi in 0..nv {
                let fields = if fieldless {
                    VariantFields::Unit
                } else {
                    match self.rng.weighted(&[2, 3, 2]) {
                        0 => VariantFields::Unit,
                        1 => VariantFields::Tuple((0..self.rng.range(1, 2)).map(|_| self.rand_scalar_ty()).collect()),
                        _ => VariantFields::Named(
                            (0..self.rng.range(1, 2) as usize).map(|k| (["x", "y"][k].to_string(), self.rand_scalar_ty())).collect(),
                        ),
                    }
                };
                variants.push(VariantDef { name: ["A", "B", "C", "D"][vi].to_string(), discr: None, fields });
            }
            if explicit {
                self.assign_discriminants(&mut variants, repr);
            }
            self.enums.push(EnumDef { repr, variants });
        }
        if n > 0 {
            self.note("enums");
        }
    }

    /// Distinct discriminants that fit `repr` (isize when None); each is
    /// written out unless it equals the implicit previous+1.
    fn assign_discriminants(&mut self, vs: &mut [VariantDef], repr: Option<IntTy>) {
        let t = repr.unwrap_or(IntTy::Isize);
        let (lo, hi): (i128, i128) = if t.signed() {
            (t.signed_value(t.min_bits()), t.max_bits() as i128)
        } else {
            (0, t.max_bits() as i128)
        };
        'retry: loop {
            let mut vals: Vec<i128> = vec![];
            for k in 0..vs.len() {
                let v = if k > 0 && self.rng.chance(1, 3) {
                    vals[k - 1] + 1
                } else {
                    match self.rng.weighted(&[4, 1, 1]) {
                        0 => self.rng.range(-20, 300) as i128,
                        1 => hi - self.rng.range(0, 3) as i128,
                        _ => lo + self.rng.range(0, 3) as i128,
                    }
                };
                if v < lo || v > hi || vals.contains(&v) {
                    continue 'retry;
                }
                vals.push(v);
            }
            for (k, v) in vs.iter_mut().enumerate() {
                let implicit = if k == 0 { 0 } else { vals[k - 1] + 1 };
                v.discr = if vals[k] == implicit && self.rng.chance(1, 2) { None } else { Some(vals[k]) };
            }
            return;
        }
    }

    // ------------------------------------------------------------ scopes

    fn push_scope(&mut self) {
        self.scopes.push(vec![]);
    }
    fn pop_scope(&mut self) -> Vec<Var> {
        self.scopes.pop().unwrap_or_default()
    }
    fn declare(&mut self, name: &str, ty: Ty, mutable: bool, kind: VarKind) {
        self.scopes.last_mut().unwrap().push(Var { name: name.to_string(), ty, mutable, kind });
    }

    /// Visible data variables (innermost shadowing is impossible: names are
    /// unique).
    fn vars(&self) -> Vec<Var> {
        self.scopes
            .iter()
            .flatten()
            .filter(|v| !self.hidden.contains(&v.name))
            .filter(|v| !matches!(v.kind, VarKind::Closure { .. }))
            .cloned()
            .collect()
    }

    fn closures(&self) -> Vec<Var> {
        self.scopes
            .iter()
            .flatten()
            .filter(|v| !self.hidden.contains(&v.name))
            .filter(|v| matches!(v.kind, VarKind::Closure { .. }))
            .cloned()
            .collect()
    }

    /// Readable expressions of type `ty` reachable from variables through
    /// fields and array elements.
    fn places(&mut self, ty: &Ty, assignable: bool) -> Vec<Expr> {
        let mut out = vec![];
        for v in self.vars() {
            if assignable && !v.assignable() {
                continue;
            }
            let base = v.read();
            self.walk_places(base, &v.ty.clone(), ty, 2, &mut out);
        }
        out
    }

    fn walk_places(&mut self, base: Expr, have: &Ty, want: &Ty, depth: u32, out: &mut Vec<Expr>) {
        if have == want {
            out.push(base.clone());
        }
        if depth == 0 {
            return;
        }
        match have {
            Ty::Struct(i) => {
                let fields = self.structs[*i].fields.clone();
                for (name, fty) in fields {
                    self.walk_places(Expr::Field(bx(base.clone()), name), &fty, want, depth - 1, out);
                }
            }
            Ty::Tuple(ts) => {
                for (k, t) in ts.iter().enumerate() {
                    self.walk_places(Expr::Field(bx(base.clone()), k.to_string()), t, want, depth - 1, out);
                }
            }
            Ty::Array(et, n) => {
                let n = *n;
                let idx = if self.rng.chance(1, 2) {
                    usize_lit(self.rng.index(n))
                } else {
                    self.dyn_index(n)
                };
                self.walk_places(Expr::Index(bx(base), bx(idx)), et, want, depth - 1, out);
            }
            _ => {}
        }
    }

    /// `(e as usize) % n` with e a shallow integer expression.
    fn dyn_index(&mut self, n: usize) -> Expr {
        // only top-level integer variables: places() calls this, so it must
        // not call places() again
        let ints: Vec<Var> = self.vars().into_iter().filter(|v| matches!(v.ty, Ty::Int(_))).collect();
        let e = if ints.is_empty() {
            Expr::Int(IntTy::U64, self.rng.next_u64() as u128)
        } else {
            self.rng.pick(&ints).read()
        };
        bin(BinOp::Rem, cast(e, Ty::Int(IntTy::Usize)), usize_lit(n))
    }

    // ------------------------------------------------------------ leaves

    fn int_literal(&mut self, t: IntTy) -> Expr {
        let b = t.bits();
        let v: u128 = match self.rng.weighted(&[4, 3, 2, 2, 1, 3]) {
            0 => self.rng.below(17) as u128,
            1 => (self.rng.next_u64() as u128) | ((self.rng.next_u64() as u128) << 64),
            2 => t.max_bits().wrapping_sub(self.rng.below(3) as u128),
            3 => t.min_bits().wrapping_add(self.rng.below(3) as u128),
            4 => 1u128 << self.rng.below(b as u64),
            _ => (self.rng.below(16) as u128).wrapping_neg(), // small negative / large unsigned
        };
        int(t, v)
    }

    fn float_literal(&mut self, t: FloatTy) -> Expr {
        match t {
            FloatTy::F32 => {
                let bits = if self.rng.chance(2, 3) {
                    *self.rng.pick(F32_SPECIAL)
                } else if self.rng.chance(1, 2) {
                    // a small integer or simple fraction
                    (self.rng.range(-64, 64) as f32 / *self.rng.pick(&[1.0f32, 2.0, 4.0, 8.0, 3.0])).to_bits()
                } else {
                    self.rng.next_u64() as u32
                };
                Expr::Float(t, bits as u64)
            }
            FloatTy::F64 => {
                let bits = if self.rng.chance(2, 3) {
                    *self.rng.pick(F64_SPECIAL)
                } else if self.rng.chance(1, 2) {
                    (self.rng.range(-64, 64) as f64 / *self.rng.pick(&[1.0f64, 2.0, 4.0, 8.0, 3.0])).to_bits()
                } else {
                    self.rng.next_u64()
                };
                Expr::Float(t, bits)
            }
        }
    }

    /// `input[IDX]` as u64, or None outside functions that hold the input.
    fn input_read(&mut self) -> Option<Expr> {
        let inp = self.ctx.input.clone()?;
        let idx = match self.rng.weighted(&[4, 2, 3]) {
            0 if self.ctx.kernel => {
                // thread-dependent: (i * A + B) % len
                let a = *self.rng.pick(&[1usize, 1, 3, 5, 7, 13, 31]);
                let b = self.rng.index(1024);
                let e = bin(BinOp::Add, bin(BinOp::Mul, path("i"), usize_lit(a)), usize_lit(b));
                bin(BinOp::Rem, e, method(path(inp.clone()), "len", vec![]))
            }
            1 => usize_lit(self.rng.index(1024)),
            _ => {
                let t = self.rand_int_ty();
                let e = self.int_expr(t, 0);
                bin(BinOp::Rem, cast(e, Ty::Int(IntTy::Usize)), method(path(inp.clone()), "len", vec![]))
            }
        };
        Some(Expr::Index(bx(path(inp)), bx(idx)))
    }

    fn int_leaf(&mut self, t: IntTy) -> Expr {
        let places = self.places(&Ty::Int(t), false);
        let w = [3, if places.is_empty() { 0 } else { 6 }, if self.ctx.input.is_some() { 4 } else { 0 }, 1];
        match self.rng.weighted(&w) {
            0 => self.int_literal(t),
            1 => self.rng.pick(&places).clone(),
            2 => {
                let r = self.input_read().unwrap();
                if t == IntTy::U64 {
                    r
                } else {
                    cast(r, Ty::Int(t))
                }
            }
            _ => {
                // any other integer variable, cast
                let ot = self.rand_int_ty();
                let p = self.places(&Ty::Int(ot), false);
                if p.is_empty() || ot == t {
                    self.int_literal(t)
                } else {
                    let e = self.rng.pick(&p).clone();
                    cast(e, Ty::Int(t))
                }
            }
        }
    }

    // ------------------------------------------------------------ expressions

    /// An expression of type `ty`, kept short enough to print on one line.
    pub fn expr_fit(&mut self, ty: &Ty, depth: u32) -> Expr {
        let mut d = depth.min(self.cfg.max_depth);
        loop {
            let e = self.expr(ty, d);
            if d == 0 || crate::print::expr_len(self.kid, &e) <= self.cfg.max_expr_chars {
                return e;
            }
            d -= 1;
        }
    }

    fn expr(&mut self, ty: &Ty, depth: u32) -> Expr {
        if depth > 0 && self.rng.chance(1, 8) {
            if let Some(e) = self.common_expr(ty, depth) {
                return e;
            }
        }
        match ty {
            Ty::Bool => self.bool_expr(depth),
            Ty::Int(t) => self.int_expr(*t, depth),
            Ty::Float(t) => self.float_expr(*t, depth),
            _ => self.compound_expr(ty, depth),
        }
    }

    /// Forms available at every type: if, match, calls, blocks, pick.
    fn common_expr(&mut self, ty: &Ty, depth: u32) -> Option<Expr> {
        let d = depth - 1;
        let calls = self.callable_sigs(ty);
        let clos: Vec<Var> = if self.ctx.in_closure {
            vec![]
        } else {
            self.closures().into_iter().filter(|c| matches!(&c.kind, VarKind::Closure { ret, .. } if ret == ty)).collect()
        };
        let w = [
            if self.has("if") { 3 } else { 0 },
            if self.has("match") { 2 } else { 0 },
            if calls.is_empty() { 0 } else { 5 },
            if clos.is_empty() { 0 } else { 4 },
            2,
            if self.has("generics") && self.ctx.kernel { 1 } else { 0 },
        ];
        Some(match self.rng.weighted(&w) {
            0 => {
                let c = self.bool_expr(d.min(1));
                let a = self.expr(ty, d);
                let b = self.expr(ty, d);
                self.note("if-expr");
                Expr::If(bx(c), Box::new(Block { stmts: vec![], tail: Some(a) }), Box::new(Block { stmts: vec![], tail: Some(b) }))
            }
            1 => self.int_match_expr(ty, d),
            2 => {
                let s = self.rng.pick(&calls).clone();
                self.call_expr(&s, d.min(1))?
            }
            3 => {
                let c = self.rng.pick(&clos).clone();
                let VarKind::Closure { params, .. } = &c.kind else { unreachable!() };
                self.hidden.push(c.name.clone());
                let args = params.clone().iter().map(|p| self.expr(p, d.min(1))).collect();
                self.hidden.pop();
                Expr::Call(c.name.clone(), args)
            }
            4 => {
                // { let v: T = e; tail }
                let t = self.rand_scalar_ty();
                let name = self.fresh("v");
                let init = self.expr(&t, d.min(1));
                self.push_scope();
                self.declare(&name, t.clone(), false, VarKind::Local);
                let tail = self.expr(ty, d);
                self.pop_scope();
                Expr::Block(Box::new(Block { stmts: vec![Stmt::Let { name, mutable: false, ty: Some(t), init }], tail: Some(tail) }))
            }
            _ => {
                self.templates.insert(Template::Pick);
                self.note("generics");
                let c = self.bool_expr(d.min(1));
                let a = self.expr(ty, d);
                let b = self.expr(ty, d);
                Expr::Call(template_name(self.kid, Template::Pick), vec![c, a, b])
            }
        })
    }

    /// `match (int) { lit => e, lo..=hi => e, a | b => e, _ => e }`
    fn int_match_expr(&mut self, ty: &Ty, d: u32) -> Expr {
        self.note("match");
        let st = self.rand_int_ty();
        let scrut = self.int_expr(st, d.min(1));
        let pats = self.int_patterns(st);
        let mut arms = vec![];
        for p in pats {
            let guard = if self.rng.chance(1, 6) { Some(self.bool_expr(0)) } else { None };
            let body = self.expr(ty, d);
            arms.push(Arm { pat: p, guard, body: ArmBody::Expr(body) });
        }
        let body = self.expr(ty, d);
        arms.push(Arm { pat: Pat::Wild, guard: None, body: ArmBody::Expr(body) });
        Expr::Match(bx(scrut), arms)
    }

    /// 1–4 non-overlapping patterns over small values of `t`.
    fn int_patterns(&mut self, t: IntTy) -> Vec<Pat> {
        let n = self.rng.range(1, 4) as usize;
        // candidate values: small (and negative for signed), or extremes
        let mut vals: Vec<i128> = vec![];
        while vals.len() < n * 2 {
            let v: i128 = match self.rng.weighted(&[6, 1, 1]) {
                0 => self.rng.range(if t.signed() { -4 } else { 0 }, 12) as i128,
                1 => t.max_bits() as i128 - self.rng.range(0, 1) as i128,
                _ => {
                    if t.signed() {
                        t.signed_value(t.min_bits())
                    } else {
                        self.rng.range(100, 255) as i128
                    }
                }
            };
            if t.bits() == 128 && !t.signed() && v < 0 {
                continue;
            }
            if !vals.contains(&v) {
                vals.push(v);
            }
        }
        vals.sort();
        let bits = |v: i128| (v as u128) & t.mask();
        let mut pats = vec![];
        let mut k = 0;
        while pats.len() < n && k + 1 < vals.len() {
            let p = match self.rng.weighted(&[4, 2, 2, 1]) {
                0 => Pat::Int(t, bits(vals[k])),
                1 => {
                    k += 1;
                    Pat::Range(t, bits(vals[k - 1]), bits(vals[k]))
                }
                2 => {
                    k += 1;
                    Pat::Or(vec![Pat::Int(t, bits(vals[k - 1])), Pat::Int(t, bits(vals[k]))])
                }
                _ => {
                    let name = self.fresh("b");
                    Pat::BindAt(name, Box::new(Pat::Int(t, bits(vals[k]))))
                }
            };
            k += 1;
            pats.push(p);
        }
        pats
    }

    fn bool_expr(&mut self, depth: u32) -> Expr {
        if depth == 0 || !self.has("bool") && self.rng.chance(1, 2) {
            let places = self.places(&Ty::Bool, false);
            if !places.is_empty() && self.rng.chance(1, 2) {
                return self.rng.pick(&places).clone();
            }
            if depth == 0 && self.rng.chance(1, 5) {
                return Expr::Bool(self.rng.chance(1, 2));
            }
        }
        let d = depth.saturating_sub(1);
        let w = [
            6,                                              // int comparison
            if self.has("float") { 3 } else { 0 },         // float comparison
            if self.has("bool") { 3 } else { 0 },          // logic
            if self.has("float") { 2 } else { 0 },         // float predicates
            2,                                              // int predicates
            if self.has("option") { 1 } else { 0 },        // is_some
            if self.has("overflowing") { 1 } else { 0 },   // overflowing .1
            if self.has("enums") && !self.enums.is_empty() { 1 } else { 0 }, // enum ==
            if self.has("try-from") { 1 } else { 0 },      // try_from is_ok
        ];
        let cmp = [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge];
        match self.rng.weighted(&w) {
            0 => {
                let t = self.rand_int_ty();
                let a = self.int_expr(t, d);
                let b = self.int_expr(t, d);
                bin(*self.rng.pick(&cmp), a, b)
            }
            1 => {
                let t = self.rand_float_ty();
                let a = self.float_expr(t, d);
                let b = self.float_expr(t, d);
                bin(*self.rng.pick(&cmp), a, b)
            }
            2 => {
                let a = self.bool_expr(d);
                match self.rng.weighted(&[1, 4]) {
                    0 => Expr::Un(UnOp::Not, bx(a)),
                    _ => {
                        let b = self.bool_expr(d);
                        let op = *self.rng.pick(&[BinOp::LAnd, BinOp::LOr, BinOp::And, BinOp::Or, BinOp::Xor, BinOp::Eq, BinOp::Ne]);
                        bin(op, a, b)
                    }
                }
            }
            3 => {
                let t = self.rand_float_ty();
                let a = self.float_expr(t, d);
                let m = *self.rng.pick(&["is_nan", "is_finite", "is_infinite", "is_normal", "is_subnormal"]);
                method(a, m, vec![])
            }
            4 => {
                let t = self.rand_int_ty();
                let a = self.int_expr(t, d);
                if t.signed() {
                    method(a, *self.rng.pick(&["is_positive", "is_negative"]), vec![])
                } else {
                    method(a, "is_power_of_two", vec![])
                }
            }
            5 => {
                let t = self.rand_scalar_ty();
                let o = self.expr(&Ty::Option(Box::new(t)), d);
                method(o, *self.rng.pick(&["is_some", "is_none"]), vec![])
            }
            6 => {
                self.note("overflowing");
                let t = self.rand_int_ty();
                let a = self.int_expr(t, d);
                let b = self.int_expr(t, d);
                let m = *self.rng.pick(&["overflowing_add", "overflowing_sub", "overflowing_mul"]);
                Expr::Field(bx(method(a, m, vec![b])), "1".into())
            }
            7 => {
                let ei = self.rng.index(self.enums.len());
                let a = self.expr(&Ty::Enum(ei), d);
                let b = self.expr(&Ty::Enum(ei), d);
                bin(*self.rng.pick(&[BinOp::Eq, BinOp::Ne]), a, b)
            }
            _ => {
                self.note("try-from");
                let from = self.rand_int_ty();
                let to = self.rand_int_ty();
                let a = self.int_expr(from, d);
                let e = Expr::Call(format!("{}::try_from", to.name()), vec![a]);
                method(e, "is_ok", vec![])
            }
        }
    }

    fn int_expr(&mut self, t: IntTy, depth: u32) -> Expr {
        if depth == 0 {
            return self.int_leaf(t);
        }
        let d = depth - 1;
        let enum_cast = self.has("enums") && self.enums.iter().any(|e| e.fieldless());
        let w = [
            3,                                                          // leaf
            if self.has("plain-arith") { 5 } else { 0 },               // + - *
            4,                                                          // & | ^
            if self.has("plain-arith") { 2 } else { 0 },               // << >>
            2,                                                          // ! / neg
            5,                                                          // casts
            if self.has("wrapping") { 4 } else { 0 },
            if self.has("checked") { 2 } else { 0 },
            if self.has("saturating") { 2 } else { 0 },
            if self.has("overflowing") { 1 } else { 0 },
            if self.has("bitops") { 4 } else { 0 },
            if self.has("division") { 3 } else { 0 },
            if self.has("conversions") { 2 } else { 0 },
            if enum_cast { 1 } else { 0 },
            if self.has("generics") && self.ctx.kernel && !self.ctx.in_closure { 1 } else { 0 },
            if self.has("float-bits") && self.has("float") { 2 } else { 0 },
        ];
        let ty = Ty::Int(t);
        match self.rng.weighted(&w) {
            0 => self.int_leaf(t),
            1 => {
                let a = self.int_expr(t, d);
                let b = self.int_expr(t, d);
                bin(*self.rng.pick(&[BinOp::Add, BinOp::Sub, BinOp::Mul]), a, b)
            }
            2 => {
                let a = self.int_expr(t, d);
                let b = self.int_expr(t, d);
                bin(*self.rng.pick(&[BinOp::And, BinOp::Or, BinOp::Xor]), a, b)
            }
            3 => {
                self.note("shifts");
                let a = self.int_expr(t, d);
                let st = self.rand_int_ty();
                let b = self.int_expr(st, d.min(1));
                bin(*self.rng.pick(&[BinOp::Shl, BinOp::Shr]), a, b)
            }
            4 => {
                let a = self.int_expr(t, d);
                if t.signed() && self.has("plain-arith") && self.rng.chance(1, 2) {
                    Expr::Un(UnOp::Neg, bx(a))
                } else {
                    Expr::Un(UnOp::Not, bx(a))
                }
            }
            5 => {
                self.note("casts");
                let from = if self.rng.chance(1, 3) && self.has("float") {
                    Ty::Float(self.rand_float_ty())
                } else if self.rng.chance(1, 6) && self.has("bool") {
                    Ty::Bool
                } else {
                    Ty::Int(self.rand_int_ty())
                };
                let e = self.expr(&from, d);
                cast(e, ty)
            }
            6 => self.wrapping_expr(t, d),
            7 => self.checked_expr(t, d),
            8 => {
                self.note("saturating");
                let a = self.operand(t, d);
                if t.signed() && self.rng.chance(1, 4) {
                    method(a, *self.rng.pick(&["saturating_neg", "saturating_abs"]), vec![])
                } else if self.rng.chance(1, 6) {
                    // divisor never 0 (MIN / -1 saturates)
                    let b = bin(BinOp::Or, self.operand(t, d), int(t, 1));
                    method(a, "saturating_div", vec![b])
                } else {
                    let b = self.operand(t, d);
                    method(a, *self.rng.pick(&["saturating_add", "saturating_sub", "saturating_mul"]), vec![b])
                }
            }
            9 => {
                self.note("overflowing");
                let a = self.operand(t, d);
                let (m, arg) = match self.rng.index(if t.signed() { 9 } else { 8 }) {
                    0 => ("overflowing_add", Some(self.operand(t, d))),
                    1 => ("overflowing_sub", Some(self.operand(t, d))),
                    2 => ("overflowing_mul", Some(self.operand(t, d))),
                    3 => ("overflowing_shl", Some(self.int_expr(IntTy::U32, d.min(1)))),
                    4 => ("overflowing_shr", Some(self.int_expr(IntTy::U32, d.min(1)))),
                    5 => ("overflowing_neg", None),
                    // divisor never 0 (MIN / -1 overflows, defined)
                    6 => ("overflowing_div", Some(bin(BinOp::Or, self.operand(t, d), int(t, 1)))),
                    7 => ("overflowing_rem", Some(bin(BinOp::Or, self.operand(t, d), int(t, 1)))),
                    _ => ("overflowing_abs", None),
                };
                let pair = method(a, m, arg.into_iter().collect());
                if self.rng.chance(1, 3) {
                    // the overflow flag
                    cast(Expr::Field(bx(pair), "1".into()), ty)
                } else {
                    Expr::Field(bx(pair), "0".into())
                }
            }
            10 => self.bitop_expr(t, d),
            11 => self.division_expr(t, d),
            12 => self.conversion_expr(t, d),
            13 => {
                let cands: Vec<usize> = (0..self.enums.len()).filter(|&i| self.enums[i].fieldless()).collect();
                let ei = *self.rng.pick(&cands);
                let e = self.expr(&Ty::Enum(ei), d);
                self.note("enum-cast");
                cast(e, ty)
            }
            14 => self.generic_int_expr(t, d).unwrap_or_else(|| self.int_leaf(t)),
            _ => self.float_bits_expr(t, d),
        }
    }

    /// An operand of a wrapping/checked/saturating/overflowing operation:
    /// with "boundary", often a value chosen at run time among MIN, MAX,
    /// MIN+1, MAX-1, -1, 0, 1 and an input word (constants would be folded
    /// by rustc before the GPU ever saw the operation).
    fn operand(&mut self, t: IntTy, d: u32) -> Expr {
        if self.has("boundary") && self.ctx.input.is_some() && self.rng.chance(2, 5) {
            self.boundary_value(t)
        } else {
            self.int_expr(t, d)
        }
    }

    /// `[MIN, MAX, MIN+1, MAX-1, -1, 0, 1, input as T][input % 8]` (unsigned:
    /// 0, MAX, 1, MAX-1, MAX/2, MAX/2+1, 2, input).
    fn boundary_value(&mut self, t: IntTy) -> Expr {
        self.note("boundary");
        let list = if t.signed() {
            [t.min_bits(), t.max_bits(), t.min_bits().wrapping_add(1), t.max_bits().wrapping_sub(1), u128::MAX, 0, 1]
        } else {
            [0, t.max_bits(), 1, t.max_bits() - 1, t.max_bits() >> 1, (t.max_bits() >> 1) + 1, 2]
        };
        let mut vals: Vec<Expr> = list
            .iter()
            .map(|&b| int(t, b & t.mask()))
            .collect();
        let r = self.input_read().unwrap();
        vals.push(if t == IntTy::U64 { r } else { cast(r, Ty::Int(t)) });
        let sel = self.input_read().unwrap();
        Expr::Index(bx(Expr::Array(vals)), bx(bin(BinOp::Rem, cast(sel, Ty::Int(IntTy::Usize)), usize_lit(8))))
    }

    /// The bits of a float made only by Rust's bit-exact operations (neg,
    /// abs, copysign, clamp, min/max with a non-NaN literal, from_bits /
    /// to_bits) from NaN payloads, sNaNs and other patterns: observed raw
    /// (no canonicalisation: Rust defines every bit of these), as `t`. Or
    /// signum of such a float, whose NaN is unspecified: through canon.
    fn float_bits_expr(&mut self, t: IntTy, d: u32) -> Expr {
        self.note("float-bits");
        let ft = self.rand_float_ty();
        let x = self.exact_float(ft, d.min(2) + 1);
        let (bits, bt) = if self.rng.chance(1, 8) {
            // canon32/canon64 return u64
            (Expr::Call(if ft == FloatTy::F32 { "canon32" } else { "canon64" }.into(), vec![method(x, "signum", vec![])]), IntTy::U64)
        } else {
            (method(x, "to_bits", vec![]), ft.bits_ty())
        };
        if t == bt {
            bits
        } else {
            cast(bits, Ty::Int(t))
        }
    }

    /// A float whose every bit Rust defines (see float_bits_expr).
    fn exact_float(&mut self, t: FloatTy, d: u32) -> Expr {
        if d == 0 || self.rng.chance(1, 4) {
            return self.float_pattern(t);
        }
        let a = self.exact_float(t, d - 1);
        let sign = 1u64 << (t.bits() - 1);
        match self.rng.index(7) {
            0 => Expr::Un(UnOp::Neg, bx(a)),
            1 => method(a, "abs", vec![]),
            2 => {
                let s = self.exact_float(t, d - 1);
                method(a, "copysign", vec![s])
            }
            3 => {
                // bounds never NaN, lo <= hi (clamp panics otherwise)
                let (lo, hi) = *self.rng.pick(&[(-2.5, 3.0), (-0.0, 0.0), (-1e30, -1.0), (1.0, 1.0), (f64::NEG_INFINITY, 0.5)]);
                let lit = |v: f64| if t == FloatTy::F32 { Expr::Float(t, (v as f32).to_bits() as u64) } else { Expr::Float(t, v.to_bits()) };
                method(a, "clamp", vec![lit(lo), lit(hi)])
            }
            4 => {
                // the other operand neither NaN nor zero: the result is one
                // operand exactly (min/max of +0 and -0 is either)
                let v = *self.rng.pick(&[1.5, -1.5, 1e30, -3.0, f64::INFINITY, f64::NEG_INFINITY]);
                let lit = if t == FloatTy::F32 { Expr::Float(t, (v as f32).to_bits() as u64) } else { Expr::Float(t, v.to_bits()) };
                method(a, *self.rng.pick(&["min", "max"]), vec![lit])
            }
            5 => {
                let mask = if self.rng.chance(1, 2) { sign as u128 } else { (sign - 1) as u128 };
                let op = if mask == sign as u128 { BinOp::Xor } else { BinOp::And };
                Expr::Call(format!("{}::from_bits", t.name()), vec![bin(op, method(a, "to_bits", vec![]), int(t.bits_ty(), mask))])
            }
            _ => {
                // a select: a move of one of two exact floats
                let b = self.exact_float(t, d - 1);
                let c = self.bool_expr(0);
                Expr::If(bx(c), Box::new(Block { stmts: vec![], tail: Some(a) }), Box::new(Block { stmts: vec![], tail: Some(b) }))
            }
        }
    }

    /// `fN::from_bits(..)` of a NaN payload (quiet or signalling, either
    /// sign) made at run time from an input word, an input word, or a
    /// constant special pattern (NaN constants only with "nan-consts").
    fn float_pattern(&mut self, t: FloatTy) -> Expr {
        let bt = t.bits_ty();
        let (exp, frac, sign) = match t {
            FloatTy::F32 => (0x7F80_0000u128, 0x007F_FFFFu128, 0x8000_0000u128),
            FloatTy::F64 => (0x7FF0_0000_0000_0000, 0x000F_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000),
        };
        let have_input = self.ctx.input.is_some();
        // A NaN constant is printed by rustc's MIR as `NaN_f32`, without
        // its payload or sign: NaN patterns are made at run time, from
        // input words, unless "nan-consts" is on.
        let w = [if have_input { 4 } else { 0 }, 1, if self.has("nan-consts") { 2 } else { 0 }, if have_input { 2 } else { 0 }];
        let bits = match self.rng.weighted(&w) {
            0 => {
                // all-ones exponent, run-time payload and sign: NaNs (qNaN
                // and sNaN) and infinities (from an input word mostly: a
                // constant would be folded before the GPU saw it)
                let r = self.input_read().unwrap();
                let e = if bt == IntTy::U64 { r } else { cast(r, Ty::Int(bt)) };
                let keep = if self.rng.chance(1, 2) { frac | sign } else { frac };
                let hi = if self.rng.chance(1, 4) { exp | sign } else { exp };
                bin(BinOp::Or, int(bt, hi), Expr::Paren(bx(bin(BinOp::And, e, int(bt, keep)))))
            }
            1 => {
                // constants that are not NaN: infinities, -0, the smallest
                // subnormal, the largest finite
                int(bt, *self.rng.pick(&[exp, exp | sign, sign, 1, exp - 1, sign | 1]))
            }
            2 => {
                let quiet = frac + 1 >> 1;
                let pats = [exp | 1, exp | quiet, exp | quiet | 1, exp | frac, exp | sign | 1, exp | sign | quiet, exp | (quiet >> 1)];
                int(bt, *self.rng.pick(&pats))
            }
            _ => {
                let r = self.input_read().unwrap();
                if bt == IntTy::U64 { r } else { cast(r, Ty::Int(bt)) }
            }
        };
        Expr::Call(format!("{}::from_bits", t.name()), vec![bits])
    }

    fn wrapping_expr(&mut self, t: IntTy, d: u32) -> Expr {
        self.note("wrapping");
        let a = self.operand(t, d);
        match self.rng.weighted(&[6, 2, 2, 2, 1, 1]) {
            0 => {
                let b = self.operand(t, d);
                method(a, *self.rng.pick(&["wrapping_add", "wrapping_sub", "wrapping_mul"]), vec![b])
            }
            1 => {
                let b = self.int_expr(IntTy::U32, d.min(1));
                method(a, *self.rng.pick(&["wrapping_shl", "wrapping_shr", "rotate_left", "rotate_right"]), vec![b])
            }
            2 => {
                // divisor never 0; MIN / -1 wraps by definition
                let b = self.int_expr(t, d);
                let nz = bin(BinOp::Or, b, int(t, 1));
                method(a, *self.rng.pick(&["wrapping_div", "wrapping_rem", "wrapping_div_euclid", "wrapping_rem_euclid"]), vec![nz])
            }
            3 => {
                if t.signed() {
                    method(a, *self.rng.pick(&["wrapping_neg", "wrapping_abs"]), vec![])
                } else {
                    method(a, "wrapping_neg", vec![])
                }
            }
            4 if self.has("pow") => {
                let e = self.int_expr(IntTy::U32, d.min(1));
                method(a, "wrapping_pow", vec![e])
            }
            4 => method(a, "wrapping_neg", vec![]),
            _ => {
                if self.has("plain-arith") && self.has("pow") {
                    let e = bin(BinOp::And, self.int_expr(IntTy::U32, 0), u32lit(7));
                    method(a, "pow", vec![e])
                } else {
                    method(a, "wrapping_neg", vec![])
                }
            }
        }
    }

    /// An Option<t>-producing checked operation (any operands).
    fn checked_op(&mut self, t: IntTy, d: u32) -> Expr {
        self.note("checked");
        let a = self.operand(t, d);
        match self.rng.weighted(&[6, 2, 1, if t.signed() { 1 } else { 0 }]) {
            0 => {
                let b = self.operand(t, d);
                let m = *self.rng.pick(&[
                    "checked_add",
                    "checked_sub",
                    "checked_mul",
                    "checked_div",
                    "checked_rem",
                    "checked_div_euclid",
                    "checked_rem_euclid",
                ]);
                method(a, m, vec![b])
            }
            1 => {
                let b = self.int_expr(IntTy::U32, d.min(1));
                method(a, *self.rng.pick(&["checked_shl", "checked_shr"]), vec![b])
            }
            2 => method(a, "checked_neg", vec![]),
            _ => method(a, "checked_abs", vec![]),
        }
    }

    fn checked_expr(&mut self, t: IntTy, d: u32) -> Expr {
        let o = self.checked_op(t, d);
        self.consume_option(o, &Ty::Int(t), d)
    }

    /// Turns an Option<ty> expression into a `ty` without ever panicking.
    fn consume_option(&mut self, o: Expr, ty: &Ty, d: u32) -> Expr {
        self.note("option");
        match self.rng.weighted(&[4, if self.has("match") { 2 } else { 0 }, if self.has("closures") { 1 } else { 0 }, if ty.is_scalar() { 1 } else { 0 }]) {
            0 => {
                let dflt = self.expr(ty, 0);
                method(o, "unwrap_or", vec![dflt])
            }
            1 => {
                let b = self.fresh("b");
                self.push_scope();
                self.declare(&b, ty.clone(), false, VarKind::Local);
                let some = self.expr(ty, d.min(1));
                self.pop_scope();
                let none = self.expr(ty, 0);
                Expr::Match(
                    bx(o),
                    vec![
                        Arm { pat: Pat::TupleStruct("Some".into(), vec![Pat::Bind(b)]), guard: None, body: ArmBody::Expr(some) },
                        Arm { pat: Pat::Path("None".into()), guard: None, body: ArmBody::Expr(none) },
                    ],
                )
            }
            2 => {
                // map_or with a closure
                let b = self.fresh("a");
                let dflt = self.expr(ty, 0);
                self.push_scope();
                self.declare(&b, ty.clone(), false, VarKind::Local);
                let was = self.enter_closure();
                let body = self.expr(ty, d.min(1));
                self.leave_closure(was);
                self.pop_scope();
                let clo = Expr::Closure { params: vec![(b, ty.clone())], ret: ty.clone(), body: Box::new(Block { stmts: vec![], tail: Some(body) }) };
                method(o, "map_or", vec![dflt, clo])
            }
            _ => method(o, "unwrap_or_default", vec![]),
        }
    }

    fn bitop_expr(&mut self, t: IntTy, d: u32) -> Expr {
        self.note("bitops");
        let ty = Ty::Int(t);
        let choice = self.rng.weighted(&[4, 3, 2, 3, 2, 2, 2, 1]);
        match choice {
            0 => {
                // u32-valued queries
                let st = self.rand_int_ty();
                let a = self.int_expr(st, d);
                let m = *self.rng.pick(&["count_ones", "count_zeros", "leading_zeros", "trailing_zeros", "leading_ones", "trailing_ones"]);
                let e = method(a, m, vec![]);
                if t == IntTy::U32 {
                    e
                } else {
                    cast(e, ty)
                }
            }
            1 => {
                let a = self.int_expr(t, d);
                method(a, *self.rng.pick(&["swap_bytes", "reverse_bits", "to_be", "to_le"]), vec![])
            }
            2 => {
                let a = self.int_expr(t, d);
                let b = self.int_expr(t, d);
                method(a, *self.rng.pick(&["min", "max", "midpoint"]), vec![b])
            }
            3 => {
                // clamp with constant bounds lo <= hi
                let a = self.int_expr(t, d);
                let (x, y) = (self.int_literal(t), self.int_literal(t));
                let (Expr::Int(_, xb), Expr::Int(_, yb)) = (&x, &y) else { unreachable!() };
                let (xv, yv) = if t.signed() { (t.signed_value(*xb), t.signed_value(*yb)) } else { (*xb as i128, *yb as i128) };
                let (lo, hi) = if t.bits() == 128 && !t.signed() {
                    if xb <= yb { (x, y) } else { (y, x) }
                } else if xv <= yv {
                    (x, y)
                } else {
                    (y, x)
                };
                method(a, "clamp", vec![lo, hi])
            }
            4 => {
                // abs_diff / unsigned_abs give the unsigned type
                let st = if self.rng.chance(1, 2) { t } else { t.flip_sign() };
                let a = self.int_expr(st, d);
                let e = if st.signed() && self.rng.chance(1, 2) {
                    method(a, "unsigned_abs", vec![])
                } else {
                    let b = self.int_expr(st, d);
                    method(a, "abs_diff", vec![b])
                };
                if st.unsigned() == t {
                    e
                } else {
                    cast(e, ty)
                }
            }
            5 => {
                if t.signed() {
                    let a = self.int_expr(t, d);
                    if self.has("plain-arith") && self.rng.chance(1, 2) {
                        method(a, *self.rng.pick(&["abs", "signum"]), vec![])
                    } else {
                        method(a, "signum", vec![])
                    }
                } else {
                    let a = self.int_expr(t, d);
                    match self.rng.index(3) {
                        0 if self.has("isqrt") => method(a, "isqrt", vec![]),
                        0 => method(a, "reverse_bits", vec![]),
                        1 => {
                            let o = method(a, "checked_next_power_of_two", vec![]);
                            let dv = self.int_literal(t);
                            method(o, "unwrap_or", vec![dv])
                        }
                        _ => {
                            let o = method(a, "checked_ilog2", vec![]);
                            let e = method(o, "unwrap_or", vec![u32lit(self.rng.below(200) as u32)]);
                            if t == IntTy::U32 {
                                e
                            } else {
                                cast(e, ty)
                            }
                        }
                    }
                }
            }
            6 => {
                // reinterpret the sign: cast_signed / cast_unsigned
                let st = t.flip_sign();
                let a = self.int_expr(st, d);
                method(a, if st.signed() { "cast_unsigned" } else { "cast_signed" }, vec![])
            }
            _ => {
                let a = self.int_expr(t, d);
                let b = self.int_expr(t, d);
                // (a & !b) | (b & a.rotate_left(1))-style mix
                let r = method(a.clone(), "rotate_left", vec![u32lit(self.rng.below(t.bits() as u64 * 2) as u32)]);
                bin(BinOp::Or, bin(BinOp::And, a, Expr::Un(UnOp::Not, bx(b.clone()))), bin(BinOp::And, b, r))
            }
        }
    }

    /// Division and remainder that can never trap.
    fn division_expr(&mut self, t: IntTy, d: u32) -> Expr {
        self.note("division");
        let op = *self.rng.pick(&[BinOp::Div, BinOp::Rem]);
        let a = self.int_expr(t, d);
        let b = self.int_expr(t, d);
        match self.rng.weighted(&[3, 3, if t.signed() { 0 } else { 1 }, 2]) {
            0 => {
                // divisor.max(1): positive
                bin(op, a, method(b, "max", vec![int(t, 1)]))
            }
            1 => {
                // { let v = b; if v == 0 || v == -1 { K } else { v } }
                let v = self.fresh("v");
                let bad = if t.signed() {
                    bin(BinOp::LOr, bin(BinOp::Eq, path(v.clone()), int(t, 0)), bin(BinOp::Eq, path(v.clone()), int(t, u128::MAX)))
                } else {
                    bin(BinOp::Eq, path(v.clone()), int(t, 0))
                };
                let k = self.rng.range(2, 9) as u128;
                let k = if t.signed() && self.rng.chance(1, 2) { k.wrapping_neg() } else { k };
                let guarded = Expr::If(
                    bx(bad),
                    Box::new(Block { stmts: vec![], tail: Some(int(t, k)) }),
                    Box::new(Block { stmts: vec![], tail: Some(path(v.clone())) }),
                );
                let blk = Expr::Block(Box::new(Block {
                    stmts: vec![Stmt::Let { name: v, mutable: false, ty: Some(Ty::Int(t)), init: b }],
                    tail: Some(guarded),
                }));
                bin(op, a, blk)
            }
            2 => method(a, "div_ceil", vec![method(b, "max", vec![int(t, 1)])]),
            _ => {
                // checked_div/checked_rem, any divisor
                let m = if op == BinOp::Div { "checked_div" } else { "checked_rem" };
                let dv = self.int_expr(t, 0);
                method(method(a, m, vec![b]), "unwrap_or", vec![dv])
            }
        }
    }

    fn conversion_expr(&mut self, t: IntTy, d: u32) -> Expr {
        self.note("conversions");
        let ty = Ty::Int(t);
        let from_cands: Vec<IntTy> = self.int_tys().into_iter().filter(|s| s.lossless_into(t)).collect();
        match self.rng.weighted(&[if from_cands.is_empty() { 0 } else { 3 }, if self.has("try-from") { 3 } else { 0 }, 1, 2]) {
            0 => {
                let s = *self.rng.pick(&from_cands);
                let a = self.int_expr(s, d);
                Expr::Call(format!("{}::from", t.name()), vec![a])
            }
            1 => {
                self.note("try-from");
                let s = self.rand_int_ty();
                let a = self.int_expr(s, d);
                let e = Expr::Call(format!("{}::try_from", t.name()), vec![a]);
                if self.rng.chance(1, 2) {
                    let dv = self.int_expr(t, 0);
                    method(e, "unwrap_or", vec![dv])
                } else {
                    let o = method(e, "ok", vec![]);
                    self.consume_option(o, &ty, d)
                }
            }
            2 => Expr::Call(format!("{}::from", t.name()), vec![self.bool_expr(d.min(1))]),
            _ => {
                // from_le_bytes / to_le_bytes round trips
                let nbytes = (t.bits() / 8) as usize;
                if self.rng.chance(1, 2) && nbytes <= 8 {
                    let elems: Vec<Expr> = (0..nbytes).map(|_| self.int_expr(IntTy::U8, d.min(1))).collect();
                    Expr::Call(format!("{}::from_{}_bytes", t.name(), self.rng.pick(&["le", "be", "ne"])), vec![Expr::Array(elems)])
                } else {
                    let s = self.rand_int_ty();
                    let a = self.int_expr(s, d);
                    let nb = (s.bits() / 8) as usize;
                    let k = self.rng.index(nb);
                    let e = Expr::Index(bx(method(a, *self.rng.pick(&["to_le_bytes", "to_be_bytes"]), vec![])), bx(usize_lit(k)));
                    if t == IntTy::U8 {
                        e
                    } else {
                        cast(e, ty)
                    }
                }
            }
        }
    }

    /// twice(closure, x) / fold(n, init, closure) / x.digN()
    fn generic_int_expr(&mut self, t: IntTy, d: u32) -> Option<Expr> {
        self.note("generics");
        let ty = Ty::Int(t);
        let clo = self.has("closures");
        match self.rng.weighted(&[if clo { 1 } else { 0 }, if clo { 1 } else { 0 }, 1]) {
            0 => {
                self.templates.insert(Template::Twice);
                let x = self.fresh("a");
                self.push_scope();
                self.declare(&x, ty.clone(), false, VarKind::Local);
                let was = self.enter_closure();
                let body = self.int_expr(t, d.min(2));
                self.leave_closure(was);
                self.pop_scope();
                let clo = Expr::Closure { params: vec![(x, ty.clone())], ret: ty.clone(), body: Box::new(Block { stmts: vec![], tail: Some(body) }) };
                let arg = self.int_expr(t, d);
                Some(Expr::Call(template_name(self.kid, Template::Twice), vec![clo, arg]))
            }
            1 => {
                self.templates.insert(Template::Fold);
                let (a, k) = (self.fresh("a"), self.fresh("k"));
                let n = bin(BinOp::And, self.int_expr(IntTy::U32, 0), u32lit(15));
                let init = self.int_expr(IntTy::U64, d.min(1));
                self.push_scope();
                self.declare(&a, Ty::Int(IntTy::U64), false, VarKind::Local);
                self.declare(&k, Ty::Int(IntTy::U32), false, VarKind::Counter);
                let was = self.enter_closure();
                let body = self.int_expr(IntTy::U64, d.min(2));
                self.leave_closure(was);
                self.pop_scope();
                // keep the accumulator flowing: a.rotate_left(3) ^ body
                let body = bin(BinOp::Xor, method(path(a.clone()), "rotate_left", vec![u32lit(3)]), body);
                let clo = Expr::Closure {
                    params: vec![(a, Ty::Int(IntTy::U64)), (k, Ty::Int(IntTy::U32))],
                    ret: Ty::Int(IntTy::U64),
                    body: Box::new(Block { stmts: vec![], tail: Some(body) }),
                };
                let e = Expr::Call(template_name(self.kid, Template::Fold), vec![n, init, clo]);
                Some(if t == IntTy::U64 { e } else { cast(e, ty) })
            }
            _ => {
                self.templates.insert(Template::Trait);
                let st = self.rand_int_ty();
                if !self.trait_tys.contains(&st) {
                    self.trait_tys.push(st);
                }
                let a = self.int_expr(st, d);
                let e = method(a, &format!("dig{}", self.kid), vec![]);
                Some(if t == IntTy::U64 { e } else { cast(e, ty) })
            }
        }
    }

    fn float_expr(&mut self, t: FloatTy, depth: u32) -> Expr {
        let ty = Ty::Float(t);
        if depth == 0 {
            let places = self.places(&ty, false);
            return match self.rng.weighted(&[3, if places.is_empty() { 0 } else { 6 }, if self.ctx.input.is_some() { 3 } else { 0 }]) {
                0 => self.float_literal(t),
                1 => self.rng.pick(&places).clone(),
                _ => {
                    let r = self.input_read().unwrap();
                    let r = if t == FloatTy::F32 { cast(r, Ty::Int(IntTy::U32)) } else { r };
                    Expr::Call(format!("{}::from_bits", t.name()), vec![r])
                }
            };
        }
        self.note("float");
        let d = depth - 1;
        match self.rng.weighted(&[2, 6, 2, 4, 1, 1]) {
            0 => self.float_expr(t, 0),
            1 => {
                let a = self.float_expr(t, d);
                let b = self.float_expr(t, d);
                let ops: &[BinOp] = if self.has("float-rem") {
                    &[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Rem]
                } else {
                    &[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div]
                };
                bin(*self.rng.pick(ops), a, b)
            }
            2 => {
                let a = self.float_expr(t, d);
                match self.rng.index(5) {
                    0 => Expr::Un(UnOp::Neg, bx(a)),
                    1 => method(a, "abs", vec![]),
                    2 => method(a, "signum", vec![]),
                    3 => method(a, "recip", vec![]),
                    _ => {
                        // the sign source is a literal: never a NaN
                        let s = Expr::Float(t, if self.rng.chance(1, 2) { 0 } else { 1u64 << (t.bits() - 1) });
                        method(a, "copysign", vec![s])
                    }
                }
            }
            3 => {
                self.note("casts");
                let from = if self.rng.chance(1, 4) { Ty::Float(self.rand_float_ty()) } else { Ty::Int(self.rand_int_ty()) };
                let e = self.expr(&from, d);
                cast(e, ty)
            }
            4 => {
                // lossless From
                if t == FloatTy::F64 && self.rng.chance(1, 2) {
                    Expr::Call("f64::from".into(), vec![self.float_expr(FloatTy::F32, d)])
                } else {
                    let cands: &[IntTy] = if t == FloatTy::F32 {
                        &[IntTy::U8, IntTy::I8, IntTy::U16, IntTy::I16]
                    } else {
                        &[IntTy::U8, IntTy::I8, IntTy::U16, IntTy::I16, IntTy::U32, IntTy::I32]
                    };
                    let s = *self.rng.pick(cands);
                    Expr::Call(format!("{}::from", t.name()), vec![self.int_expr(s, d)])
                }
            }
            _ => {
                let bt = t.bits_ty();
                let e = self.int_expr(bt, d);
                Expr::Call(format!("{}::from_bits", t.name()), vec![e])
            }
        }
    }

    fn compound_expr(&mut self, ty: &Ty, depth: u32) -> Expr {
        let d = depth.saturating_sub(1);
        let places = self.places(ty, false);
        if !places.is_empty() && (depth == 0 || self.rng.chance(1, 3)) {
            return self.rng.pick(&places).clone();
        }
        match ty {
            Ty::Struct(i) => {
                let sd = self.structs[*i].clone();
                let name = struct_name(self.kid, *i);
                if sd.tuple_like {
                    let args = sd.fields.iter().map(|(_, t)| self.expr(t, d)).collect();
                    Expr::Call(name, args)
                } else {
                    let fs = sd.fields.iter().map(|(n, t)| (n.clone(), self.expr(t, d))).collect();
                    Expr::StructLit(name, fs)
                }
            }
            Ty::Enum(i) => {
                let ed = self.enums[*i].clone();
                let vi = self.rng.index(ed.variants.len());
                self.variant_expr(*i, &ed, vi, d)
            }
            Ty::Tuple(ts) => {
                if ts.len() == 2 && ts[1] == Ty::Bool && matches!(ts[0], Ty::Int(_)) && self.has("overflowing") && self.rng.chance(1, 2) {
                    let t = ts[0].int().unwrap();
                    let a = self.int_expr(t, d);
                    let b = self.int_expr(t, d);
                    return method(a, *self.rng.pick(&["overflowing_add", "overflowing_sub", "overflowing_mul"]), vec![b]);
                }
                Expr::Tuple(ts.iter().map(|t| self.expr(t, d)).collect())
            }
            Ty::Array(et, n) => {
                if self.rng.chance(1, 2) || *n > 5 {
                    let e = self.expr(et, d);
                    Expr::ArrayRepeat(bx(e), *n)
                } else {
                    Expr::Array((0..*n).map(|_| self.expr(et, d.min(1))).collect())
                }
            }
            Ty::Option(t) => {
                self.note("option");
                match self.rng.weighted(&[3, 1, if t.int().is_some() && self.has("checked") { 3 } else { 0 }, if t.int().is_some() && self.has("try-from") { 1 } else { 0 }]) {
                    0 => Expr::Call("Some".into(), vec![self.expr(t, d)]),
                    1 => path(format!("None::<{}>", crate::print::ty_str(self.kid, t))),
                    2 => self.checked_op(t.int().unwrap(), d),
                    _ => {
                        let s = self.rand_int_ty();
                        let a = self.int_expr(s, d);
                        method(Expr::Call(format!("{}::try_from", t.int().unwrap().name()), vec![a]), "ok", vec![])
                    }
                }
            }
            _ => unreachable!("compound_expr on a scalar"),
        }
    }

    fn variant_expr(&mut self, ei: usize, ed: &EnumDef, vi: usize, d: u32) -> Expr {
        let v = &ed.variants[vi];
        let p = format!("{}::{}", enum_name(self.kid, ei), v.name);
        match &v.fields {
            VariantFields::Unit => path(p),
            VariantFields::Tuple(ts) => Expr::Call(p, ts.iter().map(|t| self.expr(t, d)).collect()),
            VariantFields::Named(fs) => Expr::StructLit(p, fs.iter().map(|(n, t)| (n.clone(), self.expr(t, d))).collect()),
        }
    }

    // ------------------------------------------------------------ calls

    /// Helpers (and by-value/&self methods) returning `ty` that an
    /// expression may call.
    fn callable_sigs(&self, ty: &Ty) -> Vec<Sig> {
        self.sigs
            .iter()
            .filter(|s| &s.ret == ty && !s.needs_mut() && (!s.needs_slice() || self.ctx.input.is_some()))
            .cloned()
            .collect()
    }

    fn call_args(&mut self, s: &Sig, d: u32) -> Option<Vec<Expr>> {
        let mut args = vec![];
        for p in &s.params {
            args.push(match p {
                ParamTy::Slice => path(self.ctx.input.clone()?),
                ParamTy::Ty(t, ParamMode::Val) => self.expr(t, d),
                ParamTy::Ty(t, ParamMode::Ref) => Expr::Ref(false, bx(self.expr(t, d))),
                ParamTy::Ty(t, ParamMode::RefMut) => {
                    let ps = self.places(t, true);
                    if ps.is_empty() {
                        return None;
                    }
                    let p = self.rng.pick(&ps).clone();
                    Expr::Ref(true, bx(p))
                }
            });
        }
        Some(args)
    }

    fn call_expr(&mut self, s: &Sig, d: u32) -> Option<Expr> {
        self.note("helpers");
        self.used.insert(s.index);
        let name = self.fns[s.index].name.clone();
        let args = self.call_args(s, d)?;
        match s.receiver {
            None => Some(Expr::Call(name, args)),
            Some((si, _)) => {
                let recv = self.expr(&Ty::Struct(si), d);
                Some(method(Expr::Paren(bx(recv)), &name, args))
            }
        }
    }

    /// A statement calling a helper that takes `&mut` (a lone variable is
    /// lent; it is hidden from the other arguments).
    fn mut_call_stmt(&mut self, forced: Option<Sig>) -> Option<Stmt> {
        let cands: Vec<Sig> = self.sigs.iter().filter(|s| s.needs_mut() && (!s.needs_slice() || self.ctx.input.is_some())).cloned().collect();
        if cands.is_empty() {
            return None;
        }
        let s = forced.unwrap_or_else(|| self.rng.pick(&cands).clone());
        let name = self.fns[s.index].name.clone();
        // pick the lent variable first
        let (lent_ty, is_recv) = match (&s.receiver, s.params.iter().find_map(|p| match p {
            ParamTy::Ty(t, ParamMode::RefMut) => Some(t.clone()),
            _ => None,
        })) {
            (Some((si, ParamMode::RefMut)), _) => (Ty::Struct(*si), true),
            (_, Some(t)) => (t, false),
            _ => return None,
        };
        let vars: Vec<Var> = self.vars().into_iter().filter(|v| v.ty == lent_ty && v.assignable()).collect();
        if vars.is_empty() {
            return None;
        }
        let v = self.rng.pick(&vars).clone();
        self.hidden.push(v.name.clone());
        let mut args = vec![];
        let mut ok = true;
        for p in &s.params {
            args.push(match p {
                ParamTy::Slice => path(self.ctx.input.clone().unwrap()),
                ParamTy::Ty(t, ParamMode::Val) => self.expr(t, 1),
                ParamTy::Ty(t, ParamMode::Ref) => Expr::Ref(false, bx(self.expr(t, 1))),
                ParamTy::Ty(_, ParamMode::RefMut) if !is_recv => Expr::Ref(true, bx(v.read())),
                ParamTy::Ty(..) => {
                    ok = false;
                    Expr::Bool(false)
                }
            });
        }
        let recv = match s.receiver {
            Some((_, ParamMode::RefMut)) => Some(v.read()),
            Some((si, _)) => Some(Expr::Paren(bx(self.expr(&Ty::Struct(si), 1)))),
            None => None,
        };
        self.hidden.pop();
        if !ok {
            return None;
        }
        self.note("ref-mut");
        self.used.insert(s.index);
        let call = match recv {
            Some(r) => method(r, &name, args),
            None => Expr::Call(name, args),
        };
        // a helper's result is digested when there is an accumulator
        let ret = s.ret.clone();
        if let (Some(acc), true) = (self.ctx.acc.clone(), ret.is_scalar()) {
            Some(Stmt::Assign(path(acc.clone()), Expr::Call("mix".into(), vec![path(acc), dig_scalar(call, &ret)])))
        } else {
            let n = self.fresh("v");
            let st = Stmt::Let { name: n.clone(), mutable: false, ty: Some(ret.clone()), init: call };
            self.declare(&n, ret, false, VarKind::Local);
            Some(st)
        }
    }

    /// Calls every helper nothing has called yet (so that none is dead).
    fn call_unused(&mut self, out: &mut Vec<Stmt>) {
        // what the printed program calls (expressions dropped by expr_fit
        // may have marked a helper used without a call surviving)
        let mut text = String::new();
        {
            let mut p = crate::print::Printer::new(self.kid);
            for st in out.iter() {
                p.stmt(st);
            }
            for f in &self.fns {
                p.stmt(&Stmt::Scope(f.body.clone()));
                if let Some(t) = &f.body.tail {
                    text += &p.expr(t);
                }
            }
            text += &p.out;
        }
        for s in self.sigs.clone() {
            let name = &self.fns[s.index].name;
            let called = if s.receiver.is_some() { text.contains(&format!(".{name}(")) } else { text.contains(&format!("{name}(")) };
            if called {
                continue;
            }
            if s.needs_mut() {
                // make sure a mutable variable of the lent type exists
                let lent = match (&s.receiver, s.params.iter().find_map(|p| match p {
                    ParamTy::Ty(t, ParamMode::RefMut) => Some(t.clone()),
                    _ => None,
                })) {
                    (Some((si, ParamMode::RefMut)), _) => Ty::Struct(*si),
                    (_, Some(t)) => t,
                    _ => continue,
                };
                let name = self.fresh("v");
                let init = self.expr_fit(&lent, 1);
                out.push(Stmt::Let { name: name.clone(), mutable: true, ty: Some(lent.clone()), init });
                self.declare(&name, lent, true, VarKind::Local);
                if let Some(st) = self.mut_call_stmt(Some(s.clone())) {
                    out.push(st);
                }
            } else if let Some(call) = self.call_expr(&s, 1) {
                self.use_result(call, s.ret.clone(), out);
            }
        }
    }

    /// Digests a call's result (scalars at once, others through a local).
    fn use_result(&mut self, call: Expr, ret: Ty, out: &mut Vec<Stmt>) {
        if let (Some(acc), true) = (self.ctx.acc.clone(), ret.is_scalar()) {
            out.push(Stmt::Assign(path(acc.clone()), Expr::Call("mix".into(), vec![path(acc), dig_scalar(call, &ret)])));
        } else {
            let n = self.fresh("v");
            out.push(Stmt::Let { name: n.clone(), mutable: false, ty: Some(ret.clone()), init: call });
            self.declare(&n, ret, false, VarKind::Local);
        }
    }

    // ------------------------------------------------------------ statements

    /// A block of about `n` statements in a new scope; every variable it
    /// declares is digested before it ends.
    fn block(&mut self, n: i32, pre: Vec<Stmt>, declare: Vec<(String, Ty, VarKind)>) -> Block {
        self.push_scope();
        for (name, ty, kind) in declare {
            self.declare(&name, ty, false, kind);
        }
        self.ctx.nest += 1;
        let mut stmts = pre;
        let mut k = 0;
        while k < n && self.budget > 0 {
            self.stmt(&mut stmts);
            k += 1;
        }
        self.ctx.nest -= 1;
        let vars = self.pop_scope();
        self.digest_vars(&vars, &mut stmts);
        Block { stmts, tail: None }
    }

    fn digest_vars(&mut self, vars: &[Var], out: &mut Vec<Stmt>) {
        let Some(acc) = self.ctx.acc.clone() else { return };
        for v in vars {
            if matches!(v.kind, VarKind::Local) {
                self.digest(&v.read(), &v.ty.clone(), &acc, out);
            }
        }
    }

    /// `acc = mix(acc, ...)` for every scalar inside `e: ty`.
    fn digest(&mut self, e: &Expr, ty: &Ty, acc: &str, out: &mut Vec<Stmt>) {
        let mixin = |v: Expr| Stmt::Assign(path(acc), Expr::Call("mix".into(), vec![path(acc), v]));
        match ty {
            Ty::Bool | Ty::Int(_) | Ty::Float(_) => out.push(mixin(dig_scalar(e.clone(), ty))),
            Ty::Tuple(ts) => {
                for (k, t) in ts.iter().enumerate() {
                    self.digest(&Expr::Field(bx(e.clone()), k.to_string()), t, acc, out);
                }
            }
            Ty::Struct(i) => {
                for (n, t) in self.structs[*i].fields.clone() {
                    self.digest(&Expr::Field(bx(e.clone()), n), &t, acc, out);
                }
            }
            Ty::Array(et, n) => {
                let mut body = vec![];
                if !self.has("array-iter") || self.rng.chance(1, 2) {
                    let k = self.fresh("k");
                    self.digest(&Expr::Index(bx(e.clone()), bx(path(k.clone()))), et, acc, &mut body);
                    out.push(Stmt::For {
                        label: None,
                        var: k,
                        lo: usize_lit(0),
                        hi: usize_lit(*n),
                        inclusive: false,
                        body: Block { stmts: body, tail: None },
                    });
                } else {
                    let x = self.fresh("x");
                    self.digest(&path(x.clone()), et, acc, &mut body);
                    out.push(Stmt::ForIn { var: x, iter: e.clone(), body: Block { stmts: body, tail: None } });
                }
            }
            Ty::Option(t) => {
                let b = self.fresh("b");
                let mut some = vec![mixin(Expr::Int(IntTy::U64, 1))];
                self.digest(&path(b.clone()), t, acc, &mut some);
                out.push(Stmt::Match(
                    e.clone(),
                    vec![
                        Arm { pat: Pat::TupleStruct("Some".into(), vec![Pat::Bind(b)]), guard: None, body: ArmBody::Block(Block { stmts: some, tail: None }) },
                        Arm { pat: Pat::Path("None".into()), guard: None, body: ArmBody::Block(Block { stmts: vec![mixin(Expr::Int(IntTy::U64, 0x5A))], tail: None }) },
                    ],
                ));
            }
            Ty::Enum(i) => {
                let ed = self.enums[*i].clone();
                let mut arms = vec![];
                for (vi, v) in ed.variants.iter().enumerate() {
                    let p = format!("{}::{}", enum_name(self.kid, *i), v.name);
                    let mut body = vec![mixin(Expr::Int(IntTy::U64, vi as u128 + 11))];
                    let pat = match &v.fields {
                        VariantFields::Unit => Pat::Path(p),
                        VariantFields::Tuple(ts) => {
                            let mut ps = vec![];
                            for t in ts {
                                let b = self.fresh("b");
                                self.digest(&path(b.clone()), t, acc, &mut body);
                                ps.push(Pat::Bind(b));
                            }
                            Pat::TupleStruct(p, ps)
                        }
                        VariantFields::Named(fs) => {
                            let mut ps = vec![];
                            for (n, t) in fs {
                                let b = self.fresh("b");
                                self.digest(&path(b.clone()), t, acc, &mut body);
                                ps.push((n.clone(), Pat::Bind(b)));
                            }
                            Pat::Struct(p, ps, false)
                        }
                    };
                    arms.push(Arm { pat, guard: None, body: ArmBody::Block(Block { stmts: body, tail: None }) });
                }
                out.push(Stmt::Match(e.clone(), arms));
            }
        }
    }

    fn stmt(&mut self, out: &mut Vec<Stmt>) {
        self.budget -= 1;
        let nest_ok = self.ctx.nest < 3 && self.budget > 3;
        let in_loop = !self.ctx.loops.is_empty();
        if self.trap_pending && self.rng.chance(1, 4) {
            self.trap_pending = false;
            self.trap_stmt(out);
            return;
        }
        let has_mut_places = self.vars().iter().any(|v| v.assignable());
        let w = [
            12,                                                            // let
            if has_mut_places { 8 } else { 0 },                           // assign
            if has_mut_places { 5 } else { 0 },                           // op-assign
            if self.ctx.acc.is_some() { 4 } else { 0 },                   // digest
            if nest_ok && self.has("if") { 5 } else { 0 },                // if
            if nest_ok && self.has("match") { 3 } else { 0 },             // match
            if nest_ok && self.has("loops") && self.ctx.loops.len() < 2 { 5 } else { 0 },
            if in_loop { 2 } else { 0 },                                  // break/continue
            if self.has("helpers") { 3 } else { 0 },                      // &mut call
            if self.ctx.kernel && self.has("closures") && self.ctx.nest <= 1 { 2 } else { 0 },
            if nest_ok { 1 } else { 0 },                                  // scope
            if self.has("tuples") || self.has("overflowing") { 2 } else { 0 }, // let (a, b)
            if nest_ok && self.has("option") { 2 } else { 0 },            // if let
            if self.ctx.ret.is_some() { 1 } else { 0 },                   // if c { return e; }
        ];
        match self.rng.weighted(&w) {
            0 => self.let_stmt(out),
            1 => {
                let v = self.rand_assign_place();
                if let Some((p, ty)) = v {
                    let d = self.rng.range(0, 3) as u32;
                    let e = self.expr_fit(&ty, d);
                    out.push(Stmt::Assign(p, e));
                } else {
                    self.let_stmt(out);
                }
            }
            2 => self.op_assign(out),
            3 => {
                let t = self.rand_scalar_ty();
                let d = self.rng.range(1, 3) as u32;
                let e = self.expr_fit(&t, d);
                let acc = self.ctx.acc.clone().unwrap();
                out.push(Stmt::Assign(path(acc.clone()), Expr::Call("mix".into(), vec![path(acc), dig_scalar(e, &t)])));
            }
            4 => {
                self.note("if");
                let c = self.expr_fit(&Ty::Bool, 2);
                let n = self.rng.range(1, 3) as i32;
                let a = self.block(n, vec![], vec![]);
                let b = if self.rng.chance(1, 2) {
                    if self.rng.chance(1, 3) && self.budget > 2 {
                        // else if
                        let c2 = self.expr_fit(&Ty::Bool, 1);
                        let a2 = self.block(1, vec![], vec![]);
                        let b2 = if self.rng.chance(1, 2) { Some(self.block(1, vec![], vec![])) } else { None };
                        Some(Block { stmts: vec![Stmt::If(c2, a2, b2)], tail: None })
                    } else {
                        let n = self.rng.range(1, 2) as i32;
                        Some(self.block(n, vec![], vec![]))
                    }
                } else {
                    None
                };
                out.push(Stmt::If(c, a, b));
            }
            5 => self.match_stmt(out),
            6 => self.loop_stmt(out),
            7 => {
                let k = self.rng.index(self.ctx.loops.len());
                let k_inner = self.ctx.loops.len() - 1;
                let label = if k == k_inner { None } else { self.ctx.loops[k].clone() };
                if k != k_inner && label.is_none() {
                    // no label to name an outer loop: use the innermost
                }
                let c = self.expr_fit(&Ty::Bool, 1);
                let s = if self.rng.chance(1, 2) { Stmt::Break(label) } else { Stmt::Continue(label) };
                self.note("break/continue");
                out.push(Stmt::If(c, Block { stmts: vec![s], tail: None }, None));
            }
            8 => match self.mut_call_stmt(None) {
                Some(s) => out.push(s),
                None => self.let_stmt(out),
            },
            9 => self.closure_stmt(out),
            10 => {
                let n = self.rng.range(1, 3) as i32;
                let b = self.block(n, vec![], vec![]);
                out.push(Stmt::Scope(b));
            }
            11 => self.let_tuple(out),
            12 => self.if_let_stmt(out),
            _ => {
                self.note("early-return");
                let ret = self.ctx.ret.clone().unwrap();
                let c = self.expr_fit(&Ty::Bool, 1);
                let e = self.expr_fit(&ret, 2);
                out.push(Stmt::If(c, Block { stmts: vec![Stmt::Return(e)], tail: None }, None));
            }
        }
    }

    fn let_stmt(&mut self, out: &mut Vec<Stmt>) {
        let ty = self.rand_ty(if self.ctx.kernel { 14 } else { 6 });
        let name = self.fresh("v");
        let d = self.rng.range(1, self.cfg.max_depth as i64) as u32;
        let init = self.expr_fit(&ty, d);
        let mutable = self.rng.chance(1, 2);
        out.push(Stmt::Let { name: name.clone(), mutable, ty: Some(ty.clone()), init });
        self.declare(&name, ty, mutable, VarKind::Local);
    }

    fn let_tuple(&mut self, out: &mut Vec<Stmt>) {
        let t = self.rand_int_ty();
        let ty = Ty::Tuple(vec![Ty::Int(t), Ty::Bool]);
        let init = if self.has("overflowing") {
            self.note("overflowing");
            let a = self.int_expr(t, 1);
            let b = self.int_expr(t, 1);
            method(a, *self.rng.pick(&["overflowing_add", "overflowing_sub", "overflowing_mul"]), vec![b])
        } else {
            Expr::Tuple(vec![self.int_expr(t, 1), self.bool_expr(1)])
        };
        let (a, b) = (self.fresh("v"), self.fresh("v"));
        out.push(Stmt::LetTuple { names: vec![a.clone(), b.clone()], ty, init });
        self.declare(&a, Ty::Int(t), false, VarKind::Local);
        self.declare(&b, Ty::Bool, false, VarKind::Local);
    }

    /// A mutable place (variable, field, element) and its type.
    fn rand_assign_place(&mut self) -> Option<(Expr, Ty)> {
        let vars: Vec<Var> = self.vars().into_iter().filter(|v| v.assignable()).collect();
        if vars.is_empty() {
            return None;
        }
        let v = self.rng.pick(&vars).clone();
        let mut e = v.read();
        let mut ty = v.ty.clone();
        // descend into a field or element sometimes
        for _ in 0..2 {
            if !self.rng.chance(1, 2) {
                break;
            }
            match ty.clone() {
                Ty::Struct(i) => {
                    let fs = self.structs[i].fields.clone();
                    let (n, t) = self.rng.pick(&fs).clone();
                    e = Expr::Field(bx(e), n);
                    ty = t;
                }
                Ty::Tuple(ts) => {
                    let k = self.rng.index(ts.len());
                    e = Expr::Field(bx(e), k.to_string());
                    ty = ts[k].clone();
                }
                Ty::Array(et, n) => {
                    let idx = if self.rng.chance(1, 2) { usize_lit(self.rng.index(n)) } else { self.dyn_index(n) };
                    e = Expr::Index(bx(e), bx(idx));
                    ty = *et;
                }
                _ => break,
            }
        }
        Some((e, ty))
    }

    fn op_assign(&mut self, out: &mut Vec<Stmt>) {
        let Some((p, ty)) = self.rand_assign_place() else { return self.let_stmt(out) };
        match &ty {
            Ty::Int(_) => {
                let mut ops = vec![BinOp::And, BinOp::Or, BinOp::Xor];
                if self.has("plain-arith") {
                    ops.extend([BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Shl, BinOp::Shr]);
                }
                let op = *self.rng.pick(&ops);
                let rt = if matches!(op, BinOp::Shl | BinOp::Shr) { Ty::Int(self.rand_int_ty()) } else { ty.clone() };
                let e = self.expr_fit(&rt, 2);
                out.push(Stmt::OpAssign(op, p, e));
            }
            Ty::Float(_) => {
                let op = *self.rng.pick(&[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div]);
                let e = self.expr_fit(&ty, 2);
                out.push(Stmt::OpAssign(op, p, e));
            }
            Ty::Bool => {
                let op = *self.rng.pick(&[BinOp::And, BinOp::Or, BinOp::Xor]);
                let e = self.expr_fit(&ty, 2);
                out.push(Stmt::OpAssign(op, p, e));
            }
            _ => {
                let e = self.expr_fit(&ty, 2);
                out.push(Stmt::Assign(p, e));
            }
        }
    }

    fn match_stmt(&mut self, out: &mut Vec<Stmt>) {
        self.note("match");
        let enums_ok = self.has("enums") && !self.enums.is_empty();
        match self.rng.weighted(&[4, if enums_ok { 4 } else { 0 }, if self.has("tuples") { 1 } else { 0 }, 1]) {
            0 => {
                let t = self.rand_int_ty();
                let scrut = self.expr_fit(&Ty::Int(t), 2);
                let pats = self.int_patterns(t);
                let mut arms = vec![];
                for p in pats {
                    let guard = if self.rng.chance(1, 5) { Some(self.expr_fit(&Ty::Bool, 1)) } else { None };
                    let decl = match &p {
                        Pat::BindAt(n, _) => vec![(n.clone(), Ty::Int(t), VarKind::Counter)],
                        _ => vec![],
                    };
                    let b = self.block(1, vec![], decl);
                    arms.push(Arm { pat: p, guard, body: ArmBody::Block(b) });
                }
                let b = self.block(1, vec![], vec![]);
                arms.push(Arm { pat: Pat::Wild, guard: None, body: ArmBody::Block(b) });
                out.push(Stmt::Match(scrut, arms));
            }
            1 => {
                let ei = self.rng.index(self.enums.len());
                let ed = self.enums[ei].clone();
                let scrut = self.expr_fit(&Ty::Enum(ei), 2);
                let mut arms = vec![];
                let wild = self.rng.chance(1, 4) && ed.variants.len() > 2;
                let nv = if wild { ed.variants.len() - 1 } else { ed.variants.len() };
                for vi in 0..nv {
                    let v = &ed.variants[vi];
                    let p = format!("{}::{}", enum_name(self.kid, ei), v.name);
                    let mut decl = vec![];
                    let pat = match &v.fields {
                        VariantFields::Unit => Pat::Path(p),
                        VariantFields::Tuple(ts) => {
                            let mut ps = vec![];
                            for t in ts {
                                if self.rng.chance(1, 4) {
                                    ps.push(Pat::Wild);
                                } else {
                                    let b = self.fresh("b");
                                    decl.push((b.clone(), t.clone(), VarKind::Counter));
                                    ps.push(Pat::Bind(b));
                                }
                            }
                            Pat::TupleStruct(p, ps)
                        }
                        VariantFields::Named(fs) => {
                            let mut ps = vec![];
                            let rest = self.rng.chance(1, 3);
                            for (n, t) in fs {
                                if rest && self.rng.chance(1, 2) {
                                    continue;
                                }
                                let b = self.fresh("b");
                                decl.push((b.clone(), t.clone(), VarKind::Counter));
                                ps.push((n.clone(), Pat::Bind(b)));
                            }
                            Pat::Struct(p, ps, rest)
                        }
                    };
                    let digest_binds: Vec<Var> =
                        decl.iter().map(|(n, t, _)| Var { name: n.clone(), ty: t.clone(), mutable: false, kind: VarKind::Local }).collect();
                    let mut pre = vec![];
                    self.digest_vars(&digest_binds, &mut pre);
                    let guard = if !decl.is_empty() && self.rng.chance(1, 5) {
                        self.push_scope();
                        for (n, t, k) in &decl {
                            self.declare(n, t.clone(), false, k.clone());
                        }
                        let g = self.expr_fit(&Ty::Bool, 1);
                        self.pop_scope();
                        Some(g)
                    } else {
                        None
                    };
                    let b = self.block(1, pre, decl);
                    arms.push(Arm { pat, guard: guard.clone(), body: ArmBody::Block(b) });
                    if guard.is_some() {
                        // the guard may fail: the same variant again, unguarded
                        arms.push(Arm { pat: Pat::Wild, guard: None, body: ArmBody::Block(Block::default()) });
                        break;
                    }
                }
                if wild && !matches!(arms.last().map(|a| &a.pat), Some(Pat::Wild)) {
                    let b = self.block(1, vec![], vec![]);
                    arms.push(Arm { pat: Pat::Wild, guard: None, body: ArmBody::Block(b) });
                }
                if arms.len() < ed.variants.len() && !matches!(arms.last().map(|a| &a.pat), Some(Pat::Wild)) {
                    arms.push(Arm { pat: Pat::Wild, guard: None, body: ArmBody::Block(Block::default()) });
                }
                out.push(Stmt::Match(scrut, arms));
            }
            2 => {
                // match (int, bool)
                let t = self.rand_int_ty();
                let a = self.expr_fit(&Ty::Int(t), 1);
                let b = self.expr_fit(&Ty::Bool, 1);
                let lit = self.int_patterns(t);
                let mut arms = vec![];
                for p in lit.into_iter().take(2) {
                    let pb = if self.rng.chance(1, 2) { Pat::Bool(self.rng.chance(1, 2)) } else { Pat::Wild };
                    let decl = match &p {
                        Pat::BindAt(n, _) => vec![(n.clone(), Ty::Int(t), VarKind::Counter)],
                        _ => vec![],
                    };
                    let blk = self.block(1, vec![], decl);
                    arms.push(Arm { pat: Pat::Tuple(vec![p, pb]), guard: None, body: ArmBody::Block(blk) });
                }
                let blk = self.block(1, vec![], vec![]);
                arms.push(Arm { pat: Pat::Tuple(vec![Pat::Wild, Pat::Bool(true)]), guard: None, body: ArmBody::Block(blk) });
                arms.push(Arm { pat: Pat::Wild, guard: None, body: ArmBody::Block(Block::default()) });
                out.push(Stmt::Match(Expr::Tuple(vec![a, b]), arms));
            }
            _ => {
                let c = self.expr_fit(&Ty::Bool, 2);
                let a = self.block(1, vec![], vec![]);
                let b = self.block(1, vec![], vec![]);
                out.push(Stmt::Match(
                    c,
                    vec![
                        Arm { pat: Pat::Bool(true), guard: None, body: ArmBody::Block(a) },
                        Arm { pat: Pat::Bool(false), guard: None, body: ArmBody::Block(b) },
                    ],
                ));
            }
        }
    }

    fn if_let_stmt(&mut self, out: &mut Vec<Stmt>) {
        self.note("option");
        let t = self.rand_scalar_ty();
        let o = self.expr_fit(&Ty::Option(Box::new(t.clone())), 2);
        let b = self.fresh("b");
        let pre = {
            let mut pre = vec![];
            let v = Var { name: b.clone(), ty: t.clone(), mutable: false, kind: VarKind::Local };
            self.digest_vars(&[v], &mut pre);
            pre
        };
        let n = self.rng.range(1, 2) as i32;
        let then = self.block(n, pre, vec![(b.clone(), t, VarKind::Counter)]);
        let els = if self.rng.chance(1, 2) { Some(self.block(1, vec![], vec![])) } else { None };
        out.push(Stmt::IfLet(Pat::TupleStruct("Some".into(), vec![Pat::Bind(b)]), o, then, els));
    }

    /// A loop bound of type `t` in 0..=mask.
    fn bound(&mut self, t: IntTy, mask: u128) -> Expr {
        if self.rng.chance(1, 4) {
            return int(t, self.rng.below(mask as u64 + 1) as u128);
        }
        let e = self.int_expr(t, 1);
        bin(BinOp::And, e, int(t, mask))
    }

    fn loop_stmt(&mut self, out: &mut Vec<Stmt>) {
        self.note("loops");
        let inner = !self.ctx.loops.is_empty();
        let mask: u128 = if inner { 7 } else { 15 };
        let label = if !inner && self.rng.chance(1, 3) { Some(self.fresh("'l")) } else { None };
        let n = self.rng.range(1, 4) as i32;
        let lts: Vec<IntTy> = self.int_tys();
        match self.rng.weighted(&[5, 2, 2, if self.has("arrays") && self.has("array-iter") { 1 } else { 0 }]) {
            0 => {
                let t = *self.rng.pick(&lts);
                let var = self.fresh("k");
                let lo = int(t, self.rng.below(3) as u128);
                let hi = self.bound(t, mask);
                let inclusive = self.rng.chance(1, 4);
                self.ctx.loops.push(label.clone());
                let body = self.block(n, vec![], vec![(var.clone(), Ty::Int(t), VarKind::Counter)]);
                self.ctx.loops.pop();
                out.push(Stmt::For { label, var, lo, hi, inclusive, body });
            }
            1 => {
                let t = *self.rng.pick(&lts);
                let w = self.fresh("w");
                let bound = self.bound(t, mask);
                out.push(Stmt::Let { name: w.clone(), mutable: true, ty: Some(Ty::Int(t)), init: int(t, 0) });
                self.declare(&w, Ty::Int(t), true, VarKind::Counter);
                let cond = bin(BinOp::Lt, path(w.clone()), bound);
                let pre = vec![Stmt::OpAssign(BinOp::Add, path(w.clone()), int(t, 1))];
                self.ctx.loops.push(label.clone());
                let body = self.block(n, pre, vec![]);
                self.ctx.loops.pop();
                out.push(Stmt::While { label, cond, body });
            }
            2 => {
                let t = *self.rng.pick(&lts);
                let w = self.fresh("w");
                let bound = self.bound(t, mask);
                out.push(Stmt::Let { name: w.clone(), mutable: true, ty: Some(Ty::Int(t)), init: int(t, 0) });
                self.declare(&w, Ty::Int(t), true, VarKind::Counter);
                let pre = vec![
                    Stmt::If(bin(BinOp::Ge, path(w.clone()), bound), Block { stmts: vec![Stmt::Break(None)], tail: None }, None),
                    Stmt::OpAssign(BinOp::Add, path(w.clone()), int(t, 1)),
                ];
                self.ctx.loops.push(label.clone());
                let body = self.block(n, pre, vec![]);
                self.ctx.loops.pop();
                out.push(Stmt::Loop { label, body });
            }
            _ => {
                // for x in array (by value)
                let et = self.rand_scalar_ty();
                let len = self.rng.range(2, if inner { 4 } else { 8 }) as usize;
                let arr = self.expr_fit(&Ty::Array(Box::new(et.clone()), len), 1);
                let var = self.fresh("x");
                self.ctx.loops.push(None);
                let body = self.block(n, vec![], vec![(var.clone(), et.clone(), VarKind::Counter)]);
                self.ctx.loops.pop();
                let mut body = body;
                if let Some(acc) = self.ctx.acc.clone() {
                    let v = Var { name: var.clone(), ty: et, mutable: false, kind: VarKind::Local };
                    let mut pre = vec![];
                    self.digest(&v.read(), &v.ty, &acc, &mut pre);
                    pre.extend(body.stmts);
                    body.stmts = pre;
                }
                out.push(Stmt::ForIn { var, iter: arr, body });
            }
        }
    }

    /// Closures are `move`: a `&mut` parameter captured there would be
    /// moved, so those are out of sight inside closure bodies.
    fn enter_closure(&mut self) -> (bool, usize) {
        let was = (self.ctx.in_closure, self.hidden.len());
        self.ctx.in_closure = true;
        let muts: Vec<String> = self.scopes.iter().flatten().filter(|v| v.kind == VarKind::RefMut).map(|v| v.name.clone()).collect();
        self.hidden.extend(muts);
        was
    }

    fn leave_closure(&mut self, was: (bool, usize)) {
        self.ctx.in_closure = was.0;
        self.hidden.truncate(was.1);
    }

    fn closure_stmt(&mut self, out: &mut Vec<Stmt>) {
        self.note("closures");
        let name = self.fresh("c");
        let np = self.rng.range(1, 3) as usize;
        let params: Vec<(String, Ty)> = (0..np).map(|_| (self.fresh("a"), self.rand_scalar_ty())).collect();
        let ret = self.rand_scalar_ty();
        let fnmut = self.rng.chance(1, 3) && ret.int().is_some();
        let st = self.fresh("s");
        if fnmut {
            // state captured by value, updated on every call
            let init = self.int_expr(ret.int().unwrap(), 1);
            out.push(Stmt::Let { name: st.clone(), mutable: true, ty: Some(ret.clone()), init });
        }
        let was = self.enter_closure();
        self.push_scope();
        for (n, t) in &params {
            self.declare(n, t.clone(), false, VarKind::Local);
        }
        let body = if fnmut {
            let t = ret.int().unwrap();
            let upd = self.int_expr(t, 2);
            Block {
                stmts: vec![Stmt::Assign(path(st.clone()), method(path(st.clone()), "wrapping_add", vec![upd]))],
                tail: Some(bin(BinOp::Xor, path(st), self.int_expr(t, 1))),
            }
        } else {
            let e = self.expr_fit(&ret, 2);
            Block { stmts: vec![], tail: Some(e) }
        };
        self.pop_scope();
        self.leave_closure(was);
        let ptys: Vec<Ty> = params.iter().map(|p| p.1.clone()).collect();
        out.push(Stmt::Let { name: name.clone(), mutable: fnmut, ty: None, init: Expr::Closure { params, ret: ret.clone(), body: Box::new(body) } });
        // one call right away; later expressions may call it again
        let args = ptys.iter().map(|t| self.expr_fit(t, 1)).collect();
        self.use_result(Expr::Call(name.clone(), args), ret.clone(), out);
        self.declare(&name, Ty::Bool, false, VarKind::Closure { params: ptys, ret, fnmut });
    }

    /// The one construct of a trap kernel that may panic.
    fn trap_stmt(&mut self, out: &mut Vec<Stmt>) {
        self.note("trap");
        let acc = self.ctx.acc.clone().unwrap();
        let inp = self.ctx.input.clone().unwrap();
        let rd = |g: &mut Gen, m: usize| {
            let idx = bin(BinOp::Rem, bin(BinOp::Add, path("i"), usize_lit(g.rng.index(1024))), method(path(inp.clone()), "len", vec![]));
            let _ = m;
            Expr::Index(bx(path(inp.clone())), bx(idx))
        };
        let v = match self.rng.index(6) {
            0 => {
                // division by an input-dependent divisor (may be 0)
                let t = *self.rng.pick(&[IntTy::U8, IntTy::U16, IntTy::U32, IntTy::I8, IntTy::I32, IntTy::U64]);
                let a = self.int_expr(t, 1);
                let dvs = cast(rd(self, 0), Ty::Int(t));
                dig_scalar(bin(*self.rng.pick(&[BinOp::Div, BinOp::Rem]), a, dvs), &Ty::Int(t))
            }
            1 => {
                // MIN / -1 when both words are specials
                let t = *self.rng.pick(&[IntTy::I8, IntTy::I32, IntTy::I64]);
                let a = cast(rd(self, 0), Ty::Int(t));
                let b = bin(BinOp::Or, cast(rd(self, 0), Ty::Int(t)), int(t, 1));
                dig_scalar(bin(BinOp::Div, a, b), &Ty::Int(t))
            }
            2 => {
                // input index that is out of bounds now and then
                let m = *self.rng.pick(&[1025usize, 1030, 1100]);
                let idx = bin(BinOp::Rem, cast(rd(self, 0), Ty::Int(IntTy::Usize)), usize_lit(m));
                Expr::Index(bx(path(inp.clone())), bx(idx))
            }
            3 => {
                // local array index out of bounds now and then
                let n = self.rng.range(3, 8) as usize;
                let arr = self.expr_fit(&Ty::Array(Box::new(Ty::Int(IntTy::U32)), n), 1);
                let idx = bin(BinOp::Rem, cast(rd(self, 0), Ty::Int(IntTy::Usize)), usize_lit(n + 1));
                cast(Expr::Index(bx(Expr::Paren(bx(arr))), bx(idx)), Ty::Int(IntTy::U64))
            }
            4 => {
                // unwrap of a checked op that may overflow
                let a = cast(rd(self, 0), Ty::Int(IntTy::U8));
                let b = bin(BinOp::And, cast(rd(self, 0), Ty::Int(IntTy::U8)), int(IntTy::U8, 3));
                cast(method(method(a, "checked_add", vec![b]), "unwrap", vec![]), Ty::Int(IntTy::U64))
            }
            _ => {
                // explicit panic on a special input word
                let c = bin(BinOp::Eq, rd(self, 0), Expr::Int(IntTy::U64, *self.rng.pick(&[0u128, 1, u64::MAX as u128])));
                out.push(Stmt::If(c, Block { stmts: vec![Stmt::Expr(path("panic!(\"kernel-gen trap\")"))], tail: None }, None));
                return;
            }
        };
        out.push(Stmt::Assign(path(acc.clone()), Expr::Call("mix".into(), vec![path(acc), v])));
    }

    // ------------------------------------------------------------ functions

    fn gen_helpers(&mut self) {
        if !self.has("helpers") {
            return;
        }
        let n = self.rng.weighted(&[2, 3, 3, 2]);
        for _ in 0..n {
            let is_method = self.has("methods") && !self.structs.is_empty() && self.rng.chance(1, 3);
            let receiver = if is_method {
                let mode = match self.rng.index(3) {
                    0 => ParamMode::Val,
                    1 => ParamMode::Ref,
                    _ => ParamMode::RefMut,
                };
                Some((self.rng.index(self.structs.len()), mode))
            } else {
                None
            };
            let np = self.rng.range(if receiver.is_some() { 0 } else { 1 }, 3) as usize;
            let mut params = vec![];
            let mut has_mut = matches!(receiver, Some((_, ParamMode::RefMut)));
            for _ in 0..np {
                let pname = self.fresh("p");
                let pt = if self.has("slice-param") && self.rng.chance(1, 6) && !params.iter().any(|(_, p)| matches!(p, ParamTy::Slice)) {
                    ParamTy::Slice
                } else {
                    let ty = self.rand_ty(10);
                    let mode = match self.rng.weighted(&[6, 2, if has_mut { 0 } else { 2 }]) {
                        0 => ParamMode::Val,
                        1 => ParamMode::Ref,
                        _ => {
                            has_mut = true;
                            ParamMode::RefMut
                        }
                    };
                    ParamTy::Ty(ty, mode)
                };
                params.push((pname, pt));
            }
            let ret = self.rand_ty(6);
            let inline = match self.rng.weighted(&[3, 2, 2, if self.has("noinline") { 3 } else { 0 }]) {
                0 => None,
                1 => Some("#[inline]"),
                2 => Some("#[inline(always)]"),
                _ => Some("#[inline(never)]"),
            };
            if inline == Some("#[inline(never)]") {
                self.note("inline(never)");
            }
            if receiver.is_some() {
                self.note("methods");
            }
            let body = self.helper_body(&receiver, &params, &ret);
            let index = self.fns.len();
            let name = if receiver.is_some() { format!("m{}", index) } else { fn_name(self.kid, index) };
            self.fns.push(FnDef { name, inline, receiver: receiver.clone(), params: params.clone(), ret: ret.clone(), body });
            self.sigs.push(Sig { index, receiver, params: params.into_iter().map(|p| p.1).collect(), ret });
        }
    }

    fn helper_body(&mut self, receiver: &Option<(usize, ParamMode)>, params: &[(String, ParamTy)], ret: &Ty) -> Block {
        let saved_ctx = std::mem::take(&mut self.ctx);
        let saved_scopes = std::mem::take(&mut self.scopes);
        self.ctx.acc = Some("h".into());
        self.ctx.ret = Some(ret.clone());
        self.push_scope();
        if let Some((si, mode)) = receiver {
            let kind = match mode {
                ParamMode::Val => VarKind::Counter,
                ParamMode::Ref => VarKind::Ref,
                ParamMode::RefMut => VarKind::RefMut,
            };
            self.declare("self", Ty::Struct(*si), false, kind);
        }
        for (n, p) in params {
            match p {
                ParamTy::Slice => self.ctx.input = Some(n.clone()),
                ParamTy::Ty(t, m) => {
                    let kind = match m {
                        ParamMode::Val => VarKind::Counter,
                        ParamMode::Ref => VarKind::Ref,
                        ParamMode::RefMut => VarKind::RefMut,
                    };
                    self.declare(n, t.clone(), false, kind);
                }
            }
        }
        self.budget = self.rng.range(2, 6) as i32;
        let mut stmts = vec![Stmt::Let { name: "h".into(), mutable: true, ty: Some(Ty::Int(IntTy::U64)), init: Expr::Int(IntTy::U64, self.rng.next_u64() as u128) }];
        let n = self.budget;
        let blk = self.block(n, vec![], vec![]);
        stmts.extend(blk.stmts);
        // write every &mut parameter at the end
        let muts: Vec<Var> = self.vars().into_iter().filter(|v| v.kind == VarKind::RefMut).collect();
        for v in muts {
            let e = self.expr_fit(&v.ty, 2);
            stmts.push(Stmt::Assign(v.read(), e));
        }
        let mut tail = self.expr_fit(ret, 2);
        match ret {
            Ty::Int(t) => tail = bin(BinOp::Xor, tail, cast(path("h"), Ty::Int(*t))),
            Ty::Bool => tail = bin(BinOp::Xor, tail, bin(BinOp::Eq, bin(BinOp::And, path("h"), Expr::Int(IntTy::U64, 1)), Expr::Int(IntTy::U64, 1))),
            Ty::Float(t) => tail = bin(BinOp::Add, tail, cast(bin(BinOp::And, path("h"), Expr::Int(IntTy::U64, 0xFF)), Ty::Float(*t))),
            _ => {}
        }
        self.pop_scope();
        self.scopes = saved_scopes;
        self.ctx = saved_ctx;
        Block { stmts, tail: Some(tail) }
    }

    // ------------------------------------------------------------ kernel

    pub fn kernel(mut self, target_lines: i32) -> Kernel {
        self.gen_structs();
        self.gen_enums();
        self.gen_helpers();
        let may_trap = self.has("traps") && self.cfg.trap_rate > 0 && self.rng.below(self.cfg.trap_rate as u64) == 0;
        self.trap_pending = may_trap;
        self.ctx = Ctx { input: Some("input".into()), acc: Some("acc".into()), kernel: true, ..Ctx::default() };
        self.push_scope();
        self.declare("i", Ty::Int(IntTy::Usize), false, VarKind::Counter);
        self.budget = target_lines;
        let mut stmts = vec![];
        while self.budget > 0 {
            self.stmt(&mut stmts);
        }
        if self.trap_pending {
            self.trap_pending = false;
            self.trap_stmt(&mut stmts);
        }
        self.call_unused(&mut stmts);
        let vars = self.pop_scope();
        self.digest_vars(&vars, &mut stmts);
        Kernel {
            id: self.kid,
            may_trap,
            structs: self.structs,
            enums: self.enums,
            fns: self.fns,
            templates: self.templates.into_iter().collect(),
            trait_tys: self.trait_tys,
            generic_noinline: self.f.has("generic-noinline"),
            body: Block { stmts, tail: None },
            summary: self.summary.into_iter().collect(),
        }
    }
}

/// A scalar as u64 for the digest: ints by `as` (u128/i128 folded), bools
/// by `as`, floats through canon32/canon64.
pub fn dig_scalar(e: Expr, ty: &Ty) -> Expr {
    match ty {
        Ty::Int(t) if t.bits() == 128 => Expr::Call("fold128".into(), vec![cast(e, Ty::Int(IntTy::U128))]),
        Ty::Int(IntTy::U64) => e,
        Ty::Int(_) | Ty::Bool => cast(e, Ty::Int(IntTy::U64)),
        Ty::Float(FloatTy::F32) => Expr::Call("canon32".into(), vec![e]),
        Ty::Float(FloatTy::F64) => Expr::Call("canon64".into(), vec![e]),
        _ => panic!("dig_scalar on a compound type"),
    }
}
