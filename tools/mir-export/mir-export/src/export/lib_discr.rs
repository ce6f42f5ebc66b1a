//! Constants that wrap a fieldless variant of a library's private enum
//! whose discriminants are written out (`core::mem::Alignment`, a
//! `#[repr(transparent)]` struct around `#[repr(usize)] enum AlignmentEnum
//! { _Align1Shl0 = 1 << 0, .. }`, in every `Layout` constant:
//! `core::mem::Alignment { _inner_repr_trick: core::mem::alignment::
//! AlignmentEnum::_Align1Shl3 }`).
//!
//! No probe can name such an enum (it is private to its crate), and
//! mir-export does not read its declaration, so it gets no type of its
//! own: the struct constant is the variant's discriminant as bytes, in the
//! discriminant's integer type. The discriminant is rustc's: the body
//! `E::V::{constant#0}` of the library's MIR, evaluated (consteval.rs).
//! oxidec checks that those bytes are the struct's size, so a struct with
//! other fields, or an enum whose tag is narrower than its discriminant
//! type (no `#[repr(int)]`), is refused there, never read wrongly.

use crate::diag::{Code, DResult};
use crate::json::Json;
use crate::mirparse::ast::{BodyKind, Const, ConstVal, Ty};
use crate::obj;

use super::body::Ctx;
use super::Exporter;

impl<'a> Exporter<'a> {
    /// The bytes of struct constant `fields` when its one field is a
    /// fieldless variant of a library enum without a declaration here and
    /// with a discriminant body in that library's MIR; `None` otherwise.
    pub(super) fn wrapped_discriminant_json(&self, fields: &[(Option<String>, Const)], ctx: Ctx) -> DResult<Option<Json>> {
        let [(_, field)] = fields else { return Ok(None) };
        let ConstVal::Path { path: variant, fields: inner } = &field.val else { return Ok(None) };
        if !inner.is_empty() || field.ty.is_some() || variant.segments.len() < 2 || variant.qself.is_some() {
            return Ok(None);
        }
        let enum_path = variant.parent().bare();
        if !matches!(self.input.adts.lookup(&enum_path), Ok(None)) {
            return Ok(None);
        }
        let name = format!("{}::{{constant#0}}", variant.bare());
        let Some((Ok(lib), own)) = self.input.library.for_path(&name) else { return Ok(None) };
        let body = match lib.body(own, &name) {
            None => return Ok(None),
            Some(Err((code, m))) => return Err(self.err(ctx, code, m)),
            Some(Ok(b)) => b,
        };
        let Ty::Int { bits, .. } = body.ret_ty else { return Ok(None) };
        if body.kind == BodyKind::Fn {
            return Ok(None);
        }
        let value = super::consteval::eval_int_body(&body).map_err(|why| {
            self.err(ctx, Code::Unsupported, format!(
                "the discriminant of `{}` (in the constant `{}`) could not be evaluated: {why}",
                variant.bare(),
                field.text
            ))
        })?;
        Ok(Some(obj!["kind" => "bytes", "bytes" => le_bytes(value, bits / 8), "relocs" => Json::Arr(vec![])]))
    }
}

/// `value` as `size` little-endian bytes in hex (two's complement).
fn le_bytes(value: i128, size: u32) -> String {
    (0..size).map(|i| format!("{:02x}", (value >> (8 * i)) as u8)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn little_endian_discriminants() {
        assert_eq!(le_bytes(8, 8), "0800000000000000");
        assert_eq!(le_bytes(1 << 63, 8), "0000000000000080");
        assert_eq!(le_bytes(-1, 2), "ffff");
    }
}
