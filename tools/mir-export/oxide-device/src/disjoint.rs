//! A kernel output buffer that each thread may write only at its own index.

use core::marker::PhantomData;

use crate::thread::{ThreadIndex, ThreadIndex2D};
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
