//! Warp-level primitives: a shuffle reduction, an inclusive shuffle scan,
//! votes, match and redux, and a counting barrier.
#![no_std]

use oxide_device::prelude::*;
use oxide_device::sync;
use oxide_device::warp::{self, Shuffle, FULL_MASK};

/// sums[w] = sum of x over warp w (shfl.down tree, f32), and
/// scan[i] = inclusive prefix sum of x within its warp (shfl.up, f32).
/// Blocks of 256 threads in x (`reqntid`: so `warp::lane_id()` is
/// `tid.x & 31`, as the CUDA C twin's `threadIdx.x % 32`), x.len() the
/// number of threads.
#[kernel(reqntid(256))]
pub fn warp_sum_scan(x: &[f32], mut scan: DisjointSlice<f32>, sums: &mut [f32]) {
    let idx = thread::index_1d();
    let i = idx.get();
    let v = x[i];
    // reduction
    let mut s = v;
    let mut off = 16;
    while off > 0 {
        s += s.shfl_down(FULL_MASK, off);
        off /= 2;
    }
    // inclusive scan (Hillis-Steele)
    let lane = warp::lane_id();
    let mut p = v;
    let mut d = 1;
    while d < 32 {
        let t = p.shfl_up(FULL_MASK, d);
        if lane >= d {
            p += t;
        }
        d *= 2;
    }
    if let Some(o) = scan.get_mut(idx) {
        *o = p;
    }
    if lane == 0 {
        sums[i / 32] = s;
    }
}

/// Per thread, out[i * 8 + k] for k in 0..8: butterfly sum (u64 xor
/// shuffle), broadcast of lane 5 (f64 idx shuffle, low 32 bits), ballot of
/// odd values, all(v < 1000), any(v == 7), match_any of v % 4, redux add of
/// v, redux max of v.
#[kernel]
pub fn warp_votes(v: &[u32], out: &mut [u32]) {
    let i = thread::index_1d().get();
    let x = v[i];
    let mut s = x as u64 + (1u64 << 40);
    let mut m = 1;
    while m < 32 {
        s += s.shfl_xor(FULL_MASK, m);
        m *= 2;
    }
    let b = (x as f64 * 0.5).shfl(FULL_MASK, 5);
    let o = i * 8;
    out[o] = (s >> 40) as u32 ^ (s as u32);
    out[o + 1] = (b * 2.0) as u32;
    out[o + 2] = warp::ballot_sync(FULL_MASK, x % 2 == 1);
    out[o + 3] = warp::all_sync(FULL_MASK, x < 1000) as u32;
    out[o + 4] = warp::any_sync(FULL_MASK, x == 7) as u32;
    out[o + 5] = warp::match_any_sync_u32(FULL_MASK, x % 4);
    out[o + 6] = warp::reduce_add_sync(FULL_MASK, x);
    out[o + 7] = warp::reduce_max_sync(FULL_MASK, x);
}

/// counts[block] = how many threads of the block have an even v
/// (bar.red.popc), lanes[i] = lane id | warp-in-block << 8 | active-mask
/// check << 16; fences and clocks are exercised for the PTX.
#[kernel]
pub fn block_count(v: &[u32], counts: &mut [u32], lanes: &mut [u32]) {
    let i = thread::index_1d().get();
    let t0 = sync::clock64();
    let c = sync::sync_threads_count(v[i] % 2 == 0);
    let any_big = sync::sync_threads_or(v[i] > 1_000_000);
    let all_small = sync::sync_threads_and(v[i] < 1_000_000);
    sync::fence_block();
    sync::fence_device();
    sync::fence_system();
    let t1 = sync::clock64();
    // before any branch: the warp is converged here (right after a barrier)
    let full = (warp::active_mask() == FULL_MASK) as u32;
    if thread::thread_idx_x() == 0 {
        counts[thread::block_idx_x() as usize] = c + if any_big { 1000 } else { 0 } + if all_small { 0 } else { 2000 };
    }
    let ok = (t1 >= t0) as u32;
    lanes[i] = warp::lane_id() | (thread::thread_idx_x() / 32) << 8 | full << 16 | ok << 17;
}
