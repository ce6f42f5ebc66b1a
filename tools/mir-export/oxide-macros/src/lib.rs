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
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    if let Some(tt) = attr.into_iter().next() {
        return compile_error(tt.span(), "#[kernel] takes no arguments");
    }
    match KernelFn::parse(&item) {
        Ok(f) => expand(&f, item),
        Err((span, msg)) => compile_error(span, &msg),
    }
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
fn expand(f: &KernelFn, item: TokenStream) -> TokenStream {
    let name = f.name.to_string();
    let marker = format!(
        "#[allow(non_upper_case_globals)] #[doc(hidden)] \
         pub const __OXIDE_KERNEL_{name}: &str = \"{name}\";"
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
