//! `#[kernel]`: marks a function as a GPU kernel entry point for oxidec.
//!
//! Written against `proc_macro` alone (no `syn`/`quote`) so that it builds
//! offline with nothing but the toolchain.
//!
//! ```ignore
//! #[kernel]
//! pub fn hello(out: &mut u32) { *out = 42; }
//! ```
//!
//! expands to the same function with `#[unsafe(no_mangle)]` (the PTX entry
//! keeps its Rust name) followed by
//!
//! ```ignore
//! #[allow(non_upper_case_globals)]
//! #[doc(hidden)]
//! pub const __OXIDE_KERNEL_hello: &str = "hello";
//! ```
//!
//! Attributes are invisible in MIR text; the constant is not, and that is how
//! `mir-export` finds the kernels.

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Marks a `pub fn` as a kernel. Kernels must not be generic and must
/// return `()`.
///
/// Launch attributes (PTX `.maxntid`, `.minnctapersm`, `.reqntid`,
/// `.reqnctapercluster`):
///
/// ```ignore
/// #[kernel(launch_bounds(max_threads = 256, min_blocks = 2))]  // or launch_bounds(256, 2)
/// #[kernel(reqntid(256))]                                      // or reqntid(16, 16), reqntid(8, 8, 4)
/// #[kernel(cluster(4))]                                        // or cluster(2, 2), cluster(2, 2, 2)
/// #[kernel(contract)]                                          // FMA contraction, this kernel only
/// ```
///
/// `max_threads` is the most threads per block any launch uses (launches
/// with more fail); `min_blocks` asks for at least that many blocks per SM
/// (the compiler limits registers accordingly); `reqntid` fixes the block
/// shape exactly; `cluster` makes every launch a grid of thread-block
/// clusters of that shape (at most 8 blocks: the portable size; sm_90+;
/// missing dimensions are 1), whose blocks run together and share their
/// shared memory (`oxide_device::cluster`). They ride on the marker constant's value
/// (`"name;maxntid=256;minnctapersm=2"`), which `mir-export` writes to the
/// kernel's `attrs`.
///
/// `contract` (anywhere in the list, no arguments) lets oxidec fuse a
/// float multiply and the add or subtract that uses it into one `fma`, in
/// this kernel's body: what it writes and what rustc's MIR inliner put
/// into it (`#[inline(always)]` helpers, `f32x4` arithmetic). A function
/// that stays a call of its own (`#[inline(never)]`, any device function
/// mir-export exports separately) stays Rust-exact. One rounding instead
/// of two: faster and usually more accurate, but not the bits Rust's
/// `a * b + c` promises, so it is opt-in; without it every kernel is
/// Rust-exact (`mul.rn` then `add.rn`). Marker item `;contract=1`.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let attrs = match parse_launch_attrs(attr) {
        Ok(a) => a,
        Err((span, msg)) => return compile_error(span, &msg),
    };
    match KernelFn::parse(&item) {
        Ok(f) => expand(&f, &attrs, item),
        Err((span, msg)) => compile_error(span, &msg),
    }
}

/// `launch_bounds(...)`, `reqntid(...)`, `cluster(...)`, comma-separated → `;key=value`
/// items of the marker string.
fn parse_launch_attrs(attr: TokenStream) -> Result<String, ParseError> {
    let tokens: Vec<TokenTree> = attr.into_iter().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < tokens.len() {
        let name = match &tokens[i] {
            TokenTree::Ident(id) => id.clone(),
            tt => {
                return Err((tt.span(), "expected `launch_bounds(..)`, `reqntid(..)`, `cluster(..)` or `contract`".into()))
            }
        };
        if name.to_string() == "contract" {
            // a flag: no arguments
            if out.contains(";contract=") {
                return Err((name.span(), "`contract` is given twice".into()));
            }
            out.push_str(";contract=1");
            i += 1;
            match tokens.get(i) {
                None => {}
                Some(TokenTree::Punct(p)) if p.as_char() == ',' => i += 1,
                Some(tt) => return Err((tt.span(), "`contract` takes no arguments; expected `,`".into())),
            }
            continue;
        }
        let args = match tokens.get(i + 1) {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => g.stream(),
            _ => return Err((name.span(), format!("`{name}` needs arguments in parentheses"))),
        };
        let items = split_args(args)?;
        match name.to_string().as_str() {
            "launch_bounds" => {
                if items.is_empty() || items.len() > 2 {
                    return Err((name.span(), "launch_bounds(max_threads = N[, min_blocks = M])".into()));
                }
                for (k, (key, v)) in items.iter().enumerate() {
                    let key = key.as_deref().unwrap_or(if k == 0 { "max_threads" } else { "min_blocks" });
                    match key {
                        "max_threads" => out.push_str(&format!(";maxntid={v}")),
                        "min_blocks" => out.push_str(&format!(";minnctapersm={v}")),
                        _ => return Err((name.span(), format!("unknown launch_bounds key `{key}` (max_threads, min_blocks)"))),
                    }
                }
            }
            "reqntid" => {
                if items.is_empty() || items.len() > 3 || items.iter().any(|(k, _)| k.is_some()) {
                    return Err((name.span(), "reqntid(X[, Y[, Z]])".into()));
                }
                let v: Vec<String> = items.iter().map(|(_, v)| v.to_string()).collect();
                out.push_str(&format!(";reqntid={}", v.join(",")));
            }
            "cluster" => {
                if items.is_empty() || items.len() > 3 || items.iter().any(|(k, _)| k.is_some()) {
                    return Err((name.span(), "cluster(X[, Y[, Z]])".into()));
                }
                let mut v: Vec<u64> = items.iter().map(|(_, v)| *v).collect();
                v.resize(3, 1);
                if v.iter().product::<u64>() > 8 {
                    return Err((name.span(), "a cluster has at most 8 blocks (X * Y * Z <= 8)".into()));
                }
                out.push_str(&format!(";cluster={},{},{}", v[0], v[1], v[2]));
            }
            other => return Err((name.span(), format!("unknown kernel attribute `{other}` (launch_bounds, reqntid, cluster, contract)"))),
        }
        i += 2;
        match tokens.get(i) {
            None => {}
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => i += 1,
            Some(tt) => return Err((tt.span(), "expected `,`".into())),
        }
    }
    Ok(out)
}

/// `a = 1, 2` → [(Some("a"), 1), (None, 2)]: positive integer literals.
fn split_args(args: TokenStream) -> Result<Vec<(Option<String>, u64)>, ParseError> {
    let mut out = Vec::new();
    let mut key = None;
    for tt in args {
        match tt {
            TokenTree::Ident(id) => key = Some(id.to_string()),
            TokenTree::Punct(p) if p.as_char() == '=' || p.as_char() == ',' => {}
            TokenTree::Literal(l) => {
                let text = l.to_string().replace('_', "");
                let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
                if digits.len() != text.len() && !text[digits.len()..].starts_with(['u', 'i']) {
                    return Err((l.span(), "expected a positive integer".into()));
                }
                let n: u64 = digits.parse().map_err(|_| (l.span(), "expected a positive integer".to_string()))?;
                if n == 0 {
                    return Err((l.span(), "expected a positive integer".into()));
                }
                out.push((key.take(), n));
            }
            tt => return Err((tt.span(), "expected `key = N` or `N`".into())),
        }
    }
    Ok(out)
}

/// What the expansion needs to know about the annotated function.
struct KernelFn {
    name: Ident,
}

type ParseError = (Span, String);

impl KernelFn {
    /// Checks the item has the shape `[attrs] pub [unsafe] [extern "C"] fn
    /// name(args) [-> ()] { body }` and returns its name.
    fn parse(item: &TokenStream) -> Result<KernelFn, ParseError> {
        let tokens: Vec<TokenTree> = item.clone().into_iter().collect();
        let fn_pos = find_fn_keyword(&tokens)?;
        check_is_pub(&tokens[..fn_pos])?;
        let name = match tokens.get(fn_pos + 1) {
            Some(TokenTree::Ident(id)) => id.clone(),
            _ => return Err((tokens[fn_pos].span(), "expected a function name after `fn`".into())),
        };
        let rest = &tokens[fn_pos + 2..];
        check_not_generic(&name, rest)?;
        check_unit_return(&name, rest)?;
        Ok(KernelFn { name })
    }
}

/// Position of the `fn` keyword; attributes (`#` + `[...]`) are skipped
/// so that `fn` inside an attribute's text is not mistaken for it.
fn find_fn_keyword(tokens: &[TokenTree]) -> Result<usize, ParseError> {
    for (i, tt) in tokens.iter().enumerate() {
        if let TokenTree::Ident(id) = tt {
            match id.to_string().as_str() {
                "fn" => return Ok(i),
                "async" => return Err((id.span(), "a kernel cannot be `async`".into())),
                "const" => return Err((id.span(), "a kernel cannot be a `const fn`".into())),
                _ => {}
            }
        }
    }
    let span = tokens.first().map_or_else(Span::call_site, |t| t.span());
    Err((span, "#[kernel] applies to functions only".into()))
}

fn check_is_pub(qualifiers: &[TokenTree]) -> Result<(), ParseError> {
    let is_pub = qualifiers
        .iter()
        .any(|tt| matches!(tt, TokenTree::Ident(id) if id.to_string() == "pub"));
    if is_pub {
        return Ok(());
    }
    let span = qualifiers.first().map_or_else(Span::call_site, |t| t.span());
    Err((span, "a kernel must be `pub`".into()))
}

/// Right after the name comes either the parameter list or `<` (generic
/// parameters); a `where` clause before the body is rejected as well.
fn check_not_generic(name: &Ident, rest: &[TokenTree]) -> Result<(), ParseError> {
    let generic = rest.iter().enumerate().find(|(i, tt)| match tt {
        TokenTree::Punct(p) => *i == 0 && p.as_char() == '<',
        TokenTree::Ident(id) => id.to_string() == "where",
        _ => false,
    });
    match generic {
        None => Ok(()),
        Some((_, tt)) => Err((
            tt.span(),
            format!(
                "kernel `{name}` must not be generic: a kernel is a single PTX entry point; \
                 write a generic helper and call it from one kernel per type"
            ),
        )),
    }
}

/// Between the parameter list and the body only `-> ()` is allowed.
fn check_unit_return(name: &Ident, rest: &[TokenTree]) -> Result<(), ParseError> {
    let params = rest
        .iter()
        .position(|tt| matches!(tt, TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis))
        .ok_or_else(|| (name.span(), "expected a parameter list".to_string()))?;
    let sig_tail: Vec<&TokenTree> = rest[params + 1..]
        .iter()
        .take_while(|tt| !matches!(tt, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))
        .collect();
    let is_unit = match sig_tail.as_slice() {
        [] => true,
        [TokenTree::Punct(a), TokenTree::Punct(b), TokenTree::Group(g)] => {
            a.as_char() == '-'
                && b.as_char() == '>'
                && g.delimiter() == Delimiter::Parenthesis
                && g.stream().is_empty()
        }
        _ => false,
    };
    if is_unit {
        return Ok(());
    }
    let msg = format!(
        "kernel `{name}` must return `()`: kernels write their results through \
         their parameters (e.g. `&mut T` or `DisjointSlice<T>`)"
    );
    Err((sig_tail[0].span(), msg))
}

/// `#[unsafe(no_mangle)] <item>` followed by the marker constant. The
/// `unsafe(...)` form is accepted by every edition since Rust 1.82 and
/// required by 2024.
fn expand(f: &KernelFn, attrs: &str, item: TokenStream) -> TokenStream {
    let name = f.name.to_string();
    let marker = format!(
        "#[allow(non_upper_case_globals)] #[doc(hidden)] \
         pub const __OXIDE_KERNEL_{name}: &str = \"{name}{attrs}\";"
    );
    let mut out: TokenStream = "#[unsafe(no_mangle)]".parse().unwrap();
    out.extend(item);
    out.extend(marker.parse::<TokenStream>().unwrap());
    out
}

/// `::core::compile_error!("msg");` with every token at `span`, so rustc
/// points at the offending part of the signature.
fn compile_error(span: Span, msg: &str) -> TokenStream {
    let mut lit = Literal::string(msg);
    lit.set_span(span);
    let mut args = Group::new(Delimiter::Parenthesis, TokenTree::Literal(lit).into());
    args.set_span(span);
    let tokens = [
        punct(':', Spacing::Joint, span),
        punct(':', Spacing::Alone, span),
        TokenTree::Ident(Ident::new("core", span)),
        punct(':', Spacing::Joint, span),
        punct(':', Spacing::Alone, span),
        TokenTree::Ident(Ident::new("compile_error", span)),
        punct('!', Spacing::Alone, span),
        TokenTree::Group(args),
        punct(';', Spacing::Alone, span),
    ];
    tokens.into_iter().collect()
}

fn punct(ch: char, spacing: Spacing, span: Span) -> TokenTree {
    let mut p = Punct::new(ch, spacing);
    p.set_span(span);
    TokenTree::Punct(p)
}
