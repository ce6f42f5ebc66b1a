//! Block barriers with a reduction, named barriers with a thread count,
//! memory fences, clocks, sleeping and trapping.

use crate::prims::device as ffi;

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

/// Named barriers: the 16 hardware barriers of a block (ids 0 to 15).
pub const BARRIER_COUNT: u32 = 16;

/// Waits at barrier `id` until `threads` threads of the block have arrived
/// at it (PTX `barrier.sync id, threads`; CUDA's named barriers, as in
/// producer/consumer warp specialisation). The barrier then resets, so
/// the same id can be used again at once.
///
/// Threads arrive by warps: the hardware counts a warp as 32 threads when
/// all its lanes that have not exited arrived, so call it from every lane
/// of each participating warp. [`sync_threads`](crate::sync_threads) is
/// barrier 0 for the whole block; give partial-block barriers other ids.
///
/// # Safety
///
/// `id < 16`; `threads` is a nonzero multiple of 32, at most the block
/// size rounded up to whole warps, and the same in every thread that
/// arrives at barrier `id` in this phase; exactly `threads / 32` warps
/// arrive (by `barrier_sync` or [`barrier_arrive`]) before any of them
/// uses the barrier again. Otherwise the block hangs or the behaviour is
/// undefined; the emulator reports a barrier that can never complete as a
/// failed launch.
#[inline(always)]
pub unsafe fn barrier_sync(id: u32, threads: u32) {
    // SAFETY: the caller's contract above.
    unsafe { ffi::__oxide_barrier_sync_count(id, threads) }
}

/// Arrives at barrier `id` without waiting (PTX `barrier.arrive id,
/// threads`): the producer's side of a producer/consumer pair whose
/// consumers wait with [`barrier_sync`]`(id, threads)`; `threads` counts
/// both. Memory writes before the arrival are visible to the threads that
/// the barrier releases.
///
/// # Safety
///
/// As [`barrier_sync`].
#[inline(always)]
pub unsafe fn barrier_arrive(id: u32, threads: u32) {
    // SAFETY: the caller's contract, as `barrier_sync`.
    unsafe { ffi::__oxide_barrier_arrive_count(id, threads) }
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
