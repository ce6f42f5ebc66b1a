//! AST -> Rust source. Expressions print on one line; every operand that is
//! not an atom is parenthesized, so precedence never matters (the crate
//! allows `unused_parens`).

use crate::ast::*;
use crate::rng::splitmix64;

pub fn ty_str(kid: u64, t: &Ty) -> String {
    match t {
        Ty::Bool => "bool".into(),
        Ty::Int(i) => i.name().into(),
        Ty::Float(f) => f.name().into(),
        Ty::Tuple(ts) => format!("({})", ts.iter().map(|t| ty_str(kid, t)).collect::<Vec<_>>().join(", ")),
        Ty::Array(e, n) => format!("[{}; {}]", ty_str(kid, e), n),
        Ty::Struct(i) => struct_name(kid, *i),
        Ty::Enum(i) => enum_name(kid, *i),
        Ty::Option(e) => format!("Option<{}>", ty_str(kid, e)),
    }
}

pub fn int_lit(t: IntTy, bits: u128) -> String {
    let bits = bits & t.mask();
    if t.signed() {
        if bits == t.min_bits() {
            return format!("{}::MIN", t.name());
        }
        format!("{}{}", t.signed_value(bits), t.name())
    } else if bits == t.max_bits() && t.bits() >= 64 {
        format!("{}::MAX", t.name())
    } else {
        format!("{}{}", bits, t.name())
    }
}

pub fn float_lit(t: FloatTy, bits: u64) -> String {
    let n = t.name();
    let (nan, inf, neg, s) = match t {
        FloatTy::F32 => {
            let x = f32::from_bits(bits as u32);
            (x.is_nan(), x.is_infinite(), x.is_sign_negative(), format!("{x:?}"))
        }
        FloatTy::F64 => {
            let x = f64::from_bits(bits);
            (x.is_nan(), x.is_infinite(), x.is_sign_negative(), format!("{x:?}"))
        }
    };
    if nan {
        // keep the exact payload: it matters for the NaN rule
        let w = if t == FloatTy::F32 { 8 } else { 16 };
        return format!("{n}::from_bits(0x{bits:0w$x})");
    }
    if inf {
        return if neg { format!("{n}::NEG_INFINITY") } else { format!("{n}::INFINITY") };
    }
    format!("{s}{n}")
}

/// Whether `e` prints as something that binds tighter than any operator
/// and is safe in `if`/`match` heads.
fn is_atom(e: &Expr) -> bool {
    match e {
        Expr::Int(t, b) => !(t.signed() && t.signed_value(*b) < 0 && (b & t.mask()) != t.min_bits()),
        Expr::Float(t, b) => {
            let neg = match t {
                FloatTy::F32 => f32::from_bits(*b as u32).is_sign_negative() && !f32::from_bits(*b as u32).is_nan(),
                FloatTy::F64 => f64::from_bits(*b).is_sign_negative() && !f64::from_bits(*b).is_nan(),
            };
            !neg || float_lit(*t, *b).contains("::")
        }
        Expr::Bool(_) | Expr::Path(_) | Expr::Call(..) | Expr::Method(..) | Expr::Field(..) | Expr::Index(..) => true,
        Expr::Paren(_) | Expr::Tuple(_) | Expr::Array(_) | Expr::ArrayRepeat(..) | Expr::Deref(_) => true,
        _ => false,
    }
}

pub struct Printer {
    kid: u64,
    pub out: String,
    indent: usize,
}

impl Printer {
    pub fn new(kid: u64) -> Printer {
        Printer { kid, out: String::new(), indent: 0 }
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn ty(&self, t: &Ty) -> String {
        ty_str(self.kid, t)
    }

    fn atom(&self, e: &Expr) -> String {
        let s = self.expr(e);
        if is_atom(e) {
            s
        } else {
            format!("({s})")
        }
    }

    pub fn expr(&self, e: &Expr) -> String {
        match e {
            Expr::Int(t, b) => int_lit(*t, *b),
            Expr::Float(t, b) => float_lit(*t, *b),
            Expr::Bool(b) => b.to_string(),
            Expr::Path(p) => p.clone(),
            Expr::Bin(op, a, b) => format!("{} {} {}", self.atom(a), op.sym(), self.atom(b)),
            Expr::Un(UnOp::Neg, a) => format!("-{}", self.atom(a)),
            Expr::Un(UnOp::Not, a) => format!("!{}", self.atom(a)),
            Expr::Cast(a, t) => format!("{} as {}", self.atom(a), self.ty(t)),
            Expr::Method(r, m, args) => format!("{}.{}({})", self.atom(r), m, self.list(args)),
            Expr::Call(f, args) => format!("{}({})", f, self.list(args)),
            Expr::Field(a, f) => format!("{}.{}", self.atom(a), f),
            Expr::Index(a, i) => format!("{}[{}]", self.atom(a), self.expr(i)),
            Expr::If(c, a, b) => format!("if {} {} else {}", self.atom(c), self.inline_block(a), self.inline_block(b)),
            Expr::Match(s, arms) => {
                let arms: Vec<String> = arms
                    .iter()
                    .map(|a| {
                        let g = a.guard.as_ref().map(|g| format!(" if {}", self.expr(g))).unwrap_or_default();
                        let body = match &a.body {
                            ArmBody::Expr(e) => self.expr(e),
                            ArmBody::Block(b) => self.inline_block(b),
                        };
                        format!("{}{} => {}", self.pat(&a.pat), g, body)
                    })
                    .collect();
                format!("match {} {{ {} }}", self.atom(s), arms.join(", "))
            }
            Expr::Block(b) => self.inline_block(b),
            Expr::StructLit(n, fs) => {
                let fs: Vec<String> = fs.iter().map(|(f, e)| format!("{}: {}", f, self.expr(e))).collect();
                format!("{} {{ {} }}", n, fs.join(", "))
            }
            Expr::Tuple(es) => {
                if es.len() == 1 {
                    format!("({},)", self.expr(&es[0]))
                } else {
                    format!("({})", self.list(es))
                }
            }
            Expr::Array(es) => format!("[{}]", self.list(es)),
            Expr::ArrayRepeat(e, n) => format!("[{}; {}]", self.expr(e), n),
            Expr::Ref(m, e) => format!("&{}{}", if *m { "mut " } else { "" }, self.atom(e)),
            Expr::Deref(e) => format!("(*{})", self.atom(e)),
            Expr::Closure { params, ret, body } => {
                let ps: Vec<String> = params.iter().map(|(n, t)| format!("{}: {}", n, self.ty(t))).collect();
                format!("move |{}| -> {} {}", ps.join(", "), self.ty(ret), self.inline_block(body))
            }
            Expr::Paren(e) => format!("({})", self.expr(e)),
        }
    }

    fn list(&self, es: &[Expr]) -> String {
        es.iter().map(|e| self.expr(e)).collect::<Vec<_>>().join(", ")
    }

    /// `{ stmt; stmt; tail }` on one line (only simple statements occur in
    /// expression blocks).
    fn inline_block(&self, b: &Block) -> String {
        let mut parts: Vec<String> = b.stmts.iter().map(|s| self.simple_stmt(s)).collect();
        if let Some(t) = &b.tail {
            parts.push(self.expr(t));
        }
        if parts.is_empty() {
            "{}".into()
        } else {
            format!("{{ {} }}", parts.join(" "))
        }
    }

    fn simple_stmt(&self, s: &Stmt) -> String {
        match s {
            Stmt::Let { name, mutable, ty, init } => {
                let m = if *mutable { "mut " } else { "" };
                match ty {
                    Some(t) => format!("let {}{}: {} = {};", m, name, self.ty(t), self.expr(init)),
                    None => format!("let {}{} = {};", m, name, self.expr(init)),
                }
            }
            Stmt::LetTuple { names, ty, init } => format!("let ({}): {} = {};", names.join(", "), self.ty(ty), self.expr(init)),
            Stmt::Assign(p, e) => format!("{} = {};", self.expr(p), self.expr(e)),
            Stmt::OpAssign(op, p, e) => format!("{} {}= {};", self.expr(p), op.sym(), self.expr(e)),
            Stmt::Expr(e) => format!("{};", self.expr(e)),
            Stmt::Return(e) => format!("return {};", self.expr(e)),
            Stmt::Break(l) => format!("break{};", l.as_ref().map(|l| format!(" {l}")).unwrap_or_default()),
            Stmt::Continue(l) => format!("continue{};", l.as_ref().map(|l| format!(" {l}")).unwrap_or_default()),
            Stmt::Comment(c) => format!("/* {c} */"),
            _ => {
                let mut p = Printer::new(self.kid);
                p.stmt(s);
                p.out.split_whitespace().collect::<Vec<_>>().join(" ")
            }
        }
    }

    fn pat(&self, p: &Pat) -> String {
        match p {
            Pat::Wild => "_".into(),
            Pat::Int(t, b) => int_lit(*t, *b),
            Pat::Range(t, a, b) => format!("{}..={}", int_lit(*t, *a), int_lit(*t, *b)),
            Pat::Bool(b) => b.to_string(),
            Pat::Or(ps) => ps.iter().map(|p| self.pat(p)).collect::<Vec<_>>().join(" | "),
            Pat::Bind(n) => n.clone(),
            Pat::BindAt(n, p) => format!("{} @ {}", n, self.pat(p)),
            Pat::Path(p) => p.clone(),
            Pat::TupleStruct(n, ps) => format!("{}({})", n, ps.iter().map(|p| self.pat(p)).collect::<Vec<_>>().join(", ")),
            Pat::Struct(n, fs, rest) => {
                let mut parts: Vec<String> = fs.iter().map(|(f, p)| format!("{}: {}", f, self.pat(p))).collect();
                if *rest {
                    parts.push("..".into());
                }
                if parts.is_empty() {
                    format!("{n} {{ .. }}")
                } else {
                    format!("{} {{ {} }}", n, parts.join(", "))
                }
            }
            Pat::Tuple(ps) => format!("({})", ps.iter().map(|p| self.pat(p)).collect::<Vec<_>>().join(", ")),
        }
    }

    fn block_body(&mut self, b: &Block) {
        self.indent += 1;
        for s in &b.stmts {
            self.stmt(s);
        }
        if let Some(t) = &b.tail {
            let t = self.expr(t);
            self.line(&t);
        }
        self.indent -= 1;
    }

    fn label(l: &Option<String>) -> String {
        l.as_ref().map(|l| format!("{l}: ")).unwrap_or_default()
    }

    pub fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::If(c, a, b) => {
                let head = format!("if {} {{", self.atom(c));
                self.line(&head);
                self.block_body(a);
                self.else_chain(b);
            }
            Stmt::IfLet(p, e, a, b) => {
                let head = format!("if let {} = {} {{", self.pat(p), self.atom(e));
                self.line(&head);
                self.block_body(a);
                self.else_chain(b);
            }
            Stmt::Match(e, arms) => {
                let head = format!("match {} {{", self.atom(e));
                self.line(&head);
                self.indent += 1;
                for a in arms {
                    let g = a.guard.as_ref().map(|g| format!(" if {}", self.expr(g))).unwrap_or_default();
                    let p = self.pat(&a.pat);
                    match &a.body {
                        ArmBody::Expr(e) => {
                            let l = format!("{}{} => {},", p, g, self.expr(e));
                            self.line(&l);
                        }
                        ArmBody::Block(b) if b.stmts.is_empty() && b.tail.is_none() => {
                            self.line(&format!("{p}{g} => {{}}"));
                        }
                        ArmBody::Block(b) => {
                            self.line(&format!("{p}{g} => {{"));
                            self.block_body(b);
                            self.line("}");
                        }
                    }
                }
                self.indent -= 1;
                self.line("}");
            }
            Stmt::For { label, var, lo, hi, inclusive, body } => {
                let head = format!(
                    "{}for {} in {}{}{} {{",
                    Self::label(label),
                    var,
                    self.atom(lo),
                    if *inclusive { "..=" } else { ".." },
                    self.atom(hi)
                );
                self.line(&head);
                self.block_body(body);
                self.line("}");
            }
            Stmt::ForIn { var, iter, body } => {
                let head = format!("for {} in {} {{", var, self.atom(iter));
                self.line(&head);
                self.block_body(body);
                self.line("}");
            }
            Stmt::While { label, cond, body } => {
                let head = format!("{}while {} {{", Self::label(label), self.atom(cond));
                self.line(&head);
                self.block_body(body);
                self.line("}");
            }
            Stmt::Loop { label, body } => {
                self.line(&format!("{}loop {{", Self::label(label)));
                self.block_body(body);
                self.line("}");
            }
            Stmt::Scope(b) => {
                self.line("{");
                self.block_body(b);
                self.line("}");
            }
            _ => {
                let l = self.simple_stmt(s);
                self.line(&l);
            }
        }
    }

    fn else_chain(&mut self, b: &Option<Block>) {
        match b {
            None => self.line("}"),
            Some(b) if b.tail.is_none() && b.stmts.len() == 1 && matches!(b.stmts[0], Stmt::If(..)) => {
                let Stmt::If(c, a, e) = &b.stmts[0] else { unreachable!() };
                let head = format!("}} else if {} {{", self.atom(c));
                self.line(&head);
                self.block_body(a);
                self.else_chain(e);
            }
            Some(b) => {
                self.line("} else {");
                self.block_body(b);
                self.line("}");
            }
        }
    }

    // ---------------------------------------------------------------- items

    fn derive_line(&mut self) {
        self.line("#[derive(Clone, Copy, PartialEq)]");
    }

    pub fn items(&mut self, k: &Kernel) {
        for (i, s) in k.structs.iter().enumerate() {
            self.derive_line();
            let name = struct_name(self.kid, i);
            if s.tuple_like {
                let fs: Vec<String> = s.fields.iter().map(|(_, t)| self.ty(t)).collect();
                self.line(&format!("struct {}({});", name, fs.join(", ")));
            } else {
                let fs: Vec<String> = s.fields.iter().map(|(n, t)| format!("{}: {}", n, self.ty(t))).collect();
                self.line(&format!("struct {} {{ {} }}", name, fs.join(", ")));
            }
        }
        for (i, e) in k.enums.iter().enumerate() {
            self.derive_line();
            if let Some(r) = e.repr {
                self.line(&format!("#[repr({})]", r.name()));
            }
            self.line(&format!("enum {} {{", enum_name(self.kid, i)));
            self.indent += 1;
            for v in &e.variants {
                let fields = match &v.fields {
                    VariantFields::Unit => String::new(),
                    VariantFields::Tuple(ts) => format!("({})", ts.iter().map(|t| self.ty(t)).collect::<Vec<_>>().join(", ")),
                    VariantFields::Named(fs) => {
                        format!(" {{ {} }}", fs.iter().map(|(n, t)| format!("{}: {}", n, self.ty(t))).collect::<Vec<_>>().join(", "))
                    }
                };
                let d = v.discr.map(|d| format!(" = {d}")).unwrap_or_default();
                self.line(&format!("{}{}{},", v.name, fields, d));
            }
            self.indent -= 1;
            self.line("}");
        }
        for t in &k.templates {
            self.template(*t, k);
        }
        // free functions, then one impl block per struct with methods
        for f in k.fns.iter().filter(|f| f.receiver.is_none()) {
            self.function(f);
        }
        for si in 0..k.structs.len() {
            let ms: Vec<&FnDef> = k.fns.iter().filter(|f| matches!(f.receiver, Some((s, _)) if s == si)).collect();
            if ms.is_empty() {
                continue;
            }
            self.line(&format!("impl {} {{", struct_name(self.kid, si)));
            self.indent += 1;
            for f in ms {
                self.function(f);
            }
            self.indent -= 1;
            self.line("}");
        }
    }

    fn function(&mut self, f: &FnDef) {
        if let Some(a) = f.inline {
            self.line(a);
        }
        let mut ps: Vec<String> = vec![];
        match &f.receiver {
            Some((_, ParamMode::Val)) => ps.push("self".into()),
            Some((_, ParamMode::Ref)) => ps.push("&self".into()),
            Some((_, ParamMode::RefMut)) => ps.push("&mut self".into()),
            None => {}
        }
        for (n, p) in &f.params {
            ps.push(match p {
                ParamTy::Slice => format!("{n}: &[u64]"),
                ParamTy::Ty(t, ParamMode::Val) => format!("{}: {}", n, self.ty(t)),
                ParamTy::Ty(t, ParamMode::Ref) => format!("{}: &{}", n, self.ty(t)),
                ParamTy::Ty(t, ParamMode::RefMut) => format!("{}: &mut {}", n, self.ty(t)),
            });
        }
        self.line(&format!("fn {}({}) -> {} {{", f.name, ps.join(", "), self.ty(&f.ret)));
        self.block_body(&f.body);
        self.line("}");
    }

    fn template(&mut self, t: Template, k: &Kernel) {
        let n = template_name(self.kid, t);
        match t {
            Template::Pick => {
                self.line(if k.generic_noinline { "#[inline(never)]" } else { "#[inline]" });
                self.line(&format!("fn {n}<T: Copy>(c: bool, a: T, b: T) -> T {{ if c {{ a }} else {{ b }} }}"));
            }
            Template::Twice => {
                self.line(&format!("fn {n}<T: Copy, F: Fn(T) -> T>(f: F, x: T) -> T {{ f(f(x)) }}"));
            }
            Template::Fold => {
                self.line(&format!("fn {n}<F: FnMut(u64, u32) -> u64>(n: u32, init: u64, mut f: F) -> u64 {{"));
                self.line("    let mut a = init;");
                self.line("    for k in 0..n {");
                self.line("        a = f(a, k);");
                self.line("    }");
                self.line("    a");
                self.line("}");
            }
            Template::Trait => {
                let m = format!("dig{}", self.kid);
                self.line(&format!("trait {n} {{ fn {m}(self) -> u64; }}"));
                for it in &k.trait_tys {
                    let mut st = self.kid ^ ((it.bits() as u64) << 32) ^ (it.signed() as u64) << 40;
                    let c = splitmix64(&mut st);
                    let r = c % 64;
                    let v = if it.bits() == 128 { "fold128(self as u128)".to_string() } else { "(self as u64)".to_string() };
                    self.line(&format!("impl {n} for {} {{ fn {m}(self) -> u64 {{ {v}.rotate_left({r}) ^ 0x{c:x} }} }}", it.name()));
                }
            }
        }
    }

    pub fn kernel_fn(&mut self, k: &Kernel) {
        // the conformance CPU reference wants a `///` line on every kernel
        self.line(&format!(
            "/// Random kernel {}{} (kernel-gen): {}.",
            k.id,
            if k.may_trap { ", may trap" } else { "" },
            if k.summary.is_empty() { "straight-line code".to_string() } else { k.summary.join(", ") }
        ));
        self.line("#[kernel]");
        self.line(&format!("pub fn gen_{}(input: &[u64], mut out: DisjointSlice<u64>) {{", k.id));
        self.indent += 1;
        self.line("let idx = thread::index_1d();");
        self.line("let i = idx.get();");
        let mut st = k.id;
        self.line(&format!("let mut acc: u64 = 0x{:x};", splitmix64(&mut st)));
        self.indent -= 1;
        self.block_body(&k.body);
        self.indent += 1;
        self.line("if let Some(o) = out.get_mut(idx) {");
        self.line("    *o = acc;");
        self.line("}");
        self.indent -= 1;
        self.line("}");
    }
}

pub fn expr_len(kid: u64, e: &Expr) -> usize {
    Printer::new(kid).expr(e).len()
}

/// The kernel's items (types, helpers) and the kernel function.
pub fn kernel(k: &Kernel) -> (String, String) {
    let mut p = Printer::new(k.id);
    p.items(k);
    let items = p.out;
    let mut p = Printer::new(k.id);
    p.kernel_fn(k);
    (items, p.out)
}
