//! One warpgroup multiplies A (64 x 16 s, row-major) by B^T (B: N x 16 s,
//! row-major, i.e. K-major) into C (64 x N, f32, row-major) with one wgmma
//! form per kernel: A and B from shared memory (`ss`) or A from registers
//! (`rs`), bf16 or f16, N from 8 to 256 (a sample of the 32 the ISA
//! allows), `s` k-steps of 16 accumulated in the registers. The operands
//! are copied into dynamic shared memory as the ISA's unswizzled core
//! matrices (8 rows of 16 bytes; LBO 128 bytes from one along K to the
//! next, SBO 256 bytes from one group of 8 rows to the next). Launch: one
//! block of 128 threads, 2048 + 32 N bytes of dynamic shared memory.
#![no_std]

use oxide_device::hopper::*;
use oxide_device::prelude::*;

/// Copies rows x 16 elements (columns k0 .. k0 + 16 of a row-major matrix
/// with `ld` columns) into core-matrix layout at `dst`, every thread a part.
///
/// # Safety
/// `src` holds the rows, `dst` (shared) rows * 32 bytes.
#[inline(always)]
unsafe fn to_core_matrices(dst: *mut u16, src: *const u16, rows: usize, ld: usize, k0: usize, tid: usize) {
    let mut i = tid;
    while i < rows * 16 {
        let (r, k) = (i / 16, i % 16);
        let off = r / 8 * 128 + k / 8 * 64 + r % 8 * 8 + k % 8;
        *dst.add(off) = *src.add(r * ld + k0 + k);
        i += 128;
    }
}

/// Thread t's A fragment for k-step k0 (rows 16 w + g, + 8; columns 2 q,
/// + 1, + 8, + 9 of the step).
///
/// # Safety
/// `a` holds 64 rows of `ld` elements.
#[inline(always)]
unsafe fn a_fragment(a: *const u16, ld: usize, k0: usize, t: usize) -> [u32; 4] {
    let (w, g, q) = (t / 32, t % 32 / 4, t % 4);
    let at = |r: usize, k: usize| -> u32 {
        let p = a.add((16 * w + g + r) * ld + k0 + 2 * q + k);
        *p as u32 | (*p.add(1) as u32) << 16
    };
    [at(0, 0), at(8, 0), at(0, 8), at(8, 8)]
}

macro_rules! kernel {
    ($name:ident, $op:ident, $n:literal, ss) => {
        #[kernel]
        pub fn $name(a: *const u16, b: *const u16, c: *mut f32, steps: u32) {
            let t = thread::thread_idx_x() as usize;
            let smem = dynamic_shared::<u16>();
            // SAFETY: A's tile, then B's, in the dynamic shared memory the
            // host sized (2048 + 32 N bytes)
            let (sa, sb) = (smem, unsafe { smem.add(64 * 16) });
            let ld = 16 * steps as usize;
            let mut acc = [0.0f32; $n / 2];
            for s in 0..steps as usize {
                // SAFETY: the host's matrices, as the module comment says
                unsafe {
                    to_core_matrices(sa, a, 64, ld, 16 * s, t);
                    to_core_matrices(sb, b, $n, ld, 16 * s, t);
                }
                sync_threads();
                fence_proxy_async_shared();
                let da = smem_desc(smem_addr(sa as *mut u8), 128, 256, Swizzle::None);
                let db = smem_desc(smem_addr(sb as *mut u8), 128, 256, Swizzle::None);
                wgmma_fence();
                // SAFETY: the warpgroup together, the tiles as described
                unsafe { $op(&mut acc, da, db, s > 0) };
                wgmma_commit_group();
                wgmma_wait_group(0);
                sync_threads();
            }
            // SAFETY: C has 64 x N elements
            unsafe { store(c, &acc, $n, t) };
        }
    };
    ($name:ident, $op:ident, $n:literal, rs) => {
        #[kernel]
        pub fn $name(a: *const u16, b: *const u16, c: *mut f32, steps: u32) {
            let t = thread::thread_idx_x() as usize;
            let sb = dynamic_shared::<u16>();
            let ld = 16 * steps as usize;
            let mut acc = [0.0f32; $n / 2];
            for s in 0..steps as usize {
                // SAFETY: the host's matrices, as the module comment says
                let frag = unsafe {
                    to_core_matrices(sb, b, $n, ld, 16 * s, t);
                    a_fragment(a, ld, 16 * s, t)
                };
                sync_threads();
                fence_proxy_async_shared();
                let db = smem_desc(smem_addr(sb as *mut u8), 128, 256, Swizzle::None);
                wgmma_fence();
                // SAFETY: the warpgroup together, B as described
                unsafe { $op(&mut acc, &frag, db, s > 0) };
                wgmma_commit_group();
                wgmma_wait_group(0);
                sync_threads();
            }
            // SAFETY: C has 64 x N elements
            unsafe { store(c, &acc, $n, t) };
        }
    };
}

/// Thread t's accumulators into C: acc[i] is C[16 w + g + 8 ((i / 2) % 2)]
/// [8 (i / 4) + 2 q + i % 2].
///
/// # Safety
/// `c` holds 64 x n elements.
#[inline(always)]
unsafe fn store(c: *mut f32, acc: &[f32], n: usize, t: usize) {
    let (w, g, q) = (t / 32, t % 32 / 4, t % 4);
    for (i, v) in acc.iter().enumerate() {
        let row = 16 * w + g + 8 * (i / 2 % 2);
        *c.add(row * n + 8 * (i / 4) + 2 * q + i % 2) = *v;
    }
}

kernel!(ss_bf16_n8, wgmma_m64n8k16_bf16, 8, ss);
kernel!(ss_bf16_n24, wgmma_m64n24k16_bf16, 24, ss);
kernel!(ss_bf16_n64, wgmma_m64n64k16_bf16, 64, ss);
kernel!(ss_bf16_n136, wgmma_m64n136k16_bf16, 136, ss);
kernel!(ss_bf16_n256, wgmma_m64n256k16_bf16, 256, ss);
kernel!(ss_f16_n16, wgmma_m64n16k16_f16, 16, ss);
kernel!(ss_f16_n96, wgmma_m64n96k16_f16, 96, ss);
kernel!(ss_f16_n256, wgmma_m64n256k16_f16, 256, ss);
kernel!(rs_bf16_n8, wgmma_m64n8k16_bf16_rs, 8, rs);
kernel!(rs_bf16_n120, wgmma_m64n120k16_bf16_rs, 120, rs);
kernel!(rs_bf16_n256, wgmma_m64n256k16_bf16_rs, 256, rs);
kernel!(rs_f16_n32, wgmma_m64n32k16_f16_rs, 32, rs);
kernel!(rs_f16_n200, wgmma_m64n200k16_f16_rs, 200, rs);
