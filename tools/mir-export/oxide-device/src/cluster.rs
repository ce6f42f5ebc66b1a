//! Thread-block clusters (sm_90: compile with `oxidec --arch=sm_90` or
//! later): the blocks of a cluster run at the same time, can wait for
//! each other ([`sync`]) and read and write each other's shared memory
//! (distributed shared memory, [`map_shared`]).
//!
//! A kernel gets clusters from its attribute,
//! `#[kernel(cluster(x, y, z))]` (PTX `.reqnctapercluster`: every launch
//! uses that shape, and the grid must be a multiple of it), or from the
//! host's `ox_launch_cluster` (`cuLaunchKernelEx` with a cluster
//! dimension). Without either, every block is a cluster of one: rank 0 of
//! 1, [`id`] its block index.
//!
//! ```ignore
//! #[kernel(cluster(4))]
//! pub fn k(out: &mut [u32]) {
//!     let mine = shared_array!(u32, 1);
//!     mine[0] = cluster::rank();
//!     cluster::sync();                       // every block wrote its value
//!     let next = (cluster::rank() + 1) % cluster::size();
//!     let theirs = unsafe { *cluster::map_shared(mine.as_mut_ptr(), next) };
//!     cluster::sync();                       // nobody exits while read
//!     ...
//! }
//! ```
//!
//! The pointer [`map_shared`] returns is a generic address into another
//! block's shared memory: ordinary reads and writes through it are PTX's
//! generic `ld` / `st`, and atomics generic `atom`, which reach it. Use
//! device-scope atomics (`oxide_device::atomic`'s `_device` functions or
//! `core::sync::atomic`): a block-scope atomic orders nothing for the
//! threads of another block. A block's shared memory is gone once all its
//! threads return: end with [`sync`] when other blocks may still read it.

use crate::prims::device as ffi;

/// This block's rank in its cluster, `0 .. size()` (x fastest:
/// `%cluster_ctarank`).
#[inline(always)]
pub fn rank() -> u32 {
    unsafe { ffi::__oxide_cluster_ctarank() }
}

/// How many blocks the cluster has (`%cluster_nctarank`).
#[inline(always)]
pub fn size() -> u32 {
    unsafe { ffi::__oxide_cluster_nctarank() }
}

/// This block's index in its cluster (`%cluster_ctaid`).
#[inline(always)]
pub fn block_index() -> (u32, u32, u32) {
    unsafe { (ffi::__oxide_cluster_ctaid_x(), ffi::__oxide_cluster_ctaid_y(), ffi::__oxide_cluster_ctaid_z()) }
}

/// The cluster's shape in blocks (`%cluster_nctaid`).
#[inline(always)]
pub fn dim() -> (u32, u32, u32) {
    unsafe { (ffi::__oxide_cluster_nctaid_x(), ffi::__oxide_cluster_nctaid_y(), ffi::__oxide_cluster_nctaid_z()) }
}

/// The cluster's index in the grid (`%clusterid`).
#[inline(always)]
pub fn id() -> (u32, u32, u32) {
    unsafe { (ffi::__oxide_clusterid_x(), ffi::__oxide_clusterid_y(), ffi::__oxide_clusterid_z()) }
}

/// The grid's shape in clusters (`%nclusterid`).
#[inline(always)]
pub fn grid_dim() -> (u32, u32, u32) {
    unsafe { (ffi::__oxide_nclusterid_x(), ffi::__oxide_nclusterid_y(), ffi::__oxide_nclusterid_z()) }
}

/// Whether the launch gave cluster dimensions (`%is_explicit_cluster`).
#[inline(always)]
pub fn is_explicit() -> bool {
    unsafe { ffi::__oxide_is_explicit_cluster() != 0 }
}

/// `barrier.cluster.arrive` (release): this thread's arrival at the
/// cluster barrier; its earlier writes (shared memory of any block of the
/// cluster, global memory) are seen by the threads after their
/// [`wait`]. Each thread arrives once, then waits, before it arrives
/// again.
#[inline(always)]
pub fn arrive() {
    unsafe { ffi::__oxide_barrier_cluster_arrive() }
}

/// `barrier.cluster.wait` (acquire): waits until every thread of the
/// cluster that has not exited has arrived. The thread must have arrived
/// first.
#[inline(always)]
pub fn wait() {
    unsafe { ffi::__oxide_barrier_cluster_wait() }
}

/// Every thread of the cluster waits for all the others (CUDA's
/// `cluster.sync()`): [`arrive`] then [`wait`].
#[inline(always)]
pub fn sync() {
    arrive();
    wait();
}

/// `mapa`: the address of the same byte as `p` (a pointer into this
/// block's shared memory: a `Shared<T>` static, `shared_array!`,
/// `dynamic_shared`) in the shared memory of the cluster's block `rank`.
///
/// # Safety
/// `p` points into this block's shared memory and `rank < size()`;
/// accesses through the result must end before block `rank` exits.
#[inline(always)]
pub unsafe fn map_shared<T>(p: *mut T, rank: u32) -> *mut T {
    unsafe { ffi::__oxide_mapa(p as *mut u8, rank) as *mut T }
}
