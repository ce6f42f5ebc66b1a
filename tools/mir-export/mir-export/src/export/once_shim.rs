//! The by-value shim of a closure inferred `Fn` or `FnMut` and called
//! through `FnOnce::call_once` (`fn apply<F: FnOnce(u64) -> u64>(f: F)`
//! given a closure that was called by reference before): `call_once`
//! passes the closure by value, while its body takes `&{closure}` or
//! `&mut {closure}`. rustc calls its `FnOnce` shim there, which its MIR
//! text does not contain; mir-export writes the equivalent as MIR text
//! (as for the fn pointer shim, closure_shims.rs) and parses it:
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

use super::body::Ctx;
use super::closure_shims::{shim_call, ClosureSig};
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
        self.add_shim_body(name, &text, "by-value shim", closure, ctx)
    }

    /// The shim's MIR text: the closure by value, then the body's own
    /// arguments; the body called with a reference to the closure.
    fn call_once_shim_text(&self, closure: &str, ctx: Ctx) -> DResult<String> {
        let ClosureSig { env, args: arg_tys, ret, span } = self.closure_sig(closure, ctx)?;
        let crate::mirparse::ast::Ty::Ref { mutable, pointee } = &env else {
            return Err(self.err(ctx, Code::Export, format!("closure `{closure}` takes its environment by value")));
        };
        let n = arg_tys.len() + 1;
        let params: Vec<String> = std::iter::once(format!("_1: {pointee}")).chain(arg_tys.iter().enumerate().map(|(k, t)| format!("_{}: {t}", k + 2))).collect();
        let env_ref = n + 1;
        let borrow = if *mutable { "&mut _1" } else { "&_1" };
        let args: Vec<String> = std::iter::once(format!("move _{env_ref}")).chain((2..=n).map(|k| format!("move _{k}"))).collect();
        Ok(format!(
            "fn __oxide_call_once_shim({}) -> {ret} {{\n    let mut _0: {ret};\n    let mut _{env_ref}: {env};\n\n    \
             bb0: {{\n        _{env_ref} = {borrow};{span}\n        {}\n    }}\n\n    \
             bb1: {{\n        drop(_1) -> [return: bb2, unwind unreachable];{span}\n    }}\n\n    \
             bb2: {{\n        return;{span}\n    }}\n}}\n",
            params.join(", "),
            shim_call(closure, &args, &span),
        ))
    }
}
