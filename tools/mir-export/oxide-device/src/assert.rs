//! `device_assert!`: CUDA's device-side `assert`, reporting the Rust
//! source location.
//!
//! A failed assertion calls CUDA's `__assertfail(message, file, line,
//! function, 1)` (the driver's device function that nvcc's and clang's
//! `assert` call), which prints
//!
//! ```text
//! src/lib.rs:12: my_kernels: block: [1,0,0], thread: [3,0,0] Assertion `i < n` failed.
//! ```
//!
//! and stops the kernel; oxidec follows the call with `trap`. The launch
//! fails with CUDA_ERROR_ASSERT and the CUDA context is unusable after it,
//! as after any trap. Under emulation the runtime prints the same line to
//! stderr and fails the launch with the same error code. The `function` is
//! the module path (`module_path!()`): Rust has no macro for the name of
//! the enclosing function.

use crate::prims::device::__oxide_assertfail;

/// Reports a failed assertion and stops the kernel; the strings end in a
/// NUL byte (`device_assert!` appends it).
#[doc(hidden)]
#[inline(always)]
pub fn assert_fail(message: &'static str, file: &'static str, line: u32, function: &'static str) -> ! {
    // SAFETY: the three strings are NUL-terminated (device_assert! builds
    // them with concat!(..., "\0")).
    unsafe { __oxide_assertfail(message.as_ptr(), file.as_ptr(), line, function.as_ptr()) }
}

/// `device_assert!(cond)` / `device_assert!(cond, "message")`: stops the
/// kernel with CUDA's device assertion failure when `cond` is false,
/// reporting `file!()`, `line!()`, `module_path!()` and the condition's
/// source text (followed by `: message` when one is given; it must be a
/// string literal). Always checked, in release builds too.
#[macro_export]
macro_rules! device_assert {
    ($cond:expr $(,)?) => {
        if !$cond {
            $crate::assert::assert_fail(
                concat!(stringify!($cond), "\0"),
                concat!(file!(), "\0"),
                line!(),
                concat!(module_path!(), "\0"),
            )
        }
    };
    ($cond:expr, $msg:literal $(,)?) => {
        if !$cond {
            $crate::assert::assert_fail(
                concat!(stringify!($cond), ": ", $msg, "\0"),
                concat!(file!(), "\0"),
                line!(),
                concat!(module_path!(), "\0"),
            )
        }
    };
}
