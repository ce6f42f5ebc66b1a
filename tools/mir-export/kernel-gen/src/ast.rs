//! The generated program: types and a small Rust AST, just rich enough for
//! what the generator emits. The printer (print.rs) turns it into source.
//!
//! The AST is untyped at the expression level: the generator is
//! type-directed, so every expression it builds already has the type its
//! context asks for.

/// Rust's primitive integer types.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub enum IntTy {
    U8,
    U16,
    U32,
    U64,
    U128,
    Usize,
    I8,
    I16,
    I32,
    I64,
    I128,
    Isize,
}

pub const ALL_INTS: [IntTy; 12] = [
    IntTy::U8,
    IntTy::U16,
    IntTy::U32,
    IntTy::U64,
    IntTy::U128,
    IntTy::Usize,
    IntTy::I8,
    IntTy::I16,
    IntTy::I32,
    IntTy::I64,
    IntTy::I128,
    IntTy::Isize,
];

impl IntTy {
    /// Width in bits; `usize`/`isize` are 64-bit on every target oxidec has
    /// (nvptx64, and the x86-64/aarch64 host of the reference).
    pub fn bits(self) -> u32 {
        use IntTy::*;
        match self {
            U8 | I8 => 8,
            U16 | I16 => 16,
            U32 | I32 => 32,
            U64 | I64 | Usize | Isize => 64,
            U128 | I128 => 128,
        }
    }

    pub fn signed(self) -> bool {
        use IntTy::*;
        matches!(self, I8 | I16 | I32 | I64 | I128 | Isize)
    }

    pub fn name(self) -> &'static str {
        use IntTy::*;
        match self {
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            U128 => "u128",
            Usize => "usize",
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            I128 => "i128",
            Isize => "isize",
        }
    }

    /// The type of the same width with the other signedness.
    pub fn flip_sign(self) -> IntTy {
        use IntTy::*;
        match self {
            U8 => I8,
            U16 => I16,
            U32 => I32,
            U64 => I64,
            U128 => I128,
            Usize => Isize,
            I8 => U8,
            I16 => U16,
            I32 => U32,
            I64 => U64,
            I128 => U128,
            Isize => Usize,
        }
    }

    pub fn unsigned(self) -> IntTy {
        if self.signed() {
            self.flip_sign()
        } else {
            self
        }
    }

    /// All-ones mask of the width, as u128.
    pub fn mask(self) -> u128 {
        if self.bits() == 128 {
            u128::MAX
        } else {
            (1u128 << self.bits()) - 1
        }
    }

    /// Bit pattern of MIN (truncated to the width).
    pub fn min_bits(self) -> u128 {
        if self.signed() {
            1u128 << (self.bits() - 1)
        } else {
            0
        }
    }

    /// Bit pattern of MAX.
    pub fn max_bits(self) -> u128 {
        if self.signed() {
            self.mask() >> 1
        } else {
            self.mask()
        }
    }

    /// The value of bit pattern `bits` (truncated to the width) as i128 if
    /// signed; for unsigned types use `bits & mask` directly.
    pub fn signed_value(self, bits: u128) -> i128 {
        let b = self.bits();
        let v = bits & self.mask();
        if b == 128 {
            v as i128
        } else if self.signed() && (v >> (b - 1)) & 1 == 1 {
            (v as i128) - (1i128 << b)
        } else {
            v as i128
        }
    }

    /// Whether `From<self> for to` exists in core (lossless conversion).
    pub fn lossless_into(self, to: IntTy) -> bool {
        use IntTy::*;
        if self == to {
            return false; // From<T> for T exists but is pointless
        }
        match (self, to) {
            // usize/isize: core only provides From for u8/u16 (and bool)
            (U8 | U16, Usize) => true,
            (U8 | I8 | I16, Isize) => true,
            (_, Usize | Isize) => false,
            (Usize | Isize, _) => false,
            _ => {
                if self.signed() == to.signed() {
                    self.bits() < to.bits()
                } else {
                    !self.signed() && self.bits() < to.bits()
                }
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FloatTy {
    F32,
    F64,
}

impl FloatTy {
    pub fn name(self) -> &'static str {
        match self {
            FloatTy::F32 => "f32",
            FloatTy::F64 => "f64",
        }
    }
    pub fn bits(self) -> u32 {
        match self {
            FloatTy::F32 => 32,
            FloatTy::F64 => 64,
        }
    }
    /// The unsigned integer type of the same width (for from_bits).
    pub fn bits_ty(self) -> IntTy {
        match self {
            FloatTy::F32 => IntTy::U32,
            FloatTy::F64 => IntTy::U64,
        }
    }
}

/// A value type. Struct/Enum index the kernel's tables.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Ty {
    Bool,
    Int(IntTy),
    Float(FloatTy),
    Tuple(Vec<Ty>),
    Array(Box<Ty>, usize),
    Struct(usize),
    Enum(usize),
    Option(Box<Ty>),
}

impl Ty {
    pub fn is_scalar(&self) -> bool {
        matches!(self, Ty::Bool | Ty::Int(_) | Ty::Float(_))
    }
    pub fn int(&self) -> Option<IntTy> {
        match self {
            Ty::Int(t) => Some(*t),
            _ => None,
        }
    }
    pub fn float(&self) -> Option<FloatTy> {
        match self {
            Ty::Float(t) => Some(*t),
            _ => None,
        }
    }
    /// Whether a float occurs anywhere inside (derive(Eq) would be wrong).
    pub fn has_float(&self, structs: &[StructDef], enums: &[EnumDef]) -> bool {
        match self {
            Ty::Float(_) => true,
            Ty::Bool | Ty::Int(_) => false,
            Ty::Tuple(ts) => ts.iter().any(|t| t.has_float(structs, enums)),
            Ty::Array(t, _) | Ty::Option(t) => t.has_float(structs, enums),
            Ty::Struct(i) => structs[*i].fields.iter().any(|(_, t)| t.has_float(structs, enums)),
            Ty::Enum(i) => enums[*i].variants.iter().any(|v| v.fields.tys().iter().any(|t| t.has_float(structs, enums))),
        }
    }
}

#[derive(Clone, Debug)]
pub struct StructDef {
    pub fields: Vec<(String, Ty)>,
    /// `struct S(A, B);` instead of named fields; field names are "0", "1"..
    pub tuple_like: bool,
}

#[derive(Clone, Debug)]
pub enum VariantFields {
    Unit,
    Tuple(Vec<Ty>),
    Named(Vec<(String, Ty)>),
}

impl VariantFields {
    pub fn tys(&self) -> Vec<Ty> {
        match self {
            VariantFields::Unit => vec![],
            VariantFields::Tuple(ts) => ts.clone(),
            VariantFields::Named(fs) => fs.iter().map(|(_, t)| t.clone()).collect(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct VariantDef {
    pub name: String,
    /// An explicit discriminant (`= 5`), printed when set.
    pub discr: Option<i128>,
    pub fields: VariantFields,
}

#[derive(Clone, Debug)]
pub struct EnumDef {
    /// `#[repr(..)]`; set whenever a discriminant is explicit on a data enum.
    pub repr: Option<IntTy>,
    pub variants: Vec<VariantDef>,
}

impl EnumDef {
    /// Every variant is a unit variant: `as` casts to integers are allowed.
    pub fn fieldless(&self) -> bool {
        self.variants.iter().all(|v| matches!(v.fields, VariantFields::Unit))
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LAnd,
    LOr,
}

impl BinOp {
    pub fn sym(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            And => "&",
            Or => "|",
            Xor => "^",
            Shl => "<<",
            Shr => ">>",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            LAnd => "&&",
            LOr => "||",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Debug)]
pub enum Expr {
    /// Integer literal: the bit pattern, truncated to the type's width.
    Int(IntTy, u128),
    /// Float literal by bit pattern (printed as a literal when it round-trips
    /// through a short decimal, else as `fN::from_bits(..)`).
    Float(FloatTy, u64),
    Bool(bool),
    /// Anything printed verbatim: variables, paths (`u8::MAX`, `E::A`),
    /// `None::<T>`.
    Path(String),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Un(UnOp, Box<Expr>),
    Cast(Box<Expr>, Ty),
    /// `recv.name(args)`
    Method(Box<Expr>, String, Vec<Expr>),
    /// `path(args)`: functions, closures, `T::from`, tuple structs and
    /// variants, `Some`.
    Call(String, Vec<Expr>),
    /// `e.name` (also tuple fields "0").
    Field(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Block>, Box<Block>),
    Match(Box<Expr>, Vec<Arm>),
    Block(Box<Block>),
    /// `Name { a: e, .. }`
    StructLit(String, Vec<(String, Expr)>),
    Tuple(Vec<Expr>),
    Array(Vec<Expr>),
    ArrayRepeat(Box<Expr>, usize),
    Ref(bool, Box<Expr>),
    Deref(Box<Expr>),
    /// `move |a: T, ..| -> R { body }`
    Closure { params: Vec<(String, Ty)>, ret: Ty, body: Box<Block> },
    /// `input[(idx) % input.len()]`-style reads are built from these parts.
    Paren(Box<Expr>),
}

#[derive(Clone, Debug)]
pub struct Arm {
    pub pat: Pat,
    pub guard: Option<Expr>,
    pub body: ArmBody,
}

#[derive(Clone, Debug)]
pub enum ArmBody {
    Expr(Expr),
    Block(Block),
}

#[derive(Clone, Debug)]
pub enum Pat {
    Wild,
    Int(IntTy, u128),
    /// `lo..=hi`
    Range(IntTy, u128, u128),
    Bool(bool),
    Or(Vec<Pat>),
    Bind(String),
    BindAt(String, Box<Pat>),
    /// `Path` (unit variant, `None`)
    Path(String),
    /// `Path(p, ..)` (tuple variant, `Some`)
    TupleStruct(String, Vec<Pat>),
    /// `Path { f: p, .. }`
    Struct(String, Vec<(String, Pat)>, bool),
    Tuple(Vec<Pat>),
}

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub tail: Option<Expr>,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Let { name: String, mutable: bool, ty: Option<Ty>, init: Expr },
    /// `let (a, b): (T, U) = e;`
    LetTuple { names: Vec<String>, ty: Ty, init: Expr },
    Assign(Expr, Expr),
    OpAssign(BinOp, Expr, Expr),
    Expr(Expr),
    If(Expr, Block, Option<Block>),
    /// `if let PAT = e { } else { }`
    IfLet(Pat, Expr, Block, Option<Block>),
    Match(Expr, Vec<Arm>),
    /// `[label:] for var in lo..hi { }` (or `..=` when inclusive)
    For { label: Option<String>, var: String, lo: Expr, hi: Expr, inclusive: bool, body: Block },
    /// `for var in e { }` (arrays by value)
    ForIn { var: String, iter: Expr, body: Block },
    While { label: Option<String>, cond: Expr, body: Block },
    Loop { label: Option<String>, body: Block },
    Break(Option<String>),
    Return(Expr),
    Continue(Option<String>),
    /// A nested scope `{ .. }`.
    Scope(Block),
    Comment(String),
}

/// How a helper receives a parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamMode {
    Val,
    Ref,
    RefMut,
}

#[derive(Clone, Debug)]
pub enum ParamTy {
    /// A value type, by value or by reference.
    Ty(Ty, ParamMode),
    /// `&[u64]`: the kernel's input, handed down.
    Slice,
}

#[derive(Clone, Debug)]
pub struct FnDef {
    pub name: String,
    /// `#[inline]`, `#[inline(always)]`, `#[inline(never)]` or none.
    pub inline: Option<&'static str>,
    /// For methods: the struct (index) and how `self` is taken.
    pub receiver: Option<(usize, ParamMode)>,
    pub params: Vec<(String, ParamTy)>,
    pub ret: Ty,
    pub body: Block,
}

/// Fixed generic helpers, emitted once per kernel when used.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub enum Template {
    /// `fn pickN<T: Copy>(c: bool, a: T, b: T) -> T`
    Pick,
    /// `fn twiceN<T: Copy, F: Fn(T) -> T>(f: F, x: T) -> T`
    Twice,
    /// `fn foldN<F: FnMut(u64, u32) -> u64>(n: u32, init: u64, f: F) -> u64`
    Fold,
    /// `trait DigN { fn dig(self) -> u64; }` for the kernel's integer types
    Trait,
}

#[derive(Clone, Debug)]
pub struct Kernel {
    pub id: u64,
    /// The kernel contains one construct that may trap (division by an
    /// input-dependent zero, an out-of-bounds index, `unwrap` on `None`,
    /// `panic!`).
    pub may_trap: bool,
    pub structs: Vec<StructDef>,
    pub enums: Vec<EnumDef>,
    pub fns: Vec<FnDef>,
    pub templates: Vec<Template>,
    /// Integer types implementing the Trait template.
    pub trait_tys: Vec<IntTy>,
    /// The generic `pick` helper is `#[inline(never)]` (else `#[inline]`).
    pub generic_noinline: bool,
    pub body: Block,
    /// One-line summary of the constructs used, printed as a comment.
    pub summary: Vec<&'static str>,
}

pub fn struct_name(kid: u64, i: usize) -> String {
    format!("S{kid}_{i}")
}
pub fn enum_name(kid: u64, i: usize) -> String {
    format!("E{kid}_{i}")
}
pub fn fn_name(kid: u64, i: usize) -> String {
    format!("f{kid}_{i}")
}
pub fn template_name(kid: u64, t: Template) -> String {
    match t {
        Template::Pick => format!("pick{kid}"),
        Template::Twice => format!("twice{kid}"),
        Template::Fold => format!("fold{kid}"),
        Template::Trait => format!("Dig{kid}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_facts() {
        assert_eq!(IntTy::I8.signed_value(0x80), -128);
        assert_eq!(IntTy::I8.signed_value(0x7f), 127);
        assert_eq!(IntTy::I128.signed_value(u128::MAX), -1);
        assert_eq!(IntTy::U16.max_bits(), 0xffff);
        assert_eq!(IntTy::I16.min_bits(), 0x8000);
        assert!(IntTy::U8.lossless_into(IntTy::I16));
        assert!(!IntTy::I8.lossless_into(IntTy::U16));
        assert!(IntTy::U16.lossless_into(IntTy::Usize));
        assert!(!IntTy::U32.lossless_into(IntTy::Usize));
        assert!(!IntTy::Usize.lossless_into(IntTy::U128));
    }
}
