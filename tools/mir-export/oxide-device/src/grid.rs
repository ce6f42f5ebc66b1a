//! Grid-wide synchronization (CUDA's `cooperative_groups::this_grid().sync()`).
//!
//! [`sync`] waits until every thread of every block of the launch has
//! called it; what any thread wrote before it is visible to every thread
//! after it (device scope). It needs all of the grid's blocks resident on
//! the GPU at once, which only a cooperative launch promises: launch the
//! kernel with the host's `ox_launch_cooperative` (`cuLaunchCooperativeKernel`,
//! which refuses a grid larger than can be co-resident). Launched another
//! way, a kernel that calls it may hang, as in CUDA (the emulator fails
//! such a launch, saying so).
//!
//! PTX has no grid-scope barrier instruction: as CUDA does, the blocks
//! meet on a counter in global memory, the module's `__oxide_grid_barrier`
//! (a `.global` u32, zero at load; see `src/ir/prims.def`'s `grid_sync`).
//! Cooperative launches of one module's kernels must not overlap.
//!
//! ```ignore
//! #[kernel]
//! pub fn two_phase(input: &[u32], partial: *mut u32, out: *mut u32) {
//!     // phase 1: each block writes partial[block]
//!     grid::sync();
//!     // phase 2: every block reads all of partial
//! }
//! ```

use crate::prims::device as ffi;

/// Waits for every thread of the grid (see the module's documentation).
/// Every thread of every block must call it, the same number of times.
#[inline(always)]
pub fn sync() {
    unsafe { ffi::__oxide_grid_sync(ffi::__oxide_grid_barrier_word()) }
}
