#![no_std]
extern crate alloc;
use alloc::vec::Vec;
use oxide_device::prelude::*;

#[kernel]
pub fn heap_vec_push(out: &mut [u32]) {
    let i = thread::index_1d().get();
    let mut v: Vec<u32> = Vec::new();
    v.push(i as u32);
    out[i] = v[0];
}
