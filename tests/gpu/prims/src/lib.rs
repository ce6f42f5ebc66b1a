//! tests/gpu/prims: every tensor-core and asynchronous-copy primitive of
//! the registry in a small kernel. host.c runs each kernel on the GPU
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
