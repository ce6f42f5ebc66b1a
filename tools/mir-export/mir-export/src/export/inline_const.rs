//! Inline `const { .. }` blocks of generic bodies, which rustc leaves
//! unevaluated because their value depends on the body's generic
//! parameters: core's `partition` calls through
//! `const { inst_partition::<T, F>() }`, printed
//! `_1 = const quicksort::partition::<T, F>::{constant#0}(move _2, ..)`.
//! The constant's body (`partition::{constant#0}: fn(..) -> usize = {`)
//! has the generic parameters of the function it is written in; its
//! instance for the path's arguments (`partition::<u32, F>::{constant#0}`)
//! becomes a body of the export like a generic function's instance
//! (mono.rs), and the operand an `unevaluated` constant naming it, which
//! oxidec calls where the value is used (a fn pointer: then the call goes
//! through it). Constant evaluation has no side effects, so computing the
//! value at run time gives rustc's.
//!
//! Where the body evaluates here to a function item (consteval.rs: the
//! sizes of the types it asks are known, its calls are of const fns that
//! evaluate in turn), the instance becomes `_0 = ITEM as fn(..)`, as rustc's
//! value is: only that function is exported, not the ones of the branches
//! not taken (`partition_hoare_branchy_cyclic` for a small `T`, whose drop
//! glue rustc never built).

use crate::diag::{Code, DResult};
use crate::mirparse::ast::*;

use super::body::{impl_trait_params, Ctx};
use super::consteval::{eval_body, Env, Val};
use super::type_props::TypeProp;
use super::{mono, Exporter};

/// How deep the calls of an inline constant's body may nest.
const MAX_CALL_DEPTH: u32 = 8;

/// Whether `path` names an inline constant with generic arguments
/// (`f::<T, F>::{constant#0}`).
pub(super) fn is_generic_inline_const(path: &Path) -> bool {
    path.last_name().starts_with("{constant#") && path.all_args().next().is_some()
}

/// The name of the constant whose body `text` holds, as its first line
/// spells it (`core::..::partition::{constant#0}: T = {`).
fn const_text_name(text: &str) -> Option<&str> {
    let first = text.lines().next()?;
    let at = first.find("::{constant#")?;
    let end = at + first[at..].find("}: ")? + 1;
    Some(&first[..end])
}

impl<'a> Exporter<'a> {
    /// Makes the instance of the inline constant `path` names (a body of
    /// the export named `path`), unless there is one.
    pub(super) fn inline_const_instance(&mut self, path: &Path, ctx: Ctx) -> DResult<()> {
        let inst = path.to_string();
        if self.bodies.contains_key(inst.as_str()) {
            return Ok(());
        }
        let fail = |why: String| format!("the inline constant `{inst}` could not be instantiated ({why})");
        let parent = path.parent();
        let (text, parent_body) = self.inline_const_source(path, &fail, ctx)?;
        let signature = self
            .signature_source(&parent_body, 8)
            .ok_or_else(|| self.err(ctx, Code::Unsupported, fail(format!("the source of `{}` is not readable", parent.bare()))))?;
        let mut params = mono::generic_params(&signature, parent.last_name())
            .ok_or_else(|| self.err(ctx, Code::Unsupported, fail(format!("no generic parameter list after `fn {}` in its source", parent.last_name()))))?;
        params.extend(impl_trait_params(&parent_body));
        let own = const_text_name(&text).ok_or_else(|| self.err(ctx, Code::Export, fail("its body has no name line".into())))?.to_string();
        let text = mono::substitute(&text, &own, &params, &mono::call_args(path)).map_err(|m| self.err(ctx, Code::Unsupported, fail(m)))?;
        let text = self.normalize_projections(&text, ctx)?;
        let text = super::spanclosures::rename_span_closures(&text, &inst);
        self.add_instance_text(&text, &inst, &fail, ctx)?;
        self.fold_fn_item_const(&inst, ctx)
    }

    /// Instance `inst` of an inline constant made `_0 = ITEM as fn(..);`
    /// when its body evaluates to function item ITEM; else left as it is
    /// (called at run time).
    fn fold_fn_item_const(&mut self, inst: &str, ctx: Ctx) -> DResult<()> {
        let Some(body) = self.bodies.get(inst).copied() else { return Ok(()) };
        if !matches!(body.ret_ty, Ty::FnPtr(_)) {
            return Ok(());
        }
        let mut env = ExportEnv { ex: self, ctx, depth: 0 };
        let Ok(Val::Fn(item)) = eval_body(body, &[], &mut env) else { return Ok(()) };
        let text = format!("_0 = {item} as {} (PointerCoercion(ReifyFnPointer(Safe), Implicit));", body.ret_ty);
        let line = crate::mirparse::lexer::lex_line(&text).map_err(|m| self.err(ctx, Code::Export, m))?;
        let assign = crate::mirparse::parser::Parser::new(&line).statement().map_err(|m| self.err(ctx, Code::Export, format!("`{text}`: {m}")))?;
        let mut folded = body.clone();
        let mut block = folded.blocks[0].clone();
        let at = block.terminator.clone();
        block.statements = vec![Located { kind: assign, scope: at.scope, span: at.span.clone(), const_comments: Vec::new() }];
        block.terminator.kind = TerminatorKind::Return;
        block.cleanup = false;
        folded.blocks = vec![block];
        let folded: &'a Body = Box::leak(Box::new(folded));
        let key: &'a str = Box::leak(inst.to_string().into_boxed_str());
        self.bodies.insert(key, folded);
        Ok(())
    }

    /// The generic MIR text of the constant `path` names and the generic
    /// body of the function it is written in: the kernel crate's, else
    /// core's or a dependency's.
    fn inline_const_source(&mut self, path: &Path, fail: &dyn Fn(String) -> String, ctx: Ctx) -> DResult<(String, Body)> {
        let (bare, parent) = (path.bare(), path.parent().bare());
        if let (Some(_), Some(p)) = (self.bodies.get(bare.as_str()), self.bodies.get(parent.as_str())) {
            if !self.library_bodies.contains_key(parent.as_str()) {
                let text = mono::body_text(self.input.mir_text, &bare).ok_or_else(|| self.err(ctx, Code::Export, fail("no MIR text".into())))?;
                return Ok((text.to_string(), (*p).clone()));
            }
        }
        let libs = self.input.library;
        let (lib, own) = libs.for_path(&bare).ok_or_else(|| self.err(ctx, Code::Unsupported, fail("it is in no crate whose MIR mir-export reads".into())))?;
        let lib = lib.map_err(|(code, why)| self.err(ctx, *code, fail(why.clone())))?;
        let text = lib.body_text(own).ok_or_else(|| self.err(ctx, Code::Unsupported, fail(format!("{}'s MIR has no body of it", lib.krate()))))?;
        let (_, parent_own) = libs.for_path(&parent).ok_or_else(|| self.err(ctx, Code::Export, fail("no parent".into())))?;
        let parent_body = match lib.body(parent_own, &parent) {
            Some(Ok(b)) => b,
            Some(Err((code, m))) => return Err(self.err(ctx, code, m)),
            None => return Err(self.err(ctx, Code::Unsupported, fail(format!("{}'s MIR has no body `{parent}`", lib.krate())))),
        };
        Ok((text, parent_body))
    }
}

/// The evaluator's answers in the export: the sizes of types from their
/// layouts (`<T as SizedTypeProperties>::SIZE`, `IS_ZST`; unknown for a
/// type the probe has not laid out yet), and calls resolved as a fn
/// pointer's item is (core's generic functions instantiated), their bodies
/// evaluated in turn.
struct ExportEnv<'e, 'a, 'c> {
    ex: &'e mut Exporter<'a>,
    ctx: Ctx<'c>,
    depth: u32,
}

impl Env for ExportEnv<'_, '_, '_> {
    fn constant(&mut self, c: &Const) -> Option<Val> {
        let ConstVal::Path { path, fields } = &c.val else { return None };
        let (ty, prop) = super::type_props::type_property(path).filter(|_| fields.is_empty())?;
        let size = self.ex.size_of(&ty)?;
        match prop {
            TypeProp::IsZst => Some(Val::Bool(size == 0)),
            TypeProp::Size => Val::int(u128::from(size), &Ty::primitive("usize")?),
            _ => None,
        }
    }

    fn call(&mut self, callee: &Path, args: &[Val]) -> Result<Val, String> {
        if self.depth >= MAX_CALL_DEPTH {
            return Err(format!("calls nested more than {MAX_CALL_DEPTH} deep"));
        }
        let name = self.ex.fn_item_body(callee, self.ctx).map_err(|d| d.msg)?;
        let body = self.ex.bodies.get(name.as_str()).copied().ok_or_else(|| format!("no body of `{name}`"))?;
        self.depth += 1;
        let v = eval_body(body, args, self);
        self.depth -= 1;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mirparse::parser::parse_str;

    #[test]
    fn names_and_paths() {
        let text = "core::slice::sort::unstable::quicksort::partition::{constant#0}: for<'a, 'b, 'c> fn(&'a mut [T], &'b T, &'c mut F) -> usize = {\n}\n";
        assert_eq!(const_text_name(text), Some("core::slice::sort::unstable::quicksort::partition::{constant#0}"));
        let p = parse_str("core::slice::sort::unstable::quicksort::partition::<u32, F>::{constant#0}", |p| p.path(true)).unwrap();
        assert!(is_generic_inline_const(&p));
        let p = parse_str("Big::Arr::0::{constant#0}", |p| p.path(true)).unwrap();
        assert!(!is_generic_inline_const(&p));
    }
}
