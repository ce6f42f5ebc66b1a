//! Conformance group `pointers`: raw pointers (add, offset, sub,
//! wrapping_add, offset_from, read, write, null checks, casts),
//! copy_nonoverlapping / copy, swap / replace / take, references to
//! references, pointer-to-integer differences.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use core::ptr;

/// ptr.add / ptr.offset (negative) / ptr.sub / read on the input slice.
#[kernel]
pub fn pointers_offset_read(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let base = input.as_ptr();
    // SAFETY: every offset stays inside `input` (1024 words).
    let (a, b, c) = unsafe {
        let p = base.add(i + 100);
        (p.read(), *p.offset(-(i as isize % 50)), p.sub(3).read())
    };
    put(&mut out, idx, mix(mix(a, b), c));
}

/// Raw *mut writes into a local array, wrapping_add / wrapping_sub.
#[kernel]
pub fn pointers_write_local(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 8];
    let p = a.as_mut_ptr();
    for k in 0..8 {
        // SAFETY: k < 8.
        unsafe { p.wrapping_add(k).write(at(input, i + k) as u32) };
    }
    // SAFETY: index 7 - 2 = 5 is in bounds.
    let v = unsafe { *p.wrapping_add(7).wrapping_sub(2) };
    let mut h = mix(H0, v as u64);
    for k in 0..8 {
        h = mix(h, a[k] as u64);
    }
    put(&mut out, idx, h);
}

/// offset_from and pointer-to-integer differences (never absolute addresses).
#[kernel]
pub fn pointers_offset_from(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 40];
    let p = &s[i % 40] as *const u64;
    let q = &s[(i * 7) % 40] as *const u64;
    // SAFETY: both point into `s`.
    let d = unsafe { p.offset_from(q) };
    let bytes = (p as usize).wrapping_sub(q as usize);
    put(&mut out, idx, mix(mix(H0, d as u64), bytes as u64));
}

/// copy_nonoverlapping and copy (overlapping, memmove) between buffers.
#[kernel]
pub fn pointers_copy(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u64; 12];
    let n = i % 8 + 1;
    // SAFETY: n <= 8 words from input[i..] into a[0..n]; then an
    // overlapping move inside a.
    unsafe {
        ptr::copy_nonoverlapping(input.as_ptr().add(i), a.as_mut_ptr(), n);
        ptr::copy(a.as_ptr(), a.as_mut_ptr().add(2), 9);
    }
    let mut h = H0;
    for k in 0..12 {
        h = mix(h, a[k]);
    }
    put(&mut out, idx, h);
}

/// mem::swap, mem::replace, mem::take, ptr::swap on locals.
#[kernel]
pub fn pointers_swap_replace(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = at(input, i);
    let mut b = at(input, i + 1);
    core::mem::swap(&mut a, &mut b);
    let old = core::mem::replace(&mut a, 5);
    let mut c = [b, 7, 9];
    let t = core::mem::take(&mut c[1]);
    let mut x = (1u8, 2u64);
    let mut y = (3u8, old);
    // SAFETY: two distinct locals.
    unsafe { ptr::swap(&mut x, &mut y) };
    let h = mix(mix(mix(mix(mix(H0, a), b), old ^ t), c[1]), x.1 ^ y.0 as u64);
    put(&mut out, idx, h);
}

/// Null pointers: is_null, ptr::null, Option<NonNull>, as_ref.
#[kernel]
pub fn pointers_null(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let p: *const u64 = if i % 3 == 0 { ptr::null() } else { &input[i] };
    let nn = ptr::NonNull::new(p as *mut u64);
    // SAFETY: p is null or points into input.
    let v = unsafe { p.as_ref() }.copied().unwrap_or(0xBAD);
    put(&mut out, idx, mix(mix(v, p.is_null() as u64), nn.is_some() as u64));
}

/// Pointer casts: *const u64 → *const u32 / *const u8 (reading the parts).
#[kernel]
pub fn pointers_cast_parts(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let p = &input[i] as *const u64;
    // SAFETY: reading parts of one u64 through narrower aligned pointers.
    let (lo, hi, b3) = unsafe { (*(p as *const u32), *(p as *const u32).add(1), *(p as *const u8).add(3)) };
    put(&mut out, idx, mix(mix(lo as u64, hi as u64), b3 as u64));
}

/// References to references, reborrows, &mut through a chain.
#[kernel]
pub fn pointers_ref_ref(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = at(input, i);
    let r = &x;
    let rr = &r;
    let rrr: &&&u64 = &rr;
    let mut y = x ^ 1;
    {
        let m = &mut y;
        let mm = &mut *m;
        *mm = mm.wrapping_mul(3);
    }
    put(&mut out, idx, mix(***rrr, y));
}

#[inline(never)]
fn bump_all(p: *mut u16, n: usize, k: u16) {
    for j in 0..n {
        // SAFETY: the caller passes n valid elements.
        unsafe { *p.add(j) = (*p.add(j)).wrapping_add(k) };
    }
}

/// A raw pointer passed to a device function that writes through it.
#[kernel]
pub fn pointers_raw_arg(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u16; 6];
    for k in 0..6 {
        a[k] = at(input, i + k) as u16;
    }
    bump_all(a.as_mut_ptr().wrapping_add(1), 4, i as u16);
    let mut h = H0;
    for k in 0..6 {
        h = mix(h, a[k] as u64);
    }
    put(&mut out, idx, h);
}

/// read_unaligned / write_unaligned on a byte buffer.
#[kernel]
pub fn pointers_unaligned(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut buf = [0u8; 16];
    let off = i % 8 + 1;
    // SAFETY: off + 8 <= 16 bytes.
    let v = unsafe {
        ptr::write_unaligned(buf.as_mut_ptr().add(off) as *mut u64, at(input, i));
        ptr::read_unaligned(buf.as_ptr().add(off - 1) as *const u64)
    };
    put(&mut out, idx, v);
}

/// Slices from raw parts (core::slice::from_raw_parts) and as_ptr_range.
#[kernel]
pub fn pointers_from_raw_parts(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let n = i % 10;
    // SAFETY: i + n <= 137 < 1024.
    let s = unsafe { core::slice::from_raw_parts(input.as_ptr().add(i), n) };
    let range = s.as_ptr_range();
    let mut h = mix(H0, s.len() as u64);
    for x in s {
        h = mix(h, *x);
    }
    h = mix(h, (range.end as usize - range.start as usize) as u64);
    put(&mut out, idx, h);
}
