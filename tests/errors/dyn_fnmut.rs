#![no_std]
use oxide_device::prelude::*;

#[inline(never)]
fn run(g: &mut dyn FnMut(u32) -> u32, n: u32) -> u32 {
    let mut s = 0;
    for k in 0..n {
        s += g(k);
    }
    s
}

#[kernel]
pub fn dyn_fnmut(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let mut acc = 0u32;
    out[i] = run(&mut |k| { acc += k; acc }, 4);
}
