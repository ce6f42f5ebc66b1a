//! Conformance group `calls`: #[inline(never)] device functions (`.func`
//! calls) with every kind of argument and result, recursion, mutual
//! recursion, generic functions (monomorphised), methods, trait static
//! dispatch.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

#[inline(never)]
fn scalars(a: u8, b: i16, c: u32, d: i64, e: bool, f: char) -> u64 {
    let mut h = mix(H0, a as u64);
    h = mix(h, b as u64);
    h = mix(h, c as u64);
    h = mix(h, d as u64);
    h = mix(h, e as u64);
    mix(h, f as u64)
}

/// A device function taking scalars of every small type.
#[kernel]
pub fn calls_scalar_args(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let ch = char::from_u32((w >> 40) as u32 % 0xD000).unwrap_or('!');
    put(&mut out, idx, scalars(w as u8, (w >> 8) as i16, (w >> 16) as u32, w as i64, w & 1 == 0, ch));
}

#[inline(never)]
fn floats(a: f32, b: f64, c: f32) -> (f64, f32) {
    (a as f64 * b, c / a)
}

/// Float arguments and a tuple (f64, f32) result.
#[kernel]
pub fn calls_float_args(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let (x, y) = floats(f32_of(at(input, i)), f64_of(at(input, i + 1)), f32_of(at(input, i + 2)));
    put(&mut out, idx, mix(canon64(x), canon32(y)));
}

#[inline(never)]
fn divmod(a: u64, b: u64) -> (u64, u64) {
    (a / b, a % b)
}

#[inline(never)]
fn triple(a: u32) -> (u8, u32, u16) {
    (a as u8, a.rotate_left(9), (a >> 7) as u16)
}

/// Tuple results (scalar pair and a memory-returned tuple).
#[kernel]
pub fn calls_tuple_results(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let (q, r) = divmod(w, at(input, i + 1) | 1);
    let (a, b, c) = triple(w as u32);
    put(&mut out, idx, mix(mix(mix(mix(q, r), a as u64), b as u64), c as u64));
}

#[inline(never)]
fn factorial(n: u64) -> u64 {
    if n <= 1 {
        1
    } else {
        n.wrapping_mul(factorial(n - 1))
    }
}

/// Direct recursion (factorial, depth up to 30).
#[kernel]
pub fn calls_recursion_factorial(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    put(&mut out, idx, factorial(at(input, i) % 31));
}

#[inline(never)]
fn fib(n: u32) -> u64 {
    if n < 2 {
        n as u64
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

/// Tree recursion (naive Fibonacci, n < 16).
#[kernel]
pub fn calls_recursion_fib(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    put(&mut out, idx, fib((at(input, i) % 16) as u32));
}

#[inline(never)]
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Tail recursion with a data-dependent depth (Euclid's gcd).
#[kernel]
pub fn calls_recursion_gcd(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) >> (i % 40);
    let b = at(input, i + 1) >> (i % 23);
    put(&mut out, idx, gcd(a, b));
}

#[inline(never)]
fn is_even(n: u32) -> bool {
    if n == 0 {
        true
    } else {
        is_odd(n - 1)
    }
}

#[inline(never)]
fn is_odd(n: u32) -> bool {
    if n == 0 {
        false
    } else {
        is_even(n - 1)
    }
}

/// Mutual recursion between two device functions.
#[kernel]
pub fn calls_mutual_recursion(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let n = (at(input, i) % 64) as u32;
    put(&mut out, idx, (is_even(n) as u64) << 8 | n as u64);
}

#[inline(never)]
fn accumulate(acc: &mut u64, xs: &[u64], k: &mut usize) {
    while *k < xs.len() && xs[*k] & 1 == 0 {
        *acc = mix(*acc, xs[*k]);
        *k += 1;
    }
}

/// `&mut` and slice parameters written by the callee.
#[kernel]
pub fn calls_out_params(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut acc = H0;
    let mut k = 0usize;
    accumulate(&mut acc, &input[i..i + 20], &mut k);
    put(&mut out, idx, mix(acc, k as u64));
}

#[inline(never)]
fn rotate_mix<T: Copy + Into<u64>>(a: T, b: T) -> u64 {
    let x: u64 = a.into();
    let y: u64 = b.into();
    mix(x.rotate_left(11), y)
}

/// A generic #[inline(never)] function instantiated for u8, u16, u32.
#[kernel]
pub fn calls_generic_instances(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let h = rotate_mix(w as u8, (w >> 8) as u8) ^ rotate_mix(w as u16, 7u16) ^ rotate_mix(w as u32, (w >> 32) as u32);
    put(&mut out, idx, h);
}

trait Hasher {
    fn step(&self, h: u64, v: u64) -> u64;
}

struct Fnv;
struct Rot(u32);

impl Hasher for Fnv {
    #[inline(never)]
    fn step(&self, h: u64, v: u64) -> u64 {
        mix(h, v)
    }
}

impl Hasher for Rot {
    #[inline(never)]
    fn step(&self, h: u64, v: u64) -> u64 {
        h.rotate_left(self.0) ^ v
    }
}

#[inline(always)]
fn run<H: Hasher>(hs: &H, xs: &[u64]) -> u64 {
    let mut h = H0;
    for x in xs {
        h = hs.step(h, *x);
    }
    h
}

/// Trait methods through generics (static dispatch), non-inlined impls.
#[kernel]
pub fn calls_trait_static_dispatch(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let xs = &input[i..i + 5];
    put(&mut out, idx, mix(run(&Fnv, xs), run(&Rot(i as u32 % 64), xs)));
}

#[inline(never)]
fn wide(a: u128, b: i128) -> u128 {
    a.wrapping_mul(b as u128) ^ (a >> 3)
}

#[inline(never)]
fn unit_result(x: &mut [u64; 2]) {
    x.swap(0, 1);
}

/// u128 / i128 parameters and results, and a function returning ().
#[kernel]
pub fn calls_wide_and_unit(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = (at(input, i) as u128) << 64 | at(input, i + 1) as u128;
    let r = wide(a, -(at(input, i + 2) as i128));
    let mut pair = [r as u64, (r >> 64) as u64];
    unit_result(&mut pair);
    put(&mut out, idx, mix(pair[0], pair[1]));
}

#[inline(never)]
fn many_args(a: u64, b: u64, c: u64, d: u64, e: u64, f: u64, g: u64, h: u64, k: u64, l: u64, m: u64, n: u64) -> u64 {
    mix(mix(mix(mix(mix(mix(mix(mix(mix(mix(mix(a, b), c), d), e), f), g), h), k), l), m), n)
}

/// A call with twelve arguments.
#[kernel]
pub fn calls_many_args(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let v = |k: usize| at(input, i + k);
    put(&mut out, idx, many_args(v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8), v(9), v(10), v(11)));
}

#[inline(never)]
fn ackermann(m: u64, n: u64) -> u64 {
    if m == 0 {
        n + 1
    } else if n == 0 {
        ackermann(m - 1, 1)
    } else {
        ackermann(m - 1, ackermann(m, n - 1))
    }
}

/// Deep nested recursion (Ackermann(2, n) for n < 8).
#[kernel]
pub fn calls_ackermann(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    put(&mut out, idx, ackermann(2, at(input, i) % 8));
}

#[inline(never)]
fn checked_sum(xs: &[u64]) -> Option<u64> {
    let mut s: u64 = 0;
    for x in xs {
        s = s.checked_add(*x >> 2)?;
    }
    Some(s)
}

/// A device function returning Option<u64> with early return (`?`).
#[kernel]
pub fn calls_option_result(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    put(&mut out, idx, checked_sum(&input[i..i + 6]).map_or(u64::MAX, |s| s ^ 1));
}

#[inline(never)]
fn gen_sum_xor<T: Copy + core::ops::Add<Output = T> + core::ops::BitXor<Output = T> + PartialOrd + Into<u64>>(
    a: T,
    b: T,
    k: T,
) -> u64 {
    let s = a + b;
    let m = if s > k { s ^ k } else { k.clone() };
    m.into()
}

#[inline(never)]
fn gen_pow<T: Copy + core::ops::Mul<Output = T>>(x: T, n: u32, one: T) -> T {
    if n == 0 {
        one
    } else {
        x * gen_pow(x, n - 1, one)
    }
}

#[inline(never)]
fn gen_float<F: Copy + core::ops::Mul<Output = F> + core::ops::Sub<Output = F> + core::ops::Neg<Output = F> + PartialOrd>(
    a: F,
    b: F,
) -> F {
    let d = a * b - b;
    if d < a {
        -d
    } else {
        d
    }
}

#[inline(never)]
fn gen_pair<A: Copy + Into<u64>, B: Copy + Into<u64> + PartialEq>(a: A, b: B, c: B) -> u64 {
    let x: u64 = a.into();
    if b == c {
        x
    } else {
        x ^ b.into()
    }
}

/// Generic #[inline(never)] functions made monomorphic by mir-export:
/// operators, comparisons, Into, clone, recursion, two type parameters,
/// float instances.
#[kernel]
pub fn calls_generic_ops(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = mix(H0, gen_sum_xor(w as u8, (w >> 8) as u8, (w >> 16) as u8));
    h = mix(h, gen_sum_xor(w as u32, (w >> 32) as u32, 0x8000_0000u32));
    h = mix(h, gen_sum_xor(w, w >> 3, w >> 1));
    h = mix(h, gen_pow(w as u32 | 1, (i % 7) as u32, 1u32) as u64);
    h = mix(h, gen_pow(w as u64, (i % 5) as u32, 1u64));
    h = mix(h, canon64(gen_float(w as f64 * 1e-10, (w >> 20) as f64, )));
    h = mix(h, canon32(gen_float((w >> 40) as f32 * 0.5, -(w as u16 as f32))));
    h = mix(h, gen_pair(w as u16, (w >> 16) as u8, (w >> 24) as u8));
    h = mix(h, gen_pair(w as u8, (w as u32) & 3, 1u32));
    put(&mut out, idx, h);
}

#[inline(never)]
fn middle(s: &[u64], k: usize) -> &[u64] {
    let k = k.min(s.len() / 2);
    &s[k..s.len() - k]
}

#[inline(never)]
fn pick_str(k: usize) -> &'static str {
    ["kernel", "", "calls", "fat pointer results"][k % 4]
}

/// Fat-pointer results of `.func` calls (`&[u64]`, `&str`: returned
/// through the callee's return pointer, on both sides of the call).
#[kernel]
pub fn calls_fat_results(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let m = middle(input, i % 7);
    let mut h = mix(H0, m.len() as u64);
    h = mix(h, m.first().copied().unwrap_or(7));
    h = mix(h, m.last().copied().unwrap_or(9));
    let t = pick_str(i);
    h = mix(h, t.len() as u64);
    h = mix(h, t.bytes().next().unwrap_or(0) as u64);
    put(&mut out, idx, h);
}
