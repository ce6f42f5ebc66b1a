/* examples/histogram/host.c: runs histogram(data: &[u32], bins:
 * &[AtomicU32; 256 used], stats: &[AtomicU32; 7 used]) with 64 blocks of
 * 256 threads over 1M values and checks every bin and statistic exactly
 * (integers: the result cannot depend on the order of the atomics):
 * bins[b] = number of values with low byte b; stats = max, min, count,
 * OR, XOR of all values, number of blocks with a non-empty bin 7, and
 * that the last swap left a valid block id + 1.
 * PTX parameters: data_ptr, data_len, bins_ptr, bins_len, stats_ptr,
 * stats_len (64-bit).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>

#define BLOCK 256u
#define GRID 64u

static uint32_t rng_state = 0x12345679u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

int main(int argc, char **argv)
{
	const size_t n = (1u << 20) + 17;
	uint32_t *data = malloc(n * sizeof *data);
	uint32_t bins[256], want[256] = {0}, stats[8];
	uint32_t mx = 0, mn = UINT32_MAX, or = 0, xor = 0, blocks7 = 0;
	uint64_t len = n, nbins = 256, nstats = 8;
	OxModule mod;
	OxFunc fn;
	OxDevPtr dd, db, ds;
	void *args[] = {&dd, &len, &db, &nbins, &ds, &nstats};
	int bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	if (data == NULL)
		return 1;
	for (size_t i = 0; i < n; i++) {
		/* skewed: low bytes 0..63 four times as likely */
		uint32_t v = rng_next();
		if (v & 0x100)
			v &= ~0xc0u;
		data[i] = v;
		want[v & 255]++;
		mx = v > mx ? v : mx;
		mn = v < mn ? v : mn;
		or |= v;
		xor ^= v;
	}
	/* blocks whose grid-stride share (block b: i = b*256 + t + k*GRID*256)
	 * has a value with low byte 7 */
	for (unsigned b = 0; b < GRID; b++) {
		int found = 0;
		for (size_t i = b * BLOCK; i < n && !found; i += GRID * BLOCK)
			for (size_t t = 0; t < BLOCK && i + t < n && !found; t++)
				found = (data[i + t] & 255) == 7;
		blocks7 += found;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "histogram"));
	OX_CHECK(ox_alloc(&dd, n * sizeof *data));
	OX_CHECK(ox_alloc(&db, sizeof bins));
	OX_CHECK(ox_alloc(&ds, sizeof stats));
	OX_CHECK(ox_copy_to_device(dd, data, n * sizeof *data));
	OX_CHECK(ox_memset32(db, 0, 256));
	OX_CHECK(ox_memset32(ds, 0, 8));
	OX_CHECK(ox_memset32(ds + 4, UINT32_MAX, 1));      /* min starts high */
	OX_CHECK(ox_launch_sync(&fn, ox_dim(GRID, 1, 1), ox_dim(BLOCK, 1, 1),
	                        0, args));
	OX_CHECK(ox_copy_from_device(bins, db, sizeof bins));
	OX_CHECK(ox_copy_from_device(stats, ds, sizeof stats));
	for (int b = 0; b < 256; b++)
		if (bins[b] != want[b] && bad++ < 5)
			printf("  bin %d: got %u, want %u\n", b, bins[b], want[b]);
	if (stats[0] != mx || stats[1] != mn || stats[2] != (uint32_t)n ||
	    stats[3] != or || stats[4] != xor || stats[5] != blocks7 ||
	    stats[6] < 1 || stats[6] > GRID) {
		printf("  stats: max %u/%u min %u/%u count %u/%zu or %08x/%08x "
		       "xor %08x/%08x blocks7 %u/%u last %u (want 1..%u)\n",
		       stats[0], mx, stats[1], mn, stats[2], n, stats[3], or,
		       stats[4], xor, stats[5], blocks7, stats[6], GRID);
		bad++;
	}
	if (bad == 0)
		printf("PASS histogram: 256 bins and 7 atomic statistics exact "
		       "over %zu values\n", n);
	else
		printf("FAIL histogram: %d mismatches\n", bad);
	OX_CHECK(ox_free(dd));
	OX_CHECK(ox_free(db));
	OX_CHECK(ox_free(ds));
	free(data);
	return bad != 0;
}
