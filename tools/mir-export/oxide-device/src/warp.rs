//! Warp-level primitives: lane and warp ids, lane masks, warp barriers,
//! shuffles, votes, match and reductions (PTX `%laneid`, `%lanemask_*`,
//! `bar.warp.sync`, `shfl.sync`, `vote.sync`, `match.{any,all}.sync`,
//! `redux.sync`; float and other reductions over any member mask by
//! shuffles: [`reduce_sync`](crate::warp::reduce_sync)).
//!
//! A warp is 32 consecutive threads of a block (by linear thread index).
//! Every `*_sync` operation takes a member mask: the lanes that take part,
//! all of which must execute the same operation with the same mask
//! (convergence); a lane not in the mask must not call it. Lanes in
//! divergent branches may each run their own operation with disjoint
//! masks (sm_70+). [`FULL_MASK`](crate::warp::FULL_MASK) names the whole
//! warp. The [`Shuffle`](crate::warp::Shuffle) methods use the whole warp
//! as one segment (CUDA's `width = 32`); their `_width` forms split it
//! into segments of `width` lanes.
//!
//! ```ignore
//! use oxide_device::warp::{self, Shuffle, FULL_MASK};
//! let mut v = x;
//! let mut off = 16;
//! while off > 0 {
//!     v += v.shfl_down(FULL_MASK, off);
//!     off /= 2;
//! }
//! // lane 0 holds the warp's sum
//! ```
//!
//! Hardware: shuffles and votes need sm_30+ (`.sync` forms sm_70+ in
//! practice, PTX 6.0), `match_*` sm_70+, the `reduce_*` functions
//! (`redux.sync`) sm_80+.

// The primitives, as oxidec knows them (prims.rs).
use crate::prims::device as ffi;

/// Every lane of the warp.
pub const FULL_MASK: u32 = 0xffff_ffff;

/// Threads per warp.
pub const WARP_SIZE: u32 = 32;

/// shfl.sync's `c` operand for a whole-warp segment: clamp at lane 31
/// (idx, down, xor) or at lane 0 (up).
const CLAMP_HIGH: u32 = 0x1f;
const CLAMP_LOW: u32 = 0;

/// shfl.sync's `c` operand for segments of `width` lanes (what CUDA's
/// `__shfl*_sync(..., width)` passes): the segment mask `32 - width` in
/// bits 8-12, the clamp lane in bits 0-4.
#[inline(always)]
const fn segments(width: u32, clamp: u32) -> u32 {
    WARP_SIZE.wrapping_sub(width) << 8 | clamp
}

/// This thread's lane in its warp, 0..32 (`%laneid`).
#[inline(always)]
pub fn lane_id() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { ffi::__oxide_laneid() }
}

/// The warp's id on its SM (`%warpid`): volatile, for diagnostics only (a
/// warp may migrate); use `thread_idx / 32` for the warp within the block.
#[inline(always)]
pub fn warp_id() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { ffi::__oxide_warpid() }
}

/// This thread's warp within its block: its linear thread index
/// (`x + y * ntid.x + z * ntid.x * ntid.y`) divided by 32. Unlike
/// [`warp_id`], stable: what CUDA code computes as `threadIdx.x / 32`.
#[inline(always)]
pub fn warp_in_block() -> u32 {
    use crate::thread::*;
    let linear = thread_idx_x() + block_dim_x() * (thread_idx_y() + block_dim_y() * thread_idx_z());
    linear / WARP_SIZE
}

/// Warps per block: the block's threads divided by 32, rounded up (a last
/// partial warp counts).
#[inline(always)]
pub fn warps_per_block() -> u32 {
    use crate::thread::*;
    (block_dim_x() * block_dim_y() * block_dim_z()).div_ceil(WARP_SIZE)
}

/// This warp's index in a one-dimensional grid of blocks:
/// `block_idx_x() * warps_per_block() + warp_in_block()`, in `usize`.
#[inline(always)]
pub fn global_warp_id() -> usize {
    crate::thread::block_idx_x() as usize * warps_per_block() as usize + warp_in_block() as usize
}

/// The lanes whose `lane_id()` equals this lane's: `1 << lane_id()`
/// (`%lanemask_eq`).
#[inline(always)]
pub fn lanemask_eq() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { ffi::__oxide_lanemask_eq() }
}

/// The lanes below this one (`%lanemask_lt`): with a ballot, a lane's rank
/// among the lanes whose predicate holds is
/// `(ballot & lanemask_lt()).count_ones()`.
#[inline(always)]
pub fn lanemask_lt() -> u32 {
    // SAFETY: as lanemask_eq.
    unsafe { ffi::__oxide_lanemask_lt() }
}

/// This lane and the lanes below it (`%lanemask_le`).
#[inline(always)]
pub fn lanemask_le() -> u32 {
    // SAFETY: as lanemask_eq.
    unsafe { ffi::__oxide_lanemask_le() }
}

/// The lanes above this one (`%lanemask_gt`).
#[inline(always)]
pub fn lanemask_gt() -> u32 {
    // SAFETY: as lanemask_eq.
    unsafe { ffi::__oxide_lanemask_gt() }
}

/// This lane and the lanes above it (`%lanemask_ge`).
#[inline(always)]
pub fn lanemask_ge() -> u32 {
    // SAFETY: as lanemask_eq.
    unsafe { ffi::__oxide_lanemask_ge() }
}

/// The SM this thread runs on (`%smid`); for diagnostics. 0 under emulation.
#[inline(always)]
pub fn sm_id() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { ffi::__oxide_smid() }
}

/// The lanes of the warp executing this call together (`activemask`).
#[inline(always)]
pub fn active_mask() -> u32 {
    // SAFETY: no preconditions.
    unsafe { ffi::__oxide_activemask() }
}

/// Waits until every lane of `mask` has reached a `sync_warp(mask)`, and
/// orders their memory accesses before it with those after it
/// (`bar.warp.sync`; CUDA `__syncwarp`). The lanes may reach it from
/// different places (sm_70+); the calling lane must be in `mask`.
#[inline(always)]
pub fn sync_warp(mask: u32) {
    // SAFETY: the lanes of `mask` call it (convergence requirement above).
    unsafe { ffi::__oxide_syncwarp(mask) }
}

/// Whether `pred` holds in every lane of `mask` (`vote.sync.all`).
#[inline(always)]
pub fn all_sync(mask: u32, pred: bool) -> bool {
    // SAFETY: the caller's lanes are those of `mask` (convergence).
    unsafe { ffi::__oxide_vote_all(mask, pred as u32) != 0 }
}

/// Whether `pred` holds in any lane of `mask` (`vote.sync.any`).
#[inline(always)]
pub fn any_sync(mask: u32, pred: bool) -> bool {
    // SAFETY: as `all_sync`.
    unsafe { ffi::__oxide_vote_any(mask, pred as u32) != 0 }
}

/// Bit `i` set iff lane `i` is in `mask` and its `pred` holds
/// (`vote.sync.ballot.b32`).
#[inline(always)]
pub fn ballot_sync(mask: u32, pred: bool) -> u32 {
    // SAFETY: as `all_sync`.
    unsafe { ffi::__oxide_vote_ballot(mask, pred as u32) }
}

/// The lanes of `mask` whose `v` equals this lane's (`match.any.sync.b32`,
/// sm_70+).
#[inline(always)]
pub fn match_any_sync_u32(mask: u32, v: u32) -> u32 {
    // SAFETY: as `all_sync`.
    unsafe { ffi::__oxide_match_any_b32(mask, v) }
}

/// The lanes of `mask` whose `v` equals this lane's (`match.any.sync.b64`,
/// sm_70+).
#[inline(always)]
pub fn match_any_sync_u64(mask: u32, v: u64) -> u32 {
    // SAFETY: as `all_sync`.
    unsafe { ffi::__oxide_match_any_b64(mask, v) }
}

/// `Some(mask)` when every lane of `mask` has the same `v`, else `None`
/// (`match.all.sync.b32`, sm_70+; CUDA `__match_all_sync`).
#[inline(always)]
pub fn match_all_sync_u32(mask: u32, v: u32) -> Option<u32> {
    // SAFETY: as `all_sync`.
    let d = unsafe { ffi::__oxide_match_all_b32(mask, v) };
    if d != 0 { Some(d) } else { None }
}

/// `Some(mask)` when every lane of `mask` has the same `v`, else `None`
/// (`match.all.sync.b64`, sm_70+).
#[inline(always)]
pub fn match_all_sync_u64(mask: u32, v: u64) -> Option<u32> {
    // SAFETY: as `all_sync`.
    let d = unsafe { ffi::__oxide_match_all_b64(mask, v) };
    if d != 0 { Some(d) } else { None }
}

macro_rules! redux {
    ($($(#[$doc:meta])* $name:ident($t:ty) => $sym:ident;)*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(mask: u32, v: $t) -> $t {
            // SAFETY: as `all_sync`.
            unsafe { ffi::$sym(mask, v as u32) as $t }
        }
    )*};
}

redux! {
    /// Wrapping sum of `v` over the lanes of `mask`, in each of them
    /// (`redux.sync.add.u32`, sm_80+).
    reduce_add_sync(u32) => __oxide_redux_add;
    /// Minimum of `v` over `mask` (`redux.sync.min.u32`, sm_80+).
    reduce_min_sync(u32) => __oxide_redux_umin;
    /// Maximum of `v` over `mask` (`redux.sync.max.u32`, sm_80+).
    reduce_max_sync(u32) => __oxide_redux_umax;
    /// Signed minimum of `v` over `mask` (`redux.sync.min.s32`, sm_80+).
    reduce_min_sync_i32(i32) => __oxide_redux_min;
    /// Signed maximum of `v` over `mask` (`redux.sync.max.s32`, sm_80+).
    reduce_max_sync_i32(i32) => __oxide_redux_max;
    /// Bitwise and of `v` over `mask` (`redux.sync.and.b32`, sm_80+).
    reduce_and_sync(u32) => __oxide_redux_and;
    /// Bitwise or of `v` over `mask` (`redux.sync.or.b32`, sm_80+).
    reduce_or_sync(u32) => __oxide_redux_or;
    /// Bitwise xor of `v` over `mask` (`redux.sync.xor.b32`, sm_80+).
    reduce_xor_sync(u32) => __oxide_redux_xor;
}

/// Signed wrapping sum of `v` over the lanes of `mask` (`redux.sync.add`,
/// sm_80+; the same bits as the unsigned sum).
#[inline(always)]
pub fn reduce_add_sync_i32(mask: u32, v: i32) -> i32 {
    reduce_add_sync(mask, v as u32) as i32
}

/// `f` folded over the values of the lanes of `mask`, in lane order
/// (lowest lane first), in each of them: one `shfl.sync.idx` per lane of
/// `mask`, so any mask works (a partial warp, scattered lanes), and every
/// lane gets the same bits. Every lane of `mask` must call it with the
/// same `mask` (as any `*_sync`); `mask` must not be 0.
#[inline(always)]
pub fn reduce_sync<T: Shuffle, F: Fn(T, T) -> T>(mask: u32, v: T, f: F) -> T {
    let first = mask.trailing_zeros();
    let mut acc = v.shfl(mask, first);
    let mut rest = mask & mask.wrapping_sub(1);
    while rest != 0 {
        acc = f(acc, v.shfl(mask, rest.trailing_zeros()));
        rest &= rest - 1;
    }
    acc
}

macro_rules! float_reductions {
    ($($t:ty: $add:ident, $min:ident, $max:ident;)*) => {$(
        #[doc = concat!("Sum of `v` over the lanes of `mask` in lane order (`", stringify!($t),
                        "` additions rounded one by one), the same in each lane; [`reduce_sync`]'s rules.")]
        #[inline(always)]
        pub fn $add(mask: u32, v: $t) -> $t {
            reduce_sync(mask, v, |a: $t, b: $t| a + b)
        }
        #[doc = concat!("Minimum of `v` over the lanes of `mask` (`", stringify!($t),
                        "::min`: a NaN gives the other value); [`reduce_sync`]'s rules.")]
        #[inline(always)]
        pub fn $min(mask: u32, v: $t) -> $t {
            reduce_sync(mask, v, |a: $t, b: $t| a.min(b))
        }
        #[doc = concat!("Maximum of `v` over the lanes of `mask` (`", stringify!($t),
                        "::max`); [`reduce_sync`]'s rules.")]
        #[inline(always)]
        pub fn $max(mask: u32, v: $t) -> $t {
            reduce_sync(mask, v, |a: $t, b: $t| a.max(b))
        }
    )*};
}

float_reductions! {
    f32: reduce_add_sync_f32, reduce_min_sync_f32, reduce_max_sync_f32;
    f64: reduce_add_sync_f64, reduce_min_sync_f64, reduce_max_sync_f64;
}

/// Warp shuffles (`shfl.sync`) of 32- and 64-bit values; a 64-bit value
/// moves as two 32-bit shuffles. Every lane of `mask` must call the same
/// shuffle, and the lane it reads from must be in `mask`. Lane numbers and
/// offsets are taken modulo 32 (the hardware reads their low 5 bits).
///
/// The `_width` forms split the warp into segments of `width` consecutive
/// lanes (CUDA's `width` argument): `width` is a power of two from 1 to 32,
/// the same in every lane; lane numbers are then relative to the segment.
/// A lane whose source falls outside its segment gets its own value (for
/// `shfl_xor_width`, only past the segment's end: an earlier segment can be
/// read, as in CUDA).
pub trait Shuffle: Copy {
    /// The value of lane `src_lane % 32` (`shfl.sync.idx`; CUDA
    /// `__shfl_sync`).
    fn shfl(self, mask: u32, src_lane: u32) -> Self;
    /// The value of lane `lane_id() - delta`, or this lane's own when that is
    /// below 0 (`shfl.sync.up`; CUDA `__shfl_up_sync`).
    fn shfl_up(self, mask: u32, delta: u32) -> Self;
    /// The value of lane `lane_id() + delta`, or this lane's own when that is
    /// past 31 (`shfl.sync.down`; CUDA `__shfl_down_sync`).
    fn shfl_down(self, mask: u32, delta: u32) -> Self;
    /// The value of lane `lane_id() ^ lane_mask` (`shfl.sync.bfly`; CUDA
    /// `__shfl_xor_sync`).
    fn shfl_xor(self, mask: u32, lane_mask: u32) -> Self;
    /// The value of lane `src_lane % width` of this lane's segment (CUDA
    /// `__shfl_sync(mask, v, src_lane, width)`).
    fn shfl_width(self, mask: u32, src_lane: u32, width: u32) -> Self;
    /// The value of lane `lane_id() - delta` when that is in this lane's
    /// segment, else this lane's own (CUDA `__shfl_up_sync` with `width`).
    fn shfl_up_width(self, mask: u32, delta: u32, width: u32) -> Self;
    /// The value of lane `lane_id() + delta` when that is in this lane's
    /// segment, else this lane's own (CUDA `__shfl_down_sync` with `width`).
    fn shfl_down_width(self, mask: u32, delta: u32, width: u32) -> Self;
    /// The value of lane `lane_id() ^ lane_mask` unless that is in a later
    /// segment, else this lane's own (CUDA `__shfl_xor_sync` with `width`).
    fn shfl_xor_width(self, mask: u32, lane_mask: u32, width: u32) -> Self;
}

macro_rules! shuffle32 {
    ($t:ty, $to:expr, $from:expr) => {
        // SAFETY (every method): the lanes of `mask` call it together.
        impl Shuffle for $t {
            #[inline(always)]
            fn shfl(self, mask: u32, src_lane: u32) -> $t {
                $from(unsafe { ffi::__oxide_shfl_idx(mask, $to(self), src_lane, CLAMP_HIGH) })
            }
            #[inline(always)]
            fn shfl_up(self, mask: u32, delta: u32) -> $t {
                $from(unsafe { ffi::__oxide_shfl_up(mask, $to(self), delta, CLAMP_LOW) })
            }
            #[inline(always)]
            fn shfl_down(self, mask: u32, delta: u32) -> $t {
                $from(unsafe { ffi::__oxide_shfl_down(mask, $to(self), delta, CLAMP_HIGH) })
            }
            #[inline(always)]
            fn shfl_xor(self, mask: u32, lane_mask: u32) -> $t {
                $from(unsafe { ffi::__oxide_shfl_bfly(mask, $to(self), lane_mask, CLAMP_HIGH) })
            }
            #[inline(always)]
            fn shfl_width(self, mask: u32, src_lane: u32, width: u32) -> $t {
                let c = segments(width, CLAMP_HIGH);
                $from(unsafe { ffi::__oxide_shfl_idx(mask, $to(self), src_lane, c) })
            }
            #[inline(always)]
            fn shfl_up_width(self, mask: u32, delta: u32, width: u32) -> $t {
                let c = segments(width, CLAMP_LOW);
                $from(unsafe { ffi::__oxide_shfl_up(mask, $to(self), delta, c) })
            }
            #[inline(always)]
            fn shfl_down_width(self, mask: u32, delta: u32, width: u32) -> $t {
                let c = segments(width, CLAMP_HIGH);
                $from(unsafe { ffi::__oxide_shfl_down(mask, $to(self), delta, c) })
            }
            #[inline(always)]
            fn shfl_xor_width(self, mask: u32, lane_mask: u32, width: u32) -> $t {
                let c = segments(width, CLAMP_HIGH);
                $from(unsafe { ffi::__oxide_shfl_bfly(mask, $to(self), lane_mask, c) })
            }
        }
    };
}

shuffle32!(u32, |x: u32| x, |x: u32| x);
shuffle32!(i32, |x: i32| x as u32, |x: u32| x as i32);
shuffle32!(f32, f32::to_bits, f32::from_bits);

/// A 64-bit shuffle: both halves by the same 32-bit shuffle.
macro_rules! halves {
    ($to:expr, $from:expr, $x:expr, |$h:ident| $shfl:expr) => {{
        let v: u64 = $to($x);
        let lo = { let $h = v as u32; $shfl };
        let hi = { let $h = (v >> 32) as u32; $shfl };
        $from((hi as u64) << 32 | lo as u64)
    }};
}

macro_rules! shuffle64 {
    ($t:ty, $to:expr, $from:expr) => {
        impl Shuffle for $t {
            #[inline(always)]
            fn shfl(self, mask: u32, src_lane: u32) -> $t {
                halves!($to, $from, self, |h| h.shfl(mask, src_lane))
            }
            #[inline(always)]
            fn shfl_up(self, mask: u32, delta: u32) -> $t {
                halves!($to, $from, self, |h| h.shfl_up(mask, delta))
            }
            #[inline(always)]
            fn shfl_down(self, mask: u32, delta: u32) -> $t {
                halves!($to, $from, self, |h| h.shfl_down(mask, delta))
            }
            #[inline(always)]
            fn shfl_xor(self, mask: u32, lane_mask: u32) -> $t {
                halves!($to, $from, self, |h| h.shfl_xor(mask, lane_mask))
            }
            #[inline(always)]
            fn shfl_width(self, mask: u32, src_lane: u32, width: u32) -> $t {
                halves!($to, $from, self, |h| h.shfl_width(mask, src_lane, width))
            }
            #[inline(always)]
            fn shfl_up_width(self, mask: u32, delta: u32, width: u32) -> $t {
                halves!($to, $from, self, |h| h.shfl_up_width(mask, delta, width))
            }
            #[inline(always)]
            fn shfl_down_width(self, mask: u32, delta: u32, width: u32) -> $t {
                halves!($to, $from, self, |h| h.shfl_down_width(mask, delta, width))
            }
            #[inline(always)]
            fn shfl_xor_width(self, mask: u32, lane_mask: u32, width: u32) -> $t {
                halves!($to, $from, self, |h| h.shfl_xor_width(mask, lane_mask, width))
            }
        }
    };
}

shuffle64!(u64, |x: u64| x, |x: u64| x);
shuffle64!(i64, |x: i64| x as u64, |x: u64| x as i64);
shuffle64!(f64, f64::to_bits, f64::from_bits);
