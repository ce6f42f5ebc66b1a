//! Grid-wide synchronization: `grid::sync()` in cooperative launches
//! (`ox_launch_cooperative` on the host).
//!
//! `two_phase`: each block adds its elements (a grid-stride loop, then a
//! tree in shared memory) into `partial[block]`; after `grid::sync()`
//! thread 0 of every block adds all the partials and writes the grand
//! total to `out[block]`: every block must see every other block's
//! partial.
//!
//! `stencil`: `steps` rounds of `b[i] = a[i-1] + a[i] + a[i+1]` (wrapping
//! u32, 0 past the ends), then a and b swap; a `grid::sync()` between
//! rounds, since each reads what other blocks wrote in the round before.
//!
//! `early_exit`: block 0 returns before `grid::sync()`, which then can
//! never complete (the host program checks that the emulator reports it
//! as a hang).
#![no_std]

use oxide_device::grid;
use oxide_device::prelude::*;

const BLOCK: usize = 128;

#[kernel]
pub fn two_phase(input: &[u32], partial: *mut u32, out: *mut u32) {
    let tile = shared_array!(u32, 128);
    let t = thread::thread_idx_x() as usize;
    let b = thread::block_idx_x() as usize;
    let blocks = thread::grid_dim_x() as usize;
    let tile = tile.as_mut_ptr();
    let mut s = 0u32;
    let mut i = b * BLOCK + t;
    while i < input.len() {
        s = s.wrapping_add(input[i]);
        i += blocks * BLOCK;
    }
    // SAFETY: t < BLOCK (blocks of BLOCK threads); partial holds one
    // word per block, out one per block; the tree is ordered by the
    // block barriers, the partials by grid::sync().
    unsafe {
        *tile.add(t) = s;
        sync_threads();
        let mut h = BLOCK / 2;
        while h > 0 {
            if t < h {
                *tile.add(t) = (*tile.add(t)).wrapping_add(*tile.add(t + h));
            }
            sync_threads();
            h /= 2;
        }
        if t == 0 {
            *partial.add(b) = *tile;
        }
        grid::sync();
        if t == 0 {
            let mut total = 0u32;
            for r in 0..blocks {
                total = total.wrapping_add(*partial.add(r));
            }
            *out.add(b) = total;
        }
    }
}

#[kernel]
pub fn stencil(a: *mut u32, b: *mut u32, n: u32, steps: u32) {
    let first = thread::block_idx_x() * thread::block_dim_x() + thread::thread_idx_x();
    let stride = thread::grid_dim_x() * thread::block_dim_x();
    let (mut src, mut dst) = (a, b);
    // SAFETY: a and b hold n words each; indices are < n; a round reads
    // src and writes dst, and grid::sync() orders the rounds.
    unsafe {
        for _ in 0..steps {
            let mut i = first;
            while i < n {
                let l = if i > 0 { *src.add(i as usize - 1) } else { 0 };
                let r = if i + 1 < n { *src.add(i as usize + 1) } else { 0 };
                *dst.add(i as usize) = l.wrapping_add(*src.add(i as usize)).wrapping_add(r);
                i += stride;
            }
            grid::sync();
            let t = src;
            src = dst;
            dst = t;
        }
    }
}

#[kernel]
pub fn early_exit(out: *mut u32) {
    if thread::block_idx_x() == 0 {
        return;
    }
    grid::sync();
    // SAFETY: out holds one word per block.
    unsafe {
        *out.add(thread::block_idx_x() as usize) = 1;
    }
}
