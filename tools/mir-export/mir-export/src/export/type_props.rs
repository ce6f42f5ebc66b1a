//! core's `SizedTypeProperties` constants of a type T (`<u32 as
//! core::mem::SizedTypeProperties>::LAYOUT`, `::SIZE`, `::IS_ZST`, ..),
//! which core's generic bodies read (alloc's `RawVec` growth reads
//! `T::LAYOUT`) and rustc leaves unevaluated there. Their values are
//! rustc's layout of T: core defines `SIZE` as `size_of::<Self>()`,
//! `ALIGN` as `align_of::<Self>()`, `IS_ZST` as `SIZE == 0`, `ALIGNMENT`
//! as `Alignment::new(ALIGN)` and `LAYOUT` as
//! `Layout::from_size_align_unchecked(SIZE, ALIGN)`.
//!
//! A constant of a type laid out without the probe (a primitive) is its
//! value at once; otherwise the operand is a placeholder until the probe
//! has laid out T and the constant's own type (`Layout`'s field offsets
//! place its `size` and `align`), and `fill_type_props` writes the value.

use crate::diag::{Code, DResult, Diag};
use crate::json::Json;
use crate::layout::Layout;
use crate::mirparse::ast::{Path, Ty};
use crate::mirparse::parser::parse_str;
use crate::obj;

use super::body::Ctx;
use super::Exporter;

const PLACEHOLDER: &str = "type_property";

/// Which constant of `SizedTypeProperties`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum TypeProp {
    IsZst,
    Size,
    Align,
    Alignment,
    Layout,
}

/// A constant whose value waits for layouts.
pub(super) struct PendingProp {
    of: Ty,
    prop: TypeProp,
    /// The constant's own type (`core::alloc::Layout`).
    ty: Ty,
    /// Where it is first used, for its error.
    loc: String,
}

/// T and the constant of `<T as core::mem::SizedTypeProperties>::NAME`
/// (rustc prints the trait unqualified in some of core's bodies).
pub(super) fn type_property(path: &Path) -> Option<(Ty, TypeProp)> {
    let q = path.qself.as_ref()?;
    let tr = q.trait_.as_ref()?.bare();
    if path.segments.len() != 1 || (tr != "core::mem::SizedTypeProperties" && tr != "SizedTypeProperties") {
        return None;
    }
    let prop = match path.last_name() {
        "IS_ZST" => TypeProp::IsZst,
        "SIZE" => TypeProp::Size,
        "ALIGN" => TypeProp::Align,
        "ALIGNMENT" => TypeProp::Alignment,
        "LAYOUT" => TypeProp::Layout,
        _ => return None,
    };
    Some(((*q.self_ty).clone(), prop))
}

impl TypeProp {
    /// The constant's type, as core declares it.
    pub(super) fn ty(self) -> Ty {
        let text = match self {
            TypeProp::IsZst => "bool",
            TypeProp::Size | TypeProp::Align => "usize",
            TypeProp::Alignment => "core::mem::Alignment",
            TypeProp::Layout => "core::alloc::Layout",
        };
        parse_str(text, |p| p.ty()).expect("a type of core")
    }

    /// The constant for a T laid out as `of`; `own` is the constant's
    /// type's layout (needed by `Alignment` and `Layout` only).
    fn value(self, of: &Layout, own: Option<&Layout>) -> Result<Json, String> {
        let scalar = |v: u64, size: u64| obj!["kind" => "scalar", "bits" => format!("0x{:0w$x}", v, w = (size * 2) as usize)];
        Ok(match self {
            TypeProp::IsZst => scalar(u64::from(of.size == 0), 1),
            TypeProp::Size => scalar(of.size, 8),
            TypeProp::Align => scalar(of.align, 8),
            TypeProp::Alignment => {
                let own = own.ok_or("the layout of `core::mem::Alignment` is not known")?;
                if own.size != 8 {
                    return Err(format!("`core::mem::Alignment` is {} bytes, not a usize", own.size));
                }
                bytes(&[(0, of.align)], 8)
            }
            TypeProp::Layout => {
                let own = own.ok_or("the layout of `core::alloc::Layout` is not known")?;
                // `struct Layout { size: usize, align: Alignment }`
                let [size_at, align_at] = own.fields[..] else {
                    return Err(format!("`core::alloc::Layout` has {} fields, not `size` and `align`", own.fields.len()));
                };
                if own.size != 16 {
                    return Err(format!("`core::alloc::Layout` is {} bytes, not two usizes", own.size));
                }
                bytes(&[(size_at, of.size), (align_at, of.align)], own.size)
            }
        })
    }
}

/// A `bytes` constant of `size` bytes with 8-byte little-endian words
/// `words` (offset, value) and zeros elsewhere.
fn bytes(words: &[(u64, u64)], size: u64) -> Json {
    let mut b = vec![0u8; size as usize];
    for &(at, v) in words {
        b[at as usize..at as usize + 8].copy_from_slice(&v.to_le_bytes());
    }
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    obj!["kind" => "bytes", "bytes" => hex, "relocs" => Json::Arr(vec![])]
}

impl<'a> Exporter<'a> {
    /// The constant `prop` of T = `of`: its value when T's layout (and
    /// the constant type's) is known now, else a placeholder.
    pub(super) fn type_prop_json(&mut self, of: &Ty, prop: TypeProp, ctx: Ctx) -> DResult<Json> {
        let ty = prop.ty();
        let (oi, ti) = (self.types.intern(of), self.types.intern(&ty));
        if let Some(l) = self.types.get(oi).layout.clone() {
            if let Ok(v) = prop.value(&l, self.types.get(ti).layout.as_ref()) {
                return Ok(v);
            }
        }
        let loc = self.loc(ctx.body, ctx.scope, ctx.span);
        self.type_props.push(PendingProp { of: of.clone(), prop, ty, loc });
        Ok(obj!["kind" => PLACEHOLDER, "index" => (self.type_props.len() - 1) as u32])
    }

    /// Every placeholder of `type_prop_json` replaced by its value, from
    /// the layouts the probe gave.
    pub(super) fn fill_type_props(&mut self) -> DResult<()> {
        let mut values = Vec::new();
        for p in &self.type_props {
            let of = self.types.lookup(&p.of).and_then(|i| self.types.get(i).layout.as_ref());
            let own = self.types.lookup(&p.ty).and_then(|i| self.types.get(i).layout.as_ref());
            let v = of
                .ok_or_else(|| format!("`{}` has no layout", p.of))
                .and_then(|of| p.prop.value(of, own))
                .map_err(|why| Diag::at(p.loc.clone(), Code::Unsupported, format!("`<{} as SizedTypeProperties>::{:?}`: {why}", p.of, p.prop)))?;
            values.push(v);
        }
        if !values.is_empty() {
            for f in &mut self.functions {
                super::probed_consts::put_values(f, PLACEHOLDER, &values);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_constants_from_layouts() {
        let p = parse_str("<u32 as core::mem::SizedTypeProperties>::LAYOUT", |p| p.path(true)).unwrap();
        assert_eq!(type_property(&p).map(|(t, k)| (t.to_string(), k)), Some(("u32".to_string(), TypeProp::Layout)));
        let mut layout = Layout::memory(16, 8);
        layout.fields = vec![8, 0];
        let u32_ = Layout::memory(4, 4);
        let j = TypeProp::Layout.value(&u32_, Some(&layout)).unwrap();
        assert_eq!(j, obj!["kind" => "bytes", "bytes" => "04000000000000000400000000000000", "relocs" => Json::Arr(vec![])]);
        let big = Layout::memory(24, 8);
        let j = TypeProp::Layout.value(&big, Some(&layout)).unwrap();
        assert_eq!(j, obj!["kind" => "bytes", "bytes" => "08000000000000001800000000000000", "relocs" => Json::Arr(vec![])]);
        assert_eq!(TypeProp::IsZst.value(&Layout::memory(0, 1), None).unwrap(), obj!["kind" => "scalar", "bits" => "0x01"]);
        assert!(TypeProp::Layout.value(&u32_, None).is_err());
    }
}
