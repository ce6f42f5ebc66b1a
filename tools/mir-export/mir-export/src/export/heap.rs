//! The heap in kernels: alloc's `Vec` and `Box` over the kernel crate's
//! `#[global_allocator]` (docs/DESIGN.md, "Library bodies": alloc).
//!
//! A kernel crate that declares a global allocator
//! (`#[global_allocator] static HEAP: oxide_device::alloc::DeviceHeap =
//! oxide_device::alloc::DeviceHeap;`) has rustc's allocator shims in its
//! MIR: `__rust_alloc`, `__rust_dealloc`, `__rust_realloc`,
//! `__rust_alloc_zeroed`, each calling the allocator's `GlobalAlloc`
//! methods. alloc declares them `extern "Rust"` (`alloc::alloc::__rust_alloc`)
//! and calls them from `Global`'s methods; here such a call is the kernel
//! crate's shim. alloc's own bodies (`Vec::push_mut`, `RawVec`'s growth,
//! the drop glue) come from alloc's MIR like core's. Without a global
//! allocator, every heap type and alloc call stays the heap error.

use super::body::Ctx;
use super::Exporter;
use crate::diag::{Code, DResult};
use crate::mirparse::ast::{Body, Path};
use crate::mirparse::parser::parse_str;

/// The allocator entry points alloc declares and `#[global_allocator]`
/// defines in the kernel crate.
pub const ALLOCATOR_SHIMS: [&str; 4] = ["__rust_alloc", "__rust_dealloc", "__rust_realloc", "__rust_alloc_zeroed"];

/// The entry point rustc's codegen defines beside the shims (1.96:
/// `__rust_no_alloc_shim_is_unstable_v2`, which alloc's `alloc` and
/// `alloc_zeroed` call so that stable code cannot leave the allocator shim
/// out). Its body is empty (`rustc_codegen_llvm::allocator`: a wrapper
/// without a callee is `ret void`) and no MIR prints it: with a global
/// allocator the export gets that empty body, made here.
pub const NO_ALLOC_SHIM: &str = "__rust_no_alloc_shim_is_unstable_v2";

/// alloc's `extern "Rust"` entry of `handle_alloc_error` (its run-time
/// path), which rustc's allocator shim defines.
const ERROR_HANDLER: &str = "alloc::alloc::__rust_alloc_error_handler";

/// What rustc's shim calls there without an `#[alloc_error_handler]`:
/// alloc's default, which panics without unwinding ("memory allocation of
/// N bytes failed"): on the GPU, a trap.
const DEFAULT_ERROR_HANDLER: &str = "alloc::alloc::__alloc_error_handler::__rdl_alloc_error_handler";

/// What the heap error tells the user to write.
pub const HEAP_HINT: &str = "declare a `#[global_allocator]` in the kernel crate and export it through a rustc \
with its library sources (alloc's `Vec` and `Box` are read from alloc's MIR), or use fixed-size arrays, \
`shared_array!` or buffers the host passes in";

/// Whether `bare` (a path, the kernel's spelling) is alloc's or std's.
pub fn is_heap_path(bare: &str) -> bool {
    bare.starts_with("alloc::")
}

/// The kernel crate's shim that alloc's `extern "Rust"` declaration
/// `bare` (`alloc::alloc::__rust_alloc`) stands for, by the name of its
/// body (`has_body`): rustc 1.95 prints `__rust_alloc`, 1.96 `_::__rust_alloc`
/// (the `const _: () = { .. }` the attribute expands to).
pub fn allocator_shim(bare: &str, has_body: &dyn Fn(&str) -> bool) -> Option<String> {
    let name = bare.strip_prefix("alloc::alloc::")?;
    let shim = ALLOCATOR_SHIMS.iter().chain([&NO_ALLOC_SHIM]).find(|s| **s == name)?;
    [shim.to_string(), format!("_::{shim}")].into_iter().find(|n| has_body(n))
}

/// Whether body `name` of the kernel crate is allocator shim `shim`.
fn is_shim(name: &str, shim: &str) -> bool {
    name == shim || name.strip_prefix("_::") == Some(shim)
}

impl<'a> Exporter<'a> {
    /// Whether the kernel crate declares a `#[global_allocator]`: rustc
    /// then generates the allocator shims in its MIR.
    pub(super) fn has_global_allocator(&self) -> bool {
        ALLOCATOR_SHIMS.iter().all(|s| self.input.mir.bodies.iter().any(|b| is_shim(&b.name, s)))
    }

    /// The function a call of `path` calls instead when it is alloc's
    /// `__rust_alloc_error_handler`: alloc's default handler, as rustc's
    /// shim calls it, when the crate has a global allocator and no
    /// `#[alloc_error_handler]` (whose `__rg_oom` is refused).
    pub(super) fn alloc_error_handler(&self, path: &Path, ctx: Ctx) -> DResult<Option<Path>> {
        if path.bare() != ERROR_HANDLER || !self.has_global_allocator() {
            return Ok(None);
        }
        if self.input.mir.bodies.iter().any(|b| b.name == "__rg_oom" || b.name.ends_with("::__rg_oom")) {
            return Err(self.err(ctx, Code::Unsupported, "an `#[alloc_error_handler]` is not supported: alloc's default handler (a trap) is the one oxidec calls"));
        }
        Ok(Some(parse_str(DEFAULT_ERROR_HANDLER, |p| p.path(true)).expect("a path")))
    }

    /// With a global allocator, the empty body of `NO_ALLOC_SHIM`, named
    /// as the other shims are (`_::` in 1.96) and located at theirs (the
    /// `#[global_allocator]` item), among the bodies.
    pub(super) fn add_no_alloc_shim(&mut self) {
        let Some(alloc) = self.input.mir.bodies.iter().find(|b| is_shim(&b.name, "__rust_alloc")) else { return };
        let span = alloc.locals.first().and_then(|l| l.as_ref()).and_then(|l| l.span.as_ref());
        let (Some(span), true) = (span, self.has_global_allocator()) else { return };
        let name = format!("{}{NO_ALLOC_SHIM}", &alloc.name[..alloc.name.len() - "__rust_alloc".len()]);
        let span = format!("{}:{}:{}: {}:{}", span.file, span.line, span.col, span.end_line, span.end_col);
        let file = crate::mirparse::items::parse_mir_file(&no_alloc_shim_text(&span)).expect("the no-alloc shim's MIR text parses");
        let mut body = file.bodies.into_iter().next().expect("the no-alloc shim's body");
        body.name = name.clone();
        let body: &'a Body = Box::leak(Box::new(body));
        self.bodies.insert(Box::leak(name.into_boxed_str()), body);
    }
}

/// rustc's `NO_ALLOC_SHIM` as MIR text: returns at once.
fn no_alloc_shim_text(span: &str) -> String {
    format!(
        "fn {NO_ALLOC_SHIM}() -> () {{\n    let mut _0: (); // return place in scope 0 at {span}\n\n    \
         bb0: {{\n        return; // scope 0 at {span}\n    }}\n}}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_declarations_are_the_kernel_crate_shims() {
        let v196 = |n: &str| n == "_::__rust_alloc" || n == "_::__rust_dealloc";
        assert_eq!(allocator_shim("alloc::alloc::__rust_alloc", &v196).as_deref(), Some("_::__rust_alloc"));
        let v195 = |n: &str| n == "__rust_alloc";
        assert_eq!(allocator_shim("alloc::alloc::__rust_alloc", &v195).as_deref(), Some("__rust_alloc"));
        // no #[global_allocator]: no shim body
        assert_eq!(allocator_shim("alloc::alloc::__rust_dealloc", &v195), None);
        assert_eq!(allocator_shim("alloc::alloc::alloc", &v196), None);
        assert!(is_shim("_::__rust_realloc", "__rust_realloc") && !is_shim("m::__rust_realloc", "__rust_realloc"));
        // the entry rustc's codegen defines: the body made here, named alike
        let made = |n: &str| n == "_::__rust_no_alloc_shim_is_unstable_v2";
        assert_eq!(allocator_shim("alloc::alloc::__rust_no_alloc_shim_is_unstable_v2", &made).as_deref(), Some("_::__rust_no_alloc_shim_is_unstable_v2"));
    }

    #[test]
    fn the_no_alloc_shim_returns_at_once() {
        let file = crate::mirparse::items::parse_mir_file(&no_alloc_shim_text("src/lib.rs:20:1: 20:38")).unwrap();
        let body = &file.bodies[0];
        assert_eq!((body.arg_count, body.blocks.len()), (0, 1));
        assert_eq!(body.ret_ty.to_string(), "()");
    }
}
