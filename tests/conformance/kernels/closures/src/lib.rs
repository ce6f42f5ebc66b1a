//! Conformance group `closures`: closures capturing by reference and by
//! move, Fn / FnMut / FnOnce through generic (inlined) helpers, closures
//! returned from functions, fn items as values.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

#[inline(always)]
fn apply<F: Fn(u64) -> u64>(f: F, x: u64) -> u64 {
    f(f(x))
}

#[inline(always)]
fn apply_mut<F: FnMut() -> u64>(mut f: F, n: usize) -> u64 {
    let mut h = H0;
    for _ in 0..n {
        h = mix(h, f());
    }
    h
}

#[inline(always)]
fn apply_once<F: FnOnce() -> u64>(f: F) -> u64 {
    f()
}

/// Fn closure capturing locals by shared reference.
#[kernel]
pub fn closures_fn_by_ref(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let k = at(input, i);
    let m = at(input, i + 1) | 1;
    let f = |x: u64| x.wrapping_mul(m) ^ k;
    put(&mut out, idx, apply(f, i as u64) ^ f(3));
}

/// `move` closure (captures copied into the closure value).
#[kernel]
pub fn closures_move(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut k = at(input, i);
    let f = move |x: u64| x.rotate_left(7) ^ k;
    k = 0; // the closure keeps its own copy
    put(&mut out, idx, mix(apply(f, i as u64), k));
}

/// FnMut closure mutating a captured counter (capture by unique borrow).
#[kernel]
pub fn closures_fn_mut(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut state = at(input, i);
    let mut calls = 0u32;
    let h = apply_mut(
        || {
            calls += 1;
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 33
        },
        i % 7 + 1,
    );
    put(&mut out, idx, mix(mix(h, state), calls as u64));
}

struct Token {
    v: u64,
}

impl Token {
    #[inline(always)]
    fn consume(self) -> u64 {
        self.v.wrapping_mul(31)
    }
}

/// FnOnce closure that moves a non-Copy value out of its capture.
#[kernel]
pub fn closures_fn_once(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let t = Token { v: at(input, i) };
    let extra = at(input, i + 1);
    let f = move || t.consume() ^ extra;
    put(&mut out, idx, apply_once(f));
}

#[inline(always)]
fn make_adder(n: u64) -> impl Fn(u64) -> u64 {
    move |x| x.wrapping_add(n)
}

#[inline(always)]
fn compose<A: Fn(u64) -> u64, B: Fn(u64) -> u64>(a: A, b: B) -> impl Fn(u64) -> u64 {
    move |x| b(a(x))
}

/// Closures returned from functions (impl Fn) and composed.
#[kernel]
pub fn closures_returned(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let add = make_adder(at(input, i));
    let times = |x: u64| x.wrapping_mul(3);
    let both = compose(add, times);
    put(&mut out, idx, both(i as u64));
}

/// A closure capturing many values of different types (big capture struct).
#[kernel]
pub fn closures_many_captures(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = at(input, i) as u8;
    let b = at(input, i + 1) as i32;
    let c = f32_of(at(input, i + 2));
    let d = at(input, i + 3) & 1 == 0;
    let e = [at(input, i + 4), at(input, i + 5), at(input, i + 6)];
    let f = |k: usize| -> u64 {
        let base = if d { a as u64 } else { b as u64 };
        mix(mix(base, canon32(c * k as f32)), e[k % 3])
    };
    put(&mut out, idx, f(i) ^ f(i + 1));
}

#[inline(always)]
fn twice(x: u64) -> u64 {
    x.wrapping_mul(2)
}

#[inline(always)]
fn square(x: u64) -> u64 {
    x.wrapping_mul(x)
}

/// Function items passed as `F: Fn` values (zero-sized fn item types).
#[kernel]
pub fn closures_fn_items(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let r = if w & 1 == 0 { apply(twice, w) } else { apply(square, w) };
    put(&mut out, idx, mix(r, core::mem::size_of_val(&twice) as u64));
}

/// A closure stored in a struct field and called through it.
#[kernel]
pub fn closures_in_struct(input: &[u64], mut out: DisjointSlice<u64>) {
    struct Holder<F: Fn(u32) -> u32> {
        f: F,
        base: u32,
    }
    let (idx, i) = tid();
    let k = at(input, i) as u32;
    let h = Holder { f: move |x| x ^ k, base: i as u32 };
    put(&mut out, idx, (h.f)(h.base) as u64);
}

/// Closures used with Option combinators (map, and_then, filter, unwrap_or_else).
#[kernel]
pub fn closures_option_combinators(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let lim = at(input, i + 1) >> 1;
    let o = Some(w)
        .filter(|x| *x > lim)
        .map(|x| x >> 3)
        .and_then(|x| if x & 1 == 0 { Some(x ^ lim) } else { None })
        .unwrap_or_else(|| lim.wrapping_add(i as u64));
    put(&mut out, idx, o);
}

/// Recursive use of a closure through a generic helper called in a loop.
#[kernel]
pub fn closures_fold_like(input: &[u64], mut out: DisjointSlice<u64>) {
    #[inline(always)]
    fn fold<F: Fn(u64, u64) -> u64>(xs: &[u64], init: u64, f: F) -> u64 {
        let mut acc = init;
        let mut k = 0;
        while k < xs.len() {
            acc = f(acc, xs[k]);
            k += 1;
        }
        acc
    }
    let (idx, i) = tid();
    let salt = at(input, i);
    let s = fold(&input[i..i + 16], H0, |a, x| mix(a, x ^ salt));
    put(&mut out, idx, s);
}

/// A struct of the crate's, generic over what it holds.
struct Tagged<F> {
    tag: u8,
    f: F,
    n: u16,
}

/// Byte offset of `field` in the value at `base` (a pointer difference,
/// never an absolute address).
#[inline(always)]
fn offset_in<T, U>(base: &T, field: &U) -> u64 {
    (field as *const U as usize).wrapping_sub(base as *const T as usize) as u64
}

/// Calls the closure in `o` when there is one: reads the `Option`'s
/// discriminant through its layout (a niche in the captured reference).
#[inline(never)]
fn call_some<F: Fn(u64) -> u64>(o: &Option<F>, x: u64) -> u64 {
    match o {
        Some(f) => f(x),
        None => x ^ 0x55,
    }
}

/// Types that hold a closure capturing references, laid out with it
/// (size, field offsets, the references' niche): `Option<{closure}>`, a
/// tuple and a generic struct of the crate's holding one, an array of
/// `Option`s of them; sizes by `size_of_val`, offsets by pointer
/// differences, the `Option`s read in a function of their own.
#[kernel]
pub fn closures_in_containers(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let k = at(input, i);
    let m = at(input, i + 1) | 1;
    let f = |x: u64| x.wrapping_mul(m) ^ k;
    let opt = if k & 3 == 0 { None } else { Some(f) };
    let pair = (k as u8, f, (m >> 7) as u16);
    let arr = [Some(f), None, opt];
    let t = Tagged { tag: m as u8, f, n: k as u16 };
    let mut h = H0;
    h = mix(h, core::mem::size_of_val(&opt) as u64);
    h = mix(h, core::mem::size_of_val(&pair) as u64);
    h = mix(h, core::mem::size_of_val(&arr) as u64);
    h = mix(h, core::mem::size_of_val(&t) as u64);
    h = mix(h, core::mem::align_of_val(&t) as u64);
    h = mix(h, offset_in(&pair, &pair.0) ^ offset_in(&pair, &pair.1) << 8 ^ offset_in(&pair, &pair.2) << 16);
    h = mix(h, offset_in(&t, &t.tag) ^ offset_in(&t, &t.f) << 8 ^ offset_in(&t, &t.n) << 16);
    h = mix(h, offset_in(&arr, &arr[2]));
    h = mix(h, call_some(&opt, i as u64));
    for o in &arr {
        h = mix(h, call_some(o, k));
    }
    h = mix(h, (pair.1)(pair.0 as u64 + pair.2 as u64) ^ (t.f)(t.tag as u64 ^ t.n as u64));
    put(&mut out, idx, h);
}

#[inline(never)]
fn apply_once_to<F: FnOnce(u64) -> u64>(f: F, x: u64) -> u64 {
    f(x)
}

/// A closure inferred `Fn` (called first by reference) then passed by
/// value where `FnOnce` is expected: `call_once` takes the closure by
/// value, its body a reference to it.
#[kernel]
pub fn closures_fn_called_once(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let k = at(input, i);
    let r = &k;
    let c = |x: u64| x ^ *r;
    let a = c(1);
    put(&mut out, idx, mix(apply_once_to(c, 5), a));
}
