#![no_std]
use oxide_device::prelude::*;

fn double(x: u32) -> u32 { x * 2 }
fn square(x: u32) -> u32 { x * x }

#[inline(never)]
fn apply(f: fn(u32) -> u32, x: u32) -> u32 {
    f(x)
}

#[kernel]
pub fn fn_pointer(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let f: fn(u32) -> u32 = if i % 2 == 0 { double } else { square };
    let g: fn(u32) -> u32 = |x| x ^ 5;
    out[i] = apply(f, i as u32) + apply(g, 1);
}
