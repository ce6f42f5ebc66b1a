/* examples/const_lookup/host.c: sets the constant-memory static TABLE
 * (Constant<[f32; 64]>) by name with ox_module_global + ox_copy_to_device,
 * runs const_lookup(idx: &[u32], x: &[f32], out: DisjointSlice<f32>) and
 * checks out[i] = TABLE[idx[i] % 64] * x[i] + OFFSET bit-exactly (OFFSET:
 * first its initializer 0.5, then 3.0 set by the host; TABLE is filled
 * twice, so a stale or folded table shows).
 * PTX parameters: idx_ptr, idx_len, x_ptr, x_len, out_ptr, out_len (64-bit).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 128u

static int run(const OxFunc *fn, const OxModule *mod, int round)
{
	const size_t n = 10000;
	uint32_t *idx = malloc(n * 4);
	float *x = malloc(n * 4), *out = malloc(n * 4), table[64];
	float offset = round == 0 ? 0.5f : 3.0f;
	uint64_t len = n;
	OxDevPtr di, dx, dout, dtable, doffset;
	size_t tsize = 0, osize = 0, bad = 0;
	void *args[] = {&di, &len, &dx, &len, &dout, &len};

	if (idx == NULL || x == NULL || out == NULL)
		exit(1);
	for (int i = 0; i < 64; i++)
		table[i] = (float)(i * (round + 1)) * 0.75f - 5.0f;
	for (size_t i = 0; i < n; i++) {
		idx[i] = (uint32_t)(i * 2654435761u);
		x[i] = (float)(i % 97) * 0.125f;
	}
	OX_CHECK(ox_module_global(mod, "TABLE", &dtable, &tsize));
	OX_CHECK(ox_module_global(mod, "OFFSET", &doffset, &osize));
	if (tsize != sizeof table || osize != sizeof offset) {
		printf("FAIL const_lookup: TABLE is %zu bytes (want %zu), "
		       "OFFSET %zu (want 4)\n", tsize, sizeof table, osize);
		return 1;
	}
	OX_CHECK(ox_copy_to_device(dtable, table, sizeof table));
	if (round > 0)
		OX_CHECK(ox_copy_to_device(doffset, &offset, sizeof offset));
	OX_CHECK(ox_alloc(&di, n * 4));
	OX_CHECK(ox_alloc(&dx, n * 4));
	OX_CHECK(ox_alloc(&dout, n * 4));
	OX_CHECK(ox_copy_to_device(di, idx, n * 4));
	OX_CHECK(ox_copy_to_device(dx, x, n * 4));
	OX_CHECK(ox_memset32(dout, 0x7fc0deadu, n));
	OX_CHECK(ox_launch_sync(fn, ox_dim(ox_blocks_for(n, BLOCK), 1, 1),
	                        ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(out, dout, n * 4));
	for (size_t i = 0; i < n; i++) {
		/* the GPU may fuse this into an FMA: x[i] is a multiple of 1/8
		 * below 12.125 and the table a multiple of 1/4, so the product
		 * is exact and both ways round the same */
		float want = table[idx[i] % 64] * x[i] + offset;
		if (memcmp(&out[i], &want, 4) != 0 && bad++ < 5)
			printf("  out[%zu] = %g, want %g\n", i, (double)out[i],
			       (double)want);
	}
	if (bad == 0)
		printf("PASS const_lookup (table %d, OFFSET %g): %zu elements "
		       "exact\n", round + 1, (double)offset, n);
	else
		printf("FAIL const_lookup (table %d): %zu of %zu differ\n",
		       round + 1, bad, n);
	OX_CHECK(ox_free(di));
	OX_CHECK(ox_free(dx));
	OX_CHECK(ox_free(dout));
	free(idx);
	free(x);
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
	OX_CHECK(ox_function(&fn, &mod, "const_lookup"));
	failed = run(&fn, &mod, 0);
	failed += run(&fn, &mod, 1);
	return failed != 0;
}
