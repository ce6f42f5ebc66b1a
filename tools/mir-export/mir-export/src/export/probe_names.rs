//! How the layout probe (layout.rs) names a type: from the crate root, or,
//! when the type mentions a type declared inside a function body
//! (`misc_local_types::Local`, which no path from the crate root names),
//! inside the block that declares it (`Local` there), through
//! `layout::in_block_probe_name`.

use crate::adts::{AdtTable, LocalType};
use crate::layout::{in_block_probe_name, struct_probe_name};
use crate::mirparse::ast::{GenericArg, Ty};
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
