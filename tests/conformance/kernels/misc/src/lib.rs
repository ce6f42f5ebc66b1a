//! Conformance group `misc`: ZSTs and PhantomData, function-local types,
//! traits with default methods, generic structs, Ordering / cmp helpers,
//! control flow (loops, early returns), shadowing, blocks as values.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use core::marker::PhantomData;

#[derive(Clone, Copy)]
struct Unit;

#[derive(Clone, Copy)]
struct Typed<T> {
    raw: u64,
    _t: PhantomData<T>,
}

struct Meters;
struct Feet;

impl<T> Typed<T> {
    #[inline(always)]
    fn new(raw: u64) -> Self {
        Typed { raw, _t: PhantomData }
    }
}

#[inline(always)]
fn to_feet(m: Typed<Meters>) -> Typed<Feet> {
    Typed::new(m.raw.wrapping_mul(3281) / 1000)
}

#[inline(never)]
fn zst_args(_u: Unit, x: u64, _e: (), _p: PhantomData<u32>) -> u64 {
    x.rotate_left(3)
}

/// ZSTs: unit structs, (), PhantomData as values and device-call arguments.
#[kernel]
pub fn misc_zst(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let units = [Unit; 4];
    let v = zst_args(units[i % 4], w, (), PhantomData);
    let sz = core::mem::size_of::<[Unit; 100]>() + core::mem::size_of::<((), PhantomData<u8>)>();
    put(&mut out, idx, mix(v, sz as u64));
}

#[inline(never)]
fn empty_array_arg(x: u64, a: [u16; 0]) -> u64 {
    x ^ a.len() as u64
}

/// An empty array `[]` ([T; 0], a ZST) passed to a device function.
#[kernel]
pub fn misc_zst_empty_array(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    put(&mut out, idx, empty_array_arg(at(input, i), []));
}

/// PhantomData-typed units (zero-cost wrappers) converted by generic code.
#[kernel]
pub fn misc_phantom_units(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let m: Typed<Meters> = Typed::new(at(input, i) >> 20);
    let f = to_feet(m);
    put(&mut out, idx, mix(f.raw, core::mem::size_of::<Typed<Feet>>() as u64));
}

/// Types declared inside the kernel body (struct and enum local to a fn).
#[kernel]
pub fn misc_local_types(input: &[u64], mut out: DisjointSlice<u64>) {
    #[derive(Clone, Copy)]
    struct Local {
        a: u32,
        b: u8,
    }
    #[derive(Clone, Copy)]
    enum Kind {
        X(Local),
        Y,
    }
    let (idx, i) = tid();
    let w = at(input, i);
    let mut ks = [Kind::Y; 4];
    for k in 0..4 {
        if (w >> k) & 1 == 1 {
            ks[k] = Kind::X(Local { a: (w >> (8 * k)) as u32, b: k as u8 });
        }
    }
    let mut h = H0;
    for k in 0..4 {
        h = mix(h, match ks[(k + i) % 4] {
            Kind::X(l) => l.a as u64 + l.b as u64,
            Kind::Y => 1,
        });
    }
    put(&mut out, idx, h);
}

// Two functions that each declare a `L` and an `E` of their own: rustc
// prints them `local_a::L` and `local_b::L`, told apart by full path.
#[inline(always)]
fn local_a(w: u64) -> u64 {
    #[derive(Clone, Copy)]
    struct L(u8, u32);
    #[derive(Clone, Copy)]
    enum E {
        P(L),
        Q(u16),
    }
    let xs = [E::P(L(w as u8, (w >> 8) as u32)), E::Q((w >> 40) as u16), E::P(L((w >> 56) as u8, w as u32))];
    let mut h = H0;
    for k in 0..3 {
        h = mix(h, match xs[(k + w as usize) % 3] {
            E::P(l) => l.0 as u64 ^ (l.1 as u64) << 8,
            E::Q(q) => q as u64,
        });
    }
    h
}

#[inline(never)]
fn local_b(w: u64) -> u64 {
    #[derive(Clone, Copy)]
    struct L(u64, u8, u16);
    #[derive(Clone, Copy)]
    enum E {
        P(u8),
        Q(L),
        R,
    }
    let l = L(w.rotate_left(7), (w >> 3) as u8, (w >> 17) as u16);
    let e = if w & 1 == 0 { E::Q(l) } else if w & 2 == 0 { E::P(w as u8) } else { E::R };
    let inner = {
        // declared in a block of the body, not the body itself
        struct M {
            x: u32,
            y: L,
        }
        let ms = [M { x: w as u32, y: l }, M { x: 5, y: L(w, 1, 2) }];
        let m = &ms[(w >> 9) as usize & 1];
        m.x as u64 + m.y.2 as u64 + m.y.0
    };
    mix(inner, match e {
        E::P(p) => p as u64,
        E::Q(q) => q.0 ^ q.1 as u64 ^ (q.2 as u64) << 8,
        E::R => 7,
    })
}

// A generic function's own `E`: printed `local_g::E`, without `T`.
#[inline(never)]
fn local_g<T: Into<u64> + Copy>(t: T) -> u64 {
    #[derive(Clone, Copy)]
    enum E {
        A(u64, u8),
        B,
    }
    let w: u64 = t.into();
    let es = [E::A(w ^ 0x55, w as u8), E::B, E::A(w >> 3, 1)];
    match es[(w % 3) as usize] {
        E::A(x, y) => x.wrapping_add(y as u64),
        E::B => 11,
    }
}

/// Same-named types local to different functions (`local_a::L` and
/// `local_b::L`, enums `E` too, a nested function's `inner::L`, a generic
/// function's `local_g::E` at two instances), and one declared in a block
/// inside a function body.
#[kernel]
pub fn misc_local_types_same_name(input: &[u64], mut out: DisjointSlice<u64>) {
    #[inline(never)]
    fn inner(w: u64) -> u64 {
        #[derive(Clone, Copy)]
        struct L(u16, u8);
        let ls = [L(w as u16, 1), L((w >> 16) as u16, 2), L((w >> 32) as u16, 3)];
        let l = ls[(w % 3) as usize];
        l.0 as u64 * l.1 as u64
    }
    let (idx, i) = tid();
    let w = at(input, i);
    let h = mix(local_a(w), local_b(at(input, i + 1)));
    let g = mix(local_g(w as u32), local_g(w as u8));
    put(&mut out, idx, mix(mix(h, inner(w)), g));
}

trait Score {
    fn base(&self) -> u64;
    #[inline(always)]
    fn score(&self) -> u64 {
        self.base().wrapping_mul(3) + 1
    }
}

struct A(u64);
struct B(u32, u32);

impl Score for A {
    #[inline(always)]
    fn base(&self) -> u64 {
        self.0
    }
}

impl Score for B {
    #[inline(always)]
    fn base(&self) -> u64 {
        self.0 as u64 * self.1 as u64
    }
    #[inline(always)]
    fn score(&self) -> u64 {
        self.base() ^ 0xFFFF
    }
}

#[inline(always)]
fn total<S: Score, T: Score>(s: &S, t: &T) -> u64 {
    mix(s.score(), t.score())
}

/// Traits with default and overridden methods, generic static dispatch.
#[kernel]
pub fn misc_traits_default_methods(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    put(&mut out, idx, total(&A(w), &B(w as u32, (w >> 32) as u32)));
}

#[derive(Clone, Copy)]
struct Pair<T> {
    a: T,
    b: T,
}

impl<T: Copy + PartialOrd> Pair<T> {
    #[inline(always)]
    fn sorted(self) -> Pair<T> {
        if self.a <= self.b {
            self
        } else {
            Pair { a: self.b, b: self.a }
        }
    }
}

/// A generic struct instantiated with u8, i64 and f32 (monomorphisation).
#[kernel]
pub fn misc_generic_struct(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let v = at(input, i + 1);
    let p8 = Pair { a: w as u8, b: v as u8 }.sorted();
    let p64 = Pair { a: w as i64, b: v as i64 }.sorted();
    let pf = Pair { a: f32_of(w), b: f32_of(v) }.sorted();
    let mut h = mix(H0, p8.a as u64 * 256 + p8.b as u64);
    h = mix(h, p64.a as u64 ^ p64.b as u64);
    h = mix(h, canon32(pf.a) << 32 | canon32(pf.b));
    put(&mut out, idx, h);
}

/// Early return from nested loops, blocks as expressions, shadowing.
#[kernel]
pub fn misc_control_flow(input: &[u64], mut out: DisjointSlice<u64>) {
    #[inline(always)]
    fn find_pair(xs: &[u64], target: u8) -> Option<(usize, usize)> {
        for a in 0..xs.len() {
            for b in a + 1..xs.len() {
                if (xs[a] as u8).wrapping_add(xs[b] as u8) == target {
                    return Some((a, b));
                }
            }
        }
        None
    }
    let (idx, i) = tid();
    let x = at(input, i);
    let x = {
        let y = x >> 3;
        if y & 1 == 0 {
            y
        } else {
            !y
        }
    } as u8;
    let r = find_pair(&input[i..i + 12], x);
    let x = r.map_or(x as u64, |(a, b)| (a * 16 + b) as u64);
    put(&mut out, idx, x);
}

/// A loop whose trip count depends on the data (Collatz steps, bounded).
#[kernel]
pub fn misc_data_dependent_loop(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut n = at(input, i) % 100_000 + 1;
    let mut steps = 0u64;
    while n != 1 && steps < 1000 {
        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
        steps += 1;
    }
    put(&mut out, idx, steps);
}

/// cmp helpers: Ord::max/min/clamp on structs and tuples, Ordering::then,
/// reverse, is_lt.
#[kernel]
pub fn misc_ordering(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let v = at(input, i + 1);
    let a = ((w % 3) as u8, (w >> 8) as u16);
    let b = ((v % 3) as u8, (v >> 8) as u16);
    let o = a.0.cmp(&b.0).then(a.1.cmp(&b.1));
    let mut h = mix(H0, o as i8 as u64);
    h = mix(h, o.reverse() as i8 as u64);
    h = mix(h, o.is_lt() as u64);
    h = mix(h, core::cmp::max(a, b).1 as u64);
    h = mix(h, (w as i16).clamp(-100, 100) as u64);
    put(&mut out, idx, h);
}

/// Wrapping / Saturating number wrappers (core::num::Wrapping, Saturating).
#[kernel]
pub fn misc_num_wrappers(input: &[u64], mut out: DisjointSlice<u64>) {
    use core::num::{Saturating, Wrapping};
    let (idx, i) = tid();
    let w = Wrapping(at(input, i) as u32);
    let s = Saturating(at(input, i + 1) as i16);
    let r = w * Wrapping(3) + Wrapping(u32::MAX) - Wrapping(7);
    let t = s * Saturating(4) - Saturating(i16::MAX);
    put(&mut out, idx, mix(r.0 as u64, t.0 as u64));
}

/// The thread / block API: thread_idx_x, block_idx_x, block_dim_x,
/// grid_dim_x, and the y/z coordinates of a 1-D launch.
#[kernel]
pub fn misc_thread_api(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let t = thread::thread_idx_x() as u64;
    let b = thread::block_idx_x() as u64;
    let bd = thread::block_dim_x() as u64;
    let gd = thread::grid_dim_x() as u64;
    let yz = thread::thread_idx_y() as u64
        + thread::thread_idx_z() as u64
        + thread::block_idx_y() as u64
        + thread::block_idx_z() as u64
        + thread::block_dim_y() as u64 * 10
        + thread::block_dim_z() as u64 * 100
        + thread::grid_dim_y() as u64 * 1000
        + thread::grid_dim_z() as u64 * 10000;
    let ok = (b * bd + t == i as u64) as u64;
    put(&mut out, idx, mix(mix(mix(mix(mix(t, b), bd), gd), yz), ok) ^ (at(input, i) & 0));
}

/// NonZero values in constants (their inner field is a pattern type:
/// `NonZero::<u64>(NonZeroU64Inner(5_u64 is 1..))`), in Options and arrays;
/// checked_ilog2 (found by the fuzzer: the constant's type was spelled
/// twice, `NonZero<u64>` and `NonZero::<u64>`).
#[kernel]
pub fn misc_nonzero_consts(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let nz: [Option<core::num::NonZeroU64>; 2] = [core::num::NonZeroU64::new(5), None];
    let a = core::num::NonZeroU64::new(w & 0xff).unwrap_or(core::num::NonZeroU64::MIN);
    let b = nz[i % 2].map_or(0, |n| n.get());
    let c = core::num::NonZeroU32::new(w as u32 & 3).map_or(7, |n| n.get()) as u64;
    let d = (w >> (i % 64)).checked_ilog2().unwrap_or(134) as u64;
    put(&mut out, idx, mix(mix(mix(mix(H0, a.get()), b), c), d));
}
