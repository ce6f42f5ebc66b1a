//! tests/gpu/prims: every tensor-core and asynchronous-copy primitive of
//! the registry in a small kernel, and the atomic types, lane masks and
//! partial-warp reductions of oxide-device. host.c runs each kernel on the GPU
//! module and on the emulated one (`oxidec --target=host`) with the same
//! inputs and compares the outputs word by word (and with its own CPU
//! reference). One warp per block unless a kernel says otherwise; block
//! `b` works on tile `b` of each array.
#![no_std]

use oxide_device::hopper::{
    bulk_copy_g2s, elect_sync, fence_mbarrier_init, fence_proxy_async_shared, mbarrier_arrive,
    mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_inval, mbarrier_wait,
};
use oxide_device::mma::*;
use oxide_device::pipeline::*;
use oxide_device::prelude::*;

/// Lane `l` of block `b`: fragment index `32 b + l`.
#[inline(always)]
fn frag() -> usize {
    thread::block_idx_x() as usize * 32 + thread::thread_idx_x() as usize
}

macro_rules! mma_f32_kernel {
    ($name:ident, $mma:ident) => {
        /// d[i] = the lane's D registers for its a[i], b[i], c[i].
        #[kernel]
        pub fn $name(a: *const [u32; 4], b: *const [u32; 2], c: *const [f32; 4], d: *mut [f32; 4]) {
            let i = frag();
            // SAFETY: the host gives every lane of the grid its fragment.
            unsafe {
                let mut acc = *c.add(i);
                $mma(&*a.add(i), &*b.add(i), &mut acc);
                *d.add(i) = acc;
            }
        }
    };
}

mma_f32_kernel!(mma_bf16, mma_m16n8k16_bf16);
mma_f32_kernel!(mma_f16, mma_m16n8k16_f16);
mma_f32_kernel!(mma_tf32, mma_m16n8k8_tf32);

macro_rules! mma_i32_kernel {
    ($name:ident, $mma:ident) => {
        /// d[i] = the lane's D registers for its a[i], b[i], c[i].
        #[kernel]
        pub fn $name(a: *const [u32; 4], b: *const [u32; 2], c: *const [i32; 4], d: *mut [i32; 4]) {
            let i = frag();
            // SAFETY: as in mma_bf16.
            unsafe {
                let mut acc = *c.add(i);
                $mma(&*a.add(i), &*b.add(i), &mut acc);
                *d.add(i) = acc;
            }
        }
    };
}

mma_i32_kernel!(mma_s8, mma_m16n8k32_s8);
mma_i32_kernel!(mma_u8, mma_m16n8k32_u8);
mma_i32_kernel!(mma_s8_sat, mma_m16n8k32_s8_satfinite);
mma_i32_kernel!(mma_u8_sat, mma_m16n8k32_u8_satfinite);

/// out[i] = tf32::from_f32 of the f32 of bits base + i, for i < n.
#[kernel]
pub fn tf32_cvt(base: u32, n: u32, out: *mut u32) {
    let i = thread::block_idx_x() * thread::block_dim_x() + thread::thread_idx_x();
    if i < n {
        // SAFETY: out has n elements.
        unsafe { *out.add(i as usize) = tf32::from_f32(f32::from_bits(base.wrapping_add(i))) };
    }
}

/// The shared tile of the ldmatrix / stmatrix kernels: 32 rows of 24
/// 16-bit elements (48 bytes: every 16-byte half-row aligned).
const ROWS: usize = 32;
const LD: usize = 24;

#[repr(C, align(128))]
struct Tile([u16; ROWS * LD]);

static TILE: Shared<Tile> = Shared::uninit();

/// The element lane `lane` of block `b` points at: row (13 lane + b) % 32,
/// column 0 or 8 (lanes in an order unlike their rows', 16-byte aligned).
#[inline(always)]
fn row_of(lane: usize, b: usize) -> usize {
    ((13 * lane + b) % ROWS) * LD + (lane % 2) * 8
}

/// The tile of block b (src[b]) into shared memory, a row per lane.
#[inline(always)]
fn tile_in(src: *const [u16; ROWS * LD], t: *mut u16, lane: usize, b: usize) {
    let mut c = 0;
    while c < LD {
        // SAFETY: 32 rows of LD elements, lane < 32.
        unsafe { *t.add(lane * LD + c) = (*src.add(b))[lane * LD + c] };
        c += 1;
    }
}

/// out[b] = lane l's registers of ldmatrix x1, x2, x4, x1.trans,
/// x2.trans, x4.trans (14 words per lane) of block b's tile, lane l giving
/// the address row_of(l, b).
#[kernel]
pub fn ldmatrix_all(src: *const [u16; ROWS * LD], out: *mut [u32; 14]) {
    let lane = thread::thread_idx_x() as usize;
    let b = thread::block_idx_x() as usize;
    let t = TILE.as_mut_ptr() as *mut u16;
    tile_in(src, t, lane, b);
    sync_threads();
    // SAFETY: every lane's address is a 16-byte-aligned row of the tile.
    let p = unsafe { t.add(row_of(lane, b)) };
    let r = unsafe {
        let (x1, x2, x4) = (ldmatrix_x1(p), ldmatrix_x2(p), ldmatrix_x4(p));
        let (t1, t2, t4) = (ldmatrix_x1_trans(p), ldmatrix_x2_trans(p), ldmatrix_x4_trans(p));
        [
            x1[0], x2[0], x2[1], x4[0], x4[1], x4[2], x4[3], t1[0], t2[0], t2[1], t4[0], t4[1], t4[2], t4[3],
        ]
    };
    // SAFETY: one element per lane of the grid.
    unsafe { *out.add(frag()) = r };
}

/// Zeroes the tile (a row per lane), then a block barrier.
#[inline(always)]
fn tile_zero(t: *mut u16, lane: usize) {
    let mut c = 0;
    while c < LD {
        // SAFETY: as in tile_in.
        unsafe { *t.add(lane * LD + c) = 0 };
        c += 1;
    }
    sync_threads();
}

/// The tile to out (a row per lane), after a block barrier.
#[inline(always)]
fn tile_out(t: *const u16, out: *mut u16, lane: usize) {
    sync_threads();
    let mut c = 0;
    while c < LD {
        // SAFETY: out has ROWS * LD elements.
        unsafe { *out.add(lane * LD + c) = *t.add(lane * LD + c) };
        c += 1;
    }
    sync_threads();
}

/// out[b][v] = the tile after stmatrix variant v (x1, x2, x4, x1.trans,
/// x2.trans, x4.trans) stored lane l's registers regs[32 b + l] at
/// row_of(l, b) of a zeroed tile.
#[kernel]
pub fn stmatrix_all(regs: *const [u32; 4], out: *mut [[u16; ROWS * LD]; 6]) {
    let lane = thread::thread_idx_x() as usize;
    let b = thread::block_idx_x() as usize;
    let t = TILE.as_mut_ptr() as *mut u16;
    // SAFETY: one element per lane; the addresses as in ldmatrix_all.
    let r = unsafe { *regs.add(frag()) };
    let p = unsafe { t.add(row_of(lane, b)) };
    let o = unsafe { (*out.add(b)).as_mut_ptr() as *mut u16 };
    let mut v = 0;
    while v < 6 {
        tile_zero(t, lane);
        unsafe {
            match v {
                0 => stmatrix_x1(p, [r[0]]),
                1 => stmatrix_x2(p, [r[0], r[1]]),
                2 => stmatrix_x4(p, r),
                3 => stmatrix_x1_trans(p, [r[0]]),
                4 => stmatrix_x2_trans(p, [r[0], r[1]]),
                _ => stmatrix_x4_trans(p, r),
            }
            tile_out(t, o.add(v * ROWS * LD), lane);
        }
        v += 1;
    }
}

/// cp.async: 8 groups per lane, group g copying CP_SIZE[g] bytes (4, 8,
/// 16 ca, 16 cg, twice) from src[b] at the lane's CP_OFF[g] into the same
/// place of its shared memory (prefilled with 0xa5), then wait_group(7),
/// read group 0, wait_group(6), read group 1, ... wait_group(0), read
/// group 7; then one more 16-byte copy (cg) and wait_all. out[b]: what
/// each lane read at those places (CP_BYTES per lane; the gaps stay 0).
const CP_BYTES: usize = 112;
const CP_OFF: [usize; 9] = [0, 8, 16, 32, 48, 56, 64, 80, 96];
const CP_SIZE: [usize; 9] = [4, 8, 16, 16, 4, 8, 16, 16, 16];

#[repr(C, align(128))]
struct CpArea([u8; 32 * CP_BYTES]);

static CP: Shared<CpArea> = Shared::uninit();

/// Copies group k's bytes of the lane (at base) from shared memory to out.
#[inline(always)]
unsafe fn cp_read(s: *const u8, o: *mut u8, base: usize, k: usize) {
    let mut i = CP_OFF[k];
    while i < CP_OFF[k] + CP_SIZE[k] {
        *o.add(base + i) = *s.add(base + i);
        i += 1;
    }
}

#[kernel]
pub fn cp_async_all(src: *const [u8; 32 * CP_BYTES], out: *mut [u8; 32 * CP_BYTES]) {
    let lane = thread::thread_idx_x() as usize;
    let b = thread::block_idx_x() as usize;
    let base = lane * CP_BYTES;
    let s = CP.as_mut_ptr() as *mut u8;
    // SAFETY: every address is inside the lane's CP_BYTES of src[b] and of
    // the shared area, aligned to the copy's size (CP_BYTES and the
    // offsets are multiples of it; src and the area are 16-byte aligned).
    unsafe {
        let g = (*src.add(b)).as_ptr();
        let o = (*out.add(b)).as_mut_ptr();
        let mut i = 0;
        while i < CP_BYTES {
            *s.add(base + i) = 0xa5;
            i += 1;
        }
        sync_threads();
        let mut k = 0;
        while k < 8 {
            let (d, f) = (s.add(base + CP_OFF[k]), g.add(base + CP_OFF[k]));
            match k % 4 {
                0 => cp_async_ca_4(d, f),
                1 => cp_async_ca_8(d, f),
                2 => cp_async_ca_16(d, f),
                _ => cp_async_cg_16(d, f),
            }
            commit_group();
            k += 1;
        }
        let mut k = 0;
        while k < 8 {
            wait_group(7 - k as u32);
            cp_read(s, o, base, k);
            k += 1;
        }
        cp_async_cg_16(s.add(base + CP_OFF[8]), g.add(base + CP_OFF[8]));
        wait_all();
        cp_read(s, o, base, 8);
    }
}

/// The bulk-copy kernel's shared memory: the buffer, then the mbarrier.
const BULK: usize = 1024;

#[repr(C, align(128))]
struct BulkArea {
    buf: [u8; BULK],
    bar: u64,
}

static BK: Shared<BulkArea> = Shared::uninit();

/// Blocks of 64 threads (2 warps): an mbarrier for 2 arrivals per phase;
/// per round r (2 rounds: parities 0 and 1), an elected lane of warp 0
/// arrives expecting BULK bytes and bulk-copies src[b][r] into shared
/// memory, an elected lane of warp 1 arrives; everyone waits for the
/// phase and copies the buffer to out[b][r]. elected[b][r][t]: 1 where
/// thread t was elected.
#[kernel]
pub fn bulk_mbarrier(src: *const [[u8; BULK]; 2], out: *mut [[u8; BULK]; 2], elected: *mut [[u32; 64]; 2]) {
    let tid = thread::thread_idx_x() as usize;
    let b = thread::block_idx_x() as usize;
    let area = BK.as_mut_ptr();
    // SAFETY: the buffer and the barrier are in shared memory, aligned;
    // src, out, elected have one element per block.
    unsafe {
        let buf = (*area).buf.as_mut_ptr();
        let bar = &mut (*area).bar as *mut u64;
        if tid == 0 {
            mbarrier_init(bar, 2);
            fence_mbarrier_init();
        }
        fence_proxy_async_shared();
        sync_threads();
        let mut r = 0;
        while r < 2 {
            let e = elect_sync(0xffff_ffff);
            (*elected.add(b))[r][tid] = e as u32;
            if e && tid < 32 {
                fence_proxy_async_shared();   // the reads of round r - 1 first
                mbarrier_arrive_expect_tx(bar, BULK as u32);
                bulk_copy_g2s(buf, (*src.add(b))[r].as_ptr(), BULK as u32, bar);
            } else if e {
                mbarrier_arrive(bar);
            }
            mbarrier_wait(bar, r as u32);
            let mut i = tid;
            while i < BULK {
                (*out.add(b))[r][i] = *buf.add(i);
                i += 64;
            }
            sync_threads();
            r += 1;
        }
        if tid == 0 {
            mbarrier_inval(bar);
        }
    }
}

// ---- oxide_device::atomic's types, warp lane masks and reductions ----

use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release, SeqCst};
use oxide_device::atomic::*;
use oxide_device::warp;

/// Thread t (blocks of 64) alone on out[t]: every method of the atomic
/// types on values no other thread touches, each type in another scope,
/// so each result is the CPU reference's (host.c, atomic_single_ref).
/// x[t]: four random u64. out[t]: 16 words (host.c names them).
#[kernel]
pub fn atomic_single(x: *const [u64; 4], out: *mut [u64; 16]) {
    let t = thread::index_1d().get();
    // SAFETY: one x and one out per thread; out is 8-byte aligned, its
    // words only this thread's.
    unsafe {
        let [a, b, c, d] = *x.add(t);
        let o = (*out.add(t)).as_mut_ptr();
        // u32, block scope, in o[0]'s low half
        let u = BlockAtomicU32::from_ptr(o as *mut u32);
        u.store(a as u32, Release);
        let s = u.swap(b as u32, SeqCst) as u64;
        let ok = u.compare_exchange(b as u32, c as u32, AcqRel, Acquire);
        let err = u.compare_exchange_weak(b as u32 ^ 1, d as u32, Relaxed, Relaxed);
        let n = u.fetch_nand(a as u32, AcqRel) as u64;
        let sub = u.fetch_sub(b as u32, Release) as u64;
        let upd = u.fetch_update(SeqCst, Acquire, |v| Some(v.rotate_left(7)));
        let last = u.load(Acquire) as u64;
        *o.add(1) = s | (last << 32);
        *o.add(2) = match ok { Ok(v) => v as u64 | 1 << 32, Err(v) => v as u64 };
        *o.add(3) = match err { Ok(v) => v as u64 | 1 << 32, Err(v) => v as u64 };
        *o.add(4) = n | (sub << 32);
        *o.add(5) = match upd { Ok(v) => v as u64, Err(_) => u64::MAX };
        // i32, system scope: signed min / max, and / or / xor
        let p = o.add(6) as *mut i32;
        let s32 = SystemAtomicI32::from_ptr(p);
        s32.store(c as i32, Relaxed);
        let m0 = s32.fetch_min(d as i32, AcqRel) as u32 as u64;
        let m1 = s32.fetch_max(a as i32, SeqCst) as u32 as u64;
        let m2 = s32.fetch_and(b as i32, Acquire) as u32 as u64;
        let m3 = s32.fetch_or(c as i32 >> 3, Release) as u32 as u64;
        s32.fetch_xor(d as i32, Relaxed);
        *o.add(7) = m0 | m1 << 32;
        *o.add(8) = m2 | m3 << 32;
        // u64, device scope: unsigned min / max, add (wrapping)
        let w = DeviceAtomicU64::from_ptr(o.add(9));
        w.store(a, SeqCst);
        let k0 = w.fetch_add(b, AcqRel);
        let k1 = w.fetch_max(c, Relaxed);
        let k2 = w.fetch_min(d, Acquire);
        *o.add(10) = k0 ^ k1.rotate_left(21) ^ k2.rotate_left(42);
        // i64, block scope: signed max, then a failing compare-exchange
        let q = BlockAtomicI64::from_ptr(o.add(11) as *mut i64);
        q.store(d as i64, Release);
        q.fetch_max(a as i64, AcqRel);
        let f = q.compare_exchange(b as i64, c as i64, SeqCst, SeqCst);
        *o.add(12) = match f { Ok(v) => v as u64 ^ 1, Err(v) => v as u64 };
        // f32, device scope (o[13] low half): add, sub, swap, the bits' cas, min / max
        let g = DeviceAtomicF32::from_ptr(o.add(13) as *mut f32);
        let fa = (a % 1000) as f32 * 0.25;
        g.store(-0.0, Relaxed);
        let z = g.compare_exchange(0.0, 1.0, AcqRel, Acquire).is_err() as u64;   // -0.0 is not 0.0
        g.fetch_add(fa, Relaxed);
        g.fetch_sub(1.5, AcqRel);
        g.fetch_max(-2.0, SeqCst);
        g.fetch_min((b % 1000) as f32 * 0.5, Release);
        let old = g.swap(f32::from_bits(d as u32 | 0x7f80_0001), Relaxed);   // a NaN
        let same = g.compare_exchange(f32::from_bits(d as u32 | 0x7f80_0001), 2.5, SeqCst, Relaxed).is_ok() as u64;
        *o.add(14) = old.to_bits() as u64 | z << 32 | same << 33;
        // f64, system scope: add, and max with a NaN operand (the other one wins)
        let h = SystemAtomicF64::from_ptr(o.add(15) as *mut f64);
        h.store((c % 4096) as f64, Release);
        h.fetch_add((d % 4096) as f64 * 0.125, SeqCst);
        h.fetch_max(f64::NAN, AcqRel);
        h.fetch_min((a % 8192) as f64, Relaxed);
    }
}

static TICKETS: Shared<[u32; 64]> = Shared::uninit();
static COUNT: Shared<BlockAtomicU32> = Shared::uninit();
static FSUM: Shared<BlockAtomicF32> = Shared::uninit();

/// Contention: blocks of 64 threads. In shared memory (block scope) each
/// thread takes a ticket (fetch_add) and marks it, and adds its index to
/// an f32 sum; in global memory (g, zeroed by the host: 8 words) every
/// thread of the grid adds 1 (u32, device), its index as f64 (system),
/// increments through compare-exchange loops (fetch_update), takes the
/// min / max of v (i64 system, f32 device: compare-exchange loop), counts
/// with CUDA's atomicInc (limit 100, device) and atomicDec (50, system). Every
/// result is independent of the order: per block out[b] = the number of
/// tickets marked once, the f32 sum's bits.
#[kernel]
pub fn atomic_contend(v: *const i64, g: *mut u64, out: *mut [u32; 2]) {
    let tid = thread::thread_idx_x() as usize;
    let b = thread::block_idx_x() as usize;
    let i = thread::index_1d().get();
    // SAFETY: the shared statics are block-wide, initialised by thread 0
    // before the barrier; g has 8 words, v one per thread, out one per block.
    unsafe {
        let tickets = &mut *TICKETS.as_mut_ptr();
        let count = &*COUNT.as_mut_ptr();
        let fsum = &*FSUM.as_mut_ptr();
        tickets[tid] = 0;
        if tid == 0 {
            count.store(0, Relaxed);
            fsum.store(0.0, Relaxed);
        }
        sync_threads();
        let k = count.fetch_add(1, AcqRel) as usize;
        BlockAtomicU32::from_ptr(&mut tickets[k % 64]).fetch_add(1, Relaxed);
        fsum.fetch_add(tid as f32, Relaxed);
        DeviceAtomicU32::from_ptr(g as *mut u32).fetch_add(1, Relaxed);
        SystemAtomicF64::from_ptr(g.add(1) as *mut f64).fetch_add(i as f64, AcqRel);
        let _ = DeviceAtomicU64::from_ptr(g.add(2)).fetch_update(AcqRel, Relaxed, |x| Some(x + 3));
        let x = *v.add(i);
        SystemAtomicI64::from_ptr(g.add(3) as *mut i64).fetch_min(x, SeqCst);
        DeviceAtomicI64::from_ptr(g.add(4) as *mut i64).fetch_max(x, Relaxed);
        DeviceAtomicF32::from_ptr(g.add(5) as *mut f32).fetch_max(x as f32, AcqRel);
        DeviceAtomicU64::from_ptr(g.add(6)).fetch_xor(x as u64, Release);
        DeviceAtomicU32::from_ptr(g.add(7) as *mut u32).fetch_inc(100, AcqRel);
        SystemAtomicU32::from_ptr((g.add(7) as *mut u32).add(1)).fetch_dec(50, Relaxed);
        sync_threads();
        if tid == 0 {
            let mut once = 0;
            let mut j = 0;
            while j < 64 {
                once += (tickets[j] == 1) as u32;
                j += 1;
            }
            *out.add(b) = [once, fsum.load(Acquire).to_bits()];
        }
    }
}

/// Lane masks and warp ids of every thread (blocks of 64), and reductions
/// over a partial warp: the lanes of masks[warp] (scattered bits) fold
/// their f32 / f64 values in lane order. out[t]: lanemask eq, lt, le, gt,
/// ge, warp_in_block, global_warp_id, the f32 sum's bits, min's bits,
/// max's bits, the f64 sum's low and high words (0 outside the mask).
#[kernel]
pub fn warp_masks(masks: *const u32, x: *const f32, out: *mut [u32; 12]) {
    let i = thread::index_1d().get();
    // SAFETY: one x and one out per thread, one mask per warp of the grid.
    unsafe {
        let mask = *masks.add(warp::global_warp_id());
        let v = *x.add(i);
        let o = &mut *out.add(i);
        o[0] = warp::lanemask_eq();
        o[1] = warp::lanemask_lt();
        o[2] = warp::lanemask_le();
        o[3] = warp::lanemask_gt();
        o[4] = warp::lanemask_ge();
        o[5] = warp::warp_in_block();
        o[6] = warp::global_warp_id() as u32;
        if mask & warp::lanemask_eq() != 0 {
            o[7] = warp::reduce_add_sync_f32(mask, v).to_bits();
            o[8] = warp::reduce_min_sync_f32(mask, v).to_bits();
            o[9] = warp::reduce_max_sync_f32(mask, v).to_bits();
            let s = warp::reduce_add_sync_f64(mask, v as f64 * 1.0e-3).to_bits();
            o[10] = s as u32;
            o[11] = (s >> 32) as u32;
        }
    }
}
