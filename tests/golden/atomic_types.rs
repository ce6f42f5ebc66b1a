// tests/golden/atomic_types.rs: the source of atomic_types.mir.json
// (mir-export of a crate with this lib.rs and oxide-device).
//! oxide_device::atomic's types: orderings and scopes become ld.acquire,
//! st.release, atom.acq_rel.<scope>.cas, atom.<sem>.<scope>.<op> (SeqCst:
//! fence.sc first); warp lane masks and a partial-warp f32 reduction.
#![no_std]
use core::sync::atomic::Ordering;
use oxide_device::atomic::*;
use oxide_device::prelude::*;

#[kernel]
pub fn k(f: &[DeviceAtomicF32], b: &[BlockAtomicU32], s: &[SystemAtomicI64], o: &[DeviceAtomicU64]) {
    let i = thread::thread_idx_x() as usize;
    f[0].fetch_add(1.5, Ordering::Relaxed);
    f[1].fetch_max(i as f32, Ordering::AcqRel);
    b[0].fetch_add(1, Ordering::Acquire);
    let _ = b[1].compare_exchange(0, 5, Ordering::AcqRel, Ordering::Acquire);
    s[0].fetch_min(-(i as i64), Ordering::SeqCst);
    s[1].store(7, Ordering::Release);
    o[0].fetch_or(s[2].load(Ordering::Acquire) as u64, Ordering::Relaxed);
}

#[kernel]
pub fn w(x: &[f32], mut out: DisjointSlice<f32>, mut m: DisjointSlice<u32>) {
    use oxide_device::warp;
    let idx = thread::index_1d();
    let i = idx.get();
    let mask = 0x0000_ff0f;
    let v = x[i];
    let lane = warp::lane_id();
    let mut r = 0.0;
    if mask & (1 << lane) != 0 {
        r = warp::reduce_add_sync_f32(mask, v) + warp::reduce_max_sync_f32(mask, v);
    }
    let masks = warp::lanemask_eq() ^ warp::lanemask_lt() ^ warp::lanemask_le() ^ warp::lanemask_gt() ^ warp::lanemask_ge() ^ warp::warp_in_block();
    if let Some(o) = m.get_mut(idx) { *o = masks; }
    if let Some(o) = out.get_mut(idx) { *o = r; }
}

/// System scope: every read-modify-write is `atom.sys` (LLVM 22 would
/// leave atomicrmw at .gpu); sub adds the negation.
#[kernel]
pub fn sys(u: &[SystemAtomicU32], f: &[SystemAtomicF32], d: &[SystemAtomicU64], v: u32, p: *mut f64) {
    u[0].fetch_sub(v, Ordering::Relaxed);
    u[1].fetch_max(v, Ordering::Relaxed);
    u[2].swap(v, Ordering::AcqRel);
    f[0].fetch_add(2.0, Ordering::Relaxed);
    f[1].swap(1.0, Ordering::Relaxed);
    d[0].fetch_add(v as u64, Ordering::SeqCst);
    unsafe { oxide_device::atomic::atomic_add_system(p, 1.0) };
    u[3].fetch_inc(9, Ordering::Relaxed);
    u[4].fetch_dec(9, Ordering::Relaxed);
}

/// Orderings known only at run time: a branch per ordering, each call
/// valid (no Release load, no Acquire store reaches LLVM).
#[inline(never)]
fn pick(k: u32) -> Ordering {
    match k { 0 => Ordering::Relaxed, 1 => Ordering::Acquire, 2 => Ordering::Release, 3 => Ordering::AcqRel, _ => Ordering::SeqCst }
}

#[kernel]
pub fn runtime_order(a: &[DeviceAtomicU32], f: &[SystemAtomicF32], k: u32, j: u32, mut out: DisjointSlice<u32>) {
    let o = pick(k);
    let x = a[0].load(o);
    a[1].store(x, o);
    let r = a[2].compare_exchange(1, 2, o, pick(j));
    f[0].fetch_add(1.0, o);
    if let Some(w) = out.get_mut(thread::index_1d()) { *w = x + r.unwrap_or(7) + a[3].fetch_max(3, o); }
}
