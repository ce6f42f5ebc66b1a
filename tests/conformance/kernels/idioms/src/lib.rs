//! Conformance group `idioms`: everyday Rust as a new user writes it in a
//! kernel — operator overloading on a small vector type, `?` with `From`
//! conversions, let-else, `impl Iterator` returns, `array::from_fn`
//! matrices, sorting small arrays with a comparator, `str` parsing and
//! splitting, `chunks_exact_mut`, `copy_within`, `Option` combinators on
//! `NonZero`, grid-stride loops.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

use core::num::NonZeroU32;
use core::ops::{Add, AddAssign, Index, IndexMut, Mul, Neg, Sub};

#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
struct V3 {
    x: f32,
    y: f32,
    z: f32,
}

impl V3 {
    fn new(x: f32, y: f32, z: f32) -> Self {
        V3 { x, y, z }
    }
    fn dot(self, o: V3) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    fn cross(self, o: V3) -> V3 {
        V3::new(self.y * o.z - self.z * o.y, self.z * o.x - self.x * o.z, self.x * o.y - self.y * o.x)
    }
}

impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        V3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        V3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl Mul<f32> for V3 {
    type Output = V3;
    fn mul(self, k: f32) -> V3 {
        V3::new(self.x * k, self.y * k, self.z * k)
    }
}

impl Neg for V3 {
    type Output = V3;
    fn neg(self) -> V3 {
        V3::new(-self.x, -self.y, -self.z)
    }
}

impl AddAssign for V3 {
    fn add_assign(&mut self, o: V3) {
        *self = *self + o;
    }
}

impl Index<usize> for V3 {
    type Output = f32;
    fn index(&self, k: usize) -> &f32 {
        match k {
            0 => &self.x,
            1 => &self.y,
            _ => &self.z,
        }
    }
}

impl IndexMut<usize> for V3 {
    fn index_mut(&mut self, k: usize) -> &mut f32 {
        match k {
            0 => &mut self.x,
            1 => &mut self.y,
            _ => &mut self.z,
        }
    }
}

fn v3_of(w: u64) -> V3 {
    V3::new((w & 0xffff) as f32 / 7.0, ((w >> 16) & 0xffff) as f32 / -3.0, (w >> 48) as f32 * 0.25)
}

/// Operator overloading: Add, Sub, Mul<f32>, Neg, AddAssign, Index(Mut),
/// derived PartialEq / PartialOrd on a small vector type.
#[kernel]
pub fn idioms_operators(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let a = v3_of(at(input, i));
    let b = v3_of(at(input, i + 1));
    let mut c = (a + b) * 0.5 - -a.cross(b);
    c += V3::default() + b;
    c[(i % 3) as usize] *= 2.0;
    let d = a.dot(c);
    let ord = match a.partial_cmp(&b) {
        Some(core::cmp::Ordering::Less) => 1,
        Some(core::cmp::Ordering::Equal) => 2,
        Some(core::cmp::Ordering::Greater) => 3,
        None => 4,
    };
    let h = mix(mix(mix(canon32(c[0]) , canon32(c[1])), canon32(c[2])), canon32(d));
    put(&mut out, idx, mix(h, ord + (a == a) as u64));
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum ParseErr {
    Empty,
    Digit(u8),
    Overflow,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum AppErr {
    Parse(ParseErr),
    Range(u32),
}

impl From<ParseErr> for AppErr {
    fn from(e: ParseErr) -> Self {
        AppErr::Parse(e)
    }
}

fn parse_dec(s: &[u8]) -> Result<u32, ParseErr> {
    if s.is_empty() {
        return Err(ParseErr::Empty);
    }
    let mut v: u32 = 0;
    for &c in s {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return Err(ParseErr::Digit(c));
        }
        v = v.checked_mul(10).and_then(|v| v.checked_add(d as u32)).ok_or(ParseErr::Overflow)?;
    }
    Ok(v)
}

fn checked_pct(s: &[u8]) -> Result<u32, AppErr> {
    let v = parse_dec(s)?;
    if v > 100 {
        return Err(AppErr::Range(v));
    }
    Ok(v * 3)
}

/// `?` through a `From` conversion between two error enums, `ok_or`,
/// `and_then` chains, matching on the nested error.
#[kernel]
pub fn idioms_question_from(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut buf = [0u8; 12];
    let n = (w % 12) as usize;
    for k in 0..n {
        let b = (w >> (5 * k)) as u8;
        buf[k] = if b % 16 == 0 { b'x' } else { b'0' + b % 10 };
    }
    let r = checked_pct(&buf[..n]);
    let code = match r {
        Ok(v) => v as u64,
        Err(AppErr::Range(v)) => 1_000_000 + v as u64,
        Err(AppErr::Parse(ParseErr::Empty)) => 7,
        Err(AppErr::Parse(ParseErr::Digit(c))) => 2_000_000 + c as u64,
        Err(AppErr::Parse(ParseErr::Overflow)) => 9,
    };
    put(&mut out, idx, code);
}

fn first_even_pair(xs: &[u32]) -> Option<(usize, u32)> {
    let Some(p) = xs.iter().position(|&x| x % 2 == 0) else {
        return None;
    };
    let Some(&next) = xs.get(p + 1) else {
        return Some((p, 0));
    };
    Some((p, next))
}

/// let-else, `position`, `get` on a slice, `if let ... else`.
#[kernel]
pub fn idioms_let_else(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let xs = [(w as u32) | 1, (w >> 8) as u32 | 1, (w >> 16) as u32, (w >> 24) as u32, (w >> 32) as u32];
    let n = 1 + (w % 5) as usize;
    let v = if let Some((p, nx)) = first_even_pair(&xs[..n]) { (p as u64) << 32 | nx as u64 } else { 99 };
    put(&mut out, idx, v);
}

fn evens(n: u32) -> impl Iterator<Item = u32> {
    (0..n).filter(|k| k % 2 == 0).map(|k| k * k)
}

fn digits(mut w: u64) -> impl Iterator<Item = u8> {
    core::iter::from_fn(move || {
        if w == 0 {
            None
        } else {
            let d = (w % 10) as u8;
            w /= 10;
            Some(d)
        }
    })
}

/// `impl Iterator` returns, `iter::from_fn`, `sum`, `max`, `count`.
#[kernel]
pub fn idioms_impl_iterator(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let s: u32 = evens((w % 40) as u32).sum();
    let m = digits(w).max().unwrap_or(0);
    let c = digits(w >> 7).filter(|&d| d > 4).count();
    put(&mut out, idx, mix(mix(s as u64, m as u64), c as u64));
}

type M4 = [[f32; 4]; 4];

fn matmul(a: &M4, b: &M4) -> M4 {
    core::array::from_fn(|r| core::array::from_fn(|c| (0..4).map(|k| a[r][k] * b[k][c]).sum()))
}

/// `array::from_fn` nested, a 4x4 matrix product, transpose through from_fn.
#[kernel]
pub fn idioms_from_fn_matrix(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a: M4 = core::array::from_fn(|r| core::array::from_fn(|c| ((w >> (r * 4 + c)) & 7) as f32 - 3.5));
    let t: M4 = core::array::from_fn(|r| core::array::from_fn(|c| a[c][r]));
    let p = matmul(&a, &t);
    let mut h = H0;
    for row in p.iter() {
        for x in row {
            h = mix(h, canon32(*x));
        }
    }
    put(&mut out, idx, h);
}

#[derive(Clone, Copy)]
struct Item {
    key: u16,
    val: u32,
}

/// Sorting small arrays: `sort_unstable_by` with a comparator, by key
/// descending, `sort_unstable_by_key`, `reverse`, `binary_search_by_key`.
#[kernel]
pub fn idioms_sort_by(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut items: [Item; 8] = core::array::from_fn(|k| Item { key: (w >> (k * 7)) as u16 & 0x1f, val: k as u32 });
    items.sort_unstable_by(|a, b| b.key.cmp(&a.key).then(a.val.cmp(&b.val)));
    let mut h = H0;
    for it in &items {
        h = mix(h, (it.key as u64) << 8 | it.val as u64);
    }
    let mut ks: [u16; 8] = core::array::from_fn(|k| items[k].key ^ 0x5);
    ks.sort_unstable_by_key(|&k| core::cmp::Reverse(k));
    ks.reverse();
    let found = ks.binary_search_by_key(&(w as u16 & 0x1f), |&k| k).map_or(100, |p| p as u64);
    put(&mut out, idx, mix(h, found));
}

/// `str` from bytes, `split`, `trim`, `parse::<u32>`, `chars().rev()`,
/// `starts_with`, `char_indices`.
#[kernel]
pub fn idioms_str_parse(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut buf = [b' '; 24];
    let mut n = 0;
    for k in 0..6 {
        let v = (w >> (k * 10)) & 0x3ff;
        let mut tmp = [0u8; 4];
        let mut t = 0;
        let mut x = v;
        loop {
            tmp[t] = b'0' + (x % 10) as u8;
            t += 1;
            x /= 10;
            if x == 0 {
                break;
            }
        }
        while t > 0 {
            t -= 1;
            buf[n] = tmp[t];
            n += 1;
        }
        buf[n] = if k % 2 == 0 { b',' } else { b' ' };
        n += 1;
        if n > 19 {
            break;
        }
    }
    let s = core::str::from_utf8(&buf[..n]).unwrap_or("");
    let mut h = H0;
    for part in s.split(',') {
        let p = part.trim();
        h = mix(h, match p.parse::<u32>() {
            Ok(v) => v as u64,
            Err(_) => 0xEE00 + p.len() as u64,
        });
    }
    let rev_digits = s.chars().rev().filter(|c| c.is_ascii_digit()).take(5).fold(0u64, |a, c| a * 10 + c as u64 - '0' as u64);
    let firsts = s.char_indices().filter(|(_, c)| *c == ',').map(|(p, _)| p as u64).sum::<u64>();
    put(&mut out, idx, mix(mix(h, rev_digits), firsts + s.starts_with('1') as u64));
}

/// `chunks_exact_mut`, `copy_within`, `split_at_mut`, `swap`,
/// `iter_mut().zip`, `fill`, `rotate_right`.
#[kernel]
pub fn idioms_slices_mut(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut a: [u8; 16] = core::array::from_fn(|k| (w >> (k * 4)) as u8 & 0xf);
    for ch in a.chunks_exact_mut(4) {
        ch.swap(0, 3);
        ch[1] ^= ch[2];
    }
    a.copy_within(2..8, (w % 9) as usize);
    let (lo, hi) = a.split_at_mut(8);
    for (x, y) in lo.iter_mut().zip(hi.iter()) {
        *x = x.wrapping_add(*y);
    }
    hi[..(w % 4) as usize].fill(0xAA);
    a.rotate_right((w % 16) as usize);
    let mut h = H0;
    for &b in &a {
        h = mix(h, b as u64);
    }
    put(&mut out, idx, h);
}

/// `Option<NonZeroU32>` (niche), `map`, `filter`, `zip`, `xor`,
/// `get_or_insert_with`, `take`, `replace`, `unwrap_or_default`.
#[kernel]
pub fn idioms_option_nonzero(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = NonZeroU32::new(w as u32 & 0xff);
    let b = NonZeroU32::new((w >> 8) as u32 & 0x3);
    let c = a.map(|x| x.get() * 2).filter(|&x| x > 100);
    let z = a.zip(b).map(|(x, y)| x.get() + y.get());
    let x = a.xor(b).map(NonZeroU32::get);
    let mut slot: Option<u32> = None;
    if w & 1 == 1 {
        slot = Some(5);
    }
    let g = *slot.get_or_insert_with(|| (w >> 20) as u32);
    let t = slot.take();
    let r = slot.replace(9);
    let h = mix(mix(mix(c.unwrap_or_default() as u64, z.unwrap_or(7) as u64), x.unwrap_or(3) as u64), g as u64);
    let sz = core::mem::size_of::<Option<NonZeroU32>>() as u64;
    put(&mut out, idx, mix(mix(h, t.unwrap_or(1) as u64 + r.unwrap_or(2) as u64), sz + slot.unwrap() as u64));
}

/// A grid-stride loop over the input (`step_by` of the grid size),
/// `wrapping` arithmetic, early `continue`.
#[kernel]
pub fn idioms_grid_stride(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let stride = 97usize;
    let mut acc = 0u64;
    for k in (i % stride..N_IN).step_by(stride) {
        let v = input[k];
        if v % 3 == 0 {
            continue;
        }
        acc = acc.wrapping_mul(31).wrapping_add(v >> 3);
    }
    put(&mut out, idx, acc);
}

trait Shape {
    fn area(&self) -> f32;
    fn name(&self) -> u8 {
        b'?'
    }
}

struct Circle(f32);
struct Rect(f32, f32);

impl Shape for Circle {
    fn area(&self) -> f32 {
        3.14159 * self.0 * self.0
    }
    fn name(&self) -> u8 {
        b'c'
    }
}

impl Shape for Rect {
    fn area(&self) -> f32 {
        self.0 * self.1
    }
}

fn total_area<S: Shape + ?Sized>(shapes: &[&S]) -> f32 {
    shapes.iter().map(|s| s.area()).sum()
}

/// Trait objects in an array (`[&dyn Shape; 3]`), default methods,
/// a generic function over `?Sized` trait objects.
#[kernel]
pub fn idioms_dyn_shapes(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let c = Circle((w & 0xff) as f32 / 16.0);
    let r = Rect(((w >> 8) & 0xff) as f32, ((w >> 16) & 0xff) as f32 / 8.0);
    let r2 = Rect(1.5, (w >> 60) as f32);
    let shapes: [&dyn Shape; 3] = if w & 1 == 0 { [&c, &r, &r2] } else { [&r2, &c, &r] };
    let a = total_area(&shapes);
    let names = shapes.iter().fold(0u64, |h, s| h * 256 + s.name() as u64);
    put(&mut out, idx, mix(canon32(a), names));
}

/// Labeled loops breaking with a value, `while let` over a manual stack,
/// `matches!`, `loop` as an expression.
#[kernel]
pub fn idioms_control(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let found = 'outer: loop {
        for a in 0..8u64 {
            for b in 0..8u64 {
                if (w >> (a * 8 + b)) & 0x7 == 0x5 && matches!(a + b, 3 | 5 | 7..=9) {
                    break 'outer a * 8 + b;
                }
            }
        }
        break 255;
    };
    let mut stack = [0u32; 8];
    let mut sp = 0;
    stack[sp] = w as u32 & 0xffff;
    sp += 1;
    let mut steps = 0u64;
    while let Some(top) = if sp > 0 { sp -= 1; Some(stack[sp]) } else { None } {
        steps += 1;
        if top > 1 && sp + 2 <= stack.len() {
            stack[sp] = top / 2;
            stack[sp + 1] = top / 3;
            sp += 2;
        }
        if steps > 40 {
            break;
        }
    }
    put(&mut out, idx, mix(found, steps));
}

/// Bytes and integers: `from_le_bytes` / `to_be_bytes`, `u32::from(u8)`,
/// `try_into` of a slice into an array, `TryFrom` between widths.
#[kernel]
pub fn idioms_bytes(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let bytes = w.to_le_bytes();
    let hi: [u8; 4] = bytes[4..8].try_into().unwrap();
    let a = u32::from_be_bytes(hi);
    let b = u16::from_le_bytes([bytes[1], bytes[6]]);
    let c = u8::try_from(w >> 56).unwrap_or(0) as u64 + u32::from(bytes[3]) as u64;
    let d = i16::try_from(a as i64 - 40000).map_or(-1, |v| v as i64);
    put(&mut out, idx, mix(mix(a as u64, b as u64), c ^ d as u64));
}

trait Num: Copy + PartialOrd + Add<Output = Self> + Mul<Output = Self> {
    const ZERO: Self;
    const ONE: Self;
    fn from_u64(w: u64) -> Self;
    fn bits(self) -> u64;
}

impl Num for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn from_u64(w: u64) -> Self {
        (w % 1000) as f32 / 8.0 - 60.0
    }
    fn bits(self) -> u64 {
        canon32(self)
    }
}

impl Num for i32 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn from_u64(w: u64) -> Self {
        (w % 2001) as i32 - 1000
    }
    fn bits(self) -> u64 {
        self as u32 as u64
    }
}

impl Num for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn from_u64(w: u64) -> Self {
        (w % 100_000) as f64 / 64.0 - 700.0
    }
    fn bits(self) -> u64 {
        if self.is_nan() { 0x7ff8_0000_0000_0000 } else { self.to_bits() }
    }
}

fn horner<T: Num, const N: usize>(coef: &[T; N], x: T) -> T {
    let mut acc = T::ZERO;
    for &c in coef.iter().rev() {
        acc = acc * x + c;
    }
    acc
}

fn clamp_max<T: Num>(xs: &[T]) -> (T, usize) {
    let mut best = xs[0];
    let mut at = 0;
    for (k, &x) in xs.iter().enumerate().skip(1) {
        if x > best {
            best = x;
            at = k;
        }
    }
    (best, at)
}

fn poly_digest<T: Num>(w: u64) -> u64 {
    let coef: [T; 4] = core::array::from_fn(|k| T::from_u64(w >> (k * 9)));
    let x = T::from_u64(w >> 40);
    let y = horner(&coef, x) + T::ONE;
    let (m, at) = clamp_max(&coef);
    mix(mix(y.bits(), m.bits()), at as u64)
}

/// A user numeric trait with associated constants, implemented for f32,
/// i32 and f64, used by const-generic and slice-generic helpers.
#[kernel]
pub fn idioms_num_trait(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let h = mix(mix(poly_digest::<f32>(w), poly_digest::<i32>(w)), poly_digest::<f64>(w));
    put(&mut out, idx, h);
}

struct Pipeline<F: Fn(u32) -> u32, G: Fn(u32) -> bool> {
    step: F,
    keep: G,
}

impl<F: Fn(u32) -> u32, G: Fn(u32) -> bool> Pipeline<F, G> {
    fn run(&self, xs: &[u32]) -> u64 {
        xs.iter().map(|&x| (self.step)(x)).filter(|&x| (self.keep)(x)).fold(0u64, |a, x| a * 31 + x as u64)
    }
}

fn compose(a: impl Fn(u32) -> u32, b: impl Fn(u32) -> u32) -> impl Fn(u32) -> u32 {
    move |x| b(a(x))
}

/// Closures stored in a generic struct's fields, `impl Fn` arguments and
/// returns composed, a closure capturing another by move.
#[kernel]
pub fn idioms_closure_fields(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let k = (w % 7) as u32 + 1;
    let f = compose(move |x| x.wrapping_mul(k), |x| x ^ 0x55);
    let p = Pipeline { step: f, keep: |x: u32| x % 3 != 0 };
    let xs: [u32; 8] = core::array::from_fn(|j| (w >> (j * 8)) as u32 & 0xff);
    put(&mut out, idx, p.run(&xs));
}

/// Iterator searches and orderings: `max_by_key`, `min_by` with
/// `total_cmp`, `find_map`, `rposition`, `windows(2).all`, `try_fold`,
/// `then_with`, sorting tuples, `product`.
#[kernel]
pub fn idioms_iter_search(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let xs: [u32; 10] = core::array::from_fn(|j| (w.rotate_left(j as u32 * 7) & 0x3f) as u32);
    let fs: [f32; 6] = core::array::from_fn(|j| xs[j] as f32 - 20.5);
    let (imax, vmax) = xs.iter().copied().enumerate().max_by_key(|&(_, v)| v).unwrap();
    let fmin = fs.iter().copied().min_by(|a, b| a.total_cmp(b)).unwrap();
    let fm = xs.iter().find_map(|&x| if x > 40 { Some(x * 2) } else { None }).unwrap_or(1);
    let rp = xs.iter().rposition(|&x| x % 5 == 0).map_or(99, |p| p as u64);
    let sorted = xs.windows(2).all(|p| p[0] <= p[1]);
    let capped = xs.iter().try_fold(0u32, |a, &x| if a + x > 150 { None } else { Some(a + x) });
    let mut pairs: [(u32, u32); 5] = core::array::from_fn(|j| (xs[j] % 4, xs[j + 5]));
    pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)));
    let prod: u64 = xs[..4].iter().map(|&x| x as u64 + 1).product();
    let mut h = mix(mix(imax as u64, vmax as u64), canon32(fmin));
    h = mix(mix(h, fm as u64), rp);
    h = mix(mix(h, sorted as u64), capped.map_or(7777, |c| c as u64));
    for (a, b) in pairs {
        h = mix(h, (a as u64) << 32 | b as u64);
    }
    put(&mut out, idx, mix(h, prod));
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Move { dx: i16, dy: i16 },
    Scale(u8),
    Reset,
    Repeat(u8, u8),
}

impl Cmd {
    fn decode(b: u8, arg: u16) -> Cmd {
        match b % 4 {
            0 => Cmd::Move { dx: arg as i16 >> 4, dy: (arg as i16).wrapping_mul(3) },
            1 => Cmd::Scale((arg % 5) as u8 + 1),
            2 => Cmd::Reset,
            _ => Cmd::Repeat((arg % 3) as u8, (arg >> 8) as u8 % 4),
        }
    }
}

/// An enum of commands with struct and tuple variants, decoded and run
/// by a `match` with guards and bindings, `matches!`, `mem::replace`.
#[kernel]
pub fn idioms_enum_machine(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let cmds: [Cmd; 6] = core::array::from_fn(|k| Cmd::decode((w >> (k * 2)) as u8, (w >> (k * 8 + 12)) as u16));
    let (mut x, mut y, mut s) = (0i32, 0i32, 1i32);
    let mut last = Cmd::Reset;
    let mut h = H0;
    for c in cmds {
        match c {
            Cmd::Move { dx, dy } if dx == 0 && dy == 0 => h = mix(h, 1),
            Cmd::Move { dx, dy } => {
                x += dx as i32 * s;
                y -= dy as i32;
            }
            Cmd::Scale(k @ 1..=2) => s *= k as i32,
            Cmd::Scale(k) => s = (s + k as i32) % 17,
            Cmd::Reset => {
                x = 0;
                y = 0;
            }
            Cmd::Repeat(n, _) if matches!(last, Cmd::Move { .. }) => {
                for _ in 0..n {
                    x += 1;
                }
            }
            Cmd::Repeat(_, m) => y ^= m as i32,
        }
        let prev = core::mem::replace(&mut last, c);
        h = mix(h, matches!(prev, Cmd::Scale(_)) as u64);
    }
    put(&mut out, idx, mix(mix(h, x as u64), mix(y as u64, s as u64)));
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Meters(u32);

impl From<u16> for Meters {
    fn from(v: u16) -> Self {
        Meters(v as u32 * 100)
    }
}

impl core::ops::Deref for Meters {
    type Target = u32;
    fn deref(&self) -> &u32 {
        &self.0
    }
}

/// Integer helpers users reach for: `abs_diff`, `signum`, `rem_euclid`,
/// `div_euclid`, `clamp`, `checked_next_power_of_two`, `from_str_radix`,
/// `to_digit`, `char::from_digit`, `Wrapping`, `Saturating`, a newtype
/// with `From`, `Into`, `Deref` and derived `Ord`.
#[kernel]
pub fn idioms_int_helpers(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = w as i32;
    let b = (w >> 32) as i32;
    let mut h = mix(a.abs_diff(b) as u64, a.signum() as u64);
    h = mix(h, a.rem_euclid(7 + (b & 0xf)) as u64);
    h = mix(h, a.div_euclid(-3) as u64);
    h = mix(h, a.clamp(-1000, 1000) as u64);
    h = mix(h, ((w >> 40) as u32).checked_next_power_of_two().unwrap_or(3) as u64);
    let hex = [b'0' + (w % 10) as u8, b'a' + (w % 6) as u8, b'F'];
    let hs = core::str::from_utf8(&hex).unwrap();
    h = mix(h, u32::from_str_radix(hs, 16).unwrap_or(0) as u64);
    let c = char::from_digit((w % 36) as u32, 36).unwrap();
    h = mix(h, c as u64 + c.to_digit(36).unwrap() as u64);
    let wr = core::num::Wrapping(a as u32) * core::num::Wrapping(0x9e37_79b9) + core::num::Wrapping(7);
    let sat = core::num::Saturating(a as i16) + core::num::Saturating(b as i16);
    h = mix(mix(h, wr.0 as u64), sat.0 as u64);
    let m: Meters = ((w >> 16) as u16).into();
    let n = Meters::from((w >> 48) as u16);
    let big = core::cmp::max(m, n);
    put(&mut out, idx, mix(h, *big as u64 + (m < n) as u64 + big.leading_zeros() as u64));
}

/// Floats in `core` (no_std: `floor`, `sqrt` and the like are std's or
/// oxide-device's `math::Float`): `clamp`, `max`/`min`, `copysign`,
/// `abs`, `signum`, `recip`, `to_degrees`, `to_radians`, `midpoint`, and
/// float-to-int casts (saturating) of the results.
#[kernel]
pub fn idioms_float_helpers(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let x = ((w & 0xffff) as f32 - 30000.0) / 977.0;
    let y = (((w >> 16) & 0xffff) as f32 - 12000.0) / 313.0;
    let d = ((w >> 32) as f64) / 4.0e6 - 500.0;
    let vals = [
        x.clamp(-3.0, 3.0),
        x.max(y),
        x.min(y),
        y.copysign(x),
        x.abs(),
        y.signum(),
        x.recip(),
        y.to_degrees(),
        x.to_radians(),
        x.midpoint(y),
    ];
    let mut h = H0;
    for v in vals {
        h = mix(h, canon32(v));
        h = mix(h, (v * 1000.0) as i16 as u64);
    }
    h = mix(h, (d as i32) as u64);
    h = mix(h, canon64(d.max(0.5).recip()));
    put(&mut out, idx, h);
}
