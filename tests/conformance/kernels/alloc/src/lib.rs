//! Conformance group `alloc`: the device heap. oxide-device's `DeviceHeap`
//! (CUDA's device-side malloc and free; the C library's under emulation and
//! in the CPU reference) as the crate's global allocator, called directly
//! through `GlobalAlloc` and by alloc's `Vec` and `Box`, whose bodies
//! mir-export reads from alloc's own MIR (docs/DESIGN.md, "Library
//! bodies": alloc).
#![no_std]
extern crate alloc;

#[path = "../../common.rs"]
mod common;
use alloc::boxed::Box;
use alloc::vec::Vec;
use common::*;
use core::alloc::{GlobalAlloc, Layout};
use oxide_device::alloc::DeviceHeap;
use oxide_device::prelude::*;

#[global_allocator]
static HEAP: DeviceHeap = DeviceHeap;

/// `GlobalAlloc` directly: a 16-aligned block and a 64-aligned one (over
/// allocated, `malloc`'s pointer kept below it), written, read, freed.
#[kernel]
pub fn alloc_global_direct(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let small = Layout::from_size_align(24, core::hint::black_box(8usize)).unwrap();
    let big = Layout::from_size_align(40 + i % 3, core::hint::black_box(64usize)).unwrap();
    let h = unsafe {
        let p = HEAP.alloc(small) as *mut u64;
        let q = HEAP.alloc(big) as *mut u64;
        if p.is_null() || q.is_null() {
            0
        } else {
            p.write(at(input, i));
            p.add(2).write(at(input, i + 1));
            q.write(mix(p.read(), p.add(2).read()));
            q.add(4).write((q as usize % 64) as u64 + (p as usize % 16) as u64);
            let h = mix(q.read(), q.add(4).read());
            HEAP.dealloc(p as *mut u8, small);
            HEAP.dealloc(q as *mut u8, big);
            h
        }
    };
    put(&mut out, idx, h);
}

/// `Vec`: push, index, iterate, pop, extend from a slice, drop.
#[kernel]
pub fn alloc_vec_push(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: Vec<u32> = Vec::new();
    for k in 0..(5 + i % 7) {
        v.push((at(input, i + k) >> 9) as u32);
    }
    let mut h = mix(H0, v.len() as u64);
    h = mix(h, v[v.len() / 2] as u64);
    for x in &v {
        h = mix(h, *x as u64);
    }
    while let Some(x) = v.pop() {
        h = mix(h, x as u64 ^ 0x55);
        if v.len() == 2 {
            break;
        }
    }
    v.extend_from_slice(&[7, 8, 9]);
    h = mix(h, v.iter().map(|x| *x as u64).sum());
    put(&mut out, idx, h);
}

/// `Vec` sorted by core's `sort_unstable` on its slice.
#[kernel]
pub fn alloc_vec_sort(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: Vec<u32> = Vec::with_capacity(12);
    for k in 0..12 {
        v.push((at(input, i + k) >> 5) as u32 % 500);
    }
    v.sort_unstable();
    let mut h = H0;
    for x in v {
        h = mix(h, x as u64);
    }
    put(&mut out, idx, h);
}

/// `Box<[u32; 8]>` and `Box<u64>`: made, changed through the box, dropped.
#[kernel]
pub fn alloc_box(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut b = Box::new([0u32; 8]);
    for (k, x) in b.iter_mut().enumerate() {
        *x = at(input, i + k) as u32;
    }
    let c = Box::new(mix(H0, b[3] as u64));
    let mut h = *c;
    for x in b.iter() {
        h = mix(h, *x as u64);
    }
    put(&mut out, idx, h);
}
