//! Conformance group `library`: core functions that rustc's MIR inliner
//! leaves as calls (sorting, selection, Unicode tables, long adapter
//! chains), which mir-export exports from core's own MIR, built from the
//! library sources of the rustc in use (docs/DESIGN.md, "Library bodies").
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// `sort_unstable` of a 24-element array of u32.
#[kernel]
pub fn library_sort_unstable(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 24];
    for (k, x) in a.iter_mut().enumerate() {
        *x = (at(input, i + k) >> 7) as u32 % 1000;
    }
    a.sort_unstable();
    let mut h = H0;
    for x in a {
        h = mix(h, x as u64);
    }
    put(&mut out, idx, h);
}

/// `select_nth_unstable` (the median of 15) and `sort_unstable_by_key`.
#[kernel]
pub fn library_select_nth(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0i64; 15];
    for (k, x) in a.iter_mut().enumerate() {
        *x = at(input, 3 * i + k) as i64 >> 20;
    }
    let (_, m, _) = a.select_nth_unstable(7);
    let mut h = mix(H0, *m as u64);
    let mut b = [0u16; 9];
    for (k, x) in b.iter_mut().enumerate() {
        *x = at(input, i + 40 + k) as u16;
    }
    b.sort_unstable_by_key(|x| x.rotate_left(3));
    for x in b {
        h = mix(h, x as u64);
    }
    put(&mut out, idx, h);
}

/// `sort_unstable` of 80 u32 and of 48 u64: longer than the small sort's
/// limit, so ipnsort's quicksort runs, recursing into one side (its
/// heapsort fallback is compiled too), the second with many duplicates
/// (values mod 16) for its equal-pivot partitions.
#[kernel]
pub fn library_sort_large(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 80];
    for (k, x) in a.iter_mut().enumerate() {
        *x = (at(input, i + k) >> 11) as u32;
    }
    a.sort_unstable();
    let mut h = H0;
    for w in a.windows(2) {
        h = mix(h, (w[0] <= w[1]) as u64);
    }
    for x in a {
        h = mix(h, x as u64);
    }
    let mut b = [0u64; 48];
    for (k, x) in b.iter_mut().enumerate() {
        *x = at(input, 2 * i + k) % 16;
    }
    b.sort_unstable();
    for x in b {
        h = mix(h, x);
    }
    put(&mut out, idx, h);
}

/// `iter().min_by_key`, `max_by` with `total_cmp`, `f32::total_cmp`.
#[kernel]
pub fn library_min_max_by(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 20];
    let m = s.iter().min_by_key(|x| **x % 1009).copied().unwrap_or(0);
    let mut f = [0f32; 12];
    for (k, x) in f.iter_mut().enumerate() {
        *x = f32::from_bits(at(input, i + 100 + k) as u32);
    }
    let mx = f.iter().copied().max_by(|a, b| a.total_cmp(b)).unwrap_or(0.0);
    let ord = f[0].total_cmp(&f[1]) as i8;
    put(&mut out, idx, mix(mix(m, mx.to_bits() as u64), ord as u64));
}

/// char's Unicode methods (tables in core) and ASCII case mapping.
#[kernel]
pub fn library_char_unicode(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for k in 0..8 {
        let w = at(input, i + k);
        let c = char::from_u32((w as u32) % 0x3_0000).unwrap_or('?');
        let bits = (c.is_alphanumeric() as u64)
            | (c.is_alphabetic() as u64) << 1
            | (c.is_numeric() as u64) << 2
            | (c.is_lowercase() as u64) << 3
            | (c.is_uppercase() as u64) << 4
            | (c.is_whitespace() as u64) << 5
            | (c.is_control() as u64) << 6;
        let a = ((w >> 32) as u8 as char).to_ascii_uppercase();
        h = mix(mix(h, bits), a as u64);
    }
    put(&mut out, idx, h);
}

/// Parsing digits by radix, like `u32::from_str_radix`, with `char::to_digit`.
#[kernel]
pub fn library_parse_radix(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let digits = b"0123456789abcdefXYZ";
    let mut buf = [0u8; 10];
    for (k, b) in buf.iter_mut().enumerate() {
        *b = digits[((w >> (5 * k)) % 19) as usize];
    }
    let mut v: u32 = 0;
    let mut ok = 1u64;
    for b in buf {
        match (b as char).to_digit(16) {
            Some(d) => v = v.wrapping_mul(16).wrapping_add(d),
            None => ok = ok.wrapping_mul(3),
        }
    }
    put(&mut out, idx, mix(v as u64, ok));
}

/// `core::array::from_fn` and `binary_search_by` on a sorted array.
#[kernel]
pub fn library_from_fn_search(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let base = at(input, i) % 1000;
    let a: [u64; 32] = core::array::from_fn(|k| base + 3 * k as u64);
    let key = at(input, i + 1) % 1200;
    let r = match a.binary_search_by(|x| x.cmp(&key)) {
        Ok(p) => p as u64,
        Err(p) => 1000 + p as u64,
    };
    put(&mut out, idx, mix(mix(H0, a[31]), r));
}

/// `rev().skip_while()` and a long chain of adapters.
#[kernel]
pub fn library_adapter_chains(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 24];
    let mut h = H0;
    for x in s.iter().rev().skip_while(|x| **x & 3 != 0) {
        h = mix(h, *x);
    }
    let c: u64 = s
        .iter()
        .enumerate()
        .filter(|(k, _)| k % 3 != 1)
        .map(|(k, x)| x.rotate_left(k as u32))
        .zip(s.iter().skip(2).step_by(2))
        .map(|(a, b)| a ^ b)
        .take_while(|v| v & 0xff != 0x17)
        .fold(0u64, |acc, v| acc.wrapping_add(v >> 3));
    put(&mut out, idx, mix(h, c));
}
