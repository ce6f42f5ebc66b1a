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
#![no_std]

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
