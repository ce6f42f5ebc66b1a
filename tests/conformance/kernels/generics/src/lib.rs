//! Conformance group `generics`: generic kernels with named instances
//! (`#[kernel(instances(..))]`): one kernel body, one entry per instance
//! type (`generics_axpy_f32`, ...), with one and two type parameters, a
//! struct instance named by its last path segment, and launch attributes
//! that every instance gets.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use core::ops::{Add, Mul, Sub};
use oxide_device::prelude::*;

/// The element types the kernels are generic over: made from an input
/// word, digested back to one.
pub trait Elem: Copy + PartialOrd + Add<Output = Self> + Mul<Output = Self> + Sub<Output = Self> {
    fn from_word(w: u64) -> Self;
    fn digest(self) -> u64;
    fn one() -> Self;
}

impl Elem for f32 {
    #[inline(always)]
    fn from_word(w: u64) -> f32 {
        f32_of(w)
    }
    #[inline(always)]
    fn digest(self) -> u64 {
        canon32(self)
    }
    #[inline(always)]
    fn one() -> f32 {
        1.0
    }
}

impl Elem for f64 {
    #[inline(always)]
    fn from_word(w: u64) -> f64 {
        f64_of(w)
    }
    #[inline(always)]
    fn digest(self) -> u64 {
        canon64(self)
    }
    #[inline(always)]
    fn one() -> f64 {
        1.0
    }
}

impl Elem for u32 {
    #[inline(always)]
    fn from_word(w: u64) -> u32 {
        w as u32
    }
    #[inline(always)]
    fn digest(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn one() -> u32 {
        1
    }
}

impl Elem for i64 {
    #[inline(always)]
    fn from_word(w: u64) -> i64 {
        w as i64
    }
    #[inline(always)]
    fn digest(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn one() -> i64 {
        1
    }
}

pub mod wide {
    /// A struct instance type: the kernel's instance is named `..._Acc`.
    #[derive(Clone, Copy, PartialEq, PartialOrd)]
    pub struct Acc {
        pub lo: u32,
        pub hi: u16,
    }

    impl core::ops::Add for Acc {
        type Output = Acc;
        #[inline(always)]
        fn add(self, o: Acc) -> Acc {
            Acc { lo: self.lo.wrapping_add(o.lo), hi: self.hi ^ o.hi }
        }
    }
    impl core::ops::Sub for Acc {
        type Output = Acc;
        #[inline(always)]
        fn sub(self, o: Acc) -> Acc {
            Acc { lo: self.lo.wrapping_sub(o.lo), hi: self.hi.rotate_left(3) ^ o.hi }
        }
    }
    impl core::ops::Mul for Acc {
        type Output = Acc;
        #[inline(always)]
        fn mul(self, o: Acc) -> Acc {
            Acc { lo: self.lo.wrapping_mul(o.lo | 1), hi: self.hi.wrapping_mul(o.hi) }
        }
    }
    impl super::Elem for Acc {
        #[inline(always)]
        fn from_word(w: u64) -> Acc {
            Acc { lo: w as u32, hi: (w >> 40) as u16 }
        }
        #[inline(always)]
        fn digest(self) -> u64 {
            self.lo as u64 | (self.hi as u64) << 32
        }
        #[inline(always)]
        fn one() -> Acc {
            Acc { lo: 1, hi: 1 }
        }
    }
}

/// `a * x + y` over words of the input, a short reduction and a
/// comparison, for f32, f64, u32, i64 and a struct (`generics_axpy_Acc`).
#[kernel(instances(f32, f64, u32, i64, wide::Acc))]
pub fn generics_axpy<T: Elem>(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = T::from_word(at(input, i));
    let x = T::from_word(at(input, i + 1));
    let y = T::from_word(at(input, i + 2));
    let r = a * x + y;
    let mut acc = T::one();
    for k in 0..4 {
        let v = T::from_word(at(input, i + 3 + k));
        acc = if v < acc { acc - v } else { acc * v + T::one() };
    }
    put(&mut out, idx, mix(mix(H0, r.digest()), acc.digest()));
}

/// Two type parameters (`instances((f32, u32), (f64, i64))`), with
/// `reqntid(64)` on every instance (the harness launches 64 threads a
/// block).
#[kernel(instances((f32, u32), (f64, i64)), reqntid(64))]
pub fn generics_pair<A: Elem, B: Elem>(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = [A::from_word(at(input, i)), A::from_word(at(input, i + 7))];
    let b = B::from_word(at(input, i + 1));
    let m = if a[0] < a[1] { a[1] - a[0] } else { a[0] * a[1] };
    put(&mut out, idx, mix(mix(H0, m.digest()), (b * b + B::one()).digest()));
}

/// A generic helper the inliner leaves a call (`#[inline(never)]`), from
/// a generic kernel: one device function per instance.
#[inline(never)]
fn square_sum<T: Elem>(xs: &[T; 3]) -> T {
    xs[0] * xs[0] + xs[1] * xs[1] + xs[2] * xs[2]
}

/// A generic kernel calling a non-inlined generic helper.
#[kernel(instances(f64, u32))]
pub fn generics_helper<T: Elem>(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let xs = [T::from_word(at(input, i)), T::from_word(at(input, i + 2)), T::from_word(at(input, i + 4))];
    put(&mut out, idx, mix(H0, square_sum(&xs).digest()));
}
