//! The closures a library instance builds, renamed from their span to
//! their parent's instance. core's MIR prints a closure of a generic body
//! by its span (`{closure@/../enumerate.rs:118:13: 118:29}`): one name for
//! every instantiation, whose captures and body differ with the parent's
//! generic arguments. In a library instance's substituted text (mono.rs),
//! each such closure that the text builds (an aggregate, with its
//! `// + def_id: DefId(.. ~ core[..]::PARENT::{closure#N})` comment) is
//! renamed `{closure@PARENT<ARGS>::{closure#N}}`, as rustc prints a
//! closure in a monomorphic body, where `PARENT<ARGS>` is the parent's
//! instance: the instance itself, or the one scope of the text that
//! inlined the parent (`scope 1 (inlined <Enumerate<I> as
//! Iterator>::try_fold::enumerate::<'_, T, Acc, R, Fold>)`, its arguments
//! substituted with the instance's). closures.rs then finds its body
//! (`library_closure`) like any closure of a library named by path. A
//! closure whose parent is inlined in two scopes with different arguments
//! keeps its span name (no one name is right; a call of it stays
//! unresolved, saying so).

use crate::mirparse::lexer::matching_close;

/// `text` (library instance `inst`'s substituted MIR) with each closure
/// it builds that is printed by an absolute span renamed after its
/// parent's instance.
pub fn rename_span_closures(text: &str, inst: &str) -> String {
    let mut out = text.to_string();
    for (closure, parent_tail, n) in built_span_closures(text) {
        let Some(parent) = parent_instance(text, inst, &parent_tail) else { continue };
        let name = format!("{{closure@{}::{{closure#{n}}}}}", without_turbofish(&parent));
        out = out.replace(&closure, &name);
    }
    out
}

/// (closure type as printed, its parent's path tail, N) of each aggregate
/// of a span-printed library closure in `text`: the tail is the parent's
/// last two segments, or those after an `{impl#K}` (`try_fold::enumerate`
/// of `..::enumerate::{impl#1}::try_fold::enumerate`: `fold` has an
/// `enumerate` of its own).
fn built_span_closures(text: &str) -> Vec<(String, String, u32)> {
    let mut found: Vec<(String, String, u32)> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = line.find(" = {closure@/") else { continue };
        let Some(closure) = balanced(&line[at + 3..]) else { continue };
        if !closure.contains(".rs:") {
            continue;
        }
        let def = lines[i + 1..].iter().take(3).find_map(|l| l.trim().strip_prefix("// + def_id: DefId("));
        let Some(def_path) = def.and_then(|d| d.split_once(" ~ ")).map(|(_, p)| p.trim_end_matches(')')) else { continue };
        let Some((parent, n)) = def_path.rsplit_once("::{closure#") else { continue };
        let Some(n) = n.strip_suffix('}').and_then(|n| n.parse().ok()) else { continue };
        let segs: Vec<&str> = parent.rsplit("::").take_while(|s| !s.starts_with('{')).take(2).collect();
        if segs.is_empty() || found.iter().any(|f| f.0 == closure) {
            continue; // a closure inside a closure or a constant: not yet
        }
        let tail = segs.into_iter().rev().collect::<Vec<_>>().join("::");
        found.push((closure.to_string(), tail, n));
    }
    found
}

/// The instance of the closure's parent (path tail `tail`): the one scope
/// of `text` that inlined it, else `inst` when that is the parent; None
/// when neither, or when two scopes inlined it with different arguments.
fn parent_instance(text: &str, inst: &str, tail: &str) -> Option<String> {
    let mut scopes: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once("(inlined ").map(|(_, r)| r))
        .filter_map(|r| r.rfind(") {").map(|e| &r[..e]))
        .filter(|p| names(p, tail))
        .collect();
    scopes.sort_unstable();
    scopes.dedup();
    match scopes.as_slice() {
        [one] => Some(one.to_string()),
        [] => names(inst, tail).then(|| inst.to_string()),
        _ => None,
    }
}

/// Whether printed path `path` (`<A as T>::f::g::<'_, u8>`) names a
/// function whose path ends with `tail` (`f::g`).
fn names(path: &str, tail: &str) -> bool {
    let head = match last_turbofish(path) {
        Some(i) => &path[..i],
        None => path,
    };
    head == tail || head.ends_with(&format!("::{tail}"))
}

/// Where the generic arguments of a printed path's last segment start
/// (its `::<`, outside any `<..>` and not in a `->`), when it ends with
/// them.
fn last_turbofish(path: &str) -> Option<usize> {
    if !path.ends_with('>') {
        return None;
    }
    let b = path.as_bytes();
    let mut depth = 0i32;
    let mut last = None;
    for i in 0..b.len() {
        match b[i] {
            b'<' => {
                if depth == 0 && i >= 2 && &b[i - 2..i] == b"::" {
                    last = Some(i - 2);
                }
                depth += 1;
            }
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' => depth -= 1,
            _ => {}
        }
    }
    last
}

/// `a::f::<T, U>` → `a::f<T, U>` (a closure's parent as rustc prints it).
fn without_turbofish(path: &str) -> String {
    match last_turbofish(path) {
        Some(i) => format!("{}{}", &path[..i], &path[i + 2..]),
        None => path.to_string(),
    }
}

/// The `{..}` at the start of `s`, braces balanced.
fn balanced(s: &str) -> Option<&str> {
    matching_close(s, '{', '}').map(|n| &s[..n])
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPAN: &str = "{closure@/l/core/src/iter/adapters/enumerate.rs:118:13: 118:29}";

    /// Enumerate::try_fold's instance, `enumerate` inlined into it
    fn try_fold_text(scopes: &[&str]) -> String {
        let scopes: String = scopes.iter().map(|s| format!(" scope 1 (inlined {s}) {{ // at x\n }}\n")).collect();
        format!(
            "fn <core::iter::Enumerate<I> as core::iter::Iterator>::try_fold(_1: &mut u8, _2: (), _3: F) -> R {{\n \
             let mut _5: {SPAN}; // in scope 0 at /l/e.rs:1:1: 1:2\n{scopes}\n bb0: {{\n \
             _5 = {SPAN} {{ fold: copy _3, count: copy _6 }}; // scope 1 at -\n // closure\n \
             // + def_id: DefId(0:7333 ~ core[1eb9]::iter::adapters::enumerate::{{impl#1}}::try_fold::enumerate::{{closure#0}})\n \
             _0 = <I as core::iter::Iterator>::try_fold::<(), {SPAN}, R>(move _4, move _2, move _5) -> [return: bb1, unwind unreachable];\n }}\n}}\n"
        )
    }

    #[test]
    fn a_closure_built_in_an_inlined_parent_is_named_by_that_instance() {
        let parent = "<core::iter::Enumerate<core::slice::Iter<'_, u64>> as core::iter::Iterator>::try_fold::enumerate::<'_, &u64, (), core::ops::ControlFlow<u8>, {closure@src/lib.rs:3:4: 3:9}>";
        let text = try_fold_text(&[parent]);
        let out = rename_span_closures(&text, "<core::iter::Enumerate<core::slice::Iter<'_, u64>> as core::iter::Iterator>::try_fold::<(), F, R>");
        let name = "{closure@<core::iter::Enumerate<core::slice::Iter<'_, u64>> as core::iter::Iterator>::try_fold::enumerate<'_, &u64, (), core::ops::ControlFlow<u8>, {closure@src/lib.rs:3:4: 3:9}>::{closure#0}}";
        assert!(!out.contains(SPAN), "{out}");
        assert_eq!(out.matches(name).count(), 3, "{out}");
        // the kernel's own closure, printed by a relative span, stays
        assert!(out.contains("{closure@src/lib.rs:3:4: 3:9}>::{closure#0}}"));
    }

    #[test]
    fn a_closure_of_the_instance_itself_and_ambiguous_parents() {
        // not inlined: the instance is the parent
        let text = try_fold_text(&[]);
        let inst = "<core::iter::Enumerate<I> as core::iter::Iterator>::try_fold::enumerate::<'_, u8, (), R, fn() -> u8>";
        let out = rename_span_closures(&text, inst);
        assert!(out.contains("{closure@<core::iter::Enumerate<I> as core::iter::Iterator>::try_fold::enumerate<'_, u8, (), R, fn() -> u8>::{closure#0}} {"), "{out}");
        // neither: left as it is (a call of it stays unresolved, saying so)
        assert_eq!(rename_span_closures(&text, "core::iter::other::<u8>"), text);
        // `fold`'s own `enumerate` is another function
        assert_eq!(rename_span_closures(&text, "<core::iter::Enumerate<I> as core::iter::Iterator>::fold::enumerate::<u8>"), text);
        // two instances of the parent inlined: no one name, left as it is
        let text2 = try_fold_text(&["<E as I>::try_fold::enumerate::<u8>", "<E as I>::try_fold::enumerate::<u16>"]);
        assert_eq!(rename_span_closures(&text2, "x"), text2);
        // one of them and `fold`'s: the one of `try_fold`
        let text3 = try_fold_text(&["<E as I>::try_fold::enumerate::<u8>", "<E as I>::fold::enumerate::<u16>"]);
        assert!(rename_span_closures(&text3, "x").contains("{closure@<E as I>::try_fold::enumerate<u8>::{closure#0}} {"));
        assert!(names("<A<u8> as T>::f::g::<'_, fn(u8) -> u8, b::c::<u8>>", "f::g"));
        assert!(!names("<A<u8> as T>::h::g::<'_, u8>", "f::g"));
        assert_eq!(without_turbofish("a::b::<c::d::<u8>, fn() -> u8>"), "a::b<c::d::<u8>, fn() -> u8>");
    }
}
