//! The syntax tree of rustc's MIR text, as close to the text as possible.
//!
//! Nothing here is resolved: paths are the printed paths, constants are the
//! printed constants. `export.rs` resolves them against the whole file.

use std::fmt;

/// `file:line:col: end_line:end_col`, as printed in `// scope N at ...`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SrcSpan {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

impl fmt::Display for SrcSpan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GenericArg {
    /// Any region; they are all erased in optimized MIR.
    Lifetime,
    Type(Ty),
    /// A const generic argument as printed (`3_usize`, `{ N }`).
    Const(String),
}

/// One `::`-separated segment with its generic arguments. `turbofish` says
/// whether they were printed as `::<...>` (value paths) or `<...>` (types).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub name: String,
    pub args: Vec<GenericArg>,
    pub turbofish: bool,
}

/// `<SelfTy as Trait>` in front of a path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QSelf {
    pub self_ty: Box<Ty>,
    pub trait_: Option<Path>,
}

/// A path such as `core::option::Option::<u32>::Some`, `<P as Tr>::f`,
/// `<impl at src/lib.rs:4:1: 4:7>::get` (the impl is the first segment).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    pub qself: Option<Box<QSelf>>,
    pub segments: Vec<Segment>,
}

impl Path {
    pub fn last_name(&self) -> &str {
        self.segments.last().map_or("", |s| s.name.as_str())
    }

    /// The path without generic arguments: `core::option::Option::Some`.
    pub fn bare(&self) -> String {
        let mut p = self.clone();
        for s in &mut p.segments {
            s.args.clear();
        }
        p.to_string()
    }

    /// All generic arguments, of every segment, in order.
    pub fn all_args(&self) -> impl Iterator<Item = &GenericArg> {
        self.segments.iter().flat_map(|s| s.args.iter())
    }

    /// Whether this type path names an item declared inside a generic
    /// function: rustc prints the segments before the last with the
    /// enclosing item's own parameters, which are no arguments of the type
    /// (`arrayvec::ArrayVec<T, CAP>::retain::BackshiftOnDrop<'_, u32, 16>`
    /// is `BackshiftOnDrop` with `'_, u32, 16`; `T`, `CAP` are `retain`'s).
    /// An item declared inside a trait impl's method is printed under the
    /// impl's trait path (`<IntoIter<T, A> as Drop>::drop::DropGuard<'_, T,
    /// A>`: alloc's).
    pub fn declared_in_generic(&self) -> bool {
        let parents = &self.segments[..self.segments.len().saturating_sub(1)];
        if let Some(q) = &self.qself {
            return q.trait_.is_some() && !parents.is_empty() && parents.iter().all(|s| s.args.is_empty());
        }
        parents.iter().any(|s| !s.args.is_empty()) && parents.iter().flat_map(|s| s.args.iter()).all(is_parameter)
    }

    /// The generic arguments that make this type's instance: the last
    /// segment's for a type declared inside a generic function
    /// (`'_, u32, 16` above), else those of every segment.
    pub fn type_args(&self) -> impl Iterator<Item = &GenericArg> {
        let skip = if self.declared_in_generic() { self.segments.len() - 1 } else { 0 };
        self.segments.iter().skip(skip).flat_map(|s| s.args.iter())
    }

    /// The generic arguments of a fn item's call path that are the fn's
    /// own. rustc prints a fn declared inside a method of a generic impl
    /// with the impl's own parameters (`RawVecInner::<A>::reserve::
    /// do_reserve_and_handle::<Global>`), which a nested fn does not
    /// inherit (its `A` is its own, here `Global`): a segment that two more
    /// follow and whose arguments are all parameters gives none, as
    /// mono.rs `mask_parent_params` keeps such arguments in the text.
    pub fn fn_item_args(&self) -> impl Iterator<Item = &GenericArg> {
        let n = self.segments.len();
        self.segments.iter().enumerate().filter(move |(k, s)| k + 2 >= n || !s.args.iter().all(is_parameter)).flat_map(|(_, s)| s.args.iter())
    }

    /// This path without its last segment (an enum variant's ADT).
    pub fn parent(&self) -> Path {
        let mut p = self.clone();
        p.segments.pop();
        p
    }
}

/// A generic argument as rustc prints a parameter of the enclosing item:
/// a region, a one-segment type name (`T`), a const name (`CAP`, `{ CAP }`).
fn is_parameter(a: &GenericArg) -> bool {
    let ident = |n: &str| n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    match a {
        GenericArg::Lifetime => true,
        GenericArg::Type(Ty::Adt(p)) => {
            p.qself.is_none() && p.segments.len() == 1 && p.segments[0].args.is_empty() && ident(&p.segments[0].name)
        }
        GenericArg::Type(_) => false,
        GenericArg::Const(c) => ident(c.trim_start_matches('{').trim_end_matches('}').trim()),
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    Char,
    Str,
    Never,
    /// `name` is the Rust spelling (`usize`), `bits` its width on a 64-bit target.
    Int { name: &'static str, bits: u32, signed: bool },
    Float(u32),
    Tuple(Vec<Ty>),
    Array(Box<Ty>, String),
    Slice(Box<Ty>),
    Ref { mutable: bool, pointee: Box<Ty> },
    Ptr { mutable: bool, pointee: Box<Ty> },
    Adt(Path),
    /// A function item: the printed signature and the function's path.
    FnDef { sig: String, path: Path },
    /// A function pointer, as printed.
    FnPtr(String),
    Closure(String),
    Dyn(String),
}

pub const INT_TYPES: [(&str, u32, bool); 12] = [
    ("i8", 8, true),
    ("i16", 16, true),
    ("i32", 32, true),
    ("i64", 64, true),
    ("i128", 128, true),
    ("isize", 64, true),
    ("u8", 8, false),
    ("u16", 16, false),
    ("u32", 32, false),
    ("u64", 64, false),
    ("u128", 128, false),
    ("usize", 64, false),
];

impl Ty {
    /// The primitive type named `name`, if it is one.
    pub fn primitive(name: &str) -> Option<Ty> {
        if let Some(&(n, bits, signed)) = INT_TYPES.iter().find(|t| t.0 == name) {
            return Some(Ty::Int { name: n, bits, signed });
        }
        Some(match name {
            "bool" => Ty::Bool,
            "char" => Ty::Char,
            "str" => Ty::Str,
            "f32" => Ty::Float(32),
            "f64" => Ty::Float(64),
            _ => return None,
        })
    }

    pub fn unit() -> Ty {
        Ty::Tuple(Vec::new())
    }

    /// Whether the type mentions a closure, a function item (`fn(char) ->
    /// bool {core::char::methods::<impl char>::is_whitespace}`, which no
    /// source can spell) or a type declared inside a generic function
    /// (`Path::declared_in_generic`): such types cannot be named in a
    /// layout probe. A trait object is named as printed
    /// (`dyn Shape`, `dyn core::ops::FnMut(u32) -> u32`: paths from the
    /// crate root).
    pub fn is_unnameable(&self) -> bool {
        match self {
            Ty::Closure(_) | Ty::FnDef { .. } => true,
            Ty::Dyn(d) => d.contains("{closure@"),
            Ty::Tuple(v) => v.iter().any(Ty::is_unnameable),
            Ty::Array(t, _) | Ty::Slice(t) => t.is_unnameable(),
            Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => pointee.is_unnameable(),
            Ty::Adt(p) => {
                p.declared_in_generic() || p.type_args().any(|a| matches!(a, GenericArg::Type(t) if t.is_unnameable()))
            }
            _ => false,
        }
    }

    /// The element type for indexing (`[T; N]`, `[T]`).
    pub fn elem(&self) -> Option<&Ty> {
        match self {
            Ty::Array(t, _) | Ty::Slice(t) => Some(t),
            _ => None,
        }
    }

    /// What `*` reaches: the pointee of references and raw pointers.
    pub fn pointee(&self) -> Option<&Ty> {
        match self {
            Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => Some(pointee),
            Ty::Adt(p) if p.bare() == "alloc::boxed::Box" => match p.segments.last()?.args.first()? {
                GenericArg::Type(t) => Some(t),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Prints like rustc with regions erased: `&mut f32`, `Option<&'_ u8>` is
/// printed `core::option::Option<&u8>`, ADT lifetimes as `'_`.
impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => f.write_str("bool"),
            Ty::Char => f.write_str("char"),
            Ty::Str => f.write_str("str"),
            Ty::Never => f.write_str("!"),
            Ty::Int { name, .. } => f.write_str(name),
            Ty::Float(b) => write!(f, "f{b}"),
            Ty::Tuple(v) if v.len() == 1 => write!(f, "({},)", v[0]),
            Ty::Tuple(v) => write!(f, "({})", join(v, ", ")),
            Ty::Array(t, n) => write!(f, "[{t}; {n}]"),
            Ty::Slice(t) => write!(f, "[{t}]"),
            Ty::Ref { mutable, pointee } => write!(f, "&{}{pointee}", if *mutable { "mut " } else { "" }),
            Ty::Ptr { mutable, pointee } => write!(f, "*{} {pointee}", if *mutable { "mut" } else { "const" }),
            Ty::Adt(p) => write!(f, "{p}"),
            Ty::FnDef { sig, path } => write!(f, "{sig} {{{path}}}"),
            Ty::FnPtr(s) | Ty::Closure(s) | Ty::Dyn(s) => f.write_str(s),
        }
    }
}

impl fmt::Display for GenericArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenericArg::Lifetime => f.write_str("'_"),
            GenericArg::Type(t) => write!(f, "{t}"),
            GenericArg::Const(c) => f.write_str(c),
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(q) = &self.qself {
            match &q.trait_ {
                Some(t) => write!(f, "<{} as {t}>", q.self_ty)?,
                None => write!(f, "<{}>", q.self_ty)?,
            }
        }
        for (i, s) in self.segments.iter().enumerate() {
            if i > 0 || self.qself.is_some() {
                f.write_str("::")?;
            }
            f.write_str(&s.name)?;
            if !s.args.is_empty() {
                write!(f, "{}<{}>", if s.turbofish { "::" } else { "" }, join(&s.args, ", "))?;
            }
        }
        Ok(())
    }
}

pub fn join<T: fmt::Display>(items: &[T], sep: &str) -> String {
    items.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(sep)
}

#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub local: u32,
    pub proj: Vec<Proj>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Proj {
    Deref,
    Field(u32, Ty),
    Index(u32),
    ConstIndex { offset: u64, min_length: u64, from_end: bool },
    Subslice { from: u64, to: u64, from_end: bool },
    Downcast(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Copy(Place),
    Move(Place),
    Const(Const),
}

/// A constant as printed after `const`. `ty` is known from the text for
/// literals and `{allocN: T}` forms; otherwise the exporter finds it in the
/// `// + const_: Const { ty: ... }` comments or in the constant's item.
#[derive(Clone, Debug, PartialEq)]
pub struct Const {
    pub val: ConstVal,
    pub ty: Option<Ty>,
    /// The text as printed, used to match it with its comment.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ConstVal {
    /// An integer; `text` is the magnitude (decimal or `0x`), or a symbolic
    /// `MAX`/`MIN` of the type.
    Int { negative: bool, text: String },
    /// A float as printed, sign included (`-0`, `NaN`, `+Inf`, `1.5E+9`).
    Float(String),
    Bool(bool),
    Char(char),
    Str(Vec<u8>),
    ByteStr(Vec<u8>),
    /// `{allocN: &T}`, `{allocN+0x8: &T}`.
    Alloc { id: u32, offset: u64 },
    /// `{transmute(0x…): T}`: the value as one little-endian integer.
    Transmute(String),
    /// `Indirect { alloc_id: allocN, offset: Size(K bytes) }: T` (core's
    /// generic bodies): a value of type T (in `Const::ty`) whose bytes are
    /// allocation N's from offset K; not a reference to them.
    Indirect { id: u32, offset: u64 },
    /// A path: a named or promoted constant, an enum variant, a unit
    /// struct, a function item. `fields` for `Path(a, b)` / `Path { f: a }`.
    Path { path: Path, fields: Vec<(Option<String>, Const)> },
    Tuple(Vec<Const>),
    Array(Vec<Const>),
    /// `&value` inside an aggregate constant.
    Ref(Box<Const>),
    /// `<uninit>`: a value with no initialised bytes (`MaybeUninit::uninit()`).
    Uninit,
    /// `ZeroSized: T`: the value of a zero-sized type (closures, fn items).
    ZeroSized,
    /// `<static(DefId(1:52840 ~ core[c1f1]::unicode::X))>`: a reference to
    /// a static of another crate (or, in core's own MIR, of core), whose
    /// bytes are in that crate's MIR: the crate's name and the static's
    /// path as that crate prints it.
    StaticRef { krate: String, path: String },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Rvalue {
    Use(Operand),
    Repeat(Operand, String),
    Ref { mutable: bool, place: Place },
    RawPtr { mutable: bool, place: Place },
    Cast { kind: String, operand: Operand, ty: Ty },
    Binary { op: String, lhs: Operand, rhs: Operand },
    Unary { op: String, operand: Operand },
    Nullary { op: String, ty: Ty },
    Discriminant(Place),
    CopyForDeref(Place),
    Aggregate { kind: AggregateKind, fields: Vec<Operand> },
}

#[derive(Clone, Debug, PartialEq)]
pub enum AggregateKind {
    Tuple,
    Array,
    /// `Path::Variant(..)` or `Path { .. }`; the ADT is the destination's type.
    Adt(Path),
    Closure(String),
    /// `*const T from (ptr, meta)`.
    RawPtr(Ty),
}

#[derive(Clone, Debug, PartialEq)]
pub enum StatementKind {
    Assign(Place, Rvalue),
    SetDiscriminant(Place, u32),
    Assume(Operand),
    CopyNonOverlapping { src: Operand, dst: Operand, count: Operand },
    /// StorageLive/StorageDead/Nop/PlaceMention/...: nothing to export.
    Ignored,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    Path(Path),
    /// A call through a local (a function pointer or closure value).
    Operand(Operand),
}

#[derive(Clone, Debug, PartialEq)]
pub enum TerminatorKind {
    Goto(u32),
    SwitchInt { discr: Operand, targets: Vec<(u128, u32)>, otherwise: u32 },
    Return,
    Unreachable,
    UnwindResume,
    UnwindTerminate,
    Call { dest: Place, callee: Callee, args: Vec<Operand>, target: Option<u32> },
    Assert { cond: Operand, expected: bool, msg: String, msg_args: Vec<Operand>, target: u32 },
    Drop { place: Place, target: u32 },
    /// `asm!(..)`: refused by the exporter (its operands are not kept).
    InlineAsm { target: Option<u32> },
}

/// A statement or terminator with the `// scope N at span` of its line.
#[derive(Clone, Debug, PartialEq)]
pub struct Located<T> {
    pub kind: T,
    pub scope: u32,
    pub span: Option<SrcSpan>,
    /// `(ty, val)` texts of the `// + const_: Const { ty: T, val: V }`
    /// comment lines that follow the line.
    pub const_comments: Vec<(String, String)>,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub statements: Vec<Located<StatementKind>>,
    pub terminator: Located<TerminatorKind>,
    pub cleanup: bool,
    /// The places of the statements the parser drops (`StorageLive`, ...):
    /// (how many kept statements precede it, scope, span). Only for
    /// diagnostics: the user's line before code a library macro expanded.
    pub marks: Vec<(usize, u32, SrcSpan)>,
}

#[derive(Clone, Debug)]
pub struct LocalDecl {
    pub ty: Ty,
    pub mutable: bool,
    /// The scope the declaration is in (for span resolution).
    pub scope: u32,
    pub span: Option<SrcSpan>,
}

/// A scope of the body: its parent, and for scopes created by the inliner,
/// the inlined function and the span of its call site.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub parent: Option<u32>,
    pub inlined: Option<(String, Option<SrcSpan>)>,
}

/// What kind of item a body belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    Fn,
    Const,
    Static,
    /// `static mut`.
    StaticMut,
    Promoted,
}

#[derive(Clone, Debug)]
pub struct Body {
    pub kind: BodyKind,
    /// The item's path as printed: `vecadd`, `<impl at …>::get`, `LUT`,
    /// `stress::promoted[0]`.
    pub name: String,
    pub path: Path,
    pub arg_count: u32,
    pub ret_ty: Ty,
    /// Indexed by local number; `None` for numbers not declared.
    pub locals: Vec<Option<LocalDecl>>,
    /// `debug name => _N;` pairs (only plain locals).
    pub debug_names: Vec<(String, u32)>,
    pub scopes: Vec<Scope>,
    pub blocks: Vec<Block>,
}

/// `allocN (static: NAME, size: S, align: A) { hex rows }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Alloc {
    pub id: u32,
    pub static_name: Option<String>,
    pub size: u64,
    pub align: u64,
    /// `None` for uninitialized bytes.
    pub bytes: Vec<Option<u8>>,
    /// (offset, target alloc) of each pointer in the data.
    pub relocs: Vec<(u64, u32)>,
    /// `allocN (vtable: impl Shape + Sync for Sq)`: a vtable rustc's const
    /// evaluation made (no bytes printed).
    pub vtable: Option<String>,
}

/// A one-line item, `const PATH: T = const VALUE;` (enum discriminants,
/// array lengths, simple constants such as the kernel markers).
#[derive(Clone, Debug)]
pub struct ConstItem {
    pub name: String,
    pub ty: Ty,
    pub value: Const,
}

/// Everything in one `.mir` file.
#[derive(Clone, Debug, Default)]
pub struct MirFile {
    pub bodies: Vec<Body>,
    pub consts: Vec<ConstItem>,
    pub allocs: Vec<Alloc>,
}
