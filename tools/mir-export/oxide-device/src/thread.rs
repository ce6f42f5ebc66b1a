//! Thread, block and grid coordinates (PTX `%tid`, `%ntid`, `%ctaid`,
//! `%nctaid`).

use crate::primitives as p;

macro_rules! special_register {
    ($(#[$doc:meta] $name:ident => $sym:ident;)*) => {$(
        #[$doc]
        #[inline(always)]
        pub fn $name() -> u32 {
            // SAFETY: reading a special register has no preconditions.
            unsafe { p::$sym() }
        }
    )*};
}

special_register! {
    /// Index of this thread in its block, x dimension (`%tid.x`).
    thread_idx_x => __oxide_tid_x;
    /// Index of this thread in its block, y dimension (`%tid.y`).
    thread_idx_y => __oxide_tid_y;
    /// Index of this thread in its block, z dimension (`%tid.z`).
    thread_idx_z => __oxide_tid_z;
    /// Threads per block, x dimension (`%ntid.x`).
    block_dim_x => __oxide_ntid_x;
    /// Threads per block, y dimension (`%ntid.y`).
    block_dim_y => __oxide_ntid_y;
    /// Threads per block, z dimension (`%ntid.z`).
    block_dim_z => __oxide_ntid_z;
    /// Index of this block in the grid, x dimension (`%ctaid.x`).
    block_idx_x => __oxide_ctaid_x;
    /// Index of this block in the grid, y dimension (`%ctaid.y`).
    block_idx_y => __oxide_ctaid_y;
    /// Index of this block in the grid, z dimension (`%ctaid.z`).
    block_idx_z => __oxide_ctaid_z;
    /// Blocks per grid, x dimension (`%nctaid.x`).
    grid_dim_x => __oxide_nctaid_x;
    /// Blocks per grid, y dimension (`%nctaid.y`).
    grid_dim_y => __oxide_nctaid_y;
    /// Blocks per grid, z dimension (`%nctaid.z`).
    grid_dim_z => __oxide_nctaid_z;
}

/// A thread's global index in a one-dimensional launch.
///
/// Only [`index_1d`] makes one, so a value of this type is known to be
/// unique to the calling thread: [`DisjointSlice::get_mut`](crate::DisjointSlice::get_mut)
/// relies on that to hand out `&mut` without data races.
#[derive(Clone, Copy)]
pub struct ThreadIndex(usize);

impl ThreadIndex {
    /// The index as a number, e.g. to read input slices.
    #[inline(always)]
    pub fn get(self) -> usize {
        self.0
    }
}

/// `block_idx_x() * block_dim_x() + thread_idx_x()`, computed in `usize`
/// so grids of more than 2^32 threads do not wrap.
#[inline(always)]
pub fn index_1d() -> ThreadIndex {
    let block = block_idx_x() as usize;
    let dim = block_dim_x() as usize;
    ThreadIndex(block * dim + thread_idx_x() as usize)
}

/// A thread's (row, column) in a two-dimensional launch: the column is the
/// global x index, the row the global y index.
///
/// Only [`index_2d`] makes one, so it is unique to the calling thread, like
/// [`ThreadIndex`]; [`DisjointSlice2D::get_mut`](crate::DisjointSlice2D::get_mut)
/// relies on that.
#[derive(Clone, Copy)]
pub struct ThreadIndex2D {
    row: usize,
    col: usize,
}

impl ThreadIndex2D {
    /// The global y index.
    #[inline(always)]
    pub fn row(self) -> usize {
        self.row
    }

    /// The global x index.
    #[inline(always)]
    pub fn col(self) -> usize {
        self.col
    }
}

/// `(block_idx_y() * block_dim_y() + thread_idx_y(),
///   block_idx_x() * block_dim_x() + thread_idx_x())`, in `usize`.
#[inline(always)]
pub fn index_2d() -> ThreadIndex2D {
    let col = block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize;
    let row = block_idx_y() as usize * block_dim_y() as usize + thread_idx_y() as usize;
    ThreadIndex2D { row, col }
}
