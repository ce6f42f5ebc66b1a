//! Conformance group `indirect`: indirect calls. Function pointers
//! (`fn(A) -> R` values from fn items, trait methods, generic instances
//! and non-capturing closures) stored in locals, arrays and structs,
//! passed to and returned from `#[inline(never)]` functions, compared and
//! called; signatures with scalars, pairs, slices and by-memory results.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

fn double(x: u64) -> u64 {
    x.wrapping_mul(2)
}
fn square(x: u64) -> u64 {
    x.wrapping_mul(x)
}
fn rotl7(x: u64) -> u64 {
    x.rotate_left(7) ^ 0x5555
}
fn neg_sub(x: u64) -> u64 {
    0u64.wrapping_sub(x) >> 3
}
#[inline(never)]
fn kept(x: u64) -> u64 {
    mix(H0, x)
}
fn ident<T: Copy>(x: T) -> T {
    x
}

trait Step {
    fn step(x: u64) -> u64;
}
struct Inc;
impl Step for Inc {
    fn step(x: u64) -> u64 {
        x.wrapping_add(11)
    }
}

/// A table of fn pointers indexed by the thread: fn items, an
/// `#[inline(never)]` one, a generic instance, a trait method and a
/// closure coerced to `fn`.
#[kernel]
pub fn indirect_fn_table(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let table: [fn(u64) -> u64; 8] = [double, square, rotl7, neg_sub, kept, ident::<u64>, Inc::step, |x| x ^ (x >> 5)];
    let w = at(input, i);
    let f = table[(i + (w as usize & 1)) % 8];
    put(&mut out, idx, f(w));
}

#[inline(never)]
fn apply_twice(f: fn(u64) -> u64, x: u64) -> u64 {
    f(f(x))
}

#[inline(never)]
fn pick(k: u64) -> fn(u64) -> u64 {
    if k % 3 == 0 {
        square
    } else if k % 3 == 1 {
        rotl7
    } else {
        kept
    }
}

/// Fn pointers passed to and returned from `#[inline(never)]` functions.
#[kernel]
pub fn indirect_fn_pass(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let f: fn(u64) -> u64 = if i % 2 == 0 { double } else { neg_sub };
    let g = pick(w);
    put(&mut out, idx, mix(apply_twice(f, w), apply_twice(g, w >> 1)));
}

struct Op {
    f: fn(u64, u64) -> u64,
    k: u64,
}

fn add(a: u64, b: u64) -> u64 {
    a.wrapping_add(b)
}
fn xor_shift(a: u64, b: u64) -> u64 {
    a ^ (b << 3)
}

#[inline(never)]
fn run_ops(ops: &[Op], x: u64) -> u64 {
    let mut h = x;
    for o in ops {
        h = (o.f)(h, o.k);
    }
    h
}

/// Fn pointers with two arguments in structs, called in a loop over a
/// slice of them.
#[kernel]
pub fn indirect_fn_struct(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let ops = [
        Op { f: add, k: w >> 7 },
        Op { f: if i % 3 == 0 { add } else { xor_shift }, k: 3 },
        Op { f: xor_shift, k: i as u64 },
    ];
    put(&mut out, idx, run_ops(&ops[i % 2..], w));
}

#[derive(Clone, Copy)]
struct Big {
    a: u64,
    b: u32,
    c: [u16; 5],
}

fn make_big(x: u64, s: &[u64]) -> Big {
    Big { a: x ^ s.len() as u64, b: (x >> 32) as u32, c: [x as u16, 1, 2, (x >> 16) as u16, s[0] as u16] }
}
fn make_big2(x: u64, s: &[u64]) -> Big {
    Big { a: s[s.len() - 1], b: x as u32, c: [7; 5] }
}
fn pair(x: u64) -> (u32, u64) {
    ((x >> 3) as u32, x.wrapping_mul(3))
}
fn pair2(x: u64) -> (u32, u64) {
    (x as u32, !x)
}
fn checked(x: u64) -> Option<u32> {
    u32::try_from(x >> 20).ok()
}

/// Signatures of every ABI shape through fn pointers: a slice argument
/// (two parameters), a result in memory, a pair result, an Option.
#[kernel]
pub fn indirect_fn_abi(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mb: fn(u64, &[u64]) -> Big = if w & 2 == 0 { make_big } else { make_big2 };
    let b = mb(w, &input[i..i + 3]);
    let p: fn(u64) -> (u32, u64) = if i % 2 == 0 { pair } else { pair2 };
    let (x, y) = p(w);
    let c: fn(u64) -> Option<u32> = checked;
    let mut h = mix(mix(b.a, b.b as u64), y);
    for v in b.c {
        h = mix(h, v as u64);
    }
    h = mix(h, x as u64);
    h = mix(h, c(w).map_or(99, |v| v as u64));
    put(&mut out, idx, h);
}

/// Comparing fn pointers: equal to themselves, different for different
/// functions (bodies that differ, so no merging can make them equal).
#[allow(unpredictable_function_pointer_comparisons)]
#[kernel]
pub fn indirect_fn_compare(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let table: [fn(u64) -> u64; 4] = [double, square, rotl7, neg_sub];
    let f = table[i % 4];
    let g = table[(w % 4) as usize];
    let same = f == g;
    let is_double = f == double as fn(u64) -> u64;
    let ne = f != square as fn(u64) -> u64;
    put(&mut out, idx, mix(mix(same as u64, is_double as u64), ne as u64 + f(w)));
}

/// An array of closures (all of one type: the same closure expression),
/// indexed by the thread.
#[kernel]
pub fn indirect_closure_array(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let k = at(input, i + 1);
    let mk = |s: u32| move |x: u64| x.rotate_left(s) ^ k;
    let fs = [mk(1), mk(13), mk(29), mk(40)];
    let plain = [|x: u64| x + 1, |x: u64| x + 1];
    put(&mut out, idx, mix(fs[i % 4](w), plain[i % 2](w)));
}

#[inline(never)]
fn run3(mut g: impl FnMut() -> u64) -> u64 {
    let a = g();
    let b = g();
    a ^ b.wrapping_mul(3) ^ g().rotate_left(9)
}

#[inline(never)]
fn fold_with(xs: &[u64], init: u64, f: impl Fn(u64, u64) -> u64) -> u64 {
    let mut h = init;
    for &x in xs {
        h = f(h, x);
    }
    h
}

/// `#[inline(never)]` functions with `impl FnMut` / `impl Fn` parameters,
/// instantiated for closures that capture by reference and by value and
/// mutate their state.
#[kernel]
pub fn indirect_impl_fn(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut count = 0u64;
    let mut state = w;
    let r = run3(|| {
        count += 1;
        state = mix(state, count);
        state
    });
    let s = fold_with(&input[i..i + 4], w >> 2, |h, x| mix(h, x ^ (i as u64)));
    let t = fold_with(&input[i + 1..i + 3], 5, |h, x| h.wrapping_add(x));
    put(&mut out, idx, mix(mix(r, count), mix(s, t ^ state)));
}

#[inline(never)]
fn combine3(a: u64, f: impl Fn(u64, u32, (u8, u16)) -> u64) -> u64 {
    f(a, a as u32, (a as u8, (a >> 8) as u16)) ^ f(!a, 7, (1, 2))
}

#[inline(never)]
fn apply_once(f: impl FnOnce(u64) -> u64, x: u64) -> u64 {
    f(x)
}

/// Fn items and fn pointers passed where `impl Fn` is expected (their
/// `Fn::call` is the function itself, or a call through the pointer), and
/// closures of three arguments (one a tuple) and `FnOnce`.
#[kernel]
pub fn indirect_fn_as_impl_fn(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let p: fn(u64, u64) -> u64 = if i % 2 == 0 { add } else { xor_shift };
    let a = fold_with(&input[i..i + 3], w, add);
    let b = fold_with(&input[i + 2..i + 5], 9, p);
    let c = combine3(w, |x, y, (s, t)| mix(x, y as u64 ^ ((s as u64) << 20) ^ t as u64));
    let d = apply_once(square, w) ^ apply_once(pick(w), i as u64);
    put(&mut out, idx, mix(mix(a, b), mix(c, d)));
}
