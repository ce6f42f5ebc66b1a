/* examples/hopper_gemm/host.c: runs hopper_gemm(a_map, b_map: *const
 * TensorMap, c: *mut f32, m: u32, n: u32, k: u32) (C = A * B^T, bf16 in,
 * f32 accumulate on wgmma, fed by TMA; blocks of 384 threads, 128 x 256
 * tiles, four 48 KiB stages of dynamic shared memory) and checks every
 * element of C against a double-precision CPU product of the same bf16
 * values, with sgemm's bound: |c - ref| <= 2 k FLT_EPSILON sum|a b|.
 * The tensor maps: A as a 2-D tensor of k x m elements (k innermost), box
 * 64 x 128, 128-byte swizzle; B the same with n rows and a box of 64 x
 * 256; both copied to device memory. Sizes: 256 x 256 x 128 and
 * 128 x 512 x 64 everywhere, 1024^3 on the GPU.
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STAGES = 4, SHARED = STAGES * 49152 + 1024 + 2 * STAGES * 8 };

static uint32_t rng_state = 0x9e3779b9u;

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

/* rows x k bf16 at dev, box 64 x box_rows, the map copied to device memory */
static OxDevPtr tensor_map(const OxFunc *fn, OxDevPtr dev, uint32_t rows, uint32_t k, uint32_t box_rows)
{
	OxTensorMapDesc d = {.global = dev, .rank = 2, .elem_bytes = 2, .dims = {k, rows},
	                     .strides = {(uint64_t)k * 2}, .box = {64, box_rows}, .swizzle = 128};
	OxTensorMap map;
	OxDevPtr p;
	OX_CHECK(ox_tensor_map_encode(&map, fn, &d));
	OX_CHECK(ox_alloc(&p, sizeof map));
	OX_CHECK(ox_copy_to_device(p, &map, sizeof map));
	return p;
}

static int check(const OxFunc *fn, uint32_t m, uint32_t n, uint32_t k)
{
	size_t na = (size_t)m * k, nb = (size_t)n * k, nc = (size_t)m * n;
	uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
	float *c = malloc(nc * 4);
	OxDevPtr da, db, dc, ma, mb;
	void *args[] = {&ma, &mb, &dc, &m, &n, &k};
	size_t bad = 0;
	double worst = 0;

	if (a == NULL || b == NULL || c == NULL)
		exit(1);
	for (size_t i = 0; i < na; i++)
		a[i] = rnd_bf16();
	for (size_t i = 0; i < nb; i++)
		b[i] = rnd_bf16();
	OX_CHECK(ox_alloc(&da, na * 2));
	OX_CHECK(ox_alloc(&db, nb * 2));
	OX_CHECK(ox_alloc(&dc, nc * 4));
	OX_CHECK(ox_copy_to_device(da, a, na * 2));
	OX_CHECK(ox_copy_to_device(db, b, nb * 2));
	OX_CHECK(ox_memset32(dc, 0x7fc0deadu, nc));
	ma = tensor_map(fn, da, m, k, 128);
	mb = tensor_map(fn, db, n, k, 256);
	OX_CHECK(ox_launch_sync(fn, ox_dim(n / 256, m / 128, 1), ox_dim(384, 1, 1), SHARED, args));
	OX_CHECK(ox_copy_from_device(c, dc, nc * 4));
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
		printf("PASS hopper_gemm %ux%ux%u: %zu elements within 2*k*FLT_EPSILON "
		       "* sum|a*b| (worst %.2g)\n", m, n, k, nc, worst);
	else
		printf("FAIL hopper_gemm %ux%ux%u: %zu of %zu elements out of "
		       "tolerance\n", m, n, k, bad, nc);
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	OX_CHECK(ox_free(dc));
	OX_CHECK(ox_free(ma));
	OX_CHECK(ox_free(mb));
	free(a);
	free(b);
	free(c);
	return bad != 0;
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc fn;
	int failed = 0;
	size_t len;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	len = strlen(argv[1]);
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "hopper_gemm"));
	OX_CHECK(ox_func_set_max_dynamic_shared(&fn, SHARED));
	failed += check(&fn, 256, 256, 128);
	failed += check(&fn, 128, 512, 64);
	if (len < 3 || strcmp(argv[1] + len - 3, ".so") != 0)
		failed += check(&fn, 1024, 1024, 1024);
	return failed != 0;
}
