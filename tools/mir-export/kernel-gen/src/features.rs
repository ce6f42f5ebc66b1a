//! The constructs the generator can emit, each switchable on the command
//! line (`--disable a,b`, `--enable c`) so that a fuzz run can steer around
//! a known compiler gap and keep testing the rest.

/// (name, on by default, what it generates)
pub const FEATURES: &[(&str, bool, &str)] = &[
    ("int128", true, "u128/i128 values, arithmetic, casts, literals"),
    ("isize", true, "usize/isize values (64-bit on host and nvptx64)"),
    ("float", true, "f32/f64: + - * / neg abs copysign(lit) signum recip, comparisons, is_nan/is_finite/..., \
                      from_bits of input words, `as` casts both ways (saturating float->int); \
                      digested through canon32/canon64"),
    ("float-bits", true, "the raw bits (to_bits, no canonicalisation) of floats made only by Rust's bit-exact \
                           operations: -, abs, copysign, clamp, min/max with a non-NaN literal, from_bits, selects; \
                           from NaN payloads (quiet and signalling, either sign) built at run time, special patterns \
                           and input words"),
    ("nan-consts", true, "float-bits also from NaN constants (`f32::from_bits(0x7FA0_0000)`): rustc prints them in \
                           its MIR as `NaN_f32`, without payload or sign; mir-export takes their bits from rustc's \
                           -Zverbose-internals text (tests/fuzz/reproducers/nan_const_payload.rs)"),
    ("float-rem", false, "float `%` (fmod; exact per IEEE, but NVPTX lowers frem inexactly: off by default)"),
    ("plain-arith", true, "plain + - * unary- on integers, wrapping (overflow checks are off in both builds), \
                           plain << >> with any rhs type and amount (masked), `abs()`"),
    ("wrapping", true, "wrapping_add/sub/mul/neg/shl/shr/div/rem/abs/pow"),
    ("boundary", true, "operands of wrapping/checked/saturating/overflowing operations often chosen at run time \
                         among MIN, MAX, MIN+1, MAX-1, -1, 0, 1 and an input word"),
    ("checked", true, "checked_add/sub/mul/div/rem/div_euclid/rem_euclid/neg/abs/shl/shr -> Option, consumed by \
                       unwrap_or/match/if let/map_or/is_some"),
    ("saturating", true, "saturating_add/sub/mul/div (and saturating_neg/abs on signed)"),
    ("overflowing", true, "overflowing_add/sub/mul/div/rem/neg/abs/shl/shr, the value (.0) or the flag (.1)"),
    ("bitops", true, "count_ones/zeros, leading/trailing_zeros/ones, rotate_left/right, swap_bytes, reverse_bits, \
                      min/max/clamp, abs_diff, signum, midpoint, checked_ilog2, is_power_of_two, \
                      checked_next_power_of_two, unsigned_abs, cast_signed/cast_unsigned"),
    ("isqrt", true, "isqrt on unsigned integers"),
    ("division", true, "/ and % (guarded: divisor 0 and MIN/-1 cannot happen), div_ceil, checked_div"),
    ("conversions", true, "T::from (lossless), to/from_le/be/ne_bytes"),
    ("try-from", true, "T::try_from(int) -> Result, consumed by ok()/unwrap_or/is_ok"),
    ("pow", true, "wrapping_pow (any exponent) and pow (exponent & 7, wrapping)"),
    ("bool", true, "bool values, && || ! & | ^ on bool, bool as int"),
    ("if", true, "if/else statements and expressions, else-if chains"),
    ("match", true, "match on integers (literals, ranges, or-patterns, @-bindings, guards), bools, tuples, \
                     enums and Options"),
    ("loops", true, "for k in lo..hi (various index types, n <= 16 from input), while with a counter, \
                     loop+break, labeled break/continue, for over arrays"),
    ("arrays", true, "local arrays [T; N] (list and repeat), indexed by constants or `% N`, element writes"),
    ("array-iter", true, "`for x in array` (by value: core::array::IntoIter)"),
    ("tuples", true, "tuples, tuple fields, tuple-destructuring let, tuple match"),
    ("structs", true, "structs (named and tuple-like, Copy, PartialEq), field reads/writes, nested structs"),
    ("enums", true, "enums: unit/tuple/struct variants, explicit discriminants with #[repr(iN/uN)], \
                     `as` casts of fieldless enums, match with bindings, == via derive(PartialEq)"),
    ("option", true, "Option<T> values: Some/None::<T>, unwrap_or, match, if let, is_some/is_none"),
    ("helpers", true, "helper functions (#[inline], #[inline(always)], none) with by-value, &T and &mut T params, \
                       early `return`"),
    ("noinline", true, "#[inline(never)] helpers (real calls in the PTX)"),
    ("methods", true, "impl blocks: methods taking self, &self, &mut self"),
    ("slice-param", true, "helpers that take the kernel's input: &[u64]"),
    ("closures", true, "move closures (Fn and FnMut with captured state) called directly, passed to \
                        Option::map_or and (with generics) to generic helpers"),
    ("generics", true, "generic helpers (pick<T>, twice<T, F: Fn>, fold<F: FnMut>) and a trait implemented for ints"),
    ("generic-noinline", false, "the generic pick<T> helper is #[inline(never)] (mir-export cannot export \
                                 generic bodies that stay calls: off by default)"),
    ("traps", true, "about 1 kernel in 50 contains one construct that may trap: division by an input-dependent \
                     zero or MIN/-1, an out-of-bounds index, unwrap() of None, panic!"),
];

#[derive(Clone, Debug)]
pub struct Features {
    on: Vec<bool>,
}

impl Default for Features {
    fn default() -> Features {
        Features { on: FEATURES.iter().map(|f| f.1).collect() }
    }
}

impl Features {
    pub fn has(&self, name: &str) -> bool {
        match FEATURES.iter().position(|f| f.0 == name) {
            Some(i) => self.on[i],
            None => panic!("kernel-gen: unknown feature `{name}` in the generator"),
        }
    }

    /// Switches features on or off; `list` is comma-separated.
    pub fn set(&mut self, list: &str, on: bool) -> Result<(), String> {
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if name == "all" {
                self.on.iter_mut().for_each(|x| *x = on);
                continue;
            }
            match FEATURES.iter().position(|f| f.0 == name) {
                Some(i) => self.on[i] = on,
                None => return Err(format!("unknown feature `{name}` (see --list-features)")),
            }
        }
        Ok(())
    }

    /// The non-default settings, as command-line arguments.
    pub fn to_args(&self) -> String {
        let mut en = vec![];
        let mut dis = vec![];
        for (i, f) in FEATURES.iter().enumerate() {
            if self.on[i] != f.1 {
                if self.on[i] {
                    en.push(f.0)
                } else {
                    dis.push(f.0)
                }
            }
        }
        let mut s = String::new();
        if !en.is_empty() {
            s += &format!(" --enable {}", en.join(","));
        }
        if !dis.is_empty() {
            s += &format!(" --disable {}", dis.join(","));
        }
        s
    }
}

pub fn list() -> String {
    let mut s = String::from(
        "kernel-gen features (--disable NAME,.. / --enable NAME,..; `all` names every one)\n\
         Every kernel: `#[kernel] pub fn gen_N(input: &[u64], mut out: DisjointSlice<u64>)`, reads input words at \
         `% input.len()` or constant indices < 1024, digests every value it computes into a u64 (mix = rotate_left(5), \
         xor, wrapping_mul) and writes it to out[i]. Floats are digested through canon32/canon64 (NaN -> canonical \
         bits), except the raw bits of float-bits. Every kernel is well-defined Rust (no unsafe, no UB); overflow checks are assumed off, as in both \
         builds.\n\n",
    );
    for (name, on, what) in FEATURES {
        let what = what.split_whitespace().collect::<Vec<_>>().join(" ");
        s += &format!("  {:<16} {:<4} {}\n", name, if *on { "on" } else { "off" }, what);
    }
    s += "\nNot generated: unsafe, raw pointers, recursion, heap, slices of locals, float ops whose results \
          are not IEEE-exact (min/max with signed zeros, sqrt/transcendentals absent in core), \
          barriers/shared memory, atomics, cross-thread communication.\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toggles() {
        let mut f = Features::default();
        assert!(f.has("int128") && !f.has("float-rem"));
        f.set("int128,float-rem", false).unwrap();
        assert!(!f.has("int128"));
        assert_eq!(f.to_args(), " --disable int128");
        assert!(f.set("nope", true).is_err());
        f.set("all", false).unwrap();
        assert!(!f.has("loops"));
    }
}
