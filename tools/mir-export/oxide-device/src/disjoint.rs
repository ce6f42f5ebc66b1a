//! Kernel output buffers that each thread may write only where its own
//! index says: one element, a chunk of N elements, or a 2-D tile.
//!
//! Disjointness by construction: thread `i` of a launch owns element `i`,
//! or elements `N i .. N i + N` (`chunk_mut::<N>`), or the `TR x TC` tile
//! at `(TR r, TC c)` (`tile_mut::<TR, TC>`), or that tile split into
//! pieces a block's extent apart (`tile_split_mut`); distinct indices give
//! disjoint parts as long as every thread views the buffer the same way.
//! A kernel whose threads view one buffer at different granularities at
//! the same time (some `get_mut`, others `chunk_mut::<4>`, or different
//! `N`, or `as_vectors` in some threads only) makes parts overlap: use one
//! view of each output per kernel. The checked accessors test the bounds;
//! `*_unchecked_mut` skip the test and are `unsafe`.

use core::marker::PhantomData;

use crate::thread::{self, ThreadIndex, ThreadIndex2D};
use crate::vector::Vector;

/// A mutable slice shared by all threads of a launch, in which each thread
/// can reach only the element at its own [`ThreadIndex`].
///
/// Passing `&mut [T]` to a kernel would be unsound: every thread would hold
/// the same exclusive reference. Here exclusivity holds per element, because
/// a `ThreadIndex` cannot be forged and is different in every thread.
///
/// Its layout is that of `&mut [T]` (a data pointer and a length), so the
/// host passes it like a slice.
pub struct DisjointSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    _m: PhantomData<&'a mut [T]>,
}

impl<'a, T> DisjointSlice<'a, T> {
    /// This thread's element, or `None` when `idx` is past the end (grids
    /// are usually rounded up to whole blocks).
    #[inline(always)]
    pub fn get_mut(&mut self, idx: ThreadIndex) -> Option<&mut T> {
        let i = idx.get();
        if i < self.len {
            // SAFETY: `i` is in bounds, and no other thread holds an index
            // equal to `i` (see `ThreadIndex`), so the reference is unique.
            Some(unsafe { &mut *self.ptr.add(i) })
        } else {
            None
        }
    }

    /// This thread's element without the bounds test.
    ///
    /// # Safety
    /// `idx.get() < self.len()`.
    #[inline(always)]
    pub unsafe fn get_unchecked_mut(&mut self, idx: ThreadIndex) -> &mut T {
        // SAFETY: in bounds by the caller's promise; unique as in get_mut.
        unsafe { &mut *self.ptr.add(idx.get()) }
    }

    /// Thread `i`'s chunk of `N` elements, `N i .. N i + N`, as an array:
    /// `None` when it does not lie wholly inside the slice (the short
    /// chunk at the end, when `N` does not divide the length: see
    /// [`chunk_partial_mut`](Self::chunk_partial_mut)) or when `N` is 0.
    /// Chunks of distinct indices are disjoint (the module's rule: every
    /// thread chunks this slice with the same `N`). On a vector view
    /// ([`as_vectors`](Self::as_vectors)) the array is aligned to the
    /// vector, so its stores are vector stores.
    #[inline(always)]
    pub fn chunk_mut<const N: usize>(&mut self, idx: ThreadIndex) -> Option<&mut [T; N]> {
        let i = idx.get();
        // i < len / N: then N i + N <= len, without overflow
        let whole = if N == 0 { 0 } else { self.len / N };
        if i < whole {
            // SAFETY: inside the slice (above); no other thread holds index
            // i, so no other thread reaches these N elements.
            Some(unsafe { &mut *(self.ptr.add(i * N) as *mut [T; N]) })
        } else {
            None
        }
    }

    /// Thread `i`'s chunk `N i .. N i + N` clipped to the slice: the
    /// elements of it that exist (fewer than `N` only in the last chunk),
    /// `None` when it starts at or past the end, or `N` is 0.
    #[inline(always)]
    pub fn chunk_partial_mut<const N: usize>(&mut self, idx: ThreadIndex) -> Option<&mut [T]> {
        let i = idx.get();
        // chunks that start inside: ceil(len / N), written without overflow
        let started = if N == 0 { 0 } else { self.len / N + (self.len % N != 0) as usize };
        if i < started {
            let start = i * N;
            let n = if self.len - start < N { self.len - start } else { N };
            // SAFETY: start + n <= len; unique to thread i as in chunk_mut.
            Some(unsafe { &mut *core::ptr::slice_from_raw_parts_mut(self.ptr.add(start), n) })
        } else {
            None
        }
    }

    /// Thread `i`'s chunk of `N` without the bounds test.
    ///
    /// # Safety
    /// `(idx.get() + 1) * N <= self.len()`.
    #[inline(always)]
    pub unsafe fn chunk_unchecked_mut<const N: usize>(&mut self, idx: ThreadIndex) -> &mut [T; N] {
        // SAFETY: in bounds by the caller's promise; unique as in chunk_mut.
        unsafe { &mut *(self.ptr.add(idx.get() * N) as *mut [T; N]) }
    }

    /// Number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// This slice as vectors of `V` (whose lanes are `T`): `Some((body,
    /// tail))`, the whole vectors from the start and the elements after
    /// them, when the data starts at `V`'s alignment (checked once, here);
    /// `None` when it does not. Thread `i` then owns `body[i]` (elements
    /// `LANES i ..`) and `tail[i]`, which no other thread can reach.
    #[inline(always)]
    pub fn as_vectors<V: Vector<Elem = T>>(self) -> Option<(DisjointSlice<'a, V>, DisjointSlice<'a, T>)> {
        if self.ptr as usize % core::mem::align_of::<V>() != 0 {
            return None;
        }
        let n = self.len / V::LANES;
        let body = DisjointSlice { ptr: self.ptr as *mut V, len: n, _m: PhantomData };
        // SAFETY: n * LANES <= len: inside the slice.
        let tail = DisjointSlice { ptr: unsafe { self.ptr.add(n * V::LANES) }, len: self.len - n * V::LANES, _m: PhantomData };
        Some((body, tail))
    }

    /// Whether there are no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// This slice as a row-major matrix of `cols` columns and `len / cols`
    /// rows (the elements after the last whole row are out of its reach),
    /// for a 2-D ownership of 1-D data: e.g. thread `(r, c)` owning
    /// `tile_mut::<TR, 1>`, elements `(TR r + i) cols + c`, strided by
    /// `cols` so that a warp's accesses coalesce. `None` when `cols` is 0.
    #[inline(always)]
    pub fn as_2d(self, cols: usize) -> Option<DisjointSlice2D<'a, T>> {
        if cols == 0 {
            return None;
        }
        Some(DisjointSlice2D { ptr: self.ptr, rows: self.len / cols, cols, _m: PhantomData })
    }
}

/// A row-major `rows × cols` output matrix in which each thread of a 2-D
/// launch can reach only the element at its own [`ThreadIndex2D`]
/// (`(row, col)` → element `row * cols + col`).
///
/// `#[repr(C)]`: the host passes it as one 24-byte parameter holding the
/// data pointer, then `rows` and `cols` as 64-bit integers.
#[repr(C)]
pub struct DisjointSlice2D<'a, T> {
    ptr: *mut T,
    rows: usize,
    cols: usize,
    _m: PhantomData<&'a mut [T]>,
}

impl<'a, T> DisjointSlice2D<'a, T> {
    /// This thread's element, or `None` outside the matrix (grids are
    /// usually rounded up to whole blocks in both dimensions).
    #[inline(always)]
    pub fn get_mut(&mut self, idx: ThreadIndex2D) -> Option<&mut T> {
        let (r, c) = (idx.row(), idx.col());
        if r < self.rows && c < self.cols {
            // SAFETY: (r, c) is inside the matrix and unique to this thread
            // (see `ThreadIndex2D`), so no other thread reaches this element.
            Some(unsafe { &mut *self.ptr.add(r * self.cols + c) })
        } else {
            None
        }
    }

    /// This thread's element without the bounds test.
    ///
    /// # Safety
    /// `idx.row() < self.rows()` and `idx.col() < self.cols()`.
    #[inline(always)]
    pub unsafe fn get_unchecked_mut(&mut self, idx: ThreadIndex2D) -> &mut T {
        // SAFETY: inside by the caller's promise; unique as in get_mut.
        unsafe { &mut *self.ptr.add(idx.row() * self.cols + idx.col()) }
    }

    /// This matrix as one of vectors `V` (lanes `T`): `rows x cols /
    /// LANES`, element `(r, c)` the lanes `(r, LANES c .. LANES c +
    /// LANES)`; `None` unless the data starts at `V`'s alignment and
    /// `LANES` divides `cols` (so that every row starts aligned too).
    /// Checked once, here.
    #[inline(always)]
    pub fn as_vectors<V: Vector<Elem = T>>(self) -> Option<DisjointSlice2D<'a, V>> {
        if self.ptr as usize % core::mem::align_of::<V>() != 0 || self.cols % V::LANES != 0 {
            return None;
        }
        Some(DisjointSlice2D { ptr: self.ptr as *mut V, rows: self.rows, cols: self.cols / V::LANES, _m: PhantomData })
    }

    /// Thread `(r, c)`'s tile: rows `TR r .. TR r + TR`, columns `TC c ..
    /// TC c + TC`, clipped to the matrix (at the bottom and right edges the
    /// tile has fewer rows or columns: [`Tile::rows`], [`Tile::cols`]);
    /// `None` when it starts outside the matrix, or `TR` or `TC` is 0.
    /// Tiles of distinct indices are disjoint (the module's rule: every
    /// thread tiles this matrix with the same `TR x TC`).
    #[inline(always)]
    pub fn tile_mut<const TR: usize, const TC: usize>(&mut self, idx: ThreadIndex2D) -> Option<Tile<'_, T, TR, TC>> {
        let (r, c) = (idx.row(), idx.col());
        // tiles that start inside, per dimension: ceil(n / t), without overflow
        let tiles = |n: usize, t: usize| if t == 0 { 0 } else { n / t + (n % t != 0) as usize };
        if r >= tiles(self.rows, TR) || c >= tiles(self.cols, TC) {
            return None;
        }
        let (r0, c0) = (r * TR, c * TC);
        let rows = if self.rows - r0 < TR { self.rows - r0 } else { TR };
        let cols = if self.cols - c0 < TC { self.cols - c0 } else { TC };
        // SAFETY: (r0, c0) is inside the matrix; the tile reaches rows x cols
        // elements from it, all inside, none of another thread's tile.
        let ptr = unsafe { self.ptr.add(r0 * self.cols + c0) };
        Some(Tile { ptr, stride: self.cols, rows, cols, _m: PhantomData })
    }

    /// Sub-tile `(p, q)` of thread `(r, c)`'s tile split into `PR x PC`
    /// pieces of `TR x TC` that lie a block's extent apart. With the
    /// block's shape `Dy x Dx` (`block_dim_y() x block_dim_x()`), the block
    /// `(by, bx) = (r / Dy, c / Dx)` and the thread in it `(ty, tx) = (r %
    /// Dy, c % Dx)`: rows `Dy TR PR by + Dy TR p + TR ty ..` (+ `TR`),
    /// columns `Dx TC PC bx + Dx TC q + TC tx ..` (+ `TC`). Each block
    /// covers a `Dy TR PR x Dx TC PC` block tile, in which consecutive
    /// threads' pieces are next to each other: for an 8 x 8 micro tile of
    /// f32 split as 2 x 2 pieces of 4 x 4 (`tile_split_mut::<4, 1, 2, 2>`
    /// of the `f32x4` view, 16 x 16 blocks), thread `(ty, tx)` owns rows `4
    /// ty ..` and `64 + 4 ty ..`, columns `4 tx ..` and `64 + 4 tx ..` of
    /// the block's 128 x 128, so that a warp's stores to a row coalesce.
    /// The piece is a [`Tile`] clipped to the matrix like `tile_mut`'s;
    /// `None` when it starts outside the matrix, `p >= PR` or `q >= PC`,
    /// or a dimension is 0. Disjoint by construction: a row is `Dy TR PR
    /// by + Dy TR p + TR ty + i` for exactly one `(by, p, ty, i)` with `p
    /// < PR`, `ty < Dy`, `i < TR` (and columns likewise), so distinct
    /// `(idx, p, q)` reach distinct elements (the module's rule: every
    /// thread splits this matrix with the same `TR, TC, PR, PC`). One
    /// piece at a time: it borrows the matrix.
    #[inline(always)]
    pub fn tile_split_mut<const TR: usize, const TC: usize, const PR: usize, const PC: usize>(
        &mut self,
        idx: ThreadIndex2D,
        p: usize,
        q: usize,
    ) -> Option<Tile<'_, T, TR, TC>> {
        let r0 = split_start(idx.row(), thread::block_dim_y() as usize, TR, PR, p, self.rows)?;
        let c0 = split_start(idx.col(), thread::block_dim_x() as usize, TC, PC, q, self.cols)?;
        let rows = if self.rows - r0 < TR { self.rows - r0 } else { TR };
        let cols = if self.cols - c0 < TC { self.cols - c0 } else { TC };
        // SAFETY: (r0, c0) is inside the matrix; the piece reaches rows x
        // cols elements from it, all inside, none of another (idx, p, q)'s
        // piece (split_start's bijection).
        let ptr = unsafe { self.ptr.add(r0 * self.cols + c0) };
        Some(Tile { ptr, stride: self.cols, rows, cols, _m: PhantomData })
    }

    /// Number of rows.
    #[inline(always)]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[inline(always)]
    pub fn cols(&self) -> usize {
        self.cols
    }
}

/// First row (or column) of piece `p` of global thread index `i` split as
/// in [`DisjointSlice2D::tile_split_mut`], along a dimension of `len`
/// with `d` threads per block, pieces of `t` and `n` of them: `d t n
/// (i / d) + d t p + t (i % d)`, or `None` when that is not below `len`,
/// `p >= n`, `t` or `d` is 0, or the block tile's extent `d t n` does not
/// fit a `usize`. Computed without overflow.
#[inline(always)]
fn split_start(i: usize, d: usize, t: usize, n: usize, p: usize, len: usize) -> Option<usize> {
    if t == 0 || d == 0 || p >= n {
        return None;
    }
    let span = d.checked_mul(t)?.checked_mul(n)?;
    let base = (i / d).checked_mul(span)?;
    // (p d + i % d) t < n d t = span, so off does not overflow
    let off = (p * d + i % d) * t;
    if base < len && len - base > off {
        Some(base + off)
    } else {
        None
    }
}

/// One thread's `TR x TC` tile of a [`DisjointSlice2D`]
/// ([`DisjointSlice2D::tile_mut`]): element `(i, j)` of the tile is element
/// `(TR r + i, TC c + j)` of the matrix (of a piece of
/// [`DisjointSlice2D::tile_split_mut`]: `(i, j)` from the piece's start).
/// At the matrix's bottom and right edges only the first
/// [`rows`](Self::rows) x [`cols`](Self::cols) exist; the accessors say so
/// (`None`, or nothing written) for the others.
pub struct Tile<'b, T, const TR: usize, const TC: usize> {
    ptr: *mut T,
    stride: usize,
    rows: usize,
    cols: usize,
    _m: PhantomData<&'b mut T>,
}

impl<'b, T, const TR: usize, const TC: usize> Tile<'b, T, TR, TC> {
    /// Rows of the tile inside the matrix (`TR` but at the bottom edge).
    #[inline(always)]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the tile inside the matrix (`TC` but at the right edge).
    #[inline(always)]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether the whole `TR x TC` tile is inside the matrix.
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.rows == TR && self.cols == TC
    }

    /// Element `(i, j)` of the tile, `None` outside the part that exists.
    #[inline(always)]
    pub fn get_mut(&mut self, i: usize, j: usize) -> Option<&mut T> {
        if i < self.rows && j < self.cols {
            // SAFETY: inside this thread's tile (tile_mut).
            Some(unsafe { &mut *self.ptr.add(i * self.stride + j) })
        } else {
            None
        }
    }

    /// Writes `v` at `(i, j)` of the tile when that element exists; at the
    /// matrix's edges the rest is clipped (nothing written), like the
    /// bounds test of a GEMM's epilogue.
    #[inline(always)]
    pub fn set(&mut self, i: usize, j: usize, v: T) {
        if let Some(d) = self.get_mut(i, j) {
            *d = v;
        }
    }

    /// Row `i` of the tile as an array of `TC`: `None` unless the row
    /// exists and is whole (not cut by the right edge). On a vector view
    /// ([`DisjointSlice2D::as_vectors`]) its stores are vector stores.
    #[inline(always)]
    pub fn row_mut(&mut self, i: usize) -> Option<&mut [T; TC]> {
        if i < self.rows && self.cols == TC {
            // SAFETY: TC elements of row i, inside this thread's tile.
            Some(unsafe { &mut *(self.ptr.add(i * self.stride) as *mut [T; TC]) })
        } else {
            None
        }
    }

    /// The part of row `i` that exists (`cols()` elements), `None` when
    /// the row does not.
    #[inline(always)]
    pub fn row_partial_mut(&mut self, i: usize) -> Option<&mut [T]> {
        if i < self.rows {
            // SAFETY: cols elements of row i, inside this thread's tile.
            Some(unsafe { &mut *core::ptr::slice_from_raw_parts_mut(self.ptr.add(i * self.stride), self.cols) })
        } else {
            None
        }
    }

    /// Element `(i, j)` without the test.
    ///
    /// # Safety
    /// `i < self.rows()` and `j < self.cols()`.
    #[inline(always)]
    pub unsafe fn get_unchecked_mut(&mut self, i: usize, j: usize) -> &mut T {
        // SAFETY: inside by the caller's promise.
        unsafe { &mut *self.ptr.add(i * self.stride + j) }
    }
}
