#![no_std]
use oxide_device::prelude::*;

fn double(x: u32) -> u32 {
    x * 2
}

#[inline(never)]
fn apply(f: &dyn Fn(u32) -> u32, x: u32) -> u32 {
    f(x)
}

#[kernel]
pub fn dyn_fn_item(out: &mut [u32]) {
    let i = thread::index_1d().get();
    out[i] = apply(&double, i as u32);
}
