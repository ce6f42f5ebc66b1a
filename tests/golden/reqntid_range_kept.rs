// tests/golden/reqntid_range_kept.rs: the source of reqntid_range_kept.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! reqntid_range's body with `.reqntid 256`: tid.x and tid.y are < 256
//! only, so the bounds tests of s[2 tx + 1] and s[2 ty] stay (traps).
#![no_std]
use oxide_device::prelude::*;

#[kernel(reqntid(256))]
pub fn k(out: *mut u32) {
    let s = shared_array!(u32, 32);
    let tx = thread::thread_idx_x() as usize;
    let ty = thread::thread_idx_y() as usize;
    s[2 * tx + 1] = tx as u32;
    sync_threads();
    // SAFETY: the caller passes 256 words, one per thread.
    unsafe { *out.add(ty * thread::block_dim_x() as usize + tx) = s[2 * ty] };
}
