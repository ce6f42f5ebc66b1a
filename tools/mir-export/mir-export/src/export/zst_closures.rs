//! Zero-sized closures without fields, and the types that contain them.
//!
//! rustc lays out a closure as a struct of its captures. One that captures
//! nothing, or only fn items and closures that are themselves such
//! (min_by_key's `key` closure around the user's closure that captures
//! nothing; min_by's `fold` closure around the fn item `compare`), is a struct
//! whose fields are all size 0, align 1, inhabited and without niches: size
//! 0, align 1, every field at offset 0: as `()` is. A closure whose captures are not
//! known (neither an aggregate nor a `ZeroSized` constant with a readable
//! body or parent said what they are) is never taken for one: a captured
//! zero-sized value may have alignment (`[u64; 0]`).
//!
//! No probe can name a closure, so a type that contains such a closure
//! (`Map<Iter<'_, u64>, {closure@..key..}>`) is probed with `()` in the
//! closure's place: the same layout, so the same layout of the whole
//! (mod.rs fill_layouts).

use crate::mirparse::ast::{GenericArg, Path, Ty};
use crate::types::TypeTable;

/// Which entries of `types` are known fieldless zero-sized types: fn items,
/// and closures whose captures are known (`upvars`) and each such a type.
pub fn fieldless_closures(types: &TypeTable) -> Vec<bool> {
    let n = types.entries.len();
    let mut known = vec![false; n];
    loop {
        let mut changed = false;
        for i in 0..n {
            let e = types.get(i);
            if known[i] {
                continue;
            }
            if matches!(e.ty, Ty::FnDef { .. }) {
                known[i] = true; // a fn item: size 0, align 1, no fields
                changed = true;
                continue;
            }
            if !matches!(e.ty, Ty::Closure(_)) {
                continue;
            }
            let Some(ups) = &e.upvars else { continue };
            if ups.iter().all(|&u| u < n && known[u]) {
                known[i] = true;
                changed = true;
            }
        }
        if !changed {
            return known;
        }
    }
}

/// `ty` with every closure in it replaced by `()`, when `fieldless(c)`
/// says each is a fieldless zero-sized closure; None when it mentions any
/// other closure, or anything else no probe can name (a `dyn` of a
/// closure, a struct declared inside a generic function).
pub fn with_unit_for_closures(ty: &Ty, fieldless: &dyn Fn(&Ty) -> bool) -> Option<Ty> {
    let sub = |t: &Ty| with_unit_for_closures(t, fieldless);
    Some(match ty {
        Ty::Closure(_) | Ty::FnDef { .. } if fieldless(ty) => Ty::Tuple(Vec::new()),
        Ty::Closure(_) => return None,
        Ty::Dyn(d) if d.contains("{closure@") => return None,
        Ty::Tuple(v) => Ty::Tuple(v.iter().map(sub).collect::<Option<_>>()?),
        Ty::Array(t, n) => Ty::Array(Box::new(sub(t)?), n.clone()),
        Ty::Slice(t) => Ty::Slice(Box::new(sub(t)?)),
        Ty::Ref { mutable, pointee } => Ty::Ref { mutable: *mutable, pointee: Box::new(sub(pointee)?) },
        Ty::Ptr { mutable, pointee } => Ty::Ptr { mutable: *mutable, pointee: Box::new(sub(pointee)?) },
        Ty::Adt(p) if p.declared_in_generic() => return None,
        Ty::Adt(p) => {
            let mut q: Path = p.clone();
            for s in &mut q.segments {
                for a in &mut s.args {
                    if let GenericArg::Type(t) = a {
                        *t = sub(t)?;
                    }
                }
            }
            Ty::Adt(q)
        }
        _ => ty.clone(),
    })
}

/// The closures `ty` mentions (in its arguments, fields, pointees), each
/// once, added to `out`.
pub fn closures_in(ty: &Ty, out: &mut Vec<String>) {
    match ty {
        Ty::Closure(c) => {
            if !out.contains(c) {
                out.push(c.clone());
            }
        }
        Ty::Tuple(v) => v.iter().for_each(|t| closures_in(t, out)),
        Ty::Array(t, _) | Ty::Slice(t) => closures_in(t, out),
        Ty::Ref { pointee, .. } | Ty::Ptr { pointee, .. } => closures_in(pointee, out),
        Ty::Adt(p) => p.type_args().for_each(|a| {
            if let GenericArg::Type(t) = a {
                closures_in(t, out);
            }
        }),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mirparse::parser::parse_str;

    fn ty(s: &str) -> Ty {
        parse_str(s, |p| p.ty()).expect("parses")
    }

    #[test]
    fn a_closure_of_fieldless_closures_is_fieldless() {
        let mut types = TypeTable::default();
        let user = types.intern(&ty("{closure@src/lib.rs:54:33: 54:36}"));
        let key = types.intern(&ty("{closure@core::iter::Iterator::min_by_key::key<&u64, u64, {closure@src/lib.rs:54:33: 54:36}>::{closure#0}}"));
        let unknown = types.intern(&ty("{closure@src/lib.rs:9:1: 9:5}"));
        let over_unknown = types.intern(&ty("{closure@src/lib.rs:10:1: 10:5}"));
        let zst_array = types.intern(&ty("[u64; 0]"));
        let over_array = types.intern(&ty("{closure@src/lib.rs:11:1: 11:5}"));
        let fn_item = types.intern(&ty("fn(&u64, &u64) -> core::cmp::Ordering {compare}"));
        let over_fn_item = types.intern(&ty("{closure@src/lib.rs:12:1: 12:5}"));
        types.entries[over_fn_item].upvars = Some(vec![fn_item, key]);
        types.entries[user].upvars = Some(vec![]);
        types.entries[key].upvars = Some(vec![user]);
        types.entries[over_unknown].upvars = Some(vec![unknown]);
        types.entries[over_array].upvars = Some(vec![zst_array]);
        let known = fieldless_closures(&types);
        assert!(known[user] && known[key] && known[fn_item] && known[over_fn_item]);
        // captures not known, or a zero-sized capture that may have alignment
        assert!(!known[unknown] && !known[over_unknown] && !known[over_array] && !known[zst_array]);
    }

    #[test]
    fn closures_mentioned_by_a_type() {
        let (a, b) = ("{closure@src/lib.rs:1:1: 1:2}", "{closure@src/lib.rs:3:1: 3:2}");
        let t = ty(&format!("(core::ops::try_trait::Wrapped<u64, u32, {a}>, &[{b}; 2], core::option::Option<{a}>)"));
        let mut found = Vec::new();
        closures_in(&t, &mut found);
        assert_eq!(found, vec![a.to_string(), b.to_string()]);
    }

    #[test]
    fn closures_in_a_type_become_unit() {
        let map = ty("core::iter::Map<core::slice::Iter<'_, u64>, {closure@src/lib.rs:1:1: 1:2}>");
        let yes = |_: &Ty| true;
        let no = |_: &Ty| false;
        let got = with_unit_for_closures(&map, &yes).expect("fieldless");
        assert_eq!(got.to_string(), "core::iter::Map<core::slice::Iter<'_, u64>, ()>");
        assert!(with_unit_for_closures(&map, &no).is_none());
        assert_eq!(with_unit_for_closures(&ty("(u8, [u16; 2])"), &no), Some(ty("(u8, [u16; 2])")));
    }
}
