#![no_std]
use core::ops::Div;
use oxide_device::prelude::*;

#[inline(never)]
fn half<T: Copy + Div<Output = T> + From<u8>>(x: T) -> T {
    x / T::from(2)
}

#[kernel]
pub fn generic_int_div(out: &mut [u32]) {
    let i = thread::index_1d().get();
    out[i] = half(i as u32);
}
