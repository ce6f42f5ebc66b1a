/* examples/sgemm/host.c: runs sgemm(a: &[f32], b: &[f32], c: *mut f32,
 * m: u32, n: u32, k: u32) (16 x 16 shared-memory tiles, blocks of 16 x 16
 * threads) on sizes that are and are not multiples of 16, and checks every
 * element of C against a double-precision CPU product.
 *
 * Tolerance: |c - ref| <= 2 * k * FLT_EPSILON * sum_j |a_ij * b_jk| (+ a
 * tiny absolute term). The kernel adds k products in float in order j =
 * 0..k-1; each step rounds at most twice (product and sum, or once with
 * an FMA, which the GPU may use), so the classic bound for a recursive dot
 * product, gamma_k = k*u/(1 - k*u) with u = FLT_EPSILON/2, times the sum
 * of |terms|, bounds the error; 2*k*FLT_EPSILON = 4*k*u leaves room for
 * the two roundings per step and for the double reference's own error.
 * PTX parameters: a_ptr, a_len, b_ptr, b_len, c (64-bit), m, n, k (32-bit).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t rng_state = 0x6a09e667u;

static float rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return (float)(rng_state % 20001) / 10000.0f - 1.0f;
}

static int check(const OxFunc *fn, uint32_t m, uint32_t n, uint32_t k)
{
	size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
	float *a = malloc(na * 4), *b = malloc(nb * 4), *c = malloc(nc * 4);
	uint64_t la = na, lb = nb;
	OxDevPtr da, db, dc;
	void *args[] = {&da, &la, &db, &lb, &dc, &m, &n, &k};
	size_t bad = 0;
	double worst = 0;

	if (a == NULL || b == NULL || c == NULL)
		exit(1);
	for (size_t i = 0; i < na; i++)
		a[i] = rnd();
	for (size_t i = 0; i < nb; i++)
		b[i] = rnd();
	OX_CHECK(ox_alloc(&da, na * 4));
	OX_CHECK(ox_alloc(&db, nb * 4));
	OX_CHECK(ox_alloc(&dc, nc * 4));
	OX_CHECK(ox_copy_to_device(da, a, na * 4));
	OX_CHECK(ox_copy_to_device(db, b, nb * 4));
	OX_CHECK(ox_memset32(dc, 0x7fc0deadu, nc));
	OX_CHECK(ox_launch_sync(fn, ox_dim((n + 15) / 16, (m + 15) / 16, 1),
	                        ox_dim(16, 16, 1), 0, args));
	OX_CHECK(ox_copy_from_device(c, dc, nc * 4));
	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = 0; j < n; j++) {
			double ref = 0, mag = 0;
			for (uint32_t p = 0; p < k; p++) {
				double t = (double)a[(size_t)i * k + p] * b[(size_t)p * n + j];
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
		printf("PASS sgemm %ux%ux%u: %zu elements within 2*k*FLT_EPSILON "
		       "* sum|a*b| (worst %.2g)\n", m, n, k, nc, worst);
	else
		printf("FAIL sgemm %ux%ux%u: %zu of %zu elements out of "
		       "tolerance\n", m, n, k, bad, nc);
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	OX_CHECK(ox_free(dc));
	free(a);
	free(b);
	free(c);
	return bad != 0;
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc fn;
	int failed;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "sgemm"));
	failed = check(&fn, 256, 192, 320);
	failed += check(&fn, 77, 45, 123);
	return failed != 0;
}
