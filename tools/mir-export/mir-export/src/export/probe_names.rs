//! How the layout probe (layout.rs) names a type: from the crate root, or,
//! when the type mentions a type declared inside a function body
//! (`misc_local_types::Local`, which no path from the crate root names),
//! inside the block that declares it (`Local` there), through
//! `layout::in_block_probe_name`.

use crate::adts::{AdtTable, LocalType};
use crate::layout::{fn_item_stand_in, in_block_probe_name, stand_ins_probe_name, struct_probe_name, STAND_IN};
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
        if let Some(sig) = c.strip_prefix(FN_ITEM_KEY) {
            // a function item's stand-in: its arguments (a tuple) and output
            let (args, out) = fn_sig_types(sig).ok_or_else(|| format!("the signature `{sig}` of a function item is not read"))?;
            for t in [Ty::Tuple(args), out] {
                tys.push(with_stand_ins(&t, &mut closures, private)?);
            }
            fields.push(tys);
            continue;
        }
        for t in captures(&c)? {
            tys.push(with_stand_ins(t, &mut closures, private).map_err(|why| format!("`{c}` captures a `{t}`, which the layout probe cannot name: {why}"))?);
        }
        fields.push(tys);
    }
    let mut all: Vec<&Ty> = vec![&named];
    all.extend(fields.iter().flatten());
    let (block, names) = spell(&all, adts, extern_crates)?;
    let mut rest = names[1..].iter();
    let structs: Vec<String> = fields
        .iter()
        .zip(&closures)
        .map(|(f, c)| {
            let names: Vec<String> = rest.by_ref().take(f.len()).cloned().collect();
            match c.starts_with(FN_ITEM_KEY) {
                true => fn_item_stand_in(&names[0], &names[1]),
                false => names.join(", "),
            }
        })
        .collect();
    Ok(placed(block, &stand_ins_probe_name(&names[0], &structs)))
}

/// Whether a struct in `ty` has a function item as a type argument:
/// probed with the item's closure-trait stand-in (`path_with_stand_ins`),
/// not `()`, which would not meet a bound on that parameter.
pub fn has_fn_item_arg(ty: &Ty) -> bool {
    match ty {
        Ty::Tuple(v) => v.iter().any(has_fn_item_arg),
        Ty::Array(t, _) | Ty::Slice(t) | Ty::Ref { pointee: t, .. } | Ty::Ptr { pointee: t, .. } => has_fn_item_arg(t),
        Ty::Adt(p) => p.type_args().any(|a| matches!(a, GenericArg::Type(t) if matches!(t, Ty::FnDef { .. }) || has_fn_item_arg(t))),
        _ => false,
    }
}

/// The key of a function item's stand-in among the closures' (its
/// signature follows).
const FN_ITEM_KEY: &str = "fn item: ";

/// The argument types and the output of a function item's printed
/// signature (`fn(char) -> bool`, `for<'a> fn(&'a u32) -> bool`); the
/// higher-ranked lifetimes are left to the stand-in's impls.
fn fn_sig_types(sig: &str) -> Option<(Vec<Ty>, Ty)> {
    let sig = match sig.strip_prefix("for<") {
        Some(r) => r.split_once("> ")?.1,
        None => sig,
    };
    let inner = sig.strip_prefix("fn(")?;
    let mut depth = 1i32;
    let close = inner.char_indices().find(|&(_, c)| {
        depth += match c {
            '(' | '[' | '<' => 1,
            ')' | ']' | '>' => -1,
            _ => 0,
        };
        depth == 0
    })?;
    let (args_text, after) = (&inner[..close.0], inner[close.0 + 1..].trim());
    let parse = |t: &str| crate::mirparse::parser::parse_str(t.trim(), |p| p.ty()).ok();
    let args = super::special::split_top(args_text).iter().map(|a| parse(a)).collect::<Option<Vec<_>>>()?;
    let out = match after.strip_prefix("->") {
        Some(o) => parse(o)?,
        None if after.is_empty() => Ty::unit(),
        None => return None,
    };
    Some((args, out))
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

/// `p` with its closures written as stand-ins; a function item that is
/// a type argument (`MultiCharEqSearcher<'_, fn(char) -> bool {..}>`) as
/// a stand-in with the closure traits of its signature, which the
/// struct's bounds may ask for (layout.rs `fn_item_stand_in`).
fn path_with_stand_ins(p: &Path, closures: &mut Vec<String>, private: &dyn Fn(&Path) -> Option<bool>) -> Result<Path, String> {
    let mut out = p.clone();
    for seg in &mut out.segments {
        for a in &mut seg.args {
            if let GenericArg::Type(t) = a {
                *t = match t {
                    Ty::FnDef { sig, .. } => {
                        let key = format!("{FN_ITEM_KEY}{sig}");
                        let j = closures.iter().position(|k| *k == key).unwrap_or_else(|| {
                            closures.push(key);
                            closures.len() - 1
                        });
                        Ty::Closure(format!("{STAND_IN}{j}"))
                    }
                    _ => with_stand_ins(t, closures, private)?,
                };
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

    #[test]
    fn fn_item_signatures() {
        let (args, out) = fn_sig_types("fn(char) -> bool").unwrap();
        assert_eq!((args.len(), out.to_string()), (1, "bool".to_string()));
        let (args, out) = fn_sig_types("for<'a> fn(&'a [u8], (u32, u64)) -> &'a u8").unwrap();
        assert_eq!(args.len(), 2);
        assert_eq!(out.to_string(), "&u8");
        assert_eq!(fn_sig_types("fn()").unwrap().1, Ty::unit());
        assert!(fn_sig_types("extern \"C\" fn(u32)").is_none());
        // a struct over a fn item is probed with the item's stand-in,
        // declared by the probe with the closure traits of its signature
        let item = parse_str("core::str::pattern::MultiCharEqSearcher<'_, fn(char) -> bool {core::char::methods::<impl char>::is_whitespace}>", |p| p.ty()).unwrap();
        assert!(has_fn_item_arg(&item));
        let adts = AdtTable::new();
        let name = stand_ins_probe_name_of(&item, &|_| Err("no closures".into()), &|_| None, &adts, &[]).unwrap();
        let src = crate::layout::probe_source("", "rustc_dump_layout(debug)", &[name]).text;
        assert!(src.contains("type __oxide_layout_0 = ::core::str::pattern::MultiCharEqSearcher<'static, __oxide_standin_0_0>;"), "{src}");
        assert!(src.contains("struct __oxide_standin_0_0; impl ::core::ops::FnOnce<(char,)> for __oxide_standin_0_0 { type Output = bool;"), "{src}");
        assert!(src.contains("impl ::core::ops::FnMut<(char,)> for __oxide_standin_0_0"), "{src}");
    }

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
