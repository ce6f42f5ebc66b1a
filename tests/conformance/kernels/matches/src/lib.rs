//! Conformance group `matches`: switchInt on every integer type, char and
//! bool; range patterns, guards, bindings (@), or-patterns, tuple and
//! nested patterns, if-let chains, let-else.
#![no_std]

#[path = "../../common.rs"]
mod common;
use common::*;
use oxide_device::prelude::*;

/// match on u8 and i8 values (dense and sparse arms).
#[kernel]
pub fn matches_switch_8bit(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = match w as u8 {
        0 => 10,
        1 => 11,
        2 => 12,
        3 => 13,
        7 => 17,
        128 => 1,
        255 => 2,
        _ => 0,
    };
    let b = match (w >> 8) as i8 {
        -128 => 1,
        -1 => 2,
        0 => 3,
        1 => 4,
        127 => 5,
        x if x < 0 => 6,
        _ => 7,
    };
    put(&mut out, idx, a * 16 + b);
}

/// match on u16, i16, u32, i32 with scattered values.
#[kernel]
pub fn matches_switch_16_32(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = match (w % 70000) as u16 {
        0 => 1,
        1000 => 2,
        4464 => 3,
        65535 => 4,
        _ => 5,
    };
    let b = match (w % 11) as i16 - 5 {
        -5 => 1,
        -2 => 2,
        0 => 3,
        5 => 4,
        _ => 5,
    };
    let c = match (w >> 60) as u32 {
        0 | 1 => 1,
        2..=5 => 2,
        15 => 3,
        _ => 4,
    };
    let d = match (w as i32) >> 28 {
        -8 => 1,
        -1 => 2,
        0 => 3,
        7 => 4,
        _ => 5,
    };
    put(&mut out, idx, a << 12 | b << 8 | c << 4 | d);
}

/// match on u64, i64, usize, isize with large constants.
#[kernel]
pub fn matches_switch_64(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let a = match w {
        0 => 1,
        1 => 2,
        u64::MAX => 3,
        0x8000_0000_0000_0000 => 4,
        0x7FF8_0000_0000_0000 => 5,
        _ => 6,
    };
    let b = match w as i64 {
        i64::MIN => 1,
        -1 => 2,
        0x7FFF_FFFF_FFFF_FFFF => 3,
        x if x < 0 => 4,
        _ => 5,
    };
    let c = match (w % 5) as usize {
        0 => 7,
        4 => 9,
        _ => 1,
    };
    let d = match (w % 7) as isize - 3 {
        -3 => 1,
        3 => 2,
        _ => 0,
    };
    put(&mut out, idx, a << 12 | b << 8 | c << 4 | d);
}

/// match on u128 and i128 values (128-bit switchInt).
#[kernel]
pub fn matches_switch_128(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let x: u128 = match (w >> 3) % 8 {
        0 => 0,
        1 => 1,
        2 => u64::MAX as u128,
        3 => 1 << 64,
        4 => u128::MAX,
        5 => i128::MIN as u128,
        6 => 2,
        _ => (w as u128) << (i % 3 * 32),
    };
    let a = match x {
        0 => 1,
        1 => 2,
        0xFFFF_FFFF_FFFF_FFFF => 3,
        0x1_0000_0000_0000_0000 => 4,
        u128::MAX => 5,
        _ => 6,
    };
    let b = match x as i128 - 2 {
        -2 => 1,
        -1 => 2,
        i128::MIN => 3,
        _ => 4,
    };
    put(&mut out, idx, a << 4 | b);
}

/// match on char (ASCII classes, ranges, non-ASCII) and on bool.
#[kernel]
pub fn matches_switch_char_bool(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let c = char::from_u32((w % 0x3000) as u32).unwrap_or('?');
    let a = match c {
        'a'..='z' => 1,
        'A'..='Z' => 2,
        '0'..='9' => 3,
        ' ' | '\t' | '\n' => 4,
        'λ' => 5,
        '\u{80}'..='\u{7FF}' => 6,
        _ => 7,
    };
    let b = match w & 1 == 1 {
        true => 8,
        false => 9,
    };
    put(&mut out, idx, a * 16 + b);
}

/// Range patterns (inclusive, half-open via guards) on signed values.
#[kernel]
pub fn matches_ranges(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let v = at(input, i) as i32;
    let r = match v {
        i32::MIN..=-1_000_000 => 1,
        -999_999..=-1 => 2,
        0 => 3,
        1..=255 => 4,
        256..=65_535 => 5,
        _ => 6,
    };
    let s = match (v as u8, v >> 24) {
        (0..=9, 0) => 1,
        (10..=99, _) => 2,
        (_, -128..=-1) => 3,
        _ => 4,
    };
    put(&mut out, idx, r << 4 | s);
}

/// Guards, bindings with @, or-patterns, tuple patterns.
#[kernel]
pub fn matches_guards_bindings(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let pair = ((w & 0xF) as u8, (w >> 4 & 0xF) as u8);
    let v = match pair {
        (0, 0) => 1,
        (x, y) if x == y => 100 + x as u64,
        (n @ 1..=3, _) | (_, n @ 1..=3) => 200 + n as u64,
        (x, y) if x > y => 300 + (x - y) as u64,
        (_, y @ (8 | 9 | 15)) => 400 + y as u64,
        _ => 500,
    };
    put(&mut out, idx, v);
}

/// if-let / else-if-let chains and let-else.
#[kernel]
pub fn matches_if_let_else(input: &[u64], mut out: DisjointSlice<u64>) {
    #[inline(always)]
    fn parse(w: u64) -> Option<u32> {
        if w & 3 == 0 {
            None
        } else {
            Some((w >> 2) as u32)
        }
    }
    let (idx, i) = tid();
    let w = at(input, i);
    let a = if let Some(x) = parse(w) {
        x as u64
    } else if let Some(y) = parse(w >> 1) {
        y as u64 + 1
    } else {
        7
    };
    let Some(b) = parse(w >> 5) else {
        put(&mut out, idx, mix(a, 99));
        return;
    };
    put(&mut out, idx, mix(a, b as u64));
}

/// `while let`, loop with break value, labeled loop.
#[kernel]
pub fn matches_loops(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let mut stack = [0u64; 8];
    let mut sp = 0;
    let mut w = at(input, i);
    while let Some(d) = if w != 0 { Some(w % 10) } else { None } {
        if sp < 8 {
            stack[sp] = d;
            sp += 1;
        }
        w /= 10;
    }
    let mut k = 0;
    let found = loop {
        if k >= sp {
            break None;
        }
        if stack[k] == 7 {
            break Some(k);
        }
        k += 1;
    };
    let mut h = H0;
    'a: for x in 0..sp {
        for y in 0..sp {
            if stack[x] + stack[y] == 9 {
                h = mix(h, (x * 8 + y) as u64);
                break 'a;
            }
        }
    }
    put(&mut out, idx, mix(mix(h, sp as u64), found.map_or(99, |f| f as u64)));
}

/// A dense 16-arm match that LLVM may turn into a jump or lookup table.
#[kernel]
pub fn matches_dense_table(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let mut h = H0;
    for k in 0..8 {
        let nib = (w >> (4 * k)) & 0xF;
        let v: u64 = match nib {
            0 => 0x3F,
            1 => 0x06,
            2 => 0x5B,
            3 => 0x4F,
            4 => 0x66,
            5 => 0x6D,
            6 => 0x7D,
            7 => 0x07,
            8 => 0x7F,
            9 => 0x6F,
            10 => 0x77,
            11 => 0x7C,
            12 => 0x39,
            13 => 0x5E,
            14 => 0x79,
            _ => 0x71,
        };
        h = mix(h, v);
    }
    put(&mut out, idx, h);
}

/// core::hint::unreachable_unchecked in an arm that is never taken (MIR
/// Unreachable) and assert_unchecked (MIR Assume) on a true condition.
#[kernel]
pub fn matches_unreachable_hint(input: &[u64], mut out: DisjointSlice<u64>) {
    let (idx, i) = tid();
    let w = at(input, i);
    let r = (w % 3) as u8;
    // SAFETY: r < 3, so the last arm is never reached and the assumption holds.
    let v = match r {
        0 => w >> 1,
        1 => w.rotate_left(9),
        2 => !w,
        _ => unsafe { core::hint::unreachable_unchecked() },
    };
    unsafe { core::hint::assert_unchecked(r < 3) };
    let k = (r as usize) * 2;
    let table = [3u64, 5, 7, 11, 13, 17];
    put(&mut out, idx, mix(v, table[k]));
}
