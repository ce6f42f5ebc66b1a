//! C = A * B^T on Hopper's warpgroup MMA (wgmma, sm_90a), fed by the
//! tensor memory accelerator: A (m x k) and B (n x k) row-major bf16 bits,
//! C (m x n) row-major f32, the "TN" layout of examples/mma_gemm.
//!
//! Blocks of 384 threads (three warpgroups) compute a 128 x 256 tile of C.
//! Warpgroup 0 is the producer: it gives its registers to the others
//! (setmaxnreg 40; the consumers take 232), and one of its threads starts,
//! per k-step of 64, two TMA copies (the 128 x 64 tile of A, 16 KiB, and
//! the 256 x 64 tile of B, 32 KiB, 128-byte swizzle) into one of four
//! shared-memory stages, completing on the stage's "full" mbarrier.
//! Warpgroups 1 and 2 are the consumers: each waits for the stage,
//! multiplies its 64 rows of A by the 256 columns of B with four
//! wgmma.m64n256k16 (one per 16 of k, the descriptors advanced by 32 bytes
//! within the swizzled 128-byte rows), keeps that group in flight while it
//! waits for the previous one, and then arrives on the previous stage's
//! "empty" mbarrier, which the producer waits for before reusing it.
//! The tensor maps are by-value kernel parameters (grid constants: the
//! copies read them where the launch put them).
//! m must be a multiple of 128, n of 256, k of 64 (the host checks); the
//! launch needs STAGES * 48 KiB + 1 KiB of dynamic shared memory.
//!
//! `hopper_gemm_persistent` is the same mainloop made persistent and
//! clustered (below).
#![no_std]

use oxide_device::cluster;
use oxide_device::hopper::*;
use oxide_device::prelude::*;

const BM: usize = 128;
const BN: usize = 256;
const BK: usize = 64;
const STAGES: usize = 4;
const A_BYTES: usize = BM * BK * 2;
const STAGE_BYTES: usize = A_BYTES + BN * BK * 2;

#[kernel(launch_bounds(max_threads = 384, min_blocks = 1))]
pub fn hopper_gemm(a_map: TensorMap, b_map: TensorMap, c: *mut f32, m: u32, n: u32, k: u32) {
    let _ = m;
    let raw = dynamic_shared::<u8>();
    // the stages 1024-byte aligned (the 128-byte swizzle repeats every 8 rows)
    let pad = (1024 - (smem_addr(raw) & 1023) as usize) & 1023;
    // SAFETY (pointer offsets): inside the dynamic shared memory the host sized.
    let smem = unsafe { raw.add(pad) };
    let bars = unsafe { smem.add(STAGES * STAGE_BYTES) } as *mut u64;   // full[STAGES], empty[STAGES]
    let tid = thread::thread_idx_x() as usize;
    let wg = tid / 128;
    let m0 = thread::block_idx_y() as usize * BM;
    let n0 = thread::block_idx_x() as usize * BN;
    let (n, tiles) = (n as usize, k as usize / BK);
    if tid == 0 {
        for s in 0..STAGES {
            // SAFETY: the barriers are in shared memory, 8-byte aligned.
            unsafe {
                mbarrier_init(bars.add(s), 1);
                mbarrier_init(bars.add(STAGES + s), 2);
            }
        }
        fence_mbarrier_init();
    }
    sync_threads();
    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            for kt in 0..tiles {
                let s = kt % STAGES;
                // SAFETY: the stage and its barriers; the maps are the launch's.
                unsafe {
                    if kt >= STAGES {
                        mbarrier_wait(bars.add(STAGES + s), ((kt / STAGES - 1) % 2) as u32);
                    }
                    mbarrier_arrive_expect_tx(bars.add(s), STAGE_BYTES as u32);
                    let st = smem.add(s * STAGE_BYTES);
                    tma_load_2d(st, &a_map, (kt * BK) as i32, m0 as i32, bars.add(s));
                    tma_load_2d(st.add(A_BYTES), &b_map, (kt * BK) as i32, n0 as i32, bars.add(s));
                }
            }
        }
        return;
    }
    setmaxnreg_inc_232();
    let cw = wg - 1;
    let mut acc = [0.0f32; 128];
    for kt in 0..tiles {
        let s = kt % STAGES;
        // SAFETY: the stage's barrier; the tiles are in shared memory.
        unsafe { mbarrier_wait(bars.add(s), ((kt / STAGES) % 2) as u32) };
        let a_base = smem_addr(unsafe { smem.add(s * STAGE_BYTES + cw * 64 * 128) });
        let b_base = smem_addr(unsafe { smem.add(s * STAGE_BYTES + A_BYTES) });
        wgmma_fence();
        for kk in 0..BK / 16 {
            let da = smem_desc(a_base + kk as u32 * 32, 16, 1024, Swizzle::B128);
            let db = smem_desc(b_base + kk as u32 * 32, 16, 1024, Swizzle::B128);
            // SAFETY: the warpgroup together, the tiles as described.
            unsafe { wgmma_m64n256k16_bf16(&mut acc, da, db, true) };
        }
        wgmma_commit_group();
        // this stage's group may run on; the previous one's stage is free
        wgmma_wait_group(1);
        if kt > 0 && tid % 128 == 0 {
            // SAFETY: the previous stage's empty barrier.
            unsafe { mbarrier_arrive(bars.add(STAGES + (kt - 1) % STAGES)) };
        }
    }
    wgmma_wait_group(0);
    let t = tid % 128;
    let (w, g, q) = (t / 32, t % 32 / 4, t % 4);
    let row = m0 + cw * 64 + 16 * w + g;
    // acc[4 j .. 4 j + 4]: rows row and row + 8, columns 8 j + 2 q, + 1;
    // written out for each j, so that every index is a constant and the
    // accumulators stay in registers
    macro_rules! store {
        ($($j:literal)*) => {$({
            let col = n0 + 8 * $j + 2 * q;
            // SAFETY: inside C (whole tiles).
            unsafe {
                *c.add(row * n + col) = acc[4 * $j];
                *c.add(row * n + col + 1) = acc[4 * $j + 1];
                *c.add((row + 8) * n + col) = acc[4 * $j + 2];
                *c.add((row + 8) * n + col + 1) = acc[4 * $j + 3];
            }
        })*};
    }
    store!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
}

/// Rows of cluster tiles (256 x 256 of C) in one group of the raster.
const GROUP_M: usize = 8;
const B_HALF: usize = BM * BK * 2;

/// Cluster tile `t` of `tiles_m` x `tiles_n` in grouped raster order:
/// groups of GROUP_M tile rows, each walked column by column, so that the
/// tiles the clusters run at one time share rows of A and columns of B
/// in L2.
#[inline(always)]
fn tile_at(t: usize, tiles_m: usize, tiles_n: usize) -> (usize, usize) {
    let group = GROUP_M * tiles_n;
    let first = t / group * GROUP_M;
    let rows = if tiles_m - first < GROUP_M { tiles_m - first } else { GROUP_M };
    (first + t % group % rows, t % group / rows)
}

/// C = A * B^T as [`hopper_gemm`], persistent and in clusters of two
/// blocks. The host launches one block per multiprocessor (any even
/// number of blocks works: a grid of 2 x G blocks, G clusters); cluster
/// `c` takes the 256 x 256 cluster tiles `c`, `c + G`, ... in grouped
/// raster order ([`tile_at`]), and its block of rank `r` computes the
/// 128 x 256 tile at rows 256 i + 128 r. Both blocks need the same 256 x
/// 64 slice of B per k-step: each loads its half (rows 128 r ..) with one
/// TMA multicast into the same stage offset of both blocks' shared
/// memory, and its own 128 x 64 slice of A, so that a stage's "full"
/// mbarrier expects 48 KiB from three copies, two of them its own. The
/// producer thread keeps one count of k-steps across its tiles, so it
/// fills the four stages of the next tile while the consumers finish and
/// store this one. A stage is written by both blocks' producers, so both
/// blocks' consumers must free it: each consumer warpgroup arrives on the
/// stage's "empty" mbarrier in both blocks ([`mbarrier_arrive_cluster`]),
/// which expects four arrivals. Each consumer warpgroup frees its last
/// stage of a tile as soon as its wgmma are done, before its stores.
/// The blocks meet at the cluster barrier after initialising their
/// mbarriers (a peer's copy or arrival may come next) and before exiting
/// (a peer may still arrive on this block's barriers). The B map's box is
/// 64 x 128 (half of the tile); m and n must be multiples of 256, k of 64.
#[kernel(cluster(2, 1, 1), launch_bounds(max_threads = 384, min_blocks = 1))]
pub fn hopper_gemm_persistent(a_map: TensorMap, b_map: TensorMap, c: *mut f32, m: u32, n: u32, k: u32) {
    let raw = dynamic_shared::<u8>();
    let pad = (1024 - (smem_addr(raw) & 1023) as usize) & 1023;
    // SAFETY (pointer offsets): inside the dynamic shared memory the host sized.
    let smem = unsafe { raw.add(pad) };
    let bars = unsafe { smem.add(STAGES * STAGE_BYTES) } as *mut u64;   // full[STAGES], empty[STAGES]
    let tid = thread::thread_idx_x() as usize;
    let wg = tid / 128;
    let rank = cluster::rank() as usize;
    let clusters = cluster::grid_dim().0 as usize;
    let first = cluster::id().0 as usize;
    let (n, ksteps) = (n as usize, k as usize / BK);
    let (tiles_m, tiles_n) = (m as usize / (2 * BM), n / BN);
    let tiles = tiles_m * tiles_n;
    if tid == 0 {
        for s in 0..STAGES {
            // SAFETY: the barriers are in shared memory, 8-byte aligned.
            unsafe {
                mbarrier_init(bars.add(s), 1);
                mbarrier_init(bars.add(STAGES + s), 4);
            }
        }
        fence_mbarrier_init();
    }
    cluster::sync();
    if wg == 0 {
        setmaxnreg_dec_40();
        if tid == 0 {
            let mut it = 0;
            let mut t = first;
            while t < tiles {
                let (tm, tn) = tile_at(t, tiles_m, tiles_n);
                let m0 = (2 * tm + rank) * BM;
                let nb = tn * BN + rank * BM;
                for kt in 0..ksteps {
                    let s = it % STAGES;
                    let x = (kt * BK) as i32;
                    // SAFETY: the stage and its barriers; the maps are the
                    // launch's; the peer's stage is free (its consumers
                    // arrived on this block's empty barrier too).
                    unsafe {
                        if it >= STAGES {
                            mbarrier_wait(bars.add(STAGES + s), ((it / STAGES - 1) % 2) as u32);
                        }
                        mbarrier_arrive_expect_tx(bars.add(s), STAGE_BYTES as u32);
                        let st = smem.add(s * STAGE_BYTES);
                        tma_load_2d(st, &a_map, x, m0 as i32, bars.add(s));
                        tma_load_multicast_2d(st.add(A_BYTES + rank * B_HALF), &b_map, x, nb as i32, bars.add(s), 3);
                    }
                    it += 1;
                }
                t += clusters;
            }
        }
        cluster::sync();
        return;
    }
    setmaxnreg_inc_232();
    let cw = wg - 1;
    let t128 = tid % 128;
    let (w, g, q) = (t128 / 32, t128 % 32 / 4, t128 % 4);
    let mut acc = [0.0f32; 128];
    let mut it = 0;
    let mut t = first;
    while t < tiles {
        let (tm, tn) = tile_at(t, tiles_m, tiles_n);
        for kt in 0..ksteps {
            let s = it % STAGES;
            // SAFETY: the stage's barrier; the tiles are in shared memory.
            unsafe { mbarrier_wait(bars.add(s), ((it / STAGES) % 2) as u32) };
            let a_base = smem_addr(unsafe { smem.add(s * STAGE_BYTES + cw * 64 * 128) });
            let b_base = smem_addr(unsafe { smem.add(s * STAGE_BYTES + A_BYTES) });
            wgmma_fence();
            for kk in 0..BK / 16 {
                let da = smem_desc(a_base + kk as u32 * 32, 16, 1024, Swizzle::B128);
                let db = smem_desc(b_base + kk as u32 * 32, 16, 1024, Swizzle::B128);
                // SAFETY: the warpgroup together, the tiles as described;
                // the tile's first product overwrites the accumulators.
                unsafe { wgmma_m64n256k16_bf16(&mut acc, da, db, kt > 0 || kk > 0) };
            }
            wgmma_commit_group();
            wgmma_wait_group(1);
            if kt > 0 {
                free_stage(bars, (it - 1) % STAGES, t128);
            }
            it += 1;
        }
        wgmma_wait_group(0);
        free_stage(bars, (it - 1) % STAGES, t128);
        let row = (2 * tm + rank) * BM + cw * 64 + 16 * w + g;
        let n0 = tn * BN;
        // as hopper_gemm's stores: every index a constant
        macro_rules! store {
            ($($j:literal)*) => {$({
                let col = n0 + 8 * $j + 2 * q;
                // SAFETY: inside C (whole tiles).
                unsafe {
                    *c.add(row * n + col) = acc[4 * $j];
                    *c.add(row * n + col + 1) = acc[4 * $j + 1];
                    *c.add((row + 8) * n + col) = acc[4 * $j + 2];
                    *c.add((row + 8) * n + col + 1) = acc[4 * $j + 3];
                }
            })*};
        }
        store!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
        t += clusters;
    }
    cluster::sync();
}

/// A consumer warpgroup frees stage `s` in both blocks of the cluster:
/// its warp 0 arrives on rank 0's empty barrier, its warp 1 on rank 1's,
/// after their wgmma_wait_group (the group that read the stage is done).
#[inline(always)]
fn free_stage(bars: *mut u64, s: usize, t128: usize) {
    if t128 % 32 == 0 && t128 < 64 {
        // SAFETY: the empty barrier of stage s, initialised in both blocks
        // before the cluster barrier; neither block exits before the last
        // cluster barrier.
        unsafe { mbarrier_arrive_cluster(bars.add(STAGES + s), (t128 / 32) as u32) };
    }
}
