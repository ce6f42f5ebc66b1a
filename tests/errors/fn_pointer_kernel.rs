#![no_std]
use oxide_device::prelude::*;

#[kernel]
pub fn fill(out: &mut [u32]) {
    out[thread::index_1d().get()] = 1;
}

#[inline(never)]
fn launch_again(f: fn(&mut [u32]), out: &mut [u32]) {
    f(out)
}

#[kernel]
pub fn fn_pointer_kernel(out: &mut [u32]) {
    launch_again(fill, out);
}
