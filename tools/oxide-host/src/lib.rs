//! oxide-host: Rust host programs for oxidec's kernels, over oxrt.
//!
//! One runtime, not two: this crate links oxrt (src/runtime/*.c, built by
//! its build.rs with the system C compiler, or the installed `liboxrt.a`)
//! and wraps its C API, declared by hand in `ffi.rs` (std only, no -sys
//! crate, no bindgen). So libcuda is opened with dlopen at run time as in
//! C programs, and a `.so` module (`oxidec --target=host`) runs on the CPU
//! by oxrt's emulator through the same calls: the tests run without a GPU.
//!
//! The typed API: [`DeviceBuffer<T>`] owns device memory and derefs to a
//! [`DeviceSlice<T>`] (borrowed like `[T]`: `&` to read, `&mut` to write,
//! sub-slices by ranges); [`HostBuffer<T>`] is pinned host memory;
//! [`Stream`] orders work, and [`Stream::scope`] holds the host memory of
//! asynchronous copies borrowed until the stream is synchronized;
//! [`Event`] times; [`Module`] loads a `.ptx`, `.cubin` or emulation `.so`
//! from a file or from bytes in the program; [`Kernel`] is one of its
//! kernels. Typed launches are generated: `oxidec --emit=rust` writes a
//! `Kernels<'m>` struct with one method per kernel whose arguments are the
//! kernel's (`&[f32]` is `&DeviceSlice<f32>`, `DisjointSlice<f32>` is
//! `&mut DeviceSlice<f32>`), and [`build::kernels`] runs mir-export and
//! oxidec from a build script and embeds the PTX. Errors are [`Error`]s
//! carrying oxrt's message.
//!
//! oxrt is not thread-safe, so nothing here is `Send` or `Sync`: use the
//! device from one thread.

pub mod build;
mod ffi;

use std::cell::UnsafeCell;
use std::ffi::{c_void, CStr, CString};
use std::fmt;
use std::marker::PhantomData;
use std::mem::{size_of, MaybeUninit};
use std::ops::{Bound, Deref, DerefMut, Index, IndexMut, RangeBounds};
use std::path::Path;
use std::sync::Once;

/// A failed oxrt call: its message (the call, what it concerned, the CUDA
/// error's name and text), and the CUDA error code.
#[derive(Clone, Debug)]
pub struct Error {
    code: i32,
    name: String,
    message: String,
    trap: bool,
}

impl Error {
    /// The CUDA error code (-1 for errors of oxrt or of this crate).
    pub fn code(&self) -> i32 {
        self.code
    }
    /// The CUDA name of the code ("CUDA_ERROR_LAUNCH_FAILED").
    pub fn name(&self) -> &str {
        &self.name
    }
    /// oxrt's message, as `ox_error()` has it.
    pub fn message(&self) -> &str {
        &self.message
    }
    /// Whether a kernel trapped (a failed bounds check, device_assert!):
    /// `ox_error_is_trap()`.
    pub fn is_trap(&self) -> bool {
        self.trap
    }
    fn usage(message: String) -> Error {
        Error { code: -1, name: "not a CUDA error".into(), message, trap: false }
    }
    fn last() -> Error {
        // SAFETY: oxrt's error state: NUL-terminated static strings.
        unsafe {
            Error {
                code: ffi::ox_error_code(),
                name: CStr::from_ptr(ffi::ox_error_name()).to_string_lossy().into_owned(),
                message: CStr::from_ptr(ffi::ox_error()).to_string_lossy().into_owned(),
                trap: ffi::ox_error_is_trap() != 0,
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// The result of every call of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// The value of `r`, or exit with status 1 after printing "WHAT failed:"
/// and oxrt's message: what oxrt's `OX_CHECK` (`ox_die`) does for C hosts.
pub fn or_exit<T>(r: Result<T>, what: &str) -> T {
    r.unwrap_or_else(|e| {
        eprintln!("{what} failed:\n  {e}");
        std::process::exit(1)
    })
}

fn check(rc: i32) -> Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(Error::last())
    }
}

/// Opens oxrt (`ox_init`: the CUDA driver if there is one, the emulator
/// always); every call of this crate does it first, so calling it is
/// optional.
pub fn init() -> Result<()> {
    static ONCE: Once = Once::new();
    let mut rc = 0;
    // SAFETY: ox_init takes no arguments and may be called again.
    ONCE.call_once(|| rc = unsafe { ffi::ox_init() });
    check(rc)
}

fn cstring(s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::usage(format!("{s:?}: a name with a NUL byte")))
}

/// The GPU's name, or the emulator's.
pub fn device_name() -> Result<String> {
    init()?;
    let mut buf = [0 as std::ffi::c_char; 256];
    // SAFETY: buf is as long as the length passed.
    check(unsafe { ffi::ox_device_name(buf.as_mut_ptr(), buf.len() as i32) })?;
    // SAFETY: oxrt wrote a NUL-terminated name into buf.
    Ok(unsafe { CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned())
}

/// The number of multiprocessors (`OX_DEV_MULTIPROCESSOR_COUNT`; 1
/// emulated).
pub fn multiprocessor_count() -> Result<u32> {
    init()?;
    let mut v = 0;
    // SAFETY: v is a valid out-pointer.
    check(unsafe { ffi::ox_device_attribute(&mut v, 16) })?;
    Ok(v as u32)
}

/// Waits for all work on the device (`ox_synchronize`); reports a failed
/// launch (`Error::is_trap` for a trap).
pub fn synchronize() -> Result<()> {
    init()?;
    // SAFETY: no arguments.
    check(unsafe { ffi::ox_synchronize() })
}

/// Sets the stack of each GPU thread (`ox_set_stack_size`): what a
/// recursive kernel needs (oxidec's warning says how much).
pub fn set_stack_size(bytes: usize) -> Result<()> {
    init()?;
    // SAFETY: a plain value.
    check(unsafe { ffi::ox_set_stack_size(bytes) })
}

type NotSend = PhantomData<*const ()>;

// ------------------------------------------------------------ memory

/// Types a device buffer may hold: plain data for which the all-zero
/// bytes are a value (a new buffer is zeroed) and so is anything a kernel
/// writes as a `T`. Integers, floats, `bool`, `char`, arrays of them,
/// device pointers, and the `#[repr(C)]` structs `oxidec --emit=rust`
/// generates (which implement it when every member does).
///
/// # Safety
/// Every value the device may leave in the memory of a `T` (zero bytes
/// included) must be a valid `T`: no references, no `NonZero`, no enums
/// with unused discriminants.
pub unsafe trait DeviceCopy: Copy {}

macro_rules! device_copy {
    ($($t:ty),*) => { $(unsafe impl DeviceCopy for $t {})* };
}
device_copy!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64, bool, char);
unsafe impl<T: DeviceCopy, const N: usize> DeviceCopy for [T; N] {}

/// A device address of a `T` the kernel reads (`*const T`, `&T`), as a
/// kernel parameter or a member of a `#[repr(C)]` struct; never
/// dereferenced on the host.
#[repr(transparent)]
pub struct DevicePtr<T> {
    addr: u64,
    _t: PhantomData<*const T>,
}

/// A device address of a `T` the kernel may write (`*mut T`, `&mut T`).
#[repr(transparent)]
pub struct DevicePtrMut<T> {
    addr: u64,
    _t: PhantomData<*mut T>,
}

macro_rules! device_ptr {
    ($p:ident) => {
        impl<T> $p<T> {
            /// The pointer holding a device address.
            pub fn from_addr(addr: u64) -> Self {
                $p { addr, _t: PhantomData }
            }
            /// The null pointer.
            pub fn null() -> Self {
                Self::from_addr(0)
            }
            /// Its device address.
            pub fn addr(self) -> u64 {
                self.addr
            }
            /// The same address as a pointer to another type.
            pub fn cast<U>(self) -> $p<U> {
                $p::from_addr(self.addr)
            }
            /// `count` elements further (no bounds: a raw pointer).
            pub fn wrapping_add(self, count: usize) -> Self {
                Self::from_addr(self.addr.wrapping_add((count * size_of::<T>()) as u64))
            }
        }
        impl<T> Clone for $p<T> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T> Copy for $p<T> {}
        impl<T> fmt::Debug for $p<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:#x})", stringify!($p), self.addr)
            }
        }
        unsafe impl<T> DeviceCopy for $p<T> {}
    };
}
device_ptr!(DevicePtr);
device_ptr!(DevicePtrMut);

impl<T> DevicePtrMut<T> {
    /// The same address, for a kernel that only reads it.
    pub fn as_const(self) -> DevicePtr<T> {
        DevicePtr::from_addr(self.addr)
    }
}

/// Elements of type `T` in device memory, borrowed like a `[T]`: a
/// `&DeviceSlice<T>` for a kernel's `&[T]`, a `&mut DeviceSlice<T>` for
/// its `DisjointSlice<T>` or any slice it writes. Its address and length
/// are a `&[()]`'s (a zero-sized element, so the reference is valid for
/// any address and never reads host memory).
#[repr(transparent)]
pub struct DeviceSlice<T> {
    _t: PhantomData<T>,
    units: [()],
}

fn range_of(r: impl RangeBounds<usize>, len: usize) -> (usize, usize) {
    let start = match r.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s + 1,
        Bound::Unbounded => 0,
    };
    let end = match r.end_bound() {
        Bound::Included(&e) => e + 1,
        Bound::Excluded(&e) => e,
        Bound::Unbounded => len,
    };
    assert!(start <= end && end <= len, "range {start}..{end} out of a device slice of {len} elements");
    (start, end)
}

impl<T: DeviceCopy> DeviceSlice<T> {
    /// # Safety
    /// addr..addr + len * size_of::<T>() is device memory that outlives 'a,
    /// not otherwise borrowed mutably; addr is not 0.
    unsafe fn from_raw<'a>(addr: u64, len: usize) -> &'a Self {
        &*(std::ptr::slice_from_raw_parts(std::ptr::without_provenance::<()>(addr as usize), len) as *const Self)
    }

    /// # Safety
    /// As from_raw, and not borrowed at all elsewhere.
    unsafe fn from_raw_mut<'a>(addr: u64, len: usize) -> &'a mut Self {
        &mut *(std::ptr::slice_from_raw_parts_mut(std::ptr::without_provenance_mut::<()>(addr as usize), len)
            as *mut Self)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.units.len()
    }

    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// The device address of the first element.
    pub fn device_addr(&self) -> u64 {
        self.units.as_ptr() as usize as u64
    }

    fn bytes(&self) -> usize {
        self.len() * size_of::<T>()
    }

    /// The first element's address, for a kernel's `*const T` / `&T`.
    pub fn as_device_ptr(&self) -> DevicePtr<T> {
        DevicePtr::from_addr(self.device_addr())
    }

    /// The first element's address, for a kernel's `*mut T` / `&mut T`.
    pub fn as_device_ptr_mut(&mut self) -> DevicePtrMut<T> {
        DevicePtrMut::from_addr(self.device_addr())
    }

    /// Two disjoint parts, `..mid` and `mid..`.
    pub fn split_at_mut(&mut self, mid: usize) -> (&mut Self, &mut Self) {
        assert!(mid <= self.len(), "split at {mid} of a device slice of {} elements", self.len());
        let (a, n) = (self.device_addr(), self.len());
        // SAFETY: two disjoint parts of memory self borrows mutably.
        unsafe { (Self::from_raw_mut(a, mid), Self::from_raw_mut(a + (mid * size_of::<T>()) as u64, n - mid)) }
    }

    fn same_len(&self, what: &str, host: usize) -> Result<()> {
        if host == self.len() {
            return Ok(());
        }
        Err(Error::usage(format!(
            "{what}: the device slice has {} elements of {} bytes, the host slice {host}: refused",
            self.len(),
            size_of::<T>()
        )))
    }

    /// Copies `src` into the slice (`ox_copy_to_device`); the lengths
    /// must be equal.
    pub fn copy_from_host(&mut self, src: &[T]) -> Result<()> {
        self.same_len("copy_from_host", src.len())?;
        if self.is_empty() {
            return Ok(());
        }
        // SAFETY: src holds self.bytes() bytes; the device memory is ours.
        check(unsafe { ffi::ox_copy_to_device(self.device_addr(), src.as_ptr() as *const c_void, self.bytes()) })
    }

    /// Copies the slice into `dst` (`ox_copy_from_device`, which waits for
    /// the work before it and reports a trap); the lengths must be equal.
    pub fn copy_to_host(&self, dst: &mut [T]) -> Result<()> {
        self.same_len("copy_to_host", dst.len())?;
        if self.is_empty() {
            return synchronize();
        }
        // SAFETY: dst holds self.bytes() bytes; any bytes are a T (DeviceCopy).
        check(unsafe { ffi::ox_copy_from_device(dst.as_mut_ptr() as *mut c_void, self.device_addr(), self.bytes()) })
    }

    /// The elements, copied to a new vector.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let mut v: Vec<MaybeUninit<T>> = Vec::with_capacity(self.len());
        // SAFETY: copied into the capacity, then every element is set
        // (DeviceCopy: the device's bytes are T's).
        unsafe {
            if !self.is_empty() {
                check(ffi::ox_copy_from_device(v.as_mut_ptr() as *mut c_void, self.device_addr(), self.bytes()))?;
            }
            v.set_len(self.len());
            Ok(std::mem::transmute::<Vec<MaybeUninit<T>>, Vec<T>>(v))
        }
    }

    /// Sets every byte to `value` (`ox_memset8`).
    pub fn fill_bytes(&mut self, value: u8) -> Result<()> {
        if self.is_empty() {
            return Ok(());
        }
        // SAFETY: the slice's own bytes.
        check(unsafe { ffi::ox_memset8(self.device_addr(), value, self.bytes()) })
    }
}

impl<T: DeviceCopy, R: RangeBounds<usize>> Index<R> for DeviceSlice<T> {
    type Output = DeviceSlice<T>;
    fn index(&self, r: R) -> &DeviceSlice<T> {
        let (s, e) = range_of(r, self.len());
        // SAFETY: a part of the memory self borrows.
        unsafe { Self::from_raw(self.device_addr() + (s * size_of::<T>()) as u64, e - s) }
    }
}

impl<T: DeviceCopy, R: RangeBounds<usize>> IndexMut<R> for DeviceSlice<T> {
    fn index_mut(&mut self, r: R) -> &mut DeviceSlice<T> {
        let (s, e) = range_of(r, self.len());
        // SAFETY: a part of the memory self borrows mutably.
        unsafe { Self::from_raw_mut(self.device_addr() + (s * size_of::<T>()) as u64, e - s) }
    }
}

impl<T: DeviceCopy> fmt::Debug for DeviceSlice<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DeviceSlice<{}>({:#x}, {})", std::any::type_name::<T>(), self.device_addr(), self.len())
    }
}

/// Device memory holding `len` values of `T` (`ox_alloc`, freed on drop);
/// derefs to its [`DeviceSlice<T>`].
pub struct DeviceBuffer<T: DeviceCopy> {
    addr: u64,
    len: usize,
    _t: PhantomData<T>,
    _ns: NotSend,
}

fn bytes_of<T>(len: usize) -> Result<usize> {
    len.checked_mul(size_of::<T>())
        .ok_or_else(|| Error::usage(format!("{len} elements of {} bytes: too large", size_of::<T>())))
}

impl<T: DeviceCopy> DeviceBuffer<T> {
    /// `len` elements, every byte zero.
    pub fn zeroed(len: usize) -> Result<Self> {
        init()?;
        let bytes = bytes_of::<T>(len)?;
        if bytes == 0 {
            // no memory: a dangling, aligned, non-null address
            return Ok(DeviceBuffer { addr: std::mem::align_of::<T>() as u64, len, _t: PhantomData, _ns: PhantomData });
        }
        let mut addr = 0;
        // SAFETY: an out-pointer.
        check(unsafe { ffi::ox_alloc(&mut addr, bytes) })?;
        let mut b = DeviceBuffer { addr, len, _t: PhantomData, _ns: PhantomData };
        b.fill_bytes(0)?;
        Ok(b)
    }

    /// A copy of `src` in device memory.
    pub fn from_slice(src: &[T]) -> Result<Self> {
        let mut b = Self::zeroed(src.len())?;
        b.copy_from_host(src)?;
        Ok(b)
    }
}

impl<T: DeviceCopy> Deref for DeviceBuffer<T> {
    type Target = DeviceSlice<T>;
    fn deref(&self) -> &DeviceSlice<T> {
        // SAFETY: the buffer's memory, borrowed through self.
        unsafe { DeviceSlice::from_raw(self.addr, self.len) }
    }
}

impl<T: DeviceCopy> DerefMut for DeviceBuffer<T> {
    fn deref_mut(&mut self) -> &mut DeviceSlice<T> {
        // SAFETY: the buffer's memory, borrowed mutably through self.
        unsafe { DeviceSlice::from_raw_mut(self.addr, self.len) }
    }
}

impl<T: DeviceCopy> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        if self.len * size_of::<T>() != 0 {
            // SAFETY: ours, from ox_alloc; a failure cannot be reported here.
            unsafe { ffi::ox_free(self.addr) };
        }
    }
}

impl<T: DeviceCopy> fmt::Debug for DeviceBuffer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.deref().fmt(f)
    }
}

/// Page-locked ("pinned") host memory of `len` values of `T`
/// (`ox_host_alloc`), which asynchronous copies need to overlap with
/// other work; derefs to `[T]`.
pub struct HostBuffer<T: DeviceCopy> {
    ptr: *mut T,
    len: usize,
}

impl<T: DeviceCopy> HostBuffer<T> {
    /// `len` elements, every byte zero.
    pub fn zeroed(len: usize) -> Result<Self> {
        init()?;
        let bytes = bytes_of::<T>(len)?;
        if bytes == 0 {
            return Ok(HostBuffer { ptr: std::ptr::NonNull::dangling().as_ptr(), len });
        }
        let mut p = std::ptr::null_mut();
        // SAFETY: an out-pointer.
        check(unsafe { ffi::ox_host_alloc(&mut p, bytes) })?;
        // SAFETY: bytes of fresh memory; zero is a T (DeviceCopy).
        unsafe { std::ptr::write_bytes(p as *mut u8, 0, bytes) };
        Ok(HostBuffer { ptr: p as *mut T, len })
    }
}

impl<T: DeviceCopy> Deref for HostBuffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: len initialised elements we own.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: DeviceCopy> DerefMut for HostBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as deref, borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl<T: DeviceCopy> Drop for HostBuffer<T> {
    fn drop(&mut self) {
        if self.len * size_of::<T>() != 0 {
            // SAFETY: ours, from ox_host_alloc.
            unsafe { ffi::ox_host_free(self.ptr as *mut c_void) };
        }
    }
}

// ------------------------------------------------- streams and events

/// A stream (`ox_stream_create`): its work runs in issue order; work on
/// other streams may overlap. Destroyed on drop (its work completes).
pub struct Stream {
    raw: Box<UnsafeCell<ffi::OxStream>>,
}

impl Stream {
    pub fn new() -> Result<Stream> {
        init()?;
        let raw = Box::new(UnsafeCell::new(ffi::OxStream { handle: std::ptr::null_mut() }));
        // SAFETY: an out-pointer.
        check(unsafe { ffi::ox_stream_create(raw.get()) })?;
        Ok(Stream { raw })
    }

    fn ptr(&self) -> *const ffi::OxStream {
        self.raw.get()
    }

    /// Waits for the stream's work; reports a failure of it.
    pub fn synchronize(&self) -> Result<()> {
        // SAFETY: a live stream.
        check(unsafe { ffi::ox_stream_synchronize(self.ptr()) })
    }

    /// Runs `f` with a [`Scope`] that issues asynchronous copies on this
    /// stream, then synchronizes the stream (also when `f` fails or
    /// panics). The host memory of the copies stays borrowed until then,
    /// so it can be neither read nor changed while a copy may be in
    /// flight. The stream's error, if any, comes after `f`'s.
    pub fn scope<'a, R>(&'a self, f: impl FnOnce(&Scope<'a>) -> Result<R>) -> Result<R> {
        struct SyncOnDrop<'s>(&'s Stream);
        impl Drop for SyncOnDrop<'_> {
            fn drop(&mut self) {
                let _ = self.0.synchronize();
            }
        }
        let guard = SyncOnDrop(self);
        let scope = Scope { stream: self, _inv: PhantomData };
        let r = f(&scope);
        std::mem::forget(guard);
        let s = self.synchronize();
        let r = r?;
        s.map(|_| r)
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: ours, not used after.
        unsafe { ffi::ox_stream_destroy(self.raw.get()) };
    }
}

/// Asynchronous copies on a stream, inside [`Stream::scope`]: the host
/// slices stay borrowed for `'a`, past the synchronization that ends the
/// scope.
pub struct Scope<'a> {
    stream: &'a Stream,
    _inv: PhantomData<&'a mut &'a ()>,
}

impl<'a> Scope<'a> {
    /// The stream, for launches and events in the scope.
    pub fn stream(&self) -> &'a Stream {
        self.stream
    }

    /// `dst` = `src`, issued on the stream (`ox_copy_to_device_async`);
    /// equal lengths.
    pub fn copy_to_device<T: DeviceCopy>(&self, dst: &mut DeviceSlice<T>, src: &'a [T]) -> Result<()> {
        dst.same_len("copy_to_device (async)", src.len())?;
        if dst.is_empty() {
            return Ok(());
        }
        // SAFETY: src is borrowed until the stream is synchronized.
        check(unsafe {
            ffi::ox_copy_to_device_async(dst.device_addr(), src.as_ptr() as *const c_void, dst.bytes(), self.stream.ptr())
        })
    }

    /// `dst` = `src`, issued on the stream (`ox_copy_from_device_async`);
    /// `dst` holds the data once the scope ends. Equal lengths.
    pub fn copy_to_host<T: DeviceCopy>(&self, src: &DeviceSlice<T>, dst: &'a mut [T]) -> Result<()> {
        src.same_len("copy_to_host (async)", dst.len())?;
        if src.is_empty() {
            return Ok(());
        }
        // SAFETY: dst is borrowed until the stream is synchronized; the
        // device's bytes are T's (DeviceCopy).
        check(unsafe {
            ffi::ox_copy_from_device_async(dst.as_mut_ptr() as *mut c_void, src.device_addr(), src.bytes(), self.stream.ptr())
        })
    }
}

/// An event for timing (`ox_event_create`).
pub struct Event {
    raw: Box<UnsafeCell<ffi::OxEvent>>,
}

impl Event {
    pub fn new() -> Result<Event> {
        init()?;
        let raw = Box::new(UnsafeCell::new(ffi::OxEvent { handle: std::ptr::null_mut() }));
        // SAFETY: an out-pointer.
        check(unsafe { ffi::ox_event_create(raw.get()) })?;
        Ok(Event { raw })
    }

    /// Records the event on `stream` (None: the default stream).
    pub fn record(&self, stream: Option<&Stream>) -> Result<()> {
        // SAFETY: a live event and stream.
        check(unsafe { ffi::ox_event_record_on(self.raw.get(), stream.map_or(std::ptr::null(), |s| s.ptr())) })
    }

    /// Waits for `end`, then the milliseconds between this event and it.
    pub fn elapsed_ms(&self, end: &Event) -> Result<f32> {
        let mut ms = 0.0f32;
        // SAFETY: live events; oxrt only reads them.
        check(unsafe { ffi::ox_event_elapsed_ms(&mut ms, self.raw.get(), end.raw.get()) })?;
        Ok(ms)
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: ours.
        unsafe { ffi::ox_event_destroy(self.raw.get()) };
    }
}

// -------------------------------------------------- modules and kernels

/// A loaded module (`ox_module_load`): `.ptx` is JIT-compiled, `.cubin`
/// loaded as is, `.so` (`oxidec --target=host`) run by emulation. One
/// process uses one kind. Unloaded on drop; its kernels borrow it.
pub struct Module {
    raw: Box<ffi::OxModule>,
    _ns: NotSend,
}

fn blank_module() -> Box<ffi::OxModule> {
    Box::new(ffi::OxModule { handle: std::ptr::null_mut(), path: [0; 512], backend: std::ptr::null(), device: 0 })
}

impl Module {
    /// The module in file `path`; its extension picks the kind.
    pub fn load(path: impl AsRef<Path>) -> Result<Module> {
        init()?;
        let p = cstring(&path.as_ref().to_string_lossy())?;
        let mut raw = blank_module();
        // SAFETY: raw is a blank OxModule, p a C string.
        check(unsafe { ffi::ox_module_load(&mut *raw, p.as_ptr()) })?;
        Ok(Module { raw, _ns: PhantomData })
    }

    /// The module from the bytes of such a file in the program (e.g.
    /// `include_bytes!` of the PTX: `ox_module_load_data`); `name` is what
    /// the file's name would be ("vecadd.ptx", "vecadd.so"): its extension
    /// picks the kind, and it names the module in messages.
    pub fn from_image(name: &str, image: &[u8]) -> Result<Module> {
        init()?;
        let n = cstring(name)?;
        let mut raw = blank_module();
        // SAFETY: image is image.len() bytes; oxrt copies what it keeps.
        check(unsafe { ffi::ox_module_load_data(&mut *raw, image.as_ptr() as *const c_void, image.len(), n.as_ptr()) })?;
        Ok(Module { raw, _ns: PhantomData })
    }

    /// The module's path or name.
    pub fn path(&self) -> String {
        // SAFETY: oxrt keeps a NUL-terminated path.
        unsafe { CStr::from_ptr(self.raw.path.as_ptr()) }.to_string_lossy().into_owned()
    }

    /// Its kernel of this PTX name (`ox_function`); the generated
    /// `Kernels::new` finds them all.
    pub fn kernel(&self, name: &str) -> Result<Kernel<'_>> {
        let n = cstring(name)?;
        let mut raw = MaybeUninit::<ffi::OxFunc>::zeroed();
        // SAFETY: an out-pointer to a zeroed OxFunc (a valid one: pointers
        // and bytes), a loaded module.
        check(unsafe { ffi::ox_function(raw.as_mut_ptr(), &*self.raw, n.as_ptr()) })?;
        // SAFETY: ox_function filled it.
        Ok(Kernel { raw: unsafe { raw.assume_init() }, _m: PhantomData })
    }

    /// A global of the module by name (a `Constant<T>` static): its device
    /// address and size in bytes (`ox_module_global`). Write it with
    /// [`write_global`](Self::write_global).
    pub fn global(&self, name: &str) -> Result<(DevicePtrMut<u8>, usize)> {
        let n = cstring(name)?;
        let (mut p, mut size) = (0u64, 0usize);
        // SAFETY: out-pointers, a loaded module.
        check(unsafe { ffi::ox_module_global(&*self.raw, n.as_ptr(), &mut p, &mut size) })?;
        Ok((DevicePtrMut::from_addr(p), size))
    }

    /// Sets global `name` (e.g. constant memory) to `value`; its size must
    /// be `size_of::<T>()`.
    pub fn write_global<T: DeviceCopy>(&self, name: &str, value: &T) -> Result<()> {
        let (p, size) = self.global(name)?;
        if size != size_of::<T>() {
            return Err(Error::usage(format!(
                "write_global({name}): the global has {size} bytes, the value {}: refused",
                size_of::<T>()
            )));
        }
        // SAFETY: size bytes of the module's global.
        check(unsafe { ffi::ox_copy_to_device(p.addr(), value as *const T as *const c_void, size) })
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: ours; the kernels that borrowed it are gone.
        unsafe { ffi::ox_module_unload(&mut *self.raw) };
    }
}

/// Three dimensions of a grid, a block or a cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub const fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }
    fn raw(self) -> ffi::OxDim3 {
        ffi::OxDim3 { x: self.x, y: self.y, z: self.z }
    }
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Dim3 {
        Dim3::new(x, 1, 1)
    }
}
impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Dim3 {
        Dim3::new(x, y, 1)
    }
}
impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Dim3 {
        Dim3::new(x, y, z)
    }
}

/// The shape of a launch: grid and block, dynamic shared memory, and
/// optionally thread-block clusters (sm_90+). The stream is the launch
/// method's own argument (cooperative kernels take none).
#[derive(Clone, Copy, Debug)]
pub struct LaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared_bytes: u32,
    pub cluster: Option<Dim3>,
}

impl LaunchConfig {
    pub fn new(grid: impl Into<Dim3>, block: impl Into<Dim3>) -> LaunchConfig {
        LaunchConfig { grid: grid.into(), block: block.into(), shared_bytes: 0, cluster: None }
    }
    /// One thread per element: blocks of `block` threads, enough of them
    /// for `n` (`ox_blocks_for`).
    pub fn for_elements(n: usize, block: u32) -> LaunchConfig {
        let blocks = n.div_ceil(block as usize);
        LaunchConfig::new(u32::try_from(blocks).expect("too many blocks for one grid dimension"), block)
    }
    /// With `bytes` of dynamic shared memory.
    pub fn shared(self, bytes: u32) -> LaunchConfig {
        LaunchConfig { shared_bytes: bytes, ..self }
    }
    /// In clusters of `cluster` blocks (`ox_launch_cluster_on`).
    pub fn cluster(self, cluster: impl Into<Dim3>) -> LaunchConfig {
        LaunchConfig { cluster: Some(cluster.into()), ..self }
    }
}

/// A TMA tensor map (CUDA's CUtensorMap), passed by value to a kernel's
/// `map: TensorMap`; made by [`Kernel::tensor_map`].
#[repr(C, align(128))]
#[derive(Clone, Copy)]
pub struct TensorMap {
    pub bytes: [u8; 128],
}

/// What a tensor map describes (oxrt.h's OxTensorMapDesc).
#[derive(Clone, Copy, Debug, Default)]
pub struct TensorMapDesc {
    pub global: u64,
    pub rank: u32,
    pub elem_bytes: u32,
    pub dims: [u64; 5],
    pub strides: [u64; 5],
    pub boxdim: [u32; 5],
    pub swizzle: u32,
}

/// A kernel of a loaded module (`ox_function`). Launch it through the
/// generated `Kernels` methods; the raw launches are for generated code.
#[derive(Clone, Copy)]
pub struct Kernel<'m> {
    raw: ffi::OxFunc,
    _m: PhantomData<&'m Module>,
}

impl<'m> Kernel<'m> {
    /// Its PTX name.
    pub fn name(&self) -> String {
        // SAFETY: oxrt keeps a NUL-terminated name.
        unsafe { CStr::from_ptr(self.raw.name.as_ptr()) }.to_string_lossy().into_owned()
    }

    /// A CUfunction_attribute (`ox_func_attribute`; GPU only but for the
    /// cluster shape).
    pub fn attribute(&self, attrib: i32) -> Result<i32> {
        let mut v = 0;
        // SAFETY: out-pointer, a live kernel.
        check(unsafe { ffi::ox_func_attribute(&mut v, attrib, &self.raw) })?;
        Ok(v)
    }

    /// Lets launches use up to `bytes` of dynamic shared memory.
    pub fn set_max_dynamic_shared(&self, bytes: u32) -> Result<()> {
        // SAFETY: a live kernel.
        check(unsafe { ffi::ox_func_set_max_dynamic_shared(&self.raw, bytes) })
    }

    /// A tensor map of `desc` for this kernel's module.
    pub fn tensor_map(&self, desc: &TensorMapDesc) -> Result<TensorMap> {
        let d = ffi::OxTensorMapDesc {
            global: desc.global,
            rank: desc.rank,
            elem_bytes: desc.elem_bytes,
            dims: desc.dims,
            strides: desc.strides,
            boxdim: desc.boxdim,
            swizzle: desc.swizzle,
        };
        let mut map = TensorMap { bytes: [0; 128] };
        // SAFETY: 128 aligned bytes, a description, a live kernel.
        check(unsafe { ffi::ox_tensor_map_encode(&mut map as *mut TensorMap as *mut c_void, &self.raw, &d) })?;
        Ok(map)
    }

    /// Launches the kernel on `stream` (None: the default stream):
    /// `ox_launch_on`, or `ox_launch_cluster_on` with `cfg.cluster`.
    ///
    /// # Safety
    /// `args` are the kernel's PTX parameters in order, each pointing at a
    /// value of that parameter's type and size (what the generated
    /// launchers pass), and the memory they address is device memory the
    /// kernel may use as its signature says.
    pub unsafe fn launch_raw(&self, cfg: LaunchConfig, stream: Option<&Stream>, args: &mut [*mut c_void]) -> Result<()> {
        let s = stream.map_or(std::ptr::null(), |s| s.ptr());
        let a = if args.is_empty() { std::ptr::null_mut() } else { args.as_mut_ptr() };
        check(match cfg.cluster {
            None => ffi::ox_launch_on(&self.raw, cfg.grid.raw(), cfg.block.raw(), cfg.shared_bytes, s, a),
            Some(c) => ffi::ox_launch_cluster_on(&self.raw, cfg.grid.raw(), cfg.block.raw(), c.raw(), cfg.shared_bytes, s, a),
        })
    }

    /// Launches the kernel cooperatively (`ox_launch_cooperative`: every
    /// block resident at once, for grid::sync()), on the default stream.
    ///
    /// # Safety
    /// As [`launch_raw`](Self::launch_raw).
    pub unsafe fn launch_cooperative_raw(&self, cfg: LaunchConfig, args: &mut [*mut c_void]) -> Result<()> {
        if cfg.cluster.is_some() {
            return Err(Error::usage(format!("{}: a cooperative launch takes no clusters", self.name())));
        }
        let a = if args.is_empty() { std::ptr::null_mut() } else { args.as_mut_ptr() };
        check(ffi::ox_launch_cooperative(&self.raw, cfg.grid.raw(), cfg.block.raw(), cfg.shared_bytes, a))
    }
}

#[cfg(test)]
mod tests;

/// Includes what [`build::kernels`] generated for the kernel crate `NAME`
/// (`OUT_DIR/NAME.rs`): `mod vecadd { oxide_host::include_kernels!("vecadd"); }`
/// gives `vecadd::Kernels`, `vecadd::load()`, `vecadd::load_emulated()`,
/// `vecadd::PTX`.
#[macro_export]
macro_rules! include_kernels {
    ($name:literal) => {
        include!(concat!(env!("OUT_DIR"), "/", $name, ".rs"));
    };
}
