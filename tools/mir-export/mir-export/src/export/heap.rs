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

use super::Exporter;

/// The allocator entry points alloc declares and `#[global_allocator]`
/// defines in the kernel crate.
pub const ALLOCATOR_SHIMS: [&str; 4] = ["__rust_alloc", "__rust_dealloc", "__rust_realloc", "__rust_alloc_zeroed"];

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
    let shim = ALLOCATOR_SHIMS.iter().find(|s| **s == name)?;
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
    }
}
