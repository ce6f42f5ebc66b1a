/* oxemu_half.c: the host emulator's half precision (f16, bf16) and fp8
 * conversions and arithmetic, bit-exact with the GPU's (one rounding to
 * nearest even; each section says how). */
#include "oxemu_impl.h"

/* ---- half precision conversions (the registry's cvt_* rows): PTX's
 * cvt.rn rounds to nearest even and gives the canonical NaN 0x7fff ---- */

unsigned short __oxide_host_cvt_rn_bf16_f32(float x)
{
	uint32_t u;
	memcpy(&u, &x, sizeof u);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return 0x7fff;
	u += 0x7fffu + ((u >> 16) & 1);
	return (unsigned short)(u >> 16);
}

unsigned short __oxide_host_cvt_rn_f16_f32(float x)
{
	uint32_t u;
	memcpy(&u, &x, sizeof u);
	uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
	if (a > 0x7f800000u)
		return 0x7fff;
	if (a >= 0x477ff000u)                  /* >= 65520: rounds to infinity */
		return (unsigned short)(sign | 0x7c00u);
	if (a < 0x38800000u) {                 /* below 2^-14: a multiple of 2^-24 */
		float f;
		memcpy(&f, &a, sizeof f);
		return (unsigned short)(sign | (uint32_t)nearbyint((double)f * 16777216.0));
	}
	a += 0xfffu + ((a >> 13) & 1);
	return (unsigned short)(sign | ((a - 0x38000000u) >> 13));
}

float __oxide_host_cvt_f32_f16(unsigned short h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, u;
	if (e == 0) {
		float f = ldexpf((float)m, -24);
		return sign ? -f : f;
	}
	if (e == 31 && m != 0)
		u = 0x7fffffffu;                   /* cvt.f32.f16 gives the canonical NaN */
	else
		u = sign | (e == 31 ? 0x7f800000u : ((e + 112) << 23) | (m << 13));
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* ---- half precision arithmetic and fp8 conversions (the registry's
 * fma/add/mul_rn_{f16,bf16}[x2], cvt_rn_*x2 rows).  A format is its
 * mantissa bits, its smallest normal exponent and its exponent bias.
 *
 * Why fma is rounded once: the operands are exactly doubles, and so is
 * the product a * b (at most 2 x 11 significant bits, exponents within
 * -266 .. 256, far inside double's range).  The sum p + c is not always
 * exact in double, so it is taken rounded to odd (the round-to-nearest
 * sum, moved by one ulp to the odd neighbour when TwoSum's error is not
 * zero and the sum is even): rounding a round-to-odd result of 53 bits
 * to a format of p <= 51 bits (here 11 at most) gives the correctly
 * rounded result (Boldo & Melquiond, "Emulation of FMA and correctly
 * rounded sums: proved algorithms using rounding to odd", 2008).  The
 * half formats' subnormals and overflow lie far inside double's normal
 * range, so the double steps never underflow or overflow.  add is
 * fma(a, 1, b) and mul fma(a, b, -0): the same exact value, the same
 * IEEE zero signs.  NaN results (NaN operands, inf - inf, 0 * inf) are
 * the canonical NaN 0x7fff. ---- */

struct half_fmt {
	int bits, mbits, emin, bias; /* width, mantissa bits, smallest normal exponent */
	int finite;                  /* no infinities, NaN S.1..1.1..1 (e4m3) */
};

static const struct half_fmt FMT_F16 = {16, 10, -14, 15, 0}, FMT_BF16 = {16, 7, -126, 127, 0},
			     FMT_E4M3 = {8, 3, -6, 7, 1}, FMT_E5M2 = {8, 2, -14, 15, 0};

/* the value of bits h */
static double half_decode(unsigned h, struct half_fmt f)
{
	unsigned mmask = (1u << f.mbits) - 1, emask = (1u << (f.bits - 1 - f.mbits)) - 1;
	unsigned m = h & mmask, e = (h >> f.mbits) & emask;
	double v;

	if (f.finite && e == emask && m == mmask)
		v = NAN;
	else if (e == emask && !f.finite)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)m, f.emin - f.mbits);
	else
		v = ldexp((double)(m | (mmask + 1)), (int)e - f.bias - f.mbits);
	return (h >> (f.bits - 1)) & 1 ? -v : v;
}

/* x (not NaN) rounded to nearest even in format f: its bits; beyond the
 * largest exponent infinity's bits (all-ones exponent), unless f is finite
 * (the caller keeps x within its range).
 * x / quantum is exact (a power-of-two scaling) and below 2^(mbits+2),
 * so nearbyint (the default rounding mode: to nearest even) rounds it
 * once. */
static unsigned half_encode(double x, struct half_fmt f)
{
	unsigned sign = signbit(x) ? 1u << (f.bits - 1) : 0;
	unsigned emax_biased = (1u << (f.bits - 1 - f.mbits)) - 1;
	double a = fabs(x);

	if (a == 0)
		return sign;
	if (isinf(a))
		return sign | emax_biased << f.mbits;
	int e = ilogb(a);
	if (e < f.emin)
		e = f.emin;
	double n = nearbyint(ldexp(a, f.mbits - e)); /* multiples of 2^(e - mbits) */
	if (n >= ldexp(1.0, f.mbits + 1)) {          /* carried into the next binade */
		n /= 2;
		e++;
	}
	if (n < ldexp(1.0, f.mbits))                 /* subnormal (e == emin) or zero */
		return sign | (unsigned)n;
	if (e + f.bias >= (int)emax_biased && !f.finite)
		return sign | emax_biased << f.mbits;
	return sign | (unsigned)(e + f.bias) << f.mbits | ((unsigned)n & ((1u << f.mbits) - 1));
}

/* a * b + c (doubles, a * b exact) rounded to odd at 53 bits */
static double fma_round_odd(double a, double b, double c)
{
	double p = a * b, s = p + c;
	double bp = s - c, err = (p - bp) + (c - (s - bp)); /* TwoSum: p + c = s + err */
	uint64_t u;

	if (err == 0 || !isfinite(s))
		return s;
	memcpy(&u, &s, sizeof u);
	if (u & 1)
		return s;
	return nextafter(s, err > 0 ? INFINITY : -INFINITY);
}

static unsigned half_fma(unsigned a, unsigned b, unsigned c, struct half_fmt f)
{
	double r = fma_round_odd(half_decode(a, f), half_decode(b, f), half_decode(c, f));
	return isnan(r) ? 0x7fffu : half_encode(r, f);
}

/* lane i (0, 1) of each packed operand through half_fma */
static unsigned half2_fma(unsigned a, unsigned b, unsigned c, struct half_fmt f)
{
	unsigned lo = half_fma(a & 0xffffu, b & 0xffffu, c & 0xffffu, f);
	unsigned hi = half_fma(a >> 16, b >> 16, c >> 16, f);
	return hi << 16 | lo;
}

enum { HALF_ONE_F16 = 0x3c00, HALF_ONE_BF16 = 0x3f80, HALF_NEG0 = 0x8000 };

unsigned short __oxide_host_fma_rn_f16(unsigned short a, unsigned short b, unsigned short c)
{
	return (unsigned short)half_fma(a, b, c, FMT_F16);
}

unsigned short __oxide_host_add_rn_f16(unsigned short a, unsigned short b)
{
	return (unsigned short)half_fma(a, HALF_ONE_F16, b, FMT_F16);
}

unsigned short __oxide_host_mul_rn_f16(unsigned short a, unsigned short b)
{
	return (unsigned short)half_fma(a, b, HALF_NEG0, FMT_F16);
}

unsigned short __oxide_host_fma_rn_bf16(unsigned short a, unsigned short b, unsigned short c)
{
	return (unsigned short)half_fma(a, b, c, FMT_BF16);
}

unsigned short __oxide_host_add_rn_bf16(unsigned short a, unsigned short b)
{
	return (unsigned short)half_fma(a, HALF_ONE_BF16, b, FMT_BF16);
}

unsigned short __oxide_host_mul_rn_bf16(unsigned short a, unsigned short b)
{
	return (unsigned short)half_fma(a, b, HALF_NEG0, FMT_BF16);
}

unsigned __oxide_host_fma_rn_f16x2(unsigned a, unsigned b, unsigned c)
{
	return half2_fma(a, b, c, FMT_F16);
}

unsigned __oxide_host_add_rn_f16x2(unsigned a, unsigned b)
{
	return half2_fma(a, HALF_ONE_F16 * 0x10001u, b, FMT_F16);
}

unsigned __oxide_host_mul_rn_f16x2(unsigned a, unsigned b)
{
	return half2_fma(a, b, HALF_NEG0 * 0x10001u, FMT_F16);
}

unsigned __oxide_host_fma_rn_bf16x2(unsigned a, unsigned b, unsigned c)
{
	return half2_fma(a, b, c, FMT_BF16);
}

unsigned __oxide_host_add_rn_bf16x2(unsigned a, unsigned b)
{
	return half2_fma(a, HALF_ONE_BF16 * 0x10001u, b, FMT_BF16);
}

unsigned __oxide_host_mul_rn_bf16x2(unsigned a, unsigned b)
{
	return half2_fma(a, b, HALF_NEG0 * 0x10001u, FMT_BF16);
}

unsigned __oxide_host_cvt_rn_bf16x2_f32(float hi, float lo)
{
	return (unsigned)__oxide_host_cvt_rn_bf16_f32(hi) << 16 | __oxide_host_cvt_rn_bf16_f32(lo);
}

unsigned __oxide_host_cvt_rn_f16x2_f32(float hi, float lo)
{
	return (unsigned)__oxide_host_cvt_rn_f16_f32(hi) << 16 | __oxide_host_cvt_rn_f16_f32(lo);
}

/* f32 -> fp8 with .satfinite: NaN -> 0x7f; beyond the largest finite
 * value (infinities too) -> +-max finite, which is where rounding to
 * nearest would take them or beyond; else the f32 (exactly a double)
 * rounded once by half_encode. */
static unsigned fp8_satfinite(float x, struct half_fmt f, unsigned maxfin)
{
	if (isnan(x))
		return 0x7f;
	if (fabs((double)x) > half_decode(maxfin, f))
		return (signbit(x) ? 0x80u : 0) | maxfin;
	return half_encode(x, f);
}

unsigned short __oxide_host_cvt_rn_satfinite_e4m3x2_f32(float hi, float lo)
{
	return (unsigned short)(fp8_satfinite(hi, FMT_E4M3, 0x7e) << 8 | fp8_satfinite(lo, FMT_E4M3, 0x7e));
}

unsigned short __oxide_host_cvt_rn_satfinite_e5m2x2_f32(float hi, float lo)
{
	return (unsigned short)(fp8_satfinite(hi, FMT_E5M2, 0x7b) << 8 | fp8_satfinite(lo, FMT_E5M2, 0x7b));
}

/* an fp8 value -> f16 bits: exact (every e4m3 / e5m2 value is an f16) */
static unsigned fp8_to_f16(unsigned b, struct half_fmt f)
{
	double v = half_decode(b, f);
	return isnan(v) ? 0x7fffu : half_encode(v, FMT_F16);   /* any NaN: the canonical f16 NaN (H200) */
}

unsigned __oxide_host_cvt_rn_f16x2_e4m3x2(unsigned short x)
{
	return fp8_to_f16(x >> 8, FMT_E4M3) << 16 | fp8_to_f16(x & 0xffu, FMT_E4M3);
}

unsigned __oxide_host_cvt_rn_f16x2_e5m2x2(unsigned short x)
{
	return fp8_to_f16(x >> 8, FMT_E5M2) << 16 | fp8_to_f16(x & 0xffu, FMT_E5M2);
}
