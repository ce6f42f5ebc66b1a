//! `#[track_caller]` and `Location::caller()` (`core::intrinsics::
//! caller_location`), as rustc's codegen computes them, made constants.
//!
//! rustc passes a `#[track_caller]` function its caller's `&Location` as
//! a hidden argument. Each location is a compile-time fact of the call
//! site, so the export makes one copy of such a function per caller
//! location instead (`f::{track_caller#K}`, its `caller_location()`
//! resolving to that location): no hidden argument, no ABI change.
//!
//! The location of a `caller_location()` call, or of a call to a
//! `#[track_caller]` function, is rustc's `Body::caller_location_span`:
//! from the call's span, walk out through the inlined scopes; at an
//! inlined `#[track_caller]` callee (printed `scope N (inlined
//! #[track_caller] PATH) { // at SPAN`) continue from its call site SPAN;
//! at any other inlined callee, or at the root of a function that is not
//! `#[track_caller]`, the span reached is the location; at the root of a
//! `#[track_caller]` function, the copy's own location. A span is then
//! `span_as_caller_location`: file, line, and the display column + 1.
//! The MIR text prints the character column + 1: equal when the line
//! before it is ASCII (a tab counts 4, as rustc's `char_width`); anything
//! else is refused. So are spans that rustc would move to a macro's call
//! site (in a `macro_rules!` body, or outside the crate's files), and a
//! call written as a method call's whole expression (`x.f()`), whose
//! `fn_span` starts at `f`, is moved there as rustc's is.

use crate::diag::{Code, DResult};
use crate::json::Json;
use crate::mirparse::ast::*;
use crate::obj;

use super::body::Ctx;
use super::Exporter;

/// A location as `Location::caller()` returns it.
#[derive(Clone, Debug, PartialEq)]
pub struct CallerLoc {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

/// A `Location` allocation to fill once the layout of `Location` is known.
pub(super) struct LocAlloc {
    loc: CallerLoc,
    alloc: u32,
}

/// Where a walk out of the inlined scopes ends.
enum Site {
    Span(SrcSpan),
    /// The root of a `#[track_caller]` function: its caller's location.
    Implicit,
}

impl<'a> Exporter<'a> {
    /// Whether `body` is a `#[track_caller]` function: the attribute
    /// among those right above its `fn NAME` line in the source (found
    /// above the return type's span). A trait method whose trait may
    /// declare it (`#[track_caller]` in its file) cannot be told: Err.
    fn is_track_caller(&self, body: &Body) -> Result<bool, String> {
        let name = body.path.segments.last().map(|s| s.name.clone()).unwrap_or_default();
        let Some(span) = body.locals.first().and_then(|l| l.as_ref()).and_then(|l| l.span.as_ref()) else { return Ok(false) };
        let Some(file) = self.spans.user_path(&span.file) else { return Ok(false) };
        let Ok(text) = std::fs::read_to_string(self.input.crate_dir.join(&file)) else { return Ok(false) };
        let lines: Vec<&str> = text.lines().collect();
        let top = (span.line as usize).min(lines.len());
        let Some(fn_line) = (0..top).rev().take(40).find(|&k| declares_fn(lines[k], &name)) else { return Ok(false) };
        let own = has_track_caller(&lines, fn_line);
        let trait_method = body.path.qself.is_some() || body.name.contains("<impl at ");
        if !own && trait_method && (0..lines.len()).any(|k| declares_fn(lines[k], &name) && has_track_caller(&lines, k)) {
            return Err(format!(
                "whether the method `{}` is `#[track_caller]` through its trait's declaration is not read",
                body.name
            ));
        }
        Ok(own)
    }

    /// rustc's `caller_location_span` from `span` in `scope` of `body`.
    fn caller_site(&self, body: &Body, mut scope: u32, span: &SrcSpan) -> Result<Site, String> {
        let mut span = span.clone();
        loop {
            let Some(s) = body.scopes.get(scope as usize) else { break };
            if let Some((callee, callsite)) = &s.inlined {
                if !callee.starts_with("#[track_caller]") {
                    return Ok(Site::Span(span));
                }
                span = callsite.clone().ok_or_else(|| format!("the call site of the inlined `{callee}` is not printed"))?;
            }
            match s.parent {
                Some(p) => scope = p,
                None => break,
            }
        }
        if self.is_track_caller(body)? {
            Ok(Site::Implicit)
        } else {
            Ok(Site::Span(span))
        }
    }

    /// The location rustc gives `span`.
    fn span_location(&self, span: &SrcSpan) -> Result<CallerLoc, String> {
        let file = self.spans.user_path(&span.file).ok_or_else(|| {
            format!("its span ({span}) is outside the crate's files, where rustc may take a macro's call site instead")
        })?;
        let text = std::fs::read_to_string(self.input.crate_dir.join(&file)).map_err(|e| format!("{file}: {e}"))?;
        if in_macro_rules(&text, span.line, span.col) {
            return Err(format!("{span} is inside a `macro_rules!` body: rustc gives the macro's call site, which MIR does not print"));
        }
        let line = text.lines().nth(span.line as usize - 1).ok_or_else(|| format!("{span} is past the end of {file}"))?;
        let mut col = 1;
        for c in line.chars().take(span.col as usize - 1) {
            col += match c {
                '\t' => 4,
                c if c.is_ascii() => 1,
                _ => return Err(format!("the line of {span} has a non-ASCII character before the column, whose display width rustc counts")),
            };
        }
        Ok(CallerLoc { file: span.file.clone(), line: span.line, col })
    }

    /// The location of the call `ctx` to a `#[track_caller]` function, or
    /// of a `caller_location()` call (`method_call`: `ctx` may be written
    /// `x.f(..)`). A tracked function exported without a caller (not as
    /// a copy) has none: an error.
    fn call_location(&self, ctx: Ctx, method_call: bool) -> Result<CallerLoc, String> {
        let span = ctx.span.ok_or("the call has no span")?;
        match self.caller_site(ctx.body, ctx.scope, span)? {
            // the walk ended at the call itself: its `fn_span`
            Site::Span(s) if method_call && s == *span => self.span_location(&self.method_fn_span(span)?),
            Site::Span(s) => self.span_location(&s),
            Site::Implicit => self.caller_loc.clone().ok_or_else(|| {
                format!("`{}` is `#[track_caller]` and is exported without a caller", ctx.body.name)
            }),
        }
    }

    /// A call's `fn_span`: the whole call `f(..)`, or from the method's
    /// name for a method call `x.f(..)` (rustc's `MethodCall` span).
    fn method_fn_span(&self, span: &SrcSpan) -> Result<SrcSpan, String> {
        let text = self.spans.source_text(span).ok_or_else(|| format!("the source of {span} cannot be read"))?;
        if span.line != span.end_line {
            return Err(format!("the call at {span} spans several lines"));
        }
        match method_name_at(&text) {
            Ok(Some(k)) => Ok(SrcSpan { col: span.col + k as u32, ..span.clone() }),
            Ok(None) => Ok(span.clone()),
            Err(why) => Err(format!("the call at {span}: {why}")),
        }
    }

    /// `caller_location()` in block `ctx`: `dest = const &LOCATION`, then
    /// the return edge.
    pub(super) fn caller_location_json(&mut self, dest: &Place, target: u32, ctx: Ctx) -> DResult<(Json, Json)> {
        let loc = self
            .call_location(ctx, false)
            .map_err(|why| self.err(ctx, Code::Unsupported, format!("`Location::caller()` here: {why}")))?;
        let (pj, pty) = self.place_json(dest, ctx)?;
        let ti = self.ty(&pty, ctx)?;
        let alloc = self.location_alloc(loc);
        let span = self.span_json(ctx);
        let value = obj!["kind" => "ref", "alloc" => alloc, "offset" => "0", "meta" => Json::Null];
        let operand = obj!["kind" => "constant", "ty" => ti, "const" => value, "span" => span.clone()];
        let stmt = obj!["kind" => "assign", "place" => pj, "rvalue" => obj!["kind" => "use", "operand" => operand], "span" => span];
        let mut term = self.terminator_json(&TerminatorKind::Goto(target), ctx)?;
        term.push("span", self.span_json(ctx));
        Ok((stmt, term))
    }

    /// The function a call of `name` reaches: `name`, or, when it is
    /// `#[track_caller]`, its copy for this call's location.
    pub(super) fn track_caller_callee(&mut self, name: String, ctx: Ctx) -> DResult<String> {
        let Some(callee) = self.bodies.get(name.as_str()).copied() else { return Ok(name) };
        let tc = self.is_track_caller(callee).map_err(|why| self.err(ctx, Code::Unsupported, why))?;
        if !tc {
            return Ok(name);
        }
        let loc = self
            .call_location(ctx, true)
            .map_err(|why| self.err(ctx, Code::Unsupported, format!("the `#[track_caller]` call of `{name}` here: {why}")))?;
        if let Some((copy, _)) = self.tc_copies.iter().find(|(_, (n, l))| *n == name && *l == loc) {
            return Ok(copy.clone());
        }
        let copy = format!("{name}::{{track_caller#{}}}", self.tc_copies.len());
        let key: &'a str = Box::leak(copy.clone().into_boxed_str());
        self.bodies.insert(key, callee);
        self.tc_copies.insert(copy.clone(), (name, loc));
        Ok(copy)
    }

    /// The location a body being exported has as its caller's.
    pub(super) fn copy_location(&self, name: &str) -> Option<CallerLoc> {
        self.tc_copies.get(name).map(|(_, l)| l.clone())
    }

    /// The allocation of a `Location` (its bytes once layouts are known).
    fn location_alloc(&mut self, loc: CallerLoc) -> u32 {
        if let Some(a) = self.loc_allocs.iter().find(|a| a.loc == loc) {
            return a.alloc;
        }
        let alloc = self.reserve_alloc();
        self.loc_allocs.push(LocAlloc { loc, alloc });
        alloc
    }

    /// Writes each `Location`: rustc's layout of `core::panic::Location`,
    /// fields `filename` (a `*const str` of the name, NUL-terminated as
    /// rustc's), `line`, `col`.
    pub(super) fn fill_locations(&mut self) -> DResult<()> {
        if self.loc_allocs.is_empty() {
            return Ok(());
        }
        let ty = crate::mirparse::parser::parse_str("core::panic::Location<'_>", |p| p.ty()).expect("a type");
        let i = self.types.intern(&ty);
        let layout = self.types.get(i).layout.clone().filter(|l| l.fields.len() >= 3 && l.size >= 24).ok_or_else(|| {
            let why = self.types.get(i).layout_error.clone().unwrap_or_else(|| "not probed".into());
            crate::diag::Diag::new(Code::Export, format!("rustc's layout of `core::panic::Location` is not known: {why}"))
        })?;
        let locs: Vec<(CallerLoc, u32)> = self.loc_allocs.iter().map(|a| (a.loc.clone(), a.alloc)).collect();
        for (loc, id) in locs {
            let mut name = loc.file.as_bytes().to_vec();
            name.push(0);
            let file = self.string_alloc(&name);
            let mut bytes = vec![Some(0u8); layout.size as usize];
            let mut put = |at: u64, v: &[u8]| {
                for (k, b) in v.iter().enumerate() {
                    bytes[at as usize + k] = Some(*b);
                }
            };
            put(layout.fields[0] + 8, &(loc.file.len() as u64).to_le_bytes());
            put(layout.fields[1], &loc.line.to_le_bytes());
            put(layout.fields[2], &loc.col.to_le_bytes());
            let a = self.string_allocs.iter_mut().find(|a| a.id == id).expect("reserved");
            a.size = layout.size;
            a.align = layout.align;
            a.bytes = bytes;
            a.relocs = vec![(layout.fields[0], file)];
        }
        Ok(())
    }
}

/// Whether source line `l` declares `fn name`.
fn declares_fn(l: &str, name: &str) -> bool {
    l.match_indices("fn ").any(|(k, _)| {
        let rest = l[k + 3..].trim_start();
        (k == 0 || !l.as_bytes()[k - 1].is_ascii_alphanumeric())
            && rest.starts_with(name)
            && !rest[name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
    })
}

/// Whether the attributes of the `fn` on line `k` (on its line before
/// `fn`, and the attribute lines right above it, comments between them
/// skipped) hold `#[track_caller]`.
fn has_track_caller(lines: &[&str], k: usize) -> bool {
    let head = &lines[k][..lines[k].find("fn ").unwrap_or(0)];
    let mut attrs = head.split("//").next().unwrap_or("").to_string();
    for l in lines[..k].iter().rev() {
        let t = l.trim();
        if t.starts_with("#[") {
            attrs.push_str(t.split("//").next().unwrap_or(""));
        } else if !t.starts_with("//") {
            break;
        }
    }
    attrs.contains("#[track_caller]")
}

/// Whether `line:col` (1-based) lies inside the body of a `macro_rules!`.
fn in_macro_rules(text: &str, line: u32, col: u32) -> bool {
    let offset: usize = text.lines().take(line as usize - 1).map(|l| l.len() + 1).sum::<usize>() + col as usize - 1;
    let mut from = 0;
    while let Some(k) = text[from..].find("macro_rules!") {
        let start = from + k;
        let Some(open) = text[start..].find(['{', '(', '[']).map(|o| start + o) else { return false };
        let (o, c) = match text.as_bytes()[open] {
            b'{' => ('{', '}'),
            b'(' => ('(', ')'),
            _ => ('[', ']'),
        };
        let close = crate::mirparse::lexer::matching_close(&text[open..], o, c).map_or(text.len(), |n| open + n);
        if (start..=close).contains(&offset) {
            return true;
        }
        from = close.max(start + 1);
    }
    false
}

/// In a call's text `recv.f::<T>(args)` the byte offset of `f` (a method
/// call), `None` for a path call `p::f(args)`; refused when the text
/// cannot be read that way.
fn method_name_at(text: &str) -> Result<Option<usize>, String> {
    let b = text.trim_end().as_bytes();
    if b.last() != Some(&b')') || text.contains('"') {
        return Err("its text is not a call that can be read".into());
    }
    let mut depth = 0i32;
    let mut k = b.len();
    let open = loop {
        if k == 0 {
            return Err("unbalanced parentheses".into());
        }
        k -= 1;
        match b[k] {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    break k;
                }
            }
            _ => {}
        }
    };
    let mut end = open;
    while end > 0 && b[end - 1] == b' ' {
        end -= 1;
    }
    if end > 0 && b[end - 1] == b'>' {
        // a turbofish `::<..>`
        let mut d = 0i32;
        while end > 0 {
            end -= 1;
            match b[end] {
                b'>' => d += 1,
                b'<' => {
                    d -= 1;
                    if d == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        if end < 2 || &b[end - 2..end] != b"::" {
            return Err("unexpected generic arguments".into());
        }
        end -= 2;
    }
    let mut start = end;
    while start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
        start -= 1;
    }
    if start == end {
        return Err("no function name before its arguments".into());
    }
    let mut before = start;
    while before > 0 && b[before - 1] == b' ' {
        before -= 1;
    }
    Ok((before > 0 && b[before - 1] == b'.').then_some(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_calls_start_at_the_method_name() {
        assert_eq!(method_name_at("where_am_i()"), Ok(None));
        assert_eq!(method_name_at("m::f::<u32>(a, (b))"), Ok(None));
        assert_eq!(method_name_at("x.y.get(1)"), Ok(Some(4)));
        assert_eq!(method_name_at("v . get::<u8>(g(1))"), Ok(Some(4)));
        assert!(method_name_at("f(\"(\")").is_err());
    }

    #[test]
    fn track_caller_is_read_from_the_attributes_not_the_docs() {
        let src = ["/// calls a `#[track_caller]` fn", "#[kernel]", "pub fn k() {", "#[track_caller]", "// why", "#[inline(never)]", "fn here() {"];
        assert!(declares_fn(src[2], "k") && !declares_fn(src[2], "ke"));
        assert!(!has_track_caller(&src, 2));
        assert!(has_track_caller(&src, 6));
    }

    #[test]
    fn macro_rules_bodies_are_found() {
        let src = "fn a() {}\nmacro_rules! m {\n    () => { f() };\n}\nfn b() { f() }\n";
        assert!(in_macro_rules(src, 3, 13));
        assert!(!in_macro_rules(src, 5, 10));
    }
}
