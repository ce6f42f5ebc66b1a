//! The kernels of `make bench` (bench/suite) written in safe Rust: no raw
//! pointers, no `unsafe`. Inputs are slices (viewed as `f32x4` vectors,
//! their alignment checked once), outputs `DisjointSlice`s viewed as
//! vectors, per-thread chunks or 2-D tiles. Each has a CUDA C twin of the
//! same algorithm in bench/suite/*_ref.cu; examples/bench_kernels/host.c
//! checks every one of them against the CPU (emulated in make check).
#![no_std]

use core::sync::atomic::{AtomicU32, Ordering};
use oxide_device::atomic::atomic_add_block;
use oxide_device::hint;
use oxide_device::math::Float;
use oxide_device::prelude::*;
use oxide_device::vector::*;
use oxide_device::warp::{Shuffle, FULL_MASK};

/// Block tile of `sgemm_rb`: 128 x 128 of C, k-steps of 8.
const BM: usize = 128;
const BN: usize = 128;
const BK: usize = 8;
/// Each thread's micro tile: 8 x 8 of C in registers.
const TM: usize = 8;
const TN: usize = 8;

/// C = A B (row-major f32: A m x k, B k x n, C m x n), register-blocked:
/// blocks of 16 x 16 threads, each block a 128 x 128 tile of C, each
/// thread an 8 x 8 micro tile (`tile_mut::<8, 2>` of C's `f32x4` view: two
/// vector stores per row). Per k-step of 8: each thread loads one `f32x4`
/// of A and one of B (both loads first), stores A transposed into shared
/// memory and B as it is; then 8 outer products from shared memory (4
/// vector loads each). Multiply-adds fuse
/// (`contract`). Needs m and n multiples of 128 and k of 8 (launch
/// n / 128 x m / 128 blocks); otherwise, or for misaligned data, nothing
/// is written.
#[kernel(reqntid(16, 16), contract)]
pub fn sgemm_rb(a: &[f32], b: &[f32], c: DisjointSlice2D<f32>, k: u32) {
    let k = k as usize;
    let (m, n) = (c.rows(), c.cols());
    if m % BM != 0 || n % BN != 0 || k % BK != 0 {
        return;
    }
    let (Some((av, _)), Some((bv, _)), Some(mut cv)) =
        (as_vectors::<f32x4>(a), as_vectors::<f32x4>(b), c.as_vectors::<f32x4>())
    else {
        return;
    };
    let sa = shared_array!([f32x4; BM / 4], BK); // A^T: sa[kk][row / 4]
    let sb = shared_array!([f32x4; BN / 4], BK); // B:   sb[kk][col / 4]
    let tx = thread::thread_idx_x() as usize;
    let ty = thread::thread_idx_y() as usize;
    let t = ty * 16 + tx;
    let bm = thread::block_idx_y() as usize * BM;
    let bn = thread::block_idx_x() as usize * BN;
    let (ar, ac) = (t / 2, (t % 2) * 4); // this thread's f32x4 of the A tile
    let (br, bc) = (t / 32, (t % 32) * 4); // and of the B tile
    let mut acc = [[0.0f32; TN]; TM];
    let mut k0 = 0;
    while k0 < k {
        // both global loads before the shared stores, as in the twin (whose
        // two index tests come first): a store between them would keep the
        // B load, behind its bounds test, waiting for A's
        let va = av[((bm + ar) * k + k0 + ac) / 4];
        let vb = bv[((k0 + br) * n + bn + bc) / 4];
        let mut j = 0;
        while j < 4 {
            hint::unroll(0);
            sa[ac + j][ar / 4][ar % 4] = va[j];
            j += 1;
        }
        sb[br][bc / 4] = vb;
        sync_threads();
        let mut kk = 0;
        while kk < BK {
            hint::unroll(0);
            outer_product(&mut acc, (sa[kk][ty * 2], sa[kk][ty * 2 + 1]), (sb[kk][tx * 2], sb[kk][tx * 2 + 1]));
            kk += 1;
        }
        sync_threads();
        k0 += BK;
    }
    // thread (row, col) of index_2d owns rows 8 row .. and vector columns
    // 2 col .. of C's f32x4 view: C[128 by + 8 ty + i][128 bx + 8 tx + j]
    if let Some(mut tile) = cv.tile_mut::<TM, 2>(thread::index_2d()) {
        let mut i = 0;
        while i < TM {
            hint::unroll(0);
            if let Some(row) = tile.row_mut(i) {
                let r = &acc[i];
                *row = [f32x4([r[0], r[1], r[2], r[3]]), f32x4([r[4], r[5], r[6], r[7]])];
            }
            i += 1;
        }
    }
}

/// k-step of `sgemm_db` (its block tile is `sgemm_rb`'s 128 x 128); 16 would
/// spill at two blocks per SM (BENCHMARKS.md, "Static SASS ... sgemm_db").
const DK: usize = 8;
/// Each thread's `f32x4`s of A's and of B's tile per k-step.
const DA: usize = DK / 8;

/// C = A B as `sgemm_rb` (row-major f32, blocks of 16 x 16 threads, a 128
/// x 128 tile of C per block, 8 x 8 per thread in registers), double
/// buffered: two stages of A^T's and B's tiles in shared memory. Each
/// k-step of DK loads the next tile's `f32x4`s into registers first,
/// computes DK outer products from the current stage, then stores the
/// registers into the other stage: one `sync_threads()` per k-step. A^T's
/// rows are padded by a vector (conflict-free transposed stores). The
/// micro tile is 2 x 2 pieces of 4 x 4, rows 4 ty and 64 + 4 ty, columns
/// 4 tx and 64 + 4 tx of the block tile: a half-warp's 128-bit shared
/// loads of B are 16 consecutive vectors (no bank conflicts), its C
/// stores 256 consecutive bytes (`tile_split_mut::<4, 1, 2, 2>` of C's
/// `f32x4` view). Multiply-adds fuse (`contract`); two blocks per SM
/// (`min_blocks = 2`: ptxas holds it to 128 registers, 159 without). Needs
/// m and n multiples of 128 and k of DK (launch n / 128 x m / 128 blocks;
/// k = 0 writes C = 0); otherwise, or for misaligned data, nothing is
/// written.
#[kernel(reqntid(16, 16), launch_bounds(min_blocks = 2), contract)]
pub fn sgemm_db(a: &[f32], b: &[f32], c: DisjointSlice2D<f32>, k: u32) {
    let k = k as usize;
    let (m, n) = (c.rows(), c.cols());
    if m % BM != 0 || n % BN != 0 || k % DK != 0 {
        return;
    }
    let (Some((av, _)), Some((bv, _)), Some(mut cv)) =
        (as_vectors::<f32x4>(a), as_vectors::<f32x4>(b), c.as_vectors::<f32x4>())
    else {
        return;
    };
    // A^T: sa[stage DK + kk][row / 4], rows padded by a vector so that the
    // transposed stores of threads 2 i and 2 i + 1 (k 4 apart) fall 16
    // banks apart: conflict-free
    let sa = shared_array!([f32x4; BM / 4 + 1], 2 * DK);
    let sb = shared_array!([f32x4; BN / 4], 2 * DK); // B:   sb[stage DK + kk][col / 4]
    let tx = thread::thread_idx_x() as usize;
    let ty = thread::thread_idx_y() as usize;
    let t = ty * 16 + tx;
    let bm = thread::block_idx_y() as usize * BM;
    let bn = thread::block_idx_x() as usize * BN;
    // this thread's f32x4s of the A tile: rows ar + 1024 / DK v, k ac ..;
    // of the B tile: rows br + 8 v, columns bc ..
    let (ar, ac) = (t / (DK / 4), (t % (DK / 4)) * 4);
    let (br, bc) = (t / 32, (t % 32) * 4);
    let mut acc = [[0.0f32; TN]; TM];
    if k != 0 {
        let mut va = [f32x4([0.0; 4]); DA];
        let mut vb = [f32x4([0.0; 4]); DA];
        let mut v = 0;
        while v < DA {
            hint::unroll(0);
            va[v] = av[((bm + ar + 1024 / DK * v) * k + ac) / 4];
            vb[v] = bv[((br + 8 * v) * n + bn + bc) / 4];
            v += 1;
        }
        let mut k0 = 0;
        let mut kt = 0; // k-steps done
        loop {
            let st = (kt % 2) * DK; // this k-step's stage: rows st .. st + DK
            // the registers into stage st (the first tile) or the stage just
            // computed; every thread passed the barrier after computing it
            let mut v = 0;
            while v < DA {
                hint::unroll(0);
                let r = ar + 1024 / DK * v;
                let mut j = 0;
                while j < 4 {
                    hint::unroll(0);
                    sa[st + ac + j][r / 4][r % 4] = va[v][j];
                    j += 1;
                }
                sb[st + br + 8 * v][bc / 4] = vb[v];
                v += 1;
            }
            sync_threads();
            k0 += DK;
            let more = k0 < k;
            if more {
                // the next tile's vectors, in flight during the products
                let mut v = 0;
                while v < DA {
                    hint::unroll(0);
                    va[v] = av[((bm + ar + 1024 / DK * v) * k + k0 + ac) / 4];
                    vb[v] = bv[((k0 + br + 8 * v) * n + bn + bc) / 4];
                    v += 1;
                }
            }
            let mut kk = 0;
            while kk < DK {
                hint::unroll(0);
                outer_product(&mut acc, (sa[st + kk][ty], sa[st + kk][ty + 16]), (sb[st + kk][tx], sb[st + kk][tx + 16]));
                kk += 1;
            }
            if !more {
                break;
            }
            kt += 1;
        }
    }
    // piece (p, q) of thread (row, col) of index_2d: C[128 by + 64 p + 4
    // ty + i][128 bx + 64 q + 4 tx ..], acc[4 p + i][4 q ..]
    let idx = thread::index_2d();
    let mut p = 0;
    while p < 2 {
        hint::unroll(0);
        let mut q = 0;
        while q < 2 {
            hint::unroll(0);
            if let Some(mut tile) = cv.tile_split_mut::<4, 1, 2, 2>(idx, p, q) {
                let mut i = 0;
                while i < 4 {
                    hint::unroll(0);
                    if let Some(row) = tile.row_mut(i) {
                        let r = &acc[4 * p + i];
                        *row = [f32x4([r[4 * q], r[4 * q + 1], r[4 * q + 2], r[4 * q + 3]])];
                    }
                    i += 1;
                }
            }
            q += 1;
        }
        p += 1;
    }
}

/// One k step of both SGEMMs: `acc[i][j] += a[i] * b[j]` over a thread's
/// 8 x 8, `a` and `b` each two `f32x4`s from shared memory (fused under
/// the kernels' `contract`).
#[inline(always)]
fn outer_product(acc: &mut [[f32; TN]; TM], (a0, a1): (f32x4, f32x4), (b0, b1): (f32x4, f32x4)) {
    let ra = [a0[0], a0[1], a0[2], a0[3], a1[0], a1[1], a1[2], a1[3]];
    let rb = [b0[0], b0[1], b0[2], b0[3], b1[0], b1[1], b1[2], b1[3]];
    let mut i = 0;
    while i < TM {
        hint::unroll(0);
        let mut j = 0;
        while j < TN {
            hint::unroll(0);
            acc[i][j] += ra[i] * rb[j];
            j += 1;
        }
        i += 1;
    }
}

/// y = x, one `f32x4` per thread (`chunk_mut::<1>` of y's vector view),
/// the elements after the last whole vector one per thread. Nothing is
/// written when x or y is not 16-byte aligned.
#[kernel]
pub fn copy_f32x4(x: &[f32], y: DisjointSlice<f32>) {
    let i = thread::index_1d();
    let (Some((xv, xt)), Some((mut yv, mut yt))) = (as_vectors::<f32x4>(x), y.as_vectors::<f32x4>()) else {
        return;
    };
    if let (Some(d), Some(v)) = (yv.chunk_mut::<1>(i), xv.get(i.get())) {
        *d = [*v];
    }
    if let (Some(d), Some(v)) = (yt.get_mut(i), xt.get(i.get())) {
        *d = *v;
    }
}

/// Sums `v` over the warp: shfl.down by 16, 8, 4, 2, 1; lane 0 has it.
#[inline(always)]
fn warp_sum(mut v: f32) -> f32 {
    let mut off = 16;
    while off > 0 {
        hint::unroll(0);
        v += v.shfl_down(FULL_MASK, off);
        off /= 2;
    }
    v
}

/// Grid-stride sum: thread g adds x's vectors g, g + G, g + 2 G, ... (G
/// threads in the grid; each vector's lanes as (x0 + x1) + (x2 + x3)),
/// then tail element g; warps reduce by shuffles, warp 0 the 8 warp sums;
/// `partial[block]` is the block's sum (the host adds the partials).
/// Blocks of 256 threads.
#[kernel(reqntid(256))]
pub fn reduce_sum(x: &[f32], partial: &mut [f32]) {
    let warp_sums = shared_array!(f32, 8);
    let Some((xv, xt)) = as_vectors::<f32x4>(x) else {
        return;
    };
    let g = thread::index_1d().get();
    let grid = thread::grid_dim_x() as usize * 256;
    let mut s = 0.0f32;
    let mut i = g;
    while i < xv.len() {
        let v = xv[i];
        s += (v[0] + v[1]) + (v[2] + v[3]);
        i += grid;
    }
    if let Some(v) = xt.get(g) {
        s += *v;
    }
    s = warp_sum(s);
    let t = thread::thread_idx_x() as usize;
    if t % 32 == 0 {
        warp_sums[t / 32] = s;
    }
    sync_threads();
    if t < 32 {
        let mut v = if t < 8 { warp_sums[t] } else { 0.0 };
        v = warp_sum(v);
        if t == 0 {
            partial[thread::block_idx_x() as usize] = v;
        }
    }
}

/// 256-bin histogram of `v & 255` over `data`: grid-stride over `u32x4`
/// vectors (then the tail), counted with shared-memory atomics per block,
/// added to `bins` with one global atomic per non-zero bin. Blocks of 256.
#[kernel(reqntid(256))]
pub fn histogram256(data: &[u32], bins: &[AtomicU32]) {
    let local = shared_array!(u32, 256);
    let Some((dv, dt)) = as_vectors::<u32x4>(data) else {
        return;
    };
    let t = thread::thread_idx_x() as usize;
    local[t] = 0;
    sync_threads();
    let g = thread::index_1d().get();
    let grid = thread::grid_dim_x() as usize * 256;
    let mut i = g;
    while i < dv.len() {
        let v = dv[i];
        let mut j = 0;
        while j < 4 {
            hint::unroll(0);
            // SAFETY: an element of this block's shared array.
            unsafe { atomic_add_block(&mut local[(v[j] & 255) as usize] as *mut u32, 1) };
            j += 1;
        }
        i += grid;
    }
    if let Some(v) = dt.get(g) {
        // SAFETY: as above.
        unsafe { atomic_add_block(&mut local[(*v & 255) as usize] as *mut u32, 1) };
    }
    sync_threads();
    let c = local[t];
    if c != 0 {
        if let Some(bin) = bins.get(t) {
            bin.fetch_add(c, Ordering::Relaxed);
        }
    }
}

/// Columns of `softmax_rows`: 4096 f32 = 1024 vectors, 32 per lane.
const COLS: usize = 4096;
const VPL: usize = COLS / 4 / 32;

/// y = softmax(x) over each row of 4096 f32 (rows = x.len() / 4096): one
/// warp per row, blocks of 32 x 8 (x: the lane, y: the row in the block).
/// Lane l reads and writes the row's vectors l, l + 32, ... (coalesced):
/// y's vector view as a (32 rows) x 32 matrix per softmax row, lane l of
/// row r owning `tile_mut::<32, 1>` at (r, l). Three passes: the max
/// (max.f32), the sum of exp(x - max) (shfl.xor butterflies, so every lane
/// has both), then exp(x - max) / sum.
#[kernel(reqntid(32, 8))]
pub fn softmax_rows(x: &[f32], y: DisjointSlice<f32>) {
    let Some((xv, _)) = as_vectors::<f32x4>(x) else {
        return;
    };
    let Some(mut ym) = y.as_vectors::<f32x4>().and_then(|(v, _)| v.as_2d(32)) else {
        return;
    };
    let idx = thread::index_2d();
    let (row, lane) = (idx.row(), idx.col());
    let Some(mut tile) = ym.tile_mut::<VPL, 1>(idx) else {
        return;
    };
    let base = row * (COLS / 4) + lane;
    let mut m = f32::NEG_INFINITY;
    let mut j = 0;
    while j < VPL {
        let v = xv[base + 32 * j];
        m = m.max(v[0].max(v[1]).max(v[2].max(v[3])));
        j += 1;
    }
    let mut off = 16;
    while off > 0 {
        hint::unroll(0);
        m = m.max(m.shfl_xor(FULL_MASK, off));
        off /= 2;
    }
    let mut s = 0.0f32;
    let mut j = 0;
    while j < VPL {
        let v = xv[base + 32 * j];
        s += ((v[0] - m).exp() + (v[1] - m).exp()) + ((v[2] - m).exp() + (v[3] - m).exp());
        j += 1;
    }
    let mut off = 16;
    while off > 0 {
        hint::unroll(0);
        s += s.shfl_xor(FULL_MASK, off);
        off /= 2;
    }
    let mut j = 0;
    while j < VPL {
        let v = xv[base + 32 * j];
        let e = f32x4([(v[0] - m).exp() / s, (v[1] - m).exp() / s, (v[2] - m).exp() / s, (v[3] - m).exp() / s]);
        tile.set(j, 0, e);
        j += 1;
    }
}
