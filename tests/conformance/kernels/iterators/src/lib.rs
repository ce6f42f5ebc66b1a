//! Conformance group `iterators`: iterator adapters that rustc inlines into
//! loops: iter, iter_mut, enumerate, zip, map, filter, sum, fold, rev,
//! step_by, chain, take, skip, windows, position, min/max, any/all, ranges.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// `for x in slice.iter()` and `for x in &array`.
#[kernel]
pub fn iterators_iter(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for x in input[i..i + 12].iter() {
        h = mix(h, *x);
    }
    let arr = [1u16, 2, 3, (i as u16) << 3];
    for x in &arr {
        h = mix(h, *x as u64);
    }
    put(&mut out, idx, h);
}

/// enumerate and zip over two slices.
#[kernel]
pub fn iterators_enumerate_zip(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = &input[i..i + 10];
    let b = &input[i + 500..i + 507];
    let mut h = H0;
    for (k, x) in a.iter().enumerate() {
        h = mix(h, x.rotate_left(k as u32));
    }
    for (x, y) in a.iter().zip(b.iter()) {
        h = mix(h, x ^ y);
    }
    put(&mut out, idx, h);
}

/// map + sum, filter + count, fold.
#[kernel]
pub fn iterators_map_sum_fold(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 16];
    let sum: u64 = s.iter().map(|x| x >> 40).sum();
    let cnt = s.iter().filter(|x| **x & 1 == 1).count();
    let fold = s.iter().fold(H0, |h, x| mix(h, *x));
    let prod: u64 = s.iter().map(|x| (x & 7) + 1).product();
    put(&mut out, idx, mix(mix(mix(sum, cnt as u64), fold), prod));
}

/// rev, step_by on ranges and slices.
#[kernel]
pub fn iterators_rev_step_by(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for x in input[i..i + 8].iter().rev() {
        h = mix(h, *x);
    }
    for k in (0..40).step_by(i % 7 + 1) {
        h = mix(h, k as u64);
    }
    for k in (3..=20usize).rev().step_by(3) {
        h = mix(h, at(input, i + k));
    }
    put(&mut out, idx, h);
}

/// Range loops: exclusive, inclusive, empty, reversed, with u8 / i32 / u64.
#[kernel]
pub fn iterators_ranges(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let n = (at(input, i) % 20) as u8;
    let mut h = H0;
    for k in 0..n {
        h = mix(h, k as u64);
    }
    for k in -3i32..=(n as i32 - 10) {
        h = mix(h, k as u64);
    }
    for k in (250u8..=255).rev() {
        h = mix(h, k as u64);
    }
    let s: u64 = (1..=(i as u64)).sum();
    put(&mut out, idx, mix(h, s));
}

/// chain, take, skip, take_while, skip_while.
#[kernel]
pub fn iterators_chain_take_skip(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = &input[i..i + 6];
    let b = &input[i + 100..i + 104];
    let mut h = H0;
    for x in a.iter().chain(b.iter()).skip(2).take(i % 9) {
        h = mix(h, *x);
    }
    let lim = at(input, i + 7);
    let tw = a.iter().take_while(|x| **x < lim).count();
    let sw = b.iter().skip_while(|x| **x > lim).count();
    put(&mut out, idx, mix(mix(h, tw as u64), sw as u64));
}

/// windows(2) and chunks(3) over a slice.
#[kernel]
pub fn iterators_windows_chunks(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 11];
    let mut h = H0;
    for w in s.windows(2) {
        h = mix(h, w[0].wrapping_sub(w[1]));
    }
    for c in s.chunks(3) {
        h = mix(h, c.len() as u64 ^ c[0]);
    }
    put(&mut out, idx, h);
}

/// position, find, any, all, min, max, max_by_key.
#[kernel]
pub fn iterators_search(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 12];
    let lim = at(input, i + 40);
    let mut h = mix(H0, s.iter().position(|x| *x > lim).map_or(99, |p| p as u64));
    h = mix(h, s.iter().find(|x| **x & 3 == 0).copied().unwrap_or(5));
    h = mix(h, s.iter().any(|x| *x == lim) as u64);
    h = mix(h, s.iter().all(|x| *x != 0) as u64);
    h = mix(h, *s.iter().min().unwrap());
    h = mix(h, *s.iter().max().unwrap());
    h = mix(h, *s.iter().max_by_key(|x| **x as u8).unwrap());
    put(&mut out, idx, h);
}

/// iter_mut updating a local array; for_each.
#[kernel]
pub fn iterators_iter_mut(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 8];
    for (k, x) in a.iter_mut().enumerate() {
        *x = at(input, i + k) as u32;
    }
    for x in a.iter_mut() {
        *x = x.rotate_left(5) ^ 0xABCD;
    }
    let mut h = H0;
    a.iter().for_each(|x| h = mix(h, *x as u64));
    put(&mut out, idx, h);
}

/// An array iterated by value (`for x in [a, b, c]`, array::IntoIter).
#[kernel]
pub fn iterators_array_into_iter(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut h = H0;
    for x in [at(input, i), at(input, i + 1), i as u64] {
        h = mix(h, x);
    }
    put(&mut out, idx, h);
}

/// Iterator over f32 values: map + sum of floats, then min/max by fold.
#[kernel]
pub fn iterators_float_sum(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 8];
    let total: f32 = s.iter().map(|w| (*w >> 41) as f32 * 0.125).sum();
    let big = s.iter().map(|w| f64_of(*w >> 2)).fold(f64::MIN, |a, b| if b > a { b } else { a });
    put(&mut out, idx, mix(canon32(total), canon64(big)));
}

/// A hand-written Iterator impl consumed by a for loop.
#[kernel]
pub fn iterators_custom_iterator(input: &[u64], mut out: DisjointSlice<u64>) {
    struct Collatz {
        n: u64,
        steps: u32,
    }
    impl Iterator for Collatz {
        type Item = u64;
        fn next(&mut self) -> Option<u64> {
            if self.n <= 1 || self.steps >= 200 {
                return None;
            }
            self.steps += 1;
            self.n = if self.n % 2 == 0 { self.n / 2 } else { 3 * self.n + 1 };
            Some(self.n)
        }
    }
    let (idx, i) = tid();
    let mut h = H0;
    for v in (Collatz { n: at(input, i) % 10_000 + 1, steps: 0 }) {
        h = mix(h, v);
    }
    put(&mut out, idx, h);
}

/// Nested loops with break / continue and labels over iterators.
#[kernel]
pub fn iterators_nested_labels(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let s = &input[i..i + 10];
    let mut h = H0;
    'outer: for (a, x) in s.iter().enumerate() {
        for (b, y) in s.iter().enumerate().skip(a + 1) {
            if (x ^ y) & 0xF == 0 {
                h = mix(h, (a * 16 + b) as u64);
                continue 'outer;
            }
            if b > 7 && *x > *y {
                break 'outer;
            }
        }
        h = mix(h, *x);
    }
    put(&mut out, idx, h);
}
