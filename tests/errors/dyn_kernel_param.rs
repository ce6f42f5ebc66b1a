#![no_std]
use oxide_device::prelude::*;

pub trait Shape {
    fn area(&self) -> u32;
}

#[kernel]
pub fn dyn_kernel_param(s: &dyn Shape, out: &mut [u32]) {
    let i = thread::index_1d().get();
    out[i] = s.area();
}
