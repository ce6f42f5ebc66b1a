//! Vector element types: groups of 2, 4, 8 or 16 scalars aligned to their
//! size (8 or 16 bytes), which a load or store moves in one access
//! (`ld.global.v4.b32`, `ld.shared.v2.b64`, `st.global.v4.b32`, ...), and
//! aligned views of slices as slices of them.
//!
//! ```ignore
//! use oxide_device::vector::{as_vectors, f32x4};
//! let (body, tail) = as_vectors::<f32x4>(src).expect("src 16-byte aligned");
//! ```
//!
//! oxidec gives every load and store the alignment its place proves (a
//! field of a 16-byte aligned struct at offset 8 is 8-byte aligned), so
//! LLVM merges the accesses of a vector's lanes into one vector access.
//! Arithmetic on float vectors is lane by lane and Rust-exact (no
//! contraction into FMA).

use core::ops::{Add, Div, Index, IndexMut, Mul, Sub};

use crate::half::{bf16, f16};

/// A vector type: `LANES` values of `Elem`, no padding, aligned to its size.
///
/// # Safety
/// Implemented only by this module's `#[repr(C, align(N))]` wrappers of
/// `[Elem; LANES]` whose size is `LANES * size_of::<Elem>()`.
pub unsafe trait Vector: Copy {
    /// The lane type.
    type Elem: Copy;
    /// The number of lanes.
    const LANES: usize;
}

macro_rules! vector {
    ($(#[$doc:meta])* $name:ident, $t:ty, $n:literal, $align:literal) => {
        $(#[$doc])*
        #[allow(non_camel_case_types)]
        #[repr(C, align($align))]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name(pub [$t; $n]);

        impl $name {
            /// The number of lanes.
            pub const LANES: usize = $n;

            /// A vector of these lanes.
            #[inline(always)]
            pub const fn new(lanes: [$t; $n]) -> Self {
                Self(lanes)
            }

            /// Every lane `x`.
            #[inline(always)]
            pub const fn splat(x: $t) -> Self {
                Self([x; $n])
            }

            /// The lanes.
            #[inline(always)]
            pub const fn to_array(self) -> [$t; $n] {
                self.0
            }
        }

        // SAFETY: repr(C, align($align)) over [$t; $n], $align = its size
        unsafe impl Vector for $name {
            type Elem = $t;
            const LANES: usize = $n;
        }

        impl Index<usize> for $name {
            type Output = $t;
            #[inline(always)]
            fn index(&self, i: usize) -> &$t {
                &self.0[i]
            }
        }

        impl IndexMut<usize> for $name {
            #[inline(always)]
            fn index_mut(&mut self, i: usize) -> &mut $t {
                &mut self.0[i]
            }
        }

        const _: () = assert!(core::mem::size_of::<$name>() == $align);
    };
}

macro_rules! lanewise {
    ($name:ident, $n:literal, $($tr:ident $f:ident $op:tt),*) => {$(
        impl $tr for $name {
            type Output = Self;
            /// Lane by lane.
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                let mut r = self;
                let mut i = 0;
                while i < $n {
                    r.0[i] = self.0[i] $op o.0[i];
                    i += 1;
                }
                r
            }
        }
    )*};
}

vector!(/// Four f32 lanes, 16 bytes.
    f32x4, f32, 4, 16);
vector!(/// Two f32 lanes, 8 bytes.
    f32x2, f32, 2, 8);
vector!(/// Two f64 lanes, 16 bytes.
    f64x2, f64, 2, 16);
vector!(/// Four u32 lanes, 16 bytes.
    u32x4, u32, 4, 16);
vector!(/// Two u32 lanes, 8 bytes.
    u32x2, u32, 2, 8);
vector!(/// Four i32 lanes, 16 bytes.
    i32x4, i32, 4, 16);
vector!(/// Two u64 lanes, 16 bytes.
    u64x2, u64, 2, 16);
vector!(/// Eight u16 lanes, 16 bytes.
    u16x8, u16, 8, 16);
vector!(/// Sixteen u8 lanes, 16 bytes.
    u8x16, u8, 16, 16);
vector!(/// Eight bf16 lanes, 16 bytes (one `ldmatrix` row, one 16-byte
    /// `cp.async`).
    bf16x8, bf16, 8, 16);
vector!(/// Eight f16 lanes, 16 bytes.
    f16x8, f16, 8, 16);

lanewise!(f32x4, 4, Add add +, Sub sub -, Mul mul *, Div div /);
lanewise!(f32x2, 2, Add add +, Sub sub -, Mul mul *, Div div /);
lanewise!(f64x2, 2, Add add +, Sub sub -, Mul mul *, Div div /);

/// `s` as vectors of `V`: `Some((body, tail))`, the whole vectors from the
/// start of `s` and the elements after them, when `s` starts at `V`'s
/// alignment; `None` when it does not (the alignment is checked once, here).
#[inline(always)]
pub fn as_vectors<V: Vector>(s: &[V::Elem]) -> Option<(&[V], &[V::Elem])> {
    let p = s.as_ptr();
    if p as usize % core::mem::align_of::<V>() != 0 {
        return None;
    }
    let n = s.len() / V::LANES;
    // SAFETY: p is aligned for V, and the first n * LANES elements are n
    // vectors (V is LANES elements without padding); the tail follows.
    unsafe {
        Some((
            &*core::ptr::slice_from_raw_parts(p as *const V, n),
            &*core::ptr::slice_from_raw_parts(p.add(n * V::LANES), s.len() - n * V::LANES),
        ))
    }
}
