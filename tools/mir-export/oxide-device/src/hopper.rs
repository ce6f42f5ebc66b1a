//! Hopper (sm_90): mbarriers, bulk and tensor-memory-accelerator (TMA)
//! copies, and warpgroup MMA (`wgmma`, sm_90a: compile with
//! `oxidec --arch=sm_90a`), each a row of oxidec's registry of primitives.
//!
//! The pieces of a Hopper GEMM: a producer thread starts TMA copies of A
//! and B tiles into shared memory ([`tma_load_2d`]; 1-5-D loads, their
//! cluster multicast forms and the stores back, [`tma_store_2d`] with
//! [`bulk_commit_group`] / [`bulk_wait_group`], are here too; the tensor
//! maps are by-value [`TensorMap`] kernel parameters), each completing on a
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
/// `ox_tensor_map_encode`.
///
/// Take it as a by-value kernel parameter, `map: TensorMap`, and give the
/// TMA copies `&map`: oxidec makes a by-value parameter that the kernel
/// never writes a grid constant (CUDA's `const __grid_constant__
/// CUtensorMap`), a `.param .align 128 .b8 map[128]` whose own address the
/// copies read (`cvta.param`), so the host passes the 128 bytes with the
/// launch (`args[i] = &map`) and no copy to device memory is needed. A
/// `*const TensorMap` parameter pointing at a map the host copied to
/// device memory (128-byte aligned) works too. 128, as CUDA 13's
/// CUtensorMap: with 64 the H200 ran TMA loads but faulted on TMA stores
/// (illegal instruction; the parameter sat 0x30 past a 128-byte boundary).
#[repr(C, align(128))]
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

/// One arrival on the mbarrier at `bar`'s offset in the shared memory of
/// the cluster's block `rank` (`mapa`, then
/// `mbarrier.arrive.release.cluster.shared::cluster`): this thread's
/// earlier accesses, its wgmma reads of a stage say, happen before that
/// phase completes. How the consumers of a stage that a multicast copy
/// fills tell every producer that writes it that the stage is free.
///
/// # Safety
/// `bar` points into this block's shared memory, where every block of the
/// cluster has an initialised mbarrier (initialise, then
/// `cluster::sync()`); `rank < cluster::size()`, and block `rank` has not
/// exited.
#[inline(always)]
pub unsafe fn mbarrier_arrive_cluster(bar: *mut u64, rank: u32) {
    ffi::__oxide_mbarrier_arrive_cluster(bar as *mut u8, rank)
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

macro_rules! tma_load {
    ($(#[$doc:meta])* $name:ident, $mc:ident, $prim:ident, $prim_mc:ident, $($c:ident),+) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `map` is a tensor map of that rank ([`TensorMap`]); `dst` points
        /// at shared memory, 128-byte aligned (1024 for the 128-byte
        /// swizzle), with room for the box; `bar` expects its bytes
        /// ([`mbarrier_arrive_expect_tx`]); `x` times the element size a
        /// multiple of 16 bytes (negative `x` too: the H200 faults with an
        /// illegal instruction otherwise, as it does for nvcc's code; the
        /// emulator refuses it).
        #[inline(always)]
        pub unsafe fn $name(dst: *mut u8, map: *const TensorMap, $($c: i32,)+ bar: *mut u64) {
            ffi::$prim(dst, map as *mut u8, $($c,)+ bar as *mut u8)
        }

        /// As the load without `multicast`, into the same offsets of `dst`
        /// and `bar` in every CTA of the cluster whose bit (its rank in the
        /// cluster) is set in `cta_mask`, each completing on its own `bar`.
        ///
        /// # Safety
        /// As the load; every CTA named waits for the bytes on its `bar`,
        /// which it initialised before the copy can land (initialise, then
        /// `cluster::sync()`, then copy), and stays until they landed.
        #[inline(always)]
        pub unsafe fn $mc(dst: *mut u8, map: *const TensorMap, $($c: i32,)+ bar: *mut u64, cta_mask: u16) {
            ffi::$prim_mc(dst, map as *mut u8, $($c,)+ bar as *mut u8, cta_mask)
        }
    };
}

tma_load!(
    /// TMA: copies the box at element coordinate `x` of the 1-D tensor
    /// `map` describes into shared memory at `dst`, zeros for the elements
    /// outside the tensor, completing its bytes (the whole box) on `bar`.
    tma_load_1d, tma_load_multicast_1d, __oxide_tma_load_1d, __oxide_tma_load_multicast_1d, x
);
tma_load!(
    /// TMA: copies the box at element coordinates (`x` innermost, `y`) of
    /// the 2-D tensor `map` describes into shared memory at `dst` (row-major,
    /// swizzled as the map says), zeros for the elements outside the
    /// tensor, completing its bytes on `bar`.
    tma_load_2d, tma_load_multicast_2d, __oxide_tma_load_2d, __oxide_tma_load_multicast_2d, x, y
);
tma_load!(
    /// As [`tma_load_2d`], 3-D (`x` innermost, `y`, `z`).
    tma_load_3d, tma_load_multicast_3d, __oxide_tma_load_3d, __oxide_tma_load_multicast_3d, x, y, z
);
tma_load!(
    /// As [`tma_load_2d`], 4-D.
    tma_load_4d, tma_load_multicast_4d, __oxide_tma_load_4d, __oxide_tma_load_multicast_4d, x, y, z, w
);
tma_load!(
    /// As [`tma_load_2d`], 5-D.
    tma_load_5d, tma_load_multicast_5d, __oxide_tma_load_5d, __oxide_tma_load_multicast_5d, x, y, z, w, v
);

macro_rules! tma_store {
    ($(#[$doc:meta])* $name:ident, $prim:ident, $($c:ident),+) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `map` is a tensor map of that rank ([`TensorMap`]); `src` points
        /// at the box in shared memory, 128-byte aligned (1024 for the
        /// 128-byte swizzle), written before a [`fence_proxy_async_shared`];
        /// `src` stays unchanged until [`bulk_wait_group_read`], the tensor
        /// is read only after [`bulk_wait_group`]; every coordinate at least
        /// 0 and `x` times the element size a multiple of 16 bytes (the H200
        /// faults with an illegal instruction otherwise, as it does for
        /// nvcc's code; the emulator refuses it).
        #[inline(always)]
        pub unsafe fn $name(map: *const TensorMap, $($c: i32,)+ src: *const u8) {
            ffi::$prim(map as *mut u8, $($c,)+ src as *mut u8)
        }
    };
}

tma_store!(
    /// TMA: writes the box in shared memory at `src` to element coordinate
    /// `x` of the 1-D tensor `map` describes; the elements outside the
    /// tensor are not written. The copy joins the thread's next bulk
    /// async-group ([`bulk_commit_group`]).
    tma_store_1d, __oxide_tma_store_1d, x
);
tma_store!(
    /// As [`tma_store_1d`], 2-D (`x` innermost, `y`; the box row-major and
    /// swizzled as the map says).
    tma_store_2d, __oxide_tma_store_2d, x, y
);
tma_store!(
    /// As [`tma_store_2d`], 3-D.
    tma_store_3d, __oxide_tma_store_3d, x, y, z
);
tma_store!(
    /// As [`tma_store_2d`], 4-D.
    tma_store_4d, __oxide_tma_store_4d, x, y, z, w
);
tma_store!(
    /// As [`tma_store_2d`], 5-D.
    tma_store_5d, __oxide_tma_store_5d, x, y, z, w, v
);

/// Copies `bytes` (a multiple of 16, both addresses 16-byte aligned) from
/// shared to global memory, in the thread's next bulk async-group.
///
/// # Safety
/// Valid pointers; as for [`tma_store_1d`], `src` stays unchanged until
/// [`bulk_wait_group_read`] and `dst` is read after [`bulk_wait_group`].
#[inline(always)]
pub unsafe fn bulk_copy_s2g(dst: *mut u8, src: *const u8, bytes: u32) {
    ffi::__oxide_bulk_copy_s2g(dst, src as *mut u8, bytes)
}

/// Closes the bulk copies (TMA stores, [`bulk_copy_s2g`]) this thread
/// issued since its last commit into a bulk async-group.
#[inline(always)]
pub fn bulk_commit_group() {
    unsafe { ffi::__oxide_bulk_commit_group() }
}

/// Waits until at most `n` (0..=7; more waits as for 7; a constant) of
/// this thread's bulk async-groups are pending: the others' writes are
/// done.
#[inline(always)]
pub fn bulk_wait_group(n: u32) {
    unsafe {
        match n {
            0 => ffi::__oxide_bulk_wait_group_0(),
            1 => ffi::__oxide_bulk_wait_group_1(),
            2 => ffi::__oxide_bulk_wait_group_2(),
            3 => ffi::__oxide_bulk_wait_group_3(),
            4 => ffi::__oxide_bulk_wait_group_4(),
            5 => ffi::__oxide_bulk_wait_group_5(),
            6 => ffi::__oxide_bulk_wait_group_6(),
            _ => ffi::__oxide_bulk_wait_group_7(),
        }
    }
}

/// As [`bulk_wait_group`], but waits only until the other groups have
/// read their sources: their shared memory may be written again, their
/// writes may still be on their way.
#[inline(always)]
pub fn bulk_wait_group_read(n: u32) {
    unsafe {
        match n {
            0 => ffi::__oxide_bulk_wait_group_read_0(),
            1 => ffi::__oxide_bulk_wait_group_read_1(),
            2 => ffi::__oxide_bulk_wait_group_read_2(),
            3 => ffi::__oxide_bulk_wait_group_read_3(),
            4 => ffi::__oxide_bulk_wait_group_read_4(),
            5 => ffi::__oxide_bulk_wait_group_read_5(),
            6 => ffi::__oxide_bulk_wait_group_read_6(),
            _ => ffi::__oxide_bulk_wait_group_read_7(),
        }
    }
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
