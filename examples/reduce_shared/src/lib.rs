//! Block sums through shared memory: each block of 256 threads adds its
//! 256 elements of `input` by a tree in shared memory (halving strides,
//! `sync_threads` between levels) and writes `out[block]`.
//! `reduce_sum` uses a static shared array, `reduce_sum_dyn` the launch's
//! dynamic shared memory (256 * 4 bytes).
#![no_std]

use oxide_device::prelude::*;

const BLOCK: usize = 256;

#[inline(always)]
fn tree_sum(tile: *mut f32, input: &[f32], out: *mut f32) {
    let t = thread::thread_idx_x() as usize;
    let b = thread::block_idx_x() as usize;
    let i = b * BLOCK + t;
    // SAFETY: tile holds BLOCK floats and t < BLOCK (the launch uses
    // blocks of BLOCK threads); out holds one float per block.
    unsafe {
        *tile.add(t) = if i < input.len() { input[i] } else { 0.0 };
        sync_threads();
        let mut s = BLOCK / 2;
        while s > 0 {
            if t < s {
                *tile.add(t) += *tile.add(t + s);
            }
            sync_threads();
            s /= 2;
        }
        if t == 0 {
            *out.add(b) = *tile;
        }
    }
}

#[kernel]
pub fn reduce_sum(input: &[f32], out: *mut f32) {
    let tile = shared_array!(f32, 256);
    tree_sum(tile.as_mut_ptr(), input, out);
}

#[kernel]
pub fn reduce_sum_dyn(input: &[f32], out: *mut f32) {
    tree_sum(dynamic_shared::<f32>(), input, out);
}
