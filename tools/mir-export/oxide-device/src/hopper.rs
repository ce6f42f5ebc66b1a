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

/// The wgmma operations of one N (`wgmma.mma_async m64nNk16`, f32 += bf16
/// or f16): A from shared memory (its descriptor) or from registers (`_rs`).
macro_rules! wgmma {
    ($($n:literal / $nd:literal: $bf:ident $f:ident $bf_rs:ident $f_rs:ident = $pbf:ident $pf:ident $pbf_rs:ident $pf_rs:ident;)*) => {$(
        wgmma!(@ss $bf, $pbf, $n, $nd, "bf16");
        wgmma!(@ss $f, $pf, $n, $nd, "f16");
        wgmma!(@rs $bf_rs, $pbf_rs, $n, $nd, "bf16");
        wgmma!(@rs $f_rs, $pf_rs, $n, $nd, "f16");
    )*};
    (@ss $name:ident, $prim:ident, $n:literal, $nd:literal, $t:literal) => {
        #[doc = concat!("`acc (+)= A * B` for A 64 x 16 and B 16 x ", $nd, " * 2, both ", $t,
                        " in shared memory (their descriptors, K-major), f32 `acc`: thread `t` of the \
                         warpgroup holds `acc[i]` = D[16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2)]\
                         [8 (i / 4) + 2 (t % 4) + i % 2]; `accumulate` false: `acc = A * B`.")]
        ///
        /// # Safety
        /// The four warps of the warpgroup call it together, between
        /// [`wgmma_fence`] and [`wgmma_commit_group`] /
        /// [`wgmma_wait_group`]; the descriptors describe tiles in shared
        /// memory, K-major.
        #[inline(always)]
        pub unsafe fn $name(acc: &mut [f32; $nd], desc_a: u64, desc_b: u64, accumulate: bool) {
            ffi::$prim(acc.as_mut_ptr(), desc_a, desc_b, accumulate as u32)
        }
    };
    (@rs $name:ident, $prim:ident, $n:literal, $nd:literal, $t:literal) => {
        #[doc = concat!("`acc (+)= A * B` for N = ", $n, " as the shared-memory form, with A (64 x 16, ", $t,
                        ") from registers: warp `w` of the warpgroup holds rows 16 w .. 16 w + 15 as \
                         mma.m16n8k16's A fragment (lane 4 g + q: `a[0]` = A[g][2q, 2q + 1], `a[1]` \
                         the same at row g + 8, `a[2]`, `a[3]` at columns + 8; the low half first).")]
        ///
        /// # Safety
        /// As the shared-memory form; the registers of `a` must not be
        /// written until the operation has completed
        /// ([`wgmma_wait_group`]).
        #[inline(always)]
        pub unsafe fn $name(acc: &mut [f32; $nd], a: &[u32; 4], desc_b: u64, accumulate: bool) {
            ffi::$prim(acc.as_mut_ptr(), a[0], a[1], a[2], a[3], desc_b, accumulate as u32)
        }
    };
}

// every N the ISA allows for bf16 / f16 (8 .. 256 in steps of 8; the
// registry's WGMMA_SHAPES)
wgmma! {
    8 / 4: wgmma_m64n8k16_bf16 wgmma_m64n8k16_f16 wgmma_m64n8k16_bf16_rs wgmma_m64n8k16_f16_rs = __oxide_wgmma_m64n8k16_f32_bf16 __oxide_wgmma_m64n8k16_f32_f16 __oxide_wgmma_m64n8k16_f32_bf16_rs __oxide_wgmma_m64n8k16_f32_f16_rs;
    16 / 8: wgmma_m64n16k16_bf16 wgmma_m64n16k16_f16 wgmma_m64n16k16_bf16_rs wgmma_m64n16k16_f16_rs = __oxide_wgmma_m64n16k16_f32_bf16 __oxide_wgmma_m64n16k16_f32_f16 __oxide_wgmma_m64n16k16_f32_bf16_rs __oxide_wgmma_m64n16k16_f32_f16_rs;
    24 / 12: wgmma_m64n24k16_bf16 wgmma_m64n24k16_f16 wgmma_m64n24k16_bf16_rs wgmma_m64n24k16_f16_rs = __oxide_wgmma_m64n24k16_f32_bf16 __oxide_wgmma_m64n24k16_f32_f16 __oxide_wgmma_m64n24k16_f32_bf16_rs __oxide_wgmma_m64n24k16_f32_f16_rs;
    32 / 16: wgmma_m64n32k16_bf16 wgmma_m64n32k16_f16 wgmma_m64n32k16_bf16_rs wgmma_m64n32k16_f16_rs = __oxide_wgmma_m64n32k16_f32_bf16 __oxide_wgmma_m64n32k16_f32_f16 __oxide_wgmma_m64n32k16_f32_bf16_rs __oxide_wgmma_m64n32k16_f32_f16_rs;
    40 / 20: wgmma_m64n40k16_bf16 wgmma_m64n40k16_f16 wgmma_m64n40k16_bf16_rs wgmma_m64n40k16_f16_rs = __oxide_wgmma_m64n40k16_f32_bf16 __oxide_wgmma_m64n40k16_f32_f16 __oxide_wgmma_m64n40k16_f32_bf16_rs __oxide_wgmma_m64n40k16_f32_f16_rs;
    48 / 24: wgmma_m64n48k16_bf16 wgmma_m64n48k16_f16 wgmma_m64n48k16_bf16_rs wgmma_m64n48k16_f16_rs = __oxide_wgmma_m64n48k16_f32_bf16 __oxide_wgmma_m64n48k16_f32_f16 __oxide_wgmma_m64n48k16_f32_bf16_rs __oxide_wgmma_m64n48k16_f32_f16_rs;
    56 / 28: wgmma_m64n56k16_bf16 wgmma_m64n56k16_f16 wgmma_m64n56k16_bf16_rs wgmma_m64n56k16_f16_rs = __oxide_wgmma_m64n56k16_f32_bf16 __oxide_wgmma_m64n56k16_f32_f16 __oxide_wgmma_m64n56k16_f32_bf16_rs __oxide_wgmma_m64n56k16_f32_f16_rs;
    64 / 32: wgmma_m64n64k16_bf16 wgmma_m64n64k16_f16 wgmma_m64n64k16_bf16_rs wgmma_m64n64k16_f16_rs = __oxide_wgmma_m64n64k16_f32_bf16 __oxide_wgmma_m64n64k16_f32_f16 __oxide_wgmma_m64n64k16_f32_bf16_rs __oxide_wgmma_m64n64k16_f32_f16_rs;
    72 / 36: wgmma_m64n72k16_bf16 wgmma_m64n72k16_f16 wgmma_m64n72k16_bf16_rs wgmma_m64n72k16_f16_rs = __oxide_wgmma_m64n72k16_f32_bf16 __oxide_wgmma_m64n72k16_f32_f16 __oxide_wgmma_m64n72k16_f32_bf16_rs __oxide_wgmma_m64n72k16_f32_f16_rs;
    80 / 40: wgmma_m64n80k16_bf16 wgmma_m64n80k16_f16 wgmma_m64n80k16_bf16_rs wgmma_m64n80k16_f16_rs = __oxide_wgmma_m64n80k16_f32_bf16 __oxide_wgmma_m64n80k16_f32_f16 __oxide_wgmma_m64n80k16_f32_bf16_rs __oxide_wgmma_m64n80k16_f32_f16_rs;
    88 / 44: wgmma_m64n88k16_bf16 wgmma_m64n88k16_f16 wgmma_m64n88k16_bf16_rs wgmma_m64n88k16_f16_rs = __oxide_wgmma_m64n88k16_f32_bf16 __oxide_wgmma_m64n88k16_f32_f16 __oxide_wgmma_m64n88k16_f32_bf16_rs __oxide_wgmma_m64n88k16_f32_f16_rs;
    96 / 48: wgmma_m64n96k16_bf16 wgmma_m64n96k16_f16 wgmma_m64n96k16_bf16_rs wgmma_m64n96k16_f16_rs = __oxide_wgmma_m64n96k16_f32_bf16 __oxide_wgmma_m64n96k16_f32_f16 __oxide_wgmma_m64n96k16_f32_bf16_rs __oxide_wgmma_m64n96k16_f32_f16_rs;
    104 / 52: wgmma_m64n104k16_bf16 wgmma_m64n104k16_f16 wgmma_m64n104k16_bf16_rs wgmma_m64n104k16_f16_rs = __oxide_wgmma_m64n104k16_f32_bf16 __oxide_wgmma_m64n104k16_f32_f16 __oxide_wgmma_m64n104k16_f32_bf16_rs __oxide_wgmma_m64n104k16_f32_f16_rs;
    112 / 56: wgmma_m64n112k16_bf16 wgmma_m64n112k16_f16 wgmma_m64n112k16_bf16_rs wgmma_m64n112k16_f16_rs = __oxide_wgmma_m64n112k16_f32_bf16 __oxide_wgmma_m64n112k16_f32_f16 __oxide_wgmma_m64n112k16_f32_bf16_rs __oxide_wgmma_m64n112k16_f32_f16_rs;
    120 / 60: wgmma_m64n120k16_bf16 wgmma_m64n120k16_f16 wgmma_m64n120k16_bf16_rs wgmma_m64n120k16_f16_rs = __oxide_wgmma_m64n120k16_f32_bf16 __oxide_wgmma_m64n120k16_f32_f16 __oxide_wgmma_m64n120k16_f32_bf16_rs __oxide_wgmma_m64n120k16_f32_f16_rs;
    128 / 64: wgmma_m64n128k16_bf16 wgmma_m64n128k16_f16 wgmma_m64n128k16_bf16_rs wgmma_m64n128k16_f16_rs = __oxide_wgmma_m64n128k16_f32_bf16 __oxide_wgmma_m64n128k16_f32_f16 __oxide_wgmma_m64n128k16_f32_bf16_rs __oxide_wgmma_m64n128k16_f32_f16_rs;
    136 / 68: wgmma_m64n136k16_bf16 wgmma_m64n136k16_f16 wgmma_m64n136k16_bf16_rs wgmma_m64n136k16_f16_rs = __oxide_wgmma_m64n136k16_f32_bf16 __oxide_wgmma_m64n136k16_f32_f16 __oxide_wgmma_m64n136k16_f32_bf16_rs __oxide_wgmma_m64n136k16_f32_f16_rs;
    144 / 72: wgmma_m64n144k16_bf16 wgmma_m64n144k16_f16 wgmma_m64n144k16_bf16_rs wgmma_m64n144k16_f16_rs = __oxide_wgmma_m64n144k16_f32_bf16 __oxide_wgmma_m64n144k16_f32_f16 __oxide_wgmma_m64n144k16_f32_bf16_rs __oxide_wgmma_m64n144k16_f32_f16_rs;
    152 / 76: wgmma_m64n152k16_bf16 wgmma_m64n152k16_f16 wgmma_m64n152k16_bf16_rs wgmma_m64n152k16_f16_rs = __oxide_wgmma_m64n152k16_f32_bf16 __oxide_wgmma_m64n152k16_f32_f16 __oxide_wgmma_m64n152k16_f32_bf16_rs __oxide_wgmma_m64n152k16_f32_f16_rs;
    160 / 80: wgmma_m64n160k16_bf16 wgmma_m64n160k16_f16 wgmma_m64n160k16_bf16_rs wgmma_m64n160k16_f16_rs = __oxide_wgmma_m64n160k16_f32_bf16 __oxide_wgmma_m64n160k16_f32_f16 __oxide_wgmma_m64n160k16_f32_bf16_rs __oxide_wgmma_m64n160k16_f32_f16_rs;
    168 / 84: wgmma_m64n168k16_bf16 wgmma_m64n168k16_f16 wgmma_m64n168k16_bf16_rs wgmma_m64n168k16_f16_rs = __oxide_wgmma_m64n168k16_f32_bf16 __oxide_wgmma_m64n168k16_f32_f16 __oxide_wgmma_m64n168k16_f32_bf16_rs __oxide_wgmma_m64n168k16_f32_f16_rs;
    176 / 88: wgmma_m64n176k16_bf16 wgmma_m64n176k16_f16 wgmma_m64n176k16_bf16_rs wgmma_m64n176k16_f16_rs = __oxide_wgmma_m64n176k16_f32_bf16 __oxide_wgmma_m64n176k16_f32_f16 __oxide_wgmma_m64n176k16_f32_bf16_rs __oxide_wgmma_m64n176k16_f32_f16_rs;
    184 / 92: wgmma_m64n184k16_bf16 wgmma_m64n184k16_f16 wgmma_m64n184k16_bf16_rs wgmma_m64n184k16_f16_rs = __oxide_wgmma_m64n184k16_f32_bf16 __oxide_wgmma_m64n184k16_f32_f16 __oxide_wgmma_m64n184k16_f32_bf16_rs __oxide_wgmma_m64n184k16_f32_f16_rs;
    192 / 96: wgmma_m64n192k16_bf16 wgmma_m64n192k16_f16 wgmma_m64n192k16_bf16_rs wgmma_m64n192k16_f16_rs = __oxide_wgmma_m64n192k16_f32_bf16 __oxide_wgmma_m64n192k16_f32_f16 __oxide_wgmma_m64n192k16_f32_bf16_rs __oxide_wgmma_m64n192k16_f32_f16_rs;
    200 / 100: wgmma_m64n200k16_bf16 wgmma_m64n200k16_f16 wgmma_m64n200k16_bf16_rs wgmma_m64n200k16_f16_rs = __oxide_wgmma_m64n200k16_f32_bf16 __oxide_wgmma_m64n200k16_f32_f16 __oxide_wgmma_m64n200k16_f32_bf16_rs __oxide_wgmma_m64n200k16_f32_f16_rs;
    208 / 104: wgmma_m64n208k16_bf16 wgmma_m64n208k16_f16 wgmma_m64n208k16_bf16_rs wgmma_m64n208k16_f16_rs = __oxide_wgmma_m64n208k16_f32_bf16 __oxide_wgmma_m64n208k16_f32_f16 __oxide_wgmma_m64n208k16_f32_bf16_rs __oxide_wgmma_m64n208k16_f32_f16_rs;
    216 / 108: wgmma_m64n216k16_bf16 wgmma_m64n216k16_f16 wgmma_m64n216k16_bf16_rs wgmma_m64n216k16_f16_rs = __oxide_wgmma_m64n216k16_f32_bf16 __oxide_wgmma_m64n216k16_f32_f16 __oxide_wgmma_m64n216k16_f32_bf16_rs __oxide_wgmma_m64n216k16_f32_f16_rs;
    224 / 112: wgmma_m64n224k16_bf16 wgmma_m64n224k16_f16 wgmma_m64n224k16_bf16_rs wgmma_m64n224k16_f16_rs = __oxide_wgmma_m64n224k16_f32_bf16 __oxide_wgmma_m64n224k16_f32_f16 __oxide_wgmma_m64n224k16_f32_bf16_rs __oxide_wgmma_m64n224k16_f32_f16_rs;
    232 / 116: wgmma_m64n232k16_bf16 wgmma_m64n232k16_f16 wgmma_m64n232k16_bf16_rs wgmma_m64n232k16_f16_rs = __oxide_wgmma_m64n232k16_f32_bf16 __oxide_wgmma_m64n232k16_f32_f16 __oxide_wgmma_m64n232k16_f32_bf16_rs __oxide_wgmma_m64n232k16_f32_f16_rs;
    240 / 120: wgmma_m64n240k16_bf16 wgmma_m64n240k16_f16 wgmma_m64n240k16_bf16_rs wgmma_m64n240k16_f16_rs = __oxide_wgmma_m64n240k16_f32_bf16 __oxide_wgmma_m64n240k16_f32_f16 __oxide_wgmma_m64n240k16_f32_bf16_rs __oxide_wgmma_m64n240k16_f32_f16_rs;
    248 / 124: wgmma_m64n248k16_bf16 wgmma_m64n248k16_f16 wgmma_m64n248k16_bf16_rs wgmma_m64n248k16_f16_rs = __oxide_wgmma_m64n248k16_f32_bf16 __oxide_wgmma_m64n248k16_f32_f16 __oxide_wgmma_m64n248k16_f32_bf16_rs __oxide_wgmma_m64n248k16_f32_f16_rs;
    256 / 128: wgmma_m64n256k16_bf16 wgmma_m64n256k16_f16 wgmma_m64n256k16_bf16_rs wgmma_m64n256k16_f16_rs = __oxide_wgmma_m64n256k16_f32_bf16 __oxide_wgmma_m64n256k16_f32_f16 __oxide_wgmma_m64n256k16_f32_bf16_rs __oxide_wgmma_m64n256k16_f32_f16_rs;
}
