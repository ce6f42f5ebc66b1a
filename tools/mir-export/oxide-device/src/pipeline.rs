//! Asynchronous copies from global to shared memory (`cp.async`, sm_80+):
//! a thread issues copies, closes them into a group with [`commit_group`],
//! and [`wait_group`]`(n)` waits until all but its `n` most recent groups
//! have landed; a [`crate::sync_threads`] after the wait makes every
//! thread's copies visible to the block. Copies of 16 bytes that bypass L1
//! (`cg`) are the usual way to stream GEMM tiles: several stages in flight
//! while the tensor cores work on an earlier one.
//!
//! Under host emulation each thread's copies wait in a queue and land at
//! the `wait_group` that waits for them, so reading a tile too early reads
//! what was there before, as it may on the GPU.

use crate::prims::device as ffi;

/// Copies 16 bytes, caching in L1 and L2 (`cp.async.ca`).
///
/// # Safety
/// `dst` points into shared memory, `src` into global memory, both 16-byte
/// aligned with 16 bytes valid; `dst` is not read before the copy's group
/// is waited for.
#[inline(always)]
pub unsafe fn cp_async_ca_16(dst: *mut u8, src: *const u8) {
    ffi::__oxide_cp_async_ca_16(dst, src as *mut u8)
}

/// Copies 16 bytes, caching in L2 only (`cp.async.cg`); as [`cp_async_ca_16`].
///
/// # Safety
/// As [`cp_async_ca_16`].
#[inline(always)]
pub unsafe fn cp_async_cg_16(dst: *mut u8, src: *const u8) {
    ffi::__oxide_cp_async_cg_16(dst, src as *mut u8)
}

/// Copies 8 bytes (`cp.async.ca`); both pointers 8-byte aligned.
///
/// # Safety
/// As [`cp_async_ca_16`], for 8 bytes.
#[inline(always)]
pub unsafe fn cp_async_ca_8(dst: *mut u8, src: *const u8) {
    ffi::__oxide_cp_async_ca_8(dst, src as *mut u8)
}

/// Copies 4 bytes (`cp.async.ca`); both pointers 4-byte aligned.
///
/// # Safety
/// As [`cp_async_ca_16`], for 4 bytes.
#[inline(always)]
pub unsafe fn cp_async_ca_4(dst: *mut u8, src: *const u8) {
    ffi::__oxide_cp_async_ca_4(dst, src as *mut u8)
}

/// Closes the copies issued since the last commit into a group.
#[inline(always)]
pub fn commit_group() {
    unsafe { ffi::__oxide_cp_async_commit_group() }
}

/// Waits until all but the `n` most recent committed groups of this
/// thread have landed; `n` above 7 waits as for 7 (PTX takes an immediate:
/// with a constant `n` this is one instruction).
#[inline(always)]
pub fn wait_group(n: u32) {
    unsafe {
        match n {
            0 => ffi::__oxide_cp_async_wait_group_0(),
            1 => ffi::__oxide_cp_async_wait_group_1(),
            2 => ffi::__oxide_cp_async_wait_group_2(),
            3 => ffi::__oxide_cp_async_wait_group_3(),
            4 => ffi::__oxide_cp_async_wait_group_4(),
            5 => ffi::__oxide_cp_async_wait_group_5(),
            6 => ffi::__oxide_cp_async_wait_group_6(),
            _ => ffi::__oxide_cp_async_wait_group_7(),
        }
    }
}

/// Waits for every copy of this thread, committed or not.
#[inline(always)]
pub fn wait_all() {
    unsafe { ffi::__oxide_cp_async_wait_all() }
}
