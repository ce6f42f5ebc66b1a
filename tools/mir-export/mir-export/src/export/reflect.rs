//! `TypeId::of::<T>()` and `type_name::<T>()` in exported bodies: each
//! constant becomes a placeholder while the bodies are exported, and once
//! all are, rustc is asked for every type's TypeId and name in one probe
//! (crate::reflect) and the placeholders become the values: the TypeId's
//! 16 bytes, the name's bytes as a string allocation.

use crate::diag::{Code, DResult, Diag};
use crate::json::Json;
use crate::mirparse::ast::Ty;
use crate::obj;

use super::body::Ctx;
use super::Exporter;

/// Which fact of a type a constant asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Query {
    TypeId,
    TypeName,
}

impl Query {
    /// The constant's type: `core::any::TypeId` or `&str`.
    pub fn ty(self) -> Ty {
        let text = match self {
            Query::TypeId => "core::any::TypeId",
            Query::TypeName => "&str",
        };
        crate::mirparse::parser::parse_str(text, |p| p.ty()).expect("a type")
    }
}

/// One type whose facts the bodies need.
pub struct Wanted {
    /// How the probe spells it from the crate root.
    probe_name: String,
    /// Where it was first needed, for errors.
    loc: String,
}

const PENDING: &str = "reflect_pending";

impl<'a> Exporter<'a> {
    /// The placeholder of `query` of type `of`, filled by `finish_reflect`.
    pub(super) fn reflect_placeholder(&mut self, query: Query, of: &Ty, ctx: Ctx) -> DResult<Json> {
        let what = match query {
            Query::TypeId => "TypeId::of",
            Query::TypeName => "type_name",
        };
        if of.is_unnameable() {
            let short = super::callee::short_path(&of.to_string());
            return Err(self.err(ctx, Code::Unsupported, format!(
                "`{what}::<{short}>()` is not supported: rustc is asked for it in a probe that names the type in \
                 the source, and `{short}` cannot be named there (it is or contains a closure, or a type declared \
                 inside a generic function)"
            )));
        }
        let name = super::probe_names::probe_name_of(of, self.input.adts, self.input.extern_crates)
            .ok()
            .filter(|n| crate::layout::is_root_probe_name(n) || crate::layout::in_block_type_name(n).is_some())
            .ok_or_else(|| {
                self.err(ctx, Code::Unsupported, format!(
                    "`{what}::<{of}>()`: rustc is asked for it in a probe that names the type in the source, and \
                     `{of}` cannot be named there"
                ))
            })?;
        let index = match self.reflect_wanted.iter().position(|w| w.probe_name == name) {
            Some(i) => i,
            None => {
                let loc = self.loc(ctx.body, ctx.scope, ctx.span);
                self.reflect_wanted.push(Wanted { probe_name: name, loc });
                self.reflect_wanted.len() - 1
            }
        };
        let query = if query == Query::TypeId { "type_id" } else { "type_name" };
        Ok(obj!["kind" => PENDING, "query" => query, "index" => index])
    }

    /// Asks rustc for every wanted type's facts and puts them in place of
    /// the placeholders.
    pub(super) fn finish_reflect(&mut self, probe: &mut super::ReflectProbe) -> DResult<()> {
        if self.reflect_wanted.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = self.reflect_wanted.iter().map(|w| w.probe_name.clone()).collect();
        let mut answers = Vec::new();
        for (w, r) in self.reflect_wanted.iter().zip(probe(&names)?) {
            answers.push(r.map_err(|why| {
                Diag::at(w.loc.clone(), Code::Export, format!("rustc's TypeId and type name of `{}`: {why}", w.probe_name))
            })?);
        }
        let mut functions = std::mem::take(&mut self.functions);
        for f in &mut functions {
            self.fill_reflect(f, &answers);
        }
        self.functions = functions;
        Ok(())
    }

    fn fill_reflect(&mut self, j: &mut Json, answers: &[crate::reflect::Reflected]) {
        match j {
            Json::Arr(items) => items.iter_mut().for_each(|x| self.fill_reflect(x, answers)),
            Json::Obj(fields) => {
                if !fields.iter().any(|(k, v)| k == "kind" && *v == Json::from(PENDING)) {
                    return fields.iter_mut().for_each(|(_, v)| self.fill_reflect(v, answers));
                }
                let field = |k: &str| fields.iter().find(|f| f.0 == k).map(|f| f.1.clone());
                let Some(Json::Int(index)) = field("index") else { unreachable!("a reflect placeholder without its index") };
                let a = &answers[index as usize];
                *j = if field("query") == Some(Json::from("type_id")) {
                    let hex: String = a.type_id.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect();
                    obj!["kind" => "bytes", "bytes" => hex, "relocs" => Json::Arr(vec![])]
                } else {
                    let id = self.string_alloc(&a.type_name.clone());
                    obj!["kind" => "ref", "alloc" => id, "offset" => "0", "meta" => a.type_name.len().to_string()]
                };
            }
            _ => {}
        }
    }
}
