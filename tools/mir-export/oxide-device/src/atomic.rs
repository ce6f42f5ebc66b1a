//! Atomics beyond `core::sync::atomic`: floating-point add and CUDA-style
//! scoped atomics on raw pointers into global or shared memory, relaxed
//! like CUDA's `atomicAdd` / `atomicAdd_block` / `atomicAdd_system`.
//!
//! `core::sync::atomic` types (`AtomicU32::fetch_add` & co.) work on the
//! GPU as they are, with device scope. Here the scope is in the name:
//!
//! | function | LLVM syncscope | PTX scope | visible to |
//! |---|---|---|---|
//! | `atomic_add_block` | `"block"` | `.cta` | the threads of this block |
//! | `atomic_add` | `"device"` | `.gpu` | every thread of the grid |
//! | `atomic_add_system` | system | `.sys` | also the host and other GPUs |
//!
//! Every function returns the value before the operation. Safety: `ptr`
//! must be valid and aligned for `T`, in global or shared memory, and only
//! accessed atomically while others may access it.
//!
//! This file is generated (see the commit that added it); the extern
//! symbols `__oxide_atomic_<op>_<ty>_<scope>` are GPU primitives that
//! oxidec turns into `atomicrmw` / `cmpxchg`.

/// Where an atomic must be visible (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    Block,
    Device,
    System,
}

mod prims {
    extern "C" {
        pub fn __oxide_atomic_add_u32_block(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_add_u32_device(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_add_u32_system(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_exch_u32_block(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_exch_u32_device(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_exch_u32_system(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_sub_u32_block(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_sub_u32_device(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_sub_u32_system(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_min_u32_block(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_min_u32_device(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_min_u32_system(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_max_u32_block(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_max_u32_device(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_max_u32_system(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_and_u32_block(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_and_u32_device(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_and_u32_system(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_or_u32_block(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_or_u32_device(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_or_u32_system(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_xor_u32_block(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_xor_u32_device(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_xor_u32_system(p: *mut u32, v: u32) -> u32;
        pub fn __oxide_atomic_cas_u32_block(p: *mut u32, cmp: u32, new: u32) -> u32;
        pub fn __oxide_atomic_cas_u32_device(p: *mut u32, cmp: u32, new: u32) -> u32;
        pub fn __oxide_atomic_cas_u32_system(p: *mut u32, cmp: u32, new: u32) -> u32;
        pub fn __oxide_atomic_add_i32_block(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_add_i32_device(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_add_i32_system(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_exch_i32_block(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_exch_i32_device(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_exch_i32_system(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_sub_i32_block(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_sub_i32_device(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_sub_i32_system(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_min_i32_block(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_min_i32_device(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_min_i32_system(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_max_i32_block(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_max_i32_device(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_max_i32_system(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_and_i32_block(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_and_i32_device(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_and_i32_system(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_or_i32_block(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_or_i32_device(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_or_i32_system(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_xor_i32_block(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_xor_i32_device(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_xor_i32_system(p: *mut i32, v: i32) -> i32;
        pub fn __oxide_atomic_cas_i32_block(p: *mut i32, cmp: i32, new: i32) -> i32;
        pub fn __oxide_atomic_cas_i32_device(p: *mut i32, cmp: i32, new: i32) -> i32;
        pub fn __oxide_atomic_cas_i32_system(p: *mut i32, cmp: i32, new: i32) -> i32;
        pub fn __oxide_atomic_add_u64_block(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_add_u64_device(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_add_u64_system(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_exch_u64_block(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_exch_u64_device(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_exch_u64_system(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_sub_u64_block(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_sub_u64_device(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_sub_u64_system(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_min_u64_block(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_min_u64_device(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_min_u64_system(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_max_u64_block(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_max_u64_device(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_max_u64_system(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_and_u64_block(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_and_u64_device(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_and_u64_system(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_or_u64_block(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_or_u64_device(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_or_u64_system(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_xor_u64_block(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_xor_u64_device(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_xor_u64_system(p: *mut u64, v: u64) -> u64;
        pub fn __oxide_atomic_cas_u64_block(p: *mut u64, cmp: u64, new: u64) -> u64;
        pub fn __oxide_atomic_cas_u64_device(p: *mut u64, cmp: u64, new: u64) -> u64;
        pub fn __oxide_atomic_cas_u64_system(p: *mut u64, cmp: u64, new: u64) -> u64;
        pub fn __oxide_atomic_add_i64_block(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_add_i64_device(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_add_i64_system(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_exch_i64_block(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_exch_i64_device(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_exch_i64_system(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_sub_i64_block(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_sub_i64_device(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_sub_i64_system(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_min_i64_block(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_min_i64_device(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_min_i64_system(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_max_i64_block(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_max_i64_device(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_max_i64_system(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_and_i64_block(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_and_i64_device(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_and_i64_system(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_or_i64_block(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_or_i64_device(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_or_i64_system(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_xor_i64_block(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_xor_i64_device(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_xor_i64_system(p: *mut i64, v: i64) -> i64;
        pub fn __oxide_atomic_cas_i64_block(p: *mut i64, cmp: i64, new: i64) -> i64;
        pub fn __oxide_atomic_cas_i64_device(p: *mut i64, cmp: i64, new: i64) -> i64;
        pub fn __oxide_atomic_cas_i64_system(p: *mut i64, cmp: i64, new: i64) -> i64;
        pub fn __oxide_atomic_add_f32_block(p: *mut f32, v: f32) -> f32;
        pub fn __oxide_atomic_add_f32_device(p: *mut f32, v: f32) -> f32;
        pub fn __oxide_atomic_add_f32_system(p: *mut f32, v: f32) -> f32;
        pub fn __oxide_atomic_exch_f32_block(p: *mut f32, v: f32) -> f32;
        pub fn __oxide_atomic_exch_f32_device(p: *mut f32, v: f32) -> f32;
        pub fn __oxide_atomic_exch_f32_system(p: *mut f32, v: f32) -> f32;
        pub fn __oxide_atomic_add_f64_block(p: *mut f64, v: f64) -> f64;
        pub fn __oxide_atomic_add_f64_device(p: *mut f64, v: f64) -> f64;
        pub fn __oxide_atomic_add_f64_system(p: *mut f64, v: f64) -> f64;
        pub fn __oxide_atomic_exch_f64_block(p: *mut f64, v: f64) -> f64;
        pub fn __oxide_atomic_exch_f64_device(p: *mut f64, v: f64) -> f64;
        pub fn __oxide_atomic_exch_f64_system(p: *mut f64, v: f64) -> f64;
    }
}

/// Types with atomic add and exchange: u32, i32, u64, i64, f32, f64.
pub trait AtomicValue: Copy {
    #[doc(hidden)]
    unsafe fn __rmw(op: RmwOp, ptr: *mut Self, v: Self, scope: Scope) -> Self;
}

/// Types with every atomic: u32, i32, u64, i64.
pub trait AtomicInt: AtomicValue {
    #[doc(hidden)]
    unsafe fn __cas(ptr: *mut Self, cmp: Self, new: Self, scope: Scope) -> Self;
}

#[doc(hidden)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum RmwOp {
    Add,
    Exch,
    Sub,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl AtomicValue for u32 {
    #[inline(always)]
    unsafe fn __rmw(op: RmwOp, ptr: *mut Self, v: Self, scope: Scope) -> Self {
        match (op, scope) {
            (RmwOp::Add, Scope::Block) => prims::__oxide_atomic_add_u32_block(ptr, v),
            (RmwOp::Add, Scope::Device) => prims::__oxide_atomic_add_u32_device(ptr, v),
            (RmwOp::Add, Scope::System) => prims::__oxide_atomic_add_u32_system(ptr, v),
            (RmwOp::Exch, Scope::Block) => prims::__oxide_atomic_exch_u32_block(ptr, v),
            (RmwOp::Exch, Scope::Device) => prims::__oxide_atomic_exch_u32_device(ptr, v),
            (RmwOp::Exch, Scope::System) => prims::__oxide_atomic_exch_u32_system(ptr, v),
            (RmwOp::Sub, Scope::Block) => prims::__oxide_atomic_sub_u32_block(ptr, v),
            (RmwOp::Sub, Scope::Device) => prims::__oxide_atomic_sub_u32_device(ptr, v),
            (RmwOp::Sub, Scope::System) => prims::__oxide_atomic_sub_u32_system(ptr, v),
            (RmwOp::Min, Scope::Block) => prims::__oxide_atomic_min_u32_block(ptr, v),
            (RmwOp::Min, Scope::Device) => prims::__oxide_atomic_min_u32_device(ptr, v),
            (RmwOp::Min, Scope::System) => prims::__oxide_atomic_min_u32_system(ptr, v),
            (RmwOp::Max, Scope::Block) => prims::__oxide_atomic_max_u32_block(ptr, v),
            (RmwOp::Max, Scope::Device) => prims::__oxide_atomic_max_u32_device(ptr, v),
            (RmwOp::Max, Scope::System) => prims::__oxide_atomic_max_u32_system(ptr, v),
            (RmwOp::And, Scope::Block) => prims::__oxide_atomic_and_u32_block(ptr, v),
            (RmwOp::And, Scope::Device) => prims::__oxide_atomic_and_u32_device(ptr, v),
            (RmwOp::And, Scope::System) => prims::__oxide_atomic_and_u32_system(ptr, v),
            (RmwOp::Or, Scope::Block) => prims::__oxide_atomic_or_u32_block(ptr, v),
            (RmwOp::Or, Scope::Device) => prims::__oxide_atomic_or_u32_device(ptr, v),
            (RmwOp::Or, Scope::System) => prims::__oxide_atomic_or_u32_system(ptr, v),
            (RmwOp::Xor, Scope::Block) => prims::__oxide_atomic_xor_u32_block(ptr, v),
            (RmwOp::Xor, Scope::Device) => prims::__oxide_atomic_xor_u32_device(ptr, v),
            (RmwOp::Xor, Scope::System) => prims::__oxide_atomic_xor_u32_system(ptr, v),
        }
    }
}

impl AtomicInt for u32 {
    #[inline(always)]
    unsafe fn __cas(ptr: *mut Self, cmp: Self, new: Self, scope: Scope) -> Self {
        match scope {
            Scope::Block => prims::__oxide_atomic_cas_u32_block(ptr, cmp, new),
            Scope::Device => prims::__oxide_atomic_cas_u32_device(ptr, cmp, new),
            Scope::System => prims::__oxide_atomic_cas_u32_system(ptr, cmp, new),
        }
    }
}

impl AtomicValue for i32 {
    #[inline(always)]
    unsafe fn __rmw(op: RmwOp, ptr: *mut Self, v: Self, scope: Scope) -> Self {
        match (op, scope) {
            (RmwOp::Add, Scope::Block) => prims::__oxide_atomic_add_i32_block(ptr, v),
            (RmwOp::Add, Scope::Device) => prims::__oxide_atomic_add_i32_device(ptr, v),
            (RmwOp::Add, Scope::System) => prims::__oxide_atomic_add_i32_system(ptr, v),
            (RmwOp::Exch, Scope::Block) => prims::__oxide_atomic_exch_i32_block(ptr, v),
            (RmwOp::Exch, Scope::Device) => prims::__oxide_atomic_exch_i32_device(ptr, v),
            (RmwOp::Exch, Scope::System) => prims::__oxide_atomic_exch_i32_system(ptr, v),
            (RmwOp::Sub, Scope::Block) => prims::__oxide_atomic_sub_i32_block(ptr, v),
            (RmwOp::Sub, Scope::Device) => prims::__oxide_atomic_sub_i32_device(ptr, v),
            (RmwOp::Sub, Scope::System) => prims::__oxide_atomic_sub_i32_system(ptr, v),
            (RmwOp::Min, Scope::Block) => prims::__oxide_atomic_min_i32_block(ptr, v),
            (RmwOp::Min, Scope::Device) => prims::__oxide_atomic_min_i32_device(ptr, v),
            (RmwOp::Min, Scope::System) => prims::__oxide_atomic_min_i32_system(ptr, v),
            (RmwOp::Max, Scope::Block) => prims::__oxide_atomic_max_i32_block(ptr, v),
            (RmwOp::Max, Scope::Device) => prims::__oxide_atomic_max_i32_device(ptr, v),
            (RmwOp::Max, Scope::System) => prims::__oxide_atomic_max_i32_system(ptr, v),
            (RmwOp::And, Scope::Block) => prims::__oxide_atomic_and_i32_block(ptr, v),
            (RmwOp::And, Scope::Device) => prims::__oxide_atomic_and_i32_device(ptr, v),
            (RmwOp::And, Scope::System) => prims::__oxide_atomic_and_i32_system(ptr, v),
            (RmwOp::Or, Scope::Block) => prims::__oxide_atomic_or_i32_block(ptr, v),
            (RmwOp::Or, Scope::Device) => prims::__oxide_atomic_or_i32_device(ptr, v),
            (RmwOp::Or, Scope::System) => prims::__oxide_atomic_or_i32_system(ptr, v),
            (RmwOp::Xor, Scope::Block) => prims::__oxide_atomic_xor_i32_block(ptr, v),
            (RmwOp::Xor, Scope::Device) => prims::__oxide_atomic_xor_i32_device(ptr, v),
            (RmwOp::Xor, Scope::System) => prims::__oxide_atomic_xor_i32_system(ptr, v),
        }
    }
}

impl AtomicInt for i32 {
    #[inline(always)]
    unsafe fn __cas(ptr: *mut Self, cmp: Self, new: Self, scope: Scope) -> Self {
        match scope {
            Scope::Block => prims::__oxide_atomic_cas_i32_block(ptr, cmp, new),
            Scope::Device => prims::__oxide_atomic_cas_i32_device(ptr, cmp, new),
            Scope::System => prims::__oxide_atomic_cas_i32_system(ptr, cmp, new),
        }
    }
}

impl AtomicValue for u64 {
    #[inline(always)]
    unsafe fn __rmw(op: RmwOp, ptr: *mut Self, v: Self, scope: Scope) -> Self {
        match (op, scope) {
            (RmwOp::Add, Scope::Block) => prims::__oxide_atomic_add_u64_block(ptr, v),
            (RmwOp::Add, Scope::Device) => prims::__oxide_atomic_add_u64_device(ptr, v),
            (RmwOp::Add, Scope::System) => prims::__oxide_atomic_add_u64_system(ptr, v),
            (RmwOp::Exch, Scope::Block) => prims::__oxide_atomic_exch_u64_block(ptr, v),
            (RmwOp::Exch, Scope::Device) => prims::__oxide_atomic_exch_u64_device(ptr, v),
            (RmwOp::Exch, Scope::System) => prims::__oxide_atomic_exch_u64_system(ptr, v),
            (RmwOp::Sub, Scope::Block) => prims::__oxide_atomic_sub_u64_block(ptr, v),
            (RmwOp::Sub, Scope::Device) => prims::__oxide_atomic_sub_u64_device(ptr, v),
            (RmwOp::Sub, Scope::System) => prims::__oxide_atomic_sub_u64_system(ptr, v),
            (RmwOp::Min, Scope::Block) => prims::__oxide_atomic_min_u64_block(ptr, v),
            (RmwOp::Min, Scope::Device) => prims::__oxide_atomic_min_u64_device(ptr, v),
            (RmwOp::Min, Scope::System) => prims::__oxide_atomic_min_u64_system(ptr, v),
            (RmwOp::Max, Scope::Block) => prims::__oxide_atomic_max_u64_block(ptr, v),
            (RmwOp::Max, Scope::Device) => prims::__oxide_atomic_max_u64_device(ptr, v),
            (RmwOp::Max, Scope::System) => prims::__oxide_atomic_max_u64_system(ptr, v),
            (RmwOp::And, Scope::Block) => prims::__oxide_atomic_and_u64_block(ptr, v),
            (RmwOp::And, Scope::Device) => prims::__oxide_atomic_and_u64_device(ptr, v),
            (RmwOp::And, Scope::System) => prims::__oxide_atomic_and_u64_system(ptr, v),
            (RmwOp::Or, Scope::Block) => prims::__oxide_atomic_or_u64_block(ptr, v),
            (RmwOp::Or, Scope::Device) => prims::__oxide_atomic_or_u64_device(ptr, v),
            (RmwOp::Or, Scope::System) => prims::__oxide_atomic_or_u64_system(ptr, v),
            (RmwOp::Xor, Scope::Block) => prims::__oxide_atomic_xor_u64_block(ptr, v),
            (RmwOp::Xor, Scope::Device) => prims::__oxide_atomic_xor_u64_device(ptr, v),
            (RmwOp::Xor, Scope::System) => prims::__oxide_atomic_xor_u64_system(ptr, v),
        }
    }
}

impl AtomicInt for u64 {
    #[inline(always)]
    unsafe fn __cas(ptr: *mut Self, cmp: Self, new: Self, scope: Scope) -> Self {
        match scope {
            Scope::Block => prims::__oxide_atomic_cas_u64_block(ptr, cmp, new),
            Scope::Device => prims::__oxide_atomic_cas_u64_device(ptr, cmp, new),
            Scope::System => prims::__oxide_atomic_cas_u64_system(ptr, cmp, new),
        }
    }
}

impl AtomicValue for i64 {
    #[inline(always)]
    unsafe fn __rmw(op: RmwOp, ptr: *mut Self, v: Self, scope: Scope) -> Self {
        match (op, scope) {
            (RmwOp::Add, Scope::Block) => prims::__oxide_atomic_add_i64_block(ptr, v),
            (RmwOp::Add, Scope::Device) => prims::__oxide_atomic_add_i64_device(ptr, v),
            (RmwOp::Add, Scope::System) => prims::__oxide_atomic_add_i64_system(ptr, v),
            (RmwOp::Exch, Scope::Block) => prims::__oxide_atomic_exch_i64_block(ptr, v),
            (RmwOp::Exch, Scope::Device) => prims::__oxide_atomic_exch_i64_device(ptr, v),
            (RmwOp::Exch, Scope::System) => prims::__oxide_atomic_exch_i64_system(ptr, v),
            (RmwOp::Sub, Scope::Block) => prims::__oxide_atomic_sub_i64_block(ptr, v),
            (RmwOp::Sub, Scope::Device) => prims::__oxide_atomic_sub_i64_device(ptr, v),
            (RmwOp::Sub, Scope::System) => prims::__oxide_atomic_sub_i64_system(ptr, v),
            (RmwOp::Min, Scope::Block) => prims::__oxide_atomic_min_i64_block(ptr, v),
            (RmwOp::Min, Scope::Device) => prims::__oxide_atomic_min_i64_device(ptr, v),
            (RmwOp::Min, Scope::System) => prims::__oxide_atomic_min_i64_system(ptr, v),
            (RmwOp::Max, Scope::Block) => prims::__oxide_atomic_max_i64_block(ptr, v),
            (RmwOp::Max, Scope::Device) => prims::__oxide_atomic_max_i64_device(ptr, v),
            (RmwOp::Max, Scope::System) => prims::__oxide_atomic_max_i64_system(ptr, v),
            (RmwOp::And, Scope::Block) => prims::__oxide_atomic_and_i64_block(ptr, v),
            (RmwOp::And, Scope::Device) => prims::__oxide_atomic_and_i64_device(ptr, v),
            (RmwOp::And, Scope::System) => prims::__oxide_atomic_and_i64_system(ptr, v),
            (RmwOp::Or, Scope::Block) => prims::__oxide_atomic_or_i64_block(ptr, v),
            (RmwOp::Or, Scope::Device) => prims::__oxide_atomic_or_i64_device(ptr, v),
            (RmwOp::Or, Scope::System) => prims::__oxide_atomic_or_i64_system(ptr, v),
            (RmwOp::Xor, Scope::Block) => prims::__oxide_atomic_xor_i64_block(ptr, v),
            (RmwOp::Xor, Scope::Device) => prims::__oxide_atomic_xor_i64_device(ptr, v),
            (RmwOp::Xor, Scope::System) => prims::__oxide_atomic_xor_i64_system(ptr, v),
        }
    }
}

impl AtomicInt for i64 {
    #[inline(always)]
    unsafe fn __cas(ptr: *mut Self, cmp: Self, new: Self, scope: Scope) -> Self {
        match scope {
            Scope::Block => prims::__oxide_atomic_cas_i64_block(ptr, cmp, new),
            Scope::Device => prims::__oxide_atomic_cas_i64_device(ptr, cmp, new),
            Scope::System => prims::__oxide_atomic_cas_i64_system(ptr, cmp, new),
        }
    }
}

impl AtomicValue for f32 {
    #[inline(always)]
    unsafe fn __rmw(op: RmwOp, ptr: *mut Self, v: Self, scope: Scope) -> Self {
        match (op, scope) {
            (RmwOp::Add, Scope::Block) => prims::__oxide_atomic_add_f32_block(ptr, v),
            (RmwOp::Add, Scope::Device) => prims::__oxide_atomic_add_f32_device(ptr, v),
            (RmwOp::Add, Scope::System) => prims::__oxide_atomic_add_f32_system(ptr, v),
            (RmwOp::Exch, Scope::Block) => prims::__oxide_atomic_exch_f32_block(ptr, v),
            (RmwOp::Exch, Scope::Device) => prims::__oxide_atomic_exch_f32_device(ptr, v),
            (RmwOp::Exch, Scope::System) => prims::__oxide_atomic_exch_f32_system(ptr, v),
            _ => core::hint::unreachable_unchecked(),
        }
    }
}

impl AtomicValue for f64 {
    #[inline(always)]
    unsafe fn __rmw(op: RmwOp, ptr: *mut Self, v: Self, scope: Scope) -> Self {
        match (op, scope) {
            (RmwOp::Add, Scope::Block) => prims::__oxide_atomic_add_f64_block(ptr, v),
            (RmwOp::Add, Scope::Device) => prims::__oxide_atomic_add_f64_device(ptr, v),
            (RmwOp::Add, Scope::System) => prims::__oxide_atomic_add_f64_system(ptr, v),
            (RmwOp::Exch, Scope::Block) => prims::__oxide_atomic_exch_f64_block(ptr, v),
            (RmwOp::Exch, Scope::Device) => prims::__oxide_atomic_exch_f64_device(ptr, v),
            (RmwOp::Exch, Scope::System) => prims::__oxide_atomic_exch_f64_system(ptr, v),
            _ => core::hint::unreachable_unchecked(),
        }
    }
}

/// Atomically `*ptr += v`, device scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_add<T: AtomicValue>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Add, ptr, v, Scope::Device)
}

/// Atomically `*ptr += v`, block scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_add_block<T: AtomicValue>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Add, ptr, v, Scope::Block)
}

/// Atomically `*ptr += v`, system scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_add_system<T: AtomicValue>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Add, ptr, v, Scope::System)
}

/// Atomically `*ptr = v`, device scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_exch<T: AtomicValue>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Exch, ptr, v, Scope::Device)
}

/// Atomically `*ptr = v`, block scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_exch_block<T: AtomicValue>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Exch, ptr, v, Scope::Block)
}

/// Atomically `*ptr = v`, system scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_exch_system<T: AtomicValue>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Exch, ptr, v, Scope::System)
}

/// Atomically `*ptr -= v` (wrapping), device scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_sub<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Sub, ptr, v, Scope::Device)
}

/// Atomically `*ptr -= v` (wrapping), block scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_sub_block<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Sub, ptr, v, Scope::Block)
}

/// Atomically `*ptr -= v` (wrapping), system scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_sub_system<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Sub, ptr, v, Scope::System)
}

/// Atomically `*ptr = min(*ptr, v)` (signed for i32/i64), device scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_min<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Min, ptr, v, Scope::Device)
}

/// Atomically `*ptr = min(*ptr, v)` (signed for i32/i64), block scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_min_block<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Min, ptr, v, Scope::Block)
}

/// Atomically `*ptr = min(*ptr, v)` (signed for i32/i64), system scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_min_system<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Min, ptr, v, Scope::System)
}

/// Atomically `*ptr = max(*ptr, v)` (signed for i32/i64), device scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_max<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Max, ptr, v, Scope::Device)
}

/// Atomically `*ptr = max(*ptr, v)` (signed for i32/i64), block scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_max_block<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Max, ptr, v, Scope::Block)
}

/// Atomically `*ptr = max(*ptr, v)` (signed for i32/i64), system scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_max_system<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Max, ptr, v, Scope::System)
}

/// Atomically `*ptr &= v`, device scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_and<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::And, ptr, v, Scope::Device)
}

/// Atomically `*ptr &= v`, block scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_and_block<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::And, ptr, v, Scope::Block)
}

/// Atomically `*ptr &= v`, system scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_and_system<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::And, ptr, v, Scope::System)
}

/// Atomically `*ptr |= v`, device scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_or<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Or, ptr, v, Scope::Device)
}

/// Atomically `*ptr |= v`, block scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_or_block<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Or, ptr, v, Scope::Block)
}

/// Atomically `*ptr |= v`, system scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_or_system<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Or, ptr, v, Scope::System)
}

/// Atomically `*ptr ^= v`, device scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_xor<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Xor, ptr, v, Scope::Device)
}

/// Atomically `*ptr ^= v`, block scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_xor_block<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Xor, ptr, v, Scope::Block)
}

/// Atomically `*ptr ^= v`, system scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_xor_system<T: AtomicInt>(ptr: *mut T, v: T) -> T {
    T::__rmw(RmwOp::Xor, ptr, v, Scope::System)
}

/// Atomically: if `*ptr == cmp` then `*ptr = new`; device scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_cas<T: AtomicInt>(ptr: *mut T, cmp: T, new: T) -> T {
    T::__cas(ptr, cmp, new, Scope::Device)
}

/// Atomically: if `*ptr == cmp` then `*ptr = new`; block scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_cas_block<T: AtomicInt>(ptr: *mut T, cmp: T, new: T) -> T {
    T::__cas(ptr, cmp, new, Scope::Block)
}

/// Atomically: if `*ptr == cmp` then `*ptr = new`; system scope; returns the old value.
///
/// # Safety
/// `ptr` is valid and aligned for `T` (module documentation).
#[inline(always)]
pub unsafe fn atomic_cas_system<T: AtomicInt>(ptr: *mut T, cmp: T, new: T) -> T {
    T::__cas(ptr, cmp, new, Scope::System)
}
