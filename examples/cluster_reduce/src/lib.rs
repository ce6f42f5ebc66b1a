//! Thread-block clusters and distributed shared memory (sm_90).
//!
//! `cluster_sum` (`#[kernel(cluster(4))]`, PTX `.reqnctapercluster 4, 1,
//! 1`): each block of 128 threads adds its 128 elements by a tree in its
//! static shared memory; after `cluster::sync()` the cluster's rank-0
//! block reads the other blocks' sums from their shared memory
//! (`cluster::map_shared`) and writes the cluster's total; a last
//! `cluster::sync()` keeps the other blocks' shared memory alive until it
//! has read it.
//!
//! `cluster_ring` (clusters of the launch's shape: `ox_launch_cluster`):
//! each block stores its rank into slot 1 of the next block's dynamic
//! shared memory, and every thread adds 1 to a counter in rank 0's
//! (device-scope atomics through the mapped pointer); after a sync each
//! block writes what it received and the cluster registers to `info`.
//!
//! `cluster_arrive` (sm_90, clusters of the launch's shape): remote
//! mbarrier arrivals (`hopper::mbarrier_arrive_cluster`, as a clustered
//! GEMM's consumers free a stage in every block that multicasts into it).
#![no_std]

use oxide_device::atomic::atomic_add;
use oxide_device::cluster;
use oxide_device::hopper::{fence_mbarrier_init, mbarrier_arrive_cluster, mbarrier_init, mbarrier_try_wait, mbarrier_wait};
use oxide_device::prelude::*;

const BLOCK: usize = 128;

#[kernel(cluster(4))]
pub fn cluster_sum(input: &[u32], out: *mut u32) {
    let tile = shared_array!(u32, 128);
    let t = thread::thread_idx_x() as usize;
    let b = thread::block_idx_x() as usize;
    let i = b * BLOCK + t;
    let tile = tile.as_mut_ptr();
    // SAFETY: t < BLOCK (blocks of BLOCK threads); tile holds BLOCK
    // values; map_shared's ranks are the cluster's (< size()), read
    // between the two cluster syncs, while every block is running.
    unsafe {
        *tile.add(t) = if i < input.len() { input[i] } else { 0 };
        sync_threads();
        let mut s = BLOCK / 2;
        while s > 0 {
            if t < s {
                *tile.add(t) = (*tile.add(t)).wrapping_add(*tile.add(t + s));
            }
            sync_threads();
            s /= 2;
        }
        cluster::sync();
        if cluster::rank() == 0 && t == 0 {
            let mut total = 0u32;
            for r in 0..cluster::size() {
                total = total.wrapping_add(*cluster::map_shared(tile, r));
            }
            *out.add(cluster::id().0 as usize) = total;
        }
        cluster::sync();
    }
}

#[kernel]
pub fn cluster_ring(info: *mut u32) {
    let t = thread::thread_idx_x();
    let slots = dynamic_shared::<u32>();   // [counter, received]
    let rank = cluster::rank();
    let n = cluster::size();
    // SAFETY: the launch gives 8 bytes of dynamic shared memory; ranks
    // are the cluster's; the accesses are ordered by the cluster syncs and
    // end before the last one.
    unsafe {
        if t == 0 {
            *slots = 0;
            *slots.add(1) = u32::MAX;
        }
        cluster::sync();                  // every block's slots are set
        let next = (rank + 1) % n;
        if t == 0 {
            *cluster::map_shared(slots.add(1), next) = rank;
        }
        atomic_add(cluster::map_shared(slots, 0), 1u32);
        cluster::sync();                  // every store and add is in
        if t == 0 {
            let b = (thread::block_idx_y() * thread::grid_dim_x() + thread::block_idx_x()) as usize;
            let (cx, cy, _) = cluster::block_index();
            let (dx, dy, _) = cluster::dim();
            let (ix, iy, _) = cluster::id();
            let (nx, ny, _) = cluster::grid_dim();
            let row = info.add(b * 12);
            let vals = [rank, n, *slots.add(1), *slots, cx, cy, dx, dy, ix, iy, nx + 100 * ny,
                        cluster::is_explicit() as u32];
            for (k, v) in vals.iter().enumerate() {
                *row.add(k) = *v;
            }
        }
        cluster::sync();                  // rank 0's counter was read
    }
}

/// Block r's mbarrier (8 bytes of dynamic shared memory) expects r + 1
/// arrivals, and threads 0 ..= r of the previous block of the ring (none
/// of its own) give them, through `mbarrier_arrive_cluster`; so the phase
/// completes only when every arrival reaches the block it names. Thread 0
/// waits for it, then writes `out[2 b] = 1` and `out[2 b + 1]` = whether
/// the next phase (parity 1) completed too, which no arrival should have
/// reached: 0.
#[kernel]
pub fn cluster_arrive(out: *mut u32) {
    let t = thread::thread_idx_x();
    let bar = dynamic_shared::<u64>();
    let rank = cluster::rank();
    let next = (rank + 1) % cluster::size();
    // SAFETY: the launch gives 8 bytes of dynamic shared memory (8-byte
    // aligned); every block initialises its barrier before the first
    // cluster sync, and none exits before the last, so every arrival
    // finds an initialised barrier in a running block; out has 2 words
    // per block.
    unsafe {
        if t == 0 {
            mbarrier_init(bar, rank + 1);
            fence_mbarrier_init();
        }
        cluster::sync();
        if t <= next {
            mbarrier_arrive_cluster(bar, next);
        }
        if t == 0 {
            mbarrier_wait(bar, 0);
            let b = (thread::block_idx_y() * thread::grid_dim_x() + thread::block_idx_x()) as usize;
            *out.add(2 * b) = 1;
            *out.add(2 * b + 1) = mbarrier_try_wait(bar, 1) as u32;
        }
        cluster::sync();
    }
}
