/* oxmath.c: libdevice's math functions (__nv_*) for kernels run by host
 * emulation. oxidec lowers oxide_device::math to calls of libdevice's
 * __nv_* functions; for nvptx it links libdevice itself, for --target=host
 * the calls stay external and resolve, through -rdynamic, to these
 * wrappers over the host's <math.h>, linked into the host program with the
 * rest of src/runtime/. Accuracy is the host libm's (glibc: within the
 * bounds libdevice documents); the fast_* variants are the accurate
 * functions here. Every definition is checked against its declaration in
 * oxide_host_abi.h (the ABI of emulated modules). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "oxide_host_abi.h"

#include <math.h>

#define F1(name, expr) float __nv_##name##f(float x) { return (expr); }
#define D1(name, expr) double __nv_##name(double x) { return (expr); }
#define F2(name, expr) float __nv_##name##f(float x, float y) { return (expr); }
#define D2(name, expr) double __nv_##name(double x, double y) { return (expr); }

F1(sqrt, sqrtf(x))
D1(sqrt, sqrt(x))
F1(rsqrt, 1.0f / sqrtf(x))
D1(rsqrt, 1.0 / sqrt(x))
F1(cbrt, cbrtf(x))
D1(cbrt, cbrt(x))
F1(exp, expf(x))
D1(exp, exp(x))
F1(exp2, exp2f(x))
D1(exp2, exp2(x))
F1(exp10, (float)pow(10.0, (double)x))
D1(exp10, pow(10.0, x))
F1(expm1, expm1f(x))
D1(expm1, expm1(x))
F1(log, logf(x))
D1(log, log(x))
F1(log2, log2f(x))
D1(log2, log2(x))
F1(log10, log10f(x))
D1(log10, log10(x))
F1(log1p, log1pf(x))
D1(log1p, log1p(x))
F1(sin, sinf(x))
D1(sin, sin(x))
F1(cos, cosf(x))
D1(cos, cos(x))
F1(tan, tanf(x))
D1(tan, tan(x))
F1(asin, asinf(x))
D1(asin, asin(x))
F1(acos, acosf(x))
D1(acos, acos(x))
F1(atan, atanf(x))
D1(atan, atan(x))
F1(sinh, sinhf(x))
D1(sinh, sinh(x))
F1(cosh, coshf(x))
D1(cosh, cosh(x))
F1(tanh, tanhf(x))
D1(tanh, tanh(x))
F1(floor, floorf(x))
D1(floor, floor(x))
F1(ceil, ceilf(x))
D1(ceil, ceil(x))
F1(round, roundf(x))
D1(round, round(x))
F1(trunc, truncf(x))
D1(trunc, trunc(x))
F1(fabs, fabsf(x))
D1(fabs, fabs(x))
F1(erf, erff(x))
D1(erf, erf(x))
F1(erfc, erfcf(x))
D1(erfc, erfc(x))
F2(atan2, atan2f(x, y))
D2(atan2, atan2(x, y))
F2(pow, powf(x, y))
D2(pow, pow(x, y))
F2(hypot, hypotf(x, y))
D2(hypot, hypot(x, y))
F2(fmin, fminf(x, y))
D2(fmin, fmin(x, y))
F2(fmax, fmaxf(x, y))
D2(fmax, fmax(x, y))
F2(copysign, copysignf(x, y))
D2(copysign, copysign(x, y))

float __nv_powif(float x, int n) { return powf(x, (float)n); }
double __nv_powi(double x, int n) { return pow(x, (double)n); }
float __nv_fmaf(float a, float b, float c) { return fmaf(a, b, c); }
double __nv_fma(double a, double b, double c) { return fma(a, b, c); }

/* the approximate (fast_*) functions: the accurate ones */
F1(fast_sin, sinf(x))
F1(fast_cos, cosf(x))
F1(fast_tan, tanf(x))
F1(fast_exp, expf(x))
F1(fast_exp10, (float)pow(10.0, (double)x))
F1(fast_log, logf(x))
F1(fast_log2, log2f(x))
F1(fast_log10, log10f(x))
F2(fast_pow, powf(x, y))
F2(fast_fdivide, x / y)

