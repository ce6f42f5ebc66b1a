//! GPU memory spaces: block-shared memory ([`Shared`], [`shared_array!`],
//! [`dynamic_shared`]) and constant memory ([`Constant`]).
//!
//! oxidec recognises a `static` by its declared type (mir-export reports
//! it with the static's allocation): a `static` of type `Shared<T>` is
//! placed in PTX `.shared` memory (address space 3, undefined at block
//! start, one copy per block), a `static` of type `Constant<T>` in `.const`
//! memory (address space 4) under the static's own name, so the host can
//! set it with `ox_module_global` before a launch.

use core::cell::UnsafeCell;
use core::mem::MaybeUninit;

/// Block-shared storage for a `T`: declare it as a `static` (one per block,
/// uninitialised when the block starts), usually through [`shared_array!`].
///
/// ```ignore
/// static TILE: Shared<[f32; 256]> = Shared::uninit();
/// let tile: *mut [f32; 256] = TILE.as_mut_ptr();
/// ```
#[repr(transparent)]
pub struct Shared<T>(UnsafeCell<MaybeUninit<T>>);

// SAFETY: the threads of a block share it by design; synchronising their
// accesses (sync_threads, atomics) is the kernel author's job, as in CUDA.
unsafe impl<T> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// Storage that starts undefined (the only kind shared memory has).
    #[allow(clippy::new_without_default)]
    pub const fn uninit() -> Self {
        Shared(UnsafeCell::new(MaybeUninit::uninit()))
    }

    /// Pointer to the shared storage; accesses through it are `ld.shared`
    /// / `st.shared`.
    #[inline(always)]
    pub const fn as_mut_ptr(&self) -> *mut T {
        self.0.get() as *mut T
    }
}

/// A block-shared array: `shared_array!(f32, 256)` is a
/// `&'static mut [f32; 256]` into `.shared` memory, one array per call
/// site and block, uninitialised when the block starts.
///
/// Every thread of the block gets the same array: write disjoint elements
/// or synchronise ([`crate::sync_threads`]) between writes and reads.
#[macro_export]
macro_rules! shared_array {
    ($t:ty, $n:expr) => {{
        static __OXIDE_SHARED: $crate::Shared<[$t; $n]> = $crate::Shared::uninit();
        // SAFETY: shared memory lives as long as the block; aliasing between
        // threads is the kernel's to synchronise, as in CUDA.
        unsafe { &mut *__OXIDE_SHARED.as_mut_ptr() }
    }};
}

/// The dynamic shared memory of this launch (`shared_bytes` of the launch,
/// PTX `.extern .shared .align 16 .b8 __oxide_dynamic_shared[]`), 16-byte
/// aligned, as a `*mut T`. Its size is what the host asked for.
#[inline(always)]
pub fn dynamic_shared<T>() -> *mut T {
    // SAFETY: returns an address; no preconditions.
    unsafe { crate::primitives::__oxide_dynamic_shared() as *mut T }
}

/// A value in constant memory (`.const`, cached, read-only for kernels),
/// set by the host by the static's name (`ox_module_global`) before a
/// launch; the initializer is its value until then.
///
/// ```ignore
/// static COEFFS: Constant<[f32; 16]> = Constant::new([0.0; 16]);
/// let c = COEFFS.get()[i];
/// ```
#[repr(transparent)]
pub struct Constant<T>(UnsafeCell<T>);

// SAFETY: kernels only read it; the host writes it between launches.
unsafe impl<T> Sync for Constant<T> {}

impl<T> Constant<T> {
    pub const fn new(v: T) -> Self {
        Constant(UnsafeCell::new(v))
    }

    /// The value (read from `.const` memory; the compiler never folds it
    /// to the initializer, since the host may have changed it).
    #[inline(always)]
    pub fn get(&self) -> &T {
        // SAFETY: nothing writes it while a kernel runs.
        unsafe { &*self.0.get() }
    }
}
