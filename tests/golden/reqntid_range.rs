// tests/golden/reqntid_range.rs: the source of reqntid_range.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! `.reqntid 16, 16` fixes the block's shape dimension by dimension (a
//! launch of any other shape fails), so tid.x < 16 and tid.y < 16: the
//! bounds tests of s[2 tx + 1] and s[2 ty] are redundant and no trap is
//! left. LLVM alone bounds each dimension by the product, 256
//! (reqntid_range_kept: the same body with .reqntid 256 keeps them).
#![no_std]
use oxide_device::prelude::*;

#[kernel(reqntid(16, 16))]
pub fn k(out: *mut u32) {
    let s = shared_array!(u32, 32);
    let tx = thread::thread_idx_x() as usize;
    let ty = thread::thread_idx_y() as usize;
    s[2 * tx + 1] = tx as u32;
    sync_threads();
    // SAFETY: the caller passes 256 words, one per thread.
    unsafe { *out.add(ty * thread::block_dim_x() as usize + tx) = s[2 * ty] };
}
