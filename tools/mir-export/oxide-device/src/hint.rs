//! Hints to the optimiser.

use crate::prims::device as ffi;

/// Unrolls the innermost loop around the call `count` times, like CUDA's
/// `#pragma unroll count`: 0 unrolls it completely (its trip count must
/// then be a constant), 1 not at all. Call it in the loop's body, in the
/// function that has the loop (not in a helper the loop calls); `count`
/// must be a constant. oxidec says where either is not so. The hint
/// changes the speed only, never the results; at -O0 nothing is unrolled.
///
/// ```ignore
/// for k in 0..8 {
///     hint::unroll(0);
///     acc += a[k] * b[k];
/// }
/// ```
#[inline(always)]
pub fn unroll(count: u32) {
    // SAFETY: a hint; no effect on memory or control flow.
    unsafe { ffi::__oxide_loop_unroll(count) }
}
