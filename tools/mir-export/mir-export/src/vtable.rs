//! Vtable layouts: rustc's own, asked through a probe.
//!
//! MIR text shows a trait object's method call as `<dyn T as Tr>::m(..)`
//! but not which vtable slot `m` is. rustc prints a trait object type's
//! vtable when a type alias carries `#[rustc_dump_vtable]` (an error
//! diagnostic; the same attribute and text in 1.95, 1.96 and the 1.97
//! nightly):
//!
//! ```text
//! vtable entries: [
//!     MetadataDropInPlace,
//!     MetadataSize,
//!     MetadataAlign,
//!     Method(<dyn Top as Base>::base - shim(reify)),
//!     Method(<dyn Top as Mid>::mid - shim(reify)),
//!     TraitVPtr(<dyn Top as Other>),
//!     Vacant,
//! ]
//! ```
//!
//! one entry per pointer-sized word, in rustc's order (its
//! `vtable_entries`, supertraits laid out as rustc lays them out). The
//! probe is the layout probe's (driver.rs), with this attribute.

/// One pointer-sized word of a vtable.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    DropInPlace,
    Size,
    Align,
    /// `<dyn X as TRAIT>::NAME`: the trait as printed, the method's name.
    Method { trait_: String, name: String },
    /// A method that cannot be called on this object (rustc leaves a slot).
    Vacant,
    /// A pointer to a supertrait's vtable (for upcasting): `TRAIT` of
    /// `TraitVPtr(<dyn X as TRAIT>)`, as printed.
    TraitVPtr(String),
}

pub const ATTR: &str = "rustc_dump_vtable";

/// Reads the probe's JSON diagnostics: `result[i]` is the vtable of
/// `names[i]`, or the first error rustc gave for its alias.
pub fn read_probe_output(stderr: &str, probe: &crate::layout::ProbeSource) -> Vec<Result<Vec<Entry>, String>> {
    crate::layout::read_probe_diags(stderr, probe, "vtable", |msg| {
        msg.strip_prefix("vtable entries: ").map(parse_entries)
    })
}

/// `[ MetadataDropInPlace, ..., Method(<dyn T as T>::m - shim(reify)), ]`.
pub fn parse_entries(list: &str) -> Result<Vec<Entry>, String> {
    let inner = list.trim().strip_prefix('[').and_then(|s| s.strip_suffix(']')).ok_or("unexpected vtable message")?;
    let mut out = Vec::new();
    for item in split_top(inner) {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        out.push(match item {
            "MetadataDropInPlace" => Entry::DropInPlace,
            "MetadataSize" => Entry::Size,
            "MetadataAlign" => Entry::Align,
            "Vacant" => Entry::Vacant,
            _ => {
                if let Some(m) = item.strip_prefix("Method(").and_then(|s| s.strip_suffix(')')) {
                    let m = match m.rfind(" - shim(") {
                        Some(at) => &m[..at],
                        None => m,
                    };
                    let (qual, name) = m.rsplit_once(">::").ok_or_else(|| format!("unexpected vtable method `{m}`"))?;
                    let trait_ = qual_trait(qual).ok_or_else(|| format!("unexpected vtable method `{m}`"))?;
                    Entry::Method { trait_, name: name.to_string() }
                } else if let Some(t) = item.strip_prefix("TraitVPtr(").and_then(|s| s.strip_suffix(")")) {
                    let trait_ = t.strip_suffix('>').and_then(qual_trait).ok_or_else(|| format!("unexpected vtable entry `{item}`"))?;
                    Entry::TraitVPtr(trait_)
                } else {
                    return Err(format!("unexpected vtable entry `{item}`"));
                }
            }
        });
    }
    Ok(out)
}

/// `<dyn X as TRAIT` → `TRAIT`: the text after the last ` as ` outside
/// brackets.
fn qual_trait(qual: &str) -> Option<String> {
    let q = qual.strip_prefix('<')?;
    let b = q.as_bytes();
    let mut depth = 0i32;
    let mut at = None;
    for i in 0..b.len() {
        match b[i] {
            b'<' | b'(' | b'[' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' | b')' | b']' => depth -= 1,
            b' ' if depth == 0 && q[i..].starts_with(" as ") => at = Some(i + 4),
            _ => {}
        }
    }
    Some(q[at?..].to_string())
}

/// Splits at commas outside brackets (`->` is no bracket).
fn split_top(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for i in 0..b.len() {
        match b[i] {
            b'<' | b'(' | b'[' | b'{' => depth += 1,
            b'>' if i > 0 && b[i - 1] == b'-' => {}
            b'>' | b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// Whether two spellings of a trait path name the same trait: equal, or
/// equal once a leading `crate::` / `::` is dropped.
pub fn same_trait(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.trim().trim_start_matches("crate::").trim_start_matches("::").replace(' ', "");
    norm(a) == norm(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rustc_vtable_dumps() {
        let msg = "[\n    MetadataDropInPlace,\n    MetadataSize,\n    MetadataAlign,\n    \
                   Method(<dyn core::ops::Fn(u64, u32) -> u64 as core::ops::FnOnce<(u64, u32)>>::call_once - shim(vtable)),\n    \
                   Method(<dyn Top as Mid>::mid - shim(reify)),\n    TraitVPtr(<S as C>),\n    Vacant,\n]";
        let e = parse_entries(msg).unwrap();
        assert_eq!(e.len(), 7);
        assert_eq!(e[3], Entry::Method { trait_: "core::ops::FnOnce<(u64, u32)>".into(), name: "call_once".into() });
        assert_eq!(e[4], Entry::Method { trait_: "Mid".into(), name: "mid".into() });
        assert_eq!(e[5], Entry::TraitVPtr("C".into()));
        assert_eq!(e[6], Entry::Vacant);
        assert!(same_trait("crate::m::Tr<u32>", "m::Tr<u32>"));
    }
}
