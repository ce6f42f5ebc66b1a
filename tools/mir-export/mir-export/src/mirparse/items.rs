//! Reads a whole `.mir` file: classifies each line (item header, local
//! declaration, scope, block, statement, comment, allocation row) and hands
//! the expressions to `parser.rs`.
//!
//! Item forms (rustc_middle/src/mir/pretty.rs):
//!
//! ```text
//! fn PATH(_1: T, ...) -> R {          a function body
//! const PATH: T = {                   a const / promoted (`PATH::promoted[N]`) body
//! static [mut] PATH: T = {            a static's initializer
//! const PATH: T = const VALUE;        a trivial constant, on one line
//! allocN (static: P, size: S, align: A) {   allocation bytes, 16 a row
//! // MIR FOR CTFE                     the next body is the const-eval copy: skipped
//! ```

use super::ast::*;
use super::lexer::{lex_line, Line, Tok};
use super::parser::{parse_u64, PResult, Parser};

/// A parse error at a line of the `.mir` file (1-based).
#[derive(Debug)]
pub struct MirError {
    pub line: usize,
    pub msg: String,
}

pub fn parse_mir_file(text: &str) -> Result<MirFile, MirError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut reader = Reader { lines: &lines, pos: 0, file: MirFile::default() };
    reader.run().map_err(|msg| MirError { line: reader.pos + 1, msg })?;
    Ok(reader.file)
}

struct Reader<'a> {
    lines: &'a [&'a str],
    pos: usize,
    file: MirFile,
}

impl Reader<'_> {
    fn run(&mut self) -> PResult<()> {
        let mut skip_next_body = false;
        while self.pos < self.lines.len() {
            let raw = self.lines[self.pos];
            let line = raw.trim();
            if line.is_empty() || line.starts_with("//") {
                skip_next_body |= line == "// MIR FOR CTFE";
                self.pos += 1;
                continue;
            }
            if line.starts_with("alloc") {
                let alloc = self.alloc()?;
                if !self.file.allocs.iter().any(|a| a.id == alloc.id) {
                    self.file.allocs.push(alloc);
                }
                continue;
            }
            self.item(std::mem::take(&mut skip_next_body))?;
        }
        Ok(())
    }

    fn lex(&self) -> PResult<Line> {
        lex_line(self.lines[self.pos])
    }

    /// A body or one-line constant starting at the current line.
    fn item(&mut self, skip: bool) -> PResult<()> {
        let line = self.lex()?;
        let mut p = Parser::new(&line);
        let header = item_header(&mut p)?;
        self.pos += 1;
        match header {
            Header::OneLine(c) => {
                if !skip {
                    self.file.consts.push(c);
                }
                Ok(())
            }
            Header::Body { kind, path, args, ret_ty } => {
                let body = self.body(kind, path, args, ret_ty)?;
                if !skip {
                    self.file.bodies.push(body);
                }
                Ok(())
            }
        }
    }

    fn body(&mut self, kind: BodyKind, path: Path, args: Vec<(u32, Ty)>, ret_ty: Ty) -> PResult<Body> {
        let mut body = Body {
            kind,
            name: path.to_string(),
            path,
            arg_count: args.len() as u32,
            ret_ty,
            locals: Vec::new(),
            debug_names: Vec::new(),
            scopes: vec![Scope::default()],
            blocks: Vec::new(),
        };
        for (n, ty) in args {
            set_local(&mut body, n, LocalDecl { ty, mutable: false, scope: 0, span: None });
        }
        self.decls(&mut body)?;
        self.blocks(&mut body)?;
        Ok(body)
    }

    /// `debug`, `let` and `scope` lines up to the first block.
    fn decls(&mut self, body: &mut Body) -> PResult<()> {
        let mut scope_stack = vec![0u32];
        while self.pos < self.lines.len() {
            let text = self.lines[self.pos].trim();
            if text.is_empty() {
                self.pos += 1;
                continue;
            }
            if text.starts_with("bb") || text == "}" && scope_stack.len() == 1 {
                return Ok(());
            }
            let line = self.lex()?;
            self.pos += 1;
            let cur = *scope_stack.last().unwrap();
            match line.toks.first() {
                Some(Tok::Punct("}")) => {
                    scope_stack.pop();
                }
                Some(Tok::Ident(w)) if w == "scope" => scope_stack.push(scope_decl(body, cur, &line)?),
                Some(Tok::Ident(w)) if w == "let" => local_decl(body, &line)?,
                Some(Tok::Ident(w)) if w == "debug" => debug_decl(body, &line),
                _ => return Err(format!("unexpected line in declarations: {text}")),
            }
        }
        Err("unexpected end of file in a body".into())
    }

    /// `bbN[ (cleanup)]: {` ... `}` up to the body's closing `}`.
    fn blocks(&mut self, body: &mut Body) -> PResult<()> {
        loop {
            let text = self.lines.get(self.pos).ok_or("unexpected end of file in a body")?.trim();
            self.pos += 1;
            if text.is_empty() {
                continue;
            }
            if text == "}" {
                return Ok(());
            }
            let header = text.strip_suffix(": {").ok_or(format!("expected a basic block, found `{text}`"))?;
            let (name, cleanup) = match header.strip_suffix(" (cleanup)") {
                Some(n) => (n, true),
                None => (header, false),
            };
            let index: usize = name.strip_prefix("bb").and_then(|n| n.parse().ok()).ok_or("bad block name")?;
            if index != body.blocks.len() {
                return Err(format!("basic block {name} out of order"));
            }
            let block = self.block(cleanup)?;
            body.blocks.push(block);
        }
    }

    fn block(&mut self, cleanup: bool) -> PResult<Block> {
        let mut lines: Vec<Located<Line>> = Vec::new();
        loop {
            let text = self.lines.get(self.pos).ok_or("unexpected end of file in a block")?.trim();
            self.pos += 1;
            if text == "}" {
                break;
            }
            let line = lex_line(text)?;
            if line.toks.is_empty() {
                // A comment line: `// + const_: Const { ty: T, val: V }`
                // belongs to the line above; `// DBG: ...` is debug info.
                let c = line.comment.as_deref().unwrap_or("");
                if let (Some(prev), Some(tv)) = (lines.last_mut(), const_comment(c)) {
                    prev.const_comments.push(tv);
                }
                continue;
            }
            let (scope, span) = scope_comment(line.comment.as_deref())?;
            lines.push(Located { kind: line, scope, span, const_comments: Vec::new() });
        }
        let last = lines.pop().ok_or("empty basic block")?;
        let mut statements = Vec::new();
        let mut marks = Vec::new();
        for l in lines {
            let kind = Parser::new(&l.kind).statement()?;
            if kind != StatementKind::Ignored {
                statements.push(Located { kind, scope: l.scope, span: l.span, const_comments: l.const_comments });
            } else if let Some(span) = l.span {
                marks.push((statements.len(), l.scope, span));
            }
        }
        let mut p = Parser::new(&last.kind);
        let kind = p.terminator()?;
        let terminator = Located { kind, scope: last.scope, span: last.span, const_comments: last.const_comments };
        Ok(Block { statements, terminator, cleanup, marks })
    }

    /// `allocN (static: P, size: S, align: A) {` and its rows up to `}`.
    fn alloc(&mut self) -> PResult<Alloc> {
        let header = self.lines[self.pos].trim();
        self.pos += 1;
        let mut alloc = alloc_header(header)?;
        if header.ends_with("{}") || alloc.vtable.is_some() {
            return Ok(alloc);
        }
        loop {
            let row = self.lines.get(self.pos).ok_or("unexpected end of file in an allocation")?.trim();
            self.pos += 1;
            if row == "}" {
                break;
            }
            alloc_row(row, &mut alloc)?;
        }
        if alloc.bytes.len() as u64 != alloc.size {
            return Err(format!("alloc{} has {} bytes, expected {}", alloc.id, alloc.bytes.len(), alloc.size));
        }
        Ok(alloc)
    }
}

enum Header {
    Body { kind: BodyKind, path: Path, args: Vec<(u32, Ty)>, ret_ty: Ty },
    OneLine(ConstItem),
}

/// `fn PATH(args) -> R {`, `const PATH: T = {`, `static PATH: T = {`,
/// `PATH: T = {` (anonymous constants) or `const PATH: T = const V;`.
fn item_header(p: &mut Parser) -> PResult<Header> {
    if p.eat_ident("fn") {
        let path = p.path(true)?;
        let args = fn_args(p)?;
        let ret_ty = if p.eat_punct("->") { p.ty()? } else { Ty::unit() };
        expect_open_brace(p)?;
        return Ok(Header::Body { kind: BodyKind::Fn, path, args, ret_ty });
    }
    let is_static = p.eat_ident("static");
    let mut is_mut = false;
    if is_static {
        is_mut = p.eat_ident("mut");
    } else {
        p.eat_ident("const");
    }
    let path = p.path(true)?;
    if !p.eat_punct(":") {
        return Err("expected `:` after the item name".into());
    }
    let ty = p.ty()?;
    if !p.eat_punct("=") {
        return Err("expected `=` after the item type".into());
    }
    if p.eat_ident("const") {
        let value = p.constant()?;
        return Ok(Header::OneLine(ConstItem { name: path.to_string(), ty, value }));
    }
    expect_open_brace(p)?;
    let kind = if is_static && is_mut {
        BodyKind::StaticMut
    } else if is_static {
        BodyKind::Static
    } else if path.last_name().starts_with("promoted[") {
        BodyKind::Promoted
    } else {
        BodyKind::Const
    };
    Ok(Header::Body { kind, path, args: Vec::new(), ret_ty: ty })
}

fn expect_open_brace(p: &mut Parser) -> PResult<()> {
    if p.eat_punct("{") {
        return p.expect_end();
    }
    Err("expected `{` at the end of the item header".into())
}

/// `(_1: T, _2: U)`.
fn fn_args(p: &mut Parser) -> PResult<Vec<(u32, Ty)>> {
    if !p.eat_punct("(") {
        return Err("expected `(` after the function name".into());
    }
    let mut args = Vec::new();
    while !p.eat_punct(")") {
        let local = p.place()?.local;
        if !p.eat_punct(":") {
            return Err("expected `:` in the argument list".into());
        }
        args.push((local, p.ty()?));
        p.eat_punct(",");
    }
    Ok(args)
}

fn set_local(body: &mut Body, n: u32, decl: LocalDecl) {
    let n = n as usize;
    if body.locals.len() <= n {
        body.locals.resize(n + 1, None);
    }
    body.locals[n] = Some(decl);
}

/// `let [mut] _N: T; // [return place ]in scope S at SPAN`.
fn local_decl(body: &mut Body, line: &Line) -> PResult<()> {
    let mut p = Parser::skipping(line, 1);
    let mutable = p.eat_ident("mut");
    let local = p.place()?.local;
    if !p.eat_punct(":") {
        return Err("expected `:` in a local declaration".into());
    }
    let ty = p.ty()?;
    // `[return place ]in scope S at SPAN`
    let (scope, span) = match line.comment.as_deref().and_then(|c| c.split_once(" at ")) {
        Some((head, s)) => (head.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0), parse_span(s)),
        None => (0, None),
    };
    set_local(body, local, LocalDecl { ty, mutable, scope, span });
    Ok(())
}

/// `debug NAME => _N;` (composite forms such as `debug ((x: T).0: u32) => _5`
/// and `debug x => (*_1)` carry no plain local name and are skipped).
/// Arguments are declared only in the header; their `debug` line gives
/// them a span.
fn debug_decl(body: &mut Body, line: &Line) {
    if let [_, Tok::Ident(name), Tok::Punct("=>"), Tok::Local(n), Tok::Punct(";")] = line.toks.as_slice() {
        if !body.debug_names.iter().any(|(_, m)| m == n) {
            body.debug_names.push((name.clone(), *n));
        }
        let span = line.comment.as_deref().and_then(|c| c.split_once(" at ")).and_then(|(_, s)| parse_span(s));
        if let Some(Some(decl)) = body.locals.get_mut(*n as usize) {
            if decl.span.is_none() {
                decl.span = span;
            }
        }
    }
}

/// `scope N {` or `scope N (inlined PATH) { // at SPAN`; returns N.
fn scope_decl(body: &mut Body, parent: u32, line: &Line) -> PResult<u32> {
    let n = match line.toks.get(1) {
        Some(Tok::Num(n)) => n.parse::<u32>().map_err(|e| e.to_string())?,
        _ => return Err("expected a scope number".into()),
    };
    let inlined = if matches!(line.toks.get(2), Some(Tok::Punct("("))) {
        // The inlined callee's path is only informative; keep its text.
        let callee: Vec<String> = line.toks[4..line.toks.len().saturating_sub(2)].iter().map(|t| t.to_string()).collect();
        let span = line.comment.as_deref().and_then(|c| c.strip_prefix("at ")).and_then(parse_span);
        Some((callee.concat(), span))
    } else {
        None
    };
    let n_us = n as usize;
    if body.scopes.len() <= n_us {
        body.scopes.resize(n_us + 1, Scope::default());
    }
    body.scopes[n_us] = Scope { parent: Some(parent), inlined };
    Ok(n)
}

/// `scope N at SPAN` after a statement or terminator.
fn scope_comment(comment: Option<&str>) -> PResult<(u32, Option<SrcSpan>)> {
    let c = comment.ok_or("statement without a `// scope N at ...` comment (was -Zmir-include-spans=yes passed?)")?;
    let rest = c.strip_prefix("scope ").ok_or(format!("unexpected comment `{c}`"))?;
    let (n, span) = rest.split_once(" at ").ok_or(format!("unexpected comment `{c}`"))?;
    let n = n.parse().map_err(|_| format!("bad scope in `{c}`"))?;
    Ok((n, parse_span(span)))
}

/// `// + const_: Const { ty: T, val: V }` → (T, V) texts.
fn const_comment(c: &str) -> Option<(String, String)> {
    let inner = c.strip_prefix("+ const_: Const { ty: ")?.strip_suffix(" }")?;
    // The type may contain `, val: ` only inside brackets; split at depth 0.
    let mut depth = 0i32;
    for (i, ch) in inner.char_indices() {
        match ch {
            '<' | '(' | '[' | '{' => depth += 1,
            // the `>` of a fn type's `->` closes nothing
            '>' if inner[..i].ends_with('-') => {}
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 && inner[i..].starts_with(", val: ") => {
                return Some((inner[..i].to_string(), inner[i + 7..].to_string()));
            }
            _ => {}
        }
    }
    None
}

/// `src/lib.rs:7:15: 7:16`, `no-location` → `None`.
pub fn parse_span(s: &str) -> Option<SrcSpan> {
    let s = s.trim();
    let (start, end) = s.rsplit_once(": ")?;
    let (end_line, end_col) = end.split_once(':')?;
    let mut it = start.rsplitn(3, ':');
    let col = it.next()?.parse().ok()?;
    let line = it.next()?.parse().ok()?;
    let file = it.next()?.to_string();
    Some(SrcSpan { file, line, col, end_line: end_line.parse().ok()?, end_col: end_col.parse().ok()? })
}

/// `allocN (static: P, size: S, align: A) {`.
fn alloc_header(h: &str) -> PResult<Alloc> {
    let bad = || format!("bad allocation header `{h}`");
    let (name, rest) = h.split_once(" (").ok_or_else(bad)?;
    let id = name.strip_prefix("alloc").and_then(|n| n.parse().ok()).ok_or_else(bad)?;
    let attrs = rest.split_once(')').ok_or_else(bad)?.0;
    let mut alloc = Alloc { id, static_name: None, size: 0, align: 1, bytes: Vec::new(), relocs: Vec::new(), vtable: None };
    if let Some(v) = rest.strip_prefix("vtable: ").and_then(|r| r.strip_suffix(')')) {
        alloc.vtable = Some(v.to_string());
        return Ok(alloc);
    }
    for attr in attrs.split(", ") {
        match attr.split_once(": ").ok_or_else(bad)? {
            ("static", v) => alloc.static_name = Some(v.to_string()),
            ("size", v) => alloc.size = parse_u64(v)?,
            ("align", v) => alloc.align = parse_u64(v)?,
            _ => {} // e.g. `fn:` of function allocations
        }
    }
    Ok(alloc)
}

/// One row: `[0x10 │ ]b0 b1 __ ╾──allocN<imm>──╼ ... │ ascii`.
/// `__` is an uninitialized byte; a `╾…╼` pointer stands for 8 bytes whose
/// value is the offset into the target (`allocN+0x4`).
fn alloc_row(row: &str, alloc: &mut Alloc) -> PResult<()> {
    let mut data = row;
    if row.starts_with("0x") {
        data = row.split_once('│').map(|x| x.1).ok_or("bad allocation row")?;
    }
    let data = data.rsplit_once('│').map_or(data, |x| x.0);
    let mut rest = data.trim();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('╾') {
            let end = after.find('╼').ok_or("unterminated pointer in allocation")?;
            pointer_bytes(after[..end].trim_matches('─'), alloc)?;
            rest = after[end + '╼'.len_utf8()..].trim_start();
            continue;
        }
        let (tok, tail) = rest.split_once(' ').unwrap_or((rest, ""));
        rest = tail.trim_start();
        if tok == "__" {
            alloc.bytes.push(None);
        } else {
            let b = u8::from_str_radix(tok, 16).map_err(|_| format!("bad allocation byte `{tok}`"))?;
            alloc.bytes.push(Some(b));
        }
    }
    Ok(())
}

/// `alloc6<imm>`, `alloc6+0x4<imm>`, `a6` (short forms in narrow slots).
fn pointer_bytes(text: &str, alloc: &mut Alloc) -> PResult<()> {
    let text = text.split('<').next().unwrap_or(text);
    let (target, offset) = match text.split_once('+') {
        Some((t, o)) => (t, parse_u64(o)?),
        None => (text, 0),
    };
    let id = target
        .trim_start_matches("alloc")
        .trim_start_matches('a')
        .parse()
        .map_err(|_| format!("bad pointer `{text}` in allocation"))?;
    alloc.relocs.push((alloc.bytes.len() as u64, id));
    alloc.bytes.extend(offset.to_le_bytes().map(Some));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans() {
        let s = parse_span("src/lib.rs:7:15: 7:16").unwrap();
        assert_eq!((s.file.as_str(), s.line, s.col, s.end_line, s.end_col), ("src/lib.rs", 7, 15, 7, 16));
        let s = parse_span("/rustc/5980/library/core/src/ptr/mut_ptr.rs:961:18: 961:49").unwrap();
        assert_eq!(s.file, "/rustc/5980/library/core/src/ptr/mut_ptr.rs");
        assert!(parse_span("no-location").is_none());
    }

    #[test]
    fn alloc_with_pointers_and_offsets() {
        let text = "alloc2 (static: BIG, size: 32, align: 8) {
    0x00 │ ╾─────alloc1<imm>─────╼ 0b 00 00 00 00 00 00 00 │ ╾──────╼........
    0x10 │ ╾───alloc5+0x4<imm>───╼ 01 00 00 00 __ __ __ __ │ ╾──────╼....░░░░
}
";
        let f = parse_mir_file(text).unwrap();
        let a = &f.allocs[0];
        assert_eq!((a.id, a.size, a.align, a.static_name.as_deref()), (2, 32, 8, Some("BIG")));
        assert_eq!(a.relocs, vec![(0, 1), (16, 5)]);
        assert_eq!(a.bytes[16], Some(4));
        assert_eq!(a.bytes[8], Some(0x0b));
        assert_eq!(a.bytes[31], None);
    }

    #[test]
    fn small_alloc_and_one_line_consts() {
        let text = "alloc6 (size: 10, align: 1) {
    68 69 0a 22 74 68 65 72 65 22                   │ hi.\"there\"
}

const Mode::C::{constant#0}: isize = const -2_isize;

const __OXIDE_KERNEL_vecadd: &str = const \"vecadd\";
";
        let f = parse_mir_file(text).unwrap();
        assert_eq!(f.allocs[0].bytes[2], Some(10));
        assert_eq!(f.consts[0].name, "Mode::C::{constant#0}");
        assert_eq!(f.consts[0].value.val, ConstVal::Int { negative: true, text: "2".into() });
        assert_eq!(f.consts[1].value.val, ConstVal::Str(b"vecadd".to_vec()));
    }

    #[test]
    fn const_comments() {
        let c = "+ const_: Const { ty: core::option::Option<&mut f32>, val: Value(core::option::Option::<&mut f32>::None) }";
        let (ty, val) = const_comment(c).unwrap();
        assert_eq!(ty, "core::option::Option<&mut f32>");
        assert_eq!(val, "Value(core::option::Option::<&mut f32>::None)");
        let c = "+ const_: Const { ty: fn(u32, u32) -> u32 {add}, val: Value(add) }";
        assert_eq!(const_comment(c).unwrap(), ("fn(u32, u32) -> u32 {add}".to_string(), "Value(add)".to_string()));
    }
}
