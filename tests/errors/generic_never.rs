#![no_std]
use oxide_device::prelude::*;

#[inline(never)]
fn twice<T: core::ops::Add<Output = T> + Copy>(x: T) -> T {
    x + x
}

#[kernel]
pub fn generic_never(out: &mut [u32]) {
    let i = thread::index_1d().get();
    out[i] = twice(i as u32);
}
