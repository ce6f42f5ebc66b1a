/* examples/gemm_check.h: what the bf16 GEMM examples' hosts share (mma_gemm,
 * hopper_gemm): random bf16 inputs, and the check of C = A * B^T (A m x k,
 * B n x k, C m x n, row-major) against a double-precision product of the
 * same bf16 values, with sgemm's bound |c - ref| <= 2 k FLT_EPSILON
 * sum|a b| (the products are exact in f32; only the f32 accumulation,
 * in an order the hardware chooses, rounds). */
#ifndef EXAMPLES_GEMM_CHECK_H
#define EXAMPLES_GEMM_CHECK_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t rng_state = 0x9e3779b9u;

/* a bf16 in [-1, 1], by truncation of an f32 (any bf16 will do) */
static uint16_t rnd_bf16(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	float f = (float)(rng_state % 20001) / 10000.0f - 1.0f;
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return (uint16_t)(u >> 16);
}

static double bf16_value(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* Prints PASS or FAIL NAME MxNxK and the first differences; 1 on a failure. */
static int gemm_tn_check(const char *name, const uint16_t *a, const uint16_t *b, const float *c, uint32_t m,
                         uint32_t n, uint32_t k)
{
	size_t bad = 0, nc = (size_t)m * n;
	double worst = 0;

	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = 0; j < n; j++) {
			double ref = 0, mag = 0;
			for (uint32_t p = 0; p < k; p++) {
				double t = bf16_value(a[(size_t)i * k + p]) * bf16_value(b[(size_t)j * k + p]);
				ref += t;
				mag += fabs(t);
			}
			double tol = 2.0 * k * FLT_EPSILON * mag + 1e-30;
			double err = fabs((double)c[(size_t)i * n + j] - ref);
			if (!(err <= tol) && bad++ < 5)
				printf("  c[%u][%u] = %.9g, want %.9g (tolerance %.3g)\n",
				       i, j, (double)c[(size_t)i * n + j], ref, tol);
			if (err / (mag > 0 ? mag : 1) > worst)
				worst = err / (mag > 0 ? mag : 1);
		}
	if (bad == 0)
		printf("PASS %s %ux%ux%u: %zu elements within 2*k*FLT_EPSILON "
		       "* sum|a*b| (worst %.2g)\n", name, m, n, k, nc, worst);
	else
		printf("FAIL %s %ux%ux%u: %zu of %zu elements out of "
		       "tolerance\n", name, m, n, k, bad, nc);
	return bad != 0;
}

#endif
