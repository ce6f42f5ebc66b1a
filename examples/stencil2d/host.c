/* examples/stencil2d/host.c: runs stencil2d(input: &[f32], out: *mut f32,
 * width: u32, height: u32) with blocks of 16 x 16 threads on grids that
 * are and are not multiples of 16, and checks every point bit-exactly:
 * inside, 0.5*c + 0.125*(n + s + w + e); on the border, the input.
 * Exact whatever the GPU contracts into FMAs: the inputs are integers in
 * [-64, 64], so every sum and product is exactly representable.
 * PTX parameters: input_ptr, input_len, out (64-bit), width, height (32-bit).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng_state = 0x9e3779b9u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static int check(const OxFunc *fn, uint32_t w, uint32_t h)
{
	size_t n = (size_t)w * h, bad = 0;
	float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
	uint64_t len = n;
	OxDevPtr di, dout;
	void *args[] = {&di, &len, &dout, &w, &h};

	if (in == NULL || out == NULL)
		exit(1);
	for (size_t i = 0; i < n; i++)
		in[i] = (float)((int)(rng_next() % 129) - 64);
	OX_CHECK(ox_alloc(&di, n * sizeof *in));
	OX_CHECK(ox_alloc(&dout, n * sizeof *out));
	OX_CHECK(ox_copy_to_device(di, in, n * sizeof *in));
	OX_CHECK(ox_memset32(dout, 0x7fc0deadu, n));
	OX_CHECK(ox_launch_sync(fn, ox_dim((w + 15) / 16, (h + 15) / 16, 1),
	                        ox_dim(16, 16, 1), 0, args));
	OX_CHECK(ox_copy_from_device(out, dout, n * sizeof *out));
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			size_t i = (size_t)y * w + x;
			float want = in[i];
			if (x > 0 && y > 0 && x + 1 < w && y + 1 < h)
				want = 0.5f * in[i] + 0.125f * (in[i - w] + in[i + w] +
				                                in[i - 1] + in[i + 1]);
			if (memcmp(&out[i], &want, sizeof want) != 0 && bad++ < 5)
				printf("  out[%u][%u] = %g, want %g\n", y, x,
				       (double)out[i], (double)want);
		}
	if (bad == 0)
		printf("PASS stencil2d %ux%u: %zu points exact\n", h, w, n);
	else
		printf("FAIL stencil2d %ux%u: %zu of %zu points differ\n", h, w,
		       bad, n);
	OX_CHECK(ox_free(di));
	OX_CHECK(ox_free(dout));
	free(in);
	free(out);
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
	OX_CHECK(ox_function(&fn, &mod, "stencil2d"));
	failed = check(&fn, 512, 256);
	failed += check(&fn, 201, 99);
	return failed != 0;
}
