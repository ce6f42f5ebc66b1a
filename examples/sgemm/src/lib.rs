//! C = A * B for row-major A (m x k), B (k x n), C (m x n), in 16 x 16
//! tiles: each block loads a tile of A and one of B into shared memory,
//! synchronises, accumulates their product, synchronises, and moves on
//! along k. Blocks of 16 x 16 threads, one element of C each.
#![no_std]

use oxide_device::prelude::*;

const T: u32 = 16;

#[kernel]
pub fn sgemm(a: &[f32], b: &[f32], c: *mut f32, m: u32, n: u32, k: u32) {
    let ta = shared_array!([f32; 16], 16);
    let tb = shared_array!([f32; 16], 16);
    let tx = thread::thread_idx_x();
    let ty = thread::thread_idx_y();
    let row = thread::block_idx_y() * T + ty;
    let col = thread::block_idx_x() * T + tx;
    let mut acc = 0.0f32;
    let mut k0 = 0;
    while k0 < k {
        ta[ty as usize][tx as usize] = if row < m && k0 + tx < k { a[(row * k + k0 + tx) as usize] } else { 0.0 };
        tb[ty as usize][tx as usize] = if col < n && k0 + ty < k { b[((k0 + ty) * n + col) as usize] } else { 0.0 };
        sync_threads();
        let mut j = 0;
        while j < T as usize {
            acc += ta[ty as usize][j] * tb[j][tx as usize];
            j += 1;
        }
        sync_threads();
        k0 += T;
    }
    if row < m && col < n {
        // SAFETY: inside the m x n output.
        unsafe { *c.add((row * n + col) as usize) = acc };
    }
}
