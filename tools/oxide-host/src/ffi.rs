//! oxrt's C API (src/runtime/oxrt.h), declared by hand: the structs as
//! oxrt.h lays them out, the functions this crate calls. No bindgen, no
//! -sys crate; `tests/host-rs/run.sh` checks these layouts against C's.
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_int, c_uint, c_void};

pub type OxDevPtr = u64;

#[repr(C)]
pub struct OxModule {
    pub handle: *mut c_void,
    pub path: [c_char; 512],
    pub backend: *const c_void,
    pub device: c_int,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct OxFunc {
    pub handle: *mut c_void,
    pub name: [c_char; 128],
    pub path: [c_char; 512],
    pub backend: *const c_void,
    pub module: *mut c_void,
    pub device: c_int,
}

#[repr(C)]
pub struct OxEvent {
    pub handle: *mut c_void,
}

#[repr(C)]
pub struct OxStream {
    pub handle: *mut c_void,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct OxDim3 {
    pub x: c_uint,
    pub y: c_uint,
    pub z: c_uint,
}

#[repr(C)]
pub struct OxTensorMapDesc {
    pub global: OxDevPtr,
    pub rank: c_uint,
    pub elem_bytes: c_uint,
    pub dims: [u64; 5],
    pub strides: [u64; 5],
    pub boxdim: [u32; 5],
    pub swizzle: c_uint,
}

extern "C" {
    pub fn ox_init() -> c_int;
    pub fn ox_device_name(buf: *mut c_char, len: c_int) -> c_int;
    pub fn ox_device_attribute(value: *mut c_int, attrib: c_int) -> c_int;

    pub fn ox_module_load(m: *mut OxModule, path: *const c_char) -> c_int;
    pub fn ox_module_load_data(m: *mut OxModule, image: *const c_void, bytes: usize, name: *const c_char) -> c_int;
    pub fn ox_module_unload(m: *mut OxModule);
    pub fn ox_function(f: *mut OxFunc, m: *const OxModule, name: *const c_char) -> c_int;
    pub fn ox_func_attribute(value: *mut c_int, attrib: c_int, f: *const OxFunc) -> c_int;
    pub fn ox_func_set_max_dynamic_shared(f: *const OxFunc, bytes: c_uint) -> c_int;
    pub fn ox_tensor_map_encode(map: *mut c_void, f: *const OxFunc, d: *const OxTensorMapDesc) -> c_int;
    pub fn ox_module_global(m: *const OxModule, name: *const c_char, ptr: *mut OxDevPtr, size: *mut usize) -> c_int;

    pub fn ox_alloc(p: *mut OxDevPtr, bytes: usize) -> c_int;
    pub fn ox_free(p: OxDevPtr) -> c_int;
    pub fn ox_copy_to_device(dst: OxDevPtr, src: *const c_void, bytes: usize) -> c_int;
    pub fn ox_copy_from_device(dst: *mut c_void, src: OxDevPtr, bytes: usize) -> c_int;
    pub fn ox_memset8(p: OxDevPtr, value: u8, bytes: usize) -> c_int;
    pub fn ox_host_alloc(p: *mut *mut c_void, bytes: usize) -> c_int;
    pub fn ox_host_free(p: *mut c_void) -> c_int;

    pub fn ox_stream_create(s: *mut OxStream) -> c_int;
    pub fn ox_stream_destroy(s: *mut OxStream) -> c_int;
    pub fn ox_stream_synchronize(s: *const OxStream) -> c_int;
    pub fn ox_copy_to_device_async(dst: OxDevPtr, src: *const c_void, bytes: usize, s: *const OxStream) -> c_int;
    pub fn ox_copy_from_device_async(dst: *mut c_void, src: OxDevPtr, bytes: usize, s: *const OxStream) -> c_int;

    pub fn ox_launch_on(
        f: *const OxFunc,
        grid: OxDim3,
        block: OxDim3,
        shared_bytes: c_uint,
        s: *const OxStream,
        args: *mut *mut c_void,
    ) -> c_int;
    pub fn ox_launch_cluster_on(
        f: *const OxFunc,
        grid: OxDim3,
        block: OxDim3,
        cluster: OxDim3,
        shared_bytes: c_uint,
        s: *const OxStream,
        args: *mut *mut c_void,
    ) -> c_int;
    pub fn ox_launch_cooperative(
        f: *const OxFunc,
        grid: OxDim3,
        block: OxDim3,
        shared_bytes: c_uint,
        args: *mut *mut c_void,
    ) -> c_int;
    pub fn ox_synchronize() -> c_int;
    pub fn ox_set_stack_size(bytes: usize) -> c_int;

    pub fn ox_event_create(e: *mut OxEvent) -> c_int;
    pub fn ox_event_record_on(e: *mut OxEvent, s: *const OxStream) -> c_int;
    pub fn ox_event_elapsed_ms(ms: *mut f32, start: *mut OxEvent, end: *mut OxEvent) -> c_int;
    pub fn ox_event_destroy(e: *mut OxEvent);

    pub fn ox_error() -> *const c_char;
    pub fn ox_error_code() -> c_int;
    pub fn ox_error_name() -> *const c_char;
    pub fn ox_error_is_trap() -> c_int;
}
