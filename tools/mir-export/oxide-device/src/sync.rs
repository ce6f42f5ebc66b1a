//! Block barriers with a reduction, memory fences, clocks, sleeping and
//! trapping.

mod ffi {
    extern "C" {
        pub fn __oxide_barrier_popc(pred: u32) -> u32;
        pub fn __oxide_barrier_and(pred: u32) -> u32;
        pub fn __oxide_barrier_or(pred: u32) -> u32;
        pub fn __oxide_fence_block();
        pub fn __oxide_fence_device();
        pub fn __oxide_fence_system();
        pub fn __oxide_clock() -> u32;
        pub fn __oxide_clock64() -> u64;
        pub fn __oxide_globaltimer() -> u64;
        pub fn __oxide_nanosleep(ns: u32);
        pub fn __oxide_trap() -> !;
    }
}

/// [`sync_threads`](crate::sync_threads), returning how many threads of the
/// block passed a true `pred` (`bar.red.popc.u32`; CUDA
/// `__syncthreads_count`). Every thread of the block must call it.
#[inline(always)]
pub fn sync_threads_count(pred: bool) -> u32 {
    // SAFETY: a barrier; the convergence requirement is documented.
    unsafe { ffi::__oxide_barrier_popc(pred as u32) }
}

/// [`sync_threads`](crate::sync_threads), returning whether `pred` holds
/// in every thread of the block (`bar.red.and.pred`; `__syncthreads_and`).
#[inline(always)]
pub fn sync_threads_and(pred: bool) -> bool {
    // SAFETY: as `sync_threads_count`.
    unsafe { ffi::__oxide_barrier_and(pred as u32) != 0 }
}

/// [`sync_threads`](crate::sync_threads), returning whether `pred` holds
/// in any thread of the block (`bar.red.or.pred`; `__syncthreads_or`).
#[inline(always)]
pub fn sync_threads_or(pred: bool) -> bool {
    // SAFETY: as `sync_threads_count`.
    unsafe { ffi::__oxide_barrier_or(pred as u32) != 0 }
}

/// Orders this thread's memory accesses as seen by the threads of its
/// block (`membar.cta`; CUDA `__threadfence_block`).
#[inline(always)]
pub fn fence_block() {
    // SAFETY: a fence has no preconditions.
    unsafe { ffi::__oxide_fence_block() }
}

/// Orders this thread's memory accesses as seen by every thread of the
/// device (`membar.gl`; CUDA `__threadfence`).
#[inline(always)]
pub fn fence_device() {
    // SAFETY: a fence has no preconditions.
    unsafe { ffi::__oxide_fence_device() }
}

/// Orders this thread's memory accesses as seen by the whole system, host
/// and peer devices included (`membar.sys`; CUDA `__threadfence_system`).
#[inline(always)]
pub fn fence_system() {
    // SAFETY: a fence has no preconditions.
    unsafe { ffi::__oxide_fence_system() }
}

/// The SM's 32-bit cycle counter (`%clock`); wraps.
#[inline(always)]
pub fn clock() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { ffi::__oxide_clock() }
}

/// The SM's 64-bit cycle counter (`%clock64`).
#[inline(always)]
pub fn clock64() -> u64 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { ffi::__oxide_clock64() }
}

/// A global nanosecond timer (`%globaltimer`), the same on every SM;
/// its resolution is about a microsecond on most GPUs.
#[inline(always)]
pub fn global_timer() -> u64 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { ffi::__oxide_globaltimer() }
}

/// Suspends the thread for about `ns` nanoseconds, at most 1 ms
/// (`nanosleep.u32`, sm_70+). A no-op under emulation.
#[inline(always)]
pub fn nanosleep(ns: u32) {
    // SAFETY: no preconditions.
    unsafe { ffi::__oxide_nanosleep(ns) }
}

/// Aborts the kernel (`trap`): the launch fails with
/// CUDA_ERROR_LAUNCH_FAILED (what a panic does).
#[inline(always)]
pub fn trap() -> ! {
    // SAFETY: no preconditions.
    unsafe { ffi::__oxide_trap() }
}
