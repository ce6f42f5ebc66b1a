//! Hopper (sm_90): mbarriers, bulk and tensor-memory-accelerator (TMA)
//! copies, and warpgroup MMA (`wgmma`, sm_90a: compile with
//! `oxidec --arch=sm_90a`), each a row of oxidec's registry of primitives.
//!
//! The pieces of a Hopper GEMM: a producer thread starts TMA copies of A
//! and B tiles into shared memory ([`tma_load_2d`]), each completing on a
//! "full" [`mbarrier_arrive_expect_tx`] barrier; a warpgroup (4 warps)
//! waits on it ([`mbarrier_wait`]), multiplies the tiles with
//! [`wgmma_m64n128k16_bf16`] from their shared-memory descriptors
//! ([`smem_desc`]), and arrives on an "empty" barrier so that the producer
//! may reuse the stage.
//!
//! Shared-memory tiles for wgmma and TMA live in dynamic shared memory
//! (1024-byte aligned stages for the 128-byte swizzle); under host
//! emulation that is also the only shared memory [`smem_addr`] knows.

use crate::prims::device as ffi;

/// A CUDA tensor map (`CUtensorMap`), made on the host by
/// `ox_tensor_map_encode` and copied to device memory.
#[repr(C, align(64))]
pub struct TensorMap(pub [u8; 128]);

/// The 32-bit shared-memory address of `p` (which points into shared
/// memory).
#[inline(always)]
pub fn smem_addr<T>(p: *const T) -> u32 {
    unsafe { ffi::__oxide_smem_addr(p as *mut u8) }
}

/// How a wgmma operand's rows are swizzled in shared memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Swizzle {
    /// Plain 8 x 16-byte core matrices.
    None = 0,
    /// 128-byte rows, 16-byte chunks XOR the row index mod 8 (TMA's
    /// `swizzle = 128`).
    B128 = 1,
    /// 64-byte rows.
    B64 = 2,
    /// 32-byte rows.
    B32 = 3,
}

/// A wgmma shared-memory matrix descriptor: start address, leading and
/// stride byte offsets (PTX ISA "Matrix Descriptor Format"), swizzle mode.
#[inline(always)]
pub fn smem_desc(addr: u32, leading_bytes: u32, stride_bytes: u32, swizzle: Swizzle) -> u64 {
    ((addr as u64 & 0x3ffff) >> 4)
        | (((leading_bytes as u64 & 0x3ffff) >> 4) << 16)
        | (((stride_bytes as u64 & 0x3ffff) >> 4) << 32)
        | ((swizzle as u64) << 62)
}

/// Initialises the mbarrier at `bar` (8 bytes of shared memory) for
/// `count` arrivals per phase.
///
/// # Safety
/// `bar` points into shared memory, 8-byte aligned; one thread initialises
/// it, then [`fence_mbarrier_init`] and a block barrier.
#[inline(always)]
pub unsafe fn mbarrier_init(bar: *mut u64, count: u32) {
    ffi::__oxide_mbarrier_init(bar as *mut u8, count)
}

/// Invalidates the mbarrier (before its memory is used otherwise).
///
/// # Safety
/// As [`mbarrier_init`].
#[inline(always)]
pub unsafe fn mbarrier_inval(bar: *mut u64) {
    ffi::__oxide_mbarrier_inval(bar as *mut u8)
}

/// One arrival.
///
/// # Safety
/// `bar` is an initialised mbarrier in shared memory.
#[inline(always)]
pub unsafe fn mbarrier_arrive(bar: *mut u64) {
    ffi::__oxide_mbarrier_arrive(bar as *mut u8)
}

/// Expects `bytes` more of transactions (copies) in this phase, then
/// arrives.
///
/// # Safety
/// As [`mbarrier_arrive`].
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(bar: *mut u64, bytes: u32) {
    ffi::__oxide_mbarrier_arrive_expect_tx(bar as *mut u8, bytes)
}

/// Whether the phase of `parity` (0, 1) has completed.
///
/// # Safety
/// As [`mbarrier_arrive`].
#[inline(always)]
pub unsafe fn mbarrier_try_wait(bar: *mut u64, parity: u32) -> bool {
    ffi::__oxide_mbarrier_try_wait_parity(bar as *mut u8, parity) != 0
}

/// Waits until the phase of `parity` has completed.
///
/// # Safety
/// As [`mbarrier_arrive`].
#[inline(always)]
pub unsafe fn mbarrier_wait(bar: *mut u64, parity: u32) {
    while !mbarrier_try_wait(bar, parity) {}
}

/// Makes the generic proxy's shared-memory writes (ordinary stores,
/// mbarrier initialisation) visible to the async proxy (TMA, wgmma).
#[inline(always)]
pub fn fence_proxy_async_shared() {
    unsafe { ffi::__oxide_fence_proxy_async_shared() }
}

/// Makes mbarrier initialisation visible (to the cluster).
#[inline(always)]
pub fn fence_mbarrier_init() {
    unsafe { ffi::__oxide_fence_mbarrier_init() }
}

/// Copies `bytes` (a multiple of 16, both addresses 16-byte aligned) from
/// global to shared memory, completing on `bar`'s transaction count.
///
/// # Safety
/// Valid pointers; `bar` expects the bytes ([`mbarrier_arrive_expect_tx`]).
#[inline(always)]
pub unsafe fn bulk_copy_g2s(dst: *mut u8, src: *const u8, bytes: u32, bar: *mut u64) {
    ffi::__oxide_bulk_copy_g2s(dst, src as *mut u8, bytes, bar as *mut u8)
}

/// TMA: copies the box at element coordinates (`x` innermost, `y`) of the
/// tensor `map` describes into `dst`, completing on `bar`.
///
/// # Safety
/// `map` is a tensor map in global memory (64-byte aligned); `dst` points
/// at shared memory aligned for the map's swizzle (1024 bytes for 128).
#[inline(always)]
pub unsafe fn tma_load_2d(dst: *mut u8, map: *const TensorMap, x: i32, y: i32, bar: *mut u64) {
    ffi::__oxide_tma_load_2d(dst, map as *mut u8, x, y, bar as *mut u8)
}

/// True in one lane of `mask` (the warp's lanes in it call it together).
#[inline(always)]
pub fn elect_sync(mask: u32) -> bool {
    unsafe { ffi::__oxide_elect_sync(mask) != 0 }
}

/// setmaxnreg (sm_90a): the warpgroup's registers per thread become 240.
#[inline(always)]
pub fn setmaxnreg_inc_240() {
    unsafe { ffi::__oxide_setmaxnreg_inc_240() }
}
/// setmaxnreg: 232 registers per thread.
#[inline(always)]
pub fn setmaxnreg_inc_232() {
    unsafe { ffi::__oxide_setmaxnreg_inc_232() }
}
/// setmaxnreg: 40 registers per thread.
#[inline(always)]
pub fn setmaxnreg_dec_40() {
    unsafe { ffi::__oxide_setmaxnreg_dec_40() }
}
/// setmaxnreg: 24 registers per thread.
#[inline(always)]
pub fn setmaxnreg_dec_24() {
    unsafe { ffi::__oxide_setmaxnreg_dec_24() }
}

/// Orders register accesses to the accumulators before the next wgmma.
#[inline(always)]
pub fn wgmma_fence() {
    unsafe { ffi::__oxide_wgmma_fence() }
}

/// Closes the wgmma operations issued since the last commit into a group.
#[inline(always)]
pub fn wgmma_commit_group() {
    unsafe { ffi::__oxide_wgmma_commit_group() }
}

/// Waits until at most `n` (0..=3; more waits as for 3) wgmma groups are
/// pending.
#[inline(always)]
pub fn wgmma_wait_group(n: u32) {
    unsafe {
        match n {
            0 => ffi::__oxide_wgmma_wait_group_0(),
            1 => ffi::__oxide_wgmma_wait_group_1(),
            2 => ffi::__oxide_wgmma_wait_group_2(),
            _ => ffi::__oxide_wgmma_wait_group_3(),
        }
    }
}

macro_rules! wgmma {
    ($(#[$doc:meta])* $name:ident, $prim:ident, $n:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The four warps of the warpgroup call it together, between
        /// [`wgmma_fence`] and [`wgmma_commit_group`] /
        /// [`wgmma_wait_group`]; the descriptors describe bf16 tiles in
        /// shared memory, K-major.
        #[inline(always)]
        pub unsafe fn $name(acc: &mut [f32; $n], desc_a: u64, desc_b: u64, accumulate: bool) {
            ffi::$prim(acc.as_mut_ptr(), desc_a, desc_b, accumulate as u32)
        }
    };
}

wgmma!(
    /// `acc (+)= A * B` for A 64 x 16 and B 16 x 64 (bf16), f32 `acc`: thread `t`
    /// of the warpgroup holds `acc[i]` = D[16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2)]
    /// [8 (i / 4) + 2 (t % 4) + i % 2].
    wgmma_m64n64k16_bf16, __oxide_wgmma_m64n64k16_f32_bf16, 32
);
wgmma!(
    /// As [`wgmma_m64n64k16_bf16`] with N = 128.
    wgmma_m64n128k16_bf16, __oxide_wgmma_m64n128k16_f32_bf16, 64
);
wgmma!(
    /// As [`wgmma_m64n64k16_bf16`] with N = 256.
    wgmma_m64n256k16_bf16, __oxide_wgmma_m64n256k16_f32_bf16, 128
);
