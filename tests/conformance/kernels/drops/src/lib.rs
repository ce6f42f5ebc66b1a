//! Conformance group `drops`: drop glue. Every `Drop` writes into a log
//! (an order-sensitive digest and a counter), so the order of the drops is
//! part of each thread's result: scope ends (reverse declaration order),
//! `drop(x)`, reassignment, fields in declaration order after the
//! container's own `Drop`, enums (the active variant), arrays (element by
//! element), tuples, early returns, loops, `Option<Guard>`, moved values,
//! `ManuallyDrop` and `mem::forget` (never dropped).
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use core::cell::Cell;
use core::mem::ManuallyDrop;

/// Where the drops are recorded.
pub struct Log {
    h: Cell<u64>,
    n: Cell<u64>,
}

impl Log {
    #[inline(always)]
    fn new() -> Log {
        Log { h: Cell::new(H0), n: Cell::new(0) }
    }

    #[inline(always)]
    fn note(&self, v: u64) {
        self.h.set(mix(self.h.get(), v.wrapping_mul(1000).wrapping_add(self.n.get())));
        self.n.set(self.n.get() + 1);
    }

    #[inline(always)]
    fn digest(&self) -> u64 {
        mix(self.h.get(), self.n.get())
    }
}

/// A value whose drop is observable.
pub struct Guard<'a> {
    id: u64,
    log: &'a Log,
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.log.note(self.id);
    }
}

#[inline(always)]
fn g(id: u64, log: &Log) -> Guard<'_> {
    Guard { id, log }
}

/// Scope end drops in reverse declaration order; `drop(x)` at once; a
/// reassignment drops the old value first; a moved-out value is dropped
/// by its new owner.
#[kernel]
pub fn drops_scope_order(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let log = Log::new();
    {
        let a = g(w & 0xff, &log);
        let b = g(1 + (w >> 8 & 0xff), &log);
        let mut c = g(2, &log);
        if w & 1 == 1 {
            drop(b);
        } else {
            c = g(3, &log);
            let moved = a;
            log.note(moved.id + 77);
        }
        log.note(c.id + 500);
    }
    log.note(9999);
    put(&mut out, idx, log.digest());
}

/// A struct with its own `Drop` and fields that have theirs: the struct's
/// `drop` first, then the fields in declaration order (not memory order),
/// nested structs alike.
pub struct Inner<'a> {
    c: Guard<'a>,
    tag: u8,
    d: Guard<'a>,
}

impl Drop for Inner<'_> {
    fn drop(&mut self) {
        self.c.log.note(100 + self.tag as u64 + self.c.id * 3 + self.d.id * 5);
    }
}

#[allow(dead_code)]
pub struct Outer<'a> {
    x: u32,
    a: Guard<'a>,
    inner: Inner<'a>,
    b: Guard<'a>,
}

impl Drop for Outer<'_> {
    fn drop(&mut self) {
        self.a.log.note(200 + self.x as u64);
        self.a.id += 1;
    }
}

/// Fields of a struct without a `Drop` of its own.
#[allow(dead_code)]
pub struct Plain<'a> {
    first: Guard<'a>,
    n: u64,
    second: Guard<'a>,
}

/// Nested fields: `Outer::drop`, then `a`, `Inner::drop`, `c`, `d`, `b`.
#[kernel]
pub fn drops_nested_fields(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let log = Log::new();
    {
        let o = Outer {
            x: w as u32,
            a: g(w >> 60, &log),
            inner: Inner { c: g(11, &log), tag: (w >> 5) as u8, d: g(12, &log) },
            b: g(13, &log),
        };
        let p = Plain { first: g(21, &log), n: w, second: g(22, &log) };
        log.note(p.n & 0xfff);
        if w & 2 == 0 {
            drop(o);
        }
    }
    put(&mut out, idx, log.digest());
}

/// An enum whose variants hold guards.
pub enum Slot<'a> {
    Empty,
    One(Guard<'a>),
    Two { x: Guard<'a>, k: u32, y: Guard<'a> },
    Deep(Plain<'a>),
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if let Slot::Two { k, x, .. } = self {
            x.log.note(300 + *k as u64);
        }
    }
}

/// An enum without a `Drop` of its own.
pub enum Bare<'a> {
    A(u64),
    B(Guard<'a>, Guard<'a>),
}

#[inline(always)]
fn slot(w: u64, log: &Log) -> Slot<'_> {
    match w % 4 {
        0 => Slot::Empty,
        1 => Slot::One(g(w >> 32, log)),
        2 => Slot::Two { x: g(31, log), k: w as u32 & 0xff, y: g(32, log) },
        _ => Slot::Deep(Plain { first: g(41, log), n: 0, second: g(42, log) }),
    }
}

/// Enums: only the active variant's fields are dropped, after the enum's
/// own `Drop`.
#[kernel]
pub fn drops_enum(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let log = Log::new();
    {
        let s = slot(w, &log);
        let t = slot(w >> 2, &log);
        let b = if w & 16 == 0 { Bare::A(w) } else { Bare::B(g(51, &log), g(52, &log)) };
        if let Bare::A(v) = &b {
            log.note(v & 0xff);
        }
        drop(t);
        log.note(60);
        let _keep = s;
    }
    put(&mut out, idx, log.digest());
}

/// Arrays drop element by element in order, tuples field by field;
/// arrays of enums and of structs with their own `Drop`.
#[kernel]
pub fn drops_array(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let log = Log::new();
    {
        let arr = [g(w & 7, &log), g(1, &log), g(w >> 61, &log), g(3, &log)];
        let tup = (g(71, &log), w as u8, g(72, &log));
        let slots = [slot(w, &log), slot(w + 1, &log), slot(w + 2, &log)];
        let grid = [[g(81, &log), g(82, &log)], [g(83, &log), g(84, &log)]];
        if w & 4 == 0 {
            drop(grid);
        }
        log.note(tup.1 as u64);
        drop(arr);
        let _s = slots;
    }
    put(&mut out, idx, log.digest());
}

#[inline(never)]
fn early(w: u64, log: &Log) -> u64 {
    let a = g(91, log);
    if w & 1 == 1 {
        return a.id + 1;
    }
    let b = g(92, log);
    if w & 2 == 2 {
        return b.id + a.id;
    }
    let c = g(93, log);
    if w & 4 == 4 {
        drop(a);
        return c.id;
    }
    w & 0xff
}

/// Early returns drop what is live, in reverse order; loops drop each
/// iteration's values, on `break` and `continue` too.
#[kernel]
pub fn drops_early_return_loops(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let log = Log::new();
    let r = early(w, &log) + early(w >> 3, &log);
    log.note(r);
    let mut keep = g(100, &log);
    for k in 0..8u64 {
        let it = g(110 + k, &log);
        if (w >> k) & 1 == 1 {
            continue;
        }
        if (w >> (k + 8)) & 3 == 3 {
            break;
        }
        if k == 5 {
            keep = it;
        }
    }
    let mut n = 0;
    while n < (w & 3) {
        let _x = g(130 + n, &log);
        n += 1;
    }
    log.note(keep.id);
    put(&mut out, idx, log.digest());
}

/// `Option<Guard>`: `None` drops nothing, `take()` moves the guard out,
/// `replace` drops nothing itself; `ManuallyDrop` and `mem::forget` never
/// drop; a guard moved into a function is dropped there.
#[kernel]
pub fn drops_option_forget(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let log = Log::new();
    {
        let mut o = if w & 1 == 0 { Some(g(141, &log)) } else { None };
        let p: Option<Guard> = if w & 2 == 0 { Some(g(142, &log)) } else { None };
        if w & 4 == 0 {
            let t = o.take();
            log.note(t.is_some() as u64);
        }
        let old = o.replace(g(143, &log));
        log.note(old.is_some() as u64 + 2);
        let m = ManuallyDrop::new(g(144, &log));
        log.note(m.id);
        core::mem::forget(g(145, &log));
        consume(g(146, &log), &log);
        let _ = p;
    }
    put(&mut out, idx, log.digest());
}

#[inline(never)]
fn consume(x: Guard<'_>, log: &Log) {
    log.note(x.id + 1000);
}
