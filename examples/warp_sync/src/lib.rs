//! The CUDA device API beyond warp_reduce: shuffles within segments of a
//! warp (CUDA's `width`), match_all, the warp barrier `sync_warp`, and
//! named barriers with a thread count (producer/consumer warps, barriers
//! of part of a block). Every kernel runs in blocks of 128 threads.
#![no_std]

use oxide_device::prelude::*;
use oxide_device::sync;
use oxide_device::warp::{self, Shuffle, FULL_MASK};

/// Results per thread of `shfl_segments`.
pub const SEGMENT_RESULTS: usize = 29;

/// out[i * 29 + k]: for width 2, 4, 8, 16, 32 (k = 5 * log2(width) - 5..),
/// of x = v[i]: shfl_width from lane `lane * 7 + 3` (past the segment and
/// the warp: taken modulo width), shfl_up_width by `1 + lane % 3`,
/// shfl_down_width by 2, shfl_xor_width with `width / 2 | 1` (within the
/// segment) and with `width | 1` (an earlier segment, or the own value
/// for a later one; for width 32, 33 reads as 1). Then 64-bit and float
/// forms: the low and high halves of a u64 down-shuffle by 3 in segments
/// of 8, an f64 up-shuffle by 2 in segments of 16 (times 4), an i32
/// xor-shuffle with 6 in segments of 4.
#[kernel]
pub fn shfl_segments(v: &[u32], out: &mut [u32]) {
    let i = thread::index_1d().get();
    let x = v[i];
    let lane = warp::lane_id();
    let o = i * SEGMENT_RESULTS;
    let mut k = 0;
    let mut width = 2;
    while width <= 32 {
        out[o + k] = x.shfl_width(FULL_MASK, lane * 7 + 3, width);
        out[o + k + 1] = x.shfl_up_width(FULL_MASK, 1 + lane % 3, width);
        out[o + k + 2] = x.shfl_down_width(FULL_MASK, 2, width);
        out[o + k + 3] = x.shfl_xor_width(FULL_MASK, width / 2 | 1, width);
        out[o + k + 4] = x.shfl_xor_width(FULL_MASK, width | 1, width);
        k += 5;
        width *= 2;
    }
    let y = (x as u64) << 32 | (x ^ 0xdead_beef) as u64;
    let d = y.shfl_down_width(FULL_MASK, 3, 8);
    out[o + 25] = d as u32;
    out[o + 26] = (d >> 32) as u32;
    out[o + 27] = ((x as f64 * 0.25).shfl_up_width(FULL_MASK, 2, 16) * 4.0) as u32;
    out[o + 28] = ((x as i32 - 500).shfl_xor_width(FULL_MASK, 6, 4) + 500) as u32;
}

/// Results per thread of `match_all`.
pub const MATCH_RESULTS: usize = 3;

/// out[i * 3 + k], 0 standing for None: match_all of v[i] over the warp,
/// of w[i] (u64) over the warp, and of v[i] over the thread's half-warp
/// (two member masks, one per half, in two branches).
#[kernel]
pub fn match_all(v: &[u32], w: &[u64], out: &mut [u32]) {
    let i = thread::index_1d().get();
    let o = i * MATCH_RESULTS;
    out[o] = warp::match_all_sync_u32(FULL_MASK, v[i]).unwrap_or(0);
    out[o + 1] = warp::match_all_sync_u64(FULL_MASK, w[i]).unwrap_or(0);
    let half = if warp::lane_id() < 16 {
        warp::match_all_sync_u32(0x0000_ffff, v[i])
    } else {
        warp::match_all_sync_u32(0xffff_0000, v[i])
    };
    out[o + 2] = half.unwrap_or(0);
}

/// Through shared memory, with sync_warp between writes and reads:
/// out[2 * i] = 3 * v of the next lane (mod 32) of the warp; then each
/// half-warp adds its lane's v to its slot, syncs only its half and reads
/// the next lane (mod 16) of its half: out[2 * i + 1].
#[kernel]
pub fn warp_exchange(v: &[u32], out: &mut [u32]) {
    let tile = shared_array!(u32, 128);
    let i = thread::index_1d().get();
    let t = thread::thread_idx_x() as usize;
    let lane = t % 32;
    let base = t - lane;
    tile[t] = v[i] * 3;
    warp::sync_warp(FULL_MASK);
    out[2 * i] = tile[base + (lane + 1) % 32];
    warp::sync_warp(FULL_MASK); // every lane has read before any writes again
    if lane < 16 {
        tile[t] += v[i];
        warp::sync_warp(0x0000_ffff);
        out[2 * i + 1] = tile[base + (lane + 1) % 16];
    } else {
        tile[t] += v[i];
        warp::sync_warp(0xffff_0000);
        out[2 * i + 1] = tile[base + 16 + (lane + 1) % 16];
    }
}

/// Results per thread of `named_barriers`.
pub const BARRIER_RESULTS: usize = 4;

/// Blocks of 128 threads, four warps; out[i * 4 + k]:
/// 0: warps 2 and 3 produce a[t - 64] = 2 v + 1 and arrive at barrier 1
///    (128 threads) without waiting; warps 0 and 1 wait there, then read
///    a[63 - t]; producers write their own 2 v + 1.
/// 1, 2: warps 0-1 and warps 2-3 each reverse b within their half of the
///    block, synchronising at barrier 2 and 3 (64 threads each), twice in
///    a row on the same barrier (v + 7, then v * 5).
/// 3: after barrier 4 of all 128 threads, b of the other half: the thread
///    at t + 64 (mod 128), v * 5 + t.
#[kernel]
pub fn named_barriers(v: &[u32], out: &mut [u32]) {
    let a = shared_array!(u32, 64);
    let b = shared_array!(u32, 128);
    let i = thread::index_1d().get();
    let t = thread::thread_idx_x() as usize;
    let x = v[i];
    let o = i * BARRIER_RESULTS;
    // SAFETY (every barrier): blocks of 128 threads, ids below 16, counts
    // multiples of 32 that exactly the calling warps make up.
    if t >= 64 {
        a[t - 64] = 2 * x + 1;
        unsafe { sync::barrier_arrive(1, 128) };
        out[o] = 2 * x + 1;
    } else {
        unsafe { sync::barrier_sync(1, 128) };
        out[o] = a[63 - t];
    }
    let (id, lo) = if t < 64 { (2, 0) } else { (3, 64) };
    b[t] = x + 7;
    unsafe { sync::barrier_sync(id, 64) };
    out[o + 1] = b[lo + 63 - (t - lo)];
    unsafe { sync::barrier_sync(id, 64) };
    b[t] = x * 5 + t as u32;
    unsafe { sync::barrier_sync(id, 64) };
    out[o + 2] = b[lo + 63 - (t - lo)];
    unsafe { sync::barrier_sync(4, 128) };
    out[o + 3] = b[(t + 64) % 128];
}
