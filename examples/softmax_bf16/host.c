/* examples/softmax_bf16/host.c: runs softmax_bf16(x: *const u16, y: *mut
 * u16, rows: u32, cols: u32) (one warp per row, bf16 in and out, f32
 * inside) and checks every output against a double-precision softmax of
 * the same bf16 inputs: within one bf16 rounding (2^-8 relative) plus
 * the f32 arithmetic's error, and every row's outputs summing to 1 within
 * cols * 2^-8. Sizes: 64 x 512 and 37 x 1024 (rows not a multiple of the
 * block's 8 warps); 4096 x 4096 on the GPU.
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng_state = 0x2545f491u;

/* a bf16 in [-8, 8] */
static uint16_t rnd_bf16(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	float f = (float)(rng_state % 16001) / 1000.0f - 8.0f;
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

static int check(const OxFunc *fn, uint32_t rows, uint32_t cols)
{
	size_t n = (size_t)rows * cols;
	uint16_t *x = malloc(n * 2), *y = malloc(n * 2);
	OxDevPtr dx, dy;
	void *args[] = {&dx, &dy, &rows, &cols};
	size_t bad = 0;
	double worst = 0;

	if (x == NULL || y == NULL)
		exit(1);
	for (size_t i = 0; i < n; i++)
		x[i] = rnd_bf16();
	OX_CHECK(ox_alloc(&dx, n * 2));
	OX_CHECK(ox_alloc(&dy, n * 2));
	OX_CHECK(ox_copy_to_device(dx, x, n * 2));
	OX_CHECK(ox_memset8(dy, 0xff, n * 2));
	OX_CHECK(ox_launch_sync(fn, ox_dim((rows + 7) / 8, 1, 1), ox_dim(256, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(y, dy, n * 2));
	for (uint32_t r = 0; r < rows; r++) {
		const uint16_t *xr = x + (size_t)r * cols, *yr = y + (size_t)r * cols;
		double m = -INFINITY, s = 0, total = 0;
		for (uint32_t c = 0; c < cols; c++)
			m = fmax(m, bf16_value(xr[c]));
		for (uint32_t c = 0; c < cols; c++)
			s += exp(bf16_value(xr[c]) - m);
		for (uint32_t c = 0; c < cols; c++) {
			double ref = exp(bf16_value(xr[c]) - m) / s, got = bf16_value(yr[c]);
			double err = fabs(got - ref) / ref;
			total += got;
			if (!(err <= 1.0 / 256 + 1e-5) && bad++ < 5)
				printf("  y[%u][%u] = %.6g, want %.6g\n", r, c, got, ref);
			if (err > worst)
				worst = err;
		}
		if (!(fabs(total - 1) <= cols / 256.0 * 1e-2 + 1e-2) && bad++ < 5)
			printf("  row %u sums to %.6g\n", r, total);
	}
	if (bad == 0)
		printf("PASS softmax_bf16 %ux%u: every output within 2^-8 of the double softmax (worst %.2g)\n",
		       rows, cols, worst);
	else
		printf("FAIL softmax_bf16 %ux%u: %zu outputs out of tolerance\n", rows, cols, bad);
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dy));
	free(x);
	free(y);
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
	OX_CHECK(ox_function(&fn, &mod, "softmax_bf16"));
	failed += check(&fn, 64, 512);
	failed += check(&fn, 37, 1024);
	if (len < 3 || strcmp(argv[1] + len - 3, ".so") != 0)
		failed += check(&fn, 4096, 4096);
	return failed != 0;
}
