/* examples/vecadd/host.c: runs vecadd(a: &[f32], b: &[f32],
 * c: DisjointSlice<f32>) and checks every c[i] bit-exactly against the CPU
 * sum a[i] + b[i]. Then launches it with a.len < c.len, where the kernel's
 * bounds check on a[i] must trap; that runs last, because a trap leaves
 * the CUDA context unusable.
 * Launches are typed: vecadd.h (oxidec --emit=header, found through
 * -iquote build/examples; it includes oxrt.h, -iquote src/runtime) declares
 * vecadd_launch(f, grid, block, shared, stream, const float *a, size_t
 * a_len, const float *b, size_t b_len, float *c, size_t c_len). The sum
 * runs on a stream: pinned host buffers, async copies both ways.
 * usage: host MODULE.ptx|MODULE.cubin */
#include "vecadd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 256u
#define POISON 0x7fc0deadu      /* a NaN no correct sum produces */

static uint32_t rng_state = 0x9e3779b9u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* A finite float of random sign and mantissa, exponent 2^-20..2^20; at
 * i % 1000 == 7 a subnormal, so a flush-to-zero add would show. */
static float random_float(size_t i)
{
	uint32_t bits = rng_next() & 0x807fffffu;
	float f;

	if (i % 1000 != 7)
		bits |= (107 + rng_next() % 41) << 23;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static uint32_t float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

/* Number of elements whose bits differ; the first few are printed. */
static size_t count_mismatches(const float *got, const float *want,
                               const float *a, const float *b, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (float_bits(got[i]) == float_bits(want[i]))
			continue;
		if (bad++ < 5)
			printf("  c[%zu] = %a (0x%08x), want %a (0x%08x) = "
			       "%a + %a\n", i, (double)got[i],
			       float_bits(got[i]), (double)want[i],
			       float_bits(want[i]), (double)a[i], (double)b[i]);
	}
	return bad;
}

static int check_sum(const OxFunc *fn, size_t n)
{
	size_t bytes = n * sizeof(float);
	float *a, *b, *c, *want = malloc(bytes);
	OxDevPtr da, db, dc;
	OxStream s;
	size_t bad;

	if (want == NULL) {
		fprintf(stderr, "vecadd: out of host memory\n");
		exit(1);
	}
	OX_CHECK(ox_host_alloc((void **)&a, bytes));
	OX_CHECK(ox_host_alloc((void **)&b, bytes));
	OX_CHECK(ox_host_alloc((void **)&c, bytes));
	OX_CHECK(ox_stream_create(&s));
	for (size_t i = 0; i < n; i++) {
		a[i] = random_float(i);
		b[i] = random_float(i);
		want[i] = a[i] + b[i];
	}
	OX_CHECK(ox_alloc(&da, bytes));
	OX_CHECK(ox_alloc(&db, bytes));
	OX_CHECK(ox_alloc(&dc, bytes));
	OX_CHECK(ox_memset32(dc, POISON, n));
	OX_CHECK(ox_copy_to_device_async(da, a, bytes, &s));
	OX_CHECK(ox_copy_to_device_async(db, b, bytes, &s));
	OX_CHECK(vecadd_launch(fn, ox_dim(ox_blocks_for(n, BLOCK), 1, 1), ox_dim(BLOCK, 1, 1), 0, &s,
	                       OX_DEVICE_PTR(const float, da), n, OX_DEVICE_PTR(const float, db), n,
	                       OX_DEVICE_PTR(float, dc), n));
	OX_CHECK(ox_copy_from_device_async(c, dc, bytes, &s));
	OX_CHECK(ox_stream_synchronize(&s));
	OX_CHECK(ox_stream_destroy(&s));
	bad = count_mismatches(c, want, a, b, n);
	if (bad == 0)
		printf("PASS vecadd: %zu/%zu elements bit-exact\n", n, n);
	else
		printf("FAIL vecadd: %zu of %zu elements differ\n", bad, n);
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	OX_CHECK(ox_free(dc));
	OX_CHECK(ox_host_free(a));
	OX_CHECK(ox_host_free(b));
	OX_CHECK(ox_host_free(c));
	free(want);
	return bad != 0;
}

/* a.len = n/2 < c.len = n: threads i >= n/2 read a[i] out of bounds. The
 * buffer really holds n floats, so only the kernel's own check can fail. */
static int check_trap(const OxFunc *fn, size_t n)
{
	OxDevPtr da, db, dc;

	OX_CHECK(ox_alloc(&da, n * sizeof(float)));
	OX_CHECK(ox_alloc(&db, n * sizeof(float)));
	OX_CHECK(ox_alloc(&dc, n * sizeof(float)));
	OX_CHECK(ox_memset32(da, 0, n));
	OX_CHECK(ox_memset32(db, 0, n));
	if (vecadd_launch(fn, ox_dim(ox_blocks_for(n, BLOCK), 1, 1), ox_dim(BLOCK, 1, 1), 0, NULL,
	                  OX_DEVICE_PTR(const float, da), n / 2, OX_DEVICE_PTR(const float, db), n,
	                  OX_DEVICE_PTR(float, dc), n) == 0 && ox_synchronize() == 0) {
		printf("FAIL vecadd bounds check: a.len = %zu < c.len = %zu "
		       "but the kernel did not trap\n", n / 2, n);
		return 1;
	}
	if (!ox_error_is_trap()) {
		printf("FAIL vecadd bounds check: expected a trap, got:\n  %s\n",
		       ox_error());
		return 1;
	}
	printf("PASS vecadd: bounds check trapped as expected (%s)\n",
	       ox_error_name());
	return 0;
}

int main(int argc, char **argv)
{
	const size_t n = (1u << 20) + 3;   /* not a multiple of BLOCK */
	OxModule mod;
	OxFunc fn;
	int failed;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(vecadd_function(&fn, &mod));
	failed = check_sum(&fn, n);
	/* The deliberate trap is left out under compute-sanitizer, which
	 * reports any failed launch as an error. */
	if (!getenv("OX_SKIP_TRAP_TEST"))
		failed += check_trap(&fn, n);
	return failed != 0;
}
