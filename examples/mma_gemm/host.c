/* examples/mma_gemm/host.c: runs mma_gemm and mma_gemm_pipelined (a: *const
 * u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) (C = A * B^T,
 * bf16 in, f32 accumulate on the tensor cores; blocks of 256 threads,
 * 128 x 128 tiles; the second with cp.async stages) and checks every
 * element of C against a double-precision CPU product of the same bf16
 * values.
 *
 * Tolerance: the products of two bf16 values are exact in f32; only the
 * f32 accumulation over k rounds, in an order the PTX ISA leaves to the
 * hardware (the emulator sums in double), so the bound of sgemm's host
 * applies: |c - ref| <= 2 * k * FLT_EPSILON * sum_p |a_ip * b_jp|.
 * Sizes: 256 x 256 x 96 and 128 x 384 x 32 everywhere, 1024^3 on the GPU.
 * PTX parameters: a, b, c (64-bit), m, n, k (32-bit).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"
#include "../gemm_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(const OxFunc *fn, const char *name, uint32_t m, uint32_t n, uint32_t k)
{
	size_t na = (size_t)m * k, nb = (size_t)n * k, nc = (size_t)m * n;
	uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
	float *c = malloc(nc * 4);
	OxDevPtr da, db, dc;
	void *args[] = {&da, &db, &dc, &m, &n, &k};
	int bad;

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
	OX_CHECK(ox_launch_sync(fn, ox_dim(n / 128, m / 128, 1), ox_dim(256, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(c, dc, nc * 4));
	bad = gemm_tn_check(name, a, b, c, m, n, k);
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	OX_CHECK(ox_free(dc));
	free(a);
	free(b);
	free(c);
	return bad;
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc fns[2];
	static const char *const names[2] = {"mma_gemm", "mma_gemm_pipelined"};
	int failed = 0;
	size_t len;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	len = strlen(argv[1]);
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	for (int i = 0; i < 2; i++) {
		OX_CHECK(ox_function(&fns[i], &mod, names[i]));
		failed += check(&fns[i], names[i], 256, 256, 96);
		failed += check(&fns[i], names[i], 128, 384, 32);
		if (len < 3 || strcmp(argv[1] + len - 3, ".so") != 0)
			failed += check(&fns[i], names[i], 1024, 1024, 1024);
	}
	return failed != 0;
}
