//! Conformance group `dyn`: calls through vtables. `&dyn Trait` and
//! `&mut dyn Trait` of several concrete types, trait objects in arrays
//! and slices, default methods, supertrait methods (a chain of single
//! supertraits), generic traits, `&dyn Fn` / `&mut dyn FnMut` closures,
//! `#[inline(never)]` and generic functions taking `&dyn Trait`, and
//! `size_of_val` / `align_of_val` of trait objects.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

trait Shape {
    fn area(&self) -> u64;
    fn scale(&self, k: u64) -> u64 {
        self.area().wrapping_mul(k) ^ 0x33
    }
    fn name(&self) -> u64;
}

struct Sq(u64);
struct Rect {
    w: u32,
    h: u64,
}
struct Unit;

impl Shape for Sq {
    fn area(&self) -> u64 {
        self.0.wrapping_mul(self.0)
    }
    fn name(&self) -> u64 {
        1
    }
}
impl Shape for Rect {
    fn area(&self) -> u64 {
        (self.w as u64).wrapping_mul(self.h)
    }
    fn scale(&self, k: u64) -> u64 {
        self.h.rotate_left(k as u32 & 63)
    }
    fn name(&self) -> u64 {
        2
    }
}
impl Shape for Unit {
    fn area(&self) -> u64 {
        7
    }
    fn name(&self) -> u64 {
        3
    }
}

#[inline(never)]
fn total(s: &dyn Shape, k: u64) -> u64 {
    mix(mix(s.area(), s.scale(k)), s.name())
}

/// `&dyn Shape` of three types chosen by the data, called in an
/// `#[inline(never)]` function: required and default methods.
#[kernel]
pub fn dyn_ref_select(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let sq = Sq(w);
    let r = Rect { w: w as u32, h: w >> 7 };
    let s: &dyn Shape = match w % 3 {
        0 => &sq,
        1 => &r,
        _ => &Unit,
    };
    put(&mut out, idx, total(s, w));
}

/// An array of trait objects `[&dyn Shape; 3]` walked as a slice.
#[kernel]
pub fn dyn_array(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = Sq(w ^ 5);
    let b = Rect { w: (w >> 3) as u32, h: w.wrapping_add(9) };
    let arr: [&dyn Shape; 3] = [&a, &b, &Unit];
    let sl: &[&dyn Shape] = &arr[(w % 2) as usize..];
    let mut h = H0;
    for s in sl {
        h = mix(h, s.scale(w >> 11));
        h = mix(h, s.name());
    }
    put(&mut out, idx, h);
}

trait Counter {
    fn bump(&mut self, by: u64);
    fn get(&self) -> u64;
}
struct Wrap(u64);
struct Twice {
    a: u32,
    b: u32,
}
impl Counter for Wrap {
    fn bump(&mut self, by: u64) {
        self.0 = self.0.wrapping_add(by) ^ 0x10;
    }
    fn get(&self) -> u64 {
        self.0
    }
}
impl Counter for Twice {
    fn bump(&mut self, by: u64) {
        self.a = self.a.wrapping_add(by as u32);
        self.b = self.b.wrapping_mul(3) ^ self.a;
    }
    fn get(&self) -> u64 {
        ((self.a as u64) << 32) | self.b as u64
    }
}

#[inline(never)]
fn bump_all(c: &mut dyn Counter, w: u64) -> u64 {
    for k in 0..4 {
        c.bump(w >> k);
    }
    c.get()
}

/// `&mut dyn Counter`: methods that write through the data pointer.
#[kernel]
pub fn dyn_mut(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut x = Wrap(w);
    let mut y = Twice { a: w as u32, b: (w >> 32) as u32 };
    let c: &mut dyn Counter = if w & 1 == 0 { &mut x } else { &mut y };
    let g = bump_all(c, w);
    put(&mut out, idx, mix(mix(g, x.0), y.get()));
}

trait Base {
    fn base(&self) -> u64;
    fn base2(&self) -> u64 {
        self.base() ^ 0xabc
    }
}
trait Mid: Base {
    fn mid(&self) -> u64;
}
trait Top: Mid {
    fn top(&self) -> u64 {
        self.mid().wrapping_add(self.base())
    }
}
struct P(u64);
struct Q(u32, u32);
impl Base for P {
    fn base(&self) -> u64 {
        self.0 ^ 1
    }
}
impl Mid for P {
    fn mid(&self) -> u64 {
        self.0.wrapping_mul(5)
    }
}
impl Top for P {}
impl Base for Q {
    fn base(&self) -> u64 {
        self.0 as u64
    }
    fn base2(&self) -> u64 {
        self.1 as u64 * 3
    }
}
impl Mid for Q {
    fn mid(&self) -> u64 {
        (self.1 as u64) << 3
    }
}
impl Top for Q {
    fn top(&self) -> u64 {
        99
    }
}

#[inline(never)]
fn through_top(t: &dyn Top) -> u64 {
    mix(mix(mix(t.top(), t.mid()), t.base()), t.base2())
}

/// Supertrait methods (Top: Mid: Base) through `&dyn Top`, default and
/// overridden ones.
#[kernel]
pub fn dyn_supertrait(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let p = P(w);
    let q = Q(w as u32, (w >> 40) as u32);
    let t: &dyn Top = if w % 5 < 2 { &p } else { &q };
    put(&mut out, idx, through_top(t));
}

#[inline(never)]
fn call_fn(f: &dyn Fn(u64, u32) -> u64, x: u64) -> u64 {
    f(x, 3) ^ f(x >> 1, 9)
}

#[inline(never)]
fn call_fnmut(f: &mut dyn FnMut(u64) -> u64, x: u64) -> u64 {
    let a = f(x);
    let b = f(a);
    a ^ b
}

/// `&dyn Fn` and `&mut dyn FnMut` closures with captures.
#[kernel]
pub fn dyn_closures(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let k = w >> 13;
    let add = |a: u64, s: u32| a.rotate_left(s) ^ k;
    let mul = |a: u64, s: u32| a.wrapping_mul(s as u64 + 1);
    let f: &dyn Fn(u64, u32) -> u64 = if w & 2 == 0 { &add } else { &mul };
    let mut acc = w;
    let mut count = 0u64;
    let mut g = |x: u64| {
        acc = acc.wrapping_add(x) ^ 0x77;
        count += 1;
        acc
    };
    let r = call_fnmut(&mut g, w);
    put(&mut out, idx, mix(mix(call_fn(f, w), r), mix(acc, count)));
}

trait Gen<T> {
    fn get(&self, t: T) -> T;
}
impl Gen<u32> for Sq {
    fn get(&self, t: u32) -> u32 {
        t ^ self.0 as u32
    }
}
impl Gen<u32> for Unit {
    fn get(&self, t: u32) -> u32 {
        t.wrapping_mul(3)
    }
}

#[inline(never)]
fn sum_gen<T: Copy + Into<u64>>(g: &[&dyn Gen<T>], t: T) -> u64 {
    let mut h = H0;
    for x in g {
        h = mix(h, x.get(t).into());
    }
    h
}

/// A generic trait `dyn Gen<u32>` in a slice passed to a generic function.
#[kernel]
pub fn dyn_generic(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s = Sq(w);
    let gens: [&dyn Gen<u32>; 3] = [&s, &Unit, &s];
    put(&mut out, idx, sum_gen(&gens[..(w % 4) as usize], w as u32));
}

/// `size_of_val` and `align_of_val` of trait objects (the vtable's size
/// and alignment words).
#[kernel]
pub fn dyn_size_of_val(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let sq = Sq(w);
    let r = Rect { w: 1, h: 2 };
    let arr: [&dyn Shape; 3] = [&sq, &r, &Unit];
    let s = arr[(w % 3) as usize];
    let sz = core::mem::size_of_val(s) as u64;
    let al = core::mem::align_of_val(s) as u64;
    put(&mut out, idx, mix(mix(sz, al), s.name()));
}

const UNIT_SHAPE: &dyn Shape = &Unit;

/// A trait object made in a `const` item (its body makes the coercion)
/// next to ones made here, walked from a data-dependent start.
#[kernel]
pub fn dyn_const_item(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = Sq(w >> 9);
    let b = Rect { w: w as u32, h: w >> 33 };
    let all: [&dyn Shape; 3] = [UNIT_SHAPE, &a, &b];
    let mut h = H0;
    for s in all.iter().skip((w % 3) as usize) {
        h = mix(h, total(*s, w >> 5));
    }
    put(&mut out, idx, h);
}
