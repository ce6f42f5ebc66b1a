//! Atomic types of every scope: `{Block,Device,System}Atomic{U32,I32,U64,I64,F32,F64}`.
//!
//! Each is a `T` in memory (`#[repr(transparent)]`: a `&[DeviceAtomicF32]`
//! kernel parameter is an `f32` buffer, [`from_ptr`](DeviceAtomicU32::from_ptr)
//! views any aligned `*mut T`, shared memory included) with
//! `core::sync::atomic`'s methods and orderings; the scope is in the name:
//!
//! | type | PTX scope | visible to |
//! |---|---|---|
//! | `BlockAtomicU32` | `.cta` | the threads of this block (shared memory, block-private counters) |
//! | `DeviceAtomicU32` | `.gpu` | every thread of the grid (what `core::sync::atomic` gives) |
//! | `SystemAtomicU32` | `.sys` | also the host and other GPUs (mapped or managed memory) |
//!
//! Orderings mean what they mean in Rust, at that scope, and compile as
//! `core::sync::atomic`'s do: loads, stores and compare-exchanges carry
//! their ordering (`ld.acquire.gpu`, `st.release.cta`, `atom.acq_rel.sys.cas`),
//! read-modify-writes other than Relaxed are a relaxed `atom` between
//! fences (`fence.acq_rel` / `fence.sc` of the scope before unless
//! Acquire, after unless Release), the PTX memory model's mapping. A
//! `load` with Release or AcqRel, a `store` with Acquire or AcqRel, and a
//! failure ordering of Release or AcqRel panic (trap on the GPU), as in
//! `core`. The ordering may be a run-time value (each is a branch, as in
//! `core`); a constant leaves one.
//!
//! Integers have every operation PTX's `atom` offers (add, sub, and, or,
//! xor, min, max, exchange, compare-and-swap; `fetch_inc` / `fetch_dec`,
//! CUDA's `atomicInc` / `atomicDec`, on the u32 types) plus `fetch_nand`
//! and `fetch_update` (compare-exchange loops). Floats have load, store,
//! `swap`, `fetch_add` / `fetch_sub` (`atom.add.f32` / `.f64`, IEEE
//! round-to-nearest; `fetch_sub(v)` is `fetch_add(-v)`, exactly the same
//! number), `compare_exchange`, which compares the *bits* (so `-0.0` is not
//! `0.0` and a NaN can match itself), and `fetch_min` / `fetch_max` /
//! `fetch_update` as compare-exchange loops (PTX has no f32 / f64
//! `atom.min`), with `f32::min`'s rule: a NaN operand gives the other.
//! `compare_exchange_weak` never fails spuriously here.
//!
//! Under emulation (`--target=host`) one thread runs at a time, so every
//! operation is exact and the orderings hold trivially.
//!
//! LLVM 22's NVPTX backend drops the scope of every read-modify-write
//! (`atomicrmw` becomes `atom` at PTX's default `.gpu` scope): oxidec
//! writes system-scope ones as inline `atom.sys.*` itself (the free
//! `atomic_*_system` functions too); block-scope ones stay `.gpu`, which
//! is stronger than asked and keeps LLVM's `atom.shared` (their loads,
//! stores, compare-exchanges and fences are `.cta`). `fetch_nand` is a
//! compare-exchange loop in every scope.

use core::cell::UnsafeCell;
use core::sync::atomic::Ordering;

use crate::prims::atomic as prims;

/// `$f(args.., $scope, order)` once per ordering (the primitive's scope
/// and ordering are constants, prims.def `ATOMIC_ORD`): 0 Relaxed,
/// 1 Acquire, 2 Release, 3 AcqRel, 4 SeqCst (`Ordering` is
/// `#[non_exhaustive]`: SeqCst is the rest).
macro_rules! by_order {
    ($order:expr, $f:ident($($a:expr),*), $scope:literal) => {
        match $order {
            Ordering::Relaxed => prims::$f($($a,)* $scope, 0),
            Ordering::Acquire => prims::$f($($a,)* $scope, 1),
            Ordering::Release => prims::$f($($a,)* $scope, 2),
            Ordering::AcqRel => prims::$f($($a,)* $scope, 3),
            _ => prims::$f($($a,)* $scope, 4),
        }
    };
}

/// A load's call per ordering (check_load has panicked for Release and
/// AcqRel, which have no load: only the others are called).
macro_rules! load_order {
    ($order:expr, $f:ident($p:expr), $scope:literal) => {
        match $order {
            Ordering::Relaxed => prims::$f($p, $scope, 0),
            Ordering::Acquire => prims::$f($p, $scope, 1),
            _ => prims::$f($p, $scope, 4),
        }
    };
}

/// A store's call per ordering (check_store has panicked for Acquire and
/// AcqRel).
macro_rules! store_order {
    ($order:expr, $f:ident($p:expr, $v:expr), $scope:literal) => {
        match $order {
            Ordering::Relaxed => prims::$f($p, $v, $scope, 0),
            Ordering::Release => prims::$f($p, $v, $scope, 2),
            _ => prims::$f($p, $v, $scope, 4),
        }
    };
}

/// A failure ordering: Relaxed 0, Acquire 1, SeqCst 4 (core's panics
/// for the others).
#[inline(always)]
fn failure_code(failure: Ordering) -> u32 {
    match failure {
        Ordering::Relaxed => 0,
        Ordering::Acquire => 1,
        Ordering::Release => panic!("there is no such thing as a release failure ordering"),
        Ordering::AcqRel => panic!("there is no such thing as an acquire-release failure ordering"),
        _ => 4,
    }
}

/// `$f(p, cmp, new, $scope, success, failure)`: one call per pair, each
/// with constant orderings.
macro_rules! by_orders {
    ($success:expr, $failure:expr, $f:ident($p:expr, $c:expr, $n:expr), $scope:literal) => {
        match failure_code($failure) {
            0 => by_orders!(@fail 0, $success, $f($p, $c, $n), $scope),
            1 => by_orders!(@fail 1, $success, $f($p, $c, $n), $scope),
            _ => by_orders!(@fail 4, $success, $f($p, $c, $n), $scope),
        }
    };
    (@fail $fail:literal, $order:expr, $f:ident($($a:expr),*), $scope:literal) => {
        match $order {
            Ordering::Relaxed => prims::$f($($a,)* $scope, 0, $fail),
            Ordering::Acquire => prims::$f($($a,)* $scope, 1, $fail),
            Ordering::Release => prims::$f($($a,)* $scope, 2, $fail),
            Ordering::AcqRel => prims::$f($($a,)* $scope, 3, $fail),
            _ => prims::$f($($a,)* $scope, 4, $fail),
        }
    };
}

#[inline(always)]
fn check_load(order: Ordering) {
    match order {
        Ordering::Release => panic!("there is no such thing as a release load"),
        Ordering::AcqRel => panic!("there is no such thing as an acquire-release load"),
        _ => {}
    }
}

#[inline(always)]
fn check_store(order: Ordering) {
    match order {
        Ordering::Acquire => panic!("there is no such thing as an acquire store"),
        Ordering::AcqRel => panic!("there is no such thing as an acquire-release store"),
        _ => {}
    }
}

/// What every atomic type has: the cell, construction, views, load,
/// store, swap, fetch_update.
macro_rules! atomic_common {
    ($name:ident, $t:ty, $scope:literal, $load:ident, $store:ident, $exch:ident) => {
        // SAFETY: every access through &self is atomic.
        unsafe impl Sync for $name {}

        impl $name {
            /// A new atomic holding `v`.
            #[inline(always)]
            pub const fn new(v: $t) -> Self {
                $name { v: UnsafeCell::new(v) }
            }

            /// The atomic at `ptr`.
            ///
            /// # Safety
            /// `ptr` is valid and aligned for the type, in global or shared
            /// memory, for `'a`, and while the reference lives every access
            /// to it that may overlap another thread's is atomic (as for
            /// `core::sync::atomic::AtomicU32::from_ptr`).
            #[inline(always)]
            pub unsafe fn from_ptr<'a>(ptr: *mut $t) -> &'a Self {
                // SAFETY: repr(transparent) over the value; the caller's contract.
                unsafe { &*(ptr as *const Self) }
            }

            /// A pointer to the value (for non-atomic use when no other
            /// thread may access it).
            #[inline(always)]
            pub const fn as_ptr(&self) -> *mut $t {
                self.v.get()
            }

            /// The value, through exclusive access (no atomic needed).
            #[inline(always)]
            pub fn get_mut(&mut self) -> &mut $t {
                self.v.get_mut()
            }

            /// The value, consuming the atomic.
            #[inline(always)]
            pub fn into_inner(self) -> $t {
                self.v.into_inner()
            }

            /// Loads the value (`ld.relaxed` / `ld.acquire` of the scope).
            /// Panics for Release and AcqRel.
            #[inline(always)]
            pub fn load(&self, order: Ordering) -> $t {
                check_load(order);
                // SAFETY: self is valid and aligned; every access is atomic.
                unsafe { load_order!(order, $load(self.v.get()), $scope) }
            }

            /// Stores `v` (`st.relaxed` / `st.release` of the scope).
            /// Panics for Acquire and AcqRel.
            #[inline(always)]
            pub fn store(&self, v: $t, order: Ordering) {
                check_store(order);
                // SAFETY: as load.
                unsafe { store_order!(order, $store(self.v.get(), v), $scope) }
            }

            /// Stores `v`, returns the previous value (`atom.exch`).
            #[inline(always)]
            pub fn swap(&self, v: $t, order: Ordering) -> $t {
                // SAFETY: as load.
                unsafe { by_order!(order, $exch(self.v.get(), v), $scope) }
            }

            /// `core::sync::atomic`'s `fetch_update`: applies `f` until a
            /// compare-exchange succeeds; `Ok(previous)`, or `Err(previous)`
            /// when `f` returned `None`.
            #[inline(always)]
            pub fn fetch_update<F: FnMut($t) -> Option<$t>>(
                &self,
                set_order: Ordering,
                fetch_order: Ordering,
                mut f: F,
            ) -> Result<$t, $t> {
                let mut prev = self.load(fetch_order);
                while let Some(next) = f(prev) {
                    match self.compare_exchange_weak(prev, next, set_order, fetch_order) {
                        Ok(x) => return Ok(x),
                        Err(x) => prev = x,
                    }
                }
                Err(prev)
            }
        }
    };
}

/// An atomic integer type of one scope.
macro_rules! atomic_int {
    ($(#[$doc:meta])* $name:ident, $t:ty, $scope:literal,
     $load:ident, $store:ident, $exch:ident, $add:ident, $sub:ident, $and:ident, $or:ident,
     $xor:ident, $nand:ident, $min:ident, $max:ident, $cas:ident) => {
        $(#[$doc])*
        #[repr(transparent)]
        pub struct $name {
            v: UnsafeCell<$t>,
        }

        atomic_common!($name, $t, $scope, $load, $store, $exch);

        impl $name {
            /// Stores `new` if the value is `current` (`atom.cas`):
            /// `Ok(previous)` if it was, else `Err(previous)`. Panics for
            /// a failure ordering of Release or AcqRel.
            #[inline(always)]
            pub fn compare_exchange(&self, current: $t, new: $t, success: Ordering, failure: Ordering)
                -> Result<$t, $t> {
                // SAFETY: as load.
                let old = unsafe { by_orders!(success, failure, $cas(self.v.get(), current, new), $scope) };
                if old == current { Ok(old) } else { Err(old) }
            }

            /// As [`compare_exchange`](Self::compare_exchange) (PTX's
            /// compare-and-swap never fails spuriously).
            #[inline(always)]
            pub fn compare_exchange_weak(&self, current: $t, new: $t, success: Ordering, failure: Ordering)
                -> Result<$t, $t> {
                self.compare_exchange(current, new, success, failure)
            }

            atomic_int!(@rmw fetch_add, $add, $t, $scope, "Adds `v` (wrapping), returns the previous value (`atom.add`).");
            atomic_int!(@rmw fetch_sub, $sub, $t, $scope, "Subtracts `v` (wrapping), returns the previous value.");
            atomic_int!(@rmw fetch_and, $and, $t, $scope, "Bitwise and with `v`, returns the previous value (`atom.and`).");
            atomic_int!(@rmw fetch_or, $or, $t, $scope, "Bitwise or with `v`, returns the previous value (`atom.or`).");
            atomic_int!(@rmw fetch_xor, $xor, $t, $scope, "Bitwise xor with `v`, returns the previous value (`atom.xor`).");
            atomic_int!(@rmw fetch_nand, $nand, $t, $scope, "Stores `!(old & v)`, returns the previous value (a compare-and-swap loop: PTX has no nand).");
            atomic_int!(@rmw fetch_min, $min, $t, $scope, "Stores the minimum of the value and `v` (the type's signedness), returns the previous value (`atom.min`).");
            atomic_int!(@rmw fetch_max, $max, $t, $scope, "Stores the maximum of the value and `v` (the type's signedness), returns the previous value (`atom.max`).");
        }
    };
    (@rmw $method:ident, $prim:ident, $t:ty, $scope:literal, $doc:literal) => {
        #[doc = $doc]
        #[inline(always)]
        pub fn $method(&self, v: $t, order: Ordering) -> $t {
            // SAFETY: self is valid and aligned; every access is atomic.
            unsafe { by_order!(order, $prim(self.v.get(), v), $scope) }
        }
    };
}

/// An atomic float type of one scope; `$bits` the integer type of its
/// bits and `$bcas` that type's compare-and-swap.
macro_rules! atomic_float {
    ($(#[$doc:meta])* $name:ident, $t:ty, $bits:ty, $scope:literal,
     $load:ident, $store:ident, $exch:ident, $add:ident, $bcas:ident) => {
        $(#[$doc])*
        #[repr(transparent)]
        pub struct $name {
            v: UnsafeCell<$t>,
        }

        atomic_common!($name, $t, $scope, $load, $store, $exch);

        impl $name {
            /// Stores `new` if the value has the bits of `current` (`atom.cas`
            /// on the bits: `-0.0` is not `0.0`, a NaN matches its own
            /// bits): `Ok(previous)` if it had, else `Err(previous)`.
            /// Panics for a failure ordering of Release or AcqRel.
            #[inline(always)]
            pub fn compare_exchange(&self, current: $t, new: $t, success: Ordering, failure: Ordering)
                -> Result<$t, $t> {
                let p = self.v.get() as *mut $bits;
                let (c, n) = (current.to_bits(), new.to_bits());
                // SAFETY: as load; the bits are the value's.
                let old = unsafe { by_orders!(success, failure, $bcas(p, c, n), $scope) };
                if old == c { Ok(<$t>::from_bits(old)) } else { Err(<$t>::from_bits(old)) }
            }

            /// As [`compare_exchange`](Self::compare_exchange) (never fails
            /// spuriously).
            #[inline(always)]
            pub fn compare_exchange_weak(&self, current: $t, new: $t, success: Ordering, failure: Ordering)
                -> Result<$t, $t> {
                self.compare_exchange(current, new, success, failure)
            }

            /// Adds `v` (round to nearest), returns the previous value
            /// (`atom.add`).
            #[inline(always)]
            pub fn fetch_add(&self, v: $t, order: Ordering) -> $t {
                // SAFETY: as load.
                unsafe { by_order!(order, $add(self.v.get(), v), $scope) }
            }

            /// Subtracts `v` (`fetch_add(-v)`, the same number), returns
            /// the previous value.
            #[inline(always)]
            pub fn fetch_sub(&self, v: $t, order: Ordering) -> $t {
                self.fetch_add(-v, order)
            }

            /// Stores `old.min(v)` (`f32::min`: a NaN gives the other
            /// operand), returns the previous value; a compare-exchange
            /// loop. `order` is the successful exchange's; the loads use
            /// its failure ordering.
            #[inline(always)]
            pub fn fetch_min(&self, v: $t, order: Ordering) -> $t {
                let fail = failure_of(order);
                match self.fetch_update(order, fail, |x| Some(x.min(v))) {
                    Ok(x) | Err(x) => x,
                }
            }

            /// Stores `old.max(v)` (`f32::max`), returns the previous value;
            /// as [`fetch_min`](Self::fetch_min).
            #[inline(always)]
            pub fn fetch_max(&self, v: $t, order: Ordering) -> $t {
                let fail = failure_of(order);
                match self.fetch_update(order, fail, |x| Some(x.max(v))) {
                    Ok(x) | Err(x) => x,
                }
            }
        }
    };
}

/// Rust's strongest failure ordering a success ordering allows.
#[inline(always)]
fn failure_of(order: Ordering) -> Ordering {
    match order {
        Ordering::Release | Ordering::Relaxed => Ordering::Relaxed,
        Ordering::Acquire | Ordering::AcqRel => Ordering::Acquire,
        _ => Ordering::SeqCst,
    }
}

macro_rules! int_scopes {
    ($t:ty, $block:ident, $device:ident, $system:ident, $load:ident, $store:ident, $exch:ident,
     $add:ident, $sub:ident, $and:ident, $or:ident, $xor:ident, $nand:ident, $min:ident, $max:ident,
     $cas:ident) => {
        atomic_int!(
            #[doc = concat!("A `", stringify!($t), "` updated atomically, block scope (`.cta`).")]
            $block, $t, 0, $load, $store, $exch, $add, $sub, $and, $or, $xor, $nand, $min, $max, $cas);
        atomic_int!(
            #[doc = concat!("A `", stringify!($t), "` updated atomically, device scope (`.gpu`).")]
            $device, $t, 1, $load, $store, $exch, $add, $sub, $and, $or, $xor, $nand, $min, $max, $cas);
        atomic_int!(
            #[doc = concat!("A `", stringify!($t), "` updated atomically, system scope (`.sys`).")]
            $system, $t, 2, $load, $store, $exch, $add, $sub, $and, $or, $xor, $nand, $min, $max, $cas);
    };
}

int_scopes!(u32, BlockAtomicU32, DeviceAtomicU32, SystemAtomicU32, __oxide_atomic_load_u32,
    __oxide_atomic_store_u32, __oxide_atomic_exch_u32, __oxide_atomic_add_u32, __oxide_atomic_sub_u32,
    __oxide_atomic_and_u32, __oxide_atomic_or_u32, __oxide_atomic_xor_u32, __oxide_atomic_nand_u32,
    __oxide_atomic_min_u32, __oxide_atomic_max_u32, __oxide_atomic_cas_u32);
int_scopes!(i32, BlockAtomicI32, DeviceAtomicI32, SystemAtomicI32, __oxide_atomic_load_i32,
    __oxide_atomic_store_i32, __oxide_atomic_exch_i32, __oxide_atomic_add_i32, __oxide_atomic_sub_i32,
    __oxide_atomic_and_i32, __oxide_atomic_or_i32, __oxide_atomic_xor_i32, __oxide_atomic_nand_i32,
    __oxide_atomic_min_i32, __oxide_atomic_max_i32, __oxide_atomic_cas_i32);
int_scopes!(u64, BlockAtomicU64, DeviceAtomicU64, SystemAtomicU64, __oxide_atomic_load_u64,
    __oxide_atomic_store_u64, __oxide_atomic_exch_u64, __oxide_atomic_add_u64, __oxide_atomic_sub_u64,
    __oxide_atomic_and_u64, __oxide_atomic_or_u64, __oxide_atomic_xor_u64, __oxide_atomic_nand_u64,
    __oxide_atomic_min_u64, __oxide_atomic_max_u64, __oxide_atomic_cas_u64);
int_scopes!(i64, BlockAtomicI64, DeviceAtomicI64, SystemAtomicI64, __oxide_atomic_load_i64,
    __oxide_atomic_store_i64, __oxide_atomic_exch_i64, __oxide_atomic_add_i64, __oxide_atomic_sub_i64,
    __oxide_atomic_and_i64, __oxide_atomic_or_i64, __oxide_atomic_xor_i64, __oxide_atomic_nand_i64,
    __oxide_atomic_min_i64, __oxide_atomic_max_i64, __oxide_atomic_cas_i64);

/// CUDA's `atomicInc` / `atomicDec` (PTX `atom.inc.u32` / `atom.dec.u32`).
macro_rules! inc_dec {
    ($($name:ident: $scope:literal;)*) => {$(
        impl $name {
            /// Stores `if old >= limit { 0 } else { old + 1 }`, returns the
            /// previous value (`atom.inc.u32`, CUDA's `atomicInc`: a counter
            /// that wraps from `limit` to 0).
            #[inline(always)]
            pub fn fetch_inc(&self, limit: u32, order: Ordering) -> u32 {
                // SAFETY: self is valid and aligned; every access is atomic.
                unsafe { by_order!(order, __oxide_atomic_inc_u32(self.v.get(), limit), $scope) }
            }

            /// Stores `if old == 0 || old > limit { limit } else { old - 1 }`,
            /// returns the previous value (`atom.dec.u32`, CUDA's `atomicDec`).
            #[inline(always)]
            pub fn fetch_dec(&self, limit: u32, order: Ordering) -> u32 {
                // SAFETY: as fetch_inc.
                unsafe { by_order!(order, __oxide_atomic_dec_u32(self.v.get(), limit), $scope) }
            }
        }
    )*};
}

inc_dec! {
    BlockAtomicU32: 0;
    DeviceAtomicU32: 1;
    SystemAtomicU32: 2;
}

macro_rules! float_scopes {
    ($t:ty, $bits:ty, $block:ident, $device:ident, $system:ident, $load:ident, $store:ident,
     $exch:ident, $add:ident, $bcas:ident) => {
        atomic_float!(
            #[doc = concat!("An `", stringify!($t), "` updated atomically, block scope (`.cta`).")]
            $block, $t, $bits, 0, $load, $store, $exch, $add, $bcas);
        atomic_float!(
            #[doc = concat!("An `", stringify!($t), "` updated atomically, device scope (`.gpu`).")]
            $device, $t, $bits, 1, $load, $store, $exch, $add, $bcas);
        atomic_float!(
            #[doc = concat!("An `", stringify!($t), "` updated atomically, system scope (`.sys`).")]
            $system, $t, $bits, 2, $load, $store, $exch, $add, $bcas);
    };
}

float_scopes!(f32, u32, BlockAtomicF32, DeviceAtomicF32, SystemAtomicF32, __oxide_atomic_load_f32,
    __oxide_atomic_store_f32, __oxide_atomic_exch_f32, __oxide_atomic_add_f32, __oxide_atomic_cas_u32);
float_scopes!(f64, u64, BlockAtomicF64, DeviceAtomicF64, SystemAtomicF64, __oxide_atomic_load_f64,
    __oxide_atomic_store_f64, __oxide_atomic_exch_f64, __oxide_atomic_add_f64, __oxide_atomic_cas_u64);
