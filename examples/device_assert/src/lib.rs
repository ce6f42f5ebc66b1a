//! device_assert!: CUDA's device-side assert with the Rust source
//! location. `checked_scale` asserts its precondition (the host checks
//! the message's file, line and text, so keep the assert on line 14).
#![no_std]

use oxide_device::prelude::*;

/// y[i] = 3 * x[i] + i, asserting x[i] < limit (then 3 * x[i] cannot
/// overflow for limit <= 2^30) and that the launch covers y.
#[kernel]
pub fn checked_scale(limit: u32, x: &[u32], mut y: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    device_assert!(i >= x.len() || x[i] < limit, "x is below the limit");
    device_assert!(thread::grid_dim_x() as usize * thread::block_dim_x() as usize >= y.len());
    if let Some(yi) = y.get_mut(idx) {
        *yi = 3 * x[i] + i as u32;
    }
}
