//! Contended atomics on ONE global counter (issue 11; bench/cas): every
//! thread of the grid adds 1 to `c[0]`, by a compare-exchange loop
//! (`load(Relaxed)`, then `compare_exchange_weak(cur, cur + 1, ..)` until
//! it succeeds, as examples/histogram counts) or by one `fetch_add`. The
//! launched kernels (bench/cas/cas.c, host.c) are `cas_relaxed`,
//! `cas_acqrel` (AcqRel / Relaxed, the histogram's pair), `cas_seqcst`
//! (SeqCst / SeqCst), `add_relaxed` (the floor), and the system-scope
//! `sys_cas_acqrel`. The `f_*` kernels are the static table of
//! BENCHMARKS.md: for each scope (core's AtomicU32 = oxide-device's
//! DeviceAtomicU32 at `.gpu`, BlockAtomicU32 `.cta`, SystemAtomicU32
//! `.sys`) and each ordering, a CAS loop and a fetch_add, the PTX of which
//! bench/cas/cas_ref.cu's twins are compared against.
#![no_std]

use core::sync::atomic::{AtomicU32, Ordering};
use oxide_device::atomic::{BlockAtomicU32, DeviceAtomicU32, SystemAtomicU32};
use oxide_device::prelude::*;

/// The loop of examples/histogram: a relaxed load, then a weak
/// compare-exchange until this thread's +1 lands.
macro_rules! cas_loop {
    ($c:expr, $success:expr, $failure:expr) => {{
        let mut cur = $c.load(Ordering::Relaxed);
        loop {
            match $c.compare_exchange_weak(cur, cur.wrapping_add(1), $success, $failure) {
                Ok(_) => break,
                Err(seen) => cur = seen,
            }
        }
    }};
}

#[kernel]
pub fn cas_relaxed(c: &[AtomicU32]) {
    cas_loop!(c[0], Ordering::Relaxed, Ordering::Relaxed)
}

#[kernel]
pub fn cas_acqrel(c: &[AtomicU32]) {
    cas_loop!(c[0], Ordering::AcqRel, Ordering::Relaxed)
}

#[kernel]
pub fn cas_seqcst(c: &[AtomicU32]) {
    cas_loop!(c[0], Ordering::SeqCst, Ordering::SeqCst)
}

#[kernel]
pub fn add_relaxed(c: &[AtomicU32]) {
    c[0].fetch_add(1, Ordering::Relaxed);
}

#[kernel]
pub fn sys_cas_acqrel(c: &[AtomicU32]) {
    // SAFETY: the counter, a u32 only accessed atomically
    let c = unsafe { SystemAtomicU32::from_ptr(c[0].as_ptr()) };
    cas_loop!(c, Ordering::AcqRel, Ordering::Relaxed)
}

/// A CAS loop and a fetch_add of one scope and ordering; the failure
/// ordering is the success one without its release part, as C++'s
/// one-ordering compare_exchange_weak takes it. Every kernel takes core's
/// `&[AtomicU32]` (a C header can describe it; oxide-device's types are
/// not #[repr(C)]) and views c[0] as the scope's type.
macro_rules! forms {
    ($cas:ident, $add:ident, $ty:ty, $order:expr, $failure:expr) => {
        #[kernel]
        pub fn $cas(c: &[AtomicU32]) {
            // SAFETY: the counter, a u32 only accessed atomically
            let c = unsafe { <$ty>::from_ptr(c[0].as_ptr()) };
            cas_loop!(c, $order, $failure)
        }

        #[kernel]
        pub fn $add(c: &[AtomicU32]) {
            // SAFETY: as above
            let c = unsafe { <$ty>::from_ptr(c[0].as_ptr()) };
            c.fetch_add(1, $order);
        }
    };
}

forms!(f_dev_relaxed_cas, f_dev_relaxed_add, AtomicU32, Ordering::Relaxed, Ordering::Relaxed);
forms!(f_dev_acquire_cas, f_dev_acquire_add, AtomicU32, Ordering::Acquire, Ordering::Acquire);
forms!(f_dev_release_cas, f_dev_release_add, AtomicU32, Ordering::Release, Ordering::Relaxed);
forms!(f_dev_acqrel_cas, f_dev_acqrel_add, AtomicU32, Ordering::AcqRel, Ordering::Acquire);
forms!(f_dev_seqcst_cas, f_dev_seqcst_add, AtomicU32, Ordering::SeqCst, Ordering::SeqCst);
forms!(f_gpu_relaxed_cas, f_gpu_relaxed_add, DeviceAtomicU32, Ordering::Relaxed, Ordering::Relaxed);
forms!(f_gpu_acquire_cas, f_gpu_acquire_add, DeviceAtomicU32, Ordering::Acquire, Ordering::Acquire);
forms!(f_gpu_release_cas, f_gpu_release_add, DeviceAtomicU32, Ordering::Release, Ordering::Relaxed);
forms!(f_gpu_acqrel_cas, f_gpu_acqrel_add, DeviceAtomicU32, Ordering::AcqRel, Ordering::Acquire);
forms!(f_gpu_seqcst_cas, f_gpu_seqcst_add, DeviceAtomicU32, Ordering::SeqCst, Ordering::SeqCst);
forms!(f_cta_relaxed_cas, f_cta_relaxed_add, BlockAtomicU32, Ordering::Relaxed, Ordering::Relaxed);
forms!(f_cta_acquire_cas, f_cta_acquire_add, BlockAtomicU32, Ordering::Acquire, Ordering::Acquire);
forms!(f_cta_release_cas, f_cta_release_add, BlockAtomicU32, Ordering::Release, Ordering::Relaxed);
forms!(f_cta_acqrel_cas, f_cta_acqrel_add, BlockAtomicU32, Ordering::AcqRel, Ordering::Acquire);
forms!(f_cta_seqcst_cas, f_cta_seqcst_add, BlockAtomicU32, Ordering::SeqCst, Ordering::SeqCst);
forms!(f_sys_relaxed_cas, f_sys_relaxed_add, SystemAtomicU32, Ordering::Relaxed, Ordering::Relaxed);
forms!(f_sys_acquire_cas, f_sys_acquire_add, SystemAtomicU32, Ordering::Acquire, Ordering::Acquire);
forms!(f_sys_release_cas, f_sys_release_add, SystemAtomicU32, Ordering::Release, Ordering::Relaxed);
forms!(f_sys_acqrel_cas, f_sys_acqrel_add, SystemAtomicU32, Ordering::AcqRel, Ordering::Acquire);
forms!(f_sys_seqcst_cas, f_sys_seqcst_add, SystemAtomicU32, Ordering::SeqCst, Ordering::SeqCst);
