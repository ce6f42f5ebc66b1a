//! Crates group `bytes`: fixed-capacity collections and byte views from
//! Debian's arrayvec (ArrayVec of Copy elements, so no drop glue of
//! elements; ArrayString), tinyvec (its array-backed ArrayVec, no
//! `unsafe`), byteorder and bytemuck.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use arrayvec::{ArrayString, ArrayVec};
use byteorder::{BigEndian, ByteOrder, LittleEndian};

/// arrayvec ArrayVec<u32, 16>: push, try_push past capacity, pop, insert, remove, retain, sums.
#[kernel]
pub fn bytes_arrayvec(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: ArrayVec<u32, 16> = ArrayVec::new();
    let n = i % 20;
    let mut rejected = 0u64;
    for k in 0..n {
        if v.try_push(at(input, i + k) as u32).is_err() {
            rejected += 1;
        }
    }
    let mut h = mix(H0, rejected | (v.len() as u64) << 8 | (v.is_full() as u64) << 16);
    if let Some(x) = v.pop() {
        h = mix(h, x as u64);
    }
    if v.len() > 2 {
        let r = v.remove(1);
        v.insert(0, r ^ 0xffff);
    }
    v.retain(|x| *x % 3 != 0);
    for x in v.iter() {
        h = mix(h, *x as u64);
    }
    h = mix(h, v.iter().map(|x| *x as u64).sum::<u64>());
    put(&mut out, idx, h);
}

/// arrayvec ArrayVec<u64, 8> of Copy elements: push, try_push past capacity, pop, indexing, clear.
#[kernel]
pub fn bytes_arrayvec_push_pop(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: ArrayVec<u64, 8> = ArrayVec::new();
    let mut h = H0;
    for k in 0..(i % 12) {
        h = mix(h, v.try_push(at(input, i + k)).is_ok() as u64);
    }
    h = mix(h, v.len() as u64 | (v.is_full() as u64) << 8 | (v.remaining_capacity() as u64) << 16);
    if !v.is_empty() {
        h = mix(h, v[v.len() / 2]);
    }
    while let Some(x) = v.pop() {
        h = mix(h, x);
        if x % 5 == 0 {
            break;
        }
    }
    h = mix(h, v.len() as u64);
    v.clear();
    put(&mut out, idx, mix(h, v.len() as u64));
}

/// arrayvec ArrayString<24>: push_str, try_push past capacity, truncate, the bytes.
#[kernel]
pub fn bytes_arraystring(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut s: ArrayString<24> = ArrayString::new();
    let w = at(input, i);
    let mut h = H0;
    for k in 0..10 {
        let c = (b'a' + ((w >> (k * 5)) % 26) as u8) as char;
        h = mix(h, s.try_push(c).is_ok() as u64);
        if k % 3 == 0 {
            h = mix(h, s.try_push_str("xyz").is_ok() as u64);
        }
    }
    s.truncate(s.len() - (i % 5));
    for b in s.as_bytes() {
        h = mix(h, *b as u64);
    }
    put(&mut out, idx, mix(h, s.len() as u64));
}

/// byteorder: big- and little-endian reads and writes of 16 to 64 bits, and uint of n bytes.
#[kernel]
pub fn bytes_byteorder(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut buf = [0u8; 16];
    BigEndian::write_u64(&mut buf[..8], at(input, i));
    LittleEndian::write_u32(&mut buf[8..12], at(input, i + 1) as u32);
    BigEndian::write_u16(&mut buf[12..14], at(input, i + 2) as u16);
    LittleEndian::write_i16(&mut buf[14..16], at(input, i + 3) as i16);
    let mut h = H0;
    h = mix(h, LittleEndian::read_u64(&buf[..8]));
    h = mix(h, BigEndian::read_u32(&buf[8..12]) as u64);
    h = mix(h, BigEndian::read_u64(&buf[4..12]));
    h = mix(h, LittleEndian::read_uint(&buf[3..], 1 + i % 8));
    h = mix(h, BigEndian::read_i16(&buf[13..15]) as u64);
    put(&mut out, idx, h);
}

/// A plain-old-data struct for bytemuck.
#[derive(Clone, Copy)]
#[repr(C)]
struct Pair {
    a: u32,
    b: u16,
    c: u16,
}

// SAFETY: repr(C), no padding (4 + 2 + 2 bytes), every bit pattern valid.
// (Debian's bytemuck has no `derive` feature.)
unsafe impl bytemuck::Zeroable for Pair {}
unsafe impl bytemuck::Pod for Pair {}

/// bytemuck: casts between u64, [u32; 2], [u8; 8] and a Pod struct, slices cast, try_cast of a misaligned slice.
#[kernel]
pub fn bytes_bytemuck(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let p: Pair = bytemuck::cast(w);
    let halves: [u32; 2] = bytemuck::cast(w);
    let bytes: [u8; 8] = bytemuck::cast(w);
    let mut h = mix(H0, p.a as u64 | (p.b as u64) << 32 | (p.c as u64) << 48);
    h = mix(h, halves[1] as u64);
    h = mix(h, bytes[i % 8] as u64);
    let arr = [at(input, i + 1), at(input, i + 2)];
    let as32: &[u32] = bytemuck::cast_slice(&arr);
    h = mix(h, as32[3] as u64 | (as32.len() as u64) << 32);
    let as8: &[u8] = bytemuck::cast_slice(&arr);
    h = mix(h, bytemuck::try_cast_slice::<u8, u32>(&as8[1..9]).is_err() as u64);
    h = mix(h, bytemuck::pod_read_unaligned::<u32>(&as8[1..5]) as u64);
    let z: Pair = bytemuck::Zeroable::zeroed();
    put(&mut out, idx, mix(h, z.a as u64 + z.c as u64));
}

/// tinyvec ArrayVec<[u32; 16]>: try_push past capacity, pop, insert,
/// remove, swap_remove, truncate, push, sums.
#[kernel]
pub fn bytes_tinyvec(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: tinyvec::ArrayVec<[u32; 16]> = tinyvec::ArrayVec::new();
    let n = i % 20;
    let mut rejected = 0u64;
    for k in 0..n {
        if let Some(x) = v.try_push(at(input, i + k) as u32) {
            rejected = rejected.wrapping_add(x as u64 | 1);
        }
    }
    let mut h = mix(H0, rejected ^ (v.len() as u64) << 40);
    if let Some(x) = v.pop() {
        h = mix(h, x as u64);
    }
    if v.len() > 2 {
        v.insert(1, i as u32);
        h = mix(h, v.remove(v.len() - 1) as u64);
        h = mix(h, v.swap_remove(0) as u64);
    }
    h = mix(h, v.len() as u64);
    if v.len() > 4 {
        v.truncate(4);
    }
    v.push(7);
    for x in v.iter() {
        h = mix(h, *x as u64);
    }
    let sum: u64 = v.as_slice().iter().map(|&x| x as u64).sum();
    put(&mut out, idx, mix(h, sum));
}

/// tinyvec ArrayVec<[u32; 16]>::retain (its guard struct is declared inside
/// the generic method).
#[kernel]
pub fn bytes_tinyvec_retain(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: tinyvec::ArrayVec<[u32; 16]> = tinyvec::ArrayVec::new();
    for k in 0..i % 17 {
        v.push(at(input, i + k) as u32);
    }
    v.retain(|x| x % 3 != 0);
    let mut h = mix(H0, v.len() as u64);
    for x in v.iter() {
        h = mix(h, *x as u64);
    }
    put(&mut out, idx, h);
}

/// tinyvec ArrayVec<[u32; 16]>::extend_from_slice (a promoted constant of
/// the generic method).
#[kernel]
pub fn bytes_tinyvec_extend(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: tinyvec::ArrayVec<[u32; 16]> = tinyvec::ArrayVec::new();
    v.extend_from_slice(&[at(input, i) as u32, 7, i as u32]);
    let mut h = H0;
    for x in v.iter() {
        h = mix(h, *x as u64);
    }
    put(&mut out, idx, h);
}
