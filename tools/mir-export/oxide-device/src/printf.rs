//! `gpu_printf!`: CUDA's device-side `printf`, through `vprintf(fmt, args)`.
//!
//! The arguments are packed into a buffer with CUDA's layout: each one at
//! the next offset that is a multiple of its size; `f32` is promoted to
//! `f64`, integers narrower than 32 bits to `i32`/`u32` (C's default
//! argument promotions). On the GPU the output appears when the host next
//! synchronises; under emulation the runtime prints it at once. Format
//! conversions are C's: `%d %i %u %x %X %o %c` take 32-bit integers, `%ld
//! %lu %lld %llu %lx` 64-bit ones, `%f %e %g %a` doubles, `%p` pointers.

use core::mem::{size_of, MaybeUninit};

use crate::prims::device::__oxide_vprintf;

/// Bytes of arguments one `gpu_printf!` can pass.
pub const CAPACITY: usize = 256;

/// The argument buffer of one `gpu_printf!` call.
#[doc(hidden)]
#[repr(C, align(8))]
pub struct Args {
    bytes: MaybeUninit<[u64; CAPACITY / 8]>,
    len: usize,
}

impl Args {
    #[inline(always)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Args { bytes: MaybeUninit::uninit(), len: 0 }
    }

    /// Appends `v` at the next multiple of its size (its alignment in
    /// CUDA's buffer); arguments past CAPACITY are dropped.
    #[inline(always)]
    pub fn put<T: Copy>(&mut self, v: T) {
        let size = size_of::<T>();
        let off = (self.len + size - 1) & !(size - 1);
        if off + size <= CAPACITY {
            // SAFETY: in bounds, and `off` is a multiple of size_of::<T>()
            // in an 8-aligned buffer (T is at most 8 bytes).
            unsafe { (self.bytes.as_mut_ptr() as *mut u8).add(off).cast::<T>().write(v) }
        }
        self.len = off + size;
    }
}

/// A value `gpu_printf!` can print.
pub trait PrintfArg {
    #[doc(hidden)]
    fn put(self, args: &mut Args);
}

macro_rules! printf_arg {
    ($($t:ty => $as:ty),* $(,)?) => {$(
        impl PrintfArg for $t {
            #[inline(always)]
            fn put(self, args: &mut Args) {
                args.put(self as $as)
            }
        }
    )*};
}

printf_arg! {
    i8 => i32, i16 => i32, i32 => i32, i64 => i64, isize => i64,
    u8 => u32, u16 => u32, u32 => u32, u64 => u64, usize => u64,
    f32 => f64, f64 => f64,
}

impl PrintfArg for bool {
    #[inline(always)]
    fn put(self, args: &mut Args) {
        args.put(self as i32)
    }
}

impl PrintfArg for char {
    #[inline(always)]
    fn put(self, args: &mut Args) {
        args.put(self as u32)
    }
}

impl<T> PrintfArg for *const T {
    #[inline(always)]
    fn put(self, args: &mut Args) {
        args.put(self as usize as u64)
    }
}

impl<T> PrintfArg for *mut T {
    #[inline(always)]
    fn put(self, args: &mut Args) {
        args.put(self as usize as u64)
    }
}

/// Calls the device `vprintf`; `fmt` must end in a NUL byte.
#[doc(hidden)]
#[inline(always)]
pub fn vprintf(fmt: &str, args: &Args) -> i32 {
    // SAFETY: fmt is NUL-terminated (gpu_printf! appends it) and args
    // holds the arguments in CUDA's layout.
    unsafe { __oxide_vprintf(fmt.as_ptr(), args as *const Args as *const u8) }
}

/// `gpu_printf!("i = %d, x = %f\n", i, x)`: prints from the GPU with C's
/// `printf` format (see the module documentation for the conversions);
/// returns what CUDA's `vprintf` returns (the number of arguments, or a
/// negative value on error).
#[macro_export]
macro_rules! gpu_printf {
    ($fmt:expr $(, $arg:expr)* $(,)?) => {{
        let mut __oxide_args = $crate::printf::Args::new();
        $( $crate::printf::PrintfArg::put($arg, &mut __oxide_args); )*
        $crate::printf::vprintf(concat!($fmt, "\0"), &__oxide_args)
    }};
}
