//! Conformance group `names`: types of one name in several modules of the
//! crate (`a::Mixed`, `b::Mixed`, `a::deep::Mixed`, `c::inner::Mixed`),
//! with different fields, layouts, variant orders and impls; mir-export
//! and oxidec must tell them apart by their full paths.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

pub mod a;
pub mod b;

pub mod c {
    pub mod inner {
        /// A tuple struct named like the others.
        #[derive(Clone, Copy)]
        pub struct Mixed(pub u16, pub u64, pub u8);

        impl Mixed {
            #[inline(never)]
            pub fn new(w: u64) -> Mixed {
                Mixed((w >> 20) as u16, w.wrapping_mul(0x9E37_79B9), w as u8)
            }

            #[inline(never)]
            pub fn digest(&self) -> u64 {
                (self.0 as u64) ^ self.1 ^ ((self.2 as u64) << 30)
            }
        }

        impl crate::Score for Mixed {
            #[inline(never)]
            fn score(&self) -> u64 {
                self.1.wrapping_sub(self.0 as u64)
            }
        }
    }
}

pub trait Score {
    fn score(&self) -> u64;
}

#[inline(never)]
fn score_of<T: Score>(t: &T) -> u64 {
    t.score()
}

/// Four `Mixed`s of four modules built, stored in arrays (their layouts
/// matter) and digested through their own inherent methods.
#[kernel]
pub fn names_mixed_inherent(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let am = [a::Mixed::new(w), a::Mixed::new(w ^ 1)];
    let bm = [b::Mixed::new(w), b::Mixed::new(w >> 1)];
    let dm = [a::deep::Mixed::new(w), a::deep::Mixed::new(w + 1), a::deep::Mixed::new(w + 2)];
    let cm = [c::inner::Mixed::new(w), c::inner::Mixed::new(!w)];
    let k = i % 2;
    let mut h = mix(H0, am[k].digest());
    h = mix(h, bm[k].digest());
    h = mix(h, dm[i % 3].digest());
    h = mix(h, cm[k].digest());
    h = mix(h, am[k].y ^ bm[k].w ^ cm[k].1);
    put(&mut out, idx, h);
}

/// The same trait implemented for each `Mixed`: each call must reach its
/// own impl, directly and through a generic function.
#[kernel]
pub fn names_mixed_trait(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let x = a::Mixed { x: w as u8, y: w >> 3, z: 9 };
    let y = b::Mixed { z: 1, x: 2, y: 3, w };
    let z = a::deep::Mixed::Big(w, 7);
    let v = c::inner::Mixed(4, w, 5);
    let mut h = mix(H0, x.score());
    h = mix(h, y.score());
    h = mix(h, z.score());
    h = mix(h, v.score());
    h = mix(h, score_of(&x) ^ score_of(&y).rotate_left(1) ^ score_of(&z).rotate_left(2) ^ score_of(&v).rotate_left(3));
    put(&mut out, idx, h);
}

#[inline(never)]
fn kind_a(w: u64) -> a::Kind {
    match w % 3 {
        0 => a::Kind::X,
        1 => a::Kind::Y(w as u32),
        _ => a::Kind::Z { v: w as u16 },
    }
}

#[inline(never)]
fn kind_b(w: u64) -> b::Kind {
    match w % 3 {
        0 => b::Kind::X,
        1 => b::Kind::Y(w as u8),
        _ => b::Kind::Z { v: w },
    }
}

/// Two enums `Kind` whose variants come in opposite orders: variant
/// indices and discriminants must be each type's own.
#[kernel]
pub fn names_kind_variants(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let ka = [kind_a(w), kind_a(w + 1), kind_a(w + 2)];
    let kb = [kind_b(w), kind_b(w + 1), kind_b(w + 2)];
    let mut h = H0;
    for j in 0..3 {
        let va = match ka[(i + j) % 3] {
            a::Kind::X => 1,
            a::Kind::Y(y) => y as u64 + 2,
            a::Kind::Z { v } => v as u64 + 3,
        };
        let vb = match kb[(i + j) % 3] {
            b::Kind::X => 4,
            b::Kind::Y(y) => y as u64 + 5,
            b::Kind::Z { v } => v ^ 6,
        };
        h = mix(mix(h, va), vb);
        h = mix(h, (ka[j] == a::Kind::X) as u64 + 2 * (kb[j] == b::Kind::X) as u64);
        // the discriminant values are each enum's own declaration order
        h = mix(h, discr_a(&ka[j]) * 10 + discr_b(&kb[j]));
    }
    put(&mut out, idx, h);
}

#[inline(always)]
fn discr_a(k: &a::Kind) -> u64 {
    match k {
        a::Kind::X => 0,
        a::Kind::Y(_) => 1,
        a::Kind::Z { .. } => 2,
    }
}

#[inline(always)]
fn discr_b(k: &b::Kind) -> u64 {
    match k {
        b::Kind::Z { .. } => 0,
        b::Kind::Y(_) => 1,
        b::Kind::X => 2,
    }
}

/// Same-named types as parameters of a non-inlined function: their
/// layouts cross a call by reference and by value.
#[inline(never)]
fn combine(p: &a::Mixed, q: b::Mixed, r: &mut c::inner::Mixed, s: a::deep::Mixed) -> u64 {
    r.1 ^= p.y;
    r.0 = r.0.wrapping_add(q.x);
    p.digest() ^ q.digest().rotate_left(11) ^ s.digest().rotate_left(23)
}

/// Mixed of every module through one call, and sizes of each.
#[kernel]
pub fn names_mixed_call(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let p = a::Mixed::new(w);
    let q = b::Mixed::new(at(input, i + 1));
    let mut r = c::inner::Mixed::new(at(input, i + 2));
    let s = a::deep::Mixed::new(at(input, i + 3));
    let mut h = mix(H0, combine(&p, q, &mut r, s));
    h = mix(h, r.digest());
    h = mix(h, core::mem::size_of::<a::Mixed>() as u64);
    h = mix(h, core::mem::size_of::<b::Mixed>() as u64);
    h = mix(h, core::mem::size_of::<c::inner::Mixed>() as u64);
    h = mix(h, core::mem::size_of::<a::deep::Mixed>() as u64);
    put(&mut out, idx, h);
}
