//! out = transpose(input) for a `height` x `width` row-major matrix,
//! through a 32 x 33 shared tile (the extra column puts the elements of a
//! tile column in different banks, so the column reads do not conflict).
//! Blocks of 32 x 8 threads (`reqntid`: a launch of another shape fails),
//! each moving 4 elements of a 32 x 32 tile. The block's shape is what
//! proves the tile's indices (tx < 32, ty + j < 32) in bounds, so oxidec
//! drops their tests; the CUDA C twin (bench/suite/suite_ref.cu) has none.
#![no_std]

use oxide_device::prelude::*;

const TILE: u32 = 32;
const ROWS: u32 = 8;

#[kernel(reqntid(32, 8))]
pub fn transpose(input: &[f32], out: *mut f32, width: u32, height: u32) {
    let tile = shared_array!([f32; 33], 32);
    let tx = thread::thread_idx_x();
    let ty = thread::thread_idx_y();
    let bx = thread::block_idx_x() * TILE;
    let by = thread::block_idx_y() * TILE;
    let mut j = 0;
    while j < TILE {
        let (x, y) = (bx + tx, by + ty + j);
        if x < width && y < height {
            tile[(ty + j) as usize][tx as usize] = input[(y * width + x) as usize];
        }
        j += ROWS;
    }
    sync_threads();
    let mut j = 0;
    while j < TILE {
        let (x, y) = (by + tx, bx + ty + j);
        if x < height && y < width {
            // SAFETY: y < width and x < height: inside the width x height output.
            unsafe { *out.add((y * height + x) as usize) = tile[tx as usize][(ty + j) as usize] };
        }
        j += ROWS;
    }
}
