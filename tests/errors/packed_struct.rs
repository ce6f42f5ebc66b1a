#![no_std]
use oxide_device::prelude::*;

#[repr(C, packed)]
#[derive(Clone, Copy)]
pub struct Rec {
    tag: u8,
    value: u32,
}

#[kernel]
pub fn packed_struct(recs: &[Rec], out: &mut [u32]) {
    let i = thread::index_1d().get();
    let r = recs[i];
    out[i] = r.value + r.tag as u32;
}
