//! The device heap: a `GlobalAlloc` over CUDA's device-side `malloc` and
//! `free`, so that a kernel crate can use alloc's `Vec` and `Box`:
//!
//! ```ignore
//! extern crate alloc;
//! #[global_allocator]
//! static HEAP: oxide_device::alloc::DeviceHeap = oxide_device::alloc::DeviceHeap;
//! ```
//!
//! The driver's heap is 8 MB unless the host sets
//! `cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)` before the module loads;
//! blocks are 16-byte aligned. When it is exhausted `malloc` returns null,
//! and alloc's `handle_alloc_error` traps. Under host emulation the heap
//! is the C library's.

use core::alloc::{GlobalAlloc, Layout};
use core::ptr;

use crate::prims::device::{__oxide_free, __oxide_malloc};

/// The alignment of every block CUDA's `malloc` returns.
const MALLOC_ALIGN: usize = 16;

/// CUDA's device heap as Rust's global allocator.
pub struct DeviceHeap;

unsafe impl GlobalAlloc for DeviceHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let align = layout.align();
        if align <= MALLOC_ALIGN {
            return unsafe { __oxide_malloc(layout.size() as u64) };
        }
        // A larger alignment: `align` bytes more, the block moved up to the
        // next multiple of `align` (at least 16 bytes up, as `malloc`'s
        // block is 16-aligned and `align` a larger power of two), and
        // `malloc`'s pointer kept in the 8 bytes just below it for `dealloc`.
        let Some(total) = layout.size().checked_add(align) else { return ptr::null_mut() };
        let raw = unsafe { __oxide_malloc(total as u64) };
        if raw.is_null() {
            return raw;
        }
        let up = align - (raw as usize & (align - 1));
        let block = unsafe { raw.add(up) };
        unsafe { block.cast::<*mut u8>().sub(1).write(raw) };
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let raw = match layout.align() <= MALLOC_ALIGN {
            true => block,
            false => unsafe { block.cast::<*mut u8>().sub(1).read() },
        };
        unsafe { __oxide_free(raw) }
    }
}
