//! The shims mir-export writes for a closure body as MIR text and parses
//! like rustc's: the fn pointer shim of a closure coerced to `fn` (below)
//! and the by-value `FnOnce` shim (once_shim.rs). Both read the closure's
//! signature the same way (`closure_sig`), call its body with the same
//! terminator (`shim_call`) and make the parsed text a body of the export
//! (`add_shim_body`).
//!
//! ```text
//! fn __oxide_fn_pointer_shim(_1: A1, .. _{n-1}: A{n-1}) -> R {
//!     _{n+1} = &_n;                  // a body that takes `&{closure}`
//!     _0 = BODY(move _{n+1}, move _1..);
//!     return;
//! }
//! ```

use crate::diag::{Code, DResult};
use crate::mirparse::ast::{Body, Ty};

use super::body::Ctx;
use super::Exporter;

/// What a shim reads of a closure's body: the type of its environment
/// argument (`_1`), of its other arguments (`_2`..), its return type, and
/// the comment that gives each shim statement the body's span.
pub(super) struct ClosureSig {
    pub env: Ty,
    pub args: Vec<Ty>,
    pub ret: Ty,
    pub span: String,
}

impl<'a> Exporter<'a> {
    /// `fn <closure>::{fn_pointer_shim}(args) -> R`: calls the closure
    /// body with a reference to (or the value of) its zero-sized
    /// environment, since only non-capturing closures coerce to `fn`.
    pub(super) fn closure_shim(&mut self, closure: &str, ctx: Ctx) -> DResult<String> {
        let name = format!("{closure}::__oxide_fn_pointer_shim");
        if self.bodies.contains_key(name.as_str()) {
            return Ok(name);
        }
        let ClosureSig { env, args: arg_tys, ret, span } = self.closure_sig(closure, ctx)?;
        let n = arg_tys.len() + 1;
        let params: Vec<String> = arg_tys.iter().enumerate().map(|(k, t)| format!("_{}: {t}", k + 1)).collect();
        let (env_val, env_arg) = match &env {
            Ty::Ref { pointee, .. } => ((**pointee).clone(), format!("_{} = &_{};{span}\n        ", n + 1, n)),
            t => (t.clone(), String::new()),
        };
        let arg0 = if env_arg.is_empty() { format!("move _{n}") } else { format!("move _{}", n + 1) };
        let args: Vec<String> = std::iter::once(arg0).chain((1..n).map(|k| format!("move _{k}"))).collect();
        let text = format!(
            "fn __oxide_fn_pointer_shim({}) -> {ret} {{\n    let mut _0: {ret};\n    let mut _{n}: {env_val};\n    \
             let mut _{}: {env};\n\n    bb0: {{\n        {env_arg}{}\n    }}\n\n    \
             bb1: {{\n        return;{span}\n    }}\n}}\n",
            params.join(", "),
            n + 1,
            shim_call(closure, &args, &span),
        );
        self.add_shim_body(name, &text, "fn pointer shim", closure, ctx)
    }

    /// The signature of closure body `closure`, as `ClosureSig` says.
    pub(super) fn closure_sig(&self, closure: &str, ctx: Ctx) -> DResult<ClosureSig> {
        let b = self.bodies[closure];
        let local = |k: usize| b.locals.get(k).and_then(|l| l.as_ref()).map(|l| l.ty.clone());
        let env = local(1).ok_or_else(|| self.err(ctx, Code::Export, format!("closure `{closure}` has no environment argument")))?;
        let mut args = Vec::new();
        for k in 2..=b.arg_count as usize {
            args.push(local(k).ok_or_else(|| self.err(ctx, Code::Export, format!("closure `{closure}` lacks argument _{k}")))?);
        }
        let span = match b.locals.first().and_then(|l| l.as_ref()).and_then(|l| l.span.as_ref()) {
            Some(s) => format!(" // scope 0 at {s}"),
            None => return Err(self.err(ctx, Code::Export, format!("closure `{closure}` has no span"))),
        };
        Ok(ClosureSig { env, args, ret: b.ret_ty.clone(), span })
    }

    /// Parses a shim's MIR `text` (its `what`: "fn pointer shim") as body
    /// `name` and makes it a body of the export; `name`.
    pub(super) fn add_shim_body(&mut self, name: String, text: &str, what: &str, closure: &str, ctx: Ctx) -> DResult<String> {
        let file = crate::mirparse::items::parse_mir_file(text)
            .map_err(|e| self.err(ctx, Code::Export, format!("the {what} of `{closure}` does not parse: {}", e.msg)))?;
        let mut body = file.bodies.into_iter().next().ok_or_else(|| self.err(ctx, Code::Export, "no shim body"))?;
        body.name = name.clone();
        let body: &'a Body = Box::leak(Box::new(body));
        let key: &'a str = Box::leak(name.clone().into_boxed_str());
        self.bodies.insert(key, body);
        Ok(name)
    }
}

/// A shim's call of the closure body: `_0 = BODY(ARGS) -> [return: bb1,
/// unwind unreachable];` with the span comment.
pub(super) fn shim_call(closure: &str, args: &[String], span: &str) -> String {
    format!("_0 = {closure}({}) -> [return: bb1, unwind unreachable];{span}", args.join(", "))
}
