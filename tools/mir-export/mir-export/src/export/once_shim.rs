//! The by-value shim of a closure inferred `Fn` or `FnMut` and called
//! through `FnOnce::call_once` (`fn apply<F: FnOnce(u64) -> u64>(f: F)`
//! given a closure that was called by reference before): `call_once`
//! passes the closure by value, while its body takes `&{closure}` or
//! `&mut {closure}`. rustc calls its `FnOnce` shim there, which its MIR
//! text does not contain; mir-export writes the equivalent as MIR text
//! (as for the fn pointer shim, body.rs `closure_shim`) and parses it:
//!
//! ```text
//! fn __oxide_call_once_shim(_1: C, _2: A..) -> R {
//!     _k = &_1;                      // `&mut _1` for an FnMut body
//!     _0 = BODY(move _k, move _2..);
//!     drop(_1);                      // the closure, consumed
//!     return;
//! }
//! ```

use crate::diag::{Code, DResult};
use crate::mirparse::ast::{Body, Ty};

use super::body::Ctx;
use super::Exporter;

impl<'a> Exporter<'a> {
    /// The name of the by-value shim of closure body `closure` (made a
    /// body of the export the first time).
    pub(super) fn call_once_shim(&mut self, closure: &str, ctx: Ctx) -> DResult<String> {
        let name = format!("{closure}::__oxide_call_once_shim");
        if self.bodies.contains_key(name.as_str()) {
            return Ok(name);
        }
        let text = self.call_once_shim_text(closure, ctx)?;
        let file = crate::mirparse::items::parse_mir_file(&text)
            .map_err(|e| self.err(ctx, Code::Export, format!("the by-value shim of `{closure}` does not parse: {}", e.msg)))?;
        let mut body = file.bodies.into_iter().next().ok_or_else(|| self.err(ctx, Code::Export, "no shim body"))?;
        body.name = name.clone();
        let body: &'a Body = Box::leak(Box::new(body));
        let key: &'a str = Box::leak(name.clone().into_boxed_str());
        self.bodies.insert(key, body);
        Ok(name)
    }

    /// The shim's MIR text: the closure by value, then the body's own
    /// arguments; the body called with a reference to the closure.
    fn call_once_shim_text(&self, closure: &str, ctx: Ctx) -> DResult<String> {
        let b = self.bodies[closure];
        let local = |k: usize| b.locals.get(k).and_then(|l| l.as_ref()).map(|l| l.ty.clone());
        let env = local(1).ok_or_else(|| self.err(ctx, Code::Export, format!("closure `{closure}` has no environment argument")))?;
        let Ty::Ref { mutable, pointee } = &env else {
            return Err(self.err(ctx, Code::Export, format!("closure `{closure}` takes its environment by value")));
        };
        let n = b.arg_count as usize;
        let mut params = vec![format!("_1: {pointee}")];
        for k in 2..=n {
            let t = local(k).ok_or_else(|| self.err(ctx, Code::Export, format!("closure `{closure}` lacks argument _{k}")))?;
            params.push(format!("_{k}: {t}"));
        }
        let span = match b.locals.first().and_then(|l| l.as_ref()).and_then(|l| l.span.as_ref()) {
            Some(s) => format!(" // scope 0 at {s}"),
            None => return Err(self.err(ctx, Code::Export, format!("closure `{closure}` has no span"))),
        };
        let env_ref = n + 1;
        let borrow = if *mutable { "&mut _1" } else { "&_1" };
        let args: Vec<String> = std::iter::once(format!("move _{env_ref}")).chain((2..=n).map(|k| format!("move _{k}"))).collect();
        Ok(format!(
            "fn __oxide_call_once_shim({}) -> {ret} {{\n    let mut _0: {ret};\n    let mut _{env_ref}: {env};\n\n    \
             bb0: {{\n        _{env_ref} = {borrow};{span}\n        _0 = {closure}({}) -> [return: bb1, unwind unreachable];{span}\n    }}\n\n    \
             bb1: {{\n        drop(_1) -> [return: bb2, unwind unreachable];{span}\n    }}\n\n    \
             bb2: {{\n        return;{span}\n    }}\n}}\n",
            params.join(", "),
            args.join(", "),
            ret = b.ret_ty,
        ))
    }
}
