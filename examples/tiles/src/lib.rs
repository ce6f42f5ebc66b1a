//! Per-thread chunks and 2-D tiles of an output, with their edges: thread
//! i owns elements 3 i .. 3 i + 3 of a slice, thread (r, c) the 4 x 3 tile
//! at (4 r, 3 c) of a matrix; where the length or the matrix's shape is
//! not a multiple, the last chunk or tile is partial; tiles split into
//! pieces a block apart (`tile_split_mut`). examples/tiles/host.c
//! checks every element (and that nothing past the end is written).
#![no_std]

use oxide_device::prelude::*;

/// y[3 i + j] = 2 x[3 i + j] through `chunk_mut::<3>`; the short chunk at
/// the end (len not a multiple of 3) through `chunk_partial_mut::<3>`,
/// with 1000 added so the host sees which path wrote it.
#[kernel]
pub fn chunks(x: &[f32], mut y: DisjointSlice<f32>) {
    let i = thread::index_1d();
    let base = 3 * i.get();
    if let Some(c) = y.chunk_mut::<3>(i) {
        let mut j = 0;
        while j < 3 {
            c[j] = 2.0 * x[base + j];
            j += 1;
        }
    } else if let Some(c) = y.chunk_partial_mut::<3>(i) {
        let mut j = 0;
        while j < c.len() {
            c[j] = 2.0 * x[base + j] + 1000.0;
            j += 1;
        }
    }
}

/// m[r][c] = 1000 r + c, written by 4 x 3 tiles: whole rows of a tile
/// through `row_mut`, rows cut by the right edge through `set` (clipped),
/// the tile's own shape in the first element's fraction: + 0.25 when the
/// tile `is_full`, + 0.5 when it is cut.
#[kernel]
pub fn tiles(mut m: DisjointSlice2D<f32>) {
    let idx = thread::index_2d();
    let (r0, c0) = (4 * idx.row(), 3 * idx.col());
    let Some(mut t) = m.tile_mut::<4, 3>(idx) else {
        return;
    };
    let mut i = 0;
    while i < 4 {
        let v = |j: usize| (1000 * (r0 + i) + c0 + j) as f32;
        if let Some(row) = t.row_mut(i) {
            *row = [v(0), v(1), v(2)];
        } else {
            let mut j = 0;
            while j < 3 {
                t.set(i, j, v(j));
                j += 1;
            }
        }
        i += 1;
    }
    let mark = if t.is_full() { 0.25 } else { 0.5 };
    if let Some(e) = t.get_mut(0, 0) {
        *e += mark;
    }
    // rows() x cols() is what exists: its last element gets + 0.125
    let (rs, cs) = (t.rows(), t.cols());
    if let Some(row) = t.row_partial_mut(rs - 1) {
        row[cs - 1] += 0.125;
    }
}

/// m[r][c] = 1000 r + c + (2 p + q) / 8, written by the 2 x 2 pieces of 2 x
/// 3 of `tile_split_mut::<2, 3, 2, 2>` in blocks of 2 x 3 threads (x, y):
/// thread (ty, tx) of block (by, bx) owns rows 12 by + 6 p + 2 ty .. + 2,
/// columns 12 bx + 6 q + 3 tx .. + 3 (as this kernel computes them itself,
/// to check the library's). Pieces past the 30 x 17 matrix's edges are cut
/// (`set` for their rows) or absent; p or q = 2 (no such piece) is `None`.
#[kernel]
pub fn split_tiles(mut m: DisjointSlice2D<f32>) {
    let idx = thread::index_2d();
    let (ty, tx) = (thread::thread_idx_y() as usize, thread::thread_idx_x() as usize);
    let (by, bx) = (thread::block_idx_y() as usize, thread::block_idx_x() as usize);
    let mut p = 0;
    while p < 3 {
        let mut q = 0;
        while q < 3 {
            if let Some(mut t) = m.tile_split_mut::<2, 3, 2, 2>(idx, p, q) {
                let (r0, c0) = (12 * by + 6 * p + 2 * ty, 12 * bx + 6 * q + 3 * tx);
                let mut i = 0;
                while i < 2 {
                    let v = |j: usize| (1000 * (r0 + i) + c0 + j) as f32 + (2 * p + q) as f32 / 8.0;
                    if let Some(row) = t.row_mut(i) {
                        *row = [v(0), v(1), v(2)];
                    } else {
                        let mut j = 0;
                        while j < 3 {
                            t.set(i, j, v(j));
                            j += 1;
                        }
                    }
                    i += 1;
                }
            }
            q += 1;
        }
        p += 1;
    }
}

/// y[i] = x[i] + 1 for i < min(len x, len y), without the bounds test of
/// the output (tested here instead): `get_unchecked_mut` is `unsafe`.
#[kernel]
pub fn unchecked(x: &[f32], mut y: DisjointSlice<f32>) {
    let i = thread::index_1d();
    if i.get() < y.len() && i.get() < x.len() {
        // SAFETY: i < y.len(), tested above.
        unsafe { *y.get_unchecked_mut(i) = x[i.get()] + 1.0 };
    }
}
