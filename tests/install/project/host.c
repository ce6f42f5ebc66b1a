/* tests/install/project/host.c: a user's host program built against the
 * installed oxrt (<oxide/oxrt.h>, pkg-config oxrt): runs
 * mul_add_index(k, x, out) on MODULE (the emulated kernels.so, or PTX /
 * cubin on a GPU) and checks every out[i] == x[i] * k + i (mod 2^32).
 * The launch is typed: kernels.h (oxide.mk's rule, oxidec --emit=header;
 * it includes "oxrt.h", found through pkg-config's -I.../include/oxide)
 * declares mul_add_index_launch(..., uint32_t k, const uint32_t *x,
 * size_t x_len, uint32_t *out, size_t out_len).
 * usage: host MODULE */
#include <oxide/oxrt.h>
#include "kernels.h"

#include <stdio.h>
#include <stdlib.h>

#define BLOCK 128u

int main(int argc, char **argv)
{
	const size_t n = 10007;     /* not a multiple of BLOCK */
	uint32_t k = 2654435761u, *x = malloc(n * 4), *out = malloc(n * 4);
	OxModule mod;
	OxFunc fn;
	OxDevPtr dx, dout;
	if (argc != 2 || !x || !out) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = (uint32_t)(i * 7919u + 13u);
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(mul_add_index_function(&fn, &mod));
	OX_CHECK(ox_alloc(&dx, n * 4));
	OX_CHECK(ox_alloc(&dout, n * 4));
	OX_CHECK(ox_copy_to_device(dx, x, n * 4));
	OX_CHECK(ox_memset32(dout, 0xdeadbeefu, n));
	OX_CHECK(mul_add_index_launch(&fn, ox_dim(ox_blocks_for(n, BLOCK), 1, 1), ox_dim(BLOCK, 1, 1), 0, NULL, k,
	                              OX_DEVICE_PTR(const uint32_t, dx), n, OX_DEVICE_PTR(uint32_t, dout), n));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(out, dout, n * 4));
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		if (out[i] != x[i] * k + (uint32_t)i && bad++ < 5)
			printf("  out[%zu] = %u, want %u\n", i, out[i], x[i] * k + (uint32_t)i);
	printf("%s mul_add_index: %zu of %zu elements right\n", bad ? "FAIL" : "PASS", n - bad, n);
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dout));
	ox_module_unload(&mod);
	ox_shutdown();
	free(x);
	free(out);
	return bad != 0;
}
