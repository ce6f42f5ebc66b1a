//! Recursive-descent parser for the expressions of one MIR line: types,
//! paths, places, operands, constants, rvalues, statements, terminators.
//!
//! The grammar is rustc's `Debug`/`Display` output for MIR
//! (`rustc_middle/src/mir/pretty.rs` and `ty/print/pretty.rs`), e.g.
//!
//! ```text
//! place    := local | '(' '*' place ')' | '(' place '.' N ':' ty ')'
//!           | '(' place 'as' Variant ')' | place '[' local ']'
//!           | place '[' N 'of' N ']' | place '[' N ':' N ']'
//! operand  := 'copy' place | 'move' place | 'const' const
//! rvalue   := operand | Op '(' operand, operand ')' | operand 'as' ty '(' Kind ')'
//!           | '&' ['mut'] place | '&raw' ('const'|'mut') place | ...
//! ```

use super::ast::*;
use super::lexer::{lex_line, Line, Tok};
use crate::rustc_compat;

pub type PResult<T> = Result<T, String>;

pub struct Parser<'a> {
    line: &'a Line,
    toks: &'a [Tok],
    pos: usize,
}

impl<'a> Parser<'a> {
    pub fn new(line: &'a Line) -> Self {
        Parser { line, toks: &line.toks, pos: 0 }
    }

    /// A parser positioned after the first `skip` tokens.
    pub fn skipping(line: &'a Line, skip: usize) -> Self {
        Parser { line, toks: &line.toks, pos: skip }
    }

    // ---- token helpers -------------------------------------------------

    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, n: usize) -> Option<&'a Tok> {
        self.toks.get(self.pos + n)
    }

    fn next(&mut self) -> PResult<&'a Tok> {
        let t = self.toks.get(self.pos).ok_or("unexpected end of line")?;
        self.pos += 1;
        Ok(t)
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    fn is_ident(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(q)) if q == w)
    }

    pub fn eat_punct(&mut self, p: &str) -> bool {
        let yes = self.is_punct(p);
        self.pos += yes as usize;
        yes
    }

    pub fn eat_ident(&mut self, w: &str) -> bool {
        let yes = self.is_ident(w);
        self.pos += yes as usize;
        yes
    }

    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat_punct(p) {
            return Ok(());
        }
        Err(format!("expected `{p}`, found {}", self.found()))
    }

    fn expect_ident(&mut self, w: &str) -> PResult<()> {
        if self.eat_ident(w) {
            return Ok(());
        }
        Err(format!("expected `{w}`, found {}", self.found()))
    }

    fn ident(&mut self) -> PResult<String> {
        match self.next()? {
            Tok::Ident(s) => Ok(s.clone()),
            t => Err(format!("expected a name, found `{t}`")),
        }
    }

    fn local(&mut self) -> PResult<u32> {
        match self.next()? {
            Tok::Local(n) => Ok(*n),
            t => Err(format!("expected a local, found `{t}`")),
        }
    }

    fn number(&mut self) -> PResult<String> {
        match self.next()? {
            Tok::Num(s) => Ok(s.clone()),
            t => Err(format!("expected a number, found `{t}`")),
        }
    }

    fn u64(&mut self) -> PResult<u64> {
        let n = self.number()?;
        n.parse().map_err(|_| format!("bad number `{n}`"))
    }

    fn found(&self) -> String {
        self.peek().map_or("end of line".into(), |t| format!("`{t}`"))
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    pub fn expect_end(&self) -> PResult<()> {
        if self.at_end() {
            return Ok(());
        }
        Err(format!("unexpected {} after the end of the construct", self.found()))
    }

    /// Parses `item (',' item)* [',']` up to the closing `close`.
    fn list<T>(&mut self, close: &str, mut item: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        let mut out = Vec::new();
        while !self.eat_punct(close) {
            out.push(item(self)?);
            if !self.eat_punct(",") {
                self.expect_punct(close)?;
                break;
            }
        }
        Ok(out)
    }

    // ---- types and paths -----------------------------------------------

    pub fn ty(&mut self) -> PResult<Ty> {
        let t = self.next()?;
        match t {
            Tok::Punct("&") => {
                self.skip_lifetime();
                let mutable = self.eat_ident("mut");
                Ok(Ty::Ref { mutable, pointee: Box::new(self.ty()?) })
            }
            Tok::Punct("*") => {
                let mutable = match self.ident()?.as_str() {
                    "mut" => true,
                    "const" => false,
                    w => return Err(format!("expected `const` or `mut` after `*`, found `{w}`")),
                };
                Ok(Ty::Ptr { mutable, pointee: Box::new(self.ty()?) })
            }
            Tok::Punct("!") => Ok(Ty::Never),
            Tok::Punct("(") => self.tuple_ty(),
            Tok::Punct("[") => self.array_ty(),
            Tok::Closure(s) => Ok(Ty::Closure(s.clone())),
            // `for<'a> fn(&'a u8)`: a higher-ranked fn pointer type.
            Tok::Ident(w) if matches!(w.as_str(), "fn" | "unsafe" | "extern" | "for") => {
                self.pos -= 1;
                self.fn_ty()
            }
            Tok::Ident(w) if w == "dyn" => self.dyn_ty(),
            // `impl FnMut() -> u32`: an argument-position impl Trait of a
            // generic body, a type parameter named by its text (mono.rs
            // replaces it by the instance's type argument)
            Tok::Ident(w) if w == "impl" => {
                let Ty::Dyn(text) = self.dyn_ty()? else { unreachable!("dyn_ty makes a Dyn") };
                Ok(Ty::Adt(Path { qself: None, segments: vec![Segment { name: text, args: Vec::new(), turbofish: false }] }))
            }
            Tok::Ident(_) | Tok::Punct("<") | Tok::ImplAt(_) => {
                self.pos -= 1;
                self.path_ty()
            }
            t => Err(format!("expected a type, found `{t}`")),
        }
    }

    fn skip_lifetime(&mut self) {
        if self.is_punct("'") {
            self.pos += 2;
        }
    }

    fn tuple_ty(&mut self) -> PResult<Ty> {
        Ok(Ty::Tuple(self.list(")", Self::ty)?))
    }

    fn array_ty(&mut self) -> PResult<Ty> {
        let elem = Box::new(self.ty()?);
        if self.eat_punct("]") {
            return Ok(Ty::Slice(elem));
        }
        self.expect_punct(";")?;
        let len = self.const_arg_text("]")?;
        self.expect_punct("]")?;
        Ok(Ty::Array(elem, strip_int_suffix(&len)))
    }

    /// `[for<..>] [unsafe] [extern "C"] fn(A, B) -> R [{path}]`.
    fn fn_ty(&mut self) -> PResult<Ty> {
        let start = self.pos;
        while !self.eat_ident("fn") {
            self.next()?;
        }
        self.expect_punct("(")?;
        self.list(")", Self::ty)?;
        if self.eat_punct("->") {
            self.ty()?;
        }
        let sig = self.text_since(start);
        // `{path}` names a fn item; a `{` that ends the line opens the
        // body of a function returning a fn pointer
        if self.is_punct("{") && self.peek_at(1).is_some() {
            self.pos += 1;
            let path = self.path(true)?;
            self.expect_punct("}")?;
            return Ok(Ty::FnDef { sig, path });
        }
        // `{core::iter::..::compare::<&u64, u64>}`: the lexer reads a
        // braced path of a crate (`{word::`) as one segment token
        if let Some(Tok::Segment(text)) = self.toks.get(self.pos) {
            let inner = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')).filter(|t| {
                let w = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(t.len());
                w > 0 && t[w..].starts_with("::")
            });
            if let Some(inner) = inner {
                let path = parse_str(inner, |p| p.path(true))?;
                self.pos += 1;
                return Ok(Ty::FnDef { sig, path });
            }
        }
        Ok(Ty::FnPtr(sig))
    }

    fn dyn_ty(&mut self) -> PResult<Ty> {
        let start = self.pos - 1;
        self.bound()?;
        while self.eat_punct("+") {
            if self.is_punct("'") {
                self.skip_lifetime();
            } else {
                self.bound()?;
            }
        }
        Ok(Ty::Dyn(self.text_since(start)))
    }

    /// A trait bound: a path, and for the `Fn*` traits `(A, B) -> R` (a
    /// `(` after another trait is not the bound's: `&dyn T (Unsize)`).
    fn bound(&mut self) -> PResult<()> {
        let p = self.path(false)?;
        if matches!(p.last_name(), "Fn" | "FnMut" | "FnOnce") && self.eat_punct("(") {
            self.list(")", Self::ty)?;
            if self.eat_punct("->") {
                self.ty()?;
            }
        }
        Ok(())
    }

    /// The source text of the tokens from `start` to the current one.
    fn text_since(&self, start: usize) -> String {
        if start >= self.pos {
            return String::new();
        }
        let (from, to) = (self.line.spans[start].0, self.line.spans[self.pos - 1].1);
        self.line.src[from..to].to_string()
    }

    fn path_ty(&mut self) -> PResult<Ty> {
        let path = self.path(false)?;
        if path.qself.is_none() && path.segments.len() == 1 && path.segments[0].args.is_empty() {
            let name = &path.segments[0].name;
            if let Some(t) = Ty::primitive(name) {
                return Ok(t);
            }
            // A lone name that is no type of this crate is a generic
            // parameter of a generically printed body; the exporter
            // decides, as it knows the crate's types.
        }
        Ok(Ty::Adt(path))
    }

    /// A path; `value` allows `::<...>` turbofish (values, callees).
    /// Type paths print generic arguments without `::`.
    pub fn path(&mut self, value: bool) -> PResult<Path> {
        let mut path = Path { qself: None, segments: Vec::new() };
        match self.peek() {
            Some(Tok::Punct("<")) => {
                self.pos += 1;
                path.qself = Some(Box::new(self.qself()?));
                self.expect_punct("::")?;
            }
            Some(Tok::ImplAt(s)) => {
                self.pos += 1;
                path.segments.push(Segment { name: s.clone(), args: vec![], turbofish: false });
                self.expect_punct("::")?;
            }
            _ => {}
        }
        loop {
            let seg = match self.peek() {
                // A tuple field in an item path: `Big::Arr::0::{constant#0}`
                // (the length of an array field of a tuple variant).
                Some(Tok::Num(n)) if !path.segments.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                    let name = n.clone();
                    self.pos += 1;
                    Segment { name, args: vec![], turbofish: false }
                }
                _ => self.segment(value)?,
            };
            path.segments.push(seg);
            if !(self.is_punct("::") && self.segment_follows()) {
                return Ok(path);
            }
            self.pos += 1;
        }
    }

    /// After `::`: a name, a `{constant#0}`-like segment or `<impl ...>`.
    fn segment_follows(&self) -> bool {
        matches!(self.peek_at(1), Some(Tok::Ident(_) | Tok::Segment(_) | Tok::ImplAt(_)))
            || (matches!(self.peek_at(1), Some(Tok::Num(n)) if n.bytes().all(|b| b.is_ascii_digit())))
            || (matches!(self.peek_at(1), Some(Tok::Punct("<"))) && matches!(self.peek_at(2), Some(Tok::Ident(w)) if w == "impl"))
    }

    /// At `::<impl ..`: whether an `<impl ..>` segment is read there.
    fn impl_segment_follows(&mut self) -> bool {
        let at = self.pos;
        self.pos += 1;
        let ok = self.segment(false).is_ok();
        self.pos = at;
        ok
    }

    fn segment(&mut self, value: bool) -> PResult<Segment> {
        let name = match self.next()? {
            // `<impl at …>` also inside a path: an impl in a function body
            // (`kernel::<impl at src/lib.rs:5:10: 5:15>::clone`).
            Tok::Ident(s) | Tok::Segment(s) | Tok::ImplAt(s) => s.clone(),
            // `<impl f32>` (an inherent impl), `<impl Default for
            // GenericArray<T, N>>` (a trait impl, in a closure's parent)
            Tok::Punct("<") if self.eat_ident("impl") => {
                let ty = self.ty()?;
                let name = match self.eat_ident("for") {
                    true => format!("<impl {ty} for {}>", self.ty()?),
                    false => format!("<impl {ty}>"),
                };
                self.expect_punct(">")?;
                name
            }
            t => return Err(format!("expected a path segment, found `{t}`")),
        };
        let mut seg = Segment { name, args: Vec::new(), turbofish: false };
        // `f::<impl at ..>` or `T::<impl Default for T>::m` is a segment;
        // `Pipeline::<impl Fn(u32) -> u32, u8> { .. }` (an opaque type
        // argument) a turbofish: the segment reading tells them apart
        let impl_follows = self.is_punct("::") && matches!(self.peek_at(2), Some(Tok::Ident(w)) if w == "impl") && self.impl_segment_follows();
        if value && self.is_punct("::") && matches!(self.peek_at(1), Some(Tok::Punct("<"))) && !impl_follows {
            self.pos += 2;
            seg.turbofish = true;
            seg.args = self.generic_args()?;
        } else if !value && self.eat_punct("<") {
            seg.args = self.generic_args()?;
        }
        // `path::promoted[0]`
        if seg.name == "promoted" && self.eat_punct("[") {
            let n = self.number()?;
            self.expect_punct("]")?;
            seg.name = format!("promoted[{n}]");
        }
        Ok(seg)
    }

    /// After `<`: `'_, T, 3_usize, {N}` up to `>`.
    fn generic_args(&mut self) -> PResult<Vec<GenericArg>> {
        self.list(">", |p| {
            if p.is_punct("'") {
                p.skip_lifetime();
                return Ok(GenericArg::Lifetime);
            }
            if matches!(p.peek(), Some(Tok::Num(_) | Tok::Punct("{") | Tok::Punct("-"))) || p.is_ident("true") || p.is_ident("false") {
                return Ok(GenericArg::Const(p.const_arg_text(">")?));
            }
            Ok(GenericArg::Type(p.ty()?))
        })
    }

    /// The raw text of a const generic argument or array length, up to
    /// `,` or `close` at depth 0.
    fn const_arg_text(&mut self, close: &str) -> PResult<String> {
        let start = self.pos;
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match t {
                Tok::Punct("{" | "(" | "[") => depth += 1,
                Tok::Punct("}" | ")" | "]") if depth > 0 => depth -= 1,
                Tok::Punct(p) if depth == 0 && (*p == close || *p == ",") => break,
                _ => {}
            }
            self.pos += 1;
        }
        if start == self.pos {
            return Err(format!("expected a constant, found {}", self.found()));
        }
        Ok(self.text_since(start))
    }

    fn qself(&mut self) -> PResult<QSelf> {
        let self_ty = Box::new(self.ty()?);
        let trait_ = if self.eat_ident("as") { Some(self.path(false)?) } else { None };
        self.expect_punct(">")?;
        Ok(QSelf { self_ty, trait_ })
    }

    // ---- places and operands -------------------------------------------

    pub fn place(&mut self) -> PResult<Place> {
        let mut place = self.place_base()?;
        // Index-like projections are postfix: `(*_1)[_4]`, `_7[2 of 3]`.
        while self.eat_punct("[") {
            place.proj.push(self.index_proj()?);
        }
        Ok(place)
    }

    fn place_base(&mut self) -> PResult<Place> {
        if !self.eat_punct("(") {
            return Ok(Place { local: self.local()?, proj: Vec::new() });
        }
        if self.eat_punct("*") {
            let mut p = self.place()?;
            p.proj.push(Proj::Deref);
            self.expect_punct(")")?;
            return Ok(p);
        }
        let mut p = self.place()?;
        if self.eat_ident("as") {
            p.proj.push(Proj::Downcast(self.ident()?));
        } else {
            self.expect_punct(".")?;
            let field = self.u64()? as u32;
            self.expect_punct(":")?;
            p.proj.push(Proj::Field(field, self.ty()?));
        }
        self.expect_punct(")")?;
        Ok(p)
    }

    /// After `[`: `_4]`, `2 of 3]`, `-1 of 2]`, `1:3]`, `1:-1]`, and as
    /// rustc prints subslices: `2:]`, `:-1]` (from the end), `1..3]`
    /// (of an array).
    fn index_proj(&mut self) -> PResult<Proj> {
        if let Some(Tok::Local(n)) = self.peek() {
            self.pos += 1;
            self.expect_punct("]")?;
            return Ok(Proj::Index(*n));
        }
        if self.eat_punct(":") {
            self.expect_punct("-")?;
            let to = self.u64()?;
            self.expect_punct("]")?;
            return Ok(Proj::Subslice { from: 0, to, from_end: true });
        }
        let from_end = self.eat_punct("-");
        let a = self.u64()?;
        let proj = if self.eat_ident("of") {
            Proj::ConstIndex { offset: a, min_length: self.u64()?, from_end }
        } else if self.eat_punct("..") {
            Proj::Subslice { from: a, to: self.u64()?, from_end: false }
        } else {
            self.expect_punct(":")?;
            if self.is_punct("]") {
                Proj::Subslice { from: a, to: 0, from_end: true }
            } else {
                let to_from_end = self.eat_punct("-");
                Proj::Subslice { from: a, to: self.u64()?, from_end: to_from_end }
            }
        };
        self.expect_punct("]")?;
        Ok(proj)
    }

    pub fn operand(&mut self) -> PResult<Operand> {
        // a trait's fn item passed bare prints as a qualified path
        // (`call_once(<Iter<'_, u64> as Iterator>::next, move _145)`, core's
        // Chain::next through 1.96's MIR of core)
        if self.is_punct("<") {
            return self.bare_fn_item();
        }
        match self.ident()?.as_str() {
            "copy" => Ok(Operand::Copy(self.place()?)),
            "move" => Ok(Operand::Move(self.place()?)),
            "const" => Ok(Operand::Const(self.constant()?)),
            // `switchInt(UbChecks)` (an `Operand::RuntimeChecks` of core's
            // generic bodies, 1.96): whether the crate that generates code
            // checks UB preconditions, contracts, overflow. The kernel
            // crate is compiled with -Cdebug-assertions=off
            // -Coverflow-checks=off (driver.rs MIR_FLAGS), where rustc
            // makes each `false`; so is it here.
            w @ ("UbChecks" | "ContractChecks" | "OverflowChecks") if !self.is_punct("(") => {
                Ok(Operand::Const(Const { val: ConstVal::Bool(false), ty: Some(Ty::Bool), text: w.to_string() }))
            }
            // a fn item passed as an argument prints bare, like in a cast
            // (`f(move _7, add)`); its type comes from the `const_:` comment
            w if self.is_punct(",") || self.is_punct(")") || self.is_punct("::") => {
                let _ = w;
                self.pos -= 1;
                self.bare_fn_item()
            }
            w => Err(format!("expected `copy`, `move` or `const`, found `{w}`")),
        }
    }

    /// A fn item operand printed bare, its path at the cursor.
    fn bare_fn_item(&mut self) -> PResult<Operand> {
        let start = self.pos;
        let path = self.path(true)?;
        let text = self.text_since(start);
        Ok(Operand::Const(Const { val: ConstVal::Path { path, fields: Vec::new() }, ty: None, text }))
    }

    fn is_operand_start(&self) -> bool {
        matches!(self.peek(), Some(Tok::Ident(w)) if matches!(w.as_str(), "copy" | "move" | "const"))
    }

    // ---- constants -----------------------------------------------------

    /// After `const`.
    pub fn constant(&mut self) -> PResult<Const> {
        let start = self.pos;
        let (val, ty) = self.const_val()?;
        // A value of a pattern type (`3_usize is 1..`, inside
        // `NonZero::<usize>(..)`): the pattern restricts the type's valid
        // range, which the layout already says; the value is the literal.
        if matches!(self.peek(), Some(Tok::Ident(w)) if w == "is") {
            self.pos += 1;
            let mut depth = 0usize;
            while let Some(t) = self.peek() {
                match t {
                    Tok::Punct("(" | "[" | "{") => depth += 1,
                    Tok::Punct(")" | "]" | "}" | "," | ";") if depth == 0 => break,
                    Tok::Punct(")" | "]" | "}") => depth -= 1,
                    _ => {}
                }
                self.pos += 1;
            }
        }
        Ok(Const { val, ty, text: self.text_since(start) })
    }

    fn const_val(&mut self) -> PResult<(ConstVal, Option<Ty>)> {
        let t = self.next()?;
        match t {
            Tok::Num(n) => Ok(number_const(false, n)),
            Tok::Punct(s @ ("-" | "+")) => match self.next()? {
                Tok::Num(n) => Ok(number_const(*s == "-", n)),
                Tok::Ident(w) => Ok(float_word(&format!("{s}{w}"))?),
                t => Err(format!("expected a number after `{s}`, found `{t}`")),
            },
            Tok::Str { text, byte: false } => Ok((ConstVal::Str(text.clone()), Some(ref_to(Ty::Str)))),
            Tok::Str { text, byte: true } => Ok((ConstVal::ByteStr(text.clone()), None)),
            Tok::Char(c) => Ok((ConstVal::Char(*c), Some(Ty::Char))),
            Tok::Punct("{") => self.braced_const(),
            Tok::Punct("(") => {
                let items = self.list(")", Self::constant)?;
                let ty = items.is_empty().then(Ty::unit);
                Ok((ConstVal::Tuple(items), ty))
            }
            Tok::Punct("[") => Ok((ConstVal::Array(self.list("]", Self::constant)?), None)),
            Tok::Punct("&") => Ok((ConstVal::Ref(Box::new(self.constant()?)), None)),
            Tok::Ident(w) if w == "true" || w == "false" => Ok((ConstVal::Bool(w == "true"), Some(Ty::Bool))),
            Tok::Ident(w) if w.starts_with("NaN_") || w.starts_with("Inf_") => float_word(w),
            Tok::Ident(w) if w == "ZeroSized" && matches!(self.peek(), Some(Tok::Punct(":"))) => {
                self.pos += 1;
                Ok((ConstVal::ZeroSized, Some(self.ty()?)))
            }
            Tok::Punct("<") if matches!(self.peek(), Some(Tok::Ident(w)) if w == "uninit")
                && matches!(self.peek_at(1), Some(Tok::Punct(">"))) =>
            {
                self.pos += 2;
                Ok((ConstVal::Uninit, None))
            }
            Tok::Punct("<") if matches!(self.peek(), Some(Tok::Ident(w)) if w == "static")
                && matches!(self.peek_at(1), Some(Tok::Punct("("))) =>
            {
                self.static_ref()
            }
            // `const Indirect { alloc_id: alloc901033, offset: Size(0 bytes) }: T`
            // (core's generic bodies): a constant of a generic type, its
            // bytes in an allocation
            Tok::Ident(w) if w == "Indirect" && self.is_punct("{") && matches!(self.peek_at(1), Some(Tok::Ident(f)) if f == "alloc_id") => {
                self.indirect_const()
            }
            Tok::Ident(_) | Tok::Punct("<") | Tok::ImplAt(_) => {
                self.pos -= 1;
                self.path_const()
            }
            t => Err(format!("unsupported constant starting with `{t}`")),
        }
    }

    /// After `<`: `static(DefId(1:52840 ~ core[c1f1]::unicode::X))>`.
    fn static_ref(&mut self) -> PResult<(ConstVal, Option<Ty>)> {
        self.pos += 2;
        self.expect_ident("DefId")?;
        self.expect_punct("(")?;
        while !matches!(self.peek(), Some(Tok::Punct("~")) | None) {
            self.pos += 1;
        }
        self.expect_punct("~")?;
        let start = self.pos;
        while !matches!(self.peek(), Some(Tok::Punct(")")) | None) {
            self.pos += 1;
        }
        let def = self.text_since(start);
        self.expect_punct(")")?;
        self.expect_punct(")")?;
        self.expect_punct(">")?;
        let bad = || format!("unsupported static reference `{def}`");
        let (krate, path) = def.split_once("::").ok_or_else(bad)?;
        let krate = krate.split('[').next().unwrap_or(krate).trim();
        if krate.is_empty() || path.is_empty() {
            return Err(bad());
        }
        Ok((ConstVal::StaticRef { krate: krate.to_string(), path: path.trim().to_string() }, None))
    }

    /// After `Indirect`: `{ alloc_id: alloc901033, offset: Size(0 bytes) }: T`.
    fn indirect_const(&mut self) -> PResult<(ConstVal, Option<Ty>)> {
        self.expect_punct("{")?;
        self.expect_ident("alloc_id")?;
        self.expect_punct(":")?;
        let head = self.ident()?;
        let id = head.strip_prefix("alloc").and_then(|n| n.parse().ok()).ok_or_else(|| format!("expected an allocation, found `{head}`"))?;
        self.expect_punct(",")?;
        self.expect_ident("offset")?;
        self.expect_punct(":")?;
        self.expect_ident("Size")?;
        self.expect_punct("(")?;
        let offset = parse_u64(&self.number()?)?;
        self.expect_ident("bytes")?;
        self.expect_punct(")")?;
        self.expect_punct("}")?;
        self.expect_punct(":")?;
        Ok((ConstVal::Indirect { id, offset }, Some(self.ty()?)))
    }

    /// `{allocN: &T}`, `{allocN+0x8: &T}`, `{transmute(0x…): T}`,
    /// `{0x0 as *const u64}` (a raw pointer made from an integer).
    fn braced_const(&mut self) -> PResult<(ConstVal, Option<Ty>)> {
        if let Some(Tok::Num(n)) = self.peek() {
            let (val, _) = number_const(false, n);
            self.pos += 1;
            self.expect_ident("as")?;
            let ty = self.ty()?;
            self.expect_punct("}")?;
            return Ok((val, Some(ty)));
        }
        let head = self.ident()?;
        let val = if let Some(id) = head.strip_prefix("alloc").and_then(|n| n.parse().ok()) {
            let mut offset = 0;
            if self.eat_punct("<") {
                self.ident()?; // <imm>
                self.expect_punct(">")?;
            }
            if self.eat_punct("+") {
                offset = parse_u64(&self.number()?)?;
            }
            ConstVal::Alloc { id, offset }
        } else if head == "transmute" {
            self.expect_punct("(")?;
            let hex = self.number()?;
            self.expect_punct(")")?;
            ConstVal::Transmute(hex)
        } else {
            return Err(format!("unsupported constant `{{{head}...}}`"));
        };
        self.expect_punct(":")?;
        let ty = self.ty()?;
        self.expect_punct("}")?;
        Ok((val, Some(ty)))
    }

    /// `i32::MAX`, `Mode::A`, `Option::<u8>::Some(1_u8)`, `S { a: 1_u32 }`,
    /// `LUT`, `f::promoted[0]`, `helper`.
    fn path_const(&mut self) -> PResult<(ConstVal, Option<Ty>)> {
        let path = self.path(true)?;
        if let [ty_seg, m] = path.segments.as_slice() {
            let prim = Ty::primitive(&ty_seg.name).filter(|t| matches!(t, Ty::Int { .. }));
            if let (Some(ty), "MAX" | "MIN") = (prim, m.name.as_str()) {
                return Ok((ConstVal::Int { negative: false, text: m.name.clone() }, Some(ty)));
            }
        }
        let mut fields = Vec::new();
        // an inline `const { .. }` of a generic body (`partition::<T,
        // F>::{constant#0}`) has no fields: a `(` after it is a call's
        // arguments (`_1 = const P::{constant#0}(move _2) -> ..`)
        if path.last_name().starts_with("{constant#") {
            return Ok((ConstVal::Path { path, fields }, None));
        }
        if self.eat_punct("(") {
            fields = self.list(")", |p| Ok((None, p.constant()?)))?;
        } else if self.is_punct("{") && matches!(self.peek_at(2), Some(Tok::Punct(":"))) {
            self.pos += 1;
            fields = self.list("}", |p| {
                let name = p.field_name()?;
                p.expect_punct(":")?;
                Ok((Some(name), p.constant()?))
            })?;
        } else if self.is_punct("{")
            && matches!(self.peek_at(1), Some(Tok::Punct("{")))
            && matches!(self.peek_at(3), Some(Tok::Punct(":")))
        {
            // Struct constants nested in an rvalue print their braces
            // doubled: `IndexRange {{ start: 0_usize, end: 2_usize }}`.
            self.pos += 2;
            fields = self.list("}", |p| {
                let name = p.field_name()?;
                p.expect_punct(":")?;
                Ok((Some(name), p.constant()?))
            })?;
            self.expect_punct("}")?;
        }
        Ok((ConstVal::Path { path, fields }, None))
    }

    fn field_name(&mut self) -> PResult<String> {
        match self.next()? {
            Tok::Ident(s) | Tok::Num(s) => Ok(s.clone()),
            t => Err(format!("expected a field name, found `{t}`")),
        }
    }

    // ---- rvalues -------------------------------------------------------

    pub fn rvalue(&mut self) -> PResult<Rvalue> {
        // `no_retag copy _3` (rustc_compat::USE_QUALIFIERS): a plain use
        if let Some(Tok::Ident(q)) = self.peek().filter(|t| matches!(t, Tok::Ident(q) if rustc_compat::USE_QUALIFIERS.contains(&q.as_str()))) {
            self.pos += 1;
            if !self.is_operand_start() {
                return Err(format!("expected an operand after `{q}`"));
            }
            return Ok(Rvalue::Use(self.operand()?));
        }
        let start = self.pos;
        let rv = self.rvalue_head()?;
        if let Rvalue::Use(op) = rv {
            if self.eat_ident("as") {
                return self.cast_tail(op);
            }
            return Ok(Rvalue::Use(op));
        }
        // A function item cast without `const`:
        // `<usize as core::fmt::Display>::fmt as for<'a> fn(..) (PointerCoercion(..))`.
        if let Rvalue::Aggregate { kind: AggregateKind::Adt(path), fields } = &rv {
            if fields.is_empty() && self.is_ident("as") {
                let c = Const { val: ConstVal::Path { path: path.clone(), fields: Vec::new() }, ty: None, text: self.text_since(start) };
                self.pos += 1;
                return self.cast_tail(Operand::Const(c));
            }
        }
        Ok(rv)
    }

    fn cast_tail(&mut self, operand: Operand) -> PResult<Rvalue> {
        let ty = self.ty()?;
        self.expect_punct("(")?;
        let start = self.pos;
        let mut depth = 1;
        while depth > 0 {
            match self.next()? {
                Tok::Punct("(") => depth += 1,
                Tok::Punct(")") => depth -= 1,
                _ => {}
            }
        }
        self.pos -= 1;
        let kind = self.text_since(start).replace(' ', "");
        self.pos += 1;
        Ok(Rvalue::Cast { kind, operand, ty })
    }

    fn rvalue_head(&mut self) -> PResult<Rvalue> {
        if self.is_operand_start() {
            return Ok(Rvalue::Use(self.operand()?));
        }
        match self.peek() {
            Some(Tok::Punct("&")) => return self.ref_rvalue(),
            Some(Tok::Punct("[")) => return self.array_rvalue(),
            Some(Tok::Punct("(")) => {
                self.pos += 1;
                let fields = self.list(")", Self::operand)?;
                return Ok(Rvalue::Aggregate { kind: AggregateKind::Tuple, fields });
            }
            Some(Tok::Punct("*")) => return self.raw_ptr_aggregate(),
            Some(Tok::Closure(c)) => {
                self.pos += 1;
                let fields = self.braced_fields()?;
                return Ok(Rvalue::Aggregate { kind: AggregateKind::Closure(c.clone()), fields });
            }
            _ => {}
        }
        if let Some(Tok::Ident(w)) = self.peek() {
            if matches!(self.peek_at(1), Some(Tok::Punct("("))) {
                if let Some(rv) = self.builtin_rvalue(w)? {
                    return Ok(rv);
                }
            }
            if w == "deref_copy" {
                self.pos += 1;
                return Ok(Rvalue::CopyForDeref(self.place()?));
            }
        }
        self.adt_aggregate()
    }

    fn ref_rvalue(&mut self) -> PResult<Rvalue> {
        self.expect_punct("&")?;
        if self.eat_ident("raw") {
            let mutable = match self.ident()?.as_str() {
                "mut" => true,
                "const" => false,
                w => return Err(format!("expected `const` or `mut`, found `{w}`")),
            };
            // `&raw const (fake) (*_1)` (RawPtrKind::FakeForPtrMetadata,
            // core's `slice.len()` through `ptr::metadata`): a raw
            // pointer made only to read its metadata; codegen makes it as
            // any `&raw const`, and so does oxidec.
            if !mutable && matches!(self.peek(), Some(Tok::Punct("("))) && matches!(self.peek_at(1), Some(Tok::Ident(w)) if w == "fake")
                && matches!(self.peek_at(2), Some(Tok::Punct(")")))
            {
                self.pos += 3;
            }
            return Ok(Rvalue::RawPtr { mutable, place: self.place()? });
        }
        if self.eat_ident("fake") {
            return Err("fake borrows are not expected in optimized MIR".into());
        }
        let mutable = self.eat_ident("mut");
        Ok(Rvalue::Ref { mutable, place: self.place()? })
    }

    /// `[a, b]` (array aggregate) or `[a; N]` (repeat).
    fn array_rvalue(&mut self) -> PResult<Rvalue> {
        self.expect_punct("[")?;
        if self.eat_punct("]") {
            return Ok(Rvalue::Aggregate { kind: AggregateKind::Array, fields: vec![] });
        }
        let first = self.operand()?;
        if self.eat_punct(";") {
            let n = self.const_arg_text("]")?;
            self.expect_punct("]")?;
            return Ok(Rvalue::Repeat(first, strip_int_suffix(&n)));
        }
        let mut fields = vec![first];
        if self.eat_punct(",") {
            fields.extend(self.list("]", Self::operand)?);
        } else {
            self.expect_punct("]")?;
        }
        Ok(Rvalue::Aggregate { kind: AggregateKind::Array, fields })
    }

    /// `*const [f32] from (copy _33, const 2_usize)`.
    fn raw_ptr_aggregate(&mut self) -> PResult<Rvalue> {
        let ty = self.ty()?;
        self.expect_ident("from")?;
        self.expect_punct("(")?;
        let fields = self.list(")", Self::operand)?;
        Ok(Rvalue::Aggregate { kind: AggregateKind::RawPtr(ty), fields })
    }

    /// `Op(args)` rvalues: binary/unary operators, `discriminant(p)`,
    /// `SizeOf(T)`. `None` when `name` is none of them (an ADT path).
    fn builtin_rvalue(&mut self, name: &str) -> PResult<Option<Rvalue>> {
        let name = name.to_string();
        let kind = if BINARY_OPS.contains(&name.as_str()) {
            1
        } else if UNARY_OPS.contains(&name.as_str()) {
            2
        } else if NULLARY_OPS.contains(&name.as_str()) {
            3
        } else if name == "discriminant" || name == "Len" {
            4
        } else {
            return Ok(None);
        };
        self.pos += 2;
        let rv = match kind {
            1 => {
                let lhs = self.operand()?;
                self.expect_punct(",")?;
                Rvalue::Binary { op: name, lhs, rhs: self.operand()? }
            }
            2 => Rvalue::Unary { op: name, operand: self.operand()? },
            3 if self.is_punct(")") => Rvalue::Nullary { op: name, ty: Ty::unit() },
            3 => Rvalue::Nullary { op: name, ty: self.ty()? },
            _ if name == "Len" => return Err("`Len` rvalues are not expected in optimized MIR".into()),
            _ => Rvalue::Discriminant(self.place()?),
        };
        self.expect_punct(")")?;
        Ok(Some(rv))
    }

    /// `Path::<T>::Variant(ops)`, `Path::<T> { f: op }`, `Path::<T>::Unit`.
    fn adt_aggregate(&mut self) -> PResult<Rvalue> {
        let path = self.path(true)?;
        let fields = if self.eat_punct("(") {
            self.list(")", Self::operand)?
        } else if self.is_punct("{") {
            self.braced_fields()?
        } else {
            Vec::new()
        };
        Ok(Rvalue::Aggregate { kind: AggregateKind::Adt(path), fields })
    }

    /// `{ name: op, ... }` in declaration order, as rustc prints them.
    fn braced_fields(&mut self) -> PResult<Vec<Operand>> {
        if !self.eat_punct("{") {
            return Ok(Vec::new());
        }
        self.list("}", |p| {
            p.field_name()?;
            p.expect_punct(":")?;
            p.operand()
        })
    }

    // ---- statements and terminators ------------------------------------

    pub fn statement(&mut self) -> PResult<StatementKind> {
        if let Some(Tok::Ident(w)) = self.peek() {
            if let Some(s) = self.keyword_statement(&w.clone())? {
                return Ok(s);
            }
        }
        let place = self.place()?;
        self.expect_punct("=")?;
        let rv = self.rvalue()?;
        self.expect_punct(";")?;
        Ok(StatementKind::Assign(place, rv))
    }

    /// Statements that start with a keyword rather than a place.
    fn keyword_statement(&mut self, w: &str) -> PResult<Option<StatementKind>> {
        const IGNORED: [&str; 6] = ["StorageLive", "StorageDead", "nop", "PlaceMention", "ConstEvalCounter", "Coverage"];
        if IGNORED.contains(&w) {
            return Ok(Some(StatementKind::Ignored));
        }
        if !matches!(w, "discriminant" | "assume" | "copy_nonoverlapping") {
            return Ok(None);
        }
        self.pos += 1;
        self.expect_punct("(")?;
        let s = match w {
            // `discriminant(_1) = 2;`
            "discriminant" => {
                let place = self.place()?;
                self.expect_punct(")")?;
                self.expect_punct("=")?;
                let v = self.u64()? as u32;
                StatementKind::SetDiscriminant(place, v)
            }
            "assume" => {
                let op = self.operand()?;
                self.expect_punct(")")?;
                StatementKind::Assume(op)
            }
            // `copy_nonoverlapping(dst = move _5, src = move _4, count = const 1_usize)`
            _ => {
                let mut ops = Vec::new();
                for name in ["dst", "src", "count"] {
                    self.expect_ident(name)?;
                    self.expect_punct("=")?;
                    ops.push(self.operand()?);
                    self.eat_punct(",");
                }
                self.expect_punct(")")?;
                let (count, src, dst) = (ops.pop().unwrap(), ops.pop().unwrap(), ops.pop().unwrap());
                StatementKind::CopyNonOverlapping { src, dst, count }
            }
        };
        self.expect_punct(";")?;
        Ok(Some(s))
    }

    pub fn terminator(&mut self) -> PResult<TerminatorKind> {
        let t = match self.peek() {
            Some(Tok::Ident(w)) => w.clone(),
            _ => return self.call(),
        };
        let simple = match t.as_str() {
            "return" => Some(TerminatorKind::Return),
            "unreachable" => Some(TerminatorKind::Unreachable),
            "resume" => Some(TerminatorKind::UnwindResume),
            "terminate" | "abort" => Some(TerminatorKind::UnwindTerminate),
            _ => None,
        };
        if let Some(k) = simple {
            return Ok(k);
        }
        match t.as_str() {
            "goto" => {
                self.pos += 1;
                self.expect_punct("->")?;
                Ok(TerminatorKind::Goto(self.block_ref()?))
            }
            "switchInt" => self.switch_int(),
            "assert" => self.assert(),
            "drop" => self.drop_term(),
            "asm" if self.toks.get(self.pos + 1) == Some(&Tok::Punct("!")) => {
                self.pos += 4; // `asm!()`: the lexer dropped the operands
                let target = if self.peek() == Some(&Tok::Punct(";")) { None } else { self.targets("return")? };
                Ok(TerminatorKind::InlineAsm { target })
            }
            _ => self.call(),
        }
    }

    fn block_ref(&mut self) -> PResult<u32> {
        let w = self.ident()?;
        w.strip_prefix("bb").and_then(|n| n.parse().ok()).ok_or(format!("expected a block, found `{w}`"))
    }

    /// `switchInt(op) -> [0: bb9, 1: bb2, otherwise: bb8];`
    fn switch_int(&mut self) -> PResult<TerminatorKind> {
        self.pos += 1;
        self.expect_punct("(")?;
        let discr = self.operand()?;
        self.expect_punct(")")?;
        self.expect_punct("->")?;
        self.expect_punct("[")?;
        let mut targets = Vec::new();
        let mut otherwise = None;
        let arms = self.list("]", |p| {
            if p.eat_ident("otherwise") {
                p.expect_punct(":")?;
                return Ok((None, p.block_ref()?));
            }
            let v = p.number()?;
            p.expect_punct(":")?;
            Ok((Some(v), p.block_ref()?))
        })?;
        for (v, bb) in arms {
            match v {
                Some(v) => targets.push((parse_u128(&v)?, bb)),
                None => otherwise = Some(bb),
            }
        }
        let otherwise = otherwise.ok_or("switchInt without an `otherwise` arm")?;
        Ok(TerminatorKind::SwitchInt { discr, targets, otherwise })
    }

    /// `assert([!]op, "fmt", args...) -> [success: bbN, unwind ...];`
    fn assert(&mut self) -> PResult<TerminatorKind> {
        self.pos += 1;
        self.expect_punct("(")?;
        let expected = !self.eat_punct("!");
        let cond = self.operand()?;
        self.expect_punct(",")?;
        let msg = match self.next()? {
            Tok::Str { text, .. } => String::from_utf8_lossy(text).into_owned(),
            t => return Err(format!("expected the assert message, found `{t}`")),
        };
        let mut msg_args = Vec::new();
        while self.eat_punct(",") {
            msg_args.push(self.operand()?);
        }
        self.expect_punct(")")?;
        let target = self.targets("success")?;
        let target = target.ok_or("assert without a success target")?;
        Ok(TerminatorKind::Assert { cond, expected, msg, msg_args, target })
    }

    fn drop_term(&mut self) -> PResult<TerminatorKind> {
        self.pos += 1;
        self.expect_punct("(")?;
        let place = self.place()?;
        self.expect_punct(")")?;
        let target = self.targets("return")?;
        Ok(TerminatorKind::Drop { place, target: target.ok_or("drop without a return target")? })
    }

    /// `dest = callee(args) -> [return: bbN, unwind ...];` or
    /// `dest = callee(args) -> unwind unreachable;` (diverging).
    fn call(&mut self) -> PResult<TerminatorKind> {
        let dest = self.place()?;
        self.expect_punct("=")?;
        let callee = if self.is_operand_start() {
            Callee::Operand(self.operand()?)
        } else {
            Callee::Path(self.path(true)?)
        };
        self.expect_punct("(")?;
        let args = self.list(")", |p| {
            // Spread arguments of `extern "rust-call"` print as `move _3`.
            p.operand()
        })?;
        let target = self.targets("return")?;
        Ok(TerminatorKind::Call { dest, callee, args, target })
    }

    /// `-> [label: bbN, unwind ...];` or `-> unwind ...;`. The unwind
    /// action is irrelevant with `-Cpanic=abort` and skipped.
    fn targets(&mut self, label: &str) -> PResult<Option<u32>> {
        self.expect_punct("->")?;
        let mut target = None;
        if self.eat_punct("[") && self.eat_ident(label) {
            self.expect_punct(":")?;
            target = Some(self.block_ref()?);
        }
        if self.toks.last() != Some(&Tok::Punct(";")) {
            return Err("expected `;` at the end of the terminator".into());
        }
        self.pos = self.toks.len();
        Ok(target)
    }
}

const BINARY_OPS: [&str; 30] = [
    "Add", "Sub", "Mul", "Div", "Rem", "BitXor", "BitAnd", "BitOr", "Shl", "Shr", "Eq", "Lt", "Le", "Ne", "Ge",
    "Gt", "Cmp", "Offset", "AddUnchecked", "SubUnchecked", "MulUnchecked", "ShlUnchecked", "ShrUnchecked",
    "AddWithOverflow", "SubWithOverflow", "MulWithOverflow", "AddWrapping", "SubWrapping", "MulWrapping",
    "BitAndNot",
];
const UNARY_OPS: [&str; 3] = ["Not", "Neg", "PtrMetadata"];
const NULLARY_OPS: [&str; 5] = ["SizeOf", "AlignOf", "OffsetOf", "UbChecks", "ContractChecks"];

fn ref_to(t: Ty) -> Ty {
    Ty::Ref { mutable: false, pointee: Box::new(t) }
}

/// `3_u32`, `0x10_u8`, `1.5f32`, `0f32`, `2.14748365E+9f32`, `7`.
fn number_const(negative: bool, n: &str) -> (ConstVal, Option<Ty>) {
    for (suffix, ty) in [("f32", Ty::Float(32)), ("f64", Ty::Float(64))] {
        if let Some(mag) = n.strip_suffix(suffix) {
            if !n.starts_with("0x") {
                let sign = if negative { "-" } else { "" };
                return (ConstVal::Float(format!("{sign}{}", mag.trim_end_matches('_'))), Some(ty));
            }
        }
    }
    let (mag, suffix) = match n.rfind('_') {
        Some(i) if Ty::primitive(&n[i + 1..]).is_some() => (&n[..i], &n[i + 1..]),
        _ => (n, ""),
    };
    (ConstVal::Int { negative, text: mag.replace('_', "") }, Ty::primitive(suffix))
}

/// `NaN_f32`, `+Inf_f64`, `-Inf_f32`, and `NaN_0x7ffffffe_f32`: a NaN
/// with its bits, a spelling of mir-export's own (see nanbits.rs).
fn float_word(w: &str) -> PResult<(ConstVal, Option<Ty>)> {
    let (val, suffix) = w.rsplit_once('_').ok_or(format!("bad float constant `{w}`"))?;
    let ty = Ty::primitive(suffix).filter(|t| matches!(t, Ty::Float(_)));
    let ty = ty.ok_or(format!("bad float constant `{w}`"))?;
    Ok((ConstVal::Float(val.to_string()), Some(ty)))
}

fn strip_int_suffix(s: &str) -> String {
    number_const(false, s.trim()).0.int_text().unwrap_or_else(|| s.trim().to_string())
}

impl ConstVal {
    fn int_text(&self) -> Option<String> {
        match self {
            ConstVal::Int { negative: false, text } => Some(text.clone()),
            _ => None,
        }
    }
}

pub fn parse_u64(s: &str) -> PResult<u64> {
    parse_u128(s).and_then(|v| u64::try_from(v).map_err(|e| e.to_string()))
}

/// Decimal or `0x` hex, `_` separators allowed.
pub fn parse_u128(s: &str) -> PResult<u128> {
    let clean = s.replace('_', "");
    let r = match clean.strip_prefix("0x") {
        Some(h) => u128::from_str_radix(h, 16),
        None => clean.parse(),
    };
    r.map_err(|_| format!("bad number `{s}`"))
}

/// Parses a whole string as one construct (types in comments, tests).
pub fn parse_str<T>(s: &str, f: impl FnOnce(&mut Parser) -> PResult<T>) -> PResult<T> {
    let line = lex_line(s)?;
    let mut p = Parser::new(&line);
    let v = f(&mut p)?;
    p.expect_end()?;
    Ok(v)
}
