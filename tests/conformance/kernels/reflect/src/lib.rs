//! Conformance group `reflect`: the compile-time facts of a monomorphic
//! instance that rustc computes, each against rustc's CPU results:
//! `TypeId::of::<T>()` and its comparisons (generic code branching on the
//! type, `dyn Any` downcasts through the vtable's `type_id`),
//! `type_name::<T>()` (its bytes copied out), `#[track_caller]`'s
//! `Location::caller()` (line and column; the file's last component,
//! since the CPU reference compiles this crate under another path), and
//! dyn upcasting coercions (`&dyn Sub` to `&dyn Super`).
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use core::any::{type_name, Any, TypeId};
use oxide_device::prelude::*;

pub struct Local(pub u32);
pub enum Either<A, B> {
    L(A),
    R(B),
}

/// A code per type, by comparing TypeIds (generic, not inlined).
#[inline(never)]
fn kind_of<T: 'static>() -> u64 {
    if TypeId::of::<T>() == TypeId::of::<f32>() {
        1
    } else if TypeId::of::<T>() == TypeId::of::<u32>() {
        2
    } else if TypeId::of::<T>() == TypeId::of::<Local>() {
        3
    } else if TypeId::of::<T>() == TypeId::of::<&'static str>() {
        4
    } else {
        5
    }
}

/// `TypeId::of::<T>() == TypeId::of::<U>()` for several T, U, in generic
/// functions not inlined and inline in the kernel.
#[kernel]
pub fn reflect_type_id_eq(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = at(input, i);
    let mut h = mix(H0, kind_of::<f32>());
    h = mix(h, kind_of::<u32>());
    h = mix(h, kind_of::<Local>());
    h = mix(h, kind_of::<&'static str>());
    h = mix(h, kind_of::<i32>());
    h = mix(h, kind_of::<Either<u8, Local>>());
    let same = TypeId::of::<Either<u8, u16>>() == TypeId::of::<Either<u8, u16>>();
    let diff = TypeId::of::<Either<u8, u16>>() != TypeId::of::<Either<u16, u8>>();
    let t = if x & 1 == 0 { TypeId::of::<u64>() } else { TypeId::of::<i64>() };
    h = mix(h, same as u64 | (diff as u64) << 1);
    h = mix(h, (t == TypeId::of::<u64>()) as u64 | ((t == TypeId::of::<i64>()) as u64) << 1);
    put(&mut out, idx, mix(h, x));
}

/// The bytes of `type_name::<T>()` for a few types, folded into the digest.
#[inline(never)]
fn name_hash<T: ?Sized>() -> u64 {
    let n = type_name::<T>();
    let mut h = mix(H0, n.len() as u64);
    for b in n.bytes() {
        h = mix(h, b as u64);
    }
    h
}

/// `type_name` of primitives, references, slices, tuples, arrays, core's
/// and this crate's types, generic ones included; a byte picked by the input.
#[kernel]
pub fn reflect_type_name(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = at(input, i);
    let mut h = mix(H0, name_hash::<u32>());
    h = mix(h, name_hash::<&mut [f64]>());
    h = mix(h, name_hash::<(u8, i128, bool)>());
    h = mix(h, name_hash::<[u16; 7]>());
    h = mix(h, name_hash::<Option<Local>>());
    h = mix(h, name_hash::<Either<char, *const u8>>());
    h = mix(h, name_hash::<str>());
    let n = type_name::<Either<Local, Option<u64>>>().as_bytes();
    h = mix(h, n[x as usize % n.len()] as u64);
    put(&mut out, idx, h);
}

trait Animal: Any {
    fn legs(&self) -> u64;
    fn as_any(&self) -> &dyn Any;
}
struct Dog(u64);
struct Bird(u32);
impl Animal for Dog {
    fn legs(&self) -> u64 {
        4 + self.0
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
impl Animal for Bird {
    fn legs(&self) -> u64 {
        2
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[inline(never)]
fn probe(a: &dyn Any) -> u64 {
    if let Some(d) = a.downcast_ref::<Dog>() {
        mix(1, d.0)
    } else if let Some(b) = a.downcast_ref::<Bird>() {
        mix(2, b.0 as u64)
    } else if let Some(v) = a.downcast_ref::<u64>() {
        mix(3, *v)
    } else {
        4 + a.is::<u32>() as u64
    }
}

/// `dyn Any`: `downcast_ref`, `is` and `type_id` through the vtable, the
/// object picked by the input; `&dyn Animal` upcast to `&dyn Any`.
#[kernel]
pub fn reflect_any_downcast(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = at(input, i);
    let dog = Dog(x >> 8);
    let bird = Bird(x as u32);
    let word = x ^ 0x55;
    let small = x as u32;
    let objs: [&dyn Any; 4] = [&dog, &bird, &word, &small];
    let a = objs[(x % 4) as usize];
    let mut h = mix(H0, probe(a));
    h = mix(h, (a.type_id() == TypeId::of::<Bird>()) as u64);
    let animals: [&dyn Animal; 2] = [&dog, &bird];
    let an = animals[(x >> 3) as usize % 2];
    h = mix(h, an.legs());
    h = mix(h, probe(an.as_any()));
    // upcasting to the supertrait `Any`, then downcasting
    let up: &dyn Any = an;
    h = mix(h, probe(up) ^ (up.type_id() == TypeId::of::<Dog>()) as u64);
    put(&mut out, idx, h);
}

#[track_caller]
#[inline(never)]
fn where_am_i() -> u64 {
    let l = core::panic::Location::caller();
    let f = l.file().as_bytes();
    // the file's last component: the CPU reference names this file by
    // another directory
    let mut k = f.len();
    while k > 0 && f[k - 1] != b'/' {
        k -= 1;
    }
    let mut h = mix(l.line() as u64, l.column() as u64);
    for b in &f[k..] {
        h = mix(h, *b as u64);
    }
    h
}

#[track_caller]
#[inline(always)]
fn outer_inline() -> u64 {
    where_am_i()
}

#[track_caller]
#[inline(never)]
fn outer_never(x: u64) -> u64 {
    mix(where_am_i(), x)
}

#[inline(never)]
fn plain() -> u64 {
    where_am_i()
}

impl Local {
    #[track_caller]
    #[inline(never)]
    fn at(&self, k: u64) -> u64 {
        mix(where_am_i() ^ k, self.0 as u64)
    }
}

/// `Location::caller()` through `#[track_caller]` functions: direct calls,
/// calls through inlined and not inlined `#[track_caller]` callers (the
/// location is the outermost untracked call's), a plain caller, and
/// `#[track_caller]` methods called as methods (the location is the
/// method name's).
#[kernel]
pub fn reflect_caller_location(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = at(input, i);
    let mut h = mix(H0, where_am_i());
    h = mix(h, outer_inline());
    h = mix(h, outer_never(x));
    h = mix(h, plain());
    let l = core::panic::Location::caller();
    h = mix(h, l.line() as u64 ^ (l.column() as u64) << 32);
    let loc = Local(x as u32);
    h = mix(h, loc.at(1));
    h = mix(h, loc . at(2) ^ Local(7).at(x));
    h = mix(h, if x & 1 == 0 { where_am_i() } else { outer_never(x) });
    put(&mut out, idx, h);
}

trait Base {
    fn base(&self) -> u64;
    fn twice(&self) -> u64 {
        self.base().wrapping_mul(2)
    }
}
trait Mid: Base {
    fn mid(&self) -> u64;
}
trait Top: Mid {
    fn top(&self) -> u64;
}
struct P(u64);
struct Q(u32, u16);
impl Base for P {
    fn base(&self) -> u64 {
        self.0 ^ 0xF0
    }
}
impl Mid for P {
    fn mid(&self) -> u64 {
        self.0.rotate_left(7)
    }
}
impl Top for P {
    fn top(&self) -> u64 {
        self.0 >> 3
    }
}
impl Base for Q {
    fn base(&self) -> u64 {
        self.0 as u64 + self.1 as u64
    }
    fn twice(&self) -> u64 {
        self.1 as u64
    }
}
impl Mid for Q {
    fn mid(&self) -> u64 {
        (self.0 as u64) << 16
    }
}
impl Top for Q {
    fn top(&self) -> u64 {
        77
    }
}

#[inline(never)]
fn to_base(t: &dyn Top) -> &dyn Base {
    t
}

#[inline(never)]
fn to_mid(t: &dyn Top) -> &dyn Mid {
    t
}

/// Dyn upcasting (`&dyn Top` to `&dyn Mid` and `&dyn Base`, a chain of
/// single supertraits): calls through the upcast references.
#[kernel]
pub fn reflect_upcast_chain(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = at(input, i);
    let p = P(x);
    let q = Q(x as u32, (x >> 32) as u16);
    let objs: [&dyn Top; 2] = [&p, &q];
    let t = objs[(x & 1) as usize];
    let m = to_mid(t);
    let b = to_base(t);
    let b2: &dyn Base = m;
    let mut h = mix(H0, t.top());
    h = mix(h, m.mid());
    h = mix(h, m.base());
    h = mix(h, b.base());
    h = mix(h, b.twice());
    h = mix(h, b2.twice());
    h = mix(h, core::mem::size_of_val(b2) as u64);
    put(&mut out, idx, h);
}
