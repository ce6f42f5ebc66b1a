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
//! `mir-export` finds the kernels. A generic kernel,
//! `#[kernel(instances(f32, f64))] pub fn axpy<T>`, expands to the generic
//! function and, per instance, a `#[no_mangle]` wrapper `axpy_f32` calling
//! `axpy::<f32>` with its marker (see [`kernel`]).

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Marks a `pub fn` as a kernel. Kernels must return `()`; a generic
/// kernel names its instances (see below).
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
///
/// Generic kernels name their instances:
///
/// ```ignore
/// #[kernel(instances(f32, f64, my::Pair), launch_bounds(256))]
/// pub fn axpy<T: Elem>(a: T, x: &[T], mut y: DisjointSlice<T>) { ... }
/// #[kernel(instances((f32, u32), (f64, u64)))]                // two type parameters
/// pub fn pair<A: Elem, B: Elem>(...) { ... }
/// ```
///
/// Each instance is a kernel of its own, `axpy_f32`, `axpy_f64`,
/// `axpy_Pair`, `pair_f32_u32`, `pair_f64_u64`: the kernel's name, then
/// `_` and each type's last path segment (generic arguments' words
/// appended: `Wrap<f32>` → `Wrap_f32`), with the other attribute
/// arguments. The expansion keeps the generic function (adding
/// `#[inline(always)]` unless it has an inline attribute) and adds per
/// instance a `#[no_mangle]` function of that name, the kernel's
/// parameter types with the instance's types in, calling
/// `axpy::<f32>(..)`, and its marker. Lifetime parameters are kept;
/// const generic parameters are refused, and so are a generic kernel
/// without `instances`, an instance type that is not a type path (name
/// it with a `type` alias) and two instances of one name. A bound the
/// type misses, or a name another item already has, is rustc's error.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let (attrs, instances) = match parse_launch_attrs(attr) {
        Ok(a) => a,
        Err((span, msg)) => return compile_error(span, &msg),
    };
    let f = match KernelFn::parse(&item) {
        Ok(f) => f,
        Err((span, msg)) => return compile_error(span, &msg),
    };
    let result = match (&f.generics, instances) {
        (None, None) => Ok(expand(&f, &attrs, item)),
        (None, Some(inst)) => Err((
            inst.span,
            format!("kernel `{}` is not generic: `instances(..)` is for a kernel with a type parameter", f.name),
        )),
        (Some(_), None) => Err((
            Span::call_site(),
            format!(
                "generic kernel `{name}` needs `instances(..)`: a kernel is a PTX entry point of one type; \
                 `#[kernel(instances(f32, f64))]` makes one entry per type (`{name}_f32`, `{name}_f64`)",
                name = f.name
            ),
        )),
        (Some(g), Some(inst)) => expand_instances(&f, g, &inst, &attrs, item),
    };
    result.unwrap_or_else(|(span, msg)| compile_error(span, &msg))
}

/// `launch_bounds(...)`, `reqntid(...)`, `cluster(...)`, comma-separated → `;key=value`
/// items of the marker string; `instances(...)` apart.
fn parse_launch_attrs(attr: TokenStream) -> Result<(String, Option<Instances>), ParseError> {
    let tokens: Vec<TokenTree> = attr.into_iter().collect();
    let mut out = String::new();
    let mut instances = None;
    let mut i = 0;
    while i < tokens.len() {
        let name = match &tokens[i] {
            TokenTree::Ident(id) => id.clone(),
            tt => {
                return Err((
                    tt.span(),
                    "expected `launch_bounds(..)`, `reqntid(..)`, `cluster(..)`, `instances(..)` or `contract`".into(),
                ))
            }
        };
        if name.to_string() == "instances" {
            let args = match tokens.get(i + 1) {
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => g.stream(),
                _ => return Err((name.span(), "`instances` needs types in parentheses: `instances(f32, f64)`".into())),
            };
            if instances.is_some() {
                return Err((name.span(), "`instances` is given twice".into()));
            }
            instances = Some(Instances::parse(name.span(), args)?);
            i += 2;
            match tokens.get(i) {
                None => {}
                Some(TokenTree::Punct(p)) if p.as_char() == ',' => i += 1,
                Some(tt) => return Err((tt.span(), "expected `,`".into())),
            }
            continue;
        }
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
            other => {
                return Err((
                    name.span(),
                    format!("unknown kernel attribute `{other}` (launch_bounds, reqntid, cluster, contract, instances)"),
                ))
            }
        }
        i += 2;
        match tokens.get(i) {
            None => {}
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => i += 1,
            Some(tt) => return Err((tt.span(), "expected `,`".into())),
        }
    }
    Ok((out, instances))
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
    /// `<...>` after the name, when there is one.
    generics: Option<Generics>,
    /// The item's tokens up to `fn`, without its attributes (`pub`,
    /// `unsafe`, `extern "C"`).
    qualifiers: Vec<TokenTree>,
    /// Whether an `#[inline..]` attribute is among the item's own.
    has_inline: bool,
    /// The parameter list's tokens.
    params: TokenStream,
}

/// A generic kernel's parameters: its type parameters' names, and its
/// lifetime parameters as written (the wrappers keep them).
struct Generics {
    types: Vec<Ident>,
    lifetimes: Vec<Vec<TokenTree>>,
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
        let mut rest = &tokens[fn_pos + 2..];
        let generics = match rest.first() {
            Some(TokenTree::Punct(p)) if p.as_char() == '<' => {
                let close = matching_angle(rest).ok_or_else(|| (p.span(), "unclosed `<`".to_string()))?;
                let g = Generics::parse(&name, &rest[1..close])?;
                rest = &rest[close + 1..];
                Some(g)
            }
            _ => None,
        };
        if generics.is_none() {
            check_no_where(&name, rest)?;
        }
        check_unit_return(&name, rest)?;
        let params = match rest.first() {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => g.stream(),
            _ => return Err((name.span(), "expected a parameter list".into())),
        };
        let (mut qualifiers, mut has_inline) = (Vec::new(), false);
        let mut i = 0;
        while i < fn_pos {
            match (&tokens[i], tokens.get(i + 1)) {
                (TokenTree::Punct(p), Some(TokenTree::Group(g))) if p.as_char() == '#' => {
                    let first = g.stream().into_iter().next();
                    has_inline |= matches!(first, Some(TokenTree::Ident(id)) if id.to_string() == "inline");
                    i += 2;
                }
                (tt, _) => {
                    qualifiers.push(tt.clone());
                    i += 1;
                }
            }
        }
        Ok(KernelFn { name, generics, qualifiers, has_inline, params })
    }
}

impl Generics {
    /// `'a, T: Bound, U` (between the angle brackets): one or more type
    /// parameters; lifetimes kept; const parameters refused.
    fn parse(name: &Ident, tokens: &[TokenTree]) -> Result<Generics, ParseError> {
        let mut g = Generics { types: Vec::new(), lifetimes: Vec::new() };
        for param in split_top_commas(tokens) {
            match param.first() {
                Some(TokenTree::Punct(p)) if p.as_char() == '\'' => g.lifetimes.push(param),
                Some(TokenTree::Ident(id)) if id.to_string() == "const" => {
                    return Err((
                        id.span(),
                        format!(
                            "kernel `{name}`: const generic parameters are not supported; \
                             `instances(..)` names types only (a kernel may take the value as a parameter)"
                        ),
                    ))
                }
                Some(TokenTree::Ident(id)) => g.types.push(id.clone()),
                Some(tt) => return Err((tt.span(), "expected a generic parameter".into())),
                None => {}
            }
        }
        if g.types.is_empty() {
            // lifetimes only: an ordinary kernel
            return Err((
                name.span(),
                format!("kernel `{name}` has lifetime parameters only: write them in the parameter types (`&'a T`) or leave them out"),
            ));
        }
        Ok(g)
    }
}

/// Index of the `>` closing the `<` at `tokens[0]` (a `->` inside is no
/// bracket).
fn matching_angle(tokens: &[TokenTree]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, tt) in tokens.iter().enumerate() {
        if let TokenTree::Punct(p) = tt {
            match p.as_char() {
                '<' => depth += 1,
                '>' if !is_arrow_tail(tokens, i) => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

fn is_arrow_tail(tokens: &[TokenTree], i: usize) -> bool {
    i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(q) if q.as_char() == '-' && q.spacing() == Spacing::Joint)
}

/// `tokens` split at the commas outside angle brackets (groups are single
/// tokens already); empty pieces (a trailing comma) dropped.
fn split_top_commas(tokens: &[TokenTree]) -> Vec<Vec<TokenTree>> {
    let mut out = vec![Vec::new()];
    let mut depth = 0i32;
    for (i, tt) in tokens.iter().enumerate() {
        if let TokenTree::Punct(p) = tt {
            match p.as_char() {
                '<' => depth += 1,
                '>' if !is_arrow_tail(tokens, i) => depth -= 1,
                ',' if depth == 0 => {
                    out.push(Vec::new());
                    continue;
                }
                _ => {}
            }
        }
        out.last_mut().unwrap().push(tt.clone());
    }
    out.retain(|p| !p.is_empty());
    out
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

/// A non-generic kernel has no `where` clause either.
fn check_no_where(name: &Ident, rest: &[TokenTree]) -> Result<(), ParseError> {
    match rest.iter().find(|tt| matches!(tt, TokenTree::Ident(id) if id.to_string() == "where")) {
        None => Ok(()),
        Some(tt) => Err((tt.span(), format!("kernel `{name}` has a `where` clause but no type parameters"))),
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
        .take_while(|tt| !matches!(tt, TokenTree::Ident(id) if id.to_string() == "where"))
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

/// `instances(f32, my::Pair)` or, for several type parameters,
/// `instances((f32, u32), (f64, u64))`: each instance's types.
struct Instances {
    span: Span,
    list: Vec<Instance>,
}

struct Instance {
    /// One type per type parameter, each a type path.
    types: Vec<Vec<TokenTree>>,
    /// What the instance adds to the kernel's name: `_f32`, `_Pair`,
    /// `_f32_u32`.
    suffix: String,
    span: Span,
}

impl Instances {
    fn parse(span: Span, args: TokenStream) -> Result<Instances, ParseError> {
        let tokens: Vec<TokenTree> = args.into_iter().collect();
        let mut list = Vec::new();
        for piece in split_top_commas(&tokens) {
            let span = piece[0].span();
            let types = match piece.as_slice() {
                [TokenTree::Group(g)] if g.delimiter() == Delimiter::Parenthesis => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    split_top_commas(&inner)
                }
                _ => vec![piece],
            };
            let mut suffix = String::new();
            for ty in &types {
                suffix.push('_');
                suffix.push_str(&type_path_name(ty)?);
            }
            list.push(Instance { types, suffix, span });
        }
        if list.is_empty() {
            return Err((span, "`instances(..)` needs at least one type: `instances(f32, f64)`".into()));
        }
        Ok(Instances { span, list })
    }
}

/// The name part of an instance type: the last path segment, its generic
/// arguments' names appended (`my::Pair` → `Pair`, `Wrap<f32>` →
/// `Wrap_f32`). Only type paths are instance types.
fn type_path_name(ty: &[TokenTree]) -> Result<String, ParseError> {
    let refuse = |span: Span| {
        Err((
            span,
            "an instance type must be a type path (`f32`, `my::Pair`, `Wrap<f32>`); \
             name another type with an alias (`type F32x4 = [f32; 4];`) and list the alias"
                .to_string(),
        ))
    };
    // the last segment: after the last `::` outside angle brackets
    let mut depth = 0i32;
    let mut start = 0;
    for (i, tt) in ty.iter().enumerate() {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
            TokenTree::Punct(p) if p.as_char() == '>' && !is_arrow_tail(ty, i) => depth -= 1,
            TokenTree::Punct(p) if p.as_char() == ':' && depth == 0 => start = i + 1,
            TokenTree::Ident(_) | TokenTree::Punct(_) => {}
            TokenTree::Group(_) if depth > 0 => {}
            tt => return refuse(tt.span()),
        }
    }
    let seg = &ty[start..];
    let mut name = match seg.first() {
        Some(TokenTree::Ident(id)) => {
            let s = id.to_string();
            if s == "dyn" || s == "impl" || s == "fn" || s == "unsafe" || s == "extern" {
                return refuse(id.span());
            }
            s.trim_start_matches("r#").to_string()
        }
        Some(tt) => return refuse(tt.span()),
        None => return refuse(ty.last().map_or_else(Span::call_site, |t| t.span())),
    };
    match seg.get(1) {
        None => {}
        Some(TokenTree::Punct(p)) if p.as_char() == '<' => {
            let mut words = Vec::new();
            collect_words(&seg[1..], &mut words);
            for w in words {
                name.push('_');
                name.push_str(&w);
            }
        }
        Some(tt) => return refuse(tt.span()),
    }
    Ok(name)
}

/// The identifiers and literals of `tokens`, in order, each sanitized to
/// `[A-Za-z0-9_]` (`Wrap<my::A, 4>` → `my`, `A`, `4`).
fn collect_words(tokens: &[TokenTree], out: &mut Vec<String>) {
    for tt in tokens {
        match tt {
            TokenTree::Ident(id) => out.push(id.to_string().trim_start_matches("r#").to_string()),
            TokenTree::Literal(l) => {
                out.push(l.to_string().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect())
            }
            TokenTree::Group(g) => collect_words(&g.stream().into_iter().collect::<Vec<_>>(), out),
            TokenTree::Punct(_) => {}
        }
    }
}

/// A generic kernel and its instances: the generic function as written
/// (with `#[inline(always)]` unless it says otherwise), then per instance
/// a `#[no_mangle]` function `name_suffix` with the instance's parameter
/// types that calls `name::<types>`, and its marker constant. rustc's MIR
/// inliner puts the generic body, monomorphic, into each wrapper, so
/// mir-export sees ordinary kernels.
fn expand_instances(
    f: &KernelFn,
    g: &Generics,
    inst: &Instances,
    attrs: &str,
    item: TokenStream,
) -> Result<TokenStream, ParseError> {
    let name = f.name.to_string();
    let params = params_of(&f.params)?;
    let mut out = TokenStream::new();
    if !f.has_inline {
        out.extend("#[inline(always)]".parse::<TokenStream>().unwrap());
    }
    out.extend(item);
    let mut seen: Vec<(String, String)> = Vec::new();
    for i in &inst.list {
        if i.types.len() != g.types.len() {
            let tparams: Vec<String> = g.types.iter().map(|t| t.to_string()).collect();
            let msg = if g.types.len() == 1 {
                format!(
                    "kernel `{name}` has one type parameter (`{}`): an instance is one type path, \
                     not a tuple (name a tuple type with an alias: `type Pair = (f32, u32);`)",
                    tparams[0]
                )
            } else {
                format!(
                    "kernel `{name}` has {} type parameters ({}): each instance is a parenthesized list of {} types, \
                     e.g. `instances((f32, u32))`",
                    g.types.len(),
                    tparams.join(", "),
                    g.types.len()
                )
            };
            return Err((i.span, msg));
        }
        let wname = format!("{name}{}", i.suffix);
        let text: String = i
            .types
            .iter()
            .map(|t| t.iter().cloned().collect::<TokenStream>().to_string().replace(" :: ", "::").replace(":: ", "::"))
            .collect::<Vec<_>>()
            .join(", ");
        if let Some((_, other)) = seen.iter().find(|(n, _)| *n == wname) {
            return Err((
                i.span,
                format!(
                    "instances `{other}` and `{text}` of kernel `{name}` both make the kernel `{wname}` \
                     (an instance's name is the kernel's and each type's last path segment); \
                     list one through a `type` alias of another name"
                ),
            ));
        }
        seen.push((wname.clone(), text));
        out.extend(wrapper(f, g, i, &params, &wname, attrs));
    }
    Ok(out)
}

/// One parameter: the name the wrapper gives it and its type's tokens.
struct Param {
    name: Ident,
    ty: Vec<TokenTree>,
}

/// `a: T, mut y: DisjointSlice<T>, (p, q): (T, T)` → names (`a`, `y`, and
/// `__oxide_p2` for a pattern) and types.
fn params_of(params: &TokenStream) -> Result<Vec<Param>, ParseError> {
    let tokens: Vec<TokenTree> = params.clone().into_iter().collect();
    let mut out = Vec::new();
    for (k, p) in split_top_commas(&tokens).into_iter().enumerate() {
        let colon = (0..p.len()).find(|&j| {
            matches!(&p[j], TokenTree::Punct(c) if c.as_char() == ':')
                && !matches!(&p[j], TokenTree::Punct(c) if c.spacing() == Spacing::Joint)
                && !(j > 0 && matches!(&p[j - 1], TokenTree::Punct(c) if c.as_char() == ':' && c.spacing() == Spacing::Joint))
        });
        let Some(colon) = colon else {
            return Err((p[0].span(), "expected `name: Type`".into()));
        };
        let pat = &p[..colon];
        let name = match pat {
            [TokenTree::Ident(id)] if id.to_string() != "_" => id.clone(),
            [TokenTree::Ident(m), TokenTree::Ident(id)] if m.to_string() == "mut" => id.clone(),
            _ => Ident::new(&format!("__oxide_p{k}"), p[0].span()),
        };
        out.push(Param { name, ty: p[colon + 1..].to_vec() });
    }
    Ok(out)
}

/// `ty` with each type parameter replaced by the instance's type.
fn substitute(ty: &[TokenTree], g: &Generics, inst: &Instance) -> TokenStream {
    let mut out = TokenStream::new();
    for tt in ty {
        match tt {
            TokenTree::Ident(id) => match g.types.iter().position(|t| t.to_string() == id.to_string()) {
                Some(k) => out.extend(inst.types[k].iter().cloned()),
                None => out.extend([tt.clone()]),
            },
            TokenTree::Group(grp) => {
                let inner: Vec<TokenTree> = grp.stream().into_iter().collect();
                let mut ng = Group::new(grp.delimiter(), substitute(&inner, g, inst));
                ng.set_span(grp.span());
                out.extend([TokenTree::Group(ng)]);
            }
            _ => out.extend([tt.clone()]),
        }
    }
    out
}

fn wrapper(f: &KernelFn, g: &Generics, inst: &Instance, params: &[Param], wname: &str, attrs: &str) -> TokenStream {
    let span = inst.span;
    let mut out: TokenStream = "#[unsafe(no_mangle)] #[allow(non_snake_case)]".parse().unwrap();
    out.extend(f.qualifiers.iter().cloned());
    out.extend([TokenTree::Ident(Ident::new("fn", span)), TokenTree::Ident(Ident::new(wname, span))]);
    if !g.lifetimes.is_empty() {
        let mut lt = TokenStream::new();
        for (k, l) in g.lifetimes.iter().enumerate() {
            if k > 0 {
                lt.extend([punct(',', Spacing::Alone, span)]);
            }
            lt.extend(l.iter().cloned());
        }
        out.extend([punct('<', Spacing::Alone, span)]);
        out.extend(lt);
        out.extend([punct('>', Spacing::Alone, span)]);
    }
    let mut sig = TokenStream::new();
    let mut args = TokenStream::new();
    for p in params {
        sig.extend([TokenTree::Ident(p.name.clone()), punct(':', Spacing::Alone, span)]);
        sig.extend(substitute(&p.ty, g, inst));
        sig.extend([punct(',', Spacing::Alone, span)]);
        args.extend([TokenTree::Ident(p.name.clone()), punct(',', Spacing::Alone, span)]);
    }
    out.extend([TokenTree::Group(Group::new(Delimiter::Parenthesis, sig))]);
    // the call: name::<types>(args)
    let mut call = TokenStream::new();
    call.extend([
        TokenTree::Ident(f.name.clone()),
        punct(':', Spacing::Joint, span),
        punct(':', Spacing::Alone, span),
        punct('<', Spacing::Alone, span),
    ]);
    for (k, t) in inst.types.iter().enumerate() {
        if k > 0 {
            call.extend([punct(',', Spacing::Alone, span)]);
        }
        call.extend(t.iter().cloned());
    }
    call.extend([punct('>', Spacing::Alone, span), TokenTree::Group(Group::new(Delimiter::Parenthesis, args))]);
    let is_unsafe = f.qualifiers.iter().any(|t| matches!(t, TokenTree::Ident(id) if id.to_string() == "unsafe"));
    let body = if is_unsafe {
        let mut b: TokenStream = "unsafe".parse().unwrap();
        b.extend([TokenTree::Group(Group::new(Delimiter::Brace, call))]);
        b
    } else {
        call
    };
    out.extend([TokenTree::Group(Group::new(Delimiter::Brace, body))]);
    let marker = format!(
        "#[allow(non_upper_case_globals)] #[doc(hidden)] \
         pub const __OXIDE_KERNEL_{wname}: &str = \"{wname}{attrs}\";"
    );
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
