//! C = A * B^T on the tensor cores (mma.sync m16n8k16, bf16 in, f32
//! accumulate; Ampere style, sm_80+), for A (m x k) and B (n x k) row-major
//! bf16 bits and C (m x n) row-major f32: the "TN" layout, where both
//! operands are k-contiguous, as ldmatrix wants them.
//!
//! Blocks of 256 threads compute a 128 x 128 tile of C: each k-step of 32
//! copies a 128 x 32 tile of A and of B into shared memory (rows padded to
//! 40 elements, so that ldmatrix's eight 16-byte rows fall in distinct
//! banks), then each of the 8 warps (2 x 4) multiplies its 64 x 32 part:
//! per 16 of k, four ldmatrix.x4 for A, two for B, and 16 mma.sync.
//! m and n must be multiples of 128, k of 32 (the host checks).
//!
//! `mma_gemm_pipelined` is the same tiling with the copies made
//! asynchronous (cp.async.cg, 16 bytes per thread and copy): three stages
//! of A and B tiles in flight, so that the tensor cores work on one while
//! the next two arrive. To fit three stages in 48 KiB of static shared
//! memory the rows are not padded; the four 16-byte chunks of each 64-byte
//! row are swizzled instead (chunk c of row r at c ^ (r / 2 % 4)), which
//! keeps ldmatrix's eight rows in distinct banks.
#![no_std]

use oxide_device::mma::{ldmatrix_x4, mma_m16n8k16_bf16};
use oxide_device::pipeline::{commit_group, cp_async_cg_16, wait_group};
use oxide_device::prelude::*;
use oxide_device::Shared;

const BM: usize = 128;
const BN: usize = 128;
const BK: usize = 32;
const LD: usize = BK + 8;

#[repr(C, align(16))]
struct Tile([[u16; LD]; 128]);

static AS: Shared<Tile> = Shared::uninit();
static BS: Shared<Tile> = Shared::uninit();

/// Copies rows 128 x 32 of `src` (row stride `k`) into the shared tile.
#[inline(always)]
fn load_tile(src: *const u16, k: usize, dst: *mut u16, tid: usize) {
    let mut i = 0;
    while i < 2 {
        let chunk = tid + i * 256;
        let (row, col) = (chunk / 4, (chunk % 4) * 8);
        // SAFETY: the host launches whole tiles; 16-byte chunks, aligned
        // (k and the tile corner are multiples of 8 elements).
        unsafe {
            let s = src.add(row * k + col) as *const u64;
            let d = dst.add(row * LD + col) as *mut u64;
            *d = *s;
            *d.add(1) = *s.add(1);
        }
        i += 1;
    }
}

#[kernel]
pub fn mma_gemm(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
    let tid = thread::thread_idx_x() as usize;
    let (warp, lane) = (tid / 32, tid % 32);
    let (wm, wn) = (warp / 4, warp % 4);
    let m0 = thread::block_idx_y() as usize * BM;
    let n0 = thread::block_idx_x() as usize * BN;
    let (n, k) = (n as usize, k as usize);
    let _ = m;
    let as_ = AS.as_mut_ptr() as *mut u16;
    let bs = BS.as_mut_ptr() as *mut u16;
    let mut acc = [[[0.0f32; 4]; 4]; 4];
    let mut k0 = 0;
    while k0 < k {
        // SAFETY: inside A and B (whole tiles).
        load_tile(unsafe { a.add(m0 * k + k0) }, k, as_, tid);
        load_tile(unsafe { b.add(n0 * k + k0) }, k, bs, tid);
        sync_threads();
        let mut kk = 0;
        while kk < BK {
            let mut af = [[0u32; 4]; 4];
            let mut bf = [[0u32; 2]; 4];
            for (mt, f) in af.iter_mut().enumerate() {
                let row = wm * 64 + mt * 16 + (lane / 8 % 2) * 8 + lane % 8;
                let col = kk + (lane / 16) * 8;
                // SAFETY: inside the tile, 16-byte aligned rows.
                *f = unsafe { ldmatrix_x4(as_.add(row * LD + col)) };
            }
            for np in 0..2 {
                let row = wn * 32 + np * 16 + (lane / 16) * 8 + lane % 8;
                let col = kk + (lane / 8 % 2) * 8;
                // SAFETY: as above.
                let r = unsafe { ldmatrix_x4(bs.add(row * LD + col)) };
                bf[2 * np] = [r[0], r[1]];
                bf[2 * np + 1] = [r[2], r[3]];
            }
            for mt in 0..4 {
                for nt in 0..4 {
                    mma_m16n8k16_bf16(&af[mt], &bf[nt], &mut acc[mt][nt]);
                }
            }
            kk += 16;
        }
        sync_threads();
        k0 += BK;
    }
    let (g, t) = (lane / 4, lane % 4);
    for mt in 0..4 {
        for nt in 0..4 {
            let row = m0 + wm * 64 + mt * 16 + g;
            let col = n0 + wn * 32 + nt * 8 + 2 * t;
            let d = &acc[mt][nt];
            // SAFETY: inside C (whole tiles).
            unsafe {
                *c.add(row * n + col) = d[0];
                *c.add(row * n + col + 1) = d[1];
                *c.add((row + 8) * n + col) = d[2];
                *c.add((row + 8) * n + col + 1) = d[3];
            }
        }
    }
}

const STAGES: usize = 3;

#[repr(C, align(128))]
struct Stages([[u16; BM * BK]; STAGES]);

static SA: Shared<Stages> = Shared::uninit();
static SB: Shared<Stages> = Shared::uninit();

/// The element offset of (row, column) in a swizzled 128 x 32 tile.
#[inline(always)]
fn swz(row: usize, col: usize) -> usize {
    row * BK + (((col / 8) ^ (row / 2 % 4)) * 8) + col % 8
}

/// Issues the copies of a 128 x 32 tile of `src` (row stride `k`).
#[inline(always)]
fn load_tile_async(src: *const u16, k: usize, dst: *mut u16, tid: usize) {
    let mut i = 0;
    while i < 2 {
        let chunk = tid + i * 256;
        let (row, col) = (chunk / 4, (chunk % 4) * 8);
        // SAFETY: whole tiles (the host checks the sizes), 16-byte chunks.
        unsafe { cp_async_cg_16(dst.add(swz(row, col)) as *mut u8, src.add(row * k + col) as *const u8) };
        i += 1;
    }
}

#[kernel]
pub fn mma_gemm_pipelined(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
    let tid = thread::thread_idx_x() as usize;
    let (warp, lane) = (tid / 32, tid % 32);
    let (wm, wn) = (warp / 4, warp % 4);
    let m0 = thread::block_idx_y() as usize * BM;
    let n0 = thread::block_idx_x() as usize * BN;
    let (n, k) = (n as usize, k as usize);
    let _ = m;
    let sa = SA.as_mut_ptr() as *mut u16;
    let sb = SB.as_mut_ptr() as *mut u16;
    let tiles = k / BK;
    // SAFETY (pointer offsets below): inside A, B and the stages.
    let a0 = unsafe { a.add(m0 * k) };
    let b0 = unsafe { b.add(n0 * k) };
    for s in 0..STAGES - 1 {
        if s < tiles {
            load_tile_async(unsafe { a0.add(s * BK) }, k, unsafe { sa.add(s * BM * BK) }, tid);
            load_tile_async(unsafe { b0.add(s * BK) }, k, unsafe { sb.add(s * BM * BK) }, tid);
        }
        commit_group();
    }
    let mut acc = [[[0.0f32; 4]; 4]; 4];
    let mut kt = 0;
    while kt < tiles {
        wait_group(STAGES as u32 - 2);
        sync_threads();
        let next = kt + STAGES - 1;
        if next < tiles {
            let st = next % STAGES;
            load_tile_async(unsafe { a0.add(next * BK) }, k, unsafe { sa.add(st * BM * BK) }, tid);
            load_tile_async(unsafe { b0.add(next * BK) }, k, unsafe { sb.add(st * BM * BK) }, tid);
        }
        commit_group();
        let (ta, tb) = unsafe { (sa.add(kt % STAGES * BM * BK), sb.add(kt % STAGES * BM * BK)) };
        let mut kk = 0;
        while kk < BK {
            let mut af = [[0u32; 4]; 4];
            let mut bf = [[0u32; 2]; 4];
            for (mt, f) in af.iter_mut().enumerate() {
                let row = wm * 64 + mt * 16 + (lane / 8 % 2) * 8 + lane % 8;
                // SAFETY: inside the stage, 16-byte aligned chunks.
                *f = unsafe { ldmatrix_x4(ta.add(swz(row, kk + (lane / 16) * 8))) };
            }
            for np in 0..2 {
                let row = wn * 32 + np * 16 + (lane / 16) * 8 + lane % 8;
                // SAFETY: as above.
                let r = unsafe { ldmatrix_x4(tb.add(swz(row, kk + (lane / 8 % 2) * 8))) };
                bf[2 * np] = [r[0], r[1]];
                bf[2 * np + 1] = [r[2], r[3]];
            }
            for mt in 0..4 {
                for nt in 0..4 {
                    mma_m16n8k16_bf16(&af[mt], &bf[nt], &mut acc[mt][nt]);
                }
            }
            kk += 16;
        }
        kt += 1;
    }
    let (g, t) = (lane / 4, lane % 4);
    for mt in 0..4 {
        for nt in 0..4 {
            let row = m0 + wm * 64 + mt * 16 + g;
            let col = n0 + wn * 32 + nt * 8 + 2 * t;
            let d = &acc[mt][nt];
            // SAFETY: inside C (whole tiles).
            unsafe {
                *c.add(row * n + col) = d[0];
                *c.add(row * n + col + 1) = d[1];
                *c.add((row + 8) * n + col) = d[2];
                *c.add((row + 8) * n + col + 1) = d[3];
            }
        }
    }
}
