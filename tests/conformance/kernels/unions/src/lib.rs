//! Conformance group `unions`: unions (type punning), MaybeUninit,
//! transmute between same-size types.
#![no_std]
// Transmutes are what this group tests, not a style choice.
#![allow(unnecessary_transmutes)]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use core::mem::{transmute, MaybeUninit};

#[derive(Clone, Copy)]
union Bits32 {
    u: u32,
    f: f32,
    i: i32,
}

/// Union punning u32 / f32 / i32.
#[kernel]
pub fn unions_pun_f32(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut x = Bits32 { u: w as u32 };
    // SAFETY: every field is a plain 32-bit value.
    let f = unsafe { x.f };
    x.f = f * 2.0;
    let (u, s) = unsafe { (x.u, x.i) };
    // A NaN result's payload and sign are unspecified: digest them only for
    // numbers.
    let keep = if f.is_nan() { 0 } else { u64::MAX };
    put(&mut out, idx, mix(mix(mix(H0, canon32(f)), u as u64 & keep), (s >> 31) as u64 & keep));
}

#[derive(Clone, Copy)]
union Bytes8 {
    word: u64,
    bytes: [u8; 8],
    halves: [u16; 4],
}

/// Union of u64, [u8; 8] and [u16; 4]: byte order of the parts.
#[kernel]
pub fn unions_bytes(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut b = Bytes8 { word: at(input, i) };
    // SAFETY: all fields cover the same 8 bytes of plain data.
    unsafe {
        b.bytes[i % 8] = 0xAB;
        b.halves[(i + 1) % 4] ^= 0x1234;
    }
    let (w, h3) = unsafe { (b.word, b.halves[3]) };
    put(&mut out, idx, mix(w, h3 as u64));
}

#[derive(Clone, Copy)]
#[repr(C)]
struct Parts {
    lo: u32,
    hi: u16,
    tag: u8,
    flag: bool,
}

#[derive(Clone, Copy)]
#[repr(C)]
union Packet {
    parts: Parts,
    raw: u64,
}

/// #[repr(C)] union of a struct and a u64.
#[kernel]
pub fn unions_repr_c_struct(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let p = Packet { parts: Parts { lo: w as u32, hi: (w >> 32) as u16, tag: i as u8, flag: w & 1 == 1 } };
    // SAFETY: Parts has no padding, so every byte of raw is initialised.
    let raw = unsafe { p.raw };
    let q = Packet { raw: raw.rotate_left(16) & !0xFF00_0000_0000_0000 };
    let t = unsafe { q.parts.tag };
    put(&mut out, idx, mix(raw, t as u64));
}

#[inline(never)]
fn fill(slot: &mut MaybeUninit<u64>, v: u64) {
    slot.write(v.wrapping_mul(3));
}

/// MaybeUninit<u64>: write through a device function, assume_init.
#[kernel]
pub fn unions_maybe_uninit(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut slot = MaybeUninit::<u64>::uninit();
    fill(&mut slot, at(input, i));
    // SAFETY: `fill` initialised it.
    let v = unsafe { slot.assume_init() };
    put(&mut out, idx, v);
}

/// Array of MaybeUninit<u32> filled in a loop, then read back.
#[kernel]
pub fn unions_maybe_uninit_array(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut arr: [MaybeUninit<u32>; 8] = [MaybeUninit::uninit(); 8];
    for k in 0..8 {
        arr[k] = MaybeUninit::new(at(input, i + k) as u32);
    }
    let mut h = H0;
    for k in 0..8 {
        // SAFETY: every element was written above.
        h = mix(h, unsafe { arr[k].assume_init() } as u64);
    }
    put(&mut out, idx, h);
}

/// transmute f32 <-> u32, f64 -> [u32; 2], [u8; 4] -> u32, [u16; 4] -> u64.
#[kernel]
pub fn unions_transmute(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    // SAFETY: same-size plain data.
    let (u, halves, b4, h4): (u32, [u32; 2], u32, u64) = unsafe {
        let f: f32 = transmute(w as u32);
        (
            transmute::<f32, u32>(f),
            transmute::<f64, [u32; 2]>(f64::from_bits(w)),
            transmute::<[u8; 4], u32>([w as u8, 1, 2, (w >> 56) as u8]),
            transmute::<[u16; 4], u64>([1, w as u16, 3, (w >> 16) as u16]),
        )
    };
    let mut h = mix(H0, u as u64);
    h = mix(h, halves[0] as u64);
    h = mix(h, halves[1] as u64);
    h = mix(h, b4 as u64);
    h = mix(h, h4);
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
#[repr(u8)]
#[allow(dead_code)] // made by transmute only
enum Color {
    Red = 1,
    Green = 2,
    Blue = 4,
}

/// transmute u8 -> #[repr(u8)] enum (valid values only) and char <-> u32.
#[kernel]
pub fn unions_transmute_enum_char(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let code: u8 = [1u8, 2, 4][i % 3];
    // SAFETY: code is a valid Color discriminant, 'A'+k a valid char.
    let c: Color = unsafe { transmute(code) };
    let ch: char = unsafe { transmute(0x41u32 + (w % 26) as u32) };
    let v = match c {
        Color::Red => 10,
        Color::Green => 20,
        Color::Blue => 30,
    };
    put(&mut out, idx, mix(mix(H0, v), transmute_back(ch) as u64));
}

#[inline(always)]
fn transmute_back(c: char) -> u32 {
    // SAFETY: every char is a valid u32.
    unsafe { transmute(c) }
}
