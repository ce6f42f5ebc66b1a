// tests/golden/generic_kernel.rs: the source of generic_kernel.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! Generic kernels with named instances: an entry per instance, named
//! kernel_type (a path's last segment), each with the attribute's launch
//! bounds; no entry of the generic function's own name.
#![no_std]
use oxide_device::prelude::*;

pub mod geo {
    #[derive(Clone, Copy)]
    pub struct Pair {
        pub a: u32,
        pub b: u32,
    }
}

pub trait Twice: Copy {
    fn twice(self) -> Self;
}
impl Twice for f32 {
    fn twice(self) -> f32 {
        self + self
    }
}
impl Twice for geo::Pair {
    fn twice(self) -> geo::Pair {
        geo::Pair { a: self.a << 1, b: self.b << 1 }
    }
}
impl Twice for u64 {
    fn twice(self) -> u64 {
        self << 1
    }
}

#[kernel(instances(f32, geo::Pair), launch_bounds(max_threads = 128))]
pub fn double<T: Twice>(x: &[T], mut y: DisjointSlice<T>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(yi) = y.get_mut(idx) {
        *yi = x[i].twice();
    }
}

#[kernel(instances((f32, u64)), reqntid(64))]
pub fn both<A: Twice, B: Twice>(a: A, b: B, out_a: &mut A, out_b: &mut B) {
    *out_a = a.twice();
    *out_b = b.twice();
}
