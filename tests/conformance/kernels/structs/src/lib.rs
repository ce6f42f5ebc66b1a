//! Conformance group `structs`: structs with rustc-reordered layouts,
//! repr(C), packed, nested structs, tuples, tuple structs, ZST fields,
//! structs by value across device calls, field updates through &mut.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use core::marker::PhantomData;
use core::mem::{offset_of, size_of};

#[derive(Clone, Copy)]
struct Mixed {
    a: u8,
    b: u64,
    c: u16,
    d: u32,
    e: bool,
    f: i8,
}

#[inline(always)]
fn mixed_of(w: u64, v: u64) -> Mixed {
    Mixed { a: w as u8, b: v, c: (w >> 8) as u16, d: (w >> 24) as u32, e: v & 1 == 1, f: (v >> 56) as i8 }
}

#[inline(always)]
fn digest_mixed(m: &Mixed) -> u64 {
    let mut h = mix(H0, m.a as u64);
    h = mix(h, m.b);
    h = mix(h, m.c as u64);
    h = mix(h, m.d as u64);
    h = mix(h, m.e as u64);
    h = mix(h, m.f as u64);
    h
}

/// A struct whose fields rustc reorders; every field written and read.
#[kernel]
pub fn structs_reordered(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let m = mixed_of(at(input, i), at(input, i + 1));
    put(&mut out, idx, mix(digest_mixed(&m), size_of::<Mixed>() as u64));
}

#[inline(never)]
fn bump(m: Mixed, k: u8) -> Mixed {
    Mixed { a: m.a.wrapping_add(k), d: m.d ^ m.b as u32, e: !m.e, ..m }
}

/// A reordered struct by value into and out of a device function
/// (memory ABI), functional update syntax.
#[kernel]
pub fn structs_by_value_call(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let m = mixed_of(at(input, i), at(input, i + 1));
    let n = bump(bump(m, i as u8), 3);
    put(&mut out, idx, digest_mixed(&n));
}

#[inline(never)]
fn update(m: &mut Mixed, w: u64) {
    m.b = m.b.rotate_left(7) ^ w;
    m.c = m.c.wrapping_mul(3);
    if m.e {
        m.f = m.f.wrapping_neg();
    }
}

/// Fields updated through `&mut Struct` in a device function.
#[kernel]
pub fn structs_mut_ref_update(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut m = mixed_of(at(input, i), at(input, i + 1));
    for k in 0..3 {
        update(&mut m, at(input, i + k + 2));
    }
    let p = &mut m.d;
    *p += 1;
    put(&mut out, idx, digest_mixed(&m));
}

#[derive(Clone, Copy)]
#[repr(C)]
struct CLayout {
    a: u8,
    b: u32,
    c: u16,
    d: u64,
}

/// #[repr(C)] struct: declaration-order layout, offset_of!, size_of, align_of.
#[kernel]
pub fn structs_repr_c(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s = CLayout { a: w as u8, b: (w >> 8) as u32, c: (w >> 40) as u16, d: !w };
    let mut h = mix(H0, s.a as u64 + s.b as u64 + s.c as u64 + s.d);
    h = mix(h, offset_of!(CLayout, b) as u64);
    h = mix(h, offset_of!(CLayout, d) as u64);
    h = mix(h, size_of::<CLayout>() as u64);
    h = mix(h, core::mem::align_of::<CLayout>() as u64 * 100 + core::mem::align_of_val(&s.c) as u64);
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
#[repr(C, packed)]
struct Packed {
    a: u8,
    b: u32,
    c: u64,
}

/// #[repr(packed)] struct: unaligned field reads and writes by value.
#[kernel]
pub fn structs_packed(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut arr = [Packed { a: 0, b: 0, c: 0 }; 3];
    for k in 0..3 {
        arr[k] = Packed { a: (w >> k) as u8, b: (w >> (8 * k)) as u32, c: w.rotate_left(k as u32 * 5) };
    }
    let p = arr[i % 3];
    let (a, b, c) = (p.a, p.b, p.c);
    let mut h = mix(H0, a as u64);
    h = mix(h, b as u64);
    h = mix(h, c);
    h = mix(h, size_of::<Packed>() as u64);
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
struct Quad {
    x: u32,
    y: u16,
}

#[derive(Clone, Copy)]
#[repr(C, packed(2))]
struct Packed2 {
    a: u8,
    b: u64,
    c: u16,
    d: u32,
    q: Quad,
    o: Option<u32>,
}

#[inline(never)]
fn quad_of(w: u64) -> Quad {
    Quad { x: (w >> 7) as u32, y: (w >> 40) as u16 }
}

#[inline(never)]
fn digest_packed2(p: Packed2) -> u64 {
    let q = p.q;
    let o = match p.o {
        Some(v) => v as u64 + 1,
        None => 0,
    };
    let mut h = mix(H0, p.a as u64);
    h = mix(h, p.b);
    h = mix(h, p.c as u64);
    h = mix(h, p.d as u64);
    h = mix(h, q.x as u64);
    mix(mix(h, q.y as u64), o)
}

/// #[repr(packed(2))]: a u64 at offset 2, a u32 at 12, a nested struct and
/// an Option at 2-aligned offsets; fields updated in place (+=), a call's
/// result written into a field, an enum field set and matched, the whole
/// struct passed by value to a device function.
#[kernel]
pub fn structs_packed_n(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let v = at(input, i + 1);
    let mut p = Packed2 { a: w as u8, b: v, c: (w >> 16) as u16, d: (v >> 3) as u32, q: quad_of(v), o: None };
    p.b += w.rotate_left(9);
    p.d ^= (w >> 32) as u32;
    p.c = p.c.wrapping_mul(3);
    if w & 4 != 0 {
        p.q = quad_of(w);
    }
    if v & 8 != 0 {
        p.o = Some((w >> 11) as u32);
    }
    let mut h = mix(H0, digest_packed2(p));
    h = mix(h, offset_of!(Packed2, b) as u64);
    h = mix(h, offset_of!(Packed2, d) as u64);
    h = mix(h, offset_of!(Packed2, q) as u64);
    h = mix(h, offset_of!(Packed2, o) as u64);
    h = mix(h, size_of::<Packed2>() as u64 * 100 + core::mem::align_of::<Packed2>() as u64);
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
#[repr(packed)]
struct Rec {
    tag: u8,
    val: u32,
    wide: u64,
}

#[inline(always)]
fn bump_rec(recs: &mut [Rec], j: usize, by: u64) {
    recs[j].val = recs[j].val.wrapping_add(by as u32);
    recs[j].wide ^= by << 3;
    let r = recs[j];
    recs[(j + 1) % recs.len()] = Rec { tag: r.tag ^ 0x5a, val: r.val.rotate_left(1), wide: r.wide + 1 };
}

/// An array of packed structs (13-byte stride: every u32 and u64 field at
/// an odd address), read and written back through a slice index.
#[kernel]
pub fn structs_packed_slice(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut recs = [Rec { tag: 0, val: 0, wide: 0 }; 5];
    for k in 0..5 {
        let w = at(input, i + k);
        recs[k] = Rec { tag: w as u8, val: (w >> 8) as u32, wide: w };
    }
    let s = &mut recs[..];
    for k in 0..7 {
        bump_rec(s, (i + k) % s.len(), at(input, i * 3 + k));
    }
    let mut h = H0;
    for r in s.iter() {
        let r = *r;
        h = mix(h, r.tag as u64);
        h = mix(h, r.val as u64);
        h = mix(h, r.wide);
    }
    put(&mut out, idx, mix(h, size_of::<[Rec; 5]>() as u64));
}

#[derive(Clone, Copy)]
#[repr(packed)]
struct Holder<'a> {
    t: u8,
    r: &'a u64,
    arr: [u32; 3],
    tup: (u8, u16),
    res: Result<u16, u32>,
}

/// What a packed struct (in memory, reached through `&mut`) holds: a
/// reference field dereferenced in place (`*h.r`), an array field indexed
/// by a runtime index and updated, a tuple field's parts, a Result field
/// matched and replaced.
#[kernel]
pub fn structs_packed_inner(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let v = at(input, i + 3);
    let h0 = Holder { t: w as u8, r: &input[(i + 7) % N_IN], arr: [w as u32, v as u32, (w >> 32) as u32],
                      tup: ((v >> 8) as u8, (v >> 16) as u16), res: Ok(w as u16) };
    let mut hs = [h0, Holder { t: 1, r: &input[i % N_IN], arr: [3, 4, 5], tup: (6, 7), res: Err(8) }];
    let h = &mut hs[(v >> 5) as usize & 1];
    let j = (w % 3) as usize;
    h.arr[j] = h.arr[j].wrapping_mul(7) ^ *h.r as u32;
    h.tup.1 = h.tup.1.wrapping_add(h.tup.0 as u16);
    if v & 1 == 1 {
        h.res = Err(v as u32);
    }
    let r = match h.res {
        Ok(x) => x as u64,
        Err(e) => e as u64 + (1 << 40),
    };
    let mut d = mix(H0, h.t as u64);
    d = mix(d, *h.r);
    for k in 0..3 {
        d = mix(d, h.arr[k] as u64);
    }
    d = mix(d, h.tup.0 as u64);
    d = mix(d, h.tup.1 as u64);
    d = mix(d, r);
    d = mix(d, offset_of!(Holder, arr) as u64 * 1000 + offset_of!(Holder, res) as u64);
    put(&mut out, idx, mix(d, size_of::<Holder>() as u64));
}

/// A packed(2) struct without padding (every byte of it is defined).
#[derive(Clone, Copy)]
#[repr(C, packed(2))]
struct Tight {
    a: u16,
    b: u64,
    c: u32,
    d: u16,
}

/// Pointers to packed fields and to unaligned structs: `&raw const` /
/// `&raw mut` with read_unaligned / write_unaligned, and a packed(2)
/// struct read and written at every byte offset of a byte buffer.
#[kernel]
pub fn structs_packed_unaligned_ptr(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let v = at(input, i + 5);
    let mut p = Packed { a: w as u8, b: (w >> 8) as u32, c: v };
    let pb = &raw const p.b;
    let pc = &raw mut p.c;
    let b = unsafe { pb.read_unaligned() };
    unsafe { pc.write_unaligned(v.rotate_right(3) ^ b as u64) };
    unsafe { core::ptr::write_unaligned(&raw mut p.b, b.swap_bytes()) };
    let mut h = mix(H0, p.a as u64);
    h = mix(h, p.b as u64);
    h = mix(h, p.c);
    let mut buf = [0u8; 40];
    for k in 0..40 {
        buf[k] = (at(input, i + k) >> (k % 7)) as u8;
    }
    let off = i % 17; // a 16-byte Tight at off and at off + 3 < 40 - 16
    let at_off = unsafe { buf.as_ptr().add(off) as *const Tight };
    let q = unsafe { at_off.read_unaligned() };
    h = mix(h, q.b);
    h = mix(h, q.c as u64);
    let back = Tight { a: q.a ^ 1, b: q.b.wrapping_add(w), c: q.c.rotate_left(5), d: q.d };
    unsafe { core::ptr::write_unaligned(buf.as_mut_ptr().add(off + 3) as *mut Tight, back) };
    for k in 0..40 {
        h = mix(h, buf[k] as u64);
    }
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
struct Vec3 {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Clone, Copy)]
struct Ray {
    origin: Vec3,
    dir: Vec3,
    id: u16,
}

#[inline(always)]
fn dot(a: Vec3, b: Vec3) -> f32 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

/// Nested structs (struct fields of struct type), f32 fields.
#[kernel]
pub fn structs_nested(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let f = |k: usize| ((at(input, i + k) >> 40) as f32) * 1e-3;
    let r = Ray { origin: Vec3 { x: f(0), y: f(1), z: f(2) }, dir: Vec3 { x: f(3), y: f(4), z: f(5) }, id: i as u16 };
    let mut r2 = r;
    r2.dir.y = -r2.dir.y;
    r2.origin = r.dir;
    let h = mix(mix(canon32(dot(r.origin, r.dir)), canon32(dot(r2.origin, r2.dir))), r2.id as u64);
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
struct Meters(f64);
#[derive(Clone, Copy)]
struct Pair(u32, i16);

/// Tuple structs (newtypes and pairs) and their `.0` / `.1` fields.
#[kernel]
pub fn structs_tuple_structs(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let m = Meters((w >> 11) as f64 * 0.001);
    let p = Pair(w as u32, (w >> 48) as i16);
    let q = Pair(p.1 as u32, p.0 as i16);
    let h = mix(mix(mix(H0, canon64(m.0 * 2.0)), p.0 as u64 ^ q.0 as u64), (p.1 as i64 - q.1 as i64) as u64);
    put(&mut out, idx, h);
}

/// Tuples: (u8, u64, u16) reordering, nested tuples, destructuring, swap.
#[kernel]
pub fn structs_tuples(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let t: (u8, u64, u16) = (w as u8, w.rotate_right(3), (w >> 30) as u16);
    let n: ((i32, bool), (char, f32)) = ((w as i32, w & 1 == 0), ('x', (w >> 40) as f32));
    let (a, b, c) = t;
    let ((d, e), (f, g)) = n;
    let (x, y) = (c, a);
    let (x, y) = (y, x);
    let mut h = mix(H0, a as u64 + b + c as u64);
    h = mix(h, d as u64 ^ e as u64);
    h = mix(h, f as u64 + canon32(g));
    h = mix(h, x as u64 * 65536 + y as u64);
    h = mix(h, size_of::<(u8, u64, u16)>() as u64);
    put(&mut out, idx, h);
}

struct Tagged<T> {
    value: u32,
    _unit: (),
    _marker: PhantomData<T>,
    _empty: [u64; 0],
}

struct Meter;

/// ZST fields: (), PhantomData<T>, [T; 0], unit structs; size_of is 4.
#[kernel]
pub fn structs_zst_fields(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let t: Tagged<Meter> = Tagged { value: at(input, i) as u32, _unit: (), _marker: PhantomData, _empty: [] };
    let _m = Meter;
    let h = mix(mix(H0, t.value as u64), size_of::<Tagged<Meter>>() as u64 + size_of::<Meter>() as u64);
    put(&mut out, idx, h);
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    major: u16,
    minor: u8,
    patch: u32,
}

/// Derived PartialEq / Ord on structs: ==, <, max, cmp.
#[kernel]
pub fn structs_derived_cmp(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let v = if i % 4 == 0 { w } else { at(input, i + 1) };
    let a = Key { major: (w % 4) as u16, minor: (w >> 8) as u8 % 3, patch: (w >> 32) as u32 };
    let b = Key { major: (v % 4) as u16, minor: (v >> 8) as u8 % 3, patch: (v >> 32) as u32 };
    let m = (a == b) as u64 | ((a < b) as u64) << 1 | ((a.cmp(&b) as i8 as u8 as u64) << 8);
    put(&mut out, idx, mix(m, a.max(b).patch as u64));
}

struct Counter {
    n: u64,
    step: u64,
}

impl Counter {
    #[inline(always)]
    fn new(step: u64) -> Self {
        Counter { n: 0, step }
    }
    #[inline(never)]
    fn tick(&mut self) -> u64 {
        self.n = self.n.wrapping_add(self.step);
        self.n
    }
    #[inline(always)]
    fn total(&self) -> u64 {
        self.n
    }
}

/// Methods with &self / &mut self receivers (inherent impl, device call).
#[kernel]
pub fn structs_methods(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut c = Counter::new(at(input, i));
    let mut h = H0;
    for _ in 0..(i % 5 + 1) {
        h = mix(h, c.tick());
    }
    put(&mut out, idx, mix(h, c.total()));
}

#[derive(Clone, Copy)]
struct Big {
    words: [u64; 6],
    tag: u8,
}

#[inline(never)]
fn big_sum(b: Big) -> u64 {
    let mut s = b.tag as u64;
    for k in 0..6 {
        s = mix(s, b.words[k]);
    }
    s
}

/// A 56-byte struct with an array field, by value into a device function.
#[kernel]
pub fn structs_big_by_value(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut b = Big { words: [0; 6], tag: i as u8 };
    for k in 0..6 {
        b.words[k] = at(input, i + k * 3);
    }
    put(&mut out, idx, big_sum(b));
}
