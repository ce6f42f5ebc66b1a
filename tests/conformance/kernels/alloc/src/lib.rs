//! Conformance group `alloc`: the device heap. oxide-device's `DeviceHeap`
//! (CUDA's device-side malloc and free; the C library's under emulation and
//! in the CPU reference) as the crate's global allocator, called directly
//! through `GlobalAlloc` and by alloc's `Vec` and `Box`, whose bodies
//! mir-export reads from alloc's own MIR (docs/DESIGN.md, "Library
//! bodies": alloc).
#![no_std]
extern crate alloc;

#[path = "../../common.rs"]
mod common;
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use common::*;
use core::alloc::{GlobalAlloc, Layout};
use oxide_device::alloc::DeviceHeap;
use oxide_device::prelude::*;

#[global_allocator]
static HEAP: DeviceHeap = DeviceHeap;

/// `GlobalAlloc` directly: a 16-aligned block and a 64-aligned one (over
/// allocated, `malloc`'s pointer kept below it), written, read, freed.
#[kernel]
pub fn alloc_global_direct(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let small = Layout::from_size_align(24, core::hint::black_box(8usize)).unwrap();
    let big = Layout::from_size_align(40 + i % 3, core::hint::black_box(64usize)).unwrap();
    let h = unsafe {
        let p = HEAP.alloc(small) as *mut u64;
        let q = HEAP.alloc(big) as *mut u64;
        if p.is_null() || q.is_null() {
            0
        } else {
            p.write(at(input, i));
            p.add(2).write(at(input, i + 1));
            q.write(mix(p.read(), p.add(2).read()));
            q.add(4).write((q as usize % 64) as u64 + (p as usize % 16) as u64);
            let h = mix(q.read(), q.add(4).read());
            HEAP.dealloc(p as *mut u8, small);
            HEAP.dealloc(q as *mut u8, big);
            h
        }
    };
    put(&mut out, idx, h);
}

/// `Vec`: push, index, iterate, pop, extend from a slice, drop.
#[kernel]
pub fn alloc_vec_push(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: Vec<u32> = Vec::new();
    for k in 0..(5 + i % 7) {
        v.push((at(input, i + k) >> 9) as u32);
    }
    let mut h = mix(H0, v.len() as u64);
    h = mix(h, v[v.len() / 2] as u64);
    for x in &v {
        h = mix(h, *x as u64);
    }
    while let Some(x) = v.pop() {
        h = mix(h, x as u64 ^ 0x55);
        if v.len() == 2 {
            break;
        }
    }
    v.extend_from_slice(&[7, 8, 9]);
    h = mix(h, v.iter().map(|x| *x as u64).sum());
    put(&mut out, idx, h);
}

/// `Vec` sorted by core's `sort_unstable` on its slice.
#[kernel]
pub fn alloc_vec_sort(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: Vec<u32> = Vec::with_capacity(12);
    for k in 0..12 {
        v.push((at(input, i + k) >> 5) as u32 % 500);
    }
    v.sort_unstable();
    let mut h = H0;
    for x in v {
        h = mix(h, x as u64);
    }
    put(&mut out, idx, h);
}

/// `Box<[u32; 8]>` and `Box<u64>`: made, changed through the box, dropped.
#[kernel]
pub fn alloc_box(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut b = Box::new([0u32; 8]);
    for (k, x) in b.iter_mut().enumerate() {
        *x = at(input, i + k) as u32;
    }
    let c = Box::new(mix(H0, b[3] as u64));
    let mut h = *c;
    for x in b.iter() {
        h = mix(h, *x as u64);
    }
    put(&mut out, idx, h);
}

/// `Vec` operations: `extend_from_slice`, `pop`, indexing, `iter`,
/// `iter_mut`, `truncate`, `insert`, `remove`, `swap`, `clear`, `len`,
/// `is_empty`, `last`, `contains`; dropped at the end.
#[kernel]
pub fn alloc_vec_ops(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: Vec<u64> = Vec::new();
    v.extend_from_slice(&[at(input, i), at(input, i + 1), at(input, i + 2)]);
    v.extend_from_slice(&input[i % 8..i % 8 + 5]);
    let mut h = mix(H0, v.len() as u64);
    for x in v.iter_mut() {
        *x = x.wrapping_mul(3) ^ 0x9e37;
    }
    v.insert(2, i as u64);
    h = mix(h, v.remove(4));
    v.swap(0, 5);
    h = mix(h, v[1] ^ v[v.len() - 1]);
    h = mix(h, v.contains(&(i as u64)) as u64);
    if let Some(x) = v.pop() {
        h = mix(h, x);
    }
    h = mix(h, *v.last().unwrap_or(&7));
    v.truncate(3);
    for x in v.iter() {
        h = mix(h, *x);
    }
    v.clear();
    h = mix(h, v.is_empty() as u64 + v.len() as u64);
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
struct Particle {
    pos: [f32; 3],
    id: u16,
    mass: u64,
}

/// `Vec` of structs (`T::LAYOUT` of a type the probe lays out): pushed,
/// changed in place through `iter_mut`, read by index and by `iter`.
#[kernel]
pub fn alloc_vec_structs(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: Vec<Particle> = Vec::with_capacity(2);
    for k in 0..(3 + i % 5) {
        let w = at(input, i + k);
        v.push(Particle { pos: [(w & 0xff) as f32, (w >> 8 & 0xff) as f32, 0.5], id: k as u16, mass: w >> 20 });
    }
    for p in v.iter_mut() {
        p.pos[2] += p.pos[0] * 0.25;
        p.mass ^= p.id as u64;
    }
    let mut h = mix(H0, v.len() as u64);
    h = mix(h, v[v.len() / 2].mass);
    for p in v.iter() {
        h = mix(h, canon32(p.pos[2]) ^ p.mass ^ p.id as u64);
    }
    put(&mut out, idx, h);
}

/// A `Vec` that grows from empty across several reallocations (capacity
/// 4, 8, .., 256: `RawVec::grow_amortized` and `__rust_realloc`), then
/// shrinks; the capacities are part of the digest.
#[kernel]
pub fn alloc_vec_grow(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut v: Vec<u32> = Vec::new();
    let mut h = H0;
    let mut last_cap = v.capacity();
    let n = 150 + i % 61;
    for k in 0..n {
        v.push((at(input, i + k) >> 7) as u32 ^ k as u32);
        if v.capacity() != last_cap {
            last_cap = v.capacity();
            h = mix(h, last_cap as u64);
        }
    }
    let mut s = 0u64;
    for k in 0..v.len() {
        s = s.wrapping_add(v[k] as u64 * (k as u64 + 1));
    }
    h = mix(h, s);
    v.truncate(10);
    v.shrink_to_fit();
    h = mix(h, v.capacity() as u64);
    h = mix(h, v.iter().map(|x| *x as u64).sum());
    put(&mut out, idx, h);
}

/// `Box<[u32; 8]>` made from an array on the stack, passed by value to a
/// function and moved out; a `Box` of a struct.
#[kernel]
pub fn alloc_box_array(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut a = [0u32; 8];
    for k in 0..8 {
        a[k] = (at(input, i + k) >> 3) as u32;
    }
    let b: Box<[u32; 8]> = Box::new(a);
    let h = sum_boxed(b);
    let p = Box::new(Particle { pos: [1.0, 2.0, i as f32], id: 3, mass: h });
    let moved: Particle = *p;
    put(&mut out, idx, mix(h, moved.mass ^ canon32(moved.pos[2])));
}

#[inline(never)]
fn sum_boxed(b: Box<[u32; 8]>) -> u64 {
    let mut h = H0;
    for x in b.iter() {
        h = mix(h, *x as u64);
    }
    h
}

trait Shape {
    fn area(&self) -> u64;
}
#[derive(Clone, Copy)]
struct Sq(u64);
#[derive(Clone, Copy)]
struct Rect(u64, u32);
impl Shape for Sq {
    fn area(&self) -> u64 { self.0 * self.0 }
}
impl Shape for Rect {
    fn area(&self) -> u64 { self.0 * self.1 as u64 }
}

/// `Box<dyn Trait>`: two concrete types behind one box type, a call
/// through the vtable, the box freed with the size and alignment its
/// vtable holds (the values are `Copy`: no drop glue).
#[kernel]
pub fn alloc_box_dyn(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i) >> 40;
    let b: Box<dyn Shape> = if i % 2 == 0 { Box::new(Sq(w)) } else { Box::new(Rect(w, i as u32)) };
    let h = mix(H0, b.area());
    put(&mut out, idx, h);
}

/// Where drops are recorded: an order-sensitive digest and a counter.
pub struct Log {
    h: core::cell::Cell<u64>,
    n: core::cell::Cell<u64>,
}

impl Log {
    #[inline(always)]
    fn new() -> Log {
        Log { h: core::cell::Cell::new(H0), n: core::cell::Cell::new(0) }
    }

    #[inline(always)]
    fn note(&self, v: u64) {
        self.h.set(mix(self.h.get(), v.wrapping_mul(1000).wrapping_add(self.n.get())));
        self.n.set(self.n.get() + 1);
    }

    #[inline(always)]
    fn digest(&self) -> u64 {
        mix(self.h.get(), self.n.get())
    }
}

/// A value whose drop is observable.
pub struct Noisy<'a> {
    id: u64,
    log: &'a Log,
}

impl Drop for Noisy<'_> {
    fn drop(&mut self) {
        self.log.note(self.id);
    }
}

/// A struct that owns heap memory (drop glue, no `Drop` impl).
struct Bag {
    items: Vec<u32>,
    extra: Box<u64>,
}

trait Weigh {
    fn weight(&self) -> u64;
}
impl Weigh for Sq {
    fn weight(&self) -> u64 { self.0 + 1 }
}
impl Weigh for Bag {
    fn weight(&self) -> u64 { self.items.iter().map(|x| *x as u64).sum::<u64>() ^ *self.extra }
}
impl Weigh for Noisy<'_> {
    fn weight(&self) -> u64 { self.id * 7 }
}

#[inline(never)]
fn weigh_box<'a>(k: usize, w: u64, log: &'a Log) -> Box<dyn Weigh + 'a> {
    match k % 3 {
        0 => Box::new(Sq(w)),
        1 => {
            let mut items = Vec::new();
            for j in 0..(2 + w % 5) {
                items.push((w >> j) as u32);
            }
            Box::new(Bag { items, extra: Box::new(w ^ 0x77) })
        }
        _ => Box::new(Noisy { id: w % 1000, log }),
    }
}

/// `Box<dyn Trait>` of types with drop glue: a struct owning a `Vec` and a
/// `Box`, one with a `Drop` impl that logs, and a `Copy` one: each drop
/// goes through the vtable's drop word, then the box is freed with the
/// vtable's size and alignment.
#[kernel]
pub fn alloc_box_dyn_drop(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let log = Log::new();
    let mut h = H0;
    for k in 0..4 {
        let b = weigh_box(i + k, at(input, i + k) >> 30, &log);
        h = mix(h, b.weight());
        log.note(50 + k as u64);
    }
    let c = weigh_box(2, i as u64, &log);
    let d = weigh_box(i, at(input, i) >> 50, &log);
    h = mix(h, c.weight() ^ d.weight());
    drop(c);
    log.note(60);
    drop(d);
    put(&mut out, idx, mix(h, log.digest()));
}

/// `Vec<Box<dyn Trait>>`: boxes of several types with drop glue, dropped
/// element by element front to back when the vector goes; `pop` and
/// `truncate` drop some before.
#[kernel]
pub fn alloc_vec_box_dyn(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let log = Log::new();
    let mut h = H0;
    {
        let mut v: Vec<Box<dyn Weigh + '_>> = Vec::new();
        for k in 0..(4 + i % 5) {
            v.push(weigh_box(i * 7 + k, at(input, i + k) >> 33, &log));
        }
        for b in v.iter() {
            h = mix(h, b.weight());
        }
        if let Some(b) = v.pop() {
            h = mix(h, b.weight());
        }
        log.note(70);
        v.truncate(3);
        log.note(71);
        v.remove(0);
        log.note(72);
    }
    put(&mut out, idx, mix(h, log.digest()));
}

/// Collections of elements with drop glue: `Vec<Vec<u32>>`,
/// `Vec<Box<u64>>`, `Box<Vec<u32>>`, `Option<Box<T>>`.
#[kernel]
pub fn alloc_nested(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut rows: Vec<Vec<u32>> = Vec::new();
    for r in 0..(3 + i % 4) {
        let mut row = Vec::with_capacity(r);
        for c in 0..(r + 1) {
            row.push((at(input, i + r * 3 + c) >> 11) as u32);
        }
        rows.push(row);
    }
    let mut h = mix(H0, rows.len() as u64);
    for row in rows.iter() {
        h = mix(h, row.len() as u64);
        for x in row {
            h = mix(h, *x as u64);
        }
    }
    rows.truncate(2);
    let mut boxes: Vec<Box<u64>> = Vec::new();
    for k in 0..5 {
        boxes.push(Box::new(at(input, i + k) ^ k as u64));
    }
    for b in boxes.iter() {
        h = mix(h, **b);
    }
    let bv: Box<Vec<u32>> = Box::new(rows.pop().unwrap_or_default());
    h = mix(h, bv.iter().map(|x| *x as u64).sum());
    let ob: Option<Box<[u64; 3]>> = if i % 3 == 0 { None } else { Some(Box::new([at(input, i), 1, 2])) };
    if let Some(b) = &ob {
        h = mix(h, b[0] ^ b[2]);
    }
    rows.clear();
    h = mix(h, rows.len() as u64);
    put(&mut out, idx, h);
}

/// `Vec` of a type with a `Drop` impl: `pop` drops the popped value where
/// it goes, `truncate` and `clear` drop the tail front to back, the
/// vector's own drop drops what is left front to back; `Option<Box<T>>`
/// and `Box<Vec<T>>` of it too.
#[kernel]
pub fn alloc_vec_drop_order(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let log = Log::new();
    {
        let mut v: Vec<Noisy<'_>> = Vec::new();
        for k in 0..(6 + i % 5) {
            v.push(Noisy { id: at(input, i + k) % 97 + k as u64, log: &log });
        }
        drop(v.pop());
        log.note(1);
        v.truncate(4);
        log.note(2);
        let w = v.remove(1);
        log.note(w.id + 3);
        drop(w);
        let mut b: Box<Vec<Noisy<'_>>> = Box::new(Vec::new());
        b.push(Noisy { id: 500 + i as u64, log: &log });
        b.push(Noisy { id: 501, log: &log });
        let o: Option<Box<Noisy<'_>>> = if i % 2 == 0 { Some(Box::new(Noisy { id: 600, log: &log })) } else { None };
        log.note(o.is_some() as u64 + 4);
        if i % 3 == 0 {
            v.clear();
            log.note(5);
        }
    }
    put(&mut out, idx, log.digest());
}

/// A request larger than any heap (`Vec::with_capacity` of 2^46 bytes in
/// thread 37, which the device heap, the C library's and the CPU
/// reference's all refuse): `malloc` returns null and alloc's
/// `handle_alloc_error` traps ("memory allocation of 70368744177664 bytes
/// failed"); it never hands back a dangling vector. The CPU reference
/// panics in its allocation error hook instead of aborting.
#[kernel]
pub fn alloc_oom_trap(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let n = if i == 37 { 1usize << 43 } else { 4 + i % 5 };
    let mut v: Vec<u64> = Vec::with_capacity(core::hint::black_box(n));
    v.push(at(input, i));
    v.push(v.capacity() as u64);
    put(&mut out, idx, mix(v[0], v[1]));
}

/// `alloc::string::String`: `push_str`, `push` (one to four UTF-8 bytes),
/// `len`, `as_bytes`, `pop`, `truncate`, `clear`; a `Vec<String>`.
#[kernel]
pub fn alloc_string(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut s = String::new();
    s.push_str("rho=");
    let chars = ['a', 'é', '∑', '🦀'];
    for k in 0..(3 + i % 6) {
        let w = at(input, i + k);
        s.push(chars[(w % 4) as usize]);
        if w % 3 == 0 {
            s.push_str("--");
        }
    }
    let mut h = mix(H0, s.len() as u64);
    for b in s.as_bytes() {
        h = mix(h, *b as u64);
    }
    if let Some(c) = s.pop() {
        h = mix(h, c as u64);
    }
    let mut names: Vec<String> = Vec::new();
    names.push(s.clone());
    s.truncate(4);
    names.push(s);
    let mut t = String::with_capacity(2);
    t.push_str(&names[1]);
    t.push('!');
    h = mix(h, t.len() as u64 ^ t.as_bytes()[4] as u64);
    for n in names.iter() {
        h = mix(h, n.len() as u64);
    }
    t.clear();
    h = mix(h, t.is_empty() as u64);
    put(&mut out, idx, h);
}

trait Label {
    fn label(&self) -> u64;
}
trait Tagged: Weigh + Label {
    fn tag(&self) -> u64;
}
impl Label for Bag {
    fn label(&self) -> u64 { *self.extra ^ 0x33 }
}
impl Tagged for Bag {
    fn tag(&self) -> u64 { self.items.len() as u64 }
}
impl Label for Noisy<'_> {
    fn label(&self) -> u64 { self.id + 11 }
}
impl Tagged for Noisy<'_> {
    fn tag(&self) -> u64 { self.id ^ 0x5a }
}

#[inline(never)]
fn tagged_box<'a>(k: usize, w: u64, log: &'a Log) -> Box<dyn Tagged + 'a> {
    if k % 2 == 0 {
        Box::new(Noisy { id: w % 300, log })
    } else {
        let mut items = Vec::new();
        items.extend_from_slice(&[w as u32, 3, 4]);
        Box::new(Bag { items, extra: Box::new(w) })
    }
}

/// `Box<dyn Tagged>` upcast to `Box<dyn Weigh>` (the first supertrait: the
/// vtable's prefix) and to `Box<dyn Label>` (the second: its `TraitVPtr`
/// word), then dropped: the drop word of the vtable the box holds is the
/// concrete type's glue.
#[kernel]
pub fn alloc_box_dyn_upcast_drop(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let log = Log::new();
    let t = tagged_box(i, at(input, i) >> 35, &log);
    let u = tagged_box(i + 1, at(input, i + 1) >> 37, &log);
    let mut h = mix(H0, t.tag() ^ u.tag());
    let b: Box<dyn Weigh + '_> = t;
    let c: Box<dyn Label + '_> = u;
    h = mix(h, b.weight());
    h = mix(h, c.label());
    log.note(9);
    drop(b);
    log.note(10);
    drop(c);
    put(&mut out, idx, mix(h, log.digest()));
}

/// A wrapper whose `Drop` impl is generic (rustc prints it only
/// generically, so its glue cannot be exported).
struct Wrapped<T: Copy> {
    v: T,
    log: *const Log,
}
impl<T: Copy> Drop for Wrapped<T> {
    fn drop(&mut self) {
        unsafe { (*self.log).note(77) };
    }
}
impl Weigh for Wrapped<u64> {
    fn weight(&self) -> u64 { self.v }
}

/// Dropping a `Box<dyn Weigh>` that may hold a `Wrapped<u64>`: refused at
/// the drop, naming the type (expected-errors.txt).
#[kernel]
pub fn alloc_box_dyn_generic_drop(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let log = Log::new();
    let b: Box<dyn Weigh + '_> = if i % 2 == 0 { Box::new(Sq(at(input, i))) } else { Box::new(Wrapped { v: 5u64, log: &log }) };
    let h = mix(H0, b.weight());
    drop(b);
    put(&mut out, idx, mix(h, log.digest()));
}

/// `vec![..]` and `Vec::from([..])`: a `Box<[T; N]>` unsized to a
/// `Box<[T]>` (the length after the data pointer) and made a `Vec`; of
/// elements with drop glue too (vectors, boxes).
#[kernel]
pub fn alloc_vec_macro(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = vec![at(input, i), at(input, i + 1) >> 3, 7];
    let b: Vec<u32> = Vec::from([1u32, i as u32, 3, 4]);
    let c = vec![Box::new(at(input, i + 2)), Box::new(5)];
    let d: Vec<Vec<u32>> = vec![Vec::from([i as u32, 2]), Vec::new()];
    let e = vec![0u8; 5 + i % 4];
    let mut h = mix(H0, a.len() as u64 ^ a.capacity() as u64);
    for x in a.iter() {
        h = mix(h, *x);
    }
    h = mix(h, b.iter().map(|x| *x as u64).sum());
    h = mix(h, *c[0] ^ *c[1]);
    h = mix(h, d.len() as u64 ^ d[d.len() - 1][1] as u64);
    h = mix(h, e.len() as u64);
    put(&mut out, idx, h);
}
