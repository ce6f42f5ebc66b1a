#![no_std]
use oxide_device::prelude::*;

#[kernel]
pub fn iter_not_inlined(x: &[u32], out: &mut [u32]) {
    let i = thread::index_1d().get();
    out[i] = x.windows(3).step_by(2).map(|w| w[0] + w[2]).filter(|v| v % 3 == 0).skip(1).chain(x.chunks_exact(4).map(|c| c[1])).take(5).sum();
}
