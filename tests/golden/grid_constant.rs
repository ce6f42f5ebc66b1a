// tests/golden/grid_constant.rs: the source of grid_constant.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! By-value kernel parameters: the ones the kernel never writes are grid
//! constants (their address is the parameter's: cvta.param), the others
//! are copied (a local copy where the address escapes).
#![no_std]
use core::cell::Cell;
use oxide_device::prelude::*;

#[repr(C)]
pub struct Words {
    pub a: [u32; 8],
}

pub struct WithCell {
    pub a: [u32; 7],
    pub c: Cell<u32>,
}

#[inline(never)]
fn sum(p: &Words) -> u32 {
    let mut s = 0;
    for i in 0..8 {
        s += p.a[i];
    }
    s
}

#[inline(never)]
fn sum_cell(p: &WithCell) -> u32 {
    p.c.get() + p.a[thread::thread_idx_x() as usize % 7]
}

/// never written: a grid constant
#[kernel]
pub fn read_only(p: Words, out: *mut u32) {
    unsafe { *out = sum(&p) };
}

/// written: copied
#[kernel]
pub fn written(mut p: Words, out: *mut u32) {
    p.a[thread::thread_idx_x() as usize % 8] = 5;
    unsafe { *out = sum(&p) };
}

/// borrowed `&mut`: copied
#[kernel]
pub fn borrowed_mut(mut p: Words, out: *mut u32) {
    let r = &mut p;
    r.a[1] = 9;
    unsafe { *out = sum(r) };
}

/// interior mutability: copied
#[kernel]
pub fn with_cell(p: WithCell, out: *mut u32) {
    p.c.set(thread::thread_idx_x());
    unsafe { *out = sum_cell(&p) };
}
