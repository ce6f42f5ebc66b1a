//! A kernel output buffer that each thread may write only at its own index.

use core::marker::PhantomData;

use crate::thread::ThreadIndex;

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

    /// Whether there are no elements.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
