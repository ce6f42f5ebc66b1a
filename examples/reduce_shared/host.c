/* examples/reduce_shared/host.c: runs reduce_sum(input: &[f32], out:
 * *mut f32) (static shared array) and reduce_sum_dyn (the same with 1 KiB
 * of dynamic shared memory) with blocks of 256 threads, and checks every
 * block sum bit-exactly against the CPU adding in the kernel's order (a
 * tree with halving strides; elements past the end count as 0).
 * PTX parameters: input_ptr, input_len (64-bit), out (64-bit).
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 256u

static uint32_t rng_state = 0x2545f491u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static float tree_sum(const float *in, size_t n, size_t block)
{
	float t[BLOCK];

	for (size_t i = 0; i < BLOCK; i++) {
		size_t g = block * BLOCK + i;
		t[i] = g < n ? in[g] : 0.0f;
	}
	for (size_t s = BLOCK / 2; s > 0; s /= 2)
		for (size_t i = 0; i < s; i++)
			t[i] += t[i + s];
	return t[0];
}

static int run(const OxFunc *fn, const char *name, unsigned shared_bytes,
               const float *in, size_t n)
{
	size_t blocks = ox_blocks_for(n, BLOCK), bad = 0;
	float *out = malloc(blocks * sizeof *out);
	uint64_t len = n;
	OxDevPtr din, dout;
	void *args[] = {&din, &len, &dout};

	if (out == NULL) {
		fprintf(stderr, "reduce_shared: out of host memory\n");
		exit(1);
	}
	OX_CHECK(ox_alloc(&din, n * sizeof *in));
	OX_CHECK(ox_alloc(&dout, blocks * sizeof *out));
	OX_CHECK(ox_copy_to_device(din, in, n * sizeof *in));
	OX_CHECK(ox_memset32(dout, 0x7fc0deadu, blocks));
	OX_CHECK(ox_launch_sync(fn, ox_dim((unsigned)blocks, 1, 1),
	                        ox_dim(BLOCK, 1, 1), shared_bytes, args));
	OX_CHECK(ox_copy_from_device(out, dout, blocks * sizeof *out));
	for (size_t b = 0; b < blocks; b++) {
		float want = tree_sum(in, n, b);
		if (memcmp(&out[b], &want, sizeof want) != 0 && bad++ < 5)
			printf("  block %zu: got %a, want %a\n", b,
			       (double)out[b], (double)want);
	}
	if (bad == 0)
		printf("PASS %s: %zu block sums bit-exact\n", name, blocks);
	else
		printf("FAIL %s: %zu of %zu block sums differ\n", name, bad,
		       blocks);
	OX_CHECK(ox_free(din));
	OX_CHECK(ox_free(dout));
	free(out);
	return bad != 0;
}

int main(int argc, char **argv)
{
	const size_t n = 100000;     /* the last block is partial */
	float *in = malloc(n * sizeof *in);
	OxModule mod;
	OxFunc fn, fn_dyn;
	int failed;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE\n", argv[0]);
		return 2;
	}
	if (in == NULL)
		return 1;
	for (size_t i = 0; i < n; i++)
		in[i] = (float)(rng_next() % 2000001) / 1000.0f - 1000.0f;
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&fn, &mod, "reduce_sum"));
	OX_CHECK(ox_function(&fn_dyn, &mod, "reduce_sum_dyn"));
	failed = run(&fn, "reduce_sum (static shared)", 0, in, n);
	failed += run(&fn_dyn, "reduce_sum_dyn (dynamic shared)",
	              BLOCK * sizeof(float), in, n);
	free(in);
	return failed != 0;
}
