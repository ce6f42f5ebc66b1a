#![no_std]
extern crate alloc;
use oxide_device::prelude::*;

#[kernel]
pub fn heap_box(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let b = alloc::boxed::Box::new(i as u32);
    out[i] = *b;
}
