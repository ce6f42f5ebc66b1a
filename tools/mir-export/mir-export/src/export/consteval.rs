//! A small evaluator for the constant bodies that rustc prints as MIR
//! instead of values: explicit enum discriminants written as expressions
//! (`High = 1 << 30`, `Neg = -(1 << 20) - 5`), and inline `const` blocks
//! of generic bodies whose value is a function (core's
//! `const { inst_partition::<T, F>() }`: inline_const.rs). Straight-line
//! integer code (literals, casts between integers, arithmetic with and
//! without overflow checks, comparisons, `assert`, `goto`, `switchInt`),
//! fn items reified to pointers, and what an `Env` answers: constants it
//! knows (a type's size) and calls (of const fns, evaluated in turn);
//! anything else is reported, never guessed.

use super::consts::{builtin_const, int_bits};
use crate::mirparse::ast::*;

#[derive(Clone, Copy, Debug)]
pub(super) struct Int {
    bits: u128,
    width: u32,
    signed: bool,
}

#[derive(Clone, Debug)]
pub(super) enum Val {
    Int(Int),
    Bool(bool),
    /// `(T, bool)` of the `*WithOverflow` operators.
    Pair(Int, bool),
    /// A fn item reified to a pointer (`f::<u8> as fn(u8) (PointerCoercion(ReifyFnPointer(..)))`).
    Fn(Path),
}

/// What the evaluator asks of its caller.
pub(super) trait Env {
    /// The value of a constant the evaluator does not read by itself
    /// (`<u64 as SizedTypeProperties>::SIZE`); None when not known.
    fn constant(&mut self, c: &Const) -> Option<Val>;
    /// The value of a call of `callee` with `args`.
    fn call(&mut self, callee: &Path, args: &[Val]) -> Result<Val, String>;
}

/// An environment that knows nothing more (enum discriminants).
struct NoEnv;

impl Env for NoEnv {
    fn constant(&mut self, _: &Const) -> Option<Val> {
        None
    }
    fn call(&mut self, callee: &Path, _: &[Val]) -> Result<Val, String> {
        Err(format!("a call of `{callee}`"))
    }
}

impl Val {
    /// An integer of type `ty` with these bits.
    pub(super) fn int(bits: u128, ty: &Ty) -> Option<Val> {
        let (w, s) = int_ty(ty)?;
        Some(Val::Int(Int::new(bits, w, s)))
    }
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

impl Int {
    fn new(v: u128, width: u32, signed: bool) -> Int {
        Int { bits: v & mask(width), width, signed }
    }

    /// The mathematical value (as i128 when it fits; u128 values above
    /// i128::MAX only occur for unsigned 128-bit types).
    fn value(self) -> i128 {
        if self.signed && self.width < 128 && self.bits >> (self.width - 1) & 1 == 1 {
            (self.bits | !mask(self.width)) as i128
        } else {
            self.bits as i128
        }
    }
}

fn int_ty(ty: &Ty) -> Option<(u32, bool)> {
    match ty {
        Ty::Int { bits, signed, .. } => Some((*bits, *signed)),
        _ => None,
    }
}

/// Evaluates `body` (a const body returning an integer) to the value of
/// `_0`, sign-extended.
pub fn eval_int_body(body: &Body) -> Result<i128, String> {
    match eval_body(body, &[], &mut NoEnv)? {
        Val::Int(i) => Ok(i.value()),
        _ => Err("no integer result".into()),
    }
}

/// Evaluates `body` with its arguments `args` to the value of `_0`.
pub(super) fn eval_body(body: &Body, args: &[Val], env: &mut dyn Env) -> Result<Val, String> {
    let mut locals: Vec<Option<Val>> = vec![None; body.locals.len()];
    if args.len() != body.arg_count as usize || locals.len() <= args.len() {
        return Err(format!("{} arguments for {}", args.len(), body.arg_count));
    }
    for (k, a) in args.iter().enumerate() {
        locals[k + 1] = Some(a.clone());
    }
    let mut bb = 0usize;
    for _ in 0..10_000 {
        let block = body.blocks.get(bb).ok_or("jump to a missing block")?;
        for s in &block.statements {
            match &s.kind {
                StatementKind::Assign(place, rv) => {
                    if !place.proj.is_empty() {
                        return Err("an assignment to a projection".into());
                    }
                    let ty = local_ty(body, place.local)?;
                    let v = rvalue(&locals, rv, ty, env)?;
                    *locals.get_mut(place.local as usize).ok_or("a local out of range")? = Some(v);
                }
                StatementKind::Ignored => {}
                _ => return Err("a statement other than an assignment".into()),
            }
        }
        bb = match &block.terminator.kind {
            TerminatorKind::Goto(t) => *t as usize,
            TerminatorKind::Assert { cond, expected, msg, target, .. } => match operand(&locals, cond, env)? {
                Val::Bool(b) if b == *expected => *target as usize,
                Val::Bool(_) => return Err(format!("it fails its check: {}", msg.replace("{}", "_"))),
                _ => return Err("an assert on a non-bool".into()),
            },
            TerminatorKind::SwitchInt { discr, targets, otherwise } => {
                let v = match operand(&locals, discr, env)? {
                    Val::Int(i) => i.bits,
                    Val::Bool(b) => u128::from(b),
                    _ => return Err("a switch on a pair or a function".into()),
                };
                targets.iter().find(|(k, _)| *k == v).map_or(*otherwise, |t| t.1) as usize
            }
            TerminatorKind::Return => return locals.first().cloned().flatten().ok_or_else(|| "no result".into()),
            TerminatorKind::Call { dest, callee: Callee::Path(callee), args, target: Some(target) } if dest.proj.is_empty() => {
                let args = args.iter().map(|a| operand(&locals, a, env)).collect::<Result<Vec<Val>, String>>()?;
                let v = env.call(callee, &args)?;
                *locals.get_mut(dest.local as usize).ok_or("a local out of range")? = Some(v);
                *target as usize
            }
            _ => return Err("a call that does not return, through a pointer, or other control flow".into()),
        };
    }
    Err("too many steps".into())
}

fn local_ty(body: &Body, l: u32) -> Result<&Ty, String> {
    body.locals.get(l as usize).and_then(|d| d.as_ref()).map(|d| &d.ty).ok_or_else(|| format!("_{l} is not declared"))
}

fn operand(locals: &[Option<Val>], op: &Operand, env: &mut dyn Env) -> Result<Val, String> {
    match op {
        Operand::Copy(p) | Operand::Move(p) => {
            let v = locals.get(p.local as usize).cloned().flatten().ok_or_else(|| format!("_{} is read before it is set", p.local))?;
            match (p.proj.as_slice(), v) {
                ([], v) => Ok(v),
                ([Proj::Field(0, _)], Val::Pair(i, _)) => Ok(Val::Int(i)),
                ([Proj::Field(1, _)], Val::Pair(_, o)) => Ok(Val::Bool(o)),
                _ => Err("a projection other than a field of an overflow pair".into()),
            }
        }
        Operand::Const(c) => match (&c.val, &c.ty) {
            (ConstVal::Int { negative, text }, Some(ty)) => {
                let (w, s) = int_ty(ty).ok_or("a non-integer literal")?;
                let bits = int_bits(*negative, text, w, s).ok_or_else(|| format!("the literal `{}`", c.text))?;
                Ok(Val::Int(Int::new(bits, w, s)))
            }
            (ConstVal::Bool(b), _) => Ok(Val::Bool(*b)),
            // `i64::MAX` inside a body prints as `core::num::<impl i64>::MAX`
            (ConstVal::Path { path, fields }, _) if fields.is_empty() => match builtin_const(&path.bare()) {
                Some((ty, bits)) => {
                    let (w, s) = int_ty(&ty).ok_or("a non-integer constant")?;
                    Ok(Val::Int(Int::new(bits, w, s)))
                }
                None => env.constant(c).ok_or_else(|| format!("the constant `{}`", c.text)),
            },
            _ => env.constant(c).ok_or_else(|| format!("the constant `{}`", c.text)),
        },
    }
}

fn int_of(v: Val) -> Result<Int, String> {
    match v {
        Val::Int(i) => Ok(i),
        _ => Err("an integer operation on a non-integer".into()),
    }
}

fn rvalue(locals: &[Option<Val>], rv: &Rvalue, dest: &Ty, env: &mut dyn Env) -> Result<Val, String> {
    match rv {
        Rvalue::Use(op) => operand(locals, op, env),
        // `f::<T> as fn(..) (PointerCoercion(ReifyFnPointer(Safe), Implicit))`
        Rvalue::Cast { kind, operand: Operand::Const(c), .. } if kind.starts_with("PointerCoercion(ReifyFnPointer") => match &c.val {
            ConstVal::Path { path, fields } if fields.is_empty() => Ok(Val::Fn(path.clone())),
            _ => Err(format!("a fn pointer made from `{}`", c.text)),
        },
        Rvalue::Cast { kind, operand: op, ty } if kind == "IntToInt" => {
            let a = int_of(operand(locals, op, env)?)?;
            let (w, s) = int_ty(ty).ok_or("a cast to a non-integer")?;
            // sign- or zero-extend by the source's signedness, then wrap
            Ok(Val::Int(Int::new(a.value() as u128, w, s)))
        }
        Rvalue::Unary { op, operand: o } => {
            let v = operand(locals, o, env)?;
            match (op.as_str(), v) {
                ("Not", Val::Bool(b)) => Ok(Val::Bool(!b)),
                ("Not", Val::Int(a)) => Ok(Val::Int(Int::new(!a.bits, a.width, a.signed))),
                ("Neg", Val::Int(a)) => Ok(Val::Int(Int::new(a.bits.wrapping_neg(), a.width, a.signed))),
                _ => Err(format!("the operator `{op}`")),
            }
        }
        Rvalue::Binary { op, lhs, rhs } => {
            let a = operand(locals, lhs, env)?;
            let b = operand(locals, rhs, env)?;
            if let (Val::Bool(x), Val::Bool(y)) = (&a, &b) {
                let (x, y) = (*x, *y);
                return match op.as_str() {
                    "BitAnd" => Ok(Val::Bool(x & y)),
                    "BitOr" => Ok(Val::Bool(x | y)),
                    "BitXor" | "Ne" => Ok(Val::Bool(x ^ y)),
                    "Eq" => Ok(Val::Bool(x == y)),
                    _ => Err(format!("the operator `{op}` on bools")),
                };
            }
            binary(op, int_of(a)?, int_of(b)?, dest)
        }
        _ => Err("an rvalue other than integer arithmetic".into()),
    }
}

fn binary(op: &str, a: Int, b: Int, dest: &Ty) -> Result<Val, String> {
    let (w, s) = (a.width, a.signed);
    let (x, y) = (a.value(), b.value());
    let wrap = |v: u128| Val::Int(Int::new(v, w, s));
    // the exact result, to tell overflow: i128 arithmetic suffices below
    // 128 bits; 128-bit operands use checked u128/i128 arithmetic
    let exact = |v: Option<i128>| v.filter(|&r| Int::new(r as u128, w, s).value() == r);
    let pair = |v: u128, exact_ok: bool| Val::Pair(Int::new(v, w, s), !exact_ok);
    let shift_ok = b.bits < u128::from(w);
    Ok(match op {
        "Add" | "AddUnchecked" => wrap(a.bits.wrapping_add(b.bits)),
        "Sub" | "SubUnchecked" => wrap(a.bits.wrapping_sub(b.bits)),
        "Mul" | "MulUnchecked" => wrap(a.bits.wrapping_mul(b.bits)),
        "AddWithOverflow" => pair(a.bits.wrapping_add(b.bits), w < 128 && exact(x.checked_add(y)).is_some() || w == 128 && checked128(a, b, op)),
        "SubWithOverflow" => pair(a.bits.wrapping_sub(b.bits), w < 128 && exact(x.checked_sub(y)).is_some() || w == 128 && checked128(a, b, op)),
        "MulWithOverflow" => pair(a.bits.wrapping_mul(b.bits), w < 128 && exact(x.checked_mul(y)).is_some() || w == 128 && checked128(a, b, op)),
        "Div" | "Rem" => {
            if y == 0 || (s && y == -1 && Int::new(x.wrapping_neg() as u128, w, s).value() != x.wrapping_neg()) {
                return Err("a division by zero or overflowing division".into());
            }
            let r = match (op, s) {
                ("Div", true) => x.wrapping_div(y) as u128,
                ("Rem", true) => x.wrapping_rem(y) as u128,
                ("Div", false) => a.bits / b.bits,
                _ => a.bits % b.bits,
            };
            wrap(r)
        }
        "BitAnd" => wrap(a.bits & b.bits),
        "BitOr" => wrap(a.bits | b.bits),
        "BitXor" => wrap(a.bits ^ b.bits),
        "Shl" | "ShlUnchecked" if shift_ok => wrap(a.bits << b.bits),
        "Shr" | "ShrUnchecked" if shift_ok => wrap(if s { (x >> b.bits) as u128 } else { a.bits >> b.bits }),
        "Eq" => Val::Bool(a.bits == b.bits),
        "Ne" => Val::Bool(a.bits != b.bits),
        "Lt" | "Le" | "Gt" | "Ge" => {
            let ord = if s { x.cmp(&y) } else { a.bits.cmp(&b.bits) };
            Val::Bool(match op {
                "Lt" => ord.is_lt(),
                "Le" => ord.is_le(),
                "Gt" => ord.is_gt(),
                _ => ord.is_ge(),
            })
        }
        _ => return Err(format!("the operator `{op}` (with these operands) into `{dest}`")),
    })
}

fn checked128(a: Int, b: Int, op: &str) -> bool {
    if a.signed {
        let (x, y) = (a.bits as i128, b.bits as i128);
        match op {
            "AddWithOverflow" => x.checked_add(y).is_some(),
            "SubWithOverflow" => x.checked_sub(y).is_some(),
            _ => x.checked_mul(y).is_some(),
        }
    } else {
        match op {
            "AddWithOverflow" => a.bits.checked_add(b.bits).is_some(),
            "SubWithOverflow" => a.bits.checked_sub(b.bits).is_some(),
            _ => a.bits.checked_mul(b.bits).is_some(),
        }
    }
}
