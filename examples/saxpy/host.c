/* examples/saxpy/host.c: runs saxpy(a: f32, x: &[f32],
 * y: DisjointSlice<f32>) and checks every y[i] bit-exactly against the CPU
 * value a*x[i] + y[i] rounded twice, as Rust defines it (no FMA
 * contraction; build this file with -ffp-contract=off). When results
 * differ, says whether they match a fused multiply-add instead.
 * The launch is typed: saxpy.h (oxidec --emit=header; -iquote build/examples
 * -iquote src/runtime) declares saxpy_launch(..., float a, const float *x,
 * size_t x_len, float *y, size_t y_len).
 * usage: host MODULE.ptx|MODULE.cubin */
#include "saxpy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 256u

static uint32_t rng_state = 0x2545f491u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* A finite float of random sign and mantissa, exponent 2^-20..2^20; at
 * i % 1000 == 7 a subnormal, so flush-to-zero arithmetic would show. */
static float random_float(size_t i)
{
	uint32_t bits = rng_next() & 0x807fffffu;
	float f;

	if (i % 1000 != 7)
		bits |= (107 + rng_next() % 41) << 23;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static uint32_t float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

/* Rust's a*x + y: the product is rounded to f32 before the add. */
static float saxpy_ref(float a, float x, float y)
{
	volatile float product = a * x;

	return product + y;
}

/* Counts mismatches (printing a few) and, among them, FMA-shaped ones. */
static size_t count_mismatches(float a, const float *x, const float *y0,
                               const float *got, size_t n, size_t *fused)
{
	size_t bad = 0;

	*fused = 0;
	for (size_t i = 0; i < n; i++) {
		float want = saxpy_ref(a, x[i], y0[i]);

		if (float_bits(got[i]) == float_bits(want))
			continue;
		if (float_bits(got[i]) == float_bits(fmaf(a, x[i], y0[i])))
			++*fused;
		if (bad++ < 5)
			printf("  y[%zu] = %a (0x%08x), want %a (0x%08x) = "
			       "%a * %a + %a\n", i, (double)got[i],
			       float_bits(got[i]), (double)want,
			       float_bits(want), (double)a, (double)x[i],
			       (double)y0[i]);
	}
	return bad;
}

/* How many elements an FMA would change: shows the test can see one. */
static size_t count_fma_sensitive(float a, const float *x, const float *y,
                                  size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += float_bits(fmaf(a, x[i], y[i])) !=
		     float_bits(saxpy_ref(a, x[i], y[i]));
	return k;
}

static void report(size_t bad, size_t fused, size_t sensitive, size_t n)
{
	if (bad == 0) {
		printf("PASS saxpy: %zu/%zu elements bit-exact (an FMA would "
		       "have changed %zu)\n", n, n, sensitive);
		return;
	}
	printf("FAIL saxpy: %zu of %zu elements differ\n", bad, n);
	if (fused > 0)
		printf("  %zu of them equal fmaf(a, x, y): a*x + y was "
		       "contracted into an FMA, which Rust forbids\n", fused);
}

int main(int argc, char **argv)
{
	const size_t n = (1u << 20) + 3;   /* not a multiple of BLOCK */
	const size_t bytes = n * sizeof(float);
	float a = 0.7853982f;
	float *x = malloc(bytes), *y = malloc(bytes), *got = malloc(bytes);
	OxModule mod;
	OxFunc fn;
	OxDevPtr dx, dy;
	size_t bad, fused;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin\n", argv[0]);
		return 2;
	}
	if (x == NULL || y == NULL || got == NULL) {
		fprintf(stderr, "saxpy: out of host memory\n");
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		x[i] = random_float(i);
		y[i] = random_float(i);
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(saxpy_function(&fn, &mod));
	OX_CHECK(ox_alloc(&dx, bytes));
	OX_CHECK(ox_alloc(&dy, bytes));
	OX_CHECK(ox_copy_to_device(dx, x, bytes));
	OX_CHECK(ox_copy_to_device(dy, y, bytes));
	OX_CHECK(saxpy_launch(&fn, ox_dim(ox_blocks_for(n, BLOCK), 1, 1), ox_dim(BLOCK, 1, 1), 0, NULL, a,
	                      OX_DEVICE_PTR(const float, dx), n, OX_DEVICE_PTR(float, dy), n));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(got, dy, bytes));
	bad = count_mismatches(a, x, y, got, n, &fused);
	report(bad, fused, count_fma_sensitive(a, x, y, n), n);
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy));
	ox_module_unload(&mod);
	ox_shutdown();
	free(x);
	free(y);
	free(got);
	return bad != 0;
}
