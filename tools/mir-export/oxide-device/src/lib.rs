//! Device-side API for Rust GPU kernels compiled by oxidec.
//!
//! A kernel crate is `#![no_std]`, depends on this crate and marks its entry
//! points with [`kernel`]:
//!
//! ```ignore
//! use oxide_device::prelude::*;
//!
//! #[kernel]
//! pub fn scale(k: f32, mut v: DisjointSlice<f32>) {
//!     if let Some(x) = v.get_mut(thread::index_1d()) {
//!         *x *= k;
//!     }
//! }
//! ```
//!
//! `mir-export` turns the crate into oxide-mir JSON and `oxidec` into PTX.
//! GPU primitives are bodyless `extern "C"` functions named `__oxide_*`;
//! oxidec replaces each call by the matching PTX instruction, so they have no
//! definition on any target and the crate only links on the device.
#![no_std]

pub use oxide_macros::kernel;

mod prims;

pub mod thread;

/// libdevice math (`use oxide_device::math::Float;` then `x.sin()`).
pub mod math;
/// Half-precision floats: `bf16`, `f16`, pairs `bf16x2`, `f16x2`, fp8 pairs (bits, conversions, arithmetic).
pub mod half;
/// Tensor cores: warp `mma.sync` and `ldmatrix` (sm_80+).
pub mod mma;
/// Asynchronous copies global -> shared (`cp.async`, sm_80+).
pub mod pipeline;
/// Hopper: mbarriers, TMA, wgmma (sm_90, sm_90a).
pub mod hopper;
/// Hints to the optimiser: `hint::unroll(n)` (CUDA's `#pragma unroll`).
pub mod hint;
/// Vector element types (`f32x4`, `bf16x8`, ...) and aligned views of slices.
pub mod vector;
/// Thread-block clusters: ranks, `barrier.cluster`, distributed shared memory (sm_90).
pub mod cluster;
/// Grid-wide barrier (`grid::sync()`, cooperative launches).
pub mod grid;
/// Warp barriers, shuffles, votes, match, reductions, lane and warp ids.
pub mod warp;
/// Barriers with reductions, named barriers, fences, clocks, nanosleep, trap.
pub mod sync;

mod disjoint;
pub use disjoint::{DisjointSlice, DisjointSlice2D, Tile};

pub mod atomic;
/// The device heap (`#[global_allocator] static HEAP: DeviceHeap`): alloc's `Vec` and `Box` in kernels.
pub mod alloc;
pub mod memory;
pub use memory::{dynamic_shared, Constant, Shared};
pub mod printf;
/// `gpu_print!` / `gpu_println!`: Rust format syntax, formatted by core::fmt, one `vprintf` per line.
pub mod print;
/// `device_assert!`: CUDA's device-side assert with the Rust source location.
pub mod assert;

pub use thread::{ThreadIndex, ThreadIndex2D};

// The GPU primitives. oxidec knows each by its exact symbol name
// (docs/oxide-mir-format.md, "Device primitives"; prims.rs).
use prims::device as primitives;

/// Waits until every thread of the block has reached this call, and makes
/// their shared and global memory writes visible to each other
/// (PTX `bar.sync 0`).
///
/// Every thread of the block must reach the same call: calling it in a
/// branch that only some threads take hangs or corrupts the block.
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: a GPU primitive without preconditions beyond the documented
    // convergence requirement.
    unsafe { primitives::__oxide_barrier_sync() }
}

/// Everything a kernel usually needs: `use oxide_device::prelude::*;`.
pub mod prelude {
    pub use crate::thread;
    pub use crate::{kernel, sync_threads, DisjointSlice, DisjointSlice2D, ThreadIndex, ThreadIndex2D};
    pub use crate::{device_assert, dynamic_shared, gpu_print, gpu_printf, gpu_println, shared_array, Constant, Shared};
}
