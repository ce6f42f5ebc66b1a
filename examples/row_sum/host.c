/* examples/row_sum/host.c: runs row_sum(m: &[f32], ncols: u32,
 * out: DisjointSlice<f32>), one row per thread, and checks every out[i]
 * bit-exactly against the CPU sum of row i taken left to right from 0.0.
 * PTX parameters: m_ptr, m_len (64-bit), ncols (32-bit), out_ptr, out_len.
 * usage: host MODULE.ptx|MODULE.cubin */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 256u
#define NROWS 10007u           /* not a multiple of BLOCK */
#define NCOLS 37u
#define POISON 0x7fc0deadu     /* a NaN no correct sum produces */

static uint32_t rng_state = 0x6a09e667u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* A finite float of random sign and mantissa, exponent 2^-10..2^10, so
 * the summation order changes the rounding. */
static float random_float(void)
{
	uint32_t bits = (rng_next() & 0x807fffffu) |
	                ((117 + rng_next() % 21) << 23);
	float f;

	memcpy(&f, &bits, sizeof f);
	return f;
}

static uint32_t float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

static float row_sum_ref(const float *row, size_t ncols)
{
	float acc = 0.0f;

	for (size_t j = 0; j < ncols; j++)
		acc += row[j];
	return acc;
}

static size_t count_mismatches(const float *m, const float *got)
{
	size_t bad = 0;

	for (size_t i = 0; i < NROWS; i++) {
		float want = row_sum_ref(m + i * NCOLS, NCOLS);

		if (float_bits(got[i]) == float_bits(want))
			continue;
		if (bad++ < 5)
			printf("  out[%zu] = %a (0x%08x), want %a (0x%08x)\n", i,
			       (double)got[i], float_bits(got[i]),
			       (double)want, float_bits(want));
	}
	return bad;
}

int main(int argc, char **argv)
{
	const size_t m_bytes = (size_t)NROWS * NCOLS * sizeof(float);
	const size_t out_bytes = NROWS * sizeof(float);
	float *m = malloc(m_bytes), *got = malloc(out_bytes);
	uint64_t m_len = (uint64_t)NROWS * NCOLS, out_len = NROWS;
	uint32_t ncols = NCOLS;
	OxModule mod;
	OxFunc fn;
	OxDevPtr dm, dout;
	void *args[] = {&dm, &m_len, &ncols, &dout, &out_len};
	size_t bad;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin\n", argv[0]);
		return 2;
	}
	if (m == NULL || got == NULL) {
		fprintf(stderr, "row_sum: out of host memory\n");
		return 1;
	}
	for (size_t k = 0; k < m_len; k++)
		m[k] = random_float();
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "row_sum"));
	OX_CHECK(ox_alloc(&dm, m_bytes));
	OX_CHECK(ox_alloc(&dout, out_bytes));
	OX_CHECK(ox_copy_to_device(dm, m, m_bytes));
	OX_CHECK(ox_memset32(dout, POISON, NROWS));
	OX_CHECK(ox_launch_sync(&fn, ox_dim(ox_blocks_for(NROWS, BLOCK), 1, 1),
	                        ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(got, dout, out_bytes));
	bad = count_mismatches(m, got);
	if (bad == 0)
		printf("PASS row_sum: %u/%u rows bit-exact (%u columns)\n",
		       NROWS, NROWS, NCOLS);
	else
		printf("FAIL row_sum: %zu of %u rows differ\n", bad, NROWS);
	OX_CHECK(ox_free(dm));
	OX_CHECK(ox_free(dout));
	ox_module_unload(&mod);
	ox_shutdown();
	free(m);
	free(got);
	return bad != 0;
}
