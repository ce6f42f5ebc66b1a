/* examples/grid_sync/host.c: grid-wide synchronization (grid::sync()) in
 * cooperative launches (ox_launch_cooperative).
 *   two_phase(input: &[u32], partial: *mut u32, out: *mut u32): 8 blocks
 *     of 128 threads over 100,000 words; every block's out[b] must be the
 *     wrapping sum of all of them (it read every block's partial after
 *     grid::sync()), and partial[b] its own share.
 *   stencil(a, b: *mut u32, n: u32, steps: u32): 6 blocks of 128 threads,
 *     n = 5,000, 7 rounds with a grid::sync() after each; the result
 *     (in b: an odd number of rounds) checked word for word against the
 *     same rounds on the host.
 *   The misuse checks: a grid larger than can be co-resident is refused
 *     (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE). Emulated only (they hang
 *     a GPU), and not with OX_SKIP_TRAP_TEST set: two_phase launched with
 *     plain ox_launch, and early_exit (block 0 returns before
 *     grid::sync()) launched cooperatively, must each fail the launch,
 *     reported as a hang.
 * usage: host MODULE.ptx|MODULE.cubin|MODULE.so */
#include "grid_sync.h"        /* oxidec --emit=header: two_phase_launch (cooperative) */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 128u
#define TOO_LARGE 720

static uint32_t rng_state = 0x9e3779b9u;

static uint32_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static int check_two_phase(const OxFunc *fn)
{
	const size_t n = 100000, blocks = 8;
	uint32_t *in = malloc(n * sizeof *in), out[8], partial[8], total = 0, want[8] = {0};
	uint64_t len = n;
	OxDevPtr din, dpart, dout;
	int bad = 0;

	if (in == NULL)
		exit(1);
	for (size_t i = 0; i < n; i++) {
		in[i] = rng_next();
		total += in[i];
		want[i / BLOCK % blocks] += in[i];
	}
	OX_CHECK(ox_alloc(&din, n * sizeof *in));
	OX_CHECK(ox_alloc(&dpart, sizeof partial));
	OX_CHECK(ox_alloc(&dout, sizeof out));
	OX_CHECK(ox_copy_to_device(din, in, n * sizeof *in));
	OX_CHECK(ox_memset32(dout, 0xdeadbeefu, blocks));
	/* the generated launcher: two_phase calls grid::sync(), so it is
	 * launched cooperatively and takes no stream */
	OX_CHECK(two_phase_launch(fn, ox_dim((unsigned)blocks, 1, 1), ox_dim(BLOCK, 1, 1), 0,
	                          OX_DEVICE_PTR(const uint32_t, din), len, OX_DEVICE_PTR(uint32_t, dpart),
	                          OX_DEVICE_PTR(uint32_t, dout)));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(out, dout, sizeof out));
	OX_CHECK(ox_copy_from_device(partial, dpart, sizeof partial));
	for (size_t b = 0; b < blocks; b++)
		if ((out[b] != total || partial[b] != want[b]) && bad++ < 5)
			printf("  block %zu: total %#x (want %#x), partial %#x (want %#x)\n", b, out[b], total,
			       partial[b], want[b]);
	printf("%s two_phase: %zu blocks each read all %zu partials after grid::sync()\n", bad ? "FAIL" : "PASS",
	       blocks, blocks);
	OX_CHECK(ox_free(din));
	OX_CHECK(ox_free(dpart));
	OX_CHECK(ox_free(dout));
	free(in);
	return bad != 0;
}

static void host_stencil(uint32_t *a, uint32_t *b, uint32_t n, uint32_t steps)
{
	for (uint32_t s = 0; s < steps; s++) {
		for (uint32_t i = 0; i < n; i++)
			b[i] = (i > 0 ? a[i - 1] : 0) + a[i] + (i + 1 < n ? a[i + 1] : 0);
		uint32_t *t = a;
		a = b;
		b = t;
	}
}

static int check_stencil(const OxFunc *fn)
{
	uint32_t n = 5000, steps = 7, bad = 0;
	uint32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *got = malloc(n * sizeof *got);
	OxDevPtr da, db;
	void *args[] = {&da, &db, &n, &steps};

	if (a == NULL || b == NULL || got == NULL)
		exit(1);
	for (uint32_t i = 0; i < n; i++)
		a[i] = rng_next();
	OX_CHECK(ox_alloc(&da, n * sizeof *a));
	OX_CHECK(ox_alloc(&db, n * sizeof *b));
	OX_CHECK(ox_copy_to_device(da, a, n * sizeof *a));
	OX_CHECK(ox_memset32(db, 0, n));
	OX_CHECK(ox_launch_cooperative(fn, ox_dim(6, 1, 1), ox_dim(BLOCK, 1, 1), 0, args));
	OX_CHECK(ox_synchronize());
	OX_CHECK(ox_copy_from_device(got, db, n * sizeof *got));   /* odd rounds: the result is in b */
	host_stencil(a, b, n, steps);
	for (uint32_t i = 0; i < n; i++)
		if (got[i] != b[i] && bad++ < 5)
			printf("  stencil[%u]: got %#x, want %#x\n", i, got[i], b[i]);
	printf("%s stencil: %u rounds over %u words, a grid::sync() after each\n", bad ? "FAIL" : "PASS", steps, n);
	OX_CHECK(ox_free(da));
	OX_CHECK(ox_free(db));
	free(a);
	free(b);
	free(got);
	return bad != 0;
}

/* A grid far larger than any GPU holds at once must be refused. */
static int check_too_large(const OxFunc *fn)
{
	OxDevPtr d = 0;
	void *args[] = {&d};
	int rc = ox_launch_cooperative(fn, ox_dim(1u << 20, 1, 1), ox_dim(1024, 1, 1), 0, args);

	if (rc != 0 && ox_error_code() == TOO_LARGE) {
		printf("PASS refused: a cooperative grid of 2^20 blocks of 1024 threads (%s)\n", ox_error());
		return 0;
	}
	printf("FAIL refused: a cooperative grid of 2^20 blocks: %s\n", rc == 0 ? "it launched" : ox_error());
	return 1;
}

/* A launch that must fail as a hang (emulated), with `want` in the error. */
static int check_hang(const char *what, int rc, const char *want)
{
	if (rc != 0 && ox_error_is_trap() && strstr(ox_error(), want) != NULL) {
		printf("PASS hang reported: %s\n  (%s)\n", what, ox_error());
		return 0;
	}
	printf("FAIL hang reported: %s: %s\n", what, rc == 0 ? "it succeeded" : ox_error());
	return 1;
}

static int check_misuse(const OxFunc *phase, const OxFunc *early)
{
	uint32_t zero[4] = {0};
	uint64_t len = 4;
	OxDevPtr din, dpart, dout;
	void *pargs[] = {&din, &len, &dpart, &dout}, *eargs[] = {&dout};
	int bad = 0;

	OX_CHECK(ox_alloc(&din, sizeof zero));
	OX_CHECK(ox_alloc(&dpart, sizeof zero));
	OX_CHECK(ox_alloc(&dout, sizeof zero));
	OX_CHECK(ox_copy_to_device(din, zero, sizeof zero));
	bad |= check_hang("two_phase with plain ox_launch",
	                  ox_launch_sync(phase, ox_dim(4, 1, 1), ox_dim(BLOCK, 1, 1), 0, pargs),
	                  "not cooperative");
	OX_CHECK(ox_launch_cooperative(early, ox_dim(4, 1, 1), ox_dim(BLOCK, 1, 1), 0, eargs));
	bad |= check_hang("early_exit: block 0 returns before grid::sync()", ox_synchronize(),
	                  "3 of the grid's 4 blocks arrived");
	OX_CHECK(ox_free(din));
	OX_CHECK(ox_free(dpart));
	OX_CHECK(ox_free(dout));
	return bad;
}

int main(int argc, char **argv)
{
	OxModule mod;
	OxFunc phase, stencil, early;
	size_t len = argc > 1 ? strlen(argv[1]) : 0;
	int fail = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s MODULE.ptx|MODULE.cubin|MODULE.so\n", argv[0]);
		return 2;
	}
	OX_CHECK(ox_init());
	OX_CHECK(ox_module_load(&mod, argv[1]));
	OX_CHECK(ox_function(&phase, &mod, "two_phase"));
	OX_CHECK(ox_function(&stencil, &mod, "stencil"));
	OX_CHECK(ox_function(&early, &mod, "early_exit"));
	fail |= check_two_phase(&phase);
	fail |= check_stencil(&stencil);
	fail |= check_too_large(&early);
	if (len > 3 && strcmp(argv[1] + len - 3, ".so") == 0 && !getenv("OX_SKIP_TRAP_TEST"))
		fail |= check_misuse(&phase, &early);
	ox_module_unload(&mod);
	ox_shutdown();
	return fail;
}
