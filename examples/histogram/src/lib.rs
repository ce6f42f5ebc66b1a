//! A 256-bin histogram of the low byte of `data`: each block counts into
//! a shared-memory histogram with block-scoped atomic adds, then adds it
//! to the global `bins` with `AtomicU32::fetch_add`. `stats` gathers, with
//! global atomics: [0] max, [1] min, [2] count (by a compare-exchange
//! loop), [3] OR, [4] XOR of all values; [5] is the number of blocks that
//! found a non-empty bin 7, counted with `swap`-free `fetch_add`s and
//! [6] the last block's id by `swap`.
#![no_std]

use core::sync::atomic::{AtomicU32, Ordering};
use oxide_device::atomic::atomic_add_block;
use oxide_device::prelude::*;

#[kernel]
pub fn histogram(data: &[u32], bins: &[AtomicU32], stats: &[AtomicU32]) {
    let local = shared_array!(u32, 256);
    let t = thread::thread_idx_x() as usize;
    let nthreads = (thread::block_dim_x() * thread::grid_dim_x()) as usize;
    let mut i = thread::block_idx_x() as usize * thread::block_dim_x() as usize + t;
    let mut k = t;
    while k < 256 {
        local[k] = 0;
        k += thread::block_dim_x() as usize;
    }
    sync_threads();
    let (mut mx, mut mn, mut or, mut xor, mut n) = (0u32, u32::MAX, 0u32, 0u32, 0u32);
    while i < data.len() {
        let v = data[i];
        // SAFETY: an element of the block's shared array, only accessed
        // atomically until the next barrier.
        unsafe { atomic_add_block(&mut local[(v & 255) as usize] as *mut u32, 1) };
        mx = mx.max(v);
        mn = mn.min(v);
        or |= v;
        xor ^= v;
        n += 1;
        i += nthreads;
    }
    stats[0].fetch_max(mx, Ordering::Relaxed);
    stats[1].fetch_min(mn, Ordering::Relaxed);
    let mut cur = stats[2].load(Ordering::Relaxed);
    loop {
        match stats[2].compare_exchange_weak(cur, cur.wrapping_add(n), Ordering::AcqRel, Ordering::Relaxed) {
            Ok(_) => break,
            Err(seen) => cur = seen,
        }
    }
    stats[3].fetch_or(or, Ordering::Relaxed);
    stats[4].fetch_xor(xor, Ordering::Relaxed);
    sync_threads();
    let mut k = t;
    while k < 256 {
        let c = local[k];
        if c != 0 {
            bins[k].fetch_add(c, Ordering::Relaxed);
        }
        if k == 7 && c != 0 {
            stats[5].fetch_add(1, Ordering::SeqCst);
            stats[6].swap(thread::block_idx_x() + 1, Ordering::AcqRel);
        }
        k += thread::block_dim_x() as usize;
    }
}
