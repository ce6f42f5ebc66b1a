//! Softmax over the rows of a bf16 matrix (rows x cols, row-major bits),
//! f32 inside, bf16 out: y[r][c] = exp(x[r][c] - max_r) / sum_r, rounded
//! to nearest even. One warp per row, in three passes over the row: its
//! maximum, the sum of exp(x - max), then the output; each lane reads four
//! bf16 (8 bytes) at a time, the warp's 32 lanes 256 contiguous bytes, and
//! the warp reduces with butterfly shuffles. cols must be a multiple of
//! 128 (the host checks). `exp` is libdevice's `__nv_expf` (the CUDA C
//! twin's `expf` is the same function). The passes are unrolled as nvcc
//! unrolls the twin's by its own heuristics (4, 2, 2; `hint::unroll`).
#![no_std]

use oxide_device::half::bf16;
use oxide_device::hint;
use oxide_device::math::Float;
use oxide_device::prelude::*;
use oxide_device::warp::{Shuffle, FULL_MASK};

#[inline(always)]
fn unpack(w: u64, i: u32) -> f32 {
    f32::from_bits(((w >> (16 * i)) as u32 & 0xffff) << 16)
}

#[inline(always)]
fn warp_max(mut v: f32) -> f32 {
    let mut d = 16;
    while d > 0 {
        v = v.max(v.shfl_xor(FULL_MASK, d));
        d /= 2;
    }
    v
}

#[inline(always)]
fn warp_sum(mut v: f32) -> f32 {
    let mut d = 16;
    while d > 0 {
        v += v.shfl_xor(FULL_MASK, d);
        d /= 2;
    }
    v
}

#[kernel]
pub fn softmax_bf16(x: *const u16, y: *mut u16, rows: u32, cols: u32) {
    let t = thread::block_idx_x() * thread::block_dim_x() + thread::thread_idx_x();
    let (row, lane) = ((t / 32) as usize, (t % 32) as usize);
    if row >= rows as usize {
        return;
    }
    let cols = cols as usize;
    // SAFETY: inside the row (the host checks cols % 128 == 0, rows).
    let xr = unsafe { x.add(row * cols) } as *const u64;
    let yr = unsafe { y.add(row * cols) } as *mut u64;
    let words = cols / 4;
    let mut m = f32::NEG_INFINITY;
    let mut j = lane;
    while j < words {
        hint::unroll(4);
        let w = unsafe { *xr.add(j) };
        m = m.max(unpack(w, 0)).max(unpack(w, 1)).max(unpack(w, 2)).max(unpack(w, 3));
        j += 32;
    }
    m = warp_max(m);
    let mut s = 0.0f32;
    j = lane;
    while j < words {
        hint::unroll(2);
        let w = unsafe { *xr.add(j) };
        s += (unpack(w, 0) - m).exp() + (unpack(w, 1) - m).exp() + (unpack(w, 2) - m).exp() + (unpack(w, 3) - m).exp();
        j += 32;
    }
    let inv = 1.0 / warp_sum(s);
    j = lane;
    while j < words {
        hint::unroll(2);
        let w = unsafe { *xr.add(j) };
        let mut out = 0u64;
        for i in 0..4 {
            let h = bf16::from_f32((unpack(w, i) - m).exp() * inv);
            out |= (h.to_bits() as u64) << (16 * i);
        }
        unsafe { *yr.add(j) = out };
        j += 32;
    }
}
