//! How the layout probe (layout.rs) names a type: from the crate root, or,
//! when the type mentions a type declared inside a function body
//! (`misc_local_types::Local`, which no path from the crate root names),
//! inside the block that declares it (`Local` there), through
//! `layout::in_block_probe_name`.

use crate::adts::{AdtTable, LocalType};
use crate::layout::{in_block_probe_name, stand_ins_probe_name, struct_probe_name, STAND_IN};
use crate::mirparse::ast::{GenericArg, Path, Ty};
use crate::types::{probe_name, probe_name_in};

/// The probe name of `ty`; `Err` says why no place in the crate root file
/// names it.
pub fn probe_name_of(ty: &Ty, adts: &AdtTable, extern_crates: &[String]) -> Result<String, String> {
    let (block, names) = spell(&[ty], adts, extern_crates)?;
    Ok(placed(block, &names[0]))
}

/// The probe name of a tuple struct of `fields` (`layout::struct_probe_name`).
pub fn struct_probe_name_of(fields: &[&Ty], adts: &AdtTable, extern_crates: &[String]) -> Result<String, String> {
    let (block, names) = spell(fields, adts, extern_crates)?;
    Ok(placed(block, &struct_probe_name(&names)))
}

/// Stand-in structs a probe name may declare: more means a closure that
/// (through others) captures itself, which no type does.
const MAX_STAND_INS: usize = 64;

/// The probe name of `ty`, which contains closures, each written as its
/// stand-in struct (`layout::stand_ins_probe_name`); `captures(c)` is the
/// capture types of closure `c` (its fields, in order), or why they are
/// not known. A closure among the captures (an adapter's closure that
/// captures the user's) is written as its own stand-in in turn. `Err`
/// also when `ty` has another part no probe can name.
///
/// A struct for which `private` is `Some(false)` (a library's struct that
/// no path names: private_adts.rs) stands in the same way, keyed by its
/// type's text, `captures` giving its declared field types; one for which
/// it is `Some(true)` (an enum without variants) is written as
/// `core::convert::Infallible`.
pub fn stand_ins_probe_name_of<'t>(
    ty: &Ty,
    captures: &dyn Fn(&str) -> Result<Vec<&'t Ty>, String>,
    private: &dyn Fn(&Path) -> Option<bool>,
    adts: &AdtTable,
    extern_crates: &[String],
) -> Result<String, String> {
    let mut closures: Vec<String> = Vec::new();
    let named = with_stand_ins(ty, &mut closures, private)?;
    let mut fields: Vec<Vec<Ty>> = Vec::new();
    while fields.len() < closures.len() {
        if closures.len() > MAX_STAND_INS {
            return Err(format!("`{ty}` nests more than {MAX_STAND_INS} closures in its closures' captures"));
        }
        let c = closures[fields.len()].clone();
        let mut tys = Vec::new();
        for t in captures(&c)? {
            tys.push(with_stand_ins(t, &mut closures, private).map_err(|why| format!("`{c}` captures a `{t}`, which the layout probe cannot name: {why}"))?);
        }
        fields.push(tys);
    }
    let mut all: Vec<&Ty> = vec![&named];
    all.extend(fields.iter().flatten());
    let (block, names) = spell(&all, adts, extern_crates)?;
    let mut rest = names[1..].iter();
    let structs: Vec<String> = fields.iter().map(|f| rest.by_ref().take(f.len()).cloned().collect::<Vec<_>>().join(", ")).collect();
    Ok(placed(block, &stand_ins_probe_name(&names[0], &structs)))
}

/// `ty` with its `J`-th distinct closure written `__oxide_standin_J`
/// (`closures[J]`); `Err` for a part that has no stand-in (a struct
/// declared in a generic function, a `dyn` over a closure).
fn with_stand_ins(ty: &Ty, closures: &mut Vec<String>, private: &dyn Fn(&Path) -> Option<bool>) -> Result<Ty, String> {
    let stand_in = |key: String, closures: &mut Vec<String>| {
        let j = closures.iter().position(|k| *k == key).unwrap_or_else(|| {
            closures.push(key);
            closures.len() - 1
        });
        Ty::Closure(format!("{STAND_IN}{j}"))
    };
    match ty {
        Ty::Adt(p) if private(p) == Some(false) => return Ok(stand_in(ty.to_string(), closures)),
        Ty::Adt(p) if private(p) == Some(true) => return Ok(infallible()),
        _ => {}
    }
    let mut sub = |t: &Ty| with_stand_ins(t, closures, private);
    Ok(match ty {
        Ty::Closure(c) => stand_in(c.clone(), closures),
        Ty::Tuple(v) => Ty::Tuple(v.iter().map(sub).collect::<Result<_, _>>()?),
        Ty::Array(t, n) => Ty::Array(Box::new(sub(t)?), n.clone()),
        Ty::Slice(t) => Ty::Slice(Box::new(sub(t)?)),
        Ty::Ref { mutable, pointee } => Ty::Ref { mutable: *mutable, pointee: Box::new(sub(pointee)?) },
        Ty::Ptr { mutable, pointee } => Ty::Ptr { mutable: *mutable, pointee: Box::new(sub(pointee)?) },
        Ty::Adt(p) if p.declared_in_generic() => {
            return Err(format!("it contains `{ty}`, declared inside a generic function, which the layout probe cannot name"))
        }
        Ty::Adt(p) => Ty::Adt(path_with_stand_ins(p, closures, private)?),
        // a fn item (`&mut F` of a closure whose F is `<u32 as
        // PartialOrd>::lt`), which no source names: zero-sized, align 1,
        // without niches, as `()`
        Ty::FnDef { .. } => Ty::unit(),
        t if t.is_unnameable() => return Err(format!("it contains `{t}`, which the layout probe cannot name")),
        t => t.clone(),
    })
}

/// `core::convert::Infallible`, an enum without variants.
fn infallible() -> Ty {
    crate::mirparse::parser::parse_str("core::convert::Infallible", |p| p.ty()).expect("a type")
}

fn path_with_stand_ins(p: &Path, closures: &mut Vec<String>, private: &dyn Fn(&Path) -> Option<bool>) -> Result<Path, String> {
    let mut out = p.clone();
    for seg in &mut out.segments {
        for a in &mut seg.args {
            if let GenericArg::Type(t) = a {
                *t = with_stand_ins(t, closures, private)?;
            }
        }
    }
    Ok(out)
}

fn placed(block: Option<usize>, name: &str) -> String {
    match block {
        Some(at) => in_block_probe_name(at, name),
        None => name.to_string(),
    }
}

/// `tys` spelled where they can all be named: from the crate root (`None`),
/// or in the block whose `{` is at that byte of the crate root.
fn spell(tys: &[&Ty], adts: &AdtTable, extern_crates: &[String]) -> Result<(Option<usize>, Vec<String>), String> {
    let mut locals: Vec<(String, LocalType)> = Vec::new();
    for t in tys {
        local_types(t, adts, &mut locals)?;
    }
    let Some((first, first_local)) = locals.first() else {
        return Ok((None, tys.iter().map(|t| probe_name(t, extern_crates)).collect()));
    };
    let mut blocks: Vec<usize> = locals.iter().map(|l| l.1.block).collect();
    blocks.sort_unstable();
    blocks.dedup();
    let Some(block) = adts.common_block(&blocks) else {
        let scopes: Vec<String> = locals.iter().map(|(p, l)| format!("`{p}` in `{}`", l.scope)).collect();
        return Err(format!(
            "it mentions types declared in function bodies or blocks that do not see each other ({}), and rustc can be \
             asked for a layout only where all of them are in scope",
            scopes.join(", ")
        ));
    };
    if let Some((p, l)) = locals.iter().find(|(p, l)| locals.iter().any(|(q, m)| q != p && m.name == l.name)) {
        return Err(format!(
            "it mentions two types declared in function bodies named `{}` (`{p}` and another), which the layout probe \
             cannot name apart",
            l.name
        ));
    }
    let Some(at) = adts.root_file_offset(block) else {
        return Err(format!(
            "`{first}` is declared inside `{}` outside the crate root file, and rustc can be asked for its layout only \
             inside that body (the layout probe copies the crate root file only)",
            first_local.scope
        ));
    };
    let local = |p: &crate::mirparse::ast::Path| {
        (!p.declared_in_generic()).then(|| p.bare()).and_then(|b| locals.iter().find(|l| l.0 == b)).map(|l| l.1.name.clone())
    };
    Ok((Some(at), tys.iter().map(|t| probe_name_in(t, extern_crates, &local)).collect()))
}

/// The types declared inside function bodies that `ty` mentions, by path
/// without generics (a type declared inside a generic function is left to
/// its stand-in: `Path::declared_in_generic`).
fn local_types(ty: &Ty, adts: &AdtTable, out: &mut Vec<(String, LocalType)>) -> Result<(), String> {
    match ty {
        Ty::Ref { pointee: t, .. } | Ty::Ptr { pointee: t, .. } | Ty::Array(t, _) | Ty::Slice(t) => local_types(t, adts, out),
        Ty::Tuple(v) => v.iter().try_for_each(|t| local_types(t, adts, out)),
        Ty::Adt(p) => {
            if !p.declared_in_generic() {
                let bare = p.bare();
                if let Some(l) = adts.local_type(&bare)? {
                    if !out.iter().any(|o| o.0 == bare) {
                        out.push((bare, l));
                    }
                }
            }
            p.type_args().try_for_each(|a| match a {
                GenericArg::Type(t) => local_types(t, adts, out),
                _ => Ok(()),
            })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mirparse::parser::parse_str;

    fn ty(s: &str) -> Ty {
        parse_str(s, |p| p.ty()).unwrap()
    }

    #[test]
    fn closures_in_a_type_become_their_stand_ins() {
        let adts = AdtTable::new();
        let (a, b) = ("{closure@src/lib.rs:101:34: 101:37}", "{closure@src/lib.rs:7:1: 7:9}");
        let outer = ty(&format!("(core::iter::TakeWhile<core::slice::Iter<'_, u64>, {a}>, core::option::Option<{b}>, [{a}; 2])"));
        let (ref_u64, unit) = (ty("&u64"), ty("(u8, *mut f32)"));
        let captures = |c: &str| -> Result<Vec<&Ty>, String> {
            Ok(if c == a { vec![&ref_u64] } else { vec![&unit, &ref_u64] })
        };
        let name = stand_ins_probe_name_of(&outer, &captures, &|_| None, &adts, &[]).unwrap();
        // one stand-in per distinct closure, numbered in order of appearance
        let want = stand_ins_probe_name(
            "(::core::iter::TakeWhile<::core::slice::Iter<'static, u64>, __oxide_standin_0>, \
             ::core::option::Option<__oxide_standin_1>, [__oxide_standin_0; 2])",
            &["&'static u64".into(), "(u8, *mut f32), &'static u64".into()],
        );
        assert_eq!(name, want);
        // the probe declares them beside the alias, named by its index
        let p = crate::layout::probe_source("fn main() {}", "rustc_layout(debug)", &["u8".into(), name]);
        let line = p.text.lines().nth(3).unwrap();
        assert!(line.contains("type __oxide_layout_1 = (::core::iter::TakeWhile<::core::slice::Iter<'static, u64>, __oxide_standin_1_0>, ::core::option::Option<__oxide_standin_1_1>, [__oxide_standin_1_0; 2]);"), "{line}");
        assert!(line.ends_with("struct __oxide_standin_1_0(&'static u64); #[allow(non_camel_case_types, dead_code)] struct __oxide_standin_1_1((u8, *mut f32), &'static u64);"), "{line}");
        assert_eq!(p.text[p.aliases[1].clone().unwrap()], *line);
    }

    /// A closure that captures a closure with fields (`fold::enumerate`'s
    /// closure around min_index's): the inner one's stand-in is a field
    /// of the outer one's.
    #[test]
    fn closures_captured_by_closures_get_stand_ins_too() {
        let adts = AdtTable::new();
        let (outer, inner) = ("{closure@core::iter::fold::enumerate<u8>::{closure#0}}", "{closure@core::select::min_index<u8>::{closure#0}}");
        let (inner_ty, usize_ty, ref_u8) = (ty(inner), ty("usize"), ty("&mut for<'a, 'b> fn(&'a u8, &'b u8) -> bool {<u8 as core::cmp::PartialOrd>::lt}"));
        let captures = |c: &str| -> Result<Vec<&Ty>, String> {
            Ok(if c == outer { vec![&inner_ty, &usize_ty] } else { vec![&ref_u8] })
        };
        let name = stand_ins_probe_name_of(&ty(outer), &captures, &|_| None, &adts, &[]).unwrap();
        assert_eq!(name, stand_ins_probe_name("__oxide_standin_0", &["__oxide_standin_1, usize".into(), "&'static mut ()".into()]));
        let p = crate::layout::probe_source("fn main() {}", "rustc_layout(debug)", &[name]);
        let line = p.text.lines().nth(2).unwrap();
        assert!(line.contains("type __oxide_layout_0 = __oxide_standin_0_0;"), "{line}");
        assert!(line.contains("struct __oxide_standin_0_0(__oxide_standin_0_1, usize);"), "{line}");
        assert!(line.ends_with("struct __oxide_standin_0_1(&'static mut ());"), "{line}");
    }

    #[test]
    fn captured_closures_become_stand_ins_in_turn() {
        let adts = AdtTable::new();
        // enumerate's closure captures find's `check` closure, which
        // captures the user's closure by reference
        let (outer, check, user) = ("{closure@core::a::enumerate::{closure#0}}", "{closure@core::a::check::{closure#0}}", "{closure@src/lib.rs:5:1: 5:9}");
        let (check_t, count, user_ref, user_field) = (ty(check), ty("&mut usize"), ty(&format!("&mut {user}")), ty("u32"));
        let captures = |k: &str| -> Result<Vec<&Ty>, String> {
            Ok(match k {
                _ if k == outer => vec![&check_t, &count],
                _ if k == check => vec![&user_ref],
                _ => vec![&user_field],
            })
        };
        let name = stand_ins_probe_name_of(&ty(outer), &captures, &|_| None, &adts, &[]).unwrap();
        let want = stand_ins_probe_name(
            "__oxide_standin_0",
            &["__oxide_standin_1, &'static mut usize".into(), "&'static mut __oxide_standin_2".into(), "u32".into()],
        );
        assert_eq!(name, want);
        // the probe names each stand-in by its alias's index, in the
        // structs' fields too
        let p = crate::layout::probe_source("fn main() {}", "rustc_layout(debug)", &[name]);
        let line = p.text.lines().nth(2).unwrap();
        assert!(line.contains("type __oxide_layout_0 = __oxide_standin_0_0;"), "{line}");
        assert!(line.contains("struct __oxide_standin_0_0(__oxide_standin_0_1, &'static mut usize);"), "{line}");
        assert!(line.contains("struct __oxide_standin_0_1(&'static mut __oxide_standin_0_2);"), "{line}");
        assert!(line.ends_with("struct __oxide_standin_0_2(u32);"), "{line}");
    }

    #[test]
    fn a_closure_without_a_stand_in_is_refused() {
        let adts = AdtTable::new();
        let c = "{closure@src/lib.rs:1:1: 1:5}";
        let unknown = |_: &str| -> Result<Vec<&Ty>, String> { Err("not known".into()) };
        let opt = ty(&format!("core::option::Option<{c}>"));
        assert_eq!(stand_ins_probe_name_of(&opt, &unknown, &|_| None, &adts, &[]).unwrap_err(), "not known");
        // a captured closure whose own captures are not known
        let (inner_c, inner) = ("{closure@src/lib.rs:2:1: 2:5}", ty("&{closure@src/lib.rs:2:1: 2:5}"));
        let inner_unknown = |k: &str| -> Result<Vec<&Ty>, String> { if k == c { Ok(vec![&inner]) } else { Err(format!("{k} not known")) } };
        assert_eq!(stand_ins_probe_name_of(&opt, &inner_unknown, &|_| None, &adts, &[]).unwrap_err(), format!("{inner_c} not known"));
        // a capture no probe can name (a `dyn` over a closure)
        let dyn_closure = ty(&format!("&dyn core::ops::Fn() -> {c}"));
        let captures_dyn = |_: &str| -> Result<Vec<&Ty>, String> { Ok(vec![&dyn_closure]) };
        assert!(stand_ins_probe_name_of(&opt, &captures_dyn, &|_| None, &adts, &[]).unwrap_err().contains("cannot name"));
        let local = ty(&format!("core::option::Option<(a::Outer<T>::Local<u8>, {c})>"));
        let nothing = |_: &str| -> Result<Vec<&Ty>, String> { Ok(vec![]) };
        assert!(stand_ins_probe_name_of(&local, &nothing, &|_| None, &adts, &[]).unwrap_err().contains("declared inside a generic function"));
    }
}
