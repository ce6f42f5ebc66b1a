//! Floating-point math on the GPU, by NVIDIA's libdevice.
//!
//! ```ignore
//! use oxide_device::math::Float;
//! let y = x.sin() * x.exp();           // __nv_sinf, __nv_expf
//! let z = oxide_device::math::fast_sin(x); // __nv_fast_sinf (sin.approx.f32)
//! ```
//!
//! Every function is a call of a bodyless `extern "C"` libdevice function
//! (`__nv_sinf` for `f32`, `__nv_sin` for `f64`). oxidec links libdevice
//! (`$CUDA_HOME/nvvm/libdevice/libdevice.10.bc`) into the module and LLVM
//! inlines what is used, so the PTX contains the instructions, not calls.
//! Under host emulation (`oxidec --target=host`) the same symbols come from
//! `src/runtime/oxmath.c` (the host's `<math.h>`).
//!
//! # Accuracy
//!
//! The bounds are those of the CUDA Math API documentation (CUDA C
//! Programming Guide, "Mathematical Functions"), in units in the last place
//! (ulp) of the correctly rounded result, over the whole range unless said
//! otherwise; libdevice is built without flush-to-zero here.
//!
//! | function | `f32` ulp | `f64` ulp |
//! |---|---|---|
//! | `sqrt` | 0 (IEEE) | 0 (IEEE) |
//! | `rsqrt` | 2 | 1 |
//! | `cbrt` | 1 | 1 |
//! | `exp`, `exp2`, `exp10` | 2 | 1 |
//! | `exp_m1` | 1 | 1 |
//! | `ln`, `log2`, `ln_1p` | 1 | 1 |
//! | `log10` | 2 | 1 |
//! | `sin`, `cos`, `sin_cos` | 2 | 2 |
//! | `tan` | 4 | 2 |
//! | `asin`, `acos`, `atan` | 2 | 2 |
//! | `atan2` | 3 | 2 |
//! | `sinh` | 3 | 2 |
//! | `cosh`, `tanh` | 2 | 1 |
//! | `powf` | 4 | 2 |
//! | `powi` | 4 (as `powf`) | 2 (as `powf`) |
//! | `hypot` | 3 | 2 |
//! | `erf` | 2 | 2 |
//! | `erfc` | 4 | 5 |
//! | `mul_add` (fma), `floor`, `ceil`, `round`, `trunc`, `abs`, `min`, `max`, `copysign` | 0 (exact) | 0 (exact) |
//!
//! The `fast_*` functions use the hardware's approximate instructions
//! (`sin.approx.f32`, `ex2.approx.f32`, `lg2.approx.f32`); their error is
//! absolute in places: `fast_sin`/`fast_cos` 2^-21.41 absolute in [-π, π]
//! and worse outside; `fast_exp` 2 + ⌊1.173·|x|⌋ ulp; `fast_exp10`
//! 2 + ⌊2.97·|x|⌋ ulp; `fast_ln`/`fast_log2`/`fast_log10` 2^-21.41 / 2^-22 /
//! 2^-24 absolute in [0.5, 2], otherwise 3 / 2 / 3 ulp; `fast_tan` derives
//! from `fast_sin / fast_cos`; `fast_powf` is `fast_exp2(y · fast_log2(x))`.
//! Under host emulation they are the accurate functions.

/// libdevice's functions, as oxidec knows them by symbol.
#[allow(missing_docs)]
pub use crate::prims::libdevice as ffi;

/// Math methods for `f32` and `f64` on the GPU (`core` has no `sin`):
/// `use oxide_device::math::Float;` then `x.sin()`. Names and meanings are
/// those of `std`'s methods; see the module documentation for accuracy.
pub trait Float: Copy {
    /// Square root (IEEE, correctly rounded).
    fn sqrt(self) -> Self;
    /// `1 / sqrt(self)`.
    fn rsqrt(self) -> Self;
    /// Cube root.
    fn cbrt(self) -> Self;
    /// e^self.
    fn exp(self) -> Self;
    /// 2^self.
    fn exp2(self) -> Self;
    /// 10^self.
    fn exp10(self) -> Self;
    /// e^self - 1, accurate near 0.
    fn exp_m1(self) -> Self;
    /// Natural logarithm.
    fn ln(self) -> Self;
    /// Base-2 logarithm.
    fn log2(self) -> Self;
    /// Base-10 logarithm.
    fn log10(self) -> Self;
    /// ln(1 + self), accurate near 0.
    fn ln_1p(self) -> Self;
    /// Sine (radians).
    fn sin(self) -> Self;
    /// Cosine (radians).
    fn cos(self) -> Self;
    /// Tangent (radians).
    fn tan(self) -> Self;
    /// `(sin, cos)`.
    fn sin_cos(self) -> (Self, Self);
    /// Arcsine.
    fn asin(self) -> Self;
    /// Arccosine.
    fn acos(self) -> Self;
    /// Arctangent.
    fn atan(self) -> Self;
    /// Four-quadrant arctangent of `self / other` (`self` is y).
    fn atan2(self, other: Self) -> Self;
    /// Hyperbolic sine.
    fn sinh(self) -> Self;
    /// Hyperbolic cosine.
    fn cosh(self) -> Self;
    /// Hyperbolic tangent.
    fn tanh(self) -> Self;
    /// self^n.
    fn powf(self, n: Self) -> Self;
    /// self^n for an integer n: `powf(self, n as Self)` (libdevice's
    /// `__nv_powi*` multiply repeatedly, with an error that grows with n).
    fn powi(self, n: i32) -> Self;
    /// sqrt(self² + other²) without undue overflow.
    fn hypot(self, other: Self) -> Self;
    /// `self * a + b` with one rounding (fma).
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// Largest integer ≤ self.
    fn floor(self) -> Self;
    /// Smallest integer ≥ self.
    fn ceil(self) -> Self;
    /// Nearest integer, halfway cases away from zero.
    fn round(self) -> Self;
    /// Integer part.
    fn trunc(self) -> Self;
    /// Absolute value.
    fn abs(self) -> Self;
    /// Minimum; a NaN operand is ignored.
    fn min(self, other: Self) -> Self;
    /// Maximum; a NaN operand is ignored.
    fn max(self, other: Self) -> Self;
    /// `self`'s magnitude with `sign`'s sign.
    fn copysign(self, sign: Self) -> Self;
    /// Error function.
    fn erf(self) -> Self;
    /// Complementary error function, 1 - erf(self).
    fn erfc(self) -> Self;
}

macro_rules! float_impl {
    ($t:ty, $sqrt:ident, $rsqrt:ident, $cbrt:ident, $exp:ident, $exp2:ident, $exp10:ident,
     $expm1:ident, $log:ident, $log2:ident, $log10:ident, $log1p:ident, $sin:ident, $cos:ident,
     $tan:ident, $asin:ident, $acos:ident, $atan:ident, $atan2:ident, $sinh:ident, $cosh:ident,
     $tanh:ident, $pow:ident, $powi:ident, $hypot:ident, $fma:ident, $floor:ident, $ceil:ident,
     $round:ident, $trunc:ident, $fabs:ident, $fmin:ident, $fmax:ident, $copysign:ident,
     $erf:ident, $erfc:ident) => {
        // SAFETY (every method): libdevice's functions are total, pure and
        // have no preconditions.
        impl Float for $t {
            #[inline(always)] fn sqrt(self) -> $t { unsafe { ffi::$sqrt(self) } }
            #[inline(always)] fn rsqrt(self) -> $t { unsafe { ffi::$rsqrt(self) } }
            #[inline(always)] fn cbrt(self) -> $t { unsafe { ffi::$cbrt(self) } }
            #[inline(always)] fn exp(self) -> $t { unsafe { ffi::$exp(self) } }
            #[inline(always)] fn exp2(self) -> $t { unsafe { ffi::$exp2(self) } }
            #[inline(always)] fn exp10(self) -> $t { unsafe { ffi::$exp10(self) } }
            #[inline(always)] fn exp_m1(self) -> $t { unsafe { ffi::$expm1(self) } }
            #[inline(always)] fn ln(self) -> $t { unsafe { ffi::$log(self) } }
            #[inline(always)] fn log2(self) -> $t { unsafe { ffi::$log2(self) } }
            #[inline(always)] fn log10(self) -> $t { unsafe { ffi::$log10(self) } }
            #[inline(always)] fn ln_1p(self) -> $t { unsafe { ffi::$log1p(self) } }
            #[inline(always)] fn sin(self) -> $t { unsafe { ffi::$sin(self) } }
            #[inline(always)] fn cos(self) -> $t { unsafe { ffi::$cos(self) } }
            #[inline(always)] fn tan(self) -> $t { unsafe { ffi::$tan(self) } }
            #[inline(always)] fn sin_cos(self) -> ($t, $t) { unsafe { (ffi::$sin(self), ffi::$cos(self)) } }
            #[inline(always)] fn asin(self) -> $t { unsafe { ffi::$asin(self) } }
            #[inline(always)] fn acos(self) -> $t { unsafe { ffi::$acos(self) } }
            #[inline(always)] fn atan(self) -> $t { unsafe { ffi::$atan(self) } }
            #[inline(always)] fn atan2(self, other: $t) -> $t { unsafe { ffi::$atan2(self, other) } }
            #[inline(always)] fn sinh(self) -> $t { unsafe { ffi::$sinh(self) } }
            #[inline(always)] fn cosh(self) -> $t { unsafe { ffi::$cosh(self) } }
            #[inline(always)] fn tanh(self) -> $t { unsafe { ffi::$tanh(self) } }
            #[inline(always)] fn powf(self, n: $t) -> $t { unsafe { ffi::$pow(self, n) } }
            #[inline(always)] fn powi(self, n: i32) -> $t { unsafe { ffi::$pow(self, n as $t) } }
            #[inline(always)] fn hypot(self, other: $t) -> $t { unsafe { ffi::$hypot(self, other) } }
            #[inline(always)] fn mul_add(self, a: $t, b: $t) -> $t { unsafe { ffi::$fma(self, a, b) } }
            #[inline(always)] fn floor(self) -> $t { unsafe { ffi::$floor(self) } }
            #[inline(always)] fn ceil(self) -> $t { unsafe { ffi::$ceil(self) } }
            #[inline(always)] fn round(self) -> $t { unsafe { ffi::$round(self) } }
            #[inline(always)] fn trunc(self) -> $t { unsafe { ffi::$trunc(self) } }
            #[inline(always)] fn abs(self) -> $t { unsafe { ffi::$fabs(self) } }
            #[inline(always)] fn min(self, other: $t) -> $t { unsafe { ffi::$fmin(self, other) } }
            #[inline(always)] fn max(self, other: $t) -> $t { unsafe { ffi::$fmax(self, other) } }
            #[inline(always)] fn copysign(self, sign: $t) -> $t { unsafe { ffi::$copysign(self, sign) } }
            #[inline(always)] fn erf(self) -> $t { unsafe { ffi::$erf(self) } }
            #[inline(always)] fn erfc(self) -> $t { unsafe { ffi::$erfc(self) } }
        }
    };
}

float_impl!(f32, __nv_sqrtf, __nv_rsqrtf, __nv_cbrtf, __nv_expf, __nv_exp2f, __nv_exp10f, __nv_expm1f,
    __nv_logf, __nv_log2f, __nv_log10f, __nv_log1pf, __nv_sinf, __nv_cosf, __nv_tanf, __nv_asinf,
    __nv_acosf, __nv_atanf, __nv_atan2f, __nv_sinhf, __nv_coshf, __nv_tanhf, __nv_powf, _powif,
    __nv_hypotf, __nv_fmaf, __nv_floorf, __nv_ceilf, __nv_roundf, __nv_truncf, __nv_fabsf,
    __nv_fminf, __nv_fmaxf, __nv_copysignf, __nv_erff, __nv_erfcf);
float_impl!(f64, __nv_sqrt, __nv_rsqrt, __nv_cbrt, __nv_exp, __nv_exp2, __nv_exp10, __nv_expm1,
    __nv_log, __nv_log2, __nv_log10, __nv_log1p, __nv_sin, __nv_cos, __nv_tan, __nv_asin,
    __nv_acos, __nv_atan, __nv_atan2, __nv_sinh, __nv_cosh, __nv_tanh, __nv_pow, _powi,
    __nv_hypot, __nv_fma, __nv_floor, __nv_ceil, __nv_round, __nv_trunc, __nv_fabs,
    __nv_fmin, __nv_fmax, __nv_copysign, __nv_erf, __nv_erfc);

macro_rules! fast {
    ($($(#[$doc:meta])* $name:ident($($a:ident),*) => $sym:ident;)*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub fn $name($($a: f32),*) -> f32 {
            // SAFETY: a pure libdevice function without preconditions.
            unsafe { ffi::$sym($($a),*) }
        }
    )*};
}

fast! {
    /// Approximate sine (`sin.approx.f32`): 2^-21.41 absolute error in [-π, π].
    fast_sin(x) => __nv_fast_sinf;
    /// Approximate cosine (`cos.approx.f32`): about 2^-21.41 absolute error in
    /// [-π, π] per the CUDA guide; measured up to 2^-21.29 on an H200.
    fast_cos(x) => __nv_fast_cosf;
    /// Approximate tangent: `fast_sin(x) / fast_cos(x)`.
    fast_tan(x) => __nv_fast_tanf;
    /// Approximate e^x (`ex2.approx.f32`): 2 + ⌊1.173·|x|⌋ ulp.
    fast_exp(x) => __nv_fast_expf;
    /// Approximate 10^x: 2 + ⌊2.97·|x|⌋ ulp.
    fast_exp10(x) => __nv_fast_exp10f;
    /// Approximate ln x (`lg2.approx.f32`): 2^-21.41 absolute in [0.5, 2], else 3 ulp.
    fast_ln(x) => __nv_fast_logf;
    /// Approximate log2 x: 2^-22 absolute in [0.5, 2], else 2 ulp.
    fast_log2(x) => __nv_fast_log2f;
    /// Approximate log10 x: 2^-24 absolute in [0.5, 2], else 3 ulp.
    fast_log10(x) => __nv_fast_log10f;
    /// Approximate x^y: `fast_exp2(y * fast_log2(x))`.
    fast_powf(x, y) => __nv_fast_powf;
    /// Approximate x / y (`div.approx.f32`): 2 ulp for |y| in [2^-126, 2^126].
    fast_div(x, y) => __nv_fast_fdividef;
}
