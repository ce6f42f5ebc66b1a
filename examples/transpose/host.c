/* examples/transpose/host.c: runs transpose(input: &[f32], out: *mut f32,
 * width: u32, height: u32) on matrices whose sides are and are not
 * multiples of the 32 x 32 tile, with blocks of 32 x 8 threads, and checks
 * every element of the transpose bit-exactly (a copy: no arithmetic).
 * PTX parameters: input_ptr, input_len, out (64-bit), width, height (32-bit).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		in[i] = (float)i * 0.25f - 7.0f;
	OX_CHECK(ox_alloc(&di, n * sizeof *in));
	OX_CHECK(ox_alloc(&dout, n * sizeof *out));
	OX_CHECK(ox_copy_to_device(di, in, n * sizeof *in));
	OX_CHECK(ox_memset32(dout, 0x7fc0deadu, n));
	OX_CHECK(ox_launch_sync(fn, ox_dim((w + 31) / 32, (h + 31) / 32, 1),
	                        ox_dim(32, 8, 1), 0, args));
	OX_CHECK(ox_copy_from_device(out, dout, n * sizeof *out));
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			float got = out[(size_t)x * h + y], want = in[(size_t)y * w + x];
			if (memcmp(&got, &want, sizeof got) != 0 && bad++ < 5)
				printf("  out[%u][%u] = %g, want %g\n", x, y,
				       (double)got, (double)want);
		}
	if (bad == 0)
		printf("PASS transpose %ux%u: %zu elements exact\n", h, w, n);
	else
		printf("FAIL transpose %ux%u: %zu of %zu elements differ\n",
		       h, w, bad, n);
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
	OX_CHECK(ox_function(&fn, &mod, "transpose"));
	failed = check(&fn, 1024, 512);
	failed += check(&fn, 333, 77);
	return failed != 0;
}
