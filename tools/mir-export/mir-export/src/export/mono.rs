//! Monomorphic instances of generic functions that rustc did not inline
//! (`#[inline(never)]`, recursion). rustc prints such a body only in
//! generic form (`fn rotate_mix(_1: T, _2: T) -> u64`) and never the
//! instances that codegen would make, so an instance is made here: the
//! generic body's MIR text with each type parameter replaced by the call's
//! type argument, parsed again. Calls in it to core trait methods on
//! primitives (`<u8 as Into<u64>>::into`) become MIR operations
//! (callee.rs `PrimOp`); anything else it calls must resolve like any
//! other call, or the export fails naming it.

use crate::mirparse::ast::{Body, GenericArg, Path};
use crate::mirparse::parse_mir_file;

/// The text of body `name` (`fn name(` at the start of a line, or an
/// inline constant's `name: T = {`, to the `}` that closes it), skipping
/// `// MIR FOR CTFE` copies.
pub fn body_text<'t>(mir_text: &'t str, name: &str) -> Option<&'t str> {
    let head = format!("fn {name}(");
    let const_head = format!("{name}: ");
    let mut offset = 0;
    let mut prev_line = "";
    for line in mir_text.split_inclusive('\n') {
        let starts = line.starts_with(&head) || (line.starts_with(&const_head) && line.trim_end().ends_with("= {"));
        if starts && prev_line.trim() != "// MIR FOR CTFE" {
            let rest = &mir_text[offset..];
            let end = rest.find("\n}\n").map(|e| e + 3).or_else(|| rest.find("\n}").map(|e| e + 2))?;
            return Some(&rest[..end]);
        }
        offset += line.len();
        if !line.trim().is_empty() {
            prev_line = line;
        }
    }
    None
}

/// `text` with every identifier `from` that is not a path's later
/// segment (`x::T`) replaced by `to`.
fn replace_ident(text: &str, from: &str, to: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut prev: Option<char> = None;
    let mut prev2: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with(from)
            && !prev.is_some_and(is_ident)
            && !rest[from.len()..].starts_with(is_ident)
            && !(prev == Some(':') && prev2 == Some(':'))
        {
            out.push_str(to);
            rest = &rest[from.len()..];
            prev2 = prev;
            prev = from.chars().last();
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
        prev2 = prev;
        prev = Some(c);
    }
    out
}

/// The generic parameters of `fn name<..>` in its source text (the
/// signature's lines), in order: type and const parameters, without
/// lifetimes.
pub fn generic_params(signature: &str, name: &str) -> Option<Vec<String>> {
    // the last `fn name` that is not a longer name's start (the lines
    // before `fn small_sort<F>` hold `fn small_sort_threshold()`)
    let head = format!("fn {name}");
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let at = signature.match_indices(&head).map(|(k, _)| k + head.len()).filter(|&e| !signature[e..].starts_with(is_ident)).last()?;
    let rest = signature[at..].trim_start();
    let rest = rest.strip_prefix('<')?;
    let mut depth = 1;
    let mut end = None;
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
            b'<' => depth += 1,
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i);
                    break;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let list = &rest[..end?];
    let mut params = Vec::new();
    let mut depth = 0i32;
    let mut item = String::new();
    let mut items = Vec::new();
    let mut prev = ' ';
    for c in list.chars() {
        let arrow = c == '>' && prev == '-';
        prev = c;
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' if arrow => {}
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items.push(item);
    for it in items {
        let it = it.trim();
        if it.is_empty() || it.starts_with('\'') {
            continue;
        }
        let it = it.strip_prefix("const ").unwrap_or(it);
        let name: String = it.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            return None;
        }
        params.push(name);
    }
    Some(params)
}

/// The type and const arguments of a call's path (`f::<u8, 3_usize>`)
/// as MIR prints them.
pub fn call_args(path: &Path) -> Vec<String> {
    arg_texts(path.all_args())
}

/// The type and const arguments of a call of a fn item that bind its
/// own parameters: `call_args` less the parent parameters rustc prints
/// for a fn nested in a generic impl's method (ast.rs `Path::fn_item_args`).
pub fn fn_call_args(path: &Path) -> Vec<String> {
    arg_texts(path.fn_item_args())
}

/// Type and const arguments as MIR prints them, lifetimes left out.
fn arg_texts<'p>(args: impl Iterator<Item = &'p GenericArg>) -> Vec<String> {
    args.filter_map(|a| match a {
        GenericArg::Type(t) => Some(t.to_string()),
        GenericArg::Const(c) => Some(c.clone()),
        GenericArg::Lifetime => None,
    })
    .collect()
}

/// Instance `inst_name` of generic body `generic` with `params` bound to
/// `args`.
pub fn instantiate(mir_text: &str, generic: &str, params: &[String], args: &[String], inst_name: &str) -> Result<Body, String> {
    parse_instance(&substitute(mir_text, generic, params, args)?, inst_name)
}

/// The MIR text of generic body `generic` with `params` bound to `args`.
pub fn substitute(mir_text: &str, generic: &str, params: &[String], args: &[String]) -> Result<String, String> {
    let text = body_text(mir_text, generic).ok_or_else(|| format!("the MIR text of `{generic}` was not found"))?;
    if params.len() != args.len() {
        return Err(format!(
            "`{generic}` has {} generic parameters in its source, the call gives {} arguments",
            params.len(),
            args.len()
        ));
    }
    // the enclosing item's parameters that an item declared in a generic
    // function is printed with stay as they are (ast.rs
    // `Path::declared_in_generic`)
    let (mut text, parents) = mask_parent_params(text);
    // (a parameter named like an argument's part would be replaced twice:
    // through placeholders). An argument-position `impl Trait` first, the
    // longest first: its text names the others (`impl FnMut(Acc, B) -> R`)
    let mut order: Vec<usize> = (0..params.len()).collect();
    order.sort_by_key(|&k| match params[k].starts_with("impl ") {
        true => (0, usize::MAX - params[k].len()),
        false => (1, k),
    });
    for k in order {
        let p = &params[k];
        text = if p.starts_with("impl ") {
            text.replace(p.as_str(), &format!("__OXIDE_GENERIC_{k}__"))
        } else {
            replace_ident(&text, p, &format!("__OXIDE_GENERIC_{k}__"))
        };
    }
    for (k, a) in args.iter().enumerate() {
        text = text.replace(&format!("__OXIDE_GENERIC_{k}__"), a);
    }
    for (k, g) in parents.iter().enumerate() {
        text = text.replace(&format!("__OXIDE_PARENT_{k}__"), g);
    }
    Ok(text)
}

/// `text` with the generic arguments of every path segment that two more
/// segments follow, and that are all parameters, replaced by placeholders
/// `__OXIDE_PARENT_k__` (the k-th of the returned texts): the enclosing
/// impl's own parameters that rustc prints in the path of an item declared
/// inside one of its methods (`arrayvec::ArrayVec<T, CAP>::retain::
/// BackshiftOnDrop<'_, T, CAP>`: `<T, CAP>` is masked, the last `<'_, T,
/// CAP>` is not). Such arguments never stand for the instance's: its
/// `BackshiftOnDrop<'_, u32, 16>` is still printed `ArrayVec<T, CAP>::retain::..`.
fn mask_parent_params(text: &str) -> (String, Vec<String>) {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(text.len());
    let mut groups: Vec<String> = Vec::new();
    let (mut i, mut copied) = (0, 0);
    while i < b.len() {
        let after_name = i > 0 && (ident(b[i - 1]) || (i > 2 && &b[i - 2..i] == b"::" && ident(b[i - 3])));
        if b[i] == b'<' && !after_name {
            // a trait path `<X<T, A> as Tr>::m::Item`: an item declared in a
            // trait impl's method, printed with the impl's parameters
            if let Some(close) = parent_qself_end(b, i) {
                out.push_str(&text[copied..i]);
                out.push_str(&format!("__OXIDE_PARENT_{}__", groups.len()));
                groups.push(text[i..=close].to_string());
                copied = close + 1;
                i = close + 1;
                continue;
            }
        }
        if b[i] != b'<' || !after_name {
            i += 1;
            continue;
        }
        let Some(close) = closing_angle(b, i) else {
            i += 1;
            continue;
        };
        // `::name::name` after it: two more segments
        let rest = &b[close + 1..];
        let two_more = segment_len(rest).is_some_and(|n| segment_len(&rest[n..]).is_some());
        if params_only(&text[i + 1..close]) && two_more {
            out.push_str(&text[copied..i]);
            out.push_str(&format!("__OXIDE_PARENT_{}__", groups.len()));
            groups.push(text[i..=close].to_string());
            copied = close + 1;
        }
        i = close + 1;
    }
    out.push_str(&text[copied..]);
    (out, groups)
}

/// The index of the `>` that closes the trait path opened at `b[open]`
/// (`<X<T, A> as Tr>`) when it is an enclosing impl's, printed for an item
/// declared in one of its methods: an `as`, every generic argument list
/// inside of parameters only, and two more segments after it, the last not
/// a promoted (`::drop::DropGuard`; a promoted inherits the parameters).
fn parent_qself_end(b: &[u8], open: usize) -> Option<usize> {
    let close = closing_angle(b, open)?;
    let inner = std::str::from_utf8(&b[open + 1..close]).ok()?;
    if !inner.contains(" as ") {
        return None;
    }
    // every `<..>` inside: parameters only
    let ib = inner.as_bytes();
    let mut k = 0;
    let mut any = false;
    while k < ib.len() {
        if ib[k] == b'<' {
            let end = ib[k..].iter().position(|&c| c == b'>').map(|e| k + e)?;
            let list = &inner[k + 1..end];
            if list.contains('<') {
                return None;
            }
            if !params_only(list) {
                return None;
            }
            any = true;
            k = end;
        }
        k += 1;
    }
    let rest = &b[close + 1..];
    let first = segment_len(rest)?;
    let second = segment_len(&rest[first..])?;
    (any && rest.get(first + second) != Some(&b'[')).then_some(close)
}

/// The index of the `>` that closes the `<` at `b[open]`, on the same
/// line (`->` of a fn pointer is no bracket).
fn closing_angle(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (k, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'\n' => return None,
            b'<' => depth += 1,
            b'>' if b[k - 1] != b'-' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether a generic argument list's text (`T, CAP`, `'_, T`) holds
/// parameters only: lifetimes and identifiers, no types or values.
fn params_only(list: &str) -> bool {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    list.split(',').map(str::trim).all(|a| {
        let a = a.strip_prefix('\'').unwrap_or(a);
        !a.is_empty() && !a.as_bytes()[0].is_ascii_digit() && a.bytes().all(ident)
    })
}

/// The length of the path segment `::name` that `r` begins with.
fn segment_len(r: &[u8]) -> Option<usize> {
    let r2 = r.strip_prefix(b"::")?;
    let n = r2.iter().take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_').count();
    (n > 0 && !r2[0].is_ascii_digit()).then_some(n + 2)
}

/// Instance `inst_name` from its substituted MIR `text`.
pub fn parse_instance(text: &str, inst_name: &str) -> Result<Body, String> {
    let file = parse_mir_file(text).map_err(|e| format!("the instance `{inst_name}` does not parse: {}", e.msg))?;
    let mut body = file.bodies.into_iter().next().ok_or_else(|| format!("no body in the instance `{inst_name}`"))?;
    body.name = inst_name.to_string();
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_from_signatures() {
        assert_eq!(generic_params("fn rotate_mix<T: Copy + Into<u64>>(a: T, b: T) -> u64 {", "rotate_mix").unwrap(), ["T"]);
        assert_eq!(
            generic_params("pub fn f<'a, A, F: Fn(u32) -> u32, const N: usize>(x: &'a [A; N], f: F)", "f").unwrap(),
            ["A", "F", "N"]
        );
        assert_eq!(generic_params("fn g(x: u32)", "g"), None);
        // a longer name before it is another function
        let sig = "    fn small_sort_threshold() -> usize {\n    }\n    fn small_sort<F>(v: &mut [T], is_less: &mut F)";
        assert_eq!(generic_params(sig, "small_sort").unwrap(), ["F"]);
    }

    #[test]
    fn replaces_identifiers_only() {
        assert_eq!(
            replace_ident("_1: T, <T as Into<u64>>::into, Tx, x::T, (T)", "T", "u8"),
            "_1: u8, <u8 as Into<u64>>::into, Tx, x::T, (u8)"
        );
    }

    #[test]
    fn parent_parameters_stay() {
        let text = "fn arrayvec::<impl at /a.rs:63:1: 63:43>::retain::<impl at /a.rs:477:9: 477:71>::drop(_1: \
                    &mut arrayvec::ArrayVec<T, CAP>::retain::BackshiftOnDrop<'_, T, CAP>) -> () {\n\
                    \x20   _2 = arrayvec::ArrayVec::<T, CAP>::retain::BackshiftOnDrop::<'_, T, CAP> { v: copy _3 };\n\
                    \x20   _4 = arrayvec::ArrayVec::<T, CAP>::len(copy _5) -> [return: bb1, unwind: bb2];\n\
                    \x20   _6 = core::option::Option::<T>::Some(copy _7);\n}\n";
        let name = "arrayvec::<impl at /a.rs:63:1: 63:43>::retain::<impl at /a.rs:477:9: 477:71>::drop";
        let out = substitute(text, name, &["T".into(), "CAP".into()], &["u32".into(), "16".into()]).unwrap();
        assert!(out.contains("(_1: &mut arrayvec::ArrayVec<T, CAP>::retain::BackshiftOnDrop<'_, u32, 16>) -> ()"), "{out}");
        assert!(out.contains("_2 = arrayvec::ArrayVec::<T, CAP>::retain::BackshiftOnDrop::<'_, u32, 16> {"), "{out}");
        // a method of the type, a variant: real arguments
        assert!(out.contains("_4 = arrayvec::ArrayVec::<u32, 16>::len(") && out.contains("Option::<u32>::Some"), "{out}");
    }

    #[test]
    fn parent_trait_paths_stay() {
        let text = "fn f(_1: &mut <alloc::vec::IntoIter<T, A> as core::ops::Drop>::drop::DropGuard<'_, T, A>) -> () {\n\
                    \x20   _2 = <alloc::vec::IntoIter<T, A> as core::ops::Drop>::drop(move _3);\n\
                    \x20   _4 = const <X<T> as Tr>::m::promoted[0];\n}\n";
        let out = substitute(text, "f", &["T".into(), "A".into()], &["u32".into(), "G".into()]).unwrap();
        assert!(out.contains("(_1: &mut <alloc::vec::IntoIter<T, A> as core::ops::Drop>::drop::DropGuard<'_, u32, G>)"), "{out}");
        // a call of the method itself, a promoted: real arguments
        assert!(out.contains("_2 = <alloc::vec::IntoIter<u32, G> as core::ops::Drop>::drop(") && out.contains("<X<u32> as Tr>::m::promoted[0]"), "{out}");
    }

    #[test]
    fn finds_body_text() {
        let mir = "// MIR FOR CTFE\nfn f(_1: T) -> T {\n    a\n}\n\nfn f(_1: T) -> T {\n    b\n}\n\nfn g() -> () {\n}\n";
        assert_eq!(body_text(mir, "f").unwrap(), "fn f(_1: T) -> T {\n    b\n}\n");
        // an inline constant's body
        let mir = "p::f::{constant#0}: fn(T) -> T = {\n    c\n}\n\nfn p::f(_1: T) -> T {\n    d\n}\n";
        assert_eq!(body_text(mir, "p::f::{constant#0}").unwrap(), "p::f::{constant#0}: fn(T) -> T = {\n    c\n}\n");
    }
}
