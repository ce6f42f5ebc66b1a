//! `use` items read into the bindings they make: one entry per leaf of
//! the use tree, its path as written (`crate`, `self`, `super` kept; a
//! leading `::` dropped; a group's `self` kept as the last segment), its
//! `as` name, and whether it is a glob (`a::*`, the path then being the
//! module's). Both readers of dependency and core sources use it:
//! library.rs (`root_items`: a crate root's `pub use` re-exports) and
//! export/srcnames.rs (a module's scope). Input is the tokens of
//! `library::tokens` between `use` and `;` (`::` as two `:`).

/// One binding of a `use` item.
#[derive(Clone, Debug, PartialEq)]
pub struct UseEntry {
    /// The path as written (`["super", "d", "self"]` for `super::d::{self}`).
    pub path: Vec<String>,
    /// The name after `as` (`_` included).
    pub alias: Option<String>,
    /// `path::*`: every public name of the module `path`.
    pub glob: bool,
}

impl UseEntry {
    /// The path the entry names, a group's `self` taken off
    /// (`super::d` for `super::d::{self}`).
    pub fn target(&self) -> &[String] {
        match self.path.split_last() {
            Some((last, up)) if last == "self" && !up.is_empty() => up,
            _ => &self.path,
        }
    }

    /// Whether the entry is a group's `self` (`a::{self}`, `a::{self as b}`).
    pub fn is_self(&self) -> bool {
        self.path.len() > 1 && self.path.last().is_some_and(|s| s == "self")
    }

    /// The name the entry binds: its alias, else the last segment of its
    /// target; None for a glob.
    pub fn name(&self) -> Option<&str> {
        if self.glob {
            return None;
        }
        self.alias.as_deref().or_else(|| self.target().last().map(String::as_str))
    }
}

/// The entries of a use tree (tokens between `use` and `;`).
pub fn parse_use(toks: &[&str]) -> Vec<UseEntry> {
    let mut out = Vec::new();
    let mut pos = 0;
    while toks.get(pos) == Some(&":") {
        pos += 1;
    }
    tree(toks, &mut pos, &[], &mut out);
    out
}

/// One use tree at `pos` under `prefix`.
fn tree(t: &[&str], pos: &mut usize, prefix: &[String], out: &mut Vec<UseEntry>) {
    let mut path = prefix.to_vec();
    loop {
        match t.get(*pos).copied() {
            Some("{") => {
                *pos += 1;
                while t.get(*pos).is_some_and(|x| *x != "}") {
                    tree(t, pos, &path, out);
                    if t.get(*pos) == Some(&",") {
                        *pos += 1;
                    }
                }
                *pos += 1;
                return;
            }
            Some("*") => {
                *pos += 1;
                out.push(UseEntry { path, alias: None, glob: true });
                return;
            }
            Some(w) if w.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_') => {
                path.push(w.to_string());
                *pos += 1;
                if t.get(*pos) == Some(&":") && t.get(*pos + 1) == Some(&":") {
                    *pos += 2;
                    continue;
                }
                let mut alias = None;
                if t.get(*pos) == Some(&"as") {
                    alias = t.get(*pos + 1).map(|a| a.to_string());
                    *pos += 2;
                }
                out.push(UseEntry { path, alias, glob: false });
                return;
            }
            // not a use tree: the rest is not read
            _ => {
                *pos = t.len();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(src: &str) -> Vec<(String, Option<String>, bool)> {
        let toks = crate::library::tokens(src);
        let words: Vec<&str> = toks.iter().map(|t| t.0.as_str()).collect();
        parse_use(&words).into_iter().map(|e| (e.path.join("::"), e.alias, e.glob)).collect()
    }

    fn e(path: &str, alias: Option<&str>, glob: bool) -> (String, Option<String>, bool) {
        (path.to_string(), alias.map(str::to_string), glob)
    }

    #[test]
    fn paths_aliases_and_globs() {
        assert_eq!(entries("a::b::C"), vec![e("a::b::C", None, false)]);
        assert_eq!(entries("::core::fmt"), vec![e("core::fmt", None, false)]);
        assert_eq!(entries("crate::x::*"), vec![e("crate::x", None, true)]);
        assert_eq!(entries("Hash as H"), vec![e("Hash", Some("H"), false)]);
        assert_eq!(entries("a::T as _"), vec![e("a::T", Some("_"), false)]);
    }

    #[test]
    fn nested_groups() {
        let got = entries("super::{A, B as C, d::{self, E}, f::{self as g}, h::*}");
        let want = vec![
            e("super::A", None, false),
            e("super::B", Some("C"), false),
            e("super::d::self", None, false),
            e("super::d::E", None, false),
            e("super::f::self", Some("g"), false),
            e("super::h", None, true),
        ];
        assert_eq!(got, want);
        // typenum's root: names and globs in one group
        let got = entries("consts::{False, U0, *, N1, *,}");
        assert_eq!(got[2], e("consts", None, true));
        assert_eq!(got.len(), 5);
    }

    #[test]
    fn names_targets_and_self() {
        let toks = ["d", ":", ":", "{", "self", ",", "self", "as", "x", "}"];
        let es = parse_use(&toks);
        assert_eq!(es[0].name(), Some("d"));
        assert_eq!(es[0].target(), ["d".to_string()]);
        assert!(es[0].is_self());
        assert_eq!(es[1].name(), Some("x"));
        let glob = &parse_use(&["a", ":", ":", "*"])[0];
        assert_eq!(glob.name(), None);
        assert!(!glob.is_self());
        // a path that is `self` alone is not a group's `self`
        assert!(!parse_use(&["self"])[0].is_self());
    }

    #[test]
    fn stops_at_what_is_not_a_use_tree() {
        assert_eq!(entries("a::{B, <, C}"), vec![e("a::B", None, false)]);
        assert_eq!(entries(""), vec![]);
    }
}
