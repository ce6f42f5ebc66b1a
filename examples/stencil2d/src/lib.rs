//! A 5-point stencil on a `height` x `width` grid (row-major), through a
//! shared tile of 16 x 16 points plus a one-point halo:
//! out = 0.5 * c + 0.125 * (n + s + w + e) inside, out = input on the
//! border. Blocks of 16 x 16 threads (`reqntid`: a launch of another shape
//! fails, which proves the tile's indices in bounds, so oxidec drops their
//! tests; the CUDA C twin has none); edge threads also load the halo.
#![no_std]

use oxide_device::prelude::*;

const B: u32 = 16;

#[kernel(reqntid(16, 16))]
pub fn stencil2d(input: &[f32], out: *mut f32, width: u32, height: u32) {
    let tile = shared_array!([f32; 18], 18);
    let tx = thread::thread_idx_x();
    let ty = thread::thread_idx_y();
    let x = thread::block_idx_x() * B + tx;
    let y = thread::block_idx_y() * B + ty;
    let at = |x: u32, y: u32| -> f32 {
        if x < width && y < height { input[(y * width + x) as usize] } else { 0.0 }
    };
    let (lx, ly) = ((tx + 1) as usize, (ty + 1) as usize);
    tile[ly][lx] = at(x, y);
    if tx == 0 {
        tile[ly][0] = at(x.wrapping_sub(1), y);
    }
    if tx == B - 1 {
        tile[ly][lx + 1] = at(x + 1, y);
    }
    if ty == 0 {
        tile[0][lx] = at(x, y.wrapping_sub(1));
    }
    if ty == B - 1 {
        tile[ly + 1][lx] = at(x, y + 1);
    }
    sync_threads();
    if x < width && y < height {
        let c = tile[ly][lx];
        let v = if x == 0 || y == 0 || x == width - 1 || y == height - 1 {
            c
        } else {
            let sum = tile[ly - 1][lx] + tile[ly + 1][lx] + tile[ly][lx - 1] + tile[ly][lx + 1];
            0.5 * c + 0.125 * sum
        };
        // SAFETY: inside the width x height output.
        unsafe { *out.add((y * width + x) as usize) = v };
    }
}
