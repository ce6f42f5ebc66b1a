/* examples/recursion/host.c: runs the two recursive kernels of
 * examples/recursion and checks every result against the same recursion
 * in C.
 *
 *   tree_walk(keys: &[u64], depth: u32, out: DisjointSlice<u64>), depth 4:
 *     launched with CUDA's default stack (1,024 bytes per thread, or what
 *     ox_module_load set from the kernels' frames); it fits only because
 *     oxidec's frames are small, at -O0 too (before: 104 + 5 x 304 bytes
 *     at -O0 with ptxas 13.0, sm_90; now 48 + 5 x 160).
 *   chain(keys, depth, out), depth 100..107: mutual recursion needing
 *     several KiB at any -O level (oxidec's warning: 48 bytes per level
 *     down_a -> down_b -> down_a with nvJitLink's ptxas, 88 with ptxas
 *     13.0), so the stack is raised to 8 KiB with ox_set_stack_size first.
 *   gcd_pairs(keys, depth, out): Euclid's gcd by tail recursion (a loop
 *     at -O1 and above), under 30 calls deep.
 *
 * PTX parameters of both: keys_ptr, keys_len (64-bit), depth (32-bit),
 * out_ptr, out_len.  usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "../../src/runtime/oxrt.h"

#include <stdio.h>
#include <stdlib.h>

#define BLOCK 128u
#define NTHREADS 4096u
#define NKEYS 1024u
#define TREE_DEPTH 4u
#define CHAIN_DEPTH 100u
#define CHAIN_STACK 8192u
#define GCD_ADD 1u
#define POISON 0xdedededededededeull  /* ox_memset8 0xde */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x00000100000001b3ull;
}

static uint64_t rotl(uint64_t x, unsigned r)
{
	return r ? x << r | x >> (64 - r) : x;
}

/* walk() of src/lib.rs: node k's children are present when bit 0 (left)
 * or bit 1 (right) of its key is clear. */
static uint64_t walk_ref(const uint64_t *keys, size_t k, unsigned depth,
                         uint64_t acc[4], uint32_t *count)
{
	uint64_t w, h;
	size_t child[2];
	int has[2];

	*count = 0;
	if (depth == 0)
		return 0;
	w = keys[k % NKEYS];
	has[0] = (w & 1) == 0, child[0] = (size_t)((w >> 8) % NKEYS);
	has[1] = (w & 2) == 0, child[1] = (size_t)((w >> 24) % NKEYS);
	acc[depth % 4] ^= w;
	h = mix(0xcbf29ce484222325ull, w);
	*count = 1;
	for (int c = 0; c < 2; c++) {
		uint32_t cc;
		uint64_t hc;

		if (!has[c])
			continue;
		hc = walk_ref(keys, child[c], depth - 1, acc, &cc);
		h = mix(h, hc);
		*count += cc;
	}
	return h;
}

static uint64_t tree_walk_ref(const uint64_t *keys, size_t i)
{
	uint64_t acc[4] = {0, 0, 0, 0};
	uint32_t count;
	uint64_t h = walk_ref(keys, i, TREE_DEPTH, acc, &count);

	return mix(mix(h, count), acc[0] ^ rotl(acc[1], 16) ^
	           rotl(acc[2], 32) ^ rotl(acc[3], 48));
}

static uint64_t down_b_ref(const uint64_t *keys, size_t k, unsigned n);

static uint64_t down_a_ref(const uint64_t *keys, size_t k, unsigned n)
{
	uint64_t w = keys[k % NKEYS];

	return n == 0 ? w : mix(down_b_ref(keys, (size_t)(w >> 3), n - 1), w);
}

static uint64_t down_b_ref(const uint64_t *keys, size_t k, unsigned n)
{
	uint64_t w = keys[k % NKEYS];

	if (n == 0)
		return ~w;
	return rotl(mix(w, down_a_ref(keys, (size_t)(w >> 5) ^ k, n - 1)), 7);
}

static uint64_t chain_ref(const uint64_t *keys, size_t i)
{
	return down_a_ref(keys, i, CHAIN_DEPTH + (unsigned)(i % 8));
}

static uint64_t gcd_pairs_ref(const uint64_t *keys, size_t i)
{
	uint64_t w = keys[i % NKEYS];
	uint32_t a = (uint32_t)w % 100000 + GCD_ADD;
	uint32_t b = (uint32_t)(w >> 32) % 100000;

	while (b != 0) {
		uint32_t r = a % b;

		a = b, b = r;
	}
	return a;
}

/* Launches kernel `name` over NTHREADS threads and compares each result
 * with ref; returns the number of mismatches (printing the first few). */
static size_t run(const OxModule *mod, const char *name, uint32_t depth,
                  OxDevPtr dkeys, OxDevPtr dout, const uint64_t *keys,
                  uint64_t (*ref)(const uint64_t *, size_t))
{
	static uint64_t got[NTHREADS];
	uint64_t keys_len = NKEYS, out_len = NTHREADS;
	void *args[] = {&dkeys, &keys_len, &depth, &dout, &out_len};
	size_t bad = 0;
	OxFunc fn;
	int local;

	OX_CHECK(ox_function(&fn, mod, name));
	if (ox_func_attribute(&local, OX_FUNC_LOCAL_SIZE_BYTES, &fn) == 0)
		printf("  %s: %d bytes of local memory (cuFuncGetAttribute)\n",
		       name, local);
	OX_CHECK(ox_memset8(dout, 0xde, NTHREADS * sizeof(uint64_t)));
	OX_CHECK(ox_launch_sync(&fn, ox_dim(NTHREADS / BLOCK, 1, 1),
	                        ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_copy_from_device(got, dout, sizeof got));
	for (size_t i = 0; i < NTHREADS; i++) {
		uint64_t want = ref(keys, i);

		if (got[i] == want)
			continue;
		if (bad++ < 5)
			printf("  %s: out[%zu] = 0x%016llx, want 0x%016llx%s\n",
			       name, i, (unsigned long long)got[i],
			       (unsigned long long)want,
			       got[i] == POISON ? " (never written)" : "");
	}
	if (bad == 0)
		printf("PASS %s: %u/%u results exact\n", name, NTHREADS,
		       NTHREADS);
	else
		printf("FAIL %s: %zu of %u results differ\n", name, bad,
		       NTHREADS);
	return bad;
}

int main(int argc, char **argv)
{
	static uint64_t keys[NKEYS];
	OxModule mod;
	OxDevPtr dkeys, dout;
	size_t stack, bad;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin|MODULE.so\n",
		        argv[0]);
		return 2;
	}
	for (size_t k = 0; k < NKEYS; k++)
		keys[k] = rng_next();
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_alloc(&dkeys, sizeof keys));
	OX_CHECK(ox_alloc(&dout, NTHREADS * sizeof(uint64_t)));
	OX_CHECK(ox_copy_to_device(dkeys, keys, sizeof keys));
	OX_CHECK(ox_stack_size(&stack));
	printf("  stack limit after loading: %zu bytes per thread\n", stack);
	bad = run(&mod, "tree_walk", TREE_DEPTH, dkeys, dout, keys,
	          tree_walk_ref);
	OX_CHECK(ox_set_stack_size(CHAIN_STACK));
	OX_CHECK(ox_stack_size(&stack));
	printf("  stack limit raised to %zu bytes per thread\n", stack);
	bad += run(&mod, "chain", CHAIN_DEPTH, dkeys, dout, keys, chain_ref);
	bad += run(&mod, "gcd_pairs", GCD_ADD, dkeys, dout, keys, gcd_pairs_ref);
	OX_CHECK(ox_free(dkeys));
	OX_CHECK(ox_free(dout));
	ox_module_unload(&mod);
	ox_shutdown();
	return bad != 0;
}
