//! A deliberate out-of-bounds write through a raw pointer, for
//! tests/gpu/lineinfo/run.sh: compute-sanitizer memcheck must name the
//! line of the store below (line info is on by default).
#![no_std]

use oxide_device::prelude::*;

/// Every thread writes out[i + skew]: with skew > 0 the last threads
/// write past the end of out, which no bounds check stops (raw pointer).
#[kernel]
pub fn oob_store(out: *mut u32, skew: u32) {
    let i = thread::index_1d().get() + skew as usize;
    unsafe { *out.add(i) = i as u32 };   // OOB_STORE_LINE
}
