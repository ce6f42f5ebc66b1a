//! Associated constants of a dependency's trait that no body defines for
//! the type at hand, evaluated by rustc: typenum's `<UInt<UInt<UTerm, B1>,
//! B0> as Unsigned>::USIZE` (defined recursively over the nested types),
//! or `<<Sha256VarCore as BlockSizeUser>::BlockSize as Unsigned>::USIZE`
//! whose self type is a projection. A library instance's text holds them
//! as rustc's codegen would have evaluated them; here rustc is asked.
//!
//! The constant's type is the one the trait declares (`const USIZE:
//! usize;`, read from the trait's source through srcnames.rs), a scalar.
//! Its value comes from the layout probe: `[(); (<S as Tr>::C) as usize]`
//! has size 0 and rustc prints its element count (`fields: Array {
//! count: 64 }`); a 128-bit constant takes two such counts (low and high
//! words), a float its `to_bits()`. The operand's JSON is a placeholder
//! until `fill_probed_consts` has the answers, asked once for all of the
//! export's constants. A constant rustc cannot evaluate is its error,
//! at the first place the constant is used (with `--keep-going`, the
//! kernels that reach it are left out); nothing is guessed.

use crate::diag::{Code, DResult, Diag};
use crate::json::Json;
use crate::mirparse::ast::{Path, Ty};
use crate::obj;

use super::body::Ctx;
use super::srcnames::{Named, SrcNames};
use super::Exporter;

/// A constant to ask rustc for.
pub(super) struct ProbedConst {
    /// The constant as the export prints it.
    pub text: String,
    pub ty: Ty,
    /// Probe names: one, or the low and high words of a 128-bit one.
    pub names: Vec<String>,
    /// Where it is first used, for its error.
    pub loc: String,
}

/// Asks rustc for the element counts of `[(); N]` array types, spelled
/// as in the crate root (`LayoutProbe::run_counts`).
pub type CountProbe<'p> = dyn FnMut(&[String]) -> DResult<Vec<Result<u64, String>>> + 'p;

const PLACEHOLDER: &str = "probed";

impl<'a> Exporter<'a> {
    /// The type of `<S as Tr>::C` that dependency trait `Tr` declares, when
    /// it is a scalar.
    pub(super) fn probed_const_ty(&self, path: &Path) -> Result<Ty, String> {
        let q = path.qself.as_ref().ok_or("it is not an associated constant")?;
        let tr = q.trait_.as_ref().ok_or("it is not a trait's constant")?;
        if path.segments.len() != 1 {
            return Err("it is not a constant of the trait".into());
        }
        let name = path.last_name();
        let tr = tr.bare();
        let libs = self.input.library;
        let key = libs.crate_key(&tr).ok_or_else(|| format!("`{tr}` is not a trait of a dependency"))?;
        let krate = libs.crate_name(key).to_string();
        if krate == "core" || !libs.is_library(&krate) {
            return Err(format!("`{tr}` is not a trait of a dependency whose source mir-export reads"));
        }
        let segs: Vec<String> = tr[key.len()..].trim_start_matches("::").split("::").map(str::to_string).collect();
        let names = SrcNames { libs };
        let Named::Item { module, kind, name: tname } = names.resolve(&names.root(&krate)?, &segs)? else {
            return Err(format!("`{tr}` names a module"));
        };
        if kind != "trait" {
            return Err(format!("`{tr}` is a `{kind}` item"));
        }
        let (_, block) = names.trait_decl(&module, &tname)?;
        let written = declared_const_type(&block, name).ok_or_else(|| format!("`trait {tname}` in {} declares no `const {name}`", module.file.display()))?;
        match Ty::primitive(&written) {
            Some(t) if scalar_words(&t).is_some() => Ok(t),
            _ => Err(format!("`{tr}` declares `const {name}: {written}`, not an integer, `bool`, `char`, `f32` or `f64`")),
        }
    }

    /// The placeholder operand of constant `path` of scalar type `ty`,
    /// which `fill_probed_consts` replaces by its value.
    pub(super) fn probed_const_json(&mut self, text: &str, path: &Path, ty: &Ty, ctx: Ctx) -> DResult<Json> {
        if let Some(i) = self.probed_consts.iter().position(|c| c.text == text) {
            return Ok(obj!["kind" => PLACEHOLDER, "index" => i as u32]);
        }
        let Some(words) = scalar_words(ty) else {
            return Err(self.err(ctx, Code::Unsupported, format!("unsupported constant `{text}` of type `{ty}`")));
        };
        let expr = crate::types::probe_name(&Ty::Adt(path.clone()), self.input.extern_crates);
        if ty.is_unnameable() || expr.contains("{closure") {
            return Err(self.err(ctx, Code::Unsupported, format!("constant `{text}`: its type cannot be named for rustc to evaluate it")));
        }
        let bits = match ty {
            Ty::Float(_) => format!("({expr}).to_bits()"),
            _ => format!("({expr})"),
        };
        let names = match words {
            1 => vec![format!("[(); {bits} as usize]")],
            _ => vec![format!("[(); {bits} as usize]"), format!("[(); ({bits} >> 64) as usize]")],
        };
        let loc = self.loc(ctx.body, ctx.scope, ctx.span);
        self.probed_consts.push(ProbedConst { text: text.to_string(), ty: ty.clone(), names, loc });
        Ok(obj!["kind" => PLACEHOLDER, "index" => (self.probed_consts.len() - 1) as u32])
    }

    /// Asks rustc, in one probe, for every probed constant's value and
    /// puts each in place of its placeholders.
    pub(super) fn fill_probed_consts(&mut self, probe: &mut CountProbe) -> DResult<()> {
        if self.probed_consts.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = self.probed_consts.iter().flat_map(|c| c.names.clone()).collect();
        let mut counts = probe(&names)?.into_iter();
        let mut values = Vec::new();
        for c in &self.probed_consts {
            let words: Vec<Result<u64, String>> = counts.by_ref().take(c.names.len()).collect();
            let mut bits = 0u128;
            for (k, w) in words.into_iter().enumerate() {
                let w = w.map_err(|why| {
                    Diag::at(c.loc.clone(), Code::Unsupported, format!("rustc did not evaluate the constant `{}`: {why}", c.text))
                })?;
                bits |= u128::from(w) << (64 * k);
            }
            let size = scalar_size(&c.ty);
            let mask = if size == 16 { u128::MAX } else { (1u128 << (8 * size)) - 1 };
            values.push(obj!["kind" => "scalar", "bits" => format!("0x{:0width$x}", bits & mask, width = (size * 2) as usize)]);
        }
        for f in &mut self.functions {
            put_values(f, PLACEHOLDER, &values);
        }
        Ok(())
    }
}

/// The type written in `const NAME: T` of a trait's block (its tokens
/// joined by spaces, as `SrcNames::trait_decl` gives it).
fn declared_const_type(block: &str, name: &str) -> Option<String> {
    let toks: Vec<&str> = block.split(' ').collect();
    let at = toks.windows(3).position(|w| w == ["const", name, ":"])?;
    let ty: Vec<&str> = toks[at + 3..].iter().take_while(|t| !matches!(**t, ";" | "=")).copied().collect();
    Some(ty.join(" "))
}

/// The 64-bit words of a scalar's bits: 1, 2 for 128-bit integers; None
/// for other types.
fn scalar_words(ty: &Ty) -> Option<u32> {
    match ty {
        Ty::Int { bits: 128, .. } => Some(2),
        Ty::Int { .. } | Ty::Bool | Ty::Char | Ty::Float(32 | 64) => Some(1),
        _ => None,
    }
}

fn scalar_size(ty: &Ty) -> u64 {
    match ty {
        Ty::Int { bits, .. } => u64::from(*bits) / 8,
        Ty::Bool => 1,
        Ty::Float(b) => u64::from(*b) / 8,
        _ => 4,
    }
}

/// Each placeholder of `j` (`{"kind": kind, "index": i}`) replaced by its
/// value, `values[i]`.
pub(super) fn put_values(j: &mut Json, kind: &str, values: &[Json]) {
    match j {
        Json::Arr(items) => items.iter_mut().for_each(|x| put_values(x, kind, values)),
        Json::Obj(fields) => {
            let is_placeholder = fields.iter().any(|(k, v)| k == "kind" && *v == Json::from(kind));
            let index = fields.iter().find_map(|(k, v)| match (k.as_str(), v) {
                ("index", Json::Int(i)) => Some(*i as usize),
                _ => None,
            });
            match (is_placeholder, index.and_then(|i| values.get(i))) {
                (true, Some(v)) => *j = v.clone(),
                _ => fields.iter_mut().for_each(|(_, v)| put_values(v, kind, values)),
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_types_of_trait_constants() {
        let block = "# [ allow ( missing_docs ) ] const U8 : u8 ; const USIZE : usize ; fn to_u8 ( ) -> u8 ; const B : bool = true ;";
        assert_eq!(declared_const_type(block, "USIZE").as_deref(), Some("usize"));
        assert_eq!(declared_const_type(block, "B").as_deref(), Some("bool"));
        assert_eq!(declared_const_type(block, "U16"), None);
    }

    #[test]
    fn placeholders_are_replaced() {
        let mut j = obj!["ops" => vec![obj!["kind" => "constant", "const" => obj!["kind" => PLACEHOLDER, "index" => 1u32]]]];
        let values = vec![obj!["kind" => "scalar", "bits" => "0x00"], obj!["kind" => "scalar", "bits" => "0x40"]];
        put_values(&mut j, PLACEHOLDER, &values);
        assert_eq!(j, obj!["ops" => vec![obj!["kind" => "constant", "const" => obj!["kind" => "scalar", "bits" => "0x40"]]]]);
        assert_eq!(scalar_words(&Ty::primitive("i128").unwrap()), Some(2));
        assert_eq!(scalar_words(&Ty::primitive("str").unwrap()), None);
    }
}
