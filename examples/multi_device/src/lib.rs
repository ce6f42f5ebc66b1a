//! One job split over every device of the machine (examples/multi_device/host.c):
//! each device squares its share of the words (`square_plus`), the shares are
//! copied to device 0 (`ox_copy_peer`), and device 0 sums the whole in
//! per-thread wrapping sums over a grid-stride loop (`stride_sums`).
#![no_std]

use oxide_device::prelude::*;

/// `y[i] = x[i] * x[i] + 1`, wrapping.
#[kernel]
pub fn square_plus(x: &[u32], mut y: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(yi) = y.get_mut(idx) {
        *yi = x[i].wrapping_mul(x[i]).wrapping_add(1);
    }
}

/// `sums[t]` = the wrapping sum of `y[t]`, `y[t + T]`, `y[t + 2T]`, ...
/// for the grid's T threads.
#[kernel]
pub fn stride_sums(y: &[u32], mut sums: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let t = idx.get();
    let threads = (thread::grid_dim_x() * thread::block_dim_x()) as usize;
    let mut s = 0u32;
    let mut i = t;
    while i < y.len() {
        s = s.wrapping_add(y[i]);
        i += threads;
    }
    if let Some(st) = sums.get_mut(idx) {
        *st = s;
    }
}
