// tests/golden/packed_fields.rs: the source of packed_fields.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! Fields of a #[repr(packed)] struct in global memory: `b` (a u32 at
//! offset 1 of a 5-byte element, so at any address) is read as four byte
//! loads and written as four byte stores, never one 32-bit access at an
//! address that may be unaligned; `c` of the packed(2) struct (a u64 at
//! offset 2 of a 10-byte element) as four 16-bit loads. (No kernel here
//! makes another 32-bit global access, or a 64-bit global load, that the
//! forbidden lines of packed_fields.ptx could mistake for these.)
#![no_std]
use oxide_device::prelude::*;

#[derive(Clone, Copy)]
#[repr(C, packed)]
pub struct Rec {
    pub a: u8,
    pub b: u32,
}

#[derive(Clone, Copy)]
#[repr(C, packed(2))]
pub struct Rec2 {
    pub a: u16,
    pub c: u64,
}

#[kernel]
pub fn packed_read(recs: &[Rec], out: &mut [u64]) {
    let i = thread::index_1d().get();
    out[i] = recs[i].b as u64;
}

#[kernel]
pub fn packed_write(recs: &mut [Rec]) {
    let i = thread::index_1d().get();
    recs[i].b = (i as u32).wrapping_mul(0x9e37_79b9);
}

#[kernel]
pub fn packed2_read(recs: &[Rec2], out: &mut [u64]) {
    let i = thread::index_1d().get();
    out[i] = recs[i].c;
}
