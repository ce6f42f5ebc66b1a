/* examples/wgmma_forms/host.c: runs every kernel of wgmma_forms (one
 * wgmma form each: A from shared memory or registers, bf16 or f16, N from
 * 8 to 256) on A (64 x 16 s) and B (N x 16 s) of small random integers,
 * s = 1 and 3 k-steps, and checks every element of C against the exact
 * integer product (every partial sum is an integer below 2^24, so the
 * tensor cores' order of summation cannot change it: any difference is a
 * wrong fragment layout, descriptor or accumulation).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	unsigned n, f16;
} forms[] = {
	{"ss_bf16_n8", 8, 0},    {"ss_bf16_n24", 24, 0},   {"ss_bf16_n64", 64, 0},  {"ss_bf16_n136", 136, 0},
	{"ss_bf16_n256", 256, 0}, {"ss_f16_n16", 16, 1},    {"ss_f16_n96", 96, 1},   {"ss_f16_n256", 256, 1},
	{"rs_bf16_n8", 8, 0},    {"rs_bf16_n120", 120, 0}, {"rs_bf16_n256", 256, 0}, {"rs_f16_n32", 32, 1},
	{"rs_f16_n200", 200, 1},
};

static uint32_t rng_state = 0x9e3779b9u;

static int rnd_int(void)   /* -8 .. 8 */
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return (int)(rng_state % 17) - 8;
}

/* a small integer as bf16 or f16 bits (exact) */
static uint16_t encode(int v, unsigned f16)
{
	float f = (float)v;
	uint32_t u;
	unsigned mag = (unsigned)(v < 0 ? -v : v), e = 0;

	if (!f16) {
		memcpy(&u, &f, sizeof u);
		return (uint16_t)(u >> 16);
	}
	if (mag == 0)
		return v < 0 ? 0x8000 : 0;
	while ((mag >> e) > 1)
		e++;
	/* 1.m x 2^e: the 10-bit fraction is mag's bits below the top one */
	return (uint16_t)((v < 0 ? 0x8000u : 0) | (e + 15) << 10 | ((mag << (10 - e)) & 0x3ffu));
}

static int run(const OxModule *mod, unsigned f, unsigned steps)
{
	unsigned n = forms[f].n, kk = 16 * steps;
	int *ai = malloc(sizeof(int) * 64 * kk), *bi = malloc(sizeof(int) * n * kk);
	uint16_t *a = malloc(2 * 64 * kk), *b = malloc(2 * n * kk);
	float *c = malloc(sizeof(float) * 64 * n);
	OxDevPtr da, db, dc;
	OxFunc fn;
	void *args[] = {&da, &db, &dc, &steps};
	unsigned bad = 0;

	if (!ai || !bi || !a || !b || !c)
		exit(1);
	for (unsigned i = 0; i < 64 * kk; i++)
		a[i] = encode(ai[i] = rnd_int(), forms[f].f16);
	for (unsigned i = 0; i < n * kk; i++)
		b[i] = encode(bi[i] = rnd_int(), forms[f].f16);
	OX_CHECK(ox_function(&fn, mod, forms[f].name));
	OX_CHECK(ox_alloc(&da, 2 * 64 * kk));
	OX_CHECK(ox_alloc(&db, 2 * n * kk));
	OX_CHECK(ox_alloc(&dc, sizeof(float) * 64 * n));
	OX_CHECK(ox_copy_to_device(da, a, 2 * 64 * kk));
	OX_CHECK(ox_copy_to_device(db, b, 2 * n * kk));
	OX_CHECK(ox_memset8(dc, 0xff, sizeof(float) * 64 * n));
	OX_CHECK(ox_launch_sync(&fn, ox_dim(1, 1, 1), ox_dim(128, 1, 1), 2048 + 32 * n, args));
	OX_CHECK(ox_copy_from_device(c, dc, sizeof(float) * 64 * n));
	for (unsigned r = 0; r < 64; r++)
		for (unsigned j = 0; j < n; j++) {
			long want = 0;
			for (unsigned k = 0; k < kk; k++)
				want += (long)ai[r * kk + k] * bi[j * kk + k];
			if (c[r * n + j] != (float)want && bad++ < 5)
				printf("  %s: C[%u][%u] = %g, want %ld\n", forms[f].name, r, j, c[r * n + j], want);
		}
	if (bad == 0)
		printf("PASS %s, %u k-step%s: 64 x %u exact\n", forms[f].name, steps, steps > 1 ? "s" : "", n);
	else
		printf("FAIL %s, %u k-steps: %u of %u elements differ\n", forms[f].name, steps, bad, 64 * n);
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	OX_CHECK(ox_free(dc));
	free(ai), free(bi), free(a), free(b), free(c);
	return bad != 0;
}

int main(int argc, char **argv)
{
	OxModule mod;
	int failed = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++)
		for (unsigned steps = 1; steps <= 3; steps += 2)
			failed += run(&mod, f, steps);
	return failed != 0;
}
