// tests/golden/grid_sync.rs: the source of grid_sync.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! grid::sync() twice in one kernel: the module's __oxide_grid_barrier
//! word, and the grid barrier's PTX (its labels local to { }, so that
//! ptxas accepts two copies in one function).
#![no_std]
use oxide_device::grid;
use oxide_device::prelude::*;

#[kernel]
pub fn k(a: *mut u32) {
    let i = thread::block_idx_x() as usize;
    // SAFETY: a holds a word per block, plus one.
    unsafe {
        *a.add(i) = 1;
        grid::sync();
        *a.add(i + 1) += 1;
        grid::sync();
    }
}
