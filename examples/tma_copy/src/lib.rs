//! Every TMA copy, checked element by element by host.c: 1-5-D tensor
//! loads (and their cluster multicast form) into shared memory and
//! stores back, the plain bulk store, the bulk async-groups; the tensor
//! maps are by-value `TensorMap` kernel parameters (grid constants: the
//! copies read the launch's parameter memory, nothing is copied to device
//! memory).
//!
//! Each kernel runs as one block; its box lives at the first 1024-byte
//! aligned byte of the dynamic shared memory (the 128-byte swizzle
//! repeats every 1024 bytes), its mbarrier right after the box.
//! `c` points at five coordinates, `x` innermost; a kernel uses the
//! first `rank`.
#![no_std]

use oxide_device::cluster;
use oxide_device::hopper::*;
use oxide_device::prelude::*;

/// The box: the dynamic shared memory's first 1024-byte aligned byte.
fn box_smem() -> *mut u8 {
    let raw = dynamic_shared::<u8>();
    let pad = (1024 - (smem_addr(raw) & 1023) as usize) & 1023;
    // SAFETY: the host sized the dynamic shared memory for the padding.
    unsafe { raw.add(pad) }
}

/// Thread t of the block copies bytes t, t + blockDim, ... of `n`.
///
/// # Safety
/// Both pointers valid for `n` bytes.
unsafe fn block_copy(dst: *mut u8, src: *const u8, n: usize) {
    let mut i = thread::thread_idx_x() as usize;
    let step = thread::block_dim_x() as usize;
    while i < n {
        *dst.add(i) = *src.add(i);
        i += step;
    }
}

/// The load of rank 1 .. 5, multicast to the CTAs of `cta_mask` when it
/// is not 0.
///
/// # Safety
/// As the loads'.
unsafe fn load(dst: *mut u8, map: &TensorMap, rank: u32, c: *const i32, bar: *mut u64, cta_mask: u32) {
    let (x, y, z, w, v) = (*c, *c.add(1), *c.add(2), *c.add(3), *c.add(4));
    let m = cta_mask as u16;
    match (rank, cta_mask != 0) {
        (1, false) => tma_load_1d(dst, map, x, bar),
        (2, false) => tma_load_2d(dst, map, x, y, bar),
        (3, false) => tma_load_3d(dst, map, x, y, z, bar),
        (4, false) => tma_load_4d(dst, map, x, y, z, w, bar),
        (5, false) => tma_load_5d(dst, map, x, y, z, w, v, bar),
        (1, true) => tma_load_multicast_1d(dst, map, x, bar, m),
        (2, true) => tma_load_multicast_2d(dst, map, x, y, bar, m),
        (3, true) => tma_load_multicast_3d(dst, map, x, y, z, bar, m),
        (4, true) => tma_load_multicast_4d(dst, map, x, y, z, w, bar, m),
        _ => tma_load_multicast_5d(dst, map, x, y, z, w, v, bar, m),
    }
}

/// The store of rank 1 .. 5.
///
/// # Safety
/// As the stores'.
unsafe fn store(map: &TensorMap, rank: u32, c: *const i32, src: *const u8) {
    let (x, y, z, w, v) = (*c, *c.add(1), *c.add(2), *c.add(3), *c.add(4));
    match rank {
        1 => tma_store_1d(map, x, src),
        2 => tma_store_2d(map, x, y, src),
        3 => tma_store_3d(map, x, y, z, src),
        4 => tma_store_4d(map, x, y, z, w, src),
        _ => tma_store_5d(map, x, y, z, w, v, src),
    }
}

/// out = the box at c of the tensor `map` describes (`bytes` of it), as
/// the load leaves it in shared memory (swizzled, zeros outside the
/// tensor), over shared memory poisoned with 0xab first.
#[kernel]
pub fn tma_load(map: TensorMap, rank: u32, c: *const i32, out: *mut u8, bytes: u32, cta_mask: u32) {
    let smem = box_smem();
    let n = bytes as usize;
    // SAFETY: the mbarrier after the box (bytes is a multiple of 16).
    let bar = unsafe { smem.add(n) } as *mut u64;
    if thread::thread_idx_x() == 0 {
        for i in 0..n {
            // SAFETY: inside the box.
            unsafe { *smem.add(i) = 0xab };
        }
        // SAFETY: the mbarrier in shared memory, 8-byte aligned.
        unsafe { mbarrier_init(bar, 1) };
        fence_mbarrier_init();
        // the poison (ordinary stores) before the async proxy writes the box
        fence_proxy_async_shared();
    }
    sync_threads();
    if thread::thread_idx_x() == 0 {
        // SAFETY: the box and its barrier; the map is the host's.
        unsafe {
            mbarrier_arrive_expect_tx(bar, bytes);
            load(smem, &map, rank, c, bar, cta_mask);
        }
    }
    // SAFETY: the barrier; then the box, complete.
    unsafe {
        mbarrier_wait(bar, 0);
        block_copy(out, smem, n);
    }
}

/// out[r bytes ..] = the box at c as CTA r of a cluster of two received
/// it: CTA 0 loads it once, multicast to both (cta_mask 0b11); each CTA
/// expects the bytes on its own mbarrier, which it initialised before the
/// cluster synced (so no copy lands on a barrier not yet made).
#[kernel(cluster(2, 1, 1))]
pub fn tma_multicast(map: TensorMap, rank: u32, c: *const i32, out: *mut u8, bytes: u32) {
    let smem = box_smem();
    let n = bytes as usize;
    let me = cluster::rank();
    // SAFETY: the mbarrier after the box (bytes is a multiple of 16).
    let bar = unsafe { smem.add(n) } as *mut u64;
    if thread::thread_idx_x() == 0 {
        for i in 0..n {
            // SAFETY: inside the box.
            unsafe { *smem.add(i) = 0xab };
        }
        // SAFETY: the mbarrier in shared memory, 8-byte aligned.
        unsafe { mbarrier_init(bar, 1) };
        fence_mbarrier_init();
        fence_proxy_async_shared();
    }
    cluster::sync();
    if thread::thread_idx_x() == 0 {
        // SAFETY: the box and its barrier, at the same offsets in both CTAs.
        unsafe {
            mbarrier_arrive_expect_tx(bar, bytes);
            if me == 0 {
                load(smem, &map, rank, c, bar, 3);
            }
        }
    }
    // SAFETY: the barrier; then the box, complete; out holds two boxes.
    unsafe {
        mbarrier_wait(bar, 0);
        block_copy(out.add(me as usize * n), smem, n);
    }
    // no CTA leaves while the cluster's copies may still target it
    cluster::sync();
}

/// The box at c of the tensor `map` describes = `input` (`bytes` of it,
/// the box as it is in shared memory: swizzled), elements outside the
/// tensor left alone.
#[kernel]
pub fn tma_store(map: TensorMap, rank: u32, c: *const i32, input: *const u8, bytes: u32) {
    let smem = box_smem();
    // SAFETY: the box in shared memory, `input` the host's.
    unsafe { block_copy(smem, input, bytes as usize) };
    // each thread's stores, before the async proxy reads the box
    fence_proxy_async_shared();
    sync_threads();
    if thread::thread_idx_x() == 0 {
        // SAFETY: the box, written and fenced; the map is the host's.
        unsafe { store(&map, rank, c, smem) };
        bulk_commit_group();
        bulk_wait_group(0);
    }
}

/// out[0 .. bytes] = input through shared memory and a bulk store; once
/// the store has read the shared memory (bulk_wait_group_read), it is
/// overwritten with 0xee, which must not reach `out`.
#[kernel]
pub fn bulk_store(out: *mut u8, input: *const u8, bytes: u32) {
    let smem = box_smem();
    let n = bytes as usize;
    // SAFETY: the box in shared memory, `input` the host's.
    unsafe { block_copy(smem, input, n) };
    fence_proxy_async_shared();
    sync_threads();
    if thread::thread_idx_x() == 0 {
        // SAFETY: out and the box, `bytes` a multiple of 16, both 16-aligned.
        unsafe { bulk_copy_s2g(out, smem, bytes) };
        bulk_commit_group();
        bulk_wait_group_read(0);
        for i in 0..n {
            // SAFETY: inside the box, which the store has read.
            unsafe { *smem.add(i) = 0xee };
        }
        bulk_wait_group(0);
    }
}
