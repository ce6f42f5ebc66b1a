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

// Dyn upcasting to supertraits off the first chain: rustc's vtable of the
// subtrait holds a pointer to the supertrait's vtable (a `TraitVPtr`
// word), which the coercion loads.

trait Shape {
    fn area(&self) -> u64;
}
mod named {
    pub trait Named {
        fn id(&self) -> u64;
        fn tag(&self) -> u64 {
            self.id() ^ 0x5A
        }
    }
}
use named::Named;
trait Scaled<T> {
    fn scale(&self, t: T) -> u64;
}
trait Widget: Shape + Named + Scaled<u8> + Scaled<u16> {
    fn widget(&self) -> u64;
}
struct Sq(u64);
struct Rect(u32, u16);
impl Shape for Sq {
    fn area(&self) -> u64 {
        self.0.wrapping_mul(self.0)
    }
}
impl Named for Sq {
    fn id(&self) -> u64 {
        self.0 >> 5
    }
}
impl Scaled<u8> for Sq {
    fn scale(&self, t: u8) -> u64 {
        self.0.wrapping_mul(t as u64 + 3)
    }
}
impl Scaled<u16> for Sq {
    fn scale(&self, t: u16) -> u64 {
        self.0 ^ (t as u64) << 17
    }
}
impl Widget for Sq {
    fn widget(&self) -> u64 {
        self.0.rotate_right(9)
    }
}
impl Shape for Rect {
    fn area(&self) -> u64 {
        self.0 as u64 * self.1 as u64
    }
}
impl Named for Rect {
    fn id(&self) -> u64 {
        self.1 as u64 + 1000
    }
    fn tag(&self) -> u64 {
        self.0 as u64 | 1
    }
}
impl Scaled<u8> for Rect {
    fn scale(&self, t: u8) -> u64 {
        (self.0 >> (t % 32)) as u64
    }
}
impl Scaled<u16> for Rect {
    fn scale(&self, t: u16) -> u64 {
        (self.1 as u64).wrapping_sub(t as u64)
    }
}
impl Widget for Rect {
    fn widget(&self) -> u64 {
        77 + self.1 as u64
    }
}

#[inline(never)]
fn as_named(w: &dyn Widget) -> &dyn Named {
    w
}

#[inline(never)]
fn as_scaled16(w: &dyn Widget) -> &dyn Scaled<u16> {
    w
}

/// `Widget: Shape + Named + Scaled<u8> + Scaled<u16>` (a supertrait in a
/// module, one generic supertrait twice): upcasts to each supertrait, the
/// first (a prefix of the vtable) and the others (vtable pointers), with
/// default and overridden methods, and `size_of_val` / `align_of_val`
/// through the upcast objects.
#[kernel]
pub fn reflect_upcast_two_supertraits(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = at(input, i);
    let sq = Sq(x);
    let rect = Rect(x as u32, (x >> 40) as u16);
    let objs: [&dyn Widget; 2] = [&sq, &rect];
    let w = objs[(x >> 2) as usize % 2];
    let n = as_named(w);
    let s: &dyn Shape = w;
    let g16 = as_scaled16(w);
    let g8: &dyn Scaled<u8> = w;
    let mut h = mix(H0, w.widget());
    h = mix(h, n.id());
    h = mix(h, n.tag());
    h = mix(h, s.area());
    h = mix(h, g16.scale((x >> 7) as u16));
    h = mix(h, g8.scale(x as u8));
    h = mix(h, core::mem::size_of_val(n) as u64 ^ (core::mem::align_of_val(g8) as u64) << 8);
    put(&mut out, idx, h);
}

trait Root {
    fn root(&self) -> u64;
    fn root2(&self) -> u64 {
        self.root().wrapping_add(1)
    }
}
trait Left: Root {
    fn left(&self) -> u64;
}
trait Right: Root {
    fn right(&self) -> u64;
}
trait Both: Left + Right {
    fn both(&self) -> u64;
}
struct D1(u64);
struct D2(u8, u64);
impl Root for D1 {
    fn root(&self) -> u64 {
        self.0 ^ 0xABCD
    }
}
impl Left for D1 {
    fn left(&self) -> u64 {
        self.0 << 3
    }
}
impl Right for D1 {
    fn right(&self) -> u64 {
        self.0 >> 3
    }
}
impl Both for D1 {
    fn both(&self) -> u64 {
        self.0.count_ones() as u64
    }
}
impl Root for D2 {
    fn root(&self) -> u64 {
        self.0 as u64
    }
    fn root2(&self) -> u64 {
        self.1.wrapping_mul(3)
    }
}
impl Left for D2 {
    fn left(&self) -> u64 {
        self.1 + 11
    }
}
impl Right for D2 {
    fn right(&self) -> u64 {
        self.1 ^ self.0 as u64
    }
}
impl Both for D2 {
    fn both(&self) -> u64 {
        5
    }
}

#[inline(never)]
fn right_of(b: &dyn Both) -> &dyn Right {
    b
}

#[inline(never)]
fn root_of_right(r: &dyn Right) -> &dyn Root {
    r
}

/// A diamond (`Both: Left + Right`, both `: Root`): `Left` and `Root` are
/// prefixes of `Both`'s vtable, `Right` a vtable pointer; `Right` upcast
/// further to `Root` (a prefix of `Right`'s own vtable), and a `dyn Right`
/// made directly beside the upcast one.
#[kernel]
pub fn reflect_upcast_diamond(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = at(input, i);
    let d1 = D1(x);
    let d2 = D2(x as u8, x >> 8);
    let objs: [&dyn Both; 2] = [&d1, &d2];
    let b = objs[(x & 1) as usize];
    let r = right_of(b);
    let l: &dyn Left = b;
    let root: &dyn Root = b;
    let direct: &dyn Right = &d2;
    let rs = [r, direct];
    let r2 = rs[(x >> 1) as usize % 2];
    let rr = root_of_right(r2);
    let mut h = mix(H0, b.both());
    h = mix(h, r.right());
    h = mix(h, r.root2());
    h = mix(h, l.left());
    h = mix(h, l.root());
    h = mix(h, root.root2());
    h = mix(h, r2.right());
    h = mix(h, rr.root());
    h = mix(h, rr.root2());
    put(&mut out, idx, h);
}

trait L1a {
    fn l1a(&self) -> u64;
}
trait L1b: Any {
    fn l1b(&self) -> u64;
}
trait L2: L1a + L1b {
    fn l2(&self) -> u64;
}
trait L2x {
    fn l2x(&self) -> u64;
}
trait L3: L2x + L2 {
    fn l3(&self) -> u64;
}
struct E1(u64);
struct E2(u16);
impl L1a for E1 {
    fn l1a(&self) -> u64 {
        self.0 + 1
    }
}
impl L1b for E1 {
    fn l1b(&self) -> u64 {
        self.0 + 2
    }
}
impl L2 for E1 {
    fn l2(&self) -> u64 {
        self.0 + 3
    }
}
impl L2x for E1 {
    fn l2x(&self) -> u64 {
        self.0 + 4
    }
}
impl L3 for E1 {
    fn l3(&self) -> u64 {
        self.0 + 5
    }
}
impl L1a for E2 {
    fn l1a(&self) -> u64 {
        self.0 as u64 * 10
    }
}
impl L1b for E2 {
    fn l1b(&self) -> u64 {
        self.0 as u64 * 20
    }
}
impl L2 for E2 {
    fn l2(&self) -> u64 {
        self.0 as u64 * 30
    }
}
impl L2x for E2 {
    fn l2x(&self) -> u64 {
        self.0 as u64 * 40
    }
}
impl L3 for E2 {
    fn l3(&self) -> u64 {
        self.0 as u64 * 50
    }
}

#[inline(never)]
fn l2_of(t: &dyn L3) -> &dyn L2 {
    t
}

#[inline(never)]
fn l1b_of(t: &dyn L2) -> &dyn L1b {
    t
}

/// Three levels (`L3: L2x + L2`, `L2: L1a + L1b`, `L1b: Any`), upcast at
/// each level: `L3` to `L2` (a vtable pointer), that `L2` to `L1b` (a
/// vtable pointer in the pointed-to vtable) and `L1a` (its prefix), `L3`
/// directly to `L1a`, `L1b` and `L2x`, `L1b` on to `Any` and downcast.
#[kernel]
pub fn reflect_upcast_levels(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let x = at(input, i);
    let e1 = E1(x);
    let e2 = E2(x as u16);
    let objs: [&dyn L3; 2] = [&e1, &e2];
    let t = objs[(x >> 5) as usize % 2];
    let two = l2_of(t);
    let twos: [&dyn L2; 2] = [two, &e1];
    let two = twos[(x >> 9) as usize % 2];
    let b = l1b_of(two);
    let a: &dyn L1a = two;
    let a3: &dyn L1a = t;
    let b3: &dyn L1b = t;
    let x2: &dyn L2x = t;
    let any: &dyn Any = b;
    let mut h = mix(H0, t.l3());
    h = mix(h, two.l2());
    h = mix(h, two.l1b());
    h = mix(h, b.l1b());
    h = mix(h, a.l1a());
    h = mix(h, a3.l1a());
    h = mix(h, b3.l1b());
    h = mix(h, x2.l2x());
    h = mix(h, any.is::<E1>() as u64 | (any.is::<E2>() as u64) << 1);
    h = mix(h, any.downcast_ref::<E2>().map_or(9, |e| e.0 as u64));
    put(&mut out, idx, h);
}

/// Types declared in the kernel's body: `type_name` (rustc's
/// `conf_reflect::reflect_local_types::Inner`) and TypeIds, alone and
/// inside other types, in generic functions not inlined and inline.
#[kernel]
pub fn reflect_local_types(input: &[u64], mut out: DisjointSlice<u64>) {
    #[allow(dead_code)]
    struct Inner(u32);
    #[allow(dead_code)]
    enum Pick {
        A,
        B(u8),
    }
    let (idx, i) = tid();
    let x = at(input, i);
    let mut h = mix(H0, name_hash::<Inner>());
    h = mix(h, name_hash::<Option<Pick>>());
    h = mix(h, name_hash::<(Inner, &'static [Pick])>());
    h = mix(h, kind_of::<Inner>() ^ kind_of::<Either<Pick, u8>>() << 4);
    let t = if x & 1 == 0 { TypeId::of::<Inner>() } else { TypeId::of::<Pick>() };
    h = mix(h, (t == TypeId::of::<Inner>()) as u64 | ((t == TypeId::of::<Pick>()) as u64) << 1);
    h = mix(h, (TypeId::of::<Inner>() == TypeId::of::<Local>()) as u64);
    let n = type_name::<Either<Inner, Pick>>().as_bytes();
    h = mix(h, n[x as usize % n.len()] as u64);
    put(&mut out, idx, h);
}
